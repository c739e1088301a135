//! The ports of the two blocks, each declared ONCE as a callback macro
//! ([`mbarrier_unit_ports!`](crate::mbarrier_unit_ports),
//! [`async_groups_ports!`](crate::async_groups_ports)) in the form of
//! `unit_ports`: expanded here with `unit_ports::declare_ports` into the
//! `Inputs`/`Outputs` structs (one field per port of the contracts
//! `spec/mbarrier_unit.md`, `spec/async_groups.md`, same names), the port
//! tables (`MbarrierUnitPorts`, `AsyncGroupsPorts`: name, direction, width as
//! a function of the [`Config`], in spec order), and expanded by the RTL
//! crate with its own callback to drive its rust-hdl top. `clock` is implicit
//! (one call of a kernel is one cycle); `reset` is a field. Values wider than
//! a port are truncated by the hardware: [`mbarrier::Inputs::masked`] shows
//! what it sees.

use crate::config::Config;

pub use unit_ports::{Dir, Dut, Port, PortBundle, Unit};

/// The ports of `mbarrier_unit` (spec order), for a callback macro.
#[macro_export]
macro_rules! mbarrier_unit_ports {
    ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
        unit MbarrierUnitPorts, module "mbarrier_unit", config $crate::config::Config, inputs Inputs, outputs Outputs;
        |cfg| [
            /// Rising-edge clock of every flop.
            clock: clock bool = 1,
            /// Synchronous active-high reset.
            reset: input bool = 1,
            /// Warp issue presents an mbarrier operation.
            op_valid: input bool = 1,
            /// The operation presented is accepted this cycle (the port arbiter granted it).
            op_ready: output bool = 1,
            /// Issuing warp.
            op_warp: input u8 = cfg.wb(),
            /// Operation (`op::*`).
            op_code: input u8 = 4,
            /// Barrier entry (shared-memory address mapped to an entry, see the spec).
            op_entry: input u8 = cfg.eb(),
            /// Arrival count (init, arrive, arrive_drop, arrive_expect_tx).
            op_count: input u32 = cfg.count_port_bits(),
            /// Transaction bytes (arrive_expect_tx, expect_tx, complete_tx).
            op_tx: input u32 = cfg.tx_port_bits(),
            /// Phase parity waited on (test_wait, try_wait).
            op_parity: input bool = 1,
            /// The copy engine reports `ctx_bytes` transferred for barrier `ctx_entry`.
            ctx_valid: input bool = 1,
            /// Entry the completed transaction bytes count against.
            ctx_entry: input u8 = cfg.eb(),
            /// Bytes completed (pays down tx-count).
            ctx_bytes: input u32 = cfg.tx_port_bits(),
            /// The complete-tx report presented is accepted this cycle.
            ctx_ready: output bool = 1,
            /// A remote arrive from another CTA of the cluster.
            rarv_valid: input bool = 1,
            /// Entry the remote arrive targets.
            rarv_entry: input u8 = cfg.eb(),
            /// Arrival count of the remote arrive.
            rarv_count: input u32 = cfg.count_port_bits(),
            /// The remote arrive presented is accepted this cycle.
            rarv_ready: output bool = 1,
            /// A response to the operation accepted two cycles before.
            rsp_valid: output bool = 1,
            /// Its warp.
            rsp_warp: output u8 = cfg.wb(),
            /// Its op code.
            rsp_op: output u8 = 4,
            /// Arrive variants: parity of the phase the arrival counted in (the state token).
            rsp_token: output bool = 1,
            /// test_wait / try_wait: the phase waited on has completed.
            rsp_done: output bool = 1,
            /// try_wait: the warp is suspended; its answer comes on `wake_*`.
            rsp_suspended: output bool = 1,
            /// Bit w: suspended warp w's try_wait answers this cycle.
            wake_mask: output u64 = cfg.warps,
            /// Bit w (within `wake_mask`): true = phase completed, false = limit passed.
            wake_done: output u64 = cfg.warps,
            /// Bit w: warp w is suspended in a try_wait.
            suspended: output u64 = cfg.warps,
            /// One-cycle pulse: a bad input of the previous cycle was ignored.
            err: output bool = 1,
            /// Port of the reported bad input (`src::*`; op first, then ctx, then rarv).
            err_src: output u8 = 2,
            /// Why (`cause::*`).
            err_cause: output u8 = 4,
        ]
    } };
}

/// The ports of `async_groups` (spec order), for a callback macro.
#[macro_export]
macro_rules! async_groups_ports {
    ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
        unit AsyncGroupsPorts, module "async_groups", config $crate::config::Config, inputs Inputs, outputs Outputs;
        |cfg| [
            /// Rising-edge clock of every flop.
            clock: clock bool = 1,
            /// Synchronous active-high reset.
            reset: input bool = 1,
            /// Warp issue presents a group operation.
            ag_valid: input bool = 1,
            /// The presented operation is accepted this cycle.
            ag_ready: output bool = 1,
            /// Issuing warp.
            ag_warp: input u8 = cfg.wb(),
            /// Operation (`op::*`).
            ag_op: input u8 = 2,
            /// N of `wait_group N`.
            ag_n: input u8 = cfg.group_n_bits(),
            /// The copy engine has read the source of `rd_warp`'s oldest unread operation.
            rd_valid: input bool = 1,
            /// Warp of the read report.
            rd_warp: input u8 = cfg.wb(),
            /// The copy engine has completed (writes visible) `wr_warp`'s oldest incomplete operation.
            wr_valid: input bool = 1,
            /// Warp of the completion report.
            wr_warp: input u8 = cfg.wb(),
            /// Bit w: warp w is blocked in a wait_group (through its release cycle).
            blocked: output u64 = cfg.warps,
            /// Bit w: warp w's wait_group returns this cycle.
            release_mask: output u64 = cfg.warps,
            /// One-cycle pulse: a bad completion report of the previous cycle was ignored.
            err: output bool = 1,
            /// Which reports were bad (`cause::*` bits).
            err_cause: output u8 = 2,
        ]
    } };
}

/// A port table as (name, direction, width) rows in spec order, `clock`
/// shown as an input (derived from the declaration).
fn rows(ports: Vec<Port>) -> Vec<(&'static str, Dir, u32)> {
    ports
        .into_iter()
        .map(|p| {
            let dir = if p.dir == Dir::Clock { Dir::In } else { p.dir };
            (p.name, dir, p.width)
        })
        .collect()
}

/// Ports of `mbarrier_unit`.
pub mod mbarrier {
    use super::{Config, Dir};

    /// `op_code` encodings (4 bits; 9..=15 reserved: refused with `err`).
    pub mod op {
        pub const INIT: u8 = 0;
        pub const INVAL: u8 = 1;
        pub const ARRIVE: u8 = 2;
        pub const ARRIVE_DROP: u8 = 3;
        pub const ARRIVE_EXPECT_TX: u8 = 4;
        pub const EXPECT_TX: u8 = 5;
        pub const COMPLETE_TX: u8 = 6;
        pub const TEST_WAIT: u8 = 7;
        pub const TRY_WAIT: u8 = 8;
        pub const NAMES: [&str; 9] = [
            "init",
            "inval",
            "arrive",
            "arrive_drop",
            "arrive_expect_tx",
            "expect_tx",
            "complete_tx",
            "test_wait",
            "try_wait",
        ];
        pub fn is_reserved(op: u8) -> bool {
            op > TRY_WAIT
        }
        /// Arrive variants: return the state token.
        pub fn is_arrive(op: u8) -> bool {
            matches!(op, ARRIVE | ARRIVE_DROP | ARRIVE_EXPECT_TX)
        }
    }

    /// `err_src` encodings: which port the reported error came from.
    pub mod src {
        pub const OP: u8 = 0;
        pub const CTX: u8 = 1;
        pub const RARV: u8 = 2;
    }

    /// `err_cause` encodings.
    pub mod cause {
        pub const NONE: u8 = 0;
        pub const RESERVED_OP: u8 = 1;
        pub const WARP_SUSPENDED: u8 = 2;
        pub const UNINIT: u8 = 3;
        pub const BAD_COUNT: u8 = 4;
        pub const UNDERFLOW: u8 = 5;
        pub const TX_RANGE: u8 = 6;
        pub const WAITERS: u8 = 7;
        pub const NAMES: [&str; 8] = [
            "none",
            "reserved_op",
            "warp_suspended",
            "uninit",
            "bad_count",
            "underflow",
            "tx_range",
            "waiters",
        ];
    }

    crate::mbarrier_unit_ports!(unit_ports::declare_ports);

    impl Inputs {
        /// What the hardware sees: every field truncated to its port width.
        pub fn masked(&self, cfg: &Config) -> Inputs {
            self.masked_for(cfg)
        }
        /// Present `from`'s operation (`op_valid` and every `op_*` field) on this one.
        pub fn set_op(&mut self, from: &Inputs) {
            self.op_valid = true;
            self.op_warp = from.op_warp;
            self.op_code = from.op_code;
            self.op_entry = from.op_entry;
            self.op_count = from.op_count;
            self.op_tx = from.op_tx;
            self.op_parity = from.op_parity;
        }
        /// The one request of port `port` (`src::*`) of these inputs, alone:
        /// the request a port arbiter that granted `port` takes.
        pub fn only(&self, port: u8) -> Inputs {
            let mut r = Inputs::default();
            match port {
                src::OP => r.set_op(self),
                src::CTX => {
                    r.ctx_valid = true;
                    r.ctx_entry = self.ctx_entry;
                    r.ctx_bytes = self.ctx_bytes;
                }
                _ => {
                    r.rarv_valid = true;
                    r.rarv_entry = self.rarv_entry;
                    r.rarv_count = self.rarv_count;
                }
            }
            r
        }
    }

    /// Ports in spec order: (name, direction, width), from the declaration.
    pub fn port_table(cfg: &Config) -> Vec<(&'static str, Dir, u32)> {
        super::rows(<MbarrierUnitPorts as super::Unit>::ports(cfg))
    }
}

/// Ports of `async_groups`.
pub mod async_groups {
    use super::{Config, Dir};

    /// `ag_op` encodings (2 bits, all used).
    pub mod op {
        /// Issue one bulk async operation into the warp's open group.
        pub const BULK: u8 = 0;
        /// `cp.async.bulk.commit_group`: close the open group.
        pub const COMMIT: u8 = 1;
        /// `cp.async.bulk.wait_group N`: block until ≤ N committed groups pending.
        pub const WAIT: u8 = 2;
        /// `cp.async.bulk.wait_group.read N`: block until ≤ N groups still read their sources.
        pub const WAIT_READ: u8 = 3;
        pub const NAMES: [&str; 4] = ["bulk", "commit", "wait", "wait_read"];
    }

    /// `err_cause` bits.
    pub mod cause {
        /// `rd_valid` for a warp with no unread operation.
        pub const RD_SPURIOUS: u8 = 1;
        /// `wr_valid` for a warp whose oldest incomplete operation is unread (or has none).
        pub const WR_SPURIOUS: u8 = 2;
    }

    crate::async_groups_ports!(unit_ports::declare_ports);

    impl Inputs {
        /// What the hardware sees: every field truncated to its port width.
        pub fn masked(&self, cfg: &Config) -> Inputs {
            self.masked_for(cfg)
        }
    }

    /// Ports in spec order: (name, direction, width), from the declaration.
    pub fn port_table(cfg: &Config) -> Vec<(&'static str, Dir, u32)> {
        super::rows(<AsyncGroupsPorts as super::Unit>::ports(cfg))
    }
}

//! The ports of the two blocks as plain data, one field per port of the
//! contracts (`spec/mbarrier_unit.md`, `spec/async_groups.md`) with the same
//! names, and each block's port table (name, direction, width as a function
//! of the [`Config`]) in spec order. `clock` is implicit (one call of a
//! kernel is one cycle); `reset` is a field. Values wider than a port are
//! truncated by the hardware: [`mbarrier::Inputs::masked`] shows what it sees.

use crate::config::Config;

/// Port direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Ports of `mbarrier_unit`.
pub mod mbarrier {
    use super::{mask, Config, Dir};

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

    /// One cycle of inputs.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Inputs {
        /// Synchronous active-high reset.
        pub reset: bool,
        /// Warp issue presents an mbarrier operation.
        pub op_valid: bool,
        /// Issuing warp.
        pub op_warp: u8,
        /// Operation (`op::*`).
        pub op_code: u8,
        /// Barrier entry (shared-memory address mapped to an entry, see the spec).
        pub op_entry: u8,
        /// Arrival count (init, arrive, arrive_drop, arrive_expect_tx).
        pub op_count: u32,
        /// Transaction bytes (arrive_expect_tx, expect_tx, complete_tx).
        pub op_tx: u32,
        /// Phase parity waited on (test_wait, try_wait).
        pub op_parity: bool,
        /// The copy engine reports `ctx_bytes` transferred for barrier `ctx_entry`.
        pub ctx_valid: bool,
        /// Entry the completed transaction bytes count against.
        pub ctx_entry: u8,
        /// Bytes completed (pays down tx-count).
        pub ctx_bytes: u32,
        /// A remote arrive from another CTA of the cluster.
        pub rarv_valid: bool,
        /// Entry the remote arrive targets.
        pub rarv_entry: u8,
        /// Arrival count of the remote arrive.
        pub rarv_count: u32,
    }

    /// One cycle of outputs. All but `op_ready` are registered.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Outputs {
        /// The operation presented is accepted this cycle (high whenever not in reset).
        pub op_ready: bool,
        /// A response to the operation accepted in the previous cycle.
        pub rsp_valid: bool,
        /// Its warp.
        pub rsp_warp: u8,
        /// Its op code.
        pub rsp_op: u8,
        /// Arrive variants: parity of the phase the arrival counted in (the state token).
        pub rsp_token: bool,
        /// test_wait / try_wait: the phase waited on has completed.
        pub rsp_done: bool,
        /// try_wait: the warp is suspended; its answer comes on `wake_*`.
        pub rsp_suspended: bool,
        /// Bit w: suspended warp w's try_wait answers this cycle.
        pub wake_mask: u64,
        /// Bit w (within `wake_mask`): true = phase completed, false = limit passed.
        pub wake_done: u64,
        /// Bit w: warp w is suspended in a try_wait.
        pub suspended: u64,
        /// One-cycle pulse: a bad input of the previous cycle was ignored.
        pub err: bool,
        /// Port of the reported bad input (`src::*`; op first, then ctx, then rarv).
        pub err_src: u8,
        /// Why (`cause::*`).
        pub err_cause: u8,
    }

    impl Inputs {
        /// What the hardware sees: every field truncated to its port width.
        pub fn masked(&self, cfg: &Config) -> Inputs {
            Inputs {
                reset: self.reset,
                op_valid: self.op_valid,
                op_warp: (self.op_warp as u64 & mask(cfg.wb())) as u8,
                op_code: self.op_code & 0xf,
                op_entry: (self.op_entry as u64 & mask(cfg.eb())) as u8,
                op_count: (self.op_count as u64 & mask(cfg.count_port_bits())) as u32,
                op_tx: (self.op_tx as u64 & mask(cfg.tx_port_bits())) as u32,
                op_parity: self.op_parity,
                ctx_valid: self.ctx_valid,
                ctx_entry: (self.ctx_entry as u64 & mask(cfg.eb())) as u8,
                ctx_bytes: (self.ctx_bytes as u64 & mask(cfg.tx_port_bits())) as u32,
                rarv_valid: self.rarv_valid,
                rarv_entry: (self.rarv_entry as u64 & mask(cfg.eb())) as u8,
                rarv_count: (self.rarv_count as u64 & mask(cfg.count_port_bits())) as u32,
            }
        }
    }

    /// Ports in spec order: (name, direction, width).
    pub fn port_table(cfg: &Config) -> Vec<(&'static str, Dir, u32)> {
        use Dir::*;
        let (wb, eb, cb, tb, w) = (
            cfg.wb(),
            cfg.eb(),
            cfg.count_port_bits(),
            cfg.tx_port_bits(),
            cfg.warps,
        );
        vec![
            ("clock", In, 1),
            ("reset", In, 1),
            ("op_valid", In, 1),
            ("op_ready", Out, 1),
            ("op_warp", In, wb),
            ("op_code", In, 4),
            ("op_entry", In, eb),
            ("op_count", In, cb),
            ("op_tx", In, tb),
            ("op_parity", In, 1),
            ("ctx_valid", In, 1),
            ("ctx_entry", In, eb),
            ("ctx_bytes", In, tb),
            ("rarv_valid", In, 1),
            ("rarv_entry", In, eb),
            ("rarv_count", In, cb),
            ("rsp_valid", Out, 1),
            ("rsp_warp", Out, wb),
            ("rsp_op", Out, 4),
            ("rsp_token", Out, 1),
            ("rsp_done", Out, 1),
            ("rsp_suspended", Out, 1),
            ("wake_mask", Out, w),
            ("wake_done", Out, w),
            ("suspended", Out, w),
            ("err", Out, 1),
            ("err_src", Out, 2),
            ("err_cause", Out, 4),
        ]
    }
}

/// Ports of `async_groups`.
pub mod async_groups {
    use super::{mask, Config, Dir};

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

    /// One cycle of inputs.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Inputs {
        /// Synchronous active-high reset.
        pub reset: bool,
        /// Warp issue presents a group operation.
        pub ag_valid: bool,
        /// Issuing warp.
        pub ag_warp: u8,
        /// Operation (`op::*`).
        pub ag_op: u8,
        /// N of `wait_group N`.
        pub ag_n: u8,
        /// The copy engine has read the source of `rd_warp`'s oldest unread operation.
        pub rd_valid: bool,
        /// Warp of the read report.
        pub rd_warp: u8,
        /// The copy engine has completed (writes visible) `wr_warp`'s oldest incomplete operation.
        pub wr_valid: bool,
        /// Warp of the completion report.
        pub wr_warp: u8,
    }

    /// One cycle of outputs. `ag_ready` and `release_mask` are combinational
    /// from the registered state and `ag_*`; the rest registered.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
    pub struct Outputs {
        /// The presented operation is accepted this cycle.
        pub ag_ready: bool,
        /// Bit w: warp w is blocked in a wait_group (through its release cycle).
        pub blocked: u64,
        /// Bit w: warp w's wait_group returns this cycle.
        pub release_mask: u64,
        /// One-cycle pulse: a bad completion report of the previous cycle was ignored.
        pub err: bool,
        /// Which reports were bad (`cause::*` bits).
        pub err_cause: u8,
    }

    impl Inputs {
        /// What the hardware sees: every field truncated to its port width.
        pub fn masked(&self, cfg: &Config) -> Inputs {
            let wm = mask(cfg.wb());
            Inputs {
                reset: self.reset,
                ag_valid: self.ag_valid,
                ag_warp: (self.ag_warp as u64 & wm) as u8,
                ag_op: self.ag_op & 3,
                ag_n: (self.ag_n as u64 & mask(cfg.group_n_bits())) as u8,
                rd_valid: self.rd_valid,
                rd_warp: (self.rd_warp as u64 & wm) as u8,
                wr_valid: self.wr_valid,
                wr_warp: (self.wr_warp as u64 & wm) as u8,
            }
        }
    }

    /// Ports in spec order: (name, direction, width).
    pub fn port_table(cfg: &Config) -> Vec<(&'static str, Dir, u32)> {
        use Dir::*;
        let (wb, w) = (cfg.wb(), cfg.warps);
        vec![
            ("clock", In, 1),
            ("reset", In, 1),
            ("ag_valid", In, 1),
            ("ag_ready", Out, 1),
            ("ag_warp", In, wb),
            ("ag_op", In, 2),
            ("ag_n", In, cfg.group_n_bits()),
            ("rd_valid", In, 1),
            ("rd_warp", In, wb),
            ("wr_valid", In, 1),
            ("wr_warp", In, wb),
            ("blocked", Out, w),
            ("release_mask", Out, w),
            ("err", Out, 1),
            ("err_cause", Out, 2),
        ]
    }
}

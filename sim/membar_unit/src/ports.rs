//! The SPEC.md ports of `membar_unit` as plain Rust values, and the lockstep
//! API every back end implements: [`Dut::step`] applies one clock cycle's
//! inputs, returns that cycle's outputs (they may depend combinationally on
//! the inputs, e.g. `req_ready`), then takes the rising clock edge.
//!
//! The reference model, the rust-hdl simulation and the Verilated Verilog all
//! implement [`Dut`], so one driver loop, one scoreboard and one comparison
//! ([`Outputs::first_difference`]) serve them all.

/// `req_op` encodings.
pub mod op {
    pub const LD: u8 = 0;
    pub const ST: u8 = 1;
    pub const ATOM: u8 = 2;
    pub const RED: u8 = 3;
    pub const MEMBAR: u8 = 4;
    /// Ops 5..=7 are reserved: refused with `err`.
    pub fn is_reserved(op: u8) -> bool {
        op >= 5
    }
    /// LD/ST/ATOM/RED: leaves downstream as one TXN.
    pub fn is_txn(op: u8) -> bool {
        op <= RED
    }
}

/// `req_level` / `dn_level` encodings.
pub mod level {
    pub const CTA: u8 = 0;
    pub const VC: u8 = 1;
    pub const GL: u8 = 2;
    pub const SYS: u8 = 3;
    pub const NAMES: [&str; 4] = ["CTA", "VC", "GL", "SYS"];
}

/// `dn_kind` encodings.
pub mod kind {
    pub const TXN: u8 = 0;
    pub const INVAL: u8 = 1;
    pub const BARRIER: u8 = 2;
}

/// The SPEC.md ports of `membar_unit`, declared once. Every port list in the
/// project is generated from this declaration: the [`Inputs`]/[`Outputs`]
/// structs and the port table [`MembarUnitPorts`] here (via
/// [`unit_ports::declare_ports`]), the rust-hdl adapter in `hw`, the Verilog
/// wrapper, the Verilator C shim, VCD names and the port check of a Verilog
/// file. Widths are functions of the configuration `cfg`.
#[macro_export]
macro_rules! membar_unit_ports {
    ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
        unit MembarUnitPorts, module "membar_unit", config $crate::Config, inputs Inputs, outputs Outputs;
        |cfg| [
            /// Rising-edge clock of every flop.
            clock: clock bool = 1,
            /// Synchronous reset: state cleared at the edge, outputs forced idle.
            reset: input bool = 1,
            /// A request is offered this cycle.
            req_valid: input bool = 1,
            /// The request is accepted this cycle (`req_valid && req_ready`).
            req_ready: output bool = 1,
            /// Issuing warp.
            req_warp: input u8 = cfg.wb(),
            /// `op::LD/ST/ATOM/RED/MEMBAR`; 5..7 reserved (refused with `err`).
            req_op: input u8 = 3,
            /// MEMBAR level: `level::CTA/VC/GL/SYS`.
            req_level: input u8 = 2,
            /// Fused invalidates of a MEMBAR: bit 0 IVALLD, bit 1 IVALLT.
            req_ivall: input u8 = 2,
            /// Opaque request id, carried to `dn_id`.
            req_id: input u16 = 16,
            /// A downstream command is presented.
            dn_valid: output bool = 1,
            /// Downstream takes the command this cycle.
            dn_ready: input bool = 1,
            /// `kind::TXN/INVAL/BARRIER`.
            dn_kind: output u8 = 2,
            /// Coalescing index the command is tagged with.
            dn_tag: output u8 = cfg.tag_bits(),
            /// Warp of a TXN.
            dn_warp: output u8 = cfg.wb(),
            /// Op of a TXN.
            dn_op: output u8 = 3,
            /// Level of a BARRIER.
            dn_level: output u8 = 2,
            /// The BARRIER asks for `bar_ack`.
            dn_ack_req: output bool = 1,
            /// Id of a TXN (its `req_id`).
            dn_id: output u16 = 16,
            /// The memory system acknowledges one TXN of tag `ack_tag`.
            ack_valid: input bool = 1,
            ack_tag: input u8 = cfg.tag_bits(),
            /// The memory system acknowledges the BARRIER of tag `bar_ack_tag`.
            bar_ack_valid: input bool = 1,
            bar_ack_tag: input u8 = cfg.tag_bits(),
            /// Per warp: blocked by an unreleased MEMBAR.
            warp_blocked: output u64 = cfg.warps,
            /// `release_mask` is valid this cycle.
            release_valid: output bool = 1,
            /// Warps released this cycle.
            release_mask: output u64 = cfg.warps,
            /// One-cycle pulse: a protocol violation at the ports.
            err: output bool = 1,
        ]
    } };
}
membar_unit_ports!(unit_ports::declare_ports);

pub use unit_ports::{Dir, Port, PortBundle, Unit};

/// A back end of `membar_unit` (the reference model, the rust-hdl
/// simulation, the Verilated Verilog) is a `Dut<MembarUnitPorts>`.
pub use unit_ports::Dut;

/// The upstream side (warp issue): sets the `req_*` inputs each cycle and then
/// observes what happened.
pub trait Upstream {
    /// Set `req_valid`, `req_warp`, `req_op`, `req_level`, `req_ivall`, `req_id`.
    fn drive(&mut self, cycle: u64, i: &mut Inputs);
    /// See the cycle's full inputs and outputs (after [`Dut::step`]).
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs);
}

/// The downstream side (memory system / MMU): sets `dn_ready`, `ack_*` and
/// `bar_ack_*` each cycle and then observes what happened.
pub trait Downstream {
    fn drive(&mut self, cycle: u64, i: &mut Inputs);
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs);
    /// Commands received and not yet answered (TXNs awaiting `ack`, BARRIERs
    /// awaiting `bar_ack`): the driver drains until this is 0.
    fn outstanding(&self) -> usize {
        0
    }
}

/// The SPEC.md ports of module `membar_unit` for `cfg`, in SPEC.md order.
pub fn spec_ports(cfg: &crate::Config) -> Vec<Port> {
    MembarUnitPorts::ports(cfg)
}

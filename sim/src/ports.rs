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

/// One cycle of inputs. Fields are the SPEC.md ports; values wider than the
/// configured port width are truncated by the back ends (use
/// [`Inputs::masked`] to see what the hardware sees).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Inputs {
    pub reset: bool,
    pub req_valid: bool,
    pub req_warp: u8,
    pub req_op: u8,
    pub req_level: u8,
    pub req_ivall: u8,
    pub req_id: u16,
    pub dn_ready: bool,
    pub ack_valid: bool,
    pub ack_tag: u8,
    pub bar_ack_valid: bool,
    pub bar_ack_tag: u8,
}

impl Inputs {
    /// The inputs truncated to the configured port widths.
    pub fn masked(&self, wb: u32, tb: u32) -> Inputs {
        let m = |v: u8, bits: u32| {
            if bits >= 8 {
                v
            } else {
                v & ((1u8 << bits) - 1)
            }
        };
        Inputs {
            req_warp: m(self.req_warp, wb),
            req_op: self.req_op & 7,
            req_level: self.req_level & 3,
            req_ivall: self.req_ivall & 3,
            ack_tag: m(self.ack_tag, tb),
            bar_ack_tag: m(self.bar_ack_tag, tb),
            ..*self
        }
    }

    /// `name=value` for every port, for mismatch reports.
    pub fn describe(&self) -> String {
        format!(
            "reset={} req_valid={} req_warp={} req_op={} req_level={} req_ivall={} req_id={:#06x} dn_ready={} ack_valid={} ack_tag={} bar_ack_valid={} bar_ack_tag={}",
            self.reset as u8,
            self.req_valid as u8,
            self.req_warp,
            self.req_op,
            self.req_level,
            self.req_ivall,
            self.req_id,
            self.dn_ready as u8,
            self.ack_valid as u8,
            self.ack_tag,
            self.bar_ack_valid as u8,
            self.bar_ack_tag
        )
    }
}

/// One cycle of outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Outputs {
    pub req_ready: bool,
    pub dn_valid: bool,
    pub dn_kind: u8,
    pub dn_tag: u8,
    pub dn_warp: u8,
    pub dn_op: u8,
    pub dn_level: u8,
    pub dn_ack_req: bool,
    pub dn_id: u16,
    pub warp_blocked: u64,
    pub release_valid: bool,
    pub release_mask: u64,
    pub err: bool,
}

/// The output port names, in SPEC.md order.
pub const OUTPUT_PORTS: [&str; 13] = [
    "req_ready",
    "dn_valid",
    "dn_kind",
    "dn_tag",
    "dn_warp",
    "dn_op",
    "dn_level",
    "dn_ack_req",
    "dn_id",
    "warp_blocked",
    "release_valid",
    "release_mask",
    "err",
];

impl Outputs {
    /// Port values in [`OUTPUT_PORTS`] order.
    pub fn values(&self) -> [u64; 13] {
        [
            self.req_ready as u64,
            self.dn_valid as u64,
            self.dn_kind as u64,
            self.dn_tag as u64,
            self.dn_warp as u64,
            self.dn_op as u64,
            self.dn_level as u64,
            self.dn_ack_req as u64,
            self.dn_id as u64,
            self.warp_blocked,
            self.release_valid as u64,
            self.release_mask,
            self.err as u64,
        ]
    }

    /// The first port (in SPEC.md order) whose value differs:
    /// `(port, self's value, other's value)`.
    pub fn first_difference(&self, other: &Outputs) -> Option<(&'static str, u64, u64)> {
        let (a, b) = (self.values(), other.values());
        (0..a.len())
            .find(|&i| a[i] != b[i])
            .map(|i| (OUTPUT_PORTS[i], a[i], b[i]))
    }

    /// The downstream command is transferred this cycle.
    pub fn dn_fire(&self, i: &Inputs) -> bool {
        self.dn_valid && i.dn_ready
    }
}

/// A back end that can be stepped one clock at a time: the reference model,
/// the rust-hdl simulation, the Verilated Verilog.
pub trait Dut {
    /// Apply this cycle's inputs, return this cycle's outputs, take the clock edge.
    fn step(&mut self, i: &Inputs) -> Outputs;
    /// Short name for reports (`model`, `rust-hdl`, `verilator`).
    fn name(&self) -> &str;
}

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

/// Port direction, as seen from `membar_unit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

/// The SPEC.md ports of module `membar_unit` for `cfg`, in SPEC.md order:
/// (name, direction, width). The emitter writes its wrapper from this table
/// and the Verilator harness checks a Verilog file against it.
pub fn spec_ports(cfg: &crate::Config) -> Vec<(&'static str, Dir, u32)> {
    let (w, wb, tb) = (cfg.warps, cfg.wb(), cfg.tb());
    use Dir::{In, Out};
    vec![
        ("clock", In, 1),
        ("reset", In, 1),
        ("req_valid", In, 1),
        ("req_ready", Out, 1),
        ("req_warp", In, wb),
        ("req_op", In, 3),
        ("req_level", In, 2),
        ("req_ivall", In, 2),
        ("req_id", In, 16),
        ("dn_valid", Out, 1),
        ("dn_ready", In, 1),
        ("dn_kind", Out, 2),
        ("dn_tag", Out, tb),
        ("dn_warp", Out, wb),
        ("dn_op", Out, 3),
        ("dn_level", Out, 2),
        ("dn_ack_req", Out, 1),
        ("dn_id", Out, 16),
        ("ack_valid", In, 1),
        ("ack_tag", In, tb),
        ("bar_ack_valid", In, 1),
        ("bar_ack_tag", In, tb),
        ("warp_blocked", Out, w),
        ("release_valid", Out, 1),
        ("release_mask", Out, w),
        ("err", Out, 1),
    ]
}

//! Port declarations of the two blocks, as plain data: `Inputs`/`Outputs`
//! structs with one field per port of `spec/bar_unit.md` and
//! `spec/cluster_barrier.md` (same names, same order), the encodings, and
//! `port_table(cfg)` listing (name, direction, width) in spec order.
//! `clock` is implicit in `step()`; `reset` is an input field.

use crate::config::{BarConfig, ClusterConfig};

/// Port direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    In,
    Out,
}

/// `req_op` encodings.
pub mod op {
    /// `bar.sync a{, b}`: arrive and wait.
    pub const SYNC: u8 = 0;
    /// `bar.arrive a, b`: arrive, no wait.
    pub const ARRIVE: u8 = 1;
    /// `bar.red.popc.u32`: arrive, wait, count true predicates.
    pub const RED_POPC: u8 = 2;
    /// `bar.red.and.pred`.
    pub const RED_AND: u8 = 3;
    /// `bar.red.or.pred`.
    pub const RED_OR: u8 = 4;
    /// Is `o` a reduction op?
    pub fn is_red(o: u8) -> bool {
        (RED_POPC..=RED_OR).contains(&o)
    }
    /// Does `o` block the issuing warp?
    pub fn blocks(o: u8) -> bool {
        o == SYNC || is_red(o)
    }
}

/// `ctl_op` encodings.
pub mod ctl {
    /// A CTA is launched into `ctl_slot` with warps `ctl_warps`.
    pub const LAUNCH: u8 = 0;
    /// Warp `ctl_warp` exits.
    pub const EXIT: u8 = 1;
}

/// `err_code` encodings of `bar_unit` (0 = no error).
pub mod errc {
    pub const NONE: u8 = 0;
    /// `req_op` 5..7.
    pub const BAD_OP: u8 = 1;
    /// Request from a warp that belongs to no CTA (not live).
    pub const NO_CTA: u8 = 2;
    /// `bar.arrive` without a count (`req_all = 1`).
    pub const ARRIVE_NO_COUNT: u8 = 3;
    /// Explicit count 0.
    pub const ZERO_COUNT: u8 = 4;
    /// Explicit count above the CTA's size in warps.
    pub const COUNT_TOO_BIG: u8 = 5;
    /// Count (or all/explicit form) differs from the one set in this phase.
    pub const COUNT_MISMATCH: u8 = 6;
    /// `bar.red` mixed with sync/arrive, or two reduction kinds, in one phase.
    pub const KIND_MIX: u8 = 7;
    /// Launch into a slot ≥ `cta_slots`.
    pub const SLOT_RANGE: u8 = 8;
    /// Launch into a busy slot.
    pub const SLOT_BUSY: u8 = 9;
    /// Launch with no warps, or with a warp already in a CTA.
    pub const BAD_WARPS: u8 = 10;
    /// Exit of a warp that is in no CTA.
    pub const EXIT_NOT_LIVE: u8 = 11;
    /// Exit of a warp that is blocked at a barrier.
    pub const EXIT_BLOCKED: u8 = 12;
    /// Every cause, for coverage.
    pub const ALL: [u8; 12] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    pub fn name(c: u8) -> &'static str {
        match c {
            0 => "none",
            1 => "bad_op",
            2 => "no_cta",
            3 => "arrive_no_count",
            4 => "zero_count",
            5 => "count_too_big",
            6 => "count_mismatch",
            7 => "kind_mix",
            8 => "slot_range",
            9 => "slot_busy",
            10 => "bad_warps",
            11 => "exit_not_live",
            12 => "exit_blocked",
            _ => "?",
        }
    }
}

/// Inputs of `bar_unit` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BarInputs {
    /// Synchronous, active-high reset: afterwards no CTA, no warp live or blocked, every barrier idle.
    pub reset: bool,
    /// Warp issue presents a barrier request.
    pub req_valid: bool,
    /// Issuing warp (WB bits).
    pub req_warp: u8,
    /// 0 SYNC, 1 ARRIVE, 2 RED_POPC, 3 RED_AND, 4 RED_OR; 5–7 reserved.
    pub req_op: u8,
    /// Barrier id `a`, 0..15 (4 bits).
    pub req_id: u8,
    /// 1: no `b` operand: every live warp of the CTA participates.
    pub req_all: bool,
    /// `b`/32: expected arrivals in warps when `req_all` = 0 (CB bits).
    pub req_count: u8,
    /// `bar.red`: predicate of each of the warp's 32 lanes (`!c` already applied).
    pub req_pred: u32,
    /// A CTA launch or warp exit is presented (always taken).
    pub ctl_valid: bool,
    /// 0 LAUNCH, 1 EXIT.
    pub ctl_op: u8,
    /// LAUNCH: CTA slot (SB bits).
    pub ctl_slot: u8,
    /// LAUNCH: the warps of the CTA (W bits).
    pub ctl_warps: u64,
    /// EXIT: the exiting warp (WB bits).
    pub ctl_warp: u8,
}

/// Outputs of `bar_unit` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct BarOutputs {
    /// The request is taken this cycle (only with `req_valid`).
    pub req_ready: bool,
    /// A barrier completed: its waiters are released this cycle.
    pub rel_valid: bool,
    /// CTA slot of the completed barrier (0 when `rel_valid` is low).
    pub rel_slot: u8,
    /// Id of the completed barrier.
    pub rel_id: u8,
    /// Warps released (its `bar.sync`/`bar.red` waiters; may be 0 when every arrival was `bar.arrive`).
    pub rel_mask: u64,
    /// Kind of the completed phase: 0 SYNC/ARRIVE, 2 RED_POPC, 3 RED_AND, 4 RED_OR.
    pub rel_op: u8,
    /// Reduction result: popc sum, or the AND/OR in bit 0; 0 for SYNC (RB bits).
    pub rel_result: u32,
    /// Bit w: warp w is blocked at a barrier (from the cycle after its request through its release cycle).
    pub blocked: u64,
    /// One-cycle pulse: a protocol violation presented this cycle.
    pub err: bool,
    /// Cause of `err` (see `errc`), 0 when `err` is low (4 bits).
    pub err_code: u8,
}

/// `bar_unit` ports (name, direction, width) in spec order.
pub fn bar_port_table(cfg: &BarConfig) -> Vec<(&'static str, Dir, u32)> {
    let (wb, sb, cb, rb, w) = (cfg.wb(), cfg.sb(), cfg.cb(), cfg.rb(), cfg.warps);
    vec![
        ("clock", Dir::In, 1),
        ("reset", Dir::In, 1),
        ("req_valid", Dir::In, 1),
        ("req_ready", Dir::Out, 1),
        ("req_warp", Dir::In, wb),
        ("req_op", Dir::In, 3),
        ("req_id", Dir::In, 4),
        ("req_all", Dir::In, 1),
        ("req_count", Dir::In, cb),
        ("req_pred", Dir::In, 32),
        ("ctl_valid", Dir::In, 1),
        ("ctl_op", Dir::In, 1),
        ("ctl_slot", Dir::In, sb),
        ("ctl_warps", Dir::In, w),
        ("ctl_warp", Dir::In, wb),
        ("rel_valid", Dir::Out, 1),
        ("rel_slot", Dir::Out, sb),
        ("rel_id", Dir::Out, 4),
        ("rel_mask", Dir::Out, w),
        ("rel_op", Dir::Out, 3),
        ("rel_result", Dir::Out, rb),
        ("blocked", Dir::Out, w),
        ("err", Dir::Out, 1),
        ("err_code", Dir::Out, 4),
    ]
}

/// Inputs of `cluster_barrier` (one aggregator per cluster) for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClusterInputs {
    /// Synchronous, active-high reset: phase 0, nobody arrived, no rank gone.
    pub reset: bool,
    /// Bit r: CTA rank r has arrived in the current phase (every live thread of it), one pulse per phase (N bits).
    pub arv: u32,
    /// Bit r (level): CTA rank r has exited entirely; it counts as arrived in every later phase (N bits).
    pub gone: u32,
}

/// Outputs of `cluster_barrier` for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClusterOutputs {
    /// One-cycle pulse: the phase `done_phase` completed; broadcast to every rank.
    pub done: bool,
    /// Parity of the completed phase (0 when `done` is low).
    pub done_phase: bool,
    /// Parity of the current phase.
    pub phase: bool,
    /// Ranks that have arrived in the current phase (N bits).
    pub arrived: u32,
    /// One-cycle pulse: a rank arrived twice in one phase or arrived after it was gone.
    pub err: bool,
    /// Which ranks erred this cycle (N bits).
    pub err_rank: u32,
}

/// `cluster_barrier` ports (name, direction, width) in spec order.
pub fn cluster_port_table(cfg: &ClusterConfig) -> Vec<(&'static str, Dir, u32)> {
    let n = cfg.ranks;
    vec![
        ("clock", Dir::In, 1),
        ("reset", Dir::In, 1),
        ("arv", Dir::In, n),
        ("gone", Dir::In, n),
        ("done", Dir::Out, 1),
        ("done_phase", Dir::Out, 1),
        ("phase", Dir::Out, 1),
        ("arrived", Dir::Out, n),
        ("err", Dir::Out, 1),
        ("err_rank", Dir::Out, n),
    ]
}

/// Anything that can be clocked like `bar_unit` (the golden model, a mutant
/// wrapper in tests, later the RTL and the Verilator harness).
pub trait BarDut {
    /// One clock cycle: the outputs of the cycle, then the clock edge.
    fn step(&mut self, i: &BarInputs) -> BarOutputs;
}

/// Anything that can be clocked like `cluster_barrier`.
pub trait ClusterDut {
    fn step(&mut self, i: &ClusterInputs) -> ClusterOutputs;
}

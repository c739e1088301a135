//! Port declarations of the two blocks: one declaration macro per block
//! (`bar_unit_ports!`, `cluster_barrier_ports!`, expanded here with
//! `unit_ports::declare_ports` into `Inputs`/`Outputs` structs with one field
//! per port of `spec/bar_unit.md` / `spec/cluster_barrier.md` and the port
//! tables `BarUnitPorts` / `ClusterBarrierPorts`), and the encodings.
//! `clock` is implicit in `step()`; `reset` is an input field.

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

/// The `spec/bar_unit.md` ports of `bar_unit`, declared once (see crate
/// `unit-ports`): `declare_ports` turns this into [`BarInputs`]/[`BarOutputs`]
/// and the port table [`BarUnitPorts`]; the RTL crate expands the same list
/// to drive its rust-hdl top. Widths are functions of the configuration.
#[macro_export]
macro_rules! bar_unit_ports {
    ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
        unit BarUnitPorts, module "bar_unit", config $crate::config::BarConfig, inputs BarInputs, outputs BarOutputs;
        |cfg| [
            /// Rising-edge clock of every flop.
            clock: clock bool = 1,
            /// Synchronous, active-high reset: afterwards no CTA, no warp live or blocked, every barrier idle.
            reset: input bool = 1,
            /// Warp issue presents a barrier request.
            req_valid: input bool = 1,
            /// The request is taken this cycle (only with `req_valid`).
            req_ready: output bool = 1,
            /// Issuing warp (WB bits).
            req_warp: input u8 = cfg.wb(),
            /// 0 SYNC, 1 ARRIVE, 2 RED_POPC, 3 RED_AND, 4 RED_OR; 5–7 reserved.
            req_op: input u8 = 3,
            /// Barrier id `a`, 0..15 (4 bits).
            req_id: input u8 = 4,
            /// 1: no `b` operand: every live warp of the CTA participates.
            req_all: input bool = 1,
            /// `b`/32: expected arrivals in warps when `req_all` = 0 (CB bits).
            req_count: input u8 = cfg.cb(),
            /// `bar.red`: predicate of each of the warp's 32 lanes (`!c` already applied).
            req_pred: input u32 = 32,
            /// A CTA launch or warp exit is presented (always taken).
            ctl_valid: input bool = 1,
            /// 0 LAUNCH, 1 EXIT.
            ctl_op: input u8 = 1,
            /// LAUNCH: CTA slot (SB bits).
            ctl_slot: input u8 = cfg.sb(),
            /// LAUNCH: the warps of the CTA (W bits).
            ctl_warps: input u64 = cfg.warps,
            /// EXIT: the exiting warp (WB bits).
            ctl_warp: input u8 = cfg.wb(),
            /// A barrier completed: its waiters are released this cycle.
            rel_valid: output bool = 1,
            /// CTA slot of the completed barrier (0 when `rel_valid` is low).
            rel_slot: output u8 = cfg.sb(),
            /// Id of the completed barrier.
            rel_id: output u8 = 4,
            /// Warps released (its `bar.sync`/`bar.red` waiters; may be 0 when every arrival was `bar.arrive`).
            rel_mask: output u64 = cfg.warps,
            /// Kind of the completed phase: 0 SYNC/ARRIVE, 2 RED_POPC, 3 RED_AND, 4 RED_OR.
            rel_op: output u8 = 3,
            /// Reduction result: popc sum, or the AND/OR in bit 0; 0 for SYNC (RB bits).
            rel_result: output u32 = cfg.rb(),
            /// Bit w: warp w is blocked at a barrier (from the second cycle after its request was taken through its release cycle).
            blocked: output u64 = cfg.warps,
            /// One-cycle pulse: a protocol violation taken in the previous cycle.
            err: output bool = 1,
            /// Cause of `err` (see `errc`), 0 when `err` is low (4 bits).
            err_code: output u8 = 4,
        ]
    } };
}
bar_unit_ports!(unit_ports::declare_ports);

/// The `spec/cluster_barrier.md` ports of `cluster_barrier`, declared once:
/// [`ClusterInputs`]/[`ClusterOutputs`] and the port table [`ClusterBarrierPorts`].
#[macro_export]
macro_rules! cluster_barrier_ports {
    ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
        unit ClusterBarrierPorts, module "cluster_barrier", config $crate::config::ClusterConfig, inputs ClusterInputs, outputs ClusterOutputs;
        |cfg| [
            /// Rising-edge clock of every flop.
            clock: clock bool = 1,
            /// Synchronous, active-high reset: phase 0, nobody arrived, no rank gone.
            reset: input bool = 1,
            /// Bit r: CTA rank r has arrived in the current phase (every live thread of it), one pulse per phase (N bits).
            arv: input u32 = cfg.ranks,
            /// Bit r (level): CTA rank r has exited entirely; it counts as arrived in every later phase (N bits).
            gone: input u32 = cfg.ranks,
            /// One-cycle pulse: the phase `done_phase` completed; broadcast to every rank.
            done: output bool = 1,
            /// Parity of the completed phase (0 when `done` is low).
            done_phase: output bool = 1,
            /// Parity of the current phase.
            phase: output bool = 1,
            /// Ranks that have arrived in the current phase (N bits).
            arrived: output u32 = cfg.ranks,
            /// One-cycle pulse: a rank arrived twice in one phase or arrived after it was gone.
            err: output bool = 1,
            /// Which ranks erred this cycle (N bits).
            err_rank: output u32 = cfg.ranks,
        ]
    } };
}
cluster_barrier_ports!(unit_ports::declare_ports);

pub use unit_ports::{Dir, Dut, Port, PortBundle, Unit};

impl unit_ports::UnitConfig for crate::config::BarConfig {
    fn short_name(&self) -> String {
        format!("w{}_c{}", self.warps, self.cta_slots)
    }
}

impl unit_ports::UnitConfig for crate::config::ClusterConfig {
    fn short_name(&self) -> String {
        format!("n{}", self.ranks)
    }
}

/// Anything that can be clocked like `bar_unit` (the golden model, a mutant
/// wrapper in tests, the rust-hdl RTL, the Verilated Verilog).
pub trait BarDut: Dut<BarUnitPorts> {}
impl<T: Dut<BarUnitPorts> + ?Sized> BarDut for T {}

/// Anything that can be clocked like `cluster_barrier`.
pub trait ClusterDut: Dut<ClusterBarrierPorts> {}
impl<T: Dut<ClusterBarrierPorts> + ?Sized> ClusterDut for T {}

//! Golden model of `bar_unit`, the SM's named-barrier unit (`bar.sync`,
//! `bar.arrive`, `bar.red.{popc,and,or}`, 16 barriers per CTA, several CTAs
//! per SM). Contract: `spec/bar_unit.md`.
//!
//! Written as hardware: [`State`] is the register file, [`eval`] the one pure
//! next-state/output function, [`BarUnitModel::step`] the clock edge.
//!
//! # Registers the RTL holds (C = `cta_slots`, W = `warps`)
//!
//! - per barrier (C × 16 of them): `active` (1), `all` (1: the phase counts
//!   every live warp), `expected` (CB = WB+1 bits), `count` (CB: arrivals so
//!   far), `kind` (3: 0 plain, 2/3/4 popc/and/or), `waiting` (W: warps blocked
//!   on it), `popc` (RB = WB+6), `and_acc` (1), `or_acc` (1);
//! - per CTA slot: `busy` (1), `size` (CB: warps launched), `live` (CB: warps
//!   not yet exited);
//! - per warp: `slot` (SB), `live` (1), `blocked` (1);
//! - the release register: `valid`, `slot`, `id`, `mask` (W), `op` (3),
//!   `result` (RB).
//!
//! (An RTL may replace the C × 16 `waiting` masks by a per-warp barrier index
//! and a comparison: a blocked warp waits on exactly one barrier, so the
//! ports cannot tell; see `spec/bar_unit.md`.)
//!
//! `req_ready` is combinational from the registers and this cycle's inputs;
//! `err`/`err_code` from the registers (the event taken last cycle); `rel_*`
//! and `blocked` come straight from registers.
//!
//! # The pipeline (one event — a ctl event or a request — per cycle)
//!
//! - **Stage A** (cycle t): a ctl event is always taken; a request in the
//!   same cycle is refused (`req_ready` low, no `err`). A request is also
//!   refused without `err` in the cycle after a ctl event, when its warp is
//!   blocked, and when its warp's previous request, taken last cycle, was
//!   not `bar.arrive` (it is being checked and may block the warp). Any
//!   other request is taken into [`Taken`].
//! - **Stage B** (t + 1): the taken event is checked against the state
//!   every earlier event left: a bad one pulses `err` with its cause and
//!   changes nothing; an arrival is counted, and one that brings its
//!   barrier's count to the expected count (or, in an "all" phase, to the
//!   CTA's live warps) **completes** the barrier at this edge: the barrier
//!   is cleared for its next phase and its waiters and result are loaded
//!   into the release register. A `bar.sync`/`bar.red` sets its warp's
//!   `blocked` at this edge. An exit that lowers its CTA's live count to the
//!   arrivals of an "all" phase marks that barrier in [`ExitDone`] (at most
//!   one can: every other live warp is blocked on it).
//! - **Stage C** (t + 2): the barrier an exit marked is completed like an
//!   arrival's.
//! - The release register pulses `rel_*` in the next cycle; its warps stay
//!   `blocked` through that cycle and are unblocked at its end.
//!
//! **At most one barrier completes per cycle** (one event is taken per
//! cycle, each completes at most one barrier, and no request is taken in
//! the cycle after a ctl event, so an exit's stage-C completion meets no
//! arrival's), so the release register never backs up. **B7 bound: a
//! barrier's waiters are released exactly 2 cycles after the cycle its last
//! arrival was taken, 3 cycles after the cycle a completing exit was
//! taken.**

use crate::config::{BarConfig, BARRIERS_PER_CTA};
use crate::ports::{ctl, errc, op, BarInputs, BarOutputs};

/// One named barrier's registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Barrier {
    /// A phase is open (at least one arrival taken).
    pub active: bool,
    /// The phase expects every live warp of the CTA (no `b` operand).
    pub all: bool,
    /// Expected arrivals in warps (explicit phases).
    pub expected: u8,
    /// Arrivals taken in this phase.
    pub count: u8,
    /// 0 plain (sync/arrive), 2 popc, 3 and, 4 or.
    pub kind: u8,
    /// Warps blocked on this barrier.
    pub waiting: u64,
    /// Reduction accumulators.
    pub popc: u32,
    pub and_acc: bool,
    pub or_acc: bool,
}

/// The release register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Release {
    pub valid: bool,
    pub slot: u8,
    pub id: u8,
    pub mask: u64,
    pub op: u8,
    pub result: u32,
}

/// The event taken at the last edge: the input register of the check and
/// update stage (stage B). Fields are already cut to their port widths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Taken {
    /// An event was taken.
    pub valid: bool,
    /// It is a ctl event (else a request).
    pub ctl: bool,
    /// Request: warp, op, barrier id, count form, count, predicates.
    pub warp: u8,
    pub op: u8,
    pub id: u8,
    pub all: bool,
    pub count: u8,
    pub pred: u32,
    /// Ctl: op, LAUNCH slot and warps, EXIT warp.
    pub ctl_op: u8,
    pub slot: u8,
    pub warps: u64,
    pub ctl_warp: u8,
}

impl Taken {
    /// The request on `i`'s `req_*` ports, taken: cut to the port widths.
    pub fn request(cfg: &BarConfig, i: &BarInputs) -> Taken {
        Taken {
            valid: true,
            ctl: false,
            warp: i.req_warp & (cfg.warps - 1) as u8,
            op: i.req_op & 7,
            id: i.req_id & 15,
            all: i.req_all,
            count: i.req_count & ((1u16 << cfg.cb()) - 1) as u8,
            pred: i.req_pred,
            ..Taken::default()
        }
    }
}

/// An "all" barrier that an exit completes: found by stage B, completed by
/// stage C one cycle later (its reduction result is read in between).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ExitDone {
    pub valid: bool,
    pub slot: u8,
    pub id: u8,
}

/// Registered state of `bar_unit`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct State {
    /// Barrier (slot s, id a) is `bars[s * 16 + a]`.
    pub bars: Vec<Barrier>,
    pub slot_busy: Vec<bool>,
    pub slot_size: Vec<u8>,
    pub slot_live: Vec<u8>,
    /// CTA slot of each warp (meaningful when live).
    pub warp_slot: Vec<u8>,
    /// Bit w: warp w belongs to a CTA and has not exited.
    pub live: u64,
    /// Bit w: warp w is blocked at a barrier.
    pub blocked: u64,
    /// Stage B's input register: the event taken at the last edge.
    pub taken: Taken,
    /// Stage C's register: the barrier an exit completes.
    pub exit_done: ExitDone,
    pub rel: Release,
}

impl State {
    /// The state after reset.
    pub fn new(cfg: &BarConfig) -> State {
        let c = cfg.cta_slots as usize;
        State {
            bars: vec![Barrier::default(); c * BARRIERS_PER_CTA],
            slot_busy: vec![false; c],
            slot_size: vec![0; c],
            slot_live: vec![0; c],
            warp_slot: vec![0; cfg.warps as usize],
            live: 0,
            blocked: 0,
            taken: Taken::default(),
            exit_done: ExitDone::default(),
            rel: Release::default(),
        }
    }
}

fn bit(w: u8) -> u64 {
    1u64 << w
}

/// Kind of a phase opened by `o` (0 plain, else the reduction op).
pub fn phase_kind(o: u8) -> u8 {
    if op::is_red(o) {
        o
    } else {
        0
    }
}

/// Checks a taken request against the state; the error code, or
/// `errc::NONE` for a legal arrival. Shared with nothing: the scoreboard has
/// its own port-level copy of these rules.
fn request_error(s: &State, t: &Taken) -> u8 {
    if t.op > op::RED_OR {
        return errc::BAD_OP;
    }
    if s.live & bit(t.warp) == 0 {
        return errc::NO_CTA;
    }
    if t.op == op::ARRIVE && t.all {
        return errc::ARRIVE_NO_COUNT;
    }
    let slot = s.warp_slot[t.warp as usize] as usize;
    if !t.all && t.count == 0 {
        return errc::ZERO_COUNT;
    }
    if !t.all && t.count > s.slot_size[slot] {
        return errc::COUNT_TOO_BIG;
    }
    let b = &s.bars[slot * BARRIERS_PER_CTA + t.id as usize];
    if b.active && (b.all != t.all || (!t.all && b.expected != t.count)) {
        return errc::COUNT_MISMATCH;
    }
    if b.active && b.kind != phase_kind(t.op) {
        return errc::KIND_MIX;
    }
    errc::NONE
}

/// Clears barrier `idx` for its next phase and loads the release register.
fn complete(next: &mut State, slot: usize, id: usize) {
    let b = next.bars[slot * BARRIERS_PER_CTA + id];
    let result = match b.kind {
        op::RED_POPC => b.popc,
        op::RED_AND => b.and_acc as u32,
        op::RED_OR => b.or_acc as u32,
        _ => 0,
    };
    next.rel = Release {
        valid: true,
        slot: slot as u8,
        id: id as u8,
        mask: b.waiting,
        op: b.kind,
        result,
    };
    next.bars[slot * BARRIERS_PER_CTA + id] = Barrier::default();
}

/// The kernel: outputs of this cycle and the state after the clock edge.
pub fn eval(cfg: &BarConfig, s: &State, i: &BarInputs) -> (BarOutputs, State) {
    if i.reset {
        return (BarOutputs::default(), State::new(cfg));
    }
    let wmask = (cfg.warps - 1) as u8;
    let mut o = BarOutputs {
        rel_valid: s.rel.valid,
        rel_slot: s.rel.slot,
        rel_id: s.rel.id,
        rel_mask: s.rel.mask,
        rel_op: s.rel.op,
        rel_result: s.rel.result,
        blocked: s.blocked,
        ..BarOutputs::default()
    };
    let mut next = s.clone();
    next.rel = Release::default();
    next.taken = Taken::default();
    next.exit_done = ExitDone::default();
    if s.rel.valid {
        next.blocked &= !s.rel.mask;
    }

    // Stage C: the "all" barrier an exit completed (found last cycle).
    if s.exit_done.valid {
        complete(
            &mut next,
            s.exit_done.slot as usize,
            s.exit_done.id as usize,
        );
    }

    // Stage B: check and apply the event taken at the last edge.
    let t = s.taken;
    let mut code = errc::NONE;
    if t.valid && t.ctl {
        if t.ctl_op == ctl::LAUNCH {
            let slot = t.slot as usize;
            if slot >= cfg.cta_slots as usize {
                code = errc::SLOT_RANGE;
            } else if s.slot_busy[slot] {
                code = errc::SLOT_BUSY;
            } else if t.warps == 0 || t.warps & s.live != 0 {
                code = errc::BAD_WARPS;
            } else {
                let n = t.warps.count_ones() as u8;
                next.slot_busy[slot] = true;
                next.slot_size[slot] = n;
                next.slot_live[slot] = n;
                next.live |= t.warps;
                for w in 0..cfg.warps as usize {
                    if t.warps >> w & 1 == 1 {
                        next.warp_slot[w] = slot as u8;
                    }
                }
            }
        } else {
            let w = t.ctl_warp;
            if s.live & bit(w) == 0 {
                code = errc::EXIT_NOT_LIVE;
            } else if s.blocked & bit(w) != 0 {
                code = errc::EXIT_BLOCKED;
            } else {
                let slot = s.warp_slot[w as usize] as usize;
                next.live &= !bit(w);
                let live = s.slot_live[slot] - 1;
                next.slot_live[slot] = live;
                if live == 0 {
                    next.slot_busy[slot] = false;
                    next.slot_size[slot] = 0;
                    for b in &mut next.bars[slot * BARRIERS_PER_CTA..(slot + 1) * BARRIERS_PER_CTA]
                    {
                        *b = Barrier::default();
                    }
                } else if let Some(id) = (0..BARRIERS_PER_CTA).find(|&id| {
                    let b = &s.bars[slot * BARRIERS_PER_CTA + id];
                    b.active && b.all && b.count >= live
                }) {
                    next.exit_done = ExitDone {
                        valid: true,
                        slot: slot as u8,
                        id: id as u8,
                    };
                }
            }
        }
    } else if t.valid {
        code = request_error(s, &t);
        if code == errc::NONE {
            let w = t.warp;
            let slot = s.warp_slot[w as usize] as usize;
            let id = t.id as usize;
            let b = &mut next.bars[slot * BARRIERS_PER_CTA + id];
            if !b.active {
                *b = Barrier {
                    active: true,
                    all: t.all,
                    expected: if t.all { 0 } else { t.count },
                    kind: phase_kind(t.op),
                    and_acc: true,
                    ..Barrier::default()
                };
            }
            b.count += 1;
            if op::blocks(t.op) {
                b.waiting |= bit(w);
                next.blocked |= bit(w);
            }
            b.popc += t.pred.count_ones();
            b.and_acc &= t.pred == u32::MAX;
            b.or_acc |= t.pred != 0;
            let done = if b.all {
                b.count >= s.slot_live[slot]
            } else {
                b.count >= b.expected
            };
            if done {
                complete(&mut next, slot, id);
            }
        }
    }
    o.err = code != errc::NONE;
    o.err_code = code;

    // Stage A: take this cycle's event into stage B's register.
    if i.ctl_valid {
        next.taken = Taken {
            valid: true,
            ctl: true,
            ctl_op: i.ctl_op & 1,
            slot: i.ctl_slot & ((1u16 << cfg.sb()) - 1) as u8,
            warps: i.ctl_warps & cfg.warp_mask(),
            ctl_warp: i.ctl_warp & wmask,
            ..Taken::default()
        };
    } else if i.req_valid {
        let w = i.req_warp & wmask;
        let after_ctl = t.valid && t.ctl;
        let may_block = t.valid && !t.ctl && t.warp == w && t.op != op::ARRIVE;
        if s.blocked & bit(w) == 0 && !after_ctl && !may_block {
            o.req_ready = true;
            next.taken = Taken::request(cfg, i);
        }
    }
    (o, next)
}

/// The golden model: registers plus the clock edge.
#[derive(Clone, Debug)]
pub struct BarUnitModel {
    pub cfg: BarConfig,
    pub state: State,
}

impl BarUnitModel {
    pub fn new(cfg: BarConfig) -> BarUnitModel {
        BarUnitModel {
            state: State::new(&cfg),
            cfg,
        }
    }
    /// One clock cycle: outputs of the cycle, then the edge.
    pub fn step(&mut self, i: &BarInputs) -> BarOutputs {
        let (o, next) = eval(&self.cfg, &self.state, i);
        self.state = next;
        o
    }
}

impl unit_ports::Dut<crate::ports::BarUnitPorts> for BarUnitModel {
    fn step(&mut self, i: &BarInputs) -> BarOutputs {
        BarUnitModel::step(self, i)
    }
    fn name(&self) -> &str {
        "model"
    }
}

//! Port-only property checkers: [`BarScoreboard`] for `bar_unit` (B1–B7 of
//! `spec/bar_unit.md`) and [`ClusterScoreboard`] for `cluster_barrier`
//! (C1–C4 of `spec/cluster_barrier.md`). They see only the configuration and
//! each cycle's inputs and outputs, never the design's state, so they serve
//! any back end (golden model, RTL, Verilator).
//!
//! Call `check(inputs, outputs)` once per cycle; the first violation is
//! returned and is sticky. `finish()` after a drain (at least 3 idle cycles
//! after the last event) checks nothing is owed.
//!
//! # The bar scoreboard follows the unit's pipeline (from the ports)
//!
//! `bar_unit` takes an event in stage **A** (cycle *t*: `req_ready` in the
//! same cycle) and checks and applies it in stage **B** (cycle *t + 1*:
//! `err`/`err_code` for it, launch/exit/arrival take effect at the end of
//! *t + 1*). The scoreboard does the same: the event taken in a cycle (ctl
//! event, or request with `req_ready`, inputs cut to their port widths) is
//! held for one cycle and then checked against, and applied to, its own
//! port-level image of the state every earlier event left:
//!
//! CTAs (slot, size, live warps), per (slot, id) the open phase (all/explicit
//! count, kind, arrivals, waiters, reduction accumulators), the set of warps
//! pending (legal blocking request applied in stage B in an earlier cycle —
//! i.e. taken two or more cycles earlier — and not released in an earlier
//! cycle), and the completions owed: (slot, id, waiters, kind, result, the
//! cycle the completing event was taken, deadline = that cycle + 2 for an
//! arrival, + 3 for an exit, caused by an exit?).
//!
//! # Rules, per property (outputs against the state at the start of the cycle)
//!
//! - **B1** every `rel_valid` matches an owed completion of (rel_slot,
//!   rel_id) with exactly its waiters in `rel_mask`; nothing is released
//!   before its due cycle (a release before the completing event is
//!   checked, in its stage B cycle, or after that but before the deadline,
//!   is early); `rel_valid == 0` ⇒ every `rel_*` is 0.
//! - **B2** `blocked` equals the pending set; `req_ready` only with
//!   `req_valid`; a request is refused (without `err` in the next cycle) when
//!   its warp is pending, or when the previous cycle took a request of the
//!   same warp whose `req_op` was not ARRIVE (SYNC, RED_*, or even a bad op
//!   5..7, legal or not); `bar.arrive` never makes its warp pending; during
//!   `reset` every output is 0 (and the event taken in the cycle before is
//!   dropped: it is never checked nor applied).
//! - **B3** `rel_op`/`rel_result` equal the phase's kind and the
//!   popc/AND/OR over the predicates of its arrivals; a request mixing kinds
//!   in a phase pulses `err` with `kind_mix` in the next cycle.
//! - **B4** a request in a ctl cycle, or in the cycle after a ctl event was
//!   taken, is refused; every other request of a non-pending warp that is
//!   not right after a non-ARRIVE request of the same warp is taken (1
//!   arrival/cycle whatever is pending); `rel_mask` holds no warp pending on
//!   another barrier or CTA.
//! - **B5** a completion owed because an exit lowered an "all" phase's live
//!   count is released on time, 3 cycles after the exit was taken (else B5,
//!   not B7).
//! - **B6** `err`/`err_code` equal, every cycle, the cause of the event
//!   taken in the previous cycle (or 0); a bad request or ctl event changes
//!   no state (a design that counts one fails B1 later).
//! - **B7** every completion owed by an arrival is released exactly 2 cycles
//!   after the completing arrival was taken; at most one per cycle.

use crate::config::{BarConfig, ClusterConfig, BARRIERS_PER_CTA};
use crate::ports::{ctl, errc, op, BarInputs, BarOutputs, ClusterInputs, ClusterOutputs};
use std::fmt;

/// A property violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub cycle: u64,
    /// "B1".."B7" or "C1".."C4".
    pub property: &'static str,
    pub reason: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cycle {}: {}: {}",
            self.cycle, self.property, self.reason
        )
    }
}

impl std::error::Error for Violation {}

#[derive(Clone, Copy, Debug, Default)]
struct Phase {
    active: bool,
    all: bool,
    expected: u8,
    count: u32,
    kind: u8,
    waiters: u64,
    popc: u32,
    and_acc: bool,
    or_acc: bool,
}

#[derive(Clone, Copy, Debug)]
struct Owed {
    /// Cycle the completing arrival or exit was taken.
    taken: u64,
    /// Cycle the release is due (taken + 2, or + 3 for an exit).
    deadline: u64,
    slot: u8,
    id: u8,
    waiters: u64,
    kind: u8,
    result: u32,
    by_exit: bool,
}

/// An event taken in stage A, checked and applied in stage B one cycle
/// later. Fields cut to their port widths.
#[derive(Clone, Copy, Debug)]
enum Event {
    Launch {
        slot: u32,
        warps: u64,
    },
    Exit {
        warp: u32,
    },
    Req {
        warp: u32,
        op: u8,
        id: u8,
        all: bool,
        count: u32,
        pred: u32,
    },
}

/// B1–B7 checker of `bar_unit`.
#[derive(Clone, Debug)]
pub struct BarScoreboard {
    cfg: BarConfig,
    cycle: u64,
    busy: Vec<bool>,
    size: Vec<u32>,
    live_cnt: Vec<u32>,
    warp_slot: Vec<u8>,
    live: u64,
    pending: u64,
    /// (slot, id) each pending warp waits on.
    waits_on: Vec<(u8, u8)>,
    phases: Vec<Phase>,
    owed: Vec<Owed>,
    /// The event taken in the previous cycle (cycle, event): stage B's input.
    stage_b: Option<(u64, Event)>,
    violation: Option<Violation>,
    /// Statistics for non-vacuity checks.
    pub releases: u64,
    pub arrivals: u64,
    pub errors: u64,
    /// Requests refused because their warp was blocked.
    pub refusals: u64,
    /// Requests refused in the cycle after a ctl event was taken.
    pub refusals_after_ctl: u64,
    /// Requests refused right after a non-ARRIVE request of the same warp.
    pub refusals_same_warp: u64,
}

fn bit(w: u32) -> u64 {
    1u64 << w
}

impl BarScoreboard {
    pub fn new(cfg: &BarConfig) -> BarScoreboard {
        let c = cfg.cta_slots as usize;
        BarScoreboard {
            cfg: *cfg,
            cycle: 0,
            busy: vec![false; c],
            size: vec![0; c],
            live_cnt: vec![0; c],
            warp_slot: vec![0; cfg.warps as usize],
            live: 0,
            pending: 0,
            waits_on: vec![(0, 0); cfg.warps as usize],
            phases: vec![Phase::default(); c * BARRIERS_PER_CTA],
            owed: vec![],
            stage_b: None,
            violation: None,
            releases: 0,
            arrivals: 0,
            errors: 0,
            refusals: 0,
            refusals_after_ctl: 0,
            refusals_same_warp: 0,
        }
    }

    fn reset_state(&mut self) {
        let stats = (
            self.releases,
            self.arrivals,
            self.errors,
            self.refusals,
            self.refusals_after_ctl,
            self.refusals_same_warp,
        );
        let cycle = self.cycle;
        *self = BarScoreboard::new(&self.cfg);
        self.cycle = cycle;
        (
            self.releases,
            self.arrivals,
            self.errors,
            self.refusals,
            self.refusals_after_ctl,
            self.refusals_same_warp,
        ) = stats;
    }

    fn fail(&mut self, property: &'static str, reason: String) -> Result<(), Violation> {
        let v = Violation {
            cycle: self.cycle,
            property,
            reason,
        };
        self.violation = Some(v.clone());
        Err(v)
    }

    /// The event a cycle's inputs present (cut to the port widths): the ctl
    /// event if `ctl_valid`, else the request if `req_valid`.
    fn event_of(&self, i: &BarInputs) -> Option<Event> {
        let wm = self.cfg.warps - 1;
        if i.ctl_valid {
            Some(if i.ctl_op & 1 == ctl::LAUNCH {
                Event::Launch {
                    slot: (i.ctl_slot as u32) & ((1 << self.cfg.sb()) - 1),
                    warps: i.ctl_warps & self.cfg.warp_mask(),
                }
            } else {
                Event::Exit {
                    warp: (i.ctl_warp as u32) & wm,
                }
            })
        } else if i.req_valid {
            Some(Event::Req {
                warp: (i.req_warp as u32) & wm,
                op: i.req_op & 7,
                id: i.req_id & 15,
                all: i.req_all,
                count: (i.req_count as u32) & ((1 << self.cfg.cb()) - 1),
                pred: i.req_pred,
            })
        } else {
            None
        }
    }

    /// The error code the contract requires for a taken request, checked
    /// against the state every earlier event left.
    fn request_code(&self, w: u32, o: u8, id: u8, all: bool, count: u32) -> u8 {
        if o > op::RED_OR {
            return errc::BAD_OP;
        }
        if self.live & bit(w) == 0 {
            return errc::NO_CTA;
        }
        if o == op::ARRIVE && all {
            return errc::ARRIVE_NO_COUNT;
        }
        let slot = self.warp_slot[w as usize] as usize;
        if !all && count == 0 {
            return errc::ZERO_COUNT;
        }
        if !all && count > self.size[slot] {
            return errc::COUNT_TOO_BIG;
        }
        let p = &self.phases[slot * BARRIERS_PER_CTA + id as usize];
        if p.active && (p.all != all || (!all && p.expected as u32 != count)) {
            return errc::COUNT_MISMATCH;
        }
        let kind = if op::is_red(o) { o } else { 0 };
        if p.active && p.kind != kind {
            return errc::KIND_MIX;
        }
        errc::NONE
    }

    /// Records the completion of (slot, id) by the event taken in cycle
    /// `taken` and clears the phase.
    fn owe(&mut self, slot: usize, id: usize, by_exit: bool, taken: u64) {
        let p = self.phases[slot * BARRIERS_PER_CTA + id];
        let result = match p.kind {
            op::RED_POPC => p.popc,
            op::RED_AND => p.and_acc as u32,
            op::RED_OR => p.or_acc as u32,
            _ => 0,
        };
        self.owed.push(Owed {
            taken,
            deadline: taken + if by_exit { 3 } else { 2 },
            slot: slot as u8,
            id: id as u8,
            waiters: p.waiters,
            kind: p.kind,
            result,
            by_exit,
        });
        self.phases[slot * BARRIERS_PER_CTA + id] = Phase::default();
    }

    /// Stage B: checks the event taken in cycle `taken` against the state
    /// every earlier event left and applies it if legal. Returns the
    /// expected error code and the warp it makes pending (0 if none).
    fn apply(&mut self, taken: u64, ev: Event) -> (u8, u64) {
        match ev {
            Event::Launch { slot, warps } => {
                let code = if slot >= self.cfg.cta_slots {
                    errc::SLOT_RANGE
                } else if self.busy[slot as usize] {
                    errc::SLOT_BUSY
                } else if warps == 0 || warps & self.live != 0 {
                    errc::BAD_WARPS
                } else {
                    errc::NONE
                };
                if code == errc::NONE {
                    let slot = slot as usize;
                    self.busy[slot] = true;
                    self.size[slot] = warps.count_ones();
                    self.live_cnt[slot] = warps.count_ones();
                    self.live |= warps;
                    for w in 0..self.cfg.warps {
                        if warps & bit(w) != 0 {
                            self.warp_slot[w as usize] = slot as u8;
                        }
                    }
                }
                (code, 0)
            }
            Event::Exit { warp: w } => {
                if self.live & bit(w) == 0 {
                    return (errc::EXIT_NOT_LIVE, 0);
                }
                if self.pending & bit(w) != 0 {
                    return (errc::EXIT_BLOCKED, 0);
                }
                let slot = self.warp_slot[w as usize] as usize;
                self.live &= !bit(w);
                self.live_cnt[slot] -= 1;
                let live = self.live_cnt[slot];
                if live == 0 {
                    self.busy[slot] = false;
                    self.size[slot] = 0;
                    for id in 0..BARRIERS_PER_CTA {
                        self.phases[slot * BARRIERS_PER_CTA + id] = Phase::default();
                    }
                } else {
                    for id in 0..BARRIERS_PER_CTA {
                        let p = self.phases[slot * BARRIERS_PER_CTA + id];
                        if p.active && p.all && p.count >= live {
                            self.owe(slot, id, true, taken);
                        }
                    }
                }
                (errc::NONE, 0)
            }
            Event::Req {
                warp: w,
                op: o,
                id,
                all,
                count,
                pred,
            } => {
                let code = self.request_code(w, o, id, all, count);
                if code != errc::NONE {
                    return (code, 0);
                }
                self.arrivals += 1;
                let slot = self.warp_slot[w as usize] as usize;
                let live = self.live_cnt[slot];
                let p = &mut self.phases[slot * BARRIERS_PER_CTA + id as usize];
                if !p.active {
                    *p = Phase {
                        active: true,
                        all,
                        expected: if all { 0 } else { count as u8 },
                        kind: if op::is_red(o) { o } else { 0 },
                        and_acc: true,
                        ..Phase::default()
                    };
                }
                p.count += 1;
                p.popc += pred.count_ones();
                p.and_acc &= pred == u32::MAX;
                p.or_acc |= pred != 0;
                let blocks = op::blocks(o);
                if blocks {
                    p.waiters |= bit(w);
                }
                let done = if p.all {
                    p.count >= live
                } else {
                    p.count >= p.expected as u32
                };
                if blocks {
                    self.waits_on[w as usize] = (slot as u8, id);
                }
                if done {
                    self.owe(slot, id as usize, false, taken);
                }
                (errc::NONE, if blocks { bit(w) } else { 0 })
            }
        }
    }

    /// Checks one cycle.
    pub fn check(&mut self, i: &BarInputs, o: &BarOutputs) -> Result<(), Violation> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        let r = self.check_inner(i, o);
        self.cycle += 1;
        r
    }

    fn check_inner(&mut self, i: &BarInputs, o: &BarOutputs) -> Result<(), Violation> {
        if i.reset {
            if *o != BarOutputs::default() {
                return self.fail("B2", format!("outputs not 0 during reset: {o:?}"));
            }
            // Drops the event taken in the previous cycle; this cycle's is not taken.
            self.reset_state();
            return Ok(());
        }
        // --- outputs against the state at the start of the cycle ---
        if o.blocked != self.pending {
            return self.fail(
                "B2",
                format!(
                    "blocked = {:#x}, expected the pending set {:#x}",
                    o.blocked, self.pending
                ),
            );
        }
        if o.req_ready && !i.req_valid {
            return self.fail("B2", "req_ready without req_valid".into());
        }
        if o.rel_valid {
            let (slot, id) = (o.rel_slot, o.rel_id);
            // Cross-talk: a released warp pending on another barrier or CTA.
            let foreign = (0..self.cfg.warps)
                .filter(|&w| o.rel_mask & bit(w) != 0 && self.pending & bit(w) != 0)
                .find(|&w| self.waits_on[w as usize] != (slot, id));
            if let Some(w) = foreign {
                let (fs, fi) = self.waits_on[w as usize];
                return self.fail(
                    "B4",
                    format!("release of (slot {slot}, id {id}) frees warp {w}, which waits on (slot {fs}, id {fi})"),
                );
            }
            // The earliest owed completion of that barrier.
            let k = self
                .owed
                .iter()
                .enumerate()
                .filter(|(_, d)| d.slot == slot && d.id == id)
                .min_by_key(|(_, d)| d.deadline)
                .map(|(k, _)| k);
            let Some(k) = k else {
                return self.fail(
                    "B1",
                    format!("release of (slot {slot}, id {id}) mask {:#x} but that barrier has not completed (by an event checked in an earlier cycle)", o.rel_mask),
                );
            };
            let d = self.owed[k];
            if d.deadline > self.cycle {
                return self.fail(
                    "B1",
                    format!(
                        "release of (slot {slot}, id {id}) mask {:#x} is early: completed by the {} taken in cycle {}, due in cycle {}",
                        o.rel_mask,
                        if d.by_exit { "exit" } else { "arrival" },
                        d.taken,
                        d.deadline
                    ),
                );
            }
            self.owed.remove(k);
            if o.rel_mask != d.waiters {
                return self.fail(
                    "B1",
                    format!(
                        "release of (slot {slot}, id {id}): mask {:#x}, its waiters are {:#x}",
                        o.rel_mask, d.waiters
                    ),
                );
            }
            if o.rel_op != d.kind || o.rel_result != d.result {
                return self.fail(
                    "B3",
                    format!(
                        "release of (slot {slot}, id {id}): op {} result {}, expected op {} result {}",
                        o.rel_op, o.rel_result, d.kind, d.result
                    ),
                );
            }
            self.releases += 1;
        } else if o.rel_mask != 0
            || o.rel_slot != 0
            || o.rel_id != 0
            || o.rel_op != 0
            || o.rel_result != 0
        {
            return self.fail("B1", format!("rel_* not 0 while rel_valid is low: {o:?}"));
        }
        if let Some(d) = self.owed.iter().find(|d| d.deadline <= self.cycle).copied() {
            let p = if d.by_exit { "B5" } else { "B7" };
            return self.fail(
                p,
                format!(
                    "(slot {}, id {}) completed by the {} taken in cycle {}, due in cycle {}, is not released by cycle {}",
                    d.slot,
                    d.id,
                    if d.by_exit { "exit" } else { "arrival" },
                    d.taken,
                    d.deadline,
                    self.cycle
                ),
            );
        }
        let released = if o.rel_valid { o.rel_mask } else { 0 };

        // --- stage B: the event taken in the previous cycle ---
        let prev = self.stage_b.take();
        let (code, blocks) = match prev {
            Some((t, ev)) => self.apply(t, ev),
            None => (errc::NONE, 0),
        };
        if o.err != (code != errc::NONE) || o.err_code != code {
            let p = if code == errc::KIND_MIX { "B3" } else { "B6" };
            let what = match prev {
                Some((t, ev)) => format!("for the {ev:?} taken in cycle {t}"),
                None => "(no event taken in the previous cycle)".into(),
            };
            return self.fail(
                p,
                format!(
                    "err {} code {} ({}), expected err {} code {} ({}) {what}",
                    o.err as u8,
                    o.err_code,
                    errc::name(o.err_code),
                    (code != 0) as u8,
                    code,
                    errc::name(code)
                ),
            );
        }
        if code != errc::NONE {
            self.errors += 1;
        }

        // --- stage A: this cycle's handshake ---
        let ev = self.event_of(i);
        match ev {
            Some(Event::Launch { .. } | Event::Exit { .. }) => {
                if o.req_ready {
                    return self.fail(
                        "B4",
                        "a request was taken in a cycle with a ctl event (must be refused)".into(),
                    );
                }
                self.stage_b = Some((self.cycle, ev.unwrap()));
            }
            Some(Event::Req { warp: w, .. }) => {
                let after_ctl =
                    matches!(prev, Some((_, Event::Launch { .. } | Event::Exit { .. })));
                let is_blocked = self.pending & bit(w) != 0;
                let same_warp = matches!(
                    prev,
                    Some((_, Event::Req { warp, op: po, .. })) if warp == w && po != op::ARRIVE
                );
                if after_ctl || is_blocked || same_warp {
                    if o.req_ready {
                        let why = if is_blocked {
                            format!("request of blocked warp {w} taken")
                        } else if same_warp {
                            format!("request of warp {w} taken right after its non-ARRIVE request (must be refused)")
                        } else {
                            format!("request of warp {w} taken in the cycle after a ctl event (must be refused)")
                        };
                        let p = if is_blocked || same_warp { "B2" } else { "B4" };
                        return self.fail(p, why);
                    }
                    self.refusals += is_blocked as u64;
                    self.refusals_after_ctl += after_ctl as u64;
                    self.refusals_same_warp += same_warp as u64;
                } else {
                    if !o.req_ready {
                        return self.fail("B4", format!("request of unblocked warp {w} refused"));
                    }
                    self.stage_b = Some((self.cycle, ev.unwrap()));
                }
            }
            None => {}
        }
        // Pending set for the next cycle: released warps leave, the warp of a
        // blocking arrival applied in stage B joins.
        self.pending = (self.pending & !released) | blocks;
        Ok(())
    }

    /// After the last cycle: nothing owed may remain unreleased.
    pub fn finish(&mut self) -> Result<(), Violation> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        if let Some(d) = self.owed.first().copied() {
            return self.fail(
                if d.by_exit { "B5" } else { "B7" },
                format!(
                    "(slot {}, id {}) completed by the {} taken in cycle {} and never released",
                    d.slot,
                    d.id,
                    if d.by_exit { "exit" } else { "arrival" },
                    d.taken
                ),
            );
        }
        Ok(())
    }

    /// Warps currently pending (as the scoreboard sees them).
    pub fn pending(&self) -> u64 {
        self.pending
    }
}

/// C1–C4 checker of `cluster_barrier`.
///
/// - **C1** `done` pulses only for a phase in which every rank arrived or is
///   gone with at least one arrival, once per phase; `done_phase` is 0 when
///   `done` is low.
/// - **C2** `phase` toggles exactly at each completion; `done_phase` is the
///   parity of the completed phase; `arrived` equals the ranks arrived in
///   the current phase; arrivals in the `done` cycle count for the next phase.
/// - **C3** `err`/`err_rank` exactly for arrivals of ranks already arrived in
///   this phase or gone; those arrivals are not counted.
/// - **C4** `done` comes exactly 1 cycle after the completing cycle.
#[derive(Clone, Debug)]
pub struct ClusterScoreboard {
    cfg: ClusterConfig,
    cycle: u64,
    arrived: u32,
    phase: bool,
    owed: Option<(u64, bool)>,
    violation: Option<Violation>,
    pub completions: u64,
    pub errors: u64,
}

impl ClusterScoreboard {
    pub fn new(cfg: &ClusterConfig) -> ClusterScoreboard {
        ClusterScoreboard {
            cfg: *cfg,
            cycle: 0,
            arrived: 0,
            phase: false,
            owed: None,
            violation: None,
            completions: 0,
            errors: 0,
        }
    }

    fn fail(&mut self, property: &'static str, reason: String) -> Result<(), Violation> {
        let v = Violation {
            cycle: self.cycle,
            property,
            reason,
        };
        self.violation = Some(v.clone());
        Err(v)
    }

    pub fn check(&mut self, i: &ClusterInputs, o: &ClusterOutputs) -> Result<(), Violation> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        let r = self.check_inner(i, o);
        self.cycle += 1;
        r
    }

    fn check_inner(&mut self, i: &ClusterInputs, o: &ClusterOutputs) -> Result<(), Violation> {
        let all = self.cfg.rank_mask();
        if i.reset {
            if *o != ClusterOutputs::default() {
                return self.fail("C2", format!("outputs not 0 during reset: {o:?}"));
            }
            self.arrived = 0;
            self.phase = false;
            self.owed = None;
            return Ok(());
        }
        match (o.done, self.owed) {
            (true, Some((_, p))) => {
                if o.done_phase != p {
                    return self.fail(
                        "C2",
                        format!("done_phase {} expected {}", o.done_phase as u8, p as u8),
                    );
                }
                self.owed = None;
                self.completions += 1;
            }
            (true, None) => return self.fail("C1", "done without a completed phase".into()),
            (false, Some((d, _))) if d <= self.cycle => {
                return self.fail(
                    "C4",
                    format!(
                        "phase completed in cycle {} not signalled by cycle {}",
                        d - 1,
                        self.cycle
                    ),
                )
            }
            (false, _) => {
                if o.done_phase {
                    return self.fail("C1", "done_phase high without done".into());
                }
            }
        }
        if o.phase != self.phase {
            return self.fail(
                "C2",
                format!("phase {} expected {}", o.phase as u8, self.phase as u8),
            );
        }
        if o.arrived != self.arrived {
            return self.fail(
                "C2",
                format!("arrived {:#x} expected {:#x}", o.arrived, self.arrived),
            );
        }
        let arv = i.arv & all;
        let gone = i.gone & all;
        let bad = arv & (self.arrived | gone);
        if o.err != (bad != 0) || o.err_rank != bad {
            return self.fail(
                "C3",
                format!(
                    "err {} err_rank {:#x}, expected {} {:#x}",
                    o.err as u8,
                    o.err_rank,
                    (bad != 0) as u8,
                    bad
                ),
            );
        }
        if bad != 0 {
            self.errors += 1;
        }
        self.arrived |= arv & !bad;
        if self.arrived != 0 && (self.arrived | gone) == all {
            self.owed = Some((self.cycle + 1, self.phase));
            self.phase = !self.phase;
            self.arrived = 0;
        }
        Ok(())
    }

    pub fn finish(&mut self) -> Result<(), Violation> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        if self.owed.is_some() {
            return self.fail("C4", "a completed phase was never signalled".into());
        }
        Ok(())
    }
}

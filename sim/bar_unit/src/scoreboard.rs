//! Port-only property checkers: [`BarScoreboard`] for `bar_unit` (B1–B7 of
//! `spec/bar_unit.md`) and [`ClusterScoreboard`] for `cluster_barrier`
//! (C1–C4 of `spec/cluster_barrier.md`). They see only the configuration and
//! each cycle's inputs and outputs, never the design's state, so they serve
//! any back end (golden model, RTL, Verilator).
//!
//! Call `check(inputs, outputs)` once per cycle; the first violation is
//! returned and is sticky. `finish()` after a drain checks nothing is owed.
//!
//! # What the bar scoreboard tracks (from the ports)
//!
//! CTAs from taken launches/exits (slot, size, live warps), per (slot, id)
//! the open phase (all/explicit count, kind, arrivals, waiters, reduction
//! accumulators) from taken requests, the set of warps pending (blocking
//! request taken in an earlier cycle, not released in an earlier cycle), and
//! the completions owed: (slot, id, waiters, kind, result, deadline = the
//! cycle after the completing arrival/exit, caused by an exit?).
//!
//! # Rules, per property, checked against the state at the start of the cycle
//!
//! - **B1** every `rel_valid` matches an owed completion of (rel_slot,
//!   rel_id) with exactly its waiters in `rel_mask`; nothing is released
//!   before its completion was owed (a release in the completing cycle
//!   itself is early); `rel_valid == 0` ⇒ every `rel_*` is 0.
//! - **B2** `blocked` equals the pending set; a pending warp's request is
//!   refused without `err`; `req_ready` only with `req_valid`; `bar.arrive`
//!   never makes its warp pending; during `reset` every output is 0.
//! - **B3** `rel_op`/`rel_result` equal the phase's kind and the
//!   popc/AND/OR over the predicates of its arrivals; a request mixing kinds
//!   in a phase pulses `err` with `kind_mix`.
//! - **B4** a request of a non-pending warp in a cycle without a ctl event is
//!   taken (1 arrival/cycle whatever is pending); a request in a ctl cycle is
//!   refused; `rel_mask` holds no warp pending on another barrier or CTA.
//! - **B5** a completion owed because an exit lowered an "all" phase's live
//!   count is released on time (else B5, not B7).
//! - **B6** `err`/`err_code` equal the expected cause (or 0) every cycle; a
//!   bad request or ctl event changes no state (a design that counts one
//!   fails B1 later).
//! - **B7** every owed completion is released exactly at its deadline (1
//!   cycle after the completing arrival); at most one per cycle.

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
    deadline: u64,
    slot: u8,
    id: u8,
    waiters: u64,
    kind: u8,
    result: u32,
    by_exit: bool,
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
    violation: Option<Violation>,
    /// Statistics for non-vacuity checks.
    pub releases: u64,
    pub arrivals: u64,
    pub errors: u64,
    pub refusals: u64,
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
            violation: None,
            releases: 0,
            arrivals: 0,
            errors: 0,
            refusals: 0,
        }
    }

    fn reset_state(&mut self) {
        let (r, a, e, f) = (self.releases, self.arrivals, self.errors, self.refusals);
        let cycle = self.cycle;
        *self = BarScoreboard::new(&self.cfg);
        self.cycle = cycle;
        (self.releases, self.arrivals, self.errors, self.refusals) = (r, a, e, f);
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

    /// The error code the contract requires for a request of a live or not
    /// live, non-pending warp (inputs masked to their port widths).
    fn request_code(&self, i: &BarInputs) -> u8 {
        let w = (i.req_warp as u32) & (self.cfg.warps - 1);
        if i.req_op > op::RED_OR {
            return errc::BAD_OP;
        }
        if self.live & bit(w) == 0 {
            return errc::NO_CTA;
        }
        if i.req_op == op::ARRIVE && i.req_all {
            return errc::ARRIVE_NO_COUNT;
        }
        let slot = self.warp_slot[w as usize] as usize;
        let count = (i.req_count as u32) & ((1 << self.cfg.cb()) - 1);
        if !i.req_all && count == 0 {
            return errc::ZERO_COUNT;
        }
        if !i.req_all && count > self.size[slot] {
            return errc::COUNT_TOO_BIG;
        }
        let p = &self.phases[slot * BARRIERS_PER_CTA + (i.req_id & 15) as usize];
        if p.active && (p.all != i.req_all || (!i.req_all && p.expected as u32 != count)) {
            return errc::COUNT_MISMATCH;
        }
        let kind = if op::is_red(i.req_op) { i.req_op } else { 0 };
        if p.active && p.kind != kind {
            return errc::KIND_MIX;
        }
        errc::NONE
    }

    fn ctl_code(&self, i: &BarInputs) -> u8 {
        if i.ctl_op & 1 == ctl::LAUNCH {
            let slot = (i.ctl_slot as u32) & ((1 << self.cfg.sb()) - 1);
            let warps = i.ctl_warps & self.cfg.warp_mask();
            if slot >= self.cfg.cta_slots {
                errc::SLOT_RANGE
            } else if self.busy[slot as usize] {
                errc::SLOT_BUSY
            } else if warps == 0 || warps & self.live != 0 {
                errc::BAD_WARPS
            } else {
                errc::NONE
            }
        } else {
            let w = (i.ctl_warp as u32) & (self.cfg.warps - 1);
            if self.live & bit(w) == 0 {
                errc::EXIT_NOT_LIVE
            } else if self.pending & bit(w) != 0 {
                errc::EXIT_BLOCKED
            } else {
                errc::NONE
            }
        }
    }

    fn owe(&mut self, slot: usize, id: usize, by_exit: bool) {
        let p = self.phases[slot * BARRIERS_PER_CTA + id];
        let result = match p.kind {
            op::RED_POPC => p.popc,
            op::RED_AND => p.and_acc as u32,
            op::RED_OR => p.or_acc as u32,
            _ => 0,
        };
        self.owed.push(Owed {
            deadline: self.cycle + 1,
            slot: slot as u8,
            id: id as u8,
            waiters: p.waiters,
            kind: p.kind,
            result,
            by_exit,
        });
        self.phases[slot * BARRIERS_PER_CTA + id] = Phase::default();
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
        let wm = self.cfg.warp_mask();
        if i.reset {
            if *o != BarOutputs::default() {
                return self.fail("B2", format!("outputs not 0 during reset: {o:?}"));
            }
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
            let Some(k) = self.owed.iter().position(|d| d.slot == slot && d.id == id) else {
                return self.fail(
                    "B1",
                    format!("release of (slot {slot}, id {id}) mask {:#x} but that barrier has not completed (in an earlier cycle)", o.rel_mask),
                );
            };
            let d = self.owed.remove(k);
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
                    "(slot {}, id {}) completed{} in cycle {} and is not released by cycle {}",
                    d.slot,
                    d.id,
                    if d.by_exit { " by an exit" } else { "" },
                    d.deadline - 1,
                    self.cycle
                ),
            );
        }
        let released = if o.rel_valid { o.rel_mask } else { 0 };

        // --- this cycle's inputs ---
        let mut code = errc::NONE;
        if i.ctl_valid {
            if o.req_ready {
                return self.fail(
                    "B4",
                    "a request was taken in a cycle with a ctl event (must be refused)".into(),
                );
            }
            code = self.ctl_code(i);
            if code == errc::NONE {
                if i.ctl_op & 1 == ctl::LAUNCH {
                    let slot = (i.ctl_slot as u32 & ((1 << self.cfg.sb()) - 1)) as usize;
                    let warps = i.ctl_warps & wm;
                    self.busy[slot] = true;
                    self.size[slot] = warps.count_ones();
                    self.live_cnt[slot] = warps.count_ones();
                    self.live |= warps;
                    for w in 0..self.cfg.warps {
                        if warps & bit(w) != 0 {
                            self.warp_slot[w as usize] = slot as u8;
                        }
                    }
                } else {
                    let w = (i.ctl_warp as u32) & (self.cfg.warps - 1);
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
                                self.owe(slot, id, true);
                            }
                        }
                    }
                }
            }
        } else if i.req_valid {
            let w = (i.req_warp as u32) & (self.cfg.warps - 1);
            if self.pending & bit(w) != 0 {
                if o.req_ready {
                    return self.fail("B2", format!("request of blocked warp {w} taken"));
                }
                self.refusals += 1;
            } else {
                if !o.req_ready {
                    return self.fail("B4", format!("request of unblocked warp {w} refused"));
                }
                code = self.request_code(i);
                if code == errc::NONE {
                    self.arrivals += 1;
                    let slot = self.warp_slot[w as usize] as usize;
                    let id = (i.req_id & 15) as usize;
                    let count = (i.req_count as u32 & ((1 << self.cfg.cb()) - 1)) as u8;
                    let p = &mut self.phases[slot * BARRIERS_PER_CTA + id];
                    if !p.active {
                        *p = Phase {
                            active: true,
                            all: i.req_all,
                            expected: if i.req_all { 0 } else { count },
                            kind: if op::is_red(i.req_op) { i.req_op } else { 0 },
                            and_acc: true,
                            ..Phase::default()
                        };
                    }
                    p.count += 1;
                    p.popc += i.req_pred.count_ones();
                    p.and_acc &= i.req_pred == u32::MAX;
                    p.or_acc |= i.req_pred != 0;
                    if op::blocks(i.req_op) {
                        p.waiters |= bit(w);
                    }
                    let done = if p.all {
                        p.count >= self.live_cnt[slot]
                    } else {
                        p.count >= p.expected as u32
                    };
                    if op::blocks(i.req_op) {
                        self.waits_on[w as usize] = (slot as u8, id as u8);
                    }
                    if done {
                        self.owe(slot, id, false);
                    }
                }
            }
        } else if o.req_ready {
            return self.fail("B2", "req_ready without req_valid".into());
        }
        if o.err != (code != errc::NONE) || o.err_code != code {
            let p = if code == errc::KIND_MIX { "B3" } else { "B6" };
            return self.fail(
                p,
                format!(
                    "err {} code {} ({}), expected err {} code {} ({})",
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
        // Pending set for the next cycle: released warps leave, new blocking arrivals join.
        self.pending &= !released;
        if i.req_valid && !i.ctl_valid && o.req_ready && code == errc::NONE && op::blocks(i.req_op)
        {
            self.pending |= bit((i.req_warp as u32) & (self.cfg.warps - 1));
        }
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
                    "(slot {}, id {}) completed and never released",
                    d.slot, d.id
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

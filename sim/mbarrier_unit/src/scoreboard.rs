//! Port-only property checkers: [`MbarScoreboard`] (M1–M8 of
//! `spec/mbarrier_unit.md`) and [`GroupScoreboard`] (G1–G4 of
//! `spec/async_groups.md`). They see only the [`Config`] and each cycle's
//! inputs and outputs, never a design's state, so they serve every back end.
//!
//! Both keep an *architectural* shadow built from the accepted inputs (the
//! contracts make the architectural state a deterministic function of them):
//! unbounded integers, a plain queue of groups, the cycle each wait was
//! decided. Against it they check every output: exact values where the
//! contract fixes them (responses, tokens, `err`, releases) and timing
//! windows where it leaves freedom (wakes within the fan-out bound).
//! Call `check` once per cycle with that cycle's inputs and outputs; the
//! first [`Violation`] is sticky.
//!
//! # M rules (label = the property a mismatch breaks)
//! - **M1** a test_wait/try_wait answer says "done" while the shadow phase
//!   still owes arrivals, or "not done" after the shadow phase completed.
//! - **M2** a try_wait that should suspend did not (or the reverse); a
//!   suspended warp answered false before its limit or although its phase
//!   completed; `suspended` differs from the shadow's suspended set.
//! - **M3** a wake for a warp not waiting, for a phase that did not
//!   complete, more than F wakes in a cycle, or a completed phase's waiter
//!   woken outside [c + 2, c + B + 1] (c the completion's step cycle,
//!   B = ceil(W/F)).
//! - **M4** "done" while the shadow phase has no arrivals left but a
//!   tx-count ≠ 0, or an arrival accepted (no underflow `err`) in such a
//!   phase: the transaction debt was ignored.
//! - **M5** an arrive's token is not the parity of the phase it arrived in.
//! - **M6** `err`/`err_src`/`err_cause` differ from the shadow's verdict of
//!   the previous cycle's inputs (a bad input must pulse `err`; a good one
//!   must not); every output zero during reset.
//! - **M7** more than one request accepted in a cycle, a ready without its
//!   valid, a cycle with requests and none accepted, a request held valid
//!   for 3 cycles and not accepted; a response missing, extra, for the
//!   wrong warp/op, or not exactly 2 cycles after its acceptance; a
//!   response field that must be 0 is not.
//! - **M8** a timed-out waiter not woken within B + 1 cycles of its limit
//!   (or answered true after its limit passed with the phase incomplete);
//!   any lost completion on an entry where an op and a complete-tx were
//!   stepped back to back (reported as M8 rather than M1/M2 there).
//!
//! The shadow applies a request in its step cycle, the cycle after its
//! acceptance (`docs/mbarrier_ram_design.md`): the registered outputs of
//! the next cycle answer it.
//!
//! # G rules
//! - **G1** a wait released while more than N committed groups are pending
//!   (reading, for `.read`) in the shadow; a release of a warp not waiting.
//! - **G2** a waiting warp not released in the first cycle its condition
//!   holds on the state after the previous cycle; `blocked` differs.
//! - **G3** an operation of a non-blocked warp refused without overflow, an
//!   overflowing one (full open group, G groups pending) or one of a blocked
//!   warp accepted, `ag_ready` high without `ag_valid`.
//! - **G4** `err`/`err_cause` differ from the shadow's verdict on the
//!   previous cycle's reports; every output zero during reset.

use crate::config::Config;
use crate::ports::async_groups as ag;
use crate::ports::mbarrier::{cause, op, src, Inputs, Outputs};
use std::collections::VecDeque;
use std::fmt;

/// A property violation (the first one seen).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub cycle: u64,
    pub property: &'static str,
    pub warp: Option<u32>,
    pub reason: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.warp {
            Some(w) => write!(
                f,
                "cycle {}: {} warp {}: {}",
                self.cycle, self.property, w, self.reason
            ),
            None => write!(
                f,
                "cycle {}: {}: {}",
                self.cycle, self.property, self.reason
            ),
        }
    }
}

impl std::error::Error for Violation {}

#[derive(Clone, Copy, Debug, Default)]
struct ShEntry {
    valid: bool,
    parity: bool,
    pending: i64,
    expected: i64,
    tx: i64,
    /// An op and a complete-tx were stepped back to back on this entry since its init.
    collided: bool,
}

#[derive(Clone, Copy, Debug)]
struct ShWait {
    entry: usize,
    parity: bool,
    since: u64,
    decided: Option<(u64, bool)>,
}

/// The M1–M8 checker.
#[derive(Clone, Debug)]
pub struct MbarScoreboard {
    cfg: Config,
    entries: Vec<ShEntry>,
    waits: Vec<Option<ShWait>>,
    expect: Outputs,
    /// For a test/try_wait response: the shadow entry at decision time.
    expect_entry: ShEntry,
    /// For an expected error: the shadow entry before the bad input.
    err_entry: ShEntry,
    /// The entry of the request stepped in the previous cycle had an op and
    /// a complete-tx stepped back to back on it.
    step_collided: bool,
    /// The request accepted in the previous cycle (stepped in this one), as
    /// inputs with only its port's valid set.
    stepping: Inputs,
    /// Per port (op, ctx, rarv): consecutive cycles valid and not accepted.
    held: [u32; 3],
    violation: Option<Violation>,
    checks: u64,
}

impl MbarScoreboard {
    pub fn new(cfg: &Config) -> Self {
        MbarScoreboard {
            cfg: *cfg,
            entries: vec![ShEntry::default(); cfg.entries as usize],
            waits: vec![None; cfg.warps as usize],
            expect: Outputs::default(),
            expect_entry: ShEntry::default(),
            err_entry: ShEntry::default(),
            step_collided: false,
            stepping: Inputs::default(),
            held: [0; 3],
            violation: None,
            checks: 0,
        }
    }
    pub fn violation(&self) -> Option<&Violation> {
        self.violation.as_ref()
    }
    /// Cycles checked so far.
    pub fn checks(&self) -> u64 {
        self.checks
    }

    fn fail(
        &mut self,
        cycle: u64,
        p: &'static str,
        w: Option<u32>,
        r: String,
    ) -> Result<(), Violation> {
        let v = Violation {
            cycle,
            property: p,
            warp: w,
            reason: r,
        };
        self.violation = Some(v.clone());
        Err(v)
    }

    /// Check one cycle (its inputs and outputs), then update the shadow.
    pub fn check(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), Violation> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        self.checks += 1;
        let cfg = self.cfg;
        let wn = cfg.warps as usize;
        if i.reset {
            if *o != Outputs::default() {
                return self.fail(
                    cycle,
                    "M6",
                    None,
                    format!("output not zero during reset: {o:?}"),
                );
            }
            *self = MbarScoreboard {
                checks: self.checks,
                ..MbarScoreboard::new(&cfg)
            };
            return Ok(());
        }
        let i = i.masked(&cfg);
        // Acceptance: one request a cycle, every held request within 3 cycles.
        let valid = [i.op_valid, i.ctx_valid, i.rarv_valid];
        let ready = [o.op_ready, o.ctx_ready, o.rarv_ready];
        const PORT: [&str; 3] = ["op", "ctx", "rarv"];
        if ready.iter().filter(|&&r| r).count() > 1 {
            return self.fail(
                cycle,
                "M7",
                None,
                format!("more than one request accepted: ready {ready:?}"),
            );
        }
        for p in 0..3 {
            if ready[p] && !valid[p] {
                return self.fail(
                    cycle,
                    "M7",
                    None,
                    format!("{}_ready without {}_valid", PORT[p], PORT[p]),
                );
            }
        }
        if valid.iter().any(|&v| v) && !ready.iter().any(|&r| r) {
            return self.fail(
                cycle,
                "M7",
                None,
                format!("requests {valid:?} presented and none accepted"),
            );
        }
        for p in 0..3 {
            self.held[p] = if valid[p] && !ready[p] {
                self.held[p] + 1
            } else {
                0
            };
            if self.held[p] >= 3 {
                return self.fail(
                    cycle,
                    "M7",
                    None,
                    format!(
                        "{} request held valid for {} cycles and not accepted (the bound is 3)",
                        PORT[p], self.held[p]
                    ),
                );
            }
        }
        let accepted = match ready.iter().position(|&r| r) {
            Some(p) => i.only(p as u8),
            None => Inputs::default(),
        };
        let prev = std::mem::replace(&mut self.stepping, accepted);
        // Back to back on one entry, an op and a complete-tx (either order).
        let op_or_ctx_entry = |r: &Inputs| {
            if r.op_valid {
                Some(r.op_entry)
            } else if r.ctx_valid {
                Some(r.ctx_entry)
            } else {
                None
            }
        };
        let (ea, eb) = (op_or_ctx_entry(&prev), op_or_ctx_entry(&accepted));
        if let (Some(a), Some(b)) = (ea, eb) {
            if a == b && prev.op_valid != accepted.op_valid {
                self.entries[a as usize].collided = true;
            }
        }
        // From here on, `i` is the request stepped this cycle.
        let i = prev;
        // Registered outputs: the verdict on the previous cycle.
        let x = self.expect;
        if (o.rsp_valid, o.rsp_warp, o.rsp_op) != (x.rsp_valid, x.rsp_warp, x.rsp_op) {
            return self.fail(
                cycle,
                "M7",
                None,
                format!(
                    "response (valid {}, warp {}, op {}) expected (valid {}, warp {}, op {})",
                    o.rsp_valid, o.rsp_warp, o.rsp_op, x.rsp_valid, x.rsp_warp, x.rsp_op
                ),
            );
        }
        if (o.err, o.err_src, o.err_cause) != (x.err, x.err_src, x.err_cause) {
            let e = self.err_entry;
            // An arrival accepted although the shadow phase has no arrivals
            // left and only owes tx-count: the unit completed it with tx ≠ 0.
            // A refusal the shadow does not expect, on an entry where an op
            // and a complete-tx were stepped back to back: a lost update.
            let p = if self.step_collided && o.err && !x.err {
                "M8"
            } else if x.err_cause == cause::UNDERFLOW && !o.err && e.pending == 0 && e.tx != 0 {
                "M4"
            } else {
                "M6"
            };
            return self.fail(
                cycle,
                p,
                None,
                format!(
                    "err {} src {} cause {} expected err {} src {} cause {} ({})",
                    o.err,
                    o.err_src,
                    o.err_cause,
                    x.err,
                    x.err_src,
                    x.err_cause,
                    cause::NAMES.get(x.err_cause as usize).unwrap_or(&"?")
                ),
            );
        }
        if x.rsp_valid && !x.err {
            let w = Some(x.rsp_warp as u32);
            if op::is_arrive(x.rsp_op) && o.rsp_token != x.rsp_token {
                return self.fail(
                    cycle,
                    "M5",
                    w,
                    format!(
                        "arrive token {} but the arrival counted in the phase of parity {}",
                        o.rsp_token, x.rsp_token
                    ),
                );
            }
            if (x.rsp_op == op::TEST_WAIT || x.rsp_op == op::TRY_WAIT) && o.rsp_done != x.rsp_done {
                let e = self.expect_entry;
                // On an entry where an op and a complete-tx were stepped back
                // to back, a wrong answer is a read-modify-write hazard (M8).
                let p = if e.collided {
                    "M8"
                } else if o.rsp_done && e.pending == 0 && e.tx != 0 {
                    "M4"
                } else {
                    "M1"
                };
                return self.fail(cycle, p, w, format!(
                    "{} answered done={} but the phase waited on {} (shadow: pending {}, tx {})",
                    op::NAMES[x.rsp_op as usize], o.rsp_done,
                    if x.rsp_done { "has completed" } else { "has not completed" }, e.pending, e.tx));
            }
            if x.rsp_op == op::TRY_WAIT && o.rsp_suspended != x.rsp_suspended {
                return self.fail(
                    cycle,
                    "M2",
                    w,
                    format!(
                        "try_wait suspended={} expected {}",
                        o.rsp_suspended, x.rsp_suspended
                    ),
                );
            }
        }
        // Every other response field is 0 (no response, an erroring op, a
        // field the op does not answer).
        if (o.rsp_token, o.rsp_done, o.rsp_suspended) != (x.rsp_token, x.rsp_done, x.rsp_suspended)
        {
            return self.fail(cycle, "M7", None, format!(
                "response fields (token {}, done {}, suspended {}) expected ({}, {}, {}) for {}",
                o.rsp_token, o.rsp_done, o.rsp_suspended, x.rsp_token, x.rsp_done, x.rsp_suspended,
                if !x.rsp_valid { "no response" } else if x.err { "an erroring op" } else { "this op" }));
        }
        // Wakes.
        if o.wake_done & !o.wake_mask != 0 {
            return self.fail(
                cycle,
                "M3",
                None,
                format!(
                    "wake_done {:#x} outside wake_mask {:#x}",
                    o.wake_done, o.wake_mask
                ),
            );
        }
        if o.wake_mask.count_ones() > cfg.wake_fanout {
            return self.fail(
                cycle,
                "M3",
                None,
                format!(
                    "{} wakes in one cycle, fan-out F = {}",
                    o.wake_mask.count_ones(),
                    cfg.wake_fanout
                ),
            );
        }
        let bound = cfg.wake_bound();
        for w in 0..64usize {
            if o.wake_mask >> w & 1 == 0 {
                continue;
            }
            let done = o.wake_done >> w & 1 == 1;
            let wt = if w < wn { self.waits[w] } else { None };
            let Some(wt) = wt else {
                return self.fail(
                    cycle,
                    "M3",
                    Some(w as u32),
                    "woken but not suspended".into(),
                );
            };
            match wt.decided {
                None if done => {
                    return self.fail(
                        cycle,
                        "M3",
                        Some(w as u32),
                        format!(
                            "woken done for entry {} parity {} whose phase has not completed",
                            wt.entry, wt.parity as u8
                        ),
                    );
                }
                None => {
                    return self.fail(
                        cycle,
                        "M2",
                        Some(w as u32),
                        format!(
                            "answered false after {} cycles, before its limit {}",
                            cycle - wt.since,
                            cfg.try_wait_limit
                        ),
                    );
                }
                Some((_, true)) if !done => {
                    let p = if self.entries[wt.entry].collided {
                        "M8"
                    } else {
                        "M2"
                    };
                    return self.fail(
                        cycle,
                        p,
                        Some(w as u32),
                        "answered false although its phase completed before the limit".into(),
                    );
                }
                Some((d, _)) if cycle < d + 2 => {
                    return self.fail(cycle, "M3", Some(w as u32), format!(
                        "woken in cycle {cycle}, decided in cycle {d}: a wake comes 2 cycles after the decision at the earliest"));
                }
                Some((d, false)) if done => {
                    return self.fail(cycle, "M8", Some(w as u32), format!(
                        "limit passed in cycle {d} (entry {} parity {} incomplete) but the warp stayed suspended and answered true later",
                        wt.entry, wt.parity as u8));
                }
                Some(_) => {}
            }
            self.waits[w] = None;
        }
        for w in 0..wn {
            if let Some(ShWait {
                decided: Some((d, done)),
                ..
            }) = self.waits[w]
            {
                if cycle > d + bound + 1 {
                    return self.fail(
                        cycle,
                        if done { "M3" } else { "M8" },
                        Some(w as u32),
                        format!(
                        "decided ({}) in cycle {d} but not woken by cycle {} (woken by d + B + 1, B = {bound})",
                        if done { "phase completed" } else { "limit passed" }, cycle),
                    );
                }
            }
        }
        let shadow_susp = (0..wn)
            .filter(|&w| self.waits[w].is_some())
            .fold(0u64, |m, w| m | 1 << w);
        if o.suspended != shadow_susp {
            return self.fail(
                cycle,
                "M2",
                None,
                format!("suspended {:#x}, expected {:#x}", o.suspended, shadow_susp),
            );
        }

        // Apply this cycle's inputs to the shadow.
        let max_count = cfg.max_count() as i64;
        let max_tx = cfg.max_tx();
        let mut completions: Vec<(usize, bool)> = Vec::new();
        let mut errs: Vec<(u8, u8)> = Vec::new();
        let mut snaps = [ShEntry::default(); 3];
        fn settle(e: &mut ShEntry, ix: usize, c: &mut Vec<(usize, bool)>) {
            if e.valid && e.pending == 0 && e.tx == 0 {
                c.push((ix, e.parity));
                e.parity = !e.parity;
                e.pending = e.expected;
            }
        }
        if i.ctx_valid {
            let ix = i.ctx_entry as usize;
            snaps[src::CTX as usize] = self.entries[ix];
            let e = &mut self.entries[ix];
            if !e.valid {
                errs.push((src::CTX, cause::UNINIT));
            } else if i.ctx_bytes as i64 > max_tx || e.tx - (i.ctx_bytes as i64) < -max_tx {
                errs.push((src::CTX, cause::TX_RANGE));
            } else {
                e.tx -= i.ctx_bytes as i64;
                settle(e, ix, &mut completions);
            }
        }
        if i.rarv_valid {
            let ix = i.rarv_entry as usize;
            snaps[src::RARV as usize] = self.entries[ix];
            let e = &mut self.entries[ix];
            let n = i.rarv_count as i64;
            if !e.valid {
                errs.push((src::RARV, cause::UNINIT));
            } else if n == 0 || n > max_count {
                errs.push((src::RARV, cause::BAD_COUNT));
            } else if n > e.pending {
                errs.push((src::RARV, cause::UNDERFLOW));
            } else {
                e.pending -= n;
                settle(e, ix, &mut completions);
            }
        }
        let mut next = Outputs::default();
        if i.op_valid {
            let w = i.op_warp as usize;
            let ix = i.op_entry as usize;
            let code = i.op_code;
            let n = i.op_count as i64;
            let txb = i.op_tx as i64;
            let count_bad = n == 0 || n > max_count;
            let has_waiters = self
                .waits
                .iter()
                .any(|x| matches!(x, Some(s) if s.entry == ix));
            let e = self.entries[ix];
            snaps[src::OP as usize] = e;
            let mut c = cause::NONE;
            next.rsp_valid = true;
            next.rsp_warp = w as u8;
            next.rsp_op = code;
            if op::is_reserved(code) {
                c = cause::RESERVED_OP;
            } else if w < wn && self.waits[w].is_some() {
                c = cause::WARP_SUSPENDED;
            } else if code == op::INIT {
                if count_bad {
                    c = cause::BAD_COUNT;
                } else if has_waiters {
                    c = cause::WAITERS;
                } else {
                    self.entries[ix] = ShEntry {
                        valid: true,
                        parity: false,
                        pending: n,
                        expected: n,
                        tx: 0,
                        collided: false,
                    };
                }
            } else if !e.valid {
                c = cause::UNINIT;
            } else {
                let en = &mut self.entries[ix];
                match code {
                    op::INVAL => {
                        if has_waiters {
                            c = cause::WAITERS
                        } else {
                            *en = ShEntry::default()
                        }
                    }
                    op::ARRIVE | op::ARRIVE_DROP | op::ARRIVE_EXPECT_TX => {
                        let add = if code == op::ARRIVE_EXPECT_TX { txb } else { 0 };
                        if count_bad {
                            c = cause::BAD_COUNT;
                        } else if en.tx + add > max_tx || add > max_tx {
                            c = cause::TX_RANGE;
                        } else if n > en.pending || (code == op::ARRIVE_DROP && n >= en.expected) {
                            c = cause::UNDERFLOW;
                        } else {
                            next.rsp_token = en.parity;
                            en.tx += add;
                            en.pending -= n;
                            if code == op::ARRIVE_DROP {
                                en.expected -= n;
                            }
                            settle(en, ix, &mut completions);
                        }
                    }
                    op::EXPECT_TX => {
                        if txb > max_tx || en.tx + txb > max_tx {
                            c = cause::TX_RANGE
                        } else {
                            en.tx += txb;
                            settle(en, ix, &mut completions)
                        }
                    }
                    op::COMPLETE_TX => {
                        if txb > max_tx || en.tx - txb < -max_tx {
                            c = cause::TX_RANGE
                        } else {
                            en.tx -= txb;
                            settle(en, ix, &mut completions)
                        }
                    }
                    _ => {
                        // TEST_WAIT / TRY_WAIT
                        next.rsp_done = en.parity != i.op_parity;
                        self.expect_entry = *en;
                        if code == op::TRY_WAIT && !next.rsp_done {
                            next.rsp_suspended = true;
                            self.waits[w] = Some(ShWait {
                                entry: ix,
                                parity: i.op_parity,
                                since: cycle,
                                decided: None,
                            });
                        }
                    }
                }
            }
            if c != cause::NONE {
                errs.push((src::OP, c));
                next.rsp_token = false;
                next.rsp_done = false;
                next.rsp_suspended = false;
            }
        }
        self.step_collided = snaps.iter().any(|e| e.collided);
        let reported = [src::OP, src::CTX, src::RARV]
            .iter()
            .find_map(|&p| errs.iter().find(|&&(s, _)| s == p).copied());
        if let Some((s, c)) = reported {
            self.err_entry = snaps[s as usize];
            next.err = true;
            next.err_src = s;
            next.err_cause = c;
        }
        // Decisions of waiters suspended in earlier cycles.
        let limit = cfg.try_wait_limit as u64;
        for w in 0..wn {
            if let Some(wt) = &mut self.waits[w] {
                if wt.decided.is_some() || wt.since == cycle {
                    continue;
                }
                if completions
                    .iter()
                    .any(|&(e, p)| e == wt.entry && p == wt.parity)
                {
                    wt.decided = Some((cycle, true));
                } else if cycle - wt.since >= limit {
                    wt.decided = Some((cycle, false));
                }
            }
        }
        self.expect = next;
        Ok(())
    }
}

/// The G1–G4 checker.
#[derive(Clone, Debug)]
pub struct GroupScoreboard {
    cfg: Config,
    /// Per warp: committed groups (reads left, writes left), oldest first.
    committed: Vec<VecDeque<(u32, u32)>>,
    open: Vec<(u32, u32)>,
    waiting: Vec<Option<(u8, bool)>>,
    expect_err: u8,
    violation: Option<Violation>,
    checks: u64,
}

impl GroupScoreboard {
    pub fn new(cfg: &Config) -> Self {
        let w = cfg.warps as usize;
        GroupScoreboard {
            cfg: *cfg,
            committed: vec![VecDeque::new(); w],
            open: vec![(0, 0); w],
            waiting: vec![None; w],
            expect_err: 0,
            violation: None,
            checks: 0,
        }
    }
    pub fn violation(&self) -> Option<&Violation> {
        self.violation.as_ref()
    }
    pub fn checks(&self) -> u64 {
        self.checks
    }
    fn fail(
        &mut self,
        cycle: u64,
        p: &'static str,
        w: Option<u32>,
        r: String,
    ) -> Result<(), Violation> {
        let v = Violation {
            cycle,
            property: p,
            warp: w,
            reason: r,
        };
        self.violation = Some(v.clone());
        Err(v)
    }
    fn pending(&self, w: usize, read: bool) -> usize {
        let c = &self.committed[w];
        if !read {
            return c.len();
        }
        match c.iter().position(|g| g.0 > 0) {
            Some(k) => c.len() - k,
            None => 0,
        }
    }

    pub fn check(&mut self, cycle: u64, i: &ag::Inputs, o: &ag::Outputs) -> Result<(), Violation> {
        if let Some(v) = &self.violation {
            return Err(v.clone());
        }
        self.checks += 1;
        let cfg = self.cfg;
        let wn = cfg.warps as usize;
        if i.reset {
            if *o != ag::Outputs::default() {
                return self.fail(
                    cycle,
                    "G4",
                    None,
                    format!("output not zero during reset: {o:?}"),
                );
            }
            *self = GroupScoreboard {
                checks: self.checks,
                ..GroupScoreboard::new(&cfg)
            };
            return Ok(());
        }
        let i = i.masked(&cfg);
        let x = self.expect_err;
        if o.err != (x != 0) || o.err_cause != x {
            return self.fail(
                cycle,
                "G4",
                None,
                format!("err {} cause {} expected cause {}", o.err, o.err_cause, x),
            );
        }
        let blocked = (0..wn)
            .filter(|&w| self.waiting[w].is_some())
            .fold(0u64, |m, w| m | 1 << w);
        if o.blocked != blocked {
            return self.fail(
                cycle,
                "G2",
                None,
                format!("blocked {:#x}, expected {:#x}", o.blocked, blocked),
            );
        }
        for w in 0..64usize {
            let rel = o.release_mask >> w & 1 == 1;
            let Some((n, read)) = (if w < wn { self.waiting[w] } else { None }) else {
                if rel {
                    return self.fail(
                        cycle,
                        "G1",
                        Some(w as u32),
                        "released but not waiting".into(),
                    );
                }
                continue;
            };
            let p = self.pending(w, read);
            let met = p <= n as usize;
            if rel && !met {
                return self.fail(
                    cycle,
                    "G1",
                    Some(w as u32),
                    format!(
                        "wait_group{} {n} released with {p} committed groups {}",
                        if read { ".read" } else { "" },
                        if read { "still reading" } else { "pending" }
                    ),
                );
            }
            if !rel && met {
                return self.fail(
                    cycle,
                    "G2",
                    Some(w as u32),
                    format!(
                        "wait_group{} {n} not released although only {p} groups are pending",
                        if read { ".read" } else { "" }
                    ),
                );
            }
        }
        // Readiness.
        if !i.ag_valid {
            if o.ag_ready {
                return self.fail(cycle, "G3", None, "ag_ready without ag_valid".into());
            }
        } else {
            let w = i.ag_warp as usize;
            let full_bulk = i.ag_op == ag::op::BULK && self.open[w].1 >= cfg.max_group_ops();
            let full_commit =
                i.ag_op == ag::op::COMMIT && self.committed[w].len() >= cfg.group_depth as usize;
            let exp = self.waiting[w].is_none() && !full_bulk && !full_commit;
            if o.ag_ready != exp {
                let why = if self.waiting[w].is_some() {
                    "of a blocked warp"
                } else if full_bulk {
                    "into a full open group (counter would wrap)"
                } else if full_commit {
                    "with G groups pending (counter would wrap)"
                } else {
                    "of a free warp without overflow"
                };
                return self.fail(
                    cycle,
                    "G3",
                    Some(w as u32),
                    format!(
                        "{} {} {}",
                        ag::op::NAMES[i.ag_op as usize],
                        why,
                        if o.ag_ready { "accepted" } else { "refused" }
                    ),
                );
            }
        }
        for w in 0..wn {
            if o.release_mask >> w & 1 == 1 {
                self.waiting[w] = None;
            }
        }
        // Reports, oldest group first.
        let mut err = 0u8;
        if i.rd_valid {
            let w = i.rd_warp as usize;
            let open = &mut self.open[w];
            if let Some(g) = self.committed[w].iter_mut().find(|g| g.0 > 0) {
                g.0 -= 1;
            } else if open.0 > 0 {
                open.0 -= 1;
            } else {
                err |= ag::cause::RD_SPURIOUS;
            }
        }
        if i.wr_valid {
            let w = i.wr_warp as usize;
            let open = &mut self.open[w];
            let g = match self.committed[w].iter_mut().find(|g| g.1 > 0) {
                Some(g) => Some(g),
                None if open.1 > 0 => Some(open),
                None => None,
            };
            match g {
                Some(g) if g.1 > g.0 => g.1 -= 1,
                _ => err |= ag::cause::WR_SPURIOUS,
            }
        }
        if i.ag_valid && o.ag_ready {
            let w = i.ag_warp as usize;
            match i.ag_op {
                ag::op::BULK => {
                    self.open[w].0 += 1;
                    self.open[w].1 += 1;
                }
                ag::op::COMMIT => {
                    let g = std::mem::take(&mut self.open[w]);
                    self.committed[w].push_back(g);
                }
                k => self.waiting[w] = Some((i.ag_n, k == ag::op::WAIT_READ)),
            }
        }
        for c in &mut self.committed {
            while matches!(c.front(), Some(g) if g.1 == 0) {
                c.pop_front();
            }
        }
        self.expect_err = err;
        Ok(())
    }
}

/// The G1–G4 scoreboard as an observer of the one lockstep runner: it sees
/// the design under test's outputs.
impl unit_ports::lockstep::Observer<ag::AsyncGroupsPorts> for GroupScoreboard {
    fn observe(&mut self, cycle: u64, i: &ag::Inputs, o: &ag::Outputs) -> Result<(), String> {
        self.check(cycle, i, o).map_err(|v| v.to_string())
    }
}

//! Mutation proofs: each deliberate bug, built as a wrapper around the golden
//! model (test code only, never in the kernel), must be caught by the
//! port-only scoreboard as its own property, on seeded random stimulus over
//! a grid of configurations. The same seeds pass with the real model (so a
//! catch is the mutant's doing). Each mutant also records that it fired.
//!
//! Replay: `SEED=<n> cargo test --release -p bar-unit-model --test mutants <name>`
//! (SEED = the first seed tried; CYCLES = cycles per run).

use bar_unit_model::bar_unit::{BarUnitModel, Barrier, Release, Taken};
use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::{BarConfig, ClusterConfig, BARRIERS_PER_CTA, CLUSTER_SIZES};
use bar_unit_model::ports::{
    errc, op, BarInputs, BarOutputs, BarUnitPorts, ClusterBarrierPorts, ClusterInputs,
    ClusterOutputs, Dut,
};
use bar_unit_model::stimulus::{run_bar_random, run_cluster_random};

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Bug {
    /// The release pulses in the cycle the barrier completes (stage B of the
    /// last arrival, stage C of an exit), one cycle early.
    ReleaseEarly,
    /// The release pulses one cycle late.
    ReleaseLate,
    /// The highest waiter of a multi-waiter barrier is left out of the release.
    ForgetWaiter,
    /// An arrival that does not complete its barrier is counted twice (in
    /// stage B, the cycle after it was taken).
    CountTwice,
    /// `bar.red.popc` result off by one.
    PopcOffByOne,
    /// A blocked warp's request is taken as a new arrival.
    BlockedArrivesAgain,
    /// A count above the CTA size is clamped and accepted without `err`.
    BadCountNoErr,
    /// A blocking arrival of a CTA in slot s > 0 is counted (in stage B) in
    /// slot 0's barrier of the same id.
    CrossTalk,
    /// An exit never completes an "all" barrier (stage C never runs).
    ExitNotCounted,
    /// Requests are refused while a release is pending.
    StallOnRelease,
    /// Mixing kinds in a phase is silently ignored (no err).
    KindMixNoErr,
    /// A request of the warp whose `bar.sync`/`bar.red` was taken in the
    /// previous cycle is taken (the old single-stage rule).
    TakenAfterOwnBlockingRequest,
    /// A request in the cycle after a ctl event is taken.
    TakenAfterCtl,
    /// An exit's completion is released one cycle early (2 cycles after the
    /// exit, like an arrival's).
    ExitReleaseEarly,
    /// `err` pulses in the cycle the bad event is taken (the old timing),
    /// not in the next.
    ErrInTakenCycle,
}

struct Mutant {
    m: BarUnitModel,
    bug: Bug,
    fired: bool,
    held: Option<BarOutputs>,
}

impl Mutant {
    fn new(cfg: BarConfig, bug: Bug) -> Mutant {
        Mutant {
            m: BarUnitModel::new(cfg),
            bug,
            fired: false,
            held: None,
        }
    }
}

impl Dut<BarUnitPorts> for Mutant {
    fn name(&self) -> &str {
        "mutant"
    }
    fn step(&mut self, i: &BarInputs) -> BarOutputs {
        let cfg = self.m.cfg;
        let wmask = (cfg.warps - 1) as u8;
        match self.bug {
            Bug::ReleaseEarly => {
                let mut o = self.m.step(i);
                if o.rel_valid && !i.reset {
                    // Already shown in the previous cycle: hide it now.
                    o.rel_valid = false;
                    o.rel_mask = 0;
                    o.rel_slot = 0;
                    o.rel_id = 0;
                    o.rel_op = 0;
                    o.rel_result = 0;
                }
                let r = self.m.state.rel;
                if r.valid && !i.reset {
                    self.fired = true;
                    o.rel_valid = true;
                    o.rel_mask = r.mask;
                    o.rel_slot = r.slot;
                    o.rel_id = r.id;
                    o.rel_op = r.op;
                    o.rel_result = r.result;
                }
                o
            }
            Bug::ReleaseLate => {
                let mut o = self.m.step(i);
                let cur = o;
                if let Some(h) = self.held.take() {
                    o.rel_valid = h.rel_valid;
                    o.rel_mask = h.rel_mask;
                    o.rel_slot = h.rel_slot;
                    o.rel_id = h.rel_id;
                    o.rel_op = h.rel_op;
                    o.rel_result = h.rel_result;
                } else {
                    o.rel_valid = false;
                    o.rel_mask = 0;
                    o.rel_slot = 0;
                    o.rel_id = 0;
                    o.rel_op = 0;
                    o.rel_result = 0;
                }
                if cur.rel_valid {
                    self.fired = true;
                    self.held = Some(cur);
                }
                if i.reset {
                    self.held = None;
                }
                o
            }
            Bug::ForgetWaiter => {
                let r = &mut self.m.state.rel;
                if r.valid && r.mask.count_ones() >= 2 && !i.reset {
                    r.mask &= !(1u64 << (63 - r.mask.leading_zeros()));
                    self.fired = true;
                }
                self.m.step(i)
            }
            Bug::CountTwice => {
                let before = self.m.state.clone();
                let o = self.m.step(i);
                // Stage B applied the request taken in the previous cycle.
                let t = before.taken;
                if t.valid && !t.ctl && !o.err && !i.reset {
                    let idx = before.warp_slot[t.warp as usize] as usize * BARRIERS_PER_CTA
                        + t.id as usize;
                    let b = &mut self.m.state.bars[idx];
                    if b.active && !b.all && b.count + 1 < b.expected {
                        b.count += 1;
                        self.fired = true;
                    }
                }
                o
            }
            Bug::PopcOffByOne => {
                let mut o = self.m.step(i);
                if o.rel_valid && o.rel_op == op::RED_POPC {
                    o.rel_result += 1;
                    self.fired = true;
                }
                o
            }
            Bug::BlockedArrivesAgain => {
                let w = i.req_warp & wmask;
                let b = self.m.state.blocked;
                if i.req_valid
                    && !i.ctl_valid
                    && !i.reset
                    && b >> w & 1 == 1
                    && !self.m.state.rel.valid
                {
                    self.m.state.blocked &= !(1u64 << w);
                    let mut o = self.m.step(i);
                    self.m.state.blocked |= 1u64 << w;
                    o.blocked = b;
                    self.fired = true;
                    o
                } else {
                    self.m.step(i)
                }
            }
            Bug::BadCountNoErr => {
                let mut j = *i;
                let w = (i.req_warp & wmask) as usize;
                let s = &self.m.state;
                if i.req_valid
                    && !i.ctl_valid
                    && !i.req_all
                    && s.live >> w & 1 == 1
                    && s.blocked >> w & 1 == 0
                {
                    let size = s.slot_size[s.warp_slot[w] as usize];
                    if i.req_count > size && i.req_op <= op::RED_OR {
                        j.req_count = size;
                        self.fired = true;
                    }
                }
                self.m.step(&j)
            }
            Bug::CrossTalk => {
                // Stage B looks the warp's slot up for the request taken in
                // the previous cycle: hijack that lookup.
                let s = &self.m.state;
                let t = s.taken;
                let w = t.warp as usize;
                let mut hijack = false;
                if t.valid
                    && !t.ctl
                    && !i.reset
                    && op::blocks(t.op)
                    && !t.all
                    && s.live >> w & 1 == 1
                {
                    let slot = s.warp_slot[w] as usize;
                    let id = t.id as usize;
                    let own = &s.bars[slot * BARRIERS_PER_CTA + id];
                    let zero = &s.bars[id];
                    let kind = if op::is_red(t.op) { t.op } else { 0 };
                    hijack = slot != 0
                        && s.slot_busy[0]
                        && zero.active
                        && !zero.all
                        && zero.kind == kind
                        && zero.expected == t.count
                        && zero.count + 1 == zero.expected
                        && (!own.active
                            || (own.expected == t.count
                                && own.kind == kind
                                && !own.all
                                && own.count + 1 < own.expected))
                        && t.count <= s.slot_size[0]
                        && t.count <= s.slot_size[slot]
                        && t.count > 0;
                }
                if hijack {
                    let slot = self.m.state.warp_slot[w];
                    self.m.state.warp_slot[w] = 0;
                    let o = self.m.step(i);
                    self.m.state.warp_slot[w] = slot;
                    self.fired = true;
                    o
                } else {
                    self.m.step(i)
                }
            }
            Bug::ExitNotCounted => {
                let o = self.m.step(i);
                // Stage B found the "all" barrier an exit completes: drop it.
                if self.m.state.exit_done.valid && !i.reset {
                    self.m.state.exit_done = Default::default();
                    self.fired = true;
                }
                o
            }
            Bug::StallOnRelease => {
                if self.m.state.rel.valid && i.req_valid && !i.ctl_valid && !i.reset {
                    let w = i.req_warp & wmask;
                    let t = self.m.state.taken;
                    let after_ctl = t.valid && t.ctl;
                    let same_warp = t.valid && !t.ctl && t.warp == w && t.op != op::ARRIVE;
                    if self.m.state.blocked >> w & 1 == 0 && !after_ctl && !same_warp {
                        self.fired = true;
                    }
                    let mut j = *i;
                    j.req_valid = false;
                    self.m.step(&j)
                } else {
                    self.m.step(i)
                }
            }
            Bug::KindMixNoErr => {
                let mut o = self.m.step(i);
                if o.err_code == errc::KIND_MIX {
                    o.err = false;
                    o.err_code = 0;
                    self.fired = true;
                }
                o
            }
            Bug::TakenAfterOwnBlockingRequest | Bug::TakenAfterCtl => {
                let s = &self.m.state;
                let t = s.taken;
                let w = i.req_warp & wmask;
                let wrong = if self.bug == Bug::TakenAfterCtl {
                    t.valid && t.ctl
                } else {
                    t.valid && !t.ctl && t.warp == w && t.op != op::ARRIVE
                };
                if i.req_valid && !i.ctl_valid && !i.reset && wrong && s.blocked >> w & 1 == 0 {
                    // Take the request anyway: step without it, then load it
                    // into stage B's register.
                    let mut j = *i;
                    j.req_valid = false;
                    let mut o = self.m.step(&j);
                    self.m.state.taken = Taken::request(&cfg, i);
                    o.req_ready = true;
                    self.fired = true;
                    o
                } else {
                    self.m.step(i)
                }
            }
            Bug::ExitReleaseEarly => {
                let o = self.m.step(i);
                // Complete the barrier an exit completes now (stage B) instead
                // of in stage C, one cycle later.
                let s = &mut self.m.state;
                if s.exit_done.valid && !s.rel.valid && !i.reset {
                    let idx =
                        s.exit_done.slot as usize * BARRIERS_PER_CTA + s.exit_done.id as usize;
                    let b = s.bars[idx];
                    s.rel = Release {
                        valid: true,
                        slot: s.exit_done.slot,
                        id: s.exit_done.id,
                        mask: b.waiting,
                        op: b.kind,
                        result: match b.kind {
                            op::RED_POPC => b.popc,
                            op::RED_AND => b.and_acc as u32,
                            op::RED_OR => b.or_acc as u32,
                            _ => 0,
                        },
                    };
                    s.bars[idx] = Barrier::default();
                    s.exit_done = Default::default();
                    self.fired = true;
                }
                o
            }
            Bug::ErrInTakenCycle => {
                // Look ahead: the err a copy of the model pulses next cycle
                // for the event taken now is shown now (and the real one not).
                let mut o = self.m.step(i);
                let mut ahead = self.m.clone();
                let a = ahead.step(&BarInputs::default());
                o.err = a.err && !i.reset;
                o.err_code = if o.err { a.err_code } else { 0 };
                if o.err {
                    self.fired = true;
                }
                o
            }
        }
    }
}

fn grid() -> Vec<BarConfig> {
    vec![
        BarConfig {
            warps: 8,
            cta_slots: 1,
        },
        BarConfig {
            warps: 8,
            cta_slots: 2,
        },
        BarConfig {
            warps: 16,
            cta_slots: 4,
        },
        BarConfig {
            warps: 32,
            cta_slots: 8,
        },
        BarConfig {
            warps: 64,
            cta_slots: 64,
        },
        BarConfig {
            warps: 64,
            cta_slots: 2,
        },
    ]
}

fn assert_caught(bug: Bug, property: &str) {
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(4000);
    for seed in first..first + 60 {
        for cfg in grid() {
            let s = seed * 1000 + cfg.warps as u64 + cfg.cta_slots as u64;
            let mut mu = Mutant::new(cfg, bug);
            let r = run_bar_random(&mut mu, &cfg, s, cycles);
            if let Err(v) = r {
                assert!(
                    mu.fired,
                    "{bug:?}: violation {v} although the mutant never fired"
                );
                let mut good = BarUnitModel::new(cfg);
                if let Err(g) = run_bar_random(&mut good, &cfg, s, cycles) {
                    panic!(
                        "{bug:?}: the real model fails the same run ({cfg:?}, run seed {s}): {g}"
                    );
                }
                assert_eq!(
                    v.property, property,
                    "{bug:?} caught as {} instead of {property}: {v} ({cfg:?}, run seed {s}; replay SEED={seed})",
                    v.property
                );
                println!(
                    "{bug:?} caught as {}: {v} ({cfg:?}, run seed {s})",
                    v.property
                );
                return;
            }
        }
    }
    panic!(
        "{bug:?} never caught (seeds {first}..{}, {cycles} cycles)",
        first + 60
    );
}

#[test]
fn mutant_release_early_is_b1() {
    assert_caught(Bug::ReleaseEarly, "B1");
}
#[test]
fn mutant_release_late_is_b7() {
    assert_caught(Bug::ReleaseLate, "B7");
}
#[test]
fn mutant_forget_waiter_is_b1() {
    assert_caught(Bug::ForgetWaiter, "B1");
}
#[test]
fn mutant_count_twice_is_b1() {
    assert_caught(Bug::CountTwice, "B1");
}
#[test]
fn mutant_popc_off_by_one_is_b3() {
    assert_caught(Bug::PopcOffByOne, "B3");
}
#[test]
fn mutant_blocked_arrives_again_is_b2() {
    assert_caught(Bug::BlockedArrivesAgain, "B2");
}
#[test]
fn mutant_bad_count_no_err_is_b6() {
    assert_caught(Bug::BadCountNoErr, "B6");
}
#[test]
fn mutant_cross_talk_is_b4() {
    assert_caught(Bug::CrossTalk, "B4");
}
#[test]
fn mutant_exit_not_counted_is_b5() {
    assert_caught(Bug::ExitNotCounted, "B5");
}
#[test]
fn mutant_stall_on_release_is_b4() {
    assert_caught(Bug::StallOnRelease, "B4");
}
#[test]
fn mutant_kind_mix_no_err_is_b3() {
    assert_caught(Bug::KindMixNoErr, "B3");
}
#[test]
fn mutant_taken_after_own_blocking_request_is_b2() {
    assert_caught(Bug::TakenAfterOwnBlockingRequest, "B2");
}
#[test]
fn mutant_taken_after_ctl_is_b4() {
    assert_caught(Bug::TakenAfterCtl, "B4");
}
#[test]
fn mutant_exit_release_early_is_b1() {
    assert_caught(Bug::ExitReleaseEarly, "B1");
}
#[test]
fn mutant_err_in_taken_cycle_is_b6() {
    assert_caught(Bug::ErrInTakenCycle, "B6");
}

// ---------------------------------------------------------------------------
// Cluster barrier mutants
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum CBug {
    /// Completes when all but one rank arrived.
    DoneEarly,
    /// done_phase reports the new phase instead of the completed one.
    WrongParity,
    /// A second arrival of a rank in one phase is ignored without err.
    DoubleArrivalNoErr,
    /// done comes one cycle late.
    DoneLate,
    /// A gone rank is not counted as arrived (exit semantics lost).
    GoneIgnored,
}

struct CMutant {
    m: ClusterBarrierModel,
    bug: CBug,
    fired: bool,
    held: bool,
    held_phase: bool,
}

impl Dut<ClusterBarrierPorts> for CMutant {
    fn name(&self) -> &str {
        "mutant"
    }
    fn step(&mut self, i: &ClusterInputs) -> ClusterOutputs {
        let all = self.m.cfg.rank_mask();
        match self.bug {
            CBug::DoneEarly => {
                let s = self.m.state;
                let got = s.arrived | (i.arv & !s.arrived & !i.gone) | i.gone;
                let mut j = *i;
                if !i.reset
                    && self.m.cfg.ranks >= 2
                    && (got & all).count_ones() == self.m.cfg.ranks - 1
                    && s.arrived | i.arv != 0
                {
                    j.arv |= all & !got;
                    self.fired = true;
                }
                let mut o = self.m.step(&j);
                o.err = i.arv & (s.arrived | i.gone) & all != 0;
                o.err_rank = i.arv & (s.arrived | i.gone) & all;
                o
            }
            CBug::WrongParity => {
                let mut o = self.m.step(i);
                if o.done {
                    o.done_phase = !o.done_phase;
                    self.fired = true;
                }
                o
            }
            CBug::DoubleArrivalNoErr => {
                let mut o = self.m.step(i);
                if o.err {
                    o.err = false;
                    o.err_rank = 0;
                    self.fired = true;
                }
                o
            }
            CBug::GoneIgnored => {
                let mut j = *i;
                if i.gone != 0 {
                    j.gone = 0;
                    j.arv &= !i.gone;
                    self.fired = true;
                }
                let mut o = self.m.step(&j);
                let bad = i.arv & i.gone & all;
                o.err |= bad != 0;
                o.err_rank |= bad;
                o
            }
            CBug::DoneLate => {
                let mut o = self.m.step(i);
                let (d, p) = (o.done, o.done_phase);
                o.done = self.held;
                o.done_phase = self.held && self.held_phase;
                self.held = d && !i.reset;
                self.held_phase = p;
                if d {
                    self.fired = true;
                }
                o
            }
        }
    }
}

fn assert_cluster_caught(bug: CBug, property: &str) {
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(3000);
    for seed in first..first + 40 {
        for n in CLUSTER_SIZES {
            let cfg = ClusterConfig { ranks: n };
            let s = seed * 100 + n as u64;
            let mut mu = CMutant {
                m: ClusterBarrierModel::new(cfg),
                bug,
                fired: false,
                held: false,
                held_phase: false,
            };
            if let Err(v) = run_cluster_random(&mut mu, &cfg, s, cycles) {
                assert!(mu.fired, "{bug:?}: {v} but the mutant never fired");
                let mut good = ClusterBarrierModel::new(cfg);
                assert!(
                    run_cluster_random(&mut good, &cfg, s, cycles).is_ok(),
                    "{bug:?}: real model fails too"
                );
                assert_eq!(
                    v.property, property,
                    "{bug:?} caught as {} ({v}); replay SEED={seed}",
                    v.property
                );
                println!(
                    "{bug:?} caught as {}: {v} (ranks {n}, run seed {s})",
                    v.property
                );
                return;
            }
        }
    }
    panic!("{bug:?} never caught");
}

#[test]
fn cluster_mutant_done_early_is_c1() {
    assert_cluster_caught(CBug::DoneEarly, "C1");
}
#[test]
fn cluster_mutant_wrong_parity_is_c2() {
    assert_cluster_caught(CBug::WrongParity, "C2");
}
#[test]
fn cluster_mutant_double_arrival_no_err_is_c3() {
    assert_cluster_caught(CBug::DoubleArrivalNoErr, "C3");
}
#[test]
fn cluster_mutant_done_late_is_c4() {
    assert_cluster_caught(CBug::DoneLate, "C4");
}
#[test]
fn cluster_mutant_gone_ignored_is_c4() {
    assert_cluster_caught(CBug::GoneIgnored, "C4");
}

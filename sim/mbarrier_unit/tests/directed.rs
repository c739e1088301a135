//! Directed tests of both golden models: each operation, each error cause,
//! the port arbitration (op + complete-tx presented together, two
//! completions of one entry in consecutive steps), try_wait suspension / wake / timeout at exactly L, the wake
//! fan-out bound, and the async-group tracker's commit / wait / .read /
//! overflow / spurious-report behaviour. Every cycle also runs through the
//! port-only scoreboards, so each directed trace is a scoreboard check too.

use mbarrier_unit_model::async_groups::AsyncGroupsModel;
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
use mbarrier_unit_model::ports::async_groups as ag;
use mbarrier_unit_model::ports::mbarrier::{cause, op, src, Inputs, Outputs};
use mbarrier_unit_model::scoreboard::{GroupScoreboard, MbarScoreboard};

struct H {
    m: MbarrierModel,
    sb: MbarScoreboard,
    c: u64,
}

fn opi(w: u8, code: u8, e: u8, count: u32, tx: u32, parity: bool) -> Inputs {
    Inputs {
        op_valid: true,
        op_warp: w,
        op_code: code,
        op_entry: e,
        op_count: count,
        op_tx: tx,
        op_parity: parity,
        ..Inputs::default()
    }
}

impl H {
    fn new(cfg: Config) -> H {
        H {
            m: MbarrierModel::new(&cfg),
            sb: MbarScoreboard::new(&cfg),
            c: 0,
        }
    }
    fn cycle(&mut self, i: Inputs) -> Outputs {
        let o = self.m.step(&i);
        if let Err(v) = self.sb.check(self.c, &i, &o) {
            panic!("scoreboard on a directed trace: {v}");
        }
        self.c += 1;
        o
    }
    fn idle(&mut self) -> Outputs {
        self.cycle(Inputs::default())
    }
    /// Present an op (alone: accepted at once), return the outputs two
    /// cycles later (its response: accepted, stepped, answered).
    fn op(&mut self, w: u8, code: u8, e: u8, count: u32, tx: u32, parity: bool) -> Outputs {
        let o = self.cycle(opi(w, code, e, count, tx, parity));
        assert!(o.op_ready, "op_ready low for a lone op");
        let o = self.idle();
        assert!(!o.rsp_valid, "a response one cycle after acceptance");
        self.idle()
    }
    fn init(&mut self, e: u8, n: u32) {
        let r = self.op(0, op::INIT, e, n, 0, false);
        assert!(r.rsp_valid && !r.err, "init: {r:?}");
    }
    fn arrive(&mut self, w: u8, e: u8, n: u32) -> bool {
        let r = self.op(w, op::ARRIVE, e, n, 0, false);
        assert!(
            r.rsp_valid && !r.err && r.rsp_op == op::ARRIVE,
            "arrive: {r:?}"
        );
        r.rsp_token
    }
    fn test(&mut self, e: u8, p: bool) -> bool {
        let r = self.op(3, op::TEST_WAIT, e, 0, 0, p);
        assert!(r.rsp_valid && !r.err, "test_wait: {r:?}");
        r.rsp_done
    }
    fn ctx(&mut self, e: u8, bytes: u32) -> Outputs {
        let o = self.cycle(Inputs {
            ctx_valid: true,
            ctx_entry: e,
            ctx_bytes: bytes,
            ..Inputs::default()
        });
        assert!(o.ctx_ready, "ctx_ready low for a lone report");
        self.idle();
        self.idle()
    }
    /// Expect an error response for this op; the model's state must not change.
    fn bad_op(&mut self, w: u8, code: u8, e: u8, count: u32, tx: u32, want: u8) {
        let before = self.m.state;
        let r = self.op(w, code, e, count, tx, false);
        assert!(r.rsp_valid && r.err, "op {code} should err: {r:?}");
        assert_eq!(
            (r.err_src, r.err_cause),
            (src::OP, want),
            "cause of op {code}"
        );
        assert!(!r.rsp_done && !r.rsp_token && !r.rsp_suspended);
        // Time passes (suspend timers count), nothing else may change.
        let mut after = self.m.state;
        let mut b = before;
        for w in b.waiters.iter_mut().chain(after.waiters.iter_mut()) {
            w.timer = 0;
        }
        assert_eq!(after.entries, b.entries, "an erroring op changed an entry");
        assert_eq!(after.waiters, b.waiters, "an erroring op changed a waiter");
    }
}

fn cfg() -> Config {
    Config {
        warps: 8,
        entries: 8,
        count_bits: 4,
        tx_bits: 10,
        try_wait_limit: 6,
        wake_fanout: 1,
        group_depth: 2,
        group_op_bits: 2,
    }
}

#[test]
fn init_arrive_phase_completion_and_parity() {
    let mut h = H::new(cfg());
    h.init(1, 2);
    assert!(!h.arrive(0, 1, 1), "first phase has parity 0");
    assert!(!h.test(1, false), "one arrival missing");
    assert!(!h.arrive(1, 1, 1), "the arrival counts in phase 0");
    assert!(h.test(1, false), "phase 0 completed");
    assert!(!h.test(1, true), "phase 1 not yet");
    assert!(
        h.arrive(2, 1, 2),
        "phase 1 has parity 1; count 2 completes it"
    );
    assert!(h.test(1, true) && !h.test(1, false), "back to parity 0");
}

#[test]
fn inval_then_reinit() {
    let mut h = H::new(cfg());
    h.init(4, 1);
    let r = h.op(0, op::INVAL, 4, 0, 0, false);
    assert!(r.rsp_valid && !r.err);
    h.bad_op(0, op::ARRIVE, 4, 1, 0, cause::UNINIT);
    h.init(4, 2);
    assert!(!h.arrive(0, 4, 1), "re-initialised at parity 0");
    h.init(4, 1);
    assert!(
        !h.test(4, false),
        "init of a valid entry without waiters restarts it"
    );
}

#[test]
fn arrive_expect_tx_waits_for_the_bytes() {
    let mut h = H::new(cfg());
    h.init(0, 1);
    let r = h.op(0, op::ARRIVE_EXPECT_TX, 0, 1, 100, false);
    assert!(!r.err && !r.rsp_token);
    assert!(!h.test(0, false), "arrivals done, 100 bytes owed");
    h.ctx(0, 60);
    assert!(!h.test(0, false), "40 bytes owed");
    let r = h.op(1, op::COMPLETE_TX, 0, 0, 40, false);
    assert!(!r.err);
    assert!(h.test(0, false), "explicit complete_tx paid the rest");
}

#[test]
fn bytes_before_expect_make_tx_negative() {
    let mut h = H::new(cfg());
    h.init(2, 1);
    h.ctx(2, 50);
    h.arrive(0, 2, 1);
    assert!(!h.test(2, false), "tx-count -50: incomplete");
    let r = h.op(0, op::EXPECT_TX, 2, 0, 50, false);
    assert!(!r.err);
    assert!(h.test(2, false), "expect_tx brought it to 0: complete");
}

#[test]
fn arrive_drop_lowers_later_phases() {
    let mut h = H::new(cfg());
    h.init(3, 3);
    let r = h.op(0, op::ARRIVE_DROP, 3, 1, 0, false);
    assert!(!r.err);
    h.arrive(1, 3, 2);
    assert!(h.test(3, false));
    // Expected is now 2: two arrivals complete phase 1.
    h.arrive(1, 3, 1);
    assert!(!h.test(3, true));
    h.arrive(2, 3, 1);
    assert!(h.test(3, true));
}

#[test]
fn try_wait_suspends_and_is_woken_by_completion() {
    let mut h = H::new(cfg());
    h.init(0, 1);
    let r = h.op(5, op::TRY_WAIT, 0, 0, 0, false);
    assert!(r.rsp_suspended && !r.rsp_done);
    assert_eq!(r.suspended, 1 << 5);
    // Arrive: accepted, then stepped (the phase completes and the waiter's
    // decision is registered), then the arbiter grants: the wake is visible
    // three cycles after acceptance.
    let o = h.cycle(opi(0, op::ARRIVE, 0, 1, 0, false));
    assert!(o.op_ready);
    h.idle();
    assert_eq!(
        h.m.last_events.completions.len(),
        1,
        "completes in its step cycle"
    );
    let o = h.idle();
    assert_eq!(o.wake_mask, 0, "decided, not yet granted");
    let o = h.idle();
    assert_eq!((o.wake_mask, o.wake_done), (1 << 5, 1 << 5));
    assert_eq!(o.suspended, 0);
    let r = h.op(5, op::TRY_WAIT, 0, 0, 0, false);
    assert!(
        r.rsp_done && !r.rsp_suspended,
        "already complete: answered at once"
    );
}

#[test]
fn try_wait_times_out_after_exactly_the_limit() {
    let c = cfg();
    let mut h = H::new(c);
    h.init(0, 2);
    h.cycle(opi(4, op::TRY_WAIT, 0, 0, 0, false)); // accepted in cycle s - 1
    let mut woke = None;
    for k in 1..=20u64 {
        let o = h.idle(); // cycle s + k
        if o.wake_mask != 0 {
            assert_eq!(o.wake_mask, 1 << 4);
            assert_eq!(o.wake_done, 0, "timed out: answer false");
            woke = Some(k);
            break;
        }
    }
    assert_eq!(
        woke,
        Some(c.try_wait_limit as u64 + 3),
        "stepped (suspended) in cycle s, decided at s + L, granted at s + L + 1, woken (visible) at s + L + 2"
    );
}

/// Present `i`'s requests (op, ctx, rarv) until each is taken, then idle
/// until every one is stepped and answered; returns the completions seen
/// and every cycle's outputs.
fn present_until_taken(h: &mut H, i: Inputs) -> (usize, Vec<Outputs>) {
    let mut left = [i.op_valid, i.ctx_valid, i.rarv_valid];
    let mut completions = 0;
    let mut outs = Vec::new();
    for _ in 0..8 {
        let mut x = i;
        x.op_valid = left[0];
        x.ctx_valid = left[1];
        x.rarv_valid = left[2];
        let o = h.cycle(x);
        completions += h.m.last_events.completions.len();
        assert!(
            !left.iter().any(|&v| v) || o.op_ready || o.ctx_ready || o.rarv_ready,
            "requests presented and none taken"
        );
        left[0] &= !o.op_ready;
        left[1] &= !o.ctx_ready;
        left[2] &= !o.rarv_ready;
        outs.push(o);
    }
    assert_eq!(left, [false; 3], "every request taken within 3 cycles");
    (completions, outs)
}

#[test]
fn op_and_complete_tx_on_one_entry_in_one_cycle_lose_nothing() {
    for first in [false, true] {
        let mut h = H::new(cfg());
        h.init(1, 1);
        h.op(0, op::EXPECT_TX, 1, 0, 8, false);
        if first {
            // Move the port pointer past the op port: the complete-tx goes first.
            present_until_taken(&mut h, opi(2, op::TEST_WAIT, 1, 0, 0, false));
        }
        // The copy engine's last bytes and the last arrival presented in one
        // cycle: one is taken, the other the next cycle; stepped back to back.
        let mut i = opi(0, op::ARRIVE, 1, 1, 0, false);
        i.ctx_valid = true;
        i.ctx_entry = 1;
        i.ctx_bytes = 8;
        assert_eq!(present_until_taken(&mut h, i).0, 1, "one completion");
        assert!(h.test(1, false));
    }
}

#[test]
fn two_completions_of_one_entry_back_to_back() {
    let mut h = H::new(cfg());
    h.init(1, 1);
    h.op(0, op::ARRIVE_EXPECT_TX, 1, 1, 8, false);
    // ctx completes phase 0; the arrive, stepped next (seeing phase 1),
    // completes phase 1.
    let o = h.cycle(Inputs {
        ctx_valid: true,
        ctx_entry: 1,
        ctx_bytes: 8,
        ..Inputs::default()
    });
    assert!(o.ctx_ready);
    let o = h.cycle(opi(1, op::ARRIVE, 1, 1, 0, false));
    assert!(o.op_ready);
    assert_eq!(h.m.last_events.completions.len(), 1, "ctx's step");
    h.idle();
    assert_eq!(h.m.last_events.completions.len(), 1, "the arrive's step");
    let r = h.idle();
    assert!(r.rsp_valid && r.rsp_token, "the arrive counted in phase 1");
    assert!(
        h.test(1, true) && !h.test(1, false),
        "parity back to 0: phase 1 completed, phase 2 (parity 0) current"
    );
}

#[test]
fn remote_arrive_completes_a_phase() {
    let mut h = H::new(cfg());
    h.init(6, 2);
    h.arrive(0, 6, 1);
    h.cycle(Inputs {
        rarv_valid: true,
        rarv_entry: 6,
        rarv_count: 1,
        ..Inputs::default()
    });
    let o = h.idle();
    assert!(!o.err);
    assert!(h.test(6, false));
}

#[test]
fn wakes_fan_out_one_per_cycle_within_the_bound() {
    let c = Config {
        try_wait_limit: 100,
        ..cfg()
    };
    let mut h = H::new(c);
    h.init(0, 1);
    for w in 1..=5u8 {
        h.op(w, op::TRY_WAIT, 0, 0, 0, false);
    }
    h.cycle(opi(0, op::ARRIVE, 0, 1, 0, false)); // accepted; stepped at k = 1
    let mut woken = 0u64;
    for k in 1..=c.wake_bound() + 2 {
        let o = h.idle();
        assert!(o.wake_mask.count_ones() <= 1, "F = 1");
        assert_eq!(o.wake_done, o.wake_mask);
        woken |= o.wake_mask;
        if woken == 0b111110 {
            assert!(
                k <= 7,
                "the first at k = 3 (decided at 1, granted at 2), one a cycle"
            );
            break;
        }
    }
    assert_eq!(
        woken,
        0b111110,
        "every waiter woken within B + 1 = {} cycles of the decision",
        c.wake_bound() + 1
    );
}

#[test]
fn every_error_cause_pulses_err_and_changes_nothing() {
    // A long limit: the suspended warp must not time out during the checks.
    let c = Config {
        try_wait_limit: 1000,
        ..cfg()
    };
    let max = c.max_count();
    let maxtx = c.max_tx() as u32;
    let mut h = H::new(c);
    h.bad_op(0, 9, 0, 1, 0, cause::RESERVED_OP);
    h.bad_op(0, 15, 0, 1, 0, cause::RESERVED_OP);
    h.bad_op(0, op::ARRIVE, 0, 1, 0, cause::UNINIT);
    h.bad_op(0, op::TEST_WAIT, 0, 0, 0, cause::UNINIT);
    h.bad_op(0, op::INVAL, 0, 0, 0, cause::UNINIT);
    h.bad_op(0, op::INIT, 0, 0, 0, cause::BAD_COUNT);
    h.bad_op(0, op::INIT, 0, max + 1, 0, cause::BAD_COUNT);
    h.init(0, 2);
    h.bad_op(0, op::ARRIVE, 0, 0, 0, cause::BAD_COUNT);
    h.bad_op(0, op::ARRIVE, 0, 3, 0, cause::UNDERFLOW);
    h.bad_op(0, op::ARRIVE_DROP, 0, 2, 0, cause::UNDERFLOW);
    h.bad_op(0, op::EXPECT_TX, 0, 0, maxtx + 1, cause::TX_RANGE);
    h.op(0, op::EXPECT_TX, 0, 0, maxtx, false);
    h.bad_op(0, op::ARRIVE_EXPECT_TX, 0, 1, 1, cause::TX_RANGE);
    h.bad_op(0, op::COMPLETE_TX, 0, 0, 2 * maxtx + 1, cause::TX_RANGE);
    // A suspended warp and waiters on the entry.
    let r = h.op(2, op::TRY_WAIT, 0, 0, 0, false);
    assert!(r.rsp_suspended);
    h.bad_op(2, op::ARRIVE, 0, 1, 0, cause::WARP_SUSPENDED);
    h.bad_op(1, op::INIT, 0, 1, 0, cause::WAITERS);
    h.bad_op(1, op::INVAL, 0, 0, 0, cause::WAITERS);
    // The ports of the copy engine and the cluster.
    h.cycle(Inputs {
        ctx_valid: true,
        ctx_entry: 5,
        ctx_bytes: 1,
        ..Inputs::default()
    });
    h.idle();
    let o = h.idle();
    assert_eq!(
        (o.err, o.err_src, o.err_cause),
        (true, src::CTX, cause::UNINIT)
    );
    h.cycle(Inputs {
        rarv_valid: true,
        rarv_entry: 0,
        rarv_count: 3,
        ..Inputs::default()
    });
    h.idle();
    let o = h.idle();
    assert_eq!(
        (o.err, o.err_src, o.err_cause),
        (true, src::RARV, cause::UNDERFLOW)
    );
    // Two bad requests presented together: each is stepped in its own
    // cycle and reported two cycles after its acceptance, from its port.
    let mut i = opi(0, 9, 0, 1, 0, false);
    i.ctx_valid = true;
    i.ctx_entry = 5;
    let (_, outs) = present_until_taken(&mut h, i);
    let mut seen: Vec<_> = outs
        .iter()
        .filter(|o| o.err)
        .map(|o| (o.err_src, o.err_cause))
        .collect();
    seen.sort();
    assert_eq!(
        seen,
        vec![(src::OP, cause::RESERVED_OP), (src::CTX, cause::UNINIT)]
    );
    // A good op never pulses err.
    let r = h.op(1, op::TEST_WAIT, 0, 0, 0, false);
    assert!(!r.err);
}

/// An over-range byte operand (above 2^tx_bits − 1; the port has one bit
/// more so that it is visible) is refused even where the resulting tx-count
/// would be in range — the contract's "visible at the port and refused".
/// An outside judge's trace: `complete_tx 10`, then `expect_tx 2^tx_bits + 1`.
#[test]
fn an_over_range_byte_operand_is_refused_whatever_the_tx_count() {
    let c = Config {
        count_bits: 20,
        tx_bits: 20,
        ..cfg()
    };
    let maxtx = c.max_tx() as u32;
    assert_eq!(maxtx, (1 << 20) - 1);
    let mut h = H::new(c);
    h.init(0, 1);
    let r = h.op(0, op::COMPLETE_TX, 0, 0, 10, false);
    assert!(!r.err, "complete_tx 10: {r:?}");
    // tx = -10: -10 + 2^20 + 1 is in range, the operand is not.
    h.bad_op(0, op::EXPECT_TX, 0, 0, maxtx + 2, cause::TX_RANGE);
    h.bad_op(0, op::ARRIVE_EXPECT_TX, 0, 1, maxtx + 2, cause::TX_RANGE);
    // The phase is still incomplete: 10 bytes early, one arrival pending.
    assert!(!h.test(0, false), "refused operands completed the phase");
    // And on complete_tx and the copy engine's port.
    h.op(0, op::EXPECT_TX, 0, 0, maxtx, false);
    h.bad_op(0, op::COMPLETE_TX, 0, 0, maxtx + 1, cause::TX_RANGE);
    let before = h.m.state;
    let o = h.ctx(0, maxtx + 1);
    assert_eq!(
        (o.err, o.err_src, o.err_cause),
        (true, src::CTX, cause::TX_RANGE)
    );
    assert_eq!(
        h.m.state.entries, before.entries,
        "a refused ctx changed the entry"
    );
    // In-range operands finish the phase: tx = maxtx - 10 left, one arrival.
    let r = h.op(0, op::COMPLETE_TX, 0, 0, maxtx - 10, false);
    assert!(!r.err, "{r:?}");
    assert!(!h.arrive(0, 0, 1));
    assert!(h.test(0, false), "the phase should complete");
}

/// Every shipped-range configuration (count_bits = 20) takes PTX's largest
/// `mbarrier.init` count, 2^20 − 1, and refuses 2^20.
#[test]
fn ptx_largest_init_count_is_accepted_at_ptx_range() {
    let c = Config {
        count_bits: 20,
        tx_bits: 20,
        ..cfg()
    };
    let mut h = H::new(c);
    h.init(0, (1 << 20) - 1);
    h.bad_op(0, op::INIT, 1, 1 << 20, 0, cause::BAD_COUNT);
}

#[test]
fn reset_clears_entries_and_waiters() {
    let mut h = H::new(cfg());
    h.init(0, 1);
    h.op(1, op::TRY_WAIT, 0, 0, 0, true);
    h.op(2, op::TRY_WAIT, 0, 0, 0, false);
    let o = h.cycle(Inputs {
        reset: true,
        ..Inputs::default()
    });
    assert_eq!(o, Outputs::default());
    let o = h.idle();
    assert_eq!(o.suspended, 0);
    h.bad_op(0, op::ARRIVE, 0, 1, 0, cause::UNINIT);
}

// --- async groups -------------------------------------------------------------

struct G {
    m: AsyncGroupsModel,
    sb: GroupScoreboard,
    c: u64,
}

impl G {
    fn new(cfg: Config) -> G {
        G {
            m: AsyncGroupsModel::new(&cfg),
            sb: GroupScoreboard::new(&cfg),
            c: 0,
        }
    }
    fn cycle(&mut self, i: ag::Inputs) -> ag::Outputs {
        let o = self.m.step(&i);
        if let Err(v) = self.sb.check(self.c, &i, &o) {
            panic!("scoreboard on a directed trace: {v}");
        }
        self.c += 1;
        o
    }
    fn issue(&mut self, w: u8, o: u8, n: u8) -> bool {
        self.cycle(ag::Inputs {
            ag_valid: true,
            ag_warp: w,
            ag_op: o,
            ag_n: n,
            ..ag::Inputs::default()
        })
        .ag_ready
    }
    fn rd(&mut self, w: u8) -> ag::Outputs {
        self.cycle(ag::Inputs {
            rd_valid: true,
            rd_warp: w,
            ..ag::Inputs::default()
        })
    }
    fn wr(&mut self, w: u8) -> ag::Outputs {
        self.cycle(ag::Inputs {
            wr_valid: true,
            wr_warp: w,
            ..ag::Inputs::default()
        })
    }
    fn idle(&mut self) -> ag::Outputs {
        self.cycle(ag::Inputs::default())
    }
}

#[test]
fn wait_group_blocks_until_groups_retire_and_read_releases_earlier() {
    let c = Config {
        group_depth: 4,
        group_op_bits: 3,
        ..cfg()
    };
    let mut g = G::new(c);
    for _ in 0..2 {
        assert!(g.issue(1, ag::op::BULK, 0));
        assert!(g.issue(1, ag::op::COMMIT, 0));
    }
    assert!(g.issue(1, ag::op::WAIT_READ, 1));
    let o = g.idle();
    assert_eq!(
        (o.blocked, o.release_mask),
        (1 << 1, 0),
        "2 groups unread > 1"
    );
    g.rd(1);
    let o = g.idle();
    assert_eq!(o.release_mask, 1 << 1, "first group read: .read 1 returns");
    assert!(g.issue(1, ag::op::WAIT, 0));
    g.rd(1);
    g.wr(1);
    let o = g.idle();
    assert_eq!(o.release_mask, 0, "one group still pending");
    g.wr(1);
    let o = g.idle();
    assert_eq!(o.release_mask, 1 << 1, "all retired");
}

#[test]
fn an_empty_group_behind_a_pending_one_does_not_retire_early() {
    let c = Config {
        group_depth: 4,
        group_op_bits: 3,
        ..cfg()
    };
    let mut g = G::new(c);
    g.issue(2, ag::op::BULK, 0);
    g.issue(2, ag::op::COMMIT, 0);
    g.issue(2, ag::op::COMMIT, 0); // empty group
    g.issue(2, ag::op::WAIT, 1);
    for _ in 0..3 {
        assert_eq!(g.idle().release_mask, 0, "two groups pending (in order)");
    }
    g.rd(2);
    g.wr(2);
    assert_eq!(g.idle().release_mask, 1 << 2, "both retire together");
}

#[test]
fn overflow_is_refused_not_wrapped_and_warps_are_independent() {
    let c = Config {
        group_depth: 1,
        group_op_bits: 1,
        ..cfg()
    };
    let mut g = G::new(c);
    assert!(g.issue(0, ag::op::BULK, 0));
    assert!(!g.issue(0, ag::op::BULK, 0), "open group full (1 op)");
    assert!(g.issue(3, ag::op::BULK, 0), "another warp is independent");
    assert!(g.issue(0, ag::op::COMMIT, 0));
    assert!(!g.issue(0, ag::op::COMMIT, 0), "G = 1 group pending");
    g.rd(0);
    g.wr(0);
    assert!(g.issue(0, ag::op::COMMIT, 0), "room again after retirement");
    assert!(g.issue(0, ag::op::WAIT, 0));
    assert!(!g.issue(0, ag::op::BULK, 0), "blocked warp refused");
}

#[test]
fn spurious_reports_pulse_err_and_change_nothing() {
    let mut g = G::new(cfg());
    g.rd(4);
    let o = g.idle();
    assert_eq!((o.err, o.err_cause), (true, ag::cause::RD_SPURIOUS));
    g.issue(4, ag::op::BULK, 0);
    g.wr(4);
    let o = g.idle();
    assert_eq!(
        (o.err, o.err_cause),
        (true, ag::cause::WR_SPURIOUS),
        "complete before read"
    );
    let before = g.m.state;
    g.cycle(ag::Inputs {
        rd_valid: true,
        rd_warp: 5,
        wr_valid: true,
        wr_warp: 6,
        ..ag::Inputs::default()
    });
    let o = g.idle();
    assert_eq!(o.err_cause, ag::cause::RD_SPURIOUS | ag::cause::WR_SPURIOUS);
    assert_eq!(g.m.state.warps, before.warps);
}

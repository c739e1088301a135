//! Mutation proofs: deliberately broken kernels, written here as wrappers
//! around the golden ones (never inside them), must each be caught by the
//! port-only scoreboards as the property they break, on the same random
//! stimulus the golden models pass. Each mutant runs over the configuration
//! grid and seeds until the first violation; the test asserts it is caught
//! and names the property it was caught as.

mod common;
use common::*;
use mbarrier_unit_model::async_groups as agm;
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::mbarrier_unit::{eval_events, State, Waiter};
use mbarrier_unit_model::ports::async_groups as ag;
use mbarrier_unit_model::ports::mbarrier::{cause, op, src, Inputs, Outputs};
use mbarrier_unit_model::workload::MbarKnobs;

type MbarKernel = fn(&Config, &State, &Inputs) -> (Outputs, State);
type GroupKernel = fn(&Config, &agm::State, &ag::Inputs) -> (ag::Outputs, agm::State);

/// Completes a phase whose arrivals are done although its tx-count is not 0.
fn complete_with_tx(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, _) = eval_events(cfg, q, i);
    for e in d.entries.iter_mut().take(cfg.entries as usize) {
        if e.valid && e.pending == 0 && e.tx > 0 {
            e.parity = !e.parity;
            e.pending = e.expected;
            e.tx = 0;
        }
    }
    (o, d)
}

/// Completes a phase one arrival early.
fn complete_one_early(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, _) = eval_events(cfg, q, i);
    for e in d.entries.iter_mut().take(cfg.entries as usize) {
        if e.valid && e.pending == 1 && e.tx == 0 && e.expected > 1 {
            e.parity = !e.parity;
            e.pending = e.expected;
        }
    }
    (o, d)
}

/// Completes phases without flipping the parity.
fn no_parity_flip(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, ev) = eval_events(cfg, q, i);
    for &(e, _, _) in &ev.completions {
        d.entries[e as usize].parity = q.entries[e as usize].parity;
    }
    (o, d)
}

/// Read-modify-write hazard (no forwarding): when a complete-tx and then an
/// op are stepped back to back on one entry, the complete-tx's bytes are
/// lost (the op read the entry before the complete-tx wrote it).
fn lose_ctx_on_collision(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, _) = eval_events(cfg, q, i);
    let (a, b) = (q.req, d.req);
    if a.valid
        && b.valid
        && a.entry == b.entry
        && a.port == src::CTX
        && b.port == src::OP
        && !i.reset
    {
        d.entries[a.entry as usize] = q.entries[a.entry as usize];
    }
    (o, d)
}

/// Wakes warps waiting on another barrier whose phase of the same parity completes.
fn wake_wrong_barrier(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, ev) = eval_events(cfg, q, i);
    for w in 0..cfg.warps as usize {
        let wt = d.waiters[w];
        if wt.susp
            && !wt.decided
            && q.waiters[w].susp
            && ev
                .completions
                .iter()
                .any(|&(e, p, _)| e != wt.entry && p == wt.parity)
        {
            d.waiters[w].decided = true;
            d.waiters[w].done = true;
        }
    }
    (o, d)
}

/// Records the opposite parity at suspension (waits for the wrong phase).
fn suspend_wrong_parity(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, ev) = eval_events(cfg, q, i);
    if ev.suspended_now {
        let w = q.req.warp as usize;
        d.waiters[w].parity = !d.waiters[w].parity;
    }
    (o, d)
}

/// The suspend timer never advances.
fn never_time_out(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, _) = eval_events(cfg, q, i);
    for w in d.waiters.iter_mut() {
        w.timer = 0;
    }
    (o, d)
}

/// Times out at half the limit.
fn time_out_early(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let c2 = Config {
        try_wait_limit: (cfg.try_wait_limit / 2).max(1),
        ..*cfg
    };
    if c2.try_wait_limit == cfg.try_wait_limit {
        // limit 1: time out in the suspension cycle's successor is the floor;
        // time out immediately instead (suspend answers false at once).
        let (mut o, d, _) = eval_events(cfg, q, i);
        o.wake_done &= !0;
        return (o, d);
    }
    let (o, d, _) = eval_events(&c2, q, i);
    (o, d)
}

/// Wraps the tx-count instead of refusing an out-of-range expect.
fn wrap_tx(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, ev) = eval_events(cfg, q, i);
    let m = q.req;
    if ev.errors.contains(&(src::OP, cause::TX_RANGE))
        && (m.code == op::EXPECT_TX || m.code == op::ARRIVE_EXPECT_TX)
    {
        let e = &mut d.entries[m.entry as usize];
        let span = 2 * cfg.max_tx() + 1;
        let v = e.tx as i64 + m.tx as i64;
        e.tx = ((v + cfg.max_tx()).rem_euclid(span) - cfg.max_tx()) as i32;
        d.out.err = false;
        d.out.err_src = 0;
        d.out.err_cause = 0;
    }
    (o, d)
}

/// Checks only the resulting tx-count, not the byte operand: an
/// `expect_tx` above 2^tx_bits − 1 is taken when the tx-count it leaves is
/// in range (the bug an outside judge found).
fn accept_over_range_operand(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, ev) = eval_events(cfg, q, i);
    let m = q.req;
    let e = &mut d.entries[m.entry as usize];
    let v = e.tx as i64 + m.tx as i64;
    if ev.errors.contains(&(src::OP, cause::TX_RANGE))
        && m.code == op::EXPECT_TX
        && m.tx as i64 > cfg.max_tx()
        && v <= cfg.max_tx()
    {
        e.tx = v as i32;
        d.out.err = false;
        d.out.err_src = 0;
        d.out.err_cause = 0;
    }
    (o, d)
}

/// Returns the parity after the arrive (the next phase's) as the token.
fn token_after_arrive(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, _) = eval_events(cfg, q, i);
    let m = q.req;
    if m.valid && m.port == src::OP && d.out.rsp_valid && !d.out.err && op::is_arrive(m.code) {
        d.out.rsp_token = d.entries[m.entry as usize].parity;
    }
    (o, d)
}

/// Arrives on an uninitialised entry silently.
fn no_err_uninit(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, _) = eval_events(cfg, q, i);
    if d.out.err && d.out.err_cause == cause::UNINIT {
        d.out.err = false;
        d.out.err_src = 0;
        d.out.err_cause = 0;
    }
    (o, d)
}

/// Stalls the op port while the complete-tx port requests (a fixed
/// priority: the op starves while the copy engine reports).
fn stall_on_ctx(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let m = i.masked(cfg);
    if m.ctx_valid && m.op_valid && !m.reset {
        let mut i2 = *i;
        i2.op_valid = false;
        let (mut o, d, _) = eval_events(cfg, q, &i2);
        o.op_ready = false;
        return (o, d);
    }
    let (o, d, _) = eval_events(cfg, q, i);
    (o, d)
}

/// Wakes every decided warp at once, ignoring the fan-out F.
fn unbounded_fanout(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, mut d, _) = eval_events(cfg, q, i);
    for w in 0..cfg.warps as usize {
        if d.waiters[w].susp && d.waiters[w].decided {
            d.out.wake_mask |= 1 << w;
            if d.waiters[w].done {
                d.out.wake_done |= 1 << w;
            }
            d.waiters[w] = Waiter::default();
            d.out.suspended &= !(1 << w);
        }
    }
    (o, d)
}

// --- async-group mutants -----------------------------------------------------

/// Retires any completed committed group, not only the oldest (out of order).
fn retire_out_of_order(cfg: &Config, q: &agm::State, i: &ag::Inputs) -> (ag::Outputs, agm::State) {
    let (o, mut d, _) = agm::eval_events(cfg, q, i);
    let g = cfg.group_depth as usize;
    for ws in d.warps.iter_mut().take(cfg.warps as usize) {
        let mut keep = Vec::new();
        for k in 0..ws.n as usize {
            let s = (ws.head as usize + k) % g;
            if ws.wr[s] != 0 {
                keep.push((ws.rd[s], ws.wr[s]));
            }
        }
        ws.n = keep.len() as u8;
        for (k, &(r, w)) in keep.iter().enumerate() {
            let s = (ws.head as usize + k) % g;
            ws.rd[s] = r;
            ws.wr[s] = w;
        }
    }
    (o, d)
}

/// Accepts a bulk op into a full open group, wrapping the counter.
fn wrap_group_ops(cfg: &Config, q: &agm::State, i: &ag::Inputs) -> (ag::Outputs, agm::State) {
    let (mut o, mut d, ev) = agm::eval_events(cfg, q, i);
    if ev.bulk_refused_full {
        let m = i.masked(cfg);
        o.ag_ready = true;
        let ws = &mut d.warps[m.ag_warp as usize];
        ws.open_rd = 0;
        ws.open_wr = 0;
    }
    (o, d)
}

/// Treats `wait_group.read` as `wait_group` (waits for completion, too late).
fn read_as_full_wait(cfg: &Config, q: &agm::State, i: &ag::Inputs) -> (ag::Outputs, agm::State) {
    let mut q2 = *q;
    for ws in q2.warps.iter_mut() {
        ws.wait_read = false;
    }
    let (o, mut d, _) = agm::eval_events(cfg, &q2, i);
    for w in 0..cfg.warps as usize {
        if d.warps[w].blocked && q.warps[w].blocked {
            d.warps[w].wait_read = q.warps[w].wait_read;
        }
    }
    (o, d)
}

/// Accepts spurious completion reports silently.
fn no_err_spurious(cfg: &Config, q: &agm::State, i: &ag::Inputs) -> (ag::Outputs, agm::State) {
    let (o, mut d, _) = agm::eval_events(cfg, q, i);
    d.err = false;
    d.err_cause = 0;
    (o, d)
}

fn catch_mbar(name: &str, k: MbarKernel, expect: &str) {
    catch_mbar_with(name, k, expect, |_| {});
}

/// Focused stimulus: only test_wait, no remote arrives, no bad input, so a
/// wrong completion shows first as a wrong test_wait answer.
fn test_wait_only(k: &mut MbarKnobs) {
    k.p_try = 0.0;
    k.p_rarv = 0.0;
    k.p_bad = 0.0;
}

fn catch_mbar_with(name: &str, k: MbarKernel, expect: &str, tweak: fn(&mut MbarKnobs)) {
    catch_mbar_as(name, k, &[expect], tweak);
}

/// As [`catch_mbar_with`], where the broken property may show first as any of `expect`.
fn catch_mbar_as(name: &str, k: MbarKernel, expect: &[&str], tweak: fn(&mut MbarKnobs)) {
    let n = cycles(20_000);
    for (cname, cfg) in grid() {
        for seed in seeds(30) {
            let mut st = State::default();
            let (res, _) = mbar_run_with(&cfg, seed, n, tweak, |i| {
                let (o, d) = k(&cfg, &st, i);
                st = d;
                o
            });
            if let Err(v) = res {
                println!("mutant {name}: caught on config {cname} seed {seed}: {v}");
                assert!(
                    expect.contains(&v.property),
                    "mutant {name} caught as {} not {expect:?}: {v}\nreplay: {}",
                    v.property,
                    replay("mutants", seed, n)
                );
                return;
            }
        }
    }
    panic!("mutant {name} was never caught");
}

fn catch_group(name: &str, k: GroupKernel, expect: &str) {
    let n = cycles(20_000);
    for (cname, cfg) in grid() {
        for seed in seeds(30) {
            let mut st = agm::State::default();
            let (res, _) = group_run(&cfg, seed, n, |i| {
                let (o, d) = k(&cfg, &st, i);
                st = d;
                o
            });
            if let Err(v) = res {
                println!("mutant {name}: caught on config {cname} seed {seed}: {v}");
                assert_eq!(
                    v.property,
                    expect,
                    "mutant {name} caught as {} not {expect}: {v}\nreplay: {}",
                    v.property,
                    replay("mutants", seed, n)
                );
                return;
            }
        }
    }
    panic!("mutant {name} was never caught");
}

#[test]
fn m1_complete_one_arrival_early() {
    // The early completion shows first as a wrong test_wait answer (M1) or,
    // when an arrive is stepped before the next test_wait, as that arrive's
    // token naming the next phase (M5).
    catch_mbar_as(
        "complete_one_early",
        complete_one_early,
        &["M1", "M5"],
        test_wait_only,
    );
}
#[test]
fn m1_no_parity_flip() {
    catch_mbar_with("no_parity_flip", no_parity_flip, "M1", test_wait_only);
}
#[test]
fn m2_time_out_early() {
    catch_mbar("time_out_early", time_out_early, "M2");
}
#[test]
fn m2_wait_and_wake_on_the_wrong_parity() {
    // Shows as an answer "not done" for a completed phase (M2) or as that
    // phase's waiter not woken within the bound (M3), whichever comes first.
    catch_mbar_as(
        "suspend_wrong_parity",
        suspend_wrong_parity,
        &["M2", "M3"],
        |_| {},
    );
}
#[test]
fn m3_wake_wrong_barrier() {
    catch_mbar("wake_wrong_barrier", wake_wrong_barrier, "M3");
}
#[test]
fn m3_unbounded_fanout() {
    catch_mbar("unbounded_fanout", unbounded_fanout, "M3");
}
#[test]
fn m4_complete_with_tx_pending() {
    catch_mbar_with("complete_with_tx", complete_with_tx, "M4", test_wait_only);
}
#[test]
fn m5_token_of_next_phase() {
    catch_mbar("token_after_arrive", token_after_arrive, "M5");
}
#[test]
fn m6_wrap_tx_count() {
    catch_mbar("wrap_tx", wrap_tx, "M6");
}
#[test]
fn m6_accept_over_range_byte_operand() {
    catch_mbar("accept_over_range_operand", accept_over_range_operand, "M6");
}
#[test]
fn m6_no_err_on_uninit() {
    catch_mbar("no_err_uninit", no_err_uninit, "M6");
}
#[test]
fn m7_stall_op_port_on_complete_tx() {
    catch_mbar("stall_on_ctx", stall_on_ctx, "M7");
}
#[test]
fn m8_never_time_out() {
    catch_mbar("never_time_out", never_time_out, "M8");
}
#[test]
fn m8_lose_completion_on_collision() {
    catch_mbar("lose_ctx_on_collision", lose_ctx_on_collision, "M8");
}
#[test]
fn g1_retire_out_of_order() {
    catch_group("retire_out_of_order", retire_out_of_order, "G1");
}
#[test]
fn g2_read_wait_as_full_wait() {
    catch_group("read_as_full_wait", read_as_full_wait, "G2");
}
#[test]
fn g3_wrap_group_op_counter() {
    catch_group("wrap_group_ops", wrap_group_ops, "G3");
}
#[test]
fn g4_accept_spurious_reports() {
    catch_group("no_err_spurious", no_err_spurious, "G4");
}

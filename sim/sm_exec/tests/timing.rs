//! The SM timing preset's mechanisms, each against its absence: deferred
//! blocking (the clock read right after a waiter's `bar.sync` is not held),
//! the release sequencer's fan-out, the per-barrier arrival interval, the
//! `try_wait` early wake, the cache model (a cold `cp.async` group waits
//! for DRAM, a hot one does not), branches as `ptxas` leaves them (counted
//! loops unrolled, short blocks predicated, counter arithmetic folded),
//! the `test_wait` poll occupancy and poll timer, the arrival rates of
//! register and immediate counts, the 64-bit add's two steps and the
//! shared-memory bank conflicts (the last four against the H100 rows of
//! `data/calibration/h100_micro.csv`).

use sm_exec::sm_timing::SmTiming;
use sm_exec::sync_probes::{cells, Cell};

fn get(cs: &[Cell], sub: &str, cfg: &str, metric: &str) -> f64 {
    cs.iter()
        .find(|c| c.0 == sub && c.1 == cfg && c.2 == metric)
        .unwrap_or_else(|| panic!("no cell {sub} {cfg} {metric}"))
        .3
}

#[test]
fn each_mechanism_moves_its_cells() {
    let h100 = SmTiming::h100();
    let base = cells(&h100).unwrap();
    let g = get;
    // Deferred blocking: the waiter reads its clock 500+ cycles before the
    // last arrival, and its st.shared waits for the release.
    let wf = "waiter first; last arriver bar.sync; X = st.shared";
    assert!(
        g(
            &base,
            "1g",
            wf,
            "t1-tA (clock read right after waiter's bar.sync; vs last arrival)"
        ) < -400.0
    );
    assert!(g(&base, "1g", wf, "t2-tA (after X; vs last arrival)") > 0.0);
    // Fan-out: 31 waiters leave over more cycles than 1; without the
    // sequencer's interval they would all leave together.
    let fan = |cs: &[Cell], k: u32| {
        let cfg =
            format!("{k} waiter warps; last arriver bar.sync; waiters: bar.sync then st.shared");
        g(cs, "1h", &cfg, "last waiter out") - g(cs, "1h", &cfg, "first waiter out (t2-tA)")
    };
    assert!(fan(&base, 31) >= 25.0 && fan(&base, 1) == 0.0);
    let flat = cells(&SmTiming {
        fanout_eighths: 0,
        fanout_batch_gap: 0,
        ..h100.clone()
    })
    .unwrap();
    assert!(fan(&flat, 31) < fan(&base, 31));
    // 31 waiters leave in two batches: the second one fanout_batch_gap later.
    let one_batch = cells(&SmTiming {
        fanout_batch: 32,
        ..h100.clone()
    })
    .unwrap();
    assert!(
        fan(&base, 31) >= fan(&one_batch, 31) + 20.0,
        "two batches {}, one {}",
        fan(&base, 31),
        fan(&one_batch, 31)
    );
    // try_wait: without the early wake a suspended waiter leaves later.
    let late = cells(&SmTiming {
        try_wait_early_wake: false,
        ..h100.clone()
    })
    .unwrap();
    let pp = "full/empty count 1; consumer try_wait; producer delay 500";
    let rt = "rt(consumer release to release)";
    assert!(g(&late, "2d", pp, rt) > g(&base, "2d", pp, rt));
    // A young suspended try_wait is not woken before its first check: see
    // `a_partial_warps_poll_is_answered_on_the_poll_timer_try_wait_too` (the
    // delay-0 ping-pong's producer is one lane, answered on the poll timer).
    // Caches: a cold LDGSTS group waits for DRAM.
    let m = "wait_group N returns (from first issue)";
    let hot = g(
        &base,
        "4b",
        "cp.async.cg 16B; 4 groups x 4 KB; wait_group 3; hot src",
        m,
    );
    let cold = g(
        &base,
        "4b",
        "cp.async.cg 16B; 4 groups x 4 KB; wait_group 3; cold src",
        m,
    );
    assert!(cold > hot + 300.0, "cold {cold}, hot {hot}");
    // Every cell is the same run after run (no random draw under a preset).
    assert_eq!(cells(&h100).unwrap(), base);
}

/// `ptxas` unrolls a counted innermost loop with a constant start and folds
/// what the body computes from the counter alone (k5's ring slot
/// `(i + 2) % 3` and its shared address leave no SASS instruction): that
/// arithmetic costs nothing, while the same loop started from a register
/// or marked `nounroll` pays for it.
#[test]
fn unrolled_loop_arithmetic_is_folded() {
    let h100 = SmTiming::h100();
    // 8 iterations; `extra` is the body's arithmetic, `start` the
    // counter's first value, `pragma` a line before the loop's head.
    let lp = |start: &str, extra: &str, pragma: &str| {
        format!("    mov.u32 %r9, 0;\n    mov.u32 %r2, {start};\n    mov.u64 %rd1, %clock64;\n{pragma}L:\n{extra}    add.u32 %r2, %r2, 1;\n    setp.lt.u32 %p1, %r2, 8;\n    @%p1 bra L;\n    mov.u64 %rd2, %clock64;\n")
    };
    // As nvcc writes it: each value in its own register.
    let slot = "    add.u32 %r3, %r2, 2;\n    mul.hi.u32 %r4, %r3, -1431655765;\n    shr.u32 %r10, %r4, 1;\n    mul.lo.u32 %r5, %r10, 3;\n    sub.u32 %r6, %r3, %r5;\n    mul.lo.u32 %r7, %r6, 2048;\n    mov.u32 %r8, sval;\n    add.u32 %r11, %r8, %r7;\n";
    let bare = cycles_between_clocks(&lp("0", "", ""), &h100);
    let folded = cycles_between_clocks(&lp("0", slot, ""), &h100);
    assert_eq!(folded, bare, "the slot arithmetic is folded");
    // A start from a register: the trip count is unknown, nothing folds
    // (6 dependent steps of the slot arithmetic, 8 iterations).
    let open = cycles_between_clocks(&lp("%r9", slot, ""), &h100);
    assert!(
        open >= folded + 8 * 6 * h100.alu_latency,
        "register start {open}, constant start {folded}"
    );
    let kept = cycles_between_clocks(&lp("0", slot, ".pragma \"nounroll\";\n"), &h100);
    assert!(
        kept >= folded + 8 * 6 * h100.alu_latency,
        "nounroll {kept}, unrolled {folded}"
    );
    // A value computed from a register other than the counter does not fold.
    let mixed = "    add.u32 %r3, %r2, %r9;\n    mul.lo.u32 %r7, %r3, 2048;\n    mul.lo.u32 %r10, %r7, 3;\n";
    let m = cycles_between_clocks(&lp("0", mixed, ""), &h100);
    assert!(
        m >= bare + 8 * 2 * h100.alu_latency,
        "mixed {m}, bare {bare}"
    );
}

/// The project's own H100 micro-benchmark rows (`data/calibration/h100_micro.csv`).
fn h100_micro_csv() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/calibration/h100_micro.csv"
    ))
    .unwrap()
}

/// The last field of the row that starts with `key`.
fn last_field(csv: &str, key: &str) -> u64 {
    let l = csv.lines().find(|l| l.starts_with(key)).unwrap();
    l.rsplit(',').next().unwrap().trim().parse().unwrap()
}

/// The text of a program whose `warps` warps of one CTA all run entry `t`:
/// `decls` at module scope; 32 `%r`, 8 `%rd` and 8 `%p` registers; `body`.
fn one_entry_program(warps: usize, decls: &str, body: &str) -> String {
    let ws: String = (0..warps)
        .map(|w| format!("  - {{cta: 0, warp: {w}, program: t, lanes: 32}}\n"))
        .collect();
    format!("---\nctas: 1\nwarps:\n{ws}---\n.version 8.0\n.target sm_90\n{decls}\n.entry t\n{{\n    .reg .b32 %r<32>;\n    .reg .b64 %rd<8>;\n    .reg .pred %p<8>;\n{body}    ret;\n}}\n")
}

/// Warp `w`'s (of CTA 0) `%rd2 - %rd1`: its cycles between two clock reads.
fn clocks(r: &sm_exec::RunResult, w: u32) -> u64 {
    r.reg(0, w, "%rd2").unwrap() - r.reg(0, w, "%rd1").unwrap()
}

/// Runs `body` (one warp, the preset `t`) and returns `%rd2 - %rd1`.
fn cycles_between_clocks(body: &str, t: &SmTiming) -> u64 {
    let decls = ".shared .align 8 .b64 mb;\n.shared .align 16 .u32 sval[4];\n.global .align 16 .b8 gbuf[64];\n";
    clocks(
        &run_to_end("t.ptx", &one_entry_program(1, decls, body), t),
        0,
    )
}

/// Runs a program file's text under the preset `t` (at most 200 000
/// cycles); it must finish.
fn run_to_end(name: &str, src: &str, t: &SmTiming) -> sm_exec::RunResult {
    let o = sm_exec::RunOptions {
        max_cycles: 200_000,
        sm_timing: Some(t.clone()),
        ..sm_exec::RunOptions::default()
    };
    let r = sm_exec::run_source(name, src, o).unwrap();
    assert_eq!(r.outcome, sm_exec::Outcome::Finished);
    r
}

#[test]
fn branches_cost_what_ptxas_leaves_of_them() {
    let h100 = SmTiming::h100();
    let cheap = SmTiming {
        issue_branch: 1,
        ..h100.clone()
    };
    // 16 iterations; the bound an immediate (counted: unrolled, no branch
    // cost) or a register (a branch every iteration).
    let lp = |bound: &str| {
        format!("    mov.u32 %r9, 16;\n    mov.u32 %r2, 0;\n    mov.u64 %rd1, %clock64;\nL:\n    add.u32 %r2, %r2, 1;\n    setp.lt.u32 %p1, %r2, {bound};\n    @%p1 bra L;\n    mov.u64 %rd2, %clock64;\n")
    };
    let counted = cycles_between_clocks(&lp("16"), &h100);
    let open = cycles_between_clocks(&lp("%r9"), &h100);
    assert!(
        open >= counted + 15 * (h100.issue_branch - 1),
        "register bound {open}, immediate bound {counted}"
    );
    // With branches costing 1, what is left of the difference is the
    // counter's arithmetic, which the unrolled loop folds
    // (`unrolled_loop_arithmetic_is_folded`).
    let (open_cheap, counted_cheap) = (
        cycles_between_clocks(&lp("%r9"), &cheap),
        cycles_between_clocks(&lp("16"), &cheap),
    );
    assert!(
        open_cheap >= counted_cheap + 16 * 2 * h100.issue_alu,
        "register bound {open_cheap}, immediate bound {counted_cheap}"
    );
    // A forward branch over `n` instructions that every lane takes: up to 4
    // it is predicated (the warp issues the block with its guard false, and
    // the guarded-off load holds %r3 for the load pipe), from 5 it is a
    // branch.
    let skip = |n: usize| {
        let mut b = String::from("    mov.u32 %r1, sval;\n    mov.u32 %r5, 1;\n    setp.ne.u32 %p1, %r5, 0;\n    mov.u64 %rd1, %clock64;\n    @%p1 bra S;\n    ld.shared.u32 %r3, [%r1];\n    add.u32 %r4, %r3, 1;\n");
        for _ in 2..n {
            b += "    add.u32 %r4, %r4, 1;\n";
        }
        b + "S:\n    mov.u64 %rd2, %clock64;\n"
    };
    let predicated = cycles_between_clocks(&skip(3), &h100);
    let branched = cycles_between_clocks(&skip(6), &h100);
    assert!(
        predicated >= h100.shared_latency,
        "predicated block skipped in {predicated} cycles"
    );
    assert!(
        branched < predicated && branched >= h100.issue_branch,
        "branch over 6: {branched}, predicated block of 3: {predicated}"
    );
}

#[test]
fn divergent_lanes_pay_to_reconverge() {
    let h100 = SmTiming::h100();
    // A block of 6 (kept as a branch) entered by lane 0 only, or by every
    // lane; and a block of 2 (predicated) entered by lane 0 only.
    let block = |cond: &str, n: usize| {
        let mut b = format!("    mov.u32 %r1, %laneid;\n    mov.u32 %r4, 0;\n    setp.{cond};\n    mov.u64 %rd1, %clock64;\n    @%p1 bra S;\n");
        for _ in 0..n {
            b += "    add.u32 %r4, %r4, 1;\n";
        }
        b + "S:\n    add.u32 %r5, %r4, 1;\n    mov.u64 %rd2, %clock64;\n"
    };
    // `ne 0`: lanes 1..31 branch around the block; `eq 99`: no lane does.
    let (lane0, every) = ("ne.u32 %p1, %r1, 0", "eq.u32 %p1, %r1, 99");
    let divergent = cycles_between_clocks(&block(lane0, 6), &h100);
    let uniform = cycles_between_clocks(&block(every, 6), &h100);
    let free = SmTiming {
        reconverge: 0,
        ..h100.clone()
    };
    let divergent_free = cycles_between_clocks(&block(lane0, 6), &free);
    // The rejoin overlaps the last link of the add chain.
    assert!(
        divergent >= divergent_free + h100.reconverge - h100.alu_latency
            && divergent > uniform + h100.reconverge / 2,
        "lane 0 alone: {divergent} ({divergent_free} without the cost), every lane: {uniform}"
    );
    let predicated_div = cycles_between_clocks(&block(lane0, 2), &h100);
    let predicated_all = cycles_between_clocks(&block(every, 2), &h100);
    assert_eq!(
        predicated_div, predicated_all,
        "a predicated block does not diverge"
    );
}

#[test]
fn a_redux_chain_costs_its_own_latency() {
    let h100 = SmTiming::h100();
    let chain = |op: &str| {
        let mut b = String::from("    mov.u32 %r1, 1;\n    mov.u64 %rd1, %clock64;\n");
        for _ in 0..8 {
            b += &format!("    {op};\n");
        }
        b + "    mov.u32 %r2, %r1;\n    mov.u64 %rd2, %clock64;\n"
    };
    let redux = cycles_between_clocks(&chain("redux.sync.add.u32 %r1, %r1, 0xffffffff"), &h100);
    let shfl = cycles_between_clocks(&chain("shfl.sync.bfly.b32 %r1, %r1, 1, 31, -1"), &h100);
    assert!(redux >= 8 * h100.redux_latency, "8 redux: {redux}");
    assert!(
        shfl >= 8 * h100.warp_op_latency && shfl < redux,
        "8 shfl: {shfl}, 8 redux: {redux}"
    );
}

#[test]
fn test_wait_polls_share_the_sms_mbarrier_path() {
    let h100 = SmTiming::h100();
    let free = SmTiming {
        test_wait_occupancy: 0,
        ..h100.clone()
    };
    let cs = cells(&h100).unwrap();
    let cs_free = cells(&free).unwrap();
    let cfg = "31 waiter warps (all lanes test_wait spin); count-1 barrier; producer lane 0";
    let m = "last waiter out";
    let a = "producer arrive cost";
    // 31 spinning warps: one poll per 6 cycles spreads their exits further
    // and holds the producer's arrive behind polls.
    assert!(
        get(&cs, "2f", cfg, m) > get(&cs_free, "2f", cfg, m) + 10.0
            && get(&cs, "2f", cfg, a) > get(&cs_free, "2f", cfg, a),
        "occupancy 6: last out {}, arrive {}; none: {}, {}",
        get(&cs, "2f", cfg, m),
        get(&cs, "2f", cfg, a),
        get(&cs_free, "2f", cfg, m),
        get(&cs_free, "2f", cfg, a)
    );
    // try_wait waiters do not poll: their cells do not depend on it.
    let tw = "31 waiter warps (all lanes try_wait); count-1 barrier; producer lane 0";
    assert_eq!(get(&cs, "2f", tw, m), get(&cs_free, "2f", tw, m));
}

#[test]
fn hoisting_a_read_only_load_past_a_predicated_block_keeps_the_program() {
    // The block (skipped: %p1 true) must not write %r4; the `ld.global.nc`
    // after it moves above it under the preset, and may not take the
    // block's label or the block's guard with it.
    let src = "---\nctas: 1\nwarps:\n  - {cta: 0, warp: 0, program: t, lanes: 32}\n---\n.version 8.0\n.target sm_90\n.global .align 4 .u32 g = 7;\n.shared .align 4 .u32 sval;\n\n.entry t\n{\n    .reg .b32 %r<16>;\n    .reg .b64 %rd<8>;\n    .reg .pred %p<8>;\n    mov.u32 %r4, 5;\n    mov.u32 %r1, sval;\n    mov.u64 %rd3, g;\n    mov.u32 %r5, 1;\n    setp.ne.u32 %p1, %r5, 0;\n    bar.sync 0;\n    @%p1 bra S;\n    ld.shared.u32 %r3, [%r1];\n    add.u32 %r4, %r3, 100;\nS:\n    add.u32 %r6, %r4, 1;\n    bar.sync 0;\n    ld.global.nc.u32 %r7, [%rd3];\n    add.u32 %r8, %r7, %r6;\n    ret;\n}\n";
    for preset in [None, Some(SmTiming::h100())] {
        let o = sm_exec::RunOptions {
            sm_timing: preset.clone(),
            ..sm_exec::RunOptions::default()
        };
        let r = sm_exec::run_source("t.ptx", src, o).unwrap();
        assert_eq!(r.outcome, sm_exec::Outcome::Finished);
        assert_eq!(
            r.reg(0, 0, "%r4"),
            Some(5),
            "preset {:?}",
            preset.map(|t| t.name)
        );
        assert_eq!(r.reg(0, 0, "%r6"), Some(6));
        assert_eq!(r.reg(0, 0, "%r8"), Some(13));
    }
}

#[test]
fn a_quick_mbarrier_answer_passes_a_failing_test_waits() {
    // Warp 1 polls a phase that never completes (its poll is parked and
    // answered `test_wait_first_check` + `test_wait_answer` cycles later);
    // warp 0 arrives on another barrier a
    // few cycles after and waits for the arrive's state. Its answer is due
    // `mbarrier_latency` after the unit's and must not queue behind warp 1's.
    let h100 = SmTiming::h100();
    let src = "---\nctas: 1\nwarps:\n  - {cta: 0, warp: 0, program: a}\n  - {cta: 0, warp: 1, program: p}\n---\n.version 8.0\n.target sm_90\n.shared .align 8 .b64 m0;\n.shared .align 8 .b64 m1;\n\n.entry a\n{\n    .reg .b32 %r<4>;\n    .reg .b64 %rd<8>;\n    mbarrier.init.shared.b64 [m0], 4;\n    bar.sync 1, 64;\n    mov.u32 %r1, 0;\n    add.u32 %r1, %r1, 1;\n    add.u32 %r1, %r1, 1;\n    mov.u64 %rd1, %clock64;\n    mbarrier.arrive.shared.b64 %rd5, [m0];\n    add.u64 %rd6, %rd5, 1;\n    mov.u64 %rd2, %clock64;\n    ret;\n}\n\n.entry p\n{\n    .reg .pred %p<2>;\n    mbarrier.init.shared.b64 [m1], 1;\n    bar.sync 1, 64;\n    mbarrier.test_wait.parity.shared.b64 %p1, [m1], 0;\n    ret;\n}\n";
    let r = run_to_end("q.ptx", src, &h100);
    let wait = r.reg(0, 0, "%rd2").unwrap() - r.reg(0, 0, "%rd1").unwrap();
    assert!(
        wait >= h100.mbarrier_latency && wait < h100.test_wait_fail,
        "arrive's answer after {wait} cycles"
    );
}

/// Cycles per `bar.sync` of `warps` warps looping on barrier 1, the
/// thread count in a register (`reg_count`) or an immediate, warp 0's clock.
fn bar_period(warps: usize, reg_count: bool, t: &SmTiming) -> u64 {
    let count = if reg_count {
        "%r9".to_string()
    } else {
        (warps * 32).to_string()
    };
    const ITER: u64 = 64;
    // A register count is one `ptxas` cannot fold: loaded from the constant
    // bank, as a kernel parameter is (`Code::reg_count`).
    let body = format!(
        "    ld.const.u32 %r9, [count];\n    bar.sync 0;\n    mov.u64 %rd1, %clock64;\n    mov.u32 %r2, 0;\nL:\n    bar.sync 1, {count};\n    add.u32 %r2, %r2, 1;\n    setp.lt.u32 %p1, %r2, {ITER};\n    @%p1 bra L;\n    mov.u64 %rd2, %clock64;\n",
    );
    let decls = format!(".const .align 4 .u32 count = {};\n", warps * 32);
    let src = one_entry_program(warps, &decls, &body);
    clocks(&run_to_end("bar_period.ptx", &src, t), 0) / ITER
}

/// The `bar_arrivals` rows of `data/calibration/h100_micro.csv` (8 and 16
/// warps looping on one barrier with the count in a register, one CTA per
/// SM): within ±10 %; and arrivals with an immediate count are counted one
/// warp a cycle, half the register count's interval, so the period grows
/// half as fast with the warps.
#[test]
fn barrier_arrivals_are_counted_per_barrier_at_the_count_paths_rate() {
    let h100 = SmTiming::h100();
    let csv = h100_micro_csv();
    let measured = |warps: usize| {
        last_field(
            &csv,
            &format!("bar_arrivals,warps={warps} groups=1 ctas_per_sm=1 "),
        ) as f64
    };
    for warps in [8, 16] {
        let model = bar_period(warps, true, &h100) as f64;
        let m = measured(warps);
        assert!(
            (model - m).abs() <= 0.1 * m,
            "{warps} warps: model {model}, H100 {m}"
        );
    }
    let slope = |reg| bar_period(16, reg, &h100) - bar_period(8, reg, &h100);
    let (reg, imm) = (slope(true), slope(false));
    // (± 1: the release fan-out's eighths of a cycle round.)
    assert!(
        reg.abs_diff(8 * h100.arrival_interval) <= 1,
        "register count {reg}"
    );
    assert!(
        imm.abs_diff(8 * h100.arrival_interval_imm) <= 1,
        "immediate count {imm}"
    );
    assert!(imm < reg, "immediate {imm}, register {reg}");
}

/// A full warp spinning on `test_wait` (`W: test_wait; @!p bra W`) while
/// another warp arrives `delay` cycles after the spin starts: (polls,
/// cycles from the spin's first clock read to its last).
fn spin(delay: u64, t: &SmTiming) -> (u64, u64) {
    let (polls, total, _) = spin_with(32, "test_wait", delay, t);
    (polls, total)
}

/// `lanes` lanes of a warp spinning on `wait` (`test_wait` or `try_wait`)
/// while another warp arrives `delay` cycles after the spin starts:
/// (polls, cycles from the spin's first clock read to its last, the wake:
/// the waiter's clock after its loop less the arriver's before its arrive).
fn spin_with(lanes: u32, wait: &str, delay: u64, t: &SmTiming) -> (u64, u64, i64) {
    let pause = if delay == 0 {
        String::new()
    } else {
        format!("    mov.u64 %rd10, %clock64;\n    add.u64 %rd11, %rd10, {delay};\nSPIN:\n    mov.u64 %rd12, %clock64;\n    setp.lt.u64 %p9, %rd12, %rd11;\n    @%p9 bra SPIN;\n")
    };
    let src = format!(
        "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: arriver, lanes: 1}}\n  - {{cta: 0, warp: 1, program: waiter, lanes: {lanes}}}\n---\n.version 8.0\n.target sm_90\n.shared .align 8 .b64 mb;\n\n.entry arriver\n{{\n    .reg .b32 %r<16>;\n    .reg .b64 %rd<16>;\n    .reg .pred %p<10>;\n    mbarrier.init.shared.b64 [mb], 1;\n    bar.sync 2, 64;\n{pause}    mov.u64 %rd13, %clock64;\n    mbarrier.arrive.shared.b64 _, [mb];\n    ret;\n}}\n\n.entry waiter\n{{\n    .reg .b32 %r<16>;\n    .reg .b64 %rd<16>;\n    .reg .pred %p<10>;\n    bar.sync 2, 64;\n    mov.u32 %r5, 0;\n    mov.u64 %rd2, %clock64;\nW:\n    mbarrier.{wait}.parity.shared.b64 %p1, [mb], 0;\n    add.u32 %r5, %r5, 1;\n    @!%p1 bra W;\n    mov.u64 %rd3, %clock64;\n    ret;\n}}\n"
    );
    let r = run_to_end("spin.ptx", &src, t);
    let polls = r.reg(0, 1, "%r5").unwrap();
    let after = r.reg(0, 1, "%rd3").unwrap();
    (
        polls,
        after - r.reg(0, 1, "%rd2").unwrap(),
        after as i64 - r.reg(0, 0, "%rd13").unwrap() as i64,
    )
}

/// The `spin_period,LANES,FORM,D,` row: (polls, cycles per poll, wake).
fn spin_row(csv: &str, lanes: u32, form: u32, d: u64) -> (u64, u64, i64) {
    spin_row_of(csv, "spin_period", lanes, form, d)
}

/// The `TEST,LANES,FORM,D,` row (`spin_period`, `spin_lanes`).
fn spin_row_of(csv: &str, test: &str, lanes: u32, form: u32, d: u64) -> (u64, u64, i64) {
    let key = format!("{test},{lanes},{form},{d},");
    let l = csv.lines().find(|l| l.starts_with(&key)).unwrap();
    let f: Vec<i64> = l
        .split(',')
        .map(|x| x.trim().parse().unwrap_or(0))
        .collect();
    (f[4] as u64, f[5] as u64, f[6])
}

/// The `spin_period` rows of `data/calibration/h100_micro.csv` (a full
/// warp's `test_wait` spin, `kernels/micro/h100_spin_period.cu`): the first
/// answer about 240 cycles after the spin starts, then one per 99; each
/// within ±10 % in the model. Without the parked first poll the first
/// answer comes on the return path's 40-odd cycles.
#[test]
fn a_test_wait_spin_polls_on_the_h100s_grid() {
    let h100 = SmTiming::h100();
    let csv = h100_micro_csv();
    // lanes 32, form 1 (`@!p bra`): (D, polls, cycles per poll).
    let row = |d: u64| -> (u64, u64) {
        let (polls, per, _) = spin_row(&csv, 32, 1, d);
        (polls, per)
    };
    let within = |model: u64, h: u64| model.abs_diff(h) * 10 <= h;
    // The first answer: the arrive comes before the parked poll's check.
    let (h_polls, h_per) = row(20);
    let (polls, total) = spin(20, &h100);
    assert_eq!((polls, h_polls), (1, 1));
    assert!(within(total, h_per), "first answer {total}, H100 {h_per}");
    // Steady polling: 11 polls over about 1230 cycles.
    let (h_polls, h_per) = row(1000);
    let (polls, total) = spin(1000, &h100);
    assert!(
        polls.abs_diff(h_polls) <= 1,
        "polls {polls}, H100 {h_polls}"
    );
    let steady = (total - spin(20, &h100).1) / (polls - 1);
    let h_steady = (h_polls * h_per - row(20).1) / (h_polls - 1);
    assert!(within(steady, h_steady), "period {steady}, H100 {h_steady}");
    // Without the parked first poll the first answer is the return path's.
    let eager = SmTiming {
        test_wait_first_check: 0,
        test_wait_answer: h100.mbarrier_latency,
        ..h100.clone()
    };
    assert!(spin(20, &eager).1 + 100 < spin(20, &h100).1);
}

/// The one-lane `spin_period` rows of `data/calibration/h100_micro.csv`
/// (lane 0 of a warp spinning, `kernels/micro/h100_spin_period.cu`): its
/// `test_wait` and `try_wait` are answered on the poll timer, the first
/// answer 259 / 277 cycles after the spin starts, then one per 150 cycles;
/// a completion does not wake a one-lane `try_wait` (4 polls before an
/// arrive 500 cycles in is seen), where a full warp's is woken by it (one
/// poll, a wake about 100 cycles after the arrive); 2 to 31 lanes poll as
/// one does (`spin_lanes` rows). Each figure within ±10 % in the model.
#[test]
fn a_partial_warps_poll_is_answered_on_the_poll_timer_try_wait_too() {
    let h100 = SmTiming::h100();
    let csv = h100_micro_csv();
    let within = |model: u64, h: u64| model.abs_diff(h) * 10 <= h;
    for (form, wait) in [(1, "test_wait"), (2, "try_wait")] {
        // The first answer.
        let (h_polls, h_first, _) = spin_row(&csv, 1, form, 20);
        let (polls, first, _) = spin_with(1, wait, 20, &h100);
        assert_eq!((polls, h_polls), (1, 1), "{wait}");
        eprintln!("{wait}: one lane, first answer {first} (H100 {h_first})");
        assert!(
            within(first, h_first),
            "{wait}: first answer {first}, H100 {h_first}"
        );
        // The period: polls over 20 000 cycles.
        let (h_polls, h_per, _) = spin_row(&csv, 1, form, 20000);
        let (polls, total, _) = spin_with(1, wait, 20000, &h100);
        let per = total / polls;
        eprintln!("{wait}: one lane, {polls} polls, {per} a poll (H100 {h_polls}, {h_per})");
        assert!(
            within(per, h_per),
            "{wait}: {polls} polls, {per} a poll, H100 {h_polls}, {h_per}"
        );
        // An arrive 500 cycles in: seen at the fourth poll.
        let (h_polls, _, h_wake) = spin_row(&csv, 1, form, 500);
        let (polls, _, wake) = spin_with(1, wait, 500, &h100);
        eprintln!("{wait}: one lane, arrive at 500: {polls} polls, wake {wake} (H100 {h_polls}, {h_wake})");
        assert!(
            polls.abs_diff(h_polls) <= 1,
            "{wait}: polls {polls}, H100 {h_polls}"
        );
        assert!(
            (95..=250).contains(&wake),
            "{wait}: wake {wake} (H100 {h_wake}; one-lane wakes 95-245)"
        );
    }
    // Any partial warp polls as one lane does, only a full warp does not
    // (`spin_lanes` rows, measured on the H200): polls before an arrive 500
    // cycles in is seen, and the period, within ±10 %.
    for lanes in [2, 16, 31, 32] {
        for (form, wait) in [(1, "test_wait"), (2, "try_wait")] {
            let (h_polls, _, _) = spin_row_of(&csv, "spin_lanes", lanes, form, 500);
            let (polls, _, _) = spin_with(lanes, wait, 500, &h100);
            assert!(
                polls.abs_diff(h_polls) <= 1,
                "{lanes} lanes {wait}: polls {polls}, H200 {h_polls}"
            );
            if lanes == 32 && form == 2 {
                // A full warp's try_wait is suspended up to the unit's
                // largest window (4095 cycles: 5 polls in 20 000; the
                // H100's, 6717: 3), see `try_wait_early_wake`.
                continue;
            }
            let (h_polls, h_per, _) = spin_row_of(&csv, "spin_lanes", lanes, form, 20000);
            let (polls, total, _) = spin_with(lanes, wait, 20000, &h100);
            assert!(
                within(total / polls, h_per),
                "{lanes} lanes {wait}: {polls} polls in {total}, H200 {h_polls} at {h_per}"
            );
        }
    }
    // A full warp's try_wait is not woken before its first check: an arrive
    // 20 cycles into the wait is seen at the first answer, 261 cycles after
    // the wait starts on the H100; woken at once without the first check.
    let (_, h_first, _) = spin_row(&csv, 32, 2, 20);
    let (polls, first, _) = spin_with(32, "try_wait", 20, &h100);
    assert_eq!(polls, 1);
    assert!(
        within(first, h_first),
        "full-warp try_wait first answer {first}, H100 {h_first}"
    );
    let eager = SmTiming {
        try_wait_first_check: 0,
        ..h100.clone()
    };
    assert!(spin_with(32, "try_wait", 20, &eager).1 + 100 < first);
    // A full warp's try_wait is woken by the completion: one poll, and a
    // wake no later than the H100's here (100; §2.4's ping-pong, to which
    // the return path is fitted, wakes in 54).
    let (h_polls, _, h_wake) = spin_row(&csv, 32, 2, 500);
    let (polls, _, wake) = spin_with(32, "try_wait", 500, &h100);
    assert_eq!((polls, h_polls), (1, 1));
    assert!(
        wake <= h_wake,
        "full-warp try_wait wake {wake}, H100 {h_wake}"
    );
}

/// One warp's lane 0 issues a bulk store of `bytes` bytes from shared
/// memory, commits, and waits for it (`cp.async.bulk.wait_group 0`):
/// cycles from the clock read before the store to the one after the wait.
fn bulk_store(bytes: u32, t: &SmTiming) -> u64 {
    let src = format!(
        "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: t, lanes: 1}}\n---\n.version 8.0\n.target sm_90\n.shared .align 128 .b8 s[16384];\n.global .align 128 .b8 g[16384];\n\n.entry t\n{{\n    .reg .b32 %r<8>;\n    .reg .b64 %rd<8>;\n    mov.u64 %rd3, g;\n    mov.u32 %r1, s;\n    mov.u64 %rd1, %clock64;\n    cp.async.bulk.global.shared::cta.bulk_group [%rd3], [%r1], {bytes};\n    cp.async.bulk.commit_group;\n    cp.async.bulk.wait_group 0;\n    mov.u64 %rd2, %clock64;\n    ret;\n}}\n"
    );
    let r = run_to_end("bulk_store.ptx", &src, t);
    r.reg(0, 0, "%rd2").unwrap() - r.reg(0, 0, "%rd1").unwrap()
}

/// The `bulk_store` rows of `data/calibration/h100_micro.csv`: a 16 KB
/// bulk store completes 384 cycles after a 4 KB one (the copy engine writes
/// global memory 32 bytes a cycle); within ±10 % in the model.
#[test]
fn a_bulk_stores_time_grows_with_its_size() {
    let h100 = SmTiming::h100();
    let csv = h100_micro_csv();
    let done = |bytes: u32| last_field(&csv, &format!("bulk_store,0,{bytes},0,"));
    let h = done(16384) - done(4096);
    let m = bulk_store(16384, &h100) - bulk_store(4096, &h100);
    assert!(m.abs_diff(h) * 10 <= h, "16 KB - 4 KB: model {m}, H100 {h}");
}

/// The `test,configuration,median,…` row's median (`ldgsts_probe` and
/// `smem_banks` rows).
fn median_field(csv: &str, key: &str) -> u64 {
    let l = csv
        .lines()
        .find(|l| l.starts_with(key))
        .unwrap_or_else(|| panic!("no row {key}"));
    l.split(',').nth(3).unwrap().trim().parse().unwrap()
}

#[test]
fn a_64_bit_address_add_holds_its_memory_operation_not_a_64_bit_chain() {
    let h100 = SmTiming::h100();
    let csv = h100_micro_csv();
    // `cp.async` + commit + `st.shared` probe between two clock reads, its
    // address ready, or one `add.s64` of an offset made after the first
    // clock read (here `and` of the clock: it cannot move above it).
    let cp = |fresh: bool| {
        let addr = if fresh {
            "    mov.u64 %rd1, %clock64;\n    and.b64 %rd3, %rd1, 0;\n    add.s64 %rd4, %rd5, %rd3;\n"
        } else {
            "    mov.u64 %rd1, %clock64;\n"
        };
        let src = if fresh { 4 } else { 5 };
        format!("    mov.u64 %rd5, gbuf;\n    mov.u32 %r2, sval;\n{addr}    cp.async.cg.shared.global [%r2], [%rd{src}], 16;\n    cp.async.commit_group;\n    st.shared.u32 [%r2], %r2;\n    mov.u64 %rd2, %clock64;\n    cp.async.wait_group 0;\n")
    };
    for (fresh, key) in [
        (false, "ldgsts_probe,cp_commit_sts,warps=1"),
        (true, "ldgsts_probe,cp_add64_commit_sts,warps=1"),
    ] {
        let model = cycles_between_clocks(&cp(fresh), &h100) as f64;
        let h = median_field(&csv, key) as f64;
        eprintln!("{key}: model {model}, H100 {h}");
        assert!(
            (model - h).abs() <= 0.15 * h,
            "{key}: model {model}, H100 {h}"
        );
    }
    let one_step = SmTiming {
        add64_latency: h100.alu_latency,
        ..h100.clone()
    };
    assert!(
        cycles_between_clocks(&cp(true), &one_step) + 3 <= cycles_between_clocks(&cp(true), &h100),
        "the high half's step is what the address waits for"
    );
    // 16 dependent (add, xor) pairs: 64-bit as fast as 32-bit (the halves
    // go down the chain side by side).
    let chain = |wide: bool| {
        let mut b = String::from("    mov.u64 %rd3, 5;\n    mov.u64 %rd4, 7;\n    mov.u32 %r3, 5;\n    mov.u32 %r4, 7;\n    mov.u64 %rd1, %clock64;\n");
        for _ in 0..16 {
            b += if wide {
                "    add.u64 %rd5, %rd5, %rd3;\n    xor.b64 %rd5, %rd5, %rd4;\n"
            } else {
                "    add.u32 %r5, %r5, %r3;\n    xor.b32 %r5, %r5, %r4;\n"
            };
        }
        b + "    mov.u64 %rd2, %clock64;\n"
    };
    let (c32, c64) = (
        cycles_between_clocks(&chain(false), &h100) as f64,
        cycles_between_clocks(&chain(true), &h100) as f64,
    );
    let (h32, h64) = (
        last_field(&csv, "alu64,add_xor_u32_x16") as f64,
        last_field(&csv, "alu64,add_xor_u64_x16") as f64,
    );
    assert!(
        (c64 / c32 - h64 / h32).abs() <= 0.1,
        "64/32-bit chain: model {c64}/{c32}, H100 {h64}/{h32}"
    );
}

/// `warps` warps each run 16 `ld.shared` at a `stride`-word lane stride,
/// dependent (`chain`) or independent then summed; the median over the
/// warps of their cycles between two clock reads.
fn shared_loads(warps: usize, stride: u32, chain: bool, t: &SmTiming) -> u64 {
    // Lane l's j-th load reads word l * stride + 64 j (+ the last value,
    // always 0, when dependent): its address an immediate offset.
    let mut body = format!("    mov.u32 %r1, %laneid;\n    mul.lo.u32 %r2, %r1, {};\n    mov.u32 %r9, sbuf;\n    add.u32 %r4, %r2, %r9;\n    mov.u32 %r3, 0;\n    mov.u32 %r8, 0;\n    bar.sync 0;\n    mov.u64 %rd1, %clock64;\n", 4 * stride);
    for j in 0..16 {
        if chain {
            body += &format!(
                "    add.u32 %r5, %r4, %r3;\n    ld.shared.u32 %r3, [%r5+{}];\n",
                256 * j
            );
        } else {
            body += &format!("    ld.shared.u32 %r{}, [%r4+{}];\n", 10 + j, 256 * j);
        }
    }
    if !chain {
        for j in 0..16 {
            body += &format!("    add.u32 %r8, %r8, %r{};\n", 10 + j);
        }
    }
    body += "    mov.u64 %rd2, %clock64;\n";
    let src = one_entry_program(warps, ".shared .align 16 .u32 sbuf[8192];\n", &body);
    let r = run_to_end("banks.ptx", &src, t);
    let mut c: Vec<u64> = (0..warps as u32).map(|w| clocks(&r, w)).collect();
    c.sort();
    c[c.len() / 2]
}

#[test]
fn shared_bank_conflicts_cost_a_wavefront_each() {
    let h100 = SmTiming::h100();
    let csv = h100_micro_csv();
    let row = |test: &str, stride: u32, warps: usize| {
        median_field(
            &csv,
            &format!("smem_banks,{test},stride={stride};warps={warps},"),
        ) as f64
    };
    // Dependent loads: each wavefront beyond the first is latency (the
    // model's arithmetic between the loads differs from the SASS, so the
    // conflict's part is compared: stride s against stride 1).
    let base = shared_loads(1, 1, true, &h100) as f64;
    for s in [2, 4, 8, 32] {
        let model = shared_loads(1, s, true, &h100) as f64 - base;
        let h = row("chain", s, 1) - row("chain", 1, 1);
        eprintln!("chain stride {s}: model +{model}, H100 +{h}");
        assert!(
            (model - h).abs() <= 0.15 * h,
            "chain stride {s}: model +{model}, H100 +{h}"
        );
    }
    // Independent loads: one warp is held by its scheduler's path, four by
    // the SM's shared memory.
    for (warps, s) in [(1, 8), (1, 32), (4, 8), (4, 32)] {
        let model = shared_loads(warps, s, false, &h100) as f64;
        let h = row("burst", s, warps);
        eprintln!("burst {warps} warp(s) stride {s}: model {model}, H100 {h}");
        assert!(
            (model - h).abs() <= 0.2 * h,
            "burst {warps} warp(s) stride {s}: model {model}, H100 {h}"
        );
    }
    // Without the bank model a 32-way conflict costs what stride 1 does.
    let flat = SmTiming {
        shared_wavefront_eighths: 0,
        ..h100.clone()
    };
    assert_eq!(
        shared_loads(1, 32, true, &flat),
        shared_loads(1, 1, true, &flat)
    );
}

#[test]
fn a_single_l2_hit_on_the_h200_preset_matches_the_h200() {
    // One warp loads a line L2 holds, uses it, and reads the clock: the `l2_stream,line_volatile` row's median (the measured
    // half of its 64 lines).
    let h200 = SmTiming::h200();
    // (A first load brings the line into L2.)
    let body = "    mov.u64 %rd5, gbuf;\n    ld.volatile.global.u32 %r3, [%rd5];\n    add.u32 %r4, %r3, 1;\n    mov.u64 %rd1, %clock64;\n    ld.volatile.global.u32 %r1, [%rd5];\n    add.u32 %r2, %r1, 1;\n    mov.u64 %rd2, %clock64;\n";
    let model = cycles_between_clocks(body, &h200) as f64;
    let csv = h100_micro_csv();
    let l = csv
        .lines()
        .find(|l| l.starts_with("l2_stream,line_volatile,"))
        .unwrap();
    let mut v: Vec<f64> = l
        .split(',')
        .skip(3)
        .map(|x| x.trim().parse().unwrap())
        .collect();
    v.retain(|&x| x > 100.0);
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let h = v[v.len() / 2];
    eprintln!("H200 single L2 hit: model {model}, measured {h}");
    assert!((model - h).abs() <= 0.1 * h, "model {model}, H200 {h}");
}

/// A line one load brought into L1 answers a second load from L1, unless
/// an acquire (`ld.acquire.gpu`: `LD.E.STRONG.GPU; CCTL.IVALL`) invalidated
/// the L1 in between: then from L2 (`kernels/micro/h100_grid_sync.cu`: o6
/// re-reads its partials after an acquire spin in 619 cycles on the device;
/// the cache timing kept the lines until 2026-11-30 and answered from L1).
#[test]
fn an_acquire_s_l1_invalidate_sends_the_next_load_to_l2() {
    let h200 = SmTiming::h200();
    let site = |between: &str| {
        let body = format!("    mov.u64 %rd5, gbuf;\n    ld.global.ca.u32 %r3, [%rd5];\n    add.u32 %r4, %r3, 1;\n{between}    mov.u64 %rd1, %clock64;\n    ld.global.ca.u32 %r1, [%rd5];\n    add.u32 %r2, %r1, 1;\n    mov.u64 %rd2, %clock64;\n");
        cycles_between_clocks(&body, &h200)
    };
    let hit = site("");
    let after_acquire =
        site("    ld.acquire.gpu.global.u32 %r5, [%rd5+16];\n    add.u32 %r6, %r5, %r4;\n");
    eprintln!("second load: {hit} after the first, {after_acquire} after an acquire");
    assert!(hit < h200.l1_hit_latency + 20, "L1 hit {hit}");
    assert!(
        after_acquire > h200.l2_latency,
        "after the acquire {after_acquire}, L2 {}",
        h200.l2_latency
    );
}

/// A GPU fence pays for the global stores since the warp's SM last fenced,
/// drained or not (`kernels/micro/h100_fence_next.cu` on the device's H200:
/// 553-558 cycles with the warp's stores drained 3,000 cycles before,
/// `fence_next` rows; 264 right after another fence, `fence_gap` rows).
#[test]
fn a_gpu_fence_pays_for_the_stores_since_the_last_fence() {
    let h200 = SmTiming::h200();
    let fence = |before: &str| {
        let body = format!("    mov.u64 %rd5, gbuf;\n{before}    mov.u64 %rd1, %clock64;\n    fence.sc.gpu;\n    mov.u64 %rd2, %clock64;\n");
        cycles_between_clocks(&body, &h200) as f64
    };
    let spin = "    mov.u32 %r9, 0;\nL1:\n    add.u32 %r9, %r9, 1;\n    setp.lt.u32 %p1, %r9, 200;\n    @%p1 bra L1;\n";
    let after_drained_store = fence(&format!("    st.global.u32 [%rd5], 1;\n{spin}"));
    let after_fence = fence(&format!(
        "    st.global.u32 [%rd5], 1;\n    fence.sc.gpu;\n{spin}"
    ));
    let csv = h100_micro_csv();
    let measured = |key: &str| -> f64 {
        let l = csv.lines().find(|l| l.starts_with(key)).unwrap();
        l.split(',').nth(2).unwrap().parse().unwrap()
    };
    let (d_store, d_fence) = (
        measured("fence_next,none_sc_atom,"),
        measured("fence_gap,400,"),
    );
    eprintln!("fence after a drained store: model {after_drained_store}, device {d_store}; after a fence: model {after_fence}, device {d_fence}");
    assert!((after_drained_store - d_store).abs() <= 0.1 * d_store);
    assert!((after_fence - d_fence).abs() <= 0.1 * d_fence);
}

/// Warp 0 reaches `bar.red` (barrier 1, two warps) last, after warp 1:
/// its cycles between a clock read before the `bar.red` and one after a
/// `st.shared` probe (the result unused).
fn last_arriver_red(red: &str, t: &SmTiming) -> u64 {
    let body = format!("    mov.u32 %r1, %warpid;\n    mov.u32 %r2, sval;\n    setp.eq.u32 %p1, %r1, 0;\n    @!%p1 bra A;\n    mul.lo.u32 %r3, %r1, 3;\n    mul.lo.u32 %r3, %r3, 3;\n    mul.lo.u32 %r3, %r3, 3;\n    mul.lo.u32 %r3, %r3, 3;\n    mul.lo.u32 %r3, %r3, 3;\n    mul.lo.u32 %r3, %r3, 3;\n    mul.lo.u32 %r3, %r3, 3;\n    mul.lo.u32 %r3, %r3, 3;\n    st.shared.u32 [%r2], %r3;\nA:\n    mov.u64 %rd1, %clock64;\n    {red}\n    st.shared.u32 [%r2], %r2;\n    mov.u64 %rd2, %clock64;\n");
    let src = one_entry_program(2, ".shared .align 4 .u32 sval;\n", &body);
    clocks(&run_to_end("red.ptx", &src, t), 0)
}

#[test]
fn a_popc_reduction_releases_later_than_a_predicate_one() {
    let h100 = SmTiming::h100();
    let popc = last_arriver_red("bar.red.popc.u32 %r5, 1, 64, %p1;", &h100);
    let and = last_arriver_red("bar.red.and.pred %p2, 1, 64, %p1;", &h100);
    eprintln!("last arriver's site: popc {popc}, and {and}");
    assert_eq!(popc, and + h100.red_popc_release, "popc {popc}, and {and}");
    // k1's `__syncthreads_count` site of its last warp: 50 cycles on the
    // H100 (`data/kernels/h100_kernels_summary.csv`), 22 with a plain release.
    assert!((40..=60).contains(&popc), "popc {popc}");
}

/// The `calls` rows of `data/calibration/h100_micro.csv`
/// (`kernels/micro/h100_calls.cu`): 16 dependent calls of a `__noinline__`
/// function (`x * 3 + 1`) in nvcc's call sequence take 994 cycles between
/// two clock reads; within ±10 % in the model, where a call's inlined body
/// ends in its return (`issue_return`); charged as a plain branch, half.
#[test]
fn a_device_function_call_and_its_return_cost_what_the_h100s_do() {
    let h100 = SmTiming::h100();
    let measured = last_field(&h100_micro_csv(), "calls,1,");
    let call = "    {\n    .param .b32 param0;\n    st.param.b32 [param0+0], %r1;\n    .param .b32 retval0;\n    call.uni (retval0), g, (param0);\n    ld.param.b32 %r1, [retval0+0];\n    }\n";
    let ptx = format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\n.func (.param .b32 r) g(\n    .param .b32 x\n)\n{{\n    .reg .b32 %a<3>;\n    ld.param.u32 %a1, [x];\n    mad.lo.s32 %a2, %a1, 3, 1;\n    st.param.b32 [r+0], %a2;\n    ret;\n}}\n\n.visible .entry calls(\n    .param .u64 tim\n)\n{{\n    .reg .b32 %r<4>;\n    .reg .b64 %rd<6>;\n    ld.param.u64 %rd3, [tim];\n    mov.u32 %r1, %tid.x;\n    mov.u64 %rd1, %clock64;\n{}    mov.u64 %rd2, %clock64;\n    sub.s64 %rd4, %rd2, %rd1;\n    cvta.to.global.u64 %rd5, %rd3;\n    st.global.u64 [%rd5], %rd4;\n    ret;\n}}\n",
        call.repeat(16)
    );
    let launch = "entry: calls\ngrid: [1, 1, 1]\nblock: [32, 1, 1]\nbuffers:\n  - {name: tim, type: u64, len: 1, fill: 0}\nparams: [tim]\n";
    let model = kernel_tim(&ptx, launch, &h100)[0];
    let as_branch = kernel_tim(
        &ptx,
        launch,
        &SmTiming {
            issue_return: h100.issue_branch,
            ..h100.clone()
        },
    )[0];
    eprintln!("16 calls: model {model} (a return as a branch: {as_branch}), H100 {measured}");
    assert!(
        model.abs_diff(measured) * 10 <= measured,
        "16 calls: model {model}, H100 {measured}"
    );
    assert!(
        as_branch * 2 < measured + 100,
        "a return charged as a branch: {as_branch}"
    );
}

/// The median (`med_cyc`) of the row of `data/calibration/FILE` (a fence
/// calibration table) that starts with `prefix`.
fn fence_median(file: &str, prefix: &str) -> u64 {
    let csv = std::fs::read_to_string(format!(
        "{}/../../data/calibration/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let l = csv
        .lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("{file}: no row {prefix}"));
    l.split(',').nth(8).unwrap().parse().unwrap()
}

/// The fence calibration's lone fences (`data/calibration/h100_fence.csv`,
/// `h200_fence.csv`, section t1: one warp, no store): `fence.sc.gpu` 668
/// cycles on the H100 and 264 on the H200, `fence.sc.sys` 1403 and 1012.
/// Each preset's `membar.gl` / `fence.sc.gpu` / `membar.sys` /
/// `fence.release.gpu` between two clock reads within ±2 % of its GPU's, a
/// store then `membar.gl` within ±5 %; a GPU fence's ack at the L2 latency
/// (as before 2026-11-28) is far off on the H100, and a release fence
/// without `gl_bar_ack` costs nothing.
#[test]
fn a_lone_fence_costs_what_the_fence_calibration_measured() {
    let t1 = |file: &str, fence: &str| fence_median(file, &format!("t1,{fence},{fence},0,"));
    for (t, file) in [
        (SmTiming::h100(), "h100_fence.csv"),
        (SmTiming::h200(), "h200_fence.csv"),
    ] {
        for (ptx, fence) in [
            ("membar.gl", "fence.sc.gpu"),
            ("fence.sc.gpu", "fence.sc.gpu"),
            ("membar.sys", "fence.sc.sys"),
            // `MEMBAR.ALL.GPU`: waits for its barrier (`gl_bar_ack`).
            ("fence.release.gpu", "fence.release.gpu"),
        ] {
            let measured = t1(file, fence);
            let model = cycles_between_clocks(
                &format!("    mov.u64 %rd1, %clock64;\n    {ptx};\n    mov.u64 %rd2, %clock64;\n"),
                &t,
            );
            assert!(
                model.abs_diff(measured) * 50 <= measured,
                "{} {ptx}: model {model}, measured {measured}",
                t.name
            );
        }
    }
    let h100 = SmTiming::h100();
    let old = SmTiming {
        fence_gl_ack: h100.l2_latency,
        fence_overhead_gl: 0,
        ..h100.clone()
    };
    let gl = "    mov.u64 %rd1, %clock64;\n    membar.gl;\n    mov.u64 %rd2, %clock64;\n";
    assert!(cycles_between_clocks(gl, &old) * 2 < t1("h100_fence.csv", "fence.sc.gpu"));
    // A store, then the fence (section t2dev, S = 1): the store's ack and
    // the barrier go on together, the SM's overhead after both: 697 on the
    // H100 (the barrier the longer), 542 on the H200 (the store's ack).
    let t2 = |file: &str| fence_median(file, "t2dev,fence.sc.gpu,fence.sc.gpu,1,gmem,1,1,");
    let st = "    mov.u64 %rd1, %clock64;\n    st.global.u32 [gbuf], %r1;\n    membar.gl;\n    mov.u64 %rd2, %clock64;\n";
    for (t, file) in [
        (SmTiming::h100(), "h100_fence.csv"),
        (SmTiming::h200(), "h200_fence.csv"),
    ] {
        let (model, measured) = (cycles_between_clocks(st, &t), t2(file));
        assert!(
            model.abs_diff(measured) * 20 <= measured,
            "{} store + membar.gl: model {model}, measured {measured}",
            t.name
        );
    }
    let no_ack = SmTiming {
        gl_bar_ack: false,
        ..h100.clone()
    };
    let rel = "    mov.u64 %rd1, %clock64;\n    fence.release.gpu;\n    mov.u64 %rd2, %clock64;\n";
    assert!(cycles_between_clocks(rel, &no_ack) + 300 < t1("h100_fence.csv", "fence.release.gpu"));
}

/// Runs `ptx` as a kernel with `launch` (a launch file's text) under `t`
/// and returns its `tim` buffer.
fn kernel_tim(ptx: &str, launch: &str, t: &SmTiming) -> Vec<u64> {
    let l = sm_exec::launch::parse(launch, "k.launch.yaml", std::path::Path::new(".")).unwrap();
    let o = sm_exec::RunOptions {
        max_cycles: 200_000,
        sm_timing: Some(t.clone()),
        ..sm_exec::RunOptions::default()
    };
    let k = sm_exec::kernel::run_kernel("k.ptx", ptx, &l, o).unwrap();
    assert_eq!(k.result.outcome, sm_exec::Outcome::Finished);
    k.result
        .buffers
        .iter()
        .find(|(n, _)| n == "tim")
        .unwrap()
        .1
        .clone()
}

/// Sync calibration §3.1 / §3.2 (H100, clusters of 4 CTAs, one warp each):
/// a relaxed `barrier.cluster.arrive; wait` round trip 80 cycles, the
/// default one (its arrive a release: `MEMBAR.ALL.GPU` first) 726; a
/// dependent load of a peer CTA's shared memory 186. Each within ±10 % in
/// the model.
#[test]
fn a_cluster_barrier_and_a_peer_ctas_shared_memory_cost_what_the_h100s_do() {
    let ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n\n.visible .entry cl(\n    .param .u64 tim\n)\n.explicitcluster\n.reqnctapercluster 4, 1, 1\n{\n    .reg .b32 %r<8>;\n    .reg .b64 %rd<12>;\n    .shared .align 4 .b32 part[32];\n    ld.param.u64 %rd3, [tim];\n    cvta.to.global.u64 %rd3, %rd3;\n    mov.u32 %r1, %ctaid.x;\n    mov.u32 %r2, part;\n    st.shared.u32 [%r2], %r1;\n    cvt.u64.u32 %rd5, %r2;\n    cvta.shared.u64 %rd6, %rd5;\n    add.u32 %r3, %r1, 1;\n    rem.u32 %r3, %r3, 4;\n    mapa.u64 %rd7, %rd6, %r3;\n    barrier.cluster.arrive;\n    barrier.cluster.wait;\n    mov.u64 %rd1, %clock64;\n    barrier.cluster.arrive.relaxed;\n    barrier.cluster.wait;\n    mov.u64 %rd2, %clock64;\n    barrier.cluster.arrive;\n    barrier.cluster.wait;\n    mov.u64 %rd4, %clock64;\n    ld.u32 %r4, [%rd7];\n    add.u32 %r5, %r4, 1;\n    rem.u32 %r5, %r5, 4;\n    mapa.u64 %rd8, %rd6, %r5;\n    ld.u32 %r6, [%rd8];\n    add.u32 %r7, %r6, 1;\n    mov.u64 %rd9, %clock64;\n    sub.s64 %rd10, %rd2, %rd1;\n    mul.wide.u32 %rd11, %r1, 24;\n    add.s64 %rd11, %rd3, %rd11;\n    st.global.u64 [%rd11], %rd10;\n    sub.s64 %rd10, %rd4, %rd2;\n    st.global.u64 [%rd11+8], %rd10;\n    sub.s64 %rd10, %rd9, %rd4;\n    st.global.u64 [%rd11+16], %rd10;\n    barrier.cluster.arrive;\n    barrier.cluster.wait;\n    ret;\n}\n";
    let launch = "entry: cl\ngrid: [4, 1, 1]\nblock: [32, 1, 1]\ncluster: [4, 1, 1]\nbuffers:\n  - {name: tim, type: u64, len: 12, fill: 0}\nparams: [tim]\n";
    let h100 = SmTiming::h100();
    let tim = kernel_tim(ptx, launch, &h100);
    let within = |m: u64, h: u64| m.abs_diff(h) * 10 <= h;
    for cta in 0..4 {
        let (relaxed, default, two_peer_loads) = (tim[3 * cta], tim[3 * cta + 1], tim[3 * cta + 2]);
        assert!(
            within(relaxed, 80),
            "CTA {cta}: relaxed round trip {relaxed}, H100 80"
        );
        assert!(
            within(default, 726),
            "CTA {cta}: default round trip {default}, H100 726"
        );
        // Two dependent peer loads (each CTA's neighbour, then the
        // neighbour's neighbour: never the own CTA).
        assert!(
            within(two_peer_loads, 2 * 186),
            "CTA {cta}: two dependent peer loads {two_peer_loads}, H100 2 x 186"
        );
    }
}

/// An atomic is performed at L2 and leaves its line there: a load of the
/// line after it is an L2 hit (the `atomics` rows of h100_micro.csv: an
/// `ld.acquire.gpu` after atomics on its line takes what a load of a warm
/// line does), not a DRAM access.
#[test]
fn a_load_after_an_atomic_on_its_line_hits_l2() {
    let h100 = SmTiming::h100();
    let body = "    mov.u64 %rd5, gbuf;\n    atom.global.add.u32 %r1, [%rd5], 1;\n    add.u32 %r2, %r1, 1;\n    mov.u64 %rd1, %clock64;\n    ld.acquire.gpu.u32 %r3, [%rd5];\n    add.u32 %r4, %r3, 1;\n    setp.eq.u32 %p1, %r4, 77;\n    @%p1 bra SKIP;\nSKIP:\n    mov.u64 %rd2, %clock64;\n";
    let c = cycles_between_clocks(body, &h100);
    assert!(
        c < h100.l2_latency + 60 && c < h100.dram_latency,
        "a load after an atomic on its line: {c} (L2 {}, DRAM {})",
        h100.l2_latency,
        h100.dram_latency
    );
}

//! The H100 sync bench's released probes (`data/calibration/h100_sync_released.csv`,
//! sections 1.3 and 2.4 and 4.2) rebuilt as program files and run on the
//! executor under an SM timing preset: each probe reads `%clock64` where the
//! bench read it, and the cell is the same difference of clock reads. No cell
//! has a constant of its own: the figures come from the preset's mechanisms
//! (`crate::sm_timing`). `membar calibrate --sm` prints them next to the
//! H100's (`docs/results/calibration_sm.md`).

use crate::sm_timing::SmTiming;
use crate::{run_source, Outcome, RunOptions, RunResult};

/// One predicted cell: (sub-test, configuration, metric, cycles).
pub type Cell = (String, String, String, f64);

/// Cycles the late warp spins before it arrives (the bench: "500 cycles
/// after the waiter").
const DELAY: u64 = 520;

fn run(name: &str, src: &str, t: &SmTiming) -> Result<RunResult, String> {
    let o = RunOptions {
        seed: 1,
        max_cycles: 200_000,
        sm_timing: Some(t.clone()),
        ..RunOptions::default()
    };
    let r = run_source(name, src, o).map_err(|e| e.to_string())?;
    if r.outcome != Outcome::Finished {
        return Err(format!("probe {name}: {:?}", r.outcome));
    }
    Ok(r)
}

fn reg(r: &RunResult, warp: u32, name: &str) -> Result<f64, String> {
    r.reg(0, warp, name)
        .map(|v| v as i64 as f64)
        .ok_or_else(|| format!("probe: warp {warp} has no {name}"))
}

/// The header's warp list: warp 0 runs `first`, warps 1..=k run `rest`
/// (with `lanes` lanes each, when given).
fn warps(first: &str, k: u32, rest: &str, lanes: Option<u32>) -> String {
    let mut w = format!("  - {{cta: 0, warp: 0, program: {first}}}\n");
    let lanes = lanes.map(|n| format!(", lanes: {n}")).unwrap_or_default();
    for i in 1..=k {
        w += &format!("  - {{cta: 0, warp: {i}, program: {rest}{lanes}}}\n");
    }
    w
}

/// A fan-out's cells: when warps 1..=k read `reg` relative to `ta` (first,
/// median, last), and the arriver's own cost `own` under `own_metric`.
fn fanout_cells(
    r: &RunResult,
    k: u32,
    reg_name: &str,
    ta: f64,
    own_metric: &'static str,
    own: f64,
) -> Result<Vec<(&'static str, f64)>, String> {
    let mut outs = (1..=k)
        .map(|w| reg(r, w, reg_name).map(|t2| t2 - ta))
        .collect::<Result<Vec<f64>, String>>()?;
    outs.sort_by(f64::total_cmp);
    Ok(vec![
        ("first waiter out (t2-tA)", outs[0]),
        ("median waiter out", outs[outs.len() / 2]),
        ("last waiter out", outs[outs.len() - 1]),
        (own_metric, own),
    ])
}

/// The spin of the late warp: until `DELAY` cycles after its start.
fn spin() -> String {
    spin_for(DELAY)
}

/// The bench's 45 cycles of `S2UR` set-up between the producer's clock
/// read and its arrive (§2.4), as a dependent chain of 11 IMADs.
const SETUP: &str = "    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mad.lo.u32 %r9, %r9, 3, 1;\n    mov.u32 %r10, %r9;\n";

/// A spin of `d` cycles (none for 0).
fn spin_for(d: u64) -> String {
    if d == 0 {
        return String::new();
    }
    format!(
        "    mov.u64 %rd10, %clock64;\n    add.u64 %rd11, %rd10, {d};\nSPIN:\n    mov.u64 %rd12, %clock64;\n    setp.lt.u64 %p9, %rd12, %rd11;\n    @%p9 bra SPIN;\n"
    )
}

/// §1.3's producer/consumer test (1c): warp 0 (producer) `bar.arrive 1, N`
/// between two clock reads, `k` consumer warps `bar.sync 1, N` between two
/// clock reads; "consumer waiting": the producer starts `delay` cycles
/// late; "consumer late": the consumers start 500 cycles late. The
/// figures are the first consumer's.
fn producer_consumer(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for (k, late, delay) in [
        (1u32, false, 0u64),
        (1, false, 500),
        (1, true, 500),
        (3, false, 500),
        (3, true, 500),
        (7, false, 500),
    ] {
        let n = 32 * (k + 1);
        let warps = warps("producer", k, "consumer", None);
        let (p_spin, c_spin) = if late {
            (String::new(), spin_for(delay))
        } else {
            (spin_for(delay), String::new())
        };
        let src = format!(
            "---\nctas: 1\nwarps:\n{warps}---\n.version 8.0\n.target sm_90\n{VARS}\n.entry producer\n{{\n{DECLS}{p_spin}    mov.u64 %rd4, %clock64;\n    bar.arrive 1, {n};\n    mov.u64 %rd5, %clock64;\n    ret;\n}}\n\n.entry consumer\n{{\n{DECLS}{c_spin}    mov.u64 %rd1, %clock64;\n    bar.sync 1, {n};\n    mov.u64 %rd2, %clock64;\n    ret;\n}}\n"
        );
        let r = run("probe_1c.ptx", &src, t)?;
        let (tb, ta) = (reg(&r, 0, "%rd4")?, reg(&r, 0, "%rd5")?);
        let (cb, ca) = (reg(&r, 1, "%rd1")?, reg(&r, 1, "%rd2")?);
        let cfg = format!(
            "{k} consumer warp(s); {}; delay {delay}",
            if late {
                "consumer late (producer arrived first)"
            } else {
                "consumer waiting"
            }
        );
        let mut cells = vec![
            ("producer bar.arrive cost", ta - tb),
            ("consumer own bar.sync", ca - cb),
        ];
        if late {
            cells.push(("producer_arrived_first(0/1)", (tb < cb) as u8 as f64));
        } else {
            cells.push(("wake: consumer t_after - producer t_before", ca - tb));
            cells.push(("consumer_was_waiting(0/1)", (cb <= tb) as u8 as f64));
        }
        for (metric, v) in cells {
            out.push(("1c".to_string(), cfg.clone(), metric.to_string(), v));
        }
    }
    Ok(out)
}

/// The X variants of §1.3's deferred-blocking probe: (name as the bench
/// writes it, instructions).
const X: [(&str, &str); 7] = [
    ("nothing", ""),
    (
        "8 dependent IMADs",
        "    ld.const.u32 %r5, [cval];\n    mad.lo.u32 %r5, %r5, 3, 1;\n    mad.lo.u32 %r5, %r5, 3, 1;\n    mad.lo.u32 %r5, %r5, 3, 1;\n    mad.lo.u32 %r5, %r5, 3, 1;\n    mad.lo.u32 %r5, %r5, 3, 1;\n    mad.lo.u32 %r5, %r5, 3, 1;\n    mad.lo.u32 %r5, %r5, 3, 1;\n    mad.lo.u32 %r5, %r5, 3, 1;\n",
    ),
    (
        "ld.volatile.shared + dependent branch",
        "    ld.volatile.shared.u32 %r6, [sval];\n    setp.eq.u32 %p1, %r6, 12345;\n    @%p1 bra XEND;\n",
    ),
    ("st.shared", "    st.shared.u32 [sval], %r1;\n"),
    (
        "ld.volatile.global + dependent branch",
        "    ld.volatile.global.u32 %r6, [gval];\n    setp.eq.u32 %p1, %r6, 12345;\n    @%p1 bra XEND;\n",
    ),
    ("bar.sync 3;32 (own 1-warp barrier)", "    bar.sync 3, 32;\n"),
    (
        "ld.volatile.shared (result unused)",
        "    ld.volatile.shared.u32 %r6, [sval];\n",
    ),
];

const DECLS: &str = "    .reg .b32 %r<16>;\n    .reg .b64 %rd<16>;\n    .reg .pred %p<10>;\n";
/// The bench's variables (`gval` initialised: hot in L2, as the bench's was).
const VARS: &str =
    ".const .align 4 .u32 cval;\n.shared .align 4 .u32 sval;\n.global .align 4 .u32 gval = 1;\n";

/// §1.3 (1g): two warps on `bar.sync 1, 64`. "waiter first": warp 1 (the
/// waiter) arrives at once, warp 0 `DELAY` cycles later with `bar.sync` or
/// `bar.arrive`; "waiter arrives last": warp 0 arrives at once with
/// `bar.sync`, the waiter `DELAY` later. Waiter: `tb; bar.sync; t1; X; t2`.
/// Other warp: `tA; bar; tA2`.
fn deferred_blocking(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for mode in ["bar.sync", "bar.arrive", "last"] {
        for (xname, x) in X {
            let (late_waiter, a_op) = match mode {
                "last" => (true, "bar.sync"),
                m => (false, m),
            };
            let waiter = format!(
                "{}    mov.u64 %rd1, %clock64;\n    bar.sync 1, 64;\n    mov.u64 %rd2, %clock64;\n{x}XEND:\n    mov.u64 %rd3, %clock64;\n    ret;\n",
                if late_waiter { spin() } else { String::new() }
            );
            let other = format!(
                "{}    mov.u64 %rd4, %clock64;\n    {a_op} 1, 64;\n    mov.u64 %rd5, %clock64;\n    ret;\n",
                if late_waiter { String::new() } else { spin() }
            );
            let src = format!(
                "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: other}}\n  - {{cta: 0, warp: 1, program: waiter}}\n---\n.version 8.0\n.target sm_90\n{VARS}\n.entry other\n{{\n{DECLS}{other}}}\n\n.entry waiter\n{{\n{DECLS}{waiter}}}\n"
            );
            let r = run("probe_1g.ptx", &src, t)?;
            let (tb, t1, t2) = (
                reg(&r, 1, "%rd1")?,
                reg(&r, 1, "%rd2")?,
                reg(&r, 1, "%rd3")?,
            );
            let (ta, ta2) = (reg(&r, 0, "%rd4")?, reg(&r, 0, "%rd5")?);
            let cfg = match mode {
                "last" => format!("waiter arrives last (completes the barrier); X = {xname}"),
                m => format!("waiter first; last arriver {m}; X = {xname}"),
            };
            for (metric, v) in [
                (
                    "t1-tA (clock read right after waiter's bar.sync; vs last arrival)",
                    t1 - ta,
                ),
                ("t2-tA (after X; vs last arrival)", t2 - ta),
                ("t2-t1 (X)", t2 - t1),
                ("t1-tb (waiter own)", t1 - tb),
                ("tA2-tA (last arriver own)", ta2 - ta),
            ] {
                out.push(("1g".to_string(), cfg.clone(), metric.to_string(), v));
            }
        }
    }
    Ok(out)
}

/// §1.3 fan-out (1h): `k` waiter warps `bar.sync 1, %r` (a register count:
/// loaded from the constant bank, as the bench's came from a parameter, so
/// that `ptxas` cannot make it an immediate; `Code::reg_count`)
/// then `st.shared; t2`; warp 0 arrives last, `DELAY` cycles later, with
/// `bar.sync` or `bar.arrive` between `tA` and `tA2`.
fn release_fanout(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for op in ["bar.sync", "bar.arrive"] {
        for k in [1u32, 3, 7, 15, 31] {
            let n = 32 * (k + 1);
            let warps = warps("last", k, "waiter", None);
            let src = format!(
                "---\nctas: 1\nwarps:\n{warps}---\n.version 8.0\n.target sm_90\n{VARS}.const .align 4 .u32 count = {n};\n\n.entry last\n{{\n{DECLS}    ld.const.u32 %r7, [count];\n{}    mov.u64 %rd4, %clock64;\n    {op} 1, %r7;\n    mov.u64 %rd5, %clock64;\n    ret;\n}}\n\n.entry waiter\n{{\n{DECLS}    ld.const.u32 %r7, [count];\n    bar.sync 1, %r7;\n    st.shared.u32 [sval], %r7;\n    mov.u64 %rd3, %clock64;\n    ret;\n}}\n",
                spin()
            );
            let r = run("probe_1h.ptx", &src, t)?;
            let ta = reg(&r, 0, "%rd4")?;
            let own = reg(&r, 0, "%rd5")? - ta;
            let cfg =
                format!("{k} waiter warps; last arriver {op}; waiters: bar.sync then st.shared");
            for (metric, v) in fanout_cells(&r, k, "%rd3", ta, "last arriver own (tA2-tA)", own)? {
                out.push(("1h".to_string(), cfg.clone(), metric.to_string(), v));
            }
        }
    }
    Ok(out)
}

/// The wait of 2.4's probes: `try_wait.parity` (suspends in the unit) or a
/// `test_wait.parity` spin, on `[mb]` with the parity in `%r1`; `p` names
/// the loop's label.
fn wait_loop(kind: &str, bar: &str, p: &str) -> String {
    format!("{p}:\n    mbarrier.{kind}.parity.shared.b64 %p1, [{bar}], %r1;\n    @!%p1 bra {p};\n")
}

const MB_VARS: &str = ".shared .align 8 .b64 full;\n.shared .align 8 .b64 empty;\n";

/// §2.4 (2d): the phase-reuse loop (count 1, one thread: `arrive;
/// wait(φ); φ ^= 1`, 16 iterations) and the full/empty ping-pong of two
/// warps (8 round trips; the producer optionally 500 cycles late each time).
fn mbarrier_ping_pong(t: &SmTiming) -> Result<Vec<Cell>, String> {
    const ITERS: u64 = 16;
    let mut out = Vec::new();
    for kind in ["try_wait", "test_wait"] {
        let body = format!(
            "    mbarrier.init.shared.b64 [full], 1;\n    mov.u32 %r1, 0;\n    mov.u32 %r2, 0;\n    mov.u64 %rd6, %clock64;\nLOOP:\n    mov.u64 %rd1, %clock64;\n    mbarrier.arrive.shared.b64 %rd5, [full];\n{}    mov.u64 %rd2, %clock64;\n    xor.b32 %r1, %r1, 1;\n    add.u32 %r2, %r2, 1;\n    setp.lt.u32 %p2, %r2, {ITERS};\n    @%p2 bra LOOP;\n    mov.u64 %rd7, %clock64;\n    ret;\n",
            wait_loop(kind, "full", "W")
        );
        let src = format!(
            "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: t}}\n---\n.version 8.0\n.target sm_90\n{MB_VARS}\n.entry t\n{{\n{DECLS}{body}}}\n"
        );
        let r = run("probe_2d_reuse.ptx", &src, t)?;
        let cfg = format!("count 1; 1 thread; {kind}.parity");
        let own = reg(&r, 0, "%rd2")? - reg(&r, 0, "%rd1")?;
        let rt = (reg(&r, 0, "%rd7")? - reg(&r, 0, "%rd6")?) / ITERS as f64;
        out.push((
            "2d".into(),
            cfg.clone(),
            "own(arrive+wait: t_after-t_before)".into(),
            own,
        ));
        out.push((
            "2d".into(),
            cfg,
            "rt(closed loop; per warp)".into(),
            rt.round(),
        ));
    }
    for kind in ["try_wait", "test_wait"] {
        for delay in [0u64, 500] {
            const ROUNDS: u64 = 8;
            // Producer: wait empty (phase 1 − φ after the first round),
            // [delay], t_before, arrive full, t_after. Consumer: wait full,
            // t_out, arrive empty. Two full warps, lane 0 arriving: the
            // H100's consumer `try_wait` is woken 54 cycles after the
            // arrive, which a one-lane `try_wait` never is (it polls on
            // the SM's poll timer, `SmTiming::one_lane_first_check`).
            let producer = format!(
                "    mov.u32 %r9, %laneid;\n    setp.eq.u32 %p7, %r9, 0;\n    mov.u32 %r1, 1;\n    mov.u32 %r2, 0;\nPL:\n    setp.eq.u32 %p3, %r2, 0;\n    @%p3 bra SKIP;\n{}SKIP:\n{}    mov.u64 %rd4, %clock64;\n    @%p7 mbarrier.arrive.shared.b64 _, [full];\n    mov.u64 %rd5, %clock64;\n    xor.b32 %r1, %r1, 1;\n    add.u32 %r2, %r2, 1;\n    setp.lt.u32 %p2, %r2, {ROUNDS};\n    @%p2 bra PL;\n    ret;\n",
                wait_loop("try_wait", "empty", "PW"),
                spin_for(delay)
            );
            let consumer = format!(
                "    mov.u32 %r9, %laneid;\n    setp.eq.u32 %p7, %r9, 0;\n    mov.u32 %r1, 0;\n    mov.u32 %r2, 0;\nCL:\n    mov.u64 %rd1, %clock64;\n{}    mov.u64 %rd2, %clock64;\n    @%p7 mbarrier.arrive.shared.b64 _, [empty];\n    xor.b32 %r1, %r1, 1;\n    add.u32 %r2, %r2, 1;\n    setp.eq.u32 %p3, %r2, 1;\n    @%p3 mov.u64 %rd8, %rd2;\n    setp.lt.u32 %p2, %r2, {ROUNDS};\n    @%p2 bra CL;\n    ret;\n",
                wait_loop(kind, "full", "CW")
            );
            let src = format!(
                "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: producer, lanes: 1}}\n  - {{cta: 0, warp: 1, program: consumer, lanes: 32}}\n---\n.version 8.0\n.target sm_90\n{MB_VARS}\n.entry producer\n{{\n{DECLS}    mbarrier.init.shared.b64 [full], 1;\n    mbarrier.init.shared.b64 [empty], 1;\n    bar.sync 2, 64;\n{producer}}}\n\n.entry consumer\n{{\n{DECLS}    bar.sync 2, 64;\n{consumer}}}\n"
            );
            let r = run("probe_2d_pingpong.ptx", &src, t)?;
            let cfg = format!(
                "full/empty count 1; consumer {}; producer delay {delay}",
                if kind == "try_wait" {
                    "try_wait"
                } else {
                    "test_wait spin"
                }
            );
            let (pb, pa) = (reg(&r, 0, "%rd4")?, reg(&r, 0, "%rd5")?);
            let (cb, ca, c1) = (
                reg(&r, 1, "%rd1")?,
                reg(&r, 1, "%rd2")?,
                reg(&r, 1, "%rd8")?,
            );
            let rt = (ca - c1) / (ROUNDS - 1) as f64;
            let mut cells = vec![
                ("producer arrive cost", pa - pb),
                ("rt(consumer release to release)", rt.round()),
            ];
            if delay > 0 {
                cells.push(("wake: consumer t_after - producer t_before", ca - pb));
                cells.push(("consumer_was_waiting(0/1)", (cb < pb) as u8 as f64));
            }
            for (metric, v) in cells {
                out.push(("2d".into(), cfg.clone(), metric.into(), v));
            }
        }
    }
    Ok(out)
}

/// §2.4 wake fan-out (2f): lane 0 of warp 0 arrives on a count-1 barrier
/// (`tA`, the bench's 45 cycles of set-up, the arrive, `tA2`); `k` warps of
/// 32 lanes wait on it (`try_wait` or a `test_wait` spin), then read `t2`.
fn mbarrier_wake_fanout(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for kind in ["try_wait", "test_wait"] {
        for k in [1u32, 3, 7, 15, 31] {
            let warps = warps("producer", k, "waiter", Some(32));
            let src = format!(
                "---\nctas: 1\nwarps:\n{warps}---\n.version 8.0\n.target sm_90\n{MB_VARS}\n.entry producer\n{{\n{DECLS}    mbarrier.init.shared.b64 [full], 1;\n    bar.sync 2, {n};\n{}    mov.u64 %rd4, %clock64;\n{}    mbarrier.arrive.shared.b64 _, [full];\n    mov.u64 %rd5, %clock64;\n    ret;\n}}\n\n.entry waiter\n{{\n{DECLS}    mov.u32 %r1, 0;\n    bar.sync 2, {n};\n{}    mov.u64 %rd3, %clock64;\n    ret;\n}}\n",
                spin(),
                SETUP,
                wait_loop(kind, "full", "W"),
                n = 32 * (k + 1)
            );
            let r = run("probe_2f.ptx", &src, t)?;
            let ta = reg(&r, 0, "%rd4")?;
            let own = reg(&r, 0, "%rd5")? - ta;
            let cfg = format!(
                "{k} waiter warps (all lanes {}); count-1 barrier; producer lane 0",
                if kind == "try_wait" {
                    "try_wait"
                } else {
                    "test_wait spin"
                }
            );
            for (metric, v) in fanout_cells(&r, k, "%rd3", ta, "producer arrive cost", own)? {
                out.push(("2f".into(), cfg.clone(), metric.into(), v));
            }
        }
    }
    Ok(out)
}

/// §4.2 (4b): one warp, 4 groups of 8 `cp.async.{ca,cg}` of 16 bytes per
/// lane (4 KB a group) from global to shared memory, each group committed;
/// then `cp.async.wait_group N` and `cp.async.wait_all`. "hot": the warp
/// read the source first (with `.ca`, into L1; with `.cg`, L2 only);
/// "cold": nothing holds it.
fn ldgsts_groups(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for temp in ["hot", "cold"] {
        for cache in ["ca", "cg"] {
            for n in [0u32, 1, 3] {
                let mut body = String::from(
                    "    mov.u32 %r1, %laneid;\n    mul.wide.u32 %rd1, %r1, 16;\n    mov.u64 %rd2, src;\n    add.u64 %rd2, %rd2, %rd1;\n    mov.u32 %r2, dst;\n    cvt.u32.u64 %r3, %rd1;\n    add.u32 %r2, %r2, %r3;\n",
                );
                if temp == "hot" {
                    for i in 0..32 {
                        body += &format!(
                            "    ld.global.{cache}.v4.u32 {{%r4, %r5, %r6, %r7}}, [%rd2+{}];\n",
                            512 * i
                        );
                    }
                }
                body += "    mov.u64 %rd4, %clock64;\n";
                for g in 0..4 {
                    for i in 0..8 {
                        let off = 512 * (8 * g + i);
                        body += &format!(
                            "    cp.async.{cache}.shared.global [%r2+{off}], [%rd2+{off}], 16;\n"
                        );
                    }
                    body += "    cp.async.commit_group;\n";
                }
                body += &format!(
                    "    mov.u64 %rd5, %clock64;\n    cp.async.wait_group {n};\n    mov.u64 %rd6, %clock64;\n    cp.async.wait_all;\n    mov.u64 %rd7, %clock64;\n    ret;\n"
                );
                let src = format!(
                    "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: t, lanes: 32}}\n---\n.version 8.0\n.target sm_90\n.global .align 16 .b8 src[16384];\n.shared .align 16 .b8 dst[16384];\n\n.entry t\n{{\n{DECLS}{body}}}\n"
                );
                let r = run("probe_4b.ptx", &src, t)?;
                let (t0, t1, t2, t3) = (
                    reg(&r, 0, "%rd4")?,
                    reg(&r, 0, "%rd5")?,
                    reg(&r, 0, "%rd6")?,
                    reg(&r, 0, "%rd7")?,
                );
                let cfg =
                    format!("cp.async.{cache} 16B; 4 groups x 4 KB; wait_group {n}; {temp} src");
                for (metric, v) in [
                    ("issue(32 cp.async + 4 commits)", t1 - t0),
                    ("wait_group N returns (from first issue)", t2 - t0),
                    ("wait_group N returns (after last commit)", t2 - t1),
                    ("then wait_all (from first issue)", t3 - t0),
                ] {
                    out.push(("4b".into(), cfg.clone(), metric.into(), v));
                }
            }
        }
    }
    Ok(out)
}

/// The warp sets of our own arrive-among-spinners probe
/// (`kernels/micro/h100_arrive_contention.cu`, measured on the device's
/// H200: `data/calibration/h200_arrive_contention.csv`): the set's name as
/// the CSV writes it, and its spinning warps (lane 0 of warp 0 arrives).
pub fn arrive_contention_sets() -> Vec<(String, Vec<u32>)> {
    let mut v: Vec<(String, Vec<u32>)> = [0u32, 1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 20, 24, 28, 31]
        .into_iter()
        .map(|n| (format!("first_n;n={n}"), (1..=n).collect()))
        .collect();
    v.push((
        "same_sched;n=7".into(),
        (1..32).filter(|w| w % 4 == 0).collect(),
    ));
    v.push((
        "other_scheds;n=24".into(),
        (1..32).filter(|w| w % 4 != 0).collect(),
    ));
    v.push((
        "other_scheds_7;n=7".into(),
        (1..32).filter(|w| w % 4 != 0).take(7).collect(),
    ));
    v
}

/// Our own probe (`kernels/micro/h100_arrive_contention.cu`): lane 0 of
/// warp 0 arrives on a count-1 mbarrier (`tA`, the address set-up, the
/// arrive, `tA2`: [`SETUP`] stands for the `S2UR`/`UMOV`/`ULEA` inside the
/// clock pair, as in §2.4) `400 + 37 r` cycles after a set of full warps
/// began to spin on it (`test_wait; add; @!p bra`), r = 1..=23; each cell
/// is the median over r, as on the device. Cells: sub `own-ac`, cfg the
/// set (`arrive_contention_sets`), metrics `arrive`, `first_wake`,
/// `median_wake`, `last_wake` (a spinner's clock after its loop minus `tA`).
pub fn arrive_contention(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for (set, spinners) in arrive_contention_sets() {
        let n = 32 * (spinners.len() + 1);
        let mut hdr = String::from("  - {cta: 0, warp: 0, program: producer}\n");
        for w in &spinners {
            hdr += &format!("  - {{cta: 0, warp: {w}, program: spinner, lanes: 32}}\n");
        }
        let (mut cost, mut first, mut mid, mut last) = (vec![], vec![], vec![], vec![]);
        for r in 1..=23u64 {
            let src = format!(
                "---\nctas: 1\nwarps:\n{hdr}---\n.version 8.0\n.target sm_90\n{MB_VARS}\n.entry producer\n{{\n{DECLS}    mbarrier.init.shared.b64 [full], 1;\n    bar.sync 2, {n};\n{}    mov.u64 %rd4, %clock64;\n{SETUP}    mbarrier.arrive.shared.b64 _, [full];\n    mov.u64 %rd5, %clock64;\n    ret;\n}}\n\n.entry spinner\n{{\n{DECLS}    mov.u32 %r1, 0;\n    mov.u32 %r2, 0;\n    bar.sync 2, {n};\nW:\n    mbarrier.test_wait.parity.shared.b64 %p1, [full], %r1;\n    add.u32 %r2, %r2, 1;\n    @!%p1 bra W;\n    mov.u64 %rd3, %clock64;\n    ret;\n}}\n",
                spin_for(400 + 37 * r)
            );
            let res = run("probe_arrive_contention.ptx", &src, t)?;
            let ta = reg(&res, 0, "%rd4")?;
            cost.push(reg(&res, 0, "%rd5")? - ta);
            let mut wakes = spinners
                .iter()
                .map(|&w| reg(&res, w, "%rd3").map(|t2| t2 - ta))
                .collect::<Result<Vec<f64>, String>>()?;
            wakes.sort_by(f64::total_cmp);
            if let (Some(f), Some(l)) = (wakes.first(), wakes.last()) {
                first.push(*f);
                mid.push(wakes[wakes.len() / 2]);
                last.push(*l);
            }
        }
        let med = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v.get(v.len() / 2).copied()
        };
        for (metric, v) in [
            ("arrive", med(cost)),
            ("first_wake", med(first)),
            ("median_wake", med(mid)),
            ("last_wake", med(last)),
        ] {
            if let Some(v) = v {
                out.push(("own-ac".into(), set.clone(), metric.into(), v));
            }
        }
    }
    Ok(out)
}

/// Every probe the executor rebuilds, under preset `t`.
pub fn cells(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut v = producer_consumer(t)?;
    v.extend(deferred_blocking(t)?);
    v.extend(release_fanout(t)?);
    v.extend(mbarrier_ping_pong(t)?);
    v.extend(mbarrier_wake_fanout(t)?);
    v.extend(ldgsts_groups(t)?);
    Ok(v)
}

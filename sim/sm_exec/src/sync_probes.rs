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

/// The spin of the late warp: until `DELAY` cycles after its start.
fn spin() -> String {
    format!(
        "    mov.u64 %rd10, %clock64;\n    add.u64 %rd11, %rd10, {DELAY};\nSPIN:\n    mov.u64 %rd12, %clock64;\n    setp.lt.u64 %p9, %rd12, %rd11;\n    @%p9 bra SPIN;\n"
    )
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
const VARS: &str =
    ".const .align 4 .u32 cval;\n.shared .align 4 .u32 sval;\n.global .align 4 .u32 gval;\n";

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

/// §1.3 fan-out (1h): `k` waiter warps `bar.sync 1, %r` (a register count)
/// then `st.shared; t2`; warp 0 arrives last, `DELAY` cycles later, with
/// `bar.sync` or `bar.arrive` between `tA` and `tA2`.
fn release_fanout(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut out = Vec::new();
    for op in ["bar.sync", "bar.arrive"] {
        for k in [1u32, 3, 7, 15, 31] {
            let n = 32 * (k + 1);
            let mut warps = "  - {cta: 0, warp: 0, program: last}\n".to_string();
            for w in 1..=k {
                warps += &format!("  - {{cta: 0, warp: {w}, program: waiter}}\n");
            }
            let src = format!(
                "---\nctas: 1\nwarps:\n{warps}---\n.version 8.0\n.target sm_90\n{VARS}\n.entry last\n{{\n{DECLS}    mov.u32 %r7, {n};\n{}    mov.u64 %rd4, %clock64;\n    {op} 1, %r7;\n    mov.u64 %rd5, %clock64;\n    ret;\n}}\n\n.entry waiter\n{{\n{DECLS}    mov.u32 %r7, {n};\n    bar.sync 1, %r7;\n    st.shared.u32 [sval], %r7;\n    mov.u64 %rd3, %clock64;\n    ret;\n}}\n",
                spin()
            );
            let r = run("probe_1h.ptx", &src, t)?;
            let ta = reg(&r, 0, "%rd4")?;
            let mut outs = (1..=k)
                .map(|w| reg(&r, w, "%rd3").map(|t2| t2 - ta))
                .collect::<Result<Vec<f64>, String>>()?;
            outs.sort_by(f64::total_cmp);
            let cfg =
                format!("{k} waiter warps; last arriver {op}; waiters: bar.sync then st.shared");
            for (metric, v) in [
                ("first waiter out (t2-tA)", outs[0]),
                ("median waiter out", outs[outs.len() / 2]),
                ("last waiter out", outs[outs.len() - 1]),
                ("last arriver own (tA2-tA)", reg(&r, 0, "%rd5")? - ta),
            ] {
                out.push(("1h".to_string(), cfg.clone(), metric.to_string(), v));
            }
        }
    }
    Ok(out)
}

/// Every probe the executor rebuilds, under preset `t`.
pub fn cells(t: &SmTiming) -> Result<Vec<Cell>, String> {
    let mut v = deferred_blocking(t)?;
    v.extend(release_fanout(t)?);
    Ok(v)
}

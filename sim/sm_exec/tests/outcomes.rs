//! How runs end and what they report: deadlock (with who waits on what), the
//! cycle cap, a unit protocol error located at its instruction, stall
//! accounting by cause, and the trace files.

use sm_exec::{run_source, Outcome, RunOptions};

const HEAD2: &str = "---\nwarps:\n  - {cta: 0, warp: 0, program: a}\n  - {cta: 0, warp: 1, program: b}\n---\n.version 8.0\n.target sm_90\n";

fn opts() -> RunOptions {
    RunOptions {
        seed: 7,
        max_cycles: 50_000,
        trace: true,
        ..RunOptions::default()
    }
}

#[test]
fn two_warps_on_different_barriers_deadlock_and_say_where() {
    let src = format!("{HEAD2}.entry a {{\n    bar.sync 1, 64;\n    ret;\n}}\n.entry b {{\n    bar.sync 2, 64;\n    ret;\n}}\n");
    let r = run_source("d.ptx", &src, opts()).unwrap();
    let Outcome::Deadlock(ws) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(ws.len(), 2, "{ws:?}");
    assert!(
        ws[0].0 == "cta0.w0"
            && ws[0].1.contains("named barrier")
            && ws[0].1.contains("line 9: bar.sync 1, 64;"),
        "{ws:?}"
    );
    assert!(ws[1].1.contains("line 13: bar.sync 2, 64;"), "{ws:?}");
    assert!(r.cycles < 10_000, "deadlock found late: {}", r.cycles);
}

#[test]
fn an_endless_loop_stops_at_the_cycle_cap() {
    let src = format!("{HEAD2}.entry a {{\nL:\n    bra L;\n}}\n.entry b {{\n    ret;\n}}\n");
    let r = run_source(
        "l.ptx",
        &src,
        RunOptions {
            max_cycles: 3000,
            ..opts()
        },
    )
    .unwrap();
    let Outcome::CycleCap(ws) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert_eq!(r.cycles, 3000);
    assert_eq!(ws.len(), 1, "{ws:?}");
    assert!(
        ws[0].0 == "cta0.w0" && ws[0].1.contains("running"),
        "{ws:?}"
    );
}

#[test]
fn a_unit_protocol_error_is_located_at_the_instruction() {
    let src = format!("{HEAD2}.entry a {{\n    .reg .b64 %rd<2>;\n    .shared .b64 m;\n    mbarrier.arrive.shared::cta.b64 %rd1, [m];\n    ret;\n}}\n.entry b {{\n    ret;\n}}\n");
    let r = run_source("u.ptx", &src, opts()).unwrap();
    let Outcome::UnitError(e) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(
        e.starts_with("u.ptx:11:5: mbarrier_unit err: uninit"),
        "{e}"
    );
}

#[test]
fn a_bar_unit_error_is_located_at_the_barrier_op_the_unit_took_the_cycle_before() {
    // The bar unit checks a request the cycle after taking it: by then warp
    // a has moved on past its (consumed) `bar.arrive` to the `mov`, and its
    // error must still name a and the `bar.arrive` (count 3 warps > the
    // CTA's 2: count_too_big).
    let src = format!("{HEAD2}.entry a {{\n    .reg .b32 %r<4>;\n    bar.arrive 1, 96;\n    mov.u32 %r1, 5;\n    mov.u32 %r2, 6;\n    ret;\n}}\n.entry b {{\n    .reg .b32 %r<4>;\n    mov.u32 %r1, 5;\n    mov.u32 %r2, 6;\n    mov.u32 %r3, 7;\n    ret;\n}}\n");
    let r = run_source("b.ptx", &src, opts()).unwrap();
    let Outcome::UnitError(e) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(
        e.starts_with("b.ptx:10:5: bar_unit err: count_too_big") && e.contains("(warp cta0.w0,"),
        "{e}"
    );
    // Warp b's mismatching count on a's open phase: b's `bar.sync`, not a's
    // instruction of the error's cycle.
    let src = format!("{HEAD2}.entry a {{\n    bar.sync 1, 64;\n    ret;\n}}\n.entry b {{\n    .reg .b32 %r<4>;\n    mov.u32 %r1, 5;\n    mov.u32 %r2, 6;\n    bar.sync 1;\n    ret;\n}}\n");
    let r = run_source("c.ptx", &src, opts()).unwrap();
    let Outcome::UnitError(e) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(
        e.starts_with("c.ptx:16:5: bar_unit err: count_mismatch") && e.contains("(warp cta0.w1,"),
        "{e}"
    );
}

fn example(f: &str) -> String {
    std::fs::read_to_string(format!("{}/../../examples/{f}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn stalls_are_counted_by_cause() {
    let r = run_source("m.ptx", &example("membar_flag.ptx"), opts()).unwrap();
    assert_eq!(r.outcome, Outcome::Finished);
    // The producer waits at membar.gl until its data store is acknowledged by L2.
    assert!(
        r.warps[0].stalls.get("membar").copied().unwrap_or(0) > 0,
        "{:?}",
        r.warps[0]
    );
    let r = run_source(
        "b.ptx",
        &example("bar_arrive_producer_consumer.ptx"),
        opts(),
    )
    .unwrap();
    let bar: u64 = r
        .warps
        .iter()
        .map(|w| w.stalls.get("bar").copied().unwrap_or(0))
        .sum();
    assert!(bar > 0, "{:?}", r.warps);
    let r = run_source("t.ptx", &example("mbarrier_tma_pipeline.ptx"), opts()).unwrap();
    for c in ["mbarrier", "wait_group", "cluster"] {
        let n: u64 = r
            .warps
            .iter()
            .map(|w| w.stalls.get(c).copied().unwrap_or(0))
            .sum();
        assert!(n > 0, "{c}: {:?}", r.warps);
    }
}

#[test]
fn traces_are_well_formed() {
    let r = run_source("t.ptx", &example("mbarrier_tma_pipeline.ptx"), opts()).unwrap();
    let mut v = Vec::new();
    r.trace.write_vcd(&mut v).unwrap();
    let vcd = String::from_utf8(v).unwrap();
    assert!(vcd.starts_with("$version"));
    let times: Vec<u64> = vcd
        .lines()
        .filter_map(|l| l.strip_prefix('#').and_then(|t| t.parse().ok()))
        .collect();
    assert!(times.len() > 10);
    assert!(
        times.windows(2).all(|w| w[0] < w[1]),
        "VCD times not increasing"
    );
    // Every value change names a declared id.
    let ids: Vec<&str> = vcd
        .lines()
        .filter(|l| l.starts_with("$var"))
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    assert_eq!(ids.len(), 4 * 4);
    for l in vcd.lines().skip_while(|l| !l.starts_with("#0")) {
        if l.starts_with('#') || l.starts_with('$') {
            continue;
        }
        let id = if l.starts_with('b') {
            l.split_whitespace().nth(1).unwrap()
        } else {
            &l[1..]
        };
        assert!(ids.contains(&id), "undeclared id in `{l}`");
    }
    let mut j = Vec::new();
    r.trace.write_json(&mut j).unwrap();
    let json = String::from_utf8(j).unwrap();
    assert!(json.contains("\"traceEvents\""));
    assert!(json.contains("blocked: mbarrier") && json.contains("blocked: cluster"));
    assert!(json.contains("bulk copy"));
    assert_eq!(json.matches('{').count(), json.matches('}').count());
    assert!(json.trim_end().ends_with("]}"));
}

/// A CTA's cluster arrival waits for every live warp: a warp that arrives
/// and exits does not arrive for a sibling that is still working, so the
/// other CTA's reader is released only after the writer's release-arrive and
/// reads its store.
#[test]
fn cluster_barrier_waits_for_every_live_warp_of_the_cta() {
    let src = "---\nctas: 2\ncluster: 2\nwarps:\n  - {cta: 0, warp: 0, program: quitter}\n  - {cta: 0, warp: 1, program: writer}\n  - {cta: 1, warp: 0, program: reader}\n---\n.version 8.0\n.target sm_90\n\
.entry quitter {\n    barrier.cluster.arrive;\n    ret;\n}\n\
.entry writer {\n    .reg .b32 %r<2>;\n    .reg .b64 %rd<1>;\n    .reg .pred %p;\n    mov.u32 %r0, 0;\nL:\n    add.u32 %r0, %r0, 1;\n    setp.lt.u32 %p, %r0, 300;\n    @%p bra L;\n    mov.u64 %rd0, 4096;\n    st.global.u32 [%rd0], 1;\n    barrier.cluster.arrive;\n    barrier.cluster.wait;\n    ret;\n}\n\
.entry reader {\n    .reg .b32 %r<2>;\n    .reg .b64 %rd<1>;\n    mov.u64 %rd0, 4096;\n    barrier.cluster.arrive;\n    barrier.cluster.wait;\n    ld.global.u32 %r1, [%rd0];\n    ret;\n}\n";
    for seed in 0..40 {
        let r = run_source("c.ptx", src, RunOptions { seed, ..opts() }).unwrap();
        assert_eq!(r.outcome, Outcome::Finished, "seed {seed}");
        assert_eq!(
            r.reg(1, 0, "%r1"),
            Some(1),
            "seed {seed}: reader released early"
        );
    }
}

/// A CTA whose only warp arrives at the cluster barrier and exits at once
/// is "gone" only after its arrival pulse reached the aggregator (no
/// arrive-after-gone error), and the other CTA's wait completes.
#[test]
fn arrive_then_exit_completes_the_cluster_phase() {
    let src = "---\nctas: 2\ncluster: 2\nwarps:\n  - {cta: 0, warp: 0, program: a}\n  - {cta: 1, warp: 0, program: b}\n---\n.version 8.0\n.target sm_90\n\
.entry a {\n    barrier.cluster.arrive.relaxed;\n    ret;\n}\n\
.entry b {\n    barrier.cluster.arrive.relaxed;\n    barrier.cluster.wait;\n    ret;\n}\n";
    for seed in 0..40 {
        let r = run_source("g.ptx", src, RunOptions { seed, ..opts() }).unwrap();
        assert_eq!(r.outcome, Outcome::Finished, "seed {seed}");
    }
}

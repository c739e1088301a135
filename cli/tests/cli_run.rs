//! `membar run` and `membar litmus`: the seed examples run to their produced
//! values, a deadlock exits 1 naming who waits on what, bad input exits 2
//! with `FILE:LINE:COL`, traces are written without clobbering, and
//! `docs/results/litmus.md` is exactly what `membar litmus --markdown` writes
//! now, with every verdict PASS.

mod common;
use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn membar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_membar"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run membar")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn examples_run_and_consumers_read_the_produced_values() {
    for (file, line) in [
        ("examples/membar_flag.ptx", "cta1.w0: %p0=0 %r0=42 %r1=1"),
        (
            "examples/release_acquire_flag.ptx",
            "cta1.w0: %p=0 %r0=42 %r1=1",
        ),
        (
            "examples/bar_arrive_producer_consumer.ptx",
            "cta0.w1: %p=1 %r1=7 %r2=0 %r3=32",
        ),
        ("examples/mbarrier_tma_pipeline.ptx", "cta1.w1: %p=0 %r0=99"),
    ] {
        for seed in ["1", "2", "3"] {
            let o = membar(&["run", file, "--seed", seed]);
            assert_eq!(o.status.code(), Some(0), "{file}: {}{}", out(&o), err(&o));
            let s = out(&o);
            assert!(s.contains("outcome: finished"), "{s}");
            assert!(s.contains(line), "{file} seed {seed}: no `{line}` in\n{s}");
            assert!(
                s.contains("stall cycles by cause:") && s.contains("total cycles: "),
                "{s}"
            );
        }
    }
}

#[test]
fn deadlock_exits_1_and_names_the_waiting_warps() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("d.ptx");
    std::fs::write(
        &f,
        "---\nwarps:\n  - {cta: 0, warp: 0, program: a}\n  - {cta: 0, warp: 1, program: b}\n---\n.entry a {\n    bar.sync 1, 64;\n    ret;\n}\n.entry b {\n    bar.sync 2, 64;\n    ret;\n}\n",
    )
    .unwrap();
    let o = membar(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}{}", out(&o), err(&o));
    let s = out(&o);
    assert!(s.contains("DEADLOCK"), "{s}");
    assert!(
        s.contains("cta0.w0 waits on named barrier release (bar_unit) at line 7: bar.sync 1, 64;"),
        "{s}"
    );
    assert!(
        s.contains("cta0.w1 waits on named barrier release (bar_unit) at line 11: bar.sync 2, 64;"),
        "{s}"
    );
    assert!(err(&o).contains("deadlock"), "{}", err(&o));
}

#[test]
fn bad_input_exits_2_with_the_location() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.ptx");
    std::fs::write(
        &f,
        "---\nwarps:\n  - {cta: 0, warp: 0, program: a}\n---\n.entry a {\n    ld.global.u32 %r1 [%rd0];\n}\n",
    )
    .unwrap();
    let o = membar(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("bad.ptx:6:"), "{}", err(&o));
    // A unit protocol error: arrive on an mbarrier never initialised.
    std::fs::write(
        &f,
        "---\nwarps:\n  - {cta: 0, warp: 0, program: a}\n---\n.entry a {\n    .reg .b64 %rd<2>;\n    .shared .b64 m;\n    mbarrier.arrive.shared::cta.b64 %rd1, [m];\n}\n",
    )
    .unwrap();
    let o = membar(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("bad.ptx:8:5: mbarrier_unit err: uninit"),
        "{}",
        err(&o)
    );
    // A register the entry does not declare, a special register the model
    // does not define: exit 2 naming the line and the name.
    for (reg, want) in [
        ("%r9", "which entry `a` does not declare"),
        (
            "%globaltimer",
            "special register `%globaltimer`, which a program file does not define",
        ),
    ] {
        std::fs::write(
            &f,
            format!("---\nwarps:\n  - {{cta: 0, warp: 0, program: a}}\n---\n.entry a {{\n    .reg .b32 %r<2>;\n    mov.u32 %r1, {reg};\n}}\n"),
        )
        .unwrap();
        let o = membar(&["run", f.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        assert!(
            err(&o).contains("bad.ptx:7:5: `mov.u32 %r1,") && err(&o).contains(want),
            "{}",
            err(&o)
        );
    }
    let o = membar(&["run", "examples/membar_flag.ptx", "--trace", "t.txt"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("expected .vcd"), "{}", err(&o));
    std::fs::write(&f, b"---\nwarps: [\xff\xfe\x00]\n---\n").unwrap();
    let o = membar(&["run", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("not UTF-8"), "{}", err(&o));
    let o = membar(&["run", "no/such.ptx"]);
    assert_eq!(o.status.code(), Some(2));
    let o = membar(&["run", "examples/membar_flag.ptx", "--cycles", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out(&o).contains("outcome"));
}

#[test]
fn cycle_cap_exits_1() {
    let o = membar(&["run", "examples/membar_flag.ptx", "--cycles", "50"]);
    assert_eq!(o.status.code(), Some(1), "{}", err(&o));
    assert!(
        out(&o).contains("CYCLE CAP") && out(&o).contains("waiting warps:"),
        "{}",
        out(&o)
    );
}

#[test]
fn traces_are_written_and_never_clobber_a_user_file() {
    let dir = tempfile::tempdir().unwrap();
    for ext in ["vcd", "json"] {
        let t = dir.path().join(format!("run.{ext}"));
        let ts = t.to_str().unwrap();
        let o = membar(&["run", "examples/mbarrier_tma_pipeline.ptx", "--trace", ts]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        let body = std::fs::read_to_string(&t).unwrap();
        assert!(body.len() > 1000, "{ext}: {body}");
        // Our own trace may be replaced.
        let o = membar(&["run", "examples/membar_flag.ptx", "--trace", ts]);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        // A user's file may not.
        let u = dir.path().join(format!("user.{ext}"));
        std::fs::write(&u, "my notes").unwrap();
        let o = membar(&[
            "run",
            "examples/membar_flag.ptx",
            "--trace",
            u.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", err(&o));
        assert_eq!(std::fs::read_to_string(&u).unwrap(), "my notes");
    }
    // The input itself is never an output.
    let o = membar(&[
        "litmus",
        "litmus/mp_gpu.ptx",
        "--runs",
        "2",
        "--markdown",
        "litmus/mp_gpu.ptx",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
}

#[test]
fn litmus_table_is_the_checked_in_file_and_every_verdict_passes() {
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("litmus.md");
    let o = membar(&["litmus", "--markdown", md.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    let now = std::fs::read_to_string(&md).unwrap();
    assert_eq!(common::without_marker(&now), out(&o));
    let shipped = std::fs::read_to_string(root().join("docs/results/litmus.md")).unwrap();
    assert!(
        now == shipped,
        "docs/results/litmus.md differs from `membar litmus`: regenerate it with\n  cargo run --release --bin membar -- litmus --markdown docs/results/litmus.md"
    );
    let rows: Vec<&str> = now
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| test"))
        .collect();
    assert!(rows.len() >= 20, "{now}");
    for r in &rows {
        assert!(
            r.ends_with("PASS: forbidden never observed |")
                || r.ends_with("PASS: forbidden observed without the fence |")
                || r.ends_with("PASS: PTX allows it; the model is stronger here |"),
            "{r}"
        );
    }
    // The replay seed of a twin reproduces its forbidden outcome alone.
    let mp = rows
        .iter()
        .find(|r| r.starts_with("| mp_gpu_nofence |"))
        .unwrap();
    let seed = mp.split(" | ").nth(4).unwrap().trim();
    let o = membar(&["run", "litmus/mp_gpu_nofence.ptx", "--seed", seed]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        out(&o).contains("cta1.w0: %r1=1 %r2=0"),
        "seed {seed}: {}",
        out(&o)
    );
    // Each fenced test's twin shows the forbidden outcome.
    for (fenced, twin) in [
        ("mp_gpu", "mp_gpu_nofence"),
        ("mp_gpu_named", "mp_gpu_named_nofence"),
        ("mp_relacq_gpu", "mp_relaxed_gpu"),
        ("mp_cluster", "mp_cluster_nofence"),
        ("sb_gpu", "sb_nofence"),
        ("lb_gpu", "lb_nofence"),
        ("iriw_gpu", "iriw_nofence"),
        ("wrc_gpu", "wrc_nofence"),
        ("proxy_async", "proxy_async_nofence"),
        ("mbarrier_tx", "mbarrier_noexpect"),
        ("bar_arrive", "bar_arrive_nobar"),
    ] {
        let row = |n: &str| {
            *rows
                .iter()
                .find(|r| r.starts_with(&format!("| {n} |")))
                .unwrap()
        };
        assert!(row(fenced).contains("| 0 | - | never |"), "{}", row(fenced));
        assert!(
            row(twin).contains("| seen |") && !row(twin).contains("| 0 | - | seen |"),
            "{}",
            row(twin)
        );
    }
}

#[test]
fn a_bad_litmus_header_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("l.ptx");
    let src = std::fs::read_to_string(root().join("litmus/mp_gpu.ptx"))
        .unwrap()
        .replace("[1/0/%r1, 1/0/%r2]", "[1/0/%r1, 5/0/%r2]");
    std::fs::write(&f, src).unwrap();
    let o = membar(&["litmus", f.to_str().unwrap(), "--runs", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("l.ptx:9:1: header key `litmus.observe[1]`"),
        "{}",
        err(&o)
    );
    let o = membar(&["litmus", "examples/membar_flag.ptx", "--runs", "3"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("no `litmus:` key"), "{}", err(&o));
}

/// PTX's largest `mbarrier.init` count, 2^20 − 1, runs on the executor's SM
/// (its mbarrier unit holds PTX's ranges); 2^20 is refused by the unit and
/// the run stops with exit 2 naming the line and the cause.
#[test]
fn mbarrier_init_takes_ptxs_largest_count_and_refuses_one_more() {
    let d = common::tmp_dir("run-mbar-range");
    let prog = |count: u32| {
        format!(
            "---\nctas: 1\nwarps:\n  - {{cta: 0, warp: 0, program: k}}\n---\n.version 8.0\n.target sm_90\n\n\
             .entry k\n{{\n    .reg .b64 %rd<4>;\n    .shared .align 8 .b64 full;\n    \
             mbarrier.init.shared::cta.b64 [full], {count};\n    \
             mbarrier.arrive.shared::cta.b64 %rd1, [full];\n    ret;\n}}\n"
        )
    };
    let ok = d.join("ok.ptx");
    std::fs::write(&ok, prog((1 << 20) - 1)).unwrap();
    let o = membar(&["run", ok.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}{}", out(&o), err(&o));
    let bad = d.join("bad.ptx");
    std::fs::write(&bad, prog(1 << 20)).unwrap();
    let o = membar(&["run", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}{}", out(&o), err(&o));
    assert!(
        err(&o).contains("bad.ptx:13:5") && err(&o).contains("bad_count"),
        "{}",
        err(&o)
    );
}

//! Issue 22 (round 2), items 8, 9, 11, 12: no input hangs the command or
//! grows without bound, flag values outside their documented range are
//! exit 2, and a unit grid's value cannot inject configuration keys.
//!
//! Every command here runs under a time limit and a 4 GB address-space
//! limit, so a build without the fixes (`MEMBAR_BIN=/path/to/old`) fails
//! these tests instead of hanging or exhausting the machine.

mod common;
use common::{root, tmp_dir};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Run `membar ARGS` in the workspace root with at most 4 GB of address
/// space; panic if it has not finished after `secs` seconds (killing it).
fn membar_within(secs: u64, args: &[&str]) -> Output {
    let mut c = Command::new("sh");
    c.arg("-c")
        .arg("ulimit -v 4000000 && exec \"$0\" \"$@\"")
        .arg(common::membar_bin())
        .args(args)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = c.spawn().expect("spawn membar");
    let t0 = Instant::now();
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if t0.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("membar {args:?} still running after {secs} s (hangs)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Exit 2 with a message that holds every one of `words`.
fn assert_input_error(o: &Output, words: &[&str], what: &str) {
    let t = text(o);
    assert_eq!(o.status.code(), Some(2), "{what}: {t}");
    for w in words {
        assert!(t.contains(w), "{what}: message lacks {w:?}: {t}");
    }
    assert!(!t.contains("panicked"), "{what}: {t}");
}

fn mkfifo(p: &Path) {
    let st = Command::new("mkfifo").arg(p).status().expect("mkfifo");
    assert!(st.success());
}

/// Item 8: a FIFO as any input file is refused at once (exit 2, naming the
/// file), never opened for a read that waits forever.
#[test]
fn a_fifo_as_input_is_refused_not_waited_on() {
    let dir = tmp_dir("bounds-fifo");
    let f = dir.join("in.fifo");
    mkfifo(&f);
    let fs = f.to_str().unwrap();
    let mbar = "verilog_out/mbarrier_unit/default/config.yaml";
    let cases: Vec<Vec<&str>> = vec![
        vec!["ptx", "--lower", fs],
        vec!["run", fs],
        vec!["litmus", fs, "--runs", "1"],
        vec!["generate", "--config", fs, "--out", "/tmp/never"],
        vec![
            "generate",
            "--unit",
            "bar",
            "--config",
            fs,
            "--out",
            "/tmp/never",
        ],
        vec!["sweep", "--grid", fs, "--out", "/tmp/never"],
        vec![
            "sweep",
            "--unit",
            "bar",
            "--grid",
            fs,
            "--out",
            "/tmp/never",
        ],
        vec!["sim", "--config", "configs/default.yaml", "--workload", fs],
        vec!["cosim", "--config", "configs/default.yaml", "--verilog", fs],
        vec![
            "cosim",
            "--unit",
            "mbarrier",
            "--config",
            mbar,
            "--verilog",
            fs,
        ],
        vec![
            "cosim",
            "--unit",
            "bar",
            "--config",
            "configs/bar_unit/default.yaml",
            "--verilog",
            fs,
        ],
        vec!["synth", "--config", "configs/default.yaml", "--verilog", fs],
        vec![
            "formal",
            "--unit",
            "mbarrier",
            "--config",
            mbar,
            "--verilog",
            fs,
        ],
    ];
    for args in &cases {
        let o = membar_within(20, args);
        assert_input_error(&o, &[fs, "FIFO"], &format!("{args:?}"));
    }
}

/// Item 8: a device (`/dev/zero`: endless) is refused without reading it,
/// for programs and for Verilog alike.
#[test]
fn endless_inputs_are_refused_without_reading_them() {
    let mbar = "verilog_out/mbarrier_unit/default/config.yaml";
    let cases: Vec<Vec<&str>> = vec![
        vec!["ptx", "--lower", "/dev/zero"],
        vec!["run", "/dev/zero"],
        vec![
            "cosim",
            "--config",
            "configs/default.yaml",
            "--verilog",
            "/dev/zero",
        ],
        vec![
            "cosim",
            "--unit",
            "mbarrier",
            "--config",
            mbar,
            "--verilog",
            "/dev/zero",
        ],
        vec![
            "synth",
            "--config",
            "configs/default.yaml",
            "--verilog",
            "/dev/zero",
        ],
    ];
    for args in &cases {
        let o = membar_within(20, args);
        assert_input_error(&o, &["/dev/zero", "device"], &format!("{args:?}"));
    }
}

/// Item 8: a program over 4 MiB and a Verilog file over 64 MiB are refused
/// naming the file and the limit.
#[test]
fn oversized_inputs_are_refused_naming_the_limit() {
    let dir = tmp_dir("bounds-big");
    let ptx = dir.join("big.ptx");
    let head = std::fs::read_to_string(root().join("examples/membar_flag.ptx")).unwrap();
    let pad = "// padding padding padding padding padding padding padding padding\n";
    let mut body = head.clone();
    while body.len() <= 4 << 20 {
        body.push_str(pad);
    }
    std::fs::write(&ptx, &body).unwrap();
    let ps = ptx.to_str().unwrap();
    for args in [vec!["ptx", "--lower", ps], vec!["run", ps]] {
        let o = membar_within(30, &args);
        assert_input_error(&o, &[ps, "4 MiB"], &format!("{args:?}"));
    }
    // 65 MiB of Verilog (a sparse file: nothing is written to disk).
    let v = dir.join("big.v");
    let f = std::fs::File::create(&v).unwrap();
    f.set_len(65 << 20).unwrap();
    let vs = v.to_str().unwrap();
    let mbar = "verilog_out/mbarrier_unit/default/config.yaml";
    for args in [
        vec!["cosim", "--config", "configs/default.yaml", "--verilog", vs],
        vec![
            "cosim",
            "--unit",
            "mbarrier",
            "--config",
            mbar,
            "--verilog",
            vs,
        ],
    ] {
        let o = membar_within(30, &args);
        assert_input_error(&o, &[vs, "64 MiB"], &format!("{args:?}"));
    }
}

/// Item 9: `sweep --unit` caps its points (20,000, as the membar sweep)
/// before building any: a small grid of 10^9 points is exit 2 at once.
#[test]
fn unit_sweep_caps_its_points() {
    let dir = tmp_dir("bounds-points");
    let list = |v: &str| vec![v; 1000].join(", ");
    let grid = dir.join("huge.yaml");
    std::fs::write(
        &grid,
        format!(
            "config: {{warps: [{}], cta_slots: [{}]}}\nworkload: {{iterations: [{}]}}\n",
            list("8"),
            list("1"),
            list("2")
        ),
    )
    .unwrap();
    let gs = grid.to_str().unwrap();
    let out = dir.join("out");
    let o = membar_within(
        20,
        &[
            "sweep",
            "--unit",
            "bar",
            "--grid",
            gs,
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_input_error(&o, &[gs, "1000000000 points", "20000"], "huge grid");
    assert!(!out.join("huge.csv").exists());
}

/// Item 9: `run --cycles` takes 1..=10^12 like every other command, and
/// with `--trace` at most 10^6 (a trace is about 100 bytes a cycle).
#[test]
fn run_cycles_and_trace_are_bounded() {
    for n in ["18446744073709551615", "1000000000001", "0"] {
        let o = membar_within(20, &["run", "examples/membar_flag.ptx", "--cycles", n]);
        assert_input_error(&o, &["--cycles", n, "1000000000000"], n);
    }
    let dir = tmp_dir("bounds-trace");
    let t = dir.join("t.vcd");
    let o = membar_within(
        20,
        &[
            "run",
            "examples/membar_flag.ptx",
            "--cycles",
            "2000000",
            "--trace",
            t.to_str().unwrap(),
        ],
    );
    assert_input_error(&o, &["--cycles 2000000", "--trace", "1000000"], "trace cap");
    assert!(!t.exists());
    // Within the caps it runs.
    let o = membar_within(
        60,
        &[
            "run",
            "examples/membar_flag.ptx",
            "--cycles",
            "1000000000000",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

/// Item 9: `litmus --runs` has a documented range, 1..=10^7.
#[test]
fn litmus_runs_has_a_range() {
    for n in ["18446744073709551615", "10000001", "0"] {
        let o = membar_within(20, &["litmus", "litmus/mp_gpu.ptx", "--runs", n]);
        assert_input_error(&o, &["--runs", n, "10000000"], n);
    }
}

/// Item 11: `synth --freq` is a finite clock target in 1..=1000 MHz, and
/// `synth|formal --timeout` at least 1 second: exit 2 naming flag, value and
/// range, before any tool runs.
#[test]
fn synth_freq_and_timeouts_are_validated() {
    let bar = "configs/bar_unit/w8_c1.yaml";
    for f in ["nan", "inf", "-5", "0", "1e300", "fast"] {
        let arg = format!("--freq={f}");
        for unit in ["membar", "bar"] {
            let cfg = if unit == "bar" {
                bar
            } else {
                "configs/default.yaml"
            };
            let o = membar_within(
                60,
                &[
                    "synth", "--unit", unit, "--config", cfg, "--target", "generic", &arg,
                ],
            );
            assert_input_error(&o, &["--freq", f, "1..=1000"], &arg);
        }
    }
    let o = membar_within(
        60,
        &[
            "synth",
            "--unit",
            "bar",
            "--config",
            bar,
            "--target",
            "generic",
            "--timeout",
            "0",
        ],
    );
    assert_input_error(&o, &["--timeout", "0", "1..="], "synth --timeout 0");
    let o = membar_within(
        60,
        &["formal", "--unit", "bar", "--config", bar, "--timeout", "0"],
    );
    assert_input_error(&o, &["--timeout", "0", "1..="], "formal --timeout 0");
}

/// Item 12: a unit grid's value is a scalar of the key's type; a string
/// cannot add keys to the configuration (it used to be pasted into YAML
/// text: `"8\ncta_slots: 3"` ran with cta_slots = 3).
#[test]
fn unit_grid_values_cannot_inject_keys() {
    let dir = tmp_dir("bounds-inject");
    let out = dir.join("out");
    for (name, body, key, value) in [
        (
            "inject",
            "config: {warps: [\"8\\ncta_slots: 3\"]}\n",
            "config.warps",
            "\"8\\ncta_slots: 3\"",
        ),
        (
            "list",
            "config: {warps: [[8, 16]]}\n",
            "config.warps",
            "a list",
        ),
        (
            "mapping",
            "config: {warps: [{cta_slots: 3}]}\n",
            "config.warps",
            "a mapping",
        ),
        (
            "scenario",
            "config: {warps: [8]}\nworkload: {scenario: [\"syncthreads_loop\\nwarps: 64\"]}\n",
            "workload.scenario",
            "syncthreads_loop",
        ),
    ] {
        let g = dir.join(format!("{name}.yaml"));
        std::fs::write(&g, body).unwrap();
        let gs = g.to_str().unwrap();
        let o = membar_within(
            30,
            &[
                "sweep",
                "--unit",
                "bar",
                "--grid",
                gs,
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_input_error(&o, &[gs, key, value], name);
    }
    // A plain grid still runs, and its values reach the configuration.
    let g = dir.join("ok.yaml");
    std::fs::write(
        &g,
        "config: {warps: [8], cta_slots: [2]}\nworkload: {iterations: [2]}\n",
    )
    .unwrap();
    let o = membar_within(
        60,
        &[
            "sweep",
            "--unit",
            "bar",
            "--grid",
            g.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let csv = std::fs::read_to_string(out.join("ok.csv")).unwrap();
    assert!(csv.contains("bar,1,8,2,"), "{csv}");
}

/// Item 9: a long `run` says how far it is on stderr (every 2 s).
#[test]
fn long_runs_report_progress_on_stderr() {
    let dir = tmp_dir("bounds-progress");
    let p = dir.join("spin.ptx");
    std::fs::write(
        &p,
        "---\nctas: 1\nwarps:\n  - {cta: 0, warp: 0, program: spin}\n---\n.version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry spin\n{\n    .reg .b32 %r<4>;\n    .reg .b64 %rd<4>;\n    .reg .pred %p<2>;\n    mov.u64 %rd1, 8192;\nWAIT:\n    ld.volatile.global.u32 %r1, [%rd1];\n    setp.eq.u32 %p0, %r1, 0;\n    @%p0 bra WAIT;\n    ret;\n}\n",
    )
    .unwrap();
    // About 2 M cycles/s here: 15 s, long enough for progress lines on a
    // machine several times faster too.
    let o = membar_within(120, &["run", p.to_str().unwrap(), "--cycles", "30000000"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        err.contains("membar run: cycle ") && err.contains("of at most 30000000"),
        "{err}"
    );
}

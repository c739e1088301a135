//! `membar run MODULE.ptx --launch L.yaml`: an unmodified nvcc module runs
//! to its checked outputs (exit 0), a wrong expectation exits 1 naming the
//! element, a bad launch file exits 2 naming the file and key, and a module
//! without a launch file is told how to run it.

mod common;
use common::{membar, stderr, stdout, tmp_dir};

#[test]
fn a_reference_kernel_runs_to_its_checked_outputs() {
    let o = membar(&[
        "run",
        "kernels/reference/k1_block_reduce_noprof.ptx",
        "--launch",
        "kernels/reference/k1_block_reduce_noprof.launch.yaml",
    ]);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{s}{}", stderr(&o));
    assert!(s.contains("out: 16 values: PASS"), "{s}");
    assert!(s.contains("M warp-instructions/s"), "{s}");
}

#[test]
fn a_wrong_expectation_exits_1_and_a_bad_launch_file_exits_2() {
    let d = tmp_dir("kernel_launch");
    let src = std::fs::read_to_string(
        common::root().join("kernels/reference/k1_block_reduce_noprof.launch.yaml"),
    )
    .unwrap();
    let r = common::root().join("kernels/reference");
    let wrong = src
        .replace(
            "file: k1_block_reduce.in.txt",
            &format!("file: {}/k1_block_reduce.in.txt", r.display()),
        )
        .replace(
            "{buffer: out, file: k1_block_reduce.out.txt}",
            "{buffer: out, values: [511337, 486]}",
        );
    let l = d.join("wrong.yaml");
    std::fs::write(&l, wrong).unwrap();
    let o = membar(&[
        "run",
        "kernels/reference/k1_block_reduce_noprof.ptx",
        "--launch",
        l.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("[1]: expected 486, got 485"),
        "{}",
        stdout(&o)
    );
    let bad = d.join("bad.yaml");
    std::fs::write(
        &bad,
        "entry: x\ngrid: [1, 1, 1]\nblock: [32, 1, 1]\nthreads: 4\n",
    )
    .unwrap();
    let o = membar(&[
        "run",
        "kernels/reference/k1_block_reduce_noprof.ptx",
        "--launch",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad.yaml") && stderr(&o).contains("threads"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_module_without_a_launch_file_is_told_about_launch() {
    let o = membar(&["run", "kernels/reference/k3_named_barrier_ws_noprof.ptx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--launch L.yaml"), "{}", stderr(&o));
}

#[test]
fn bench_kernel_all_runs_every_shipped_kernel_and_prints_its_rates() {
    let o = membar(&["bench", "--kernel", "all"]);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{s}{}", stderr(&o));
    let rows: Vec<&str> = s
        .lines()
        .filter(|l| {
            (l.starts_with("| o") || l.starts_with("| k") || l.starts_with("| timing/o"))
                && !l.starts_with("| kernel")
        })
        .collect();
    // 8 reference builds, 9 own kernels and their 9 timed copies.
    assert_eq!(rows.len(), 26, "{s}");
    assert_eq!(
        rows.iter().filter(|r| r.starts_with("| timing/")).count(),
        9,
        "{s}"
    );
    assert!(rows.iter().all(|r| r.contains("| PASS |")), "{s}");
    assert!(s.contains("| all 26 | 0 failed |"), "{s}");
    // --unit, --config or --workload with --kernel: a usage error.
    let o = membar(&["bench", "--kernel", "all", "--unit", "bar"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = membar(&["bench", "--kernel", "kernels/own/o1_bar_red_block.ptx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("X.launch.yaml"), "{}", stderr(&o));
}

#[test]
fn a_kernel_run_prints_its_synchronisation_sites_and_writes_a_trace() {
    let d = tmp_dir("kernel_trace");
    let t = d.join("k3.json");
    let o = membar(&[
        "run",
        "kernels/reference/k3_named_barrier_ws_noprof.ptx",
        "--launch",
        "kernels/reference/k3_named_barrier_ws_noprof.launch.yaml",
        "--trace",
        t.to_str().unwrap(),
    ]);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{s}{}", stderr(&o));
    assert!(s.contains("synchronisation sites"), "{s}");
    // Every named-barrier site of k3 has waits; bar.sync 0 is one of them.
    let bar_rows = s
        .lines()
        .filter(|l| l.contains(" bar ") && l.contains("bar.sync"))
        .count();
    assert!(bar_rows >= 4, "{s}");
    let json = std::fs::read_to_string(&t).unwrap();
    assert!(json.contains("cta1.w5"), "the trace names every warp");
    // A second run does not overwrite a file that is not its trace.
    let foreign = d.join("mine.json");
    std::fs::write(&foreign, "{\"mine\": 1}").unwrap();
    let o = membar(&[
        "run",
        "kernels/reference/k3_named_barrier_ws_noprof.ptx",
        "--launch",
        "kernels/reference/k3_named_barrier_ws_noprof.launch.yaml",
        "--trace",
        foreign.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&foreign).unwrap(), "{\"mine\": 1}");
}

#[test]
fn a_small_kernel_runs_on_the_sm_sync_verilog_in_lockstep() {
    // o1: bar.sync and bar.red of 2 CTAs x 8 warps through the Verilated
    // sm_sync top of every SM, each checked against its model every cycle.
    let o = membar(&[
        "run",
        "kernels/own/o1_bar_red_block.ptx",
        "--launch",
        "kernels/own/o1_bar_red_block.launch.yaml",
        "--on",
        "verilog",
    ]);
    let s = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{s}{}", stderr(&o));
    assert!(s.contains("out: 8 values: PASS"), "{s}");
}

#[test]
fn a_preset_run_locksteps_its_twin_in_the_presets_unit_configuration() {
    // o8: st.release.gpu / ld.acquire.gpu flags between 2 CTAs. Under a
    // preset the membar unit waits for GPU-scope barrier acks (gl_bar_ack,
    // as configs/h100.yaml has it); the rust-hdl twin must run the same
    // configuration, or the lockstep stops at the first differing port.
    for preset in ["h100", "h200"] {
        let o = membar(&[
            "run",
            "kernels/own/o8_flag_release_acquire.ptx",
            "--launch",
            "kernels/own/o8_flag_release_acquire.launch.yaml",
            "--preset",
            preset,
            "--on",
            "rtl",
        ]);
        let s = stdout(&o);
        assert_eq!(o.status.code(), Some(0), "{preset}: {s}{}", stderr(&o));
        assert!(s.contains("out: 65 values: PASS"), "{preset}: {s}");
    }
}

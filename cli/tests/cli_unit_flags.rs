//! Flags per unit, as users meet them: a flag a unit's command does not
//! honour is refused (exit 2, naming the flag and the unit), never silently
//! ignored; `cosim --unit bar|cluster --waves` writes the waveform;
//! `formal --keep` takes a relative directory; `formal --unit U --verilog F`
//! refuses a Verilog whose ports are not the `--config`'s (exit 2, as cosim
//! does); unit sweeps warn about an axis that changes nothing.

mod common;
use common::{membar, stderr, text};

const BAR: &str = "configs/bar_unit/w8_c1.yaml";
const CLUSTER: &str = "verilog_out/cluster_barrier/n2/config.yaml";

fn refused(args: &[&str], flag: &str, unit: &str) {
    let o = membar(args);
    let e = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
    // The flag as given (with its value), the command and the unit.
    let pos = args.iter().position(|a| *a == flag).unwrap();
    let given = match args.get(pos + 1) {
        Some(v) if !v.starts_with("--") => format!("{flag} {v}"),
        _ => flag.to_string(),
    };
    assert!(
        e.contains(&format!(
            "{given} is not supported with `{} --unit {unit}`",
            args[0]
        )),
        "{args:?}: {e}"
    );
    assert!(!e.contains("panicked"), "{e}");
}

#[test]
fn flags_a_unit_does_not_honour_are_refused_with_exit_2() {
    let d = common::tmp_dir("flags-refused");
    let vcd = d.join("t.vcd");
    let vcd = vcd.to_str().unwrap();
    let out = d.join("o");
    let out = out.to_str().unwrap();
    for (args, flag, unit) in [
        (
            vec![
                "cosim",
                "--unit",
                "bar",
                "--config",
                BAR,
                "--workload",
                "/etc/passwd",
            ],
            "--workload",
            "bar",
        ),
        (
            vec![
                "cosim",
                "--unit",
                "cluster",
                "--config",
                CLUSTER,
                "--workload",
                "x",
            ],
            "--workload",
            "cluster",
        ),
        (
            vec!["sim", "--unit", "bar", "--config", BAR, "--trace", vcd],
            "--trace",
            "bar",
        ),
        (
            vec![
                "sim", "--unit", "cluster", "--config", CLUSTER, "--trace", vcd,
            ],
            "--trace",
            "cluster",
        ),
        (
            vec![
                "sweep",
                "--unit",
                "bar",
                "--grid",
                "grids/bar_sweep.yaml",
                "--out",
                out,
                "--jobs",
                "2",
            ],
            "--jobs",
            "bar",
        ),
        (
            vec![
                "sweep",
                "--unit",
                "cluster",
                "--grid",
                "grids/cluster_sweep.yaml",
                "--out",
                out,
                "--cycles",
                "100",
            ],
            "--cycles",
            "cluster",
        ),
        (
            vec![
                "sweep",
                "--unit",
                "mbarrier",
                "--grid",
                "grids/mbarrier_sweep.yaml",
                "--out",
                out,
                "--no-check",
            ],
            "--no-check",
            "mbarrier",
        ),
        (
            vec![
                "calibrate",
                "--unit",
                "bar",
                "--preset",
                "configs/h100.yaml",
            ],
            "--preset",
            "bar",
        ),
        (
            vec!["calibrate", "--unit", "bar", "--data", "data/calibration"],
            "--data",
            "bar",
        ),
        (vec!["calibrate", "--unit", "bar", "--fit"], "--fit", "bar"),
        (
            vec!["calibrate", "--unit", "mbarrier", "--seed", "2"],
            "--seed",
            "mbarrier",
        ),
        (
            vec!["calibrate", "--unit", "bar", "--jobs", "2"],
            "--jobs",
            "bar",
        ),
    ] {
        refused(&args, flag, unit);
    }
    // Nothing was written for a refused run.
    assert!(!std::path::Path::new(vcd).exists());
    assert!(!std::path::Path::new(out).exists());
}

#[test]
fn cosim_of_every_unit_writes_the_waveform_and_keeps_a_users_file() {
    let d = common::tmp_dir("flags-waves");
    for (unit, config, file) in [
        ("bar", BAR, "bar.vcd"),
        ("cluster", CLUSTER, "cluster.vcd"),
        (
            "mbarrier",
            "verilog_out/mbarrier_unit/w8_m8_c20_t20_l8_f1/config.yaml",
            "mbarrier.vcd",
        ),
        (
            "async_groups",
            "verilog_out/async_groups/w8_g2_o1/config.yaml",
            "async_groups.vcd",
        ),
        ("sm_sync", "configs/sm_sync_small.yaml", "sm_sync.vcd"),
    ] {
        let w = d.join(file);
        let o = membar(&[
            "cosim",
            "--unit",
            unit,
            "--config",
            config,
            "--cycles",
            "300",
            "--waves",
            w.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{unit}: {}", text(&o));
        let v = std::fs::read_to_string(&w).unwrap_or_else(|e| panic!("{unit}: {e}: {}", text(&o)));
        assert!(v.contains("$enddefinitions"), "{unit}: not a VCD");
        // A user's file is never replaced.
        let mine = d.join(format!("mine-{file}"));
        std::fs::write(&mine, "my notes").unwrap();
        let o = membar(&[
            "cosim",
            "--unit",
            unit,
            "--config",
            config,
            "--cycles",
            "300",
            "--waves",
            mine.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{unit}: {}", text(&o));
        assert_eq!(std::fs::read_to_string(&mine).unwrap(), "my notes");
    }
}

const CLUSTER_N2: [&str; 8] = [
    "formal",
    "--unit",
    "cluster",
    "--config",
    CLUSTER,
    "--verilog",
    "verilog_out/cluster_barrier/n2/cluster_barrier.v",
    "--props",
];

#[test]
fn formal_keep_takes_a_relative_directory() {
    // Relative to the workspace root, where the test runs membar.
    let rel = format!("target/membar-test-keep-{}", std::process::id());
    let abs = common::root().join(&rel);
    let _ = std::fs::remove_dir_all(&abs);
    let mut args = CLUSTER_N2.to_vec();
    args.extend(["c1", "--keep", &rel]);
    let o = membar(&args);
    let out = text(&o);
    let _ = std::fs::remove_dir_all(&abs);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("PROVEN (unbounded)"), "{out}");
    assert!(!out.contains("abc-wrapper.sh"), "{out}");
}

#[test]
fn formal_refuses_a_verilog_of_another_configuration_with_exit_2() {
    for (unit, config, verilog, props, module) in [
        (
            "cluster",
            CLUSTER,
            "verilog_out/cluster_barrier/n1/cluster_barrier.v",
            "c1",
            "cluster_barrier",
        ),
        (
            "bar",
            "verilog_out/bar_unit/w8_c1/config.yaml",
            "verilog_out/bar_unit/w16_c4/bar_unit.v",
            "b2",
            "bar_unit",
        ),
        (
            "async_groups",
            "verilog_out/async_groups/w8_g2_o1/config.yaml",
            "verilog_out/async_groups/w16_g4_o2/async_groups.v",
            "g3",
            "async_groups",
        ),
    ] {
        let o = membar(&[
            "formal",
            "--unit",
            unit,
            "--config",
            config,
            "--verilog",
            verilog,
            "--props",
            props,
        ]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{unit}: {}", text(&o));
        assert!(
            e.contains(&format!("--verilog {verilog}"))
                && e.contains(&format!("module {module} does not have the ports")),
            "{unit}: {e}"
        );
        assert!(!text(&o).contains("PROVEN") && !text(&o).contains("COUNTEREXAMPLE"));
    }
}

#[test]
fn unit_sweeps_warn_about_axes_that_change_nothing() {
    let d = common::tmp_dir("flags-flat");
    for (unit, grid, flat, moving) in [
        (
            "bar",
            "grids/bar_sweep.yaml",
            &["config.cta_slots"][..],
            &["config.warps", "workload.scenario"][..],
        ),
        (
            "mbarrier",
            "grids/mbarrier_sweep.yaml",
            &["config.warps"][..],
            &["workload.scenario"][..],
        ),
        (
            "async_groups",
            "grids/async_groups_sweep.yaml",
            &["config.group_depth", "workload.load_latency_l2"][..],
            &["workload.store_latency"][..],
        ),
    ] {
        let out = d.join(unit);
        let o = membar(&[
            "sweep",
            "--unit",
            unit,
            "--grid",
            grid,
            "--out",
            out.to_str().unwrap(),
        ]);
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{unit}: {}", text(&o));
        for a in flat {
            assert!(
                e.lines().any(|l| l.starts_with("warning: axis `")
                    && l.contains(&format!("`{a}`"))
                    && l.contains("identical metrics")),
                "{unit}: no warning for {a}: {e}"
            );
        }
        for a in moving {
            assert!(
                !e.contains(&format!("`{a}`")),
                "{unit}: {a} changes the metrics: {e}"
            );
        }
    }
}

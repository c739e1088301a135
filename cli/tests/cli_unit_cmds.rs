//! `membar bench|soak|sweep --unit bar|cluster|mbarrier|async_groups`: each
//! command on a small configuration of each unit, bad flags exit 2 with a message, and a soak
//! on an injected Verilog defect fails with a replay command that
//! reproduces the failure.

mod common;
use common::{membar, text};

#[test]
fn bench_each_unit_prints_model_verilator_and_lockstep_rates() {
    for (unit, config) in [
        ("bar", "configs/bar_unit/w8_c1.yaml"),
        ("cluster", "configs/cluster_barrier/n2.yaml"),
        (
            "mbarrier",
            "verilog_out/mbarrier_unit/w8_m8_c20_t20_l8_f1/config.yaml",
        ),
        (
            "async_groups",
            "verilog_out/async_groups/w8_g2_o1/config.yaml",
        ),
    ] {
        let o = membar(&[
            "bench", "--unit", unit, "--config", config, "--cycles", "20000",
        ]);
        let t = text(&o);
        assert!(o.status.success(), "{t}");
        for line in [
            "model step",
            "model loop",
            "verilator step",
            "lockstep loop",
        ] {
            assert!(t.contains(line), "bench --unit {unit}: no `{line}` in\n{t}");
        }
        assert!(t.contains("x the model step"), "{t}");
    }
}

#[test]
fn bench_bad_unit_or_missing_config_is_exit_2() {
    let o = membar(&["bench", "--unit", "bogus"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("bogus"), "{}", text(&o));
    let o = membar(&[
        "bench",
        "--unit",
        "cluster",
        "--config",
        "configs/cluster_barrier/n2.yaml",
        "--workload",
        "vc_stream",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--workload vc_stream"), "{}", text(&o));
    let o = membar(&["bench", "--unit", "bar"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--config: required with --unit bar"),
        "{}",
        text(&o)
    );
    let o = membar(&[
        "bench",
        "--unit",
        "bar",
        "--config",
        "configs/cluster_barrier/n2.yaml",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn soak_each_unit_passes_in_chunks_with_coverage() {
    for (unit, config) in [
        ("bar", "configs/bar_unit/w8_c1.yaml"),
        ("cluster", "configs/cluster_barrier/n2.yaml"),
        (
            "mbarrier",
            "verilog_out/mbarrier_unit/w8_m8_c20_t20_l8_f1/config.yaml",
        ),
        (
            "async_groups",
            "verilog_out/async_groups/w8_g2_o1/config.yaml",
        ),
    ] {
        let o = membar(&[
            "soak", "--unit", unit, "--config", config, "--cycles", "30000", "--chunk", "10000",
            "--seed", "3",
        ]);
        let t = text(&o);
        assert!(o.status.success(), "soak --unit {unit}: {t}");
        assert!(t.contains("30000 in 3 chunks"), "{t}");
        assert!(t.contains("mismatches             0"), "{t}");
    }
    let o = membar(&[
        "soak",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/w8_c1.yaml",
        "--chunk",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--chunk 10"), "{}", text(&o));
    let o = membar(&["soak", "--unit", "cluster"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("--config: required with --unit cluster"),
        "{}",
        text(&o)
    );
}

#[test]
fn soak_on_defective_verilog_fails_and_its_replay_reproduces_it() {
    let good = std::fs::read_to_string(
        common::root().join("verilog_out/cluster_barrier/n2/cluster_barrier.v"),
    )
    .unwrap();
    // Injected defect: rank 1's error bit is never reported.
    let bad = good.replacen("err_rank = bad;", "err_rank = bad & 2'b01;", 1);
    assert_ne!(good, bad, "the defect must apply");
    let dir = common::tmp_dir("unit-soak-defect");
    let v = dir.join("cluster_barrier.v");
    std::fs::write(&v, bad).unwrap();
    let o = membar(&[
        "soak",
        "--unit",
        "cluster",
        "--config",
        "configs/cluster_barrier/n2.yaml",
        "--verilog",
        v.to_str().unwrap(),
        "--cycles",
        "40000",
        "--chunk",
        "10000",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "the defect must be found:\n{t}");
    assert!(t.contains("err_rank"), "{t}");
    let replay = t
        .lines()
        .find_map(|l| l.strip_prefix("MISMATCH in "))
        .unwrap_or_else(|| panic!("no replay command in\n{t}"));
    let cmd = replay.split(" (chunk").next().unwrap();
    let args: Vec<&str> = cmd.split_whitespace().skip(1).collect();
    let o2 = membar(&args);
    let t2 = text(&o2);
    assert_eq!(
        o2.status.code(),
        Some(1),
        "replay `{cmd}` must fail too:\n{t2}"
    );
    let first = |s: &str| {
        s.lines()
            .find(|l| l.starts_with("MISMATCH at"))
            .map(String::from)
    };
    assert_eq!(
        first(&t),
        first(&t2),
        "the replay must hit the same mismatch"
    );
}

fn sweep_csv(unit: &str, grid: &str) -> String {
    let out = common::tmp_dir(&format!("unit-sweep-{unit}"));
    let o = membar(&[
        "sweep",
        "--unit",
        unit,
        "--grid",
        grid,
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let stem = std::path::Path::new(grid)
        .file_stem()
        .unwrap()
        .to_str()
        .unwrap();
    // The rows, without the CSV's last line (its `# written by membar` marker).
    let csv = std::fs::read_to_string(out.join(format!("{stem}.csv"))).unwrap();
    common::without_marker(&csv).to_string()
}

#[test]
fn sweep_each_unit_writes_a_row_per_point_with_its_metrics() {
    let csv = sweep_csv("bar", "grids/bar_sweep.yaml");
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].contains("releases_per_kcycle,errors,mean_resume_interval"),
        "{csv}"
    );
    assert_eq!(lines.len(), 1 + 3 * 2 * 3, "{csv}");
    assert!(
        lines[1..].iter().all(|l| l.ends_with(",true")),
        "every program finishes:\n{csv}"
    );
    let csv = sweep_csv("cluster", "grids/cluster_sweep.yaml");
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 4 * 2 * 2, "{csv}");
    // Columns: unit,seed,ranks,warps_per_cta,release,iterations,cycles,...
    for pair in rows.chunks(2) {
        assert_eq!((pair[0][4], pair[1][4]), ("false", "true"), "{csv}");
        let cyc = |r: &Vec<&str>| r[6].parse::<u64>().unwrap();
        assert!(
            cyc(&pair[1]) > cyc(&pair[0]),
            "the release fence costs cycles:\n{csv}"
        );
    }
}

#[test]
fn sweep_bad_grid_key_value_or_unit_is_exit_2_naming_them() {
    let dir = common::tmp_dir("unit-sweep-bad");
    let cases = [
        (
            "unit: bar\nconfig: { wraps: [8] }\n",
            "config.wraps",
            "warps, cta_slots",
        ),
        (
            "unit: bar\nworkload: { scenario: [nope] }\n",
            "workload.scenario",
            "syncthreads_loop",
        ),
        ("unit: bar\nconfig: { warps: [999] }\n", "warps", "999"),
        ("unit: cluster\n", "unit", "bar (the --unit of this run)"),
        (
            "unit: bar\nspeed: 3\n",
            "speed",
            "unit, seed, config, workload",
        ),
    ];
    for (k, (grid, key, allowed)) in cases.iter().enumerate() {
        let g = dir.join(format!("g{k}.yaml"));
        std::fs::write(&g, grid).unwrap();
        let o = membar(&[
            "sweep",
            "--unit",
            "bar",
            "--grid",
            g.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{grid}: {t}");
        assert!(
            t.contains(&format!("g{k}.yaml")) && t.contains(key) && t.contains(allowed),
            "{grid}: {t}"
        );
    }
    // A file that is not a unit sweep CSV is never replaced.
    std::fs::write(dir.join("bar_sweep.csv"), "mine\n").unwrap();
    let o = membar(&[
        "sweep",
        "--unit",
        "bar",
        "--grid",
        "grids/bar_sweep.yaml",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(dir.join("bar_sweep.csv")).unwrap(),
        "mine\n"
    );
    let o = membar(&[
        "sweep",
        "--unit",
        "mbarrier",
        "--grid",
        "grids/bar_sweep.yaml",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

/// Column `name` of every row of a CSV.
fn column<'a>(csv: &'a str, name: &str) -> Vec<&'a str> {
    let mut lines = csv.lines();
    let k = lines
        .next()
        .unwrap()
        .split(',')
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name} in\n{csv}"));
    lines.map(|l| l.split(',').nth(k).unwrap()).collect()
}

#[test]
fn sweep_mbarrier_and_async_groups_latencies_move_their_metrics() {
    let csv = sweep_csv("mbarrier", "grids/mbarrier_sweep.yaml");
    assert_eq!(csv.lines().count(), 1 + 16, "{csv}");
    let cycles: Vec<u64> = column(&csv, "cycles")
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    // load_latency_l2 is the last axis: [20, 200] alternate.
    for p in cycles.chunks(2) {
        assert!(p[1] > p[0], "a slower L2 must lengthen the kernel:\n{csv}");
    }
    assert!(
        column(&csv, "finished").iter().all(|f| *f == "true"),
        "{csv}"
    );
    let csv = sweep_csv("async_groups", "grids/async_groups_sweep.yaml");
    let stall: Vec<u64> = column(&csv, "wait_group_stall_warp_cycles")
        .iter()
        .map(|c| c.parse().unwrap())
        .collect();
    // store_latency is the last axis: [10, 100] alternate.
    for p in stall.chunks(2) {
        assert!(
            p[1] > p[0],
            "slower stores must stall wait_group longer:\n{csv}"
        );
    }
    let dir = common::tmp_dir("unit-sweep-bad-mbar");
    let g = dir.join("g.yaml");
    std::fs::write(&g, "workload: { store_latency: [0] }\n").unwrap();
    let o = membar(&[
        "sweep",
        "--unit",
        "async_groups",
        "--grid",
        g.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("workload.store_latency") && text(&o).contains("1..=100000"),
        "{}",
        text(&o)
    );
}

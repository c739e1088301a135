//! `membar bench|soak|sweep --unit bar|cluster`: each command on a small
//! configuration of each unit, bad flags exit 2 with a message, and a soak
//! on an injected Verilog defect fails with a replay command that
//! reproduces the failure.

mod common;
use common::{membar, text};

#[test]
fn bench_each_unit_prints_model_verilator_and_lockstep_rates() {
    for (unit, config) in [
        ("bar", "configs/bar_unit/w8_c1.yaml"),
        ("cluster", "configs/cluster_barrier/n2.yaml"),
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

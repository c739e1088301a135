//! End-to-end tests of `membar --unit bar`: `generate` (reproduces the
//! checked-in Verilog, never overwrites a foreign file, rejects a bad
//! configuration with exit 2), `cosim` (PASS on the shipped Verilog, exit 1
//! on a broken one), `sim` (random and a named scenario, a bad workload is
//! exit 2) and `synth` (the shared flow with top `bar_unit`).

mod common;
use common::{membar, root, text, tmp_dir as tmp};

#[test]
fn generate_reproduces_the_checked_in_verilog_and_never_clobbers() {
    let out = tmp("bar-gen");
    let args = [
        "generate",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/default.yaml",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = membar(&args);
    assert!(o.status.success(), "{}", text(&o));
    let emitted = std::fs::read_to_string(out.join("bar_unit.v")).unwrap();
    let checked_in =
        std::fs::read_to_string(root().join("verilog_out/bar_unit/default/bar_unit.v")).unwrap();
    assert!(
        emitted == checked_in,
        "generate --unit bar must reproduce verilog_out/bar_unit/default"
    );
    // A hand-written file is not overwritten.
    let out2 = tmp("bar-gen-clobber");
    std::fs::write(out2.join("bar_unit.v"), "module mine; endmodule\n").unwrap();
    let o = membar(&[
        "generate",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/w8_c1.yaml",
        "--out",
        out2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(out2.join("bar_unit.v")).unwrap(),
        "module mine; endmodule\n"
    );
}

#[test]
fn bad_bar_configuration_is_exit_2_naming_file_key_value() {
    let dir = tmp("bar-badcfg");
    let cfg = dir.join("bad.yaml");
    std::fs::write(&cfg, "warps: 12\n").unwrap();
    let o = membar(&[
        "generate",
        "--unit",
        "bar",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("bad.yaml")
            && t.contains("warps")
            && t.contains("12")
            && t.contains("8, 16, 32, 64"),
        "{t}"
    );
    // Legal for the model but beyond the contract's slot range for 16
    // warps: a clear error naming the rule, not a panic.
    std::fs::write(&cfg, "warps: 16\ncta_slots: 17\n").unwrap();
    let o = membar(&[
        "generate",
        "--unit",
        "bar",
        "--config",
        cfg.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(
        t.contains("cta_slots") && t.contains("17") && t.contains("1..=warps"),
        "{t}"
    );
}

#[test]
fn cosim_passes_on_shipped_verilog_and_fails_on_a_broken_one() {
    let v = root().join("verilog_out/bar_unit/w8_c1/bar_unit.v");
    let o = membar(&[
        "cosim",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/w8_c1.yaml",
        "--verilog",
        v.to_str().unwrap(),
        "--cycles",
        "20000",
        "--seed",
        "4",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("20000 cycles, seed 4: PASS") && t.contains("cycles/s"),
        "{t}"
    );
    // Inverted compare: the cosim reports the mismatch with port, cycle and replay; exit 1.
    let bad = tmp("bar-cosim-bad").join("bar_unit.v");
    let text_v = std::fs::read_to_string(&v).unwrap();
    // (The count RAM's completion compare on its RAM word: `count_ram.rs`.)
    let good = "reach_ram = mem__ram_data >= target_m1;";
    assert_eq!(
        text_v.matches(good).count(),
        1,
        "the emitted text changed: update the mutation"
    );
    std::fs::write(
        &bad,
        text_v.replace(good, "reach_ram = mem__ram_data > target_m1;"),
    )
    .unwrap();
    let o = membar(&[
        "cosim",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/w8_c1.yaml",
        "--verilog",
        bad.to_str().unwrap(),
        "--cycles",
        "20000",
        "--seed",
        "4",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(1), "{t}");
    assert!(
        t.contains("MISMATCH at cycle")
            && t.contains("port rel_valid")
            && t.contains("replay: membar cosim --unit bar"),
        "{t}"
    );
}

#[test]
fn sim_random_and_scenario_and_bad_workload() {
    let o = membar(&[
        "sim",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/default.yaml",
        "--cycles",
        "20000",
        "--coverage",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("workload random")
            && t.contains("20000 cycles")
            && t.contains("PASS")
            && t.contains("id[15]"),
        "{t}"
    );
    let o = membar(&[
        "sim",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/default.yaml",
        "--workload",
        "producer_consumer",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("scenario producer_consumer") && t.contains("every program finished: true"),
        "{t}"
    );
    let o = membar(&[
        "sim",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/default.yaml",
        "--workload",
        "nope",
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(2), "{t}");
    assert!(t.contains("nope") && t.contains("syncthreads_loop"), "{t}");
}

#[test]
fn synth_runs_the_shared_flow_with_top_bar_unit() {
    let o = membar(&[
        "synth",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/w8_c1.yaml",
        "--target",
        "generic",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(
        t.contains("(w8_c1)")
            && t.contains("top module bar_w8_c1")
            && t.contains("longest LUT path"),
        "{t}"
    );
    let luts: u64 = t
        .lines()
        .find(|l| l.starts_with("LUTs"))
        .and_then(|l| l.split_whitespace().last())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no LUT count in {t}"));
    assert!(luts > 100, "{t}");
    let o = membar(&[
        "synth",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/w8_c1.yaml",
        "--csv",
        "x.csv",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
}

#[test]
fn cluster_unit_generate_cosim_sim() {
    let out = tmp("cluster-gen");
    let o = membar(&[
        "generate",
        "--unit",
        "cluster",
        "--config",
        "configs/cluster_barrier/default.yaml",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let emitted = std::fs::read_to_string(out.join("cluster_barrier.v")).unwrap();
    let checked_in = std::fs::read_to_string(
        root().join("verilog_out/cluster_barrier/default/cluster_barrier.v"),
    )
    .unwrap();
    assert!(
        emitted == checked_in,
        "generate --unit cluster must reproduce verilog_out/cluster_barrier/default"
    );
    let v = out.join("cluster_barrier.v");
    let o = membar(&[
        "cosim",
        "--unit",
        "cluster",
        "--config",
        "configs/cluster_barrier/default.yaml",
        "--verilog",
        v.to_str().unwrap(),
        "--cycles",
        "30000",
        "--seed",
        "2",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("30000 cycles, seed 2: PASS"), "{t}");
    // The n2 configuration against the n8 Verilog: a port-width error, exit 2.
    let o = membar(&[
        "cosim",
        "--unit",
        "cluster",
        "--config",
        "configs/cluster_barrier/n2.yaml",
        "--verilog",
        v.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = membar(&[
        "sim",
        "--unit",
        "cluster",
        "--config",
        "configs/cluster_barrier/n2.yaml",
        "--cycles",
        "20000",
        "--coverage",
    ]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("C1-C4 PASS") && t.contains("ranks_done"), "{t}");
}

/// Issue 11's input bound holds for every unit: an endless `--config` is
/// refused at the size limit, naming the file, with exit 2.
#[test]
fn endless_config_is_refused_for_every_unit() {
    for unit in ["bar", "cluster", "mbarrier"] {
        let o = membar(&[
            "generate",
            "--unit",
            unit,
            "--config",
            "/dev/zero",
            "--out",
            "/tmp",
        ]);
        let t = text(&o);
        assert_eq!(o.status.code(), Some(2), "{unit}: {t}");
        assert!(
            t.contains("/dev/zero") && t.contains("4 MiB"),
            "{unit}: {t}"
        );
    }
}

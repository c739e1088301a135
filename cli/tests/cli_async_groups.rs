//! End-to-end tests of `--unit async_groups` on `membar generate`, `sim`
//! and the input errors of `cosim` / `synth`: generate reproduces the
//! checked-in Verilog and never replaces a foreign file, sim holds G1–G4
//! with coverage, and bad input exits 2 with a clear message. (The Verilator
//! cosimulation itself is tested in `hw/mbarrier_unit/entry/tests/cosim_async_groups.rs`.)

mod common;
use common::{membar_env as membar, root, text, tmp_dir as tmp};

const SMALL: &str = "verilog_out/async_groups/w8_g2_o1/config.yaml";

#[test]
fn generate_reproduces_the_checked_in_verilog_and_keeps_foreign_files() {
    let out = tmp("agrp-gen");
    let args = |dir: &std::path::Path| {
        vec![
            "generate".to_string(),
            "--unit".into(),
            "async_groups".into(),
            "--config".into(),
            SMALL.into(),
            "--out".into(),
            dir.to_str().unwrap().into(),
        ]
    };
    let a = args(&out);
    let o = membar(&a.iter().map(String::as_str).collect::<Vec<_>>(), &[]);
    assert!(o.status.success(), "{}", text(&o));
    let v = std::fs::read_to_string(out.join("async_groups.v")).unwrap();
    let checked_in =
        std::fs::read_to_string(root().join("verilog_out/async_groups/w8_g2_o1/async_groups.v"))
            .unwrap();
    assert_eq!(
        v, checked_in,
        "generate must reproduce verilog_out/async_groups/w8_g2_o1"
    );
    let other = tmp("agrp-gen-foreign");
    std::fs::write(other.join("async_groups.v"), "module mine; endmodule\n").unwrap();
    let a = args(&other);
    let o = membar(&a.iter().map(String::as_str).collect::<Vec<_>>(), &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("refusing to overwrite"), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(other.join("async_groups.v")).unwrap(),
        "module mine; endmodule\n"
    );
}

#[test]
fn sim_holds_g1_g4_with_coverage() {
    let o = membar(
        &[
            "sim",
            "--unit",
            "async_groups",
            "--config",
            "verilog_out/async_groups/default/config.yaml",
            "--cycles",
            "50000",
            "--seed",
            "3",
            "--coverage",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("G1-G4 hold (50000 checks)"), "{t}");
    assert!(t.contains("bins hit"), "{t}");
}

#[test]
fn bad_input_is_exit_2_with_a_clear_message() {
    let dir = tmp("agrp-bad");
    let g1 = dir.join("g1.yaml");
    std::fs::write(&g1, "group_depth: 1\n").unwrap();
    let o = membar(
        &[
            "generate",
            "--unit",
            "async_groups",
            "--config",
            g1.to_str().unwrap(),
            "--out",
            dir.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("unsupported configuration") && text(&o).contains("allowed"),
        "{}",
        text(&o)
    );
    let bad = dir.join("bad.yaml");
    std::fs::write(&bad, "group_depth: 3\n").unwrap();
    let o = membar(
        &[
            "sim",
            "--unit",
            "async_groups",
            "--config",
            bad.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("group_depth"), "{}", text(&o));
    let o = membar(
        &[
            "sim",
            "--unit",
            "async_groups",
            "--config",
            SMALL,
            "--workload",
            "tma_pipeline",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("allowed with --unit async_groups: random"),
        "{}",
        text(&o)
    );
    let o = membar(
        &[
            "cosim",
            "--unit",
            "async_groups",
            "--config",
            SMALL,
            "--workload",
            "nope",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let o = membar(
        &[
            "synth",
            "--unit",
            "async_groups",
            "--config",
            SMALL,
            "--csv",
            "x.csv",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("--csv"), "{}", text(&o));
}

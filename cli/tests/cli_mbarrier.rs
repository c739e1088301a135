//! End-to-end tests of `--unit mbarrier` on `membar generate`, `cosim`,
//! `sim` and `synth`: output reproduces the checked-in Verilog, cosim finds
//! no mismatch and catches a mutated file, sim holds M1–M8 with coverage,
//! synth reports figures, and bad input exits 2 with a clear message.

mod common;
use common::{membar_env as membar, root, text, tmp_dir as tmp};

const CFG: &str = "verilog_out/mbarrier_unit/default/config.yaml";
const SMALL: &str = "verilog_out/mbarrier_unit/w8_m8_c20_t20_l8_f1/config.yaml";

#[test]
fn generate_reproduces_the_checked_in_verilog_and_keeps_foreign_files() {
    let out = tmp("mbar-gen");
    let o = membar(
        &[
            "generate",
            "--unit",
            "mbarrier",
            "--config",
            CFG,
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let v = std::fs::read_to_string(out.join("mbarrier_unit.v")).unwrap();
    let checked_in =
        std::fs::read_to_string(root().join("verilog_out/mbarrier_unit/default/mbarrier_unit.v"))
            .unwrap();
    assert_eq!(
        v, checked_in,
        "generate must reproduce verilog_out/mbarrier_unit/default"
    );
    // A file membar did not write is never replaced.
    let other = tmp("mbar-gen-foreign");
    std::fs::write(other.join("mbarrier_unit.v"), "module mine; endmodule\n").unwrap();
    let o = membar(
        &[
            "generate",
            "--unit",
            "mbarrier",
            "--config",
            CFG,
            "--out",
            other.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("refusing to overwrite"), "{}", text(&o));
    assert_eq!(
        std::fs::read_to_string(other.join("mbarrier_unit.v")).unwrap(),
        "module mine; endmodule\n"
    );
}

#[test]
fn cosim_passes_and_catches_a_mutated_file() {
    let v = root().join("verilog_out/mbarrier_unit/w8_m8_c20_t20_l8_f1/mbarrier_unit.v");
    let o = membar(
        &[
            "cosim",
            "--unit",
            "mbarrier",
            "--config",
            SMALL,
            "--verilog",
            v.to_str().unwrap(),
            "--cycles",
            "20000",
            "--seed",
            "2",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("no mismatch") && text(&o).contains("cycles/s"),
        "{}",
        text(&o)
    );
    let bad = tmp("mbar-cosim-mutant").join("mbarrier_unit.v");
    let t = std::fs::read_to_string(&v).unwrap();
    let from = "rsp_done_r__d = op_ok & is_wait & (op_e_parity != op_parity);";
    assert!(t.contains(from));
    std::fs::write(
        &bad,
        t.replace(
            from,
            "rsp_done_r__d = op_ok & is_wait & (op_e_parity == op_parity);",
        ),
    )
    .unwrap();
    let o = membar(
        &[
            "cosim",
            "--unit",
            "mbarrier",
            "--config",
            SMALL,
            "--verilog",
            bad.to_str().unwrap(),
            "--cycles",
            "20000",
            "--seed",
            "2",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(
        text(&o).contains("mismatch at cycle") && text(&o).contains("rsp_done"),
        "{}",
        text(&o)
    );
}

#[test]
fn sim_holds_the_properties_with_coverage() {
    let o = membar(
        &[
            "sim",
            "--unit",
            "mbarrier",
            "--config",
            CFG,
            "--cycles",
            "30000",
            "--seed",
            "4",
            "--coverage",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("M1-M8 hold") && text(&o).contains("bins hit"),
        "{}",
        text(&o)
    );
    let o = membar(
        &[
            "sim",
            "--unit",
            "mbarrier",
            "--config",
            CFG,
            "--workload",
            "tma_pipeline",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    assert!(
        text(&o).contains("scenario tma_pipeline") && text(&o).contains("finished true"),
        "{}",
        text(&o)
    );
}

#[test]
fn bad_unit_config_and_workload_exit_2() {
    let o = membar(&["sim", "--unit", "nosuch", "--config", CFG], &[]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        // The flag, the value and every allowed unit are named.
        ["--unit", "nosuch", "membar", "bar", "cluster", "mbarrier"]
            .iter()
            .all(|w| text(&o).contains(w)),
        "{}",
        text(&o)
    );
    let bad = tmp("mbar-badcfg").join("c.yaml");
    std::fs::write(&bad, "warps: 12\n").unwrap();
    let o = membar(
        &[
            "sim",
            "--unit",
            "mbarrier",
            "--config",
            bad.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(
        text(&o).contains("warps") && text(&o).contains("12"),
        "{}",
        text(&o)
    );
    let o = membar(
        &[
            "sim",
            "--unit",
            "mbarrier",
            "--config",
            CFG,
            "--workload",
            "nosuch",
        ],
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let unsup = tmp("mbar-unsup").join("c.yaml");
    std::fs::write(&unsup, "warps: 8\nentries: 64\n").unwrap();
    let out = tmp("mbar-unsup-out");
    let o = membar(
        &[
            "generate",
            "--unit",
            "mbarrier",
            "--config",
            unsup.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    // Not compiled in, so specialized on demand (and said so), not refused.
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(text(&o).contains("not precompiled"), "{}", text(&o));
    assert!(out.join("mbarrier_unit.v").is_file());
}

#[test]
fn synth_reports_area_for_the_small_configuration() {
    // The generic target (yosys LUT4 mapping, no place and route) keeps this
    // test short; the iCE40 figures of the default are in docs/mbarrier_unit.md.
    let o = membar(
        &[
            "synth", "--unit", "mbarrier", "--config", SMALL, "--target", "generic",
        ],
        &[],
    );
    assert!(o.status.success(), "{}", text(&o));
    let t = text(&o);
    assert!(
        t.contains("mbarrier_unit_synth") && t.contains("LUTs"),
        "{t}"
    );
}

//! Long runs say what they are doing: `synth` names the tool that runs and
//! for how long, `formal` the property groups still running (every 15 s;
//! `MEMBAR_PROGRESS_SECS` sets the interval, here 1 s so short runs show it),
//! `soak --unit` the cycles done.

mod common;
use common::*;

#[test]
fn synth_and_formal_report_the_running_step() {
    let env = [("MEMBAR_PROGRESS_SECS", "1")];
    let o = membar_env(
        &[
            "synth",
            "--unit",
            "bar",
            "--config",
            "configs/bar_unit/w8_c1.yaml",
            "--target",
            "generic",
        ],
        &env,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let e = stderr(&o);
    assert!(e.contains("membar synth: yosys running, 1 s"), "{e}");
    let o = membar_env(
        &[
            "formal",
            "--unit",
            "mbarrier",
            "--config",
            "verilog_out/mbarrier_unit/reduced_range/w8_m8_c4_t6_l8_f1/config.yaml",
            "--engine",
            "bmc",
            "--depth",
            "4",
            "--props",
            "m1",
        ],
        &env,
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let e = stderr(&o);
    assert!(e.contains("membar formal: m1 running, 1 s"), "{e}");
}

#[test]
fn unit_soak_reports_cycles_done() {
    let o = membar(&[
        "soak",
        "--unit",
        "bar",
        "--config",
        "configs/bar_unit/w8_c1.yaml",
        "--cycles",
        "3000",
        "--chunk",
        "1000",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert!(stderr(&o).contains("3000/3000 cycles"), "{}", stderr(&o));
}

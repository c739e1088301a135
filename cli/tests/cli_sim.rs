//! End-to-end tests of `membar sim` / `membar bench`: exit codes, error
//! messages, and the P6 burst figures the issue asks the CLI to print.

use std::path::PathBuf;
mod common;
use common::{membar, stderr, stdout};

/// The number after `BARRIER` on the "commands sent" line.
fn barrier_commands(out: &str) -> u64 {
    let line = out
        .lines()
        .find(|l| l.starts_with("commands sent"))
        .expect("commands line");
    let after = line.split("BARRIER ").nth(1).expect("BARRIER count");
    after.split_whitespace().next().unwrap().parse().unwrap()
}

fn write_tmp(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("membar-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn burst_of_32_gl_coalesces_to_at_most_ceil_plus_outstanding() {
    for (ways, max_out) in [(8u64, 1u64), (4, 1), (8, 2), (32, 1)] {
        let cfg = write_tmp(
            &format!("burst_w{ways}_o{max_out}.yaml"),
            &format!("ways: {ways}\nmax_outstanding: {max_out}\n"),
        );
        let o = membar(&[
            "sim",
            "--config",
            cfg.to_str().unwrap(),
            "--workload",
            "barrier_burst",
        ]);
        let out = stdout(&o);
        assert!(o.status.success(), "{out}{}", stderr(&o));
        assert!(out.contains("GL 32"), "32 MEMBAR.GL expected:\n{out}");
        let b = barrier_commands(&out);
        assert!(
            b <= 32u64.div_ceil(ways) + max_out,
            "ways {ways}, outstanding {max_out}: {b} BARRIER commands\n{out}"
        );
    }
    let cfg = write_tmp("burst_w1.yaml", "ways: 1\n");
    let out = stdout(&membar(&[
        "sim",
        "--config",
        cfg.to_str().unwrap(),
        "--workload",
        "barrier_burst",
    ]));
    assert_eq!(
        barrier_commands(&out),
        32,
        "ways: 1 must give every MEMBAR its own BARRIER\n{out}"
    );
}

#[test]
fn sim_prints_summary_and_passes_on_every_grid_config() {
    for name in [
        "default",
        "w32_k4_n8_c8",
        "w8_k2_n1_c4",
        "w64_k8_n16_c8",
        "w16_k4_n4_c6",
    ] {
        let cfg = format!("configs/{name}.yaml");
        let o = membar(&["sim", "--config", &cfg, "--cycles", "20000", "--seed", "7"]);
        let out = stdout(&o);
        assert!(o.status.success(), "{name}: {out}{}", stderr(&o));
        for key in [
            "requests accepted",
            "MEMBARs by level",
            "barriers per BARRIER",
            "release latency",
            "warp-stall cycles",
            "scoreboard             PASS",
        ] {
            assert!(out.contains(key), "{name}: missing {key:?} in\n{out}");
        }
    }
}

#[test]
fn bad_inputs_are_clear_errors_with_exit_code_2() {
    let bad = write_tmp("bad.yaml", "ways: 100\n");
    let o = membar(&["sim", "--config", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(
        e.contains("ways") && e.contains("100") && e.contains("allowed"),
        "{e}"
    );

    let o = membar(&[
        "sim",
        "--config",
        "configs/default.yaml",
        "--workload",
        "no_such_scenario",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("barrier_burst"),
        "the error lists the built-ins: {}",
        stderr(&o)
    );

    let o = membar(&["sim", "--config", "/nonexistent.yaml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent.yaml"));

    let o = membar(&["sim", "--config", "configs/default.yaml", "--cycles", "-5"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "clap rejects a negative cycle count"
    );
    let o = membar(&["sim", "--config", "configs/default.yaml", "--seed", "abc"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn trace_writes_a_vcd() {
    let p = std::env::temp_dir().join(format!("membar-trace-{}.vcd", std::process::id()));
    let o = membar(&[
        "sim",
        "--config",
        "configs/default.yaml",
        "--cycles",
        "300",
        "--trace",
        p.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let vcd = std::fs::read_to_string(&p).unwrap();
    assert!(
        vcd.contains("$var wire 1 ! clock $end")
            && vcd.contains("release_mask")
            && vcd.contains("#599"),
        "VCD incomplete"
    );
    let _ = std::fs::remove_file(p);
}

#[test]
fn bench_reports_model_speed() {
    let o = membar(&["bench", "--cycles", "200000"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(
        out.contains("reference model") && out.contains("M cycles/s"),
        "{out}"
    );
}

#[test]
fn trace_refuses_to_overwrite_a_non_vcd_file() {
    let p = write_tmp("precious.yaml", "warps: 32\n");
    let o = membar(&[
        "sim",
        "--config",
        "configs/default.yaml",
        "--cycles",
        "10",
        "--trace",
        p.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("refusing to overwrite"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read_to_string(&p).unwrap(), "warps: 32\n");
}

/// Issue 11 item 12: the shipped calibrated presets are configurations too:
/// every `--config` takes a preset and uses its `unit:` section.
#[test]
fn shipped_presets_generate_verilog_and_simulate() {
    for preset in ["configs/h100.yaml", "configs/h200.yaml"] {
        let out = std::env::temp_dir().join(format!(
            "membar-cli-preset-{}-{}",
            std::process::id(),
            preset.replace('/', "_")
        ));
        let o = membar(&[
            "generate",
            "--config",
            preset,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{preset}: {}", stderr(&o));
        let v = std::fs::read_to_string(out.join("membar_unit.v")).unwrap();
        // h100/h200: unit.ways = 32, unit.coalesce_window = 24, gl_bar_ack
        // (not the defaults 8, 16, false).
        for line in [
            "module membar_unit",
            "//   ways: 32\n",
            "//   coalesce_window: 24\n",
            "//   gl_bar_ack: true\n",
        ] {
            assert!(
                v.contains(line),
                "{preset}: {line:?} missing in the Verilog"
            );
        }
        let o = membar(&["sim", "--config", preset, "--cycles", "2000"]);
        assert_eq!(o.status.code(), Some(0), "{preset}: {}", stderr(&o));
        assert!(stdout(&o).contains("PASS"), "{preset}: {}", stdout(&o));
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// Issue 11: a configuration without RTL is refused naming the config file;
/// an endless `--config` is refused at the input size limit.
#[test]
fn rtl_and_size_errors_name_the_file() {
    let lsu = write_tmp("lsu.yaml", "arch: lsu_flush\n");
    let out = std::env::temp_dir().join(format!("membar-cli-lsu-{}", std::process::id()));
    let o = membar(&[
        "generate",
        "--config",
        lsu.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(lsu.to_str().unwrap()) && e.contains("arch") && e.contains("coalescing"),
        "{e}"
    );
    // Also with the Verilog given: the model would be a baseline, the RTL not.
    let o = membar(&[
        "cosim",
        "--config",
        lsu.to_str().unwrap(),
        "--verilog",
        "verilog_out/default/membar_unit.v",
        "--cycles",
        "10",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(
        e.contains(lsu.to_str().unwrap()) && e.contains("`arch` = lsu_flush"),
        "{e}"
    );
    let o = membar(&["sim", "--config", "/dev/zero", "--cycles", "10"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("/dev/zero") && e.contains("4 MiB"), "{e}");
}

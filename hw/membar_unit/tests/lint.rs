//! Lint and synthesis checks (`hw/membar_unit/lint/check.sh`: Verilator `-Wall` with the
//! checked-in waivers, yosys hierarchy/proc/latch/check) on the Verilog of
//! every grid configuration and of configurations that exercise the other
//! parameters. The tools are required: a missing one fails the test with how
//! to install it.

use membar_unit_model::config::LevelMix;
use membar_unit_model::Config;
use std::path::{Path, PathBuf};
use std::process::Command;

fn require(tool: &str) {
    let found = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        found,
        "`{tool}` is required by the lint tests and was not found on PATH.\n\
         Install it (Debian/Ubuntu: `sudo apt-get install -y verilator yosys`) and rerun."
    );
}

fn check_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh")
}

/// Write `cfg`'s Verilog as `membar_unit.v` in a scratch directory and run check.sh on it.
fn lint(name: &str, cfg: &Config) -> Result<(), String> {
    let dir = std::env::temp_dir()
        .join(format!("membar-unit-rtl-lint-{}", std::process::id()))
        .join(name);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let file = dir.join("membar_unit.v");
    let verilog = membar_unit_rtl::generate_verilog(cfg)?;
    std::fs::write(&file, verilog).map_err(|e| e.to_string())?;
    let out = Command::new("bash")
        .arg(check_script())
        .arg(&file)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        std::fs::remove_dir_all(&dir).ok();
        Ok(())
    } else {
        Err(format!(
            "{name} ({}): hw/membar_unit/lint/check.sh {} failed:\n{}{}",
            cfg.short_name(),
            file.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

fn lint_all(configs: Vec<(String, Config)>) {
    require("verilator");
    require("yosys");
    let failures: Vec<String> = configs
        .iter()
        .filter_map(|(name, cfg)| lint(name, cfg).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn grid_configs_lint_clean() {
    lint_all(
        Config::grid()
            .into_iter()
            .map(|(n, c)| (n.to_string(), c))
            .collect(),
    );
}

#[test]
fn other_parameters_lint_clean() {
    let d = Config::default();
    lint_all(vec![
        (
            "split".into(),
            Config {
                level_mix: LevelMix::Split,
                ..d.clone()
            },
        ),
        (
            "gl_bar_ack".into(),
            Config {
                gl_bar_ack: true,
                ..d.clone()
            },
        ),
        (
            "window0".into(),
            Config {
                coalesce_window: 0,
                ..d.clone()
            },
        ),
        (
            "lone3".into(),
            Config {
                lone_window: 3,
                ..d.clone()
            },
        ),
        (
            "w64_k8_c16_all".into(),
            Config {
                warps: 64,
                slots: 8,
                ways: 64,
                counter_bits: 16,
                max_outstanding: 7,
                ..d.clone()
            },
        ),
        (
            "w16_k2_c5_n1".into(),
            Config {
                warps: 16,
                slots: 2,
                ways: 1,
                counter_bits: 5,
                coalesce_window: 255,
                lone_window: 255,
                ..d
            },
        ),
    ]);
}

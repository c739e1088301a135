//! The checked-in release of the async-group tracker
//! (`mbarrier_unit_rtl::ag_ip_release`: every shipped configuration's
//! `verilog_out/async_groups/<name>/async_groups.v`, `config.yaml` and
//! `verilog_out/async_groups_<name>.core`, the waiver file) must be exactly
//! what `membar release` writes; every header lists its configuration,
//! every `config.yaml` reads back as it; the checked-in Verilog passes
//! `lint/check.sh` (Verilator `-Wall` with the waivers of
//! `lint/async_groups.vlt`, yosys latch/loop/driver checks). After an
//! intended change: `cargo run --release --bin membar -- release`.

use hdl_kit::release::assert_current;
use mbarrier_unit_model::config::Config;
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out")
}

#[test]
fn checked_in_async_groups_release_is_current() {
    assert_current(&out_root(), &mbarrier_unit_rtl::ag_ip_release().unwrap());
}

#[test]
fn shipped_async_groups_describe_themselves_and_read_back() {
    let shipped = mbarrier_unit_rtl::ag_shipped();
    assert!(
        shipped.len() >= 4,
        "a default and at least three grid configurations"
    );
    for (name, cfg) in shipped {
        let v =
            mbarrier_unit_rtl::ag_generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.contains("do not edit"), "header says generated");
        for (k, val) in mbarrier_unit_rtl::ag_describe(&cfg) {
            assert!(
                v.contains(&format!("//   {k}: {val}\n")),
                "{name}: header lists {k}"
            );
        }
        assert!(
            v.contains("\nmodule async_groups ("),
            "{name}: contract wrapper"
        );
        let yaml = mbarrier_unit_rtl::ag_config_yaml(&cfg);
        assert_eq!(
            Config::from_yaml_str(&yaml, "config.yaml").unwrap(),
            cfg,
            "{name}"
        );
    }
}

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

fn run_check(file: &Path) -> Result<(), String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh");
    let out = Command::new("bash")
        .arg(script)
        .arg(file)
        .output()
        .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "check.sh {} failed:\n{}{}",
            file.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

#[test]
fn shipped_async_groups_verilog_lints_clean() {
    require("verilator");
    require("yosys");
    let root = out_root().join("async_groups");
    let fails: Vec<String> = mbarrier_unit_rtl::ag_shipped()
        .iter()
        .filter_map(|(name, _)| run_check(&root.join(name).join("async_groups.v")).err())
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
}

#[test]
fn async_groups_lint_rejects_a_width_bug() {
    // The waivers must not hide a real width bug: a truncating add of two
    // non-constant operands into a narrower reg fails `-Wall`.
    require("yosys");
    require("verilator");
    let dir: PathBuf = std::env::temp_dir().join(format!("agrp-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("async_groups.v");
    std::fs::write(
        &f,
        "module async_groups(input wire [7:0] a, input wire [7:0] b, output wire [3:0] q);\n\
         assign q = a + b;\nendmodule\n",
    )
    .unwrap();
    let r = run_check(&f);
    std::fs::remove_dir_all(&dir).ok();
    assert!(r.is_err(), "a truncating add must fail the lint");
}

//! Lint and synthesis-readiness checks (`hw/mbarrier_unit/lint/check.sh`:
//! Verilator `--lint-only -Wall` with the checked-in waivers, one comment per
//! waiver; yosys hierarchy/proc, no latch, `check -assert` for undriven,
//! multiply-driven nets and loops) on the checked-in Verilog of every shipped
//! configuration and on freshly generated Verilog of the other supported
//! configurations. The tools are required: a missing one fails the test
//! with how to install it.

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
fn shipped_verilog_lints_clean() {
    require("verilator");
    require("yosys");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out/mbarrier_unit");
    let reduced = mbarrier_unit_rtl::reduced_range()
        .into_iter()
        .map(|(n, _)| format!("{}/{n}", mbarrier_unit_rtl::REDUCED_RANGE_DIR));
    let fails: Vec<String> = mbarrier_unit_rtl::shipped()
        .into_iter()
        .map(|(n, _)| n)
        .chain(reduced)
        .filter_map(|name| run_check(&root.join(name).join("mbarrier_unit.v")).err())
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n\n"));
}

#[test]
fn check_script_rejects_a_latch() {
    // The checker must be able to fail: a module with a latch is refused.
    require("yosys");
    require("verilator");
    let dir: PathBuf = std::env::temp_dir().join(format!("mbar-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("mbarrier_unit.v");
    std::fs::write(
        &f,
        "module mbarrier_unit(input wire en, input wire d, output reg q);\n\
         always @(*) if (en) q = d;\nendmodule\n",
    )
    .unwrap();
    let r = run_check(&f);
    std::fs::remove_dir_all(&dir).ok();
    assert!(r.is_err(), "a latch must fail the check");
}

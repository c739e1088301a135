//! Lint and synthesis checks (`hw/bar_unit/lint/check.sh`: Verilator `-Wall`
//! with the checked-in waivers `lint/bar_unit.vlt`, yosys
//! hierarchy/proc/no-latch/`check -assert`) on the Verilog of every shipped
//! configuration. The tools are required: a missing one fails the test with
//! how to install it.

use std::path::Path;
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

#[test]
fn shipped_configs_lint_clean() {
    require("verilator");
    require("yosys");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh");
    let mut failures = vec![];
    for (name, cfg) in bar_unit_rtl::shipped_configs() {
        let dir = std::env::temp_dir()
            .join(format!("bar-unit-lint-{}", std::process::id()))
            .join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("bar_unit.v");
        std::fs::write(&file, bar_unit_rtl::generate_verilog(&cfg).unwrap()).unwrap();
        let out = Command::new("bash")
            .arg(&script)
            .arg(&file)
            .output()
            .unwrap();
        if out.status.success() {
            std::fs::remove_dir_all(&dir).ok();
        } else {
            failures.push(format!(
                "{name}: {} {} failed:\n{}{}",
                script.display(),
                file.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The lint catches what it should: a width bug of the TOOLING.md kind (a
/// 32-bit sum assigned to a narrow reg) fails the check.
#[test]
fn lint_rejects_a_width_bug() {
    require("verilator");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh");
    let v = bar_unit_rtl::generate_verilog(&bar_unit_model::config::BarConfig {
        warps: 8,
        cta_slots: 1,
    })
    .unwrap();
    let needle = "always @(*) begin";
    let pos = v.find(needle).expect("an always block");
    let bad = format!(
        "{}reg [2:0] lint_probe;\n    {}\n        lint_probe = 32'h5 + 32'h1;",
        &v[..pos],
        &v[pos..pos + needle.len()]
    ) + &v[pos + needle.len()..];
    let dir = std::env::temp_dir().join(format!("bar-unit-lint-bad-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bar_unit.v");
    std::fs::write(&file, bad).unwrap();
    let out = Command::new("bash")
        .arg(&script)
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert!(
        !out.status.success(),
        "the lint accepted a 32-bit sum into a 3-bit reg"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("WIDTH"));
}

#[test]
fn shipped_cluster_configs_lint_clean() {
    require("verilator");
    require("yosys");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh");
    let mut failures = vec![];
    for (name, cfg) in bar_unit_rtl::shipped_cluster_configs() {
        let dir = std::env::temp_dir()
            .join(format!("cluster-barrier-lint-{}", std::process::id()))
            .join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("cluster_barrier.v");
        std::fs::write(&file, bar_unit_rtl::generate_cluster_verilog(&cfg).unwrap()).unwrap();
        let out = Command::new("bash")
            .arg(&script)
            .arg(&file)
            .arg("cluster_barrier")
            .output()
            .unwrap();
        if out.status.success() {
            std::fs::remove_dir_all(&dir).ok();
        } else {
            failures.push(format!(
                "{name}: {}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

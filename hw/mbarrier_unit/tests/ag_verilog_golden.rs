//! The checked-in `verilog_out/async_groups/<name>/async_groups.v`,
//! `config.yaml` and `verilog_out/async_groups_<name>.core` of every shipped
//! configuration must be exactly what the generator emits (and
//! `config.yaml` must read back as that configuration); the checked-in
//! Verilog passes `lint/check.sh` (Verilator `-Wall` with the waivers of
//! `lint/async_groups.vlt`, yosys latch/loop/driver checks). After an
//! intended change: `MEMBAR_BLESS=1 cargo test -p mbarrier-unit-rtl --release --test ag_verilog_golden`.

use mbarrier_unit_model::config::Config;
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out")
}

fn bless() -> bool {
    std::env::var("MEMBAR_BLESS").is_ok_and(|v| v == "1")
}

fn first_difference(expected: &str, actual: &str) -> Option<String> {
    if expected == actual {
        return None;
    }
    let (e, a): (Vec<_>, Vec<_>) = (expected.lines().collect(), actual.lines().collect());
    let line = e
        .iter()
        .zip(&a)
        .position(|(x, y)| x != y)
        .unwrap_or(e.len().min(a.len()));
    Some(format!(
        "first difference at line {}:\n  checked in: {}\n  generated:  {}",
        line + 1,
        e.get(line).unwrap_or(&"<end of file>"),
        a.get(line).unwrap_or(&"<end of file>"),
    ))
}

fn check(path: &Path, generated: &str, problems: &mut Vec<String>) {
    if bless() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, generated)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
        return;
    }
    match std::fs::read_to_string(path) {
        Err(e) => problems.push(format!("{}: cannot read ({e})", path.display())),
        Ok(checked_in) => {
            if let Some(diff) = first_difference(&checked_in, generated) {
                problems.push(format!("{} is stale: {diff}", path.display()));
            }
        }
    }
}

#[test]
fn checked_in_async_groups_verilog_is_current() {
    let mut problems = Vec::new();
    let shipped = mbarrier_unit_rtl::ag_shipped();
    assert!(
        shipped.len() >= 4,
        "a default and at least three grid configurations"
    );
    for (name, cfg) in shipped {
        let dir = out_root().join("async_groups").join(&name);
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
        check(&dir.join("async_groups.v"), &v, &mut problems);
        let yaml = mbarrier_unit_rtl::ag_config_yaml(&cfg);
        check(&dir.join("config.yaml"), &yaml, &mut problems);
        match Config::from_yaml_str(&yaml, "config.yaml") {
            Ok(c) if c == cfg => {}
            other => problems.push(format!("{name}: config.yaml reads back as {other:?}")),
        }
        check(
            &out_root().join(format!("async_groups_{name}.core")),
            &mbarrier_unit_rtl::ag_fusesoc_core(&name, &cfg),
            &mut problems,
        );
    }
    let waivers = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/async_groups.vlt"),
    )
    .expect("hw/mbarrier_unit/lint/async_groups.vlt");
    check(
        &out_root().join("async_groups.vlt"),
        &waivers,
        &mut problems,
    );
    assert!(
        problems.is_empty(),
        "{}\nregenerate with: MEMBAR_BLESS=1 cargo test -p mbarrier-unit-rtl --release --test ag_verilog_golden",
        problems.join("\n")
    );
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

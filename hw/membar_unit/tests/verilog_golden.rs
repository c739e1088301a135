//! The checked-in `verilog_out/<name>/membar_unit.v` and `config.yaml` of every
//! `Config::grid()` configuration must be exactly what the generator emits
//! (and `config.yaml` must read back as that configuration).
//!
//! After an intended change, regenerate them with
//! `MEMBAR_BLESS=1 cargo test -p membar-unit-rtl --release --test verilog_golden`
//! and review the diff.

use membar_unit_model::Config;
use std::path::{Path, PathBuf};

fn out_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../verilog_out")
        .join(name)
}

fn bless() -> bool {
    std::env::var("MEMBAR_BLESS").is_ok_and(|v| v == "1")
}

/// `None` when equal, else where they first differ.
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
        "first difference at line {}:\n  checked in: {}\n  generated:  {}\n  ({} lines checked in, {} generated)",
        line + 1,
        e.get(line).unwrap_or(&"<end of file>"),
        a.get(line).unwrap_or(&"<end of file>"),
        e.len(),
        a.len()
    ))
}

/// Compare (or, blessing, write) one generated file.
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
fn checked_in_verilog_is_current() {
    let mut problems = Vec::new();
    for (name, cfg) in Config::grid() {
        let dir = out_dir(name);
        let verilog =
            membar_unit_rtl::generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(&dir.join("membar_unit.v"), &verilog, &mut problems);
        check(&dir.join("config.yaml"), &cfg.to_yaml(), &mut problems);
        let yaml = dir.join("config.yaml");
        match Config::load(&yaml) {
            Ok(loaded) if loaded == cfg => {}
            Ok(loaded) => problems.push(format!(
                "{} reads back as {loaded:?}, not {cfg:?}",
                yaml.display()
            )),
            Err(e) => problems.push(e.to_string()),
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n\nIf the change is intended, regenerate with\n  MEMBAR_BLESS=1 cargo test -p membar-unit-rtl --release --test verilog_golden\nand review `git diff verilog_out`.",
        problems.join("\n\n")
    );
}

#[test]
fn generation_is_deterministic() {
    let cfg = Config::default();
    assert_eq!(
        membar_unit_rtl::generate_verilog(&cfg).unwrap(),
        membar_unit_rtl::generate_verilog(&cfg).unwrap()
    );
}

// FuseSoC cores of the emitted Verilog (written by membar_unit_rtl::fusesoc_core).

#[test]
fn fusesoc_cores_are_current() {
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out");
    let mut problems = Vec::new();
    let mut names = std::collections::HashSet::new();
    for (name, cfg) in Config::grid() {
        let text = membar_unit_rtl::fusesoc_core(name, &cfg);
        assert!(
            names.insert(format!("membar_unit_{name}")),
            "duplicate core name {name}"
        );
        check(
            &out.join(format!("membar_unit_{name}.core")),
            &text,
            &mut problems,
        );
        // The core describes the config its Verilog was generated from.
        let yaml = out.join(name).join("config.yaml");
        assert_eq!(Config::load(&yaml).unwrap(), cfg, "{}", yaml.display());
    }
    // verilog_out/ is self-contained: its waiver file is hw/lint's.
    let vlt =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/membar_unit.vlt"))
            .expect("hw/membar_unit/lint/membar_unit.vlt");
    check(&out.join("membar_unit.vlt"), &vlt, &mut problems);
    // No core left behind for a configuration that is gone.
    for e in std::fs::read_dir(&out).unwrap() {
        let f = e.unwrap().file_name().into_string().unwrap();
        if let Some(n) = f
            .strip_prefix("membar_unit_")
            .and_then(|f| f.strip_suffix(".core"))
        {
            if !names.contains(&format!("membar_unit_{n}")) {
                problems.push(format!("verilog_out/{f} belongs to no grid configuration"));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n\nRegenerate with\n  MEMBAR_BLESS=1 cargo test --release -p membar-unit-rtl --test verilog_golden fusesoc_cores_are_current\nand review `git diff verilog_out`.",
        problems.join("\n")
    );
}

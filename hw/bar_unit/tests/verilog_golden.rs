//! The checked-in `verilog_out/bar_unit/<name>/bar_unit.v` and `config.yaml`
//! of every shipped configuration (`bar_unit_rtl::shipped_configs`) must be
//! exactly what the generator emits, and `config.yaml` must read back as that
//! configuration; the FuseSoC cores `verilog_out/bar_unit_<name>.core` and
//! the waiver copy `verilog_out/bar_unit.vlt` must be current too.
//!
//! After an intended change, regenerate with
//! `MEMBAR_BLESS=1 cargo test -p bar-unit-rtl --release --test verilog_golden`
//! and review the diff.

use bar_unit_model::config::BarConfig;
use std::path::{Path, PathBuf};

fn out_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../verilog_out/bar_unit")
        .join(name)
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
fn checked_in_verilog_is_current() {
    let mut problems = Vec::new();
    for (name, cfg) in bar_unit_rtl::shipped_configs() {
        let dir = out_dir(name);
        let verilog =
            bar_unit_rtl::generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(
            verilog.contains("do not edit")
                && verilog.contains(&format!("//   cta_slots: {}", cfg.cta_slots))
        );
        check(&dir.join("bar_unit.v"), &verilog, &mut problems);
        let yaml = bar_unit_rtl::config_yaml(&cfg);
        check(&dir.join("config.yaml"), &yaml, &mut problems);
        let core = dir
            .parent()
            .unwrap()
            .parent()
            .unwrap()
            .join(format!("bar_unit_{name}.core"));
        check(
            &core,
            &bar_unit_rtl::fusesoc_core(name, &cfg),
            &mut problems,
        );
        match BarConfig::from_yaml(&yaml, name) {
            Ok(c) if c == cfg => {}
            other => problems.push(format!("{name}: config.yaml reads back as {other:?}")),
        }
    }
    for (name, cfg) in bar_unit_rtl::shipped_cluster_configs() {
        let dir = out_dir("..").join("cluster_barrier").join(name);
        let v =
            bar_unit_rtl::generate_cluster_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.contains("do not edit") && v.contains(&format!("//   ranks: {}", cfg.ranks)));
        check(&dir.join("cluster_barrier.v"), &v, &mut problems);
        check(
            &dir.join("config.yaml"),
            &format!(
                "# cluster_barrier configuration (spec/cluster_barrier.md)\nranks: {}\n",
                cfg.ranks
            ),
            &mut problems,
        );
    }
    let cvlt = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/cluster_barrier.vlt");
    check(
        &out_dir("..").join("cluster_barrier.vlt"),
        &std::fs::read_to_string(cvlt).unwrap(),
        &mut problems,
    );
    // The waiver file the cores name is the lint's.
    let vlt = Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/bar_unit.vlt");
    let waivers = std::fs::read_to_string(vlt).unwrap();
    check(&out_dir("..").join("bar_unit.vlt"), &waivers, &mut problems);
    assert!(
        problems.is_empty(),
        "{}\n\nIf the change is intended, regenerate with\n  MEMBAR_BLESS=1 cargo test -p bar-unit-rtl --release --test verilog_golden\nand review `git diff verilog_out`.",
        problems.join("\n\n")
    );
}

#[test]
fn generation_is_deterministic_and_refuses_invalid() {
    let cfg = BarConfig::default();
    assert_eq!(
        bar_unit_rtl::generate_verilog(&cfg).unwrap(),
        bar_unit_rtl::generate_verilog(&cfg).unwrap()
    );
    // Any valid configuration has Verilog (tests/specialized.rs); one the
    // contract does not allow is refused naming the key and the rule.
    let e = bar_unit_rtl::generate_verilog(&BarConfig {
        warps: 16,
        cta_slots: 17,
    })
    .unwrap_err();
    assert!(
        e.contains("cta_slots") && e.contains("17") && e.contains("1..=warps"),
        "{e}"
    );
    let e = bar_unit_rtl::generate_verilog(&BarConfig {
        warps: 12,
        cta_slots: 1,
    })
    .unwrap_err();
    assert!(e.contains("warps") && e.contains("12"), "{e}");
}

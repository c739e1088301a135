//! Every waiver of every unit's Verilator waiver file still waives a
//! warning of that unit's shipped Verilog (`verilog_out/`): run without the
//! waiver file, `verilator --lint-only -Wall` must give, for each
//! `lint_off`, at least one warning it matches on some shipped
//! configuration. A waiver nothing needs is removed, not kept "in case"
//! (`hdl_kit::waivers`). Requires Verilator.

use std::path::{Path, PathBuf};

use hdl_kit::waivers::{parse, unused, warnings_without_waivers, Warning};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every shipped `<top>.v`, as `membar release` listed it in
/// `verilog_out/MANIFEST` (`sha256  unit  path` a line): the released set,
/// not a list kept here.
fn shipped(top: &str) -> Vec<PathBuf> {
    let out = root().join("verilog_out");
    let manifest = std::fs::read_to_string(out.join("MANIFEST"))
        .unwrap_or_else(|e| panic!("verilog_out/MANIFEST: {e}"));
    let name = format!("{top}.v");
    let files: Vec<PathBuf> = manifest
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|p| Path::new(p).file_name().is_some_and(|n| n == name.as_str()))
        .map(|p| out.join(p))
        .collect();
    assert!(!files.is_empty(), "verilog_out/MANIFEST lists no {name}");
    files
}

fn check(vlt: &str, top: &str) {
    let files = shipped(top);
    let path = root().join(vlt);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{vlt}: {e}"));
    let waivers = parse(vlt, &text).unwrap();
    assert!(!waivers.is_empty(), "{vlt}: no lint_off line");
    let mut warnings: Vec<Warning> = Vec::new();
    for f in &files {
        warnings.extend(warnings_without_waivers(f, top).unwrap());
    }
    let left = unused(&waivers, &warnings);
    assert!(
        left.is_empty(),
        "{vlt}: waivers that match no warning of {} shipped file(s) ({}):\n{}",
        files.len(),
        files
            .iter()
            .map(|f| f.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        left.iter()
            .map(|w| format!(
                "  line {}: -rule {} -file {} -match {}",
                w.line, w.rule, w.file, w.pattern
            ))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn membar_unit_waivers_are_in_use() {
    check("hw/membar_unit/lint/membar_unit.vlt", "membar_unit");
}

#[test]
fn bar_unit_waivers_are_in_use() {
    check("hw/bar_unit/lint/bar_unit.vlt", "bar_unit");
}

#[test]
fn cluster_barrier_waivers_are_in_use() {
    check("hw/bar_unit/lint/cluster_barrier.vlt", "cluster_barrier");
}

#[test]
fn mbarrier_unit_waivers_are_in_use() {
    check("hw/mbarrier_unit/lint/mbarrier_unit.vlt", "mbarrier_unit");
}

#[test]
fn async_groups_waivers_are_in_use() {
    check("hw/mbarrier_unit/lint/async_groups.vlt", "async_groups");
}

#[test]
fn sm_sync_waivers_are_in_use() {
    check("hw/sm_sync/lint/sm_sync.vlt", "sm_sync");
}

#[test]
fn a_stale_waiver_fails_the_check() {
    // The check must be able to fail: a waiver of a signal no shipped
    // file has is reported.
    let f = root().join("verilog_out/bar_unit/w8_c1/bar_unit.v");
    let warnings = warnings_without_waivers(&f, "bar_unit").unwrap();
    assert!(
        !warnings.is_empty(),
        "bar_unit w8_c1 gives no warning without waivers"
    );
    let stale = parse(
        "stale.vlt",
        "lint_off -rule UNUSEDSIGNAL -file \"*bar_unit.v\" -match \"*Signal is not used: 'no_such_signal'\"\n",
    )
    .unwrap();
    assert_eq!(unused(&stale, &warnings).len(), 1);
}

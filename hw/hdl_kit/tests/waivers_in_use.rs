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

/// Every `<top>.v` under `dir` (shipped configurations, nested one level for
/// grouped ones such as the mbarrier unit's `reduced_range/`).
fn shipped(dir: &Path, top: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{}: {e}", d.display())) {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .is_some_and(|n| n == format!("{top}.v").as_str())
            {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(!out.is_empty(), "no {top}.v under {}", dir.display());
    out
}

fn check(vlt: &str, top: &str, files: Vec<PathBuf>) {
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
    let out = root().join("verilog_out");
    let files = [
        "default",
        "w8_k2_n1_c4",
        "w16_k4_n4_c6",
        "w32_k4_n8_c8",
        "w64_k8_n16_c8",
    ]
    .iter()
    .map(|c| out.join(c).join("membar_unit.v"))
    .collect();
    check("hw/membar_unit/lint/membar_unit.vlt", "membar_unit", files);
}

#[test]
fn bar_unit_waivers_are_in_use() {
    let files = shipped(&root().join("verilog_out/bar_unit"), "bar_unit");
    check("hw/bar_unit/lint/bar_unit.vlt", "bar_unit", files);
}

#[test]
fn cluster_barrier_waivers_are_in_use() {
    let files = shipped(
        &root().join("verilog_out/cluster_barrier"),
        "cluster_barrier",
    );
    check(
        "hw/bar_unit/lint/cluster_barrier.vlt",
        "cluster_barrier",
        files,
    );
}

#[test]
fn mbarrier_unit_waivers_are_in_use() {
    let files = shipped(&root().join("verilog_out/mbarrier_unit"), "mbarrier_unit");
    check(
        "hw/mbarrier_unit/lint/mbarrier_unit.vlt",
        "mbarrier_unit",
        files,
    );
}

#[test]
fn async_groups_waivers_are_in_use() {
    let files = shipped(&root().join("verilog_out/async_groups"), "async_groups");
    check(
        "hw/mbarrier_unit/lint/async_groups.vlt",
        "async_groups",
        files,
    );
}

#[test]
fn sm_sync_waivers_are_in_use() {
    let files = shipped(&root().join("verilog_out/sm_sync"), "sm_sync");
    check("hw/sm_sync/lint/sm_sync.vlt", "sm_sync", files);
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

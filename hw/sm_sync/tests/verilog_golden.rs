//! The checked-in `verilog_out/sm_sync/<name>/sm_sync.v` of every supported
//! configuration must be exactly what the generator emits, and (for `small`;
//! `w16` by the command below, ~42 s) it must pass
//! `hw/sm_sync/lint/check.sh` (Verilator `--lint-only -Wall` with the
//! waivers of `lint/sm_sync.vlt`, one comment per waiver; yosys latch,
//! undriven, multiply-driven and loop checks). After an intended change:
//! `MEMBAR_BLESS=1 cargo test -p sm-sync-rtl --release --test verilog_golden`.
//! Lint of w16: `hw/sm_sync/lint/check.sh verilog_out/sm_sync/w16/sm_sync.v`.

use sm_sync_model::Config;
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../verilog_out/sm_sync")
        .join(name)
}

fn bless() -> bool {
    std::env::var("MEMBAR_BLESS").is_ok_and(|v| v == "1")
}

#[test]
fn checked_in_sm_sync_verilog_is_current_and_lints_clean() {
    let mut problems = Vec::new();
    for (name, cfg) in Config::named() {
        let v = sm_sync_rtl::generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.contains("do not edit"), "header says generated");
        assert!(v.contains("\nmodule sm_sync ("), "{name}: contract wrapper");
        let path = out_dir(name).join("sm_sync.v");
        if bless() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &v).unwrap();
        }
        match std::fs::read_to_string(&path) {
            Err(e) => problems.push(format!("{}: cannot read ({e})", path.display())),
            Ok(c) if c != v => {
                let line = c
                    .lines()
                    .zip(v.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(c.lines().count().min(v.lines().count()));
                problems.push(format!(
                    "{} is stale (first difference at line {}); regenerate with MEMBAR_BLESS=1",
                    path.display(),
                    line + 1
                ));
            }
            Ok(_) => {}
        }
        // Lint the small configuration here (~11 s); w16 takes ~42 s:
        // `hw/sm_sync/lint/check.sh verilog_out/sm_sync/w16/sm_sync.v`.
        if name != "small" {
            continue;
        }
        let out = Command::new("bash")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh"))
            .arg(&path)
            .output()
            .expect("bash");
        if !out.status.success() {
            problems.push(format!(
                "lint of {} failed:\n{}{}",
                path.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn lint_rejects_a_latch() {
    // The checker must be able to fail.
    let dir = std::env::temp_dir().join(format!("smsync-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let f = dir.join("sm_sync.v");
    std::fs::write(
        &f,
        "module sm_sync(input wire en, input wire d, output reg q);\nalways @(*) if (en) q = d;\nendmodule\n",
    )
    .unwrap();
    let st = Command::new("bash")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh"))
        .arg(&f)
        .output()
        .unwrap()
        .status;
    std::fs::remove_dir_all(&dir).ok();
    assert!(!st.success(), "a latch must fail the check");
}

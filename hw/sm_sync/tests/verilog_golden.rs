//! The checked-in release of the sm_sync top (`sm_sync_rtl::ip_release`:
//! `verilog_out/sm_sync/<name>/sm_sync.v` and `config.yaml` (every unit's
//! keys, reading back as the configuration) of every supported configuration, its FuseSoC core `verilog_out/sm_sync_<name>.core`
//! and the waiver file `verilog_out/sm_sync.vlt`) must be exactly what `membar release` writes,
//! and every one must pass `hw/sm_sync/lint/check.sh` (Verilator `--lint-only -Wall` with the
//! waivers of `lint/sm_sync.vlt`, one comment per waiver; yosys latch,
//! undriven, multiply-driven and loop checks). After an intended change:
//! `cargo run --release --bin membar -- release`.

use hdl_kit::release::assert_current;
use sm_sync_model::Config;
use std::path::{Path, PathBuf};
use std::process::Command;

fn out_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../verilog_out/sm_sync")
        .join(name)
}

#[test]
fn checked_in_sm_sync_release_is_current_and_lints_clean() {
    assert_current(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out"),
        &sm_sync_rtl::ip_release().unwrap(),
    );
    for (name, cfg) in Config::named() {
        let v = sm_sync_rtl::generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.contains("do not edit"), "header says generated");
        assert!(v.contains("\nmodule sm_sync ("), "{name}: contract wrapper");
        // The released `config.yaml` spells out every unit's keys (no
        // `preset:`), and reads back as the named configuration.
        let path = out_dir(name).join("config.yaml");
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.lines().any(|l| l.starts_with("preset:")),
            "{name}: config.yaml resolved"
        );
        assert_eq!(
            Config::from_yaml_str(&text, &path.display().to_string()).unwrap(),
            cfg,
            "{name}: config.yaml reads back"
        );
    }
    // Lint every named configuration (small ~3 s, w16 ~3 s, h100 ~18 s).
    for (name, _) in Config::named() {
        let path = out_dir(name).join("sm_sync.v");
        let out = Command::new("bash")
            .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/check.sh"))
            .arg(&path)
            .output()
            .expect("bash");
        assert!(
            out.status.success(),
            "lint of {} failed:\n{}{}",
            path.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
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

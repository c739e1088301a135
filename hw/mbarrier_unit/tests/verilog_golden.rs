//! The checked-in `verilog_out/mbarrier_unit/<name>/mbarrier_unit.v`,
//! `config.yaml` and `verilog_out/mbarrier_unit_<name>.core` of every shipped
//! configuration must be exactly what the generator emits (and
//! `config.yaml` must read back as that configuration). After an intended
//! change: `MEMBAR_BLESS=1 cargo test -p mbarrier-unit-rtl --release --test verilog_golden`.

use mbarrier_unit_model::config::Config;
use std::path::{Path, PathBuf};

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
fn checked_in_verilog_is_current() {
    let mut problems = Vec::new();
    let shipped = mbarrier_unit_rtl::shipped();
    assert!(
        shipped.len() >= 4,
        "a default and at least three grid configurations"
    );
    for (name, cfg) in shipped {
        assert!(
            cfg.count_bits == 20 && cfg.tx_bits == 20,
            "{name}: a shipped configuration holds PTX's ranges"
        );
        let dir = out_root().join("mbarrier_unit").join(&name);
        let v = mbarrier_unit_rtl::generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.contains("do not edit"), "header says generated");
        for (k, val) in cfg.describe() {
            assert!(
                v.contains(&format!("//   {k}: {val}\n")),
                "{name}: header lists {k}"
            );
        }
        check(&dir.join("mbarrier_unit.v"), &v, &mut problems);
        let yaml = mbarrier_unit_rtl::config_yaml(&cfg);
        check(&dir.join("config.yaml"), &yaml, &mut problems);
        match Config::from_yaml_str(&yaml, "config.yaml") {
            Ok(c) if c == cfg => {}
            other => problems.push(format!("{name}: config.yaml reads back as {other:?}")),
        }
        check(
            &out_root().join(format!("mbarrier_unit_{name}.core")),
            &mbarrier_unit_rtl::fusesoc_core(&name, &cfg),
            &mut problems,
        );
    }
    // Reduced-range configurations: Verilog and config.yaml in their own
    // folder (not released IP: no FuseSoC core).
    for (name, cfg) in mbarrier_unit_rtl::reduced_range() {
        assert!(
            cfg.count_bits < 20 || cfg.tx_bits < 20,
            "{name} is not reduced"
        );
        let dir = out_root()
            .join("mbarrier_unit")
            .join(mbarrier_unit_rtl::REDUCED_RANGE_DIR)
            .join(&name);
        let v = mbarrier_unit_rtl::generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(&dir.join("mbarrier_unit.v"), &v, &mut problems);
        check(
            &dir.join("config.yaml"),
            &mbarrier_unit_rtl::config_yaml(&cfg),
            &mut problems,
        );
    }
    let waivers = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("lint/mbarrier_unit.vlt"),
    )
    .expect("hw/mbarrier_unit/lint/mbarrier_unit.vlt");
    check(
        &out_root().join("mbarrier_unit.vlt"),
        &waivers,
        &mut problems,
    );
    assert!(
        problems.is_empty(),
        "{}\nregenerate with: MEMBAR_BLESS=1 cargo test -p mbarrier-unit-rtl --release --test verilog_golden",
        problems.join("\n")
    );
}

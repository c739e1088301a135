//! The checked-in release of the transaction-barrier unit
//! (`mbarrier_unit_rtl::ip_release`: every shipped configuration's
//! `verilog_out/mbarrier_unit/<name>/mbarrier_unit.v`, `config.yaml` and
//! `verilog_out/mbarrier_unit_<name>.core`, the reduced-range
//! configurations, the waiver file) must be exactly what `membar release`
//! writes; every shipped configuration holds PTX's ranges, every reduced
//! one is reduced, every header lists its configuration and every
//! `config.yaml` reads back as it. After an intended change: `cargo run
//! --release --bin membar -- release`, then review `git diff verilog_out`.

use hdl_kit::release::assert_current;
use mbarrier_unit_model::config::Config;
use std::path::Path;

#[test]
fn checked_in_release_is_current() {
    assert_current(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out"),
        &mbarrier_unit_rtl::ip_release().unwrap(),
    );
}

#[test]
fn shipped_configurations_hold_ptx_ranges_and_describe_themselves() {
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
        let v = mbarrier_unit_rtl::generate_verilog(&cfg).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(v.contains("do not edit"), "header says generated");
        for (k, val) in cfg.describe() {
            assert!(
                v.contains(&format!("//   {k}: {val}\n")),
                "{name}: header lists {k}"
            );
        }
        let yaml = mbarrier_unit_rtl::config_yaml(&cfg);
        assert_eq!(
            Config::from_yaml_str(&yaml, "config.yaml").unwrap(),
            cfg,
            "{name}"
        );
    }
    for (name, cfg) in mbarrier_unit_rtl::reduced_range() {
        assert!(
            cfg.count_bits < 20 || cfg.tx_bits < 20,
            "{name} is not reduced"
        );
    }
}

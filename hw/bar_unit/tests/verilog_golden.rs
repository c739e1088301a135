//! The checked-in release of the named-barrier unit and the cluster barrier
//! (`bar_unit_rtl::ip_release`, `cluster_ip_release`: every shipped
//! configuration's Verilog and `config.yaml`, the FuseSoC cores, the waiver
//! files) must be exactly what `membar release` writes, and each
//! `config.yaml` must read back as its configuration.
//!
//! After an intended change: `cargo run --release --bin membar -- release`,
//! then review `git diff verilog_out`.

use bar_unit_model::config::{BarConfig, ClusterConfig};
use hdl_kit::release::assert_current;
use std::path::{Path, PathBuf};

fn verilog_out() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out")
}

#[test]
fn checked_in_release_is_current() {
    assert_current(&verilog_out(), &bar_unit_rtl::ip_release().unwrap());
    assert_current(&verilog_out(), &bar_unit_rtl::cluster_ip_release().unwrap());
}

#[test]
fn every_config_yaml_reads_back_and_every_header_names_its_configuration() {
    for (name, cfg) in bar_unit_rtl::shipped_configs() {
        let yaml = bar_unit_rtl::config_yaml(&cfg);
        assert_eq!(BarConfig::from_yaml(&yaml, name).unwrap(), cfg, "{name}");
        let v = bar_unit_rtl::generate_verilog(&cfg).unwrap();
        assert!(
            v.contains("do not edit") && v.contains(&format!("//   cta_slots: {}", cfg.cta_slots)),
            "{name}"
        );
    }
    for (name, cfg) in bar_unit_rtl::shipped_cluster_configs() {
        let yaml = bar_unit_rtl::cluster_config_yaml(&cfg);
        assert_eq!(
            ClusterConfig::from_yaml(&yaml, name).unwrap(),
            cfg,
            "{name}"
        );
        let v = bar_unit_rtl::generate_cluster_verilog(&cfg).unwrap();
        assert!(v.contains("do not edit") && v.contains(&format!("//   ranks: {}", cfg.ranks)));
    }
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

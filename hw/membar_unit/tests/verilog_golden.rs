//! The checked-in release of the memory-barrier unit
//! (`membar_unit_rtl::ip_release`: every `Config::grid()` configuration's
//! `verilog_out/<name>/membar_unit.v` and `config.yaml`, its FuseSoC core,
//! the waiver file) must be exactly what `membar release` writes; every
//! `config.yaml` must read back as its configuration, and no core may be
//! left behind for a configuration that is gone.
//!
//! After an intended change: `cargo run --release --bin membar -- release`,
//! then review `git diff verilog_out`.

use hdl_kit::release::assert_current;
use membar_unit_model::Config;
use std::path::{Path, PathBuf};

fn verilog_out() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../verilog_out")
}

#[test]
fn checked_in_release_is_current() {
    assert_current(&verilog_out(), &membar_unit_rtl::ip_release().unwrap());
}

#[test]
fn every_config_yaml_reads_back_and_no_core_is_left_behind() {
    let out = verilog_out();
    let mut names = std::collections::HashSet::new();
    for (name, cfg) in Config::grid() {
        assert!(names.insert(name), "duplicate configuration name {name}");
        let yaml = out.join(name).join("config.yaml");
        assert_eq!(Config::load(&yaml).unwrap(), cfg, "{}", yaml.display());
    }
    for e in std::fs::read_dir(&out).unwrap() {
        let f = e.unwrap().file_name().into_string().unwrap();
        if let Some(n) = f
            .strip_prefix("membar_unit_")
            .and_then(|f| f.strip_suffix(".core"))
        {
            assert!(
                names.contains(n),
                "verilog_out/{f} belongs to no grid configuration"
            );
        }
    }
}

#[test]
fn generation_is_deterministic() {
    let cfg = Config::default();
    assert_eq!(
        membar_unit_rtl::generate_verilog(&cfg).unwrap(),
        membar_unit_rtl::generate_verilog(&cfg).unwrap()
    );
}

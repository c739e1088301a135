//! The released IP set of the transaction-barrier unit and of the
//! async-group tracker (what `membar release --unit mbarrier|async_groups`
//! writes under `verilog_out/`): each shipped configuration's Verilog,
//! `config.yaml` and FuseSoC core, the reduced-range configurations'
//! Verilog and `config.yaml` (no core: not released IP), and each unit's
//! Verilator waiver file.

use crate::{
    ag_config_yaml, ag_fusesoc_core, ag_generate_verilog, ag_shipped, config_yaml, fusesoc_core,
    generate_verilog, reduced_range, shipped, REDUCED_RANGE_DIR,
};
use hdl_kit::release::ReleasedFile;

/// `verilog_out/mbarrier_unit/<name>/…`, `…/reduced_range/<name>/…`,
/// `verilog_out/mbarrier_unit_<name>.core`, `verilog_out/mbarrier_unit.vlt`.
pub fn ip_release() -> Result<Vec<ReleasedFile>, String> {
    let mut files = Vec::new();
    for (name, cfg) in shipped() {
        let v = generate_verilog(&cfg).map_err(|e| format!("mbarrier_unit {name}: {e}"))?;
        files.push(ReleasedFile::new(
            format!("mbarrier_unit/{name}/mbarrier_unit.v"),
            v,
        ));
        files.push(ReleasedFile::new(
            format!("mbarrier_unit/{name}/config.yaml"),
            config_yaml(&cfg),
        ));
        files.push(ReleasedFile::new(
            format!("mbarrier_unit_{name}.core"),
            fusesoc_core(&name, &cfg),
        ));
    }
    for (name, cfg) in reduced_range() {
        let v = generate_verilog(&cfg).map_err(|e| format!("mbarrier_unit {name}: {e}"))?;
        let dir = format!("mbarrier_unit/{REDUCED_RANGE_DIR}/{name}");
        files.push(ReleasedFile::new(format!("{dir}/mbarrier_unit.v"), v));
        files.push(ReleasedFile::new(
            format!("{dir}/config.yaml"),
            config_yaml(&cfg),
        ));
    }
    files.push(ReleasedFile::new(
        "mbarrier_unit.vlt",
        include_str!("../lint/mbarrier_unit.vlt"),
    ));
    Ok(files)
}

/// `verilog_out/async_groups/<name>/…`, `verilog_out/async_groups_<name>.core`,
/// `verilog_out/async_groups.vlt`.
pub fn ag_ip_release() -> Result<Vec<ReleasedFile>, String> {
    let mut files = Vec::new();
    for (name, cfg) in ag_shipped() {
        let v = ag_generate_verilog(&cfg).map_err(|e| format!("async_groups {name}: {e}"))?;
        files.push(ReleasedFile::new(
            format!("async_groups/{name}/async_groups.v"),
            v,
        ));
        files.push(ReleasedFile::new(
            format!("async_groups/{name}/config.yaml"),
            ag_config_yaml(&cfg),
        ));
        files.push(ReleasedFile::new(
            format!("async_groups_{name}.core"),
            ag_fusesoc_core(&name, &cfg),
        ));
    }
    files.push(ReleasedFile::new(
        "async_groups.vlt",
        include_str!("../lint/async_groups.vlt"),
    ));
    Ok(files)
}

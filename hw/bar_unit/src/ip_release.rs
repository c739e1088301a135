//! The released IP set of the named-barrier unit and of the cluster barrier
//! (what `membar release --unit bar|cluster` writes under `verilog_out/`):
//! each shipped configuration's Verilog, `config.yaml` and FuseSoC core,
//! and each unit's Verilator waiver file.

use crate::{
    cluster_fusesoc_core, config_yaml, fusesoc_core, generate_cluster_verilog, generate_verilog,
    shipped_cluster_configs, shipped_configs,
};
use hdl_kit::release::ReleasedFile;

/// `verilog_out/bar_unit/<name>/{bar_unit.v, config.yaml}`,
/// `verilog_out/bar_unit_<name>.core`, `verilog_out/bar_unit.vlt`.
pub fn ip_release() -> Result<Vec<ReleasedFile>, String> {
    let mut files = Vec::new();
    for (name, cfg) in shipped_configs() {
        let v = generate_verilog(&cfg).map_err(|e| format!("bar_unit {name}: {e}"))?;
        files.push(ReleasedFile::new(format!("bar_unit/{name}/bar_unit.v"), v));
        files.push(ReleasedFile::new(
            format!("bar_unit/{name}/config.yaml"),
            config_yaml(&cfg),
        ));
        files.push(ReleasedFile::new(
            format!("bar_unit_{name}.core"),
            fusesoc_core(name, &cfg),
        ));
    }
    files.push(ReleasedFile::new(
        "bar_unit.vlt",
        include_str!("../lint/bar_unit.vlt"),
    ));
    Ok(files)
}

/// `config.yaml` text of a cluster barrier configuration.
pub fn cluster_config_yaml(cfg: &bar_unit_model::config::ClusterConfig) -> String {
    format!(
        "# cluster_barrier configuration (spec/cluster_barrier.md)\nranks: {}\n",
        cfg.ranks
    )
}

/// `verilog_out/cluster_barrier/<name>/{cluster_barrier.v, config.yaml}`,
/// `verilog_out/cluster_barrier_<name>.core`, `verilog_out/cluster_barrier.vlt`.
pub fn cluster_ip_release() -> Result<Vec<ReleasedFile>, String> {
    let mut files = Vec::new();
    for (name, cfg) in shipped_cluster_configs() {
        let v =
            generate_cluster_verilog(&cfg).map_err(|e| format!("cluster_barrier {name}: {e}"))?;
        files.push(ReleasedFile::new(
            format!("cluster_barrier/{name}/cluster_barrier.v"),
            v,
        ));
        files.push(ReleasedFile::new(
            format!("cluster_barrier/{name}/config.yaml"),
            cluster_config_yaml(&cfg),
        ));
        files.push(ReleasedFile::new(
            format!("cluster_barrier_{name}.core"),
            cluster_fusesoc_core(name, &cfg),
        ));
    }
    files.push(ReleasedFile::new(
        "cluster_barrier.vlt",
        include_str!("../lint/cluster_barrier.vlt"),
    ));
    Ok(files)
}

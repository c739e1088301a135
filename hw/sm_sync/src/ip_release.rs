//! The released IP set of the `sm_sync` top (what `membar release --unit
//! sm_sync` writes under `verilog_out/`): each supported configuration's
//! Verilog, its `config.yaml` (every unit's keys, resolved) and its FuseSoC core, and
//! the top's Verilator waiver file.

use crate::generate_verilog;
use crate::verilog::fusesoc_core;
use hdl_kit::release::ReleasedFile;

/// `verilog_out/sm_sync/<name>/{sm_sync.v, config.yaml}`,
/// `verilog_out/sm_sync_<name>.core`, `verilog_out/sm_sync.vlt`.
pub fn ip_release() -> Result<Vec<ReleasedFile>, String> {
    let mut files = Vec::new();
    for (name, cfg) in sm_sync_model::Config::named() {
        let v = generate_verilog(&cfg).map_err(|e| format!("sm_sync {name}: {e}"))?;
        files.push(ReleasedFile::new(format!("sm_sync/{name}/sm_sync.v"), v));
        files.push(ReleasedFile::new(
            format!("sm_sync/{name}/config.yaml"),
            format!(
                "# sm_sync configuration (spec/sm_sync.md): the supported configuration `{name}`, every\n\
                 # key of its units written out (`preset: {name}` reads the same); generated, do not edit.\n\
                 # A copy with other values is a configuration of your own (`membar generate --unit sm_sync --config`).\n{}",
                cfg.to_yaml()
            ),
        ));
        files.push(ReleasedFile::new(
            format!("sm_sync_{name}.core"),
            fusesoc_core(name, &cfg),
        ));
    }
    files.push(ReleasedFile::new(
        "sm_sync.vlt",
        include_str!("../lint/sm_sync.vlt"),
    ));
    Ok(files)
}

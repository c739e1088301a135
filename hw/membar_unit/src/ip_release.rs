//! The released IP set of the memory-barrier unit (what `membar release
//! --unit membar` writes under `verilog_out/`): each grid configuration's
//! Verilog and `config.yaml` in `verilog_out/<name>/`, its FuseSoC core and
//! the unit's Verilator waiver file.

use crate::{fusesoc_core, generate_verilog};
use hdl_kit::release::ReleasedFile;
use membar_unit_model::Config;

/// `verilog_out/<name>/{membar_unit.v, config.yaml}`,
/// `verilog_out/membar_unit_<name>.core`, `verilog_out/membar_unit.vlt`.
pub fn ip_release() -> Result<Vec<ReleasedFile>, String> {
    let mut files = Vec::new();
    for (name, cfg) in Config::grid() {
        let v = generate_verilog(&cfg).map_err(|e| format!("membar_unit {name}: {e}"))?;
        files.push(ReleasedFile::new(format!("{name}/membar_unit.v"), v));
        files.push(ReleasedFile::new(
            format!("{name}/config.yaml"),
            cfg.to_yaml(),
        ));
        files.push(ReleasedFile::new(
            format!("membar_unit_{name}.core"),
            fusesoc_core(name, &cfg),
        ));
    }
    files.push(ReleasedFile::new(
        "membar_unit.vlt",
        include_str!("../lint/membar_unit.vlt"),
    ));
    Ok(files)
}

//! membar-sim: the membar unit's environment and exploration — the
//! memory-system (MMU) model, workloads, sessions and the driver of the one
//! lockstep runner, statistics, VCD traces and the H100/H200 calibration.
//!
//! The golden model and its checkers live in crate `membar-unit-model`
//! (`sim/membar_unit/`); they are re-exported here under the same paths
//! (`membar_sim::config`, `::ports`, `::membar_unit`, `::scoreboard`, …).

pub use membar_unit_model::{
    baselines, config, coverage, input, membar_unit, membar_unit_ports, model_for, mutants, ports,
    scoreboard, Config, Dut, InputError, Inputs, MembarModel, Outputs, PortBundle,
};

pub mod calibration;
pub mod drop_demote;
pub mod mmu;
pub mod run;
pub mod session;
pub mod stats;
pub mod vcd;
pub mod workload;

/// Load a unit configuration from `path`: a plain config file, or a
/// calibrated preset (`configs/h100.yaml`), of which the `unit:` section is
/// the configuration and every other section is validated too.
pub fn load_config(path: &std::path::Path) -> Result<Config, InputError> {
    let text = input::read_input(path, "config")?;
    let source = path.display().to_string();
    if config::is_preset(&text) {
        calibration::Preset::from_yaml_str(&text, &source).map(|p| p.unit)
    } else {
        Config::from_yaml_str(&text, &source)
    }
}

//! membar-explore: design-space exploration of the membar unit on top of its
//! environment (`membar-unit-env`: memory-system model, workloads, sessions).
//!
//! - [`grid`]: sweep grid files (`grids/*.yaml`) into resolved points;
//! - [`sweep`]: the runner of one point, its metric observers and the sweep
//!   CSV's columns;
//! - [`plot`]: the SVG plots of a sweep;
//! - [`calibration`]: calibrated presets (`configs/h100.yaml`), the SM
//!   scenarios that reproduce the measured fence latencies
//!   (`data/calibration/`), the evaluation and the fit;
//!   [`calibration_report`] runs them in parallel and prints the tables.
//!
//! The command line (`membar sweep`, `membar calibrate`) only parses
//! arguments, writes the outputs and sets exit codes.

pub mod calibration;
pub mod calibration_report;
pub mod grid;
pub mod plot;
pub mod sweep;

use membar_unit_env::config::{self, Config, InputError};

/// Load a unit configuration from `path`: a plain config file, or a
/// calibrated preset (`configs/h100.yaml`), of which the `unit:` section is
/// the configuration and every other section is validated too.
pub fn load_config(path: &std::path::Path) -> Result<Config, InputError> {
    let text = membar_unit_env::input::read_input(path, "config")?;
    let source = path.display().to_string();
    if config::is_preset(&text) {
        calibration::Preset::from_yaml_str(&text, &source).map(|p| p.unit)
    } else {
        Config::from_yaml_str(&text, &source)
    }
}

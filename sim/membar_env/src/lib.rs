//! membar-unit-env: the membar unit's environment — the memory-system (MMU)
//! model, workloads, sessions and the driver of the one lockstep runner, the
//! per-run statistics observer and VCD traces. Exploration (sweeps, plots,
//! the H100/H200 calibration) is crate `membar-explore` (`sim/explore/`).
//!
//! The golden model and its checkers live in crate `membar-unit-model`
//! (`sim/membar_unit/`); they are re-exported here under the same paths
//! (`membar_unit_env::config`, `::ports`, `::membar_unit`, `::scoreboard`, …;
//! `::mutants` with feature `mutants`, which turns on the model's).

/// The model's deliberate bugs (`membar_unit_model::mutants`), for the
/// mutant tests only: feature `mutants`, off by default.
#[cfg(feature = "mutants")]
pub use membar_unit_model::mutants;
pub use membar_unit_model::{
    baselines, config, coverage, input, membar_unit, membar_unit_ports, model_for, ports,
    scoreboard, Config, Dut, InputError, Inputs, MembarModel, Outputs, PortBundle,
};

pub mod drop_demote;
pub mod mmu;
pub mod run;
pub mod session;
pub mod stats;
pub mod vcd;
pub mod workload;

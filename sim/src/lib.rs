//! membar-sim: the cycle-accurate reference model of `membar_unit`, its
//! configuration, the memory-system (MMU) model, workloads, the P1–P7
//! property scoreboard and the driver loop shared by every back end.

pub mod baselines;
pub mod calibration;
pub mod config;
pub mod coverage;
pub mod input;
pub mod membar_unit;
pub mod mmu;
pub mod mutants;
pub mod ports;
pub mod run;
pub mod scoreboard;
pub mod session;
pub mod stats;
pub mod vcd;
pub mod workload;

pub use config::{Config, InputError};

/// The reference model of `cfg`'s micro-architecture: the golden
/// [`MembarModel`] for `arch: coalescing`, a
/// [`baselines::BaselineModel`] otherwise.
pub fn model_for(cfg: &Config) -> Box<dyn Dut<ports::MembarUnitPorts>> {
    if cfg.arch == config::Arch::Coalescing {
        Box::new(MembarModel::new(cfg))
    } else {
        Box::new(baselines::BaselineModel::new(cfg))
    }
}
pub use membar_unit::MembarModel;
pub use ports::{Dut, Inputs, Outputs, PortBundle};

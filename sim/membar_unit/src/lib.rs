//! membar-unit-model: the golden model of `membar_unit` (contract:
//! `spec/membar_unit.md`) and what checks a design against it, with nothing
//! of the environment.
//!
//! | file | what | RTL twin |
//! | --- | --- | --- |
//! | `config.rs` | parameters and strict YAML parsing (`input.rs`) | `hw/membar_unit/src/dispatch.rs` |
//! | `ports.rs` | the one port declaration `membar_unit_ports!` | the top's `Signal` fields |
//! | `membar_unit.rs` | the pure kernel `eval(cfg, q, i) -> (o, d, events)` | `hw/membar_unit/src/*.rs`, one block per section |
//! | `baselines.rs` | per-warp-drain and LSU-flush models, same ports | — |
//! | `scoreboard.rs` | port-only checker of P1–P7 | the formal monitor (`formal/`) |
//! | `coverage.rs` | functional coverage bins | — |
//! | `mutants.rs` | deliberate bugs as wrappers around the kernel (feature `mutants`, tests only) | the Verilog mutants of `formal/` |

pub mod baselines;
pub mod config;
pub mod coverage;
pub mod input;
pub mod membar_unit;
// Test-only machinery: off by default, on in test crates' dev-dependencies.
#[cfg(feature = "mutants")]
pub mod mutants;
pub mod ports;
pub mod scoreboard;

pub use config::{Config, InputError};
pub use membar_unit::MembarModel;
pub use ports::{Dut, Inputs, Outputs, PortBundle};

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

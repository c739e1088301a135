//! membar-testbench: cosimulation of the emitted `membar_unit.v` (Verilated)
//! against the Rust reference model, in lockstep through a C ABI.
//!
//! - [`verilate`]: builds `verilator --cc --exe --build` + the C shim
//!   (generated from the port declaration) into a shared library, cached by a SHA-256 of
//!   the Verilog, flags, shim and tool versions under
//!   `<target>/verilator-cache/`.
//! - [`VerilatorDut`]: the loaded library as a [`membar_unit_env::Dut`].
//! - [`cosim()`]: the lockstep loop against [`membar_unit_env::MembarModel`], with
//!   the first mismatch reported (cycle, port, expected/actual, seed, recent
//!   history) and a waveform written by a traced replay.
//! - [`stimulus`]: a seeded random upstream/downstream pair.

pub mod cosim;
pub mod dut;
pub mod error;
pub mod portcheck;
/// The hand-written stand-in `membar_unit` (test support in
/// `tests/common/`), for the port check's unit test.
#[cfg(test)]
#[path = "../tests/common/standin.rs"]
mod standin;
pub mod stimulus;
pub mod verilate;

pub use cosim::{cosim, lockstep, CosimOptions, CosimReport, Coverage, Mismatch};
pub use dut::VerilatorDut;
pub use error::CosimError;
pub use verilate::{build_library, BuildOptions, BuiltLibrary, TraceFormat};

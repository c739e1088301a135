//! membar-formal: formal proofs of the units' contracts on the emitted
//! Verilog with SymbiYosys — the unit-independent layer (tools, runner,
//! replay, harness parts from a port declaration) and the membar unit's
//! harness (`spec/membar_unit.md`). Every other unit's harness lives in its
//! own entry crate (`hw/<unit>/entry/src/<unit>_formal.rs`) and its formal
//! tests beside it (`hw/<unit>/entry/tests/formal*.rs`).
//!
//! - [`harness`]: the top `membar_formal_top` (free inputs, reset in cycle 0,
//!   port-level monitor with labelled assertions, grouped),
//! - [`sby`]: the `.sby` writer and the tool look-up (yowasp-sby, abc, yices),
//! - [`runner`]: runs one sby task per property group and parses the result,
//! - [`replay`]: turns a counterexample VCD into per-cycle [`membar_unit_env::Inputs`]
//!   and replays it through the reference model and the scoreboard,
//! - [`taps`]: harness wires connected to the RTL's registers (strengthening invariants),
//! - [`mutants`]: textual mutants of the emitted Verilog (test machinery;
//!   the other units' tables are in their entry crates' tests),
//! - [`unit`]: what the runner needs of a unit (harness, groups, replay) and
//!   the harness part generated from a port declaration,
//! - [`suite`]: what every unit's formal tests share (CI options, verdict
//!   checks, the harness structure check, the mutant-killing run).

pub mod harness;
pub mod mutants;
pub mod replay;
pub mod runner;
pub mod sby;
pub mod suite;
pub mod taps;
pub mod unit;

//! membar-formal: formal proofs of the units' contracts (membar_unit SPEC.md,
//! bar_unit, cluster_barrier, mbarrier_unit, async_groups, sm_sync) on the
//! emitted Verilog with SymbiYosys.
//!
//! - [`harness`]: the top `membar_formal_top` (free inputs, reset in cycle 0,
//!   port-level monitor with labelled assertions, grouped),
//! - [`sby`]: the `.sby` writer and the tool look-up (yowasp-sby, abc, yices),
//! - [`runner`]: runs one sby task per property group and parses the result,
//! - [`replay`]: turns a counterexample VCD into per-cycle [`membar_unit_env::Inputs`]
//!   and replays it through the reference model and the scoreboard,
//! - [`taps`]: harness wires connected to the RTL's registers (strengthening invariants),
//! - [`mutants`]: textual mutants of the emitted Verilog (test machinery),
//! - [`unit`]: what the runner needs of a unit (harness, groups, replay) and
//!   the harness part generated from a port declaration; [`bar`],
//!   [`cluster`], [`mbarrier`]: the harnesses of the other units.
//! - [`async_groups`], [`sm_sync`]: the harnesses of the async-group tracker
//!   and of the sm_sync top.

pub mod async_groups;
pub mod sm_sync;

pub mod bar;
pub mod cluster;
pub mod harness;
pub mod mbarrier;

pub mod mutants;
pub mod replay;
pub mod runner;
pub mod sby;
pub mod taps;
pub mod unit;

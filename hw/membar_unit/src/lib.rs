//! membar-unit-rtl: the synthesizable rust-hdl description of `membar_unit`
//! (SPEC.md), its lockstep simulation and its Verilog.
//!
//! The RTL is the same micro-architecture as the reference model
//! `membar_unit_model::membar_unit` (same registers, same next-state function, same
//! outputs every cycle, reset included), split into one block per file:
//!
//! | file | block | model state |
//! | --- | --- | --- |
//! | `membar_unit.rs` | [`MembarUnit`]: top, wiring, reset gating of the outputs | — |
//! | `request_gate.rs` | accept/refuse, warp blocking, CTA-pending warps, release mask | `cta_pend` |
//! | `coalescer.rs` | the open slot, close and join decisions | `open`, `nmem`, `age` |
//! | `commit_counters.rs` | per-slot outstanding-TXN counters, `ack` check | `cnt` |
//! | `counter_bank.rs` | holds the counters whatever their width (transparent) | — |
//! | `slot_ring.rs` | per-slot barrier state, `bar_ack` check, release walk | `members`, `level`, `ivall`, `closed`, `bar_sent`, `ack_req`, `bar_acked` (no `head`: see the block header) |
//! | `cmd_stream.rs` | output register, INVAL/BARRIER sequencer | `out`, `seq_pend`, `seq_tag` |
//! | `hdl_kit::onehot` | one-hot decoder primitive (shared) | — |
//!
//! Around the RTL: `dispatch.rs` maps a runtime `Config` to the const-generic
//! unit, `hdl_dut.rs` steps its rust-hdl simulation in lockstep, `verilog.rs`
//! emits `membar_unit.v`. Entry points: [`hdl_dut`] (the rust-hdl simulation
//! as a `membar_unit_model::Dut`) and [`generate_verilog`] (the text of
//! `membar_unit.v`); `hw/membar_unit/lint/check.sh` lints an emitted file with Verilator
//! and yosys.
//! The model's deliberate faults (`membar_unit_model::mutants::Fault`, test-only
//! feature `mutants`) have no hardware counterpart.

pub mod cmd_stream;
pub mod coalescer;
pub mod commit_counters;
pub mod counter_bank;
pub mod dispatch;
pub mod fusesoc;
mod hdl_dut;
pub mod ip_release;
pub mod membar_unit;
/// The shared one-hot decoder primitive (`hdl_kit::onehot`).
pub use hdl_kit::onehot;
pub mod request_gate;
pub mod slot_ring;
pub mod verilog;

pub use dispatch::check_supported;
pub use fusesoc::fusesoc_core;
pub use ip_release::ip_release;
pub use membar_unit::MembarUnit;
pub use verilog::{generate_verilog, module_prefix, spec_ports, Dir};

/// The rust-hdl simulation of `membar_unit` for `cfg`, stepped in lockstep
/// like the reference model. `Err` (naming the key, the value and what is
/// allowed) when `cfg` is outside what the RTL supports.
pub fn hdl_dut(
    cfg: &membar_unit_model::Config,
) -> Result<Box<dyn membar_unit_model::Dut<membar_unit_model::ports::MembarUnitPorts>>, String> {
    let model: Box<dyn membar_unit_model::Dut<membar_unit_model::ports::MembarUnitPorts>> =
        dispatch::build(cfg)?;
    Ok(model)
}

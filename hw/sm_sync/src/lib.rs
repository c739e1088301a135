//! sm-sync-rtl: the synthesizable rust-hdl top `sm_sync`
//! (`spec/sm_sync.md`), its lockstep simulation and its Verilog.
//!
//! | file | block |
//! | --- | --- |
//! | `sm_sync.rs` | [`SmSync`]: the four unit RTL tops, routing, combined outputs |
//! | `port_reg.rs` | [`port_reg::PortReg`]: the registered instruction port (or a wire) |
//! | `decoder.rs` | [`decoder::Decoder`]: unit select and refusal of reserved codes |
//!
//! Around the RTL: `dispatch.rs` maps a runtime `Config` to the
//! const-generic top, `hdl_dut.rs` steps its rust-hdl simulation in
//! lockstep, `verilog.rs` emits `sm_sync.v`.

pub mod decoder;
pub mod dispatch;
pub mod hdl_dut;
pub mod ip_release;
pub mod port_reg;
pub mod sm_sync;
pub mod verilog;

pub use ip_release::ip_release;
pub use sm_sync::SmSync;
pub use verilog::{generate_verilog, module_prefix, synth_harness, verilog_of, HARNESS_TOP};

/// The rust-hdl simulation of `sm_sync` for `cfg`, stepped in lockstep like
/// the reference model; `Err` when `cfg` has no RTL.
pub fn hdl_dut(
    cfg: &sm_sync_model::Config,
) -> Result<Box<dyn unit_ports::Dut<sm_sync_model::SmSyncPorts>>, String> {
    let m: Box<dyn unit_ports::Dut<sm_sync_model::SmSyncPorts>> = dispatch::build(cfg)?;
    Ok(m)
}

//! bar-unit-rtl: the synthesizable rust-hdl description of `bar_unit`
//! (`spec/bar_unit.md`), its lockstep simulation and its Verilog.
//!
//! The RTL has the golden model's registers (`bar_unit_model::bar_unit`),
//! except that the per-barrier waiting masks are a per-warp barrier id (see
//! `warp_table.rs`), split into one block per file:
//!
//! | file | block | model state |
//! | --- | --- | --- |
//! | `bar_unit.rs` | [`BarUnit`]: top, request/ctl checks, routing, reset gating | — |
//! | `warp_table.rs` | per-warp registers, release mask | `live`, `warp_slot`, `blocked`, `waiting` |
//! | `cta_barriers.rs` | one CTA slot's 16 barriers, arrival/exit/completion | `bars`, `slot_busy`, `slot_size`, `slot_live` |
//! | `release_reg.rs` | the `rel_*` register | `rel` |
//! | `popcount.rs` | popcount primitive | — |
//! | `onehot.rs` | one-hot decoder primitive | — |
//!
//! Around the RTL: `dispatch.rs` maps a runtime `BarConfig` to the
//! const-generic unit, `hdl_dut.rs` steps its rust-hdl simulation in
//! lockstep, `verilog.rs` emits `bar_unit.v`.

pub mod bar_unit;
pub mod cta_barriers;
mod dispatch;
mod hdl_dut;
pub mod onehot;
pub mod popcount;
pub mod release_reg;
pub mod verilog;
pub mod warp_table;

pub use bar_unit::BarUnit;
pub use dispatch::SUPPORTED;
pub use verilog::{generate_verilog, module_prefix};

/// The rust-hdl simulation of `bar_unit` for `cfg`, stepped in lockstep like
/// the golden model; `Err` when `cfg` has no RTL.
pub fn hdl_dut(
    cfg: &bar_unit_model::config::BarConfig,
) -> Result<Box<dyn unit_ports::Dut<bar_unit_model::ports::BarUnitPorts>>, String> {
    let m: Box<dyn unit_ports::Dut<bar_unit_model::ports::BarUnitPorts>> = dispatch::build(cfg)?;
    Ok(m)
}

/// The configurations whose Verilog is checked in under
/// `verilog_out/bar_unit/<name>/bar_unit.v` (with `config.yaml`): the
/// default and three grid points (the smallest, a non-power-of-two slot
/// count, a mid-size SM).
pub fn shipped_configs() -> Vec<(&'static str, bar_unit_model::config::BarConfig)> {
    use bar_unit_model::config::BarConfig;
    vec![
        ("default", BarConfig::default()),
        (
            "w8_c1",
            BarConfig {
                warps: 8,
                cta_slots: 1,
            },
        ),
        (
            "w8_c3",
            BarConfig {
                warps: 8,
                cta_slots: 3,
            },
        ),
        (
            "w16_c4",
            BarConfig {
                warps: 16,
                cta_slots: 4,
            },
        ),
    ]
}

/// `config.yaml` text of a configuration (reads back with `BarConfig::from_yaml`).
pub fn config_yaml(cfg: &bar_unit_model::config::BarConfig) -> String {
    format!(
        "# bar_unit configuration (spec/bar_unit.md)\nwarps: {}\ncta_slots: {}\n",
        cfg.warps, cfg.cta_slots
    )
}

//! From a runtime [`Config`] to a const-generic [`AsyncGroups`](crate::async_groups::AsyncGroups).
//!
//! The tracker's logic depends on three keys only: `warps` (W),
//! `group_depth` (G) and `group_op_bits` (OB); the derived widths (WB, HB,
//! NB) are const generics too, so each supported (W, G, OB) is one arm
//! below: the default and the grid configurations shipped in
//! `verilog_out/async_groups/`, plus a few more. Anything else is an `Err`
//! naming the keys, the value and what is allowed. Adding a configuration
//! is one line here.

use mbarrier_unit_model::config::Config;

use crate::ag_hdl_dut::{AgHdlDut, AgHdlModel};

/// (warps, group_depth, group_op_bits) with RTL.
pub const AG_SUPPORTED: &[(u32, u32, u32)] = &[
    (32, 8, 4),
    (8, 2, 1),
    (16, 4, 2),
    (64, 4, 8),
    (64, 16, 8),
    (8, 2, 3),
    (32, 16, 4),
    (16, 8, 4),
];

/// The rust-hdl-simulated tracker for `cfg`, or why `cfg` has no RTL.
pub fn build(cfg: &Config) -> Result<Box<dyn AgHdlModel>, String> {
    cfg.validate("async_groups RTL")
        .map_err(|e| e.to_string())?;
    // (W, WB, G, HB, NB, OB)
    macro_rules! unit {
        ($w:literal, $wb:literal, $g:literal, $hb:literal, $nb:literal, $ob:literal) => {
            Ok(Box::new(AgHdlDut::<$w, $wb, $g, $hb, $nb, $ob>::new(cfg)?))
        };
    }
    let key = (cfg.warps, cfg.group_depth, cfg.group_op_bits);
    match key {
        (32, 8, 4) => unit!(32, 5, 8, 3, 4, 4),
        (8, 2, 1) => unit!(8, 3, 2, 1, 2, 1),
        (16, 4, 2) => unit!(16, 4, 4, 2, 3, 2),
        (64, 4, 8) => unit!(64, 6, 4, 2, 3, 8),
        (64, 16, 8) => unit!(64, 6, 16, 4, 5, 8),
        (8, 2, 3) => unit!(8, 3, 2, 1, 2, 3),
        (32, 16, 4) => unit!(32, 5, 16, 4, 5, 4),
        (16, 8, 4) => unit!(16, 4, 8, 3, 4, 4),
        _ => Err(format!(
            "async_groups RTL: unsupported configuration: `warps, group_depth, group_op_bits` = {key:?}: \
             allowed: one of {} (group_depth 1 has no RTL; add a line to hw/mbarrier_unit/src/ag_dispatch.rs for more)",
            AG_SUPPORTED
                .iter()
                .map(|t| format!("{t:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

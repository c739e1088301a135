//! From a runtime [`BarConfig`] to a const-generic [`BarUnit`].
//!
//! The port widths are const generics (W, WB, C, SB, CB, RB), so each
//! (warps, cta_slots) pair is its own type; the pairs with RTL are listed in
//! [`SUPPORTED`], one arm each below. Any other configuration is an `Err`
//! naming the keys, the value and what is allowed.

use bar_unit_model::config::BarConfig;

use crate::hdl_dut::{HdlBarDut, HdlBarModel};

/// (warps, cta_slots) pairs with RTL.
pub const SUPPORTED: [(u32, u32); 6] = [(8, 1), (8, 3), (8, 4), (16, 4), (32, 8), (64, 8)];

/// The rust-hdl-simulated unit for `cfg`, or why `cfg` has no RTL.
pub fn build(cfg: &BarConfig) -> Result<Box<dyn HdlBarModel>, String> {
    cfg.validate("configuration")
        .map_err(|e| format!("bar_unit RTL: {e}"))?;
    macro_rules! unit {
        ($w:literal, $wb:literal, $c:literal, $sb:literal) => {
            Ok(Box::new(HdlBarDut::<
                $w,
                $wb,
                $c,
                $sb,
                { $wb + 1 },
                { $wb + 6 },
            >::new(cfg)?))
        };
    }
    match (cfg.warps, cfg.cta_slots) {
        (8, 1) => unit!(8, 3, 1, 1),
        (8, 3) => unit!(8, 3, 3, 2),
        (8, 4) => unit!(8, 3, 4, 2),
        (16, 4) => unit!(16, 4, 4, 2),
        (32, 8) => unit!(32, 5, 8, 3),
        (64, 8) => unit!(64, 6, 8, 3),
        (warps, slots) => Err(format!(
            "bar_unit RTL: unsupported configuration: `warps, cta_slots` = {warps}, {slots}: allowed: {}",
            SUPPORTED
                .iter()
                .map(|(w, c)| format!("{w}, {c}"))
                .collect::<Vec<_>>()
                .join("; ")
        )),
    }
}

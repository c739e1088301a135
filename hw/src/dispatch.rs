//! From a runtime [`Config`] to a const-generic [`MembarUnit`].
//!
//! The port widths are const generics (W, WB, K, TB, MB), so each
//! (warps, slots) pair SPEC.md allows is its own type: 4 × 3 = 12
//! instantiations, one arm each below. The counter width C is a const generic
//! of the commit counters only, picked at construction (13 widths × 3 slot
//! counts, in `counter_bank.rs`). The other parameters (ways,
//! coalesce_window, max_outstanding, level_mix, gl_bar_ack) are constants set
//! at construction. An unsupported configuration is an `Err` naming the key,
//! the value and what is allowed.

use membar_sim::config::Arch;
use membar_sim::Config;

use crate::hdl_dut::{HdlDut, HdlModel};

/// The rust-hdl-simulated unit for `cfg`, or why `cfg` has no RTL.
pub fn build(cfg: &Config) -> Result<Box<dyn HdlModel>, String> {
    check_supported(cfg)?;
    // (W, WB, K, TB) with MB = WB + 1; the counter width is a runtime choice
    // inside the unit (see `counter_bank.rs`).
    macro_rules! unit {
        ($w:literal, $wb:literal, $k:literal, $tb:literal) => {
            Ok(Box::new(HdlDut::<$w, $wb, $k, $tb, { $wb + 1 }>::new(cfg)?))
        };
    }
    match (cfg.warps, cfg.slots) {
        (8, 2) => unit!(8, 3, 2, 1),
        (8, 4) => unit!(8, 3, 4, 2),
        (8, 8) => unit!(8, 3, 8, 3),
        (16, 2) => unit!(16, 4, 2, 1),
        (16, 4) => unit!(16, 4, 4, 2),
        (16, 8) => unit!(16, 4, 8, 3),
        (32, 2) => unit!(32, 5, 2, 1),
        (32, 4) => unit!(32, 5, 4, 2),
        (32, 8) => unit!(32, 5, 8, 3),
        (64, 2) => unit!(64, 6, 2, 1),
        (64, 4) => unit!(64, 6, 4, 2),
        (64, 8) => unit!(64, 6, 8, 3),
        (warps, slots) => Err(unsupported(
            "warps, slots",
            format!("{warps}, {slots}"),
            "warps 8, 16, 32, 64; slots 2, 4, 8",
        )),
    }
}

/// The checks `Config::from_pairs` makes, repeated here because `Config`'s
/// fields are public and a caller may have built one by hand.
fn check_supported(cfg: &Config) -> Result<(), String> {
    if ![8, 16, 32, 64].contains(&cfg.warps) {
        return Err(unsupported("warps", cfg.warps, "one of 8, 16, 32, 64"));
    }
    if ![2, 4, 8].contains(&cfg.slots) {
        return Err(unsupported("slots", cfg.slots, "one of 2, 4, 8"));
    }
    if !(4..=16).contains(&cfg.counter_bits) {
        return Err(unsupported(
            "counter_bits",
            cfg.counter_bits,
            "an integer in 4..=16",
        ));
    }
    if cfg.arch != Arch::Coalescing {
        return Err(unsupported(
            "arch",
            cfg.arch.name(),
            "coalescing (the only micro-architecture with RTL)",
        ));
    }
    if !(1..=cfg.warps).contains(&cfg.ways) {
        return Err(unsupported(
            "ways",
            cfg.ways,
            format!("an integer in 1..=warps (warps = {})", cfg.warps),
        ));
    }
    if cfg.coalesce_window > 255 {
        return Err(unsupported(
            "coalesce_window",
            cfg.coalesce_window,
            "an integer in 0..=255",
        ));
    }
    if !(1..cfg.slots).contains(&cfg.max_outstanding) {
        return Err(unsupported(
            "max_outstanding",
            cfg.max_outstanding,
            format!("an integer in 1..=slots-1 (slots = {})", cfg.slots),
        ));
    }
    Ok(())
}

fn unsupported(
    key: &str,
    value: impl std::fmt::Display,
    allowed: impl std::fmt::Display,
) -> String {
    format!("membar_unit RTL: unsupported configuration: `{key}` = {value}: allowed: {allowed}")
}

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

use membar_unit_model::config::{rules, Arch};
use membar_unit_model::input::Rule;
use membar_unit_model::Config;

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

/// The checks the config validation pass makes (same limits, from
/// `membar_unit_model::config`), repeated here because `Config`'s fields are public
/// and a caller may have built one by hand.
pub fn check_supported(cfg: &Config) -> Result<(), String> {
    let int = |rule: Rule, key: &str, v: u32| {
        rule.int("", key, v as u64)
            .map(|_| ())
            .map_err(|e| unsupported(key, v, e.allowed))
    };
    int(rules::WARPS, "warps", cfg.warps)?;
    int(rules::SLOTS, "slots", cfg.slots)?;
    int(rules::COUNTER_BITS, "counter_bits", cfg.counter_bits)?;
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
    int(
        rules::COALESCE_WINDOW,
        "coalesce_window",
        cfg.coalesce_window,
    )?;
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

//! From a runtime [`Config`] to a const-generic [`MbarrierUnit`].
//!
//! Every port width and the wake fan-out are const generics (W, WB, M, EB,
//! CB, TB, XB, TMB, F), so each configuration the RTL supports is its own
//! type, one arm below: the default and the grid configurations shipped in
//! `verilog_out/mbarrier_unit/`, plus a few more. The try-wait limit L is a
//! constant set at construction (its timer width TMB = `Config::timer_bits`
//! is a const generic). Anything else is an `Err` naming the keys, the value
//! and what is allowed. Adding a configuration is one line here.

use mbarrier_unit_model::config::Config;

use crate::hdl_dut::{HdlDut, HdlModel};

/// (warps, entries, count_bits, tx_bits, timer_bits, wake_fanout) with RTL.
pub const SUPPORTED: &[(u32, u32, u32, u32, u32, u32)] = &[
    (32, 16, 20, 20, 7, 1),
    (8, 8, 4, 6, 4, 1),
    (16, 32, 10, 12, 6, 2),
    (64, 8, 8, 16, 8, 4),
    (32, 16, 20, 20, 7, 2),
    (32, 32, 20, 20, 7, 1),
    (16, 16, 20, 20, 7, 1),
];

/// The rust-hdl-simulated unit for `cfg`, or why `cfg` has no RTL.
pub fn build(cfg: &Config) -> Result<Box<dyn HdlModel>, String> {
    cfg.validate("mbarrier_unit RTL")
        .map_err(|e| e.to_string())?;
    macro_rules! unit {
        ($w:literal, $wb:literal, $m:literal, $eb:literal, $c:literal, $t:literal, $tm:literal, $f:literal) => {
            Ok(Box::new(HdlDut::<
                $w,
                $wb,
                $m,
                $eb,
                { $c + 1 },
                { $t + 1 },
                { $t + 3 },
                $tm,
                $f,
            >::new(cfg)?))
        };
    }
    let key = (
        cfg.warps,
        cfg.entries,
        cfg.count_bits,
        cfg.tx_bits,
        cfg.timer_bits(),
        cfg.wake_fanout,
    );
    match key {
        (32, 16, 20, 20, 7, 1) => unit!(32, 5, 16, 4, 20, 20, 7, 1),
        (8, 8, 4, 6, 4, 1) => unit!(8, 3, 8, 3, 4, 6, 4, 1),
        (16, 32, 10, 12, 6, 2) => unit!(16, 4, 32, 5, 10, 12, 6, 2),
        (64, 8, 8, 16, 8, 4) => unit!(64, 6, 8, 3, 8, 16, 8, 4),
        (32, 16, 20, 20, 7, 2) => unit!(32, 5, 16, 4, 20, 20, 7, 2),
        (32, 32, 20, 20, 7, 1) => unit!(32, 5, 32, 5, 20, 20, 7, 1),
        (16, 16, 20, 20, 7, 1) => unit!(16, 4, 16, 4, 20, 20, 7, 1),
        _ => Err(format!(
            "mbarrier_unit RTL: unsupported configuration: `warps, entries, count_bits, tx_bits, \
             timer bits of try_wait_limit, wake_fanout` = {key:?}: allowed: one of {} \
             (timer bits = ceil(log2(try_wait_limit + 1)); add a line to hw/mbarrier_unit/src/dispatch.rs for more)",
            SUPPORTED
                .iter()
                .map(|t| format!("{t:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

//! From a runtime [`Config`] to a const-generic [`MbarrierUnit`](crate::MbarrierUnit).
//!
//! Every port width and the wake fan-out are const generics (W, WB, M, EB,
//! CB, TB, XB, TMB, F), all derived from the configuration in one place,
//! [`generics`]. The width sets of [`SUPPORTED`] are compiled in (one arm
//! each below; their rust-hdl simulation runs in process): the default and
//! the grid configurations shipped in `verilog_out/mbarrier_unit/` (and its
//! `reduced_range/`), plus a few more. The try-wait limit L is a constant set at construction (its
//! timer width TMB is a const generic). Every other configuration the
//! contract allows still gets its Verilog: [`specialization`] describes the
//! emitter that `hdl_kit::specialize` builds for it on demand.

use mbarrier_unit_model::config::Config;

use crate::hdl_dut::{HdlDut, HdlModel};

/// (warps, entries, count_bits, tx_bits, timer_bits, wake_fanout) compiled in.
pub const SUPPORTED: &[(u32, u32, u32, u32, u32, u32)] = &[
    (32, 16, 20, 20, 7, 1),
    (8, 8, 20, 20, 4, 1),
    (16, 32, 20, 20, 6, 2),
    (64, 8, 20, 20, 8, 4),
    (8, 8, 4, 6, 4, 1),
    (32, 16, 20, 20, 7, 2),
    (32, 32, 20, 20, 7, 1),
    (16, 16, 20, 20, 7, 1),
];

/// The const generics of `cfg`: [W, WB, M, EB, CB, TB, XB, TMB, F].
pub fn generics(cfg: &Config) -> [usize; 9] {
    [
        cfg.warps,
        cfg.wb(),
        cfg.entries,
        cfg.eb(),
        cfg.count_port_bits(),
        cfg.tx_port_bits(),
        cfg.tx_bits + 3,
        cfg.timer_bits(),
        cfg.wake_fanout,
    ]
    .map(|v| v as usize)
}

/// The rust-hdl-simulated unit for `cfg`: `Ok(None)` when `cfg` is valid but
/// its widths are not compiled in, `Err` when `cfg` is invalid.
pub fn build_compiled(cfg: &Config) -> Result<Option<Box<dyn HdlModel>>, String> {
    cfg.validate("mbarrier_unit RTL")
        .map_err(|e| e.to_string())?;
    macro_rules! arms {
        ($g:expr; $([$($v:literal),*]),*) => {
            match $g {
                $([$($v),*] => Some(Box::new(HdlDut::<$($v),*>::new(cfg)?) as Box<dyn HdlModel>),)*
                _ => None,
            }
        };
    }
    Ok(arms!(generics(cfg);
        [32, 5, 16, 4, 21, 21, 23, 7, 1],
        [8, 3, 8, 3, 21, 21, 23, 4, 1],
        [16, 4, 32, 5, 21, 21, 23, 6, 2],
        [64, 6, 8, 3, 21, 21, 23, 8, 4],
        [8, 3, 8, 3, 5, 7, 9, 4, 1],
        [32, 5, 16, 4, 21, 21, 23, 7, 2],
        [32, 5, 32, 5, 21, 21, 23, 7, 1],
        [16, 4, 16, 4, 21, 21, 23, 7, 1]))
}

/// The rust-hdl-simulated unit for `cfg`, or why there is none in process.
pub fn build(cfg: &Config) -> Result<Box<dyn HdlModel>, String> {
    build_compiled(cfg)?.ok_or_else(|| {
        let key = (
            cfg.warps,
            cfg.entries,
            cfg.count_bits,
            cfg.tx_bits,
            cfg.timer_bits(),
            cfg.wake_fanout,
        );
        let what = format!(
            "`warps, entries, count_bits, tx_bits, timer bits of try_wait_limit, wake_fanout` = {key:?}"
        );
        let compiled: Vec<String> = SUPPORTED.iter().map(|t| format!("{t:?}")).collect();
        hdl_kit::specialize::not_compiled_in("mbarrier_unit", &what, &compiled.join(", "))
    })
}

/// The specialized emitter of `cfg`'s Verilog (for widths not compiled in).
pub fn specialization(cfg: &Config) -> hdl_kit::specialize::Request<'static> {
    hdl_kit::specialize::Request::new(
        "mbarrier_unit",
        crate::config_name(cfg),
        vec![
            ("mbarrier-unit-rtl", env!("CARGO_MANIFEST_DIR")),
            (
                "mbarrier-unit-model",
                concat!(env!("CARGO_MANIFEST_DIR"), "/../../sim/mbarrier_unit"),
            ),
        ],
        &generics(cfg),
        "    let cfg = mbarrier_unit_model::config::Config::from_yaml_str(text, \"config\").map_err(|e| e.to_string())?;\n\
         \x20   let dut = mbarrier_unit_rtl::hdl_dut::HdlDut::<{G}>::new(&cfg)?;\n\
         \x20   mbarrier_unit_rtl::verilog::verilog_of(&cfg, mbarrier_unit_rtl::hdl_dut::HdlModel::block(&dut))",
        crate::config_yaml(cfg),
    )
}

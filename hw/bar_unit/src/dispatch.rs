//! From a runtime [`BarConfig`] to a const-generic [`BarUnit`](crate::BarUnit).
//!
//! The port widths are const generics (W, WB, C, SB, CB, RB, AB), all derived
//! from `warps` and `cta_slots` in one place, [`generics`]. The width sets
//! listed in [`SUPPORTED`] are compiled in (one arm each below: their
//! rust-hdl simulation runs in process). Every other configuration the
//! contract allows still gets its Verilog: [`specialization`] describes the
//! emitter that `hdl_kit::specialize` builds for it on demand.

use bar_unit_model::config::BarConfig;

use crate::hdl_dut::{HdlBarDut, HdlBarModel};

/// (warps, cta_slots) pairs compiled in.
pub const SUPPORTED: [(u32, u32); 6] = [(8, 1), (8, 3), (8, 4), (16, 4), (32, 8), (64, 8)];

/// The const generics of `cfg`: [W, WB, C, SB, CB, RB, AB].
pub fn generics(cfg: &BarConfig) -> [usize; 7] {
    [
        cfg.warps as usize,
        cfg.wb() as usize,
        cfg.cta_slots as usize,
        cfg.sb() as usize,
        cfg.cb() as usize,
        cfg.rb() as usize,
        cfg.sb() as usize + 4,
    ]
}

/// The rust-hdl-simulated unit for `cfg`: `Ok(None)` when `cfg` is valid but
/// its widths are not compiled in, `Err` when `cfg` is invalid.
pub fn build_compiled(cfg: &BarConfig) -> Result<Option<Box<dyn HdlBarModel>>, String> {
    cfg.validate("configuration")
        .map_err(|e| format!("bar_unit RTL: {e}"))?;
    macro_rules! arms {
        ($g:expr; $([$w:literal, $wb:literal, $c:literal, $sb:literal, $cb:literal, $rb:literal, $ab:literal]),*) => {
            match $g {
                $([$w, $wb, $c, $sb, $cb, $rb, $ab] => Some(Box::new(HdlBarDut::<$w, $wb, $c, $sb, $cb, $rb, $ab>::new(cfg)?) as Box<dyn HdlBarModel>),)*
                _ => None,
            }
        };
    }
    Ok(arms!(generics(cfg);
        [8, 3, 1, 1, 4, 9, 5],
        [8, 3, 3, 2, 4, 9, 6],
        [8, 3, 4, 2, 4, 9, 6],
        [16, 4, 4, 2, 5, 10, 6],
        [32, 5, 8, 3, 6, 11, 7],
        [64, 6, 8, 3, 7, 12, 7]))
}

/// The rust-hdl-simulated unit for `cfg`, or why there is none in process.
pub fn build(cfg: &BarConfig) -> Result<Box<dyn HdlBarModel>, String> {
    build_compiled(cfg)?.ok_or_else(|| {
        let compiled = SUPPORTED.map(|(w, c)| format!("{w}, {c}")).join("; ");
        let what = format!("`warps, cta_slots` = {}, {}", cfg.warps, cfg.cta_slots);
        hdl_kit::specialize::not_compiled_in("bar_unit", &what, &compiled)
    })
}

/// The specialized emitter of `cfg`'s Verilog (for widths not compiled in).
pub fn specialization(cfg: &BarConfig) -> hdl_kit::specialize::Request<'static> {
    use unit_ports::UnitConfig;
    hdl_kit::specialize::Request::new(
        "bar_unit",
        cfg.short_name(),
        vec![
            ("bar-unit-rtl", env!("CARGO_MANIFEST_DIR")),
            ("bar-unit-model", concat!(env!("CARGO_MANIFEST_DIR"), "/../../sim/bar_unit")),
        ],
        &generics(cfg),
        "    let cfg = bar_unit_model::config::BarConfig::from_yaml(text, \"config\").map_err(|e| e.to_string())?;\n\
         \x20   let dut = bar_unit_rtl::hdl_dut::HdlBarDut::<{G}>::new(&cfg)?;\n\
         \x20   bar_unit_rtl::verilog::verilog_of(&cfg, bar_unit_rtl::hdl_dut::HdlBarModel::block(&dut))",
        crate::config_yaml(cfg),
    )
}

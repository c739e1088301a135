//! From a runtime [`Config`] to a const-generic [`AsyncGroups`](crate::async_groups::AsyncGroups).
//!
//! The tracker's logic depends on three keys only: `warps` (W),
//! `group_depth` (G) and `group_op_bits` (OB); the derived widths (WB,
//! HB = log2 G, NB) are const generics too, all derived in one place,
//! [`ag_generics`]. The (W, G, OB) of [`AG_SUPPORTED`] are compiled in (one
//! arm each below; their rust-hdl simulation runs in process): the default
//! and the grid configurations shipped in `verilog_out/async_groups/`, plus
//! a few more. Every other configuration the contract allows still gets its
//! Verilog: [`ag_specialization`] describes the emitter that
//! `hdl_kit::specialize` builds for it on demand. `group_depth` 1 has no RTL
//! (a one-group ring has no group index: HB would be 0 bits).

use mbarrier_unit_model::config::Config;

use crate::ag_hdl_dut::{AgHdlDut, AgHdlModel};

/// (warps, group_depth, group_op_bits) compiled in.
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

/// The const generics of `cfg`: [W, WB, G, HB, NB, OB].
pub fn ag_generics(cfg: &Config) -> [usize; 6] {
    [
        cfg.warps,
        cfg.wb(),
        cfg.group_depth,
        cfg.group_depth.trailing_zeros(),
        cfg.group_n_bits(),
        cfg.group_op_bits,
    ]
    .map(|v| v as usize)
}

/// `cfg` valid for the tracker's RTL (the model's checks, and G ≥ 2).
fn check(cfg: &Config) -> Result<(), String> {
    cfg.validate("async_groups RTL")
        .map_err(|e| e.to_string())?;
    if cfg.group_depth < 2 {
        return Err(format!(
            "async_groups RTL: unsupported configuration: `group_depth` = {}: allowed for the RTL: 2, 4, 8, 16 \
             (a one-group ring has no group index; the golden model takes 1)",
            cfg.group_depth
        ));
    }
    Ok(())
}

/// The rust-hdl-simulated tracker for `cfg`: `Ok(None)` when `cfg` is valid
/// but its widths are not compiled in, `Err` when the RTL cannot take `cfg`.
pub fn build_compiled(cfg: &Config) -> Result<Option<Box<dyn AgHdlModel>>, String> {
    check(cfg)?;
    macro_rules! arms {
        ($g:expr; $([$($v:literal),*]),*) => {
            match $g {
                $([$($v),*] => Some(Box::new(AgHdlDut::<$($v),*>::new(cfg)?) as Box<dyn AgHdlModel>),)*
                _ => None,
            }
        };
    }
    Ok(arms!(ag_generics(cfg);
        [32, 5, 8, 3, 4, 4],
        [8, 3, 2, 1, 2, 1],
        [16, 4, 4, 2, 3, 2],
        [64, 6, 4, 2, 3, 8],
        [64, 6, 16, 4, 5, 8],
        [8, 3, 2, 1, 2, 3],
        [32, 5, 16, 4, 5, 4],
        [16, 4, 8, 3, 4, 4]))
}

/// The rust-hdl-simulated tracker for `cfg`, or why there is none in process.
pub fn build(cfg: &Config) -> Result<Box<dyn AgHdlModel>, String> {
    build_compiled(cfg)?.ok_or_else(|| {
        let what = format!(
            "`warps, group_depth, group_op_bits` = {:?}",
            (cfg.warps, cfg.group_depth, cfg.group_op_bits)
        );
        let compiled: Vec<String> = AG_SUPPORTED.iter().map(|t| format!("{t:?}")).collect();
        hdl_kit::specialize::not_compiled_in("async_groups", &what, &compiled.join(", "))
    })
}

/// The specialized emitter of `cfg`'s Verilog (for widths not compiled in).
pub fn ag_specialization(cfg: &Config) -> hdl_kit::specialize::Request<'static> {
    hdl_kit::specialize::Request::new(
        "async_groups",
        crate::ag_config_name(cfg),
        vec![
            ("mbarrier-unit-rtl", env!("CARGO_MANIFEST_DIR")),
            (
                "mbarrier-unit-model",
                concat!(env!("CARGO_MANIFEST_DIR"), "/../../sim/mbarrier_unit"),
            ),
        ],
        &ag_generics(cfg),
        "    let cfg = mbarrier_unit_model::config::Config::from_yaml_str(text, \"config\").map_err(|e| e.to_string())?;\n\
         \x20   let dut = mbarrier_unit_rtl::ag_hdl_dut::AgHdlDut::<{G}>::new(&cfg)?;\n\
         \x20   mbarrier_unit_rtl::ag_verilog::ag_verilog_of(&cfg, mbarrier_unit_rtl::ag_hdl_dut::AgHdlModel::block(&dut))",
        crate::config_yaml(cfg),
    )
}

//! From a runtime [`Config`] to a const-generic [`SmSync`].
//!
//! The top's 22 const generics are derived from the four units'
//! configurations in one place, [`generics`]; the named configurations of
//! `Config::named` and the PTX executor's SM are compiled in (their
//! rust-hdl simulation runs in process). Every other valid configuration (any file of `preset` and
//! `membar`/`bar`/`mbarrier` sections) still gets its Verilog:
//! [`specialization`] describes the emitter `hdl_kit::specialize` builds.

use sm_sync_model::Config;
use unit_ports::UnitConfig;

use crate::hdl_dut::{HdlDut, HdlModel};
use crate::sm_sync::SmSync;

/// The const generics of `cfg`, in `SmSync`'s order: W, WB; membar K, TB,
/// MB; bar C, SB, BCB, RB, BAB; mbarrier M, EB, MCB, MTB, XB, TMB, F; async
/// groups G, HB, NB, OB; CNT.
pub fn generics(cfg: &Config) -> [usize; 22] {
    let (m, b, mb) = (&cfg.membar, &cfg.bar, &cfg.mbarrier);
    [
        m.warps,
        m.warps.trailing_zeros(),
        m.slots,
        m.slots.trailing_zeros(),
        m.warps.trailing_zeros() + 1,
        b.cta_slots,
        b.sb(),
        b.cb(),
        b.rb(),
        b.sb() + 4,
        mb.entries,
        mb.eb(),
        mb.count_port_bits(),
        mb.tx_port_bits(),
        mb.tx_bits + 3,
        mb.timer_bits(),
        mb.wake_fanout,
        mb.group_depth,
        mb.group_depth.trailing_zeros(),
        mb.group_n_bits(),
        mb.group_op_bits,
        cfg.count_bits(),
    ]
    .map(|v| v as usize)
}

/// `cfg` valid, and every unit able to take it in RTL.
fn check(cfg: &Config) -> Result<(), String> {
    cfg.validate()?;
    membar_unit_rtl::dispatch::check_supported(&cfg.membar)
        .map_err(|e| format!("sm_sync membar: {e}"))?;
    if cfg.mbarrier.group_depth < 2 {
        return Err(format!(
            "sm_sync mbarrier: unsupported configuration: `group_depth` = {}: allowed for the RTL: 2, 4, 8, 16 \
             (a one-group ring has no group index)",
            cfg.mbarrier.group_depth
        ));
    }
    Ok(())
}

/// The rust-hdl-simulated top for `cfg`: `Ok(None)` when `cfg` is valid
/// but its widths are not compiled in, `Err` when the RTL cannot take it.
pub fn build_compiled(cfg: &Config) -> Result<Option<Box<dyn HdlModel>>, String> {
    check(cfg)?;
    macro_rules! arms {
        ($g:expr; $([$($v:literal),*]),*) => {
            match $g {
                $([$($v),*] => {
                    let t = SmSync::<$($v),*>::new(cfg)?;
                    Some(Box::new(HdlDut::new(t, cfg)?) as Box<dyn HdlModel>)
                })*
                _ => None,
            }
        };
    }
    Ok(arms!(generics(cfg);
        [8, 3, 2, 1, 4, 1, 1, 4, 9, 5, 8, 3, 21, 21, 23, 4, 1, 2, 1, 2, 1, 21],
        [16, 4, 4, 2, 5, 4, 2, 5, 10, 6, 32, 5, 21, 21, 23, 6, 2, 4, 2, 3, 2, 21],
        [64, 6, 4, 2, 7, 32, 5, 7, 12, 9, 64, 6, 21, 21, 23, 7, 4, 8, 3, 4, 8, 21],
        // The PTX executor's SM (`sm_exec::exec::exec_config`: every unit's
        // default, 32 warps, one CTA slot, `try_wait` limit 4095): `membar
        // run --on rtl`.
        [32, 5, 4, 2, 6, 1, 1, 6, 11, 5, 16, 4, 21, 21, 23, 12, 1, 8, 3, 4, 4, 21]))
}

/// The rust-hdl-simulated top for `cfg`, or why there is none in process.
pub fn build(cfg: &Config) -> Result<Box<dyn HdlModel>, String> {
    build_compiled(cfg)?.ok_or_else(|| {
        let mut compiled: Vec<String> =
            Config::named().iter().map(|(n, _)| n.to_string()).collect();
        compiled.push("the PTX executor's SM".into());
        hdl_kit::specialize::not_compiled_in("sm_sync", &cfg.short_name(), &compiled.join(", "))
    })
}

/// The specialized emitter of `cfg`'s Verilog (for widths not compiled in).
pub fn specialization(cfg: &Config) -> hdl_kit::specialize::Request<'static> {
    hdl_kit::specialize::Request::new(
        "sm_sync",
        cfg.short_name(),
        vec![
            ("sm-sync-rtl", env!("CARGO_MANIFEST_DIR")),
            ("sm-sync-model", concat!(env!("CARGO_MANIFEST_DIR"), "/../../sim/sm_sync")),
        ],
        &generics(cfg),
        "    let cfg = sm_sync_model::Config::from_yaml_str(text, \"config\")?;\n\
         \x20   let top = sm_sync_rtl::SmSync::<{G}>::new(&cfg)?;\n\
         \x20   let dut = sm_sync_rtl::hdl_dut::HdlDut::new(top, &cfg)?;\n\
         \x20   sm_sync_rtl::verilog::verilog_of(&cfg, sm_sync_rtl::hdl_dut::HdlModel::block(&dut))",
        cfg.to_yaml(),
    )
}

//! From a runtime [`Config`] to a const-generic [`SmSync`]: one arm per
//! supported configuration (the named ones of `Config::named`). Anything
//! else is an `Err` naming the configuration and what is allowed.

use sm_sync_model::Config;

use crate::hdl_dut::{HdlDut, HdlModel};
use crate::sm_sync::SmSync;

/// The rust-hdl-simulated top for `cfg`, or why `cfg` has no RTL.
pub fn build(cfg: &Config) -> Result<Box<dyn HdlModel>, String> {
    cfg.validate()?;
    // W, WB; membar K, TB, MB; bar C, SB, BCB, RB; mbarrier M, EB, MCB, MTB,
    // XB, TMB, F; async G, HB, NB, OB; CNT.
    if *cfg == Config::small() {
        let t = SmSync::<8, 3, 2, 1, 4, 1, 1, 4, 9, 8, 3, 5, 7, 9, 4, 1, 2, 1, 2, 1, 5>::new(cfg)?;
        return Ok(Box::new(HdlDut::new(t, cfg)?));
    }
    if *cfg == Config::w16() {
        let t =
            SmSync::<16, 4, 4, 2, 5, 4, 2, 5, 10, 32, 5, 11, 13, 15, 6, 2, 4, 2, 3, 2, 11>::new(
                cfg,
            )?;
        return Ok(Box::new(HdlDut::new(t, cfg)?));
    }
    Err(format!(
        "sm_sync RTL: unsupported configuration {cfg:?}: allowed: {} (add an arm to hw/sm_sync/src/dispatch.rs for more)",
        Config::named()
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

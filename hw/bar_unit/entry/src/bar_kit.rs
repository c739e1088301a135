//! The named-barrier unit's [`cli_kit::kit::Kit`]: what `membar soak|bench
//! --unit bar` run (config loader, Verilog, covered golden model, stimulus,
//! B1-B7 scoreboard).

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::config::BarConfig;
use bar_unit_model::coverage::BarCoverage;
use bar_unit_model::ports::{BarInputs, BarOutputs, BarUnitPorts};
use bar_unit_model::scoreboard::BarScoreboard;
use bar_unit_model::stimulus::BarStimulus;
use cli_kit::common::CmdError;
use cli_kit::kit::{CheckObserver, Kit, Stimulus};
use std::path::{Path, PathBuf};
use unit_ports::lockstep::Observer;
use unit_ports::Dut;

pub struct Bar;
pub struct Covered {
    model: BarUnitModel,
    cov: BarCoverage,
}
impl Dut<BarUnitPorts> for Covered {
    fn step(&mut self, i: &BarInputs) -> BarOutputs {
        let before = self.model.state.clone();
        let o = self.model.step(i);
        self.cov.sample(&before, i, &o);
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}
/// The unit's random stimulus as the kit's [`Stimulus`].
pub struct Env(BarStimulus);
impl Stimulus<BarUnitPorts> for Env {
    fn next(&mut self, _cycle: u64, prev: &BarOutputs) -> BarInputs {
        self.0.next(prev)
    }
}
impl Kit for Bar {
    type U = BarUnitPorts;
    type Model = Covered;
    type Coverage = BarCoverage;
    const FLAG: &'static str = "bar";
    const PROPS: &'static str = "B1-B7";
    fn load(path: &Path) -> Result<BarConfig, CmdError> {
        crate::bar::load_config(path)
    }
    fn verilog(
        cfg: &BarConfig,
        config: &Path,
        verilog: Option<&Path>,
    ) -> Result<PathBuf, CmdError> {
        crate::bar::verilog_for(cfg, config, verilog)
    }
    fn coverage(cfg: &BarConfig) -> BarCoverage {
        BarCoverage::new(cfg)
    }
    fn model(cfg: &BarConfig, cov: BarCoverage) -> Covered {
        Covered {
            model: BarUnitModel::new(*cfg),
            cov,
        }
    }
    fn into_coverage(m: Covered) -> BarCoverage {
        m.cov
    }
    fn coverage_report(c: &BarCoverage) -> String {
        c.report()
    }
    fn coverage_unhit(c: &BarCoverage) -> Vec<String> {
        c.unhit()
    }
    fn stimulus(cfg: &BarConfig, seed: u64) -> Box<dyn Stimulus<BarUnitPorts>> {
        Box::new(Env(BarStimulus::new(cfg, seed)))
    }
    fn scoreboard(cfg: &BarConfig) -> Box<dyn Observer<BarUnitPorts>> {
        let mut sb = BarScoreboard::new(cfg);
        Box::new(CheckObserver(
            move |_c: u64, i: &BarInputs, o: &BarOutputs| {
                sb.check(i, o).map_err(|v| format!("{v:?}"))
            },
        ))
    }
}

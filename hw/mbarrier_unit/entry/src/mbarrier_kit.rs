//! The transaction-barrier unit's [`cli_kit::kit::Kit`]: what `membar
//! soak|bench --unit mbarrier` run (config loader, Verilog, covered golden
//! model, stimulus, M1-M8 scoreboard).

use cli_kit::common::CmdError;
use cli_kit::kit::{CheckObserver, Kit, Stimulus};
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::coverage::Coverage;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
use mbarrier_unit_model::ports::mbarrier::{Inputs, MbarrierUnitPorts, Outputs};
use mbarrier_unit_model::scoreboard::MbarScoreboard;
use mbarrier_unit_model::workload::MbarRandomEnv;
use std::path::{Path, PathBuf};
use unit_ports::lockstep::Observer;
use unit_ports::Dut;

pub struct Mbarrier;
pub struct Covered {
    model: MbarrierModel,
    cov: Coverage,
}
impl Dut<MbarrierUnitPorts> for Covered {
    fn step(&mut self, i: &Inputs) -> Outputs {
        let o = self.model.step(i);
        self.cov.observe_mbar(i, &o, &self.model.last_events);
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}
/// The unit's random stimulus as the kit's [`Stimulus`].
pub struct Env(MbarRandomEnv);
impl Stimulus<MbarrierUnitPorts> for Env {
    fn next(&mut self, cycle: u64, _prev: &Outputs) -> Inputs {
        self.0.drive(cycle)
    }
    fn seen(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        self.0.observe(cycle, i, o)
    }
}
impl Kit for Mbarrier {
    type U = MbarrierUnitPorts;
    type Model = Covered;
    type Coverage = Coverage;
    const FLAG: &'static str = "mbarrier";
    const PROPS: &'static str = "M1-M8";
    fn load(path: &Path) -> Result<Config, CmdError> {
        crate::mbarrier::load(path)
    }
    fn verilog(cfg: &Config, config: &Path, verilog: Option<&Path>) -> Result<PathBuf, CmdError> {
        cli_kit::kit::given_or_generated(
            verilog,
            &mbarrier_unit_rtl::module_prefix(cfg),
            "mbarrier_unit.v",
            || crate::mbarrier::verilog_for(cfg, config),
        )
    }
    fn coverage(cfg: &Config) -> Coverage {
        Coverage::new(cfg, true, false)
    }
    fn model(cfg: &Config, cov: Coverage) -> Covered {
        Covered {
            model: MbarrierModel::new(cfg),
            cov,
        }
    }
    fn into_coverage(m: Covered) -> Coverage {
        m.cov
    }
    fn coverage_report(c: &Coverage) -> String {
        c.report()
    }
    fn coverage_unhit(c: &Coverage) -> Vec<String> {
        c.unhit().into_iter().map(String::from).collect()
    }
    fn stimulus(cfg: &Config, seed: u64) -> Box<dyn Stimulus<MbarrierUnitPorts>> {
        Box::new(Env(MbarRandomEnv::new(cfg, seed)))
    }
    fn scoreboard(cfg: &Config) -> Box<dyn Observer<MbarrierUnitPorts>> {
        let mut sb = MbarScoreboard::new(cfg);
        Box::new(CheckObserver(move |c: u64, i: &Inputs, o: &Outputs| {
            sb.check(c, i, o).map_err(|v| v.to_string())
        }))
    }
}

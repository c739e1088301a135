//! The async-group tracker's [`cli_kit::kit::Kit`]: what `membar
//! soak|bench --unit async_groups` run (config loader, Verilog, covered golden
//! model, stimulus, G1-G4 scoreboard).

use cli_kit::common::CmdError;
use cli_kit::kit::{Kit, Stimulus};
use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::coverage::{Coverage, CoveredGroups};
use mbarrier_unit_model::ports::async_groups::{AsyncGroupsPorts, Inputs, Outputs};
use mbarrier_unit_model::scoreboard::GroupScoreboard;
use mbarrier_unit_model::workload::GroupRandomEnv;
use std::path::{Path, PathBuf};
use unit_ports::lockstep::Observer;

pub struct AsyncGroups;
/// The unit's random stimulus as the kit's [`Stimulus`].
pub struct Env(GroupRandomEnv);
impl Stimulus<AsyncGroupsPorts> for Env {
    fn next(&mut self, cycle: u64, _prev: &Outputs) -> Inputs {
        self.0.drive(cycle)
    }
    fn seen(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        self.0.observe(cycle, i, o)
    }
}
impl Kit for AsyncGroups {
    type U = AsyncGroupsPorts;
    type Model = CoveredGroups;
    type Coverage = Coverage;
    const FLAG: &'static str = "async_groups";
    const PROPS: &'static str = "G1-G4";
    fn load(path: &Path) -> Result<Config, CmdError> {
        crate::async_groups::load(path)
    }
    fn verilog(cfg: &Config, config: &Path, verilog: Option<&Path>) -> Result<PathBuf, CmdError> {
        cli_kit::kit::given_or_generated(
            verilog,
            &mbarrier_unit_rtl::ag_module_prefix(cfg),
            "async_groups.v",
            || crate::async_groups::verilog_for(cfg, config),
        )
    }
    fn coverage(cfg: &Config) -> Coverage {
        Coverage::new(cfg, false, true)
    }
    fn model(cfg: &Config, cov: Coverage) -> CoveredGroups {
        let mut m = CoveredGroups::new(cfg);
        m.cov = cov;
        m
    }
    fn into_coverage(m: CoveredGroups) -> Coverage {
        m.cov
    }
    fn coverage_report(c: &Coverage) -> String {
        c.report()
    }
    fn coverage_unhit(c: &Coverage) -> Vec<String> {
        c.unhit().into_iter().map(String::from).collect()
    }
    fn stimulus(cfg: &Config, seed: u64) -> Box<dyn Stimulus<AsyncGroupsPorts>> {
        Box::new(Env(GroupRandomEnv::new(cfg, seed)))
    }
    fn scoreboard(cfg: &Config) -> Box<dyn Observer<AsyncGroupsPorts>> {
        Box::new(GroupScoreboard::new(cfg))
    }
}

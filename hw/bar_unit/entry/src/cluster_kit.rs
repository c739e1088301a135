//! The cluster barrier's [`cli_kit::kit::Kit`]: what `membar soak|bench
//! --unit cluster` run (config loader, Verilog, covered golden model, stimulus,
//! C1-C4 scoreboard).

use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::ClusterConfig;
use bar_unit_model::coverage::ClusterCoverage;
use bar_unit_model::ports::{ClusterBarrierPorts, ClusterInputs, ClusterOutputs};
use bar_unit_model::scoreboard::ClusterScoreboard;
use bar_unit_model::stimulus::ClusterStimulus;
use cli_kit::common::CmdError;
use cli_kit::kit::{CheckObserver, Kit, Stimulus};
use std::path::{Path, PathBuf};
use unit_ports::lockstep::Observer;
use unit_ports::Dut;

pub struct Cluster;
pub struct Covered {
    model: ClusterBarrierModel,
    cov: ClusterCoverage,
}
impl Dut<ClusterBarrierPorts> for Covered {
    fn step(&mut self, i: &ClusterInputs) -> ClusterOutputs {
        let o = self.model.step(i);
        self.cov.sample(i, &o);
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}
/// The unit's random stimulus as the kit's [`Stimulus`].
pub struct Env(ClusterStimulus);
impl Stimulus<ClusterBarrierPorts> for Env {
    fn next(&mut self, _cycle: u64, prev: &ClusterOutputs) -> ClusterInputs {
        self.0.next(prev)
    }
}
impl Kit for Cluster {
    type U = ClusterBarrierPorts;
    type Model = Covered;
    type Coverage = ClusterCoverage;
    const FLAG: &'static str = "cluster";
    const PROPS: &'static str = "C1-C4";
    fn load(path: &Path) -> Result<ClusterConfig, CmdError> {
        crate::cluster::load_config(path)
    }
    fn verilog(
        cfg: &ClusterConfig,
        config: &Path,
        verilog: Option<&Path>,
    ) -> Result<PathBuf, CmdError> {
        if let Some(v) = verilog {
            return cli_kit::common::given_verilog(v);
        }
        let text = crate::cluster::generate_text(cfg, config)?;
        cli_kit::common::generated_verilog_file(
            &bar_unit_rtl::cluster_module_prefix(cfg),
            "cluster_barrier.v",
            &text,
        )
    }
    fn coverage(cfg: &ClusterConfig) -> ClusterCoverage {
        ClusterCoverage::new(cfg)
    }
    fn model(cfg: &ClusterConfig, cov: ClusterCoverage) -> Covered {
        Covered {
            model: ClusterBarrierModel::new(*cfg),
            cov,
        }
    }
    fn into_coverage(m: Covered) -> ClusterCoverage {
        m.cov
    }
    fn coverage_report(c: &ClusterCoverage) -> String {
        c.report()
    }
    fn coverage_unhit(c: &ClusterCoverage) -> Vec<String> {
        c.unhit().into_iter().map(String::from).collect()
    }
    fn stimulus(cfg: &ClusterConfig, seed: u64) -> Box<dyn Stimulus<ClusterBarrierPorts>> {
        Box::new(Env(ClusterStimulus::new(cfg, seed)))
    }
    fn scoreboard(cfg: &ClusterConfig) -> Box<dyn Observer<ClusterBarrierPorts>> {
        let mut sb = ClusterScoreboard::new(cfg);
        Box::new(CheckObserver(
            move |_c: u64, i: &ClusterInputs, o: &ClusterOutputs| {
                sb.check(i, o).map_err(|v| format!("{v:?}"))
            },
        ))
    }
}

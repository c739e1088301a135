//! The pieces of each sync unit that `membar bench|soak|sweep --unit U`
//! combine: its configuration loader, its Verilog (generated or `--verilog`),
//! its golden model with coverage, its random stimulus and its scoreboard —
//! all taken from the unit's own crates (`unit_bar.rs`, `unit_cluster.rs`,
//! `unit_async_groups.rs` load and generate; the model crates provide the
//! rest). The commands drive them through the one lockstep runner
//! (`unit_ports::lockstep::run`) and the Verilator DUT of `testbench/`.

use crate::common::CmdError;
use std::path::{Path, PathBuf};
use unit_ports::lockstep::{Driver, Observer, Phase};
use unit_ports::{Dut, PortBundle, Unit};

/// A unit's random stimulus: the next inputs from the previous outputs.
pub trait Stimulus<U: Unit> {
    fn next(&mut self, cycle: u64, prev: &U::Outputs) -> U::Inputs;
    /// See the cycle's inputs and the design's outputs.
    fn seen(&mut self, _cycle: u64, _i: &U::Inputs, _o: &U::Outputs) {}
}

/// Everything the generic commands need of one unit.
pub trait Kit {
    type U: Unit;
    /// The golden model wrapped so that it counts coverage.
    type Model: Dut<Self::U>;
    type Coverage;
    /// The `--unit` value.
    const FLAG: &'static str;
    /// The scoreboard's property names, for reports.
    const PROPS: &'static str;
    fn load(path: &Path) -> Result<<Self::U as Unit>::Config, CmdError>;
    fn verilog(
        cfg: &<Self::U as Unit>::Config,
        config: &Path,
        verilog: Option<&Path>,
    ) -> Result<PathBuf, CmdError>;
    fn coverage(cfg: &<Self::U as Unit>::Config) -> Self::Coverage;
    fn model(cfg: &<Self::U as Unit>::Config, cov: Self::Coverage) -> Self::Model;
    fn into_coverage(m: Self::Model) -> Self::Coverage;
    fn coverage_report(c: &Self::Coverage) -> String;
    fn coverage_unhit(c: &Self::Coverage) -> Vec<String>;
    fn stimulus(cfg: &<Self::U as Unit>::Config, seed: u64) -> Box<dyn Stimulus<Self::U>>;
    fn scoreboard(cfg: &<Self::U as Unit>::Config) -> Box<dyn Observer<Self::U>>;
}

/// A [`Stimulus`] as the lockstep runner's [`Driver`]; in the runner's reset
/// cycles (power-on, the start of every chunk) only reset is driven.
pub struct StimDriver<U: Unit> {
    pub stim: Box<dyn Stimulus<U>>,
    prev: U::Outputs,
    reset_port: Option<usize>,
}

impl<U: Unit> StimDriver<U> {
    pub fn new(stim: Box<dyn Stimulus<U>>) -> Self {
        StimDriver {
            stim,
            prev: U::Outputs::default(),
            reset_port: U::Inputs::NAMES.iter().position(|n| *n == "reset"),
        }
    }
}

impl<U: Unit> Driver<U> for StimDriver<U> {
    fn drive(&mut self, cycle: u64, i: &mut U::Inputs, _phase: Phase) {
        // The stimulus keeps its own view of the unit from what it drove, so
        // it starts after the runner's power-on reset instead of having its
        // first inputs overridden (its own resets stay mid-traffic).
        if self.reset_port.is_some_and(|k| i.get(k) != 0) {
            return;
        }
        *i = self.stim.next(cycle, &self.prev);
    }
    fn observe(&mut self, cycle: u64, i: &U::Inputs, o: &U::Outputs) {
        self.prev = *o;
        self.stim.seen(cycle, i, o);
    }
}

/// A scoreboard check as an [`Observer`].
pub struct CheckObserver<F>(pub F);

impl<U: Unit, F: FnMut(u64, &U::Inputs, &U::Outputs) -> Result<(), String>> Observer<U>
    for CheckObserver<F>
{
    fn observe(&mut self, cycle: u64, i: &U::Inputs, o: &U::Outputs) -> Result<(), String> {
        (self.0)(cycle, i, o)
    }
}

/// Create the `--out` directory (and its parents): an existing file there is
/// an input error that says so, not the system's "File exists".
pub fn create_out_dir(out: &Path) -> Result<(), CmdError> {
    if out.exists() && !out.is_dir() {
        return Err(CmdError::input(format!(
            "--out {}: exists and is not a directory; expected a directory (created if absent)",
            out.display()
        )));
    }
    std::fs::create_dir_all(out).map_err(|e| {
        let why = match e.kind() {
            std::io::ErrorKind::AlreadyExists | std::io::ErrorKind::NotADirectory => {
                "a part of the path is a file, not a directory".to_string()
            }
            _ => e.to_string(),
        };
        CmdError::input(format!(
            "--out {}: cannot create the directory: {why}",
            out.display()
        ))
    })
}

/// How a Verilog file is named in messages: `--verilog F` when the user gave
/// it, otherwise the file generated for the configuration.
pub fn verilog_label(path: &Path, given: bool) -> String {
    if given {
        format!("--verilog {}", path.display())
    } else {
        format!("the Verilog generated for --config ({})", path.display())
    }
}

/// A Verilator build error of `path` as an input error, the file named once.
pub fn build_error(e: &membar_testbench::CosimError, path: &Path, given: bool) -> CmdError {
    let msg = e.to_string();
    let prefix = format!("{}: ", path.display());
    let msg = msg.strip_prefix(&prefix).unwrap_or(&msg);
    CmdError::input(format!("{}: {msg}", verilog_label(path, given)))
}

/// The port check cosimulation makes (`membar_testbench::portcheck`), before
/// any tool runs: `path` is UTF-8 text with a `module <U::MODULE>` whose ports
/// are exactly those of `cfg`. A mismatch is an input error (exit 2).
pub fn check_verilog<U: Unit>(path: &Path, given: bool, cfg: &U::Config) -> Result<(), CmdError> {
    use unit_ports::UnitConfig;
    let label = verilog_label(path, given);
    // The one bounded reader: a FIFO, a device or a file over 64 MiB is
    // refused before any tool opens it.
    let text = crate::common::read_verilog_text("--verilog", path)?;
    let problems = membar_testbench::portcheck::check_unit_ports(
        &text,
        U::MODULE,
        &U::ports(cfg),
        &cfg.short_name(),
    );
    if problems.is_empty() {
        Ok(())
    } else {
        Err(CmdError::input(format!(
            "{label}: module {} does not have the ports of the configuration {} (was it generated from another --config?):\n  - {}",
            U::MODULE,
            cfg.short_name(),
            problems.join("\n  - ")
        )))
    }
}

/// `cosim --waves FILE` for the units whose cosim loop lives in the CLI:
/// the target is checked (not a user's file, not an input of the run), the
/// waveform is written to a temporary file beside it and renamed over it
/// when the run ends (passed or not), as `membar cosim` does.
pub struct Waves {
    pending: Option<crate::output::Pending>,
    target: Option<PathBuf>,
}

impl Waves {
    pub fn new(target: Option<&Path>, inputs: crate::output::RunInputs) -> Result<Self, CmdError> {
        use crate::output;
        let pending = match target {
            Some(w) => Some(output::Pending::begin(
                "--waves",
                w,
                &inputs,
                output::Mark::Wave,
                "a waveform",
            )?),
            None => None,
        };
        Ok(Waves {
            pending,
            target: target.map(Path::to_path_buf),
        })
    }
    /// Build options that write the waveform to the temporary file.
    pub fn build_options(&self) -> membar_testbench::BuildOptions {
        membar_testbench::BuildOptions {
            verbose: false,
            waves: self.pending.as_ref().map(|p| p.path().to_path_buf()),
            ..Default::default()
        }
    }
    /// Close the DUT's waveform, seal it with its marker and move it into
    /// place.
    pub fn finish<U: Unit>(
        self,
        dut: &mut membar_testbench::VerilatorDut<U>,
    ) -> Result<Option<PathBuf>, CmdError> {
        dut.close_waves();
        match (self.pending, self.target) {
            (Some(p), Some(w)) => {
                p.finish()?;
                Ok(Some(w))
            }
            _ => Ok(None),
        }
    }
}

/// The Verilator build of `path` for `cfg` (a bad file is an input error).
pub fn verilator<K: Kit>(
    path: &Path,
    given: bool,
    cfg: &<K::U as Unit>::Config,
) -> Result<membar_testbench::VerilatorDut<K::U>, CmdError> {
    let opts = membar_testbench::BuildOptions {
        verbose: false,
        ..Default::default()
    };
    membar_testbench::VerilatorDut::<K::U>::build(path, cfg, &opts)
        .map_err(|e| build_error(&e, path, given))
}

pub mod bar {
    use super::*;
    use bar_unit_model::bar_unit::BarUnitModel;
    use bar_unit_model::config::BarConfig;
    use bar_unit_model::coverage::BarCoverage;
    use bar_unit_model::ports::{BarInputs, BarOutputs, BarUnitPorts};
    use bar_unit_model::scoreboard::BarScoreboard;
    use bar_unit_model::stimulus::BarStimulus;

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
    impl Stimulus<BarUnitPorts> for BarStimulus {
        fn next(&mut self, _cycle: u64, prev: &BarOutputs) -> BarInputs {
            BarStimulus::next(self, prev)
        }
    }
    impl Kit for Bar {
        type U = BarUnitPorts;
        type Model = Covered;
        type Coverage = BarCoverage;
        const FLAG: &'static str = "bar";
        const PROPS: &'static str = "B1-B7";
        fn load(path: &Path) -> Result<BarConfig, CmdError> {
            crate::unit_bar::load_config(path)
        }
        fn verilog(
            cfg: &BarConfig,
            config: &Path,
            verilog: Option<&Path>,
        ) -> Result<PathBuf, CmdError> {
            crate::unit_bar::verilog_for(cfg, config, verilog)
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
            Box::new(BarStimulus::new(cfg, seed))
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
}

pub mod cluster {
    use super::*;
    use bar_unit_model::cluster_barrier::ClusterBarrierModel;
    use bar_unit_model::config::ClusterConfig;
    use bar_unit_model::coverage::ClusterCoverage;
    use bar_unit_model::ports::{ClusterBarrierPorts, ClusterInputs, ClusterOutputs};
    use bar_unit_model::scoreboard::ClusterScoreboard;
    use bar_unit_model::stimulus::ClusterStimulus;

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
    impl Stimulus<ClusterBarrierPorts> for ClusterStimulus {
        fn next(&mut self, _cycle: u64, prev: &ClusterOutputs) -> ClusterInputs {
            ClusterStimulus::next(self, prev)
        }
    }
    impl Kit for Cluster {
        type U = ClusterBarrierPorts;
        type Model = Covered;
        type Coverage = ClusterCoverage;
        const FLAG: &'static str = "cluster";
        const PROPS: &'static str = "C1-C4";
        fn load(path: &Path) -> Result<ClusterConfig, CmdError> {
            crate::unit_cluster::load_config(path)
        }
        fn verilog(
            cfg: &ClusterConfig,
            config: &Path,
            verilog: Option<&Path>,
        ) -> Result<PathBuf, CmdError> {
            if let Some(v) = verilog {
                return crate::common::given_verilog(v);
            }
            let text = crate::unit_cluster::generate_text(cfg, config)?;
            crate::common::generated_verilog_file(
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
            Box::new(ClusterStimulus::new(cfg, seed))
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
}

/// The `--unit` spelling of `unit` (its `Display`).
pub fn flag(unit: crate::units::Unit) -> String {
    unit.to_string()
}

/// A shipped configuration of `unit`, for messages (its registry entry's).
pub fn example_config(unit: crate::units::Unit) -> &'static str {
    crate::registry::entry(unit).example_config
}

/// `--verilog F`, or `text` (the configuration's generated Verilog) written
/// into `target/membar-generated/<prefix>/<file>`.
fn given_or_generated(
    verilog: Option<&Path>,
    prefix: &str,
    file: &str,
    text: impl FnOnce() -> Result<String, CmdError>,
) -> Result<PathBuf, CmdError> {
    match verilog {
        Some(v) => crate::common::given_verilog(v),
        None => crate::common::generated_verilog_file(prefix, file, &text()?),
    }
}

pub mod mbarrier {
    use super::*;
    use mbarrier_unit_model::config::Config;
    use mbarrier_unit_model::coverage::Coverage;
    use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
    use mbarrier_unit_model::ports::mbarrier::{Inputs, MbarrierUnitPorts, Outputs};
    use mbarrier_unit_model::scoreboard::MbarScoreboard;
    use mbarrier_unit_model::workload::MbarRandomEnv;

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
    impl Stimulus<MbarrierUnitPorts> for MbarRandomEnv {
        fn next(&mut self, cycle: u64, _prev: &Outputs) -> Inputs {
            self.drive(cycle)
        }
        fn seen(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
            self.observe(cycle, i, o)
        }
    }
    impl Kit for Mbarrier {
        type U = MbarrierUnitPorts;
        type Model = Covered;
        type Coverage = Coverage;
        const FLAG: &'static str = "mbarrier";
        const PROPS: &'static str = "M1-M8";
        fn load(path: &Path) -> Result<Config, CmdError> {
            crate::unit_mbarrier::load(path)
        }
        fn verilog(
            cfg: &Config,
            config: &Path,
            verilog: Option<&Path>,
        ) -> Result<PathBuf, CmdError> {
            given_or_generated(
                verilog,
                &mbarrier_unit_rtl::module_prefix(cfg),
                "mbarrier_unit.v",
                || crate::unit_mbarrier::verilog_for(cfg, config),
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
            Box::new(MbarRandomEnv::new(cfg, seed))
        }
        fn scoreboard(cfg: &Config) -> Box<dyn Observer<MbarrierUnitPorts>> {
            let mut sb = MbarScoreboard::new(cfg);
            Box::new(CheckObserver(move |c: u64, i: &Inputs, o: &Outputs| {
                sb.check(c, i, o).map_err(|v| v.to_string())
            }))
        }
    }
}

pub mod async_groups {
    use super::*;
    use mbarrier_unit_model::config::Config;
    use mbarrier_unit_model::coverage::{Coverage, CoveredGroups};
    use mbarrier_unit_model::ports::async_groups::{AsyncGroupsPorts, Inputs, Outputs};
    use mbarrier_unit_model::scoreboard::GroupScoreboard;
    use mbarrier_unit_model::workload::GroupRandomEnv;

    pub struct AsyncGroups;
    impl Stimulus<AsyncGroupsPorts> for GroupRandomEnv {
        fn next(&mut self, cycle: u64, _prev: &Outputs) -> Inputs {
            GroupRandomEnv::drive(self, cycle)
        }
        fn seen(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
            GroupRandomEnv::observe(self, cycle, i, o)
        }
    }
    impl Kit for AsyncGroups {
        type U = AsyncGroupsPorts;
        type Model = CoveredGroups;
        type Coverage = Coverage;
        const FLAG: &'static str = "async_groups";
        const PROPS: &'static str = "G1-G4";
        fn load(path: &Path) -> Result<Config, CmdError> {
            crate::unit_async_groups::load(path)
        }
        fn verilog(
            cfg: &Config,
            config: &Path,
            verilog: Option<&Path>,
        ) -> Result<PathBuf, CmdError> {
            given_or_generated(
                verilog,
                &mbarrier_unit_rtl::ag_module_prefix(cfg),
                "async_groups.v",
                || crate::unit_async_groups::verilog_for(cfg, config),
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
            Box::new(GroupRandomEnv::new(cfg, seed))
        }
        fn scoreboard(cfg: &Config) -> Box<dyn Observer<AsyncGroupsPorts>> {
            Box::new(GroupScoreboard::new(cfg))
        }
    }
}

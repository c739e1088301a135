//! One simulation session as `membar sim`, `membar sweep` and the tests run
//! it: a workload and a memory-system model around any back end, with the
//! property scoreboard and the statistics watching the ports.

use crate::config::Config;
use crate::mmu::Mmu;
use crate::ports::Dut;
use crate::ports::{Inputs, MembarUnitPorts, Outputs};
use crate::run::{run, Observer, RunOptions, RunReport};
use crate::scoreboard::Scoreboard;
use crate::stats::Stats;
use crate::workload::{Workload, WorkloadFile};

/// The stimulus of a workload file for `seed`: its warps and its memory
/// system. Every command that takes `--seed` (sim, bench, cosim, soak, sweep)
/// builds its stimulus here, so one seed means one stimulus everywhere.
pub fn stimulus(cfg: &Config, wf: &WorkloadFile, seed: u64) -> (Workload, Mmu) {
    (
        Workload::new(&wf.workload, cfg, seed),
        Mmu::new(&wf.mmu, cfg, seed ^ 0xa5a5_5a5a_0f0f_f0f0),
    )
}

/// What a session produced.
#[derive(Debug, Clone)]
pub struct SessionReport {
    pub stats: Stats,
    pub outcome: RunReport,
    /// Scoreboard property checks performed (non-vacuity).
    pub checks: u64,
    pub seed: u64,
    /// Wall-clock seconds of the whole run (stimulus, DUT, checks).
    pub secs: f64,
}

impl SessionReport {
    /// The scoreboard's verdict line.
    pub fn verdict(&self) -> String {
        match &self.outcome.failure {
            None if self.outcome.drained => format!("PASS ({} property checks)", self.checks),
            None => format!(
                "PASS, not drained within the drain limit ({} property checks)",
                self.checks
            ),
            Some(f) => format!("VIOLATION: {f}"),
        }
    }
    pub fn passed(&self) -> bool {
        self.outcome.failure.is_none()
    }
}

/// Run `dut` under the workload file's workload and memory system for
/// `opts.cycles` cycles (plus drain), checking P1–P7 every cycle.
/// `extra` observers (a VCD trace, coverage) see every cycle too.
pub fn run_session(
    cfg: &Config,
    dut: &mut dyn Dut<MembarUnitPorts>,
    wf: &WorkloadFile,
    opts: &RunOptions,
    extra: &mut [&mut dyn Observer<MembarUnitPorts>],
) -> SessionReport {
    let t0 = std::time::Instant::now();
    let (mut up, mut dn) = stimulus(cfg, wf, opts.seed);
    let mut sb = Scoreboard::new(cfg);
    let mut stats = Stats::new(cfg);
    let outcome = {
        let mut obs: Vec<&mut dyn Observer<MembarUnitPorts>> = vec![&mut sb, &mut stats];
        for e in extra.iter_mut() {
            obs.push(&mut **e);
        }
        run(dut, &mut up, &mut dn, opts, &mut obs)
    };
    let mut outcome = outcome;
    if outcome.failure.is_none() {
        if let Err(v) = sb.finish(outcome.cycles) {
            outcome.failure = Some(v.to_string());
        }
    }
    SessionReport {
        stats,
        outcome,
        checks: sb.checks(),
        seed: opts.seed,
        secs: t0.elapsed().as_secs_f64(),
    }
}

/// Record the inputs a workload and memory model drive into the reference
/// model for `cycles` cycles (after the 2-cycle reset of [`RunOptions`]): a
/// fixed input trace for benchmarking back ends on identical stimulus.
pub fn record_inputs(
    cfg: &Config,
    wf: &crate::workload::WorkloadFile,
    cycles: u64,
    seed: u64,
) -> Vec<Inputs> {
    struct Recorder(Vec<Inputs>);
    impl Observer<MembarUnitPorts> for Recorder {
        fn observe(&mut self, _cycle: u64, i: &Inputs, _o: &Outputs) -> Result<(), String> {
            self.0.push(*i);
            Ok(())
        }
    }
    let (mut up, mut dn) = stimulus(cfg, wf, seed);
    let opts = RunOptions {
        cycles,
        seed,
        drain_cycles: 0,
        ..RunOptions::default()
    };
    let mut rec = Recorder(Vec::with_capacity(
        cycles as usize + opts.reset_cycles as usize,
    ));
    crate::run::run(
        &mut *crate::model_for(cfg),
        &mut up,
        &mut dn,
        &opts,
        &mut [&mut rec],
    );
    rec.0
}

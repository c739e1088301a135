//! One simulation session as `membar sim`, `membar sweep` and the tests run
//! it: a workload and a memory-system model around any back end, with the
//! property scoreboard and the statistics watching the ports.

use crate::config::Config;
use crate::mmu::Mmu;
use crate::ports::Dut;
use crate::ports::MembarUnitPorts;
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

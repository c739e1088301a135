//! The driver loop shared by every back end: each cycle the upstream (warps)
//! and downstream (memory system) set their inputs, the design under test is
//! stepped, and observers (scoreboard, statistics, coverage, VCD) see the
//! cycle. [`lockstep`] runs two back ends on identical inputs and stops at the
//! first output that differs, naming the cycle, the port and both values.

use crate::config::Config;
use crate::ports::MembarUnitPorts;
use crate::ports::{Downstream, Dut, Inputs, Outputs, PortBundle, Upstream};
use crate::stats::Stats;
use crate::vcd::VcdWriter;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::fmt;
use std::io::Write;

/// Something that watches every cycle of a run; an `Err` stops the run.
pub trait Observer {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String>;
}

impl Observer for Stats {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        Stats::observe(self, cycle, i, o);
        Ok(())
    }
}

impl<W: Write> Observer for VcdWriter<W> {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        self.cycle(cycle, i, o)
            .map_err(|e| format!("writing the trace: {e}"))
    }
}

impl Observer for crate::scoreboard::Scoreboard {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        self.check(cycle, i, o).map_err(|v| v.to_string())
    }
}

/// How long to run and where to put resets.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Cycles of stimulus.
    pub cycles: u64,
    /// After the stimulus, at most this many cycles with no new request, until
    /// no warp is blocked and downstream has nothing outstanding.
    pub drain_cycles: u64,
    /// Reset held high for this many cycles at the start.
    pub reset_cycles: u64,
    /// Probability of a one-cycle reset in any stimulus cycle (soak: resets
    /// in the middle of traffic).
    pub reset_prob: f64,
    /// Seed of the reset schedule.
    pub seed: u64,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            cycles: 10_000,
            drain_cycles: 100_000,
            reset_cycles: 2,
            reset_prob: 0.0,
            seed: 1,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    /// Cycles simulated (stimulus + reset + drain).
    pub cycles: u64,
    /// The first observer error (e.g. a scoreboard violation), if any.
    pub failure: Option<String>,
    /// True when the drain finished with every warp released and nothing outstanding.
    pub drained: bool,
}

/// Generates this cycle's reset input from the run options.
struct ResetSchedule {
    rng: ChaCha8Rng,
    reset_cycles: u64,
    prob: f64,
}

impl ResetSchedule {
    fn new(o: &RunOptions) -> Self {
        ResetSchedule {
            rng: ChaCha8Rng::seed_from_u64(o.seed ^ 0x5e5e_7e57),
            reset_cycles: o.reset_cycles,
            prob: o.reset_prob,
        }
    }
    fn reset(&mut self, cycle: u64, stimulus: bool) -> bool {
        cycle < self.reset_cycles || (stimulus && self.prob > 0.0 && self.rng.gen_bool(self.prob))
    }
}

/// Run `dut` with `up`/`dn` for `opts.cycles` cycles and then drain; every
/// observer sees every cycle.
pub fn run(
    dut: &mut dyn Dut<MembarUnitPorts>,
    up: &mut dyn Upstream,
    dn: &mut dyn Downstream,
    opts: &RunOptions,
    observers: &mut [&mut dyn Observer],
) -> RunOutcome {
    let mut resets = ResetSchedule::new(opts);
    let total = opts.reset_cycles + opts.cycles;
    let mut cycle = 0u64;
    let mut quiet = false;
    while cycle < total + opts.drain_cycles {
        let stimulus = cycle < total;
        let mut i = Inputs {
            reset: resets.reset(cycle, stimulus),
            ..Inputs::default()
        };
        up.drive(cycle, &mut i);
        if !stimulus {
            i.req_valid = false;
        }
        dn.drive(cycle, &mut i);
        let o = dut.step(&i);
        up.observe(cycle, &i, &o);
        dn.observe(cycle, &i, &o);
        for ob in observers.iter_mut() {
            if let Err(e) = ob.observe(cycle, &i, &o) {
                return RunOutcome {
                    cycles: cycle + 1,
                    failure: Some(e),
                    drained: false,
                };
            }
        }
        cycle += 1;
        if !stimulus && o.warp_blocked == 0 && !o.dn_valid && dn.outstanding() == 0 {
            if quiet {
                break;
            }
            quiet = true; // one more cycle so the last release is observed
        }
    }
    let drained = quiet;
    RunOutcome {
        cycles: cycle,
        failure: None,
        drained,
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
    impl Observer for Recorder {
        fn observe(&mut self, _cycle: u64, i: &Inputs, _o: &Outputs) -> Result<(), String> {
            self.0.push(*i);
            Ok(())
        }
    }
    let (mut up, mut dn) = crate::session::stimulus(cfg, wf, seed);
    let opts = RunOptions {
        cycles,
        seed,
        drain_cycles: 0,
        ..RunOptions::default()
    };
    let mut rec = Recorder(Vec::with_capacity(
        cycles as usize + opts.reset_cycles as usize,
    ));
    run(
        &mut crate::MembarModel::new(cfg),
        &mut up,
        &mut dn,
        &opts,
        &mut [&mut rec],
    );
    rec.0
}

/// One cycle of a lockstep run, kept for mismatch reports.
#[derive(Clone, Copy, Debug)]
pub struct CycleRecord {
    pub cycle: u64,
    pub inputs: Inputs,
    pub expected: Outputs,
    pub actual: Outputs,
}

/// The first difference between the reference and the back end under test.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub cycle: u64,
    pub port: &'static str,
    pub expected: u64,
    pub actual: u64,
    pub seed: u64,
    pub reference: String,
    pub dut: String,
    /// The last few cycles up to and including the mismatch.
    pub history: Vec<CycleRecord>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "MISMATCH at cycle {} (seed {}): port `{}`: {} expected {:#x}, {} gave {:#x}",
            self.cycle, self.seed, self.port, self.reference, self.expected, self.dut, self.actual
        )?;
        writeln!(f, "last {} cycles:", self.history.len())?;
        for r in &self.history {
            writeln!(f, "  cycle {:>8} in:  {}", r.cycle, r.inputs.describe())?;
            if let Some((p, e, a)) = r.expected.first_difference(&r.actual) {
                writeln!(
                    f,
                    "                 out: differs at {p}: expected {e:#x} got {a:#x}"
                )?;
            } else {
                writeln!(f, "                 out: equal ({:?})", r.actual)?;
            }
        }
        Ok(())
    }
}

/// Lockstep statistics.
#[derive(Clone, Debug, Default)]
pub struct LockstepReport {
    pub cycles: u64,
    /// Wall-clock seconds spent stepping each back end.
    pub reference_secs: f64,
    pub dut_secs: f64,
    pub total_secs: f64,
    /// An observer (e.g. the scoreboard) stopped the run: its message.
    pub failure: Option<String>,
}

/// How many cycles of history a mismatch report keeps.
pub const HISTORY: usize = 8;

/// Run `reference` and `dut` on identical inputs for `opts.cycles` cycles
/// (resets per `opts`), comparing every output port every cycle. The stimulus
/// and the observers see the outputs of `dut`, so a memory model reacts to the
/// real hardware; the run stops at the first difference (`Err`) or at the
/// first observer failure (`LockstepReport::failure`).
pub fn lockstep(
    reference: &mut dyn Dut<MembarUnitPorts>,
    dut: &mut dyn Dut<MembarUnitPorts>,
    up: &mut dyn Upstream,
    dn: &mut dyn Downstream,
    opts: &RunOptions,
    observers: &mut [&mut dyn Observer],
) -> Result<LockstepReport, Box<Mismatch>> {
    let mut resets = ResetSchedule::new(opts);
    let total = opts.reset_cycles + opts.cycles;
    let mut hist: VecDeque<CycleRecord> = VecDeque::with_capacity(HISTORY + 1);
    let mut rep = LockstepReport::default();
    let t0 = std::time::Instant::now();
    for cycle in 0..total {
        let mut i = Inputs {
            reset: resets.reset(cycle, true),
            ..Inputs::default()
        };
        up.drive(cycle, &mut i);
        dn.drive(cycle, &mut i);
        let ta = std::time::Instant::now();
        let e = reference.step(&i);
        let tb = std::time::Instant::now();
        let a = dut.step(&i);
        rep.reference_secs += (tb - ta).as_secs_f64();
        rep.dut_secs += tb.elapsed().as_secs_f64();
        if hist.len() == HISTORY {
            hist.pop_front();
        }
        hist.push_back(CycleRecord {
            cycle,
            inputs: i,
            expected: e,
            actual: a,
        });
        if let Some((port, ev, av)) = e.first_difference(&a) {
            return Err(Box::new(Mismatch {
                cycle,
                port,
                expected: ev,
                actual: av,
                seed: opts.seed,
                reference: reference.name().to_string(),
                dut: dut.name().to_string(),
                history: hist.into_iter().collect(),
            }));
        }
        up.observe(cycle, &i, &a);
        dn.observe(cycle, &i, &a);
        rep.cycles = cycle + 1;
        for ob in observers.iter_mut() {
            if let Err(e) = ob.observe(cycle, &i, &a) {
                rep.failure = Some(e);
                rep.total_secs = t0.elapsed().as_secs_f64();
                return Ok(rep);
            }
        }
    }
    rep.total_secs = t0.elapsed().as_secs_f64();
    Ok(rep)
}

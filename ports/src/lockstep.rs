//! The one lockstep runner every unit and every back end uses.
//!
//! Each cycle a [`Driver`] (the environment: warps, memory system, copy
//! engine …) sets the inputs, the reference is stepped and — in a lockstep
//! run — the design under test too; every output port is compared every
//! cycle, the driver observes the outputs of the design under test (so the
//! environment reacts to the real hardware), and every [`Observer`]
//! (scoreboard, coverage, statistics, waveform) sees the cycle. The first
//! difference stops the run with a [`Mismatch`]; the first observer error
//! stops it with [`RunReport::failure`].
//!
//! Random tests take their seed and length from the environment variables
//! `SEED` and `CYCLES` ([`seed_from_env`], [`cycles_from_env`]) and print
//! the exact command that replays them ([`replay_command`]).

use crate::{Dut, PortBundle, Unit};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;
use std::time::Instant;

/// Whether the driver may start new work this cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Stimulus cycles: requests may be issued.
    Stimulus,
    /// Drain: no new requests; answer what is outstanding.
    Drain,
}

/// The environment of a unit: sets its inputs each cycle, sees its outputs.
pub trait Driver<U: Unit> {
    /// Set this cycle's inputs (the runner has already set `reset`).
    fn drive(&mut self, cycle: u64, i: &mut U::Inputs, phase: Phase);
    /// See the cycle's inputs and the outputs of the design under test.
    fn observe(&mut self, cycle: u64, i: &U::Inputs, o: &U::Outputs);
    /// Nothing is in flight any more: the drain may stop.
    fn idle(&self, _o: &U::Outputs) -> bool {
        true
    }
}

/// Something that watches every cycle of a run; an `Err` stops the run.
pub trait Observer<U: Unit> {
    fn observe(&mut self, cycle: u64, i: &U::Inputs, o: &U::Outputs) -> Result<(), String>;
}

/// How long to run and where to put resets.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Cycles of stimulus (after the initial reset).
    pub cycles: u64,
    /// After the stimulus, at most this many drain cycles, until the driver
    /// is idle (then one more cycle so the last release is observed).
    pub drain_cycles: u64,
    /// Reset held high for this many cycles at the start.
    pub reset_cycles: u64,
    /// Probability of a one-cycle reset in any stimulus cycle.
    pub reset_prob: f64,
    /// Further cycles with reset high.
    pub resets: Vec<Range<u64>>,
    /// Seed of the run (reset schedule; reported with a mismatch).
    pub seed: u64,
    /// Cycles of history a mismatch report keeps.
    pub history: usize,
    /// Compare the outputs in cycles with reset high too.
    pub compare_in_reset: bool,
    /// The command that replays this run, printed with a mismatch.
    pub replay: Option<String>,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            cycles: 10_000,
            drain_cycles: 100_000,
            reset_cycles: 2,
            reset_prob: 0.0,
            resets: Vec::new(),
            seed: 1,
            history: 8,
            compare_in_reset: true,
            replay: None,
        }
    }
}

/// One cycle kept for a mismatch report.
#[derive(Clone, Copy, Debug)]
pub struct CycleRecord<U: Unit> {
    pub cycle: u64,
    pub inputs: U::Inputs,
    pub expected: U::Outputs,
    pub actual: U::Outputs,
}

/// The first output that differs between the reference and the design.
#[derive(Clone, Debug)]
pub struct Mismatch<U: Unit> {
    pub cycle: u64,
    pub port: &'static str,
    pub expected: u64,
    pub actual: u64,
    /// Every port that differs this cycle: (port, expected, actual).
    pub all_ports: Vec<(&'static str, u64, u64)>,
    pub seed: u64,
    pub reference: String,
    pub dut: String,
    /// The last cycles up to and including the mismatch.
    pub history: Vec<CycleRecord<U>>,
    pub replay: Option<String>,
}

impl<U: Unit> fmt::Display for Mismatch<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "MISMATCH at cycle {} (seed {}): port `{}`: {} expected {:#x}, {} gave {:#x}",
            self.cycle, self.seed, self.port, self.reference, self.expected, self.dut, self.actual
        )?;
        if self.all_ports.len() > 1 {
            let others: Vec<String> = self
                .all_ports
                .iter()
                .map(|(p, e, a)| format!("{p} ({e:#x} vs {a:#x})"))
                .collect();
            writeln!(f, "ports that differ: {}", others.join(", "))?;
        }
        writeln!(f, "last {} cycles:", self.history.len())?;
        for r in &self.history {
            writeln!(f, "  cycle {:>8} in:  {}", r.cycle, r.inputs.describe())?;
            match r.expected.first_difference(&r.actual) {
                Some((p, e, a)) => writeln!(
                    f,
                    "                 out: differs at {p}: expected {e:#x} got {a:#x}"
                )?,
                None => writeln!(f, "                 out: equal ({})", r.actual.describe())?,
            }
        }
        if let Some(r) = &self.replay {
            writeln!(f, "replay: {r}")?;
        }
        Ok(())
    }
}

/// How a run ended (when no output differed).
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// Cycles simulated (reset + stimulus + drain).
    pub cycles: u64,
    /// Wall-clock seconds inside each back end's `step`, and in all.
    pub reference_secs: f64,
    pub dut_secs: f64,
    pub total_secs: f64,
    /// The first observer error (e.g. a scoreboard violation), if any.
    pub failure: Option<String>,
    /// The drain ended with the driver idle.
    pub drained: bool,
}

/// Run `reference` (and, in lockstep, `dut` on identical inputs) under
/// `driver`; see the module docs.
pub fn run<U: Unit>(
    reference: &mut dyn Dut<U>,
    mut dut: Option<&mut dyn Dut<U>>,
    driver: &mut dyn Driver<U>,
    opts: &RunOptions,
    observers: &mut [&mut dyn Observer<U>],
) -> Result<RunReport, Box<Mismatch<U>>> {
    let reset_port = U::Inputs::NAMES.iter().position(|n| *n == "reset");
    let mut reset_rng = ChaCha8Rng::seed_from_u64(opts.seed ^ 0x5e5e_7e57);
    let stimulus_end = opts.reset_cycles + opts.cycles;
    let end = stimulus_end.saturating_add(opts.drain_cycles);
    let mut hist: VecDeque<CycleRecord<U>> = VecDeque::with_capacity(opts.history + 1);
    let mut rep = RunReport::default();
    let t0 = Instant::now();
    let mut cycle = 0u64;
    let mut quiet = false;
    while cycle < end {
        let phase = if cycle < stimulus_end {
            Phase::Stimulus
        } else {
            Phase::Drain
        };
        let reset = cycle < opts.reset_cycles
            || opts.resets.iter().any(|r| r.contains(&cycle))
            || (phase == Phase::Stimulus
                && opts.reset_prob > 0.0
                && reset_rng.gen_bool(opts.reset_prob));
        let mut i = U::Inputs::default();
        if let Some(k) = reset_port {
            i.set(k, u64::from(reset));
        }
        driver.drive(cycle, &mut i, phase);
        let ta = Instant::now();
        let e = reference.step(&i);
        let tb = Instant::now();
        rep.reference_secs += (tb - ta).as_secs_f64();
        let a = match dut.as_deref_mut() {
            Some(d) => {
                let a = d.step(&i);
                rep.dut_secs += tb.elapsed().as_secs_f64();
                if opts.history > 0 {
                    if hist.len() == opts.history {
                        hist.pop_front();
                    }
                    hist.push_back(CycleRecord {
                        cycle,
                        inputs: i,
                        expected: e,
                        actual: a,
                    });
                }
                if e != a && (opts.compare_in_reset || !reset) {
                    let all_ports: Vec<(&'static str, u64, u64)> = (0..U::Outputs::NAMES.len())
                        .map(|k| (U::Outputs::NAMES[k], e.get(k), a.get(k)))
                        .filter(|(_, x, y)| x != y)
                        .collect();
                    let (port, expected, actual) = all_ports[0];
                    return Err(Box::new(Mismatch {
                        cycle,
                        port,
                        expected,
                        actual,
                        all_ports,
                        seed: opts.seed,
                        reference: reference.name().to_string(),
                        dut: d.name().to_string(),
                        history: hist.into_iter().collect(),
                        replay: opts.replay.clone(),
                    }));
                }
                a
            }
            None => e,
        };
        driver.observe(cycle, &i, &a);
        cycle += 1;
        rep.cycles = cycle;
        for ob in observers.iter_mut() {
            if let Err(msg) = ob.observe(cycle - 1, &i, &a) {
                rep.failure = Some(msg);
                rep.total_secs = t0.elapsed().as_secs_f64();
                return Ok(rep);
            }
        }
        if phase == Phase::Drain && driver.idle(&a) {
            if quiet {
                break;
            }
            quiet = true; // one more cycle so the last release is observed
        }
    }
    rep.drained = quiet || opts.drain_cycles == 0;
    rep.total_secs = t0.elapsed().as_secs_f64();
    Ok(rep)
}

/// The seed of a random test: `SEED` if set, else `default`.
pub fn seed_from_env(default: u64) -> u64 {
    env_u64("SEED").unwrap_or(default)
}

/// The length of a random test: `CYCLES` if set, else `default`.
pub fn cycles_from_env(default: u64) -> u64 {
    env_u64("CYCLES").unwrap_or(default)
}

/// A count or seed from environment variable `name`, when set to a number.
pub fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.trim().parse().ok())
}

/// The command that replays test `test` of package `package` with `seed`
/// (and `cycles`, when given).
pub fn replay_command(package: &str, test: &str, seed: u64, cycles: Option<u64>) -> String {
    let c = cycles.map(|c| format!(" CYCLES={c}")).unwrap_or_default();
    format!("SEED={seed}{c} cargo test --release -p {package} {test} -- --nocapture")
}

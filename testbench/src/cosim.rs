//! The lockstep cosimulation loop: the reference model ([`MembarModel`]) and a
//! DUT (normally the Verilated Verilog) get identical inputs every cycle; the
//! stimulus ([`Upstream`] + [`Downstream`]) observes the DUT's outputs, so the
//! memory model reacts to what the hardware really does; every output port is
//! compared every cycle and the run stops at the first difference.
//!
//! On a mismatch, [`cosim`] replays the recorded inputs into a traced build of
//! the same Verilog up to the mismatch cycle and writes a waveform.

use crate::dut::VerilatorDut;
use crate::error::CosimError;
use crate::verilate::{target_dir, BuildOptions, TraceFormat};
use membar_unit_env::coverage::EventCounted;
use membar_unit_env::membar_unit::{EventedModel, MembarModel};
use membar_unit_env::ports::MembarUnitPorts;
use membar_unit_env::ports::{Downstream, Upstream};
use membar_unit_env::run::{Driver, Observer, Phase, RunOptions, UpDown};
use membar_unit_env::scoreboard::Scoreboard;
use membar_unit_env::{Config, Dut, Inputs, Outputs};
use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Options of a cosimulation run.
#[derive(Clone, Debug)]
pub struct CosimOptions {
    /// Cycles to run (including reset cycles).
    pub cycles: u64,
    /// The stimulus seed, for the report (the stimulus itself is the caller's).
    pub seed: u64,
    /// Name of the run in reports and waveform file names (e.g. the config name).
    pub label: String,
    /// Cycles of `reset` at the start (0 checks the power-on state as is).
    pub initial_reset: u64,
    /// More reset intervals (cycle ranges); the stimulus may also assert reset.
    pub resets: Vec<Range<u64>>,
    /// Cycles of inputs/outputs kept for the mismatch report.
    pub history: usize,
    /// On a mismatch, replay into a traced build and write a waveform.
    pub waves_on_mismatch: bool,
    /// Where mismatch waveforms go. Default `<target>/cosim-waves`.
    pub waves_dir: Option<PathBuf>,
    /// Format of mismatch waveforms.
    pub waves_format: TraceFormat,
    /// Trace only this many cycles before the mismatch (0 = from cycle 0).
    pub waves_window: u64,
    /// Most cycles of inputs recorded for the replay (8 bytes per cycle);
    /// a mismatch after more cycles gets no automatic waveform.
    pub record_limit: u64,
    /// Compare outputs during reset cycles too (SPEC: everything low).
    pub compare_in_reset: bool,
}

impl Default for CosimOptions {
    fn default() -> Self {
        CosimOptions {
            cycles: 100_000,
            seed: 0,
            label: "cosim".into(),
            initial_reset: 1,
            resets: Vec::new(),
            history: 8,
            waves_on_mismatch: true,
            waves_dir: None,
            waves_format: TraceFormat::Fst,
            waves_window: 20_000,
            record_limit: 32 << 20,
            compare_in_reset: true,
        }
    }
}

/// The first divergence between the model and the DUT: the runner's
/// [`unit_ports::lockstep::Mismatch`] (cycle, ports, seed, history) plus the
/// run's label and the waveform written for it.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub label: String,
    pub found: Box<membar_unit_env::run::Mismatch>,
    /// The waveform written for it, if any.
    pub waves: Option<PathBuf>,
    /// Why there is no waveform, or a note about it.
    pub waves_note: Option<String>,
}

impl std::ops::Deref for Mismatch {
    type Target = membar_unit_env::run::Mismatch;
    fn deref(&self) -> &Self::Target {
        &self.found
    }
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}] {}", self.label, self.found)?;
        match (&self.waves, &self.waves_note) {
            (Some(w), _) => writeln!(f, "  waveform: {}", w.display())?,
            (None, Some(n)) => writeln!(f, "  no waveform: {n}")?,
            (None, None) => {}
        }
        Ok(())
    }
}

/// What happened in a run: the model's event counts (one type for every
/// lockstep run, `membar_unit_model::coverage::EventCounts`).
pub use membar_unit_env::coverage::EventCounts as Coverage;

/// The result of a run.
#[derive(Clone, Debug)]
pub struct CosimReport {
    pub label: String,
    pub seed: u64,
    /// Cycles compared (up to and including a mismatch).
    pub cycles: u64,
    pub mismatch: Option<Mismatch>,
    /// A property violation on the DUT's outputs (the P1–P7 scoreboard in
    /// [`cosim`]), when the outputs agreed up to it.
    pub violation: Option<String>,
    pub coverage: Coverage,
    /// Time inside the DUT's `step` (for Verilator: FFI + eval).
    pub dut_time: Duration,
    /// Time inside the model's `step`.
    pub model_time: Duration,
    /// Wall time of the whole loop (stimulus, model, DUT, comparison).
    pub total_time: Duration,
    /// Build (or cache lookup) time of the Verilated model, when [`cosim`] built it.
    pub build_time: Option<Duration>,
    pub cache_hit: Option<bool>,
}

impl CosimReport {
    /// Cycles per second of the DUT alone (time spent in its `step`).
    pub fn dut_cycles_per_sec(&self) -> f64 {
        self.cycles as f64 / self.dut_time.as_secs_f64().max(1e-9)
    }
    /// Cycles per second of the model alone.
    pub fn model_cycles_per_sec(&self) -> f64 {
        self.cycles as f64 / self.model_time.as_secs_f64().max(1e-9)
    }
    /// Cycles per second of the whole lockstep loop.
    pub fn loop_cycles_per_sec(&self) -> f64 {
        self.cycles as f64 / self.total_time.as_secs_f64().max(1e-9)
    }
    pub fn passed(&self) -> bool {
        self.mismatch.is_none() && self.violation.is_none()
    }
    /// One summary line.
    pub fn summary(&self) -> String {
        format!(
            "[{}] seed {}: {} cycles, {}; DUT {:.2} Mcycles/s, model {:.2} Mcycles/s, loop {:.2} Mcycles/s",
            self.label,
            self.seed,
            self.cycles,
            match (&self.mismatch, &self.violation) {
                (Some(m), _) => format!("MISMATCH at cycle {} on `{}`", m.cycle, m.port),
                (None, Some(v)) => format!("scoreboard violation: {v}"),
                (None, None) => "no mismatch, scoreboard clean".to_string(),
            },
            self.dut_cycles_per_sec() / 1e6,
            self.model_cycles_per_sec() / 1e6,
            self.loop_cycles_per_sec() / 1e6
        )
    }
}

impl fmt::Display for CosimReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.summary())?;
        writeln!(f, "  coverage: {}", self.coverage)?;
        if let Some(m) = &self.mismatch {
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

/// The membar environment with every input masked to its port width, so
/// both sides, the record and the report see exactly what the hardware sees.
struct Masked<'a> {
    env: UpDown<'a>,
    cfg: Config,
}

impl Driver<MembarUnitPorts> for Masked<'_> {
    fn drive(&mut self, cycle: u64, i: &mut Inputs, phase: Phase) {
        self.env.drive(cycle, i, phase);
        *i = i.masked_for(&self.cfg);
    }
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        self.env.observe(cycle, i, o);
    }
}

/// Records the inputs of every cycle (up to a limit) for a traced replay,
/// then hands the cycle to the caller's observers.
struct Recorder<'a, 'b> {
    inputs: Vec<Inputs>,
    limit: u64,
    overflow: bool,
    then: &'a mut [&'b mut dyn Observer<MembarUnitPorts>],
}

impl Observer<MembarUnitPorts> for Recorder<'_, '_> {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        if (self.inputs.len() as u64) < self.limit {
            self.inputs.push(*i);
        } else if !self.overflow {
            self.overflow = true;
            self.inputs = Vec::new();
        }
        self.then
            .iter_mut()
            .try_for_each(|ob| ob.observe(cycle, i, o))
    }
}

/// The cosimulation of `dut` against `model` on the one lockstep runner
/// ([`unit_ports::lockstep::run`]): identical (masked) inputs, every output
/// compared every cycle, the stimulus and the `observers` (e.g. the P1–P7
/// scoreboard) seeing the DUT's outputs. Returns the report and, when
/// `record` is set, the inputs of every cycle (up to `opts.record_limit`).
pub fn lockstep(
    model: &mut dyn EventedModel,
    dut: &mut dyn Dut<MembarUnitPorts>,
    up: &mut dyn Upstream,
    down: &mut dyn Downstream,
    opts: &CosimOptions,
    record: bool,
) -> (CosimReport, Vec<Inputs>) {
    lockstep_observed(model, dut, up, down, opts, record, &mut [])
}

/// [`lockstep`] with more observers of the DUT's outputs.
pub fn lockstep_observed(
    model: &mut dyn EventedModel,
    dut: &mut dyn Dut<MembarUnitPorts>,
    up: &mut dyn Upstream,
    down: &mut dyn Downstream,
    opts: &CosimOptions,
    record: bool,
    observers: &mut [&mut dyn Observer<MembarUnitPorts>],
) -> (CosimReport, Vec<Inputs>) {
    let cfg = model.config().clone();
    let reset_cycles = opts.initial_reset.min(opts.cycles);
    let run_opts = RunOptions {
        cycles: opts.cycles - reset_cycles,
        drain_cycles: 0,
        reset_cycles,
        reset_prob: 0.0,
        resets: opts.resets.clone(),
        seed: opts.seed,
        history: opts.history,
        compare_in_reset: opts.compare_in_reset,
        replay: None,
    };
    let mut reference = EventCounted::new(model);
    let mut env = Masked {
        env: UpDown { up, dn: down },
        cfg,
    };
    let mut rec = Recorder {
        inputs: Vec::new(),
        limit: if record { opts.record_limit } else { 0 },
        overflow: !record,
        then: observers,
    };
    if record {
        rec.inputs
            .reserve(opts.cycles.min(opts.record_limit).min(1 << 24) as usize);
    }
    let t0 = Instant::now();
    let res = unit_ports::lockstep::run(
        &mut reference,
        Some(dut),
        &mut env,
        &run_opts,
        &mut [&mut rec],
    );
    let total_time = t0.elapsed();
    if let (Err(m), false) = (&res, rec.overflow) {
        // Observers never see the cycle that mismatched; the replay needs it.
        if let Some(last) = m.history.last().filter(|h| h.cycle == m.cycle) {
            rec.inputs.push(last.inputs);
        }
    }
    let (cycles, mismatch, violation, model_secs, dut_secs) = match res {
        Ok(r) => (r.cycles, None, r.failure, r.reference_secs, r.dut_secs),
        Err(m) => (
            m.cycle + 1,
            Some(Mismatch {
                label: opts.label.clone(),
                found: m,
                waves: None,
                waves_note: None,
            }),
            None,
            0.0,
            0.0,
        ),
    };
    let report = CosimReport {
        label: opts.label.clone(),
        seed: opts.seed,
        cycles,
        mismatch,
        violation,
        coverage: reference.counts,
        dut_time: Duration::from_secs_f64(dut_secs),
        model_time: Duration::from_secs_f64(model_secs),
        total_time,
        build_time: None,
        cache_hit: None,
    };
    (report, if rec.overflow { Vec::new() } else { rec.inputs })
}

/// Build (or take from the cache) the Verilated model of `verilog` for `cfg`
/// and cosimulate it against [`MembarModel::new(cfg)`](MembarModel::new).
/// On a mismatch (with `opts.waves_on_mismatch`), the recorded inputs are
/// replayed into a traced build up to the mismatch cycle and the waveform's
/// path is put in the report. With `build.waves`, the whole run is traced.
pub fn cosim(
    verilog: &Path,
    cfg: &Config,
    build: &BuildOptions,
    opts: &CosimOptions,
    up: &mut dyn Upstream,
    down: &mut dyn Downstream,
) -> Result<CosimReport, CosimError> {
    let t0 = Instant::now();
    let mut dut = <VerilatorDut>::build(verilog, cfg, build)?;
    let build_time = t0.elapsed();
    let cache_hit = dut.library.cache_hit;
    dut.timing = false; // lockstep times the step itself
    let mut model = MembarModel::new(cfg);
    // The P1–P7 scoreboard checks the Verilog's outputs too.
    let mut scoreboard = Scoreboard::new(cfg);
    let (mut report, rec) = lockstep_observed(
        &mut model,
        &mut dut,
        up,
        down,
        opts,
        opts.waves_on_mismatch,
        &mut [&mut scoreboard],
    );
    report.build_time = Some(build_time);
    report.cache_hit = Some(cache_hit);
    let whole_run_waves = dut.close_waves();
    drop(dut);
    if let Some(m) = report.mismatch.as_mut() {
        if let Some(w) = whole_run_waves {
            m.waves = Some(w);
            m.waves_note = Some("the whole run was traced (BuildOptions::waves)".into());
        } else if !opts.waves_on_mismatch {
            m.waves_note = Some("waves_on_mismatch is off".into());
        } else if rec.len() as u64 != report.cycles {
            m.waves_note = Some(format!(
                "the run exceeded record_limit ({} cycles); rerun with BuildOptions::waves",
                opts.record_limit
            ));
        } else {
            match replay_with_waves(verilog, cfg, build, opts, &rec, m.cycle) {
                Ok((path, check)) => {
                    m.waves = Some(path);
                    if let Some(note) = check {
                        m.waves_note = Some(note);
                    }
                }
                Err(e) => m.waves_note = Some(format!("traced replay failed: {e}")),
            }
        }
    }
    Ok(report)
}

/// The default waveform file of a mismatch.
pub fn mismatch_waves_path(opts: &CosimOptions, cycle: u64) -> PathBuf {
    let dir = opts
        .waves_dir
        .clone()
        .unwrap_or_else(|| target_dir().join("cosim-waves"));
    let label: String = opts
        .label
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!(
        "{label}_seed{}_cycle{cycle}.{}",
        opts.seed,
        opts.waves_format.extension()
    ))
}

/// Replay `rec` (packed inputs) into a traced build of `verilog` up to and
/// including `upto`, tracing the last `opts.waves_window` cycles. Returns the
/// waveform path and, if the replay did not reproduce the mismatch, a note.
pub fn replay_with_waves(
    verilog: &Path,
    cfg: &Config,
    build: &BuildOptions,
    opts: &CosimOptions,
    rec: &[Inputs],
    upto: u64,
) -> Result<(PathBuf, Option<String>), CosimError> {
    let mut b = build.clone();
    b.waves = None;
    b.trace = Some(opts.waves_format);
    let mut fallback = None;
    let mut dut = match <VerilatorDut>::build(verilog, cfg, &b) {
        Ok(d) => d,
        // FST needs zlib's headers (zlib1g-dev); VCD needs nothing more.
        Err(CosimError::Build { log, .. }) if opts.waves_format == TraceFormat::Fst => {
            b.trace = Some(TraceFormat::Vcd);
            fallback = Some(format!(
                "the FST build failed (is zlib1g-dev installed?), wrote VCD instead; FST build messages:\n{log}"
            ));
            <VerilatorDut>::build(verilog, cfg, &b)?
        }
        Err(e) => return Err(e),
    };
    dut.timing = false;
    let mut model = MembarModel::new(cfg);
    let mut o = opts.clone();
    o.waves_format = b.trace.unwrap();
    let path = mismatch_waves_path(&o, upto);
    let start = if opts.waves_window == 0 {
        0
    } else {
        upto.saturating_sub(opts.waves_window - 1)
    };
    let mut reproduced = None;
    for (c, i) in rec.iter().enumerate().take(upto as usize + 1) {
        let c = c as u64;
        if c == start {
            dut.open_waves(&path)?;
        }
        let om = model.step(i);
        let od = dut.step(i);
        if om != od && (opts.compare_in_reset || !i.reset) && reproduced.is_none() {
            reproduced = Some(c);
        }
    }
    dut.close_waves();
    let note = match reproduced {
        Some(c) if c == upto => fallback,
        Some(c) => Some(format!(
            "traced replay diverged at cycle {c}, not {upto} (tracing changed behaviour?)"
        )),
        None => Some(format!(
            "traced replay did NOT reproduce the mismatch at cycle {upto}"
        )),
    };
    Ok((path, note))
}

/// The speed of the Verilated model alone: `cycles` cycles driven from C++
/// with `inputs` round-robin (no FFI call per cycle). Returns cycles/s.
pub fn bench_verilated(dut: &mut VerilatorDut, inputs: &[Inputs], cycles: u64) -> f64 {
    let dt = dut.bench_raw(inputs, cycles);
    cycles as f64 / dt.as_secs_f64().max(1e-9)
}

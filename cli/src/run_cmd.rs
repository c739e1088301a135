//! `membar run PROGRAM`: executes a PTX program file cycle by cycle on the
//! unit reference models with the weak memory model (`sm-exec`,
//! `docs/memory_model.md`); prints the final registers of every warp, the
//! stall cycles per warp by cause and the total cycles; `--trace FILE.vcd` or
//! `FILE.json` writes the per-warp timeline (no clobber, `output.rs`).
//!
//! Exit: 0 finished; 1 deadlock or cycle cap (with who waits on what); 2 a
//! bad file, flag, or a unit protocol error (`FILE:LINE:COL: ...`).

use crate::common::{CmdError, CmdResult};
use crate::output::{self, RunInputs};
use sm_exec::{Outcome, RunOptions, RunResult};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// Read a program file through the CLI's bounded reader (a regular file of
/// at most 4 MiB, UTF-8); errors name the flag and the file.
pub fn read_program(flag: &str, path: &Path) -> Result<String, CmdError> {
    crate::common::read_input_text(flag, path, "PTX program", crate::common::MAX_INPUT_BYTES)
}

/// Most cycles `run --trace` records (a trace takes about 100 bytes a
/// cycle: 10^6 cycles is about 100 MB).
pub const MAX_TRACE_CYCLES: u64 = 1_000_000;

/// How a `--trace` file of kind `vcd`/`json` is recognised as ours.
fn trace_owner(kind: &str) -> output::Owner {
    output::Owner::Marked(if kind == "vcd" {
        output::Mark::Wave
    } else {
        output::Mark::Json
    })
}

/// `vcd` or `json` from `--trace FILE`'s extension.
fn trace_kind_of(trace: Option<&Path>) -> Result<Option<&'static str>, CmdError> {
    let Some(t) = trace else {
        return Ok(None);
    };
    match t.extension().and_then(|e| e.to_str()) {
        Some("vcd") => Ok(Some("vcd")),
        Some("json") => Ok(Some("json")),
        _ => Err(CmdError::input(format!(
            "--trace {}: found extension {:?}, expected .vcd (GTKWave/Surfer) or .json (Chrome trace, Perfetto)",
            t.display(),
            t.extension().map(|e| e.to_string_lossy().into_owned()).unwrap_or_default()
        ))),
    }
}

/// `--cycles` and `--trace` of `membar run`, checked before anything runs:
/// a cycle cap of at least 1 (at most [`MAX_TRACE_CYCLES`] when tracing),
/// a `.vcd` or `.json` trace that is not a file of somebody else's. Returns
/// the trace's kind.
fn check_run_flags(
    cycles: u64,
    trace: Option<&Path>,
    inputs: &RunInputs,
) -> Result<Option<&'static str>, CmdError> {
    if cycles == 0 {
        return Err(CmdError::input(
            "--cycles 0: expected a cycle cap of at least 1",
        ));
    }
    let trace_kind = trace_kind_of(trace)?;
    if trace.is_some() && cycles > MAX_TRACE_CYCLES {
        return Err(CmdError::input(format!(
            "--cycles {cycles} with --trace: allowed: 1..={MAX_TRACE_CYCLES} cycles when tracing (a trace takes about 100 bytes a cycle; run without --trace for longer runs)"
        )));
    }
    if let (Some(t), Some(k)) = (trace, trace_kind) {
        output::check_target("--trace", t, inputs, trace_owner(k), "a membar run trace")?;
    }
    Ok(trace_kind)
}

/// Write a run's per-warp timeline to `--trace` (no clobber, `output.rs`).
fn write_trace(
    trace: Option<&Path>,
    kind: Option<&'static str>,
    inputs: &RunInputs,
    r: &RunResult,
) -> CmdResult {
    if let (Some(t), Some(k)) = (trace, kind) {
        output::write_file(
            "--trace",
            t,
            inputs,
            trace_owner(k),
            "a membar run trace",
            |w| {
                if k == "vcd" {
                    r.trace.write_vcd(w)
                } else {
                    r.trace.write_json(w)
                }
            },
        )?;
    }
    Ok(())
}

/// The printed report of a run.
pub fn report(file: &str, seed: u64, r: &RunResult) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# membar run {file} (seed {seed})");
    report_body(&mut s, r, true);
    s
}

/// Outcome, cycles, stall cycles per warp by cause, the final registers
/// (`registers`: a program file's; a kernel's per-thread registers are not
/// printed, lane 0's alone would mislead) and the waiting warps.
fn report_body(s: &mut String, r: &RunResult, registers: bool) {
    let outcome = match &r.outcome {
        Outcome::Finished => "finished: every warp exited, memory drained".to_string(),
        Outcome::Deadlock(_) => "DEADLOCK: every live warp blocked, nothing in flight".into(),
        Outcome::CycleCap(_) => "CYCLE CAP reached before the program finished".into(),
        Outcome::UnitError(e) => format!("unit error: {e}"),
        Outcome::Mismatch(m) => format!("MISMATCH of the sm_sync twin and its model: {m}"),
    };
    let _ = writeln!(s, "outcome: {outcome}");
    let _ = writeln!(s, "total cycles: {}", r.cycles);
    let causes = [
        "membar",
        "bar",
        "mbarrier",
        "wait_group",
        "cluster",
        "scoreboard",
        "port",
    ];
    let _ = writeln!(s, "\nstall cycles by cause:");
    let _ = write!(
        s,
        "{:<10} {:<12} {:>7} {:>7}",
        "warp", "program", "issued", "exit@"
    );
    for c in causes {
        let _ = write!(s, " {c:>10}");
    }
    s.push('\n');
    for w in &r.warps {
        let _ = write!(
            s,
            "{:<10} {:<12} {:>7} {:>7}",
            w.name(),
            w.program,
            w.issued,
            w.exited_at
                .map(|x| x.to_string())
                .unwrap_or_else(|| "-".into())
        );
        for c in causes {
            let _ = write!(s, " {:>10}", w.stalls.get(c).copied().unwrap_or(0));
        }
        s.push('\n');
    }
    if registers {
        let _ = writeln!(s, "\nfinal registers:");
        for w in &r.warps {
            let regs: Vec<String> = w.regs.iter().map(|(k, v)| format!("{k}={v}")).collect();
            let _ = writeln!(s, "  {}: {}", w.name(), regs.join(" "));
        }
    }
    if let Outcome::Deadlock(ws) | Outcome::CycleCap(ws) = &r.outcome {
        let _ = writeln!(s, "\nwaiting warps:");
        for (w, what) in ws {
            let _ = writeln!(s, "  {w} {what}");
        }
    }
}

/// `membar run MODULE.ptx --launch L.yaml`: a kernel on every thread of
/// its grid; prints the outcome, the checks of the expected outputs, the
/// stalls per warp and the simulation speed.
/// `--preset`: an SM timing preset (`sm_exec::sm_timing`).
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmPreset {
    /// NVIDIA H100 80GB HBM3 at 1980 MHz.
    H100,
    /// NVIDIA H200: the H100's SM, its memory-side latencies.
    H200,
}

impl SmPreset {
    pub fn timing(p: Option<SmPreset>) -> Option<sm_exec::sm_timing::SmTiming> {
        p.map(|p| match p {
            SmPreset::H100 => sm_exec::sm_timing::SmTiming::h100(),
            SmPreset::H200 => sm_exec::sm_timing::SmTiming::h200(),
        })
    }
}

#[allow(clippy::too_many_arguments)]
pub fn run_kernel(
    program: &Path,
    launch: &Path,
    seed: u64,
    cycles: u64,
    trace: Option<&Path>,
    on: crate::on_target::On,
    preset: Option<SmPreset>,
) -> CmdResult {
    let inputs = RunInputs::new()
        .with("PROGRAM", program)
        .with("LAUNCH", launch);
    let trace_kind = check_run_flags(cycles, trace, &inputs)?;
    let name = program.display().to_string();
    let src = read_program("PROGRAM", program)?;
    let l = sm_exec::launch::load(launch).map_err(CmdError::input)?;
    let sm_timing = SmPreset::timing(preset);
    let opts = RunOptions {
        seed,
        max_cycles: cycles,
        trace: trace.is_some(),
        backend: crate::on_target::backend(on, sm_timing.as_ref())?,
        sm_timing,
        ..RunOptions::default()
    };
    let t0 = std::time::Instant::now();
    let k = sm_exec::kernel::run_kernel(&name, &src, &l, opts)
        .map_err(|e| CmdError::input(e.to_string()))?;
    let secs = t0.elapsed().as_secs_f64();
    let r = &k.result;
    let mut text = kernel_report(&name, &launch.display().to_string(), seed, &k);
    let issued: u64 = r.warps.iter().map(|w| w.issued).sum();
    let _ = writeln!(
        text,
        "\nsimulation: {} cycles, {issued} warp-instructions in {secs:.3} s: {:.3} M warp-instructions/s, {:.3} M cycles/s",
        r.cycles,
        issued as f64 / secs.max(1e-9) / 1e6,
        r.cycles as f64 / secs.max(1e-9) / 1e6
    );
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| CmdError::failed(format!("writing stdout: {e}")))?;
    write_trace(trace, trace_kind, &inputs, r)?;
    let replay = format!(
        "membar run {name} --launch {} --seed {seed} --cycles {cycles}",
        launch.display()
    );
    if r.outcome == Outcome::Finished && !k.passed() {
        return Err(CmdError::failed(format!(
            "{name}: finished, but an expected output differs (see above)\n  replay: {replay}"
        )));
    }
    exit_of(&name, r, seed, cycles, on, &replay)
}

/// The exit of a run by its outcome: 0 finished; 1 a deadlock, the cycle
/// cap or a twin's difference (with the command that replays it); 2 a
/// unit's protocol error (a program bug).
fn exit_of(
    name: &str,
    r: &RunResult,
    seed: u64,
    cycles: u64,
    on: crate::on_target::On,
    replay: &str,
) -> CmdResult {
    match &r.outcome {
        Outcome::Finished => Ok(()),
        Outcome::Deadlock(_) => Err(CmdError::failed(format!(
            "{name}: deadlock at cycle {} with seed {seed} (see the waiting warps above)\n  replay: {replay}",
            r.cycles
        ))),
        Outcome::CycleCap(_) => Err(CmdError::failed(format!(
            "{name}: not finished after --cycles {cycles} with seed {seed} (see the waiting warps above)\n  replay: {replay}"
        ))),
        Outcome::UnitError(e) => Err(CmdError::input(e.clone())),
        Outcome::Mismatch(m) => Err(CmdError::failed(format!(
            "{name}: --on {}: the sm_sync top differs from its reference model: {m}\n  replay: {replay} --on {}",
            on.name(),
            on.name()
        ))),
    }
}

/// The printed report of a kernel run.
pub fn kernel_report(
    file: &str,
    launch: &str,
    seed: u64,
    k: &sm_exec::kernel::KernelRun,
) -> String {
    let r = &k.result;
    let mut s = String::new();
    let _ = writeln!(s, "# membar run {file} --launch {launch} (seed {seed})");
    let _ = writeln!(s, "entry: {}", k.entry);
    report_body(&mut s, r, false);
    if !r.sites.is_empty() {
        let _ = writeln!(
            s,
            "\nsynchronisation sites (a warp blocked there; cycles from issue to release):"
        );
        let _ = writeln!(
            s,
            "{:>6} {:<10} {:>6} {:>9} {:>8} {:>7}  instruction",
            "line", "waits on", "waits", "total", "mean", "max"
        );
        for x in &r.sites {
            let _ = writeln!(
                s,
                "{:>6} {:<10} {:>6} {:>9} {:>8.1} {:>7}  {}",
                x.line,
                x.cause,
                x.waits,
                x.total,
                x.total as f64 / x.waits.max(1) as f64,
                x.max,
                x.text
            );
        }
    }
    let _ = writeln!(s, "\nexpected outputs:");
    for c in &k.checks {
        if c.wrong.is_empty() {
            let _ = writeln!(s, "  {}: {} values: PASS", c.buffer, c.checked);
        } else {
            let _ = writeln!(
                s,
                "  {}: {} of {} values differ: FAIL",
                c.buffer,
                c.wrong.len(),
                c.checked
            );
            for (i, want, got) in c.wrong.iter().take(8) {
                let _ = writeln!(s, "    [{i}]: expected {want}, got {got}");
            }
        }
    }
    s
}

pub fn run(
    program: &Path,
    seed: u64,
    cycles: u64,
    trace: Option<&Path>,
    on: crate::on_target::On,
    preset: Option<SmPreset>,
) -> CmdResult {
    let inputs = RunInputs::new().with("PROGRAM", program);
    let trace_kind = check_run_flags(cycles, trace, &inputs)?;
    let name = program.display().to_string();
    let src = read_program("PROGRAM", program)?;
    let prog = ptx_front::parse(&name, &src).map_err(|e| CmdError::input(e.to_string()))?;
    let sm_timing = SmPreset::timing(preset);
    let opts = RunOptions {
        seed,
        max_cycles: cycles,
        trace: trace.is_some(),
        backend: crate::on_target::backend(on, sm_timing.as_ref())?,
        sm_timing,
        ..RunOptions::default()
    };
    let t0 = std::time::Instant::now();
    // Long runs say how far they are on stderr, every few seconds.
    let mut last = t0;
    let mut progress = |c: u64| {
        if last.elapsed().as_secs() >= 2 {
            last = std::time::Instant::now();
            eprintln!(
                "membar run: cycle {c} of at most {cycles} ({:.1} %, {:.0} s)",
                100.0 * c as f64 / cycles as f64,
                t0.elapsed().as_secs_f64()
            );
        }
    };
    let r = sm_exec::exec::run_program_with_progress(&prog, opts, &mut progress)
        .map_err(|e| CmdError::input(e.to_string()))?;
    let secs = t0.elapsed().as_secs_f64();
    let mut text = report(&name, seed, &r);
    // A litmus file: its observed registers and how the outcome is judged.
    if r.outcome == Outcome::Finished {
        if let Ok(t) = sm_exec::litmus::load(&name, &src) {
            let o = sm_exec::litmus::outcome_of(&t.observe, &r);
            let v: Vec<String> = o.iter().map(|x| x.to_string()).collect();
            let judged = if t.spec.forbidden.contains(&o) {
                "FORBIDDEN with the fence"
            } else if t.spec.allowed.contains(&o) {
                "allowed"
            } else {
                "outside forbidden/allowed"
            };
            text.push_str(&format!(
                "\nlitmus: observed ({}) = ({}): {judged}\n",
                t.spec.observe.join(", "),
                v.join(", ")
            ));
        }
    }
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| CmdError::failed(format!("writing stdout: {e}")))?;
    eprintln!(
        "membar run: {} cycles in {secs:.3} s ({:.2} M cycles/s)",
        r.cycles,
        r.cycles as f64 / secs.max(1e-9) / 1e6
    );
    write_trace(trace, trace_kind, &inputs, &r)?;
    let replay = format!("membar run {name} --seed {seed} --cycles {cycles} --trace run.json");
    exit_of(&name, &r, seed, cycles, on, &replay)
}

//! The pieces of each sync unit that `membar bench|soak --unit U` combine
//! ([`Kit`]): its configuration loader, its Verilog (generated or
//! `--verilog`), its golden model with coverage, its random stimulus and its
//! scoreboard. Each unit implements [`Kit`] in its own entry crate
//! (`hw/<unit>/entry`), from its model and RTL crates. The commands drive
//! them through the one lockstep runner (`unit_ports::lockstep::run`) and
//! the Verilator DUT of `testbench/`.

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

/// `membar generate`'s write: `text` as `<out>/<file>` (the folder created
/// if absent), through the project's writer — a temporary file renamed over
/// the target only when the target is absent or a Verilog file membar
/// generated (`ours` reads its first bytes). Returns the path written.
pub fn write_generated(
    out: &Path,
    file: &str,
    config: &Path,
    ours: fn(&[u8]) -> bool,
    text: &str,
) -> Result<PathBuf, CmdError> {
    use crate::output;
    create_out_dir(out)?;
    let path = out.join(file);
    output::write_file(
        "--out",
        &path,
        &output::RunInputs::new().with("--config", config),
        output::Owner::Header(ours),
        "Verilog",
        |w| w.write_all(text.as_bytes()),
    )?;
    Ok(path)
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

/// `--verilog F`, or `text` (the configuration's generated Verilog) written
/// into `target/membar-generated/<prefix>/<file>`.
pub fn given_or_generated(
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

//! Shared plumbing of the subcommands: errors with exit codes, loading a
//! config and a workload.

use membar_unit_env::config::{Config, InputError};
use membar_unit_env::workload::{WorkloadFile, SCENARIOS};
use std::path::Path;

/// An error that ends a command, with its exit code.
#[derive(Debug)]
pub struct CmdError {
    pub code: u8,
    pub message: String,
}

impl CmdError {
    /// Bad input or a missing tool: exit 2.
    pub fn input(message: impl Into<String>) -> Self {
        CmdError {
            code: 2,
            message: message.into(),
        }
    }
    /// A check failed: exit 1.
    pub fn failed(message: impl Into<String>) -> Self {
        CmdError {
            code: 1,
            message: message.into(),
        }
    }
}

/// An application failure (a tool, a file the run itself produced) with its
/// chain of context (`anyhow::Context`): exit 1, the whole chain printed.
/// Bad input never takes this path: it is an [`InputError`] (exit 2).
impl From<anyhow::Error> for CmdError {
    fn from(e: anyhow::Error) -> Self {
        CmdError::failed(format!("{e:#}"))
    }
}

impl From<InputError> for CmdError {
    fn from(e: InputError) -> Self {
        CmdError::input(e.to_string())
    }
}

pub type CmdResult = Result<(), CmdError>;

/// Largest input file read (configs, workloads, grids, presets, programs):
/// 4 MiB.
pub const MAX_INPUT_BYTES: u64 = membar_unit_env::input::MAX_INPUT_BYTES;

/// Largest Verilog file read (`--verilog`): 64 MiB (the biggest emitted
/// configuration is well under 1 MiB; flattened netlists are larger).
pub const MAX_VERILOG_BYTES: u64 = 64 << 20;

/// Largest CSV read (`sweep --merge` shards, `synth --csv` to append to):
/// 64 MiB.
pub const MAX_CSV_BYTES: u64 = 64 << 20;

/// The CLI's one bounded reader: the text of the input file `path` given by
/// `flag` (`what` names the kind of file). A FIFO, a device or a directory
/// is refused without opening it, a file over `cap` bytes without reading
/// more than `cap + 1` bytes; non-UTF-8 text is refused. Errors name the
/// flag and the file (exit 2).
pub fn read_input_text(flag: &str, path: &Path, what: &str, cap: u64) -> Result<String, CmdError> {
    let bytes = membar_unit_env::input::read_input_bytes(path, what, cap)
        .map_err(|e| CmdError::input(format!("{flag} {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        CmdError::input(format!(
            "{flag} {}: not a {what} text file (byte {} is not UTF-8)",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// A `--verilog` file's text through the bounded reader (at most
/// [`MAX_VERILOG_BYTES`], a regular file, UTF-8).
pub fn read_verilog_text(flag: &str, path: &Path) -> Result<String, CmdError> {
    read_input_text(flag, path, "Verilog", MAX_VERILOG_BYTES)
}

/// A user's `--verilog` file, checked through the bounded reader before any
/// tool opens it (a FIFO, a device, a file over 64 MiB or not text is exit 2
/// naming it); its path.
pub fn given_verilog(path: &Path) -> Result<std::path::PathBuf, CmdError> {
    read_verilog_text("--verilog", path)?;
    Ok(path.to_path_buf())
}

/// The text of a unit's `--config` file, through the project's one bounded
/// input reader (4 MiB; `/dev/zero` is refused, naming the file); `expected`
/// says what the file should be, for the error.
pub fn read_config_text(path: &Path, expected: &str) -> Result<String, CmdError> {
    membar_unit_env::input::read_input(path, "config")
        .map_err(|e| CmdError::input(format!("--config {e}; expected {expected}")))
}

/// `--verilog F` as given (checked readable) or, without it, the
/// configuration's Verilog (`text`, computed only then) in
/// `target/membar-generated/<prefix>/<file>` ([`generated_verilog_file`]).
pub fn verilog_or_generated(
    verilog: Option<&Path>,
    prefix: &str,
    file: &str,
    text: impl FnOnce() -> Result<String, CmdError>,
) -> Result<std::path::PathBuf, CmdError> {
    match verilog {
        Some(p) => given_verilog(p),
        None => generated_verilog_file(prefix, file, &text()?),
    }
}

/// Write generated Verilog to `target/membar-generated/<prefix>/<file>`
/// (unchanged text is not rewritten, so the Verilator cache and file times
/// stay) and return its path: the Verilog a command runs when no
/// `--verilog` is given. The text goes to a file of this process first and
/// is renamed into place, so a command running beside this one (tests run
/// in parallel) never reads a half-written file.
pub fn generated_verilog_file(
    prefix: &str,
    file: &str,
    text: &str,
) -> Result<std::path::PathBuf, CmdError> {
    let dir = membar_testbench::verilate::target_dir()
        .join("membar-generated")
        .join(prefix);
    std::fs::create_dir_all(&dir)
        .map_err(|e| CmdError::input(format!("{}: {e}", dir.display())))?;
    let path = dir.join(file);
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
        // Unique to this process and call (threads of one process too).
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{file}.{}.{n}", std::process::id()));
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, &path))
            .map_err(|e| CmdError::input(format!("{}: {e}", path.display())))?;
    }
    Ok(path)
}

pub fn load_config(path: &Path) -> Result<Config, CmdError> {
    Ok(membar_explore::load_config(path)?)
}

/// A workload file path, or the name of a built-in scenario.
pub fn load_workload(spec: &str, cfg: &Config) -> Result<WorkloadFile, CmdError> {
    let wf = if let Some(wf) = WorkloadFile::builtin(spec) {
        wf
    } else if Path::new(spec).exists() {
        WorkloadFile::load(spec)?
    } else {
        return Err(CmdError::input(format!(
            "--workload {spec:?}: no such file, and not a built-in scenario (built-ins: {})",
            SCENARIOS.join(", ")
        )));
    };
    wf.workload.validate_for(cfg, spec)?;
    Ok(wf)
}

/// Largest `--cycles` (the same range as the `cycles` key of workload and
/// grid files).
pub const MAX_CYCLES: u64 = membar_unit_env::workload::MAX_RUN_CYCLES;

/// `--cycles N`: 1..=MAX_CYCLES, like the `cycles` key in files.
pub fn parse_cycles(s: &str) -> Result<u64, String> {
    let n: u64 = s.trim().parse().map_err(|_| {
        format!("{s:?} is not a whole number; allowed: 1..={MAX_CYCLES} (the range of the `cycles` key in workload files)")
    })?;
    if !(1..=MAX_CYCLES).contains(&n) {
        return Err(format!(
            "{n} is out of range; allowed: 1..={MAX_CYCLES} (the range of the `cycles` key in workload files)"
        ));
    }
    Ok(n)
}

/// `synth --freq MHZ`: a finite clock target in 1..=1000 MHz.
pub fn parse_freq(s: &str) -> Result<f64, String> {
    let allowed = "allowed: a clock target in MHz, a finite number in 1..=1000";
    let f: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number; {allowed}"))?;
    if !(f.is_finite() && (1.0..=1000.0).contains(&f)) {
        return Err(format!("{s} is out of range; {allowed}"));
    }
    Ok(f)
}

/// Longest `--timeout` (seconds): one week.
pub const MAX_TIMEOUT_S: u64 = 7 * 24 * 3600;

/// `synth|formal --timeout SECONDS`: 1..=MAX_TIMEOUT_S.
pub fn parse_timeout(s: &str) -> Result<u64, String> {
    let allowed = format!("allowed: whole seconds in 1..={MAX_TIMEOUT_S} (one week)");
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number; {allowed}"))?;
    if !(1..=MAX_TIMEOUT_S).contains(&n) {
        return Err(format!("{n} is out of range; {allowed}"));
    }
    Ok(n)
}

/// Most runs per test `litmus --runs` takes.
pub const MAX_LITMUS_RUNS: u64 = 10_000_000;

/// `litmus --runs N`: 1..=MAX_LITMUS_RUNS.
pub fn parse_runs(s: &str) -> Result<u64, String> {
    let allowed = format!("allowed: 1..={MAX_LITMUS_RUNS} runs per test");
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number; {allowed}"))?;
    if !(1..=MAX_LITMUS_RUNS).contains(&n) {
        return Err(format!("{n} is out of range; {allowed}"));
    }
    Ok(n)
}

/// Most threads `--jobs` may ask for: beyond this, thread start-up costs
/// more than it gains and very large counts exhaust the machine.
pub const MAX_JOBS: usize = 256;

/// `--jobs N`: 1..=MAX_JOBS.
pub fn parse_jobs(s: &str) -> Result<usize, String> {
    let n: usize = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number; allowed: 1..={MAX_JOBS}"))?;
    if !(1..=MAX_JOBS).contains(&n) {
        return Err(format!(
            "{n} is out of range; allowed: 1..={MAX_JOBS} parallel jobs (default: all cores)"
        ));
    }
    Ok(n)
}

/// The configuration's name in the spelling of the files in `configs/` and
/// `verilog_out/`: `w<warps>_k<slots>_n<ways>_c<counter_bits>`.
pub fn config_name(cfg: &Config) -> String {
    cfg.short_name()
}

/// `--config`: the file, or the built-in default configuration (the one
/// `configs/default.yaml` documents) when none is given, so commands with a
/// default work from any directory.
pub fn load_config_or_default(path: Option<&Path>) -> Result<Config, CmdError> {
    match path {
        Some(p) => load_config(p),
        None => Ok(Config::default()),
    }
}

/// How a `--config` is named in reports.
pub fn config_label(path: Option<&Path>) -> String {
    path.map(|p| p.display().to_string())
        .unwrap_or_else(|| "built-in default (configs/default.yaml)".into())
}

/// Read a `--verilog` file and check it before any tool runs: UTF-8 text
/// with a `module membar_unit` that has exactly the SPEC.md ports of `cfg`.
pub fn read_verilog(flag: &str, path: &Path, cfg: &Config) -> Result<String, CmdError> {
    let text = read_verilog_text(flag, path)?;
    let problems = membar_testbench::portcheck::check_ports(&text, cfg);
    if !problems.is_empty() {
        return Err(CmdError::input(format!(
            "{flag} {}: module membar_unit does not have the SPEC.md ports of the configuration {}:\n  - {}",
            path.display(),
            config_name(cfg),
            problems.join("\n  - ")
        )));
    }
    Ok(text)
}

/// How often long runs (synth's tools, formal's groups) report progress:
/// 15 s, or `MEMBAR_PROGRESS_SECS` (1..=3600).
pub fn progress_every() -> std::time::Duration {
    let s = std::env::var("MEMBAR_PROGRESS_SECS")
        .ok()
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|s| (1..=3600).contains(s))
        .unwrap_or(15);
    std::time::Duration::from_secs(s)
}

/// Quote a word for a POSIX shell when it needs it (replay commands).
pub fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:+,@%".contains(c));
    if plain {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod anyhow_tests {
    use super::CmdError;
    use anyhow::Context;

    /// An application failure keeps its context chain and exits 1; an input
    /// error stays exit 2.
    #[test]
    fn application_failures_carry_their_context_and_exit_1() {
        let r: Result<String, std::io::Error> =
            std::fs::read_to_string("/nonexistent/membar/stat.txt");
        let e: CmdError = r.context("the tool wrote no stat.txt").unwrap_err().into();
        assert_eq!(e.code, 1);
        assert!(
            e.message.starts_with("the tool wrote no stat.txt: ") && e.message.len() > 30,
            "{}",
            e.message
        );
        let i: CmdError =
            membar_unit_env::InputError::new("c.yaml", "warps", 3, "8, 16, 32, 64").into();
        assert_eq!(i.code, 2);
    }
}

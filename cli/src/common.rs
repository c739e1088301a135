//! Shared plumbing of the subcommands: errors with exit codes, loading a
//! config and a workload.

use membar_sim::config::{Config, InputError};
use membar_sim::workload::{WorkloadFile, SCENARIOS};
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

impl From<InputError> for CmdError {
    fn from(e: InputError) -> Self {
        CmdError::input(e.to_string())
    }
}

pub type CmdResult = Result<(), CmdError>;

pub fn load_config(path: &Path) -> Result<Config, CmdError> {
    Ok(Config::load(path)?)
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

/// Create an output file for `flag`, refusing to overwrite an existing file
/// unless it looks like one this tool writes (`looks_ours` on its first bytes):
/// a mistyped `--trace configs/default.yaml` must not destroy the config.
pub fn create_output(
    flag: &str,
    path: &Path,
    looks_ours: fn(&[u8]) -> bool,
) -> Result<std::fs::File, CmdError> {
    if path.is_dir() {
        return Err(CmdError::input(format!(
            "{flag} {}: is a directory; expected a file path",
            path.display()
        )));
    }
    if path.exists() {
        let mut head = [0u8; 64];
        let n = std::fs::File::open(path)
            .and_then(|mut f| std::io::Read::read(&mut f, &mut head))
            .unwrap_or(0);
        if n > 0 && !looks_ours(&head[..n]) {
            return Err(CmdError::input(format!(
                "{flag} {}: the file exists and was not written by membar; refusing to overwrite it (remove it or pick another path)",
                path.display()
            )));
        }
    }
    std::fs::File::create(path)
        .map_err(|e| CmdError::input(format!("{flag} {}: {e}", path.display())))
}

/// First bytes of a VCD file written by `membar_sim::vcd`.
pub fn is_vcd(head: &[u8]) -> bool {
    head.starts_with(b"$version") || head.starts_with(b"$date") || head.starts_with(b"$comment")
}

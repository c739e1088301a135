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
        CmdError { code: 2, message: message.into() }
    }
    /// A check failed: exit 1.
    pub fn failed(message: impl Into<String>) -> Self {
        CmdError { code: 1, message: message.into() }
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

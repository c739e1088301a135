//! Errors of the Verilator flow. Each `Display` says what failed and what to do.

use std::fmt;
use std::path::PathBuf;

#[derive(Debug, Clone)]
pub enum CosimError {
    /// The `verilator` executable could not be run.
    VerilatorMissing {
        binary: PathBuf,
        detail: String,
    },
    /// The Verilog file does not exist.
    VerilogMissing {
        path: PathBuf,
    },
    /// The Verilog's `membar_unit` ports do not match SPEC.md for the config.
    Ports {
        path: PathBuf,
        /// The contract's module (`membar_unit`, `bar_unit`, …).
        module: String,
        config: String,
        problems: Vec<String>,
    },
    /// Verilator or the C++ compiler failed; `log` holds their messages.
    Build {
        stage: String,
        command: String,
        log: String,
    },
    /// The built library could not be loaded or is not the expected shim.
    Load {
        path: PathBuf,
        detail: String,
    },
    /// Waveform could not be opened.
    Waves {
        path: PathBuf,
        detail: String,
    },
    Io {
        what: String,
        detail: String,
    },
}

impl fmt::Display for CosimError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CosimError::VerilatorMissing { binary, detail } => write!(
                f,
                "cannot run `{}` ({detail}): Verilator is required for cosimulation; install it with `apt-get install -y verilator` (Debian/Ubuntu; 5.006 is known to work), or point $MEMBAR_VERILATOR at the binary",
                binary.display()
            ),
            CosimError::VerilogMissing { path } => write!(
                f,
                "Verilog file {} does not exist: generate it first (membar_unit_rtl::generate_verilog / `membar generate`)",
                path.display()
            ),
            CosimError::Ports { path, module, config, problems } => {
                write!(f, "{}: module {module} does not have the contract's ports for config {config}:", path.display())?;
                for p in problems {
                    write!(f, "\n  - {p}")?;
                }
                Ok(())
            }
            CosimError::Build { stage, command, log } => {
                write!(f, "{stage} failed\ncommand: {command}\n--- messages ---\n{log}")
            }
            CosimError::Load { path, detail } => write!(f, "cannot load {}: {detail}", path.display()),
            CosimError::Waves { path, detail } => write!(f, "cannot write waveform {}: {detail}", path.display()),
            CosimError::Io { what, detail } => write!(f, "{what}: {detail}"),
        }
    }
}

impl std::error::Error for CosimError {}

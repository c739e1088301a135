//! `--on model|rtl|verilog` of `membar run` and `membar litmus`: what runs
//! each SM's `sm_sync` top besides its reference model. The executor
//! (`sm_exec`) steps the model and the twin on the same inputs every cycle
//! and stops at the first output port where they differ (exit 1, with the
//! cycle, the port, both values and the inputs, like `cosim`).
//!
//! - `model`: the reference model alone (`sm_sync_model::SmSyncModel`);
//! - `rtl`: the rust-hdl simulation of `sm_sync_rtl` (the executor's
//!   configuration is compiled in);
//! - `verilog`: the top's Verilog (`sm_sync_rtl::generate_verilog`, written
//!   to `target/membar-generated/`) under Verilator, one instance per SM.

use crate::common::CmdError;
use sm_exec::exec::{exec_config_for, Backend};
use sm_exec::sm_timing::SmTiming;
use sm_sync_model::SmSyncPorts;
use std::sync::Arc;

/// Where a program's `sm_sync` tops run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum On {
    /// The reference model alone.
    Model,
    /// The rust-hdl simulation, in lockstep with the model.
    Rtl,
    /// The Verilated Verilog, in lockstep with the model.
    Verilog,
}

impl On {
    /// The `--on` value.
    pub fn name(self) -> &'static str {
        match self {
            On::Model => "model",
            On::Rtl => "rtl",
            On::Verilog => "verilog",
        }
    }

    /// ` --on X` for a replay command (nothing for the default, the model).
    pub fn flag(self) -> String {
        match self {
            On::Model => String::new(),
            o => format!(" --on {}", o.name()),
        }
    }
}

/// The executor backend for `on`, its SMs configured as the executor's
/// under `preset` (`sm_exec::exec::exec_config_for`). Building the Verilog
/// (and Verilating it) happens here, once; each SM then gets its own
/// instance.
pub fn backend(on: On, preset: Option<&SmTiming>) -> Result<Backend, CmdError> {
    let cfg = exec_config_for(preset);
    match on {
        On::Model => Ok(Backend::default()),
        On::Rtl => {
            // Fail early, with the reason, if the configuration is not compiled in.
            sm_sync_rtl::hdl_dut(&cfg).map_err(|e| CmdError::input(format!("--on rtl: {e}")))?;
            Ok(Backend {
                name: "rtl",
                build: Arc::new(move |_| {
                    let d = sm_sync_rtl::hdl_dut(&cfg)?;
                    Ok(Some(d))
                }),
            })
        }
        On::Verilog => {
            let text = sm_sync_rtl::generate_verilog(&cfg)
                .map_err(|e| CmdError::input(format!("--on verilog: {e}")))?;
            let path = crate::common::generated_verilog_file(
                &sm_sync_rtl::module_prefix(&cfg),
                "sm_sync.v",
                &text,
            )?;
            let opts = membar_testbench::BuildOptions {
                verbose: false,
                ..Default::default()
            };
            let first = membar_testbench::VerilatorDut::<SmSyncPorts>::build(&path, &cfg, &opts)
                .map_err(|e| CmdError::input(format!("--on verilog: {}: {e}", path.display())))?;
            let lib = first.library.clone();
            Ok(Backend {
                name: "verilog",
                build: Arc::new(move |_| {
                    let mut d = membar_testbench::VerilatorDut::<SmSyncPorts>::load(&lib, &cfg)
                        .map_err(|e| e.to_string())?;
                    d.timing = false;
                    let d: Box<dyn unit_ports::Dut<SmSyncPorts>> = Box::new(d);
                    Ok(Some(d))
                }),
            })
        }
    }
}

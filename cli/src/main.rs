//! `membar`: the membar-rtl command line.
//!
//! Exit codes: 0 success; 1 a check failed (scoreboard violation, cosimulation
//! mismatch, regression); 2 bad input (config, workload, flag) or a missing tool.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod common;
mod sim_cmd;

/// membar-rtl: the SM memory-barrier unit — reference model, RTL, cosimulation.
#[derive(Parser, Debug)]
#[command(name = "membar", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Simulate the reference model under a workload; print the summary and
    /// the P1–P7 scoreboard verdict (exit 1 on a violation).
    Sim {
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// Workload YAML file, or the name of a built-in scenario.
        #[arg(long, default_value = "random_mix")]
        workload: String,
        /// Stimulus cycles (default: the workload file's `cycles`, else 100000).
        #[arg(long)]
        cycles: Option<u64>,
        /// Random seed (workload, memory model).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write a VCD waveform of the ports.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Print the functional coverage report.
        #[arg(long)]
        coverage: bool,
    },
    /// Measure simulated cycles per second of the reference model (and, when
    /// built, the rust-hdl simulation and the Verilator cosimulation).
    Bench {
        #[arg(long, default_value = "configs/default.yaml")]
        config: PathBuf,
        /// Cycles per measurement.
        #[arg(long, default_value_t = 2_000_000)]
        cycles: u64,
        #[arg(long, default_value = "random_mix")]
        workload: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Sim { config, workload, cycles, seed, trace, coverage } => sim_cmd::sim(&config, &workload, cycles, seed, trace.as_deref(), coverage),
        Cmd::Bench { config, cycles, workload, seed } => sim_cmd::bench(&config, &workload, cycles, seed),
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("membar: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

//! `membar`: the membar-rtl command line.
//!
//! Exit codes: 0 success; 1 a check failed (scoreboard violation, cosimulation
//! mismatch, regression); 2 bad input (config, workload, flag) or a missing tool.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod calibrate;
mod common;
mod output;
mod rtl_cmd;
mod shard;
mod sim_cmd;
mod sweep;
mod synth;
mod unit_mbarrier;

/// membar-rtl: the SM memory-barrier unit — reference model, RTL, cosimulation.
#[derive(Parser, Debug)]
#[command(name = "membar", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Write `DIR/membar_unit.v` (SPEC.md ports, ANSI list) for a configuration.
    Generate {
        /// Unit: membar (memory-barrier unit) or mbarrier (transaction-barrier unit, spec/mbarrier_unit.md).
        #[arg(long, default_value = "membar")]
        unit: String,
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// Output directory (created if absent); an existing `membar_unit.v`
        /// there is replaced only if membar generated it.
        #[arg(long)]
        out: PathBuf,
    },
    /// Cosimulate the emitted Verilog (Verilator) against the reference model
    /// in lockstep; every output port compared every cycle (exit 1 on a mismatch).
    Cosim {
        /// Unit: membar (memory-barrier unit) or mbarrier (transaction-barrier unit, spec/mbarrier_unit.md).
        #[arg(long, default_value = "membar")]
        unit: String,
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// The Verilog to run (default: generated from the config).
        #[arg(long)]
        verilog: Option<PathBuf>,
        /// Workload YAML file, or the name of a built-in scenario.
        #[arg(long, default_value = "random_mix")]
        workload: String,
        /// Cycles to cosimulate, 1..=10^12 (default: the workload file's
        /// `cycles`, else 100000).
        #[arg(long, value_parser = common::parse_cycles)]
        cycles: Option<u64>,
        /// Random seed (workload, memory model).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write a waveform of the whole run (`.vcd`: VCD, otherwise FST);
        /// never replaces a file that is not a membar waveform.
        #[arg(long)]
        waves: Option<PathBuf>,
    },
    /// Long adversarial cosimulation (Verilator vs model, scoreboard,
    /// coverage, resets mid-traffic); exit 1 on any mismatch, violation or loss.
    Soak {
        /// YAML configuration (default: the built-in default configuration).
        #[arg(long)]
        config: Option<PathBuf>,
        /// The Verilog to run (default: generated from the config).
        #[arg(long)]
        verilog: Option<PathBuf>,
        /// Total cycles, 1..=10^12.
        #[arg(long, default_value_t = 1_000_000, value_parser = common::parse_cycles)]
        cycles: u64,
        /// Random seed; each chunk derives its own seed from it.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cycles per chunk (each chunk: a new scenario and derived seed), at
        /// least 1000.
        #[arg(long, default_value_t = 200_000)]
        chunk: u64,
    },
    /// Simulate the reference model under a workload; print the summary and
    /// the P1–P7 scoreboard verdict (exit 1 on a violation).
    Sim {
        /// Unit: membar (memory-barrier unit) or mbarrier (transaction-barrier unit, spec/mbarrier_unit.md).
        #[arg(long, default_value = "membar")]
        unit: String,
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// Workload YAML file, or the name of a built-in scenario.
        #[arg(long, default_value = "random_mix")]
        workload: String,
        /// Stimulus cycles, 1..=10^12 (default: the workload file's `cycles`, else 100000).
        #[arg(long, value_parser = common::parse_cycles)]
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
        /// YAML configuration (default: the built-in default configuration).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Cycles per measurement, 1..=20000000 (the input trace is recorded in memory).
        #[arg(long, default_value_t = 2_000_000, value_parser = sim_cmd::parse_bench_cycles)]
        cycles: u64,
        /// Workload YAML file, or the name of a built-in scenario.
        #[arg(long, default_value = "random_mix")]
        workload: String,
        /// Random seed (workload, memory model).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Sweep configuration keys and workload parameters (cartesian product of
    /// the grid file's lists) in parallel; write a CSV row per point and SVG
    /// plots (exit 1 if the scoreboard flags a point). `--shard i/n` runs a
    /// slice of the points; `--merge DIR...` joins the shards' CSVs.
    Sweep {
        /// Grid YAML file (see grids/default_sweep.yaml).
        #[arg(long)]
        grid: PathBuf,
        /// Output directory for <grid>.csv and <grid>_*.svg (or a shard's CSV).
        #[arg(long, default_value = "sweep_out")]
        out: PathBuf,
        /// Parallel jobs, 1..=256 (default: all cores).
        #[arg(long, value_parser = common::parse_jobs)]
        jobs: Option<usize>,
        /// Stimulus cycles per point, 1..=10^12 (overrides the grid's `cycles`).
        #[arg(long, value_parser = common::parse_cycles)]
        cycles: Option<u64>,
        /// Leave the P1–P7 scoreboard out (faster; default: check every point).
        #[arg(long)]
        no_check: bool,
        /// Run only shard I of N (points whose index is I mod N), writing
        /// `<grid>.shard-I-of-N.csv`; join the shards with --merge.
        #[arg(long, value_parser = shard::parse_shard, conflicts_with = "merge")]
        shard: Option<shard::Shard>,
        /// Join the shard CSVs found in these directories into `<grid>.csv`
        /// (checking that every point is there exactly once) and draw the plots.
        #[arg(long, num_args = 1..)]
        merge: Vec<PathBuf>,
    },
    /// Model vs measured fence latencies (H100/H200) for the calibrated
    /// presets, cell by cell with the error of each.
    Calibrate {
        /// Preset file(s) (default: configs/h100.yaml and configs/h200.yaml).
        #[arg(long)]
        preset: Vec<PathBuf>,
        /// Directory of the measurement CSVs (default: data/calibration, built in).
        #[arg(long)]
        data: Option<PathBuf>,
        /// Re-derive the per-level latencies and overheads first, and print the fitted preset.
        #[arg(long)]
        fit: bool,
        /// Error tolerance in percent for the per-cell verdict, 0..=1000.
        #[arg(long, default_value_t = 20.0, value_parser = calibrate::parse_tolerance)]
        tolerance: f64,
        /// Exit 1 if a goal cell is outside the tolerance.
        #[arg(long)]
        strict: bool,
        /// Seed of the memory model's random draws.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Parallel jobs, 1..=256 (default: all cores).
        #[arg(long, value_parser = common::parse_jobs)]
        jobs: Option<usize>,
    },
    /// FPGA area and fmax of the emitted Verilog: yosys synth_ice40 and
    /// nextpnr-ice40 on an iCE40 HX8K (default), or yosys' generic LUT4
    /// synthesis; prints LUTs, flip-flops, carries, logic cells and fmax
    /// (reported, not checked). See docs/fpga.md.
    Synth {
        /// Unit: membar (memory-barrier unit) or mbarrier (transaction-barrier unit, spec/mbarrier_unit.md).
        #[arg(long, default_value = "membar")]
        unit: String,
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// Synthesise this emitted file instead of generating the config's Verilog.
        #[arg(long)]
        verilog: Option<PathBuf>,
        /// ice40: synth_ice40 + nextpnr-ice40 (HX8K); generic: synth -lut 4, no place and route.
        #[arg(long, value_enum, default_value_t = synth::Target::Ice40)]
        target: synth::Target,
        /// Append a row to this CSV file (header written when the file is new).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// nextpnr placer seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Clock target for nextpnr, MHz.
        #[arg(long, default_value_t = 100.0)]
        freq: f64,
        /// Seconds each tool may run.
        #[arg(long, default_value_t = 600)]
        timeout: u64,
        /// Work in this directory and keep the scripts, logs, netlist and report
        /// there: a new or empty directory, or one an earlier `--keep` used.
        #[arg(long)]
        keep: Option<PathBuf>,
    },
}

/// Die quietly on a closed stdout (`membar calibrate | head -1`), like other
/// Unix tools, instead of panicking in `println!` (Rust ignores SIGPIPE).
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: setting a signal disposition to its default at start-up,
    // before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

fn main() -> ExitCode {
    default_sigpipe();
    let cli = Cli::parse();
    let r = match cli.cmd {
        Cmd::Generate { unit, config, out } => match unit_mbarrier::selected(&unit) {
            Ok(true) => unit_mbarrier::generate(&config, &out),
            Ok(false) => rtl_cmd::generate(&config, &out),
            Err(e) => Err(e),
        },
        Cmd::Cosim {
            unit,
            config,
            verilog,
            workload,
            cycles,
            seed,
            waves,
        } => match unit_mbarrier::selected(&unit) {
            Ok(true) => unit_mbarrier::cosim(
                &config,
                verilog.as_deref(),
                &workload,
                cycles,
                seed,
                waves.as_deref(),
            ),
            Ok(false) => rtl_cmd::cosim(&rtl_cmd::CosimArgs {
                config: &config,
                verilog: verilog.as_deref(),
                workload: &workload,
                cycles,
                seed,
                waves: waves.as_deref(),
            }),
            Err(e) => Err(e),
        },
        Cmd::Soak {
            config,
            verilog,
            cycles,
            seed,
            chunk,
        } => {
            if chunk < rtl_cmd::MIN_SOAK_CHUNK {
                Err(common::CmdError::input(format!(
                    "--chunk {chunk}: allowed: {} or more cycles (each chunk starts with a power-on reset, and mid-traffic resets need room)",
                    rtl_cmd::MIN_SOAK_CHUNK
                )))
            } else {
                rtl_cmd::soak(&rtl_cmd::SoakArgs {
                    config: config.as_deref(),
                    verilog: verilog.as_deref(),
                    cycles,
                    seed,
                    chunk,
                })
            }
        }
        Cmd::Sim {
            unit,
            config,
            workload,
            cycles,
            seed,
            trace,
            coverage,
        } => match unit_mbarrier::selected(&unit) {
            Ok(true) => {
                unit_mbarrier::sim(&config, &workload, cycles, seed, trace.as_deref(), coverage)
            }
            Ok(false) => sim_cmd::sim(&config, &workload, cycles, seed, trace.as_deref(), coverage),
            Err(e) => Err(e),
        },
        Cmd::Bench {
            config,
            cycles,
            workload,
            seed,
        } => sim_cmd::bench(config.as_deref(), &workload, cycles, seed),
        Cmd::Sweep {
            grid,
            out,
            jobs,
            cycles,
            no_check,
            shard,
            merge,
        } => sweep::sweep(&sweep::Options {
            grid,
            out,
            jobs,
            no_check,
            cycles,
            shard,
            merge,
        }),
        Cmd::Calibrate {
            preset,
            data,
            fit,
            tolerance,
            strict,
            seed,
            jobs,
        } => calibrate::calibrate(&calibrate::Options {
            presets: preset,
            data,
            fit,
            tolerance_pct: tolerance,
            strict,
            seed,
            jobs,
        }),
        Cmd::Synth {
            unit,
            config,
            verilog,
            target,
            csv,
            seed,
            freq,
            timeout,
            keep,
        } => {
            let opts = synth::Options {
                config,
                verilog,
                target,
                csv,
                seed,
                freq,
                timeout,
                keep,
            };
            match unit_mbarrier::selected(&unit) {
                Ok(true) => unit_mbarrier::synth(&opts),
                Ok(false) => synth::synth(&opts),
                Err(e) => Err(e),
            }
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("membar: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

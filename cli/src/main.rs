//! `membar`: the membar-rtl command line.
//!
//! Exit codes: 0 success; 1 a check failed (scoreboard violation, cosimulation
//! mismatch, regression); 2 bad input (config, workload, flag) or a missing tool.

use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

mod calibrate;
mod calibrate_units;
mod common;
mod formal_cmd;
mod litmus_cmd;
mod output;
mod ptx_cmd;
mod rtl_cmd;
mod run_cmd;
mod shard;
mod sim_cmd;
mod sweep;
mod synth;
mod synth_all;
mod unit_async_groups;
mod unit_bar;
mod unit_bench;
mod unit_cluster;
mod unit_kit;
mod unit_mbarrier;
mod unit_sm_sync;
mod unit_soak;
mod unit_sweep;
mod units;

/// membar-rtl: the SM memory-barrier unit — reference model, RTL, cosimulation.
#[derive(Parser, Debug)]
#[command(name = "membar", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Execute a PTX program file cycle by cycle on the unit reference models
    /// with the weak memory model (docs/memory_model.md): final registers,
    /// stall cycles per warp by cause, total cycles. Exit 1 on a deadlock or
    /// the cycle cap, 2 on a bad file or a unit protocol error.
    Run {
        /// A program file (YAML header + PTX), e.g. examples/membar_flag.ptx.
        program: PathBuf,
        /// Seed of the random memory timing.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cycle cap, 1..=10^12 (with --trace: 1..=10^6).
        #[arg(long, default_value_t = 1_000_000, value_parser = common::parse_cycles)]
        cycles: u64,
        /// Write the per-warp timeline: FILE.vcd (GTKWave) or FILE.json (Chrome trace).
        #[arg(long)]
        trace: Option<PathBuf>,
    },
    /// Run litmus tests (default: every litmus/*.ptx) many times with random
    /// timing; print observed outcomes and verdicts (docs/litmus.md). Exit 1
    /// when a verdict fails.
    Litmus {
        /// Litmus files (default: litmus/*.ptx).
        files: Vec<PathBuf>,
        /// Runs per test, 1..=10^7.
        #[arg(long, default_value_t = 1000, value_parser = common::parse_runs)]
        runs: u64,
        /// Base seed (each run's seed derives from it, the test name and the run index).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write the table to this Markdown file (docs/results/litmus.md).
        #[arg(long)]
        markdown: Option<PathBuf>,
    },
    /// PTX front end: `--lower FILE` prints each instruction with its sm_90
    /// lowering; `--table` prints the lowering table with sources. Exit 2 on a bad file.
    Ptx {
        /// A program file (YAML header + PTX), e.g. examples/membar_flag.ptx.
        #[arg(long, conflicts_with = "table")]
        lower: Option<PathBuf>,
        /// Print the whole lowering table (Markdown).
        #[arg(long)]
        table: bool,
    },
    /// Formal proofs of the SPEC.md properties on the emitted Verilog
    /// (SymbiYosys; one task per property group). Exit 1 on a counterexample
    /// or an unfinished proof, 2 on bad input or a missing tool.
    Formal {
        /// The unit whose contract is checked (allowed: membar, bar, cluster, mbarrier, async_groups, sm_sync).
        #[arg(long, default_value = "membar")]
        unit: String,
        #[arg(long)]
        config: PathBuf,
        /// The Verilog to check (default: generated from the config).
        #[arg(long)]
        verilog: Option<PathBuf>,
        /// BMC / k-induction depth (cycles).
        #[arg(long, default_value_t = 20)]
        depth: u32,
        /// pdr (abc pdr, unbounded proof), kind (smtbmc k-induction), bmc (abc bmc3).
        #[arg(long, default_value = "pdr")]
        engine: String,
        /// Property groups, comma-separated (default: all; with pdr all but p5). membar: rst, p2, p3s, p3c, p7, cnt, p4, p5, p1; bar: rst, b1, b2, b4, b6, b6c; cluster: rst, c1, c2, c3; mbarrier: rst, m7, m1, m6, m2, m8; async_groups: rst, g1, g2, g3, g4; sm_sync: rst, s2, s3, s4, s5, s6, s1m, s1b, s1d; every unit but membar: all (every group in one task).
        #[arg(long)]
        props: Option<String>,
        /// Work in this directory and keep the harness, .sby, logs and traces.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Seconds each group's task may run, 1..=604800.
        #[arg(long, default_value_t = 1200, value_parser = common::parse_timeout)]
        timeout: u64,
        /// Groups run at once.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
    },
    /// Write `DIR/membar_unit.v` (SPEC.md ports, ANSI list) for a configuration.
    Generate {
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// Output directory (created if absent); an existing `membar_unit.v`
        /// there is replaced only if membar generated it.
        #[arg(long)]
        out: PathBuf,
        /// Which unit: membar (the memory-barrier unit, default), bar (the named-barrier unit, spec/bar_unit.md), cluster (the cluster barrier, spec/cluster_barrier.md), mbarrier (the transaction-barrier unit, spec/mbarrier_unit.md), async_groups (the bulk async-group tracker, spec/async_groups.md) or sm_sync (the four units behind one instruction port, spec/sm_sync.md).
        #[arg(long, value_enum, default_value_t = units::Unit::Membar)]
        unit: units::Unit,
    },
    /// Cosimulate the emitted Verilog (Verilator) against the reference model
    /// in lockstep; every output port compared every cycle (exit 1 on a mismatch).
    Cosim {
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
        /// Which unit: membar (the memory-barrier unit, default), bar (the named-barrier unit, spec/bar_unit.md), cluster (the cluster barrier, spec/cluster_barrier.md), mbarrier (the transaction-barrier unit, spec/mbarrier_unit.md), async_groups (the bulk async-group tracker, spec/async_groups.md) or sm_sync (the four units behind one instruction port, spec/sm_sync.md).
        #[arg(long, value_enum, default_value_t = units::Unit::Membar)]
        unit: units::Unit,
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
        /// Which unit: membar (default), bar, cluster, mbarrier or async_groups (--config required).
        #[arg(long, value_enum, default_value_t = units::Unit::Membar)]
        unit: units::Unit,
    },
    /// Simulate the reference model under a workload; print the summary and
    /// the P1–P7 scoreboard verdict (exit 1 on a violation).
    Sim {
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
        /// Which unit: membar (the memory-barrier unit, default), bar (the named-barrier unit, spec/bar_unit.md), cluster (the cluster barrier, spec/cluster_barrier.md), mbarrier (the transaction-barrier unit, spec/mbarrier_unit.md), async_groups (the bulk async-group tracker, spec/async_groups.md) or sm_sync (the four units behind one instruction port, spec/sm_sync.md).
        #[arg(long, value_enum, default_value_t = units::Unit::Membar)]
        unit: units::Unit,
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
        /// Which unit: membar (default), bar, cluster, mbarrier or async_groups (their golden model, Verilator and the lockstep loop; --config required).
        #[arg(long, value_enum, default_value_t = units::Unit::Membar)]
        unit: units::Unit,
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
        /// Which unit: membar (default), bar, cluster, mbarrier or async_groups (a grid of the unit's config and scenario keys, run on its golden model with its scoreboard; see cli/src/unit_sweep.rs).
        #[arg(long, value_enum, default_value_t = units::Unit::Membar)]
        unit: units::Unit,
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
        /// A sync unit's H100 table instead of the membar unit's: bar (tables 1.1, 1.2, 1.4, 3.1) or mbarrier (2.1, 2.2, 2.3, 4.1).
        #[arg(long)]
        unit: Option<units::Unit>,
        /// With --unit: also write the table as markdown to FILE (e.g. docs/results/calibration_bar.md).
        #[arg(long, requires = "unit")]
        markdown: Option<PathBuf>,
    },
    /// FPGA area and fmax of the emitted Verilog: yosys synth_ice40 and
    /// nextpnr-ice40 on an iCE40 HX8K (default), or yosys' generic LUT4
    /// synthesis; prints LUTs, flip-flops, carries, logic cells and fmax
    /// (reported, not checked). See docs/fpga.md.
    Synth {
        /// YAML configuration (see configs/default.yaml).
        #[arg(long, required_unless_present = "all_configs")]
        config: Option<PathBuf>,
        /// Every shipped configuration (verilog_out/) of every unit (or of
        /// --unit), on each --target family (default ice40,ecp5), plus a
        /// membar scaling table over W, K, C: written to --markdown F.
        #[arg(long, requires = "markdown", conflicts_with_all = ["config", "verilog", "csv", "keep"])]
        all_configs: bool,
        /// With --all-configs: the Markdown file the tables go to.
        #[arg(long, requires = "all_configs")]
        markdown: Option<PathBuf>,
        /// Synthesise this emitted file instead of generating the config's Verilog.
        #[arg(long)]
        verilog: Option<PathBuf>,
        /// ice40: synth_ice40 + nextpnr-ice40 (HX8K); ecp5: synth_ecp5 + nextpnr-ecp5 (LFE5U-85F); generic: synth -lut 4, no place and route.
        /// With --all-configs, a comma-separated list (default ice40,ecp5).
        #[arg(long, value_delimiter = ',', value_parser = synth::target_parser())]
        target: Vec<synth::Target>,
        /// Append a row to this CSV file (header written when the file is new).
        #[arg(long)]
        csv: Option<PathBuf>,
        /// nextpnr placer seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Clock target for nextpnr, MHz, 1..=1000.
        #[arg(long, default_value_t = 100.0, value_parser = common::parse_freq)]
        freq: f64,
        /// Seconds each tool may run, 1..=604800.
        #[arg(long, default_value_t = 600, value_parser = common::parse_timeout)]
        timeout: u64,
        /// Work in this directory and keep the scripts, logs, netlist and report
        /// there: a new or empty directory, or one an earlier `--keep` used.
        #[arg(long)]
        keep: Option<PathBuf>,
        /// Which unit: membar (the memory-barrier unit, default), bar (the named-barrier unit, spec/bar_unit.md), cluster (the cluster barrier, spec/cluster_barrier.md), mbarrier (the transaction-barrier unit, spec/mbarrier_unit.md), async_groups (the bulk async-group tracker, spec/async_groups.md) or sm_sync (the four units behind one instruction port, spec/sm_sync.md). With --all-configs and no --unit: every unit.
        #[arg(long, value_enum)]
        unit: Option<units::Unit>,
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
        Cmd::Ptx { lower, table } => ptx_cmd::run(lower.as_deref(), table),
        Cmd::Run {
            program,
            seed,
            cycles,
            trace,
        } => run_cmd::run(&program, seed, cycles, trace.as_deref()),
        Cmd::Litmus {
            files,
            runs,
            seed,
            markdown,
        } => litmus_cmd::run(&files, runs, seed, markdown.as_deref()),
        Cmd::Formal {
            unit,
            config,
            verilog,
            depth,
            engine,
            props,
            keep,
            timeout,
            jobs,
        } => formal_cmd::formal(&formal_cmd::FormalArgs {
            unit,
            config,
            verilog,
            depth,
            engine,
            props,
            keep,
            timeout,
            jobs,
        }),
        Cmd::Generate {
            unit: units::Unit::Cluster,
            config,
            out,
        } => unit_cluster::generate(&config, &out),
        Cmd::Cosim {
            unit: units::Unit::Cluster,
            config,
            verilog,
            cycles,
            seed,
            ..
        } => unit_cluster::cosim(&config, verilog.as_deref(), cycles, seed),
        Cmd::Sim {
            unit: units::Unit::Cluster,
            config,
            workload,
            cycles,
            seed,
            coverage,
            ..
        } => unit_cluster::sim(&config, &workload, cycles, seed, coverage),
        Cmd::Generate {
            unit: units::Unit::Bar,
            config,
            out,
        } => unit_bar::generate(&config, &out),
        Cmd::Generate {
            unit: units::Unit::Mbarrier,
            config,
            out,
        } => unit_mbarrier::generate(&config, &out),
        Cmd::Generate {
            unit: units::Unit::AsyncGroups,
            config,
            out,
        } => unit_async_groups::generate(&config, &out),
        Cmd::Generate {
            unit: units::Unit::SmSync,
            config,
            out,
        } => unit_sm_sync::generate(&config, &out),
        Cmd::Generate { config, out, .. } => rtl_cmd::generate(&config, &out),
        Cmd::Cosim {
            unit: units::Unit::Bar,
            config,
            verilog,
            cycles,
            seed,
            ..
        } => unit_bar::cosim(&config, verilog.as_deref(), cycles, seed),
        Cmd::Sim {
            unit: units::Unit::Bar,
            config,
            workload,
            cycles,
            seed,
            coverage,
            ..
        } => unit_bar::sim(&config, &workload, cycles, seed, coverage),
        Cmd::Cosim {
            unit,
            config,
            verilog,
            workload,
            cycles,
            seed,
            waves,
            ..
        } => match unit {
            units::Unit::Mbarrier => unit_mbarrier::cosim(
                &config,
                verilog.as_deref(),
                &workload,
                cycles,
                seed,
                waves.as_deref(),
            ),
            units::Unit::AsyncGroups => unit_async_groups::cosim(
                &config,
                verilog.as_deref(),
                &workload,
                cycles,
                seed,
                waves.as_deref(),
            ),
            units::Unit::SmSync => unit_sm_sync::cosim(
                &config,
                verilog.as_deref(),
                &workload,
                cycles,
                seed,
                waves.as_deref(),
            ),
            _ => rtl_cmd::cosim(&rtl_cmd::CosimArgs {
                config: &config,
                verilog: verilog.as_deref(),
                workload: &workload,
                cycles,
                seed,
                waves: waves.as_deref(),
            }),
        },
        Cmd::Soak {
            config,
            verilog,
            cycles,
            seed,
            chunk,
            unit,
        } => {
            if chunk < rtl_cmd::MIN_SOAK_CHUNK {
                Err(common::CmdError::input(format!(
                    "--chunk {chunk}: allowed: {} or more cycles (each chunk starts with a power-on reset, and mid-traffic resets need room)",
                    rtl_cmd::MIN_SOAK_CHUNK
                )))
            } else if unit != units::Unit::Membar {
                unit_soak::dispatch(
                    unit,
                    config.as_deref(),
                    verilog.as_deref(),
                    cycles,
                    seed,
                    chunk,
                )
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
            ..
        } => match unit {
            units::Unit::Mbarrier => {
                unit_mbarrier::sim(&config, &workload, cycles, seed, trace.as_deref(), coverage)
            }
            units::Unit::AsyncGroups => {
                unit_async_groups::sim(&config, &workload, cycles, seed, trace.as_deref(), coverage)
            }
            units::Unit::SmSync => {
                unit_sm_sync::sim(&config, &workload, cycles, seed, trace.as_deref(), coverage)
            }
            _ => sim_cmd::sim(&config, &workload, cycles, seed, trace.as_deref(), coverage),
        },
        Cmd::Bench {
            config,
            cycles,
            workload,
            seed,
            unit,
        } => match unit {
            units::Unit::Membar => sim_cmd::bench(config.as_deref(), &workload, cycles, seed),
            u if workload != "random_mix" => Err(common::CmdError::input(format!(
                "--workload {workload}: with --unit {} bench runs the unit's seeded random stimulus; allowed: random_mix (the default)",
                unit_kit::flag(u)
            ))),
            u => unit_bench::dispatch(u, config.as_deref(), cycles, seed),
        },
        Cmd::Sweep {
            grid,
            out,
            shard,
            merge,
            unit,
            ..
        } if unit != units::Unit::Membar => {
            if shard.is_some() || !merge.is_empty() {
                Err(common::CmdError::input(format!(
                    "--shard/--merge: not available with --unit {}",
                    unit_kit::flag(unit)
                )))
            } else {
                unit_sweep::sweep(unit, &grid, &out)
            }
        }
        Cmd::Sweep {
            grid,
            out,
            jobs,
            cycles,
            no_check,
            shard,
            merge,
            ..
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
            unit: Some(unit),
            markdown,
            tolerance,
            strict,
            ..
        } if unit != units::Unit::Membar || markdown.is_some() => {
            calibrate_units::calibrate(unit, markdown.as_deref(), tolerance, strict)
        }
        Cmd::Calibrate {
            preset,
            data,
            fit,
            tolerance,
            strict,
            seed,
            jobs,
            ..
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
            all_configs,
            markdown,
            verilog,
            target,
            csv,
            seed,
            freq,
            timeout,
            keep,
        } => {
            let mut opts = synth::Options {
                config: config.unwrap_or_default(),
                verilog,
                target: synth::Target::Ice40,
                csv,
                seed,
                freq,
                timeout,
                keep,
            };
            match (all_configs, markdown) {
                (true, Some(md)) => {
                    let targets = if target.is_empty() {
                        vec![synth::Target::Ice40, synth::Target::Ecp5]
                    } else {
                        target
                    };
                    let units = match unit {
                        Some(u) => vec![u],
                        None => vec![
                            units::Unit::Membar,
                            units::Unit::Bar,
                            units::Unit::Cluster,
                            units::Unit::Mbarrier,
                            units::Unit::AsyncGroups,
                            units::Unit::SmSync,
                        ],
                    };
                    synth_all::run(&opts, &targets, &units, &md)
                }
                _ => match target.as_slice() {
                    [] | [_] => {
                        opts.target = target.first().copied().unwrap_or(synth::Target::Ice40);
                        match unit.unwrap_or(units::Unit::Membar) {
                            units::Unit::Bar => unit_bar::synth(&opts),
                            units::Unit::Cluster => unit_cluster::synth(&opts),
                            units::Unit::Mbarrier => unit_mbarrier::synth(&opts),
                            units::Unit::AsyncGroups => unit_async_groups::synth(&opts),
                            units::Unit::SmSync => unit_sm_sync::synth(&opts),
                            units::Unit::Membar => synth::synth(&opts),
                        }
                        .map(|_| ())
                    }
                    _ => Err(common::CmdError::input(format!(
                        "--target {}: one target per run (a list goes with --all-configs)",
                        target
                            .iter()
                            .map(|t| t.name())
                            .collect::<Vec<_>>()
                            .join(",")
                    ))),
                },
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

//! `membar`: the membar-rtl command line.
//!
//! Exit codes: 0 success; 1 a check failed (scoreboard violation, cosimulation
//! mismatch, regression); 2 bad input (config, workload, flag) or a missing tool.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use cli_kit::{common, output, synth};
use std::path::PathBuf;
use std::process::ExitCode;

mod calibrate;
mod calibrate_kernels;
mod calibrate_own;
mod calibrate_sm;
mod calibrate_units;
mod flags;
mod formal_cmd;
mod kernel_bench;
mod litmus_cmd;
mod on_target;
mod ptx_cmd;
mod registry;
mod release_cmd;
mod run_cmd;
mod shard;
mod sweep;
mod synth_all;

/// membar-rtl: the SM synchronisation units (membar, bar, cluster, mbarrier,
/// async_groups, and sm_sync, the four behind one port) — reference models,
/// RTL, Verilog, cosimulation, formal proofs, FPGA synthesis, PTX litmus tests.
#[derive(Parser, Debug)]
#[command(name = "membar", version, about = ABOUT, long_about = None)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

const ABOUT: &str = "membar-rtl: the SM synchronisation units (membar, bar, cluster, mbarrier, async_groups, sm_sync) — reference models, RTL, cosimulation, formal proofs, FPGA synthesis, PTX litmus tests.\n\nExit codes: 0 success; 1 a check failed (the message ends with a replay command); 2 bad input or a missing tool. When both happen (e.g. `litmus` with a refused file and a failed verdict), 2 wins over 1, and 1 over 0.";

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Execute a PTX program on the unit models with the weak memory model.
    ///
    /// Runs cycle by cycle on the unit reference models with the weak memory
    /// model (docs/memory_model.md): final registers,
    /// stall cycles per warp by cause, total cycles. Exit 1 on a deadlock or
    /// the cycle cap, 2 on a bad file or a unit protocol error.
    Run {
        /// A program file (YAML header + PTX), e.g. examples/membar_flag.ptx;
        /// with --launch, a PTX module as nvcc writes it.
        program: PathBuf,
        /// A launch file (grid, block, buffers, parameters, expected outputs)
        /// running PROGRAM's entry on every thread of the grid; exit 1 when an
        /// expected output differs (docs/kernels.md).
        #[arg(long)]
        launch: Option<PathBuf>,
        /// Seed of the random memory timing.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Cycle cap, 1..=10^12 (with --trace: 1..=10^6).
        #[arg(long, default_value_t = 1_000_000, value_parser = common::parse_cycles)]
        cycles: u64,
        /// Write the per-warp timeline: FILE.vcd (GTKWave) or FILE.json (Chrome trace).
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Where each SM's sm_sync top runs: the reference model, or also its
        /// rust-hdl simulation or its Verilated Verilog, checked in lockstep
        /// against the model (exit 1 at the first differing port).
        #[arg(long, value_enum, default_value_t = on_target::On::Model)]
        on: on_target::On,
        /// An SM timing preset: issue model, register dependencies, deferred
        /// blocking, barrier release sequencer and fixed memory latencies of
        /// that GPU (docs/timing.md); without it, functional timing with
        /// random memory latencies (--seed).
        #[arg(long, value_enum)]
        preset: Option<run_cmd::SmPreset>,
    },
    /// Run litmus tests many times with random timing: outcomes and verdicts.
    ///
    /// Runs litmus tests (default: every litmus/*.ptx) many times with random
    /// timing; prints observed outcomes and verdicts (docs/litmus.md). Exit 1
    /// when a verdict fails, with the command that replays the test; a
    /// refused file (bad header, unreadable) does not stop the others: they
    /// run and are reported, then the exit code is 2 (2 over 1 over 0).
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
        /// Where each SM's sm_sync top runs: the reference model, or also its
        /// rust-hdl simulation or its Verilated Verilog in lockstep with the
        /// model (a difference fails the run).
        #[arg(long, value_enum, default_value_t = on_target::On::Model)]
        on: on_target::On,
    },
    /// PTX front end: a program's sm_90 lowering, or the lowering table.
    ///
    /// `--lower FILE` prints each instruction with its sm_90 lowering;
    /// `--table` prints the lowering table with sources. Exit 2 on a bad file.
    Ptx {
        /// A program file (YAML header + PTX), e.g. examples/membar_flag.ptx.
        #[arg(long, conflicts_with = "table")]
        lower: Option<PathBuf>,
        /// Print the whole lowering table (Markdown).
        #[arg(long)]
        table: bool,
    },
    /// Formal proofs of a unit's contract properties on its Verilog (SymbiYosys).
    ///
    /// One task per property group, on the emitted Verilog of the unit
    /// (SPEC.md; spec/*.md for the other units). Exit 1 on a counterexample
    /// or an unfinished proof, 2 on bad input (a --verilog whose ports are not
    /// the --config's included) or a missing tool.
    Formal {
        /// The unit whose contract is checked.
        #[arg(long, default_value = "membar", value_parser = registry::parser(registry::any_unit))]
        unit: registry::Unit,
        /// YAML configuration of the unit (membar: configs/default.yaml; bar:
        /// configs/bar_unit/; cluster: configs/cluster_barrier/; sm_sync:
        /// configs/sm_sync_small.yaml; or verilog_out/<unit>/<config>/config.yaml).
        #[arg(long, required_unless_present = "all_configs")]
        config: Option<PathBuf>,
        /// The Verilog to check (default: generated from the config); its
        /// module's ports must be those of --config (else exit 2).
        #[arg(long)]
        verilog: Option<PathBuf>,
        /// The long formal run (docs/formal.md, formal/run-all.sh): every
        /// unit of the registry on every checked-in configuration of
        /// verilog_out/ (reduced-range ones too): abc pdr on the groups it
        /// closes, the others with the unit's engine (membar: bmc to
        /// --depth; the other units: k-induction depth 2), then bmc to
        /// --unit-depth on `all`. Exit 1 if any group is not proven or bounded.
        #[arg(long, conflicts_with_all = ["config", "verilog", "props", "engine", "keep"])]
        all_configs: bool,
        /// With --all-configs: print the runs without starting them.
        #[arg(long)]
        plan: bool,
        /// With --all-configs: the bmc depth of every unit but membar (on
        /// `all`), 1 or more [default: 6].
        #[arg(long)]
        unit_depth: Option<u32>,
        /// BMC / k-induction depth (cycles).
        #[arg(long, default_value_t = 20)]
        depth: u32,
        /// pdr (abc pdr, unbounded proof), kind (smtbmc k-induction), bmc (abc bmc3).
        #[arg(long, default_value = "pdr")]
        engine: String,
        /// Property groups, comma-separated (default: every group; with pdr,
        /// the groups pdr does not close are left out and named in a note:
        /// membar p5; bar b1, b6c, inv, invb; mbarrier m1, m6, m2, inv).
        /// membar: rst, p2, p3s, p3c, p7, cnt, p4, p5, p1; bar: rst, b1, b2,
        /// b4, b6, b6c, inv, invb; cluster: rst, c1, c2, c3; mbarrier: rst, m7,
        /// m1, m6, m2, m8, inv; async_groups: rst, g1, g2, g3, g4; sm_sync:
        /// rst, s2, s3, s4, s5, s6, s1m, s1b, s1d; every unit but membar also
        /// takes all (every group in one task).
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
    /// Write a unit's Verilog for a configuration: `DIR/<module>.v`.
    ///
    /// The module per unit: membar `DIR/membar_unit.v`, bar `DIR/bar_unit.v`,
    /// cluster `DIR/cluster_barrier.v`, mbarrier `DIR/mbarrier_unit.v`,
    /// async_groups `DIR/async_groups.v`, sm_sync `DIR/sm_sync.v` (the
    /// contract's ports, ANSI list).
    Generate {
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// Output directory (created if absent); an existing `<module>.v`
        /// there is replaced only if membar generated it.
        #[arg(long)]
        out: PathBuf,
        /// Which unit: membar (the memory-barrier unit, default), bar (the named-barrier unit, spec/bar_unit.md), cluster (the cluster barrier, spec/cluster_barrier.md), mbarrier (the transaction-barrier unit, spec/mbarrier_unit.md), async_groups (the bulk async-group tracker, spec/async_groups.md) or sm_sync (the four units behind one instruction port, spec/sm_sync.md).
        #[arg(long, default_value = "membar", value_parser = registry::parser(registry::any_unit))]
        unit: registry::Unit,
    },
    /// Write the released IP set of every unit (verilog_out/, its MANIFEST).
    ///
    /// Every shipped configuration's Verilog and config.yaml, the FuseSoC
    /// cores and the waiver files of every unit, or of one, into a release
    /// folder with its MANIFEST; `--check` compares instead (exit 1 on a
    /// missing, stale or leftover file). Never replaces a file it did not
    /// write or one edited since (exit 2).
    Release {
        /// Only this unit's files (default: every unit's).
        #[arg(long, value_parser = registry::parser(registry::any_unit))]
        unit: Option<registry::Unit>,
        /// The release folder (created if absent).
        #[arg(long, default_value = "verilog_out")]
        out: PathBuf,
        /// Compare the folder with the release instead of writing it.
        #[arg(long)]
        check: bool,
    },
    /// Cosimulate a unit's Verilog (Verilator) against its reference model.
    ///
    /// In lockstep; every output port compared every cycle (exit 1 on a
    /// mismatch, with the replay command).
    Cosim {
        /// YAML configuration (see configs/default.yaml).
        #[arg(long)]
        config: PathBuf,
        /// The Verilog to run (default: generated from the config).
        #[arg(long)]
        verilog: Option<PathBuf>,
        /// Workload YAML file, or the name of a built-in scenario (membar;
        /// mbarrier, async_groups, sm_sync: random or their scenarios; bar and
        /// cluster run their seeded random stimulus and refuse --workload).
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
        #[arg(long, default_value = "membar", value_parser = registry::parser(registry::any_unit))]
        unit: registry::Unit,
    },
    /// Long adversarial cosimulation with resets, scoreboard and coverage.
    ///
    /// Verilator vs model, scoreboard, coverage, resets mid-traffic; exit 1
    /// on any mismatch, violation or loss.
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
        #[arg(long, default_value = "membar", value_parser = registry::parser(registry::soak_unit))]
        unit: registry::Unit,
    },
    /// Simulate a unit's reference model under a workload, with its scoreboard.
    ///
    /// Prints the summary and the scoreboard verdict (membar: P1–P7; exit 1
    /// on a violation).
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
        /// Write a VCD waveform of the ports (membar, mbarrier, async_groups;
        /// bar, cluster and sm_sync refuse it: use `cosim --waves`).
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Print the functional coverage report.
        #[arg(long)]
        coverage: bool,
        /// Which unit: membar (the memory-barrier unit, default), bar (the named-barrier unit, spec/bar_unit.md), cluster (the cluster barrier, spec/cluster_barrier.md), mbarrier (the transaction-barrier unit, spec/mbarrier_unit.md), async_groups (the bulk async-group tracker, spec/async_groups.md) or sm_sync (the four units behind one instruction port, spec/sm_sync.md).
        #[arg(long, default_value = "membar", value_parser = registry::parser(registry::any_unit))]
        unit: registry::Unit,
    },
    /// Measure simulated cycles per second of the model, RTL and Verilator.
    ///
    /// The reference model (and, when built, the rust-hdl simulation and the
    /// Verilator cosimulation); with --unit, the unit's golden model, its
    /// Verilated Verilog and the lockstep loop.
    Bench {
        /// YAML configuration (default: the built-in default configuration).
        #[arg(long)]
        config: Option<PathBuf>,
        /// Cycles per measurement, 1..=20000000 (the input trace is recorded in memory).
        #[arg(long, default_value_t = 2_000_000, value_parser = membar_unit_entry::membar_sim::parse_bench_cycles)]
        cycles: u64,
        /// Workload YAML file, or the name of a built-in scenario.
        #[arg(long, default_value = "random_mix")]
        workload: String,
        /// Random seed (workload, memory model).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Which unit: membar (default), bar, cluster, mbarrier or async_groups (their golden model, Verilator and the lockstep loop; --config required).
        #[arg(long, default_value = "membar", value_parser = registry::parser(registry::soak_unit))]
        unit: registry::Unit,
        /// Kernels instead of a unit: launch files (X.launch.yaml, the module X.ptx beside it) or
        /// `all` (every kernels/**/*.launch.yaml); prints warp-instructions/s and cycles/s per
        /// kernel (--cycles: the cycle cap of each run; --seed honoured).
        #[arg(long, num_args = 1.., value_name = "LAUNCH|all", conflicts_with_all = ["config", "workload", "unit"])]
        kernel: Vec<PathBuf>,
    },
    /// Sweep a grid of configuration and workload keys: a CSV row per point.
    ///
    /// The cartesian product of the grid file's lists; exit 1 if the
    /// scoreboard flags a point. membar: points in parallel (--jobs), CSV and
    /// the grid's SVG plots; `--shard i/n` runs a slice of the points,
    /// `--merge DIR...` joins the shards' CSVs. --unit bar|cluster|mbarrier|
    /// async_groups: points one after another, the CSV only (no plots; plot
    /// the CSV yourself), and a warning names any axis whose values all gave
    /// identical metrics; --jobs, --cycles, --no-check, --shard and --merge
    /// are membar's and refused with --unit.
    Sweep {
        /// Grid YAML file (see grids/default_sweep.yaml).
        #[arg(long)]
        grid: PathBuf,
        /// Output directory for <grid>.csv and (membar) <grid>_*.svg (or a shard's CSV).
        #[arg(long, default_value = "sweep_out")]
        out: PathBuf,
        /// Parallel jobs, 1..=256 (default: all cores; membar only).
        #[arg(long, value_parser = common::parse_jobs)]
        jobs: Option<usize>,
        /// Stimulus cycles per point, 1..=10^12 (overrides the grid's `cycles`; membar only).
        #[arg(long, value_parser = common::parse_cycles)]
        cycles: Option<u64>,
        /// Leave the P1–P7 scoreboard out (faster; default: check every point; membar only).
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
        /// Which unit: membar (default), bar, cluster, mbarrier or async_groups (a grid of the unit's config and scenario keys, run on its golden model with its scoreboard; see cli/kit/src/sweep.rs and each unit's entry crate).
        #[arg(long, default_value = "membar", value_parser = registry::parser(registry::soak_unit))]
        unit: registry::Unit,
    },
    /// Model vs measured latencies (H100/H200), cell by cell with the error.
    ///
    /// The membar unit's fence latencies for the calibrated presets; with
    /// --unit bar|mbarrier, that unit's H100 table (--preset, --data, --fit,
    /// --seed and --jobs are the membar calibration's and refused with --unit).
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
        /// A sync unit's H100 table instead of the membar unit's: bar (tables 1.1, 1.2, 1.4, 3.1) or mbarrier (2.1, 2.2, 2.3, 4.1); membar is the default table.
        #[arg(long, value_parser = registry::parser(registry::calibrate_unit))]
        unit: Option<registry::Unit>,
        /// With --unit bar|mbarrier, --kernels, --own-kernels or --sm: also write the table as markdown to FILE (e.g. docs/results/calibration_bar.md).
        #[arg(long)]
        markdown: Option<PathBuf>,
        /// The reference kernels (kernels/reference/, both builds) under the H100 SM timing preset vs their H100 measurements, per warp and per synchronisation site (docs/results/calibration_kernels.md); run from the project's root.
        #[arg(long, conflicts_with_all = ["unit", "preset", "data", "fit", "seed", "jobs", "sm"])]
        kernels: bool,
        /// The H100 sync bench's released sections (1.3, 2.4, 4.2) rebuilt as probe programs on the executor under the H100 SM timing preset, vs the measurements (docs/results/calibration_sm.md).
        #[arg(long, conflicts_with_all = ["unit", "preset", "data", "fit", "seed", "jobs"])]
        sm: bool,
        /// The project's own kernels (kernels/own/timing/: kernels/own/ with a clock read at entry and at ret) under the H200 SM timing preset vs the same PTX timed on the device's H200, per warp (docs/results/calibration_own_kernels.md); run from the project's root.
        #[arg(long, conflicts_with_all = ["unit", "preset", "data", "fit", "seed", "jobs", "sm", "kernels"])]
        own_kernels: bool,
    },
    /// FPGA area and fmax of a unit's Verilog (yosys, nextpnr).
    ///
    /// yosys synth_ice40 and nextpnr-ice40 on an iCE40 HX8K (default),
    /// synth_ecp5 + nextpnr-ecp5, or yosys' generic LUT4 synthesis; prints
    /// LUTs, flip-flops, carries, logic cells and fmax (reported, not
    /// checked). See docs/fpga.md.
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
        /// Append a row to this CSV file (header written when the file is new; membar only: the columns are its parameters).
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
        #[arg(long, value_parser = registry::parser(registry::any_unit))]
        unit: Option<registry::Unit>,
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
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    // A flag the chosen unit's command does not honour is refused, never
    // silently ignored (the table is in flags.rs).
    if let Some((name, sub)) = matches.subcommand() {
        if let Err(e) = flags::check(&Cli::command(), name, sub) {
            eprintln!("membar: {}", e.message);
            return ExitCode::from(e.code);
        }
    }
    let r = match cli.cmd {
        Cmd::Ptx { lower, table } => ptx_cmd::run(lower.as_deref(), table),
        Cmd::Run {
            program,
            launch: Some(launch),
            seed,
            cycles,
            trace,
            on,
            preset,
        } => run_cmd::run_kernel(&program, &launch, seed, cycles, trace.as_deref(), on, preset),
        Cmd::Run {
            program,
            launch: None,
            seed,
            cycles,
            trace,
            on,
            preset,
        } => run_cmd::run(&program, seed, cycles, trace.as_deref(), on, preset),
        Cmd::Litmus {
            files,
            runs,
            seed,
            markdown,
            on,
        } => litmus_cmd::run(&files, runs, seed, markdown.as_deref(), on),
        Cmd::Formal {
            all_configs: true,
            plan,
            depth,
            unit_depth,
            timeout,
            jobs,
            ..
        } => formal_cmd::all_configs(&formal_cmd::AllConfigs {
            plan,
            depth,
            unit_depth: unit_depth.unwrap_or(6),
            timeout,
            jobs,
        }),
        Cmd::Formal {
            plan: true, ..
        } => Err(common::CmdError::input(
            "--plan is a flag of `formal --all-configs` (prints its runs); add --all-configs or leave --plan out",
        )),
        Cmd::Formal {
            unit_depth: Some(_),
            ..
        } => Err(common::CmdError::input(
            "--unit-depth is a flag of `formal --all-configs`; for one run use --depth",
        )),
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
            ..
        } => formal_cmd::formal(&formal_cmd::FormalArgs {
            unit,
            // clap requires --config without --all-configs.
            config: config.unwrap_or_default(),
            verilog,
            depth,
            engine,
            props,
            keep,
            timeout,
            jobs,
        }),
        Cmd::Generate { unit, config, out } => (registry::entry(unit).generate)(&config, &out),
        Cmd::Release { unit, out, check } => release_cmd::release(unit, &out, check),
        Cmd::Cosim {
            unit,
            config,
            verilog,
            workload,
            cycles,
            seed,
            waves,
        } => (registry::entry(unit).cosim)(&registry::CosimArgs {
            config: &config,
            verilog: verilog.as_deref(),
            workload: &workload,
            cycles,
            seed,
            waves: waves.as_deref(),
        }),
        Cmd::Soak {
            config,
            verilog,
            cycles,
            seed,
            chunk,
            unit,
        } => {
            if chunk < membar_unit_entry::membar::MIN_SOAK_CHUNK {
                Err(common::CmdError::input(format!(
                    "--chunk {chunk}: allowed: {} or more cycles (each chunk starts with a power-on reset, and mid-traffic resets need room)",
                    membar_unit_entry::membar::MIN_SOAK_CHUNK
                )))
            } else if unit != registry::Unit::MEMBAR {
                registry::soak(
                    unit,
                    config.as_deref(),
                    verilog.as_deref(),
                    cycles,
                    seed,
                    chunk,
                )
            } else {
                membar_unit_entry::membar::soak(&membar_unit_entry::membar::SoakArgs {
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
        } => (registry::entry(unit).sim)(&registry::SimArgs {
            config: &config,
            workload: &workload,
            cycles,
            seed,
            trace: trace.as_deref(),
            coverage,
        }),
        Cmd::Bench {
            kernel, cycles, seed, ..
        } if !kernel.is_empty() => kernel_bench::run(&kernel, seed, cycles),
        Cmd::Bench {
            config,
            cycles,
            workload,
            seed,
            unit,
            ..
        } => match unit {
            registry::Unit::MEMBAR => membar_unit_entry::membar_sim::bench(config.as_deref(), &workload, cycles, seed),
            // --workload: refused for the units by flags.rs.
            u => registry::bench(u, config.as_deref(), cycles, seed),
        },
        // --jobs, --cycles, --no-check, --shard, --merge: refused for the
        // units by flags.rs.
        Cmd::Sweep {
            grid, out, unit, ..
        } if unit != registry::Unit::MEMBAR => registry::sweep(unit, &grid, &out),
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
        // --markdown with membar, and the membar calibration's flags with a
        // unit: refused by flags.rs.
        Cmd::Calibrate {
            sm: true,
            markdown,
            tolerance,
            strict,
            ..
        } => calibrate_sm::calibrate(markdown.as_deref(), tolerance, strict),
        Cmd::Calibrate {
            kernels: true,
            markdown,
            tolerance,
            strict,
            ..
        } => calibrate_kernels::calibrate(markdown.as_deref(), tolerance, strict),
        Cmd::Calibrate {
            own_kernels: true,
            markdown,
            tolerance,
            strict,
            ..
        } => calibrate_own::calibrate(markdown.as_deref(), tolerance, strict),
        Cmd::Calibrate {
            unit: Some(unit),
            markdown,
            tolerance,
            strict,
            ..
        } if unit != registry::Unit::MEMBAR => {
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
                        None => registry::units(),
                    };
                    synth_all::run(&opts, &targets, &units, &md)
                }
                _ => match target.as_slice() {
                    [] | [_] => {
                        opts.target = target.first().copied().unwrap_or(synth::Target::Ice40);
                        (registry::entry(unit.unwrap_or(registry::Unit::MEMBAR)).synth)(&opts)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry of the flags table names an argument of its command.
    #[test]
    fn flags_table_names_real_arguments() {
        let cmd = Cli::command();
        for n in flags::NOT_HONOURED {
            let sub = cmd
                .find_subcommand(n.cmd)
                .unwrap_or_else(|| panic!("no subcommand {}", n.cmd));
            assert!(
                sub.get_arguments().any(|a| a.get_id() == n.id),
                "{} has no argument {}",
                n.cmd,
                n.id
            );
            assert!(sub.get_arguments().any(|a| a.get_id() == "unit"));
        }
        cmd.debug_assert();
    }
}

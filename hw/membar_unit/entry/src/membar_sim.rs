//! `membar sim` and `membar bench`.

use cli_kit::common::{
    config_label, config_name, load_config, load_config_or_default, load_workload, CmdError,
    CmdResult,
};
use cli_kit::output::{self, RunInputs};
use membar_unit_env::coverage::{Coverage, CoveredModel};
use membar_unit_env::ports::MembarUnitPorts;
use membar_unit_env::run::{Observer, RunOptions};
use membar_unit_env::session::run_session;
use membar_unit_env::vcd::VcdWriter;
use std::io::BufWriter;
use std::path::Path;

/// Largest `bench --cycles`: bench records the input trace in memory
/// (about 16 bytes a cycle), so this bounds it to a few hundred MB.
pub const MAX_BENCH_CYCLES: u64 = 20_000_000;

/// `bench --cycles N`: 1..=MAX_BENCH_CYCLES.
pub fn parse_bench_cycles(s: &str) -> Result<u64, String> {
    let n: u64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a whole number; allowed: 1..={MAX_BENCH_CYCLES}"))?;
    if !(1..=MAX_BENCH_CYCLES).contains(&n) {
        return Err(format!(
            "{n} is out of range; allowed: 1..={MAX_BENCH_CYCLES} (bench records its input trace in memory; the figures are stable long before)"
        ));
    }
    Ok(n)
}

pub fn sim(
    config: &Path,
    workload: &str,
    cycles: Option<u64>,
    seed: u64,
    trace: Option<&Path>,
    coverage: bool,
) -> CmdResult {
    let cfg = load_config(config)?;
    let wf = load_workload(workload, &cfg)?;
    let cycles = cycles.or(wf.cycles).unwrap_or(100_000);
    let opts = RunOptions {
        cycles,
        seed,
        ..RunOptions::default()
    };
    let mut dut = CoveredModel::new(&cfg);
    let mut inputs = RunInputs::new().with("--config", config);
    if Path::new(workload).is_file() {
        inputs.add("--workload", Path::new(workload));
    }
    // The trace is written beside its target and renamed over it at the end.
    let mut vcd_tmp = None;
    let mut vcd = match trace {
        Some(p) => {
            let t =
                output::Pending::begin("--trace", p, &inputs, output::Mark::Wave, "a VCD trace")?;
            let f = t.reopen()?;
            vcd_tmp = Some(t);
            Some(
                VcdWriter::new(BufWriter::new(f), &cfg)
                    .map_err(|e| CmdError::input(format!("--trace {}: {e}", p.display())))?,
            )
        }
        None => None,
    };
    let rep = {
        let mut extra: Vec<&mut dyn Observer<MembarUnitPorts>> = Vec::new();
        if let Some(v) = vcd.as_mut() {
            extra.push(v);
        }
        run_session(&cfg, &mut dut, &wf, &opts, &mut extra)
    };
    if let Some(v) = vcd {
        v.finish()
            .map_err(|e| CmdError::input(format!("--trace: {e}")))?;
    }
    if let Some(t) = vcd_tmp {
        t.finish()?;
    }
    println!(
        "membar sim: config {} ({}), workload {workload}, seed {seed}",
        config.display(),
        config_name(&cfg)
    );
    print!("{}", rep.stats.summary());
    println!("simulated              {} cycles in {:.2} s ({:.2} M cycles/s with workload, memory model and scoreboard)", rep.outcome.cycles, rep.secs, rep.outcome.cycles as f64 / rep.secs.max(1e-9) / 1e6);
    if Coverage::applies(&cfg) {
        if coverage {
            // The report starts with the bins-hit summary line.
            print!("{}", dut.coverage.report());
        } else {
            let missed = dut.coverage.missed();
            let bins = dut.coverage.bins().len();
            println!(
                "functional coverage    {}/{bins} bins hit (--coverage for the report)",
                bins - missed.len()
            );
        }
    }
    println!("scoreboard             {}", rep.verdict());
    if rep.passed() {
        Ok(())
    } else {
        Err(CmdError::failed(format!("scoreboard violation (replay: membar sim --config {} --workload {workload} --cycles {cycles} --seed {seed})", config.display())))
    }
}

pub fn bench(config: Option<&Path>, workload: &str, cycles: u64, seed: u64) -> CmdResult {
    let cfg = load_config_or_default(config)?;
    let wf = load_workload(workload, &cfg)?;
    // One recorded input trace (workload + memory model reacting to the
    // reference model) drives every back end: identical stimulus, and since
    // the back ends are cycle-equivalent, identical behaviour.
    let trace = membar_unit_env::session::record_inputs(&cfg, &wf, cycles, seed);
    println!(
        "membar bench: config {} ({}), workload {workload}, {cycles} cycles, seed {seed}",
        config_label(config),
        config_name(&cfg)
    );
    let time = |dut: &mut dyn membar_unit_env::Dut<membar_unit_env::ports::MembarUnitPorts>,
                n: usize| {
        let t0 = std::time::Instant::now();
        let mut sink = 0u64;
        for i in &trace[..n] {
            sink = sink.wrapping_add(dut.step(i).release_mask);
        }
        (n as f64 / t0.elapsed().as_secs_f64().max(1e-9), sink)
    };
    let (model, model_sum) = time(&mut *membar_unit_env::model_for(&cfg), trace.len());
    println!(
        "{:<34} {:>9.3} M cycles/s   (step only)",
        "reference model",
        model / 1e6
    );
    let opts = RunOptions {
        cycles,
        seed,
        ..RunOptions::default()
    };
    let rep = run_session(
        &cfg,
        &mut *membar_unit_env::model_for(&cfg),
        &wf,
        &opts,
        &mut [],
    );
    let session = rep.outcome.cycles as f64 / rep.secs.max(1e-9);
    println!(
        "{:<34} {:>9.3} M cycles/s   ({:.2}x the model alone)",
        "model + workload + MMU + scoreboard",
        session / 1e6,
        session / model
    );
    // rust-hdl is slow: a slice of the trace is enough for a stable figure.
    let n_hdl = trace.len().min(200_000);
    match membar_unit_rtl::hdl_dut(&cfg) {
        Ok(mut hdl) => {
            let (r, sum) = time(hdl.as_mut(), n_hdl);
            let (_, ref_sum) = time(&mut *membar_unit_env::model_for(&cfg), n_hdl);
            let same = if sum == ref_sum {
                "outputs agree"
            } else {
                "OUTPUTS DIFFER"
            };
            println!(
                "{:<34} {:>9.3} M cycles/s   (1/{:.0} of the model; {n_hdl} cycles, {same})",
                "rust-hdl simulation",
                r / 1e6,
                model / r
            );
        }
        Err(e) => println!("{:<34} not available: {e}", "rust-hdl simulation"),
    }
    let verilator = crate::membar::verilog_for(
        &cfg,
        Path::new(&cli_kit::common::config_label(config)),
        None,
    )
    .and_then(|v| {
        <membar_testbench::VerilatorDut>::build(
            &v,
            &cfg,
            &membar_testbench::BuildOptions::default(),
        )
        .map_err(|e| CmdError::input(e.to_string()))
    });
    match verilator {
        Ok(mut v) => {
            let (r, sum) = time(&mut v, trace.len());
            let same = if sum == model_sum {
                "outputs agree"
            } else {
                "OUTPUTS DIFFER"
            };
            println!(
                "{:<34} {:>9.3} M cycles/s   (1/{:.1} of the model; {same})",
                "Verilator (FFI step)",
                r / 1e6,
                model / r
            );
        }
        Err(e) => println!("{:<34} not available: {}", "Verilator", e.message),
    }
    Ok(())
}

//! `membar sim` and `membar bench`.

use crate::common::{create_output, is_vcd, load_config, load_workload, CmdError, CmdResult};
use membar_sim::run::{Observer, RunOptions};
use membar_sim::session::run_session;
use membar_sim::vcd::VcdWriter;
use membar_sim::coverage::{Coverage, CoveredModel};
use membar_sim::MembarModel;
use std::io::BufWriter;
use std::path::Path;

pub fn sim(config: &Path, workload: &str, cycles: Option<u64>, seed: u64, trace: Option<&Path>, coverage: bool) -> CmdResult {
    let cfg = load_config(config)?;
    let wf = load_workload(workload, &cfg)?;
    let cycles = cycles.or(wf.cycles).unwrap_or(100_000);
    let opts = RunOptions { cycles, seed, ..RunOptions::default() };
    let mut dut = CoveredModel::new(&cfg);
    let mut vcd = match trace {
        Some(p) => {
            let f = create_output("--trace", p, is_vcd)?;
            Some(VcdWriter::new(BufWriter::new(f), &cfg).map_err(|e| CmdError::input(format!("--trace {}: {e}", p.display())))?)
        }
        None => None,
    };
    let rep = {
        let mut extra: Vec<&mut dyn Observer> = Vec::new();
        if let Some(v) = vcd.as_mut() {
            extra.push(v);
        }
        run_session(&cfg, &mut dut, &wf, &opts, &mut extra)
    };
    if let Some(v) = vcd {
        v.finish().map_err(|e| CmdError::input(format!("--trace: {e}")))?;
    }
    println!("membar sim: config {} ({}), workload {workload}, seed {seed}", config.display(), cfg.short_name());
    print!("{}", rep.stats.summary());
    println!("simulated              {} cycles in {:.2} s ({:.2} M cycles/s with workload, memory model and scoreboard)", rep.outcome.cycles, rep.secs, rep.outcome.cycles as f64 / rep.secs.max(1e-9) / 1e6);
    if Coverage::applies(&cfg) {
        let missed = dut.coverage.missed();
        let bins = dut.coverage.bins().len();
        println!("functional coverage    {}/{bins} bins hit{}", bins - missed.len(), if coverage { "" } else { " (--coverage for the report)" });
        if coverage {
            print!("{}", dut.coverage.report());
        }
    }
    println!("scoreboard             {}", rep.verdict());
    if rep.passed() {
        Ok(())
    } else {
        Err(CmdError::failed(format!("scoreboard violation (replay: membar sim --config {} --workload {workload} --cycles {cycles} --seed {seed})", config.display())))
    }
}

pub fn bench(config: &Path, workload: &str, cycles: u64, seed: u64) -> CmdResult {
    let cfg = load_config(config)?;
    let wf = load_workload(workload, &cfg)?;
    // Reference model alone on a recorded input trace (what the RTL is compared
    // against), then the whole session (workload + memory model + scoreboard).
    let trace = membar_sim::run::record_inputs(&cfg, &wf, cycles, seed);
    let mut m = MembarModel::new(&cfg);
    let t0 = std::time::Instant::now();
    let mut sink = 0u64;
    for i in &trace {
        sink = sink.wrapping_add(membar_sim::Dut::step(&mut m, i).release_mask);
    }
    let model_secs = t0.elapsed().as_secs_f64();
    let opts = RunOptions { cycles, seed, ..RunOptions::default() };
    let rep = run_session(&cfg, &mut MembarModel::new(&cfg), &wf, &opts, &mut []);
    println!("membar bench: config {} ({}), workload {workload}, {cycles} cycles, seed {seed}", config.display(), cfg.short_name());
    println!("reference model            {:>8.2} M cycles/s   (step only, recorded inputs; checksum {sink:x})", cycles as f64 / model_secs / 1e6);
    println!("model + workload + MMU + scoreboard + stats {:>6.2} M cycles/s", rep.outcome.cycles as f64 / rep.secs / 1e6);
    Ok(())
}

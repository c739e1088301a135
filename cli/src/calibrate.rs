//! `membar calibrate`: model vs measured fence latencies for the calibrated
//! presets (`configs/h100.yaml`, `configs/h200.yaml`), cell by cell, with the
//! error of each; `--fit` re-derives the per-level parameters first.
//! The engine and the report are `membar_explore::{calibration, calibration_report}`.

use crate::common::{CmdError, CmdResult};
use membar_explore::calibration::{evaluate_with, fit, load_cells, summarize, Preset};
use membar_explore::calibration_report::{combining_table, describe, run_all, table};
use std::path::PathBuf;

/// Where the measurement CSVs are looked for when `--data` is not given:
/// the repository's `data/calibration/`, built into the binary.
pub const DEFAULT_DATA_DIRS: &[&str] = &[membar_explore::calibration::BUILTIN_DATA];

/// The presets evaluated when none is named.
pub const DEFAULT_PRESETS: &[&str] = &["configs/h100.yaml", "configs/h200.yaml"];

pub struct Options {
    pub presets: Vec<PathBuf>,
    pub data: Option<PathBuf>,
    pub fit: bool,
    pub tolerance_pct: f64,
    pub strict: bool,
    pub seed: u64,
    pub jobs: Option<usize>,
}

/// `--tolerance P`: a percentage, 0..=1000 (not NaN, not negative).
pub fn parse_tolerance(s: &str) -> Result<f64, String> {
    let t: f64 = s
        .trim()
        .parse()
        .map_err(|_| format!("{s:?} is not a number; allowed: a percentage 0..=1000"))?;
    if !(t.is_finite() && (0.0..=1000.0).contains(&t)) {
        return Err(format!("{s}: allowed: a percentage 0..=1000"));
    }
    Ok(t)
}

fn data_dir(opt: &Option<PathBuf>) -> Result<PathBuf, CmdError> {
    if let Some(d) = opt {
        if !d.is_dir() {
            return Err(CmdError::input(format!(
                "--data {}: not a directory (expected the measurement CSVs, e.g. h100_fence.csv)",
                d.display()
            )));
        }
        return Ok(d.clone());
    }
    if let Ok(env) = std::env::var("MEMBAR_CALIBRATION_DATA") {
        let p = PathBuf::from(env);
        if p.is_dir() {
            return Ok(p);
        }
    }
    Ok(PathBuf::from(DEFAULT_DATA_DIRS[0]))
}

pub fn calibrate(opt: &Options) -> CmdResult {
    let dir = data_dir(&opt.data)?;
    let presets: Vec<PathBuf> = if opt.presets.is_empty() {
        DEFAULT_PRESETS.iter().map(PathBuf::from).collect()
    } else {
        opt.presets.clone()
    };
    if let Some(j) = opt.jobs {
        // Ignore the error when a global pool already exists (tests calling twice).
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(j.max(1))
            .build_global();
    }
    let tol = opt.tolerance_pct / 100.0;
    let mut misses = Vec::new();
    for path in &presets {
        let mut p = Preset::load(path)?;
        let gpu = p.name.clone();
        if !membar_explore::calibration::GPUS.contains(&gpu.as_str()) {
            return Err(CmdError::input(format!(
                "{}: `name` = {gpu:?}: allowed: {} (it selects the measurement files <name>_fence.csv, ...)",
                path.display(),
                membar_explore::calibration::GPUS.join(", ")
            )));
        }
        let cells = load_cells(&dir, &gpu)?;
        if opt.fit {
            let (q, log) = fit(&p, &cells, opt.seed).map_err(CmdError::failed)?;
            println!("## fit of {} ({})\n", gpu, path.display());
            for l in log {
                println!("- {l}");
            }
            println!(
                "\nfitted preset (save as {} to use it):\n\n```yaml\n{}```",
                path.display(),
                q.to_yaml()
            );
            p = q;
        }
        let results = run_all(&p, &cells, opt.seed).map_err(CmdError::failed)?;
        let res = evaluate_with(&cells, &results);
        let sum = summarize(&cells, &res, tol);
        let sim_cycles: u64 = results.values().map(|r| r.cycles).sum();
        let checks: u64 = results.values().map(|r| r.checks).sum();
        println!(
            "## {} — model vs measured ({}, data {})\n",
            gpu.to_uppercase(),
            path.display(),
            dir.display()
        );
        println!("{}", describe(&p));
        print!("{}", table(&cells, &res, tol));
        print!("{}", combining_table(&cells, &results));
        println!(
            "\n{}: {sum} [{} scenarios, {sim_cycles} cycles simulated, {checks} scoreboard checks, no violation]\n",
            gpu.to_uppercase(),
            results.len(),
        );

        for (c, r) in cells.iter().zip(&res) {
            if c.goal && !r.within(tol) {
                misses.push(format!(
                    "{gpu} {} / {}: measured {:.0}, model {:.0} ({:+.1} %)",
                    c.group,
                    c.label,
                    c.measured,
                    r.model,
                    r.error * 100.0
                ));
            }
        }
    }
    if opt.strict && !misses.is_empty() {
        return Err(CmdError::failed(format!(
            "{} goal cells outside ±{} %:\n  {}",
            misses.len(),
            opt.tolerance_pct,
            misses.join("\n  ")
        )));
    }
    Ok(())
}

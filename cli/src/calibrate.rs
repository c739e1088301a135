//! `membar calibrate`: model vs measured fence latencies for the calibrated
//! presets (`configs/h100.yaml`, `configs/h200.yaml`), cell by cell, with the
//! error of each; `--fit` re-derives the per-level parameters first.
//! The engine is `membar_explore::calibration`.

use crate::common::{CmdError, CmdResult};
use membar_explore::calibration::{
    distinct_scenarios, evaluate_with, fit, load_cells, lone_target, run_scenario, spacing_target,
    summarize, Cell, CellResult, Preset, Scenario, ScenarioResult,
};
use membar_sim::ports::level;
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Write as _;
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

/// Run every distinct scenario of `cells` on `p`, in parallel.
fn run_all(
    p: &Preset,
    cells: &[Cell],
    seed: u64,
) -> Result<HashMap<Scenario, ScenarioResult>, CmdError> {
    let scen = distinct_scenarios(cells);
    let out: Vec<Result<(Scenario, ScenarioResult), String>> = scen
        .into_par_iter()
        .map(|s| run_scenario(p, &s, seed).map(|r| (s, r)))
        .collect();
    let mut m = HashMap::new();
    for r in out {
        let (s, r) = r.map_err(|e| CmdError::failed(format!("preset {}: {e}", p.name)))?;
        m.insert(s, r);
    }
    Ok(m)
}

/// The table, in Markdown: one section per group, one row per cell.
pub fn table(cells: &[Cell], res: &[CellResult], tol: f64) -> String {
    let mut s = String::new();
    let mut group = "";
    for (c, r) in cells.iter().zip(res) {
        if c.group != group {
            group = &c.group;
            let _ = writeln!(s, "\n**{group}**\n");
            let _ = writeln!(s, "| cell | measured | model | error | |");
            let _ = writeln!(s, "| --- | ---: | ---: | ---: | --- |");
        }
        let mark = if !c.goal {
            if r.within(tol) {
                "info"
            } else {
                "info, outside"
            }
        } else if r.within(tol) {
            "ok"
        } else {
            "MISS"
        };
        let _ = writeln!(
            s,
            "| {} | {:.0} | {:.0} | {:+.1} % | {mark} |",
            c.label,
            c.measured,
            r.model,
            r.error * 100.0
        );
    }
    s
}

/// How two fences combine: B's completion minus A's, measured, by the rule
/// `done_B = max(issue_B + lone, done_A + spacing)` (with the measured lone
/// latency and spacing), and by the model (which has no such rule: it
/// follows from the unit's window and outstanding limit).
pub fn combining_table(cells: &[Cell], results: &HashMap<Scenario, ScenarioResult>) -> String {
    let mut s = String::new();
    for lvl in [level::GL, level::SYS] {
        let Some(lone) = lone_target(cells, lvl) else {
            continue;
        };
        let Some((sp, _)) = spacing_target(cells, lvl, lone) else {
            continue;
        };
        let rows: Vec<&Cell> = cells
            .iter()
            .filter(|c| {
                c.group.starts_with("pairs") && c.done_vs_a.is_some() && c.scenario.level() == lvl
            })
            .filter(|c| matches!(&c.scenario, Scenario::Offsets { stores: 0, .. }))
            .collect();
        if rows.is_empty() {
            continue;
        }
        let name = if lvl == level::GL { "GPU" } else { "SYS" };
        let _ = writeln!(
            s,
            "\n**{name} scope: B's completion minus A's (rule: 0 within ±12 cycles, else max(Δ + {lone:.0}, {lone:.0} + {sp:.0}) - {lone:.0})**\n"
        );
        let _ = writeln!(s, "| Δ (B issued after A) | measured | rule | model |");
        let _ = writeln!(s, "| ---: | ---: | ---: | ---: |");
        for c in rows {
            let Scenario::Offsets { offsets, .. } = &c.scenario else {
                continue;
            };
            let d = (offsets[1] - offsets[0]) as f64;
            let rule = if d.abs() <= 12.0 {
                0.0
            } else {
                (d + lone).max(lone + sp) - lone
            };
            let model = results
                .get(&c.scenario)
                .map_or(f64::NAN, |r| r.done_vs_a_median(1) - r.done_vs_a_median(0));
            let _ = writeln!(
                s,
                "| {d:.0} | {:.0} | {rule:.0} | {model:.0} |",
                c.done_vs_a.unwrap_or(f64::NAN)
            );
        }
    }
    s
}

fn describe(p: &Preset) -> String {
    let u = &p.unit;
    let m = &p.mmu;
    let o = p.sm.overhead;
    format!(
        "unit: ways {} slots {} window {} max_outstanding {} gl_bar_ack {}; mmu: GL barrier {} SYS {} store ack {} bar_waits_for_txns {}; sm: overhead CTA {} GL {} SYS {}, store every {} , fence {} after the last store, fences {} apart",
        u.ways,
        u.slots,
        u.coalesce_window,
        u.max_outstanding,
        u.gl_bar_ack,
        m.gl_bar_latency,
        m.sys_bar_latency,
        m.txn_latency,
        m.bar_waits_for_txns,
        o[0],
        o[2],
        o[3],
        p.sm.store_issue,
        p.sm.fence_after_stores,
        p.sm.fence_issue_gap
    )
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
        let results = run_all(&p, &cells, opt.seed)?;
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

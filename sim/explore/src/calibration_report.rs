//! The report of a calibration run (`membar calibrate`): every distinct SM
//! scenario of the measured cells simulated in parallel, the model vs
//! measured table, the fence-combining table and a preset's one-line summary.

use crate::calibration::{
    distinct_scenarios, lone_target, run_scenario, spacing_target, Cell, CellResult, Preset,
    Scenario, ScenarioResult,
};
use membar_unit_env::ports::level;
use rayon::prelude::*;
use std::collections::HashMap;
use std::fmt::Write as _;

/// Run every distinct scenario of `cells` on `p`, in parallel.
pub fn run_all(
    p: &Preset,
    cells: &[Cell],
    seed: u64,
) -> Result<HashMap<Scenario, ScenarioResult>, String> {
    let scen = distinct_scenarios(cells);
    let out: Vec<Result<(Scenario, ScenarioResult), String>> = scen
        .into_par_iter()
        .map(|s| run_scenario(p, &s, seed).map(|r| (s, r)))
        .collect();
    let mut m = HashMap::new();
    for r in out {
        let (s, r) = r.map_err(|e| format!("preset {}: {e}", p.name))?;
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

/// One line: the preset's parameters that the calibration reads.
pub fn describe(p: &Preset) -> String {
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

//! `membar sweep --unit bar|cluster|mbarrier|async_groups --grid G.yaml`: the cartesian product of
//! a grid's configuration keys and workload (scenario) keys, each point run
//! on the unit's golden model under its scenario with its scoreboard (H100
//! timing), one CSV row per point written through `output.rs` to
//! `--out DIR/<grid>.csv`. The grid is strict: an unknown key, a value the
//! unit's configuration or scenario does not allow, or a grid for another
//! unit is exit 2 naming the file, key, value and what is allowed.
//!
//! ```yaml
//! unit: bar                 # optional; must match --unit
//! seed: 1                   # optional
//! config:   { warps: [8, 16], cta_slots: [1, 2] }
//! workload: { scenario: [syncthreads_loop, multi_cta], iterations: [10] }
//! ```
//!
//! bar: config keys `warps`, `cta_slots`; workload keys `scenario` (the
//! built-in `bar_unit` scenarios) and `iterations`; columns: cycles,
//! arrivals, releases, releases per kcycle, errors, mean cycles between a
//! warp's barrier resumes, every program finished.
//! cluster: config key `ranks`; workload keys `warps_per_cta`, `release`
//! (arrive.release + GPU fence instead of .relaxed), `iterations`; columns:
//! cycles, phases, phases per kcycle, mean cycles between a warp's waits
//! returning, early waits.
//! mbarrier / async_groups: config keys of the mbarrier YAML; workload keys
//! `scenario` (tma_pipeline, split_k, bulk_store_groups), `load_latency_l2`,
//! `store_latency` (copy engine), `wake_latency` (front end); columns:
//! cycles, ops, completions, wakes, wakes per kcycle, try_wait timeouts,
//! group releases, warp-cycles blocked in wait_group, errors, finished.

use crate::common::{CmdError, CmdResult};
use crate::output::{self, RunInputs};
use bar_unit_model::config::{BarConfig, ClusterConfig, TimingConfig};
use bar_unit_model::workload::{bar_scenario, cluster_handshake, SmEnv, BAR_SCENARIOS};
use serde_yaml::Value;
use std::collections::BTreeMap;
use std::path::Path;

const TOP_KEYS: &str = "unit, seed, config, workload";

/// One grid axis: section (`config`/`workload`), key, values.
struct Axis {
    section: &'static str,
    key: String,
    values: Vec<Value>,
}

fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => serde_yaml::to_string(other)
            .unwrap_or_default()
            .trim()
            .to_string(),
    }
}

fn grid_err(grid: &Path, key: &str, value: &str, allowed: &str) -> CmdError {
    CmdError::input(format!(
        "{}: key `{key}`: value {value}: allowed: {allowed}",
        grid.display()
    ))
}

/// The unit's config and workload keys.
fn keys(unit: crate::units::Unit) -> (&'static [&'static str], &'static [&'static str]) {
    match unit {
        crate::units::Unit::Bar => (
            bar_unit_model::config::BAR_KEYS,
            &["scenario", "iterations"],
        ),
        crate::units::Unit::Cluster => (&["ranks"], &["warps_per_cta", "release", "iterations"]),
        _ => (
            mbarrier_unit_model::config::KEYS,
            &[
                "scenario",
                "load_latency_l2",
                "store_latency",
                "wake_latency",
            ],
        ),
    }
}

fn parse_grid(
    unit: crate::units::Unit,
    grid: &Path,
    text: &str,
) -> Result<(u64, Vec<Axis>), CmdError> {
    let flag = crate::unit_kit::flag(unit);
    let doc: Value = serde_yaml::from_str(text)
        .map_err(|e| CmdError::input(format!("{}: not a YAML grid: {e}", grid.display())))?;
    let Value::Mapping(top) = doc else {
        return Err(CmdError::input(format!(
            "{}: a grid is a YAML mapping with keys {TOP_KEYS}",
            grid.display()
        )));
    };
    let (ckeys, wkeys) = keys(unit);
    let mut seed = 1u64;
    let mut axes = Vec::new();
    for (k, v) in &top {
        let k = scalar(k);
        match k.as_str() {
            "unit" => {
                if scalar(v) != flag {
                    return Err(grid_err(
                        grid,
                        "unit",
                        &scalar(v),
                        &format!("{flag} (the --unit of this run)"),
                    ));
                }
            }
            "seed" => {
                seed = v
                    .as_u64()
                    .ok_or_else(|| grid_err(grid, "seed", &scalar(v), "an integer >= 0"))?
            }
            "config" | "workload" => {
                let section: &'static str = if k == "config" { "config" } else { "workload" };
                let allowed = if k == "config" { ckeys } else { wkeys };
                let Value::Mapping(m) = v else {
                    return Err(grid_err(
                        grid,
                        &k,
                        &scalar(v),
                        &format!("a mapping of {}", allowed.join(", ")),
                    ));
                };
                for (kk, vv) in m {
                    let kk = scalar(kk);
                    if !allowed.contains(&kk.as_str()) {
                        return Err(grid_err(
                            grid,
                            &format!("{section}.{kk}"),
                            &scalar(vv),
                            &format!("{section} keys of --unit {flag}: {}", allowed.join(", ")),
                        ));
                    }
                    let values = match vv {
                        Value::Sequence(s) if !s.is_empty() => s.clone(),
                        Value::Sequence(_) => {
                            return Err(grid_err(
                                grid,
                                &format!("{section}.{kk}"),
                                "[]",
                                "a non-empty list",
                            ))
                        }
                        other => vec![other.clone()],
                    };
                    for x in &values {
                        check_value(grid, section, &kk, x)?;
                    }
                    axes.push(Axis {
                        section,
                        key: kk,
                        values,
                    });
                }
            }
            _ => return Err(grid_err(grid, &k, &scalar(v), TOP_KEYS)),
        }
    }
    Ok((seed, axes))
}

/// A grid value must be a scalar of the key's type: configuration keys take
/// unsigned integers, workload keys integers, booleans or names. Anything
/// else (a list, a mapping, null, a tagged value, a string where a number
/// belongs) is exit 2 naming the grid, the key and the value.
fn check_value(grid: &Path, section: &str, key: &str, v: &Value) -> Result<(), CmdError> {
    let k = format!("{section}.{key}");
    let shown = || match v {
        Value::String(s) => format!("{s:?}"),
        Value::Null => "null".into(),
        Value::Sequence(_) => "a list".into(),
        Value::Mapping(_) => "a mapping".into(),
        Value::Tagged(t) => format!("{} …", t.tag),
        other => scalar(other),
    };
    match (section, v) {
        ("config", Value::Number(n)) if n.as_u64().is_some() => Ok(()),
        ("config", _) => Err(grid_err(
            grid,
            &k,
            &shown(),
            "an unsigned integer (or a list of them)",
        )),
        (_, Value::Number(_) | Value::Bool(_)) => Ok(()),
        (_, Value::String(s))
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') =>
        {
            Ok(())
        }
        _ => Err(grid_err(
            grid,
            &k,
            &shown(),
            "a number, a boolean or a name (letters, digits, `_`, `-`), or a list of them",
        )),
    }
}

/// Most points a unit grid may have (as the membar sweep).
pub const MAX_POINTS: u64 = 20_000;

/// One point's workload value of `key`, or `default`.
fn wval<'a>(point: &'a [(&'static str, String, Value)], key: &str) -> Option<&'a Value> {
    point
        .iter()
        .find(|(s, k, _)| *s == "workload" && k == key)
        .map(|(_, _, v)| v)
}

fn wint(
    grid: &Path,
    point: &[(&'static str, String, Value)],
    key: &str,
    default: u64,
    min: u64,
    max: u64,
) -> Result<u64, CmdError> {
    match wval(point, key) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                grid_err(
                    grid,
                    &format!("workload.{key}"),
                    &scalar(v),
                    &format!("an integer {min}..={max}"),
                )
            }),
    }
}

/// The point's configuration, built as a YAML mapping (never by pasting
/// values into text, so a value cannot add keys) and written out for the
/// unit's own loader.
fn config_text(point: &[(&'static str, String, Value)]) -> String {
    let m: serde_yaml::Mapping = point
        .iter()
        .filter(|(s, _, _)| *s == "config")
        .map(|(_, k, v)| (Value::String(k.clone()), v.clone()))
        .collect();
    if m.is_empty() {
        return String::new();
    }
    serde_yaml::to_string(&Value::Mapping(m)).unwrap_or_default()
}

fn mean_gap(resumes: &[Vec<u64>]) -> f64 {
    let (mut sum, mut n) = (0u64, 0u64);
    for r in resumes {
        for w in r.windows(2) {
            sum += w[1] - w[0];
            n += 1;
        }
    }
    if n == 0 {
        0.0
    } else {
        sum as f64 / n as f64
    }
}

fn per_k(x: u64, cycles: u64) -> f64 {
    x as f64 * 1000.0 / cycles.max(1) as f64
}

/// Columns and values of one point (in column order).
fn run_point(
    unit: crate::units::Unit,
    grid: &Path,
    idx: usize,
    seed: u64,
    point: &[(&'static str, String, Value)],
) -> Result<Vec<(&'static str, String)>, CmdError> {
    let source = format!("{}: point {idx}", grid.display());
    let t = TimingConfig::h100();
    match unit {
        crate::units::Unit::Bar => {
            let cfg = BarConfig::from_yaml(&config_text(point), &source)
                .map_err(|e| CmdError::input(e.to_string()))?;
            let name = wval(point, "scenario")
                .map(scalar)
                .unwrap_or_else(|| "syncthreads_loop".into());
            let it = wint(grid, point, "iterations", 10, 1, 10_000)? as u32;
            let sc = bar_scenario(&name, &cfg, it).map_err(|e| {
                CmdError::input(format!(
                    "{source}: key `workload.scenario`: value {name}: {e} (bar_unit scenarios: {})",
                    BAR_SCENARIOS.join(", ")
                ))
            })?;
            let r = SmEnv::new(sc, t, seed).run(10_000_000);
            if let Some(v) = &r.violation {
                return Err(CmdError::failed(format!(
                    "{source} (w{}_c{}, {name}): scoreboard B1-B7 violation: {v:?}",
                    cfg.warps, cfg.cta_slots
                )));
            }
            Ok(vec![
                ("warps", cfg.warps.to_string()),
                ("cta_slots", cfg.cta_slots.to_string()),
                ("scenario", name),
                ("iterations", it.to_string()),
                ("cycles", r.cycles.to_string()),
                ("arrivals", r.arrivals.to_string()),
                ("releases", r.releases.to_string()),
                (
                    "releases_per_kcycle",
                    format!("{:.3}", per_k(r.releases, r.cycles)),
                ),
                ("errors", r.errors.to_string()),
                (
                    "mean_resume_interval",
                    format!("{:.2}", mean_gap(&r.resumes)),
                ),
                ("all_done", r.all_done.to_string()),
            ])
        }
        crate::units::Unit::Mbarrier | crate::units::Unit::AsyncGroups => {
            kernel_point(unit, grid, &source, point)
        }
        _ => {
            let cfg = ClusterConfig::from_yaml(&config_text(point), &source)
                .map_err(|e| CmdError::input(e.to_string()))?;
            let k = wint(grid, point, "warps_per_cta", 4, 1, 32)? as u32;
            let it = wint(grid, point, "iterations", 10, 1, 10_000)? as u32;
            let release = match wval(point, "release") {
                None => false,
                Some(v) => v
                    .as_bool()
                    .ok_or_else(|| grid_err(grid, "workload.release", &scalar(v), "true, false"))?,
            };
            let r = cluster_handshake(cfg.ranks, k, release, &t, it);
            if let Some(v) = &r.violation {
                return Err(CmdError::failed(format!(
                    "{source} (n{}): scoreboard C1-C4 violation: {v:?}",
                    cfg.ranks
                )));
            }
            Ok(vec![
                ("ranks", cfg.ranks.to_string()),
                ("warps_per_cta", k.to_string()),
                ("release", release.to_string()),
                ("iterations", it.to_string()),
                ("cycles", r.cycles.to_string()),
                ("phases", r.phases.to_string()),
                (
                    "phases_per_kcycle",
                    format!("{:.3}", per_k(r.phases, r.cycles)),
                ),
                ("mean_wait_interval", format!("{:.2}", mean_gap(&r.resumes))),
                ("early_waits", r.early_waits.to_string()),
            ])
        }
    }
}

/// mbarrier / async_groups: a kernel scenario on both units, the copy engine
/// and the front end (`KernelRunner`), both scoreboards on every cycle.
fn kernel_point(
    unit: crate::units::Unit,
    grid: &Path,
    source: &str,
    point: &[(&'static str, String, Value)],
) -> Result<Vec<(&'static str, String)>, CmdError> {
    use mbarrier_unit_model::config::Config;
    use mbarrier_unit_model::copy_engine::CopyTiming;
    use mbarrier_unit_model::scoreboard::{GroupScoreboard, MbarScoreboard};
    use mbarrier_unit_model::workload::{scenario, FrontEnd, KernelRunner, SCENARIOS};
    let cfg = Config::from_yaml_str(&config_text(point), source)
        .map_err(|e| CmdError::input(e.to_string()))?;
    let default = if unit == crate::units::Unit::Mbarrier {
        "tma_pipeline"
    } else {
        "bulk_store_groups"
    };
    let name = wval(point, "scenario")
        .map(scalar)
        .unwrap_or_else(|| default.into());
    let progs = scenario(&name, &cfg)
        .ok_or_else(|| grid_err(grid, "workload.scenario", &name, &SCENARIOS.join(", ")))?;
    let mut copy = CopyTiming::functional();
    copy.load_latency_l2 = wint(
        grid,
        point,
        "load_latency_l2",
        copy.load_latency_l2,
        1,
        100_000,
    )?;
    copy.store_latency = wint(grid, point, "store_latency", copy.store_latency, 1, 100_000)?;
    let mut fe = FrontEnd::ideal();
    fe.wake_latency = wint(grid, point, "wake_latency", fe.wake_latency, 0, 10_000)?;
    let mut msb = MbarScoreboard::new(&cfg);
    let mut gsb = GroupScoreboard::new(&cfg);
    let mut violation: Option<String> = None;
    let mut stall = 0u64;
    let mut r = KernelRunner::new(&cfg, fe, copy, progs);
    let stats = r.run(10_000_000, |c, x| {
        stall += u64::from(x.go.blocked.count_ones());
        if violation.is_none() {
            if let Err(v) = msb.check(c, &x.mi, &x.mo) {
                violation = Some(format!("M1-M8 at cycle {c}: {v}"));
            } else if let Err(v) = gsb.check(c, &x.gi, &x.go) {
                violation = Some(format!("G1-G4 at cycle {c}: {v}"));
            }
        }
    });
    if let Some(v) = violation {
        return Err(CmdError::failed(format!(
            "{source} ({}, {name}): scoreboard violation: {v}",
            mbarrier_unit_rtl::config_name(&cfg)
        )));
    }
    let cfg_name = if unit == crate::units::Unit::Mbarrier {
        mbarrier_unit_rtl::config_name(&cfg)
    } else {
        mbarrier_unit_rtl::ag_config_name(&cfg)
    };
    let mut row = vec![("config", cfg_name)];
    row.extend([
        ("scenario", name),
        ("load_latency_l2", copy.load_latency_l2.to_string()),
        ("store_latency", copy.store_latency.to_string()),
        ("wake_latency", fe.wake_latency.to_string()),
        ("cycles", stats.cycles.to_string()),
        ("ops", stats.ops.to_string()),
        ("completions", stats.completions.to_string()),
        ("wakes", stats.wakes_done.to_string()),
        (
            "wakes_per_kcycle",
            format!("{:.3}", per_k(stats.wakes_done, stats.cycles)),
        ),
        ("timeouts", stats.timeouts.to_string()),
        ("group_releases", stats.group_releases.to_string()),
        ("wait_group_stall_warp_cycles", stall.to_string()),
        ("errors", stats.errors.to_string()),
        ("finished", stats.finished.to_string()),
    ]);
    Ok(row)
}

/// The axes (with two or more values) whose values all gave identical
/// metrics: for every setting of the other axes, each value of the axis gave
/// the same metric columns (those that are not a config or workload key).
/// One line per such axis, for a warning.
fn flat_axes(
    unit: crate::units::Unit,
    axes: &[Axis],
    points: &[Vec<(&'static str, String, Value)>],
    rows: &[Vec<(&'static str, String)>],
) -> Vec<String> {
    let (cfg_keys, wl_keys) = keys(unit);
    let is_param = |c: &str| c == "config" || cfg_keys.contains(&c) || wl_keys.contains(&c);
    let metrics = |r: &Vec<(&'static str, String)>| -> Vec<String> {
        r.iter()
            .filter(|(c, _)| !is_param(c))
            .map(|(c, v)| format!("{c}={v}"))
            .collect()
    };
    let mut out = Vec::new();
    for (j, a) in axes.iter().enumerate() {
        if a.values.len() < 2 {
            continue;
        }
        // Other axes' values -> the metrics seen for each value of axis j.
        let mut groups: BTreeMap<Vec<String>, Vec<Vec<String>>> = BTreeMap::new();
        for (p, r) in points.iter().zip(rows) {
            let others: Vec<String> = p
                .iter()
                .enumerate()
                .filter(|(k, _)| *k != j)
                .map(|(_, (_, _, v))| scalar(v))
                .collect();
            groups.entry(others).or_default().push(metrics(r));
        }
        if groups
            .values()
            .all(|ms| ms.windows(2).all(|w| w[0] == w[1]))
        {
            let vals: Vec<String> = a.values.iter().map(scalar).collect();
            out.push(format!(
                "axis `{}.{}` ({}): every value gave identical metrics at every point of the other axes; under this grid it changes nothing the sweep measures",
                a.section,
                a.key,
                vals.join(", ")
            ));
        }
    }
    out
}

/// `membar sweep --unit U --grid G --out DIR`.
pub fn sweep(unit: crate::units::Unit, grid: &Path, out: &Path) -> CmdResult {
    use crate::units::Unit;
    if unit == Unit::Membar {
        return Err(CmdError::input(
            "--unit membar: handled by the membar sweep",
        ));
    }
    if unit == Unit::SmSync {
        return Err(CmdError::input(
            "--unit sm_sync: sweep is available for membar, bar, cluster, mbarrier and async_groups (sweep a unit of the top on its own)",
        ));
    }
    let text = membar_unit_env::input::read_input(grid, "grid")
        .map_err(|e| CmdError::input(format!("--grid {e}")))?;
    let (seed, axes) = parse_grid(unit, grid, &text)?;
    // The number of points, before any is built.
    let n_points = axes
        .iter()
        .try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64))
        .filter(|n| *n <= MAX_POINTS);
    if n_points.is_none() {
        let sizes: Vec<String> = axes
            .iter()
            .map(|a| format!("{}.{}: {}", a.section, a.key, a.values.len()))
            .collect();
        return Err(CmdError::input(format!(
            "{}: the grid has {} points ({}); allowed: at most {MAX_POINTS} points (split it into several grids)",
            grid.display(),
            axes.iter()
                .try_fold(1u64, |n, a| n.checked_mul(a.values.len() as u64))
                .map(|n| n.to_string())
                .unwrap_or_else(|| "more than 2^64".into()),
            sizes.join(" x ")
        )));
    }
    // Cartesian product, the last axis fastest.
    let mut points: Vec<Vec<(&'static str, String, Value)>> = vec![vec![]];
    for a in &axes {
        points = points
            .into_iter()
            .flat_map(|p| {
                a.values.iter().map(move |v| {
                    let mut q = p.clone();
                    q.push((a.section, a.key.clone(), v.clone()));
                    q
                })
            })
            .collect();
    }
    let t0 = std::time::Instant::now();
    let mut rows: Vec<Vec<(&'static str, String)>> = Vec::new();
    for (idx, p) in points.iter().enumerate() {
        rows.push(run_point(unit, grid, idx, seed, p)?);
    }
    let stem = grid
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "grid".into());
    crate::unit_kit::create_out_dir(out)?;
    let path = out.join(format!("{stem}.csv"));
    let flag = crate::unit_kit::flag(unit);
    let inputs = RunInputs::new().with("--grid", grid);
    output::write_file(
        "--out",
        &path,
        &inputs,
        output::Owner::Marked(output::Mark::Hash),
        "a sweep CSV",
        |w| {
            let cols: Vec<&str> = rows[0].iter().map(|(c, _)| *c).collect();
            writeln!(w, "unit,seed,{}", cols.join(","))?;
            for r in &rows {
                let vals: Vec<&str> = r.iter().map(|(_, v)| v.as_str()).collect();
                writeln!(w, "{flag},{seed},{}", vals.join(","))?;
            }
            Ok(())
        },
    )?;
    for w in flat_axes(unit, &axes, &points, &rows) {
        eprintln!("warning: {w}");
    }
    let by_axis: BTreeMap<&str, usize> = axes
        .iter()
        .map(|a| (a.key.as_str(), a.values.len()))
        .collect();
    println!(
        "membar sweep --unit {flag}: {} ({} points over {:?}), seed {seed}: scoreboard clean at every point; {} in {:.2} s",
        grid.display(),
        rows.len(),
        by_axis,
        path.display(),
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

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
use crate::entry::Unit;
use crate::output::{self, RunInputs};
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

pub fn scalar(v: &Value) -> String {
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

pub fn grid_err(grid: &Path, key: &str, value: &str, allowed: &str) -> CmdError {
    CmdError::input(format!(
        "{}: key `{key}`: value {value}: allowed: {allowed}",
        grid.display()
    ))
}

fn parse_grid(
    unit: Unit,
    sw: &SweepEntry,
    grid: &Path,
    text: &str,
) -> Result<(u64, Vec<Axis>), CmdError> {
    let flag = unit.to_string();
    let doc: Value = serde_yaml::from_str(text)
        .map_err(|e| CmdError::input(format!("{}: not a YAML grid: {e}", grid.display())))?;
    let Value::Mapping(top) = doc else {
        return Err(CmdError::input(format!(
            "{}: a grid is a YAML mapping with keys {TOP_KEYS}",
            grid.display()
        )));
    };
    let (ckeys, wkeys) = (sw.config_keys, sw.workload_keys);
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

/// One CSV row: (column, value) in column order.
pub type Row = Vec<(&'static str, String)>;

/// A unit's part of the sweep: its grid keys and how one point runs.
pub struct SweepEntry {
    /// The keys of the grid's `config` section (the unit's YAML keys).
    pub config_keys: &'static [&'static str],
    /// The keys of the grid's `workload` section.
    pub workload_keys: &'static [&'static str],
    /// The point's columns and values, in column order (the model run under
    /// the unit's scoreboard; a violation is [`CmdError::failed`]).
    pub run_point: fn(&Point) -> Result<Row, CmdError>,
}

/// One point of a grid, as a unit's [`SweepEntry::run_point`] sees it.
pub struct Point<'a> {
    pub grid: &'a Path,
    /// `<grid>: point <n>`, for messages and the unit's YAML loader.
    pub source: String,
    pub seed: u64,
    /// (section, key, value) of every axis at this point.
    pub values: &'a [(&'static str, String, Value)],
}

impl Point<'_> {
    /// The point's workload value of `key`, if the grid sets it.
    pub fn workload(&self, key: &str) -> Option<&Value> {
        self.values
            .iter()
            .find(|(s, k, _)| *s == "workload" && k == key)
            .map(|(_, _, v)| v)
    }

    /// The workload integer `key` in `min..=max`, or `default` when unset.
    pub fn int(&self, key: &str, default: u64, min: u64, max: u64) -> Result<u64, CmdError> {
        match self.workload(key) {
            None => Ok(default),
            Some(v) => v
                .as_u64()
                .filter(|n| (min..=max).contains(n))
                .ok_or_else(|| {
                    grid_err(
                        self.grid,
                        &format!("workload.{key}"),
                        &scalar(v),
                        &format!("an integer {min}..={max}"),
                    )
                }),
        }
    }

    /// The workload boolean `key`, or `default` when unset.
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, CmdError> {
        match self.workload(key) {
            None => Ok(default),
            Some(v) => v.as_bool().ok_or_else(|| {
                grid_err(
                    self.grid,
                    &format!("workload.{key}"),
                    &scalar(v),
                    "true, false",
                )
            }),
        }
    }

    /// The point's configuration, built as a YAML mapping (never by pasting
    /// values into text, so a value cannot add keys) for the unit's own
    /// loader.
    pub fn config_text(&self) -> String {
        let m: serde_yaml::Mapping = self
            .values
            .iter()
            .filter(|(s, _, _)| *s == "config")
            .map(|(_, k, v)| (Value::String(k.clone()), v.clone()))
            .collect();
        if m.is_empty() {
            return String::new();
        }
        serde_yaml::to_string(&Value::Mapping(m)).unwrap_or_default()
    }
}

pub fn mean_gap(resumes: &[Vec<u64>]) -> f64 {
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

pub fn per_k(x: u64, cycles: u64) -> f64 {
    x as f64 * 1000.0 / cycles.max(1) as f64
}

/// The axes (with two or more values) whose values all gave identical
/// metrics: for every setting of the other axes, each value of the axis gave
/// the same metric columns (those that are not a config or workload key).
/// One line per such axis, for a warning.
fn flat_axes(
    sw: &SweepEntry,
    axes: &[Axis],
    points: &[Vec<(&'static str, String, Value)>],
    rows: &[Vec<(&'static str, String)>],
) -> Vec<String> {
    let (cfg_keys, wl_keys) = (sw.config_keys, sw.workload_keys);
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

/// `membar sweep --unit U --grid G --out DIR` for a unit with a
/// [`SweepEntry`].
pub fn sweep(unit: Unit, sw: &SweepEntry, grid: &Path, out: &Path) -> CmdResult {
    let text = membar_unit_env::input::read_input(grid, "grid")
        .map_err(|e| CmdError::input(format!("--grid {e}")))?;
    let (seed, axes) = parse_grid(unit, sw, grid, &text)?;
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
        rows.push((sw.run_point)(&Point {
            grid,
            source: format!("{}: point {idx}", grid.display()),
            seed,
            values: p,
        })?);
    }
    let stem = grid
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "grid".into());
    crate::kit::create_out_dir(out)?;
    let path = out.join(format!("{stem}.csv"));
    let flag = unit.to_string();
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
    for w in flat_axes(sw, &axes, &points, &rows) {
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

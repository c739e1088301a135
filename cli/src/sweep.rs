//! `membar sweep --grid FILE.yaml [--out DIR] [--jobs N]`: run the cartesian
//! product of configuration keys and workload parameters, in parallel, and
//! write one CSV row per point plus SVG plots of the main curves.
//!
//! # Grid files (`grids/*.yaml`)
//!
//! A mapping. Settings (all optional):
//!
//! - `scenario`: the base workload: a built-in scenario name or a workload
//!   file (default `random_mix`). A list sweeps it.
//! - `preset`: a calibration preset (`configs/h100.yaml`): its `unit:` is the
//!   base configuration and its `mmu:` the base memory system.
//! - `cycles`: stimulus cycles per point (default 100000).
//! - `seed`: an integer, or a list (a dimension).
//! - `reference`: a mapping `key: value` naming the slice the plots hold the
//!   other dimensions at (default: the default configuration's value when it
//!   is swept, else the first value).
//! - `plots`: a list of `{x: KEY, y: METRIC, series: KEY}` (default: release
//!   latency and barrier traffic against each of `ways`, `slots`,
//!   `coalesce_window`, `membar_prob` that is swept).
//! - `blocks`: a list of mappings of swept keys; the points are the union,
//!   over the blocks, of the product of the top-level keys and the block's
//!   keys (a block's key overrides a top-level one).
//!
//! Swept keys: every configuration key (`ways`, `slots`, `coalesce_window`,
//! `arch`, ...), every workload key (`membar_prob`, `issue_prob`,
//! `active_warps`, ...; `workload.level_mix` for the workload's level weights,
//! since `level_mix` is the configuration's), and `mmu.KEY` for memory-system
//! keys. A value is a scalar or a list of values (a value that is itself a
//! list, like `programs`, must be wrapped in one more list). The first key
//! varies slowest.
//!
//! Every point runs the reference model under its workload and memory
//! system with the P1–P7 scoreboard (`--no-check` leaves the scoreboard out);
//! a violation makes the command exit 1 after writing the outputs.

use crate::common::{CmdError, CmdResult};
use crate::output::{self, RunInputs};
use crate::shard::Shard;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use membar_sim::baselines::tag_count;
use membar_sim::calibration::Preset;
use membar_sim::config::{
    yaml_repr, Config, InputError, CONFIG_KEYS, MAX_RUN_CYCLES, MAX_SLOTS, MAX_WARPS,
};
use membar_sim::mmu::{MmuSpec, MMU_KEYS};
use membar_sim::ports::MembarUnitPorts;
use membar_sim::ports::{kind, Inputs, Outputs};
use membar_sim::run::{run, Observer, RunOptions};
use membar_sim::session::run_session;
use membar_sim::stats::{Latency, Stats};
use membar_sim::workload::{WorkloadFile, WorkloadSpec, SCENARIOS, WORKLOAD_KEYS};
use rayon::prelude::*;
use serde_yaml::{Mapping, Value};
use std::path::{Path, PathBuf};

/// Settings keys of a grid file (not swept parameters).
pub const GRID_SETTINGS: &[&str] = &[
    "scenario",
    "preset",
    "cycles",
    "seed",
    "reference",
    "plots",
    "blocks",
];

/// Metrics a plot may show on its y axis (CSV column names).
pub const PLOT_METRICS: &[&str] = &[
    "wait_all_mean",
    "wait_all_p99",
    "wait_gl_mean",
    "wait_gl_p99",
    "wait_sys_mean",
    "wait_cta_mean",
    "lat_all_mean",
    "lat_all_p50",
    "lat_all_p99",
    "lat_gl_mean",
    "lat_gl_p50",
    "lat_gl_p99",
    "lat_sys_mean",
    "lat_sys_p99",
    "lat_cta_mean",
    "lat_vc_mean",
    "barriers_per_membar",
    "barrier_traffic_per_membar",
    "barrier_traffic_per_kcycle",
    "accepted_per_cycle",
    "warp_stall_per_cycle",
    "peak_counter_occupancy",
];

pub struct Options {
    pub grid: PathBuf,
    pub out: PathBuf,
    pub jobs: Option<usize>,
    pub no_check: bool,
    pub cycles: Option<u64>,
    /// Run only this slice of the points (`--shard I/N`).
    pub shard: Option<Shard>,
    /// Join the shard CSVs in these directories instead of running (`--merge`).
    pub merge: Vec<PathBuf>,
}

/// Most points a grid may have (the product of its lists, summed over its
/// blocks). Every point is held in memory while the sweep runs; split a
/// larger design space into several grids.
pub const MAX_GRID_POINTS: usize = 20_000;

/// Where a swept key goes.
#[derive(Clone, Debug, PartialEq)]
enum Target {
    Config(String),
    Workload(String),
    Mmu(String),
    Scenario,
    Seed,
}

#[derive(Clone, Debug)]
struct Dim {
    /// The key as written in the grid file (CSV column).
    key: String,
    target: Target,
    values: Vec<Value>,
}

/// One point of the sweep, fully resolved.
#[derive(Clone, Debug)]
pub struct Point {
    pub index: usize,
    /// (key as written, value) of every swept dimension of its block.
    pub params: Vec<(String, Value)>,
    pub cfg: Config,
    pub wf: WorkloadFile,
    pub scenario: String,
    pub seed: u64,
    pub cycles: u64,
}

#[derive(Clone, Debug)]
pub struct PlotSpec {
    /// Swept key on the x axis (numeric values); `KEY.SUB` reads a number
    /// inside a mapping value (`workload.level_mix.sys`).
    pub x: String,
    /// Metric (CSV column) on the y axis.
    pub y: String,
    /// Swept key whose values make the series.
    pub series: Option<String>,
    /// Swept keys not held at their reference value (e.g. `max_outstanding`
    /// when it is tied to `slots` block by block).
    pub free: Vec<String>,
    /// Reference values for this plot only (`at: {mmu.bar_gap: 463}`).
    pub at: Vec<(String, String)>,
}

/// A parsed grid file.
pub struct Grid {
    pub points: Vec<Point>,
    pub plots: Vec<PlotSpec>,
    /// Every swept key, in file order (CSV parameter columns).
    pub keys: Vec<String>,
    pub reference: Vec<(String, Value)>,
    pub cycles: u64,
    /// Files the grid reads (preset, workload files): inputs of the run.
    pub input_files: Vec<PathBuf>,
}

fn values_of(v: &Value) -> Vec<Value> {
    match v {
        Value::Sequence(s) => s.clone(),
        other => vec![other.clone()],
    }
}

/// `Value` as CSV / label text.
pub fn value_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        other => serde_yaml::to_string(other)
            .unwrap_or_default()
            .trim()
            .replace('\n', " "),
    }
}

fn classify(src: &str, key: &str, v: &Value) -> Result<Target, InputError> {
    if CONFIG_KEYS.contains(&key) {
        return Ok(Target::Config(key.to_string()));
    }
    if let Some(k) = key.strip_prefix("workload.") {
        if WORKLOAD_KEYS.contains(&k) && k != "scenario" {
            return Ok(Target::Workload(k.to_string()));
        }
    } else if let Some(k) = key.strip_prefix("mmu.") {
        if MMU_KEYS.contains(&k) && k != "preset" {
            return Ok(Target::Mmu(k.to_string()));
        }
    } else if WORKLOAD_KEYS.contains(&key) && key != "scenario" {
        return Ok(Target::Workload(key.to_string()));
    } else if key == "scenario" {
        return Ok(Target::Scenario);
    } else if key == "seed" {
        return Ok(Target::Seed);
    }
    Err(InputError::new(
        src,
        key,
        yaml_repr(v),
        format!(
            "unknown key; a grid sweeps configuration keys ({}), workload keys ({}; workload.level_mix for the workload's level weights), mmu.KEY ({}), and has settings {}",
            CONFIG_KEYS.join(", "),
            WORKLOAD_KEYS.iter().filter(|k| **k != "scenario").copied().collect::<Vec<_>>().join(", "),
            MMU_KEYS.iter().filter(|k| **k != "preset").copied().collect::<Vec<_>>().join(", "),
            GRID_SETTINGS.join(", ")
        ),
    ))
}

/// Check one value of a key on its own (type and range), so errors name the
/// key as written in the grid file.
fn check_value(src: &str, key: &str, t: &Target, v: &Value) -> Result<(), InputError> {
    match t {
        Target::Config(k) => {
            // Pair with the largest warps/slots so only this key's own range applies.
            let mut m = Mapping::new();
            if k != "warps" {
                m.insert(Value::from("warps"), Value::from(MAX_WARPS as u64));
            }
            if k != "slots" {
                m.insert(Value::from("slots"), Value::from(MAX_SLOTS as u64));
            }
            m.insert(Value::from(k.as_str()), v.clone());
            Config::from_value(&Value::Mapping(m), src).map(|_| ())
        }
        Target::Workload(k) => {
            let mut m = Mapping::new();
            m.insert(Value::from(k.as_str()), v.clone());
            WorkloadSpec::from_value(&Value::Mapping(m), src, "")
                .map(|_| ())
                .map_err(|mut e| {
                    e.key = key.to_string();
                    e
                })
        }
        Target::Mmu(k) => {
            let mut m = Mapping::new();
            m.insert(Value::from(k.as_str()), v.clone());
            MmuSpec::from_value(&Value::Mapping(m), src, "")
                .map(|_| ())
                .map_err(|mut e| {
                    e.key = key.to_string();
                    e
                })
        }
        Target::Scenario => {
            let name = membar_sim::config::get_str(
                src,
                key,
                v,
                "a built-in scenario name or a workload file",
            )?;
            if WorkloadFile::builtin(&name).is_some() || Path::new(&name).is_file() {
                Ok(())
            } else {
                Err(InputError::new(
                    src,
                    key,
                    format!("{name:?}"),
                    format!(
                        "a built-in scenario ({}) or an existing workload file",
                        SCENARIOS.join(", ")
                    ),
                ))
            }
        }
        Target::Seed => membar_sim::config::get_u64(src, key, v, 0, u64::MAX).map(|_| ()),
    }
}

fn load_base(src: &str, key: &str, name: &str) -> Result<WorkloadFile, InputError> {
    if let Some(wf) = WorkloadFile::builtin(name) {
        return Ok(wf);
    }
    if Path::new(name).is_file() {
        return WorkloadFile::load(name);
    }
    Err(InputError::new(
        src,
        key,
        format!("{name:?}"),
        format!(
            "a built-in scenario ({}) or an existing workload file",
            SCENARIOS.join(", ")
        ),
    ))
}

/// YAML text of a `key: value` listing parsed back into a mapping.
fn mapping_of(text: &str) -> Mapping {
    match serde_yaml::from_str::<Value>(text) {
        Ok(Value::Mapping(m)) => m,
        _ => Mapping::new(),
    }
}

impl Grid {
    pub fn load(path: &Path, cycles_override: Option<u64>) -> Result<Grid, InputError> {
        let src = path.display().to_string();
        let text = membar_sim::input::read_input(path, "grid")?;
        Grid::from_yaml_str_in(&text, &src, path.parent(), cycles_override)
    }

    /// Parse a grid whose file is in `dir` (relative `preset:` paths are
    /// looked up in the working directory, then beside the grid file).
    pub fn from_yaml_str_in(
        text: &str,
        src: &str,
        dir: Option<&Path>,
        cycles_override: Option<u64>,
    ) -> Result<Grid, InputError> {
        let mut input_files: Vec<PathBuf> = Vec::new();
        let v: Value = serde_yaml::from_str(text).map_err(|e| {
            InputError::new(
                src,
                "yaml",
                "",
                format!("not valid YAML ({e}); expected a mapping of keys to lists of values"),
            )
        })?;
        let map = match v {
            Value::Mapping(m) => m,
            other => {
                return Err(InputError::new(
                    src,
                    "<top level>",
                    yaml_repr(&other),
                    "a mapping of keys to lists of values",
                ))
            }
        };
        let mut preset: Option<Preset> = None;
        let mut cycles = 100_000u64;
        let mut reference = Vec::new();
        let mut plots = Vec::new();
        let mut blocks: Vec<Vec<Dim>> = Vec::new();
        let mut top: Vec<Dim> = Vec::new();
        let mut scenario_dim: Option<Dim> = None;
        let parse_dims = |m: &Mapping, ctx: &str| -> Result<Vec<Dim>, InputError> {
            let mut dims = Vec::new();
            for (k, val) in m {
                let key = match k {
                    Value::String(s) => s.clone(),
                    other => {
                        return Err(InputError::new(
                            src,
                            &format!("{ctx}{}", yaml_repr(other)),
                            "",
                            "keys must be strings",
                        ))
                    }
                };
                let target = classify(src, &key, val)?;
                let values = values_of(val);
                if values.is_empty() {
                    return Err(InputError::new(src, &key, "[]", "at least one value"));
                }
                for x in &values {
                    check_value(src, &key, &target, x)?;
                }
                dims.push(Dim {
                    key,
                    target,
                    values,
                });
            }
            Ok(dims)
        };
        let mut swept = Mapping::new();
        for (k, val) in &map {
            let key = match k {
                Value::String(s) => s.as_str(),
                other => {
                    return Err(InputError::new(
                        src,
                        &yaml_repr(other),
                        "",
                        "keys must be strings",
                    ))
                }
            };
            match key {
                "preset" => {
                    let p = membar_sim::config::get_str(
                        src,
                        key,
                        val,
                        "a preset file such as configs/h100.yaml",
                    )?;
                    let beside = dir
                        .filter(|d| !d.as_os_str().is_empty())
                        .map(|d| d.join(&p));
                    let found = if Path::new(&p).is_file() {
                        PathBuf::from(&p)
                    } else if let Some(b) = beside.filter(|b| b.is_file()) {
                        b
                    } else {
                        return Err(InputError::new(
                            src,
                            key,
                            format!("{p:?}"),
                            format!(
                                "an existing preset file such as configs/h100.yaml; cannot read it (looked in the working directory{})",
                                dir.filter(|d| !d.as_os_str().is_empty())
                                    .map(|d| format!(" and beside the grid, in {}", d.display()))
                                    .unwrap_or_default()
                            ),
                        ));
                    };
                    let loaded = Preset::load(&found).map_err(|e| {
                        InputError::new(
                            src,
                            key,
                            format!("{p:?}"),
                            format!("a valid preset file; reading it failed: {e}"),
                        )
                    })?;
                    input_files.push(found);
                    preset = Some(loaded);
                }
                "cycles" => cycles = membar_sim::config::get_u64(src, key, val, 1, MAX_RUN_CYCLES)?,
                "reference" => match val {
                    Value::Mapping(m) => {
                        for (rk, rv) in m {
                            let rk = value_text(rk);
                            let t = classify(src, &rk, rv)?;
                            check_value(src, &format!("reference.{rk}"), &t, rv)?;
                            reference.push((rk, rv.clone()));
                        }
                    }
                    other => {
                        return Err(InputError::new(
                            src,
                            key,
                            yaml_repr(other),
                            "a mapping key: value",
                        ))
                    }
                },
                "plots" => {
                    let list = match val {
                        Value::Sequence(s) => s,
                        other => {
                            return Err(InputError::new(
                                src,
                                key,
                                yaml_repr(other),
                                "a list of {x: KEY, y: METRIC, series: KEY}",
                            ))
                        }
                    };
                    for (n, p) in list.iter().enumerate() {
                        let pk = format!("plots[{n}]");
                        let m = match p {
                            Value::Mapping(m) => m,
                            other => {
                                return Err(InputError::new(
                                    src,
                                    &pk,
                                    yaml_repr(other),
                                    "a mapping {x: KEY, y: METRIC, series: KEY}",
                                ))
                            }
                        };
                        let get = |name: &str| m.get(Value::from(name)).map(value_text);
                        for (mk, mv) in m {
                            let mk = value_text(mk);
                            if !["x", "y", "series", "free", "at"].contains(&mk.as_str()) {
                                return Err(InputError::new(
                                    src,
                                    &format!("{pk}.{mk}"),
                                    yaml_repr(mv),
                                    "unknown key; known keys: x, y, series, free, at",
                                ));
                            }
                        }
                        let at: Vec<(String, String)> = match m.get(Value::from("at")) {
                            None => Vec::new(),
                            Some(Value::Mapping(am)) => am
                                .iter()
                                .map(|(a, b)| (value_text(a), value_text(b)))
                                .collect(),
                            Some(other) => {
                                return Err(InputError::new(
                                    src,
                                    &format!("{pk}.at"),
                                    yaml_repr(other),
                                    "a mapping key: value",
                                ))
                            }
                        };
                        let free: Vec<String> = m
                            .get(Value::from("free"))
                            .map(|v| values_of(v).iter().map(value_text).collect())
                            .unwrap_or_default();
                        let x = get("x").ok_or_else(|| {
                            InputError::new(
                                src,
                                &format!("{pk}.x"),
                                "",
                                "missing: the swept key on the x axis",
                            )
                        })?;
                        let y = get("y").unwrap_or_else(|| "wait_gl_mean".into());
                        if !PLOT_METRICS.contains(&y.as_str()) {
                            return Err(InputError::new(
                                src,
                                &format!("{pk}.y"),
                                &y,
                                format!("one of {}", PLOT_METRICS.join(", ")),
                            ));
                        }
                        plots.push(PlotSpec {
                            x,
                            y,
                            series: get("series"),
                            free,
                            at,
                        });
                    }
                }
                "blocks" => {
                    let list = match val {
                        Value::Sequence(s) if !s.is_empty() => s,
                        other => {
                            return Err(InputError::new(
                                src,
                                key,
                                yaml_repr(other),
                                "a non-empty list of mappings of swept keys",
                            ))
                        }
                    };
                    for (n, b) in list.iter().enumerate() {
                        match b {
                            Value::Mapping(m) => {
                                blocks.push(parse_dims(m, &format!("blocks[{n}]."))?)
                            }
                            other => {
                                return Err(InputError::new(
                                    src,
                                    &format!("blocks[{n}]"),
                                    yaml_repr(other),
                                    "a mapping of swept keys",
                                ))
                            }
                        }
                    }
                }
                "scenario" => {
                    let mut m = Mapping::new();
                    m.insert(k.clone(), val.clone());
                    scenario_dim = parse_dims(&m, "")?.pop();
                }
                _ => {
                    swept.insert(k.clone(), val.clone());
                }
            }
        }
        top.extend(parse_dims(&swept, "")?);
        if let Some(sd) = scenario_dim {
            top.insert(0, sd);
        }
        if let Some(c) = cycles_override {
            cycles = c;
        }
        if blocks.is_empty() {
            blocks.push(Vec::new());
        }
        let mut keys: Vec<String> = Vec::new();
        for d in top.iter().chain(blocks.iter().flatten()) {
            if !keys.contains(&d.key) {
                keys.push(d.key.clone());
            }
        }
        for p in &plots {
            for k in std::iter::once(&p.x)
                .chain(p.series.iter())
                .chain(p.free.iter())
            {
                let base = if keys.contains(k) {
                    k.as_str()
                } else {
                    k.rsplit_once('.').map_or(k.as_str(), |x| x.0)
                };
                if !keys.iter().any(|x| x == base) {
                    return Err(InputError::new(
                        src,
                        "plots",
                        k,
                        format!("a swept key ({})", keys.join(", ")),
                    ));
                }
            }
        }
        // Base configuration and memory system.
        let base_unit: Mapping = preset
            .as_ref()
            .map(|p| mapping_of(&p.unit.to_yaml()))
            .unwrap_or_default();
        // Refuse oversized grids before building a single point.
        let mut total_points: usize = 0;
        for block in &blocks {
            let n = top
                .iter()
                .filter(|d| !block.iter().any(|b| b.key == d.key))
                .chain(block.iter())
                .try_fold(1usize, |acc, d| acc.checked_mul(d.values.len()));
            total_points = match n.and_then(|n| total_points.checked_add(n)) {
                Some(t) if t <= MAX_GRID_POINTS => t,
                _ => {
                    return Err(InputError::new(
                        src,
                        "<grid size>",
                        n.map_or_else(|| "more than 2^64".to_string(), |n| {
                            format!("{} points", total_points.saturating_add(n))
                        }),
                        format!(
                            "at most {MAX_GRID_POINTS} points (the product of the lists, summed over the blocks); split the design space into several grids"
                        ),
                    ))
                }
            };
        }
        for d in top.iter().chain(blocks.iter().flatten()) {
            if d.target == Target::Scenario {
                for v in &d.values {
                    let name = value_text(v);
                    if WorkloadFile::builtin(&name).is_none() && Path::new(&name).is_file() {
                        input_files.push(PathBuf::from(name));
                    }
                }
            }
        }
        let mut points = Vec::with_capacity(total_points);
        for block in &blocks {
            // Block keys override top-level keys of the same name.
            let mut dims: Vec<Dim> = top
                .iter()
                .filter(|d| !block.iter().any(|b| b.key == d.key))
                .cloned()
                .collect();
            dims.extend(block.iter().cloned());
            let total: usize = dims.iter().map(|d| d.values.len()).product();
            for n in 0..total {
                // Mixed-radix index: the first dimension varies slowest.
                let mut rem = n;
                let mut choice = vec![0usize; dims.len()];
                for (di, d) in dims.iter().enumerate().rev() {
                    choice[di] = rem % d.values.len();
                    rem /= d.values.len();
                }
                let params: Vec<(String, Value)> = dims
                    .iter()
                    .zip(&choice)
                    .map(|(d, &c)| (d.key.clone(), d.values[c].clone()))
                    .collect();
                let mut scenario = "random_mix".to_string();
                let mut seed = 1u64;
                let mut unit = base_unit.clone();
                let mut wl_over: Vec<(String, Value)> = Vec::new();
                let mut mmu_over: Vec<(String, Value)> = Vec::new();
                for (d, (_, v)) in dims.iter().zip(&params) {
                    match &d.target {
                        Target::Config(k) => {
                            unit.insert(Value::from(k.as_str()), v.clone());
                        }
                        Target::Workload(k) => wl_over.push((k.clone(), v.clone())),
                        Target::Mmu(k) => mmu_over.push((k.clone(), v.clone())),
                        Target::Scenario => scenario = value_text(v),
                        Target::Seed => seed = v.as_u64().unwrap_or(1),
                    }
                }
                let describe = || {
                    params
                        .iter()
                        .map(|(k, v)| format!("{k}={}", value_text(v)))
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let cfg = Config::from_value(&Value::Mapping(unit), src).map_err(|mut e| {
                    e.allowed = format!("{} (at the point {})", e.allowed, describe());
                    e
                })?;
                let base = load_base(src, "scenario", &scenario)?;
                let mut wl = mapping_of(&base.workload.to_yaml(""));
                for (k, v) in wl_over {
                    wl.insert(Value::from(k), v);
                }
                let workload = WorkloadSpec::from_value(&Value::Mapping(wl), src, "workload")?;
                workload.validate_for(&cfg, src).map_err(|mut e| {
                    e.allowed = format!("{} (at the point {})", e.allowed, describe());
                    e
                })?;
                let base_mmu = preset
                    .as_ref()
                    .map(|p| p.mmu.clone())
                    .unwrap_or(base.mmu.clone());
                let mut mm = mapping_of(&base_mmu.to_yaml(""));
                for (k, v) in mmu_over {
                    mm.insert(Value::from(k), v);
                }
                let mmu = MmuSpec::from_value(&Value::Mapping(mm), src, "mmu")?;
                points.push(Point {
                    index: points.len(),
                    params,
                    cfg,
                    wf: WorkloadFile {
                        workload,
                        mmu,
                        cycles: Some(cycles),
                    },
                    scenario,
                    seed,
                    cycles,
                });
            }
        }
        if plots.is_empty() {
            for x in ["ways", "slots", "coalesce_window", "membar_prob"] {
                if let Some(d) = top
                    .iter()
                    .chain(blocks.iter().flatten())
                    .find(|d| d.key == x)
                {
                    if d.values.len() < 2 {
                        continue;
                    }
                    let series = ["arch", "membar_prob", "ways", "scenario"]
                        .iter()
                        .find(|s| **s != x && keys.iter().any(|k| k == *s))
                        .map(|s| s.to_string());
                    plots.push(PlotSpec {
                        x: x.into(),
                        y: "wait_gl_mean".into(),
                        series: series.clone(),
                        free: Vec::new(),
                        at: Vec::new(),
                    });
                    plots.push(PlotSpec {
                        x: x.into(),
                        y: "barrier_traffic_per_membar".into(),
                        series,
                        free: Vec::new(),
                        at: Vec::new(),
                    });
                }
            }
        }
        Ok(Grid {
            points,
            plots,
            keys,
            reference,
            cycles,
            input_files,
        })
    }
}

// ---------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------

/// Outstanding TXNs per tag (the commit counters' occupancy), with the
/// architecture's own tag count (per-warp tags for `per_warp_drain`).
struct Occupancy {
    out: Vec<u64>,
    peak: u64,
}

impl Occupancy {
    fn new(cfg: &Config) -> Self {
        Occupancy {
            out: vec![0; tag_count(cfg) as usize],
            peak: 0,
        }
    }
}

impl Observer<MembarUnitPorts> for Occupancy {
    fn observe(&mut self, _cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        if i.reset {
            self.out.iter_mut().for_each(|x| *x = 0);
            return Ok(());
        }
        let n = self.out.len();
        if i.ack_valid && !o.err {
            let t = i.ack_tag as usize % n;
            self.out[t] = self.out[t].saturating_sub(1);
        }
        if o.dn_valid && i.dn_ready && o.dn_kind == kind::TXN {
            let t = o.dn_tag as usize % n;
            self.out[t] += 1;
            self.peak = self.peak.max(self.out[t]);
        }
        Ok(())
    }
}

/// Fence latency as the warp sees it: from the first cycle its MEMBAR is
/// presented (a MEMBAR refused at the input — open slot full, `lsu_flush`
/// stalling everyone — keeps waiting) to its release. The release latency of
/// [`Stats`] starts at acceptance instead.
struct IssueLatency {
    first: Vec<Option<(u64, u8)>>,
    pending: Vec<Option<(u64, u8)>>,
    lat: [Latency; 4],
}

impl IssueLatency {
    fn new(cfg: &Config) -> Self {
        IssueLatency {
            first: vec![None; cfg.warps as usize],
            pending: vec![None; cfg.warps as usize],
            lat: Default::default(),
        }
    }
}

impl Observer<MembarUnitPorts> for IssueLatency {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        if i.reset {
            self.first.iter_mut().for_each(|x| *x = None);
            self.pending.iter_mut().for_each(|x| *x = None);
            return Ok(());
        }
        let n = self.first.len();
        if o.release_valid {
            let mut m = o.release_mask;
            while m != 0 {
                let w = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some((t, lv)) = self.pending.get_mut(w).and_then(|p| p.take()) {
                    self.lat[lv as usize & 3].add(cycle - t);
                }
            }
        }
        if i.req_valid && i.req_op == membar_sim::ports::op::MEMBAR {
            let w = i.req_warp as usize % n;
            if self.pending[w].is_none() {
                if self.first[w].is_none() {
                    self.first[w] = Some((cycle, i.req_level & 3));
                }
                if o.req_ready {
                    self.pending[w] = self.first[w].take();
                }
            }
        }
        Ok(())
    }
}

/// What one point produced.
#[derive(Clone, Debug)]
pub struct PointResult {
    pub stats: Stats,
    /// First presentation to release, by level.
    pub wait: [Latency; 4],
    pub sim_cycles: u64,
    pub peak_counter: u64,
    /// `None`: not checked; `Some(Ok(checks))`; `Some(Err(violation))`.
    pub check: Option<Result<u64, String>>,
    pub secs: f64,
}

pub fn run_point(p: &Point, check: bool) -> PointResult {
    let opts = RunOptions {
        cycles: p.cycles,
        seed: p.seed,
        ..RunOptions::default()
    };
    let mut occ = Occupancy::new(&p.cfg);
    let mut wait = IssueLatency::new(&p.cfg);
    let mut dut = membar_sim::model_for(&p.cfg);
    let t0 = std::time::Instant::now();
    if check {
        let rep = run_session(&p.cfg, &mut dut, &p.wf, &opts, &mut [&mut occ, &mut wait]);
        let verdict = match &rep.outcome.failure {
            None => Ok(rep.checks),
            Some(f) => Err(f.clone()),
        };
        PointResult {
            sim_cycles: rep.outcome.cycles,
            stats: rep.stats,
            wait: wait.lat,
            peak_counter: occ.peak,
            check: Some(verdict),
            secs: t0.elapsed().as_secs_f64(),
        }
    } else {
        let (mut up, mut dn) = membar_sim::session::stimulus(&p.cfg, &p.wf, opts.seed);
        let mut stats = Stats::new(&p.cfg);
        let out = {
            let mut obs: Vec<&mut dyn Observer<MembarUnitPorts>> =
                vec![&mut stats, &mut occ, &mut wait];
            run(&mut dut, &mut up, &mut dn, &opts, &mut obs)
        };
        PointResult {
            sim_cycles: out.cycles,
            stats,
            wait: wait.lat,
            peak_counter: occ.peak,
            check: None,
            secs: t0.elapsed().as_secs_f64(),
        }
    }
}

/// The metric columns of the CSV, after the parameter columns.
pub const METRIC_COLUMNS: &[&str] = &[
    "sim_cycles",
    "lat_cta_mean",
    "lat_cta_p50",
    "lat_cta_p99",
    "lat_vc_mean",
    "lat_vc_p50",
    "lat_vc_p99",
    "lat_gl_mean",
    "lat_gl_p50",
    "lat_gl_p99",
    "lat_sys_mean",
    "lat_sys_p50",
    "lat_sys_p99",
    "lat_all_mean",
    "lat_all_p50",
    "lat_all_p99",
    "wait_cta_mean",
    "wait_vc_mean",
    "wait_gl_mean",
    "wait_gl_p50",
    "wait_gl_p99",
    "wait_sys_mean",
    "wait_sys_p99",
    "wait_all_mean",
    "wait_all_p50",
    "wait_all_p99",
    "membars",
    "barrier_commands",
    "inval_commands",
    "barriers_per_membar",
    "membars_per_barrier",
    "barrier_traffic",
    "barrier_traffic_per_membar",
    "barrier_traffic_per_kcycle",
    "accepted",
    "accepted_per_cycle",
    "warp_stall_cycles",
    "warp_stall_per_cycle",
    "refused",
    "peak_counter_occupancy",
    "check",
];

/// Every metric of a point as numbers (NaN for `check`/text), by column name.
pub fn metric(r: &PointResult, name: &str) -> f64 {
    let s = &r.stats;
    let cyc = s.cycles.max(1) as f64;
    let membars: u64 = s.membars.iter().sum();
    let per_membar = |x: u64| {
        if membars == 0 {
            0.0
        } else {
            x as f64 / membars as f64
        }
    };
    match name {
        "sim_cycles" => r.sim_cycles as f64,
        "membars" => membars as f64,
        "barrier_commands" => s.commands[kind::BARRIER as usize] as f64,
        "inval_commands" => s.commands[kind::INVAL as usize] as f64,
        "barriers_per_membar" => s.barriers_per_membar(),
        "membars_per_barrier" => s.coalescing_ratio(),
        "barrier_traffic" => s.barrier_traffic() as f64,
        "barrier_traffic_per_membar" => per_membar(s.barrier_traffic()),
        "barrier_traffic_per_kcycle" => s.barrier_traffic() as f64 * 1000.0 / cyc,
        "accepted" => s.requests() as f64,
        "accepted_per_cycle" => s.requests() as f64 / cyc,
        "warp_stall_cycles" => s.warp_stall_cycles as f64,
        "warp_stall_per_cycle" => s.warp_stall_cycles as f64 / cyc,
        "refused" => s.refused as f64,
        "peak_counter_occupancy" => r.peak_counter as f64,
        _ => {
            let (src, rest) = if let Some(x) = name.strip_prefix("lat_") {
                (&s.latency, x)
            } else if let Some(x) = name.strip_prefix("wait_") {
                (&r.wait, x)
            } else {
                return f64::NAN;
            };
            let Some((lv, stat)) = rest.split_once('_') else {
                return f64::NAN;
            };
            let l = match lv {
                "cta" => src[0].clone(),
                "vc" => src[1].clone(),
                "gl" => src[2].clone(),
                "sys" => src[3].clone(),
                "all" => {
                    let mut l = Latency::default();
                    for x in src.iter() {
                        l.merge(x);
                    }
                    l
                }
                _ => return f64::NAN,
            };
            if l.count == 0 {
                return f64::NAN;
            }
            match stat {
                "mean" => l.mean(),
                "p50" => l.percentile(50.0) as f64,
                "p99" => l.percentile(99.0) as f64,
                _ => f64::NAN,
            }
        }
    }
}

fn fmt_num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x:.4}")
    }
}

/// The configuration columns always written (the whole configuration).
const CONFIG_COLUMNS: &[&str] = &[
    "arch",
    "warps",
    "ways",
    "slots",
    "counter_bits",
    "coalesce_window",
    "max_outstanding",
    "level_mix",
    "gl_bar_ack",
];

/// The CSV's header: point, configuration columns, other swept keys,
/// scenario, seed, cycles, metrics. No wall-time column: the same grid gives
/// the same bytes on every run and every machine (sharded or not).
pub fn csv_header(grid: &Grid) -> Vec<String> {
    let mut header: Vec<String> = vec!["point".into()];
    header.extend(CONFIG_COLUMNS.iter().map(|s| s.to_string()));
    header.extend(extra_keys(grid).iter().map(|s| s.to_string()));
    header.extend(["scenario", "seed", "cycles"].iter().map(|s| s.to_string()));
    header.extend(METRIC_COLUMNS.iter().map(|s| s.to_string()));
    header
}

fn extra_keys(grid: &Grid) -> Vec<&String> {
    grid.keys
        .iter()
        .filter(|k| !CONFIG_COLUMNS.contains(&k.as_str()) && *k != "scenario" && *k != "seed")
        .collect()
}

/// One point's CSV row.
pub fn csv_row(grid: &Grid, p: &Point, r: &PointResult) -> Vec<String> {
    let mut row: Vec<String> = vec![p.index.to_string()];
    let d: std::collections::HashMap<String, String> = p.cfg.describe().into_iter().collect();
    row.extend(
        CONFIG_COLUMNS
            .iter()
            .map(|k| d.get(*k).cloned().unwrap_or_default()),
    );
    for k in extra_keys(grid) {
        row.push(
            p.params
                .iter()
                .find(|(pk, _)| pk == k)
                .map(|(_, v)| value_text(v))
                .unwrap_or_default(),
        );
    }
    row.push(p.scenario.clone());
    row.push(p.seed.to_string());
    row.push(p.cycles.to_string());
    for c in METRIC_COLUMNS {
        row.push(match *c {
            "check" => match &r.check {
                None => "skipped".into(),
                Some(Ok(n)) => format!("PASS ({n} checks)"),
                Some(Err(e)) => format!("VIOLATION: {e}"),
            },
            _ => fmt_num(metric(r, c)),
        });
    }
    row
}

/// A sweep CSV membar wrote: its header starts with these columns.
pub fn is_sweep_csv(head: &[u8]) -> bool {
    head.starts_with(b"point,arch,warps,ways,slots,counter_bits,")
}

/// A plot membar sweep wrote: our comment first, or (plots written before
/// the comment existed) plotters' SVG root with the sweep's canvas size.
pub fn is_sweep_svg(head: &[u8]) -> bool {
    head.starts_with(SVG_SIGNATURE.as_bytes())
        || head.starts_with(b"<svg width=\"900\" height=\"580\"")
}

const SVG_SIGNATURE: &str = "<!-- membar sweep plot";

fn write_csv(
    path: &Path,
    header: &[String],
    rows: &[&Vec<String>],
    inputs: &RunInputs,
) -> Result<(), CmdError> {
    output::write_file("--out", path, inputs, is_sweep_csv, "a sweep CSV", |w| {
        let mut cw = csv::Writer::from_writer(w);
        cw.write_record(header)?;
        for r in rows {
            cw.write_record(r.iter())?;
        }
        cw.flush()
    })
}

/// Rows by point index, and the column index of each metric: what the plots
/// read (from this run's results or from merged shard CSVs alike).
pub struct Table<'a> {
    pub rows: Vec<Option<&'a Vec<String>>>,
    pub columns: std::collections::HashMap<String, usize>,
}

impl Table<'_> {
    fn metric(&self, point: usize, name: &str) -> f64 {
        let Some(Some(row)) = self.rows.get(point) else {
            return f64::NAN;
        };
        self.columns
            .get(name)
            .and_then(|&c| row.get(c))
            .and_then(|t| t.parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    }
}

// ---------------------------------------------------------------------------
// Plots
// ---------------------------------------------------------------------------

/// The value of `key` at point `p` as text (swept keys, then the configuration).
fn param_text(p: &Point, key: &str) -> Option<String> {
    if let Some((_, v)) = p.params.iter().find(|(k, _)| k == key) {
        return Some(value_text(v));
    }
    // `KEY.SUB`: a number inside a mapping value.
    if let Some((base, sub)) = key.rsplit_once('.') {
        if let Some((_, Value::Mapping(m))) = p.params.iter().find(|(k, _)| k == base) {
            return Some(
                m.get(Value::from(sub))
                    .map(value_text)
                    .unwrap_or_else(|| "0".into()),
            );
        }
    }
    p.cfg
        .describe()
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v)
}

/// The reference value of a key: the grid's `reference`, else the default
/// configuration's value if some point has it, else the first point's value.
fn reference_value(grid: &Grid, key: &str) -> Option<String> {
    if let Some((_, v)) = grid.reference.iter().find(|(k, _)| k == key) {
        return Some(value_text(v));
    }
    let def = Config::default()
        .describe()
        .into_iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v);
    if let Some(d) = def {
        if grid
            .points
            .iter()
            .any(|p| param_text(p, key).as_deref() == Some(d.as_str()))
        {
            return Some(d);
        }
    }
    grid.points.first().and_then(|p| param_text(p, key))
}

fn axis_label(key: &str) -> String {
    match key {
        "ways" => "ways (N, barriers per coalesced barrier)".into(),
        "slots" => "slots (K, coalescing indices)".into(),
        "coalesce_window" => "coalesce_window (cycles)".into(),
        "membar_prob" => "membar_prob (barrier rate: MEMBARs per request)".into(),
        "lat_gl_mean" => "MEMBAR.GL release latency, mean (cycles)".into(),
        "wait_gl_mean" => "MEMBAR.GL latency seen by the warp, mean (cycles)".into(),
        "wait_gl_p99" => "MEMBAR.GL latency seen by the warp, p99 (cycles)".into(),
        "wait_all_mean" => "MEMBAR latency seen by the warp, all levels, mean (cycles)".into(),
        "wait_cta_mean" => "MEMBAR.CTA latency seen by the warp, mean (cycles)".into(),
        "lat_gl_p99" => "MEMBAR.GL release latency, p99 (cycles)".into(),
        "lat_all_mean" => "MEMBAR release latency, all levels, mean (cycles)".into(),
        "barrier_traffic_per_membar" => "BARRIER + INVAL commands per MEMBAR".into(),
        "barriers_per_membar" => "BARRIER commands per MEMBAR".into(),
        "accepted_per_cycle" => "accepted requests per cycle".into(),
        other => other.replace('_', " "),
    }
}

/// Okabe–Ito colour-blind-safe palette (no yellow: too light on white).
pub const PALETTE: &[(u8, u8, u8)] = &[
    (0, 114, 178),   // blue
    (213, 94, 0),    // vermillion
    (0, 158, 115),   // bluish green
    (204, 121, 167), // reddish purple
    (86, 180, 233),  // sky blue
    (230, 159, 0),   // orange
    (0, 0, 0),       // black
];

/// Canvas of every plot, and the width of the legend panel at its right
/// (outside the data area).
const PLOT_W: u32 = 900;
const PLOT_H: u32 = 580;
const LEGEND_W: u32 = 190;

/// Tick label text of an x value.
fn tick_text(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 {
        format!("{}", x.round())
    } else {
        let t = format!("{x:.4}");
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// One plot: `(file name, series count, points drawn)`.
fn draw_plot(
    dir: &Path,
    stem: &str,
    grid: &Grid,
    table: &Table,
    spec: &PlotSpec,
    inputs: &RunInputs,
) -> Result<Option<(PathBuf, usize, usize)>, CmdError> {
    use plotters::prelude::*;
    use plotters::style::text_anchor::{HPos, Pos, VPos};
    // The slice: every other swept key at its reference value (except the series key).
    let fixed: Vec<(String, Option<String>)> = grid
        .keys
        .iter()
        .filter(|k| {
            let xbase = spec.x.rsplit_once('.').map_or(spec.x.as_str(), |x| x.0);
            **k != spec.x
                && k.as_str() != xbase
                && Some(*k) != spec.series.as_ref()
                && *k != "seed"
                && !spec.free.contains(k)
        })
        .map(|k| match spec.at.iter().find(|(a, _)| a == k) {
            Some((_, v)) => (k.clone(), Some(v.clone())),
            None => (k.clone(), reference_value(grid, k)),
        })
        .collect();
    let mut series: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
    for p in &grid.points {
        let in_slice = fixed.iter().all(|(k, v)| {
            // A key a point's block does not sweep does not restrict it.
            p.params.iter().all(|(pk, _)| pk != k) || param_text(p, k) == *v
        });
        if !in_slice {
            continue;
        }
        // Curves against x come from the blocks that sweep x.
        let xbase = spec.x.rsplit_once('.').map_or(spec.x.as_str(), |x| x.0);
        if !p.params.iter().any(|(k, _)| k == &spec.x || k == xbase) {
            continue;
        }
        let Some(x) = param_text(p, &spec.x).and_then(|t| t.parse::<f64>().ok()) else {
            continue;
        };
        let y = table.metric(p.index, &spec.y);
        if !y.is_finite() {
            continue;
        }
        let label = match &spec.series {
            Some(s) => format!("{s} = {}", param_text(p, s).unwrap_or_default()),
            None => spec.y.clone(),
        };
        match series.iter_mut().find(|(l, _)| *l == label) {
            Some((_, v)) => v.push((x, y)),
            None => series.push((label, vec![(x, y)])),
        }
    }
    // Seeds at the same x: average.
    for (_, v) in series.iter_mut() {
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        let mut merged: Vec<(f64, f64, u32)> = Vec::new();
        for &(x, y) in v.iter() {
            match merged.last_mut() {
                Some(m) if m.0 == x => {
                    m.1 += y;
                    m.2 += 1;
                }
                _ => merged.push((x, y, 1)),
            }
        }
        *v = merged
            .into_iter()
            .map(|(x, y, n)| (x, y / n as f64))
            .collect();
    }
    series.retain(|(_, v)| !v.is_empty());
    // Single points next to real curves are slices of other blocks: drop them.
    if series.iter().any(|(_, v)| v.len() >= 2) {
        series.retain(|(_, v)| v.len() >= 2);
    }
    let npts: usize = series.iter().map(|(_, v)| v.len()).sum();
    if npts == 0 {
        return Ok(None);
    }
    let mut name = match &spec.series {
        Some(s) => format!("{stem}_{}_vs_{}_by_{s}", spec.y, spec.x),
        None => format!("{stem}_{}_vs_{}", spec.y, spec.x),
    };
    for (k, v) in &spec.at {
        name.push_str(&format!("_at_{k}_{v}"));
    }
    let path = dir.join(format!("{}.svg", name.replace(['.', '/', ' '], "_")));
    // The swept x values that are drawn: the ticks.
    let mut xs: Vec<f64> = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.0))
        .collect();
    xs.sort_by(f64::total_cmp);
    xs.dedup();
    let (xmin, xmax) = (xs[0], xs[xs.len() - 1]);
    let ymax = series
        .iter()
        .flat_map(|(_, v)| v.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    // Wide positive ranges (ways 1..32, rates 0.01..0.3) on a log axis.
    let log_x = xmin > 0.0 && xmax / xmin >= 8.0;
    let tx = |x: f64| if log_x { x.log2() } else { x };
    let err = |e: &dyn std::fmt::Display| {
        CmdError::input(format!("{}: drawing the plot: {e}", path.display()))
    };
    let title = format!("{} vs {}", axis_label(&spec.y), spec.x);
    let held: Vec<String> = fixed
        .iter()
        .filter_map(|(k, v)| v.as_ref().map(|v| format!("{k}={v}")))
        .collect();
    let subtitle = if held.is_empty() {
        "held fixed: nothing else is swept".to_string()
    } else {
        format!("held fixed: {}", held.join(", "))
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (PLOT_W, PLOT_H)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let (top, body) = root.split_vertically(52);
        let (plot_area, legend_area) = body.split_horizontally(PLOT_W - LEGEND_W);
        top.draw_text(
            &title,
            &TextStyle::from(("sans-serif", 16).into_font()).pos(Pos::new(HPos::Center, VPos::Top)),
            (PLOT_W as i32 / 2, 6),
        )
        .map_err(|e| err(&e))?;
        top.draw_text(
            &subtitle,
            &TextStyle::from(("sans-serif", 11).into_font())
                .color(&RGBColor(60, 60, 60))
                .pos(Pos::new(HPos::Center, VPos::Top)),
            (PLOT_W as i32 / 2, 30),
        )
        .map_err(|e| err(&e))?;
        let y_hi = if ymax <= 0.0 { 1.0 } else { ymax * 1.12 };
        let (x0, x1) = (tx(xmin), tx(xmax));
        let pad = if x1 > x0 { (x1 - x0) * 0.05 } else { 1.0 };
        let mut chart = ChartBuilder::on(&plot_area)
            .margin(12)
            .x_label_area_size(44)
            .y_label_area_size(70)
            .build_cartesian_2d((x0 - pad)..(x1 + pad), 0f64..y_hi)
            .map_err(|e| err(&e))?;
        let yfmt = |v: &f64| {
            if v.abs() >= 100.0 {
                format!("{v:.0}")
            } else {
                format!("{v:.2}")
            }
        };
        // No automatic x ticks: they fall between the swept values on a
        // log axis. The ticks are drawn below at the swept values.
        chart
            .configure_mesh()
            .x_desc(if log_x {
                format!("{} (log scale)", axis_label(&spec.x))
            } else {
                axis_label(&spec.x)
            })
            .y_desc(axis_label(&spec.y))
            .x_labels(0)
            .disable_x_mesh()
            .y_label_formatter(&yfmt)
            .light_line_style(WHITE)
            .label_style(("sans-serif", 13))
            .draw()
            .map_err(|e| err(&e))?;
        let tick_style =
            TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Center, VPos::Top));
        let mut last_right = i32::MIN;
        for &x in &xs {
            let (px, py) = chart.backend_coord(&(tx(x), 0.0));
            root.draw(&PathElement::new(
                vec![(px, py), (px, py + 5)],
                BLACK.stroke_width(1),
            ))
            .map_err(|e| err(&e))?;
            // Skip a label that would overlap the previous one.
            let t = tick_text(x);
            let half = (t.len() as i32 * 7) / 2 + 2;
            if px - half > last_right {
                root.draw_text(&t, &tick_style, (px, py + 7))
                    .map_err(|e| err(&e))?;
                last_right = px + half;
            }
        }
        for (n, (_, pts)) in series.iter().enumerate() {
            let (r, g, b) = PALETTE[n % PALETTE.len()];
            let color = RGBColor(r, g, b);
            chart
                .draw_series(
                    LineSeries::new(pts.iter().map(|&(x, y)| (tx(x), y)), color.stroke_width(2))
                        .point_size(4),
                )
                .map_err(|e| err(&e))?;
        }
        // The legend, in its own panel right of the data.
        let lstyle =
            TextStyle::from(("sans-serif", 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
        for (n, (label, _)) in series.iter().enumerate() {
            let (r, g, b) = PALETTE[n % PALETTE.len()];
            let color = RGBColor(r, g, b);
            let y = 24 + 22 * n as i32;
            legend_area
                .draw(&PathElement::new(
                    vec![(4, y), (26, y)],
                    color.stroke_width(2),
                ))
                .map_err(|e| err(&e))?;
            legend_area
                .draw(&Circle::new((15, y), 4, color.filled()))
                .map_err(|e| err(&e))?;
            legend_area
                .draw_text(label, &lstyle, (32, y))
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
    }
    let text = format!(
        "{SVG_SIGNATURE}: {} of {stem}; {} -->\n{svg}",
        name.replace("--", "-"),
        subtitle.replace("--", "-")
    );
    output::write_file("--out", &path, inputs, is_sweep_svg, "a sweep plot", |w| {
        w.write_all(text.as_bytes())
    })?;
    Ok(Some((path, series.len(), npts)))
}

// ---------------------------------------------------------------------------
// The command
// ---------------------------------------------------------------------------

fn grid_stem(grid: &Path) -> String {
    grid.file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "sweep".into())
}

/// Draw every plot of the grid from the table; print what was written.
fn draw_all(
    opt: &Options,
    stem: &str,
    grid: &Grid,
    table: &Table,
    inputs: &RunInputs,
) -> CmdResult {
    for spec in &grid.plots {
        if let Some((p, s, k)) = draw_plot(&opt.out, stem, grid, table, spec, inputs)? {
            println!("wrote {} ({s} series, {k} points)", p.display());
        }
    }
    Ok(())
}

/// The `check` column's verdicts: exit 1 naming every flagged point.
fn verdict(grid: &Grid, table: &Table, checked: bool) -> CmdResult {
    let col = table.columns.get("check").copied();
    let mut failed = Vec::new();
    let mut checks = 0u64;
    for p in &grid.points {
        let Some(Some(row)) = table.rows.get(p.index) else {
            continue;
        };
        let cell = col.and_then(|c| row.get(c)).map_or("", |s| s.as_str());
        if let Some(v) = cell.strip_prefix("VIOLATION: ") {
            failed.push(format!(
                "point {} ({}; scenario {}, seed {}): {v}",
                p.index,
                p.params
                    .iter()
                    .map(|(k, v)| format!("{k}={}", value_text(v)))
                    .collect::<Vec<_>>()
                    .join(", "),
                p.scenario,
                p.seed
            ));
        } else if let Some(n) = cell
            .strip_prefix("PASS (")
            .and_then(|r| r.strip_suffix(" checks)"))
        {
            checks += n.parse::<u64>().unwrap_or(0);
        }
    }
    if !failed.is_empty() {
        return Err(CmdError::failed(format!(
            "scoreboard violation on {} points:\n  {}",
            failed.len(),
            failed.join("\n  ")
        )));
    }
    if checked {
        println!("scoreboard: PASS on every point ({checks} property checks)");
    }
    Ok(())
}

fn run_inputs(opt: &Options, grid: &Grid) -> RunInputs {
    let mut inputs = RunInputs::new().with("--grid", &opt.grid);
    for f in &grid.input_files {
        inputs.add("--grid (a file it names)", f);
    }
    inputs
}

pub fn sweep(opt: &Options) -> CmdResult {
    let t0 = std::time::Instant::now();
    let grid = Grid::load(&opt.grid, opt.cycles)?;
    let stem = grid_stem(&opt.grid);
    if !opt.merge.is_empty() {
        return merge(opt, &grid, &stem);
    }
    let inputs = run_inputs(opt, &grid);
    if opt.out.exists() && !opt.out.is_dir() {
        return Err(CmdError::input(format!(
            "--out {}: exists and is not a directory",
            opt.out.display()
        )));
    }
    std::fs::create_dir_all(&opt.out)
        .map_err(|e| CmdError::input(format!("--out {}: {e}", opt.out.display())))?;
    let points: Vec<&Point> = grid
        .points
        .iter()
        .filter(|p| match opt.shard {
            Some(s) => s.owns(p.index),
            None => true,
        })
        .collect();
    let n = points.len();
    let csv_path = match opt.shard {
        Some(s) => opt.out.join(s.file_name(&stem)),
        None => opt.out.join(format!("{stem}.csv")),
    };
    // Refuse to clobber before spending hours on the points.
    output::check_target("--out", &csv_path, &inputs, is_sweep_csv, "a sweep CSV")?;
    let jobs = opt
        .jobs
        .unwrap_or_else(|| {
            std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1)
        })
        .clamp(1, n.max(1));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| CmdError::input(format!("--jobs {jobs}: {e}")))?;
    let pb = ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{spinner} [{elapsed_precise}] {bar:40} {pos}/{len} points  eta {eta}  {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let check = !opt.no_check;
    println!(
        "membar sweep: {} ({} points{} × {} cycles, {} jobs, scoreboard {})",
        opt.grid.display(),
        n,
        opt.shard
            .map(|s| format!(" of {} in shard {s}", grid.points.len()))
            .unwrap_or_default(),
        grid.cycles,
        jobs,
        if check { "on" } else { "off (--no-check)" }
    );
    // Each point's result becomes its CSV row at once: the heavy statistics
    // are not kept.
    let res: Vec<(Vec<String>, u64, f64)> = pool.install(|| {
        points
            .par_iter()
            .map(|p| {
                let r = run_point(p, check);
                pb.inc(1);
                (csv_row(&grid, p, &r), r.sim_cycles, r.secs)
            })
            .collect()
    });
    pb.finish_and_clear();
    let sim: u64 = res.iter().map(|r| r.1).sum();
    let busy: f64 = res.iter().map(|r| r.2).sum();
    let header = csv_header(&grid);
    let rows: Vec<&Vec<String>> = res.iter().map(|r| &r.0).collect();
    write_csv(&csv_path, &header, &rows, &inputs)?;
    println!("wrote {} ({} rows)", csv_path.display(), rows.len());
    let mut table = Table {
        rows: vec![None; grid.points.len()],
        columns: header
            .iter()
            .enumerate()
            .map(|(i, h)| (h.clone(), i))
            .collect(),
    };
    for (p, r) in points.iter().zip(&res) {
        table.rows[p.index] = Some(&r.0);
    }
    match opt.shard {
        Some(s) => println!(
            "shard {s}: no plots; when every shard is done: membar sweep --grid {} --merge DIR... --out DIR",
            opt.grid.display()
        ),
        None => draw_all(opt, &stem, &grid, &table, &inputs)?,
    }
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "swept {n} points, {sim} cycles simulated in {wall:.1} s wall, grid loading and outputs included ({:.2} M cycles/s overall, {:.2} M cycles/s per job)",
        sim as f64 / wall.max(1e-9) / 1e6,
        sim as f64 / busy.max(1e-9) / 1e6
    );
    verdict(&grid, &table, check)
}

/// `--merge DIR...`: the shard CSVs of this grid in the directories, joined
/// into `<out>/<grid>.csv` in point order (byte for byte what the unsharded
/// run writes), after checking that they are one complete set of shards of
/// this grid: one shard count, every shard once, the grid's header, every
/// point exactly once with the grid's scenario, seed and cycles.
fn merge(opt: &Options, grid: &Grid, stem: &str) -> CmdResult {
    let mut inputs = run_inputs(opt, grid);
    let mut files: Vec<(Shard, PathBuf)> = Vec::new();
    for d in &opt.merge {
        let rd = std::fs::read_dir(d).map_err(|e| {
            CmdError::input(format!(
                "--merge {}: {e}; expected a directory holding {stem}.shard-I-of-N.csv files",
                d.display()
            ))
        })?;
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().to_string();
            if let Some(s) = Shard::from_file_name(stem, &name) {
                files.push((s, e.path()));
            }
        }
    }
    if files.is_empty() {
        return Err(CmdError::input(format!(
            "--merge {}: no {stem}.shard-I-of-N.csv files there (written by membar sweep --grid {} --shard I/N)",
            opt.merge
                .iter()
                .map(|d| d.display().to_string())
                .collect::<Vec<_>>()
                .join(" "),
            opt.grid.display()
        )));
    }
    files.sort_by_key(|(s, p)| (s.count, s.index, p.clone()));
    let count = files[0].0.count;
    if let Some((s, p)) = files.iter().find(|(s, _)| s.count != count) {
        return Err(CmdError::input(format!(
            "--merge: {} is shard {s}, but {} is of {count} shards: one sweep's shards only",
            p.display(),
            files[0].1.display()
        )));
    }
    let mut seen: Vec<Option<&PathBuf>> = vec![None; count];
    for (s, p) in &files {
        if let Some(q) = seen[s.index] {
            return Err(CmdError::input(format!(
                "--merge: shard {s} twice: {} and {}",
                q.display(),
                p.display()
            )));
        }
        seen[s.index] = Some(p);
    }
    let missing: Vec<String> = (0..count)
        .filter(|i| seen[*i].is_none())
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(CmdError::input(format!(
            "--merge: shards missing: {} (run membar sweep --grid {} --shard I/{count} for each)",
            missing.join(", "),
            opt.grid.display()
        )));
    }
    let header = csv_header(grid);
    let mut all: Vec<Option<Vec<String>>> = vec![None; grid.points.len()];
    let col = |name: &str| header.iter().position(|h| h == name).unwrap_or(0);
    let (c_scen, c_seed, c_cycles) = (col("scenario"), col("seed"), col("cycles"));
    for (s, p) in &files {
        inputs.add("--merge", p);
        let bad = |what: String| CmdError::input(format!("--merge: {}: {what}", p.display()));
        let mut r = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_path(p)
            .map_err(|e| bad(e.to_string()))?;
        let mut recs = r.records();
        let h: Vec<String> = match recs.next() {
            Some(Ok(h)) => h.iter().map(str::to_string).collect(),
            Some(Err(e)) => return Err(bad(e.to_string())),
            None => return Err(bad("empty file".into())),
        };
        if h != header {
            return Err(bad(format!(
                "its header is not that of {} (expected {} columns starting {})",
                opt.grid.display(),
                header.len(),
                header[..6].join(",")
            )));
        }
        for (line, rec) in recs.enumerate() {
            let row: Vec<String> = rec
                .map_err(|e| bad(e.to_string()))?
                .iter()
                .map(str::to_string)
                .collect();
            let at = |what: String| bad(format!("row {}: {what}", line + 2));
            let idx: usize = row[0]
                .parse()
                .map_err(|_| at(format!("point {:?} is not a point index", row[0])))?;
            let Some(pt) = grid.points.get(idx) else {
                return Err(at(format!(
                    "point {idx}: the grid has {} points (0..={})",
                    grid.points.len(),
                    grid.points.len().saturating_sub(1)
                )));
            };
            if !s.owns(idx) {
                return Err(at(format!("point {idx} does not belong to shard {s}")));
            }
            if row[c_scen] != pt.scenario
                || row[c_seed] != pt.seed.to_string()
                || row[c_cycles] != pt.cycles.to_string()
            {
                return Err(at(format!(
                    "point {idx} has scenario {}, seed {}, cycles {}; the grid's point {idx} has {}, {}, {} (another grid, or --cycles differed?)",
                    row[c_scen], row[c_seed], row[c_cycles], pt.scenario, pt.seed, pt.cycles
                )));
            }
            if all[idx].is_some() {
                return Err(at(format!("point {idx} appears twice")));
            }
            all[idx] = Some(row);
        }
    }
    let missing: Vec<usize> = (0..all.len()).filter(|i| all[*i].is_none()).collect();
    if !missing.is_empty() {
        let shown: Vec<String> = missing.iter().take(20).map(|i| i.to_string()).collect();
        return Err(CmdError::input(format!(
            "--merge: {} of {} points missing (points {}{}): a shard did not finish?",
            missing.len(),
            all.len(),
            shown.join(", "),
            if missing.len() > 20 { ", ..." } else { "" }
        )));
    }
    std::fs::create_dir_all(&opt.out)
        .map_err(|e| CmdError::input(format!("--out {}: {e}", opt.out.display())))?;
    let csv_path = opt.out.join(format!("{stem}.csv"));
    let rows: Vec<&Vec<String>> = all.iter().flatten().collect();
    write_csv(&csv_path, &header, &rows, &inputs)?;
    println!(
        "merged {count} shards: wrote {} ({} rows)",
        csv_path.display(),
        rows.len()
    );
    let table = Table {
        rows: all.iter().map(|r| r.as_ref()).collect(),
        columns: header
            .iter()
            .enumerate()
            .map(|(i, h)| (h.clone(), i))
            .collect(),
    };
    draw_all(opt, stem, grid, &table, &inputs)?;
    verdict(grid, &table, false)
}

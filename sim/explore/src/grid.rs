//! Sweep grids (`grids/*.yaml`): the cartesian product of configuration keys
//! and workload parameters that `membar sweep` runs, parsed and validated into
//! fully resolved [`Point`]s.
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

use crate::calibration::Preset;
use membar_unit_env::config::{
    yaml_repr, Config, InputError, CONFIG_KEYS, MAX_RUN_CYCLES, MAX_SLOTS, MAX_WARPS,
};
use membar_unit_env::mmu::{MmuSpec, MMU_KEYS};
use membar_unit_env::workload::{WorkloadFile, WorkloadSpec, SCENARIOS, WORKLOAD_KEYS};
use serde::Deserialize;
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
            let name = membar_unit_env::config::get_str(
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
        Target::Seed => membar_unit_env::config::get_u64(src, key, v, 0, u64::MAX).map(|_| ()),
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

/// The list `val` of setting `key`, or an error saying it must be `allowed`.
fn sequence<'a>(
    src: &str,
    key: &str,
    val: &'a Value,
    allowed: &str,
) -> Result<&'a Vec<Value>, InputError> {
    match val {
        Value::Sequence(s) => Ok(s),
        other => Err(InputError::new(src, key, yaml_repr(other), allowed)),
    }
}

/// Known keys of a `plots:` entry.
const PLOT_KEYS: &[&str] = &["x", "y", "series", "free", "at"];

/// A `plots:` entry as written: typed, no unknown keys.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlot {
    #[serde(default)]
    x: Option<Value>,
    #[serde(default)]
    y: Option<Value>,
    #[serde(default)]
    series: Option<Value>,
    #[serde(default)]
    free: Option<Value>,
    #[serde(default)]
    at: Option<Mapping>,
}

impl RawPlot {
    /// The `n`th `plots:` entry `v`, validated into a [`PlotSpec`]; errors
    /// name `plots[n].KEY`, the value and what is allowed.
    fn decode(src: &str, n: usize, v: &Value) -> Result<PlotSpec, InputError> {
        let pk = format!("plots[{n}]");
        if !matches!(v, Value::Mapping(_)) {
            return Err(InputError::new(
                src,
                &pk,
                yaml_repr(v),
                "a mapping {x: KEY, y: METRIC, series: KEY}",
            ));
        }
        let allowed = |key: &str| match key {
            "x" | "series" => "a swept key".to_string(),
            "y" => format!("one of {}", PLOT_METRICS.join(", ")),
            "free" => "a swept key or a list of them".to_string(),
            "at" => "a mapping key: value".to_string(),
            _ => format!("unknown key; known keys: {}", PLOT_KEYS.join(", ")),
        };
        let raw: RawPlot = membar_unit_env::input::decode_value(src, v, "a plot", &allowed)
            .map_err(|mut e| {
                e.key = if e.key == "<top level>" {
                    pk.clone()
                } else {
                    format!("{pk}.{}", e.key)
                };
                e
            })?
            .ok_or_else(|| InputError::new(src, &pk, "null", allowed("")))?;
        let x = raw.x.as_ref().map(value_text).ok_or_else(|| {
            InputError::new(
                src,
                &format!("{pk}.x"),
                "",
                "missing: the swept key on the x axis",
            )
        })?;
        let y = raw
            .y
            .as_ref()
            .map(value_text)
            .unwrap_or_else(|| "wait_gl_mean".into());
        if !PLOT_METRICS.contains(&y.as_str()) {
            return Err(InputError::new(src, &format!("{pk}.y"), &y, allowed("y")));
        }
        Ok(PlotSpec {
            x,
            y,
            series: raw.series.as_ref().map(value_text),
            free: raw
                .free
                .as_ref()
                .map(|v| values_of(v).iter().map(value_text).collect())
                .unwrap_or_default(),
            at: raw
                .at
                .unwrap_or_default()
                .iter()
                .map(|(a, b)| (value_text(a), value_text(b)))
                .collect(),
        })
    }
}

impl Grid {
    pub fn load(path: &Path, cycles_override: Option<u64>) -> Result<Grid, InputError> {
        let src = path.display().to_string();
        let text = membar_unit_env::input::read_input(path, "grid")?;
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
                    let p = membar_unit_env::config::get_str(
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
                "cycles" => {
                    cycles = membar_unit_env::config::get_u64(src, key, val, 1, MAX_RUN_CYCLES)?
                }
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
                    let list =
                        sequence(src, key, val, "a list of {x: KEY, y: METRIC, series: KEY}")?;
                    for (n, p) in list.iter().enumerate() {
                        plots.push(RawPlot::decode(src, n, p)?);
                    }
                }
                "blocks" => {
                    let list =
                        sequence(src, key, val, "a non-empty list of mappings of swept keys")
                            .and_then(|l| match l.is_empty() {
                                true => Err(InputError::new(
                                    src,
                                    key,
                                    "[]",
                                    "a non-empty list of mappings of swept keys",
                                )),
                                false => Ok(l),
                            })?;
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

//! `membar calibrate --kernels [--markdown FILE] [--tolerance P] [--strict]`:
//! the four reference kernels (`kernels/reference/`, both builds) run on the
//! SIMT executor under the H100 SM timing preset (`sm_exec::sm_timing`),
//! and what they measure of themselves (their `kcommon.cuh` records, read
//! back from their `rec`/`glog` buffers: `sm_exec::kprof`) next to what the
//! same kernels measured on an H100 (`data/kernels/h100_kernels_summary.csv`,
//! medians over 20 launches): per role, each warp's total cycles and summed
//! wait per category, and per synchronisation site the median wait. The
//! text is the same on stdout and in `--markdown` (checked in as
//! `docs/results/calibration_kernels.md`; a test checks it equals the
//! command's output). Exit 1 with `--strict` when a row is outside the
//! tolerance or has no prediction.

use crate::common::{CmdError, CmdResult};
use sm_exec::kprof;
use sm_exec::sm_timing::SmTiming;
use sm_exec::{Outcome, RunOptions};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// The H100 measurements (copied from the kernels' bench; see the file's origin in data/README.md).
const SUMMARY: &str = include_str!("../../data/kernels/h100_kernels_summary.csv");
/// Per kernel: its roles (by the record's role index) and how its iterations name sites.
const SITES: &str = include_str!("../../data/kernels/h100_kernels_sites.csv");

/// Where the kernels are, relative to the project's root.
const DIR: &str = "kernels/reference";

struct KernelSites {
    kernel: String,
    roles: Vec<String>,
    loop_iterations: i32,
    before: String,
    after: String,
}

fn kernel_sites() -> Vec<KernelSites> {
    SITES
        .lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            KernelSites {
                kernel: f[0].to_string(),
                roles: f[1].split(';').map(str::to_string).collect(),
                loop_iterations: f[2]
                    .parse()
                    .expect("data/kernels/h100_kernels_sites.csv: loop_iterations"),
                before: f[3].to_string(),
                after: f[4].to_string(),
            }
        })
        .collect()
}

/// One measured row: (kernel, variant, role, kind, metric) → median.
fn measured() -> Vec<(String, String, String, String, String, f64)> {
    SUMMARY
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            if f.len() < 6 || f[3] == "kernel" {
                return None;
            }
            Some((
                f[0].to_string(),
                f[1].to_string(),
                f[2].to_string(),
                f[3].to_string(),
                f[4].to_string(),
                f[5].parse().ok()?,
            ))
        })
        .collect()
}

/// The median of `v` (the mean of the middle two for an even count);
/// `None` when `v` is empty.
pub(crate) fn median(v: &[f64]) -> Option<f64> {
    let mut v = v.to_vec();
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Some(if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    })
}

/// What one kernel build measured of itself on the executor: per
/// (role, kind, metric) the values over warps (per_warp) or events (per_site).
type Predicted = BTreeMap<(String, String, String), Vec<f64>>;

/// A kernel run under a preset for a calibration table: its launch, the
/// run, and its buffers by name.
pub(crate) struct PresetRun {
    pub launch: sm_exec::launch::Resolved,
    pub run: sm_exec::kernel::KernelRun,
    ptx: String,
}

impl PresetRun {
    /// Runs `STEM.ptx` with `STEM.launch.yaml` (relative to the project's
    /// root) under the preset `t`, seed 1; it must finish with its expected
    /// outputs. `flag`: the command's flag, for the messages.
    pub(crate) fn new(flag: &str, stem: &str, t: &SmTiming) -> Result<PresetRun, CmdError> {
        let (ptx, launch) = (format!("{stem}.ptx"), format!("{stem}.launch.yaml"));
        if !Path::new(&ptx).is_file() {
            return Err(CmdError::input(format!(
                "calibrate {flag}: {ptx} does not exist (run from the project's root)"
            )));
        }
        let src =
            std::fs::read_to_string(&ptx).map_err(|e| CmdError::input(format!("{ptx}: {e}")))?;
        let l = sm_exec::launch::load(Path::new(&launch)).map_err(CmdError::input)?;
        let opts = RunOptions {
            seed: 1,
            max_cycles: 10_000_000,
            sm_timing: Some(t.clone()),
            ..RunOptions::default()
        };
        let k = sm_exec::kernel::run_kernel(&ptx, &src, &l, opts)
            .map_err(|e| CmdError::input(e.to_string()))?;
        if k.result.outcome != Outcome::Finished || !k.passed() {
            return Err(CmdError::failed(format!(
                "calibrate {flag}: {ptx} did not finish with its expected outputs under --preset {} ({:?})",
                t.name, k.result.outcome
            )));
        }
        Ok(PresetRun {
            launch: l,
            run: k,
            ptx,
        })
    }

    /// The buffer `name` after the run.
    pub(crate) fn buffer(&self, name: &str) -> Result<Vec<u64>, CmdError> {
        self.run
            .result
            .buffers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| {
                CmdError::input(format!(
                    "{}: no buffer `{name}`",
                    self.ptx.replace(".ptx", ".launch.yaml")
                ))
            })
    }
}

fn run_one(ks: &KernelSites, variant: &str, t: &SmTiming) -> Result<(Predicted, u64), CmdError> {
    let r = PresetRun::new("--kernels", &format!("{DIR}/{}_{variant}", ks.kernel), t)?;
    let buf = |name: &str| r.buffer(name);
    let ptx = &r.ptx;
    let rec = buf("rec")?;
    let glog = buf("glog")?;
    let warps = kprof::decode(&rec, &glog, rec.len() / kprof::KRECW)
        .map_err(|e| CmdError::failed(format!("{ptx}: {e}")))?;
    let mut p = Predicted::new();
    for w in &warps {
        let role = ks
            .roles
            .get(w.role)
            .cloned()
            .unwrap_or_else(|| format!("role{}", w.role));
        let mut put = |kind: &str, metric: String, v: f64| {
            p.entry((role.clone(), kind.to_string(), metric))
                .or_default()
                .push(v)
        };
        put("per_warp", "total_cyc".into(), w.total as f64);
        for (c, &(sum, n)) in w.acc.iter().enumerate() {
            if n > 0 {
                put("per_warp", kprof::CATS[c].to_string(), sum as f64);
            }
        }
        let names = kprof::site_names(&w.events, ks.loop_iterations, &ks.before, &ks.after);
        for (e, name) in w.events.iter().zip(names) {
            put("per_site", name, e.t1.saturating_sub(e.t0) as f64);
        }
    }
    Ok((p, r.run.result.cycles))
}

/// The table (markdown), the number of rows and of rows outside the tolerance.
pub fn table(tolerance_pct: f64) -> Result<(String, usize, usize), CmdError> {
    let t = SmTiming::h100();
    let rows = measured();
    let mut s = format!(
        "# Real kernels: H100 SM timing preset vs measurements\n\n\
         Generated by `membar calibrate --kernels --markdown docs/results/calibration_kernels.md`; do not edit\n\
         (`cargo test --release -p membar --test cli_calibrate_kernels` checks this file equals the command's output).\n\
         Measured: `data/kernels/h100_kernels_summary.csv` (H100 80GB HBM3 at 1980 MHz, medians over 20 launches).\n\
         Model: the same PTX (`kernels/reference/`) on the SIMT executor with `--preset h100`\n\
         (`sim/sm_exec/src/sm_timing.rs`), seed 1; each kernel's own `clock64` instrumentation, read back\n\
         from its `rec`/`glog` buffers, gives the model's figures. per_warp: each warp's total cycles and its\n\
         summed wait per category (median over the role's warps); per_site: the median wait at the site\n\
         (`cat#k@phase`: the k-th such point of an iteration). err = (model − measured) / measured;\n\
         tolerance ±{tolerance_pct:.0} %.\n\n\
         | kernel | build | role | kind | metric | measured | model | err |\n\
         | --- | --- | --- | --- | --- | ---: | ---: | ---: |\n"
    );
    let mut sc = crate::calibrate_units::Scorer::new(tolerance_pct, 0.0);
    let mut totals = Vec::new();
    for ks in kernel_sites() {
        for variant in ["prof", "noprof"] {
            let (p, cycles) = run_one(&ks, variant, &t)?;
            totals.push(format!("{}_{variant}: {cycles} cycles", ks.kernel));
            for (k, v, role, kind, metric, m) in &rows {
                if *k != ks.kernel || v != variant {
                    continue;
                }
                let model = p
                    .get(&(role.clone(), kind.clone(), metric.clone()))
                    .and_then(|x| median(x));
                let (model_s, err_s) = sc.score(*m, model, 1);
                let _ = writeln!(
                    s,
                    "| {k} | {v} | {role} | {kind} | {metric} | {m:.1} | {model_s} | {err_s} |"
                );
            }
        }
    }
    s += &sc.kernel_footer(&totals);
    Ok((s, sc.rows, sc.outside))
}

/// `membar calibrate --kernels`.
pub fn calibrate(markdown: Option<&Path>, tolerance_pct: f64, strict: bool) -> CmdResult {
    let (text, _, outside) = table(tolerance_pct)?;
    crate::calibrate_units::emit(&text, markdown, tolerance_pct, strict, outside)
}

//! The sweep runner: one grid [`Point`] through the reference model under its
//! workload and memory system (with the P1–P7 scoreboard unless asked not
//! to), the metric observers (occupancy, issue latency, the run's
//! [`Stats`]), the metrics by CSV column and the rows of the sweep CSV.

use crate::grid::{value_text, Grid, Point};
use membar_unit_env::baselines::tag_count;
use membar_unit_env::config::Config;
use membar_unit_env::ports::MembarUnitPorts;
use membar_unit_env::ports::{kind, Inputs, Outputs};
use membar_unit_env::run::{run, Observer, RunOptions};
use membar_unit_env::session::run_session;
use membar_unit_env::stats::{Latency, Stats};

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
        if i.req_valid && i.req_op == membar_unit_env::ports::op::MEMBAR {
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
    let mut dut = membar_unit_env::model_for(&p.cfg);
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
        let (mut up, mut dn) = membar_unit_env::session::stimulus(&p.cfg, &p.wf, opts.seed);
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

pub const SVG_SIGNATURE: &str = "<!-- membar sweep plot";
/// Rows by point index, and the column index of each metric: what the plots
/// read (from this run's results or from merged shard CSVs alike).
pub struct Table<'a> {
    pub rows: Vec<Option<&'a Vec<String>>>,
    pub columns: std::collections::HashMap<String, usize>,
}

impl Table<'_> {
    pub fn metric(&self, point: usize, name: &str) -> f64 {
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

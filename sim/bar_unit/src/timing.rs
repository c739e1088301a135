//! The H100 timing preset against the calibration rows in
//! `data/calibration/h100_sync_bar.csv` (tables 1.1, 1.2, 1.4, 3.1 of the
//! H100 sync measurements). Every row is reproduced **by mechanism**: the
//! row's kernel is rebuilt as a scenario (CTA, participating warps, op, count
//! form, cluster size, fence or not) and run closed-loop through the golden
//! models in [`crate::workload`]'s environments with [`TimingConfig::h100`];
//! the model's median loop period is compared with the measured `rt` median.
//! No cell has its own constant. The mechanisms (all in `TimingConfig`):
//!
//! - arrivals reach the barrier unit serialised, one warp per
//!   `arrival_interval` = 2 cycles (`bar.red`: `red_arrival_interval` = 3, the
//!   reduction path takes a warp's 32 predicates per 3 cycles);
//! - the unit releases 2 cycles after the last arrival (B7), then the release
//!   path takes `release_latency` = 9 cycles until the warp issues (11 in
//!   all); `bar.red` adds the result path (`B2R.RESULT`): `red_popc_latency`
//!   or `red_pred_latency`;
//! - a barrier with a count operand issues `count_overhead` cycles later than
//!   the no-count form; the loop itself costs `loop_overhead`;
//! - cluster barrier: the SM collects its CTA's arrivals locally (same
//!   serialisation), one hop (`cross_sm_tpc` when the cluster fits a TPC,
//!   ≤ 2 CTAs, else `cross_sm_gpc`) to the aggregator, 1 cycle in it, one hop
//!   back, `cluster_local` to resume; the `.release` arrive is preceded by a
//!   GPU-scope fence of `fence_gpu` cycles, the fences of one SM coalesce and
//!   those of different SMs are admitted one per `fence_serial` cycles.

use crate::config::{BarConfig, TimingConfig};
use crate::ports::op;
use crate::workload::{cluster_handshake, sync, Instr, Pred, Scenario, SmEnv, WarpProgram};

/// The calibration rows, as copied into the repository.
pub const H100_SYNC_BAR_CSV: &str = include_str!("../../../data/calibration/h100_sync_bar.csv");

/// One compared cell.
#[derive(Clone, Debug)]
pub struct Cell {
    pub sub: String,
    pub test: String,
    pub cfg: String,
    pub measured: f64,
    pub model: f64,
}

impl Cell {
    /// Relative error of the model, (model − measured) / measured.
    pub fn error(&self) -> f64 {
        (self.model - self.measured) / self.measured
    }
}

fn k_of(cfg: &str) -> Option<u32> {
    let p = cfg.find("k=")?;
    cfg[p + 2..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn cluster_of(cfg: &str) -> Option<u32> {
    let p = cfg.find("cluster ")?;
    cfg[p + 8..]
        .split(|c: char| !c.is_ascii_digit())
        .next()?
        .parse()
        .ok()
}

fn mask(ws: &[u32]) -> u64 {
    ws.iter().fold(0, |m, &w| m | 1u64 << w)
}

/// Runs a one-CTA scenario: `cta` warps launched, `groups` of (warps, program).
fn period(cta: u64, groups: &[(Vec<u32>, Vec<Instr>)], exited: &[u32], t: &TimingConfig) -> f64 {
    let cfg = BarConfig {
        warps: 64,
        cta_slots: 1,
    };
    let mut programs = vec![];
    for (ws, prog) in groups {
        for &w in ws {
            programs.push(WarpProgram {
                warp: w as u8,
                prog: prog.clone(),
                iterations: 60,
            });
        }
    }
    for &w in exited {
        programs.push(WarpProgram {
            warp: w as u8,
            prog: vec![Instr::Exit],
            iterations: 1,
        });
    }
    let s = Scenario {
        name: "calibration".into(),
        cfg,
        ctas: vec![(0, cta)],
        programs,
    };
    let first = groups[0].0[0] as usize;
    let r = SmEnv::new(s, *t, 1).run(200_000);
    assert!(
        r.violation.is_none(),
        "calibration scenario violates the contract: {:?}",
        r.violation
    );
    r.median_period(first, 10).unwrap_or(f64::NAN)
}

fn bar(o: u8, id: u8, count: Option<u8>) -> Instr {
    Instr::Bar {
        op: o,
        id,
        count,
        pred: Pred::Fixed(0xffff_0000),
    }
}

/// The model's value for one calibration row, or None if the row is not one the preset covers.
pub fn model_value(sub: &str, test: &str, cfg: &str, t: &TimingConfig) -> Option<f64> {
    let range = |n: u32| (0..n).collect::<Vec<u32>>();
    match sub {
        "1a" => {
            let k = k_of(cfg)?;
            let prog = if test == "bar.sync 0" {
                vec![sync(0, None)]
            } else {
                vec![sync(1, Some(k as u8))]
            };
            Some(period(mask(&range(k)), &[(range(k), prog)], &[], t))
        }
        "1b" => {
            let c2 = vec![sync(1, Some(2))];
            Some(if cfg.starts_with("2 warps") {
                period(0b11, &[(vec![0, 1], c2)], &[], t)
            } else if cfg.contains("w0;w1 of 8; others exited") {
                period(0xff, &[(vec![0, 1], c2)], &range(8)[2..], t)
            } else if cfg.contains("w0;w1 of 8") {
                period(0xff, &[(vec![0, 1], c2)], &[], t)
            } else if cfg.contains("w0;w4 of 8") {
                period(0xff, &[(vec![0, 4], c2)], &[], t)
            } else if cfg.contains("w0;w1 of 32") {
                period(mask(&range(32)), &[(vec![0, 1], c2)], &[], t)
            } else if cfg.contains("w0-w3 of 8") {
                period(0xff, &[(range(4), vec![sync(1, Some(4))])], &[], t)
            } else if cfg.contains("w2-7 busy on bar2") {
                period(
                    0xff,
                    &[(vec![0, 1], c2), ((2..8).collect(), vec![sync(2, Some(6))])],
                    &[],
                    t,
                )
            } else {
                return None;
            })
        }
        "1d" => {
            let k = k_of(cfg)?;
            let o = if test.contains("popc") {
                op::RED_POPC
            } else if test.contains(".and") {
                op::RED_AND
            } else {
                op::RED_OR
            };
            Some(period(
                mask(&range(k)),
                &[(range(k), vec![bar(o, 1, Some(k as u8))])],
                &[],
                t,
            ))
        }
        "3a" => {
            let n = cluster_of(cfg)?;
            let k = k_of(cfg)?;
            let release = !test.contains("relaxed");
            let r = cluster_handshake(n, k, release, t, 40);
            assert!(
                r.violation.is_none() && r.early_waits == 0,
                "cluster scenario broke C1-C4"
            );
            let d: Vec<u64> = r.resumes[0]
                .windows(2)
                .skip(5)
                .map(|x| x[1] - x[0])
                .collect();
            let mut d = d;
            d.sort_unstable();
            Some(*d.get(d.len() / 2)? as f64)
        }
        _ => None,
    }
}

/// Every calibration row with the model's value.
pub fn calibrate(t: &TimingConfig) -> Vec<Cell> {
    let mut out = vec![];
    for line in H100_SYNC_BAR_CSV.lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < 6 {
            continue;
        }
        let (sub, test, cfg) = (f[0], f[1], f[2]);
        let Ok(measured) = f[5].parse::<f64>() else {
            continue;
        };
        if let Some(model) = model_value(sub, test, cfg, t) {
            out.push(Cell {
                sub: sub.into(),
                test: test.into(),
                cfg: cfg.into(),
                measured,
                model,
            });
        }
    }
    out
}

/// The comparison as a table (one line per cell).
pub fn report(cells: &[Cell]) -> String {
    let mut s = format!(
        "{:<4} {:<58} {:<48} {:>8} {:>8} {:>7}\n",
        "sub", "test", "cfg", "measured", "model", "err"
    );
    for c in cells {
        s += &format!(
            "{:<4} {:<58} {:<48} {:>8.1} {:>8.1} {:>+6.1}%\n",
            c.sub,
            c.test,
            c.cfg,
            c.measured,
            c.model,
            100.0 * c.error()
        );
    }
    s
}

/// One row of a calibration table: (sub, test, cfg, metric, measured, model).
pub type CalibrationRow = (String, String, String, String, f64, f64);

/// The table `membar calibrate --unit bar` prints: every row of
/// [`H100_SYNC_BAR_CSV`] (tables 1.1, 1.2, 1.4, 3.1) computed with the H100
/// preset [`TimingConfig::h100`], as (sub, test, cfg, metric, measured,
/// model) rows; the metric is the median closed-loop period in cycles.
pub fn h100_calibration_rows() -> Vec<CalibrationRow> {
    calibrate(&TimingConfig::h100())
        .into_iter()
        .map(|c| {
            (
                c.sub,
                c.test,
                c.cfg,
                "median loop period (cycles)".to_string(),
                c.measured,
                c.model,
            )
        })
        .collect()
}

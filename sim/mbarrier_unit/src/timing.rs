//! H100 timing preset: the SM front end, the copy engine and the unit
//! parameters that reproduce the H100 measurements of sections 2.1, 2.2,
//! 2.3 and 4.1 of the sync calibration (`data/calibration/h100_sync_mbarrier.csv`,
//! copied from the shared calibration set) *by mechanism*: every cell is
//! computed by running the micro-benchmark's warp program through the golden
//! models ([`KernelRunner`]) with these latencies — op latencies, the SYNCS
//! pipe's per-op occupancy, per-warp issue throughput, wake fan-out per warp,
//! the copy engine's latency/bandwidth/report quantum, the store drain rate,
//! the try_wait suspend limit and the nanosleep timer — never a per-cell
//! constant.
//!
//! Mechanisms (cycles at 1980 MHz):
//! - an op reaches the unit `issue_latency` (19) after issue (+4 for ops
//!   with a tx operand) and is answered two cycles after the unit takes it
//!   (accepted, stepped, registered); the answer reaches the warp
//!   `arrive_return` (9) / `wait_return` (21) after the unit's response, so
//!   an arrive returning its state costs 30 and a phase check 42 (§2.3 net);
//!   a looping wait's final branch costs `branch_gap` (13);
//! - one warp issues an arrive every `arrive_gap` (7) and a wait every
//!   `wait_gap` (14) cycles; four schedulers (`smsp`) issue one SYNCS op each
//!   per cycle;
//! - the SYNCS pipe into the unit's op port is in order and takes one op per
//!   `op_interval` (2) cycles, a try_wait one more, a register-count arrive
//!   (`ART0`) `count_arrive_extra` (3) more; a test_wait poll also needs the
//!   SM-wide phase-check path, one poll per `poll_interval` (5) cycles — the
//!   contention that makes 32 spinning warps slower than 32 suspended ones;
//! - suspended warps are woken by the unit (fan-out F = 1 per cycle, two
//!   cycles after the step that decides them) and reach their warp
//!   `wake_latency` (32) later, `wake_interval` (1) apart;
//! - the unit's suspend limit is L = 73 − 19 − 32 − 1 = 21: the measured
//!   73-cycle instruction-level limit minus the issue path, the unit's
//!   step and wake cycles (3) and the wake path;
//! - (the unit's one-request-a-cycle contract, 2026-11-29, moved a cycle of
//!   the response and of the wake into the unit: `issue_latency` 20 → 19
//!   and `wake_latency` 33 → 32 keep every figure of the preset);
//! - `nanosleep` with a hint: a timer of 1.024 ns ticks up to 2^14 ns (a
//!   power of two of ns above), overlapping the failed TRYWAIT by 143
//!   cycles, at least 173 cycles;
//! - bulk loads: 270 (L2) / 640 (DRAM) cycles, 128 B/cycle, completions on a
//!   174-cycle grid anchored at the first copy's issue, 7 cycles apart on one
//!   tick; a copy costs the issuing warp 65 cycles (136 of set-up first);
//! - bulk stores: drain 32 B/cycle 5 cycles after issue, one cycle between
//!   copies, 6 drain cycles lost per store issued while one drains; the
//!   `.read` report one cycle before completion; a store + commit costs the
//!   warp 19 cycles after 143 of set-up; a release reaches the warp in 3.

use crate::config::Config;
use crate::copy_engine::CopyTiming;
use crate::workload::{FrontEnd, Instr, KernelRunner, Parity};

/// SM clock of the measurements (MHz).
pub const H100_MHZ: f64 = 1980.0;
/// Cycles of the §2.1 loop's own instructions between two iterations
/// (single warp: rt − own = 2).
pub const LOOP_OVERHEAD: u32 = 2;
/// The IMAD link of the dependent chains in §2.3 (cycles).
pub const IMAD_LINK: u64 = 16;

/// The H100 preset.
#[derive(Clone, Copy, Debug)]
pub struct H100 {
    pub cfg: Config,
    pub fe: FrontEnd,
    pub copy: CopyTiming,
    /// Instruction-level try_wait limit (issue to false predicate).
    pub try_wait_op_limit: u64,
    pub sleep_scale: f64,
    pub sleep_overlap: f64,
    pub sleep_min: u64,
    /// Kernel set-up before the first bulk store / copy (§2.2, §4.1).
    pub store_setup: u64,
}

impl H100 {
    pub fn preset() -> Self {
        let fe = FrontEnd {
            issue_latency: 19,
            op_interval: 2,
            issue_gap: 2,
            arrive_return: 9,
            wait_return: 21,
            wake_interval: 1,
            retry_gap: 6,
            spin_gap: 6,
            copy_issue: 65,
            group_return: 3,
            store_issue: 19,
            copy_setup: 136,
            arrive_gap: 7,
            wait_gap: 14,
            count_arrive_extra: 3,
            wait_extra: 1,
            test_extra: 0,
            branch_gap: 13,
            wake_latency: 32,
            tx_operand_extra: 4,
            smsp: 4,
            poll_interval: 5,
        };
        let try_wait_op_limit = 73;
        let limit = try_wait_op_limit - fe.issue_latency - fe.wake_latency - 1;
        let cfg = Config {
            try_wait_limit: limit as u32,
            ..Config::default()
        };
        H100 {
            cfg,
            fe,
            copy: CopyTiming {
                load_latency_l2: 270,
                load_latency_dram: 640,
                load_bytes_per_cycle: 128.0,
                quantum: 174,
                report_spacing: 7,
                store_latency: 5,
                store_bytes_per_cycle: 32.0,
                read_ahead: 1,
                store_issue_steal: 6,
                store_gap: 1,
                chunk_bytes: 0,
            },
            try_wait_op_limit,
            sleep_scale: 1.024,
            sleep_overlap: 143.0,
            sleep_min: 173,
            store_setup: 143,
        }
    }

    /// Cycles a `nanosleep` with this hint adds after a failed TRYWAIT.
    pub fn sleep_cycles(&self, hint_ns: u64) -> u64 {
        let (ns, scale) = if hint_ns > 1 << 14 {
            (hint_ns.next_power_of_two() as f64, 1.0)
        } else {
            (hint_ns as f64, self.sleep_scale)
        };
        ((ns * scale * H100_MHZ / 1000.0 - self.sleep_overlap).round() as u64).max(self.sleep_min)
    }

    fn run(&self, progs: Vec<Vec<Instr>>) -> Vec<Vec<u64>> {
        let mut r = KernelRunner::new(&self.cfg, self.fe, self.copy, progs);
        r.run(5_000_000, |_, _| {});
        r.clocks()
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// One §2.1 configuration: `warps` warps each arrive (`count`) and wait
/// (try_wait loop, or test_wait spin) per iteration; `gap` idle cycles
/// before each iteration. Returns medians (own, rt, lat).
pub fn arrive_wait_loop(
    h: &H100,
    warps: u32,
    count: u32,
    reg_count: bool,
    expected: u32,
    test_spin: bool,
    gap: u32,
) -> (f64, f64, f64) {
    let iters = 24u32;
    let mut progs = Vec::new();
    for w in 0..warps {
        let mut p = Vec::new();
        if w == 0 {
            p.push(Instr::Init {
                entry: 0,
                count: expected,
            });
        }
        p.push(Instr::Compute(4));
        let start = p.len();
        if gap > 0 {
            p.push(Instr::Compute(gap));
        }
        p.push(Instr::Clock);
        p.push(if reg_count {
            Instr::ArriveReg { entry: 0, count }
        } else {
            Instr::Arrive { entry: 0, count }
        });
        p.push(if test_spin {
            Instr::TestWaitSpin {
                entry: 0,
                parity: Parity::Phase,
            }
        } else {
            Instr::TryWaitLoop {
                entry: 0,
                parity: Parity::Phase,
            }
        });
        p.push(Instr::FlipPhase { entry: 0 });
        p.push(Instr::Clock);
        // The loop's own instructions (branch back, clock read).
        p.push(Instr::Compute(LOOP_OVERHEAD));
        p.push(Instr::Loop {
            to: start,
            times: iters,
        });
        progs.push(p);
    }
    let clocks = h.run(progs);
    let skip = 4usize;
    let (mut own, mut rt, mut lat) = (Vec::new(), Vec::new(), Vec::new());
    for c in &clocks {
        for k in skip..iters as usize {
            if c.len() < 2 * (k + 1) {
                continue;
            }
            own.push((c[2 * k + 1] - c[2 * k]) as f64);
            rt.push((c[2 * k + 1] - c[2 * k - 1]) as f64);
        }
    }
    for k in skip..iters as usize {
        let pre = clocks.iter().filter_map(|c| c.get(2 * k)).max();
        let post = clocks.iter().filter_map(|c| c.get(2 * k + 1)).min();
        if let (Some(&a), Some(&b)) = (pre, post) {
            lat.push(b as f64 - a as f64);
        }
    }
    (median(own), median(rt), median(lat))
}

/// §2.2: `arrive.expect_tx` + `copies` bulk loads of `bytes` each, then a
/// try_wait loop; returns the cycles from before the arrive until the wait succeeds.
pub fn expect_tx_copy(h: &H100, copies: u32, bytes: u32, cold: bool) -> f64 {
    let mut p = vec![
        Instr::Init { entry: 0, count: 1 },
        Instr::Compute(4),
        Instr::Clock,
    ];
    p.push(Instr::ArriveExpectTx {
        entry: 0,
        count: 1,
        bytes: copies * bytes,
    });
    for _ in 0..copies {
        p.push(Instr::CopyLoad {
            entry: 0,
            bytes,
            cold,
        });
    }
    p.push(Instr::TryWaitLoop {
        entry: 0,
        parity: Parity::Phase,
    });
    p.push(Instr::Clock);
    let c = h.run(vec![p]);
    (c[0][1] - c[0][0]) as f64
}

/// §2.3: a dependent chain of `n` ops (each followed by the IMAD link);
/// returns cycles per op (raw, link included).
pub fn chain(h: &H100, what: &str, hint_ns: u64) -> f64 {
    let n = 16u32;
    let mut p = vec![
        Instr::Init {
            entry: 0,
            count: 1_000,
        },
        Instr::Compute(4),
    ];
    // "complete" variants: complete phase 0 first (the waits then ask for parity 0).
    let complete = matches!(what, "test_complete" | "try_complete");
    if complete {
        p[0] = Instr::Init { entry: 0, count: 1 };
        p.push(Instr::Arrive { entry: 0, count: 1 });
        p.push(Instr::Compute(60));
    }
    p.push(Instr::Clock);
    let body: Vec<Instr> = match what {
        "test_incomplete" | "test_complete" => vec![
            Instr::TestWaitOnce {
                entry: 0,
                parity: Parity::Phase,
            },
            Instr::Compute(IMAD_LINK as u32),
        ],
        "try_complete" | "try_incomplete" => vec![
            Instr::TryWaitOnce {
                entry: 0,
                parity: Parity::Phase,
            },
            Instr::Compute(IMAD_LINK as u32),
        ],
        "try_hint" => vec![
            Instr::TryWaitOnce {
                entry: 0,
                parity: Parity::Phase,
            },
            Instr::Sleep(h.sleep_cycles(hint_ns)),
            Instr::TestWaitOnce {
                entry: 0,
                parity: Parity::Phase,
            },
            Instr::Compute(IMAD_LINK as u32),
        ],
        "arrive" => vec![
            Instr::ArriveDep { entry: 0, count: 1 },
            Instr::Compute(IMAD_LINK as u32),
        ],
        "arrive_expect_tx" => vec![
            Instr::ArriveExpectTxDep {
                entry: 0,
                count: 1,
                bytes: 16,
            },
            Instr::Compute(IMAD_LINK as u32),
        ],
        _ => Vec::new(),
    };
    let n = if what == "try_hint" || what == "try_incomplete" {
        4
    } else {
        n
    };
    for _ in 0..n {
        p.extend(body.iter().copied());
    }
    p.push(Instr::Clock);
    let c = h.run(vec![p]);
    (c[0][1] - c[0][0]) as f64 / n as f64
}

/// §2.3 throughput: 16 independent arrives / test_waits, results summed.
pub fn independent(h: &H100, arrive: bool) -> f64 {
    let mut p = vec![
        Instr::Init {
            entry: 0,
            count: 1_000,
        },
        Instr::Compute(4),
        Instr::Clock,
    ];
    for k in 0..16 {
        let last = k == 15;
        p.push(match (arrive, last) {
            (true, false) => Instr::Arrive { entry: 0, count: 1 },
            (true, true) => Instr::ArriveDep { entry: 0, count: 1 },
            (false, false) => Instr::TestWaitIndep {
                entry: 0,
                parity: Parity::Phase,
            },
            (false, true) => Instr::TestWaitOnce {
                entry: 0,
                parity: Parity::Phase,
            },
        });
    }
    p.push(Instr::Clock);
    let c = h.run(vec![p]);
    (c[0][1] - c[0][0]) as f64 / 16.0
}

/// §4.1: `groups` groups of one bulk store of `bytes` each, then
/// `wait_group{.read} n`. Returns (from first issue, after last commit).
pub fn store_groups(h: &H100, groups: u32, bytes: u32, n: u8, read: bool) -> (f64, f64) {
    let mut p = vec![Instr::Clock, Instr::Compute(h.store_setup as u32)];
    for _ in 0..groups {
        p.push(Instr::BulkStore { bytes });
        p.push(Instr::Commit);
    }
    p.push(Instr::Clock);
    p.push(Instr::WaitGroup { n, read });
    p.push(Instr::Clock);
    let mut fe = h.fe;
    fe.copy_setup = 0;
    let mut r = KernelRunner::new(&h.cfg, fe, h.copy, vec![p]);
    r.run(1_000_000, |_, _| {});
    let c = &r.clocks()[0];
    ((c[2] - c[0]) as f64, (c[2] - c[1]) as f64)
}

/// One calibration cell: the CSV row's key, measured median, model value.
#[derive(Clone, Debug)]
pub struct Cell {
    pub sub: String,
    pub test: String,
    pub cfg: String,
    pub metric: String,
    pub measured: f64,
    pub model: f64,
}

impl Cell {
    pub fn error(&self) -> f64 {
        (self.model - self.measured) / self.measured
    }
}

fn num_after(s: &str, key: &str) -> Option<u32> {
    let i = s.find(key)? + key.len();
    let d: String = s[i..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    d.parse().ok()
}

/// The model's value for one measured row, or `None` if the row is not one
/// this preset models.
pub fn model_cell(h: &H100, sub: &str, test: &str, cfg: &str, metric: &str) -> Option<f64> {
    match sub {
        "2a" => {
            let count = num_after(cfg, "count")?;
            let warps = if cfg.contains("warps") {
                let i = cfg.find("warps")?;
                let d: String = cfg[..i]
                    .trim_end()
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_digit())
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                d.parse().ok()?
            } else {
                1
            };
            // Arrival count per warp instruction: the expected count over the
            // warps (32 lanes of a warp arrive in one instruction).
            let lane0_count = cfg.contains("arrive(count=32)");
            let per_warp = if lane0_count {
                32
            } else {
                (count / warps).max(1)
            };
            let gap = num_after(cfg, "gap").unwrap_or(0);
            let spin = cfg.contains("test_wait spin");
            let (own, rt, lat) =
                arrive_wait_loop(h, warps, per_warp, lane0_count, count, spin, gap);
            if metric.starts_with("own") {
                Some(own)
            } else if metric.starts_with("rt") {
                if gap > 0 {
                    None
                } else {
                    Some(rt)
                }
            } else if metric.starts_with("lat") {
                Some(lat)
            } else {
                None
            }
        }
        "2b" => {
            if !metric.starts_with("complete") {
                return None;
            }
            let copies = num_after(cfg, ";")?;
            let bytes = num_after(cfg, "copy x")?;
            Some(expect_tx_copy(h, copies, bytes, cfg.starts_with("cold")))
        }
        "2c" => {
            if !metric.starts_with("per op") {
                return None;
            }
            let hint = num_after(cfg, "hint");
            let what = match test {
                "test_wait.parity (incomplete)" => "test_incomplete",
                "test_wait.parity (complete)" => "test_complete",
                "try_wait.parity (complete)" => "try_complete",
                "try_wait.parity (incomplete; no hint)" => "try_incomplete",
                "try_wait.parity (incomplete; hint)" => "try_hint",
                "arrive (dependent chain)" => "arrive",
                "arrive.expect_tx 16 B (dependent chain)" => "arrive_expect_tx",
                "arrive (16 independent; results summed)" => return Some(independent(h, true)),
                "test_wait (16 independent; results summed)" => return Some(independent(h, false)),
                _ => return None,
            };
            Some(chain(h, what, hint.unwrap_or(0) as u64))
        }
        "4a" => {
            let groups = num_after(cfg, "")?;
            let bytes = num_after(cfg, "x")?;
            let n = num_after(cfg, "wait_group")
                .or_else(|| num_after(cfg, "wait_group.read"))
                .unwrap_or(0) as u8;
            let n = if cfg.contains(".read") {
                num_after(cfg, "wait_group.read")? as u8
            } else {
                n
            };
            let (from_first, after_commit) =
                store_groups(h, groups, bytes, n, cfg.contains(".read"));
            if metric.starts_with("wait_group N returns (from first issue)") {
                Some(from_first)
            } else if metric.starts_with("wait_group N returns (after last commit)") {
                Some(after_commit)
            } else {
                None
            }
        }
        _ => None,
    }
}

/// Parse the calibration CSV (header + rows; quoted fields not used) and
/// compute the model for every modelled row.
pub fn calibrate(h: &H100, csv: &str) -> Result<Vec<Cell>, String> {
    let mut lines = csv.lines();
    let header = lines.next().ok_or("empty calibration file")?;
    let cols: Vec<&str> = header.split(',').collect();
    let col = |name: &str| {
        cols.iter()
            .position(|&c| c == name)
            .ok_or(format!("column `{name}` missing"))
    };
    let (cs, ct, cc, cm, cmed) = (
        col("sub")?,
        col("test")?,
        col("cfg")?,
        col("metric")?,
        col("med")?,
    );
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let f: Vec<&str> = line.split(',').collect();
        if f.len() < cols.len() {
            return Err(format!(
                "line {}: {} fields, expected {}",
                n + 2,
                f.len(),
                cols.len()
            ));
        }
        let measured: f64 = f[cmed]
            .parse()
            .map_err(|_| format!("line {}: med `{}` is not a number", n + 2, f[cmed]))?;
        if let Some(model) = model_cell(h, f[cs], f[ct], f[cc], f[cm]) {
            out.push(Cell {
                sub: f[cs].into(),
                test: f[ct].into(),
                cfg: f[cc].into(),
                metric: f[cm].into(),
                measured,
                model,
            });
        }
    }
    Ok(out)
}

/// `data/calibration/h100_sync_mbarrier.csv` (tables 2.1, 2.2, 2.3, 4.1 of
/// the H100 sync calibration), built in.
pub const H100_SYNC_MBARRIER_CSV: &str =
    include_str!("../../../data/calibration/h100_sync_mbarrier.csv");

/// One row of a calibration table: (sub, test, cfg, metric, measured, model).
pub type CalibrationRow = (String, String, String, String, f64, f64);

/// The table `membar calibrate --unit mbarrier` prints: every row of
/// [`H100_SYNC_MBARRIER_CSV`] computed by the mechanisms of the preset
/// [`H100::preset`], as (sub, test, cfg, metric, measured, model) rows.
pub fn h100_calibration_rows() -> Result<Vec<CalibrationRow>, String> {
    Ok(calibrate(&H100::preset(), H100_SYNC_MBARRIER_CSV)?
        .into_iter()
        .map(|c| (c.sub, c.test, c.cfg, c.metric, c.measured, c.model))
        .collect())
}

//! Tests of the P1–P7 property scoreboard (`sim/membar_unit/src/scoreboard.rs`):
//!
//! 1. the real reference model passes over many seeded random runs (every
//!    named configuration plus knob variants), non-vacuously;
//! 2. every deliberate model bug (`Fault`) is caught, as the expected property
//!    (and only where the real model passes the very same inputs); mutants for
//!    what no `Fault` covers (P4 refusals, a too-long window for P5, coalescing
//!    under `ways: 1` for P6) are caught too;
//! 3. hand-built traces for individual rules, and directed model runs that pin
//!    the P5 bound (and a regression test of a model bug the sweep found).
//!
//! The baselines (`per_warp_drain`, `lsu_flush`) pass the same random runs.
//!
//! The stimulus generator here is self-contained (seeded ChaCha8): warps that
//! issue LD/ST/ATOM/RED/MEMBAR and wait for their release, and a memory system
//! with random `dn_ready`, out-of-order acks after random delays and `bar_ack`s
//! once everything sent before the BARRIER is acknowledged; optionally bad
//! input (reserved ops, spurious ack/bar_ack, requests of blocked warps) and
//! mid-run resets. Every assertion message names the seed.

use membar_unit_model::baselines::tag_count;
use membar_unit_model::config::{Arch, Config, LevelMix};
use membar_unit_model::membar_unit::MembarModel;
use membar_unit_model::mutants::{Fault, MutantModel};
use membar_unit_model::ports::MembarUnitPorts;
use membar_unit_model::ports::{kind, level, op, Dut, Inputs, Outputs};
use membar_unit_model::scoreboard::{liveness_bound_for, Scoreboard, Violation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};
use std::time::Instant;

// ---------------------------------------------------------------------------
// Stimulus
// ---------------------------------------------------------------------------

/// Per-seed stimulus knobs.
#[derive(Clone, Copy, Debug)]
struct Knobs {
    /// Warps 0..active issue requests.
    active: u32,
    /// Probability a request is presented in a cycle.
    p_req: f64,
    /// Share of MEMBARs among requests; of MEMBARs with `ivall`.
    p_membar: f64,
    p_ivall: f64,
    /// Relative weights of CTA, VC, GL, SYS.
    lvl_w: [u32; 4],
    /// Keep presenting a refused request next cycle.
    p_keep: f64,
    p_ready: f64,
    /// Acks / bar_acks come 1..=ack_max cycles after the transfer (at the earliest).
    ack_max: u64,
    /// Bad input: reserved ops, spurious acks and bar_acks, requests of blocked warps.
    p_bad: f64,
    /// Mid-run reset per cycle.
    p_reset: f64,
    /// Every `quiet_every` cycles, `quiet_len` cycles without new requests.
    quiet_every: u64,
    quiet_len: u64,
}

impl Knobs {
    fn random(rng: &mut ChaCha8Rng, cfg: &Config) -> Knobs {
        let pick = |rng: &mut ChaCha8Rng, v: &[f64]| v[rng.gen_range(0..v.len())];
        let active = [1, 2, 4, cfg.warps, cfg.warps][rng.gen_range(0..5)].min(cfg.warps);
        let mut lvl_w = [0u32; 4];
        while lvl_w.iter().all(|&w| w == 0) {
            lvl_w = [
                rng.gen_range(0..4),
                rng.gen_range(0..4),
                rng.gen_range(0..4),
                rng.gen_range(0..4),
            ];
        }
        let quiet_every = [0u64, 300, 1500][rng.gen_range(0..3)];
        Knobs {
            active,
            p_req: pick(rng, &[0.05, 0.3, 0.7, 1.0]),
            p_membar: pick(rng, &[0.01, 0.05, 0.2, 0.5]),
            p_ivall: pick(rng, &[0.0, 0.1, 0.5]),
            lvl_w,
            p_keep: pick(rng, &[0.5, 0.9, 1.0]),
            p_ready: pick(rng, &[0.2, 0.6, 0.9, 1.0]),
            ack_max: [1u64, 4, 30, 300][rng.gen_range(0..4)],
            p_bad: if rng.gen_bool(0.35) { 0.01 } else { 0.0 },
            p_reset: if rng.gen_bool(0.3) { 1.0 / 3000.0 } else { 0.0 },
            quiet_every,
            quiet_len: quiet_every / 4,
        }
    }
}

#[derive(Clone, Copy, Debug)]
struct Req {
    warp: u8,
    op: u8,
    level: u8,
    ivall: u8,
    id: u16,
}

/// Warps upstream and a memory system downstream.
struct Env {
    ntags: usize,
    rng: ChaCha8Rng,
    k: Knobs,
    /// Warps whose MEMBAR was accepted and that have not been released.
    waiting: u64,
    cur: Option<Req>,
    /// Transferred TXNs: (due cycle, tag, transfer index), earliest due first.
    inflight: BinaryHeap<Reverse<(u64, u8, u64)>>,
    /// Due TXNs, acked one per cycle in random order.
    due: Vec<(u8, u64)>,
    /// Transfer indices not yet acked.
    unacked: BTreeSet<u64>,
    next_idx: u64,
    /// Per tag: transferred in earlier cycles and not acked.
    outstanding: Vec<u64>,
    /// `dn_ack_req` BARRIERs: (tag, TXNs transferred before it, earliest bar_ack cycle).
    bars: Vec<(u8, u64, u64)>,
    reset_left: u32,
    draining: bool,
}

impl Env {
    fn new(cfg: &Config, seed: u64) -> Env {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let k = Knobs::random(&mut rng, cfg);
        Env::with_knobs(cfg, rng, k)
    }

    fn with_knobs(cfg: &Config, rng: ChaCha8Rng, k: Knobs) -> Env {
        let ntags = tag_count(cfg) as usize;
        Env {
            ntags,
            rng,
            k,
            waiting: 0,
            cur: None,
            inflight: BinaryHeap::new(),
            due: Vec::new(),
            unacked: BTreeSet::new(),
            next_idx: 0,
            outstanding: vec![0; ntags],
            bars: Vec::new(),
            reset_left: 0,
            draining: false,
        }
    }

    fn clear(&mut self) {
        self.waiting = 0;
        self.cur = None;
        self.inflight.clear();
        self.due.clear();
        self.unacked.clear();
        self.outstanding.iter_mut().for_each(|n| *n = 0);
        self.bars.clear();
    }

    /// Nothing in flight and no warp waiting.
    fn idle(&self) -> bool {
        self.waiting == 0 && self.unacked.is_empty() && self.bars.is_empty()
    }

    fn new_request(&mut self, c: u64) -> Option<Req> {
        let k = self.k;
        if self.draining
            || (k.quiet_every > 0 && c % k.quiet_every < k.quiet_len)
            || !self.rng.gen_bool(k.p_req)
        {
            return None;
        }
        let bad = k.p_bad > 0.0 && self.rng.gen_bool(k.p_bad * 5.0);
        let free: u64 = !self.waiting
            & if k.active >= 64 {
                u64::MAX
            } else {
                (1u64 << k.active) - 1
            };
        let warp = if bad && self.waiting != 0 {
            // A request of a blocked warp: must be refused without err.
            let n = self.waiting.count_ones();
            nth_bit(self.waiting, self.rng.gen_range(0..n))
        } else if free != 0 {
            nth_bit(free, self.rng.gen_range(0..free.count_ones()))
        } else {
            return None;
        };
        let id = self.rng.gen();
        let r = if k.p_bad > 0.0 && self.rng.gen_bool(k.p_bad) {
            Req {
                warp,
                op: self.rng.gen_range(5..8),
                level: self.rng.gen_range(0..4),
                ivall: self.rng.gen_range(0..4),
                id,
            }
        } else if self.rng.gen_bool(k.p_membar) {
            let total: u32 = k.lvl_w.iter().sum();
            let mut x = self.rng.gen_range(0..total);
            let mut lvl = 0u8;
            while x >= k.lvl_w[lvl as usize] {
                x -= k.lvl_w[lvl as usize];
                lvl += 1;
            }
            let ivall = if self.rng.gen_bool(k.p_ivall) {
                self.rng.gen_range(1..4)
            } else {
                0
            };
            Req {
                warp,
                op: op::MEMBAR,
                level: lvl,
                ivall,
                id: 0,
            }
        } else {
            Req {
                warp,
                op: self.rng.gen_range(0..4),
                level: 0,
                ivall: 0,
                id,
            }
        };
        Some(r)
    }

    fn drive(&mut self, c: u64) -> Inputs {
        let mut i = Inputs::default();
        if self.reset_left > 0 {
            self.reset_left -= 1;
            i.reset = true;
            return i;
        }
        if !self.draining && self.k.p_reset > 0.0 && self.rng.gen_bool(self.k.p_reset) {
            self.reset_left = self.rng.gen_range(0..3);
            self.clear();
            i.reset = true;
            return i;
        }
        // Upstream.
        if self.cur.is_none() {
            self.cur = self.new_request(c);
        }
        if let Some(r) = self.cur {
            i.req_valid = true;
            i.req_warp = r.warp;
            i.req_op = r.op;
            i.req_level = r.level;
            i.req_ivall = r.ivall;
            i.req_id = r.id;
        }
        // Downstream.
        i.dn_ready = self.draining || self.rng.gen_bool(self.k.p_ready);
        while let Some(&Reverse((d, tag, idx))) = self.inflight.peek() {
            if d > c && !self.draining {
                break;
            }
            self.inflight.pop();
            self.due.push((tag, idx));
        }
        let bad = !self.draining && self.k.p_bad > 0.0;
        if !self.due.is_empty() && self.rng.gen_bool(0.8) {
            let (tag, idx) = self.due.swap_remove(self.rng.gen_range(0..self.due.len()));
            self.unacked.remove(&idx);
            self.outstanding[tag as usize] -= 1;
            i.ack_valid = true;
            i.ack_tag = tag;
        } else if bad && self.rng.gen_bool(self.k.p_bad) {
            // Spurious ack: a tag with nothing outstanding (if there is one).
            let t = self.rng.gen_range(0..self.ntags);
            if self.outstanding[t] == 0 {
                i.ack_valid = true;
                i.ack_tag = t as u8;
            }
        }
        let lowest = self.unacked.first().copied().unwrap_or(self.next_idx);
        if let Some(pos) = self
            .bars
            .iter()
            .position(|&(_, need, at)| need <= lowest && (at <= c || self.draining))
        {
            let (tag, _, _) = self.bars.remove(pos);
            i.bar_ack_valid = true;
            i.bar_ack_tag = tag;
        } else if bad && self.rng.gen_bool(self.k.p_bad) {
            let t = self.rng.gen_range(0..self.ntags) as u8;
            if !self.bars.iter().any(|&(bt, _, _)| bt == t) {
                i.bar_ack_valid = true;
                i.bar_ack_tag = t;
            }
        }
        i
    }

    fn observe(&mut self, c: u64, i: &Inputs, o: &Outputs) {
        if i.reset {
            return;
        }
        if let Some(r) = self.cur {
            if o.req_ready {
                if r.op == op::MEMBAR {
                    self.waiting |= 1u64 << r.warp;
                }
                self.cur = None;
            } else if self.waiting >> r.warp & 1 == 1
                || r.op > op::MEMBAR
                || !self.rng.gen_bool(self.k.p_keep)
            {
                self.cur = None;
            }
        }
        self.waiting &= !o.release_mask;
        if o.dn_valid && i.dn_ready {
            match o.dn_kind {
                kind::TXN => {
                    let idx = self.next_idx;
                    self.next_idx += 1;
                    self.unacked.insert(idx);
                    let d = c + 1 + self.rng.gen_range(0..self.k.ack_max);
                    self.inflight.push(Reverse((d, o.dn_tag, idx)));
                    self.outstanding[o.dn_tag as usize] += 1;
                }
                kind::BARRIER if o.dn_ack_req => {
                    let d = c + 1 + self.rng.gen_range(0..self.k.ack_max);
                    self.bars.push((o.dn_tag, self.next_idx, d));
                }
                _ => {}
            }
        }
    }
}

/// The position of the n-th set bit of `m`.
fn nth_bit(mut m: u64, n: u32) -> u8 {
    for _ in 0..n {
        m &= m - 1;
    }
    m.trailing_zeros() as u8
}

/// Result of one run.
struct RunResult {
    violation: Option<Violation>,
    cycles: u64,
    checks: u64,
    max_quiet: u64,
    bound: u64,
    accepted_txns: u64,
    releases: u64,
    /// Coverage: INVALs and BARRIERs transferred, bar_acks, resets, err
    /// pulses, refused requests of blocked warps.
    cov: [u64; 6],
    /// Every cycle's inputs (only when asked for).
    trace: Vec<Inputs>,
}

/// Run `cycles` random cycles, then drain, then `finish`.
fn run(cfg: &Config, fault: Fault, seed: u64, cycles: u64) -> RunResult {
    let mut env = Env::new(cfg, seed);
    run_env(cfg, fault, &mut env, cycles, false)
}

fn run_env(cfg: &Config, fault: Fault, env: &mut Env, cycles: u64, record: bool) -> RunResult {
    if fault == Fault::None {
        run_dut(
            cfg,
            &mut *membar_unit_model::model_for(cfg),
            env,
            cycles,
            record,
        )
    } else {
        run_dut(cfg, &mut MutantModel::new(cfg, fault), env, cycles, record)
    }
}

/// Run any DUT against a scoreboard built for `cfg`.
fn run_dut(
    cfg: &Config,
    dut: &mut dyn Dut<MembarUnitPorts>,
    env: &mut Env,
    cycles: u64,
    record: bool,
) -> RunResult {
    let mut sb = Scoreboard::new(cfg);
    let mut res = RunResult {
        violation: None,
        cycles: 0,
        checks: 0,
        max_quiet: 0,
        bound: sb.liveness_bound(),
        accepted_txns: 0,
        releases: 0,
        cov: [0; 6],
        trace: Vec::new(),
    };
    let mut c = 0u64;
    let mut step = |c: u64,
                    env: &mut Env,
                    sb: &mut Scoreboard,
                    res: &mut RunResult|
     -> Result<Outputs, Violation> {
        let i = if c == 0 {
            Inputs {
                reset: true,
                ..Inputs::default()
            }
        } else {
            env.drive(c)
        };
        let o = dut.step(&i);
        if record {
            res.trace.push(i);
        }
        sb.check(c, &i, &o)?;
        env.observe(c, &i, &o);
        if !i.reset && i.req_valid && o.req_ready && op::is_txn(i.req_op) {
            res.accepted_txns += 1;
        }
        res.releases += o.release_mask.count_ones() as u64;
        let fire = !i.reset && o.dn_valid && i.dn_ready;
        res.cov[0] += (fire && o.dn_kind == kind::INVAL) as u64;
        res.cov[1] += (fire && o.dn_kind == kind::BARRIER) as u64;
        res.cov[2] += (!i.reset && i.bar_ack_valid) as u64;
        res.cov[3] += i.reset as u64;
        res.cov[4] += o.err as u64;
        res.cov[5] +=
            (!i.reset && i.req_valid && !o.req_ready && o.warp_blocked >> i.req_warp & 1 == 1)
                as u64;
        Ok(o)
    };
    let mut outcome = Ok(());
    while c < cycles {
        if let Err(v) = step(c, env, &mut sb, &mut res) {
            outcome = Err(v);
            break;
        }
        c += 1;
    }
    if outcome.is_ok() {
        // Drain: no new requests, downstream always ready, every ack due now.
        env.draining = true;
        env.reset_left = 0;
        let mut quiet_after_idle = 0;
        let limit = c + 20_000;
        while c < limit && quiet_after_idle < 64 {
            match step(c, env, &mut sb, &mut res) {
                Err(v) => {
                    outcome = Err(v);
                    break;
                }
                Ok(o) => {
                    quiet_after_idle = if env.idle() && !o.dn_valid {
                        quiet_after_idle + 1
                    } else {
                        0
                    }
                }
            }
            c += 1;
        }
        if outcome.is_ok() {
            outcome = sb.finish(c);
        }
    }
    res.violation = outcome.err();
    res.cycles = c;
    res.checks = sb.checks();
    res.max_quiet = sb.max_quiescent_streak();
    res
}

fn variants() -> Vec<(String, Config)> {
    let mut v: Vec<(String, Config)> = Config::grid()
        .into_iter()
        .map(|(n, c)| (n.to_string(), c))
        .collect();
    let d = Config::default();
    v.push((
        "split".into(),
        Config {
            level_mix: LevelMix::Split,
            ..d.clone()
        },
    ));
    v.push((
        "gl_bar_ack".into(),
        Config {
            gl_bar_ack: true,
            ..d.clone()
        },
    ));
    v.push((
        "max_out2".into(),
        Config {
            max_outstanding: 2,
            ..d.clone()
        },
    ));
    v.push((
        "max_out3_split".into(),
        Config {
            max_outstanding: 3,
            level_mix: LevelMix::Split,
            ..d.clone()
        },
    ));
    v.push((
        "window0".into(),
        Config {
            coalesce_window: 0,
            ..d.clone()
        },
    ));
    v.push((
        "window40".into(),
        Config {
            coalesce_window: 40,
            ..d.clone()
        },
    ));
    v.push((
        "lone16_legacy".into(),
        Config {
            lone_window: 16,
            ..d.clone()
        },
    ));
    v.push((
        "lone5_window40_max_out2".into(),
        Config {
            coalesce_window: 40,
            lone_window: 5,
            max_outstanding: 2,
            ..d.clone()
        },
    ));
    v.push((
        "k8_max_out7_w0".into(),
        Config {
            slots: 8,
            max_outstanding: 7,
            coalesce_window: 0,
            ..d.clone()
        },
    ));
    v.push((
        "w8_k2_n1_c4_window0".into(),
        Config {
            warps: 8,
            slots: 2,
            ways: 1,
            counter_bits: 4,
            coalesce_window: 0,
            ..d.clone()
        },
    ));
    v.push((
        "w64_n64_c4".into(),
        Config {
            warps: 64,
            ways: 64,
            slots: 8,
            counter_bits: 4,
            ..d
        },
    ));
    v
}

// ---------------------------------------------------------------------------
// 1. The real model passes
// ---------------------------------------------------------------------------

fn sweep(configs: &[(String, Config)], seeds: u64, cycles: u64) {
    let t0 = Instant::now();
    let mut total_cycles = 0u64;
    let mut total_checks = 0u64;
    let mut max_quiet = vec![0u64; configs.len()];
    let mut txns = 0u64;
    let mut releases = 0u64;
    let mut cov = [0u64; 6];
    for seed in 0..seeds {
        let ci = (seed as usize) % configs.len();
        let (name, cfg) = &configs[ci];
        let r = run(cfg, Fault::None, seed, cycles);
        assert!(
            r.violation.is_none(),
            "seed {seed}, config {name} ({cfg:?}): {}",
            r.violation.unwrap()
        );
        assert!(
            r.checks >= 5 * r.cycles,
            "seed {seed}, config {name}: only {} checks in {} cycles",
            r.checks,
            r.cycles
        );
        total_cycles += r.cycles;
        total_checks += r.checks;
        txns += r.accepted_txns;
        releases += r.releases;
        (0..6).for_each(|k| cov[k] += r.cov[k]);
        max_quiet[ci] = max_quiet[ci].max(r.max_quiet);
        assert!(r.max_quiet <= r.bound, "seed {seed}, config {name}");
    }
    let secs = t0.elapsed().as_secs_f64();
    eprintln!(
        "{seeds} seeds, {total_cycles} cycles, {total_checks} checks, {txns} TXNs accepted, {releases} warp releases, {secs:.1} s"
    );
    for (ci, (name, cfg)) in configs.iter().enumerate() {
        eprintln!(
            "  {name}: longest quiescent pending streak {} (P5 bound {})",
            max_quiet[ci],
            liveness_bound_for(cfg)
        );
    }
    eprintln!("  coverage: INVAL {}, BARRIER {}, bar_ack {}, reset cycles {}, err pulses {}, blocked-warp refusals {}", cov[0], cov[1], cov[2], cov[3], cov[4], cov[5]);
    assert!(cov.iter().all(|&n| n >= 50), "coverage too thin: {cov:?}");
    assert!(txns > seeds * cycles / 20, "too few transactions: {txns}");
    assert!(releases > seeds * 20, "too few releases: {releases}");
}

#[test]
fn real_model_passes_random_runs() {
    let configs = variants();
    sweep(&configs, 200, 20_000);
}

#[test]
fn baselines_pass_random_runs() {
    let mut configs = Vec::new();
    for arch in [Arch::PerWarpDrain, Arch::LsuFlush] {
        for (name, cfg) in Config::grid().into_iter().take(3) {
            configs.push((
                format!("{}_{name}", arch.name()),
                Config {
                    arch,
                    ..cfg.clone()
                },
            ));
            configs.push((
                format!("{}_{name}_glack", arch.name()),
                Config {
                    arch,
                    gl_bar_ack: true,
                    ..cfg
                },
            ));
        }
    }
    sweep(&configs, 48, 10_000);
}

/// The P5 bound is tight: the random runs reach it (the window case with the
/// default window, the outstanding-limit case with window 0; with the legacy
/// `lone_window = coalesce_window` too).
#[test]
fn p5_bound_is_reached_by_random_runs() {
    for (name, cfg) in [
        ("default", Config::default()),
        (
            "window0",
            Config {
                coalesce_window: 0,
                ..Config::default()
            },
        ),
        (
            "lone16_legacy",
            Config {
                lone_window: 16,
                ..Config::default()
            },
        ),
    ] {
        let bound = liveness_bound_for(&cfg);
        let mut best = 0;
        let mut seed = 1000;
        while best < bound && seed < 1200 {
            let r = run(&cfg, Fault::None, seed, 20_000);
            assert!(
                r.violation.is_none(),
                "seed {seed}, config {name}: {}",
                r.violation.unwrap()
            );
            best = best.max(r.max_quiet);
            seed += 1;
        }
        assert_eq!(
            best, bound,
            "config {name}: longest quiescent pending streak over seeds 1000..{seed}"
        );
    }
}

// ---------------------------------------------------------------------------
// 2. Fault injection
// ---------------------------------------------------------------------------

#[test]
fn every_fault_is_caught_as_its_property() {
    let faults: [(Fault, &[&str]); 9] = [
        (Fault::ReleaseEarly, &["P1"]),
        (Fault::NoBlock, &["P2"]),
        (Fault::DropTxn, &["P3"]),
        (Fault::DupTxn, &["P3"]),
        (Fault::CounterWrap, &["CNT", "P1"]),
        (Fault::NoCounterWait, &["P1"]),
        (Fault::CtaEarly, &["P1"]),
        (Fault::AcceptSpuriousAck, &["P7"]),
        (Fault::AcceptReservedOp, &["P7"]),
    ];
    let configs = variants();
    for (fault, expected) in faults {
        let mut found: Option<(u64, String, Violation)> = None;
        let mut seen: Vec<(u64, &str)> = Vec::new();
        let mut seed = 0u64;
        while found.is_none() && seed < 300 {
            let (name, cfg) = &configs[seed as usize % configs.len()];
            let mut env = Env::new(cfg, seed);
            let r = run_env(cfg, fault, &mut env, 20_000, true);
            if let Some(v) = r.violation {
                seen.push((seed, v.property));
                // Attribute it to the fault only if the real model, fed the
                // very same inputs, passes them (the scoreboard is sound for
                // any input sequence).
                if expected.contains(&v.property) && clean_model_passes(cfg, &r.trace) {
                    found = Some((seed, name.clone(), v));
                }
            }
            seed += 1;
        }
        let (s, name, v) = found.unwrap_or_else(|| {
            panic!("{fault:?} not caught as {expected:?} in seeds 0..{seed}; seen: {seen:?}")
        });
        eprintln!("{fault:?}: seed {s} config {name}: {v}   (violations seen: {seen:?})");
    }
}

/// A DUT that refuses every `every`-th LD/ST/ATOM/RED the model would see
/// (hiding it from the model): a P4 throughput bug.
struct Refuser {
    inner: MembarModel,
    every: u64,
    n: u64,
}

impl membar_unit_model::ports::Dut<membar_unit_model::ports::MembarUnitPorts> for Refuser {
    fn step(&mut self, i: &Inputs) -> Outputs {
        let mut j = *i;
        let hide = !i.reset && i.req_valid && op::is_txn(i.req_op & 7) && {
            self.n += 1;
            self.n.is_multiple_of(self.every)
        };
        j.req_valid &= !hide;
        self.inner.step(&j)
    }
    fn name(&self) -> &str {
        "refuser"
    }
}

/// Bugs no `Fault` models: a P4 refusal; a design whose coalescing window is
/// longer than configured (P5); a design that coalesces although configured
/// with `ways: 1` (P6). Each is caught as its property.
#[test]
fn p4_p5_p6_mutants_are_caught() {
    let d = Config::default();
    let cases: [(&str, Config, Config); 3] = [
        ("P4", d.clone(), d.clone()),
        (
            "P5",
            Config {
                coalesce_window: 40,
                ..d.clone()
            },
            d.clone(),
        ),
        (
            "P6",
            d.clone(),
            Config {
                ways: 1,
                ..d.clone()
            },
        ),
    ];
    for (prop, dut_cfg, sb_cfg) in cases {
        let mut found = None;
        let mut seen = Vec::new();
        for seed in 0..100u64 {
            let mut env = Env::new(&sb_cfg, seed);
            let mut model = MembarModel::new(&dut_cfg);
            let r = if prop == "P4" {
                run_dut(
                    &sb_cfg,
                    &mut Refuser {
                        inner: model,
                        every: 50,
                        n: 0,
                    },
                    &mut env,
                    20_000,
                    false,
                )
            } else {
                run_dut(&sb_cfg, &mut model, &mut env, 20_000, false)
            };
            if let Some(v) = r.violation {
                seen.push((seed, v.property));
                if v.property == prop {
                    found = Some((seed, v));
                    break;
                }
            }
        }
        let (seed, v) = found
            .unwrap_or_else(|| panic!("{prop} mutant not caught in seeds 0..100; seen {seen:?}"));
        eprintln!("{prop} mutant: seed {seed}: {v}   (violations seen: {seen:?})");
    }
}

/// The real model passes the scoreboard on this input trace.
fn clean_model_passes(cfg: &Config, trace: &[Inputs]) -> bool {
    let mut m = MembarModel::new(cfg);
    let mut sb = Scoreboard::new(cfg);
    trace.iter().enumerate().all(|(c, i)| {
        let o = m.step(i);
        sb.check(c as u64, i, &o).is_ok()
    })
}

// ---------------------------------------------------------------------------
// 3. Hand-built traces and directed runs
// ---------------------------------------------------------------------------

fn rst() -> Inputs {
    Inputs {
        reset: true,
        ..Inputs::default()
    }
}

fn req(warp: u8, opc: u8, lvl: u8, ivall: u8, id: u16) -> Inputs {
    Inputs {
        req_valid: true,
        req_warp: warp,
        req_op: opc,
        req_level: lvl,
        req_ivall: ivall,
        req_id: id,
        dn_ready: true,
        ..Inputs::default()
    }
}

fn idle() -> Inputs {
    Inputs {
        dn_ready: true,
        ..Inputs::default()
    }
}

fn txn_out(warp: u8, opc: u8, id: u16, tag: u8) -> Outputs {
    Outputs {
        dn_valid: true,
        dn_kind: kind::TXN,
        dn_tag: tag,
        dn_warp: warp,
        dn_op: opc,
        dn_id: id,
        ..Outputs::default()
    }
}

/// Feed a hand-built trace; return the first violation.
fn feed(cfg: &Config, trace: &[(Inputs, Outputs)]) -> Option<Violation> {
    let mut sb = Scoreboard::new(cfg);
    for (c, (i, o)) in trace.iter().enumerate() {
        if let Err(v) = sb.check(c as u64, i, o) {
            return Some(v);
        }
    }
    None
}

fn expect(cfg: &Config, trace: &[(Inputs, Outputs)], prop: &str, cycle: u64) -> Violation {
    let v = feed(cfg, trace)
        .unwrap_or_else(|| panic!("no violation, expected {prop} at cycle {cycle}"));
    assert_eq!((v.property, v.cycle), (prop, cycle), "{v}");
    v
}

#[test]
fn display_format() {
    let v = Violation {
        cycle: 123,
        property: "P1",
        warp: Some(5),
        reason: "released GL barrier while 2 prior transactions of tag 1 unacknowledged".into(),
    };
    assert_eq!(v.to_string(), "cycle 123: P1 warp 5: released GL barrier while 2 prior transactions of tag 1 unacknowledged");
    let v = Violation {
        cycle: 7,
        property: "P3",
        warp: None,
        reason: "x".into(),
    };
    assert_eq!(v.to_string(), "cycle 7: P3: x");
}

#[test]
fn unstable_command_while_stalled_is_p3() {
    let cfg = Config::default();
    let stalled = Inputs {
        dn_ready: false,
        ..Inputs::default()
    };
    let ok = vec![
        (rst(), Outputs::default()),
        (
            req(0, op::LD, 0, 0, 5),
            Outputs {
                req_ready: true,
                ..Outputs::default()
            },
        ),
        (stalled, txn_out(0, op::LD, 5, 0)),
        (idle(), txn_out(0, op::LD, 5, 0)),
    ];
    assert_eq!(feed(&cfg, &ok), None);
    let mut bad = ok.clone();
    bad[3].1.dn_id = 6;
    let v = expect(&cfg, &bad, "P3", 3);
    assert!(v.reason.contains("stalled"), "{v}");
    let mut bad = ok.clone();
    bad[3].1.dn_valid = false;
    expect(&cfg, &bad, "P3", 3);
}

#[test]
fn release_without_pending_membar_is_p2() {
    let cfg = Config::default();
    let tr = vec![
        (rst(), Outputs::default()),
        (
            idle(),
            Outputs {
                release_valid: true,
                release_mask: 1 << 3,
                ..Outputs::default()
            },
        ),
    ];
    let v = expect(&cfg, &tr, "P2", 1);
    assert_eq!(v.warp, Some(3));
    let tr = vec![
        (rst(), Outputs::default()),
        (
            idle(),
            Outputs {
                release_valid: true,
                ..Outputs::default()
            },
        ),
    ];
    expect(&cfg, &tr, "P2", 1);
    // warp_blocked must rise the cycle after a MEMBAR is accepted.
    let tr = vec![
        (rst(), Outputs::default()),
        (
            req(2, op::MEMBAR, level::CTA, 0, 0),
            Outputs {
                req_ready: true,
                ..Outputs::default()
            },
        ),
        (idle(), Outputs::default()),
    ];
    let v = expect(&cfg, &tr, "P2", 2);
    assert_eq!(v.warp, Some(2));
}

#[test]
fn missing_err_on_reserved_op_is_p7() {
    let cfg = Config::default();
    let tr = vec![
        (rst(), Outputs::default()),
        (req(1, 6, 0, 0, 0), Outputs::default()),
    ];
    expect(&cfg, &tr, "P7", 1);
    let tr = vec![
        (rst(), Outputs::default()),
        (
            req(1, 6, 0, 0, 0),
            Outputs {
                err: true,
                ..Outputs::default()
            },
        ),
    ];
    assert_eq!(feed(&cfg, &tr), None);
    let tr = vec![
        (rst(), Outputs::default()),
        (
            req(1, 6, 0, 0, 0),
            Outputs {
                err: true,
                req_ready: true,
                ..Outputs::default()
            },
        ),
    ];
    expect(&cfg, &tr, "P7", 1);
    // A spurious ack must pulse err; a non-spurious one must not.
    let tr = vec![
        (rst(), Outputs::default()),
        (
            Inputs {
                ack_valid: true,
                ack_tag: 2,
                ..idle()
            },
            Outputs::default(),
        ),
    ];
    expect(&cfg, &tr, "P7", 1);
}

#[test]
fn nonzero_output_during_reset_is_flagged() {
    let cfg = Config::default();
    let tr = vec![(
        rst(),
        Outputs {
            warp_blocked: 1,
            ..Outputs::default()
        },
    )];
    expect(&cfg, &tr, "P2", 0);
    let tr = vec![(
        rst(),
        Outputs {
            dn_valid: true,
            ..Outputs::default()
        },
    )];
    expect(&cfg, &tr, "P3", 0);
}

/// A GL warp released in the same cycle as the ack of its store: P1; a cycle
/// later: fine.
#[test]
fn gl_release_in_the_ack_cycle_is_p1() {
    let cfg = Config::default();
    let blocked = |m: u64| Outputs {
        warp_blocked: m,
        ..Outputs::default()
    };
    let bar = Outputs {
        dn_valid: true,
        dn_kind: kind::BARRIER,
        dn_level: level::GL,
        ..blocked(1)
    };
    let ack0 = Inputs {
        ack_valid: true,
        ack_tag: 0,
        ..idle()
    };
    let rel = Outputs {
        release_valid: true,
        release_mask: 1,
        ..blocked(1)
    };
    let base = vec![
        (rst(), Outputs::default()),
        (
            req(0, op::ST, 0, 0, 9),
            Outputs {
                req_ready: true,
                ..Outputs::default()
            },
        ),
        (
            req(0, op::MEMBAR, level::GL, 0, 0),
            Outputs {
                req_ready: true,
                ..txn_out(0, op::ST, 9, 0)
            },
        ),
        (idle(), blocked(1)),
        (idle(), bar),
    ];
    let mut early = base.clone();
    early.push((ack0, rel));
    let v = expect(&cfg, &early, "P1", 5);
    assert_eq!(v.warp, Some(0));
    assert!(v.reason.contains("tag 0"), "{v}");
    let mut ok = base.clone();
    ok.push((ack0, blocked(1)));
    ok.push((idle(), rel));
    ok.push((idle(), Outputs::default()));
    assert_eq!(feed(&cfg, &ok), None);
    // Without a BARRIER sent after the store, neither a VC nor a GL warp may
    // be released (a higher level implies the lower ones).
    for lvl in [level::VC, level::GL] {
        let mut nobar = base.clone();
        nobar[2].0.req_level = lvl;
        nobar[4].1 = blocked(1);
        nobar.push((ack0, blocked(1)));
        nobar.push((idle(), rel));
        let v = expect(&cfg, &nobar, "P1", 6);
        assert!(v.reason.contains("no BARRIER"), "{v}");
    }
    // The BARRIER that justifies a release must be of at least the warp's level.
    let mut low = ok.clone();
    low[4].1.dn_level = level::VC;
    let v = expect(&cfg, &low, "P1", 6);
    assert!(v.reason.contains("level >= GL"), "{v}");
}

/// A refused LD of a non-blocked warp, with the output free, no counter full
/// and no barrier command taking the slot next cycle: P4, reported at the
/// refusal cycle.
#[test]
fn refused_txn_without_excuse_is_p4() {
    let cfg = Config::default();
    let tr = vec![
        (rst(), Outputs::default()),
        (req(4, op::LD, 0, 0, 1), Outputs::default()),
        (idle(), Outputs::default()),
    ];
    let v = expect(&cfg, &tr, "P4", 1);
    assert_eq!(v.warp, Some(4));
    // Excused by a stalled output.
    let mut tr2 = vec![
        (rst(), Outputs::default()),
        (
            req(0, op::LD, 0, 0, 1),
            Outputs {
                req_ready: true,
                ..Outputs::default()
            },
        ),
        (
            Inputs {
                dn_ready: false,
                ..req(4, op::LD, 0, 0, 2)
            },
            txn_out(0, op::LD, 1, 0),
        ),
        (idle(), txn_out(0, op::LD, 1, 0)),
        (idle(), Outputs::default()),
    ];
    assert_eq!(feed(&cfg, &tr2), None);
    // A plain MEMBAR.CTA must never be refused.
    tr2.push((req(1, op::MEMBAR, 0, 0, 0), Outputs::default()));
    expect(&cfg, &tr2, "P4", 5);
}

#[test]
fn txn_never_sent_fails_finish() {
    let cfg = Config::default();
    let mut sb = Scoreboard::new(&cfg);
    sb.check(0, &rst(), &Outputs::default()).unwrap();
    sb.check(
        1,
        &req(0, op::LD, 0, 0, 1),
        &Outputs {
            req_ready: true,
            ..Outputs::default()
        },
    )
    .unwrap();
    let v = sb.finish(2).unwrap_err();
    assert_eq!(v.property, "P3", "{v}");
    // Sticky.
    assert_eq!(sb.check(3, &idle(), &Outputs::default()).unwrap_err(), v);
}

/// Drive the model with a fixed input sequence (everything else idle with
/// `dn_ready` high) through the scoreboard.
fn directed(cfg: &Config, n: u64, mut at: impl FnMut(u64) -> Inputs) -> Scoreboard {
    let mut m = MembarModel::new(cfg);
    let mut sb = Scoreboard::new(cfg);
    for c in 0..n {
        let i = if c == 0 { rst() } else { at(c) };
        let o = m.step(&i);
        sb.check(c, &i, &o).unwrap_or_else(|v| panic!("{v}"));
    }
    sb
}

/// P5, window case: a lone MEMBAR.VC in an idle unit; its BARRIER is
/// presented `lone_window + 3` cycles after acceptance, so `lone_window + 2`
/// quiescent pending cycles (`coalesce_window` 40 does not apply: nothing
/// older is outstanding). With `lone_window = coalesce_window` this is the
/// bound; the default's bound is reached behind an outstanding barrier.
#[test]
fn p5_window_case_reaches_bound() {
    for window in [0, 1, 5, 16, 40] {
        let cfg = Config {
            coalesce_window: 40,
            lone_window: window,
            ..Config::default()
        };
        let sb = directed(&cfg, 200, |c| {
            if c == 1 {
                req(0, op::MEMBAR, level::VC, 0, 0)
            } else {
                idle()
            }
        });
        assert_eq!(
            sb.max_quiescent_streak(),
            window as u64 + 2,
            "window {window}"
        );
        assert!(sb.max_quiescent_streak() <= sb.liveness_bound());
    }
}

/// P5, outstanding-limit case: with window 0 and `max_outstanding` 1, warp 1
/// waits in the open slot behind warp 0's GL barrier; after the last ack the
/// closed slot releases (+1), the open slot closes (+2), its BARRIER is loaded
/// (+3) and presented (+4): 3 quiescent pending cycles, more than window + 2.
#[test]
fn p5_outstanding_limit_case_needs_three() {
    let cfg = Config {
        coalesce_window: 0,
        max_outstanding: 1,
        ..Config::default()
    };
    let sb = directed(&cfg, 100, |c| match c {
        1 => req(0, op::LD, 0, 0, 7),
        3 => req(0, op::MEMBAR, level::GL, 0, 0),
        4 => req(1, op::MEMBAR, level::GL, 0, 0),
        30 => Inputs {
            ack_valid: true,
            ack_tag: 0,
            ..idle()
        },
        _ => idle(),
    });
    assert_eq!(sb.max_quiescent_streak(), 3);
    assert_eq!(sb.liveness_bound(), 3);
}

/// Scoreboard cost relative to the model (informational; run with --nocapture).
#[test]
fn scoreboard_cost() {
    let cfg = Config::default();
    let seed = 7;
    let n = 200_000u64;
    let mut env = Env::new(&cfg, seed);
    env.k = Knobs {
        p_bad: 0.0,
        p_reset: 0.0,
        ..env.k
    };
    let inputs: Vec<Inputs> = {
        // Record a trace once, then time model alone and model + scoreboard.
        let mut m = MembarModel::new(&cfg);
        (0..n)
            .map(|c| {
                let i = if c == 0 { rst() } else { env.drive(c) };
                let o = m.step(&i);
                env.observe(c, &i, &o);
                i
            })
            .collect()
    };
    let t0 = Instant::now();
    let mut m = MembarModel::new(&cfg);
    let mut x = 0u64;
    for i in &inputs {
        x = x.wrapping_add(m.step(i).release_mask);
    }
    let model = t0.elapsed();
    let t0 = Instant::now();
    let mut m = MembarModel::new(&cfg);
    let mut sb = Scoreboard::new(&cfg);
    for (c, i) in inputs.iter().enumerate() {
        let o = m.step(i);
        sb.check(c as u64, i, &o)
            .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
    }
    let both = t0.elapsed();
    eprintln!(
        "{n} cycles: model {:.1} ns/cycle, model+scoreboard {:.1} ns/cycle ({} checks) [{x}]",
        model.as_nanos() as f64 / n as f64,
        both.as_nanos() as f64 / n as f64,
        sb.checks()
    );
}

/// Regression test for a reference-model P1 bug this scoreboard caught (the
/// random sweep hit it first as seed 40, config `w8_k2_n1_c4_window0`, cycle
/// 2415; fixed in the model by "never reopen a slot whose counter is
/// non-zero"). A GL slot's release walk checks the counters of the slots
/// older than it in the ring, but never the open slot's: a slot released at
/// level VC (which does not wait for its counter) and reopened while TXNs
/// tagged in its previous use were unacknowledged hid them from a later GL
/// member whose prior TXNs carried that tag.
///
/// Here (K = 2, window 0): warp 1's LD gets tag 0; warp 0's MEMBAR.VC closes
/// slot 0, warp 1's MEMBAR.GL joins slot 1; slot 0 is released at VC with the
/// LD unacknowledged; slot 1 must not be released before the LD's ack (cycle
/// 30). The buggy model reopened slot 0 and released warp 1 in cycle 10.
#[test]
fn model_gl_waits_for_prior_txn_in_a_reused_slot() {
    let cfg = Config {
        warps: 8,
        slots: 2,
        ways: 1,
        counter_bits: 4,
        coalesce_window: 0,
        ..Config::default()
    };
    directed(&cfg, 40, |c| match c {
        1 => req(1, op::LD, 0, 0, 1),
        2 => req(0, op::MEMBAR, level::VC, 0, 0),
        3 => req(1, op::MEMBAR, level::GL, 0, 0),
        30 => Inputs {
            ack_valid: true,
            ack_tag: 0,
            ..idle()
        },
        _ => idle(),
    });
}

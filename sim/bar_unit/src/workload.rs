//! Named workload scenarios and the closed-loop environments that run them:
//!
//! - [`SmEnv`]: one SM's warps, each running a small program of barrier
//!   instructions (`bar.sync/arrive/red`, delays, exit) in a loop, driving
//!   the `bar_unit` golden model through its ports with the scoreboard and
//!   coverage attached. The environment holds the timing of everything
//!   around the unit ([`TimingConfig`]): arrivals reach the unit's port at
//!   most one per `arrival_interval` cycles, a released warp resumes after
//!   `release_latency` (+ the reduction path's latency for `bar.red`), and
//!   so on. [`TimingConfig`]'s `ideal()` preset makes all of it 0/1.
//! - [`ClusterEnv`]: N SMs of k warps each doing `barrier.cluster.arrive`
//!   (relaxed or with the `.release` GPU-scope fence) + `barrier.cluster.wait`
//!   in a loop through the `cluster_barrier` aggregator, with the cross-SM
//!   latency and the fence in the environment; it checks at warp level that
//!   no wait returns before every warp of the cluster arrived in its phase.
//!
//! Scenarios ([`bar_scenario`], names in [`BAR_SCENARIOS`]):
//! `syncthreads_loop`, `producer_consumer`, `warp_specialised`, `multi_cta`,
//! `red_votes`, `exit_early`, `count_sweep`; and [`cluster_handshake`].

use crate::bar_unit::BarUnitModel;
use crate::cluster_barrier::ClusterBarrierModel;
use crate::config::{BarConfig, ClusterConfig, InputError, TimingConfig};
use crate::coverage::{BarCoverage, ClusterCoverage};
use crate::ports::{ctl, op, BarInputs, BarOutputs, ClusterInputs};
use crate::scoreboard::{BarScoreboard, ClusterScoreboard, Violation};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

impl TimingConfig {
    /// No environment latency: arrivals may come every cycle, released warps
    /// issue again the next cycle. For functional scenarios.
    pub fn ideal() -> TimingConfig {
        TimingConfig {
            arrival_interval: 1,
            red_arrival_interval: 1,
            release_latency: 0,
            red_popc_latency: 0,
            red_pred_latency: 0,
            loop_overhead: 0,
            count_overhead: 0,
            cross_sm_tpc: 0,
            cross_sm_gpc: 0,
            cluster_local: 0,
            fence_gpu: 0,
            fence_serial: 0,
        }
    }
}

/// Predicate a warp supplies to `bar.red`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pred {
    Fixed(u32),
    /// Random per issue (seeded).
    Random,
}

/// One instruction of a warp program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// A barrier op; `count` None = no `b` operand.
    Bar {
        op: u8,
        id: u8,
        count: Option<u8>,
        pred: Pred,
    },
    /// Idle this many cycles.
    Delay(u32),
    /// The warp exits (through the ctl port).
    Exit,
}

/// Shorthand for `bar.sync id{, count}` with an immediate count.
pub fn sync(id: u8, count: Option<u8>) -> Instr {
    Instr::Bar {
        op: op::SYNC,
        id,
        count,
        pred: Pred::Fixed(0),
    }
}

/// Shorthand for `bar.arrive id, count`.
pub fn arrive(id: u8, count: u8) -> Instr {
    Instr::Bar {
        op: op::ARRIVE,
        id,
        count: Some(count),
        pred: Pred::Fixed(0),
    }
}

/// A warp and its program, repeated `iterations` times (then the warp stops, or exits if the program says so).
#[derive(Clone, Debug)]
pub struct WarpProgram {
    pub warp: u8,
    pub prog: Vec<Instr>,
    pub iterations: u32,
}

/// A named scenario: configuration, CTAs to launch, warp programs.
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: String,
    pub cfg: BarConfig,
    /// (slot, warps) launched at the start.
    pub ctas: Vec<(u8, u64)>,
    pub programs: Vec<WarpProgram>,
}

/// Idle cycles after the last event: an exit that completes an "all"
/// barrier releases its waiters 3 cycles after it was taken (B7), an
/// arrival's release and a request's `err` come sooner.
const DRAIN: u64 = 3;

/// A request the unit took, until its `err` (or none) comes the next cycle.
#[derive(Clone, Copy, Debug)]
struct TakenReq {
    warp: usize,
    op: u8,
    pred: u32,
    /// Its barrier: slot × 16 + id.
    idx: usize,
}

#[derive(Clone, Copy, Debug, Default)]
struct WarpCtx {
    pc: usize,
    iter: u32,
    ready_at: u64,
    blocked: bool,
    done: bool,
}

/// Result of running a scenario.
#[derive(Clone, Debug)]
pub struct RunResult {
    pub cycles: u64,
    pub arrivals: u64,
    pub releases: u64,
    pub errors: u64,
    /// Per warp: cycles at which it resumed after a blocking barrier.
    pub resumes: Vec<Vec<u64>>,
    /// Reduction results seen (rel_op, rel_result), in order.
    pub red_results: Vec<(u8, u32)>,
    /// Every reduction's result equalled the value computed from the predicates issued.
    pub red_mismatches: u64,
    pub all_done: bool,
    pub violation: Option<Violation>,
    pub coverage: BarCoverage,
    /// With a shadow implementation ([`SmEnv::with_shadow`]): the first cycle
    /// where its outputs differed from the model's (cycle, port, model, shadow).
    pub shadow_mismatch: Option<(u64, &'static str, u64, u64)>,
}

impl RunResult {
    /// Median period between consecutive resumes of warp `w`, skipping the first `skip`.
    pub fn median_period(&self, w: usize, skip: usize) -> Option<f64> {
        let r = &self.resumes[w];
        let mut d: Vec<u64> = r.windows(2).skip(skip).map(|x| x[1] - x[0]).collect();
        if d.is_empty() {
            return None;
        }
        d.sort_unstable();
        let n = d.len();
        Some(if n % 2 == 1 {
            d[n / 2] as f64
        } else {
            (d[n / 2 - 1] + d[n / 2]) as f64 / 2.0
        })
    }
}

/// One SM running warp programs against the `bar_unit` golden model.
pub struct SmEnv {
    pub scenario: Scenario,
    pub timing: TimingConfig,
    pub model: BarUnitModel,
    sb: BarScoreboard,
    cov: BarCoverage,
    warps: Vec<WarpCtx>,
    prog_of: Vec<Option<usize>>,
    rng: ChaCha8Rng,
    port_free_at: u64,
    pending_ctl: Vec<BarInputs>,
    /// Per (slot, id) open phase: expected reduction accumulators.
    red_acc: Vec<(u32, bool, bool)>,
    /// An implementation (RTL, Verilog) stepped in lockstep with the model.
    shadow: Option<Box<dyn unit_ports::Dut<crate::ports::BarUnitPorts>>>,
    shadow_mismatch: Option<(u64, &'static str, u64, u64)>,
    cycle: u64,
}

impl SmEnv {
    pub fn new(scenario: Scenario, timing: TimingConfig, seed: u64) -> SmEnv {
        let cfg = scenario.cfg;
        let mut prog_of = vec![None; cfg.warps as usize];
        for (k, p) in scenario.programs.iter().enumerate() {
            prog_of[p.warp as usize] = Some(k);
        }
        let pending_ctl = scenario
            .ctas
            .iter()
            .map(|&(slot, warps)| BarInputs {
                ctl_valid: true,
                ctl_op: ctl::LAUNCH,
                ctl_slot: slot,
                ctl_warps: warps,
                ..Default::default()
            })
            .rev()
            .collect();
        SmEnv {
            model: BarUnitModel::new(cfg),
            sb: BarScoreboard::new(&cfg),
            cov: BarCoverage::new(&cfg),
            warps: vec![WarpCtx::default(); cfg.warps as usize],
            prog_of,
            rng: ChaCha8Rng::seed_from_u64(seed),
            port_free_at: 0,
            pending_ctl,
            red_acc: vec![(0, true, false); cfg.cta_slots as usize * 16],
            timing,
            scenario,
            shadow: None,
            shadow_mismatch: None,
            cycle: 0,
        }
    }

    /// Steps `dut` (an implementation of `bar_unit` for the same
    /// configuration) in lockstep with the model on the scenario's inputs;
    /// the first output difference is reported in `RunResult::shadow_mismatch`.
    pub fn with_shadow(
        mut self,
        dut: Box<dyn unit_ports::Dut<crate::ports::BarUnitPorts>>,
    ) -> SmEnv {
        self.shadow = Some(dut);
        self
    }

    /// One cycle of the model (and the shadow); samples coverage.
    fn step_unit(&mut self, i: &BarInputs) -> BarOutputs {
        use unit_ports::PortBundle;
        let before = self.model.state.clone();
        let o = self.model.step(i);
        self.cov.sample(&before, i, &o);
        if let Some(d) = self.shadow.as_mut() {
            let od = d.step(i);
            if self.shadow_mismatch.is_none() {
                if let Some((port, m, v)) = o.first_difference(&od) {
                    self.shadow_mismatch = Some((self.cycle, port, m, v));
                }
            }
        }
        self.cycle += 1;
        o
    }

    fn issue_cost(&self, ins: &Instr) -> u64 {
        let t = &self.timing;
        match ins {
            Instr::Bar { count: Some(_), .. } => (t.loop_overhead + t.count_overhead) as u64,
            _ => t.loop_overhead as u64,
        }
    }

    /// Runs until every program finished (or `max_cycles`).
    pub fn run(mut self, max_cycles: u64) -> RunResult {
        let cfg = self.scenario.cfg;
        let nw = cfg.warps as usize;
        let mut res = RunResult {
            cycles: 0,
            arrivals: 0,
            releases: 0,
            errors: 0,
            resumes: vec![vec![]; nw],
            red_results: vec![],
            red_mismatches: 0,
            all_done: false,
            violation: None,
            coverage: BarCoverage::new(&cfg),
            shadow_mismatch: None,
        };
        for w in 0..nw {
            if self.prog_of[w].is_none() {
                self.warps[w].done = true;
            }
        }
        let mut expected_red: Vec<Option<(u8, u32)>> = vec![None; cfg.cta_slots as usize * 16];
        // The request taken last cycle: its `err` comes this cycle (stage B
        // checks it), so only now is it known to be an arrival.
        let mut taken: Option<TakenReq> = None;
        // Once every program finished (or `max_cycles` ran out): the cycle at
        // which the idle cycles that let the last events drain end.
        let mut drain_until: Option<u64> = None;
        for now in 0.. {
            if drain_until.is_some_and(|d| now >= d) {
                break;
            }
            if drain_until.is_none() && now >= max_cycles {
                drain_until = Some(now + DRAIN);
            }
            let draining = drain_until.is_some();
            let mut i = BarInputs::default();
            // Exits requested by programs, then launches, have priority.
            for w in 0..nw {
                let c = self.warps[w];
                if draining || c.done || c.blocked || c.ready_at > now {
                    continue;
                }
                let p = &self.scenario.programs[self.prog_of[w].unwrap()];
                if p.prog[c.pc] == Instr::Exit {
                    self.pending_ctl.insert(
                        0,
                        BarInputs {
                            ctl_valid: true,
                            ctl_op: ctl::EXIT,
                            ctl_warp: w as u8,
                            ..Default::default()
                        },
                    );
                    self.warps[w].done = true;
                }
            }
            let launching = !self.pending_ctl.is_empty()
                && self.pending_ctl.last().unwrap().ctl_op == ctl::LAUNCH;
            if !draining {
                if let Some(c) = self.pending_ctl.pop() {
                    i = c;
                }
            }
            // Pick the warp whose barrier has waited longest for the port.
            // (A request the unit refuses — the cycle after a ctl event — is
            // simply presented again.)
            let mut chosen = None;
            if !draining && !i.ctl_valid && !launching && self.port_free_at <= now {
                let mut best: Option<(u64, usize)> = None;
                for w in 0..nw {
                    let c = self.warps[w];
                    if c.done || c.blocked || c.ready_at > now {
                        continue;
                    }
                    let p = &self.scenario.programs[self.prog_of[w].unwrap()];
                    if let Instr::Bar { .. } = p.prog[c.pc] {
                        if best.is_none_or(|(t, _)| c.ready_at < t) {
                            best = Some((c.ready_at, w));
                        }
                    }
                }
                if let Some((_, w)) = best {
                    let p = &self.scenario.programs[self.prog_of[w].unwrap()];
                    if let Instr::Bar {
                        op: o,
                        id,
                        count,
                        pred,
                        ..
                    } = p.prog[self.warps[w].pc]
                    {
                        i.req_valid = true;
                        i.req_warp = w as u8;
                        i.req_op = o;
                        i.req_id = id;
                        i.req_all = count.is_none();
                        i.req_count = count.unwrap_or(0);
                        i.req_pred = match pred {
                            Pred::Fixed(x) => x,
                            Pred::Random => match self.rng.gen_range(0..3) {
                                0 => 0,
                                1 => u32::MAX,
                                _ => self.rng.gen(),
                            },
                        };
                        chosen = Some(w);
                    }
                }
            }
            let before = self.model.state.clone();
            let o: BarOutputs = self.step_unit(&i);
            if let Err(v) = self.sb.check(&i, &o) {
                res.violation = Some(v);
                if !draining {
                    res.cycles = now + 1;
                }
                break;
            }
            if o.err {
                res.errors += 1;
            }
            if o.rel_valid {
                res.releases += 1;
                let idx = o.rel_slot as usize * 16 + o.rel_id as usize;
                if o.rel_op != 0 {
                    res.red_results.push((o.rel_op, o.rel_result));
                    if let Some((k, v)) = expected_red[idx] {
                        if k != o.rel_op || v != o.rel_result {
                            res.red_mismatches += 1;
                        }
                    }
                }
                expected_red[idx] = None;
                self.red_acc[idx] = (0, true, false);
                let extra = match o.rel_op {
                    op::RED_POPC => self.timing.red_popc_latency,
                    op::RED_AND | op::RED_OR => self.timing.red_pred_latency,
                    _ => 0,
                } as u64;
                for w in 0..nw {
                    if o.rel_mask >> w & 1 == 1 {
                        let resume = now + 1 + self.timing.release_latency as u64 + extra;
                        res.resumes[w].push(resume);
                        self.warps[w].blocked = false;
                        self.advance(w, resume);
                    }
                }
            }
            // Last cycle's request: `err` now says whether it was an arrival.
            // (After this cycle's release: an arrival taken in the cycle
            // after a barrier's last one belongs to its next phase.)
            if let Some(t) = taken.take() {
                if o.err {
                    // A bad request is consumed and changes nothing: the
                    // warp is not blocked and goes on past it.
                    if op::blocks(t.op) {
                        self.warps[t.warp].blocked = false;
                        self.advance(t.warp, now);
                    }
                } else {
                    res.arrivals += 1;
                    let a = &mut self.red_acc[t.idx];
                    a.0 += t.pred.count_ones();
                    a.1 &= t.pred == u32::MAX;
                    a.2 |= t.pred != 0;
                    if op::is_red(t.op) {
                        let v = match t.op {
                            op::RED_POPC => a.0,
                            op::RED_AND => a.1 as u32,
                            _ => a.2 as u32,
                        };
                        expected_red[t.idx] = Some((t.op, v));
                    }
                }
            }
            if let Some(w) = chosen {
                if o.req_ready {
                    let interval = if op::is_red(i.req_op) {
                        self.timing.red_arrival_interval
                    } else {
                        self.timing.arrival_interval
                    };
                    self.port_free_at = now + interval as u64;
                    let slot = before.warp_slot[w] as usize;
                    taken = Some(TakenReq {
                        warp: w,
                        op: i.req_op,
                        pred: i.req_pred,
                        idx: slot * 16 + i.req_id as usize,
                    });
                    if op::blocks(i.req_op) {
                        // Blocked until its release (or its `err` next cycle).
                        self.warps[w].blocked = true;
                    } else {
                        self.advance(w, now + 1);
                    }
                }
            }
            if draining {
                continue;
            }
            // Delays.
            for w in 0..nw {
                let c = self.warps[w];
                if c.done || c.blocked || c.ready_at > now {
                    continue;
                }
                let p = &self.scenario.programs[self.prog_of[w].unwrap()];
                if let Instr::Delay(d) = p.prog[c.pc] {
                    self.advance(w, now + d as u64);
                }
            }
            res.cycles = now + 1;
            if self.warps.iter().all(|c| c.done) && self.pending_ctl.is_empty() {
                res.all_done = true;
                // Let the last events drain.
                drain_until = Some(now + 1 + DRAIN);
            }
        }
        if res.violation.is_none() {
            if let Err(v) = self.sb.finish() {
                res.violation = Some(v);
            }
        }
        res.coverage = self.cov.clone();
        res.shadow_mismatch = self.shadow_mismatch;
        res
    }

    /// Moves warp `w` past its current instruction; it may issue the next at `t` + its issue cost.
    fn advance(&mut self, w: usize, t: u64) {
        let p = &self.scenario.programs[self.prog_of[w].unwrap()];
        let c = &mut self.warps[w];
        c.pc += 1;
        if c.pc == p.prog.len() {
            c.pc = 0;
            c.iter += 1;
            if c.iter >= p.iterations {
                c.done = true;
                return;
            }
        }
        let next = p.prog[c.pc];
        let cost = self.issue_cost(&next);
        self.warps[w].ready_at = t + cost;
    }
}

/// Names of the built-in `bar_unit` scenarios.
pub const BAR_SCENARIOS: &[&str] = &[
    "syncthreads_loop",
    "producer_consumer",
    "warp_specialised",
    "multi_cta",
    "red_votes",
    "exit_early",
    "count_sweep",
];

fn mask(lo: u32, n: u32) -> u64 {
    (if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }) << lo
}

/// A built-in scenario for configuration `cfg`; unknown names are an error naming the allowed ones.
pub fn bar_scenario(name: &str, cfg: &BarConfig, iterations: u32) -> Result<Scenario, InputError> {
    let w = cfg.warps;
    let it = iterations;
    let mut s = Scenario {
        name: name.to_string(),
        cfg: *cfg,
        ctas: vec![],
        programs: vec![],
    };
    match name {
        "syncthreads_loop" => {
            s.ctas.push((0, mask(0, w)));
            for k in 0..w {
                s.programs.push(WarpProgram {
                    warp: k as u8,
                    prog: vec![sync(0, None)],
                    iterations: it,
                });
            }
        }
        "producer_consumer" => {
            // PTX example: producer arrives on 0 and syncs on 1; consumer the reverse.
            s.ctas.push((0, 0b11));
            s.programs.push(WarpProgram {
                warp: 0,
                prog: vec![arrive(0, 2), Instr::Delay(3), sync(1, Some(2))],
                iterations: it,
            });
            s.programs.push(WarpProgram {
                warp: 1,
                prog: vec![sync(0, Some(2)), Instr::Delay(2), arrive(1, 2)],
                iterations: it,
            });
        }
        "warp_specialised" => {
            // One producer warp, the rest consumers, 8 pipeline stages on ids
            // 2s (full) and 2s+1 (empty): all 16 ids in use.
            let n = w.min(16);
            s.ctas.push((0, mask(0, n)));
            let m = (n - 1) as u8;
            let mut prod = vec![];
            let mut cons = vec![];
            for st in 0..8u8 {
                prod.push(arrive(2 * st, m + 1));
                prod.push(sync(2 * st + 1, Some(m + 1)));
                cons.push(sync(2 * st, Some(m + 1)));
                cons.push(Instr::Delay(1));
                cons.push(arrive(2 * st + 1, m + 1));
            }
            s.programs.push(WarpProgram {
                warp: 0,
                prog: prod,
                iterations: it,
            });
            for k in 1..n {
                s.programs.push(WarpProgram {
                    warp: k as u8,
                    prog: cons.clone(),
                    iterations: it,
                });
            }
        }
        "multi_cta" => {
            // Every CTA slot busy; each CTA loops on its own id with its own form.
            let per = (w / cfg.cta_slots).max(1);
            for c in 0..cfg.cta_slots {
                s.ctas.push((c as u8, mask(c * per, per)));
                for k in 0..per {
                    let id = (c % 16) as u8;
                    let prog = if c % 2 == 0 {
                        vec![sync(id, None), sync(15 - id, Some(per as u8))]
                    } else {
                        vec![sync(id, Some(per as u8)), Instr::Delay(c)]
                    };
                    s.programs.push(WarpProgram {
                        warp: (c * per + k) as u8,
                        prog,
                        iterations: it,
                    });
                }
            }
        }
        "red_votes" => {
            let n = w.min(8);
            s.ctas.push((0, mask(0, n)));
            for k in 0..n {
                let red = |o, id| Instr::Bar {
                    op: o,
                    id,
                    count: None,
                    pred: Pred::Random,
                };
                s.programs.push(WarpProgram {
                    warp: k as u8,
                    prog: vec![
                        red(op::RED_POPC, 1),
                        red(op::RED_AND, 2),
                        red(op::RED_OR, 3),
                    ],
                    iterations: it,
                });
            }
        }
        "exit_early" => {
            // Half the CTA exits at different times while the rest wait on bar 0 (no count).
            let n = w.min(8);
            s.ctas.push((0, mask(0, n)));
            for k in 0..n {
                let prog = if k < n / 2 {
                    vec![sync(0, None), Instr::Delay(1)]
                } else {
                    vec![Instr::Delay(5 * (k + 1)), Instr::Exit]
                };
                s.programs.push(WarpProgram {
                    warp: k as u8,
                    prog,
                    iterations: if k < n / 2 { it } else { 1 },
                });
            }
        }
        "count_sweep" => {
            // Barrier n with count n: warps 0..n-1, for n = 1..=W, in rounds of
            // 15 (ids 1..15) separated by a whole-CTA `bar.sync 0`.
            s.ctas.push((0, mask(0, w)));
            let rounds = w.div_ceil(15);
            for k in 0..w {
                let mut prog = vec![];
                for r in 0..rounds {
                    for n in (15 * r + 1)..=(15 * r + 15).min(w) {
                        if k < n {
                            prog.push(sync(((n - 1) % 15 + 1) as u8, Some(n as u8)));
                        }
                    }
                    prog.push(sync(0, None));
                }
                s.programs.push(WarpProgram {
                    warp: k as u8,
                    prog,
                    iterations: 1,
                });
            }
        }
        _ => {
            return Err(InputError {
                source: "<scenario>".into(),
                key: "workload".into(),
                value: name.into(),
                allowed: BAR_SCENARIOS.join(", "),
            })
        }
    }
    Ok(s)
}

// ---------------------------------------------------------------------------
// Cluster handshake
// ---------------------------------------------------------------------------

/// Result of a cluster run.
#[derive(Clone, Debug)]
pub struct ClusterRunResult {
    pub cycles: u64,
    pub phases: u64,
    /// Per (rank, warp): cycles at which its wait returned.
    pub resumes: Vec<Vec<u64>>,
    pub violation: Option<Violation>,
    /// Warp-level check: a wait returned before every warp of the cluster arrived in its phase.
    pub early_waits: u64,
    pub coverage: ClusterCoverage,
}

/// `ranks` SMs with one CTA of `k` warps each; every warp loops
/// `arrive{.relaxed}` + `wait`; `release` adds the GPU-scope fence.
pub fn cluster_handshake(
    ranks: u32,
    k: u32,
    release: bool,
    t: &TimingConfig,
    iterations: u32,
) -> ClusterRunResult {
    let cfg = ClusterConfig { ranks };
    let mut agg = ClusterBarrierModel::new(cfg);
    let mut sb = ClusterScoreboard::new(&cfg);
    let mut cov = ClusterCoverage::new(&cfg);
    let hop = if ranks <= 2 {
        t.cross_sm_tpc
    } else {
        t.cross_sm_gpc
    } as u64;
    let n = (ranks * k) as usize;
    // Per warp: next arrive issue time, waiting phase parity, iterations.
    let mut ready_at = vec![0u64; n];
    let mut waiting: Vec<Option<u64>> = vec![None; n]; // phase index waited for
    let mut iters = vec![0u32; n];
    let mut resumes = vec![vec![]; n];
    // Per SM: local arrivals this phase, port free time, fence state.
    let mut local = vec![0u32; ranks as usize];
    let mut port_free = vec![0u64; ranks as usize];
    let mut fence_done: Vec<Option<u64>> = vec![None; ranks as usize];
    let mut fence_members: Vec<Vec<usize>> = vec![vec![]; ranks as usize];
    let mut fabric_free = 0u64;
    let mut queued: Vec<Vec<usize>> = vec![vec![]; ranks as usize]; // warps ready to arrive (fenced)
    let mut arv_line: Vec<(u64, u32)> = vec![]; // (arrival time at aggregator, rank)
    let mut done_line: Vec<(u64, u64)> = vec![]; // (time seen by SMs, phase index)
    let mut phase_idx = 0u64; // phases completed so far, as seen by the SMs
    let mut agg_phase = 0u64;
    let mut arrived_in: Vec<u64> = vec![0; 1]; // per phase index: warps arrived
    let mut my_phase = vec![0u64; n]; // phase index each warp arrives in next
    let mut early = 0u64;
    let mut violation = None;
    let mut cycles = 0;
    let mut phases = 0;
    let limit = 2_000_000u64;
    for now in 0..limit {
        cycles = now + 1;
        // Warps issue arrive (after fence for .release).
        for wi in 0..n {
            let r = wi / k as usize;
            if waiting[wi].is_some() || iters[wi] >= iterations || ready_at[wi] > now {
                continue;
            }
            if queued[r].contains(&wi) || fence_members[r].contains(&wi) {
                continue;
            }
            if release {
                if fence_done[r].is_none() {
                    let admit = now.max(fabric_free);
                    fabric_free = admit + t.fence_serial as u64;
                    fence_done[r] = Some(admit + t.fence_gpu as u64);
                }
                fence_members[r].push(wi);
            } else {
                queued[r].push(wi);
            }
        }
        for r in 0..ranks as usize {
            if let Some(d) = fence_done[r] {
                if d <= now {
                    queued[r].append(&mut fence_members[r]);
                    fence_done[r] = None;
                }
            }
            // Local arrival port: one warp per arrival_interval.
            if !queued[r].is_empty() && port_free[r] <= now {
                let wi = queued[r].remove(0);
                port_free[r] = now + t.arrival_interval as u64;
                let p = my_phase[wi];
                while arrived_in.len() as u64 <= p {
                    arrived_in.push(0);
                }
                arrived_in[p as usize] += 1;
                waiting[wi] = Some(p);
                my_phase[wi] += 1;
                local[r] += 1;
                if local[r] == k {
                    local[r] = 0;
                    arv_line.push((now + hop, r as u32));
                }
            }
        }
        let mut i = ClusterInputs::default();
        arv_line.retain(|&(at, r)| {
            if at <= now {
                i.arv |= 1 << r;
                false
            } else {
                true
            }
        });
        let o = agg.step(&i);
        cov.sample(&i, &o);
        if let Err(v) = sb.check(&i, &o) {
            violation = Some(v);
            break;
        }
        if o.done {
            phases += 1;
            done_line.push((now + hop, agg_phase));
            agg_phase += 1;
        }
        done_line.retain(|&(at, p)| {
            if at <= now {
                phase_idx = phase_idx.max(p + 1);
                false
            } else {
                true
            }
        });
        for wi in 0..n {
            if let Some(p) = waiting[wi] {
                if p < phase_idx {
                    if arrived_in[p as usize] < n as u64 {
                        early += 1;
                    }
                    waiting[wi] = None;
                    let resume = now + t.cluster_local as u64;
                    resumes[wi].push(resume);
                    iters[wi] += 1;
                    ready_at[wi] = resume + t.loop_overhead as u64;
                }
            }
        }
        if iters.iter().all(|&x| x >= iterations) {
            break;
        }
    }
    ClusterRunResult {
        cycles,
        phases,
        resumes,
        violation,
        early_waits: early,
        coverage: cov,
    }
}

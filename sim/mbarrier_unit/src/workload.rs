//! Stimulus for both blocks:
//!
//! - [`MbarRandomEnv`] / [`GroupRandomEnv`]: seeded (ChaCha8) random legal
//!   and illegal stimulus that reacts to the unit's outputs like warps would
//!   (a warp waits for its response and wake before its next op, remembers
//!   the token of its last arrive per barrier and waits on it), with a copy
//!   engine paying tx-count, remote arrives, bad inputs and resets.
//! - Kernel-like programs ([`Instr`]) run by [`KernelRunner`] on both units,
//!   the copy engine and an SM front end ([`FrontEnd`]: issue and return
//!   latencies, op interval, wake delivery). Named scenarios:
//!   [`tma_pipeline`] (double-buffered TMA producer/consumer on full/empty
//!   barriers), [`split_k`] (split-K partial tiles reduced through a
//!   barrier), [`bulk_store_groups`] (bulk stores in groups with
//!   `wait_group`). The H100 timing preset (`timing.rs`) runs its
//!   micro-benchmarks through the same runner.

use crate::async_groups::AsyncGroupsModel;
use crate::config::Config;
use crate::copy_engine::{CopyEngine, CopyTiming, Request};
use crate::mbarrier_unit::MbarrierModel;
use crate::ports::async_groups as ag;
use crate::ports::mbarrier::{op, Inputs, Outputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

// ---------------------------------------------------------------------------
// Random stimulus: mbarrier unit
// ---------------------------------------------------------------------------

/// Per-seed knobs of the random mbarrier stimulus.
#[derive(Clone, Copy, Debug)]
pub struct MbarKnobs {
    pub active_warps: u32,
    pub active_entries: u32,
    pub p_op: f64,
    /// Largest init count used (small counts complete phases often).
    pub max_init: u32,
    pub p_bad: f64,
    pub p_rarv: f64,
    pub p_reset: f64,
    /// Probability a tx payment goes through the copy engine (vs explicit complete_tx).
    pub p_copy: f64,
    /// Probability of paying bytes before their expect_tx.
    pub p_early_tx: f64,
    /// Share of try_wait among the waits (the rest test_wait).
    pub p_try: f64,
}

impl MbarKnobs {
    pub fn random(rng: &mut ChaCha8Rng, cfg: &Config) -> Self {
        let pick = |rng: &mut ChaCha8Rng, v: &[f64]| v[rng.gen_range(0..v.len())];
        MbarKnobs {
            active_warps: [2, 4, 8, cfg.warps][rng.gen_range(0..4)].min(cfg.warps),
            active_entries: [1, 2, 4, cfg.entries][rng.gen_range(0..4)].min(cfg.entries),
            p_op: pick(rng, &[0.3, 0.7, 1.0]),
            max_init: [1, 2, 4, 8][rng.gen_range(0..4)].min(cfg.max_count()),
            p_bad: pick(rng, &[0.0, 0.01, 0.05]),
            p_rarv: pick(rng, &[0.0, 0.05, 0.2]),
            p_reset: if rng.gen_bool(0.2) { 1.0 / 4000.0 } else { 0.0 },
            p_copy: pick(rng, &[0.0, 0.5, 1.0]),
            p_early_tx: pick(rng, &[0.0, 0.1, 0.3]),
            p_try: pick(rng, &[0.3, 0.6, 0.9]),
        }
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct EnvWarp {
    /// Waiting for the response to its last op.
    busy: bool,
    /// Entry of that op.
    entry: u8,
    /// Suspended (answer will come on `wake_*`).
    susp: bool,
}

/// Seeded random legal + illegal stimulus for `mbarrier_unit`.
pub struct MbarRandomEnv {
    pub cfg: Config,
    pub rng: ChaCha8Rng,
    pub k: MbarKnobs,
    warps: Vec<EnvWarp>,
    /// Per entry: the program believes it is initialised, with this count.
    init: Vec<Option<u32>>,
    /// Per warp × entry: token of the last arrive.
    token: Vec<Vec<bool>>,
    /// Per entry: bytes announced (expect_tx) but not yet paid.
    owed: Vec<u32>,
    copy: CopyEngine,
    explicit_pay: VecDeque<(u8, u32)>,
    /// The copy engine's reports not yet taken (`ctx_ready`), oldest first.
    ctx_queue: VecDeque<(u8, u32)>,
    /// The op presented and not taken (`op_ready`): presented again; or an
    /// op held back until a cycle (`held_from`).
    held_op: Option<Inputs>,
    held_from: u64,
}

impl MbarRandomEnv {
    pub fn new(cfg: &Config, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let k = MbarKnobs::random(&mut rng, cfg);
        Self::with_knobs(cfg, rng, k)
    }
    pub fn with_knobs(cfg: &Config, rng: ChaCha8Rng, k: MbarKnobs) -> Self {
        let mut ct = CopyTiming::functional();
        ct.chunk_bytes = 64;
        MbarRandomEnv {
            cfg: *cfg,
            rng,
            k,
            warps: vec![EnvWarp::default(); cfg.warps as usize],
            init: vec![None; cfg.entries as usize],
            token: vec![vec![false; cfg.entries as usize]; cfg.warps as usize],
            owed: vec![0; cfg.entries as usize],
            copy: CopyEngine::new(ct),
            explicit_pay: VecDeque::new(),
            ctx_queue: VecDeque::new(),
            held_op: None,
            held_from: 0,
        }
    }
    fn clear(&mut self) {
        let cfg = self.cfg;
        self.warps = vec![EnvWarp::default(); cfg.warps as usize];
        self.init = vec![None; cfg.entries as usize];
        self.owed = vec![0; cfg.entries as usize];
        self.copy = CopyEngine::new(self.copy.t);
        self.explicit_pay.clear();
        self.ctx_queue.clear();
        self.held_op = None;
    }

    /// A count operand for bad input: an edge value (0, the largest legal
    /// count, one above it, the port's largest) or any value the port holds,
    /// so that bad counts come up whatever `count_bits` is.
    fn bad_count(&mut self) -> u32 {
        let maxc = self.cfg.max_count();
        match self.rng.gen_range(0..5) {
            0 => 0,
            1 => maxc,
            2 => maxc + 1,
            3 => 2 * maxc + 1,
            _ => self.rng.gen_range(0..=2 * maxc + 1),
        }
    }

    /// Inputs for cycle `c`.
    pub fn drive(&mut self, c: u64) -> Inputs {
        let mut i = Inputs::default();
        if self.k.p_reset > 0.0 && self.rng.gen_bool(self.k.p_reset) {
            self.clear();
            i.reset = true;
            return i;
        }
        // The copy engine's reports queue until the unit takes them.
        let rep = self.copy.tick(c);
        if let Some(r) = rep.ctx {
            self.ctx_queue.push_back(r);
        }
        if let Some(&(e, b)) = self.ctx_queue.front() {
            i.ctx_valid = true;
            i.ctx_entry = e;
            i.ctx_bytes = b;
        }
        let ne = self.k.active_entries;
        let bad = self.k.p_bad > 0.0 && self.rng.gen_bool(self.k.p_bad);
        if bad && !i.ctx_valid && self.rng.gen_bool(0.25) {
            // An over-range byte count on the copy engine's port: refused,
            // so the copy engine's own accounting is unaffected.
            let m = self.cfg.max_tx() as u32;
            i.ctx_valid = true;
            i.ctx_entry = self.rng.gen_range(0..self.k.active_entries) as u8;
            i.ctx_bytes = self.rng.gen_range(m + 1..=2 * m + 1);
        }
        if self.k.p_rarv > 0.0 && self.rng.gen_bool(self.k.p_rarv) {
            i.rarv_valid = true;
            i.rarv_entry = self.rng.gen_range(0..ne) as u8;
            i.rarv_count = if bad { self.bad_count() } else { 1 };
        }
        // An op not taken is presented again (its warp waits for it).
        if let Some(h) = self.held_op {
            if c < self.held_from {
                return i;
            }
            i.set_op(&h);
            return i;
        }
        if !self.rng.gen_bool(self.k.p_op) {
            return i;
        }
        let w = self.rng.gen_range(0..self.k.active_warps) as usize;
        if (self.warps[w].busy || self.warps[w].susp) && !bad {
            return i;
        }
        let e = self.rng.gen_range(0..ne) as usize;
        i.op_valid = true;
        i.op_warp = w as u8;
        i.op_entry = e as u8;
        i.op_parity = self.token[w][e];
        if bad {
            // Anything at all, including reserved ops and out-of-range values.
            i.op_code = self.rng.gen_range(0..16);
            i.op_count = self.bad_count();
            // The byte operand over the whole port (TB = tx_bits + 1 bits):
            // half of it is above the range and must be refused.
            i.op_tx = self.rng.gen_range(0..=(2 * self.cfg.max_tx() as u32 + 1));
            i.op_parity = self.rng.gen();
        } else if let Some(&(pe, pb)) = self.explicit_pay.front().filter(|_| self.rng.gen_bool(0.5))
        {
            self.explicit_pay.pop_front();
            i.op_code = op::COMPLETE_TX;
            i.op_entry = pe;
            i.op_tx = pb;
        } else {
            match self.init[e] {
                None => {
                    i.op_code = op::INIT;
                    let n = self.rng.gen_range(1..=self.k.max_init);
                    i.op_count = n;
                    self.init[e] = Some(n);
                }
                Some(_) => {
                    let r = self.rng.gen_range(0..100);
                    let bytes = self.rng.gen_range(1..=256u32).min(self.cfg.max_tx() as u32);
                    i.op_count = 1;
                    i.op_code = match r {
                        0..=24 => op::ARRIVE,
                        25..=34 => {
                            if self.pay(c, e as u8, bytes) {
                                // Bytes paid before their expect: hold the
                                // arrive back until the copy engine's report
                                // is stepped (the functional copy latency is
                                // 20-60 cycles), so that the arrive itself can
                                // complete the phase.
                                self.held_from = c + 80;
                            }
                            i.op_tx = bytes;
                            op::ARRIVE_EXPECT_TX
                        }
                        35..=39 => {
                            self.pay(c, e as u8, bytes);
                            i.op_tx = bytes;
                            op::EXPECT_TX
                        }
                        40..=41 => op::ARRIVE_DROP,
                        42 => {
                            self.init[e] = None;
                            op::INVAL
                        }
                        43 => {
                            i.op_count = self.rng.gen_range(1..=self.k.max_init);
                            self.init[e] = Some(i.op_count);
                            op::INIT
                        }
                        _ if self.rng.gen_bool(self.k.p_try) => op::TRY_WAIT,
                        _ => op::TEST_WAIT,
                    };
                    if self.rng.gen_bool(0.1) {
                        i.op_parity = !i.op_parity;
                    }
                }
            }
        }
        self.warps[w].busy = true;
        self.warps[w].entry = i.op_entry;
        if self.held_from > c {
            self.held_op = Some(i);
            i.op_valid = false;
        }
        i
    }

    /// Pay `bytes` on entry `e` (the copy engine or an explicit
    /// complete_tx later); true when the copy engine pays them early.
    fn pay(&mut self, c: u64, e: u8, bytes: u32) -> bool {
        self.owed[e as usize] += bytes;
        let early = self.k.p_early_tx > 0.0 && self.rng.gen_bool(self.k.p_early_tx);
        if self.rng.gen_bool(self.k.p_copy) {
            let at = if early { c } else { c + 1 };
            self.copy.issue(
                at,
                Request::Load {
                    entry: e,
                    bytes,
                    cold: self.rng.gen_bool(0.3),
                },
            );
            early
        } else {
            self.explicit_pay.push_back((e, bytes));
            false
        }
    }

    /// Learn from cycle `c`'s outputs.
    pub fn observe(&mut self, _c: u64, i: &Inputs, o: &Outputs) {
        if i.reset {
            return;
        }
        // What the unit took this cycle (a remote arrive not taken is dropped:
        // withdrawing a request is legal).
        if o.ctx_ready && self.ctx_queue.front() == Some(&(i.ctx_entry, i.ctx_bytes)) {
            self.ctx_queue.pop_front();
        }
        if i.op_valid {
            self.held_op = (!o.op_ready).then_some(*i);
        }
        if o.rsp_valid {
            let w = o.rsp_warp as usize;
            if w < self.warps.len() {
                self.warps[w].busy = false;
                if o.rsp_suspended {
                    self.warps[w].susp = true;
                }
                if op::is_arrive(o.rsp_op) && !o.err {
                    // Remember the phase arrived in; wait on it next.
                    let e = self.warps[w].entry as usize % self.init.len();
                    self.token[w][e] = o.rsp_token;
                }
            }
        }
        for w in 0..self.warps.len() {
            if o.wake_mask >> w & 1 == 1 {
                self.warps[w].susp = false;
            }
        }
    }
}

/// Drive `cycles` cycles of random stimulus through `step(inputs) -> outputs`,
/// calling `check(cycle, inputs, outputs)` per cycle (stop when it returns
/// false); returns the cycles run.
pub fn run_mbar_random(
    env: &mut MbarRandomEnv,
    cycles: u64,
    mut step: impl FnMut(&Inputs) -> Outputs,
    mut check: impl FnMut(u64, &Inputs, &Outputs) -> bool,
) -> u64 {
    for c in 0..cycles {
        let i = env.drive(c);
        let o = step(&i);
        if !check(c, &i, &o) {
            return c + 1;
        }
        env.observe(c, &i, &o);
    }
    cycles
}

// ---------------------------------------------------------------------------
// Random stimulus: async-group tracker
// ---------------------------------------------------------------------------

/// Seeded random stimulus for `async_groups`: warps issue bulk stores (also
/// sent to a copy engine that reports reads and completions), commit groups
/// and wait; bad reports and resets at random.
pub struct GroupRandomEnv {
    pub cfg: Config,
    pub rng: ChaCha8Rng,
    active: u32,
    p_issue: f64,
    p_bad: f64,
    p_reset: f64,
    copy: CopyEngine,
    blocked: u64,
}

impl GroupRandomEnv {
    pub fn new(cfg: &Config, seed: u64) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let active = [1, 2, 4, cfg.warps][rng.gen_range(0..4)].min(cfg.warps);
        let p_issue = [0.2, 0.6, 1.0][rng.gen_range(0..3)];
        let p_bad = [0.0, 0.0, 0.01, 0.05][rng.gen_range(0..4)];
        let p_reset = if rng.gen_bool(0.2) { 1.0 / 3000.0 } else { 0.0 };
        let mut t = CopyTiming::functional();
        t.store_bytes_per_cycle = [8.0, 32.0, 256.0][rng.gen_range(0..3)];
        GroupRandomEnv {
            cfg: *cfg,
            rng,
            active,
            p_issue,
            p_bad,
            p_reset,
            copy: CopyEngine::new(t),
            blocked: 0,
        }
    }

    pub fn drive(&mut self, c: u64) -> ag::Inputs {
        let mut i = ag::Inputs::default();
        if self.p_reset > 0.0 && self.rng.gen_bool(self.p_reset) {
            self.copy = CopyEngine::new(self.copy.t);
            self.blocked = 0;
            i.reset = true;
            return i;
        }
        let r = self.copy.tick(c);
        i.rd_valid = r.rd.is_some();
        i.rd_warp = r.rd.unwrap_or(0);
        i.wr_valid = r.wr.is_some();
        i.wr_warp = r.wr.unwrap_or(0);
        if self.p_bad > 0.0 && self.rng.gen_bool(self.p_bad) {
            if self.rng.gen_bool(0.5) {
                i.rd_valid = true;
                i.rd_warp = self.rng.gen_range(0..self.cfg.warps) as u8;
            } else {
                i.wr_valid = true;
                i.wr_warp = self.rng.gen_range(0..self.cfg.warps) as u8;
            }
        }
        if self.rng.gen_bool(self.p_issue) {
            let w = self.rng.gen_range(0..self.active) as u8;
            i.ag_valid = true;
            i.ag_warp = w;
            let r = self.rng.gen_range(0..100);
            i.ag_op = match r {
                0..=49 => ag::op::BULK,
                50..=79 => ag::op::COMMIT,
                80..=89 => ag::op::WAIT,
                _ => ag::op::WAIT_READ,
            };
            i.ag_n = self
                .rng
                .gen_range(0..=self.cfg.group_depth.min((1 << self.cfg.group_n_bits()) - 1))
                as u8;
        }
        i
    }

    /// Learn from the cycle's outputs; an accepted bulk op goes to the copy engine.
    pub fn observe(&mut self, c: u64, i: &ag::Inputs, o: &ag::Outputs) {
        if i.reset {
            return;
        }
        if i.ag_valid && o.ag_ready && i.ag_op == ag::op::BULK {
            let bytes = [16u32, 128, 1024, 4096][self.rng.gen_range(0..4)];
            self.copy.issue(
                c,
                Request::Store {
                    warp: i.ag_warp,
                    bytes,
                },
            );
        }
        self.blocked = o.blocked;
    }
}

// ---------------------------------------------------------------------------
// Kernel-like programs
// ---------------------------------------------------------------------------

/// Where a wait's parity comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parity {
    /// The warp's phase bit for the entry (toggled by [`Instr::FlipPhase`]).
    Phase,
    /// The token of the warp's last arrive on the entry.
    Token,
}

/// One instruction of a warp program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Instr {
    /// `mbarrier.init` with `count`.
    Init {
        entry: u8,
        count: u32,
    },
    /// `mbarrier.arrive` (count); the warp does not wait for the token.
    Arrive {
        entry: u8,
        count: u32,
    },
    /// `mbarrier.arrive` whose token the next instruction depends on.
    ArriveDep {
        entry: u8,
        count: u32,
    },
    /// `mbarrier.arrive` with a register count (`SYNCS.ARRIVE.TRANS64.ART0`):
    /// one lane arrives `count` times; costs the SYNCS pipe `count_arrive_extra`.
    ArriveReg {
        entry: u8,
        count: u32,
    },
    ArriveDrop {
        entry: u8,
        count: u32,
    },
    ArriveExpectTx {
        entry: u8,
        count: u32,
        bytes: u32,
    },
    /// `mbarrier.arrive.expect_tx` whose token the next instruction depends on.
    ArriveExpectTxDep {
        entry: u8,
        count: u32,
        bytes: u32,
    },
    ExpectTx {
        entry: u8,
        bytes: u32,
    },
    CompleteTx {
        entry: u8,
        bytes: u32,
    },
    /// `mbarrier.arrive` on a barrier of another CTA (the remote port of this one).
    RemoteArrive {
        entry: u8,
    },
    /// `try_wait.parity` loop until true.
    TryWaitLoop {
        entry: u8,
        parity: Parity,
    },
    /// One `try_wait.parity` (result discarded: measures the op).
    TryWaitOnce {
        entry: u8,
        parity: Parity,
    },
    /// `test_wait.parity` spin until true.
    TestWaitSpin {
        entry: u8,
        parity: Parity,
    },
    /// One `test_wait.parity` whose result the warp waits for.
    TestWaitOnce {
        entry: u8,
        parity: Parity,
    },
    /// One `test_wait.parity` whose result is used later (independent issue).
    TestWaitIndep {
        entry: u8,
        parity: Parity,
    },
    /// `nanosleep` for this many cycles.
    Sleep(u64),
    FlipPhase {
        entry: u8,
    },
    /// `cp.async.bulk` global → shared completing on `entry`.
    CopyLoad {
        entry: u8,
        bytes: u32,
        cold: bool,
    },
    /// `cp.async.bulk` shared → global in the open bulk group.
    BulkStore {
        bytes: u32,
    },
    Commit,
    WaitGroup {
        n: u8,
        read: bool,
    },
    /// Independent work for `n` cycles.
    Compute(u32),
    /// Record the clock in the warp's log.
    Clock,
    /// Jump back to instruction `to` while the loop counter (per instruction) is below `times`.
    Loop {
        to: usize,
        times: u32,
    },
}

/// The SM side around the units: latencies in cycles.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrontEnd {
    /// From a warp's issue to the op entering the unit's op port.
    pub issue_latency: u64,
    /// Cycles the SYNCS pipe needs between two ops (1 = one per cycle).
    pub op_interval: u64,
    /// Cycles before the warp may issue its next instruction.
    pub issue_gap: u64,
    /// Response (unit output) to the warp: arrive token / wait predicate.
    pub arrive_return: u64,
    pub wait_return: u64,
    /// Extra cycles per warp when wakes are delivered (fan-out), beyond the unit's own.
    pub wake_interval: u64,
    /// Loop overhead between a false try_wait and the next one.
    pub retry_gap: u64,
    /// Loop overhead between a false test_wait and the next one of a spin.
    pub spin_gap: u64,
    /// Issue cost of one `cp.async.bulk` (address set-up, ELECT loop).
    pub copy_issue: u64,
    /// Group unit release to warp.
    pub group_return: u64,
    /// Issue cost of a bulk store + commit.
    pub store_issue: u64,
    /// One-off set-up before the first copy / store of a program.
    pub copy_setup: u64,
    /// Warp-side issue gap after an arrive-type op / a test or try wait
    /// (a warp's own SYNCS issue throughput).
    pub arrive_gap: u64,
    pub wait_gap: u64,
    /// Extra SYNCS pipe cycles of an arrive with a register count ([`Instr::ArriveReg`]).
    pub count_arrive_extra: u64,
    /// Extra SYNCS pipe cycles of a try_wait / of a test_wait.
    pub wait_extra: u64,
    pub test_extra: u64,
    /// From a looping wait's true answer to the warp's next instruction (branch).
    pub branch_gap: u64,
    /// From the unit's wake output to the warp (rescheduling a suspended warp).
    pub wake_latency: u64,
    /// Extra issue latency of ops with a tx operand (expect/complete forms).
    pub tx_operand_extra: u64,
    /// Warp schedulers: each issues one SYNCS op per cycle (warp w on w mod smsp); 0 = unlimited.
    pub smsp: u32,
    /// test_wait polls also pass an SM-wide phase-check path that takes one
    /// poll per `poll_interval` cycles (0: no such limit).
    pub poll_interval: u64,
}

impl FrontEnd {
    /// No SM latencies: the units as seen at their ports.
    pub fn ideal() -> Self {
        FrontEnd {
            issue_latency: 0,
            op_interval: 1,
            issue_gap: 1,
            arrive_return: 0,
            wait_return: 0,
            wake_interval: 0,
            retry_gap: 1,
            spin_gap: 1,
            copy_issue: 1,
            group_return: 0,
            store_issue: 1,
            copy_setup: 0,
            arrive_gap: 1,
            wait_gap: 1,
            count_arrive_extra: 0,
            wait_extra: 0,
            test_extra: 0,
            branch_gap: 0,
            wake_latency: 0,
            tx_operand_extra: 0,
            smsp: 0,
            poll_interval: 0,
        }
    }
}

#[derive(Clone, Debug, Default)]
struct WarpCtx {
    pc: usize,
    ready_at: u64,
    /// Waiting for an mbarrier answer / wake / group release.
    waiting: bool,
    phase: Vec<bool>,
    token: Vec<bool>,
    loops: Vec<u32>,
    clocks: Vec<u64>,
    done: bool,
    copies_issued: u32,
}

/// Statistics of a kernel run.
#[derive(Clone, Debug, Default)]
pub struct KernelStats {
    pub cycles: u64,
    pub ops: u64,
    pub completions: u64,
    pub wakes_done: u64,
    pub timeouts: u64,
    pub errors: u64,
    pub group_releases: u64,
    pub copies: u64,
    pub stores: u64,
    pub finished: bool,
}

/// Marks an in-flight arrive issued in the register-count form.
const REG_COUNT: u32 = 1 << 31;

/// An op travelling to the unit: (arrival cycle, warp, inputs fields).
#[derive(Clone, Copy, Debug)]
struct InFlight {
    at: u64,
    warp: usize,
    code: u8,
    entry: u8,
    count: u32,
    tx: u32,
    parity: bool,
    /// The warp waits for the answer.
    answer: bool,
}

/// Runs warp programs on both units, the copy engine and the front end.
pub struct KernelRunner {
    pub cfg: Config,
    pub fe: FrontEnd,
    pub mbar: MbarrierModel,
    pub groups: AsyncGroupsModel,
    pub copy: CopyEngine,
    progs: Vec<Vec<Instr>>,
    warps: Vec<WarpCtx>,
    queue: VecDeque<InFlight>,
    pipe_free_at: Option<u64>,
    poll_free_at: u64,
    answered_rsp: VecDeque<(u64, usize, bool)>,
    wake_free: u64,
    remote: VecDeque<u8>,
    /// The copy engine's complete-tx reports not yet taken (`ctx_ready`).
    ctx_queue: VecDeque<(u8, u32)>,
    pub stats: KernelStats,
    pub cycle: u64,
}

/// What one cycle did at the ports (for scoreboards and coverage).
pub struct CycleIo {
    pub mi: Inputs,
    pub mo: Outputs,
    pub gi: ag::Inputs,
    pub go: ag::Outputs,
}

impl KernelRunner {
    pub fn new(cfg: &Config, fe: FrontEnd, copy: CopyTiming, progs: Vec<Vec<Instr>>) -> Self {
        let m = cfg.entries as usize;
        let warps = progs
            .iter()
            .map(|p| WarpCtx {
                phase: vec![false; m],
                token: vec![false; m],
                loops: vec![0; p.len()],
                done: p.is_empty(),
                ..WarpCtx::default()
            })
            .collect();
        KernelRunner {
            cfg: *cfg,
            fe,
            mbar: MbarrierModel::new(cfg),
            groups: AsyncGroupsModel::new(cfg),
            copy: CopyEngine::new(copy),
            progs,
            warps,
            queue: VecDeque::new(),
            pipe_free_at: None,
            poll_free_at: 0,
            answered_rsp: VecDeque::new(),
            wake_free: 0,
            remote: VecDeque::new(),
            ctx_queue: VecDeque::new(),
            stats: KernelStats::default(),
            cycle: 0,
        }
    }

    /// Clock logs of every warp.
    pub fn clocks(&self) -> Vec<Vec<u64>> {
        self.warps.iter().map(|w| w.clocks.clone()).collect()
    }

    pub fn all_done(&self) -> bool {
        self.warps.iter().all(|w| w.done)
            && self.queue.is_empty()
            && !self.mbar.state.req.valid
            && self.ctx_queue.is_empty()
            && self.remote.is_empty()
    }

    fn parity(&self, w: usize, e: u8, p: Parity) -> bool {
        match p {
            Parity::Phase => self.warps[w].phase[e as usize],
            Parity::Token => self.warps[w].token[e as usize],
        }
    }

    /// Run until every program finishes or `max_cycles` pass, calling
    /// `each(cycle, io)` per cycle; returns the stats.
    pub fn run(&mut self, max_cycles: u64, mut each: impl FnMut(u64, &CycleIo)) -> KernelStats {
        while self.cycle < max_cycles && !self.all_done() {
            let io = self.step_cycle();
            each(self.cycle - 1, &io);
        }
        self.stats.cycles = self.cycle;
        self.stats.finished = self.all_done();
        self.stats.clone()
    }

    /// One cycle of the whole system.
    pub fn step_cycle(&mut self) -> CycleIo {
        let t = self.cycle;
        let fe = self.fe;
        let mut gi = ag::Inputs::default();
        let mut group_issue: Option<(usize, Instr)> = None;
        // Warps issue (one group op per cycle; with `smsp` > 0, one SYNCS op
        // per scheduler (warp mod smsp) per cycle, oldest-ready first).
        let nw = self.warps.len();
        let mut smsp_used = [false; 64];
        for k in 0..nw {
            let w = (k + t as usize) % nw;
            loop {
                let wc = &self.warps[w];
                if wc.done || wc.waiting || wc.ready_at > t {
                    break;
                }
                let Some(&ins) = self.progs[w].get(wc.pc) else {
                    self.warps[w].done = true;
                    break;
                };
                let syncs = matches!(
                    ins,
                    Instr::Init { .. }
                        | Instr::Arrive { .. }
                        | Instr::ArriveDep { .. }
                        | Instr::ArriveReg { .. }
                        | Instr::ArriveDrop { .. }
                        | Instr::ArriveExpectTx { .. }
                        | Instr::ArriveExpectTxDep { .. }
                        | Instr::ExpectTx { .. }
                        | Instr::CompleteTx { .. }
                        | Instr::TryWaitLoop { .. }
                        | Instr::TryWaitOnce { .. }
                        | Instr::TestWaitSpin { .. }
                        | Instr::TestWaitOnce { .. }
                        | Instr::TestWaitIndep { .. }
                );
                if syncs && fe.smsp > 0 {
                    let s = w % fe.smsp as usize;
                    if smsp_used[s] {
                        break;
                    }
                    smsp_used[s] = true;
                }
                let mut next_ready = t + fe.issue_gap;
                let send =
                    |q: &mut VecDeque<InFlight>, code: u8, entry, count, tx, parity, answer| {
                        let extra = if matches!(
                            code,
                            op::ARRIVE_EXPECT_TX | op::EXPECT_TX | op::COMPLETE_TX
                        ) {
                            fe.tx_operand_extra
                        } else {
                            0
                        };
                        q.push_back(InFlight {
                            at: t + fe.issue_latency + extra,
                            warp: w,
                            code,
                            entry,
                            count,
                            tx,
                            parity,
                            answer,
                        });
                    };
                match ins {
                    Instr::Init { entry, count } => {
                        send(&mut self.queue, op::INIT, entry, count, 0, false, false)
                    }
                    Instr::Arrive { entry, count } => {
                        send(&mut self.queue, op::ARRIVE, entry, count, 0, false, false);
                        next_ready = t + fe.arrive_gap;
                    }
                    Instr::ArriveReg { entry, count } => {
                        send(
                            &mut self.queue,
                            op::ARRIVE,
                            entry,
                            count | REG_COUNT,
                            0,
                            false,
                            false,
                        );
                        next_ready = t + fe.arrive_gap;
                    }
                    Instr::ArriveDep { entry, count } => {
                        send(&mut self.queue, op::ARRIVE, entry, count, 0, false, true)
                    }
                    Instr::ArriveDrop { entry, count } => send(
                        &mut self.queue,
                        op::ARRIVE_DROP,
                        entry,
                        count,
                        0,
                        false,
                        false,
                    ),
                    Instr::ArriveExpectTx {
                        entry,
                        count,
                        bytes,
                    } => {
                        send(
                            &mut self.queue,
                            op::ARRIVE_EXPECT_TX,
                            entry,
                            count,
                            bytes,
                            false,
                            false,
                        );
                        next_ready = t + fe.arrive_gap;
                    }
                    Instr::ArriveExpectTxDep {
                        entry,
                        count,
                        bytes,
                    } => send(
                        &mut self.queue,
                        op::ARRIVE_EXPECT_TX,
                        entry,
                        count,
                        bytes,
                        false,
                        true,
                    ),
                    Instr::ExpectTx { entry, bytes } => send(
                        &mut self.queue,
                        op::EXPECT_TX,
                        entry,
                        0,
                        bytes,
                        false,
                        false,
                    ),
                    Instr::CompleteTx { entry, bytes } => send(
                        &mut self.queue,
                        op::COMPLETE_TX,
                        entry,
                        0,
                        bytes,
                        false,
                        false,
                    ),
                    Instr::RemoteArrive { entry } => self.remote.push_back(entry),
                    Instr::TryWaitLoop { entry, parity } | Instr::TryWaitOnce { entry, parity } => {
                        let p = self.parity(w, entry, parity);
                        send(&mut self.queue, op::TRY_WAIT, entry, 0, 0, p, true)
                    }
                    Instr::TestWaitSpin { entry, parity }
                    | Instr::TestWaitOnce { entry, parity } => {
                        let p = self.parity(w, entry, parity);
                        send(&mut self.queue, op::TEST_WAIT, entry, 0, 0, p, true)
                    }
                    Instr::TestWaitIndep { entry, parity } => {
                        let p = self.parity(w, entry, parity);
                        send(&mut self.queue, op::TEST_WAIT, entry, 0, 0, p, false);
                        next_ready = t + fe.wait_gap;
                    }
                    Instr::Sleep(n) => next_ready = t + n,
                    Instr::FlipPhase { entry } => {
                        let ph = &mut self.warps[w].phase[entry as usize];
                        *ph = !*ph;
                        next_ready = t;
                    }
                    Instr::CopyLoad { entry, bytes, cold } => {
                        let setup = if self.warps[w].copies_issued == 0 {
                            fe.copy_setup
                        } else {
                            0
                        };
                        self.warps[w].copies_issued += 1;
                        self.copy.issue(
                            t + setup + fe.copy_issue,
                            Request::Load { entry, bytes, cold },
                        );
                        self.stats.copies += 1;
                        next_ready = t + setup + fe.copy_issue;
                    }
                    Instr::BulkStore { .. } | Instr::Commit | Instr::WaitGroup { .. } => {
                        if group_issue.is_some() {
                            break;
                        }
                        group_issue = Some((w, ins));
                        gi.ag_valid = true;
                        gi.ag_warp = w as u8;
                        match ins {
                            Instr::BulkStore { .. } => gi.ag_op = ag::op::BULK,
                            Instr::Commit => gi.ag_op = ag::op::COMMIT,
                            Instr::WaitGroup { n, read } => {
                                gi.ag_op = if read {
                                    ag::op::WAIT_READ
                                } else {
                                    ag::op::WAIT
                                };
                                gi.ag_n = n;
                            }
                            _ => {}
                        }
                        // Decided after the unit answers ag_ready.
                        break;
                    }
                    Instr::Compute(n) => next_ready = t + n as u64,
                    Instr::Clock => {
                        self.warps[w].clocks.push(t);
                        next_ready = t;
                    }
                    Instr::Loop { to, times } => {
                        let pc = self.warps[w].pc;
                        let lc = &mut self.warps[w].loops[pc];
                        if *lc + 1 < times {
                            *lc += 1;
                            self.warps[w].pc = to;
                        } else {
                            *lc = 0;
                            self.warps[w].pc += 1;
                        }
                        self.warps[w].ready_at = t;
                        continue;
                    }
                }
                let answer = matches!(
                    ins,
                    Instr::TryWaitLoop { .. }
                        | Instr::TryWaitOnce { .. }
                        | Instr::TestWaitSpin { .. }
                        | Instr::TestWaitOnce { .. }
                        | Instr::ArriveDep { .. }
                        | Instr::ArriveExpectTxDep { .. }
                );
                let wc = &mut self.warps[w];
                if answer {
                    wc.waiting = true;
                } else {
                    wc.pc += 1;
                }
                wc.ready_at = next_ready;
                if next_ready > t {
                    break;
                }
            }
        }
        // The SYNCS pipe: one op per op_interval cycles, in order.
        let mut mi = Inputs::default();
        let mut accepted: Option<InFlight> = None;
        // One in-order pipe into the op port. With `poll_interval` > 0 a
        // test_wait poll also needs the SM-wide phase-check path, which
        // accepts one poll per `poll_interval` cycles.
        let main_free = !matches!(self.pipe_free_at, Some(a) if t < a);
        let poll_free = t >= self.poll_free_at;
        let mut pick = None;
        if let Some(h) = self.queue.front() {
            let poll_ok = fe.poll_interval == 0 || h.code != op::TEST_WAIT || poll_free;
            if h.at <= t && main_free && poll_ok {
                pick = Some(0);
            }
        }
        if let Some(h) = pick.and_then(|k| self.queue.remove(k)) {
            mi.op_valid = true;
            mi.op_warp = h.warp as u8;
            mi.op_code = h.code;
            mi.op_entry = h.entry;
            mi.op_count = h.count & !REG_COUNT;
            mi.op_tx = h.tx;
            mi.op_parity = h.parity;
            accepted = Some(h);
        }
        // The copy engine's reports and the remote arrives wait in their
        // queues until the unit takes them (`ctx_ready`, `rarv_ready`).
        let rep = self.copy.tick(t);
        if let Some(r) = rep.ctx {
            self.ctx_queue.push_back(r);
        }
        if let Some(&(e, b)) = self.ctx_queue.front() {
            mi.ctx_valid = true;
            mi.ctx_entry = e;
            mi.ctx_bytes = b;
        }
        if let Some(&e) = self.remote.front() {
            mi.rarv_valid = true;
            mi.rarv_entry = e;
            mi.rarv_count = 1;
        }
        gi.rd_valid = rep.rd.is_some();
        gi.rd_warp = rep.rd.unwrap_or(0);
        gi.wr_valid = rep.wr.is_some();
        gi.wr_warp = rep.wr.unwrap_or(0);

        let mo = self.mbar.step(&mi);
        let ev = &self.mbar.last_events;
        self.stats.completions += ev.completions.len() as u64;
        if mo.ctx_ready {
            self.ctx_queue.pop_front();
        }
        if mo.rarv_ready {
            self.remote.pop_front();
        }
        if !mo.op_ready {
            // Not taken: it stays at the head of the pipe.
            if let Some(h) = accepted.take() {
                self.queue.push_front(h);
            }
        }
        if mo.op_ready {
            if accepted.is_some_and(|h| h.code == op::TEST_WAIT) {
                self.poll_free_at = t + fe.poll_interval;
            }
            if let Some(h) = accepted {
                let extra = match h.code {
                    op::ARRIVE if h.count & REG_COUNT != 0 => fe.count_arrive_extra,
                    op::TRY_WAIT => fe.wait_extra,
                    op::TEST_WAIT => fe.test_extra,
                    _ => 0,
                };
                self.pipe_free_at = Some(t + fe.op_interval + extra);
                self.stats.ops += 1;
                if h.answer {
                    // Accepted now, stepped next cycle, answered the cycle after.
                    self.answered_rsp
                        .push_back((t + 2, h.warp, op::is_arrive(h.code)));
                }
            }
        }
        let go = self.groups.step(&gi);
        // Group issue outcome.
        if let Some((w, ins)) = group_issue {
            if go.ag_ready {
                let wc = &mut self.warps[w];
                match ins {
                    Instr::BulkStore { bytes } => {
                        let setup = if wc.copies_issued == 0 {
                            fe.copy_setup
                        } else {
                            0
                        };
                        wc.copies_issued += 1;
                        self.copy.issue(
                            t + setup,
                            Request::Store {
                                warp: w as u8,
                                bytes,
                            },
                        );
                        self.stats.stores += 1;
                        wc.pc += 1;
                        wc.ready_at = t + setup + fe.store_issue;
                    }
                    Instr::Commit => {
                        wc.pc += 1;
                        wc.ready_at = t + fe.issue_gap;
                    }
                    _ => wc.waiting = true,
                }
            }
        }
        for w in 0..self.warps.len() {
            if go.release_mask >> w & 1 == 1 {
                self.stats.group_releases += 1;
                let wc = &mut self.warps[w];
                wc.waiting = false;
                wc.pc += 1;
                wc.ready_at = t + 1 + fe.group_return;
            }
        }
        // Responses of the op accepted two cycles before (registered output this cycle).
        if mo.rsp_valid {
            if mo.err {
                self.stats.errors += 1;
            }
            if let Some(&(at, w, _)) = self.answered_rsp.front() {
                if at == t && w == mo.rsp_warp as usize {
                    self.answered_rsp.pop_front();
                    self.answer(
                        w,
                        mo.rsp_op,
                        mo.rsp_token,
                        mo.rsp_done,
                        mo.rsp_suspended,
                        t + fe_ret(&fe, mo.rsp_op),
                    );
                }
            }
        }
        if mo.err && !mo.rsp_valid {
            self.stats.errors += 1;
        }
        for w in 0..self.warps.len() {
            if mo.wake_mask >> w & 1 == 1 {
                let done = mo.wake_done >> w & 1 == 1;
                if done {
                    self.stats.wakes_done += 1;
                } else {
                    self.stats.timeouts += 1;
                }
                let at = (t + fe.wake_latency).max(self.wake_free);
                self.wake_free = at + fe.wake_interval;
                self.answer(w, op::TRY_WAIT, false, done, false, at);
            }
        }
        self.cycle += 1;
        CycleIo { mi, mo, gi, go }
    }

    fn answer(&mut self, w: usize, code: u8, token: bool, done: bool, susp: bool, at: u64) {
        if susp {
            return; // the wake answers later
        }
        let ins = self.progs[w][self.warps[w].pc];
        let fe = self.fe;
        let wc = &mut self.warps[w];
        wc.waiting = false;
        if op::is_arrive(code) {
            if let Instr::ArriveDep { entry, .. } | Instr::ArriveExpectTxDep { entry, .. } = ins {
                wc.token[entry as usize] = token;
            }
            wc.pc += 1;
            wc.ready_at = at;
            return;
        }
        let looping = matches!(ins, Instr::TryWaitLoop { .. } | Instr::TestWaitSpin { .. });
        if looping && !done {
            let spin = matches!(ins, Instr::TestWaitSpin { .. });
            wc.ready_at = at + if spin { fe.spin_gap } else { fe.retry_gap };
        } else {
            wc.pc += 1;
            wc.ready_at = at + if looping { fe.branch_gap } else { 0 };
        }
    }
}

fn fe_ret(fe: &FrontEnd, code: u8) -> u64 {
    if op::is_arrive(code) {
        fe.arrive_return
    } else {
        fe.wait_return
    }
}

// ---------------------------------------------------------------------------
// Named scenarios
// ---------------------------------------------------------------------------

/// TMA double-buffered pipeline: `stages` buffers, each with a "full"
/// barrier (entry s: the producer's arrive.expect_tx plus the copy's bytes)
/// and an "empty" barrier (entry stages+s: one arrive per consumer warp).
/// Warp 0 produces `iters` tiles of `bytes`; warps 1..=consumers wait on
/// full, compute, and arrive on empty. Phase bits flip per round of the ring.
pub fn tma_pipeline(
    stages: u8,
    iters: u32,
    consumers: u32,
    bytes: u32,
    compute: u32,
) -> Vec<Vec<Instr>> {
    assert!(stages >= 1 && iters >= 1);
    let full = |s: u8| s;
    let empty = |s: u8| stages + s;
    let mut prod = Vec::new();
    for s in 0..stages {
        prod.push(Instr::Init {
            entry: full(s),
            count: 1,
        });
        prod.push(Instr::Init {
            entry: empty(s),
            count: consumers,
        });
    }
    // Consumers start once the barriers exist.
    prod.push(Instr::Compute(4));
    let body_start = prod.len();
    // One round over the ring per loop iteration.
    let rounds = iters.div_ceil(stages as u32);
    let mut first_round = Vec::new();
    let mut later = Vec::new();
    for s in 0..stages {
        for (v, waits_empty) in [(&mut first_round, false), (&mut later, true)] {
            if waits_empty {
                v.push(Instr::TryWaitLoop {
                    entry: empty(s),
                    parity: Parity::Phase,
                });
                v.push(Instr::FlipPhase { entry: empty(s) });
            }
            v.push(Instr::ArriveExpectTx {
                entry: full(s),
                count: 1,
                bytes,
            });
            v.push(Instr::CopyLoad {
                entry: full(s),
                bytes,
                cold: false,
            });
        }
    }
    prod.extend(first_round);
    if rounds > 1 {
        let start = prod.len();
        prod.extend(later);
        prod.push(Instr::Loop {
            to: start,
            times: rounds - 1,
        });
    }
    let _ = body_start;
    let mut progs = vec![prod];
    for _ in 0..consumers {
        let mut c = vec![Instr::Compute(8)];
        let start = c.len();
        for s in 0..stages {
            c.push(Instr::TryWaitLoop {
                entry: full(s),
                parity: Parity::Phase,
            });
            c.push(Instr::FlipPhase { entry: full(s) });
            c.push(Instr::Compute(compute));
            c.push(Instr::Arrive {
                entry: empty(s),
                count: 1,
            });
        }
        c.push(Instr::Loop {
            to: start,
            times: rounds,
        });
        progs.push(c);
    }
    progs
}

/// Split-K reduction: `splits` warps each compute a partial tile, copy it
/// (a bulk load completing `bytes` on the reduction barrier, entry 0) and
/// arrive; the reducer warp (last) waits for all partials and their bytes,
/// reduces, and signals completion on barrier 1 that the splitters wait on
/// before their next tile; `tiles` rounds. One split arrives remotely (from
/// another CTA of the cluster) through the remote-arrive port.
pub fn split_k(splits: u32, tiles: u32, bytes: u32) -> Vec<Vec<Instr>> {
    let mut progs = Vec::new();
    for k in 0..splits {
        let mut p = vec![Instr::Compute(6)];
        let start = p.len();
        p.push(Instr::Compute(20 + 3 * k));
        if k == splits - 1 {
            // The remote split: its arrive comes through the cluster port; its
            // bytes are announced by the local copy.
            p.push(Instr::ExpectTx { entry: 0, bytes });
            p.push(Instr::CopyLoad {
                entry: 0,
                bytes,
                cold: true,
            });
            p.push(Instr::RemoteArrive { entry: 0 });
        } else {
            p.push(Instr::ArriveExpectTx {
                entry: 0,
                count: 1,
                bytes,
            });
            p.push(Instr::CopyLoad {
                entry: 0,
                bytes,
                cold: k % 2 == 1,
            });
        }
        p.push(Instr::TryWaitLoop {
            entry: 1,
            parity: Parity::Phase,
        });
        p.push(Instr::FlipPhase { entry: 1 });
        p.push(Instr::Loop {
            to: start,
            times: tiles,
        });
        progs.push(p);
    }
    let mut r = vec![
        Instr::Init {
            entry: 0,
            count: splits,
        },
        Instr::Init { entry: 1, count: 1 },
    ];
    let start = r.len();
    r.push(Instr::TryWaitLoop {
        entry: 0,
        parity: Parity::Phase,
    });
    r.push(Instr::FlipPhase { entry: 0 });
    r.push(Instr::Compute(30));
    r.push(Instr::ArriveDep { entry: 1, count: 1 });
    r.push(Instr::Loop {
        to: start,
        times: tiles,
    });
    progs.push(r);
    // The splitters must not touch the barriers before the reducer inits them.
    for p in progs.iter_mut().take(splits as usize) {
        p[0] = Instr::Compute(6);
    }
    progs
}

/// Bulk store groups: each of `warps` warps stores `groups` groups of
/// `per_group` bulk stores of `bytes`, committing each group, and keeps at
/// most `depth` groups in flight with `wait_group.read depth-1` before
/// reusing a buffer, then `wait_group 0` at the end.
pub fn bulk_store_groups(
    warps: u32,
    groups: u32,
    per_group: u32,
    bytes: u32,
    depth: u8,
) -> Vec<Vec<Instr>> {
    (0..warps)
        .map(|w| {
            let mut p = vec![Instr::Compute(w)];
            let start = p.len();
            p.push(Instr::Compute(10));
            for _ in 0..per_group {
                p.push(Instr::BulkStore { bytes });
            }
            p.push(Instr::Commit);
            p.push(Instr::WaitGroup {
                n: depth.saturating_sub(1),
                read: true,
            });
            p.push(Instr::Loop {
                to: start,
                times: groups,
            });
            p.push(Instr::WaitGroup { n: 0, read: false });
            p
        })
        .collect()
}

/// Names of the built-in scenarios.
pub const SCENARIOS: &[&str] = &["tma_pipeline", "split_k", "bulk_store_groups"];

/// A named scenario's programs (for a configuration with enough warps/entries).
pub fn scenario(name: &str, cfg: &Config) -> Option<Vec<Vec<Instr>>> {
    let w = cfg.warps;
    match name {
        "tma_pipeline" => Some(tma_pipeline(2, 24, (w - 1).min(4), 4096, 40)),
        "split_k" => Some(split_k((w - 1).min(4), 12, 2048)),
        "bulk_store_groups" => Some(bulk_store_groups(
            w.min(4),
            10,
            2,
            1024,
            (cfg.group_depth as u8).min(2),
        )),
        _ => None,
    }
}

/// [`GroupRandomEnv`] as the environment of the one lockstep runner
/// (`unit_ports::lockstep::run`): the RTL lockstep and the Verilator
/// cosimulation of `async_groups` drive it this way.
impl unit_ports::lockstep::Driver<ag::AsyncGroupsPorts> for GroupRandomEnv {
    fn drive(&mut self, cycle: u64, i: &mut ag::Inputs, _phase: unit_ports::lockstep::Phase) {
        *i = GroupRandomEnv::drive(self, cycle);
    }
    fn observe(&mut self, cycle: u64, i: &ag::Inputs, o: &ag::Outputs) {
        GroupRandomEnv::observe(self, cycle, i, o);
    }
}

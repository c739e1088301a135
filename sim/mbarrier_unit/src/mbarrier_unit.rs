//! Golden model of `mbarrier_unit` (`spec/mbarrier_unit.md`): M transaction
//! barriers (phase parity, pending and expected arrivals, signed tx-count)
//! and the per-warp `try_wait` suspension with timeout and bounded wake
//! fan-out.
//!
//! Written as hardware: [`State`] is the register file, [`eval`] the one pure
//! next-state/output function, [`MbarrierModel::step`] the clock edge. Every
//! output except the three `*_ready` is a register.
//!
//! One request a cycle (`docs/mbarrier_ram_design.md`):
//! - **accept**: among the ports presenting a request — the operation port
//!   (`op_*`), the copy engine's complete-tx (`ctx_*`), a remote arrive
//!   (`rarv_*`) — the arbiter grants the first at or after its pointer
//!   `pp` (`*_ready`), and the request is registered;
//! - **step** (the next cycle): the request is applied to its entry: the
//!   complete-tx pays `ctx_bytes` off the tx-count, the remote arrive
//!   arrives `rarv_count` times, the operation does what its code says; the
//!   response and `err` are registered (visible two cycles after
//!   acceptance).
//!
//! After the step: an entry that is valid with pending = 0 and tx-count = 0
//! completes its phase: parity flips, pending reloads from expected, and
//! every warp suspended on (entry, old parity) is decided "done" (a
//! registered decision). Otherwise a suspended, undecided warp whose limit L
//! has passed is decided "timed out". The wake arbiter grants up to F
//! warps decided in earlier cycles, round robin (`wake_mask`, `wake_done`
//! one cycle after the grant): a warp decided in cycle d is woken in a cycle
//! of [d + 2, d + B + 1], B = ceil(W/F).

use crate::config::Config;
use crate::ports::mbarrier::{cause, op, src, Inputs, Outputs};

/// Most entries/warps any configuration has.
pub const MAX: usize = 64;

/// One barrier entry (the 64-bit shared-memory object's fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Entry {
    pub valid: bool,
    /// Parity of the current (incomplete) phase.
    pub parity: bool,
    /// Arrivals still missing in the current phase.
    pub pending: u32,
    /// Arrivals expected in each later phase.
    pub expected: u32,
    /// Outstanding transaction bytes of the current phase (may be negative).
    pub tx: i32,
}

/// Per-warp suspension register.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Waiter {
    /// Suspended in a try_wait (until its wake is output).
    pub susp: bool,
    pub entry: u8,
    pub parity: bool,
    /// Cycles since suspension minus one (saturates at L).
    pub timer: u16,
    /// Answer decided, wake not yet output.
    pub decided: bool,
    /// The decided answer (true = phase completed).
    pub done: bool,
}

/// Registered state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub entries: [Entry; MAX],
    pub waiters: [Waiter; MAX],
    /// Round-robin pointer of the wake arbiter.
    pub rr: u8,
    /// Port pointer of the request arbiter (0 op, 1 complete-tx, 2 remote arrive).
    pub pp: u8,
    /// The request accepted in the previous cycle, stepped in this one.
    pub req: Request,
    /// Registered outputs (the `*_ready` outputs are ignored here).
    pub out: Outputs,
}

/// The request register: a request accepted by the port arbiter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Request {
    pub valid: bool,
    /// The port it came from (`src::*`).
    pub port: u8,
    /// Op port only: warp, op code, parity.
    pub warp: u8,
    pub code: u8,
    pub entry: u8,
    /// Arrival count (op, remote arrive).
    pub count: u32,
    /// Bytes (op's `op_tx`, complete-tx's `ctx_bytes`).
    pub tx: u32,
    pub parity: bool,
}

impl Default for State {
    fn default() -> Self {
        State {
            entries: [Entry::default(); MAX],
            waiters: [Waiter::default(); MAX],
            rr: 0,
            pp: 0,
            req: Request::default(),
            out: Outputs::default(),
        }
    }
}

/// How a phase completion was caused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompletedBy {
    /// The copy engine's complete-tx port.
    CopyEngine,
    /// A remote arrive.
    Remote,
    /// An op: arrive variants or an explicit complete_tx.
    Op(u8),
}

/// Internal signals of one evaluation (for coverage and debugging).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// Phase completions this cycle: (entry, parity completed, cause).
    pub completions: Vec<(u8, bool, CompletedBy)>,
    /// Errors this cycle: (source port, cause) for every bad input.
    pub errors: Vec<(u8, u8)>,
    /// The request stepped this cycle and the one accepted name the same
    /// entry, one from the op port and one from the complete-tx port.
    pub op_ctx_same_entry: bool,
    /// The request stepped this cycle and the one accepted name the same entry.
    pub back_to_back_same_entry: bool,
    /// More than one port presented a request (the arbiter chose).
    pub contention: bool,
    /// A complete-tx (either form) was applied to an entry whose tx-count was ≤ 0
    /// (bytes arrived before their expect_tx).
    pub tx_before_expect: bool,
    /// Some entry's tx-count was negative after this cycle.
    pub tx_negative: bool,
    /// Warps decided by timeout / by completion this cycle.
    pub timeouts: u64,
    pub wake_decided: u64,
    /// A try_wait suspended this cycle.
    pub suspended_now: bool,
    /// A try_wait / test_wait answered done at once.
    pub immediate_done: bool,
    /// An arrive_drop was applied.
    pub drop: bool,
    /// A remote arrive was applied.
    pub remote_arrive: bool,
    /// More decided warps than F were pending (fan-out spread over cycles).
    pub wake_spread: bool,
}

fn complete_if_due(e: &mut Entry, idx: u8, by: CompletedBy, ev: &mut Events) {
    if e.valid && e.pending == 0 && e.tx == 0 {
        ev.completions.push((idx, e.parity, by));
        e.parity = !e.parity;
        e.pending = e.expected;
    }
}

/// The port arbiter: among the ports presenting a request (0 op, 1
/// complete-tx, 2 remote arrive, the `src::*` numbers), the first at or
/// after the pointer `pp`.
pub fn grant(pp: u8, op_valid: bool, ctx_valid: bool, rarv_valid: bool) -> Option<u8> {
    let v = [op_valid, ctx_valid, rarv_valid];
    (0..3u8).map(|k| (pp + k) % 3).find(|&p| v[p as usize])
}

/// One cycle: outputs and next state from the registered state and inputs.
pub fn eval(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, d, _) = eval_events(cfg, q, i);
    (o, d)
}

/// [`eval`] plus the cycle's internal [`Events`].
pub fn eval_events(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State, Events) {
    let mut ev = Events::default();
    if i.reset {
        return (Outputs::default(), State::default(), ev);
    }
    let i = i.masked(cfg);
    let mut o = q.out;

    // Accept: one request a cycle, round robin over the ports.
    let g = grant(q.pp, i.op_valid, i.ctx_valid, i.rarv_valid);
    o.op_ready = g == Some(src::OP);
    o.ctx_ready = g == Some(src::CTX);
    o.rarv_ready = g == Some(src::RARV);
    ev.contention = [i.op_valid, i.ctx_valid, i.rarv_valid]
        .iter()
        .filter(|&&v| v)
        .count()
        > 1;

    let mut d = *q;
    d.out = Outputs::default();
    let max_count = cfg.max_count();
    let max_tx = cfg.max_tx();
    let m = cfg.entries as usize;
    let w_n = cfg.warps as usize;
    let r = q.req;

    // Step: the request accepted in the previous cycle, on its entry.
    if r.valid && r.port == src::CTX {
        let ix = r.entry as usize;
        let e = &mut d.entries[ix];
        if !e.valid {
            ev.errors.push((src::CTX, cause::UNINIT));
        } else if r.tx as i64 > max_tx || (e.tx as i64) - (r.tx as i64) < -max_tx {
            ev.errors.push((src::CTX, cause::TX_RANGE));
        } else {
            if e.tx <= 0 {
                ev.tx_before_expect = true;
            }
            e.tx -= r.tx as i32;
            complete_if_due(e, ix as u8, CompletedBy::CopyEngine, &mut ev);
        }
    }
    if r.valid && r.port == src::RARV {
        let ix = r.entry as usize;
        let e = &mut d.entries[ix];
        if !e.valid {
            ev.errors.push((src::RARV, cause::UNINIT));
        } else if r.count == 0 || r.count > max_count {
            ev.errors.push((src::RARV, cause::BAD_COUNT));
        } else if r.count > e.pending {
            ev.errors.push((src::RARV, cause::UNDERFLOW));
        } else {
            ev.remote_arrive = true;
            e.pending -= r.count;
            complete_if_due(e, ix as u8, CompletedBy::Remote, &mut ev);
        }
    }
    if r.valid && r.port == src::OP {
        let w = r.warp as usize;
        let ix = r.entry as usize;
        let code = r.code;
        let waiters_on = (0..w_n).any(|v| q.waiters[v].susp && q.waiters[v].entry as usize == ix);
        let mut err = cause::NONE;
        let (mut token, mut done, mut susp) = (false, false, false);
        let count_bad = r.count == 0 || r.count > max_count;
        // The byte operand itself above 2^tx_bits - 1 (its port has one bit
        // more so that this is visible): refused whatever the tx-count is.
        let tx_bad = r.tx as i64 > max_tx;
        let e = d.entries[ix];
        if op::is_reserved(code) {
            err = cause::RESERVED_OP;
        } else if q.waiters[w].susp {
            err = cause::WARP_SUSPENDED;
        } else if code == op::INIT {
            if count_bad {
                err = cause::BAD_COUNT;
            } else if waiters_on {
                err = cause::WAITERS;
            } else {
                d.entries[ix] = Entry {
                    valid: true,
                    parity: false,
                    pending: r.count,
                    expected: r.count,
                    tx: 0,
                };
            }
        } else if !e.valid {
            err = cause::UNINIT;
        } else {
            match code {
                op::INVAL => {
                    if waiters_on {
                        err = cause::WAITERS;
                    } else {
                        d.entries[ix] = Entry::default();
                    }
                }
                op::ARRIVE | op::ARRIVE_DROP | op::ARRIVE_EXPECT_TX => {
                    let tx_new = e.tx as i64
                        + if code == op::ARRIVE_EXPECT_TX {
                            r.tx as i64
                        } else {
                            0
                        };
                    if count_bad {
                        err = cause::BAD_COUNT;
                    } else if tx_new > max_tx || (code == op::ARRIVE_EXPECT_TX && tx_bad) {
                        err = cause::TX_RANGE;
                    } else if r.count > e.pending
                        || (code == op::ARRIVE_DROP && r.count >= e.expected)
                    {
                        err = cause::UNDERFLOW;
                    } else {
                        let en = &mut d.entries[ix];
                        token = en.parity;
                        en.tx = tx_new as i32;
                        en.pending -= r.count;
                        if code == op::ARRIVE_DROP {
                            en.expected -= r.count;
                            ev.drop = true;
                        }
                        complete_if_due(en, ix as u8, CompletedBy::Op(code), &mut ev);
                    }
                }
                op::EXPECT_TX => {
                    let tx_new = e.tx as i64 + r.tx as i64;
                    if tx_bad || tx_new > max_tx {
                        err = cause::TX_RANGE;
                    } else {
                        let en = &mut d.entries[ix];
                        en.tx = tx_new as i32;
                        complete_if_due(en, ix as u8, CompletedBy::Op(code), &mut ev);
                    }
                }
                op::COMPLETE_TX => {
                    let tx_new = e.tx as i64 - r.tx as i64;
                    if tx_bad || tx_new < -max_tx {
                        err = cause::TX_RANGE;
                    } else {
                        if e.tx <= 0 {
                            ev.tx_before_expect = true;
                        }
                        let en = &mut d.entries[ix];
                        en.tx = tx_new as i32;
                        complete_if_due(en, ix as u8, CompletedBy::Op(code), &mut ev);
                    }
                }
                op::TEST_WAIT => {
                    done = e.parity != r.parity;
                    ev.immediate_done |= done;
                }
                _ => {
                    // TRY_WAIT
                    done = e.parity != r.parity;
                    if done {
                        ev.immediate_done = true;
                    } else {
                        susp = true;
                        ev.suspended_now = true;
                        d.waiters[w] = Waiter {
                            susp: true,
                            entry: ix as u8,
                            parity: r.parity,
                            timer: 0,
                            decided: false,
                            done: false,
                        };
                    }
                }
            }
        }
        d.out.rsp_valid = true;
        d.out.rsp_warp = w as u8;
        d.out.rsp_op = code;
        if err != cause::NONE {
            ev.errors.push((src::OP, err));
        } else {
            d.out.rsp_token = token && op::is_arrive(code);
            d.out.rsp_done = done;
            d.out.rsp_suspended = susp;
        }
    }

    // Decisions (registered): the step's completion decides its waiters;
    // otherwise the limit passes.
    let limit = cfg.try_wait_limit as u16;
    for w in 0..w_n {
        let wq = q.waiters[w];
        if !wq.susp || wq.decided {
            continue;
        }
        let wd = &mut d.waiters[w];
        if ev
            .completions
            .iter()
            .any(|&(e, p, _)| e == wq.entry && p == wq.parity)
        {
            wd.decided = true;
            wd.done = true;
            ev.wake_decided |= 1 << w;
        } else if wq.timer + 1 >= limit {
            wd.decided = true;
            wd.done = false;
            ev.timeouts |= 1 << w;
        } else {
            wd.timer = wq.timer + 1;
        }
    }
    // Wake arbiter: up to F of the warps decided in an earlier cycle (the
    // decision registers, not this cycle's step), round robin from `rr`.
    let cand: u64 = (0..w_n)
        .filter(|&w| q.waiters[w].susp && q.waiters[w].decided)
        .fold(0u64, |m, w| m | 1 << w);
    if cand.count_ones() > cfg.wake_fanout {
        ev.wake_spread = true;
    }
    let mut granted = 0u32;
    let mut last = None;
    for k in 0..w_n {
        if granted == cfg.wake_fanout {
            break;
        }
        let w = (q.rr as usize + k) % w_n;
        if cand >> w & 1 == 1 {
            granted += 1;
            last = Some(w);
            d.out.wake_mask |= 1 << w;
            if q.waiters[w].done {
                d.out.wake_done |= 1 << w;
            }
            d.waiters[w] = Waiter::default();
        }
    }
    if let Some(w) = last {
        d.rr = ((w + 1) % w_n) as u8;
    }
    d.out.suspended = (0..w_n)
        .filter(|&w| d.waiters[w].susp)
        .fold(0u64, |m, w| m | 1 << w);

    // The step's error (one step a cycle: at most one).
    if let Some(&(s, c)) = ev.errors.first() {
        d.out.err = true;
        d.out.err_src = s;
        d.out.err_cause = c;
    }

    // The accepted request into the request register; the pointer moves past it.
    d.req = Request::default();
    if let Some(p) = g {
        d.pp = (p + 1) % 3;
        d.req = match p {
            src::OP => Request {
                valid: true,
                port: p,
                warp: i.op_warp,
                code: i.op_code,
                entry: i.op_entry,
                count: i.op_count,
                tx: i.op_tx,
                parity: i.op_parity,
            },
            src::CTX => Request {
                valid: true,
                port: p,
                entry: i.ctx_entry,
                tx: i.ctx_bytes,
                ..Request::default()
            },
            _ => Request {
                valid: true,
                port: p,
                entry: i.rarv_entry,
                count: i.rarv_count,
                ..Request::default()
            },
        };
        ev.back_to_back_same_entry = r.valid && r.entry == d.req.entry;
        ev.op_ctx_same_entry = ev.back_to_back_same_entry
            && ((r.port == src::OP && p == src::CTX) || (r.port == src::CTX && p == src::OP));
    }
    ev.tx_negative = d.entries[..m].iter().any(|e| e.valid && e.tx < 0);
    (o, d, ev)
}

/// The model as a clocked block.
#[derive(Clone, Debug)]
pub struct MbarrierModel {
    pub cfg: Config,
    pub state: State,
    pub last_events: Events,
}

impl MbarrierModel {
    pub fn new(cfg: &Config) -> Self {
        MbarrierModel {
            cfg: *cfg,
            state: State::default(),
            last_events: Events::default(),
        }
    }
    /// One clock cycle: this cycle's outputs, then the rising edge.
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let (o, d, ev) = eval_events(&self.cfg, &self.state, i);
        self.state = d;
        self.last_events = ev;
        o
    }
}

impl unit_ports::Dut<crate::ports::mbarrier::MbarrierUnitPorts> for MbarrierModel {
    fn step(&mut self, i: &Inputs) -> Outputs {
        MbarrierModel::step(self, i)
    }
    fn name(&self) -> &str {
        "model"
    }
}

//! Golden model of `mbarrier_unit` (`spec/mbarrier_unit.md`): M transaction
//! barriers (phase parity, pending and expected arrivals, signed tx-count)
//! and the per-warp `try_wait` suspension with timeout and bounded wake
//! fan-out.
//!
//! Written as hardware: [`State`] is the register file, [`eval`] the one pure
//! next-state/output function, [`MbarrierModel::step`] the clock edge. Every
//! output except `op_ready` is a register (the response to the previous
//! cycle's inputs).
//!
//! One cycle, in this fixed order, each step seeing the result of the
//! previous one (a step may complete a phase; several completions of one
//! entry in one cycle are possible and none is lost):
//! 1. the complete-tx port (`ctx_*`) pays `ctx_bytes` off the entry's tx-count;
//! 2. the remote-arrive port (`rarv_*`) arrives `rarv_count` times;
//! 3. the operation port (`op_*`).
//!
//! After each step: an entry that is valid with pending = 0 and tx-count = 0
//! completes its phase: parity flips, pending reloads from expected, and
//! every warp suspended on (entry, old parity) is decided "done". Then a
//! suspended, undecided warp whose limit L has passed is decided "timed out".
//! Decided warps are woken (`wake_mask`, `wake_done`) at most F per cycle in
//! round-robin order, in the cycle after their decision at the earliest:
//! the wake bound (M3/M8) is B = ceil(W/F) cycles.

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
    /// Registered outputs (`op_ready` is ignored here).
    pub out: Outputs,
}

impl Default for State {
    fn default() -> Self {
        State {
            entries: [Entry::default(); MAX],
            waiters: [Waiter::default(); MAX],
            rr: 0,
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
    /// The op and the complete-tx port hit the same entry this cycle.
    pub op_ctx_same_entry: bool,
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
    /// An entry completed two phases within 3 cycles (phase reuse back to back).
    pub completions_same_entry_twice: bool,
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
    o.op_ready = true;

    let mut d = *q;
    d.out = Outputs::default();
    let max_count = cfg.max_count();
    let max_tx = cfg.max_tx();
    let m = cfg.entries as usize;
    let w_n = cfg.warps as usize;

    // 1. complete-tx port.
    if i.ctx_valid {
        let ix = i.ctx_entry as usize;
        let e = &mut d.entries[ix];
        if !e.valid {
            ev.errors.push((src::CTX, cause::UNINIT));
        } else if i.ctx_bytes as i64 > max_tx || (e.tx as i64) - (i.ctx_bytes as i64) < -max_tx {
            ev.errors.push((src::CTX, cause::TX_RANGE));
        } else {
            if e.tx <= 0 {
                ev.tx_before_expect = true;
            }
            e.tx -= i.ctx_bytes as i32;
            complete_if_due(e, ix as u8, CompletedBy::CopyEngine, &mut ev);
        }
    }
    // 2. remote-arrive port.
    if i.rarv_valid {
        let ix = i.rarv_entry as usize;
        let e = &mut d.entries[ix];
        if !e.valid {
            ev.errors.push((src::RARV, cause::UNINIT));
        } else if i.rarv_count == 0 || i.rarv_count > max_count {
            ev.errors.push((src::RARV, cause::BAD_COUNT));
        } else if i.rarv_count > e.pending {
            ev.errors.push((src::RARV, cause::UNDERFLOW));
        } else {
            ev.remote_arrive = true;
            e.pending -= i.rarv_count;
            complete_if_due(e, ix as u8, CompletedBy::Remote, &mut ev);
        }
    }
    // 3. operation port.
    if i.op_valid {
        let w = i.op_warp as usize;
        let ix = i.op_entry as usize;
        let code = i.op_code;
        if i.ctx_valid && i.ctx_entry == i.op_entry {
            ev.op_ctx_same_entry = true;
        }
        let waiters_on =
            |d: &State| (0..w_n).any(|v| d.waiters[v].susp && d.waiters[v].entry as usize == ix);
        let mut err = cause::NONE;
        let (mut token, mut done, mut susp) = (false, false, false);
        let count_bad = i.op_count == 0 || i.op_count > max_count;
        // The byte operand itself above 2^tx_bits - 1 (its port has one bit
        // more so that this is visible): refused whatever the tx-count is.
        let tx_bad = i.op_tx as i64 > max_tx;
        let e = d.entries[ix];
        if op::is_reserved(code) {
            err = cause::RESERVED_OP;
        } else if q.waiters[w].susp {
            err = cause::WARP_SUSPENDED;
        } else if code == op::INIT {
            if count_bad {
                err = cause::BAD_COUNT;
            } else if waiters_on(&d) {
                err = cause::WAITERS;
            } else {
                d.entries[ix] = Entry {
                    valid: true,
                    parity: false,
                    pending: i.op_count,
                    expected: i.op_count,
                    tx: 0,
                };
            }
        } else if !e.valid {
            err = cause::UNINIT;
        } else {
            match code {
                op::INVAL => {
                    if waiters_on(&d) {
                        err = cause::WAITERS;
                    } else {
                        d.entries[ix] = Entry::default();
                    }
                }
                op::ARRIVE | op::ARRIVE_DROP | op::ARRIVE_EXPECT_TX => {
                    let tx_new = e.tx as i64
                        + if code == op::ARRIVE_EXPECT_TX {
                            i.op_tx as i64
                        } else {
                            0
                        };
                    if count_bad {
                        err = cause::BAD_COUNT;
                    } else if tx_new > max_tx || (code == op::ARRIVE_EXPECT_TX && tx_bad) {
                        err = cause::TX_RANGE;
                    } else if i.op_count > e.pending
                        || (code == op::ARRIVE_DROP && i.op_count >= e.expected)
                    {
                        err = cause::UNDERFLOW;
                    } else {
                        let en = &mut d.entries[ix];
                        token = en.parity;
                        en.tx = tx_new as i32;
                        en.pending -= i.op_count;
                        if code == op::ARRIVE_DROP {
                            en.expected -= i.op_count;
                            ev.drop = true;
                        }
                        complete_if_due(en, ix as u8, CompletedBy::Op(code), &mut ev);
                    }
                }
                op::EXPECT_TX => {
                    let tx_new = e.tx as i64 + i.op_tx as i64;
                    if tx_bad || tx_new > max_tx {
                        err = cause::TX_RANGE;
                    } else {
                        let en = &mut d.entries[ix];
                        en.tx = tx_new as i32;
                        complete_if_due(en, ix as u8, CompletedBy::Op(code), &mut ev);
                    }
                }
                op::COMPLETE_TX => {
                    let tx_new = e.tx as i64 - i.op_tx as i64;
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
                    done = e.parity != i.op_parity;
                    ev.immediate_done |= done;
                }
                _ => {
                    // TRY_WAIT
                    done = e.parity != i.op_parity;
                    if done {
                        ev.immediate_done = true;
                    } else {
                        susp = true;
                        ev.suspended_now = true;
                        d.waiters[w] = Waiter {
                            susp: true,
                            entry: ix as u8,
                            parity: i.op_parity,
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

    // Decisions: completions wake their waiters; otherwise the limit passes.
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
    // Wake arbiter: up to F decided warps, round robin from `rr`.
    let cand: u64 = (0..w_n)
        .filter(|&w| q.waiters[w].susp && d.waiters[w].decided)
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
            if d.waiters[w].done {
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

    // Reported error: the op port's first, then the complete-tx port's, then the remote's.
    let reported = [src::OP, src::CTX, src::RARV]
        .iter()
        .find_map(|&p| ev.errors.iter().find(|&&(s, _)| s == p).copied());
    if let Some((s, c)) = reported {
        d.out.err = true;
        d.out.err_src = s;
        d.out.err_cause = c;
    }
    ev.tx_negative = d.entries[..m].iter().any(|e| e.valid && e.tx < 0);
    let mut seen = 0u64;
    for &(e, _, _) in &ev.completions {
        if seen >> e & 1 == 1 {
            ev.completions_same_entry_twice = true;
        }
        seen |= 1 << e;
    }
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

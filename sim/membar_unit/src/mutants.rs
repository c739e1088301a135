//! Deliberately broken variants of the membar unit, for mutation testing
//! (feature `mutants`, off by default; test crates turn it on in their
//! dev-dependencies): each [`Fault`] must be caught by the P1–P7 scoreboard (as its property)
//! and by the lockstep comparison. Test-only machinery, kept out of the
//! golden kernel: every mutant is a wrapper around the unchanged pure
//! [`eval`], which edits the registered state or the inputs it is given
//! and the outputs or next state it returns.

use crate::config::Config;
use crate::membar_unit::{eval, Events, State};
use crate::ports::{kind, level, op, Dut, Inputs, MembarUnitPorts, Outputs};

/// The deliberate bugs. `Fault::None` is the real design.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Fault {
    #[default]
    None,
    /// Release a coalesced barrier one cycle early: this cycle's `ack` and
    /// `bar_ack` already count for the release decision.
    ReleaseEarly,
    /// Forget to block a warp on a plain MEMBAR.CTA: its later requests are
    /// accepted (and it is never released).
    NoBlock,
    /// Accept every TXN whose id ends in 0x3f but never send it.
    DropTxn,
    /// Send every TXN whose id ends in 0x3f twice.
    DupTxn,
    /// Ignore a full counter: accept the TXN and let the counter wrap.
    CounterWrap,
    /// GL/SYS barriers whose BARRIER has left do not wait for their commit
    /// counters.
    NoCounterWait,
    /// Release MEMBAR.CTA while the warp's TXN is still in the output register.
    CtaEarly,
    /// Accept spurious acks (decrement a zero counter, wrapping), no `err`.
    AcceptSpuriousAck,
    /// Never pulse `err` for a reserved op: accept it as a TXN.
    AcceptReservedOp,
}

impl Fault {
    /// Every fault except `None`.
    pub const ALL: [Fault; 9] = [
        Fault::ReleaseEarly,
        Fault::NoBlock,
        Fault::DropTxn,
        Fault::DupTxn,
        Fault::CounterWrap,
        Fault::NoCounterWait,
        Fault::CtaEarly,
        Fault::AcceptSpuriousAck,
        Fault::AcceptReservedOp,
    ];
}

fn dropped_id(id: u16) -> bool {
    id & 0x3f == 0x3f
}

/// The membar unit with one deliberate bug, as a lockstep back end.
#[derive(Clone, Debug)]
pub struct MutantModel {
    pub cfg: Config,
    pub fault: Fault,
    pub q: State,
    pub last_events: Events,
    /// [`Fault::DupTxn`]: the presented TXN has already been sent once.
    dup_sent: bool,
}

impl MutantModel {
    pub fn new(cfg: &Config, fault: Fault) -> Self {
        MutantModel {
            cfg: cfg.clone(),
            fault,
            q: State::default(),
            last_events: Events::default(),
            dup_sent: false,
        }
    }

    /// One cycle of the mutant: the golden [`eval`] on edited state/inputs,
    /// its results edited after.
    fn eval(&mut self, i: &Inputs) -> (Outputs, State, Events) {
        let cfg = &self.cfg;
        let q = &self.q;
        let i = i.masked_for(cfg);
        if i.reset {
            self.dup_sent = false;
            return eval(cfg, q, &i);
        }
        let cmax = cfg.counter_max() as u16;
        let wbit = 1u64 << i.req_warp;
        let open = q.open as usize;
        match self.fault {
            Fault::None => eval(cfg, q, &i),
            Fault::ReleaseEarly => {
                // Apply a legal ack/bar_ack of a closed slot to the state
                // before the cycle, so the release walk already counts it.
                let mut q2 = *q;
                let mut i2 = i;
                let out_holds = q.out.valid && q.out.kind == kind::TXN && q.out.tag == i.ack_tag;
                let t = i.ack_tag as usize;
                if i.ack_valid && t != open && q.cnt[t] > out_holds as u16 {
                    q2.cnt[t] -= 1;
                    i2.ack_valid = false;
                }
                let tb = 1u8 << i.bar_ack_tag;
                if i.bar_ack_valid && (q.closed & q.ack_req & q.bar_sent & !q.bar_acked & tb) != 0 {
                    q2.bar_acked |= tb;
                    i2.bar_ack_valid = false;
                }
                eval(cfg, &q2, &i2)
            }
            Fault::NoBlock => {
                let (o, mut d, ev) = eval(cfg, q, &i);
                let plain_cta =
                    i.req_op == op::MEMBAR && i.req_level == level::CTA && i.req_ivall == 0;
                if i.req_valid && o.req_ready && plain_cta {
                    d.cta_pend &= !wbit;
                }
                (o, d, ev)
            }
            Fault::DropTxn => {
                let (o, mut d, ev) = eval(cfg, q, &i);
                let accepted_txn = i.req_valid && o.req_ready && op::is_txn(i.req_op);
                if accepted_txn
                    && dropped_id(i.req_id)
                    && d.out.valid
                    && d.out.kind == kind::TXN
                    && d.out.id == i.req_id
                    && d.out != q.out
                {
                    d.out = Default::default();
                }
                (o, d, ev)
            }
            Fault::DupTxn => {
                let out_txn = q.out.valid && q.out.kind == kind::TXN;
                if out_txn && dropped_id(q.out.id) && i.dn_ready && !self.dup_sent {
                    // Downstream takes it, but the unit behaves as if it had
                    // not: the TXN is presented (and sent) once more.
                    let mut i2 = i;
                    i2.dn_ready = false;
                    self.dup_sent = true;
                    eval(cfg, q, &i2)
                } else {
                    let r = eval(cfg, q, &i);
                    if r.1.out != q.out {
                        self.dup_sent = false;
                    }
                    r
                }
            }
            Fault::CounterWrap => {
                if q.cnt[open] != cmax {
                    return eval(cfg, q, &i);
                }
                let mut q2 = *q;
                q2.cnt[open] = cmax - 1;
                let (o, mut d, ev) = eval(cfg, &q2, &i);
                // Golden on q2: d = q2 + acc - ack, without wrapping.
                let acc = u32::from(i.req_valid && o.req_ready && op::is_txn(i.req_op));
                let ack = u32::from(q2.cnt[open]) + acc - u32::from(d.cnt[open]);
                d.cnt[open] = ((u32::from(q.cnt[open]) + acc - ack) & u32::from(cmax)) as u16;
                (o, d, ev)
            }
            Fault::NoCounterWait => {
                // Closed GL/SYS slots whose BARRIER has left look like VC
                // barriers to the release walk (which then ignores counters).
                let mut q2 = *q;
                let lowered = q.closed & q.bar_sent;
                for s in 0..cfg.slots as usize {
                    if lowered & (1 << s) != 0 && q2.level[s] > level::VC {
                        q2.level[s] = level::VC;
                    }
                }
                let (o, mut d, ev) = eval(cfg, &q2, &i);
                for s in 0..cfg.slots as usize {
                    if ev.released_slots & (1 << s) == 0 && lowered & (1 << s) != 0 {
                        d.level[s] = q.level[s];
                    }
                }
                (o, d, ev)
            }
            Fault::CtaEarly => {
                let (mut o, mut d, ev) = eval(cfg, q, &i);
                let out_txn = q.out.valid && q.out.kind == kind::TXN;
                if out_txn {
                    let held = q.cta_pend & (1u64 << q.out.warp);
                    o.release_mask |= held;
                    o.release_valid |= held != 0;
                    d.cta_pend &= !held;
                }
                (o, d, ev)
            }
            Fault::AcceptSpuriousAck => {
                let (mut o, mut d, ev) = eval(cfg, q, &i);
                if ev.spurious_ack {
                    let t = i.ack_tag as usize;
                    d.cnt[t] = d.cnt[t].wrapping_sub(1) & cmax;
                    o.err = ev.reserved_op || ev.spurious_bar_ack;
                }
                (o, d, ev)
            }
            Fault::AcceptReservedOp => {
                if !(i.req_valid && op::is_reserved(i.req_op)) {
                    return eval(cfg, q, &i);
                }
                let mut i2 = i;
                i2.req_op = op::ST;
                let (mut o, mut d, mut ev) = eval(cfg, q, &i2);
                if d.out.valid && d.out.kind == kind::TXN && d.out.id == i.req_id && d.out != q.out
                {
                    d.out.op = i.req_op;
                }
                ev.reserved_op = false;
                o.err = ev.spurious_ack || ev.spurious_bar_ack;
                (o, d, ev)
            }
        }
    }
}

impl crate::membar_unit::EventedModel for MutantModel {
    fn config(&self) -> &Config {
        &self.cfg
    }
    fn last_events(&self) -> &Events {
        &self.last_events
    }
}

impl Dut<MembarUnitPorts> for MutantModel {
    fn step(&mut self, i: &Inputs) -> Outputs {
        let (o, d, ev) = self.eval(i);
        self.q = d;
        self.last_events = ev;
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}

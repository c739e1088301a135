//! Golden model of `async_groups` (`spec/async_groups.md`): per warp, bulk
//! async operations are issued into an open group, `commit_group` closes it
//! into a ring of at most G committed groups, the copy engine reports reads
//! and completions of each warp's operations in issue order, groups retire
//! in order, and `wait_group N` / `wait_group.read N` block the warp until at
//! most N committed groups are pending (still reading their sources).
//!
//! Hardware shape: per warp a ring of G (reads left, writes left) counter
//! pairs of `group_op_bits` bits, head/count, the open group's pair, and the
//! wait register. One cycle: reports (`rd_*`, `wr_*`) update the counters
//! (oldest group first), the accepted operation applies, then every leading
//! committed group with nothing left retires at the edge. `release_mask` and
//! `ag_ready` are combinational from the registered state; a blocked warp is
//! released in the first cycle whose registered state meets its condition.
//! Overflow (a full open group, G groups pending) is refused, never wrapped.

use crate::config::Config;
use crate::ports::async_groups::{cause, op, Inputs, Outputs};

pub const MAX_WARPS: usize = 64;
pub const MAX_DEPTH: usize = 16;

/// One warp's tracker registers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WarpGroups {
    /// Committed groups (ring): operations whose source is not read yet.
    pub rd: [u8; MAX_DEPTH],
    /// Committed groups (ring): operations not complete yet.
    pub wr: [u8; MAX_DEPTH],
    pub head: u8,
    /// Committed groups pending (not retired).
    pub n: u8,
    pub open_rd: u8,
    pub open_wr: u8,
    pub blocked: bool,
    pub wait_n: u8,
    pub wait_read: bool,
}

impl WarpGroups {
    fn slot(&self, cfg: &Config, k: usize) -> usize {
        (self.head as usize + k) % cfg.group_depth as usize
    }
    /// Committed groups still reading their sources: from the oldest one with
    /// reads left to the youngest.
    pub fn read_pending(&self, cfg: &Config) -> u8 {
        for k in 0..self.n as usize {
            if self.rd[self.slot(cfg, k)] != 0 {
                return self.n - k as u8;
            }
        }
        0
    }
    /// Would a wait with this (N, read) return now?
    pub fn wait_met(&self, cfg: &Config, n: u8, read: bool) -> bool {
        let pending = if read { self.read_pending(cfg) } else { self.n };
        pending <= n
    }
}

/// Registered state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    pub warps: [WarpGroups; MAX_WARPS],
    pub err: bool,
    pub err_cause: u8,
}

impl Default for State {
    fn default() -> Self {
        State {
            warps: [WarpGroups::default(); MAX_WARPS],
            err: false,
            err_cause: 0,
        }
    }
}

/// Internal signals of one evaluation (for coverage).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    pub bulk_refused_full: bool,
    pub commit_refused_full: bool,
    pub empty_commit: bool,
    pub wait_immediate: bool,
    pub released: u64,
    /// A `.read` wait was released while its groups still had writes pending.
    pub read_release_before_complete: bool,
    pub groups_retired: u32,
    pub spurious_rd: bool,
    pub spurious_wr: bool,
    pub blocked_refused: bool,
}

pub fn eval(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State) {
    let (o, d, _) = eval_events(cfg, q, i);
    (o, d)
}

pub fn eval_events(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State, Events) {
    let mut ev = Events::default();
    if i.reset {
        return (Outputs::default(), State::default(), ev);
    }
    let i = i.masked(cfg);
    let wn = cfg.warps as usize;
    let g = cfg.group_depth as usize;
    let mut o = Outputs {
        err: q.err,
        err_cause: q.err_cause,
        ..Outputs::default()
    };
    let mut d = *q;
    d.err = false;
    d.err_cause = 0;
    for w in 0..wn {
        let wq = &q.warps[w];
        if wq.blocked {
            o.blocked |= 1 << w;
            if wq.wait_met(cfg, wq.wait_n, wq.wait_read) {
                o.release_mask |= 1 << w;
                d.warps[w].blocked = false;
                if wq.wait_read && wq.n > wq.wait_n {
                    ev.read_release_before_complete = true;
                }
            }
        }
    }
    ev.released = o.release_mask;

    // Completion reports, oldest group first (committed ring, then the open group).
    if i.rd_valid {
        let ws = &mut d.warps[i.rd_warp as usize];
        let mut hit = false;
        for k in 0..=ws.n as usize {
            let r = if k < ws.n as usize {
                &mut ws.rd[(ws.head as usize + k) % g]
            } else {
                &mut ws.open_rd
            };
            if *r > 0 {
                *r -= 1;
                hit = true;
                break;
            }
        }
        if !hit {
            d.err_cause |= cause::RD_SPURIOUS;
            ev.spurious_rd = true;
        }
    }
    if i.wr_valid {
        let ws = &mut d.warps[i.wr_warp as usize];
        let mut ok = false;
        for k in 0..=ws.n as usize {
            let (r, wr) = if k < ws.n as usize {
                let s = (ws.head as usize + k) % g;
                (ws.rd[s], &mut ws.wr[s])
            } else {
                (ws.open_rd, &mut ws.open_wr)
            };
            if *wr > 0 {
                if *wr > r {
                    *wr -= 1;
                    ok = true;
                }
                break;
            }
        }
        if !ok {
            d.err_cause |= cause::WR_SPURIOUS;
            ev.spurious_wr = true;
        }
    }
    d.err = d.err_cause != 0;

    // The issue port.
    if i.ag_valid {
        let w = i.ag_warp as usize;
        let wq = &q.warps[w];
        let ready = if wq.blocked {
            ev.blocked_refused = true;
            false
        } else {
            match i.ag_op {
                op::BULK => {
                    let full = wq.open_wr as u32 >= cfg.max_group_ops();
                    ev.bulk_refused_full = full;
                    !full
                }
                op::COMMIT => {
                    let full = wq.n as usize >= g;
                    ev.commit_refused_full = full;
                    !full
                }
                _ => true,
            }
        };
        o.ag_ready = ready;
        if ready {
            let ws = &mut d.warps[w];
            match i.ag_op {
                op::BULK => {
                    ws.open_rd += 1;
                    ws.open_wr += 1;
                }
                op::COMMIT => {
                    let s = (ws.head as usize + ws.n as usize) % g;
                    ws.rd[s] = ws.open_rd;
                    ws.wr[s] = ws.open_wr;
                    ev.empty_commit = ws.open_wr == 0;
                    ws.n += 1;
                    ws.open_rd = 0;
                    ws.open_wr = 0;
                }
                _ => {
                    ws.blocked = true;
                    ws.wait_n = i.ag_n;
                    ws.wait_read = i.ag_op == op::WAIT_READ;
                    ev.wait_immediate = ws.wait_met(cfg, i.ag_n, ws.wait_read);
                }
            }
        }
    }
    // In-order retirement of leading completed groups.
    for w in 0..wn {
        let ws = &mut d.warps[w];
        while ws.n > 0 && ws.wr[ws.head as usize] == 0 {
            ws.rd[ws.head as usize] = 0;
            ws.head = ((ws.head as usize + 1) % g) as u8;
            ws.n -= 1;
            ev.groups_retired += 1;
        }
    }
    (o, d, ev)
}

/// The tracker as a clocked block.
#[derive(Clone, Debug)]
pub struct AsyncGroupsModel {
    pub cfg: Config,
    pub state: State,
    pub last_events: Events,
}

impl AsyncGroupsModel {
    pub fn new(cfg: &Config) -> Self {
        AsyncGroupsModel {
            cfg: *cfg,
            state: State::default(),
            last_events: Events::default(),
        }
    }
    pub fn step(&mut self, i: &Inputs) -> Outputs {
        let (o, d, ev) = eval_events(&self.cfg, &self.state, i);
        self.state = d;
        self.last_events = ev;
        o
    }
}

impl unit_ports::Dut<crate::ports::async_groups::AsyncGroupsPorts> for AsyncGroupsModel {
    fn step(&mut self, i: &Inputs) -> Outputs {
        AsyncGroupsModel::step(self, i)
    }
    fn name(&self) -> &str {
        "model"
    }
}

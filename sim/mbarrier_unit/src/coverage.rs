//! Functional coverage of both blocks: named bins counted cycle by cycle from
//! the ports and the golden models' internal events, with a report that
//! lists every bin and the unhit ones.
//!
//! mbarrier bins: `tx_before_expect` (bytes paid before their expect_tx),
//! `tx_negative`, completion by cause (`complete_by_copy_engine`,
//! `complete_by_arrive`, `complete_by_arrive_expect_tx`,
//! `complete_by_complete_tx_op`, `complete_by_remote`, `complete_by_drop`),
//! `try_wait_immediate`, `try_wait_wake`, `try_wait_timeout`,
//! `test_wait_done`, `test_wait_not_done`, `op_ctx_same_entry`,
//! `op_ctx_same_entry_completion` (an op and a complete-tx stepped back to
//! back on one entry), `phase_reuse_back_to_back` (an entry completes again
//! within 4 cycles), `completions_one_entry_consecutive_steps`,
//! `ports_contend` (two or more ports request in one cycle),
//! `back_to_back_same_entry`,
//! `drop`, `remote_arrive`, `wake_fanout_spread`, `reset_with_waiters`,
//! `err_<cause>` for every cause, `err_from_ctx`, `err_from_rarv`.
//!
//! async-group bins: `bulk_refused_full`, `commit_refused_full`,
//! `empty_commit`, `wait_immediate`, `wait_blocked_then_released`,
//! `wait_read_before_complete`, `spurious_rd`, `spurious_wr`,
//! `blocked_refused`, `multi_release`, `multi_retire`.

use crate::async_groups::Events as GroupEvents;
use crate::config::Config;
use crate::mbarrier_unit::{CompletedBy, Events};
use crate::ports::async_groups as ag;
use crate::ports::mbarrier::{cause, op, src, Inputs, Outputs};
use std::collections::BTreeMap;
use std::fmt::Write as _;

pub const MBAR_BINS: &[&str] = &[
    "tx_before_expect",
    "tx_negative",
    "complete_by_copy_engine",
    "complete_by_arrive",
    "complete_by_arrive_expect_tx",
    "complete_by_complete_tx_op",
    "complete_by_remote",
    "complete_by_drop",
    "try_wait_immediate",
    "try_wait_wake",
    "try_wait_timeout",
    "test_wait_done",
    "test_wait_not_done",
    "op_ctx_same_entry",
    "op_ctx_same_entry_completion",
    "phase_reuse_back_to_back",
    "completions_one_entry_consecutive_steps",
    "ports_contend",
    "back_to_back_same_entry",
    "drop",
    "remote_arrive",
    "wake_fanout_spread",
    "reset_with_waiters",
    "err_reserved_op",
    "err_warp_suspended",
    "err_uninit",
    "err_bad_count",
    "err_underflow",
    "err_tx_range",
    "err_waiters",
    "err_from_ctx",
    "err_from_rarv",
];

pub const GROUP_BINS: &[&str] = &[
    "bulk_refused_full",
    "commit_refused_full",
    "empty_commit",
    "wait_immediate",
    "wait_blocked_then_released",
    "wait_read_before_complete",
    "spurious_rd",
    "spurious_wr",
    "blocked_refused",
    "multi_release",
    "multi_retire",
];

/// Hit counts.
#[derive(Clone, Debug)]
pub struct Coverage {
    pub bins: BTreeMap<&'static str, u64>,
    last_completion: Vec<Option<u64>>,
    cycle: u64,
    wait_since: Vec<Option<u64>>,
    group_cycle: u64,
    last_suspended: u64,
}

impl Coverage {
    /// Bins of the mbarrier unit (`mbar`) and/or the async-group tracker (`groups`).
    pub fn new(cfg: &Config, mbar: bool, groups: bool) -> Self {
        let mut bins = BTreeMap::new();
        if mbar {
            bins.extend(MBAR_BINS.iter().map(|&b| (b, 0)));
        }
        if groups {
            bins.extend(GROUP_BINS.iter().map(|&b| (b, 0)));
        }
        Coverage {
            bins,
            last_completion: vec![None; cfg.entries as usize],
            cycle: 0,
            wait_since: vec![None; cfg.warps as usize],
            group_cycle: 0,
            last_suspended: 0,
        }
    }

    fn hit(&mut self, b: &'static str) {
        if let Some(n) = self.bins.get_mut(b) {
            *n += 1;
        }
    }

    /// Count one mbarrier cycle (its ports and the model's events).
    pub fn observe_mbar(&mut self, i: &Inputs, o: &Outputs, ev: &Events) {
        self.cycle += 1;
        let was_suspended = std::mem::replace(&mut self.last_suspended, o.suspended);
        if i.reset {
            if was_suspended != 0 {
                self.hit("reset_with_waiters");
            }
            self.last_completion.iter_mut().for_each(|x| *x = None);
            return;
        }
        if ev.tx_before_expect {
            self.hit("tx_before_expect");
        }
        if ev.tx_negative {
            self.hit("tx_negative");
        }
        if ev.op_ctx_same_entry {
            self.hit("op_ctx_same_entry");
            // (The stepped request's entry is the accepted one's.)
            if !ev.completions.is_empty() {
                self.hit("op_ctx_same_entry_completion");
            }
        }
        if ev.contention {
            self.hit("ports_contend");
        }
        if ev.back_to_back_same_entry {
            self.hit("back_to_back_same_entry");
        }
        for k in 0..ev.completions.len() {
            let (e, _, by) = ev.completions[k];
            self.hit(match by {
                CompletedBy::CopyEngine => "complete_by_copy_engine",
                CompletedBy::Remote => "complete_by_remote",
                CompletedBy::Op(op::ARRIVE) => "complete_by_arrive",
                CompletedBy::Op(op::ARRIVE_EXPECT_TX) => "complete_by_arrive_expect_tx",
                CompletedBy::Op(op::ARRIVE_DROP) => "complete_by_drop",
                CompletedBy::Op(_) => "complete_by_complete_tx_op",
            });
            let e = e as usize;
            if matches!(self.last_completion[e], Some(c) if self.cycle - c <= 4) {
                self.hit("phase_reuse_back_to_back");
            }
            if self.last_completion[e] == Some(self.cycle - 1) {
                self.hit("completions_one_entry_consecutive_steps");
            }
            self.last_completion[e] = Some(self.cycle);
        }
        if ev.drop {
            self.hit("drop");
        }
        if ev.remote_arrive {
            self.hit("remote_arrive");
        }
        if ev.wake_spread {
            self.hit("wake_fanout_spread");
        }
        for &(s, c) in &ev.errors {
            let name = match c {
                cause::RESERVED_OP => "err_reserved_op",
                cause::WARP_SUSPENDED => "err_warp_suspended",
                cause::UNINIT => "err_uninit",
                cause::BAD_COUNT => "err_bad_count",
                cause::UNDERFLOW => "err_underflow",
                cause::TX_RANGE => "err_tx_range",
                _ => "err_waiters",
            };
            self.hit(name);
            if s == src::CTX {
                self.hit("err_from_ctx");
            }
            if s == src::RARV {
                self.hit("err_from_rarv");
            }
        }
        // Answers (registered: this cycle's outputs answer the previous op).
        if o.rsp_valid && !o.err {
            match o.rsp_op {
                op::TRY_WAIT if o.rsp_done => self.hit("try_wait_immediate"),
                op::TEST_WAIT if o.rsp_done => self.hit("test_wait_done"),
                op::TEST_WAIT => self.hit("test_wait_not_done"),
                _ => {}
            }
        }
        if o.wake_done != 0 {
            self.hit("try_wait_wake");
        }
        if o.wake_mask & !o.wake_done != 0 {
            self.hit("try_wait_timeout");
        }
    }

    /// Count one async-group cycle.
    pub fn observe_groups(&mut self, i: &ag::Inputs, o: &ag::Outputs, ev: &GroupEvents) {
        if i.reset {
            self.wait_since.iter_mut().for_each(|x| *x = None);
            return;
        }
        for (b, on) in [
            ("bulk_refused_full", ev.bulk_refused_full),
            ("commit_refused_full", ev.commit_refused_full),
            ("empty_commit", ev.empty_commit),
            ("wait_read_before_complete", ev.read_release_before_complete),
            ("spurious_rd", ev.spurious_rd),
            ("spurious_wr", ev.spurious_wr),
            ("blocked_refused", ev.blocked_refused),
            ("multi_release", o.release_mask.count_ones() > 1),
            ("multi_retire", ev.groups_retired > 1),
        ] {
            if on {
                self.hit(b);
            }
        }
        for w in 0..self.wait_since.len() {
            if o.release_mask >> w & 1 == 1 {
                match self.wait_since[w].take() {
                    Some(s) if self.group_cycle > s + 1 => self.hit("wait_blocked_then_released"),
                    _ => self.hit("wait_immediate"),
                }
            }
        }
        if i.ag_valid && o.ag_ready && (i.ag_op == ag::op::WAIT || i.ag_op == ag::op::WAIT_READ) {
            if let Some(x) = self.wait_since.get_mut(i.ag_warp as usize) {
                *x = Some(self.group_cycle);
            }
        }
        self.group_cycle += 1;
    }

    pub fn unhit(&self) -> Vec<&'static str> {
        self.bins
            .iter()
            .filter(|(_, &n)| n == 0)
            .map(|(&b, _)| b)
            .collect()
    }

    pub fn merge(&mut self, other: &Coverage) {
        for (b, n) in &other.bins {
            *self.bins.entry(b).or_insert(0) += n;
        }
    }

    pub fn report(&self) -> String {
        let mut s = String::new();
        let hit = self.bins.values().filter(|&&n| n > 0).count();
        let _ = writeln!(s, "coverage: {hit}/{} bins hit", self.bins.len());
        for (b, n) in &self.bins {
            let _ = writeln!(s, "  {b:<40} {n}");
        }
        let u = self.unhit();
        if !u.is_empty() {
            let _ = writeln!(s, "unhit: {}", u.join(", "));
        }
        s
    }
}

/// The golden `async_groups` model as the lockstep reference, counting the
/// functional coverage of every cycle it steps (its events plus the ports;
/// in a lockstep run the design under test's outputs equal these).
pub struct CoveredGroups {
    pub model: crate::async_groups::AsyncGroupsModel,
    pub cov: Coverage,
}

impl CoveredGroups {
    pub fn new(cfg: &Config) -> Self {
        CoveredGroups {
            model: crate::async_groups::AsyncGroupsModel::new(cfg),
            cov: Coverage::new(cfg, false, true),
        }
    }
}

impl unit_ports::Dut<ag::AsyncGroupsPorts> for CoveredGroups {
    fn step(&mut self, i: &ag::Inputs) -> ag::Outputs {
        let o = self.model.step(i);
        self.cov.observe_groups(i, &o, &self.model.last_events);
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}

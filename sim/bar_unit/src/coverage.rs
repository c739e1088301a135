//! Functional coverage of `bar_unit` and `cluster_barrier`: named bins
//! counted cycle by cycle from the ports plus the golden model's registers
//! before the edge (which CTA slots are busy, which phases are open), and a
//! report that lists every bin with its count and names the unhit ones.
//!
//! `bar_unit` bins:
//! - `id[a]` (a = 0..15): a barrier with id a completed
//! - `slot[s]` (every CTA slot): a barrier of slot s completed
//! - `count[n]` (n = 1..=W): a phase with explicit count n completed
//! - `all_form`: a no-count (every live warp) phase completed
//! - `op_sync`, `arrive_only` (completed with no waiter), `producer_consumer`
//!   (a phase with both bar.arrive and bar.sync arrivals), `red_popc`,
//!   `red_and_0`, `red_and_1`, `red_or_0`, `red_or_1`
//! - `exit_completes`: an exit completed a barrier
//! - `back_to_back`: an arrival at (slot, id) taken in its release cycle
//! - `all_ctas_busy`: every CTA slot busy at once
//! - `many_pending`: an arrival taken while ≥ 4 phases are open
//! - `blocked_refused`, `ctl_refused`: a request refused (blocked warp / ctl event)
//! - `err[cause]` for every `err_code`
//! - `reset_mid_traffic`: reset while a warp was blocked
//!
//! `cluster_barrier` bins: `ranks_done` (a phase completed), `done_with_gone`
//! (a phase completed with a rank gone), `arrive_in_done_cycle`,
//! `err_double`, `err_gone`, `simultaneous_all` (every rank arrived in one
//! cycle), `reset_mid_phase`.

use crate::bar_unit::State;
use crate::config::{BarConfig, ClusterConfig, BARRIERS_PER_CTA};
use crate::ports::{ctl, errc, op, BarInputs, BarOutputs, ClusterInputs, ClusterOutputs};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Hit counts of every `bar_unit` bin (ordered by name).
#[derive(Clone, Debug)]
pub struct BarCoverage {
    pub cfg: BarConfig,
    pub bins: BTreeMap<String, u64>,
    /// Per (slot, id): the open phase saw an ARRIVE / a SYNC.
    saw: Vec<(bool, bool)>,
    last_exit: bool,
}

impl BarCoverage {
    pub fn new(cfg: &BarConfig) -> BarCoverage {
        let mut bins = BTreeMap::new();
        let mut add = |k: String| {
            bins.insert(k, 0u64);
        };
        for a in 0..16 {
            add(format!("id[{a:02}]"));
        }
        for s in 0..cfg.cta_slots {
            add(format!("slot[{s:02}]"));
        }
        for n in 1..=cfg.warps {
            add(format!("count[{n:02}]"));
        }
        for k in [
            "all_form",
            "op_sync",
            "arrive_only",
            "producer_consumer",
            "red_popc",
            "red_and_0",
            "red_and_1",
            "red_or_0",
            "red_or_1",
            "exit_completes",
            "back_to_back",
            "all_ctas_busy",
            "many_pending",
            "blocked_refused",
            "ctl_refused",
            "reset_mid_traffic",
        ] {
            add(k.to_string());
        }
        for c in errc::ALL {
            // A slot index out of range exists only when C is not a power of two.
            if c == errc::SLOT_RANGE && cfg.cta_slots == 1 << cfg.sb() {
                continue;
            }
            add(format!("err[{}]", errc::name(c)));
        }
        BarCoverage {
            cfg: *cfg,
            bins,
            saw: vec![(false, false); cfg.cta_slots as usize * BARRIERS_PER_CTA],
            last_exit: false,
        }
    }

    fn hit(&mut self, k: &str) {
        if let Some(v) = self.bins.get_mut(k) {
            *v += 1;
        }
    }

    /// Samples one cycle: `s` is the model's state before the edge.
    pub fn sample(&mut self, s: &State, i: &BarInputs, o: &BarOutputs) {
        if i.reset {
            if s.blocked != 0 {
                self.hit("reset_mid_traffic");
            }
            self.saw.iter_mut().for_each(|x| *x = (false, false));
            self.last_exit = false;
            return;
        }
        if o.rel_valid {
            let idx = o.rel_slot as usize * BARRIERS_PER_CTA + o.rel_id as usize;
            self.hit(&format!("id[{:02}]", o.rel_id));
            self.hit(&format!("slot[{:02}]", o.rel_slot));
            match o.rel_op {
                op::RED_POPC => self.hit("red_popc"),
                op::RED_AND => self.hit(if o.rel_result == 1 {
                    "red_and_1"
                } else {
                    "red_and_0"
                }),
                op::RED_OR => self.hit(if o.rel_result == 1 {
                    "red_or_1"
                } else {
                    "red_or_0"
                }),
                _ => {
                    if o.rel_mask == 0 {
                        self.hit("arrive_only")
                    } else {
                        self.hit("op_sync")
                    }
                }
            }
            let (a, y) = self.saw[idx];
            if a && y {
                self.hit("producer_consumer");
            }
            self.saw[idx] = (false, false);
            if self.last_exit {
                self.hit("exit_completes");
            }
        }
        // The completed phase's form: from the register image just before completion
        // (the completing cycle) we only know it through the request; record at accept.
        self.last_exit = false;
        if s.slot_busy.iter().all(|&b| b) {
            self.hit("all_ctas_busy");
        }
        if o.err {
            self.hit(&format!("err[{}]", errc::name(o.err_code)));
        }
        if i.ctl_valid {
            self.last_exit = i.ctl_op == ctl::EXIT && !o.err;
            if i.req_valid && !o.req_ready {
                self.hit("ctl_refused");
            }
            return;
        }
        if !i.req_valid {
            return;
        }
        let w = (i.req_warp as u32 & (self.cfg.warps - 1)) as usize;
        if !o.req_ready {
            self.hit("blocked_refused");
            return;
        }
        if o.err {
            return;
        }
        let slot = s.warp_slot[w] as usize;
        let id = (i.req_id & 15) as usize;
        let idx = slot * BARRIERS_PER_CTA + id;
        if o.rel_valid && o.rel_slot as usize == slot && o.rel_id as usize == id {
            self.hit("back_to_back");
        }
        if s.bars.iter().filter(|b| b.active).count() >= 4 {
            self.hit("many_pending");
        }
        if i.req_op == op::ARRIVE {
            self.saw[idx].0 = true;
        } else if i.req_op == op::SYNC {
            self.saw[idx].1 = true;
        }
        // Completion in this cycle (the model's rule, read from its registers).
        let b = &s.bars[idx];
        let count = if b.active { b.count + 1 } else { 1 };
        let (all, expected) = if b.active {
            (b.all, b.expected)
        } else {
            (i.req_all, i.req_count)
        };
        let done = if all {
            count >= s.slot_live[slot]
        } else {
            count >= expected
        };
        if done {
            if all {
                self.hit("all_form");
            } else {
                self.hit(&format!("count[{expected:02}]"));
            }
        }
    }

    /// Bins never hit.
    pub fn unhit(&self) -> Vec<String> {
        self.bins
            .iter()
            .filter(|(_, &v)| v == 0)
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// Every bin with its count; unhit bins are listed at the end.
    pub fn report(&self) -> String {
        let mut s = String::new();
        let hit = self.bins.values().filter(|&&v| v > 0).count();
        let _ = writeln!(
            s,
            "bar_unit coverage ({:?}): {hit}/{} bins hit",
            self.cfg,
            self.bins.len()
        );
        for (k, v) in &self.bins {
            let _ = writeln!(s, "  {k:<24} {v}");
        }
        let u = self.unhit();
        if u.is_empty() {
            let _ = writeln!(s, "unhit: none");
        } else {
            let _ = writeln!(s, "unhit: {}", u.join(", "));
        }
        s
    }

    /// Adds another run's counts (same configuration).
    pub fn merge(&mut self, other: &BarCoverage) {
        for (k, v) in &other.bins {
            *self.bins.entry(k.clone()).or_insert(0) += v;
        }
    }
}

/// Hit counts of every `cluster_barrier` bin.
#[derive(Clone, Debug)]
pub struct ClusterCoverage {
    pub cfg: ClusterConfig,
    pub bins: BTreeMap<&'static str, u64>,
    prev_arrived: u32,
}

impl ClusterCoverage {
    pub fn new(cfg: &ClusterConfig) -> ClusterCoverage {
        let mut bins = BTreeMap::new();
        for k in [
            "ranks_done",
            "done_with_gone",
            "arrive_in_done_cycle",
            "err_double",
            "err_gone",
            "simultaneous_all",
            "reset_mid_phase",
        ] {
            bins.insert(k, 0);
        }
        ClusterCoverage {
            cfg: *cfg,
            bins,
            prev_arrived: 0,
        }
    }

    fn hit(&mut self, k: &'static str) {
        *self.bins.get_mut(k).expect("bin") += 1;
    }

    pub fn sample(&mut self, i: &ClusterInputs, o: &ClusterOutputs) {
        let all = self.cfg.rank_mask();
        if i.reset {
            if self.prev_arrived != 0 {
                self.hit("reset_mid_phase");
            }
            self.prev_arrived = 0;
            return;
        }
        self.prev_arrived = o.arrived;
        if o.done {
            self.hit("ranks_done");
            if i.gone & all != 0 {
                self.hit("done_with_gone");
            }
            if i.arv & !o.err_rank & all != 0 {
                self.hit("arrive_in_done_cycle");
            }
        }
        if i.arv & all == all && o.arrived == 0 && i.gone & all == 0 {
            self.hit("simultaneous_all");
        }
        if o.err_rank & o.arrived != 0 {
            self.hit("err_double");
        }
        if o.err_rank & i.gone != 0 {
            self.hit("err_gone");
        }
    }

    pub fn unhit(&self) -> Vec<&'static str> {
        self.bins
            .iter()
            .filter(|(_, &v)| v == 0)
            .map(|(k, _)| *k)
            .collect()
    }

    pub fn report(&self) -> String {
        let mut s = format!("cluster_barrier coverage (ranks {}):\n", self.cfg.ranks);
        for (k, v) in &self.bins {
            let _ = writeln!(s, "  {k:<24} {v}");
        }
        let u = self.unhit();
        let _ = writeln!(
            s,
            "unhit: {}",
            if u.is_empty() {
                "none".to_string()
            } else {
                u.join(", ")
            }
        );
        s
    }
}

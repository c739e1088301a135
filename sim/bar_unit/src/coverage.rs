//! Functional coverage of `bar_unit` and `cluster_barrier`: named bins
//! counted cycle by cycle from the ports plus the golden model's registers
//! before the edge (which CTA slots are busy, which phases are open, the
//! event taken in the previous cycle that stage B checks now, the exit
//! completion stage C finishes now), and a report that lists every bin with
//! its count and names the unhit ones.
//!
//! `bar_unit` bins (an arrival is counted in stage B, the cycle after it was
//! taken, where it is checked against the state):
//! - `id[a]` (a = 0..15): a barrier with id a completed
//! - `slot[s]` (every CTA slot): a barrier of slot s completed
//! - `count[n]` (n = 1..=W): a phase with explicit count n completed
//! - `all_form`: a no-count (every live warp) phase completed
//! - `op_sync`, `arrive_only` (completed with no waiter), `producer_consumer`
//!   (a phase with both bar.arrive and bar.sync arrivals), `red_popc`,
//!   `red_and_0`, `red_and_1`, `red_or_0`, `red_or_1`
//! - `exit_completes`: an exit completed a barrier
//! - `ram_forward`: legal arrivals at one barrier checked in consecutive
//!   cycles, the first not completing it (the RTL's block RAM hands the
//!   second the first one's write through its forwarding register)
//! - `back_to_back`: a legal arrival at (slot, id) taken in the cycle its
//!   completing arrival is checked (it belongs to the next phase)
//! - `all_ctas_busy`: every CTA slot busy at once
//! - `many_pending`: an arrival checked while ≥ 4 phases are open
//! - `blocked_refused`, `ctl_refused`, `after_ctl_refused`,
//!   `same_warp_refused`: a request refused (blocked warp / in a ctl cycle /
//!   in the cycle after a ctl event / right after a non-ARRIVE request of the
//!   same warp)
//! - `err[cause]` for every `err_code`
//! - `reset_mid_traffic`: reset while a warp was blocked
//! - `reset_drops_taken`: reset in the cycle after an event was taken (the
//!   event is dropped)
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
    /// The request taken in the last cycle went to a barrier whose
    /// completing arrival was checked in that cycle.
    b2b: bool,
    /// The barrier of the legal, non-completing arrival checked last cycle.
    open_prev: Option<usize>,
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
            "ram_forward",
            "all_ctas_busy",
            "many_pending",
            "blocked_refused",
            "ctl_refused",
            "after_ctl_refused",
            "same_warp_refused",
            "reset_mid_traffic",
            "reset_drops_taken",
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
            b2b: false,
            open_prev: None,
        }
    }

    fn hit(&mut self, k: &str) {
        if let Some(v) = self.bins.get_mut(k) {
            *v += 1;
        }
    }

    /// Samples one cycle: `s` is the model's state before the edge.
    pub fn sample(&mut self, s: &State, i: &BarInputs, o: &BarOutputs) {
        let b2b = std::mem::take(&mut self.b2b);
        let open_prev = std::mem::take(&mut self.open_prev);
        if i.reset {
            if s.blocked != 0 {
                self.hit("reset_mid_traffic");
            }
            if s.taken.valid {
                self.hit("reset_drops_taken");
            }
            self.saw.iter_mut().for_each(|x| *x = (false, false));
            return;
        }
        if o.rel_valid {
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
        }
        // Stage C: the barrier an exit completed is loaded for release.
        if s.exit_done.valid {
            self.hit("exit_completes");
            let idx = s.exit_done.slot as usize * BARRIERS_PER_CTA + s.exit_done.id as usize;
            self.saw[idx] = (false, false);
        }
        if s.slot_busy.iter().all(|&b| b) {
            self.hit("all_ctas_busy");
        }
        if o.err {
            self.hit(&format!("err[{}]", errc::name(o.err_code)));
        }
        // Stage B: the event taken in the previous cycle is checked now.
        let t = s.taken;
        let mut completing = None;
        if t.valid && t.ctl && !o.err && t.ctl_op == ctl::EXIT {
            let slot = s.warp_slot[t.ctl_warp as usize] as usize;
            if s.slot_live[slot] == 1 {
                // The CTA's last exit clears its barriers.
                for x in &mut self.saw[slot * BARRIERS_PER_CTA..(slot + 1) * BARRIERS_PER_CTA] {
                    *x = (false, false);
                }
            }
        }
        if t.valid && !t.ctl && !o.err {
            if b2b {
                self.hit("back_to_back");
            }
            let slot = s.warp_slot[t.warp as usize] as usize;
            let id = t.id as usize;
            let idx = slot * BARRIERS_PER_CTA + id;
            if s.bars.iter().filter(|b| b.active).count() >= 4 {
                self.hit("many_pending");
            }
            if t.op == op::ARRIVE {
                self.saw[idx].0 = true;
            } else if t.op == op::SYNC {
                self.saw[idx].1 = true;
            }
            // Completion in this cycle (the model's rule, read from its registers).
            let b = &s.bars[idx];
            let count = if b.active { b.count + 1 } else { 1 };
            let (all, expected) = if b.active {
                (b.all, b.expected)
            } else {
                (t.all, t.count)
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
                if self.saw[idx] == (true, true) {
                    self.hit("producer_consumer");
                }
                self.saw[idx] = (false, false);
                completing = Some((slot, id));
            }
            if open_prev == Some(idx) {
                self.hit("ram_forward");
            }
            if !done {
                self.open_prev = Some(idx);
            }
        }
        // Stage A: this cycle's handshake.
        if i.ctl_valid {
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
            if t.valid && t.ctl {
                self.hit("after_ctl_refused");
            }
            if s.blocked >> w & 1 == 1 {
                self.hit("blocked_refused");
            }
            if t.valid && !t.ctl && t.warp as usize == w && t.op != op::ARRIVE {
                self.hit("same_warp_refused");
            }
            return;
        }
        if completing == Some((s.warp_slot[w] as usize, (i.req_id & 15) as usize)) {
            self.b2b = true;
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

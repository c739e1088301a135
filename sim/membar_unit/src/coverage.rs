//! Functional coverage: named coverage points counted cycle by cycle from the
//! ports and the reference model's internal events ([`Events`]), and printed
//! as a report by `membar sim`, `membar cosim` and `membar soak`. Every back
//! end runs in lockstep with (or is) the reference model, so the model's
//! events are available for all of them.
//!
//! Points (a "bin" each):
//! - `group_size[n]` for n = 1..=ways: a coalesced barrier closed with n members
//! - `membar[level][ivall]`: a MEMBAR of each level × each ivall accepted
//! - `mix`: level mixing — `mix_promote` (a MEMBAR of another level joined),
//!   `mix_split_close` (it closed the open barrier), `mix_split_wait` (it had
//!   to wait); only the bins of the configured policy are expected
//! - `counter_full`: a TXN refused because its tag's counter was full
//! - `slot_in_flight[k]` for every slot k: slot k closed (carried a barrier)
//! - `all_slots_busy`: `max_outstanding` barriers closed at once (every index
//!   the configuration allows in flight)
//! - `window_expiry`, `close_full`: why a barrier closed
//! - `backpressure_pending`: `dn_ready` low while a warp waits on a barrier
//! - `spurious_ack`, `spurious_bar_ack`, `reserved_op`
//! - `reset_mid_traffic`: reset while a warp was blocked or a command presented
//! - `multi_release`: several coalesced barriers released in one cycle
//!   (needs `max_outstanding` ≥ 2)
//! - `stale_slot_wait`: closing waited for the next slot's counter to drain

use crate::config::{Arch, Config, LevelMix};
use crate::membar_unit::Events;
use crate::ports::{op, Inputs, Outputs};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Hit counts of every coverage point.
#[derive(Clone, Debug)]
pub struct Coverage {
    cfg: Config,
    /// group_size[n] for n in 0..=ways (index 0 unused).
    pub group_size: Vec<u64>,
    pub membar: [[u64; 4]; 4],
    pub slot_in_flight: Vec<u64>,
    pub named: BTreeMap<&'static str, u64>,
}

const NAMED: &[&str] = &[
    "mix_promote",
    "mix_split_close",
    "mix_split_wait",
    "counter_full",
    "all_slots_busy",
    "window_expiry",
    "close_full",
    "backpressure_pending",
    "spurious_ack",
    "spurious_bar_ack",
    "reserved_op",
    "reset_mid_traffic",
    "multi_release",
    "stale_slot_wait",
];

impl Coverage {
    pub fn new(cfg: &Config) -> Self {
        Coverage {
            cfg: cfg.clone(),
            group_size: vec![0; cfg.ways as usize + 1],
            membar: [[0; 4]; 4],
            slot_in_flight: vec![0; cfg.slots as usize],
            named: NAMED.iter().map(|&n| (n, 0)).collect(),
        }
    }

    fn hit(&mut self, name: &'static str) {
        *self.named.get_mut(name).expect("declared coverage point") += 1;
    }

    /// Count one cycle: its ports and the reference model's events for it.
    pub fn observe(&mut self, i: &Inputs, o: &Outputs, ev: &Events, closed_slots: u32) {
        let i = i.masked_for(&self.cfg);
        if i.reset {
            if o.warp_blocked != 0 || o.dn_valid || closed_slots != 0 {
                self.hit("reset_mid_traffic");
            }
            return;
        }
        if i.req_valid && o.req_ready && i.req_op == op::MEMBAR {
            self.membar[i.req_level as usize][i.req_ivall as usize] += 1;
        }
        if let Some(s) = ev.closed_slot {
            self.slot_in_flight[s as usize] += 1;
            let n = (ev.closed_members as usize).min(self.group_size.len() - 1);
            self.group_size[n] += 1;
            if ev.close_by_window {
                self.hit("window_expiry");
            }
            if ev.close_by_full {
                self.hit("close_full");
            }
        }
        if closed_slots >= self.cfg.max_outstanding {
            self.hit("all_slots_busy");
        }
        if ev.level_mixed {
            match self.cfg.level_mix {
                LevelMix::Promote => {
                    if !ev.membar_refused_no_room {
                        self.hit("mix_promote")
                    }
                }
                LevelMix::Split if ev.close_by_split => self.hit("mix_split_close"),
                LevelMix::Split => {
                    if ev.membar_refused_no_room {
                        self.hit("mix_split_wait")
                    }
                }
            }
        }
        if ev.counter_full_refusal {
            self.hit("counter_full");
        }
        if !i.dn_ready && o.warp_blocked != 0 {
            self.hit("backpressure_pending");
        }
        if ev.spurious_ack {
            self.hit("spurious_ack");
        }
        if ev.spurious_bar_ack {
            self.hit("spurious_bar_ack");
        }
        if ev.reserved_op {
            self.hit("reserved_op");
        }
        if ev.released_slots.count_ones() >= 2 {
            self.hit("multi_release");
        }
        if ev.close_blocked_by_stale {
            self.hit("stale_slot_wait");
        }
    }

    /// Add another run's counts (same configuration).
    pub fn merge(&mut self, o: &Coverage) {
        for (a, b) in self.group_size.iter_mut().zip(&o.group_size) {
            *a += b;
        }
        for l in 0..4 {
            for v in 0..4 {
                self.membar[l][v] += o.membar[l][v];
            }
        }
        for (a, b) in self.slot_in_flight.iter_mut().zip(&o.slot_in_flight) {
            *a += b;
        }
        for (k, v) in &o.named {
            *self.named.entry(k).or_insert(0) += v;
        }
    }

    /// Which named points this configuration can reach (and so must).
    fn expected_named(&self) -> Vec<&'static str> {
        NAMED
            .iter()
            .copied()
            .filter(|&n| match n {
                "mix_promote" => self.cfg.level_mix == LevelMix::Promote,
                "mix_split_close" | "mix_split_wait" => self.cfg.level_mix == LevelMix::Split,
                "multi_release" => self.cfg.max_outstanding >= 2,
                // With `ways: 1` every barrier closes full; with a zero window
                // every one closes by the window first.
                "window_expiry" => self.cfg.ways > 1,
                "close_full" => self.cfg.coalesce_window > 0 || self.cfg.ways == 1,
                _ => true,
            })
            .collect()
    }

    /// Every bin this configuration must hit, with its count.
    pub fn bins(&self) -> Vec<(String, u64)> {
        let mut v = Vec::new();
        for n in 1..self.group_size.len() {
            v.push((format!("group_size[{n}]"), self.group_size[n]));
        }
        const LV: [&str; 4] = ["CTA", "VC", "GL", "SYS"];
        const IV: [&str; 4] = ["none", "D", "T", "TD"];
        for (l, lv) in LV.iter().enumerate() {
            for (iv, ivn) in IV.iter().enumerate() {
                v.push((format!("membar[{lv}][{ivn}]"), self.membar[l][iv]));
            }
        }
        for (k, &c) in self.slot_in_flight.iter().enumerate() {
            v.push((format!("slot_in_flight[{k}]"), c));
        }
        for n in self.expected_named() {
            v.push((n.to_string(), self.named[n]));
        }
        v
    }

    /// Bins never hit.
    pub fn missed(&self) -> Vec<String> {
        self.bins()
            .into_iter()
            .filter(|(_, c)| *c == 0)
            .map(|(n, _)| n)
            .collect()
    }

    /// The printed report: every bin with its count, then the total.
    pub fn report(&self) -> String {
        let bins = self.bins();
        let hit = bins.iter().filter(|(_, c)| *c > 0).count();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "functional coverage ({}): {hit}/{} bins hit",
            self.cfg.short_name(),
            bins.len()
        );
        for (n, c) in &bins {
            let _ = writeln!(
                s,
                "  {:<28} {:>10}{}",
                n,
                c,
                if *c == 0 { "   <-- MISSED" } else { "" }
            );
        }
        s
    }

    /// Coverage applies to the coalescing design (whose events exist).
    pub fn applies(cfg: &Config) -> bool {
        cfg.arch == Arch::Coalescing
    }
}

/// The reference model with coverage collection: use it wherever a
/// `MembarModel` steps (as the DUT of `membar sim`, as the reference of a
/// lockstep cosimulation) and its coverage fills in.
pub struct CoveredModel {
    pub model: crate::MembarModel,
    /// The baseline stepped instead, when `cfg.arch` is one (no coverage).
    pub baseline: Option<crate::baselines::BaselineModel>,
    pub coverage: Coverage,
}

impl CoveredModel {
    pub fn new(cfg: &Config) -> Self {
        CoveredModel {
            model: crate::MembarModel::new(cfg),
            baseline: (!Coverage::applies(cfg)).then(|| crate::baselines::BaselineModel::new(cfg)),
            coverage: Coverage::new(cfg),
        }
    }
}

impl unit_ports::Dut<crate::ports::MembarUnitPorts> for CoveredModel {
    fn step(&mut self, i: &Inputs) -> Outputs {
        if let Some(b) = self.baseline.as_mut() {
            return b.step(i);
        }
        let closed = self.model.q.closed.count_ones();
        let o = self.model.step(i);
        self.coverage
            .observe(i, &o, &self.model.last_events, closed);
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}

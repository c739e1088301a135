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
//! - `window_expiry`, `close_full`: why a barrier closed; `lone_close`: the
//!   short `lone_window` closed it (nothing older outstanding) before
//!   `coalesce_window` expired (expected when `lone_window < coalesce_window`)
//! - `backpressure_pending`: `dn_ready` low while a warp waits on a barrier
//! - `spurious_ack`, `spurious_bar_ack`, `reserved_op`
//! - `reset_mid_traffic`: reset while a warp was blocked or a command presented
//! - `multi_release`: several coalesced barriers released in one cycle
//!   (needs `max_outstanding` ≥ 2)
//! - `stale_slot_wait`: closing waited for the next slot's counter to drain

use crate::config::{Arch, Config, LevelMix};
use crate::membar_unit::Events;
use crate::ports::{kind, op, Inputs, Outputs};
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};

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
    "lone_close",
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
            if ev.close_by_lone {
                self.hit("lone_close");
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
                "lone_close" => self.cfg.lone_window < self.cfg.coalesce_window,
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

/// Event counts of a lockstep run (from the model's events and the ports),
/// to show that the stimulus reached the interesting cases: the cosimulation
/// report and the rust-hdl lockstep test both use it. (The coverage *bins*
/// are [`Coverage`].)
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EventCounts {
    pub reset_cycles: u64,
    pub txn_accepted: u64,
    pub membar_accepted: u64,
    pub blocked_refusals: u64,
    pub dn_txn: u64,
    pub dn_inval: u64,
    pub dn_barrier: u64,
    pub dn_barrier_ack_req: u64,
    pub dn_stalls: u64,
    pub release_cycles: u64,
    pub released_warps: u64,
    pub err_pulses: u64,
    pub closes_by_window: u64,
    pub closes_by_full: u64,
    pub closes_by_split: u64,
    pub closes_by_lone: u64,
    pub joined_existing: u64,
    pub level_mixed: u64,
    pub counter_full_refusals: u64,
    pub membar_no_room: u64,
    pub spurious_acks: u64,
    pub spurious_bar_acks: u64,
    pub reserved_ops: u64,
    /// Cycles in which several coalesced barriers were released at once.
    pub multi_slot_release: u64,
    /// Cycles in which the open slot could not close because the next slot
    /// still counted transactions.
    pub close_blocked_by_stale: u64,
}

impl EventCounts {
    /// Count one cycle: its inputs, outputs and the model's internal events.
    pub fn add(&mut self, i: &Inputs, o: &Outputs, ev: &Events) {
        if i.reset {
            self.reset_cycles += 1;
            return;
        }
        if i.req_valid && o.req_ready {
            if op::is_txn(i.req_op) {
                self.txn_accepted += 1;
            } else if i.req_op == op::MEMBAR {
                self.membar_accepted += 1;
            }
        }
        if i.req_valid && !o.req_ready && (o.warp_blocked >> (i.req_warp & 63)) & 1 != 0 {
            self.blocked_refusals += 1;
        }
        if o.dn_valid && i.dn_ready {
            match o.dn_kind {
                kind::TXN => self.dn_txn += 1,
                kind::INVAL => self.dn_inval += 1,
                kind::BARRIER => {
                    self.dn_barrier += 1;
                    self.dn_barrier_ack_req += o.dn_ack_req as u64;
                }
                _ => {}
            }
        }
        self.dn_stalls += (o.dn_valid && !i.dn_ready) as u64;
        if o.release_valid {
            self.release_cycles += 1;
            self.released_warps += o.release_mask.count_ones() as u64;
        }
        self.err_pulses += o.err as u64;
        if ev.closed_slot.is_some() {
            self.closes_by_window += ev.close_by_window as u64;
            self.closes_by_full += ev.close_by_full as u64;
            self.closes_by_split += ev.close_by_split as u64;
            self.closes_by_lone += ev.close_by_lone as u64;
        }
        self.joined_existing += ev.joined_existing as u64;
        self.level_mixed += ev.level_mixed as u64;
        self.counter_full_refusals += ev.counter_full_refusal as u64;
        self.membar_no_room += ev.membar_refused_no_room as u64;
        self.spurious_acks += ev.spurious_ack as u64;
        self.spurious_bar_acks += ev.spurious_bar_ack as u64;
        self.reserved_ops += ev.reserved_op as u64;
        self.multi_slot_release += (ev.released_slots.count_ones() > 1) as u64;
        self.close_blocked_by_stale += ev.close_blocked_by_stale as u64;
    }
}

impl fmt::Display for EventCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "txn_acc={} membar_acc={} blocked_refused={} dn_txn={} dn_inval={} dn_bar={} (ack_req {}) dn_stalls={} releases={} (warps {}) err={} close(window/full/split/lone)={}/{}/{}/{} joined={} level_mixed={} cnt_full={} membar_no_room={} spurious(ack/bar_ack)={}/{} reserved={} reset_cycles={}",
            self.txn_accepted,
            self.membar_accepted,
            self.blocked_refusals,
            self.dn_txn,
            self.dn_inval,
            self.dn_barrier,
            self.dn_barrier_ack_req,
            self.dn_stalls,
            self.release_cycles,
            self.released_warps,
            self.err_pulses,
            self.closes_by_window,
            self.closes_by_full,
            self.closes_by_split,
            self.closes_by_lone,
            self.joined_existing,
            self.level_mixed,
            self.counter_full_refusals,
            self.membar_no_room,
            self.spurious_acks,
            self.spurious_bar_acks,
            self.reserved_ops,
            self.reset_cycles
        )
    }
}

/// A membar model (golden or mutant) that sums [`EventCounts`] from its
/// events as it steps: the reference of a lockstep run that reports what the
/// stimulus reached.
pub struct EventCounted<'a> {
    pub model: &'a mut dyn crate::membar_unit::EventedModel,
    pub counts: EventCounts,
}

impl<'a> EventCounted<'a> {
    pub fn new(model: &'a mut dyn crate::membar_unit::EventedModel) -> Self {
        EventCounted {
            model,
            counts: EventCounts::default(),
        }
    }
}

impl unit_ports::Dut<crate::ports::MembarUnitPorts> for EventCounted<'_> {
    fn step(&mut self, i: &Inputs) -> Outputs {
        let o = self.model.step(i);
        self.counts.add(i, &o, self.model.last_events());
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}

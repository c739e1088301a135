//! Seeded random stimulus (ChaCha8) for `bar_unit` and `cluster_barrier`:
//! legal traffic (CTA launches, exits, bar.sync/arrive/red with legal
//! counts, reacting to `blocked` and `rel_*`) mixed with every kind of bad
//! input of the contracts, refused requests (blocked warp, right after a ctl
//! event, right after the warp's own blocking request, in a ctl cycle) and
//! mid-run resets. The same seed gives the same stimulus for any design that
//! gives the same outputs.

use crate::config::{BarConfig, ClusterConfig, BARRIERS_PER_CTA};
use crate::ports::{ctl, op, BarInputs, BarOutputs, ClusterInputs, ClusterOutputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Knobs of the bar stimulus (drawn per seed by [`BarKnobs::random`]).
#[derive(Clone, Copy, Debug)]
pub struct BarKnobs {
    /// Probability of a request per cycle.
    pub p_req: f64,
    /// Probability of a ctl event per cycle (launch or exit).
    pub p_ctl: f64,
    /// Probability that an event is deliberately bad.
    pub p_bad: f64,
    /// Barrier ids used: 0..id_span.
    pub id_span: u8,
    /// Weights of SYNC, ARRIVE, RED_POPC, RED_AND, RED_OR.
    pub op_w: [u32; 5],
    /// Probability a sync/red uses the no-count ("all") form.
    pub p_all: f64,
    /// Probability of a reset per cycle.
    pub p_reset: f64,
    /// Largest CTA size launched (warps).
    pub max_cta: u32,
    /// At most one CTA resident at a time (a launch waits for every slot to
    /// be free): with `id_span` 1, every request goes to one barrier.
    pub one_cta: bool,
}

impl BarKnobs {
    pub fn random(rng: &mut ChaCha8Rng, cfg: &BarConfig) -> BarKnobs {
        let pick = |rng: &mut ChaCha8Rng, v: &[f64]| v[rng.gen_range(0..v.len())];
        let mut op_w = [0u32; 5];
        while op_w.iter().all(|&w| w == 0) {
            for w in &mut op_w {
                *w = rng.gen_range(0..4);
            }
        }
        let per_slot = (cfg.warps / cfg.cta_slots).max(1);
        BarKnobs {
            p_req: pick(rng, &[0.3, 0.7, 1.0]),
            p_ctl: pick(rng, &[0.02, 0.05, 0.15]),
            p_bad: pick(rng, &[0.0, 0.02, 0.1]),
            id_span: [1u8, 2, 4, 16][rng.gen_range(0..4)],
            op_w,
            p_all: pick(rng, &[0.0, 0.3, 0.7]),
            p_reset: pick(rng, &[0.0, 0.0005]),
            max_cta: [1, 2, 4, per_slot, cfg.warps][rng.gen_range(0..5)].clamp(1, cfg.warps),
            one_cta: false,
        }
    }

    /// Knobs that hammer one block-RAM word: one resident CTA of up to W
    /// warps, every request to barrier 0 of its slot, one per cycle, SYNC,
    /// ARRIVE and the three reductions mixed, counted and "all" phases, a
    /// little bad input. Consecutive arrivals at one barrier are the RTL's
    /// back-to-back read-modify-writes of one RAM word (its write-to-read
    /// forwarding; coverage bins `ram_forward`, `back_to_back`).
    pub fn hammer(cfg: &BarConfig) -> BarKnobs {
        BarKnobs {
            p_req: 1.0,
            p_ctl: 0.01,
            p_bad: 0.02,
            id_span: 1,
            op_w: [3, 3, 1, 1, 1],
            p_all: 0.3,
            p_reset: 0.0,
            max_cta: cfg.warps,
            one_cta: true,
        }
    }
}

/// The generator's view of the unit: the warps of each launched slot, the
/// live warps, and per (slot, id) the form of the open phase.
#[derive(Clone, Debug)]
struct View {
    slot_warps: Vec<u64>,
    live: u64,
    /// Per (slot, id): the phase's count form chosen (all, count, kind), if open.
    plan: Vec<Option<(bool, u8, u8)>>,
}

impl View {
    fn new(cfg: &BarConfig) -> View {
        View {
            slot_warps: vec![0; cfg.cta_slots as usize],
            live: 0,
            plan: vec![None; cfg.cta_slots as usize * BARRIERS_PER_CTA],
        }
    }

    fn slot_of(&self, w: u32) -> Option<usize> {
        self.slot_warps.iter().position(|&m| m >> w & 1 == 1)
    }

    /// Applies an event the unit took, as a legal one (a launch or exit that
    /// cannot be legal changes nothing).
    fn apply(&mut self, l: &BarInputs) {
        if l.ctl_valid {
            if l.ctl_op == ctl::LAUNCH {
                let s = l.ctl_slot as usize;
                if s < self.slot_warps.len()
                    && self.slot_warps[s] == 0
                    && l.ctl_warps != 0
                    && l.ctl_warps & self.live == 0
                {
                    self.slot_warps[s] = l.ctl_warps;
                    self.live |= l.ctl_warps;
                }
            } else {
                let w = l.ctl_warp as u32;
                if self.live >> w & 1 == 0 {
                    return;
                }
                self.live &= !(1u64 << w);
                if let Some(s) = self.slot_of(w) {
                    self.slot_warps[s] &= !(1u64 << w);
                    if self.slot_warps[s] & self.live == 0 {
                        self.slot_warps[s] = 0;
                        for id in 0..BARRIERS_PER_CTA {
                            self.plan[s * BARRIERS_PER_CTA + id] = None;
                        }
                    }
                }
            }
        } else if l.req_valid && self.live >> l.req_warp & 1 == 1 {
            if let Some(s) = self.slot_of(l.req_warp as u32) {
                let k = if op::is_red(l.req_op) { l.req_op } else { 0 };
                let e = &mut self.plan[s * BARRIERS_PER_CTA + (l.req_id & 15) as usize];
                if e.is_none() {
                    *e = Some((l.req_all, l.req_count, k));
                }
            }
        }
    }
}

/// Closed-loop random stimulus for `bar_unit`.
///
/// The unit checks an event one cycle after it took it (`err` comes then),
/// so the generator keeps two views: `view`, every event whose `err` cycle
/// has been seen (applied if it had no `err`), and `cur`, `view` plus the
/// event taken in the last cycle as if legal (unless it was drawn bad). It
/// also knows the unit's refusal rules: after a ctl event every request is
/// refused, and so is the request of a warp whose non-ARRIVE request was
/// taken in the last cycle; such warps are not picked (except for deliberate
/// refusals), and a request refused for no deliberate reason is presented
/// again, unchanged, now and then (as warp issue would).
pub struct BarStimulus {
    pub cfg: BarConfig,
    pub knobs: BarKnobs,
    rng: ChaCha8Rng,
    view: View,
    cur: View,
    /// The event taken in the last cycle (its `err` comes in this cycle).
    unchecked: Option<BarInputs>,
    /// Warps blocked in the coming cycle, from the ports.
    blocked: u64,
    /// The warp whose non-ARRIVE request was taken in the last cycle.
    busy: u64,
    /// A request refused in the last cycle for no deliberate reason.
    held: Option<BarInputs>,
    last: BarInputs,
    /// The last cycle's inputs were drawn deliberately bad (or a deliberate refusal).
    last_bad: bool,
    stuck: u32,
}

impl BarStimulus {
    pub fn new(cfg: &BarConfig, seed: u64) -> BarStimulus {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let knobs = BarKnobs::random(&mut rng, cfg);
        BarStimulus::with_knobs(cfg, seed, knobs)
    }

    /// Like [`BarStimulus::new`], but never without bad input (`p_bad` at
    /// least 0.02): for runs that must see every error path.
    pub fn with_bad_input(cfg: &BarConfig, seed: u64) -> BarStimulus {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut knobs = BarKnobs::random(&mut rng, cfg);
        knobs.p_bad = knobs.p_bad.max(0.02);
        BarStimulus::with_knobs(cfg, seed, knobs)
    }

    pub fn with_knobs(cfg: &BarConfig, seed: u64, knobs: BarKnobs) -> BarStimulus {
        BarStimulus {
            cfg: *cfg,
            knobs,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5bd1_e995),
            view: View::new(cfg),
            cur: View::new(cfg),
            unchecked: None,
            blocked: 0,
            busy: 0,
            held: None,
            last: BarInputs::default(),
            last_bad: false,
            stuck: 0,
        }
    }

    /// Updates the generator's views from the previous cycle's outputs.
    fn observe(&mut self, prev: &BarOutputs) {
        let l = self.last;
        self.busy = 0;
        self.held = None;
        if l.reset {
            self.view = View::new(&self.cfg);
            self.cur = View::new(&self.cfg);
            self.unchecked = None;
            self.blocked = 0;
            return;
        }
        // The release ends its barrier's phase (completed by an event checked
        // before the one whose err came in the same cycle).
        let released = if prev.rel_valid { prev.rel_mask } else { 0 };
        if prev.rel_valid {
            let idx = prev.rel_slot as usize * BARRIERS_PER_CTA + prev.rel_id as usize;
            if let Some(p) = self.view.plan.get_mut(idx) {
                *p = None;
            }
        }
        // The event taken two cycles ago: its err came in the last cycle.
        let mut newly_blocked = 0;
        if let Some(e) = self.unchecked.take() {
            if !prev.err {
                self.view.apply(&e);
                if !e.ctl_valid && op::blocks(e.req_op) {
                    newly_blocked = 1u64 << (e.req_warp as u32 & (self.cfg.warps - 1));
                }
            }
        }
        self.blocked = (prev.blocked & !released) | newly_blocked;
        // The event taken in the last cycle.
        self.cur.clone_from(&self.view);
        let req_taken = l.req_valid && !l.ctl_valid && prev.req_ready;
        if l.ctl_valid || req_taken {
            self.unchecked = Some(l);
            if !self.last_bad {
                self.cur.apply(&l);
            }
        }
        if req_taken && l.req_op != op::ARRIVE {
            self.busy = 1u64 << (l.req_warp as u32 & (self.cfg.warps - 1));
        }
        if l.req_valid && !l.ctl_valid && !prev.req_ready && !self.last_bad {
            self.held = Some(l);
        }
    }

    /// Inputs for the next cycle, given the outputs of the previous one.
    pub fn next(&mut self, prev: &BarOutputs) -> BarInputs {
        self.observe(prev);
        self.last_bad = false;
        let i = self.generate();
        self.last = i;
        i
    }

    fn generate(&mut self) -> BarInputs {
        let cfg = self.cfg;
        let k = self.knobs;
        let mut i = BarInputs::default();
        if self.rng.gen_bool(k.p_reset) {
            i.reset = true;
            return i;
        }
        let blocked = self.blocked;
        let live = self.cur.live;
        // Deadlock breaker: every live warp blocked for a long time.
        if live != 0 && live & !blocked == 0 {
            self.stuck += 1;
        } else {
            self.stuck = 0;
        }
        if self.stuck > 40 {
            self.stuck = 0;
            i.reset = true;
            return i;
        }
        // Warps whose request (or exit) would be taken and checked as legal.
        let free_live = live & !blocked & !self.busy;
        let bad = self.rng.gen_bool(k.p_bad);
        self.last_bad = bad;
        let free_slots: Vec<usize> = (0..cfg.cta_slots as usize)
            .filter(|&s| self.cur.slot_warps[s] == 0)
            .collect();
        let idle_warps = cfg.warp_mask() & !live;
        let want_launch = !free_slots.is_empty()
            && idle_warps != 0
            && (live == 0 || (!k.one_cta && self.rng.gen_bool(0.5)));
        if self.rng.gen_bool(k.p_ctl) || (live == 0 && !bad) {
            i.ctl_valid = true;
            if bad {
                match self.rng.gen_range(0..5) {
                    0 => {
                        i.ctl_op = ctl::LAUNCH;
                        i.ctl_slot = self.rng.gen_range(0..(1u32 << cfg.sb())) as u8;
                        i.ctl_warps = self.rng.gen::<u64>() & cfg.warp_mask();
                    }
                    1 => {
                        i.ctl_op = ctl::LAUNCH;
                        i.ctl_slot = free_slots.first().copied().unwrap_or(0) as u8;
                        i.ctl_warps = if live != 0 && self.rng.gen_bool(0.7) {
                            live & live.wrapping_neg()
                        } else {
                            0
                        };
                    }
                    2 => {
                        i.ctl_op = ctl::LAUNCH;
                        i.ctl_slot = self.rng.gen_range(0..cfg.cta_slots) as u8;
                        i.ctl_warps = idle_warps & idle_warps.wrapping_neg();
                    }
                    3 => {
                        i.ctl_op = ctl::EXIT;
                        i.ctl_warp = pick_bit(&mut self.rng, idle_warps).unwrap_or(0) as u8;
                    }
                    _ => {
                        i.ctl_op = ctl::EXIT;
                        i.ctl_warp = pick_bit(&mut self.rng, live & blocked).unwrap_or(0) as u8;
                    }
                }
                return i;
            }
            if want_launch {
                let s = free_slots[self.rng.gen_range(0..free_slots.len())];
                let n = self.rng.gen_range(1..=k.max_cta);
                let mut m = 0u64;
                for _ in 0..n {
                    if let Some(w) = pick_bit(&mut self.rng, idle_warps & !m) {
                        m |= 1u64 << w;
                    }
                }
                i.ctl_op = ctl::LAUNCH;
                i.ctl_slot = s as u8;
                i.ctl_warps = m;
            } else if let Some(w) = pick_bit(&mut self.rng, free_live) {
                i.ctl_op = ctl::EXIT;
                i.ctl_warp = w as u8;
            } else {
                i.ctl_valid = false;
            }
            if i.ctl_valid {
                if let Some(w) = pick_bit(&mut self.rng, free_live) {
                    if self.rng.gen_bool(0.1) {
                        // A request in a ctl cycle: must be refused without err.
                        i.req_valid = true;
                        i.req_warp = w as u8;
                        i.req_op = op::SYNC;
                        i.req_all = true;
                    }
                }
                return i;
            }
        }
        if !self.rng.gen_bool(k.p_req) {
            return i;
        }
        // A request refused before, presented again unchanged.
        if let Some(h) = self.held {
            if free_live >> h.req_warp & 1 == 1 && self.rng.gen_bool(0.5) {
                return h;
            }
        }
        // A request of a blocked warp, or of the warp whose blocking request
        // was just taken, now and then (must be refused, no err).
        let refused = (blocked | self.busy) & live;
        let refusal = bad && refused != 0 && self.rng.gen_bool(0.3);
        let w = if refusal {
            pick_bit(&mut self.rng, refused)
        } else {
            pick_bit(&mut self.rng, free_live)
        };
        let Some(w) = w else { return i };
        i.req_valid = true;
        i.req_warp = w as u8;
        i.req_id = self.rng.gen_range(0..k.id_span);
        i.req_pred = match self.rng.gen_range(0..4) {
            0 => 0,
            1 => u32::MAX,
            _ => self.rng.gen(),
        };
        let total: u32 = k.op_w.iter().sum();
        let mut x = self.rng.gen_range(0..total);
        let mut o = 0u8;
        for (n, &wt) in k.op_w.iter().enumerate() {
            if x < wt {
                o = n as u8;
                break;
            }
            x -= wt;
        }
        i.req_op = o;
        let slot = self.cur.slot_of(w).unwrap_or(0);
        let size = self.cur.slot_warps[slot].count_ones().max(1) as u8;
        match self.cur.plan[slot * BARRIERS_PER_CTA + i.req_id as usize] {
            Some((all, count, kind)) => {
                i.req_all = all;
                i.req_count = count;
                if kind != 0 {
                    i.req_op = kind;
                } else if op::is_red(i.req_op) {
                    i.req_op = op::SYNC;
                }
                if all && i.req_op == op::ARRIVE {
                    i.req_op = op::SYNC;
                }
            }
            None => {
                i.req_all = o != op::ARRIVE && self.rng.gen_bool(k.p_all);
                i.req_count = if self.rng.gen_bool(0.5) {
                    self.rng.gen_range(1..=size.min(4))
                } else {
                    self.rng.gen_range(1..=size)
                };
                if i.req_all {
                    i.req_count = 0;
                }
            }
        }
        if bad && !refusal {
            let pick = self.rng.gen_range(0..7);
            if pick >= 5 {
                // Count or kind mixing needs an open phase: aim at one of the
                // warp's CTA when there is one.
                let open: Vec<usize> = (0..BARRIERS_PER_CTA)
                    .filter(|&a| self.cur.plan[slot * BARRIERS_PER_CTA + a].is_some())
                    .collect();
                if !open.is_empty() {
                    let a = open[self.rng.gen_range(0..open.len())];
                    if let Some((all, count, kind)) = self.cur.plan[slot * BARRIERS_PER_CTA + a] {
                        i.req_id = a as u8;
                        i.req_all = all;
                        i.req_count = count;
                        i.req_op = if kind != 0 { kind } else { op::SYNC };
                    }
                }
            }
            match pick {
                0 => i.req_op = self.rng.gen_range(5..8),
                1 => i.req_warp = pick_bit(&mut self.rng, idle_warps).unwrap_or(w) as u8,
                2 => {
                    i.req_op = op::ARRIVE;
                    i.req_all = true;
                }
                3 => {
                    i.req_all = false;
                    i.req_count = 0;
                }
                4 => {
                    i.req_all = false;
                    i.req_count = self
                        .rng
                        .gen_range(size as u32 + 1..=cfg.warps + 1)
                        .min((1 << cfg.cb()) - 1) as u8;
                }
                5 => {
                    // Count mismatch (if a phase is open) or all/explicit flip.
                    i.req_all = !i.req_all;
                    if i.req_all && i.req_op == op::ARRIVE {
                        i.req_op = op::SYNC;
                    }
                    if !i.req_all {
                        i.req_count = self.rng.gen_range(1..=size);
                    }
                }
                _ => {
                    // Kind mix.
                    i.req_op =
                        [op::SYNC, op::RED_POPC, op::RED_AND, op::RED_OR][self.rng.gen_range(0..4)];
                }
            }
        }
        i
    }
}

/// A random set bit of `m`.
pub fn pick_bit(rng: &mut ChaCha8Rng, m: u64) -> Option<u32> {
    let n = m.count_ones();
    if n == 0 {
        return None;
    }
    let mut k = rng.gen_range(0..n);
    for w in 0..64 {
        if m >> w & 1 == 1 {
            if k == 0 {
                return Some(w);
            }
            k -= 1;
        }
    }
    None
}

/// Random stimulus for `cluster_barrier`: each rank arrives once per phase
/// after a random delay (learning completions from `done`), ranks go away
/// now and then, and bad arrivals (twice in a phase, after gone) are mixed in.
pub struct ClusterStimulus {
    pub cfg: ClusterConfig,
    rng: ChaCha8Rng,
    p_arv: f64,
    p_bad: f64,
    p_gone: f64,
    p_reset: f64,
    arrived: u32,
    gone: u32,
    last: ClusterInputs,
}

impl ClusterStimulus {
    pub fn new(cfg: &ClusterConfig, seed: u64) -> ClusterStimulus {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let pick = |rng: &mut ChaCha8Rng, v: &[f64]| v[rng.gen_range(0..v.len())];
        ClusterStimulus {
            cfg: *cfg,
            p_arv: pick(&mut rng, &[0.1, 0.4, 0.9]),
            p_bad: pick(&mut rng, &[0.0, 0.02, 0.1]),
            p_gone: pick(&mut rng, &[0.0, 0.002, 0.01]),
            p_reset: pick(&mut rng, &[0.0, 0.001]),
            rng,
            arrived: 0,
            gone: 0,
            last: ClusterInputs::default(),
        }
    }

    pub fn next(&mut self, prev: &ClusterOutputs) -> ClusterInputs {
        let all = self.cfg.rank_mask();
        if self.last.reset {
            self.arrived = 0;
            self.gone = 0;
        } else {
            self.arrived |= self.last.arv & !prev.err_rank;
            if self.arrived | self.gone == all {
                self.arrived = 0;
            }
        }
        let mut i = ClusterInputs {
            gone: self.gone,
            ..Default::default()
        };
        if self.rng.gen_bool(self.p_reset) {
            i.reset = true;
            self.last = i;
            return i;
        }
        if self.rng.gen_bool(self.p_gone) && self.gone.count_ones() + 1 < self.cfg.ranks {
            if let Some(r) = pick_bit(&mut self.rng, (all & !self.gone & !self.arrived) as u64) {
                self.gone |= 1 << r;
                i.gone = self.gone;
            }
        }
        for r in 0..self.cfg.ranks {
            let b = 1u32 << r;
            let waiting = self.arrived & b == 0 && self.gone & b == 0;
            let p = if waiting { self.p_arv } else { self.p_bad };
            if self.rng.gen_bool(p) {
                i.arv |= b;
            }
        }
        // After a `gone` change the phase may complete without these; keep them.
        self.last = i;
        i
    }
}

/// Counts of a random run (for non-vacuity checks).
#[derive(Clone, Copy, Debug, Default)]
pub struct RunStats {
    pub cycles: u64,
    pub arrivals: u64,
    pub releases: u64,
    pub errors: u64,
    /// Requests refused because their warp was blocked.
    pub refusals: u64,
    /// Requests refused in the cycle after a ctl event.
    pub refusals_after_ctl: u64,
    /// Requests refused right after a non-ARRIVE request of the same warp.
    pub refusals_same_warp: u64,
}

/// Runs `dut` under [`BarStimulus`] for `cycles` cycles with the scoreboard,
/// then a drain of a few idle cycles; the first violation, or the counts.
pub fn run_bar_random(
    dut: &mut dyn crate::ports::BarDut,
    cfg: &BarConfig,
    seed: u64,
    cycles: u64,
) -> Result<RunStats, crate::scoreboard::Violation> {
    let mut stim = BarStimulus::new(cfg, seed);
    let mut sb = crate::scoreboard::BarScoreboard::new(cfg);
    let mut prev = BarOutputs::default();
    for _ in 0..cycles {
        let i = stim.next(&prev);
        prev = dut.step(&i);
        sb.check(&i, &prev)?;
    }
    for _ in 0..4 {
        let i = BarInputs::default();
        prev = dut.step(&i);
        sb.check(&i, &prev)?;
    }
    sb.finish()?;
    Ok(RunStats {
        cycles,
        arrivals: sb.arrivals,
        releases: sb.releases,
        errors: sb.errors,
        refusals: sb.refusals,
        refusals_after_ctl: sb.refusals_after_ctl,
        refusals_same_warp: sb.refusals_same_warp,
    })
}

/// Runs `dut` under [`ClusterStimulus`] with the cluster scoreboard;
/// returns (completions, errors) or the first violation.
pub fn run_cluster_random(
    dut: &mut dyn crate::ports::ClusterDut,
    cfg: &ClusterConfig,
    seed: u64,
    cycles: u64,
) -> Result<(u64, u64), crate::scoreboard::Violation> {
    let mut stim = ClusterStimulus::new(cfg, seed);
    let mut sb = crate::scoreboard::ClusterScoreboard::new(cfg);
    let mut prev = ClusterOutputs::default();
    for _ in 0..cycles {
        let i = stim.next(&prev);
        prev = dut.step(&i);
        sb.check(&i, &prev)?;
    }
    for _ in 0..3 {
        let i = ClusterInputs {
            gone: stim_gone(&stim),
            ..Default::default()
        };
        prev = dut.step(&i);
        sb.check(&i, &prev)?;
    }
    sb.finish()?;
    Ok((sb.completions, sb.errors))
}

fn stim_gone(s: &ClusterStimulus) -> u32 {
    s.gone
}

//! A rich, seeded random stimulus for cosimulation: [`RandomUpstream`] (warp
//! issue) and [`RandomDownstream`] (memory system). Both react to the DUT's
//! outputs (what was accepted, what was sent downstream) and change their
//! behaviour in phases, so one run visits bursts of barriers from many warps
//! (coalescing up to `ways`), quiet periods (window closes), ack droughts
//! (full counters), long `dn_ready` stalls, out-of-order and spurious acks,
//! spurious `bar_ack`s, reserved ops and occasional resets.
//!
//! Deterministic: the same seed and the same DUT behaviour give the same
//! inputs (ChaCha8).

use membar_unit_env::ports::{kind, op, Downstream, Upstream};
use membar_unit_env::{Config, Inputs, Outputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;

/// The warp-issue side.
pub struct RandomUpstream {
    rng: ChaCha8Rng,
    warps: u32,
    next_id: u16,
    /// Warps seen blocked in the last observed cycle (plus MEMBARs just accepted).
    blocked: u64,
    phase_left: u64,
    p_valid: f64,
    p_membar: f64,
    p_reserved: f64,
    p_ivall: f64,
    /// Issue mostly from warps not blocked (a real scheduler) or any warp.
    p_pick_unblocked: f64,
    /// Restrict issue to this many warps (1..=W) for this phase.
    active_warps: u32,
    /// Level of MEMBARs this phase: `Some(l)` all the same, `None` random.
    level: Option<u8>,
}

impl RandomUpstream {
    pub fn new(cfg: &Config, seed: u64) -> Self {
        let mut u = RandomUpstream {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5570_7374_7265_616d),
            warps: cfg.warps,
            next_id: 0,
            blocked: 0,
            phase_left: 0,
            p_valid: 0.7,
            p_membar: 0.1,
            p_reserved: 0.0,
            p_ivall: 0.2,
            p_pick_unblocked: 0.9,
            active_warps: cfg.warps,
            level: None,
        };
        u.new_phase();
        u
    }

    fn new_phase(&mut self) {
        let r = &mut self.rng;
        self.phase_left = r.gen_range(200..4000);
        self.p_valid = [0.2, 0.6, 0.9, 1.0][r.gen_range(0..4)];
        self.p_membar = [0.0, 0.02, 0.08, 0.25, 0.6][r.gen_range(0..5)];
        self.p_reserved = [0.0, 0.0, 0.005, 0.03][r.gen_range(0..4)];
        self.p_ivall = [0.0, 0.1, 0.5][r.gen_range(0..3)];
        self.p_pick_unblocked = [1.0, 0.9, 0.5][r.gen_range(0..3)];
        self.active_warps = match r.gen_range(0..4) {
            0 => r.gen_range(1..=4.min(self.warps)),
            _ => self.warps,
        };
        self.level = if r.gen_bool(0.5) {
            Some(r.gen_range(0..4))
        } else {
            None
        };
    }

    fn pick_warp(&mut self) -> u8 {
        let n = self.active_warps;
        if self.rng.gen_bool(self.p_pick_unblocked) {
            let mask = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
            let free = mask & !self.blocked;
            if free != 0 {
                let k = self.rng.gen_range(0..free.count_ones());
                let mut f = free;
                for _ in 0..k {
                    f &= f - 1;
                }
                return f.trailing_zeros() as u8;
            }
        }
        self.rng.gen_range(0..n) as u8
    }
}

impl Upstream for RandomUpstream {
    fn drive(&mut self, _cycle: u64, i: &mut Inputs) {
        if self.phase_left == 0 {
            self.new_phase();
        }
        self.phase_left -= 1;
        if !self.rng.gen_bool(self.p_valid) {
            // Idle, but with random junk on the data inputs (must be ignored).
            i.req_warp = self.rng.gen_range(0..self.warps) as u8;
            i.req_op = self.rng.gen_range(0..8);
            i.req_level = self.rng.gen_range(0..4);
            i.req_ivall = self.rng.gen_range(0..4);
            i.req_id = self.rng.gen();
            return;
        }
        i.req_valid = true;
        i.req_warp = self.pick_warp();
        let x: f64 = self.rng.gen();
        i.req_op = if x < self.p_reserved {
            self.rng.gen_range(5..8)
        } else if x < self.p_reserved + self.p_membar {
            op::MEMBAR
        } else {
            self.rng.gen_range(0..4)
        };
        i.req_level = self.level.unwrap_or_else(|| self.rng.gen_range(0..4));
        i.req_ivall = if self.rng.gen_bool(self.p_ivall) {
            self.rng.gen_range(1..4)
        } else {
            0
        };
        if i.req_op != op::MEMBAR && self.rng.gen_bool(0.5) {
            // Non-MEMBAR requests: level/ivall are don't-cares; vary them.
            i.req_level = self.rng.gen_range(0..4);
            i.req_ivall = self.rng.gen_range(0..4);
        }
        i.req_id = self.next_id;
    }

    fn observe(&mut self, _cycle: u64, i: &Inputs, o: &Outputs) {
        if i.reset {
            self.blocked = 0;
            return;
        }
        self.blocked = o.warp_blocked & !o.release_mask;
        if i.req_valid && o.req_ready {
            self.next_id = self.next_id.wrapping_add(1);
            if i.req_op == op::MEMBAR {
                self.blocked |= 1u64 << i.req_warp;
            }
        }
    }
}

/// The memory-system side.
pub struct RandomDownstream {
    rng: ChaCha8Rng,
    slots: u32,
    /// Per tag: TXNs sent downstream and not yet acknowledged.
    outstanding: Vec<u32>,
    /// BARRIERs with `dn_ack_req` sent and not answered: (tag, cycle due).
    bar_pending: VecDeque<(u8, u64)>,
    phase_left: u64,
    p_ready: f64,
    p_ack: f64,
    bar_delay_max: u64,
    p_spurious_ack: f64,
    p_spurious_bar_ack: f64,
    /// Long stall: dn_ready low until this cycle.
    stall_until: u64,
    /// Mean cycles between resets (0 = never).
    pub reset_every: u64,
    reset_left: u32,
}

impl RandomDownstream {
    pub fn new(cfg: &Config, seed: u64) -> Self {
        let mut d = RandomDownstream {
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x646f_776e_7374_7265),
            slots: cfg.slots,
            outstanding: vec![0; cfg.slots as usize],
            bar_pending: VecDeque::new(),
            phase_left: 0,
            p_ready: 1.0,
            p_ack: 0.5,
            bar_delay_max: 10,
            p_spurious_ack: 0.0,
            p_spurious_bar_ack: 0.0,
            stall_until: 0,
            reset_every: 40_000,
            reset_left: 0,
        };
        d.new_phase();
        d
    }

    fn new_phase(&mut self) {
        let r = &mut self.rng;
        self.phase_left = r.gen_range(200..4000);
        self.p_ready = [1.0, 1.0, 0.8, 0.4, 0.1][r.gen_range(0..5)];
        self.p_ack = [0.9, 0.5, 0.2, 0.05, 0.0][r.gen_range(0..5)];
        self.bar_delay_max = [0, 3, 30, 300][r.gen_range(0..4)];
        self.p_spurious_ack = [0.0, 0.0, 0.002, 0.02][r.gen_range(0..4)];
        self.p_spurious_bar_ack = [0.0, 0.0, 0.002, 0.02][r.gen_range(0..4)];
    }

    fn clear(&mut self) {
        self.outstanding.iter_mut().for_each(|c| *c = 0);
        self.bar_pending.clear();
        self.stall_until = 0;
    }
}

impl Downstream for RandomDownstream {
    fn drive(&mut self, cycle: u64, i: &mut Inputs) {
        if self.phase_left == 0 {
            self.new_phase();
        }
        self.phase_left -= 1;
        // Occasional reset, 1..=3 cycles.
        if self.reset_left > 0 {
            self.reset_left -= 1;
            i.reset = true;
        } else if self.reset_every > 0 && self.rng.gen_range(0..self.reset_every) == 0 {
            self.reset_left = self.rng.gen_range(0..3);
            i.reset = true;
        }
        // dn_ready: random, plus occasional long stalls.
        if cycle >= self.stall_until && self.rng.gen_range(0..2000) == 0 {
            self.stall_until = cycle + self.rng.gen_range(10..400);
        }
        i.dn_ready = cycle >= self.stall_until && self.rng.gen_bool(self.p_ready);
        // Acks: an outstanding tag (any order), or a spurious one.
        let tb_tags = self.slots as u8;
        if self.rng.gen_bool(self.p_spurious_ack) {
            i.ack_valid = true;
            i.ack_tag = self.rng.gen_range(0..tb_tags);
        } else if self.rng.gen_bool(self.p_ack) {
            let busy: Vec<u8> = (0..tb_tags)
                .filter(|&t| self.outstanding[t as usize] > 0)
                .collect();
            if !busy.is_empty() {
                // Prefer the oldest-looking (lowest count last) at random.
                i.ack_valid = true;
                i.ack_tag = busy[self.rng.gen_range(0..busy.len())];
            }
        }
        if !i.ack_valid {
            i.ack_tag = self.rng.gen_range(0..tb_tags);
        }
        // Barrier acks: answer a due one, or a spurious one.
        if self.rng.gen_bool(self.p_spurious_bar_ack) {
            i.bar_ack_valid = true;
            i.bar_ack_tag = self.rng.gen_range(0..tb_tags);
        } else if let Some(pos) = self.bar_pending.iter().position(|&(_, due)| due <= cycle) {
            if self.rng.gen_bool(0.7) {
                i.bar_ack_valid = true;
                i.bar_ack_tag = self.bar_pending[pos].0;
            }
        }
        if !i.bar_ack_valid {
            i.bar_ack_tag = self.rng.gen_range(0..tb_tags);
        }
    }

    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        if i.reset {
            self.clear();
            return;
        }
        // Our own books decide what an ack answers (a "spurious" ack for a
        // tag that does have outstanding TXNs is a real one).
        if i.ack_valid {
            let t = i.ack_tag as usize;
            self.outstanding[t] = self.outstanding[t].saturating_sub(1);
        }
        if i.bar_ack_valid {
            if let Some(pos) = self
                .bar_pending
                .iter()
                .position(|&(t, _)| t == i.bar_ack_tag)
            {
                self.bar_pending.remove(pos);
            }
        }
        if o.dn_valid && i.dn_ready {
            match o.dn_kind {
                kind::TXN => {
                    let n = self.outstanding.len();
                    self.outstanding[(o.dn_tag as usize) % n] += 1;
                }
                kind::BARRIER if o.dn_ack_req => {
                    let d = if self.bar_delay_max == 0 {
                        0
                    } else {
                        self.rng.gen_range(0..=self.bar_delay_max)
                    };
                    self.bar_pending.push_back((o.dn_tag, cycle + 1 + d));
                }
                _ => {}
            }
        }
    }
}

/// A fresh upstream/downstream pair for `cfg` and `seed`.
pub fn random_stimulus(cfg: &Config, seed: u64) -> (RandomUpstream, RandomDownstream) {
    (
        RandomUpstream::new(cfg, seed),
        RandomDownstream::new(cfg, seed),
    )
}

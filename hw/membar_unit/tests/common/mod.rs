//! Shared test support: a seeded, fully random stimulus for lockstep runs.
//!
//! Every input port gets a random value every cycle (including the fields of
//! an invalid request and the tag of an invalid ack), with biases that keep
//! the unit busy: requests most cycles, mostly valid ops with some reserved
//! ones, MEMBARs of every level and ivall from a few or from all warps,
//! `dn_ready` mostly high with stall bursts, acks drawn mostly from the tags
//! of transferred TXNs (and `bar_ack`s from transferred `dn_ack_req`
//! BARRIERs) with spurious ones mixed in, ack droughts that fill the counters,
//! and occasional resets. The biases change in phases of a few thousand
//! cycles. Random stimulus is what catches rust-hdl simulation and Verilog
//! disagreeing, so it must reach every corner.

// Each test binary uses a part of this module.
#![allow(dead_code)]

use membar_unit_model::ports::kind;
use membar_unit_model::{Config, Inputs, Outputs};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Random inputs that react to what the unit sent downstream.
pub struct Stimulus {
    rng: ChaCha8Rng,
    warps: u32,
    slots: u32,
    phase_left: u32,
    p_reset: f64,
    p_valid: f64,
    p_membar: f64,
    p_reserved: f64,
    p_ivall: f64,
    level: Option<u8>,
    active_warps: u32,
    p_ready: f64,
    p_stall: f64,
    stall_left: u32,
    p_ack: f64,
    p_bar_ack: f64,
    p_spurious: f64,
    /// Which pending TXN an ack answers: 0 the oldest, 1 any, 2 the newest
    /// (old tags then linger, keeping freed slots' counters non-zero).
    ack_order: u8,
    /// Tags of transferred TXNs not acknowledged yet.
    sent: Vec<u8>,
    /// Tags of transferred `dn_ack_req` BARRIERs not answered yet.
    bar_pending: Vec<u8>,
}

impl Stimulus {
    pub fn new(cfg: &Config, seed: u64) -> Self {
        let mut s = Stimulus {
            rng: ChaCha8Rng::seed_from_u64(seed),
            warps: cfg.warps,
            slots: cfg.slots,
            phase_left: 0,
            p_reset: 0.0,
            p_valid: 0.0,
            p_membar: 0.0,
            p_reserved: 0.0,
            p_ivall: 0.0,
            level: None,
            active_warps: cfg.warps,
            p_ready: 1.0,
            p_stall: 0.0,
            stall_left: 0,
            p_ack: 0.0,
            p_bar_ack: 0.0,
            p_spurious: 0.0,
            ack_order: 0,
            sent: Vec::new(),
            bar_pending: Vec::new(),
        };
        s.new_phase();
        s
    }

    fn new_phase(&mut self) {
        let r = &mut self.rng;
        self.phase_left = r.gen_range(300..5000);
        self.p_reset = [0.0, 0.0, 0.0005, 0.003][r.gen_range(0..4)];
        self.p_valid = [0.3, 0.7, 0.95, 1.0][r.gen_range(0..4)];
        self.p_membar = [0.0, 0.03, 0.1, 0.3, 0.6][r.gen_range(0..5)];
        self.p_reserved = [0.0, 0.01, 0.05][r.gen_range(0..3)];
        self.p_ivall = [0.0, 0.1, 0.5][r.gen_range(0..3)];
        self.level = if r.gen_bool(0.4) {
            Some(r.gen_range(0..4))
        } else {
            None
        };
        self.active_warps = [1, 2, 4, self.warps, self.warps][r.gen_range(0..5)].min(self.warps);
        self.p_ready = [1.0, 0.9, 0.6][r.gen_range(0..3)];
        self.p_stall = [0.0, 0.005, 0.02][r.gen_range(0..3)];
        self.p_ack = [0.0, 0.1, 0.3, 0.6, 0.95][r.gen_range(0..5)];
        self.p_bar_ack = [0.02, 0.2, 0.6, 1.0][r.gen_range(0..4)];
        self.p_spurious = [0.0, 0.005, 0.03][r.gen_range(0..3)];
        self.ack_order = r.gen_range(0..3);
    }

    /// Remove and return one element of `list` (oldest first), picked by `order`.
    fn take(rng: &mut ChaCha8Rng, order: u8, list: &mut Vec<u8>) -> u8 {
        let k = match order {
            0 => 0,
            1 => rng.gen_range(0..list.len()),
            _ => list.len() - 1,
        };
        list.remove(k)
    }

    /// This cycle's inputs.
    pub fn next(&mut self) -> Inputs {
        if self.phase_left == 0 {
            self.new_phase();
        }
        self.phase_left -= 1;
        let r = &mut self.rng;
        let mut i = Inputs {
            reset: r.gen_bool(self.p_reset),
            req_valid: r.gen_bool(self.p_valid),
            // Mostly an active warp; sometimes any value (the port drops the high bits).
            req_warp: if r.gen_bool(0.98) {
                r.gen_range(0..self.active_warps) as u8
            } else {
                r.gen()
            },
            req_op: {
                let x: f64 = r.gen();
                if x < self.p_reserved {
                    r.gen_range(5..=7)
                } else if x < self.p_reserved + self.p_membar {
                    4
                } else {
                    r.gen_range(0..=3)
                }
            },
            req_level: self.level.unwrap_or_else(|| r.gen_range(0..4)),
            req_ivall: if r.gen_bool(self.p_ivall) {
                r.gen_range(1..=3)
            } else {
                0
            },
            req_id: r.gen(),
            dn_ready: true,
            ack_valid: false,
            ack_tag: r.gen_range(0..self.slots) as u8,
            bar_ack_valid: false,
            bar_ack_tag: r.gen_range(0..self.slots) as u8,
        };
        i.dn_ready = if self.stall_left > 0 {
            self.stall_left -= 1;
            false
        } else if r.gen_bool(self.p_stall) {
            self.stall_left = r.gen_range(1..64);
            false
        } else {
            r.gen_bool(self.p_ready)
        };
        if !self.sent.is_empty() && r.gen_bool(self.p_ack) {
            i.ack_valid = true;
            i.ack_tag = Self::take(r, self.ack_order, &mut self.sent);
        } else {
            i.ack_valid = r.gen_bool(self.p_spurious);
        }
        if !self.bar_pending.is_empty() && r.gen_bool(self.p_bar_ack) {
            i.bar_ack_valid = true;
            i.bar_ack_tag = Self::take(r, self.ack_order, &mut self.bar_pending);
        } else {
            i.bar_ack_valid = r.gen_bool(self.p_spurious);
        }
        i
    }

    /// See what the unit did with this cycle's inputs.
    pub fn observe(&mut self, i: &Inputs, o: &Outputs) {
        if i.reset {
            self.sent.clear();
            self.bar_pending.clear();
            return;
        }
        if o.dn_valid && i.dn_ready {
            if o.dn_kind == kind::TXN {
                self.sent.push(o.dn_tag);
            } else if o.dn_kind == kind::BARRIER && o.dn_ack_req {
                self.bar_pending.push(o.dn_tag);
            }
        }
    }
}

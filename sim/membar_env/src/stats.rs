//! Statistics of a run, computed from the port trace alone (so the same
//! figures come out of the reference model, the rust-hdl simulation and the
//! Verilated Verilog): requests, MEMBARs by level, BARRIER/INVAL commands,
//! coalescing ratio, release latency by level, throughput, warp-stall cycles,
//! counter occupancy.

use crate::config::Config;
use crate::ports::{kind, level, op, Inputs, Outputs};
use std::fmt::Write as _;

/// Exact latency histogram up to `LAT_BUCKETS - 1` cycles, plus an overflow
/// bucket; the maximum is kept exactly.
const LAT_BUCKETS: usize = 1 << 14;

/// Latency distribution of one class of barrier.
#[derive(Clone, Debug)]
pub struct Latency {
    hist: Vec<u64>,
    pub count: u64,
    pub sum: u64,
    pub max: u64,
}

impl Default for Latency {
    fn default() -> Self {
        Latency {
            hist: vec![0; LAT_BUCKETS + 1],
            count: 0,
            sum: 0,
            max: 0,
        }
    }
}

impl Latency {
    pub fn add(&mut self, cycles: u64) {
        self.hist[(cycles as usize).min(LAT_BUCKETS)] += 1;
        self.count += 1;
        self.sum += cycles;
        self.max = self.max.max(cycles);
    }
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum as f64 / self.count as f64
        }
    }
    /// The `p`-th percentile (0..=100), by nearest rank.
    pub fn percentile(&self, p: f64) -> u64 {
        if self.count == 0 {
            return 0;
        }
        let rank = ((p / 100.0) * self.count as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for (c, &n) in self.hist.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return if c == LAT_BUCKETS { self.max } else { c as u64 };
            }
        }
        self.max
    }
    pub fn merge(&mut self, o: &Latency) {
        for (a, b) in self.hist.iter_mut().zip(&o.hist) {
            *a += b;
        }
        self.count += o.count;
        self.sum += o.sum;
        self.max = self.max.max(o.max);
    }
}

/// Everything `membar sim` prints, gathered cycle by cycle from the ports.
#[derive(Clone, Debug)]
pub struct Stats {
    pub cycles: u64,
    /// Accepted requests by op (LD, ST, ATOM, RED, MEMBAR).
    pub accepted: [u64; 5],
    /// Accepted MEMBARs by level.
    pub membars: [u64; 4],
    /// Accepted MEMBARs with a fused invalidate.
    pub membars_ivall: u64,
    /// Accepted MEMBARs that need a BARRIER command (not plain CTA).
    pub membars_needing_barrier: u64,
    /// Transferred commands by kind (TXN, INVAL, BARRIER).
    pub commands: [u64; 3],
    /// Transferred BARRIERs by level.
    pub barriers_by_level: [u64; 4],
    /// Release latency (acceptance of the MEMBAR to its release pulse) by level.
    pub latency: [Latency; 4],
    /// Sum over cycles of the number of blocked warps.
    pub warp_stall_cycles: u64,
    /// Cycles with `err` high.
    pub err_cycles: u64,
    /// Requests presented but refused.
    pub refused: u64,
    /// Acks and bar_acks seen.
    pub acks: u64,
    pub bar_acks: u64,
    /// Highest number of transferred-but-unacknowledged TXNs of one tag.
    pub peak_tag_occupancy: u64,
    /// Release pulses, and pulses releasing warps of more than one barrier group
    /// at once is not visible at the ports; this counts warps released.
    pub warps_released: u64,
    // --- tracking ---
    pending: Vec<Option<(u64, u8)>>,
    tag_out: Vec<u64>,
    warps: u32,
}

impl Stats {
    pub fn new(cfg: &Config) -> Self {
        Stats {
            cycles: 0,
            accepted: [0; 5],
            membars: [0; 4],
            membars_ivall: 0,
            membars_needing_barrier: 0,
            commands: [0; 3],
            barriers_by_level: [0; 4],
            latency: Default::default(),
            warp_stall_cycles: 0,
            err_cycles: 0,
            refused: 0,
            acks: 0,
            bar_acks: 0,
            peak_tag_occupancy: 0,
            warps_released: 0,
            pending: vec![None; cfg.warps as usize],
            tag_out: vec![0; crate::baselines::tag_count(cfg) as usize],
            warps: cfg.warps,
        }
    }

    /// Account one cycle (call after `Dut::step`, with that cycle's ports).
    pub fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        self.cycles += 1;
        if i.reset {
            self.pending.iter_mut().for_each(|p| *p = None);
            self.tag_out.iter_mut().for_each(|t| *t = 0);
            return;
        }
        self.warp_stall_cycles += o.warp_blocked.count_ones() as u64;
        self.err_cycles += o.err as u64;
        if o.release_valid {
            let mut m = o.release_mask;
            while m != 0 {
                let w = m.trailing_zeros() as usize;
                m &= m - 1;
                if let Some(Some((t0, lv))) = self.pending.get(w).copied() {
                    self.latency[lv as usize].add(cycle - t0);
                    self.pending[w] = None;
                    self.warps_released += 1;
                }
            }
        }
        if i.req_valid {
            if o.req_ready {
                let opc = i.req_op as usize;
                if opc <= op::MEMBAR as usize {
                    self.accepted[opc] += 1;
                }
                if i.req_op == op::MEMBAR {
                    let lv = i.req_level & 3;
                    self.membars[lv as usize] += 1;
                    if i.req_ivall & 3 != 0 {
                        self.membars_ivall += 1;
                    }
                    if lv != level::CTA || i.req_ivall & 3 != 0 {
                        self.membars_needing_barrier += 1;
                    }
                    let w = (i.req_warp as u32 % self.warps) as usize;
                    self.pending[w] = Some((cycle, lv));
                }
            } else {
                self.refused += 1;
            }
        }
        let slots = self.tag_out.len();
        if i.ack_valid && !o.err {
            let t = i.ack_tag as usize % slots;
            self.tag_out[t] = self.tag_out[t].saturating_sub(1);
        }
        self.acks += i.ack_valid as u64;
        self.bar_acks += i.bar_ack_valid as u64;
        if o.dn_valid && i.dn_ready && o.dn_kind <= kind::BARRIER {
            self.commands[o.dn_kind as usize] += 1;
            if o.dn_kind == kind::BARRIER {
                self.barriers_by_level[o.dn_level as usize & 3] += 1;
            }
            if o.dn_kind == kind::TXN {
                let t = o.dn_tag as usize % slots;
                self.tag_out[t] += 1;
                self.peak_tag_occupancy = self.peak_tag_occupancy.max(self.tag_out[t]);
            }
        }
    }

    /// MEMBARs (needing a barrier) per BARRIER command: the coalescing ratio.
    pub fn coalescing_ratio(&self) -> f64 {
        let b = self.commands[kind::BARRIER as usize];
        if b == 0 {
            0.0
        } else {
            self.membars_needing_barrier as f64 / b as f64
        }
    }

    pub fn requests(&self) -> u64 {
        self.accepted.iter().sum()
    }

    /// BARRIER commands per accepted MEMBAR.
    pub fn barriers_per_membar(&self) -> f64 {
        let m: u64 = self.membars.iter().sum();
        if m == 0 {
            0.0
        } else {
            self.commands[kind::BARRIER as usize] as f64 / m as f64
        }
    }

    /// Barrier traffic seen by the memory system (BARRIER + INVAL commands).
    pub fn barrier_traffic(&self) -> u64 {
        self.commands[kind::BARRIER as usize] + self.commands[kind::INVAL as usize]
    }

    pub fn merge(&mut self, o: &Stats) {
        self.cycles += o.cycles;
        for k in 0..5 {
            self.accepted[k] += o.accepted[k];
        }
        for k in 0..4 {
            self.membars[k] += o.membars[k];
            self.barriers_by_level[k] += o.barriers_by_level[k];
            self.latency[k].merge(&o.latency[k]);
        }
        for k in 0..3 {
            self.commands[k] += o.commands[k];
        }
        self.membars_ivall += o.membars_ivall;
        self.membars_needing_barrier += o.membars_needing_barrier;
        self.warp_stall_cycles += o.warp_stall_cycles;
        self.err_cycles += o.err_cycles;
        self.refused += o.refused;
        self.acks += o.acks;
        self.bar_acks += o.bar_acks;
        self.peak_tag_occupancy = self.peak_tag_occupancy.max(o.peak_tag_occupancy);
        self.warps_released += o.warps_released;
    }

    /// The human-readable summary printed by `membar sim`.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let c = self.cycles.max(1) as f64;
        let _ = writeln!(s, "cycles                 {}", self.cycles);
        let _ = writeln!(
            s,
            "requests accepted      {}  (LD {} ST {} ATOM {} RED {} MEMBAR {})  {:.3}/cycle",
            self.requests(),
            self.accepted[0],
            self.accepted[1],
            self.accepted[2],
            self.accepted[3],
            self.accepted[4],
            self.requests() as f64 / c
        );
        let _ = writeln!(
            s,
            "MEMBARs by level       CTA {}  VC {}  GL {}  SYS {}  (with ivall {})",
            self.membars[0], self.membars[1], self.membars[2], self.membars[3], self.membars_ivall
        );
        let _ = writeln!(
            s,
            "commands sent          TXN {}  INVAL {}  BARRIER {}  (CTA {} VC {} GL {} SYS {})",
            self.commands[0],
            self.commands[1],
            self.commands[2],
            self.barriers_by_level[0],
            self.barriers_by_level[1],
            self.barriers_by_level[2],
            self.barriers_by_level[3]
        );
        let _ = writeln!(
            s,
            "barriers per BARRIER   {:.2}  ({} MEMBARs needing a BARRIER / {} BARRIER commands)",
            self.coalescing_ratio(),
            self.membars_needing_barrier,
            self.commands[2]
        );
        let _ = writeln!(
            s,
            "release latency        level   count      mean    p50    p99    max"
        );
        for (lv, l) in self.latency.iter().enumerate() {
            let _ = writeln!(
                s,
                "                       {:<5} {:>7} {:>9.1} {:>6} {:>6} {:>6}",
                level::NAMES[lv],
                l.count,
                l.mean(),
                l.percentile(50.0),
                l.percentile(99.0),
                l.max
            );
        }
        let _ = writeln!(
            s,
            "warp-stall cycles      {}  ({:.2} warps blocked on average)",
            self.warp_stall_cycles,
            self.warp_stall_cycles as f64 / c
        );
        let _ = writeln!(s, "refused requests       {}", self.refused);
        let _ = writeln!(s, "peak tag occupancy     {}", self.peak_tag_occupancy);
        let _ = writeln!(s, "err pulses             {}", self.err_cycles);
        s
    }
}

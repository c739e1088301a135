//! Environment (not a unit): the copy engine (TMA / bulk-copy unit) that
//! turns `cp.async.bulk` requests into completion reports on the units'
//! ports, with a latency + bandwidth model:
//!
//! - a load (`cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes`)
//!   becomes complete-tx reports (`ctx_entry`, `ctx_bytes`) for its barrier,
//!   split into `chunk_bytes` pieces (0 = one report), one per cycle on the port;
//! - a store (`cp.async.bulk.global.shared::cta.bulk_group`) becomes a read
//!   report (`rd_warp`: its source has been read) and a completion report
//!   (`wr_warp`) for the async-group tracker, in issue order per warp.
//!
//! Loads: data moves at `load_bytes_per_cycle` through one pipe (transfers
//! serialise), after `load_latency_l2` (hot) or `load_latency_dram` (cold)
//! from issue. Completions are reported on a `quantum`-cycle grid anchored
//! at the issue of the first copy of a busy period (the H100's ≈174-cycle
//! steps, sync/README §2.2); copies reported on the same tick follow each
//! other `report_spacing` cycles apart. Stores drain at
//! `store_bytes_per_cycle` after `store_latency`, `store_gap` cycles apart
//! when back to back; a store issued while another drains delays it by
//! `store_issue_steal`; the read report comes `read_ahead` cycles before the
//! completion report.

use std::collections::VecDeque;

/// Latency/bandwidth parameters of the copy engine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CopyTiming {
    pub load_latency_l2: u64,
    pub load_latency_dram: u64,
    pub load_bytes_per_cycle: f64,
    pub quantum: u64,
    pub report_spacing: u64,
    pub store_latency: u64,
    pub store_bytes_per_cycle: f64,
    pub read_ahead: u64,
    /// Drain cycles lost by the store in progress when another store is issued.
    pub store_issue_steal: u64,
    /// Cycles between two stores drained back to back.
    pub store_gap: u64,
    pub chunk_bytes: u32,
}

impl CopyTiming {
    /// A fast engine for functional workloads (small latencies, chunked reports).
    pub fn functional() -> Self {
        CopyTiming {
            load_latency_l2: 20,
            load_latency_dram: 60,
            load_bytes_per_cycle: 64.0,
            quantum: 0,
            report_spacing: 0,
            store_latency: 10,
            store_bytes_per_cycle: 32.0,
            read_ahead: 2,
            store_issue_steal: 0,
            store_gap: 0,
            chunk_bytes: 1024,
        }
    }
}

/// A bulk-copy request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Request {
    /// Global → shared, completing `bytes` of tx-count on barrier `entry`.
    Load { entry: u8, bytes: u32, cold: bool },
    /// Shared → global, tracked by warp `warp`'s async groups.
    Store { warp: u8, bytes: u32 },
}

/// What the engine drives on the units' ports this cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reports {
    /// Complete-tx report: (entry, bytes).
    pub ctx: Option<(u8, u32)>,
    /// Source-read report of a store: warp.
    pub rd: Option<u8>,
    /// Completion report of a store: warp.
    pub wr: Option<u8>,
}

/// The copy engine.
#[derive(Clone, Debug)]
pub struct CopyEngine {
    pub t: CopyTiming,
    load_free: f64,
    anchor: Option<u64>,
    /// Loads in flight: (report cycle, entry, bytes).
    loads: Vec<(u64, u8, u32)>,
    /// Tick -> copies reported on it so far (for spacing).
    tick_use: Vec<(u64, u64)>,
    ctx_q: VecDeque<(u64, u8, u32)>,
    store_free: f64,
    rd_q: VecDeque<(u64, u8)>,
    wr_q: VecDeque<(u64, u8)>,
    rd_sent: u64,
    /// Completed requests (for statistics).
    pub loads_done: u64,
    pub stores_done: u64,
}

impl CopyEngine {
    pub fn new(t: CopyTiming) -> Self {
        CopyEngine {
            t,
            load_free: 0.0,
            anchor: None,
            loads: Vec::new(),
            tick_use: Vec::new(),
            ctx_q: VecDeque::new(),
            store_free: 0.0,
            rd_q: VecDeque::new(),
            wr_q: VecDeque::new(),
            rd_sent: 0,
            loads_done: 0,
            stores_done: 0,
        }
    }

    /// Nothing in flight.
    pub fn idle(&self) -> bool {
        self.loads.is_empty()
            && self.ctx_q.is_empty()
            && self.rd_q.is_empty()
            && self.wr_q.is_empty()
    }

    /// Cycle at which a load issued at `now` reports (its last byte).
    fn load_report_cycle(&mut self, now: u64, bytes: u32, cold: bool) -> u64 {
        let lat = if cold {
            self.t.load_latency_dram
        } else {
            self.t.load_latency_l2
        };
        let xfer = bytes as f64 / self.t.load_bytes_per_cycle;
        let start = ((now + lat) as f64).max(self.load_free);
        let done = start + xfer;
        self.load_free = done;
        let done = done.ceil() as u64;
        if self.t.quantum == 0 {
            return done;
        }
        if self.loads.is_empty() {
            self.anchor = Some(now);
            self.tick_use.clear();
        }
        let a = self.anchor.unwrap_or(now);
        let q = self.t.quantum;
        let tick = a + (done - a).div_ceil(q) * q;
        let used = match self.tick_use.iter_mut().find(|(t, _)| *t == tick) {
            Some((_, n)) => {
                *n += 1;
                *n - 1
            }
            None => {
                self.tick_use.push((tick, 1));
                0
            }
        };
        tick + used * self.t.report_spacing
    }

    /// Accept a request issued in cycle `now`.
    pub fn issue(&mut self, now: u64, r: Request) {
        match r {
            Request::Load { entry, bytes, cold } => {
                let at = self.load_report_cycle(now, bytes, cold);
                self.loads.push((at, entry, bytes));
            }
            Request::Store { warp, bytes } => {
                let busy = self.store_free > now as f64;
                if busy && self.t.store_issue_steal > 0 {
                    let steal = self.t.store_issue_steal;
                    for x in self.rd_q.iter_mut().chain(self.wr_q.iter_mut()) {
                        if x.0 > now {
                            x.0 += steal;
                        }
                    }
                    self.store_free += steal as f64;
                }
                let gap = if busy { self.t.store_gap as f64 } else { 0.0 };
                let start = ((now + self.t.store_latency) as f64).max(self.store_free + gap);
                let done = start + bytes as f64 / self.t.store_bytes_per_cycle;
                self.store_free = done;
                let done = (done.ceil() as u64).max(now + 1 + self.t.read_ahead);
                self.rd_q.push_back((done - self.t.read_ahead, warp));
                self.wr_q.push_back((done, warp));
            }
        }
    }

    /// Reports driven in cycle `now` (at most one per port).
    pub fn tick(&mut self, now: u64) -> Reports {
        let mut k = 0;
        while k < self.loads.len() {
            if self.loads[k].0 <= now {
                let (at, e, b) = self.loads.remove(k);
                let chunk = if self.t.chunk_bytes == 0 {
                    b.max(1)
                } else {
                    self.t.chunk_bytes
                };
                let mut left = b;
                loop {
                    let c = left.min(chunk);
                    self.ctx_q.push_back((at, e, c));
                    left -= c;
                    if left == 0 {
                        break;
                    }
                }
                self.loads_done += 1;
            } else {
                k += 1;
            }
        }
        let mut r = Reports::default();
        if matches!(self.ctx_q.front(), Some(&(at, _, _)) if at <= now) {
            let (_, e, b) = self.ctx_q.pop_front().unwrap_or_default();
            r.ctx = Some((e, b));
        }
        if matches!(self.rd_q.front(), Some(&(at, _)) if at <= now) {
            r.rd = self.rd_q.pop_front().map(|x| x.1);
            self.rd_sent += 1;
        }
        // A completion is never reported before its read (same FIFO order).
        if self.stores_done < self.rd_sent
            && matches!(self.wr_q.front(), Some(&(at, _)) if at <= now)
        {
            r.wr = self.wr_q.pop_front().map(|x| x.1);
            self.stores_done += 1;
        }
        r
    }
}

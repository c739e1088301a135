//! Baseline micro-architectures for exploration (reference model only; the
//! RTL implements the coalescing design). They speak the same SPEC.md ports so
//! the same workloads, memory model, scoreboard and statistics apply, and users
//! can compare like for like:
//!
//! - [`Arch::PerWarpDrain`] — how GPGPU-Sim models MEMBAR: one outstanding-
//!   transaction counter per warp; a MEMBAR of warp w waits only for w's own
//!   transactions and gets its own BARRIER (no coalescing). Acknowledgements
//!   must name the warp, so this baseline uses the warp number as the tag
//!   (`dn_tag`/`ack_tag`/`bar_ack_tag` are WB bits wide here, not TB): real
//!   hardware would need W counters and a warp-wide tag on every transaction.
//! - [`Arch::LsuFlush`] — how Vortex fences: a MEMBAR stalls every warp (no
//!   request of any warp is accepted) until everything outstanding is done,
//!   then its own BARRIER; one counter (tag 0).
//!
//! Both obey P1–P3, P5 and P7; `LsuFlush` breaks P4 (non-interference) by
//! design, which the scoreboard knows.

use crate::config::{Arch, Config, MAX_WARPS as MAXW};
use crate::membar_unit::Cmd;
use crate::ports::{kind, level, op, Inputs, Outputs};

/// Registered state of the baselines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaselineState {
    /// Outstanding TXNs per tag (per warp for PerWarpDrain; tag 0 for LsuFlush).
    pub cnt: [u16; MAXW],
    /// Per warp: pending MEMBAR (bit set), its level and ivall.
    pub pend: u64,
    pub level: [u8; MAXW],
    pub ivall: [u8; MAXW],
    /// Per warp: commands still to emit (bit 0 INVAL D, 1 INVAL T, 2 BARRIER).
    pub seq: [u8; MAXW],
    /// Per warp: BARRIER transferred / asked for bar_ack / bar_ack came.
    pub bar_sent: u64,
    pub ack_req: u64,
    pub bar_acked: u64,
    pub out: Cmd,
}

impl Default for BaselineState {
    fn default() -> Self {
        BaselineState {
            cnt: [0; MAXW],
            pend: 0,
            level: [0; MAXW],
            ivall: [0; MAXW],
            seq: [0; MAXW],
            bar_sent: 0,
            ack_req: 0,
            bar_acked: 0,
            out: Cmd::default(),
        }
    }
}

/// Number of distinct tags a configuration's ports carry.
pub fn tag_count(cfg: &Config) -> u32 {
    cfg.tag_count()
}

/// One cycle of a baseline: outputs and next state.
pub fn eval_baseline(cfg: &Config, q: &BaselineState, i: &Inputs) -> (Outputs, BaselineState) {
    let per_warp = cfg.arch == Arch::PerWarpDrain;
    let i = i.masked_for(cfg);
    if i.reset {
        return (Outputs::default(), BaselineState::default());
    }
    let cmax = cfg.counter_max() as u16;
    let w = i.req_warp as usize;
    let wbit = 1u64 << w;
    let out_txn = q.out.valid && q.out.kind == kind::TXN;
    let out_free = !q.out.valid || i.dn_ready;
    let tag_of = |warp: usize| if per_warp { warp as u8 } else { 0 };

    // Acknowledgements.
    let at = i.ack_tag as usize;
    let ack_ok = i.ack_valid && q.cnt[at] > (out_txn && q.out.tag as usize == at) as u16;
    let bt = i.bar_ack_tag as usize;
    // PerWarpDrain: tag = warp. LsuFlush: tag 0, owned by the one pending warp.
    let bar_owner = if per_warp {
        Some(bt)
    } else if bt == 0 && q.pend != 0 {
        Some(q.pend.trailing_zeros() as usize)
    } else {
        None
    };
    let bar_ack_ok = i.bar_ack_valid
        && bar_owner.is_some_and(|o| {
            let b = 1u64 << o;
            q.pend & q.ack_req & q.bar_sent & !q.bar_acked & b != 0
        });

    // Release.
    let mut release = 0u64;
    let mut m = q.pend;
    while m != 0 {
        let v = m.trailing_zeros() as usize;
        m &= m - 1;
        let b = 1u64 << v;
        let needs_bar = q.level[v] != level::CTA || q.ivall[v] != 0;
        let done = if !needs_bar {
            // Plain CTA: its TXNs (PerWarpDrain) / all TXNs (LsuFlush) left the unit.
            !(out_txn && (!per_warp || q.out.warp as usize == v))
        } else {
            let drained = q.level[v] < level::GL || q.cnt[tag_of(v) as usize] == 0;
            q.bar_sent & b != 0 && (q.ack_req & b == 0 || q.bar_acked & b != 0) && drained
        };
        if done {
            release |= b;
        }
    }

    // Accept.
    let blocked = q.pend;
    let any_seq = q.seq[..cfg.warps as usize].iter().any(|&s| s != 0);
    let live = i.req_valid && blocked & wbit == 0 && (per_warp || q.pend == 0);
    let is_txn = op::is_txn(i.req_op);
    let tag = tag_of(w) as usize;
    let accept_txn = live && is_txn && out_free && !any_seq && q.cnt[tag] != cmax;
    let accept_membar = live && i.req_op == op::MEMBAR;
    let reserved = i.req_valid && op::is_reserved(i.req_op);

    let out = Outputs {
        req_ready: accept_txn || accept_membar,
        dn_valid: q.out.valid,
        dn_kind: q.out.kind,
        dn_tag: q.out.tag,
        dn_warp: q.out.warp,
        dn_op: q.out.op,
        dn_level: q.out.level,
        dn_ack_req: q.out.ack_req,
        dn_id: q.out.id,
        warp_blocked: blocked,
        release_valid: release != 0,
        release_mask: release,
        err: reserved || (i.ack_valid && !ack_ok) || (i.bar_ack_valid && !bar_ack_ok),
    };

    let mut d = q.clone();
    if ack_ok {
        d.cnt[at] -= 1;
    }
    if bar_ack_ok {
        d.bar_acked |= 1u64 << bar_owner.unwrap_or(0);
    }
    if q.out.valid && i.dn_ready && q.out.kind == kind::BARRIER {
        let owner = if per_warp {
            q.out.tag as usize
        } else {
            q.pend.trailing_zeros() as usize
        };
        d.bar_sent |= 1u64 << owner;
    }
    d.pend &= !release;
    d.bar_sent &= !release;
    d.ack_req &= !release;
    d.bar_acked &= !release;
    if out_free {
        // The lowest warp with commands to emit goes first.
        if let Some(v) = (0..cfg.warps as usize).find(|&v| q.seq[v] != 0) {
            let s = q.seq[v];
            let (kd, opd, bit) = if s & 1 != 0 {
                (kind::INVAL, 0, 1)
            } else if s & 2 != 0 {
                (kind::INVAL, 1, 2)
            } else {
                (kind::BARRIER, 0, 4)
            };
            let is_bar = kd == kind::BARRIER;
            d.out = Cmd {
                valid: true,
                kind: kd,
                tag: tag_of(v),
                warp: 0,
                op: opd,
                level: if is_bar { q.level[v] } else { 0 },
                ack_req: is_bar && q.ack_req & (1u64 << v) != 0,
                id: 0,
            };
            d.seq[v] &= !bit;
        } else if accept_txn {
            d.out = Cmd {
                valid: true,
                kind: kind::TXN,
                tag: tag as u8,
                warp: i.req_warp,
                op: i.req_op,
                level: 0,
                ack_req: false,
                id: i.req_id,
            };
        } else {
            d.out = Cmd::default();
        }
    }
    if accept_txn {
        d.cnt[tag] += 1;
    }
    if accept_membar {
        d.pend |= wbit;
        d.level[w] = i.req_level;
        d.ivall[w] = i.req_ivall;
        let needs_bar = i.req_level != level::CTA || i.req_ivall != 0;
        if needs_bar {
            d.seq[w] = 4 | (i.req_ivall & 3);
            let ack = i.req_level == level::SYS
                || i.req_ivall != 0
                || (cfg.gl_bar_ack && i.req_level == level::GL);
            if ack {
                d.ack_req |= wbit;
            }
        }
    }
    (out, d)
}

/// A baseline micro-architecture as a lockstep back end (the same ports as
/// the golden model; pick one with [`crate::model_for`]).
#[derive(Clone, Debug)]
pub struct BaselineModel {
    pub cfg: Config,
    pub q: BaselineState,
}

impl BaselineModel {
    pub fn new(cfg: &Config) -> Self {
        BaselineModel {
            cfg: cfg.clone(),
            q: BaselineState::default(),
        }
    }
}

impl crate::ports::Dut<crate::ports::MembarUnitPorts> for BaselineModel {
    fn step(&mut self, i: &Inputs) -> Outputs {
        let (o, d) = eval_baseline(&self.cfg, &self.q, i);
        self.q = d;
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}

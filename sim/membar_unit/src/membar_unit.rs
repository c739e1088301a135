//! Cycle-accurate reference model of `membar_unit` (the coalescing
//! micro-architecture of US 8,997,103). Its RTL twin is `hw/membar_unit/src/membar_unit.rs`
//! and the blocks it instantiates; `docs/microarchitecture.md` explains both.
//!
//! Written as hardware: [`State`] is the register file (`_q`), [`eval`] is the
//! one pure next-state/output function (`_d` = `eval(_q, inputs)`), and
//! [`MembarModel::step`] is the clock edge. No queue is unbounded: the state is
//! K slots of (counter, member mask, level, ivall, flags), a one-entry output
//! register, a three-item command sequencer, and per-warp CTA-pending bits.
//!
//! Summary of one cycle (all from the registered state plus this cycle's inputs):
//! - `ack`/`bar_ack` are checked against the registered counters/flags and
//!   applied at the edge (a spurious one only pulses `err`).
//! - Release: walking the ring from the oldest slot, every closed slot whose
//!   condition holds, up to the first one that does not, is released (its
//!   members pulse in `release_mask`); CTA-pending warps whose last TXN has
//!   left the output register are released too.
//! - The output register loads, in priority order, the next command of the
//!   sequencer (INVAL D, INVAL T, BARRIER of the slot that closed), or an
//!   accepted LD/ST/ATOM/RED tagged with the open slot.
//! - The open slot closes when it has members, fewer than `max_outstanding`
//!   slots are closed, the sequencer is idle, the next slot's counter is zero,
//!   and its window expired (`coalesce_window`, or `lone_window` when its
//!   first member joined while no closed slot awaited release), it is full
//!   (`ways` members) or (`split`) a MEMBAR of another level arrives.
//! - A MEMBAR (other than plain CTA) joins the open slot, or the next one when
//!   the open slot closes in the same cycle.

pub use crate::config::MAX_SLOTS;
use crate::config::{Config, LevelMix};
use crate::ports::{kind, level, op, Inputs, Outputs};

/// The one-entry output register: the command presented on `dn_*`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cmd {
    pub valid: bool,
    pub kind: u8,
    pub tag: u8,
    pub warp: u8,
    pub op: u8,
    pub level: u8,
    pub ack_req: bool,
    pub id: u16,
}

/// Registered state. Slot-indexed bit sets are `u8` masks (bit k = slot k).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct State {
    /// Per slot: transactions accepted with this tag and not yet acknowledged.
    pub cnt: [u16; MAX_SLOTS],
    /// Per slot: warps that are members of its coalesced barrier.
    pub members: [u64; MAX_SLOTS],
    /// Per slot: level of its coalesced barrier (highest member level).
    pub level: [u8; MAX_SLOTS],
    /// Per slot: OR of its members' `ivall`.
    pub ivall: [u8; MAX_SLOTS],
    /// Slots whose coalesced barrier is closed (commands issued or queued).
    pub closed: u8,
    /// Slots whose BARRIER has been transferred downstream.
    pub bar_sent: u8,
    /// Slots whose BARRIER asks for `bar_ack`.
    pub ack_req: u8,
    /// Slots whose `bar_ack` has arrived.
    pub bar_acked: u8,
    /// The open slot: tags every accepted transaction, collects members.
    pub open: u8,
    /// The oldest closed slot (== `open` when none is closed).
    pub head: u8,
    /// Members of the open slot.
    pub nmem: u8,
    /// Cycles since the open slot's first member joined (saturates at `coalesce_window`).
    pub age: u8,
    /// The open slot's first member joined while no closed slot awaited
    /// release: it closes after `lone_window` instead of `coalesce_window`.
    /// (While a slot is open no other slot closes, so it stays lone.)
    pub lone: bool,
    /// Warps blocked by a plain MEMBAR.CTA.
    pub cta_pend: u64,
    /// Sequencer: commands still to emit for slot `seq_tag`
    /// (bit 0 INVAL D, bit 1 INVAL T, bit 2 BARRIER).
    pub seq_pend: u8,
    pub seq_tag: u8,
    /// The output register.
    pub out: Cmd,
}

/// Sequencer bits.
pub const SEQ_INVD: u8 = 1;
pub const SEQ_INVT: u8 = 2;
pub const SEQ_BAR: u8 = 4;

/// Internal signals of one evaluation, exposed for coverage and debugging.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Events {
    /// A slot closed this cycle (its index), and how many members it had.
    pub closed_slot: Option<u8>,
    pub closed_members: u8,
    /// Why it closed: window expired, full, level split.
    pub close_by_window: bool,
    pub close_by_full: bool,
    pub close_by_split: bool,
    /// The lone window let it close: a lone slot (nothing older outstanding
    /// when its first member joined), `age >= lone_window` while
    /// `coalesce_window` had not expired.
    pub close_by_lone: bool,
    /// Slots released this cycle.
    pub released_slots: u8,
    /// A MEMBAR joined a slot with members already (coalesced).
    pub joined_existing: bool,
    /// A joining MEMBAR's level differed from the open slot's level.
    pub level_mixed: bool,
    /// The open slot could not close because the next slot still counts TXNs.
    pub close_blocked_by_stale: bool,
    /// A TXN was refused because the open slot's counter is full.
    pub counter_full_refusal: bool,
    /// A MEMBAR was refused because the open slot is full or must split and cannot close.
    pub membar_refused_no_room: bool,
    pub spurious_ack: bool,
    pub spurious_bar_ack: bool,
    pub reserved_op: bool,
}

/// One cycle: outputs and next state from the registered state and inputs.
/// Pure: the whole behaviour of the unit is this function.
pub fn eval(cfg: &Config, q: &State, i: &Inputs) -> (Outputs, State, Events) {
    let mut ev = Events::default();
    let k = cfg.slots as u8;
    let kmask = k - 1;
    let i = i.masked_for(cfg);
    if i.reset {
        // Synchronous reset: every output low this cycle, state cleared at the edge.
        return (Outputs::default(), State::default(), ev);
    }
    let cmax = cfg.counter_max() as u16;
    let wbit = 1u64 << i.req_warp;
    let open = q.open as usize;

    // ---- derived state (RTL: request_gate.rs `warp_blocked`, cmd_stream.rs `out_free`/`out_txn`) ----
    let members_all = q.members[..k as usize].iter().fold(0u64, |a, m| a | m);
    let blocked = q.cta_pend | members_all;
    let out_txn = q.out.valid && q.out.kind == kind::TXN;
    let out_free = !q.out.valid || i.dn_ready;
    let seq_busy = q.seq_pend != 0;
    let nclosed = q.open.wrapping_sub(q.head) & kmask;

    // ---- acknowledgements, checked against the registered state (RTL: commit_counters.rs `ack`, slot_ring.rs `bar_ack`) ----
    let ack_ok = i.ack_valid && {
        let t = i.ack_tag as usize;
        let in_out = out_txn && q.out.tag == i.ack_tag;
        q.cnt[t] > in_out as u16
    };
    let tbit = 1u8 << i.bar_ack_tag;
    let bar_ack_ok =
        i.bar_ack_valid && (q.closed & q.ack_req & q.bar_sent & !q.bar_acked & tbit) != 0;
    ev.spurious_ack = i.ack_valid && !ack_ok;
    ev.spurious_bar_ack = i.bar_ack_valid && !bar_ack_ok;

    // ---- release: walk the ring from the oldest slot (open+1) to open-1 (RTL: slot_ring.rs release walk; request_gate.rs CTA release) ----
    let mut zero_so_far = true; // every older slot's counter is zero
    let mut chain = true; // every older closed slot is released this cycle
    let mut rel_slots = 0u8;
    let mut head_d = q.head;
    for r in 1..k {
        let s = ((q.open + r) & kmask) as usize;
        let sb = 1u8 << s;
        if q.closed & sb != 0 {
            let acked = q.ack_req & sb == 0 || q.bar_acked & sb != 0;
            let drained = q.level[s] < level::GL || (zero_so_far && q.cnt[s] == 0);
            let done = q.bar_sent & sb != 0 && acked && drained;
            if chain && done {
                rel_slots |= sb;
                head_d = (s as u8 + 1) & kmask;
            } else {
                chain = false;
            }
        }
        zero_so_far &= q.cnt[s] == 0;
    }
    let mut group_rel = 0u64;
    for s in 0..k as usize {
        if rel_slots & (1 << s) != 0 {
            group_rel |= q.members[s];
        }
    }
    let out_txn_warp = if out_txn { 1u64 << q.out.warp } else { 0 };
    let cta_rel = q.cta_pend & !out_txn_warp;
    let release_mask = group_rel | cta_rel;
    ev.released_slots = rel_slots;

    // ---- request acceptance and closing (RTL: request_gate.rs accept/refuse, coalescer.rs `close`/`accept_join`) ----
    let is_blocked = blocked & wbit != 0;
    let live = i.req_valid && !is_blocked;
    let is_membar = i.req_op == op::MEMBAR;
    let plain_cta = i.req_level == level::CTA && i.req_ivall == 0;
    let joining = live && is_membar && !plain_cta;
    let mismatch =
        cfg.level_mix == LevelMix::Split && joining && q.nmem > 0 && i.req_level != q.level[open];
    ev.level_mixed = joining && q.nmem > 0 && i.req_level != q.level[open];
    // The next slot is reopened only once its counter is zero: a VC/CTA+ivall
    // barrier frees its slot with TXNs still counted, and those must stay
    // visible to the release walk (which never looks at the open slot).
    let next_clean = q.cnt[((q.open + 1) & kmask) as usize] == 0;
    let can_close = q.nmem > 0 && (nclosed as u32) < cfg.max_outstanding && !seq_busy && next_clean;
    ev.close_blocked_by_stale = q.nmem > 0 && !next_clean;
    // The window: `coalesce_window` for a slot whose first member arrived
    // behind an outstanding (closed, not yet released) barrier, the shorter
    // `lone_window` for a `lone` one, which had nothing older outstanding
    // (no window tax on a lone barrier). `age` saturates at
    // `coalesce_window` (a larger `lone_window` acts as `coalesce_window`).
    let by_coalesce = q.age as u32 >= cfg.coalesce_window;
    let by_lone = q.lone && q.age as u32 >= cfg.lone_window;
    let by_window = by_coalesce || by_lone;
    let by_full = q.nmem as u32 >= cfg.ways;
    let close = can_close && (by_window || by_full || mismatch);
    let cnt_full = q.cnt[open] == cmax;
    let accept_txn = live && op::is_txn(i.req_op) && out_free && !seq_busy && !cnt_full;
    let accept_cta = live && is_membar && plain_cta;
    let accept_join = joining && (close || ((q.nmem as u32) < cfg.ways && !mismatch));
    ev.counter_full_refusal = live && op::is_txn(i.req_op) && cnt_full;
    ev.membar_refused_no_room = joining && !accept_join;
    ev.reserved_op = i.req_valid && op::is_reserved(i.req_op);
    if close {
        ev.closed_slot = Some(q.open);
        ev.closed_members = q.nmem;
        ev.close_by_window = by_window;
        ev.close_by_full = by_full;
        ev.close_by_split = mismatch;
        ev.close_by_lone = by_lone && !by_coalesce;
    }

    let out = Outputs {
        req_ready: accept_txn || accept_cta || accept_join,
        dn_valid: q.out.valid,
        dn_kind: q.out.kind,
        dn_tag: q.out.tag,
        dn_warp: q.out.warp,
        dn_op: q.out.op,
        dn_level: q.out.level,
        dn_ack_req: q.out.ack_req,
        dn_id: q.out.id,
        warp_blocked: blocked,
        release_valid: release_mask != 0,
        release_mask,
        err: ev.reserved_op || ev.spurious_ack || ev.spurious_bar_ack,
    };

    // ---- next state (RTL: each block's registers; counters in commit_counters.rs, slot state in slot_ring.rs) ----
    let mut d = *q;
    if ack_ok {
        let t = i.ack_tag as usize;
        d.cnt[t] = q.cnt[t].wrapping_sub(1) & cmax;
    }
    if bar_ack_ok {
        d.bar_acked |= tbit;
    }
    if q.out.valid && i.dn_ready && q.out.kind == kind::BARRIER {
        d.bar_sent |= 1 << q.out.tag;
    }
    for s in 0..k as usize {
        if rel_slots & (1 << s) != 0 {
            d.members[s] = 0;
            d.level[s] = 0;
            d.ivall[s] = 0;
        }
    }
    d.closed &= !rel_slots;
    d.bar_sent &= !rel_slots;
    d.ack_req &= !rel_slots;
    d.bar_acked &= !rel_slots;
    d.head = head_d;
    d.cta_pend &= !cta_rel;

    // Output register: sequencer first, then an accepted transaction (RTL: cmd_stream.rs).
    if out_free {
        if seq_busy {
            let t = q.seq_tag as usize;
            let (kd, opd, pend) = if q.seq_pend & SEQ_INVD != 0 {
                (kind::INVAL, 0, SEQ_INVD)
            } else if q.seq_pend & SEQ_INVT != 0 {
                (kind::INVAL, 1, SEQ_INVT)
            } else {
                (kind::BARRIER, 0, SEQ_BAR)
            };
            let is_bar = kd == kind::BARRIER;
            d.out = Cmd {
                valid: true,
                kind: kd,
                tag: q.seq_tag,
                warp: 0,
                op: opd,
                level: if is_bar { q.level[t] } else { 0 },
                ack_req: is_bar && q.ack_req & (1 << t) != 0,
                id: 0,
            };
            d.seq_pend &= !pend;
        } else if accept_txn {
            d.out = Cmd {
                valid: true,
                kind: kind::TXN,
                tag: q.open,
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
        d.cnt[open] = (d.cnt[open] + 1) & cmax;
    }

    // Close the open slot and open the next one (RTL: coalescer.rs, slot_ring.rs).
    if close {
        let ob = 1u8 << q.open;
        d.closed |= ob;
        let lv = q.level[open];
        let iv = q.ivall[open];
        let need_ack = lv == level::SYS || iv != 0 || (cfg.gl_bar_ack && lv == level::GL);
        if need_ack {
            d.ack_req |= ob;
        }
        d.seq_pend = SEQ_BAR
            | if iv & 1 != 0 { SEQ_INVD } else { 0 }
            | if iv & 2 != 0 { SEQ_INVT } else { 0 };
        d.seq_tag = q.open;
        d.open = (q.open + 1) & kmask;
        d.nmem = 0;
        d.age = 0;
    } else if q.nmem > 0 {
        d.age = if by_coalesce { q.age } else { q.age + 1 };
    }
    // `lone` of the slot the next first member joins (the one after a slot
    // that closes now is never lone); loaded while the slot is empty, read
    // only once it has members.
    if close || q.nmem == 0 {
        d.lone = nclosed == 0 && !close;
    }
    if accept_join {
        let t = d.open as usize;
        ev.joined_existing = d.nmem > 0;
        if d.nmem == 0 {
            d.level[t] = i.req_level;
            d.ivall[t] = i.req_ivall;
            d.age = 0;
        } else {
            d.level[t] = d.level[t].max(i.req_level);
            d.ivall[t] |= i.req_ivall;
        }
        d.members[t] |= wbit;
        d.nmem += 1;
    }
    if accept_cta {
        d.cta_pend |= wbit;
    }
    (out, d, ev)
}

/// A membar back end that exposes the model's internal [`Events`] of its
/// last step (the golden model and its mutants), for coverage.
pub trait EventedModel: crate::ports::Dut<crate::ports::MembarUnitPorts> {
    fn config(&self) -> &Config;
    fn last_events(&self) -> &Events;
}

impl EventedModel for MembarModel {
    fn config(&self) -> &Config {
        &self.cfg
    }
    fn last_events(&self) -> &Events {
        &self.last_events
    }
}

/// The reference model as a [`Dut`].
#[derive(Clone, Debug)]
pub struct MembarModel {
    pub cfg: Config,
    pub q: State,
    /// Internal events of the last step (for coverage).
    pub last_events: Events,
}

impl MembarModel {
    pub fn new(cfg: &Config) -> Self {
        MembarModel {
            cfg: cfg.clone(),
            q: State::default(),
            last_events: Events::default(),
        }
    }
    pub fn reset(&mut self) {
        self.q = State::default();
    }
}

impl unit_ports::Dut<crate::ports::MembarUnitPorts> for MembarModel {
    #[inline]
    fn step(&mut self, i: &Inputs) -> Outputs {
        let (o, d, ev) = eval(&self.cfg, &self.q, i);
        self.q = d;
        self.last_events = ev;
        o
    }
    fn name(&self) -> &str {
        "model"
    }
}

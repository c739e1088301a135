//! Slot ring (the tag ring): per-slot coalesced-barrier state, the `bar_ack`
//! check, and the in-order release walk.
//!
//! Twin of `State::{members, level, ivall, closed, bar_sent, ack_req,
//! bar_acked}` and of the "acknowledgements" (`bar_ack_ok`), "release"
//! (walk, `rel_slots`, `group_rel`, `head_d`) and slot-update parts of
//! `membar_unit_model::membar_unit::eval`.
//!
//! The K slots are used as a ring: closed slots are `head .. open-1`, the
//! open slot is `open`, the rest are free. Every cycle the release walk visits
//! the slots from the oldest (`open+1`) to `open-1`. A closed slot is *done*
//! when its BARRIER was transferred, its `bar_ack` came (if it asked for one)
//! and, for GL and SYS, its counter and the counter of every older slot (free
//! or closed) are zero. Every done slot up to the first closed slot that is
//! not done is released: its members pulse in `group_rel`, its state is
//! cleared and `head` moves past it. `bar_ack_valid` with tag t is valid when
//! slot t is closed, asked for a `bar_ack`, sent its BARRIER and has no
//! `bar_ack` yet; any other `bar_ack` changes nothing and flags `bar_ack_err`.
//! A closing slot asks for a `bar_ack` when its level is SYS, any member asked
//! for an invalidate, or (`gl_bar_ack`) its level is GL. A joining MEMBAR adds
//! its warp, raises the slot's level to its own and ORs in its ivall. A slot
//! is never released and joined in the same cycle: released slots are closed,
//! the join target is open.
//!
//! Timing structure (docs/fpga.md, "Timing"): the walk is computed per slot
//! in slot order, never rotated into ring order and back: slot k is released
//! when it is closed and done and every closed slot met walking back from k
//! to the open slot is done (closed slots are contiguous, so the walk back
//! stops at the open slot or passes free slots), and its zero-counter prefix
//! is the AND of the counters from k back to the slot after the open one.
//! Each walk-back step is a rotation of a K-bit vector by one slot, so each
//! `rel` bit is a flat function of the K slots' flags and the open one-hot.
//! The walk reads only registered state, so it runs a cycle ahead on the
//! next-state values (`rel_now` holds this cycle's release; see the kernel
//! comment for the two next-state terms it may leave out).
//! The RTL keeps no `head`: the closed slots are exactly `head .. open-1`, so
//! what the model reads from `open - head` is the number of closed slots
//! (`closed`, to the coalescer). A join is written into the slot state one
//! cycle late through the `pj_*` write-back register (reads of the slot's
//! level and ivall bypass it), and a released slot's members, level and ivall
//! are cleared one cycle late from `rel_q`. Neither delay is visible at a
//! port: a slot joined last cycle cannot be released yet, and a slot released
//! last cycle is free: nothing reads its state before it is cleared, and a
//! join into it (as the new open slot) is written back after the clear.
//!
//! Parameter: `gl_bar_ack` (constant).
//!
//! Ports (W warps, K slots, TB = log2 K):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `open_tag` (in, TB), `close` (in): the open slot; it closes this cycle (coalescer).
//! - `accept_join`, `join_tag` (in, TB), `join_first` (in): a MEMBAR joins slot
//!   `join_tag`, which has no members yet when `join_first` (coalescer).
//! - `warp_bit` (in, W): the joining warp, one-hot (request gate).
//! - `req_level`, `req_ivall` (in, 2 each): the joining MEMBAR's level and ivall.
//! - `zero_next` (in, K): which slots' counters are zero next cycle (commit counters).
//! - `bar_fire`, `out_tag` (in): a BARRIER is transferred downstream, and its
//!   tag (command stream).
//! - `seq_tag` (in, TB): the slot the sequencer emits commands for.
//! - `bar_ack_valid`, `bar_ack_tag` (in): SPEC.md ports.
//! - `closed` (out, K): which slots are closed (awaiting release).
//! - `group_rel` (out, W): members of the slots released this cycle.
//! - `open_level`, `open_ivall` (out, 2 each): the open slot's level and ivall.
//! - `seq_level` (out, 2), `seq_ack_req` (out): level and `ack_req` of slot `seq_tag`.
//! - `bar_ack_err` (out): `bar_ack_valid` with no BARRIER awaiting it.

use membar_unit_model::ports::level;
use rust_hdl::prelude::*;

/// Per-slot barrier state and the release walk (W warps, K slots, TB = log2 K).
#[derive(LogicBlock)]
pub struct SlotRing<const W: usize, const K: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub open_tag: Signal<In, Bits<TB>>,
    pub close: Signal<In, Bit>,
    pub accept_join: Signal<In, Bit>,
    pub join_tag: Signal<In, Bits<TB>>,
    pub join_first: Signal<In, Bit>,
    pub warp_bit: Signal<In, Bits<W>>,
    pub req_level: Signal<In, Bits<2>>,
    pub req_ivall: Signal<In, Bits<2>>,
    pub zero_next: Signal<In, Bits<K>>,
    pub bar_fire: Signal<In, Bit>,
    pub out_tag: Signal<In, Bits<TB>>,
    pub seq_tag: Signal<In, Bits<TB>>,
    pub bar_ack_valid: Signal<In, Bit>,
    pub bar_ack_tag: Signal<In, Bits<TB>>,
    pub closed_set: Signal<Out, Bits<K>>,
    pub group_rel: Signal<Out, Bits<W>>,
    pub open_level: Signal<Out, Bits<2>>,
    pub open_ivall: Signal<Out, Bits<2>>,
    pub seq_level: Signal<Out, Bits<2>>,
    pub seq_ack_req: Signal<Out, Bit>,
    pub bar_ack_err: Signal<Out, Bit>,
    /// Per slot: warps that are members of its coalesced barrier (model `members`).
    members: [DFF<Bits<W>>; K],
    /// Per slot: level of its coalesced barrier (model `level`).
    level: [DFF<Bits<2>>; K],
    /// Per slot: OR of its members' ivall (model `ivall`).
    ivall: [DFF<Bits<2>>; K],
    /// Slot sets, bit k = slot k (model `closed`, `bar_sent`, `ack_req`, `bar_acked`).
    closed: DFF<Bits<K>>,
    bar_sent: DFF<Bits<K>>,
    ack_req: DFF<Bits<K>>,
    bar_acked: DFF<Bits<K>>,
    /// Join write-back: the MEMBAR that joined slot `pj_tag` last cycle, with
    /// the slot's resulting level and ivall. Written into the slot state at
    /// the end of this cycle, so the accept decision ends at these few flops
    /// instead of at the enables of a slot's W + 4 state bits; the slot's
    /// level and ivall are read through `pj_level`/`pj_ivall` meanwhile (its
    /// members are only read by the walk, which cannot release a slot joined
    /// last cycle: it was open then and is not yet closed).
    pj_valid: DFF<Bit>,
    pj_tag: DFF<Bits<TB>>,
    pj_warp: DFF<Bits<W>>,
    pj_level: DFF<Bits<2>>,
    pj_ivall: DFF<Bits<2>>,
    /// Slots released last cycle: their members, level and ivall are
    /// cleared now, one cycle late, so the release walk ends at the K slot
    /// flags and the outputs instead of at the slot state's enables. Nothing
    /// reads a slot's state in the cycle after its release (it is free and not
    /// yet open; `warp_blocked` is kept by the request gate).
    rel_q: DFF<Bits<K>>,
    /// The slots released this cycle, computed last cycle from the state
    /// this cycle has (the walk reads only registered state, so it can run a
    /// cycle ahead on the next-state values): the release pulse and the
    /// per-warp blocking update start at these K flops.
    rel_now: DFF<Bits<K>>,
    open_bit: Signal<Local, Bits<K>>,
    sent_bit: Signal<Local, Bits<K>>,
    bar_ack_bit: Signal<Local, Bits<K>>,
    awaiting_ack: Signal<Local, Bits<K>>,
    bar_ack_ok: Signal<Local, Bit>,
    need_ack: Signal<Local, Bit>,
    n_closed: Signal<Local, Bits<K>>,
    rel_n: Signal<Local, Bits<K>>,
    fire_bits: Signal<Local, Bits<K>>,
    back_bits: Signal<Local, Bits<K>>,
    s_ok: Signal<Local, Bits<K>>,
    s_drain: Signal<Local, Bits<K>>,
    s_zero: Signal<Local, Bits<K>>,
    s_done: Signal<Local, Bits<K>>,
    stop: Signal<Local, Bits<K>>,
    r_open: Signal<Local, Bits<K>>,
    r_zero: Signal<Local, Bits<K>>,
    r_pass: Signal<Local, Bits<K>>,
    rel: Signal<Local, Bits<K>>,
    gl_bar_ack: Constant<Bit>,
    level_gl: Constant<Bits<2>>,
    level_sys: Constant<Bits<2>>,
    /// Shift amounts of a rotation by one slot: bit k of the result is bit k - 1.
    rot_1: Constant<Bits<8>>,
    rot_km1: Constant<Bits<8>>,
    slot_bit: [Constant<Bits<K>>; K],
}

impl<const W: usize, const K: usize, const TB: usize> SlotRing<W, K, TB> {
    /// A slot ring; `gl_bar_ack` asks for a `bar_ack` on GL barriers too.
    pub fn new(gl_bar_ack: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            open_tag: Default::default(),
            close: Default::default(),
            accept_join: Default::default(),
            join_tag: Default::default(),
            join_first: Default::default(),
            warp_bit: Default::default(),
            req_level: Default::default(),
            req_ivall: Default::default(),
            zero_next: Default::default(),
            bar_fire: Default::default(),
            out_tag: Default::default(),
            seq_tag: Default::default(),
            bar_ack_valid: Default::default(),
            bar_ack_tag: Default::default(),
            closed_set: Default::default(),
            group_rel: Default::default(),
            open_level: Default::default(),
            open_ivall: Default::default(),
            seq_level: Default::default(),
            seq_ack_req: Default::default(),
            bar_ack_err: Default::default(),
            members: std::array::from_fn(|_| Default::default()),
            level: std::array::from_fn(|_| Default::default()),
            ivall: std::array::from_fn(|_| Default::default()),
            closed: Default::default(),
            bar_sent: Default::default(),
            ack_req: Default::default(),
            bar_acked: Default::default(),
            pj_valid: Default::default(),
            pj_tag: Default::default(),
            pj_warp: Default::default(),
            pj_level: Default::default(),
            pj_ivall: Default::default(),
            rel_q: Default::default(),
            rel_now: Default::default(),
            open_bit: Default::default(),
            sent_bit: Default::default(),
            bar_ack_bit: Default::default(),
            awaiting_ack: Default::default(),
            bar_ack_ok: Default::default(),
            need_ack: Default::default(),
            n_closed: Default::default(),
            rel_n: Default::default(),
            fire_bits: Default::default(),
            back_bits: Default::default(),
            s_ok: Default::default(),
            s_drain: Default::default(),
            s_zero: Default::default(),
            s_done: Default::default(),
            stop: Default::default(),
            r_open: Default::default(),
            r_zero: Default::default(),
            r_pass: Default::default(),
            rel: Default::default(),
            gl_bar_ack: Constant::new(gl_bar_ack),
            level_gl: Constant::new(u64::from(level::GL).into()),
            level_sys: Constant::new(u64::from(level::SYS).into()),
            rot_1: Constant::new(1u64.into()),
            rot_km1: Constant::new((K as u64 - 1).into()),
            slot_bit: std::array::from_fn(|k| Constant::new((1u64 << k).into())),
        }
    }
}

impl<const W: usize, const K: usize, const TB: usize> Logic for SlotRing<W, K, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, closed, bar_sent, ack_req, bar_acked, pj_valid, pj_tag, pj_warp, pj_level,
            pj_ivall, rel_q, rel_now
        );
        for k in 0..K {
            self.members[k].clock.next = self.clock.val();
            self.members[k].d.next = self.members[k].q.val();
            self.level[k].clock.next = self.clock.val();
            self.level[k].d.next = self.level[k].q.val();
            self.ivall[k].clock.next = self.clock.val();
            self.ivall[k].d.next = self.ivall[k].q.val();
        }
        self.closed_set.next = self.closed.q.val();

        // Read ports and slot decodes.
        self.open_level.next = 0.into();
        self.open_ivall.next = 0.into();
        self.open_bit.next = 0.into();
        self.seq_level.next = 0.into();
        self.sent_bit.next = 0.into();
        self.bar_ack_bit.next = 0.into();
        for k in 0..K {
            if self.open_tag.val().index() == k {
                self.open_level.next = self.level[k].q.val();
                self.open_ivall.next = self.ivall[k].q.val();
                self.open_bit.next = self.slot_bit[k].val();
            }
            if self.seq_tag.val().index() == k {
                self.seq_level.next = self.level[k].q.val();
            }
            if self.out_tag.val().index() == k {
                self.sent_bit.next = self.slot_bit[k].val();
            }
            if self.bar_ack_tag.val().index() == k {
                self.bar_ack_bit.next = self.slot_bit[k].val();
            }
        }
        if self.pj_valid.q.val() & (self.pj_tag.q.val() == self.open_tag.val()) {
            self.open_level.next = self.pj_level.q.val();
            self.open_ivall.next = self.pj_ivall.q.val();
        }
        if self.pj_valid.q.val() & (self.pj_tag.q.val() == self.seq_tag.val()) {
            self.seq_level.next = self.pj_level.q.val();
        }
        self.seq_ack_req.next = self.ack_req.q.val().get_bit(self.seq_tag.val().index());

        // bar_ack check.
        self.awaiting_ack.next = self.closed.q.val()
            & self.ack_req.q.val()
            & self.bar_sent.q.val()
            & !self.bar_acked.q.val();
        self.bar_ack_ok.next = self.bar_ack_valid.val()
            & self
                .awaiting_ack
                .val()
                .get_bit(self.bar_ack_tag.val().index());
        self.bar_ack_err.next = self.bar_ack_valid.val() & !self.bar_ack_ok.val();

        // This cycle's release was decided last cycle (`rel_now`).
        self.rel.next = self.rel_now.q.val();

        // Next cycle's release walk, on next cycle's state, per slot in slot
        // order. Next cycle's state as far as the walk can see it: this
        // cycle's released slots are gone, a BARRIER transferred now counts
        // as sent and a valid bar_ack now as received, counters as they will
        // be (`zero_next`). A slot closing now is left out, and `open` is
        // taken as it is now: the closing slot has sent no BARRIER, so it is
        // not done next cycle, and it is the youngest closed slot, so no
        // other slot's walk back meets it; the slot that would open instead
        // is free with a zero counter (`next_clean`), so dropping it from the
        // zero prefix changes nothing.
        self.n_closed.next = self.closed.q.val() & !self.rel.val();
        self.fire_bits.next = 0.into();
        if self.bar_fire.val() {
            self.fire_bits.next = self.sent_bit.val();
        }
        self.back_bits.next = 0.into();
        if self.bar_ack_valid.val() {
            self.back_bits.next = self.bar_ack_bit.val() & self.awaiting_ack.val();
        }
        // A slot is done when its
        // BARRIER was transferred and its bar_ack came (if asked for) and, if
        // it drains (GL, SYS), its counter and every counter walking back to
        // the slot after the open one are zero (`s_zero`). A slot is released
        // when it is closed, done, and every closed slot walking back to the
        // open slot is done. Each step back is a rotation by one slot of the
        // whole vector (bit k takes bit k - 1), `stop` marks the slots whose
        // walk back has reached the open slot.
        self.s_ok.next = (self.bar_sent.q.val() | self.fire_bits.val())
            & (!self.ack_req.q.val() | self.bar_acked.q.val() | self.back_bits.val());
        self.s_drain.next = 0.into();
        for k in 0..K {
            if self.level[k].q.val() >= self.level_gl.val() {
                self.s_drain.next = self.s_drain.val() | self.slot_bit[k].val();
            }
        }
        self.s_zero.next = self.zero_next.val();
        self.stop.next = 0.into();
        self.r_open.next = self.open_bit.val();
        self.r_zero.next = self.zero_next.val();
        for _step in 1..K {
            self.r_open.next =
                (self.r_open.val() << self.rot_1.val()) | (self.r_open.val() >> self.rot_km1.val());
            self.r_zero.next =
                (self.r_zero.val() << self.rot_1.val()) | (self.r_zero.val() >> self.rot_km1.val());
            self.stop.next = self.stop.val() | self.r_open.val();
            self.s_zero.next = self.s_zero.val() & (self.stop.val() | self.r_zero.val());
        }
        self.s_done.next = self.s_ok.val() & (!self.s_drain.val() | self.s_zero.val());
        self.rel_n.next = self.n_closed.val() & self.s_done.val();
        self.stop.next = 0.into();
        self.r_open.next = self.open_bit.val();
        self.r_pass.next = !self.n_closed.val() | self.s_done.val();
        for _step in 1..K {
            self.r_open.next =
                (self.r_open.val() << self.rot_1.val()) | (self.r_open.val() >> self.rot_km1.val());
            self.r_pass.next =
                (self.r_pass.val() << self.rot_1.val()) | (self.r_pass.val() >> self.rot_km1.val());
            self.stop.next = self.stop.val() | self.r_open.val();
            self.rel_n.next = self.rel_n.val() & (self.stop.val() | self.r_pass.val());
        }
        self.rel_now.d.next = self.rel_n.val();
        self.group_rel.next = 0.into();
        for k in 0..K {
            if self.rel.val().get_bit(k) {
                self.group_rel.next = self.group_rel.val() | self.members[k].q.val();
            }
        }

        // Next state: slot sets.
        self.need_ack.next = (self.open_level.val() == self.level_sys.val())
            | self.open_ivall.val().any()
            | (self.gl_bar_ack.val() & (self.open_level.val() == self.level_gl.val()));
        self.closed.d.next = self.closed.q.val() & !self.rel.val();
        self.ack_req.d.next = self.ack_req.q.val() & !self.rel.val();
        if self.close.val() {
            self.closed.d.next = (self.closed.q.val() & !self.rel.val()) | self.open_bit.val();
            if self.need_ack.val() {
                self.ack_req.d.next =
                    (self.ack_req.q.val() & !self.rel.val()) | self.open_bit.val();
            }
        }
        self.bar_sent.d.next = self.bar_sent.q.val() & !self.rel.val();
        if self.bar_fire.val() {
            self.bar_sent.d.next = (self.bar_sent.q.val() | self.sent_bit.val()) & !self.rel.val();
        }
        self.bar_acked.d.next = self.bar_acked.q.val() & !self.rel.val();
        if self.bar_ack_ok.val() {
            self.bar_acked.d.next =
                (self.bar_acked.q.val() | self.bar_ack_bit.val()) & !self.rel.val();
        }

        // Join write-back: capture this cycle's join with the target slot's
        // resulting level and ivall. A join into a slot with members is a
        // join into the open slot (a slot that closes this cycle takes no
        // member: the joiner goes to the next, empty one, `join_first`), so
        // the target's level and ivall are `open_level`/`open_ivall` (seen
        // through last cycle's write-back); no multiplexer on `join_tag`.
        self.pj_valid.d.next = self.accept_join.val();
        self.pj_tag.d.next = self.join_tag.val();
        self.pj_warp.d.next = self.warp_bit.val();
        if self.join_first.val() {
            self.pj_level.d.next = self.req_level.val();
            self.pj_ivall.d.next = self.req_ivall.val();
        } else {
            self.pj_ivall.d.next = self.open_ivall.val() | self.req_ivall.val();
            self.pj_level.d.next = self.open_level.val();
            if self.req_level.val() > self.open_level.val() {
                self.pj_level.d.next = self.req_level.val();
            }
        }

        // Next state: per-slot barrier state (last cycle's released slots
        // clear, last cycle's join target takes the write-back).
        self.rel_q.d.next = self.rel.val();
        for k in 0..K {
            if self.rel_q.q.val().get_bit(k) {
                self.members[k].d.next = 0.into();
                self.level[k].d.next = 0.into();
                self.ivall[k].d.next = 0.into();
            } else if self.pj_valid.q.val() & (self.pj_tag.q.val().index() == k) {
                self.members[k].d.next = self.members[k].q.val() | self.pj_warp.q.val();
                self.level[k].d.next = self.pj_level.q.val();
                self.ivall[k].d.next = self.pj_ivall.q.val();
            }
        }
        if self.reset.val() {
            self.closed.d.next = 0.into();
            self.bar_sent.d.next = 0.into();
            self.ack_req.d.next = 0.into();
            self.bar_acked.d.next = 0.into();
            self.pj_valid.d.next = false;
            self.rel_q.d.next = 0.into();
            self.rel_now.d.next = 0.into();
            for k in 0..K {
                self.members[k].d.next = 0.into();
                self.level[k].d.next = 0.into();
                self.ivall[k].d.next = 0.into();
            }
        }
    }
}

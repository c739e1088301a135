//! Slot ring (the tag ring): per-slot coalesced-barrier state, the `bar_ack`
//! check, and the in-order release walk.
//!
//! Twin of `State::{members, level, ivall, closed, bar_sent, ack_req,
//! bar_acked, head}` and of the "acknowledgements" (`bar_ack_ok`), "release"
//! (walk, `rel_slots`, `group_rel`, `head_d`) and slot-update parts of
//! `membar_sim::membar_unit::eval`.
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
//! Parameter: `gl_bar_ack` (constant).
//!
//! Ports (W warps, K slots, TB = log2 K):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `open_tag` (in, TB), `close` (in): the open slot; it closes this cycle (coalescer).
//! - `join_en`, `join_tag` (in, TB), `join_first` (in): a MEMBAR joins slot
//!   `join_tag`, which has no members yet when `join_first` (coalescer).
//! - `warp_bit` (in, W): the joining warp, one-hot (request gate).
//! - `req_level`, `req_ivall` (in, 2 each): the joining MEMBAR's level and ivall.
//! - `zero` (in, K): which slots' counters are zero (commit counters).
//! - `bar_fire`, `out_tag` (in): a BARRIER is transferred downstream, and its
//!   tag (command stream).
//! - `seq_tag` (in, TB): the slot the sequencer emits commands for.
//! - `bar_ack_valid`, `bar_ack_tag` (in): SPEC.md ports.
//! - `head_tag` (out, TB): the oldest closed slot.
//! - `members_all` (out, W): OR of every slot's members.
//! - `group_rel` (out, W): members of the slots released this cycle.
//! - `open_level`, `open_ivall` (out, 2 each): the open slot's level and ivall.
//! - `seq_level` (out, 2), `seq_ack_req` (out): level and `ack_req` of slot `seq_tag`.
//! - `bar_ack_err` (out): `bar_ack_valid` with no BARRIER awaiting it.

use membar_sim::ports::level;
use rust_hdl::prelude::*;

/// Per-slot barrier state and the release walk (W warps, K slots, TB = log2 K).
#[derive(LogicBlock)]
pub struct SlotRing<const W: usize, const K: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub open_tag: Signal<In, Bits<TB>>,
    pub close: Signal<In, Bit>,
    pub join_en: Signal<In, Bit>,
    pub join_tag: Signal<In, Bits<TB>>,
    pub join_first: Signal<In, Bit>,
    pub warp_bit: Signal<In, Bits<W>>,
    pub req_level: Signal<In, Bits<2>>,
    pub req_ivall: Signal<In, Bits<2>>,
    pub zero: Signal<In, Bits<K>>,
    pub bar_fire: Signal<In, Bit>,
    pub out_tag: Signal<In, Bits<TB>>,
    pub seq_tag: Signal<In, Bits<TB>>,
    pub bar_ack_valid: Signal<In, Bit>,
    pub bar_ack_tag: Signal<In, Bits<TB>>,
    pub head_tag: Signal<Out, Bits<TB>>,
    pub members_all: Signal<Out, Bits<W>>,
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
    /// The oldest closed slot (model `head`).
    head: DFF<Bits<TB>>,
    open_bit: Signal<Local, Bits<K>>,
    sent_bit: Signal<Local, Bits<K>>,
    bar_ack_bit: Signal<Local, Bits<K>>,
    awaiting_ack: Signal<Local, Bits<K>>,
    bar_ack_ok: Signal<Local, Bit>,
    need_ack: Signal<Local, Bit>,
    walk: Signal<Local, Bits<TB>>,
    walk_bit: Signal<Local, Bits<K>>,
    walk_drains: Signal<Local, Bit>,
    walk_done: Signal<Local, Bit>,
    zero_so_far: Signal<Local, Bit>,
    chain: Signal<Local, Bit>,
    rel: Signal<Local, Bits<K>>,
    head_next: Signal<Local, Bits<TB>>,
    gl_bar_ack: Constant<Bit>,
    level_gl: Constant<Bits<2>>,
    level_sys: Constant<Bits<2>>,
    one_tag: Constant<Bits<TB>>,
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
            join_en: Default::default(),
            join_tag: Default::default(),
            join_first: Default::default(),
            warp_bit: Default::default(),
            req_level: Default::default(),
            req_ivall: Default::default(),
            zero: Default::default(),
            bar_fire: Default::default(),
            out_tag: Default::default(),
            seq_tag: Default::default(),
            bar_ack_valid: Default::default(),
            bar_ack_tag: Default::default(),
            head_tag: Default::default(),
            members_all: Default::default(),
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
            head: Default::default(),
            open_bit: Default::default(),
            sent_bit: Default::default(),
            bar_ack_bit: Default::default(),
            awaiting_ack: Default::default(),
            bar_ack_ok: Default::default(),
            need_ack: Default::default(),
            walk: Default::default(),
            walk_bit: Default::default(),
            walk_drains: Default::default(),
            walk_done: Default::default(),
            zero_so_far: Default::default(),
            chain: Default::default(),
            rel: Default::default(),
            head_next: Default::default(),
            gl_bar_ack: Constant::new(gl_bar_ack),
            level_gl: Constant::new(u64::from(level::GL).into()),
            level_sys: Constant::new(u64::from(level::SYS).into()),
            one_tag: Constant::new(1u64.into()),
            slot_bit: std::array::from_fn(|k| Constant::new((1u64 << k).into())),
        }
    }
}

impl<const W: usize, const K: usize, const TB: usize> Logic for SlotRing<W, K, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, closed, bar_sent, ack_req, bar_acked, head);
        for k in 0..K {
            self.members[k].clock.next = self.clock.val();
            self.members[k].d.next = self.members[k].q.val();
            self.level[k].clock.next = self.clock.val();
            self.level[k].d.next = self.level[k].q.val();
            self.ivall[k].clock.next = self.clock.val();
            self.ivall[k].d.next = self.ivall[k].q.val();
        }
        self.head_tag.next = self.head.q.val();

        // Read ports and slot decodes.
        self.members_all.next = 0.into();
        self.open_level.next = 0.into();
        self.open_ivall.next = 0.into();
        self.open_bit.next = 0.into();
        self.seq_level.next = 0.into();
        self.sent_bit.next = 0.into();
        self.bar_ack_bit.next = 0.into();
        for k in 0..K {
            self.members_all.next = self.members_all.val() | self.members[k].q.val();
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

        // Release walk, oldest slot (open+1) first.
        self.walk.next = self.open_tag.val();
        self.zero_so_far.next = true;
        self.chain.next = true;
        self.rel.next = 0.into();
        self.head_next.next = self.head.q.val();
        for _step in 1..K {
            self.walk.next = self.walk.val() + self.one_tag.val();
            self.walk_bit.next = 0.into();
            self.walk_drains.next = false;
            for k in 0..K {
                if self.walk.val().index() == k {
                    self.walk_bit.next = self.slot_bit[k].val();
                    self.walk_drains.next = self.level[k].q.val() >= self.level_gl.val();
                }
            }
            self.walk_done.next = self.bar_sent.q.val().get_bit(self.walk.val().index())
                & (!self.ack_req.q.val().get_bit(self.walk.val().index())
                    | self.bar_acked.q.val().get_bit(self.walk.val().index()))
                & (!self.walk_drains.val()
                    | (self.zero_so_far.val() & self.zero.val().get_bit(self.walk.val().index())));
            if self.closed.q.val().get_bit(self.walk.val().index()) {
                if self.chain.val() & self.walk_done.val() {
                    self.rel.next = self.rel.val() | self.walk_bit.val();
                    self.head_next.next = self.walk.val() + self.one_tag.val();
                } else {
                    self.chain.next = false;
                }
            }
            self.zero_so_far.next =
                self.zero_so_far.val() & self.zero.val().get_bit(self.walk.val().index());
        }
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
        self.head.d.next = self.head_next.val();

        // Next state: per-slot barrier state (released slots clear, the join target merges).
        for k in 0..K {
            if self.rel.val().get_bit(k) {
                self.members[k].d.next = 0.into();
                self.level[k].d.next = 0.into();
                self.ivall[k].d.next = 0.into();
            } else if self.join_en.val() & (self.join_tag.val().index() == k) {
                self.members[k].d.next = self.members[k].q.val() | self.warp_bit.val();
                if self.join_first.val() {
                    self.level[k].d.next = self.req_level.val();
                    self.ivall[k].d.next = self.req_ivall.val();
                } else {
                    self.ivall[k].d.next = self.ivall[k].q.val() | self.req_ivall.val();
                    if self.req_level.val() > self.level[k].q.val() {
                        self.level[k].d.next = self.req_level.val();
                    }
                }
            }
        }
        if self.reset.val() {
            self.closed.d.next = 0.into();
            self.bar_sent.d.next = 0.into();
            self.ack_req.d.next = 0.into();
            self.bar_acked.d.next = 0.into();
            self.head.d.next = 0.into();
            for k in 0..K {
                self.members[k].d.next = 0.into();
                self.level[k].d.next = 0.into();
                self.ivall[k].d.next = 0.into();
            }
        }
    }
}

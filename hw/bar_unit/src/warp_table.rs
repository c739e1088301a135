//! Warp table: per-warp registers — live (in a CTA), the CTA slot, blocked
//! and the barrier id the warp waits on — with read ports for the
//! requesting and the ctl warp, and the release mask of a completing barrier.
//!
//! Implements the per-warp parts of the golden kernel
//! (`sim/bar_unit/src/bar_unit.rs`, `eval`): `State::live`, `warp_slot`,
//! `blocked` (set by a taken `bar.sync`/`bar.red`, cleared at the end of the
//! release cycle: `next.blocked &= !s.rel.mask`), and — in place of the
//! model's per-barrier `waiting` masks — the barrier id of each blocked
//! warp: a blocked warp waits on exactly one barrier (its slot, its id)
//! unless the release register holds it (its barrier completed at the last
//! edge; it unblocks at the end of this cycle), so the completed barrier's
//! `waiting` mask (`complete()`: `mask: b.waiting`) is the set of blocked
//! warps, less the release register's, whose (slot, id) match it. (Being
//! derived from `blocked` and the release register, the set needs no
//! register of its own, and the completion decision `done` — the unit's
//! latest signal — updates nothing here.)
//!
//! Ports (W warps, WB = log2 W, SB slot bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `a_warp` (in, WB): stage A's requesting warp; `a_live`, `a_blocked`, `a_slot` (out): its registers.
//! - `req_warp` (in, WB), `req_id` (in, 4): stage B's arrival: warp and barrier id.
//! - `ctl_warp` (in, WB): stage B's EXIT warp.
//! - `x_warp` (in, WB): stage A's EXIT warp; `x_live_n`, `x_blocked_n`,
//!   `x_slot_n` (out): its registers after this edge (stage B's event and the
//!   release forwarded), the look-ups stage B checks the exit with;
//!   `x_slot_q` (out, SB): its slot register before the edge, and `x_launch`
//!   (out): stage B's LAUNCH takes it (then `x_slot_n` is the launch slot) —
//!   so that a look-up by the exit's slot starts on the register and takes
//!   the launch's (late) enable last.
//! - `arr_en` (in): a legal arrival is taken; `arr_blocks` (in): it is `bar.sync`/`bar.red`.
//! - `req_blocks` (in): stage B holds a request of a blocking op, legal or not (writes `req_warp`'s barrier id).
//! - `launch_en` (in), `launch_slot` (in, SB), `launch_warps` (in, W): a legal LAUNCH.
//! - `exit_en` (in): a legal EXIT of `ctl_warp`.
//! - `done_slot` (in, SB), `done_id` (in, 4): the barrier that may complete at this edge.
//! - `rel_valid`, `rel_mask` (in, W): the release register (its warps unblock at this edge).
//! - `live` (out, W): every live warp (for the LAUNCH check).
//! - `blocked` (out, W): the `blocked` port before reset gating.
//! - `rel_cand` (out, W): the warps the completing barrier releases, formed
//!   without waiting for `done` (for the release register, whose fields
//!   need a value only with `done`): the waiters of (`done_slot`,
//!   `done_id`) and stage B's warp if its request blocks (when stage B's
//!   arrival completes the barrier it was legal; when stage C's exit does,
//!   stage B holds no request).

use rust_hdl::prelude::*;

use crate::onehot::OneHot;

/// Per-warp registers of `bar_unit`.
#[derive(LogicBlock)]
pub struct WarpTable<const W: usize, const WB: usize, const SB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub a_warp: Signal<In, Bits<WB>>,
    pub a_live: Signal<Out, Bit>,
    pub a_blocked: Signal<Out, Bit>,
    pub a_slot: Signal<Out, Bits<SB>>,
    pub req_warp: Signal<In, Bits<WB>>,
    pub req_id: Signal<In, Bits<4>>,
    pub ctl_warp: Signal<In, Bits<WB>>,
    pub x_warp: Signal<In, Bits<WB>>,
    pub x_live_n: Signal<Out, Bit>,
    pub x_blocked_n: Signal<Out, Bit>,
    pub x_slot_n: Signal<Out, Bits<SB>>,
    pub x_slot_q: Signal<Out, Bits<SB>>,
    pub x_launch: Signal<Out, Bit>,
    pub arr_en: Signal<In, Bit>,
    pub arr_blocks: Signal<In, Bit>,
    pub req_blocks: Signal<In, Bit>,
    pub launch_en: Signal<In, Bit>,
    pub launch_slot: Signal<In, Bits<SB>>,
    pub launch_warps: Signal<In, Bits<W>>,
    pub exit_en: Signal<In, Bit>,
    pub done_slot: Signal<In, Bits<SB>>,
    pub done_id: Signal<In, Bits<4>>,
    pub rel_valid: Signal<In, Bit>,
    pub rel_mask: Signal<In, Bits<W>>,
    pub live: Signal<Out, Bits<W>>,
    pub blocked: Signal<Out, Bits<W>>,
    pub rel_cand: Signal<Out, Bits<W>>,
    live_q: DFF<Bits<W>>,
    blocked_q: DFF<Bits<W>>,
    wslot: [DFF<Bits<SB>>; W],
    wbar: [DFF<Bits<4>>; W],
    a_dec: OneHot<W, WB>,
    req_dec: OneHot<W, WB>,
    ctl_dec: OneHot<W, WB>,
    x_dec: OneHot<W, WB>,
    /// Warps whose (slot, barrier id) is the completing barrier's.
    match_mask: Signal<Local, Bits<W>>,
    /// Warps waiting on the completing barrier.
    waiters: Signal<Local, Bits<W>>,
    /// The arriving warp, if it blocks.
    arr_bit: Signal<Local, Bits<W>>,
    blocked_n: Signal<Local, Bits<W>>,
    /// The release register's warps (0 when it is empty): they unblock at this edge.
    unblock: Signal<Local, Bits<W>>,
    warp_bit: [Constant<Bits<W>>; W],
}

impl<const W: usize, const WB: usize, const SB: usize> Default for WarpTable<W, WB, SB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            a_warp: Default::default(),
            a_live: Default::default(),
            a_blocked: Default::default(),
            a_slot: Default::default(),
            req_warp: Default::default(),
            req_id: Default::default(),
            ctl_warp: Default::default(),
            x_warp: Default::default(),
            x_live_n: Default::default(),
            x_blocked_n: Default::default(),
            x_slot_n: Default::default(),
            x_slot_q: Default::default(),
            x_launch: Default::default(),
            arr_en: Default::default(),
            arr_blocks: Default::default(),
            req_blocks: Default::default(),
            launch_en: Default::default(),
            launch_slot: Default::default(),
            launch_warps: Default::default(),
            exit_en: Default::default(),
            done_slot: Default::default(),
            done_id: Default::default(),
            rel_valid: Default::default(),
            rel_mask: Default::default(),
            live: Default::default(),
            blocked: Default::default(),
            rel_cand: Default::default(),
            live_q: Default::default(),
            blocked_q: Default::default(),
            wslot: std::array::from_fn(|_| Default::default()),
            wbar: std::array::from_fn(|_| Default::default()),
            a_dec: Default::default(),
            req_dec: Default::default(),
            ctl_dec: Default::default(),
            x_dec: Default::default(),
            match_mask: Default::default(),
            waiters: Default::default(),
            arr_bit: Default::default(),
            blocked_n: Default::default(),
            unblock: Default::default(),
            warp_bit: std::array::from_fn(|w| Constant::new((1u64 << w).into())),
        }
    }
}

impl<const W: usize, const WB: usize, const SB: usize> Logic for WarpTable<W, WB, SB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, live_q, blocked_q);
        for w in 0..W {
            self.wslot[w].clock.next = self.clock.val();
            self.wslot[w].d.next = self.wslot[w].q.val();
            self.wbar[w].clock.next = self.clock.val();
            self.wbar[w].d.next = self.wbar[w].q.val();
        }
        self.a_dec.index.next = self.a_warp.val();
        self.req_dec.index.next = self.req_warp.val();
        self.ctl_dec.index.next = self.ctl_warp.val();
        self.x_dec.index.next = self.x_warp.val();

        // Read ports.
        self.live.next = self.live_q.q.val();
        self.blocked.next = self.blocked_q.q.val();
        self.a_live.next = (self.live_q.q.val() & self.a_dec.onehot.val()).any();
        self.a_blocked.next = (self.blocked_q.q.val() & self.a_dec.onehot.val()).any();
        self.a_slot.next = 0.into();
        self.x_slot_q.next = 0.into();
        self.match_mask.next = 0.into();
        for w in 0..W {
            if self.a_warp.val().index() == w {
                self.a_slot.next = self.wslot[w].q.val();
            }
            if self.x_warp.val().index() == w {
                self.x_slot_q.next = self.wslot[w].q.val();
            }
            if (self.wslot[w].q.val() == self.done_slot.val())
                & (self.wbar[w].q.val() == self.done_id.val())
            {
                self.match_mask.next = self.match_mask.val() | self.warp_bit[w].val();
            }
        }

        // The arriving warp waits from this edge on; if its own arrival
        // completes the barrier it is released with the other waiters.
        self.arr_bit.next = 0.into();
        if self.arr_en.val() & self.arr_blocks.val() {
            self.arr_bit.next = self.req_dec.onehot.val();
        }
        // Blocked warps wait, except those the release register unblocks now.
        self.unblock.next = 0.into();
        if self.rel_valid.val() {
            self.unblock.next = self.rel_mask.val();
        }
        self.waiters.next = self.blocked_q.q.val() & !self.unblock.val() & self.match_mask.val();
        self.rel_cand.next = self.waiters.val();
        if self.req_blocks.val() {
            self.rel_cand.next = self.waiters.val() | self.req_dec.onehot.val();
        }

        // Next state.
        self.blocked_n.next = self.blocked_q.q.val() & !self.unblock.val();
        self.blocked_q.d.next = self.blocked_n.val() | self.arr_bit.val();
        for w in 0..W {
            // Written for every request of a blocking op in stage B, legal
            // or not: the id matters only while the warp waits, and a warp
            // with a request in stage B does not wait (stage A refused it).
            if self.req_blocks.val() & (self.req_warp.val().index() == w) {
                self.wbar[w].d.next = self.req_id.val();
            }
        }
        if self.launch_en.val() {
            self.live_q.d.next = self.live_q.q.val() | self.launch_warps.val();
            for w in 0..W {
                if self.launch_warps.val().get_bit(w) {
                    self.wslot[w].d.next = self.launch_slot.val();
                }
            }
        }
        if self.exit_en.val() {
            self.live_q.d.next = self.live_q.q.val() & !self.ctl_dec.onehot.val();
        }

        // Stage A's EXIT look-ups, after this edge: the registers' bits
        // first, the edge's (late) enables last.
        self.x_live_n.next = (self.live_q.q.val() & self.x_dec.onehot.val()).any();
        self.x_launch.next =
            self.launch_en.val() & (self.launch_warps.val() & self.x_dec.onehot.val()).any();
        self.x_slot_n.next = self.x_slot_q.val();
        if self.x_launch.val() {
            self.x_live_n.next = true;
            self.x_slot_n.next = self.launch_slot.val();
        }
        if self.exit_en.val() & (self.ctl_warp.val() == self.x_warp.val()) {
            self.x_live_n.next = false;
        }
        self.x_blocked_n.next = (self.blocked_n.val() & self.x_dec.onehot.val()).any()
            | (self.arr_en.val()
                & self.arr_blocks.val()
                & (self.req_warp.val() == self.x_warp.val()));

        if self.reset.val() {
            self.live_q.d.next = 0.into();
            self.blocked_q.d.next = 0.into();
            for w in 0..W {
                self.wslot[w].d.next = 0.into();
                self.wbar[w].d.next = 0.into();
            }
        }
    }
}

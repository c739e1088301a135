//! Request gate: decides, every cycle, whether the upstream request is
//! accepted; blocks warps with a pending MEMBAR; keeps the warps blocked by a
//! plain `MEMBAR.CTA`; and assembles the release pulse.
//!
//! Twin of the "request acceptance" and CTA-release parts of
//! `membar_unit_model::membar_unit::eval` (`live`, `accept_txn`, `accept_cta`,
//! `joining`, `cta_rel`, `release_mask`) and of `State::cta_pend`.
//!
//! A request is *live* when `req_valid` is high and its warp is not blocked.
//! A live LD/ST/ATOM/RED is accepted when the output register can take it, the
//! sequencer is idle and the open slot's counter is not full. A live plain
//! `MEMBAR.CTA` (level CTA, no ivall) is always accepted and only sets the
//! warp's `cta_pend` bit; any other live MEMBAR is *joining* and the coalescer
//! decides (`accept_join`). A reserved op (5–7) is refused and flags `err`.
//! A `cta_pend` warp is released as soon as the output register does not
//! hold a TXN of that warp.
//!
//! Ports (W warps, WB = log2 W):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `req_valid`, `req_warp`, `req_op`, `req_level`, `req_ivall` (in): the
//!   upstream request (SPEC.md ports).
//! - `group_rel` (in, W): members of the slots released this cycle (slot ring).
//! - `out_free` (in): the output register loads this cycle if asked (command stream).
//! - `seq_busy` (in): the sequencer has commands to emit (command stream).
//! - `out_txn`, `dn_warp` (in): the output register holds a TXN, and its warp.
//! - `cnt_full` (in): the open slot's counter is full (commit counters).
//! - `accept_join` (in): the joining MEMBAR is accepted (coalescer).
//! - `join_ok` (in): a joining MEMBAR would be accepted (coalescer; state only).
//! - `req_ready` (out): the request is accepted (SPEC.md `req_ready`).
//! - `accept_txn` (out): a LD/ST/ATOM/RED is accepted.
//! - `joining` (out): a live MEMBAR that needs a coalesced barrier.
//! - `warp_bit` (out, W): one-hot of `req_warp`.
//! - `reserved_err` (out): `req_valid` with a reserved op.
//! - `warp_blocked`, `release_valid`, `release_mask` (out, W): SPEC.md ports.

use membar_unit_model::ports::{level, op};
use rust_hdl::prelude::*;

use crate::onehot::OneHot;

/// Request acceptance, warp blocking and release (W warps, WB = log2 W).
#[derive(LogicBlock)]
pub struct RequestGate<const W: usize, const WB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_warp: Signal<In, Bits<WB>>,
    pub req_op: Signal<In, Bits<3>>,
    pub req_level: Signal<In, Bits<2>>,
    pub req_ivall: Signal<In, Bits<2>>,
    pub group_rel: Signal<In, Bits<W>>,
    pub out_free: Signal<In, Bit>,
    pub seq_busy: Signal<In, Bit>,
    pub out_txn: Signal<In, Bit>,
    pub dn_warp: Signal<In, Bits<WB>>,
    pub cnt_full: Signal<In, Bit>,
    pub accept_join: Signal<In, Bit>,
    pub join_ok: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub accept_txn: Signal<Out, Bit>,
    pub joining: Signal<Out, Bit>,
    pub warp_bit: Signal<Out, Bits<W>>,
    pub reserved_err: Signal<Out, Bit>,
    pub warp_blocked: Signal<Out, Bits<W>>,
    pub release_valid: Signal<Out, Bit>,
    pub release_mask: Signal<Out, Bits<W>>,
    /// Warps blocked by a plain MEMBAR.CTA (model `cta_pend`).
    cta_pend: DFF<Bits<W>>,
    /// Warps with a pending MEMBAR, kept incrementally: equals `cta_pend` OR
    /// every slot's members (model `cta_pend | members`) at every cycle, since
    /// a blocked warp is in exactly one of them (set when its MEMBAR is
    /// accepted, cleared when it is released), without the K-way OR of the
    /// slots' member masks on the accept path.
    blocked: DFF<Bits<W>>,
    req_dec: OneHot<W, WB>,
    out_dec: OneHot<W, WB>,
    live: Signal<Local, Bit>,
    is_membar: Signal<Local, Bit>,
    plain_cta: Signal<Local, Bit>,
    accept_cta: Signal<Local, Bit>,
    take_cta: Signal<Local, Bit>,
    take_any: Signal<Local, Bit>,
    cta_rel: Signal<Local, Bits<W>>,
    op_red: Constant<Bits<3>>,
    op_membar: Constant<Bits<3>>,
    level_cta: Constant<Bits<2>>,
}

impl<const W: usize, const WB: usize> Default for RequestGate<W, WB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_warp: Default::default(),
            req_op: Default::default(),
            req_level: Default::default(),
            req_ivall: Default::default(),
            group_rel: Default::default(),
            out_free: Default::default(),
            seq_busy: Default::default(),
            out_txn: Default::default(),
            dn_warp: Default::default(),
            cnt_full: Default::default(),
            accept_join: Default::default(),
            join_ok: Default::default(),
            req_ready: Default::default(),
            accept_txn: Default::default(),
            joining: Default::default(),
            warp_bit: Default::default(),
            reserved_err: Default::default(),
            warp_blocked: Default::default(),
            release_valid: Default::default(),
            release_mask: Default::default(),
            cta_pend: Default::default(),
            blocked: Default::default(),
            req_dec: Default::default(),
            out_dec: Default::default(),
            live: Default::default(),
            is_membar: Default::default(),
            plain_cta: Default::default(),
            accept_cta: Default::default(),
            take_cta: Default::default(),
            take_any: Default::default(),
            cta_rel: Default::default(),
            op_red: Constant::new(u64::from(op::RED).into()),
            op_membar: Constant::new(u64::from(op::MEMBAR).into()),
            level_cta: Constant::new(u64::from(level::CTA).into()),
        }
    }
}

impl<const W: usize, const WB: usize> Logic for RequestGate<W, WB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cta_pend, blocked);
        self.req_dec.index.next = self.req_warp.val();
        self.out_dec.index.next = self.dn_warp.val();
        self.warp_bit.next = self.req_dec.onehot.val();

        // Blocking and request decode.
        self.warp_blocked.next = self.blocked.q.val();
        // `warp_blocked[req_warp]` as an AND-OR with the one-hot decode of
        // `req_warp` (shared with `warp_bit`) rather than a W:1 multiplexer:
        // on iCE40 the decode settles beside the `blocked` flops and the OR
        // tree is shallower than the multiplexer chain on this, the unit's
        // longest cone (docs/fpga.md, "Timing").
        self.live.next =
            self.req_valid.val() & !(self.blocked.q.val() & self.req_dec.onehot.val()).any();
        self.is_membar.next = self.req_op.val() == self.op_membar.val();
        self.plain_cta.next =
            (self.req_level.val() == self.level_cta.val()) & !self.req_ivall.val().any();
        self.joining.next = self.live.val() & self.is_membar.val() & !self.plain_cta.val();
        self.accept_cta.next = self.live.val() & self.is_membar.val() & self.plain_cta.val();
        self.accept_txn.next = self.live.val()
            & (self.req_op.val() <= self.op_red.val())
            & self.out_free.val()
            & !self.seq_busy.val()
            & !self.cnt_full.val();
        self.req_ready.next =
            self.accept_txn.val() | self.accept_cta.val() | self.accept_join.val();
        self.reserved_err.next = self.req_valid.val() & (self.req_op.val() > self.op_membar.val());

        // Release: a CTA-pending warp goes once no TXN of it is in the output register.
        self.cta_rel.next = self.cta_pend.q.val();
        if self.out_txn.val() {
            self.cta_rel.next = self.cta_pend.q.val() & !self.out_dec.onehot.val();
        }
        self.release_mask.next = self.group_rel.val() | self.cta_rel.val();
        self.release_valid.next = self.release_mask.val().any();

        // Next state, per warp: a warp that is not blocked becomes blocked
        // when it is the requesting warp and its MEMBAR is taken. For that
        // warp `live` is `req_valid & !blocked[w]`, so the update reads
        // `blocked[w]` directly instead of through `warp_blocked[req_warp]`
        // (the same values as `accept_cta`/`accept_join` times `warp_bit`,
        // without the W:1 multiplexer on the path into the W flops).
        self.take_cta.next = self.req_valid.val() & self.is_membar.val() & self.plain_cta.val();
        self.take_any.next = self.req_valid.val()
            & self.is_membar.val()
            & (self.plain_cta.val() | self.join_ok.val());
        self.cta_pend.d.next = self.cta_pend.q.val() & !self.cta_rel.val();
        if self.take_cta.val() {
            self.cta_pend.d.next = (self.cta_pend.q.val() & !self.cta_rel.val())
                | (self.warp_bit.val() & !self.blocked.q.val());
        }
        self.blocked.d.next = self.blocked.q.val() & !self.release_mask.val();
        if self.take_any.val() {
            self.blocked.d.next = (self.blocked.q.val() & !self.release_mask.val())
                | (self.warp_bit.val() & !self.blocked.q.val());
        }
        if self.reset.val() {
            self.cta_pend.d.next = 0.into();
            self.blocked.d.next = 0.into();
        }
    }
}

//! Command stream: the one-entry output register presented on `dn_*`, and
//! the sequencer that emits a closed slot's INVAL/BARRIER commands.
//!
//! Twin of `State::{out, seq_pend, seq_tag}` and of the "Output register"
//! part of `membar_unit_model::membar_unit::eval` (`out_free`, `seq_busy`, `out_txn`).
//! The model's `seq_pend` bits 0, 1, 2 are the flops `seq_inval_d`,
//! `seq_inval_t`, `seq_barrier` here.
//!
//! The output register loads when it is empty or being transferred
//! (`!dn_valid || dn_ready`): first the sequencer's next command (INVAL D,
//! INVAL T, then the BARRIER carrying the slot's level and `ack_req`), else the
//! LD/ST/ATOM/RED accepted this cycle, tagged with the open slot; else it
//! empties. A slot that closes loads the sequencer with its commands (the
//! coalescer only closes a slot while the sequencer is idle). The register
//! holds still while `dn_valid && !dn_ready`.
//!
//! Ports (WB = log2 W, TB = log2 K):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `dn_ready` (in): SPEC.md port.
//! - `accept_txn` (in): a TXN is accepted this cycle (request gate).
//! - `req_warp`, `req_op`, `req_id` (in): the accepted TXN's fields.
//! - `open_tag` (in, TB): the open slot, the accepted TXN's tag (coalescer).
//! - `close` (in): the open slot closes this cycle (coalescer).
//! - `open_ivall` (in, 2): the closing slot's invalidates (slot ring).
//! - `seq_level` (in, 2), `seq_ack_req` (in): level and `ack_req` of slot
//!   `seq_tag`, for its BARRIER (slot ring).
//! - `dn_valid`, `dn_kind`, `dn_tag`, `dn_warp`, `dn_op`, `dn_level`,
//!   `dn_ack_req`, `dn_id` (out): the output register (SPEC.md ports).
//! - `out_free` (out): the output register loads this cycle.
//! - `out_txn` (out): it holds a TXN (of warp `dn_warp`, tag `dn_tag`).
//! - `bar_fire` (out): a BARRIER (tag `dn_tag`) is transferred this cycle.
//! - `seq_busy` (out): the sequencer has commands to emit.
//! - `seq_tag` (out, TB): the slot they belong to.

use membar_unit_model::ports::kind;
use rust_hdl::prelude::*;

/// INVAL `dn_op` encodings (SPEC.md): 0 = D (`CCTL.D.IVALL`), 1 = T (`CCTLT.IVALL`).
const INVAL_D: u64 = 0;
const INVAL_T: u64 = 1;

/// Output register and INVAL/BARRIER sequencer (WB = log2 W, TB = log2 K).
#[derive(LogicBlock)]
pub struct CmdStream<const WB: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub dn_ready: Signal<In, Bit>,
    pub accept_txn: Signal<In, Bit>,
    pub req_warp: Signal<In, Bits<WB>>,
    pub req_op: Signal<In, Bits<3>>,
    pub req_id: Signal<In, Bits<16>>,
    pub open_tag: Signal<In, Bits<TB>>,
    pub close: Signal<In, Bit>,
    pub open_ivall: Signal<In, Bits<2>>,
    pub seq_level: Signal<In, Bits<2>>,
    pub seq_ack_req: Signal<In, Bit>,
    pub dn_valid: Signal<Out, Bit>,
    pub dn_kind: Signal<Out, Bits<2>>,
    pub dn_tag: Signal<Out, Bits<TB>>,
    pub dn_warp: Signal<Out, Bits<WB>>,
    pub dn_op: Signal<Out, Bits<3>>,
    pub dn_level: Signal<Out, Bits<2>>,
    pub dn_ack_req: Signal<Out, Bit>,
    pub dn_id: Signal<Out, Bits<16>>,
    pub out_free: Signal<Out, Bit>,
    pub out_txn: Signal<Out, Bit>,
    pub bar_fire: Signal<Out, Bit>,
    pub seq_busy: Signal<Out, Bit>,
    pub seq_tag: Signal<Out, Bits<TB>>,
    /// The output register (model `out`).
    out_valid: DFF<Bit>,
    out_kind: DFF<Bits<2>>,
    out_tag: DFF<Bits<TB>>,
    out_warp: DFF<Bits<WB>>,
    out_op: DFF<Bits<3>>,
    out_level: DFF<Bits<2>>,
    out_ack_req: DFF<Bit>,
    out_id: DFF<Bits<16>>,
    /// The output register holds a TXN (`out_valid` and kind TXN, kept as
    /// its own flop so that the ack check reads one flop, not a decode).
    out_is_txn: DFF<Bit>,
    /// Commands still to emit (model `seq_pend`) for slot `seq_slot` (model `seq_tag`).
    seq_inval_d: DFF<Bit>,
    seq_inval_t: DFF<Bit>,
    seq_barrier: DFF<Bit>,
    seq_slot: DFF<Bits<TB>>,
    kind_txn: Constant<Bits<2>>,
    kind_inval: Constant<Bits<2>>,
    kind_barrier: Constant<Bits<2>>,
    inval_d: Constant<Bits<3>>,
    inval_t: Constant<Bits<3>>,
}

impl<const WB: usize, const TB: usize> Default for CmdStream<WB, TB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            dn_ready: Default::default(),
            accept_txn: Default::default(),
            req_warp: Default::default(),
            req_op: Default::default(),
            req_id: Default::default(),
            open_tag: Default::default(),
            close: Default::default(),
            open_ivall: Default::default(),
            seq_level: Default::default(),
            seq_ack_req: Default::default(),
            dn_valid: Default::default(),
            dn_kind: Default::default(),
            dn_tag: Default::default(),
            dn_warp: Default::default(),
            dn_op: Default::default(),
            dn_level: Default::default(),
            dn_ack_req: Default::default(),
            dn_id: Default::default(),
            out_free: Default::default(),
            out_txn: Default::default(),
            bar_fire: Default::default(),
            seq_busy: Default::default(),
            seq_tag: Default::default(),
            out_valid: Default::default(),
            out_kind: Default::default(),
            out_tag: Default::default(),
            out_warp: Default::default(),
            out_op: Default::default(),
            out_level: Default::default(),
            out_ack_req: Default::default(),
            out_id: Default::default(),
            out_is_txn: Default::default(),
            seq_inval_d: Default::default(),
            seq_inval_t: Default::default(),
            seq_barrier: Default::default(),
            seq_slot: Default::default(),
            kind_txn: Constant::new(u64::from(kind::TXN).into()),
            kind_inval: Constant::new(u64::from(kind::INVAL).into()),
            kind_barrier: Constant::new(u64::from(kind::BARRIER).into()),
            inval_d: Constant::new(INVAL_D.into()),
            inval_t: Constant::new(INVAL_T.into()),
        }
    }
}

impl<const WB: usize, const TB: usize> Logic for CmdStream<WB, TB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            out_valid,
            out_kind,
            out_tag,
            out_warp,
            out_op,
            out_level,
            out_ack_req,
            out_id,
            out_is_txn,
            seq_inval_d,
            seq_inval_t,
            seq_barrier,
            seq_slot
        );
        self.dn_valid.next = self.out_valid.q.val();
        self.dn_kind.next = self.out_kind.q.val();
        self.dn_tag.next = self.out_tag.q.val();
        self.dn_warp.next = self.out_warp.q.val();
        self.dn_op.next = self.out_op.q.val();
        self.dn_level.next = self.out_level.q.val();
        self.dn_ack_req.next = self.out_ack_req.q.val();
        self.dn_id.next = self.out_id.q.val();
        self.seq_tag.next = self.seq_slot.q.val();

        self.out_free.next = !self.out_valid.q.val() | self.dn_ready.val();
        self.seq_busy.next =
            self.seq_inval_d.q.val() | self.seq_inval_t.q.val() | self.seq_barrier.q.val();
        self.out_txn.next = self.out_is_txn.q.val();
        self.bar_fire.next = self.out_valid.q.val()
            & self.dn_ready.val()
            & (self.out_kind.q.val() == self.kind_barrier.val());

        // Output register: sequencer first, then an accepted transaction.
        if self.out_free.val() {
            self.out_is_txn.d.next = false;
            if self.seq_busy.val() {
                self.out_valid.d.next = true;
                self.out_tag.d.next = self.seq_slot.q.val();
                self.out_warp.d.next = 0.into();
                self.out_id.d.next = 0.into();
                if self.seq_inval_d.q.val() {
                    self.out_kind.d.next = self.kind_inval.val();
                    self.out_op.d.next = self.inval_d.val();
                    self.out_level.d.next = 0.into();
                    self.out_ack_req.d.next = false;
                } else if self.seq_inval_t.q.val() {
                    self.out_kind.d.next = self.kind_inval.val();
                    self.out_op.d.next = self.inval_t.val();
                    self.out_level.d.next = 0.into();
                    self.out_ack_req.d.next = false;
                } else {
                    self.out_kind.d.next = self.kind_barrier.val();
                    self.out_op.d.next = 0.into();
                    self.out_level.d.next = self.seq_level.val();
                    self.out_ack_req.d.next = self.seq_ack_req.val();
                }
            } else if self.accept_txn.val() {
                self.out_valid.d.next = true;
                self.out_is_txn.d.next = true;
                self.out_kind.d.next = self.kind_txn.val();
                self.out_tag.d.next = self.open_tag.val();
                self.out_warp.d.next = self.req_warp.val();
                self.out_op.d.next = self.req_op.val();
                self.out_level.d.next = 0.into();
                self.out_ack_req.d.next = false;
                self.out_id.d.next = self.req_id.val();
            } else {
                self.out_valid.d.next = false;
                self.out_kind.d.next = 0.into();
                self.out_tag.d.next = 0.into();
                self.out_warp.d.next = 0.into();
                self.out_op.d.next = 0.into();
                self.out_level.d.next = 0.into();
                self.out_ack_req.d.next = false;
                self.out_id.d.next = 0.into();
            }
        }

        // The sequencer emits INVAL D, INVAL T, BARRIER in that order, one
        // per cycle the output register loads. A closing slot loads it; it
        // closes only while the sequencer is idle (the coalescer's
        // `can_close`), so a load never meets a command being emitted and
        // each flag is `close ? load : (flag & not emitted now)`, one
        // multiplexer after `close`.
        self.seq_inval_d.d.next = self.seq_inval_d.q.val() & !self.out_free.val();
        self.seq_inval_t.d.next =
            self.seq_inval_t.q.val() & !(self.out_free.val() & !self.seq_inval_d.q.val());
        self.seq_barrier.d.next = self.seq_barrier.q.val()
            & !(self.out_free.val() & !self.seq_inval_d.q.val() & !self.seq_inval_t.q.val());
        if self.close.val() {
            self.seq_inval_d.d.next = self.open_ivall.val().get_bit(0);
            self.seq_inval_t.d.next = self.open_ivall.val().get_bit(1);
            self.seq_barrier.d.next = true;
            self.seq_slot.d.next = self.open_tag.val();
        }
        if self.reset.val() {
            self.out_valid.d.next = false;
            self.out_kind.d.next = 0.into();
            self.out_tag.d.next = 0.into();
            self.out_warp.d.next = 0.into();
            self.out_op.d.next = 0.into();
            self.out_level.d.next = 0.into();
            self.out_ack_req.d.next = false;
            self.out_id.d.next = 0.into();
            self.out_is_txn.d.next = false;
            self.seq_inval_d.d.next = false;
            self.seq_inval_t.d.next = false;
            self.seq_barrier.d.next = false;
            self.seq_slot.d.next = 0.into();
        }
    }
}

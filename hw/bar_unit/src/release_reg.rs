//! Release register: holds the barrier completed at the last edge and drives
//! the `rel_*` ports for one cycle.
//!
//! Implements the golden kernel's `State::rel` (`Release`), loaded by
//! `complete()` and cleared every other cycle (`next.rel =
//! Release::default()`), in `sim/bar_unit/src/bar_unit.rs`. Since at most one
//! barrier completes per cycle it never backs up (B7: release 1 cycle after
//! the last arrival).
//!
//! Timing: the completion decision `done` comes last in the cycle (after the
//! barrier's RAM words and the count compare), so only `valid_q` depends on
//! it; the fields load their candidate values every cycle and the outputs
//! read 0 while `valid_q` is low, which is the model's cleared register at
//! the ports.
//!
//! Ports (W warps, SB slot bits, RB reduction width):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `done` (in): a barrier completes at this edge; `done_slot` (SB),
//!   `done_id` (4), `done_mask` (W), `done_kind` (3), `done_result` (RB): its
//!   slot, id, waiters, kind and reduction result (needed only with `done`).
//! - `rel_valid`, `rel_slot`, `rel_id`, `rel_mask`, `rel_op`, `rel_result`
//!   (out): the register, i.e. the contract's `rel_*` ports (before reset gating).

use rust_hdl::prelude::*;

/// The release register of `bar_unit`.
#[derive(LogicBlock, Default)]
pub struct ReleaseReg<const W: usize, const SB: usize, const RB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub done: Signal<In, Bit>,
    pub done_slot: Signal<In, Bits<SB>>,
    pub done_id: Signal<In, Bits<4>>,
    pub done_mask: Signal<In, Bits<W>>,
    pub done_kind: Signal<In, Bits<3>>,
    pub done_result: Signal<In, Bits<RB>>,
    pub rel_valid: Signal<Out, Bit>,
    pub rel_slot: Signal<Out, Bits<SB>>,
    pub rel_id: Signal<Out, Bits<4>>,
    pub rel_mask: Signal<Out, Bits<W>>,
    pub rel_op: Signal<Out, Bits<3>>,
    pub rel_result: Signal<Out, Bits<RB>>,
    valid_q: DFF<Bit>,
    slot_q: DFF<Bits<SB>>,
    id_q: DFF<Bits<4>>,
    mask_q: DFF<Bits<W>>,
    op_q: DFF<Bits<3>>,
    result_q: DFF<Bits<RB>>,
}

impl<const W: usize, const SB: usize, const RB: usize> Logic for ReleaseReg<W, SB, RB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid_q, slot_q, id_q, mask_q, op_q, result_q);
        // The fields read 0 while the register is empty.
        self.rel_valid.next = self.valid_q.q.val();
        self.rel_slot.next = 0.into();
        self.rel_id.next = 0.into();
        self.rel_mask.next = 0.into();
        self.rel_op.next = 0.into();
        self.rel_result.next = 0.into();
        if self.valid_q.q.val() {
            self.rel_slot.next = self.slot_q.q.val();
            self.rel_id.next = self.id_q.q.val();
            self.rel_mask.next = self.mask_q.q.val();
            self.rel_op.next = self.op_q.q.val();
            self.rel_result.next = self.result_q.q.val();
        }
        // Only `valid_q` waits for the completion decision (the unit's
        // latest signal); the fields load every cycle.
        self.valid_q.d.next = self.done.val() & !self.reset.val();
        self.slot_q.d.next = self.done_slot.val();
        self.id_q.d.next = self.done_id.val();
        self.mask_q.d.next = self.done_mask.val();
        self.op_q.d.next = self.done_kind.val();
        self.result_q.d.next = self.done_result.val();
    }
}

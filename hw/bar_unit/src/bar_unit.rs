//! `bar_unit`: the SM's named-barrier unit (`spec/bar_unit.md`), top level.
//!
//! The RTL twin of the golden model `bar_unit_model::bar_unit` (its `State` is
//! the union of the blocks' flops, its `eval` the union of their kernels).
//! This block holds no state: it checks the cycle's event (the request checks
//! of `request_error` and the ctl checks of `eval`, giving `req_ready`, `err`,
//! `err_code`), routes a legal event to the warp table and the one CTA bank
//! it concerns, picks the completing bank's `done_*` for the release
//! register, and forces every output low while `reset` is high (the model
//! returns `BarOutputs::default()` in a reset cycle).
//!
//! Blocks:
//! - [`WarpTable`] (`warp_table.rs`): per-warp live / slot / blocked / waiting / barrier id; release mask.
//! - [`CtaBarriers`] (`cta_barriers.rs`), one per CTA slot: the slot's 16
//!   barriers, its busy / size / live count; arrival, exit and completion.
//! - [`ReleaseReg`] (`release_reg.rs`): the `rel_*` register.
//! - [`Popcount`] (`popcount.rs`): predicate popcount, launched CTA size.
//!
//! Const generics (derived from a `BarConfig` by `dispatch.rs`): W warps,
//! WB = log2 W, C CTA slots, SB slot bits, CB = WB + 1, RB = WB + 6. Ports are
//! the contract's, same names and widths.

use bar_unit_model::ports::{errc, op};
use rust_hdl::prelude::*;

use crate::cta_barriers::CtaBarriers;
use crate::popcount::Popcount;
use crate::release_reg::ReleaseReg;
use crate::warp_table::WarpTable;

/// The named-barrier unit.
#[derive(LogicBlock)]
pub struct BarUnit<
    const W: usize,
    const WB: usize,
    const C: usize,
    const SB: usize,
    const CB: usize,
    const RB: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_warp: Signal<In, Bits<WB>>,
    pub req_op: Signal<In, Bits<3>>,
    pub req_id: Signal<In, Bits<4>>,
    pub req_all: Signal<In, Bit>,
    pub req_count: Signal<In, Bits<CB>>,
    pub req_pred: Signal<In, Bits<32>>,
    pub ctl_valid: Signal<In, Bit>,
    pub ctl_op: Signal<In, Bit>,
    pub ctl_slot: Signal<In, Bits<SB>>,
    pub ctl_warps: Signal<In, Bits<W>>,
    pub ctl_warp: Signal<In, Bits<WB>>,
    pub rel_valid: Signal<Out, Bit>,
    pub rel_slot: Signal<Out, Bits<SB>>,
    pub rel_id: Signal<Out, Bits<4>>,
    pub rel_mask: Signal<Out, Bits<W>>,
    pub rel_op: Signal<Out, Bits<3>>,
    pub rel_result: Signal<Out, Bits<RB>>,
    pub blocked: Signal<Out, Bits<W>>,
    pub err: Signal<Out, Bit>,
    pub err_code: Signal<Out, Bits<4>>,
    warps: WarpTable<W, WB, SB>,
    ctas: [CtaBarriers<CB, RB>; C],
    rel: ReleaseReg<W, SB, RB>,
    pred_pop: Popcount<32, RB>,
    size_pop: Popcount<W, CB>,
    /// The requesting warp's CTA bank, read at barrier `req_id`.
    sel_size: Signal<Local, Bits<CB>>,
    sel_active: Signal<Local, Bit>,
    sel_all: Signal<Local, Bit>,
    sel_expected: Signal<Local, Bits<CB>>,
    sel_kind: Signal<Local, Bits<3>>,
    /// LAUNCH checks: `ctl_slot` < C, and its bank's busy flag.
    launch_in_range: Signal<Local, Bit>,
    launch_busy: Signal<Local, Bit>,
    /// The request's phase kind (0 plain, else the reduction op) and whether it blocks.
    arr_kind: Signal<Local, Bits<3>>,
    arr_blocks: Signal<Local, Bit>,
    code: Signal<Local, Bits<4>>,
    arr_ok: Signal<Local, Bit>,
    launch_ok: Signal<Local, Bit>,
    exit_ok: Signal<Local, Bit>,
    /// The completing bank (at most one per cycle).
    done: Signal<Local, Bit>,
    done_slot: Signal<Local, Bits<SB>>,
    done_id: Signal<Local, Bits<4>>,
    done_kind: Signal<Local, Bits<3>>,
    done_result: Signal<Local, Bits<RB>>,
    slot_const: [Constant<Bits<SB>>; C],
    op_arrive: Constant<Bits<3>>,
    c_bad_op: Constant<Bits<4>>,
    c_no_cta: Constant<Bits<4>>,
    c_arrive_no_count: Constant<Bits<4>>,
    c_zero_count: Constant<Bits<4>>,
    c_count_too_big: Constant<Bits<4>>,
    c_count_mismatch: Constant<Bits<4>>,
    c_kind_mix: Constant<Bits<4>>,
    c_slot_range: Constant<Bits<4>>,
    c_slot_busy: Constant<Bits<4>>,
    c_bad_warps: Constant<Bits<4>>,
    c_exit_not_live: Constant<Bits<4>>,
    c_exit_blocked: Constant<Bits<4>>,
}

fn code(c: u8) -> Constant<Bits<4>> {
    Constant::new((c as u64).into())
}

impl<
        const W: usize,
        const WB: usize,
        const C: usize,
        const SB: usize,
        const CB: usize,
        const RB: usize,
    > Default for BarUnit<W, WB, C, SB, CB, RB>
{
    fn default() -> Self {
        debug_assert_eq!((1 << WB, CB, RB), (W, WB + 1, WB + 6));
        debug_assert!(C <= 1 << SB);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_warp: Default::default(),
            req_op: Default::default(),
            req_id: Default::default(),
            req_all: Default::default(),
            req_count: Default::default(),
            req_pred: Default::default(),
            ctl_valid: Default::default(),
            ctl_op: Default::default(),
            ctl_slot: Default::default(),
            ctl_warps: Default::default(),
            ctl_warp: Default::default(),
            rel_valid: Default::default(),
            rel_slot: Default::default(),
            rel_id: Default::default(),
            rel_mask: Default::default(),
            rel_op: Default::default(),
            rel_result: Default::default(),
            blocked: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            warps: Default::default(),
            ctas: std::array::from_fn(|_| Default::default()),
            rel: Default::default(),
            pred_pop: Default::default(),
            size_pop: Default::default(),
            sel_size: Default::default(),
            sel_active: Default::default(),
            sel_all: Default::default(),
            sel_expected: Default::default(),
            sel_kind: Default::default(),
            launch_in_range: Default::default(),
            launch_busy: Default::default(),
            arr_kind: Default::default(),
            arr_blocks: Default::default(),
            code: Default::default(),
            arr_ok: Default::default(),
            launch_ok: Default::default(),
            exit_ok: Default::default(),
            done: Default::default(),
            done_slot: Default::default(),
            done_id: Default::default(),
            done_kind: Default::default(),
            done_result: Default::default(),
            slot_const: std::array::from_fn(|c| Constant::new((c as u64).into())),
            op_arrive: Constant::new((op::ARRIVE as u64).into()),
            c_bad_op: code(errc::BAD_OP),
            c_no_cta: code(errc::NO_CTA),
            c_arrive_no_count: code(errc::ARRIVE_NO_COUNT),
            c_zero_count: code(errc::ZERO_COUNT),
            c_count_too_big: code(errc::COUNT_TOO_BIG),
            c_count_mismatch: code(errc::COUNT_MISMATCH),
            c_kind_mix: code(errc::KIND_MIX),
            c_slot_range: code(errc::SLOT_RANGE),
            c_slot_busy: code(errc::SLOT_BUSY),
            c_bad_warps: code(errc::BAD_WARPS),
            c_exit_not_live: code(errc::EXIT_NOT_LIVE),
            c_exit_blocked: code(errc::EXIT_BLOCKED),
        }
    }
}

impl<
        const W: usize,
        const WB: usize,
        const C: usize,
        const SB: usize,
        const CB: usize,
        const RB: usize,
    > Logic for BarUnit<W, WB, C, SB, CB, RB>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, warps, rel);
        self.warps.reset.next = self.reset.val();
        self.rel.reset.next = self.reset.val();
        self.pred_pop.bits.next = self.req_pred.val();
        self.size_pop.bits.next = self.ctl_warps.val();
        self.warps.req_warp.next = self.req_warp.val();
        self.warps.req_id.next = self.req_id.val();
        self.warps.ctl_warp.next = self.ctl_warp.val();

        // The requesting warp's bank and barrier; the LAUNCH slot's bank.
        self.sel_size.next = 0.into();
        self.sel_active.next = false;
        self.sel_all.next = false;
        self.sel_expected.next = 0.into();
        self.sel_kind.next = 0.into();
        self.launch_in_range.next = false;
        self.launch_busy.next = false;
        for c in 0..C {
            self.ctas[c].clock.next = self.clock.val();
            self.ctas[c].reset.next = self.reset.val();
            self.ctas[c].req_id.next = self.req_id.val();
            if self.warps.req_slot.val() == self.slot_const[c].val() {
                self.sel_size.next = self.ctas[c].size.val();
                self.sel_active.next = self.ctas[c].rd_active.val();
                self.sel_all.next = self.ctas[c].rd_all.val();
                self.sel_expected.next = self.ctas[c].rd_expected.val();
                self.sel_kind.next = self.ctas[c].rd_kind.val();
            }
            if self.ctl_slot.val() == self.slot_const[c].val() {
                self.launch_in_range.next = true;
                self.launch_busy.next = self.ctas[c].busy.val();
            }
        }

        // Kind of the request (valid for ops 0..4): 2, 3, 4 reduce.
        self.arr_kind.next = 0.into();
        if self.req_op.val().get_bit(1) | self.req_op.val().get_bit(2) {
            self.arr_kind.next = self.req_op.val();
        }
        self.arr_blocks.next = self.req_op.val() != self.op_arrive.val();

        // The cycle's event: a ctl event wins; else a request of an
        // unblocked warp is taken, legal or not.
        self.code.next = 0.into();
        self.arr_ok.next = false;
        self.launch_ok.next = false;
        self.exit_ok.next = false;
        self.req_ready.next = false;
        if self.ctl_valid.val() {
            if !self.ctl_op.val() {
                if !self.launch_in_range.val() {
                    self.code.next = self.c_slot_range.val();
                } else if self.launch_busy.val() {
                    self.code.next = self.c_slot_busy.val();
                } else if !self.ctl_warps.val().any()
                    | (self.ctl_warps.val() & self.warps.live.val()).any()
                {
                    self.code.next = self.c_bad_warps.val();
                } else {
                    self.launch_ok.next = true;
                }
            } else if !self.warps.ctl_live.val() {
                self.code.next = self.c_exit_not_live.val();
            } else if self.warps.ctl_blocked.val() {
                self.code.next = self.c_exit_blocked.val();
            } else {
                self.exit_ok.next = true;
            }
        } else if self.req_valid.val() & !self.warps.req_blocked.val() {
            self.req_ready.next = true;
            if self.req_op.val().get_bit(2)
                & (self.req_op.val().get_bit(1) | self.req_op.val().get_bit(0))
            {
                self.code.next = self.c_bad_op.val();
            } else if !self.warps.req_live.val() {
                self.code.next = self.c_no_cta.val();
            } else if (self.req_op.val() == self.op_arrive.val()) & self.req_all.val() {
                self.code.next = self.c_arrive_no_count.val();
            } else if !self.req_all.val() & !self.req_count.val().any() {
                self.code.next = self.c_zero_count.val();
            } else if !self.req_all.val() & (self.req_count.val() > self.sel_size.val()) {
                self.code.next = self.c_count_too_big.val();
            } else if self.sel_active.val()
                & ((self.sel_all.val() != self.req_all.val())
                    | (!self.req_all.val() & (self.sel_expected.val() != self.req_count.val())))
            {
                self.code.next = self.c_count_mismatch.val();
            } else if self.sel_active.val() & (self.sel_kind.val() != self.arr_kind.val()) {
                self.code.next = self.c_kind_mix.val();
            } else {
                self.arr_ok.next = true;
            }
        }

        // Route the legal event.
        self.warps.arr_en.next = self.arr_ok.val();
        self.warps.arr_blocks.next = self.arr_blocks.val();
        self.warps.launch_en.next = self.launch_ok.val();
        self.warps.launch_slot.next = self.ctl_slot.val();
        self.warps.launch_warps.next = self.ctl_warps.val();
        self.warps.exit_en.next = self.exit_ok.val();
        self.done.next = false;
        self.done_slot.next = 0.into();
        self.done_id.next = 0.into();
        self.done_kind.next = 0.into();
        self.done_result.next = 0.into();
        for c in 0..C {
            self.ctas[c].arr_en.next =
                self.arr_ok.val() & (self.warps.req_slot.val() == self.slot_const[c].val());
            self.ctas[c].arr_all.next = self.req_all.val();
            self.ctas[c].arr_count.next = self.req_count.val();
            self.ctas[c].arr_kind.next = self.arr_kind.val();
            self.ctas[c].arr_popc.next = self.pred_pop.count.val();
            self.ctas[c].arr_and.next = self.req_pred.val().all();
            self.ctas[c].arr_or.next = self.req_pred.val().any();
            self.ctas[c].launch_en.next =
                self.launch_ok.val() & (self.ctl_slot.val() == self.slot_const[c].val());
            self.ctas[c].launch_size.next = self.size_pop.count.val();
            self.ctas[c].exit_en.next =
                self.exit_ok.val() & (self.warps.ctl_slot.val() == self.slot_const[c].val());
            if self.ctas[c].done.val() {
                self.done.next = true;
                self.done_slot.next = self.slot_const[c].val();
                self.done_id.next = self.ctas[c].done_id.val();
                self.done_kind.next = self.ctas[c].done_kind.val();
                self.done_result.next = self.ctas[c].done_result.val();
            }
        }
        self.warps.done.next = self.done.val();
        self.warps.done_slot.next = self.done_slot.val();
        self.warps.done_id.next = self.done_id.val();
        self.warps.rel_valid.next = self.rel.rel_valid.val();
        self.warps.rel_mask.next = self.rel.rel_mask.val();
        self.rel.done.next = self.done.val();
        self.rel.done_slot.next = self.done_slot.val();
        self.rel.done_id.next = self.done_id.val();
        self.rel.done_mask.next = self.warps.done_mask.val();
        self.rel.done_kind.next = self.done_kind.val();
        self.rel.done_result.next = self.done_result.val();

        // Outputs, all low in a reset cycle.
        self.err.next = self.code.val().any();
        self.err_code.next = self.code.val();
        self.rel_valid.next = self.rel.rel_valid.val();
        self.rel_slot.next = self.rel.rel_slot.val();
        self.rel_id.next = self.rel.rel_id.val();
        self.rel_mask.next = self.rel.rel_mask.val();
        self.rel_op.next = self.rel.rel_op.val();
        self.rel_result.next = self.rel.rel_result.val();
        self.blocked.next = self.warps.blocked.val();
        if self.reset.val() {
            self.req_ready.next = false;
            self.err.next = false;
            self.err_code.next = 0.into();
            self.rel_valid.next = false;
            self.rel_slot.next = 0.into();
            self.rel_id.next = 0.into();
            self.rel_mask.next = 0.into();
            self.rel_op.next = 0.into();
            self.rel_result.next = 0.into();
            self.blocked.next = 0.into();
        }
    }
}

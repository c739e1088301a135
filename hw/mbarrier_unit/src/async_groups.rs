//! `async_groups`: the per-warp bulk async-group tracker
//! (`spec/async_groups.md`), top level — the RTL twin of the golden kernel
//! `mbarrier_unit_model::async_groups::eval` (its `State` is the union of
//! the blocks' flops).
//!
//! W instances of [`AgWarp`] (`ag_warp.rs`), one per warp, each with its
//! ring of committed groups, open group and wait register; this block
//! decodes the three warp-indexed inputs (`ag_warp`, `rd_warp`, `wr_warp`)
//! into per-warp hits, selects the issuing warp's readiness, collects
//! `blocked` / `release_mask`, and ORs the warps' registered verdicts on
//! last cycle's reports into the error cause (each warp registers its own,
//! next to its state: the cause is an OR of W flops, not a gather of W
//! late decisions across the device). Every output is 0 while
//! `reset` is high.
//!
//! Ports (the contract's; W warps, WB = log2 W, NB = bits of 0..=G):
//! - `clock`, `reset` (synchronous, active high).
//! - `ag_valid`, `ag_warp` (WB), `ag_op` (2), `ag_n` (NB) (in): an operation
//!   from warp issue (0 bulk, 1 commit_group, 2 wait_group N, 3 wait_group.read N).
//! - `ag_ready` (out): the operation is accepted this cycle.
//! - `rd_valid`, `rd_warp` (in): the oldest unread operation of `rd_warp` has been read.
//! - `wr_valid`, `wr_warp` (in): the oldest incomplete operation of `wr_warp` is complete.
//! - `blocked` (out, W): warps waiting in a wait_group.
//! - `release_mask` (out, W): warps whose wait returns this cycle.
//! - `err` (out), `err_cause` (out, 2): last cycle's spurious reports
//!   (bit 0 read report, bit 1 completion report).
//!
//! Const generics (`ag_dispatch.rs` derives them from a `Config`): W, WB,
//! G = group_depth (2..=16), HB = log2 G, NB, OB = group_op_bits.

use rust_hdl::prelude::*;

use crate::ag_warp::AgWarp;

/// The async-group tracker.
#[derive(LogicBlock)]
pub struct AsyncGroups<
    const W: usize,
    const WB: usize,
    const G: usize,
    const HB: usize,
    const NB: usize,
    const OB: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub ag_valid: Signal<In, Bit>,
    pub ag_ready: Signal<Out, Bit>,
    pub ag_warp: Signal<In, Bits<WB>>,
    pub ag_op: Signal<In, Bits<2>>,
    pub ag_n: Signal<In, Bits<NB>>,
    pub rd_valid: Signal<In, Bit>,
    pub rd_warp: Signal<In, Bits<WB>>,
    pub wr_valid: Signal<In, Bit>,
    pub wr_warp: Signal<In, Bits<WB>>,
    pub blocked: Signal<Out, Bits<W>>,
    pub release_mask: Signal<Out, Bits<W>>,
    pub err: Signal<Out, Bit>,
    pub err_cause: Signal<Out, Bits<2>>,
    warps: Vec<AgWarp<G, HB, NB, OB>>,
    cause_n: Signal<Local, Bits<2>>,
    /// The issuing warp's `can_bulk` / `can_commit` / `can_wait`.
    bulk_sel: Signal<Local, Bit>,
    commit_sel: Signal<Local, Bit>,
    wait_sel: Signal<Local, Bit>,
    blk_n: Signal<Local, Bits<W>>,
    rel_n: Signal<Local, Bits<W>>,
    warp_idx: [Constant<Bits<WB>>; W],
    op_bulk: Constant<Bits<2>>,
    op_commit: Constant<Bits<2>>,
}

impl<
        const W: usize,
        const WB: usize,
        const G: usize,
        const HB: usize,
        const NB: usize,
        const OB: usize,
    > Default for AsyncGroups<W, WB, G, HB, NB, OB>
{
    fn default() -> Self {
        assert!(1 << WB == W);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            ag_valid: Default::default(),
            ag_ready: Default::default(),
            ag_warp: Default::default(),
            ag_op: Default::default(),
            ag_n: Default::default(),
            rd_valid: Default::default(),
            rd_warp: Default::default(),
            wr_valid: Default::default(),
            wr_warp: Default::default(),
            blocked: Default::default(),
            release_mask: Default::default(),
            err: Default::default(),
            err_cause: Default::default(),
            // A Vec: W warps of G-slot rings do not fit on a thread's stack.
            warps: (0..W).map(|_| Default::default()).collect(),
            cause_n: Default::default(),
            bulk_sel: Default::default(),
            commit_sel: Default::default(),
            wait_sel: Default::default(),
            blk_n: Default::default(),
            rel_n: Default::default(),
            warp_idx: std::array::from_fn(|w| Constant::new((w as u64).into())),
            op_bulk: Constant::new(0u64.into()),
            op_commit: Constant::new(1u64.into()),
        }
    }
}

impl<
        const W: usize,
        const WB: usize,
        const G: usize,
        const HB: usize,
        const NB: usize,
        const OB: usize,
    > Logic for AsyncGroups<W, WB, G, HB, NB, OB>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.bulk_sel.next = false;
        self.commit_sel.next = false;
        self.wait_sel.next = false;
        self.cause_n.next = 0.into();
        self.blk_n.next = 0.into();
        self.rel_n.next = 0.into();
        for w in 0..W {
            self.warps[w].clock.next = self.clock.val();
            self.warps[w].reset.next = self.reset.val();
            self.warps[w].rd_hit.next =
                self.rd_valid.val() & (self.rd_warp.val() == self.warp_idx[w].val());
            self.warps[w].wr_hit.next =
                self.wr_valid.val() & (self.wr_warp.val() == self.warp_idx[w].val());
            self.warps[w].op_hit.next =
                self.ag_valid.val() & (self.ag_warp.val() == self.warp_idx[w].val());
            self.warps[w].ag_op.next = self.ag_op.val();
            self.warps[w].ag_n.next = self.ag_n.val();
            // One-hot selects as AND-OR (the decodes are exclusive), not
            // a priority chain of 32 muxes.
            self.bulk_sel.next = self.bulk_sel.val()
                | ((self.ag_warp.val() == self.warp_idx[w].val()) & self.warps[w].can_bulk.val());
            self.commit_sel.next = self.commit_sel.val()
                | ((self.ag_warp.val() == self.warp_idx[w].val()) & self.warps[w].can_commit.val());
            self.wait_sel.next = self.wait_sel.val()
                | ((self.ag_warp.val() == self.warp_idx[w].val()) & self.warps[w].can_wait.val());
            if self.warps[w].rd_err.val() {
                self.cause_n.next = self.cause_n.val().replace_bit(0, true);
            }
            if self.warps[w].wr_err.val() {
                self.cause_n.next = self.cause_n.val().replace_bit(1, true);
            }
            self.blk_n.next = self.blk_n.val().replace_bit(w, self.warps[w].blocked.val());
            self.rel_n.next = self.rel_n.val().replace_bit(w, self.warps[w].rel_go.val());
        }

        // The issuing warp's readiness for its operation (selected last:
        // `ag_op` is not in the per-warp gathers).
        if self.ag_op.val() == self.op_bulk.val() {
            self.ag_ready.next = self.ag_valid.val() & self.bulk_sel.val();
        } else if self.ag_op.val() == self.op_commit.val() {
            self.ag_ready.next = self.ag_valid.val() & self.commit_sel.val();
        } else {
            self.ag_ready.next = self.ag_valid.val() & self.wait_sel.val();
        }
        self.blocked.next = self.blk_n.val();
        self.release_mask.next = self.rel_n.val();
        self.err_cause.next = self.cause_n.val();
        self.err.next = self.cause_n.val().any();
        if self.reset.val() {
            self.ag_ready.next = false;
            self.blocked.next = 0.into();
            self.release_mask.next = 0.into();
            self.err_cause.next = 0.into();
            self.err.next = false;
        }
    }
}

//! `mbarrier_unit`: the SM's transaction-barrier unit
//! (`spec/mbarrier_unit.md`), top level.
//!
//! The RTL twin of the golden kernel `mbarrier_unit_model::mbarrier_unit::eval`
//! (its `State` is the union of the blocks' flops). This block holds no
//! state: it wires the blocks to each other and to the contract's ports, and
//! forces every output low while `reset` is high (the model's reset: outputs
//! idle, `op_ready` low).
//!
//! Blocks (one per file):
//! - [`EntryFile`] (`entry_file.rs`): the M entries, three chained read
//!   ports with forwarding, write-back (kernel: `State::entries`, step order).
//! - [`EntryStep`] × 3 (`entry_step.rs`): `ctx_step` (step 1, complete-tx),
//!   `rarv_step` (step 2, remote arrive), `op_step` (step 3, the op's entry
//!   update): checks, counter arithmetic, `complete_if_due`.
//! - [`OpPort`] (`op_port.rs`): op decode and checks, response and `err`
//!   registers (kernel: step 3 and the reported error).
//! - [`Waiters`] (`waiters.rs`): try_wait suspension, decisions, wake and
//!   `suspended` registers (kernel: `State::waiters`, "Decisions").
//! - [`WakeArbiter`] (`wake_arbiter.rs`): F round-robin wake grants
//!   (kernel: "Wake arbiter", `State::rr`).
//!
//! Const generics (`dispatch.rs` derives them from a `Config`): W warps,
//! WB = log2 W, M entries, EB = log2 M, CB = count_bits + 1,
//! TB = tx_bits + 1, XB = TB + 2 (tx arithmetic), TMB = timer bits, F = wake
//! fan-out. The try-wait limit L is a constant set at construction.

use rust_hdl::prelude::*;

use crate::entry_file::EntryFile;
use crate::entry_step::EntryStep;
use crate::op_port::OpPort;
use crate::waiters::Waiters;
use crate::wake_arbiter::WakeArbiter;

/// The transaction-barrier unit.
#[derive(LogicBlock)]
pub struct MbarrierUnit<
    const W: usize,
    const WB: usize,
    const M: usize,
    const EB: usize,
    const CB: usize,
    const TB: usize,
    const XB: usize,
    const TMB: usize,
    const F: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub op_valid: Signal<In, Bit>,
    pub op_ready: Signal<Out, Bit>,
    pub op_warp: Signal<In, Bits<WB>>,
    pub op_code: Signal<In, Bits<4>>,
    pub op_entry: Signal<In, Bits<EB>>,
    pub op_count: Signal<In, Bits<CB>>,
    pub op_tx: Signal<In, Bits<TB>>,
    pub op_parity: Signal<In, Bit>,
    pub ctx_valid: Signal<In, Bit>,
    pub ctx_entry: Signal<In, Bits<EB>>,
    pub ctx_bytes: Signal<In, Bits<TB>>,
    pub rarv_valid: Signal<In, Bit>,
    pub rarv_entry: Signal<In, Bits<EB>>,
    pub rarv_count: Signal<In, Bits<CB>>,
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_warp: Signal<Out, Bits<WB>>,
    pub rsp_op: Signal<Out, Bits<4>>,
    pub rsp_token: Signal<Out, Bit>,
    pub rsp_done: Signal<Out, Bit>,
    pub rsp_suspended: Signal<Out, Bit>,
    pub wake_mask: Signal<Out, Bits<W>>,
    pub wake_done: Signal<Out, Bits<W>>,
    pub suspended: Signal<Out, Bits<W>>,
    pub err: Signal<Out, Bit>,
    pub err_src: Signal<Out, Bits<2>>,
    pub err_cause: Signal<Out, Bits<4>>,
    entries: EntryFile<M, EB, CB, TB>,
    ctx_step: EntryStep<CB, TB, XB>,
    rarv_step: EntryStep<CB, TB, XB>,
    op_step: EntryStep<CB, TB, XB>,
    op_port: OpPort<WB, CB>,
    waiters: Waiters<W, WB, EB, TMB>,
    wake: WakeArbiter<W, WB, F>,
}

impl<
        const W: usize,
        const WB: usize,
        const M: usize,
        const EB: usize,
        const CB: usize,
        const TB: usize,
        const XB: usize,
        const TMB: usize,
        const F: usize,
    > MbarrierUnit<W, WB, M, EB, CB, TB, XB, TMB, F>
{
    /// The unit with try-wait limit L = `try_wait_limit`.
    pub fn new(try_wait_limit: u32) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            op_valid: Default::default(),
            op_ready: Default::default(),
            op_warp: Default::default(),
            op_code: Default::default(),
            op_entry: Default::default(),
            op_count: Default::default(),
            op_tx: Default::default(),
            op_parity: Default::default(),
            ctx_valid: Default::default(),
            ctx_entry: Default::default(),
            ctx_bytes: Default::default(),
            rarv_valid: Default::default(),
            rarv_entry: Default::default(),
            rarv_count: Default::default(),
            rsp_valid: Default::default(),
            rsp_warp: Default::default(),
            rsp_op: Default::default(),
            rsp_token: Default::default(),
            rsp_done: Default::default(),
            rsp_suspended: Default::default(),
            wake_mask: Default::default(),
            wake_done: Default::default(),
            suspended: Default::default(),
            err: Default::default(),
            err_src: Default::default(),
            err_cause: Default::default(),
            entries: Default::default(),
            ctx_step: Default::default(),
            rarv_step: Default::default(),
            op_step: Default::default(),
            op_port: Default::default(),
            waiters: Waiters::new(try_wait_limit),
            wake: Default::default(),
        }
    }
}

impl<
        const W: usize,
        const WB: usize,
        const M: usize,
        const EB: usize,
        const CB: usize,
        const TB: usize,
        const XB: usize,
        const TMB: usize,
        const F: usize,
    > Logic for MbarrierUnit<W, WB, M, EB, CB, TB, XB, TMB, F>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.entries.clock.next = self.clock.val();
        self.entries.reset.next = self.reset.val();
        self.op_port.clock.next = self.clock.val();
        self.op_port.reset.next = self.reset.val();
        self.waiters.clock.next = self.clock.val();
        self.waiters.reset.next = self.reset.val();
        self.wake.clock.next = self.clock.val();
        self.wake.reset.next = self.reset.val();

        // Entry file read ports.
        self.entries.ctx_entry.next = self.ctx_entry.val();
        self.entries.rarv_entry.next = self.rarv_entry.val();
        self.entries.op_entry.next = self.op_entry.val();

        // Step 1: complete-tx.
        self.ctx_step.act.next = self.ctx_valid.val();
        self.ctx_step.init.next = false;
        self.ctx_step.inval.next = false;
        self.ctx_step.arrive.next = false;
        self.ctx_step.drop.next = false;
        self.ctx_step.tx_up.next = false;
        self.ctx_step.tx_dn.next = true;
        self.ctx_step.count.next = 0.into();
        self.ctx_step.amt.next = self.ctx_bytes.val();
        self.ctx_step.e_valid.next = self.entries.ctx_e_valid.val();
        self.ctx_step.e_parity.next = self.entries.ctx_e_parity.val();
        self.ctx_step.e_pending.next = self.entries.ctx_e_pending.val();
        self.ctx_step.e_expected.next = self.entries.ctx_e_expected.val();
        self.ctx_step.e_tx.next = self.entries.ctx_e_tx.val();
        self.entries.ctx_n_valid.next = self.ctx_step.n_valid.val();
        self.entries.ctx_n_parity.next = self.ctx_step.n_parity.val();
        self.entries.ctx_n_pending.next = self.ctx_step.n_pending.val();
        self.entries.ctx_n_expected.next = self.ctx_step.n_expected.val();
        self.entries.ctx_n_tx.next = self.ctx_step.n_tx.val();

        // Step 2: remote arrive.
        self.rarv_step.act.next = self.rarv_valid.val();
        self.rarv_step.init.next = false;
        self.rarv_step.inval.next = false;
        self.rarv_step.arrive.next = true;
        self.rarv_step.drop.next = false;
        self.rarv_step.tx_up.next = false;
        self.rarv_step.tx_dn.next = false;
        self.rarv_step.count.next = self.rarv_count.val();
        self.rarv_step.amt.next = 0.into();
        self.rarv_step.e_valid.next = self.entries.rarv_e_valid.val();
        self.rarv_step.e_parity.next = self.entries.rarv_e_parity.val();
        self.rarv_step.e_pending.next = self.entries.rarv_e_pending.val();
        self.rarv_step.e_expected.next = self.entries.rarv_e_expected.val();
        self.rarv_step.e_tx.next = self.entries.rarv_e_tx.val();
        self.entries.rarv_n_valid.next = self.rarv_step.n_valid.val();
        self.entries.rarv_n_parity.next = self.rarv_step.n_parity.val();
        self.entries.rarv_n_pending.next = self.rarv_step.n_pending.val();
        self.entries.rarv_n_expected.next = self.rarv_step.n_expected.val();
        self.entries.rarv_n_tx.next = self.rarv_step.n_tx.val();

        // Step 3: the operation.
        self.op_port.op_valid.next = self.op_valid.val();
        self.op_port.op_warp.next = self.op_warp.val();
        self.op_port.op_code.next = self.op_code.val();
        self.op_port.op_count.next = self.op_count.val();
        self.op_port.op_parity.next = self.op_parity.val();
        self.op_port.op_e_valid.next = self.entries.op_e_valid.val();
        self.op_port.op_e_parity.next = self.entries.op_e_parity.val();
        self.op_port.warp_susp.next = self.waiters.warp_susp.val();
        self.op_port.waiters_on.next = self.waiters.waiters_on.val();
        self.op_port.op_cause.next = self.op_step.cause.val();
        self.op_port.ctx_cause.next = self.ctx_step.cause.val();
        self.op_port.rarv_cause.next = self.rarv_step.cause.val();
        self.op_step.act.next = self.op_port.op_act.val();
        self.op_step.init.next = self.op_port.op_init.val();
        self.op_step.inval.next = self.op_port.op_inval.val();
        self.op_step.arrive.next = self.op_port.op_arrive.val();
        self.op_step.drop.next = self.op_port.op_drop.val();
        self.op_step.tx_up.next = self.op_port.op_tx_up.val();
        self.op_step.tx_dn.next = self.op_port.op_tx_dn.val();
        self.op_step.count.next = self.op_count.val();
        self.op_step.amt.next = self.op_tx.val();
        self.op_step.e_valid.next = self.entries.op_e_valid.val();
        self.op_step.e_parity.next = self.entries.op_e_parity.val();
        self.op_step.e_pending.next = self.entries.op_e_pending.val();
        self.op_step.e_expected.next = self.entries.op_e_expected.val();
        self.op_step.e_tx.next = self.entries.op_e_tx.val();
        self.entries.op_n_valid.next = self.op_step.n_valid.val();
        self.entries.op_n_parity.next = self.op_step.n_parity.val();
        self.entries.op_n_pending.next = self.op_step.n_pending.val();
        self.entries.op_n_expected.next = self.op_step.n_expected.val();
        self.entries.op_n_tx.next = self.op_step.n_tx.val();

        // Waiters and wakes.
        self.waiters.op_warp.next = self.op_warp.val();
        self.waiters.op_entry.next = self.op_entry.val();
        self.waiters.op_parity.next = self.op_parity.val();
        self.waiters.susp_go.next = self.op_port.susp_go.val();
        self.waiters.ctx_complete.next = self.ctx_step.complete.val();
        self.waiters.ctx_entry.next = self.ctx_entry.val();
        self.waiters.ctx_cpar.next = self.entries.ctx_e_parity.val();
        self.waiters.rarv_complete.next = self.rarv_step.complete.val();
        self.waiters.rarv_entry.next = self.rarv_entry.val();
        self.waiters.rarv_cpar.next = self.entries.rarv_e_parity.val();
        self.waiters.op_complete.next = self.op_step.complete.val();
        self.waiters.op_cpar.next = self.entries.op_e_parity.val();
        self.wake.cand.next = self.waiters.cand.val();
        self.waiters.grant.next = self.wake.grant.val();

        // Outputs, idle during reset.
        self.op_ready.next = !self.reset.val();
        self.rsp_valid.next = self.op_port.rsp_valid.val();
        self.rsp_warp.next = self.op_port.rsp_warp.val();
        self.rsp_op.next = self.op_port.rsp_op.val();
        self.rsp_token.next = self.op_port.rsp_token.val();
        self.rsp_done.next = self.op_port.rsp_done.val();
        self.rsp_suspended.next = self.op_port.rsp_suspended.val();
        self.wake_mask.next = self.waiters.wake_mask.val();
        self.wake_done.next = self.waiters.wake_done.val();
        self.suspended.next = self.waiters.suspended.val();
        self.err.next = self.op_port.err.val();
        self.err_src.next = self.op_port.err_src.val();
        self.err_cause.next = self.op_port.err_cause.val();
        if self.reset.val() {
            self.rsp_valid.next = false;
            self.rsp_warp.next = 0.into();
            self.rsp_op.next = 0.into();
            self.rsp_token.next = false;
            self.rsp_done.next = false;
            self.rsp_suspended.next = false;
            self.wake_mask.next = 0.into();
            self.wake_done.next = 0.into();
            self.suspended.next = 0.into();
            self.err.next = false;
            self.err_src.next = 0.into();
            self.err_cause.next = 0.into();
        }
    }
}

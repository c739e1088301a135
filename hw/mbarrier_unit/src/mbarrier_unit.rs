//! `mbarrier_unit`: the SM's transaction-barrier unit
//! (`spec/mbarrier_unit.md`), top level.
//!
//! The RTL twin of the golden kernel `mbarrier_unit_model::mbarrier_unit::eval`
//! (its `State` is the union of the blocks' flops). This block holds no
//! state: it wires the blocks to each other and to the contract's ports, and
//! forces every output low while `reset` is high (the model's reset: outputs
//! idle, `op_ready` low).
//!
//! One request a cycle: the port arbiter grants one of the three request
//! ports (`*_ready`), the request is registered, and the next cycle steps
//! it on its entry (`docs/mbarrier_ram_design.md`).
//!
//! Blocks (one per file):
//! - [`PortArbiter`] (`port_arbiter.rs`): the grant, round robin over the
//!   ports (kernel: `grant`, `State::pp`).
//! - [`RequestReg`] (`request_reg.rs`): the granted request (kernel: `State::req`).
//! - [`EntryFile`] (`entry_file.rs`): the M entries, the stepped request's
//!   entry read and written back (kernel: `State::entries`).
//! - [`EntryStep`] (`entry_step.rs`): the step's checks, counter arithmetic
//!   and `complete_if_due`.
//! - [`OpPort`] (`op_port.rs`): decode and checks, response and `err`
//!   registers (kernel: the step and its reported error).
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
use crate::port_arbiter::PortArbiter;
use crate::request_reg::RequestReg;
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
    pub ctx_ready: Signal<Out, Bit>,
    pub rarv_ready: Signal<Out, Bit>,
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
    arb: PortArbiter,
    req: RequestReg<WB, EB, CB, TB, XB>,
    entries: EntryFile<M, EB, CB, TB>,
    step: EntryStep<CB, TB, XB>,
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
            ctx_ready: Default::default(),
            rarv_ready: Default::default(),
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
            arb: Default::default(),
            req: Default::default(),
            entries: Default::default(),
            step: Default::default(),
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
        self.arb.clock.next = self.clock.val();
        self.arb.reset.next = self.reset.val();
        self.req.clock.next = self.clock.val();
        self.req.reset.next = self.reset.val();
        self.entries.clock.next = self.clock.val();
        self.entries.reset.next = self.reset.val();
        self.op_port.clock.next = self.clock.val();
        self.op_port.reset.next = self.reset.val();
        self.waiters.clock.next = self.clock.val();
        self.waiters.reset.next = self.reset.val();
        self.wake.clock.next = self.clock.val();
        self.wake.reset.next = self.reset.val();

        // Accept: one request a cycle into the request register.
        self.arb.op_valid.next = self.op_valid.val();
        self.arb.ctx_valid.next = self.ctx_valid.val();
        self.arb.rarv_valid.next = self.rarv_valid.val();
        self.req.g_op.next = self.arb.g_op.val();
        self.req.g_ctx.next = self.arb.g_ctx.val();
        self.req.g_rarv.next = self.arb.g_rarv.val();
        self.req.op_warp.next = self.op_warp.val();
        self.req.op_code.next = self.op_code.val();
        self.req.op_entry.next = self.op_entry.val();
        self.req.op_count.next = self.op_count.val();
        self.req.op_tx.next = self.op_tx.val();
        self.req.op_parity.next = self.op_parity.val();
        self.req.ctx_entry.next = self.ctx_entry.val();
        self.req.ctx_bytes.next = self.ctx_bytes.val();
        self.req.rarv_entry.next = self.rarv_entry.val();
        self.req.rarv_count.next = self.rarv_count.val();

        // Step: the registered request on its entry.
        self.entries.acc_entry.next = self.req.entry_in.val();
        self.entries.rd_entry.next = self.req.entry.val();
        self.op_port.op_valid.next = self.req.valid.val();
        self.op_port.op_warp.next = self.req.warp.val();
        self.op_port.op_code.next = self.req.code.val();
        self.op_port.op_count.next = self.req.count.val();
        self.op_port.op_parity.next = self.req.parity.val();
        self.op_port.port.next = self.req.port.val();
        self.op_port.op_e_valid.next = self.entries.e_valid.val();
        self.op_port.op_e_parity.next = self.entries.e_parity.val();
        self.op_port.warp_susp.next = self.waiters.warp_susp.val();
        self.op_port.waiters_on.next = self.waiters.waiters_on.val();
        self.op_port.op_cause.next = self.step.cause.val();
        self.op_port.op_refused.next = self.step.refused.val();
        self.step.act.next = self.op_port.op_act.val();
        self.step.act_mod.next = self.op_port.op_act_mod.val();
        self.step.init.next = self.op_port.op_init.val();
        self.step.inval.next = self.op_port.op_inval.val();
        self.step.arrive.next = self.op_port.op_arrive.val();
        self.step.drop.next = self.op_port.op_drop.val();
        self.step.tx_up.next = self.op_port.op_tx_up.val();
        self.step.tx_dn.next = self.op_port.op_tx_dn.val();
        self.step.count.next = self.req.count.val();
        self.step.amt.next = self.req.tx.val();
        self.step.k_hi.next = self.req.tx_hi_key.val();
        self.step.k_lo.next = self.req.tx_lo_key.val();
        self.step.k_neg.next = self.req.amt_neg.val();
        self.step.e_valid.next = self.entries.e_valid.val();
        self.step.e_parity.next = self.entries.e_parity.val();
        self.step.e_pending.next = self.entries.e_pending.val();
        self.step.e_expected.next = self.entries.e_expected.val();
        self.step.e_tx.next = self.entries.e_tx.val();
        self.step.e_tx_ram.next = self.entries.tx_ram.val();
        self.step.e_tx_byp.next = self.entries.tx_byp.val();
        self.step.e_tx_fwd.next = self.entries.tx_fwd.val();
        self.entries.n_valid.next = self.step.n_valid.val();
        self.entries.n_parity.next = self.step.n_parity.val();
        self.entries.n_pending.next = self.step.n_pending.val();
        self.entries.n_expected.next = self.step.n_expected.val();
        self.entries.n_tx.next = self.step.n_tx.val();
        self.entries.n_write.next = self.step.write.val();

        // Waiters and wakes.
        self.waiters.op_warp.next = self.req.warp.val();
        self.waiters.op_entry.next = self.req.entry.val();
        self.waiters.acc_entry.next = self.req.entry_in.val();
        self.waiters.op_parity.next = self.req.parity.val();
        self.waiters.susp_go.next = self.op_port.susp_go.val();
        self.waiters.try_go.next = self.op_port.try_go.val();
        self.waiters.c_complete.next = self.step.complete.val();
        self.waiters.c_cpar.next = self.entries.e_parity.val();
        self.wake.cand.next = self.waiters.cand.val();
        self.waiters.grant.next = self.wake.grant.val();

        // Outputs, idle during reset.
        self.op_ready.next = self.arb.g_op.val();
        self.ctx_ready.next = self.arb.g_ctx.val();
        self.rarv_ready.next = self.arb.g_rarv.val();
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
            self.op_ready.next = false;
            self.ctx_ready.next = false;
            self.rarv_ready.next = false;
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

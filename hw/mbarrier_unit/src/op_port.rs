//! Op port: decodes the stepped request, decides its error in the golden
//! kernel's priority, drives the entry step, and registers the response
//! and the `err` report of the cycle.
//!
//! Implements the step of `mbarrier_unit_model::mbarrier_unit::eval` (the
//! checks reserved op, suspended warp, init's bad count / waiters, entry not
//! initialised, inval's waiters; the arrive/tx checks come back from the
//! `EntryStep` as `op_cause`), the response (`rsp_*`: token = parity of the
//! phase arrived in, done = current parity ≠ `op_parity` for the waits,
//! suspended for an undecided `try_wait`) and the reported error. A
//! complete-tx or remote arrive comes as the op `complete_tx` / `arrive`
//! (`request_reg.rs`) from its own port: no suspended-warp check, no
//! response, `err_src` = its port. The `err_src` register takes the stepped
//! request's port whatever the verdict and the output shows it only with
//! `err` (the refusal reaches `err_r` alone).
//!
//! Ports (WB = log2 W, CB = count_bits + 1):
//! - `clock`, `reset`.
//! - `op_valid`, `op_warp`, `op_code`, `op_count`, `op_parity` (in): the
//!   request register.
//! - `port` (in, 2): the port the request came from (`src::*`; 0 the op port).
//! - `op_e_valid`, `op_e_parity` (in): the request's entry.
//! - `warp_susp` (in): `op_warp` is suspended (waiters).
//! - `waiters_on` (in): some warp is suspended on the request's entry (waiters).
//! - `op_cause` (in, 4): the entry step's check result; `op_refused` (in):
//!   it is not 0.
//! - `op_act`, `op_init`, `op_inval`, `op_arrive`, `op_drop`, `op_tx_up`,
//!   `op_tx_dn` (out): controls of the op entry step.
//! - `op_act_mod` (out): `op_act` of a modifying op (arrive … complete_tx),
//!   whose pre-checks are the suspended warp and the entry's validity only:
//!   the waiters check (`waiters_on`, an OR over W registered compares)
//!   refuses `init`/`inval` alone, so the step's checks and completion of a
//!   modifying op are formed without it.
//! - `susp_go` (out): the `try_wait` suspends `op_warp` on (`op_entry`, `op_parity`).
//! - `try_go` (out): the stepped request is a `try_wait` (early; `susp_go` decides).
//! - `rsp_valid`, `rsp_warp`, `rsp_op`, `rsp_token`, `rsp_done`,
//!   `rsp_suspended`, `err`, `err_src`, `err_cause` (out, registered): the
//!   contract's ports.

use mbarrier_unit_model::ports::mbarrier::{cause, op};
use rust_hdl::prelude::*;

/// Decode, checks and response registers of the op port.
#[derive(LogicBlock)]
pub struct OpPort<const WB: usize, const CB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub op_valid: Signal<In, Bit>,
    pub op_warp: Signal<In, Bits<WB>>,
    pub op_code: Signal<In, Bits<4>>,
    pub op_count: Signal<In, Bits<CB>>,
    pub op_parity: Signal<In, Bit>,
    pub port: Signal<In, Bits<2>>,
    pub op_e_valid: Signal<In, Bit>,
    pub op_e_parity: Signal<In, Bit>,
    pub warp_susp: Signal<In, Bit>,
    pub waiters_on: Signal<In, Bit>,
    pub op_cause: Signal<In, Bits<4>>,
    pub op_refused: Signal<In, Bit>,
    pub op_act: Signal<Out, Bit>,
    pub op_act_mod: Signal<Out, Bit>,
    pub op_init: Signal<Out, Bit>,
    pub op_inval: Signal<Out, Bit>,
    pub op_arrive: Signal<Out, Bit>,
    pub op_drop: Signal<Out, Bit>,
    pub op_tx_up: Signal<Out, Bit>,
    pub op_tx_dn: Signal<Out, Bit>,
    pub susp_go: Signal<Out, Bit>,
    pub try_go: Signal<Out, Bit>,
    pub rsp_valid: Signal<Out, Bit>,
    pub rsp_warp: Signal<Out, Bits<WB>>,
    pub rsp_op: Signal<Out, Bits<4>>,
    pub rsp_token: Signal<Out, Bit>,
    pub rsp_done: Signal<Out, Bit>,
    pub rsp_suspended: Signal<Out, Bit>,
    pub err: Signal<Out, Bit>,
    pub err_src: Signal<Out, Bits<2>>,
    pub err_cause: Signal<Out, Bits<4>>,
    rsp_valid_r: DFF<Bit>,
    rsp_warp_r: DFF<Bits<WB>>,
    rsp_op_r: DFF<Bits<4>>,
    rsp_token_r: DFF<Bit>,
    rsp_done_r: DFF<Bit>,
    rsp_suspended_r: DFF<Bit>,
    err_r: DFF<Bit>,
    err_src_r: DFF<Bits<2>>,
    err_cause_r: DFF<Bits<4>>,
    /// The request came from the op port (`port` = 0).
    is_op: Signal<Local, Bit>,
    is_init: Signal<Local, Bit>,
    is_inval: Signal<Local, Bit>,
    is_wait: Signal<Local, Bit>,
    is_try: Signal<Local, Bit>,
    is_modify: Signal<Local, Bit>,
    count_bad: Signal<Local, Bit>,
    pre_cause: Signal<Local, Bits<4>>,
    cause_op: Signal<Local, Bits<4>>,
    /// `cause_op` ≠ 0: the pre-checks' (early) or the step's (late) refusal.
    refused_op: Signal<Local, Bit>,
    op_ok: Signal<Local, Bit>,
    passed: Signal<Local, Bit>,
    c_init: Constant<Bits<4>>,
    c_inval: Constant<Bits<4>>,
    c_arrive: Constant<Bits<4>>,
    c_drop: Constant<Bits<4>>,
    c_arrive_tx: Constant<Bits<4>>,
    c_expect: Constant<Bits<4>>,
    c_complete: Constant<Bits<4>>,
    c_test: Constant<Bits<4>>,
    c_try: Constant<Bits<4>>,
    k_reserved: Constant<Bits<4>>,
    k_suspended: Constant<Bits<4>>,
    k_uninit: Constant<Bits<4>>,
    k_bad_count: Constant<Bits<4>>,
    k_waiters: Constant<Bits<4>>,
    max_count: Constant<Bits<CB>>,
    zero_count: Constant<Bits<CB>>,
}

impl<const WB: usize, const CB: usize> Default for OpPort<WB, CB> {
    fn default() -> Self {
        let k = |v: u8| Constant::new(u64::from(v).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            op_valid: Default::default(),
            op_warp: Default::default(),
            op_code: Default::default(),
            op_count: Default::default(),
            op_parity: Default::default(),
            port: Default::default(),
            op_e_valid: Default::default(),
            op_e_parity: Default::default(),
            warp_susp: Default::default(),
            waiters_on: Default::default(),
            op_cause: Default::default(),
            op_refused: Default::default(),
            op_act: Default::default(),
            op_act_mod: Default::default(),
            op_init: Default::default(),
            op_inval: Default::default(),
            op_arrive: Default::default(),
            op_drop: Default::default(),
            op_tx_up: Default::default(),
            op_tx_dn: Default::default(),
            susp_go: Default::default(),
            try_go: Default::default(),
            rsp_valid: Default::default(),
            rsp_warp: Default::default(),
            rsp_op: Default::default(),
            rsp_token: Default::default(),
            rsp_done: Default::default(),
            rsp_suspended: Default::default(),
            err: Default::default(),
            err_src: Default::default(),
            err_cause: Default::default(),
            rsp_valid_r: Default::default(),
            rsp_warp_r: Default::default(),
            rsp_op_r: Default::default(),
            rsp_token_r: Default::default(),
            rsp_done_r: Default::default(),
            rsp_suspended_r: Default::default(),
            err_r: Default::default(),
            err_src_r: Default::default(),
            err_cause_r: Default::default(),
            is_op: Default::default(),
            is_init: Default::default(),
            is_inval: Default::default(),
            is_wait: Default::default(),
            is_try: Default::default(),
            is_modify: Default::default(),
            count_bad: Default::default(),
            pre_cause: Default::default(),
            cause_op: Default::default(),
            refused_op: Default::default(),
            op_ok: Default::default(),
            passed: Default::default(),
            c_init: k(op::INIT),
            c_inval: k(op::INVAL),
            c_arrive: k(op::ARRIVE),
            c_drop: k(op::ARRIVE_DROP),
            c_arrive_tx: k(op::ARRIVE_EXPECT_TX),
            c_expect: k(op::EXPECT_TX),
            c_complete: k(op::COMPLETE_TX),
            c_test: k(op::TEST_WAIT),
            c_try: k(op::TRY_WAIT),
            k_reserved: k(cause::RESERVED_OP),
            k_suspended: k(cause::WARP_SUSPENDED),
            k_uninit: k(cause::UNINIT),
            k_bad_count: k(cause::BAD_COUNT),
            k_waiters: k(cause::WAITERS),
            max_count: Constant::new(((1u64 << (CB - 1)) - 1).into()),
            zero_count: Constant::new(0u64.into()),
        }
    }
}

impl<const WB: usize, const CB: usize> Logic for OpPort<WB, CB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            rsp_valid_r,
            rsp_warp_r,
            rsp_op_r,
            rsp_token_r,
            rsp_done_r,
            rsp_suspended_r,
            err_r,
            err_src_r,
            err_cause_r
        );
        // Decode.
        self.is_op.next = !self.port.val().any();
        self.is_init.next = self.op_code.val() == self.c_init.val();
        self.is_inval.next = self.op_code.val() == self.c_inval.val();
        self.is_try.next = self.op_code.val() == self.c_try.val();
        self.is_wait.next = self.is_try.val() | (self.op_code.val() == self.c_test.val());
        self.is_modify.next = (self.op_code.val() >= self.c_arrive.val())
            & (self.op_code.val() <= self.c_complete.val());
        self.count_bad.next = (self.op_count.val() == self.zero_count.val())
            | (self.op_count.val() > self.max_count.val());

        // Checks before the entry step, in the golden kernel's priority.
        self.pre_cause.next = 0.into();
        self.passed.next = false;
        if self.op_code.val() > self.c_try.val() {
            self.pre_cause.next = self.k_reserved.val();
        } else if self.is_op.val() & self.warp_susp.val() {
            self.pre_cause.next = self.k_suspended.val();
        } else if self.is_init.val() {
            if self.count_bad.val() {
                self.pre_cause.next = self.k_bad_count.val();
            } else if self.waiters_on.val() {
                self.pre_cause.next = self.k_waiters.val();
            } else {
                self.passed.next = true;
            }
        } else if !self.op_e_valid.val() {
            self.pre_cause.next = self.k_uninit.val();
        } else if self.is_inval.val() {
            if self.waiters_on.val() {
                self.pre_cause.next = self.k_waiters.val();
            } else {
                self.passed.next = true;
            }
        } else {
            self.passed.next = true;
        }

        // Entry step controls.
        self.op_act.next = self.op_valid.val()
            & self.passed.val()
            & (self.is_init.val() | self.is_inval.val() | self.is_modify.val());
        // The same for a modifying op, without the init/inval branches (and
        // so without `waiters_on`): equal to `op_act` whenever `is_modify`.
        self.op_act_mod.next = self.op_valid.val()
            & self.is_modify.val()
            & !(self.is_op.val() & self.warp_susp.val())
            & self.op_e_valid.val();
        self.op_init.next = self.is_init.val();
        self.op_inval.next = self.is_inval.val();
        self.op_arrive.next = (self.op_code.val() >= self.c_arrive.val())
            & (self.op_code.val() <= self.c_arrive_tx.val());
        self.op_drop.next = self.op_code.val() == self.c_drop.val();
        self.op_tx_up.next = (self.op_code.val() == self.c_arrive_tx.val())
            | (self.op_code.val() == self.c_expect.val());
        self.op_tx_dn.next = self.op_code.val() == self.c_complete.val();

        // The op's cause: a pre-check, else the entry step's.
        self.cause_op.next = self.pre_cause.val();
        self.refused_op.next = self.pre_cause.val().any();
        if self.passed.val() {
            self.cause_op.next = self.op_cause.val();
            self.refused_op.next = self.op_refused.val();
        }
        self.op_ok.next = self.op_valid.val() & !self.refused_op.val();
        self.try_go.next = self.op_valid.val() & self.is_op.val() & self.is_try.val();
        // A try_wait's only checks are the pre-checks (no entry step): its
        // suspension is formed from them directly, not behind the step's
        // cause (the same function, a shorter path).
        self.susp_go.next = self.op_valid.val()
            & self.is_op.val()
            & self.is_try.val()
            & !self.warp_susp.val()
            & self.op_e_valid.val()
            & (self.op_e_parity.val() == self.op_parity.val());

        // Response register (the op port's requests only).
        self.rsp_valid_r.d.next = self.op_valid.val() & self.is_op.val();
        self.rsp_warp_r.d.next = 0.into();
        self.rsp_op_r.d.next = 0.into();
        if self.op_valid.val() & self.is_op.val() {
            self.rsp_warp_r.d.next = self.op_warp.val();
            self.rsp_op_r.d.next = self.op_code.val();
        }
        self.rsp_token_r.d.next =
            self.is_op.val() & self.op_ok.val() & self.op_arrive.val() & self.op_e_parity.val();
        self.rsp_done_r.d.next = self.op_ok.val()
            & self.is_wait.val()
            & (self.op_e_parity.val() != self.op_parity.val());
        self.rsp_suspended_r.d.next = self.susp_go.val();
        // Error report: the stepped request's, from its port.
        // `err_src_r` holds the stepped request's port whether or not it
        // is refused, and `err_src` shows it only with `err`: the refusal
        // reaches one flop (`err_r`), not the port's two.
        self.err_r.d.next = self.op_valid.val() & self.refused_op.val();
        self.err_src_r.d.next = self.port.val();
        self.err_cause_r.d.next = 0.into();
        // (`cause_op` is 0 unless refused: no refusal test in front.)
        if self.op_valid.val() {
            self.err_cause_r.d.next = self.cause_op.val();
        }
        if self.reset.val() {
            self.rsp_valid_r.d.next = false;
            self.rsp_warp_r.d.next = 0.into();
            self.rsp_op_r.d.next = 0.into();
            self.rsp_token_r.d.next = false;
            self.rsp_done_r.d.next = false;
            self.rsp_suspended_r.d.next = false;
            self.err_r.d.next = false;
            self.err_src_r.d.next = 0.into();
            self.err_cause_r.d.next = 0.into();
        }
        self.rsp_valid.next = self.rsp_valid_r.q.val();
        self.rsp_warp.next = self.rsp_warp_r.q.val();
        self.rsp_op.next = self.rsp_op_r.q.val();
        self.rsp_token.next = self.rsp_token_r.q.val();
        self.rsp_done.next = self.rsp_done_r.q.val();
        self.rsp_suspended.next = self.rsp_suspended_r.q.val();
        self.err.next = self.err_r.q.val();
        self.err_src.next = 0.into();
        if self.err_r.q.val() {
            self.err_src.next = self.err_src_r.q.val();
        }
        self.err_cause.next = self.err_cause_r.q.val();
    }
}

//! Port arbiter: one request a cycle from the three request ports.
//!
//! Implements the golden kernel's `grant` and `State::pp`: among the ports
//! presenting a request (0 op, 1 complete-tx, 2 remote arrive), the first
//! at or after the pointer `pp`; `pp` moves past the granted port. A
//! request held valid is therefore granted within 3 cycles.
//!
//! Ports:
//! - `clock`, `reset` (clears `pp`).
//! - `op_valid`, `ctx_valid`, `rarv_valid` (in): the ports' requests.
//! - `g_op`, `g_ctx`, `g_rarv` (out): the grant of this cycle (at most one;
//!   the contract's `op_ready`, `ctx_ready`, `rarv_ready`).

use rust_hdl::prelude::*;

/// Round-robin grant over the three request ports.
#[derive(LogicBlock)]
pub struct PortArbiter {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub op_valid: Signal<In, Bit>,
    pub ctx_valid: Signal<In, Bit>,
    pub rarv_valid: Signal<In, Bit>,
    pub g_op: Signal<Out, Bit>,
    pub g_ctx: Signal<Out, Bit>,
    pub g_rarv: Signal<Out, Bit>,
    /// The pointer `pp` (0 op, 1 complete-tx, 2 remote arrive): the port
    /// that has the first turn.
    pp: DFF<Bits<2>>,
    turn_op: Signal<Local, Bit>,
    turn_ctx: Signal<Local, Bit>,
    turn_rarv: Signal<Local, Bit>,
    p_ctx: Constant<Bits<2>>,
    p_rarv: Constant<Bits<2>>,
}

impl Default for PortArbiter {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            op_valid: Default::default(),
            ctx_valid: Default::default(),
            rarv_valid: Default::default(),
            g_op: Default::default(),
            g_ctx: Default::default(),
            g_rarv: Default::default(),
            pp: Default::default(),
            turn_op: Default::default(),
            turn_ctx: Default::default(),
            turn_rarv: Default::default(),
            p_ctx: Constant::new(1u64.into()),
            p_rarv: Constant::new(2u64.into()),
        }
    }
}

impl Logic for PortArbiter {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, pp);
        self.turn_op.next = !self.pp.q.val().get_bit(0) & !self.pp.q.val().get_bit(1);
        self.turn_ctx.next = self.pp.q.val().get_bit(0) & !self.pp.q.val().get_bit(1);
        self.turn_rarv.next = !self.pp.q.val().get_bit(0) & self.pp.q.val().get_bit(1);
        // pp = op: op, ctx, rarv; pp = ctx: ctx, rarv, op; pp = rarv: rarv, op, ctx.
        self.g_op.next = self.op_valid.val()
            & (self.turn_op.val()
                | (self.turn_ctx.val() & !self.ctx_valid.val() & !self.rarv_valid.val())
                | (self.turn_rarv.val() & !self.rarv_valid.val()));
        self.g_ctx.next = self.ctx_valid.val()
            & (self.turn_ctx.val()
                | (self.turn_rarv.val() & !self.rarv_valid.val() & !self.op_valid.val())
                | (self.turn_op.val() & !self.op_valid.val()));
        self.g_rarv.next = self.rarv_valid.val()
            & (self.turn_rarv.val()
                | (self.turn_op.val() & !self.op_valid.val() & !self.ctx_valid.val())
                | (self.turn_ctx.val() & !self.ctx_valid.val()));
        // The pointer moves past the granted port (reset: op first).
        self.pp.d.next = self.pp.q.val();
        if self.g_op.val() {
            self.pp.d.next = self.p_ctx.val();
        }
        if self.g_ctx.val() {
            self.pp.d.next = self.p_rarv.val();
        }
        if self.g_rarv.val() {
            self.pp.d.next = 0.into();
        }
        if self.reset.val() {
            self.pp.d.next = 0.into();
        }
    }
}

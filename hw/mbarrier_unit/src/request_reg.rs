//! Request register: the request the port arbiter granted, stepped in the
//! next cycle.
//!
//! Implements the golden kernel's `State::req`: the granted port's fields
//! in one form for the single entry step. A complete-tx is held as the op
//! `complete_tx` of `ctx_bytes`, a remote arrive as the op `arrive` of
//! `rarv_count` (their checks are those ops' checks, in the same order),
//! with `port` saying where it came from (no response, no suspended-warp
//! check, `err_src` = the port).
//!
//! Ports (WB = log2 W, EB = log2 M, CB count port bits, TB byte port bits):
//! - `clock`, `reset` (clears `valid`).
//! - `g_op`, `g_ctx`, `g_rarv` (in): the grant.
//! - `op_warp`, `op_code`, `op_entry`, `op_count`, `op_tx`, `op_parity`,
//!   `ctx_entry`, `ctx_bytes`, `rarv_entry`, `rarv_count` (in): the ports.
//! - `valid`, `port` (2: `src::*`), `warp`, `code`, `entry`, `count`, `tx`,
//!   `parity` (out): the registered request.
//! - `entry_in` (out, EB): the granted request's entry (the register's
//!   input: the entry file reads it at the same edge).

use mbarrier_unit_model::ports::mbarrier::{op, src};
use rust_hdl::prelude::*;

/// The registered request (one a cycle).
#[derive(LogicBlock)]
pub struct RequestReg<const WB: usize, const EB: usize, const CB: usize, const TB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub g_op: Signal<In, Bit>,
    pub g_ctx: Signal<In, Bit>,
    pub g_rarv: Signal<In, Bit>,
    pub op_warp: Signal<In, Bits<WB>>,
    pub op_code: Signal<In, Bits<4>>,
    pub op_entry: Signal<In, Bits<EB>>,
    pub op_count: Signal<In, Bits<CB>>,
    pub op_tx: Signal<In, Bits<TB>>,
    pub op_parity: Signal<In, Bit>,
    pub ctx_entry: Signal<In, Bits<EB>>,
    pub ctx_bytes: Signal<In, Bits<TB>>,
    pub rarv_entry: Signal<In, Bits<EB>>,
    pub rarv_count: Signal<In, Bits<CB>>,
    pub valid: Signal<Out, Bit>,
    pub port: Signal<Out, Bits<2>>,
    pub warp: Signal<Out, Bits<WB>>,
    pub code: Signal<Out, Bits<4>>,
    pub entry: Signal<Out, Bits<EB>>,
    pub count: Signal<Out, Bits<CB>>,
    pub tx: Signal<Out, Bits<TB>>,
    pub parity: Signal<Out, Bit>,
    pub entry_in: Signal<Out, Bits<EB>>,
    valid_q: DFF<Bit>,
    port_q: DFF<Bits<2>>,
    warp_q: DFF<Bits<WB>>,
    code_q: DFF<Bits<4>>,
    entry_q: DFF<Bits<EB>>,
    count_q: DFF<Bits<CB>>,
    tx_q: DFF<Bits<TB>>,
    parity_q: DFF<Bit>,
    c_complete: Constant<Bits<4>>,
    c_arrive: Constant<Bits<4>>,
    s_op: Constant<Bits<2>>,
    s_ctx: Constant<Bits<2>>,
    s_rarv: Constant<Bits<2>>,
}

impl<const WB: usize, const EB: usize, const CB: usize, const TB: usize> Default
    for RequestReg<WB, EB, CB, TB>
{
    fn default() -> Self {
        let k4 = |v: u8| Constant::new(u64::from(v).into());
        let k2 = |v: u8| Constant::new(u64::from(v).into());
        Self {
            clock: Default::default(),
            reset: Default::default(),
            g_op: Default::default(),
            g_ctx: Default::default(),
            g_rarv: Default::default(),
            op_warp: Default::default(),
            op_code: Default::default(),
            op_entry: Default::default(),
            op_count: Default::default(),
            op_tx: Default::default(),
            op_parity: Default::default(),
            ctx_entry: Default::default(),
            ctx_bytes: Default::default(),
            rarv_entry: Default::default(),
            rarv_count: Default::default(),
            valid: Default::default(),
            port: Default::default(),
            warp: Default::default(),
            code: Default::default(),
            entry: Default::default(),
            count: Default::default(),
            tx: Default::default(),
            parity: Default::default(),
            entry_in: Default::default(),
            valid_q: Default::default(),
            port_q: Default::default(),
            warp_q: Default::default(),
            code_q: Default::default(),
            entry_q: Default::default(),
            count_q: Default::default(),
            tx_q: Default::default(),
            parity_q: Default::default(),
            c_complete: k4(op::COMPLETE_TX),
            c_arrive: k4(op::ARRIVE),
            s_op: k2(src::OP),
            s_ctx: k2(src::CTX),
            s_rarv: k2(src::RARV),
        }
    }
}

impl<const WB: usize, const EB: usize, const CB: usize, const TB: usize> Logic
    for RequestReg<WB, EB, CB, TB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, valid_q, port_q, warp_q, code_q, entry_q, count_q, tx_q, parity_q);
        // Every field loads at every edge (only `valid` says what was taken).
        self.valid_q.d.next =
            (self.g_op.val() | self.g_ctx.val() | self.g_rarv.val()) & !self.reset.val();
        self.port_q.d.next = self.s_op.val();
        self.warp_q.d.next = self.op_warp.val();
        self.code_q.d.next = self.op_code.val();
        self.entry_q.d.next = self.op_entry.val();
        self.count_q.d.next = self.op_count.val();
        self.tx_q.d.next = self.op_tx.val();
        self.parity_q.d.next = self.op_parity.val();
        if self.g_ctx.val() {
            self.port_q.d.next = self.s_ctx.val();
            self.warp_q.d.next = 0.into();
            self.code_q.d.next = self.c_complete.val();
            self.entry_q.d.next = self.ctx_entry.val();
            self.count_q.d.next = 0.into();
            self.tx_q.d.next = self.ctx_bytes.val();
            self.parity_q.d.next = false;
        }
        if self.g_rarv.val() {
            self.port_q.d.next = self.s_rarv.val();
            self.warp_q.d.next = 0.into();
            self.code_q.d.next = self.c_arrive.val();
            self.entry_q.d.next = self.rarv_entry.val();
            self.count_q.d.next = self.rarv_count.val();
            self.tx_q.d.next = 0.into();
            self.parity_q.d.next = false;
        }
        self.entry_in.next = self.entry_q.d.val();
        self.valid.next = self.valid_q.q.val();
        self.port.next = self.port_q.q.val();
        self.warp.next = self.warp_q.q.val();
        self.code.next = self.code_q.q.val();
        self.entry.next = self.entry_q.q.val();
        self.count.next = self.count_q.q.val();
        self.tx.next = self.tx_q.q.val();
        self.parity.next = self.parity_q.q.val();
    }
}

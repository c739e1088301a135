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
//! - `tx_hi_key`, `tx_lo_key`, `amt_neg` (out, XB = TB + 2): the step's
//!   operand-only terms of the byte operand, computed from the granted
//!   request and registered with it (a retiming: the step would compute
//!   them from `tx` in its own cycle, behind the register): `max − amt`
//!   and `amt − max` as order keys (sign bit flipped), and `−amt`, where
//!   max = 2^(TB−1) − 1 and `amt` is `tx` zero-extended.

use mbarrier_unit_model::ports::mbarrier::{op, src};
use rust_hdl::prelude::*;

/// The registered request (one a cycle).
#[derive(LogicBlock)]
pub struct RequestReg<
    const WB: usize,
    const EB: usize,
    const CB: usize,
    const TB: usize,
    const XB: usize,
> {
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
    pub tx_hi_key: Signal<Out, Bits<XB>>,
    pub tx_lo_key: Signal<Out, Bits<XB>>,
    pub amt_neg: Signal<Out, Bits<XB>>,
    valid_q: DFF<Bit>,
    port_q: DFF<Bits<2>>,
    warp_q: DFF<Bits<WB>>,
    code_q: DFF<Bits<4>>,
    entry_q: DFF<Bits<EB>>,
    count_q: DFF<Bits<CB>>,
    tx_q: DFF<Bits<TB>>,
    parity_q: DFF<Bit>,
    hi_key_q: DFF<Bits<XB>>,
    lo_key_q: DFF<Bits<XB>>,
    neg_q: DFF<Bits<XB>>,
    /// The granted byte operand, zero-extended.
    amt_x: Signal<Local, Bits<XB>>,
    max_tx: Constant<Bits<XB>>,
    neg_max_tx: Constant<Bits<XB>>,
    sign_xb: Constant<Bits<XB>>,
    zero_xb: Constant<Bits<XB>>,
    c_complete: Constant<Bits<4>>,
    c_arrive: Constant<Bits<4>>,
    s_op: Constant<Bits<2>>,
    s_ctx: Constant<Bits<2>>,
    s_rarv: Constant<Bits<2>>,
}

impl<const WB: usize, const EB: usize, const CB: usize, const TB: usize, const XB: usize> Default
    for RequestReg<WB, EB, CB, TB, XB>
{
    fn default() -> Self {
        assert!(XB == TB + 2 && XB <= 64);
        let max_tx = (1u64 << (TB - 1)) - 1;
        let xmask = if XB == 64 { u64::MAX } else { (1u64 << XB) - 1 };
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
            tx_hi_key: Default::default(),
            tx_lo_key: Default::default(),
            amt_neg: Default::default(),
            valid_q: Default::default(),
            port_q: Default::default(),
            warp_q: Default::default(),
            code_q: Default::default(),
            entry_q: Default::default(),
            count_q: Default::default(),
            tx_q: Default::default(),
            parity_q: Default::default(),
            hi_key_q: Default::default(),
            lo_key_q: Default::default(),
            neg_q: Default::default(),
            amt_x: Default::default(),
            max_tx: Constant::new(max_tx.into()),
            neg_max_tx: Constant::new(((xmask - max_tx + 1) & xmask).into()),
            sign_xb: Constant::new((1u64 << (XB - 1)).into()),
            zero_xb: Constant::new(0u64.into()),
            c_complete: k4(op::COMPLETE_TX),
            c_arrive: k4(op::ARRIVE),
            s_op: k2(src::OP),
            s_ctx: k2(src::CTX),
            s_rarv: k2(src::RARV),
        }
    }
}

impl<const WB: usize, const EB: usize, const CB: usize, const TB: usize, const XB: usize> Logic
    for RequestReg<WB, EB, CB, TB, XB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, valid_q, port_q, warp_q, code_q, entry_q, count_q, tx_q, parity_q,
            hi_key_q, lo_key_q, neg_q
        );
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
        // The byte operand's terms for the step, from the granted operand.
        self.amt_x.next = bit_cast::<XB, TB>(self.tx_q.d.val());
        self.hi_key_q.d.next = (self.max_tx.val() - self.amt_x.val()) ^ self.sign_xb.val();
        self.lo_key_q.d.next = (self.amt_x.val() + self.neg_max_tx.val()) ^ self.sign_xb.val();
        self.neg_q.d.next = self.zero_xb.val() - self.amt_x.val();
        self.tx_hi_key.next = self.hi_key_q.q.val();
        self.tx_lo_key.next = self.lo_key_q.q.val();
        self.amt_neg.next = self.neg_q.q.val();
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

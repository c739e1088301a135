//! `port_reg`: the registered instruction port of `sm_sync`
//! (`spec/sm_sync.md`, "Registered instruction port"), the RTL twin of
//! `sm_sync_model::port_reg`. The instruction presented in a cycle is
//! registered at its edge (no enable: the register is free every cycle,
//! because its instruction is taken or refused, and then dropped, in the
//! cycle it is at the decoder) and drives the decoder in the next cycle;
//! reset empties it. With `registered` low (a configuration without the
//! register) the decoder reads the port itself and the flops are unused.
//!
//! Ports (WB = log2 W, CNT = width of `in_count`, MTB = width of `in_tx`):
//! - `clock`, `reset` (in): the top's clock and synchronous reset.
//! - `in_valid`, `in_warp` (WB), `in_unit` (3), `in_op` (4), `in_id` (16),
//!   `in_level` (2), `in_ivall` (2), `in_all`, `in_count` (CNT), `in_tx`
//!   (MTB), `in_parity`, `in_pred` (32) (in): the top's instruction port.
//! - `dec_*` (out, the same fields): the instruction at the decoder: last
//!   cycle's registered one, or the port's when not `registered`.

use rust_hdl::prelude::*;

#[derive(LogicBlock)]
pub struct PortReg<const WB: usize, const CNT: usize, const MTB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_warp: Signal<In, Bits<WB>>,
    pub in_unit: Signal<In, Bits<3>>,
    pub in_op: Signal<In, Bits<4>>,
    pub in_id: Signal<In, Bits<16>>,
    pub in_level: Signal<In, Bits<2>>,
    pub in_ivall: Signal<In, Bits<2>>,
    pub in_all: Signal<In, Bit>,
    pub in_count: Signal<In, Bits<CNT>>,
    pub in_tx: Signal<In, Bits<MTB>>,
    pub in_parity: Signal<In, Bit>,
    pub in_pred: Signal<In, Bits<32>>,
    pub dec_valid: Signal<Out, Bit>,
    pub dec_warp: Signal<Out, Bits<WB>>,
    pub dec_unit: Signal<Out, Bits<3>>,
    pub dec_op: Signal<Out, Bits<4>>,
    pub dec_id: Signal<Out, Bits<16>>,
    pub dec_level: Signal<Out, Bits<2>>,
    pub dec_ivall: Signal<Out, Bits<2>>,
    pub dec_all: Signal<Out, Bit>,
    pub dec_count: Signal<Out, Bits<CNT>>,
    pub dec_tx: Signal<Out, Bits<MTB>>,
    pub dec_parity: Signal<Out, Bit>,
    pub dec_pred: Signal<Out, Bits<32>>,
    /// The configuration has the register (`registered_port`).
    registered: Constant<Bit>,
    valid_q: DFF<Bit>,
    warp_q: DFF<Bits<WB>>,
    unit_q: DFF<Bits<3>>,
    op_q: DFF<Bits<4>>,
    id_q: DFF<Bits<16>>,
    level_q: DFF<Bits<2>>,
    ivall_q: DFF<Bits<2>>,
    all_q: DFF<Bit>,
    count_q: DFF<Bits<CNT>>,
    tx_q: DFF<Bits<MTB>>,
    parity_q: DFF<Bit>,
    pred_q: DFF<Bits<32>>,
}

impl<const WB: usize, const CNT: usize, const MTB: usize> PortReg<WB, CNT, MTB> {
    /// The port of a configuration with (`registered`) or without the register.
    pub fn new(registered: bool) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_warp: Default::default(),
            in_unit: Default::default(),
            in_op: Default::default(),
            in_id: Default::default(),
            in_level: Default::default(),
            in_ivall: Default::default(),
            in_all: Default::default(),
            in_count: Default::default(),
            in_tx: Default::default(),
            in_parity: Default::default(),
            in_pred: Default::default(),
            dec_valid: Default::default(),
            dec_warp: Default::default(),
            dec_unit: Default::default(),
            dec_op: Default::default(),
            dec_id: Default::default(),
            dec_level: Default::default(),
            dec_ivall: Default::default(),
            dec_all: Default::default(),
            dec_count: Default::default(),
            dec_tx: Default::default(),
            dec_parity: Default::default(),
            dec_pred: Default::default(),
            registered: Constant::new(registered),
            valid_q: Default::default(),
            warp_q: Default::default(),
            unit_q: Default::default(),
            op_q: Default::default(),
            id_q: Default::default(),
            level_q: Default::default(),
            ivall_q: Default::default(),
            all_q: Default::default(),
            count_q: Default::default(),
            tx_q: Default::default(),
            parity_q: Default::default(),
            pred_q: Default::default(),
        }
    }
}

impl<const WB: usize, const CNT: usize, const MTB: usize> Logic for PortReg<WB, CNT, MTB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, valid_q, warp_q, unit_q, op_q, id_q, level_q, ivall_q, all_q, count_q,
            tx_q, parity_q, pred_q
        );
        // _d: this cycle's instruction (valid only outside reset).
        self.valid_q.d.next = self.in_valid.val() & !self.reset.val();
        self.warp_q.d.next = self.in_warp.val();
        self.unit_q.d.next = self.in_unit.val();
        self.op_q.d.next = self.in_op.val();
        self.id_q.d.next = self.in_id.val();
        self.level_q.d.next = self.in_level.val();
        self.ivall_q.d.next = self.in_ivall.val();
        self.all_q.d.next = self.in_all.val();
        self.count_q.d.next = self.in_count.val();
        self.tx_q.d.next = self.in_tx.val();
        self.parity_q.d.next = self.in_parity.val();
        self.pred_q.d.next = self.in_pred.val();
        // The decoder's instruction.
        if self.registered.val() {
            self.dec_valid.next = self.valid_q.q.val();
            self.dec_warp.next = self.warp_q.q.val();
            self.dec_unit.next = self.unit_q.q.val();
            self.dec_op.next = self.op_q.q.val();
            self.dec_id.next = self.id_q.q.val();
            self.dec_level.next = self.level_q.q.val();
            self.dec_ivall.next = self.ivall_q.q.val();
            self.dec_all.next = self.all_q.q.val();
            self.dec_count.next = self.count_q.q.val();
            self.dec_tx.next = self.tx_q.q.val();
            self.dec_parity.next = self.parity_q.q.val();
            self.dec_pred.next = self.pred_q.q.val();
        } else {
            self.dec_valid.next = self.in_valid.val();
            self.dec_warp.next = self.in_warp.val();
            self.dec_unit.next = self.in_unit.val();
            self.dec_op.next = self.in_op.val();
            self.dec_id.next = self.in_id.val();
            self.dec_level.next = self.in_level.val();
            self.dec_ivall.next = self.in_ivall.val();
            self.dec_all.next = self.in_all.val();
            self.dec_count.next = self.in_count.val();
            self.dec_tx.next = self.in_tx.val();
            self.dec_parity.next = self.in_parity.val();
            self.dec_pred.next = self.in_pred.val();
        }
    }
}

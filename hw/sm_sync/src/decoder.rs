//! `decoder`: the instruction decoder of `sm_sync` (spec/sm_sync.md
//! §Decode), the RTL twin of `sm_sync_model::model::route`'s select logic.
//! Combinational, no state (so no `_d/_q` pairs).
//!
//! Ports:
//! - `reset` (in): the top's reset (only gates `flag`).
//! - `in_valid`, `in_unit` (3), `in_op` (4) (in): the presented instruction.
//! - `to_membar`, `to_bar`, `to_mb`, `to_ag` (out): the instruction goes to
//!   that unit this cycle (`in_valid`, not refused, `in_unit` selects it).
//! - `refused` (out): `in_valid` with a reserved unit (4..7) or an op code
//!   beyond the unit's ops (membar/bar ≥ 5, mbarrier ≥ 9, async ≥ 4).
//! - `flag` (out): `refused` outside reset (the decoder's `err_src` bit).

use rust_hdl::prelude::*;

#[derive(LogicBlock, Default)]
pub struct Decoder {
    pub reset: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_unit: Signal<In, Bits<3>>,
    pub in_op: Signal<In, Bits<4>>,
    pub to_membar: Signal<Out, Bit>,
    pub to_bar: Signal<Out, Bit>,
    pub to_mb: Signal<Out, Bit>,
    pub to_ag: Signal<Out, Bit>,
    pub refused: Signal<Out, Bit>,
    pub flag: Signal<Out, Bit>,
    /// The op code is one the selected unit defines.
    op_ok: Signal<Local, Bit>,
}

impl Logic for Decoder {
    #[hdl_gen]
    fn update(&mut self) {
        self.op_ok.next = false;
        if self.in_unit.val() == 0 {
            self.op_ok.next = self.in_op.val() < 5;
        }
        if self.in_unit.val() == 1 {
            self.op_ok.next = self.in_op.val() < 5;
        }
        if self.in_unit.val() == 2 {
            self.op_ok.next = self.in_op.val() < 9;
        }
        if self.in_unit.val() == 3 {
            self.op_ok.next = self.in_op.val() < 4;
        }
        self.refused.next = self.in_valid.val() & !self.op_ok.val();
        self.flag.next = self.in_valid.val() & !self.op_ok.val() & !self.reset.val();
        self.to_membar.next = self.in_valid.val() & self.op_ok.val() & (self.in_unit.val() == 0);
        self.to_bar.next = self.in_valid.val() & self.op_ok.val() & (self.in_unit.val() == 1);
        self.to_mb.next = self.in_valid.val() & self.op_ok.val() & (self.in_unit.val() == 2);
        self.to_ag.next = self.in_valid.val() & self.op_ok.val() & (self.in_unit.val() == 3);
    }
}

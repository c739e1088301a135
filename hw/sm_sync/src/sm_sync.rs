//! `sm_sync`: the SM's synchronisation units behind one decoded-instruction
//! port (`spec/sm_sync.md`), top level — the RTL twin of
//! `sm_sync_model::model::eval`. It instantiates the four unit RTL tops
//! unchanged (`membar_unit_rtl::MembarUnit`, `bar_unit_rtl::BarUnit`,
//! `mbarrier_unit_rtl::MbarrierUnit`, `mbarrier_unit_rtl::AsyncGroups`) and
//! the [`Decoder`] (`decoder.rs`) behind the instruction port
//! ([`PortReg`], `port_reg.rs`: registered when the configuration says
//! `registered_port`, else a wire); it routes the instruction fields to the
//! selected unit (truncated to its port widths), muxes `in_ready`, ORs the
//! blocked and release vectors and the error flags, and passes every unit's
//! memory-side ports through. Its only flops are the port register's.
//!
//! Ports (spec order; W warps, WB = log2 W):
//! - `clock`, `reset` (synchronous, active high; every unit's reset).
//! - instruction port: `in_valid`, `in_ready` (out), `in_warp` (WB),
//!   `in_unit` (3), `in_op` (4), `in_id` (16), `in_level` (2), `in_ivall`
//!   (2), `in_all`, `in_count` (CNT), `in_tx` (MTB), `in_parity`, `in_pred` (32);
//!   with a registered port `in_ready` answers for the instruction presented
//!   in the previous cycle.
//! - combined: `warp_blocked` (W), `release_mask` (W), `err`, `err_src` (5).
//! - membar pass-through: `dn_valid`, `dn_ready`, `dn_kind`, `dn_tag` (TB),
//!   `dn_warp`, `dn_op`, `dn_level`, `dn_ack_req`, `dn_id`, `ack_valid`,
//!   `ack_tag`, `bar_ack_valid`, `bar_ack_tag`.
//! - bar pass-through: `ctl_valid`, `ctl_op`, `ctl_slot` (SB), `ctl_warps`
//!   (W), `ctl_warp`; `bar_rel_valid`, `bar_rel_slot`, `bar_rel_id`,
//!   `bar_rel_op`, `bar_rel_result` (RB), `bar_err_code`.
//! - mbarrier pass-through: `ctx_valid`, `ctx_entry` (EB), `ctx_bytes`
//!   (MTB), `rarv_valid`, `rarv_entry`, `rarv_count` (MCB); `mb_ctx_ready`,
//!   `mb_rarv_ready` (the unit took them); `mb_rsp_valid`,
//!   `mb_rsp_warp`, `mb_rsp_op`, `mb_rsp_token`, `mb_rsp_done`,
//!   `mb_rsp_suspended`, `mb_wake_mask`, `mb_wake_done`, `mb_err_src`,
//!   `mb_err_cause`.
//! - async-groups pass-through: `rd_valid`, `rd_warp`, `wr_valid`,
//!   `wr_warp`; `ag_err_cause`.
//!
//! Const generics (`dispatch.rs` derives them from a `Config`): W, WB;
//! membar K, TB, MB; bar C, SB, BCB, RB, BAB; mbarrier M, EB, MCB, MTB, XB, TMB,
//! F; async groups G, HB, NB, OB; CNT = width of `in_count`.

use bar_unit_rtl::BarUnit;
use mbarrier_unit_rtl::{AsyncGroups, MbarrierUnit};
use membar_unit_rtl::MembarUnit;
use rust_hdl::prelude::*;
use sm_sync_model::Config;

use crate::decoder::Decoder;
use crate::port_reg::PortReg;

#[derive(LogicBlock)]
pub struct SmSync<
    const W: usize,
    const WB: usize,
    const K: usize,
    const TB: usize,
    const MB: usize,
    const C: usize,
    const SB: usize,
    const BCB: usize,
    const RB: usize,
    const BAB: usize,
    const M: usize,
    const EB: usize,
    const MCB: usize,
    const MTB: usize,
    const XB: usize,
    const TMB: usize,
    const F: usize,
    const G: usize,
    const HB: usize,
    const NB: usize,
    const OB: usize,
    const CNT: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub in_valid: Signal<In, Bit>,
    pub in_ready: Signal<Out, Bit>,
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
    pub warp_blocked: Signal<Out, Bits<W>>,
    pub release_mask: Signal<Out, Bits<W>>,
    pub err: Signal<Out, Bit>,
    pub err_src: Signal<Out, Bits<5>>,
    pub dn_valid: Signal<Out, Bit>,
    pub dn_ready: Signal<In, Bit>,
    pub dn_kind: Signal<Out, Bits<2>>,
    pub dn_tag: Signal<Out, Bits<TB>>,
    pub dn_warp: Signal<Out, Bits<WB>>,
    pub dn_op: Signal<Out, Bits<3>>,
    pub dn_level: Signal<Out, Bits<2>>,
    pub dn_ack_req: Signal<Out, Bit>,
    pub dn_id: Signal<Out, Bits<16>>,
    pub ack_valid: Signal<In, Bit>,
    pub ack_tag: Signal<In, Bits<TB>>,
    pub bar_ack_valid: Signal<In, Bit>,
    pub bar_ack_tag: Signal<In, Bits<TB>>,
    pub ctl_valid: Signal<In, Bit>,
    pub ctl_op: Signal<In, Bit>,
    pub ctl_slot: Signal<In, Bits<SB>>,
    pub ctl_warps: Signal<In, Bits<W>>,
    pub ctl_warp: Signal<In, Bits<WB>>,
    pub bar_rel_valid: Signal<Out, Bit>,
    pub bar_rel_slot: Signal<Out, Bits<SB>>,
    pub bar_rel_id: Signal<Out, Bits<4>>,
    pub bar_rel_op: Signal<Out, Bits<3>>,
    pub bar_rel_result: Signal<Out, Bits<RB>>,
    pub bar_err_code: Signal<Out, Bits<4>>,
    pub ctx_valid: Signal<In, Bit>,
    pub ctx_entry: Signal<In, Bits<EB>>,
    pub ctx_bytes: Signal<In, Bits<MTB>>,
    pub rarv_valid: Signal<In, Bit>,
    pub rarv_entry: Signal<In, Bits<EB>>,
    pub rarv_count: Signal<In, Bits<MCB>>,
    pub mb_ctx_ready: Signal<Out, Bit>,
    pub mb_rarv_ready: Signal<Out, Bit>,
    pub mb_rsp_valid: Signal<Out, Bit>,
    pub mb_rsp_warp: Signal<Out, Bits<WB>>,
    pub mb_rsp_op: Signal<Out, Bits<4>>,
    pub mb_rsp_token: Signal<Out, Bit>,
    pub mb_rsp_done: Signal<Out, Bit>,
    pub mb_rsp_suspended: Signal<Out, Bit>,
    pub mb_wake_mask: Signal<Out, Bits<W>>,
    pub mb_wake_done: Signal<Out, Bits<W>>,
    pub mb_err_src: Signal<Out, Bits<2>>,
    pub mb_err_cause: Signal<Out, Bits<4>>,
    pub rd_valid: Signal<In, Bit>,
    pub rd_warp: Signal<In, Bits<WB>>,
    pub wr_valid: Signal<In, Bit>,
    pub wr_warp: Signal<In, Bits<WB>>,
    pub ag_err_cause: Signal<Out, Bits<2>>,
    port: PortReg<WB, CNT, MTB>,
    dec: Decoder,
    membar: MembarUnit<W, WB, K, TB, MB>,
    bar: BarUnit<W, WB, C, SB, BCB, RB, BAB>,
    mb: MbarrierUnit<W, WB, M, EB, MCB, MTB, XB, TMB, F>,
    ag: AsyncGroups<W, WB, G, HB, NB, OB>,
    /// The membar unit's release mask when `release_valid`, else 0.
    membar_rel: Signal<Local, Bits<W>>,
    /// The selected unit's ready.
    unit_ready: Signal<Local, Bit>,
    src: Signal<Local, Bits<5>>,
}

impl<
        const W: usize,
        const WB: usize,
        const K: usize,
        const TB: usize,
        const MB: usize,
        const C: usize,
        const SB: usize,
        const BCB: usize,
        const RB: usize,
        const BAB: usize,
        const M: usize,
        const EB: usize,
        const MCB: usize,
        const MTB: usize,
        const XB: usize,
        const TMB: usize,
        const F: usize,
        const G: usize,
        const HB: usize,
        const NB: usize,
        const OB: usize,
        const CNT: usize,
    >
    SmSync<W, WB, K, TB, MB, C, SB, BCB, RB, BAB, M, EB, MCB, MTB, XB, TMB, F, G, HB, NB, OB, CNT>
{
    /// The top for `cfg` (whose widths the dispatcher matched to the const generics).
    pub fn new(cfg: &Config) -> Result<Self, String> {
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            in_valid: Default::default(),
            in_ready: Default::default(),
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
            warp_blocked: Default::default(),
            release_mask: Default::default(),
            err: Default::default(),
            err_src: Default::default(),
            dn_valid: Default::default(),
            dn_ready: Default::default(),
            dn_kind: Default::default(),
            dn_tag: Default::default(),
            dn_warp: Default::default(),
            dn_op: Default::default(),
            dn_level: Default::default(),
            dn_ack_req: Default::default(),
            dn_id: Default::default(),
            ack_valid: Default::default(),
            ack_tag: Default::default(),
            bar_ack_valid: Default::default(),
            bar_ack_tag: Default::default(),
            ctl_valid: Default::default(),
            ctl_op: Default::default(),
            ctl_slot: Default::default(),
            ctl_warps: Default::default(),
            ctl_warp: Default::default(),
            bar_rel_valid: Default::default(),
            bar_rel_slot: Default::default(),
            bar_rel_id: Default::default(),
            bar_rel_op: Default::default(),
            bar_rel_result: Default::default(),
            bar_err_code: Default::default(),
            ctx_valid: Default::default(),
            ctx_entry: Default::default(),
            ctx_bytes: Default::default(),
            rarv_valid: Default::default(),
            rarv_entry: Default::default(),
            rarv_count: Default::default(),
            mb_ctx_ready: Default::default(),
            mb_rarv_ready: Default::default(),
            mb_rsp_valid: Default::default(),
            mb_rsp_warp: Default::default(),
            mb_rsp_op: Default::default(),
            mb_rsp_token: Default::default(),
            mb_rsp_done: Default::default(),
            mb_rsp_suspended: Default::default(),
            mb_wake_mask: Default::default(),
            mb_wake_done: Default::default(),
            mb_err_src: Default::default(),
            mb_err_cause: Default::default(),
            rd_valid: Default::default(),
            rd_warp: Default::default(),
            wr_valid: Default::default(),
            wr_warp: Default::default(),
            ag_err_cause: Default::default(),
            port: PortReg::new(cfg.registered_port),
            dec: Default::default(),
            membar: MembarUnit::new(&cfg.membar)?,
            bar: Default::default(),
            mb: MbarrierUnit::new(cfg.mbarrier.try_wait_limit),
            ag: Default::default(),
            membar_rel: Default::default(),
            unit_ready: Default::default(),
            src: Default::default(),
        })
    }
}

impl<
        const W: usize,
        const WB: usize,
        const K: usize,
        const TB: usize,
        const MB: usize,
        const C: usize,
        const SB: usize,
        const BCB: usize,
        const RB: usize,
        const BAB: usize,
        const M: usize,
        const EB: usize,
        const MCB: usize,
        const MTB: usize,
        const XB: usize,
        const TMB: usize,
        const F: usize,
        const G: usize,
        const HB: usize,
        const NB: usize,
        const OB: usize,
        const CNT: usize,
    > Logic
    for SmSync<
        W,
        WB,
        K,
        TB,
        MB,
        C,
        SB,
        BCB,
        RB,
        BAB,
        M,
        EB,
        MCB,
        MTB,
        XB,
        TMB,
        F,
        G,
        HB,
        NB,
        OB,
        CNT,
    >
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, port, membar, bar, mb, ag);
        // The instruction port (registered or not: `port_reg.rs`).
        self.port.reset.next = self.reset.val();
        self.port.in_valid.next = self.in_valid.val();
        self.port.in_warp.next = self.in_warp.val();
        self.port.in_unit.next = self.in_unit.val();
        self.port.in_op.next = self.in_op.val();
        self.port.in_id.next = self.in_id.val();
        self.port.in_level.next = self.in_level.val();
        self.port.in_ivall.next = self.in_ivall.val();
        self.port.in_all.next = self.in_all.val();
        self.port.in_count.next = self.in_count.val();
        self.port.in_tx.next = self.in_tx.val();
        self.port.in_parity.next = self.in_parity.val();
        self.port.in_pred.next = self.in_pred.val();
        // Decoder.
        self.dec.reset.next = self.reset.val();
        self.dec.in_valid.next = self.port.dec_valid.val();
        self.dec.in_unit.next = self.port.dec_unit.val();
        self.dec.in_op.next = self.port.dec_op.val();
        // membar unit.
        self.membar.reset.next = self.reset.val();
        self.membar.req_valid.next = self.dec.to_membar.val();
        self.membar.req_warp.next = self.port.dec_warp.val();
        self.membar.req_op.next = self.port.dec_op.val().get_bits::<3>(0);
        self.membar.req_level.next = self.port.dec_level.val();
        self.membar.req_ivall.next = self.port.dec_ivall.val();
        self.membar.req_id.next = self.port.dec_id.val();
        self.membar.dn_ready.next = self.dn_ready.val();
        self.membar.ack_valid.next = self.ack_valid.val();
        self.membar.ack_tag.next = self.ack_tag.val();
        self.membar.bar_ack_valid.next = self.bar_ack_valid.val();
        self.membar.bar_ack_tag.next = self.bar_ack_tag.val();
        self.dn_valid.next = self.membar.dn_valid.val();
        self.dn_kind.next = self.membar.dn_kind.val();
        self.dn_tag.next = self.membar.dn_tag.val();
        self.dn_warp.next = self.membar.dn_warp.val();
        self.dn_op.next = self.membar.dn_op.val();
        self.dn_level.next = self.membar.dn_level.val();
        self.dn_ack_req.next = self.membar.dn_ack_req.val();
        self.dn_id.next = self.membar.dn_id.val();
        // Named-barrier unit.
        self.bar.reset.next = self.reset.val();
        self.bar.req_valid.next = self.dec.to_bar.val();
        self.bar.req_warp.next = self.port.dec_warp.val();
        self.bar.req_op.next = self.port.dec_op.val().get_bits::<3>(0);
        self.bar.req_id.next = self.port.dec_id.val().get_bits::<4>(0);
        self.bar.req_all.next = self.port.dec_all.val();
        self.bar.req_count.next = self.port.dec_count.val().get_bits::<BCB>(0);
        self.bar.req_pred.next = self.port.dec_pred.val();
        self.bar.ctl_valid.next = self.ctl_valid.val();
        self.bar.ctl_op.next = self.ctl_op.val();
        self.bar.ctl_slot.next = self.ctl_slot.val();
        self.bar.ctl_warps.next = self.ctl_warps.val();
        self.bar.ctl_warp.next = self.ctl_warp.val();
        self.bar_rel_valid.next = self.bar.rel_valid.val();
        self.bar_rel_slot.next = self.bar.rel_slot.val();
        self.bar_rel_id.next = self.bar.rel_id.val();
        self.bar_rel_op.next = self.bar.rel_op.val();
        self.bar_rel_result.next = self.bar.rel_result.val();
        self.bar_err_code.next = self.bar.err_code.val();
        // mbarrier unit.
        self.mb.reset.next = self.reset.val();
        self.mb.op_valid.next = self.dec.to_mb.val();
        self.mb.op_warp.next = self.port.dec_warp.val();
        self.mb.op_code.next = self.port.dec_op.val();
        self.mb.op_entry.next = self.port.dec_id.val().get_bits::<EB>(0);
        self.mb.op_count.next = self.port.dec_count.val().get_bits::<MCB>(0);
        self.mb.op_tx.next = self.port.dec_tx.val();
        self.mb.op_parity.next = self.port.dec_parity.val();
        self.mb.ctx_valid.next = self.ctx_valid.val();
        self.mb.ctx_entry.next = self.ctx_entry.val();
        self.mb.ctx_bytes.next = self.ctx_bytes.val();
        self.mb.rarv_valid.next = self.rarv_valid.val();
        self.mb.rarv_entry.next = self.rarv_entry.val();
        self.mb.rarv_count.next = self.rarv_count.val();
        self.mb_ctx_ready.next = self.mb.ctx_ready.val();
        self.mb_rarv_ready.next = self.mb.rarv_ready.val();
        self.mb_rsp_valid.next = self.mb.rsp_valid.val();
        self.mb_rsp_warp.next = self.mb.rsp_warp.val();
        self.mb_rsp_op.next = self.mb.rsp_op.val();
        self.mb_rsp_token.next = self.mb.rsp_token.val();
        self.mb_rsp_done.next = self.mb.rsp_done.val();
        self.mb_rsp_suspended.next = self.mb.rsp_suspended.val();
        self.mb_wake_mask.next = self.mb.wake_mask.val();
        self.mb_wake_done.next = self.mb.wake_done.val();
        self.mb_err_src.next = self.mb.err_src.val();
        self.mb_err_cause.next = self.mb.err_cause.val();
        // Async-group tracker.
        self.ag.reset.next = self.reset.val();
        self.ag.ag_valid.next = self.dec.to_ag.val();
        self.ag.ag_warp.next = self.port.dec_warp.val();
        self.ag.ag_op.next = self.port.dec_op.val().get_bits::<2>(0);
        self.ag.ag_n.next = self.port.dec_count.val().get_bits::<NB>(0);
        self.ag.rd_valid.next = self.rd_valid.val();
        self.ag.rd_warp.next = self.rd_warp.val();
        self.ag.wr_valid.next = self.wr_valid.val();
        self.ag.wr_warp.next = self.wr_warp.val();
        self.ag_err_cause.next = self.ag.err_cause.val();
        // in_ready: the selected unit's ready; 1 for a refused instruction; 0 in reset.
        self.unit_ready.next = false;
        if self.port.dec_unit.val() == 0 {
            self.unit_ready.next = self.membar.req_ready.val();
        }
        if self.port.dec_unit.val() == 1 {
            self.unit_ready.next = self.bar.req_ready.val();
        }
        if self.port.dec_unit.val() == 2 {
            self.unit_ready.next = self.mb.op_ready.val();
        }
        if self.port.dec_unit.val() == 3 {
            self.unit_ready.next = self.ag.ag_ready.val();
        }
        self.in_ready.next = self.port.dec_valid.val()
            & (self.dec.refused.val() | self.unit_ready.val())
            & !self.reset.val();
        // Combined blocking and release.
        self.warp_blocked.next = self.membar.warp_blocked.val()
            | self.bar.blocked.val()
            | self.mb.suspended.val()
            | self.ag.blocked.val();
        self.membar_rel.next = 0.into();
        if self.membar.release_valid.val() {
            self.membar_rel.next = self.membar.release_mask.val();
        }
        self.release_mask.next = self.membar_rel.val()
            | self.bar.rel_mask.val()
            | self.mb.wake_mask.val()
            | self.ag.release_mask.val();
        // Error sources.
        self.src.next = 0.into();
        self.src.next = self.src.val().replace_bit(0, self.membar.err.val());
        self.src.next = self.src.val().replace_bit(1, self.bar.err.val());
        self.src.next = self.src.val().replace_bit(2, self.mb.err.val());
        self.src.next = self.src.val().replace_bit(3, self.ag.err.val());
        self.src.next = self.src.val().replace_bit(4, self.dec.flag.val());
        self.err_src.next = self.src.val();
        self.err.next = self.src.val().any();
    }
}

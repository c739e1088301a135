//! Pipeline registers of `bar_unit`: the event taken by stage A (stage B's
//! input) and the barrier an exit completes (stage C's input).
//!
//! Implements the golden kernel's `State::taken` (`Taken`) and
//! `State::exit_done` (`ExitDone`) in `sim/bar_unit/src/bar_unit.rs`: loaded
//! every edge, cleared by reset. Only `b_valid` and `b_ctl` say what was
//! taken (none, a request, a ctl event); the other fields load their inputs
//! at every edge whatever was taken — stage B reads a request's fields only
//! under `b_valid & !b_ctl` and a ctl event's only under `b_valid & b_ctl`
//! — so that the handshake (`req_ready`, late: it reads the requesting
//! warp's registers) reaches two flops, not every field's enable. A
//! request is kept reduced to what stage B uses: the predicate's popcount,
//! AND and OR instead of the 32 lanes, and what stage A already looked up
//! (the warp's slot and live bit, `count > size`, the completion target less one and whether it is at most one, the
//! barrier's `active` bit); a LAUNCH keeps its warps and their count; an
//! EXIT what stage A looked up for its warp (live, blocked, its slot, the
//! slot's live count after the exit, whether that is 0, and `last_all`).
//!
//! Ports (W warps, WB = log2 W, SB slot bits, CB count bits, RB reduction bits):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `take_req` (in): stage A takes the request on `in_warp` … `in_or`.
//! - `take_ctl` (in): stage A takes the ctl event on `in_ctl_op` … `in_ctl_warp`.
//! - `in_warp` (WB), `in_op` (3), `in_id` (4), `in_all`, `in_count` (CB),
//!   `in_popc` (RB), `in_and`, `in_or` (in): the request;
//!   `in_rslot` (SB), `in_wlive`, `in_too_big`, `in_target_m1` (CB), `in_target_le1`, `in_active` (in): stage A's look-ups.
//! - `in_ctl_op`, `in_slot` (SB), `in_warps` (W), `in_size` (CB), `in_ctl_warp` (WB) (in): the ctl event;
//!   `in_x_wlive`, `in_x_blocked`, `in_x_slot` (SB), `in_x_sdec` (CB), `in_x_sempty`, `in_x_last` (4) (in): stage A's EXIT look-ups.
//! - `c_load` (in), `c_slot_in` (SB), `c_id_in` (4), `c_live_in` (CB): stage B
//!   found the barrier an exit may complete, and the exit's slot's live count after it.
//! - `b_*` (out): the event taken at the last edge (`b_valid` low: none; `b_ctl`: a ctl event).
//! - `c_valid`, `c_slot`, `c_id`, `c_live` (out): stage C's barrier and its slot's live count.

use rust_hdl::prelude::*;

/// The A→B and B→C registers of `bar_unit`.
#[derive(LogicBlock, Default)]
pub struct StageRegs<
    const W: usize,
    const WB: usize,
    const SB: usize,
    const CB: usize,
    const RB: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take_req: Signal<In, Bit>,
    pub take_ctl: Signal<In, Bit>,
    pub in_warp: Signal<In, Bits<WB>>,
    pub in_op: Signal<In, Bits<3>>,
    pub in_id: Signal<In, Bits<4>>,
    pub in_all: Signal<In, Bit>,
    pub in_count: Signal<In, Bits<CB>>,
    pub in_popc: Signal<In, Bits<RB>>,
    pub in_and: Signal<In, Bit>,
    pub in_or: Signal<In, Bit>,
    pub in_rslot: Signal<In, Bits<SB>>,
    pub in_wlive: Signal<In, Bit>,
    pub in_too_big: Signal<In, Bit>,
    pub in_target_m1: Signal<In, Bits<CB>>,
    pub in_target_le1: Signal<In, Bit>,
    pub in_active: Signal<In, Bit>,
    pub in_ctl_op: Signal<In, Bit>,
    pub in_slot: Signal<In, Bits<SB>>,
    pub in_warps: Signal<In, Bits<W>>,
    pub in_size: Signal<In, Bits<CB>>,
    pub in_ctl_warp: Signal<In, Bits<WB>>,
    pub in_x_wlive: Signal<In, Bit>,
    pub in_x_blocked: Signal<In, Bit>,
    pub in_x_slot: Signal<In, Bits<SB>>,
    pub in_x_sdec: Signal<In, Bits<CB>>,
    pub in_x_sempty: Signal<In, Bit>,
    pub in_x_last: Signal<In, Bits<4>>,
    pub c_load: Signal<In, Bit>,
    pub c_slot_in: Signal<In, Bits<SB>>,
    pub c_id_in: Signal<In, Bits<4>>,
    pub c_live_in: Signal<In, Bits<CB>>,
    pub b_valid: Signal<Out, Bit>,
    pub b_ctl: Signal<Out, Bit>,
    pub b_warp: Signal<Out, Bits<WB>>,
    pub b_op: Signal<Out, Bits<3>>,
    pub b_id: Signal<Out, Bits<4>>,
    pub b_all: Signal<Out, Bit>,
    pub b_count: Signal<Out, Bits<CB>>,
    pub b_popc: Signal<Out, Bits<RB>>,
    pub b_and: Signal<Out, Bit>,
    pub b_or: Signal<Out, Bit>,
    pub b_rslot: Signal<Out, Bits<SB>>,
    pub b_wlive: Signal<Out, Bit>,
    pub b_too_big: Signal<Out, Bit>,
    pub b_target_m1: Signal<Out, Bits<CB>>,
    pub b_target_le1: Signal<Out, Bit>,
    pub b_active: Signal<Out, Bit>,
    pub b_ctl_op: Signal<Out, Bit>,
    pub b_slot: Signal<Out, Bits<SB>>,
    pub b_warps: Signal<Out, Bits<W>>,
    pub b_size: Signal<Out, Bits<CB>>,
    pub b_ctl_warp: Signal<Out, Bits<WB>>,
    pub b_x_wlive: Signal<Out, Bit>,
    pub b_x_blocked: Signal<Out, Bit>,
    pub b_x_slot: Signal<Out, Bits<SB>>,
    pub b_x_sdec: Signal<Out, Bits<CB>>,
    pub b_x_sempty: Signal<Out, Bit>,
    pub b_x_last: Signal<Out, Bits<4>>,
    pub c_valid: Signal<Out, Bit>,
    pub c_slot: Signal<Out, Bits<SB>>,
    pub c_id: Signal<Out, Bits<4>>,
    pub c_live: Signal<Out, Bits<CB>>,
    valid_q: DFF<Bit>,
    ctl_q: DFF<Bit>,
    warp_q: DFF<Bits<WB>>,
    op_q: DFF<Bits<3>>,
    id_q: DFF<Bits<4>>,
    all_q: DFF<Bit>,
    count_q: DFF<Bits<CB>>,
    popc_q: DFF<Bits<RB>>,
    and_q: DFF<Bit>,
    or_q: DFF<Bit>,
    rslot_q: DFF<Bits<SB>>,
    wlive_q: DFF<Bit>,
    too_big_q: DFF<Bit>,
    target_m1_q: DFF<Bits<CB>>,
    target_le1_q: DFF<Bit>,
    active_q: DFF<Bit>,
    ctl_op_q: DFF<Bit>,
    slot_q: DFF<Bits<SB>>,
    warps_q: DFF<Bits<W>>,
    size_q: DFF<Bits<CB>>,
    ctl_warp_q: DFF<Bits<WB>>,
    x_wlive_q: DFF<Bit>,
    x_blocked_q: DFF<Bit>,
    x_slot_q: DFF<Bits<SB>>,
    x_sdec_q: DFF<Bits<CB>>,
    x_sempty_q: DFF<Bit>,
    x_last_q: DFF<Bits<4>>,
    c_valid_q: DFF<Bit>,
    c_slot_q: DFF<Bits<SB>>,
    c_id_q: DFF<Bits<4>>,
    c_live_q: DFF<Bits<CB>>,
}

impl<const W: usize, const WB: usize, const SB: usize, const CB: usize, const RB: usize> Logic
    for StageRegs<W, WB, SB, CB, RB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            valid_q,
            ctl_q,
            warp_q,
            op_q,
            id_q,
            all_q,
            count_q,
            popc_q,
            and_q,
            or_q,
            rslot_q,
            wlive_q,
            too_big_q,
            target_m1_q,
            target_le1_q,
            active_q,
            ctl_op_q,
            slot_q,
            warps_q,
            size_q,
            ctl_warp_q,
            x_wlive_q,
            x_blocked_q,
            x_slot_q,
            x_sdec_q,
            x_sempty_q,
            x_last_q,
            c_valid_q,
            c_slot_q,
            c_id_q,
            c_live_q
        );
        self.b_valid.next = self.valid_q.q.val();
        self.b_ctl.next = self.ctl_q.q.val();
        self.b_warp.next = self.warp_q.q.val();
        self.b_op.next = self.op_q.q.val();
        self.b_id.next = self.id_q.q.val();
        self.b_all.next = self.all_q.q.val();
        self.b_count.next = self.count_q.q.val();
        self.b_popc.next = self.popc_q.q.val();
        self.b_and.next = self.and_q.q.val();
        self.b_or.next = self.or_q.q.val();
        self.b_rslot.next = self.rslot_q.q.val();
        self.b_wlive.next = self.wlive_q.q.val();
        self.b_too_big.next = self.too_big_q.q.val();
        self.b_target_m1.next = self.target_m1_q.q.val();
        self.b_target_le1.next = self.target_le1_q.q.val();
        self.b_active.next = self.active_q.q.val();
        self.b_ctl_op.next = self.ctl_op_q.q.val();
        self.b_slot.next = self.slot_q.q.val();
        self.b_warps.next = self.warps_q.q.val();
        self.b_size.next = self.size_q.q.val();
        self.b_ctl_warp.next = self.ctl_warp_q.q.val();
        self.b_x_wlive.next = self.x_wlive_q.q.val();
        self.b_x_blocked.next = self.x_blocked_q.q.val();
        self.b_x_slot.next = self.x_slot_q.q.val();
        self.b_x_sdec.next = self.x_sdec_q.q.val();
        self.b_x_sempty.next = self.x_sempty_q.q.val();
        self.b_x_last.next = self.x_last_q.q.val();
        self.c_valid.next = self.c_valid_q.q.val();
        self.c_slot.next = self.c_slot_q.q.val();
        self.c_id.next = self.c_id_q.q.val();
        self.c_live.next = self.c_live_q.q.val();

        // What was taken; every field loads its input (see the header).
        self.valid_q.d.next = self.take_req.val() | self.take_ctl.val();
        self.ctl_q.d.next = self.take_ctl.val();
        self.warp_q.d.next = self.in_warp.val();
        self.op_q.d.next = self.in_op.val();
        self.id_q.d.next = self.in_id.val();
        self.all_q.d.next = self.in_all.val();
        self.count_q.d.next = self.in_count.val();
        self.popc_q.d.next = self.in_popc.val();
        self.and_q.d.next = self.in_and.val();
        self.or_q.d.next = self.in_or.val();
        self.rslot_q.d.next = self.in_rslot.val();
        self.wlive_q.d.next = self.in_wlive.val();
        self.too_big_q.d.next = self.in_too_big.val();
        self.target_m1_q.d.next = self.in_target_m1.val();
        self.target_le1_q.d.next = self.in_target_le1.val();
        self.active_q.d.next = self.in_active.val();
        self.ctl_op_q.d.next = self.in_ctl_op.val();
        self.slot_q.d.next = self.in_slot.val();
        self.warps_q.d.next = self.in_warps.val();
        self.size_q.d.next = self.in_size.val();
        self.ctl_warp_q.d.next = self.in_ctl_warp.val();
        self.x_wlive_q.d.next = self.in_x_wlive.val();
        self.x_blocked_q.d.next = self.in_x_blocked.val();
        self.x_slot_q.d.next = self.in_x_slot.val();
        self.x_sdec_q.d.next = self.in_x_sdec.val();
        self.x_sempty_q.d.next = self.in_x_sempty.val();
        self.x_last_q.d.next = self.in_x_last.val();
        self.c_valid_q.d.next = self.c_load.val();
        self.c_slot_q.d.next = self.c_slot_in.val();
        self.c_id_q.d.next = self.c_id_in.val();
        self.c_live_q.d.next = self.c_live_in.val();
        if self.reset.val() {
            self.valid_q.d.next = false;
            self.ctl_q.d.next = false;
            self.c_valid_q.d.next = false;
        }
    }
}

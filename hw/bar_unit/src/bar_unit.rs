//! `bar_unit`: the SM's named-barrier unit (`spec/bar_unit.md`), top level.
//!
//! The RTL twin of the golden model `bar_unit_model::bar_unit` (its `State` is
//! the union of the blocks' flops and RAMs, its `eval` the union of their
//! kernels). This block holds no state. It is the three stages of the
//! contract's pipeline:
//!
//! - **A** (the event's cycle): the handshake (`req_ready`: no ctl event now
//!   or in stage B, the warp not blocked and not behind its own
//!   `bar.sync`/`bar.red` in stage B), the barrier RAM read of the request's
//!   barrier {slot, id} — or, while stage B holds an EXIT, of the barrier
//!   that exit may complete — and the event into [`StageRegs`] with its
//!   look-ups (a request's warp, slot and barrier; an EXIT's warp and slot,
//!   with stage B's and C's writes of this edge forwarded).
//! - **B** (one cycle later): the checks of `request_error` and the ctl
//!   checks of `eval` against the barrier word just read (`err`,
//!   `err_code`), the arrival's read-modify-write of the RAM words and the
//!   `active` bit, its completion test, a launch or exit; an exit whose CTA's
//!   other live warps all wait on one barrier hands it to stage C.
//! - **C** (one cycle after B): that barrier completes if its phase is an
//!   "all" phase (from the RAM words) — the model's `ExitDone`.
//!
//! A completion (B or C, never both: no request is taken right after a ctl
//! event) loads the release register.
//!
//! Timing (`docs/fpga.md`): stage B's late inputs are the RAM words (block
//! RAM clock-to-output, then the forwarding multiplexer), so the decisions
//! that read them are written to take them last and to reach few flops: the
//! arrival's acceptance is the checks on stage A's registers (`pre_ok`)
//! AND the word compares (`form_bad`, `kind_bad`); `last_all` takes its own enable
//! (`last_ok`: the "all" form needs no count compare); the count compare is
//! made on both sources of the count word before the forwarding select
//! (`count_ram.rs`); and the completion decision `done` reaches only the
//! release register's valid flop (its fields load every cycle) and the
//! barrier's `active` bit — no per-warp register: the warp table derives
//! a warp's waiting from `blocked` and the release register. An exit's
//! look-ups in stage A start on the warp's slot register and take stage
//! B's launch last, and stage C compares with the slot's live count
//! registered in stage B rather than looked up.
//!
//! Every output is low while `reset` is high (the model returns
//! `BarOutputs::default()` in a reset cycle).
//!
//! Blocks:
//! - [`StageRegs`] (`stage_regs.rs`): the A→B and B→C registers.
//! - [`WarpTable`] (`warp_table.rs`): per-warp live / slot / blocked / barrier id; release mask; an exit's candidate barrier.
//! - [`SlotTable`] (`slot_table.rs`): per slot busy / size / live and the 16 `active` bits.
//! - [`BarrierRam`] (`barrier_ram.rs`), three of them: the barrier words in block RAM —
//!   flags (`all`, `kind`, `and_acc`, `or_acc`), `expected`, `popc`.
//! - [`CountRam`] (`count_ram.rs`): the arrival counts in block RAM, with
//!   the completion compare (`count + 1 >= target`). Both are built on
//!   `RamFwd` (`hw/hdl_kit/src/ram_fwd.rs`): the RAM and its last write kept for forwarding.
//! - [`ReleaseReg`] (`release_reg.rs`): the `rel_*` register.
//! - [`BarrierAddr`] (`barrier_addr.rs`), three of them: the RAM address {slot, id}.
//! - [`Popcount`] (`popcount.rs`): predicate popcount, launched CTA size.
//!
//! Const generics (derived from a `BarConfig` by `dispatch.rs`): W warps,
//! WB = log2 W, C CTA slots, SB slot bits, CB = WB + 1, RB = WB + 6,
//! AB = SB + 4 (barrier RAM address {slot, id}). Ports are
//! the contract's, same names and widths.

use bar_unit_model::ports::{errc, op};
use rust_hdl::prelude::*;

use crate::barrier_addr::BarrierAddr;
use crate::barrier_ram::BarrierRam;
use crate::count_ram::CountRam;
use crate::popcount::Popcount;
use crate::release_reg::ReleaseReg;
use crate::slot_table::SlotTable;
use crate::stage_regs::StageRegs;
use crate::warp_table::WarpTable;

/// The named-barrier unit.
#[derive(LogicBlock)]
pub struct BarUnit<
    const W: usize,
    const WB: usize,
    const C: usize,
    const SB: usize,
    const CB: usize,
    const RB: usize,
    const AB: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_warp: Signal<In, Bits<WB>>,
    pub req_op: Signal<In, Bits<3>>,
    pub req_id: Signal<In, Bits<4>>,
    pub req_all: Signal<In, Bit>,
    pub req_count: Signal<In, Bits<CB>>,
    pub req_pred: Signal<In, Bits<32>>,
    pub ctl_valid: Signal<In, Bit>,
    pub ctl_op: Signal<In, Bit>,
    pub ctl_slot: Signal<In, Bits<SB>>,
    pub ctl_warps: Signal<In, Bits<W>>,
    pub ctl_warp: Signal<In, Bits<WB>>,
    pub rel_valid: Signal<Out, Bit>,
    pub rel_slot: Signal<Out, Bits<SB>>,
    pub rel_id: Signal<Out, Bits<4>>,
    pub rel_mask: Signal<Out, Bits<W>>,
    pub rel_op: Signal<Out, Bits<3>>,
    pub rel_result: Signal<Out, Bits<RB>>,
    pub blocked: Signal<Out, Bits<W>>,
    pub err: Signal<Out, Bit>,
    pub err_code: Signal<Out, Bits<4>>,
    regs: StageRegs<W, WB, SB, CB, RB>,
    warps: WarpTable<W, WB, SB>,
    slots: SlotTable<C, SB, CB>,
    /// Barrier words: flags = {or_acc, and_acc, kind (3), all} (bit 0 `all`).
    ram_flags: BarrierRam<Bits<6>, AB>,
    ram_expected: BarrierRam<Bits<CB>, AB>,
    ram_count: CountRam<CB, AB>,
    ram_popc: BarrierRam<Bits<RB>, AB>,
    rel: ReleaseReg<W, SB, RB>,
    /// RAM addresses {slot, id}: stage A's request, stage B's EXIT candidate, stage B's arrival.
    req_addr: BarrierAddr<SB, AB>,
    exit_addr: BarrierAddr<SB, AB>,
    arr_addr: BarrierAddr<SB, AB>,
    pred_pop: Popcount<32, RB>,
    size_pop: Popcount<W, CB>,
    /// Stage A: the request's warp may be blocked by its own request in
    /// stage B; the barrier's `active` bit with stage B's and C's writes forwarded.
    a_behind: Signal<Local, Bit>,
    a_active: Signal<Local, Bit>,
    /// The RAM read address (stage A), the arrival's write address and flags word (stage B).
    rd_addr: Signal<Local, Bits<AB>>,
    wr_en: Signal<Local, Bit>,
    wr_addr: Signal<Local, Bits<AB>>,
    wr_flags: Signal<Local, Bits<6>>,
    /// Stage B (and C): fields of the barrier word read.
    rd_all: Signal<Local, Bit>,
    rd_kind: Signal<Local, Bits<3>>,
    rd_and: Signal<Local, Bit>,
    rd_or: Signal<Local, Bit>,
    b_active: Signal<Local, Bit>,
    /// The request's phase kind (0 plain, else the reduction op) and whether it blocks.
    arr_kind: Signal<Local, Bits<3>>,
    arr_blocks: Signal<Local, Bit>,
    code: Signal<Local, Bits<4>>,
    arr_ok: Signal<Local, Bit>,
    /// Stage B's arrival passes every check on stage A's registers.
    pre_ok: Signal<Local, Bit>,
    /// Stage B's request checks (`request_error`'s causes).
    bad_op: Signal<Local, Bit>,
    arrive_all: Signal<Local, Bit>,
    zero_count: Signal<Local, Bit>,
    /// The barrier's RAM words disagree with the arrival's form or count.
    form_bad: Signal<Local, Bit>,
    /// ... with its reduction kind.
    kind_bad: Signal<Local, Bit>,
    /// An "all" arrival is taken (`arr_ok & b_all`, without the count compare).
    last_ok: Signal<Local, Bit>,
    launch_ok: Signal<Local, Bit>,
    exit_ok: Signal<Local, Bit>,
    /// The arrival's barrier after the arrival.
    new_count: Signal<Local, Bits<CB>>,
    new_popc: Signal<Local, Bits<RB>>,
    new_and: Signal<Local, Bit>,
    new_or: Signal<Local, Bit>,
    arr_done: Signal<Local, Bit>,
    /// Stage C: the exit's barrier completes.
    c_done: Signal<Local, Bit>,
    /// Stage B's EXIT: its slot's live count after it.
    x_live_dec: Signal<Local, Bits<CB>>,
    /// The completing barrier (stage B's arrival or stage C's exit).
    done: Signal<Local, Bit>,
    done_slot: Signal<Local, Bits<SB>>,
    done_id: Signal<Local, Bits<4>>,
    done_kind: Signal<Local, Bits<3>>,
    done_result: Signal<Local, Bits<RB>>,
    /// Its reduction accumulators.
    done_popc: Signal<Local, Bits<RB>>,
    done_and: Signal<Local, Bit>,
    done_or: Signal<Local, Bit>,
    op_arrive: Constant<Bits<3>>,
    k_popc: Constant<Bits<3>>,
    k_and: Constant<Bits<3>>,
    k_or: Constant<Bits<3>>,
    one: Constant<Bits<CB>>,
    one_rb: Constant<Bits<RB>>,
    f_all: Constant<Bits<6>>,
    f_k0: Constant<Bits<6>>,
    f_k1: Constant<Bits<6>>,
    f_k2: Constant<Bits<6>>,
    f_and: Constant<Bits<6>>,
    f_or: Constant<Bits<6>>,
    c_bad_op: Constant<Bits<4>>,
    c_no_cta: Constant<Bits<4>>,
    c_arrive_no_count: Constant<Bits<4>>,
    c_zero_count: Constant<Bits<4>>,
    c_count_too_big: Constant<Bits<4>>,
    c_count_mismatch: Constant<Bits<4>>,
    c_kind_mix: Constant<Bits<4>>,
    c_slot_range: Constant<Bits<4>>,
    c_slot_busy: Constant<Bits<4>>,
    c_bad_warps: Constant<Bits<4>>,
    c_exit_not_live: Constant<Bits<4>>,
    c_exit_blocked: Constant<Bits<4>>,
}

fn code(c: u8) -> Constant<Bits<4>> {
    Constant::new((c as u64).into())
}

impl<
        const W: usize,
        const WB: usize,
        const C: usize,
        const SB: usize,
        const CB: usize,
        const RB: usize,
        const AB: usize,
    > Default for BarUnit<W, WB, C, SB, CB, RB, AB>
{
    fn default() -> Self {
        debug_assert_eq!((1 << WB, CB, RB, AB), (W, WB + 1, WB + 6, SB + 4));
        debug_assert!(C <= 1 << SB);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_warp: Default::default(),
            req_op: Default::default(),
            req_id: Default::default(),
            req_all: Default::default(),
            req_count: Default::default(),
            req_pred: Default::default(),
            ctl_valid: Default::default(),
            ctl_op: Default::default(),
            ctl_slot: Default::default(),
            ctl_warps: Default::default(),
            ctl_warp: Default::default(),
            rel_valid: Default::default(),
            rel_slot: Default::default(),
            rel_id: Default::default(),
            rel_mask: Default::default(),
            rel_op: Default::default(),
            rel_result: Default::default(),
            blocked: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            regs: Default::default(),
            warps: Default::default(),
            slots: Default::default(),
            ram_flags: Default::default(),
            ram_expected: Default::default(),
            ram_count: Default::default(),
            ram_popc: Default::default(),
            rel: Default::default(),
            req_addr: Default::default(),
            exit_addr: Default::default(),
            arr_addr: Default::default(),
            pred_pop: Default::default(),
            size_pop: Default::default(),
            a_behind: Default::default(),
            a_active: Default::default(),
            rd_addr: Default::default(),
            wr_en: Default::default(),
            wr_addr: Default::default(),
            wr_flags: Default::default(),
            rd_all: Default::default(),
            rd_kind: Default::default(),
            rd_and: Default::default(),
            rd_or: Default::default(),
            b_active: Default::default(),
            arr_kind: Default::default(),
            arr_blocks: Default::default(),
            code: Default::default(),
            arr_ok: Default::default(),
            pre_ok: Default::default(),
            bad_op: Default::default(),
            arrive_all: Default::default(),
            zero_count: Default::default(),
            form_bad: Default::default(),
            kind_bad: Default::default(),
            last_ok: Default::default(),
            launch_ok: Default::default(),
            exit_ok: Default::default(),
            new_count: Default::default(),
            new_popc: Default::default(),
            new_and: Default::default(),
            new_or: Default::default(),
            arr_done: Default::default(),
            c_done: Default::default(),
            x_live_dec: Default::default(),
            done: Default::default(),
            done_slot: Default::default(),
            done_id: Default::default(),
            done_kind: Default::default(),
            done_result: Default::default(),
            done_popc: Default::default(),
            done_and: Default::default(),
            done_or: Default::default(),
            op_arrive: Constant::new((op::ARRIVE as u64).into()),
            k_popc: Constant::new((op::RED_POPC as u64).into()),
            k_and: Constant::new((op::RED_AND as u64).into()),
            k_or: Constant::new((op::RED_OR as u64).into()),
            one: Constant::new(1u64.into()),
            one_rb: Constant::new(1u64.into()),
            f_all: Constant::new(1u64.into()),
            f_k0: Constant::new(2u64.into()),
            f_k1: Constant::new(4u64.into()),
            f_k2: Constant::new(8u64.into()),
            f_and: Constant::new(16u64.into()),
            f_or: Constant::new(32u64.into()),
            c_bad_op: code(errc::BAD_OP),
            c_no_cta: code(errc::NO_CTA),
            c_arrive_no_count: code(errc::ARRIVE_NO_COUNT),
            c_zero_count: code(errc::ZERO_COUNT),
            c_count_too_big: code(errc::COUNT_TOO_BIG),
            c_count_mismatch: code(errc::COUNT_MISMATCH),
            c_kind_mix: code(errc::KIND_MIX),
            c_slot_range: code(errc::SLOT_RANGE),
            c_slot_busy: code(errc::SLOT_BUSY),
            c_bad_warps: code(errc::BAD_WARPS),
            c_exit_not_live: code(errc::EXIT_NOT_LIVE),
            c_exit_blocked: code(errc::EXIT_BLOCKED),
        }
    }
}

impl<
        const W: usize,
        const WB: usize,
        const C: usize,
        const SB: usize,
        const CB: usize,
        const RB: usize,
        const AB: usize,
    > Logic for BarUnit<W, WB, C, SB, CB, RB, AB>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(
            self,
            clock,
            regs,
            warps,
            slots,
            ram_flags,
            ram_expected,
            ram_count,
            ram_popc,
            rel
        );
        self.regs.reset.next = self.reset.val();
        self.warps.reset.next = self.reset.val();
        self.slots.reset.next = self.reset.val();
        self.ram_flags.reset.next = self.reset.val();
        self.ram_expected.reset.next = self.reset.val();
        self.ram_count.reset.next = self.reset.val();
        self.ram_popc.reset.next = self.reset.val();
        self.rel.reset.next = self.reset.val();

        // ---- Stage A: handshake, RAM read, into the stage registers ----
        self.pred_pop.bits.next = self.req_pred.val();
        self.size_pop.bits.next = self.ctl_warps.val();
        self.warps.a_warp.next = self.req_warp.val();
        self.a_behind.next = self.regs.b_valid.val()
            & !self.regs.b_ctl.val()
            & (self.regs.b_warp.val() == self.req_warp.val())
            & (self.regs.b_op.val() != self.op_arrive.val());
        self.req_ready.next = self.req_valid.val()
            & !self.ctl_valid.val()
            & !(self.regs.b_valid.val() & self.regs.b_ctl.val())
            & !self.warps.a_blocked.val()
            & !self.a_behind.val();
        self.regs.take_req.next = self.req_ready.val() & !self.reset.val();
        self.regs.take_ctl.next = self.ctl_valid.val() & !self.reset.val();
        self.regs.in_warp.next = self.req_warp.val();
        self.regs.in_op.next = self.req_op.val();
        self.regs.in_id.next = self.req_id.val();
        self.regs.in_all.next = self.req_all.val();
        self.regs.in_count.next = self.req_count.val();
        self.regs.in_popc.next = self.pred_pop.count.val();
        self.regs.in_and.next = self.req_pred.val().all();
        self.regs.in_or.next = self.req_pred.val().any();
        self.regs.in_ctl_op.next = self.ctl_op.val();
        self.regs.in_slot.next = self.ctl_slot.val();
        self.regs.in_warps.next = self.ctl_warps.val();
        self.regs.in_size.next = self.size_pop.count.val();
        self.regs.in_ctl_warp.next = self.ctl_warp.val();
        // The RAM reads the request's barrier, or, while stage B holds an
        // EXIT (no request is taken then), the barrier it may complete.
        self.req_addr.slot.next = self.warps.a_slot.val();
        self.req_addr.id.next = self.req_id.val();
        self.exit_addr.slot.next = self.regs.b_x_slot.val();
        self.exit_addr.id.next = self.regs.b_x_last.val();
        self.rd_addr.next = self.req_addr.addr.val();
        if self.regs.b_valid.val() & self.regs.b_ctl.val() & self.regs.b_ctl_op.val() {
            self.rd_addr.next = self.exit_addr.addr.val();
        }
        self.ram_flags.rd_addr.next = self.rd_addr.val();
        self.ram_expected.rd_addr.next = self.rd_addr.val();
        self.ram_count.rd_addr.next = self.rd_addr.val();
        self.ram_popc.rd_addr.next = self.rd_addr.val();

        // ---- Stage B: check and apply the taken event ----
        self.warps.req_warp.next = self.regs.b_warp.val();
        self.warps.req_id.next = self.regs.b_id.val();
        self.warps.ctl_warp.next = self.regs.b_ctl_warp.val();
        self.slots.w_slot.next = self.regs.b_rslot.val();
        self.slots.w_id.next = self.regs.b_id.val();
        self.slots.l_slot.next = self.regs.b_slot.val();
        self.slots.x_slot.next = self.regs.b_x_slot.val();
        self.x_live_dec.next = self.regs.b_x_sdec.val();
        self.slots.x_live_dec.next = self.x_live_dec.val();
        self.slots.x_empty.next = self.regs.b_x_sempty.val();
        self.slots.c_slot.next = self.regs.c_slot.val();
        self.slots.c_id.next = self.regs.c_id.val();
        self.b_active.next = self.regs.b_active.val();
        self.rd_all.next = self.ram_flags.rd_data.val().get_bit(0);
        self.rd_kind.next = self.ram_flags.rd_data.val().get_bits::<3>(1);
        self.rd_and.next = self.ram_flags.rd_data.val().get_bit(4);
        self.rd_or.next = self.ram_flags.rd_data.val().get_bit(5);

        // Kind of the request (valid for ops 0..4): 2, 3, 4 reduce.
        self.arr_kind.next = 0.into();
        if self.regs.b_op.val().get_bit(1) | self.regs.b_op.val().get_bit(2) {
            self.arr_kind.next = self.regs.b_op.val();
        }
        self.arr_blocks.next = self.regs.b_op.val() != self.op_arrive.val();

        // Stage B's request checks, each stated once (the error chain below
        // gives their priority, `pre_ok`/`arr_ok` their conjunction).
        self.bad_op.next = self.regs.b_op.val().get_bit(2)
            & (self.regs.b_op.val().get_bit(1) | self.regs.b_op.val().get_bit(0));
        self.arrive_all.next =
            (self.regs.b_op.val() == self.op_arrive.val()) & self.regs.b_all.val();
        self.zero_count.next = !self.regs.b_all.val() & !self.regs.b_count.val().any();
        // The barrier's RAM words disagree with the arrival: its form (or
        // expected count), its reduction kind.
        self.form_bad.next = (self.rd_all.val() != self.regs.b_all.val())
            | (!self.regs.b_all.val()
                & (self.ram_expected.rd_data.val() != self.regs.b_count.val()));
        self.kind_bad.next = self.rd_kind.val() != self.arr_kind.val();

        self.code.next = 0.into();
        self.launch_ok.next = false;
        self.exit_ok.next = false;
        if self.regs.b_valid.val() & self.regs.b_ctl.val() {
            if !self.regs.b_ctl_op.val() {
                if !self.slots.l_in_range.val() {
                    self.code.next = self.c_slot_range.val();
                } else if self.slots.l_busy.val() {
                    self.code.next = self.c_slot_busy.val();
                } else if !self.regs.b_warps.val().any()
                    | (self.regs.b_warps.val() & self.warps.live.val()).any()
                {
                    self.code.next = self.c_bad_warps.val();
                } else {
                    self.launch_ok.next = true;
                }
            } else if !self.regs.b_x_wlive.val() {
                self.code.next = self.c_exit_not_live.val();
            } else if self.regs.b_x_blocked.val() {
                self.code.next = self.c_exit_blocked.val();
            } else {
                self.exit_ok.next = true;
            }
        } else if self.regs.b_valid.val() {
            if self.bad_op.val() {
                self.code.next = self.c_bad_op.val();
            } else if !self.regs.b_wlive.val() {
                self.code.next = self.c_no_cta.val();
            } else if self.arrive_all.val() {
                self.code.next = self.c_arrive_no_count.val();
            } else if self.zero_count.val() {
                self.code.next = self.c_zero_count.val();
            } else if self.regs.b_too_big.val() {
                self.code.next = self.c_count_too_big.val();
            } else if self.b_active.val() & self.form_bad.val() {
                self.code.next = self.c_count_mismatch.val();
            } else if self.b_active.val() & self.kind_bad.val() {
                self.code.next = self.c_kind_mix.val();
            }
        }
        // The same decision as the chain's last `else`, written as an AND
        // whose late inputs (the RAM words) enter last: the checks on stage
        // A's registers (`pre_ok`) settle while the RAM is read, so the
        // accept decision is the word compares plus one AND.
        self.pre_ok.next = self.regs.b_valid.val()
            & !self.regs.b_ctl.val()
            & !self.bad_op.val()
            & self.regs.b_wlive.val()
            & !self.arrive_all.val()
            & !self.zero_count.val()
            & !self.regs.b_too_big.val();
        self.arr_ok.next = self.pre_ok.val()
            & !(self.b_active.val() & (self.form_bad.val() | self.kind_bad.val()));
        // `arr_ok & b_all`, for `last_all`: with the "all" form `form_bad` is
        // `!rd_all` (no count compare), so that compare is left out of this path.
        self.last_ok.next = self.pre_ok.val()
            & self.regs.b_all.val()
            & !(self.b_active.val() & (!self.rd_all.val() | self.kind_bad.val()));

        // The arrival: a closed barrier opens a phase with this arrival's
        // values; an open one accumulates (form and kind were checked equal).
        if self.b_active.val() {
            self.new_count.next = self.ram_count.rd_data.val() + self.one.val();
            self.new_popc.next = self.ram_popc.rd_data.val() + self.regs.b_popc.val();
            self.new_and.next = self.rd_and.val() & self.regs.b_and.val();
            self.new_or.next = self.rd_or.val() | self.regs.b_or.val();
        } else {
            self.new_count.next = self.one.val();
            self.new_popc.next = self.regs.b_popc.val();
            self.new_and.next = self.regs.b_and.val();
            self.new_or.next = self.regs.b_or.val();
        }
        // count + 1 >= target, with target − 1 and target <= 1 from stage A.
        // (The count RAM compares its word with the target on both of the
        // word's sources: `count_ram.rs`.)
        self.ram_count.target_m1.next = self.regs.b_target_m1.val();
        self.arr_done.next = self.regs.b_target_le1.val();
        if self.b_active.val() {
            self.arr_done.next = self.ram_count.rd_reaches.val();
        }

        // The arrival's writes: the barrier words and its `active` bit.
        // (Not in a reset cycle: reset changes no barrier word.)
        self.wr_en.next = self.arr_ok.val() & !self.reset.val();
        self.ram_flags.wr_en.next = self.wr_en.val();
        self.ram_expected.wr_en.next = self.wr_en.val();
        self.ram_count.wr_en.next = self.wr_en.val();
        self.ram_popc.wr_en.next = self.wr_en.val();
        self.arr_addr.slot.next = self.regs.b_rslot.val();
        self.arr_addr.id.next = self.regs.b_id.val();
        self.wr_addr.next = self.arr_addr.addr.val();
        self.ram_flags.wr_addr.next = self.wr_addr.val();
        self.ram_expected.wr_addr.next = self.wr_addr.val();
        self.ram_count.wr_addr.next = self.wr_addr.val();
        self.ram_popc.wr_addr.next = self.wr_addr.val();
        self.wr_flags.next = 0.into();
        if self.arr_kind.val().get_bit(0) {
            self.wr_flags.next = self.wr_flags.val() | self.f_k0.val();
        }
        if self.arr_kind.val().get_bit(1) {
            self.wr_flags.next = self.wr_flags.val() | self.f_k1.val();
        }
        if self.arr_kind.val().get_bit(2) {
            self.wr_flags.next = self.wr_flags.val() | self.f_k2.val();
        }
        if self.regs.b_all.val() {
            self.wr_flags.next = self.wr_flags.val() | self.f_all.val();
        }
        if self.new_and.val() {
            self.wr_flags.next = self.wr_flags.val() | self.f_and.val();
        }
        if self.new_or.val() {
            self.wr_flags.next = self.wr_flags.val() | self.f_or.val();
        }
        self.ram_flags.wr_data.next = self.wr_flags.val();
        self.ram_expected.wr_data.next = self.regs.b_count.val();
        if self.regs.b_all.val() {
            self.ram_expected.wr_data.next = 0.into();
        }
        self.ram_count.wr_data.next = self.new_count.val();
        self.ram_popc.wr_data.next = self.new_popc.val();
        self.slots.act_en.next = self.arr_ok.val();
        self.slots.act_val.next = !self.arr_done.val();
        self.slots.last_en.next = self.last_ok.val();

        // Launch and exit; an exit hands its candidate barrier to stage C.
        self.slots.launch_en.next = self.launch_ok.val();
        self.slots.launch_size.next = self.regs.b_size.val();
        self.slots.exit_en.next = self.exit_ok.val();
        self.warps.arr_en.next = self.arr_ok.val();
        self.warps.arr_blocks.next = self.arr_blocks.val();
        self.warps.req_blocks.next =
            self.regs.b_valid.val() & !self.regs.b_ctl.val() & self.arr_blocks.val();
        self.warps.launch_en.next = self.launch_ok.val();
        self.warps.launch_slot.next = self.regs.b_slot.val();
        self.warps.launch_warps.next = self.regs.b_warps.val();
        self.warps.exit_en.next = self.exit_ok.val();
        self.regs.c_load.next = self.exit_ok.val() & !self.regs.b_x_sempty.val();
        self.regs.c_slot_in.next = self.regs.b_x_slot.val();
        self.regs.c_id_in.next = self.regs.b_x_last.val();
        // The slot's live count after the exit, which stage C compares the
        // barrier's count with: registered here rather than looked up in
        // stage C (nothing changes it between: the cycle after a ctl event
        // takes no request, and a second ctl event's write lands after C).
        self.regs.c_live_in.next = self.x_live_dec.val();

        // ---- Stage C: the exit's barrier completes if it is an "all" phase ----
        self.c_done.next = self.regs.c_valid.val()
            & self.slots.c_active.val()
            & self.rd_all.val()
            & (self.ram_count.rd_data.val() >= self.regs.c_live.val());
        self.slots.c_clr.next = self.c_done.val();

        // ---- The completion (B or C) into the release register ----
        // Stage C's barrier when stage C holds one (stage B then holds no
        // request), else stage B's: selected by registers, ahead of `done`;
        // then its kind and reduction give the result.
        self.done.next = (self.arr_ok.val() & self.arr_done.val()) | self.c_done.val();
        self.done_slot.next = self.regs.b_rslot.val();
        self.done_id.next = self.regs.b_id.val();
        self.done_kind.next = self.arr_kind.val();
        self.done_popc.next = self.new_popc.val();
        self.done_and.next = self.new_and.val();
        self.done_or.next = self.new_or.val();
        if self.regs.c_valid.val() {
            self.done_slot.next = self.regs.c_slot.val();
            self.done_id.next = self.regs.c_id.val();
            self.done_kind.next = self.rd_kind.val();
            self.done_popc.next = self.ram_popc.rd_data.val();
            self.done_and.next = self.rd_and.val();
            self.done_or.next = self.rd_or.val();
        }
        self.done_result.next = 0.into();
        if self.done_kind.val() == self.k_popc.val() {
            self.done_result.next = self.done_popc.val();
        }
        if (self.done_kind.val() == self.k_and.val()) & self.done_and.val() {
            self.done_result.next = self.one_rb.val();
        }
        if (self.done_kind.val() == self.k_or.val()) & self.done_or.val() {
            self.done_result.next = self.one_rb.val();
        }
        self.warps.done_slot.next = self.done_slot.val();
        self.warps.done_id.next = self.done_id.val();
        self.warps.rel_valid.next = self.rel.rel_valid.val();
        self.warps.rel_mask.next = self.rel.rel_mask.val();
        self.rel.done.next = self.done.val();
        self.rel.done_slot.next = self.done_slot.val();
        self.rel.done_id.next = self.done_id.val();
        self.rel.done_mask.next = self.warps.rel_cand.val();
        self.rel.done_kind.next = self.done_kind.val();
        self.rel.done_result.next = self.done_result.val();

        // ---- Stage A's look-ups (after B and C: it forwards their writes) ----
        // Stage B's request changes none of them but the
        // barrier's `active` bit, stage C's completion only that bit: both forwarded.
        self.slots.a_slot.next = self.warps.a_slot.val();
        self.slots.a_id.next = self.req_id.val();
        self.regs.in_rslot.next = self.warps.a_slot.val();
        self.regs.in_wlive.next = self.warps.a_live.val();
        self.slots.a_count.next = self.req_count.val();
        self.regs.in_too_big.next = !self.req_all.val() & self.slots.a_too_big.val();
        // (Each form's target computed, then selected: the slot's live count
        // comes late, through two look-ups.)
        if self.req_all.val() {
            self.regs.in_target_m1.next = self.slots.a_live_m1.val();
            self.regs.in_target_le1.next = self.slots.a_live_le1.val();
        } else {
            self.regs.in_target_m1.next = self.req_count.val() - self.one.val();
            self.regs.in_target_le1.next = self.req_count.val() <= self.one.val();
        }
        self.a_active.next = self.slots.a_active.val();
        if self.arr_ok.val()
            & (self.regs.b_rslot.val() == self.warps.a_slot.val())
            & (self.regs.b_id.val() == self.req_id.val())
        {
            self.a_active.next = !self.arr_done.val();
        }
        if self.c_done.val()
            & (self.regs.c_slot.val() == self.warps.a_slot.val())
            & (self.regs.c_id.val() == self.req_id.val())
        {
            self.a_active.next = false;
        }
        self.regs.in_active.next = self.a_active.val();
        // The EXIT's warp and slot, after this edge's launch, exit, arrival
        // and release (stage B checks and applies the exit from these).
        self.warps.x_warp.next = self.ctl_warp.val();
        self.slots.n_slot.next = self.warps.x_slot_q.val();
        self.slots.n_launch.next = self.warps.x_launch.val();
        self.regs.in_x_wlive.next = self.warps.x_live_n.val();
        self.regs.in_x_blocked.next = self.warps.x_blocked_n.val();
        self.regs.in_x_slot.next = self.warps.x_slot_n.val();
        self.regs.in_x_sdec.next = self.slots.n_dec.val();
        self.regs.in_x_sempty.next = self.slots.n_one.val();
        self.regs.in_x_last.next = self.slots.n_last.val();

        // Outputs, all low in a reset cycle.
        self.err.next = self.code.val().any();
        self.err_code.next = self.code.val();
        self.rel_valid.next = self.rel.rel_valid.val();
        self.rel_slot.next = self.rel.rel_slot.val();
        self.rel_id.next = self.rel.rel_id.val();
        self.rel_mask.next = self.rel.rel_mask.val();
        self.rel_op.next = self.rel.rel_op.val();
        self.rel_result.next = self.rel.rel_result.val();
        self.blocked.next = self.warps.blocked.val();
        if self.reset.val() {
            self.req_ready.next = false;
            self.err.next = false;
            self.err_code.next = 0.into();
            self.rel_valid.next = false;
            self.rel_slot.next = 0.into();
            self.rel_id.next = 0.into();
            self.rel_mask.next = 0.into();
            self.rel_op.next = 0.into();
            self.rel_result.next = 0.into();
            self.blocked.next = 0.into();
        }
    }
}

//! `membar_unit`: the SM memory-barrier unit (SPEC.md), top level.
//!
//! The RTL twin of the reference model `membar_unit_model::membar_unit` (`State` is
//! the union of the blocks' flops, `eval` the union of their kernels). This
//! block only wires the five blocks together and to the SPEC.md ports, ORs
//! the error sources into `err`, and forces every output low while `reset`
//! is high (the model's reset contract: no handshake happens in a reset
//! cycle). It holds no state.
//!
//! Blocks:
//! - [`RequestGate`] (`request_gate.rs`): accept/refuse, warp blocking,
//!   CTA-pending warps, release mask.
//! - [`Coalescer`] (`coalescer.rs`): the open slot; close and join decisions.
//! - [`CommitCounters`](crate::commit_counters::CommitCounters) (`commit_counters.rs`): per-slot outstanding-TXN
//!   counters and the `ack` check, held through [`CounterBank`]
//!   (`counter_bank.rs`) so that the counter width is not a type parameter here.
//! - [`SlotRing`] (`slot_ring.rs`): per-slot members/level/ivall/flags, the
//!   `bar_ack` check and the in-order release walk.
//! - [`CmdStream`] (`cmd_stream.rs`): output register and INVAL/BARRIER sequencer.
//!
//! Const generics (the dispatcher in `dispatch.rs` derives them from a
//! `Config`): W warps, WB = log2 W, K slots, TB = log2 K, MB = WB + 1 (width
//! of the member count). The counter width is chosen at construction (see
//! `counter_bank.rs`); the other parameters are constants inside the blocks.
//! Ports are the SPEC.md ports, same names and widths.

use membar_unit_model::config::LevelMix;
use membar_unit_model::Config;
use rust_hdl::prelude::*;

use crate::cmd_stream::CmdStream;
use crate::coalescer::Coalescer;
use crate::counter_bank::CounterBank;
use crate::request_gate::RequestGate;
use crate::slot_ring::SlotRing;

/// The memory-barrier unit (W warps, K slots; WB, TB, MB derived).
#[derive(LogicBlock)]
pub struct MembarUnit<
    const W: usize,
    const WB: usize,
    const K: usize,
    const TB: usize,
    const MB: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req_valid: Signal<In, Bit>,
    pub req_ready: Signal<Out, Bit>,
    pub req_warp: Signal<In, Bits<WB>>,
    pub req_op: Signal<In, Bits<3>>,
    pub req_level: Signal<In, Bits<2>>,
    pub req_ivall: Signal<In, Bits<2>>,
    pub req_id: Signal<In, Bits<16>>,
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
    pub warp_blocked: Signal<Out, Bits<W>>,
    pub release_valid: Signal<Out, Bit>,
    pub release_mask: Signal<Out, Bits<W>>,
    pub err: Signal<Out, Bit>,
    request: RequestGate<W, WB>,
    coalescer: Coalescer<K, TB, MB>,
    counters: CounterBank<K, TB>,
    ring: SlotRing<W, K, TB>,
    cmd: CmdStream<WB, TB>,
}

impl<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize>
    MembarUnit<W, WB, K, TB, MB>
{
    /// The unit for `cfg`, whose `warps` and `slots` must be W and K (the
    /// dispatcher guarantees it); `Err` for an unsupported `counter_bits`.
    pub fn new(cfg: &Config) -> Result<Self, String> {
        debug_assert_eq!((cfg.warps as usize, cfg.slots as usize), (W, K));
        debug_assert_eq!((1 << WB, 1 << TB, MB), (W, K, WB + 1));
        Ok(Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_ready: Default::default(),
            req_warp: Default::default(),
            req_op: Default::default(),
            req_level: Default::default(),
            req_ivall: Default::default(),
            req_id: Default::default(),
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
            warp_blocked: Default::default(),
            release_valid: Default::default(),
            release_mask: Default::default(),
            err: Default::default(),
            request: Default::default(),
            coalescer: Coalescer::new(
                cfg.ways,
                cfg.coalesce_window,
                cfg.lone_window,
                cfg.max_outstanding,
                cfg.level_mix == LevelMix::Split,
            ),
            counters: CounterBank::new(cfg.counter_bits)?,
            ring: SlotRing::new(cfg.gl_bar_ack),
            cmd: Default::default(),
        })
    }
}

impl<const W: usize, const WB: usize, const K: usize, const TB: usize, const MB: usize> Logic
    for MembarUnit<W, WB, K, TB, MB>
{
    #[hdl_gen]
    fn update(&mut self) {
        clock!(self, clock, request, coalescer, ring, cmd);
        self.counters.io.clock.next = self.clock.val();
        self.request.reset.next = self.reset.val();
        self.coalescer.reset.next = self.reset.val();
        self.counters.io.reset.next = self.reset.val();
        self.ring.reset.next = self.reset.val();
        self.cmd.reset.next = self.reset.val();

        // Request gate.
        self.request.req_valid.next = self.req_valid.val();
        self.request.req_warp.next = self.req_warp.val();
        self.request.req_op.next = self.req_op.val();
        self.request.req_level.next = self.req_level.val();
        self.request.req_ivall.next = self.req_ivall.val();
        self.request.group_rel.next = self.ring.group_rel.val();
        self.request.out_free.next = self.cmd.out_free.val();
        self.request.seq_busy.next = self.cmd.seq_busy.val();
        self.request.out_txn.next = self.cmd.out_txn.val();
        self.request.dn_warp.next = self.cmd.dn_warp.val();
        self.request.cnt_full.next = self.counters.io.cnt_full.val();
        self.request.accept_join.next = self.coalescer.accept_join.val();
        self.request.join_ok.next = self.coalescer.join_ok.val();

        // Coalescer.
        self.coalescer.joining.next = self.request.joining.val();
        self.coalescer.req_level.next = self.req_level.val();
        self.coalescer.open_level.next = self.ring.open_level.val();
        self.coalescer.closed_set.next = self.ring.closed_set.val();
        self.coalescer.seq_busy.next = self.cmd.seq_busy.val();
        self.coalescer.next_clean.next = self.counters.io.next_clean.val();

        // Commit counters.
        self.counters.io.open_tag.next = self.coalescer.open_tag.val();
        self.counters.io.accept_txn.next = self.request.accept_txn.val();
        self.counters.io.ack_valid.next = self.ack_valid.val();
        self.counters.io.ack_tag.next = self.ack_tag.val();
        self.counters.io.out_txn.next = self.cmd.out_txn.val();
        self.counters.io.out_tag.next = self.cmd.dn_tag.val();

        // Slot ring.
        self.ring.open_tag.next = self.coalescer.open_tag.val();
        self.ring.close.next = self.coalescer.close.val();
        self.ring.accept_join.next = self.coalescer.accept_join.val();
        self.ring.join_tag.next = self.coalescer.join_tag.val();
        self.ring.join_first.next = self.coalescer.join_first.val();
        self.ring.warp_bit.next = self.request.warp_bit.val();
        self.ring.req_level.next = self.req_level.val();
        self.ring.req_ivall.next = self.req_ivall.val();
        self.ring.zero_next.next = self.counters.io.zero_next.val();
        self.ring.bar_fire.next = self.cmd.bar_fire.val();
        self.ring.out_tag.next = self.cmd.dn_tag.val();
        self.ring.seq_tag.next = self.cmd.seq_tag.val();
        self.ring.bar_ack_valid.next = self.bar_ack_valid.val();
        self.ring.bar_ack_tag.next = self.bar_ack_tag.val();

        // Command stream.
        self.cmd.dn_ready.next = self.dn_ready.val();
        self.cmd.accept_txn.next = self.request.accept_txn.val();
        self.cmd.req_warp.next = self.req_warp.val();
        self.cmd.req_op.next = self.req_op.val();
        self.cmd.req_id.next = self.req_id.val();
        self.cmd.open_tag.next = self.coalescer.open_tag.val();
        self.cmd.close.next = self.coalescer.close.val();
        self.cmd.open_ivall.next = self.ring.open_ivall.val();
        self.cmd.seq_level.next = self.ring.seq_level.val();
        self.cmd.seq_ack_req.next = self.ring.seq_ack_req.val();

        // Outputs, all low during reset.
        self.req_ready.next = self.request.req_ready.val();
        self.dn_valid.next = self.cmd.dn_valid.val();
        self.dn_kind.next = self.cmd.dn_kind.val();
        self.dn_tag.next = self.cmd.dn_tag.val();
        self.dn_warp.next = self.cmd.dn_warp.val();
        self.dn_op.next = self.cmd.dn_op.val();
        self.dn_level.next = self.cmd.dn_level.val();
        self.dn_ack_req.next = self.cmd.dn_ack_req.val();
        self.dn_id.next = self.cmd.dn_id.val();
        self.warp_blocked.next = self.request.warp_blocked.val();
        self.release_valid.next = self.request.release_valid.val();
        self.release_mask.next = self.request.release_mask.val();
        self.err.next = self.request.reserved_err.val()
            | self.counters.io.ack_err.val()
            | self.ring.bar_ack_err.val();
        if self.reset.val() {
            self.req_ready.next = false;
            self.dn_valid.next = false;
            self.dn_kind.next = 0.into();
            self.dn_tag.next = 0.into();
            self.dn_warp.next = 0.into();
            self.dn_op.next = 0.into();
            self.dn_level.next = 0.into();
            self.dn_ack_req.next = false;
            self.dn_id.next = 0.into();
            self.warp_blocked.next = 0.into();
            self.release_valid.next = false;
            self.release_mask.next = 0.into();
            self.err.next = false;
        }
    }
}

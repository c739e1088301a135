//! One warp of the async-group tracker: its committed groups, its open
//! group, its wait register, and the cycle's update (reports, the accepted
//! operation, in-order retirement).
//!
//! Implements `mbarrier_unit_model::async_groups::WarpGroups` and the
//! per-warp part of `eval` cycle for cycle, in another representation than
//! the model's (the ports cannot tell them apart):
//!
//! | model (per committed group) | here |
//! | --- | --- |
//! | every pending group in a ring of G slots | only the **non-empty** groups (writes left at their commit ≠ 0) take a slot, in the ring `[head, tail)` (`any`: the ring is not empty); an empty group takes no slot |
//! | writes left, reads left (two counters per slot) | `tot[s]`: the group's writes left when it was committed, written only then; `seq[s]`: its commit number (`cc` at its commit, mod 2^NB) |
//! | `n`, the pending groups | `n`, a register: +1 per commit (not an empty one with no slot: it retires at once); at the head's retirement `cc − seq[head + 1]` (the next slot's group and every later one), or 1 or 0 without a next slot |
//! | the head group's writes left | `tot[head] − wdone` |
//! | the oldest group with reads left (the read frontier) | slot `f` while `unr`; its reads left `tot[f] − rdone`; `f = tail` while no slot has reads left |
//! | the groups still reading (`.read`) | `rp`, a register: +1 per commit while `unr`; when the frontier moves to slot `f + 1`, `cc − seq[f + 1]`; 1 when a new group becomes the frontier; 0 without `unr` |
//!
//! This holds because the copy engine reports reads and completions in issue
//! order per warp: only the head group is written, only the frontier group
//! is read, every group past the frontier has all its operations unread,
//! and every group past the head all its operations incomplete. So the head
//! and the frontier are pointers that step by one slot: the head's last
//! completion retires it (and the empty groups committed right after it,
//! which have no slot: `n` becomes the count from the next slot's commit
//! number), the frontier's last read moves it on. An empty group is
//! pending only behind a non-empty one (with no slot before it, it retires
//! at the edge of its commit), so no encoder looks for "the oldest group
//! with …". `n` and `rp` are registers, so the release decision is two
//! comparisons on registers.
//!
//! A group committed with reads already done (reported while it was open:
//! possible only when no older group has reads left) is the frontier at its
//! commit, and `rdone` starts at the reads it had done; a group committed
//! with every read done moves the frontier past it. A group committed with
//! no group pending is the head, and its `tot` counts only the completions
//! still due.
//!
//! The cycle:
//! 1. release: a blocked warp whose registered state meets its wait
//!    (`n <= wait_n`, or for `.read` the groups from the frontier to the
//!    youngest `<= wait_n`) is released;
//! 2. a read report (`rd_hit`) counts a read of the frontier group, else of
//!    the open group; with none it is spurious (`rd_bad`); the frontier's
//!    last read moves `f` one slot on (clearing `unr` at the youngest);
//! 3. a completion report (`wr_hit`) counts a completion of the head group if
//!    it has more writes than reads left (after the read report of the same
//!    cycle), else of the open group under the same rule when no group is
//!    committed; otherwise it is spurious (`wr_bad`); the head's last
//!    completion retires it;
//! 4. the accepted operation (`op_hit` and `ready`): bulk into the open
//!    group, commit (a non-empty open group takes slot `tail`; every commit
//!    counts in `cc`), or a wait;
//! 5. retirement: the head's last completion moves `head` one slot on;
//!    `n` and `rp` take their values after the edge.
//!
//! Ports (G = group_depth ≥ 2, HB = log2 G, NB = bits of 0..=G,
//! OB = group_op_bits):
//! - `clock`, `reset` (synchronous: every register to 0).
//! - `rd_hit`, `wr_hit` (in): a read / completion report for this warp.
//! - `op_hit` (in): an operation of this warp is presented (`ag_valid`).
//! - `ag_op` (in, 2), `ag_n` (in, NB): the operation and N of a wait.
//! - `ready` (out): an operation `ag_op` of this warp would be accepted now.
//! - `blocked` (out): the warp waits (registered).
//! - `rel_go` (out): its wait returns this cycle (`release` is a Verilog keyword).
//! - `rd_bad`, `wr_bad` (out): this cycle's report for the warp is spurious.

use rust_hdl::prelude::*;

/// One warp's group tracker.
#[derive(LogicBlock)]
pub struct AgWarp<const G: usize, const HB: usize, const NB: usize, const OB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub rd_hit: Signal<In, Bit>,
    pub wr_hit: Signal<In, Bit>,
    pub op_hit: Signal<In, Bit>,
    pub ag_op: Signal<In, Bits<2>>,
    pub ag_n: Signal<In, Bits<NB>>,
    pub ready: Signal<Out, Bit>,
    pub blocked: Signal<Out, Bit>,
    pub rel_go: Signal<Out, Bit>,
    pub rd_bad: Signal<Out, Bit>,
    pub wr_bad: Signal<Out, Bit>,
    /// Per slot: writes left at the commit, and the commit number.
    tot: [DFF<Bits<OB>>; G],
    seq: [DFF<Bits<NB>>; G],
    /// The ring of non-empty groups `[head, tail)`, not empty while `any`.
    head: DFF<Bits<HB>>,
    tail: DFF<Bits<HB>>,
    any: DFF<Bit>,
    /// The read frontier (`tail` while `unr` is low).
    f: DFF<Bits<HB>>,
    unr: DFF<Bit>,
    /// Commits so far, mod 2^NB.
    cc: DFF<Bits<NB>>,
    /// Pending groups, and groups still reading (from the frontier on).
    n: DFF<Bits<NB>>,
    rp: DFF<Bits<NB>>,
    rdone: DFF<Bits<OB>>,
    wdone: DFF<Bits<OB>>,
    open_rd: DFF<Bits<OB>>,
    open_wr: DFF<Bits<OB>>,
    blk: DFF<Bit>,
    wait_n: DFF<Bits<NB>>,
    wait_rd: DFF<Bit>,
    tail_hot: Signal<Local, Bits<G>>,
    tot_f: Signal<Local, Bits<OB>>,
    tot_h: Signal<Local, Bits<OB>>,
    /// The commit numbers of the slots after the frontier and after the head.
    seq_f1: Signal<Local, Bits<NB>>,
    seq_h1: Signal<Local, Bits<NB>>,
    counted: Signal<Local, Bit>,
    cc_post: Signal<Local, Bits<NB>>,
    met: Signal<Local, Bit>,
    rd_dec_c: Signal<Local, Bit>,
    rd_dec_o: Signal<Local, Bit>,
    rdone_inc: Signal<Local, Bits<OB>>,
    rd_fin: Signal<Local, Bit>,
    rd_seen: Signal<Local, Bits<OB>>,
    f_inc: Signal<Local, Bits<HB>>,
    f_post: Signal<Local, Bits<HB>>,
    unr_post: Signal<Local, Bit>,
    rdone_post: Signal<Local, Bits<OB>>,
    open_rd_post: Signal<Local, Bits<OB>>,
    open_wr_post: Signal<Local, Bits<OB>>,
    f_is_h: Signal<Local, Bit>,
    wr_dec_c: Signal<Local, Bit>,
    wr_dec_o: Signal<Local, Bit>,
    wdone_inc: Signal<Local, Bits<OB>>,
    wr_fin: Signal<Local, Bit>,
    wdone_post: Signal<Local, Bits<OB>>,
    accept: Signal<Local, Bit>,
    do_bulk: Signal<Local, Bit>,
    do_commit: Signal<Local, Bit>,
    do_wait: Signal<Local, Bit>,
    /// A commit of a non-empty group: it takes slot `tail`.
    do_slot: Signal<Local, Bit>,
    tail_inc: Signal<Local, Bits<HB>>,
    tail_post: Signal<Local, Bits<HB>>,
    any_post: Signal<Local, Bit>,
    head_inc: Signal<Local, Bits<HB>>,
    max_ops: Constant<Bits<OB>>,
    full_g: Constant<Bits<NB>>,
    one_o: Constant<Bits<OB>>,
    one_n: Constant<Bits<NB>>,
    one_h: Constant<Bits<HB>>,
    op_bulk: Constant<Bits<2>>,
    op_commit: Constant<Bits<2>>,
    slot_idx: [Constant<Bits<HB>>; G],
}

impl<const G: usize, const HB: usize, const NB: usize, const OB: usize> Default
    for AgWarp<G, HB, NB, OB>
{
    fn default() -> Self {
        // G = 1 is not supported: rust-hdl emits a 1-bit `Bits<1>` without a
        // range, so the one-slot ring's `get_bit(0)` is invalid Verilog.
        // `cc − seq` counts up to G pending groups: G < 2^NB.
        assert!(G.is_power_of_two() && G >= 2 && G == 1 << HB && G < 1 << NB && OB >= 1);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rd_hit: Default::default(),
            wr_hit: Default::default(),
            op_hit: Default::default(),
            ag_op: Default::default(),
            ag_n: Default::default(),
            ready: Default::default(),
            blocked: Default::default(),
            rel_go: Default::default(),
            rd_bad: Default::default(),
            wr_bad: Default::default(),
            tot: std::array::from_fn(|_| Default::default()),
            seq: std::array::from_fn(|_| Default::default()),
            head: Default::default(),
            tail: Default::default(),
            any: Default::default(),
            f: Default::default(),
            unr: Default::default(),
            cc: Default::default(),
            n: Default::default(),
            rp: Default::default(),
            rdone: Default::default(),
            wdone: Default::default(),
            open_rd: Default::default(),
            open_wr: Default::default(),
            blk: Default::default(),
            wait_n: Default::default(),
            wait_rd: Default::default(),
            tail_hot: Default::default(),
            tot_f: Default::default(),
            tot_h: Default::default(),
            seq_f1: Default::default(),
            seq_h1: Default::default(),
            counted: Default::default(),
            cc_post: Default::default(),
            met: Default::default(),
            rd_dec_c: Default::default(),
            rd_dec_o: Default::default(),
            rdone_inc: Default::default(),
            rd_fin: Default::default(),
            rd_seen: Default::default(),
            f_inc: Default::default(),
            f_post: Default::default(),
            unr_post: Default::default(),
            rdone_post: Default::default(),
            open_rd_post: Default::default(),
            open_wr_post: Default::default(),
            f_is_h: Default::default(),
            wr_dec_c: Default::default(),
            wr_dec_o: Default::default(),
            wdone_inc: Default::default(),
            wr_fin: Default::default(),
            wdone_post: Default::default(),
            accept: Default::default(),
            do_bulk: Default::default(),
            do_commit: Default::default(),
            do_wait: Default::default(),
            do_slot: Default::default(),
            tail_inc: Default::default(),
            tail_post: Default::default(),
            any_post: Default::default(),
            head_inc: Default::default(),
            max_ops: Constant::new(((1u64 << OB) - 1).into()),
            full_g: Constant::new((G as u64).into()),
            one_o: Constant::new(1u64.into()),
            one_n: Constant::new(1u64.into()),
            one_h: Constant::new(1u64.into()),
            op_bulk: Constant::new(0u64.into()),
            op_commit: Constant::new(1u64.into()),
            slot_idx: std::array::from_fn(|s| Constant::new((s as u64).into())),
        }
    }
}

impl<const G: usize, const HB: usize, const NB: usize, const OB: usize> Logic
    for AgWarp<G, HB, NB, OB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, head, tail, any, f, unr, cc, n, rp, rdone, wdone, open_rd, open_wr, blk,
            wait_n, wait_rd
        );

        // Registered view: the frontier's and the head's sizes, the commit
        // numbers of the slots after them; the tail slot, one-hot (the
        // commit's write enables).
        self.f_inc.next = self.f.q.val() + self.one_h.val();
        self.head_inc.next = self.head.q.val() + self.one_h.val();
        self.tail_hot.next = 0.into();
        self.tot_f.next = 0.into();
        self.tot_h.next = 0.into();
        self.seq_f1.next = 0.into();
        self.seq_h1.next = 0.into();
        for s in 0..G {
            self.tot[s].clock.next = self.clock.val();
            self.seq[s].clock.next = self.clock.val();
            self.tot[s].d.next = self.tot[s].q.val();
            self.seq[s].d.next = self.seq[s].q.val();
            if self.f.q.val() == self.slot_idx[s].val() {
                self.tot_f.next = self.tot[s].q.val();
            }
            if self.head.q.val() == self.slot_idx[s].val() {
                self.tot_h.next = self.tot[s].q.val();
            }
            if self.f_inc.val() == self.slot_idx[s].val() {
                self.seq_f1.next = self.seq[s].q.val();
            }
            if self.head_inc.val() == self.slot_idx[s].val() {
                self.seq_h1.next = self.seq[s].q.val();
            }
            if self.tail.q.val() == self.slot_idx[s].val() {
                self.tail_hot.next = self.tail_hot.val().replace_bit(s, true);
            }
        }

        // 1. Release on the registered state.
        if self.wait_rd.q.val() {
            self.met.next = self.rp.q.val() <= self.wait_n.q.val();
        } else {
            self.met.next = self.n.q.val() <= self.wait_n.q.val();
        }
        self.blocked.next = self.blk.q.val();
        self.rel_go.next = self.blk.q.val() & self.met.val();
        if self.rel_go.val() {
            self.blk.d.next = false;
        }

        // 2. Read report: the frontier group, else the open group.
        self.rd_dec_c.next = self.rd_hit.val() & self.unr.q.val();
        self.rd_dec_o.next = self.rd_hit.val() & !self.unr.q.val() & self.open_rd.q.val().any();
        self.rd_bad.next = self.rd_hit.val() & !self.unr.q.val() & !self.open_rd.q.val().any();
        self.open_rd_post.next = self.open_rd.q.val();
        if self.rd_dec_o.val() {
            self.open_rd_post.next = self.open_rd.q.val() - self.one_o.val();
        }
        self.rdone_inc.next = self.rdone.q.val() + self.one_o.val();
        self.rd_fin.next = self.rd_dec_c.val() & (self.rdone_inc.val() == self.tot_f.val());
        // Reads of the frontier group seen by this cycle's completion check.
        self.rd_seen.next = self.rdone.q.val();
        if self.rd_dec_c.val() {
            self.rd_seen.next = self.rdone_inc.val();
        }
        self.rdone_post.next = self.rd_seen.val();
        self.f_post.next = self.f.q.val();
        self.unr_post.next = self.unr.q.val();
        if self.rd_fin.val() {
            // The frontier moves on; past the youngest slot none reads.
            self.rdone_post.next = 0.into();
            self.f_post.next = self.f_inc.val();
            self.unr_post.next = self.f_inc.val() != self.tail.q.val();
        }

        // 3. Completion report: the head group, if it has more writes than
        // reads left after this cycle's read report (always, unless it is
        // the frontier: then iff more of its reads than its completions
        // are done), else the open group when no group is committed.
        self.f_is_h.next = self.unr.q.val() & (self.f.q.val() == self.head.q.val());
        self.wr_dec_c.next = self.wr_hit.val()
            & self.any.q.val()
            & (!self.f_is_h.val() | (self.rd_seen.val() > self.wdone.q.val()));
        self.wr_dec_o.next = self.wr_hit.val()
            & !self.any.q.val()
            & (self.open_wr.q.val() > self.open_rd_post.val());
        self.wr_bad.next = self.wr_hit.val() & !self.wr_dec_c.val() & !self.wr_dec_o.val();
        self.open_wr_post.next = self.open_wr.q.val();
        if self.wr_dec_o.val() {
            self.open_wr_post.next = self.open_wr.q.val() - self.one_o.val();
        }
        self.wdone_inc.next = self.wdone.q.val() + self.one_o.val();
        self.wr_fin.next = self.wr_dec_c.val() & (self.wdone_inc.val() == self.tot_h.val());
        self.wdone_post.next = self.wdone.q.val();
        if self.wr_dec_c.val() {
            self.wdone_post.next = self.wdone_inc.val();
        }
        if self.wr_fin.val() {
            self.wdone_post.next = 0.into();
        }

        // 4. The operation (refused while blocked, on a full open group, on G pending groups).
        self.ready.next = false;
        if !self.blk.q.val() {
            if self.ag_op.val() == self.op_bulk.val() {
                self.ready.next = self.open_wr.q.val() != self.max_ops.val();
            } else if self.ag_op.val() == self.op_commit.val() {
                self.ready.next = self.n.q.val() != self.full_g.val();
            } else {
                self.ready.next = true;
            }
        }
        self.accept.next = self.op_hit.val() & self.ready.val();
        self.do_bulk.next = self.accept.val() & (self.ag_op.val() == self.op_bulk.val());
        self.do_commit.next = self.accept.val() & (self.ag_op.val() == self.op_commit.val());
        self.do_wait.next = self.accept.val() & self.ag_op.val().get_bit(1);
        self.do_slot.next = self.do_commit.val() & self.open_wr_post.val().any();
        self.open_rd.d.next = self.open_rd_post.val();
        self.open_wr.d.next = self.open_wr_post.val();
        self.tail_inc.next = self.tail.q.val() + self.one_h.val();
        self.tail_post.next = self.tail.q.val();
        self.any_post.next = self.any.q.val();
        if self.do_bulk.val() {
            self.open_rd.d.next = self.open_rd_post.val() + self.one_o.val();
            self.open_wr.d.next = self.open_wr_post.val() + self.one_o.val();
        }
        self.cc_post.next = self.cc.q.val();
        if self.do_commit.val() {
            self.open_rd.d.next = 0.into();
            self.open_wr.d.next = 0.into();
            self.cc_post.next = self.cc.q.val() + self.one_n.val();
        }
        self.cc.d.next = self.cc_post.val();
        // A commit counts in `n` unless it is empty with no group pending
        // (it retires at once).
        self.counted.next = self.do_commit.val() & (self.any.q.val() | self.do_slot.val());
        if self.do_slot.val() {
            for s in 0..G {
                if self.tail_hot.val().get_bit(s) {
                    self.tot[s].d.next = self.open_wr_post.val();
                    self.seq[s].d.next = self.cc.q.val();
                }
            }
            self.tail_post.next = self.tail_inc.val();
            self.any_post.next = true;
            if self.open_rd_post.val().any() {
                // With reads left it is the frontier if no older group has
                // any, starting with the reads it had done while open.
                if !self.unr_post.val() {
                    self.rdone_post.next = self.open_wr_post.val() - self.open_rd_post.val();
                }
                self.unr_post.next = true;
            } else if !self.unr_post.val() {
                // Every read done: the frontier stays past the youngest.
                self.f_post.next = self.tail_inc.val();
            }
        }
        if self.do_wait.val() {
            self.blk.d.next = true;
            self.wait_n.d.next = self.ag_n.val();
            self.wait_rd.d.next = self.ag_op.val().get_bit(0);
        }
        // The groups still reading after the edge: from a frontier that
        // moved to an older slot, its commit number on; from one that
        // stays, one more per counted commit; from a new group that
        // becomes the frontier, 1.
        if self.rd_fin.val() & (self.f_inc.val() != self.tail.q.val()) {
            self.rp.d.next = self.cc_post.val() - self.seq_f1.val();
        } else if self.unr.q.val() & !self.rd_fin.val() {
            self.rp.d.next = self.rp.q.val();
            if self.counted.val() {
                self.rp.d.next = self.rp.q.val() + self.one_n.val();
            }
        } else {
            self.rp.d.next = 0.into();
            if self.do_slot.val() & self.open_rd_post.val().any() {
                self.rp.d.next = self.one_n.val();
            }
        }
        self.f.d.next = self.f_post.val();
        self.unr.d.next = self.unr_post.val();
        self.rdone.d.next = self.rdone_post.val();
        self.wdone.d.next = self.wdone_post.val();
        self.tail.d.next = self.tail_post.val();

        // 5. Retirement: the head's last completion retires its group (and
        // the empty groups committed right after it).
        // The pending groups after the edge: one more per counted commit;
        // after a retirement, from the next slot's commit number on (the
        // empty groups between retire too), 1 if the next slot is the one
        // this commit fills, none if there is no next slot.
        self.head.d.next = self.head.q.val();
        self.any.d.next = self.any_post.val();
        self.n.d.next = self.n.q.val();
        if self.counted.val() {
            self.n.d.next = self.n.q.val() + self.one_n.val();
        }
        if self.wr_fin.val() {
            self.head.d.next = self.head_inc.val();
            self.any.d.next = self.head_inc.val() != self.tail_post.val();
            if self.head_inc.val() != self.tail.q.val() {
                self.n.d.next = self.cc_post.val() - self.seq_h1.val();
            } else if self.do_slot.val() {
                self.n.d.next = self.one_n.val();
            } else {
                self.n.d.next = 0.into();
            }
        }

        if self.reset.val() {
            for s in 0..G {
                self.tot[s].d.next = 0.into();
                self.seq[s].d.next = 0.into();
            }
            self.head.d.next = 0.into();
            self.tail.d.next = 0.into();
            self.any.d.next = false;
            self.f.d.next = 0.into();
            self.unr.d.next = false;
            self.cc.d.next = 0.into();
            self.n.d.next = 0.into();
            self.rp.d.next = 0.into();
            self.rdone.d.next = 0.into();
            self.wdone.d.next = 0.into();
            self.open_rd.d.next = 0.into();
            self.open_wr.d.next = 0.into();
            self.blk.d.next = false;
            self.wait_n.d.next = 0.into();
            self.wait_rd.d.next = false;
        }
    }
}

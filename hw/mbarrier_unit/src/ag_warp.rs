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
//! 4. the accepted operation (`op_hit` and `can_*` of `ag_op`): bulk into the open
//!    group, commit (a non-empty open group takes slot `tail`; every commit
//!    counts in `cc`), or a wait;
//! 5. retirement: the head's last completion moves `head` one slot on;
//!    `n` and `rp` take their values after the edge.
//!
//! **Written for timing.** The hit inputs arrive late (a warp-index
//! decode of an input port, fanned out to every warp), so the kernel first
//! computes, from the registered state alone, every comparison and every
//! candidate value a step can need (the reads and completions done `+ 1`
//! against the group sizes, the open group's counters `± 1`, its
//! reads-done gap `± 1`, `cc − seq` with and without this cycle's commit,
//! whether the frontier and the head have a next slot), and the hits only
//! select among them: a report's verdict is `hit & (a | other_hit & b)`
//! with `a`, `b` from the state, never a compare of a value the same cycle
//! computed. The error verdicts are registered in the warp (`rd_err`,
//! `wr_err`), so the top's `err_cause` is an OR of registered bits, not a
//! gather of W late decisions across the device. The steps' results are the same as written in order above
//! (`ag_lockstep`, `cosim_async_groups` and the formal harness check it).
//!
//! Ports (G = group_depth ≥ 2, HB = log2 G, NB = bits of 0..=G,
//! OB = group_op_bits):
//! - `clock`, `reset` (synchronous: every register to 0).
//! - `rd_hit`, `wr_hit` (in): a read / completion report for this warp.
//! - `op_hit` (in): an operation of this warp is presented (`ag_valid`).
//! - `ag_op` (in, 2), `ag_n` (in, NB): the operation and N of a wait.
//! - `can_bulk`, `can_commit`, `can_wait` (out): a bulk op / a commit / a
//!   wait of this warp would be accepted now (registered state only; the
//!   top selects the issuing warp's and `ag_op`'s).
//! - `blocked` (out): the warp waits (registered).
//! - `rel_go` (out): its wait returns this cycle (`release` is a Verilog keyword).
//! - `rd_err`, `wr_err` (out): last cycle's read / completion report for
//!   the warp was spurious (registered here; the top ORs them into `err_cause`).

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
    pub can_bulk: Signal<Out, Bit>,
    pub can_commit: Signal<Out, Bit>,
    pub can_wait: Signal<Out, Bit>,
    pub blocked: Signal<Out, Bit>,
    pub rel_go: Signal<Out, Bit>,
    pub rd_err: Signal<Out, Bit>,
    pub wr_err: Signal<Out, Bit>,
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
    /// Last cycle's read / completion report for this warp was spurious.
    rd_bad_r: DFF<Bit>,
    wr_bad_r: DFF<Bit>,
    // --- From the registered state alone ---
    /// The slots after the frontier, the head and the tail.
    f_inc: Signal<Local, Bits<HB>>,
    head_inc: Signal<Local, Bits<HB>>,
    tail_inc: Signal<Local, Bits<HB>>,
    /// The tail slot, one-hot (the commit's write enables).
    tail_hot: Signal<Local, Bits<G>>,
    /// The frontier's and the head's sizes; the commit numbers of the slots after them.
    tot_f: Signal<Local, Bits<OB>>,
    tot_h: Signal<Local, Bits<OB>>,
    seq_f1: Signal<Local, Bits<NB>>,
    seq_h1: Signal<Local, Bits<NB>>,
    rdone_inc: Signal<Local, Bits<OB>>,
    wdone_inc: Signal<Local, Bits<OB>>,
    /// One more read finishes the frontier group; one more completion the head group.
    f_last: Signal<Local, Bit>,
    w_last: Signal<Local, Bit>,
    /// The frontier group has more reads than completions done (`rd_gt`),
    /// or at least as many (`rd_ge`: more, after one more read).
    rd_gt: Signal<Local, Bit>,
    rd_ge: Signal<Local, Bit>,
    f_is_h: Signal<Local, Bit>,
    /// The head group may take a completion: without a read report of the
    /// same cycle (`c_ok0`), after one (`c_ok1`, with `unr`).
    c_ok0: Signal<Local, Bit>,
    c_ok1: Signal<Local, Bit>,
    /// The open group: reads / writes left non-zero, exactly one; more
    /// writes than reads left (`ow_gt`), at least as many (`ow_ge`).
    or_nz: Signal<Local, Bit>,
    or_one: Signal<Local, Bit>,
    ow_nz: Signal<Local, Bit>,
    ow_one: Signal<Local, Bit>,
    ow_gt: Signal<Local, Bit>,
    ow_ge: Signal<Local, Bit>,
    open_rd_dec: Signal<Local, Bits<OB>>,
    open_rd_inc: Signal<Local, Bits<OB>>,
    open_wr_dec: Signal<Local, Bits<OB>>,
    open_wr_inc: Signal<Local, Bits<OB>>,
    /// The open group's reads done (writes left − reads left) and ± 1.
    gap: Signal<Local, Bits<OB>>,
    gap_dec: Signal<Local, Bits<OB>>,
    gap_inc: Signal<Local, Bits<OB>>,
    cc_inc: Signal<Local, Bits<NB>>,
    n_inc: Signal<Local, Bits<NB>>,
    rp_inc: Signal<Local, Bits<NB>>,
    /// `cc − seq` of the slot after the frontier / the head, without and
    /// with this cycle's commit.
    rp_from_f: Signal<Local, Bits<NB>>,
    rp_from_f_c: Signal<Local, Bits<NB>>,
    n_from_h: Signal<Local, Bits<NB>>,
    n_from_h_c: Signal<Local, Bits<NB>>,
    /// The frontier / the head has a next slot; the ring is not full.
    f_next_live: Signal<Local, Bit>,
    h_next_live: Signal<Local, Bit>,
    h_ne_t: Signal<Local, Bit>,
    met: Signal<Local, Bit>,
    // --- Selected by this cycle's hits ---
    rd_dec_c: Signal<Local, Bit>,
    rd_dec_o: Signal<Local, Bit>,
    rd_fin: Signal<Local, Bit>,
    rd_bad: Signal<Local, Bit>,
    wr_bad: Signal<Local, Bit>,
    wr_dec_c: Signal<Local, Bit>,
    wr_dec_o: Signal<Local, Bit>,
    wr_fin: Signal<Local, Bit>,
    do_bulk: Signal<Local, Bit>,
    do_commit: Signal<Local, Bit>,
    do_wait: Signal<Local, Bit>,
    /// The open group's writes left after this cycle's completion report.
    ow_post: Signal<Local, Bits<OB>>,
    ow_post_nz: Signal<Local, Bit>,
    ord_post_nz: Signal<Local, Bit>,
    /// A commit of a non-empty group: it takes slot `tail`.
    do_slot: Signal<Local, Bit>,
    counted: Signal<Local, Bit>,
    /// Reads are left in a committed group after the read report.
    unr_pre: Signal<Local, Bit>,
    /// The group committed now (with reads left) becomes the frontier.
    new_front: Signal<Local, Bit>,
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
            can_bulk: Default::default(),
            can_commit: Default::default(),
            can_wait: Default::default(),
            blocked: Default::default(),
            rel_go: Default::default(),
            rd_err: Default::default(),
            wr_err: Default::default(),
            rd_bad_r: Default::default(),
            wr_bad_r: Default::default(),
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
            f_inc: Default::default(),
            head_inc: Default::default(),
            tail_inc: Default::default(),
            tail_hot: Default::default(),
            tot_f: Default::default(),
            tot_h: Default::default(),
            seq_f1: Default::default(),
            seq_h1: Default::default(),
            rdone_inc: Default::default(),
            wdone_inc: Default::default(),
            f_last: Default::default(),
            w_last: Default::default(),
            rd_gt: Default::default(),
            rd_ge: Default::default(),
            f_is_h: Default::default(),
            c_ok0: Default::default(),
            c_ok1: Default::default(),
            or_nz: Default::default(),
            or_one: Default::default(),
            ow_nz: Default::default(),
            ow_one: Default::default(),
            ow_gt: Default::default(),
            ow_ge: Default::default(),
            open_rd_dec: Default::default(),
            open_rd_inc: Default::default(),
            open_wr_dec: Default::default(),
            open_wr_inc: Default::default(),
            gap: Default::default(),
            gap_dec: Default::default(),
            gap_inc: Default::default(),
            cc_inc: Default::default(),
            n_inc: Default::default(),
            rp_inc: Default::default(),
            rp_from_f: Default::default(),
            rp_from_f_c: Default::default(),
            n_from_h: Default::default(),
            n_from_h_c: Default::default(),
            f_next_live: Default::default(),
            h_next_live: Default::default(),
            h_ne_t: Default::default(),
            met: Default::default(),
            rd_dec_c: Default::default(),
            rd_dec_o: Default::default(),
            rd_fin: Default::default(),
            wr_dec_c: Default::default(),
            wr_dec_o: Default::default(),
            wr_fin: Default::default(),
            do_bulk: Default::default(),
            do_commit: Default::default(),
            do_wait: Default::default(),
            ow_post: Default::default(),
            ow_post_nz: Default::default(),
            ord_post_nz: Default::default(),
            do_slot: Default::default(),
            counted: Default::default(),
            unr_pre: Default::default(),
            new_front: Default::default(),
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
            wait_n, wait_rd, rd_bad_r, wr_bad_r
        );

        // ---- From the registered state alone ----
        self.f_inc.next = self.f.q.val() + self.one_h.val();
        self.head_inc.next = self.head.q.val() + self.one_h.val();
        self.tail_inc.next = self.tail.q.val() + self.one_h.val();
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
        self.rdone_inc.next = self.rdone.q.val() + self.one_o.val();
        self.wdone_inc.next = self.wdone.q.val() + self.one_o.val();
        self.f_last.next = self.rdone_inc.val() == self.tot_f.val();
        self.w_last.next = self.wdone_inc.val() == self.tot_h.val();
        self.rd_gt.next = self.rdone.q.val() > self.wdone.q.val();
        self.rd_ge.next = self.rdone.q.val() >= self.wdone.q.val();
        self.f_is_h.next = self.unr.q.val() & (self.f.q.val() == self.head.q.val());
        self.c_ok0.next = !self.f_is_h.val() | self.rd_gt.val();
        self.c_ok1.next = self.rd_ge.val();
        self.or_nz.next = self.open_rd.q.val().any();
        self.or_one.next = self.open_rd.q.val() == self.one_o.val();
        self.ow_nz.next = self.open_wr.q.val().any();
        self.ow_one.next = self.open_wr.q.val() == self.one_o.val();
        self.ow_gt.next = self.open_wr.q.val() > self.open_rd.q.val();
        self.ow_ge.next = self.open_wr.q.val() >= self.open_rd.q.val();
        self.open_rd_dec.next = self.open_rd.q.val() - self.one_o.val();
        self.open_rd_inc.next = self.open_rd.q.val() + self.one_o.val();
        self.open_wr_dec.next = self.open_wr.q.val() - self.one_o.val();
        self.open_wr_inc.next = self.open_wr.q.val() + self.one_o.val();
        self.gap.next = self.open_wr.q.val() - self.open_rd.q.val();
        self.gap_dec.next = self.gap.val() - self.one_o.val();
        self.gap_inc.next = self.gap.val() + self.one_o.val();
        self.cc_inc.next = self.cc.q.val() + self.one_n.val();
        self.n_inc.next = self.n.q.val() + self.one_n.val();
        self.rp_inc.next = self.rp.q.val() + self.one_n.val();
        self.rp_from_f.next = self.cc.q.val() - self.seq_f1.val();
        self.rp_from_f_c.next = self.cc_inc.val() - self.seq_f1.val();
        self.n_from_h.next = self.cc.q.val() - self.seq_h1.val();
        self.n_from_h_c.next = self.cc_inc.val() - self.seq_h1.val();
        self.f_next_live.next = self.f_inc.val() != self.tail.q.val();
        self.h_next_live.next = self.head_inc.val() != self.tail.q.val();
        self.h_ne_t.next = self.head.q.val() != self.tail.q.val();

        // 1. Release on the registered state.
        if self.wait_rd.q.val() {
            self.met.next = self.rp.q.val() <= self.wait_n.q.val();
        } else {
            self.met.next = self.n.q.val() <= self.wait_n.q.val();
        }
        self.blocked.next = self.blk.q.val();
        self.rel_go.next = self.blk.q.val() & self.met.val();
        self.rd_err.next = self.rd_bad_r.q.val();
        self.wr_err.next = self.wr_bad_r.q.val();

        // 2. Read report: the frontier group, else the open group.
        self.rd_dec_c.next = self.rd_hit.val() & self.unr.q.val();
        self.rd_dec_o.next = self.rd_hit.val() & !self.unr.q.val() & self.or_nz.val();
        self.rd_bad.next = self.rd_hit.val() & !self.unr.q.val() & !self.or_nz.val();
        self.rd_fin.next = self.rd_dec_c.val() & self.f_last.val();

        // 3. Completion report: the head group, if it has more writes than
        // reads left after this cycle's read report (always, unless it is
        // the frontier: then iff more of its reads than its completions
        // are done), else the open group under the same rule when no group
        // is committed.
        self.wr_dec_c.next = self.wr_hit.val()
            & self.any.q.val()
            & (self.c_ok0.val() | (self.rd_dec_c.val() & self.c_ok1.val()));
        self.wr_dec_o.next = self.wr_hit.val()
            & !self.any.q.val()
            & (self.ow_gt.val() | (self.rd_dec_o.val() & self.ow_ge.val()));
        self.wr_bad.next = self.wr_hit.val() & !self.wr_dec_c.val() & !self.wr_dec_o.val();
        // The verdicts, registered here, next to the warp's state: the top
        // ORs W registered bits, not W late decisions.
        self.rd_bad_r.d.next = self.rd_bad.val();
        self.wr_bad_r.d.next = self.wr_bad.val();
        self.wr_fin.next = self.wr_dec_c.val() & self.w_last.val();

        // 4. The operation (refused while blocked, on a full open group, on G pending groups).
        self.can_bulk.next = !self.blk.q.val() & (self.open_wr.q.val() != self.max_ops.val());
        self.can_commit.next = !self.blk.q.val() & (self.n.q.val() != self.full_g.val());
        self.can_wait.next = !self.blk.q.val();
        self.do_bulk.next =
            self.op_hit.val() & (self.ag_op.val() == self.op_bulk.val()) & self.can_bulk.val();
        self.do_commit.next =
            self.op_hit.val() & (self.ag_op.val() == self.op_commit.val()) & self.can_commit.val();
        self.do_wait.next = self.op_hit.val() & self.ag_op.val().get_bit(1) & self.can_wait.val();
        self.ow_post.next = self.open_wr.q.val();
        if self.wr_dec_o.val() {
            self.ow_post.next = self.open_wr_dec.val();
        }
        self.ow_post_nz.next = self.ow_nz.val() & !(self.wr_dec_o.val() & self.ow_one.val());
        self.ord_post_nz.next = self.or_nz.val() & !(self.rd_dec_o.val() & self.or_one.val());
        self.do_slot.next = self.do_commit.val() & self.ow_post_nz.val();
        // A commit counts in `n` unless it is empty with no group pending
        // (it retires at once).
        self.counted.next = self.do_commit.val() & (self.any.q.val() | self.ow_post_nz.val());

        // The open group's counters: a commit empties it; a bulk op and a
        // report of the same cycle cancel.
        if self.do_commit.val() {
            self.open_rd.d.next = 0.into();
        } else if self.do_bulk.val() & !self.rd_dec_o.val() {
            self.open_rd.d.next = self.open_rd_inc.val();
        } else if !self.do_bulk.val() & self.rd_dec_o.val() {
            self.open_rd.d.next = self.open_rd_dec.val();
        } else {
            self.open_rd.d.next = self.open_rd.q.val();
        }
        if self.do_commit.val() {
            self.open_wr.d.next = 0.into();
        } else if self.do_bulk.val() & !self.wr_dec_o.val() {
            self.open_wr.d.next = self.open_wr_inc.val();
        } else if !self.do_bulk.val() & self.wr_dec_o.val() {
            self.open_wr.d.next = self.open_wr_dec.val();
        } else {
            self.open_wr.d.next = self.open_wr.q.val();
        }
        self.cc.d.next = self.cc.q.val();
        if self.do_commit.val() {
            self.cc.d.next = self.cc_inc.val();
        }
        self.tail.d.next = self.tail.q.val();
        if self.do_slot.val() {
            self.tail.d.next = self.tail_inc.val();
            for s in 0..G {
                if self.tail_hot.val().get_bit(s) {
                    self.tot[s].d.next = self.ow_post.val();
                    self.seq[s].d.next = self.cc.q.val();
                }
            }
        }
        if self.do_wait.val() {
            self.wait_n.d.next = self.ag_n.val();
            self.wait_rd.d.next = self.ag_op.val().get_bit(0);
        }
        // A wait is accepted only while not blocked; a release clears it.
        self.blk.d.next = self.do_wait.val() | (self.blk.q.val() & !self.met.val());

        // The frontier after the edge. The frontier's last read moves it
        // one slot on (reads are left past it iff it has a next slot); a
        // group committed now with reads left becomes the frontier if none
        // is left older, with the reads it had done while open; one
        // committed with every read done moves a frontier that is past the
        // youngest past it too.
        self.unr_pre.next = self.unr.q.val();
        if self.rd_fin.val() {
            self.unr_pre.next = self.f_next_live.val();
        }
        self.new_front.next = self.do_slot.val() & self.ord_post_nz.val() & !self.unr_pre.val();
        self.unr.d.next = self.unr_pre.val() | (self.do_slot.val() & self.ord_post_nz.val());
        if self.new_front.val() {
            if self.wr_dec_o.val() == self.rd_dec_o.val() {
                self.rdone.d.next = self.gap.val();
            } else if self.rd_dec_o.val() {
                self.rdone.d.next = self.gap_inc.val();
            } else {
                self.rdone.d.next = self.gap_dec.val();
            }
        } else if self.rd_fin.val() {
            self.rdone.d.next = 0.into();
        } else if self.rd_dec_c.val() {
            self.rdone.d.next = self.rdone_inc.val();
        } else {
            self.rdone.d.next = self.rdone.q.val();
        }
        self.f.d.next = self.f.q.val();
        if self.rd_fin.val() {
            self.f.d.next = self.f_inc.val();
        }
        if self.do_slot.val() & !self.ord_post_nz.val() & !self.unr_pre.val() {
            self.f.d.next = self.tail_inc.val();
        }
        // The groups still reading after the edge: from a frontier that
        // moved to an older slot, its commit number on; from one that
        // stays, one more per counted commit; from a new group that
        // becomes the frontier, 1.
        if self.rd_fin.val() & self.f_next_live.val() {
            if self.do_commit.val() {
                self.rp.d.next = self.rp_from_f_c.val();
            } else {
                self.rp.d.next = self.rp_from_f.val();
            }
        } else if self.unr.q.val() & !self.rd_fin.val() {
            if self.counted.val() {
                self.rp.d.next = self.rp_inc.val();
            } else {
                self.rp.d.next = self.rp.q.val();
            }
        } else if self.do_slot.val() & self.ord_post_nz.val() {
            self.rp.d.next = self.one_n.val();
        } else {
            self.rp.d.next = 0.into();
        }

        // 5. Retirement: the head's last completion retires its group (and
        // the empty groups committed right after it). The pending groups
        // after the edge: one more per counted commit; after a retirement,
        // from the next slot's commit number on (the empty groups between
        // retire too), 1 if the next slot is the one this commit fills,
        // none if there is no next slot.
        self.wdone.d.next = self.wdone.q.val();
        if self.wr_dec_c.val() {
            self.wdone.d.next = self.wdone_inc.val();
        }
        self.head.d.next = self.head.q.val();
        self.any.d.next = self.any.q.val() | self.do_slot.val();
        if self.counted.val() {
            self.n.d.next = self.n_inc.val();
        } else {
            self.n.d.next = self.n.q.val();
        }
        if self.wr_fin.val() {
            self.wdone.d.next = 0.into();
            self.head.d.next = self.head_inc.val();
            if self.do_slot.val() {
                self.any.d.next = self.h_ne_t.val();
            } else {
                self.any.d.next = self.h_next_live.val();
            }
            if self.h_next_live.val() {
                if self.do_commit.val() {
                    self.n.d.next = self.n_from_h_c.val();
                } else {
                    self.n.d.next = self.n_from_h.val();
                }
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
            self.rd_bad_r.d.next = false;
            self.wr_bad_r.d.next = false;
        }
    }
}

//! One warp of the async-group tracker: its ring of committed groups, its
//! open group, its wait register, and the cycle's update (reports, the
//! accepted operation, in-order retirement).
//!
//! Implements `mbarrier_unit_model::async_groups::WarpGroups` and the
//! per-warp part of `eval` cycle for cycle, in another representation than
//! the model's (the ports cannot tell them apart):
//!
//! | model (per committed group) | here |
//! | --- | --- |
//! | writes left, reads left (two counters per slot) | `tot[s]`: the group's writes left when it was committed, written only then; `nz` bit s: writes left ≠ 0; `unread` bit s: reads left ≠ 0 |
//! | the head group's writes left | `tot[head] − wdone` |
//! | the oldest group with reads left (the read frontier) | the first `unread` slot from `head`; its reads left `tot[f] − rdone` |
//!
//! This holds because the copy engine reports reads and completions in issue
//! order per warp: only the head group (the oldest still writing: the
//! leading groups with no writes left retire at every edge) is written, only
//! the frontier group is read, every group past the frontier has all its
//! operations unread, and every group past the head all its operations
//! incomplete. A group committed with reads already done (reported while it
//! was open) is the frontier at its commit, and `rdone` starts at the reads
//! it had done. So no slot holds a counter that counts down: the per-slot
//! logic is a load at commit and two flags.
//!
//! The cycle:
//! 1. release: a blocked warp whose registered state meets its wait
//!    (`n <= wait_n`, or for `.read` the groups from the frontier to the
//!    youngest `<= wait_n`) is released;
//! 2. a read report (`rd_hit`) counts a read of the frontier group, else of
//!    the open group; with none it is spurious (`rd_bad`); the frontier's
//!    last read clears its `unread` bit;
//! 3. a completion report (`wr_hit`) counts a completion of the head group if
//!    it has more writes than reads left (after the read report of the same
//!    cycle), else of the open group under the same rule when no group is
//!    committed; otherwise it is spurious (`wr_bad`); the head's last
//!    completion clears its `nz` bit;
//! 4. the accepted operation (`op_hit` and `ready`): bulk into the open
//!    group, commit (the open group becomes slot `head + n`), or a wait;
//! 5. every leading committed group with no writes left retires (several
//!    per cycle): `head` jumps to the oldest group still writing, or past
//!    all of them.
//!
//! Slots outside the window `[head, head + n)` always have both flags 0 (a
//! retired group has no writes left, and reads left never exceed writes
//! left), which lets [`FirstFromHead`] find "the oldest group with …" by a
//! circular priority encoder.
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

use crate::ag_first::FirstFromHead;

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
    tot: [DFF<Bits<OB>>; G],
    unread: DFF<Bits<G>>,
    nz: DFF<Bits<G>>,
    head: DFF<Bits<HB>>,
    n: DFF<Bits<NB>>,
    rdone: DFF<Bits<OB>>,
    wdone: DFF<Bits<OB>>,
    open_rd: DFF<Bits<OB>>,
    open_wr: DFF<Bits<OB>>,
    blk: DFF<Bit>,
    wait_n: DFF<Bits<NB>>,
    wait_rd: DFF<Bit>,
    enc_r: FirstFromHead<G, HB>,
    enc_x: FirstFromHead<G, HB>,
    head_hot: Signal<Local, Bits<G>>,
    tail_hot: Signal<Local, Bits<G>>,
    tot_f: Signal<Local, Bits<OB>>,
    tot_h: Signal<Local, Bits<OB>>,
    age_r: Signal<Local, Bits<NB>>,
    age_x: Signal<Local, Bits<NB>>,
    read_pend: Signal<Local, Bits<NB>>,
    met: Signal<Local, Bit>,
    rd_dec_c: Signal<Local, Bit>,
    rd_dec_o: Signal<Local, Bit>,
    rdone_inc: Signal<Local, Bits<OB>>,
    rd_fin: Signal<Local, Bit>,
    rd_seen: Signal<Local, Bits<OB>>,
    unread_post: Signal<Local, Bits<G>>,
    rdone_post: Signal<Local, Bits<OB>>,
    open_rd_post: Signal<Local, Bits<OB>>,
    open_wr_post: Signal<Local, Bits<OB>>,
    has_c: Signal<Local, Bit>,
    f_is_h: Signal<Local, Bit>,
    wr_dec_c: Signal<Local, Bit>,
    wr_dec_o: Signal<Local, Bit>,
    wdone_inc: Signal<Local, Bits<OB>>,
    wr_fin: Signal<Local, Bit>,
    nz_post: Signal<Local, Bits<G>>,
    wdone_post: Signal<Local, Bits<OB>>,
    accept: Signal<Local, Bit>,
    do_bulk: Signal<Local, Bit>,
    do_commit: Signal<Local, Bit>,
    do_wait: Signal<Local, Bit>,
    tail_sum: Signal<Local, Bits<HB>>,
    tail: Signal<Local, Bits<HB>>,
    n_post: Signal<Local, Bits<NB>>,
    n_low: Signal<Local, Bits<HB>>,
    n_post_low: Signal<Local, Bits<HB>>,
    head_all: Signal<Local, Bits<HB>>,
    gmask: Constant<Bits<HB>>,
    full_g: Constant<Bits<NB>>,
    max_ops: Constant<Bits<OB>>,
    one_o: Constant<Bits<OB>>,
    one_n: Constant<Bits<NB>>,
    op_bulk: Constant<Bits<2>>,
    op_commit: Constant<Bits<2>>,
    slot_idx: [Constant<Bits<HB>>; G],
}

impl<const G: usize, const HB: usize, const NB: usize, const OB: usize> Default
    for AgWarp<G, HB, NB, OB>
{
    fn default() -> Self {
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
            unread: Default::default(),
            nz: Default::default(),
            head: Default::default(),
            n: Default::default(),
            rdone: Default::default(),
            wdone: Default::default(),
            open_rd: Default::default(),
            open_wr: Default::default(),
            blk: Default::default(),
            wait_n: Default::default(),
            wait_rd: Default::default(),
            enc_r: Default::default(),
            enc_x: Default::default(),
            head_hot: Default::default(),
            tail_hot: Default::default(),
            tot_f: Default::default(),
            tot_h: Default::default(),
            age_r: Default::default(),
            age_x: Default::default(),
            read_pend: Default::default(),
            met: Default::default(),
            rd_dec_c: Default::default(),
            rd_dec_o: Default::default(),
            rdone_inc: Default::default(),
            rd_fin: Default::default(),
            rd_seen: Default::default(),
            unread_post: Default::default(),
            rdone_post: Default::default(),
            open_rd_post: Default::default(),
            open_wr_post: Default::default(),
            has_c: Default::default(),
            f_is_h: Default::default(),
            wr_dec_c: Default::default(),
            wr_dec_o: Default::default(),
            wdone_inc: Default::default(),
            wr_fin: Default::default(),
            nz_post: Default::default(),
            wdone_post: Default::default(),
            accept: Default::default(),
            do_bulk: Default::default(),
            do_commit: Default::default(),
            do_wait: Default::default(),
            tail_sum: Default::default(),
            tail: Default::default(),
            n_post: Default::default(),
            n_low: Default::default(),
            n_post_low: Default::default(),
            head_all: Default::default(),
            gmask: Constant::new(((G - 1) as u64).into()),
            full_g: Constant::new((G as u64).into()),
            max_ops: Constant::new(((1u64 << OB) - 1).into()),
            one_o: Constant::new(1u64.into()),
            one_n: Constant::new(1u64.into()),
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
            self, clock, unread, nz, head, n, rdone, wdone, open_rd, open_wr, blk, wait_n, wait_rd
        );

        // Registered view: the read frontier (first unread slot from head)
        // and the head and tail slots, one-hot; the frontier's and the
        // head's group sizes.
        self.enc_r.bits.next = self.unread.q.val();
        self.enc_r.head.next = self.head.q.val();
        self.n_low.next = self.n.q.val().get_bits::<HB>(0);
        self.tail_sum.next = self.head.q.val() + self.n_low.val();
        self.tail.next = self.tail_sum.val() & self.gmask.val();
        self.head_hot.next = 0.into();
        self.tail_hot.next = 0.into();
        self.tot_f.next = 0.into();
        self.tot_h.next = 0.into();
        for s in 0..G {
            self.tot[s].clock.next = self.clock.val();
            self.tot[s].d.next = self.tot[s].q.val();
            if self.enc_r.onehot.val().get_bit(s) {
                self.tot_f.next = self.tot[s].q.val();
            }
            if self.head.q.val() == self.slot_idx[s].val() {
                self.head_hot.next = self.head_hot.val().replace_bit(s, true);
                self.tot_h.next = self.tot[s].q.val();
            }
            if self.tail.val() == self.slot_idx[s].val() {
                self.tail_hot.next = self.tail_hot.val().replace_bit(s, true);
            }
        }

        // 1. Release on the registered state.
        self.age_r.next = bit_cast::<NB, HB>(self.enc_r.age.val());
        self.read_pend.next = 0.into();
        if self.enc_r.any.val() {
            self.read_pend.next = self.n.q.val() - self.age_r.val();
        }
        if self.wait_rd.q.val() {
            self.met.next = self.read_pend.val() <= self.wait_n.q.val();
        } else {
            self.met.next = self.n.q.val() <= self.wait_n.q.val();
        }
        self.blocked.next = self.blk.q.val();
        self.rel_go.next = self.blk.q.val() & self.met.val();
        if self.rel_go.val() {
            self.blk.d.next = false;
        }

        // 2. Read report: the frontier group, else the open group.
        self.rd_dec_c.next = self.rd_hit.val() & self.enc_r.any.val();
        self.rd_dec_o.next = self.rd_hit.val() & !self.enc_r.any.val() & self.open_rd.q.val().any();
        self.rd_bad.next = self.rd_hit.val() & !self.enc_r.any.val() & !self.open_rd.q.val().any();
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
        self.unread_post.next = self.unread.q.val();
        if self.rd_fin.val() {
            self.rdone_post.next = 0.into();
            self.unread_post.next = self.unread.q.val() & !self.enc_r.onehot.val();
        }

        // 3. Completion report: the head group, if it has more writes than
        // reads left after this cycle's read report (always, unless it is
        // the frontier: then iff more of its reads than its completions
        // are done), else the open group when no group is committed.
        self.has_c.next = self.n.q.val().any();
        self.f_is_h.next = self.enc_r.any.val() & (self.enc_r.idx.val() == self.head.q.val());
        self.wr_dec_c.next = self.wr_hit.val()
            & self.has_c.val()
            & (!self.f_is_h.val() | (self.rd_seen.val() > self.wdone.q.val()));
        self.wr_dec_o.next = self.wr_hit.val()
            & !self.has_c.val()
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
        self.nz_post.next = self.nz.q.val();
        if self.wr_fin.val() {
            self.wdone_post.next = 0.into();
            self.nz_post.next = self.nz.q.val() & !self.head_hot.val();
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
        self.open_rd.d.next = self.open_rd_post.val();
        self.open_wr.d.next = self.open_wr_post.val();
        self.n_post.next = self.n.q.val();
        if self.do_bulk.val() {
            self.open_rd.d.next = self.open_rd_post.val() + self.one_o.val();
            self.open_wr.d.next = self.open_wr_post.val() + self.one_o.val();
        }
        if self.do_commit.val() {
            self.open_rd.d.next = 0.into();
            self.open_wr.d.next = 0.into();
            self.n_post.next = self.n.q.val() + self.one_n.val();
            for s in 0..G {
                if self.tail_hot.val().get_bit(s) {
                    self.tot[s].d.next = self.open_wr_post.val();
                }
            }
            // A new group with reads left is the frontier if no older group
            // has any; it starts with the reads it had done while open.
            if self.open_rd_post.val().any() {
                if !self.unread_post.val().any() {
                    self.rdone_post.next = self.open_wr_post.val() - self.open_rd_post.val();
                }
                self.unread_post.next = self.unread_post.val() | self.tail_hot.val();
            }
            if self.open_wr_post.val().any() {
                self.nz_post.next = self.nz_post.val() | self.tail_hot.val();
            }
        }
        if self.do_wait.val() {
            self.blk.d.next = true;
            self.wait_n.d.next = self.ag_n.val();
            self.wait_rd.d.next = self.ag_op.val().get_bit(0);
        }
        self.unread.d.next = self.unread_post.val();
        self.nz.d.next = self.nz_post.val();
        self.rdone.d.next = self.rdone_post.val();
        self.wdone.d.next = self.wdone_post.val();

        // 5. In-order retirement of the leading groups with no writes left.
        self.enc_x.bits.next = self.nz_post.val();
        self.enc_x.head.next = self.head.q.val();
        self.age_x.next = bit_cast::<NB, HB>(self.enc_x.age.val());
        self.n_post_low.next = self.n_post.val().get_bits::<HB>(0);
        self.head_all.next = self.head.q.val() + self.n_post_low.val();
        if self.enc_x.any.val() {
            self.head.d.next = self.enc_x.idx.val();
            self.n.d.next = self.n_post.val() - self.age_x.val();
        } else {
            self.head.d.next = self.head_all.val() & self.gmask.val();
            self.n.d.next = 0.into();
        }

        if self.reset.val() {
            for s in 0..G {
                self.tot[s].d.next = 0.into();
            }
            self.unread.d.next = 0.into();
            self.nz.d.next = 0.into();
            self.head.d.next = 0.into();
            self.n.d.next = 0.into();
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

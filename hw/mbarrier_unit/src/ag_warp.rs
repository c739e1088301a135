//! One warp of the async-group tracker: its ring of committed groups, its
//! open group, its wait register, and the cycle's update (reports, the
//! accepted operation, in-order retirement).
//!
//! Implements `mbarrier_unit_model::async_groups::WarpGroups` and the
//! per-warp part of `eval` cycle for cycle:
//! 1. release: a blocked warp whose registered state meets its wait
//!    (`n <= wait_n`, or for `.read` the groups from the oldest one with
//!    reads left to the youngest `<= wait_n`) is released;
//! 2. a read report (`rd_hit`) lowers the reads-left counter of the oldest
//!    committed group with reads left, else of the open group; with none it
//!    is spurious (`rd_bad`);
//! 3. a completion report (`wr_hit`) lowers the writes-left counter of the
//!    oldest group with writes left if it exceeds its reads left (after the
//!    read report of the same cycle), else it is spurious (`wr_bad`);
//! 4. the accepted operation (`op_hit` and `ready`): bulk into the open
//!    group, commit (the open group becomes slot `head + n`), or a wait;
//! 5. every leading committed group with no writes left retires (several
//!    per cycle): `head` jumps to the oldest group still writing, or past
//!    all of them.
//!
//! Slots outside the window `[head, head + n)` always hold zero counters
//! (a retired group has no writes left, and reads left never exceed writes
//! left), which lets [`FirstFromHead`] find "the oldest group with …" by a
//! circular priority encoder instead of G age-ordered muxes.
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
    rd_cnt: [DFF<Bits<OB>>; G],
    wr_cnt: [DFF<Bits<OB>>; G],
    head: DFF<Bits<HB>>,
    n: DFF<Bits<NB>>,
    open_rd: DFF<Bits<OB>>,
    open_wr: DFF<Bits<OB>>,
    blk: DFF<Bit>,
    wait_n: DFF<Bits<NB>>,
    wait_rd: DFF<Bit>,
    enc_r: FirstFromHead<G, HB>,
    enc_w: FirstFromHead<G, HB>,
    enc_x: FirstFromHead<G, HB>,
    nzr: Signal<Local, Bits<G>>,
    nzw: Signal<Local, Bits<G>>,
    nzw_post: Signal<Local, Bits<G>>,
    age_r: Signal<Local, Bits<NB>>,
    age_x: Signal<Local, Bits<NB>>,
    read_pend: Signal<Local, Bits<NB>>,
    met: Signal<Local, Bit>,
    rd_dec_c: Signal<Local, Bit>,
    rd_dec_o: Signal<Local, Bit>,
    tgt_wr: Signal<Local, Bits<OB>>,
    tgt_rd: Signal<Local, Bits<OB>>,
    tgt_rd_post: Signal<Local, Bits<OB>>,
    open_rd_post: Signal<Local, Bits<OB>>,
    open_wr_post: Signal<Local, Bits<OB>>,
    wr_dec_c: Signal<Local, Bit>,
    wr_dec_o: Signal<Local, Bit>,
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
            rd_cnt: std::array::from_fn(|_| Default::default()),
            wr_cnt: std::array::from_fn(|_| Default::default()),
            head: Default::default(),
            n: Default::default(),
            open_rd: Default::default(),
            open_wr: Default::default(),
            blk: Default::default(),
            wait_n: Default::default(),
            wait_rd: Default::default(),
            enc_r: Default::default(),
            enc_w: Default::default(),
            enc_x: Default::default(),
            nzr: Default::default(),
            nzw: Default::default(),
            nzw_post: Default::default(),
            age_r: Default::default(),
            age_x: Default::default(),
            read_pend: Default::default(),
            met: Default::default(),
            rd_dec_c: Default::default(),
            rd_dec_o: Default::default(),
            tgt_wr: Default::default(),
            tgt_rd: Default::default(),
            tgt_rd_post: Default::default(),
            open_rd_post: Default::default(),
            open_wr_post: Default::default(),
            wr_dec_c: Default::default(),
            wr_dec_o: Default::default(),
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
        dff_setup!(self, clock, head, n, open_rd, open_wr, blk, wait_n, wait_rd);

        // Registered view: which slots have reads / writes left.
        self.nzr.next = 0.into();
        self.nzw.next = 0.into();
        for s in 0..G {
            self.rd_cnt[s].clock.next = self.clock.val();
            self.wr_cnt[s].clock.next = self.clock.val();
            self.rd_cnt[s].d.next = self.rd_cnt[s].q.val();
            self.wr_cnt[s].d.next = self.wr_cnt[s].q.val();
            self.nzr.next = self.nzr.val().replace_bit(s, self.rd_cnt[s].q.val().any());
            self.nzw.next = self.nzw.val().replace_bit(s, self.wr_cnt[s].q.val().any());
        }
        self.enc_r.bits.next = self.nzr.val();
        self.enc_r.head.next = self.head.q.val();
        self.enc_w.bits.next = self.nzw.val();
        self.enc_w.head.next = self.head.q.val();

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

        // 2. Read report: oldest committed group with reads left, else the open group.
        self.rd_dec_c.next = self.rd_hit.val() & self.enc_r.any.val();
        self.rd_dec_o.next = self.rd_hit.val() & !self.enc_r.any.val() & self.open_rd.q.val().any();
        self.rd_bad.next = self.rd_hit.val() & !self.enc_r.any.val() & !self.open_rd.q.val().any();
        self.open_rd_post.next = self.open_rd.q.val();
        if self.rd_dec_o.val() {
            self.open_rd_post.next = self.open_rd.q.val() - self.one_o.val();
        }

        // 3. Completion report: oldest group with writes left, if it has more
        // writes than reads left (after this cycle's read report).
        self.tgt_wr.next = 0.into();
        self.tgt_rd.next = 0.into();
        for s in 0..G {
            if self.enc_w.onehot.val().get_bit(s) {
                self.tgt_wr.next = self.wr_cnt[s].q.val();
                self.tgt_rd.next = self.rd_cnt[s].q.val();
            }
        }
        self.tgt_rd_post.next = self.tgt_rd.val();
        if self.rd_dec_c.val() & (self.enc_r.onehot.val() == self.enc_w.onehot.val()) {
            self.tgt_rd_post.next = self.tgt_rd.val() - self.one_o.val();
        }
        self.wr_dec_c.next =
            self.wr_hit.val() & self.enc_w.any.val() & (self.tgt_wr.val() > self.tgt_rd_post.val());
        self.wr_dec_o.next = self.wr_hit.val()
            & !self.enc_w.any.val()
            & (self.open_wr.q.val() > self.open_rd_post.val());
        self.wr_bad.next = self.wr_hit.val() & !self.wr_dec_c.val() & !self.wr_dec_o.val();
        self.open_wr_post.next = self.open_wr.q.val();
        if self.wr_dec_o.val() {
            self.open_wr_post.next = self.open_wr.q.val() - self.one_o.val();
        }
        self.nzw_post.next = self.nzw.val();
        for s in 0..G {
            if self.rd_dec_c.val() & self.enc_r.onehot.val().get_bit(s) {
                self.rd_cnt[s].d.next = self.rd_cnt[s].q.val() - self.one_o.val();
            }
            if self.wr_dec_c.val() & self.enc_w.onehot.val().get_bit(s) {
                self.wr_cnt[s].d.next = self.wr_cnt[s].q.val() - self.one_o.val();
                if self.wr_cnt[s].q.val() == self.one_o.val() {
                    self.nzw_post.next = self.nzw_post.val().replace_bit(s, false);
                }
            }
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
        self.n_low.next = self.n.q.val().get_bits::<HB>(0);
        self.tail_sum.next = self.head.q.val() + self.n_low.val();
        self.tail.next = self.tail_sum.val() & self.gmask.val();
        if self.do_bulk.val() {
            self.open_rd.d.next = self.open_rd_post.val() + self.one_o.val();
            self.open_wr.d.next = self.open_wr_post.val() + self.one_o.val();
        }
        if self.do_commit.val() {
            self.open_rd.d.next = 0.into();
            self.open_wr.d.next = 0.into();
            self.n_post.next = self.n.q.val() + self.one_n.val();
            for s in 0..G {
                if self.tail.val() == self.slot_idx[s].val() {
                    self.rd_cnt[s].d.next = self.open_rd_post.val();
                    self.wr_cnt[s].d.next = self.open_wr_post.val();
                    self.nzw_post.next = self
                        .nzw_post
                        .val()
                        .replace_bit(s, self.open_wr_post.val().any());
                }
            }
        }
        if self.do_wait.val() {
            self.blk.d.next = true;
            self.wait_n.d.next = self.ag_n.val();
            self.wait_rd.d.next = self.ag_op.val().get_bit(0);
        }

        // 5. In-order retirement of the leading groups with no writes left.
        self.enc_x.bits.next = self.nzw_post.val();
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
                self.rd_cnt[s].d.next = 0.into();
                self.wr_cnt[s].d.next = 0.into();
            }
            self.head.d.next = 0.into();
            self.n.d.next = 0.into();
            self.open_rd.d.next = 0.into();
            self.open_wr.d.next = 0.into();
            self.blk.d.next = false;
            self.wait_n.d.next = 0.into();
            self.wait_rd.d.next = false;
        }
    }
}

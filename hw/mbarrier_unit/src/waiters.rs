//! Waiters: per warp, the `try_wait` suspension register (entry, parity,
//! timer, decided, done), the decisions of the cycle (phase completed, or
//! the limit L passed), the wake and `suspended` output registers.
//!
//! Implements the golden kernel's `State::waiters`, its "Decisions" loop
//! (a suspended, undecided warp whose (entry, parity) matches the cycle's
//! completion is decided done; otherwise it is decided "not done" when its
//! timer reaches L − 1, else the timer counts; decisions are registered and
//! the wake arbiter reads the registers, not this cycle's step), the
//! clear of the warps the wake arbiter grants, a new suspension by the op
//! port, the `wake_mask`/`wake_done`/`suspended` outputs, and the checks the
//! op port needs: `warp_susp` (the issuing warp is suspended) and
//! `waiters_on` (some warp is suspended on `op_entry`). For `waiters_on`
//! the entry compares are made in the acceptance cycle, against the entry
//! accepted (`acc_entry`, stepped in the next cycle), and registered: per
//! warp, suspended on it (`on_q`), and the warp suspending now on it
//! (`on_new_q`). In the step cycle `waiters_on` is their OR without the
//! warps granted a wake at the edge (`wake_mask_r`): W two-input terms
//! instead of W entry compares in front of the refusal of an init/inval.
//!
//! A completion's decisions are merged a cycle late: the step's
//! `c_complete` is registered alone (`cpl_q`), beside the warps it would
//! decide (`pend_q`: suspended, undecided, waiting on the stepped entry and
//! parity — registers only), and the next cycle's `decided`/`done` are
//! `decided | (cpl_q ? pend_q : 0)` (`dec_e`, `done_e`), which the wake
//! arbiter, the timers and `wake_done` read. The ports see the golden
//! kernel's decisions in the same cycles; the step's late `complete`
//! reaches one flip-flop instead of 2W.
//!
//! Ports (W warps, WB = log2 W, EB = log2 M, TMB = timer bits):
//! - `clock`, `reset`.
//! - `op_warp` (in, WB), `op_entry` (in, EB), `op_parity` (in): the op port.
//! - `acc_entry` (in, EB): the entry of the request accepted this cycle.
//! - `susp_go` (in): suspend `op_warp` on (`op_entry`, `op_parity`).
//! - `try_go` (in): the stepped request is a try_wait of `op_warp` (early:
//!   loads the waiter's entry, parity and timer; `susp_go` sets its `susp` bit).
//! - `c_complete`, `c_cpar` (in): the step completed the phase of parity
//!   `c_cpar` of entry `op_entry` (the stepped request's).
//! - `grant` (in, W): warps woken this cycle (wake arbiter).
//! - `cand` (out, W): suspended warps decided in an earlier cycle (wake arbiter).
//! - `warp_susp`, `waiters_on` (out): for the op port's checks.
//! - `wake_mask`, `wake_done`, `suspended` (out, W, registered): contract ports.

use rust_hdl::prelude::*;

/// Per-warp try_wait suspension (W warps, M = 2^EB entries, TMB-bit timers).
#[derive(LogicBlock)]
pub struct Waiters<const W: usize, const WB: usize, const EB: usize, const TMB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub op_warp: Signal<In, Bits<WB>>,
    pub op_entry: Signal<In, Bits<EB>>,
    pub op_parity: Signal<In, Bit>,
    pub acc_entry: Signal<In, Bits<EB>>,
    pub susp_go: Signal<In, Bit>,
    pub try_go: Signal<In, Bit>,
    pub c_complete: Signal<In, Bit>,
    pub c_cpar: Signal<In, Bit>,
    pub grant: Signal<In, Bits<W>>,
    pub cand: Signal<Out, Bits<W>>,
    pub warp_susp: Signal<Out, Bit>,
    pub waiters_on: Signal<Out, Bit>,
    pub wake_mask: Signal<Out, Bits<W>>,
    pub wake_done: Signal<Out, Bits<W>>,
    pub suspended: Signal<Out, Bits<W>>,
    susp: DFF<Bits<W>>,
    decided: DFF<Bits<W>>,
    done: DFF<Bits<W>>,
    wparity: DFF<Bits<W>>,
    wentry: [DFF<Bits<EB>>; W],
    timer: [DFF<Bits<TMB>>; W],
    wake_mask_r: DFF<Bits<W>>,
    wake_done_r: DFF<Bits<W>>,
    /// Per warp: suspended on the stepped request's entry at its acceptance.
    on_q: DFF<Bits<W>>,
    /// The warp suspending at its acceptance did so on that entry.
    on_new_q: DFF<Bit>,
    /// The step of the last cycle completed a phase (`c_complete`, registered).
    cpl_q: DFF<Bit>,
    /// Per warp: suspended, undecided and waiting on the entry and parity
    /// stepped in the last cycle (decided done there iff `cpl_q`).
    pend_q: DFF<Bits<W>>,
    /// `decided` / `done` with last cycle's completion applied.
    dec_e: Signal<Local, Bits<W>>,
    done_e: Signal<Local, Bits<W>>,
    pend_n: Signal<Local, Bits<W>>,
    on_n: Signal<Local, Bits<W>>,
    dec_n: Signal<Local, Bits<W>>,
    done_n: Signal<Local, Bits<W>>,
    par_n: Signal<Local, Bits<W>>,
    new_bit: Signal<Local, Bits<W>>,
    hit: Signal<Local, Bit>,
    limit_m1: Constant<Bits<TMB>>,
    one_t: Constant<Bits<TMB>>,
    warp_idx: [Constant<Bits<WB>>; W],
}

impl<const W: usize, const WB: usize, const EB: usize, const TMB: usize> Waiters<W, WB, EB, TMB> {
    /// Waiters whose "not done" decision comes L = `limit` cycles after suspension.
    pub fn new(limit: u32) -> Self {
        assert!(limit >= 1 && u64::from(limit - 1) < (1u64 << TMB) && (1 << WB) == W);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            op_warp: Default::default(),
            op_entry: Default::default(),
            op_parity: Default::default(),
            acc_entry: Default::default(),
            susp_go: Default::default(),
            try_go: Default::default(),
            c_complete: Default::default(),
            c_cpar: Default::default(),
            grant: Default::default(),
            cand: Default::default(),
            warp_susp: Default::default(),
            waiters_on: Default::default(),
            wake_mask: Default::default(),
            wake_done: Default::default(),
            suspended: Default::default(),
            susp: Default::default(),
            decided: Default::default(),
            done: Default::default(),
            wparity: Default::default(),
            wentry: std::array::from_fn(|_| Default::default()),
            timer: std::array::from_fn(|_| Default::default()),
            wake_mask_r: Default::default(),
            wake_done_r: Default::default(),
            on_q: Default::default(),
            on_new_q: Default::default(),
            cpl_q: Default::default(),
            pend_q: Default::default(),
            dec_e: Default::default(),
            done_e: Default::default(),
            pend_n: Default::default(),
            on_n: Default::default(),
            dec_n: Default::default(),
            done_n: Default::default(),
            par_n: Default::default(),
            new_bit: Default::default(),
            hit: Default::default(),
            limit_m1: Constant::new(u64::from(limit - 1).into()),
            one_t: Constant::new(1u64.into()),
            warp_idx: std::array::from_fn(|w| Constant::new((w as u64).into())),
        }
    }
}

impl<const W: usize, const WB: usize, const EB: usize, const TMB: usize> Logic
    for Waiters<W, WB, EB, TMB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            susp,
            decided,
            done,
            wparity,
            wake_mask_r,
            wake_done_r,
            on_q,
            on_new_q,
            cpl_q,
            pend_q
        );
        if self.cpl_q.q.val() {
            self.dec_e.next = self.decided.q.val() | self.pend_q.q.val();
            self.done_e.next = self.done.q.val() | self.pend_q.q.val();
        } else {
            self.dec_e.next = self.decided.q.val();
            self.done_e.next = self.done.q.val();
        }
        self.warp_susp.next = self.susp.q.val().get_bit(self.op_warp.val().index());
        self.on_n.next = 0.into();
        self.dec_n.next = self.dec_e.val();
        self.done_n.next = self.done_e.val();
        self.pend_n.next = 0.into();
        self.par_n.next = self.wparity.q.val();
        self.new_bit.next = 0.into();
        for w in 0..W {
            self.wentry[w].clock.next = self.clock.val();
            self.timer[w].clock.next = self.clock.val();
            self.wentry[w].d.next = self.wentry[w].q.val();
            self.timer[w].d.next = self.timer[w].q.val();
            if self.susp.q.val().get_bit(w) & (self.wentry[w].q.val() == self.acc_entry.val()) {
                self.on_n.next = self.on_n.val().replace_bit(w, true);
            }
            // Decision: a completion of the awaited phase (applied in the
            // next cycle through `pend_q`/`cpl_q`, and first), then the limit.
            self.hit.next = (self.op_entry.val() == self.wentry[w].q.val())
                & (self.c_cpar.val() == self.wparity.q.val().get_bit(w));
            if self.susp.q.val().get_bit(w) & !self.dec_e.val().get_bit(w) {
                if self.hit.val() {
                    self.pend_n.next = self.pend_n.val().replace_bit(w, true);
                }
                if self.timer[w].q.val() >= self.limit_m1.val() {
                    self.dec_n.next = self.dec_n.val().replace_bit(w, true);
                }
                // The timer counts whether or not the completion decides the
                // warp this cycle (a decided warp's timer is never read), so
                // it does not wait for the step.
                if self.timer[w].q.val() < self.limit_m1.val() {
                    self.timer[w].d.next = self.timer[w].q.val() + self.one_t.val();
                }
            }
            // A try_wait of an unsuspended warp loads its entry, parity and
            // timer whether or not it suspends (they are read only while
            // suspended): only the `susp` bit waits for the decision.
            if self.try_go.val()
                & !self.susp.q.val().get_bit(w)
                & (self.op_warp.val() == self.warp_idx[w].val())
            {
                self.par_n.next = self.par_n.val().replace_bit(w, self.op_parity.val());
                self.wentry[w].d.next = self.op_entry.val();
                self.timer[w].d.next = 0.into();
            }
            // A new suspension (the warp was not suspended: the op port refuses otherwise).
            if self.susp_go.val() & (self.op_warp.val() == self.warp_idx[w].val()) {
                self.new_bit.next = self.new_bit.val().replace_bit(w, true);
            }
        }
        self.cand.next = self.susp.q.val() & self.dec_e.val();

        // Next state: granted warps leave, the new one enters.
        self.susp.d.next = (self.susp.q.val() & !self.grant.val()) | self.new_bit.val();
        self.decided.d.next = self.dec_n.val() & !self.grant.val();
        self.done.d.next = self.done_n.val() & !self.grant.val();
        self.wparity.d.next = self.par_n.val();
        self.wake_mask_r.d.next = self.grant.val();
        self.wake_done_r.d.next = self.grant.val() & self.done_e.val();
        self.cpl_q.d.next = self.c_complete.val();
        self.pend_q.d.next = self.pend_n.val();
        self.on_q.d.next = self.on_n.val();
        self.on_new_q.d.next = self.susp_go.val() & (self.op_entry.val() == self.acc_entry.val());
        if self.reset.val() {
            self.on_q.d.next = 0.into();
            self.on_new_q.d.next = false;
            self.cpl_q.d.next = false;
            self.pend_q.d.next = 0.into();
            self.susp.d.next = 0.into();
            self.decided.d.next = 0.into();
            self.done.d.next = 0.into();
            self.wake_mask_r.d.next = 0.into();
            self.wake_done_r.d.next = 0.into();
        }
        self.wake_mask.next = self.wake_mask_r.q.val();
        self.wake_done.next = self.wake_done_r.q.val();
        self.suspended.next = self.susp.q.val();
        // Suspended on the stepped entry: at its acceptance and not woken
        // at that edge, or suspended at that edge on it.
        self.waiters_on.next =
            self.on_new_q.q.val() | (self.on_q.q.val() & !self.wake_mask_r.q.val()).any();
    }
}

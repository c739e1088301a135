//! `cluster_barrier`: the per-cluster aggregator of
//! `barrier.cluster.arrive` / `wait` (`spec/cluster_barrier.md`), one block.
//!
//! The RTL twin of the golden kernel `bar_unit_model::cluster_barrier::eval`
//! (all of it): registers `arrived` (N), `phase`, and the done register
//! (`done_q`, `done_phase_q`). A rank's arrival is bad if it already arrived
//! in the phase or is gone (`bad = arv & (arrived | gone)`, combinational
//! `err`/`err_rank`); good arrivals are added; when `arrived | good | gone`
//! covers every rank with at least one arrival, the phase completes at this
//! edge (`arrived` clears, `phase` toggles, `done` pulses next cycle with the
//! old parity). Synchronous reset; every output is 0 in a reset cycle.
//!
//! Ports (N = ranks):
//! - `clock`, `reset`: clock and synchronous reset.
//! - `arv` (in, N): per-rank arrival pulses; `gone` (in, N): per-rank exited level.
//! - `done`, `done_phase`, `phase` (out): completion pulse, its parity, current parity.
//! - `arrived` (out, N): ranks arrived in the current phase.
//! - `err`, `err_rank` (out, N): bad arrivals this cycle.

use rust_hdl::prelude::*;

/// The cluster barrier aggregator for N ranks.
#[derive(LogicBlock)]
pub struct ClusterBarrier<const N: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub arv: Signal<In, Bits<N>>,
    pub gone: Signal<In, Bits<N>>,
    pub done: Signal<Out, Bit>,
    pub done_phase: Signal<Out, Bit>,
    pub phase: Signal<Out, Bit>,
    pub arrived: Signal<Out, Bits<N>>,
    pub err: Signal<Out, Bit>,
    pub err_rank: Signal<Out, Bits<N>>,
    arrived_q: DFF<Bits<N>>,
    phase_q: DFF<Bit>,
    done_q: DFF<Bit>,
    done_phase_q: DFF<Bit>,
    bad: Signal<Local, Bits<N>>,
    arrived_n: Signal<Local, Bits<N>>,
    all_ranks: Constant<Bits<N>>,
}

impl<const N: usize> Default for ClusterBarrier<N> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            arv: Default::default(),
            gone: Default::default(),
            done: Default::default(),
            done_phase: Default::default(),
            phase: Default::default(),
            arrived: Default::default(),
            err: Default::default(),
            err_rank: Default::default(),
            arrived_q: Default::default(),
            phase_q: Default::default(),
            done_q: Default::default(),
            done_phase_q: Default::default(),
            bad: Default::default(),
            arrived_n: Default::default(),
            all_ranks: Constant::new(((1u64 << N) - 1).into()),
        }
    }
}

impl<const N: usize> Logic for ClusterBarrier<N> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, arrived_q, phase_q, done_q, done_phase_q);
        self.bad.next = self.arv.val() & (self.arrived_q.q.val() | self.gone.val());
        self.arrived_n.next = self.arrived_q.q.val() | (self.arv.val() & !self.bad.val());
        self.done.next = self.done_q.q.val();
        self.done_phase.next = self.done_q.q.val() & self.done_phase_q.q.val();
        self.phase.next = self.phase_q.q.val();
        self.arrived.next = self.arrived_q.q.val();
        self.err.next = self.bad.val().any();
        self.err_rank.next = self.bad.val();
        self.arrived_q.d.next = self.arrived_n.val();
        self.done_q.d.next = false;
        self.done_phase_q.d.next = false;
        if self.arrived_n.val().any()
            & ((self.arrived_n.val() | self.gone.val()) == self.all_ranks.val())
        {
            self.arrived_q.d.next = 0.into();
            self.phase_q.d.next = !self.phase_q.q.val();
            self.done_q.d.next = true;
            self.done_phase_q.d.next = self.phase_q.q.val();
        }
        if self.reset.val() {
            self.arrived_q.d.next = 0.into();
            self.phase_q.d.next = false;
            self.done_q.d.next = false;
            self.done_phase_q.d.next = false;
            self.done.next = false;
            self.done_phase.next = false;
            self.phase.next = false;
            self.arrived.next = 0.into();
            self.err.next = false;
            self.err_rank.next = 0.into();
        }
    }
}

//! CTA barrier bank: the 16 named barriers of one CTA slot and the slot's
//! own registers (`busy`, `size`, `live`). The unit has one bank per slot.
//!
//! Implements, for one slot, these parts of the golden kernel
//! (`sim/bar_unit/src/bar_unit.rs`, `eval`): the per-barrier registers
//! (`Barrier`: `active`, `all`, `expected`, `count`, `kind`, `popc`,
//! `and_acc`, `or_acc`), the arrival update and its completion test
//! (`done = count >= live` / `count >= expected`), `complete()` (result
//! selection and clearing the barrier), the launch (`slot_busy`, `slot_size`,
//! `slot_live`) and the exit (live count down, last exit clears the slot,
//! otherwise the lowest "all" barrier whose arrivals reach the new live count
//! completes). The waiting masks are not here: a blocked warp waits on
//! exactly one barrier, so the warp table keeps its (slot, id) instead.
//!
//! Ports (CB = count width, RB = reduction width):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `launch_en` (in): a legal LAUNCH into this slot is taken; `launch_size` (in, CB) its warps.
//! - `exit_en` (in): a legal EXIT of a warp of this slot is taken.
//! - `arr_en` (in): a legal arrival at barrier `req_id` of this slot is taken.
//! - `req_id` (in, 4): the barrier read (`rd_*`) and written by an arrival.
//! - `arr_all`, `arr_count` (CB), `arr_kind` (3): the arrival's count form, count and phase kind.
//! - `arr_popc` (in, RB), `arr_and`, `arr_or`: popcount / AND / OR of the arrival's predicates.
//! - `busy`, `size` (CB) (out): the slot's registers.
//! - `rd_active`, `rd_all`, `rd_expected` (CB), `rd_kind` (3) (out): barrier `req_id`, for the request checks.
//! - `done` (out): a barrier of this slot completes at this edge; `done_id` (4),
//!   `done_kind` (3), `done_result` (RB): which, its kind and its result.

use rust_hdl::prelude::*;

/// The 16 barriers of one CTA slot.
#[derive(LogicBlock)]
pub struct CtaBarriers<const CB: usize, const RB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub launch_en: Signal<In, Bit>,
    pub launch_size: Signal<In, Bits<CB>>,
    pub exit_en: Signal<In, Bit>,
    pub arr_en: Signal<In, Bit>,
    pub req_id: Signal<In, Bits<4>>,
    pub arr_all: Signal<In, Bit>,
    pub arr_count: Signal<In, Bits<CB>>,
    pub arr_kind: Signal<In, Bits<3>>,
    pub arr_popc: Signal<In, Bits<RB>>,
    pub arr_and: Signal<In, Bit>,
    pub arr_or: Signal<In, Bit>,
    pub busy: Signal<Out, Bit>,
    pub size: Signal<Out, Bits<CB>>,
    pub rd_active: Signal<Out, Bit>,
    pub rd_all: Signal<Out, Bit>,
    pub rd_expected: Signal<Out, Bits<CB>>,
    pub rd_kind: Signal<Out, Bits<3>>,
    pub done: Signal<Out, Bit>,
    pub done_id: Signal<Out, Bits<4>>,
    pub done_kind: Signal<Out, Bits<3>>,
    pub done_result: Signal<Out, Bits<RB>>,
    busy_q: DFF<Bit>,
    size_q: DFF<Bits<CB>>,
    live_q: DFF<Bits<CB>>,
    active: [DFF<Bit>; 16],
    all: [DFF<Bit>; 16],
    expected: [DFF<Bits<CB>>; 16],
    count: [DFF<Bits<CB>>; 16],
    kind: [DFF<Bits<3>>; 16],
    popc: [DFF<Bits<RB>>; 16],
    and_acc: [DFF<Bit>; 16],
    or_acc: [DFF<Bit>; 16],
    /// Barrier `req_id`'s count, popc, and, or.
    sel_count: Signal<Local, Bits<CB>>,
    sel_popc: Signal<Local, Bits<RB>>,
    sel_and: Signal<Local, Bit>,
    sel_or: Signal<Local, Bit>,
    /// The arrival's barrier after the arrival: count, popc, and, or.
    new_count: Signal<Local, Bits<CB>>,
    new_popc: Signal<Local, Bits<RB>>,
    new_and: Signal<Local, Bit>,
    new_or: Signal<Local, Bit>,
    /// Arrivals that complete the arrival's phase.
    target: Signal<Local, Bits<CB>>,
    arr_done: Signal<Local, Bit>,
    /// The live count after an exit.
    live_dec: Signal<Local, Bits<CB>>,
    /// An exit completes a barrier (the lowest matching id).
    exit_found: Signal<Local, Bit>,
    id_const: [Constant<Bits<4>>; 16],
    one: Constant<Bits<CB>>,
    one_rb: Constant<Bits<RB>>,
    k_popc: Constant<Bits<3>>,
    k_and: Constant<Bits<3>>,
    k_or: Constant<Bits<3>>,
}

impl<const CB: usize, const RB: usize> Default for CtaBarriers<CB, RB> {
    fn default() -> Self {
        use bar_unit_model::ports::op;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            launch_en: Default::default(),
            launch_size: Default::default(),
            exit_en: Default::default(),
            arr_en: Default::default(),
            req_id: Default::default(),
            arr_all: Default::default(),
            arr_count: Default::default(),
            arr_kind: Default::default(),
            arr_popc: Default::default(),
            arr_and: Default::default(),
            arr_or: Default::default(),
            busy: Default::default(),
            size: Default::default(),
            rd_active: Default::default(),
            rd_all: Default::default(),
            rd_expected: Default::default(),
            rd_kind: Default::default(),
            done: Default::default(),
            done_id: Default::default(),
            done_kind: Default::default(),
            done_result: Default::default(),
            busy_q: Default::default(),
            size_q: Default::default(),
            live_q: Default::default(),
            active: std::array::from_fn(|_| Default::default()),
            all: std::array::from_fn(|_| Default::default()),
            expected: std::array::from_fn(|_| Default::default()),
            count: std::array::from_fn(|_| Default::default()),
            kind: std::array::from_fn(|_| Default::default()),
            popc: std::array::from_fn(|_| Default::default()),
            and_acc: std::array::from_fn(|_| Default::default()),
            or_acc: std::array::from_fn(|_| Default::default()),
            sel_count: Default::default(),
            sel_popc: Default::default(),
            sel_and: Default::default(),
            sel_or: Default::default(),
            new_count: Default::default(),
            new_popc: Default::default(),
            new_and: Default::default(),
            new_or: Default::default(),
            target: Default::default(),
            arr_done: Default::default(),
            live_dec: Default::default(),
            exit_found: Default::default(),
            id_const: std::array::from_fn(|a| Constant::new((a as u64).into())),
            one: Constant::new(1u64.into()),
            one_rb: Constant::new(1u64.into()),
            k_popc: Constant::new((op::RED_POPC as u64).into()),
            k_and: Constant::new((op::RED_AND as u64).into()),
            k_or: Constant::new((op::RED_OR as u64).into()),
        }
    }
}

impl<const CB: usize, const RB: usize> Logic for CtaBarriers<CB, RB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy_q, size_q, live_q);
        for a in 0..16 {
            self.active[a].clock.next = self.clock.val();
            self.active[a].d.next = self.active[a].q.val();
            self.all[a].clock.next = self.clock.val();
            self.all[a].d.next = self.all[a].q.val();
            self.expected[a].clock.next = self.clock.val();
            self.expected[a].d.next = self.expected[a].q.val();
            self.count[a].clock.next = self.clock.val();
            self.count[a].d.next = self.count[a].q.val();
            self.kind[a].clock.next = self.clock.val();
            self.kind[a].d.next = self.kind[a].q.val();
            self.popc[a].clock.next = self.clock.val();
            self.popc[a].d.next = self.popc[a].q.val();
            self.and_acc[a].clock.next = self.clock.val();
            self.and_acc[a].d.next = self.and_acc[a].q.val();
            self.or_acc[a].clock.next = self.clock.val();
            self.or_acc[a].d.next = self.or_acc[a].q.val();
        }
        self.busy.next = self.busy_q.q.val();
        self.size.next = self.size_q.q.val();

        // Read port: barrier `req_id`.
        self.rd_active.next = false;
        self.rd_all.next = false;
        self.rd_expected.next = 0.into();
        self.rd_kind.next = 0.into();
        self.sel_count.next = 0.into();
        self.sel_popc.next = 0.into();
        self.sel_and.next = false;
        self.sel_or.next = false;
        for a in 0..16 {
            if self.req_id.val() == self.id_const[a].val() {
                self.rd_active.next = self.active[a].q.val();
                self.rd_all.next = self.all[a].q.val();
                self.rd_expected.next = self.expected[a].q.val();
                self.rd_kind.next = self.kind[a].q.val();
                self.sel_count.next = self.count[a].q.val();
                self.sel_popc.next = self.popc[a].q.val();
                self.sel_and.next = self.and_acc[a].q.val();
                self.sel_or.next = self.or_acc[a].q.val();
            }
        }

        // The arrival: a closed barrier opens a phase with this arrival's
        // values; an open one accumulates (form and kind were checked equal).
        if self.rd_active.val() {
            self.new_count.next = self.sel_count.val() + self.one.val();
            self.new_popc.next = self.sel_popc.val() + self.arr_popc.val();
            self.new_and.next = self.sel_and.val() & self.arr_and.val();
            self.new_or.next = self.sel_or.val() | self.arr_or.val();
        } else {
            self.new_count.next = self.one.val();
            self.new_popc.next = self.arr_popc.val();
            self.new_and.next = self.arr_and.val();
            self.new_or.next = self.arr_or.val();
        }
        if self.arr_all.val() {
            self.target.next = self.live_q.q.val();
        } else {
            self.target.next = self.arr_count.val();
        }
        self.arr_done.next = self.new_count.val() >= self.target.val();

        self.done.next = false;
        self.done_id.next = 0.into();
        self.done_kind.next = 0.into();
        self.done_result.next = 0.into();
        self.live_dec.next = self.live_q.q.val() - self.one.val();
        self.exit_found.next = false;

        if self.arr_en.val() {
            for a in 0..16 {
                if self.req_id.val() == self.id_const[a].val() {
                    if self.arr_done.val() {
                        self.active[a].d.next = false;
                        self.all[a].d.next = false;
                        self.expected[a].d.next = 0.into();
                        self.count[a].d.next = 0.into();
                        self.kind[a].d.next = 0.into();
                        self.popc[a].d.next = 0.into();
                        self.and_acc[a].d.next = false;
                        self.or_acc[a].d.next = false;
                    } else {
                        self.active[a].d.next = true;
                        self.all[a].d.next = self.arr_all.val();
                        if self.arr_all.val() {
                            self.expected[a].d.next = 0.into();
                        } else {
                            self.expected[a].d.next = self.arr_count.val();
                        }
                        self.count[a].d.next = self.new_count.val();
                        self.kind[a].d.next = self.arr_kind.val();
                        self.popc[a].d.next = self.new_popc.val();
                        self.and_acc[a].d.next = self.new_and.val();
                        self.or_acc[a].d.next = self.new_or.val();
                    }
                }
            }
            if self.arr_done.val() {
                self.done.next = true;
                self.done_id.next = self.req_id.val();
                self.done_kind.next = self.arr_kind.val();
                if self.arr_kind.val() == self.k_popc.val() {
                    self.done_result.next = self.new_popc.val();
                }
                if (self.arr_kind.val() == self.k_and.val()) & self.new_and.val() {
                    self.done_result.next = self.one_rb.val();
                }
                if (self.arr_kind.val() == self.k_or.val()) & self.new_or.val() {
                    self.done_result.next = self.one_rb.val();
                }
            }
        }

        if self.launch_en.val() {
            self.busy_q.d.next = true;
            self.size_q.d.next = self.launch_size.val();
            self.live_q.d.next = self.launch_size.val();
        }

        if self.exit_en.val() {
            self.live_q.d.next = self.live_dec.val();
            if !self.live_dec.val().any() {
                self.busy_q.d.next = false;
                self.size_q.d.next = 0.into();
                for a in 0..16 {
                    self.active[a].d.next = false;
                    self.all[a].d.next = false;
                    self.expected[a].d.next = 0.into();
                    self.count[a].d.next = 0.into();
                    self.kind[a].d.next = 0.into();
                    self.popc[a].d.next = 0.into();
                    self.and_acc[a].d.next = false;
                    self.or_acc[a].d.next = false;
                }
            } else {
                for a in 0..16 {
                    if !self.exit_found.val()
                        & self.active[a].q.val()
                        & self.all[a].q.val()
                        & (self.count[a].q.val() >= self.live_dec.val())
                    {
                        self.exit_found.next = true;
                        self.done.next = true;
                        self.done_id.next = self.id_const[a].val();
                        self.done_kind.next = self.kind[a].q.val();
                        if self.kind[a].q.val() == self.k_popc.val() {
                            self.done_result.next = self.popc[a].q.val();
                        }
                        if (self.kind[a].q.val() == self.k_and.val()) & self.and_acc[a].q.val() {
                            self.done_result.next = self.one_rb.val();
                        }
                        if (self.kind[a].q.val() == self.k_or.val()) & self.or_acc[a].q.val() {
                            self.done_result.next = self.one_rb.val();
                        }
                        self.active[a].d.next = false;
                        self.all[a].d.next = false;
                        self.expected[a].d.next = 0.into();
                        self.count[a].d.next = 0.into();
                        self.kind[a].d.next = 0.into();
                        self.popc[a].d.next = 0.into();
                        self.and_acc[a].d.next = false;
                        self.or_acc[a].d.next = false;
                    }
                }
            }
        }

        if self.reset.val() {
            self.busy_q.d.next = false;
            self.size_q.d.next = 0.into();
            self.live_q.d.next = 0.into();
            for a in 0..16 {
                self.active[a].d.next = false;
                self.all[a].d.next = false;
                self.expected[a].d.next = 0.into();
                self.count[a].d.next = 0.into();
                self.kind[a].d.next = 0.into();
                self.popc[a].d.next = 0.into();
                self.and_acc[a].d.next = false;
                self.or_acc[a].d.next = false;
            }
        }
    }
}

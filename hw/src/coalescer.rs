//! Coalescer: the open slot. Collects the MEMBARs that join the open
//! coalesced barrier, decides when it closes, and opens the next slot.
//!
//! Twin of `State::{open, nmem, age}` and of the closing and joining parts of
//! `membar_unit_model::membar_unit::eval` (`mismatch`, `can_close`, `by_window`,
//! `by_full`, `close`, `accept_join`, "Close the open slot and open the next
//! one").
//!
//! The open slot closes when it has members, fewer than `max_outstanding`
//! slots are closed, the sequencer is idle, the next slot's counter is zero,
//! and its window expired
//! (`age >= coalesce_window`, or `age >= lone_window` for a `lone` slot, whose
//! first member joined while no closed slot awaited release: no window tax on
//! a lone barrier), it is full (`nmem >= ways`) or, with
//! `level_mix: split`, a MEMBAR of another level asks to join. A joining MEMBAR
//! is accepted into the open slot, or into the next one when the open slot
//! closes in the same cycle; it is refused while the open slot is full or must
//! split and cannot close. `age` counts cycles since the first member joined
//! and saturates at `coalesce_window` (a `lone_window` above it never fires
//! first, so it acts as `coalesce_window`, as in the model).
//!
//! Parameters (constants baked in by the constructor): `ways` (MB bits,
//! MB = WB + 1 so `ways = W` fits), `window` and `lone_window` (8 bits), `max_outstanding`
//! (TB bits; at most K - 1), `split` (`level_mix: split`).
//!
//! Ports (K slots, TB = log2 K):
//! - `clock`, `reset`: the unit's clock and synchronous reset.
//! - `joining` (in): a live MEMBAR that needs a coalesced barrier (request gate).
//! - `req_level` (in, 2): its level.
//! - `open_level` (in, 2): the open slot's level (slot ring).
//! - `head_tag` (in, TB): the oldest closed slot (slot ring); `open - head` slots are closed.
//! - `seq_busy` (in): the sequencer still emits the previous slot's commands.
//! - `next_clean` (in): the slot after the open one counts no TXNs, so it may
//!   be opened (commit counters).
//! - `open_tag` (out, TB): the open slot, which tags accepted TXNs.
//! - `close` (out): the open slot closes this cycle.
//! - `accept_join` (out): the joining MEMBAR is accepted.
//! - `join_tag` (out, TB): the slot it joins (the open slot after this cycle).
//! - `join_first` (out): that slot has no members yet, so the joiner sets its
//!   level and ivall instead of merging into them.

use rust_hdl::prelude::*;

/// The open slot and the close/join decisions (TB = log2 K, MB = log2 W + 1).
#[derive(LogicBlock)]
pub struct Coalescer<const TB: usize, const MB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub joining: Signal<In, Bit>,
    pub req_level: Signal<In, Bits<2>>,
    pub open_level: Signal<In, Bits<2>>,
    pub head_tag: Signal<In, Bits<TB>>,
    pub seq_busy: Signal<In, Bit>,
    pub next_clean: Signal<In, Bit>,
    pub open_tag: Signal<Out, Bits<TB>>,
    pub close: Signal<Out, Bit>,
    pub accept_join: Signal<Out, Bit>,
    pub join_tag: Signal<Out, Bits<TB>>,
    pub join_first: Signal<Out, Bit>,
    /// The open slot (model `open`).
    open: DFF<Bits<TB>>,
    /// Members of the open slot (model `nmem`).
    nmem: DFF<Bits<MB>>,
    /// Cycles since the open slot's first member joined (model `age`).
    age: DFF<Bits<8>>,
    /// The open slot's first member joined with nothing older outstanding (model `lone`).
    lone: DFF<Bit>,
    nclosed: Signal<Local, Bits<TB>>,
    has_members: Signal<Local, Bit>,
    mismatch: Signal<Local, Bit>,
    can_close: Signal<Local, Bit>,
    by_window: Signal<Local, Bit>,
    by_coalesce: Signal<Local, Bit>,
    by_lone: Signal<Local, Bit>,
    by_full: Signal<Local, Bit>,
    nmem_kept: Signal<Local, Bits<MB>>,
    ways: Constant<Bits<MB>>,
    window: Constant<Bits<8>>,
    /// `lone_window`, at least 1 (`lone_zero` covers 0 without a constant comparison).
    lone_c: Constant<Bits<8>>,
    lone_zero: Constant<Bit>,
    max_outstanding: Constant<Bits<TB>>,
    split: Constant<Bit>,
    one_tag: Constant<Bits<TB>>,
    one_nmem: Constant<Bits<MB>>,
    one_age: Constant<Bits<8>>,
}

impl<const TB: usize, const MB: usize> Coalescer<TB, MB> {
    /// A coalescer with the given `ways`, `coalesce_window`, `lone_window`,
    /// `max_outstanding` and `level_mix == split` (already validated).
    pub fn new(
        ways: u32,
        window: u32,
        lone_window: u32,
        max_outstanding: u32,
        split: bool,
    ) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            joining: Default::default(),
            req_level: Default::default(),
            open_level: Default::default(),
            head_tag: Default::default(),
            seq_busy: Default::default(),
            next_clean: Default::default(),
            open_tag: Default::default(),
            close: Default::default(),
            accept_join: Default::default(),
            join_tag: Default::default(),
            join_first: Default::default(),
            open: Default::default(),
            nmem: Default::default(),
            age: Default::default(),
            lone: Default::default(),
            nclosed: Default::default(),
            has_members: Default::default(),
            mismatch: Default::default(),
            can_close: Default::default(),
            by_window: Default::default(),
            by_coalesce: Default::default(),
            by_lone: Default::default(),
            by_full: Default::default(),
            nmem_kept: Default::default(),
            ways: Constant::new(u64::from(ways).into()),
            window: Constant::new(u64::from(window).into()),
            lone_c: Constant::new(u64::from(lone_window.max(1)).into()),
            lone_zero: Constant::new(lone_window == 0),
            max_outstanding: Constant::new(u64::from(max_outstanding).into()),
            split: Constant::new(split),
            one_tag: Constant::new(1u64.into()),
            one_nmem: Constant::new(1u64.into()),
            one_age: Constant::new(1u64.into()),
        }
    }
}

impl<const TB: usize, const MB: usize> Logic for Coalescer<TB, MB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, open, nmem, age, lone);
        self.open_tag.next = self.open.q.val();

        // Close and join decisions.
        self.nclosed.next = self.open.q.val() - self.head_tag.val();
        self.has_members.next = self.nmem.q.val().any();
        self.mismatch.next = self.split.val()
            & self.joining.val()
            & self.has_members.val()
            & (self.req_level.val() != self.open_level.val());
        self.can_close.next = self.has_members.val()
            & (self.nclosed.val() < self.max_outstanding.val())
            & !self.seq_busy.val()
            & self.next_clean.val();
        // `age` never exceeds the window (it saturates there), so the model's
        // `age >= window` is `age == window`; for window 0 the `>=` form would be
        // a constant comparison (a lint error), this one is not.
        self.by_coalesce.next = self.age.q.val() == self.window.val();
        // A lone slot (nothing older outstanding when it opened): the lone window.
        self.by_lone.next =
            self.lone.q.val() & (self.lone_zero.val() | (self.age.q.val() >= self.lone_c.val()));
        self.by_window.next = self.by_coalesce.val() | self.by_lone.val();
        self.by_full.next = self.nmem.q.val() >= self.ways.val();
        self.close.next = self.can_close.val()
            & (self.by_window.val() | self.by_full.val() | self.mismatch.val());
        self.accept_join.next = self.joining.val()
            & (self.close.val() | ((self.nmem.q.val() < self.ways.val()) & !self.mismatch.val()));
        self.join_first.next = self.close.val() | !self.has_members.val();

        // Next state: close (open the next slot) or age, then join.
        if self.close.val() {
            self.join_tag.next = self.open.q.val() + self.one_tag.val();
            self.nmem_kept.next = 0.into();
            self.age.d.next = 0.into();
        } else {
            self.join_tag.next = self.open.q.val();
            self.nmem_kept.next = self.nmem.q.val();
            if self.has_members.val() & !self.by_coalesce.val() {
                self.age.d.next = self.age.q.val() + self.one_age.val();
            }
        }
        // `lone` of the slot a first member would join (the next one when the
        // open slot closes now: never lone), loaded whether or not a MEMBAR
        // joins (it is read only once the slot has members), so that it does
        // not wait for the accept decision.
        if self.join_first.val() {
            self.lone.d.next = !self.close.val() & !self.nclosed.val().any();
        }
        self.open.d.next = self.join_tag.val();
        self.nmem.d.next = self.nmem_kept.val();
        if self.accept_join.val() {
            self.nmem.d.next = self.nmem_kept.val() + self.one_nmem.val();
            if self.join_first.val() {
                self.age.d.next = 0.into();
            }
        }
        if self.reset.val() {
            self.open.d.next = 0.into();
            self.nmem.d.next = 0.into();
            self.age.d.next = 0.into();
            self.lone.d.next = false;
        }
    }
}

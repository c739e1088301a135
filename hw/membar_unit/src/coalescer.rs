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
//! - `closed_set` (in, K): the closed slots (slot ring); the model's
//!   `open - head` is their number (closed slots are `head .. open-1`).
//! - `seq_busy` (in): the sequencer still emits the previous slot's commands.
//! - `next_clean` (in): the slot after the open one counts no TXNs, so it may
//!   be opened (commit counters).
//! - `open_tag` (out, TB): the open slot, which tags accepted TXNs.
//! - `close` (out): the open slot closes this cycle.
//! - `join_ok` (out): a live MEMBAR that needs a coalesced barrier would be
//!   accepted this cycle (state only: the request gate uses it per warp,
//!   without the `warp_blocked[req_warp]` multiplexer of `joining`).
//! - `accept_join` (out): the joining MEMBAR is accepted (`joining & join_ok`).
//! - `join_tag` (out, TB): the slot it joins (the open slot after this cycle).
//! - `join_first` (out): that slot has no members yet, so the joiner sets its
//!   level and ivall instead of merging into them.

use rust_hdl::prelude::*;

/// The open slot and the close/join decisions (K slots, TB = log2 K, MB = log2 W + 1).
#[derive(LogicBlock)]
pub struct Coalescer<const K: usize, const TB: usize, const MB: usize> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub joining: Signal<In, Bit>,
    pub req_level: Signal<In, Bits<2>>,
    pub open_level: Signal<In, Bits<2>>,
    pub closed_set: Signal<In, Bits<K>>,
    pub seq_busy: Signal<In, Bit>,
    pub next_clean: Signal<In, Bit>,
    pub open_tag: Signal<Out, Bits<TB>>,
    pub close: Signal<Out, Bit>,
    pub join_ok: Signal<Out, Bit>,
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
    /// Flags of `nmem` and `age` kept in step with them (set from the same
    /// decisions, never compared from the registers in the cycle they are
    /// read), so the close decision starts at flops: `nz_f` = nmem > 0,
    /// `full_f` = nmem == ways, `am1_f` = nmem == ways - 1, `bc_f` = age ==
    /// coalesce_window, `ge_f` = age >= lone_window. `am1_f` and `bc_f` are
    /// stored XOR their value in the empty state (`ways == 1`, window 0), so
    /// every flag powers up (all flops 0) consistent with `nmem = age = 0`.
    nz_f: DFF<Bit>,
    full_f: DFF<Bit>,
    am1_f: DFF<Bit>,
    bc_f: DFF<Bit>,
    ge_f: DFF<Bit>,
    room: Signal<Local, Bit>,
    none_closed: Signal<Local, Bit>,
    has_members: Signal<Local, Bit>,
    mismatch: Signal<Local, Bit>,
    level_differs: Signal<Local, Bit>,
    can_close: Signal<Local, Bit>,
    by_window: Signal<Local, Bit>,
    by_coalesce: Signal<Local, Bit>,
    by_lone: Signal<Local, Bit>,
    by_full: Signal<Local, Bit>,
    nmem_kept: Signal<Local, Bits<MB>>,
    zeroed: Signal<Local, Bit>,
    aging: Signal<Local, Bit>,
    k_nz: Signal<Local, Bit>,
    k_full: Signal<Local, Bit>,
    k_am1: Signal<Local, Bit>,
    k_am2: Signal<Local, Bit>,
    age_inc: Signal<Local, Bits<8>>,
    ways_m2: Constant<Bits<MB>>,
    has_m2: Constant<Bit>,
    ways_is_1: Constant<Bit>,
    ways_is_2: Constant<Bit>,
    win_m1: Constant<Bits<8>>,
    win_pos: Constant<Bit>,
    win_zero: Constant<Bit>,
    /// `lone_window`, at least 1 (`lone_zero` covers 0 without a constant comparison).
    lone_c: Constant<Bits<8>>,
    lone_zero: Constant<Bit>,
    /// Per open slot k: the slot `k - max_outstanding` and the slot `k - 1`, one-hot.
    mo_back: [Constant<Bits<K>>; K],
    one_back: [Constant<Bits<K>>; K],
    split: Constant<Bit>,
    one_tag: Constant<Bits<TB>>,
    one_nmem: Constant<Bits<MB>>,
    one_age: Constant<Bits<8>>,
}

impl<const K: usize, const TB: usize, const MB: usize> Coalescer<K, TB, MB> {
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
            closed_set: Default::default(),
            seq_busy: Default::default(),
            next_clean: Default::default(),
            open_tag: Default::default(),
            close: Default::default(),
            join_ok: Default::default(),
            accept_join: Default::default(),
            join_tag: Default::default(),
            join_first: Default::default(),
            open: Default::default(),
            nmem: Default::default(),
            age: Default::default(),
            lone: Default::default(),
            nz_f: Default::default(),
            full_f: Default::default(),
            am1_f: Default::default(),
            bc_f: Default::default(),
            ge_f: Default::default(),
            room: Default::default(),
            none_closed: Default::default(),
            has_members: Default::default(),
            mismatch: Default::default(),
            level_differs: Default::default(),
            can_close: Default::default(),
            by_window: Default::default(),
            by_coalesce: Default::default(),
            by_lone: Default::default(),
            by_full: Default::default(),
            nmem_kept: Default::default(),
            zeroed: Default::default(),
            aging: Default::default(),
            k_nz: Default::default(),
            k_full: Default::default(),
            k_am1: Default::default(),
            k_am2: Default::default(),
            age_inc: Default::default(),
            ways_m2: Constant::new(u64::from(ways.saturating_sub(2)).into()),
            has_m2: Constant::new(ways >= 2),
            ways_is_1: Constant::new(ways == 1),
            ways_is_2: Constant::new(ways == 2),
            win_m1: Constant::new(u64::from(window.saturating_sub(1)).into()),
            win_pos: Constant::new(window >= 1),
            win_zero: Constant::new(window == 0),
            lone_c: Constant::new(u64::from(lone_window.max(1)).into()),
            lone_zero: Constant::new(lone_window == 0),
            mo_back: std::array::from_fn(|k| {
                Constant::new((1u64 << ((k + K - max_outstanding as usize) % K)).into())
            }),
            one_back: std::array::from_fn(|k| Constant::new((1u64 << ((k + K - 1) % K)).into())),
            split: Constant::new(split),
            one_tag: Constant::new(1u64.into()),
            one_nmem: Constant::new(1u64.into()),
            one_age: Constant::new(1u64.into()),
        }
    }
}

impl<const K: usize, const TB: usize, const MB: usize> Logic for Coalescer<K, TB, MB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, open, nmem, age, lone, nz_f, full_f, am1_f, bc_f, ge_f);
        self.open_tag.next = self.open.q.val();

        // Close and join decisions.
        // Room for one more closed slot (the model's `open - head <
        // max_outstanding`) and "nothing closed" (`open == head`): the closed
        // slots are the ring positions open-1, open-2, .. back to head, so
        // there are at least `max_outstanding` of them exactly when slot
        // `open - max_outstanding` is closed, and none when slot `open - 1`
        // is not. One K:1 selection of flops, no subtraction.
        self.room.next = true;
        self.none_closed.next = true;
        for k in 0..K {
            if self.open.q.val().index() == k {
                self.room.next = !(self.closed_set.val() & self.mo_back[k].val()).any();
                self.none_closed.next = !(self.closed_set.val() & self.one_back[k].val()).any();
            }
        }
        self.has_members.next = self.nz_f.q.val();
        self.level_differs.next = self.split.val()
            & self.has_members.val()
            & (self.req_level.val() != self.open_level.val());
        self.mismatch.next = self.joining.val() & self.level_differs.val();
        self.can_close.next =
            self.has_members.val() & self.room.val() & !self.seq_busy.val() & self.next_clean.val();
        // `age` never exceeds the window (it saturates there), so the model's
        // `age >= window` is `age == window` (`bc_f`); `nmem` never exceeds
        // `ways`, so `nmem >= ways` is `full_f`.
        self.by_coalesce.next = self.bc_f.q.val() ^ self.win_zero.val();
        // A lone slot (nothing older outstanding when it opened): the lone window.
        self.by_lone.next = self.lone.q.val() & (self.lone_zero.val() | self.ge_f.q.val());
        self.by_window.next = self.by_coalesce.val() | self.by_lone.val();
        self.by_full.next = self.full_f.q.val();
        self.close.next = self.can_close.val()
            & (self.by_window.val() | self.by_full.val() | self.mismatch.val());
        // The model's `joining & (close | (nmem < ways & !mismatch))`: with
        // `joining` high, `close` is `can_close` whenever the slot is full or
        // must split, and irrelevant otherwise, so the acceptance needs
        // neither `close` nor `joining` but the last AND.
        self.join_ok.next =
            self.can_close.val() | (!self.by_full.val() & !self.level_differs.val());
        self.accept_join.next = self.joining.val() & self.join_ok.val();
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
            self.lone.d.next = !self.close.val() & self.none_closed.val();
        }
        self.open.d.next = self.join_tag.val();
        self.nmem.d.next = self.nmem_kept.val();
        if self.accept_join.val() {
            self.nmem.d.next = self.nmem_kept.val() + self.one_nmem.val();
        }

        // The flags follow the same decisions: the slot empties on close,
        // gains one member on a join; `age` restarts on close or a first
        // join, else counts while the slot has members and is below the
        // window. The comparisons they need read this cycle's registers only.
        if self.close.val() {
            self.k_nz.next = false;
            self.k_full.next = false;
            self.k_am1.next = self.ways_is_1.val();
            self.k_am2.next = self.ways_is_2.val();
        } else {
            self.k_nz.next = self.nz_f.q.val();
            self.k_full.next = self.full_f.q.val();
            self.k_am1.next = self.am1_f.q.val() ^ self.ways_is_1.val();
            self.k_am2.next = self.has_m2.val() & (self.nmem.q.val() == self.ways_m2.val());
        }
        if self.accept_join.val() {
            self.nz_f.d.next = true;
            self.full_f.d.next = self.k_am1.val();
            self.am1_f.d.next = self.k_am2.val() ^ self.ways_is_1.val();
        } else {
            self.nz_f.d.next = self.k_nz.val();
            self.full_f.d.next = self.k_full.val();
            self.am1_f.d.next = self.k_am1.val() ^ self.ways_is_1.val();
        }
        // (The model also restarts `age` on a first join into an empty open
        // slot; its age is 0 already there, so only `close` restarts it here,
        // off the accept decision.)
        self.zeroed.next = self.close.val();
        self.aging.next = self.has_members.val() & !self.by_coalesce.val();
        self.age_inc.next = self.age.q.val() + self.one_age.val();
        if self.zeroed.val() {
            self.bc_f.d.next = false;
            self.ge_f.d.next = false;
        } else if self.aging.val() {
            self.bc_f.d.next = (self.win_pos.val() & (self.age.q.val() == self.win_m1.val()))
                ^ self.win_zero.val();
            self.ge_f.d.next = self.age_inc.val() >= self.lone_c.val();
        }
        if self.reset.val() {
            self.open.d.next = 0.into();
            self.nmem.d.next = 0.into();
            self.age.d.next = 0.into();
            self.lone.d.next = false;
            self.nz_f.d.next = false;
            self.full_f.d.next = false;
            self.am1_f.d.next = false;
            self.bc_f.d.next = false;
            self.ge_f.d.next = false;
        }
    }
}

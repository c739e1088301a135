//! The P1–P7 property scoreboard: checks a port trace of `membar_unit`
//! against `shared/SPEC.md`, every cycle, knowing nothing of the design's
//! internals — only the [`Config`] and each cycle's [`Inputs`]/[`Outputs`].
//! It serves every back end (reference model, rust-hdl, Verilator).
//!
//! Call [`Scoreboard::check`] once per cycle after [`crate::Dut::step`] with
//! that cycle's inputs and outputs, and [`Scoreboard::finish`] after a drain
//! period. The first violation is returned as a [`Violation`] (cycle,
//! property, warp, reason) and is sticky: later calls return it again.
//!
//! # What is tracked (all from the ports)
//!
//! - A FIFO of accepted LD/ST/ATOM/RED (`req_valid && req_ready`); every
//!   transferred TXN (`dn_valid && dn_ready`) must match its head (P3).
//! - Per tag: TXNs transferred, and outstanding = transferred in earlier
//!   cycles minus valid acks of earlier cycles (P1, P4, P7, CNT).
//! - Per warp: its pending MEMBAR (level, ivall, its last prior TXN), the
//!   stream position of its last transferred TXN, and per tag the tag's
//!   transfer count just after its last TXN of that tag (P1 count check).
//! - Stream positions (1, 2, … per transferred command) of the latest BARRIER
//!   of each level, of the latest INVAL D / INVAL T, and per tag the
//!   `dn_ack_req` BARRIERs awaiting `bar_ack` (oldest first).
//!
//! Timing conventions: conditions that justify a release must hold from
//! EARLIER cycles (an ack, bar_ack or transfer in the release cycle itself
//! does not count); `warp_blocked` must equal the set of warps whose MEMBAR
//! was accepted in an earlier cycle and not released in an earlier cycle.
//!
//! # The rules, per property
//!
//! - **P1** at each release of warp *w* (its MEMBAR of level L, `ivall`):
//!   every prior TXN of *w* transferred in an earlier cycle (every level); for
//!   L >= VC a BARRIER of level >= L transferred after them; for L >= GL the
//!   ack count check below; for SYS (and GL when `gl_bar_ack`) a
//!   `dn_ack_req` BARRIER of level >= L after them, bar-acked in an earlier
//!   cycle; for `ivall` the same for a bar-acked BARRIER of level >= L with
//!   the required INVAL D / INVAL T between the prior TXNs and it. At each
//!   BARRIER transfer: `dn_ack_req` set if its level is SYS, if GL with
//!   `gl_bar_ack`, or (coalescing only: the baselines may interleave another
//!   warp's BARRIER) if an INVAL was transferred since the previous BARRIER.
//! - **P2** `warp_blocked` equals the pending set; `release_mask` within it;
//!   `release_valid == (release_mask != 0)`; no bits above W; no request of
//!   a pending warp accepted; every output 0 during reset (P3 for `dn_*`, P7
//!   for `err`).
//! - **P3** the FIFO match (warp, op, id), in order, nothing extra; `dn_*`
//!   stable while stalled; well-formed commands (kind != 3, tag in range,
//!   non-TXN fields 0 as SPEC.md says); `req_ready` only with `req_valid`;
//!   [`Scoreboard::finish`]: nothing accepted and never sent.
//! - **P4** a refused LD/ST/ATOM/RED of a non-pending warp must be excused:
//!   the output stalled this cycle, a counter possibly full (outstanding of
//!   some tag + accepted-but-unsent >= `2^counter_bits - 1`), or an INVAL or
//!   BARRIER presented the next cycle (decided a cycle late, reported at the
//!   refusal's cycle); a plain MEMBAR.CTA of a non-pending warp is never
//!   refused. `lsu_flush` stalls every warp while a MEMBAR is pending, by design.
//! - **P5** see [`liveness_bound_for`].
//! - **P6** BARRIERs transferred never outnumber accepted MEMBARs that need
//!   one; MEMBARs needing one released so far <= `ways` × BARRIERs
//!   transferred in earlier cycles (baselines: one BARRIER per MEMBAR).
//! - **P7** `err` high exactly for a reserved op presented, an ack of a tag
//!   with nothing outstanding, or a bar_ack of a tag with no `dn_ack_req`
//!   BARRIER awaiting it; a reserved op never accepted; spurious acks are not
//!   counted (a design that counts them fails P1/P7 later).
//! - **CNT** no tag has more than `2^counter_bits - 1` TXNs outstanding.
//!
//! Tags: `slots` of them (`warps` for `per_warp_drain`, whose tag is the
//! warp: [`crate::baselines::tag_count`]).
//!
//! # P1, the ack count check
//!
//! Acks carry only a tag and may arrive in any order, so the unit cannot know
//! which transaction of a tag an ack is for. Releasing warp *w* at GL/SYS is
//! justified only if, for every tag *t* of one of *w*'s prior transactions,
//! `outstanding[t] <= (TXNs of tag t transferred after w's last prior TXN of
//! tag t)`: otherwise some ordering of the same acks leaves a prior
//! transaction of *w* unacknowledged. A correct design, seeing only tags,
//! must satisfy this for every ordering, so the check is exact.
//!
//! # P5 bound
//!
//! See [`liveness_bound_for`].

use crate::baselines::tag_count;
use crate::config::{Arch, Config};
use crate::ports::{kind, level, op, Inputs, Outputs, PortBundle};
use std::collections::VecDeque;
use std::fmt;

/// A property violation: the first one the scoreboard saw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The cycle the violation happened in (for a P4 refusal, the cycle of
    /// the refused request, although it is detected a cycle later).
    pub cycle: u64,
    /// `"P1"` … `"P7"`, or `"CNT"` (a tag's outstanding count above the counter).
    pub property: &'static str,
    /// The warp concerned, if one is.
    pub warp: Option<u32>,
    pub reason: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.warp {
            Some(w) => write!(
                f,
                "cycle {}: {} warp {}: {}",
                self.cycle, self.property, w, self.reason
            ),
            None => write!(
                f,
                "cycle {}: {}: {}",
                self.cycle, self.property, self.reason
            ),
        }
    }
}

impl std::error::Error for Violation {}

/// The P5 bound (cycles) for a configuration: the most consecutive
/// *quiescent* cycles during which some warp may stay pending (MEMBAR
/// accepted, not yet released) without being a violation.
///
/// A quiescent cycle: nothing presented on `dn_*` (`dn_valid` low) and, from
/// earlier cycles, no TXN accepted but not transferred, none transferred but
/// not acknowledged, no `dn_ack_req` BARRIER awaiting its `bar_ack`; a warp
/// released in the cycle does not count as pending in it.
///
/// `coalescing`: `max(coalesce_window + 2, 3)`, from two worst cases
/// (`docs/microarchitecture.md` has the design; verified against the model
/// by `tests/scoreboard.rs`, which observes exactly this maximum):
///
/// - window: a lone MEMBAR accepted in cycle *t* starts the open slot's age;
///   the window expires and the slot closes in *t+1+window*, the sequencer
///   loads the BARRIER into the output register in *t+2+window*, it is
///   presented in *t+3+window*: quiescent pending cycles *t+1 … t+2+window*,
///   i.e. `window + 2`. (A `lone` slot, whose first member joined with
///   nothing older outstanding, waits only `lone_window`, at most
///   `coalesce_window`; a slot opened behind an outstanding barrier waits
///   `coalesce_window`, which can run on after that barrier's release.)
/// - outstanding limit: the open slot has members and its window has expired
///   but `max_outstanding` slots are closed; the last ack (or bar_ack, or the
///   BARRIER transfer of a VC slot) arrives in *a*; the closed slot releases
///   in *a+1* (a done barrier releases the cycle after its last ack), the
///   open slot can close only in *a+2* (the closed-slot count is registered),
///   the BARRIER is loaded in *a+3* and presented in *a+4*: quiescent pending
///   cycles *a+1 … a+3*, i.e. 3. This exceeds `window + 2` only for window 0.
///
/// A plain MEMBAR.CTA is released in the first quiescent cycle (its last TXN
/// has left the output register), so it never adds to either.
///
/// Baselines (`per_warp_drain`, `lsu_flush`, `sim/membar_unit/src/baselines.rs`): a
/// MEMBAR's commands are queued when it is accepted and the BARRIER enters a
/// free output register the next cycle, so a pending warp sees at most 1
/// quiescent cycle (observed by `tests/scoreboard.rs`); the bound is 3, with
/// a margin of 2 for variations of those exploratory designs. The window
/// knobs do not apply to them.
pub fn liveness_bound_for(cfg: &Config) -> u64 {
    match cfg.arch {
        Arch::Coalescing => (cfg.coalesce_window as u64 + 2).max(3),
        Arch::PerWarpDrain | Arch::LsuFlush => 3,
    }
}

use crate::config::MAX_WARPS;

/// A pending MEMBAR.
#[derive(Clone, Copy, Debug, Default)]
struct Pend {
    level: u8,
    ivall: u8,
    /// 1 + acceptance sequence number of the warp's last prior TXN (0: none).
    prior: u64,
    cycle: u64,
}

impl Pend {
    /// Needs a BARRIER (anything but a plain MEMBAR.CTA).
    fn needy(&self) -> bool {
        self.level != level::CTA || self.ivall != 0
    }
}

/// A transferred `dn_ack_req` BARRIER.
#[derive(Clone, Copy, Debug, Default)]
struct Bar {
    /// Stream position (0: none).
    pos: u64,
    level: u8,
    /// Stream positions of the last INVAL D / INVAL T before it (0: none).
    invd: u64,
    invt: u64,
}

/// An accepted, not yet transferred TXN.
#[derive(Clone, Copy, Debug)]
struct Txn {
    warp: u8,
    op: u8,
    id: u16,
    cycle: u64,
}

/// Everything cleared by reset. Tag-indexed vectors have one entry per tag
/// the ports carry (`slots`; `warps` for `per_warp_drain`).
#[derive(Clone, Debug)]
struct State {
    /// Warps with a pending MEMBAR, and the MEMBARs.
    pending: u64,
    pend: [Pend; MAX_WARPS],
    /// Accepted TXNs not yet transferred, oldest first.
    fifo: VecDeque<Txn>,
    /// TXNs accepted / transferred so far.
    accepted: u64,
    sent: u64,
    /// Per warp: 1 + sequence number of its last accepted TXN (0: none).
    last_seq: [u64; MAX_WARPS],
    /// Per warp: stream position of its last transferred TXN (0: none).
    last_pos: [u64; MAX_WARPS],
    /// Per warp: the tags it has transferred TXNs on (bit t).
    touched: [u64; MAX_WARPS],
    /// Per warp × tag (`w * ntags + t`): `tag_sent[t]` just after the warp's
    /// last TXN of tag t was transferred (valid where `touched` has bit t).
    last_tag: Vec<u64>,
    /// Per tag: TXNs transferred; transferred and not acknowledged.
    tag_sent: Vec<u64>,
    outstanding: Vec<u64>,
    total_outstanding: u64,
    /// Commands transferred (the stream position of the last one).
    pos: u64,
    /// Per level L: position of the last BARRIER of level >= L.
    last_bar_ge: [u64; 4],
    /// Positions of the last INVAL D / INVAL T.
    last_invd: u64,
    last_invt: u64,
    /// An INVAL was transferred since the last BARRIER.
    inval_since_bar: bool,
    /// Per tag: `dn_ack_req` BARRIERs awaiting `bar_ack`, oldest first.
    awaiting: Vec<VecDeque<Bar>>,
    awaiting_total: u64,
    /// Per level L: the bar-acked BARRIER of level >= L with the latest position.
    acked_ge: [Bar; 4],
    /// MEMBARs accepted that need a BARRIER; BARRIERs transferred; needy
    /// MEMBARs released (P6).
    needy_accepted: u64,
    bars_sent: u64,
    needy_released: u64,
    /// The command presented and not taken last cycle (P3 stability).
    stalled: Option<Outputs>,
    /// A refused TXN request not yet excused: (cycle, warp, op); decided next cycle.
    p4_deferred: Option<(u64, u8, u8)>,
    /// Consecutive quiescent cycles with a warp pending (P5).
    quiet: u64,
}

impl State {
    fn new(warps: usize, ntags: usize) -> Self {
        State {
            pending: 0,
            pend: [Pend::default(); MAX_WARPS],
            fifo: VecDeque::with_capacity(64),
            accepted: 0,
            sent: 0,
            last_seq: [0; MAX_WARPS],
            last_pos: [0; MAX_WARPS],
            touched: [0; MAX_WARPS],
            last_tag: vec![0; warps * ntags],
            tag_sent: vec![0; ntags],
            outstanding: vec![0; ntags],
            total_outstanding: 0,
            pos: 0,
            last_bar_ge: [0; 4],
            last_invd: 0,
            last_invt: 0,
            inval_since_bar: false,
            awaiting: (0..ntags).map(|_| VecDeque::with_capacity(4)).collect(),
            awaiting_total: 0,
            acked_ge: [Bar::default(); 4],
            needy_accepted: 0,
            bars_sent: 0,
            needy_released: 0,
            stalled: None,
            p4_deferred: None,
            quiet: 0,
        }
    }

    /// Reset, keeping the allocations.
    fn clear(&mut self) {
        self.pending = 0;
        self.fifo.clear();
        self.accepted = 0;
        self.sent = 0;
        self.last_seq = [0; MAX_WARPS];
        self.last_pos = [0; MAX_WARPS];
        self.touched = [0; MAX_WARPS];
        self.tag_sent.fill(0);
        self.outstanding.fill(0);
        self.total_outstanding = 0;
        self.pos = 0;
        self.last_bar_ge = [0; 4];
        self.last_invd = 0;
        self.last_invt = 0;
        self.inval_since_bar = false;
        self.awaiting.iter_mut().for_each(VecDeque::clear);
        self.awaiting_total = 0;
        self.acked_ge = [Bar::default(); 4];
        self.needy_accepted = 0;
        self.bars_sent = 0;
        self.needy_released = 0;
        self.stalled = None;
        self.p4_deferred = None;
        self.quiet = 0;
    }
}

/// The property scoreboard. See the module documentation.
#[derive(Clone, Debug)]
pub struct Scoreboard {
    cfg: Config,
    ntags: u32,
    /// Most members one BARRIER may serve (P6): `ways`; 1 for the baselines.
    ways: u64,
    warp_mask: u64,
    cmax: u64,
    bound: u64,
    checks: u64,
    max_quiet: u64,
    failed: Option<Violation>,
    st: State,
}

/// Count one check; on failure return the violation (reason formatted lazily).
macro_rules! ensure {
    ($sb:expr, $cycle:expr, $cond:expr, $prop:expr, $warp:expr, $($fmt:tt)+) => {
        $sb.checks += 1;
        if !($cond) {
            return Err(Violation { cycle: $cycle, property: $prop, warp: $warp, reason: format!($($fmt)+) });
        }
    };
}

fn op_name(o: u8) -> &'static str {
    [
        "LD",
        "ST",
        "ATOM",
        "RED",
        "MEMBAR",
        "reserved(5)",
        "reserved(6)",
        "reserved(7)",
    ][(o & 7) as usize]
}

fn lvl_name(l: u8) -> &'static str {
    level::NAMES[(l & 3) as usize]
}

fn kind_name(k: u8) -> &'static str {
    match k {
        kind::TXN => "TXN",
        kind::INVAL => "INVAL",
        kind::BARRIER => "BARRIER",
        _ => "kind 3 (invalid)",
    }
}

fn membar_name(p: &Pend) -> String {
    let iv = ["", ".IVALLD", ".IVALLT", ".IVALLTD"][(p.ivall & 3) as usize];
    format!(
        "MEMBAR.{}{} (accepted cycle {})",
        lvl_name(p.level),
        iv,
        p.cycle
    )
}

fn describe_cmd(o: &Outputs) -> String {
    format!(
        "{} tag={} warp={} op={} level={} ack_req={} id={:#06x}",
        kind_name(o.dn_kind),
        o.dn_tag,
        o.dn_warp,
        o.dn_op,
        o.dn_level,
        o.dn_ack_req as u8,
        o.dn_id
    )
}

impl Scoreboard {
    pub fn new(cfg: &Config) -> Self {
        let ntags = tag_count(cfg);
        Scoreboard {
            cfg: cfg.clone(),
            ntags,
            ways: if cfg.arch == Arch::Coalescing {
                cfg.ways as u64
            } else {
                1
            },
            warp_mask: cfg.warp_mask(),
            cmax: cfg.counter_max() as u64,
            bound: liveness_bound_for(cfg),
            checks: 0,
            max_quiet: 0,
            failed: None,
            st: State::new(cfg.warps as usize, ntags as usize),
        }
    }

    /// The P5 bound used (cycles), for reports. See [`liveness_bound_for`].
    pub fn liveness_bound(&self) -> u64 {
        self.bound
    }

    /// Number of individual property checks performed (non-vacuity).
    pub fn checks(&self) -> u64 {
        self.checks
    }

    /// The longest run of quiescent cycles with a warp pending seen so far
    /// (never above [`Scoreboard::liveness_bound`] without a P5 violation).
    pub fn max_quiescent_streak(&self) -> u64 {
        self.max_quiet
    }

    /// The first violation, if any.
    pub fn violation(&self) -> Option<&Violation> {
        self.failed.as_ref()
    }

    /// Call once per cycle after `Dut::step` with that cycle's inputs and outputs.
    pub fn check(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), Violation> {
        if let Some(v) = &self.failed {
            return Err(v.clone());
        }
        let i = i.masked_for(&self.cfg);
        let r = if i.reset {
            self.check_reset(cycle, o)
        } else {
            self.check_cycle(cycle, &i, o)
        };
        if let Err(v) = &r {
            self.failed = Some(v.clone());
        }
        r
    }

    /// End of run (after a drain period): every accepted TXN was transferred.
    pub fn finish(&mut self, cycle: u64) -> Result<(), Violation> {
        if let Some(v) = &self.failed {
            return Err(v.clone());
        }
        let r = self.check_finish(cycle);
        if let Err(v) = &r {
            self.failed = Some(v.clone());
        }
        r
    }

    fn check_finish(&mut self, cycle: u64) -> Result<(), Violation> {
        let n = self.st.fifo.len();
        let first = self.st.fifo.front().copied();
        ensure!(
            self,
            cycle,
            n == 0,
            "P3",
            first.map(|t| t.warp as u32),
            "end of run: {n} accepted transaction(s) never sent downstream; the oldest: {} id {:#06x} accepted in cycle {}",
            first.map_or("", |t| op_name(t.op)),
            first.map_or(0, |t| t.id),
            first.map_or(0, |t| t.cycle)
        );
        Ok(())
    }

    fn check_reset(&mut self, cycle: u64, o: &Outputs) -> Result<(), Violation> {
        let vals = o.values();
        let bad = (0..vals.len()).find(|&k| vals[k] != 0);
        let (port, v) = bad.map_or(("", 0), |k| (Outputs::NAMES[k], vals[k]));
        let prop = match port {
            "err" => "P7",
            p if p.starts_with("dn_") => "P3",
            _ => "P2",
        };
        ensure!(
            self,
            cycle,
            bad.is_none(),
            prop,
            None,
            "output {port} = {v:#x} during reset (every output must be 0)"
        );
        self.st.clear();
        Ok(())
    }

    fn check_cycle(&mut self, c: u64, i: &Inputs, o: &Outputs) -> Result<(), Violation> {
        let cfg_warps = self.cfg.warps;
        let ntags = self.ntags;
        let wm = self.warp_mask;

        // ---- P4, decided one cycle late: did a barrier command take the slot? ----
        if let Some((rc, w, rop)) = self.st.p4_deferred.take() {
            ensure!(
                self,
                rc,
                o.dn_valid && o.dn_kind != kind::TXN,
                "P4",
                Some(w as u32),
                "refused a {} of a non-blocked warp with the output free, no counter full and no barrier command taking the slot next cycle",
                op_name(rop)
            );
        }

        // ---- port ranges ----
        ensure!(
            self,
            c,
            o.warp_blocked & !wm == 0,
            "P2",
            None,
            "warp_blocked = {:#x} has bits above W = {cfg_warps}",
            o.warp_blocked
        );
        ensure!(
            self,
            c,
            o.release_mask & !wm == 0,
            "P2",
            None,
            "release_mask = {:#x} has bits above W = {cfg_warps}",
            o.release_mask
        );
        ensure!(
            self,
            c,
            o.release_valid == (o.release_mask != 0),
            "P2",
            None,
            "release_valid = {} but release_mask = {:#x}",
            o.release_valid as u8,
            o.release_mask
        );

        // ---- P3: stable while stalled, well-formed commands ----
        if let Some(p) = self.st.stalled {
            let same = o.dn_valid
                && (
                    o.dn_kind,
                    o.dn_tag,
                    o.dn_warp,
                    o.dn_op,
                    o.dn_level,
                    o.dn_ack_req,
                    o.dn_id,
                ) == (
                    p.dn_kind,
                    p.dn_tag,
                    p.dn_warp,
                    p.dn_op,
                    p.dn_level,
                    p.dn_ack_req,
                    p.dn_id,
                );
            ensure!(
                self,
                c,
                same,
                "P3",
                None,
                "downstream command changed while stalled (dn_valid && !dn_ready last cycle): was [{}], now [{}{}]",
                describe_cmd(&p),
                if o.dn_valid { "" } else { "dn_valid low; " },
                describe_cmd(o)
            );
        }
        if o.dn_valid {
            ensure!(
                self,
                c,
                o.dn_kind <= kind::BARRIER,
                "P3",
                None,
                "dn_kind = 3 (reserved): [{}]",
                describe_cmd(o)
            );
            ensure!(
                self,
                c,
                (o.dn_tag as u32) < ntags,
                "P3",
                None,
                "dn_tag {} out of range ({ntags} tags)",
                o.dn_tag
            );
            match o.dn_kind {
                kind::TXN => {
                    ensure!(
                        self,
                        c,
                        o.dn_level == 0
                            && !o.dn_ack_req
                            && (o.dn_warp as u32) < cfg_warps
                            && o.dn_op <= op::RED,
                        "P3",
                        Some(o.dn_warp as u32),
                        "malformed TXN (level and ack_req must be 0, op a TXN op, warp < W): [{}]",
                        describe_cmd(o)
                    );
                }
                kind::INVAL => {
                    ensure!(
                        self,
                        c,
                        o.dn_op <= 1
                            && o.dn_warp == 0
                            && o.dn_id == 0
                            && o.dn_level == 0
                            && !o.dn_ack_req,
                        "P3",
                        None,
                        "malformed INVAL (op 0/1; warp, id, level, ack_req 0): [{}]",
                        describe_cmd(o)
                    );
                }
                _ => {
                    ensure!(
                        self,
                        c,
                        o.dn_op == 0 && o.dn_warp == 0 && o.dn_id == 0,
                        "P3",
                        None,
                        "malformed BARRIER (op, warp, id must be 0): [{}]",
                        describe_cmd(o)
                    );
                }
            }
        }
        let accepted = i.req_valid && o.req_ready;
        ensure!(
            self,
            c,
            i.req_valid || !o.req_ready,
            "P3",
            None,
            "req_ready high without req_valid"
        );

        // ---- P7: err exactly on bad input ----
        let reserved = i.req_valid && op::is_reserved(i.req_op);
        let at = i.ack_tag as usize;
        let bt = i.bar_ack_tag as usize;
        let spur_ack = i.ack_valid && self.st.outstanding[at] == 0;
        let spur_bar = i.bar_ack_valid && self.st.awaiting[bt].is_empty();
        let want_err = reserved || spur_ack || spur_bar;
        ensure!(
            self,
            c,
            o.err == want_err,
            "P7",
            if reserved {
                Some(i.req_warp as u32)
            } else {
                None
            },
            "err = {} but expected {} ({})",
            o.err as u8,
            want_err as u8,
            if want_err {
                let mut why = Vec::new();
                if reserved {
                    why.push(format!("request with reserved op {}", i.req_op));
                }
                if spur_ack {
                    why.push(format!("ack on tag {at} with no transaction outstanding"));
                }
                if spur_bar {
                    why.push(format!("bar_ack on tag {bt} with no BARRIER awaiting it"));
                }
                why.join("; ")
            } else {
                "no reserved op, spurious ack or spurious bar_ack this cycle".to_string()
            }
        );
        ensure!(
            self,
            c,
            !(reserved && accepted),
            "P7",
            Some(i.req_warp as u32),
            "accepted a request with reserved op {}",
            i.req_op
        );

        // ---- P2: blocking ----
        let pending = self.st.pending;
        if o.warp_blocked != pending {
            let diff = o.warp_blocked ^ pending;
            let w = diff.trailing_zeros();
            let why = if pending >> w & 1 == 1 {
                format!(
                    "warp_blocked low while its {} is pending",
                    membar_name(&self.st.pend[w as usize])
                )
            } else {
                "warp_blocked high with no pending MEMBAR".to_string()
            };
            ensure!(self, c, false, "P2", Some(w), "{why}");
        } else {
            self.checks += 1;
        }
        let stray = o.release_mask & !pending;
        ensure!(
            self,
            c,
            stray == 0,
            "P2",
            Some(stray.trailing_zeros()),
            "released with no pending MEMBAR"
        );
        if accepted {
            let w = i.req_warp as usize;
            ensure!(
                self,
                c,
                pending >> w & 1 == 0,
                "P2",
                Some(w as u32),
                "accepted a {} request while blocked by its {}, not yet released",
                op_name(i.req_op),
                membar_name(&self.st.pend[w])
            );
        }

        // ---- P1: every release justified by earlier cycles ----
        let mut rel = o.release_mask;
        let mut needy_released = 0u64;
        while rel != 0 {
            let w = rel.trailing_zeros() as usize;
            rel &= rel - 1;
            self.check_release(c, w)?;
            needy_released += self.st.pend[w].needy() as u64;
        }
        // ---- P6: one BARRIER serves at most `ways` members (baselines: one) ----
        if needy_released != 0 {
            let n = self.st.needy_released + needy_released;
            ensure!(
                self,
                c,
                n <= self.ways * self.st.bars_sent,
                "P6",
                Some(o.release_mask.trailing_zeros()),
                "{n} MEMBARs needing a BARRIER released so far, but only {} BARRIERs sent in earlier cycles (at most {} members each)",
                self.st.bars_sent,
                self.ways
            );
            self.st.needy_released = n;
        }

        // ---- P4: throughput for non-blocked warps ----
        // `lsu_flush` stalls every warp while a MEMBAR is pending, by design.
        let flush_stall = self.cfg.arch == Arch::LsuFlush && pending != 0;
        if i.req_valid && !o.req_ready && pending >> i.req_warp & 1 == 0 && !flush_stall {
            let w = i.req_warp;
            if i.req_op == op::MEMBAR && i.req_level == level::CTA && i.req_ivall == 0 {
                ensure!(
                    self,
                    c,
                    false,
                    "P4",
                    Some(w as u32),
                    "refused a plain MEMBAR.CTA of a non-blocked warp"
                );
            } else if op::is_txn(i.req_op) {
                let out_busy = o.dn_valid && !i.dn_ready;
                let untransferred = self.st.fifo.len() as u64;
                let full = self
                    .st
                    .outstanding
                    .iter()
                    .any(|&n| n + untransferred >= self.cmax);
                self.checks += 1;
                if !out_busy && !full {
                    self.st.p4_deferred = Some((c, w, i.req_op));
                }
            }
        }

        // ---- P5: liveness ----
        let quiescent = !o.dn_valid
            && self.st.total_outstanding == 0
            && self.st.awaiting_total == 0
            && self.st.fifo.is_empty();
        let waiting = pending & !o.release_mask;
        if quiescent && waiting != 0 {
            self.st.quiet += 1;
            self.max_quiet = self.max_quiet.max(self.st.quiet);
            let w = waiting.trailing_zeros();
            ensure!(
                self,
                c,
                self.st.quiet <= self.bound,
                "P5",
                Some(w),
                "{} not released after {} consecutive quiescent cycles (bound {}): nothing presented downstream, nothing outstanding",
                membar_name(&self.st.pend[w as usize]),
                self.st.quiet,
                self.bound
            );
        } else {
            self.st.quiet = 0;
        }

        // ---- state update: acks (of this cycle's start state), releases, requests, transfers ----
        if i.ack_valid && !spur_ack {
            self.st.outstanding[at] -= 1;
            self.st.total_outstanding -= 1;
        }
        if i.bar_ack_valid && !spur_bar {
            let b = self.st.awaiting[bt].pop_front().expect("checked non-empty");
            self.st.awaiting_total -= 1;
            for l in 0..=b.level as usize {
                if b.pos > self.st.acked_ge[l].pos {
                    self.st.acked_ge[l] = b;
                }
            }
        }
        self.st.pending &= !o.release_mask;
        if accepted {
            let w = i.req_warp as usize;
            if op::is_txn(i.req_op) {
                self.st.fifo.push_back(Txn {
                    warp: i.req_warp,
                    op: i.req_op,
                    id: i.req_id,
                    cycle: c,
                });
                self.st.accepted += 1;
                self.st.last_seq[w] = self.st.accepted;
            } else if i.req_op == op::MEMBAR {
                let p = Pend {
                    level: i.req_level,
                    ivall: i.req_ivall,
                    prior: self.st.last_seq[w],
                    cycle: c,
                };
                self.st.needy_accepted += p.needy() as u64;
                self.st.pend[w] = p;
                self.st.pending |= 1u64 << w;
            }
        }
        if o.dn_valid && i.dn_ready {
            self.transfer(c, o)?;
        }
        self.st.stalled = if o.dn_valid && !i.dn_ready {
            Some(*o)
        } else {
            None
        };
        Ok(())
    }

    /// P1: warp `w` is released in cycle `c`; its level's condition must hold
    /// from earlier cycles.
    fn check_release(&mut self, c: u64, w: usize) -> Result<(), Violation> {
        let p = self.st.pend[w];
        let wid = Some(w as u32);
        let lv = lvl_name(p.level);
        // Every level: every prior TXN transferred in an earlier cycle.
        if p.prior != 0 {
            let sent = self.st.sent;
            let (id, acc) = if sent < p.prior {
                let t = self.st.fifo.get((p.prior - 1 - sent) as usize);
                (t.map_or(0, |t| t.id), t.map_or(0, |t| t.cycle))
            } else {
                (0, 0)
            };
            ensure!(
                self,
                c,
                sent >= p.prior,
                "P1",
                wid,
                "released {} while its last prior transaction (id {id:#06x}, accepted cycle {acc}) was not yet sent downstream in an earlier cycle",
                membar_name(&p)
            );
        }
        // Stream position of the last prior TXN (all of w's TXNs are prior: P2).
        let ppos = self.st.last_pos[w];
        // VC and above ("a higher level implies every lower one"): a BARRIER
        // sent after the prior TXNs, of at least the warp's level (a coalesced
        // barrier's level is at least its highest member's).
        if p.level >= level::VC {
            ensure!(
                self,
                c,
                self.st.last_bar_ge[p.level as usize] > ppos,
                "P1",
                wid,
                "released {} with no BARRIER of level >= {lv} sent after its prior transactions in an earlier cycle",
                membar_name(&p)
            );
        }
        if p.level >= level::GL {
            let mut tags = self.st.touched[w];
            while tags != 0 {
                let t = tags.trailing_zeros() as usize;
                tags &= tags - 1;
                let last = self.st.last_tag[w * self.ntags as usize + t];
                let after = self.st.tag_sent[t] - last;
                let out = self.st.outstanding[t];
                ensure!(
                    self,
                    c,
                    out <= after,
                    "P1",
                    wid,
                    "released {lv} barrier while {} prior transaction(s) of tag {t} may be unacknowledged ({out} outstanding, only {after} sent after the warp's last one) [{}]",
                    out - after,
                    membar_name(&p)
                );
            }
        }
        if p.level == level::SYS || (p.level == level::GL && self.cfg.gl_bar_ack) {
            let b = self.st.acked_ge[p.level as usize];
            ensure!(
                self,
                c,
                b.pos > ppos,
                "P1",
                wid,
                "released {} before a bar_ack (in an earlier cycle) of a dn_ack_req BARRIER of level >= {lv} sent after its prior transactions",
                membar_name(&p)
            );
        }
        if p.ivall != 0 {
            let b = self.st.acked_ge[p.level as usize];
            ensure!(
                self,
                c,
                b.pos > ppos,
                "P1",
                wid,
                "released {} before a bar_ack (in an earlier cycle) of a dn_ack_req BARRIER of level >= {lv} sent after its prior transactions",
                membar_name(&p)
            );
            for (bit, inv, name) in [(1u8, b.invd, "D"), (2u8, b.invt, "T")] {
                if p.ivall & bit != 0 {
                    ensure!(
                        self,
                        c,
                        inv > ppos,
                        "P1",
                        wid,
                        "released {} without an INVAL {name} between its prior transactions and a bar-acked dn_ack_req BARRIER",
                        membar_name(&p)
                    );
                }
            }
        }
        Ok(())
    }

    /// A command is transferred in cycle `c` (P3 conservation, CNT, P1
    /// `dn_ack_req`, P6 no barrier out of nothing).
    fn transfer(&mut self, c: u64, o: &Outputs) -> Result<(), Violation> {
        self.st.pos += 1;
        let pos = self.st.pos;
        let t = o.dn_tag as usize;
        match o.dn_kind {
            kind::TXN => {
                let head = self.st.fifo.front().copied();
                ensure!(
                    self,
                    c,
                    head.is_some(),
                    "P3",
                    Some(o.dn_warp as u32),
                    "TXN transferred with no accepted transaction left to send (duplicate?): [{}]",
                    describe_cmd(o)
                );
                let h = head.unwrap();
                ensure!(
                    self,
                    c,
                    (h.warp, h.op, h.id) == (o.dn_warp, o.dn_op, o.dn_id),
                    "P3",
                    Some(h.warp as u32),
                    "TXN transferred out of order or altered: expected warp {} {} id {:#06x} (accepted cycle {}), got [{}]",
                    h.warp,
                    op_name(h.op),
                    h.id,
                    h.cycle,
                    describe_cmd(o)
                );
                self.st.fifo.pop_front();
                self.st.sent += 1;
                self.st.tag_sent[t] += 1;
                self.st.outstanding[t] += 1;
                self.st.total_outstanding += 1;
                let w = o.dn_warp as usize;
                self.st.last_pos[w] = pos;
                self.st.touched[w] |= 1u64 << t;
                self.st.last_tag[w * self.ntags as usize + t] = self.st.tag_sent[t];
                let n = self.st.outstanding[t];
                ensure!(
                    self,
                    c,
                    n <= self.cmax,
                    "CNT",
                    Some(w as u32),
                    "tag {t} has {n} transactions outstanding, more than a {}-bit counter holds ({})",
                    self.cfg.counter_bits,
                    self.cmax
                );
            }
            kind::INVAL => {
                if o.dn_op == 0 {
                    self.st.last_invd = pos;
                } else {
                    self.st.last_invt = pos;
                }
                self.st.inval_since_bar = true;
            }
            _ => {
                let lv = o.dn_level;
                // "An INVAL precedes it": in the coalescing design a slot's
                // INVALs and BARRIER are consecutive; the per-warp baselines may
                // interleave another warp's BARRIER, so there only the release
                // check (P1, ivall) applies.
                let inval_before = self.st.inval_since_bar && self.cfg.arch == Arch::Coalescing;
                let need_ack =
                    lv == level::SYS || inval_before || (lv == level::GL && self.cfg.gl_bar_ack);
                ensure!(
                    self,
                    c,
                    o.dn_ack_req || !need_ack,
                    "P1",
                    None,
                    "BARRIER without dn_ack_req although {}: [{}]",
                    if lv == level::SYS {
                        "its level is SYS"
                    } else if inval_before {
                        "an INVAL precedes it"
                    } else {
                        "gl_bar_ack asks for it on GL barriers"
                    },
                    describe_cmd(o)
                );
                self.st.bars_sent += 1;
                ensure!(
                    self,
                    c,
                    self.st.bars_sent <= self.st.needy_accepted,
                    "P6",
                    None,
                    "{} BARRIERs sent but only {} MEMBARs needing one accepted (a barrier out of nothing)",
                    self.st.bars_sent,
                    self.st.needy_accepted
                );
                for l in 0..=lv as usize {
                    self.st.last_bar_ge[l] = pos;
                }
                if o.dn_ack_req {
                    let b = Bar {
                        pos,
                        level: lv,
                        invd: self.st.last_invd,
                        invt: self.st.last_invt,
                    };
                    self.st.awaiting[t].push_back(b);
                    self.st.awaiting_total += 1;
                }
                self.st.inval_since_bar = false;
            }
        }
        Ok(())
    }
}

/// The scoreboard as an observer of any run of the one lockstep runner.
impl unit_ports::lockstep::Observer<crate::ports::MembarUnitPorts> for Scoreboard {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        self.check(cycle, i, o).map_err(|v| v.to_string())
    }
}

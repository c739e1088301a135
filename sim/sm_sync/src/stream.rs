//! Random PTX-derived instruction streams and the environment of `sm_sync`.
//!
//! [`encode`] maps one lowered op of the PTX front end's lowering table
//! (`ptx_front::lower::Lowered`, what `sm_exec` feeds each unit) to the
//! top's decoded-instruction fields — the same composition `sm_exec` uses,
//! through one port. [`StreamDriver`] plays warp issue and the memory side:
//! every cycle it picks a live, unblocked, resting-free warp and presents
//! the encoding of that warp's next lowered op until it is taken (or
//! withdraws it after 8 cycles). A warp's ops come from its current PTX
//! instruction: half the time a random row of the lowering table
//! (`random_table_row`: any PTX form of the subset, its lowered ops in
//! order, e.g. `fence.acq_rel.gpu` then a store), otherwise one random
//! lowered op with targeted operands (`random_lowered`: membar/fence forms,
//! ld/st/atom/red, bar forms, every mbarrier op, bulk copies completing on
//! an mbarrier, commit/wait_group, exit). A few percent of instructions
//! carry a reserved unit or op code, and now and then a blocked warp issues
//! again to the unit that blocks it. It answers
//! membar TXNs and BARRIERs after random delays, reports bulk-copy reads and
//! completions in order per warp, delivers complete_tx bytes and remote
//! arrives (the table's `.shared::cluster` arrives, and random ones) to the
//! mbarrier unit, and launches the CTAs (bar `ctl`: one CTA of all W warps up to W = 16,
//! CTAs of 8 warps above), again after a reset or when all of a CTA's warps
//! have exited.

use crate::config::Config;
use crate::ports::{unit, Inputs, Outputs, SmSyncPorts};
use ptx_front::lower::{Arg, BarOp, CopyDir, GroupOp, Ivall, Level, Lowered, MbOp, Slot, TxnOp};
use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use unit_ports::lockstep::{Driver, Phase};

pub use crate::encode::{encode, imm, Instr};

/// A random lowered op of the PTX subset, with immediate operands drawn for
/// `cfg` (mostly legal, sometimes not: the units must flag those).
pub fn random_lowered(cfg: &Config, rng: &mut ChaCha8Rng) -> Lowered {
    let w = cfg.warps() as i64;
    match rng.gen_range(0..100) {
        0..=11 => Lowered::Membar {
            level: [Level::Cta, Level::Vc, Level::Gl, Level::Sys][rng.gen_range(0..4)],
            ivall: [Ivall::None, Ivall::D, Ivall::T, Ivall::TD][rng.gen_range(0..4)],
        },
        12..=29 => Lowered::Txn {
            op: [TxnOp::Ld, TxnOp::St, TxnOp::Atom, TxnOp::Red][rng.gen_range(0..4)],
            space: Arg::Imm(rng.gen_range(0..65536)),
        },
        30..=41 => {
            // Blocking forms share barrier 0 with every live warp (no
            // deadlock); arrive with a count on barrier 1; rarely an arrive
            // with any id and count.
            let op = [
                BarOp::Sync,
                BarOp::Sync,
                BarOp::Sync,
                BarOp::Arrive,
                BarOp::RedPopc,
                BarOp::RedAnd,
                BarOp::RedOr,
            ][rng.gen_range(0..7)];
            if rng.gen_bool(0.05) {
                // Arrive (never blocks) with any id and count, legal or not.
                Lowered::Bar {
                    op: BarOp::Arrive,
                    id: Arg::Imm(rng.gen_range(0..16)),
                    count: if rng.gen_bool(0.5) {
                        Arg::All
                    } else {
                        Arg::Imm(32 * rng.gen_range(0..=w + 1))
                    },
                }
            } else if op == BarOp::Arrive {
                Lowered::Bar {
                    op,
                    id: Arg::Imm(1),
                    count: Arg::Imm(32 * rng.gen_range(1..=w)),
                }
            } else {
                Lowered::Bar {
                    op,
                    id: Arg::Imm(0),
                    count: Arg::All,
                }
            }
        }
        42..=69 => {
            let op = [
                MbOp::Init,
                MbOp::Inval,
                MbOp::Arrive,
                MbOp::ArriveDrop,
                MbOp::ArriveExpectTx,
                MbOp::ExpectTx,
                MbOp::CompleteTx,
                MbOp::TestWait,
                MbOp::TryWait,
            ][rng.gen_range(0..9)];
            let arg = match op {
                MbOp::Init => Arg::Imm(rng.gen_range(1..=3)),
                MbOp::Arrive | MbOp::ArriveDrop => Arg::Imm(1),
                MbOp::ArriveExpectTx | MbOp::ExpectTx | MbOp::CompleteTx => {
                    Arg::Imm(rng.gen_range(0..=16))
                }
                MbOp::TestWait | MbOp::TryWait => Arg::Imm(rng.gen_range(0..2)),
                MbOp::Inval => Arg::Absent,
            };
            Lowered::Mbarrier {
                op,
                remote: false,
                addr: Arg::Addr("bar".into()),
                arg,
                hint: Arg::Absent,
            }
        }
        70..=74 => Lowered::AsyncCopy {
            dir: CopyDir::GlobalToShared,
            bytes: Arg::Imm(rng.gen_range(1..=16)),
            mbar: Arg::Addr("bar".into()),
        },
        75..=97 => {
            let op = [
                GroupOp::Issue,
                GroupOp::Issue,
                GroupOp::Issue,
                GroupOp::Commit,
                GroupOp::Wait,
                GroupOp::WaitRead,
            ][rng.gen_range(0..6)];
            Lowered::AsyncGroup {
                op,
                arg: Arg::Imm(rng.gen_range(0..=cfg.mbarrier.group_depth as i64)),
            }
        }
        _ => Lowered::Exit,
    }
}

/// The ops of a random row of the PTX lowering table (`ptx_front::TABLE`,
/// one PTX instruction form), with random immediate operands for `cfg`
/// (blocking barrier forms on barrier 0 with every live warp, so random
/// programs cannot deadlock on ids), and the row's first form.
pub fn random_table_row(cfg: &Config, rng: &mut ChaCha8Rng) -> (&'static str, Vec<Lowered>) {
    let row = &ptx_front::TABLE[rng.gen_range(0..ptx_front::TABLE.len())];
    let ops = row.ops.iter().map(|op| instantiate(op, cfg, rng)).collect();
    (row.forms[0], ops)
}

/// One lowered op of the table with random immediates for its slots.
pub fn instantiate(op: &Lowered<Slot>, cfg: &Config, rng: &mut ChaCha8Rng) -> Lowered {
    let w = cfg.warps() as i64;
    match op {
        Lowered::Membar { level, ivall } => Lowered::Membar {
            level: *level,
            ivall: *ivall,
        },
        Lowered::Inval { ivall } => Lowered::Inval { ivall: *ivall },
        Lowered::Txn { op, .. } => Lowered::Txn {
            op: *op,
            space: Arg::Imm(rng.gen_range(0..65536)),
        },
        Lowered::Bar { op, .. } => {
            if *op == BarOp::Arrive {
                Lowered::Bar {
                    op: *op,
                    id: Arg::Imm(1),
                    count: Arg::Imm(32 * rng.gen_range(1..=w)),
                }
            } else {
                Lowered::Bar {
                    op: *op,
                    id: Arg::Imm(0),
                    count: Arg::All,
                }
            }
        }
        Lowered::ClusterArrive => Lowered::ClusterArrive,
        Lowered::ClusterWait => Lowered::ClusterWait,
        Lowered::Mbarrier { op, remote, .. } => {
            let arg = match op {
                MbOp::Init => Arg::Imm(rng.gen_range(1..=3)),
                MbOp::Arrive | MbOp::ArriveDrop => Arg::Imm(1),
                MbOp::ArriveExpectTx | MbOp::ExpectTx | MbOp::CompleteTx => {
                    Arg::Imm(rng.gen_range(0..=16))
                }
                MbOp::TestWait | MbOp::TryWait => Arg::Imm(rng.gen_range(0..2)),
                MbOp::Inval => Arg::Absent,
            };
            Lowered::Mbarrier {
                op: *op,
                remote: *remote,
                addr: Arg::Addr("bar".into()),
                arg,
                hint: Arg::Absent,
            }
        }
        Lowered::AsyncCopy { dir, .. } => Lowered::AsyncCopy {
            dir: *dir,
            bytes: Arg::Imm(rng.gen_range(1..=16)),
            mbar: Arg::Addr("bar".into()),
        },
        Lowered::AsyncGroup { op, .. } => Lowered::AsyncGroup {
            op: *op,
            arg: Arg::Imm(rng.gen_range(0..=cfg.mbarrier.group_depth as i64)),
        },
        Lowered::ProxyFence { kind } => Lowered::ProxyFence { kind: *kind },
        Lowered::Exit => Lowered::Exit,
        Lowered::Local => Lowered::Local,
        Lowered::Nothing => Lowered::Nothing,
    }
}

/// Warp issue plus the memory side (see the module docs).
pub struct StreamDriver {
    cfg: Config,
    rng: ChaCha8Rng,
    /// The instruction on the port: (warp, instruction), cycles offered.
    cur: Option<(u8, Instr)>,
    held: u32,
    /// Registered port: the instruction presented this cycle and the one
    /// presented in the previous cycle, whose answer (`in_ready`) this
    /// cycle brings (each with the cycles it has been offered). A refused
    /// one is offered again.
    presenting: Option<(u8, Instr, u32)>,
    sent: Option<(u8, Instr, u32)>,
    rest: Vec<u8>,
    blocked: u64,
    live: u64,
    /// CTAs (bit k: warps `k·S .. (k+1)·S` in bar slot k, S =
    /// [`StreamDriver::cta_warps`]) waiting for their launch: all of them
    /// after a reset, one again when its last warp has exited.
    launch: u64,
    /// A warp in the middle of a long burst of bulk copies (more than 32:
    /// 8-bit operation counters), picked every time it can issue, as a
    /// warp's copy loop would, and its reads held until the burst is
    /// issued: else the copies complete as fast as one warp among 64
    /// issues them and its group never fills.
    streak: Option<u8>,
    exit: Option<u8>,
    acks: VecDeque<(u64, u8)>,
    bar_acks: VecDeque<(u64, u8)>,
    ctx: VecDeque<(u64, u8, u32)>,
    rarv: VecDeque<(u64, u8, u32)>,
    unread: Vec<u32>,
    unwritten: Vec<u32>,
    /// Unit of each warp's last accepted instruction.
    last_unit: Vec<u8>,
    /// Per warp: the remaining lowered ops of its current PTX instruction
    /// (a table row), with the mbarrier entry its address maps to.
    queue: Vec<VecDeque<(Lowered, u8)>>,
    /// Probability that a warp's next PTX instruction is a random row of
    /// the lowering table (else a random lowered op with targeted operands).
    pub table_prob: f64,
    /// PTX instruction forms drawn from the table.
    pub forms: u64,
    /// Probability of a reserved unit/op instruction.
    pub reserved_prob: f64,
    /// Probability that warp issue offers an instruction in a cycle.
    pub issue_prob: f64,
    /// Instructions offered (by unit; index 4 = reserved).
    pub offered: [u64; 5],
}

impl StreamDriver {
    pub fn new(cfg: &Config, seed: u64) -> StreamDriver {
        let w = cfg.warps() as usize;
        StreamDriver {
            cfg: cfg.clone(),
            rng: ChaCha8Rng::seed_from_u64(seed),
            cur: None,
            held: 0,
            presenting: None,
            sent: None,
            rest: vec![0; w],
            blocked: 0,
            live: 0,
            launch: unit_ports::mask(cfg.warps() / Self::cta_warps(cfg)),
            streak: None,
            exit: None,
            acks: VecDeque::new(),
            bar_acks: VecDeque::new(),
            ctx: VecDeque::new(),
            rarv: VecDeque::new(),
            unread: vec![0; w],
            unwritten: vec![0; w],
            last_unit: vec![0; w],
            queue: vec![VecDeque::new(); w],
            table_prob: 0.5,
            forms: 0,
            reserved_prob: 0.02,
            issue_prob: 0.8,
            offered: [0; 5],
        }
    }

    /// Warps of one CTA: all W while W ≤ 16 (one CTA), else 8 (or more if
    /// the bar unit has fewer slots than W / 8), so that `bar.sync` without
    /// a count waits for a CTA that a random stream can complete.
    fn cta_warps(cfg: &Config) -> u32 {
        if cfg.warps() <= 16 {
            cfg.warps()
        } else {
            (cfg.warps() / cfg.bar.cta_slots).max(8)
        }
    }

    /// The warps of CTA `k`.
    fn cta_mask(&self, k: u32) -> u64 {
        let s = Self::cta_warps(&self.cfg);
        unit_ports::mask(s) << (k * s)
    }

    fn pick(&mut self, cycle: u64) -> Option<(u8, Instr)> {
        // Rarely a protocol violation: a blocked warp issues (the units
        // refuse or flag it).
        let rogue = self.rng.gen_bool(0.05);
        let usable = |w: u8, blocked: bool| {
            self.live >> w & 1 == 1
                && (self.blocked >> w & 1 == 1) == blocked
                && self.rest[w as usize] == 0
        };
        let mut cand: Vec<u8> = (0..self.cfg.warps() as u8)
            .filter(|&w| rogue && usable(w, true))
            .collect();
        if cand.is_empty() {
            cand = (0..self.cfg.warps() as u8)
                .filter(|&w| usable(w, false))
                .collect();
        }
        if cand.is_empty() {
            return None;
        }
        if self
            .streak
            .is_some_and(|s| self.queue[s as usize].is_empty() || self.live >> s & 1 == 0)
        {
            self.streak = None;
        }
        let w = match self.streak {
            Some(s) if !rogue && usable(s, false) => s,
            _ => cand[self.rng.gen_range(0..cand.len())],
        };
        if self.rng.gen_bool(self.reserved_prob) {
            let (u, op) = if self.rng.gen_bool(0.3) {
                (self.rng.gen_range(4..8), self.rng.gen_range(0..16))
            } else {
                let u = self.rng.gen_range(0..4u8);
                (u, self.rng.gen_range(unit::OPS[u as usize]..16))
            };
            return Some((
                w,
                Instr {
                    unit: u,
                    op,
                    id: self.rng.gen(),
                    ..Default::default()
                },
            ));
        }
        let entries = self.cfg.mbarrier.entries.min(4);
        let mut entry = self.rng.gen_range(0..entries) as u8;
        let blocked = self.blocked >> w & 1 == 1;
        // A burst of bulk copies, one more than a group's operation counter
        // holds: the tracker back-pressures the last ones. A long burst (8-bit
        // counters: 257 copies) is drawn rarer, ≈ 0.1 copies a pick as a
        // burst of 5 at 2 %, or its warp's wait for the copy engine keeps
        // its CTA from ever completing a `bar.sync`.
        let n = (1usize << self.cfg.mbarrier.group_op_bits) + 1;
        let p_burst = if n > 32 { 0.1 / n as f64 } else { 0.02 };
        if !blocked && self.queue[w as usize].is_empty() && self.rng.gen_bool(p_burst) {
            if n > 32 {
                self.streak = Some(w);
            }
            let bulk = Lowered::AsyncGroup {
                op: GroupOp::Issue,
                arg: Arg::Absent,
            };
            self.queue[w as usize].extend(std::iter::repeat_n((bulk, entry), n));
        }
        if !blocked && self.queue[w as usize].is_empty() && self.rng.gen_bool(self.table_prob) {
            let (_, ops) = random_table_row(&self.cfg, &mut self.rng);
            self.forms += 1;
            self.queue[w as usize].extend(ops.into_iter().map(|o| (o, entry)));
        }
        let mut l = random_lowered(&self.cfg, &mut self.rng);
        if !blocked {
            if let Some((q, e)) = self.queue[w as usize].pop_front() {
                l = q;
                entry = e;
            }
        }
        if blocked {
            // A blocked warp issues again to the unit that blocks it.
            let u = self.last_unit[w as usize];
            for _ in 0..50 {
                if encode(&l, entry).is_some_and(|x| x.unit == u) {
                    break;
                }
                l = random_lowered(&self.cfg, &mut self.rng);
            }
        }
        match &l {
            Lowered::Exit => {
                self.exit = Some(w);
                None
            }
            Lowered::Mbarrier {
                op: MbOp::Arrive | MbOp::ArriveDrop,
                remote: true,
                arg,
                ..
            } => {
                // A remote arrive (from a peer CTA's SM) arrives on rarv.
                let at = cycle + self.rng.gen_range(10..80);
                self.rarv
                    .push_back((at, entry, imm(arg).unwrap_or(1) as u32));
                None
            }
            Lowered::AsyncCopy { bytes, .. } => {
                let n = imm(bytes).unwrap_or(0) as u32;
                let at = cycle + self.rng.gen_range(5..40);
                self.ctx.push_back((at, entry, n));
                None
            }
            _ => {
                let mut x = encode(&l, entry)?;
                if x.unit == unit::BAR && x.op >= 2 {
                    x.pred = self.rng.gen();
                }
                Some((w, x))
            }
        }
    }
}

impl Driver<SmSyncPorts> for StreamDriver {
    fn drive(&mut self, cycle: u64, i: &mut Inputs, phase: Phase) {
        if i.reset {
            return;
        }
        for r in self.rest.iter_mut() {
            *r = r.saturating_sub(1);
        }
        if self.launch != 0 {
            let k = self.launch.trailing_zeros();
            i.ctl_valid = true;
            i.ctl_op = 0;
            i.ctl_slot = k as u8;
            i.ctl_warps = self.cta_mask(k);
        } else if let Some(w) = self.exit.take() {
            let in_flight = |x: Option<u8>| x.is_some_and(|cw| cw == w);
            if self.blocked >> w & 1 == 0
                && !in_flight(self.cur.map(|c| c.0))
                && !in_flight(self.sent.map(|c| c.0))
            {
                i.ctl_valid = true;
                i.ctl_op = 1;
                i.ctl_warp = w;
            }
        }
        // Warp issue withdraws an instruction not taken within 8 cycles
        // (e.g. a bulk op into a full group) and issues another.
        if self.held >= 8 {
            self.cur = None;
            self.held = 0;
        }
        if self.cur.is_none() && phase == Phase::Stimulus && self.rng.gen_bool(self.issue_prob) {
            self.cur = self.pick(cycle);
            if let Some((_, x)) = self.cur {
                self.offered[(x.unit as usize).min(4)] += 1;
            }
        }
        if let Some((w, x)) = self.cur {
            x.drive(w, i);
            self.held += 1;
            if self.cfg.registered_port {
                // Its answer comes next cycle: the warp issues nothing else
                // until then, and it is offered again if refused.
                self.presenting = Some((w, x, self.held));
                self.cur = None;
                self.rest[w as usize] = self.rest[w as usize].max(2);
            }
        }
        // Memory side.
        i.dn_ready = self.rng.gen_bool(0.8);
        if self.acks.front().is_some_and(|a| a.0 <= cycle) {
            i.ack_valid = true;
            i.ack_tag = self.acks.pop_front().unwrap().1;
        } else if phase == Phase::Stimulus && self.rng.gen_bool(0.0005) {
            // A spurious acknowledgement (the membar unit flags it).
            i.ack_valid = true;
            i.ack_tag = self.rng.gen_range(0..self.cfg.membar.slots) as u8;
        }
        if self.bar_acks.front().is_some_and(|a| a.0 <= cycle) {
            i.bar_ack_valid = true;
            i.bar_ack_tag = self.bar_acks.pop_front().unwrap().1;
        }
        if self.ctx.front().is_some_and(|a| a.0 <= cycle) {
            let (_, e, n) = self.ctx.pop_front().unwrap();
            i.ctx_valid = true;
            i.ctx_entry = e;
            i.ctx_bytes = n;
        }
        if self.rarv.front().is_some_and(|a| a.0 <= cycle) {
            let (_, e, n) = self.rarv.pop_front().unwrap();
            i.rarv_valid = true;
            i.rarv_entry = e;
            i.rarv_count = n;
        } else if self.rng.gen_bool(0.002) {
            i.rarv_valid = true;
            i.rarv_entry = self.rng.gen_range(0..self.cfg.mbarrier.entries.min(4)) as u8;
            i.rarv_count = 1;
        }
        let w = self.cfg.warps() as usize;
        if self.rng.gen_bool(0.1) {
            // The copy engine holds a long burst's reads until the burst is
            // issued, so that its group fills (else its reads keep pace).
            let c: Vec<usize> = (0..w)
                .filter(|&k| self.unread[k] > 0 && self.streak != Some(k as u8))
                .collect();
            if !c.is_empty() {
                i.rd_valid = true;
                i.rd_warp = c[self.rng.gen_range(0..c.len())] as u8;
            }
        } else if phase == Phase::Stimulus && self.rng.gen_bool(0.0005) {
            let c: Vec<usize> = (0..w).filter(|&k| self.unread[k] == 0).collect();
            if !c.is_empty() {
                // A spurious read report (the tracker flags and ignores it).
                i.rd_valid = true;
                i.rd_warp = c[self.rng.gen_range(0..c.len())] as u8;
            }
        }
        if self.rng.gen_bool(0.3) {
            let c: Vec<usize> = (0..w)
                .filter(|&k| self.unwritten[k] > 0 && !(i.rd_valid && i.rd_warp as usize == k))
                .collect();
            if !c.is_empty() {
                i.wr_valid = true;
                i.wr_warp = c[self.rng.gen_range(0..c.len())] as u8;
            }
        }
    }

    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) {
        if i.reset {
            let w = self.cfg.warps() as usize;
            *self = StreamDriver {
                rng: self.rng.clone(),
                offered: self.offered,
                forms: self.forms,
                table_prob: self.table_prob,
                reserved_prob: self.reserved_prob,
                issue_prob: self.issue_prob,
                ..StreamDriver::new(&self.cfg, 0)
            };
            debug_assert_eq!(self.rest.len(), w);
            return;
        }
        self.blocked = o.warp_blocked;
        if i.ctl_valid {
            if i.ctl_op == 0 {
                self.live |= i.ctl_warps;
                self.launch &= !(1u64 << i.ctl_slot);
            } else {
                self.live &= !(1u64 << i.ctl_warp);
                let k = i.ctl_warp as u32 / Self::cta_warps(&self.cfg);
                if self.live & self.cta_mask(k) == 0 {
                    self.launch |= 1 << k;
                }
            }
        }
        let answered = if self.cfg.registered_port {
            let s = self.sent.take();
            self.sent = self.presenting.take();
            match s {
                Some((w, x, _)) if o.in_ready => Some((w, x)),
                Some((w, x, held)) => {
                    if self.cur.is_none() {
                        self.cur = Some((w, x));
                        self.held = held;
                    }
                    None
                }
                None => None,
            }
        } else if i.in_valid && o.in_ready {
            self.held = 0;
            Some(self.cur.take().expect("offered instruction"))
        } else {
            None
        };
        if let Some((w, x)) = answered {
            self.rest[w as usize] = 2;
            self.last_unit[w as usize] = x.unit;
            if x.unit == unit::ASYNC && x.op == 0 {
                self.unread[w as usize] += 1;
            }
        }
        if i.rd_valid && self.unread[i.rd_warp as usize] > 0 {
            let k = i.rd_warp as usize;
            self.unread[k] -= 1;
            self.unwritten[k] += 1;
        }
        if i.wr_valid {
            self.unwritten[i.wr_warp as usize] -= 1;
        }
        if o.dn_valid && i.dn_ready {
            let at = cycle + self.rng.gen_range(1..30);
            match o.dn_kind {
                0 => self.acks.push_back((at, o.dn_tag)),
                2 if o.dn_ack_req => self.bar_acks.push_back((at, o.dn_tag)),
                _ => {}
            }
        }
    }

    fn idle(&self, _o: &Outputs) -> bool {
        self.cur.is_none()
            && self.presenting.is_none()
            && self.sent.is_none()
            && self.acks.is_empty()
            && self.bar_acks.is_empty()
            && self.ctx.is_empty()
            && self.rarv.is_empty()
            && self.unread.iter().all(|&n| n == 0)
            && self.unwritten.iter().all(|&n| n == 0)
    }
}

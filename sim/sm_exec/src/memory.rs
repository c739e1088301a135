//! The memory system with values (`docs/memory_model.md`): as weak as the
//! PTX memory model allows between SMs, in order within an SM.
//!
//! - **L2 / global memory** is the one coherence point: per address a list of
//!   versions in coherence order. A store is visible to every SM once it is
//!   in L2 (multi-copy atomic).
//! - **Per SM** (one CTA per SM): an **L1** that is not coherent (a line may
//!   hold a stale value until a `CCTL.IVALL` invalidates it; a line may start
//!   stale: at an SM's first access to an address, if its L1 was not
//!   invalidated since the start, it holds the initial value 0 with
//!   probability 1/2, "the kernel read it earlier"), and a
//!   **store buffer**: a store is written into the SM's L1 when it leaves the
//!   membar unit and drains to L2 after a random delay, out of order across
//!   addresses (in order per address).
//! - **Loads** leave the membar unit in program order. A weak load (or one at
//!   `.cta` scope) that finds the line in the SM's store buffer or L1 takes
//!   its value at once; otherwise (and for strong `.cluster/.gpu/.sys` loads)
//!   it reads L2 when it completes, after a random latency. A late L2 read
//!   never sees a store of its own SM that left the membar unit after the
//!   load did (the SM is in order: that is the membar unit's CTA contract).
//! - **Acknowledgements** of stores (at L2), loads (value returned) and
//!   atomics return to the membar unit out of order, one per cycle, and the
//!   BARRIER acks (`bar_ack`) after a random latency.
//! - **Shared memory** is per CTA and coherent: accesses take effect when
//!   they leave the membar unit. The **async proxy** (bulk copies) sees a
//!   generic-proxy shared store only after a random delay, or at once after a
//!   `fence.proxy.async` of that CTA.
//! - **Bulk copies** (the copy engine) read their source and write their
//!   destination at random times (per warp in issue order).
//!
//! Every random choice comes from one `rand_chacha` stream.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Random latencies (inclusive ranges, cycles).
#[derive(Debug, Clone, Copy)]
pub struct MemTiming {
    /// Store buffer → L2.
    pub store_drain: (u64, u64),
    /// A load or atomic served by L2.
    pub l2: (u64, u64),
    /// A load served by the SM's L1 / store buffer, or a shared-memory access.
    pub l1: (u64, u64),
    /// A shared-memory access to another CTA of the cluster (distributed
    /// shared memory, through the SM-to-SM network).
    pub dsmem: (u64, u64),
    /// A GPU- (or cluster-) scope BARRIER's `bar_ack`.
    pub bar_ack: (u64, u64),
    /// ... a system-scope one's.
    pub bar_ack_sys: (u64, u64),
    /// A generic-proxy shared store becomes visible to the async proxy.
    pub async_view: (u64, u64),
    /// Bulk copy: issue → source read.
    pub copy_read: (u64, u64),
    /// Bulk copy: source read → destination written.
    pub copy_write: (u64, u64),
    /// ... issue → source read when the source is shared memory.
    pub copy_read_shared: (u64, u64),
    /// ... source read → destination written when the destination is global memory.
    pub copy_write_global: (u64, u64),
    /// ... and the copy engine writes global memory this many bytes a
    /// cycle: a bulk store of `n` bytes takes `n / store_bytes_per_cycle`
    /// more (0: no size term, functional timing).
    pub store_bytes_per_cycle: u64,
    /// Cache residency for the timing of global reads (SM timing presets);
    /// `None`: every global read takes `l2` (functional timing).
    pub caches: Option<Caches>,
    /// Probability (per mille) that an SM's L1 starts with a stale line.
    pub stale_permille: u32,
    /// Deliberate bugs, for tests that prove the litmus verdicts depend on
    /// the acknowledgement and invalidate paths (all off normally).
    pub faults: Faults,
}

/// Latencies by where a global read finds its line: the SM's L1 (an
/// L1-cached read of the line before), L2 (the launch's data, or any access
/// before; a load takes [`MemTiming::l2`]), else DRAM; loads and
/// `cp.async` (LDGSTS, which reads through its own path) separately.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Caches {
    pub load_l1: u64,
    pub ldgsts_l1: u64,
    pub ldgsts_l2: u64,
    pub dram: u64,
}

/// Deliberate bugs of the memory system (tests only; all `false` by default).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Faults {
    /// Acknowledge a store when it enters the store buffer instead of when it
    /// reaches L2: a fence no longer waits for visibility.
    pub early_store_ack: bool,
    /// Ignore INVAL commands and `Inval` ops: stale L1 lines survive fences.
    pub ignore_invalidate: bool,
}

impl Default for MemTiming {
    fn default() -> Self {
        MemTiming {
            store_drain: (1, 300),
            l2: (20, 200),
            l1: (2, 10),
            dsmem: (2, 10),
            bar_ack: (5, 40),
            bar_ack_sys: (5, 40),
            async_view: (1, 400),
            copy_read: (50, 300),
            copy_write: (20, 200),
            copy_read_shared: (50, 300),
            copy_write_global: (20, 200),
            store_bytes_per_cycle: 0,
            caches: None,
            stale_permille: 500,
            faults: Faults::default(),
        }
    }
}

/// An atomic's operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomOp {
    Add,
    And,
    Or,
    Xor,
    Exch,
    Cas,
    Min,
    Max,
    Inc,
    Dec,
}

impl AtomOp {
    pub fn parse(s: &str) -> Option<AtomOp> {
        Some(match s {
            "add" => AtomOp::Add,
            "and" => AtomOp::And,
            "or" => AtomOp::Or,
            "xor" => AtomOp::Xor,
            "exch" => AtomOp::Exch,
            "cas" => AtomOp::Cas,
            "min" => AtomOp::Min,
            "max" => AtomOp::Max,
            "inc" => AtomOp::Inc,
            "dec" => AtomOp::Dec,
            _ => return None,
        })
    }
    /// New value from the old one and the operands, at the access type's
    /// width: `min`/`max` compare signed for `.s32/.s64` and unsigned
    /// otherwise; the result is truncated to the width.
    pub fn apply(self, old: u64, b: u64, c: u64, ty: Ty) -> u64 {
        let m = ty.mask();
        let (old, b, c) = (old & m, b & m, c & m);
        let signed_lt = |x: u64, y: u64| ty.signed_value(x) < ty.signed_value(y);
        let lt = |x: u64, y: u64| if ty.signed { signed_lt(x, y) } else { x < y };
        let r = match self {
            AtomOp::Add => old.wrapping_add(b),
            AtomOp::And => old & b,
            AtomOp::Or => old | b,
            AtomOp::Xor => old ^ b,
            AtomOp::Exch => b,
            AtomOp::Cas => {
                if old == b {
                    c
                } else {
                    old
                }
            }
            AtomOp::Min => {
                if lt(b, old) {
                    b
                } else {
                    old
                }
            }
            AtomOp::Max => {
                if lt(old, b) {
                    b
                } else {
                    old
                }
            }
            AtomOp::Inc => {
                if old >= b {
                    0
                } else {
                    old + 1
                }
            }
            AtomOp::Dec => {
                if old == 0 || old > b {
                    b
                } else {
                    old - 1
                }
            }
        };
        r & m
    }
}

/// The width and signedness of an access's type (`.u32`, `.s64`, `.b8`, ...):
/// a load's value and an atomic's operation are taken at this width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ty {
    /// 8, 16, 32 or 64.
    pub bits: u32,
    /// `.s*` types (atom `min`/`max` compare signed).
    pub signed: bool,
}

impl Ty {
    /// `.u32`.
    pub const U32: Ty = Ty {
        bits: 32,
        signed: false,
    };

    /// The type named by an opcode's qualifiers (`atom.global.min.s32` →
    /// 32 bits, signed); `.u32` if none (the parser requires a type).
    pub fn of_opcode(opcode: &str) -> Ty {
        opcode
            .split('.')
            .find_map(|q| {
                let (signed, bits) = match q.split_at_checked(1)? {
                    ("s", b) => (true, b),
                    ("u" | "b" | "f", b) => (false, b),
                    _ => return None,
                };
                let bits = bits.parse::<u32>().ok()?;
                [8, 16, 32, 64]
                    .contains(&bits)
                    .then_some(Ty { bits, signed })
            })
            .unwrap_or(Ty::U32)
    }

    /// Bytes of one element.
    pub fn bytes(self) -> u64 {
        self.bits as u64 / 8
    }

    /// The value bits of this width.
    pub fn mask(self) -> u64 {
        if self.bits >= 64 {
            u64::MAX
        } else {
            (1u64 << self.bits) - 1
        }
    }

    /// `v` (at this width) as a signed number.
    pub fn signed_value(self, v: u64) -> i64 {
        let sh = 64 - self.bits.min(64);
        ((v << sh) as i64) >> sh
    }
}

/// What a transaction does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `strong`: `.relaxed/.acquire/.volatile` at cluster/gpu/sys scope (bypasses L1).
    Load {
        strong: bool,
    },
    Store {
        val: u64,
    },
    /// `ret`: the old value goes to the destination (atom), or not (red).
    Atom {
        op: AtomOp,
        b: u64,
        c: u64,
    },
}

/// One LD/ST/ATOM/RED transaction, from the membar unit's `dn_*` port.
#[derive(Debug, Clone)]
pub struct Txn {
    pub sm: usize,
    /// Executor's warp index (for the destination register).
    pub warp: usize,
    /// The lane (thread of the warp) whose register `dst` receives the value.
    pub lane: u8,
    pub dst: Option<String>,
    pub addr: u64,
    pub shared: bool,
    /// A shared access to another CTA of the cluster (distributed shared
    /// memory): that CTA's shared memory (`None`: the issuing SM's own).
    pub shared_cta: Option<usize>,
    pub acc: Access,
    /// The access's type: a load returns the value at this width, an atomic
    /// operates at it (a store's value is already truncated to it).
    pub ty: Ty,
    /// Source line (trace).
    pub line: usize,
    /// The accesses of one warp instruction (one per lane and vector
    /// element) are one transaction of the membar unit: they share one
    /// acknowledgement, sent when the last of them is done
    /// ([`Memory::ack_group`]); `None`: the access is acknowledged alone.
    pub group: Option<u64>,
}

/// Something the executor must apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// Write `val` into register `reg` of lane `lane` of warp `warp`.
    Reg {
        warp: usize,
        lane: u8,
        reg: String,
        val: u64,
    },
    /// A memory event for the trace (warp, text).
    Event { warp: usize, what: String },
    /// A load/atomic/shared access of `warp` completed (acknowledged).
    Complete { warp: usize },
    /// Bulk copy of `warp` read its source (async_groups `rd`).
    CopyRead {
        warp: usize,
        group: bool,
        batch: Option<u64>,
    },
    /// Bulk copy of `warp` wrote its destination (async_groups `wr`), or, for an
    /// mbarrier-completed copy, pay `bytes` off entry `entry` of CTA `cta`.
    CopyWritten {
        warp: usize,
        group: bool,
        cta: usize,
        entry: Option<u8>,
        bytes: u32,
        batch: Option<u64>,
    },
}

/// One version of an address in L2: value, writer SM (usize::MAX = copy engine), SM sequence number.
#[derive(Debug, Clone, Copy)]
struct Version {
    val: u64,
    sm: usize,
    seq: u64,
}

#[derive(Debug, Clone)]
struct SbEntry {
    addr: u64,
    val: u64,
    seq: u64,
    at: u64,
    tag: u8,
    warp: usize,
    group: Option<u64>,
}

#[derive(Debug, Default, Clone)]
struct SmMem {
    l1: HashMap<u64, u64>,
    sb: Vec<SbEntry>,
    /// Latest drain time per address (keeps per-address order).
    last_drain: HashMap<u64, u64>,
    /// Latest L2 read time per address: reads of one address by one SM
    /// complete in order (read-read coherence).
    last_read: HashMap<u64, u64>,
    /// Per address, the SM's latest atomic: (dispatch sequence, time it is
    /// performed at L2). A later load of the address reads L2 after it.
    last_atomic: HashMap<u64, (u64, u64)>,
    touched: HashSet<u64>,
    /// The L1 was invalidated since the start: no line from before the kernel is left.
    invalidated: bool,
    /// A global store since the SM's last BARRIER (the cache timing's fence
    /// cost, `barrier`), and when the last GPU- or system-scope fence began.
    written: bool,
    fence_start: u64,
    /// Dispatch sequence number of the next transaction.
    seq: u64,
    acks: Vec<u8>,
    bar_acks: Vec<u8>,
}

#[derive(Debug, Clone)]
enum Pending {
    /// A load (value known or read at completion) or atomic completing at `at`.
    Load {
        at: u64,
        txn: Txn,
        tag: u8,
        seq: u64,
        val: Option<u64>,
    },
    BarAck {
        at: u64,
        sm: usize,
        tag: u8,
    },
    AsyncVisible {
        at: u64,
        cta: usize,
        addr: u64,
        val: u64,
    },
    Copy {
        read_at: u64,
        write_at: u64,
        copy: Copy,
        data: Option<Vec<u64>>,
    },
}

/// A bulk copy handed to the copy engine.
#[derive(Debug, Clone)]
pub struct Copy {
    pub warp: usize,
    pub cta: usize,
    /// Tracked by async_groups (bulk_group) rather than an mbarrier.
    pub group: bool,
    pub entry: Option<u8>,
    pub src_shared: bool,
    pub dst_shared: bool,
    pub src: u64,
    pub dst: u64,
    pub bytes: u32,
    /// The source may be cached in L1 (`cp.async.ca`).
    pub l1: bool,
    /// The per-lane copies of one non-bulk `cp.async` warp instruction
    /// (`LDGSTS`) are one issue of the async-group tracker: the executor
    /// reports its read and its write when the last of the batch is done.
    pub batch: Option<u64>,
}

/// The memory system.
pub struct Memory {
    pub t: MemTiming,
    rng: ChaCha8Rng,
    l2: HashMap<u64, Vec<Version>>,
    sms: Vec<SmMem>,
    shared: Vec<HashMap<u64, u64>>,
    async_view: Vec<HashMap<u64, u64>>,
    async_last: Vec<HashMap<u64, u64>>,
    /// By the cycle it is due, in the order they were made: `tick` takes
    /// only what is due (walking every pending item each cycle was most
    /// of the run time).
    pending: BTreeMap<u64, Vec<Pending>>,
    /// Per warp: time of its last bulk copy's read / write (keeps issue order).
    copy_last: HashMap<usize, (u64, u64, Option<u64>)>,
    /// Cache residency ([`MemTiming::caches`]): 128-byte lines L2 holds,
    /// and per SM the lines its L1 holds.
    l2_lines: std::collections::HashSet<u64>,
    l1_lines: Vec<std::collections::HashSet<u64>>,
    /// Global memory as the host wrote it before the launch (`Memory::init_global`).
    initial: HashMap<u64, u64>,
    /// Accesses left per acknowledgement group ([`Txn::group`]).
    groups: HashMap<u64, u32>,
    /// The earliest cycle at which a pending item is due (`tick` skips
    /// the pending list before it).
    due: u64,
    /// Emit `Done::Event` trace texts (off when nobody records a trace).
    pub events: bool,
}

impl Memory {
    pub fn new(sms: usize, t: MemTiming, seed: u64) -> Memory {
        Memory {
            t,
            rng: ChaCha8Rng::seed_from_u64(seed),
            l2: HashMap::new(),
            sms: vec![SmMem::default(); sms],
            shared: vec![HashMap::new(); sms],
            async_view: vec![HashMap::new(); sms],
            async_last: vec![HashMap::new(); sms],
            pending: BTreeMap::new(),
            copy_last: HashMap::new(),
            l2_lines: Default::default(),
            l1_lines: vec![Default::default(); sms],
            initial: HashMap::new(),
            groups: HashMap::new(),
            due: u64::MAX,
            events: true,
        }
    }

    fn rand(&mut self, r: (u64, u64)) -> u64 {
        self.rng.gen_range(r.0..=r.1.max(r.0))
    }

    /// A random number for the executor (start skew), from the same stream.
    pub fn rand_range(&mut self, lo: u64, hi: u64) -> u64 {
        self.rand((lo, hi))
    }

    fn due_of(p: &Pending) -> u64 {
        match p {
            Pending::Load { at, .. }
            | Pending::BarAck { at, .. }
            | Pending::AsyncVisible { at, .. } => *at,
            Pending::Copy {
                read_at,
                write_at,
                data,
                ..
            } => {
                if data.is_none() {
                    *read_at
                } else {
                    *write_at
                }
            }
        }
    }

    fn push_pending(&mut self, p: Pending) {
        let due = Self::due_of(&p);
        self.due = self.due.min(due);
        self.pending.entry(due).or_default().push(p);
    }

    /// The `n` accesses of group `id` share one acknowledgement (see [`Txn::group`]).
    pub fn ack_group(&mut self, id: u64, n: u32) {
        self.groups.insert(id, n);
    }

    /// An access is done: acknowledge its transaction (the last of its group).
    fn ack(&mut self, sm: usize, tag: u8, group: Option<u64>) {
        if let Some(g) = group {
            if let Some(n) = self.groups.get_mut(&g) {
                *n -= 1;
                if *n > 0 {
                    return;
                }
                self.groups.remove(&g);
            }
        }
        self.sms[sm].acks.push(tag);
    }

    /// Global memory before the kernel: `addr` holds `val` (the launch's
    /// buffers); a stale L1 line holds this value.
    pub fn init_global(&mut self, addr: u64, val: u64) {
        self.initial.insert(addr, val);
        self.l2_lines.insert(addr >> 7);
        self.l2.insert(
            addr,
            vec![Version {
                val,
                sm: usize::MAX,
                seq: 0,
            }],
        );
    }

    /// The latest value of `addr` in L2.
    pub fn l2_value(&self, addr: u64) -> u64 {
        self.l2
            .get(&addr)
            .and_then(|v| v.last())
            .map(|v| v.val)
            .unwrap_or(0)
    }

    /// A shared-memory word of CTA `cta` (generic proxy).
    pub fn shared_value(&self, cta: usize, addr: u64) -> u64 {
        self.shared[cta].get(&addr).copied().unwrap_or(0)
    }

    /// L2 as seen by a late read of SM `sm` dispatched with sequence `seq`:
    /// the newest version that is not a later store of the same SM.
    fn l2_read(&self, sm: usize, seq: u64, addr: u64) -> u64 {
        self.l2
            .get(&addr)
            .and_then(|vs| vs.iter().rev().find(|v| !(v.sm == sm && v.seq > seq)))
            .map(|v| v.val)
            .unwrap_or(0)
    }

    /// The SM-local view: the youngest store-buffer entry, else the L1 line.
    fn local(&self, sm: usize, addr: u64, use_l1: bool) -> Option<u64> {
        let s = &self.sms[sm];
        if let Some(e) = s.sb.iter().rev().find(|e| e.addr == addr) {
            return Some(e.val);
        }
        if use_l1 {
            s.l1.get(&addr).copied()
        } else {
            None
        }
    }

    /// A transaction leaves the membar unit of its SM (tag `tag`) at `now`.
    pub fn dispatch(&mut self, now: u64, txn: Txn, tag: u8) -> Vec<Done> {
        self.dispatch_after(now, txn, tag, 0)
    }

    /// ... a shared access whose data comes `extra` cycles later than the
    /// shared-memory latency (its bank conflicts and the queue before it).
    pub fn dispatch_after(&mut self, now: u64, txn: Txn, tag: u8, extra: u64) -> Vec<Done> {
        let sm = txn.sm;
        let seq = self.sms[sm].seq;
        self.sms[sm].seq += 1;
        let mut out = Vec::new();
        if txn.shared {
            // Shared memory: coherent, takes effect now (also another
            // CTA's, through the cluster: stronger than PTX requires).
            let cta = txn.shared_cta.unwrap_or(sm);
            let old = self.shared[cta].get(&txn.addr).copied().unwrap_or(0);
            let val = match txn.acc {
                Access::Load { .. } => Some(old),
                Access::Store { val } => {
                    self.shared[cta].insert(txn.addr, val);
                    self.async_store(now, cta, txn.addr, val);
                    None
                }
                Access::Atom { op, b, c } => {
                    let new = op.apply(old, b, c, txn.ty);
                    self.shared[cta].insert(txn.addr, new);
                    self.async_store(now, cta, txn.addr, new);
                    Some(old)
                }
            };
            let at = now + extra + self.rand(if cta == sm { self.t.l1 } else { self.t.dsmem });
            self.push_pending(Pending::Load {
                at,
                txn,
                tag,
                seq,
                val: Some(val.unwrap_or(0)),
            });
            return out;
        }
        let addr = txn.addr;
        let first = self.sms[sm].touched.insert(addr);
        if first && !self.sms[sm].invalidated && self.rng.gen_range(0..1000) < self.t.stale_permille
        {
            // The value before the kernel's first store (the host's image).
            let before = self.initial.get(&addr).copied().unwrap_or(0);
            self.sms[sm].l1.insert(addr, before);
        }
        match txn.acc {
            Access::Store { val } => {
                self.sms[sm].written = true;
                self.sms[sm].l1.insert(addr, val);
                let last = self.sms[sm].last_drain.get(&addr).copied().unwrap_or(0);
                let at = (now + self.rand(self.t.store_drain)).max(last + 1);
                self.sms[sm].last_drain.insert(addr, at);
                self.sms[sm].sb.push(SbEntry {
                    addr,
                    val,
                    seq,
                    at,
                    tag,
                    warp: txn.warp,
                    group: txn.group,
                });
                if self.t.faults.early_store_ack {
                    self.ack(sm, tag, txn.group);
                }
                if self.events {
                    out.push(Done::Event {
                        warp: txn.warp,
                        what: format!("st [{addr:#x}] = {val} (L1, drains at {at})"),
                    });
                }
            }
            Access::Load { strong } => {
                // The SM's own atomic on this address, still on its way to L2,
                // and no store after it: the store buffer and the L1 line hold
                // values from before the atomic, so the load reads L2 after
                // the atomic is performed (same-thread coherence).
                let atomic_pending =
                    self.sms[sm]
                        .last_atomic
                        .get(&addr)
                        .copied()
                        .filter(|&(aseq, aat)| {
                            aat > now
                                && !self.sms[sm]
                                    .sb
                                    .iter()
                                    .any(|e| e.addr == addr && e.seq > aseq)
                        });
                let hit = match atomic_pending {
                    Some(_) => None,
                    None => self.local(sm, addr, !strong),
                };
                let cached = self.global_read(sm, addr, !strong, false);
                let (at, val) = match hit {
                    // The SM's own store buffer or L1 line: no slower than an L1 hit.
                    Some(v) => {
                        let lat = match (cached, self.t.caches) {
                            (Some(c), Some(k)) => c.min(k.load_l1),
                            _ => self.rand(self.t.l1),
                        };
                        (now + lat, Some(v))
                    }
                    None => {
                        let last = self.sms[sm].last_read.get(&addr).copied().unwrap_or(0);
                        let after = atomic_pending.map_or(0, |(_, aat)| aat + 1);
                        let lat = cached.unwrap_or_else(|| self.rand(self.t.l2));
                        let at = (now + lat).max(last + 1).max(after);
                        self.sms[sm].last_read.insert(addr, at);
                        (at, None)
                    }
                };
                self.push_pending(Pending::Load {
                    at,
                    txn,
                    tag,
                    seq,
                    val,
                });
            }
            Access::Atom { .. } => {
                // An atomic is performed at L2: the line is there after it.
                if self.t.caches.is_some() {
                    self.l2_lines.insert(addr >> 7);
                }
                let last = self.sms[sm].last_drain.get(&addr).copied().unwrap_or(0);
                let at = (now + self.rand(self.t.l2)).max(last + 1);
                self.sms[sm].last_drain.insert(addr, at);
                self.sms[sm].last_atomic.insert(addr, (seq, at));
                self.push_pending(Pending::Load {
                    at,
                    txn,
                    tag,
                    seq,
                    val: None,
                });
            }
        }
        out
    }

    fn async_store(&mut self, now: u64, cta: usize, addr: u64, val: u64) {
        let last = self.async_last[cta].get(&addr).copied().unwrap_or(0);
        let at = (now + self.rand(self.t.async_view)).max(last);
        self.async_last[cta].insert(addr, at);
        self.push_pending(Pending::AsyncVisible { at, cta, addr, val });
    }

    /// `fence.proxy.async` of CTA `cta`: every earlier generic shared store is
    /// visible to the async proxy now.
    pub fn proxy_fence(&mut self, cta: usize) {
        let mut apply = Vec::new();
        for v in self.pending.values_mut() {
            v.retain(|p| match p {
                Pending::AsyncVisible {
                    at,
                    cta: c,
                    addr,
                    val,
                } if *c == cta => {
                    apply.push((*at, *addr, *val));
                    false
                }
                _ => true,
            });
        }
        self.pending.retain(|_, v| !v.is_empty());
        apply.sort_by_key(|a| a.0);
        for (_, addr, val) in apply {
            self.async_view[cta].insert(addr, val);
        }
        self.async_last[cta].clear();
    }

    /// An INVAL command (`CCTL.IVALL`): the SM's L1 drops every line — its
    /// values and, for the cache timing, its lines, so that a load after it
    /// takes L2's latency, as the loads after an acquire spin do on the
    /// device (`kernels/micro/h100_grid_sync.cu`: o6's re-read of the
    /// partials after its third grid barrier, 619 cycles; the timing lines
    /// were kept until 2026-11-30 and the executor gave 198, L1 hits).
    pub fn invalidate(&mut self, sm: usize) {
        if self.t.faults.ignore_invalidate {
            return;
        }
        self.sms[sm].l1.clear();
        self.sms[sm].invalidated = true;
        if let Some(lines) = self.l1_lines.get_mut(sm) {
            lines.clear();
        }
    }

    /// A GPU- or system-scope fence of SM `sm` began (its MEMBAR was taken).
    pub fn fence_started(&mut self, sm: usize, now: u64) {
        self.sms[sm].fence_start = now;
    }

    /// A BARRIER command left the membar unit; `ack_req`: answer with
    /// `bar_ack` (`sys`: a system-scope barrier, `bar_ack_sys`).
    ///
    /// Under the cache model (the SM timing presets), a barrier of an SM
    /// that has written global memory since its last barrier is answered no
    /// sooner than a store's drain after its fence began, as if that store
    /// were still in flight (its ack and the barrier overlap): on the
    /// device a GPU fence costs 553-558 cycles after a store drained 3,000
    /// cycles before and 264 after another fence
    /// (`kernels/micro/h100_fence_next.cu`, `fence_gap` rows), the fence
    /// calibration 542 after a store in flight; until 2026-11-30 the
    /// executor charged stores in flight only (314 after a drained store).
    pub fn barrier(&mut self, now: u64, sm: usize, tag: u8, ack_req: bool, sys: bool) {
        if ack_req {
            let lat = self.rand(if sys {
                self.t.bar_ack_sys
            } else {
                self.t.bar_ack
            });
            let mut at = now + lat;
            if self.t.caches.is_some() && self.sms[sm].written {
                // The store's ack and the barrier go on together (the
                // calibration's store-then-fence rows: the longer of the
                // two, the barrier on the H100, the store on the H200).
                at = at.max(self.sms[sm].fence_start + self.t.store_drain.1);
            }
            self.push_pending(Pending::BarAck { at, sm, tag });
        }
        self.sms[sm].written = false;
    }

    /// The latency of a global read of `addr` by SM `sm` under the cache
    /// model (`None` without it), and the line is then resident in L2 (and
    /// in the SM's L1 for an L1-cached read).
    fn global_read(&mut self, sm: usize, addr: u64, l1: bool, ldgsts: bool) -> Option<u64> {
        let c = self.t.caches?;
        let line = addr >> 7;
        let lat = match (
            l1 && self.l1_lines[sm].contains(&line),
            self.l2_lines.contains(&line),
        ) {
            (true, _) if ldgsts => c.ldgsts_l1,
            (true, _) => c.load_l1,
            (false, true) if ldgsts => c.ldgsts_l2,
            (false, true) => self.t.l2.0,
            (false, false) => c.dram,
        };
        self.l2_lines.insert(line);
        if l1 {
            self.l1_lines[sm].insert(line);
        }
        Some(lat)
    }

    /// Hand a bulk copy to the copy engine. The per-lane copies of one
    /// `cp.async` warp instruction (one batch) move together.
    pub fn copy(&mut self, now: u64, c: Copy) {
        let (lr, lw, last_batch) = self.copy_last.get(&c.warp).copied().unwrap_or((0, 0, None));
        if c.batch.is_some() && c.batch == last_batch && self.t.caches.is_some() {
            self.push_pending(Pending::Copy {
                read_at: lr,
                write_at: lw,
                copy: c,
                data: None,
            });
            return;
        }
        let cached = if c.src_shared {
            None
        } else {
            self.global_read(c.cta, c.src, c.l1, c.batch.is_some())
        };
        let read = match cached {
            Some(l) => (l, l),
            None if c.src_shared => self.t.copy_read_shared,
            None => self.t.copy_read,
        };
        let (write, size) = if c.dst_shared {
            (self.t.copy_write, 0)
        } else {
            let bw = self.t.store_bytes_per_cycle;
            let size = if bw == 0 {
                0
            } else {
                (c.bytes as u64).div_ceil(bw)
            };
            (self.t.copy_write_global, size)
        };
        let read_at = (now + self.rand(read)).max(lr + 1);
        let write_at = (read_at + self.rand(write) + size).max(lw + 1);
        self.copy_last.insert(c.warp, (read_at, write_at, c.batch));
        self.push_pending(Pending::Copy {
            read_at,
            write_at,
            copy: c,
            data: None,
        });
    }

    /// One `ack` for the membar unit of `sm` this cycle (out of order).
    pub fn take_ack(&mut self, sm: usize) -> Option<u8> {
        let n = self.sms[sm].acks.len();
        if n == 0 {
            return None;
        }
        let i = self.rng.gen_range(0..n);
        Some(self.sms[sm].acks.swap_remove(i))
    }

    /// One `bar_ack` for the membar unit of `sm` this cycle.
    pub fn take_bar_ack(&mut self, sm: usize) -> Option<u8> {
        let n = self.sms[sm].bar_acks.len();
        if n == 0 {
            return None;
        }
        let i = self.rng.gen_range(0..n);
        Some(self.sms[sm].bar_acks.swap_remove(i))
    }

    /// Every store of agent `sm` is in L2 (its store buffer is empty).
    pub fn drained(&self, sm: usize) -> bool {
        self.sms[sm].sb.is_empty()
    }

    /// Nothing in flight (no store to drain, load, ack, copy).
    pub fn idle(&self) -> bool {
        self.pending
            .values()
            .flatten()
            .all(|p| matches!(p, Pending::AsyncVisible { .. }))
            && self
                .sms
                .iter()
                .all(|s| s.sb.is_empty() && s.acks.is_empty() && s.bar_acks.is_empty())
    }

    /// Advance to `now`: drain stores, complete loads/atomics, deliver
    /// BARRIER acks, async-proxy visibility and copies due at `now`.
    pub fn tick(&mut self, now: u64) -> Vec<Done> {
        let mut out = Vec::new();
        // Store buffers drain.
        for sm in 0..self.sms.len() {
            let mut i = 0;
            while i < self.sms[sm].sb.len() {
                if self.sms[sm].sb[i].at <= now {
                    let e = self.sms[sm].sb.remove(i);
                    self.l2.entry(e.addr).or_default().push(Version {
                        val: e.val,
                        sm,
                        seq: e.seq,
                    });
                    if !self.t.faults.early_store_ack {
                        self.ack(sm, e.tag, e.group);
                    }
                    if self.events {
                        out.push(Done::Event {
                            warp: e.warp,
                            what: format!("st [{:#x}] = {} visible in L2", e.addr, e.val),
                        });
                    }
                } else {
                    i += 1;
                }
            }
        }
        if now < self.due {
            return out;
        }
        let mut pending = Vec::new();
        while let Some(e) = self.pending.first_entry() {
            if *e.key() > now {
                break;
            }
            pending.extend(e.remove());
        }
        let mut keep = Vec::new();
        for p in pending {
            match p {
                Pending::Load {
                    at,
                    txn,
                    tag,
                    seq,
                    val,
                } if at <= now => {
                    let sm = txn.sm;
                    let v = match (txn.acc, val) {
                        (_, Some(v)) => v,
                        (Access::Atom { op, b, c }, None) => {
                            let old = self.l2_value(txn.addr);
                            let new = op.apply(old, b, c, txn.ty);
                            self.l2.entry(txn.addr).or_default().push(Version {
                                val: new,
                                sm,
                                seq,
                            });
                            if let Some(l) = self.sms[sm].l1.get_mut(&txn.addr) {
                                *l = new;
                            }
                            old
                        }
                        (_, None) => {
                            let v = self.l2_read(sm, seq, txn.addr);
                            if matches!(txn.acc, Access::Load { strong: false }) {
                                self.sms[sm].l1.entry(txn.addr).or_insert(v);
                            }
                            v
                        }
                    };
                    let v = v & txn.ty.mask();
                    if let Some(r) = &txn.dst {
                        out.push(Done::Reg {
                            warp: txn.warp,
                            lane: txn.lane,
                            reg: r.clone(),
                            val: v,
                        });
                    }
                    let what = match txn.acc {
                        Access::Load { .. } => format!(
                            "ld{} [{:#x}] -> {v}",
                            if txn.shared { ".shared" } else { "" },
                            txn.addr
                        ),
                        Access::Store { val } => format!("st.shared [{:#x}] = {val}", txn.addr),
                        Access::Atom { .. } => format!("atom [{:#x}] old {v}", txn.addr),
                    };
                    if self.events {
                        out.push(Done::Event {
                            warp: txn.warp,
                            what,
                        });
                    }
                    out.push(Done::Complete { warp: txn.warp });
                    self.ack(sm, tag, txn.group);
                }
                Pending::BarAck { at, sm, tag } if at <= now => {
                    self.sms[sm].bar_acks.push(tag);
                }
                Pending::AsyncVisible { at, cta, addr, val } if at <= now => {
                    self.async_view[cta].insert(addr, val);
                }
                Pending::Copy {
                    read_at,
                    write_at,
                    copy,
                    data: None,
                } if read_at <= now => {
                    let words = copy.bytes.div_ceil(4) as u64;
                    let data: Vec<u64> = (0..words)
                        .map(|k| {
                            let a = copy.src + 4 * k;
                            if copy.src_shared {
                                self.async_view[copy.cta].get(&a).copied().unwrap_or(0)
                            } else {
                                self.l2_value(a)
                            }
                        })
                        .collect();
                    out.push(Done::CopyRead {
                        warp: copy.warp,
                        group: copy.group,
                        batch: copy.batch,
                    });
                    keep.push(Pending::Copy {
                        read_at,
                        write_at,
                        copy,
                        data: Some(data),
                    });
                }
                Pending::Copy {
                    write_at,
                    copy,
                    data: Some(data),
                    ..
                } if write_at <= now => {
                    for (k, v) in data.iter().enumerate() {
                        let a = copy.dst + 4 * k as u64;
                        if copy.dst_shared {
                            self.shared[copy.cta].insert(a, *v);
                            self.async_view[copy.cta].insert(a, *v);
                        } else {
                            self.l2.entry(a).or_default().push(Version {
                                val: *v,
                                sm: usize::MAX,
                                seq: 0,
                            });
                        }
                    }
                    if self.events {
                        out.push(Done::Event {
                            warp: copy.warp,
                            what: format!(
                                "bulk copy {} B [{:#x}] -> [{:#x}] written",
                                copy.bytes, copy.src, copy.dst
                            ),
                        });
                    }
                    out.push(Done::CopyWritten {
                        warp: copy.warp,
                        group: copy.group,
                        cta: copy.cta,
                        entry: copy.entry,
                        bytes: copy.bytes,
                        batch: copy.batch,
                    });
                }
                other => keep.push(other),
            }
        }
        for p in keep {
            self.push_pending(p);
        }
        self.due = self.pending.keys().next().copied().unwrap_or(u64::MAX);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn txn(sm: usize, addr: u64, acc: Access) -> Txn {
        Txn {
            sm,
            warp: sm,
            lane: 0,
            dst: Some("%r".into()),
            addr,
            shared: false,
            shared_cta: None,
            acc,
            ty: Ty::U32,
            line: 1,
            group: None,
        }
    }

    fn run_until_idle(m: &mut Memory, from: u64) -> (u64, Vec<Done>) {
        let mut all = Vec::new();
        let mut t = from;
        while !m.idle() || t == from {
            all.extend(m.tick(t));
            for sm in 0..m.sms.len() {
                while m.take_ack(sm).is_some() {}
            }
            t += 1;
            assert!(t < from + 100_000, "memory never went idle");
        }
        (t, all)
    }

    #[test]
    fn store_reaches_l2_and_other_sm_reads_it_after_invalidate() {
        let mut m = Memory::new(2, MemTiming::default(), 1);
        m.dispatch(0, txn(0, 64, Access::Store { val: 5 }), 0);
        let (t, _) = run_until_idle(&mut m, 0);
        assert_eq!(m.l2_value(64), 5);
        m.invalidate(1);
        m.dispatch(t, txn(1, 64, Access::Load { strong: false }), 0);
        // The first access of SM 1 may find a stale line: invalidate again.
        m.invalidate(1);
        let (_, done) = run_until_idle(&mut m, t);
        let vals: Vec<u64> = done
            .iter()
            .filter_map(|d| match d {
                Done::Reg { val, .. } => Some(*val),
                _ => None,
            })
            .collect();
        assert_eq!(vals.len(), 1);
        assert!(vals[0] == 5 || vals[0] == 0, "{vals:?}");
    }

    #[test]
    fn stores_of_one_sm_to_one_address_drain_in_order() {
        for seed in 0..50 {
            let mut m = Memory::new(1, MemTiming::default(), seed);
            for v in 1..=5 {
                m.dispatch(v, txn(0, 8, Access::Store { val: v }), 0);
            }
            run_until_idle(&mut m, 6);
            assert_eq!(m.l2_value(8), 5, "seed {seed}");
        }
    }

    #[test]
    fn stores_to_two_addresses_can_drain_out_of_order() {
        let mut seen = false;
        for seed in 0..200 {
            let mut m = Memory::new(2, MemTiming::default(), seed);
            m.dispatch(0, txn(0, 0, Access::Store { val: 1 }), 0);
            m.dispatch(1, txn(0, 4, Access::Store { val: 1 }), 0);
            for t in 0..400 {
                m.tick(t);
                if m.l2_value(4) == 1 && m.l2_value(0) == 0 {
                    seen = true;
                }
            }
        }
        assert!(seen, "the store buffer never reordered two stores");
    }

    #[test]
    fn late_read_ignores_later_stores_of_its_own_sm() {
        let mut m = Memory::new(1, MemTiming::default(), 3);
        m.dispatch(0, txn(0, 16, Access::Load { strong: true }), 0);
        m.dispatch(1, txn(0, 16, Access::Store { val: 9 }), 0);
        let (_, done) = run_until_idle(&mut m, 2);
        assert!(done.contains(&Done::Reg {
            warp: 0,
            lane: 0,
            reg: "%r".into(),
            val: 0
        }));
        assert_eq!(m.l2_value(16), 9);
    }

    #[test]
    fn strong_reads_of_one_address_by_one_sm_never_go_back_in_coherence_order() {
        for seed in 0..30 {
            let mut m = Memory::new(2, MemTiming::default(), seed);
            let mut vals = Vec::new();
            for t in 0..400u64 {
                if t % 20 == 0 {
                    m.dispatch(t, txn(1, 40, Access::Store { val: t / 20 + 1 }), 0);
                }
                let mut l = txn(0, 40, Access::Load { strong: true });
                l.dst = Some(format!("r{t}"));
                m.dispatch(t, l, 0);
                for d in m.tick(t) {
                    if let Done::Reg { reg, val, .. } = d {
                        vals.push((reg[1..].parse::<u64>().unwrap(), val));
                    }
                }
                for sm in 0..2 {
                    while m.take_ack(sm).is_some() {}
                }
            }
            run_until_idle(&mut m, 400).1.into_iter().for_each(|d| {
                if let Done::Reg { reg, val, .. } = d {
                    vals.push((reg[1..].parse::<u64>().unwrap(), val));
                }
            });
            vals.sort();
            assert_eq!(vals.len(), 400);
            assert!(
                vals.windows(2).all(|w| w[0].1 <= w[1].1),
                "seed {seed}: a later read saw an older value"
            );
            assert!(
                vals.last().unwrap().1 > 1,
                "seed {seed}: the stores never became visible"
            );
        }
    }

    #[test]
    fn atomic_min_max_signedness_follows_the_type() {
        let s32 = Ty::of_opcode("atom.global.min.s32");
        assert_eq!(
            s32,
            Ty {
                bits: 32,
                signed: true
            }
        );
        let neg5 = -5i64 as u64 & 0xffff_ffff;
        assert_eq!(AtomOp::Min.apply(3, neg5, 0, s32), neg5);
        assert_eq!(AtomOp::Max.apply(neg5, 2, 0, s32), 2);
        assert_eq!(AtomOp::Min.apply(3, neg5, 0, Ty::U32), 3);
        let s64 = Ty::of_opcode("atom.max.s64.gpu");
        assert_eq!(
            AtomOp::Max.apply(-5i64 as u64, -9i64 as u64, 0, s64),
            -5i64 as u64
        );
        let u64t = Ty::of_opcode("atom.max.u64");
        assert_eq!(
            AtomOp::Max.apply(-5i64 as u64, 1 << 40, 0, u64t),
            -5i64 as u64
        );
        // 32-bit arithmetic wraps at 32 bits.
        assert_eq!(AtomOp::Add.apply(0xffff_ffff, 1, 0, Ty::U32), 0);
    }

    #[test]
    fn atomics_serialise_at_l2() {
        let mut m = Memory::new(2, MemTiming::default(), 4);
        for k in 0..10 {
            m.dispatch(
                k,
                txn(
                    (k % 2) as usize,
                    32,
                    Access::Atom {
                        op: AtomOp::Add,
                        b: 1,
                        c: 0,
                    },
                ),
                0,
            );
        }
        run_until_idle(&mut m, 10);
        assert_eq!(m.l2_value(32), 10);
    }

    #[test]
    fn proxy_fence_makes_shared_stores_visible_to_the_async_proxy() {
        let mut m = Memory::new(1, MemTiming::default(), 5);
        let mut t = txn(0, 128, Access::Store { val: 7 });
        t.shared = true;
        m.dispatch(0, t, 0);
        m.proxy_fence(0);
        m.copy(
            1,
            Copy {
                warp: 0,
                cta: 0,
                group: true,
                entry: None,
                src_shared: true,
                dst_shared: false,
                src: 128,
                dst: 4096,
                bytes: 4,
                l1: false,
                batch: None,
            },
        );
        run_until_idle(&mut m, 2);
        assert_eq!(m.l2_value(4096), 7);
    }
}

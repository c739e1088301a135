//! The executor: runs a PTX program file cycle by cycle on the unit
//! reference models (`docs/memory_model.md` §Executor).
//!
//! One CTA per SM. Each SM holds one `sm_sync` top (spec/sm_sync.md: the
//! membar, named-barrier, mbarrier and async-group units behind one
//! decoded-instruction port) as a [`Dut`]: by default its reference model
//! `sm_sync_model::SmSyncModel`; [`RunOptions::backend`] can put the rust-hdl
//! simulation or the Verilated Verilog there instead (`membar run --on`),
//! checked in lockstep against the model. Each cluster has one
//! `cluster_barrier` model. Each warp has a PC, registers (64-bit, written
//! as the instruction's type), and issues its instruction's lowered ops
//! (`ptx_front::lower_program`) one per cycle. The SM has one instruction
//! port: every cycle at most one warp's op, in round-robin order, is
//! encoded by `sm_sync_model::encode` (the encoding the RTL decoder takes)
//! and presented; the others wait ("port"). The units decide when a warp is
//! blocked and released: the executor only offers instructions and reads
//! `in_ready`, `release_mask`, `bar_rel_*`, `mb_rsp_*`, `mb_wake_*`, `err`.
//! The memory system ([`crate::memory::Memory`]) answers the membar unit's
//! `dn_*` commands with values, acks and bar_acks, and drives the
//! pass-through ports (`ctx_*`, `rarv_*`, `rd_*`, `wr_*`; `ctl_*` launches
//! the CTA and reports warp exits).

use crate::memory::{Access, AtomOp, Copy, Done, MemTiming, Memory, Txn, Ty};
use crate::schedule::Halves;
use crate::sm_timing::{IssueClass, SmTiming};
use crate::symbols::{self, Space, Symbols, MBARRIER_BYTES, SHARED_BASE};
use crate::trace::{Cause, Trace};
use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::{BarConfig, ClusterConfig};
use bar_unit_model::ports::{ctl, errc, op as bop, ClusterInputs};
use mbarrier_unit_model::ports::mbarrier as mb;
use membar_unit_model::ports::kind;
use membar_unit_model::Config as MembarConfig;
use ptx_front::lower::{Arg, GroupOp, Level, Lowered, MbOp, ProxyKind, TxnOp};
use ptx_front::parser::{Operand, Stmt};
use ptx_front::{Program, PtxError};
use sm_sync_model::encode::{encode, Instr};
use sm_sync_model::ports::src;
use sm_sync_model::{Inputs as SmInputs, SmSyncModel, SmSyncPorts};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::Arc;
use unit_ports::{Dut, PortBundle};

/// Options of one run.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub seed: u64,
    /// Cycle cap: a run still going at this cycle stops and says why.
    pub max_cycles: u64,
    pub timing: MemTiming,
    /// Each warp starts after a random delay 0..=start_skew cycles.
    pub start_skew: u64,
    /// Record a trace.
    pub trace: bool,
    /// What runs each SM's `sm_sync` top (default: its reference model).
    pub backend: Backend,
    /// An SM timing preset (`crate::sm_timing`): issue model, dependencies,
    /// deferred blocking, release sequencer and fixed memory latencies in
    /// place of `timing` and `start_skew`. `None`: functional timing.
    pub sm_timing: Option<SmTiming>,
}

/// What runs each SM's `sm_sync` top besides its reference model: nothing
/// (`model`), or a twin of the top for [`exec_config`] — the rust-hdl
/// simulation or the Verilated Verilog — stepped in lockstep with the model
/// on the same inputs, every output port compared every cycle; the first
/// difference stops the run ([`RunResult::mismatch`]).
#[derive(Clone)]
pub struct Backend {
    /// `model`, `rtl`, `verilog`: for messages.
    pub name: &'static str,
    /// The twin of SM `k`'s top, or `None` for the model alone.
    #[allow(clippy::type_complexity)]
    pub build:
        Arc<dyn Fn(usize) -> Result<Option<Box<dyn Dut<SmSyncPorts>>>, String> + Send + Sync>,
}

impl std::fmt::Debug for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Backend({})", self.name)
    }
}

impl Default for Backend {
    fn default() -> Self {
        Backend {
            name: "model",
            build: Arc::new(|_| Ok(None)),
        }
    }
}

/// The `sm_sync` configuration of every SM the executor runs without a
/// timing preset: [`exec_config_for`] with none.
pub fn exec_config() -> sm_sync_model::Config {
    exec_config_for(None)
}

/// The `sm_sync` configuration of every SM the executor runs: the membar
/// unit's default, 32 warps in one CTA slot, the mbarrier unit's and the
/// async-group tracker's defaults but for the `try_wait` limit (4095).
/// Under a timing preset the membar unit acknowledges GPU-scope barriers
/// as the GPU's does (`SmTiming::gl_bar_ack`, `configs/h100.yaml`); the
/// other membar parameters are generics of the RTL twin and stay the
/// default's.
pub fn exec_config_for(preset: Option<&SmTiming>) -> sm_sync_model::Config {
    sm_sync_model::Config {
        membar: MembarConfig {
            gl_bar_ack: preset.is_some_and(|t| t.gl_bar_ack),
            ..MembarConfig::default()
        },
        bar: BarConfig {
            warps: 32,
            cta_slots: 1,
        },
        // A full warp's `try_wait` on the H100 stays suspended for
        // thousands of cycles unless its phase completes (4374 cycles per
        // poll with 32 lanes, `kernels/micro/h100_async_wait.cu`); the
        // unit's default (73, sync §2.3's one-thread chain) would answer
        // "not done" every 73 cycles. The largest limit the unit takes.
        mbarrier: mbarrier_unit_model::config::Config {
            try_wait_limit: 4095,
            ..Default::default()
        },
        // The preset's issue costs count from the instruction reaching its
        // unit: the decoder reads the port in the cycle it is presented.
        registered_port: false,
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            seed: 1,
            max_cycles: 1_000_000,
            timing: MemTiming::default(),
            start_skew: 200,
            trace: false,
            backend: Backend::default(),
            sm_timing: None,
        }
    }
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Every warp exited and the memory system drained.
    Finished,
    /// Every live warp blocked and nothing in flight: (warp name, what it waits on).
    Deadlock(Vec<(String, String)>),
    /// The cycle cap was reached: (warp name, what it is doing).
    CycleCap(Vec<(String, String)>),
    /// A unit reported a protocol error (a program bug): file:line:col message.
    UnitError(String),
    /// The twin of the `sm_sync` top (`--on rtl|verilog`) differed from the
    /// reference model on the same inputs.
    Mismatch(Mismatch),
}

/// The first output port where the twin and the reference model differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    pub cycle: u64,
    /// The SM (= CTA) whose top differed.
    pub sm: usize,
    pub port: &'static str,
    pub model: u64,
    pub twin: u64,
    /// `rust-hdl`, `verilator`, ...
    pub twin_name: String,
    /// That cycle's inputs of the top, `name=value`.
    pub inputs: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "cycle {}, SM {}: port `{}`: model {:#x}, {} {:#x}; inputs: {}",
            self.cycle, self.sm, self.port, self.model, self.twin_name, self.twin, self.inputs
        )
    }
}

/// Per-warp results.
#[derive(Debug, Clone)]
pub struct WarpResult {
    pub cta: u32,
    pub warp: u32,
    /// A host thread (`warp` is its number).
    pub host: bool,
    pub program: String,
    pub regs: BTreeMap<String, u64>,
    /// A program file's warp of several lanes: every lane's registers.
    pub lane_regs: Vec<BTreeMap<String, u64>>,
    /// Stall cycles by cause.
    pub stalls: BTreeMap<&'static str, u64>,
    pub issued: u64,
    pub exited_at: Option<u64>,
}

impl WarpResult {
    pub fn name(&self) -> String {
        if self.host {
            format!("host{}", self.warp)
        } else {
            format!("cta{}.w{}", self.cta, self.warp)
        }
    }
}

/// Result of a run.
#[derive(Debug, Clone)]
pub struct RunResult {
    pub outcome: Outcome,
    pub cycles: u64,
    pub warps: Vec<WarpResult>,
    pub trace: Trace,
    /// A kernel launch's buffers after the run (name, elements), in the
    /// launch's order; empty for a program file.
    pub buffers: Vec<(String, Vec<u64>)>,
    /// Per synchronisation site (an instruction a warp blocked at), by line.
    pub sites: Vec<SiteStat>,
}

/// The waits at one synchronisation site: how often a warp blocked there
/// and for how many cycles (from the issue to the release).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SiteStat {
    pub line: usize,
    /// The instruction as written.
    pub text: String,
    /// What the warps waited on (`bar`, `mbarrier`, `membar`, ...).
    pub cause: &'static str,
    pub waits: u64,
    pub total: u64,
    pub max: u64,
}

impl RunResult {
    /// A register of warp (cta, warp).
    pub fn reg(&self, cta: u32, warp: u32, reg: &str) -> Option<u64> {
        self.warps
            .iter()
            .find(|w| !w.host && w.cta == cta && w.warp == warp)
            .and_then(|w| w.regs.get(reg).copied())
    }

    /// A register of lane `lane` of warp (cta, warp).
    pub fn lane_reg(&self, cta: u32, warp: u32, lane: u32, reg: &str) -> Option<u64> {
        let w = self
            .warps
            .iter()
            .find(|w| !w.host && w.cta == cta && w.warp == warp)?;
        if lane == 0 {
            return w.regs.get(reg).copied();
        }
        w.lane_regs
            .get(lane as usize)
            .and_then(|r| r.get(reg).copied())
    }

    /// A register of host thread `thread`.
    pub fn host_reg(&self, thread: u32, reg: &str) -> Option<u64> {
        self.warps
            .iter()
            .find(|w| w.host && w.warp == thread)
            .and_then(|w| w.regs.get(reg).copied())
    }
}

/// A barrier as the issue model takes it ([`Machine::barrier_forms`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BarrierForm {
    pub opcode: String,
    /// Its id or count is a register in the SASS (the slower release path).
    pub register_path: bool,
    /// `ptxas` puts a `WARPSYNC.ALL` in front of it.
    pub warpsync: bool,
}

/// One instruction ready to run: its operands, guard and lowered ops.
#[derive(Debug, Clone)]
pub(crate) struct Code {
    pub(crate) inst: ptx_front::Inst,
    pub(crate) ops: Vec<Lowered>,
    /// For the issue model (`crate::sm_timing`): the instruction's class, the
    /// registers it reads (guard included) and those it writes.
    pub(crate) class: IssueClass,
    pub(crate) srcs: Vec<usize>,
    pub(crate) dsts: Vec<usize>,
    /// `bar.sync`/`bar.arrive` with its id or thread count in a register
    /// after `ptxas`'s constant propagation
    /// (`crate::schedule::immediate_bar_operands`): the register path.
    pub(crate) reg_count: bool,
    /// A forward branch `ptxas` turns into predication
    /// (`crate::schedule::if_converted_branches`).
    pub(crate) if_converted: bool,
    /// Arithmetic `ptxas` folds into constants when it unrolls a counted
    /// loop (`crate::schedule::folded_in_unrolled_loops`): no issue cost.
    pub(crate) folded: bool,
    /// A 64-bit add or subtract of two registers: its high half is ready
    /// one ALU latency after its low half (`crate::schedule::is_add64`).
    pub(crate) add64: bool,
    /// How it reads its 64-bit sources (`crate::schedule::halves`).
    pub(crate) halves: crate::schedule::Halves,
    /// An inlined device function's `ret` (`ptx_front::inline`): it issues
    /// as the call's return (`SmTiming::issue_return`).
    pub(crate) returns: bool,
    /// A barrier `ptxas` precedes with `WARPSYNC.ALL`
    /// (`crate::warpsync::warpsync_barriers`): it issues `SmTiming::warpsync` later.
    pub(crate) warpsync: bool,
}

struct Entry {
    /// Shared: a warp's current instruction is taken by reference count each cycle.
    code: Vec<Arc<Code>>,
    labels: HashMap<String, usize>,
    /// Registers the entry declares (`.reg`), and each one's index in a
    /// lane's register file.
    regs: HashMap<String, usize>,
}

/// Lanes of a warp.
pub const LANES: usize = 32;

/// An operand resolved once per instruction (`Machine::resolve`).
#[derive(Debug, Clone, Copy)]
enum Src {
    Reg(usize),
    /// `!p`.
    Not(usize),
    Val(u64),
}

/// A kernel launch (`crate::launch`): the grid and block shapes, the
/// parameters' values, and the buffers' addresses.
#[derive(Debug, Clone)]
pub struct Kernel {
    pub launch: crate::launch::Resolved,
    /// The entry's parameters: name → value.
    pub params: HashMap<String, u64>,
    /// Shared bytes of the CTA (static + dynamic).
    pub smem_bytes: u64,
}

#[derive(Debug, Clone, PartialEq)]
enum Wait {
    /// Not blocked.
    None,
    /// Not yet started (start skew).
    Start(u64),
    /// MEMBAR accepted: until `release_mask`.
    Membar,
    /// Issue model: a GPU- or system-scope MEMBAR released; the rest of the
    /// fence sequence on the SM until this cycle (`SmTiming::fence_overhead_gl`).
    AfterFence(u64),
    /// bar.sync / bar.red: until `rel_mask`; destination of a reduction.
    Bar(Option<(String, u8)>),
    /// mbarrier op accepted: its response next cycle (destination register).
    MbRsp(Option<String>),
    /// try_wait suspended: until `wake_mask` (destination predicate).
    MbWake(Option<String>),
    /// wait_group: until `release_mask`.
    Group,
    /// barrier.cluster.wait: until the cluster completed phase `n`.
    Cluster(u64),
    Exited,
}

struct Warp {
    /// The SM (for a host thread: the host's memory agent, after the SMs).
    cta: usize,
    slot: u8,
    /// The warp slot (a host thread: its number).
    hw_warp: u32,
    /// A host thread (`hosts:` of the header).
    host: bool,
    entry: usize,
    program: String,
    /// The current group's PC: the smallest PC of the live lanes (lanes at
    /// other PCs wait; sm_70+ programs reconverge where their paths meet).
    pc: usize,
    /// Next lowered op of the current instruction.
    opi: usize,
    /// Per lane PC.
    lane_pc: [usize; LANES],
    /// Lanes that hold a thread (a program file's warp: lane 0 only).
    lanes: u32,
    /// Lanes whose thread exited.
    exited: u32,
    /// The group: live lanes at `pc`.
    active: u32,
    /// Lanes of the group that execute the current instruction (its guard true).
    exec: u32,
    /// Per lane registers: `regs[r * LANES + lane]`.
    regs: Vec<u64>,
    /// Registers lane 0 has written (a program file's warp reports these).
    written: Vec<bool>,
    /// Registers with a load/atomic in flight.
    pending: HashMap<String, u32>,
    /// Loads/atomics in flight.
    inflight: u32,
    wait: Wait,
    stalls: BTreeMap<&'static str, u64>,
    issued: u64,
    exited_at: Option<u64>,
    /// Cluster phases this warp arrived in.
    cluster_arrivals: u64,
    /// The kind of async groups the warp used: bulk (true) or non-bulk.
    group_kind: Option<bool>,
    /// Blocked since (cycle, source line of the instruction, cause).
    blocked: Option<(u64, usize, Cause)>,
    /// The instruction last issued (line, text): where a blocked warp waits.
    at: (usize, Option<Arc<Code>>),
    at_col: usize,
    /// Issue model (`RunOptions::sm_timing`): the current instruction has
    /// passed the issue checks; the warp's next issue cycle; per register,
    /// the cycle its value is ready.
    marked: bool,
    ready_at: u64,
    /// Issue model: the level of the MEMBAR the warp waits for (the SM's
    /// work after its release, `SmTiming::fence_overhead_gl`).
    fence_level: Option<Level>,
    reg_ready: Vec<u64>,
    /// ... the cycle its low half is ready (a 64-bit add's comes first).
    reg_lo_ready: Vec<u64>,
    /// A `bar.sync`/`bar.red` accepted, its release not yet here: the warp
    /// runs on until an instruction that depends on the barrier (deferred
    /// blocking); the reduction's destination.
    bar_deferred: Option<RedDst>,
    /// Issue model: these lanes run through an if-converted block with
    /// their guard false, up to this instruction (the branch's target).
    pred_off: Option<(usize, u32)>,
    /// The warp's last barrier op had a register count (release path).
    bar_reg_count: bool,
    /// Issue model: the warp's mbarrier ops awaiting the unit's response,
    /// in order (their destination register, if any), and whether the
    /// oldest is a suspended `try_wait`.
    mb_fifo: VecDeque<Option<String>>,
    mb_suspended: bool,
    mb_suspended_at: u64,
    /// The op being issued holds the warp until its response is back.
    mb_hold: bool,
    /// Issue model, `test_wait` spins: the warp's last mbarrier op was a
    /// `test_wait` answered "not done" (its next poll is a repeat poll).
    mb_spinning: bool,
    /// A spin's first poll that found its phase incomplete, until its
    /// answer comes back.
    mb_parked: Option<Parked>,
    /// The warp's last `test_wait` as sent to the unit, and how the poll
    /// timer answers it.
    mb_last_x: Option<Instr>,
    mb_poll: PollKind,
}

/// Issue model: a parked `test_wait` poll (`Warp::mb_parked`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Parked {
    /// The SM polls the unit again for it at this cycle (the poll timer),
    /// with this op.
    Waiting(u64, Instr),
    /// That second poll is on its way to the unit.
    Resent,
}

/// An event `bar_unit` took: a barrier op (its warp, whether it was a
/// `bar.arrive`, its instruction's line and column) or a ctl event (the
/// exiting warp; a launch: the CTA's first warp).
#[derive(Clone, Copy, Debug)]
struct BarEvent {
    warp: usize,
    arrive: bool,
    at: Option<(usize, usize)>,
}

struct Sm {
    /// The SM's `sm_sync` top: the reference model, and the twin checked
    /// against it in lockstep (`--on rtl|verilog`).
    port: SmSyncModel,
    twin: Option<Box<dyn Dut<SmSyncPorts>>>,
    /// Warps of this CTA (executor indices), by hardware warp slot.
    warps: Vec<usize>,
    rr: usize,
    /// req_id -> the lanes' transactions of one warp instruction, waiting
    /// to leave the membar unit (one request on its port).
    txns: HashMap<u16, Vec<Txn>>,
    next_id: u16,
    /// Warp exits to present on bar_unit's ctl port.
    exits: VecDeque<u8>,
    launched: bool,
    /// Pending complete-tx reports (entry, bytes) and remote arrives (entry, count, at).
    ctx: VecDeque<(u8, u32)>,
    rarv: Vec<(u64, u8, u32)>,
    /// Pending async_groups rd/wr reports (warp slot).
    rd: VecDeque<u8>,
    wr: VecDeque<u8>,
    /// Cluster: arrivals of this CTA in the current phase; phases sent.
    cl_sent: u64,
    /// A kernel's live mbarriers: shared address → the unit's entry.
    mb_map: HashMap<u64, u8>,
    gone: bool,
    /// Issue model: the cycle each warp scheduler last issued; releases
    /// on their way to their warps (due cycle, warp), in due order.
    sched: Vec<u64>,
    /// Issue model: the eighth of a cycle each scheduler's path to the
    /// shared memory takes its next wavefront
    /// (`Machine::shared_conflict_delay`).
    smsp_shared_free: Vec<u64>,
    rel_queue: VecDeque<(u64, usize, u64)>,
    /// The events the bar unit took in the last two cycles, oldest first,
    /// with the cycle each was taken: its `err` answers the event of the
    /// previous cycle, and a release comes 2 cycles after the arrival that
    /// completed the barrier (`spec/bar_unit.md`, cycle rules).
    bar_events: VecDeque<(u64, BarEvent)>,
    /// Issue model: per barrier id, the first cycle its next arrival may be taken.
    bar_next: HashMap<u8, u64>,
    /// Issue model: mbarrier responses on their way back to their warps
    /// (due cycle, warp, destination, value) in due order, at least the
    /// return path's interval apart.
    mb_queue: VecDeque<(u64, usize, Option<String>, u64)>,
    /// Issue model: the first cycle the SM's mbarrier path takes its next
    /// op after a `test_wait` poll (`test_wait_occupancy`).
    mb_next: u64,
    /// Issue model: a parked `test_wait`'s second poll lost the port to a
    /// warp's op last time; it goes first next time.
    poll_turn: bool,
}

struct Cluster {
    model: ClusterBarrierModel,
    first_cta: usize,
    size: usize,
    /// Completed phases.
    done: u64,
    /// Pending arrive pulses (at, rank).
    arv: Vec<(u64, usize)>,
}

/// What the executor does once the SM's instruction port answers.
enum Req {
    /// membar unit: a warp's transaction, one memory access per lane and
    /// vector element (None for a MEMBAR).
    Membar(Option<Vec<Txn>>),
    /// bar unit: destination of a reduction, and whether the op blocks.
    Bar(RedDst, bool),
    /// mbarrier unit: destination register of the response; for a poll,
    /// how the SM's poll timer answers it.
    Mb(Option<String>, PollKind),
    /// mbarrier unit: the SM's second poll for a parked `test_wait`.
    MbRecheck,
    /// async groups: a bulk issue; a wait.
    Ag(bool, bool),
}

/// Issue model: how the SM's poll timer treats a `test_wait` poll
/// (`crate::sm_timing`): a full warp's, or a partial warp's (fewer than 32
/// active lanes; its `try_wait` is sent as such a poll: the H100 answers
/// it on the poll timer, a completion does not wake it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PollKind {
    partial: bool,
    try_wait: bool,
}

/// Destination register and op of a `bar.red`.
type RedDst = Option<(String, u8)>;

/// Largest bulk copy the model performs (bytes).
const MAX_COPY: u64 = 1 << 20;

/// A runtime error of the program (a unit flagged `err`), located.
fn located(p: &Program, line: usize, col: usize, msg: String) -> String {
    PtxError::new(&p.file, line, col, msg).to_string()
}

/// The machine: program, warps, SMs, memory.
pub struct Machine<'p> {
    prog: &'p Program,
    entries: Vec<Entry>,
    warps: Vec<Warp>,
    sms: Vec<Sm>,
    clusters: Vec<Cluster>,
    mem: Memory,
    now: u64,
    trace: Trace,
    opts: RunOptions,
    /// The named variables' addresses (`crate::symbols`).
    syms: Symbols,
    /// The kernel launch, for a module run with a launch file.
    kernel: Option<Kernel>,
    /// The last id handed out to an acknowledgement group
    /// (`Memory::ack_group`) or a non-bulk copy batch (`Copy::batch`).
    last_group_id: u64,
    /// Wait time per synchronisation site (source line).
    sites: BTreeMap<usize, SiteStat>,
    /// Access shapes (offset in the 8-byte granule, bytes) seen per
    /// (space, granule): `check_shapes`.
    shapes: HashMap<(u64, u64), Vec<(u8, u8)>>,
    /// Per non-bulk `cp.async` batch: copies left to read and to write.
    copy_batches: HashMap<u64, [u32; 2]>,
    /// Warp-level instructions compiled per entry and PC (`crate::alu`).
    alu: Vec<Vec<Option<crate::alu::Alu>>>,
    /// The host threads' memory agent (after the SMs), if any host thread.
    host_sm: Option<usize>,
    /// The mbarrier unit's entries per CTA (its window is 8 bytes each from [`SHARED_BASE`]).
    mb_entries: u32,
    error: Option<String>,
    /// The first lockstep difference of a twin (`--on rtl|verilog`).
    mismatch: Option<Mismatch>,
    last_progress: u64,
}

impl<'p> Machine<'p> {
    /// Build the machine for `prog` (already parsed; lowering errors are returned located).
    pub fn new(prog: &'p Program, opts: RunOptions) -> Result<Machine<'p>, PtxError> {
        Self::build(prog, opts, None)
    }

    /// Build the machine for a kernel launch: `prog`'s header places every
    /// warp of the grid on the launch's entry ([`kernel_program`]).
    pub fn for_kernel(
        prog: &'p Program,
        opts: RunOptions,
        kernel: Kernel,
    ) -> Result<Machine<'p>, PtxError> {
        Self::build(prog, opts, Some(kernel))
    }

    /// The issue model's view of the barriers of every entry (`bar.sync`,
    /// `bar.arrive`, `bar.red`, `barrier.sync`, in code order): each one's
    /// opcode, whether its id or count is a register to the SM
    /// (`Code::reg_count`, `crate::schedule::immediate_bar_operands`) and
    /// whether `ptxas` puts a `WARPSYNC.ALL` in front
    /// (`crate::warpsync`), so that the `ptxas` rules can be checked
    /// against the kernels' SASS (`tests/sass_rules.rs`).
    pub fn barrier_forms(&self) -> Vec<BarrierForm> {
        self.entries
            .iter()
            .flat_map(|e| e.code.iter())
            .filter(|c| {
                ["bar.sync", "bar.arrive", "bar.red", "barrier.sync"]
                    .iter()
                    .any(|p| c.inst.opcode.starts_with(p))
            })
            .map(|c| BarrierForm {
                opcode: c.inst.opcode.clone(),
                register_path: c.reg_count,
                warpsync: c.warpsync,
            })
            .collect()
    }

    fn build(
        prog: &'p Program,
        opts: RunOptions,
        kernel: Option<Kernel>,
    ) -> Result<Machine<'p>, PtxError> {
        let lowered = ptx_front::lower_program(prog)?;
        let mb_entries = exec_config().mbarrier.entries;
        let syms = symbols::layout(prog, mb_entries)?;
        if kernel.is_some() {
            crate::kernel_names::check(prog, &syms)?;
        } else {
            crate::names::check(prog, &syms)?;
        }
        let mut entries = Vec::new();
        let mut alu = Vec::new();
        // Several entries in one CTA: roles a kernel would choose by a
        // branch on the warp index (`crate::warpsync`).
        let roles = kernel.is_none()
            && prog
                .header
                .warps
                .iter()
                .map(|w| (w.cta, &w.program))
                .collect::<HashSet<_>>()
                .len()
                > prog
                    .header
                    .warps
                    .iter()
                    .map(|w| w.cta)
                    .collect::<HashSet<_>>()
                    .len();
        for (e, (name, insts)) in prog.module.entries.iter().zip(lowered) {
            debug_assert_eq!(&e.name, &name);
            let mut labels = HashMap::new();
            let mut regs = HashMap::new();
            let mut n = 0;
            for s in &e.body {
                match s {
                    Stmt::Label { name, .. } => {
                        labels.insert(name.clone(), n);
                    }
                    Stmt::Decl(d) if d.space == ".reg" => {
                        for r in d.names() {
                            let k = regs.len();
                            regs.entry(r.to_string()).or_insert(k);
                        }
                    }
                    Stmt::Decl(_) => {}
                    Stmt::Inst(_) => n += 1,
                }
            }
            let mut code: Vec<Arc<Code>> = insts
                .into_iter()
                .map(|li| {
                    let (class, srcs, dsts, reg_count) =
                        crate::schedule::issue_shape(&li.inst, &li.ops, &regs);
                    let add64 = crate::schedule::is_add64(&li.inst);
                    let halves = crate::schedule::halves(&li.inst);
                    let returns = ptx_front::inline::is_inlined_return(&li.inst);
                    Arc::new(Code {
                        inst: li.inst,
                        ops: li.ops,
                        class,
                        srcs,
                        dsts,
                        reg_count,
                        if_converted: false,
                        folded: false,
                        add64,
                        halves,
                        returns,
                        warpsync: false,
                    })
                })
                .collect();
            if opts.sm_timing.is_some() {
                crate::schedule::unrolled_back_edges(&mut code, &labels);
                crate::schedule::folded_in_unrolled_loops(&mut code, &labels, &regs);
                crate::schedule::if_converted_branches(&mut code, &labels);
                crate::schedule::immediate_bar_operands(&mut code, &labels);
                crate::warpsync::warpsync_barriers(&mut code, &labels, &regs, roles);
                crate::schedule::hoist_loads(&mut code, &mut labels);
            }
            let mut compiled = Vec::new();
            // A `.func` runs inlined into its callers (`ptx_front::inline`).
            for c in &code {
                compiled.push(if !e.func {
                    crate::warp_ops::compile(c.inst.clone(), &c.ops)
                        .map_err(|m| PtxError::new(&prog.file, c.inst.line, c.inst.col, m))?
                } else {
                    None
                });
            }
            alu.push(compiled);
            entries.push(Entry { code, labels, regs });
        }
        let h = &prog.header;
        let ctas = h.ctas as usize;
        // Host threads share one more memory agent after the SMs.
        let host_sm = (!h.hosts.is_empty()).then_some(ctas);
        let (mem_timing, start_skew) = match &opts.sm_timing {
            Some(t) => (t.memory(), t.start_skew),
            None => (opts.timing, opts.start_skew),
        };
        let schedulers = opts.sm_timing.as_ref().map_or(1, |t| t.schedulers as usize);
        let mut mem = Memory::new(ctas + host_sm.is_some() as usize, mem_timing, opts.seed);
        mem.events = opts.trace;
        let mut sms: Vec<Sm> = (0..ctas)
            .map(|k| {
                let twin = (opts.backend.build)(k).map_err(|e| {
                    PtxError::new(&prog.file, 0, 0, format!("--on {}: {e}", opts.backend.name))
                })?;
                Ok(Sm {
                    port: SmSyncModel::new(&exec_config_for(opts.sm_timing.as_ref())),
                    twin,
                    warps: Vec::new(),
                    rr: 0,
                    txns: HashMap::new(),
                    next_id: 0,
                    exits: VecDeque::new(),
                    launched: false,
                    ctx: VecDeque::new(),
                    rarv: Vec::new(),
                    rd: VecDeque::new(),
                    wr: VecDeque::new(),
                    cl_sent: 0,
                    mb_map: HashMap::new(),
                    gone: false,
                    sched: vec![u64::MAX; schedulers],
                    smsp_shared_free: vec![0; schedulers],
                    rel_queue: VecDeque::new(),
                    bar_events: VecDeque::new(),
                    bar_next: HashMap::new(),
                    mb_queue: VecDeque::new(),
                    mb_next: 0,
                    poll_turn: false,
                })
            })
            .collect::<Result<_, PtxError>>()?;
        let mut warps = Vec::new();
        let hosts = h
            .hosts
            .iter()
            .map(|hp| (usize::MAX, hp.thread, hp.program.as_str(), 1));
        let placed = h
            .warps
            .iter()
            .map(|w| (w.cta as usize, w.warp, w.program.as_str(), w.lanes))
            .chain(hosts);
        for (cta, warp, program, nlanes) in placed {
            let entry = prog
                .module
                .entries
                .iter()
                .position(|e| e.name == program)
                .expect("header checked: program names an entry");
            let start = mem.rand_range(0, start_skew);
            let idx = warps.len();
            let host = cta == usize::MAX;
            if !host {
                sms[cta].warps.push(idx);
            }
            // A program file's warp holds `lanes` threads (default 1); a
            // kernel's warp the CTA's threads 32·w .. 32·w + 31 that exist.
            let n = nlanes.clamp(1, LANES as u32);
            let lanes = if n == 32 { u32::MAX } else { (1u32 << n) - 1 };
            let nregs = entries[entry].regs.len();
            warps.push(Warp {
                cta: if host { ctas } else { cta },
                slot: warp as u8,
                hw_warp: warp,
                host,
                entry,
                program: program.to_string(),
                pc: 0,
                opi: 0,
                lane_pc: [0; LANES],
                lanes,
                exited: 0,
                active: lanes,
                exec: lanes,
                regs: vec![0; nregs * LANES],
                written: vec![false; nregs],
                pending: HashMap::new(),
                inflight: 0,
                wait: Wait::Start(start),
                stalls: BTreeMap::new(),
                issued: 0,
                exited_at: None,
                cluster_arrivals: 0,
                group_kind: None,
                blocked: None,
                at: (0, None),
                at_col: 1,
                marked: false,
                ready_at: 0,
                fence_level: None,
                reg_ready: vec![0; nregs],
                reg_lo_ready: vec![0; nregs],
                bar_deferred: None,
                pred_off: None,
                bar_reg_count: false,
                mb_fifo: VecDeque::new(),
                mb_suspended: false,
                mb_suspended_at: 0,
                mb_hold: false,
                mb_spinning: false,
                mb_parked: None,
                mb_last_x: None,
                mb_poll: PollKind::default(),
            });
        }
        if let Some(k) = &kernel {
            for b in &k.launch.buffers {
                for (i, v) in b.data.iter().enumerate() {
                    mem.init_global(b.base + i as u64 * b.elem, *v);
                }
            }
        }
        for d in &prog.module.decls {
            if d.init.is_empty() {
                continue;
            }
            if let Some(a) = d.vars.first().and_then(|(n, _)| syms.addr(n)) {
                for (i, v) in d.init.iter().enumerate() {
                    mem.init_global(a + i as u64 * d.elem_bytes(), *v as u64);
                }
            }
        }
        for sm in sms.iter_mut() {
            sm.gone = sm.warps.is_empty();
        }
        let mut clusters = Vec::new();
        if let Some(c) = h.cluster {
            let ranks = c.next_power_of_two();
            for k in 0..ctas / c as usize {
                clusters.push(Cluster {
                    model: ClusterBarrierModel::new(ClusterConfig { ranks }),
                    first_cta: k * c as usize,
                    size: c as usize,
                    done: 0,
                    arv: Vec::new(),
                });
            }
        }
        let mut trace = Trace::new(opts.trace);
        for w in &warps {
            trace.add_warp(if w.host {
                format!("host{}", w.hw_warp)
            } else {
                format!("cta{}.w{}", w.cta, w.hw_warp)
            });
        }
        Ok(Machine {
            prog,
            entries,
            warps,
            sms,
            clusters,
            mem,
            now: 0,
            trace,
            opts,
            syms,
            kernel,
            last_group_id: 0,
            sites: BTreeMap::new(),
            shapes: HashMap::new(),
            copy_batches: HashMap::new(),
            alu,
            host_sm,
            mb_entries,
            error: None,
            mismatch: None,
            last_progress: 0,
        })
    }

    /// The lane whose value a warp-level operand takes: the lowest lane
    /// executing the instruction (the operand is uniform in correct code).
    fn leader(&self, w: usize) -> usize {
        let wp = &self.warps[w];
        let m = if wp.exec != 0 { wp.exec } else { wp.active };
        if m == 0 {
            0
        } else {
            m.trailing_zeros() as usize
        }
    }

    fn reg_lane(&self, w: usize, lane: usize, name: &str) -> u64 {
        let wp = &self.warps[w];
        match self.entries[wp.entry].regs.get(name) {
            Some(&r) => wp.regs[r * LANES + lane],
            None => 0,
        }
    }

    /// Value of an operand for the warp's leading lane: register, immediate,
    /// or a symbol's address.
    fn value(&self, w: usize, o: &Operand) -> u64 {
        self.value_lane(w, self.leader(w), o)
    }

    /// Value of an operand in lane `lane`.
    fn value_lane(&self, w: usize, lane: usize, o: &Operand) -> u64 {
        match o {
            Operand::Imm(i) => *i as u64,
            Operand::Float { bits, .. } => *bits,
            Operand::Reg(r) => self.sym_or_reg(w, lane, r),
            Operand::NotPred(p) => (self.reg_lane(w, lane, p) & 1 == 0) as u64,
            Operand::Addr { base, offset } => {
                self.sym_or_reg(w, lane, base).wrapping_add(*offset as u64)
            }
            Operand::Sink | Operand::Vector(_) | Operand::Pair(..) => 0,
        }
    }

    /// A name's value in lane `lane`: the entry's register, else a
    /// variable's address, else a special register, else a number.
    fn sym_or_reg(&self, w: usize, lane: usize, r: &str) -> u64 {
        let wp = &self.warps[w];
        if let Some(&k) = self.entries[wp.entry].regs.get(r) {
            return wp.regs[k * LANES + lane];
        }
        if let Some(a) = self.syms.addr(r) {
            return a;
        }
        if let Some(k) = &self.kernel {
            if let Some(v) = crate::kernel_names::special_value(r, &self.lane_env(w, lane, k)) {
                return v;
            }
        } else {
            match r {
                "%clock64" => return self.now,
                "%clock" => return self.now & 0xffff_ffff,
                _ => {}
            }
            let h = &self.prog.header;
            let cluster = h.cluster.unwrap_or(1);
            let place = (wp.hw_warp, lane as u32, wp.cta as u32);
            if let Some(v) = crate::names::special_value(r, place, h.ctas, cluster) {
                return v;
            }
        }
        if let Ok(v) = r.parse::<i64>() {
            return v as u64;
        }
        // The name checks refused every other name before the run.
        0
    }

    /// What the special registers of lane `lane` of warp `w` read.
    fn lane_env(&self, w: usize, lane: usize, k: &Kernel) -> crate::kernel_names::LaneEnv {
        let wp = &self.warps[w];
        crate::kernel_names::LaneEnv {
            tid: wp.hw_warp * LANES as u32 + lane as u32,
            block: k.launch.launch.block,
            cta: wp.cta as u32,
            grid: k.launch.launch.grid,
            cluster: k.launch.launch.cluster.unwrap_or([1, 1, 1]),
            warp: wp.hw_warp,
            warps: k.launch.threads().div_ceil(LANES as u32),
            now: self.now,
            smem: k.smem_bytes,
            dynamic_smem: k.launch.launch.dynamic_smem,
            grid_workspace: k.launch.grid_workspace,
        }
    }

    fn arg_value(&self, w: usize, a: &Arg) -> Option<u64> {
        match a {
            Arg::Imm(i) => Some(*i as u64),
            Arg::Reg(r) => Some(self.sym_or_reg(w, self.leader(w), r)),
            Arg::Addr(_) | Arg::Space(_) | Arg::All | Arg::Absent => None,
        }
    }

    /// Is the address operand a shared-memory address?
    fn is_shared(&self, w: usize, space: &Arg, addr: &Operand) -> bool {
        match space {
            Arg::Space(s) if s.starts_with("shared") => true,
            // A generic address names shared memory when its base is a
            // `.shared` variable; through a register it is global.
            Arg::Space(s) if s == "generic" => match addr {
                Operand::Addr { base, .. } => {
                    !self.entries[self.warps[w].entry].regs.contains_key(base)
                        && self
                            .syms
                            .get(base)
                            .is_some_and(|sym| sym.space == Space::Shared)
                }
                _ => false,
            },
            _ => false,
        }
    }

    fn code(&self, w: usize) -> Option<&Arc<Code>> {
        let wp = &self.warps[w];
        self.entries[wp.entry].code.get(wp.pc)
    }

    fn name(&self, w: usize) -> String {
        let wp = &self.warps[w];
        if wp.host {
            format!("host{}", wp.hw_warp)
        } else {
            format!("cta{}.w{}", wp.cta, wp.hw_warp)
        }
    }

    /// Registers an instruction reads or writes (for the load scoreboard).
    fn touches_pending(&self, w: usize, c: &Code) -> bool {
        let p = &self.warps[w].pending;
        if p.is_empty() {
            return false;
        }
        let hit = |r: &str| p.contains_key(r);
        if let Some(g) = &c.inst.guard {
            if hit(&g.reg) {
                return true;
            }
        }
        c.inst.operands.iter().any(|o| match o {
            Operand::Reg(r) | Operand::NotPred(r) => hit(r),
            Operand::Addr { base, .. } => hit(base),
            // A vector's elements (`st.v4 [a], {%r1, %r2, %r3, %r4}`, or a
            // vector load's destinations still being written), a `d|p` pair.
            Operand::Vector(v) => v.iter().any(|r| hit(r)),
            Operand::Pair(a, b) => hit(a) || hit(b),
            _ => false,
        })
    }

    /// The lanes of the group whose guard is true.
    fn guard_mask(&self, w: usize, c: &Code) -> u32 {
        let wp = &self.warps[w];
        match &c.inst.guard {
            None => wp.active,
            Some(g) => {
                let Some(&r) = self.entries[wp.entry].regs.get(&g.reg) else {
                    return if g.negated { wp.active } else { 0 };
                };
                let mut m = 0;
                let mut a = wp.active;
                while a != 0 {
                    let l = a.trailing_zeros() as usize;
                    a &= a - 1;
                    if (wp.regs[r * LANES + l] & 1 != 0) != g.negated {
                        m |= 1 << l;
                    }
                }
                m
            }
        }
    }

    /// Write register `r` of every lane in `mask`.
    fn set_reg_mask(&mut self, w: usize, mask: u32, r: &str, v: u64) {
        let wp = &mut self.warps[w];
        if let Some(&k) = self.entries[wp.entry].regs.get(r) {
            wp.written[k] |= mask & 1 != 0;
            let mut m = mask;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                wp.regs[k * LANES + l] = v;
            }
        }
    }

    fn set_reg_lane(&mut self, w: usize, lane: usize, r: &str, v: u64) {
        let wp = &mut self.warps[w];
        if let Some(&k) = self.entries[wp.entry].regs.get(r) {
            wp.written[k] |= lane == 0;
            wp.regs[k * LANES + lane] = v;
        }
    }

    /// Write register `r` of the lanes executing the instruction.
    fn set_reg(&mut self, w: usize, r: &str, v: u64) {
        let m = self.warps[w].exec;
        self.set_reg_mask(w, m, r, v);
    }

    /// The group moves on: lanes `to_next` to the next instruction, the
    /// lanes `taken` to `target`; then the next group is chosen (the
    /// smallest PC among the live lanes).
    fn step_lanes(&mut self, w: usize, taken: u32, target: usize) {
        let wp = &mut self.warps[w];
        let next = wp.pc + 1;
        let mut a = wp.active;
        while a != 0 {
            let l = a.trailing_zeros() as usize;
            a &= a - 1;
            wp.lane_pc[l] = if taken & (1 << l) != 0 { target } else { next };
        }
        wp.opi = 0;
        wp.marked = false;
        let before = wp.active;
        Self::regroup(wp);
        // Issue model: lane groups that split at a branch rejoin here
        // (`BSYNC`); the warp pays the reconvergence.
        if let Some(t) = &self.opts.sm_timing {
            let wp = &mut self.warps[w];
            if wp.active & !before != 0 && wp.active & before != 0 {
                wp.ready_at = wp.ready_at.max(self.now + t.reconverge);
            }
        }
    }

    /// Choose the group: the live lanes at the smallest PC.
    fn regroup(wp: &mut Warp) {
        let live = wp.lanes & !wp.exited;
        let mut pc = usize::MAX;
        let mut m = live;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            pc = pc.min(wp.lane_pc[l]);
        }
        let mut active = 0;
        let mut m = live;
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            if wp.lane_pc[l] == pc {
                active |= 1 << l;
            }
        }
        wp.pc = if live == 0 { wp.pc } else { pc };
        wp.active = active;
        wp.exec = active;
    }

    fn fail(&mut self, w: usize, msg: String) {
        self.fail_at(w, None, msg);
    }

    /// [`Self::fail`] located at instruction `at` (line, column), or, with
    /// `None`, at the instruction the warp issued last (a unit answers a
    /// cycle later).
    fn fail_at(&mut self, w: usize, at: Option<(usize, usize)>, msg: String) {
        if self.error.is_none() {
            let wp = &self.warps[w];
            let (line, col) = if let Some(a) = at {
                a
            } else if wp.at.0 != 0 {
                (wp.at.0, wp.at_col)
            } else {
                self.code(w)
                    .map(|c| (c.inst.line, c.inst.col))
                    .unwrap_or((1, 1))
            };
            let m = format!("{} (warp {}, cycle {})", msg, self.name(w), self.now);
            self.error = Some(located(self.prog, line, col, m));
        }
    }

    /// The warp of CTA `c` that sits in warp slot `slot` of its SM (the
    /// units' warp number), if any.
    fn warp_in_slot(&self, c: usize, slot: u8) -> Option<usize> {
        self.sms[c]
            .warps
            .iter()
            .copied()
            .find(|&w| self.warps[w].slot == slot)
    }

    /// The event the bar unit of CTA `c` took in cycle `at`, if any.
    fn bar_event(&self, c: usize, at: u64) -> Option<BarEvent> {
        self.sms[c]
            .bar_events
            .iter()
            .find(|e| e.0 == at)
            .map(|e| e.1)
    }

    /// Records an event the bar unit of CTA `c` takes this cycle.
    fn push_bar_event(&mut self, c: usize, e: BarEvent) {
        let q = &mut self.sms[c].bar_events;
        q.push_back((self.now, e));
        while q.len() > 2 {
            q.pop_front();
        }
    }

    /// Finish the current op: next op, or next instruction.
    fn advance(&mut self, w: usize) {
        let n = self.code(w).map(|c| c.ops.len()).unwrap_or(0);
        let wp = &mut self.warps[w];
        wp.opi += 1;
        wp.issued += 1;
        self.last_progress = self.now;
        if wp.opi >= n {
            self.step_lanes(w, 0, 0);
        }
    }

    /// Run to the end.
    pub fn run(self) -> RunResult {
        self.run_with_progress(&mut |_| {})
    }

    /// [`Machine::run`], calling `progress(cycle)` every 2^16 cycles (long
    /// runs report how far they are).
    pub fn run_with_progress(mut self, progress: &mut dyn FnMut(u64)) -> RunResult {
        let outcome = loop {
            if self.now & 0xffff == 0 && self.now > 0 {
                progress(self.now);
            }
            if let Some(m) = self.mismatch.take() {
                break Outcome::Mismatch(m);
            }
            if let Some(e) = self.error.take() {
                break Outcome::UnitError(e);
            }
            if self.warps.iter().all(|w| w.wait == Wait::Exited) && self.mem.idle() {
                break Outcome::Finished;
            }
            if self.now >= self.opts.max_cycles {
                break Outcome::CycleCap(self.waiting());
            }
            if self.deadlocked() {
                break Outcome::Deadlock(self.waiting());
            }
            self.cycle();
            self.now += 1;
        };
        let warps = self
            .warps
            .iter()
            .map(|w| {
                // Lane 0's registers it wrote (a program file's warp is one thread).
                let regs = self.entries[w.entry]
                    .regs
                    .iter()
                    .filter(|(_, &r)| w.written[r])
                    .map(|(k, &r)| (k.clone(), w.regs[r * LANES]))
                    .collect();
                let lane_regs = if self.kernel.is_none() && w.lanes.count_ones() > 1 {
                    (0..w.lanes.count_ones() as usize)
                        .map(|l| {
                            self.entries[w.entry]
                                .regs
                                .iter()
                                .map(|(k, &r)| (k.clone(), w.regs[r * LANES + l]))
                                .collect()
                        })
                        .collect()
                } else {
                    Vec::new()
                };
                WarpResult {
                    cta: w.cta as u32,
                    warp: w.hw_warp,
                    host: w.host,
                    program: w.program.clone(),
                    regs,
                    lane_regs,
                    stalls: w.stalls.clone(),
                    issued: w.issued,
                    exited_at: w.exited_at,
                }
            })
            .collect();
        let buffers = self
            .kernel
            .as_ref()
            .map(|k| {
                k.launch
                    .buffers
                    .iter()
                    .map(|b| {
                        let mask = if b.elem >= 8 {
                            u64::MAX
                        } else {
                            (1u64 << (8 * b.elem)) - 1
                        };
                        let v = (0..b.data.len() as u64)
                            .map(|i| self.mem.l2_value(b.base + i * b.elem) & mask)
                            .collect();
                        (b.name.clone(), v)
                    })
                    .collect()
            })
            .unwrap_or_default();
        RunResult {
            outcome,
            cycles: self.now,
            warps,
            trace: self.trace,
            buffers,
            sites: self.sites.into_values().collect(),
        }
    }

    /// Every live warp blocked, memory idle and nothing moved for a while.
    fn deadlocked(&self) -> bool {
        let live: Vec<&Warp> = self
            .warps
            .iter()
            .filter(|w| w.wait != Wait::Exited)
            .collect();
        !live.is_empty()
            && self.mem.idle()
            && self.now > self.last_progress + 2_000
            && live.iter().all(|w| {
                !matches!(
                    w.wait,
                    Wait::None | Wait::Start(_) | Wait::MbWake(_) | Wait::AfterFence(_)
                )
            })
    }

    fn waiting(&self) -> Vec<(String, String)> {
        (0..self.warps.len())
            .filter(|&w| self.warps[w].wait != Wait::Exited)
            .map(|w| {
                let wp = &self.warps[w];
                let at = if wp.wait == Wait::None || wp.at.0 == 0 {
                    self.code(w)
                        .map(|c| format!("line {}: {}", c.inst.line, c.inst.text()))
                        .unwrap_or_else(|| "end of program".into())
                } else {
                    format!(
                        "line {}: {}",
                        wp.at.0,
                        wp.at.1.as_ref().map(|c| c.inst.text()).unwrap_or_default()
                    )
                };
                let what = match &self.warps[w].wait {
                    Wait::None => "running".to_string(),
                    Wait::Start(_) => "not started".into(),
                    Wait::Membar => "membar unit release (MEMBAR)".into(),
                    Wait::AfterFence(t) => {
                        format!("the fence sequence after its release (until cycle {t})")
                    }
                    Wait::Bar(_) => "named barrier release (bar_unit)".into(),
                    Wait::MbRsp(_) => "mbarrier response".into(),
                    Wait::MbWake(_) => "mbarrier try_wait wake".into(),
                    Wait::Group => "async group (wait_group)".into(),
                    Wait::Cluster(n) => format!("cluster barrier phase {n}"),
                    Wait::Exited => "exited".into(),
                };
                (self.name(w), format!("waits on {what} at {at}"))
            })
            .collect()
    }

    fn cause_of(wait: &Wait) -> Option<Cause> {
        match wait {
            Wait::Membar | Wait::AfterFence(_) => Some(Cause::Membar),
            Wait::Bar(_) => Some(Cause::Bar),
            Wait::MbRsp(_) | Wait::MbWake(_) => Some(Cause::Mbarrier),
            Wait::Group => Some(Cause::WaitGroup),
            Wait::Cluster(_) => Some(Cause::Cluster),
            _ => None,
        }
    }

    fn block(&mut self, w: usize, wait: Wait) {
        if let Some(c) = Self::cause_of(&wait) {
            self.trace.block(self.now, w, c);
            let wp = &mut self.warps[w];
            wp.blocked = Some((self.now, wp.at.0, c));
        }
        self.warps[w].wait = wait;
    }

    fn release(&mut self, w: usize) {
        self.trace.release(self.now, w);
        self.warps[w].wait = Wait::None;
        self.last_progress = self.now;
        if let Some((since, line, cause)) = self.warps[w].blocked.take() {
            let at = self.warps[w].at.1.clone();
            let s = self.sites.entry(line).or_insert_with(|| SiteStat {
                line,
                text: at.map(|c| c.inst.text()).unwrap_or_default(),
                cause: cause.name(),
                ..SiteStat::default()
            });
            let d = self.now - since;
            s.waits += 1;
            s.total += d;
            s.max = s.max.max(d);
        }
    }

    fn apply_done(&mut self, d: Vec<Done>) {
        for x in d {
            match x {
                Done::Reg {
                    warp,
                    lane,
                    reg,
                    val,
                } => {
                    let wp = &mut self.warps[warp];
                    if let Some(n) = wp.pending.get_mut(&reg) {
                        *n -= 1;
                        if *n == 0 {
                            wp.pending.remove(&reg);
                        }
                    }
                    self.set_reg_lane(warp, lane as usize, &reg, val);
                    self.last_progress = self.now;
                }
                Done::Event { warp, what } => self.trace.event(self.now, warp, what),
                Done::Complete { warp } => {
                    let wp = &mut self.warps[warp];
                    wp.inflight = wp.inflight.saturating_sub(1);
                }
                Done::CopyRead { warp, group, batch } => {
                    if group && self.batch_done(batch, 0) {
                        let (c, s) = (self.warps[warp].cta, self.warps[warp].slot);
                        self.sms[c].rd.push_back(s);
                    }
                }
                Done::CopyWritten {
                    warp,
                    group,
                    cta,
                    entry,
                    bytes,
                    batch,
                } => {
                    if group && self.batch_done(batch, 1) {
                        let s = self.warps[warp].slot;
                        self.sms[cta].wr.push_back(s);
                    }
                    if let Some(e) = entry {
                        self.sms[cta].ctx.push_back((e, bytes));
                    }
                }
            }
        }
    }

    /// The mbarrier unit entry that instruction `code`'s mbarrier operand
    /// names: entry = (addr - base) >> 3 (`spec/mbarrier_unit.md`), for an
    /// 8-byte aligned address inside a declared mbarrier object (all of them
    /// lie in the unit's window, `crate::symbols`); any other address is an
    /// error naming it and the variable it falls in.
    fn mb_entry(&mut self, w: usize, code: &Code) -> Result<(usize, u8), String> {
        let ops = &code.inst.operands;
        let Some(k) = symbols::mbarrier_operand(&code.inst.form, ops) else {
            return Err(format!("`{}` has no mbarrier operand", code.inst.text()));
        };
        let addr = self.value(w, &ops[k]);
        if let Some(kn) = &self.kernel {
            let end = self.syms.shared_end() + kn.launch.launch.dynamic_smem;
            // A `.shared::cluster` operand may name another CTA's mbarrier.
            let (cta, off) = self.resolve_cluster(w, addr)?;
            let own = self.warps[w].cta;
            let remote_form = code.inst.form.contains("shared::cluster")
                && code.inst.form.starts_with("mbarrier.");
            if cta != own && !remote_form {
                return Err(format!(
                    "`{}`: mbarrier address {addr:#x} is in CTA {cta}'s shared memory; only a `.shared::cluster` arrive may reach another CTA's mbarrier",
                    code.inst.text()
                ));
            }
            return self
                .mb_entry_by_address(cta, code, off, end)
                .map(|e| (cta, e));
        }
        let c = self.warps[w].cta;
        self.mb_entry_window(code, addr).map(|e| (c, e))
    }

    /// A `.shared::cluster` address → (CTA, offset in its shared memory):
    /// bits 24.. = rank + 1 of a CTA of the executing CTA's cluster (0: the
    /// executing CTA itself, the `.shared::cta` window).
    fn resolve_cluster(&self, w: usize, addr: u64) -> Result<(usize, u64), String> {
        let own = self.warps[w].cta;
        let field = addr >> crate::alu::CLUSTER_RANK_SHIFT;
        let off = addr & ((1 << crate::alu::CLUSTER_RANK_SHIFT) - 1);
        if field == 0 {
            return Ok((own, off));
        }
        let size = self.prog.header.cluster.unwrap_or(1) as u64;
        let rank = field - 1;
        if rank >= size {
            return Err(format!(
                "shared::cluster address {addr:#x} names rank {rank}, but the cluster has {size} CTA(s) (a cluster launch gives `cluster:` in the launch file)"
            ));
        }
        Ok(((own as u64 / size * size + rank) as usize, off))
    }

    /// Where a kernel's access goes: (shared?, address or offset, the CTA
    /// whose shared memory it names when not the executing one).
    fn locate(
        &self,
        w: usize,
        space: &Arg,
        addr: u64,
    ) -> Result<(bool, u64, Option<usize>), String> {
        let own = self.warps[w].cta;
        let shared_at = |a: u64| -> Result<(bool, u64, Option<usize>), String> {
            let (cta, off) = self.resolve_cluster(w, a)?;
            Ok((true, off, (cta != own).then_some(cta)))
        };
        match space {
            Arg::Space(s) if s.starts_with("shared") => shared_at(addr),
            Arg::Space(s) if s == "generic" => {
                let base = crate::alu::GENERIC_SHARED;
                if (base..base + (1 << 32)).contains(&addr) {
                    shared_at(addr - base)
                } else {
                    Ok((false, addr, None))
                }
            }
            Arg::Space(s) if s == "global" => Ok((false, addr, None)),
            other => Err(format!(
                "state space {other} is not modelled for a kernel's memory access"
            )),
        }
    }

    fn mb_entry_window(&self, code: &Code, addr: u64) -> Result<u8, String> {
        let ops = &code.inst.operands;
        let k = symbols::mbarrier_operand(&code.inst.form, ops).unwrap_or(0);
        let end = SHARED_BASE + MBARRIER_BYTES * self.mb_entries as u64;
        let at = self.syms.shared_at(addr);
        let why = match at {
            Some((s, off)) if s.mbarrier && off % MBARRIER_BYTES == 0 => {
                return Ok(((addr - SHARED_BASE) / MBARRIER_BYTES) as u8);
            }
            Some((s, off)) if s.mbarrier => {
                format!(" (variable `{}` + {off}): not 8-byte aligned", s.name)
            }
            Some((s, off)) => format!(
                " (variable `{}`{}): not an mbarrier object (a variable is one when an mbarrier instruction names it directly, e.g. `[{}]`; then it is placed in the window)",
                s.name,
                if off == 0 { String::new() } else { format!(" + {off}") },
                s.name
            ),
            None => ": no declared `.shared` variable".to_string(),
        };
        Err(format!(
            "mbarrier address {} = shared {addr:#x}{why}; expected the address of a declared mbarrier object in the CTA's mbarrier window [{SHARED_BASE:#x}, {end:#x}) ({} entries of 8 bytes, entry = (addr - base) >> 3)",
            ops[k].text(),
            self.mb_entries
        ))
    }

    /// One copy of a batch (`Copy::batch`) read (`k` = 0) or wrote (`k` =
    /// 1): whether it was the last, so the tracker hears of the batch once.
    fn batch_done(&mut self, batch: Option<u64>, k: usize) -> bool {
        let Some(b) = batch else {
            return true;
        };
        let Some(left) = self.copy_batches.get_mut(&b) else {
            return true;
        };
        left[k] -= 1;
        let last = left[k] == 0;
        if left[0] == 0 && left[1] == 0 {
            self.copy_batches.remove(&b);
        }
        last
    }

    /// A kernel's mbarrier: an 8-byte object anywhere in the CTA's shared
    /// memory, named by its address (through a register, as nvcc writes
    /// it). Until the mbarrier unit keeps its objects by byte address
    /// (issue #24), the executor gives each initialised address one of the
    /// unit's entries, per CTA: `mbarrier.init` takes a free entry (or the
    /// address's own, re-initialised), `mbarrier.inval` frees it; any other
    /// operation on an address never initialised, or more live mbarriers
    /// than the unit has entries, is an error naming the address.
    fn mb_entry_by_address(
        &mut self,
        c: usize,
        code: &Code,
        addr: u64,
        end: u64,
    ) -> Result<u8, String> {
        let text = || code.inst.text();
        if !addr.is_multiple_of(MBARRIER_BYTES) || addr + MBARRIER_BYTES > end {
            let text = text();
            return Err(format!(
                "`{text}`: mbarrier address shared {addr:#x} is not an 8-byte aligned object inside the CTA's shared memory [{SHARED_BASE:#x}, {end:#x})"
            ));
        }
        let init = code.inst.form.starts_with("mbarrier.init");
        let inval = code.inst.form.starts_with("mbarrier.inval");
        let map = &mut self.sms[c].mb_map;
        if let Some(&e) = map.get(&addr) {
            if inval {
                map.remove(&addr);
            }
            return Ok(e);
        }
        if !init {
            let text = text();
            return Err(format!(
                "`{text}`: no mbarrier was initialised at shared {addr:#x} (mbarrier.init must come first)"
            ));
        }
        let used: std::collections::HashSet<u8> = map.values().copied().collect();
        match (0..self.mb_entries as u8).find(|e| !used.contains(e)) {
            Some(e) => {
                map.insert(addr, e);
                Ok(e)
            }
            None => Err(format!(
                "`{}`: a CTA with more than {} live mbarriers (the mbarrier unit's entries); live at {:?}",
                text(),
                self.mb_entries,
                map.keys().map(|a| format!("{a:#x}")).collect::<Vec<_>>()
            )),
        }
    }

    /// One clock cycle of the whole machine.
    fn cycle(&mut self) {
        let now = self.now;
        let done = self.mem.tick(now);
        self.apply_done(done);
        for c in 0..self.sms.len() {
            // A CTA with no warp placed has nothing to run (and counts as exited).
            if !self.sms[c].warps.is_empty() {
                self.cycle_sm(c);
            }
        }
        self.cycle_clusters();
        self.cycle_hosts();
        // Stall accounting.
        for w in 0..self.warps.len() {
            let wp = &self.warps[w];
            let cause = match &wp.wait {
                Wait::Exited | Wait::Start(_) => None,
                Wait::None => None,
                other => Self::cause_of(other),
            };
            if let Some(c) = cause {
                *self.warps[w].stalls.entry(c.name()).or_insert(0) += 1;
            }
        }
        self.trace.cycle(now);
    }

    /// The warp's group at its instruction: `None` when it does not issue
    /// an op this cycle — its threads fell off the end (they exit), a
    /// register it names waits on a load (scoreboard), or its guard is false
    /// in every lane (the group moves on). A new instruction is recorded as
    /// where the warp is (and traced).
    fn begin_instruction(&mut self, w: usize) -> Option<Arc<Code>> {
        let now = self.now;
        let Some(code) = self.code(w).cloned() else {
            let m = self.warps[w].active;
            self.exit_lanes(w, m);
            return None;
        };
        if self.warps[w].opi == 0 && !self.warps[w].marked && !self.issue_gate(w, &code) {
            return None;
        }
        if self.warps[w].opi == 0 {
            if self.touches_pending(w, &code) {
                *self.warps[w].stalls.entry("scoreboard").or_insert(0) += 1;
                return None;
            }
            let mut exec = self.guard_mask(w, &code);
            // Issue model: inside a block `ptxas` predicated, the lanes that
            // branched around it issue each instruction with their guard false.
            if let Some((t, lanes)) = self.warps[w].pred_off {
                if self.warps[w].pc < t {
                    exec &= !lanes;
                } else {
                    self.warps[w].pred_off = None;
                }
            }
            self.warps[w].exec = exec;
            if exec == 0 {
                // A load whose guard is false still holds its destination
                // while it passes the load pipe (`kernels/micro/h100_predicated.cu`:
                // 16 guarded-off `ld.shared` + dependent adds cost 97 cycles,
                // guarded-on 98; guarded-off `ld.global` 113, on 354).
                if let Some(t) = &self.opts.sm_timing {
                    if code.inst.opcode.starts_with("ld.") {
                        let at = now + t.shared_latency;
                        for &d in &code.dsts {
                            let wp = &mut self.warps[w];
                            wp.reg_ready[d] = wp.reg_ready[d].max(at);
                            wp.reg_lo_ready[d] = wp.reg_lo_ready[d].max(at);
                        }
                    }
                }
                self.warps[w].issued += 1;
                self.last_progress = now;
                self.step_lanes(w, 0, 0);
                return None;
            }
            if self.opts.trace {
                self.trace.issue(now, w, code.inst.line, &code.inst.text());
            }
            self.warps[w].at = (code.inst.line, Some(code.clone()));
            self.warps[w].at_col = code.inst.col;
        }
        Some(code)
    }

    /// The issue model (`RunOptions::sm_timing`) at a warp's next
    /// instruction: `false` while the warp may not issue it this cycle (its
    /// issue interval, a register not ready, its scheduler taken, or a
    /// deferred `bar.sync` it depends on: the warp blocks there). When it
    /// passes, the issue is recorded: scheduler, next issue cycle, and the
    /// ready cycle of the registers it writes.
    fn issue_gate(&mut self, w: usize, code: &Code) -> bool {
        let Some(t) = self.opts.sm_timing.as_ref() else {
            return true;
        };
        let now = self.now;
        let wp = &self.warps[w];
        if wp.host {
            return true;
        }
        if code.folded {
            // A constant of the unrolled body: no SASS instruction.
            let wp = &mut self.warps[w];
            wp.marked = true;
            for &d in &code.dsts {
                wp.reg_ready[d] = now;
                wp.reg_lo_ready[d] = now;
            }
            return true;
        }
        if now < wp.ready_at {
            return false;
        }
        if let Some(d) = &wp.bar_deferred {
            let red_dst = d
                .as_ref()
                .and_then(|(r, _)| self.entries[wp.entry].regs.get(r).copied());
            if !code.class.runs_past_barrier() || red_dst.is_some_and(|r| code.srcs.contains(&r)) {
                let wp = &mut self.warps[w];
                let d = wp.bar_deferred.take().expect("checked");
                wp.wait = Wait::Bar(d);
                return false;
            }
        }
        // A clock read waits for the warp's loads in flight (the
        // instrumentation's `asm volatile` with a memory clobber: sync §1.3,
        // an unused `ld.shared` before the clock read costs its latency).
        let ready = |r: usize| {
            if code.halves == Halves::Whole {
                wp.reg_ready[r]
            } else {
                wp.reg_lo_ready[r]
            }
        };
        if code.srcs.iter().any(|&r| ready(r) > now)
            || (code.class == IssueClass::Clock && !wp.pending.is_empty())
        {
            *self.warps[w].stalls.entry("dependency").or_insert(0) += 1;
            return false;
        }
        let s = wp.slot as usize % t.schedulers as usize;
        let c = wp.cta;
        if self.sms[c].sched[s] == now {
            *self.warps[w].stalls.entry("issue").or_insert(0) += 1;
            return false;
        }
        self.sms[c].sched[s] = now;
        let (issue, latency) = match code.class {
            IssueClass::Branch if code.returns => (t.issue_return, 0),
            IssueClass::Branch => (t.issue_branch, 0),
            IssueClass::Alu => (t.issue_alu, t.alu_latency),
            IssueClass::Clock => (t.issue_alu, t.clock_latency),
            IssueClass::WarpOp if code.inst.opcode.starts_with("redux") => {
                (t.issue_alu, t.redux_latency)
            }
            IssueClass::WarpOp => (t.issue_alu, t.warp_op_latency),
            IssueClass::Mem => (t.issue_mem, 0),
            IssueClass::Bar => (t.issue_bar + code.warpsync as u64 * t.warpsync, 0),
            IssueClass::BarArrive => (t.issue_bar_arrive + code.warpsync as u64 * t.warpsync, 0),
            IssueClass::BulkCopy => (t.issue_bulk_copy, 0),
            IssueClass::Ldgsts => (t.issue_ldgsts, 0),
            IssueClass::ProxyFence => (t.issue_proxy_fence, 0),
        };
        let wp = &mut self.warps[w];
        wp.marked = true;
        wp.ready_at = now + issue;
        // A 64-bit add: the low half after `alu_latency`, the high half (its
        // carry in) after `add64_latency`. An instruction that reads its
        // sources half by half may start on the low halves; its own high
        // half waits for theirs.
        let (lo, mut full) = if code.add64 {
            (now + latency, now + t.add64_latency)
        } else {
            (now + latency, now + latency)
        };
        if code.halves == Halves::Paired && code.class == IssueClass::Alu {
            for &r in &code.srcs {
                full = full.max(wp.reg_ready[r] + latency);
            }
        }
        for &d in &code.dsts {
            wp.reg_ready[d] = full;
            wp.reg_lo_ready[d] = lo;
        }
        if matches!(code.class, IssueClass::Bar | IssueClass::BarArrive) {
            wp.bar_reg_count = code.reg_count;
        }
        true
    }

    /// When a bulk store (shared → global) issued at `now` reaches the
    /// copy engine: under a timing preset, at the end of its issue
    /// (`issue_bulk_copy`). A lone 4 KB bulk store issues in 18 cycles and
    /// completes 185 after its issue begins (`kernels/micro/h100_bulk_store.cu`);
    /// k4's store site takes 103–108, and its final `wait_group 0` still
    /// waits 69.5 cycles after the clock read that follows the site and the
    /// record block: the site's cycles come before the `UBLKCP`. (A bulk
    /// load starts at its issue: 4 KB from L2 complete ≈ 440 cycles after
    /// it, sync calibration README §2.)
    fn copy_start(&self, now: u64) -> u64 {
        now + self
            .opts
            .sm_timing
            .as_ref()
            .map_or(0, |t| t.issue_bulk_copy)
    }

    /// Issue model: the shared-memory banks. One warp instruction's shared
    /// accesses `ts` (SM `c`'s own shared memory) take as many wavefronts as
    /// the most distinct 4-byte words any of the 32 banks holds among them
    /// (the same word in several lanes is one: a broadcast). Each wavefront
    /// beyond the first adds `shared_wavefront_eighths` / 8 cycles to the
    /// access, and the scheduler's path to the shared memory passes a
    /// wavefront per that many eighths; the SM's shared memory passes one
    /// per `sm_shared_wavefront` cycles, shared in turn by the schedulers
    /// with wavefronts queued (none of them served first). Returns the
    /// cycles the access's data comes later than `shared_latency`.
    fn shared_conflict_delay(&mut self, c: usize, ts: &[Txn]) -> u64 {
        let Some(t) = self.opts.sm_timing.as_ref() else {
            return 0;
        };
        let Some(first) = ts.first() else {
            return 0;
        };
        if !first.shared || first.shared_cta.is_some() || t.shared_wavefront_eighths == 0 {
            return 0;
        }
        let mut words: Vec<u64> = ts
            .iter()
            .flat_map(|x| x.addr / 4..=(x.addr + x.ty.bytes().max(1) - 1) / 4)
            .collect();
        words.sort_unstable();
        words.dedup();
        let mut per_bank = [0u64; 32];
        for w in words {
            per_bank[(w % 32) as usize] += 1;
        }
        let n = per_bank.iter().copied().max().unwrap_or(1).max(1);
        let s = self.warps[first.warp].slot as usize % t.schedulers as usize;
        let sm = &mut self.sms[c];
        let now8 = 8 * self.now;
        // The shared memory serves the schedulers with wavefronts queued
        // in turn: with k of them queued, each gets one per k cycles.
        let queued = sm
            .smsp_shared_free
            .iter()
            .enumerate()
            .filter(|&(k, &f)| k == s || f > now8)
            .count() as u64;
        let per = t
            .shared_wavefront_eighths
            .max(8 * t.sm_shared_wavefront * queued);
        let start = now8.max(sm.smsp_shared_free[s]);
        sm.smsp_shared_free[s] = start + n * per;
        (start - now8 + (n - 1) * per).div_ceil(8)
    }

    /// Issue model: register `reg` of warp `w` is ready at cycle `at`.
    fn set_ready(&mut self, w: usize, reg: &str, at: u64) {
        if let Some(&k) = self.entries[self.warps[w].entry].regs.get(reg) {
            self.warps[w].reg_ready[k] = at;
            self.warps[w].reg_lo_ready[k] = at;
        }
    }

    /// The issue model's release sequencer: the named-barrier unit released
    /// warp `w` (with a reduction's result `value`) this cycle as the
    /// `k`-th of its release; the release reaches the warp later.
    fn queue_bar_release(&mut self, c: usize, w: usize, k: u64, value: u64) {
        let t = self.opts.sm_timing.as_ref().expect("issue model on");
        let count_path = if self.warps[w].bar_reg_count {
            t.release_reg
        } else {
            t.release_imm
        };
        // A release completed by a `bar.arrive` (taken 2 cycles before the
        // unit's release) takes the arrive's longer path.
        let by_arrive = self
            .bar_event(c, self.now.wrapping_sub(2))
            .is_some_and(|e| e.arrive);
        let lat = if by_arrive {
            count_path.max(t.release_arrive)
        } else {
            count_path
        };
        // `bar.red.popc`: the count of true predicates is summed before the
        // release.
        let popc = |d: &RedDst| matches!(d, Some((_, o)) if *o == bop::RED_POPC);
        let lat = lat
            + match (&self.warps[w].wait, &self.warps[w].bar_deferred) {
                (Wait::Bar(d), _) | (_, Some(d)) if popc(d) => t.red_popc_release,
                _ => 0,
            };
        let batch = t.fanout_batch.max(1);
        let fan = (k / batch) * t.fanout_batch_gap + ((k % batch) * t.fanout_eighths) / 8;
        let due = self.now + lat + fan;
        let q = &mut self.sms[c].rel_queue;
        let at = q.iter().position(|e| e.0 > due).unwrap_or(q.len());
        q.insert(at, (due, w, value));
    }

    /// A queued barrier release reaches its warp: blocked at the barrier
    /// (or at an instruction depending on it), or still running on past it.
    fn deliver_bar_release(&mut self, w: usize, value: u64) {
        let dst = match self.warps[w].wait.clone() {
            Wait::Bar(d) => d,
            _ => match self.warps[w].bar_deferred.take() {
                Some(d) => d,
                None => return,
            },
        };
        if let Some((d, opc)) = dst {
            let v = if opc == bop::RED_POPC {
                value
            } else {
                value & 1
            };
            self.set_reg(w, &d, v);
            // Issue model: the reduction's result path (`B2R.RESULT`)
            // after the release; the warp's other instructions go on.
            if let Some(t) = &self.opts.sm_timing {
                let red = if opc == bop::RED_POPC {
                    t.red_popc_latency
                } else {
                    t.red_pred_latency
                };
                self.set_ready(w, &d, self.now + red);
            }
        }
        self.release(w);
    }

    /// The issue model's mbarrier return path: the unit's response to a
    /// warp's op (or the wake of its suspended `try_wait`) reaches the warp
    /// `mbarrier_latency` cycles later, a `test_wait` spin's answers on the
    /// SM's poll timer (`crate::sm_timing`: a first poll on an incomplete
    /// phase parked, a repeat poll's "not done" after `test_wait_fail`),
    /// responses of one SM at least `mb_return_interval` apart.
    fn mb_responses(&mut self, c: usize, o: &sm_sync_model::Outputs) {
        let t = self.opts.sm_timing.clone().expect("issue model on");
        let now = self.now;
        let push = |m: &mut Self, w: usize, dst: Option<String>, v: u64, lat: u64| {
            // The first cycle from `now + lat` at least the interval away
            // from every answer already on its way; the queue stays in due
            // order, so a quick answer passes a slow one (a failing
            // `test_wait`'s) pushed before it.
            let q = &mut m.sms[c].mb_queue;
            let mut due = now + lat;
            while let Some(&(d, ..)) = q
                .iter()
                .find(|(d, ..)| d.abs_diff(due) < t.mb_return_interval)
            {
                due = d + t.mb_return_interval;
            }
            let at = q.iter().position(|(d, ..)| *d > due).unwrap_or(q.len());
            q.insert(at, (due, w, dst, v));
        };
        if o.mb_rsp_valid {
            if let Some(w) = self.warp_in_slot(c, o.mb_rsp_warp) {
                let test_wait = o.mb_rsp_op == mb::op::TEST_WAIT;
                let wp = &mut self.warps[w];
                let recheck = wp.mb_parked == Some(Parked::Resent);
                if recheck {
                    wp.mb_parked = None;
                }
                if o.mb_rsp_suspended {
                    wp.mb_suspended = true;
                    wp.mb_suspended_at = now;
                } else if test_wait && !o.mb_rsp_done && !recheck && !wp.mb_spinning {
                    // A spin's first poll on an incomplete phase: parked
                    // until the SM's poll timer polls the unit again for it
                    // (`test_wait_first_check`); its answer is the second
                    // poll's.
                    let x = wp.mb_last_x.expect("a test_wait was sent");
                    let check = match wp.mb_poll {
                        PollKind { partial: false, .. } => t.test_wait_first_check,
                        PollKind {
                            try_wait: false, ..
                        } => t.partial_warp_first_check,
                        _ => t.partial_warp_first_check + t.partial_warp_try_wait_extra,
                    };
                    wp.mb_parked = Some(Parked::Waiting(now + check, x));
                } else if let Some(dst) = wp.mb_fifo.pop_front() {
                    let v = if mb::op::is_arrive(o.mb_rsp_op) {
                        o.mb_rsp_token as u64
                    } else {
                        o.mb_rsp_done as u64
                    };
                    // A poll that found the phase complete at once answers
                    // on the return path; a spin's later polls and the
                    // parked poll's second one answer `test_wait_answer`
                    // after their check, "not done" from a repeat poll
                    // `test_wait_fail` after it.
                    let lat = if !test_wait {
                        t.mbarrier_latency
                    } else if recheck || (wp.mb_spinning && o.mb_rsp_done) {
                        t.test_wait_answer
                    } else if o.mb_rsp_done {
                        t.mbarrier_latency
                    } else if wp.mb_poll.partial {
                        t.partial_warp_fail
                    } else {
                        t.test_wait_fail
                    };
                    wp.mb_spinning = test_wait && !o.mb_rsp_done;
                    push(self, w, dst, v, lat);
                }
            }
        }
        if o.mb_wake_mask != 0 {
            for w in self.sms[c].warps.clone() {
                let b = 1u64 << self.warps[w].slot;
                if o.mb_wake_mask & b != 0 && self.warps[w].mb_suspended {
                    self.warps[w].mb_suspended = false;
                    if let Some(dst) = self.warps[w].mb_fifo.pop_front() {
                        let v = (o.mb_wake_done & b != 0) as u64;
                        // Without an early wake the warp sees the completion
                        // only when its suspension window ends.
                        let window_end = self.warps[w].mb_suspended_at
                            + exec_config().mbarrier.try_wait_limit as u64;
                        // With it, no earlier than `try_wait_first_check`
                        // cycles into the suspension.
                        let wait = if t.try_wait_early_wake {
                            (self.warps[w].mb_suspended_at + t.try_wait_first_check)
                                .saturating_sub(now)
                        } else {
                            window_end.saturating_sub(now)
                        };
                        push(self, w, dst, v, wait + t.mbarrier_latency);
                    }
                }
            }
        }
    }

    /// One cycle of the host threads: each issues one instruction; memory
    /// accesses go straight to the memory system (strong, coherent loads: a
    /// CPU's caches are coherent), a fence waits until the host's stores
    /// are in L2 and its loads returned.
    fn cycle_hosts(&mut self) {
        let Some(hsm) = self.host_sm else {
            return;
        };
        let now = self.now;
        while self.mem.take_ack(hsm).is_some() {}
        while self.mem.take_bar_ack(hsm).is_some() {}
        for w in 0..self.warps.len() {
            if !self.warps[w].host {
                continue;
            }
            match self.warps[w].wait {
                Wait::Start(t) if t <= now => {
                    self.warps[w].wait = Wait::None;
                    self.trace.release(now, w);
                }
                Wait::None => {}
                _ => continue,
            }
            let Some(code) = self.begin_instruction(w) else {
                continue;
            };
            if code.ops.is_empty() {
                self.advance(w);
                continue;
            }
            match code.ops[self.warps[w].opi].clone() {
                Lowered::Local => self.exec_local(w, &code),
                Lowered::Txn { op, ref space } => match self
                    .make_txns(w, &code, op, space)
                    .and_then(|t| self.check_shapes(&code, t))
                {
                    Ok(ts) => {
                        for t in ts {
                            if let (Some(d), Access::Load { .. } | Access::Atom { .. }) = (&t.dst, t.acc) {
                                *self.warps[w].pending.entry(d.clone()).or_insert(0) += 1;
                                self.warps[w].inflight += 1;
                            }
                            let d = self.mem.dispatch(now, t, 0);
                            self.apply_done(d);
                        }
                        self.advance(w);
                    }
                    Err(m) => self.fail(w, m),
                },
                Lowered::Membar { .. } => {
                    if self.warps[w].inflight > 0 || !self.mem.drained(hsm) {
                        *self.warps[w].stalls.entry("membar").or_insert(0) += 1;
                    } else {
                        self.advance(w);
                    }
                }
                Lowered::Inval { .. } | Lowered::Nothing => self.advance(w),
                Lowered::Exit => {
                    if self.warps[w].inflight > 0 {
                        *self.warps[w].stalls.entry("scoreboard").or_insert(0) += 1;
                    } else {
                        self.warps[w].issued += 1;
                        let m = self.warps[w].exec;
                        self.exit_lanes(w, m);
                    }
                }
                other => self.fail(
                    w,
                    format!(
                        "`{}`: a host thread runs memory accesses (ld, st, atom, red), fences and arithmetic; `{}` needs an SM unit",
                        code.inst.text(),
                        other
                    ),
                ),
            }
        }
    }

    fn cycle_clusters(&mut self) {
        let now = self.now;
        for k in 0..self.clusters.len() {
            let cl = &mut self.clusters[k];
            // A rank whose arrival pulse is still on its way is not gone yet
            // (its last warp arrived, then exited).
            let in_flight: u32 = cl.arv.iter().fold(0, |m, &(_, r)| m | 1 << r);
            let mut arv = 0u32;
            cl.arv.retain(|&(at, r)| {
                if at <= now {
                    arv |= 1 << r;
                    false
                } else {
                    true
                }
            });
            let mut gone = 0u32;
            for r in 0..cl.model.cfg.ranks as usize {
                if r >= cl.size || (self.sms[cl.first_cta + r].gone && in_flight & (1 << r) == 0) {
                    gone |= 1 << r;
                }
            }
            let o = cl.model.step(&ClusterInputs {
                reset: false,
                arv,
                gone,
            });
            if o.err {
                let first = cl.first_cta;
                if let Some(&w) = self.sms[first].warps.first() {
                    self.fail(w, format!("cluster_barrier err (ranks {:#b})", o.err_rank));
                }
            }
            if o.done {
                self.clusters[k].done += 1;
                self.last_progress = now;
            }
        }
        // Release cluster waiters.
        for w in 0..self.warps.len() {
            if let Wait::Cluster(n) = self.warps[w].wait {
                let cta = self.warps[w].cta;
                let k = cta / self.clusters[0].size.max(1);
                if self.clusters[k].done >= n {
                    self.release(w);
                }
            }
        }
    }

    /// A CTA-level cluster arrive of warp `w` (or an exit).
    fn cluster_arrive_count(&mut self, cta: usize) {
        if self.clusters.is_empty() {
            return;
        }
        let size = self.clusters[0].size;
        // The CTA arrives (one `arv` pulse) when every live warp arrived in
        // this phase; an exited warp counts as arrived.
        loop {
            let sent = self.sms[cta].cl_sent;
            let ws = &self.sms[cta].warps;
            let any_live = ws.iter().any(|&w| self.warps[w].wait != Wait::Exited);
            let all = ws.iter().all(|&w| {
                self.warps[w].wait == Wait::Exited || self.warps[w].cluster_arrivals > sent
            });
            if !(any_live && all) {
                break;
            }
            self.sms[cta].cl_sent += 1;
            // Under a preset, the measured arrival path; else 2..8 cycles.
            let lat = match &self.opts.sm_timing {
                Some(t) => t.cluster_arrive_latency,
                None => 2 + (self.now % 7),
            };
            self.clusters[cta / size]
                .arv
                .push((self.now + lat, cta % size));
        }
    }

    fn cycle_sm(&mut self, c: usize) {
        let now = self.now;
        // Start warps.
        for &w in &self.sms[c].warps.clone() {
            if let Wait::Start(t) | Wait::AfterFence(t) = self.warps[w].wait {
                if t <= now {
                    self.warps[w].wait = Wait::None;
                    self.trace.release(now, w);
                }
            }
        }
        // Barrier releases reaching their warps (issue model).
        while let Some(&(due, w, v)) = self.sms[c].rel_queue.front() {
            if due > now {
                break;
            }
            self.sms[c].rel_queue.pop_front();
            self.deliver_bar_release(w, v);
        }
        while let Some((due, ..)) = self.sms[c].mb_queue.front() {
            if *due > now {
                break;
            }
            let (_, w, dst, v) = self.sms[c].mb_queue.pop_front().expect("front");
            if let Some(d) = dst {
                self.set_reg(w, &d, v);
                self.set_ready(w, &d, now);
            }
            if self.warps[w].wait == Wait::MbRsp(None) && self.warps[w].mb_fifo.is_empty() {
                self.release(w);
            }
            self.last_progress = now;
        }
        // Candidates per unit, round robin over the CTA's warps.
        let order: Vec<usize> = {
            let ws = &self.sms[c].warps;
            let n = ws.len();
            (0..n)
                .map(|k| ws[(self.sms[c].rr + k) % n.max(1)])
                .collect()
        };
        if !order.is_empty() {
            self.sms[c].rr = (self.sms[c].rr + 1) % order.len();
        }
        // At most one warp's op on the SM's instruction port this cycle.
        let mut req: Option<(usize, Instr, Req)> = None;
        let mut recheck = None;
        if self.opts.sm_timing.is_some() && now >= self.sms[c].mb_next {
            if let Some(&w) = order.iter().find(
                |&&w| matches!(self.warps[w].mb_parked, Some(Parked::Waiting(at, _)) if at <= now),
            ) {
                let Some(Parked::Waiting(_, x)) = self.warps[w].mb_parked else {
                    unreachable!("found waiting")
                };
                if std::mem::take(&mut self.sms[c].poll_turn) {
                    req = Some((w, x, Req::MbRecheck));
                } else {
                    recheck = Some((w, x));
                }
            }
        }
        // A folded instruction (`Code::folded`) costs no cycle: the warp
        // goes on to its next instruction in the same cycle (at most
        // `FOLDED_PER_CYCLE` of them, so a loop of folded code still ends).
        const FOLDED_PER_CYCLE: u32 = 64;
        let mut k = 0;
        let (mut folded_w, mut folded_run) = (usize::MAX, 0);
        while k < order.len() {
            let w = order[k];
            k += 1;
            if w != folded_w {
                folded_run = 0;
            }
            if self.warps[w].wait != Wait::None {
                continue;
            }
            let Some(code) = self.begin_instruction(w) else {
                continue;
            };
            if code.ops.is_empty() {
                self.advance(w);
                continue;
            }
            let op = code.ops[self.warps[w].opi].clone();
            let port_busy = req.is_some();
            match op {
                Lowered::Membar { level, .. } => {
                    if port_busy {
                        *self.warps[w].stalls.entry("port").or_insert(0) += 1;
                    } else {
                        self.warps[w].fence_level = Some(level);
                        let x = encode(&op, 0).expect("a MEMBAR has an encoding");
                        req = Some((w, x, Req::Membar(None)));
                    }
                }
                Lowered::Txn { op: top, ref space } => {
                    if code.inst.opcode.split('.').any(|q| q == "param") {
                        // A kernel parameter: a constant-bank read, no memory transaction.
                        self.load_param(w, &code);
                        self.advance(w);
                    } else if self.opts.sm_timing.is_some()
                        && code.inst.opcode.starts_with("ld.const")
                    {
                        // Issue model: `LDC` reads the constant cache (read-only
                        // data, no transaction); the result after `const_latency`.
                        self.load_const(w, &code, top, space);
                        self.advance(w);
                    } else if port_busy {
                        *self.warps[w].stalls.entry("port").or_insert(0) += 1;
                    } else {
                        let txn = match self
                            .make_txns(w, &code, top, space)
                            .and_then(|t| self.check_shapes(&code, t))
                        {
                            Ok(t) => t,
                            Err(m) => {
                                self.fail(w, m);
                                continue;
                            }
                        };
                        let mut x = encode(&op, 0).expect("a transaction has an encoding");
                        x.id = self.sms[c].next_id;
                        req = Some((w, x, Req::Membar(Some(txn))));
                    }
                }
                Lowered::Inval { .. } => {
                    // CCTL.IVALL after the warp's loads returned (their data is in L1 order).
                    if self.warps[w].inflight > 0 {
                        *self.warps[w].stalls.entry("membar").or_insert(0) += 1;
                    } else {
                        self.mem.invalidate(c);
                        self.trace
                            .event(now, w, "CCTL.IVALL: L1 invalidated".into());
                        self.advance(w);
                    }
                }
                Lowered::ProxyFence { kind } => {
                    if kind == ProxyKind::Async {
                        self.mem.proxy_fence(c);
                        self.trace.event(now, w, "fence.proxy.async".into());
                    }
                    self.advance(w);
                }
                Lowered::Bar {
                    op: bar_op,
                    id,
                    count,
                } => {
                    if port_busy || !self.sms[c].launched || !self.sms[c].exits.is_empty() {
                        *self.warps[w].stalls.entry("port").or_insert(0) += 1;
                        continue;
                    }
                    let idv = self.arg_value(w, &id).unwrap_or(0) as u8;
                    // Issue model: arrivals at one barrier are counted one
                    // warp per `arrival_interval` cycles (a reduction's per
                    // `red_arrival_interval`); other barriers are not held up.
                    if self.opts.sm_timing.is_some()
                        && self.sms[c].bar_next.get(&idv).is_some_and(|&t| now < t)
                    {
                        *self.warps[w].stalls.entry("port").or_insert(0) += 1;
                        continue;
                    }
                    let count = match count {
                        Arg::All | Arg::Absent => count,
                        a => Arg::Imm(self.arg_value(w, &a).unwrap_or(0) as i64),
                    };
                    let resolved = Lowered::Bar {
                        op: bar_op,
                        id: Arg::Imm(idv as i64),
                        count,
                    };
                    let mut x = encode(&resolved, 0).expect("a bar op has an encoding");
                    let mut dst = None;
                    if bop::is_red(x.op) {
                        // Each executing lane's predicate; a lane not executing
                        // contributes nothing (1 to an AND, 0 to a POPC/OR).
                        // A program file's one-lane warp is one thread standing
                        // for the whole warp: its predicate counts for all 32 lanes.
                        let whole = self.kernel.is_none() && self.warps[w].lanes == 1;
                        let exec = if whole { u32::MAX } else { self.warps[w].exec };
                        let mut pred = if x.op == bop::RED_AND { !exec } else { 0 };
                        if let Some(last) = code.inst.operands.last() {
                            let mut m = exec;
                            while m != 0 {
                                let l = m.trailing_zeros() as usize;
                                m &= m - 1;
                                let lane = if whole { 0 } else { l };
                                if self.value_lane(w, lane, last) & 1 != 0 {
                                    pred |= 1 << l;
                                }
                            }
                        }
                        x.pred = pred;
                        if let Some(Operand::Reg(d)) = code.inst.operands.first() {
                            dst = Some((d.clone(), x.op));
                        }
                    }
                    let blocks = bop::blocks(x.op);
                    req = Some((w, x, Req::Bar(dst, blocks)));
                }
                Lowered::ClusterArrive => {
                    let wp = &mut self.warps[w];
                    wp.cluster_arrivals += 1;
                    self.cluster_arrive_count(c);
                    self.advance(w);
                }
                Lowered::ClusterWait => {
                    let n = self.warps[w].cluster_arrivals;
                    self.advance(w);
                    let k = c / self.clusters.first().map(|x| x.size).unwrap_or(1);
                    if self.clusters.get(k).is_some_and(|cl| cl.done < n) {
                        self.block(w, Wait::Cluster(n));
                    }
                }
                Lowered::Mbarrier {
                    op: mb_op,
                    remote,
                    addr,
                    arg,
                    hint,
                } => {
                    let (target, entry) = match self.mb_entry(w, &code) {
                        Ok(e) => e,
                        Err(m) => {
                            self.fail(w, m);
                            continue;
                        }
                    };
                    let mut v = self.arg_value(w, &arg);
                    // Every executing thread arrives (count per thread).
                    let n = self.warps[w].exec.count_ones() as u64;
                    if n > 1 {
                        match mb_op {
                            MbOp::Arrive | MbOp::ArriveDrop => v = Some(v.unwrap_or(1) * n),
                            MbOp::ArriveExpectTx => {
                                self.fail(w, format!("`{}` executed by {n} threads at once: an arrive with expect_tx from several lanes of one warp is not modelled (elect one lane)", code.inst.text()));
                                continue;
                            }
                            _ => {}
                        }
                    }
                    if remote && matches!(mb_op, MbOp::Arrive | MbOp::ArriveDrop) {
                        // Through the remote-arrive port, after the cluster path's latency.
                        let at = now + self.mem.rand_range(10, 80);
                        self.sms[target]
                            .rarv
                            .push((at, entry, v.unwrap_or(1) as u32));
                        self.trace.event(now, w, format!("remote arrive on {addr}"));
                        self.advance(w);
                        continue;
                    }
                    // Issue model: a `test_wait` poll holds the SM's mbarrier
                    // path for `test_wait_occupancy` cycles; every mbarrier op
                    // of the SM waits for it.
                    let mb_busy = self.opts.sm_timing.is_some() && now < self.sms[c].mb_next;
                    // A parked poll's answer comes before the warp's next op.
                    let parked = self.warps[w].mb_parked.is_some();
                    if port_busy || mb_busy || parked {
                        *self.warps[w].stalls.entry("port").or_insert(0) += 1;
                        continue;
                    }
                    // Issue model: a poll of a partial warp is answered on
                    // the SM's poll timer; its `try_wait` is sent as a
                    // `test_wait` (no suspension, `PollKind`).
                    let partial = self.opts.sm_timing.is_some() && n < LANES as u64;
                    let poll = PollKind {
                        partial,
                        try_wait: mb_op == MbOp::TryWait,
                    };
                    let (mb_op, hint) = if partial && mb_op == MbOp::TryWait {
                        (MbOp::TestWait, Arg::Absent)
                    } else {
                        (mb_op, hint)
                    };
                    let resolved = Lowered::Mbarrier {
                        op: mb_op,
                        remote,
                        addr,
                        arg: match v {
                            Some(v) => Arg::Imm(v as i64),
                            None => Arg::Absent,
                        },
                        hint,
                    };
                    let x = encode(&resolved, entry).expect("a local mbarrier op has an encoding");
                    let dst = match code.inst.operands.first() {
                        Some(Operand::Reg(r))
                            if !matches!(
                                mb_op,
                                MbOp::Init | MbOp::Inval | MbOp::ExpectTx | MbOp::CompleteTx
                            ) =>
                        {
                            Some(r.clone())
                        }
                        _ => None,
                    };
                    // Issue model: an op that changes the transaction count
                    // holds the warp until the unit's answer is back (the
                    // bulk copy that follows must find the count set).
                    self.warps[w].mb_hold = matches!(mb_op, MbOp::ArriveExpectTx | MbOp::ExpectTx);
                    req = Some((w, x, Req::Mb(dst, poll)));
                }
                Lowered::AsyncCopy { bytes, .. } => {
                    let entry = match self.mb_entry(w, &code) {
                        Ok((t, e)) if t == c => e,
                        Ok((t, _)) => {
                            self.fail(w, format!("`{}`: a bulk copy completing on CTA {t}'s mbarrier (multicast) is not modelled", code.inst.text()));
                            continue;
                        }
                        Err(m) => {
                            self.fail(w, m);
                            continue;
                        }
                    };
                    let ops = &code.inst.operands;
                    let dst = ops.first().map(|o| self.value(w, o)).unwrap_or(0);
                    let src = ops.get(1).map(|o| self.value(w, o)).unwrap_or(0);
                    let src_shared = code.inst.opcode.contains(".shared::cta.mbarrier")
                        || code.inst.form.contains("shared::cluster.shared::cta");
                    let n = self.arg_value(w, &bytes).unwrap_or(0);
                    if n > MAX_COPY {
                        self.fail(w, format!("bulk copy of {n} bytes, expected at most {MAX_COPY} (the model copies word by word)"));
                        continue;
                    }
                    let n = n as u32;
                    self.mem.copy(
                        now,
                        Copy {
                            warp: w,
                            cta: c,
                            group: false,
                            entry: Some(entry),
                            src_shared,
                            dst_shared: true,
                            src,
                            dst,
                            bytes: n,
                            l1: false,
                            batch: None,
                        },
                    );
                    self.trace.event(now, w, format!("bulk copy {n} B issued"));
                    self.advance(w);
                }
                Lowered::AsyncGroup { op: g_op, arg } => {
                    // The tracker counts one kind of group per warp: bulk
                    // (`cp.async.bulk.*`) or non-bulk (`cp.async.*`, LDGSTS).
                    let bulk = code.inst.form.starts_with("cp.async.bulk");
                    match self.warps[w].group_kind {
                        Some(k) if k != bulk => {
                            self.fail(w, format!("`{}`: this warp already used {} async groups; one warp using both bulk and non-bulk cp.async groups is not modelled (the async-group tracker keeps one group sequence per warp)", code.inst.text(), if k { "bulk" } else { "non-bulk" }));
                            continue;
                        }
                        _ => self.warps[w].group_kind = Some(bulk),
                    }
                    if port_busy {
                        *self.warps[w].stalls.entry("port").or_insert(0) += 1;
                        continue;
                    }
                    let arg = match self.arg_value(w, &arg) {
                        Some(v) => Arg::Imm(v as i64),
                        None => Arg::Absent,
                    };
                    let x = encode(&Lowered::AsyncGroup { op: g_op, arg }, 0)
                        .expect("an async-group op has an encoding");
                    req = Some((
                        w,
                        x,
                        Req::Ag(
                            g_op == GroupOp::Issue,
                            matches!(g_op, GroupOp::Wait | GroupOp::WaitRead),
                        ),
                    ));
                }
                Lowered::Exit => {
                    let m = self.warps[w].exec;
                    let live = self.warps[w].lanes & !self.warps[w].exited;
                    if m == live && self.warps[w].inflight > 0 {
                        *self.warps[w].stalls.entry("scoreboard").or_insert(0) += 1;
                        continue;
                    }
                    self.warps[w].issued += 1;
                    self.exit_lanes(w, m);
                }
                Lowered::Local => {
                    self.exec_local(w, &code);
                    if code.folded && folded_run < FOLDED_PER_CYCLE {
                        folded_w = w;
                        folded_run += 1;
                        k -= 1;
                    }
                }
                Lowered::Nothing => self.advance(w),
            }
        }

        // Issue model: the SM's poll timer sends a parked `test_wait` to
        // the unit again; it and the warps' new ops take turns at the port.
        if let Some((w, x)) = recheck {
            if req.is_none() {
                req = Some((w, x, Req::MbRecheck));
            } else {
                self.sms[c].poll_turn = true;
            }
        }

        // ---- the sm_sync top's inputs: the instruction, then the pass-through ports ----
        let mut i = SmInputs {
            dn_ready: true,
            ..Default::default()
        };
        if let Some((w, x, _)) = &req {
            x.drive(self.warps[*w].slot, &mut i);
        }
        if let Some(t) = self.mem.take_ack(c) {
            i.ack_valid = true;
            i.ack_tag = t;
        }
        if let Some(t) = self.mem.take_bar_ack(c) {
            i.bar_ack_valid = true;
            i.bar_ack_tag = t;
        }
        if !self.sms[c].launched {
            let mut mask = 0u64;
            for &w in &self.sms[c].warps {
                mask |= 1 << self.warps[w].slot;
            }
            i.ctl_valid = true;
            i.ctl_op = ctl::LAUNCH;
            i.ctl_slot = 0;
            i.ctl_warps = mask;
            self.sms[c].launched = true;
            let first = self.sms[c].warps[0];
            self.push_bar_event(
                c,
                BarEvent {
                    warp: first,
                    arrive: false,
                    at: None,
                },
            );
        } else if let Some(x) = self.sms[c].exits.pop_front() {
            i.ctl_valid = true;
            i.ctl_op = ctl::EXIT;
            i.ctl_warp = x;
            let warp = self.warp_in_slot(c, x).unwrap_or(self.sms[c].warps[0]);
            self.push_bar_event(
                c,
                BarEvent {
                    warp,
                    arrive: false,
                    at: None,
                },
            );
        }
        // The copy engine's complete-tx reports and the remote arrives stay
        // queued until the mbarrier unit takes them (`mb_ctx_ready`,
        // `mb_rarv_ready`: one request a cycle among its three ports).
        if let Some(&(e, b)) = self.sms[c].ctx.front() {
            i.ctx_valid = true;
            i.ctx_entry = e;
            i.ctx_bytes = b;
        }
        let rarv_k = self.sms[c].rarv.iter().position(|r| r.0 <= now);
        if let Some(k) = rarv_k {
            let (_, e, n) = self.sms[c].rarv[k];
            i.rarv_valid = true;
            i.rarv_entry = e;
            i.rarv_count = n;
        }
        if let Some(s) = self.sms[c].rd.pop_front() {
            i.rd_valid = true;
            i.rd_warp = s;
        } else if let Some(s) = self.sms[c].wr.pop_front() {
            i.wr_valid = true;
            i.wr_warp = s;
        }
        let o = self.sms[c].port.step(&i);
        if o.mb_ctx_ready {
            self.sms[c].ctx.pop_front();
        }
        if let (true, Some(k)) = (o.mb_rarv_ready, rarv_k) {
            self.sms[c].rarv.remove(k);
        }
        if let Some(twin) = self.sms[c].twin.as_mut() {
            let t = twin.step(&i);
            if let Some((port, want, got)) = o.first_difference(&t) {
                let name = twin.name().to_string();
                self.mismatch = Some(Mismatch {
                    cycle: now,
                    sm: c,
                    port,
                    model: want,
                    twin: got,
                    twin_name: name,
                    inputs: i.describe(),
                });
                return;
            }
        }

        // ---- errors, by source ----
        if o.err {
            let first = self.sms[c].warps[0];
            let requester = req.as_ref().map(|r| r.0).unwrap_or(first);
            if o.err_src & src::DECODER != 0 {
                self.fail(
                    requester,
                    format!("sm_sync decoder refused unit {} op {}", i.in_unit, i.in_op),
                );
            }
            if o.err_src & src::MEMBAR != 0 {
                self.fail(requester, "membar_unit err (protocol violation)".into());
            }
            if o.err_src & src::BAR != 0 {
                // The unit checks an event one cycle after taking it: the
                // error belongs to last cycle's barrier op or ctl event.
                let e = self.bar_event(c, now.wrapping_sub(1));
                self.fail_at(
                    e.map_or(first, |e| e.warp),
                    e.and_then(|e| e.at),
                    format!("bar_unit err: {}", errc::name(o.bar_err_code)),
                );
            }
            if o.err_src & src::MBARRIER != 0 {
                let w = self.warp_in_slot(c, o.mb_rsp_warp).unwrap_or(first);
                let cause = mb::cause::NAMES
                    .get(o.mb_err_cause as usize)
                    .copied()
                    .unwrap_or("?");
                self.fail(w, format!("mbarrier_unit err: {cause}"));
            }
            if o.err_src & src::ASYNC != 0 {
                self.fail(
                    first,
                    format!("async_groups err (cause {:#b})", o.ag_err_cause),
                );
            }
        }

        // ---- membar downstream commands ----
        if o.dn_valid {
            match o.dn_kind {
                kind::TXN => {
                    if let Some(mut ts) = self.sms[c].txns.remove(&o.dn_id) {
                        if ts.len() > 1 {
                            self.last_group_id += 1;
                            let g = self.last_group_id;
                            self.mem.ack_group(g, ts.len() as u32);
                            for t in ts.iter_mut() {
                                t.group = Some(g);
                            }
                        }
                        let extra = self.shared_conflict_delay(c, &ts);
                        for t in ts {
                            let d = self.mem.dispatch_after(now, t, o.dn_tag, extra);
                            self.apply_done(d);
                        }
                    }
                }
                kind::INVAL => {
                    self.mem.invalidate(c);
                }
                _ => self.mem.barrier(
                    now,
                    c,
                    o.dn_tag,
                    o.dn_ack_req,
                    o.dn_level == membar_unit_model::ports::level::SYS,
                ),
            }
        }

        // ---- releases (a warp waits on one unit at a time) ----
        let mut fanout = 0;
        // The warp whose arrival completed the barrier leaves on its own
        // path, not in the waiters' fan-out (§1.3: 31 waiters of a
        // `bar.sync` leave as those of a `bar.arrive` do).
        let completer = self.bar_event(c, now.wrapping_sub(2)).map(|e| e.warp);
        for &w in &self.sms[c].warps.clone() {
            let b = 1u64 << self.warps[w].slot;
            if o.release_mask & b == 0 {
                continue;
            }
            // Issue model: a barrier release (to a warp blocked at it or
            // running on past it) goes through the release sequencer.
            let at_bar =
                self.warps[w].bar_deferred.is_some() || matches!(self.warps[w].wait, Wait::Bar(_));
            if o.bar_rel_valid && at_bar && self.opts.sm_timing.is_some() {
                if completer == Some(w) {
                    self.queue_bar_release(c, w, 0, o.bar_rel_result as u64);
                } else {
                    self.queue_bar_release(c, w, fanout, o.bar_rel_result as u64);
                    fanout += 1;
                }
                continue;
            }
            match self.warps[w].wait.clone() {
                Wait::Membar => {
                    // Issue model: the SM's work after a GPU- or
                    // system-scope barrier's release (the rest of the
                    // fence sequence) before the warp's next op, also one
                    // of the same instruction (a cluster arrive's).
                    let after = match (&self.opts.sm_timing, self.warps[w].fence_level.take()) {
                        (Some(t), Some(Level::Gl | Level::Vc)) => t.fence_overhead_gl,
                        (Some(t), Some(Level::Sys)) => t.fence_overhead_sys,
                        _ => 0,
                    };
                    self.release(w);
                    if after > 0 {
                        self.warps[w].wait = Wait::AfterFence(now + after);
                    }
                }
                Wait::Group => self.release(w),
                Wait::Bar(dst) if o.bar_rel_valid => {
                    if let Some((d, opc)) = dst {
                        let v = if opc == bop::RED_POPC {
                            o.bar_rel_result as u64
                        } else {
                            (o.bar_rel_result & 1) as u64
                        };
                        self.set_reg(w, &d, v);
                    }
                    self.release(w);
                }
                _ => {}
            }
        }
        // mbarrier responses to last cycle's op, then wakes.
        if self.opts.sm_timing.is_some() {
            self.mb_responses(c, &o);
        } else if o.mb_rsp_valid {
            for &w in &self.sms[c].warps.clone() {
                if self.warps[w].slot != o.mb_rsp_warp {
                    continue;
                }
                if let Wait::MbRsp(dst) = self.warps[w].wait.clone() {
                    if o.mb_rsp_suspended {
                        self.warps[w].wait = Wait::MbWake(dst);
                    } else {
                        if let Some(d) = dst {
                            let v = if mb::op::is_arrive(o.mb_rsp_op) {
                                o.mb_rsp_token as u64
                            } else {
                                o.mb_rsp_done as u64
                            };
                            self.set_reg(w, &d, v);
                        }
                        self.release(w);
                    }
                }
            }
        }
        if o.mb_wake_mask != 0 && self.opts.sm_timing.is_none() {
            for &w in &self.sms[c].warps.clone() {
                let b = 1u64 << self.warps[w].slot;
                if o.mb_wake_mask & b != 0 {
                    if let Wait::MbWake(dst) = self.warps[w].wait.clone() {
                        if let Some(d) = dst {
                            self.set_reg(w, &d, (o.mb_wake_done & b != 0) as u64);
                        }
                        self.release(w);
                    }
                }
            }
        }

        // ---- the instruction: taken or not ----
        let Some((w, x, r)) = req else {
            return;
        };
        let took = o.in_ready;
        match r {
            Req::Membar(txn) => {
                if !took {
                    *self.warps[w].stalls.entry("membar").or_insert(0) += 1;
                } else if let Some(ts) = txn {
                    for t in &ts {
                        if let (Some(d), Access::Load { .. } | Access::Atom { .. }) =
                            (&t.dst, t.acc)
                        {
                            *self.warps[w].pending.entry(d.clone()).or_insert(0) += 1;
                        }
                        if !matches!(t.acc, Access::Store { .. }) || t.shared {
                            self.warps[w].inflight += 1;
                        }
                    }
                    self.sms[c].txns.insert(x.id, ts);
                    self.sms[c].next_id = self.sms[c].next_id.wrapping_add(1);
                    self.advance(w);
                } else {
                    if matches!(
                        self.warps[w].fence_level,
                        Some(Level::Gl | Level::Vc | Level::Sys)
                    ) {
                        self.mem.fence_started(c, now);
                    }
                    self.advance(w);
                    self.block(w, Wait::Membar);
                }
            }
            Req::Bar(dst, blocks) => {
                // Not taken (the cycle after a ctl event): presented again.
                if took {
                    let line = self.warps[w].at.0;
                    let at = (line != 0).then_some((line, self.warps[w].at_col));
                    self.push_bar_event(
                        c,
                        BarEvent {
                            warp: w,
                            arrive: !blocks,
                            at,
                        },
                    );
                    if let Some(t) = &self.opts.sm_timing {
                        let gap = if dst.is_some() {
                            t.red_arrival_interval
                        } else if self.warps[w].bar_reg_count {
                            t.arrival_interval
                        } else {
                            t.arrival_interval_imm
                        };
                        self.sms[c].bar_next.insert(x.id as u8, now + gap);
                    }
                    self.advance(w);
                    if blocks && self.opts.sm_timing.is_some() {
                        // Deferred blocking: the warp runs on; the wait
                        // is counted from here (site table).
                        let wp = &mut self.warps[w];
                        wp.blocked = Some((now, wp.at.0, Cause::Bar));
                        wp.bar_deferred = Some(dst);
                    } else if blocks {
                        self.block(w, Wait::Bar(dst));
                    }
                }
            }
            Req::MbRecheck => {
                if took {
                    if let Some(t) = &self.opts.sm_timing {
                        self.sms[c].mb_next = now + t.test_wait_occupancy;
                    }
                    self.warps[w].mb_parked = Some(Parked::Resent);
                }
            }
            Req::Mb(dst, poll) => {
                if took && x.op == mb::op::TEST_WAIT {
                    if let Some(t) = &self.opts.sm_timing {
                        self.sms[c].mb_next = now + t.test_wait_occupancy;
                    }
                    self.warps[w].mb_last_x = Some(x);
                    self.warps[w].mb_poll = poll;
                } else if took {
                    self.warps[w].mb_spinning = false;
                }
                if took && self.opts.sm_timing.is_some() {
                    // Issue model: the warp runs on; a destination register
                    // waits (scoreboard) for the response.
                    if let Some(d) = &dst {
                        self.set_ready(w, d, u64::MAX);
                    }
                    self.warps[w].mb_fifo.push_back(dst);
                    self.advance(w);
                    if self.warps[w].mb_hold {
                        self.block(w, Wait::MbRsp(None));
                    }
                } else if took {
                    self.advance(w);
                    self.block(w, Wait::MbRsp(dst));
                }
            }
            Req::Ag(issue, waits) => {
                if !took {
                    *self.warps[w].stalls.entry("wait_group").or_insert(0) += 1;
                    return;
                }
                if issue
                    && self
                        .code(w)
                        .is_some_and(|c| !c.inst.form.starts_with("cp.async.bulk"))
                {
                    // Non-bulk cp.async (LDGSTS): one copy per executing lane,
                    // global → shared, one issue of the warp's group.
                    let code = self.code(w).cloned().expect("issuing warp has code");
                    self.issue_ldgsts(w, c, &code);
                } else if issue {
                    let code = self.code(w).cloned().expect("issuing warp has code");
                    let ops = &code.inst.operands;
                    let dst = ops.first().map(|o| self.value(w, o)).unwrap_or(0);
                    let src = ops.get(1).map(|o| self.value(w, o)).unwrap_or(0);
                    let n = ops.get(2).map(|o| self.value(w, o)).unwrap_or(0);
                    if n > MAX_COPY {
                        self.fail(w, format!("bulk copy of {n} bytes, expected at most {MAX_COPY} (the model copies word by word)"));
                        return;
                    }
                    let n = n as u32;
                    self.mem.copy(
                        self.copy_start(now),
                        Copy {
                            warp: w,
                            cta: c,
                            group: true,
                            entry: None,
                            src_shared: true,
                            dst_shared: false,
                            src,
                            dst,
                            bytes: n,
                            l1: false,
                            batch: None,
                        },
                    );
                    self.trace
                        .event(now, w, format!("bulk copy {n} B (group) issued"));
                }
                self.advance(w);
                if waits {
                    self.block(w, Wait::Group);
                }
            }
        }
    }

    /// A non-bulk `cp.async.{ca,cg}.shared.global [dst], [src], size{, src_size}`
    /// of the executing lanes: `size` bytes (4, 8 or 16) per lane from
    /// global to shared memory, one batch for the async-group tracker.
    fn issue_ldgsts(&mut self, w: usize, c: usize, code: &Code) {
        let now = self.now;
        let ops = &code.inst.operands;
        let lanes: Vec<usize> = (0..LANES)
            .filter(|l| self.warps[w].exec & (1 << l) != 0)
            .collect();
        let mut copies = Vec::new();
        for &l in &lanes {
            let dst = self.value_lane(w, l, &ops[0]);
            let src = self.value_lane(w, l, &ops[1]);
            let n = self.value_lane(w, l, &ops[2]);
            if let Some(o) = ops.get(3) {
                let s = self.value_lane(w, l, o);
                if s != n {
                    self.fail(w, format!("`{}`: a source size {s} other than the copy size {n} (zero fill) is not modelled", code.inst.text()));
                    return;
                }
            }
            copies.push((dst, src, n as u32));
        }
        self.last_group_id += 1;
        let b = self.last_group_id;
        self.copy_batches.insert(b, [copies.len() as u32; 2]);
        for (dst, src, n) in copies {
            self.mem.copy(
                now,
                Copy {
                    warp: w,
                    cta: c,
                    group: true,
                    entry: None,
                    src_shared: false,
                    dst_shared: true,
                    src,
                    dst,
                    bytes: n,
                    l1: code.inst.form.starts_with("cp.async.ca"),
                    batch: Some(b),
                },
            );
        }
        self.trace
            .event(now, w, format!("cp.async: {} lanes issued", lanes.len()));
    }

    /// Threads `mask` of warp `w` exit; the others of the group go on.
    /// The warp exits with its last thread.
    fn exit_lanes(&mut self, w: usize, mask: u32) {
        let wp = &mut self.warps[w];
        wp.exited |= mask & wp.lanes;
        self.last_progress = self.now;
        if wp.lanes & !wp.exited == 0 {
            self.do_exit(w);
        } else {
            let rest = wp.active & !mask;
            wp.active = rest;
            if rest != 0 {
                self.step_lanes(w, 0, 0);
            } else {
                Self::regroup(&mut self.warps[w]);
            }
        }
    }

    fn do_exit(&mut self, w: usize) {
        let c = self.warps[w].cta;
        self.warps[w].wait = Wait::Exited;
        self.warps[w].exited_at = Some(self.now);
        self.warps[w].issued += 1;
        self.last_progress = self.now;
        self.trace.exit(self.now, w);
        if self.warps[w].host {
            return;
        }
        let slot = self.warps[w].slot;
        self.sms[c].exits.push_back(slot);
        // The cluster barrier: an exited warp counts as arrived.
        if self.sms[c]
            .warps
            .iter()
            .all(|&v| self.warps[v].wait == Wait::Exited)
        {
            self.sms[c].gone = true;
        } else {
            self.cluster_arrive_count(c);
        }
    }

    /// The memory holds one value per address and access width: two
    /// accesses that overlap with another address or width (a `st.u8` into
    /// a word read by `ld.u32`) would not see each other. Such an access,
    /// or one not aligned to its size, is refused naming both shapes; so is
    /// an access to a launch buffer in another width than its element type.
    fn check_shapes(&mut self, code: &Code, ts: Vec<Txn>) -> Result<Vec<Txn>, String> {
        for t in &ts {
            let bytes = t.ty.bytes().max(1);
            let err = |what: String| {
                format!(
                    "`{}` (lane {}): {what}; mixed-width or misaligned accesses to one location are not modelled (the memory keeps one value per access shape)",
                    code.inst.text(),
                    t.lane
                )
            };
            if !t.addr.is_multiple_of(bytes) {
                return Err(err(format!(
                    "a {bytes}-byte access at {:#x} is not aligned to its size",
                    t.addr
                )));
            }
            if !t.shared {
                if let Some(b) = self.kernel.as_ref().and_then(|k| {
                    k.launch
                        .buffers
                        .iter()
                        .find(|b| (b.base..b.base + b.elem * b.data.len() as u64).contains(&t.addr))
                }) {
                    if b.elem != bytes {
                        return Err(err(format!(
                            "a {bytes}-byte access to buffer `{}` of {}-byte elements (type {})",
                            b.name, b.elem, b.ty
                        )));
                    }
                    continue;
                }
            }
            let space = if t.shared {
                t.shared_cta.unwrap_or(t.sm) as u64 + 1
            } else {
                0
            };
            let (off, size) = ((t.addr & 7) as u8, bytes as u8);
            let shapes = self.shapes.entry((space, t.addr >> 3)).or_default();
            if shapes.contains(&(off, size)) {
                continue;
            }
            if let Some(&(o, z)) = shapes.iter().find(|&&(o, z)| o < off + size && off < o + z) {
                return Err(err(format!(
                    "a {size}-byte access at {:#x} overlaps a {z}-byte one at {:#x}",
                    t.addr,
                    (t.addr & !7) + o as u64
                )));
            }
            shapes.push((off, size));
        }
        Ok(ts)
    }

    /// `ld.const` under the issue model: every executing lane's value from
    /// the constant image (global memory as the launch left it: nothing
    /// writes `.const`), ready `const_latency` cycles later.
    fn load_const(&mut self, w: usize, code: &Code, op: TxnOp, space: &Arg) {
        let ts = match self
            .make_txns(w, code, op, space)
            .and_then(|t| self.check_shapes(code, t))
        {
            Ok(t) => t,
            Err(m) => return self.fail(w, m),
        };
        let lat = self.opts.sm_timing.as_ref().map_or(0, |t| t.const_latency);
        for t in ts {
            if let Some(d) = &t.dst {
                let v = self.mem.l2_value(t.addr) & t.ty.mask();
                self.set_reg_lane(w, t.lane as usize, d, v);
                self.set_ready(w, d, self.now + lat);
            }
        }
    }

    /// `ld.param`: the launch's parameter value (by name and offset).
    fn load_param(&mut self, w: usize, code: &Code) {
        let ops = &code.inst.operands;
        let (Some(Operand::Reg(d)), Some(Operand::Addr { base, offset })) =
            (ops.first(), ops.get(1))
        else {
            self.fail(
                w,
                format!("`{}`: expected `ld.param.T d, [param]`", code.inst.text()),
            );
            return;
        };
        let Some(v) = self
            .kernel
            .as_ref()
            .and_then(|k| k.params.get(base))
            .copied()
        else {
            self.fail(
                w,
                format!(
                    "`{}`: `{base}` is not a parameter of the launched entry",
                    code.inst.text()
                ),
            );
            return;
        };
        let ty = Ty::of_opcode(&code.inst.opcode);
        if *offset != 0 {
            let m = format!(
                "`{}`: an offset into a scalar parameter is not modelled",
                code.inst.text()
            );
            self.fail(w, m);
            return;
        }
        let d = d.clone();
        self.set_reg(w, &d, v & ty.mask());
    }

    /// The memory accesses of one warp instruction: per executing lane,
    /// per vector element (`ld.v4` reads four consecutive elements).
    fn make_txns(&self, w: usize, code: &Code, op: TxnOp, space: &Arg) -> Result<Vec<Txn>, String> {
        let ops = &code.inst.operands;
        let form = &code.inst.form;
        let quals: Vec<&str> = code.inst.opcode.split('.').collect();
        let ty = Ty::of_opcode(&code.inst.opcode);
        let elem = ty.bytes();
        let mut out = Vec::new();
        let mut m = self.warps[w].exec;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            // (address operand, per element (destination, access)).
            let (addr_op, accs): (Option<&Operand>, Vec<(Option<String>, Access)>) = match op {
                TxnOp::Ld => {
                    let strong = (form.contains("relaxed")
                        || form.contains("acquire")
                        || form.contains("volatile"))
                        && !form.contains(".cta");
                    let ds: Vec<Option<String>> = match ops.first() {
                        Some(Operand::Reg(r)) => vec![Some(r.clone())],
                        Some(Operand::Vector(v)) => {
                            v.iter().map(|r| (r != "_").then(|| r.clone())).collect()
                        }
                        _ => vec![None],
                    };
                    (
                        ops.get(1),
                        ds.into_iter()
                            .map(|d| (d, Access::Load { strong }))
                            .collect(),
                    )
                }
                TxnOp::St => {
                    let vals: Vec<u64> = match ops.get(1) {
                        Some(Operand::Vector(v)) => {
                            v.iter().map(|r| self.sym_or_reg(w, lane, r)).collect()
                        }
                        Some(o) => vec![self.value_lane(w, lane, o)],
                        None => vec![0],
                    };
                    (
                        ops.first(),
                        vals.into_iter()
                            .map(|v| (None, Access::Store { val: v & ty.mask() }))
                            .collect(),
                    )
                }
                TxnOp::Atom | TxnOp::Red => {
                    let aop = quals
                        .iter()
                        .find_map(|q| AtomOp::parse(q))
                        .unwrap_or(AtomOp::Add);
                    let (a, rest, d) = if op == TxnOp::Atom {
                        let d = match ops.first() {
                            Some(Operand::Reg(r)) => Some(r.clone()),
                            _ => None,
                        };
                        (ops.get(1), &ops[2.min(ops.len())..], d)
                    } else {
                        (ops.first(), &ops[1.min(ops.len())..], None)
                    };
                    let b = rest
                        .first()
                        .map(|o| self.value_lane(w, lane, o))
                        .unwrap_or(0);
                    let cc = rest
                        .get(1)
                        .map(|o| self.value_lane(w, lane, o))
                        .unwrap_or(0);
                    (a, vec![(d, Access::Atom { op: aop, b, c: cc })])
                }
            };
            let addr = addr_op.map(|o| self.value_lane(w, lane, o)).unwrap_or(0);
            let host = self.warps[w].host;
            let (shared, addr, shared_cta) = if self.kernel.is_some() {
                self.locate(w, space, addr)
                    .map_err(|m| format!("`{}` (lane {lane}): {m}", code.inst.text()))?
            } else {
                (
                    addr_op.is_some_and(|a| self.is_shared(w, space, a)),
                    addr,
                    None,
                )
            };
            if host && shared {
                return Err(format!(
                    "`{}`: a host thread has no shared memory (global addresses only)",
                    code.inst.text()
                ));
            }
            for (k, (dst, mut acc)) in accs.into_iter().enumerate() {
                // A host's caches are coherent: its loads read memory.
                if host {
                    if let Access::Load { strong } = &mut acc {
                        *strong = true;
                    }
                }
                out.push(Txn {
                    sm: self.warps[w].cta,
                    warp: w,
                    lane: lane as u8,
                    dst,
                    addr: addr.wrapping_add(k as u64 * elem),
                    shared,
                    shared_cta,
                    acc,
                    ty,
                    line: code.inst.line,
                    group: None,
                });
            }
        }
        Ok(out)
    }

    fn exec_local(&mut self, w: usize, code: &Code) {
        let opc = code.inst.opcode.clone();
        let head = opc.split('.').next().unwrap_or("");
        if head == "bra" {
            let target =
                crate::schedule::branch_target(code, &self.entries[self.warps[w].entry].labels);
            match target {
                Some(t) => {
                    let taken = self.warps[w].exec;
                    self.warps[w].issued += 1;
                    self.last_progress = self.now;
                    if code.if_converted && self.opts.sm_timing.is_some() {
                        // Predicated by `ptxas`: the warp runs through the
                        // block, the lanes that branched with their guard
                        // false; no divergence.
                        self.warps[w].pred_off = Some((t, taken));
                        self.step_lanes(w, 0, t);
                    } else {
                        self.step_lanes(w, taken, t);
                    }
                }
                None => self.fail(w, "bra: unknown label".into()),
            }
            return;
        }
        let wp = &self.warps[w];
        if let Some(a) = self.alu[wp.entry].get(wp.pc).copied().flatten() {
            self.exec_alu(w, code, &a);
            self.advance(w);
            return;
        }
        if let Err(m) = self.exec_warp_op(w, code) {
            self.fail(w, m);
            return;
        }
        self.advance(w);
    }

    /// An operand resolved once per instruction: a register's index, or a
    /// value the same in every lane; `None`: per lane (special registers).
    fn resolve(&self, w: usize, o: &Operand) -> Option<Src> {
        let regs = &self.entries[self.warps[w].entry].regs;
        match o {
            Operand::Imm(i) => Some(Src::Val(*i as u64)),
            Operand::Float { bits, .. } => Some(Src::Val(*bits)),
            Operand::Reg(r) => match regs.get(r) {
                Some(&k) => Some(Src::Reg(k)),
                None if self.syms.addr(r).is_some() || r.parse::<i64>().is_ok() => {
                    Some(Src::Val(self.sym_or_reg(w, 0, r)))
                }
                None => None,
            },
            Operand::NotPred(p) => regs.get(p).map(|&k| Src::Not(k)),
            _ => None,
        }
    }

    fn exec_alu(&mut self, w: usize, code: &Code, a: &crate::alu::Alu) {
        let ops = &code.inst.operands;
        let mut m = self.warps[w].exec;
        let mut src = [0u64; 4];
        // The fast path: registers and constants in, a register out.
        let mut resolved: [Option<Src>; 4] = [None; 4];
        let n = (ops.len() - 1).min(4);
        for (k, o) in ops[1..=n].iter().enumerate() {
            resolved[k] = self.resolve(w, o);
        }
        let srcs = &resolved[..n];
        let dst = match &ops[0] {
            Operand::Reg(d) => self.entries[self.warps[w].entry].regs.get(d).copied(),
            _ => None,
        };
        if let (Some(d), true) = (dst, srcs.iter().all(Option::is_some)) {
            let wp = &mut self.warps[w];
            wp.written[d] |= m & 1 != 0;
            while m != 0 {
                let l = m.trailing_zeros() as usize;
                m &= m - 1;
                for (k, x) in srcs.iter().enumerate() {
                    src[k] = match x {
                        Some(Src::Reg(r)) => wp.regs[r * LANES + l],
                        Some(Src::Not(r)) => (wp.regs[r * LANES + l] & 1 == 0) as u64,
                        Some(Src::Val(v)) => *v,
                        None => 0,
                    };
                }
                wp.regs[d * LANES + l] = crate::alu::eval(a, &src[..a.srcs]);
            }
            return;
        }
        while m != 0 {
            let l = m.trailing_zeros() as usize;
            m &= m - 1;
            for (k, o) in ops[1..].iter().enumerate().take(4) {
                src[k] = self.value_lane(w, l, o);
            }
            match (&ops[0], ops.get(1)) {
                // mov.b64 d, {lo, hi}: pack.
                (Operand::Reg(d), Some(Operand::Vector(v))) => {
                    let bits = 64 / v.len().max(1) as u32;
                    let mut x = 0u64;
                    for (k, r) in v.iter().enumerate() {
                        let e = self.sym_or_reg(w, l, r) & ((1u64 << bits) - 1);
                        x |= e << (bits * k as u32);
                    }
                    let d = d.clone();
                    self.set_reg_lane(w, l, &d, x);
                }
                // mov.b64 {lo, hi}, s: unpack.
                (Operand::Vector(v), Some(o)) => {
                    let x = self.value_lane(w, l, o);
                    let bits = 64 / v.len().max(1) as u32;
                    for (k, r) in v.clone().iter().enumerate() {
                        let e = (x >> (bits * k as u32)) & ((1u64 << bits) - 1);
                        self.set_reg_lane(w, l, r, e);
                    }
                }
                (Operand::Reg(d), _) => {
                    let v = crate::alu::eval(a, &src[..a.srcs]);
                    let d = d.clone();
                    self.set_reg_lane(w, l, &d, v);
                }
                _ => {}
            }
        }
    }

    /// Warp-level instructions over the executing lanes (`crate::warp_ops`).
    fn exec_warp_op(&mut self, w: usize, code: &Code) -> Result<(), String> {
        let exec = self.warps[w].exec;
        let ops = &code.inst.operands;
        let lanes: Vec<usize> = (0..LANES).filter(|l| exec & (1 << l) != 0).collect();
        let vals = |k: usize| -> [u64; LANES] {
            let mut v = [0u64; LANES];
            if let Some(o) = ops.get(k) {
                for &l in &lanes {
                    v[l] = self.value_lane(w, l, o);
                }
            }
            v
        };
        let live = self.warps[w].lanes & !self.warps[w].exited;
        let writes = crate::warp_ops::execute(&code.inst, exec, live, &vals)?;
        for (lane, reg, v) in writes {
            self.set_reg_lane(w, lane, &reg, v);
        }
        Ok(())
    }
}

/// Check a parsed program without running it: its lowering, the layout of
/// its variables and every name its instructions use (the errors
/// [`Machine::new`] would return, located).
pub fn check_program(prog: &Program) -> Result<(), PtxError> {
    ptx_front::lower_program(prog)?;
    let syms = symbols::layout(prog, exec_config().mbarrier.entries)?;
    crate::names::check(prog, &syms)
}

/// Parse and run a program file's text. Errors (parse, lowering) are located.
pub fn run_source(file: &str, src: &str, opts: RunOptions) -> Result<RunResult, PtxError> {
    let prog = ptx_front::parse(file, src)?;
    run_program(&prog, opts)
}

/// Run a parsed program.
pub fn run_program(prog: &Program, opts: RunOptions) -> Result<RunResult, PtxError> {
    Ok(Machine::new(prog, opts)?.run())
}

/// [`run_program`], calling `progress(cycle)` every 2^16 cycles.
pub fn run_program_with_progress(
    prog: &Program,
    opts: RunOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<RunResult, PtxError> {
    Ok(Machine::new(prog, opts)?.run_with_progress(progress))
}

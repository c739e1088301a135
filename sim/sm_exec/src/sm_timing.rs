//! SM timing presets (`membar run --preset h100|h200`): the issue and
//! latency model the executor applies around the unit models, so that a
//! kernel's time between synchronisation points, and the waits at them, can
//! be compared with the H100's (`membar calibrate --kernels`,
//! `docs/results/calibration_kernels.md`).
//!
//! Without a preset the executor keeps its functional timing (every warp
//! issues one op per cycle, memory latencies random in wide ranges: the
//! litmus tests explore orders). With one:
//!
//! - **Issue.** Each SM has `schedulers` warp schedulers; warp slot `w`
//!   belongs to scheduler `w % schedulers`, which issues at most one
//!   instruction per cycle. A warp issues in order, one instruction at a
//!   time; after an issue it waits `issue_*` cycles by the instruction's
//!   class before its next one.
//! - **Dependencies.** A per-warp register scoreboard: an instruction waits
//!   until every register it reads is ready. Arithmetic results are ready
//!   `alu_latency` cycles after issue, warp-level results (`shfl`, `vote`,
//!   `redux`, `match`) `warp_op_latency`, clock reads `clock_latency`;
//!   loads when the memory system returns them (deterministic latencies
//!   below).
//! - **Deferred blocking** (`BAR.SYNC.DEFER_BLOCKING`, calibration §1.3):
//!   a warp that issued `bar.sync` runs on through arithmetic, warp-level
//!   and clock instructions; it blocks at its first memory, barrier or other
//!   unit instruction (or one that reads a `bar.red` result) until the
//!   release reaches it.
//! - **Release sequencer** (§1.1, §1.3 fan-out): the named-barrier unit
//!   releases 2 cycles after the last arrival (its pipeline: the arrival is
//!   checked in the next cycle, its release register pulses in the one
//!   after, `spec/bar_unit.md` B7); the release reaches the
//!   first waiter `release_imm` cycles later (a count given as an immediate
//!   or no count) or `release_reg` (a count in a register), and each
//!   further waiter of the same release `fanout_eighths` / 8 cycles after the
//!   one before.
//!
//! - **`WARPSYNC` before a barrier** (`crate::warpsync`): `ptxas` puts a
//!   `WARPSYNC.ALL` before the first barrier after a branch on a
//!   thread-dependent value it cannot prove the warp converged after;
//!   such a barrier issues `warpsync` cycles later than `issue_bar` /
//!   `issue_bar_arrive`. A named barrier with one register operand in the
//!   SASS (`crate::schedule::immediate_bar_operands`) takes `release_reg`.
//!
//! - **Branches and `ptxas`** (`crate::schedule`): a branch costs the warp
//!   `issue_branch` cycles, except a counted loop's back edge (`ptxas`
//!   unrolls the loop) and a forward branch over at most 5 instructions
//!   (`ptxas` predicates the block; a warp that skips it issues the block
//!   with its guard false, and a guarded-off load still holds its
//!   destination `shared_latency` cycles). In a loop `ptxas` unrolls
//!   fully, what the body computes from the loop counter alone is a
//!   constant and costs nothing (`folded_in_unrolled_loops`). A device
//!   function's call is inlined (`ptx_front::inline`); its `ret`, a branch
//!   to the call's end, costs `issue_return` (the call and the return).
//! - **mbarrier path:** a `test_wait` poll holds the SM's mbarrier path
//!   `test_wait_occupancy` cycles; answers come back `mbarrier_latency`
//!   after the unit's, at most one per `mb_return_interval`; a completed
//!   phase wakes a suspended `try_wait` no earlier than
//!   `try_wait_first_check` cycles into its suspension.
//! - **`test_wait` spins** (the SM's poll timer): a poll that finds its
//!   phase complete answers on the return path. A spin's first poll that
//!   finds it incomplete is parked; the SM polls the unit again for it
//!   `test_wait_first_check` cycles later (taking turns with the warps'
//!   ops at the port) and that answer reaches the warp `test_wait_answer`
//!   cycles after it. A repeat poll (after a "not done") answers "not
//!   done" after `test_wait_fail`, "done" after `test_wait_answer`.
//! - **Partial-warp polls**: a `test_wait` or `try_wait` of a warp with
//!   fewer than 32 active lanes is answered on the same poll timer with its
//!   own figures (`partial_warp_first_check`, `partial_warp_try_wait_extra`,
//!   `partial_warp_fail`):
//!   its `try_wait` is sent to the unit as a `test_wait`, never suspended,
//!   and a completion does not wake it.
//!
//! Every constant names its source: `data/calibration/h100_micro.csv` (our
//! own measurements, `kernels/micro/h100_latency.cu`) or a section of the
//! H100 sync calibration (`data/calibration/h100_sync_*.csv`).

use crate::memory::MemTiming;

/// The issue and latency model of one GPU (all in SM cycles).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SmTiming {
    /// `h100`, `h200`.
    pub name: &'static str,
    /// Warp schedulers per SM (one issue per cycle each).
    pub schedulers: u32,
    /// Dependent arithmetic: IMAD chain, 130 cycles / 32 (h100_micro.csv `imad_x32`).
    pub alu_latency: u64,
    /// The high half of a 64-bit add or subtract of two registers
    /// (`crate::schedule::is_add64`): two dependent SASS instructions, the
    /// high one taking the low one's carry. An instruction that needs the
    /// whole value (an address, a compare) waits this long; 64-bit
    /// arithmetic and logic go on with the low half
    /// (`crate::schedule::halves`). `kernels/micro/h100_ldgsts_probe.cu`
    /// (`ldgsts_probe` rows of h100_micro.csv): a `cp.async` + commit +
    /// `st.shared` whose address is one `add.s64` of a register offset made
    /// right before it costs 25 cycles between two clock reads, 15 with its
    /// address ready (13 in an earlier build of the file); the offset's
    /// conversion is one of the steps. `h100_alu64.cu`: 16 dependent 64-bit
    /// (add; xor) pairs take 164 cycles, 32-bit ones 158.
    pub add64_latency: u64,
    /// Clock read after clock read: 2 (h100_micro.csv `clock_after_clock`).
    pub clock_latency: u64,
    /// Dependent `shfl.sync`: 754 / 32 (h100_micro.csv `shfl_bfly_x32`).
    pub warp_op_latency: u64,
    /// Dependent `redux.sync` (`REDUX` into a uniform register, then back):
    /// 1404 cycles / 32 (`kernels/micro/h100_warp_ops.cu`, `redux_add_x32`;
    /// the `shfl` chain there is 754, as in h100_micro.csv).
    pub redux_latency: u64,
    /// Cycles a warp waits after issuing an arithmetic, warp-level or clock instruction.
    pub issue_alu: u64,
    /// ... a branch (`bra`, taken or not): the warp fetches nothing past
    /// a branch until it resolves. 16 branches in a row cost 177 cycles
    /// (`kernels/micro/h100_branch.cu`, `setp_bra_taken_x16`: 11 each); not
    /// taken, each with 6 dependent IMADs after it, 649 (24 of each 40.5
    /// are the IMADs).
    pub issue_branch: u64,
    /// ... an inlined device function's `ret` (`ptx_front::inline` makes
    /// it a branch to the end of the call; the call itself leaves nothing):
    /// a call and its return, `CALL.REL.NOINC` … `RET.REL.NODEC`, take 61
    /// cycles in a uniform warp (`kernels/micro/h100_calls.cu`, `calls`
    /// rows of h100_micro.csv: 16 dependent calls of `x * 3 + 1` in 994
    /// cycles, the same steps inlined in 12); the executor charges the pair
    /// here, less what it charges the call sequence's moves and the body.
    pub issue_return: u64,
    /// A warp whose lanes went different ways at a branch waits this long
    /// when they rejoin (`BSYNC`): 16 blocks entered by lane 0 only cost
    /// 2242 cycles, by every lane 1687 (`kernels/micro/h100_diverge.cu`:
    /// 34.7 a block).
    pub reconverge: u64,
    /// ... a memory instruction: `st.shared` then a clock read 3 cycles
    /// later (h100_micro.csv `st_shared_issue`).
    pub issue_mem: u64,
    /// ... a blocking `bar.sync` / `bar.red`: the last arriver's own cost
    /// without a `WARPSYNC` in front, 2 cycles between two clock reads
    /// (sync §1: the clock read right after a `BAR` issues at once, +2
    /// alone), less the first clock read's own issue cycle (`issue_alu`),
    /// which the executor charges to that read: 1. §1.3's last arriver,
    /// `WARPSYNC; BAR`, is 7: `warpsync` more. (Until 2026-11-29 every
    /// barrier cost §1.3's figure, 6 here, whether `ptxas` put a
    /// `WARPSYNC` before it or not; 7 before that counted the clock
    /// read's cycle twice.)
    pub issue_bar: u64,
    /// ... `bar.arrive` without a `WARPSYNC`: 12 between clock reads for
    /// §1.3's last arriver (`WARPSYNC; BAR.ARV`), less the `WARPSYNC` and
    /// the clock read's issue cycle: 6. k3's consumers' `BAR.ARV 0x4,
    /// 0xc0; STS` is 8 between its clock reads, `WARPSYNC; BAR.ARV 0x3,
    /// 0xc0; STS` 13 (`kernels/sass/k3_named_barrier_ws_prof.sass`).
    pub issue_bar_arrive: u64,
    /// ... more for a barrier `ptxas` puts a `WARPSYNC.ALL` in front of
    /// (`crate::warpsync`): 5 (sync §1: the clock read after a `BAR`, +2
    /// alone and +7 after a `WARPSYNC`; k3's prologue arrives above, 13
    /// against 8).
    pub warpsync: u64,
    /// Release to the first waiter, immediate or no count: §1.3 `st.shared`
    /// row, 21 cycles from the last arriver's clock read, less the
    /// executor's own path (arrive issue, the unit's 2 cycles from the
    /// arrival to its release, probe, clock: 7 cycles; 6 while the unit
    /// released in the cycle after the arrival, when this was 15).
    pub release_imm: u64,
    /// Release to the first waiter, register count: §1.3 fan-out table,
    /// 33 cycles from the last arriver's clock read, less the same path
    /// (7 cycles; was 27 with the 6-cycle path). A register barrier id
    /// takes the same path: `kernels/micro/h100_bar_operands.cu`
    /// (`bar_operands` rows of h100_micro.csv) releases 12 cycles later
    /// after a `bar.sync R, 64` as after a `bar.sync 1, R` (26 against 14
    /// from the arrival). What is a register is the SASS's operand, after
    /// `ptxas` has made constants immediates
    /// (`crate::schedule::immediate_bar_operands`).
    pub release_reg: u64,
    /// Release to the first waiter when a `bar.arrive` completed the
    /// barrier: §1.3, 31 cycles (immediate count) from the last arriver's
    /// clock read less the same path (7 cycles; was 25 with the 6-cycle
    /// path); with a register count the count path (33) is the longer and
    /// applies.
    pub release_arrive: u64,
    /// A `bar.red.popc` / `.and`/`.or` result reaches the warp this many
    /// cycles after the release (`B2R.RESULT`): the named-barrier unit's
    /// H100 preset, fitted to sync table 1.2 (`sim/bar_unit/src/config.rs`
    /// `red_popc_latency`, `red_pred_latency`), less `red_popc_release`
    /// for the popc one.
    pub red_popc_latency: u64,
    pub red_pred_latency: u64,
    /// A `bar.red.popc` releases its warps this many cycles later than a
    /// barrier without a count to sum: sync §1.4, its round trip is 26–27
    /// cycles longer than `.and`/`.or`'s at 1 to 8 warps (88 / 90 / 94 /
    /// 105 against 62 / 64 / 68 / 78; with `red_popc_latency` 36 the result
    /// comes the unit preset's 62 after the unit's release, as before), and
    /// it is the release that waits,
    /// not only the result: in k1, the last warp to reach its
    /// `__syncthreads_count` reads the clock after a `st.shared` probe 50
    /// cycles after it, where a release like `bar.sync`'s gives 22.
    pub red_popc_release: u64,
    /// Arrivals at one barrier are counted one warp per this many cycles
    /// (a reduction's: `red_arrival_interval`): the named-barrier unit's
    /// H100 preset (tables 1.1, 1.2), and `h100_micro.csv`'s `bar_arrivals`
    /// rows (per barrier, not per SM: docs/timing.md).
    pub arrival_interval: u64,
    /// ... with the thread count an immediate or absent: one warp per
    /// cycle. The register count's extra cycle per arrival is its count
    /// path (the same path makes its release 12 cycles slower, §1.3);
    /// k1's `bar.sync 0` sites (8 warps reaching the barrier one cycle
    /// apart behind their `st.shared`) wait 26–28 cycles on the H100, 33–38
    /// with 2 cycles an arrival.
    pub arrival_interval_imm: u64,
    pub red_arrival_interval: u64,
    /// Between two waiters of one release, in eighths of a cycle, within a
    /// batch of `fanout_batch` warps; each further batch comes
    /// `fanout_batch_gap` cycles after the one before. §1.3 fan-out (first
    /// waiter 33 cycles after the last arriver's clock read): 7 waiters
    /// leave over 3 cycles, 15 over 9 (0.6 a warp), 31 with their median at
    /// 42 and their last at 83: the first 16 by 42, the next 15 from 74.
    pub fanout_eighths: u64,
    pub fanout_batch: u64,
    pub fanout_batch_gap: u64,
    /// `ld.const` (constant cache, `LDC`): §1.3's "8 dependent IMADs (after
    /// an LDC)" probe, 91 cycles when the waiter completes the barrier, less
    /// its own release (12), the 8 IMADs (32) and the clock read (2).
    pub const_latency: u64,
    /// An mbarrier op's response (arrive state, `try_wait`/`test_wait`
    /// answer, a suspended `try_wait`'s wake) reaches the warp this many
    /// cycles after the unit answers: sync §2.4, the phase-reuse loop's
    /// `arrive; wait` costs 58 cycles, less the path the executor models
    /// itself: the clock read and the two ops' issue (1 + 3 + 1), the wait
    /// loop's branch (`issue_branch`, 11) and the clock read after it.
    /// (41 since the unit answers two cycles after taking an op, 2026-11-29:
    /// one cycle later than when the 42 was fitted; `test_wait_fail`,
    /// `test_wait_answer` and `partial_warp_fail` moved by one likewise.)
    pub mbarrier_latency: u64,
    /// ... a spin's repeat poll that answers false: a full warp's spin
    /// polls once per 99 cycles (`spin_period` rows of h100_micro.csv,
    /// 20 000 cycles over 203 polls), of which the loop's branch and issue
    /// are 12 in the executor.
    pub test_wait_fail: u64,
    /// A spin's first poll that finds its phase incomplete is parked: the
    /// SM polls the unit again for it this many cycles after the first
    /// answer, and that answer (done or not) reaches the warp
    /// `test_wait_answer` cycles later; so do a repeat poll's "done".
    /// `kernels/micro/h100_spin_period.cu` (`spin_period` rows, 32 lanes):
    /// the first answer comes 239–243 cycles after the spin starts and
    /// reports an arrive 139 cycles into the spin but not one 178 in.
    pub test_wait_first_check: u64,
    /// ... the answer after the check: the spin's answers report the phase
    /// as it was 61–100 cycles before they return; a full warp's fastest
    /// wake is 98–100 cycles after the arrive's clock read.
    pub test_wait_answer: u64,
    /// A suspended `try_wait` is answered as soon as its phase completes
    /// (true), or only when its suspension window (the unit's
    /// `try_wait_limit`) ends (false). The executor's SM has the unit's
    /// largest limit (4095 cycles: a full warp's `try_wait` on the H100 is
    /// suspended 4374 cycles when its phase does not complete,
    /// `kernels/micro/h100_async_wait.cu`), and §2.4's full-warp waiters
    /// leave 54–61 cycles after the arrive, so the preset keeps `true`.
    pub try_wait_early_wake: bool,
    /// ... but a suspended `try_wait` is not woken in the first this many
    /// cycles of its suspension: the one-lane probe's first check comes
    /// 184–185 cycles after its wait began (wake 197, 159, 120 cycles after
    /// arrives at wait ages 42, 81, 120, less the 55-cycle return path:
    /// `mbarrier_latency`, the wait loop's branch, the clock read;
    /// `wake_after_wait` rows of `data/calibration/h100_micro.csv`). A full
    /// warp's agrees: its `try_wait` answers an arrive 20 cycles in 261
    /// cycles after the wait starts (`spin_period,32,2` rows; the model
    /// 253). A partial warp's `try_wait` is not suspended
    /// (`partial_warp_first_check`). §2.4's fan-out waiters are older.
    pub try_wait_first_check: u64,
    /// A poll by a partial warp (fewer than 32 active lanes: an
    /// `if (lane == 0)` waiter, k4's producer) is answered on the SM's poll
    /// timer, its `try_wait` too: no suspension, and a completion does not
    /// wake it (`kernels/micro/h100_spin_period.cu`: the `spin_period` rows
    /// of `data/calibration/h100_micro.csv` with lanes = 1, and the
    /// `spin_lanes` rows: 1 to 31 lanes on the 150-cycle grid, 32 not). Its
    /// first poll on an incomplete phase is parked this many cycles (a full
    /// warp's: `test_wait_first_check`): one lane's `test_wait` spin's
    /// first answer comes 255–259 cycles after the spin starts (1–16 lanes
    /// alike; 31 lanes 294), a full warp's 239–243.
    pub partial_warp_first_check: u64,
    /// ... and a partial warp's `try_wait` this many more: its first answer
    /// comes 277–282 cycles after the spin starts.
    pub partial_warp_try_wait_extra: u64,
    /// ... a partial warp's repeat poll answers "not done" after this (a
    /// full warp's: `test_wait_fail`): one answer per 150 cycles,
    /// `test_wait` and `try_wait` alike, of which the loop's branch and
    /// issue are 12 in the executor.
    pub partial_warp_fail: u64,
    /// mbarrier responses of one SM leave the unit at most one per this
    /// many cycles: §2.4 wake fan-out, 31 `try_wait` warps leave over 84
    /// cycles after the first (2.8 per warp).
    pub mb_return_interval: u64,
    /// A `test_wait` poll holds the SM's mbarrier path this many cycles:
    /// no other mbarrier op of the SM is taken meanwhile. k warps polling
    /// an incomplete phase get one answer per 6.1 cycles between them from
    /// 8 warps up (32 warps: 194 cycles per poll each, 24: 146, 16: 99;
    /// `kernels/micro/h100_async_wait.cu`, `test_wait_poll_cycles` rows of
    /// `data/calibration/h100_micro.csv`).
    pub test_wait_occupancy: u64,
    /// Shared-memory load: 934 / 32 dependent `ld.shared` less the 4-cycle
    /// address arithmetic (h100_micro.csv `ld_shared_chase_x32`).
    pub shared_latency: u64,
    /// A load of another CTA's shared memory (distributed shared memory,
    /// `mapa` and a generic or `shared::cluster` load): a dependent chain
    /// of such loads takes 186 cycles a load on the H100, of the own CTA's
    /// `ld.shared` 23.9 (sync calibration §3.2: `LD.E` through the shared
    /// window); the shared latency plus the difference.
    pub dsmem_latency: u64,
    /// A CTA's cluster-barrier arrival reaches the cluster barrier this many
    /// cycles after its last warp arrives: a relaxed `barrier.cluster.arrive;
    /// barrier.cluster.wait` round trip of 4 CTAs (one warp each) takes 80
    /// cycles on the H100 (§3.1; 62–63 for 1–2 CTAs, 80–84 for 4–16, which
    /// the model does not distinguish), less the executor's own path.
    pub cluster_arrive_latency: u64,
    /// Shared-memory bank conflicts: a warp's shared access takes as many
    /// wavefronts as the most distinct 4-byte words in one of the 32 banks;
    /// each wavefront beyond the first adds this many eighths of a cycle to
    /// its latency, and the scheduler's path to the shared memory passes one
    /// wavefront per this many eighths. `kernels/micro/h100_smem_banks.cu`
    /// (`smem_banks` rows of h100_micro.csv): 16 dependent `ld.shared` take
    /// 558 cycles at a 1-word stride, 588 / 648 / 768 / 1008 / 1488 at 2 / 4
    /// / 8 / 16 / 32 words (2- to 32-way): 1.875 cycles a wavefront; 16
    /// independent ones of one warp at 8 / 32 words take 264 / 984 cycles.
    pub shared_wavefront_eighths: u64,
    /// ... and the SM's shared memory takes one wavefront per this many
    /// cycles, from all its schedulers: 4 warps' 16 independent loads at
    /// 8 / 32 words (512 / 2048 wavefronts) take 500 / 1940 cycles.
    pub sm_shared_wavefront: u64,
    /// Global load served by L2. Measured on the device's H200
    /// (`kernels/micro/h100_l2_stream.cu`, the `l2_stream` rows of
    /// h100_micro.csv): one warp's single coalesced load of a line in L2,
    /// used and followed by a clock read, takes 258–304 cycles between the
    /// clock reads (median 279), a chase of 16 dependent `ld.global.cg`
    /// 275–282 cycles a hop over 64 KB to 64 MB. The executor's own path
    /// around such a load (issue, the membar unit's transaction pipeline,
    /// the add, the clock reads) is 34 cycles, so the H200 preset's L2 is
    /// 245, and the H100's 245 · 300 / 260 = 283 (the presets relate the two
    /// memory sides by 300 / 260, `SmTiming::h200`, from the fence
    /// calibration). The H100 agrees where it loads one line at a time:
    /// §1.3's `ld.volatile.global` X rows (293–310 cycles with the branch
    /// and the clock reads) and k3's producers (1,530 cycles a tile for 4
    /// rounds of loads). Its own chase (`ld_global_cg_chase_x16`, 5942 / 16
    /// = 371 a hop) does not, and is not explained.
    pub l2_latency: u64,
    /// Global load served by the SM's L1 (a line an L1-cached load brought
    /// in): 803 / 16 dependent `ld.global.ca` less 8 of address arithmetic
    /// (h100_micro.csv `ld_global_ca_hot_chase_x16`).
    pub l1_hit_latency: u64,
    /// `cp.async` (LDGSTS) source read of a line in the SM's L1: sync §4.2,
    /// a hot `.ca` group completes ≈ 150 cycles after its last issue, less
    /// the shared write.
    pub ldgsts_l1_latency: u64,
    /// ... of a line in L2: §4.2, a hot `.cg` group completes ≈ 333 cycles
    /// after its last issue, less the shared write.
    pub ldgsts_l2_latency: u64,
    /// Global read of a line neither cache holds (DRAM): sync §4.2, the
    /// first cold `cp.async.cg` group completes 912 cycles after the first
    /// issue, 48 of them issue and 25 the shared write.
    pub dram_latency: u64,
    /// Store buffer to L2 (a store's visibility): 367, the H100's own
    /// `ld.global.cg` chase (5942 / 16 less 4), with which the kernels' and
    /// the tables' store and fence rows were calibrated.
    pub store_drain: u64,
    /// A GPU-scope fence's barrier (`membar.gl`, `fence.sc.gpu`, and the
    /// fences of `.release`/`.acquire` at GPU or cluster scope): the
    /// BARRIER's acknowledgement, the memory side of the fence. As the unit
    /// presets fit it from the fence calibration: `gl_bar_latency` plus the
    /// unit's 8-cycle pipeline, 455 + 8 on the H100 (`configs/h100.yaml`),
    /// 51 + 8 on the H200 (`configs/h200.yaml`). Until 2026-11-28 the L2
    /// latency (a lone `membar.gl` took 290 cycles on the H100 preset).
    pub fence_gl_ack: u64,
    /// ... a system-scope fence's: 803 + 8 (H100), 799 + 8 (H200).
    pub fence_sys_ack: u64,
    /// The SM's work after a GPU-scope barrier's release (the rest of the
    /// fence sequence, `ERRBAR; CGAERRBAR; CCTL.IVALL`) before the warp
    /// goes on: with the ack above, a lone fence between two clock reads
    /// takes the fence calibration's figure, `fence.sc.gpu` 668 on the
    /// H100 and 264 on the H200 (`h100_fence.csv`, `h200_fence.csv`, t1):
    /// the same 198 on both GPUs (the unit presets' `overhead.gl` 181 and
    /// their other SM-side terms). A store before the fence: its ack and
    /// the barrier go on together, the overhead after both (H100 697, the
    /// H200 542, where the store's ack is the longer).
    pub fence_overhead_gl: u64,
    /// ... after a system-scope one's: `fence.sc.sys` 1403 on the H100,
    /// 1012 on the H200 (the unit presets' `overhead.sys` 568 and 181).
    pub fence_overhead_sys: u64,
    /// The SM's membar unit asks for and waits for the acknowledgement of a
    /// GPU-scope barrier too (`gl_bar_ack` of the unit, as the fence
    /// calibration's `configs/h100.yaml` and `configs/h200.yaml` have it):
    /// a release fence (`fence.release.gpu`, `MEMBAR.ALL.GPU`: 666 cycles
    /// alone on the H100, 262 on the H200) then waits for its barrier as
    /// `membar.gl` does. Without it the executor released it at once (6
    /// cycles).
    pub gl_bar_ack: bool,
    /// Bulk copy: issue → source read from global memory (367, as
    /// `store_drain`); from shared memory (the shared latency).
    pub copy_read: u64,
    /// ... source read → written to shared memory (the shared latency).
    pub copy_write: u64,
    /// ... source read → written to global memory and acknowledged (a bulk
    /// store), beside its size term: `kernels/micro/h100_bulk_store.cu`
    /// (`bulk_store` rows of h100_micro.csv), a store completes 89 / 185 /
    /// 569 cycles after its issue begins for 1 / 4 / 16 KB, 32 bytes a
    /// cycle; 185 − 128 for the 4 KB, less the shared read (25) and the
    /// clock reads around the issue.
    pub copy_write_global: u64,
    /// ... the copy engine writes global memory 32 bytes a cycle (the same
    /// rows: 16 KB take 384 cycles more than 4 KB).
    pub store_bytes_per_cycle: u64,
    /// Cycles a warp waits after issuing a bulk copy (`UBLKCP`): k4's
    /// `async_issue` sites, 108 and 103 cycles including the 7-cycle
    /// `st.shared` probe and clock read around them.
    pub issue_bulk_copy: u64,
    /// ... after `cp.async` (LDGSTS): sync §4.2, 32 `LDGSTS` and 4 commits
    /// issue in 192 cycles.
    pub issue_ldgsts: u64,
    /// ... after `fence.proxy.async`: k4's fence sites, 14 cycles between
    /// the clock reads, less the executor's 4 for the `st.shared` probe and
    /// the clock read (7 before 2026-11-28: the probe's H100 cost, not the
    /// executor's, was taken off, and the model's site was 11).
    pub issue_proxy_fence: u64,
    /// Warps of one CTA start within this many cycles of each other.
    pub start_skew: u64,
}

impl SmTiming {
    /// NVIDIA H100 80GB HBM3 at 1980 MHz.
    pub fn h100() -> SmTiming {
        SmTiming {
            name: "h100",
            schedulers: 4,
            alu_latency: 4,
            add64_latency: 8,
            clock_latency: 2,
            warp_op_latency: 24,
            redux_latency: 44,
            issue_alu: 1,
            issue_mem: 3,
            issue_branch: 11,
            issue_return: 44,
            reconverge: 35,
            issue_bar: 1,
            issue_bar_arrive: 6,
            warpsync: 5,
            release_imm: 14,
            release_reg: 26,
            release_arrive: 24,
            fanout_eighths: 5,
            fanout_batch: 16,
            fanout_batch_gap: 41,
            red_popc_latency: 36,
            red_pred_latency: 36,
            red_popc_release: 26,
            arrival_interval: 2,
            arrival_interval_imm: 1,
            red_arrival_interval: 3,
            const_latency: 45,
            mbarrier_latency: 41,
            test_wait_fail: 86,
            test_wait_first_check: 135,
            test_wait_answer: 79,
            mb_return_interval: 3,
            test_wait_occupancy: 6,
            try_wait_early_wake: true,
            try_wait_first_check: 185,
            partial_warp_first_check: 151,
            partial_warp_try_wait_extra: 22,
            partial_warp_fail: 137,
            shared_latency: 25,
            dsmem_latency: 187,
            cluster_arrive_latency: 70,
            shared_wavefront_eighths: 15,
            sm_shared_wavefront: 1,
            l2_latency: 283,
            l1_hit_latency: 42,
            dram_latency: 840,
            ldgsts_l1_latency: 125,
            ldgsts_l2_latency: 308,
            store_drain: 367,
            fence_gl_ack: 463,
            fence_sys_ack: 811,
            fence_overhead_gl: 198,
            fence_overhead_sys: 585,
            gl_bar_ack: true,
            copy_read: 367,
            copy_write: 25,
            copy_write_global: 35,
            store_bytes_per_cycle: 32,
            issue_bulk_copy: 100,
            issue_ldgsts: 6,
            issue_proxy_fence: 10,
            start_skew: 8,
        }
    }

    /// NVIDIA H200: the H100's SM (same issue, arithmetic, shared-memory and
    /// barrier figures: the same GH100 SM at the same 1980 MHz clock); only
    /// the memory side differs. The fence calibration's presets give the
    /// L2 transaction latency as 260 cycles on the H200 (`configs/h200.yaml`
    /// `mmu.txn_latency`) against 200..400, midpoint 300, on the H100
    /// (`configs/h100.yaml`); the global-memory latencies scale by 260/300.
    pub fn h200() -> SmTiming {
        let h = SmTiming::h100();
        let scale = |x: u64| (x * 260 + 150) / 300;
        SmTiming {
            name: "h200",
            l2_latency: scale(h.l2_latency),
            dram_latency: scale(h.dram_latency),
            ldgsts_l2_latency: scale(h.ldgsts_l2_latency),
            store_drain: scale(h.store_drain),
            // The H200's own fence measurements, not a scaling: its GPU
            // fence is 264 cycles, the H100's 668.
            fence_gl_ack: 59,
            fence_sys_ack: 807,
            fence_overhead_sys: 198,
            copy_read: scale(h.copy_read),
            copy_write_global: scale(h.copy_write_global),
            ..h
        }
    }

    /// The preset called `name`.
    pub fn by_name(name: &str) -> Result<SmTiming, String> {
        match name {
            "h100" => Ok(SmTiming::h100()),
            "h200" => Ok(SmTiming::h200()),
            other => Err(format!(
                "--preset {other:?}: allowed: h100, h200 (the SM timing presets)"
            )),
        }
    }

    /// The memory system's latencies under this preset: fixed, no random spread.
    pub fn memory(&self) -> MemTiming {
        let one = |x: u64| (x, x);
        MemTiming {
            store_drain: one(self.store_drain),
            l2: one(self.l2_latency),
            l1: one(self.shared_latency),
            dsmem: one(self.dsmem_latency),
            bar_ack: one(self.fence_gl_ack),
            bar_ack_sys: one(self.fence_sys_ack),
            async_view: one(1),
            copy_read: one(self.copy_read),
            copy_write: one(self.copy_write),
            copy_read_shared: one(self.shared_latency),
            copy_write_global: one(self.copy_write_global),
            store_bytes_per_cycle: self.store_bytes_per_cycle,
            caches: Some(crate::memory::Caches {
                load_l1: self.l1_hit_latency,
                ldgsts_l1: self.ldgsts_l1_latency,
                ldgsts_l2: self.ldgsts_l2_latency,
                dram: self.dram_latency,
            }),
            stale_permille: 0,
            ..MemTiming::default()
        }
    }
}

/// What an instruction is, for the issue model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IssueClass {
    /// Arithmetic, logic, moves: never waits for a deferred barrier.
    Alu,
    /// A branch the SM executes (`bra`; not the back edge of a counted loop,
    /// which `ptxas` unrolls: `crate::schedule::unrolled_back_edges`).
    Branch,
    /// A clock read.
    Clock,
    /// `shfl`, `vote`, `redux`, `match`, `activemask`, `elect`, `bar.warp.sync`.
    WarpOp,
    /// Loads, stores, atomics, fences, mbarrier and async-copy operations.
    Mem,
    /// `bar.sync`, `bar.red`, `barrier.cluster.*`.
    Bar,
    /// `bar.arrive`.
    BarArrive,
    /// `cp.async.bulk` (a bulk copy's issue).
    BulkCopy,
    /// `cp.async.{ca,cg}` (LDGSTS).
    Ldgsts,
    /// `fence.proxy.async`.
    ProxyFence,
}

impl IssueClass {
    /// Runs on past a deferred `bar.sync` (does not depend on the barrier).
    pub fn runs_past_barrier(self) -> bool {
        matches!(
            self,
            IssueClass::Alu | IssueClass::Branch | IssueClass::Clock | IssueClass::WarpOp
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h200_differs_from_h100_only_on_the_memory_side() {
        let (a, b) = (SmTiming::h100(), SmTiming::h200());
        // The SM side is the H100's: equal once the memory side is copied over.
        let same_memory = SmTiming {
            name: "h100",
            l2_latency: a.l2_latency,
            dram_latency: a.dram_latency,
            ldgsts_l2_latency: a.ldgsts_l2_latency,
            store_drain: a.store_drain,
            copy_read: a.copy_read,
            copy_write_global: a.copy_write_global,
            fence_gl_ack: a.fence_gl_ack,
            fence_sys_ack: a.fence_sys_ack,
            fence_overhead_sys: a.fence_overhead_sys,
            ..b.clone()
        };
        assert_eq!(same_memory, a);
        assert_eq!(b.l2_latency, (a.l2_latency * 260 + 150) / 300);
        assert!(SmTiming::by_name("h300")
            .unwrap_err()
            .contains("h100, h200"));
    }
}

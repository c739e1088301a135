//! `sm-exec`: runs a PTX program file (`ptx-front`) cycle by cycle on the
//! unit reference models — `membar_unit` (MEMBAR / fences and the
//! LD/ST/ATOM/RED stream), `bar_unit` and `cluster_barrier`, `mbarrier_unit`
//! and `async_groups` — with a memory system that stores values and is as
//! weak as the PTX memory model allows between SMs (`docs/memory_model.md`),
//! so that a missing fence really produces a stale read. Litmus tests
//! (`litmus/`, `docs/litmus.md`) and per-warp traces (VCD, Chrome JSON).
//!
//! | file | what |
//! | --- | --- |
//! | `exec.rs` | the machine: warps, issue, the unit models, stall accounting, deadlock / cycle cap |
//! | `memory.rs` | the memory system with values: L2, per-SM L1 + store buffer, shared memory, async proxy, copy engine |
//! | `names.rs` | what each name of an instruction is (register, variable, special register), checked before the run |
//! | `symbols.rs` | the addresses of the named `.shared`/`.global`/`.const` variables, the mbarrier window |
//! | `alu.rs` | per-lane arithmetic, logic, comparison and conversion of a kernel |
//! | `warp_ops.rs` | shfl/vote/redux/match/elect/activemask/bar.warp.sync, and what a kernel's local instruction compiles to |
//! | `kernel.rs` | running an unmodified PTX module with a launch file: grid, threads, buffers, checked outputs |
//! | `kernel_names.rs` | a kernel's names: registers, variables, parameters, per-thread special registers |
//! | `launch.rs` | the launch file (grid, block, cluster, buffers, parameters, expected outputs) |
//! | `sm_timing.rs` | SM timing presets (`--preset h100\|h200`): issue model, scoreboard, load hoisting, deferred blocking, release sequencer |
//! | `schedule.rs` | what an instruction is to the issue model, and the block reordering `ptxas` does (under a preset) |
//! | `kprof.rs` | decoding the reference kernels' own clock instrumentation (`kcommon.cuh` records) |
//! | `trace.rs` | the per-warp timeline and its VCD / Chrome-trace writers |
//! | `litmus.rs` | litmus headers, many seeded runs, outcome table and verdicts |

pub mod alu;
pub mod exec;
pub mod kernel;
pub mod kernel_names;
pub mod kprof;
pub mod launch;
pub mod litmus;
pub mod memory;
pub mod names;
mod schedule;
pub mod sm_timing;
pub mod symbols;
pub mod sync_probes;
pub mod trace;
pub mod warp_ops;
mod warpsync;

pub use exec::{run_program, run_source, Outcome, RunOptions, RunResult, WarpResult};

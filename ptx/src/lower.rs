//! The lowering table: what an sm_90 SM does for each synchronisation and
//! memory instruction form, as measured (`data/calibration/README.md`,
//! `data/calibration/sync/README.md`) — ONE table, [`TABLE`].
//!
//! Each row lists the canonical forms it covers (see
//! [`crate::parser::classify`]), the SASS ptxas emitted, the lowered ops (plain
//! data per target unit), its source, and a note where the measurement and the
//! PTX text disagree: the lowering follows the measurement for timing and the
//! text for semantics, and the note says so.

use crate::error::{PtxError, Result};
use crate::parser::{Inst, Operand};
use crate::program::Program;
use std::fmt;

/// `membar_unit` `req_level`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Cta,
    Vc,
    Gl,
    Sys,
}

/// `membar_unit` `req_ivall` (fused invalidate).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ivall {
    None,
    /// `CCTL.D.IVALL` (L1 data cache; SASS prints `CCTL.IVALL`).
    D,
    T,
    TD,
}

/// `membar_unit` `req_op` of a transaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TxnOp {
    Ld,
    St,
    Atom,
    Red,
}

/// `bar_unit` `req_op`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BarOp {
    Sync,
    Arrive,
    RedPopc,
    RedAnd,
    RedOr,
}

/// `mbarrier_unit` `op_code` (spec/mbarrier_unit.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MbOp {
    Init,
    Inval,
    Arrive,
    ArriveDrop,
    ArriveExpectTx,
    ExpectTx,
    CompleteTx,
    TestWait,
    TryWait,
}

/// `async_groups` operations (spec/async_groups.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupOp {
    /// A bulk operation joins the warp's open group.
    Issue,
    Commit,
    /// `wait_group N`: until the group's writes are complete.
    Wait,
    /// `wait_group.read N`: until the group's sources are read.
    WaitRead,
}

/// Where an mbarrier-completed bulk copy goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyDir {
    GlobalToShared,
    SharedToCluster,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProxyKind {
    Async,
    Alias,
    Tensormap,
}

/// An argument slot of a table row: filled from the instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    /// Operand i.
    Op(u8),
    /// Operand i, or "all threads of the CTA" when absent.
    OpOrAll(u8),
    /// Operand i, or 1 when absent.
    OpOrOne(u8),
    /// Operand i if the instruction has n operands, else "all".
    OpIfN(u8, u8),
    /// The state space written in the opcode (generic if none).
    Space,
    Const(i64),
    /// All threads of the CTA (no count operand).
    All,
    Absent,
}

/// An argument of a lowered op.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    Imm(i64),
    Reg(String),
    Addr(String),
    Space(String),
    All,
    Absent,
}

/// One lowered op, per target unit. `A` = [`Slot`] in the table, [`Arg`] once lowered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lowered<A = Arg> {
    /// membar_unit request op MEMBAR.
    Membar { level: Level, ivall: Ivall },
    /// A `CCTL.IVALL` issued alone (no MEMBAR).
    Inval { ivall: Ivall },
    /// membar_unit request LD/ST/ATOM/RED: one TXN downstream.
    Txn { op: TxnOp, space: A },
    /// bar_unit request.
    Bar { op: BarOp, id: A, count: A },
    /// cluster_barrier arrive (`UCGABAR_ARV`); a release fence is a separate Membar.
    ClusterArrive,
    /// cluster_barrier wait (`UCGABAR_WAIT`).
    ClusterWait,
    /// mbarrier_unit op; `remote` = a `.shared::cluster` (rarv/ctx port) access.
    Mbarrier {
        op: MbOp,
        remote: bool,
        addr: A,
        arg: A,
        hint: A,
    },
    /// A bulk copy that completes on an mbarrier (complete_tx of `bytes`).
    AsyncCopy { dir: CopyDir, bytes: A, mbar: A },
    /// async_groups op.
    AsyncGroup { op: GroupOp, arg: A },
    /// `FENCE.VIEW.ASYNC.*` and the other proxy fences.
    ProxyFence { kind: ProxyKind },
    /// The warp exits (bar_unit EXIT, cluster barrier: counts as arrived).
    Exit,
    /// ALU or branch: no synchronisation unit involved.
    Local,
    /// Compiles to nothing (`NOP`).
    Nothing,
}

/// One row of the lowering table.
#[derive(Debug)]
pub struct Row {
    pub forms: &'static [&'static str],
    pub sass: &'static str,
    pub ops: &'static [Lowered<Slot>],
    pub source: &'static str,
    pub note: &'static str,
}

// Sources (in-repo paths and seeds).
const MAP: &str = "data/calibration/README.md §What PTX becomes (sm_90)";
const SYNC: &str = "data/calibration/sync/README.md §PTX → SASS";
const SYNC1: &str = "data/calibration/sync/README.md §1 + §PTX → SASS";
const SYNC2: &str = "data/calibration/sync/README.md §2 + §PTX → SASS";
const SYNC31: &str = "data/calibration/sync/README.md §3.1 + §PTX → SASS";
const SYNC32: &str = "data/calibration/sync/README.md §3.2 + §PTX → SASS";
const SYNC4: &str = "data/calibration/sync/README.md §4.1 + §PTX → SASS";
const SYNC5: &str = "data/calibration/sync/README.md §5 + §PTX → SASS";
const SEED1: &str = "seed 001 (PTX membar/fence), unmeasured";
const SEED4: &str = "seed 004 (Hopper mbarrier / bulk copies), unmeasured";
const MEMX: &str =
    "data/calibration/sync/README.md §PTX → SASS (st.release / ld.acquire), applied by analogy";

const CLUSTER_AS_GPU: &str = "measured: .cluster scope compiles to the GPU-scope MEMBAR (timing of MEMBAR.GL); PTX text: ordering needed only within the cluster (semantics: cluster scope)";

use Lowered as L;
use Slot::*;

const M_CTA: L<Slot> = L::Membar {
    level: Level::Cta,
    ivall: Ivall::None,
};
const M_GL: L<Slot> = L::Membar {
    level: Level::Gl,
    ivall: Ivall::None,
};
const M_GL_IV: L<Slot> = L::Membar {
    level: Level::Gl,
    ivall: Ivall::D,
};
const M_SYS: L<Slot> = L::Membar {
    level: Level::Sys,
    ivall: Ivall::None,
};
const M_SYS_IV: L<Slot> = L::Membar {
    level: Level::Sys,
    ivall: Ivall::D,
};
const IV: L<Slot> = L::Inval { ivall: Ivall::D };
const fn txn(op: TxnOp) -> L<Slot> {
    L::Txn { op, space: Space }
}
const fn mb(op: MbOp, remote: bool, addr: Slot, arg: Slot) -> L<Slot> {
    L::Mbarrier {
        op,
        remote,
        addr,
        arg,
        hint: Absent,
    }
}

/// The lowering table (sm_90, nvcc 13.0, H100/H200 measurements).
pub static TABLE: &[Row] = &[
    // ---- membar / fence (seed 001; data/calibration/README.md) ----
    Row { forms: &["fence.sc.cta", "membar.cta"], sass: "MEMBAR.SC.CTA", ops: &[M_CTA], source: MAP,
        note: "membar_unit has no SC/ALL distinction (measured 9 vs 10 cycles)" },
    Row { forms: &["fence.acq_rel.cta"], sass: "MEMBAR.ALL.CTA", ops: &[M_CTA], source: MAP, note: "" },
    Row { forms: &["fence.release.cta", "fence.acquire.cta"], sass: "(assumed) MEMBAR.ALL.CTA", ops: &[M_CTA], source: SEED1,
        note: "not in the measured map; assumed as fence.acq_rel.cta (conservative for both directions)" },
    Row { forms: &["fence.sc.gpu", "membar.gl", "fence.sc.cluster"], sass: "MEMBAR.SC.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL", ops: &[M_GL_IV], source: MAP,
        note: CLUSTER_AS_GPU },
    Row { forms: &["fence.acq_rel.gpu", "fence.acq_rel.cluster"], sass: "MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL", ops: &[M_GL_IV], source: MAP,
        note: CLUSTER_AS_GPU },
    Row { forms: &["fence.sc.sys", "membar.sys"], sass: "MEMBAR.SC.SYS; ERRBAR; CGAERRBAR; CCTL.IVALL", ops: &[M_SYS_IV], source: MAP, note: "" },
    Row { forms: &["fence.acq_rel.sys"], sass: "MEMBAR.ALL.SYS; ERRBAR; CGAERRBAR; CCTL.IVALL", ops: &[M_SYS_IV], source: MAP, note: "" },
    Row { forms: &["fence.release.gpu", "fence.release.cluster"], sass: "MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR", ops: &[M_GL], source: MAP,
        note: "release: no invalidate (measured 666 cycles); .cluster not in the map, assumed GPU scope like the other .cluster fences" },
    Row { forms: &["fence.release.sys"], sass: "MEMBAR.ALL.SYS; ERRBAR; CGAERRBAR", ops: &[M_SYS], source: MAP, note: "" },
    Row { forms: &["fence.acquire.gpu", "fence.acquire.cluster", "fence.acquire.sys"], sass: "CCTL.IVALL", ops: &[IV], source: MAP,
        note: "measured: the invalidate alone (4 cycles), no MEMBAR; membar_unit has no standalone invalidate request, so it is a separate Inval op; PTX text: an acquire fence ordering later accesses (semantics)" },
    Row { forms: &["fence.proxy.async", "fence.proxy.async.global"], sass: "MEMBAR.ALL.GPU; FENCE.VIEW.ASYNC.S", ops: &[M_GL, L::ProxyFence { kind: ProxyKind::Async }], source: MAP,
        note: "measured 550 cycles (H100), 146 (H200); .global not in the map, assumed the same" },
    Row { forms: &["fence.proxy.async.shared::cta"], sass: "MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S", ops: &[M_CTA, L::ProxyFence { kind: ProxyKind::Async }], source: SYNC5,
        note: "10 cycles with or without 4 KB of shared stores in front" },
    Row { forms: &["fence.proxy.async.shared::cluster"], sass: "(assumed) MEMBAR.ALL.GPU; FENCE.VIEW.ASYNC.S", ops: &[M_GL, L::ProxyFence { kind: ProxyKind::Async }], source: SEED1,
        note: "not measured; assumed GPU-scope MEMBAR as for other .cluster fences" },
    Row { forms: &["fence.proxy.alias"], sass: "(assumed) MEMBAR.ALL.GPU", ops: &[M_GL, L::ProxyFence { kind: ProxyKind::Alias }], source: SEED1,
        note: "not measured; PTX text: orders accesses through virtually aliased addresses; assumed a GPU-scope MEMBAR" },
    Row { forms: &["fence.proxy.tensormap::generic.release.cta"], sass: "(assumed) MEMBAR.ALL.CTA", ops: &[M_CTA, L::ProxyFence { kind: ProxyKind::Tensormap }], source: SEED1, note: "not measured" },
    Row { forms: &["fence.proxy.tensormap::generic.release.cluster", "fence.proxy.tensormap::generic.release.gpu"], sass: "(assumed) MEMBAR.ALL.GPU", ops: &[M_GL, L::ProxyFence { kind: ProxyKind::Tensormap }], source: SEED1,
        note: "not measured; .cluster assumed GPU scope" },
    Row { forms: &["fence.proxy.tensormap::generic.release.sys"], sass: "(assumed) MEMBAR.ALL.SYS", ops: &[M_SYS, L::ProxyFence { kind: ProxyKind::Tensormap }], source: SEED1, note: "not measured" },
    Row { forms: &["fence.proxy.tensormap::generic.acquire.cta", "fence.proxy.tensormap::generic.acquire.cluster", "fence.proxy.tensormap::generic.acquire.gpu", "fence.proxy.tensormap::generic.acquire.sys"],
        sass: "(assumed) proxy fence on one 128-byte tensormap", ops: &[L::ProxyFence { kind: ProxyKind::Tensormap }], source: SEED1, note: "not measured" },
    Row { forms: &["fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster"], sass: "(assumed) MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S", ops: &[M_CTA, L::ProxyFence { kind: ProxyKind::Async }], source: SEED1,
        note: "not measured; restricted to .shared::cta objects, so assumed as fence.proxy.async.shared::cta" },
    Row { forms: &["fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster"], sass: "(assumed) FENCE.VIEW.ASYNC.S", ops: &[L::ProxyFence { kind: ProxyKind::Async }], source: SEED1,
        note: "not measured; acquire side of the async→generic proxy order, no MEMBAR assumed" },
    Row { forms: &["fence.mbarrier_init.release.cluster"], sass: "NOP", ops: &[L::Nothing], source: SYNC5,
        note: "measured: compiles to NOP (2 cycles, the empty clock pair); PTX text: releases prior mbarrier.init to the cluster — the mbarrier unit's init is visible at once (semantics hold)" },
    Row { forms: &["fence.release.sync_restrict::shared::cta.cluster"], sass: "(assumed) MEMBAR.ALL.CTA", ops: &[M_CTA], source: SEED1,
        note: "not measured; only .shared::cta objects are ordered, and the CTA fence waits for shared stores (data/calibration/README.md), so a CTA-level MEMBAR is assumed" },
    Row { forms: &["fence.acquire.sync_restrict::shared::cluster.cluster"], sass: "(assumed) CCTL.IVALL", ops: &[IV], source: SEED1,
        note: "not measured; assumed like ld.acquire.cluster (LDS; CCTL.IVALL, data/calibration/sync/README.md §PTX → SASS)" },
    // ---- named barriers (seed 002; sync §1) ----
    Row { forms: &["bar.sync"], sass: "BAR.SYNC.DEFER_BLOCKING a{, b}", ops: &[L::Bar { op: BarOp::Sync, id: Op(0), count: OpOrAll(1) }], source: SYNC1,
        note: "bar.sync, barrier.sync{.aligned}, bar.cta.sync: one form; the warp blocks at the next instruction needing the release, not at the BAR (§1)" },
    Row { forms: &["bar.arrive"], sass: "BAR.ARV a, b", ops: &[L::Bar { op: BarOp::Arrive, id: Op(0), count: Op(1) }], source: SYNC, note: "" },
    Row { forms: &["bar.red.popc.u32"], sass: "BAR.RED.POPC.DEFER_BLOCKING a, b, P; B2R.RESULT R", ops: &[L::Bar { op: BarOp::RedPopc, id: Op(1), count: OpIfN(2, 4) }], source: SYNC1, note: "" },
    Row { forms: &["bar.red.and.pred"], sass: "BAR.RED.AND.DEFER_BLOCKING a, b, P; B2R.RESULT RZ, P", ops: &[L::Bar { op: BarOp::RedAnd, id: Op(1), count: OpIfN(2, 4) }], source: SYNC1, note: "" },
    Row { forms: &["bar.red.or.pred"], sass: "BAR.RED.OR.DEFER_BLOCKING a, b, P; B2R.RESULT RZ, P", ops: &[L::Bar { op: BarOp::RedOr, id: Op(1), count: OpIfN(2, 4) }], source: SYNC1, note: "" },
    // ---- cluster barrier (seed 004; sync §3.1) ----
    Row { forms: &["barrier.cluster.arrive.release"], sass: "MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; UCGABAR_ARV", ops: &[M_GL, L::ClusterArrive], source: SYNC31,
        note: "default = .release = .aligned; measured: GPU-scope MEMBAR then the relaxed arrive (timing: cost varies by machine with the MEMBAR); PTX text: release at cluster scope (semantics)" },
    Row { forms: &["barrier.cluster.arrive.relaxed"], sass: "UCGABAR_ARV", ops: &[L::ClusterArrive], source: SYNC31, note: "" },
    Row { forms: &["barrier.cluster.wait.acquire"], sass: "UCGABAR_WAIT; CCTL.IVALL", ops: &[L::ClusterWait, IV], source: SYNC31, note: "default = .acquire = .aligned" },
    Row { forms: &["barrier.cluster.arrive.release (non-cluster launch)", "barrier.cluster.arrive.relaxed (non-cluster launch)"], sass: "(run-time branch not taken)", ops: &[L::Nothing], source: SYNC31,
        note: "header without `cluster`: the c[0x0][0x140] test fails and the arrive does nothing" },
    Row { forms: &["barrier.cluster.wait.acquire (non-cluster launch)"], sass: "BAR.SYNC.DEFER_BLOCKING 0x0", ops: &[L::Bar { op: BarOp::Sync, id: Const(0), count: All }], source: SYNC31,
        note: "header without `cluster`: the wait becomes a CTA-wide bar.sync 0 with no MEMBAR (33 cycles)" },
    // ---- mbarrier (seed 004; sync §2, §3.2) ----
    Row { forms: &["mbarrier.init"], sass: "SYNCS.EXCH.64 URZ, [UR], UR", ops: &[mb(MbOp::Init, false, Op(0), Op(1))], source: SYNC5, note: "34 cycles" },
    Row { forms: &["mbarrier.inval"], sass: "SYNCS.CCTL.IV [UR]", ops: &[mb(MbOp::Inval, false, Op(0), Absent)], source: SYNC, note: "" },
    Row { forms: &["mbarrier.arrive.release.cta.shared::cta", "mbarrier.arrive.relaxed.cta.shared::cta", "mbarrier.arrive.relaxed.cluster.shared::cta",
                   "mbarrier.arrive.noComplete.release.cta.shared::cta", "mbarrier.arrive.noComplete.relaxed.cta.shared::cta"],
        sass: "SYNCS.ARRIVE.TRANS64.A1T0 R, [UR], RZ (.ART0 with a count)", ops: &[mb(MbOp::Arrive, false, Op(1), OpOrOne(2))], source: SYNC2,
        note: "measured for the default .release.cta; .relaxed assumed the same SASS; .noComplete: the count must not complete the phase (PTX text), not checked by the unit" },
    Row { forms: &["mbarrier.arrive.release.cluster.shared::cta"], sass: "(assumed) MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64.A1T0",
        ops: &[M_CTA, M_GL, mb(MbOp::Arrive, false, Op(1), OpOrOne(2))], source: SYNC32, note: "measured for the remote .release.cluster arrive; assumed the same fences for a local barrier" },
    Row { forms: &["mbarrier.arrive.relaxed.cta.shared::cluster", "mbarrier.arrive.relaxed.cluster.shared::cluster"], sass: "SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [R]",
        ops: &[mb(MbOp::Arrive, true, Op(1), OpOrOne(2))], source: SYNC32, note: "remote arrive: one-way ≈ 202 cycles" },
    Row { forms: &["mbarrier.arrive.release.cta.shared::cluster", "mbarrier.arrive.release.cluster.shared::cluster"], sass: "MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64.RED.A1T0",
        ops: &[M_CTA, M_GL, mb(MbOp::Arrive, true, Op(1), OpOrOne(2))], source: SYNC32,
        note: "measured (.cluster): both MEMBARs, ping-pong 1717 cycles; PTX text: release at the written scope (semantics); .cta scope assumed the same" },
    Row { forms: &["mbarrier.arrive.expect_tx.release.cta.shared::cta", "mbarrier.arrive.expect_tx.relaxed.cta.shared::cta", "mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta"],
        sass: "SYNCS.ARRIVE.TRANS64 R, [UR], Rtx", ops: &[mb(MbOp::ArriveExpectTx, false, Op(1), Op(2))], source: SYNC2, note: "issue 31 cycles (§2.2)" },
    Row { forms: &["mbarrier.arrive.expect_tx.release.cluster.shared::cta"], sass: "(assumed) MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64",
        ops: &[M_CTA, M_GL, mb(MbOp::ArriveExpectTx, false, Op(1), Op(2))], source: SYNC32, note: "assumed like the measured remote .release.cluster arrive" },
    Row { forms: &["mbarrier.arrive.expect_tx.relaxed.cta.shared::cluster", "mbarrier.arrive.expect_tx.relaxed.cluster.shared::cluster"], sass: "(assumed) SYNCS.ARRIVE.TRANS64.RED",
        ops: &[mb(MbOp::ArriveExpectTx, true, Op(1), Op(2))], source: SEED4, note: "not measured" },
    Row { forms: &["mbarrier.arrive.expect_tx.release.cta.shared::cluster", "mbarrier.arrive.expect_tx.release.cluster.shared::cluster"], sass: "(assumed) MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64.RED",
        ops: &[M_CTA, M_GL, mb(MbOp::ArriveExpectTx, true, Op(1), Op(2))], source: SYNC32, note: "assumed like the measured remote .release.cluster arrive" },
    Row { forms: &["mbarrier.arrive_drop.release.cta.shared::cta", "mbarrier.arrive_drop.relaxed.cta.shared::cta", "mbarrier.arrive_drop.relaxed.cluster.shared::cta",
                   "mbarrier.arrive_drop.noComplete.release.cta.shared::cta", "mbarrier.arrive_drop.noComplete.relaxed.cta.shared::cta"],
        sass: "SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0", ops: &[mb(MbOp::ArriveDrop, false, Op(1), OpOrOne(2))], source: SYNC, note: "measured for the default form" },
    Row { forms: &["mbarrier.arrive_drop.release.cluster.shared::cta"], sass: "(assumed) MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64.OPTOUT",
        ops: &[M_CTA, M_GL, mb(MbOp::ArriveDrop, false, Op(1), OpOrOne(2))], source: SYNC32, note: "assumed like the measured remote .release.cluster arrive" },
    Row { forms: &["mbarrier.arrive_drop.relaxed.cta.shared::cluster", "mbarrier.arrive_drop.relaxed.cluster.shared::cluster"], sass: "(assumed) SYNCS.ARRIVE.TRANS64.RED.OPTOUT",
        ops: &[mb(MbOp::ArriveDrop, true, Op(1), OpOrOne(2))], source: SEED4, note: "not measured" },
    Row { forms: &["mbarrier.arrive_drop.release.cta.shared::cluster", "mbarrier.arrive_drop.release.cluster.shared::cluster"], sass: "(assumed) MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; SYNCS.ARRIVE.TRANS64.RED.OPTOUT",
        ops: &[M_CTA, M_GL, mb(MbOp::ArriveDrop, true, Op(1), OpOrOne(2))], source: SYNC32, note: "assumed like the measured remote .release.cluster arrive" },
    Row { forms: &["mbarrier.arrive_drop.expect_tx.release.cta.shared::cta", "mbarrier.arrive_drop.expect_tx.relaxed.cta.shared::cta", "mbarrier.arrive_drop.expect_tx.relaxed.cluster.shared::cta"],
        sass: "(assumed) SYNCS.ARRIVE.TRANS64.RED.A0TR; SYNCS.ARRIVE.TRANS64.OPTOUT", ops: &[mb(MbOp::ExpectTx, false, Op(1), Op(2)), mb(MbOp::ArriveDrop, false, Op(1), Const(1))], source: SEED4,
        note: "not measured; mbarrier_unit has no fused drop+expect_tx op: expect_tx then arrive_drop (the same warp, back to back)" },
    Row { forms: &["mbarrier.arrive_drop.expect_tx.release.cluster.shared::cta"], sass: "(assumed) MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; …; expect_tx; arrive_drop",
        ops: &[M_CTA, M_GL, mb(MbOp::ExpectTx, false, Op(1), Op(2)), mb(MbOp::ArriveDrop, false, Op(1), Const(1))], source: SEED4, note: "not measured" },
    Row { forms: &["mbarrier.arrive_drop.expect_tx.relaxed.cta.shared::cluster", "mbarrier.arrive_drop.expect_tx.relaxed.cluster.shared::cluster"], sass: "(assumed) remote expect_tx; remote arrive_drop",
        ops: &[mb(MbOp::ExpectTx, true, Op(1), Op(2)), mb(MbOp::ArriveDrop, true, Op(1), Const(1))], source: SEED4, note: "not measured" },
    Row { forms: &["mbarrier.arrive_drop.expect_tx.release.cta.shared::cluster", "mbarrier.arrive_drop.expect_tx.release.cluster.shared::cluster"], sass: "(assumed) MEMBAR.ALL.CTA; MEMBAR.ALL.GPU; …; remote expect_tx; remote arrive_drop",
        ops: &[M_CTA, M_GL, mb(MbOp::ExpectTx, true, Op(1), Op(2)), mb(MbOp::ArriveDrop, true, Op(1), Const(1))], source: SEED4, note: "not measured" },
    Row { forms: &["mbarrier.expect_tx.relaxed.cta.shared::cta", "mbarrier.expect_tx.relaxed.cluster.shared::cta"], sass: "SYNCS.ARRIVE.TRANS64.RED.A0TR RZ, [UR], Rtx",
        ops: &[mb(MbOp::ExpectTx, false, Op(0), Op(1))], source: SYNC, note: "ptxas merged 16 expect_tx into one" },
    Row { forms: &["mbarrier.expect_tx.relaxed.cta.shared::cluster", "mbarrier.expect_tx.relaxed.cluster.shared::cluster"], sass: "(assumed) remote SYNCS.ARRIVE.TRANS64.RED.A0TR",
        ops: &[mb(MbOp::ExpectTx, true, Op(0), Op(1))], source: SEED4, note: "not measured" },
    Row { forms: &["mbarrier.complete_tx.relaxed.cta.shared::cta", "mbarrier.complete_tx.relaxed.cluster.shared::cta"], sass: "(not in the map)",
        ops: &[mb(MbOp::CompleteTx, false, Op(0), Op(1))], source: SEED4, note: "not measured; spec/mbarrier_unit.md op 6" },
    Row { forms: &["mbarrier.complete_tx.relaxed.cta.shared::cluster", "mbarrier.complete_tx.relaxed.cluster.shared::cluster"], sass: "(not in the map)",
        ops: &[mb(MbOp::CompleteTx, true, Op(0), Op(1))], source: SEED4, note: "not measured; through the complete-tx port" },
    Row { forms: &["mbarrier.test_wait.acquire.cta", "mbarrier.test_wait.relaxed.cta", "mbarrier.test_wait.relaxed.cluster",
                   "mbarrier.test_wait.parity.acquire.cta", "mbarrier.test_wait.parity.relaxed.cta", "mbarrier.test_wait.parity.relaxed.cluster"],
        sass: "SYNCS.PHASECHK.TRANS64 P, [UR], R", ops: &[mb(MbOp::TestWait, false, Op(1), Op(2))], source: SYNC2,
        note: "≈42 cycles net (§2.3); measured for the default .acquire.cta, .relaxed assumed the same" },
    Row { forms: &["mbarrier.test_wait.acquire.cluster", "mbarrier.test_wait.parity.acquire.cluster"], sass: "(assumed) SYNCS.PHASECHK.TRANS64; CCTL.IVALL",
        ops: &[mb(MbOp::TestWait, false, Op(1), Op(2)), IV], source: SEED4, note: "not measured; the invalidate assumed as for ld.acquire.cluster and barrier.cluster.wait" },
    Row { forms: &["mbarrier.try_wait.acquire.cta", "mbarrier.try_wait.relaxed.cta", "mbarrier.try_wait.relaxed.cluster",
                   "mbarrier.try_wait.parity.acquire.cta", "mbarrier.try_wait.parity.relaxed.cta", "mbarrier.try_wait.parity.relaxed.cluster"],
        sass: "SYNCS.PHASECHK.TRANS64.TRYWAIT P, [UR], R (with a hint: TRYWAIT P; @!P NANOSLEEP.SYNCS; @!P PHASECHK)",
        ops: &[L::Mbarrier { op: MbOp::TryWait, remote: false, addr: Op(1), arg: Op(2), hint: Op(3) }], source: SYNC2,
        note: "no hint: suspends ≈73 cycles net then returns false; hint h ns: ≈1.023·h up to 16 µs, then a power of two (§2.3)" },
    Row { forms: &["mbarrier.try_wait.acquire.cluster", "mbarrier.try_wait.parity.acquire.cluster"], sass: "(assumed) TRYWAIT …; CCTL.IVALL",
        ops: &[L::Mbarrier { op: MbOp::TryWait, remote: false, addr: Op(1), arg: Op(2), hint: Op(3) }, IV], source: SEED4,
        note: "not measured; the invalidate assumed as for ld.acquire.cluster and barrier.cluster.wait" },
    Row { forms: &["mbarrier.pending_count"], sass: "(ALU on the state)", ops: &[L::Local], source: SEED4, note: "reads a state token, no unit access" },
    // ---- bulk async copies and groups (seed 004; sync §2.2, §4.1) ----
    Row { forms: &["cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes"],
        sass: "@P ELECT; UBLKCP.S.G [UR], [UR], UR", ops: &[L::AsyncCopy { dir: CopyDir::GlobalToShared, bytes: Op(2), mbar: Op(3) }], source: "data/calibration/sync/README.md §2.2 + §PTX → SASS",
        note: "completion quantised in ≈174-cycle steps; ≈440 cycles from L2, ≈790 from DRAM for ≤ 4 KB; .shared::cta destination not in the map, assumed the same" },
    Row { forms: &["cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes"], sass: "(assumed) UBLKCP.S.S",
        ops: &[L::AsyncCopy { dir: CopyDir::SharedToCluster, bytes: Op(2), mbar: Op(3) }], source: SEED4, note: "not measured" },
    Row { forms: &["cp.async.bulk.global.shared::cta.bulk_group"], sass: "UBLKCP.G.S", ops: &[L::AsyncGroup { op: GroupOp::Issue, arg: Op(2) }], source: SYNC4,
        note: "drains at ≈32 B/cycle per SM" },
    Row { forms: &["cp.async.bulk.commit_group"], sass: "UTMACMDFLUSH", ops: &[L::AsyncGroup { op: GroupOp::Commit, arg: Absent }], source: SYNC4, note: "" },
    Row { forms: &["cp.async.bulk.wait_group"], sass: "DEPBAR.LE SB0, N; CCTL.IVALL", ops: &[L::AsyncGroup { op: GroupOp::Wait, arg: Op(0) }, IV], source: SYNC4,
        note: "about 1 cycle after the .read form" },
    Row { forms: &["cp.async.ca.shared.global", "cp.async.cg.shared.global"], sass: "LDGSTS.E.128 / LDGSTS.E.BYPASS.128", ops: &[L::AsyncGroup { op: GroupOp::Issue, arg: Op(2) }], source: SYNC, note: "non-bulk copy (one per lane, one issue of the warp's group); the async-group tracker counts LDGSTS groups as it counts bulk groups (a warp may use one kind)" },
    Row { forms: &["cp.async.commit_group"], sass: "LDGDEPBAR", ops: &[L::AsyncGroup { op: GroupOp::Commit, arg: Absent }], source: SYNC, note: "" },
    Row { forms: &["cp.async.wait_group"], sass: "DEPBAR.LE SB0, N", ops: &[L::AsyncGroup { op: GroupOp::Wait, arg: Op(0) }], source: SYNC, note: "until the copies of all but the N most recent groups are written" },
    Row { forms: &["cp.async.wait_all"], sass: "LDGDEPBAR; DEPBAR.LE SB0, 0x0", ops: &[L::AsyncGroup { op: GroupOp::Commit, arg: Absent }, L::AsyncGroup { op: GroupOp::Wait, arg: Const(0) }], source: SYNC, note: "" },
    Row { forms: &["cp.async.bulk.wait_group.read"], sass: "DEPBAR.LE SB0, N", ops: &[L::AsyncGroup { op: GroupOp::WaitRead, arg: Op(0) }], source: SYNC4, note: "" },
    // ---- ld / st / atom / red ----
    Row { forms: &["ld.weak", "ld.volatile", "ld.relaxed.cta", "ld.relaxed.cluster", "ld.relaxed.gpu", "ld.relaxed.sys"], sass: "LDS / LD.E / LDG (by space)",
        ops: &[txn(TxnOp::Ld)], source: SYNC32, note: "measured: ld.volatile.shared and ld.relaxed.cluster.shared::cta are plain LDS; .gpu/.sys assumed plain loads" },
    Row { forms: &["ld.acquire.cta"], sass: "(assumed) LD", ops: &[txn(TxnOp::Ld)], source: MEMX, note: "not measured; CTA scope needs no L1 invalidate (the CTA shares the L1)" },
    Row { forms: &["ld.acquire.cluster", "ld.acquire.gpu", "ld.acquire.sys"], sass: "LDS; CCTL.IVALL", ops: &[txn(TxnOp::Ld), IV], source: SYNC32,
        note: "measured for .cluster; .gpu/.sys assumed the same (fence.acquire.gpu is CCTL.IVALL alone)" },
    Row { forms: &["st.weak", "st.volatile", "st.relaxed.cta"], sass: "ST.E / STS / STG (by space)", ops: &[txn(TxnOp::St)], source: SYNC32, note: "" },
    Row { forms: &["st.relaxed.cluster", "st.relaxed.gpu", "st.relaxed.sys"], sass: "ST.E.STRONG.GPU", ops: &[txn(TxnOp::St)], source: SYNC32,
        note: "measured for .cluster (ST.E.STRONG.GPU); the strong store is one TXN for the membar unit" },
    Row { forms: &["st.release.cta"], sass: "(assumed) MEMBAR.ALL.CTA; ST", ops: &[M_CTA, txn(TxnOp::St)], source: MEMX, note: "not measured" },
    Row { forms: &["st.release.cluster", "st.release.gpu"], sass: "MEMBAR.ALL.GPU; ERRBAR; CGAERRBAR; ST.E.STRONG.GPU", ops: &[M_GL, txn(TxnOp::St)], source: SYNC32,
        note: "measured for .cluster (ping-pong 1742 cycles vs 429 relaxed): GPU-scope MEMBAR; PTX text: release at cluster scope (semantics)" },
    Row { forms: &["st.release.sys"], sass: "(assumed) MEMBAR.ALL.SYS; …; ST.E.STRONG.SYS", ops: &[M_SYS, txn(TxnOp::St)], source: MEMX, note: "not measured" },
    Row { forms: &["atom.relaxed.cta", "atom.relaxed.cluster", "atom.relaxed.gpu", "atom.relaxed.sys", "atom.acquire.cta"], sass: "(assumed) ATOM / ATOMS",
        ops: &[txn(TxnOp::Atom)], source: MEMX, note: "atom without ordering = .relaxed.gpu (PTX); not measured" },
    Row { forms: &["atom.acquire.cluster", "atom.acquire.gpu", "atom.acquire.sys"], sass: "(assumed) ATOM; CCTL.IVALL", ops: &[txn(TxnOp::Atom), IV], source: MEMX, note: "not measured" },
    Row { forms: &["atom.release.cta", "atom.acq_rel.cta"], sass: "(assumed) MEMBAR.ALL.CTA; ATOM", ops: &[M_CTA, txn(TxnOp::Atom)], source: MEMX, note: "not measured" },
    Row { forms: &["atom.release.cluster", "atom.release.gpu"], sass: "(assumed) MEMBAR.ALL.GPU; …; ATOM", ops: &[M_GL, txn(TxnOp::Atom)], source: MEMX, note: "not measured" },
    Row { forms: &["atom.release.sys"], sass: "(assumed) MEMBAR.ALL.SYS; …; ATOM", ops: &[M_SYS, txn(TxnOp::Atom)], source: MEMX, note: "not measured" },
    Row { forms: &["atom.acq_rel.cluster", "atom.acq_rel.gpu"], sass: "(assumed) MEMBAR.ALL.GPU; …; ATOM; CCTL.IVALL", ops: &[M_GL, txn(TxnOp::Atom), IV], source: MEMX, note: "not measured" },
    Row { forms: &["atom.acq_rel.sys"], sass: "(assumed) MEMBAR.ALL.SYS; …; ATOM; CCTL.IVALL", ops: &[M_SYS, txn(TxnOp::Atom), IV], source: MEMX, note: "not measured" },
    Row { forms: &["red.relaxed.cta", "red.relaxed.cluster", "red.relaxed.gpu", "red.relaxed.sys"], sass: "(assumed) RED", ops: &[txn(TxnOp::Red)], source: MEMX,
        note: "red without ordering = .relaxed.gpu (PTX); not measured" },
    Row { forms: &["red.release.cta"], sass: "(assumed) MEMBAR.ALL.CTA; RED", ops: &[M_CTA, txn(TxnOp::Red)], source: MEMX, note: "not measured" },
    Row { forms: &["red.release.cluster", "red.release.gpu"], sass: "(assumed) MEMBAR.ALL.GPU; …; RED", ops: &[M_GL, txn(TxnOp::Red)], source: MEMX, note: "not measured" },
    Row { forms: &["red.release.sys"], sass: "(assumed) MEMBAR.ALL.SYS; …; RED", ops: &[M_SYS, txn(TxnOp::Red)], source: MEMX, note: "not measured" },
    // ---- control ----
    Row { forms: &["setp", "mov", "add", "bra"], sass: "ISETP / MOV / IADD3 / BRA", ops: &[L::Local], source: "PTX ISA (no synchronisation)", note: "" },
    Row { forms: &crate::parser::ALU, sass: "IMAD / IADD3 / LOP3 / SHF / PRMT / F2I / I2F / SEL / DADD ...", ops: &[L::Local], source: "PTX ISA (no synchronisation); executed per lane by sm-exec", note: "arithmetic, logic, conversion" },
    Row { forms: &crate::parser::WARP, sass: "SHFL / VOTE / REDUX / MATCH / ELECT", ops: &[L::Local], source: "PTX ISA (warp-level, no SM unit)", note: "executed over the warp's active lanes by sm-exec" },
    Row { forms: &["bar.warp.sync"], sass: "WARPSYNC", ops: &[L::Local], source: "data/calibration/sync/README.md §1 (a WARPSYNC before a BAR: +7 cycles); PTX ISA", note: "the lanes of the mask converge; no named barrier; not measured alone" },
    Row { forms: &crate::parser::OTHER, sass: "CALL / BPT.TRAP / NANOSLEEP / ...", ops: &[L::Local], source: "PTX ISA", note: "judged by sm-exec (refused where not modelled)" },
    Row { forms: &["ret", "exit"], sass: "EXIT", ops: &[L::Exit], source: "spec/bar_unit.md (exit), spec/cluster_barrier.md", note: "an exited warp counts as arrived at all-thread barriers" },
];

/// The row covering `form`.
pub fn row_for(form: &str) -> Option<&'static Row> {
    TABLE.iter().find(|r| r.forms.contains(&form))
}

/// The table key of an instruction: its form, marked when a cluster barrier
/// runs in a non-cluster launch.
pub fn key(inst: &Inst, cluster_launch: bool) -> String {
    if !cluster_launch && inst.form.starts_with("barrier.cluster.") {
        format!("{} (non-cluster launch)", inst.form)
    } else {
        inst.form.clone()
    }
}

fn operand_arg(o: &Operand) -> Arg {
    match o {
        Operand::Imm(i) => Arg::Imm(*i),
        Operand::Addr { .. } => Arg::Addr(o.text()),
        _ => Arg::Reg(o.text()),
    }
}

fn fill(s: &Slot, inst: &Inst) -> Arg {
    let ops = &inst.operands;
    match *s {
        Op(i) => ops.get(i as usize).map(operand_arg).unwrap_or(Arg::Absent),
        OpOrAll(i) => ops.get(i as usize).map(operand_arg).unwrap_or(Arg::All),
        OpOrOne(i) => ops.get(i as usize).map(operand_arg).unwrap_or(Arg::Imm(1)),
        OpIfN(i, n) => {
            if ops.len() == n as usize {
                ops.get(i as usize).map(operand_arg).unwrap_or(Arg::All)
            } else {
                Arg::All
            }
        }
        Space => {
            const SP: [&str; 7] = [
                "shared::cluster",
                "shared::cta",
                "shared",
                "global",
                "local",
                "param",
                "const",
            ];
            let parts: Vec<&str> = inst.opcode.split('.').collect();
            let sp = SP
                .iter()
                .find(|s| parts.contains(s))
                .copied()
                .unwrap_or("generic");
            Arg::Space(if sp == "shared" {
                "shared::cta".into()
            } else {
                sp.into()
            })
        }
        Const(v) => Arg::Imm(v),
        All => Arg::All,
        Absent => Arg::Absent,
    }
}

fn instantiate(t: &Lowered<Slot>, inst: &Inst) -> Lowered<Arg> {
    let f = |s: &Slot| fill(s, inst);
    match t {
        L::Membar { level, ivall } => L::Membar {
            level: *level,
            ivall: *ivall,
        },
        L::Inval { ivall } => L::Inval { ivall: *ivall },
        L::Txn { op, space } => L::Txn {
            op: *op,
            space: f(space),
        },
        L::Bar { op, id, count } => L::Bar {
            op: *op,
            id: f(id),
            count: f(count),
        },
        L::ClusterArrive => L::ClusterArrive,
        L::ClusterWait => L::ClusterWait,
        L::Mbarrier {
            op,
            remote,
            addr,
            arg,
            hint,
        } => L::Mbarrier {
            op: *op,
            remote: *remote,
            addr: f(addr),
            arg: f(arg),
            hint: f(hint),
        },
        L::AsyncCopy { dir, bytes, mbar } => L::AsyncCopy {
            dir: *dir,
            bytes: f(bytes),
            mbar: f(mbar),
        },
        L::AsyncGroup { op, arg } => L::AsyncGroup {
            op: *op,
            arg: f(arg),
        },
        L::ProxyFence { kind } => L::ProxyFence { kind: *kind },
        L::Exit => L::Exit,
        L::Local => L::Local,
        L::Nothing => L::Nothing,
    }
}

/// Lower one instruction: its row and the ops with the instruction's operands.
pub fn lower_inst(inst: &Inst, cluster_launch: bool) -> Option<(&'static Row, Vec<Lowered>)> {
    let row = row_for(&key(inst, cluster_launch))?;
    Some((row, row.ops.iter().map(|t| instantiate(t, inst)).collect()))
}

/// One instruction with its lowering.
#[derive(Debug, Clone)]
pub struct LoweredInst {
    pub inst: Inst,
    pub row: &'static Row,
    pub ops: Vec<Lowered>,
}

/// Lower every instruction of every entry, in order.
pub fn lower_program(p: &Program) -> Result<Vec<(String, Vec<LoweredInst>)>> {
    let cl = p.cluster_launch();
    let mut out = Vec::new();
    for e in &p.module.entries {
        let mut v = Vec::new();
        for i in e.insts() {
            let Some((row, ops)) = lower_inst(i, cl) else {
                return Err(PtxError::new(
                    &p.file,
                    i.line,
                    i.col,
                    format!("found form `{}`, expected a form of the lowering table (`membar ptx --table`)", i.form),
                ));
            };
            v.push(LoweredInst {
                inst: i.clone(),
                row,
                ops,
            });
        }
        out.push((e.name.clone(), v));
    }
    Ok(out)
}

impl fmt::Display for Slot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Op(i) => write!(f, "op{i}"),
            OpOrAll(i) => write!(f, "op{i}|all"),
            OpOrOne(i) => write!(f, "op{i}|1"),
            OpIfN(i, n) => write!(f, "op{i} if {n} operands|all"),
            Space => write!(f, "space"),
            Const(v) => write!(f, "{v}"),
            All => write!(f, "all"),
            Absent => write!(f, "-"),
        }
    }
}

impl fmt::Display for Arg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arg::Imm(i) => write!(f, "{i}"),
            Arg::Reg(r) | Arg::Addr(r) | Arg::Space(r) => write!(f, "{r}"),
            Arg::All => write!(f, "all"),
            Arg::Absent => write!(f, "-"),
        }
    }
}

impl<A: fmt::Display + PartialEq + AbsentCheck> fmt::Display for Lowered<A> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            L::Membar { level, ivall } => write!(f, "Membar{{level: {level:?}, ivall: {ivall:?}}}"),
            L::Inval { ivall } => write!(f, "Inval{{ivall: {ivall:?}}}"),
            L::Txn { op, space } => write!(f, "Txn{{op: {op:?}, space: {space}}}"),
            L::Bar { op, id, count } => write!(f, "Bar{{op: {op:?}, id: {id}, count: {count}}}"),
            L::ClusterArrive => write!(f, "ClusterArrive"),
            L::ClusterWait => write!(f, "ClusterWait"),
            L::Mbarrier {
                op,
                remote,
                addr,
                arg,
                hint,
            } => {
                write!(
                    f,
                    "Mbarrier{{op: {op:?}{}, addr: {addr}",
                    if *remote { ", remote" } else { "" }
                )?;
                if !arg.is_absent() {
                    write!(f, ", arg: {arg}")?;
                }
                if !hint.is_absent() {
                    write!(f, ", hint: {hint}")?;
                }
                write!(f, "}}")
            }
            L::AsyncCopy { dir, bytes, mbar } => {
                write!(f, "AsyncCopy{{dir: {dir:?}, bytes: {bytes}, mbar: {mbar}}}")
            }
            L::AsyncGroup { op, arg } => {
                if arg.is_absent() {
                    write!(f, "AsyncGroup{{op: {op:?}}}")
                } else {
                    write!(f, "AsyncGroup{{op: {op:?}, arg: {arg}}}")
                }
            }
            L::ProxyFence { kind } => write!(f, "ProxyFence{{kind: {kind:?}}}"),
            L::Exit => write!(f, "Exit"),
            L::Local => write!(f, "Local"),
            L::Nothing => write!(f, "Nothing"),
        }
    }
}

/// Whether an argument is absent (for printing).
pub trait AbsentCheck {
    fn is_absent(&self) -> bool;
}
impl AbsentCheck for Slot {
    fn is_absent(&self) -> bool {
        *self == Absent
    }
}
impl AbsentCheck for Arg {
    fn is_absent(&self) -> bool {
        *self == Arg::Absent
    }
}

/// Ops joined with `; `.
pub fn ops_text<A: fmt::Display + PartialEq + AbsentCheck>(ops: &[Lowered<A>]) -> String {
    ops.iter()
        .map(|o| o.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The whole table as Markdown (what `membar ptx --table` prints).
pub fn table_markdown() -> String {
    let esc = |s: &str| s.replace('|', "\\|");
    let mut s = String::new();
    s.push_str("# PTX → SM lowering table (sm_90)\n\n");
    s.push_str("Generated by `membar ptx --table` from `ptx/src/lower.rs`; do not edit.\n");
    s.push_str("Slots: `opN` = operand N of the instruction, `opN|all` = operand N or all threads of the CTA, ");
    s.push_str("`opN|1` = operand N or 1, `space` = the state space of the opcode.\n\n");
    s.push_str("| forms | SASS | lowered ops | source | note |\n|---|---|---|---|---|\n");
    for r in TABLE {
        let forms: Vec<String> = r.forms.iter().map(|f| format!("`{f}`")).collect();
        s.push_str(&format!(
            "| {} | `{}` | {} | {} | {} |\n",
            forms.join("<br>"),
            esc(r.sass),
            esc(&ops_text(r.ops)),
            esc(r.source),
            esc(r.note)
        ));
    }
    s
}

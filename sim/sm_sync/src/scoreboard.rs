//! Port-only scoreboard of `spec/sm_sync.md` S1–S6. It sees the top's
//! ports only. For S1–S4 and S6 it keeps one shadow instance of each unit's
//! reference model and feeds it what the spec's decode table (written out
//! again here, independently of `model::route`) says that unit must receive:
//! if the top routes an instruction to the wrong unit, changes a field,
//! loses a memory-side input or mis-combines the outputs, the top's outputs
//! stop matching the shadows.
//!
//! - S1 routing: every pass-through output (membar `dn_*`, bar `bar_rel_*`
//!   `bar_err_code`, mbarrier `mb_*`, async groups `ag_err_cause`) equals the
//!   shadow unit's output: each unit receives exactly the instructions
//!   addressed to it, unchanged (up to its port width).
//! - S2 handshake: with `in_valid`, `in_ready` = 0 in reset, 1 for a refused
//!   instruction, else the selected unit's ready.
//! - S3 blocking: `warp_blocked` = OR of the units' blocked/suspended vectors.
//! - S4 release: `release_mask` = OR of the units' releases; a released warp
//!   is blocked in its release cycle or the cycle before (mbarrier clears
//!   `suspended` in its wake cycle; the other units keep `blocked` through
//!   the release cycle) — no release of a running warp, so no duplicate; a
//!   warp whose blocked bit falls outside reset was released in that cycle
//!   or the one before (no lost release).
//! - S5 refusal: an instruction for unit 4..7, or with an op code beyond its
//!   unit's ops, is taken (`in_ready`) and flagged (`err`, `err_src` bit 4)
//!   in the same cycle and reaches no unit (checked through S1).
//! - S6 errors: `err_src` bits 0..3 are the units' `err`, and `err` =
//!   (`err_src` != 0).
//!
//! With a registered instruction port the decoder's instruction is the one
//! presented in the previous cycle (none after a reset cycle): the
//! scoreboard remembers it and feeds it to the shadows in place of the
//! port's, and every rule above applies to it in the cycle after it was
//! presented — `in_ready` answers for it then (and is 0 when nothing was
//! presented), a refusal is flagged then.

use crate::config::Config;
use crate::encode::Instr;
use crate::port_reg::at_decoder;
use crate::ports::{Inputs, Outputs, SmSyncPorts};
use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::ports::BarInputs;
use mbarrier_unit_model::async_groups::AsyncGroupsModel;
use mbarrier_unit_model::mbarrier_unit::MbarrierModel;
use mbarrier_unit_model::ports::{async_groups as ag, mbarrier as mb};
use membar_unit_model::ports as mp;
use membar_unit_model::MembarModel;
use unit_ports::lockstep::Observer;
use unit_ports::Dut;

/// The spec's decode table: (unit code, number of ops).
const TABLE: [(u8, u8); 4] = [(0, 5), (1, 5), (2, 9), (3, 4)];

pub struct Scoreboard {
    cfg: Config,
    membar: MembarModel,
    bar: BarUnitModel,
    mb: MbarrierModel,
    ag: AsyncGroupsModel,
    prev_blocked: u64,
    prev_release: u64,
    prev_reset: bool,
    /// Registered port: the instruction presented in the previous cycle.
    prev: Option<(u8, Instr)>,
    /// Cycles checked.
    pub cycles: u64,
    /// Instructions accepted / refused.
    pub accepted: u64,
    pub refused: u64,
}

impl Scoreboard {
    pub fn new(cfg: &Config) -> Scoreboard {
        Scoreboard {
            cfg: cfg.clone(),
            membar: MembarModel::new(&cfg.membar),
            bar: BarUnitModel::new(cfg.bar),
            mb: MbarrierModel::new(&cfg.mbarrier),
            ag: AsyncGroupsModel::new(&cfg.mbarrier),
            prev_blocked: 0,
            prev_release: 0,
            prev_reset: true,
            prev: None,
            cycles: 0,
            accepted: 0,
            refused: 0,
        }
    }

    fn check(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        let port = i.masked_for(&self.cfg);
        let registered = self.cfg.registered_port;
        // The instruction at the decoder.
        let i = if registered {
            at_decoder(self.prev.as_ref(), &port)
        } else {
            port
        };
        let known = TABLE.iter().find(|(u, _)| *u == i.in_unit);
        let reserved = i.in_valid && known.is_none_or(|(_, n)| i.in_op >= *n);
        let to = |u: u8| i.in_valid && !reserved && i.in_unit == u;
        let mo = Dut::step(
            &mut self.membar,
            &mp::Inputs {
                reset: i.reset,
                req_valid: to(0),
                req_warp: i.in_warp,
                req_op: i.in_op & 7,
                req_level: i.in_level,
                req_ivall: i.in_ivall,
                req_id: i.in_id,
                dn_ready: i.dn_ready,
                ack_valid: i.ack_valid,
                ack_tag: i.ack_tag,
                bar_ack_valid: i.bar_ack_valid,
                bar_ack_tag: i.bar_ack_tag,
            },
        );
        let cb = self.cfg.bar.cb();
        let bo = Dut::step(
            &mut self.bar,
            &BarInputs {
                reset: i.reset,
                req_valid: to(1),
                req_warp: i.in_warp,
                req_op: i.in_op & 7,
                req_id: (i.in_id & 15) as u8,
                req_all: i.in_all,
                req_count: (i.in_count & ((1 << cb) - 1)) as u8,
                req_pred: i.in_pred,
                ctl_valid: i.ctl_valid,
                ctl_op: i.ctl_op,
                ctl_slot: i.ctl_slot,
                ctl_warps: i.ctl_warps,
                ctl_warp: i.ctl_warp,
            },
        );
        let m = &self.cfg.mbarrier;
        let low = |v: u32, b: u32| if b >= 32 { v } else { v & ((1u32 << b) - 1) };
        let xo = self.mb.step(&mb::Inputs {
            reset: i.reset,
            op_valid: to(2),
            op_warp: i.in_warp,
            op_code: i.in_op,
            op_entry: low(i.in_id as u32, m.eb()) as u8,
            op_count: low(i.in_count, m.count_port_bits()),
            op_tx: low(i.in_tx, m.tx_port_bits()),
            op_parity: i.in_parity,
            ctx_valid: i.ctx_valid,
            ctx_entry: i.ctx_entry,
            ctx_bytes: i.ctx_bytes,
            rarv_valid: i.rarv_valid,
            rarv_entry: i.rarv_entry,
            rarv_count: i.rarv_count,
        });
        let go = self.ag.step(&ag::Inputs {
            reset: i.reset,
            ag_valid: to(3),
            ag_warp: i.in_warp,
            ag_op: i.in_op & 3,
            ag_n: low(i.in_count, m.group_n_bits()) as u8,
            rd_valid: i.rd_valid,
            rd_warp: i.rd_warp,
            wr_valid: i.wr_valid,
            wr_warp: i.wr_warp,
        });
        let fail = |s: &str, what: String| Err(format!("cycle {cycle}: {s} violated: {what}"));
        // S1: pass-through outputs.
        let pass = [
            ("dn_valid", o.dn_valid as u64, mo.dn_valid as u64),
            ("dn_kind", o.dn_kind as u64, mo.dn_kind as u64),
            ("dn_tag", o.dn_tag as u64, mo.dn_tag as u64),
            ("dn_warp", o.dn_warp as u64, mo.dn_warp as u64),
            ("dn_op", o.dn_op as u64, mo.dn_op as u64),
            ("dn_level", o.dn_level as u64, mo.dn_level as u64),
            ("dn_ack_req", o.dn_ack_req as u64, mo.dn_ack_req as u64),
            ("dn_id", o.dn_id as u64, mo.dn_id as u64),
            ("bar_rel_valid", o.bar_rel_valid as u64, bo.rel_valid as u64),
            ("bar_rel_slot", o.bar_rel_slot as u64, bo.rel_slot as u64),
            ("bar_rel_id", o.bar_rel_id as u64, bo.rel_id as u64),
            ("bar_rel_op", o.bar_rel_op as u64, bo.rel_op as u64),
            (
                "bar_rel_result",
                o.bar_rel_result as u64,
                bo.rel_result as u64,
            ),
            ("bar_err_code", o.bar_err_code as u64, bo.err_code as u64),
            ("mb_ctx_ready", o.mb_ctx_ready as u64, xo.ctx_ready as u64),
            (
                "mb_rarv_ready",
                o.mb_rarv_ready as u64,
                xo.rarv_ready as u64,
            ),
            ("mb_rsp_valid", o.mb_rsp_valid as u64, xo.rsp_valid as u64),
            ("mb_rsp_warp", o.mb_rsp_warp as u64, xo.rsp_warp as u64),
            ("mb_rsp_op", o.mb_rsp_op as u64, xo.rsp_op as u64),
            ("mb_rsp_token", o.mb_rsp_token as u64, xo.rsp_token as u64),
            ("mb_rsp_done", o.mb_rsp_done as u64, xo.rsp_done as u64),
            (
                "mb_rsp_suspended",
                o.mb_rsp_suspended as u64,
                xo.rsp_suspended as u64,
            ),
            ("mb_wake_mask", o.mb_wake_mask, xo.wake_mask),
            ("mb_wake_done", o.mb_wake_done, xo.wake_done),
            ("mb_err_src", o.mb_err_src as u64, xo.err_src as u64),
            ("mb_err_cause", o.mb_err_cause as u64, xo.err_cause as u64),
            ("ag_err_cause", o.ag_err_cause as u64, go.err_cause as u64),
        ];
        for (name, got, want) in pass {
            if got != want {
                return fail(
                    "S1 (each unit gets exactly its instructions)",
                    format!("`{name}` = {got:#x}, the unit fed per the decode table gives {want:#x} (inputs: {})", unit_ports::PortBundle::describe(&i)),
                );
            }
        }
        // S2
        if registered && !i.in_valid && o.in_ready {
            return fail(
                "S2 (handshake)",
                "in_ready = 1 with no instruction presented in the previous cycle (registered port)"
                    .into(),
            );
        }
        if i.in_valid {
            let want = !i.reset
                && (reserved
                    || match i.in_unit {
                        0 => mo.req_ready,
                        1 => bo.req_ready,
                        2 => xo.op_ready,
                        _ => go.ag_ready,
                    });
            if o.in_ready != want {
                return fail(
                    "S2 (handshake)",
                    format!(
                        "in_ready = {} for unit {} op {}, expected {want}",
                        o.in_ready, i.in_unit, i.in_op
                    ),
                );
            }
        }
        // S3
        let blocked = mo.warp_blocked | bo.blocked | xo.suspended | go.blocked;
        if o.warp_blocked != blocked {
            return fail(
                "S3 (warp_blocked = OR of the units)",
                format!("warp_blocked = {:#x}, units give {blocked:#x} (membar {:#x}, bar {:#x}, mbarrier {:#x}, async {:#x})", o.warp_blocked, mo.warp_blocked, bo.blocked, xo.suspended, go.blocked),
            );
        }
        // S4
        let rel = (if mo.release_valid { mo.release_mask } else { 0 })
            | bo.rel_mask
            | xo.wake_mask
            | go.release_mask;
        if o.release_mask != rel {
            return fail(
                "S4 (release_mask = OR of the units)",
                format!("release_mask = {:#x}, units give {rel:#x}", o.release_mask),
            );
        }
        if o.release_mask & !(o.warp_blocked | self.prev_blocked) != 0 {
            return fail(
                "S4 (a released warp was blocked)",
                format!("release_mask {:#x} releases warps not blocked ({:#x}; membar {:#x}/{}, bar {:#x}, mbarrier {:#x}, async {:#x})", o.release_mask, o.warp_blocked, mo.release_mask, mo.release_valid, bo.rel_mask, xo.wake_mask, go.release_mask),
            );
        }
        let fell = self.prev_blocked & !o.warp_blocked;
        let lost = fell & !(self.prev_release | o.release_mask);
        if !i.reset && !self.prev_reset && lost != 0 {
            return fail(
                "S4 (no lost release)",
                format!("warps {lost:#x} stopped being blocked without a release"),
            );
        }
        // S5
        if reserved && !i.reset && !(o.in_ready && o.err && o.err_src & 16 != 0) {
            return fail(
                "S5 (refusal)",
                format!(
                    "unit {} op {} (reserved) gave in_ready {} err {} err_src {:#x}",
                    i.in_unit, i.in_op, o.in_ready, o.err, o.err_src
                ),
            );
        }
        // S6
        let src = (mo.err as u8)
            | (bo.err as u8) << 1
            | (xo.err as u8) << 2
            | (go.err as u8) << 3
            | ((reserved && !i.reset) as u8) << 4;
        if o.err_src != src || o.err != (o.err_src != 0) {
            return fail(
                "S6 (error sources)",
                format!(
                    "err {} err_src {:#x}, expected err_src {src:#x}",
                    o.err, o.err_src
                ),
            );
        }
        if i.in_valid && o.in_ready && !i.reset {
            if reserved {
                self.refused += 1;
            } else {
                self.accepted += 1;
            }
        }
        self.prev = (!port.reset && port.in_valid).then(|| Instr::on_port(&port));
        self.prev_blocked = o.warp_blocked;
        self.prev_release = o.release_mask;
        self.prev_reset = i.reset;
        self.cycles += 1;
        Ok(())
    }
}

impl Observer<SmSyncPorts> for Scoreboard {
    fn observe(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> Result<(), String> {
        self.check(cycle, i, o)
    }
}

//! The ports of `sm_sync` (`spec/sm_sync.md`), declared once in the form of
//! `unit_ports` ([`sm_sync_ports!`](crate::sm_sync_ports)): expanded here
//! into [`Inputs`]/[`Outputs`] and the port table [`SmSyncPorts`], and by the
//! RTL crate with its own callback to drive its rust-hdl top. Then the
//! encodings of `in_unit`, `in_op` and `err_src`.

pub use unit_ports::{Dir, Dut, Port, PortBundle, Unit};

/// The ports of `sm_sync` in spec order, for a callback macro.
#[macro_export]
macro_rules! sm_sync_ports {
    ($cb:path $(, $arg:tt)*) => { $cb! { ($($arg)*)
        unit SmSyncPorts, module "sm_sync", config $crate::config::Config, inputs Inputs, outputs Outputs;
        |cfg| [
            /// Rising-edge clock of every flop.
            clock: clock bool = 1,
            /// Synchronous active-high reset of every unit.
            reset: input bool = 1,
            /// Warp issue presents one decoded synchronisation instruction.
            in_valid: input bool = 1,
            /// The instruction is taken this cycle (accepted by its unit, or refused).
            in_ready: output bool = 1,
            /// Issuing warp (WB bits).
            in_warp: input u8 = cfg.wb(),
            /// Target unit: 0 membar, 1 bar, 2 mbarrier, 3 async groups; 4..7 reserved (refused).
            in_unit: input u8 = 3,
            /// The unit's op code (see `op`); codes beyond the unit's last op are refused.
            in_op: input u8 = 4,
            /// membar: request id; bar: barrier id (low 4 bits); mbarrier: entry (low EB bits).
            in_id: input u16 = 16,
            /// membar MEMBAR level (CTA/VC/GL/SYS).
            in_level: input u8 = 2,
            /// membar fused invalidates (bit 0 IVALLD, bit 1 IVALLT).
            in_ivall: input u8 = 2,
            /// bar: no count operand (every live warp of the CTA).
            in_all: input bool = 1,
            /// bar: count in warps; mbarrier: arrival count; async groups: N of wait_group (low bits).
            in_count: input u32 = cfg.count_bits(),
            /// mbarrier: transaction bytes.
            in_tx: input u32 = cfg.tx_bits(),
            /// mbarrier: phase parity waited on.
            in_parity: input bool = 1,
            /// bar.red: lane predicates.
            in_pred: input u32 = 32,
            /// Bit w: warp w is blocked in some unit (OR of the four units' blocked/suspended vectors).
            warp_blocked: output u64 = cfg.warps(),
            /// Bit w: warp w is released or woken this cycle (OR of the four units' releases).
            release_mask: output u64 = cfg.warps(),
            /// One-cycle pulse: some unit or the decoder reports a bad input.
            err: output bool = 1,
            /// Who reports it: bit 0 membar, 1 bar, 2 mbarrier, 3 async groups, 4 decoder (reserved unit/op).
            err_src: output u8 = 5,
            /// membar downstream command (passed through; see spec/membar_unit.md).
            dn_valid: output bool = 1,
            dn_ready: input bool = 1,
            dn_kind: output u8 = 2,
            dn_tag: output u8 = cfg.membar.tag_bits(),
            dn_warp: output u8 = cfg.wb(),
            dn_op: output u8 = 3,
            dn_level: output u8 = 2,
            dn_ack_req: output bool = 1,
            dn_id: output u16 = 16,
            /// membar TXN and BARRIER acknowledgements (passed through).
            ack_valid: input bool = 1,
            ack_tag: input u8 = cfg.membar.tag_bits(),
            bar_ack_valid: input bool = 1,
            bar_ack_tag: input u8 = cfg.membar.tag_bits(),
            /// bar CTA launch / warp exit control (passed through; see spec/bar_unit.md).
            ctl_valid: input bool = 1,
            ctl_op: input u8 = 1,
            ctl_slot: input u8 = cfg.bar.sb(),
            ctl_warps: input u64 = cfg.warps(),
            ctl_warp: input u8 = cfg.wb(),
            /// bar release detail (passed through).
            bar_rel_valid: output bool = 1,
            bar_rel_slot: output u8 = cfg.bar.sb(),
            bar_rel_id: output u8 = 4,
            bar_rel_op: output u8 = 3,
            bar_rel_result: output u32 = cfg.bar.rb(),
            bar_err_code: output u8 = 4,
            /// mbarrier copy-engine complete_tx and remote-arrive ports (passed through; see spec/mbarrier_unit.md).
            ctx_valid: input bool = 1,
            ctx_entry: input u8 = cfg.mbarrier.eb(),
            ctx_bytes: input u32 = cfg.mbarrier.tx_port_bits(),
            rarv_valid: input bool = 1,
            rarv_entry: input u8 = cfg.mbarrier.eb(),
            rarv_count: input u32 = cfg.mbarrier.count_port_bits(),
            /// The mbarrier unit took the complete-tx / remote arrive presented this cycle.
            mb_ctx_ready: output bool = 1,
            mb_rarv_ready: output bool = 1,
            /// mbarrier response and wake detail (passed through).
            mb_rsp_valid: output bool = 1,
            mb_rsp_warp: output u8 = cfg.wb(),
            mb_rsp_op: output u8 = 4,
            mb_rsp_token: output bool = 1,
            mb_rsp_done: output bool = 1,
            mb_rsp_suspended: output bool = 1,
            mb_wake_mask: output u64 = cfg.warps(),
            mb_wake_done: output u64 = cfg.warps(),
            mb_err_src: output u8 = 2,
            mb_err_cause: output u8 = 4,
            /// async-group copy read / completion reports (passed through; see spec/async_groups.md).
            rd_valid: input bool = 1,
            rd_warp: input u8 = cfg.wb(),
            wr_valid: input bool = 1,
            wr_warp: input u8 = cfg.wb(),
            ag_err_cause: output u8 = 2,
        ]
    } };
}
crate::sm_sync_ports!(unit_ports::declare_ports);

/// `in_unit` encodings.
pub mod unit {
    pub const MEMBAR: u8 = 0;
    pub const BAR: u8 = 1;
    pub const MBARRIER: u8 = 2;
    pub const ASYNC: u8 = 3;
    pub const NAMES: [&str; 4] = ["membar", "bar", "mbarrier", "async_groups"];
    /// Ops each unit defines (`in_op` 0..N-1); higher codes are refused.
    pub const OPS: [u8; 4] = [5, 5, 9, 4];
    /// Is (`unit`, `op`) refused by the decoder?
    pub fn refused(unit: u8, op: u8) -> bool {
        unit > ASYNC || op >= OPS[unit as usize]
    }
}

/// `err_src` bits.
pub mod src {
    pub const MEMBAR: u8 = 1;
    pub const BAR: u8 = 2;
    pub const MBARRIER: u8 = 4;
    pub const ASYNC: u8 = 8;
    pub const DECODER: u8 = 16;
}

/// Ports in spec order (from the declaration).
pub fn spec_ports(cfg: &crate::config::Config) -> Vec<Port> {
    SmSyncPorts::ports(cfg)
}

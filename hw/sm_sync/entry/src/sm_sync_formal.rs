//! The formal harness of `sm_sync` (`spec/sm_sync.md`, S1–S6): every input
//! free, reset in cycle 0, and a port-level monitor of the properties of the
//! composition that the top's ports show without a model of each unit:
//!
//! - the decoder's own rules (S2 handshake of refused and mbarrier
//!   instructions, S5 refusal flagged in the same cycle, S6 `err` = OR of
//!   `err_src`, each unit's `err_src` bit agreeing with its pass-through
//!   cause port);
//! - S5 "reaches no unit" through each unit's error source: membar's `err`
//!   only with an ack input (a reserved op forwarded to it would err), bar's
//!   only the cycle after a bar instruction it took or a ctl event (the bar
//!   unit checks an event one cycle after taking it), mbarrier's only the
//!   cycle after an mbarrier instruction, complete-tx or remote arrive, the
//!   tracker's only after a read/completion report;
//! - S1 routing of the mbarrier op port (a response exactly the cycle after
//!   each mbarrier instruction, with its warp and op), of the bar id field
//!   (a release of barrier `fb` only after a bar instruction naming `fb`,
//!   for a free constant `fb`) and of the membar
//!   request port (the TXN conservation monitor of the membar harness on
//!   `in_*` → `dn_*`: every LD/ST/ATOM/RED instruction taken leaves
//!   downstream once, in order, with its warp, op and id);
//! - S3/S4 for a free constant warp `fw`: `warp_blocked[fw]` rises only the
//!   cycle after an instruction of `fw` was taken, or two cycles after a bar
//!   instruction of `fw` was (the bar unit blocks from the second cycle);
//!   `release_mask[fw]` only
//!   while `fw` is blocked (that cycle or the one before); a falling
//!   `warp_blocked[fw]` comes with a release that cycle or the one before.
//!
//! With a registered instruction port every property speaks of the
//! instruction at the decoder, which the monitor forms from the ports as
//! the spec states the register (the one presented in the previous cycle,
//! none after a reset cycle); `in_ready` answers for it.
//!
//! What needs the units' own state (a bar release's mask and result, an
//! async wait's condition, the exact OR of four blocked vectors) is the
//! units' own harnesses' business and the cosimulation scoreboard's
//! (docs/formal.md).

use membar_formal::harness::Group;
use membar_formal::unit::{ports_section, UnitSpec};
use sm_sync_model::scoreboard::Scoreboard;
use sm_sync_model::{Config, SmSyncModel, SmSyncPorts};
use unit_ports::lockstep::Observer;
use unit_ports::Unit;

/// The property groups of `sm_sync`.
pub const GROUPS: &[Group] = &[
    Group {
        name: "rst",
        props: &["RST_outputs_zero"],
        what: "every output (in_ready, err, err_src, the combined vectors and every pass-through output) is 0 in a reset cycle",
    },
    Group {
        name: "s2",
        props: &["S2_refused_taken", "S2_mbarrier_taken"],
        what: "S2: a refused instruction (reserved unit, op beyond its unit's ops) is taken (in_ready); an mbarrier instruction presented without a complete-tx or remote arrive is taken; at most one of the mbarrier instruction, mb_ctx_ready and mb_rarv_ready is taken in a cycle",
    },
    Group {
        name: "s3",
        props: &["S3_block_cause"],
        what: "S3 for warp fw: warp_blocked[fw] rises only in the cycle after an instruction of fw was taken and not refused, or two cycles after a bar or mbarrier instruction of fw was (the membar and async-group units block from the cycle after acceptance, the bar and mbarrier units from the second cycle; a refused instruction blocks nothing)",
    },
    Group {
        name: "s4",
        props: &["S4_release_blocked", "S4_no_lost_release"],
        what: "S4 for warp fw: release_mask[fw] only while fw is blocked in that cycle or the one before (no release of a running warp); warp_blocked[fw] falls (outside reset) only with release_mask[fw] in that cycle or the one before (no lost release)",
    },
    Group {
        name: "s5",
        props: &[
            "S5_refused_flagged",
            "S5_decoder_exact",
            "S5_membar_quiet",
            "S5_bar_quiet",
            "S5_mbarrier_quiet",
            "S5_async_quiet",
        ],
        what: "S5: a refused instruction is flagged in its cycle (err, err_src bit 4), and err_src bit 4 only then; it reaches no unit: membar errs only with an ack / bar_ack input, bar only the cycle after a bar instruction it took or a ctl event, mbarrier only two cycles after it took an mbarrier instruction / complete-tx / remote arrive, the tracker only the cycle after a read / completion report",
    },
    Group {
        name: "s6",
        props: &["S6_err_or", "S6_src_causes"],
        what: "S6: err = (err_src != 0); err_src bit 1 / 2 / 3 exactly when bar_err_code / mb_err_cause / ag_err_cause is non-zero, mb_err_src 0 without bit 2",
    },
    Group {
        name: "s1m",
        props: &["S1_mb_rsp"],
        what: "S1 (mbarrier op port): mb_rsp_valid exactly two cycles after an mbarrier instruction was taken (not refused, outside reset), with its warp and op",
    },
    Group {
        name: "s1b",
        props: &["S1_bar_rel_id"],
        what: "S1 (bar request port, id field): a bar release names barrier id fb only after a bar instruction with in_id[3:0] = fb was taken (a free constant fb)",
    },
    Group {
        name: "s1d",
        props: &[
            "S1_dn_no_extra",
            "S1_dn_order",
            "S1_dn_order_pass",
            "MON_fifo_depth",
        ],
        what: "S1 (membar request port): every LD/ST/ATOM/RED instruction taken leaves on dn_* as a TXN exactly once, in order, with its warp, op and id (a free pick tracks one; no TXN with none taken; at most 2 taken and unsent)",
    },
    Group {
        name: "all",
        props: &[
            "RST_outputs_zero",
            "S2_refused_taken",
            "S2_mbarrier_taken",
            "S3_block_cause",
            "S4_release_blocked",
            "S4_no_lost_release",
            "S5_refused_flagged",
            "S5_decoder_exact",
            "S5_membar_quiet",
            "S5_bar_quiet",
            "S5_mbarrier_quiet",
            "S5_async_quiet",
            "S6_err_or",
            "S6_src_causes",
            "S1_mb_rsp",
            "S1_bar_rel_id",
            "S1_dn_no_extra",
            "S1_dn_order",
            "S1_dn_order_pass",
            "MON_fifo_depth",
        ],
        what: "every group above in one task (one front-end run: the bounded checks of the large configurations)",
    },
];

/// Groups `membar formal` does not run under pdr by default (none so far).
pub const PDR_SKIP: &[&str] = &[];

/// The monitor's capacity for taken and unsent TXNs (membar's output
/// register and its one-deep request path, as in the membar harness).
const FIFO_DEPTH: u32 = membar_formal::harness::FIFO_DEPTH;

/// SystemVerilog of `sm_sync_formal_top` for `cfg`.
pub fn harness(cfg: &Config) -> String {
    let ports = SmSyncPorts::ports(cfg);
    let wb = cfg.wb();
    let mut s = format!(
        "// sm_sync_formal_top.sv: formal harness of sm_sync, generated by membar-formal {} — do not edit.\n// Configuration: W {}, membar {}, bar w{}_c{}, mbarrier {}.\n\n",
        env!("CARGO_PKG_VERSION"),
        cfg.warps(),
        cfg.membar.short_name(),
        cfg.bar.warps,
        cfg.bar.cta_slots,
        cfg.mbarrier.name()
    );
    s += "`ifdef G_ALL\n`define G_RST\n`define G_S2\n`define G_S3\n`define G_S4\n`define G_S5\n`define G_S6\n`define G_S1M\n`define G_S1B\n`define G_S1D\n`endif\n";
    let outputs: Vec<&str> = ports
        .iter()
        .filter(|p| p.dir == unit_ports::Dir::Out)
        .map(|p| p.name)
        .collect();
    s += &ports_section(
        &ports,
        "sm_sync",
        "sm_sync_formal_top",
        &[
            "reset",
            "in_valid",
            "in_ready",
            "in_warp",
            "in_unit",
            "in_op",
            "in_id",
            "warp_blocked",
            "release_mask",
            "err",
            "err_src",
            "dn_valid",
            "dn_ready",
            "dn_kind",
            "dn_warp",
            "dn_op",
            "dn_id",
            "ack_valid",
            "bar_ack_valid",
            "ctl_valid",
            "bar_err_code",
            "bar_rel_valid",
            "bar_rel_id",
            "ctx_valid",
            "rarv_valid",
            "mb_ctx_ready",
            "mb_rarv_ready",
            "mb_rsp_valid",
            "mb_rsp_warp",
            "mb_rsp_op",
            "mb_err_src",
            "mb_err_cause",
            "rd_valid",
            "wr_valid",
            "ag_err_cause",
        ],
    );
    let zero: Vec<String> = outputs.iter().map(|o| format!("{o} == 0")).collect();
    // The instruction at the decoder, which the properties below speak of:
    // the port's, or with a registered port the one presented in the
    // previous cycle (none after a reset cycle) — the register as the spec
    // states it, from the ports alone.
    s += &format!(
        "  localparam WB = {wb};
  reg r_valid; reg [WB-1:0] r_warp; reg [2:0] r_unit; reg [3:0] r_op; reg [15:0] r_id;
  always @(posedge clock) begin
    r_valid <= !reset && in_valid; r_warp <= in_warp; r_unit <= in_unit; r_op <= in_op; r_id <= in_id;
  end
  wire x_valid = {reg} ? r_valid : in_valid;
  wire [WB-1:0] x_warp = {reg} ? r_warp : in_warp;
  wire [2:0] x_unit = {reg} ? r_unit : in_unit;
  wire [3:0] x_op = {reg} ? r_op : in_op;
  wire [15:0] x_id = {reg} ? r_id : in_id;
",
        reg = if cfg.registered_port { "1'b1" } else { "1'b0" }
    );
    s += &format!(
        "
  (* anyconst *) reg [WB-1:0] fw;   // the warp S3/S4 watch
  (* anyseq *) wire pick;          // track this cycle's taken TXN (S1 membar conservation)

  // The decode table (spec/sm_sync.md): ops per unit, codes beyond refused; units 4..7 reserved.
  wire refused = x_unit > 3'd3 || (x_unit == 3'd0 && x_op > 4'd4) || (x_unit == 3'd1 && x_op > 4'd4)
              || (x_unit == 3'd2 && x_op > 4'd8) || (x_unit == 3'd3 && x_op > 4'd3);
  wire ref_in = x_valid && refused;
  wire to_mb = x_valid && x_unit == 3'd2 && !refused;
  wire to_bar = x_valid && x_unit == 3'd1 && !refused;
  wire taken_fw = x_valid && in_ready && !refused && x_warp == fw;

  // The previous cycle (p2_*: the one before it).
  reg p_rst, p_blk, p_rel, p_take_fw, p_bar_fw, p2_bar_fw, p_mb_fw, p2_mb_fw, p_mb_op, p2_mb_op, p_mb_in, p2_mb_in, p_ag_in, p_bar_in;
  reg [WB-1:0] p_warp, p2_warp; reg [3:0] p_op, p2_op;
  always @(posedge clock) begin
    p_rst <= reset; p_blk <= warp_blocked[fw]; p_rel <= release_mask[fw];
    p_take_fw <= !reset && taken_fw;
    p_bar_fw <= !reset && taken_fw && x_unit == 3'd1; p2_bar_fw <= !reset && p_bar_fw;
    p_mb_fw <= !reset && taken_fw && x_unit == 3'd2; p2_mb_fw <= !reset && p_mb_fw;
    p_mb_op <= !reset && to_mb && in_ready; p_warp <= x_warp; p_op <= x_op;
    p2_mb_op <= !reset && p_mb_op; p2_warp <= p_warp; p2_op <= p_op;
    p_mb_in <= !reset && ((to_mb && in_ready) || mb_ctx_ready || mb_rarv_ready);
    p2_mb_in <= !reset && p_mb_in;
    p_ag_in <= !reset && (rd_valid || wr_valid);
    p_bar_in <= !reset && ((to_bar && in_ready) || ctl_valid);
  end

  // S1 bar: a bar instruction naming barrier fb (low 4 bits of x_id) has been taken since reset.
  (* anyconst *) reg [3:0] fb;
  reg seen_fb;
  always @(posedge clock) seen_fb <= !reset && (seen_fb || (to_bar && in_ready && x_id[3:0] == fb));

  // S1 membar: taken-unsent TXN count, and one tracked taken TXN with the count ahead of it.
  wire acc_txn = x_valid && in_ready && x_unit == 3'd0 && x_op <= 4'd3;
  wire fire_txn = dn_valid && dn_ready && dn_kind == 2'd0;
  reg [3:0] inflight;
  reg trk; reg [WB-1:0] trk_warp; reg [2:0] trk_op; reg [15:0] trk_id; reg [3:0] ahead;
  wire [3:0] avail = inflight + acc_txn;
  wire head_is_trk = trk && ahead == 4'd0;
  wire new_trk = !trk && acc_txn && pick;
  wire new_is_head = new_trk && inflight == 4'd0;
  always @(posedge clock) begin
    if (reset) begin
      inflight <= 4'd0; trk <= 1'b0; ahead <= 4'd0;
    end else begin
      inflight <= avail - fire_txn;
      if (trk) begin
        if (fire_txn) begin
          if (ahead == 4'd0) trk <= 1'b0; else ahead <= ahead - 4'd1;
        end
      end else if (new_trk && !(new_is_head && fire_txn)) begin
        trk <= 1'b1; trk_warp <= x_warp; trk_op <= x_op[2:0]; trk_id <= x_id;
        ahead <= inflight - fire_txn;
      end
    end
  end

  always @(posedge clock) begin
    if (reset) begin
`ifdef G_RST
      RST_outputs_zero: assert ({zeros});
`endif
    end else begin
`ifdef G_S2
      S2_refused_taken: assert (!ref_in || in_ready);
      S2_mbarrier_taken: assert ((!to_mb || ctx_valid || rarv_valid || in_ready)
                                 && ((to_mb && in_ready) + mb_ctx_ready + mb_rarv_ready) <= 1);
`endif
`ifdef G_S3
      S3_block_cause: assert (p_blk || !warp_blocked[fw] || (p_take_fw && !p_bar_fw && !p_mb_fw) || p2_bar_fw || p2_mb_fw);
`endif
`ifdef G_S4
      S4_release_blocked: assert (!release_mask[fw] || warp_blocked[fw] || p_blk);
      S4_no_lost_release: assert (!(p_blk && !warp_blocked[fw]) || release_mask[fw] || p_rel);
`endif
`ifdef G_S5
      S5_refused_flagged: assert (!ref_in || (in_ready && err && err_src[4]));
      S5_decoder_exact: assert (err_src[4] == ref_in);
      S5_membar_quiet: assert (!err_src[0] || ack_valid || bar_ack_valid);
      S5_bar_quiet: assert (!err_src[1] || p_bar_in);
      S5_mbarrier_quiet: assert (!err_src[2] || p2_mb_in);
      S5_async_quiet: assert (!err_src[3] || p_ag_in);
`endif
`ifdef G_S6
      S6_err_or: assert (err == (err_src != 5'd0));
      S6_src_causes: assert (err_src[1] == (bar_err_code != 0) && err_src[2] == (mb_err_cause != 0)
                             && err_src[3] == (ag_err_cause != 0) && (err_src[2] || mb_err_src == 0));
`endif
`ifdef G_S1M
      S1_mb_rsp: assert (mb_rsp_valid == p2_mb_op && (!mb_rsp_valid || (mb_rsp_warp == p2_warp && mb_rsp_op == p2_op)));
`endif
`ifdef G_S1B
      S1_bar_rel_id: assert (!(bar_rel_valid && bar_rel_id == fb) || seen_fb);
`endif
`ifdef G_S1D
      S1_dn_no_extra: assert (!(fire_txn && avail == 4'd0));
      S1_dn_order: assert (!(fire_txn && head_is_trk) || (dn_warp == trk_warp && dn_op == trk_op && dn_id == trk_id));
      S1_dn_order_pass: assert (!(fire_txn && !trk && new_is_head) || (dn_warp == x_warp && dn_op == x_op[2:0] && dn_id == x_id));
      MON_fifo_depth: assert (avail <= {FIFO_DEPTH});
`endif
    end
  end
endmodule
",
        zeros = zero.join(" && ")
    );
    s
}

/// The top's formal run for `cfg`.
pub fn spec(cfg: &Config) -> UnitSpec {
    let c = cfg.clone();
    UnitSpec {
        unit: "sm_sync",
        module: "sm_sync",
        groups: GROUPS,
        harness: harness(cfg),
        top: "sm_sync_formal_top".into(),
        replay: Box::new(move |v| {
            let ports = SmSyncPorts::ports(&c);
            let mut model = SmSyncModel::new(&c);
            let mut sv = Scoreboard::new(&c);
            let mut sm = Scoreboard::new(&c);
            membar_formal::unit::replay_unit::<SmSyncPorts>(
                &ports,
                v,
                &mut model,
                Box::new(move |k, i, o| sv.observe(k, i, o)),
                Box::new(move |k, i, o| sm.observe(k, i, o)),
            )
        }),
    }
}

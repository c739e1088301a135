//! The formal harness of `bar_unit` (`spec/bar_unit.md`, B1–B7): every input
//! free, reset in cycle 0, and a port-level monitor of the contract's
//! pipeline: stage A (the handshake: which request is taken this cycle) at
//! the ports, the taken event registered, and stage B — the old
//! single-cycle monitor applied to that registered event, one cycle later,
//! with `err` expected for it then and releases due the cycle after; an
//! exit's completion waits one more cycle (stage C). It follows the live warps, the warps of one free constant CTA slot `fs`, the
//! state of one free constant barrier (`fs`, `fa`) (phase open, form,
//! expected count, arrivals, kind, waiters, reduction) and the pending
//! state of one free constant warp `fw`. Because `fs`, `fa` and `fw` are
//! arbitrary, each property holds for every slot, barrier and warp.
//!
//! Where the monitor cannot know a fact at the ports for an event outside
//! (`fs`, `fa`) — whether a launch into another slot was refused as
//! `slot_busy` — it reads the unit's `err` for that event; this is sound
//! because the instance whose `fs` is that slot checks `err` exactly
//! (`B6_err`), so the first wrong `err` in any trace is caught. Likewise a
//! request's or an exit's blocked check reads `blocked`, which `B2` proves
//! equal to the pending set for every warp.

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::config::BarConfig;
use bar_unit_model::ports::BarUnitPorts;
use bar_unit_model::scoreboard::BarScoreboard;
use membar_formal::harness::Group;
use membar_formal::taps::{self, Tap};
use membar_formal::unit::{popcount, ports_section, UnitSpec};
use unit_ports::Unit;

/// The property groups of `bar_unit`.
pub const GROUPS: &[Group] = &[
    Group {
        name: "rst",
        props: &["RST_outputs_zero"],
        what: "every output is 0 in a reset cycle",
    },
    Group {
        name: "b1",
        props: &["B1_release_exact", "B1_release_fields", "B1_idle_zero"],
        what: "B1/B3/B5/B7 for barrier (fs, fa): rel_valid with (rel_slot, rel_id) = (fs, fa) exactly 2 cycles after the arrival (3 after the exit, for an \"all\" phase) that reached the expected count or the live warps of the CTA; rel_mask = exactly the phase's bar.sync/bar.red arrivals, rel_op = its kind, rel_result = popc / AND / OR over its predicates; every rel_* 0 when rel_valid is low",
    },
    Group {
        name: "b2",
        props: &[
            "B2_blocked_eq_pending",
            "B2_no_accept_blocked",
            "B2_release_only_blocked",
            "B2_ready_valid",
        ],
        what: "B2 for warp fw: blocked[fw] equals \"a bar.sync/bar.red of fw taken two or more cycles earlier, without err (in the cycle after), and not released in an earlier cycle\" (bar.arrive never blocks); no request of a blocked fw taken; rel_mask[fw] only while fw is blocked; req_ready only with req_valid",
    },
    Group {
        name: "b4",
        props: &["B4_throughput"],
        what: "B4/cycle rules: req_ready exactly when req_valid, no ctl event this cycle or the previous one, the warp not blocked and not right after its own non-bar.arrive request (one arrival per cycle whatever is pending)",
    },
    Group {
        name: "b6",
        props: &["B6_err_warp", "B6_code_zero"],
        what: "B6, the causes that need no barrier state, for the event taken in the previous cycle: err/err_code exactly the first cause for every ctl event (slot_range, slot_busy of slot fs, bad_warps, exit_not_live, exit_blocked) and every taken request with cause 1-4 (bad_op, no_cta, arrive_no_count, zero_count); no err for a refused request or an idle cycle; err_code 0 when err is low",
    },
    Group {
        name: "b6c",
        props: &["B6_err"],
        what: "B6, every cause: as b6, plus the causes that need slot or barrier state — count_too_big (slot fs's size), count_mismatch and kind_mix (barrier (fs, fa)'s open phase) — and no err for a good arrival at (fs, fa). (Bad inputs change nothing: B1/B2 hold with the erroring events ignored.)",
    },
    Group {
        name: "inv",
        props: &["INV_live", "INV_slot", "INV_ins", "INV_slive", "INV_wait", "INV_all_cnt", "INV_pipe_q", "INV_pipe_a", "INV_pipe_x", "INV_pipe_ram"],
        what: "strengthening invariants about the RTL's registers (taps) that need no assumption: INV_live: live = the RTL's live warps, each in a slot < C; INV_slot: slot fs's busy/size/live count = the RTL's (nothing in a slot >= C); INV_ins: fs's warps = the live warps whose RTL slot is fs; INV_slive: fs's live count = their number, busy iff nonzero, at most its size, at most W; INV_wait: waiting within blocked within live, blocked = waiting + the release register's mask; INV_all_cnt (the lemma): barrier (fs, fa) has no waiting warp while closed, and while open as an \"all\" phase its RTL count equals its number of waiting warps; INV_pipe_q: the RTL's stage-B register holds the event the monitor took (its predicate reduced); INV_pipe_a: stage A's look-ups in it (the warp's slot and live bit; for a live warp the barrier's active bit, the target less one and whether it is at most one, count > size) are the RTL's state, and no request is in stage B while stage C holds an exit; INV_pipe_x: with an EXIT in stage B, stage A's look-ups for it (the warp's live and blocked bits and slot, the slot's live count less one and whether it is 1 (for a slot < C), and last_all) are the RTL's state, and stage C's registered live count is its slot's; INV_pipe_ram: with a request in stage B (or an exit in stage C), each barrier RAM's word as the RTL reads it (the read register, or the forwarding register when the last write hit the read address) is the RAM's word of that barrier",
    },
    Group {
        name: "invb",
        props: &["INV_bar", "INV_wait_fb", "INV_last", "INV_pipe_c"],
        what: "the monitor's barrier (fs, fa) = the RTL's (its active bit in the slot table, its other fields in the barrier RAM words): INV_bar: open, form, expected (0 for \"all\"), count (below the expected count, at most W; at most W for \"all\"), kind, popc/AND/OR equal while open; INV_wait_fb: its waiters = the RTL's waiting warps of (fs, fa); INV_last (the RTL's exit candidate, `last_all`): if a warp of slot fs waits on an open \"all\" barrier other than fs's last_all, some warp waits on last_all, itself an open \"all\" barrier — so an exit can complete last_all only; INV_pipe_c: stage C holds (fs, fa) as an open \"all\" barrier whose count reaches the live warps exactly when the monitor's exit completion of (fs, fa) is due, and the release it holds is the barrier's Its tasks (and b1's, b6c's) assert inv too and ASSUME the lemma INV_all_cnt for all 16 barriers of fs (ASM_all_cnt), which group inv proves for every barrier (fa is free); that gives the exit rule's \"lowest id\" (two \"all\" barriers cannot both reach the live count)",
    },
    Group {
        name: "all",
        props: &["RST_outputs_zero", "B1_release_exact", "B1_release_fields", "B1_idle_zero", "B2_blocked_eq_pending", "B2_no_accept_blocked", "B2_release_only_blocked", "B2_ready_valid", "B4_throughput", "B6_err_warp", "B6_code_zero", "B6_err", "INV_live", "INV_slot", "INV_ins", "INV_slive", "INV_wait", "INV_all_cnt", "INV_pipe_q", "INV_pipe_a", "INV_pipe_x", "INV_pipe_ram", "INV_bar", "INV_wait_fb", "INV_last", "INV_pipe_c"],
        what: "every group above in one task (one front-end run: the bounded checks of the large configurations)",
    },
];

/// Groups `membar formal` does not run under pdr by default: they need the
/// monitor's barrier state related to the RTL's, which pdr does not find in
/// 420 s. With the strengthening invariants (groups inv, invb) k-induction
/// proves them: `--engine kind --depth 2 --props inv,invb,b1,b6c` (docs/formal.md).
pub const PDR_SKIP: &[&str] = &["b1", "b6c", "inv", "invb"];

/// The groups whose tasks connect the taps and assert the invariants.
pub const TAP_GROUPS: &[&str] = &["b1", "b6c", "inv", "invb", "all"];

/// The taps (RTL registers and barrier RAM words) the invariants read, their
/// declarations, the multiplexers on (fs, fa), and the lemmas' per-barrier
/// checks over slot fs.
fn taps(cfg: &BarConfig) -> String {
    let (w, c, cb, rb) = (cfg.warps, cfg.cta_slots, cfg.cb(), cfg.rb());
    let sb = cfg.sb();
    let wt = "dut.core.warps";
    let st = "dut.core.slots";
    let mut t = vec![
        Tap::new("t_live", w, format!("{wt}.live_q.q")),
        Tap::new("t_blocked", w, format!("{wt}.blocked_q.q")),
        // The release register: a blocked warp waits unless it holds it
        // (`warp_table.rs` keeps no waiting register; `t_waiting` below).
        Tap::new("t_rvalid", 1, "dut.core.rel.valid_q.q"),
        Tap::new("t_rmask", w, "dut.core.rel.mask_q.q"),
    ];
    for k in 0..w {
        t.push(Tap::new(
            format!("t_wslot_{k}"),
            sb,
            format!("{wt}.wslot__{k}.q"),
        ));
        t.push(Tap::new(
            format!("t_wbar_{k}"),
            4,
            format!("{wt}.wbar__{k}.q"),
        ));
    }
    // Barrier RAM words (`barrier_ram.rs`): flags {or, and, kind, all}, expected, count, popc.
    const RAMS: [(&str, &str); 4] = [
        ("flags", "ram_flags"),
        ("exp", "ram_expected"),
        ("cnt", "ram_count"),
        ("popc", "ram_popc"),
    ];
    let width = |f: &str| match f {
        "flags" => 6,
        "exp" | "cnt" => cb,
        _ => rb,
    };
    for k in 0..c {
        t.push(Tap::new(
            format!("t_busy_{k}"),
            1,
            format!("{st}.busy__{k}.q"),
        ));
        t.push(Tap::new(
            format!("t_size_{k}"),
            cb,
            format!("{st}.size__{k}.q"),
        ));
        t.push(Tap::new(
            format!("t_slive_{k}"),
            cb,
            format!("{st}.live__{k}.q"),
        ));
        t.push(Tap::new(
            format!("t_act_{k}"),
            16,
            format!("{st}.active__{k}.q"),
        ));
        t.push(Tap::new(
            format!("t_last_{k}"),
            4,
            format!("{st}.last_all__{k}.q"),
        ));
        for a in 0..16 {
            for (f, r) in RAMS {
                t.push(Tap::new(
                    format!("t_{f}_{k}_{a}"),
                    width(f),
                    format!("dut.core.{r}.mem.ram.mem[{}]", k * 16 + a),
                ));
            }
        }
    }
    // The pipeline: stage registers (`stage_regs.rs`) and each RAM's
    // forwarding register and read register (`barrier_ram.rs`).
    let rt = "dut.core.regs";
    for (n, r, wd) in [
        ("bv", "valid_q", 1),
        ("bc", "ctl_q", 1),
        ("bwarp", "warp_q", cfg.wb()),
        ("bop", "op_q", 3),
        ("bid", "id_q", 4),
        ("ball", "all_q", 1),
        ("bcount", "count_q", cb),
        ("bpopc", "popc_q", rb),
        ("band", "and_q", 1),
        ("bor", "or_q", 1),
        ("brslot", "rslot_q", sb),
        ("bwlive", "wlive_q", 1),
        ("btoobig", "too_big_q", 1),
        ("btm1", "target_m1_q", cb),
        ("ble1", "target_le1_q", 1),
        ("bactive", "active_q", 1),
        ("bcop", "ctl_op_q", 1),
        ("bslot", "slot_q", sb),
        ("bwarps", "warps_q", w),
        ("bsize", "size_q", cb),
        ("bcwarp", "ctl_warp_q", cfg.wb()),
        ("bxwlive", "x_wlive_q", 1),
        ("bxblk", "x_blocked_q", 1),
        ("bxslot", "x_slot_q", sb),
        ("bxsdec", "x_sdec_q", cb),
        ("bxsempty", "x_sempty_q", 1),
        ("bxlast", "x_last_q", 4),
        ("cv", "c_valid_q", 1),
        ("cslot", "c_slot_q", sb),
        ("cid", "c_id_q", 4),
        ("clive", "c_live_q", cb),
    ] {
        t.push(Tap::new(format!("t_{n}"), wd, format!("{rt}.{r}.q")));
    }
    for (f, r) in RAMS {
        let d = format!("dut.core.{r}.mem");
        t.push(Tap::new(
            format!("t_{f}_bv"),
            1,
            format!("{d}.byp_valid_q.q"),
        ));
        t.push(Tap::new(format!("t_{f}_hit"), 1, format!("{d}.hit_q.q")));
        t.push(Tap::new(
            format!("t_{f}_bd"),
            width(f),
            format!("{d}.byp_data_q.q"),
        ));
        t.push(Tap::new(
            format!("t_{f}_rd"),
            width(f),
            format!("{d}.ram.read_data"),
        ));
    }
    let mut s = taps::declare(&t, TAP_GROUPS);
    let cat = |f: &dyn Fn(u32) -> String, n: u32| {
        let v: Vec<String> = (0..n).rev().map(f).collect();
        format!("{{{}}}", v.join(", "))
    };
    s += &format!(
        "  wire [W-1:0] t_at_fs = {};\n",
        cat(&|k| format!("t_wslot_{k} == fs"), w)
    );
    s += &format!(
        "  wire [W-1:0] t_on_fb = t_at_fs & {};\n",
        cat(&|k| format!("t_wbar_{k} == fa"), w)
    );
    s += "  wire [W-1:0] t_waiting = t_blocked & ~(t_rvalid ? t_rmask : {W{1'b0}});\n";
    s += "  wire [W-1:0] t_wait_fs = t_waiting & t_at_fs;\n";
    s += &format!(
        "  wire [W-1:0] t_slot_ok = {};\n",
        cat(&|k| format!("t_wslot_{k} < C"), w)
    );
    s += "  // Slot fs and barrier (fs, fa) in the RTL; per barrier of fs: open, \"all\", count; fs's last_all.\n";
    s += "  reg r_busy; reg [CB-1:0] r_size, r_slive; reg [3:0] r_last;
  reg r_act, r_all, r_and, r_or; reg [CB-1:0] r_exp, r_cnt; reg [2:0] r_kind; reg [RB-1:0] r_popc;\n";
    s += "  reg [15:0] ra_act, ra_all; reg [16*CB-1:0] ra_cnt;\n";
    s += "  always @* begin
    r_busy = 0; r_size = 0; r_slive = 0; r_last = 0; r_act = 0; r_all = 0; r_and = 0; r_or = 0;
    r_exp = 0; r_cnt = 0; r_kind = 0; r_popc = 0; ra_act = 0; ra_all = 0; ra_cnt = 0;\n";
    for k in 0..c {
        s += &format!(
            "    if (fs == {k}) begin
      r_busy = t_busy_{k}; r_size = t_size_{k}; r_slive = t_slive_{k}; r_last = t_last_{k};\n"
        );
        s += &format!(
            "      ra_act = t_act_{k}; ra_all = {}; ra_cnt = {};
      case (fa)\n",
            cat(&|a| format!("t_flags_{k}_{a}[0]"), 16),
            cat(&|a| format!("t_cnt_{k}_{a}"), 16)
        );
        for a in 0..16 {
            s += &format!("        {a}: begin r_act = t_act_{k}[{a}]; r_all = t_flags_{k}_{a}[0]; r_kind = t_flags_{k}_{a}[3:1]; r_and = t_flags_{k}_{a}[4]; r_or = t_flags_{k}_{a}[5]; r_exp = t_exp_{k}_{a}; r_cnt = t_cnt_{k}_{a}; r_popc = t_popc_{k}_{a}; end\n");
        }
        s += "      endcase
    end\n";
    }
    s += "  end\n";
    // The lemma for one barrier: closed -> no waiters; open "all" -> count = waiters.
    let lemma = |act: &str, all: &str, cnt: &str, waiters: &str| {
        format!(
            "(({act}) || {waiters} == 0) && (!(({act}) && ({all})) || {cnt} == {})",
            popcount(waiters, w, cb)
        )
    };
    s += "  wire [W-1:0] t_wait_fb = t_wait_fs & t_on_fb;\n";
    s += &format!(
        "  wire lemma_fb = {};\n",
        lemma("r_act", "r_all", "r_cnt", "t_wait_fb")
    );
    for a in 0..16 {
        s += &format!(
            "  wire [W-1:0] t_wa_{a} = t_wait_fs & {};\n",
            cat(&|k| format!("t_wbar_{k} == {a}"), w)
        );
    }
    let every: Vec<String> = (0..16)
        .map(|a| {
            format!(
                "    ({})",
                lemma(
                    &format!("ra_act[{a}]"),
                    &format!("ra_all[{a}]"),
                    &format!("ra_cnt[{a}*CB +: CB]"),
                    &format!("t_wa_{a}")
                )
            )
        })
        .collect();
    s += &format!(
        "  wire lemma_all = 1'b1
{};\n",
        every
            .iter()
            .map(|e| format!("   &&{e}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The exit-candidate lemma: waiters on an open "all" barrier other than
    // last_all imply waiters on last_all, an open "all" barrier.
    s += &format!(
        "  wire [15:0] wall = {};\n",
        cat(
            &|a| format!("ra_act[{a}] && ra_all[{a}] && t_wa_{a} != 0"),
            16
        )
    );
    s += "  wire [15:0] last_bit = 16'd1 << r_last;\n";
    s += "  wire lemma_last = (wall & ~last_bit) == 0 || (wall & last_bit) != 0;\n";
    s += &format!("  wire [CB-1:0] ins_pc = {};\n", popcount("ins", w, cb));
    // Pipeline look-ups: the RTL's own state at stage B's request, and each
    // RAM's word at its read and forwarding addresses.
    s += "  reg [SB-1:0] p_wslot, p_xwslot; reg p_act; reg [CB-1:0] p_slive, p_size, p_xslive, p_cslive; reg [3:0] p_xlast;\n";
    s += "  always @* begin\n    p_wslot = 0; p_xwslot = 0; p_act = 0; p_slive = 0; p_size = 0; p_xslive = 0; p_cslive = 0; p_xlast = 0;\n    case (t_bwarp)\n";
    for k in 0..w {
        s += &format!("      {k}: p_wslot = t_wslot_{k};\n");
    }
    s += "      default: ;\n    endcase\n    case (t_bcwarp)\n";
    for k in 0..w {
        s += &format!("      {k}: p_xwslot = t_wslot_{k};\n");
    }
    s += "      default: ;\n    endcase\n    case (t_brslot)\n";
    for k in 0..c {
        s += &format!("      {k}: begin p_act = t_act_{k}[t_bid]; p_slive = t_slive_{k}; p_size = t_size_{k}; end\n");
    }
    s += "      default: ;\n    endcase\n    case (t_bxslot)\n";
    for k in 0..c {
        s += &format!("      {k}: begin p_xslive = t_slive_{k}; p_xlast = t_last_{k}; end\n");
    }
    s += "      default: ;\n    endcase\n    case (t_cslot)\n";
    for k in 0..c {
        s += &format!("      {k}: p_cslive = t_slive_{k};\n");
    }
    s += "      default: ;\n    endcase\n  end\n";
    s += "  wire p_wlive = t_live[t_bwarp];\n";
    for (f, _) in RAMS {
        let wd = width(f);
        s += &format!(
            "  reg [{}:0] m_{f}_b, m_{f}_c;\n  always @* begin\n    m_{f}_b = t_{f}_rd; m_{f}_c = t_{f}_rd;\n",
            wd - 1
        );
        for (sel, out) in [("{t_brslot, t_bid}", "b"), ("{t_cslot, t_cid}", "c")] {
            s += &format!("    case ({sel})\n");
            for k in 0..c {
                for a in 0..16 {
                    s += &format!("      {}: m_{f}_{out} = t_{f}_{k}_{a};\n", k * 16 + a);
                }
            }
            s += "      default: ;\n    endcase\n";
        }
        s += "  end\n";
        // The word stage B (or C) reads: the read register's, or the
        // forwarded write's when that write hit the read address.
        s += &format!(
            "  wire ram_ok_{f} = (!(t_bv && !t_bc) || ((t_{f}_bv && t_{f}_hit) ? t_{f}_bd : t_{f}_rd) == m_{f}_b)\n      && (!t_cv || ((t_{f}_bv && t_{f}_hit) ? t_{f}_bd : t_{f}_rd) == m_{f}_c);\n"
        );
    }
    s += &format!(
        "  wire [RB-1:0] q_pc = {};\n  wire [CB-1:0] q_wc = {};\n",
        popcount("q_pred", 32, rb),
        popcount("q_warps", w, cb)
    );
    s
}

/// The invariants: combinational (`always @*`), so each one is checked in
/// the step it names and k-induction assumes it in the steps before.
const INVARIANTS: &str = "
`ifdef G_INV
  always @* begin
    if (!reset) begin
      INV_live: assert (live == t_live && (t_live & ~t_slot_ok) == 0);
      INV_slot: assert (fs >= C ? (!busy && slive == 0 && ins == 0 && !b_act)
                                : (busy == r_busy && size == r_size && slive == r_slive));
      INV_ins: assert (ins == (t_live & t_at_fs));
      INV_slive: assert (slive == ins_pc && busy == (slive != 0) && slive <= size && size <= W);
      INV_wait: assert ((t_waiting & ~t_blocked) == 0 && (t_blocked & ~t_live) == 0
                        && t_blocked == (t_waiting | (rel_valid ? rel_mask : {W{1'b0}}))
                        && (!rel_valid || (t_waiting & rel_mask) == 0));
      INV_all_cnt: assert (lemma_fb);
      INV_pipe_q: assert (t_bv == q_v && t_bc == q_ctl && (!q_v || (q_ctl
                    ? (t_bcop == q_cop && t_bslot == q_slot && t_bwarps == q_warps && t_bcwarp == q_cwarp && t_bsize == q_wc)
                    : (t_bwarp == q_warp && t_bop == q_op && t_bid == q_id && t_ball == q_all && t_bcount == q_count
                       && t_bpopc == q_pc && t_band == (q_pred == 32'hffffffff) && t_bor == (q_pred != 0)))));
      INV_pipe_a: assert (!(t_bv && !t_bc) || (t_brslot == p_wslot && t_bwlive == p_wlive && !t_cv
                    && (!t_bwlive || (t_bactive == p_act
                        && t_btm1 == (t_ball ? p_slive - 1'b1 : t_bcount - 1'b1)
                        && t_ble1 == (t_ball ? p_slive <= 1 : t_bcount <= 1)
                        && t_btoobig == (!t_ball && t_bcount > p_size)))));
      INV_pipe_x: assert ((!(t_bv && t_bc && t_bcop) || (t_bxwlive == t_live[t_bcwarp] && t_bxblk == t_blocked[t_bcwarp]
                    && t_bxslot == p_xwslot && (t_bxslot >= C || (t_bxsdec == p_xslive - 1'b1 && t_bxsempty == (p_xslive == 1))) && t_bxlast == p_xlast))
                    && (!t_cv || t_clive == p_cslive));
      INV_pipe_ram: assert (ram_ok_flags && ram_ok_exp && ram_ok_cnt && ram_ok_popc);
    end
  end
`endif
`ifdef G_INVB
  always @* begin
    if (!reset) begin
      INV_bar: assert (b_act == r_act && (!b_act || ((b_all ? b_cnt <= W : (b_cnt < b_exp && b_exp <= W)) && b_all == r_all && (!b_all || b_exp == 0) && b_exp == r_exp
                        && b_cnt == r_cnt && b_kind == r_kind && b_popc == r_popc && b_and == r_and && b_or == r_or)));
      INV_wait_fb: assert (b_act ? b_wait == t_wait_fb : t_wait_fb == 0);
      INV_last: assert (fs >= C || lemma_last);
      INV_pipe_c: assert (x_v == (t_cv && t_cslot == fs && t_cid == fa && r_act && r_all && r_cnt >= r_slive)
                    && (!x_v || (b_act && x_mask == b_wait && x_op == b_kind && x_res == res_of_bar)));
    end
  end
`endif
`ifdef G_ASM
  // The lemma INV_all_cnt for every barrier of slot fs, assumed: group inv
  // proves it for the free barrier fa, hence for every barrier.
  always @* if (!reset) ASM_all_cnt: assume (lemma_all);
`endif\n";

/// SystemVerilog of `bar_unit_formal_top` for `cfg`.
pub fn harness(cfg: &BarConfig) -> String {
    let ports = BarUnitPorts::ports(cfg);
    let (w, wb, c, sb, cb, rb) = (
        cfg.warps,
        cfg.wb(),
        cfg.cta_slots,
        cfg.sb(),
        cfg.cb(),
        cfg.rb(),
    );
    let mut s = format!(
        "// bar_unit_formal_top.sv: formal harness of bar_unit, generated by membar-formal {} — do not edit.\n// Configuration: warps {w}, cta_slots {c}.\n\n",
        env!("CARGO_PKG_VERSION")
    );
    // In proof runs (G_PROVE: pdr, kind) b1 and b6c assert the invariants
    // too and, like invb, assume the lemma proven by inv (k-induction needs
    // them); bounded runs check the port properties alone; `all` asserts
    // the invariants and assumes nothing.
    s += "`ifdef G_PROVE\n`ifdef G_B1\n`define G_INVB\n`endif\n`ifdef G_B6C\n`define G_INVB\n`endif\n`ifdef G_INVB\n`define G_ASM\n`endif\n`endif\n`ifdef G_INVB\n`define G_INV\n`endif\n";
    s += "`ifdef G_ALL\n`define G_RST\n`define G_B1\n`define G_B2\n`define G_B4\n`define G_B6\n`define G_B6C\n`define G_INV\n`define G_INVB\n`endif\n";
    s += &ports_section(
        &ports,
        "bar_unit",
        "bar_unit_formal_top",
        &[
            "reset",
            "req_valid",
            "req_ready",
            "req_warp",
            "req_op",
            "req_id",
            "req_all",
            "req_count",
            "req_pred",
            "ctl_valid",
            "ctl_op",
            "ctl_slot",
            "ctl_warps",
            "ctl_warp",
            "rel_valid",
            "rel_slot",
            "rel_id",
            "rel_mask",
            "rel_op",
            "rel_result",
            "blocked",
            "err",
            "err_code",
        ],
    );
    let pc_launch = popcount("q_warps", w, cb);
    let pc_pred = popcount("q_pred", 32, rb);
    s += &format!(
        "  localparam W = {w}, WB = {wb}, C = {c}, SB = {sb}, CB = {cb}, RB = {rb};
  (* anyconst *) reg [SB-1:0] fs;   // the CTA slot watched
  (* anyconst *) reg [3:0] fa;      // the barrier id watched in it
  (* anyconst *) reg [WB-1:0] fw;   // the warp watched (B2)

  // Warps live (in any CTA) and in slot fs; slot fs busy, size, live count.
  reg [W-1:0] live, ins;
  reg busy; reg [CB-1:0] size, slive;
  // Barrier (fs, fa): phase open, form, expected, arrivals, kind, waiters, reduction.
  reg b_act, b_all; reg [CB-1:0] b_exp, b_cnt; reg [2:0] b_kind; reg [W-1:0] b_wait;
  reg [RB-1:0] b_popc; reg b_and, b_or;
  // Its release, due this cycle.
  reg r_v; reg [W-1:0] r_mask; reg [2:0] r_op; reg [RB-1:0] r_res;
  // Warp fw blocked (B2).
  reg pf;

  // Exit completion in flight (stage C): the release it loads next.
  reg x_v; reg [W-1:0] x_mask; reg [2:0] x_op; reg [RB-1:0] x_res;

  // Stage A, at the ports: the request taken this cycle.
  wire [W-1:0] wbit_a = {{{{(W-1){{1'b0}}}}, 1'b1}} << req_warp;
  wire blk       = (blocked & wbit_a) != 0;
  // The event taken in the previous cycle (stage B's), as the ports gave it.
  reg q_v, q_ctl, q_all, q_cop; reg [WB-1:0] q_warp, q_cwarp; reg [2:0] q_op; reg [3:0] q_id;
  reg [CB-1:0] q_count; reg [31:0] q_pred; reg [SB-1:0] q_slot; reg [W-1:0] q_warps;
  wire after_ctl = q_v && q_ctl;
  wire behind    = q_v && !q_ctl && q_warp == req_warp && q_op != 3'd1;
  wire take_a    = req_valid && !ctl_valid && !after_ctl && !blk && !behind;

  // Stage B: the registered event against the monitor's state.
  wire [W-1:0] wbit_req  = {{{{(W-1){{1'b0}}}}, 1'b1}} << q_warp;
  wire [W-1:0] wbit_exit = {{{{(W-1){{1'b0}}}}, 1'b1}} << q_cwarp;
  wire w_live    = (live & wbit_req) != 0;
  wire w_in      = (ins & wbit_req) != 0;
  wire is_red    = q_op >= 3'd2 && q_op <= 3'd4;
  wire blocks    = q_op == 3'd0 || is_red;
  wire [2:0] kind_of = is_red ? q_op : 3'd0;
  wire on_fb     = w_in && q_id == fa;
  wire take      = q_v && !q_ctl;
  // Request causes 1-4 need only the warp; 5 its slot's size; 6-7 its barrier.
  wire [3:0] rcode14 = q_op > 3'd4 ? 4'd1 : !w_live ? 4'd2 : (q_op == 3'd1 && q_all) ? 4'd3
                     : (!q_all && q_count == 0) ? 4'd4 : 4'd0;
  wire c5 = !q_all && q_count > size;
  wire c6 = b_act && (b_all != q_all || (!q_all && b_exp != q_count));
  wire c7 = b_act && b_kind != kind_of;
  wire [3:0] rcode = rcode14 != 0 ? rcode14 : (w_in && c5) ? 4'd5 : (on_fb && c6) ? 4'd6 : (on_fb && c7) ? 4'd7 : 4'd0;
  wire rknown = rcode14 != 0 || (w_in && c5) || on_fb;
  // Ctl causes: launch 8-10 (slot_busy known for slot fs only), exit 11-12.
  wire lrange = q_slot >= C;
  wire [3:0] lcode = lrange ? 4'd8 : (q_slot == fs && busy) ? 4'd9
                   : (q_warps == 0 || (q_warps & live) != 0) ? 4'd10 : 4'd0;
  wire [3:0] xcode = (live & wbit_exit) == 0 ? 4'd11 : (blocked & wbit_exit) != 0 ? 4'd12 : 4'd0;
  wire launch = q_v && q_ctl && q_cop == 1'b0;
  wire exit_ = q_v && q_ctl && q_cop == 1'b1;
  wire known = launch ? (lrange || q_slot == fs) : exit_ ? 1'b1 : take ? rknown : 1'b1;
  wire known_w = launch ? (lrange || q_slot == fs) : exit_ ? 1'b1 : take ? rcode14 != 0 : 1'b1;
  wire [3:0] ecode = launch ? lcode : exit_ ? xcode : take ? rcode : 4'd0;
  wire launch_ok = launch && (q_slot == fs ? lcode == 0 : !err);
  wire exit_ok = exit_ && xcode == 0;
  wire exit_in = exit_ok && (ins & wbit_exit) != 0;
  wire [CB-1:0] slive_x = slive - 1'b1;
  wire arr_ok = take && on_fb && rcode == 0;
  // The barrier after this cycle's arrival.
  wire [CB-1:0] cnt_n  = (b_act ? b_cnt : {{CB{{1'b0}}}}) + 1'b1;
  wire all_n = b_act ? b_all : q_all;
  wire [CB-1:0] exp_n = b_act ? b_exp : (q_all ? {{CB{{1'b0}}}} : q_count);
  wire [2:0] kind_n = b_act ? b_kind : kind_of;
  wire [W-1:0] wait_n = (b_act ? b_wait : {{W{{1'b0}}}}) | (blocks ? wbit_req : {{W{{1'b0}}}});
  wire [RB-1:0] popc_n = (b_act ? b_popc : {{RB{{1'b0}}}}) + ({pc_pred});
  wire and_n = (b_act ? b_and : 1'b1) && q_pred == 32'hffffffff;
  wire or_n  = (b_act ? b_or : 1'b0) || q_pred != 0;
  wire arr_done = all_n ? cnt_n >= slive : cnt_n >= exp_n;
  wire exit_done = exit_in && slive_x != 0 && b_act && b_all && b_cnt >= slive_x;
  wire [RB-1:0] res_of_arr = kind_n == 3'd2 ? popc_n : kind_n == 3'd3 ? {{{{(RB-1){{1'b0}}}}, and_n}} : kind_n == 3'd4 ? {{{{(RB-1){{1'b0}}}}, or_n}} : 0;
  wire [RB-1:0] res_of_bar = b_kind == 3'd2 ? b_popc : b_kind == 3'd3 ? {{{{(RB-1){{1'b0}}}}, b_and}} : b_kind == 3'd4 ? {{{{(RB-1){{1'b0}}}}, b_or}} : 0;

  always @(posedge clock) begin
    if (reset) begin
      live <= 0; ins <= 0; busy <= 1'b0; size <= 0; slive <= 0;
      b_act <= 1'b0; r_v <= 1'b0; pf <= 1'b0; x_v <= 1'b0; q_v <= 1'b0; q_ctl <= 1'b0;
    end else begin
      // Stage A: register this cycle's taken event.
      q_v <= take_a || ctl_valid; q_ctl <= ctl_valid;
      q_warp <= req_warp; q_op <= req_op; q_id <= req_id; q_all <= req_all; q_count <= req_count; q_pred <= req_pred;
      q_cop <= ctl_op; q_slot <= ctl_slot; q_warps <= ctl_warps; q_cwarp <= ctl_warp;
      pf <= (pf && !(rel_valid && rel_mask[fw])) || (take && q_warp == fw && !err && blocks);
      r_v <= 1'b0;
      x_v <= 1'b0;
      // Stage C: an exit's completion, found last cycle.
      if (x_v) begin
        b_act <= 1'b0; r_v <= 1'b1; r_mask <= x_mask; r_op <= x_op; r_res <= x_res;
      end
      if (launch_ok) begin
        live <= live | q_warps;
        if (q_slot == fs) begin
          ins <= q_warps; busy <= 1'b1; size <= {pc_launch}; slive <= {pc_launch};
        end
      end
      if (exit_ok) begin
        live <= live & ~wbit_exit;
        if (exit_in) begin
          ins <= ins & ~wbit_exit; slive <= slive_x;
          if (slive_x == 0) begin busy <= 1'b0; size <= 0; b_act <= 1'b0; end
          else if (exit_done) begin
            x_v <= 1'b1; x_mask <= b_wait; x_op <= b_kind; x_res <= res_of_bar;
          end
        end
      end
      if (arr_ok) begin
        if (arr_done) begin
          b_act <= 1'b0; r_v <= 1'b1; r_mask <= wait_n; r_op <= kind_n; r_res <= res_of_arr;
        end else begin
          b_act <= 1'b1; b_all <= all_n; b_exp <= exp_n; b_cnt <= cnt_n; b_kind <= kind_n;
          b_wait <= wait_n; b_popc <= popc_n; b_and <= and_n; b_or <= or_n;
        end
      end
    end
  end

  always @(posedge clock) begin
    if (reset) begin
`ifdef G_RST
      RST_outputs_zero: assert (!req_ready && !rel_valid && rel_slot == 0 && rel_id == 0 && rel_mask == 0 && rel_op == 0
                         && rel_result == 0 && blocked == 0 && !err && err_code == 0);
`endif
    end else begin
`ifdef G_B1
      B1_release_exact: assert ((rel_valid && rel_slot == fs && rel_id == fa) == r_v);
      B1_release_fields: assert (!r_v || (rel_mask == r_mask && rel_op == r_op && rel_result == r_res));
      B1_idle_zero: assert (rel_valid || (rel_slot == 0 && rel_id == 0 && rel_mask == 0 && rel_op == 0 && rel_result == 0));
`endif
`ifdef G_B2
      B2_blocked_eq_pending: assert (blocked[fw] == pf);
      B2_no_accept_blocked: assert (!(req_ready && req_warp == fw && pf));
      B2_release_only_blocked: assert (!(rel_valid && rel_mask[fw]) || pf);
      B2_ready_valid: assert (req_valid || !req_ready);
`endif
`ifdef G_B4
      B4_throughput: assert (req_ready == take_a);
`endif
`ifdef G_B6
      B6_err_warp: assert (!known_w || (err == (ecode != 0) && err_code == ecode));
      B6_code_zero: assert (err || err_code == 0);
`endif
`ifdef G_B6C
      B6_err: assert (!known || (err == (ecode != 0) && err_code == ecode));
`endif
    end
  end
"
    );
    s += &taps(cfg);
    s += INVARIANTS;
    s += "endmodule\n";
    s
}

/// The unit's formal run for `cfg`.
pub fn spec(cfg: &BarConfig) -> UnitSpec {
    let c = *cfg;
    UnitSpec {
        unit: "bar",
        module: "bar_unit",
        groups: GROUPS,
        harness: harness(cfg),
        top: "bar_unit_formal_top".into(),
        replay: Box::new(move |v| {
            let ports = BarUnitPorts::ports(&c);
            let mut model = BarUnitModel::new(c);
            let mut sv = BarScoreboard::new(&c);
            let mut sm = BarScoreboard::new(&c);
            membar_formal::unit::replay_unit::<BarUnitPorts>(
                &ports,
                v,
                &mut model,
                Box::new(move |_, i, o| sv.check(i, o).map_err(|e| e.to_string())),
                Box::new(move |_, i, o| sm.check(i, o).map_err(|e| e.to_string())),
            )
        }),
    }
}

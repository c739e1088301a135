//! Directed tests of the golden models: every op of `bar_unit`, every error
//! cause, exit semantics, independence, back-to-back phases, reset, the
//! pipeline's cycle rules (err one cycle after the event, release 2 cycles
//! after the last arrival and 3 after a completing exit, the refusals right
//! after a ctl event and right after a warp's own non-ARRIVE request); the
//! cluster barrier's phases, `gone`, errors; configuration validation. Every
//! cycle also goes through the port-only scoreboard, which must agree.

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::cluster_barrier::ClusterBarrierModel;
use bar_unit_model::config::{BarConfig, ClusterConfig, TimingConfig};
use bar_unit_model::ports::{
    ctl, errc, op, BarInputs, BarOutputs, BarUnitPorts, ClusterBarrierPorts, ClusterInputs, Dir,
    Port, Unit,
};
use bar_unit_model::scoreboard::{BarScoreboard, ClusterScoreboard};

struct Bench {
    m: BarUnitModel,
    sb: BarScoreboard,
}

impl Bench {
    fn new(warps: u32, cta_slots: u32) -> Bench {
        let cfg = BarConfig { warps, cta_slots };
        Bench {
            m: BarUnitModel::new(cfg),
            sb: BarScoreboard::new(&cfg),
        }
    }
    fn step(&mut self, i: BarInputs) -> BarOutputs {
        let o = self.m.step(&i);
        if let Err(v) = self.sb.check(&i, &o) {
            panic!("scoreboard: {v}");
        }
        o
    }
    fn idle(&mut self) -> BarOutputs {
        self.step(BarInputs::default())
    }
    fn launch(&mut self, slot: u8, warps: u64) -> BarOutputs {
        self.step(BarInputs {
            ctl_valid: true,
            ctl_op: ctl::LAUNCH,
            ctl_slot: slot,
            ctl_warps: warps,
            ..Default::default()
        })
    }
    fn exit(&mut self, w: u8) -> BarOutputs {
        self.step(BarInputs {
            ctl_valid: true,
            ctl_op: ctl::EXIT,
            ctl_warp: w,
            ..Default::default()
        })
    }
    fn req(&mut self, w: u8, o: u8, id: u8, count: Option<u8>, pred: u32) -> BarOutputs {
        self.step(req(w, o, id, count, pred))
    }
}

fn req(w: u8, o: u8, id: u8, count: Option<u8>, pred: u32) -> BarInputs {
    BarInputs {
        req_valid: true,
        req_warp: w,
        req_op: o,
        req_id: id,
        req_all: count.is_none(),
        req_count: count.unwrap_or(0),
        req_pred: pred,
        ..Default::default()
    }
}

#[test]
fn sync_all_releases_whole_cta_two_cycles_after_last_arrival() {
    let mut b = Bench::new(8, 2);
    b.launch(0, 0x0f);
    b.idle();
    for w in 0..3 {
        let o = b.req(w, op::SYNC, 0, None, 0);
        assert!(o.req_ready && !o.err && !o.rel_valid);
    }
    let o = b.req(3, op::SYNC, 0, None, 0);
    assert!(o.req_ready && !o.rel_valid);
    assert_eq!(
        o.blocked, 0x3,
        "a warp is blocked from the second cycle after its bar.sync"
    );
    let o = b.idle();
    assert!(
        !o.rel_valid && !o.err,
        "no release in the cycle the last arrival is checked"
    );
    assert_eq!(o.blocked, 0x7);
    let o = b.idle();
    assert!(o.rel_valid, "released 2 cycles after the last arrival");
    assert_eq!(
        (o.rel_slot, o.rel_id, o.rel_mask, o.rel_op, o.rel_result),
        (0, 0, 0xf, 0, 0)
    );
    assert_eq!(
        o.blocked, 0xf,
        "waiters stay blocked through the release cycle"
    );
    let o = b.idle();
    assert!(!o.rel_valid);
    assert_eq!(o.blocked, 0);
}

#[test]
fn explicit_count_subset_and_arrive_does_not_block() {
    let mut b = Bench::new(16, 4);
    b.launch(1, 0xff00);
    b.idle();
    // Producer w8 arrives (count 2), consumer w9 syncs: only w9 waits.
    let o = b.req(8, op::ARRIVE, 0, Some(2), 0);
    assert!(o.req_ready && !o.err);
    let o = b.idle();
    assert!(!o.err);
    let o = b.idle();
    assert_eq!(o.blocked, 0, "bar.arrive never blocks");
    b.req(9, op::SYNC, 0, Some(2), 0);
    assert!(!b.idle().rel_valid);
    let o = b.idle();
    assert!(o.rel_valid);
    assert_eq!((o.rel_slot, o.rel_id, o.rel_mask), (1, 0, 1 << 9));
    // Arrive-only phase completes with an empty mask.
    b.req(10, op::ARRIVE, 5, Some(1), 0);
    b.idle();
    let o = b.idle();
    assert!(o.rel_valid && o.rel_mask == 0 && o.rel_id == 5);
}

#[test]
fn reductions_popc_and_or() {
    let mut b = Bench::new(8, 1);
    b.launch(0, 0x7);
    b.idle();
    b.req(0, op::RED_POPC, 2, Some(3), 0x0000_000f);
    b.req(1, op::RED_POPC, 2, Some(3), 0xffff_ffff);
    b.req(2, op::RED_POPC, 2, Some(3), 0);
    b.idle();
    let o = b.idle();
    assert_eq!(
        (o.rel_valid, o.rel_op, o.rel_result, o.rel_mask),
        (true, op::RED_POPC, 36, 0x7)
    );
    b.req(0, op::RED_AND, 3, None, u32::MAX);
    b.req(1, op::RED_AND, 3, None, u32::MAX);
    b.req(2, op::RED_AND, 3, None, u32::MAX - 1);
    b.idle();
    let o = b.idle();
    assert_eq!((o.rel_op, o.rel_result), (op::RED_AND, 0));
    b.req(0, op::RED_AND, 3, None, u32::MAX);
    b.req(1, op::RED_AND, 3, None, u32::MAX);
    b.req(2, op::RED_AND, 3, None, u32::MAX);
    b.idle();
    assert_eq!(b.idle().rel_result, 1);
    b.req(0, op::RED_OR, 4, Some(2), 0);
    b.req(1, op::RED_OR, 4, Some(2), 0x100);
    b.idle();
    let o = b.idle();
    assert_eq!((o.rel_op, o.rel_result, o.rel_mask), (op::RED_OR, 1, 0x3));
    b.req(0, op::RED_OR, 4, Some(2), 0);
    b.req(1, op::RED_OR, 4, Some(2), 0);
    b.idle();
    assert_eq!(b.idle().rel_result, 0);
}

#[test]
fn blocked_warp_is_refused_without_err() {
    let mut b = Bench::new(8, 1);
    b.launch(0, 0x3);
    b.idle();
    assert!(b.req(0, op::SYNC, 0, None, 0).req_ready);
    let o = b.req(0, op::SYNC, 1, None, 0);
    assert!(
        !o.req_ready && !o.err,
        "refused: its bar.sync of the previous cycle is being checked"
    );
    assert_eq!(o.blocked, 0);
    let o = b.req(0, op::ARRIVE, 1, Some(1), 0);
    assert!(!o.req_ready && !o.err, "refused: blocked");
    assert_eq!(o.blocked, 0x1);
    let o = b.req(1, op::ARRIVE, 2, Some(1), 0);
    assert!(o.req_ready, "another warp's request is taken");
}

#[test]
fn the_request_after_a_warps_non_arrive_request_is_refused() {
    let mut b = Bench::new(8, 1);
    b.launch(0, 0x0f);
    b.idle();
    // bar.arrive does not hold the warp's next request back.
    assert!(b.req(0, op::ARRIVE, 0, Some(2), 0).req_ready);
    assert!(b.req(0, op::ARRIVE, 1, Some(2), 0).req_ready);
    assert!(b.req(0, op::SYNC, 2, Some(1), 0).req_ready);
    let o = b.req(0, op::ARRIVE, 3, Some(2), 0);
    assert!(!o.req_ready && !o.err, "after its bar.sync");
    // bar.sync 2, 32 completed by itself: blocked in its release cycle only.
    let o = b.req(0, op::ARRIVE, 3, Some(2), 0);
    assert!(!o.req_ready && !o.err && o.blocked == 0x1);
    assert!(o.rel_valid && o.rel_mask == 0x1);
    let o = b.req(0, op::ARRIVE, 3, Some(2), 0);
    assert!(o.req_ready && o.blocked == 0);
    // A bad op or an illegal bar.sync holds the next request back too, but blocks nothing.
    assert!(b.req(1, 5, 4, Some(1), 0).req_ready);
    let o = b.req(1, op::ARRIVE, 4, Some(1), 0);
    assert!(!o.req_ready && o.err && o.err_code == errc::BAD_OP);
    let o = b.req(1, op::ARRIVE, 4, Some(1), 0);
    assert!(o.req_ready && !o.err && o.blocked == 0);
    b.idle();
    assert!(b.req(2, op::SYNC, 5, Some(0), 0).req_ready);
    let o = b.req(2, op::SYNC, 5, Some(1), 0);
    assert!(!o.req_ready && o.err && o.err_code == errc::ZERO_COUNT);
    let o = b.req(2, op::SYNC, 5, Some(1), 0);
    assert!(o.req_ready && !o.err && o.blocked == 0);
}

#[test]
fn exit_completes_an_all_barrier_but_not_an_explicit_one() {
    let mut b = Bench::new(8, 1);
    b.launch(0, 0x0f);
    b.idle();
    b.req(0, op::SYNC, 0, None, 0);
    b.req(1, op::SYNC, 0, None, 0);
    b.req(2, op::SYNC, 0, None, 0);
    b.req(3, op::ARRIVE, 7, Some(2), 0);
    let o = b.exit(3);
    assert!(!o.err && !o.rel_valid);
    let o = b.idle();
    assert!(!o.err && !o.rel_valid, "the exit is checked");
    let o = b.idle();
    assert!(!o.rel_valid, "the completion is loaded");
    let o = b.idle();
    assert!(o.rel_valid, "released 3 cycles after the exit");
    assert_eq!(
        (o.rel_id, o.rel_mask),
        (0, 0x7),
        "the exit completed bar 0 (every live warp arrived)"
    );
    for _ in 0..5 {
        assert!(
            !b.idle().rel_valid,
            "an explicit count is not lowered by exits"
        );
    }
}

#[test]
fn last_exit_frees_the_slot_and_clears_its_barriers() {
    let mut b = Bench::new(8, 2);
    b.launch(1, 0x30);
    b.idle();
    b.req(4, op::ARRIVE, 9, Some(2), 0);
    b.exit(4);
    b.exit(5);
    b.launch(1, 0x03);
    let o = b.idle();
    assert!(!o.err, "slot free again");
    b.req(0, op::ARRIVE, 9, Some(1), 0);
    b.idle();
    let o = b.idle();
    assert!(
        o.rel_valid && o.rel_slot == 1 && o.rel_id == 9,
        "the old half-phase was cleared"
    );
}

/// Steps `i` (a bad event; the cycle before had no bad one), then expects
/// `err` with `code` in the next cycle, no state change, and no `err` after.
fn expect_err(b: &mut Bench, i: BarInputs, code: u8) {
    let o = b.step(i);
    assert!(
        !o.err,
        "{}: err comes in the cycle after the event",
        errc::name(code)
    );
    let before = b.m.state.clone();
    let o = b.idle();
    assert!(o.err, "expected err {}", errc::name(code));
    assert_eq!(
        o.err_code,
        code,
        "expected {}, got {}",
        errc::name(code),
        errc::name(o.err_code)
    );
    let after = &b.m.state;
    assert_eq!(
        before.bars,
        after.bars,
        "{}: barrier state changed",
        errc::name(code)
    );
    assert_eq!(
        (before.live, before.blocked, &before.slot_busy),
        (after.live, after.blocked, &after.slot_busy)
    );
    assert!(!b.idle().err, "err is a one-cycle pulse");
}

#[test]
fn every_error_cause_pulses_err_and_changes_nothing() {
    let mut b = Bench::new(8, 3);
    b.launch(0, 0x0f);
    b.launch(1, 0x30);
    b.idle();
    expect_err(&mut b, req(0, 5, 0, Some(1), 0), errc::BAD_OP);
    expect_err(&mut b, req(7, op::SYNC, 0, None, 0), errc::NO_CTA);
    expect_err(
        &mut b,
        req(0, op::ARRIVE, 0, None, 0),
        errc::ARRIVE_NO_COUNT,
    );
    expect_err(&mut b, req(0, op::SYNC, 0, Some(0), 0), errc::ZERO_COUNT);
    expect_err(&mut b, req(4, op::SYNC, 0, Some(3), 0), errc::COUNT_TOO_BIG);
    b.req(0, op::SYNC, 1, Some(3), 0);
    expect_err(
        &mut b,
        req(1, op::SYNC, 1, Some(2), 0),
        errc::COUNT_MISMATCH,
    );
    expect_err(&mut b, req(1, op::SYNC, 1, None, 0), errc::COUNT_MISMATCH);
    expect_err(&mut b, req(1, op::RED_POPC, 1, Some(3), 0), errc::KIND_MIX);
    b.req(1, op::RED_AND, 2, Some(2), 0);
    expect_err(&mut b, req(2, op::RED_OR, 2, Some(2), 0), errc::KIND_MIX);
    expect_err(&mut b, req(2, op::ARRIVE, 2, Some(2), 0), errc::KIND_MIX);
    let launch = |slot, warps| BarInputs {
        ctl_valid: true,
        ctl_op: ctl::LAUNCH,
        ctl_slot: slot,
        ctl_warps: warps,
        ..Default::default()
    };
    expect_err(&mut b, launch(3, 0x40), errc::SLOT_RANGE);
    expect_err(&mut b, launch(1, 0x40), errc::SLOT_BUSY);
    expect_err(&mut b, launch(2, 0), errc::BAD_WARPS);
    expect_err(&mut b, launch(2, 0x41), errc::BAD_WARPS);
    let exit = |w| BarInputs {
        ctl_valid: true,
        ctl_op: ctl::EXIT,
        ctl_warp: w,
        ..Default::default()
    };
    expect_err(&mut b, exit(7), errc::EXIT_NOT_LIVE);
    expect_err(&mut b, exit(0), errc::EXIT_BLOCKED);
    // After all that, the open phases still complete normally.
    b.req(2, op::SYNC, 1, Some(3), 0);
    b.req(3, op::SYNC, 1, Some(3), 0);
    b.idle();
    let o = b.idle();
    assert!(o.rel_valid && o.rel_mask == 0b1101 && o.rel_id == 1);
}

#[test]
fn an_exit_right_after_the_warps_sync_is_checked_against_it() {
    let mut b = Bench::new(8, 1);
    b.launch(0, 0x3);
    b.idle();
    assert!(b.req(0, op::SYNC, 0, Some(2), 0).req_ready);
    let o = b.exit(0);
    assert!(!o.err);
    let o = b.idle();
    assert!(
        o.err && o.err_code == errc::EXIT_BLOCKED,
        "stage B checks the exit after the bar.sync taken before it"
    );
    assert_eq!(o.blocked, 0x1);
}

#[test]
fn request_in_a_ctl_cycle_is_refused() {
    let mut b = Bench::new(8, 2);
    b.launch(0, 0x3);
    b.idle();
    let mut i = req(0, op::SYNC, 0, None, 0);
    i.ctl_valid = true;
    i.ctl_op = ctl::LAUNCH;
    i.ctl_slot = 1;
    i.ctl_warps = 0xc;
    let o = b.step(i);
    assert!(!o.req_ready && !o.err);
}

#[test]
fn request_right_after_a_ctl_event_is_refused() {
    let mut b = Bench::new(8, 2);
    b.launch(0, 0x7);
    let o = b.req(0, op::ARRIVE, 0, Some(1), 0);
    assert!(!o.req_ready && !o.err, "the launch is being applied");
    let o = b.req(0, op::ARRIVE, 0, Some(1), 0);
    assert!(o.req_ready, "presented again, taken");
    b.exit(2);
    let o = b.req(1, op::ARRIVE, 1, Some(1), 0);
    assert!(!o.req_ready && !o.err, "the exit is being applied");
    // A bad ctl event holds the next request back too.
    b.exit(2);
    let o = b.req(1, op::ARRIVE, 1, Some(1), 0);
    assert!(!o.req_ready && o.err && o.err_code == errc::EXIT_NOT_LIVE);
    let o = b.req(1, op::ARRIVE, 1, Some(1), 0);
    assert!(o.req_ready && !o.err);
}

#[test]
fn ctas_and_ids_are_independent_and_one_arrival_per_cycle_is_taken() {
    let mut b = Bench::new(32, 4);
    b.launch(0, 0x0000_00ff);
    b.launch(1, 0x0000_ff00);
    b.idle();
    // Same id 3 in both CTAs, counts 8: interleave; every request taken at once.
    for k in 0..7u8 {
        assert!(b.req(k, op::SYNC, 3, Some(8), 0).req_ready);
        assert!(b.req(8 + k, op::SYNC, 3, Some(8), 0).req_ready);
        assert!(
            !b.req(8 + k, op::SYNC, 4, Some(8), 0).req_ready,
            "warp whose bar.sync is being checked refused"
        );
        assert!(
            !b.req(8 + k, op::SYNC, 4, Some(8), 0).req_ready,
            "blocked warp refused"
        );
    }
    assert!(b.req(15, op::SYNC, 3, Some(8), 0).req_ready);
    b.idle();
    let o = b.idle();
    assert!(o.rel_valid && o.rel_slot == 1 && o.rel_mask == 0xff00);
    assert_eq!(o.blocked, 0xff7f);
    b.req(7, op::SYNC, 3, Some(8), 0);
    b.idle();
    let o = b.idle();
    assert!(o.rel_valid && o.rel_slot == 0 && o.rel_mask == 0xff);
}

#[test]
fn back_to_back_phases_arrival_right_after_the_completing_one_counts_for_next_phase() {
    let mut b = Bench::new(8, 1);
    b.launch(0, 0xff);
    b.idle();
    b.req(0, op::ARRIVE, 6, Some(2), 0);
    b.req(1, op::ARRIVE, 6, Some(2), 0);
    // Taken while phase 1's completing arrival is checked: opens phase 2.
    let o = b.req(2, op::ARRIVE, 6, Some(2), 0);
    assert!(o.req_ready && !o.rel_valid);
    // Release cycle of phase 1: this arrival completes phase 2.
    let o = b.req(3, op::SYNC, 6, Some(2), 0);
    assert!(o.req_ready && o.rel_valid && o.rel_id == 6 && o.rel_mask == 0);
    let o = b.idle();
    assert!(!o.rel_valid);
    let o = b.idle();
    assert!(
        o.rel_valid && o.rel_mask == 0x8,
        "phase 2 = w2 (arrive) + w3 (sync)"
    );
}

#[test]
fn reset_clears_everything() {
    let mut b = Bench::new(8, 2);
    b.launch(0, 0x3);
    b.idle();
    assert!(b.req(0, op::SYNC, 0, None, 0).req_ready);
    // Reset right after the bar.sync was taken; a launch and a request
    // presented with the reset.
    let mut i = req(0, op::SYNC, 0, None, 0);
    i.reset = true;
    i.ctl_valid = true;
    i.ctl_op = ctl::LAUNCH;
    i.ctl_slot = 1;
    i.ctl_warps = 0xc;
    let o = b.step(i);
    assert_eq!(o, BarOutputs::default());
    let o = b.idle();
    assert_eq!((o.blocked, o.err), (0, false));
    let o = b.idle();
    assert_eq!(
        o.blocked, 0,
        "the bar.sync taken before the reset was dropped"
    );
    assert!(b.req(0, op::SYNC, 0, None, 0).req_ready);
    assert_eq!(b.idle().err_code, errc::NO_CTA);
    assert!(b.req(2, op::SYNC, 0, None, 0).req_ready);
    assert_eq!(
        b.idle().err_code,
        errc::NO_CTA,
        "the launch presented with the reset was not taken"
    );
}

#[test]
fn port_tables_follow_the_parameters() {
    let t = BarUnitPorts::ports(&BarConfig {
        warps: 64,
        cta_slots: 5,
    });
    let get = |n: &str| t.iter().find(|p| p.name == n).copied().unwrap();
    let port = |name, dir, width| Port { name, dir, width };
    assert_eq!(get("req_warp"), port("req_warp", Dir::In, 6));
    assert_eq!(get("req_count"), port("req_count", Dir::In, 7));
    assert_eq!(get("ctl_slot"), port("ctl_slot", Dir::In, 3));
    assert_eq!(get("rel_mask"), port("rel_mask", Dir::Out, 64));
    assert_eq!(get("rel_result"), port("rel_result", Dir::Out, 12));
    assert_eq!(t.len(), 24);
    let c = ClusterBarrierPorts::ports(&ClusterConfig { ranks: 16 });
    assert_eq!(c.iter().find(|p| p.name == "arv").unwrap().width, 16);
    assert_eq!(
        BarConfig {
            warps: 8,
            cta_slots: 1
        }
        .sb(),
        1
    );
}

#[test]
fn config_errors_name_key_value_and_allowed() {
    let e = BarConfig::from_yaml("warps: 12\n", "my.yaml").unwrap_err();
    let s = e.to_string();
    assert!(
        s.contains("my.yaml")
            && s.contains("warps")
            && s.contains("12")
            && s.contains("8, 16, 32, 64"),
        "{s}"
    );
    let e = BarConfig::from_yaml("warps: 8\ncta_slots: 9\n", "c.yaml").unwrap_err();
    assert!(
        e.to_string().contains("cta_slots") && e.to_string().contains("1..=warps"),
        "{e}"
    );
    let e = BarConfig::from_yaml("wraps: 8\n", "c.yaml").unwrap_err();
    assert!(e.to_string().contains("unknown key"), "{e}");
    let e = BarConfig::from_yaml("warps: [1]\n", "c.yaml").unwrap_err();
    assert!(e.to_string().contains("a list"), "{e}");
    assert!(BarConfig::from_yaml(": :\n  - ]", "bad.yaml").is_err());
    assert_eq!(
        BarConfig::from_yaml("warps: 16\ncta_slots: 16\n", "ok").unwrap(),
        BarConfig {
            warps: 16,
            cta_slots: 16
        }
    );
    let e = ClusterConfig::from_yaml("ranks: 3\n", "cl.yaml").unwrap_err();
    assert!(
        e.to_string().contains("cl.yaml") && e.to_string().contains("ranks"),
        "{e}"
    );
    assert_eq!(
        ClusterConfig::from_yaml("ranks: 16\n", "cl.yaml")
            .unwrap()
            .ranks,
        16
    );
    let e = ClusterConfig { ranks: 3 }.validate("x").unwrap_err();
    assert!(e.to_string().contains("1, 2, 4, 8, 16"));
    let e = TimingConfig::from_yaml("arrival_interval: 0\n", "t.yaml").unwrap_err();
    assert!(e.to_string().contains("timing.arrival_interval"), "{e}");
    let e = TimingConfig::from_yaml("fence: 3\n", "t.yaml").unwrap_err();
    assert!(e.to_string().contains("timing.fence"), "{e}");
    assert_eq!(
        TimingConfig::from_yaml("", "t").unwrap(),
        TimingConfig::h100()
    );
}

// ---------------------------------------------------------------------------
// Cluster barrier
// ---------------------------------------------------------------------------

#[test]
fn cluster_phases_gone_and_errors() {
    let cfg = ClusterConfig { ranks: 4 };
    let mut m = ClusterBarrierModel::new(cfg);
    let mut sb = ClusterScoreboard::new(&cfg);
    let mut step = |arv: u32, gone: u32| {
        let i = ClusterInputs {
            reset: false,
            arv,
            gone,
        };
        let o = m.step(&i);
        sb.check(&i, &o)
            .unwrap_or_else(|v| panic!("scoreboard: {v}"));
        o
    };
    let o = step(0b0011, 0);
    assert!(!o.done && !o.phase);
    let o = step(0b0001, 0);
    assert!(
        o.err && o.err_rank == 1 && o.arrived == 0b0011,
        "double arrival"
    );
    let o = step(0b1100, 0);
    assert!(!o.done && !o.err);
    let o = step(0b0001, 0);
    assert!(
        o.done && !o.done_phase && o.phase,
        "done 1 cycle later, phase 0 done, now in 1"
    );
    assert_eq!(o.arrived, 0);
    // Arrival in the done cycle counted for phase 1; rank 3 goes away.
    let o = step(0b0110, 0b1000);
    assert_eq!(o.arrived, 0b0001);
    let o = step(0, 0b1000);
    assert!(
        o.done && o.done_phase,
        "phase 1 completed by ranks 0-2 with rank 3 gone"
    );
    let o = step(0b1000, 0b1000);
    assert!(o.err && o.err_rank == 0b1000, "a gone rank may not arrive");
}

#[test]
fn cluster_size_one_completes_every_arrival() {
    let cfg = ClusterConfig { ranks: 1 };
    let mut m = ClusterBarrierModel::new(cfg);
    let mut phases = vec![];
    for _ in 0..4 {
        m.step(&ClusterInputs {
            reset: false,
            arv: 1,
            gone: 0,
        });
        let o = m.step(&ClusterInputs::default());
        assert!(o.done);
        phases.push(o.done_phase);
    }
    assert_eq!(phases, vec![false, true, false, true], "phases alternate");
}

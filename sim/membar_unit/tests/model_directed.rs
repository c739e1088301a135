//! Directed tests of the reference model: hand-written cycle sequences whose
//! expected port behaviour is worked out from docs/microarchitecture.md.

use membar_unit_model::config::{Config, LevelMix};
use membar_unit_model::ports::{kind, level, op, Dut, Inputs, MembarUnitPorts, Outputs};
use membar_unit_model::MembarModel;

fn req(warp: u8, opc: u8, lvl: u8, ivall: u8, id: u16) -> Inputs {
    Inputs {
        req_valid: true,
        req_warp: warp,
        req_op: opc,
        req_level: lvl,
        req_ivall: ivall,
        req_id: id,
        dn_ready: true,
        ..Inputs::default()
    }
}

fn idle() -> Inputs {
    Inputs {
        dn_ready: true,
        ..Inputs::default()
    }
}

fn ack(tag: u8) -> Inputs {
    Inputs {
        dn_ready: true,
        ack_valid: true,
        ack_tag: tag,
        ..Inputs::default()
    }
}

fn bar_ack(tag: u8) -> Inputs {
    Inputs {
        dn_ready: true,
        bar_ack_valid: true,
        bar_ack_tag: tag,
        ..Inputs::default()
    }
}

/// Step and return the outputs.
fn st(m: &mut dyn Dut<MembarUnitPorts>, i: Inputs) -> Outputs {
    m.step(&i)
}

/// The default configuration with every barrier waiting `window` cycles
/// (`lone_window = coalesce_window`, the unit before issue 15).
fn cfg(window: u32) -> Config {
    Config {
        coalesce_window: window,
        lone_window: window,
        ..Config::default()
    }
}

#[test]
fn producer_consumer_gl() {
    let mut m = MembarModel::new(&cfg(0));
    // cycle 0: ST from warp 3 accepted.
    let o = st(&mut m, req(3, op::ST, 0, 0, 0x11));
    assert!(o.req_ready);
    // cycle 1: the ST is presented (tag 0); MEMBAR.GL of warp 3 accepted.
    let o = st(&mut m, req(3, op::MEMBAR, level::GL, 0, 0));
    assert!(
        o.req_ready
            && o.dn_valid
            && o.dn_kind == kind::TXN
            && o.dn_id == 0x11
            && o.dn_tag == 0
            && o.dn_warp == 3
    );
    // cycle 2: warp 3 blocked; its flag store is refused without err.
    let o = st(&mut m, req(3, op::ST, 0, 0, 0x12));
    assert!(!o.req_ready && !o.err && o.warp_blocked == 1 << 3);
    // window 0: the slot closed in cycle 2, the sequencer loads the output
    // register in cycle 3, the BARRIER is presented in cycle 4.
    assert!(!st(&mut m, idle()).dn_valid);
    let o = st(&mut m, idle());
    assert!(
        o.dn_valid
            && o.dn_kind == kind::BARRIER
            && o.dn_level == level::GL
            && o.dn_tag == 0
            && !o.dn_ack_req
    );
    // Not released while the ST is unacknowledged.
    for _ in 0..5 {
        let o = st(&mut m, idle());
        assert!(!o.release_valid && o.warp_blocked == 1 << 3);
    }
    // ack in cycle t -> release in cycle t+1.
    let o = st(&mut m, ack(0));
    assert!(!o.release_valid && !o.err);
    let o = st(&mut m, idle());
    assert!(o.release_valid && o.release_mask == 1 << 3 && o.warp_blocked == 1 << 3);
    let o = st(&mut m, req(3, op::ST, 0, 0, 0x12));
    assert!(o.req_ready && o.warp_blocked == 0);
    // The next TXN is tagged with the new open slot.
    let o = st(&mut m, idle());
    assert!(o.dn_valid && o.dn_kind == kind::TXN && o.dn_tag == 1);
}

#[test]
fn cta_releases_after_last_txn_leaves() {
    let mut m = MembarModel::new(&cfg(16));
    let o = st(&mut m, req(1, op::LD, 0, 0, 5));
    assert!(o.req_ready);
    // MEMBAR.CTA accepted while the LD sits in the output register, downstream stalled.
    let mut i = req(1, op::MEMBAR, level::CTA, 0, 0);
    i.dn_ready = false;
    assert!(st(&mut m, i).req_ready);
    let o = st(
        &mut m,
        Inputs {
            dn_ready: false,
            ..idle()
        },
    );
    assert!(!o.release_valid && o.warp_blocked == 2);
    // Transferred in this cycle...
    let o = st(&mut m, idle());
    assert!(o.dn_valid && !o.release_valid);
    // ...released in the next one: no BARRIER for a plain CTA barrier.
    let o = st(&mut m, idle());
    assert!(o.release_valid && o.release_mask == 2 && !o.dn_valid);
}

#[test]
fn coalesces_behind_outstanding_barrier() {
    // Warp 0's GL barrier is outstanding (its ST unacknowledged); warps 1..=4
    // fence meanwhile and share the next coalesced barrier.
    let mut m = MembarModel::new(&cfg(0));
    st(&mut m, req(0, op::ST, 0, 0, 1));
    st(&mut m, req(0, op::MEMBAR, level::GL, 0, 0));
    let mut barriers = 0;
    for w in 1..=4u8 {
        let o = st(&mut m, req(w, op::MEMBAR, level::GL, 0, 0));
        assert!(o.req_ready);
        barriers += (o.dn_valid && o.dn_kind == kind::BARRIER) as u32;
    }
    for _ in 0..10 {
        let o = st(&mut m, idle());
        barriers += (o.dn_valid && o.dn_kind == kind::BARRIER) as u32;
    }
    assert_eq!(
        barriers, 1,
        "only warp 0's barrier may be out while it is outstanding"
    );
    assert_eq!(m.q.nmem, 4);
    st(&mut m, ack(0));
    let o = st(&mut m, idle());
    assert_eq!(o.release_mask, 1);
    // The coalesced barrier of warps 1..=4 closes now and is released once its
    // BARRIER has gone out (nothing tagged with it is outstanding).
    let mut released = 0u64;
    for _ in 0..6 {
        let o = st(&mut m, idle());
        barriers += (o.dn_valid && o.dn_kind == kind::BARRIER) as u32;
        released |= o.release_mask;
    }
    assert_eq!(barriers, 2);
    assert_eq!(released, 0b11110);
}

#[test]
fn sys_with_ivall_emits_invals_then_barrier_and_waits_for_bar_ack() {
    let mut m = MembarModel::new(&cfg(0));
    st(&mut m, req(2, op::MEMBAR, level::SYS, 3, 0));
    st(&mut m, idle()); // closes
    st(&mut m, idle()); // sequencer loads the output register
    let a = st(&mut m, idle());
    let b = st(&mut m, idle());
    let c = st(&mut m, idle());
    assert!(a.dn_kind == kind::INVAL && a.dn_op == 0);
    assert!(b.dn_kind == kind::INVAL && b.dn_op == 1);
    assert!(c.dn_kind == kind::BARRIER && c.dn_level == level::SYS && c.dn_ack_req);
    for _ in 0..4 {
        assert!(!st(&mut m, idle()).release_valid);
    }
    // A bar_ack for another tag is spurious: err, ignored.
    let o = st(&mut m, bar_ack(1));
    assert!(o.err);
    st(&mut m, bar_ack(0));
    assert_eq!(st(&mut m, idle()).release_mask, 1 << 2);
}

#[test]
fn bad_input_is_refused_and_flagged() {
    let mut m = MembarModel::new(&cfg(0));
    let o = st(&mut m, req(0, 5, 0, 0, 0));
    assert!(!o.req_ready && o.err);
    let o = st(&mut m, ack(2));
    assert!(o.err);
    assert_eq!(m.q.cnt, [0; 8], "a spurious ack must not move a counter");
    // An ack for a TXN still in the output register is spurious too.
    st(&mut m, req(0, op::ST, 0, 0, 0));
    let mut i = ack(0);
    i.dn_ready = false;
    assert!(st(&mut m, i).err);
}

#[test]
fn counter_full_refuses_until_ack() {
    let c = Config {
        counter_bits: 4,
        ..cfg(0)
    };
    let mut m = MembarModel::new(&c);
    for k in 0..15 {
        assert!(st(&mut m, req(0, op::ST, 0, 0, k)).req_ready, "store {k}");
    }
    let o = st(&mut m, req(1, op::ST, 0, 0, 99));
    assert!(!o.req_ready && !o.err);
    st(&mut m, ack(0));
    assert!(st(&mut m, req(1, op::ST, 0, 0, 99)).req_ready);
}

#[test]
fn split_policy_closes_on_level_change() {
    let c = Config {
        level_mix: LevelMix::Split,
        ..cfg(100)
    };
    let mut m = MembarModel::new(&c);
    st(&mut m, req(0, op::MEMBAR, level::GL, 0, 0));
    let o = st(&mut m, req(1, op::MEMBAR, level::SYS, 0, 0));
    assert!(
        o.req_ready,
        "the SYS barrier closes the GL one and opens its own"
    );
    assert_eq!(m.q.closed, 1);
    assert_eq!((m.q.open, m.q.nmem, m.q.level[1]), (1, 1, level::SYS));
    // A third level cannot close the SYS one while the GL one is outstanding.
    let o = st(&mut m, req(2, op::MEMBAR, level::VC, 0, 0));
    assert!(!o.req_ready && !o.err);
}

#[test]
fn reset_gates_outputs_and_clears_state() {
    let mut m = MembarModel::new(&cfg(0));
    st(&mut m, req(0, op::MEMBAR, level::GL, 0, 0));
    let o = st(
        &mut m,
        Inputs {
            reset: true,
            ..req(1, op::ST, 0, 0, 1)
        },
    );
    assert_eq!(o, Outputs::default());
    assert_eq!(st(&mut m, idle()).warp_blocked, 0);
}

/// docs/microarchitecture.md: a lone MEMBAR.GL with nothing outstanding is
/// released `lone_window + 4` cycles after acceptance, whatever
/// `coalesce_window` is (only barriers behind an outstanding one wait that).
#[test]
fn lone_gl_latency_matches_doc() {
    for (window, lone) in [
        (0u32, 0u32),
        (1, 1),
        (16, 0),
        (16, 2),
        (16, 16),
        (255, 4),
        (255, 255),
    ] {
        let c = Config {
            lone_window: lone,
            ..cfg(window)
        };
        let mut m = MembarModel::new(&c);
        assert!(st(&mut m, req(0, op::MEMBAR, level::GL, 0, 0)).req_ready);
        let mut t = 0u32;
        loop {
            t += 1;
            if st(&mut m, idle()).release_valid {
                break;
            }
            assert!(t < 1000);
        }
        assert_eq!(t, lone + 4, "window {window}, lone_window {lone}");
    }
}

#[test]
fn per_warp_drain_waits_only_for_own_transactions() {
    use membar_unit_model::config::Arch;
    let c = Config {
        arch: Arch::PerWarpDrain,
        ..cfg(0)
    };
    let mut m = membar_unit_model::model_for(&c);
    st(&mut m, req(1, op::ST, 0, 0, 1)); // warp 1: tag 1
    st(&mut m, req(0, op::ST, 0, 0, 2)); // warp 0: tag 0
    let o = st(&mut m, req(0, op::MEMBAR, level::GL, 0, 0));
    assert!(
        o.req_ready && o.dn_kind == kind::TXN && o.dn_tag == 0,
        "warp 0's store carries tag 0"
    );
    // The BARRIER takes the output register this cycle; the LD waits one cycle.
    assert!(!st(&mut m, req(2, op::LD, 0, 0, 3)).req_ready);
    let o = st(&mut m, req(2, op::LD, 0, 0, 3));
    assert!(o.req_ready, "other warps keep flowing");
    assert!(o.dn_kind == kind::BARRIER && o.dn_tag == 0, "{o:?}");
    st(&mut m, ack(0));
    // Released although warp 1's store (tag 1) is still outstanding.
    assert_eq!(st(&mut m, idle()).release_mask, 1);
}

#[test]
fn lsu_flush_stalls_every_warp() {
    use membar_unit_model::config::Arch;
    let c = Config {
        arch: Arch::LsuFlush,
        ..cfg(0)
    };
    let mut m = membar_unit_model::model_for(&c);
    st(&mut m, req(1, op::ST, 0, 0, 1));
    assert!(st(&mut m, req(0, op::MEMBAR, level::GL, 0, 0)).req_ready);
    assert!(
        !st(&mut m, req(2, op::LD, 0, 0, 3)).req_ready,
        "every warp stalls"
    );
    let o = st(&mut m, idle());
    assert!(o.dn_kind == kind::BARRIER && o.dn_tag == 0);
    assert!(!st(&mut m, idle()).release_valid);
    st(&mut m, ack(0));
    assert_eq!(st(&mut m, idle()).release_mask, 1);
    assert!(st(&mut m, req(2, op::LD, 0, 0, 3)).req_ready);
}

/// Regression: a VC barrier frees its slot with a TXN still counted; with K=2
/// that slot would be reopened next and its TXN hidden from the release walk.
/// The GL barrier must still wait for warp 1's store.
#[test]
fn gl_waits_for_txn_counted_in_a_released_vc_slot() {
    for slots in [2u32, 4] {
        let c = Config {
            slots,
            ways: 1,
            warps: 8,
            counter_bits: 4,
            ..cfg(0)
        };
        let mut m = MembarModel::new(&c);
        st(&mut m, req(1, op::ST, 0, 0, 1)); // tag 0, never acked below
                                             // Enough VC barriers of other warps to walk the ring back to slot 0.
        for v in 0..slots as u8 - 1 {
            let w = 2 + v;
            let mut k = 0;
            while !st(&mut m, req(w, op::MEMBAR, level::VC, 0, 0)).req_ready {
                k += 1;
                assert!(k < 50);
            }
            for _ in 0..8 {
                st(&mut m, idle());
            }
        }
        assert!(st(&mut m, req(1, op::MEMBAR, level::GL, 0, 0)).req_ready);
        for _ in 0..40 {
            let o = st(&mut m, idle());
            assert!(
                o.release_mask & 2 == 0,
                "K={slots}: warp 1 released with its store unacknowledged"
            );
        }
        st(&mut m, ack(0));
        let mut rel = 0;
        for _ in 0..10 {
            rel |= st(&mut m, idle()).release_mask;
        }
        assert!(rel & 2 != 0, "K={slots}: warp 1 released after the ack");
    }
}

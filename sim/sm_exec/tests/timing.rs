//! The SM timing preset's mechanisms, each against its absence: deferred
//! blocking (the clock read right after a waiter's `bar.sync` is not held),
//! the release sequencer's fan-out, the per-barrier arrival interval, the
//! `try_wait` early wake, and the cache model (a cold `cp.async` group waits
//! for DRAM, a hot one does not).

use sm_exec::sm_timing::SmTiming;
use sm_exec::sync_probes::{cells, Cell};

fn get(cs: &[Cell], sub: &str, cfg: &str, metric: &str) -> f64 {
    cs.iter()
        .find(|c| c.0 == sub && c.1 == cfg && c.2 == metric)
        .unwrap_or_else(|| panic!("no cell {sub} {cfg} {metric}"))
        .3
}

#[test]
fn each_mechanism_moves_its_cells() {
    let h100 = SmTiming::h100();
    let base = cells(&h100).unwrap();
    let g = get;
    // Deferred blocking: the waiter reads its clock 500+ cycles before the
    // last arrival, and its st.shared waits for the release.
    let wf = "waiter first; last arriver bar.sync; X = st.shared";
    assert!(
        g(
            &base,
            "1g",
            wf,
            "t1-tA (clock read right after waiter's bar.sync; vs last arrival)"
        ) < -400.0
    );
    assert!(g(&base, "1g", wf, "t2-tA (after X; vs last arrival)") > 0.0);
    // Fan-out: 31 waiters leave over more cycles than 1; without the
    // sequencer's interval they would all leave together.
    let fan = |cs: &[Cell], k: u32| {
        let cfg =
            format!("{k} waiter warps; last arriver bar.sync; waiters: bar.sync then st.shared");
        g(cs, "1h", &cfg, "last waiter out") - g(cs, "1h", &cfg, "first waiter out (t2-tA)")
    };
    assert!(fan(&base, 31) >= 25.0 && fan(&base, 1) == 0.0);
    let flat = cells(&SmTiming {
        fanout_interval: 0,
        ..h100.clone()
    })
    .unwrap();
    assert!(fan(&flat, 31) < fan(&base, 31));
    // try_wait: without the early wake a suspended waiter leaves later.
    let late = cells(&SmTiming {
        try_wait_early_wake: false,
        ..h100.clone()
    })
    .unwrap();
    let pp = "full/empty count 1; consumer try_wait; producer delay 500";
    let rt = "rt(consumer release to release)";
    assert!(g(&late, "2d", pp, rt) > g(&base, "2d", pp, rt));
    // Caches: a cold LDGSTS group waits for DRAM.
    let m = "wait_group N returns (from first issue)";
    let hot = g(
        &base,
        "4b",
        "cp.async.cg 16B; 4 groups x 4 KB; wait_group 3; hot src",
        m,
    );
    let cold = g(
        &base,
        "4b",
        "cp.async.cg 16B; 4 groups x 4 KB; wait_group 3; cold src",
        m,
    );
    assert!(cold > hot + 300.0, "cold {cold}, hot {hot}");
    // Every cell is the same run after run (no random draw under a preset).
    assert_eq!(cells(&h100).unwrap(), base);
}

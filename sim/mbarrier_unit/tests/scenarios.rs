//! The named kernel-like scenarios (TMA double-buffered pipeline, split-K
//! reduction, bulk store groups) run to completion on both golden models
//! under both scoreboards, with the ideal front end and with the H100 one,
//! and do what the kernel means (every tile produced is consumed, every
//! group retires, no error, no deadlock).

use mbarrier_unit_model::config::Config;
use mbarrier_unit_model::copy_engine::CopyTiming;
use mbarrier_unit_model::scoreboard::{GroupScoreboard, MbarScoreboard};
use mbarrier_unit_model::timing::H100;
use mbarrier_unit_model::workload::{
    bulk_store_groups, split_k, tma_pipeline, FrontEnd, Instr, KernelRunner, KernelStats,
};

fn run_checked(
    cfg: &Config,
    fe: FrontEnd,
    ct: CopyTiming,
    progs: Vec<Vec<Instr>>,
    max: u64,
) -> KernelStats {
    let mut sb = MbarScoreboard::new(cfg);
    let mut gsb = GroupScoreboard::new(cfg);
    let mut r = KernelRunner::new(cfg, fe, ct, progs);
    let mut bad = None;
    let st = r.run(max, |c, io| {
        if bad.is_none() {
            if let Err(v) = sb.check(c, &io.mi, &io.mo) {
                bad = Some(v);
            } else if let Err(v) = gsb.check(c, &io.gi, &io.go) {
                bad = Some(v);
            }
        }
    });
    if let Some(v) = bad {
        panic!("scoreboard: {v}");
    }
    st
}

fn fronts() -> Vec<(&'static str, FrontEnd, CopyTiming)> {
    let h = H100::preset();
    vec![
        ("ideal", FrontEnd::ideal(), CopyTiming::functional()),
        ("h100", h.fe, h.copy),
    ]
}

#[test]
fn tma_pipeline_consumes_every_tile() {
    let cfg = Config::default();
    for (name, fe, ct) in fronts() {
        for (stages, consumers) in [(1u8, 1u32), (2, 2), (3, 4)] {
            let iters = 12u32;
            let st = run_checked(
                &cfg,
                fe,
                ct,
                tma_pipeline(stages, iters, consumers, 4096, 30),
                2_000_000,
            );
            println!("{name} stages {stages} consumers {consumers}: {st:?}");
            assert!(st.finished, "{name}: pipeline did not finish: {st:?}");
            assert_eq!(st.errors, 0, "{name}: errors");
            let rounds = iters.div_ceil(stages as u32) as u64 * stages as u64;
            assert_eq!(st.copies, rounds, "{name}: one copy per tile");
            // Each tile completes its full barrier once and its empty barrier once
            // (the last round's empty phases complete too).
            assert_eq!(st.completions, 2 * rounds, "{name}: completions");
        }
    }
}

#[test]
fn split_k_reduces_every_tile() {
    let cfg = Config::default();
    for (name, fe, ct) in fronts() {
        let (splits, tiles) = (4u32, 6u32);
        let st = run_checked(&cfg, fe, ct, split_k(splits, tiles, 2048), 2_000_000);
        println!("{name}: {st:?}");
        assert!(st.finished, "{name}: did not finish: {st:?}");
        assert_eq!(st.errors, 0);
        assert_eq!(
            st.completions,
            2 * tiles as u64,
            "{name}: reduction + release per tile"
        );
        assert_eq!(st.copies, (splits * tiles) as u64);
    }
}

#[test]
fn bulk_store_groups_retire_in_order() {
    let cfg = Config::default();
    for (name, fe, ct) in fronts() {
        let st = run_checked(&cfg, fe, ct, bulk_store_groups(4, 8, 3, 2048, 2), 2_000_000);
        println!("{name}: {st:?}");
        assert!(st.finished, "{name}: did not finish: {st:?}");
        assert_eq!(st.stores, 4 * 8 * 3);
        assert_eq!(st.group_releases, 4 * (8 + 1));
    }
}

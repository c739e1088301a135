//! `membar run`'s engine on the seed examples of `examples/`: each finishes,
//! and the consumer reads the produced value.

use sm_exec::{run_source, Outcome, RunOptions, RunResult};

fn run(file: &str, seed: u64) -> RunResult {
    let path = format!("{}/../../examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    let r = run_source(
        file,
        &src,
        RunOptions {
            seed,
            ..RunOptions::default()
        },
    )
    .unwrap();
    assert_eq!(
        r.outcome,
        Outcome::Finished,
        "{file} seed {seed}: {:?}",
        r.outcome
    );
    r
}

#[test]
fn membar_flag_consumer_reads_42() {
    for seed in 0..20 {
        let r = run("membar_flag.ptx", seed);
        assert_eq!(r.reg(1, 0, "%r0"), Some(42), "seed {seed}");
        assert_eq!(r.reg(1, 0, "%r1"), Some(1), "seed {seed}");
    }
}

#[test]
fn release_acquire_flag_consumer_reads_42() {
    for seed in 0..20 {
        let r = run("release_acquire_flag.ptx", seed);
        assert_eq!(r.reg(1, 0, "%r0"), Some(42), "seed {seed}");
    }
}

#[test]
fn bar_arrive_consumer_reads_7() {
    for seed in 0..20 {
        let r = run("bar_arrive_producer_consumer.ptx", seed);
        // The consumer's first read is 7 (bar.sync 0 after the producer's
        // bar.arrive 0); its second read is the producer's second store
        // (the global load of an address never written: 0).
        assert_eq!(r.reg(0, 1, "%r1"), Some(7), "seed {seed}");
        assert_eq!(r.reg(0, 1, "%r2"), Some(0), "seed {seed}");
        // bar.red.popc over the consumer's 32 lanes with %p = (0 == 0).
        assert_eq!(r.reg(0, 1, "%r3"), Some(32), "seed {seed}");
    }
}

#[test]
fn mbarrier_pipeline_finishes() {
    for seed in 0..20 {
        let r = run("mbarrier_tma_pipeline.ptx", seed);
        for cta in 0..2 {
            // The consumer reads the tile the bulk copy brought in: the
            // producer's 99 (generic store, fence.proxy.async, copy).
            assert_eq!(r.reg(cta, 1, "%r0"), Some(99), "seed {seed} cta {cta}");
        }
    }
}

//! Every litmus test of `litmus/` meets its expectation: fenced tests never
//! show the forbidden outcome, their unfenced twins do (the memory model's
//! weakness is real). Runs `LITMUS_RUNS` (default 300) seeded runs per test;
//! base seed `SEED` (default 1).

use sm_exec::litmus::{load, run_test, table, Test};
use unit_ports::lockstep::{env_u64, replay_command, seed_from_env};

fn tests() -> Vec<Test> {
    let dir = format!("{}/../../litmus", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let name = format!("litmus/{}", p.file_name().unwrap().to_string_lossy());
            load(&name, &std::fs::read_to_string(p).unwrap()).unwrap()
        })
        .collect()
}

#[test]
fn every_litmus_test_meets_its_expectation() {
    let seed = seed_from_env(1);
    let runs: u64 = env_u64("LITMUS_RUNS").unwrap_or(300);
    println!(
        "seed {seed}, {runs} runs per test; replay: LITMUS_RUNS={runs} {}",
        replay_command(
            "sm-exec",
            "every_litmus_test_meets_its_expectation",
            seed,
            None
        )
    );
    let ts = tests();
    assert!(ts.len() >= 20, "{} litmus files", ts.len());
    let t0 = std::time::Instant::now();
    let reports: Vec<_> = ts.iter().map(|t| run_test(t, runs, seed)).collect();
    println!("{}", table(&reports, runs, seed, None));
    println!("{:.1} s", t0.elapsed().as_secs_f64());
    for r in &reports {
        assert!(
            r.pass(),
            "{}: {} ({:?})",
            r.name,
            r.verdict(),
            r.first_failure
        );
    }
}

/// The verdicts can fail: the unfenced MP twin judged as if it were fenced
/// fails (its forbidden outcome appears), and the fenced MP judged as a twin
/// fails (it never appears).
#[test]
fn verdicts_fail_when_the_expectation_is_wrong() {
    let dir = format!("{}/../../litmus", env!("CARGO_MANIFEST_DIR"));
    let flip = |file: &str, from: &str, to: &str| {
        let src = std::fs::read_to_string(format!("{dir}/{file}"))
            .unwrap()
            .replace(from, to);
        load(file, &src).unwrap()
    };
    let t = flip("mp_gpu_nofence.ptx", "expect: seen", "expect: never");
    let r = run_test(&t, 300, 1);
    assert!(!r.pass() && r.forbidden_seen > 0, "{}", r.verdict());
    let t = flip("mp_gpu.ptx", "expect: never", "expect: seen");
    let r = run_test(&t, 300, 1);
    assert!(!r.pass() && r.forbidden_seen == 0, "{}", r.verdict());
    // An outcome outside forbidden ∪ allowed fails too.
    let t = flip(
        "mp_gpu.ptx",
        "allowed: [[0, 0], [0, 42], [1, 42]]",
        "allowed: [[0, 0], [0, 42]]",
    );
    let r = run_test(&t, 300, 1);
    assert!(!r.pass() && r.unexpected > 0, "{}", r.verdict());
}

/// The fenced tests pass because of the acknowledgement and invalidate
/// paths: a memory system that acknowledges a store before it reaches L2, or
/// that ignores invalidates, lets the forbidden outcomes through the fences.
#[test]
fn fenced_tests_fail_with_a_broken_memory_system() {
    use sm_exec::litmus::run_test_with;
    use sm_exec::memory::{Faults, MemTiming};
    use sm_exec::RunOptions;
    let all = tests();
    let get = |n: &str| all.iter().find(|t| t.name == n).unwrap();
    let with = |f: Faults| RunOptions {
        timing: MemTiming {
            faults: f,
            ..MemTiming::default()
        },
        ..RunOptions::default()
    };
    let early = with(Faults {
        early_store_ack: true,
        ..Faults::default()
    });
    for n in ["mp_gpu", "sb_gpu"] {
        let r = run_test_with(get(n), 300, 1, &early);
        assert!(
            r.forbidden_seen > 0,
            "{n} with early store acks: {}",
            r.verdict()
        );
    }
    let noinval = with(Faults {
        ignore_invalidate: true,
        ..Faults::default()
    });
    for n in ["mp_gpu", "mp_relacq_gpu"] {
        let r = run_test_with(get(n), 300, 1, &noinval);
        assert!(
            r.forbidden_seen > 0,
            "{n} without invalidates: {}",
            r.verdict()
        );
    }
}

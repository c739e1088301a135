//! Malformed and mutated PTX through the executor (`membar run`'s engine)
//! never panics or hangs: the seed examples and litmus files are mutated
//! (lines dropped, duplicated, swapped; numbers replaced by edge values;
//! registers and labels renamed; bytes inserted) and every file that still
//! parses is run under a small cycle cap. `FUZZ_SEEDS=<n>` (default 3000) cases
//! from base seed `SEED` (default 1).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use sm_exec::{run_source, RunOptions};
use unit_ports::lockstep::{replay_command, seed_from_env};

fn corpus() -> Vec<(String, String)> {
    let root = format!("{}/../..", env!("CARGO_MANIFEST_DIR"));
    let mut v = Vec::new();
    for d in ["examples", "litmus"] {
        let mut fs: Vec<_> = std::fs::read_dir(format!("{root}/{d}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "ptx"))
            .collect();
        fs.sort();
        for f in fs {
            v.push((
                f.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read_to_string(&f).unwrap(),
            ));
        }
    }
    v
}

const EDGE: [&str; 12] = [
    "0",
    "1",
    "-1",
    "2",
    "15",
    "16",
    "31",
    "64",
    "4096",
    "65536",
    "2147483647",
    "4294967296",
];

fn mutate(src: &str, rng: &mut ChaCha8Rng) -> String {
    let mut lines: Vec<String> = src.lines().map(|l| l.to_string()).collect();
    for _ in 0..rng.gen_range(1..=4) {
        if lines.is_empty() {
            break;
        }
        let n = lines.len();
        let i = rng.gen_range(0..n);
        match rng.gen_range(0..7) {
            0 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(rng.gen_range(0..=n), l);
            }
            2 => lines.swap(i, rng.gen_range(0..n)),
            3 | 4 => {
                // Replace one number by an edge value.
                let l = &lines[i];
                let starts: Vec<usize> = l
                    .char_indices()
                    .filter(|(k, c)| {
                        c.is_ascii_digit()
                            && (*k == 0 || !l.as_bytes()[k - 1].is_ascii_alphanumeric())
                    })
                    .map(|(k, _)| k)
                    .collect();
                if let Some(&k) = starts.get(rng.gen_range(0..starts.len().max(1))) {
                    let e = l[k..]
                        .find(|c: char| !c.is_ascii_digit())
                        .map(|e| k + e)
                        .unwrap_or(l.len());
                    let v = EDGE[rng.gen_range(0..EDGE.len())];
                    lines[i] = format!("{}{}{}", &l[..k], v, &l[e..]);
                }
            }
            5 => {
                // Rename a register or label.
                let from = ["%r1", "%r0", "%rd0", "%p", "WAIT", "SPIN", "bar", "slot"];
                let to = ["%r2", "%rd1", "%p0", "%r9", "LOOP", "tile", "full"];
                let f = from[rng.gen_range(0..from.len())];
                let t = to[rng.gen_range(0..to.len())];
                lines[i] = lines[i].replace(f, t);
            }
            _ => {
                let l = &mut lines[i];
                let k = rng.gen_range(0..=l.len());
                let k = (0..=k).rev().find(|&k| l.is_char_boundary(k)).unwrap_or(0);
                let junk = [
                    "@", ";", "[", "]", ".", "{", "}", ",", "\u{0}", "é", "::", "-",
                ];
                l.insert_str(k, junk[rng.gen_range(0..junk.len())]);
            }
        }
    }
    lines.join("\n")
}

/// Cycle cap of one fuzz case.
const CAP: u64 = 20_000;

/// The base seed (`SEED`) and the number of cases (`env`, else `default`),
/// printed with the command that replays the test.
fn plan(test: &str, env: &str, default: u64) -> (u64, u64) {
    let seed = seed_from_env(1);
    let n: u64 = std::env::var(env)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default);
    println!(
        "base seed {seed}, {n} cases; replay: {env}={n} {}",
        replay_command("sm-exec", test, seed, None)
    );
    (seed, n)
}

/// The run options of fuzz case `case`: its seed and the cycle cap.
fn capped_run(case: u64) -> RunOptions {
    RunOptions {
        seed: case,
        max_cycles: CAP,
        ..RunOptions::default()
    }
}

/// Run one case; a panic fails the test naming the case, the base seed and
/// the mutated text.
fn no_panic<R>(case: u64, seed: u64, name: &str, text: &str, f: impl FnOnce() -> R) -> R {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(_) => panic!("case {case} (base seed {seed}) of {name} panicked; text:\n{text}"),
    }
}

#[test]
fn mutated_programs_never_panic_or_hang() {
    let (seed, n) = plan("mutated_programs_never_panic_or_hang", "FUZZ_SEEDS", 3000);
    let corpus = corpus();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut parsed, mut finished, mut capped) = (0, 0, 0);
    for case in 0..n {
        let (name, src) = &corpus[rng.gen_range(0..corpus.len())];
        let m = mutate(src, &mut rng);
        let r = no_panic(case, seed, name, &m, || {
            run_source(name, &m, capped_run(case))
        });
        if let Ok(res) = r {
            parsed += 1;
            assert!(res.cycles <= CAP, "case {case}: ran past the cycle cap");
            match res.outcome {
                sm_exec::Outcome::Finished => finished += 1,
                sm_exec::Outcome::CycleCap(_) => capped += 1,
                _ => {}
            }
        }
    }
    println!("{parsed} of {n} mutants parsed and ran: {finished} finished, {capped} hit the cap");
    assert!(
        parsed > n / 10,
        "too few mutants parse ({parsed}): the fuzzer tests nothing"
    );
}

/// The small kernels of `kernels/` (module, launch file).
fn kernel_corpus() -> Vec<(String, String, sm_exec::launch::Resolved)> {
    let root = format!("{}/../../kernels", env!("CARGO_MANIFEST_DIR"));
    let names = [
        "own/o1_bar_red_block",
        "own/o2_named_barrier_ws",
        "own/o3_bulk_copy_mbarrier",
        "own/o4_cp_async_pipeline",
        "own/o5_cluster_dsmem",
        "own/o6_grid_sync",
        "own/o7_last_block_reduce",
        "own/o8_flag_release_acquire",
        "own/o9_device_calls",
    ];
    names
        .iter()
        .map(|n| {
            let src = std::fs::read_to_string(format!("{root}/{n}.ptx")).unwrap();
            let l = sm_exec::launch::load(std::path::Path::new(&format!("{root}/{n}.launch.yaml")))
                .unwrap();
            (n.to_string(), src, l)
        })
        .collect()
}

#[test]
fn mutated_nvcc_kernels_never_panic_or_hang() {
    let (seed, n) = plan(
        "mutated_nvcc_kernels_never_panic_or_hang",
        "KERNEL_FUZZ_SEEDS",
        300,
    );
    let corpus = kernel_corpus();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut ran, mut passed) = (0, 0);
    for case in 0..n {
        let (name, src, l) = &corpus[rng.gen_range(0..corpus.len())];
        let m = mutate(src, &mut rng);
        let r = no_panic(case, seed, name, &m, || {
            sm_exec::kernel::run_kernel(name, &m, l, capped_run(case))
        });
        if let Ok(k) = r {
            ran += 1;
            assert!(
                k.result.cycles <= CAP,
                "case {case}: ran past the cycle cap"
            );
            passed += k.passed() as u32;
        }
    }
    println!("{ran} of {n} mutated kernels ran ({passed} still passed their checks)");
    assert!(
        ran > n / 10,
        "too few mutants run ({ran}): the fuzzer tests nothing"
    );
}

//! Seeded fuzzing: mutated example files and random byte strings never make
//! `parse` panic; it returns Ok or an error located inside the input.
//! Replay a failure with `SEED=<n> cargo test -p ptx-front --test fuzz`;
//! `FUZZ_SEEDS=<n>` runs n seeds instead of 3000.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;

const PIECES: &[&str] = &[
    ".",
    ";",
    ",",
    "[",
    "]",
    "{",
    "}",
    "@",
    "!",
    ":",
    "::",
    "---",
    "\n",
    " ",
    "%r1",
    "_",
    "0x",
    "-",
    "+",
    "<",
    ">",
    "fence",
    "membar",
    "mbarrier",
    "bar",
    "barrier",
    "cluster",
    "cp.async.bulk",
    ".shared::cluster",
    ".b64",
    "//",
    "/*",
    "warps:",
    "cta: 9",
    "program: x",
    "cluster: 0",
    "\u{e9}",
    "\t",
    "99999999999999999999",
    "(",
    ")",
];

fn corpus() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    v.sort();
    assert!(!v.is_empty());
    v
}

fn mutate(rng: &mut ChaCha8Rng, src: &str) -> String {
    let mut s: Vec<char> = src.chars().collect();
    for _ in 0..rng.gen_range(1..8) {
        let at = rng.gen_range(0..=s.len());
        match rng.gen_range(0..4) {
            0 if !s.is_empty() => {
                let end = (at + rng.gen_range(1..20)).min(s.len());
                let at = at.min(end);
                s.drain(at..end);
            }
            1 => {
                let p = PIECES[rng.gen_range(0..PIECES.len())];
                s.splice(at..at, p.chars());
            }
            2 if !s.is_empty() => {
                let i = rng.gen_range(0..s.len());
                s[i] = char::from(rng.gen_range(0u8..128));
            }
            _ => {
                // duplicate a line elsewhere
                let lines: Vec<&str> = src.lines().collect();
                let l = lines[rng.gen_range(0..lines.len())];
                s.splice(at..at, format!("\n{l}\n").chars());
            }
        }
    }
    s.into_iter().collect()
}

fn check(seed: u64, input: &str) {
    let r = std::panic::catch_unwind(|| ptx_front::parse("fuzz.ptx", input));
    let lines = input.split('\n').count();
    match r {
        Err(_) => panic!("parse panicked; replay: SEED={seed} cargo test -p ptx-front --test fuzz\ninput: {input:?}"),
        Ok(Ok(p)) => {
            // A program that parses also lowers.
            ptx_front::lower_program(&p).unwrap_or_else(|e| panic!("seed {seed}: parsed but did not lower: {e}; replay: SEED={seed} cargo test -p ptx-front --test fuzz"));
        }
        Ok(Err(e)) => {
            assert_eq!(e.file, "fuzz.ptx");
            assert!(e.line >= 1 && e.line <= lines + 1, "seed {seed}: line {} outside 1..={} ({e}); replay: SEED={seed} cargo test -p ptx-front --test fuzz", e.line, lines);
            assert!(e.col >= 1, "seed {seed}: {e}");
            assert!(e.msg.contains("found") || e.msg.contains("header") || e.msg.contains("outside the supported PTX subset"), "seed {seed}: unlocated message: {e}; replay: SEED={seed} cargo test -p ptx-front --test fuzz");
        }
    }
}

#[test]
fn parse_never_panics_on_mutated_examples_or_random_bytes() {
    let seeds: Vec<u64> = match std::env::var("SEED") {
        Ok(s) => vec![s.parse().expect("SEED=<u64>")],
        // FUZZ_SEEDS=<n> runs more seeds (default 3000).
        Err(_) => (0..std::env::var("FUZZ_SEEDS")
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(3000))
            .collect(),
    };
    let corpus = corpus();
    let (mut ok, mut errs) = (0, 0);
    for &seed in &seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let input = if seed % 4 == 3 {
            let n = rng.gen_range(0..300);
            let bytes: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        } else if seed % 4 == 2 {
            // keep the header, mutate only the PTX body (reaches deeper into the parser)
            let base = &corpus[rng.gen_range(0..corpus.len())];
            let cut = base[3..].find("\n---\n").map(|i| i + 3 + 5).unwrap_or(0);
            format!("{}{}", &base[..cut], mutate(&mut rng, &base[cut..]))
        } else {
            let base = &corpus[rng.gen_range(0..corpus.len())];
            mutate(&mut rng, base)
        };
        check(seed, &input);
        if ptx_front::parse("fuzz.ptx", &input).is_ok() {
            ok += 1;
        } else {
            errs += 1;
        }
    }
    eprintln!(
        "{ok} parsed, {errs} located errors over {} seeds",
        seeds.len()
    );
    if seeds.len() > 1 {
        assert!(
            ok > 0 && errs > 0,
            "the mutations should hit both outcomes ({ok} ok, {errs} errors)"
        );
    }
}

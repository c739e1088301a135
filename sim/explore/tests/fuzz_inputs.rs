//! Fuzzing of the YAML config and workload parsers: random text and random
//! structured documents (known keys with values of every YAML type, huge and
//! negative numbers, unknown keys, nesting). The parsers must never panic, and
//! every error must name the source, a key or the document, and what is allowed.
//!
//! Seeded with ChaCha8; a failure prints the seed and the document. Replay one
//! case with `SEED=<seed> cargo test --release -p membar-explore --test fuzz_inputs`; run longer with
//! `FUZZ_CASES=<n>`.

use membar_explore::calibration::Preset;
use membar_unit_env::config::{Config, CONFIG_KEYS};
use membar_unit_env::mmu::{MmuSpec, MMU_KEYS};
use membar_unit_env::workload::{WorkloadFile, FILE_KEYS, WORKLOAD_KEYS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn cases() -> u64 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000)
}

fn seeds() -> Vec<u64> {
    match std::env::var("SEED").ok().and_then(|s| s.parse().ok()) {
        Some(s) => vec![s],
        None => (0..cases()).collect(),
    }
}

const SCALARS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "4",
    "8",
    "16",
    "32",
    "64",
    "255",
    "256",
    "65535",
    "-1",
    "-0",
    "1.5",
    "-3.25",
    "1e9",
    "1e400",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999999",
    "0x10",
    "0o7",
    ".nan",
    ".inf",
    "true",
    "false",
    "null",
    "~",
    "\"\"",
    "\"8\"",
    "promote",
    "split",
    "coalescing",
    "lsu_flush",
    "per_warp_drain",
    "round_robin",
    "random",
    "ST",
    "MEMBAR.GL",
    "MEMBAR.SYS.IVALLTD",
    "ST*3",
    "LD*0",
    "MEMBAR.XX",
    "h100",
    "ideal",
    "adversarial",
    "barrier_burst",
    "é",
    "'quoted'",
    "[]",
    "{}",
    "[1, 2]",
    "{min: 1, max: 2}",
    "{min: 5, max: 1}",
    "{min: -1}",
    "{a: 1}",
    "!tag 3",
    "&a 1",
    "*a",
];

fn scalar(r: &mut ChaCha8Rng) -> String {
    SCALARS[r.gen_range(0..SCALARS.len())].to_string()
}

fn key(r: &mut ChaCha8Rng, known: &[&str]) -> String {
    match r.gen_range(0..10) {
        0 => "unknown_key".into(),
        1 => "42".into(),
        2 => "\"warps \"".into(),
        _ => known[r.gen_range(0..known.len())].to_string(),
    }
}

/// A value: a scalar, a flow list of scalars, or a nested block mapping.
fn value(r: &mut ChaCha8Rng, depth: usize, indent: usize, known: &[&str]) -> String {
    match r.gen_range(0..10) {
        0 if depth < 3 => {
            let n = r.gen_range(0..4);
            let items: Vec<String> = (0..n).map(|_| scalar(r)).collect();
            format!("[{}]", items.join(", "))
        }
        1 if depth < 3 => {
            let n = r.gen_range(1..4);
            let mut s = String::new();
            for _ in 0..n {
                s.push('\n');
                s.push_str(&" ".repeat(indent + 2));
                s.push_str(&key(r, known));
                s.push_str(": ");
                s.push_str(&value(r, depth + 1, indent + 2, known));
            }
            s
        }
        2 if depth < 3 => {
            // A list of lists (workload programs).
            let n = r.gen_range(0..3);
            let mut s = String::new();
            for _ in 0..n {
                s.push('\n');
                s.push_str(&" ".repeat(indent + 2));
                s.push_str(&format!("- [{}, {}]", scalar(r), scalar(r)));
            }
            if s.is_empty() {
                "[]".into()
            } else {
                s
            }
        }
        _ => scalar(r),
    }
}

fn document(r: &mut ChaCha8Rng, known: &[&str]) -> String {
    match r.gen_range(0..20) {
        0 => String::new(),
        1 => {
            // Raw bytes-ish garbage.
            let n = r.gen_range(0..40);
            (0..n).map(|_| char::from(r.gen_range(9u8..127))).collect()
        }
        2 => "- a\n- b\n".into(),
        3 => "just a string".into(),
        _ => {
            let n = r.gen_range(1..8);
            let mut s = String::new();
            for _ in 0..n {
                s.push_str(&key(r, known));
                s.push_str(": ");
                s.push_str(&value(r, 0, 0, known));
                s.push('\n');
            }
            s
        }
    }
}

fn check_error_text(seed: u64, doc: &str, msg: &str, source: &str) {
    assert!(!msg.is_empty(), "seed {seed}: empty error for\n{doc}");
    assert!(
        msg.contains(source),
        "seed {seed}: error does not name the source {source:?}: {msg}\n{doc}"
    );
    assert!(
        msg.contains('`'),
        "seed {seed}: error names no key: {msg}\n{doc}"
    );
}

#[test]
fn config_parser_never_panics_and_names_the_key() {
    let mut ok = 0;
    let mut errs = 0;
    for seed in seeds() {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let doc = document(&mut r, CONFIG_KEYS);
        let res = std::panic::catch_unwind(|| Config::from_yaml_str(&doc, "fuzz.yaml"));
        match res {
            Err(_) => panic!("seed {seed}: Config parser panicked on\n{doc}"),
            Ok(Ok(c)) => {
                ok += 1;
                // Whatever parsed must be within the documented ranges.
                assert!(
                    [8, 16, 32, 64].contains(&c.warps) && c.ways >= 1 && c.ways <= c.warps,
                    "seed {seed}: {c:?}"
                );
                assert!(
                    c.max_outstanding >= 1 && c.max_outstanding < c.slots,
                    "seed {seed}: {c:?}"
                );
            }
            Ok(Err(e)) => {
                errs += 1;
                check_error_text(seed, &doc, &e.to_string(), "fuzz.yaml");
            }
        }
    }
    println!("config fuzz: {ok} documents accepted, {errs} rejected with a named key");
    if std::env::var("SEED").is_err() {
        assert!(
            ok > 10 && errs > 100,
            "the generator must reach both outcomes: {ok} ok, {errs} errors"
        );
    }
}

#[test]
fn workload_parser_never_panics_and_names_the_key() {
    let mut known: Vec<&str> = FILE_KEYS.to_vec();
    known.extend_from_slice(WORKLOAD_KEYS);
    known.extend_from_slice(MMU_KEYS);
    let mut ok = 0;
    let mut errs = 0;
    for seed in seeds() {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        // Top-level keys first, then sections with their own keys.
        let doc = if r.gen_bool(0.6) {
            let mut s = String::new();
            if r.gen_bool(0.8) {
                s.push_str("workload:");
                for _ in 0..r.gen_range(1..5) {
                    s.push_str(&format!(
                        "\n  {}: {}",
                        key(&mut r, WORKLOAD_KEYS),
                        value(&mut r, 1, 2, WORKLOAD_KEYS)
                    ));
                }
                s.push('\n');
            }
            if r.gen_bool(0.6) {
                s.push_str("mmu:");
                for _ in 0..r.gen_range(1..5) {
                    s.push_str(&format!(
                        "\n  {}: {}",
                        key(&mut r, MMU_KEYS),
                        value(&mut r, 1, 2, MMU_KEYS)
                    ));
                }
                s.push('\n');
            }
            if r.gen_bool(0.3) {
                s.push_str(&format!("cycles: {}\n", scalar(&mut r)));
            }
            s
        } else {
            document(&mut r, &known)
        };
        let res = std::panic::catch_unwind(|| WorkloadFile::from_yaml_str(&doc, "fuzz_wl.yaml"));
        match res {
            Err(_) => panic!("seed {seed}: workload parser panicked on\n{doc}"),
            Ok(Ok(wf)) => {
                ok += 1;
                // Something that parsed must also construct and run a few cycles.
                let cfg = Config::default();
                if wf.workload.validate_for(&cfg, "fuzz_wl.yaml").is_ok() {
                    let mut up = membar_unit_env::workload::Workload::new(&wf.workload, &cfg, seed);
                    let mut dn = membar_unit_env::mmu::Mmu::new(&wf.mmu, &cfg, seed);
                    let mut m = membar_unit_env::MembarModel::new(&cfg);
                    let opts = membar_unit_env::run::RunOptions {
                        cycles: 200,
                        drain_cycles: 0,
                        ..Default::default()
                    };
                    membar_unit_env::run::run(&mut m, &mut up, &mut dn, &opts, &mut []);
                }
            }
            Ok(Err(e)) => {
                errs += 1;
                check_error_text(seed, &doc, &e.to_string(), "fuzz_wl.yaml");
            }
        }
    }
    println!("workload fuzz: {ok} documents accepted, {errs} rejected with a named key");
    if std::env::var("SEED").is_err() {
        assert!(
            ok > 10 && errs > 100,
            "the generator must reach both outcomes: {ok} ok, {errs} errors"
        );
    }
}

#[test]
fn files_that_cannot_be_read_are_errors() {
    let dir = std::env::temp_dir().join(format!("membar-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A directory, a missing file, a non-UTF-8 file, an empty file.
    let bin = dir.join("bin.yaml");
    std::fs::write(&bin, [0xff, 0xfe, 0x00, 0x80]).unwrap();
    let empty = dir.join("empty.yaml");
    std::fs::write(&empty, "").unwrap();
    for p in [dir.clone(), dir.join("missing.yaml"), bin.clone()] {
        let e = Config::load(&p).unwrap_err().to_string();
        assert!(e.contains(&p.display().to_string()), "{e}");
        let e = WorkloadFile::load(&p).unwrap_err().to_string();
        assert!(e.contains(&p.display().to_string()), "{e}");
    }
    assert_eq!(Config::load(&empty).unwrap(), Config::default());
    assert!(WorkloadFile::load(&empty).is_ok());
}

/// The protections of the YAML readers: an alias bomb (a billion laughs),
/// nesting deeper than serde_yaml's limit and a file over the input size
/// limit are refused with an error naming the file, for every file type.
#[test]
fn alias_bombs_deep_nesting_and_huge_files_are_refused() {
    // Nine levels of ten-fold aliases: 10^9 scalars once expanded.
    let mut bomb =
        String::from("lol:\n  - &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..9 {
        let prev = format!("*a{}", i - 1);
        bomb.push_str(&format!("  - &a{i} [{}]\n", [prev.as_str(); 10].join(", ")));
    }
    let deep = format!("lol: {}{}\n", "[".repeat(300), "]".repeat(300));
    let nested_map = format!("lol: {}8{}\n", "{a: ".repeat(300), "}".repeat(300));
    type Parse = fn(&str) -> Result<(), String>;
    let parsers: [(&str, Parse); 4] = [
        ("config", |t| {
            Config::from_yaml_str(t, "p.yaml")
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
        ("workload", |t| {
            WorkloadFile::from_yaml_str(t, "p.yaml")
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
        ("mmu", |t| {
            MmuSpec::from_yaml_str(t, "p.yaml")
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
        ("preset", |t| {
            Preset::from_yaml_str(t, "p.yaml")
                .map(|_| ())
                .map_err(|e| e.to_string())
        }),
    ];
    for (what, parse) in parsers {
        for (case, doc) in [
            ("alias bomb", &bomb),
            ("deep list", &deep),
            ("deep map", &nested_map),
        ] {
            let t0 = std::time::Instant::now();
            let e = parse(doc).expect_err(&format!("{what}: {case} accepted"));
            assert!(
                e.contains("p.yaml") && e.contains('`'),
                "{what}: {case}: {e}"
            );
            assert!(
                t0.elapsed().as_secs() < 5,
                "{what}: {case} took {:?}",
                t0.elapsed()
            );
        }
    }
    let dir = std::env::temp_dir().join(format!("membar-fuzz-big-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = dir.join("big.yaml");
    let mut text = String::from("warps: 32\n");
    while text.len() <= 4 << 20 {
        text.push_str("# padding padding padding padding padding padding padding\n");
    }
    std::fs::write(&big, &text).unwrap();
    let name = big.display().to_string();
    for e in [
        Config::load(&big).unwrap_err().to_string(),
        WorkloadFile::load(&big).unwrap_err().to_string(),
        MmuSpec::load(&big).unwrap_err().to_string(),
        Preset::load(&big).unwrap_err().to_string(),
    ] {
        assert!(e.contains(&name) && e.contains("4 MiB limit"), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

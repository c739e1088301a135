//! Fuzzing of the command line: random argument vectors (known and unknown
//! subcommands and flags, missing values, garbage values, bad files) must end
//! with exit code 0, 1 or 2 and a message — never a panic (exit 101) or a
//! signal. Seeded with ChaCha8: a failure prints the seed and the arguments;
//! `SEED=<n>` replays one case, `FUZZ_CASES=<n>` runs more.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::PathBuf;
use std::process::Command;

const SUBCOMMANDS: &[&str] = &["sim", "bench", "sim", "sim", "bogus", "--help", "-V", ""];
const FLAGS: &[&str] = &[
    "--config",
    "--workload",
    "--cycles",
    "--seed",
    "--trace",
    "--coverage",
    "--out",
    "--nope",
    "-x",
];
const VALUES: &[&str] = &[
    "configs/default.yaml",
    "configs/w8_k2_n1_c4.yaml",
    "configs/h100.yaml",
    "/dev/zero",
    "/nonexistent.yaml",
    "workloads/adversarial.yaml",
    "workloads/barrier_burst.yaml",
    "random_mix",
    "sys_heavy",
    "adversarial",
    "no_such",
    "0",
    "1",
    "100",
    "500",
    "-1",
    "abc",
    "1e3",
    "18446744073709551616",
    "",
    "Cargo.toml",
    "docs",
    "\u{1F600}",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A scratch directory holding copies of configs/, workloads/ and Cargo.toml:
/// random `--trace`/`--out` paths can only touch the copies.
fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("membar-fuzz-cli-{}", std::process::id()));
    for sub in ["configs", "workloads", "docs"] {
        let to = dir.join(sub);
        std::fs::create_dir_all(&to).unwrap();
        for e in std::fs::read_dir(root().join(sub)).unwrap() {
            let e = e.unwrap();
            if e.file_type().unwrap().is_file() {
                std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
            }
        }
    }
    std::fs::copy(root().join("Cargo.toml"), dir.join("Cargo.toml")).unwrap();
    dir
}

#[test]
fn random_command_lines_never_panic() {
    let seeds: Vec<u64> = match std::env::var("SEED").ok().and_then(|s| s.parse().ok()) {
        Some(s) => vec![s],
        None => (0..std::env::var("FUZZ_CASES")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(150))
            .collect(),
    };
    let mut codes = [0u32; 3];
    let cwd = scratch();
    let before = std::fs::read(cwd.join("configs/default.yaml")).unwrap();
    for seed in seeds {
        let mut r = ChaCha8Rng::seed_from_u64(seed);
        let mut args: Vec<String> =
            vec![SUBCOMMANDS[r.gen_range(0..SUBCOMMANDS.len())].to_string()];
        for _ in 0..r.gen_range(0..6) {
            args.push(FLAGS[r.gen_range(0..FLAGS.len())].to_string());
            if r.gen_bool(0.85) {
                args.push(VALUES[r.gen_range(0..VALUES.len())].to_string());
            }
        }
        // Keep runs short: a valid cycle count is small, and bench is bounded.
        if args[0] == "bench" && !args.iter().any(|a| a == "--cycles") {
            args.push("--cycles".into());
            args.push("1000".into());
        }
        let trace_dir = std::env::temp_dir();
        let out = Command::new(env!("CARGO_BIN_EXE_membar"))
            .args(&args)
            .current_dir(&cwd)
            .env("TMPDIR", &trace_dir)
            .output()
            .expect("spawn membar");
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            matches!(code, Some(0..=2)) && !stderr.contains("panicked"),
            "seed {seed}: membar {args:?} exited {code:?}\nstderr: {stderr}"
        );
        if code != Some(0) {
            assert!(
                !stderr.trim().is_empty(),
                "seed {seed}: membar {args:?} failed without a message"
            );
        }
        codes[code.unwrap() as usize] += 1;
    }
    println!("cli fuzz: exit codes 0/1/2 = {codes:?}");
    assert_eq!(
        std::fs::read(cwd.join("configs/default.yaml")).unwrap(),
        before,
        "an output flag overwrote an input file"
    );
    let _ = std::fs::remove_dir_all(&cwd);
}

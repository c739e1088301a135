//! Cosimulation of the checked-in emitted Verilog
//! (`verilog_out/<name>/membar_unit.v` for every `Config::grid()` name)
//! against the reference model, through Verilator, in lockstep.
//!
//! - every grid configuration, 4 seeds x 300k cycles each (>= 1e5): no mismatch;
//! - the builtin workload scenarios (sim's `Workload` + `Mmu`) on one config;
//! - bug-finding proof: one-line bugs injected into an emitted file are found
//!   at the port and the cycle the bug predicts, with a waveform;
//! - a second build of the same inputs is a cache hit.
//!
//! Knobs: `CYCLES` (default 300000), `SEED` (one seed instead of 1..=4),
//! `MEMBAR_VERILOG_OUT` (default `<workspace>/verilog_out`).
//! Verilator builds are cached in `<target>/verilator-cache/`, so only the
//! first run pays ~15 s per configuration.

use membar_testbench::stimulus::random_stimulus;
use membar_testbench::*;
use membar_unit_env::membar_unit::{MembarModel, State};
use membar_unit_env::ports::op;
use membar_unit_env::{Config, Dut, Inputs, Outputs};
use std::path::PathBuf;

fn verilog_out() -> PathBuf {
    match std::env::var_os("MEMBAR_VERILOG_OUT") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join("verilog_out"),
    }
}

/// The checked-in emitted file of a grid config; a clear failure if missing.
fn emitted(name: &str) -> PathBuf {
    let p = verilog_out().join(name).join("membar_unit.v");
    assert!(
        p.is_file(),
        "{} is missing: the emitted Verilog of grid config `{name}` must be checked in \
         (write it with `cargo run --release --bin membar -- release`)",
        p.display()
    );
    p
}

/// The grid config `name`; when `verilog_out/<name>/config.yaml` exists it
/// must say the same (the file was emitted for this configuration).
fn grid(name: &str) -> Config {
    let cfg = Config::grid()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no grid config {name}"))
        .1;
    let yaml = verilog_out().join(name).join("config.yaml");
    if yaml.is_file() {
        let c = Config::load(&yaml).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            c,
            cfg,
            "{} does not match Config::grid()'s `{name}`",
            yaml.display()
        );
    }
    cfg
}

fn quiet() -> BuildOptions {
    BuildOptions {
        verbose: false,
        ..BuildOptions::default()
    }
}

fn cosim_grid_config(name: &str) {
    let cfg = grid(name);
    let v = emitted(name);
    let cycles = unit_ports::lockstep::cycles_from_env(300_000);
    // `SEED=<n>` replays one seed; by default seeds 1..=4 run.
    let seeds: Vec<u64> = match std::env::var("SEED").ok().and_then(|s| s.parse().ok()) {
        Some(s) => vec![s],
        None => (1..=4).collect(),
    };
    let mut total = Coverage::default();
    for seed in seeds {
        println!(
            "{name} seed {seed}: replay with {}",
            unit_ports::lockstep::replay_command(
                "membar-testbench",
                &format!("grid_{name}"),
                seed,
                Some(cycles)
            )
        );
        let (mut up, mut down) = random_stimulus(&cfg, seed);
        let opts = CosimOptions {
            cycles,
            seed,
            label: name.into(),
            ..CosimOptions::default()
        };
        let r = cosim(
            &v,
            &cfg,
            &BuildOptions::default(),
            &opts,
            &mut up,
            &mut down,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        println!(
            "{}  (build/cache {:.2?}, hit {:?})",
            r.summary(),
            r.build_time.unwrap(),
            r.cache_hit.unwrap()
        );
        if let Some(m) = &r.mismatch {
            panic!("{name}: the emitted Verilog diverges from the model\n{m}");
        }
        assert_eq!(r.cycles, cycles);
        let c = &r.coverage;
        total.txn_accepted += c.txn_accepted;
        total.dn_barrier += c.dn_barrier;
        total.dn_inval += c.dn_inval;
        total.release_cycles += c.release_cycles;
        total.joined_existing += c.joined_existing;
        total.counter_full_refusals += c.counter_full_refusals;
        total.spurious_acks += c.spurious_acks;
        total.spurious_bar_acks += c.spurious_bar_acks;
        total.reserved_ops += c.reserved_ops;
        total.reset_cycles += c.reset_cycles;
        total.closes_by_full += c.closes_by_full;
    }
    println!("{name}: coverage summed over seeds: {total}");
    for (what, n) in [
        ("txn", total.txn_accepted),
        ("barrier", total.dn_barrier),
        ("inval", total.dn_inval),
        ("release", total.release_cycles),
        (
            "coalesced join",
            if cfg.ways > 1 {
                total.joined_existing
            } else {
                1
            },
        ),
        ("close by full", total.closes_by_full),
        ("counter full", total.counter_full_refusals),
        ("spurious ack", total.spurious_acks),
        ("spurious bar_ack", total.spurious_bar_acks),
        ("reserved op", total.reserved_ops),
        ("reset", total.reset_cycles),
    ] {
        assert!(n > 0, "{name}: stimulus never reached `{what}`");
    }
}

#[test]
fn grid_default() {
    cosim_grid_config("default");
}
#[test]
fn grid_w32_k4_n8_c8() {
    cosim_grid_config("w32_k4_n8_c8");
}
#[test]
fn grid_w8_k2_n1_c4() {
    cosim_grid_config("w8_k2_n1_c4");
}
#[test]
fn grid_w64_k8_n16_c8() {
    cosim_grid_config("w64_k8_n16_c8");
}
#[test]
fn grid_w16_k4_n4_c6() {
    cosim_grid_config("w16_k4_n4_c6");
}

/// Without any reset the Verilog's power-on state (rust-hdl's `initial`
/// values; Verilator's rand-reset set to 0 by the shim) equals the model's
/// `State::default()`.
#[test]
fn power_on_state_matches_without_reset() {
    for name in ["default", "w64_k8_n16_c8"] {
        let cfg = grid(name);
        let (mut up, mut down) = random_stimulus(&cfg, 9);
        down.reset_every = 0;
        let opts = CosimOptions {
            cycles: 50_000,
            seed: 9,
            label: format!("{name}-no-reset"),
            initial_reset: 0,
            ..CosimOptions::default()
        };
        let r = cosim(&emitted(name), &cfg, &quiet(), &opts, &mut up, &mut down)
            .unwrap_or_else(|e| panic!("{e}"));
        println!("{}", r.summary());
        assert_eq!(r.coverage.reset_cycles, 0);
        if let Some(m) = &r.mismatch {
            panic!("{name}: power-on state differs from the model's\n{m}");
        }
    }
}

/// Every grid name has a test above.
#[test]
fn grid_tests_cover_every_grid_config() {
    let tested = [
        "default",
        "w32_k4_n8_c8",
        "w8_k2_n1_c4",
        "w64_k8_n16_c8",
        "w16_k4_n4_c6",
    ];
    for (name, _) in Config::grid() {
        assert!(
            tested.contains(&name),
            "grid config `{name}` has no cosimulation test: add one"
        );
    }
}

/// The same build twice: the second is a cache hit with the same library.
#[test]
fn second_build_is_a_cache_hit() {
    let v = emitted("default");
    let a = build_library(&v, &Config::default(), &quiet()).unwrap();
    let b = build_library(&v, &Config::default(), &quiet()).unwrap();
    println!(
        "first: {:.2?} (hit {}), second: {:.2?} (hit {})",
        a.elapsed, a.cache_hit, b.elapsed, b.cache_hit
    );
    assert!(b.cache_hit);
    assert_eq!(a.path, b.path);
    assert_eq!(a.hash, b.hash);
    assert!(
        b.elapsed.as_millis() < 2_000,
        "a cache hit took {:?}",
        b.elapsed
    );
}

/// Speed of the Verilated model alone (C++ loop, no FFI per cycle), through
/// the FFI one call per cycle, and of the full lockstep loop.
#[test]
fn speed_report() {
    let name = "default";
    let cfg = grid(name);
    let v = emitted(name);
    let mut dut = <VerilatorDut>::build(&v, &cfg, &quiet()).unwrap();
    // A busy input pattern: loads from rotating warps, dn_ready mostly high, acks.
    let ins: Vec<Inputs> = (0..64u16)
        .map(|k| Inputs {
            req_valid: true,
            req_warp: (k % 32) as u8,
            req_op: if k % 16 == 15 {
                op::MEMBAR
            } else {
                (k % 4) as u8
            },
            req_level: (k % 4) as u8,
            req_id: k,
            dn_ready: k % 7 != 0,
            ack_valid: k % 2 == 0,
            ack_tag: (k % 4) as u8,
            ..Inputs::default()
        })
        .collect();
    let n = 2_000_000;
    let raw = cosim::bench_verilated(&mut dut, &ins, n);
    let t0 = std::time::Instant::now();
    let mut sink = 0u64;
    for c in 0..n {
        sink ^= dut.step(&ins[(c % 64) as usize]).warp_blocked;
    }
    let ffi = n as f64 / t0.elapsed().as_secs_f64();
    std::hint::black_box(sink);
    let (mut up, mut down) = random_stimulus(&cfg, 1);
    let opts = CosimOptions {
        cycles: 300_000,
        seed: 1,
        label: name.into(),
        ..CosimOptions::default()
    };
    let r = cosim(&v, &cfg, &quiet(), &opts, &mut up, &mut down).unwrap();
    assert!(r.passed(), "{r}");
    println!(
        "{name}: Verilated model alone {:.2} Mcycles/s; one FFI call per cycle {:.2} Mcycles/s; in the lockstep loop: DUT step {:.2} Mcycles/s, model {:.2} Mcycles/s, whole loop {:.2} Mcycles/s",
        raw / 1e6,
        ffi / 1e6,
        r.dut_cycles_per_sec() / 1e6,
        r.model_cycles_per_sec() / 1e6,
        r.loop_cycles_per_sec() / 1e6
    );
    assert!(
        raw > 1e5 && r.loop_cycles_per_sec() > 5e4,
        "implausibly slow"
    );
}

// ---------------------------------------------------------------------------
// Bug-finding proof: inject one-line bugs into an emitted file.
// ---------------------------------------------------------------------------

/// Replace, in exactly one place, the line whose trimmed text satisfies
/// `is_anchor` (given it and the next line's trimmed text) by `rewrite(line)`.
/// Panics with a clear message when the anchor is missing or ambiguous (the
/// emitter changed: update the mutation).
fn mutate_one_line(
    text: &str,
    what: &str,
    is_anchor: impl Fn(&str, &str) -> bool,
    rewrite: impl Fn(&str) -> String,
) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let hits: Vec<usize> = (0..lines.len())
        .filter(|&n| {
            is_anchor(
                lines[n].trim(),
                lines.get(n + 1).map(|l| l.trim()).unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        hits.len(),
        1,
        "mutation `{what}`: expected exactly one anchor line in the emitted Verilog, found {} ({:?}); the emitter changed: update this mutation",
        hits.len(),
        hits.iter().map(|&n| lines[n].trim()).collect::<Vec<_>>()
    );
    let n = hits[0];
    let new = rewrite(lines[n]);
    assert_ne!(new, lines[n], "mutation `{what}` changed nothing");
    println!(
        "mutation `{what}`: line {}:\n  - {}\n  + {}",
        n + 1,
        lines[n].trim(),
        new.trim()
    );
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    out[n] = new;
    out.join("\n") + "\n"
}

/// A `Dut` that is the model plus a probe: records the first cycle at which
/// `pred(state before the edge, inputs, outputs)` holds. With the same seed
/// and stimulus it sees exactly the inputs the cosimulation saw up to the
/// mismatch, so it tells the cycle a bug must first show at.
struct Probe<F: Fn(&State, &Inputs, &Outputs) -> bool> {
    model: MembarModel,
    pred: F,
    cycle: u64,
    first: Option<u64>,
}

impl<F: Fn(&State, &Inputs, &Outputs) -> bool> Dut<membar_unit_env::ports::MembarUnitPorts>
    for Probe<F>
{
    fn step(&mut self, i: &Inputs) -> Outputs {
        let q = self.model.q;
        let o = self.model.step(i);
        if self.first.is_none() && !i.reset && (self.pred)(&q, i, &o) {
            self.first = Some(self.cycle);
        }
        self.cycle += 1;
        o
    }
    fn name(&self) -> &str {
        "probe"
    }
}

fn first_cycle_where(
    cfg: &Config,
    seed: u64,
    cycles: u64,
    pred: impl Fn(&State, &Inputs, &Outputs) -> bool,
) -> Option<u64> {
    let mut probe = Probe {
        model: MembarModel::new(cfg),
        pred,
        cycle: 0,
        first: None,
    };
    let mut model = MembarModel::new(cfg);
    let (mut up, mut down) = random_stimulus(cfg, seed);
    let opts = CosimOptions {
        cycles,
        seed,
        ..CosimOptions::default()
    };
    let (r, _) = lockstep(&mut model, &mut probe, &mut up, &mut down, &opts, false);
    assert!(r.passed());
    probe.first
}

/// Write the mutant into a fresh temp directory (never into verilog_out/).
fn write_mutant(tag: &str, text: &str) -> PathBuf {
    let d = verilate::target_dir()
        .join("testbench-tmp")
        .join(format!("mutant-{tag}"));
    std::fs::create_dir_all(&d).unwrap();
    let p = d.join("membar_unit.v");
    std::fs::write(&p, text).unwrap();
    p
}

struct MutantRun {
    mismatch: Mismatch,
}

fn run_mutant(
    tag: &str,
    cfg: &Config,
    mutant: &str,
    seed: u64,
    cycles: u64,
    waves_window: u64,
) -> MutantRun {
    let v = write_mutant(tag, mutant);
    let wdir = verilate::target_dir()
        .join("testbench-tmp")
        .join(format!("mutant-{tag}-waves"));
    let _ = std::fs::remove_dir_all(&wdir);
    let (mut up, mut down) = random_stimulus(cfg, seed);
    let opts = CosimOptions {
        cycles,
        seed,
        label: format!("mutant-{tag}"),
        waves_dir: Some(wdir.clone()),
        waves_window,
        ..CosimOptions::default()
    };
    let r = cosim(&v, cfg, &BuildOptions::default(), &opts, &mut up, &mut down)
        .unwrap_or_else(|e| panic!("{e}"));
    println!("{r}");
    let m = r.mismatch.unwrap_or_else(|| panic!("mutant `{tag}` survived {cycles} cycles of cosimulation: the harness missed an injected bug"));
    // The waveform of the traced replay exists, reproduces the mismatch and
    // is where the report says.
    let w = m
        .waves
        .clone()
        .unwrap_or_else(|| panic!("no waveform: {:?}", m.waves_note));
    assert!(w.starts_with(&wdir) && w.is_file(), "{}", w.display());
    assert!(
        std::fs::metadata(&w).unwrap().len() > 200,
        "waveform {} is (nearly) empty",
        w.display()
    );
    // None, or the note that FST was unavailable and VCD was written.
    assert!(
        m.waves_note
            .as_deref()
            .is_none_or(|n| n.starts_with("the FST build failed")),
        "{:?}",
        m.waves_note
    );
    let text = m.to_string();
    assert!(
        text.contains(&format!("seed {seed}"))
            && text.contains(m.port)
            && text.contains("waveform:"),
        "{text}"
    );
    assert_eq!(m.history.len(), 8);
    MutantRun { mismatch: m }
}

/// Off by one in a commit counter's full compare (slot 0 counts as full one
/// transaction early): the RTL refuses a TXN the model accepts. It must show
/// as `req_ready` exactly at the first cycle where the model accepts a TXN
/// into open slot 0 holding `counter_max - 1` outstanding transactions.
#[test]
fn injected_counter_off_by_one_is_caught() {
    let name = "default";
    let cfg = grid(name);
    let text = std::fs::read_to_string(emitted(name)).unwrap();
    let mutant = mutate_one_line(
        &text,
        "counter full one early (slot 0)",
        // The registered full flag of slot 0 is set on the increment from
        // `max_m1` (`if (cnt__0__q == max_m1) begin`); one early, it is set
        // from `max_m1 - 1`, so `cnt_full` rises at `cnt[0] == max - 1`.
        |l, _| l == "if (cnt__0__q == max_m1) begin",
        |l| l.replace("== max_m1", "== (max_m1 - 1)"),
    );
    let (seed, cycles) = (2, 400_000);
    let cmax = cfg.counter_max() as u16;
    let expect = first_cycle_where(&cfg, seed, cycles, |q, i, o| {
        q.open == 0 && q.cnt[0] == cmax - 1 && i.req_valid && op::is_txn(i.req_op) && o.req_ready
    })
    .expect("the stimulus never reaches the mutated case; pick another seed");
    // Trace only the last 1000 cycles (the trace opens in the middle of the replay).
    let m = run_mutant("cnt-off-by-one", &cfg, &mutant, seed, cycles, 1000).mismatch;
    assert_eq!((m.port, m.expected, m.actual), ("req_ready", 1, 0), "{m}");
    assert_eq!(m.cycle, expect, "{m}");
}

/// Inverted condition: the CTA-pending release withholds the warp whose TXN
/// is in the output register when there is NO such TXN, and releases it when
/// there is. It must show as `release_valid`/`release_mask` exactly at the
/// first cycle where a CTA-pending warp is the output register's warp.
#[test]
fn injected_inverted_cta_release_is_caught() {
    let name = "default";
    let cfg = grid(name);
    let text = std::fs::read_to_string(emitted(name)).unwrap();
    let mutant = mutate_one_line(
        &text,
        "CTA release condition inverted",
        |l, next| l == "if (out_txn) begin" && next.starts_with("cta_rel ="),
        |l| l.replace("if (out_txn)", "if (~out_txn)"),
    );
    let (seed, cycles) = (1, 200_000);
    let expect = first_cycle_where(&cfg, seed, cycles, |q, _, _| {
        q.cta_pend & (1u64 << q.out.warp) != 0
    })
    .expect("the stimulus never reaches the mutated case; pick another seed");
    let m = run_mutant("cta-inverted", &cfg, &mutant, seed, cycles, 0).mismatch;
    assert!(matches!(m.port, "release_valid" | "release_mask"), "{m}");
    assert_eq!(m.cycle, expect, "{m}");
}

// ---------------------------------------------------------------------------
// sim's workloads and MMU as the stimulus.
// ---------------------------------------------------------------------------

/// Every builtin workload scenario (sim's `Workload` + `Mmu`, which react to
/// the Verilog's outputs) on the default configuration.
#[test]
fn builtin_scenarios_on_default() {
    use membar_unit_env::mmu::Mmu;
    use membar_unit_env::workload::{Workload, WorkloadFile, SCENARIOS};
    let name = "default";
    let cfg = grid(name);
    let v = emitted(name);
    for (k, scenario) in SCENARIOS.iter().enumerate() {
        let wf = WorkloadFile::builtin(scenario).unwrap();
        let seed = 100 + k as u64;
        let mut up = Workload::new(&wf.workload, &cfg, seed);
        let mut down = Mmu::new(&wf.mmu, &cfg, seed);
        let cycles = wf.cycles.unwrap_or(20_000).clamp(20_000, 100_000);
        let opts = CosimOptions {
            cycles,
            seed,
            label: format!("{name}-{scenario}"),
            ..CosimOptions::default()
        };
        let r =
            cosim(&v, &cfg, &quiet(), &opts, &mut up, &mut down).unwrap_or_else(|e| panic!("{e}"));
        println!("{}\n  coverage: {}", r.summary(), r.coverage);
        if let Some(m) = &r.mismatch {
            panic!("scenario {scenario}: the emitted Verilog diverges from the model\n{m}");
        }
    }
}

// ---------------------------------------------------------------------------
// Knobs outside the grid, emitted on the fly (into target/, not verilog_out/).
// ---------------------------------------------------------------------------

/// Configurations with the other micro-architecture knobs (level split, GL
/// bar_ack, zero window, several outstanding barriers), generated now with
/// `membar_unit_rtl::generate_verilog` and cosimulated like the grid.
#[test]
fn generated_knob_variants() {
    use membar_unit_env::config::LevelMix;
    let variants = [
        (
            "split_glack_win0",
            Config {
                warps: 16,
                ways: 4,
                slots: 4,
                counter_bits: 5,
                coalesce_window: 0,
                level_mix: LevelMix::Split,
                gl_bar_ack: true,
                ..Config::default()
            },
        ),
        (
            "mo3_win4_lone2",
            Config {
                warps: 32,
                ways: 32,
                slots: 4,
                counter_bits: 6,
                coalesce_window: 4,
                lone_window: 2,
                max_outstanding: 3,
                ..Config::default()
            },
        ),
    ];
    for (name, cfg) in variants {
        let text = membar_unit_rtl::generate_verilog(&cfg)
            .unwrap_or_else(|e| panic!("{name}: generate_verilog failed: {e}"));
        let d = verilate::target_dir()
            .join("testbench-tmp")
            .join(format!("variant-{name}"));
        std::fs::create_dir_all(&d).unwrap();
        let v = d.join("membar_unit.v");
        std::fs::write(&v, text).unwrap();
        for seed in 1..=2 {
            let (mut up, mut down) = random_stimulus(&cfg, seed);
            let opts = CosimOptions {
                cycles: 100_000,
                seed,
                label: name.into(),
                ..CosimOptions::default()
            };
            let r = cosim(
                &v,
                &cfg,
                &BuildOptions::default(),
                &opts,
                &mut up,
                &mut down,
            )
            .unwrap_or_else(|e| panic!("{e}"));
            println!("{}\n  coverage: {}", r.summary(), r.coverage);
            if let Some(m) = &r.mismatch {
                panic!(
                    "{name} ({}): the emitted Verilog diverges from the model\n{m}",
                    cfg.to_yaml().replace('\n', ", ")
                );
            }
        }
    }
}

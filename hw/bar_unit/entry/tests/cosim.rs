//! Cosimulation of the checked-in emitted Verilog of `bar_unit`
//! (`verilog_out/bar_unit/<name>/bar_unit.v` for every shipped configuration
//! of `bar-unit-rtl`) against the golden model, through Verilator, in
//! lockstep on seeded random legal + illegal stimulus; the port-only
//! scoreboard (B1–B7) also checks the Verilog's outputs. Plus a bug-injection
//! proof: one compare inverted in the emitted text is caught at the port and
//! cycle the bug predicts.
//!
//! Replay: `SEED=<first seed> CYCLES=<n> cargo test --release -p
//! bar-unit-entry --test cosim` (defaults: seeds 1..=3, 100000
//! cycles on the default configuration, 40000 on the others).

use bar_unit_model::bar_unit::BarUnitModel;
use bar_unit_model::config::BarConfig;
use bar_unit_model::coverage::BarCoverage;
use bar_unit_model::ports::{BarInputs, BarOutputs, BarUnitPorts, Dut, PortBundle};
use bar_unit_model::scoreboard::BarScoreboard;
use bar_unit_model::stimulus::{BarKnobs, BarStimulus};
use membar_testbench::{BuildOptions, VerilatorDut};
use std::path::{Path, PathBuf};
use std::time::Instant;

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.parse().ok())
}

fn emitted(name: &str) -> PathBuf {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../verilog_out/bar_unit")
        .join(name)
        .join("bar_unit.v");
    assert!(
        p.is_file(),
        "{} is missing (write it with `cargo run --release --bin membar -- release`)",
        p.display()
    );
    p
}

/// The shipped configuration `name`, checked against its `config.yaml`.
fn shipped(name: &str) -> BarConfig {
    let yaml = emitted(name).with_file_name("config.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap_or_else(|e| panic!("{}: {e}", yaml.display()));
    BarConfig::from_yaml(&text, &yaml.display().to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn quiet() -> BuildOptions {
    BuildOptions {
        verbose: false,
        ..BuildOptions::default()
    }
}

/// First mismatch (cycle, port, model value, Verilog value), or the
/// Verilog's cycles/s.
fn lockstep(
    dut: &mut dyn Dut<BarUnitPorts>,
    cfg: &BarConfig,
    seed: u64,
    cycles: u64,
) -> Result<f64, (u64, &'static str, u64, u64)> {
    let mut stim = BarStimulus::with_bad_input(cfg, seed);
    lockstep_on(dut, cfg, &mut stim, seed, cycles, None)
}

/// [`lockstep`] on a given stimulus, sampling coverage when asked.
fn lockstep_on(
    dut: &mut dyn Dut<BarUnitPorts>,
    cfg: &BarConfig,
    stim: &mut BarStimulus,
    seed: u64,
    cycles: u64,
    mut cov: Option<&mut BarCoverage>,
) -> Result<f64, (u64, &'static str, u64, u64)> {
    let mut model = BarUnitModel::new(*cfg);
    let mut sb = BarScoreboard::new(cfg);
    let mut prev = BarOutputs::default();
    let mut in_dut = 0.0;
    for cycle in 0..cycles {
        let i: BarInputs = stim.next(&prev);
        let before = cov.as_ref().map(|_| model.state.clone());
        let om = model.step(&i);
        if let (Some(c), Some(s)) = (cov.as_deref_mut(), before) {
            c.sample(&s, &i, &om);
        }
        let t = Instant::now();
        let ov = dut.step(&i);
        in_dut += t.elapsed().as_secs_f64();
        if let Some((port, m, v)) = om.first_difference(&ov) {
            return Err((cycle, port, m, v));
        }
        if let Err(v) = sb.check(&i, &ov) {
            panic!("seed {seed}: cycle {cycle}: scoreboard on the Verilog: {v:?}");
        }
        prev = om;
    }
    assert!(sb.releases > 0 && sb.errors > 0, "stimulus too weak");
    Ok(cycles as f64 / in_dut)
}

fn cosim_shipped(name: &str, default_cycles: u64) {
    let cfg = shipped(name);
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(default_cycles);
    let dut = VerilatorDut::<BarUnitPorts>::build(&emitted(name), &cfg, &quiet())
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    for seed in first..first + 3 {
        let mut fresh = dut.fresh().unwrap_or_else(|e| panic!("{e}"));
        match lockstep(&mut fresh, &cfg, seed, cycles) {
            Ok(rate) => println!(
                "cosim bar_unit {name}: seed {seed}: {cycles} cycles agree; Verilator {rate:.0} cycles/s \
                 (replay: SEED={seed} CYCLES={cycles} cargo test --release -p bar-unit-entry --test cosim)"
            ),
            Err((cycle, port, m, v)) => panic!(
                "{name}: seed {seed}: cycle {cycle}: port {port}: model {m:#x}, Verilog {v:#x}\n\
                 replay: SEED={seed} CYCLES={cycles} cargo test --release -p bar-unit-entry --test cosim"
            ),
        }
    }
}

#[test]
fn cosim_bar_unit_default() {
    cosim_shipped("default", 100_000);
}

#[test]
fn cosim_bar_unit_w8_c1() {
    cosim_shipped("w8_c1", 40_000);
}

#[test]
fn cosim_bar_unit_w8_c3() {
    cosim_shipped("w8_c3", 40_000);
}

#[test]
fn cosim_bar_unit_w16_c4() {
    cosim_shipped("w16_c4", 40_000);
}

/// Every shipped configuration's Verilog on stimulus that hammers one
/// block-RAM word ([`BarKnobs::hammer`]: one CTA, every request to barrier
/// 0, one per cycle), against the model with the scoreboard on: the
/// back-to-back read-modify-writes of one word and their forwarding must
/// occur thousands of times (coverage bins `ram_forward`, `back_to_back`).
#[test]
fn cosim_bar_unit_hammers_one_ram_word_back_to_back() {
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(30_000);
    for name in ["default", "w8_c1", "w8_c3", "w16_c4"] {
        let cfg = shipped(name);
        let mut dut = VerilatorDut::<BarUnitPorts>::build(&emitted(name), &cfg, &quiet())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut stim = BarStimulus::with_knobs(&cfg, first, BarKnobs::hammer(&cfg));
        let mut cov = BarCoverage::new(&cfg);
        let replay = format!(
            "replay: SEED={first} CYCLES={cycles} cargo test --release -p bar-unit-entry \
             --test cosim hammers"
        );
        match lockstep_on(&mut dut, &cfg, &mut stim, first, cycles, Some(&mut cov)) {
            Ok(_) => {}
            Err((cycle, port, m, v)) => panic!(
                "{name}: hammer seed {first}: cycle {cycle}: port {port}: model {m:#x}, \
                 Verilog {v:#x}\n{replay}"
            ),
        }
        let fwd = cov.bins["ram_forward"];
        let b2b = cov.bins["back_to_back"];
        println!(
            "cosim bar_unit {name}: hammer seed {first}: {cycles} cycles agree; \
             ram_forward {fwd}, back_to_back {b2b} ({replay})"
        );
        assert!(
            fwd >= cycles / 20 && b2b >= cycles / 200,
            "{name}: the hammer stimulus is too weak: ram_forward {fwd}, back_to_back {b2b}\n{replay}"
        );
    }
    // The forwarding of the `count` RAM removed from the w8_c1 text: the
    // hammer must see a stale count at the ports.
    let cfg = shipped("w8_c1");
    let text = std::fs::read_to_string(emitted("w8_c1")).unwrap();
    let module = text
        .find("module bar_w8_c1__ram_count__mem(")
        .expect("the emitted text changed: update the mutation");
    // (`fwd`, in the count RAM's `ram_fwd.rs`, selects the forwarded word for
    // `rd_data` and the verdict of the completion compare made on both
    // sources: `count_ram.rs`.)
    let fwd = "fwd = byp_valid_q__q & hit_q__q;";
    let at = module
        + text[module..]
            .find(fwd)
            .expect("no forwarding in ram_count");
    let bad = format!("{}fwd = 1'b0;{}", &text[..at], &text[at + fwd.len()..]);
    let dir = std::env::temp_dir().join(format!("bar-unit-fwd-mutant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bar_unit.v");
    std::fs::write(&path, bad).unwrap();
    let mut dut = VerilatorDut::<BarUnitPorts>::build(&path, &cfg, &quiet())
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stim = BarStimulus::with_knobs(&cfg, first, BarKnobs::hammer(&cfg));
    let got = lockstep_on(&mut dut, &cfg, &mut stim, first, cycles, None);
    std::fs::remove_dir_all(&dir).ok();
    match got {
        Ok(_) => panic!("the hammer missed the count RAM's forwarding removed"),
        Err((cycle, port, m, v)) => println!(
            "forwarding removed from ram_count: caught at cycle {cycle}, port {port}, model {m:#x}, Verilog {v:#x}"
        ),
    }
}

/// Every shipped configuration has a test above.
#[test]
fn every_shipped_configuration_is_cosimulated() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../verilog_out/bar_unit");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["default", "w16_c4", "w8_c1", "w8_c3"]);
}

/// Bug injection: in the emitted w8_c1 file, stage B's completion compare
/// of an arrival at an open barrier (`reach_ram = mem__ram_data >=
/// target_m1` in the count RAM, i.e. count + 1 ≥ target, and the same
/// compare on the forwarded word, `reach_byp`) becomes `>`. Such a barrier
/// then completes one arrival late, so the first difference must be
/// `rel_valid` in the first cycle where the model releases a barrier whose
/// completing arrival found its phase open (a one-arrival phase, decided by
/// the unmutated `target ≤ 1` path, still completes on time).
#[test]
fn injected_compare_bug_is_caught_at_the_predicted_port_and_cycle() {
    let cfg = shipped("w8_c1");
    let text = std::fs::read_to_string(emitted("w8_c1")).unwrap();
    let mut bad = text.clone();
    for good in [
        "reach_ram = mem__ram_data >= target_m1;",
        "reach_byp = mem__byp_data >= target_m1;",
    ] {
        assert_eq!(
            text.matches(good).count(),
            1,
            "the emitted text changed: update the mutation"
        );
        bad = bad.replace(good, &good.replace(">=", ">"));
    }
    let dir = std::env::temp_dir().join(format!("bar-unit-mutant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path: &Path = &dir.join("bar_unit.v");
    std::fs::write(path, bad).unwrap();
    let mut dut =
        VerilatorDut::<BarUnitPorts>::build(path, &cfg, &quiet()).unwrap_or_else(|e| panic!("{e}"));
    // The model alone, on the stimulus `lockstep` drives: the first release
    // of a barrier whose completing arrival (stage B) found its phase open.
    let mut model = BarUnitModel::new(cfg);
    let mut stim = BarStimulus::with_bad_input(&cfg, 5);
    let mut prev = BarOutputs::default();
    let mut predicted = None;
    for cycle in 0..20_000u64 {
        let s = model.state.clone();
        prev = model.step(&stim.next(&prev));
        let t = s.taken;
        if model.state.rel.valid && t.valid && !t.ctl && !s.exit_done.valid {
            let slot = s.warp_slot[t.warp as usize] as usize;
            if s.bars[slot * 16 + t.id as usize].active {
                predicted = Some(cycle + 1);
                break;
            }
        }
    }
    let predicted = predicted.expect("the stimulus releases a barrier");
    let got = lockstep(&mut dut, &cfg, 5, 20_000);
    std::fs::remove_dir_all(&dir).ok();
    match got {
        Ok(_) => panic!("the cosimulation missed the injected bug"),
        Err((cycle, port, m, v)) => {
            println!(
                "injected bug caught: cycle {cycle}, port {port}, model {m:#x}, Verilog {v:#x}"
            );
            assert_eq!((port, cycle, m, v), ("rel_valid", predicted, 1, 0));
        }
    }
}

/// `cluster_barrier`: the checked-in Verilog of every shipped cluster size
/// against the golden model in lockstep (C1–C4 scoreboard on the Verilog),
/// 3 seeds each; and an injected bug (phase toggle removed) is caught.
#[test]
fn cosim_cluster_barrier_shipped_configs() {
    use bar_unit_model::cluster_barrier::ClusterBarrierModel;
    use bar_unit_model::config::ClusterConfig;
    use bar_unit_model::ports::{ClusterBarrierPorts, ClusterOutputs};
    use bar_unit_model::scoreboard::ClusterScoreboard;
    use bar_unit_model::stimulus::ClusterStimulus;
    let first = env_u64("SEED").unwrap_or(1);
    let cycles = env_u64("CYCLES").unwrap_or(100_000);
    let root =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../verilog_out/cluster_barrier");
    let run = |path: &Path, cfg: &ClusterConfig, seed: u64| -> Result<f64, (u64, &'static str)> {
        let mut dut = VerilatorDut::<ClusterBarrierPorts>::build(path, cfg, &quiet())
            .unwrap_or_else(|e| panic!("{e}"));
        let mut model = ClusterBarrierModel::new(*cfg);
        let mut stim = ClusterStimulus::new(cfg, seed);
        let mut sb = ClusterScoreboard::new(cfg);
        let mut prev = ClusterOutputs::default();
        let t0 = Instant::now();
        for cycle in 0..cycles {
            let i = stim.next(&prev);
            let om = model.step(&i);
            let ov = dut.step(&i);
            if let Some((port, _, _)) = om.first_difference(&ov) {
                return Err((cycle, port));
            }
            if let Err(v) = sb.check(&i, &ov) {
                panic!("seed {seed}: cycle {cycle}: scoreboard on the Verilog: {v:?}");
            }
            prev = om;
        }
        Ok(cycles as f64 / t0.elapsed().as_secs_f64())
    };
    for name in ["default", "n1", "n2", "n16"] {
        let path = root.join(name).join("cluster_barrier.v");
        let yaml = std::fs::read_to_string(root.join(name).join("config.yaml")).unwrap();
        let cfg = ClusterConfig::from_yaml(&yaml, name).unwrap();
        for seed in first..first + 3 {
            match run(&path, &cfg, seed) {
                Ok(r) => println!("cosim cluster_barrier {name}: seed {seed}: {cycles} cycles agree ({r:.0} cycles/s incl. model)"),
                Err((c, p)) => panic!("cluster_barrier {name}: seed {seed}: cycle {c}: port {p} differs (replay: SEED={seed} CYCLES={cycles} cargo test --release -p bar-unit-entry --test cosim cosim_cluster)"),
            }
        }
    }
    // Bug injection: the phase never toggles.
    let text = std::fs::read_to_string(root.join("default/cluster_barrier.v")).unwrap();
    let good = "phase_q__d = ~phase_q__q;";
    assert_eq!(
        text.matches(good).count(),
        1,
        "the emitted text changed: update the mutation"
    );
    let dir = std::env::temp_dir().join(format!("cluster-mutant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("cluster_barrier.v");
    std::fs::write(&bad, text.replace(good, "phase_q__d = phase_q__q;")).unwrap();
    let got = run(&bad, &ClusterConfig::default(), first);
    std::fs::remove_dir_all(&dir).ok();
    match got {
        Ok(_) => panic!("the cosimulation missed the injected cluster_barrier bug"),
        Err((cycle, port)) => {
            println!("injected cluster bug caught: cycle {cycle}, port {port}");
            assert!(port == "phase" || port == "done_phase", "{port}");
        }
    }
}

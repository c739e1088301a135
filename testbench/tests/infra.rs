//! The build/FFI/cache path and its error messages, on the hand-written
//! stand-in `membar_unit` (tests/common/standin.rs, written to a temp dir), and the
//! lockstep loop itself on the reference model (no Verilator needed).

mod common;

use common::standin;
use membar_testbench::stimulus::random_stimulus;
use membar_testbench::*;
use membar_unit_env::membar_unit::MembarModel;
use membar_unit_env::mutants::{Fault, MutantModel};
use membar_unit_env::{Config, Dut, Inputs};
use std::path::PathBuf;

fn tmp_dir(tag: &str) -> PathBuf {
    let d = verilate::target_dir()
        .join("testbench-tmp")
        .join(format!("{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn standin_file(cfg: &Config, tag: &str) -> PathBuf {
    let d = tmp_dir(tag);
    let p = d.join("membar_unit.v");
    std::fs::write(&p, standin::standin_verilog(cfg)).unwrap();
    p
}

fn quiet() -> BuildOptions {
    BuildOptions {
        verbose: false,
        ..BuildOptions::default()
    }
}

#[test]
fn standin_builds_steps_and_hits_the_cache() {
    let cfg = Config::default();
    let v = standin_file(&cfg, "standin");
    let a = build_library(&v, &cfg, &quiet()).unwrap();
    let b = build_library(&v, &cfg, &quiet()).unwrap();
    assert!(
        b.cache_hit,
        "second build with the same inputs must be a cache hit"
    );
    assert_eq!(a.path, b.path);
    assert!(
        b.path.starts_with(verilate::default_cache_dir()),
        "{}",
        b.path.display()
    );
    // A different flag is a different key.
    let c = build_library(
        &v,
        &cfg,
        &BuildOptions {
            trace: Some(TraceFormat::Fst),
            ..quiet()
        },
    )
    .unwrap();
    assert_ne!(c.hash, b.hash);

    let mut dut = <VerilatorDut>::build(&v, &cfg, &quiet()).unwrap();
    assert_eq!(dut.name(), "verilator");
    let rst = Inputs {
        reset: true,
        ..Inputs::default()
    };
    let o = dut.step(&rst);
    assert!(!o.req_ready && !o.dn_valid);
    // req_ready is combinational on this cycle's inputs.
    let ld = Inputs {
        req_valid: true,
        req_warp: 3,
        req_op: 1,
        req_id: 0xbeef,
        dn_ready: true,
        ..Inputs::default()
    };
    let o = dut.step(&ld);
    assert!(o.req_ready && !o.dn_valid);
    let o = dut.step(&Inputs {
        dn_ready: true,
        ..Inputs::default()
    });
    assert!(
        o.dn_valid && o.dn_id == 0xbeef && o.dn_warp == 3 && o.dn_op == 1,
        "{o:?}"
    );
    // MEMBAR blocks warp 31 (a 32-bit output).
    let mb = Inputs {
        req_valid: true,
        req_warp: 31,
        req_op: 4,
        dn_ready: true,
        ..Inputs::default()
    };
    assert!(dut.step(&mb).req_ready);
    let o = dut.step(&mb);
    assert!(!o.req_ready && o.warp_blocked == 1 << 31, "{o:?}");
    // Reserved op: err, no ready.
    let o = dut.step(&Inputs {
        req_valid: true,
        req_op: 6,
        ..Inputs::default()
    });
    assert!(o.err && !o.req_ready);
    // Two instances are independent.
    let mut d2 = dut.fresh().unwrap();
    let o = d2.step(&Inputs::default());
    assert_eq!(o.warp_blocked, 0);
}

#[test]
fn standin_64_warps_uses_all_bits() {
    let cfg = Config {
        warps: 64,
        ways: 16,
        slots: 8,
        ..Config::default()
    };
    let v = standin_file(&cfg, "standin64");
    let mut dut = <VerilatorDut>::build(&v, &cfg, &quiet()).unwrap();
    dut.step(&Inputs {
        reset: true,
        ..Inputs::default()
    });
    let mb = Inputs {
        req_valid: true,
        req_warp: 63,
        req_op: 4,
        dn_ready: true,
        ..Inputs::default()
    };
    dut.step(&mb);
    let o = dut.step(&Inputs {
        req_valid: true,
        req_warp: 62,
        req_op: 4,
        ..Inputs::default()
    });
    assert_eq!(o.warp_blocked, 1 << 63);
    let o = dut.step(&Inputs {
        bar_ack_valid: true,
        ..Inputs::default()
    });
    assert_eq!(o.release_mask, 3 << 62, "{o:?}");
}

#[test]
fn wrong_ports_are_reported_before_building() {
    let cfg = Config::default();
    let v = standin_file(
        &Config {
            warps: 64,
            ways: 8,
            ..Config::default()
        },
        "wrongports",
    );
    let e = <VerilatorDut>::build(&v, &cfg, &quiet())
        .err()
        .expect("must fail")
        .to_string();
    assert!(
        e.contains("req_warp") && e.contains("6 bit") && e.contains("SPEC.md says 5"),
        "{e}"
    );
}

#[test]
fn waves_on_request() {
    let cfg = Config {
        warps: 8,
        ways: 1,
        slots: 2,
        counter_bits: 4,
        ..Config::default()
    };
    let v = standin_file(&cfg, "waves");
    let dir = tmp_dir("waves-out");
    for ext in ["fst", "vcd"] {
        let w = dir.join(format!("run.{ext}"));
        {
            let mut dut = <VerilatorDut>::build(
                &v,
                &cfg,
                &BuildOptions {
                    waves: Some(w.clone()),
                    ..quiet()
                },
            )
            .unwrap();
            for c in 0..50u16 {
                dut.step(&Inputs {
                    req_valid: true,
                    req_op: (c % 4) as u8,
                    req_id: c,
                    dn_ready: c % 3 != 0,
                    ..Inputs::default()
                });
            }
        }
        let len = std::fs::metadata(&w).map(|m| m.len()).unwrap_or(0);
        assert!(len > 100, "{} has {len} bytes", w.display());
        if ext == "vcd" {
            let t = std::fs::read_to_string(&w).unwrap();
            assert!(
                t.contains("req_ready") && t.contains("#495"),
                "VCD lacks signals or the last cycle"
            );
        }
    }
    // Untraced build: asking for a waveform later is a clear error.
    let mut dut = <VerilatorDut>::build(&v, &cfg, &quiet()).unwrap();
    let e = dut.open_waves(&dir.join("x.fst")).unwrap_err().to_string();
    assert!(e.contains("without tracing"), "{e}");
}

#[test]
fn compile_errors_show_verilator_messages() {
    let cfg = Config::default();
    let v = standin_file(&cfg, "broken");
    let text = std::fs::read_to_string(&v)
        .unwrap()
        .replace("assign dn_valid = v;", "assign dn_valid = v +;");
    std::fs::write(&v, text).unwrap();
    let e = <VerilatorDut>::build(&v, &cfg, &quiet())
        .err()
        .expect("must fail")
        .to_string();
    assert!(
        e.contains("%Error")
            && e.contains("membar_unit.v:")
            && e.contains("verilator --build failed"),
        "{e}"
    );
}

#[test]
fn missing_verilog_is_clear() {
    let e = <VerilatorDut>::build(
        std::path::Path::new("/nonexistent/membar_unit.v"),
        &Config::default(),
        &quiet(),
    )
    .err()
    .unwrap()
    .to_string();
    assert!(
        e.contains("/nonexistent/membar_unit.v") && e.contains("does not exist"),
        "{e}"
    );
}

#[test]
fn missing_verilator_says_how_to_install() {
    let cfg = Config::default();
    let v = standin_file(&cfg, "noverilator");
    let opts = BuildOptions {
        verilator: "/nonexistent/bin/verilator".into(),
        ..quiet()
    };
    let e = <VerilatorDut>::build(&v, &cfg, &opts)
        .err()
        .expect("must fail")
        .to_string();
    assert!(
        e.contains("apt-get install -y verilator") && e.contains("/nonexistent/bin/verilator"),
        "{e}"
    );
}

#[test]
fn concurrent_builds_of_one_key_build_once() {
    let cfg = Config {
        warps: 16,
        ways: 4,
        slots: 4,
        counter_bits: 6,
        ..Config::default()
    };
    let v = standin_file(&cfg, "concurrent");
    let cache = tmp_dir("concurrent-cache");
    let opts = BuildOptions {
        cache_dir: Some(cache.clone()),
        jobs: 1,
        ..quiet()
    };
    let results: Vec<BuiltLibrary> = std::thread::scope(|s| {
        let hs: Vec<_> = (0..3)
            .map(|_| s.spawn(|| build_library(&v, &cfg, &opts).unwrap()))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(
        results.iter().filter(|r| !r.cache_hit).count(),
        1,
        "exactly one real build"
    );
    assert!(results
        .iter()
        .all(|r| r.path == results[0].path && r.path.is_file()));
    // No temporary directories left behind.
    let leftovers: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
    // Loaded in parallel, they run independently.
    std::thread::scope(|s| {
        for t in 0..2u8 {
            let v = &v;
            let cfg = &cfg;
            let opts = &opts;
            s.spawn(move || {
                let mut d = <VerilatorDut>::build(v, cfg, opts).unwrap();
                d.step(&Inputs {
                    reset: true,
                    ..Inputs::default()
                });
                for _ in 0..1000 {
                    let o = d.step(&Inputs {
                        req_valid: true,
                        req_warp: t,
                        req_op: 0,
                        dn_ready: true,
                        ..Inputs::default()
                    });
                    assert!(o.req_ready);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&cache);
}

// ---- the lockstep loop on the model itself (no Verilator) ----

#[test]
fn lockstep_model_against_itself_has_no_mismatch_and_rich_coverage() {
    for (name, cfg) in Config::grid() {
        let mut model = MembarModel::new(&cfg);
        let mut dut = MembarModel::new(&cfg);
        let (mut up, mut down) = random_stimulus(&cfg, 7);
        let opts = CosimOptions {
            cycles: 200_000,
            seed: 7,
            label: name.into(),
            ..CosimOptions::default()
        };
        let (r, _) = lockstep(&mut model, &mut dut, &mut up, &mut down, &opts, false);
        println!("{}\n  {}", r.summary(), r.coverage);
        assert!(r.passed());
        let c = &r.coverage;
        for (what, n) in [
            ("txn", c.dn_txn),
            ("membar", c.membar_accepted),
            ("inval", c.dn_inval),
            ("barrier", c.dn_barrier),
            ("barrier ack_req", c.dn_barrier_ack_req),
            ("release", c.release_cycles),
            ("blocked refusal", c.blocked_refusals),
            ("close by window", c.closes_by_window),
            ("close by full", c.closes_by_full),
            (
                "coalesced join",
                if cfg.ways > 1 { c.joined_existing } else { 1 },
            ),
            ("counter full", c.counter_full_refusals),
            ("membar no room", c.membar_no_room),
            ("spurious ack", c.spurious_acks),
            ("spurious bar_ack", c.spurious_bar_acks),
            ("reserved op", c.reserved_ops),
            ("dn stall", c.dn_stalls),
            ("reset", c.reset_cycles),
        ] {
            assert!(n > 0, "{name}: stimulus never reached `{what}`: {c}");
        }
    }
}

#[test]
fn lockstep_catches_model_faults() {
    let cfg = Config::default();
    for fault in [
        Fault::ReleaseEarly,
        Fault::NoBlock,
        Fault::DropTxn,
        Fault::DupTxn,
        Fault::CounterWrap,
        Fault::NoCounterWait,
        Fault::CtaEarly,
        Fault::AcceptSpuriousAck,
        Fault::AcceptReservedOp,
    ] {
        let mut model = MembarModel::new(&cfg);
        let mut dut = MutantModel::new(&cfg, fault);
        let (mut up, mut down) = random_stimulus(&cfg, 11);
        let opts = CosimOptions {
            cycles: 200_000,
            seed: 11,
            label: format!("{fault:?}"),
            ..CosimOptions::default()
        };
        let (r, _) = lockstep(&mut model, &mut dut, &mut up, &mut down, &opts, false);
        let m = r
            .mismatch
            .unwrap_or_else(|| panic!("{fault:?} not caught in 200k cycles: {}", r.coverage));
        assert_eq!(m.history.len(), 8);
        assert_eq!(m.history.last().unwrap().cycle, m.cycle);
        let text = m.to_string();
        assert!(
            text.contains("MISMATCH")
                && text.contains("seed 11")
                && text.contains(m.port)
                && text.contains("req_valid="),
            "{text}"
        );
        println!("{fault:?}: cycle {} port {}", m.cycle, m.port);
    }
}

#[test]
fn pack_roundtrip() {
    use membar_unit_env::ports::{MembarUnitPorts, Unit};
    let cfg = Config {
        warps: 64,
        slots: 8,
        ways: 8,
        ..Config::default()
    };
    let widths = MembarUnitPorts::input_widths(&cfg);
    let (mut up, mut down) = random_stimulus(&cfg, 3);
    use membar_unit_env::ports::{Downstream, Upstream};
    for c in 0..10_000 {
        let mut i = Inputs::default();
        up.drive(c, &mut i);
        down.drive(c, &mut i);
        let i = i.masked_for(&cfg);
        let words = unit_ports::pack(&i, &widths);
        assert_eq!(unit_ports::unpack::<Inputs>(&words, &widths), i);
    }
}

/// The whole `cosim` flow on the stand-in (which is not the model, so it
/// diverges): first mismatch reported with its context and a waveform from
/// the traced replay, which reproduces the mismatch.
#[test]
fn cosim_on_standin_reports_first_mismatch_with_waveform() {
    let cfg = Config::default();
    let v = standin_file(&cfg, "cosim-standin");
    let wdir = tmp_dir("cosim-standin-waves");
    let (mut up, mut down) = random_stimulus(&cfg, 5);
    let opts = CosimOptions {
        cycles: 10_000,
        seed: 5,
        label: "standin".into(),
        waves_dir: Some(wdir.clone()),
        ..CosimOptions::default()
    };
    let r = cosim(&v, &cfg, &quiet(), &opts, &mut up, &mut down).unwrap();
    let m = r.mismatch.as_ref().expect("the stand-in is not the model");
    println!("{r}");
    assert_eq!(r.cycles, m.cycle + 1);
    let w = m.waves.as_ref().expect("waveform");
    assert!(
        w.starts_with(&wdir) && w.is_file() && std::fs::metadata(w).unwrap().len() > 100,
        "{}",
        w.display()
    );
    assert!(
        m.waves_note
            .as_deref()
            .is_none_or(|n| n.starts_with("the FST build failed")),
        "replay must reproduce: {:?}",
        m.waves_note
    );
    let text = m.to_string();
    assert!(
        text.contains("seed 5")
            && text.contains(&format!("cycle {}", m.cycle))
            && text.contains("waveform:"),
        "{text}"
    );
}

/// The cosimulation runs the P1–P7 scoreboard on the DUT's outputs: a
/// design that agrees with its reference cycle for cycle but breaks the
/// contract (here both are the model with a deliberate early release) is
/// reported as a violation, not as a pass.
#[test]
fn cosim_checks_the_scoreboard_on_the_dut_outputs() {
    use membar_testbench::cosim::lockstep_observed;
    use membar_unit_env::scoreboard::Scoreboard;
    let cfg = Config::default();
    let opts = CosimOptions {
        cycles: 50_000,
        seed: 5,
        label: "faulty-pair".into(),
        ..CosimOptions::default()
    };
    for (fault, expect_violation) in [(Fault::None, false), (Fault::ReleaseEarly, true)] {
        let (mut up, mut down) = random_stimulus(&cfg, 5);
        let mut reference = MutantModel::new(&cfg, fault);
        let mut dut = MutantModel::new(&cfg, fault);
        let mut sb = Scoreboard::new(&cfg);
        let (r, _) = lockstep_observed(
            &mut reference,
            &mut dut,
            &mut up,
            &mut down,
            &opts,
            false,
            &mut [&mut sb],
        );
        println!("{fault:?}: {}", r.summary());
        assert!(
            r.mismatch.is_none(),
            "{fault:?}: identical back ends differ"
        );
        assert_eq!(
            r.violation.is_some(),
            expect_violation,
            "{fault:?}: {:?}",
            r.violation
        );
        assert_eq!(r.passed(), !expect_violation);
        if let Some(v) = &r.violation {
            assert!(v.contains("P1"), "{fault:?}: {v}");
        }
    }
}

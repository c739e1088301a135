//! Every configuration SPEC.md allows has RTL; anything else is an `Err`
//! naming the key, never a panic.

mod common;

use common::Stimulus;
use membar_unit_model::config::{Arch, LevelMix};
use membar_unit_model::PortBundle;
use membar_unit_model::{Config, Dut, MembarModel};

/// Each (warps, slots, counter_bits) combination: the rust-hdl model builds,
/// agrees with the reference model over a short random run, and emits Verilog.
/// The other parameters vary with the combination so they are spread too.
#[test]
fn every_allowed_width_combination() {
    let mut n = 0u32;
    for warps in [8, 16, 32, 64] {
        for slots in [2, 4, 8] {
            for counter_bits in 4..=16 {
                n += 1;
                let cfg = Config {
                    warps,
                    slots,
                    counter_bits,
                    ways: [1, 2, 5, warps][n as usize % 4].min(warps),
                    coalesce_window: [0, 1, 7, 40][n as usize / 4 % 4],
                    // Above coalesce_window too (it then acts as coalesce_window).
                    lone_window: [0, 1, 3, 40][n as usize / 16 % 4],
                    max_outstanding: 1 + n % (slots - 1),
                    level_mix: if n.is_multiple_of(3) {
                        LevelMix::Split
                    } else {
                        LevelMix::Promote
                    },
                    gl_bar_ack: n.is_multiple_of(5),
                    arch: Arch::Coalescing,
                };
                let mut model = MembarModel::new(&cfg);
                let mut rtl = membar_unit_rtl::hdl_dut(&cfg)
                    .unwrap_or_else(|e| panic!("{}: {e}", cfg.short_name()));
                let mut stim = Stimulus::new(&cfg, u64::from(n));
                for cycle in 0..1500 {
                    let i = stim.next();
                    let (om, or) = (model.step(&i), rtl.step(&i));
                    if let Some((port, m, r)) = om.first_difference(&or) {
                        panic!("{cfg:?}: cycle {cycle}, port `{port}`: model {m:#x}, rust-hdl {r:#x} (seed {n})");
                    }
                    stim.observe(&i, &om);
                }
                let verilog = membar_unit_rtl::generate_verilog(&cfg)
                    .unwrap_or_else(|e| panic!("{}: {e}", cfg.short_name()));
                // One module per instance (the emitted file shares identical modules).
                let verilog = hdl_kit::emit::unshare_file(&verilog).unwrap();
                let counter = &verilog[verilog
                    .find("__counters__cnt__0(d,q,clock);")
                    .expect("no counter flop")..];
                let decl = format!("output reg  [{}:0] q;", counter_bits - 1);
                assert!(
                    counter[..200].contains(&decl),
                    "{}: the counters are not {counter_bits} bits wide",
                    cfg.short_name()
                );
            }
        }
    }
    assert_eq!(n, 156);
}

#[test]
fn unsupported_configs_are_errors() {
    let d = Config::default();
    let cases = [
        (
            Config {
                warps: 12,
                ..d.clone()
            },
            "`warps` = 12",
        ),
        (
            Config {
                warps: 128,
                ways: 8,
                ..d.clone()
            },
            "`warps` = 128",
        ),
        (
            Config {
                slots: 3,
                ..d.clone()
            },
            "`slots` = 3",
        ),
        (
            Config {
                slots: 16,
                ..d.clone()
            },
            "`slots` = 16",
        ),
        (
            Config {
                counter_bits: 3,
                ..d.clone()
            },
            "`counter_bits` = 3",
        ),
        (
            Config {
                counter_bits: 17,
                ..d.clone()
            },
            "`counter_bits` = 17",
        ),
        (
            Config {
                ways: 0,
                ..d.clone()
            },
            "`ways` = 0",
        ),
        (
            Config {
                ways: 33,
                ..d.clone()
            },
            "`ways` = 33",
        ),
        (
            Config {
                coalesce_window: 256,
                ..d.clone()
            },
            "`coalesce_window` = 256",
        ),
        (
            Config {
                max_outstanding: 0,
                ..d.clone()
            },
            "`max_outstanding` = 0",
        ),
        (
            Config {
                max_outstanding: 4,
                ..d.clone()
            },
            "`max_outstanding` = 4",
        ),
        (
            Config {
                arch: Arch::PerWarpDrain,
                ..d.clone()
            },
            "`arch` = per_warp_drain",
        ),
        (
            Config {
                arch: Arch::LsuFlush,
                ..d
            },
            "`arch` = lsu_flush",
        ),
    ];
    for (cfg, expected) in cases {
        let dut_err = membar_unit_rtl::hdl_dut(&cfg)
            .err()
            .unwrap_or_else(|| panic!("{cfg:?} was accepted"));
        assert!(
            dut_err.contains(expected) && dut_err.contains("allowed"),
            "{cfg:?}: `{dut_err}`"
        );
        let verilog_err = membar_unit_rtl::generate_verilog(&cfg)
            .err()
            .unwrap_or_else(|| panic!("{cfg:?} was accepted"));
        assert_eq!(verilog_err, dut_err);
    }
}

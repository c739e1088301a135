//! Values the executor computes (issue #23, "silently wrong"): signed and
//! unsigned atomics, a thread's own atomics seen by its later loads,
//! distinct addresses for named variables, and the errors for what the
//! model does not define (undeclared and unmodelled registers, parameters).

use sm_exec::{run_source, Outcome, RunOptions, RunResult};

fn opts(seed: u64) -> RunOptions {
    RunOptions {
        seed,
        max_cycles: 100_000,
        ..RunOptions::default()
    }
}

/// One warp running entry `t` with `body` (declarations and instructions).
fn one_warp(body: &str) -> String {
    format!(
        "---\nwarps:\n  - {{cta: 0, warp: 0, program: t}}\n---\n.version 8.0\n.target sm_90\n.entry t {{\n{body}\n    ret;\n}}\n"
    )
}

fn finished(file: &str, src: &str, seed: u64) -> RunResult {
    let r = run_source(file, src, opts(seed)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(r.outcome, Outcome::Finished, "{file} seed {seed}");
    r
}

/// `atom.min/max.s32/.s64` compare signed, `.u32/.u64` unsigned, and 64-bit
/// atomics keep all 64 bits (global and shared memory).
#[test]
fn atomic_min_max_compare_with_the_type_s_signedness() {
    for space in ["global", "shared"] {
        let src = one_warp(&format!(
            "    .reg .b32 %r<8>;\n    .reg .b64 %rd<8>;\n\
    mov.u64 %rd0, 4096;\n\
    st.{space}.u32 [%rd0], 3;\n\
    atom.{space}.min.s32 %r1, [%rd0], -5;\n\
    atom.{space}.max.s32 %r2, [%rd0], 2;\n\
    atom.{space}.min.u32 %r3, [%rd0], -1;\n\
    atom.{space}.max.u32 %r4, [%rd0], -7;\n\
    atom.{space}.exch.b32 %r5, [%rd0], 0;\n\
    st.{space}.u64 [%rd0+8], 3;\n\
    atom.{space}.min.s64 %rd1, [%rd0+8], -5;\n\
    atom.{space}.max.s64 %rd2, [%rd0+8], 2;\n\
    atom.{space}.max.u64 %rd3, [%rd0+8], 0x10000000000;\n\
    atom.{space}.min.u64 %rd4, [%rd0+8], -1;\n\
    atom.{space}.exch.b64 %rd5, [%rd0+8], 0;"
        ));
        for seed in 0..10 {
            let r = finished("atom.ptx", &src, seed);
            let reg = |n: &str| r.reg(0, 0, n).unwrap();
            let m32 = |v: i64| v as u64 & 0xffff_ffff;
            assert_eq!(reg("%r1"), 3, "{space}");
            // min.s32(3, -5) = -5; unsigned it would stay 3.
            assert_eq!(reg("%r2"), m32(-5), "{space} seed {seed}");
            // max.s32(-5, 2) = 2; unsigned it would stay 0xfffffffb.
            assert_eq!(reg("%r3"), 2, "{space} seed {seed}");
            // min.u32(2, 0xffffffff) = 2; signed it would be -1.
            assert_eq!(reg("%r4"), 2, "{space} seed {seed}");
            // max.u32(2, 0xfffffff9) = 0xfffffff9; signed it would stay 2.
            assert_eq!(reg("%r5"), m32(-7), "{space} seed {seed}");
            assert_eq!(reg("%rd1"), 3, "{space}");
            assert_eq!(reg("%rd2"), -5i64 as u64, "{space} seed {seed}");
            assert_eq!(reg("%rd3"), 2, "{space} seed {seed}");
            assert_eq!(reg("%rd4"), 1 << 40, "{space} seed {seed}");
            assert_eq!(reg("%rd5"), 1 << 40, "{space} seed {seed}");
        }
    }
}

/// A thread's load after its own `atom.exch` / `atom.cas` (same address)
/// returns the atomic's result, never the value from before it (a store
/// still in the store buffer, or the L1 line), for weak and strong loads.
#[test]
fn a_load_after_the_thread_s_own_atomic_sees_its_result() {
    let src = one_warp(
        "    .reg .b32 %r<8>;\n    .reg .b64 %rd<2>;\n\
    mov.u64 %rd0, 4096;\n\
    st.global.u32 [%rd0], 1;\n\
    atom.global.exch.b32 %r1, [%rd0], 5;\n\
    ld.global.u32 %r2, [%rd0];\n\
    atom.global.cas.b32 %r3, [%rd0], 5, 9;\n\
    ld.relaxed.gpu.global.u32 %r4, [%rd0];\n\
    red.global.add.u32 [%rd0], 1;\n\
    ld.global.u32 %r5, [%rd0];",
    );
    for seed in 0..60 {
        let r = finished("coherence.ptx", &src, seed);
        let got: Vec<u64> = ["%r1", "%r2", "%r3", "%r4", "%r5"]
            .iter()
            .map(|n| r.reg(0, 0, n).unwrap())
            .collect();
        assert_eq!(got, [1, 5, 5, 9, 10], "seed {seed}");
    }
}

/// Named `.shared` / `.global` variables (module and kernel scope) have
/// distinct addresses: two words written 3 and 4 read back 3 and 4, and
/// `mov.u64 %rd, sym` / `[sym+8]` use the variable's address.
#[test]
fn named_variables_do_not_alias() {
    let src = "---\nwarps:\n  - {cta: 0, warp: 0, program: t}\n---\n.version 8.0\n.target sm_90\n\
.global .b32 gx;\n.global .align 8 .b32 garr[4];\n.shared .b32 ms;\n\
.entry t {\n\
    .reg .b32 %r<10>;\n    .reg .b64 %rd<4>;\n\
    .shared .b32 a;\n    .shared .b32 b;\n\
    st.shared.u32 [a], 3;\n\
    st.shared.u32 [b], 4;\n\
    st.shared.u32 [ms], 7;\n\
    ld.shared.u32 %r1, [a];\n\
    ld.shared.u32 %r2, [b];\n\
    st.global.u32 [gx], 5;\n\
    st.global.u32 [garr+8], 6;\n\
    st.global.u32 [garr], 8;\n\
    mov.u64 %rd0, garr;\n\
    ld.global.u32 %r3, [gx];\n\
    ld.global.u32 %r4, [%rd0+8];\n\
    mov.u64 %rd1, b;\n\
    ld.shared.u32 %r5, [%rd1];\n\
    ld.shared.u32 %r6, [ms];\n\
    ld.u32 %r7, [a];\n\
    ld.global.u32 %r8, [garr];\n\
    mov.u64 %rd2, a;\n\
    ret;\n}\n";
    for seed in 0..10 {
        let r = finished("named.ptx", src, seed);
        let got: Vec<u64> = (1..=8)
            .map(|k| r.reg(0, 0, &format!("%r{k}")).unwrap())
            .collect();
        // ld.u32 [a] is generic: a `.shared` variable's address is shared memory.
        assert_eq!(got, [3, 4, 5, 6, 4, 7, 3, 8], "seed {seed}");
        let (garr, b, a) = (
            r.reg(0, 0, "%rd0").unwrap(),
            r.reg(0, 0, "%rd1").unwrap(),
            r.reg(0, 0, "%rd2").unwrap(),
        );
        assert_ne!(a, b);
        assert_eq!(garr % 8, 0, "garr is 8-byte aligned: {garr:#x}");
    }
}

/// Two mbarriers named by variables are two barriers (two unit entries):
/// completing one leaves the other pending.
#[test]
fn two_named_mbarriers_are_distinct_barriers() {
    let src = one_warp(
        "    .reg .b64 %rd<2>;\n    .reg .pred %p<2>;\n\
    .shared .b64 m0;\n    .shared .b64 m1;\n\
    mbarrier.init.shared.b64 [m0], 1;\n\
    mbarrier.init.shared.b64 [m1], 2;\n\
    mbarrier.arrive.shared.b64 %rd0, [m0];\n\
    mbarrier.test_wait.parity.shared.b64 %p0, [m0], 0;\n\
    mbarrier.test_wait.parity.shared.b64 %p1, [m1], 0;",
    );
    for seed in 0..5 {
        let r = finished("mb.ptx", &src, seed);
        assert_eq!(
            (r.reg(0, 0, "%p0"), r.reg(0, 0, "%p1")),
            (Some(1), Some(0)),
            "seed {seed}: m0's phase completes, m1's does not"
        );
    }
}

/// An mbarrier address outside the unit's window is an error naming the
/// address and the variable it falls in, not a silent alias of another
/// barrier; so is declaring more mbarrier objects than the unit holds.
#[test]
fn an_mbarrier_outside_the_window_is_an_error_naming_it() {
    let src = one_warp(
        "    .reg .b64 %rd<2>;\n\
    .shared .b64 m;\n    .shared .b8 t[64];\n\
    mbarrier.init.shared.b64 [m], 1;\n\
    mov.u64 %rd0, t;\n\
    mbarrier.init.shared.b64 [%rd0+8], 1;",
    );
    let r = run_source("w.ptx", &src, opts(1)).unwrap();
    let Outcome::UnitError(e) = &r.outcome else {
        panic!("{:?}", r.outcome)
    };
    assert!(
        e.starts_with("w.ptx:13:1: mbarrier address [%rd0+8]")
            && e.contains("(variable `t` + 8)")
            && e.contains("window"),
        "{e}"
    );
    let mut body = String::from("    .reg .b64 %rd<2>;\n");
    for k in 0..17 {
        body += &format!("    .shared .b64 bar{k};\n    mbarrier.init.shared.b64 [bar{k}], 1;\n");
    }
    let e = run_source("w.ptx", &one_warp(&body), opts(1)).unwrap_err();
    assert!(
        e.to_string().contains("mbarrier object `bar16`") && e.msg.contains("16 barriers"),
        "{e}"
    );
}

/// The error of a program the executor refuses before running it.
fn refused(src: &str) -> String {
    match run_source("r.ptx", src, opts(1)) {
        Err(e) => e.to_string(),
        Ok(r) => panic!("ran: {:?}", r.outcome),
    }
}

/// An undeclared register, an unmodelled special register, an `ld.param`
/// (parameters have no value) and a write to a special register are errors
/// naming the line and the name, never a silent 0.
#[test]
fn undefined_names_are_errors_naming_line_and_name() {
    let e = refused(&one_warp(
        "    .reg .b32 %r<2>;\n    mov.u32 %r1, 1;\n    add.u32 %r1, %r1, %r9;",
    ));
    assert!(
        e.starts_with("r.ptx:10:5:") && e.contains("`%r9`") && e.contains("does not declare"),
        "{e}"
    );
    let e = refused(&one_warp(
        "    .reg .b64 %rd<2>;\n    st.global.u32 [%rd5], 1;",
    ));
    assert!(e.starts_with("r.ptx:9:5:") && e.contains("`%rd5`"), "{e}");
    // (`%laneid` and `%tid.x` have values: a warp holds the lanes its
    // placement gives, `lanes_of_a_program_file_warp_...` below.)
    for sreg in ["%globaltimer", "%ntid.x", "%lanemask_lt"] {
        let e = refused(&one_warp(&format!(
            "    .reg .b32 %r<2>;\n    mov.u32 %r1, {sreg};"
        )));
        assert!(
            e.starts_with("r.ptx:9:5:")
                && e.contains(&format!("special register `{sreg}`"))
                && e.contains("does not define")
                && e.contains("%warpid, %ctaid.x"),
            "{e}"
        );
    }
    let src = "---\nwarps:\n  - {cta: 0, warp: 0, program: t}\n---\n.entry t (.param .u64 p)\n{\n    .reg .b64 %rd<2>;\n    ld.param.u64 %rd0, [p];\n    ret;\n}\n";
    let e = refused(src);
    assert!(
        e.starts_with("r.ptx:8:5:") && e.contains("parameter `p` has no value"),
        "{e}"
    );
    // A litmus file is refused when loaded, not as a failure of every run.
    let lit = src.replace(
        "program: t}\n",
        "program: t}\nlitmus:\n  observe: [0/0/%rd0]\n  forbidden: [[1]]\n  allowed: [[0]]\n  expect: never\n",
    );
    let e = sm_exec::litmus::load("l.ptx", &lit).unwrap_err();
    assert!(e.to_string().contains("parameter `p` has no value"), "{e}");
    let e = refused(&one_warp("    mov.u32 %warpid, 1;"));
    assert!(e.contains("writes special register `%warpid`"), "{e}");
    let e = refused(&one_warp(
        "    .reg .b32 %r<2>;\n    .reg .b64 %rd<2>;\n    mov.u64 %rd0, 4096;\n    atom.global.add.f32 %r1, [%rd0], 1;",
    ));
    assert!(e.contains("floating-point"), "{e}");
}

/// The special registers with a value in the one-thread-per-warp model read
/// the warp's slot and its CTA's place in the grid and the cluster.
#[test]
fn modelled_special_registers_read_the_warp_s_place() {
    let src = "---\nctas: 4\ncluster: 2\nwarps:\n  - {cta: 0, warp: 0, program: t}\n  - {cta: 3, warp: 5, program: t}\n---\n.entry t {\n    .reg .b32 %r<6>;\n\
    mov.u32 %r0, %warpid;\n    mov.u32 %r1, %ctaid.x;\n    mov.u32 %r2, %nctaid.x;\n\
    mov.u32 %r3, %cluster_ctarank;\n    mov.u32 %r4, %clusterid.x;\n    mov.u32 %r5, %ctaid.y;\n    ret;\n}\n";
    let r = finished("s.ptx", src, 1);
    let regs = |c: u32, w: u32| -> Vec<u64> {
        (0..6)
            .map(|k| r.reg(c, w, &format!("%r{k}")).unwrap())
            .collect()
    };
    assert_eq!(regs(0, 0), [0, 0, 4, 0, 0, 0]);
    assert_eq!(regs(3, 5), [5, 3, 4, 1, 1, 0]);
}

#[test]
fn lanes_of_a_program_file_warp_have_their_own_registers_and_hosts_their_own_rules() {
    // Four lanes each compute 10 * %laneid; lane 3 reads 30.
    let src = "---\nwarps:\n  - {cta: 0, warp: 0, program: a, lanes: 4}\n---\n.version 8.0\n.target sm_90\n.entry a\n{\n    .reg .b32 %r<3>;\n    mov.u32 %r0, %laneid;\n    mul.lo.u32 %r1, %r0, 10;\n    ret;\n}\n";
    let r = sm_exec::run_source("l.ptx", src, sm_exec::RunOptions::default()).unwrap();
    assert_eq!(r.outcome, sm_exec::Outcome::Finished);
    assert_eq!(r.lane_reg(0, 0, 3, "%r1"), Some(30));
    assert_eq!(r.lane_reg(0, 0, 1, "%r1"), Some(10));
    // A host thread cannot use an SM unit: a located error.
    let src = "---\nwarps:\n  - {cta: 0, warp: 0, program: a}\nhosts:\n  - {thread: 0, program: h}\n---\n.version 8.0\n.target sm_90\n.entry a\n{\n    ret;\n}\n.entry h\n{\n    bar.sync 0;\n    ret;\n}\n";
    let r = sm_exec::run_source("h.ptx", src, sm_exec::RunOptions::default()).unwrap();
    match &r.outcome {
        sm_exec::Outcome::UnitError(e) => {
            assert!(
                e.starts_with("h.ptx:15:") && e.contains("a host thread runs memory accesses"),
                "{e}"
            )
        }
        o => panic!("expected the host's bar.sync refused, got {o:?}"),
    }
    // Header checks: lanes 1..32, host threads placed once.
    for (bad, want) in [
        ("warps:\n  - {cta: 0, warp: 0, program: a, lanes: 33}\n", "lanes"),
        ("warps:\n  - {cta: 0, warp: 0, program: a}\nhosts:\n  - {thread: 0, program: a}\n  - {thread: 0, program: a}\n", "placed twice"),
        ("warps:\n  - {cta: 0, warp: 0, program: a}\nhosts:\n  - {thread: 0, program: nope}\n", "not an entry"),
    ] {
        let src = format!("---\n{bad}---\n.version 8.0\n.target sm_90\n.entry a\n{{\n    ret;\n}}\n");
        let e = ptx_front::parse("b.ptx", &src).unwrap_err();
        assert!(e.msg.contains(want), "{e}");
    }
}

/// A vector store waits for the vector load that writes its registers (the
/// scoreboard reads a vector operand's elements): it stores the loaded
/// values, never the registers' old contents. Under every seed (random
/// load latency) and under the H100 timing preset.
#[test]
fn a_vector_store_waits_for_the_vector_load_of_its_registers() {
    let src = one_warp(
        "    .reg .b32 %r<8>;\n    .reg .b64 %rd<4>;\n\
    mov.u64 %rd0, 4096;\n\
    mov.u64 %rd1, 8192;\n\
    mov.u32 %r5, 7;\n\
    mov.u32 %r6, 9;\n\
    st.shared.v2.u32 [%rd0], {%r5, %r6};\n\
    ld.shared.v2.u32 {%r1, %r2}, [%rd0];\n\
    st.global.v2.u32 [%rd1], {%r1, %r2};\n\
    ld.global.v2.u32 {%r3, %r4}, [%rd1];",
    );
    for seed in 0..20 {
        for preset in [None, Some(sm_exec::sm_timing::SmTiming::h100())] {
            let o = RunOptions {
                sm_timing: preset.clone(),
                ..opts(seed)
            };
            let r = run_source("vec.ptx", &src, o).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.outcome, Outcome::Finished);
            let reg = |n: &str| r.reg(0, 0, n).unwrap();
            assert_eq!(
                (reg("%r3"), reg("%r4")),
                (7, 9),
                "seed {seed}, preset {:?}",
                preset.map(|p| p.name)
            );
        }
    }
}

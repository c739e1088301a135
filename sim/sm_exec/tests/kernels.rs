//! Unmodified nvcc PTX with launch files (`kernels/reference/`: the
//! reference kernels' PTX as nvcc 13.0 wrote it for sm_90a, their inputs
//! and the outputs their host code checks), and the SIMT executor's
//! semantics on small kernels: divergence and reconvergence, per-lane
//! special registers, warp-level operations, launch-file and
//! unsupported-construct errors.

use sm_exec::exec::RunOptions;
use sm_exec::kernel::run_kernel;
use sm_exec::launch::{self, Launch};
use sm_exec::Outcome;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kernels/reference")
}

fn own() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../kernels/own")
}

fn run_in(dir: &Path, name: &str, src: Option<&str>, seed: u64) -> sm_exec::kernel::KernelRun {
    let ptx = dir.join(format!("{name}.ptx"));
    let l = launch::load(&dir.join(format!("{name}.launch.yaml"))).unwrap();
    let text = match src {
        Some(s) => s.to_string(),
        None => std::fs::read_to_string(&ptx).unwrap(),
    };
    let opts = RunOptions {
        seed,
        ..RunOptions::default()
    };
    run_kernel(&ptx.display().to_string(), &text, &l, opts).unwrap()
}

fn run_reference(name: &str, seed: u64) -> sm_exec::kernel::KernelRun {
    let ptx = root().join(format!("{name}.ptx"));
    let l = launch::load(&root().join(format!("{name}.launch.yaml"))).unwrap();
    let src = std::fs::read_to_string(&ptx).unwrap();
    let opts = RunOptions {
        seed,
        ..RunOptions::default()
    };
    run_kernel(&ptx.display().to_string(), &src, &l, opts).unwrap()
}

#[test]
fn reference_kernels_run_unmodified_to_their_checked_results() {
    for name in [
        "k1_block_reduce_noprof",
        "k1_block_reduce_prof",
        "k3_named_barrier_ws_noprof",
        "k3_named_barrier_ws_prof",
        "k4_tma_pipeline_noprof",
        "k4_tma_pipeline_prof",
        "k5_cpasync_pipeline_noprof",
        "k5_cpasync_pipeline_prof",
    ] {
        for seed in [1, 2] {
            let k = run_reference(name, seed);
            assert_eq!(
                k.result.outcome,
                Outcome::Finished,
                "{name} seed {seed}; replay: membar run kernels/reference/{name}.ptx --launch kernels/reference/{name}.launch.yaml --seed {seed}"
            );
            assert!(!k.checks.is_empty());
            for c in &k.checks {
                assert!(
                    c.wrong.is_empty(),
                    "{name} seed {seed}: {} differs at {:?}; replay: membar run kernels/reference/{name}.ptx --launch kernels/reference/{name}.launch.yaml --seed {seed}",
                    c.buffer,
                    &c.wrong[..c.wrong.len().min(4)]
                );
            }
            // Every warp of every CTA ran (k1 4 × 8 warps, k3 2 × 6, k4 2 × 5, k5 4 × 4).
            let warps = match &name[..2] {
                "k1" => 32,
                "k3" => 12,
                "k4" => 10,
                _ => 16,
            };
            assert_eq!(k.result.warps.len(), warps);
            assert!(k.result.warps.iter().all(|w| w.exited_at.is_some()));
        }
    }
}

#[test]
fn the_projects_own_kernels_run_to_their_checked_results() {
    let names = [
        "o1_bar_red_block",
        "o2_named_barrier_ws",
        "o3_bulk_copy_mbarrier",
        "o4_cp_async_pipeline",
        "o5_cluster_dsmem",
        "o6_grid_sync",
        "o7_last_block_reduce",
        "o8_flag_release_acquire",
        "o9_device_calls",
    ];
    for name in names {
        for seed in [1, 2, 3] {
            let k = run_in(&own(), name, None, seed);
            let replay = format!("membar run kernels/own/{name}.ptx --launch kernels/own/{name}.launch.yaml --seed {seed}");
            assert_eq!(
                k.result.outcome,
                Outcome::Finished,
                "{name}; replay: {replay}"
            );
            assert!(
                !k.checks.is_empty() && k.passed(),
                "{name}: {:?}; replay: {replay}",
                k.checks
            );
        }
    }
}

#[test]
fn without_release_and_acquire_the_flag_kernel_reads_stale_data() {
    // o8 with its st.release.gpu / ld.acquire.gpu made .relaxed: the
    // consumer may read the data before the producer's stores reach it. The
    // memory model must show it for some seed of 1..=8, and the fenced
    // kernel never (the test above).
    let src = std::fs::read_to_string(own().join("o8_flag_release_acquire.ptx")).unwrap();
    let relaxed = src
        .replace("st.release.gpu.b32", "st.relaxed.gpu.b32")
        .replace("ld.acquire.gpu.b32", "ld.relaxed.gpu.b32");
    assert_ne!(relaxed, src);
    let failing: Vec<u64> = (1..=8)
        .filter(|&seed| !run_in(&own(), "o8_flag_release_acquire", Some(&relaxed), seed).passed())
        .collect();
    assert!(
        !failing.is_empty(),
        "the relaxed flag kernel passed with every seed 1..=8"
    );
    println!("relaxed o8 read stale data with seeds {failing:?}");
}

#[test]
fn a_launch_that_breaks_the_entrys_directives_is_refused() {
    // o5 requires clusters of 4 (.reqnctapercluster 4, 1, 1).
    let src = std::fs::read_to_string(own().join("o5_cluster_dsmem.ptx")).unwrap();
    let mut l = launch::load(&own().join("o5_cluster_dsmem.launch.yaml")).unwrap();
    l.launch.cluster = Some([2, 1, 1]);
    let e = run_kernel("o5.ptx", &src, &l, RunOptions::default()).unwrap_err();
    assert!(e.msg.contains(".reqnctapercluster 4, 1, 1"), "{e}");
    l.launch.cluster = None;
    let e = run_kernel("o5.ptx", &src, &l, RunOptions::default()).unwrap_err();
    assert!(
        e.msg
            .contains("`.explicitcluster` requires a cluster launch"),
        "{e}"
    );
    // o1 has .maxntid 256, 1, 1.
    let src = std::fs::read_to_string(own().join("o1_bar_red_block.ptx")).unwrap();
    let mut l = launch::load(&own().join("o1_bar_red_block.launch.yaml")).unwrap();
    l.launch.block = [32, 16, 1];
    let e = run_kernel("o1.ptx", &src, &l, RunOptions::default()).unwrap_err();
    assert!(
        e.msg.contains(".maxntid 256, 1, 1") && e.msg.contains("512 threads"),
        "{e}"
    );
    // grid.sync without a cooperative launch traps, as on the GPU.
    let src = std::fs::read_to_string(own().join("o6_grid_sync.ptx")).unwrap();
    let mut l = launch::load(&own().join("o6_grid_sync.launch.yaml")).unwrap();
    l.launch.cooperative = false;
    l.grid_workspace = 0;
    let k = run_kernel("o6.ptx", &src, &l, RunOptions::default()).unwrap();
    match &k.result.outcome {
        Outcome::UnitError(e) => assert!(e.contains("trap") && e.contains("executed"), "{e}"),
        o => panic!("expected the trap, got {o:?}"),
    }
}

#[test]
fn recursion_and_aggregate_arguments_are_refused_at_the_call() {
    let module = |func: &str, call: &str| {
        format!(
            ".version 9.0\n.target sm_90a\n.address_size 64\n{func}\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{{\n\t.reg .b32 %r<4>;\n{call}\n\tret;\n}}\n"
        )
    };
    let l = launch::resolve(
        serde_yaml::from_str::<Launch>("{entry: k, grid: [1,1,1], block: [32,1,1], params: [0]}")
            .unwrap(),
        "l.yaml",
        Path::new("."),
    )
    .unwrap();
    let rec = module(
        ".func f()\n{\n\t{ call.uni f, (); }\n\tret;\n}",
        "\t{ call.uni f, (); }",
    );
    let e = run_kernel("r.ptx", &rec, &l, RunOptions::default()).unwrap_err();
    assert!(e.msg.contains("recursion"), "{e}");
    let agg = module(
        ".func g(.param .align 8 .b8 g_param_0[16])\n{\n\tret;\n}",
        "\t{ .param .align 8 .b8 param0[16]; call.uni g, (param0); }",
    );
    let e = run_kernel("a.ptx", &agg, &l, RunOptions::default()).unwrap_err();
    assert!(e.msg.contains("aggregate"), "{e}");
    // A kernel parameter passed by value as a 16-byte struct.
    let agg_param =
        module("", "").replace(".param .u64 k_param_0", ".param .align 8 .b8 k_param_0[16]");
    let e = run_kernel("p.ptx", &agg_param, &l, RunOptions::default()).unwrap_err();
    assert!(
        e.msg.contains("`k_param_0`") && e.msg.contains("aggregate (16 bytes)"),
        "{e}"
    );
    let missing = module("", "\t{ call.uni nowhere, (); }");
    let e = run_kernel("m.ptx", &missing, &l, RunOptions::default()).unwrap_err();
    assert!(e.msg.contains("`nowhere` is not a `.func`"), "{e}");
}

#[test]
fn a_wrong_expected_value_is_reported() {
    let ptx = root().join("k1_block_reduce_noprof.ptx");
    let mut l = launch::load(&root().join("k1_block_reduce_noprof.launch.yaml")).unwrap();
    l.expect[0].1[5] ^= 1;
    let src = std::fs::read_to_string(&ptx).unwrap();
    let k = run_kernel("k1.ptx", &src, &l, RunOptions::default()).unwrap();
    assert_eq!(k.result.outcome, Outcome::Finished);
    assert!(!k.passed());
    assert_eq!(k.checks[0].wrong.len(), 1);
    assert_eq!(k.checks[0].wrong[0].0, 5);
}

#[test]
fn a_cp_async_the_executor_does_not_model_is_refused_where_it_is_used() {
    // The k5 module with its first cp.async given a zero-fill source size.
    let ptx = root().join("k5_cpasync_pipeline_noprof.ptx");
    let src = std::fs::read_to_string(&ptx).unwrap();
    let line = src
        .lines()
        .position(|l| l.contains("cp.async.cg.shared.global"))
        .unwrap();
    let mut lines: Vec<String> = src.lines().map(str::to_string).collect();
    lines[line] = lines[line].replacen("16, 16;", "16, 8;", 1);
    let l = launch::load(&root().join("k5_cpasync_pipeline_noprof.launch.yaml")).unwrap();
    let k = run_kernel("k5.ptx", &lines.join("\n"), &l, RunOptions::default()).unwrap();
    match &k.result.outcome {
        Outcome::UnitError(e) => {
            assert!(e.starts_with(&format!("k5.ptx:{}:", line + 1)), "{e}");
            assert!(e.contains("zero fill) is not modelled"), "{e}");
        }
        o => panic!("expected the zero fill refused, got {o:?}"),
    }
    // cp.async.mbarrier.arrive has no model: refused by the parser, located.
    let mut lines2: Vec<String> = src.lines().map(str::to_string).collect();
    lines2[line] = "\tcp.async.mbarrier.arrive.noinc.shared.b64 [%r1];".into();
    let e = run_kernel("k5.ptx", &lines2.join("\n"), &l, RunOptions::default()).unwrap_err();
    assert_eq!(e.line, line + 1, "{e}");
    assert!(e.msg.contains("outside the supported PTX subset"), "{e}");
}

fn small(body: &str, threads: u32, out_len: u64) -> (String, launch::Resolved) {
    let src = format!(
        ".version 9.0\n.target sm_90a\n.address_size 64\n.visible .entry k(\n\t.param .u64 k_param_0\n)\n{{\n{body}\n}}\n"
    );
    let l = launch::resolve(
        serde_yaml::from_str::<Launch>(&format!(
            "{{entry: k, grid: [2,1,1], block: [{threads},1,1], buffers: [{{name: out, type: u32, len: {out_len}, fill: 0}}], params: [out]}}"
        ))
        .unwrap(),
        "small.yaml",
        Path::new("."),
    )
    .unwrap();
    (src, l)
}

fn outputs(body: &str, threads: u32, out_len: u64) -> Vec<u64> {
    let (src, l) = small(body, threads, out_len);
    let k = run_kernel("small.ptx", &src, &l, RunOptions::default()).unwrap();
    assert_eq!(
        k.result.outcome,
        Outcome::Finished,
        "{:?}",
        k.result.outcome
    );
    k.result.buffers[0].1.clone()
}

const PROLOGUE: &str = "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<8>;\n\tld.param.u64 %rd1, [k_param_0];\n\tcvta.to.global.u64 %rd2, %rd1;\n\tmov.u32 %r1, %tid.x;\n\tmov.u32 %r2, %ctaid.x;\n\tmov.u32 %r3, %ntid.x;\n\tmad.lo.s32 %r4, %r2, %r3, %r1;\n\tmul.wide.u32 %rd3, %r4, 4;\n\tadd.s64 %rd4, %rd2, %rd3;\n";

#[test]
fn divergent_lanes_take_their_own_paths_and_reconverge() {
    // Odd threads write 3·tid, even ones tid + 1000; then every thread adds
    // 1 after the paths meet (the reconvergence point runs for all lanes).
    let body = format!(
        "{PROLOGUE}\tand.b32 %r5, %r1, 1;\n\tsetp.eq.s32 %p1, %r5, 0;\n\t@%p1 bra $EVEN;\n\tmul.lo.s32 %r6, %r1, 3;\n\tbra.uni $JOIN;\n$EVEN:\n\tadd.s32 %r6, %r1, 1000;\n$JOIN:\n\tadd.s32 %r6, %r6, 1;\n\tst.global.u32 [%rd4], %r6;\n\tret;"
    );
    let out = outputs(&body, 40, 80);
    for cta in 0..2u64 {
        for t in 0..40u64 {
            let want = if t % 2 == 1 { 3 * t + 1 } else { t + 1001 };
            assert_eq!(out[(cta * 40 + t) as usize], want, "cta {cta} thread {t}");
        }
    }
}

#[test]
fn warp_level_operations_follow_ptx() {
    // Lane-sum by shfl.bfly, a ballot of odd lanes, redux.min, elect.
    let body = format!(
        "{PROLOGUE}\tmov.u32 %r7, %r1;\n\tshfl.sync.bfly.b32 %r8|%p2, %r7, 16, 31, -1;\n\tadd.s32 %r7, %r7, %r8;\n\tshfl.sync.bfly.b32 %r8|%p2, %r7, 8, 31, -1;\n\tadd.s32 %r7, %r7, %r8;\n\tshfl.sync.bfly.b32 %r8|%p2, %r7, 4, 31, -1;\n\tadd.s32 %r7, %r7, %r8;\n\tshfl.sync.bfly.b32 %r8|%p2, %r7, 2, 31, -1;\n\tadd.s32 %r7, %r7, %r8;\n\tshfl.sync.bfly.b32 %r8|%p2, %r7, 1, 31, -1;\n\tadd.s32 %r7, %r7, %r8;\n\tand.b32 %r9, %r1, 1;\n\tsetp.ne.s32 %p3, %r9, 0;\n\tvote.sync.ballot.b32 %r10, %p3, -1;\n\txor.b32 %r11, %r1, 7;\n\tredux.sync.min.u32 %r12, %r11, -1;\n\telect.sync %r13|%p1, -1;\n\tadd.s32 %r14, %r7, %r12;\n\tadd.s32 %r14, %r14, %r13;\n\tst.global.u32 [%rd4], %r14;\n\tst.global.u32 [%rd4+256], %r10;\n\tret;"
    );
    let out = outputs(&body, 32, 128);
    // Sum of tids 0..31 = 496; min of tid^7 over 0..31 = 0; elected lane 0.
    for t in 0..32 {
        assert_eq!(out[t], 496, "lane {t}");
        assert_eq!(out[64 + t], 0xaaaa_aaaa, "ballot at lane {t}");
    }
}

#[test]
fn a_shfl_whose_member_mask_names_a_lane_elsewhere_is_an_error() {
    let body = format!(
        "{PROLOGUE}\tsetp.lt.u32 %p1, %r1, 16;\n\t@!%p1 bra $HIGH;\n\tshfl.sync.bfly.b32 %r8|%p2, %r1, 1, 31, -1;\n\tst.global.u32 [%rd4], %r8;\n$HIGH:\n\tret;"
    );
    let (src, l) = small(&body, 32, 64);
    let k = run_kernel("small.ptx", &src, &l, RunOptions::default()).unwrap();
    match &k.result.outcome {
        Outcome::UnitError(e) => assert!(e.contains("member mask"), "{e}"),
        o => panic!("expected an error, got {o:?}"),
    }
}

#[test]
fn launch_files_are_checked_key_by_key() {
    let bad = |yaml: &str| {
        let l: Launch = serde_yaml::from_str(yaml).unwrap();
        launch::resolve(l, "bad.yaml", Path::new(".")).unwrap_err()
    };
    let e = bad("{entry: k, grid: [1,1,1], block: [2048,1,1]}");
    assert!(
        e.starts_with("bad.yaml: block:") && e.contains("1..=1024"),
        "{e}"
    );
    let e =
        bad("{entry: k, grid: [1,1,1], block: [32,1,1], buffers: [{name: a, type: u33, len: 4}]}");
    assert!(e.contains("buffers[0] (a)") && e.contains("u33"), "{e}");
    let e = bad("{entry: k, grid: [1,1,1], block: [32,1,1], buffers: [{name: a, type: u8, len: 2, values: [1, 256]}]}");
    assert!(
        e.contains("element 1") && e.contains("256 does not fit type u8"),
        "{e}"
    );
    let e =
        bad("{entry: k, grid: [1,1,1], block: [32,1,1], expect: [{buffer: nope, values: [1]}]}");
    assert!(
        e.contains("expect[0]") && e.contains("`nope` is not declared"),
        "{e}"
    );
    let e =
        serde_yaml::from_str::<Launch>("{entry: k, grid: [1,1,1], block: [32,1,1], threads: 3}")
            .unwrap_err()
            .to_string();
    assert!(e.contains("threads"), "{e}");
    // A parameter count that differs from the entry's, and an unknown entry.
    let (src, l) = small(&format!("{PROLOGUE}\tret;"), 32, 1);
    let mut two = l.clone();
    two.launch.params.push(serde_yaml::Value::Number(3.into()));
    let e = run_kernel("s.ptx", &src, &two, RunOptions::default()).unwrap_err();
    assert!(e.msg.contains("params: 2 values given, expected 1"), "{e}");
    let mut other = l.clone();
    other.launch.entry = "nope".into();
    let e = run_kernel("s.ptx", &src, &other, RunOptions::default()).unwrap_err();
    assert!(
        e.msg.contains("`nope` is not an `.entry`") && e.msg.contains("its entries: k"),
        "{e}"
    );
}

#[test]
fn unmodelled_instructions_and_names_are_refused_before_the_run() {
    let refused = |line: &str| {
        let (src, l) = small(&format!("{PROLOGUE}\t{line}\n\tret;"), 32, 1);
        run_kernel("s.ptx", &src, &l, RunOptions::default()).unwrap_err()
    };
    let e = refused("lop3.b32 %r5, %r1, %r2, %r3, 0x96;");
    assert_eq!(e.line, 19, "{e}");
    assert!(e.msg.contains("not modelled"), "{e}");
    let e = refused("mov.u32 %r5, %envreg3;");
    assert!(e.msg.contains("%envreg3"), "{e}");
    let e = refused("add.s32 %r5, %r99, 1;");
    assert!(
        e.msg.contains("`%r99`") && e.msg.contains("does not declare"),
        "{e}"
    );
    let e = refused("ld.param.u64 %rd5, [other_param];");
    assert!(e.msg.contains("not a parameter of entry `k`"), "{e}");
}

#[test]
fn mixed_width_or_misaligned_accesses_are_refused_not_misread() {
    let run = |lines: &str| {
        let (src, l) = small(&format!("{PROLOGUE}{lines}\n\tret;"), 32, 64);
        let k = run_kernel("s.ptx", &src, &l, RunOptions::default()).unwrap();
        match k.result.outcome {
            Outcome::UnitError(e) => e,
            o => panic!("expected a refusal, got {o:?}"),
        }
    };
    // A u8 store into shared word 0, then a u32 load of it.
    let e = run("\t.shared .align 4 .b8 sm[64];\n\tmov.u32 %r5, sm;\n\tst.shared.u8 [%r5+1], %r1;\n\tld.shared.u32 %r6, [%r5];");
    assert!(e.contains("overlaps a 1-byte one"), "{e}");
    // A u64 access to the u32 output buffer.
    let e = run("\tst.global.u64 [%rd2], %rd2;");
    assert!(e.contains("buffer `out` of 4-byte elements"), "{e}");
    // Misaligned.
    let e = run("\tst.global.u32 [%rd4+2], %r1;");
    assert!(e.contains("not aligned"), "{e}");
}

/// Every kernel of the project (reference and own) computes its checked
/// outputs under both SM timing presets too: a preset changes when things
/// happen, never what a race-free kernel computes.
#[test]
fn every_kernel_passes_under_both_timing_presets() {
    for dir in [root(), own()] {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| {
                let n = e.ok()?.file_name().into_string().ok()?;
                n.strip_suffix(".launch.yaml").map(str::to_string)
            })
            .collect();
        names.sort();
        assert!(names.len() >= 8, "{}: {names:?}", dir.display());
        for name in &names {
            for preset in [
                sm_exec::sm_timing::SmTiming::h100(),
                sm_exec::sm_timing::SmTiming::h200(),
            ] {
                let ptx = dir.join(format!("{name}.ptx"));
                let l = launch::load(&dir.join(format!("{name}.launch.yaml"))).unwrap();
                let src = std::fs::read_to_string(&ptx).unwrap();
                let opts = RunOptions {
                    seed: 1,
                    max_cycles: 10_000_000,
                    sm_timing: Some(preset.clone()),
                    ..RunOptions::default()
                };
                let k = run_kernel(&ptx.display().to_string(), &src, &l, opts).unwrap();
                assert_eq!(
                    k.result.outcome,
                    Outcome::Finished,
                    "{name} {}",
                    preset.name
                );
                assert!(k.passed(), "{name} under --preset {}", preset.name);
            }
        }
    }
}

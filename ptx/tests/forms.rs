//! The subset and the table agree: every form of the lowering table is
//! produced by some instruction below, every instruction below has a row,
//! no form is in two rows; and malformed or unsupported instructions give
//! located errors.

use ptx_front::lower::{lower_inst, row_for, TABLE};
use ptx_front::parser::parse_module;

/// One instruction of every form (spellings from seeds 001, 002, 004).
pub const SAMPLES: &[&str] = &[
    // fences (seed 001)
    "membar.cta;", "membar.gl;", "membar.sys;",
    "fence.sc.cta;", "fence.sc.cluster;", "fence.sc.gpu;", "fence.sc.sys;",
    "fence.acq_rel.cta;", "fence.acq_rel.cluster;", "fence.acq_rel.gpu;", "fence.acq_rel.sys;", "fence.gpu;",
    "fence.acquire.cta;", "fence.acquire.cluster;", "fence.acquire.gpu;", "fence.acquire.sys;",
    "fence.release.cta;", "fence.release.cluster;", "fence.release.gpu;", "fence.release.sys;",
    "fence.proxy.alias;", "membar.proxy.alias;", "fence.proxy.async;", "fence.proxy.async.global;",
    "fence.proxy.async.shared::cta;", "fence.proxy.async.shared::cluster;",
    "fence.proxy.tensormap::generic.release.cta;", "fence.proxy.tensormap::generic.release.cluster;",
    "fence.proxy.tensormap::generic.release.gpu;", "fence.proxy.tensormap::generic.release.sys;",
    "fence.proxy.tensormap::generic.acquire.cta [%rd1], 128;", "fence.proxy.tensormap::generic.acquire.cluster [%rd1], 128;",
    "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128;", "fence.proxy.tensormap::generic.acquire.sys [%rd1], 128;",
    "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster;",
    "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
    "fence.mbarrier_init.release.cluster;",
    "fence.acquire.sync_restrict::shared::cluster.cluster;", "fence.release.sync_restrict::shared::cta.cluster;",
    // named barriers (seed 002, 004)
    "bar.sync 0;", "bar.sync 1, 64;", "barrier.sync 1, 64;", "barrier.sync.aligned 0;", "bar.cta.sync 2;", "barrier.cta.sync.aligned 3, 96;",
    "bar.arrive 0, 64;", "barrier.arrive 1, 64;", "barrier.cta.arrive.aligned 1, 64;",
    "bar.red.popc.u32 %r1, 1, %p;", "bar.red.popc.u32 %r1, 1, 64, !%p;", "barrier.red.popc.aligned.u32 %r1, 1, %p;",
    "bar.red.and.pred %p1, 1, %p;", "bar.red.or.pred %p1, 1, 32, !%p;", "barrier.cta.red.or.aligned.pred %p1, 2, %p;",
    // cluster barrier
    "barrier.cluster.arrive;", "barrier.cluster.arrive.release;", "barrier.cluster.arrive.aligned;",
    "barrier.cluster.arrive.relaxed;", "barrier.cluster.arrive.relaxed.aligned;", "barrier.cluster.arrive.release.aligned;",
    "barrier.cluster.wait;", "barrier.cluster.wait.acquire;", "barrier.cluster.wait.aligned;", "barrier.cluster.wait.acquire.aligned;",
    // mbarrier (seed 004)
    "mbarrier.init.shared::cta.b64 [bar], 2;", "mbarrier.init.b64 [bar], %r1;", "mbarrier.inval.shared.b64 [bar];",
    "mbarrier.arrive.shared::cta.b64 %rd1, [bar];", "mbarrier.arrive.release.cta.shared::cta.b64 %rd1, [bar], 32;",
    "mbarrier.arrive.relaxed.cta.b64 %rd1, [bar];", "mbarrier.arrive.relaxed.cluster.b64 %rd1, [bar];",
    "mbarrier.arrive.release.cluster.b64 %rd1, [bar];",
    "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%r1];", "mbarrier.arrive.relaxed.cta.shared::cluster.b64 _, [%r1];",
    "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];", "mbarrier.arrive.release.cta.shared::cluster.b64 _, [%r1], 2;",
    "mbarrier.arrive.noComplete.shared.b64 %rd1, [bar], 2;", "mbarrier.arrive.noComplete.relaxed.cta.b64 %rd1, [bar], 2;",
    "mbarrier.arrive.expect_tx.shared::cta.b64 %rd1, [bar], 4096;", "mbarrier.arrive.expect_tx.relaxed.cta.b64 %rd1, [bar], 16;",
    "mbarrier.arrive.expect_tx.relaxed.cluster.b64 %rd1, [bar], 16;", "mbarrier.arrive.expect_tx.release.cluster.b64 %rd1, [bar], 16;",
    "mbarrier.arrive.expect_tx.relaxed.cluster.shared::cluster.b64 _, [%r1], 16;", "mbarrier.arrive.expect_tx.relaxed.cta.shared::cluster.b64 _, [%r1], 16;",
    "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%r1], 16;", "mbarrier.arrive.expect_tx.release.cta.shared::cluster.b64 _, [%r1], 16;",
    "mbarrier.arrive_drop.shared::cta.b64 %rd1, [bar];", "mbarrier.arrive_drop.relaxed.cta.b64 %rd1, [bar];",
    "mbarrier.arrive_drop.relaxed.cluster.b64 %rd1, [bar];", "mbarrier.arrive_drop.release.cluster.b64 %rd1, [bar];",
    "mbarrier.arrive_drop.noComplete.b64 %rd1, [bar], 1;", "mbarrier.arrive_drop.noComplete.relaxed.cta.b64 %rd1, [bar], 1;",
    "mbarrier.arrive_drop.relaxed.cluster.shared::cluster.b64 _, [%r1];", "mbarrier.arrive_drop.relaxed.cta.shared::cluster.b64 _, [%r1];",
    "mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [%r1];", "mbarrier.arrive_drop.release.cta.shared::cluster.b64 _, [%r1];",
    "mbarrier.arrive_drop.expect_tx.b64 %rd1, [bar], 16;", "mbarrier.arrive_drop.expect_tx.relaxed.cta.b64 %rd1, [bar], 16;",
    "mbarrier.arrive_drop.expect_tx.relaxed.cluster.b64 %rd1, [bar], 16;", "mbarrier.arrive_drop.expect_tx.release.cluster.b64 %rd1, [bar], 16;",
    "mbarrier.arrive_drop.expect_tx.relaxed.cluster.shared::cluster.b64 _, [%r1], 16;", "mbarrier.arrive_drop.expect_tx.relaxed.cta.shared::cluster.b64 _, [%r1], 16;",
    "mbarrier.arrive_drop.expect_tx.release.cluster.shared::cluster.b64 _, [%r1], 16;", "mbarrier.arrive_drop.expect_tx.release.cta.shared::cluster.b64 _, [%r1], 16;",
    "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 16;", "mbarrier.expect_tx.relaxed.cluster.b64 [bar], 16;",
    "mbarrier.expect_tx.relaxed.cta.shared::cluster.b64 [%r1], 16;", "mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%r1], 16;",
    "mbarrier.complete_tx.relaxed.cta.b64 [bar], 16;", "mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [bar], 16;",
    "mbarrier.complete_tx.relaxed.cta.shared::cluster.b64 [%r1], 16;", "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%r1], 16;",
    "mbarrier.test_wait.shared::cta.b64 %p, [bar], %rd1;", "mbarrier.test_wait.relaxed.cta.b64 %p, [bar], %rd1;",
    "mbarrier.test_wait.relaxed.cluster.b64 %p, [bar], %rd1;", "mbarrier.test_wait.acquire.cluster.b64 %p, [bar], %rd1;",
    "mbarrier.test_wait.parity.shared::cta.b64 %p, [bar], 0;", "mbarrier.test_wait.parity.relaxed.cta.b64 %p, [bar], 1;",
    "mbarrier.test_wait.parity.relaxed.cluster.b64 %p, [bar], %r1;", "mbarrier.test_wait.parity.acquire.cluster.b64 %p, [bar], 0;",
    "mbarrier.try_wait.shared::cta.b64 %p, [bar], %rd1;", "mbarrier.try_wait.relaxed.cta.b64 %p, [bar], %rd1, 100;",
    "mbarrier.try_wait.relaxed.cluster.b64 %p, [bar], %rd1;", "mbarrier.try_wait.acquire.cluster.b64 %p, [bar], %rd1;",
    "mbarrier.try_wait.parity.shared::cta.b64 %p, [bar], 0;", "mbarrier.try_wait.parity.relaxed.cta.b64 %p, [bar], 1, %r2;",
    "mbarrier.try_wait.parity.relaxed.cluster.b64 %p, [bar], 0;", "mbarrier.try_wait.parity.acquire.cluster.b64 %p, [bar], 0;",
    "mbarrier.pending_count.b64 %r1, %rd1;",
    // bulk copies and groups (seed 004)
    "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [%rd1], 4096, [bar];",
    "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [dst], [%rd1], 16, [bar];",
    "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r1], [dst], 128, [%r2];",
    "cp.async.bulk.global.shared::cta.bulk_group [%rd1], [dst], 4096;",
    "cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;", "cp.async.bulk.wait_group.read 3;",
    // non-bulk cp.async (LDGSTS) and its groups
    "cp.async.ca.shared.global [dst], [%rd1], 4;", "cp.async.cg.shared.global.L2::128B [dst], [%rd1], 16, %r1;",
    "cp.async.commit_group;", "cp.async.wait_group 2;", "cp.async.wait_all;",
    // memory operations
    "ld.global.u32 %r1, [%rd1];", "ld.weak.shared.u32 %r1, [dst];", "ld.volatile.shared.u32 %r1, [dst];", "ld.param.u64 %rd1, [p];",
    "ld.const.u32 %r1, [c];", "ld.local.v4.u32 %r1, [%rd1];",
    "ld.relaxed.cta.shared::cta.u32 %r1, [dst];", "ld.relaxed.cluster.shared::cluster.u32 %r1, [%r2];",
    "ld.relaxed.gpu.global.u32 %r1, [%rd1];", "ld.relaxed.sys.global.u32 %r1, [%rd1+8];",
    "ld.acquire.cta.shared.u32 %r1, [dst];", "ld.acquire.cluster.shared::cta.u32 %r1, [dst];",
    "ld.acquire.gpu.global.u32 %r1, [%rd1];", "ld.acquire.sys.u32 %r1, [%rd1];",
    "st.global.u32 [%rd1], %r1;", "st.weak.shared::cluster.u32 [%r2], 5;", "st.volatile.global.u32 [%rd1], %r1;",
    "st.relaxed.cta.shared.u32 [dst], %r1;", "st.relaxed.cluster.shared::cluster.u32 [%r2], %r1;",
    "st.relaxed.gpu.global.u32 [%rd1], %r1;", "st.relaxed.sys.global.u32 [%rd1], %r1;",
    "st.release.cta.shared.u32 [dst], %r1;", "st.release.cluster.shared::cluster.u32 [%r2], %r1;",
    "st.release.gpu.global.u32 [%rd1], 1;", "st.release.sys.global.u32 [%rd1], 1;",
    "atom.global.add.u32 %r1, [%rd1], 1;", "atom.relaxed.cta.shared.add.u32 %r1, [dst], 1;", "atom.relaxed.cluster.exch.b32 %r1, [%rd1], 1;",
    "atom.relaxed.sys.global.max.s32 %r1, [%rd1], %r2;", "atom.global.cas.b32 %r1, [%rd1], 0, 1;",
    "atom.acquire.cta.shared.add.u32 %r1, [dst], 1;", "atom.acquire.cluster.add.u32 %r1, [%rd1], 1;",
    "atom.acquire.gpu.add.u32 %r1, [%rd1], 1;", "atom.acquire.sys.add.u32 %r1, [%rd1], 1;",
    "atom.release.cta.add.u32 %r1, [%rd1], 1;", "atom.release.cluster.add.u32 %r1, [%rd1], 1;",
    "atom.release.gpu.add.u32 %r1, [%rd1], 1;", "atom.release.sys.add.u32 %r1, [%rd1], 1;",
    "atom.acq_rel.cta.add.u32 %r1, [%rd1], 1;", "atom.acq_rel.cluster.add.u32 %r1, [%rd1], 1;",
    "atom.acq_rel.gpu.add.u32 %r1, [%rd1], 1;", "atom.acq_rel.sys.inc.u32 %r1, [%rd1], 9;",
    "red.global.add.u32 [%rd1], 1;", "red.relaxed.cta.shared.add.u32 [dst], 1;", "red.relaxed.cluster.or.b32 [%rd1], 1;",
    "red.relaxed.sys.xor.b32 [%rd1], 1;", "red.release.cta.add.u32 [%rd1], 1;", "red.release.cluster.add.u32 [%rd1], 1;",
    "red.release.gpu.add.u32 [%rd1], 1;", "red.release.sys.add.u32 [%rd1], 1;",
    // control
    "setp.eq.u32 %p, %r1, 0;", "mov.u32 %r1, 7;", "add.s32 %r1, %r1, -1;", "@%p bra L;", "@!%p bra.uni L;", "ret;", "exit;",
    // arithmetic, conversion, warp-level and other local instructions (executed by sm-exec)
    "sub.u32 %r1, %r2, %r3;", "mul.u32 %r1, %r2, %r3;", "mad.u32 %r1, %r2, %r3;", "mul24.u32 %r1, %r2, %r3;",
    "mad24.u32 %r1, %r2, %r3;", "div.u32 %r1, %r2, %r3;", "rem.u32 %r1, %r2, %r3;", "abs.u32 %r1, %r2, %r3;",
    "neg.u32 %r1, %r2, %r3;", "min.u32 %r1, %r2, %r3;", "max.u32 %r1, %r2, %r3;", "and.u32 %r1, %r2, %r3;",
    "or.u32 %r1, %r2, %r3;", "xor.u32 %r1, %r2, %r3;", "not.u32 %r1, %r2, %r3;", "cnot.u32 %r1, %r2, %r3;",
    "shl.u32 %r1, %r2, %r3;", "shr.u32 %r1, %r2, %r3;", "popc.u32 %r1, %r2, %r3;", "clz.u32 %r1, %r2, %r3;",
    "brev.u32 %r1, %r2, %r3;", "bfe.u32 %r1, %r2, %r3;", "bfi.u32 %r1, %r2, %r3;",
    "bfind.u32 %r1, %r2, %r3;", "prmt.u32 %r1, %r2, %r3;", "lop3.u32 %r1, %r2, %r3;",
    "shf.u32 %r1, %r2, %r3;", "cvt.u64.u32 %rd1, %r1;", "cvta.to.global.u64 %rd1, %rd2;",
    "selp.u32 %r1, %r2, %r3;", "set.u32 %r1, %r2, %r3;", "fma.u32 %r1, %r2, %r3;", "sqrt.u32 %r1, %r2, %r3;",
    "rcp.u32 %r1, %r2, %r3;", "rsqrt.u32 %r1, %r2, %r3;", "copysign.u32 %r1, %r2, %r3;",
    "testp.u32 %r1, %r2, %r3;", "dp4a.u32 %r1, %r2, %r3;", "dp2a.u32 %r1, %r2, %r3;",
    "sad.u32 %r1, %r2, %r3;", "slct.u32 %r1, %r2, %r3;", "ex2.u32 %r1, %r2, %r3;",
    "shfl.sync.bfly.b32 %r1|%p, %r2, 1, 31, -1;", "vote.sync.ballot.b32 %r1, %p, -1;",
    "redux.sync.add.s32 %r1, %r2, -1;", "match.any.sync.b32 %r1, %r2, -1;", "activemask.b32 %r1;",
    "elect.sync %r1|%p, -1;", "call.uni f, (%r1);", "trap;", "nanosleep.u32 100;", "brkpt;",
    "mapa.shared::cluster.u32 %r1, %r2, 1;", "getctarank.shared::cluster.u32 %r1, %r2;",
    "prefetch.global.L2 [%rd1];", "bar.warp.sync -1;",
];

pub fn wrap(insts: &[&str]) -> String {
    format!(
        ".version 8.0\n.target sm_90\n.entry t {{\nL:\n{}\n}}\n",
        insts.join("\n")
    )
}

#[test]
fn every_sample_has_a_row_and_every_row_form_is_reachable() {
    let m = parse_module("s.ptx", &wrap(SAMPLES), 1).unwrap_or_else(|e| panic!("{e}"));
    let insts: Vec<_> = m.entries[0].insts().collect();
    assert_eq!(insts.len(), SAMPLES.len());
    let mut seen = std::collections::BTreeSet::new();
    for i in &insts {
        for cl in [true, false] {
            let (row, ops) = lower_inst(i, cl)
                .unwrap_or_else(|| panic!("no row for `{}` ({})", i.text(), i.form));
            assert_eq!(ops.len(), row.ops.len());
            seen.insert(ptx_front::lower::key(i, cl));
        }
    }
    for r in TABLE {
        assert!(!r.source.is_empty() && !r.sass.is_empty() && !r.ops.is_empty());
        for f in r.forms {
            assert!(
                seen.contains(*f),
                "table form `{f}` is produced by no sample instruction"
            );
            let rows = TABLE.iter().filter(|q| q.forms.contains(f)).count();
            assert_eq!(rows, 1, "form `{f}` in {rows} rows");
            assert!(std::ptr::eq(row_for(f).unwrap(), r));
        }
    }
}

#[test]
fn synonyms_share_a_form() {
    let m = parse_module(
        "s.ptx",
        &wrap(&[
            "membar.gl;",
            "fence.sc.gpu;",
            "fence.gpu;",
            "fence.acq_rel.gpu;",
            "bar.sync 1, 64;",
            "barrier.sync.aligned 1, 64;",
            "barrier.cluster.arrive;",
            "barrier.cluster.arrive.release.aligned;",
            "membar.proxy.alias;",
            "fence.proxy.alias;",
        ]),
        1,
    )
    .unwrap();
    let f: Vec<String> = m.entries[0].insts().map(|i| i.form.clone()).collect();
    assert_eq!(f[0], "membar.gl");
    assert_eq!(f[1], "fence.sc.gpu");
    assert_eq!(f[2], f[3]);
    assert_eq!(f[4], f[5]);
    assert_eq!(f[6], f[7]);
    assert_eq!(f[8], f[9]);
    assert!(std::ptr::eq(
        row_for(&f[0]).unwrap(),
        row_for(&f[1]).unwrap()
    ));
}

fn err(inst: &str) -> String {
    let src = wrap(&[inst]);
    let e = parse_module("e.ptx", &src, 1).expect_err(inst);
    assert_eq!(e.line, 5, "{e}");
    assert!(e.col >= 1);
    e.to_string()
}

#[test]
fn errors_are_located_and_say_what_was_expected() {
    let e = err("tex.2d.v4.f32.f32 %r1, [t, {%f1, %f2}];");
    assert!(e.starts_with("e.ptx:5:"), "{e}");
    let e = err("tex.2d.v4.f32.f32 %r1, [t];");
    assert!(
        e.contains("`tex.2d.v4.f32.f32` is outside the supported PTX subset (supported: ld, st"),
        "{e}"
    );
    assert!(err("cp.async.cg.shared.global [d], [s], 8;").contains("expected 16 for cp.async.cg"));
    assert!(err("bar.warp.sync;").contains("1 operand (the member mask)"));
    assert!(err("bar.warp.arrive 1;").contains("expected bar{.cta}.sync"));
    assert!(err("fence.sc.grid;").contains("found scope `.grid`"));
    assert!(err("fence.weird.gpu;").contains("found qualifier `.weird`"));
    assert!(err("ld.release.gpu.global.u32 %r1, [%rd1];").contains("found qualifier `.release`"));
    assert!(err("ld.relaxed.global.u32 %r1, [%rd1];").contains("without a scope"));
    assert!(err("ld.volatile.gpu.global.u32 %r1, [%rd1];")
        .contains("found scope `.gpu` on a .volatile access"));
    assert!(err("st.global.u32 %r1, [%rd1];").contains("expected an address"));
    assert!(err("bar.arrive 0;").contains("requires the thread count"));
    assert!(err("bar.sync 16;").contains("expected 0..15"));
    assert!(err("bar.sync 1, 33;").contains("multiple of 32"));
    assert!(
        err("mbarrier.arrive.shared::cluster.b64 %rd1, [bar];").contains("expected the sink `_`")
    );
    assert!(err("mbarrier.arrive.b32 %rd1, [bar];").contains("found qualifier `.b32`"));
    assert!(err("mbarrier.init.b64 [bar];").contains("expected 2 operands"));
    assert!(err("mbarrier.test_wait.parity.b64 %p, [bar], 2;").contains("expected 0 or 1"));
    assert!(
        err("mbarrier.expect_tx.release.cta.b64 [bar], 2;").contains("expected one of .relaxed")
    );
    assert!(err("cp.async.bulk.wait_group %r1;").contains("integer constant"));
    assert!(
        err("cp.async.bulk.global.shared::cta.bulk_group [a], [b], 10;").contains("multiple of 16")
    );
    assert!(err("fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64;").contains("literal 128"));
    assert!(err("fence.mbarrier_init.release.gpu;").contains("only .op_restrict form"));
    assert!(err("membar.gpu;").contains("expected `membar.cta`"));
    assert!(err("bra NOWHERE;").contains("expected a label defined"));
    assert!(err("fence..gpu;").contains("non-empty"));
}

#[test]
fn structure_errors_are_located() {
    let e = parse_module("e.ptx", ".entry a {\n membar.gl;\n", 1).unwrap_err();
    assert!(
        e.msg
            .contains("found the end of the file, expected `}` closing entry `a`"),
        "{e}"
    );
    let e = parse_module("e.ptx", ".entry a { }\n.entry a { }\n", 1).unwrap_err();
    assert!(e.msg.contains("second entry `a`") && e.line == 2, "{e}");
    let e = parse_module("e.ptx", ".entry a {\nL:\nL:\n}\n", 1).unwrap_err();
    assert!(e.msg.contains("label `L` defined twice"), "{e}");
    let e = parse_module("e.ptx", &wrap(&["mov.u32 %r1, 1"]), 1).unwrap_err();
    assert_eq!((e.line, e.col), (6, 1), "{e}");
    assert!(e.msg.contains("found `}`, expected `;`"), "{e}");
    let e = parse_module("e.ptx", "membar.gl;\n", 7).unwrap_err();
    assert_eq!((e.line, e.col), (7, 1));
    let e = parse_module("e.ptx", ".entry a {\n .reg %r<4>;\n}", 1).unwrap_err();
    assert!(
        e.msg.contains("a type such as `.b32`") && e.line == 2,
        "{e}"
    );
    let e = parse_module("e.ptx", ".entry a {\n .reg .b33 %r;\n}", 1).unwrap_err();
    assert!(e.msg.contains("a type (one of"), "{e}");
    let m = parse_module(
        "e.ptx",
        ".entry a (.param .u64 x) {\n .reg .b32 %r<3>, %q;\n .shared .align 8 .b8 buf[64];\n}",
        1,
    )
    .unwrap();
    match &m.entries[0].body[0] {
        ptx_front::parser::Stmt::Decl(d) => {
            assert_eq!(d.names().collect::<Vec<_>>(), ["%r0", "%r1", "%r2", "%q"])
        }
        s => panic!("{s:?}"),
    }
}

/// Declarations keep what the executor lays out: the space (`.shared::cta`
/// is `.shared`), the type, the alignment and each name's array length, at
/// module scope and in an entry; bad sizes and alignments are refused.
#[test]
fn declarations_keep_space_type_alignment_and_array_length() {
    let m = parse_module(
        "e.ptx",
        ".global .align 16 .b32 g[4], h;\n.shared .b64 bar;\n.entry a {\n .shared::cta .align 128 .b8 tile[4096];\n}",
        1,
    )
    .unwrap();
    assert_eq!(m.decls.len(), 2);
    let g = &m.decls[0];
    assert_eq!(
        (g.space.as_str(), g.ty.as_str(), g.align, g.line),
        (".global", "b32", Some(16), 1)
    );
    assert_eq!(
        g.vars,
        [("g".to_string(), Some(4)), ("h".to_string(), None)]
    );
    assert_eq!((g.elem_bytes(), g.alignment()), (4, 16));
    assert_eq!((m.decls[1].elem_bytes(), m.decls[1].alignment()), (8, 8));
    match &m.entries[0].body[0] {
        ptx_front::parser::Stmt::Decl(d) => {
            assert_eq!((d.space.as_str(), d.alignment()), (".shared", 128));
            assert_eq!(d.vars, [("tile".to_string(), Some(4096))]);
        }
        s => panic!("{s:?}"),
    }
    for (src, want) in [
        (".shared .align 3 .b32 x;", "a power of two"),
        (".shared .b32 x[0];", "an array size 1.."),
        (
            ".entry a {\n .shared .pred p;\n}",
            "`.pred` is for `.reg` only",
        ),
        (".reg .b32 %r;", "at the top level"),
    ] {
        let e = parse_module("e.ptx", src, 1).unwrap_err();
        assert!(e.msg.contains(want), "{src}: {e}");
    }
}

fn lowering_of(inst: &str, cluster_launch: bool) -> String {
    let m = parse_module("s.ptx", &wrap(&[inst]), 1).unwrap_or_else(|e| panic!("{e}"));
    let i = m.entries[0].insts().next().unwrap();
    ptx_front::lower::ops_text(&lower_inst(i, cluster_launch).unwrap().1)
}

#[test]
fn the_measured_sm90_map_is_what_the_table_says() {
    // data/calibration/README.md §What PTX becomes (sm_90)
    assert_eq!(
        lowering_of("membar.cta;", true),
        "Membar{level: Cta, ivall: None}"
    );
    assert_eq!(
        lowering_of("fence.sc.cluster;", true),
        "Membar{level: Gl, ivall: D}"
    );
    assert_eq!(
        lowering_of("membar.sys;", true),
        "Membar{level: Sys, ivall: D}"
    );
    assert_eq!(
        lowering_of("fence.release.sys;", true),
        "Membar{level: Sys, ivall: None}"
    );
    assert_eq!(lowering_of("fence.acquire.sys;", true), "Inval{ivall: D}");
    assert_eq!(
        lowering_of("fence.proxy.async;", true),
        "Membar{level: Gl, ivall: None}; ProxyFence{kind: Async}"
    );
    // data/calibration/sync/README.md §PTX → SASS
    assert_eq!(
        lowering_of("fence.mbarrier_init.release.cluster;", true),
        "Nothing"
    );
    assert_eq!(
        lowering_of("bar.sync 0;", true),
        "Bar{op: Sync, id: 0, count: all}"
    );
    assert_eq!(
        lowering_of("bar.red.or.pred %p1, 3, !%p;", true),
        "Bar{op: RedOr, id: 3, count: all}"
    );
    assert_eq!(
        lowering_of("barrier.cluster.arrive.relaxed;", true),
        "ClusterArrive"
    );
    assert_eq!(
        lowering_of("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];", true),
        "Membar{level: Cta, ivall: None}; Membar{level: Gl, ivall: None}; Mbarrier{op: Arrive, remote, addr: [%r1], arg: 1}"
    );
    assert_eq!(
        lowering_of("st.release.cluster.shared::cluster.u32 [%r2], %r1;", true),
        "Membar{level: Gl, ivall: None}; Txn{op: St, space: shared::cluster}"
    );
    assert_eq!(
        lowering_of("ld.relaxed.cluster.shared::cta.u32 %r1, [x];", true),
        "Txn{op: Ld, space: shared::cta}"
    );
    assert_eq!(
        lowering_of("cp.async.bulk.wait_group 2;", true),
        "AsyncGroup{op: Wait, arg: 2}; Inval{ivall: D}"
    );
    assert_eq!(
        lowering_of("mbarrier.expect_tx.relaxed.cta.b64 [b], 64;", true),
        "Mbarrier{op: ExpectTx, addr: [b], arg: 64}"
    );
    // the non-cluster launch variants (sync §3.1)
    assert_eq!(lowering_of("barrier.cluster.arrive;", false), "Nothing");
    assert_eq!(
        lowering_of("barrier.cluster.wait;", false),
        "Bar{op: Sync, id: 0, count: all}"
    );
}

#[test]
fn assumed_rows_say_so_and_measured_rows_cite_the_calibration() {
    for r in TABLE {
        if r.sass.starts_with("(assumed)") || r.sass.starts_with("(not in the map)") {
            assert!(
                r.note.contains("not measured") || r.note.contains("assumed"),
                "{:?}: an unmeasured row needs a note saying so",
                r.forms
            );
        } else if r
            .forms
            .iter()
            .any(|f| f.starts_with("fence") || f.starts_with("membar") || f.starts_with("bar"))
        {
            assert!(
                r.source.starts_with("data/calibration/"),
                "{:?}: {}",
                r.forms,
                r.source
            );
        }
    }
}

#[test]
fn bar_red_operands_without_a_count_are_id_then_predicate() {
    assert!(err("bar.red.popc.u32 %r1, 1, 33, %p;").contains("found thread count 33"));
    assert!(err("bar.red.and.pred %p1, 17, %p;").contains("found barrier id 17"));
    assert!(err("bar.red.and.pred %p1, 1, 64, 5;").contains("expected a predicate"));
    assert_eq!(
        lowering_of("bar.red.popc.u32 %r1, 1, !%p;", true),
        "Bar{op: RedPopc, id: 1, count: all}"
    );
    assert_eq!(
        lowering_of("bar.red.popc.u32 %r1, %r2, %r3, %p;", true),
        "Bar{op: RedPopc, id: %r2, count: %r3}"
    );
}

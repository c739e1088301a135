//! Every file in `examples/` parses and lowers; the seeds' patterns lower as
//! the measured sm_90 map says.

use ptx_front::lower::{lower_program, ops_text, LoweredInst};
use std::path::PathBuf;

fn examples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "ptx"))
        .collect();
    v.sort();
    v
}

fn lowered(name: &str) -> Vec<(String, Vec<LoweredInst>)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name);
    let src = std::fs::read_to_string(&path).unwrap();
    let p = ptx_front::parse(name, &src).unwrap_or_else(|e| panic!("{e}"));
    lower_program(&p).unwrap_or_else(|e| panic!("{e}"))
}

/// The lowering of the first instruction whose opcode is `opcode` in `entry`.
fn of(l: &[(String, Vec<LoweredInst>)], entry: &str, opcode: &str) -> String {
    let (_, v) = l.iter().find(|(n, _)| n == entry).expect("entry");
    let i = v
        .iter()
        .find(|i| i.inst.opcode == opcode)
        .unwrap_or_else(|| panic!("{opcode} in {entry}"));
    ops_text(&i.ops)
}

#[test]
fn every_example_parses_and_lowers() {
    let files = examples();
    assert!(files.len() >= 4, "{files:?}");
    for f in files {
        let src = std::fs::read_to_string(&f).unwrap();
        let name = f.display().to_string();
        let p = ptx_front::parse(&name, &src).unwrap_or_else(|e| panic!("{e}"));
        let l = lower_program(&p).unwrap_or_else(|e| panic!("{e}"));
        let n: usize = l.iter().map(|(_, v)| v.len()).sum();
        assert!(n > 0, "{name}: no instructions");
        for w in &p.header.warps {
            assert!(p.entry(&w.program).is_some());
        }
    }
}

#[test]
fn membar_flag_lowers_to_membar_gl_with_invalidate() {
    let l = lowered("membar_flag.ptx");
    let want = "Membar{level: Gl, ivall: D}";
    assert_eq!(of(&l, "producer", "membar.gl"), want);
    assert_eq!(of(&l, "consumer", "fence.sc.gpu"), want);
    assert_eq!(
        of(&l, "producer", "st.global.u32"),
        "Txn{op: St, space: global}"
    );
    assert_eq!(of(&l, "consumer", "bra"), "Local");
    assert_eq!(of(&l, "consumer", "ret"), "Exit");
}

#[test]
fn release_acquire_flag_lowers_as_measured() {
    let l = lowered("release_acquire_flag.ptx");
    assert_eq!(
        of(&l, "producer", "fence.release.gpu"),
        "Membar{level: Gl, ivall: None}"
    );
    assert_eq!(
        of(&l, "producer", "atom.release.gpu.global.add.u32"),
        "Membar{level: Gl, ivall: None}; Txn{op: Atom, space: global}"
    );
    assert_eq!(
        of(&l, "consumer", "ld.acquire.gpu.global.u32"),
        "Txn{op: Ld, space: global}; Inval{ivall: D}"
    );
}

#[test]
fn bar_arrive_producer_consumer_lowers_to_bar_unit_ops() {
    let l = lowered("bar_arrive_producer_consumer.ptx");
    assert_eq!(
        of(&l, "producer", "bar.arrive"),
        "Bar{op: Arrive, id: 0, count: 64}"
    );
    assert_eq!(
        of(&l, "producer", "bar.sync"),
        "Bar{op: Sync, id: 1, count: 64}"
    );
    assert_eq!(
        of(&l, "consumer", "barrier.sync.aligned"),
        "Bar{op: Sync, id: 0, count: 64}"
    );
    assert_eq!(
        of(&l, "consumer", "bar.red.popc.u32"),
        "Bar{op: RedPopc, id: 2, count: all}"
    );
    assert_eq!(
        of(&l, "consumer", "ld.shared.u32"),
        "Txn{op: Ld, space: shared::cta}"
    );
}

#[test]
fn mbarrier_pipeline_lowers_to_mbarrier_cluster_and_group_ops() {
    let l = lowered("mbarrier_tma_pipeline.ptx");
    assert_eq!(
        of(&l, "producer", "mbarrier.init.shared::cta.b64"),
        "Mbarrier{op: Init, addr: [full], arg: 2}"
    );
    assert_eq!(
        of(&l, "producer", "fence.mbarrier_init.release.cluster"),
        "Nothing"
    );
    assert_eq!(
        of(&l, "producer", "barrier.cluster.arrive.relaxed.aligned"),
        "ClusterArrive"
    );
    assert_eq!(
        of(&l, "producer", "barrier.cluster.arrive"),
        "Membar{level: Gl, ivall: None}; ClusterArrive"
    );
    assert_eq!(
        of(&l, "producer", "barrier.cluster.wait"),
        "ClusterWait; Inval{ivall: D}"
    );
    assert_eq!(
        of(&l, "producer", "mbarrier.arrive.expect_tx.shared::cta.b64"),
        "Mbarrier{op: ArriveExpectTx, addr: [full], arg: 4096}"
    );
    assert_eq!(
        of(
            &l,
            "producer",
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
        ),
        "AsyncCopy{dir: GlobalToShared, bytes: 4096, mbar: [full]}"
    );
    assert_eq!(
        of(&l, "producer", "fence.proxy.async.shared::cta"),
        "Membar{level: Cta, ivall: None}; ProxyFence{kind: Async}"
    );
    assert_eq!(
        of(&l, "producer", "cp.async.bulk.commit_group"),
        "AsyncGroup{op: Commit}"
    );
    assert_eq!(
        of(&l, "producer", "cp.async.bulk.wait_group.read"),
        "AsyncGroup{op: WaitRead, arg: 0}"
    );
    assert_eq!(
        of(&l, "consumer", "mbarrier.try_wait.parity.shared::cta.b64"),
        "Mbarrier{op: TryWait, addr: [full], arg: 0, hint: 1000}"
    );
    assert_eq!(
        of(
            &l,
            "consumer",
            "mbarrier.arrive.relaxed.cluster.shared::cluster.b64"
        ),
        "Mbarrier{op: Arrive, remote, addr: [full], arg: 1}"
    );
}

#[test]
fn cluster_barrier_in_a_non_cluster_launch_is_bar_sync_0() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/mbarrier_tma_pipeline.ptx");
    let src = std::fs::read_to_string(path)
        .unwrap()
        .replace("cluster: 2\n", "");
    let p = ptx_front::parse("x.ptx", &src).unwrap();
    assert!(!p.cluster_launch());
    let l = lower_program(&p).unwrap();
    assert_eq!(
        of(&l, "producer", "barrier.cluster.wait"),
        "Bar{op: Sync, id: 0, count: all}"
    );
    assert_eq!(of(&l, "producer", "barrier.cluster.arrive"), "Nothing");
}

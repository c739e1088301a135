//! `membar ptx`: `--lower FILE` prints every instruction with its lowering,
//! `--table` the lowering table (and `docs/ptx_lowering.md` is exactly that
//! output); a bad file exits 2 with the located error.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn membar(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_membar"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("run membar")
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn table_is_the_checked_in_docs_file() {
    let o = membar(&["ptx", "--table"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let table = out(&o);
    assert!(table.contains("| `fence.sc.gpu`<br>`membar.gl`<br>`fence.sc.cluster` | `MEMBAR.SC.GPU; ERRBAR; CGAERRBAR; CCTL.IVALL` | Membar{level: Gl, ivall: D} |"), "{table}");
    assert!(table.contains("data/calibration/sync/README.md"));
    let doc =
        std::fs::read_to_string(root().join("docs/ptx_lowering.md")).expect("docs/ptx_lowering.md");
    assert_eq!(doc, table, "docs/ptx_lowering.md is stale: regenerate with `membar ptx --table > docs/ptx_lowering.md`");
}

#[test]
fn lower_prints_every_instruction_with_its_lowering() {
    let o = membar(&["ptx", "--lower", "examples/membar_flag.ptx"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let s = out(&o);
    assert!(s.contains("entry producer (run by: cta 0 warp 0)"), "{s}");
    assert!(s.contains("entry consumer (run by: cta 1 warp 0)"), "{s}");
    assert!(
        s.contains("membar.gl;\n        form membar.gl  =>  Membar{level: Gl, ivall: D}"),
        "{s}"
    );
    assert!(
        s.contains("fence.sc.gpu;\n        form fence.sc.gpu  =>  Membar{level: Gl, ivall: D}"),
        "{s}"
    );
    assert!(s.contains("@%p0 bra WAIT;"), "{s}");
    // one block per instruction: 8 in the producer, 8 in the consumer
    assert_eq!(s.matches("        form ").count(), 16, "{s}");
    let o = membar(&["ptx", "--lower", "examples/mbarrier_tma_pipeline.ptx"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let s = out(&o);
    assert!(s.contains("clusters of 2"), "{s}");
    assert!(
        s.contains("=>  Membar{level: Gl, ivall: None}; ClusterArrive"),
        "{s}"
    );
    assert!(
        s.contains("=>  AsyncCopy{dir: GlobalToShared, bytes: 4096, mbar: [full]}"),
        "{s}"
    );
}

#[test]
fn bad_file_exits_2_with_the_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.ptx");
    std::fs::write(
        &f,
        "---\nwarps:\n  - {cta: 0, warp: 0, program: a}\n---\n.entry a {\n  tex.2d.v4.f32.f32 %r1, [t];\n}\n",
    )
    .unwrap();
    let o = membar(&["ptx", "--lower", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(
        e.contains(
            "bad.ptx:6:3: `tex.2d.v4.f32.f32` is outside the supported PTX subset (supported: "
        ),
        "{e}"
    );
    std::fs::write(
        &f,
        "---\nwarps:\n  - {cta: 0, warp: 0, program: a, lanes: 40}\n---\n.entry a { }\n",
    )
    .unwrap();
    let o = membar(&["ptx", "--lower", f.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("bad.ptx:3:") && err(&o).contains("lanes"),
        "{}",
        err(&o)
    );
    let o = membar(&["ptx", "--lower", "no/such/file.ptx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("no/such/file.ptx"), "{}", err(&o));
    let o = membar(&["ptx"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("--lower FILE or --table"), "{}", err(&o));
}

//! The executor drives one `sm_sync` top per SM through the decoder's
//! encoding; a twin of the top (`RunOptions::backend`, what `membar run
//! --on rtl|verilog` plugs in) is stepped on the same inputs and compared
//! port by port. An identical twin changes nothing; a twin with one
//! deliberate composition bug is caught at the first differing port.

use sm_exec::exec::{exec_config, Backend};
use sm_exec::{run_source, Outcome, RunOptions, RunResult};
use sm_sync_model::mutants::{Fault, MutantModel};
use sm_sync_model::SmSyncModel;
use std::sync::Arc;

fn run(file: &str, backend: Backend) -> RunResult {
    let path = format!("{}/../../examples/{file}", env!("CARGO_MANIFEST_DIR"));
    let src = std::fs::read_to_string(&path).unwrap();
    run_source(
        file,
        &src,
        RunOptions {
            seed: 3,
            backend,
            ..RunOptions::default()
        },
    )
    .unwrap()
}

fn twin(fault: Option<Fault>) -> Backend {
    Backend {
        name: "test",
        build: Arc::new(move |_| {
            let m: Box<dyn unit_ports::Dut<sm_sync_model::SmSyncPorts>> = match fault {
                Some(f) => Box::new(MutantModel::new(&exec_config(), f)),
                None => Box::new(SmSyncModel::new(&exec_config())),
            };
            Ok(Some(m))
        }),
    }
}

#[test]
fn an_identical_twin_gives_the_models_run() {
    for file in [
        "membar_flag.ptx",
        "bar_arrive_producer_consumer.ptx",
        "mbarrier_tma_pipeline.ptx",
        "release_acquire_flag.ptx",
    ] {
        let alone = run(file, Backend::default());
        let paired = run(file, twin(None));
        assert_eq!(alone.outcome, Outcome::Finished, "{file}");
        assert_eq!(paired.outcome, Outcome::Finished, "{file}");
        assert_eq!(alone.cycles, paired.cycles, "{file}");
        for (a, b) in alone.warps.iter().zip(&paired.warps) {
            assert_eq!(a.regs, b.regs, "{file} {}", a.name());
        }
    }
}

#[test]
fn a_twin_with_a_composition_bug_is_caught_at_the_port() {
    // The mbarrier pipeline waits on mbarrier wakes: a top whose
    // release_mask leaves them out differs there.
    let r = run(
        "mbarrier_tma_pipeline.ptx",
        twin(Some(Fault::ReleaseMissesWake)),
    );
    let Outcome::Mismatch(m) = &r.outcome else {
        panic!("expected a mismatch, got {:?}", r.outcome);
    };
    assert_eq!(m.port, "release_mask", "{m}");
    assert_ne!(m.model, m.twin);
    assert!(
        m.to_string().contains("cycle") && m.to_string().contains("inputs"),
        "{m}"
    );
    // bar.sync with `req_all` dropped on the way to the bar unit.
    let r = run(
        "bar_arrive_producer_consumer.ptx",
        twin(Some(Fault::BarDropsAll)),
    );
    assert!(matches!(r.outcome, Outcome::Mismatch(_)), "{:?}", r.outcome);
}

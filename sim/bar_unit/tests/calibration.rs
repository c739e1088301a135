//! The H100 timing preset against every calibration row copied into
//! `data/calibration/h100_sync_bar.csv` (tables 1.1, 1.2, 1.4, 3.1): prints
//! model vs measured with the error per cell and asserts every cell is
//! within ±20 %. Run with `--nocapture` to see the table.

use bar_unit_model::config::TimingConfig;
use bar_unit_model::timing::{calibrate, report};

#[test]
fn h100_preset_reproduces_tables_1_1_1_2_1_4_3_1_within_20_percent() {
    let t = TimingConfig::h100();
    t.validate("h100 preset").expect("preset valid");
    let cells = calibrate(&t);
    println!("{}", report(&cells));
    for sub in ["1a", "1b", "1d", "3a"] {
        assert!(
            cells.iter().filter(|c| c.sub == sub).count() >= 6,
            "too few cells of {sub}"
        );
    }
    assert_eq!(cells.len(), 59, "every calibration row is compared");
    let worst = cells.iter().map(|c| c.error().abs()).fold(0.0, f64::max);
    let mean = cells.iter().map(|c| c.error().abs()).sum::<f64>() / cells.len() as f64;
    println!(
        "{} cells, mean |err| {:.1} %, worst {:.1} %",
        cells.len(),
        100.0 * mean,
        100.0 * worst
    );
    let bad: Vec<String> = cells
        .iter()
        .filter(|c| c.error().abs() > 0.20)
        .map(|c| {
            format!(
                "{} {} {}: model {} measured {}",
                c.sub, c.test, c.cfg, c.model, c.measured
            )
        })
        .collect();
    assert!(bad.is_empty(), "cells outside ±20 %:\n{}", bad.join("\n"));
}

#[test]
fn the_preset_is_mechanistic_changing_one_latency_moves_the_cells_it_should() {
    // Slower arrival serialisation must raise the k = 32 cells, not the k = 1 ones.
    let base = calibrate(&TimingConfig::h100());
    let mut t = TimingConfig::h100();
    t.arrival_interval = 3;
    let slow = calibrate(&t);
    let find = |v: &[bar_unit_model::timing::Cell], test: &str, k: &str| {
        v.iter()
            .find(|c| c.test == test && c.cfg.starts_with(k))
            .unwrap()
            .model
    };
    assert_eq!(
        find(&base, "bar.sync 0", "k=1 "),
        find(&slow, "bar.sync 0", "k=1 ")
    );
    assert!(find(&slow, "bar.sync 0", "k=32 ") > find(&base, "bar.sync 0", "k=32 ") + 25.0);
}

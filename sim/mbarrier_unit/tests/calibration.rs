//! H100 calibration: every row of `data/calibration/h100_sync_mbarrier.csv`
//! (tables 2.1, 2.2, 2.3 and 4.1 of the sync calibration, copied into the
//! repository) is computed by the timing preset's mechanisms and printed as
//! model vs measured with the error; every cell must be within ±20 %.

use mbarrier_unit_model::timing::{calibrate, H100};

#[test]
fn h100_tables_2_1_2_2_2_3_4_1_within_20_percent() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/calibration/h100_sync_mbarrier.csv"
    );
    let csv = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let rows = csv.lines().count() - 1;
    let h = H100::preset();
    let cells = calibrate(&h, &csv).unwrap_or_else(|e| panic!("{path}: {e}"));
    println!(
        "{:<4} {:<44} {:<58} {:<42} {:>9} {:>9} {:>7}",
        "sub", "test", "cfg", "metric", "measured", "model", "err"
    );
    let mut worst = 0.0f64;
    let mut bad = Vec::new();
    for c in &cells {
        let e = c.error();
        worst = worst.max(e.abs());
        let flag = if e.abs() > 0.20 {
            "  <-- outside ±20 %"
        } else {
            ""
        };
        println!(
            "{:<4} {:<44} {:<58} {:<42} {:>9.1} {:>9.1} {:>+6.1}%{flag}",
            c.sub,
            c.test,
            c.cfg,
            c.metric,
            c.measured,
            c.model,
            100.0 * e
        );
        if e.abs() > 0.20 {
            bad.push(format!(
                "{} {} {} {}: model {:.1} measured {:.1}",
                c.sub, c.test, c.cfg, c.metric, c.model, c.measured
            ));
        }
    }
    println!("{} cells, worst error {:.1} %", cells.len(), 100.0 * worst);
    assert_eq!(
        cells.len(),
        rows,
        "every row of the calibration file is modelled"
    );
    assert!(
        bad.is_empty(),
        "{} cells outside ±20 %:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

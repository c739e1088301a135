//! `membar calibrate --sm`: the H100 sync bench's released sections (1.3,
//! 2.4, 4.2) rebuilt as probe programs under the H100 SM timing preset. The
//! checked-in table `docs/results/calibration_sm.md` must equal the
//! command's output; every measured cell has a prediction; the mechanisms'
//! key cells stay within ±20 %, and no more cells fall outside than when the
//! table was last accepted. After an intended model change:
//! `membar calibrate --sm --markdown docs/results/calibration_sm.md`.

mod common;
use common::{membar, root, without_marker};

/// (measured, model) of the row whose first columns are `key`: the two
/// columns after them.
fn cells(table: &str, key: &[&str]) -> (f64, f64) {
    let head = format!("| {} |", key.join(" | "));
    let row = table
        .lines()
        .find(|l| l.starts_with(&head))
        .unwrap_or_else(|| panic!("no row {head}"));
    let c: Vec<&str> = row.trim_matches('|').split(" | ").map(str::trim).collect();
    let n = key.len();
    (c[n].parse().unwrap(), c[n + 1].parse().unwrap())
}

/// (measured, model) of the released row `sub | cfg | metric`.
fn cell(table: &str, sub: &str, cfg: &str, metric: &str) -> (f64, f64) {
    cells(table, &[sub, cfg, metric])
}

#[test]
fn the_checked_in_sm_table_is_the_command_s_output_and_every_cell_is_predicted() {
    let out = membar(&["calibrate", "--sm"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let file = std::fs::read_to_string(root().join("docs/results/calibration_sm.md"))
        .expect("docs/results/calibration_sm.md");
    let checked_in = without_marker(&file);
    assert_eq!(
        text, checked_in,
        "docs/results/calibration_sm.md is stale: membar calibrate --sm --markdown docs/results/calibration_sm.md"
    );
    assert!(text.contains("\n271 rows, 271 predicted:"), "{text}");
    let (released, own) = text
        .split_once("\n## Our own probe")
        .expect("the own arrive-contention section");
    let outside = released.matches("**outside**").count();
    assert!(
        outside <= 3,
        "{outside} released cells outside ±20 % (3 when last accepted)"
    );
    assert!(own.contains("\n69 rows, 69 predicted:"), "{own}");
    let outside = own.matches("**outside**").count();
    assert!(
        outside <= 31,
        "{outside} own-probe cells outside ±20 % (31 when last accepted)"
    );
    // The mechanisms' own cells: deferred blocking (the waiter's clock read
    // is not blocked; its st.shared is, until the release), the release
    // path, fan-out's first waiter, try_wait's wake, an LDGSTS group from L2.
    for (sub, cfg, metric) in [
        (
            "1g",
            "waiter first; last arriver bar.sync; X = nothing",
            "t1-tA (clock read right after waiter's bar.sync; vs last arrival)",
        ),
        (
            "1g",
            "waiter first; last arriver bar.sync; X = st.shared",
            "t2-tA (after X; vs last arrival)",
        ),
        (
            "1g",
            "waiter first; last arriver bar.arrive; X = st.shared",
            "t2-tA (after X; vs last arrival)",
        ),
        (
            "1h",
            "31 waiter warps; last arriver bar.sync; waiters: bar.sync then st.shared",
            "first waiter out (t2-tA)",
        ),
        (
            "2d",
            "full/empty count 1; consumer try_wait; producer delay 500",
            "wake: consumer t_after - producer t_before",
        ),
        (
            "4b",
            "cp.async.cg 16B; 4 groups x 4 KB; wait_group 3; hot src",
            "wait_group N returns (from first issue)",
        ),
    ] {
        let (m, p) = cell(&text, sub, cfg, metric);
        assert!(
            (p - m).abs() <= 2.0 || ((p - m) / m).abs() <= 0.2,
            "{sub} {cfg} {metric}: model {p}, H100 {m}"
        );
    }
}

/// Our own probe (an arrive among `test_wait` spinners, measured on the
/// device's H200): the arrive's cost, which is the SM-wide mbarrier path's
/// contention, within ±20 % with few spinners, with 31, and whichever
/// scheduler the spinners are on; the table's rows parse as numbers.
#[test]
fn the_own_probe_s_arrive_cells_follow_the_mbarrier_path_contention() {
    let out = membar(&["calibrate", "--sm"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let (_, own) = text.split_once("\n## Our own probe").unwrap();
    let cell = |cfg: &str, metric: &str| cells(own, &[cfg, metric]);
    for cfg in [
        "first_n;n=0",
        "first_n;n=7",
        "first_n;n=31",
        "same_sched;n=7",
        "other_scheds;n=24",
        "other_scheds_7;n=7",
    ] {
        let (m, p) = cell(cfg, "arrive");
        assert!(
            (p - m).abs() <= 2.0 || ((p - m) / m).abs() <= 0.2,
            "{cfg} arrive: model {p}, H200 {m}"
        );
    }
    // More spinners cost the arrive more, on the device and in the model.
    let (m7, p7) = cell("first_n;n=7", "arrive");
    let (m31, p31) = cell("first_n;n=31", "arrive");
    assert!(m31 > 2.0 * m7 && p31 > 2.0 * p7, "{m7} {m31} / {p7} {p31}");
}

#[test]
fn sm_refuses_the_flags_it_does_not_honour() {
    for flag in [&["--seed", "3"][..], &["--unit", "bar"], &["--kernels"]] {
        let mut args = vec!["calibrate", "--sm"];
        args.extend_from_slice(flag);
        let out = membar(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

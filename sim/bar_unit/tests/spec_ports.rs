//! The port tables in `spec/bar_unit.md` and `spec/cluster_barrier.md` list
//! the same ports, in the same order and direction, as `BarUnitPorts::ports` /
//! `ClusterBarrierPorts::ports` (from the declaration macros), and every port (but `clock`) is a field of the
//! Inputs/Outputs structs of its direction.

use bar_unit_model::config::{BarConfig, ClusterConfig};
use bar_unit_model::ports::{
    BarInputs, BarOutputs, BarUnitPorts, ClusterBarrierPorts, ClusterInputs, ClusterOutputs, Dir,
    Port, Unit,
};

/// (name, dir) rows of the first markdown table whose header starts with `| port |`.
fn spec_ports(path: &str) -> Vec<(String, Dir)> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let mut rows = vec![];
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("| port |") {
            inside = true;
            continue;
        }
        if inside {
            if !line.starts_with('|') {
                break;
            }
            let cols: Vec<&str> = line.split('|').map(|c| c.trim()).collect();
            if cols[1].starts_with("---") {
                continue;
            }
            let name = cols[1].trim_matches('`').to_string();
            let dir = match cols[2] {
                "in" if name == "clock" => Dir::Clock,
                "in" => Dir::In,
                "out" => Dir::Out,
                d => panic!("{path}: port {name}: direction {d:?}"),
            };
            rows.push((name, dir));
        }
    }
    rows
}

fn check(path: &str, table: Vec<Port>, ins: String, outs: String) {
    let spec = spec_ports(path);
    let code: Vec<(String, Dir)> = table.iter().map(|p| (p.name.to_string(), p.dir)).collect();
    assert_eq!(spec, code, "{path} and the port table differ");
    for Port { name, dir, width } in table {
        assert!(width >= 1, "{name} has width 0");
        if name == "clock" {
            continue;
        }
        let hay = if dir == Dir::In { &ins } else { &outs };
        assert!(
            hay.contains(&format!("{name}:")),
            "{name} is not a field of the {dir:?} struct"
        );
    }
}

#[test]
fn bar_unit_spec_table_matches_the_code() {
    for cfg in [
        BarConfig::default(),
        BarConfig {
            warps: 8,
            cta_slots: 1,
        },
    ] {
        check(
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/bar_unit.md"),
            BarUnitPorts::ports(&cfg),
            format!("{:?}", BarInputs::default()),
            format!("{:?}", BarOutputs::default()),
        );
    }
}

#[test]
fn cluster_barrier_spec_table_matches_the_code() {
    check(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/cluster_barrier.md"),
        ClusterBarrierPorts::ports(&ClusterConfig::default()),
        format!("{:?}", ClusterInputs::default()),
        format!("{:?}", ClusterOutputs::default()),
    );
}

//! The `membar_unit` wrapper in the emitted Verilog has exactly the SPEC.md
//! ports: names, order, directions and widths, for every grid configuration.
//! The expected list is written out here from SPEC.md, independently of the
//! generator's own `spec_ports`, which is checked against it too.

use membar_hw::Dir;
use membar_sim::Config;

/// SPEC.md's port table for `cfg`: (name, direction, width).
fn spec_md_ports(cfg: &Config) -> Vec<(String, Dir, u32)> {
    let (w, wb, tb) = (
        cfg.warps,
        cfg.warps.trailing_zeros(),
        cfg.slots.trailing_zeros(),
    );
    let table: [(&str, Dir, u32); 26] = [
        ("clock", Dir::In, 1),
        ("reset", Dir::In, 1),
        ("req_valid", Dir::In, 1),
        ("req_ready", Dir::Out, 1),
        ("req_warp", Dir::In, wb),
        ("req_op", Dir::In, 3),
        ("req_level", Dir::In, 2),
        ("req_ivall", Dir::In, 2),
        ("req_id", Dir::In, 16),
        ("dn_valid", Dir::Out, 1),
        ("dn_ready", Dir::In, 1),
        ("dn_kind", Dir::Out, 2),
        ("dn_tag", Dir::Out, tb),
        ("dn_warp", Dir::Out, wb),
        ("dn_op", Dir::Out, 3),
        ("dn_level", Dir::Out, 2),
        ("dn_ack_req", Dir::Out, 1),
        ("dn_id", Dir::Out, 16),
        ("ack_valid", Dir::In, 1),
        ("ack_tag", Dir::In, tb),
        ("bar_ack_valid", Dir::In, 1),
        ("bar_ack_tag", Dir::In, tb),
        ("warp_blocked", Dir::Out, w),
        ("release_valid", Dir::Out, 1),
        ("release_mask", Dir::Out, w),
        ("err", Dir::Out, 1),
    ];
    table
        .iter()
        .map(|&(n, d, width)| (n.to_string(), d, width))
        .collect()
}

/// The ANSI port list of `module membar_unit (...);`: one `input|output wire [h:0] name` per line.
fn wrapper_ports(verilog: &str) -> Vec<(String, Dir, u32)> {
    let start = verilog
        .find("module membar_unit (")
        .expect("no `module membar_unit (` in the file");
    let header =
        &verilog[start..start + verilog[start..].find(");").expect("unterminated port list")];
    header
        .lines()
        .skip(1)
        .map(|line| {
            let words: Vec<&str> = line
                .trim()
                .trim_end_matches(',')
                .split_whitespace()
                .collect();
            let dir = match words.first() {
                Some(&"input") => Dir::In,
                Some(&"output") => Dir::Out,
                _ => panic!("unexpected port line `{line}`"),
            };
            assert_eq!(words.get(1), Some(&"wire"), "port line `{line}`");
            let (width, name) = match &words[2..] {
                [name] => (1, *name),
                [range, name] => {
                    let msb = range
                        .strip_prefix('[')
                        .and_then(|r| r.strip_suffix(":0]"))
                        .expect(line);
                    (msb.parse::<u32>().expect(line) + 1, *name)
                }
                _ => panic!("unexpected port line `{line}`"),
            };
            (name.to_string(), dir, width)
        })
        .collect()
}

#[test]
fn wrapper_ports_match_spec_md() {
    for (name, cfg) in Config::grid() {
        let verilog = membar_hw::generate_verilog(&cfg).unwrap();
        let expected = spec_md_ports(&cfg);
        assert_eq!(
            wrapper_ports(&verilog),
            expected,
            "{name}: membar_unit ports differ from SPEC.md"
        );
        let generator: Vec<_> = membar_hw::spec_ports(&cfg)
            .into_iter()
            .map(|(n, d, w)| (n.to_string(), d, w))
            .collect();
        assert_eq!(
            generator, expected,
            "{name}: membar_hw::spec_ports differs from SPEC.md"
        );
    }
}

#[test]
fn wrapper_instantiates_the_prefixed_top() {
    for (name, cfg) in Config::grid() {
        let verilog = membar_hw::generate_verilog(&cfg).unwrap();
        let prefix = membar_hw::module_prefix(&cfg);
        assert!(
            verilog.contains(&format!("\nmodule {prefix}(")),
            "{name}: no module {prefix}"
        );
        assert!(
            verilog.contains(&format!("    {prefix} core (")),
            "{name}: membar_unit does not instantiate {prefix}"
        );
        assert!(
            !verilog.contains('$'),
            "{name}: a `$` is left in the Verilog"
        );
        let modules = verilog.lines().filter(|l| l.starts_with("module ")).count();
        let prefixed = verilog
            .lines()
            .filter(|l| l.starts_with(&format!("module {prefix}")))
            .count();
        assert_eq!(
            modules,
            prefixed + 1,
            "{name}: every module but membar_unit carries the prefix"
        );
        for (key, value) in cfg.describe() {
            assert!(
                verilog.contains(&format!("//   {key}: {value}\n")),
                "{name}: header lacks `{key}: {value}`"
            );
        }
        assert!(
            verilog.starts_with("// membar_unit.v: generated by membar-rtl "),
            "{name}: header"
        );
        assert!(
            verilog.lines().next().unwrap().ends_with("— do not edit."),
            "{name}: header"
        );
    }
}

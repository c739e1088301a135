//! The `membar_unit` wrapper in the emitted Verilog has exactly the SPEC.md
//! ports: names, order, directions and widths, for every grid configuration.
//! The expected list is read from the contract itself (the port table of
//! `spec/membar_unit.md`, widths `W`/`WB`/`TB` evaluated for the
//! configuration), independently of the port declaration that generates the
//! wrapper, which is checked against it too.

use membar_unit_model::Config;
use membar_unit_rtl::Dir;

/// The port table of `spec/membar_unit.md` for `cfg`: (name, direction, width).
fn spec_md_ports(cfg: &Config) -> Vec<(String, Dir, u32)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../spec/membar_unit.md");
    let text = std::fs::read_to_string(path).expect("spec/membar_unit.md");
    let (w, wb, tb) = (
        cfg.warps,
        cfg.warps.trailing_zeros(),
        cfg.slots.trailing_zeros(),
    );
    let start = text
        .find("| port | dir | width | meaning |")
        .expect("port table");
    let rows: Vec<(String, Dir, u32)> = text[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`').to_string();
            let dir = match cells[2] {
                "in" => Dir::In,
                "out" => Dir::Out,
                d => panic!("{path}: port `{name}`: direction `{d}`"),
            };
            let width = match cells[3] {
                "W" => w,
                "WB" => wb,
                "TB" => tb,
                n => n
                    .parse()
                    .unwrap_or_else(|_| panic!("{path}: port `{name}`: width `{n}`")),
            };
            (name, dir, width)
        })
        .collect();
    assert!(rows.len() >= 20, "{path}: only {} port rows", rows.len());
    rows
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
        let verilog = membar_unit_rtl::generate_verilog(&cfg).unwrap();
        let expected = spec_md_ports(&cfg);
        assert_eq!(
            wrapper_ports(&verilog),
            expected,
            "{name}: membar_unit ports differ from SPEC.md"
        );
        let generator: Vec<_> = membar_unit_rtl::spec_ports(&cfg)
            .into_iter()
            .map(|p| {
                let d = if p.dir == Dir::Clock { Dir::In } else { p.dir };
                (p.name.to_string(), d, p.width)
            })
            .collect();
        assert_eq!(
            generator, expected,
            "{name}: membar_unit_rtl::spec_ports differs from SPEC.md"
        );
    }
}

#[test]
fn wrapper_instantiates_the_prefixed_top() {
    for (name, cfg) in Config::grid() {
        let verilog = membar_unit_rtl::generate_verilog(&cfg).unwrap();
        let prefix = membar_unit_rtl::module_prefix(&cfg);
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

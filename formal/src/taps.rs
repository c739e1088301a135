//! Strengthening invariants: wires of a harness that carry registers of the
//! unit's own RTL ("taps"), so that assertions can relate the port monitor's
//! state to the design's (docs/formal.md, "Strengthening invariants").
//!
//! yosys 0.70 resolves no hierarchical reference (`dut.core.x.q`) from the
//! harness, and the emitted Verilog must stay as checked in. So a harness
//! declares each tap as an undriven `(* keep *)` wire with a marker comment
//!
//! ```text
//!   (* keep *) wire [3:0] t_cnt_0_5; // @tap dut.core.ctas__0.count__5.q
//! ```
//!
//! and the runner, for the groups that use taps (the harness lists them in a
//! `// @tap-groups g1 g2` line), adds to the yosys script after `prep`:
//! `setattr -set keep 1 <top>/w:*` (the harness's wires survive `flatten`
//! under their names), `flatten`, then `connect -nomap -set <wire>
//! <flattened register net>` for each tap. After `flatten` the register `q` of instance `dut.core.ctas__0.count__5`
//! is the net `dut.core.ctas__0.count__5.q`. A word of a memory (a block
//! RAM of the design, `reg [..] mem[..]`) is tapped as `<instance
//! path>.mem[<address>]`: the runner maps memories to registers
//! (`memory_map`) after `flatten`, which names word *k* `<path>.mem[k]`.
//! A tap whose instance path or
//! width does not exist makes yosys stop with an error naming it (`connect`
//! cannot parse the net, or the widths differ), and [`check_paths`] refuses
//! a path whose instances are not in the Verilog before any tool runs.
//! In groups that do not use taps the wires stay undriven (free) and unread.

/// One tap: the harness wire, its width, the flattened RTL net.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tap {
    pub wire: String,
    pub width: u32,
    pub net: String,
}

impl Tap {
    pub fn new(wire: impl Into<String>, width: u32, net: impl Into<String>) -> Tap {
        Tap {
            wire: wire.into(),
            width,
            net: net.into(),
        }
    }
}

/// The harness declarations of `taps` and the `@tap-groups` line naming
/// the groups whose tasks connect them.
pub fn declare(taps: &[Tap], groups: &[&str]) -> String {
    let mut s = format!(
        "  // RTL taps: connected to the design's registers by the runner (formal/src/taps.rs)\n  // @tap-groups {}\n",
        groups.join(" ")
    );
    for t in taps {
        let r = if t.width > 1 {
            format!("[{}:0] ", t.width - 1)
        } else {
            String::new()
        };
        s += &format!("  (* keep *) wire {r}{}; // @tap {}\n", t.wire, t.net);
    }
    s
}

/// The taps a harness declares: (wire, net), in order.
pub fn parse(harness: &str) -> Vec<(String, String)> {
    harness
        .lines()
        .filter_map(|l| {
            let (decl, net) = l.split_once("// @tap ")?;
            let wire = decl
                .trim()
                .trim_end_matches(';')
                .split_whitespace()
                .last()?;
            Some((wire.to_string(), net.trim().to_string()))
        })
        .collect()
}

/// The groups whose tasks connect the taps (`// @tap-groups` line).
pub fn tap_groups(harness: &str) -> Vec<String> {
    harness
        .lines()
        .find_map(|l| l.trim().strip_prefix("// @tap-groups"))
        .map(|g| g.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default()
}

/// The yosys commands that connect the taps of `harness` in module `top`
/// (empty when `group` does not use them).
pub fn script(harness: &str, top: &str, group: &str) -> String {
    let taps = parse(harness);
    if taps.is_empty() || !tap_groups(harness).iter().any(|g| g == group) {
        return String::new();
    }
    // Keep the harness's own wires (the ports among them): after `flatten`
    // opt_clean would otherwise leave only the instance's names of the port
    // nets, and the counterexample VCD would lack the top-level ports.
    let mut s = format!("setattr -set keep 1 {top}/w:*\nflatten\nmemory_map\ncd {top}\n");
    for (w, n) in taps {
        s += &format!("connect -nomap -set {w} {n}\n");
    }
    s += "cd ..\n";
    s
}

/// `sby` with the tap connections of `group` inserted after its `prep` line.
pub fn insert(sby: &str, harness: &str, top: &str, group: &str) -> String {
    let add = script(harness, top, group);
    if add.is_empty() {
        return sby.to_string();
    }
    let prep = format!("prep -top {top}\n");
    match sby.find(&prep) {
        Some(i) => format!("{}{add}{}", &sby[..i + prep.len()], &sby[i + prep.len()..]),
        None => sby.to_string(),
    }
}

/// Every tap's instance path (`dut.core.<inst>...<reg>.q`, or
/// `dut.core.<inst>...mem[<k>]` for a memory word and
/// `dut.core.<inst>...read_data` for a memory's read register) must name instances of
/// the Verilog: each component after `dut.core` appears as an instance
/// (`<name>(`). Err names the first tap that does not.
pub fn check_paths(harness: &str, verilog: &str) -> Result<(), String> {
    for (w, n) in parse(harness) {
        let parts: Vec<&str> = n.split('.').collect();
        let ok = parts.len() >= 4
            && parts[0] == "dut"
            && parts[1] == "core"
            && parts.last().is_some_and(|l| {
                *l == "q"
                    || *l == "read_data"
                    || l.strip_prefix("mem[")
                        .and_then(|r| r.strip_suffix(']'))
                        .is_some_and(|k| k.parse::<u32>().is_ok())
            })
            && parts[2..parts.len() - 1]
                .iter()
                .all(|p| verilog.contains(&format!(" {p}(")));
        if !ok {
            return Err(format!(
                "harness tap `{w}`: the Verilog has no register `{n}` (an instance of the path is missing); was the RTL's register renamed?"
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn taps_declare_parse_and_connect_only_in_their_groups() {
        let h = declare(
            &[
                Tap::new("t_a", 4, "dut.core.x__0.a__1.q"),
                Tap::new("t_b", 1, "dut.core.y.q"),
            ],
            &["inv", "b1"],
        );
        assert!(h.contains("(* keep *) wire [3:0] t_a; // @tap dut.core.x__0.a__1.q"));
        assert!(h.contains("(* keep *) wire t_b; // @tap dut.core.y.q"));
        assert_eq!(
            parse(&h),
            vec![
                ("t_a".to_string(), "dut.core.x__0.a__1.q".to_string()),
                ("t_b".to_string(), "dut.core.y.q".to_string())
            ]
        );
        assert_eq!(tap_groups(&h), vec!["inv", "b1"]);
        let sby = "[script]\nread -formal a.v\nprep -top top\n\n[files]\n";
        let with = insert(sby, &h, "top", "b1");
        assert!(with.contains(
            "prep -top top\nsetattr -set keep 1 top/w:*\nflatten\nmemory_map\ncd top\nconnect -nomap -set t_a dut.core.x__0.a__1.q\nconnect -nomap -set t_b dut.core.y.q\ncd ..\n\n[files]"
        ));
        assert_eq!(insert(sby, &h, "top", "b2"), sby);
        let v = "  m x__0(\n  n a__1(\n  k y(\n";
        assert!(check_paths(&h, v).is_ok());
        let ram = declare(&[Tap::new("t_m", 6, "dut.core.y.mem[5]")], &["inv"]);
        assert!(check_paths(&ram, v).is_ok());
        let bad = declare(&[Tap::new("t_m", 6, "dut.core.y.mem[x]")], &["inv"]);
        assert!(check_paths(&bad, v).is_err());
        let e = check_paths(&h, "  m x__0(\n").unwrap_err();
        assert!(
            e.contains("t_a") && e.contains("dut.core.x__0.a__1.q"),
            "{e}"
        );
    }
}

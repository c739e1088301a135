//! The contract face of an emitted design: an ANSI-port Verilog module with
//! exactly the contract's port names, directions and widths, instantiating
//! the generated core (whose ports carry the same names).

use crate::{Dir, Port};

/// `module <module> (...)` wrapping `core_module`, from the port table.
pub fn verilog_wrapper(module: &str, core_module: &str, ports: &[Port]) -> String {
    let decls = ports
        .iter()
        .map(|p| {
            let dir = match p.dir {
                Dir::In | Dir::Clock => "input ",
                Dir::Out => "output",
            };
            let range = if p.width == 1 {
                String::new()
            } else {
                format!("[{}:0]", p.width - 1)
            };
            format!("    {dir} wire {range:<6} {}", p.name)
        })
        .collect::<Vec<_>>()
        .join(",\n");
    let conns = ports
        .iter()
        .map(|p| format!("        .{0}({0})", p.name))
        .collect::<Vec<_>>()
        .join(",\n");
    format!(
        "\n\n// The SPEC.md face of the unit: ANSI ports with the SPEC.md names and widths.\n\
         module {module} (\n{decls}\n);\n\n    {core_module} core (\n{conns}\n    );\n\nendmodule // {module}\n"
    )
}

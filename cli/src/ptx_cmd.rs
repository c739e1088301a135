//! `membar ptx`: the PTX front end. `--lower FILE` prints each instruction of
//! the program with its sm_90 lowering; `--table` prints the lowering table
//! with its sources (`docs/ptx_lowering.md` is this output).

use crate::common::{CmdError, CmdResult};
use ptx_front::lower::{lower_program, ops_text, table_markdown};
use std::io::Write;
use std::path::Path;

pub fn run(lower: Option<&Path>, table: bool) -> CmdResult {
    let text = match (lower, table) {
        (Some(f), false) => lower_text(f)?,
        (None, true) => table_markdown(),
        _ => {
            return Err(CmdError::input(
                "membar ptx: give exactly one of --lower FILE or --table",
            ))
        }
    };
    std::io::stdout()
        .write_all(text.as_bytes())
        .map_err(|e| CmdError::failed(format!("writing stdout: {e}")))
}

fn lower_text(path: &Path) -> Result<String, CmdError> {
    let name = path.display().to_string();
    let src = crate::run_cmd::read_program("--lower", path)?;
    let prog = ptx_front::parse(&name, &src).map_err(|e| CmdError::input(e.to_string()))?;
    let lowered = lower_program(&prog).map_err(|e| CmdError::input(e.to_string()))?;
    let h = &prog.header;
    let mut s = format!(
        "# {name}: {} CTA(s), {}\n",
        h.ctas,
        match h.cluster {
            Some(c) => format!("clusters of {c}"),
            None => "not a cluster launch".into(),
        }
    );
    for (entry, insts) in &lowered {
        let warps: Vec<String> = h
            .warps
            .iter()
            .filter(|w| &w.program == entry)
            .map(|w| format!("cta {} warp {}", w.cta, w.warp))
            .collect();
        s.push_str(&format!(
            "\nentry {entry} (run by: {})\n",
            if warps.is_empty() {
                "no warp".to_string()
            } else {
                warps.join(", ")
            }
        ));
        for li in insts {
            s.push_str(&format!(
                "  {:>4}  {}\n        form {}  =>  {}\n        SASS {}  [{}]\n",
                li.inst.line,
                li.inst.text(),
                li.inst.form,
                ops_text(&li.ops),
                li.row.sass,
                li.row.source
            ));
        }
    }
    Ok(s)
}

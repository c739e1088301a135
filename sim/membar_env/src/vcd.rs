//! A small VCD writer for the SPEC.md ports, so a run of any back end (model,
//! rust-hdl, Verilator) can be looked at in a waveform viewer (`--trace FILE`).

use crate::config::Config;
use crate::ports::{Inputs, Outputs};
use std::io::{self, Write};

pub struct VcdWriter<W: Write> {
    out: W,
    prev: Option<[u64; 25]>,
    widths: [u32; 25],
}

const NAMES: [&str; 25] = [
    "reset",
    "req_valid",
    "req_warp",
    "req_op",
    "req_level",
    "req_ivall",
    "req_id",
    "dn_ready",
    "ack_valid",
    "ack_tag",
    "bar_ack_valid",
    "bar_ack_tag",
    "req_ready",
    "dn_valid",
    "dn_kind",
    "dn_tag",
    "dn_warp",
    "dn_op",
    "dn_level",
    "dn_ack_req",
    "dn_id",
    "warp_blocked",
    "release_valid",
    "release_mask",
    "err",
];

impl<W: Write> VcdWriter<W> {
    /// Write the header (one scope `membar_unit`, 1 ns per half cycle).
    pub fn new(mut out: W, cfg: &Config) -> io::Result<Self> {
        let (wb, tb, w) = (cfg.wb().max(1), cfg.tb().max(1), cfg.warps);
        let widths = [
            1, 1, wb, 3, 2, 2, 16, 1, 1, tb, 1, tb, 1, 1, 2, tb, wb, 3, 2, 1, 16, w, 1, w, 1,
        ];
        writeln!(
            out,
            "$version membar-rtl {} $end",
            env!("CARGO_PKG_VERSION")
        )?;
        writeln!(out, "$comment config {} $end", cfg.short_name())?;
        writeln!(out, "$timescale 1ns $end\n$scope module membar_unit $end")?;
        writeln!(out, "$var wire 1 ! clock $end")?;
        for (k, n) in NAMES.iter().enumerate() {
            writeln!(out, "$var wire {} {} {} $end", widths[k], ident(k), n)?;
        }
        writeln!(out, "$upscope $end\n$enddefinitions $end")?;
        Ok(VcdWriter {
            out,
            prev: None,
            widths,
        })
    }

    /// Dump one cycle: values change at the falling edge before the clock rises.
    pub fn cycle(&mut self, cycle: u64, i: &Inputs, o: &Outputs) -> io::Result<()> {
        let v = [
            i.reset as u64,
            i.req_valid as u64,
            i.req_warp as u64,
            i.req_op as u64,
            i.req_level as u64,
            i.req_ivall as u64,
            i.req_id as u64,
            i.dn_ready as u64,
            i.ack_valid as u64,
            i.ack_tag as u64,
            i.bar_ack_valid as u64,
            i.bar_ack_tag as u64,
            o.req_ready as u64,
            o.dn_valid as u64,
            o.dn_kind as u64,
            o.dn_tag as u64,
            o.dn_warp as u64,
            o.dn_op as u64,
            o.dn_level as u64,
            o.dn_ack_req as u64,
            o.dn_id as u64,
            o.warp_blocked,
            o.release_valid as u64,
            o.release_mask,
            o.err as u64,
        ];
        writeln!(self.out, "#{}\n0!", cycle * 2)?;
        for k in 0..v.len() {
            if self.prev.is_none_or(|p| p[k] != v[k]) {
                if self.widths[k] == 1 {
                    writeln!(self.out, "{}{}", v[k] & 1, ident(k))?;
                } else {
                    writeln!(self.out, "b{:b} {}", v[k], ident(k))?;
                }
            }
        }
        writeln!(self.out, "#{}\n1!", cycle * 2 + 1)?;
        self.prev = Some(v);
        Ok(())
    }

    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

fn ident(k: usize) -> String {
    // Printable VCD identifiers after '!': '"', '#', ...
    ((b'"' + k as u8) as char).to_string()
}

//! Per-warp timeline of a run (issue, block, release, exit, memory events)
//! and its two file formats: VCD (GTKWave, Surfer) and Chrome-trace JSON
//! (`chrome://tracing`, Perfetto). One cycle = one VCD time unit = 1 µs in
//! the JSON (the viewers need a time unit; read it as cycles).

use std::io::{self, Write};

/// Why a warp is blocked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    Membar,
    Bar,
    Mbarrier,
    WaitGroup,
    Cluster,
}

impl Cause {
    pub fn name(self) -> &'static str {
        match self {
            Cause::Membar => "membar",
            Cause::Bar => "bar",
            Cause::Mbarrier => "mbarrier",
            Cause::WaitGroup => "wait_group",
            Cause::Cluster => "cluster",
        }
    }
    /// The VCD `state` code.
    fn code(self) -> u8 {
        match self {
            Cause::Membar => 1,
            Cause::Bar => 2,
            Cause::Mbarrier => 3,
            Cause::WaitGroup => 4,
            Cause::Cluster => 5,
        }
    }
}

/// One timeline event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ev {
    Issue { line: usize, text: String },
    Block(Cause),
    Release,
    Exit,
    Mem(String),
}

/// The recorded timeline (empty when disabled).
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub enabled: bool,
    pub warps: Vec<String>,
    /// (cycle, warp, event), in time order.
    pub events: Vec<(u64, usize, Ev)>,
    pub end: u64,
}

impl Trace {
    pub fn new(enabled: bool) -> Trace {
        Trace {
            enabled,
            ..Trace::default()
        }
    }
    pub fn add_warp(&mut self, name: String) {
        self.warps.push(name);
    }
    fn push(&mut self, t: u64, w: usize, e: Ev) {
        if self.enabled {
            self.events.push((t, w, e));
        }
    }
    pub fn issue(&mut self, t: u64, w: usize, line: usize, text: &str) {
        if self.enabled {
            self.push(
                t,
                w,
                Ev::Issue {
                    line,
                    text: text.to_string(),
                },
            );
        }
    }
    pub fn block(&mut self, t: u64, w: usize, c: Cause) {
        self.push(t, w, Ev::Block(c));
    }
    pub fn release(&mut self, t: u64, w: usize) {
        self.push(t, w, Ev::Release);
    }
    pub fn exit(&mut self, t: u64, w: usize) {
        self.push(t, w, Ev::Exit);
    }
    pub fn event(&mut self, t: u64, w: usize, what: String) {
        self.push(t, w, Ev::Mem(what));
    }
    pub fn cycle(&mut self, t: u64) {
        self.end = t + 1;
    }

    /// VCD: per warp `state` (0 running, 1 membar, 2 bar, 3 mbarrier,
    /// 4 wait_group, 5 cluster, 6 not started, 7 exited), `line` (source line
    /// of the last issue), `issue` and `mem` (one-cycle pulses).
    pub fn write_vcd(&self, w: &mut dyn Write) -> io::Result<()> {
        writeln!(w, "$version membar run (sm-exec) $end")?;
        writeln!(w, "$comment state: 0 running 1 membar 2 bar 3 mbarrier 4 wait_group 5 cluster 6 not-started 7 exited $end")?;
        writeln!(w, "$timescale 1ns $end")?;
        writeln!(w, "$scope module sm $end")?;
        // Identifier codes: printable ASCII without `$` (keyword start).
        let id = |k: usize, s: usize| {
            let alphabet: Vec<char> = (33u8..127)
                .filter(|&c| c != b'$')
                .map(|c| c as char)
                .collect();
            let mut n = k * 4 + s;
            let mut out = String::new();
            loop {
                out.push(alphabet[n % alphabet.len()]);
                n /= alphabet.len();
                if n == 0 {
                    break;
                }
            }
            out
        };
        for (k, name) in self.warps.iter().enumerate() {
            let nm = name.replace('.', "_");
            writeln!(w, "$scope module {nm} $end")?;
            writeln!(w, "$var wire 3 {} state $end", id(k, 0))?;
            writeln!(w, "$var wire 32 {} line $end", id(k, 1))?;
            writeln!(w, "$var wire 1 {} issue $end", id(k, 2))?;
            writeln!(w, "$var wire 1 {} mem $end", id(k, 3))?;
            writeln!(w, "$upscope $end")?;
        }
        writeln!(w, "$upscope $end")?;
        writeln!(w, "$enddefinitions $end")?;
        writeln!(w, "#0")?;
        writeln!(w, "$dumpvars")?;
        for k in 0..self.warps.len() {
            writeln!(w, "b110 {}", id(k, 0))?;
            writeln!(w, "b0 {}", id(k, 1))?;
            writeln!(w, "0{}", id(k, 2))?;
            writeln!(w, "0{}", id(k, 3))?;
        }
        writeln!(w, "$end")?;
        // Group events by cycle; pulses fall back to 0 in the next cycle.
        let mut raised: Vec<String> = Vec::new();
        let mut t_last = 0u64;
        let mut i = 0;
        while i < self.events.len() {
            let t = self.events[i].0;
            if !raised.is_empty() && t > t_last + 1 {
                writeln!(w, "#{}", t_last + 1)?;
                for s in raised.drain(..) {
                    writeln!(w, "0{s}")?;
                }
            }
            writeln!(w, "#{t}")?;
            let mut now: Vec<String> = Vec::new();
            while i < self.events.len() && self.events[i].0 == t {
                let (_, k, e) = &self.events[i];
                match e {
                    Ev::Issue { line, .. } => {
                        writeln!(w, "b{:b} {}", line, id(*k, 1))?;
                        writeln!(w, "1{}", id(*k, 2))?;
                        now.push(id(*k, 2));
                    }
                    Ev::Block(c) => writeln!(w, "b{:b} {}", c.code(), id(*k, 0))?,
                    Ev::Release => writeln!(w, "b0 {}", id(*k, 0))?,
                    Ev::Exit => writeln!(w, "b111 {}", id(*k, 0))?,
                    Ev::Mem(_) => {
                        writeln!(w, "1{}", id(*k, 3))?;
                        now.push(id(*k, 3));
                    }
                }
                i += 1;
            }
            now.sort();
            now.dedup();
            for s in raised.drain(..) {
                if !now.contains(&s) {
                    writeln!(w, "0{s}")?;
                }
            }
            raised = now;
            t_last = t;
        }
        if !raised.is_empty() {
            writeln!(w, "#{}", t_last + 1)?;
            for s in raised.drain(..) {
                writeln!(w, "0{s}")?;
            }
        }
        writeln!(w, "#{}", self.end.max(t_last + 2))?;
        Ok(())
    }

    /// Chrome-trace JSON: one process per CTA, one thread per warp; blocked
    /// intervals as complete events named by cause, issues and memory events
    /// as instant events.
    pub fn write_json(&self, w: &mut dyn Write) -> io::Result<()> {
        let esc = |s: &str| {
            s.replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', " ")
        };
        let ids: Vec<(u32, u32)> = self
            .warps
            .iter()
            .map(|n| {
                let mut it = n.trim_start_matches("cta").split(".w");
                let c = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
                let k = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
                (c, k)
            })
            .collect();
        writeln!(w, "{{\"otherData\": {{\"generator\": \"membar run (sm-exec)\", \"time_unit\": \"1 us = 1 cycle\"}},")?;
        writeln!(w, "\"traceEvents\": [")?;
        let mut first = true;
        let mut emit = |w: &mut dyn Write, s: String| -> io::Result<()> {
            if !first {
                writeln!(w, ",")?;
            }
            first = false;
            write!(w, "{s}")
        };
        for (k, name) in self.warps.iter().enumerate() {
            let (p, t) = ids[k];
            emit(
                w,
                format!("{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {p}, \"tid\": {t}, \"args\": {{\"name\": \"{name}\"}}}}"),
            )?;
        }
        let mut open: Vec<Option<(u64, Cause)>> = vec![None; self.warps.len()];
        for (t, k, e) in &self.events {
            let (p, tid) = ids[*k];
            match e {
                Ev::Issue { line, text } => emit(
                    w,
                    format!("{{\"name\": \"{}\", \"ph\": \"i\", \"s\": \"t\", \"ts\": {t}, \"pid\": {p}, \"tid\": {tid}, \"args\": {{\"line\": {line}}}}}", esc(text)),
                )?,
                Ev::Mem(s) => emit(
                    w,
                    format!("{{\"name\": \"{}\", \"cat\": \"memory\", \"ph\": \"i\", \"s\": \"t\", \"ts\": {t}, \"pid\": {p}, \"tid\": {tid}}}", esc(s)),
                )?,
                Ev::Block(c) => open[*k] = Some((*t, *c)),
                Ev::Release | Ev::Exit => {
                    if let Some((t0, c)) = open[*k].take() {
                        emit(
                            w,
                            format!("{{\"name\": \"blocked: {}\", \"cat\": \"stall\", \"ph\": \"X\", \"ts\": {t0}, \"dur\": {}, \"pid\": {p}, \"tid\": {tid}}}", c.name(), t - t0),
                        )?;
                    }
                    if matches!(e, Ev::Exit) {
                        emit(
                            w,
                            format!("{{\"name\": \"exit\", \"ph\": \"i\", \"s\": \"t\", \"ts\": {t}, \"pid\": {p}, \"tid\": {tid}}}"),
                        )?;
                    }
                }
            }
        }
        writeln!(w)?;
        writeln!(w, "]}}")?;
        Ok(())
    }
}

//! Prints the cycle-by-cycle diagram of docs/microarchitecture.md: two warps
//! coalescing into one GL barrier (coalesce_window = lone_window = 4). Run with
//! `cargo run -p membar-unit-env --example timeline`.

use membar_unit_env::config::Config;
use membar_unit_env::ports::{level, op, Dut, Inputs};
use membar_unit_env::MembarModel;

fn main() {
    let cfg = Config {
        coalesce_window: 4,
        lone_window: 4,
        ..Config::default()
    };
    let mut m = MembarModel::new(&cfg);
    let req = |w: u8, o: u8, l: u8, id: u16| Inputs {
        req_valid: true,
        req_warp: w,
        req_op: o,
        req_level: l,
        req_id: id,
        dn_ready: true,
        ..Inputs::default()
    };
    let idle = Inputs {
        dn_ready: true,
        ..Inputs::default()
    };
    let mut script: Vec<(Inputs, &str)> = vec![
        (req(0, op::ST, 0, 0xa0), "w0 ST data"),
        (req(0, op::MEMBAR, level::GL, 0), "w0 MEMBAR.GL"),
        (req(1, op::ST, 0, 0xb0), "w1 ST data"),
        (req(1, op::MEMBAR, level::GL, 0), "w1 MEMBAR.GL joins"),
        (req(2, op::LD, 0, 0xc0), "w2 LD (not blocked)"),
    ];
    for _ in 0..5 {
        script.push((idle, ""));
    }
    let mut a1 = idle;
    a1.ack_valid = true;
    a1.ack_tag = 0;
    script.push((a1, "ack tag 0 (w1 ST)"));
    script.push((idle, ""));
    script.push((a1, "ack tag 0 (w0 ST)"));
    script.push((a1, "ack tag 0 (w2 LD)"));
    script.push((idle, ""));
    script.push((req(0, op::ST, 0, 0xa1), "w0 ST flag"));
    script.push((idle, ""));
    println!("| cyc | input | req_ready | dn (kind tag warp id) | open | nmem | age | closed | cnt[0] | warp_blocked | release_mask |");
    println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (c, (i, what)) in script.iter().enumerate() {
        let q = m.q;
        let o = m.step(i);
        let dn = if o.dn_valid {
            let k = ["TXN", "INVAL", "BARRIER"][o.dn_kind as usize];
            if o.dn_kind == 0 {
                format!("{k} t{} w{} {:#x}", o.dn_tag, o.dn_warp, o.dn_id)
            } else {
                format!("{k} t{} {}", o.dn_tag, level::NAMES[o.dn_level as usize])
            }
        } else {
            "-".into()
        };
        println!(
            "| {c} | {what} | {} | {dn} | {} | {} | {} | {:04b} | {} | {:04b} | {:04b} |",
            if i.req_valid {
                (o.req_ready as u8).to_string()
            } else {
                "-".into()
            },
            q.open,
            q.nmem,
            q.age,
            q.closed,
            q.cnt[0],
            o.warp_blocked,
            o.release_mask
        );
    }
}

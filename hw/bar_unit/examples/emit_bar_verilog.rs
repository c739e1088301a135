//! Writes `bar_unit.v` for one configuration to stdout:
//! `cargo run --release -p bar-unit-rtl --example emit_bar_verilog -- <warps> <cta_slots>`.
fn main() {
    let a: Vec<u32> = std::env::args()
        .skip(1)
        .filter_map(|s| s.parse().ok())
        .collect();
    if a.len() != 2 {
        eprintln!("usage: emit_bar_verilog <warps> <cta_slots>");
        std::process::exit(2);
    }
    let cfg = bar_unit_model::config::BarConfig {
        warps: a[0],
        cta_slots: a[1],
    };
    match bar_unit_rtl::generate_verilog(&cfg) {
        Ok(v) => print!("{v}"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    }
}

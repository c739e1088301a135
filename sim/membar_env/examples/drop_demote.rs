//! Prints the drop/demote table of docs/exploration.md (shipped as
//! docs/results/drop_demote.md). Run with
//! `cargo run --release -p membar-unit-env --example drop_demote > docs/results/drop_demote.md`.

fn main() {
    match membar_unit_env::drop_demote::table(1) {
        Ok(t) => print!("{t}"),
        Err(e) => {
            eprintln!("drop_demote: {e}");
            std::process::exit(1);
        }
    }
}

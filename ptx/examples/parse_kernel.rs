fn main() {
    for f in std::env::args().skip(1) {
        let src = std::fs::read_to_string(&f).unwrap();
        match ptx_front::parser::parse_module(&f, &src, 1) {
            Ok(m) => println!(
                "{f}: {} entries, {} insts",
                m.entries.len(),
                m.entries.iter().map(|e| e.insts().count()).sum::<usize>()
            ),
            Err(e) => println!("{e}"),
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    let cfg = membar_sim::Config::load(std::path::Path::new(&a[1])).unwrap();
    print!("{}", membar_formal::harness::harness(&cfg));
}

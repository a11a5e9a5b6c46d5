//! Prints the speed figures: `cargo run --release -p yomi-tubstap --example tubstap_bench [map]`.
fn main() {
    let name = std::env::args().nth(1).unwrap_or_else(|| "standard".into());
    let game = match yomi_tubstap::maps::load(&name) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    for f in yomi_tubstap::bench::figures(&game) {
        println!("{f}");
    }
}

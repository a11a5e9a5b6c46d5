//! Prints the size of the compiled program of each rule sheet given on the command line.
use std::time::Instant;
fn main() {
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).expect("readable file");
        let t = Instant::now();
        match yomi_ggp::GdlGame::from_kif(&path, &text) {
            Ok(g) => println!(
                "{path}: {:?} in {:.2} s",
                g.reasoner().stats,
                t.elapsed().as_secs_f64()
            ),
            Err(e) => println!("{path}: {e}"),
        }
    }
}

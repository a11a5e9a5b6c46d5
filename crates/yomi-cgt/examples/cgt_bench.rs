//! Speed of the CGT operations on sums of random small hot games (Go-like regions):
//! canonical sums, comparisons, thermographs and cooling, with a fixed seed.
//!
//! `cargo run --release -p yomi-cgt --example cgt_bench [regions] [seed]`

use std::time::Instant;

use yomi_cgt::{Cgt, Dyadic};

/// xorshift64*: a small seeded generator (this crate depends on nothing).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
    }
}

/// A random region: a switch `{a | b}`, a gote `{{a|b} | c}` or a sente-like
/// `{a | {b|c}}`, with integer scores.
fn region(rng: &mut Rng) -> Cgt {
    let mut v = || Cgt::integer(rng.below(9) as i64 - 4);
    let (a, b, c) = (v(), v(), v());
    match rng.below(3) {
        0 => Cgt::from_options(&[a], &[b]),
        1 => Cgt::from_options(&[Cgt::from_options(&[a], &[b])], &[c]),
        _ => Cgt::from_options(&[a], &[Cgt::from_options(&[b], &[c])]),
    }
    .canonical()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let regions: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(8);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let parts: Vec<Cgt> = (0..regions).map(|_| region(&mut rng)).collect();

    let t0 = Instant::now();
    let total: Cgt = parts.iter().copied().sum();
    let sum_s = t0.elapsed().as_secs_f64();

    let t0 = Instant::now();
    let (mean, temp) = (total.mean(), total.temperature());
    let thermo_s = t0.elapsed().as_secs_f64();

    let t0 = Instant::now();
    let chilled = total.cool(Dyadic::ONE);
    let cool_s = t0.elapsed().as_secs_f64();

    let t0 = Instant::now();
    let mut confused = 0;
    for a in &parts {
        for b in &parts {
            confused += a.is_confused_with(*b) as u32;
        }
    }
    let cmp_s = t0.elapsed().as_secs_f64();

    println!(
        "regions: {regions} (seed {seed}), birthday of the sum: {}",
        total.birthday()
    );
    println!(
        "sum: {:.3} ms; options of the canonical sum: {} left, {} right",
        sum_s * 1e3,
        total.left_options().len(),
        total.right_options().len()
    );
    println!("mean {mean}, temperature {temp}: {:.3} ms", thermo_s * 1e3);
    println!(
        "cooled by 1: {:.3} ms (mean {})",
        cool_s * 1e3,
        chilled.mean()
    );
    println!(
        "{} pairwise comparisons of the regions ({confused} confused): {:.3} ms",
        regions * regions,
        cmp_s * 1e3
    );
    println!("store: {} game forms", Cgt::store_size());
}

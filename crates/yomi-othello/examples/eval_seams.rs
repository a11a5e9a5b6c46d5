//! Where the pattern evaluation's stage tables disagree: for positions of random games at
//! each number of empties, the mean of (best one-ply value − static value) for the side
//! to move, in discs. A consistent evaluation gives a small, smooth curve (the best of
//! several children is a little optimistic); a step where the children fall in another
//! stage's table (31 → 30 empties, 21 → 20, 41 → 40) is the tables' disagreement.
//! `cargo run --release -p yomi-othello --example eval_seams [games]` (default 20000).

use yomi_core::{Game, Rng};
use yomi_othello::bitboard::{flips, moves};
use yomi_othello::eval::{stage, PatternEval};
use yomi_othello::Othello;

fn main() {
    let games: u64 = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(20_000);
    let eval = PatternEval::shipped();
    let game = Othello;
    let mut rng = Rng::seed_from_u64(2026);
    let mut sum = [0f64; 61];
    let mut count = [0u64; 61];
    let mut list = Vec::new();
    for _ in 0..games {
        let mut s = game.initial_state();
        while !s.is_over() {
            let (p, o) = (s.player(), s.opponent());
            let mut legal = moves(p, o);
            if legal != 0 {
                let mut best = f32::NEG_INFINITY;
                while legal != 0 {
                    let sq = legal.trailing_zeros();
                    legal &= legal - 1;
                    let f = flips(p, o, sq);
                    best = best.max(-eval.score(o & !f, p | f | (1 << sq)));
                }
                let n = s.empty_count() as usize;
                sum[n] += f64::from(best - eval.score(p, o));
                count[n] += 1;
            }
            list.clear();
            game.legal_moves(&s, &mut list);
            game.apply(&mut s, list[rng.below(list.len())]);
        }
    }
    println!(
        "| empties | stage, children's stage | positions | mean best one-ply − static (discs) |"
    );
    println!("|---:|---|---:|---:|");
    for n in (12..=59).rev() {
        if count[n] > 0 {
            let seam = if stage(n as u32) != stage(n as u32 - 1) {
                " (seam)"
            } else {
                ""
            };
            println!(
                "| {n} | {}, {}{seam} | {} | {:+.2} |",
                stage(n as u32),
                stage(n as u32 - 1),
                count[n],
                sum[n] / count[n] as f64
            );
        }
    }
}

//! Scoring finished games: dead-stone marking by Monte Carlo ownership (heavy playouts), area (Chinese,
//! Tromp-Taylor with dead stones removed) and territory (Japanese) counts.
//!
//! Area: stones plus empty regions that reach only one colour, after removing dead stones.
//! Territory: empty regions reaching one colour (after removing dead stones) plus prisoners
//! (captured stones and dead stones). Seki needs no special case under area scoring; under
//! territory scoring an eye inside a seki is counted as territory (a known simplification).

use yomi_core::Rng;

use crate::board::{Board, MAX_AREA};
use crate::game::{GoGame, GoState};
use crate::heavy::{heavy_move, HeavyConfig};
use crate::vertex::{Color, Vertex};

/// How a finished game is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scoring {
    /// Area (Chinese / Tromp-Taylor): stones plus surrounded empty points.
    #[default]
    Area,
    /// Territory (Japanese): surrounded empty points plus prisoners.
    Territory,
}

/// Ownership statistics from heavy playouts ([`Playouts::heavy`]): for every point, the
/// fraction of playouts in which Black owned it at the end minus the fraction for White
/// (−1..1). Playouts start from
/// `state` even when two passes ended the game, and run to two passes in a row (or `3·N²`
/// moves).
pub fn ownership(game: &GoGame, state: &GoState, playouts: usize, seed: u64) -> [f32; MAX_AREA] {
    ownership_by(game, state, playouts, seed, Playouts::heavy())
}

/// Which playouts estimate ownership and dead stones.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Playouts {
    /// Uniformly random moves that fill no eye (the search's light playouts).
    Light,
    /// Heavy playouts ([`crate::heavy::heavy_move`]): captures and atari escapes, 3×3
    /// patterns, no big self-atari. They play out life and death more as players do, so a
    /// living group is less often captured by chance.
    Heavy(HeavyConfig),
}

impl Playouts {
    /// Heavy playouts with the default probabilities: what [`ownership`] and
    /// [`dead_stones`] use. Over the 99 games against GNU Go 3.8 that ended by passes (the
    /// issue 18 match records), the count with 400 heavy playouts gave GNU Go's margin in 91
    /// games (mean difference 2.0 points), with light playouts in 53 (10.0 points); both
    /// named the same winner in all 99 (`examples/score_agreement.rs`).
    pub fn heavy() -> Playouts {
        Playouts::Heavy(HeavyConfig::default())
    }
}

/// [`ownership`] with the given kind of playouts.
pub fn ownership_by(
    game: &GoGame,
    state: &GoState,
    playouts: usize,
    seed: u64,
    kind: Playouts,
) -> [f32; MAX_AREA] {
    let mut sum = [0i32; MAX_AREA];
    let mut own = [0u8; MAX_AREA];
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let n = playouts.max(1);
    let limit = 3 * game.size() * game.size();
    for _ in 0..n {
        let mut s = state.clone();
        s.reopen();
        let (mut passes, mut moves) = (0, 0);
        while passes < 2 && moves < limit {
            let mv = match &kind {
                Playouts::Light => s.random_playout_move(game.rules(), &mut rng, &mut buf),
                Playouts::Heavy(cfg) => heavy_move(&s, game.rules(), cfg, &mut rng, &mut buf),
            };
            s.apply_unchecked(mv);
            passes = if mv.is_pass() { passes + 1 } else { 0 };
            moves += 1;
        }
        s.board().owners(&mut own);
        for (t, &o) in sum.iter_mut().zip(own.iter()) {
            *t += match o {
                1 => 1,
                2 => -1,
                _ => 0,
            };
        }
    }
    let mut out = [0f32; MAX_AREA];
    for (o, &t) in out.iter_mut().zip(sum.iter()) {
        *o = t as f32 / n as f32;
    }
    out
}

/// The stones judged dead: chains whose points the opponent owns at the end of most heavy
/// playouts ([`Playouts::heavy`]) from `state` (mean ownership over the chain below −0.5 for Black stones, above
/// 0.5 for White stones). Deterministic for a given seed.
pub fn dead_stones(game: &GoGame, state: &GoState, playouts: usize, seed: u64) -> Vec<Vertex> {
    dead_stones_by(game, state, playouts, seed, Playouts::heavy())
}

/// [`dead_stones`] with the given kind of playouts.
pub fn dead_stones_by(
    game: &GoGame,
    state: &GoState,
    playouts: usize,
    seed: u64,
    kind: Playouts,
) -> Vec<Vertex> {
    let own = ownership_by(game, state, playouts, seed, kind);
    let b = state.board();
    let mut dead = Vec::new();
    let mut done = [false; MAX_AREA];
    for p in 0..MAX_AREA {
        let Some(c) = b.stone(p) else { continue };
        if done[p] {
            continue;
        }
        let mut total = 0.0f32;
        let mut stones = Vec::new();
        b.for_chain(p, |s| {
            done[s] = true;
            total += own[s];
            stones.push(s);
        });
        let mean = total / stones.len() as f32;
        let is_dead = match c {
            Color::Black => mean < -0.5,
            Color::White => mean > 0.5,
        };
        if is_dead {
            dead.extend(stones.into_iter().map(Vertex::from_index));
        }
    }
    dead.sort_unstable();
    dead
}

/// The board with the `dead` stones taken off.
pub fn without_dead(board: &Board, dead: &[Vertex]) -> Board {
    let mut b = board.clone();
    for v in dead {
        if b.on_board(v.index()) {
            b.set_raw(v.index(), 0);
        }
    }
    b.rebuild();
    b
}

/// A detailed count of a position with `dead` stones removed.
#[derive(Clone, Debug, PartialEq)]
pub struct Count {
    /// Black stones left on the board.
    pub black_stones: usize,
    /// White stones left on the board.
    pub white_stones: usize,
    /// Empty points reaching only Black.
    pub black_territory: usize,
    /// Empty points reaching only White.
    pub white_territory: usize,
    /// White stones captured or dead (Black's prisoners).
    pub black_prisoners: usize,
    /// Black stones captured or dead (White's prisoners).
    pub white_prisoners: usize,
    /// Komi.
    pub komi: f64,
}

impl Count {
    /// Counts `state` with `dead` stones removed.
    pub fn new(state: &GoState, dead: &[Vertex]) -> Count {
        let b0 = state.board();
        let dead_b = dead
            .iter()
            .filter(|v| b0.stone(v.index()) == Some(Color::Black))
            .count();
        let dead_w = dead
            .iter()
            .filter(|v| b0.stone(v.index()) == Some(Color::White))
            .count();
        let b = without_dead(b0, dead);
        let mut own = [0u8; MAX_AREA];
        b.owners(&mut own);
        let (mut bt, mut wt) = (0, 0);
        for &e in b.empty_points() {
            match own[e as usize] {
                1 => bt += 1,
                2 => wt += 1,
                _ => {}
            }
        }
        Count {
            black_stones: b.stones(Color::Black),
            white_stones: b.stones(Color::White),
            black_territory: bt,
            white_territory: wt,
            black_prisoners: b0.prisoners(Color::Black) + dead_w,
            white_prisoners: b0.prisoners(Color::White) + dead_b,
            komi: state.komi(),
        }
    }

    /// Black's lead under `scoring`, komi included (positive: Black wins).
    pub fn score(&self, scoring: Scoring) -> f64 {
        let lead = match scoring {
            Scoring::Area => {
                (self.black_stones + self.black_territory) as f64
                    - (self.white_stones + self.white_territory) as f64
            }
            Scoring::Territory => {
                (self.black_territory + self.black_prisoners) as f64
                    - (self.white_territory + self.white_prisoners) as f64
            }
        };
        lead - self.komi
    }
}

/// A score as GTP and SGF write it: `B+3.5`, `W+0.5`, `0` for a jigo.
pub fn format_score(score: f64) -> String {
    if score > 0.0 {
        format!("B+{score}")
    } else if score < 0.0 {
        format!("W+{}", -score)
    } else {
        "0".to_string()
    }
}

//! Prior knowledge at expansion (Gelly & Silver 2007's heuristic MC-RAVE, michi's and
//! Pachi's priors): when a node is expanded, each child gets a prior value in `[0, 1]`
//! that [`yomi_core::search::mcts::Rave`] counts as `prior_visits` virtual visits, so good
//! shapes are tried first and hopeless moves wait until the statistics say otherwise.
//!
//! Values (the highest rule wins, then the penalties cap it):
//! - 0.5 for any move (an even game), 0.6 within two points (Manhattan) of the last move;
//! - 0.7 for a move whose 3×3 neighbourhood matches a MoGo pattern ([`crate::heavy`]);
//! - 0.8 for saving an own chain in atari (extending out of it or capturing next to it),
//!   0.85 for capturing a chain, 0.9 when the capture takes two or more stones;
//! - at most 0.1 for a self-atari of two or more stones, 0.35 for a single-stone
//!   self-atari that captures nothing;
//! - at most 0.2 on the first line and 0.4 on the second when nothing is within two
//!   points (empty-area moves on the edge are wasted early in the game);
//! - pass 0.2 while more than a third of the board is empty, else 0.5.
//!
//! Thread safety: plain data; each search worker owns a copy.

use yomi_core::search::mcts::{EdgeSlot, Expander};
use yomi_core::{Player, Rng};

use crate::board::Board;
use crate::game::{GoGame, GoState};
use crate::heavy::pattern_matches;
use crate::vertex::{Color, Vertex};

/// The Go priors as an [`Expander`] (see the module docs).
#[derive(Clone, Copy, Debug, Default)]
pub struct GoPriors;

/// Prior values per point for the side `c` to move: 0 for "no capture or escape here",
/// else the value that the capture/escape rules give.
fn tactical_values(b: &Board, c: Color, out: &mut [f32; crate::board::MAX_AREA]) {
    let w = b.stride();
    let n = b.size();
    let mut seen = [false; crate::board::MAX_AREA];
    for y in 0..n {
        for x in 0..n {
            let p = b.index(x, y);
            let Some(k) = b.stone(p) else {
                continue;
            };
            if seen[p] {
                continue;
            }
            b.for_chain(p, |s| seen[s] = true);
            let mut libs = [0usize; 2];
            if b.chain_libs_upto3(p, &mut libs) != 1 {
                continue;
            }
            let lib = libs[0];
            if k != c {
                let v = if b.chain_size(p) >= 2 { 0.9 } else { 0.85 };
                out[lib] = out[lib].max(v);
                continue;
            }
            // Own chain in atari: extend, or capture a neighbour in atari.
            if b.self_atari_size(lib, c) == 0 {
                out[lib] = out[lib].max(0.8);
            }
            b.for_chain(p, |s| {
                for t in [s - w, s - 1, s + 1, s + w] {
                    if b.stone(t) == Some(c.opponent()) {
                        let mut l2 = [0usize; 2];
                        if b.chain_libs_upto3(t, &mut l2) == 1 {
                            out[l2[0]] = out[l2[0]].max(0.85);
                        }
                    }
                }
            });
        }
    }
}

/// Whether any stone lies within Manhattan distance 2 of `p`.
fn stones_near(b: &Board, p: usize) -> bool {
    let (x, y) = b.coords(p);
    let n = b.size() as isize;
    for dy in -2isize..=2 {
        for dx in -2isize..=2 {
            if dx.abs() + dy.abs() > 2 {
                continue;
            }
            let (qx, qy) = (x as isize + dx, y as isize + dy);
            if qx < 0 || qy < 0 || qx >= n || qy >= n {
                continue;
            }
            if b.stone(b.index(qx as usize, qy as usize)).is_some() {
                return true;
            }
        }
    }
    false
}

/// The prior value of `mv` for the side to move in `state` (see the module docs), given
/// the tactical values of [`tactical_values`].
fn prior_value(state: &GoState, mv: Vertex, tactical: &[f32; crate::board::MAX_AREA]) -> f32 {
    let b = state.board();
    let c = b.to_move();
    if mv.is_pass() {
        let area = b.size() * b.size();
        return if b.empty_count() * 3 > area { 0.2 } else { 0.5 };
    }
    let p = mv.index();
    let mut v: f32 = 0.5;
    let last = state.last_move();
    if !last.is_pass() {
        let (x, y) = b.coords(p);
        let (lx, ly) = b.coords(last.index());
        if x.abs_diff(lx) + y.abs_diff(ly) <= 2 {
            v = 0.6;
        }
    }
    if pattern_matches(b.neighbourhood(p)) {
        v = v.max(0.7);
    }
    v = v.max(tactical[p]);
    let sa = b.self_atari_size(p, c);
    if sa >= 2 {
        v = v.min(0.1);
    } else if sa == 1 && tactical[p] == 0.0 {
        v = v.min(0.35);
    }
    let line = b.line(p);
    if line <= 1 && !stones_near(b, p) {
        v = v.min(if line == 0 { 0.2 } else { 0.4 });
    }
    v
}

impl Expander<GoGame> for GoPriors {
    fn expand(
        &mut self,
        _: &GoGame,
        state: &GoState,
        _: Player,
        slots: &mut [EdgeSlot<Vertex>],
        _: &mut Rng,
    ) {
        let mut tactical = [0f32; crate::board::MAX_AREA];
        tactical_values(state.board(), state.to_move(), &mut tactical);
        for s in slots.iter_mut() {
            s.prior = prior_value(state, s.mv, &tactical);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yomi_core::Game;

    fn priors(game: &GoGame, st: &GoState) -> Vec<(Vertex, f32)> {
        let mut moves = Vec::new();
        game.search_moves(st, &mut moves);
        let mut slots: Vec<EdgeSlot<Vertex>> = moves
            .iter()
            .map(|&mv| EdgeSlot {
                mv,
                prior: 0.0,
                eval: 0.0,
            })
            .collect();
        let mut rng = Rng::seed_from_u64(0);
        GoPriors.expand(game, st, Player(0), &mut slots, &mut rng);
        slots.iter().map(|s| (s.mv, s.prior)).collect()
    }

    #[test]
    fn capture_beats_edge_and_pass_early() {
        let game = GoGame::new(9).unwrap();
        let mut st = game.initial_state();
        // White D5 surrounded on three sides by Black C5, D6, E5: Black to capture at D4.
        for (m, c) in [
            ("C5", Color::Black),
            ("D6", Color::Black),
            ("E5", Color::Black),
            ("D5", Color::White),
        ] {
            st.board.set_to_move(c);
            st.apply_unchecked(game.parse_vertex(m).unwrap());
        }
        st.board.set_to_move(Color::Black);
        let p = priors(&game, &st);
        let get = |m: &str| {
            let v = if m == "pass" {
                Vertex::PASS
            } else {
                game.parse_vertex(m).unwrap()
            };
            p.iter().find(|x| x.0 == v).unwrap().1
        };
        assert!(get("D4") >= 0.85, "capture {}", get("D4"));
        assert!(get("A1") <= 0.2, "empty corner {}", get("A1"));
        assert!(get("B8") <= 0.4, "second line {}", get("B8"));
        assert!(get("pass") <= 0.2);
        assert!(get("G3") == 0.5);
    }
}

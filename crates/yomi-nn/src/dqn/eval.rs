//! Evaluation against the uniformly random agent, as in the paper's preliminary
//! experiment: the network plays greedily (over legal moves when masked, over every policy
//! index otherwise), game `i` as the first player when `i` is even; an index that is no
//! legal move's is counted and replaced by a uniformly random legal move.
//!
//! Many games run side by side so that the network sees one batch per step; game `i` draws
//! from its own generator (derived from the seed and `i`), so the result does not depend on
//! how many run at once.

use yomi_core::arena::wilson_interval;
use yomi_core::rng::derive_seed;
use yomi_core::{Player, Rng, TensorGame, Turn};

use super::qnet::{QNet, QNetSpec};
use super::{greedy, LegalSet};
use crate::selfplay::outcome_for;

/// The normal quantile of a 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// What an evaluation counted, for the network's side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EvalStats {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Moves the network chose.
    pub decisions: u64,
    /// Choices that were no legal move's index (replaced by a random legal move).
    pub illegal: u64,
    /// Decisions where the unrestricted argmax over every index was illegal (equal to
    /// `illegal` for an unmasked network; for a masked one it shows how little its
    /// illegal outputs mean).
    pub argmax_illegal: u64,
}

impl EvalStats {
    /// Win rate and its 95 % Wilson interval.
    pub fn win_rate(&self) -> [f64; 3] {
        rate(self.wins as f64, self.games)
    }

    /// Win-or-draw rate and its 95 % Wilson interval.
    pub fn win_draw_rate(&self) -> [f64; 3] {
        rate((self.wins + self.draws) as f64, self.games)
    }

    /// Illegal choices per decision and the 95 % Wilson interval.
    pub fn illegal_rate(&self) -> [f64; 3] {
        rate(self.illegal as f64, self.decisions)
    }

    /// Illegal unrestricted argmax per decision.
    pub fn argmax_illegal_rate(&self) -> f64 {
        self.argmax_illegal as f64 / self.decisions.max(1) as f64
    }
}

fn rate(points: f64, n: u64) -> [f64; 3] {
    let (lo, hi) = wilson_interval(points, n, Z95);
    [points / n.max(1) as f64, lo, hi]
}

struct Slot<G: TensorGame> {
    state: G::State,
    me: Player,
    rng: Rng,
}

/// Plays `games` games of `net` against the uniformly random agent, at most `envs` at a
/// time, and counts the results. See the [module documentation](self).
#[allow(clippy::too_many_arguments)] // the evaluation's settings, each used once
pub fn evaluate_vs_random<G: TensorGame>(
    game: &G,
    net: &QNet,
    spec: &QNetSpec,
    masked: bool,
    games: usize,
    envs: usize,
    seed: u64,
) -> EvalStats {
    let plane_len = spec.plane_len();
    let envs = envs.clamp(1, games.max(1));
    let mut slots: Vec<Option<Slot<G>>> = (0..envs).map(|_| None).collect();
    let mut legal = LegalSet::new(spec.policy_size);
    let mut input = vec![0.0f32; envs * plane_len];
    let mut waiting: Vec<usize> = Vec::with_capacity(envs);
    let mut q = Vec::new();
    let mut stats = EvalStats::default();
    let mut started = 0usize;
    let finish = |stats: &mut EvalStats, state: &G::State, me: Player| {
        let r = outcome_for(game, state, me);
        stats.games += 1;
        if r > 0.0 {
            stats.wins += 1;
        } else if r < 0.0 {
            stats.losses += 1;
        } else {
            stats.draws += 1;
        }
    };
    loop {
        waiting.clear();
        for (k, slot) in slots.iter_mut().enumerate() {
            if slot.is_none() && started < games {
                *slot = Some(Slot {
                    state: game.initial_state(),
                    me: Player((started % 2) as u8),
                    rng: Rng::seed_from_u64(derive_seed(seed, started as u64)),
                });
                started += 1;
            }
            let Some(s) = slot else { continue };
            // The random agent moves until it is the network's turn or the game is over.
            loop {
                match game.turn(&s.state) {
                    Turn::Player(p) if p == s.me => {
                        input[waiting.len() * plane_len..(waiting.len() + 1) * plane_len]
                            .iter_mut()
                            .for_each(|v| *v = 0.0);
                        game.encode(
                            &s.state,
                            p,
                            &mut input[waiting.len() * plane_len..(waiting.len() + 1) * plane_len],
                        );
                        waiting.push(k);
                        break;
                    }
                    Turn::Player(_) => {
                        legal.fill(game, &s.state);
                        let Some(&mv) = s.rng.choose(&legal.moves) else {
                            // A game bug (a live state without moves): score it as a draw.
                            stats.games += 1;
                            stats.draws += 1;
                            *slot = None;
                            break;
                        };
                        game.apply(&mut s.state, mv);
                    }
                    Turn::Terminal | Turn::Simultaneous => {
                        finish(&mut stats, &s.state, s.me);
                        *slot = None;
                        break;
                    }
                }
            }
        }
        if waiting.is_empty() {
            if started >= games && slots.iter().all(Option::is_none) {
                break;
            }
            continue;
        }
        net.infer_into(spec, &input, waiting.len(), &mut q);
        for (row, &k) in waiting.iter().enumerate() {
            let s = slots[k].as_mut().expect("a waiting slot holds a game");
            let qs = &q[row * spec.policy_size..(row + 1) * spec.policy_size];
            legal.fill(game, &s.state);
            let Some(raw) = greedy(qs, None) else {
                continue;
            };
            let raw_legal = legal.move_of(raw).is_some();
            let choice = if masked {
                greedy(qs, Some(&legal.mask))
            } else {
                Some(raw)
            };
            stats.decisions += 1;
            stats.argmax_illegal += u64::from(!raw_legal);
            let mv = match choice.and_then(|i| legal.move_of(i)) {
                Some(mv) => mv,
                None => {
                    stats.illegal += 1;
                    match s.rng.choose(&legal.moves) {
                        Some(&mv) => mv,
                        None => {
                            stats.games += 1;
                            stats.draws += 1;
                            slots[k] = None;
                            continue;
                        }
                    }
                }
            };
            game.apply(&mut s.state, mv);
        }
    }
    stats
}

//! Difference-game playouts (Nakamura and Ishida, GPW 2015): MCTS over the real position G
//! whose playouts are played on G together with Ḡ, the colour-reversed search root.
//!
//! The tree searches G as usual. At a leaf, [`DiffPlayout`] plays one light playout on the
//! sum G_leaf + Ḡ_root:
//! 1. Ḡ is the search root with colours reversed ([`GoState::reversed`]): G + Ḡ = 0.
//! 2. The player to move picks a board and plays there; candidates are the light-playout
//!    moves of both boards (a board is drawn with probability proportional to its empty
//!    points, the other is tried when it has no move), pass only when neither board has one.
//! 3. The first player's first move is in G: it is the tree's move at the root.
//! 4. If the second player is the first to play in Ḡ, the mirror of the root move (the same
//!    point in Ḡ) is forbidden for that move.
//! 5. Each board keeps its own ko point, valid only for the next move of the sum game; two
//!    passes in a row end the sum game (a pass is a pass on both boards).
//! 6. The result is the sign of the summed area scores, Black's view: komi cancels.
//!
//! So a playout judges whether the root move is bigger than the root player's alternatives,
//! which is what endgame (yose) play needs when every move wins or every move loses.
//!
//! The search root reaches the playouts through [`LeafEvaluator::begin_search`], which core
//! calls at the start of every search: `DiffPlayout` builds Ḡ there, so [`DiffMctsAgent`]
//! keeps one core [`Mcts`] for the whole game (without tree reuse: the values in a tree are
//! relative to its own root). Terminal nodes of the tree (two passes in G) are judged the
//! same way as playouts, on G + Ḡ ([`LeafEvaluator::evaluate_terminal`]). The root move of a
//! line is read from the leaf with [`GoState::line_first_move`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use yomi_core::bench::Figure;
use yomi_core::registry::{builder, AgentRegistry};
use yomi_core::search::mcts::{LeafEvaluator, Mcts, MctsParams, NoExpander, Ucb1};
use yomi_core::search::Budget;
use yomi_core::spec::{ParamDoc, SpecError};
use yomi_core::{Agent, AgentError, Game, Player, Rewards, Rng};

use crate::board::MAX_AREA;
use crate::game::{GoGame, GoState};
use crate::heavy::{amaf_point_key, light_move, local_move, HeavyConfig};
use crate::vertex::{Color, Vertex};

/// How a difference-game playout picks its moves on the two boards.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DiffPolicy {
    /// Light moves ([`GoState::random_playout_move`]) on a board drawn by its empty points:
    /// the paper's playout.
    Light,
    /// Heavy moves ([`crate::heavy`]): the local rules (capture / escape atari, 3×3
    /// patterns) answer the previous move of the sum game on the board it was played on;
    /// otherwise a light move without big self-ataris on a board drawn by its empty points.
    Heavy(HeavyConfig),
}

/// The difference-game playout; see the [module docs](self).
#[derive(Clone, Debug)]
pub struct DiffPlayout {
    /// Ḡ: the search root with colours reversed.
    pub reversed_root: Arc<GoState>,
    /// The colour to move at the search root (the first player).
    pub first_player: Color,
    /// How moves are picked.
    pub policy: DiffPolicy,
    /// The last playout's moves on G, as AMAF keys (player, point index).
    played: Vec<(u8, u32)>,
}

impl DiffPlayout {
    /// The paper's (light) playout for searches from `root`.
    pub fn new(root: &GoState) -> Self {
        Self::with_policy(root, DiffPolicy::Light)
    }

    /// The playout for searches from `root` with the given move policy.
    pub fn with_policy(root: &GoState, policy: DiffPolicy) -> Self {
        DiffPlayout {
            reversed_root: Arc::new(root.reversed()),
            first_player: root.to_move(),
            policy,
            played: Vec::with_capacity(512),
        }
    }

    /// Plays the sum game from `g` (the leaf) and the stored Ḡ; returns Black's summed area
    /// lead (komi cancels) and the number of moves played. The moves on G are kept for
    /// [`LeafEvaluator::amaf_moves`].
    pub fn play_sum(
        &mut self,
        game: &GoGame,
        g: &mut GoState,
        rng: &mut Rng,
        buf: &mut Vec<Vertex>,
    ) -> (i32, usize) {
        self.played.clear();
        let mut gb: GoState = (*self.reversed_root).clone();
        let rules = game.rules();
        let mirror = g.line_first_move().filter(|v| !v.is_pass());
        let mut gbar_fresh = true;
        let mut mover = g.to_move();
        let mut passes = g.passes().min(1);
        let limit = 2 * game.max_moves();
        let mut moves = 0;
        // The board of the sum game's previous move (true: G), for the heavy local rules.
        let mut last_in_g: Option<bool> = None;
        while passes < 2 && moves < limit {
            let mut chosen = None;
            if let (DiffPolicy::Heavy(cfg), Some(in_g)) = (&self.policy, last_in_g) {
                // A local answer on the board just played on. That board is never a fresh
                // Ḡ, so the mirror rule below cannot apply to it.
                let board: &mut GoState = if in_g { &mut *g } else { &mut gb };
                if board.to_move() != mover {
                    board.board.set_to_move(mover);
                }
                chosen = local_move(board, rules, cfg, rng).map(|mv| (in_g, mv));
            }
            if chosen.is_none() {
                let ng = g.board().empty_points().len();
                let nb = gb.board().empty_points().len();
                let first_g = ng + nb == 0 || rng.below(ng + nb) < ng;
                for in_g in [first_g, !first_g] {
                    let board: &mut GoState = if in_g { &mut *g } else { &mut gb };
                    if board.to_move() != mover {
                        board.board.set_to_move(mover);
                    }
                    let mut mv = match &self.policy {
                        DiffPolicy::Light => board.random_playout_move(rules, rng, buf),
                        DiffPolicy::Heavy(cfg) => light_move(board, rules, cfg, rng, buf),
                    };
                    if !in_g && gbar_fresh && mover != self.first_player && Some(mv) == mirror {
                        // The mirror reply is forbidden: draw uniformly from the other
                        // candidates.
                        board.playout_candidates(rules, buf);
                        buf.retain(|&v| Some(v) != mirror);
                        mv = rng.choose(buf).copied().unwrap_or(Vertex::PASS);
                    }
                    if !mv.is_pass() {
                        chosen = Some((in_g, mv));
                        break;
                    }
                }
            }
            match chosen {
                Some((in_g, mv)) => {
                    if in_g {
                        g.apply_unchecked(mv);
                        self.played.push((mover.player().0, mv.index() as u32));
                    } else {
                        gb.apply_unchecked(mv);
                        gbar_fresh = false;
                    }
                    last_in_g = Some(in_g);
                    passes = 0;
                }
                None => {
                    last_in_g = None;
                    passes += 1;
                }
            }
            mover = mover.opponent();
            moves += 1;
        }
        (g.board().area_score() + gb.board().area_score(), moves)
    }
}

impl LeafEvaluator<GoGame> for DiffPlayout {
    /// Builds Ḡ from the search root.
    fn begin_search(&mut self, _: &GoGame, root: &GoState) {
        self.reversed_root = Arc::new(root.reversed());
        self.first_player = root.to_move();
    }

    /// A terminal node of the tree (G ended by two passes, or the move limit) ends the sum
    /// game too: judged by the summed area of G and the untouched Ḡ.
    fn evaluate_terminal(&mut self, _: &GoGame, state: &GoState) -> Rewards {
        let lead = state.board().area_score() + self.reversed_root.board().area_score();
        Rewards::zero_sum(lead.signum() as f64)
    }

    fn evaluate(
        &mut self,
        game: &GoGame,
        state: &mut GoState,
        rng: &mut Rng,
        buf: &mut Vec<Vertex>,
    ) -> Rewards {
        let (lead, _) = self.play_sum(game, state, rng, buf);
        Rewards::zero_sum(lead.signum() as f64)
    }

    fn amaf_key(&self, _: &GoGame, mv: Vertex) -> Option<u32> {
        amaf_point_key(mv)
    }

    fn amaf_key_count(&self, _: &GoGame) -> usize {
        MAX_AREA
    }

    /// The playout's moves on G only: a move on Ḡ is on another board.
    fn amaf_moves(&self) -> &[(u8, u32)] {
        &self.played
    }
}

/// MCTS (UCB1 tree over G) with difference-game playouts: one core search kept for the game,
/// Ḡ rebuilt at the start of every search.
pub struct DiffMctsAgent {
    mcts: Mcts<GoGame, Ucb1, DiffPlayout, NoExpander>,
    name: String,
}

impl DiffMctsAgent {
    /// An agent for `game` searching with `params` (tree reuse is switched off) and
    /// exploration constant `c`.
    pub fn new(game: &GoGame, mut params: MctsParams, c: f64, seed: u64, name: String) -> Self {
        params.reuse_tree = false;
        DiffMctsAgent {
            mcts: Mcts::new(
                params,
                Ucb1 { c },
                DiffPlayout::new(&game.initial_state()),
                NoExpander,
                seed,
            ),
            name,
        }
    }

    /// The core search (its workers' evaluators learn each root in `begin_search`).
    pub fn search(&mut self) -> &mut Mcts<GoGame, Ucb1, DiffPlayout, NoExpander> {
        &mut self.mcts
    }
}

impl Agent<GoGame> for DiffMctsAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &GoGame,
        state: &GoState,
        player: Player,
    ) -> Result<Vertex, AgentError> {
        // The root starts a new search line, so leaves can tell the root move of their line.
        let mut root = state.clone();
        root.begin_line();
        let r = self.mcts.search_for(game, &root, player);
        self.mcts
            .choose(&r)
            .ok_or_else(|| AgentError::NoMove(format!("{player} has no legal move")))
    }
}

const DIFF_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "iters",
        default: "10000",
        help: "iterations (difference-game playouts) per move",
    },
    ParamDoc {
        key: "time",
        default: "-",
        help: "seconds per move (with iters: whichever ends first)",
    },
    ParamDoc {
        key: "c",
        default: "0.7071",
        help: "UCB1 exploration constant (rewards in [0,1])",
    },
    ParamDoc {
        key: "threads",
        default: "1",
        help: "worker threads (root parallelism)",
    },
];

/// Registers `diffmcts` in `r`.
pub fn register(r: &mut AgentRegistry<GoGame>) {
    r.register(
        "diffmcts",
        "MCTS whose playouts play the position plus its colour reversal (difference game), judged by the summed score",
        DIFF_PARAMS.to_vec(),
        Arc::new(|_, _, p| {
            let name = p.spec().to_string();
            let iters: u64 = p.get("iters", 10_000, "a positive integer")?;
            let time: Option<f64> = p.get_opt("time", "seconds")?;
            let c: f64 = p.get("c", std::f64::consts::FRAC_1_SQRT_2, "a number")?;
            let threads: usize = p.get("threads", 1, "a positive integer")?;
            let bad_c = c.is_nan() || c < 0.0;
            let bad_time = time.is_some_and(|t| t.is_nan() || t <= 0.0);
            if iters == 0 || threads == 0 || bad_c || bad_time {
                return Err(SpecError::BadValue {
                    agent: "diffmcts".into(),
                    key: "iters/threads/c/time".into(),
                    value: format!(
                        "{iters}/{threads}/{c}/{}",
                        time.map_or_else(|| "none".to_string(), |t| t.to_string())
                    ),
                    expected: "positive iters, threads and time, c >= 0".into(),
                });
            }
            let params = MctsParams {
                budget: Budget {
                    iterations: Some(iters),
                    time: time.map(Duration::from_secs_f64),
                },
                threads,
                reuse_tree: false,
                all_legal_moves: true,
                ..MctsParams::default()
            };
            Ok(builder(move |game, seed| {
                Box::new(DiffMctsAgent::new(game, params.clone(), c, seed, name.clone()))
            }))
        }),
    );
}

/// Two-board playouts per second from `state` (G plus its reversal, the difference-game
/// playout) for at least `min_time` on one thread.
pub fn diff_playouts(game: &GoGame, state: &GoState, min_time: Duration, seed: u64) -> Figure {
    let cpu0 = crate::bench::thread_cpu_seconds();
    let start = Instant::now();
    let mut playout = DiffPlayout::new(state);
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::with_capacity(400);
    let mut n = 0u64;
    let mut moves = 0usize;
    loop {
        let mut g = state.clone();
        let (lead, m) = playout.play_sum(game, &mut g, &mut rng, &mut buf);
        std::hint::black_box(lead);
        moves += m;
        n += 1;
        if n % 64 == 0 && start.elapsed() >= min_time {
            break;
        }
    }
    let secs = match (cpu0, crate::bench::thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    Figure {
        what: format!(
            "{} difference-game (two-board) playouts ({:.1} moves each)",
            game.facts().name,
            moves as f64 / n as f64
        ),
        value: n as f64 / secs,
        unit: "playouts/s",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heavy::HeavyConfig;

    /// RAVE's playout moves of a difference-game playout are exactly the moves played on G,
    /// in order (none of Ḡ's, which are on another board): replayed from the leaf they give
    /// the final G.
    #[test]
    fn difference_playouts_give_rave_the_moves_on_g_only() {
        let g = GoGame::new(7).unwrap();
        let mut root = g
            .parse_state(".X.O.../XX.OO../..XO.../.XXOO../..XO.O./XXO..../....... b - 7.5")
            .unwrap();
        root.begin_line();
        for policy in [DiffPolicy::Light, DiffPolicy::Heavy(HeavyConfig::default())] {
            let mut p = DiffPlayout::with_policy(&root, policy);
            p.begin_search(&g, &root);
            let mut rng = Rng::seed_from_u64(11);
            let mut buf = Vec::new();
            for _ in 0..50 {
                let mut leaf = root.clone();
                let mv = g.parse_move(&leaf, "E2").unwrap();
                g.apply(&mut leaf, mv);
                let mut end = leaf.clone();
                p.evaluate(&g, &mut end, &mut rng, &mut buf);
                let moves = p.amaf_moves().to_vec();
                assert!(!moves.is_empty(), "{policy:?}: no move on G");
                let mut replay = leaf.clone();
                for &(player, key) in &moves {
                    let colour = if player == 0 {
                        Color::Black
                    } else {
                        Color::White
                    };
                    replay.board.set_to_move(colour);
                    assert!(
                        replay.board().is_legal(key as usize, colour, false),
                        "{policy:?}: a recorded move is not legal on G"
                    );
                    replay.apply_unchecked(Vertex::from_index(key as usize));
                }
                assert_eq!(
                    replay.board().area_score(),
                    end.board().area_score(),
                    "{policy:?}"
                );
                assert_eq!(
                    g.format_state(&replay).split(' ').next(),
                    g.format_state(&end).split(' ').next(),
                    "{policy:?}: the recorded moves are G's"
                );
            }
        }
    }
}

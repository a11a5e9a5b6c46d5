//! Negamax alpha-beta with a transposition table and iterative deepening, for two-player
//! zero-sum games with sequential moves (the same player may move several times in a row:
//! the sign flips only when the mover changes).
//!
//! Values are in the game's reward units, from the point of view of the player to move.
//! Leaves at the depth limit are scored by an [`Evaluator`].

use std::time::Instant;

use crate::game::{Game, Turn};
use crate::player::Player;
use crate::rng::Rng;
use crate::search::{Budget, Evaluator};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

#[derive(Clone, Copy)]
struct Entry<M> {
    key: u64,
    depth: u32,
    bound: Bound,
    value: f64,
    best: Option<M>,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct AlphaBetaResult<M> {
    /// The best move, if the position has moves.
    pub best: Option<M>,
    /// Its value for the player to move.
    pub value: f64,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
}

/// Alpha-beta search state: the transposition table persists between searches.
pub struct AlphaBeta<G: Game, E> {
    evaluator: E,
    table: Vec<Option<Entry<G::Move>>>,
    mask: u64,
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    aborted: bool,
    rng: Rng,
}

impl<G: Game, E: Evaluator<G>> AlphaBeta<G, E> {
    /// A search with a table of `2^table_bits` entries.
    pub fn new(evaluator: E, table_bits: u32, seed: u64) -> Self {
        AlphaBeta {
            evaluator,
            table: vec![None; 1 << table_bits],
            mask: (1u64 << table_bits) - 1,
            nodes: 0,
            deadline: None,
            node_limit: None,
            aborted: false,
            rng: Rng::seed_from_u64(seed),
        }
    }

    /// Caps each later search at `limit` nodes (`None`, the default: no cap). A search
    /// that reaches the cap stops as one out of time does and answers with its deepest
    /// finished iteration. Unlike a time limit the cap gives the same answer on any machine
    /// under any load (same position, seed and earlier searches), which makes replies
    /// reproducible; unlike [`Budget::iterations`], which only stops the deepening once an
    /// iteration has passed it, it also ends an iteration part-way.
    pub fn set_node_limit(&mut self, limit: Option<u64>) {
        self.node_limit = limit;
    }

    /// Searches `state` by iterative deepening up to `max_depth` turns or the budget's time.
    /// Root moves are tried in a seeded random order, so equal-valued moves vary by seed.
    ///
    /// # Panics
    /// If the game is not a two-player game with sequential moves.
    pub fn search(
        &mut self,
        game: &G,
        state: &G::State,
        max_depth: u32,
        budget: Budget,
    ) -> AlphaBetaResult<G::Move> {
        assert_eq!(
            game.facts().players,
            2,
            "alpha-beta needs a two-player zero-sum game"
        );
        let start = Instant::now();
        self.deadline = budget.deadline(start);
        self.aborted = false;
        self.nodes = 0;
        let mut root_moves = Vec::new();
        if let Turn::Player(_) = game.turn(state) {
            game.legal_moves(state, &mut root_moves);
        }
        self.rng.shuffle(&mut root_moves);
        let (lo, hi) = game.facts().reward_bounds;
        let mut result = AlphaBetaResult {
            best: root_moves.first().copied(),
            value: 0.0,
            depth: 0,
            nodes: 0,
        };
        for depth in 1..=max_depth.max(1) {
            let mut alpha = lo - 1.0;
            let mut best = None;
            // Previous best first.
            if let Some(b) = result.best {
                if let Some(i) = root_moves.iter().position(|&m| m == b) {
                    root_moves[..=i].rotate_right(1);
                }
            }
            let mover = self.mover(game, state);
            for &mv in &root_moves {
                let mut child = state.clone();
                game.apply(&mut child, mv);
                let v = self.child_value(game, &child, mover, depth - 1, alpha, hi + 1.0);
                if self.aborted {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    best = Some(mv);
                }
            }
            if self.aborted {
                break;
            }
            result = AlphaBetaResult {
                best,
                value: alpha,
                depth,
                nodes: self.nodes,
            };
            if budget.iterations.is_some_and(|n| self.nodes >= n) {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn mover(&self, game: &G, state: &G::State) -> Player {
        match game.turn(state) {
            Turn::Player(p) => p,
            _ => Player(0),
        }
    }

    /// The value of `child` for `parent_mover`.
    fn child_value(
        &mut self,
        game: &G,
        child: &G::State,
        parent_mover: Player,
        depth: u32,
        alpha: f64,
        beta: f64,
    ) -> f64 {
        match game.turn(child) {
            Turn::Player(p) if p != parent_mover => {
                -self.negamax(game, child, depth, -beta, -alpha)
            }
            Turn::Player(_) => self.negamax(game, child, depth, alpha, beta),
            _ => {
                self.nodes += 1;
                game.returns(child).get(parent_mover)
            }
        }
    }

    fn negamax(
        &mut self,
        game: &G,
        state: &G::State,
        depth: u32,
        mut alpha: f64,
        beta: f64,
    ) -> f64 {
        self.nodes += 1;
        if self.node_limit.is_some_and(|n| self.nodes > n) {
            self.aborted = true;
        }
        if self.nodes % 1024 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        if self.aborted {
            return 0.0;
        }
        let mover = match game.turn(state) {
            Turn::Player(p) => p,
            Turn::Terminal => return game.returns(state).get(self.mover(game, state)),
            Turn::Simultaneous => panic!("alpha-beta cannot search simultaneous moves"),
        };
        if depth == 0 {
            return self.evaluator.evaluate(game, state).get(mover);
        }
        let key = game.hash(state);
        let slot = (key & self.mask) as usize;
        let mut tt_move = None;
        if let Some(e) = self.table[slot] {
            if e.key == key {
                tt_move = e.best;
                if e.depth >= depth {
                    match e.bound {
                        Bound::Exact => return e.value,
                        Bound::Lower if e.value >= beta => return e.value,
                        Bound::Upper if e.value <= alpha => return e.value,
                        _ => {}
                    }
                }
            }
        }
        let mut moves = Vec::new();
        game.legal_moves(state, &mut moves);
        if let Some(t) = tt_move {
            if let Some(i) = moves.iter().position(|&m| m == t) {
                moves.swap(0, i);
            }
        }
        let alpha0 = alpha;
        let mut best_value = f64::NEG_INFINITY;
        let mut best_move = None;
        for &mv in &moves {
            let mut child = state.clone();
            game.apply(&mut child, mv);
            let v = self.child_value(game, &child, mover, depth - 1, alpha, beta);
            if self.aborted {
                return 0.0;
            }
            if v > best_value {
                best_value = v;
                best_move = Some(mv);
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta {
                break;
            }
        }
        let bound = if best_value <= alpha0 {
            Bound::Upper
        } else if best_value >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Some(Entry {
            key,
            depth,
            bound,
            value: best_value,
            best: best_move,
        });
        best_value
    }
}

/// An agent playing alpha-beta to a fixed depth (and optionally a time limit).
pub struct AlphaBetaAgent<G: Game, E> {
    search: AlphaBeta<G, E>,
    depth: u32,
    budget: Budget,
    name: String,
}

impl<G: Game, E: Evaluator<G>> AlphaBetaAgent<G, E> {
    /// Searches to `depth` turns within `budget`.
    pub fn new(evaluator: E, depth: u32, budget: Budget, seed: u64, name: String) -> Self {
        AlphaBetaAgent {
            search: AlphaBeta::new(evaluator, 20, seed),
            depth,
            budget,
            name,
        }
    }
}

impl<G: Game, E: Evaluator<G>> crate::agent::Agent<G> for AlphaBetaAgent<G, E> {
    fn name(&self) -> String {
        self.name.clone()
    }
    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, crate::AgentError> {
        self.search
            .search(game, state, self.depth, self.budget)
            .best
            .ok_or_else(|| crate::AgentError::NoMove(format!("{player} has no legal move")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::NeutralEvaluator;
    use crate::testing::Nim;

    #[test]
    fn solves_nim() {
        for heap in 1..=13u32 {
            let game = Nim::new(heap);
            let mut ab = AlphaBeta::new(NeutralEvaluator::new(), 12, heap as u64);
            let r = ab.search(
                &game,
                &game.initial_state(),
                heap,
                Budget {
                    iterations: None,
                    time: None,
                },
            );
            let expect = if heap % 4 == 0 { -1.0 } else { 1.0 };
            assert_eq!(r.value, expect, "heap {heap}");
            if heap % 4 != 0 {
                assert_eq!(r.best, Some(heap % 4), "heap {heap}");
            }
        }
    }

    #[test]
    fn node_limit_ends_an_iteration_part_way_and_repeats_exactly() {
        let game = Nim::new(40);
        let unlimited = Budget {
            iterations: None,
            time: None,
        };
        let full = AlphaBeta::new(NeutralEvaluator::new(), 12, 3).search(
            &game,
            &game.initial_state(),
            40,
            unlimited,
        );
        assert!(full.nodes > 1_000, "{} nodes", full.nodes);
        let capped = |limit| {
            let mut ab = AlphaBeta::new(NeutralEvaluator::new(), 12, 3);
            ab.set_node_limit(Some(limit));
            ab.search(&game, &game.initial_state(), 40, unlimited)
        };
        let a = capped(300);
        assert!(a.nodes <= 301, "{} nodes past a cap of 300", a.nodes);
        assert!(a.depth >= 1 && a.depth < full.depth, "depth {}", a.depth);
        let b = capped(300);
        assert_eq!(
            (a.best, a.value, a.depth, a.nodes),
            (b.best, b.value, b.depth, b.nodes)
        );
    }
}

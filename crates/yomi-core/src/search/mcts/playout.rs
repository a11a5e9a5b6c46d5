//! Leaf evaluation: playouts with a pluggable policy and an optional cut-off, or any other
//! [`LeafEvaluator`] (a value network, an exact solver).
//!
//! Thread safety: each search worker owns a clone of its leaf evaluator and policy, so they
//! may keep caches (`&mut self`); shared data such as evaluators sits behind `Arc`.

use std::sync::Arc;

use crate::game::{Game, Turn};
use crate::player::{Player, Rewards, MAX_PLAYERS};
use crate::rng::Rng;
use crate::search::Evaluator;

/// Estimates the rewards of a leaf state. The search normalises the result with the game's
/// reward bounds.
pub trait LeafEvaluator<G: Game>: Clone + Send {
    /// The estimated rewards of `state`; the evaluator may consume `state` (a playout plays
    /// on it). `buf` is scratch space for move lists.
    fn evaluate(
        &mut self,
        game: &G,
        state: &mut G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Rewards;

    /// Called at the start of every search with its root state (a determinization, for
    /// imperfect-information games), e.g. for evaluations relative to the root such as the
    /// Go difference game. The default does nothing.
    fn begin_search(&mut self, game: &G, root: &G::State) {
        let _ = (game, root);
    }

    /// The rewards of a terminal state reached in the tree (no playout needed). The default
    /// is [`Game::returns`]; evaluators that judge positions differently (the difference
    /// game scores G and its reversal together) override it.
    fn evaluate_terminal(&mut self, game: &G, state: &G::State) -> Rewards {
        game.returns(state)
    }

    /// How many extra statistics each evaluation produces (0 by default). The search sums
    /// them into every edge on the path, and selection rules that set
    /// [`super::Selection::READS_FEATURES`] read the sums (the Othello paper's accumulated
    /// evaluations per depth band, combined by discriminant analysis).
    fn feature_count(&self) -> usize {
        0
    }

    /// The extra statistics of the last [`LeafEvaluator::evaluate`] call, `feature_count`
    /// long.
    fn features(&self) -> &[f64] {
        &[]
    }

    /// The AMAF key of `mv` for RAVE ([`super::rave`]): a small integer below
    /// [`LeafEvaluator::amaf_key_count`] naming the move wherever it is played (a Go
    /// point), or `None` for moves that AMAF ignores (pass). The default has no keys, and
    /// the search then keeps no AMAF statistics.
    fn amaf_key(&self, game: &G, mv: G::Move) -> Option<u32> {
        let _ = (game, mv);
        None
    }

    /// One more than the largest key [`LeafEvaluator::amaf_key`] returns (0: no AMAF).
    fn amaf_key_count(&self, game: &G) -> usize {
        let _ = game;
        0
    }

    /// The moves of the last [`LeafEvaluator::evaluate`] call's playout, in order, as
    /// `(player index, AMAF key)` (moves without a key left out). RAVE credits them to the
    /// tree's edges with the same key and player. The default is none.
    fn amaf_moves(&self) -> &[(u8, u32)] {
        &[]
    }
}

/// Chooses moves during playouts.
pub trait PlayoutPolicy<G: Game>: Clone + Send {
    /// The move of the player to move at a sequential turn, or `None` if there is none.
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move>;

    /// `player`'s move among `moves` (non-empty) at a simultaneous turn.
    fn choose_among(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> G::Move {
        let _ = (game, state, player);
        moves[rng.below(moves.len())]
    }
}

/// Uniformly random moves (through [`Game::random_move`], which games may speed up).
#[derive(Clone, Copy, Debug, Default)]
pub struct Uniform;

impl<G: Game> PlayoutPolicy<G> for Uniform {
    #[inline]
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move> {
        game.random_move(state, rng, buf)
    }
}

/// A preference score for a move, higher is better (a linear feature score for a softmax
/// policy, an evaluation of the resulting position for greedy play).
pub trait MoveScorer<G: Game>: Send + Sync {
    /// The score of `mv` for `player` in `state`.
    fn score(&self, game: &G, state: &G::State, player: Player, mv: G::Move) -> f64;
}

impl<G: Game, S: MoveScorer<G> + ?Sized> MoveScorer<G> for Arc<S> {
    #[inline]
    fn score(&self, game: &G, state: &G::State, player: Player, mv: G::Move) -> f64 {
        (**self).score(game, state, player, mv)
    }
}

/// Scores a move by the evaluation of the position it leads to, from the mover's side.
pub struct EvalScorer<G: Game>(pub Arc<dyn Evaluator<G>>);

impl<G: Game> MoveScorer<G> for EvalScorer<G> {
    fn score(&self, game: &G, state: &G::State, player: Player, mv: G::Move) -> f64 {
        let mut next = state.clone();
        game.apply(&mut next, mv);
        self.0.evaluate(game, &next).get(player)
    }
}

fn mover_moves<G: Game>(game: &G, state: &G::State, buf: &mut Vec<G::Move>) -> Option<Player> {
    match game.turn(state) {
        Turn::Player(p) => {
            game.legal_moves(state, buf);
            if buf.is_empty() {
                None
            } else {
                Some(p)
            }
        }
        _ => None,
    }
}

/// With probability ε a uniformly random move, otherwise the best-scored move (ties broken
/// at random). With ε = 0 and an [`EvalScorer`] this is evaluation-greedy play.
#[derive(Clone)]
pub struct EpsilonGreedy<S> {
    /// Probability of a random move.
    pub epsilon: f64,
    /// The move scores.
    pub scorer: S,
}

impl<S> EpsilonGreedy<S> {
    fn pick<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> G::Move
    where
        S: MoveScorer<G>,
    {
        if self.epsilon > 0.0 && rng.chance(self.epsilon) {
            return moves[rng.below(moves.len())];
        }
        let mut best = f64::NEG_INFINITY;
        let mut best_mv = moves[0];
        let mut ties = 0u32;
        for &m in moves {
            let s = self.scorer.score(game, state, player, m);
            if s > best {
                best = s;
                best_mv = m;
                ties = 1;
            } else if s == best {
                // Reservoir sampling over equal scores.
                ties += 1;
                if rng.below(ties as usize) == 0 {
                    best_mv = m;
                }
            }
        }
        best_mv
    }
}

impl<G: Game, S: MoveScorer<G> + Clone> PlayoutPolicy<G> for EpsilonGreedy<S> {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move> {
        let p = mover_moves(game, state, buf)?;
        Some(self.pick(game, state, p, buf, rng))
    }
    fn choose_among(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> G::Move {
        self.pick(game, state, player, moves, rng)
    }
}

/// Softmax (Gibbs) policy: `π(a) ∝ exp(score(a) / temperature)`, e.g. over linear feature
/// scores `φ(s,a)·θ` as in the GGP paper.
#[derive(Clone)]
pub struct Softmax<S> {
    /// Temperature (> 0).
    pub temperature: f64,
    /// The move scores.
    pub scorer: S,
}

impl<S> Softmax<S> {
    fn pick<G: Game>(
        &self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> G::Move
    where
        S: MoveScorer<G>,
    {
        // Two passes (max, then sampling by inversion) keep this allocation-free.
        let inv_t = 1.0 / self.temperature;
        let mut max = f64::NEG_INFINITY;
        let mut total = 0.0;
        for &m in moves {
            let s = self.scorer.score(game, state, player, m) * inv_t;
            if s > max {
                total = total * (max - s).exp() + 1.0;
                max = s;
            } else {
                total += (s - max).exp();
            }
        }
        let mut x = rng.unit_f64() * total;
        for &m in moves {
            let w = (self.scorer.score(game, state, player, m) * inv_t - max).exp();
            if x < w {
                return m;
            }
            x -= w;
        }
        moves[moves.len() - 1]
    }
}

impl<G: Game, S: MoveScorer<G> + Clone> PlayoutPolicy<G> for Softmax<S> {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move> {
        let p = mover_moves(game, state, buf)?;
        Some(self.pick(game, state, p, buf, rng))
    }
    fn choose_among(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> G::Move {
        self.pick(game, state, player, moves, rng)
    }
}

/// Decisive moves (Teytaud & Teytaud, "On the huge benefit of decisive moves in Monte
/// Carlo tree search algorithms", 2010): at a sequential turn the mover plays a move that
/// ends the game at once with the highest reward it can get (the top of
/// [`GameFacts::reward_bounds`](crate::game::GameFacts::reward_bounds)) when it has one,
/// otherwise a uniformly random move; simultaneous turns are uniform. Random playouts
/// walk past such wins (a Breakthrough runner one step from the last row), which makes
/// their results noise in race games; each turn here costs one `apply` per legal move,
/// which at equal time can cost more than it brings (GGP figures in yomi-ggp's README:
/// better on nine-board tic-tac-toe, worse on connect four and connect five).
///
/// The legal moves are tried from a random one on, so that when several win the choice is
/// not the game's first. The tries are made on a scratch state kept by the policy (each
/// worker clones its own policy), refilled with [`Clone::clone_from`], so games whose
/// states reuse their storage there play these playouts without allocating.
pub struct Decisive<G: Game> {
    scratch: Option<G::State>,
}

impl<G: Game> Default for Decisive<G> {
    fn default() -> Self {
        Decisive { scratch: None }
    }
}

impl<G: Game> Clone for Decisive<G> {
    /// A fresh policy: the scratch state is no statistic, only storage.
    fn clone(&self) -> Self {
        Decisive::default()
    }
}

impl<G: Game> PlayoutPolicy<G> for Decisive<G> {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move> {
        let Some(player) = mover_moves(game, state, buf) else {
            return game.random_move(state, rng, buf);
        };
        let best = game.facts().reward_bounds.1;
        let n = buf.len();
        let start = rng.below(n);
        let scratch = self.scratch.get_or_insert_with(|| state.clone());
        for i in 0..n {
            let mv = buf[(start + i) % n];
            scratch.clone_from(state);
            game.apply(scratch, mv);
            if game.is_terminal(scratch) && game.returns(scratch).get(player) >= best {
                return Some(mv);
            }
        }
        Some(buf[rng.below(n)])
    }
}

/// Any of the built-in policies, chosen at run time.
pub enum AnyPolicy<G: Game> {
    /// See [`Uniform`].
    Uniform,
    /// See [`Decisive`].
    Decisive(Decisive<G>),
    /// See [`EpsilonGreedy`].
    EpsilonGreedy(EpsilonGreedy<Arc<dyn MoveScorer<G>>>),
    /// See [`Softmax`].
    Softmax(Softmax<Arc<dyn MoveScorer<G>>>),
}

impl<G: Game> Clone for AnyPolicy<G> {
    fn clone(&self) -> Self {
        match self {
            AnyPolicy::Uniform => AnyPolicy::Uniform,
            AnyPolicy::Decisive(p) => AnyPolicy::Decisive(p.clone()),
            AnyPolicy::EpsilonGreedy(p) => AnyPolicy::EpsilonGreedy(p.clone()),
            AnyPolicy::Softmax(p) => AnyPolicy::Softmax(p.clone()),
        }
    }
}

impl<G: Game> PlayoutPolicy<G> for AnyPolicy<G> {
    fn choose(
        &mut self,
        game: &G,
        state: &G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move> {
        match self {
            AnyPolicy::Uniform => game.random_move(state, rng, buf),
            AnyPolicy::Decisive(p) => p.choose(game, state, rng, buf),
            AnyPolicy::EpsilonGreedy(p) => p.choose(game, state, rng, buf),
            AnyPolicy::Softmax(p) => p.choose(game, state, rng, buf),
        }
    }
    fn choose_among(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        moves: &[G::Move],
        rng: &mut Rng,
    ) -> G::Move {
        match self {
            AnyPolicy::Uniform | AnyPolicy::Decisive(_) => moves[rng.below(moves.len())],
            AnyPolicy::EpsilonGreedy(p) => p.choose_among(game, state, player, moves, rng),
            AnyPolicy::Softmax(p) => p.choose_among(game, state, player, moves, rng),
        }
    }
}

/// Playouts: play `policy` until the game ends, or for `cutoff` turns and then ask the
/// cut-off evaluator (the Othello paper's "-break").
pub struct Rollout<G: Game, P> {
    /// The move chooser.
    pub policy: P,
    /// Where to stop and evaluate, if anywhere before the end.
    pub cutoff: Option<Cutoff<G>>,
}

/// What a playout cut-off counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutoffUnit {
    /// Moves (calls to `apply` / `apply_joint`): the Othello paper's "10 moves".
    Moves,
    /// Player turns: a run of consecutive moves by one player counts once, a simultaneous
    /// turn counts once (TUBSTAP's DLMC looks `d` turns ahead, each turn several unit moves).
    PlayerTurns,
}

/// A playout cut-off: after `after` units, the evaluator judges the position.
pub struct Cutoff<G: Game> {
    /// How many units to play before judging.
    pub after: u32,
    /// What is counted.
    pub unit: CutoffUnit,
    /// The judge.
    pub evaluator: Arc<dyn Evaluator<G>>,
}

impl<G: Game> Clone for Cutoff<G> {
    fn clone(&self) -> Self {
        Cutoff {
            after: self.after,
            unit: self.unit,
            evaluator: self.evaluator.clone(),
        }
    }
}

impl<G: Game> Cutoff<G> {
    /// A cut-off after `after` moves.
    pub fn moves(after: u32, evaluator: Arc<dyn Evaluator<G>>) -> Self {
        Cutoff {
            after,
            unit: CutoffUnit::Moves,
            evaluator,
        }
    }

    /// A cut-off after `after` player turns.
    pub fn player_turns(after: u32, evaluator: Arc<dyn Evaluator<G>>) -> Self {
        Cutoff {
            after,
            unit: CutoffUnit::PlayerTurns,
            evaluator,
        }
    }
}

impl<G: Game, P: Clone> Clone for Rollout<G, P> {
    fn clone(&self) -> Self {
        Rollout {
            policy: self.policy.clone(),
            cutoff: self.cutoff.clone(),
        }
    }
}

impl<G: Game, P> Rollout<G, P> {
    /// Playouts to the end of the game.
    pub fn new(policy: P) -> Self {
        Rollout {
            policy,
            cutoff: None,
        }
    }

    /// Playouts cut off after `moves` moves and judged by `evaluator`.
    pub fn with_cutoff(policy: P, moves: u32, evaluator: Arc<dyn Evaluator<G>>) -> Self {
        Rollout {
            policy,
            cutoff: Some(Cutoff::moves(moves, evaluator)),
        }
    }
}

impl<G: Game, P: PlayoutPolicy<G>> LeafEvaluator<G> for Rollout<G, P> {
    #[inline]
    fn evaluate(
        &mut self,
        game: &G,
        state: &mut G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Rewards {
        if self.cutoff.is_none() {
            // The common case, kept tight: no counting, sequential turns inline.
            loop {
                match game.turn(state) {
                    Turn::Terminal => return game.returns(state),
                    Turn::Player(_) => match self.policy.choose(game, state, rng, buf) {
                        Some(mv) => game.apply(state, mv),
                        None => return game.returns(state),
                    },
                    Turn::Simultaneous => break,
                }
            }
        }
        let limit = self.cutoff.as_ref().map_or(u32::MAX, |c| c.after);
        let count_turns = self
            .cutoff
            .as_ref()
            .is_some_and(|c| c.unit == CutoffUnit::PlayerTurns);
        // Counted units so far; for player turns, the mover whose run is in progress.
        let mut turns = 0u32;
        let mut last_mover: Option<Player> = None;
        let mut joint: [Option<G::Move>; MAX_PLAYERS] = [None; MAX_PLAYERS];
        let mut joint_moves: Vec<G::Move> = Vec::new();
        let mut players = 0usize;
        loop {
            match game.turn(state) {
                Turn::Terminal => return game.returns(state),
                Turn::Player(p) if count_turns => {
                    if last_mover != Some(p) {
                        if last_mover.is_some() {
                            turns += 1;
                        }
                        last_mover = Some(p);
                    }
                    if turns >= limit {
                        let cut = self.cutoff.as_ref().expect("limit implies cut-off");
                        return cut.evaluator.evaluate(game, state);
                    }
                    match self.policy.choose(game, state, rng, buf) {
                        Some(mv) => game.apply(state, mv),
                        None => return game.returns(state),
                    }
                    continue;
                }
                _ if turns >= limit => {
                    let cut = self.cutoff.as_ref().expect("limit implies cut-off");
                    return cut.evaluator.evaluate(game, state);
                }
                Turn::Player(_) => match self.policy.choose(game, state, rng, buf) {
                    Some(mv) => game.apply(state, mv),
                    // A game that reports no moves at a non-terminal state: score it as is.
                    None => return game.returns(state),
                },
                Turn::Simultaneous => {
                    if players == 0 {
                        players = game.players();
                    }
                    for (p, slot) in joint.iter_mut().enumerate().take(players) {
                        game.legal_moves_of(state, Player(p as u8), buf);
                        if buf.is_empty() {
                            return game.returns(state);
                        }
                        *slot =
                            Some(
                                self.policy
                                    .choose_among(game, state, Player(p as u8), buf, rng),
                            );
                    }
                    joint_moves.clear();
                    joint_moves.extend(joint[..players].iter().map(|m| m.expect("filled above")));
                    game.apply_joint(state, &joint_moves);
                    // A simultaneous turn is one turn in either unit (counted below).
                    last_mover = None;
                }
            }
            turns += 1;
        }
    }
}

#[cfg(test)]
mod decisive_tests {
    use super::*;
    use crate::testing::{Nim, NimState};

    /// With three stones or fewer the mover can take them all and win: the decisive policy
    /// always does, the uniform one only a third of the time from three stones.
    #[test]
    fn the_decisive_policy_takes_a_win_in_one_and_is_uniform_otherwise() {
        let game = Nim::new(9);
        let mut policy = Decisive::<Nim>::default();
        let mut rng = Rng::seed_from_u64(5);
        let mut buf = Vec::new();
        for stones in 1..=3 {
            let s = NimState {
                stones,
                to_move: Player(1),
            };
            for _ in 0..50 {
                assert_eq!(policy.choose(&game, &s, &mut rng, &mut buf), Some(stones));
            }
        }
        // Five stones: no move wins at once; every move is still played.
        let s = NimState {
            stones: 5,
            to_move: Player(0),
        };
        let mut seen = [0u32; 4];
        for _ in 0..300 {
            let mv = policy.choose(&game, &s, &mut rng, &mut buf).unwrap();
            seen[mv as usize] += 1;
        }
        assert!(seen[1..].iter().all(|&c| c > 60), "{seen:?}");
        // Over: no move.
        let over = NimState {
            stones: 0,
            to_move: Player(0),
        };
        assert_eq!(policy.choose(&game, &over, &mut rng, &mut buf), None);
    }
}

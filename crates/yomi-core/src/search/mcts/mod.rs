//! One Monte Carlo tree search for every game, with plug-in points.
//!
//! # Table of contents (KataGo style: one concern per file)
//! - control, workers, threads and determinization: this file ([`Mcts`], [`Worker`]);
//! - numeric parameters, widening, final-move rule: [`params`];
//! - the `mcts` agent's spec parameters, typed, with their defaults and help: [`config`];
//! - selection rules (UCB1, UCB with an evaluation term, PUCT): [`select`];
//! - expansion (priors, child evaluations, candidate order): [`expand`];
//! - leaf evaluation (playout policies, cut-off, any evaluator): [`playout`];
//! - the backup of an iteration's result along its path (visits, rewards, features, RAVE's
//!   AMAF statistics): `backup`;
//! - adaptive playouts (MAST, NST, last good reply): [`adaptive`];
//! - RAVE (all-moves-as-first values blended into selection): [`rave`];
//! - the tree arrays and subtree extraction for tree reuse: `tree`;
//! - results and the final move: [`results`].
//!
//! # The iteration
//! From the root, descend through expanded nodes by the [`Selection`] rule (at a
//! simultaneous node every player selects independently from their own statistics:
//! decoupled UCT), applying moves to a copy of the root state. A child reached for the first
//! time becomes a new leaf. A leaf generates its children (through the [`Expander`]) once
//! it has `expand_threshold` visits. The reached state is scored by the
//! [`LeafEvaluator`] (a playout, optionally cut off and judged by an evaluator, or a
//! network), rewards are normalised to `[0, 1]` with the game's reward bounds, and every
//! edge on the path adds the reward of the player who chose it. A leaf evaluator may also
//! report extra statistics ([`LeafEvaluator::features`], e.g. evaluations accumulated per
//! depth band during the playout); they are summed into every edge on the path, where
//! selection rules that ask for them ([`Selection::READS_FEATURES`]) can read them.
//!
//! # Threads
//! Root parallelism: each of `threads` workers grows its own tree from the same root
//! (or from its own determinizations) with an independent seed, and the root statistics are
//! summed by move. It needs no locks or atomics, so one thread runs at full speed and two
//! threads double the iteration rate; the price is some duplicated work near the root.
//!
//! # Stopping from outside
//! [`Mcts::search_for_until`] also watches a [`StopSignal`]: every worker reads it before
//! each iteration (one relaxed atomic load) and returns when it is raised, and the result
//! holds the root statistics as they are then ([`SearchResult::stopped`]). The trees and the
//! plug-ins' state (adaptive playout statistics included) are kept as after any search.
//! [`MctsAgent`] answers [`crate::Agent::select_move_until`] with it, for callers whose
//! deadline comes before the search's own budget has run out.
//!
//! # Hidden information
//! For games with [`Information::Imperfect`] each search samples `determinizations` states
//! consistent with the searching player's observation ([`Game::determinize`]), searches each
//! as a perfect-information game with an equal share of the budget, and sums the root
//! statistics by move (determinized UCT).
//!
//! # Example
//! ```
//! use yomi_core::search::mcts::{Mcts, MctsParams};
//! use yomi_core::search::Budget;
//! use yomi_core::{Game, testing::Nim};
//! let game = Nim::new(7); // take 1-3 from a heap of 7; taking the last stone wins
//! let params = MctsParams { budget: Budget::iterations(3000), ..MctsParams::default() };
//! let mut mcts = Mcts::uct(params, 1);
//! let result = mcts.search(&game, &game.initial_state());
//! // Taking 3 leaves 4, a lost heap for the opponent.
//! assert_eq!(result.choose(Default::default(), &mut yomi_core::Rng::seed_from_u64(0)), Some(3));
//! ```

pub mod adaptive;
pub mod agent;
mod backup;
pub mod config;
pub mod expand;
pub mod params;
pub mod playout;
pub mod rave;
pub mod results;
pub mod select;
mod tree;

use std::time::Instant;

pub use agent::MctsAgent;
pub use expand::{AnyExpander, ChildEvaluation, EdgeSlot, Expander, NoExpander, ShuffledOrder};
pub use params::{FinalMove, MctsParams, RootNoise, Widening};
pub use playout::{
    AnyPolicy, Cutoff, CutoffUnit, Decisive, EpsilonGreedy, EvalScorer, LeafEvaluator, MoveScorer,
    PlayoutPolicy, Rollout, Softmax, Uniform,
};
pub use rave::{Rave, RaveSchedule};
pub use results::{RootChild, SearchResult};
pub use select::{AnySelection, ChildStats, Puct, Selection, Ucb1, UcbEval, UcbPrior};

use crate::agent::Played;
use crate::game::{Game, Information, Turn};
use crate::player::{Player, Rewards, MAX_PLAYERS};
use crate::rng::{derive_seed, Rng};
use crate::search::StopSignal;

/// Iterations between two looks at the root for a new best move to publish
/// ([`Worker::publish_for`]): a scan of the root's edges, a few microseconds.
pub const PUBLISH_EVERY: u64 = 256;
use tree::{
    AmafStat, Edge, EdgeExtra, Node, SimNode, Tree, NONE, SIMULTANEOUS, TERMINAL, UNEXPANDED,
};

/// One step of the current path: the edge taken and who chose it.
#[derive(Clone, Copy)]
struct Step {
    node: u32,
    edge: u32,
    player: u8,
    /// Count the visit on the node too (false for the 2nd.. players of a simultaneous node).
    count_node: bool,
}

/// What the evaluation of one iteration's leaf gave, for the backup.
struct Outcome {
    /// The rewards, normalised to `[0, 1]`.
    rewards: Rewards,
    /// The memo entry whose features stand for this iteration's, when the result came
    /// from the memo.
    features_from_memo: Option<usize>,
    /// The leaf was terminal (no playout, no features).
    terminal: bool,
    /// A playout was run (its moves count for RAVE).
    played_out: bool,
}

/// One tree and the plug-ins that grow it. Single-threaded; [`Mcts`] runs several.
pub struct Worker<G: Game, S, L, X> {
    selection: S,
    leaf: L,
    expander: X,
    params: MctsParams,
    tree: Tree<G::Move>,
    /// The state at the tree's root, when the tree is valid.
    root_state: Option<G::State>,
    /// The current root's priors already carry [`MctsParams::root_noise`].
    root_noised: bool,
    rng: Rng,
    // Scratch buffers, reused by every iteration.
    moves: Vec<G::Move>,
    slots: Vec<EdgeSlot<G::Move>>,
    path: Vec<Step>,
    joint: Vec<G::Move>,
    /// The state an iteration walks down and plays out, kept between iterations so that
    /// each starts with `clone_from` the root (states with large or heap-held parts can
    /// copy only what is in use instead of building a new copy).
    line: Option<G::State>,
    /// RAVE scratch: per AMAF key, the player who played it first below the current node
    /// of the backup walk (`u8::MAX`: nobody), and the keys set, for clearing.
    amaf_first: Vec<u8>,
    amaf_touched: Vec<u32>,
    // Reward normalisation: r' = (r - lo) * scale.
    lo: f64,
    scale: f64,
    players: usize,
    /// Proving subtrees this search: [`MctsParams::solver`] in a perfect-information game.
    solving: bool,
    /// Whose most visited root move this worker publishes on the run's [`StopSignal`]
    /// ([`StopSignal::publish_best`]); `None`: it publishes nothing. One worker of a search
    /// publishes (its own tree's choice).
    publish_for: Option<Player>,
    /// The root edge published last, so that a move is formatted only when it changes.
    published: Option<usize>,
}

impl<G, S, L, X> Worker<G, S, L, X>
where
    G: Game,
    S: Selection,
    L: LeafEvaluator<G>,
    X: Expander<G>,
{
    /// A worker with an empty tree.
    pub fn new(params: MctsParams, selection: S, leaf: L, expander: X, seed: u64) -> Self {
        let feature_count = leaf.feature_count();
        Worker {
            selection,
            leaf,
            expander,
            params,
            tree: Tree::new(S::READS_EXPANDER, feature_count, S::READS_AMAF),
            root_state: None,
            root_noised: false,
            rng: Rng::seed_from_u64(seed),
            moves: Vec::new(),
            slots: Vec::new(),
            path: Vec::new(),
            joint: Vec::new(),
            line: None,
            amaf_first: Vec::new(),
            amaf_touched: Vec::new(),
            lo: 0.0,
            scale: 1.0,
            players: 0,
            solving: false,
            publish_for: None,
            published: None,
        }
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Drops the tree.
    pub fn reset(&mut self) {
        self.tree.clear();
        self.root_state = None;
        self.root_noised = false;
    }

    fn prepare(&mut self, game: &G, root: &G::State) {
        let facts = game.facts();
        self.lo = facts.reward_bounds.0;
        self.scale = 1.0 / (facts.reward_bounds.1 - facts.reward_bounds.0);
        self.players = facts.players;
        self.solving = self.params.solver && facts.information == Information::Perfect;
        if self.root_state.as_ref() != Some(root) || !self.params.reuse_tree {
            self.tree.clear();
            self.root_state = Some(root.clone());
            self.root_noised = false;
        }
    }

    /// Runs iterations from `root` until `max_iterations` or `deadline`; returns how many ran.
    pub fn run(
        &mut self,
        game: &G,
        root: &G::State,
        max_iterations: u64,
        deadline: Option<Instant>,
    ) -> u64 {
        self.run_until(game, root, max_iterations, deadline, None).0
    }

    /// As [`Worker::run`], and also stops as soon as `stop` is raised (read before every
    /// iteration). Returns the iterations run and whether the signal ended the run; the
    /// tree keeps what those iterations found, as after any run.
    pub fn run_until(
        &mut self,
        game: &G,
        root: &G::State,
        max_iterations: u64,
        deadline: Option<Instant>,
        stop: Option<&StopSignal>,
    ) -> (u64, bool) {
        self.prepare(game, root);
        // Edge numbers change with the root: publish afresh.
        self.published = None;
        self.leaf.begin_search(game, root);
        if let Some(noise) = self.params.root_noise {
            if !self.root_noised {
                self.noise_root(game, root, noise);
            }
        }
        let mut done = 0u64;
        while done < max_iterations {
            // One relaxed load: cheap enough for every iteration, so that a stop is obeyed
            // within one iteration even in games whose playouts take milliseconds.
            if stop.is_some_and(StopSignal::is_stopped) {
                return (done, true);
            }
            // Checking the clock costs about as much as a short playout: do it every 64.
            if done % 64 == 0 {
                if let Some(d) = deadline {
                    if Instant::now() >= d {
                        break;
                    }
                }
            }
            // A proven root has nothing left to learn.
            if self.solving && self.tree.is_proven(0) {
                break;
            }
            self.iterate(game, root);
            done += 1;
            if done % PUBLISH_EVERY == 0 {
                if let (Some(signal), Some(player)) = (stop, self.publish_for) {
                    self.publish(game, root, player, signal);
                }
            }
        }
        if let (Some(signal), Some(player)) = (stop, self.publish_for) {
            self.publish(game, root, player, signal);
        }
        (done, false)
    }

    /// Publishes `player`'s most visited root move on `signal` when it is not the one
    /// published last (a scan of the root's edges; a string only when the move changes).
    fn publish(&mut self, game: &G, root: &G::State, player: Player, signal: &StopSignal) {
        let Some(range) = self.root_range(player) else {
            return;
        };
        let best = range.max_by_key(|&i| self.tree.edges[i].visits);
        if let Some(i) = best.filter(|&i| self.tree.edges[i].visits > 0) {
            if self.published != Some(i) {
                self.published = Some(i);
                signal.publish_best(game.format_move(root, self.tree.moves[i]));
            }
        }
    }

    /// Publishes this worker's most visited root move for `player` on the signal of its
    /// runs ([`StopSignal::best_so_far`]), every [`PUBLISH_EVERY`] iterations and at the
    /// end of a run; `None` stops it.
    pub fn publish_for(&mut self, player: Option<Player>) {
        self.publish_for = player;
        self.published = None;
    }

    /// The edges of `player`'s moves at the root, if the root is expanded and `player`
    /// moves there.
    fn root_range(&self, player: Player) -> Option<std::ops::Range<usize>> {
        let root = self.tree.nodes.first()?;
        match root.mover {
            UNEXPANDED | TERMINAL => None,
            SIMULTANEOUS => {
                let sim = &self.tree.sims[root.aux as usize];
                if player.index() >= sim.players as usize {
                    return None;
                }
                let f = root.first_edge as usize;
                Some(
                    f + sim.offsets[player.index()] as usize
                        ..f + sim.offsets[player.index() + 1] as usize,
                )
            }
            m if m == player.0 => Some(self.tree.edge_range(0)),
            _ => None,
        }
    }

    /// The root statistics of `player`'s moves.
    pub fn root_children(&self, player: Player) -> Vec<RootChild<G::Move>> {
        let root = self.tree.nodes[0];
        let Some(range) = self.root_range(player) else {
            return Vec::new();
        };
        let uniform = 1.0 / range.len().max(1) as f32;
        range
            .map(|i| {
                let e = self.tree.edges[i];
                let k = self.tree.feature_count;
                RootChild {
                    features: self
                        .tree
                        .features
                        .get(i * k..(i + 1) * k)
                        .unwrap_or(&[])
                        .to_vec(),
                    mv: self.tree.moves[i],
                    visits: e.visits as u64,
                    total: e.total,
                    prior: self.tree.extras.get(i).map_or(uniform, |x| x.prior),
                    proven: (e.child != NONE && root.mover < SIMULTANEOUS)
                        .then(|| self.tree.proof(e.child))
                        .flatten()
                        .map(|v| v.get(player)),
                }
            })
            .collect()
    }

    /// The principal variation: from the root, the most visited edge of each sequential
    /// node, up to `max_len` moves (it stops at a simultaneous or unexpanded node).
    pub fn principal_variation(&self, max_len: usize) -> Vec<G::Move> {
        let mut pv = Vec::new();
        self.extend_line(0, &mut pv, max_len);
        pv
    }

    /// The line starting with the root move `first` (sequential root only), followed by
    /// the most visited continuation, up to `max_len` moves; empty when `first` is not a
    /// root move of this tree.
    pub fn principal_variation_from(&self, first: G::Move, max_len: usize) -> Vec<G::Move> {
        let mut pv = Vec::new();
        let sequential_root = self
            .tree
            .nodes
            .first()
            .is_some_and(|n| n.mover < SIMULTANEOUS);
        if max_len == 0 || !sequential_root {
            return pv;
        }
        let Some(i) = self
            .tree
            .edge_range(0)
            .find(|&i| self.tree.moves[i] == first)
        else {
            return pv;
        };
        pv.push(first);
        let child = self.tree.edges[i].child;
        if child != NONE {
            self.extend_line(child, &mut pv, max_len);
        }
        pv
    }

    /// Appends to `pv` the most visited line from `node`, until it holds `max_len` moves.
    fn extend_line(&self, mut node: u32, pv: &mut Vec<G::Move>, max_len: usize) {
        while pv.len() < max_len {
            let Some(n) = self.tree.nodes.get(node as usize) else {
                break;
            };
            if matches!(n.mover, UNEXPANDED | TERMINAL | SIMULTANEOUS) {
                break;
            }
            let best = self
                .tree
                .edge_range(node)
                .filter(|&i| self.tree.edges[i].visits > 0)
                .max_by_key(|&i| self.tree.edges[i].visits);
            let Some(i) = best else {
                break;
            };
            pv.push(self.tree.moves[i]);
            node = self.tree.edges[i].child;
            if node == NONE {
                break;
            }
        }
    }

    /// Moves the root along the moves played from the current root state, keeping the
    /// subtree (tree reuse). Forgets the tree when the moves are not in it.
    pub fn advance(&mut self, game: &G, before: &G::State, played: Played<'_, G::Move>) {
        if self.root_state.as_ref() != Some(before) || !self.params.reuse_tree {
            self.reset();
            return;
        }
        let child = match played {
            Played::Single(_, mv) => self.tree.child_by_move(0, mv),
            Played::Joint(moves) => self.tree.child_by_joint(0, moves),
        };
        let mut after = before.clone();
        match played {
            Played::Single(_, mv) => game.apply(&mut after, mv),
            Played::Joint(moves) => game.apply_joint(&mut after, moves),
        }
        match child {
            Some(c) => {
                self.tree = self.tree.extract(c);
                self.root_state = Some(after);
                self.root_noised = false;
            }
            None => self.reset(),
        }
    }

    #[inline]
    fn normalize(&self, r: Rewards) -> Rewards {
        let mut out = r;
        for p in 0..self.players {
            let pl = Player(p as u8);
            out.set(pl, (r.get(pl) - self.lo) * self.scale);
        }
        out
    }

    /// Expands the root if needed and mixes Dirichlet noise into each mover's priors there.
    fn noise_root(&mut self, game: &G, root: &G::State, noise: RootNoise) {
        self.root_noised = true;
        if self.tree.nodes[0].mover == UNEXPANDED {
            self.expand(game, root, 0);
        }
        let n = self.tree.nodes[0];
        if !self.tree.with_extras || n.mover == TERMINAL {
            return;
        }
        let first = n.first_edge as usize;
        let mut ranges = [(0usize, 0usize); MAX_PLAYERS];
        let count = if n.mover == SIMULTANEOUS {
            let sim = &self.tree.sims[n.aux as usize];
            for (p, r) in ranges.iter_mut().enumerate().take(sim.players as usize) {
                *r = (
                    first + sim.offsets[p] as usize,
                    first + sim.offsets[p + 1] as usize,
                );
            }
            sim.players as usize
        } else {
            ranges[0] = (first, first + n.num_edges as usize);
            1
        };
        let fraction = noise.fraction.clamp(0.0, 1.0) as f32;
        let mut sample = Vec::new();
        for &(lo, hi) in &ranges[..count] {
            sample.resize(hi - lo, 0.0);
            self.rng.dirichlet(noise.alpha, &mut sample);
            for (extra, &x) in self.tree.extras[lo..hi].iter_mut().zip(&sample) {
                extra.prior = (1.0 - fraction) * extra.prior + fraction * x as f32;
            }
        }
    }

    /// Generates the children of `node` whose state is `state`.
    fn expand(&mut self, game: &G, state: &G::State, node: u32) {
        let first = self.tree.edges.len() as u32;
        match game.turn(state) {
            Turn::Terminal => {
                self.tree.nodes[node as usize].mover = TERMINAL;
                return;
            }
            Turn::Player(p) => {
                if self.params.all_legal_moves {
                    game.legal_moves(state, &mut self.moves);
                } else {
                    game.search_moves(state, &mut self.moves);
                }
                self.push_edges(game, state, p);
                let n = &mut self.tree.nodes[node as usize];
                n.mover = if self.moves.is_empty() { TERMINAL } else { p.0 };
            }
            Turn::Simultaneous => {
                let mut offsets = [0u32; MAX_PLAYERS + 1];
                for p in 0..self.players {
                    game.legal_moves_of(state, Player(p as u8), &mut self.moves);
                    if self.moves.is_empty() {
                        // Malformed turn (a player without moves): treat as terminal.
                        self.tree.edges.truncate(first as usize);
                        self.tree.moves.truncate(first as usize);
                        self.tree.extras.truncate(first as usize);
                        self.tree.amaf.truncate(first as usize);
                        self.tree.grow_features();
                        self.tree.nodes[node as usize].mover = TERMINAL;
                        return;
                    }
                    self.push_edges(game, state, Player(p as u8));
                    offsets[p + 1] = self.tree.edges.len() as u32 - first;
                }
                self.tree.sims.push(SimNode {
                    offsets,
                    players: self.players as u8,
                    children: Vec::new(),
                });
                let n = &mut self.tree.nodes[node as usize];
                n.mover = SIMULTANEOUS;
                n.aux = (self.tree.sims.len() - 1) as u32;
            }
        }
        let n = &mut self.tree.nodes[node as usize];
        n.first_edge = first;
        n.num_edges = self.tree.edges.len() as u32 - first;
    }

    /// Appends edges for the moves in `self.moves`, after the expander has seen them.
    fn push_edges(&mut self, game: &G, state: &G::State, player: Player) {
        let count = self.moves.len();
        let blank = Edge {
            total: 0.0,
            visits: 0,
            child: NONE,
        };
        if X::PASSIVE && !self.tree.with_extras {
            // Plain UCT: nothing to initialise, copy the moves straight in.
            self.tree.moves.extend_from_slice(&self.moves);
            self.tree.edges.resize(self.tree.edges.len() + count, blank);
            self.tree.grow_features();
            self.push_amaf(game);
            return;
        }
        let prior = 1.0 / count.max(1) as f32;
        self.slots.clear();
        self.slots.extend(self.moves.iter().map(|&mv| EdgeSlot {
            mv,
            prior,
            eval: 0.0,
        }));
        self.expander
            .expand(game, state, player, &mut self.slots, &mut self.rng);
        self.tree.moves.extend(self.slots.iter().map(|s| s.mv));
        self.tree.edges.resize(self.tree.edges.len() + count, blank);
        self.tree.grow_features();
        self.push_amaf(game);
        if self.tree.with_extras {
            let (lo, scale) = (self.lo, self.scale);
            self.tree
                .extras
                .extend(self.slots.iter().map(|s| EdgeExtra {
                    prior: s.prior,
                    eval: if s.eval == 0.0 {
                        0.0
                    } else {
                        ((s.eval as f64 - lo) * scale) as f32
                    },
                }));
        }
    }

    /// Gives the edges just pushed (those past `tree.amaf`) empty AMAF statistics keyed by
    /// the evaluator's AMAF keys, when the tree keeps them.
    fn push_amaf(&mut self, game: &G) {
        if !self.tree.with_amaf {
            return;
        }
        let from = self.tree.amaf.len();
        for i in from..self.tree.moves.len() {
            let key = self
                .leaf
                .amaf_key(game, self.tree.moves[i])
                .unwrap_or(u32::MAX);
            self.tree.amaf.push(AmafStat {
                total: 0.0,
                visits: 0,
                key,
            });
        }
    }

    /// The AMAF visits and summed reward of edge `i` (zeros when the rule does not read
    /// them).
    #[inline]
    fn edge_amaf(&self, i: usize) -> (u32, f64) {
        if S::READS_AMAF {
            let a = &self.tree.amaf[i];
            (a.visits, a.total as f64)
        } else {
            (0, 0.0)
        }
    }

    /// The summed leaf features of edge `i` (empty when the rule does not read them).
    #[inline]
    fn edge_features(&self, i: usize) -> &[f64] {
        let k = self.tree.feature_count;
        if S::READS_FEATURES && k > 0 {
            &self.tree.features[i * k..(i + 1) * k]
        } else {
            &[]
        }
    }

    /// The best edge in `range` (absolute edge indices) by the selection rule, the first on
    /// ties.
    #[inline]
    fn select_in(&self, chooser: Player, node_visits: u32, lo: usize, hi: usize) -> usize {
        let term = self.selection.prepare(node_visits);
        let mut best = f64::NEG_INFINITY;
        let mut best_i = lo;
        for (i, e) in self.tree.edges[lo..hi].iter().enumerate() {
            let (prior, eval) = if S::READS_EXPANDER {
                let x = &self.tree.extras[lo + i];
                (x.prior, x.eval)
            } else {
                (0.0, 0.0)
            };
            let (amaf_visits, amaf_total) = self.edge_amaf(lo + i);
            let s = self.selection.score(
                term,
                &ChildStats {
                    chooser,
                    visits: e.visits,
                    total: e.total,
                    prior,
                    eval,
                    features: self.edge_features(lo + i),
                    amaf_visits,
                    amaf_total,
                },
            );
            if s > best {
                best = s;
                best_i = lo + i;
            }
        }
        best_i
    }

    /// Decoupled selection for one player at a simultaneous node: with probability
    /// `simultaneous_exploration` a uniformly random move, otherwise the selection rule with
    /// ties broken at random. Deterministic UCB makes symmetric players choose in lockstep
    /// (their statistics stay identical), so they never see the mixed outcomes: in the
    /// prisoner's dilemma both "learn" to cooperate. Independent random exploration, as in
    /// EXP3's mixing, breaks the lockstep.
    fn select_in_random_ties(
        &mut self,
        chooser: Player,
        node_visits: u32,
        lo: usize,
        hi: usize,
    ) -> usize {
        let gamma = self.params.simultaneous_exploration;
        if gamma > 0.0 && self.rng.chance(gamma) {
            return lo + self.rng.below(hi - lo);
        }
        let term = self.selection.prepare(node_visits);
        let mut best = f64::NEG_INFINITY;
        let mut best_i = lo;
        let mut ties = 0usize;
        for i in lo..hi {
            let e = &self.tree.edges[i];
            let info = self.tree.extras.get(i).copied().unwrap_or(EdgeExtra {
                prior: 0.0,
                eval: 0.0,
            });
            let (amaf_visits, amaf_total) = self.edge_amaf(i);
            let s = self.selection.score(
                term,
                &ChildStats {
                    chooser,
                    visits: e.visits,
                    total: e.total,
                    prior: info.prior,
                    eval: info.eval,
                    features: self.edge_features(i),
                    amaf_visits,
                    amaf_total,
                },
            );
            if s > best {
                best = s;
                best_i = i;
                ties = 1;
            } else if s == best {
                ties += 1;
                if self.rng.below(ties) == 0 {
                    best_i = i;
                }
            }
        }
        best_i
    }

    /// Children admitted by progressive widening at a node with `visits` visits.
    #[inline]
    fn admitted(&self, visits: u32, count: usize) -> usize {
        match &self.params.widening {
            None => count,
            Some(w) => (w.0)(visits).clamp(1, count.max(1)),
        }
    }

    /// One iteration: descend (selecting and expanding), evaluate the leaf, back up
    /// (in [`backup`]).
    fn iterate(&mut self, game: &G, root: &G::State) {
        let mut state = match self.line.take() {
            Some(mut s) => {
                s.clone_from(root);
                s
            }
            None => root.clone(),
        };
        // The path is moved into a local for the iteration, so its length can live in a
        // register instead of being reloaded through `&mut self` after every store.
        let mut path = std::mem::take(&mut self.path);
        path.clear();
        let leaf_node = self.descend(game, &mut state, &mut path);
        let outcome = self.evaluate(game, &mut state, leaf_node);
        self.backup(game, &path, leaf_node, &outcome);
        self.path = path;
        self.line = Some(state);
    }

    /// Walks from the root to a leaf, applying the chosen moves to `state` and recording
    /// each step in `path`; expands the nodes that are due and creates the nodes of
    /// children that are due. Returns the node the walk ended at, or `None` when it ended
    /// on an edge whose child has no node yet (a leaf with fewer than `expand_threshold`
    /// visits: its visits are the edge's). Nodes are created lazily, when a child is due
    /// for expansion, so a search of n iterations holds about n / (threshold + 1) nodes
    /// rather than n.
    #[inline(always)]
    fn descend(&mut self, game: &G, state: &mut G::State, path: &mut Vec<Step>) -> Option<u32> {
        let mut node = 0u32;
        let threshold = self.params.expand_threshold;
        let mut leaf_node = None;
        let mut created_now = false;
        loop {
            let n = self.tree.nodes[node as usize];
            // A proven node below the root is a leaf whose value is known.
            if self.solving && node != 0 && self.tree.is_proven(node) {
                leaf_node = Some(node);
                break;
            }
            if n.mover == UNEXPANDED {
                let due = node == 0 || n.visits >= threshold;
                if !due {
                    leaf_node = Some(node);
                    break;
                }
                self.expand(game, state, node);
                if created_now && threshold == 0 {
                    // Expanded on creation (priors for PUCT): evaluate it, don't descend.
                    leaf_node = Some(node);
                    break;
                }
                continue;
            }
            if n.mover == TERMINAL {
                leaf_node = Some(node);
                break;
            }
            let child;
            if n.mover != SIMULTANEOUS {
                let lo = n.first_edge as usize;
                let k = self.admitted(n.visits, n.num_edges as usize);
                let e = self.select_in(Player(n.mover), n.visits, lo, lo + k);
                path.push(Step {
                    node,
                    edge: e as u32,
                    player: n.mover,
                    count_node: true,
                });
                let edge = self.tree.edges[e];
                game.apply(state, self.tree.moves[e]);
                if edge.child != NONE {
                    child = edge.child;
                } else if (edge.visits >= threshold || self.params.memoize_leaves)
                    && self.tree.nodes.len() < self.params.max_nodes
                {
                    // The child is due (or needs a node to hold its memo): give it one,
                    // carrying the visits it had as a leaf.
                    let c = self.tree.new_leaf();
                    self.tree.nodes[c as usize].visits = edge.visits;
                    self.tree.edges[e].child = c;
                    child = c;
                    created_now = true;
                } else {
                    break;
                }
            } else {
                let sim_index = n.aux as usize;
                let players = self.tree.sims[sim_index].players as usize;
                let mut key = 0u64;
                self.joint.clear();
                for p in 0..players {
                    let offs = self.tree.sims[sim_index].offsets;
                    let lo = n.first_edge as usize + offs[p] as usize;
                    let count = (offs[p + 1] - offs[p]) as usize;
                    let k = self.admitted(n.visits, count);
                    let e = self.select_in_random_ties(Player(p as u8), n.visits, lo, lo + k);
                    key = key * count as u64 + (e - lo) as u64;
                    self.joint.push(self.tree.moves[e]);
                    path.push(Step {
                        node,
                        edge: e as u32,
                        player: p as u8,
                        count_node: p == 0,
                    });
                }
                game.apply_joint(state, &self.joint);
                let found = self.tree.sims[sim_index]
                    .children
                    .iter()
                    .find(|c| c.0 == key)
                    .map(|c| c.1);
                child = match found {
                    Some(c) => c,
                    None if self.tree.nodes.len() < self.params.max_nodes => {
                        // Joint children have no edge of their own to count leaf visits,
                        // so they get a node at once.
                        let c = self.tree.new_leaf();
                        self.tree.sims[sim_index].children.push((key, c));
                        created_now = true;
                        c
                    }
                    None => break,
                };
            }
            node = child;
        }
        leaf_node
    }

    /// Scores the state a descent reached (`leaf_node` as [`Worker::descend`] returned it):
    /// a memoised result, the terminal rewards, or the leaf evaluator's (a playout, which
    /// plays `state` on), normalised to `[0, 1]`; memoises a new leaf's result when asked.
    #[inline(always)]
    fn evaluate(&mut self, game: &G, state: &mut G::State, leaf_node: Option<u32>) -> Outcome {
        let leaf = leaf_node.map(|i| self.tree.nodes[i as usize]);
        let k = self.tree.feature_count;
        // Where this iteration's features are: a memo entry, the evaluator, or nowhere
        // (terminal leaves contribute zeros).
        let mut features_from_memo = None;
        let mut terminal = false;
        let mut played_out = false;
        let proof = match leaf_node {
            Some(i) if self.solving && i != 0 => self.tree.proof(i),
            _ => None,
        };
        let rewards = match leaf {
            _ if proof.is_some() => {
                terminal = true;
                proof.expect("checked")
            }
            Some(n) if n.mover == UNEXPANDED && self.params.memoize_leaves && n.aux != NONE => {
                features_from_memo = Some(n.aux as usize);
                self.tree.memo[n.aux as usize]
            }
            Some(n) if n.mover == TERMINAL => {
                terminal = true;
                let r = self.leaf.evaluate_terminal(game, state);
                self.normalize(r)
            }
            _ if game.is_terminal(state) => {
                terminal = true;
                let r = self.leaf.evaluate_terminal(game, state);
                self.normalize(r)
            }
            _ => {
                // The generator is copied to a local for the playout so that it can live in
                // registers (through `&mut self` the compiler keeps it in memory).
                let mut rng = self.rng.clone();
                let r = self.leaf.evaluate(game, state, &mut rng, &mut self.moves);
                self.rng = rng;
                played_out = true;
                let r = self.normalize(r);
                if let (Some(i), true) = (leaf_node, self.params.memoize_leaves) {
                    if self.tree.nodes[i as usize].mover == UNEXPANDED {
                        self.tree.memo.push(r);
                        if k > 0 {
                            self.tree
                                .memo_features
                                .extend_from_slice(&self.leaf.features()[..k]);
                        }
                        self.tree.nodes[i as usize].aux = (self.tree.memo.len() - 1) as u32;
                    }
                }
                r
            }
        };
        Outcome {
            rewards,
            features_from_memo,
            terminal,
            played_out,
        }
    }
}

/// The search: workers (one tree per thread), budgets, determinization and the final move.
///
/// Generic over the selection rule `S`, the leaf evaluator `L` and the expander `X`, so the
/// inner loop is monomorphised for each combination; [`Mcts::uct`] is plain UCT.
pub struct Mcts<G: Game, S = Ucb1, L = Rollout<G, Uniform>, X = NoExpander> {
    /// The parameters (the budget may be changed between searches).
    pub params: MctsParams,
    workers: Vec<Worker<G, S, L, X>>,
    rng: Rng,
}

impl<G: Game> Mcts<G> {
    /// Plain UCT: UCB1 with `c = 1/√2` on `[0, 1]` rewards, uniform playouts to the end.
    pub fn uct(params: MctsParams, seed: u64) -> Self {
        Mcts::new(
            params,
            Ucb1::default(),
            Rollout::new(Uniform),
            NoExpander,
            seed,
        )
    }
}

impl<G, S, L, X> Mcts<G, S, L, X>
where
    G: Game,
    S: Selection,
    L: LeafEvaluator<G>,
    X: Expander<G>,
{
    /// A search with the given plug-ins; `seed` determines every random choice.
    pub fn new(params: MctsParams, selection: S, leaf: L, expander: X, seed: u64) -> Self {
        let threads = params.threads.max(1);
        let workers = (0..threads)
            .map(|t| {
                Worker::new(
                    params.clone(),
                    selection.clone(),
                    leaf.clone(),
                    expander.clone(),
                    derive_seed(seed, t as u64 + 1),
                )
            })
            .collect();
        Mcts {
            params,
            workers,
            rng: Rng::seed_from_u64(derive_seed(seed, 0)),
        }
    }

    /// Searches `state` for the player to move (at simultaneous turns, player 0; see
    /// [`Mcts::search_for`]).
    pub fn search(&mut self, game: &G, state: &G::State) -> SearchResult<G::Move> {
        let player = match game.turn(state) {
            Turn::Player(p) => p,
            _ => Player(0),
        };
        self.search_for(game, state, player)
    }

    /// Searches `state` and reports `player`'s root moves.
    pub fn search_for(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> SearchResult<G::Move> {
        self.search_for_until(game, state, player, None)
    }

    /// As [`Mcts::search_for`], and every worker also stops as soon as `stop` is raised
    /// (from another thread), within one iteration: the result then holds the root
    /// statistics as they were ([`SearchResult::stopped`]), possibly without any visit
    /// when the signal came before the first iteration. Remaining determinizations are
    /// skipped. A signal never raised changes nothing: the same seed gives the same search.
    pub fn search_for_until(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        stop: Option<&StopSignal>,
    ) -> SearchResult<G::Move> {
        let start = Instant::now();
        let budget = self.params.budget;
        let total_iters = budget.iterations.unwrap_or(u64::MAX);
        let deadline = budget.deadline(start);
        let threads = self.workers.len();
        let imperfect = game.facts().information == Information::Imperfect;
        let dets = if imperfect {
            self.params.determinizations.max(1)
        } else {
            1
        };
        // Determinizations handed round-robin to workers; each gets an equal share.
        let jobs = dets.max(threads);
        let per_job = if total_iters == u64::MAX {
            u64::MAX
        } else {
            total_iters.div_ceil(jobs as u64)
        };
        let det_seeds: Vec<u64> = (0..jobs).map(|_| self.rng.next_u64()).collect();
        let time_share = budget.time.map(|t| t / jobs.div_ceil(threads) as u32);
        // The first worker publishes its best move so far on the signal, for a caller whose
        // deadline comes while no worker can answer.
        for (t, w) in self.workers.iter_mut().enumerate() {
            w.publish_for((t == 0 && stop.is_some()).then_some(player));
        }

        let run_worker = |w: &mut Worker<G, S, L, X>, t: usize| -> WorkerOutput<G::Move> {
            let mut merged: Vec<RootChild<G::Move>> = Vec::new();
            let mut iters = 0;
            let mut stopped = false;
            for (slot, j) in (t..jobs).step_by(threads).enumerate() {
                if stopped {
                    break;
                }
                let job_deadline = match (deadline, time_share) {
                    (Some(d), Some(share)) => Some((start + share * (slot as u32 + 1)).min(d)),
                    (d, _) => d,
                };
                let remaining = per_job;
                if imperfect {
                    let mut det_rng = Rng::seed_from_u64(det_seeds[j]);
                    let det = game.determinize(state, player, &mut det_rng);
                    w.reset();
                    let (n, s) = w.run_until(game, &det, remaining, job_deadline, stop);
                    (iters, stopped) = (iters + n, s);
                } else {
                    let (n, s) = w.run_until(game, state, remaining, job_deadline, stop);
                    (iters, stopped) = (iters + n, s);
                }
                merge_children(&mut merged, w.root_children(player));
            }
            (merged, iters, stopped)
        };

        let outputs: Vec<WorkerOutput<G::Move>> = if threads == 1 {
            vec![run_worker(&mut self.workers[0], 0)]
        } else {
            std::thread::scope(|scope| {
                let handles: Vec<_> = self
                    .workers
                    .iter_mut()
                    .enumerate()
                    .map(|(t, w)| {
                        let run_worker = &run_worker;
                        scope.spawn(move || run_worker(w, t))
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("search worker panicked"))
                    .collect()
            })
        };
        let mut children = Vec::new();
        let mut iterations = 0;
        let mut stopped = false;
        for (c, i, s) in outputs {
            merge_children(&mut children, c);
            iterations += i;
            stopped |= s;
        }
        SearchResult {
            children,
            iterations,
            elapsed: start.elapsed(),
            nodes: self.workers.iter().map(|w| w.nodes()).sum(),
            stopped,
        }
    }

    /// The move `params.final_move` picks from `result`.
    pub fn choose(&mut self, result: &SearchResult<G::Move>) -> Option<G::Move> {
        result.choose(self.params.final_move, &mut self.rng)
    }

    /// The principal variation of the first worker's tree after the last search (see
    /// [`Worker::principal_variation`]); with determinizations, that of the last one
    /// searched.
    pub fn principal_variation(&self, max_len: usize) -> Vec<G::Move> {
        self.workers
            .first()
            .map_or_else(Vec::new, |w| w.principal_variation(max_len))
    }

    /// The line starting with the root move `first` in the first worker's tree (see
    /// [`Worker::principal_variation_from`]).
    pub fn principal_variation_from(&self, first: G::Move, max_len: usize) -> Vec<G::Move> {
        self.workers
            .first()
            .map_or_else(Vec::new, |w| w.principal_variation_from(first, max_len))
    }

    /// Tells every worker about moves played from `before` (tree reuse).
    pub fn advance(&mut self, game: &G, before: &G::State, played: Played<'_, G::Move>) {
        for w in &mut self.workers {
            w.advance(game, before, played);
        }
    }

    /// Drops every tree.
    pub fn reset(&mut self) {
        for w in &mut self.workers {
            w.reset();
        }
    }
}

/// What one worker of a search hands back: its root statistics (summed over its
/// determinizations), its iterations, and whether a stop signal ended it.
type WorkerOutput<M> = (Vec<RootChild<M>>, u64, bool);

/// Adds `from`'s statistics into `into`, matching moves.
fn merge_children<M: Copy + PartialEq>(into: &mut Vec<RootChild<M>>, from: Vec<RootChild<M>>) {
    if into.is_empty() {
        *into = from;
        return;
    }
    for c in from {
        match into.iter_mut().find(|x| x.mv == c.mv) {
            Some(x) => {
                x.visits += c.visits;
                x.total += c.total;
                x.proven = x.proven.or(c.proven);
                for (a, b) in x.features.iter_mut().zip(&c.features) {
                    *a += b;
                }
            }
            None => into.push(c),
        }
    }
}

impl<G, S, L, X> Mcts<G, S, L, X>
where
    G: Game,
    S: Selection,
    L: LeafEvaluator<G>,
    X: Expander<G>,
{
    /// Checks the invariants of every tree (visit counts add up); for tests.
    #[doc(hidden)]
    pub fn check_trees(&self) -> Result<(), String> {
        for w in &self.workers {
            for (i, n) in w.tree.nodes.iter().enumerate() {
                if n.mover < SIMULTANEOUS {
                    let sum: u32 = w.tree.edges[w.tree.edge_range(i as u32)]
                        .iter()
                        .map(|e| e.visits)
                        .sum();
                    if sum > n.visits {
                        return Err(format!(
                            "node {i}: edge visits {sum} > node visits {}",
                            n.visits
                        ));
                    }
                }
            }
        }
        Ok(())
    }
}

#[allow(dead_code)]
fn _assert_node_size() {
    // Keep nodes small: they are scanned on every iteration.
    const _: () = assert!(std::mem::size_of::<Node>() <= 24);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Budget;
    use crate::testing::Nim;
    use std::time::Duration;

    fn endless(threads: usize) -> Mcts<Nim> {
        let params = MctsParams {
            // Far beyond what the test waits for; the time limit only turns a stop
            // that is not obeyed into a failure instead of a hang.
            budget: Budget {
                iterations: Some(1_000_000_000_000),
                time: Some(Duration::from_secs(30)),
            },
            threads,
            ..MctsParams::default()
        };
        Mcts::uct(params, 5)
    }

    #[test]
    fn a_search_stopped_from_another_thread_returns_promptly_with_its_statistics() {
        let game = Nim::new(40);
        let state = game.initial_state();
        for threads in [1, 2] {
            let mut mcts = endless(threads);
            let stop = StopSignal::new();
            let (result, stopped_at) = std::thread::scope(|scope| {
                let stopper = stop.clone();
                let raised = scope.spawn(move || {
                    std::thread::sleep(Duration::from_millis(50));
                    stopper.stop();
                    Instant::now()
                });
                let result = mcts.search_for_until(&game, &state, Player(0), Some(&stop));
                (result, raised.join().unwrap())
            });
            let returned = Instant::now();
            assert!(result.stopped, "{threads} thread(s)");
            // Within one iteration of the signal (a Nim playout takes microseconds); the
            // bound only absorbs scheduling on a busy machine.
            let lag = returned.saturating_duration_since(stopped_at);
            assert!(lag < Duration::from_secs(1), "{threads} thread(s): {lag:?}");
            // Every iteration visits one root move: the statistics are the trees' as they
            // were when the signal came.
            assert!(result.iterations > 0);
            assert_eq!(result.root_visits(), result.iterations);
            mcts.check_trees().unwrap();
            let most = result.children.iter().map(|c| c.visits).max().unwrap();
            let chosen = mcts.choose(&result).unwrap();
            let chosen_visits = result.children.iter().find(|c| c.mv == chosen).unwrap();
            assert_eq!(chosen_visits.visits, most);
        }
    }

    #[test]
    fn a_running_search_publishes_its_best_move_so_far_on_the_signal() {
        // A search that would run 30 s; another thread reads what it publishes.
        let game = Nim::new(41);
        let state = game.initial_state();
        for threads in [1, 2] {
            let mut mcts = endless(threads);
            let stop = StopSignal::new();
            assert_eq!(stop.best_so_far(), None, "nothing before the search");
            let (seen, result) = std::thread::scope(|scope| {
                let watcher = stop.clone();
                let seen = scope.spawn(move || {
                    // Read while the search runs (it would run 30 s unless stopped).
                    let t = Instant::now();
                    let mut seen = None;
                    while seen.is_none() && t.elapsed() < Duration::from_secs(20) {
                        std::thread::sleep(Duration::from_millis(5));
                        seen = watcher.best_so_far();
                    }
                    // Let it learn, then read again: the publication follows the search.
                    std::thread::sleep(Duration::from_millis(300));
                    let later = watcher.best_so_far();
                    watcher.stop();
                    (seen, later)
                });
                let result = mcts.search_for_until(&game, &state, Player(0), Some(&stop));
                (seen.join().unwrap(), result)
            });
            let (first, later) = seen;
            let mut moves = Vec::new();
            game.legal_moves(&state, &mut moves);
            let legal: Vec<String> = moves.iter().map(|&m| game.format_move(&state, m)).collect();
            let first = first.expect("a move published while the search ran");
            assert!(legal.contains(&first), "{first:?} not in {legal:?}");
            // At the end the first worker published its final choice; with one thread that is
            // the search's own most visited move.
            let last = stop.best_so_far().unwrap();
            assert!(legal.contains(&later.unwrap()));
            if threads == 1 {
                let most = result.children.iter().max_by_key(|c| c.visits).unwrap();
                assert_eq!(last, game.format_move(&state, most.mv));
            }
        }
    }

    #[test]
    fn a_signal_never_raised_changes_nothing() {
        let game = Nim::new(15);
        let state = game.initial_state();
        for threads in [1, 2] {
            let params = MctsParams {
                budget: Budget::iterations(3000),
                threads,
                ..MctsParams::default()
            };
            let mut plain = Mcts::uct(params.clone(), 9);
            let mut watched = Mcts::uct(params, 9);
            let stop = StopSignal::new();
            for _ in 0..2 {
                let a = plain.search_for(&game, &state, Player(0));
                let b = watched.search_for_until(&game, &state, Player(0), Some(&stop));
                assert!(!b.stopped);
                assert_eq!(a.iterations, 3000);
                assert_eq!(a.children, b.children, "{threads} thread(s)");
                assert_eq!(plain.choose(&a), watched.choose(&b));
            }
        }
    }

    #[test]
    fn a_signal_raised_before_the_search_leaves_the_root_unvisited() {
        let game = Nim::new(15);
        let mut mcts = endless(1);
        let stop = StopSignal::new();
        stop.stop();
        let result = mcts.search_for_until(&game, &game.initial_state(), Player(0), Some(&stop));
        assert!(result.stopped);
        assert_eq!((result.iterations, result.root_visits()), (0, 0));
    }
}

#[cfg(test)]
mod solver_tests {
    use super::*;
    use crate::search::Budget;
    use crate::testing::Nim;
    use crate::Rng;

    fn search(heap: u32, iterations: u64, solver: bool) -> SearchResult<u32> {
        let game = Nim::new(heap);
        let params = MctsParams {
            budget: Budget::iterations(iterations),
            solver,
            ..MctsParams::default()
        };
        Mcts::uct(params, 3).search(&game, &game.initial_state())
    }

    #[test]
    fn the_solver_proves_a_won_nim_heap_and_stops_once_the_root_is_proven() {
        // Heap 9, take 1-3, taking the last stone wins: taking 1 leaves 8, a lost heap.
        let r = search(9, 200_000, true);
        assert!(
            r.iterations < 200_000,
            "{} iterations: the proof should end the search",
            r.iterations
        );
        let one = r.children.iter().find(|c| c.mv == 1).unwrap();
        assert_eq!(one.proven, Some(1.0), "{:?}", r.children);
        // The other moves leave heaps 7 and 6, won for the opponent: proven losses.
        for c in r.children.iter().filter(|c| c.mv != 1) {
            assert_eq!(c.proven, Some(0.0), "{c:?}");
            assert_eq!(c.mean(), Some(0.0), "a proven edge's mean is exact: {c:?}");
        }
        assert_eq!(
            r.choose(FinalMove::MostVisits, &mut Rng::seed_from_u64(0)),
            Some(1)
        );
    }

    #[test]
    fn without_the_solver_nothing_is_proven_and_the_budget_is_spent() {
        let r = search(9, 20_000, false);
        assert_eq!(r.iterations, 20_000);
        assert!(r.children.iter().all(|c| c.proven.is_none()));
    }

    #[test]
    fn a_proven_win_is_chosen_over_a_move_with_more_visits() {
        let c = |mv, visits, total, proven| RootChild {
            mv,
            visits,
            total,
            prior: 0.0,
            features: Vec::new(),
            proven,
        };
        let r = SearchResult {
            children: vec![
                c(1u32, 900, 600.0, None),
                c(2, 50, 50.0, Some(1.0)),
                c(3, 50, 0.0, Some(0.0)),
            ],
            iterations: 1000,
            elapsed: std::time::Duration::ZERO,
            nodes: 0,
            stopped: false,
        };
        let mut rng = Rng::seed_from_u64(1);
        assert_eq!(r.choose(FinalMove::MostVisits, &mut rng), Some(2));
        // Without the win, the proven loss is never chosen, even by visits.
        let r2 = SearchResult {
            children: vec![c(1u32, 10, 6.0, None), c(3, 900, 0.0, Some(0.0))],
            ..r.clone()
        };
        assert_eq!(r2.choose(FinalMove::MostVisits, &mut rng), Some(1));
    }
}

//! Adaptive playouts, the General Game Playing field's playout enhancements: playouts whose
//! policy is learned during the search from the moves and rewards of earlier playouts.
//!
//! - **MAST** (Move-Average Sampling Technique, Finnsson & Björnsson 2008): the average
//!   reward each player got in playouts where it played move `a`, whatever the state;
//!   moves are drawn by Gibbs sampling `π(a) ∝ exp(Q(a)/τ)` or ε-greedily.
//! - **NST** (N-gram Selection Technique, Tak, Winands & Björnsson 2012): the same averages
//!   for sequences of the last 1..N moves ending in `a` (the previous moves by anyone);
//!   `Q(a)` is the mean of the n-gram averages seen at least `min_visits` times (the
//!   1-gram always counts).
//! - **LGRF-1** (Last-Good-Reply with forgetting, Baier & Drake 2010, in GGP by Tak et al.):
//!   for each player and previous move, the reply the player made in its last won playout;
//!   it is played when legal, otherwise a uniformly random move. A reply in a lost playout
//!   is forgotten.
//!
//! Tables are keyed by (player, move or move sequence) through [`Hash`] of the game's move
//! type, so every game gets them; each search worker has its own (the evaluator is cloned
//! per worker: no locks). Unseen moves get `first_play` (1.0, the top of the normalised
//! reward range, as in Sironi's GGP settings), so they are tried. At the start of each search
//! statistics are multiplied by `decay` (0.2 keeps a fifth of the previous move's
//! knowledge; 0 clears them); last good replies are kept.
//!
//! Only the playout's moves update the tables (the tree's moves are scored by the tree).
//! Rewards are normalised to `[0, 1]` with the game's reward bounds.
//!
//! Thread safety: plain data owned by one worker.
//!
//! ```
//! use yomi_core::search::mcts::adaptive::{Adaptive, AdaptiveConfig};
//! use yomi_core::search::mcts::{Mcts, MctsParams, NoExpander, Ucb1};
//! use yomi_core::search::Budget;
//! use yomi_core::{Game, testing::Nim};
//! let game = Nim::new(7);
//! let params = MctsParams { budget: Budget::iterations(3000), ..MctsParams::default() };
//! let leaf = Adaptive::new(AdaptiveConfig::mast(0.1));
//! let mut mcts = Mcts::new(params, Ucb1::default(), leaf, NoExpander, 1);
//! let result = mcts.search(&game, &game.initial_state());
//! assert_eq!(mcts.choose(&result), Some(3));
//! ```

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};

use super::playout::LeafEvaluator;
use crate::game::{Game, Turn};
use crate::player::{Player, Rewards};
use crate::rng::Rng;

/// Which statistics guide the playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AdaptiveKind {
    /// Move averages per player.
    Mast,
    /// N-gram averages for `n` = 1..=`max_n` (2 or 3 in the literature).
    Nst {
        /// The longest n-gram.
        max_n: usize,
        /// Visits an n-gram with n > 1 needs before it counts (7 in Tak et al.).
        min_visits: u32,
    },
    /// Last good reply with forgetting, one previous move (LGRF-1).
    Lgr,
}

/// How MAST and NST turn move values into a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MoveChoice {
    /// `π(a) ∝ exp(Q(a)/τ)`, Q in `[0, 1]`.
    Gibbs {
        /// τ > 0; Finnsson & Björnsson's 10 on 0..100 rewards is 0.1 here.
        temperature: f64,
    },
    /// A uniformly random move with probability ε, else a best move (ties at random).
    EpsilonGreedy {
        /// ε in `[0, 1]` (0.4 in Sironi's settings).
        epsilon: f64,
    },
}

/// Settings of [`Adaptive`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdaptiveConfig {
    /// The statistics.
    pub kind: AdaptiveKind,
    /// How values become moves (MAST, NST).
    pub choice: MoveChoice,
    /// Fraction of the statistics kept from one search to the next (0 clears).
    pub decay: f64,
    /// Value of a move never seen, in `[0, 1]`.
    pub first_play: f64,
}

impl AdaptiveConfig {
    /// MAST with Gibbs sampling at `temperature`, decay 0.2.
    pub fn mast(temperature: f64) -> Self {
        AdaptiveConfig {
            kind: AdaptiveKind::Mast,
            choice: MoveChoice::Gibbs { temperature },
            decay: 0.2,
            first_play: 1.0,
        }
    }

    /// NST with n-grams up to `max_n`, ε-greedy with `epsilon`, decay 0.2.
    pub fn nst(max_n: usize, epsilon: f64) -> Self {
        AdaptiveConfig {
            kind: AdaptiveKind::Nst {
                max_n: max_n.clamp(1, 3),
                min_visits: 7,
            },
            choice: MoveChoice::EpsilonGreedy { epsilon },
            decay: 0.2,
            first_play: 1.0,
        }
    }

    /// LGRF-1 (uniform moves where no good reply is known).
    pub fn lgr() -> Self {
        AdaptiveConfig {
            kind: AdaptiveKind::Lgr,
            choice: MoveChoice::EpsilonGreedy { epsilon: 1.0 },
            decay: 0.2,
            first_play: 1.0,
        }
    }
}

/// A hasher for keys that are already well mixed 64-bit values.
#[derive(Clone, Copy, Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ b as u64).wrapping_mul(0x0100_0000_01b3);
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// Folds whatever a move hashes into one word (FxHash-style), for table keys.
#[derive(Default)]
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    #[inline]
    fn finish(&self) -> u64 {
        mix(self.0, 0)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(w));
        }
    }
    #[inline]
    fn write_u8(&mut self, x: u8) {
        self.add(x as u64)
    }
    #[inline]
    fn write_u16(&mut self, x: u16) {
        self.add(x as u64)
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.add(x as u64)
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.add(x)
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64)
    }
}

impl FoldHasher {
    #[inline]
    fn add(&mut self, w: u64) {
        self.0 = (self.0.rotate_left(5) ^ w).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

/// Mixes two words into a well-distributed key (splitmix64's finaliser).
#[inline]
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a ^ b.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(31);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[inline]
fn move_hash<M: Hash>(m: &M) -> u64 {
    let mut h = FoldHasher::default();
    m.hash(&mut h);
    h.finish()
}

/// Sum and count of rewards (counts are real numbers because of decay).
#[derive(Clone, Copy, Default, Debug)]
struct Stat {
    sum: f64,
    n: f64,
}

type Table<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// One move of the playout in progress.
#[derive(Clone, Copy)]
struct Played<M> {
    player: u8,
    mv: M,
    hash: u64,
}

/// A [`LeafEvaluator`] playing adaptive playouts to the end of the game. See the
/// [module docs](self).
pub struct Adaptive<G: Game> {
    config: AdaptiveConfig,
    stats: Table<Stat>,
    replies: Table<G::Move>,
    trace: Vec<Played<G::Move>>,
    values: Vec<f64>,
    joint: Vec<G::Move>,
    lo: f64,
    scale: f64,
    players: usize,
}

impl<G: Game> Clone for Adaptive<G> {
    fn clone(&self) -> Self {
        Adaptive {
            config: self.config,
            stats: self.stats.clone(),
            replies: self.replies.clone(),
            trace: self.trace.clone(),
            values: self.values.clone(),
            joint: self.joint.clone(),
            lo: self.lo,
            scale: self.scale,
            players: self.players,
        }
    }
}

// Key tags keep the tables' kinds of key apart.
const TAG_GRAM: [u64; 4] = [0, 0x11, 0x22, 0x33];
const TAG_REPLY: u64 = 0x44;

impl<G: Game> Adaptive<G> {
    /// Adaptive playouts with empty tables.
    pub fn new(config: AdaptiveConfig) -> Self {
        Adaptive {
            config,
            stats: Table::default(),
            replies: Table::default(),
            trace: Vec::new(),
            values: Vec::new(),
            joint: Vec::new(),
            lo: 0.0,
            scale: 1.0,
            players: 0,
        }
    }

    /// The settings.
    pub fn config(&self) -> &AdaptiveConfig {
        &self.config
    }

    /// Entries in the statistics table (moves or n-grams seen).
    pub fn table_len(&self) -> usize {
        self.stats.len()
    }

    /// Last good replies known.
    pub fn replies_len(&self) -> usize {
        self.replies.len()
    }

    /// The MAST value (mean normalised reward) of `player` playing `mv`, if seen.
    pub fn move_value(&self, player: Player, mv: &G::Move) -> Option<f64> {
        let s = self.stats.get(&gram_key(player.0, 1, &[move_hash(mv)]))?;
        (s.n > 0.0).then(|| s.sum / s.n)
    }

    /// The key of the n-gram made of the `n - 1` last moves of the trace and `h`.
    #[inline]
    fn key_at(&self, player: u8, n: usize, h: u64) -> Option<u64> {
        let t = self.trace.len();
        if n > t + 1 {
            return None;
        }
        let mut hashes = [h, 0, 0];
        for (k, slot) in hashes.iter_mut().enumerate().take(n).skip(1) {
            *slot = self.trace[t - k].hash;
        }
        Some(gram_key(player, n, &hashes))
    }

    /// The value of `player` playing a move of hash `h` next.
    #[inline]
    fn value(&self, player: u8, h: u64) -> f64 {
        match self.config.kind {
            AdaptiveKind::Mast => self
                .stats
                .get(&gram_key(player, 1, &[h]))
                .filter(|s| s.n > 0.0)
                .map_or(self.config.first_play, |s| s.sum / s.n),
            AdaptiveKind::Nst { max_n, min_visits } => {
                let mut total = 0.0;
                let mut count = 0u32;
                for n in 1..=max_n {
                    let Some(key) = self.key_at(player, n, h) else {
                        break;
                    };
                    if let Some(s) = self.stats.get(&key) {
                        if s.n > 0.0 && (n == 1 || s.n >= min_visits as f64) {
                            total += s.sum / s.n;
                            count += 1;
                        }
                    }
                }
                if count == 0 {
                    self.config.first_play
                } else {
                    total / count as f64
                }
            }
            AdaptiveKind::Lgr => 0.0,
        }
    }

    /// `player`'s move among `moves` (non-empty).
    fn pick(&mut self, player: u8, moves: &[G::Move], rng: &mut Rng) -> G::Move {
        if self.config.kind == AdaptiveKind::Lgr {
            if let Some(prev) = self.trace.last() {
                let key = mix(TAG_REPLY ^ ((player as u64) << 56), prev.hash);
                if let Some(reply) = self.replies.get(&key) {
                    if moves.contains(reply) {
                        return *reply;
                    }
                }
            }
            return moves[rng.below(moves.len())];
        }
        if let MoveChoice::EpsilonGreedy { epsilon } = self.config.choice {
            if epsilon > 0.0 && rng.chance(epsilon) {
                return moves[rng.below(moves.len())];
            }
        }
        let mut values = std::mem::take(&mut self.values);
        values.clear();
        values.extend(moves.iter().map(|m| self.value(player, move_hash(m))));
        let choice = match self.config.choice {
            MoveChoice::Gibbs { temperature } => {
                let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let inv_t = 1.0 / temperature.max(1e-9);
                let mut total = 0.0;
                for v in values.iter_mut() {
                    *v = ((*v - max) * inv_t).exp();
                    total += *v;
                }
                let mut x = rng.unit_f64() * total;
                let mut chosen = moves.len() - 1;
                for (i, w) in values.iter().enumerate() {
                    if x < *w {
                        chosen = i;
                        break;
                    }
                    x -= w;
                }
                chosen
            }
            MoveChoice::EpsilonGreedy { .. } => {
                let mut best = f64::NEG_INFINITY;
                let mut chosen = 0;
                let mut ties = 0usize;
                for (i, &v) in values.iter().enumerate() {
                    if v > best {
                        best = v;
                        chosen = i;
                        ties = 1;
                    } else if v == best {
                        ties += 1;
                        if rng.below(ties) == 0 {
                            chosen = i;
                        }
                    }
                }
                chosen
            }
        };
        self.values = values;
        moves[choice]
    }

    #[inline]
    fn record(&mut self, player: u8, mv: G::Move) {
        self.trace.push(Played {
            player,
            mv,
            hash: move_hash(&mv),
        });
    }

    /// Learns from the finished playout whose rewards are `r` (game units).
    fn learn(&mut self, r: &Rewards) {
        let mut norm = [0.0f64; crate::player::MAX_PLAYERS];
        for (p, slot) in norm.iter_mut().enumerate().take(self.players) {
            *slot = (r.get(Player(p as u8)) - self.lo) * self.scale;
        }
        match self.config.kind {
            AdaptiveKind::Mast | AdaptiveKind::Nst { .. } => {
                let max_n = match self.config.kind {
                    AdaptiveKind::Nst { max_n, .. } => max_n,
                    _ => 1,
                };
                for t in 0..self.trace.len() {
                    let p = self.trace[t].player;
                    let reward = norm[p as usize];
                    let mut hashes = [0u64; 3];
                    for n in 1..=max_n.min(t + 1) {
                        for (k, slot) in hashes.iter_mut().enumerate().take(n) {
                            *slot = self.trace[t - k].hash;
                        }
                        let key = gram_key(p, n, &hashes);
                        let s = self.stats.entry(key).or_default();
                        s.sum += reward;
                        s.n += 1.0;
                    }
                }
            }
            AdaptiveKind::Lgr => {
                let players = &norm[..self.players];
                let max = players.iter().copied().fold(f64::NEG_INFINITY, f64::max);
                let min = players.iter().copied().fold(f64::INFINITY, f64::min);
                for t in 1..self.trace.len() {
                    let cur = self.trace[t];
                    let key = mix(
                        TAG_REPLY ^ ((cur.player as u64) << 56),
                        self.trace[t - 1].hash,
                    );
                    if norm[cur.player as usize] >= max && max > min {
                        self.replies.insert(key, cur.mv);
                    } else if norm[cur.player as usize] < max
                        && self.replies.get(&key) == Some(&cur.mv)
                    {
                        self.replies.remove(&key);
                    }
                }
            }
        }
    }
}

/// Key of an n-gram: `hashes[0]` is the move, `hashes[1..n]` the moves before it from the
/// nearest back.
#[inline]
fn gram_key(player: u8, n: usize, hashes: &[u64]) -> u64 {
    let mut k = TAG_GRAM[n.min(3)] ^ ((player as u64) << 56);
    for &h in &hashes[..n.min(hashes.len())] {
        k = mix(k, h);
    }
    k
}

impl<G: Game> LeafEvaluator<G> for Adaptive<G> {
    fn evaluate(
        &mut self,
        game: &G,
        state: &mut G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Rewards {
        self.trace.clear();
        loop {
            match game.turn(state) {
                Turn::Terminal => break,
                Turn::Player(p) => {
                    game.legal_moves(state, buf);
                    if buf.is_empty() {
                        break;
                    }
                    let mv = self.pick(p.0, buf, rng);
                    self.record(p.0, mv);
                    game.apply(state, mv);
                }
                Turn::Simultaneous => {
                    if self.players == 0 {
                        self.players = game.players();
                    }
                    let mut joint = std::mem::take(&mut self.joint);
                    joint.clear();
                    for p in 0..self.players {
                        game.legal_moves_of(state, Player(p as u8), buf);
                        if buf.is_empty() {
                            break;
                        }
                        let mv = self.pick(p as u8, buf, rng);
                        joint.push(mv);
                    }
                    if joint.len() < self.players {
                        self.joint = joint;
                        break;
                    }
                    for (p, &mv) in joint.iter().enumerate() {
                        self.record(p as u8, mv);
                    }
                    game.apply_joint(state, &joint);
                    self.joint = joint;
                }
            }
        }
        let r = game.returns(state);
        self.learn(&r);
        r
    }

    fn begin_search(&mut self, game: &G, _root: &G::State) {
        let facts = game.facts();
        self.lo = facts.reward_bounds.0;
        self.scale = 1.0 / (facts.reward_bounds.1 - facts.reward_bounds.0);
        self.players = facts.players;
        let d = self.config.decay;
        if d <= 0.0 {
            self.stats.clear();
        } else if d < 1.0 {
            self.stats.retain(|_, s| {
                s.sum *= d;
                s.n *= d;
                s.n >= 0.01
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::mcts::{Mcts, MctsParams, NoExpander, Ucb1};
    use crate::search::Budget;
    use crate::testing::Nim;

    fn search(config: AdaptiveConfig, heap: u32, iters: u64, seed: u64) -> Option<u32> {
        let game = Nim::new(heap);
        let params = MctsParams {
            budget: Budget::iterations(iters),
            ..MctsParams::default()
        };
        let mut mcts = Mcts::new(
            params,
            Ucb1::default(),
            Adaptive::new(config),
            NoExpander,
            seed,
        );
        let r = mcts.search(&game, &game.initial_state());
        mcts.choose(&r)
    }

    #[test]
    fn every_kind_finds_the_winning_nim_move() {
        // Heap 7: take 3, leaving a multiple of 4.
        for config in [
            AdaptiveConfig::mast(0.1),
            AdaptiveConfig::nst(3, 0.4),
            AdaptiveConfig::nst(2, 0.4),
            AdaptiveConfig::lgr(),
            AdaptiveConfig {
                choice: MoveChoice::EpsilonGreedy { epsilon: 0.4 },
                ..AdaptiveConfig::mast(0.1)
            },
        ] {
            assert_eq!(search(config, 7, 4000, 3), Some(3), "{config:?}");
            // Seeded: the same seed gives the same choice.
            assert_eq!(search(config, 9, 300, 5), search(config, 9, 300, 5));
        }
    }

    #[test]
    fn tables_learn_decay_and_forget() {
        let game = Nim::new(9);
        let root = game.initial_state();
        let mut rng = Rng::seed_from_u64(1);
        let mut buf = Vec::new();
        let mut mast = Adaptive::<Nim>::new(AdaptiveConfig::mast(0.1));
        mast.begin_search(&game, &root);
        for _ in 0..500 {
            let mut s = root;
            let r = mast.evaluate(&game, &mut s, &mut rng, &mut buf);
            assert!(game.is_terminal(&s));
            assert!(r.get(Player(0)) + r.get(Player(1)) == 0.0);
        }
        // Nim has 3 moves per player: at most 6 entries, and their values are averages.
        assert!(mast.table_len() > 0 && mast.table_len() <= 6);
        let v = mast.move_value(Player(0), &1).unwrap();
        assert!((0.0..=1.0).contains(&v));
        let before: f64 = mast.stats.values().map(|s| s.n).sum();
        mast.begin_search(&game, &root);
        let after: f64 = mast.stats.values().map(|s| s.n).sum();
        assert!((after - 0.2 * before).abs() < 1e-6 * before);
        let mut clear = Adaptive::<Nim>::new(AdaptiveConfig {
            decay: 0.0,
            ..AdaptiveConfig::mast(0.1)
        });
        clear.evaluate(&game, &mut { root }, &mut rng, &mut buf);
        assert!(clear.table_len() > 0);
        clear.begin_search(&game, &root);
        assert_eq!(clear.table_len(), 0);
        // NST keeps more keys than MAST (longer n-grams).
        let mut nst = Adaptive::<Nim>::new(AdaptiveConfig::nst(3, 0.4));
        nst.begin_search(&game, &root);
        for _ in 0..200 {
            nst.evaluate(&game, &mut { root }, &mut rng, &mut buf);
        }
        assert!(nst.table_len() > 6);
        // LGR: a won playout stores replies; the winner's replies are played back.
        let mut lgr = Adaptive::<Nim>::new(AdaptiveConfig::lgr());
        lgr.begin_search(&game, &root);
        for _ in 0..200 {
            lgr.evaluate(&game, &mut { root }, &mut rng, &mut buf);
        }
        assert!(lgr.replies_len() > 0 && lgr.replies_len() <= 6);
    }

    #[test]
    fn gibbs_at_low_temperature_plays_the_best_valued_move() {
        let mut a = Adaptive::<Nim>::new(AdaptiveConfig::mast(0.01));
        a.players = 2;
        // Move 2 of player 0 has value 0.9, move 1 has 0.1, move 3 unseen (first play 1.0).
        for (mv, v) in [(1u32, 0.1), (2, 0.9)] {
            a.stats.insert(
                gram_key(0, 1, &[move_hash(&mv)]),
                Stat {
                    sum: v * 10.0,
                    n: 10.0,
                },
            );
        }
        let mut rng = Rng::seed_from_u64(2);
        let picks: Vec<u32> = (0..50).map(|_| a.pick(0, &[1, 2], &mut rng)).collect();
        assert!(picks.iter().all(|&m| m == 2), "{picks:?}");
        let picks: Vec<u32> = (0..50).map(|_| a.pick(0, &[1, 2, 3], &mut rng)).collect();
        assert!(
            picks.iter().all(|&m| m == 3),
            "unseen moves come first: {picks:?}"
        );
        // At a high temperature both seen moves appear.
        a.config.choice = MoveChoice::Gibbs { temperature: 10.0 };
        let picks: Vec<u32> = (0..200).map(|_| a.pick(0, &[1, 2], &mut rng)).collect();
        assert!(picks.contains(&1) && picks.contains(&2));
    }
}

//! Colour estimation for the hidden-colour game: the "blueness" estimator of the spec's §4
//! (Suetsugu, GAT2018) and [`EstimateAgent`], which searches the estimated
//! perfect-information position with any inner agent.
//!
//! # The estimator
//! Every ghost keeps a blueness score, 0 at the start, updated after each of its owner's
//! moves (never recomputed). "Contact count" is the number of the other player's ghosts on
//! the four neighbouring squares; "row 1 or 2 as seen from us" are the two rows nearest to
//! the estimating player's own back edge (where the moving ghost's exits are). For the ghost
//! that moved, the first matching rule applies:
//!
//! | the moved ghost | update |
//! |---|---|
//! | moved forward, contact rose, and is now in row 1 or 2 | +2.5 |
//! | moved forward and contact rose | −1.5 |
//! | moved sideways and contact rose | −1.0 |
//! | moved forward and contact went from ≥ 1 to 0 | +4.0 |
//! | any other move that took contact from ≥ 1 to 0 | +1.5 |
//! | contact stayed 0 and it is now in row 1 or 2 | +10.0 |
//!
//! and every other ghost of the mover that had contact ≥ 1 before the move (and so chose to
//! stay) gets −1.2. Contact counts are taken before the move and after it. Scores follow
//! their ghosts from square to square and vanish on capture. The estimate colours the
//! `k` highest-scoring ghosts blue, where `k` is the number of the opponent's blues still on
//! the board (4 minus the captured blues, which the captures revealed); ties are broken at
//! random. Only what the estimating player observes is used: ghost positions, moves and the
//! colour counts.
//!
//! Both players' ghosts are scored, so one estimator serves an agent in either seat.
//!
//! Beyond the paper: [`BluenessEstimator::estimate_guarded`] colours ghosts that run for an
//! exit blue whatever their score (a rush player's blue ghost advances into contact, which
//! the table scores as a red bluff); `estimate:guard=N` turns it on.

use yomi_core::{Agent, AgentError, Game, Played, Player, Rng};

use crate::rules::{bits, Dir, Geister, GeisterMove, GeisterState};

/// The score updates of the table above, named for tests and tuning.
pub mod update {
    /// Forward, contact rose, now in row 1 or 2.
    pub const FORWARD_CONTACT_NEAR: f32 = 2.5;
    /// Forward, contact rose.
    pub const FORWARD_CONTACT: f32 = -1.5;
    /// Sideways, contact rose.
    pub const SIDEWAYS_CONTACT: f32 = -1.0;
    /// Forward, contact went to 0.
    pub const FORWARD_FREED: f32 = 4.0;
    /// Any other move that took contact to 0.
    pub const FREED: f32 = 1.5;
    /// No contact before or after, now in row 1 or 2.
    pub const FREE_NEAR: f32 = 10.0;
    /// Had contact and stayed.
    pub const STAYED_IN_CONTACT: f32 = -1.2;
}

/// How many of a ghost's own moves in a row must have brought it nearer to an exit for
/// the guard to count it as running for the exit (see
/// [`BluenessEstimator::estimate_guarded`]): a ghost that a random mover pushes one step
/// closer is not a threat yet; one that comes on move after move is.
pub const GUARD_STREAK: u8 = 2;

/// The moves `owner`'s ghost on `sq` needs to escape: the steps to its nearest exit
/// corner, plus the escape itself.
fn escape_moves(game: &Geister, owner: Player, sq: u8) -> usize {
    let (x, y) = game.coords(sq);
    game.exits(owner)
        .iter()
        .map(|&e| {
            let (ex, ey) = game.coords(e);
            x.abs_diff(ex) + y.abs_diff(ey) + 1
        })
        .min()
        .unwrap_or(usize::MAX)
}

/// Blueness scores of both players' ghosts, by square.
#[derive(Clone, Debug, PartialEq)]
pub struct BluenessEstimator {
    scores: [[f32; 36]; 2],
    /// Per ghost (by square): how many of its own last moves in a row brought it nearer to
    /// one of its exits (the guard's sign of a ghost running for the exit).
    approach: [[u8; 36]; 2],
    /// Where the ghosts stood after the last move seen (both players' occupancy and the
    /// ply counter); a `before` that differs means a new game (or a missed move) and
    /// restarts the scores. Colours are not compared: only what both players see counts.
    last: Option<(u64, u64, u16)>,
}

impl Default for BluenessEstimator {
    fn default() -> Self {
        Self::new()
    }
}

impl BluenessEstimator {
    /// All scores 0.
    pub fn new() -> Self {
        BluenessEstimator {
            scores: [[0.0; 36]; 2],
            approach: [[0; 36]; 2],
            last: None,
        }
    }

    /// The score of the ghost of `owner` on `sq` (0 for an empty square).
    pub fn score(&self, owner: Player, sq: u8) -> f32 {
        self.scores[owner.index()][sq as usize]
    }

    /// Forgets everything.
    pub fn reset(&mut self) {
        *self = Self::new();
    }

    /// Updates the scores for `mv`, played by `mover` from `before`.
    pub fn observe_move(
        &mut self,
        game: &Geister,
        before: &GeisterState,
        mover: Player,
        mv: GeisterMove,
    ) {
        let seen = |s: &GeisterState| {
            (
                game.ghosts_of(s, Player(0)),
                game.ghosts_of(s, Player(1)),
                s.plies(),
            )
        };
        if self.last != Some(seen(before)) {
            self.reset();
        }
        let mut after = *before;
        game.apply(&mut after, mv);
        self.last = Some(seen(&after));
        let GeisterMove::Step { from, dir } = mv else {
            return;
        };
        let m = mover.index();
        let them = mover.opponent();
        let own_before = game.ghosts_of(before, mover);
        let their_before = game.ghosts_of(before, them);
        let their_after = game.ghosts_of(&after, them);
        let contact = |sq: u8, theirs: u64| {
            Dir::ALL
                .iter()
                .filter_map(|&d| game.neighbour(sq, d))
                .filter(|&t| theirs >> t & 1 == 1)
                .count()
        };
        // Ghosts that stayed in contact.
        for sq in bits(own_before & !(1u64 << from)) {
            if contact(sq, their_before) >= 1 {
                self.scores[m][sq as usize] += update::STAYED_IN_CONTACT;
            }
        }
        let mut score = self.scores[m][from as usize];
        self.scores[m][from as usize] = 0.0;
        let streak = self.approach[m][from as usize];
        self.approach[m][from as usize] = 0;
        let Some(to) = game.neighbour(from, dir) else {
            return; // an escape: the game is over
        };
        // A capture removes the captured ghost's score.
        self.scores[them.index()][to as usize] = 0.0;
        self.approach[them.index()][to as usize] = 0;
        self.approach[m][to as usize] =
            if escape_moves(game, mover, to) < escape_moves(game, mover, from) {
                streak.saturating_add(1)
            } else {
                0
            };
        let c0 = contact(from, their_before);
        let c1 = contact(to, their_after);
        let forward = dir == Geister::forward(mover);
        let sideways = matches!(dir, Dir::East | Dir::West);
        let (_, y) = game.coords(to);
        // Rows counted from the estimating player's back edge (1 = that edge).
        let row = if them.0 == 0 {
            game.height() - y
        } else {
            y + 1
        };
        let near = row <= 2;
        score += if forward && c1 > c0 && near {
            update::FORWARD_CONTACT_NEAR
        } else if forward && c1 > c0 {
            update::FORWARD_CONTACT
        } else if sideways && c1 > c0 {
            update::SIDEWAYS_CONTACT
        } else if forward && c0 >= 1 && c1 == 0 {
            update::FORWARD_FREED
        } else if c0 >= 1 && c1 == 0 {
            update::FREED
        } else if c0 == 0 && c1 == 0 && near {
            update::FREE_NEAR
        } else {
            0.0
        };
        self.scores[m][to as usize] = score;
    }

    /// `state` with the colours of `observer`'s opponent replaced by the estimate: the
    /// opponent's blues still on the board go to its highest-scoring ghosts (ties at random).
    /// Uses only what `observer` sees of `state`.
    pub fn estimate(
        &self,
        game: &Geister,
        state: &GeisterState,
        observer: Player,
        rng: &mut Rng,
    ) -> GeisterState {
        self.estimate_guarded(game, state, observer, 0, rng)
    }

    /// [`estimate`](Self::estimate), but the opponent's ghosts that could escape within
    /// `guard` of their own moves (the steps to an exit corner, plus the escape) and whose
    /// last [`GUARD_STREAK`] moves each brought them nearer to an exit are coloured blue
    /// first, nearest first, whatever their scores: a blue taken for red next to an exit
    /// loses the game at once, a red taken for blue at most a capture. 0 turns the guard
    /// off. Once the opponent has a single red left on the board the guard is off too:
    /// capturing it loses at once, so a wrong guess costs as much either way.
    pub fn estimate_guarded(
        &self,
        game: &Geister,
        state: &GeisterState,
        observer: Player,
        guard: u32,
        rng: &mut Rng,
    ) -> GeisterState {
        let q = observer.opponent();
        if !state.has_set_up(q) || game.is_terminal(state) {
            return *state;
        }
        let on = state.blue(q) | state.red(q);
        let blues = state.blue(q).count_ones() as usize;
        let reds = on.count_ones() as usize - blues;
        let guard = if reds <= 1 { 0 } else { guard };
        // (threat rank, score, tie-break, square): threats within the guard first.
        let mut ghosts = [(usize::MAX, 0f32, 0u64, 0u8); 8];
        let mut n = 0;
        for sq in bits(on) {
            let d = escape_moves(game, q, sq);
            let running = self.approach[q.index()][sq as usize] >= GUARD_STREAK;
            let rank = if d <= guard as usize && running {
                d
            } else {
                usize::MAX
            };
            ghosts[n] = (rank, self.score(q, sq), rng.next_u64(), sq);
            n += 1;
        }
        let ghosts = &mut ghosts[..n];
        ghosts.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)).then(a.2.cmp(&b.2)));
        let blue = ghosts[..blues].iter().fold(0u64, |m, g| m | 1 << g.3);
        let mut s = *state;
        s.blue[q.index()] = blue;
        s.red[q.index()] = on & !blue;
        s
    }
}

/// An agent for the hidden-colour game that estimates the opponent's colours with a
/// [`BluenessEstimator`] and lets an inner agent choose a move in the estimated position of
/// the perfect-information game ([`Geister::perfect_view`]).
///
/// The inner agent is any `Agent<Geister>` (core's `mcts`, or a network search from
/// `yomi-nn`): it only ever sees the perfect-information game and estimated states, through
/// `select_move`.
pub struct EstimateAgent {
    inner: Box<dyn Agent<Geister>>,
    estimator: BluenessEstimator,
    /// See [`BluenessEstimator::estimate_guarded`].
    guard: u32,
    rng: Rng,
    name: String,
}

impl EstimateAgent {
    /// An agent named `name` (its spec string) around `inner`; `seed` breaks score ties.
    pub fn new(inner: Box<dyn Agent<Geister>>, name: String, seed: u64) -> Self {
        EstimateAgent {
            inner,
            estimator: BluenessEstimator::new(),
            guard: 0,
            rng: Rng::seed_from_u64(seed),
            name,
        }
    }

    /// Colours the opponent's ghosts within `guard` moves of escaping blue (see
    /// [`BluenessEstimator::estimate_guarded`]; 0, the default, is the paper's estimate).
    pub fn with_guard(mut self, guard: u32) -> Self {
        self.guard = guard;
        self
    }

    /// The estimator (for inspection).
    pub fn estimator(&self) -> &BluenessEstimator {
        &self.estimator
    }
}

impl Agent<Geister> for EstimateAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &Geister,
        state: &GeisterState,
        player: Player,
    ) -> Result<GeisterMove, AgentError> {
        let estimated =
            self.estimator
                .estimate_guarded(game, state, player, self.guard, &mut self.rng);
        let perfect = game.perfect_view();
        self.inner.select_move(&perfect, &estimated, player)
    }

    fn observe(&mut self, game: &Geister, before: &GeisterState, played: Played<'_, GeisterMove>) {
        if let Played::Single(p, mv) = played {
            self.estimator.observe_move(game, before, p, mv);
        }
    }
}

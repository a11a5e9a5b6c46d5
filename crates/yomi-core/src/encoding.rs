//! Games as numbers: a fixed integer per move ([`ActionSpace`]) and, for games a network
//! can read, a fixed-shape tensor per state ([`TensorGame`]).
//!
//! Games implement these next to their rules, with no dependency on any network library;
//! `yomi-nn` builds its networks, PUCT search and training on [`TensorGame`] alone, so one
//! AlphaZero serves every game that implements it, and the Python package and the web
//! board speak to every game through [`ActionSpace`]'s integer actions (as OpenSpiel's
//! users expect).

use crate::{Game, Player};

/// The shape of one encoded state: `channels × height × width`, channel-major.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct TensorShape {
    /// Feature planes.
    pub channels: usize,
    /// Board rows.
    pub height: usize,
    /// Board columns.
    pub width: usize,
}

impl TensorShape {
    /// Values in one encoded state.
    pub const fn len(&self) -> usize {
        self.channels * self.height * self.width
    }

    /// True for a shape with no values.
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The flat offset of `(channel, row, column)`.
    #[inline]
    pub const fn offset(&self, channel: usize, row: usize, column: usize) -> usize {
        (channel * self.height + row) * self.width + column
    }
}

/// A game whose moves have fixed integer names: every move of every position maps to an
/// action below [`ActionSpace::num_actions`], the same move to the same action wherever
/// it is legal where the game allows that (a board point, a GDL action term), and
/// distinct legal moves of one state to distinct actions.
pub trait ActionSpace: Game {
    /// The number of distinct actions (OpenSpiel's `num_distinct_actions`); also the
    /// size of a network's policy output.
    fn num_actions(&self) -> usize;

    /// The action (below `num_actions()`) of `mv`, a legal move of `player` in `state`
    /// (for sequential games, the player to move). Distinct legal moves of one player in
    /// one state have distinct actions.
    fn action_index(&self, state: &Self::State, mv: Self::Move) -> usize;

    /// The legal move of `player` in `state` whose action is `action`, or `None`. The
    /// default searches the legal moves; games with a direct inverse override it.
    fn action_move(
        &self,
        state: &Self::State,
        player: Player,
        action: usize,
    ) -> Option<Self::Move> {
        let mut moves = Vec::new();
        self.legal_moves_of(state, player, &mut moves);
        moves
            .into_iter()
            .find(|&m| self.action_index(state, m) == action)
    }
}

/// A game a network can read: states become `f32` tensors of one shape, and every move
/// of a position has a policy index, its [`ActionSpace`] action.
///
/// Encodings are written from the point of view of one player (`perspective`), which
/// lets a single network play both sides: "my pieces" and "the opponent's pieces" rather
/// than black and white. For hidden-information games the encoding must only use what
/// `perspective` observes.
pub trait TensorGame: ActionSpace {
    /// The shape of every encoded state.
    fn tensor_shape(&self) -> TensorShape;

    /// Writes `state` as seen by `perspective` into `out`, which has
    /// `tensor_shape().len()` values; every value is overwritten.
    fn encode(&self, state: &Self::State, perspective: Player, out: &mut [f32]);
}

/// Checks a [`TensorGame`] along random games: encodings have the declared length and
/// are finite, and [`check_action_space`] holds.
///
/// # Panics
/// When a check fails, naming the state.
pub fn check_tensor_game<G: TensorGame>(game: &G, games: usize, seed: u64) {
    check_action_space(game, games, seed);
    let shape = game.tensor_shape();
    assert!(!shape.is_empty(), "tensor shape {shape:?} is empty");
    let mut rng = crate::Rng::seed_from_u64(seed);
    let mut buf = vec![f32::NAN; shape.len()];
    let mut moves = Vec::new();
    let players = game.facts().players;
    for _ in 0..games {
        let mut state = game.initial_state();
        loop {
            for p in 0..players {
                buf.fill(f32::NAN);
                game.encode(&state, Player(p as u8), &mut buf);
                assert!(
                    buf.iter().all(|v| v.is_finite()),
                    "encoding of {} for player {p} left a value unwritten or not finite",
                    game.format_state(&state)
                );
            }
            if game.is_terminal(&state) {
                break;
            }
            random_step(game, &mut state, &mut rng, &mut moves);
        }
    }
}

/// Plays one uniformly random legal step (a joint move at simultaneous turns).
fn random_step<G: Game>(
    game: &G,
    state: &mut G::State,
    rng: &mut crate::Rng,
    moves: &mut Vec<G::Move>,
) {
    match game.turn(state) {
        crate::Turn::Player(_) => {
            game.legal_moves(state, moves);
            let mv = moves[rng.below(moves.len())];
            game.apply(state, mv);
        }
        crate::Turn::Simultaneous => {
            let mut joint = Vec::new();
            for p in 0..game.facts().players {
                game.legal_moves_of(state, Player(p as u8), moves);
                joint.push(moves[rng.below(moves.len())]);
            }
            game.apply_joint(state, &joint);
        }
        crate::Turn::Terminal => {}
    }
}

/// Checks an [`ActionSpace`] along `games` random games: every legal move of every
/// player has an action below `num_actions()`, distinct within one state, and
/// [`ActionSpace::action_move`] maps each action back to its move.
///
/// # Panics
/// When a check fails, naming the state.
pub fn check_action_space<G: ActionSpace>(game: &G, games: usize, seed: u64) {
    let policy = game.num_actions();
    assert!(policy > 0, "an action space with no actions");
    let mut rng = crate::Rng::seed_from_u64(seed ^ 0xac71);
    let mut moves = Vec::new();
    let mut seen = vec![false; policy];
    let players = game.facts().players;
    for _ in 0..games {
        let mut state = game.initial_state();
        while !game.is_terminal(&state) {
            for p in (0..players).map(|p| Player(p as u8)) {
                game.legal_moves_of(&state, p, &mut moves);
                seen.fill(false);
                for &mv in &moves {
                    let i = game.action_index(&state, mv);
                    assert!(i < policy, "action {i} >= num_actions {policy}");
                    assert!(
                        !seen[i],
                        "two moves share action {i} in {}",
                        game.format_state(&state)
                    );
                    seen[i] = true;
                    assert_eq!(
                        game.action_move(&state, p, i),
                        Some(mv),
                        "action {i} does not map back to its move in {}",
                        game.format_state(&state)
                    );
                }
            }
            random_step(game, &mut state, &mut rng, &mut moves);
        }
    }
}

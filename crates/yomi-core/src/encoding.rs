//! How a neural network reads a game: a fixed-shape tensor per state and a fixed policy
//! index per move.
//!
//! Games implement [`TensorGame`] next to their rules, with no dependency on any network
//! library; `yomi-nn` builds its networks, PUCT search and training on this trait alone, so
//! one AlphaZero serves every game that implements it.

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

/// A game a network can read: states become `f32` tensors of one shape, and every move
/// of a position has an index below [`TensorGame::policy_size`].
///
/// Encodings are written from the point of view of one player (`perspective`), which
/// lets a single network play both sides: "my pieces" and "the opponent's pieces" rather
/// than black and white. For hidden-information games the encoding must only use what
/// `perspective` observes.
pub trait TensorGame: Game {
    /// The shape of every encoded state.
    fn tensor_shape(&self) -> TensorShape;

    /// The number of policy outputs.
    fn policy_size(&self) -> usize;

    /// Writes `state` as seen by `perspective` into `out`, which has
    /// `tensor_shape().len()` values; every value is overwritten.
    fn encode(&self, state: &Self::State, perspective: Player, out: &mut [f32]);

    /// The policy index (below `policy_size()`) of `mv`, a legal move of the player to
    /// move in `state`. Distinct legal moves of one state have distinct indices.
    fn move_index(&self, state: &Self::State, mv: Self::Move) -> usize;
}

/// Checks a [`TensorGame`] along random games: encodings have the declared length and
/// are finite, and legal moves get distinct indices below the policy size.
///
/// # Panics
/// When a check fails, naming the state.
pub fn check_tensor_game<G: TensorGame>(game: &G, games: usize, seed: u64) {
    let shape = game.tensor_shape();
    assert!(!shape.is_empty(), "tensor shape {shape:?} is empty");
    let policy = game.policy_size();
    let mut rng = crate::Rng::seed_from_u64(seed);
    let mut buf = vec![f32::NAN; shape.len()];
    let mut moves = Vec::new();
    let mut seen = vec![false; policy];
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
            let crate::Turn::Player(_) = game.turn(&state) else {
                break;
            };
            game.legal_moves(&state, &mut moves);
            seen.fill(false);
            for &mv in &moves {
                let i = game.move_index(&state, mv);
                assert!(i < policy, "move index {i} >= policy size {policy}");
                assert!(
                    !seen[i],
                    "two moves share index {i} in {}",
                    game.format_state(&state)
                );
                seen[i] = true;
            }
            let mv = moves[rng.below(moves.len())];
            game.apply(&mut state, mv);
        }
    }
}

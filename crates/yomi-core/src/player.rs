//! Players and reward vectors.

use std::fmt;

/// The most players a game may have. Reward vectors are fixed-size arrays of this length so
/// that playouts and backups never allocate.
pub const MAX_PLAYERS: usize = 8;

/// A player, numbered from 0 in the order the game declares (for two-player games 0 moves
/// first unless the game says otherwise).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Player(pub u8);

impl Player {
    /// The index of this player, for indexing per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// In a two-player game, the other player.
    #[inline]
    pub const fn opponent(self) -> Player {
        Player(1 - self.0)
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "P{}", self.0)
    }
}

/// One reward per player, in the game's own units (see [`crate::GameFacts::reward_bounds`]).
///
/// A small `Copy` array rather than a `Vec`: rewards are produced by every playout and added
/// into the tree on every backup.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rewards {
    players: u8,
    values: [f64; MAX_PLAYERS],
}

impl Rewards {
    /// All-zero rewards for `players` players.
    ///
    /// # Panics
    /// If `players` exceeds [`MAX_PLAYERS`] (a game declaring that many players is a
    /// programming error, caught when the game is written).
    #[inline]
    pub fn zeros(players: usize) -> Self {
        assert!(
            players <= MAX_PLAYERS,
            "at most {MAX_PLAYERS} players are supported"
        );
        Rewards {
            players: players as u8,
            values: [0.0; MAX_PLAYERS],
        }
    }

    /// Rewards from a slice, one per player.
    pub fn from_slice(values: &[f64]) -> Self {
        let mut r = Rewards::zeros(values.len());
        r.values[..values.len()].copy_from_slice(values);
        r
    }

    /// Two-player zero-sum rewards: `value` for player 0, `-value` for player 1.
    #[inline]
    pub fn zero_sum(value: f64) -> Self {
        let mut r = Rewards::zeros(2);
        r.values[0] = value;
        // `0.0 - v` rather than `-v`: a draw gives +0.0 to both, not -0.0 in records.
        r.values[1] = 0.0 - value;
        r
    }

    /// The number of players.
    #[inline]
    pub fn len(&self) -> usize {
        self.players as usize
    }

    /// True for a zero-player vector.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.players == 0
    }

    /// The reward of `player`.
    #[inline]
    pub fn get(&self, player: Player) -> f64 {
        self.values[player.index()]
    }

    /// Sets the reward of `player`.
    #[inline]
    pub fn set(&mut self, player: Player, value: f64) {
        self.values[player.index()] = value;
    }

    /// The rewards as a slice, one per player.
    #[inline]
    pub fn as_slice(&self) -> &[f64] {
        &self.values[..self.players as usize]
    }

    /// The sum over players (0 for a zero-sum game).
    pub fn sum(&self) -> f64 {
        self.as_slice().iter().sum()
    }

    /// Maps each reward from `[lo, hi]` linearly onto `[0, 1]`.
    #[inline]
    pub fn normalized(&self, lo: f64, hi: f64) -> Self {
        let mut r = *self;
        let scale = 1.0 / (hi - lo);
        for v in &mut r.values[..self.players as usize] {
            *v = (*v - lo) * scale;
        }
        r
    }
}

impl std::ops::Index<Player> for Rewards {
    type Output = f64;
    fn index(&self, p: Player) -> &f64 {
        &self.values[p.index()]
    }
}

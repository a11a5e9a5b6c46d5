//! The game abstraction: one trait, [`Game`], that every yomi game implements.
//!
//! A `Game` value holds the rules and any fixed parameters (board size, a compiled GDL rule
//! sheet, a map); a [`Game::State`] is plain data for one position. Rules take states by
//! reference, so states stay small and cheap to clone while large rule data is shared.
//!
//! Turn structure is described by [`Turn`]: one player to move (sequential games; the same
//! player may move several times in a row), all players at once ([`Turn::Simultaneous`],
//! as in GDL), or the end of the game. Hidden information is expressed by
//! [`Game::observation`] and [`Game::determinize`].

use std::fmt::Debug;
use std::hash::{Hash, Hasher};

use crate::notation::{IllegalMove, NotationError};
use crate::player::{Player, Rewards};
use crate::rng::Rng;

/// Whether players move one at a time or together.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Dynamics {
    /// One player moves at a time ([`Turn::Player`]).
    Sequential,
    /// Some or all states ask every player for a move at once ([`Turn::Simultaneous`]).
    Simultaneous,
}

/// Whether every player sees the whole state.
#[derive(Clone, Copy, PartialEq, Eq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Information {
    /// Every player sees everything.
    Perfect,
    /// Some of the state is hidden from some players; see [`Game::determinize`].
    Imperfect,
}

/// How the players' rewards relate to each other.
#[derive(Clone, Copy, PartialEq, Debug, serde::Serialize, serde::Deserialize)]
pub enum Utility {
    /// Rewards sum to zero.
    ZeroSum,
    /// Rewards sum to the given constant.
    ConstantSum(f64),
    /// No constraint.
    GeneralSum,
}

/// Facts about a game that do not change during play (OpenSpiel's `GameType`).
#[derive(Clone, Debug, PartialEq)]
pub struct GameFacts {
    /// Short name, as used on the command line.
    pub name: String,
    /// Number of players.
    pub players: usize,
    /// A name for each player ("black", "white", a GDL role).
    pub player_names: Vec<String>,
    /// Sequential or simultaneous moves.
    pub dynamics: Dynamics,
    /// Perfect or imperfect information.
    pub information: Information,
    /// How rewards relate.
    pub utility: Utility,
    /// Lowest and highest reward any player can receive, in the game's own units.
    pub reward_bounds: (f64, f64),
    /// An upper bound on the number of turns (calls to apply) in a game, if known.
    pub max_turns: Option<usize>,
}

impl GameFacts {
    /// The facts of a two-player, sequential, perfect-information, zero-sum game whose
    /// rewards are -1 (loss), 0 (draw) and +1 (win).
    pub fn two_player_zero_sum(name: &str, player_names: [&str; 2], max_turns: usize) -> Self {
        GameFacts {
            name: name.to_string(),
            players: 2,
            player_names: player_names.iter().map(|s| s.to_string()).collect(),
            dynamics: Dynamics::Sequential,
            information: Information::Perfect,
            utility: Utility::ZeroSum,
            reward_bounds: (-1.0, 1.0),
            max_turns: Some(max_turns),
        }
    }

    /// The name of `player`, or `P<n>` when the game gave none.
    pub fn player_name(&self, player: Player) -> String {
        self.player_names
            .get(player.index())
            .cloned()
            .unwrap_or_else(|| player.to_string())
    }

    /// Iterates over all players.
    pub fn all_players(&self) -> impl Iterator<Item = Player> {
        (0..self.players as u8).map(Player)
    }
}

/// Who acts in a state.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Turn {
    /// This player chooses the next move.
    Player(Player),
    /// Every player chooses a move at once; see [`Game::legal_moves_of`] and
    /// [`Game::apply_joint`].
    Simultaneous,
    /// The game is over; see [`Game::returns`].
    Terminal,
}

/// A game's rules. See the [module documentation](self).
///
/// Implementations must be deterministic: the same state and move always give the same
/// next state. Randomness in a game (a random set-up) is modelled as a move by a player
/// or lives in agents, never in `apply`.
pub trait Game: Send + Sync + 'static {
    /// One position, including whose turn it is. Plain data: cloning must be cheap and must
    /// not share mutable data with the original.
    type State: Clone + Eq + Hash + Debug + Send + Sync + 'static;
    /// One player's move (for sequential games, the move of the player to move).
    type Move: Copy + Eq + Hash + Debug + Send + Sync + 'static;

    /// Facts that do not change during play.
    ///
    /// The facts are computed once, when the game is built (or, for games without
    /// parameters, once per program in a `static`), and every call returns a reference to
    /// the same value: asking allocates nothing, even inside a search. A builder method
    /// that changes a fact (a ply limit, a move limit) updates the stored facts.
    /// [`crate::testing::check_game`] checks that two calls return the same address.
    /// Clone the facts only where an owned copy must outlive the game.
    fn facts(&self) -> &GameFacts;

    /// The number of players, [`GameFacts::players`]: a shorthand for
    /// `self.facts().players`, which searches ask for inside playouts (at simultaneous
    /// turns).
    fn players(&self) -> usize {
        self.facts().players
    }

    /// The start position.
    fn initial_state(&self) -> Self::State;

    /// Who acts in `state`.
    fn turn(&self, state: &Self::State) -> Turn;

    /// Writes the legal moves of the player to move into `out` (cleared first).
    ///
    /// Only meaningful when `turn` is [`Turn::Player`]; games with simultaneous moves
    /// implement [`Game::legal_moves_of`] as well. The order must be deterministic.
    fn legal_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>);

    /// Writes the moves a tree search expands at `state` into `out` (cleared first): by
    /// default every legal move. A game may leave out legal moves that are never worth
    /// searching (Go leaves out filling one's own single-point true eye, as its playouts
    /// do), but must keep at least one move whenever [`Game::legal_moves`] has any, and the
    /// order must be deterministic. Move generation for play, notation and checking stays
    /// [`Game::legal_moves`].
    fn search_moves(&self, state: &Self::State, out: &mut Vec<Self::Move>) {
        self.legal_moves(state, out);
    }

    /// Applies a legal move of the player to move. The fast path: legality is not checked
    /// (use [`Game::play`] for untrusted moves).
    fn apply(&self, state: &mut Self::State, mv: Self::Move);

    /// The rewards of every player, in the game's units. Meaningful at terminal states;
    /// games may also report a provisional value elsewhere.
    fn returns(&self, state: &Self::State) -> Rewards;

    /// The move in the game's notation; [`Game::parse_move`] must read it back.
    fn format_move(&self, state: &Self::State, mv: Self::Move) -> String;

    /// Reads a move in `state`'s context. Never panics on any input.
    fn parse_move(&self, state: &Self::State, text: &str) -> Result<Self::Move, NotationError>;

    /// The state in the game's notation; [`Game::parse_state`] must read it back.
    fn format_state(&self, state: &Self::State) -> String;

    /// Reads a state. Never panics on any input.
    fn parse_state(&self, text: &str) -> Result<Self::State, NotationError>;

    /// A picture of the state for people (a board with coordinates). Defaults to the notation.
    fn render(&self, state: &Self::State) -> String {
        self.format_state(state)
    }

    /// Writes the legal moves of `player` into `out` (cleared first). For sequential turns
    /// this is the mover's moves and nothing for everyone else.
    fn legal_moves_of(&self, state: &Self::State, player: Player, out: &mut Vec<Self::Move>) {
        match self.turn(state) {
            Turn::Player(p) if p == player => self.legal_moves(state, out),
            _ => out.clear(),
        }
    }

    /// Applies one move per player (indexed by player) at a simultaneous turn. At a
    /// sequential turn only the mover's entry is used.
    fn apply_joint(&self, state: &mut Self::State, moves: &[Self::Move]) {
        if let Turn::Player(p) = self.turn(state) {
            self.apply(state, moves[p.index()]);
        }
    }

    /// A 64-bit hash of the state, for transposition tables. The default hashes the whole
    /// state with a fixed-key hasher; games override it with incremental Zobrist keys.
    fn hash(&self, state: &Self::State) -> u64 {
        let mut h = std::hash::DefaultHasher::new();
        state.hash(&mut h);
        h.finish()
    }

    /// What `observer` sees of `state`, as text. Two states with equal observations are
    /// indistinguishable to that player. Defaults to the full notation (perfect information).
    fn observation(&self, state: &Self::State, observer: Player) -> String {
        let _ = observer;
        self.format_state(state)
    }

    /// A full state consistent with what `observer` sees of `state`, with the hidden parts
    /// sampled. Must use only what `observer` can see (plus `rng`). Perfect-information
    /// games return a copy.
    fn determinize(&self, state: &Self::State, observer: Player, rng: &mut Rng) -> Self::State {
        let _ = (observer, rng);
        state.clone()
    }

    /// The move `mover` played from `state` as `observer` sees it: `mv` itself unless the
    /// move hides something (a Geister set-up reveals where the reds are; the observer sees
    /// only that a set-up was made), in which case a move that looks the same to
    /// `observer` and is legal in `state`. The arena hands agents moves through this, so an
    /// agent cannot learn hidden parts from the moves it is told about. Defaults to `mv`.
    fn move_seen_by(
        &self,
        state: &Self::State,
        mover: Player,
        mv: Self::Move,
        observer: Player,
    ) -> Self::Move {
        let _ = (state, mover, observer);
        mv
    }

    /// A uniformly random legal move of the player to move, or `None` when there is none.
    /// `buf` is scratch space. Games may override this with a faster sampler; playouts call it.
    #[inline]
    fn random_move(
        &self,
        state: &Self::State,
        rng: &mut Rng,
        buf: &mut Vec<Self::Move>,
    ) -> Option<Self::Move> {
        self.legal_moves(state, buf);
        rng.choose(buf).copied()
    }

    /// True when the game is over.
    #[inline]
    fn is_terminal(&self, state: &Self::State) -> bool {
        matches!(self.turn(state), Turn::Terminal)
    }

    /// Applies `mv` after checking that it is legal for the player to move; an illegal move
    /// leaves `state` unchanged.
    ///
    /// # Errors
    /// [`IllegalMove`] when the game is over, the turn is simultaneous, or `mv` is not legal.
    fn play(&self, state: &mut Self::State, mv: Self::Move) -> Result<(), IllegalMove> {
        match self.turn(state) {
            Turn::Player(p) => {
                let mut moves = Vec::new();
                self.legal_moves(state, &mut moves);
                if moves.contains(&mv) {
                    self.apply(state, mv);
                    Ok(())
                } else {
                    Err(IllegalMove {
                        mv: self.format_move(state, mv),
                        player: self.facts().player_name(p),
                    })
                }
            }
            _ => Err(IllegalMove {
                mv: self.format_move(state, mv),
                player: "nobody (not a sequential turn)".to_string(),
            }),
        }
    }

    /// Applies a joint move after checking every player's part.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the first player whose move is not legal.
    fn play_joint(&self, state: &mut Self::State, moves: &[Self::Move]) -> Result<(), IllegalMove> {
        match self.turn(state) {
            Turn::Terminal => Err(IllegalMove {
                mv: "(joint move)".into(),
                player: "nobody (game over)".into(),
            }),
            Turn::Player(p) => match moves.get(p.index()) {
                Some(&mv) => self.play(state, mv),
                None => Err(IllegalMove {
                    mv: "(missing)".into(),
                    player: self.facts().player_name(p),
                }),
            },
            Turn::Simultaneous => {
                let players = self.facts().players;
                let mut legal = Vec::new();
                for p in (0..players as u8).map(Player) {
                    self.legal_moves_of(state, p, &mut legal);
                    match moves.get(p.index()) {
                        Some(mv) if legal.contains(mv) => {}
                        other => {
                            return Err(IllegalMove {
                                mv: other
                                    .map(|m| self.format_move(state, *m))
                                    .unwrap_or_else(|| "(missing)".into()),
                                player: self.facts().player_name(p),
                            })
                        }
                    }
                }
                self.apply_joint(state, moves);
                Ok(())
            }
        }
    }
}

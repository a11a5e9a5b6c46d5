//! The games of a `VectorEnv`, each behind one [`EnvCore`] object whose methods run the
//! game's own monomorphised code with scratch buffers it keeps: a batched step allocates
//! nothing per game and records no move history (unlike [`yomi_games::DynState`], which
//! keeps the moves and their notation for `State.history()`).
//!
//! [`cores`] maps each [`GameChoice`] variant to its game type, as
//! `GameChoice::into_dyn` does; a new variant fails to compile here until it is added.

use std::sync::Arc;

use yomi_core::{ActionSpace, Game, Player, Rng, TensorGame, Turn};
use yomi_games::GameChoice;

/// One game of a batch.
pub(crate) trait EnvCore: Send + Sync {
    /// Plays `action` for the player to move; `Err` says why it is not legal.
    fn apply(&mut self, action: usize) -> Result<(), String>;
    /// Plays a uniformly random legal move of the player to move.
    fn random_step(&mut self, rng: &mut Rng);
    fn is_terminal(&self) -> bool;
    /// Writes every player's return.
    fn returns(&self, out: &mut [f32]);
    /// Starts the game again.
    fn reset(&mut self);
    /// Writes the legal mask, the observation (when `obs` is not empty and the game has a
    /// tensor encoding) and the player to move (OpenSpiel's markers otherwise).
    fn observe(&mut self, obs: &mut [f32], mask: &mut [bool], player: &mut i64);
    /// The state in the game's notation (`Game.deserialize_state` reads it).
    fn serialize(&self) -> String;
}

/// The tensor encoder of a game that has one.
type Encoder<G> = fn(&G, &<G as Game>::State, Player, &mut [f32]);

struct Core<G: ActionSpace> {
    game: Arc<G>,
    encode: Option<Encoder<G>>,
    state: G::State,
    moves: Vec<G::Move>,
}

impl<G: ActionSpace> EnvCore for Core<G> {
    fn apply(&mut self, action: usize) -> Result<(), String> {
        let Turn::Player(p) = self.game.turn(&self.state) else {
            return Err("no player is to move".into());
        };
        let mv = self
            .game
            .action_move(&self.state, p, action)
            .ok_or_else(|| format!("action {action} is not legal"))?;
        self.game.apply(&mut self.state, mv);
        Ok(())
    }

    fn random_step(&mut self, rng: &mut Rng) {
        if let Some(mv) = self.game.random_move(&self.state, rng, &mut self.moves) {
            self.game.apply(&mut self.state, mv);
        }
    }

    fn is_terminal(&self) -> bool {
        self.game.is_terminal(&self.state)
    }

    fn returns(&self, out: &mut [f32]) {
        for (r, &x) in out
            .iter_mut()
            .zip(self.game.returns(&self.state).as_slice())
        {
            *r = x as f32;
        }
    }

    fn reset(&mut self) {
        self.state = self.game.initial_state();
    }

    fn observe(&mut self, obs: &mut [f32], mask: &mut [bool], player: &mut i64) {
        mask.fill(false);
        match self.game.turn(&self.state) {
            Turn::Player(p) => {
                self.game.legal_moves_of(&self.state, p, &mut self.moves);
                for &mv in &self.moves {
                    if let Some(slot) = mask.get_mut(self.game.action_index(&self.state, mv)) {
                        *slot = true;
                    }
                }
                if let Some(encode) = self.encode {
                    encode(&self.game, &self.state, p, obs);
                }
                *player = p.index() as i64;
            }
            Turn::Simultaneous => {
                obs.fill(0.0);
                *player = crate::SIMULTANEOUS;
            }
            Turn::Terminal => {
                obs.fill(0.0);
                *player = crate::TERMINAL;
            }
        }
    }

    fn serialize(&self) -> String {
        self.game.format_state(&self.state)
    }
}

fn make<G: ActionSpace>(game: G, encode: Option<Encoder<G>>, n: usize) -> Vec<Box<dyn EnvCore>> {
    let game = Arc::new(game);
    (0..n)
        .map(|_| {
            Box::new(Core {
                state: game.initial_state(),
                game: game.clone(),
                encode,
                moves: Vec::new(),
            }) as Box<dyn EnvCore>
        })
        .collect()
}

fn tensor<G: TensorGame>(game: G, n: usize) -> Vec<Box<dyn EnvCore>> {
    make(game, Some(G::encode as Encoder<G>), n)
}

/// `n` games of `choice`.
///
/// # Errors
/// A message for a game that cannot be built (an invalid Go size).
pub(crate) fn cores(choice: GameChoice, n: usize) -> Result<Vec<Box<dyn EnvCore>>, String> {
    Ok(match choice {
        GameChoice::TicTacToe => tensor(yomi_classic::TicTacToe, n),
        GameChoice::ConnectFour => tensor(yomi_classic::ConnectFour, n),
        GameChoice::Breakthrough(g) => tensor(g, n),
        GameChoice::Go(size) => tensor(
            yomi_go::GoGame::new(size as usize).map_err(|e| e.to_string())?,
            n,
        ),
        GameChoice::Othello => tensor(yomi_othello::Othello, n),
        GameChoice::Tubstap(g) => make(g, None, n),
        GameChoice::Ggp(g) => make(g, None, n),
        GameChoice::Geister(g) => tensor(*g, n),
    })
}

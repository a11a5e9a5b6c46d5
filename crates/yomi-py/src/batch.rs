//! The games of a `VectorEnv`, each behind one [`EnvCore`] object whose methods run the
//! game's own monomorphised code with scratch buffers it keeps: a batched step allocates
//! nothing per game and records no move history (unlike [`yomi_games::DynState`], which
//! keeps the moves and their notation for `State.history()`).
//!
//! [`cores`] gets each game's type from [`GameChoice::dispatch_actions`], the mapping the
//! dynamic interface is built from too.

use std::sync::Arc;

use yomi_core::registry::AgentRegistry;
use yomi_core::{ActionSpace, Rng, TensorShape, Turn};
use yomi_games::{ActionGameCommand, Encoder, GameChoice};

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
                *player = crate::bridge::SIMULTANEOUS;
            }
            Turn::Terminal => {
                obs.fill(0.0);
                *player = crate::bridge::TERMINAL;
            }
        }
    }

    fn serialize(&self) -> String {
        self.game.format_state(&self.state)
    }
}

/// Builds `n` cores of the game [`GameChoice::dispatch_actions`] hands it.
struct MakeCores {
    n: usize,
}

impl ActionGameCommand for MakeCores {
    type Output = Vec<Box<dyn EnvCore>>;

    fn run<G: ActionSpace>(
        self,
        game: G,
        _registry: AgentRegistry<G>,
        tensor: Option<(TensorShape, Encoder<G>)>,
    ) -> Vec<Box<dyn EnvCore>> {
        let game = Arc::new(game);
        let encode = tensor.map(|(_, encode)| encode);
        (0..self.n)
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
}

/// `n` games of `choice`.
///
/// # Errors
/// None today (every `GameChoice` builds); kept for the callers' error path.
pub(crate) fn cores(choice: GameChoice, n: usize) -> Result<Vec<Box<dyn EnvCore>>, String> {
    Ok(choice.dispatch_actions(MakeCores { n }))
}

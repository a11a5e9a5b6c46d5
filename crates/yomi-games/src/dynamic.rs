//! Every game behind one object-safe interface with integer actions, for the entry points
//! that choose a game at run time and cannot be generic over it: the Python package
//! (OpenSpiel's `pyspiel` shape) and the web board.
//!
//! [`DynGame`] is the rules and the agent registry of one game; [`DynState`] one position
//! with its history; [`DynRecipe`] an agent spec resolved for the game once (parsed and
//! checked), and [`DynAgent`] one agent built from it. Actions are the
//! game's [`ActionSpace`] integers (`0..num_actions`), so the same move has the same number
//! in every state where the game allows it (a board point, a GDL action term).
//!
//! The concrete game sits behind one virtual call per operation; searches and playouts
//! still run the game's monomorphised code inside (an agent's `step` is one call that
//! runs a whole search). The batched loops a reinforcement-learning environment needs
//! ([`DynState::random_rollout_step`], [`DynState::legal_mask`]) write into buffers the
//! caller owns.
//!
//! Thread safety: every type here is `Send`; games and states are `Sync` as well, agents
//! are used by one thread at a time.
//!
//! Hidden information: [`DynState::observation_string`] and
//! [`DynState::observation_tensor`] show only what the named player may see;
//! [`DynState::render`] and [`DynState::serialize`] show the whole state (the referee's
//! view), as `str(state)` does in OpenSpiel.

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use yomi_core::agent::seat_view;
use yomi_core::registry::{AgentRegistry, Recipe};
use yomi_core::spec::{AgentSpec, ParamDoc};
use yomi_core::{
    ActionSpace, Agent, Game, GameFacts, Played, Player, Rng, TensorGame, TensorShape, Turn,
};

use crate::choice::{geister_registry, GameChoice};

/// Why a call on a game, state or agent failed. The message says what was wrong and what
/// would have been accepted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DynError {
    /// An unknown game or agent name, a bad spec string or a bad parameter.
    BadName(String),
    /// An action, move text or joint action that is not legal here.
    Illegal(String),
    /// A state string that does not parse.
    BadState(String),
    /// The call does not apply to this game or state (a tensor for a game without one, a
    /// move at a terminal state).
    Unsupported(String),
    /// An agent failed to produce a move.
    Agent(String),
}

impl fmt::Display for DynError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DynError::BadName(m)
            | DynError::Illegal(m)
            | DynError::BadState(m)
            | DynError::Unsupported(m)
            | DynError::Agent(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for DynError {}

/// Who acts in a state (OpenSpiel's `current_player`, whose markers are negative numbers).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Actor {
    /// This player (0-based) chooses the next action.
    Player(usize),
    /// Every player chooses an action at once.
    Simultaneous,
    /// The game is over.
    Terminal,
}

impl Actor {
    /// OpenSpiel's number: the player, `-2` for simultaneous, `-4` for terminal.
    pub fn as_openspiel(self) -> i64 {
        match self {
            Actor::Player(p) => p as i64,
            Actor::Simultaneous => -2,
            Actor::Terminal => -4,
        }
    }
}

/// One registered agent kind, as listed to users (a web form, Python's `agents()`).
#[derive(Clone, Debug)]
pub struct AgentInfo {
    /// The name used in spec strings.
    pub name: String,
    /// One line saying what it is.
    pub summary: String,
    /// Its parameters.
    pub params: Vec<ParamDoc>,
    /// Whether it talks to a person at a terminal (not usable from a program).
    pub interactive: bool,
}

/// One root move of an analysis, as an integer action.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionAnalysis {
    /// The action.
    pub action: usize,
    /// The move in the game's notation.
    pub text: String,
    /// Visits through it.
    pub visits: u64,
    /// Mean value in `[0, 1]` for the searching player.
    pub value: Option<f64>,
    /// The search's prior.
    pub prior: f32,
}

/// What a search thought of a position (see [`yomi_core::Analysis`]).
#[derive(Clone, Debug, PartialEq)]
pub struct DynAnalysis {
    /// The searching player.
    pub player: usize,
    /// Per root move.
    pub actions: Vec<ActionAnalysis>,
    /// The principal variation in the game's notation (moves of alternating players as
    /// the game orders them).
    pub pv: Vec<String>,
    /// The root's value in `[0, 1]` for the searching player.
    pub value: Option<f64>,
    /// Iterations run.
    pub iterations: u64,
    /// Seconds the search took.
    pub seconds: f64,
}

/// A game chosen at run time. Build one with [`load_game`] or [`GameChoice::into_dyn`].
pub trait DynGame: Send + Sync {
    /// The canonical name (`connect4`, `go-9x9`, `ggp:ticTacToe`, …).
    fn name(&self) -> String;
    /// Facts that do not change during play: players, their names, reward bounds, …
    /// Stored in the game ([`yomi_core::Game::facts`]): asking allocates nothing.
    fn facts(&self) -> &GameFacts;
    /// The number of distinct actions.
    fn num_actions(&self) -> usize;
    /// The observation tensor's shape, or `None` when the game has no tensor encoding.
    fn tensor_shape(&self) -> Option<TensorShape>;
    /// The start position.
    fn new_initial_state(&self) -> Box<dyn DynState>;
    /// A state from the game's notation ([`DynState::serialize`]'s output); its history
    /// starts there.
    ///
    /// # Errors
    /// [`DynError::BadState`] saying what did not parse.
    fn state_from_string(&self, text: &str) -> Result<Box<dyn DynState>, DynError>;
    /// The agents this game can be played by.
    fn agents(&self) -> Vec<AgentInfo>;
    /// Resolves a parsed agent spec for this game: its parameters read and checked, its
    /// files loaded, no agent built. Resolve a spec once and build every agent of it from
    /// the recipe ([`DynRecipe::build`]).
    ///
    /// # Errors
    /// [`DynError::BadName`] listing what is accepted; an interactive agent (it reads a
    /// terminal; here a person plays by choosing actions).
    fn resolve(&self, spec: &AgentSpec) -> Result<Arc<dyn DynRecipe>, DynError>;
    /// Parses `spec` (`mcts:iters=1000`) and resolves it ([`DynGame::resolve`]).
    ///
    /// # Errors
    /// As [`DynGame::resolve`], and a spec string that does not parse.
    fn recipe(&self, spec: &str) -> Result<Arc<dyn DynRecipe>, DynError> {
        let parsed: AgentSpec = spec
            .parse()
            .map_err(|e| DynError::BadName(format!("{}: {e}", self.name())))?;
        self.resolve(&parsed)
    }
    /// Builds the agent `spec` describes; `seed` fixes its choices. For more than one
    /// agent of a spec, take its [`DynGame::recipe`] once.
    ///
    /// # Errors
    /// As [`DynGame::recipe`].
    fn new_agent(&self, spec: &str, seed: u64) -> Result<Box<dyn DynAgent>, DynError> {
        Ok(self.recipe(spec)?.build(seed))
    }
    /// Checks that `spec` resolves for this game; builds no agent.
    ///
    /// # Errors
    /// As [`DynGame::recipe`].
    fn check_agent(&self, spec: &str) -> Result<(), DynError> {
        self.recipe(spec).map(|_| ())
    }
}

/// An agent spec resolved for one [`DynGame`] ([`DynGame::resolve`]): everything that can
/// fail was checked, so building cannot fail. Shared between threads; each build gives a
/// fresh agent.
pub trait DynRecipe: Send + Sync {
    /// The spec, in canonical form.
    fn spec(&self) -> String;
    /// A fresh agent; `seed` fixes its random choices.
    fn build(&self, seed: u64) -> Box<dyn DynAgent>;
}

/// One position of a [`DynGame`], with the moves played since the start.
pub trait DynState: Send + Sync + fmt::Debug {
    /// Who acts.
    fn actor(&self) -> Actor;
    /// The number of players.
    fn num_players(&self) -> usize;
    /// `player`'s legal actions, ascending (empty when `player` does not act).
    fn legal_actions(&self, player: usize) -> Vec<usize>;
    /// Writes `player`'s legal actions into `mask` (`num_actions` long, cleared first).
    fn legal_mask(&self, player: usize, mask: &mut [bool]);
    /// `player`'s legal moves in the game's notation, in the game's move order.
    fn legal_move_texts(&self, player: usize) -> Vec<String>;
    /// `action` in the game's notation, as `player` would play it here.
    ///
    /// # Errors
    /// [`DynError::Illegal`] when `action` is not one of `player`'s legal actions.
    fn action_to_string(&self, player: usize, action: usize) -> Result<String, DynError>;
    /// The action of `player`'s move written `text`.
    ///
    /// # Errors
    /// [`DynError::Illegal`] when the text does not name a legal move, with the reason.
    fn string_to_action(&self, player: usize, text: &str) -> Result<usize, DynError>;
    /// Plays `action` for the player to move.
    ///
    /// # Errors
    /// [`DynError::Illegal`] naming the legal actions; the state is unchanged.
    fn apply_action(&mut self, action: usize) -> Result<(), DynError>;
    /// Plays one action per player at a simultaneous turn (at a sequential turn, only the
    /// mover's entry is used).
    ///
    /// # Errors
    /// [`DynError::Illegal`] naming the first player whose action is not legal; the state
    /// is unchanged.
    fn apply_actions(&mut self, actions: &[usize]) -> Result<(), DynError>;
    /// Plays one uniformly random legal step (a joint step at simultaneous turns) and
    /// returns `false` at a terminal state. Allocates nothing after the first call.
    fn random_rollout_step(&mut self, rng: &mut Rng) -> bool;
    /// Whether the game is over.
    fn is_terminal(&self) -> bool;
    /// Every player's reward, in the game's units (meaningful at terminal states).
    fn returns(&self) -> Vec<f64>;
    /// A picture of the whole state for people (OpenSpiel's `str(state)`).
    fn render(&self) -> String;
    /// The whole state in the game's notation; [`DynGame::state_from_string`] reads it.
    fn serialize(&self) -> String;
    /// What `player` may see of the state.
    fn observation_string(&self, player: usize) -> String;
    /// Writes what `player` may see as the game's tensor (`tensor_shape().len()` values).
    ///
    /// # Errors
    /// [`DynError::Unsupported`] for games without a tensor encoding or a wrong length.
    fn observation_tensor(&self, player: usize, out: &mut [f32]) -> Result<(), DynError>;
    /// The steps played since the start (or since the state was read), one entry per step
    /// with each acting player's action (one entry for sequential turns).
    fn history(&self) -> &[Vec<usize>];
    /// The moves played since the start in the game's notation (joint moves joined by
    /// spaces).
    fn history_texts(&self) -> Vec<String>;
    /// A 64-bit hash of the state.
    fn state_hash(&self) -> u64;
    /// An independent copy.
    fn clone_box(&self) -> Box<dyn DynState>;
    /// The concrete state, for code that knows the game type.
    fn as_any(&self) -> &dyn Any;
}

impl Clone for Box<dyn DynState> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// An agent for a [`DynGame`].
pub trait DynAgent: Send {
    /// The agent's spec string.
    fn name(&self) -> String;
    /// The action the agent plays for `player` in `state` (for sequential turns, the player
    /// to move). The state must be of this agent's game.
    ///
    /// # Errors
    /// [`DynError::Agent`] when it produces no move, [`DynError::Unsupported`] for a state
    /// of another game.
    fn step(&mut self, state: &dyn DynState, player: usize) -> Result<usize, DynError>;
    /// Searches `state` for `player` and reports per-action statistics, or `Ok(None)` for
    /// agents that keep none (random, alpha-beta).
    ///
    /// # Errors
    /// As [`DynAgent::step`].
    fn analyse(
        &mut self,
        state: &dyn DynState,
        player: usize,
    ) -> Result<Option<DynAnalysis>, DynError>;
    /// Tells the agent, playing `player`, about the step played from `before` (one action
    /// for a sequential turn, one per player for a simultaneous one); lets a search keep its
    /// tree. In hidden-information games it is told only what `player` sees.
    fn observe(&mut self, before: &dyn DynState, player: usize, actions: &[usize]);
}

/// The game called `name` behind the dynamic interface.
///
/// # Errors
/// [`DynError::BadName`] listing the accepted names.
pub fn load_game(name: &str) -> Result<Arc<dyn DynGame>, DynError> {
    GameChoice::from_name(name)
        .map(GameChoice::into_dyn)
        .map_err(DynError::BadName)
}

/// Code that runs on any game with integer actions, generic over the game's type (as
/// [`crate::GameCommand`] is over any [`Game`]): [`GameChoice::dispatch_actions`] calls it
/// with the concrete game, its agent registry and its tensor encoder, so what it runs is
/// monomorphised. The dynamic interface ([`GameChoice::into_dyn`]) and batched
/// environments are built this way, from the one mapping of names to game types.
pub trait ActionGameCommand {
    /// What the command returns.
    type Output;

    /// Runs on `game`; `tensor` is its encoding when it has one.
    fn run<G: ActionSpace>(
        self,
        game: G,
        registry: AgentRegistry<G>,
        tensor: Option<(TensorShape, Encoder<G>)>,
    ) -> Self::Output;
}

/// A game's tensor encoder ([`TensorGame::encode`]).
pub type Encoder<G> = fn(&G, &<G as Game>::State, Player, &mut [f32]);

fn with_tensor<G: TensorGame>(game: &G) -> Option<(TensorShape, Encoder<G>)> {
    Some((game.tensor_shape(), G::encode as Encoder<G>))
}

impl GameChoice {
    /// Runs `command` on this game with its registry and tensor encoder.
    pub fn dispatch_actions<C: ActionGameCommand>(self, command: C) -> C::Output {
        use yomi_classic::{breakthrough, connect_four, tictactoe};
        match self {
            GameChoice::TicTacToe => {
                let g = yomi_classic::TicTacToe;
                let t = with_tensor(&g);
                command.run(g, tictactoe::registry(), t)
            }
            GameChoice::ConnectFour => {
                let g = yomi_classic::ConnectFour;
                let t = with_tensor(&g);
                command.run(g, connect_four::registry(), t)
            }
            GameChoice::Breakthrough(g) => {
                let t = with_tensor(&g);
                command.run(g, breakthrough::registry(), t)
            }
            GameChoice::Go(n) => {
                // `GameChoice::from_name` admits only sizes `GoGame::new` accepts.
                let g = yomi_go::GoGame::new(n as usize).expect("GameChoice holds a valid Go size");
                let t = with_tensor(&g);
                command.run(g, yomi_go::registry(), t)
            }
            GameChoice::Othello => {
                let g = yomi_othello::Othello;
                let t = with_tensor(&g);
                command.run(g, yomi_othello::registry(), t)
            }
            GameChoice::Tubstap(g) => {
                let t = with_tensor(&g);
                command.run(g, yomi_tubstap::registry(), t)
            }
            GameChoice::Ggp(g) => command.run(g, yomi_ggp::registry(), None),
            GameChoice::Geister(g) => {
                let t = with_tensor(g.as_ref());
                command.run(*g, geister_registry(), t)
            }
        }
    }

    /// This game behind the dynamic interface, with its agent registry.
    pub fn into_dyn(self) -> Arc<dyn DynGame> {
        let name = self.to_string();
        self.dispatch_actions(IntoDyn { name })
    }
}

/// [`GameChoice::into_dyn`] as an [`ActionGameCommand`].
struct IntoDyn {
    name: String,
}

impl ActionGameCommand for IntoDyn {
    type Output = Arc<dyn DynGame>;

    fn run<G: ActionSpace>(
        self,
        game: G,
        registry: AgentRegistry<G>,
        tensor: Option<(TensorShape, Encoder<G>)>,
    ) -> Arc<dyn DynGame> {
        let num_actions = game.num_actions();
        let players = game.facts().players;
        Arc::new(ErasedGame {
            shared: Arc::new(Shared {
                game,
                registry,
                name: self.name,
                tensor,
                num_actions,
                players,
            }),
        })
    }
}

struct Shared<G: ActionSpace> {
    game: G,
    registry: AgentRegistry<G>,
    name: String,
    tensor: Option<(TensorShape, Encoder<G>)>,
    num_actions: usize,
    players: usize,
}

/// A concrete game behind [`DynGame`].
struct ErasedGame<G: ActionSpace> {
    shared: Arc<Shared<G>>,
}

impl<G: ActionSpace> DynGame for ErasedGame<G> {
    fn name(&self) -> String {
        self.shared.name.clone()
    }

    fn facts(&self) -> &GameFacts {
        self.shared.game.facts()
    }

    fn num_actions(&self) -> usize {
        self.shared.num_actions
    }

    fn tensor_shape(&self) -> Option<TensorShape> {
        self.shared.tensor.map(|(shape, _)| shape)
    }

    fn new_initial_state(&self) -> Box<dyn DynState> {
        Box::new(ErasedState::new(
            self.shared.clone(),
            self.shared.game.initial_state(),
        ))
    }

    fn state_from_string(&self, text: &str) -> Result<Box<dyn DynState>, DynError> {
        let state = self
            .shared
            .game
            .parse_state(text)
            .map_err(|e| DynError::BadState(format!("{}: {e}", self.shared.name)))?;
        Ok(Box::new(ErasedState::new(self.shared.clone(), state)))
    }

    fn agents(&self) -> Vec<AgentInfo> {
        let r = &self.shared.registry;
        r.entries()
            .iter()
            .map(|e| AgentInfo {
                name: e.name.clone(),
                summary: e.summary.clone(),
                params: e.params.clone(),
                interactive: r.is_interactive(&e.name),
            })
            .collect()
    }

    fn resolve(&self, spec: &AgentSpec) -> Result<Arc<dyn DynRecipe>, DynError> {
        let s = &self.shared;
        if s.registry.is_interactive(&spec.name) {
            return Err(DynError::BadName(format!(
                "agent {:?} reads a terminal; here a person plays by choosing actions",
                spec.name
            )));
        }
        let recipe = s
            .registry
            .resolve(&s.game, spec)
            .map_err(|e| DynError::BadName(format!("{}: {e}", s.name)))?;
        Ok(Arc::new(ErasedRecipe {
            shared: s.clone(),
            recipe,
        }))
    }
}

/// A concrete recipe behind [`DynRecipe`].
struct ErasedRecipe<G: ActionSpace> {
    shared: Arc<Shared<G>>,
    recipe: Recipe<G>,
}

impl<G: ActionSpace> DynRecipe for ErasedRecipe<G> {
    fn spec(&self) -> String {
        self.recipe.spec().to_string()
    }

    fn build(&self, seed: u64) -> Box<dyn DynAgent> {
        Box::new(ErasedAgent {
            shared: self.shared.clone(),
            agent: self.recipe.build(&self.shared.game, seed),
        })
    }
}

/// A concrete state behind [`DynState`].
struct ErasedState<G: ActionSpace> {
    shared: Arc<Shared<G>>,
    state: G::State,
    history: Vec<Vec<usize>>,
    texts: Vec<String>,
    /// Scratch for random steps (kept so that rollouts allocate nothing).
    moves: Vec<G::Move>,
    joint: Vec<G::Move>,
}

impl<G: ActionSpace> fmt::Debug for ErasedState<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynState")
            .field("game", &self.shared.name)
            .field("state", &self.shared.game.format_state(&self.state))
            .finish()
    }
}

impl<G: ActionSpace> ErasedState<G> {
    fn new(shared: Arc<Shared<G>>, state: G::State) -> Self {
        ErasedState {
            shared,
            state,
            history: Vec::new(),
            texts: Vec::new(),
            moves: Vec::new(),
            joint: Vec::new(),
        }
    }

    fn game(&self) -> &G {
        &self.shared.game
    }

    fn player(&self, player: usize) -> Result<Player, DynError> {
        if player < self.shared.players {
            Ok(Player(player as u8))
        } else {
            Err(DynError::Illegal(format!(
                "no player {player}: {} has players 0..{}",
                self.shared.name, self.shared.players
            )))
        }
    }

    fn legal_moves_of(&self, player: usize) -> Vec<G::Move> {
        let mut moves = Vec::new();
        if player < self.shared.players {
            self.game()
                .legal_moves_of(&self.state, Player(player as u8), &mut moves);
        }
        moves
    }

    /// The legal actions of `player`, with their texts, for error messages (at most 40).
    fn legal_summary(&self, player: usize) -> String {
        let moves = self.legal_moves_of(player);
        if moves.is_empty() {
            return "none".into();
        }
        let mut pairs: Vec<(usize, String)> = moves
            .iter()
            .map(|&m| {
                (
                    self.game().action_index(&self.state, m),
                    self.game().format_move(&self.state, m),
                )
            })
            .collect();
        pairs.sort();
        let shown: Vec<String> = pairs
            .iter()
            .take(40)
            .map(|(a, t)| format!("{a} ({t})"))
            .collect();
        let more = if pairs.len() > 40 {
            format!(" and {} more", pairs.len() - 40)
        } else {
            String::new()
        };
        format!("{}{more}", shown.join(", "))
    }

    fn move_of(&self, player: usize, action: usize) -> Result<G::Move, DynError> {
        let p = self.player(player)?;
        self.game()
            .action_move(&self.state, p, action)
            .ok_or_else(|| {
                DynError::Illegal(format!(
                    "action {action} is not legal for player {player} here; legal: {}",
                    self.legal_summary(player)
                ))
            })
    }
}

impl<G: ActionSpace> DynState for ErasedState<G> {
    fn actor(&self) -> Actor {
        match self.game().turn(&self.state) {
            Turn::Player(p) => Actor::Player(p.index()),
            Turn::Simultaneous => Actor::Simultaneous,
            Turn::Terminal => Actor::Terminal,
        }
    }

    fn num_players(&self) -> usize {
        self.shared.players
    }

    fn legal_actions(&self, player: usize) -> Vec<usize> {
        let mut actions: Vec<usize> = self
            .legal_moves_of(player)
            .into_iter()
            .map(|m| self.game().action_index(&self.state, m))
            .collect();
        actions.sort_unstable();
        actions
    }

    fn legal_mask(&self, player: usize, mask: &mut [bool]) {
        mask.fill(false);
        if player >= self.shared.players {
            return;
        }
        let mut moves = Vec::new();
        self.game()
            .legal_moves_of(&self.state, Player(player as u8), &mut moves);
        for m in moves {
            if let Some(slot) = mask.get_mut(self.game().action_index(&self.state, m)) {
                *slot = true;
            }
        }
    }

    fn legal_move_texts(&self, player: usize) -> Vec<String> {
        self.legal_moves_of(player)
            .into_iter()
            .map(|m| self.game().format_move(&self.state, m))
            .collect()
    }

    fn action_to_string(&self, player: usize, action: usize) -> Result<String, DynError> {
        let mv = self.move_of(player, action)?;
        Ok(self.game().format_move(&self.state, mv))
    }

    fn string_to_action(&self, player: usize, text: &str) -> Result<usize, DynError> {
        let p = self.player(player)?;
        let mv = self.game().parse_move(&self.state, text).map_err(|e| {
            DynError::Illegal(format!(
                "{e}; legal for player {player}: {}",
                self.legal_summary(player)
            ))
        })?;
        let mut moves = Vec::new();
        self.game().legal_moves_of(&self.state, p, &mut moves);
        if !moves.contains(&mv) {
            return Err(DynError::Illegal(format!(
                "{text:?} is not legal for player {player} here; legal: {}",
                self.legal_summary(player)
            )));
        }
        Ok(self.game().action_index(&self.state, mv))
    }

    fn apply_action(&mut self, action: usize) -> Result<(), DynError> {
        let player = match self.actor() {
            Actor::Player(p) => p,
            Actor::Simultaneous => {
                return Err(DynError::Unsupported(
                    "a simultaneous turn: give one action per player (apply_actions)".into(),
                ))
            }
            Actor::Terminal => {
                return Err(DynError::Unsupported(format!(
                    "the game is over; no action {action} can be played"
                )))
            }
        };
        let mv = self.move_of(player, action)?;
        self.texts.push(self.game().format_move(&self.state, mv));
        self.shared.game.apply(&mut self.state, mv);
        self.history.push(vec![action]);
        Ok(())
    }

    fn apply_actions(&mut self, actions: &[usize]) -> Result<(), DynError> {
        match self.actor() {
            Actor::Terminal => Err(DynError::Unsupported("the game is over".into())),
            Actor::Player(p) => match actions.get(p) {
                Some(&a) => self.apply_action(a),
                None => Err(DynError::Illegal(format!(
                    "{} actions given; player {p} is to move",
                    actions.len()
                ))),
            },
            Actor::Simultaneous => {
                let n = self.shared.players;
                if actions.len() != n {
                    return Err(DynError::Illegal(format!(
                        "a simultaneous turn needs {n} actions (one per player), got {}",
                        actions.len()
                    )));
                }
                let mut joint = Vec::with_capacity(n);
                for (p, &a) in actions.iter().enumerate() {
                    joint.push(self.move_of(p, a)?);
                }
                let text = joint
                    .iter()
                    .map(|&m| self.game().format_move(&self.state, m))
                    .collect::<Vec<_>>()
                    .join(" ");
                self.shared.game.apply_joint(&mut self.state, &joint);
                self.texts.push(text);
                self.history.push(actions.to_vec());
                Ok(())
            }
        }
    }

    fn random_rollout_step(&mut self, rng: &mut Rng) -> bool {
        let game = &self.shared.game;
        match game.turn(&self.state) {
            Turn::Terminal => false,
            Turn::Player(_) => match game.random_move(&self.state, rng, &mut self.moves) {
                Some(mv) => {
                    game.apply(&mut self.state, mv);
                    true
                }
                None => false,
            },
            Turn::Simultaneous => {
                self.joint.clear();
                for p in 0..self.shared.players {
                    game.legal_moves_of(&self.state, Player(p as u8), &mut self.moves);
                    match rng.choose(&self.moves) {
                        Some(&m) => self.joint.push(m),
                        None => return false,
                    }
                }
                game.apply_joint(&mut self.state, &self.joint);
                true
            }
        }
    }

    fn is_terminal(&self) -> bool {
        self.game().is_terminal(&self.state)
    }

    fn returns(&self) -> Vec<f64> {
        self.game().returns(&self.state).as_slice().to_vec()
    }

    fn render(&self) -> String {
        self.game().render(&self.state)
    }

    fn serialize(&self) -> String {
        self.game().format_state(&self.state)
    }

    fn observation_string(&self, player: usize) -> String {
        if player >= self.shared.players {
            return String::new();
        }
        self.game().observation(&self.state, Player(player as u8))
    }

    fn observation_tensor(&self, player: usize, out: &mut [f32]) -> Result<(), DynError> {
        let Some((shape, encode)) = self.shared.tensor else {
            return Err(DynError::Unsupported(format!(
                "{} has no tensor encoding; use observation_string",
                self.shared.name
            )));
        };
        let p = self.player(player)?;
        if out.len() != shape.len() {
            return Err(DynError::Unsupported(format!(
                "observation buffer of {} values; {} needs {} ({}x{}x{})",
                out.len(),
                self.shared.name,
                shape.len(),
                shape.channels,
                shape.height,
                shape.width
            )));
        }
        encode(&self.shared.game, &self.state, p, out);
        Ok(())
    }

    fn history(&self) -> &[Vec<usize>] {
        &self.history
    }

    fn history_texts(&self) -> Vec<String> {
        self.texts.clone()
    }

    fn state_hash(&self) -> u64 {
        self.game().hash(&self.state)
    }

    fn clone_box(&self) -> Box<dyn DynState> {
        Box::new(ErasedState {
            shared: self.shared.clone(),
            state: self.state.clone(),
            history: self.history.clone(),
            texts: self.texts.clone(),
            moves: Vec::new(),
            joint: Vec::new(),
        })
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A concrete agent behind [`DynAgent`].
struct ErasedAgent<G: ActionSpace> {
    shared: Arc<Shared<G>>,
    agent: Box<dyn Agent<G>>,
}

impl<G: ActionSpace> ErasedAgent<G> {
    fn state_of<'a>(&self, state: &'a dyn DynState) -> Result<&'a ErasedState<G>, DynError> {
        state
            .as_any()
            .downcast_ref::<ErasedState<G>>()
            .filter(|s| Arc::ptr_eq(&s.shared, &self.shared) || s.shared.name == self.shared.name)
            .ok_or_else(|| {
                DynError::Unsupported(format!(
                    "this agent plays {}; the state is of another game",
                    self.shared.name
                ))
            })
    }
}

impl<G: ActionSpace> DynAgent for ErasedAgent<G> {
    fn name(&self) -> String {
        self.agent.name()
    }

    fn step(&mut self, state: &dyn DynState, player: usize) -> Result<usize, DynError> {
        let s = self.state_of(state)?;
        let p = s.player(player)?;
        let game = &self.shared.game;
        let view = seat_view(game, &s.state, p, s.history.len());
        let mv = self
            .agent
            .select_move(game, view.as_ref().unwrap_or(&s.state), p)
            .map_err(|e| DynError::Agent(format!("{}: {e}", self.agent.name())))?;
        Ok(game.action_index(&s.state, mv))
    }

    fn analyse(
        &mut self,
        state: &dyn DynState,
        player: usize,
    ) -> Result<Option<DynAnalysis>, DynError> {
        let s = self.state_of(state)?;
        let p = s.player(player)?;
        let game = &self.shared.game;
        let view = seat_view(game, &s.state, p, s.history.len());
        let seen = view.as_ref().unwrap_or(&s.state);
        let Some(a) = self.agent.analyse(game, seen, p) else {
            return Ok(None);
        };
        let mut actions: Vec<ActionAnalysis> = a
            .moves
            .iter()
            .map(|m| ActionAnalysis {
                action: game.action_index(&s.state, m.mv),
                text: game.format_move(&s.state, m.mv),
                visits: m.visits,
                value: m.value,
                prior: m.prior,
            })
            .collect();
        actions.sort_by_key(|x| x.action);
        // The PV's moves are written each in the state it is played from.
        let mut pv = Vec::new();
        let mut line = seen.clone();
        for &mv in &a.pv {
            if !matches!(game.turn(&line), Turn::Player(_)) {
                break;
            }
            pv.push(game.format_move(&line, mv));
            game.apply(&mut line, mv);
        }
        Ok(Some(DynAnalysis {
            player,
            actions,
            pv,
            value: a.value,
            iterations: a.iterations,
            seconds: a.elapsed.as_secs_f64(),
        }))
    }

    fn observe(&mut self, before: &dyn DynState, player: usize, actions: &[usize]) {
        let Ok(s) = self.state_of(before) else {
            return;
        };
        let Ok(me) = s.player(player) else {
            return;
        };
        let game = &self.shared.game;
        // The agent sees the step as its seat does (as in the arena).
        let view = seat_view(game, &s.state, me, s.history.len());
        let seen = view.as_ref().unwrap_or(&s.state);
        match game.turn(&s.state) {
            Turn::Player(p) => {
                let pick = if actions.len() == 1 { 0 } else { p.index() };
                let Some(&a) = actions.get(pick) else {
                    return;
                };
                if let Some(mv) = game.action_move(&s.state, p, a) {
                    let mv = game.move_seen_by(&s.state, p, mv, me);
                    self.agent.observe(game, seen, Played::Single(p, mv));
                }
            }
            Turn::Simultaneous => {
                let joint: Option<Vec<G::Move>> = actions
                    .iter()
                    .enumerate()
                    .map(|(p, &a)| {
                        let p = Player(p as u8);
                        game.action_move(&s.state, p, a)
                            .map(|mv| game.move_seen_by(&s.state, p, mv, me))
                    })
                    .collect();
                if let Some(joint) = joint {
                    self.agent.observe(game, seen, Played::Joint(&joint));
                }
            }
            Turn::Terminal => {}
        }
    }
}

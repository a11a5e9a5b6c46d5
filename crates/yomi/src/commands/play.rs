//! `yomi play GAME AGENT AGENT`: one game, shown move by move.
//!
//! The game is played by the arena's `play_game_with` (legality checks, forfeits, turn
//! limit), whose callback prints each move and the board after it. To start from
//! `--position`, the game is wrapped in [`StartAt`], a game whose initial state is the
//! given one; agents still search the unwrapped game (see [`Seat`]).

use std::io::Write;

use anyhow::Context;
use yomi_core::agent::{Agent, AgentError, Played};
use yomi_core::arena::{play_game_with, SeatResult, Termination, DEFAULT_TURN_LIMIT};
use yomi_core::registry::AgentRegistry;
use yomi_core::rng::derive_seed;
use yomi_core::{Game, GameFacts, IllegalMove, NotationError, Player, Rewards, Rng, Turn};

use crate::cli::PlayArgs;
use crate::error::usage;
use crate::games::GameCommand;

impl GameCommand for PlayArgs {
    type Output = ();

    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<()> {
        let facts = game.facts();
        if self.agents.len() != facts.players {
            return Err(usage(format!(
                "{} has {} players, so `yomi play` needs {} agents (one per seat, the first \
                 moving first); {} given",
                facts.name,
                facts.players,
                facts.players,
                self.agents.len()
            )));
        }
        let start = match &self.position {
            Some(text) => game.parse_state(text).map_err(|e| {
                usage(format!(
                    "--position {text:?} is not a {} position: {e}",
                    facts.name
                ))
            })?,
            None => game.initial_state(),
        };
        let mut seats = Vec::with_capacity(self.agents.len());
        for (i, spec) in self.agents.iter().enumerate() {
            let agent = registry
                .build(&game, spec, derive_seed(self.seed, i as u64))
                .map_err(|e| usage(e.to_string()))?;
            seats.push(Seat(agent));
        }
        let names: Vec<String> = facts
            .all_players()
            .map(|p| format!("{} ({})", facts.player_name(p), self.agents[p.index()]))
            .collect();
        let turn_limit = self
            .turn_limit
            .or(facts.max_turns)
            .unwrap_or(DEFAULT_TURN_LIMIT);

        let mut out = std::io::stdout();
        writeln!(out, "{}: {}\n", facts.name, names.join(" vs "))?;
        writeln!(out, "{}", game.render(&start))?;
        out.flush()?;

        let wrapped = StartAt {
            game,
            start: start.clone(),
        };
        let mut before = start;
        let mut turn = 0usize;
        let mut failed: Option<std::io::Error> = None;
        let played = play_game_with(&wrapped, &mut seats, turn_limit, |state, mv| {
            turn += 1;
            let who = match wrapped.game.turn(&before) {
                Turn::Player(p) => names[p.index()].clone(),
                _ => "all".to_string(),
            };
            before = state.clone();
            if failed.is_none() {
                let shown = writeln!(
                    out,
                    "{turn}. {who} plays {mv}\n\n{}",
                    wrapped.game.render(state)
                )
                .and_then(|()| out.flush());
                failed = shown.err();
            }
        })
        .context("cannot play the game")?;
        if let Some(e) = failed {
            return Err(e.into());
        }
        writeln!(out, "{}", result_line(&facts, &names, &played))?;
        writeln!(out, "Moves: {}", played.moves.join(" "))?;
        Ok(())
    }
}

/// `Result: x (mcts:iters=200) wins (game over after 7 turns; returns 1, -1)`.
fn result_line(
    facts: &GameFacts,
    names: &[String],
    played: &yomi_core::arena::PlayedGame,
) -> String {
    let winners: Vec<&str> = played
        .results
        .iter()
        .zip(names)
        .filter(|(r, _)| **r == SeatResult::Win)
        .map(|(_, name)| name.as_str())
        .collect();
    let sharing: Vec<&str> = played
        .results
        .iter()
        .zip(names)
        .filter(|(r, _)| **r == SeatResult::Draw)
        .map(|(_, name)| name.as_str())
        .collect();
    let outcome = match (winners.as_slice(), sharing.len()) {
        ([one], _) => format!("{one} wins"),
        (_, n) if n == names.len() => "draw".to_string(),
        _ => format!("{} share the best result", sharing.join(", ")),
    };
    let how = match &played.termination {
        Termination::Terminal => "game over".to_string(),
        Termination::TurnLimit => "turn limit reached, scored as reached".to_string(),
        Termination::IllegalMove { seat, mv, reason } => format!(
            "{} forfeits with the illegal move {mv} ({reason})",
            facts.player_name(Player(*seat as u8))
        ),
        Termination::AgentError { seat, reason } => format!(
            "{} forfeits: {reason}",
            facts.player_name(Player(*seat as u8))
        ),
    };
    // `+ 0.0` turns a negative zero (a draw's share in a zero-sum game) into 0.
    let returns: Vec<String> = played
        .returns
        .iter()
        .map(|r| format!("{}", r + 0.0))
        .collect();
    format!(
        "Result: {outcome} ({how} after {} turn{}; returns {})",
        played.turns,
        if played.turns == 1 { "" } else { "s" },
        returns.join(", ")
    )
}

/// A game that starts from a given state and otherwise is `game`. Every method delegates,
/// including the provided ones a game may override.
///
/// Core's `play_game_with` always starts from [`Game::initial_state`]; a
/// `play_game_from(game, state, ...)` there would make this wrapper unnecessary.
struct StartAt<G: Game> {
    game: G,
    start: G::State,
}

impl<G: Game> Game for StartAt<G> {
    type State = G::State;
    type Move = G::Move;

    fn facts(&self) -> GameFacts {
        self.game.facts()
    }
    fn initial_state(&self) -> G::State {
        self.start.clone()
    }
    fn turn(&self, state: &G::State) -> Turn {
        self.game.turn(state)
    }
    fn legal_moves(&self, state: &G::State, out: &mut Vec<G::Move>) {
        self.game.legal_moves(state, out)
    }
    fn apply(&self, state: &mut G::State, mv: G::Move) {
        self.game.apply(state, mv)
    }
    fn returns(&self, state: &G::State) -> Rewards {
        self.game.returns(state)
    }
    fn format_move(&self, state: &G::State, mv: G::Move) -> String {
        self.game.format_move(state, mv)
    }
    fn parse_move(&self, state: &G::State, text: &str) -> Result<G::Move, NotationError> {
        self.game.parse_move(state, text)
    }
    fn format_state(&self, state: &G::State) -> String {
        self.game.format_state(state)
    }
    fn parse_state(&self, text: &str) -> Result<G::State, NotationError> {
        self.game.parse_state(text)
    }
    fn render(&self, state: &G::State) -> String {
        self.game.render(state)
    }
    fn legal_moves_of(&self, state: &G::State, player: Player, out: &mut Vec<G::Move>) {
        self.game.legal_moves_of(state, player, out)
    }
    fn apply_joint(&self, state: &mut G::State, moves: &[G::Move]) {
        self.game.apply_joint(state, moves)
    }
    fn hash(&self, state: &G::State) -> u64 {
        self.game.hash(state)
    }
    fn observation(&self, state: &G::State, observer: Player) -> String {
        self.game.observation(state, observer)
    }
    fn determinize(&self, state: &G::State, observer: Player, rng: &mut Rng) -> G::State {
        self.game.determinize(state, observer, rng)
    }
    fn random_move(
        &self,
        state: &G::State,
        rng: &mut Rng,
        buf: &mut Vec<G::Move>,
    ) -> Option<G::Move> {
        self.game.random_move(state, rng, buf)
    }
    fn is_terminal(&self, state: &G::State) -> bool {
        self.game.is_terminal(state)
    }
    fn play(&self, state: &mut G::State, mv: G::Move) -> Result<(), IllegalMove> {
        self.game.play(state, mv)
    }
    fn play_joint(&self, state: &mut G::State, moves: &[G::Move]) -> Result<(), IllegalMove> {
        self.game.play_joint(state, moves)
    }
}

/// An agent of `G` seated at a [`StartAt<G>`] table: it sees and searches the inner game.
struct Seat<G: Game>(Box<dyn Agent<G>>);

impl<G: Game> Agent<StartAt<G>> for Seat<G> {
    fn name(&self) -> String {
        self.0.name()
    }

    fn select_move(
        &mut self,
        game: &StartAt<G>,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError> {
        self.0.select_move(&game.game, state, player)
    }

    fn observe(&mut self, game: &StartAt<G>, before: &G::State, played: Played<'_, G::Move>) {
        self.0.observe(&game.game, before, played)
    }
}

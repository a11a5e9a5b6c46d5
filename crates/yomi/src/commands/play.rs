//! `yomi play GAME AGENT AGENT`: one game, shown move by move.
//!
//! The game is played by the arena's `play_game_from` (legality checks, forfeits, turn
//! limit), from the initial state or `--position`, whose callback prints each move and the
//! board after it.

use std::io::Write;

use anyhow::Context;
use yomi_core::arena::{play_game_from, SeatResult, Termination, DEFAULT_TURN_LIMIT};
use yomi_core::registry::AgentRegistry;
use yomi_core::rng::derive_seed;
use yomi_core::{Game, GameFacts, Player, Turn};

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
            seats.push(agent);
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

        let mut before = start.clone();
        let mut turn = 0usize;
        let mut failed: Option<std::io::Error> = None;
        let played = play_game_from(&game, start, &mut seats, turn_limit, |state, mv| {
            turn += 1;
            let who = match game.turn(&before) {
                Turn::Player(p) => names[p.index()].clone(),
                _ => "all".to_string(),
            };
            before = state.clone();
            if failed.is_none() {
                let shown = writeln!(out, "{turn}. {who} plays {mv}\n\n{}", game.render(state))
                    .and_then(|()| out.flush());
                failed = shown.err();
            }
        })
        .context("cannot play the game")?;
        if let Some(e) = failed {
            return Err(e.into());
        }
        writeln!(out, "{}", result_line(facts, &names, &played))?;
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

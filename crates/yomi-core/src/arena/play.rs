//! Playing one game between agents, one agent per seat.

use std::fmt;
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::seat::{seat_results, SeatResult};
use super::ArenaError;
use crate::agent::{seat_view, Agent, Played};
use crate::game::{Game, GameFacts, Turn, Utility};
use crate::player::Player;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Termination {
    /// The game reached a terminal state; the returns are the game's.
    Terminal,
    /// The game was stopped at the turn limit before it ended. It is scored by
    /// [`Game::returns`] of the state reached (the game's provisional value: for most
    /// games a draw, for games with a score, the score so far).
    TurnLimit,
    /// A seat's agent offered a move that [`Game::play`] (or [`Game::play_joint`]) refused;
    /// that seat loses (see [`forfeit_returns`]).
    IllegalMove {
        /// The offending seat.
        seat: usize,
        /// The move, in notation.
        mv: String,
        /// Why the game refused it.
        reason: String,
    },
    /// A seat's agent returned an [`crate::AgentError`] (a person quit, input failed, no
    /// move); that seat loses (see [`forfeit_returns`]).
    AgentError {
        /// The offending seat.
        seat: usize,
        /// The error, as text.
        reason: String,
    },
}

impl Termination {
    /// The seat that lost by forfeit, if any.
    pub fn forfeiting_seat(&self) -> Option<usize> {
        match self {
            Termination::IllegalMove { seat, .. } | Termination::AgentError { seat, .. } => {
                Some(*seat)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Terminal => f.write_str("game over"),
            Termination::TurnLimit => f.write_str("turn limit reached"),
            Termination::IllegalMove { seat, mv, reason } => {
                write!(f, "seat {seat} forfeits: illegal move {mv} ({reason})")
            }
            Termination::AgentError { seat, reason } => {
                write!(f, "seat {seat} forfeits: {reason}")
            }
        }
    }
}

/// Everything about one finished game except who played it (see
/// [`super::GameRecord`] for the stored form).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayedGame {
    /// The moves in the game's notation, each written on the state before it. A joint move
    /// is written `[m0 m1 ...]`, one entry per player.
    pub moves: Vec<String>,
    /// The reward of each seat (seat `i` is player `i`).
    pub returns: Vec<f64>,
    /// The result of each seat; see [`seat_results`]. A forfeiting seat always loses.
    pub results: Vec<SeatResult>,
    /// Turns played (calls to `play` or `play_joint` that succeeded).
    pub turns: usize,
    /// How the game ended.
    pub termination: Termination,
    /// The final state in the game's notation.
    pub final_state: String,
    /// Wall time of the whole game, in seconds.
    pub seconds: f64,
    /// Wall time each seat's agent spent in `select_move` and `observe`, in seconds.
    pub seat_seconds: Vec<f64>,
    /// Moves each seat's agent chose.
    pub seat_moves: Vec<usize>,
}

/// The rewards when `seat` forfeits: the lowest reward of the game's range for `seat`, and
/// for the others the highest (general-sum games) or an equal share of what keeps the sum
/// (zero-sum: `−low / (n − 1)`; constant sum `c`: `(c − low) / (n − 1)`). In a two-player
/// game with rewards −1..1 that is −1 for the offender and +1 for the opponent.
pub fn forfeit_returns(facts: &GameFacts, seat: usize) -> Vec<f64> {
    let n = facts.players;
    let (lo, hi) = facts.reward_bounds;
    let others = match facts.utility {
        _ if n < 2 => hi,
        Utility::ZeroSum => -lo / (n - 1) as f64,
        Utility::ConstantSum(c) => (c - lo) / (n - 1) as f64,
        Utility::GeneralSum => hi,
    };
    (0..n)
        .map(|i| if i == seat { lo } else { others })
        .collect()
}

/// Plays one game from the initial state; see [`play_game_with`].
///
/// # Errors
/// [`ArenaError::Config`] when the number of seats is not the game's number of players.
pub fn play_game<G: Game, A: Agent<G>>(
    game: &G,
    seats: &mut [A],
    turn_limit: usize,
) -> Result<PlayedGame, ArenaError> {
    play_game_with(game, seats, turn_limit, |_, _| {})
}

/// Plays one game from the initial state, seat `i`'s agent playing player `i`, and calls
/// `on_turn(state, move)` after every turn with the new state and the move's notation.
///
/// At a [`Turn::Player`] turn the mover's agent chooses; at a [`Turn::Simultaneous`] turn
/// every agent chooses, in seat order, without seeing the others' choices. Moves are
/// checked with [`Game::play`] / [`Game::play_joint`]. Every agent then sees the move
/// through [`Agent::observe`].
///
/// The game ends at a terminal state; after `turn_limit` turns (scored by [`Game::returns`]
/// of the state reached, [`Termination::TurnLimit`]); or when an agent errs or offers an
/// illegal move, and that seat loses ([`forfeit_returns`]; at a simultaneous turn the
/// first offending seat in seat order).
///
/// # Errors
/// [`ArenaError::Config`] when the number of seats is not the game's number of players.
pub fn play_game_with<G: Game, A: Agent<G>>(
    game: &G,
    seats: &mut [A],
    turn_limit: usize,
    on_turn: impl FnMut(&G::State, &str),
) -> Result<PlayedGame, ArenaError> {
    play_game_from(game, game.initial_state(), seats, turn_limit, on_turn)
}

/// Like [`play_game_with`], from the position `start` instead of the initial state.
///
/// # Errors
/// [`ArenaError::Config`] when the number of seats is not the game's number of players.
pub fn play_game_from<G: Game, A: Agent<G>>(
    game: &G,
    start: G::State,
    seats: &mut [A],
    turn_limit: usize,
    mut on_turn: impl FnMut(&G::State, &str),
) -> Result<PlayedGame, ArenaError> {
    let facts = game.facts();
    if seats.len() != facts.players {
        return Err(ArenaError::Config(format!(
            "{} has {} players but {} agents were given",
            facts.name,
            facts.players,
            seats.len()
        )));
    }
    let clock = Instant::now();
    let n = seats.len();
    let mut seat_seconds = vec![0.0; n];
    let mut seat_moves = vec![0usize; n];
    let mut moves = Vec::new();
    let mut state = start;
    let mut turns = 0usize;
    let mut joint = Vec::with_capacity(n);
    let mut legal = Vec::new();
    let termination = loop {
        let turn = game.turn(&state);
        if turn == Turn::Terminal {
            break Termination::Terminal;
        }
        if turns >= turn_limit {
            break Termination::TurnLimit;
        }
        let before = state.clone();
        match turn {
            Turn::Terminal => unreachable!("handled above"),
            Turn::Player(p) => {
                let seat = p.index();
                let Some(agent) = seats.get_mut(seat) else {
                    break Termination::AgentError {
                        seat: 0,
                        reason: format!("the game asked {p} to move, but it has {n} players"),
                    };
                };
                let t = Instant::now();
                let view = seat_view(game, &state, p, turns);
                let chosen = agent.select_move(game, view.as_ref().unwrap_or(&state), p);
                seat_seconds[seat] += t.elapsed().as_secs_f64();
                let mv = match chosen {
                    Ok(mv) => mv,
                    Err(e) => {
                        break Termination::AgentError {
                            seat,
                            reason: e.to_string(),
                        }
                    }
                };
                seat_moves[seat] += 1;
                let text = game.format_move(&state, mv);
                if let Err(e) = game.play(&mut state, mv) {
                    break Termination::IllegalMove {
                        seat,
                        mv: text,
                        reason: e.to_string(),
                    };
                }
                observe_all(
                    game,
                    seats,
                    &before,
                    Played::Single(p, mv),
                    turns,
                    &mut seat_seconds,
                );
                moves.push(text);
            }
            Turn::Simultaneous => {
                joint.clear();
                let mut failed = None;
                for (seat, agent) in seats.iter_mut().enumerate() {
                    let t = Instant::now();
                    let me = Player(seat as u8);
                    let view = seat_view(game, &state, me, turns);
                    let chosen = agent.select_move(game, view.as_ref().unwrap_or(&state), me);
                    seat_seconds[seat] += t.elapsed().as_secs_f64();
                    match chosen {
                        Ok(mv) => {
                            seat_moves[seat] += 1;
                            joint.push(mv);
                        }
                        Err(e) => {
                            failed = Some(Termination::AgentError {
                                seat,
                                reason: e.to_string(),
                            });
                            break;
                        }
                    }
                }
                if let Some(t) = failed {
                    break t;
                }
                let texts: Vec<String> =
                    joint.iter().map(|&m| game.format_move(&state, m)).collect();
                let text = format!("[{}]", texts.join(" "));
                if let Err(e) = game.play_joint(&mut state, &joint) {
                    // Name the first seat whose move is not legal; fall back to the name the
                    // game reported.
                    let seat = (0..n)
                        .find(|&s| {
                            game.legal_moves_of(&before, Player(s as u8), &mut legal);
                            !legal.contains(&joint[s])
                        })
                        .or_else(|| {
                            (0..n).find(|&s| facts.player_name(Player(s as u8)) == e.player)
                        })
                        .unwrap_or(0);
                    break Termination::IllegalMove {
                        seat,
                        mv: texts[seat].clone(),
                        reason: e.to_string(),
                    };
                }
                observe_all(
                    game,
                    seats,
                    &before,
                    Played::Joint(&joint),
                    turns,
                    &mut seat_seconds,
                );
                moves.push(text);
            }
        }
        turns += 1;
        on_turn(&state, moves.last().map_or("", String::as_str));
    };
    let (returns, results) = match termination.forfeiting_seat() {
        Some(seat) => {
            let returns = forfeit_returns(facts, seat);
            let mut results = seat_results(&returns);
            results[seat] = SeatResult::Loss;
            (returns, results)
        }
        None => {
            let returns = game.returns(&state).as_slice().to_vec();
            let results = seat_results(&returns);
            (returns, results)
        }
    };
    Ok(PlayedGame {
        moves,
        returns,
        results,
        turns,
        termination,
        final_state: game.format_state(&state),
        seconds: clock.elapsed().as_secs_f64(),
        seat_seconds,
        seat_moves,
    })
}

/// Tells every agent about the step played from `before`, each through its own view: in
/// imperfect-information games the state before the step is the seat's determinization and
/// each move is the move as the seat sees it ([`Game::move_seen_by`]).
fn observe_all<G: Game, A: Agent<G>>(
    game: &G,
    seats: &mut [A],
    before: &G::State,
    played: Played<'_, G::Move>,
    turn: usize,
    seat_seconds: &mut [f64],
) {
    let mut seen = Vec::new();
    for (seat, agent) in seats.iter_mut().enumerate() {
        let t = Instant::now();
        let me = Player(seat as u8);
        match seat_view(game, before, me, turn) {
            None => agent.observe(game, before, played),
            Some(view) => match played {
                Played::Single(p, mv) => {
                    let mv = game.move_seen_by(before, p, mv, me);
                    agent.observe(game, &view, Played::Single(p, mv));
                }
                Played::Joint(moves) => {
                    seen.clear();
                    seen.extend(
                        moves
                            .iter()
                            .enumerate()
                            .map(|(p, &mv)| game.move_seen_by(before, Player(p as u8), mv, me)),
                    );
                    agent.observe(game, &view, Played::Joint(&seen));
                }
            },
        }
        seat_seconds[seat] += t.elapsed().as_secs_f64();
    }
}

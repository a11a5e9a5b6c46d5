//! Agents: anything that picks moves. Search algorithms, random play and people at a
//! terminal all implement [`Agent`], so any agent can meet any other in the arena.

use std::io::{BufRead, Write};

use thiserror::Error;

use crate::game::Information;
use crate::game::{Game, Turn};
use crate::player::Player;
use crate::rng::{derive_seed, Rng};
use crate::search::{Budget, StopSignal};

/// The moves that were just played, as reported to [`Agent::observe`].
#[derive(Clone, Copy, Debug)]
pub enum Played<'a, M> {
    /// A sequential turn: `player` played the move.
    Single(Player, M),
    /// A simultaneous turn: one move per player.
    Joint(&'a [M]),
}

/// Why an agent produced no move.
#[derive(Debug, Error)]
pub enum AgentError {
    /// A person asked to stop the game.
    #[error("the player resigned or quit")]
    Quit,
    /// Reading from or writing to the terminal failed.
    #[error("input/output error: {0}")]
    Io(#[from] std::io::Error),
    /// The agent has no legal move to offer (asked at a terminal state or out of turn).
    #[error("no legal move: {0}")]
    NoMove(String),
    /// [`Agent::select_move_until`] was stopped before its search had any move to offer
    /// (no iteration finished); the caller must find a move elsewhere.
    #[error("the search was stopped before it had a move")]
    Stopped,
}

/// A move from [`Agent::select_move_until`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selected<M> {
    /// The move.
    pub mv: M,
    /// The stop signal cut the search short: `mv` is the best move found until then.
    pub stopped_early: bool,
}

/// A move chooser.
///
/// Agents are told about every move played through [`Agent::observe`], which lets a search
/// keep its tree between moves. In imperfect-information games the arena never hands an
/// agent the true state: it gets a determinization consistent with its own observation
/// ([`seat_view`]), and moves as it sees them ([`Game::move_seen_by`]), so no agent can
/// read hidden parts, whatever it does.
pub trait Agent<G: Game>: Send {
    /// The agent's spec string (`mcts:iters=1000`), for records and tables.
    fn name(&self) -> String;

    /// Chooses `player`'s move in `state`.
    ///
    /// # Errors
    /// See [`AgentError`].
    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError>;

    /// Chooses `player`'s move as [`Agent::select_move`] does, but ends the search as soon
    /// as `stop` is raised (from another thread) and answers with the best move found so
    /// far ([`Selected::stopped_early`] then says so). A caller with a hard deadline raises
    /// the signal when the deadline nears, rather than waiting for a search whose time
    /// budget a starved thread has not used up.
    ///
    /// The default cannot be interrupted: it calls [`Agent::select_move`] and ignores
    /// `stop` (the answer then comes when the search ends, however late).
    ///
    /// # Errors
    /// As [`Agent::select_move`], and [`AgentError::Stopped`] when the signal came before
    /// the search had any move to offer.
    fn select_move_until(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        stop: &StopSignal,
    ) -> Result<Selected<G::Move>, AgentError> {
        let _ = stop;
        let mv = self.select_move(game, state, player)?;
        Ok(Selected {
            mv,
            stopped_early: false,
        })
    }

    /// Told about the moves played from `before`. The default ignores them.
    fn observe(&mut self, game: &G, before: &G::State, played: Played<'_, G::Move>) {
        let _ = (game, before, played);
    }

    /// Searches `state` for `player` as [`Agent::select_move`] would, and reports what the
    /// search thinks of each move (for analysis views and the Python API), or `None` for
    /// agents that keep no per-move statistics. The default returns `None`.
    fn analyse(&mut self, game: &G, state: &G::State, player: Player) -> Option<Analysis<G::Move>> {
        let _ = (game, state, player);
        None
    }

    /// Searches `state` for `player` further, within `budget` instead of the agent's own,
    /// continuing the tree of its previous search or analysis when that was of the same
    /// position, and reports as [`Agent::analyse`] (visits counted over all those calls).
    /// GUI analysis (GTP `lz-analyze`, `kata-analyze`) calls it again and again to stream
    /// a growing search. The default ignores `budget` and calls [`Agent::analyse`].
    fn analyse_within(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        budget: Budget,
    ) -> Option<Analysis<G::Move>> {
        let _ = budget;
        self.analyse(game, state, player)
    }

    /// Told the clock of the side it is about to move for (a GTP `time_left`): `seconds`
    /// left in main time or in the current byo-yomi period, `stones` to play in that period
    /// (0 while in main time), and the byo-yomi period's length (0: sudden death). Agents
    /// with a time manager budget their next search from it; the default ignores it.
    fn clock(&mut self, seconds: f64, stones: u32, byoyomi: f64) {
        let _ = (seconds, stones, byoyomi);
    }

    /// True when the agent, after its last [`Agent::select_move`], judged the game lost
    /// beyond hope and would rather resign (a GTP engine then answers `resign`). The
    /// default never resigns.
    fn resigns(&self) -> bool {
        false
    }
}

/// What a search thought of one position, from the searching player's point of view.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis<M> {
    /// One entry per root move the search considered, in the game's move order.
    pub moves: Vec<MoveAnalysis<M>>,
    /// The principal variation (most visited line), starting with the searching player's
    /// move; may be shorter than the game or empty.
    pub pv: Vec<M>,
    /// The root's value in `[0, 1]` for the searching player (mean over all visits).
    pub value: Option<f64>,
    /// Iterations run.
    pub iterations: u64,
    /// Wall-clock time of the search.
    pub elapsed: std::time::Duration,
}

/// A root move's statistics in an [`Analysis`].
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis<M> {
    /// The move.
    pub mv: M,
    /// Visits through it.
    pub visits: u64,
    /// Mean value in `[0, 1]` for the searching player, or `None` before any visit.
    pub value: Option<f64>,
    /// The prior the search gave it (uniform without a prior).
    pub prior: f32,
    /// The line the search expects after this move, starting with it (its most visited
    /// continuation; may be just the move).
    pub pv: Vec<M>,
}

impl<G: Game> Agent<G> for Box<dyn Agent<G>> {
    fn name(&self) -> String {
        (**self).name()
    }
    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError> {
        (**self).select_move(game, state, player)
    }
    fn select_move_until(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        stop: &StopSignal,
    ) -> Result<Selected<G::Move>, AgentError> {
        (**self).select_move_until(game, state, player, stop)
    }
    fn observe(&mut self, game: &G, before: &G::State, played: Played<'_, G::Move>) {
        (**self).observe(game, before, played)
    }
    fn analyse(&mut self, game: &G, state: &G::State, player: Player) -> Option<Analysis<G::Move>> {
        (**self).analyse(game, state, player)
    }
    fn analyse_within(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
        budget: Budget,
    ) -> Option<Analysis<G::Move>> {
        (**self).analyse_within(game, state, player, budget)
    }
    fn clock(&mut self, seconds: f64, stones: u32, byoyomi: f64) {
        (**self).clock(seconds, stones, byoyomi)
    }
    fn resigns(&self) -> bool {
        (**self).resigns()
    }
}

/// What `seat` may be shown of `state` at turn `turn`: `None` (the state itself) in
/// perfect-information games; otherwise a determinization from `seat`'s observation
/// ([`Game::determinize`]), so that the true hidden parts never reach an agent. The
/// sampling seed depends only on the turn and the seat, so two true states that look the
/// same to the seat give it the same view. The arena, the Python package and the web board
/// hand agents states through this.
pub fn seat_view<G: Game>(
    game: &G,
    state: &G::State,
    seat: Player,
    turn: usize,
) -> Option<G::State> {
    (game.facts().information == Information::Imperfect).then(|| {
        let mut rng = Rng::seed_from_u64(derive_seed(VIEW_SEED ^ turn as u64, seat.0 as u64));
        game.determinize(state, seat, &mut rng)
    })
}

/// The root of the seeds of [`seat_view`]'s determinizations.
const VIEW_SEED: u64 = 0x5ea1_ed0b_5e4e_d000;

/// Writes the legal moves of `player` (whatever the turn structure) into `out`.
pub fn moves_of<G: Game>(game: &G, state: &G::State, player: Player, out: &mut Vec<G::Move>) {
    match game.turn(state) {
        Turn::Player(p) if p == player => game.legal_moves(state, out),
        Turn::Simultaneous => game.legal_moves_of(state, player, out),
        _ => out.clear(),
    }
}

/// Plays uniformly random legal moves.
pub struct RandomAgent {
    rng: Rng,
}

impl RandomAgent {
    /// A random agent whose choices are determined by `seed`.
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for RandomAgent {
    fn name(&self) -> String {
        "random".into()
    }

    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError> {
        let mut moves = Vec::new();
        moves_of(game, state, player, &mut moves);
        self.rng
            .choose(&moves)
            .copied()
            .ok_or_else(|| AgentError::NoMove(format!("{player} has no legal move")))
    }
}

/// Longest line [`HumanAgent`] reads, in bytes (a move is a few characters).
pub const MAX_HUMAN_LINE: usize = 4096;

/// A person at a terminal: shows the board and reads moves, explaining bad input.
///
/// Input and output are generic so tests can script a session. Typing `moves` lists the
/// legal moves; `quit` ends the game with [`AgentError::Quit`].
pub struct HumanAgent<R, W> {
    input: R,
    output: W,
}

impl HumanAgent<std::io::BufReader<std::io::Stdin>, std::io::Stdout> {
    /// A human agent on the process's standard input and output.
    pub fn stdio() -> Self {
        HumanAgent {
            input: std::io::BufReader::new(std::io::stdin()),
            output: std::io::stdout(),
        }
    }
}

impl<R: BufRead, W: Write> HumanAgent<R, W> {
    /// A human agent reading from `input` and writing prompts to `output`.
    pub fn new(input: R, output: W) -> Self {
        HumanAgent { input, output }
    }
}

impl<G: Game, R: BufRead + Send, W: Write + Send> Agent<G> for HumanAgent<R, W> {
    fn name(&self) -> String {
        "human".into()
    }

    fn select_move(
        &mut self,
        game: &G,
        state: &G::State,
        player: Player,
    ) -> Result<G::Move, AgentError> {
        let facts = game.facts();
        let mut legal = Vec::new();
        moves_of(game, state, player, &mut legal);
        if legal.is_empty() {
            return Err(AgentError::NoMove(format!("{player} has no legal move")));
        }
        // People see the board picture when nothing is hidden, else what they may observe.
        let shown = match facts.information {
            crate::Information::Perfect => game.render(state),
            crate::Information::Imperfect => game.observation(state, player),
        };
        writeln!(self.output, "{shown}")?;
        loop {
            write!(
                self.output,
                "{} to move (`moves` lists them, `quit` ends): ",
                facts.player_name(player)
            )?;
            self.output.flush()?;
            // Read as bytes with a length cap: a stray non-UTF-8 byte or a pasted flood
            // is answered like any other bad move instead of ending the game.
            let line = match crate::limits::read_input_line(&mut self.input, MAX_HUMAN_LINE)? {
                None => return Err(AgentError::Quit),
                Some(crate::limits::InputLine::Text(line)) => line,
                Some(crate::limits::InputLine::TooLong) => {
                    writeln!(
                        self.output,
                        "line longer than {MAX_HUMAN_LINE} bytes ignored"
                    )?;
                    continue;
                }
            };
            let text = line.trim();
            match text {
                "quit" | "resign" => return Err(AgentError::Quit),
                "moves" | "?" => {
                    let names: Vec<String> =
                        legal.iter().map(|&m| game.format_move(state, m)).collect();
                    writeln!(self.output, "legal moves: {}", names.join(" "))?;
                }
                "" => {}
                _ => match game.parse_move(state, text) {
                    Ok(mv) if legal.contains(&mv) => return Ok(mv),
                    Ok(_) => writeln!(self.output, "{text} is not legal here; try `moves`")?,
                    Err(e) => writeln!(self.output, "{e}")?,
                },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Nim;

    /// Issue 15: a non-UTF-8 byte on the terminal made `read_line` fail and ended the
    /// game with an i/o error; a line without a newline grew without limit. Both are now
    /// answered like a bad move and the next line is read.
    #[test]
    fn human_agent_survives_a_non_utf8_byte_and_an_over_long_line() {
        let mut input = b"\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'1', MAX_HUMAN_LINE + 1));
        input.extend_from_slice(b"\n2\n");
        let mut output = Vec::new();
        let game = Nim::new(5);
        let mv = HumanAgent::new(&input[..], &mut output)
            .select_move(&game, &game.initial_state(), Player(0))
            .unwrap();
        assert_eq!(mv, 2);
        let shown = String::from_utf8(output).unwrap();
        assert!(shown.contains(&format!("line longer than {MAX_HUMAN_LINE} bytes ignored")));
    }
}

//! A GTP match runner in the manner of GoGui's `gogui-twogtp`: two GTP engines as child
//! processes play a series of games, colours alternating, every move checked against
//! yomi's rules, and at the end of each game **both** engines are asked `final_score`;
//! when they disagree on the winner the game is flagged (`disagreement`) and the result is
//! the trusted engine's ([`MatchConfig::trust`]). Each finished game is appended to a
//! resumable JSONL journal ([`yomi_core::journal`]): a rerun with the same settings plays
//! only the games still missing, so a long match survives being stopped.
//!
//! Engines are started afresh for every game (a crash or hang costs one game, never the
//! match), with `{game}` in a command line replaced by the game's index and `{seed}` by
//! index + 1, so seeded engines vary their games and a replayed game is the same game.
//! Game `i` has the first engine play Black when `i` is even (with alternation; always
//! otherwise).
//!
//! Game endings: two passes in a row, a resignation (`resign`, result `B+R` / `W+R`), an
//! illegal or unreadable move (the mover forfeits: `B+F` / `W+F`) or the move limit
//! (then scored as after two passes). An engine that dies, times out or refuses a legal
//! move aborts the game: it is reported and not journalled (a rerun plays it again).
//!
//! Everything an engine says is untrusted input: answers are parsed into errors, never
//! panics.

use std::path::Path;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use yomi_core::journal::{no_check, Journal, JournalEntry, JournalError};
use yomi_core::Game;

use crate::error::ConfigError;
use crate::game::{GoGame, GoState, Rules};
use crate::gtp_client::{GtpClient, GtpClientError};
use crate::vertex::{Color, Vertex};

/// Which engine of the two.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// The first engine ([`MatchConfig::first`]).
    First,
    /// The second engine.
    Second,
}

/// The settings of a match (they are the journal's header: a journal is resumed only
/// with the same settings).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchConfig {
    /// The first engine's command line.
    pub first: String,
    /// The second engine's command line.
    pub second: String,
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: f64,
    /// Alternate colours (the first engine is Black in even games); else it is always
    /// Black.
    pub alternate: bool,
    /// Whose `final_score` decides a game the two engines score differently.
    pub trust: Side,
    /// Moves after which a game is stopped and scored (0: 3·size²).
    pub max_moves: usize,
}

/// One finished game, a line of the journal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index (the journal key).
    pub game: usize,
    /// Whether the first engine played Black.
    pub first_black: bool,
    /// The moves in GTP notation, Black first (`pass` included).
    pub moves: Vec<String>,
    /// The result as SGF writes it: `B+3.5`, `W+R` (resignation), `B+F` (forfeit), `0`.
    pub result: String,
    /// The winner, `None` for a jigo.
    pub winner: Option<Side>,
    /// The first engine's `final_score` answer (or its error), when the game was scored.
    pub first_score: Option<String>,
    /// The second engine's.
    pub second_score: Option<String>,
    /// Both engines scored and named different winners (or one could not score).
    pub disagreement: bool,
    /// How the game ended: `passes`, `resign`, `forfeit` or `move limit`.
    pub end: String,
    /// Seconds each engine spent in `genmove`, first engine first.
    pub seconds: [f64; 2],
}

impl JournalEntry for GameRecord {
    type Key = usize;
    fn key(&self) -> usize {
        self.game
    }
}

impl GameRecord {
    /// This game in the arena's record format ([`yomi_core::arena::GameRecord`]), which
    /// `yomi report` and `yomi export` read for every command that records games. Seat 0
    /// is Black; a seat is labelled by its engine's command line as `config` gives it. The
    /// setup fingerprint is that of the match's start position (board size and komi), as
    /// the arena writes it for Go; the record carries no seed (0), its pairing is 0 and
    /// its index the game's. A forfeit (`B+F` / `W+F`) ends as the arena's agent error of
    /// the loser's seat, the move limit as its turn limit, passes and resignation as a
    /// finished game. The final state is the position after replaying the moves, or empty
    /// when a move does not replay under yomi's rules.
    ///
    /// # Errors
    /// A board size or komi in `config` that yomi's Go refuses.
    pub fn to_arena(
        &self,
        config: &MatchConfig,
    ) -> Result<yomi_core::arena::GameRecord, ConfigError> {
        use yomi_core::arena::{self, seat_results, Termination};
        let game = GoGame::with_rules(
            config.size,
            Rules {
                komi: config.komi,
                ..Rules::default()
            },
        )?;
        let mut state = game.initial_state();
        let setup = arena::setup_fingerprint(&game.format_state(&state));
        let replayed = self.moves.iter().all(|text| {
            game.parse_move(&state, text)
                .ok()
                .is_some_and(|mv| game.play(&mut state, mv).is_ok())
        });
        // Seat 0 is Black: the first engine's seat is 0 when it played Black.
        let first_seat = if self.first_black { 0 } else { 1 };
        let seat_of = |side: Side| match side {
            Side::First => first_seat,
            Side::Second => 1 - first_seat,
        };
        let returns = match self.winner {
            Some(side) if seat_of(side) == 0 => vec![1.0, -1.0],
            Some(_) => vec![-1.0, 1.0],
            None => vec![0.0, 0.0],
        };
        let termination = match self.end.as_str() {
            "forfeit" => Termination::AgentError {
                seat: self.winner.map_or(0, |w| 1 - seat_of(w)),
                reason: format!("forfeit ({})", self.result),
            },
            "move limit" => Termination::TurnLimit,
            _ => Termination::Terminal,
        };
        let (first, second) = (config.first.clone(), config.second.clone());
        let seats = if self.first_black {
            vec![first, second]
        } else {
            vec![second, first]
        };
        let mut seat_seconds = vec![0.0; 2];
        seat_seconds[first_seat] = self.seconds[0];
        seat_seconds[1 - first_seat] = self.seconds[1];
        let n = self.moves.len();
        let played = arena::PlayedGame {
            moves: self.moves.clone(),
            results: seat_results(&returns),
            returns,
            turns: n,
            termination,
            final_state: if replayed {
                game.format_state(&state)
            } else {
                String::new()
            },
            seconds: self.seconds[0] + self.seconds[1],
            seat_seconds,
            seat_moves: vec![n.div_ceil(2), n / 2],
        };
        let turn_limit = if config.max_moves == 0 {
            3 * config.size * config.size
        } else {
            config.max_moves
        };
        Ok(arena::GameRecord::new(
            &game.facts().name,
            &setup,
            0,
            self.game,
            0,
            seats,
            turn_limit,
            played,
        ))
    }
}

/// Why a match could not run.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// The journal could not be opened or written.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// A bad setting.
    #[error("{0}")]
    Config(String),
}

/// Why one game was aborted (not journalled).
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// An engine failed to start, answer, or accept a legal command.
    #[error("{side:?} engine: {source}")]
    Engine {
        /// Which engine.
        side: Side,
        /// What went wrong.
        source: GtpClientError,
    },
}

/// Black's lead from a GTP score (`B+3.5`, `W+0.5`, `0`, `B+R`); `None` when unreadable.
pub fn parse_score(text: &str) -> Option<f64> {
    let s = text.trim();
    if s == "0" {
        return Some(0.0);
    }
    let (side, v) = (s.get(..2)?, s.get(2..)?);
    let v: f64 = match v {
        "R" | "Resign" | "F" | "T" => f64::INFINITY,
        num => num
            .parse()
            .ok()
            .filter(|x: &f64| x.is_finite() && *x >= 0.0)?,
    };
    match side {
        "B+" => Some(v),
        "W+" => Some(-v),
        _ => None,
    }
}

/// Plays and scores matches (see the module docs).
pub struct Runner {
    /// The settings.
    pub cfg: MatchConfig,
    /// Limit on one `genmove`.
    pub move_timeout: Duration,
    /// Limit on setup commands and `final_score`.
    pub command_timeout: Duration,
}

/// The engine command line for game `game`.
fn command_for(line: &str, game: usize) -> String {
    line.replace("{game}", &game.to_string())
        .replace("{seed}", &(game + 1).to_string())
}

impl Runner {
    /// A runner with default time limits (10 minutes a move, 2 minutes a command).
    pub fn new(cfg: MatchConfig) -> Self {
        Runner {
            cfg,
            move_timeout: Duration::from_secs(600),
            command_timeout: Duration::from_secs(120),
        }
    }

    fn game(&self) -> Result<GoGame, MatchError> {
        GoGame::with_rules(
            self.cfg.size,
            Rules {
                komi: self.cfg.komi,
                ..Rules::default()
            },
        )
        .map_err(|e| MatchError::Config(e.to_string()))
    }

    /// Plays games `0..games` not yet in the journal at `path` (created if missing; refused
    /// if it holds another configuration), calling `report` after each game with the game
    /// or the reason it was aborted. Returns every journalled game.
    ///
    /// # Errors
    /// [`MatchError`] for a bad configuration or journal.
    pub fn run(
        &self,
        path: Option<&Path>,
        games: usize,
        mut report: impl FnMut(usize, &Result<GameRecord, GameError>),
    ) -> Result<Vec<GameRecord>, MatchError> {
        let game = self.game()?;
        let settings =
            serde_json::to_value(&self.cfg).map_err(|e| MatchError::Config(e.to_string()))?;
        let mut journal = match path {
            Some(p) => Journal::<GameRecord>::open(p, Some(&settings), no_check)?,
            None => Journal::in_memory(),
        };
        for i in 0..games {
            if journal.contains(&i) {
                continue;
            }
            let r = self.play(&game, i);
            report(i, &r);
            if let Ok(rec) = r {
                journal.add(rec)?;
            }
        }
        Ok(journal.into_entries())
    }

    /// Plays game `i`.
    ///
    /// # Errors
    /// [`GameError`] when an engine fails.
    pub fn play(&self, game: &GoGame, i: usize) -> Result<GameRecord, GameError> {
        let first_black = !self.cfg.alternate || i % 2 == 0;
        let spawn = |side: Side, line: &str| {
            GtpClient::spawn(&command_for(line, i))
                .map_err(|source| GameError::Engine { side, source })
        };
        let mut engines = [
            spawn(Side::First, &self.cfg.first)?,
            spawn(Side::Second, &self.cfg.second)?,
        ];
        let sides = [Side::First, Side::Second];
        for (e, &side) in engines.iter_mut().zip(&sides) {
            for cmd in [
                format!("boardsize {}", self.cfg.size),
                "clear_board".to_string(),
                format!("komi {}", self.cfg.komi),
            ] {
                e.send(&cmd, self.command_timeout)
                    .map_err(|source| GameError::Engine { side, source })?;
            }
        }
        // Engine index of each colour: black first.
        let by_colour = if first_black { [0, 1] } else { [1, 0] };
        let side_of = |c: Color| sides[by_colour[c as usize - 1]];
        let mut state: GoState = game.initial_state();
        let mut moves = Vec::new();
        let mut seconds = [0.0f64; 2];
        let max_moves = if self.cfg.max_moves == 0 {
            3 * self.cfg.size * self.cfg.size
        } else {
            self.cfg.max_moves
        };
        let mut colour = Color::Black;
        let mut passes = 0;
        let mut end = "passes";
        let mut decided: Option<(String, Option<Color>)> = None;
        while passes < 2 {
            if moves.len() >= max_moves {
                end = "move limit";
                break;
            }
            let me = by_colour[colour as usize - 1];
            let t0 = Instant::now();
            let answer = engines[me]
                .send(&format!("genmove {}", colour.letter()), self.move_timeout)
                .map_err(|source| GameError::Engine {
                    side: sides[me],
                    source,
                })?;
            seconds[me] += t0.elapsed().as_secs_f64();
            let answer = answer.trim().to_ascii_lowercase();
            if answer == "resign" {
                end = "resign";
                let winner = colour.opponent();
                decided = Some((format!("{}+R", winner.letter()), Some(winner)));
                break;
            }
            let legal = Vertex::parse_gtp(&answer, self.cfg.size).ok().filter(|&v| {
                if state.to_move() != colour {
                    return false;
                }
                game.is_legal(&state, v)
            });
            let Some(v) = legal else {
                end = "forfeit";
                let winner = colour.opponent();
                moves.push(answer);
                decided = Some((format!("{}+F", winner.letter()), Some(winner)));
                break;
            };
            let text = v.to_gtp(self.cfg.size);
            let other = 1 - me;
            engines[other]
                .send(
                    &format!("play {} {text}", colour.letter()),
                    self.command_timeout,
                )
                .map_err(|source| GameError::Engine {
                    side: sides[other],
                    source,
                })?;
            // Legal by the check above; a refusal here would be a rules bug: report it.
            if game.play(&mut state, v).is_err() {
                end = "forfeit";
                decided = Some((
                    format!("{}+F", colour.opponent().letter()),
                    Some(colour.opponent()),
                ));
                break;
            }
            passes = if v.is_pass() { passes + 1 } else { 0 };
            moves.push(text);
            colour = colour.opponent();
        }
        let (result, winner_colour, first_score, second_score, disagreement) = match decided {
            Some((r, w)) => (r, w, None, None, false),
            None => {
                let mut scores = [None, None];
                let mut leads = [None, None];
                for (k, e) in engines.iter_mut().enumerate() {
                    match e.send("final_score", self.command_timeout) {
                        Ok(s) => {
                            leads[k] = parse_score(&s);
                            scores[k] = Some(s);
                        }
                        Err(err) => scores[k] = Some(format!("error: {err}")),
                    }
                }
                let sign = |x: Option<f64>| x.map(|v| v.partial_cmp(&0.0));
                let disagreement = sign(leads[0]) != sign(leads[1]) || leads[0].is_none();
                let trusted = match self.cfg.trust {
                    Side::First => 0,
                    Side::Second => 1,
                };
                // The trusted engine's score; if it cannot score, the other's; if neither
                // can, yomi's own Tromp-Taylor count of the final board.
                let lead = leads[trusted]
                    .or(leads[1 - trusted])
                    .unwrap_or_else(|| state.area_score());
                let (result, w) = if lead > 0.0 {
                    (format!("B+{lead}"), Some(Color::Black))
                } else if lead < 0.0 {
                    (format!("W+{}", -lead), Some(Color::White))
                } else {
                    ("0".to_string(), None)
                };
                let [a, b] = scores;
                (result, w, a, b, disagreement)
            }
        };
        for e in &mut engines {
            let _ = e.send("quit", Duration::from_secs(5));
        }
        Ok(GameRecord {
            game: i,
            first_black,
            moves,
            result,
            winner: winner_colour.map(side_of),
            first_score,
            second_score,
            disagreement,
            end: end.to_string(),
            seconds,
        })
    }
}

/// The first engine's points (a win 1, a jigo ½) and the games counted.
pub fn first_points(records: &[GameRecord]) -> (f64, u64) {
    let points = records
        .iter()
        .map(|r| match r.winner {
            Some(Side::First) => 1.0,
            Some(Side::Second) => 0.0,
            None => 0.5,
        })
        .sum();
    (points, records.len() as u64)
}

/// A summary of a match: games, the first engine's wins by colour, the win rate with its
/// Wilson 95 % interval, disagreements and endings.
pub fn summary(cfg: &MatchConfig, records: &[GameRecord]) -> String {
    let (points, n) = first_points(records);
    let (lo, hi) = yomi_core::arena::stats::wilson_interval(points, n, 1.959_964);
    let wins_as = |black: bool| {
        let games = records.iter().filter(|r| r.first_black == black).count();
        let wins = records
            .iter()
            .filter(|r| r.first_black == black && r.winner == Some(Side::First))
            .count();
        format!("{wins}/{games}")
    };
    let disagreements = records.iter().filter(|r| r.disagreement).count();
    let count = |what: &str| records.iter().filter(|r| r.end == what).count();
    format!(
        "first: {}\nsecond: {}\ngames: {n}, first engine's points: {points} ({:.1} %, Wilson 95 % {:.1}-{:.1} %)\nfirst engine wins as Black {}, as White {}\nscore disagreements: {disagreements}\nendings: {} by passes, {} by resignation, {} by forfeit, {} at the move limit\n",
        cfg.first,
        cfg.second,
        if n > 0 { 100.0 * points / n as f64 } else { 0.0 },
        100.0 * lo,
        100.0 * hi,
        wins_as(true),
        wins_as(false),
        count("passes"),
        count("resign"),
        count("forfeit"),
        count("move limit"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_parse_or_refuse() {
        assert_eq!(parse_score("B+3.5"), Some(3.5));
        assert_eq!(parse_score("W+0.5"), Some(-0.5));
        assert_eq!(parse_score("0"), Some(0.0));
        assert_eq!(parse_score("W+R"), Some(f64::NEG_INFINITY));
        for bad in [
            "", "B", "B+", "X+3", "B+-2", "B+nan", "W+inf", "é+1", "B+1e999",
        ] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
    }

    #[test]
    fn command_lines_get_the_game() {
        assert_eq!(
            command_for("gnugo --seed {seed} -x {game}", 4),
            "gnugo --seed 5 -x 4"
        );
    }
}

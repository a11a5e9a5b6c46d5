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
//! Start positions ([`MatchConfig::openings`], loaded by [`load_openings`] from SGF files):
//! game `i` starts from opening `i / 2` when colours alternate, so each position is played
//! once with each engine on each side, and from opening `i` otherwise (cycling). The
//! opening's moves are sent to both engines as `play` commands and are the first
//! [`GameRecord::opening_moves`] of the record's moves; [`positions_before_end`] makes
//! such positions from a finished match (the position some moves before each game's end).
//! When every game starts from a position, the summary's mean score margin compares the
//! engines by points rather than wins: over a pair of games from one position, an engine
//! that plays exactly as well as the other has margin 0.
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
    /// Moves after which a game is stopped and scored (0: 3·size²), the opening's moves
    /// included.
    pub max_moves: usize,
    /// Start positions (empty: every game starts on the empty board); see the module docs
    /// for which game plays which.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub openings: Vec<Opening>,
}

impl MatchConfig {
    /// The index and opening game `i` starts from, if the match has openings.
    pub fn opening_for(&self, i: usize) -> Option<(usize, &Opening)> {
        if self.openings.is_empty() {
            return None;
        }
        let k = if self.alternate { i / 2 } else { i } % self.openings.len();
        Some((k, &self.openings[k]))
    }
}

/// A start position: moves played from the empty board before the engines take over.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Opening {
    /// Where it came from (the file's name).
    pub name: String,
    /// The moves as GTP `play` arguments, colour then vertex: `B C3`, `W pass`.
    pub moves: Vec<String>,
}

/// The most openings [`load_openings`] reads from one directory.
pub const MAX_OPENINGS: usize = 100_000;
/// The longest SGF file [`load_openings`] reads.
pub const MAX_OPENING_BYTES: u64 = 1 << 20;

/// Why start positions could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum OpeningError {
    /// A file or directory could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The path.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// A file is not an opening this match can play.
    #[error("{path}: {reason}")]
    Bad {
        /// The path.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// No `.sgf` file in a directory, or more than [`MAX_OPENINGS`].
    #[error("{path}: {reason}")]
    Count {
        /// The directory.
        path: String,
        /// What is wrong.
        reason: String,
    },
}

impl Opening {
    /// The opening of an SGF record's main line (its moves; a move by the side not to move
    /// gets a pass before it, as SGF allows) for a match on `size`. The record's komi and
    /// result are ignored (the match has its own komi).
    ///
    /// # Errors
    /// The reason, for: a malformed record, another board size, setup stones (`AB`/`AW`:
    /// GTP has no command to place them, so give the position as moves), or a move the
    /// rules refuse.
    pub fn from_sgf(name: &str, text: &str, size: usize) -> Result<Opening, String> {
        let rec = crate::sgf::SgfGame::parse(text).map_err(|e| e.to_string())?;
        if rec.size != size {
            return Err(format!(
                "a {0}x{0} record, but the match is on {size}x{size}",
                rec.size
            ));
        }
        if !rec.black_setup.is_empty() || !rec.white_setup.is_empty() {
            return Err(
                "setup stones (AB/AW) cannot be sent over GTP: give the position as moves"
                    .to_string(),
            );
        }
        let game = GoGame::new(size).map_err(|e| e.to_string())?;
        let mut state = game.initial_state();
        let mut moves = Vec::with_capacity(rec.moves.len());
        for (i, &(c, v)) in rec.moves.iter().enumerate() {
            if state.to_move() != c {
                game.play(&mut state, Vertex::PASS)
                    .map_err(|e| format!("move {}: {e}", i + 1))?;
                moves.push(format!("{} pass", c.opponent().letter()));
            }
            game.play(&mut state, v).map_err(|_| {
                format!(
                    "move {} ({} {}) is illegal",
                    i + 1,
                    c.letter(),
                    v.to_gtp(size)
                )
            })?;
            moves.push(format!("{} {}", c.letter(), v.to_gtp(size)));
        }
        Ok(Opening {
            name: name.to_string(),
            moves,
        })
    }
}

/// The openings at `path`: one SGF file, or every `*.sgf` file of a directory in name
/// order, for a match on `size`.
///
/// # Errors
/// [`OpeningError`] naming the file: unreadable, longer than [`MAX_OPENING_BYTES`], or
/// refused by [`Opening::from_sgf`]; a directory without `.sgf` files or with more than
/// [`MAX_OPENINGS`].
pub fn load_openings(path: &Path, size: usize) -> Result<Vec<Opening>, OpeningError> {
    let read_err = |p: &Path, source| OpeningError::Read {
        path: p.display().to_string(),
        source,
    };
    let files: Vec<std::path::PathBuf> = if path.is_dir() {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(path).map_err(|e| read_err(path, e))? {
            let p = entry.map_err(|e| read_err(path, e))?.path();
            if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("sgf")) {
                files.push(p);
                if files.len() > MAX_OPENINGS {
                    return Err(OpeningError::Count {
                        path: path.display().to_string(),
                        reason: format!("more than {MAX_OPENINGS} .sgf files"),
                    });
                }
            }
        }
        if files.is_empty() {
            return Err(OpeningError::Count {
                path: path.display().to_string(),
                reason: "no .sgf file in this directory".to_string(),
            });
        }
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    };
    files
        .iter()
        .map(|p| {
            let len = std::fs::metadata(p).map_err(|e| read_err(p, e))?.len();
            if len > MAX_OPENING_BYTES {
                return Err(OpeningError::Bad {
                    path: p.display().to_string(),
                    reason: format!("{len} bytes, more than the {MAX_OPENING_BYTES} read"),
                });
            }
            let text = std::fs::read_to_string(p).map_err(|e| read_err(p, e))?;
            let name = p.file_name().map_or_else(
                || p.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            Opening::from_sgf(&name, &text, size).map_err(|reason| OpeningError::Bad {
                path: p.display().to_string(),
                reason,
            })
        })
        .collect()
}

/// Start positions made from finished games: for each game of `records` that ended by
/// passes, the position `from_end` moves before its last move that is not a pass, if at
/// least `min_moves` moves were played by then and no earlier game gave the same moves.
/// Returns the game's index and its record up to that point (no komi or result: the match
/// that plays it has its own).
pub fn positions_before_end(
    records: &[GameRecord],
    size: usize,
    from_end: usize,
    min_moves: usize,
) -> Vec<(usize, crate::sgf::SgfGame)> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for r in records.iter().filter(|r| r.end == "passes") {
        let played = r.moves.len()
            - r.moves
                .iter()
                .rev()
                .take_while(|m| m.as_str() == "pass")
                .count();
        let Some(cut) = played.checked_sub(from_end).filter(|&c| c >= min_moves) else {
            continue;
        };
        let mut colour = Color::Black;
        let mut moves = Vec::with_capacity(cut);
        for text in &r.moves[..cut] {
            let Ok(v) = Vertex::parse_gtp(text, size) else {
                break;
            };
            moves.push((colour, v));
            colour = colour.opponent();
        }
        if moves.len() == cut && seen.insert(r.moves[..cut].to_vec()) {
            out.push((r.game, crate::sgf::SgfGame::from_moves(size, 0.0, &moves)));
        }
    }
    out
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
    /// The index of the opening the game started from ([`MatchConfig::opening_for`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<usize>,
    /// How many of `moves` were the opening's.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub opening_moves: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
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
    /// The game's opening does not replay under yomi's rules (openings are checked when
    /// loaded; this is a configuration made some other way).
    #[error("opening {name}: {reason}")]
    Opening {
        /// The opening's name.
        name: String,
        /// What is wrong.
        reason: String,
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
        let opening = self.cfg.opening_for(i);
        if let Some((_, o)) = opening {
            for text in &o.moves {
                let bad = |reason: String| GameError::Opening {
                    name: o.name.clone(),
                    reason,
                };
                let (c, v) = text
                    .split_once(' ')
                    .and_then(|(c, v)| {
                        let c = match c {
                            "B" | "b" => Color::Black,
                            "W" | "w" => Color::White,
                            _ => return None,
                        };
                        Some((c, Vertex::parse_gtp(v, self.cfg.size).ok()?))
                    })
                    .ok_or_else(|| bad(format!("{text:?} is not a colour and a vertex")))?;
                if state.to_move() != c || game.play(&mut state, v).is_err() {
                    return Err(bad(format!(
                        "{text} is illegal after {} moves",
                        moves.len()
                    )));
                }
                let cmd = format!("play {} {}", c.letter(), v.to_gtp(self.cfg.size));
                for (e, &side) in engines.iter_mut().zip(&sides) {
                    e.send(&cmd, self.command_timeout)
                        .map_err(|source| GameError::Engine { side, source })?;
                }
                moves.push(v.to_gtp(self.cfg.size));
            }
        }
        let opening_moves = moves.len();
        let mut seconds = [0.0f64; 2];
        let max_moves = if self.cfg.max_moves == 0 {
            3 * self.cfg.size * self.cfg.size
        } else {
            self.cfg.max_moves
        };
        let mut colour = state.to_move();
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
            opening: opening.map(|(k, _)| k),
            opening_moves,
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
    let mut text = format!(
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
    );
    if !cfg.openings.is_empty() {
        text.push_str(&format!(
            "start positions: {} ({})\n",
            cfg.openings.len(),
            if cfg.alternate {
                "each played with both colours"
            } else {
                "the first engine Black in every game"
            }
        ));
    }
    if let Some((mean, stderr, scored)) = mean_margin(records) {
        text.push_str(&format!(
            "first engine's mean score margin: {mean:+.2} points (standard error {stderr:.2}) over {scored} games scored by count\n"
        ));
    }
    text
}

/// The first engine's mean score margin (its lead at the count, komi included), the
/// standard error of that mean, and the number of games it is over: games scored by count
/// only (resignations and forfeits have no margin). `None` when there are none.
pub fn mean_margin(records: &[GameRecord]) -> Option<(f64, f64, usize)> {
    let margins: Vec<f64> = records
        .iter()
        .filter(|r| r.end == "passes" || r.end == "move limit")
        .filter_map(|r| {
            let lead = parse_score(&r.result).filter(|v| v.is_finite())?;
            Some(if r.first_black { lead } else { -lead })
        })
        .collect();
    let n = margins.len();
    if n == 0 {
        return None;
    }
    let mean = margins.iter().sum::<f64>() / n as f64;
    let var = if n > 1 {
        margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1) as f64
    } else {
        0.0
    };
    Some((mean, (var / n as f64).sqrt(), n))
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

//! Engine protocols so that a GUI can drive yomi's Othello engine: NBoard's engine
//! protocol ([`run_nboard`]) and GTP as used with GoGui ([`run_gtp`]).
//!
//! Both share an [`Engine`]: exact solving ([`Solver`]) when at most
//! [`Engine::exact_empties`] squares are empty, otherwise alpha-beta (core's
//! [`AlphaBeta`]) with the pattern evaluation to the set depth. Malformed lines get an
//! error reply (`status error: …` in NBoard, `? …` in GTP), never a panic; reading ends at
//! the end of input or on `quit`.
//!
//! Input is read as bytes: a line that is not UTF-8 is read with replacement characters
//! (as Go's GTP engine does) rather than ending the session, and a line longer than
//! [`MAX_LINE`] bytes is discarded up to its end and answered with an error, so one bad
//! line never stops the engine nor grows its memory without bound. Every search is bounded
//! by [`Engine::move_time`] (alpha-beta deepens iteratively and stops at the deadline), so
//! `set depth 60` followed by `go` answers in bounded time.

use std::io::{self, BufRead, Write};
use std::time::{Duration, Instant};

// The line reader is shared with Go's GTP engine; re-exported here where it was first.
pub use crate::ggf::parse_ggf;
use yomi_core::gtp::GtpHandler;
pub use yomi_core::limits::{read_input_line, InputLine};
use yomi_core::search::alphabeta::AlphaBeta;
use yomi_core::search::Budget;
use yomi_core::spec::SpecError;
use yomi_core::{Agent, Game, Played, Player};

use crate::eval::{OthelloEval, REWARD_SCALE};
use crate::game::{Move, Othello, OthelloState};
use crate::solver::Solver;

/// A move choice with its evaluation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// Disc difference expected for the side to move.
    pub eval: f32,
    /// True when `eval` is exact (solved).
    pub exact: bool,
    /// Search depth reached (empties when exact).
    pub depth: u32,
}

/// Longest input line the protocols accept, in bytes; longer lines are discarded and
/// answered with an error.
pub const MAX_LINE: usize = yomi_core::gtp::MAX_LINE;

/// The default [`Engine::move_time`].
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(5);

/// The game being played and the searches that choose moves.
pub struct Engine {
    /// The current position.
    pub state: OthelloState,
    history: Vec<OthelloState>,
    /// Alpha-beta depth in the midgame.
    pub depth: u32,
    /// Solve exactly at or below this many empties.
    pub exact_empties: u32,
    /// Most wall-clock time of one midgame search (`go`, `genmove`; `hint` shares it
    /// among the moves it ranks). Alpha-beta deepens iteratively and answers with the
    /// deepest finished iteration when the time is up.
    pub move_time: Duration,
    /// Most nodes of one midgame search (`hint` shares them among the moves it ranks), if
    /// capped: the search stops there as at [`Engine::move_time`], whichever comes first,
    /// but on any machine under any load it stops at the same point, so the engine's
    /// replies repeat exactly (`--nodes`; the fuzz targets use it to bound each input's
    /// work without the clock). `None` (the default): time and depth only.
    pub max_nodes: Option<u64>,
    /// When set, this agent (any spec of [`crate::agents::registry`], built with
    /// [`Engine::with_agent`]) chooses every move (`go`, `genmove`) instead of the
    /// alpha-beta search and the exact solver, within its own spec's budget; its moves are
    /// reported with evaluation 0. `hint` still ranks moves with the search.
    pub agent: Option<Box<dyn Agent<Othello>>>,
    solver: Solver,
    search: AlphaBeta<Othello, OthelloEval>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

/// The largest table size [`Engine::with_table_bits`] accepts, in bits.
pub const MAX_TABLE_BITS: u32 = 24;

impl Engine {
    /// An engine at the start position, depth 6, exact from 16 empties.
    pub fn new() -> Self {
        Engine::with_table_bits(20, 18)
    }

    /// An engine like [`Engine::new`] whose exact solver's transposition table has
    /// `2^solver_bits` entries and whose midgame search's has `2^search_bits`, each clamped
    /// to `4..=MAX_TABLE_BITS` (`new` uses 20 and 18, about 40 MiB together; 24 bits are
    /// 512 MiB and 384 MiB). Building an engine writes its whole tables, so small ones make
    /// engines cheap where many short sessions each need a fresh one (the fuzz targets build
    /// one per input); the searches run the same code and only keep fewer positions.
    pub fn with_table_bits(solver_bits: u32, search_bits: u32) -> Self {
        Engine {
            state: OthelloState::start(),
            history: Vec::new(),
            depth: 6,
            exact_empties: 16,
            move_time: DEFAULT_MOVE_TIME,
            max_nodes: None,
            agent: None,
            solver: Solver::new(solver_bits.clamp(4, MAX_TABLE_BITS)),
            search: AlphaBeta::new(
                OthelloEval::shipped(),
                search_bits.clamp(4, MAX_TABLE_BITS),
                1,
            ),
        }
    }

    /// An engine whose moves the agent `spec` chooses (see [`Engine::agent`]), seeded with
    /// `seed`.
    ///
    /// # Errors
    /// [`SpecError`] when `spec` is no agent of [`crate::agents::registry`] or its
    /// parameters are refused.
    pub fn with_agent(spec: &str, seed: u64) -> Result<Self, SpecError> {
        let agent = crate::agents::registry().build(&Othello, spec, seed)?;
        Ok(Engine {
            agent: Some(agent),
            ..Engine::new()
        })
    }

    /// Sets a new position and forgets the history.
    pub fn set_position(&mut self, state: OthelloState) {
        self.state = state;
        self.history.clear();
    }

    /// Plays `mv` if legal.
    ///
    /// # Errors
    /// A message when the move is illegal.
    pub fn play(&mut self, mv: Move) -> Result<(), String> {
        let before = self.state;
        let mover = before.to_move();
        Othello
            .play(&mut self.state, mv)
            .map_err(|e| format!("{e}"))?;
        self.history.push(before);
        if let Some(agent) = &mut self.agent {
            // Lets a search keep its subtree.
            agent.observe(&Othello, &before, Played::Single(mover, mv));
        }
        Ok(())
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some(s) => {
                self.state = s;
                true
            }
            None => false,
        }
    }

    /// The engine's move in the current position, or `None` when the game is over.
    pub fn choose(&mut self) -> Option<Choice> {
        let s = self.state;
        if s.is_over() {
            return None;
        }
        if let Some(agent) = &mut self.agent {
            let mv = if s.legal() == 0 {
                Move::PASS
            } else {
                agent.select_move(&Othello, &s, s.to_move()).ok()?
            };
            return Some(Choice {
                mv,
                eval: 0.0,
                exact: false,
                depth: 0,
            });
        }
        if s.legal() == 0 {
            return Some(Choice {
                mv: Move::PASS,
                eval: -self
                    .score_after(Move::PASS, self.move_time, self.max_nodes)
                    .0,
                exact: false,
                depth: 0,
            });
        }
        if s.empty_count() <= self.exact_empties {
            let r = self.solver.solve(&s);
            return Some(Choice {
                mv: r.best.unwrap_or(Move::PASS),
                eval: r.score as f32,
                exact: true,
                depth: s.empty_count(),
            });
        }
        self.search.set_node_limit(self.max_nodes);
        let r = self.search.search(
            &Othello,
            &s,
            self.depth,
            Budget {
                iterations: None,
                time: Some(self.move_time),
            },
        );
        Some(Choice {
            mv: r.best.unwrap_or(Move::PASS),
            eval: reward_to_discs(r.value),
            exact: false,
            depth: r.depth,
        })
    }

    /// The position after `mv` for the side that moves next there, searched for at most
    /// `time` and `nodes`: its evaluation, whether it is exact, and the depth reached in
    /// plies from the current position (the move itself included).
    fn score_after(&mut self, mv: Move, time: Duration, nodes: Option<u64>) -> (f32, bool, u32) {
        let mut t = self.state;
        t.play_unchecked(mv);
        if t.is_over() {
            return (t.final_score() as f32, true, 1);
        }
        if t.empty_count() <= self.exact_empties {
            return (
                self.solver.solve(&t).score as f32,
                true,
                t.empty_count() + 1,
            );
        }
        let d = self.depth.saturating_sub(1).max(1);
        self.search.set_node_limit(nodes);
        let r = self.search.search(
            &Othello,
            &t,
            d,
            Budget {
                iterations: None,
                time: Some(time),
            },
        );
        (reward_to_discs(r.value), false, r.depth + 1)
    }

    /// Every legal move with its evaluation for the side to move, best first; `depth` is
    /// what each move's search reached (it stops early at the time or node budget).
    pub fn rank_moves(&mut self) -> Vec<Choice> {
        let mut moves = Vec::new();
        Othello.legal_moves(&self.state, &mut moves);
        // The moves share the move time and the node budget.
        let each = self.move_time / (moves.len().max(1) as u32);
        let each_nodes = self
            .max_nodes
            .map(|n| (n / moves.len().max(1) as u64).max(1));
        let mut out: Vec<Choice> = moves
            .into_iter()
            .map(|mv| {
                let (eval, exact, depth) = self.score_after(mv, each, each_nodes);
                Choice {
                    mv,
                    eval: -eval,
                    exact,
                    depth,
                }
            })
            .collect();
        out.sort_by(|a, b| b.eval.total_cmp(&a.eval));
        out
    }
}

/// Maps a reward in (-1, 1) back to discs (the inverse of the evaluator's `tanh`).
fn reward_to_discs(v: f64) -> f32 {
    let v = v.clamp(-0.999_999, 0.999_999) as f32;
    (v.atanh() * REWARD_SCALE).clamp(-64.0, 64.0)
}

fn nboard_move(mv: Move) -> String {
    if mv.is_pass() {
        "PA".into()
    } else {
        mv.to_string().to_uppercase()
    }
}

/// Runs the NBoard engine protocol on `input` / `output` until `quit` or end of input.
///
/// # Errors
/// Only i/o errors; malformed commands get `status error: …` lines.
pub fn run_nboard<R: BufRead, W: Write>(input: R, output: W) -> io::Result<()> {
    run_nboard_with(Engine::new(), input, output)
}

/// [`run_nboard`] with a configured `engine` (its depth, exact threshold, move time).
///
/// # Errors
/// Only i/o errors; malformed commands get `status error: …` lines.
pub fn run_nboard_with<R: BufRead, W: Write>(
    mut engine: Engine,
    mut input: R,
    mut output: W,
) -> io::Result<()> {
    while let Some(line) = read_input_line(&mut input, MAX_LINE)? {
        let InputLine::Text(line) = line else {
            writeln!(
                output,
                "status error: line longer than {MAX_LINE} bytes ignored"
            )?;
            output.flush()?;
            continue;
        };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (cmd, args) = line.split_once(' ').unwrap_or((line, ""));
        let args = args.trim();
        match cmd {
            "nboard" => writeln!(output, "set myname yomi")?,
            "quit" => break,
            "ping" => writeln!(output, "pong {args}")?,
            "set" => {
                let (what, value) = args.split_once(' ').unwrap_or((args, ""));
                match what {
                    "depth" => match value.trim().parse::<u32>() {
                        Ok(d) if (1..=60).contains(&d) => engine.depth = d,
                        _ => {
                            writeln!(output, "status error: set depth needs 1..60, got {value:?}")?
                        }
                    },
                    "game" => match parse_ggf(value) {
                        Ok((start, moves)) => {
                            engine.set_position(start);
                            for mv in moves {
                                if let Err(e) = engine.play(mv) {
                                    writeln!(output, "status error: {e}")?;
                                    break;
                                }
                            }
                        }
                        Err(e) => writeln!(output, "status error: {e}")?,
                    },
                    "contempt" => {}
                    other => writeln!(output, "status error: unknown setting {other:?}")?,
                }
            }
            "move" => {
                let text = args.split('/').next().unwrap_or("").trim();
                let mv = if text.eq_ignore_ascii_case("pa") {
                    Ok(Move::PASS)
                } else {
                    text.parse::<Move>().map_err(|e| e.to_string())
                };
                match mv.and_then(|m| engine.play(m)) {
                    Ok(()) => {}
                    Err(e) => writeln!(output, "status error: {e}")?,
                }
            }
            "go" => {
                let t = Instant::now();
                match engine.choose() {
                    Some(c) => writeln!(
                        output,
                        "=== {}/{:.2}/{:.3}",
                        nboard_move(c.mv),
                        c.eval,
                        t.elapsed().as_secs_f64()
                    )?,
                    None => writeln!(output, "status error: the game is over")?,
                }
            }
            "hint" => {
                let n: usize = match args.parse() {
                    Ok(n) if n > 0 => n,
                    _ => {
                        writeln!(output, "status error: hint needs a positive count")?;
                        continue;
                    }
                };
                writeln!(output, "status thinking")?;
                for c in engine.rank_moves().into_iter().take(n) {
                    let depth = if c.exact {
                        "100%".to_string()
                    } else {
                        c.depth.to_string()
                    };
                    writeln!(
                        output,
                        "search {} {:.2} 0 {depth}",
                        nboard_move(c.mv),
                        c.eval
                    )?;
                }
                writeln!(output, "status")?;
            }
            "learn" => writeln!(output, "learned")?,
            "analyze" => writeln!(output, "status error: analyze is not supported")?,
            other => writeln!(output, "status error: unknown command {other:?}")?,
        }
        output.flush()?;
    }
    Ok(())
}

/// The engine's own GTP commands (after the shared loop's administrative ones,
/// [`yomi_core::gtp::ADMIN_COMMANDS`]).
pub const GTP_COMMANDS: &[&str] = &[
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "set_position",
];

fn gtp_color(text: &str) -> Option<Player> {
    match text.to_ascii_lowercase().as_str() {
        "b" | "black" => Some(Player(0)),
        "w" | "white" => Some(Player(1)),
        _ => None,
    }
}

/// Runs GTP (version 2, Othello moves `a1`..`h8` and `pass`) until `quit` or end of input,
/// on the shared GTP loop ([`yomi_core::gtp::run`]: input read on a thread of its own).
/// `set_position <64 squares> <X|O>` is an extension that sets a position.
///
/// # Errors
/// Only i/o errors; bad commands get `? …` replies.
pub fn run_gtp<R: BufRead + Send + 'static, W: Write>(input: R, output: W) -> io::Result<()> {
    run_gtp_with(Engine::new(), input, output)
}

/// [`run_gtp`] with a configured `engine` (its depth, exact threshold, move time).
///
/// # Errors
/// Only i/o errors; bad commands get `? …` replies.
pub fn run_gtp_with<R: BufRead + Send + 'static, W: Write>(
    engine: Engine,
    input: R,
    output: W,
) -> io::Result<()> {
    yomi_core::gtp::run(&mut GtpOthello { engine }, input, output)
}

/// [`Engine`] on the shared GTP loop.
struct GtpOthello {
    engine: Engine,
}

impl GtpHandler for GtpOthello {
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    fn commands(&self) -> Vec<&'static str> {
        GTP_COMMANDS.to_vec()
    }

    fn execute(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        let engine = &mut self.engine;
        match name {
            "boardsize" => match args.first().map(|a| a.parse::<u32>()) {
                Some(Ok(8)) => Ok(String::new()),
                _ => Err("unacceptable size (only 8)".into()),
            },
            "clear_board" => {
                engine.set_position(OthelloState::start());
                Ok(String::new())
            }
            "komi" => Ok(String::new()),
            "play" => match (args.first().and_then(|c| gtp_color(c)), args.get(1)) {
                (Some(color), Some(text)) => match text.parse::<Move>() {
                    Ok(mv) => {
                        if engine.state.to_move() != color
                            && engine.state.legal() == 0
                            && !engine.state.is_over()
                        {
                            // The other side had to pass.
                            let _ = engine.play(Move::PASS);
                        }
                        if engine.state.to_move() != color && !mv.is_pass() {
                            Err("illegal move: not that colour's turn".into())
                        } else if engine.state.to_move() != color {
                            Ok(String::new())
                        } else {
                            engine
                                .play(mv)
                                .map(|_| String::new())
                                .map_err(|e| format!("illegal move: {e}"))
                        }
                    }
                    Err(e) => Err(format!("invalid move: {e}")),
                },
                _ => Err("syntax: play <b|w> <move>".into()),
            },
            "genmove" => match args.first().and_then(|c| gtp_color(c)) {
                Some(color) => {
                    if engine.state.to_move() != color {
                        if engine.state.legal() == 0 && !engine.state.is_over() {
                            let _ = engine.play(Move::PASS);
                        } else {
                            // The asked colour is not to move: it passes.
                            return Ok("pass".into());
                        }
                    }
                    match engine.choose() {
                        Some(c) => {
                            let _ = engine.play(c.mv);
                            Ok(c.mv.to_string())
                        }
                        None => Ok("pass".into()),
                    }
                }
                None => Err("syntax: genmove <b|w>".into()),
            },
            "undo" => {
                if engine.undo() {
                    Ok(String::new())
                } else {
                    Err("cannot undo".into())
                }
            }
            "showboard" => Ok(format!("\n{}", Othello.render(&engine.state).trim_end())),
            "final_score" => {
                let s = engine.state;
                let d = s.black().count_ones() as i32 - s.white().count_ones() as i32;
                Ok(match d.signum() {
                    1 => format!("B+{d}"),
                    -1 => format!("W+{}", -d),
                    _ => "0".into(),
                })
            }
            "set_position" => match args.join(" ").parse::<OthelloState>() {
                Ok(s) => {
                    engine.set_position(s);
                    Ok(String::new())
                }
                Err(e) => Err(format!("invalid position: {e}")),
            },
            other => Err(format!("unknown command {other}")),
        }
    }
}

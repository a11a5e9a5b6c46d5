//! A GTP version 2 engine that reads commands from any `BufRead` and writes responses to any
//! `Write`, so tests drive it in-process and `yomi go gtp` runs it on stdin/stdout.
//!
//! Commands: `protocol_version`, `name`, `version`, `known_command`, `list_commands`,
//! `quit`, `boardsize`, `clear_board`, `komi`, `play`, `genmove`, `undo`, `showboard`,
//! `final_score`, `final_status_list`, `time_settings`, `time_left`, `loadsgf`, plus
//! `yomi-analyze` (the search's root statistics for the side to move). Errors are answered
//! `? message`; ids are echoed. Input never stops the engine except `quit` and end of input.
//!
//! GUI analysis: `lz-analyze` and `kata-analyze` (Sabaki, Lizzie) stream reports of a
//! growing search of the configured agent (plain UCT for agents that keep no statistics)
//! until the next command arrives, which is then answered as usual; `gogui-analyze_commands`
//! lists `yomi-gfx` (win rates on the board and the best line, for GoGui) and
//! `yomi-analyze`. Formats: [`crate::gtp_analyze`]. [`GtpEngine::run`] reads its input on a
//! thread of its own so that a streaming analysis notices the next command at once.
//!
//! Input limits: a line is read as bytes (non-UTF-8 replaced) of at most [`MAX_LINE`];
//! clock values (`time_settings`, `time_left`) must be finite and at most
//! [`yomi_core::limits::MAX_SECONDS`]; `loadsgf` reads only a regular file of at most
//! [`MAX_SGF_BYTES`]; `yomi-analyze` runs at most [`MAX_ANALYZE_ITERATIONS`] iterations
//! and [`MAX_ANALYZE_TIME`]. Each breach is answered with an error and the engine goes on.
//!
//! `genmove` asks the configured agent (any spec of [`crate::agents::registry`], by default
//! plain UCT). When the agent passes and the position as it stands does not already win
//! for the mover by area count (Tromp-Taylor, no dead-stone removal), the engine first
//! cleans up so that a Tromp-Taylor referee counts the board as the agent judged it: it
//! plays a liberty of an opponent chain judged dead ([`crate::score::dead_stones`]), else a
//! dame (a point next to living stones of both colours), never an own eye-like point or a
//! self-atari; with nothing to clean up it passes. (It used to play the most visited
//! non-pass move of a fresh search instead, which could be a point inside its own area
//! while the opponent passed: `experiments/go-endgames`.) `final_score` and
//! `final_status_list` mark dead stones by Monte Carlo ownership
//! ([`crate::score::dead_stones`]); `seki` lists are empty.

use std::io::{BufRead, Read, Write};
use std::time::Instant;

use yomi_core::gtp::{GtpCommand, GtpHandler, GtpInput};
use yomi_core::limits::Zero;
use yomi_core::registry::{AgentRegistry, Recipe};
use yomi_core::search::Budget;
use yomi_core::{Agent, Analysis, Game, Turn};

use crate::gtp_analyze::{gfx, info_line, AnalyzeRequest, Dialect};

use crate::board::MAX_AREA;
use crate::game::{GoGame, GoState, Rules};
use crate::score::{dead_stones, format_score, Count, Scoring};
use crate::sgf::SgfGame;
use crate::vertex::{Color, Vertex};

/// Longest command line the engine reads, in bytes (the shared loop's,
/// [`yomi_core::gtp::MAX_LINE`]).
pub const MAX_LINE: usize = yomi_core::gtp::MAX_LINE;

/// Largest file `loadsgf` reads, in bytes: a full 19x19 game with comments is a few tens
/// of kilobytes.
pub const MAX_SGF_BYTES: u64 = 4 << 20;

/// Most iterations `yomi-analyze` runs: 10,000,000 took minutes on 19x19 and grew a tree
/// of millions of nodes.
pub const MAX_ANALYZE_ITERATIONS: u64 = 1_000_000;

/// Longest `yomi-analyze` search; it answers with what it has when the time is up.
pub const MAX_ANALYZE_TIME: std::time::Duration = std::time::Duration::from_secs(30);

/// The engine's own commands, as `list_commands` prints them after GTP's administrative
/// ones ([`yomi_core::gtp::ADMIN_COMMANDS`]).
pub const COMMANDS: &[&str] = &[
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "undo",
    "showboard",
    "final_score",
    "final_status_list",
    "time_settings",
    "time_left",
    "loadsgf",
    "yomi-analyze",
    "lz-analyze",
    "kata-analyze",
    "gogui-analyze_commands",
    "yomi-gfx",
];

/// `gogui-analyze_commands`: GoGui's menu of analyze commands (`type/label/command`).
pub const GOGUI_ANALYZE_COMMANDS: &str =
    "gfx/yomi win rates/yomi-gfx\nstring/yomi analysis/yomi-analyze";

/// How often a streaming analysis looks for the next command: the longest it keeps a
/// controller waiting.
pub const ANALYZE_POLL: std::time::Duration = std::time::Duration::from_millis(50);

/// Playouts for `kata-analyze`'s ownership, per report.
pub const OWNERSHIP_PLAYOUTS: usize = 100;

/// Settings of a [`GtpEngine`].
#[derive(Clone, Debug)]
pub struct GtpConfig {
    /// The agent spec for `genmove` (see [`crate::agents::registry`]).
    pub agent: String,
    /// Seed of every random choice.
    pub seed: u64,
    /// How `final_score` counts.
    pub scoring: Scoring,
    /// Board size at start.
    pub size: usize,
    /// Komi at start.
    pub komi: f64,
    /// Playouts for dead-stone marking.
    pub ownership_playouts: usize,
}

impl Default for GtpConfig {
    fn default() -> Self {
        GtpConfig {
            agent: "mcts:iters=5000".into(),
            seed: yomi_core::rng::DEFAULT_SEED,
            scoring: Scoring::Area,
            size: 9,
            komi: 7.5,
            ownership_playouts: 400,
        }
    }
}

/// Time settings received from the controller (kept for reference; the agent's budget
/// comes from its spec).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TimeSettings {
    /// Main time, seconds.
    pub main: f64,
    /// Byo-yomi period, seconds.
    pub byoyomi: f64,
    /// Stones per byo-yomi period.
    pub stones: u32,
}

/// The engine: a game record with undo and an agent.
pub struct GtpEngine {
    cfg: GtpConfig,
    registry: AgentRegistry<GoGame>,
    /// The configured agent, resolved once; a new board gets a fresh agent from it.
    recipe: Recipe<GoGame>,
    game: GoGame,
    state: GoState,
    undo: Vec<GoState>,
    agent: Box<dyn Agent<GoGame>>,
    /// Plain UCT for analysis when the agent keeps no statistics; built on first use.
    analyst: Option<Box<dyn Agent<GoGame>>>,
    moves_made: u64,
    /// Time settings, if the controller sent them.
    pub time: Option<TimeSettings>,
    /// The last `time_left` per colour (seconds, stones), black first.
    pub time_left: [Option<(f64, u32)>; 2],
    quit: bool,
}

/// Why an engine could not be created.
#[derive(Debug, thiserror::Error)]
pub enum GtpSetupError {
    /// The agent spec does not build.
    #[error("agent: {0}")]
    Agent(#[from] yomi_core::spec::SpecError),
    /// Size or komi out of range.
    #[error("{0}")]
    Config(#[from] crate::ConfigError),
}

/// A GTP clock value (`time_settings`, `time_left`) parsed and checked against
/// [`yomi_core::limits::MAX_SECONDS`]: a huge time would otherwise reach the time
/// manager's `Duration` arithmetic and panic there.
fn gtp_seconds(what: &str, arg: &str) -> Result<f64, String> {
    // GTP answers malformed arguments with "syntax error"; the detail follows it.
    let v: f64 = arg
        .parse()
        .map_err(|_| format!("syntax error: {what} {arg:?} is not a number"))?;
    yomi_core::limits::seconds(what, v, Zero::Allowed).map_err(|e| format!("syntax error: {e}"))?;
    Ok(v)
}

/// The text of the SGF file at `path`, read only when it is a regular file of at most
/// [`MAX_SGF_BYTES`]: `loadsgf /dev/zero` or a named pipe would otherwise read for ever.
fn read_sgf_file(path: &str) -> Result<String, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let meta = file.metadata().map_err(|e| format!("{path}: {e}"))?;
    if !meta.is_file() {
        return Err(format!("{path} is not a regular file"));
    }
    let mut bytes = Vec::new();
    file.take(MAX_SGF_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("{path}: {e}"))?;
    if bytes.len() as u64 > MAX_SGF_BYTES {
        return Err(format!("{path} is larger than {MAX_SGF_BYTES} bytes"));
    }
    String::from_utf8(bytes).map_err(|_| format!("{path} is not UTF-8 text"))
}

fn ok(s: impl Into<String>) -> Result<String, String> {
    Ok(s.into())
}

impl GtpEngine {
    /// An engine with `cfg`.
    ///
    /// # Errors
    /// [`GtpSetupError`] for an agent spec that does not build or a bad size or komi.
    pub fn new(cfg: GtpConfig) -> Result<GtpEngine, GtpSetupError> {
        let registry = crate::agents::registry();
        let game = GoGame::with_rules(
            cfg.size,
            Rules {
                komi: cfg.komi,
                ..Rules::default()
            },
        )?;
        let recipe = registry.recipe(&game, &cfg.agent)?;
        let agent = recipe.build(&game, cfg.seed);
        let state = game.initial_state();
        Ok(GtpEngine {
            cfg,
            registry,
            recipe,
            game,
            state,
            undo: Vec::new(),
            agent,
            analyst: None,
            moves_made: 0,
            time: None,
            time_left: [None, None],
            quit: false,
        })
    }

    /// The current position.
    pub fn state(&self) -> &GoState {
        &self.state
    }

    /// The current game (size and rules).
    pub fn game(&self) -> &GoGame {
        &self.game
    }

    /// True after `quit`.
    pub fn has_quit(&self) -> bool {
        self.quit
    }

    /// Answers commands from `input` until `quit` or the end of input, on the shared GTP
    /// loop ([`yomi_core::gtp::run`]): the input is read on a thread of its own (left
    /// blocked on `input` after `quit`), so that `lz-analyze` and `kata-analyze` stream
    /// reports until the next command arrives.
    ///
    /// # Errors
    /// Only I/O errors of `input` or `output`, and failing to start the reading thread.
    pub fn run<R: BufRead + Send + 'static, W: Write>(
        &mut self,
        input: R,
        output: W,
    ) -> std::io::Result<()> {
        yomi_core::gtp::run(self, input, output)
    }

    /// Answers one line: `None` for empty and comment lines, otherwise the full response
    /// (`=id result` or `?id message`, ended by an empty line). `lz-analyze` and
    /// `kata-analyze` answer with one report, after searching for their interval (one
    /// second without one).
    pub fn handle_line(&mut self, raw: &str) -> Option<String> {
        let cmd = GtpCommand::parse(raw)?;
        Some(yomi_core::gtp::answer(self, &cmd).0)
    }

    /// The request of a streaming analysis command that is valid in the current position;
    /// `None` for other commands and invalid requests (which `execute` answers).
    fn stream_request(&self, cmd: &GtpCommand) -> Option<AnalyzeRequest> {
        let dialect = analyze_dialect(&cmd.name)?;
        let req = AnalyzeRequest::parse(dialect, &cmd.arg_strs()).ok()?;
        self.analysed_state(req.color).ok()?;
        Some(req)
    }

    /// The position analysed for `color` (default: the side to move): the current one with
    /// `color` to move, reopened when two passes ended it.
    ///
    /// # Errors
    /// When the game is over (no move but pass).
    fn analysed_state(&self, color: Option<Color>) -> Result<GoState, String> {
        let mut state = self.state.clone();
        if let Some(c) = color {
            if state.to_move() != c {
                state.board.set_to_move(c);
            }
        }
        if self.game.turn(&state) == Turn::Terminal {
            state.reopen();
        }
        if self.game.turn(&state) == Turn::Terminal {
            return Err("the game is over".into());
        }
        Ok(state)
    }

    /// Searches `state` further within `budget` with the agent (continuing its tree), or
    /// with plain UCT when the agent keeps no statistics.
    fn analysis(&mut self, state: &GoState, budget: Budget) -> Analysis<Vertex> {
        let player = state.to_move().player();
        if let Some(a) = self.agent.analyse_within(&self.game, state, player, budget) {
            return a;
        }
        if self.analyst.is_none() {
            self.analyst = self.registry.build(&self.game, "mcts", self.cfg.seed).ok();
        }
        self.analyst
            .as_mut()
            .and_then(|a| a.analyse_within(&self.game, state, player, budget))
            .unwrap_or_else(|| Analysis {
                moves: Vec::new(),
                pv: Vec::new(),
                value: None,
                iterations: 0,
                elapsed: std::time::Duration::ZERO,
            })
    }

    /// One report line for `req` from `analysis` of `state`.
    fn report(&self, req: &AnalyzeRequest, state: &GoState, analysis: &Analysis<Vertex>) -> String {
        let size = self.game.size();
        let ownership = (req.dialect == Dialect::Kata && req.ownership).then(|| {
            let own = crate::score::ownership(
                &self.game,
                state,
                OWNERSHIP_PLAYOUTS,
                self.cfg.seed ^ analysis.iterations,
            );
            // Black's ownership, turned to the analysed side's, row by row from the top.
            let sign = if state.to_move() == Color::Black {
                1.0
            } else {
                -1.0
            };
            (0..size)
                .rev()
                .flat_map(|y| (0..size).map(move |x| (x, y)))
                .map(|(x, y)| sign * own[Vertex::at(x, y, size).index()])
                .collect::<Vec<f32>>()
        });
        info_line(analysis, req, size, ownership.as_deref())
    }

    /// `lz-analyze` / `kata-analyze` without a stream: one report after searching for the
    /// interval (one second without one).
    fn analyze_once(&mut self, dialect: Dialect, args: &[&str]) -> Result<String, String> {
        let req = AnalyzeRequest::parse(dialect, args)?;
        let state = self.analysed_state(req.color)?;
        let time = req
            .interval
            .unwrap_or(std::time::Duration::from_secs(1))
            .min(MAX_ANALYZE_TIME);
        let budget = Budget {
            iterations: Some(MAX_ANALYZE_ITERATIONS),
            time: Some(time),
        };
        let analysis = self.analysis(&state, budget);
        Ok(self.report(&req, &state, &analysis))
    }

    /// Streams reports for `req` (answered `=id`, then one `info` line per interval) until
    /// the next line of input or its end arrives. The response ends with an empty line; a
    /// stream stopped before its first interval, or without an interval, ends with one
    /// report. The search stops growing at [`MAX_ANALYZE_ITERATIONS`] iterations (the
    /// tree's memory) and then only waits for input.
    fn stream_analysis(
        &mut self,
        id: &str,
        req: &AnalyzeRequest,
        input: &mut GtpInput,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        out.write_all(format!("={id}\n").as_bytes())?;
        out.flush()?;
        if let Ok(state) = self.analysed_state(req.color) {
            let slice = req.interval.map_or(ANALYZE_POLL, |i| i.min(ANALYZE_POLL));
            let mut searched = 0u64;
            let mut latest: Option<Analysis<Vertex>> = None;
            let mut last_report = Instant::now();
            let mut reported = false;
            loop {
                if searched < MAX_ANALYZE_ITERATIONS {
                    let budget = Budget {
                        iterations: Some(MAX_ANALYZE_ITERATIONS - searched),
                        time: Some(slice),
                    };
                    let a = self.analysis(&state, budget);
                    // An analysis that runs no iteration (no search at all) ends the search.
                    searched = if a.iterations == 0 {
                        MAX_ANALYZE_ITERATIONS
                    } else {
                        searched + a.iterations
                    };
                    latest = Some(a);
                }
                if let (Some(interval), Some(a)) = (req.interval, &latest) {
                    if last_report.elapsed() >= interval {
                        let line = self.report(req, &state, a);
                        out.write_all(format!("{line}\n").as_bytes())?;
                        out.flush()?;
                        last_report = Instant::now();
                        reported = true;
                    }
                }
                let wait = if searched >= MAX_ANALYZE_ITERATIONS {
                    ANALYZE_POLL
                } else {
                    std::time::Duration::ZERO
                };
                if input.arrived(wait)? {
                    break;
                }
            }
            if !reported {
                if let Some(a) = &latest {
                    let line = self.report(req, &state, a);
                    out.write_all(format!("{line}\n").as_bytes())?;
                }
            }
        }
        out.write_all(b"\n")?;
        out.flush()
    }

    fn execute(&mut self, cmd: &str, args: &[&str]) -> Result<String, String> {
        match cmd {
            "boardsize" => {
                let n: usize = args
                    .first()
                    .ok_or("boardsize needs a size")?
                    .parse()
                    .map_err(|_| "boardsize needs an integer")?;
                let game = GoGame::with_rules(n, self.game.rules().clone())
                    .map_err(|_| "unacceptable size".to_string())?;
                self.reset(game);
                ok("")
            }
            "clear_board" => {
                self.reset(self.game.clone());
                ok("")
            }
            "komi" => {
                let k: f64 = args
                    .first()
                    .ok_or("komi needs a value")?
                    .parse()
                    .map_err(|_| "komi needs a number")?;
                let game = self.game.with_komi(k).map_err(|e| e.to_string())?;
                self.state.set_komi(k).map_err(|e| e.to_string())?;
                for s in &mut self.undo {
                    let _ = s.set_komi(k);
                }
                self.game = game;
                ok("")
            }
            "play" => {
                if args.len() < 2 {
                    return Err("play needs a colour and a vertex".into());
                }
                let c = Color::parse(args[0]).ok_or("invalid color")?;
                let v = Vertex::parse_gtp(args[1], self.game.size())
                    .map_err(|e| format!("invalid vertex: {e}"))?;
                self.play(c, v)?;
                ok("")
            }
            "genmove" => {
                let c = Color::parse(args.first().ok_or("genmove needs a colour")?)
                    .ok_or("invalid color")?;
                match self.genmove(c)? {
                    Some(v) => ok(v.to_gtp(self.game.size())),
                    None => ok("resign"),
                }
            }
            "undo" => {
                let prev = self.undo.pop().ok_or("cannot undo")?;
                self.state = prev;
                ok("")
            }
            "showboard" => ok(format!("\n{}", self.game.render(&self.state))),
            "final_score" => {
                let dead = self.dead();
                ok(format_score(
                    Count::new(&self.state, &dead).score(self.cfg.scoring),
                ))
            }
            "final_status_list" => {
                let which = args
                    .first()
                    .ok_or("final_status_list needs alive, dead or seki")?;
                let dead = self.dead();
                let size = self.game.size();
                let list: Vec<String> = match *which {
                    "dead" => dead.iter().map(|v| v.to_gtp(size)).collect(),
                    "alive" => {
                        let b = self.state.board();
                        let mut out = Vec::new();
                        for y in 0..size {
                            for x in 0..size {
                                let v = Vertex::at(x, y, size);
                                if b.stone(v.index()).is_some() && !dead.contains(&v) {
                                    out.push(v.to_gtp(size));
                                }
                            }
                        }
                        out
                    }
                    "seki" => Vec::new(),
                    _ => return Err("final_status_list needs alive, dead or seki".into()),
                };
                ok(list.join(" "))
            }
            "time_settings" => {
                if args.len() < 3 {
                    return Err("time_settings needs main time, byo-yomi time and stones".into());
                }
                let main = gtp_seconds("time_settings main time", args[0])?;
                let byoyomi = gtp_seconds("time_settings byo-yomi time", args[1])?;
                let stones: u32 = args[2].parse().map_err(|_| "syntax error")?;
                self.time = Some(TimeSettings {
                    main,
                    byoyomi,
                    stones,
                });
                ok("")
            }
            "time_left" => {
                if args.len() < 3 {
                    return Err("time_left needs a colour, a time and stones".into());
                }
                let c = Color::parse(args[0]).ok_or("invalid color")?;
                let t = gtp_seconds("time_left time", args[1])?;
                let s: u32 = args[2].parse().map_err(|_| "syntax error")?;
                self.time_left[(c as usize) - 1] = Some((t, s));
                ok("")
            }
            "loadsgf" => {
                let path = args.first().ok_or("loadsgf needs a file name")?;
                let upto: Option<usize> = match args.get(1) {
                    Some(n) => Some(n.parse().map_err(|_| "move number must be an integer")?),
                    None => None,
                };
                let text = read_sgf_file(path).map_err(|e| format!("cannot load file: {e}"))?;
                let mut rec =
                    SgfGame::parse(&text).map_err(|e| format!("cannot load file: {e}"))?;
                if let Some(n) = upto {
                    rec.moves.truncate(n.saturating_sub(1));
                }
                let (game, state) = rec.replay().map_err(|e| format!("cannot load file: {e}"))?;
                self.reset(game);
                self.state = state;
                ok(self.state.to_move().to_string())
            }
            "yomi-analyze" | "yomi-gfx" => {
                let iters: u64 = match args.first() {
                    Some(n) => n.parse().map_err(|_| "iterations must be an integer")?,
                    None => 2000,
                };
                if !(1..=MAX_ANALYZE_ITERATIONS).contains(&iters) {
                    return Err(format!(
                        "{cmd} {iters}: iterations must be 1 to {MAX_ANALYZE_ITERATIONS}"
                    ));
                }
                let state = self.analysed_state(None)?;
                let budget = Budget {
                    iterations: Some(iters),
                    time: Some(MAX_ANALYZE_TIME),
                };
                let a = self.analysis(&state, budget);
                let size = self.game.size();
                if cmd == "yomi-gfx" {
                    return ok(gfx(&a, size, state.to_move(), 10));
                }
                let mut kids: Vec<_> = a.moves.iter().collect();
                kids.sort_by_key(|c| std::cmp::Reverse(c.visits));
                let lines: Vec<String> = kids
                    .iter()
                    .take(10)
                    .map(|c| {
                        format!(
                            "{} visits {} winrate {:.3}",
                            c.mv.to_gtp(size),
                            c.visits,
                            c.value.unwrap_or(0.0)
                        )
                    })
                    .collect();
                ok(lines.join("\n"))
            }
            "gogui-analyze_commands" => ok(GOGUI_ANALYZE_COMMANDS),
            "lz-analyze" => self.analyze_once(Dialect::Leela, args),
            "kata-analyze" => self.analyze_once(Dialect::Kata, args),
            _ => Err("unknown command".into()),
        }
    }

    fn reset(&mut self, game: GoGame) {
        self.state = game.initial_state();
        self.game = game;
        self.undo.clear();
        self.analyst = None;
        self.agent = self.recipe.build(&self.game, self.cfg.seed);
    }

    /// Makes `c` the side to move (GTP lets either colour move at any time).
    fn make_to_move(&mut self, c: Color) {
        if self.state.to_move() != c {
            self.state.board.set_to_move(c);
        }
    }

    fn play(&mut self, c: Color, v: Vertex) -> Result<(), String> {
        let before = self.state.clone();
        self.make_to_move(c);
        // A game that two passes ended goes on when a stone is played (GTP controllers
        // decide when games end).
        if self.game.turn(&self.state) == Turn::Terminal && !v.is_pass() {
            self.state.reopen();
        }
        match self.game.play(&mut self.state, v) {
            Ok(()) => {
                self.undo.push(before);
                Ok(())
            }
            Err(_) => {
                self.state = before;
                Err("illegal move".into())
            }
        }
    }

    /// The engine's move for `c`, played on the board; `None` when the agent resigns (the
    /// board is left as it was).
    fn genmove(&mut self, c: Color) -> Result<Option<Vertex>, String> {
        let before = self.state.clone();
        self.make_to_move(c);
        if self.game.turn(&self.state) == Turn::Terminal {
            self.state.reopen();
        }
        if self.game.turn(&self.state) == Turn::Terminal {
            self.state = before;
            return Ok(Some(Vertex::PASS));
        }
        let player = c.player();
        if let Some((seconds, stones)) = self.time_left[(c as usize) - 1] {
            // After main time each move is guaranteed the byo-yomi period over its stones.
            let per_move_after = match self.time {
                Some(t) if t.stones > 0 => t.byoyomi / t.stones as f64,
                _ => 0.0,
            };
            self.agent.clock(seconds, stones, per_move_after);
        }
        let chosen = self
            .agent
            .select_move(&self.game, &self.state, player)
            .unwrap_or(Vertex::PASS);
        if self.agent.resigns() {
            self.state = before;
            return Ok(None);
        }
        let mv = if chosen.is_pass() && !self.pass_is_safe(c) {
            self.cleanup_move(c).unwrap_or(Vertex::PASS)
        } else {
            chosen
        };
        self.moves_made += 1;
        if self.game.play(&mut self.state, mv).is_err() {
            // The agent's move was refused (cannot happen with registry agents); pass.
            let _ = self.game.play(&mut self.state, Vertex::PASS);
            self.undo.push(before);
            return Ok(Some(Vertex::PASS));
        }
        self.undo.push(before);
        Ok(Some(mv))
    }

    /// Passing is safe when the board as it stands wins for `c` by area count.
    fn pass_is_safe(&self, c: Color) -> bool {
        let s = self.state.area_score();
        match c {
            Color::Black => s > 0.0,
            Color::White => s < 0.0,
        }
    }

    /// The move that cleans up before `c` passes (see the module docs): a liberty of an
    /// opponent chain judged dead (of the chain with the fewest liberties), else a dame;
    /// never a point whose neighbours are all `c`'s stones, a self-atari or an illegal
    /// move. `None` when there is nothing to clean up.
    fn cleanup_move(&self, c: Color) -> Option<Vertex> {
        let dead = self.dead();
        let b = self.state.board();
        let mut is_dead = vec![false; MAX_AREA];
        for v in &dead {
            is_dead[v.index()] = true;
        }
        let opponent = c.opponent();
        let stride = b.stride();
        // (rank, point): rank = liberties of the dead chain touched, or MAX_AREA for a dame.
        let mut best: Option<(usize, usize)> = None;
        for &p in b.empty_points() {
            let p = p as usize;
            if b.is_eyelike(p, c) || b.self_atari_size(p, c) > 0 {
                continue;
            }
            let (mut dead_libs, mut own, mut theirs) = (None::<usize>, false, false);
            for q in [p - 1, p + 1, p - stride, p + stride] {
                match b.stone(q) {
                    Some(x) if x == opponent && is_dead[q] => {
                        let l = b.liberties(q);
                        dead_libs = Some(dead_libs.map_or(l, |d| d.min(l)));
                    }
                    Some(x) if x == opponent => theirs = true,
                    Some(_) if !is_dead[q] => own = true,
                    _ => {}
                }
            }
            let rank = match dead_libs {
                Some(l) => l,
                None if own && theirs => MAX_AREA,
                None => continue,
            };
            if best.is_none_or(|(r, _)| rank < r)
                && self.game.is_legal(&self.state, Vertex::from_index(p))
            {
                best = Some((rank, p));
            }
        }
        best.map(|(_, p)| Vertex::from_index(p))
    }

    fn dead(&self) -> Vec<Vertex> {
        dead_stones(
            &self.game,
            &self.state,
            self.cfg.ownership_playouts,
            self.cfg.seed,
        )
    }
}

/// The dialect of an analysis command, `None` for other commands.
fn analyze_dialect(name: &str) -> Option<Dialect> {
    match name {
        "lz-analyze" => Some(Dialect::Leela),
        "kata-analyze" => Some(Dialect::Kata),
        _ => None,
    }
}

impl GtpHandler for GtpEngine {
    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").into()
    }

    fn commands(&self) -> Vec<&'static str> {
        COMMANDS.to_vec()
    }

    fn execute(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
        GtpEngine::execute(self, name, args)
    }

    fn quit(&mut self) {
        self.quit = true;
    }

    fn stream(
        &mut self,
        cmd: &GtpCommand,
        input: &mut GtpInput,
        out: &mut dyn Write,
    ) -> std::io::Result<bool> {
        let Some(req) = self.stream_request(cmd) else {
            return Ok(false);
        };
        self.stream_analysis(&cmd.id, &req, input, out)?;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An engine on 5×5 with komi 7.5 and `stones` played (colour, vertex).
    fn engine_with(stones: &[(&str, &str)]) -> GtpEngine {
        let mut e = GtpEngine::new(GtpConfig {
            size: 5,
            komi: 7.5,
            ..GtpConfig::default()
        })
        .unwrap();
        for &(c, v) in stones {
            e.execute("play", &[c, v]).unwrap();
        }
        e
    }

    /// Black walls off rows 1-2 (15 points), White rows 4-5 (10 + komi): Black is behind
    /// by the count, so a pass would be cleaned up first.
    const WALLS: [(&str, &str); 10] = [
        ("B", "A3"),
        ("B", "B3"),
        ("B", "C3"),
        ("B", "D3"),
        ("B", "E3"),
        ("W", "A4"),
        ("W", "B4"),
        ("W", "C4"),
        ("W", "D4"),
        ("W", "E4"),
    ];

    #[test]
    fn cleanup_captures_dead_stones_and_never_harms_own_groups() {
        // A dead White stone at B1 in Black's area: the cleanup move is one of its
        // liberties that is not a self-atari (A1 would be one).
        let mut stones = WALLS.to_vec();
        stones.push(("W", "B1"));
        let e = engine_with(&stones);
        assert!(!e.pass_is_safe(Color::Black));
        let mv = e
            .cleanup_move(Color::Black)
            .expect("a dead stone to capture");
        let at = mv.to_gtp(5);
        assert!(at == "C1" || at == "B2", "{at}");
        // Settled walls with nothing dead and no dame: Black passes rather than play in its
        // own area (the old fallback played the most visited non-pass move there).
        let e = engine_with(&WALLS);
        assert!(!e.pass_is_safe(Color::Black));
        assert_eq!(e.cleanup_move(Color::Black), None);
        // A gap in the walls is a dame between living stones: it is filled.
        let mut gap = WALLS.to_vec();
        gap.retain(|&(_, v)| v != "C4");
        gap.push(("W", "C5"));
        gap.push(("W", "D5"));
        gap.push(("W", "B5"));
        let e = engine_with(&gap);
        assert_eq!(
            e.cleanup_move(Color::Black).map(|v| v.to_gtp(5)),
            Some("C4".to_string())
        );
    }
}

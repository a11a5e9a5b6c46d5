//! The platform's network protocol, client side: a yomi AI joins a TUBSTAP match served by
//! the platform (`yomi tubstap client --host H --port 7777 --agent A`).
//!
//! # Protocol (platform v1.08: the server `VSServer`, the client `NetworkPlayer`)
//! A line protocol over TCP, port 7777 by default, UTF-8. The server sends one command per
//! line (`command[ argument]\r\n`); the client answers every command with
//! `= [answer]\r\n\r\n` (an empty answer for the commands that only inform). In order:
//!
//! | server sends | meaning | client answers |
//! |---|---|---|
//! | `name` | who are you? | `= <name>` |
//! | `opponent <name>` | the opponent's name | `= ` |
//! | `MAP <map>` | the map: the `.tbsmap` file's lines joined without separators | `= ` |
//! | `Color <0\|1>` | your team: 0 red (moves first), 1 blue | `= ` |
//! | `Genmove` | your next unit action | `= <action>` |
//! | `play <action>` | the opponent's unit action | `= ` |
//! | `status` | the state of the game | `= <own HP total> <opponent HP total>` |
//! | `gameover` | the game has ended | `= ` |
//!
//! The server asks `Genmove` once per unit able to act at the start of the side's turn
//! (a unit destroyed by a counter-attack has used its action), stopping early after a turn
//! end, and forwards each answer to the other client as `play <action>`. An action is the platform's record `Action.toSGFString()`: eleven
//! comma-separated integers
//! `unit,toX,toY,fromX,fromY,target,attackX,attackY,type,damage,counter` with type 0
//! resign, 1 move only (target -1), 2 move and attack, 3 end the turn (the other fields
//! -1 / 0); coordinates include the map's border ring, as in the map file, and unit ids
//! are the map's order of appearance: the same as this crate's.
//!
//! The server's `status` is not used in its game loop; its check (each client's first
//! word equals the other's second) fits the answer given here.
//!
//! # This client
//! [`run_session`] plays over any reader and writer (tests use in-memory streams);
//! [`connect`] opens the TCP connection with timeouts. Every line is checked: an unknown
//! command, a malformed argument or action, an illegal opponent action, a line longer
//! than [`ClientConfig::max_line`] or silence longer than [`ClientConfig::timeout`] ends
//! the session with a [`ProtocolError`] naming the line. When the server closes the
//! connection the session ends normally with a [`SessionReport`].

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use thiserror::Error;
use yomi_core::agent::{Agent, Played};
use yomi_core::rng::derive_seed;
use yomi_core::{Game, Player};

use crate::game::{team_name, Tubstap};
use crate::map::MapError;
use crate::state::{TbsMove, TbsState, UnitAction};

/// The platform's port.
pub const DEFAULT_PORT: u16 = 7777;

/// Action type: resign.
pub const TYPE_RESIGN: i32 = 0;
/// Action type: move only.
pub const TYPE_MOVE: i32 = 1;
/// Action type: move, then attack.
pub const TYPE_ATTACK: i32 = 2;
/// Action type: end the turn.
pub const TYPE_TURN_END: i32 = 3;

/// A command of the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerCommand {
    /// `name`: the client's name is asked.
    Name,
    /// `opponent <name>`.
    Opponent(String),
    /// `MAP <map text>`.
    Map(String),
    /// `Color <0|1>`: the client's team.
    Color(u8),
    /// `Genmove`: the client's next unit action is asked.
    Genmove,
    /// `play <action>`: the opponent's unit action (still as text).
    Play(String),
    /// `status`.
    Status,
    /// `gameover`.
    GameOver,
}

/// The commands, for error messages.
const COMMANDS: &str = "name, opponent, MAP, Color, Genmove, play, status, gameover";

/// What is wrong with one line from the server.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LineError {
    /// The first word is not a command of the protocol.
    #[error("unknown command {command:?}; the server's commands are {COMMANDS}")]
    UnknownCommand {
        /// The word found.
        command: String,
    },
    /// A command's argument is missing, superfluous or malformed.
    #[error("{command}: bad argument {value:?}: {reason}")]
    BadArgument {
        /// The command.
        command: &'static str,
        /// The argument found.
        value: String,
        /// What is expected.
        reason: String,
    },
    /// An action record that is not eleven integers, or whose fields contradict each other.
    #[error("malformed action {text:?}: {reason}")]
    BadAction {
        /// The action as received.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// A well-formed action that the rules do not allow in the current position.
    #[error("illegal action {text:?}: {reason}")]
    IllegalAction {
        /// The action as received.
        text: String,
        /// Why it is illegal.
        reason: String,
    },
    /// A command that does not fit the state of the session.
    #[error("{command} out of order: {reason}")]
    OutOfOrder {
        /// The command.
        command: &'static str,
        /// Why it cannot be answered now.
        reason: String,
    },
    /// The map sent is not a playable map.
    #[error("the map is not playable: {0}")]
    Map(MapError),
}

/// Why a session ended with an error.
#[derive(Debug, Error)]
pub enum ProtocolError {
    /// The server could not be reached.
    #[error("cannot connect to {addr}: {source}")]
    Connect {
        /// `host:port` as given.
        addr: String,
        /// The system's reason.
        source: io::Error,
    },
    /// Reading or writing failed.
    #[error("network error: {0}")]
    Io(#[from] io::Error),
    /// No complete line arrived in time.
    #[error("no command from the server for {} s (timeout) after line {line}", .waited.as_secs_f64())]
    Timeout {
        /// The limit.
        waited: Duration,
        /// The last line read.
        line: usize,
    },
    /// A line exceeded the length limit.
    #[error("line {line} from the server is longer than {limit} bytes")]
    LineTooLong {
        /// 1-based line number.
        line: usize,
        /// The limit.
        limit: usize,
    },
    /// A line that is not UTF-8.
    #[error("line {line} from the server is not UTF-8")]
    NotUtf8 {
        /// 1-based line number.
        line: usize,
    },
    /// A line that cannot be answered.
    #[error("line {line} from the server ({text:?}): {error}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// The line (shortened when long).
        text: String,
        /// What is wrong.
        error: LineError,
    },
    /// The agent could not be built or gave no move.
    #[error("agent {spec:?}: {reason}")]
    Agent {
        /// The agent's spec.
        spec: String,
        /// What went wrong.
        reason: String,
    },
}

fn bad_arg(command: &'static str, value: &str, reason: &str) -> LineError {
    LineError::BadArgument {
        command,
        value: value.to_string(),
        reason: reason.to_string(),
    }
}

/// Reads one command line (without its line end).
///
/// Command words are matched without regard to case; commands without an argument refuse
/// one.
///
/// # Errors
/// [`LineError::UnknownCommand`] or [`LineError::BadArgument`].
pub fn parse_command(line: &str) -> Result<ServerCommand, LineError> {
    let line = line.trim();
    let (word, arg) = match line.split_once(|c: char| c.is_whitespace()) {
        Some((w, a)) => (w, a.trim()),
        None => (line, ""),
    };
    let none = |command: &'static str, cmd: ServerCommand| {
        if arg.is_empty() {
            Ok(cmd)
        } else {
            Err(bad_arg(command, arg, "this command takes no argument"))
        }
    };
    match word.to_ascii_lowercase().as_str() {
        "name" => none("name", ServerCommand::Name),
        "genmove" => none("Genmove", ServerCommand::Genmove),
        "status" => none("status", ServerCommand::Status),
        "gameover" => none("gameover", ServerCommand::GameOver),
        "opponent" => Ok(ServerCommand::Opponent(arg.to_string())),
        "map" if arg.is_empty() => Err(bad_arg("MAP", arg, "the map text is missing")),
        "map" => Ok(ServerCommand::Map(arg.to_string())),
        "color" => match arg {
            "0" => Ok(ServerCommand::Color(0)),
            "1" => Ok(ServerCommand::Color(1)),
            _ => Err(bad_arg("Color", arg, "expected 0 (red) or 1 (blue)")),
        },
        "play" if arg.is_empty() => Err(bad_arg("play", arg, "the action is missing")),
        "play" => Ok(ServerCommand::Play(arg.to_string())),
        _ => Err(LineError::UnknownCommand {
            command: word.chars().take(40).collect(),
        }),
    }
}

/// One action as the platform records it (`Action.toSGFString`), field by field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WireAction {
    /// The acting unit's id (-1 for a turn end or resignation).
    pub unit: i32,
    /// Destination column.
    pub to_x: i32,
    /// Destination row.
    pub to_y: i32,
    /// The unit's column before the action.
    pub from_x: i32,
    /// The unit's row before the action.
    pub from_y: i32,
    /// The attacked unit's id, -1 for none.
    pub target: i32,
    /// The attacked unit's column (0 for none).
    pub attack_x: i32,
    /// The attacked unit's row (0 for none).
    pub attack_y: i32,
    /// [`TYPE_RESIGN`], [`TYPE_MOVE`], [`TYPE_ATTACK`] or [`TYPE_TURN_END`].
    pub kind: i32,
    /// Damage dealt (informative; the platform recomputes it).
    pub damage: i32,
    /// Counter-damage taken (informative).
    pub counter: i32,
}

/// An opponent's action, read and checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NetMove {
    /// A move of the game (a unit action or a turn end).
    Move(TbsMove),
    /// The side resigns.
    Resign,
}

impl WireAction {
    /// The platform's turn end.
    pub const TURN_END: WireAction = WireAction {
        unit: -1,
        to_x: -1,
        to_y: -1,
        from_x: 0,
        from_y: 0,
        target: -1,
        attack_x: 0,
        attack_y: 0,
        kind: TYPE_TURN_END,
        damage: 0,
        counter: 0,
    };

    /// Reads the eleven comma-separated integers.
    ///
    /// # Errors
    /// [`LineError::BadAction`] saying which field is wrong.
    pub fn parse(text: &str) -> Result<WireAction, LineError> {
        const NAMES: [&str; 11] = [
            "unit", "toX", "toY", "fromX", "fromY", "target", "attackX", "attackY", "type",
            "damage", "counter",
        ];
        let bad = |reason: String| LineError::BadAction {
            text: text.chars().take(120).collect(),
            reason,
        };
        let fields: Vec<&str> = text.trim().split(',').map(str::trim).collect();
        if fields.len() != 11 {
            return Err(bad(format!(
                "{} fields; an action is 11 integers unit,toX,toY,fromX,fromY,target,attackX,attackY,type,damage,counter",
                fields.len()
            )));
        }
        let mut v = [0i32; 11];
        for (i, f) in fields.iter().enumerate() {
            v[i] = f.parse().map_err(|_| {
                bad(format!(
                    "field {} ({}) is {f:?}, not an integer",
                    i + 1,
                    NAMES[i]
                ))
            })?;
        }
        Ok(WireAction {
            unit: v[0],
            to_x: v[1],
            to_y: v[2],
            from_x: v[3],
            from_y: v[4],
            target: v[5],
            attack_x: v[6],
            attack_y: v[7],
            kind: v[8],
            damage: v[9],
            counter: v[10],
        })
    }

    /// The record of `mv` played in `state`, with the damage it deals and takes.
    pub fn from_move(game: &Tubstap, state: &TbsState, mv: &TbsMove) -> WireAction {
        match mv {
            TbsMove::EndTurn => WireAction::TURN_END,
            TbsMove::Act(a) => {
                let u = state.unit(a.unit as usize);
                let (damage, counter) = game.preview(state, a);
                let (target, attack_x, attack_y) = match a.target {
                    Some(t) => {
                        let e = state.unit(t as usize);
                        (t as i32, e.x as i32, e.y as i32)
                    }
                    None => (-1, 0, 0),
                };
                WireAction {
                    unit: a.unit as i32,
                    to_x: a.x as i32,
                    to_y: a.y as i32,
                    from_x: u.x as i32,
                    from_y: u.y as i32,
                    target,
                    attack_x,
                    attack_y,
                    kind: if a.target.is_some() {
                        TYPE_ATTACK
                    } else {
                        TYPE_MOVE
                    },
                    damage: damage as i32,
                    counter: counter as i32,
                }
            }
        }
    }

    /// The action as a move in `state`, checked against the position and the rules. The
    /// damage fields are not checked (the platform's own AIs leave them 0).
    ///
    /// # Errors
    /// [`LineError::BadAction`] when the fields contradict each other or the position
    /// (unknown or destroyed unit, wrong starting cell, target position), and
    /// [`LineError::IllegalAction`] with the rules' reason for an illegal move.
    pub fn to_move(&self, game: &Tubstap, state: &TbsState) -> Result<NetMove, LineError> {
        let text = self.to_string();
        let bad = |reason: String| LineError::BadAction {
            text: text.clone(),
            reason,
        };
        let mv = match self.kind {
            TYPE_RESIGN => return Ok(NetMove::Resign),
            TYPE_TURN_END => TbsMove::EndTurn,
            TYPE_MOVE | TYPE_ATTACK => {
                let n = game.units();
                let id = usize::try_from(self.unit)
                    .ok()
                    .filter(|&i| i < n)
                    .ok_or_else(|| {
                        bad(format!(
                            "unit {}: the map's units are 0..={}",
                            self.unit,
                            n - 1
                        ))
                    })?;
                let u = state.unit(id);
                if u.hp == 0 {
                    return Err(bad(format!("unit {id} has been destroyed")));
                }
                if (self.from_x, self.from_y) != (u.x as i32, u.y as i32) {
                    return Err(bad(format!(
                        "unit {id} stands at ({},{}), not at ({},{}) as the action says",
                        u.x, u.y, self.from_x, self.from_y
                    )));
                }
                let map = game.map();
                let inside = |x: i32, y: i32| {
                    (1..map.width as i32 - 1).contains(&x) && (1..map.height as i32 - 1).contains(&y)
                };
                if !inside(self.to_x, self.to_y) {
                    return Err(bad(format!(
                        "destination ({},{}) is outside the playable area 1..={} x 1..={}",
                        self.to_x,
                        self.to_y,
                        map.width - 2,
                        map.height - 2
                    )));
                }
                let target = if self.kind == TYPE_MOVE {
                    if self.target != -1 {
                        return Err(bad(format!(
                            "a move-only action (type 1) names target {}; its target must be -1",
                            self.target
                        )));
                    }
                    None
                } else {
                    let t = usize::try_from(self.target)
                        .ok()
                        .filter(|&t| t < n)
                        .ok_or_else(|| {
                            bad(format!(
                                "an attack (type 2) on unit {}: the map's units are 0..={}",
                                self.target,
                                n - 1
                            ))
                        })?;
                    let e = state.unit(t);
                    if e.hp > 0 && (self.attack_x, self.attack_y) != (e.x as i32, e.y as i32) {
                        return Err(bad(format!(
                            "target {t} stands at ({},{}), not at ({},{}) as the action says",
                            e.x, e.y, self.attack_x, self.attack_y
                        )));
                    }
                    Some(t as u8)
                };
                TbsMove::Act(UnitAction {
                    unit: id as u8,
                    x: self.to_x as u8,
                    y: self.to_y as u8,
                    target,
                })
            }
            other => {
                return Err(bad(format!(
                "action type {other}: expected 0 (resign), 1 (move), 2 (move and attack) or 3 (end turn)"
            )))
            }
        };
        match game.illegal_reason(state, &mv) {
            Some(reason) => Err(LineError::IllegalAction { text, reason }),
            None => Ok(NetMove::Move(mv)),
        }
    }
}

impl fmt::Display for WireAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{},{},{},{},{},{},{},{},{},{},{}",
            self.unit,
            self.to_x,
            self.to_y,
            self.from_x,
            self.from_y,
            self.target,
            self.attack_x,
            self.attack_y,
            self.kind,
            self.damage,
            self.counter
        )
    }
}

/// Settings of a session.
#[derive(Clone, Debug)]
pub struct ClientConfig {
    /// The name answered to `name` (one line; spaces are allowed).
    pub name: String,
    /// The agent's spec (see [`crate::registry`]), built anew for every map received.
    pub agent: String,
    /// Seed of the agent; game `i` of the session uses a seed derived from it and `i`.
    pub seed: u64,
    /// Longest wait for a line from the server (`None`: wait for ever).
    pub timeout: Option<Duration>,
    /// Longest accepted line, in bytes (a `MAP` line holds a whole map).
    pub max_line: usize,
}

impl Default for ClientConfig {
    fn default() -> Self {
        ClientConfig {
            name: "yomi".into(),
            agent: "dlmc".into(),
            seed: yomi_core::rng::DEFAULT_SEED,
            timeout: Some(Duration::from_secs(600)),
            max_line: 1 << 16,
        }
    }
}

/// How one game of a session went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameReport {
    /// The opponent's name, if the server gave it.
    pub opponent: Option<String>,
    /// This client's team, if the server gave it.
    pub color: Option<u8>,
    /// Unit actions and turn ends this client sent.
    pub sent: usize,
    /// Opponent actions received.
    pub received: usize,
    /// The team that resigned, if one did.
    pub resigned: Option<u8>,
    /// The position at the end, in the state notation.
    pub final_state: String,
    /// Over by the rules (annihilation or turn limit) or by resignation.
    pub over: bool,
    /// The winning team (`None`: a draw, or not over).
    pub winner: Option<u8>,
    /// The server sent `gameover`.
    pub gameover: bool,
}

impl fmt::Display for GameReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let me = self.color.map_or("an unknown colour", team_name);
        write!(
            f,
            "as {me} against {}: {} actions sent, {} received; ",
            self.opponent.as_deref().unwrap_or("an unnamed opponent"),
            self.sent,
            self.received
        )?;
        match (self.over, self.resigned, self.winner) {
            (_, Some(t), _) => write!(f, "{} resigned", team_name(t))?,
            (true, None, Some(w)) => write!(f, "{} wins", team_name(w))?,
            (true, None, None) => f.write_str("draw")?,
            (false, ..) => f.write_str("not finished")?,
        }
        write!(f, " (final position {})", self.final_state)
    }
}

/// Every game of a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SessionReport {
    /// The games, in order (a game starts with each `MAP`).
    pub games: Vec<GameReport>,
    /// Lines read.
    pub lines: usize,
}

/// A line reader with a length limit that turns read timeouts into [`ProtocolError::Timeout`].
struct Lines<R> {
    inner: BufReader<R>,
    line: usize,
    limit: usize,
    timeout: Option<Duration>,
    buf: Vec<u8>,
}

impl<R: Read> Lines<R> {
    fn next(&mut self) -> Result<Option<String>, ProtocolError> {
        self.buf.clear();
        loop {
            let available = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(ProtocolError::Timeout {
                        waited: self.timeout.unwrap_or_default(),
                        line: self.line,
                    })
                }
                Err(e) => return Err(e.into()),
            };
            if available.is_empty() {
                if self.buf.is_empty() {
                    return Ok(None);
                }
                break;
            }
            let (take, done) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (available.len(), false),
            };
            if self.buf.len() + take > self.limit + 2 {
                return Err(ProtocolError::LineTooLong {
                    line: self.line + 1,
                    limit: self.limit,
                });
            }
            self.buf.extend_from_slice(&available[..take]);
            self.inner.consume(take);
            if done {
                break;
            }
        }
        self.line += 1;
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        if self.buf.len() > self.limit {
            return Err(ProtocolError::LineTooLong {
                line: self.line,
                limit: self.limit,
            });
        }
        String::from_utf8(std::mem::take(&mut self.buf))
            .map(Some)
            .map_err(|_| ProtocolError::NotUtf8 { line: self.line })
    }
}

/// One game in progress.
struct Match {
    game: Tubstap,
    state: TbsState,
    agent: Box<dyn Agent<Tubstap>>,
    report: GameReport,
}

impl Match {
    fn apply(&mut self, mv: TbsMove) {
        let team = self.state.mover();
        let before = self.state.clone();
        self.game.apply(&mut self.state, mv);
        self.agent
            .observe(&self.game, &before, Played::Single(Player(team), mv));
        self.refresh();
    }

    fn refresh(&mut self) {
        self.report.final_state = self.game.format_state(&self.state);
        if self.report.resigned.is_none() {
            self.report.over = self.game.over(&self.state);
            self.report.winner = self.game.winner(&self.state);
        }
    }
}

/// Plays one session: answers the server's commands read from `reader` on `writer` until
/// the server closes the stream. `log` receives one line per event (commands received,
/// answers sent, games finished), for a verbose display.
///
/// # Errors
/// [`ProtocolError`]: input/output errors, timeouts, malformed or unanswerable lines (the
/// error names the line), an agent that cannot be built or gives no move.
pub fn run_session<R: Read, W: Write>(
    reader: R,
    mut writer: W,
    config: &ClientConfig,
    log: &mut dyn FnMut(&str),
) -> Result<SessionReport, ProtocolError> {
    let registry = crate::registry();
    // Refuse a bad spec before the server's first command; the agents of every map the
    // server sends are built from this recipe (no TUBSTAP agent's parameters depend on
    // the map).
    let recipe = registry
        .recipe(&crate::maps::standard(), &config.agent)
        .map_err(|e| ProtocolError::Agent {
            spec: config.agent.clone(),
            reason: e.to_string(),
        })?;
    let mut lines = Lines {
        inner: BufReader::new(reader),
        line: 0,
        limit: config.max_line,
        timeout: config.timeout,
        buf: Vec::new(),
    };
    let mut report = SessionReport::default();
    let mut current: Option<Match> = None;
    let mut opponent: Option<String> = None;
    let mut color: Option<u8> = None;
    while let Some(text) = lines.next()? {
        report.lines = lines.line;
        if text.trim().is_empty() {
            continue;
        }
        let line = lines.line;
        let fail = |error: LineError| ProtocolError::Line {
            line,
            text: shorten(&text),
            error,
        };
        let command = parse_command(&text).map_err(fail)?;
        log(&format!("<- {}", shorten(&text)));
        let answer = match command {
            ServerCommand::Name => config.name.replace(['\r', '\n'], " "),
            ServerCommand::Opponent(name) => {
                if let Some(m) = &mut current {
                    m.report.opponent = Some(name.clone());
                }
                opponent = Some(name);
                String::new()
            }
            ServerCommand::Map(text) => {
                let game = Tubstap::from_map_text("network", &text)
                    .map_err(|e| fail(LineError::Map(e)))?;
                if let Some(done) = current.take() {
                    report.games.push(done.report);
                }
                let seed = derive_seed(config.seed, report.games.len() as u64);
                let agent = recipe.build(&game, seed);
                let mut m = Match {
                    state: game.initial_state(),
                    game,
                    agent,
                    report: GameReport {
                        opponent: opponent.clone(),
                        ..GameReport::default()
                    },
                };
                // The colour of a previous game does not carry over.
                color = None;
                m.refresh();
                current = Some(m);
                String::new()
            }
            ServerCommand::Color(c) => {
                if let Some(m) = &mut current {
                    if m.report.sent + m.report.received > 0 {
                        return Err(fail(LineError::OutOfOrder {
                            command: "Color",
                            reason: "the game has already started".into(),
                        }));
                    }
                    m.report.color = Some(c);
                }
                color = Some(c);
                String::new()
            }
            ServerCommand::Genmove => {
                let (m, me) = ready(&mut current, color, "Genmove").map_err(fail)?;
                if m.report.resigned.is_some() || m.game.over(&m.state) {
                    return Err(fail(LineError::OutOfOrder {
                        command: "Genmove",
                        reason: "the game is over".into(),
                    }));
                }
                if m.state.mover() != me {
                    return Err(fail(LineError::OutOfOrder {
                        command: "Genmove",
                        reason: format!(
                            "{} is to move, not {} (this client)",
                            team_name(1 - me),
                            team_name(me)
                        ),
                    }));
                }
                let mv = m
                    .agent
                    .select_move(&m.game, &m.state, Player(me))
                    .map_err(|e| ProtocolError::Agent {
                        spec: config.agent.clone(),
                        reason: e.to_string(),
                    })?;
                if let Some(why) = m.game.illegal_reason(&m.state, &mv) {
                    return Err(ProtocolError::Agent {
                        spec: config.agent.clone(),
                        reason: format!("proposed an illegal move: {why}"),
                    });
                }
                let wire = WireAction::from_move(&m.game, &m.state, &mv);
                m.apply(mv);
                m.report.sent += 1;
                wire.to_string()
            }
            ServerCommand::Play(action) => {
                let (m, me) = ready(&mut current, color, "play").map_err(fail)?;
                let wire = WireAction::parse(&action).map_err(fail)?;
                let them = 1 - me;
                if m.report.resigned.is_some() || m.game.over(&m.state) {
                    return Err(fail(LineError::OutOfOrder {
                        command: "play",
                        reason: "the game is over".into(),
                    }));
                }
                if m.state.mover() != them {
                    return Err(fail(LineError::OutOfOrder {
                        command: "play",
                        reason: format!(
                            "it is {}'s turn (this client's), not the opponent's",
                            team_name(me)
                        ),
                    }));
                }
                {
                    match wire.to_move(&m.game, &m.state).map_err(fail)? {
                        NetMove::Resign => {
                            m.report.resigned = Some(them);
                            m.report.over = true;
                            m.report.winner = Some(me);
                        }
                        NetMove::Move(mv) => {
                            if let TbsMove::Act(a) = mv {
                                if m.game.team(a.unit as usize) != them {
                                    return Err(fail(LineError::IllegalAction {
                                        text: wire.to_string(),
                                        reason: format!(
                                            "unit {} is this client's, not the opponent's",
                                            a.unit
                                        ),
                                    }));
                                }
                            }
                            m.apply(mv);
                        }
                    }
                    m.report.received += 1;
                    String::new()
                }
            }
            ServerCommand::Status => match &current {
                Some(m) => {
                    let me = color.unwrap_or(0);
                    format!(
                        "{} {}",
                        m.game.total_hp(&m.state, me),
                        m.game.total_hp(&m.state, 1 - me)
                    )
                }
                None => "0 0".into(),
            },
            ServerCommand::GameOver => {
                if let Some(mut done) = current.take() {
                    done.report.gameover = true;
                    log(&format!("game over: {}", done.report));
                    report.games.push(done.report);
                }
                String::new()
            }
        };
        let reply = if answer.is_empty() {
            "= \r\n\r\n".to_string()
        } else {
            format!("= {answer}\r\n\r\n")
        };
        writer.write_all(reply.as_bytes())?;
        writer.flush()?;
        log(&format!("-> = {answer}"));
    }
    if let Some(m) = current.take() {
        report.games.push(m.report);
    }
    Ok(report)
}

/// The game and this client's colour, or why a move command cannot be answered yet.
fn ready<'a>(
    current: &'a mut Option<Match>,
    color: Option<u8>,
    command: &'static str,
) -> Result<(&'a mut Match, u8), LineError> {
    let Some(m) = current.as_mut() else {
        return Err(LineError::OutOfOrder {
            command,
            reason: "no MAP has been sent".into(),
        });
    };
    let Some(me) = color else {
        return Err(LineError::OutOfOrder {
            command,
            reason: "no Color has been sent since the MAP".into(),
        });
    };
    m.report.color = Some(me);
    Ok((m, me))
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= 160 {
        text.to_string()
    } else {
        let head: String = text.chars().take(157).collect();
        format!("{head}...")
    }
}

/// Connects to `host:port` and plays a session on the connection (see [`run_session`]).
/// The connection attempt and every read and write wait at most `config.timeout`.
///
/// # Errors
/// [`ProtocolError::Connect`] when no address of `host` accepts the connection, and the
/// errors of [`run_session`].
pub fn connect(
    host: &str,
    port: u16,
    config: &ClientConfig,
    log: &mut dyn FnMut(&str),
) -> Result<SessionReport, ProtocolError> {
    let addr = format!("{host}:{port}");
    let connect_error = |source| ProtocolError::Connect {
        addr: addr.clone(),
        source,
    };
    let addrs: Vec<_> = (host, port)
        .to_socket_addrs()
        .map_err(connect_error)?
        .collect();
    let mut last = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
    let mut stream = None;
    for a in &addrs {
        let attempt = match config.timeout {
            Some(t) => TcpStream::connect_timeout(a, t),
            None => TcpStream::connect(a),
        };
        match attempt {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = e,
        }
    }
    let stream = stream.ok_or_else(|| connect_error(last))?;
    stream.set_read_timeout(config.timeout)?;
    stream.set_write_timeout(config.timeout)?;
    stream.set_nodelay(true)?;
    log(&format!("connected to {addr}"));
    let reader = stream.try_clone()?;
    run_session(reader, stream, config, log)
}

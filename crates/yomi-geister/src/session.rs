//! Tournament sessions over TCP (std::net and threads): [`run_client`] plays any yomi agent
//! on a Geister server, and [`Server`] referees two clients with the tournament's messages,
//! clocks and judgement (spec §6).
//!
//! Judgement: a player whose line is garbled, whose set-up or move is illegal (answered
//! `NG `), who runs out of time or who disconnects loses; the other player gets `WON:`.
//! Clocks: each player has `main` time for the whole game; a move may also use `per_move`
//! beyond what is left of it (byo-yomi: once the main time is spent, every move gets
//! `per_move`). The tournament's clock is 600 s + 10 s.
//!
//! Seats: a connection takes a seat only once it has spoken the protocol, that is
//! answered `SET?` with a well-formed `SET:` line. Every connection on a seat's port is
//! asked at once (several at a time, each in its own thread), and the first valid answer
//! takes the seat; a connection that closes, stays silent or answers something else is
//! dropped without taking or losing anything, so port scanners and probes cannot make a
//! real client forfeit. A seat not taken within [`Server::seat_timeout`] ends
//! [`Server::play_one`] with an error that names the seat. Lines are at most 256 bytes,
//! reads are bounded by the clocks (or the seat deadline) and writes by a timeout.
//!
//! Pacing: two messages to the same client are at least [`Server::message_gap`] apart
//! (100 ms by default). The reference server (geister_server.java) waits 100 ms after
//! each event it handles, and public clients rely on it: Geister-cpp-lib's client keeps
//! only the first line of each read, so an `OK` and a `MOV?` that arrive together lose
//! the `MOV?` and the client waits for ever.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use yomi_core::{Agent, Game, Played, Player};

use crate::protocol::{BoardString, ClientMsg, Place, ProtocolError, ServerMsg, Table};
use crate::rules::{Dir, Geister, GeisterMove, GeisterState, Outcome, Setup};

/// Longest line accepted (a board message is 52 bytes).
const MAX_LINE: usize = 256;

/// A line-based connection.
pub struct Conn {
    stream: TcpStream,
    buf: Vec<u8>,
    /// The least time between two lines sent (see the module documentation, *Pacing*).
    gap: Duration,
    last_sent: Option<Instant>,
}

impl Conn {
    /// Wraps a connected stream.
    pub fn new(stream: TcpStream) -> Self {
        let _ = stream.set_nodelay(true);
        Conn {
            stream,
            buf: Vec::new(),
            gap: Duration::ZERO,
            last_sent: None,
        }
    }

    /// Makes [`send`](Conn::send) keep at least `gap` between two lines.
    pub fn set_gap(&mut self, gap: Duration) {
        self.gap = gap;
    }

    /// Sends `line` and `\r\n`, after waiting until the [gap](Conn::set_gap) since the
    /// last line has passed.
    ///
    /// # Errors
    /// The socket's.
    pub fn send(&mut self, line: &str) -> Result<(), ProtocolError> {
        if let Some(t) = self.last_sent {
            let wait = self.gap.saturating_sub(t.elapsed());
            if !wait.is_zero() {
                std::thread::sleep(wait);
            }
        }
        let mut bytes = Vec::with_capacity(line.len() + 2);
        bytes.extend_from_slice(line.as_bytes());
        bytes.extend_from_slice(b"\r\n");
        self.stream.write_all(&bytes)?;
        self.last_sent = Some(Instant::now());
        Ok(())
    }

    /// Reads one line (without `\r\n`; a bare `\n` ends a line too), waiting until
    /// `deadline` at most.
    ///
    /// # Errors
    /// [`ProtocolError::Timeout`], [`ProtocolError::Closed`], [`ProtocolError::Garbled`]
    /// for over-long or non-UTF-8 lines, or the socket's error.
    pub fn read_line(&mut self, deadline: Option<Instant>) -> Result<String, ProtocolError> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=i).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return String::from_utf8(line).map_err(|e| ProtocolError::Garbled {
                    line: String::from_utf8_lossy(e.as_bytes()).into_owned(),
                    expected: "ASCII text",
                });
            }
            if self.buf.len() > MAX_LINE {
                return Err(ProtocolError::Garbled {
                    line: String::from_utf8_lossy(&self.buf[..MAX_LINE]).into_owned(),
                    expected: "a line of at most 256 bytes",
                });
            }
            let timeout = match deadline {
                Some(d) => {
                    let left = d.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return Err(ProtocolError::Timeout);
                    }
                    Some(left)
                }
                None => None,
            };
            self.stream.set_read_timeout(timeout)?;
            let mut chunk = [0u8; 256];
            match self.stream.read(&mut chunk) {
                Ok(0) => return Err(ProtocolError::Closed),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(ProtocolError::Timeout)
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(ProtocolError::Io(e)),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Client

/// How a client's game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClientResult {
    /// `WON:`
    Won(BoardString),
    /// `LST:`
    Lost(BoardString),
    /// `DRW:`
    Draw(BoardString),
}

/// The opponent's start places in the receiver's view.
fn opponent_start(game: &Geister, i: usize) -> Place {
    let (x, y) = game.coords(game.start_square(Player(0), i));
    Place::At(5 - x as u8, 5 - y as u8)
}

/// A full state consistent with a board string seen by `seat` after `plies` board moves:
/// own colours as sent, the opponent's hidden ghosts coloured in letter order (blue first)
/// so that the colour counts match the captures. Agents only use what `seat` observes.
///
/// # Errors
/// [`ProtocolError::Board`] when the counts cannot be right.
pub fn state_from_board(
    game: &Geister,
    board: &BoardString,
    seat: Player,
    plies: u16,
) -> Result<GeisterState, ProtocolError> {
    let bad = |reason: &str| ProtocolError::Board {
        text: board.to_string(),
        reason: reason.to_string(),
    };
    let abs = |x: u8, y: u8| {
        let s = y * 6 + x;
        if seat.0 == 0 {
            s
        } else {
            35 - s
        }
    };
    let me = seat.index();
    let mut s = game.state_with_setups([Setup(0x0F), Setup(0x0F)]);
    s.blue = [0; 2];
    s.red = [0; 2];
    for e in &board.own {
        if let Place::At(x, y) = e.place {
            match e.is_red() {
                Some(true) => s.red[me] |= 1 << abs(x, y),
                _ => s.blue[me] |= 1 << abs(x, y),
            }
        }
    }
    let gone_blue = board
        .theirs
        .iter()
        .filter(|e| e.place != Place::Captured && !matches!(e.place, Place::At(..)))
        .count()
        + board
            .theirs
            .iter()
            .filter(|e| e.place == Place::Captured && e.is_red() == Some(false))
            .count();
    let gone_red = board
        .theirs
        .iter()
        .filter(|e| e.place == Place::Captured && e.is_red() == Some(true))
        .count();
    let on: Vec<(u8, Option<bool>)> = board
        .theirs
        .iter()
        .filter_map(|e| match e.place {
            Place::At(x, y) => Some((abs(x, y), e.is_red())),
            _ => None,
        })
        .collect();
    if gone_blue > 4 || gone_red > 4 || on.len() + gone_blue + gone_red != 8 {
        return Err(bad(
            "the opponent's ghosts do not add up to 4 blue and 4 red",
        ));
    }
    let known_blue = on.iter().filter(|g| g.1 == Some(false)).count();
    let known_red = on.iter().filter(|g| g.1 == Some(true)).count();
    if gone_blue + known_blue > 4 || gone_red + known_red > 4 {
        return Err(bad(
            "the opponent has more than 4 blue or more than 4 red ghosts",
        ));
    }
    let mut blues_left = 4 - gone_blue - known_blue;
    let q = 1 - me;
    for &(sq, red) in &on {
        let red = match red {
            Some(r) => r,
            None if blues_left > 0 => {
                blues_left -= 1;
                false
            }
            None => true,
        };
        if red {
            s.red[q] |= 1 << sq;
        } else {
            s.blue[q] |= 1 << sq;
        }
    }
    if (0..2).any(|p| s.blue[p] == 0 || s.red[p] == 0) {
        return Err(bad("a player without blue or red ghosts before the end"));
    }
    s.plies = plies.min(game.max_plies().saturating_sub(1));
    s.to_move = seat.0;
    Ok(s)
}

/// Plays one game as a client on `conn` with `agent`; `log` receives every line sent and
/// received (prefixed `<` / `>`). The seat is read from the first `MOV?` (the first player
/// sees the opponent's ghosts on their start squares).
///
/// # Errors
/// Socket trouble, a garbled server line, a refused move or an agent without a move.
pub fn run_client(
    conn: &mut Conn,
    game: &Geister,
    agent: &mut dyn Agent<Geister>,
    mut log: impl FnMut(&str),
) -> Result<ClientResult, ProtocolError> {
    let mut seat: Option<Player> = None;
    let mut my_moves = 0u16;
    // The state after our last move and the board we last saw, to tell the agent the
    // opponent's move.
    let mut after_mine: Option<(GeisterState, BoardString)> = None;
    loop {
        let line = conn.read_line(None)?;
        log(&format!("< {line}"));
        match line.parse::<ServerMsg>()? {
            ServerMsg::SetQuery => {
                let s0 = game.initial_state();
                let mv = agent
                    .select_move(game, &s0, Player(0))
                    .map_err(|e| ProtocolError::Agent(e.to_string()))?;
                let GeisterMove::Setup(setup) = mv else {
                    return Err(ProtocolError::Agent(
                        "the agent did not choose a set-up".into(),
                    ));
                };
                let msg = ClientMsg::Set(setup).to_string();
                log(&format!("> {msg}"));
                conn.send(&msg)?;
                let reply = conn.read_line(None)?;
                log(&format!("< {reply}"));
                match reply.parse::<ServerMsg>()? {
                    ServerMsg::Ok => {}
                    _ => return Err(ProtocolError::Refused(msg)),
                }
            }
            ServerMsg::MoveQuery(board) => {
                let me = *seat.get_or_insert_with(|| {
                    let fresh = (0..8).all(|i| board.theirs[i].place == opponent_start(game, i));
                    if fresh {
                        Player(0)
                    } else {
                        Player(1)
                    }
                });
                let plies = my_moves * 2 + me.0 as u16;
                let state = state_from_board(game, &board, me, plies)?;
                if let Some((before, seen)) = after_mine {
                    if let Some(mv) = opponent_move(game, &before, &seen, &board, me) {
                        agent.observe(game, &before, Played::Single(me.opponent(), mv));
                    }
                }
                let mv = agent
                    .select_move(game, &state, me)
                    .map_err(|e| ProtocolError::Agent(e.to_string()))?;
                let msg = move_message(game, &board, me, mv)
                    .ok_or_else(|| ProtocolError::Agent(format!("unplayable move {mv:?}")))?;
                log(&format!("> {msg}"));
                conn.send(&msg.to_string())?;
                let reply = conn.read_line(None)?;
                log(&format!("< {reply}"));
                let captured = match reply.parse::<ServerMsg>()? {
                    ServerMsg::Ok => None,
                    ServerMsg::OkRed => Some(true),
                    ServerMsg::OkBlue => Some(false),
                    _ => return Err(ProtocolError::Refused(msg.to_string())),
                };
                let mut before = state;
                if let (Some(red), Some((_, to))) = (captured, game.step_target(mv)) {
                    recolour(&mut before, me.opponent(), to, red);
                }
                agent.observe(game, &before, Played::Single(me, mv));
                let mut after = before;
                game.apply(&mut after, mv);
                my_moves += 1;
                // Our own move as the next board will show it.
                let mut seen = board;
                apply_to_board(&mut seen, &msg, game, me, mv);
                after_mine = Some((after, seen));
            }
            ServerMsg::Won(b) => return Ok(ClientResult::Won(b)),
            ServerMsg::Lost(b) => return Ok(ClientResult::Lost(b)),
            ServerMsg::Draw(b) => return Ok(ClientResult::Draw(b)),
            other => {
                return Err(ProtocolError::Garbled {
                    line: other.to_string(),
                    expected: "SET?, MOV? or the end of the game",
                })
            }
        }
    }
}

/// Makes the opponent's ghost on `sq` the given colour, swapping with another of its
/// ghosts so the counts stay.
fn recolour(s: &mut GeisterState, q: Player, sq: u8, red: bool) {
    let q = q.index();
    let bit = 1u64 << sq;
    let (want, other) = if red {
        (s.red[q], s.blue[q])
    } else {
        (s.blue[q], s.red[q])
    };
    if want & bit != 0 || other & bit == 0 {
        return;
    }
    let Some(swap) = (0..36u8).find(|&t| want >> t & 1 == 1) else {
        return;
    };
    let sbit = 1u64 << swap;
    if red {
        s.red[q] ^= bit | sbit;
        s.blue[q] ^= bit | sbit;
    } else {
        s.blue[q] ^= bit | sbit;
        s.red[q] ^= bit | sbit;
    }
}

/// The `MOV:` message for `mv` (a step of `me`'s ghost) given the board `me` sees.
fn move_message(
    game: &Geister,
    board: &BoardString,
    me: Player,
    mv: GeisterMove,
) -> Option<ClientMsg> {
    let GeisterMove::Step { from, dir } = mv else {
        return None;
    };
    let (x, y) = game.coords(from);
    let own = if me.0 == 0 {
        Place::At(x as u8, y as u8)
    } else {
        Place::At(5 - x as u8, 5 - y as u8)
    };
    let letter = board.own.iter().position(|e| e.place == own)? as u8;
    let view_dir = if me.0 == 0 { dir } else { dir.flip() };
    Some(ClientMsg::Move {
        letter,
        dir: view_dir,
    })
}

/// Moves our ghost on a board string as `msg` says (captures are not marked: only
/// positions are compared later).
fn apply_to_board(
    board: &mut BoardString,
    msg: &ClientMsg,
    game: &Geister,
    me: Player,
    mv: GeisterMove,
) {
    let ClientMsg::Move { letter, .. } = *msg else {
        return;
    };
    let e = &mut board.own[letter as usize];
    e.place = match game.step_target(mv) {
        None => Place::Escaped,
        Some((_, to)) => {
            let (x, y) = game.coords(to);
            let (x, y) = (x as u8, y as u8);
            let to_place = if me.0 == 0 {
                Place::At(x, y)
            } else {
                Place::At(5 - x, 5 - y)
            };
            for t in board.theirs.iter_mut() {
                if t.place == to_place {
                    t.place = Place::Captured;
                }
            }
            to_place
        }
    };
}

/// The opponent's move between the board after our move (`seen`) and the next `board`.
fn opponent_move(
    game: &Geister,
    before: &GeisterState,
    seen: &BoardString,
    board: &BoardString,
    me: Player,
) -> Option<GeisterMove> {
    let i = (0..8).find(|&i| seen.theirs[i].place != board.theirs[i].place)?;
    let Place::At(x0, y0) = seen.theirs[i].place else {
        return None;
    };
    let to_abs = |x: u8, y: u8| {
        if me.0 == 0 {
            y * 6 + x
        } else {
            35 - (y * 6 + x)
        }
    };
    let from = to_abs(x0, y0);
    let q = me.opponent();
    let mv = match board.theirs[i].place {
        Place::Escaped => GeisterMove::Step {
            from,
            dir: Geister::forward(q),
        },
        Place::At(x1, y1) => {
            let to = to_abs(x1, y1);
            let dir = Dir::ALL
                .into_iter()
                .find(|&d| game.neighbour(from, d) == Some(to))?;
            GeisterMove::Step { from, dir }
        }
        Place::Captured => return None,
    };
    let mut legal = Vec::new();
    game.legal_moves(before, &mut legal);
    legal.contains(&mv).then_some(mv)
}

/// Connects to a server at `addr` and plays one game.
///
/// # Errors
/// As [`run_client`], plus connection failures.
pub fn connect_and_play(
    addr: impl ToSocketAddrs,
    game: &Geister,
    agent: &mut dyn Agent<Geister>,
    log: impl FnMut(&str),
) -> Result<ClientResult, ProtocolError> {
    let stream = TcpStream::connect(addr)?;
    let mut conn = Conn::new(stream);
    run_client(&mut conn, game, agent, log)
}

/// Connects to `addr`, retrying a refused or failed connection with exponential back-off
/// (0.1 s doubling to 2 s) until `patience` has passed: a tournament server pauses between
/// games before it listens again. `patience` zero tries once.
///
/// # Errors
/// The last connection error once `patience` is spent.
pub fn connect_with_retry(
    addr: impl ToSocketAddrs,
    patience: Duration,
) -> std::io::Result<TcpStream> {
    let give_up = later(Instant::now(), patience);
    let mut pause = Duration::from_millis(100);
    loop {
        match TcpStream::connect(&addr) {
            Ok(s) => return Ok(s),
            Err(e) => {
                let now = Instant::now();
                if now >= give_up {
                    return Err(e);
                }
                std::thread::sleep(pause.min(give_up - now));
                pause = (pause * 2).min(Duration::from_secs(2));
            }
        }
    }
}

/// [`connect_and_play`] with [`connect_with_retry`]: what `--games N` uses for every game,
/// so the server's pause between games does not end the run.
///
/// # Errors
/// As [`connect_and_play`].
pub fn connect_and_play_with_retry(
    addr: impl ToSocketAddrs,
    patience: Duration,
    game: &Geister,
    agent: &mut dyn Agent<Geister>,
    log: impl FnMut(&str),
) -> Result<ClientResult, ProtocolError> {
    let stream = connect_with_retry(addr, patience)?;
    let mut conn = Conn::new(stream);
    run_client(&mut conn, game, agent, log)
}

// ---------------------------------------------------------------------------------------
// Server

/// The clock of each player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time for the whole game.
    pub main: Duration,
    /// Time every move may use beyond what is left of `main`.
    pub per_move: Duration,
}

impl Default for Clock {
    /// The tournament's 600 s + 10 s per move.
    fn default() -> Self {
        Clock {
            main: Duration::from_secs(600),
            per_move: Duration::from_secs(10),
        }
    }
}

/// Why a refereed game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (escape, captures, ply limit).
    Rules(Outcome),
    /// `loser` sent an illegal set-up or move.
    Illegal {
        /// The offender.
        loser: Player,
        /// The line sent.
        line: String,
    },
    /// `loser` sent a line that is not a protocol message.
    Garbled {
        /// The offender.
        loser: Player,
        /// The line sent.
        line: String,
    },
    /// `loser` ran out of time.
    Timeout {
        /// The offender.
        loser: Player,
    },
    /// `loser` disconnected (or its socket failed).
    Disconnected {
        /// The offender.
        loser: Player,
    },
}

impl std::fmt::Display for Ending {
    /// How the game ended, in words (`first player won: a blue ghost escaped`, `second
    /// player lost: timeout`); an offending line is quoted, cut to 60 characters.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::rules::seat_words;
        let quoted = |line: &str| {
            let cut: String = line.chars().take(60).collect();
            if cut.len() < line.len() {
                format!("{cut:?}...")
            } else {
                format!("{cut:?}")
            }
        };
        match self {
            Ending::Rules(o) => write!(f, "{o}"),
            Ending::Illegal { loser, line } => write!(
                f,
                "{} lost: illegal set-up or move {}",
                seat_words(*loser),
                quoted(line)
            ),
            Ending::Garbled { loser, line } => write!(
                f,
                "{} lost: not a protocol message {}",
                seat_words(*loser),
                quoted(line)
            ),
            Ending::Timeout { loser } => write!(f, "{} lost: out of time", seat_words(*loser)),
            Ending::Disconnected { loser } => {
                write!(f, "{} lost: disconnected", seat_words(*loser))
            }
        }
    }
}

impl Ending {
    /// The winner, if any.
    pub fn winner(&self) -> Option<Player> {
        match self {
            Ending::Rules(Outcome::Win { winner, .. }) => Some(*winner),
            Ending::Rules(_) => None,
            Ending::Illegal { loser, .. }
            | Ending::Garbled { loser, .. }
            | Ending::Timeout { loser }
            | Ending::Disconnected { loser } => Some(loser.opponent()),
        }
    }
}

/// A refereed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameReport {
    /// How it ended.
    pub ending: Ending,
    /// Board moves played.
    pub plies: u16,
    /// The set-ups and moves in [`Game::format_move`] notation.
    pub moves: Vec<String>,
    /// The final board as the first player sees it.
    pub final_board: BoardString,
}

/// The default [`Server::seat_timeout`].
pub const DEFAULT_SEAT_TIMEOUT: Duration = Duration::from_secs(600);

/// The default [`Server::message_gap`]: the reference server's wait after each event.
pub const DEFAULT_MESSAGE_GAP: Duration = Duration::from_millis(100);

/// How long the server waits to write one line before the client counts as gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// Connections of one seat that are asked `SET?` at the same time; more wait in the
/// listen queue.
const MAX_PENDING: usize = 32;

/// A server: a listener for each seat.
pub struct Server {
    listeners: [TcpListener; 2],
    /// The game (a 6×6 variant; the ply limit applies).
    pub game: Geister,
    /// The clocks.
    pub clock: Clock,
    /// How long [`Server::play_one`] waits for each seat to be taken (a client that
    /// connects and answers `SET?`) before it gives up with an error.
    pub seat_timeout: Duration,
    /// The least time between two messages to the same client (see the module
    /// documentation, *Pacing*); it does not count on the client's clock.
    pub message_gap: Duration,
}

/// A client that answered `SET?` with a well-formed `SET:` line and so took a seat.
struct Seated {
    conn: Conn,
    /// The `SET:` line.
    line: String,
    /// Time it took to answer.
    used: Duration,
}

const SEAT_NAMES: [&str; 2] = ["first", "second"];

impl Server {
    /// Listens on `host:port` (first player) and `host:port+1` (second player); port 0
    /// picks two free ports (see [`Server::ports`]). Seats wait
    /// [`DEFAULT_SEAT_TIMEOUT`].
    ///
    /// # Errors
    /// When a port cannot be bound.
    pub fn bind(host: &str, port: u16, game: Geister, clock: Clock) -> std::io::Result<Self> {
        let first = TcpListener::bind((host, port))?;
        let second_port = if port == 0 { 0 } else { port.wrapping_add(1) };
        let second = TcpListener::bind((host, second_port))?;
        Ok(Server {
            listeners: [first, second],
            game,
            clock,
            seat_timeout: DEFAULT_SEAT_TIMEOUT,
            message_gap: DEFAULT_MESSAGE_GAP,
        })
    }

    /// The two ports (first player, second player).
    ///
    /// # Errors
    /// The socket's.
    pub fn ports(&self) -> std::io::Result<[u16; 2]> {
        Ok([
            self.listeners[0].local_addr()?.port(),
            self.listeners[1].local_addr()?.port(),
        ])
    }

    /// Waits until a client has taken each seat (connected to its port and answered
    /// `SET?` with a `SET:` line; see the [module documentation](self)) and referees a
    /// game; `log` receives a line per message (`0>`, `1<` …: seat and direction).
    ///
    /// # Errors
    /// [`std::io::ErrorKind::TimedOut`] when a seat is not taken within
    /// [`Server::seat_timeout`] (the message names the seat and its port), or when
    /// accepting connections fails; everything a seated client does is judged.
    pub fn play_one(&self, mut log: impl FnMut(&str)) -> std::io::Result<GameReport> {
        let deadline = later(Instant::now(), self.seat_timeout);
        let answer_limit = self.clock.main.saturating_add(self.clock.per_move);
        let [r0, r1] = std::thread::scope(|scope| {
            let seat = |i: usize| {
                let listener = &self.listeners[i];
                scope.spawn(move || take_seat(listener, deadline, answer_limit))
            };
            let (h0, h1) = (seat(0), seat(1));
            [h0.join(), h1.join()].map(|r| {
                r.unwrap_or_else(|_| Err(std::io::Error::other("a seat's thread panicked")))
            })
        });
        let ports = self.ports()?;
        let named = |i: usize, e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::TimedOut {
                std::io::Error::new(
                    e.kind(),
                    format!(
                        "no client took the {} player's seat (port {}) within {} s: a seat is \
                         taken by connecting and answering SET? with SET:",
                        SEAT_NAMES[i],
                        ports[i],
                        self.seat_timeout.as_secs_f64()
                    ),
                )
            } else {
                std::io::Error::new(
                    e.kind(),
                    format!("{} player's seat (port {}): {e}", SEAT_NAMES[i], ports[i]),
                )
            }
        };
        let s0 = r0.map_err(|e| named(0, e))?;
        let s1 = r1.map_err(|e| named(1, e))?;
        let mut answers = [Some((s0.line, s0.used)), Some((s1.line, s1.used))];
        let mut conns = [s0.conn, s1.conn];
        for c in &mut conns {
            c.set_gap(self.message_gap);
        }
        Ok(referee_from(
            &mut conns,
            &self.game,
            self.clock,
            &mut log,
            &mut answers,
        ))
    }
}

/// `t + d`, or a year after `t` when that does not fit an [`Instant`].
fn later(t: Instant, d: Duration) -> Instant {
    t.checked_add(d)
        .or_else(|| t.checked_add(Duration::from_secs(365 * 86_400)))
        .unwrap_or(t)
}

/// Waits for a client to take the seat of `listener`: asks every connection `SET?` in a
/// thread of its own and returns the first that answers with a well-formed `SET:` line
/// (before `deadline`, and within `answer_limit` of being asked).
fn take_seat(
    listener: &TcpListener,
    deadline: Instant,
    answer_limit: Duration,
) -> std::io::Result<Seated> {
    listener.set_nonblocking(true)?;
    let result = seat_loop(listener, deadline, answer_limit);
    let _ = listener.set_nonblocking(false);
    result
}

fn seat_loop(
    listener: &TcpListener,
    deadline: Instant,
    answer_limit: Duration,
) -> std::io::Result<Seated> {
    let (tx, rx) = mpsc::channel::<Option<Seated>>();
    let mut pending = 0usize;
    loop {
        let now = Instant::now();
        if now >= deadline {
            return Err(std::io::Error::new(
                std::io::ErrorKind::TimedOut,
                "seat timeout",
            ));
        }
        if pending < MAX_PENDING {
            match listener.accept() {
                Ok((stream, _)) => {
                    pending += 1;
                    let tx = tx.clone();
                    let ask_deadline = deadline.min(later(now, answer_limit));
                    std::thread::spawn(move || {
                        // The receiver is gone once the seat is taken: the connection is
                        // then dropped (closed).
                        let _ = tx.send(ask_for_setup(stream, ask_deadline));
                    });
                    continue;
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock
                            | std::io::ErrorKind::Interrupted
                            | std::io::ErrorKind::ConnectionAborted
                            | std::io::ErrorKind::ConnectionReset
                    ) => {}
                Err(e) => return Err(e),
            }
        }
        let wait = Duration::from_millis(10).min(deadline.saturating_duration_since(now));
        match rx.recv_timeout(wait) {
            Ok(Some(seated)) => return Ok(seated),
            Ok(None) => pending -= 1,
            Err(_) => {}
        }
    }
}

/// Sends `SET?` on a new connection and waits for a well-formed `SET:` answer until
/// `deadline`; anything else (silence, a closed connection, another line, which is
/// answered `NG `) gives `None`.
fn ask_for_setup(stream: TcpStream, deadline: Instant) -> Option<Seated> {
    stream.set_nonblocking(false).ok()?;
    stream.set_write_timeout(Some(WRITE_TIMEOUT)).ok()?;
    let mut conn = Conn::new(stream);
    let start = Instant::now();
    conn.send(&ServerMsg::SetQuery.to_string()).ok()?;
    let line = conn.read_line(Some(deadline)).ok()?;
    match line.parse::<ClientMsg>() {
        Ok(ClientMsg::Set(_)) => Some(Seated {
            conn,
            line,
            used: start.elapsed(),
        }),
        _ => {
            let _ = conn.send(&ServerMsg::Ng.to_string());
            None
        }
    }
}

/// Referees one game between two connected clients (index = seat).
pub fn referee(
    conns: &mut [Conn; 2],
    game: &Geister,
    clock: Clock,
    mut log: impl FnMut(&str),
) -> GameReport {
    referee_from(conns, game, clock, &mut log, &mut [None, None])
}

/// [`referee`] where `answers[i]`, when given, is seat `i`'s answer to the `SET?` it was
/// already sent (the line and the time it took), used instead of asking again.
fn referee_from(
    conns: &mut [Conn; 2],
    game: &Geister,
    clock: Clock,
    log: &mut dyn FnMut(&str),
    answers: &mut [Option<(String, Duration)>; 2],
) -> GameReport {
    let mut table = Table::new(game);
    let mut left = [clock.main; 2];
    let mut moves = Vec::new();
    let ending = loop {
        if let Outcome::Win { .. } | Outcome::Draw = table.state.outcome() {
            break Ending::Rules(table.state.outcome());
        }
        let p = table.state.to_move();
        let i = p.index();
        let query = if table.state.has_set_up(p) {
            ServerMsg::MoveQuery(table.board_string(p, false))
        } else {
            ServerMsg::SetQuery
        };
        let text = query.to_string();
        log(&format!("{i}> {text}"));
        let answered = match query {
            ServerMsg::SetQuery => answers[i].take(),
            _ => None,
        };
        let line = match answered {
            Some((line, used)) => {
                left[i] = left[i].saturating_sub(used);
                line
            }
            None => {
                if conns[i].send(&text).is_err() {
                    break Ending::Disconnected { loser: p };
                }
                let start = Instant::now();
                let deadline = start.checked_add(left[i].saturating_add(clock.per_move));
                let line = match conns[i].read_line(deadline) {
                    Ok(l) => l,
                    Err(ProtocolError::Timeout) => break Ending::Timeout { loser: p },
                    Err(ProtocolError::Garbled { line, .. }) => {
                        break Ending::Garbled { loser: p, line }
                    }
                    Err(_) => break Ending::Disconnected { loser: p },
                };
                left[i] = left[i].saturating_sub(start.elapsed());
                line
            }
        };
        log(&format!("{i}< {line}"));
        let msg = match line.parse::<ClientMsg>() {
            Ok(m) => m,
            Err(_) => {
                let _ = conns[i].send(&ServerMsg::Ng.to_string());
                break Ending::Garbled { loser: p, line };
            }
        };
        let Some(mv) = table.to_move(game, p, msg) else {
            let _ = conns[i].send(&ServerMsg::Ng.to_string());
            break Ending::Illegal { loser: p, line };
        };
        moves.push(game.format_move(&table.state, mv));
        let reply = match table.apply(game, mv) {
            None => ServerMsg::Ok,
            Some(true) => ServerMsg::OkRed,
            Some(false) => ServerMsg::OkBlue,
        };
        log(&format!("{i}> {reply}"));
        if conns[i].send(&reply.to_string()).is_err() {
            break Ending::Disconnected { loser: p };
        }
    };
    let winner = ending.winner();
    for (i, conn) in conns.iter_mut().enumerate() {
        let me = Player(i as u8);
        let board = table.board_string(me, true);
        let msg = match winner {
            None => ServerMsg::Draw(board),
            Some(w) if w == me => ServerMsg::Won(board),
            Some(_) => ServerMsg::Lost(board),
        };
        log(&format!("{i}> {msg}"));
        let _ = conn.send(&msg.to_string());
    }
    GameReport {
        ending,
        plies: table.state.plies(),
        moves,
        final_board: table.board_string(Player(0), true),
    }
}

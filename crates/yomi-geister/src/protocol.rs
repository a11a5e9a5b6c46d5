//! The GAT / GPW Geister tournament protocol (spec §6): messages, board strings, and the
//! letter-tracking [`Table`] a server keeps.
//!
//! Lines end in `\r\n`. The server asks `SET?`, the client answers `SET:ABCD` (its 4 red
//! ghosts), the server answers `OK ` or `NG `. Each turn the server sends
//! `MOV?<board string>` and the client answers `MOV:<letter>,<direction>` (`N`/`E`/`W`/`S` or
//! `NORTH`/...), answered by `OK ` (a plain move), `OKR` / `OKB` (the move captured a red /
//! blue ghost) or `NG `. The end is `WON:`, `LST:` or `DRW:` followed by the board string
//! with all colours shown.
//!
//! A board string is 16 triples `x y c`: the receiver's ghosts A–H, then the opponent's
//! a–h, in the receiver's own view (its ghosts start on rows 4–5, north is `y − 1`). Own
//! ghosts are `R` / `B`, lowercase once off the board (captured or escaped, as the
//! reference server writes them); the opponent's are `u` while their colour
//! is hidden and `r` / `b` once known. A captured ghost stands on `99`, an escaped one on
//! `88`.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;
use yomi_core::{Game, Player};

use crate::rules::{Dir, Geister, GeisterMove, GeisterState, Setup};

/// Why a protocol line or board string could not be read, or a session failed.
#[derive(Debug, Error)]
pub enum ProtocolError {
    /// A line that is not a message of the protocol.
    #[error("garbled line {line:?}: expected {expected}")]
    Garbled {
        /// The line (without its line end).
        line: String,
        /// What was expected.
        expected: &'static str,
    },
    /// A board string of the wrong shape.
    #[error("bad board string {text:?}: {reason}")]
    Board {
        /// The text.
        text: String,
        /// What is wrong.
        reason: String,
    },
    /// The peer closed the connection.
    #[error("connection closed")]
    Closed,
    /// The peer did not answer in time.
    #[error("timed out")]
    Timeout,
    /// The server refused a set-up or a move.
    #[error("the server refused {0}")]
    Refused(String),
    /// Reading or writing the socket failed.
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
    /// The agent produced no move.
    #[error("agent error: {0}")]
    Agent(String),
}

/// Where a ghost of a board string is.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Place {
    /// On the board at `(x, y)` in the receiver's view.
    At(u8, u8),
    /// Captured (`99`).
    Captured,
    /// Escaped (`88`).
    Escaped,
}

/// One ghost of a board string: where it is and its colour character (`R`, `B`, `r`, `b`,
/// `u`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct GhostEntry {
    /// Where it is.
    pub place: Place,
    /// The colour character as sent.
    pub colour: u8,
}

impl GhostEntry {
    /// Red, blue or unknown (`None`).
    pub fn is_red(&self) -> Option<bool> {
        match self.colour {
            b'R' | b'r' => Some(true),
            b'B' | b'b' => Some(false),
            _ => None,
        }
    }
}

/// A board string: the receiver's ghosts A–H (`own`) and the opponent's a–h (`theirs`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BoardString {
    /// The receiver's ghosts A–H.
    pub own: [GhostEntry; 8],
    /// The opponent's ghosts a–h.
    pub theirs: [GhostEntry; 8],
}

impl FromStr for BoardString {
    type Err = ProtocolError;

    fn from_str(text: &str) -> Result<Self, ProtocolError> {
        let bad = |reason: String| ProtocolError::Board {
            text: text.to_string(),
            reason,
        };
        let b = text.as_bytes();
        if b.len() != 48 {
            return Err(bad(format!("{} characters, expected 48", b.len())));
        }
        let empty = GhostEntry {
            place: Place::Captured,
            colour: b'u',
        };
        let mut out = BoardString {
            own: [empty; 8],
            theirs: [empty; 8],
        };
        for i in 0..16 {
            let (x, y, c) = (b[3 * i], b[3 * i + 1], b[3 * i + 2]);
            let place = match (x, y) {
                (b'9', b'9') => Place::Captured,
                (b'8', b'8') => Place::Escaped,
                (b'0'..=b'5', b'0'..=b'5') => Place::At(x - b'0', y - b'0'),
                _ => {
                    let pos = String::from_utf8_lossy(&b[3 * i..3 * i + 2]).into_owned();
                    return Err(bad(format!("ghost {i} has position {pos:?}")));
                }
            };
            let ok = if i < 8 {
                matches!(c, b'R' | b'B' | b'r' | b'b')
            } else {
                matches!(c, b'u' | b'r' | b'b')
            };
            if !ok {
                return Err(bad(format!("ghost {i} has colour {:?}", c as char)));
            }
            let e = GhostEntry { place, colour: c };
            if i < 8 {
                out.own[i] = e;
            } else {
                out.theirs[i - 8] = e;
            }
        }
        // Two ghosts on one square.
        let mut seen = 0u64;
        for e in out.own.iter().chain(&out.theirs) {
            if let Place::At(x, y) = e.place {
                let bit = 1u64 << (y * 6 + x);
                if seen & bit != 0 {
                    return Err(bad(format!("two ghosts on ({x}, {y})")));
                }
                seen |= bit;
            }
        }
        Ok(out)
    }
}

impl fmt::Display for BoardString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for e in self.own.iter().chain(&self.theirs) {
            match e.place {
                Place::At(x, y) => write!(f, "{x}{y}")?,
                Place::Captured => f.write_str("99")?,
                Place::Escaped => f.write_str("88")?,
            }
            write!(f, "{}", e.colour as char)?;
        }
        Ok(())
    }
}

/// A message from the server.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ServerMsg {
    /// `SET?`
    SetQuery,
    /// `MOV?` and the board in the receiver's view.
    MoveQuery(BoardString),
    /// `OK ` (a plain move or an accepted set-up).
    Ok,
    /// `OKR`: the move captured a red ghost.
    OkRed,
    /// `OKB`: the move captured a blue ghost.
    OkBlue,
    /// `NG `: refused.
    Ng,
    /// `WON:` and the final board.
    Won(BoardString),
    /// `LST:` and the final board.
    Lost(BoardString),
    /// `DRW:` and the final board.
    Draw(BoardString),
}

impl FromStr for ServerMsg {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<Self, ProtocolError> {
        let garbled = || ProtocolError::Garbled {
            line: line.to_string(),
            expected: "SET?, MOV?<board>, OK, OKR, OKB, NG, WON:/LST:/DRW:<board>",
        };
        match line {
            "OK " | "OK" => return Ok(ServerMsg::Ok),
            "OKR" => return Ok(ServerMsg::OkRed),
            "OKB" => return Ok(ServerMsg::OkBlue),
            "NG " | "NG" => return Ok(ServerMsg::Ng),
            _ => {}
        }
        let head = line.get(..4).ok_or_else(garbled)?;
        let rest = &line[4..];
        match head {
            "SET?" if rest.is_empty() => Ok(ServerMsg::SetQuery),
            "MOV?" => Ok(ServerMsg::MoveQuery(rest.parse()?)),
            "WON:" => Ok(ServerMsg::Won(rest.parse()?)),
            "LST:" => Ok(ServerMsg::Lost(rest.parse()?)),
            "DRW:" => Ok(ServerMsg::Draw(rest.parse()?)),
            _ => Err(garbled()),
        }
    }
}

impl fmt::Display for ServerMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ServerMsg::SetQuery => f.write_str("SET?"),
            ServerMsg::MoveQuery(b) => write!(f, "MOV?{b}"),
            ServerMsg::Ok => f.write_str("OK "),
            ServerMsg::OkRed => f.write_str("OKR"),
            ServerMsg::OkBlue => f.write_str("OKB"),
            ServerMsg::Ng => f.write_str("NG "),
            ServerMsg::Won(b) => write!(f, "WON:{b}"),
            ServerMsg::Lost(b) => write!(f, "LST:{b}"),
            ServerMsg::Draw(b) => write!(f, "DRW:{b}"),
        }
    }
}

/// A message from a client.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ClientMsg {
    /// `SET:` and the red letters.
    Set(Setup),
    /// `MOV:` a letter (0 = A) and a direction in the sender's own view.
    Move {
        /// The ghost, 0..8 for A..H.
        letter: u8,
        /// The direction in the sender's view (north = towards the opponent).
        dir: Dir,
    },
}

impl FromStr for ClientMsg {
    type Err = ProtocolError;

    fn from_str(line: &str) -> Result<Self, ProtocolError> {
        let garbled = |expected| ProtocolError::Garbled {
            line: line.to_string(),
            expected,
        };
        if let Some(letters) = line.strip_prefix("SET:") {
            if letters.len() != 4 || !letters.bytes().all(|c| c.is_ascii_uppercase()) {
                return Err(garbled("SET: and 4 distinct letters of A-H"));
            }
            return Setup::parse(letters)
                .map(ClientMsg::Set)
                .ok_or_else(|| garbled("SET: and 4 distinct letters of A-H"));
        }
        if let Some(rest) = line.strip_prefix("MOV:") {
            let expected = "MOV:<A-H>,<N|E|W|S|NORTH|EAST|WEST|SOUTH>";
            let (l, d) = rest.split_once(',').ok_or_else(|| garbled(expected))?;
            let letter = match l.as_bytes() {
                [c @ b'A'..=b'H'] => c - b'A',
                _ => return Err(garbled(expected)),
            };
            let dir = match d {
                "N" | "NORTH" => Dir::North,
                "E" | "EAST" => Dir::East,
                "W" | "WEST" => Dir::West,
                "S" | "SOUTH" => Dir::South,
                _ => return Err(garbled(expected)),
            };
            return Ok(ClientMsg::Move { letter, dir });
        }
        Err(garbled("SET:... or MOV:..."))
    }
}

impl fmt::Display for ClientMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientMsg::Set(s) => write!(f, "SET:{}", s.letters()),
            ClientMsg::Move { letter, dir } => {
                write!(f, "MOV:{},{}", (b'A' + letter) as char, dir.letter())
            }
        }
    }
}

/// Captured.
const CAPTURED: u8 = 99;
/// Escaped.
const ESCAPED: u8 = 88;

/// A game on the 6×6 board with every ghost's letter: what a server keeps to write board
/// strings and read `MOV:` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// The position.
    pub state: GeisterState,
    /// Square of each player's ghost A..H (absolute), or 99 / 88.
    squares: [[u8; 8]; 2],
    /// Red ghosts of each player (bit per letter), once set up.
    reds: [u8; 2],
}

impl Table {
    /// The start of a game of `game` (a 6×6 variant).
    pub fn new(game: &Geister) -> Self {
        let mut squares = [[0u8; 8]; 2];
        for (p, row) in squares.iter_mut().enumerate() {
            for (i, sq) in row.iter_mut().enumerate() {
                *sq = game.start_square(Player(p as u8), i);
            }
        }
        Table {
            state: game.initial_state(),
            squares,
            reds: [0; 2],
        }
    }

    /// The game move for `msg` sent by `player`, if it is legal now.
    pub fn to_move(&self, game: &Geister, player: Player, msg: ClientMsg) -> Option<GeisterMove> {
        if game.turn(&self.state) != yomi_core::Turn::Player(player) {
            return None;
        }
        let mv = match msg {
            ClientMsg::Set(s) => GeisterMove::Setup(s),
            ClientMsg::Move { letter, dir } => {
                let sq = self.squares[player.index()][letter as usize];
                if sq >= 36 {
                    return None;
                }
                let abs = if player.0 == 0 { dir } else { dir.flip() };
                let from = sq;
                if game.neighbour(from, abs).is_some() {
                    GeisterMove::Step { from, dir: abs }
                } else if game.exits(player).contains(&from) {
                    // Off the board from an exit (either way): the escape.
                    GeisterMove::Step {
                        from,
                        dir: Geister::forward(player),
                    }
                } else {
                    return None;
                }
            }
        };
        let mut legal = Vec::new();
        game.legal_moves(&self.state, &mut legal);
        legal.contains(&mv).then_some(mv)
    }

    /// Plays a legal move; returns the colour captured (`Some(true)` red).
    pub fn apply(&mut self, game: &Geister, mv: GeisterMove) -> Option<bool> {
        let p = self.state.to_move();
        let q = p.opponent();
        let mut captured = None;
        match mv {
            GeisterMove::Setup(s) => self.reds[p.index()] = s.0,
            GeisterMove::Step { from, dir } => {
                let letter = self.squares[p.index()]
                    .iter()
                    .position(|&s| s == from)
                    .expect("a legal step moves a ghost of the mover");
                match game.neighbour(from, dir) {
                    None => self.squares[p.index()][letter] = ESCAPED,
                    Some(to) => {
                        if let Some(k) = self.squares[q.index()].iter().position(|&s| s == to) {
                            self.squares[q.index()][k] = CAPTURED;
                            captured = Some(self.reds[q.index()] >> k & 1 == 1);
                        }
                        self.squares[p.index()][letter] = to;
                    }
                }
            }
        }
        game.apply(&mut self.state, mv);
        captured
    }

    /// The board string `viewer` receives; `reveal` shows every colour (game end).
    pub fn board_string(&self, viewer: Player, reveal: bool) -> BoardString {
        let entry = |p: usize, i: usize| {
            let sq = self.squares[p][i];
            let red = self.reds[p] >> i & 1 == 1;
            let own = p == viewer.index();
            let place = match sq {
                CAPTURED => Place::Captured,
                ESCAPED => Place::Escaped,
                s => {
                    let s = if viewer.0 == 0 { s } else { 35 - s };
                    Place::At(s % 6, s / 6)
                }
            };
            // As the reference server writes it: a ghost that has left the board
            // (captured or escaped) is public, so its colour is lower case.
            let colour = match (own, place, red) {
                (true, Place::Captured | Place::Escaped, true) => b'r',
                (true, Place::Captured | Place::Escaped, false) => b'b',
                (true, _, true) => b'R',
                (true, _, false) => b'B',
                (false, Place::At(..), _) if !reveal => b'u',
                (false, _, true) => b'r',
                (false, _, false) => b'b',
            };
            GhostEntry { place, colour }
        };
        let v = viewer.index();
        BoardString {
            own: std::array::from_fn(|i| entry(v, i)),
            theirs: std::array::from_fn(|i| entry(1 - v, i)),
        }
    }
}

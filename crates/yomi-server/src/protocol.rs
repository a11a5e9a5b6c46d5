//! The WebSocket protocol: JSON text messages, one object each, tagged by `"type"`.
//!
//! A page opens one socket (`/ws`) and holds at most one game on it at a time. Every
//! message the page sends gets at least one reply; a message that does not parse, is too
//! large or does not apply gets an [`ServerMsg::Error`] and the connection stays open.
//!
//! Page → server ([`ClientMsg`]):
//! - `{"type":"new","game":"tictactoe","seats":["human","mcts:iters=200"],"seed":1,"delay_ms":0}`
//!   starts a game (seats: `human` or an agent spec, one per player). With `"moves"` the
//!   listed moves are replayed first (a reload of a perfect-information game).
//! - `{"type":"resume","id":"…"}` reattaches to a game this server holds (after a reload).
//! - `{"type":"move","text":"b2"}` plays a person's move (`"player"` names the seat at a
//!   simultaneous turn); an illegal move is answered with an error giving the reason.
//! - `{"type":"replay","file":"c4.jsonl","index":3}` or `{"type":"replay","record":{…}}`
//!   opens a finished game record; `{"type":"seek","ply":12}` shows the position after
//!   12 moves (replays and live games alike).
//! - `{"type":"analyse","agent":"mcts"}` searches the shown position in the background
//!   (rounds of doubling budget, each reported); `{"type":"stop"}` ends it.
//! - `{"type":"pause","paused":true}` holds agent moves (watching).
//! - `{"type":"follow","file":"rr.jsonl"}` streams the standings of a records file as it
//!   grows; `{"type":"unfollow"}` stops.
//! - `{"type":"ping","t":123.4}` is answered with `{"type":"pong","t":123.4}`.
//!
//! Server → page ([`ServerMsg`]): `state` (the position, legal moves for the person to
//! act, the result), `analysis`, `standings`, `error`, `pong`, `hello`.

use serde::{Deserialize, Serialize};
use yomi_core::arena::{GameRecord, Standing};

use crate::view::View;

/// The largest message a page may send, in bytes (a game record for replay fits).
pub const MAX_MESSAGE_BYTES: usize = 1 << 20;

/// The most moves a `new` message may replay or a record may hold.
pub const MAX_MOVES: usize = 20_000;

/// The most seats a game may have.
pub const MAX_SEATS: usize = 16;

/// A message from the page.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ClientMsg {
    /// Start a game.
    New {
        /// Game name, as `yomi games` lists it.
        game: String,
        /// One entry per player: `human` or an agent spec.
        seats: Vec<String>,
        /// Seed of the agents.
        #[serde(default)]
        seed: u64,
        /// Moves to replay before play goes on.
        #[serde(default)]
        moves: Vec<String>,
        /// Pause before each agent move, in milliseconds (for watching).
        #[serde(default)]
        delay_ms: u64,
    },
    /// Reattach to a game held by the server.
    Resume {
        /// The game's id.
        id: String,
    },
    /// A person's move.
    Move {
        /// The move in the game's notation.
        text: String,
        /// The player moving (needed only at simultaneous turns).
        #[serde(default)]
        player: Option<usize>,
    },
    /// Open a game record.
    Replay {
        /// A records file in the server's records directory.
        #[serde(default)]
        file: Option<String>,
        /// The record's position in that file (0-based; default: the last).
        #[serde(default)]
        index: Option<usize>,
        /// A record given inline.
        #[serde(default)]
        record: Option<Box<GameRecord>>,
    },
    /// Show the position after `ply` moves.
    Seek {
        /// Moves from the start.
        ply: usize,
    },
    /// Analyse the shown position.
    Analyse {
        /// The agent (name or spec) that searches; default `mcts`.
        #[serde(default)]
        agent: Option<String>,
        /// The player whose view the search takes (default: the player to move).
        #[serde(default)]
        player: Option<usize>,
    },
    /// Stop the analysis.
    Stop,
    /// Hold or release agent moves.
    Pause {
        /// Hold when true.
        paused: bool,
    },
    /// Follow a records file's standings.
    Follow {
        /// A file in the records directory.
        file: String,
    },
    /// Stop following.
    Unfollow,
    /// Round-trip probe.
    Ping {
        /// Echoed back.
        t: f64,
    },
}

/// One legal move offered to the person to act.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LegalMove {
    /// The move's text (send it back in `move`).
    pub text: String,
    /// The player it is for.
    pub player: usize,
}

/// The position a page shows.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StateMsg {
    /// The game's id (for `resume`).
    pub id: String,
    /// `play` or `replay`.
    pub mode: String,
    /// The game's name.
    pub game: String,
    /// The players' names (`x`/`o`, `black`/`white`, GDL roles).
    pub players: Vec<String>,
    /// Each seat: `human` or the agent's spec.
    pub seats: Vec<String>,
    /// The agents' seed.
    pub seed: u64,
    /// The moves played (as the viewer may see them: a hidden opponent's set-up is
    /// `SET:????`).
    pub moves: Vec<String>,
    /// Which ply is shown (`moves.len()` unless seeking).
    pub ply: usize,
    /// The players to act now (empty at the end).
    pub to_act: Vec<usize>,
    /// The person's legal moves, when a person is to act at the shown ply.
    pub legal: Vec<LegalMove>,
    /// The player whose view is shown (`null`: the whole state).
    pub viewer: Option<usize>,
    /// The board.
    pub view: View,
    /// Whether the game is over.
    pub terminal: bool,
    /// Each player's reward at the end.
    pub returns: Option<Vec<f64>>,
    /// The result in words.
    pub result: Option<String>,
    /// The agent seat thinking now, if any.
    pub thinking: Option<usize>,
    /// Whether agent moves are held.
    pub paused: bool,
    /// Whether the page may keep the moves to rebuild the game (perfect information).
    pub rebuildable: bool,
}

/// One move of an analysis.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct MoveStats {
    /// The move.
    pub text: String,
    /// Visits through it.
    pub visits: u64,
    /// Mean value in `[0, 1]` for the searching player.
    pub value: Option<f64>,
}

/// A standings row, as the page shows it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct StandingRow {
    /// The agent.
    pub agent: String,
    /// Games.
    pub games: u64,
    /// Wins, draws, losses.
    pub wdl: [u64; 3],
    /// Score rate and its 95 % interval.
    pub score: [f64; 3],
    /// Elo and its 95 % interval.
    pub elo: [f64; 3],
}

impl From<&Standing> for StandingRow {
    fn from(s: &Standing) -> Self {
        StandingRow {
            agent: s.agent.clone(),
            games: s.wdl.games(),
            wdl: [s.wdl.wins, s.wdl.draws, s.wdl.losses],
            score: [s.score.value, s.score.low, s.score.high],
            elo: [s.elo.value, s.elo.low, s.elo.high],
        }
    }
}

/// A message to the page.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// Sent on connect: the games and their agents are at `/api/games`.
    Hello {
        /// The server's version.
        version: String,
    },
    /// A position.
    State(Box<StateMsg>),
    /// Analysis so far.
    Analysis {
        /// The game's id.
        id: String,
        /// The ply analysed.
        ply: usize,
        /// The searching player.
        player: usize,
        /// Per move.
        moves: Vec<MoveStats>,
        /// Principal variation.
        pv: Vec<String>,
        /// Root value for the searching player.
        value: Option<f64>,
        /// Iterations in this round.
        iterations: u64,
        /// Whether the analysis has ended (stopped or its last round done).
        done: bool,
    },
    /// Standings of a followed records file.
    Standings {
        /// The file.
        file: String,
        /// Games in it.
        games: usize,
        /// The game name(s) played.
        game: String,
        /// One row per agent.
        rows: Vec<StandingRow>,
        /// The latest records' index, seats, result and number of moves (newest last).
        recent: Vec<RecentGame>,
    },
    /// A request failed; nothing changed.
    Error {
        /// Why.
        reason: String,
    },
    /// Reply to `ping`.
    Pong {
        /// The probe's value.
        t: f64,
    },
}

/// A finished game in a followed file.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct RecentGame {
    /// Its index in the file.
    pub index: usize,
    /// Seats.
    pub seats: Vec<String>,
    /// Returns.
    pub returns: Vec<f64>,
    /// Moves played.
    pub moves: usize,
}

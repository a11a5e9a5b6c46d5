//! A GGP player: answers the match protocol ([`crate::protocol`]) over HTTP, playing with
//! any agent of the registry (MCTS on the core search by default).
//!
//! - [`GgpPlayer`] is the protocol state machine, independent of HTTP: one text message in,
//!   one [`Reply`] out. It compiles the rules on `start`, tracks the state from the joint
//!   moves of `play`, searches until the play clock minus a safety margin and always
//!   answers a legal move: the search runs on its own thread, and when it has not answered
//!   by the deadline (or fails) a random legal move goes out instead. A late search hands
//!   the agent back when it ends; meanwhile further moves are random.
//! - [`PlayerServer`] serves it over HTTP as ggp-base's players do: `POST` with the
//!   message as the body, replies `200` with `Content-type: text/acl` and CORS headers
//!   (`OPTIONS` is answered too, so browser-based hosts work). A malformed message gets
//!   `400` with the reason, an oversized one `413`, another method `405`; the player keeps
//!   serving.
//!
//! # Why tiny_http
//! The protocol is one short request per connection, a few per second at most: a
//! synchronous server with a thread per request is all it needs, and `tiny_http` is a
//! small, long-maintained crate with no async runtime (an async stack would add tokio and
//! hyper for nothing). Each request is read on its own thread, so a client that stalls
//! mid-request blocks only itself; the player's state sits behind one mutex.

use std::io::Read;
use std::net::SocketAddr;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use yomi_core::agent::{Agent, Played};
use yomi_core::spec::AgentSpec;
use yomi_core::{Game, Player, Rng, Turn};

use crate::game::{GdlGame, GdlMove};
use crate::protocol::Message;
use crate::reasoner::GdlState;

/// Settings of a player.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// The name reported to `(info)`.
    pub name: String,
    /// The agent spec (`mcts`, `mcts:playout=mast`, `random`, ...). For `mcts` the player
    /// sets `time` to the play clock minus the margin (a smaller `time` given here is kept)
    /// and, unless `iters` is given, lifts the iteration limit.
    pub agent: String,
    /// Safety margin in seconds kept free on both clocks (at most half the clock is used
    /// as margin, so tiny clocks still leave time to think).
    pub margin: f64,
    /// Seed of the agent and of the fallback moves (each match derives its own).
    pub seed: u64,
    /// Largest request body accepted, in bytes.
    pub max_request_bytes: usize,
}

impl Default for PlayerConfig {
    fn default() -> Self {
        PlayerConfig {
            name: "yomi".into(),
            agent: "mcts".into(),
            margin: 0.5,
            seed: 1,
            max_request_bytes: 8 << 20,
        }
    }
}

/// A reply: HTTP status and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// 200 for protocol answers, 4xx for requests that could not be read.
    pub status: u16,
    /// The reply text (`ready`, a move, `done`, or the reason of an error).
    pub body: String,
}

impl Reply {
    fn ok(body: impl Into<String>) -> Self {
        Reply {
            status: 200,
            body: body.into(),
        }
    }
    fn bad(body: impl Into<String>) -> Self {
        Reply {
            status: 400,
            body: body.into(),
        }
    }
}

type BoxAgent = Box<dyn Agent<GdlGame>>;
type SearchOutcome = (BoxAgent, Option<GdlMove>);

/// One match in progress.
struct MatchState {
    id: String,
    game: GdlGame,
    role: usize,
    state: GdlState,
    /// Seconds of thinking per move (play clock minus margin).
    think: f64,
    agent: Option<BoxAgent>,
    /// A search that missed its deadline; it sends the agent back when it ends.
    pending: Option<Receiver<SearchOutcome>>,
    rng: Rng,
}

/// What the player did on its last moves, for logs and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Moves chosen by the agent in time.
    pub searched: u64,
    /// Moves that were the only legal move.
    pub forced: u64,
    /// Random legal moves sent because the search was late, failed or was still busy.
    pub fallbacks: u64,
    /// Matches started.
    pub matches: u64,
}

/// The protocol state machine of a player. See the [module docs](self).
pub struct GgpPlayer {
    config: PlayerConfig,
    current: Option<MatchState>,
    /// Counters.
    pub stats: PlayerStats,
}

impl GgpPlayer {
    /// A player with no match.
    pub fn new(config: PlayerConfig) -> Self {
        GgpPlayer {
            config,
            current: None,
            stats: PlayerStats::default(),
        }
    }

    /// The settings.
    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// The margin kept free on a clock of `clock` seconds.
    fn margin(&self, clock: f64) -> f64 {
        self.config.margin.min(clock * 0.5).max(0.0)
    }

    /// Handles one message, received at `received` (the clocks run from then).
    pub fn handle(&mut self, text: &str, received: Instant) -> Reply {
        let msg: Message = match text.parse() {
            Ok(m) => m,
            Err(e) => return Reply::bad(format!("error: {e}")),
        };
        match msg {
            Message::Info => Reply::ok(format!(
                "((name {}) (status {}))",
                self.config.name,
                if self.current.is_some() {
                    "busy"
                } else {
                    "available"
                }
            )),
            Message::Preview { .. } => Reply::ok("ready"),
            Message::Start {
                id,
                role,
                rules,
                play_clock,
                ..
            } => self.start(id, &role, &rules, play_clock),
            Message::Play { id, moves } => self.play(&id, moves.as_deref(), received),
            Message::Stop { id, moves } => match &mut self.current {
                Some(m) if m.id == id => {
                    if let Some(moves) = moves {
                        // The final state is not needed; a bad joint move is ignored here.
                        let _ = advance(m, &moves);
                    }
                    self.current = None;
                    Reply::ok("done")
                }
                _ => Reply::ok("busy"),
            },
            Message::Abort { id } => match &self.current {
                Some(m) if m.id == id => {
                    self.current = None;
                    Reply::ok("aborted")
                }
                _ => Reply::ok("busy"),
            },
        }
    }

    fn start(&mut self, id: String, role: &str, rules: &str, play_clock: f64) -> Reply {
        if let Some(m) = &self.current {
            if m.id != id {
                return Reply::ok("busy");
            }
        }
        let game = match GdlGame::from_kif(&format!("match-{id}"), rules) {
            Ok(g) => g,
            Err(e) => return Reply::bad(format!("error: rules: {e}")),
        };
        let Some(role_index) = game.role_index(role) else {
            return Reply::bad(format!("error: {role} is no role of the game"));
        };
        let think = (play_clock - self.margin(play_clock)).max(0.01);
        let seed = yomi_core::rng::derive_seed(self.config.seed, self.stats.matches);
        // The search stops a little before the hard deadline so that its move, not the
        // fallback, wins the race (10 % of the thinking time plus 10 ms).
        let search_time = (think * 0.9 - 0.01).max(0.005);
        let agent = match build_agent(&game, &self.config.agent, search_time, seed) {
            Ok(a) => a,
            Err(e) => return Reply::bad(format!("error: agent: {e}")),
        };
        self.stats.matches += 1;
        self.current = Some(MatchState {
            id,
            state: game.initial_state(),
            game,
            role: role_index,
            think,
            agent: Some(agent),
            pending: None,
            rng: Rng::seed_from_u64(seed ^ 0x5eed),
        });
        Reply::ok("ready")
    }

    fn play(&mut self, id: &str, moves: Option<&[String]>, received: Instant) -> Reply {
        let Some(m) = &mut self.current else {
            return Reply::ok("busy");
        };
        if m.id != id {
            return Reply::ok("busy");
        }
        if let Some(moves) = moves {
            if let Err(e) = advance(m, moves) {
                return Reply::bad(format!("error: {e}"));
            }
        }
        let r = m.game.reasoner();
        let mut legal = Vec::new();
        r.legal_into(&m.state, m.role, &mut legal);
        if legal.is_empty() {
            return Reply::bad("error: the game is over or this role has no legal move");
        }
        if legal.len() == 1 {
            self.stats.forced += 1;
            return Reply::ok(r.action_text(legal[0]).to_string());
        }
        let deadline = received + Duration::from_secs_f64(m.think);
        let chosen = search_until(m, deadline);
        let mv = match chosen {
            Some(a) if legal.contains(&a) => {
                self.stats.searched += 1;
                a
            }
            _ => {
                self.stats.fallbacks += 1;
                legal[m.rng.below(legal.len())]
            }
        };
        Reply::ok(m.game.reasoner().action_text(mv).to_string())
    }
}

/// Builds the agent of `spec` with the thinking time set for `mcts`.
fn build_agent(
    game: &GdlGame,
    spec: &str,
    think: f64,
    seed: u64,
) -> Result<BoxAgent, yomi_core::spec::SpecError> {
    let mut parsed: AgentSpec = spec.parse()?;
    if parsed.name == "mcts" {
        let time = parsed
            .params
            .iter()
            .find(|(k, _)| k == "time")
            .and_then(|(_, v)| v.parse::<f64>().ok())
            .map_or(think, |t| t.min(think));
        parsed.params.retain(|(k, _)| k != "time");
        parsed.params.push(("time".into(), format!("{time:.3}")));
        if !parsed.params.iter().any(|(k, _)| k == "iters") {
            parsed.params.push(("iters".into(), "1000000000000".into()));
        }
    }
    crate::registry().build(game, &parsed.to_string(), seed)
}

/// Applies the host's joint move (one per role, role order) to the match state and tells
/// the agent.
fn advance(m: &mut MatchState, moves: &[String]) -> Result<(), String> {
    let r = m.game.reasoner();
    let n = r.roles().len();
    if moves.len() != n {
        return Err(format!("{} move(s) for a game of {n} role(s)", moves.len()));
    }
    if r.is_terminal(&m.state) {
        return Err("a move after the end of the game".into());
    }
    let mut joint = Vec::with_capacity(n);
    for (role, text) in moves.iter().enumerate() {
        let a = m
            .game
            .parse_action(&m.state, role, text)
            .map_err(|e| format!("move of {}: {e}", r.role_names()[role]))?;
        joint.push(a);
    }
    collect_pending(m);
    let before = m.state.clone();
    let turn = m.game.turn(&before);
    m.game.reasoner().step(&mut m.state, &joint);
    if let Some(agent) = &mut m.agent {
        let as_moves: Vec<GdlMove> = joint.iter().map(|&a| GdlMove(a)).collect();
        match turn {
            Turn::Player(p) => {
                agent.observe(&m.game, &before, Played::Single(p, as_moves[p.index()]))
            }
            _ => agent.observe(&m.game, &before, Played::Joint(&as_moves)),
        }
    }
    Ok(())
}

/// Takes the agent back from a late search that has ended.
fn collect_pending(m: &mut MatchState) {
    if let Some(rx) = &m.pending {
        match rx.try_recv() {
            Ok((agent, _)) => {
                m.agent = Some(agent);
                m.pending = None;
            }
            Err(mpsc::TryRecvError::Empty) => {}
            Err(mpsc::TryRecvError::Disconnected) => m.pending = None,
        }
    }
}

/// Runs the agent on its own thread until `deadline`; `None` when it is late, fails, or is
/// still busy with an earlier search.
fn search_until(m: &mut MatchState, deadline: Instant) -> Option<u32> {
    collect_pending(m);
    let Some(mut agent) = m.agent.take() else {
        // No agent: an earlier search is still running (or its thread died): random moves.
        return None;
    };
    let (tx, rx) = mpsc::channel::<SearchOutcome>();
    let game = m.game.clone();
    let state = m.state.clone();
    let player = Player(m.role as u8);
    let spawned = std::thread::Builder::new()
        .name("ggp-search".into())
        .spawn(move || {
            let mv = agent.select_move(&game, &state, player).ok();
            // The receiver may be gone (match aborted): nothing to do then.
            let _ = tx.send((agent, mv));
        });
    if spawned.is_err() {
        return None;
    }
    let wait = deadline.saturating_duration_since(Instant::now());
    match rx.recv_timeout(wait) {
        Ok((agent, mv)) => {
            m.agent = Some(agent);
            mv.map(|g| g.0)
        }
        Err(RecvTimeoutError::Timeout) => {
            m.pending = Some(rx);
            None
        }
        Err(RecvTimeoutError::Disconnected) => None,
    }
}

/// A [`GgpPlayer`] served over HTTP. See the [module docs](self).
pub struct PlayerServer {
    server: Arc<tiny_http::Server>,
    player: Arc<Mutex<GgpPlayer>>,
    max_request_bytes: usize,
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
#[error("cannot listen on {addr}: {reason}")]
pub struct BindError {
    /// The address asked for.
    pub addr: String,
    /// What went wrong.
    pub reason: String,
}

fn header(name: &str, value: &str) -> Option<tiny_http::Header> {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).ok()
}

impl PlayerServer {
    /// Listens on `addr` (`0.0.0.0:9147`; port 0 picks a free port).
    ///
    /// # Errors
    /// [`BindError`] when the address cannot be bound.
    pub fn bind(config: PlayerConfig, addr: &str) -> Result<Self, BindError> {
        let server = tiny_http::Server::http(addr).map_err(|e| BindError {
            addr: addr.into(),
            reason: e.to_string(),
        })?;
        Ok(PlayerServer {
            server: Arc::new(server),
            max_request_bytes: config.max_request_bytes,
            player: Arc::new(Mutex::new(GgpPlayer::new(config))),
        })
    }

    /// The address listened on.
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.server.server_addr().to_ip()
    }

    /// The player (for its counters).
    pub fn player(&self) -> Arc<Mutex<GgpPlayer>> {
        self.player.clone()
    }

    /// A handle that stops [`PlayerServer::run`] when called.
    pub fn stopper(&self) -> impl Fn() + Send + Sync + 'static {
        let s = self.server.clone();
        move || s.unblock()
    }

    /// Serves requests until stopped, each on its own thread; logs one line per message
    /// on stderr when `verbose`.
    pub fn run(&self, verbose: bool) {
        for request in self.server.incoming_requests() {
            let player = self.player.clone();
            let limit = self.max_request_bytes;
            let spawned = std::thread::Builder::new()
                .name("ggp-request".into())
                .spawn(move || serve_one(request, &player, limit, verbose));
            if let Err(e) = spawned {
                eprintln!("ggp player: cannot start a request thread: {e}");
            }
        }
    }

    /// Runs the server on a background thread.
    pub fn spawn(self, verbose: bool) -> JoinHandle<()> {
        std::thread::spawn(move || self.run(verbose))
    }
}

fn respond(request: tiny_http::Request, status: u16, body: String) {
    let mut response = tiny_http::Response::from_string(body).with_status_code(status);
    for (k, v) in [
        ("Content-type", "text/acl"),
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Allow-Methods", "POST, GET, OPTIONS"),
        (
            "Access-Control-Allow-Headers",
            "Content-Type, Sender, Receiver",
        ),
        ("Access-Control-Allow-Age", "86400"),
    ] {
        if let Some(h) = header(k, v) {
            response = response.with_header(h);
        }
    }
    // The host may have hung up (timeout): nothing to do about it.
    let _ = request.respond(response);
}

fn serve_one(
    mut request: tiny_http::Request,
    player: &Mutex<GgpPlayer>,
    limit: usize,
    verbose: bool,
) {
    let received = Instant::now();
    match request.method() {
        tiny_http::Method::Options => return respond(request, 200, String::new()),
        tiny_http::Method::Post => {}
        m => {
            let body = format!("error: {m} is not supported; POST the message as the body");
            return respond(request, 405, body);
        }
    }
    if request.body_length().is_some_and(|n| n > limit) {
        return respond(request, 413, format!("error: request over {limit} bytes"));
    }
    let mut body = Vec::new();
    let read = request
        .as_reader()
        .take(limit as u64 + 1)
        .read_to_end(&mut body);
    if let Err(e) = read {
        return respond(request, 400, format!("error: reading the request: {e}"));
    }
    if body.len() > limit {
        return respond(request, 413, format!("error: request over {limit} bytes"));
    }
    let Ok(text) = String::from_utf8(body) else {
        return respond(request, 400, "error: the request is not UTF-8".into());
    };
    let reply = {
        let mut p = player.lock().unwrap_or_else(|e| e.into_inner());
        p.handle(&text, received)
    };
    if verbose {
        let shown: String = text.trim().chars().take(100).collect();
        eprintln!(
            "ggp player: {shown} -> {} {} ({:.3} s)",
            reply.status,
            reply.body,
            received.elapsed().as_secs_f64()
        );
    }
    respond(request, reply.status, reply.body);
}

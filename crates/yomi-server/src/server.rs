//! The HTTP routes, the WebSocket loop and the games the server holds for reloads.

use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use futures_util::{SinkExt, StreamExt};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;
use yomi_core::arena::{read_records, GameRecord, RecordLog, Standings};

use crate::assets;
use crate::protocol::{ClientMsg, RecentGame, ServerMsg, StandingRow, MAX_MESSAGE_BYTES};
use crate::session::{Event, Mode, Saved, Session};

/// The most games held for reloads; the oldest are forgotten first.
pub const MAX_HELD_GAMES: usize = 10_000;

/// The records file the server writes finished games to, inside the records directory.
pub const SERVE_RECORDS: &str = "yomi-serve.jsonl";

/// What `yomi serve` was told.
#[derive(Clone, Debug, Default)]
pub struct ServeConfig {
    /// Where game records are listed from (replay, following) and written to.
    pub records: Option<PathBuf>,
}

/// The server's shared state.
pub struct App {
    records: Option<PathBuf>,
    log: Option<RecordLog>,
    held: Mutex<Held>,
    counter: AtomicU64,
    recorded: AtomicU64,
}

#[derive(Default)]
struct Held {
    games: HashMap<String, Saved>,
    order: VecDeque<String>,
}

impl App {
    /// The server state for `config` (opens and locks the records file when a records
    /// directory is given).
    ///
    /// # Errors
    /// When the records directory cannot be made or its file is locked by another run.
    pub fn new(config: ServeConfig) -> anyhow::Result<Arc<App>> {
        let (log, recorded) = match &config.records {
            Some(dir) => {
                std::fs::create_dir_all(dir)?;
                let (log, old) = RecordLog::open(&dir.join(SERVE_RECORDS))?;
                (Some(log), old.len() as u64)
            }
            None => (None, 0),
        };
        Ok(Arc::new(App {
            records: config.records,
            log,
            held: Mutex::new(Held::default()),
            counter: AtomicU64::new(0),
            recorded: AtomicU64::new(recorded),
        }))
    }

    fn new_id(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let mut h = t ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (std::process::id() as u64) << 32;
        h ^= h >> 33;
        h = h.wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        h ^= h >> 33;
        format!("{h:016x}")
    }

    fn hold(&self, id: &str, saved: Saved) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        if held.games.insert(id.to_string(), saved).is_none() {
            held.order.push_back(id.to_string());
            while held.order.len() > MAX_HELD_GAMES {
                if let Some(old) = held.order.pop_front() {
                    held.games.remove(&old);
                }
            }
        }
    }

    fn held(&self, id: &str) -> Option<Saved> {
        let held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.games.get(id).cloned()
    }

    /// A records file of the records directory, by plain name.
    fn records_file(&self, name: &str) -> Result<PathBuf, String> {
        let Some(dir) = &self.records else {
            return Err("the server was started without --records DIR".into());
        };
        let plain = !name.is_empty()
            && name.len() <= 200
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
        if !plain || !name.ends_with(".jsonl") {
            return Err(format!(
                "{name:?} is not a records file name (letters, digits, - _ . ending in .jsonl)"
            ));
        }
        Ok(dir.join(name))
    }
}

/// The router of the web board: the page, its assets, `/api/…` and `/ws`.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/", get(index))
        .route("/assets/{name}", get(asset))
        .route("/api/games", get(api_games))
        .route("/api/game", get(api_game))
        .route("/api/records", get(api_records))
        .route("/ws", get(ws_upgrade))
        .layer(DefaultBodyLimit::max(64 * 1024))
        .with_state(app)
}

/// Binds `host:port` (port 0: any free port) and serves until the process ends.
/// Returns the bound address once listening, and the server's task.
///
/// # Errors
/// When binding fails or the records directory cannot be opened.
pub async fn start(
    host: &str,
    port: u16,
    config: ServeConfig,
) -> anyhow::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let app = App::new(config)?;
    let listener = tokio::net::TcpListener::bind((host, port)).await?;
    let addr = listener.local_addr()?;
    let handle = tokio::spawn(async move {
        let _ = axum::serve(listener, router(app)).await;
    });
    Ok((addr, handle))
}

async fn index() -> Response {
    (
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        assets::INDEX,
    )
        .into_response()
}

async fn asset(axum::extract::Path(name): axum::extract::Path<String>) -> Response {
    match assets::get(&name) {
        Some((mime, body)) => (
            [
                (header::CONTENT_TYPE, mime),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            body,
        )
            .into_response(),
        None => (StatusCode::NOT_FOUND, "no such asset").into_response(),
    }
}

#[derive(Serialize, Clone)]
struct ParamInfo {
    key: String,
    default: String,
    help: String,
}

#[derive(Serialize, Clone)]
struct AgentDesc {
    name: String,
    summary: String,
    params: Vec<ParamInfo>,
}

#[derive(Serialize, Clone)]
struct GameDesc {
    name: String,
    summary: String,
    players: Vec<String>,
    agents: Vec<AgentDesc>,
}

fn describe(name: &str, summary: &str) -> Result<GameDesc, String> {
    let game = yomi_games::load_game(name).map_err(|e| e.to_string())?;
    Ok(GameDesc {
        name: name.to_string(),
        summary: summary.to_string(),
        players: game.facts().player_names.clone(),
        agents: game
            .agents()
            .into_iter()
            .filter(|a| !a.interactive)
            .map(|a| AgentDesc {
                name: a.name,
                summary: a.summary,
                params: a
                    .params
                    .iter()
                    .map(|p| ParamInfo {
                        key: p.key.into(),
                        default: p.default.into(),
                        help: p.help.into(),
                    })
                    .collect(),
            })
            .collect(),
    })
}

/// Every game `yomi games` lists (the `WxH` pattern as 6x5), with its agents.
fn games_list() -> &'static Vec<GameDesc> {
    static LIST: OnceLock<Vec<GameDesc>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut out: Vec<GameDesc> = yomi_games::BUILT_IN
            .iter()
            .filter_map(|g| describe(&g.name.replace("WxH", "6x5"), g.summary).ok())
            .collect();
        // Every shipped GDL sheet and every built-in TUBSTAP map, by name.
        for (sheet, _) in yomi_ggp::games::ALL {
            let name = format!("ggp:{sheet}");
            if !out.iter().any(|g| g.name.eq_ignore_ascii_case(&name)) {
                if let Ok(d) = describe(&name, "a shipped GDL rule sheet") {
                    out.push(d);
                }
            }
        }
        for map in yomi_tubstap::maps::names() {
            let name = format!("tubstap:{map}");
            if !out.iter().any(|g| g.name == name) {
                if let Ok(d) = describe(&name, "a built-in TUBSTAP map") {
                    out.push(d);
                }
            }
        }
        out
    })
}

async fn api_games() -> Response {
    let list = tokio::task::spawn_blocking(games_list).await;
    match list {
        Ok(list) => Json(list.clone()).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "cannot list games").into_response(),
    }
}

#[derive(Deserialize)]
struct GameQuery {
    name: String,
}

async fn api_game(Query(q): Query<GameQuery>) -> Response {
    if q.name.len() > 300 {
        return (StatusCode::BAD_REQUEST, "name too long").into_response();
    }
    match tokio::task::spawn_blocking(move || describe(&q.name, "")).await {
        Ok(Ok(d)) => Json(d).into_response(),
        Ok(Err(e)) => (StatusCode::BAD_REQUEST, e).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "failed").into_response(),
    }
}

#[derive(Serialize)]
struct RecordsFile {
    file: String,
    games: usize,
    game: String,
    error: Option<String>,
}

fn list_records(dir: &Path) -> Vec<RecordsFile> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| n.ends_with(".jsonl"))
        .collect();
    names.sort();
    for file in names {
        match read_records(&dir.join(&file)) {
            Ok(r) => out.push(RecordsFile {
                file,
                games: r.len(),
                game: game_names(&r),
                error: None,
            }),
            Err(e) => out.push(RecordsFile {
                file,
                games: 0,
                game: String::new(),
                error: Some(e.to_string()),
            }),
        }
    }
    out
}

fn game_names(records: &[GameRecord]) -> String {
    let mut names: Vec<&str> = records.iter().map(|r| r.game.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names.join(", ")
}

async fn api_records(State(app): State<Arc<App>>) -> Response {
    let Some(dir) = app.records.clone() else {
        return Json(Vec::<RecordsFile>::new()).into_response();
    };
    match tokio::task::spawn_blocking(move || list_records(&dir)).await {
        Ok(list) => Json(list).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "failed").into_response(),
    }
}

async fn ws_upgrade(ws: WebSocketUpgrade, State(app): State<Arc<App>>) -> Response {
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(socket, app))
}

fn to_text(msg: &ServerMsg) -> String {
    serde_json::to_string(msg).unwrap_or_else(|e| {
        format!("{{\"type\":\"error\",\"reason\":\"cannot encode a reply: {e}\"}}")
    })
}

/// One page's connection: its messages, its agents' moves, its followed file.
async fn connection(socket: WebSocket, app: Arc<App>) {
    let (mut sink, mut stream) = socket.split();
    let (tx, mut rx) = mpsc::unbounded_channel::<Event>();
    let mut conn = Conn {
        app,
        session: None,
        follow: None,
        tx,
    };
    let hello = ServerMsg::Hello {
        version: env!("CARGO_PKG_VERSION").into(),
    };
    if sink
        .send(Message::Text(to_text(&hello).into()))
        .await
        .is_err()
    {
        return;
    }
    loop {
        let replies = tokio::select! {
            incoming = stream.next() => match incoming {
                None | Some(Err(_)) => break,
                Some(Ok(Message::Text(text))) => conn.on_text(text.as_str()).await,
                Some(Ok(Message::Binary(_))) => vec![ServerMsg::Error {
                    reason: "binary messages are not understood; send JSON text".into(),
                }],
                Some(Ok(Message::Close(_))) => break,
                Some(Ok(_)) => Vec::new(),
            },
            event = rx.recv() => match event {
                None => break,
                Some(e) => conn.on_event(e),
            },
        };
        for msg in replies {
            if sink
                .send(Message::Text(to_text(&msg).into()))
                .await
                .is_err()
            {
                return;
            }
        }
    }
    if let Some(f) = conn.follow.take() {
        f.abort();
    }
}

struct Conn {
    app: Arc<App>,
    session: Option<Session>,
    follow: Option<tokio::task::JoinHandle<()>>,
    tx: mpsc::UnboundedSender<Event>,
}

fn err(reason: impl Into<String>) -> Vec<ServerMsg> {
    vec![ServerMsg::Error {
        reason: reason.into(),
    }]
}

impl Conn {
    async fn on_text(&mut self, text: &str) -> Vec<ServerMsg> {
        let msg: ClientMsg = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => return err(format!("bad message: {e}")),
        };
        match msg {
            ClientMsg::Ping { t } => vec![ServerMsg::Pong { t }],
            ClientMsg::New {
                game,
                seats,
                seed,
                moves,
                delay_ms,
            } => {
                let saved = Saved {
                    game,
                    seats,
                    seed,
                    delay_ms,
                    moves,
                };
                let id = self.app.new_id();
                self.open(id, saved, Mode::Play).await
            }
            ClientMsg::Resume { id } => match self.app.held(&id) {
                Some(saved) => self.open(id, saved, Mode::Play).await,
                None => err(format!(
                    "no game {id:?} on this server (it was restarted or the id is wrong)"
                )),
            },
            ClientMsg::Replay {
                file,
                index,
                record,
            } => {
                let record = match (file, record) {
                    (_, Some(r)) => *r,
                    (Some(file), None) => match read_record(self.app.clone(), file, index).await {
                        Ok(r) => r,
                        Err(e) => return err(e),
                    },
                    (None, None) => {
                        return err("replay needs \"file\" (and \"index\") or \"record\"")
                    }
                };
                let saved = Saved {
                    game: record.game.clone(),
                    seats: record.seats.clone(),
                    seed: record.seed,
                    delay_ms: 0,
                    moves: record.moves.clone(),
                };
                let id = format!("replay-{}", self.app.new_id());
                let out = self.open(id, saved, Mode::Replay).await;
                if let Some(s) = &mut self.session {
                    s.seek(0).ok();
                    return vec![ServerMsg::State(Box::new(s.state_msg()))];
                }
                out
            }
            ClientMsg::Move { text, player } => {
                let Some(s) = &mut self.session else {
                    return err("no game: start one first");
                };
                if text.len() > 1000 {
                    return err("a move of more than 1000 characters");
                }
                match s.human_move(&text, player) {
                    Ok(()) => {
                        s.follow_latest();
                        s.stop_analysis();
                        self.after_change()
                    }
                    Err(e) => err(format!("{text:?} refused: {e}")),
                }
            }
            ClientMsg::Seek { ply } => {
                let Some(s) = &mut self.session else {
                    return err("no game");
                };
                match s.seek(ply) {
                    Ok(()) => {
                        s.stop_analysis();
                        vec![ServerMsg::State(Box::new(s.state_msg()))]
                    }
                    Err(e) => err(e),
                }
            }
            ClientMsg::Analyse { agent, player } => {
                let Some(s) = &mut self.session else {
                    return err("no game");
                };
                if agent.as_ref().is_some_and(|a| a.len() > 500) {
                    return err("agent spec too long");
                }
                match s.analyse(agent, player, &self.tx) {
                    Ok(()) => Vec::new(),
                    Err(e) => err(e),
                }
            }
            ClientMsg::Stop => {
                let stopped = self.session.as_mut().is_some_and(|s| s.stop_analysis());
                if stopped {
                    Vec::new()
                } else {
                    err("no analysis is running")
                }
            }
            ClientMsg::Pause { paused } => {
                let Some(s) = &mut self.session else {
                    return err("no game");
                };
                s.paused = paused;
                s.kick(&self.tx);
                vec![ServerMsg::State(Box::new(s.state_msg()))]
            }
            ClientMsg::Follow { file } => {
                let path = match self.app.records_file(&file) {
                    Ok(p) => p,
                    Err(e) => return err(e),
                };
                if let Some(f) = self.follow.take() {
                    f.abort();
                }
                self.follow = Some(tokio::spawn(follow(file, path, self.tx.clone())));
                Vec::new()
            }
            ClientMsg::Unfollow => {
                if let Some(f) = self.follow.take() {
                    f.abort();
                }
                Vec::new()
            }
        }
    }
}

async fn read_record(
    app: Arc<App>,
    file: String,
    index: Option<usize>,
) -> Result<GameRecord, String> {
    {
        let path = app.records_file(&file)?;
        let records = tokio::task::spawn_blocking(move || read_records(&path))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        let n = records.len();
        let i = index.unwrap_or(n.saturating_sub(1));
        records
            .into_iter()
            .nth(i)
            .ok_or_else(|| format!("{file} has {n} records; no record {i}"))
    }
}

impl Conn {
    /// Builds a session (replaying its moves on the blocking pool) and starts it.
    async fn open(&mut self, id: String, saved: Saved, mode: Mode) -> Vec<ServerMsg> {
        let generation = self.session.as_ref().map_or(0, |s| s.generation + 1);
        let seed = saved.seed;
        let sid = id.clone();
        let built =
            tokio::task::spawn_blocking(move || Session::new(sid, &saved, mode, seed)).await;
        let mut s = match built {
            Ok(Ok(s)) => s,
            Ok(Err(e)) => return err(e),
            Err(_) => return err("the game could not be built"),
        };
        s.generation = generation;
        // The old game (if any) is replaced only once the new one is built.
        if let Some(mut old) = self.session.take() {
            old.stop_analysis();
        }
        if mode == Mode::Play {
            self.app.hold(&id, s.saved());
        }
        self.session = Some(s);
        self.after_change()
    }

    /// After the position changed: hold the game, write its record at the end, start the
    /// agents due, and send the position.
    fn after_change(&mut self) -> Vec<ServerMsg> {
        let Some(s) = &mut self.session else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if s.mode == Mode::Play {
            self.app.hold(&s.id, s.saved());
            if let Some(log) = &self.app.log {
                let index = self.app.recorded.load(Ordering::Relaxed) as usize;
                if let Some(record) = s.record(index) {
                    self.app.recorded.fetch_add(1, Ordering::Relaxed);
                    if let Err(e) = log.append(&record) {
                        out.push(ServerMsg::Error {
                            reason: format!("cannot write the game's record: {e}"),
                        });
                    }
                }
            }
        }
        s.kick(&self.tx);
        out.insert(0, ServerMsg::State(Box::new(s.state_msg())));
        out
    }

    fn on_event(&mut self, event: Event) -> Vec<ServerMsg> {
        match event {
            Event::Send(msg) => {
                // Analysis of an older position or game is dropped.
                if let ServerMsg::Analysis { id, done, .. } = &msg {
                    let current = self.session.as_ref().is_some_and(|s| &s.id == id);
                    if !current {
                        return Vec::new();
                    }
                    if *done {
                        if let Some(s) = &mut self.session {
                            s.analysis = None;
                        }
                    }
                }
                vec![msg]
            }
            Event::Agents {
                generation,
                results,
            } => {
                let Some(s) = &mut self.session else {
                    return Vec::new();
                };
                match s.agents_done(generation, results) {
                    Ok(true) => self.after_change(),
                    Ok(false) => Vec::new(),
                    Err(e) => {
                        let mut out = err(e);
                        out.push(ServerMsg::State(Box::new(s.state_msg())));
                        out
                    }
                }
            }
        }
    }
}

/// Sends the standings of `path` whenever it changes, until aborted.
async fn follow(file: String, path: PathBuf, tx: mpsc::UnboundedSender<Event>) {
    let mut last: Option<(u64, std::time::SystemTime)> = None;
    loop {
        let meta = tokio::fs::metadata(&path).await.ok();
        let stamp = meta.map(|m| (m.len(), m.modified().unwrap_or(std::time::UNIX_EPOCH)));
        if stamp != last {
            last = stamp;
            let p = path.clone();
            let read = tokio::task::spawn_blocking(move || read_records(&p)).await;
            let msg = match read {
                Ok(Ok(records)) => standings_msg(&file, &records),
                Ok(Err(e)) => ServerMsg::Error {
                    reason: e.to_string(),
                },
                Err(_) => return,
            };
            if tx.send(Event::Send(msg)).is_err() {
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

fn standings_msg(file: &str, records: &[GameRecord]) -> ServerMsg {
    let mut agents: Vec<String> = Vec::new();
    for r in records {
        for s in &r.seats {
            if !agents.contains(s) {
                agents.push(s.clone());
            }
        }
    }
    let standings = Standings::from_records(&agents, records);
    let start = records.len().saturating_sub(10);
    ServerMsg::Standings {
        file: file.to_string(),
        games: records.len(),
        game: game_names(records),
        rows: standings.rows.iter().map(StandingRow::from).collect(),
        recent: records[start..]
            .iter()
            .enumerate()
            .map(|(i, r)| RecentGame {
                index: start + i,
                seats: r.seats.clone(),
                returns: r.returns.clone(),
                moves: r.moves.len(),
            })
            .collect(),
    }
}

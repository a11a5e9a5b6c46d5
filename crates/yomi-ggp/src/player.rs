//! A GGP player: answers the match protocol ([`crate::protocol`]) over HTTP, playing with
//! any agent of the registry (MCTS on the core search by default).
//!
//! - [`GgpPlayer`] is the protocol state machine, independent of HTTP: one text message in,
//!   one [`Reply`] out ([`GgpPlayer::handle`], async). It holds any number of matches (up
//!   to [`PlayerConfig::max_matches`]), each behind its own lock, and no lock is held
//!   while rules compile or a search runs: both run on threads of their own, and the
//!   request only waits for them with a deadline.
//! - `start` checks the clocks (finite, at most [`PlayerConfig::max_clock`] seconds: a
//!   clear `400` otherwise), then compiles the rules on a thread and answers `ready` when
//!   they are compiled or when the start clock (minus the margin) runs out, whichever comes
//!   first; a sheet that is still compiling then keeps compiling, and `play` requests meanwhile
//!   get a random legal move from the lazy evaluator ([`crate::lazy`], which evaluates the
//!   rules state by state without grounding them: milliseconds a move where grounding
//!   takes a minute), or from the reference prover ([`crate::prover`]) for games the lazy
//!   evaluator cannot evaluate, when one is found in time; else an error reply before the
//!   deadline (the host substitutes a move, as for any bad reply).
//! - Playout trial ([`PlayerConfig::trial`], [`crate::trial`]): once the rules are compiled,
//!   a plain `mcts` agent's playout policy is chosen by self-play games between the
//!   candidates (uniform and NST by default) on the start clock left, when that is at least
//!   [`MIN_TRIAL_SECONDS`]; `ready` goes out when the trial ends, shortly before the start
//!   clock (less the margin) runs out.
//! - `play` tracks the state from the joint moves, searches on its own thread until the
//!   play clock minus the margin, and always answers before that deadline: with the
//!   search's move; or, when the search has not returned shortly before the deadline (its
//!   time budget runs on the wall clock, and a starved thread may have used little of it),
//!   with its best move so far, after stopping it ([`yomi_core::search::StopSignal`]); or,
//!   when its thread gets no CPU to answer even that, with the best move the search last
//!   published on the signal (an MCTS search publishes its most visited root move every
//!   few hundred iterations); or a random legal move when nothing was published, the
//!   search failed, or an earlier search still holds the agent (a late search hands the
//!   agent back when it ends, at once since it was stopped).
//! - Pondering ([`PlayerConfig::ponder`]): when this role's move is forced (the other
//!   role's turn in a turn-taking game), the `noop` goes back at once and the agent
//!   searches the other role's position on the opponent's time, until the next message
//!   stops it; the moves played meanwhile are told to the agent when it comes back, so
//!   that the tree it grew is kept for the next move (an MCTS agent keeps the subtree
//!   under the moves played).
//! - [`PlayerServer`] serves it over HTTP (see [`crate::server`] for the limits and
//!   timeouts).

use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;
use yomi_core::agent::{Agent, Played, Selected};
use yomi_core::search::StopSignal;
use yomi_core::spec::AgentSpec;
use yomi_core::{Game, Player, Rng, Turn};

use crate::game::{GdlGame, GdlMove};
use crate::parse::{parse_ground_term, read_sexprs};
use crate::protocol::Message;
use crate::prover::{Prover, ProverState};
use crate::reasoner::GdlState;
use crate::trial::{run_trials, TrialConfig, TrialOutcome};
use crate::validate::Description;

pub use crate::server::{BindError, PlayerServer};

/// The largest clock accepted by default, in seconds (an hour per move is far beyond any
/// tournament's clocks; larger values are refused with a clear error).
pub const MAX_CLOCK: f64 = 3600.0;

/// The largest clock accepted whatever [`PlayerConfig::max_clock`] says, in seconds (about
/// 11.6 days): deadlines are instants a clock after a request, and far larger clocks
/// overflow them (`1e20` s panicked in `Duration::from_secs_f64`).
pub const CLOCK_CEILING: f64 = 1e6;

/// Start-clock seconds (left after compiling, less the margin) below which no playout
/// trial is run: too few games to choose by.
pub const MIN_TRIAL_SECONDS: f64 = 3.0;

/// The most seconds a playout trial takes, however long the start clock.
pub const MAX_TRIAL_SECONDS: f64 = 60.0;

/// Settings of a player.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// The name reported to `(info)`.
    pub name: String,
    /// The agent spec (`mcts`, `mcts:playout=mast`, `random`, ...). For `mcts` the player
    /// sets `time` to the play clock minus the margin (a smaller `time` given here is kept),
    /// unless `iters` is given lifts the iteration limit, and unless `solver` is given
    /// proves subtrees (`solver=true`: decided positions are not played out again and a
    /// proven win is played; it changes nothing in simultaneous-move positions).
    pub agent: String,
    /// Search on the opponent's time: after a forced move (see the [module docs](self)).
    pub ponder: bool,
    /// Safety margin in seconds kept free on both clocks (at most half the clock is used
    /// as margin, so tiny clocks still leave time to think).
    pub margin: f64,
    /// Seed of the agent and of the fallback moves (each match derives its own).
    pub seed: u64,
    /// Largest request body accepted, in bytes (larger: `413`, without reading it).
    pub max_request_bytes: usize,
    /// Largest request head (request line and headers) accepted, in bytes (at least
    /// 8 KiB; larger: `431` and the connection is closed).
    pub max_header_bytes: usize,
    /// Seconds a client has to send the whole request head, from connecting.
    pub header_timeout: Duration,
    /// Seconds a client has to send the whole body once the head is in.
    pub body_timeout: Duration,
    /// Connections served at once; more are closed at once (slow clients are dropped by
    /// the timeouts above, so they hold a place for a bounded time).
    pub max_connections: usize,
    /// The largest start or play clock accepted, in seconds (at most [`CLOCK_CEILING`]:
    /// a larger value, infinity or NaN, counts as the ceiling).
    pub max_clock: f64,
    /// Matches held at once (a `start` beyond them answers `busy`; matches idle for longer
    /// than their clocks allow are forgotten first).
    pub max_matches: usize,
    /// Time the compiler waits once the rules are read and checked, before it grounds
    /// them (default none). It stands in for a slow machine or a huge sheet: tests and
    /// demonstrations use it to exercise moves while compiling on any machine.
    pub compile_delay: Duration,
    /// The playout policies tried at the start clock when the agent is a plain `mcts`
    /// (see [`crate::trial`]): the start clock left after compiling, less the margin, at
    /// most [`MAX_TRIAL_SECONDS`], goes to self-play games between them when it is at
    /// least [`MIN_TRIAL_SECONDS`] (so short start clocks answer `ready` at once). No
    /// candidates: no trial, the agent's spec as given.
    pub trial: TrialConfig,
    /// Print on stderr how each match's trial went.
    pub verbose: bool,
}

impl Default for PlayerConfig {
    fn default() -> Self {
        PlayerConfig {
            name: "yomi".into(),
            agent: "mcts".into(),
            ponder: true,
            margin: 0.5,
            seed: yomi_core::rng::DEFAULT_SEED,
            max_request_bytes: 8 << 20,
            max_header_bytes: 64 << 10,
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(30),
            max_connections: 256,
            max_clock: MAX_CLOCK,
            max_matches: 4,
            compile_delay: Duration::ZERO,
            trial: TrialConfig::default(),
            verbose: false,
        }
    }
}

impl PlayerConfig {
    /// The largest clock accepted: [`PlayerConfig::max_clock`], at most [`CLOCK_CEILING`]
    /// (NaN counts as the ceiling, a negative value as 0).
    pub fn clock_limit(&self) -> f64 {
        if self.max_clock.is_nan() {
            CLOCK_CEILING
        } else {
            self.max_clock.clamp(0.0, CLOCK_CEILING)
        }
    }
}

/// A reply: HTTP status and body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// 200 for protocol answers, 4xx for requests that could not be read, 503 for a move
    /// the player could not find in time.
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

/// A compiled match.
struct Compiled {
    game: GdlGame,
    role: usize,
    state: GdlState,
    /// `None` while a search has it.
    agent: Option<BoxAgent>,
    /// The joint moves played while a search had the agent (the state before each), told
    /// to the agent when it is back ([`tell_agent`]), so that it keeps its tree.
    unseen: Vec<(GdlState, Vec<GdlMove>)>,
    /// The stop signal of the latest search (raised once its move was sent or given up,
    /// and when the match ends: a search still running is of no use then).
    search_stop: StopSignal,
    rng: Rng,
}

/// Where a match's rules are.
enum Phase {
    /// Rules still compiling: the joint moves so far, and once read and checked, the
    /// description for the moves sent meanwhile (with the source of those moves once
    /// built, at the latest state it reached).
    Compiling {
        moves: Vec<Vec<String>>,
        desc: Option<Arc<Description>>,
        quick: Option<Quick>,
    },
    Ready(Box<Compiled>),
    /// The rules could not be compiled (after `ready` went out).
    Failed(String),
}

/// Where moves come from while the rules compile, and the state it has reached (after
/// the first `done` joint moves).
#[derive(Clone)]
enum Quick {
    /// The lazy evaluator ([`GdlGame::new_fallback`]): built in moments for any game it
    /// can evaluate, and far faster than the prover (it evaluates only what a query needs,
    /// with indexed joins, and static relations once).
    Lazy {
        game: GdlGame,
        done: usize,
        state: GdlState,
    },
    /// The reference prover, for games the lazy evaluator refuses (negation stratified
    /// only between ground atoms, static relations over its limits).
    Prover { done: usize, state: ProverState },
}

impl Quick {
    fn done(&self) -> usize {
        match self {
            Quick::Lazy { done, .. } | Quick::Prover { done, .. } => *done,
        }
    }
}

/// One match in progress.
struct Slot {
    role: String,
    start_clock: f64,
    play_clock: f64,
    phase: Phase,
    last_seen: Instant,
    /// A thread is looking for a move while the rules compile (at most one at a time).
    finding_quick_move: bool,
}

impl Slot {
    /// Whether the match may be forgotten: no message for longer than its clocks allow.
    fn stale(&self, now: Instant) -> bool {
        let patience = (self.start_clock + 4.0 * self.play_clock).max(60.0);
        now.saturating_duration_since(self.last_seen) > Duration::from_secs_f64(patience)
    }
}

/// What the player did on its last moves, for logs and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Moves chosen by the agent in time, its search complete.
    pub searched: u64,
    /// Moves chosen by the agent whose search was stopped shortly before the deadline
    /// because it had not ended: its best move so far.
    pub stopped_early: u64,
    /// Moves that were the only legal move.
    pub forced: u64,
    /// Moves taken from what the search had published as its best so far
    /// ([`yomi_core::search::StopSignal::best_so_far`]), because its thread did not answer
    /// the stop in time (it got no CPU in the hand-over window).
    pub published: u64,
    /// Random legal moves sent because the search had no move even when stopped (no
    /// visit yet and nothing published, or its thread did not answer the stop in time),
    /// failed, or was still busy with an earlier move.
    pub fallbacks: u64,
    /// Moves sent while the rules were still compiling (from the lazy evaluator or the
    /// prover), or error replies sent before the deadline because no move was found in
    /// time.
    pub compiling: u64,
    /// Searches started on the opponent's time after a forced move (pondering).
    pub pondered: u64,
    /// Matches started.
    pub matches: u64,
    /// Matches whose playout policy trial games chose ([`PlayerConfig::trial`]).
    pub trials: u64,
    /// Trials that chose another candidate than the first.
    pub trial_switches: u64,
}

/// The protocol state machine of a player. See the [module docs](self).
pub struct GgpPlayer {
    config: PlayerConfig,
    matches: Mutex<HashMap<String, Arc<Mutex<Slot>>>>,
    stats: Mutex<PlayerStats>,
    /// Compilations running (they go on after their match ends; bounded).
    compiling: Arc<AtomicUsize>,
}

/// The most compilations running at once (a `start` beyond them answers `busy`).
const MAX_COMPILES: usize = 2;

/// Start-clock time kept after a playout trial for building the agent and answering.
const TRIAL_RESERVE: Duration = Duration::from_millis(300);

/// Stack of the compile and search threads (grounding is iterative, but rule terms and
/// the search may still recurse a little).
const WORKER_STACK: usize = 16 << 20;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl GgpPlayer {
    /// A player with no match.
    pub fn new(config: PlayerConfig) -> Self {
        GgpPlayer {
            config,
            matches: Mutex::new(HashMap::new()),
            stats: Mutex::new(PlayerStats::default()),
            compiling: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// The settings.
    pub fn config(&self) -> &PlayerConfig {
        &self.config
    }

    /// The counters so far.
    pub fn stats(&self) -> PlayerStats {
        *lock(&self.stats)
    }

    /// Counts a finished playout trial and prints it when verbose.
    fn count_trial(&self, id: &str, outcome: &TrialOutcome) {
        let switched = self
            .config
            .trial
            .candidates
            .first()
            .is_some_and(|first| *first != outcome.chosen);
        self.count(|s| {
            s.trials += 1;
            s.trial_switches += u64::from(switched);
        });
        if self.config.verbose {
            eprintln!("ggp player: match {id}: {outcome}");
        }
    }

    fn count(&self, f: impl FnOnce(&mut PlayerStats)) {
        f(&mut lock(&self.stats));
    }

    /// The margin kept free on a clock of `clock` seconds.
    fn margin(&self, clock: f64) -> f64 {
        self.config.margin.min(clock * 0.5).max(0.0)
    }

    /// Seconds of a clock the player may use before it must have answered.
    fn usable(&self, clock: f64) -> f64 {
        (clock - self.margin(clock)).max(0.01)
    }

    fn slot(&self, id: &str) -> Option<Arc<Mutex<Slot>>> {
        lock(&self.matches).get(id).cloned()
    }

    /// Handles one message, received at `received` (the clocks run from then). Never
    /// answers a `start` after its start clock or a `play` after its play clock (each
    /// less the margin), whatever the rules or the agent do.
    pub async fn handle(self: &Arc<Self>, text: String, received: Instant) -> Reply {
        // A start message may carry megabytes of rules: read it off the async threads.
        let parsed = tokio::task::spawn_blocking(move || text.parse::<Message>()).await;
        let msg = match parsed {
            Ok(Ok(m)) => m,
            Ok(Err(e)) => return Reply::bad(format!("error: {e}")),
            Err(_) => return Reply::bad("error: the message could not be read"),
        };
        match msg {
            Message::Info => Reply::ok(format!(
                "((name {}) (status {}))",
                self.config.name,
                if lock(&self.matches).is_empty() {
                    "available"
                } else {
                    "busy"
                }
            )),
            Message::Preview { .. } => Reply::ok("ready"),
            Message::Start {
                id,
                role,
                rules,
                start_clock,
                play_clock,
            } => {
                self.start(id, role, rules, start_clock, play_clock, received)
                    .await
            }
            Message::Play { id, moves } => self.play(&id, moves, received).await,
            Message::Stop { id, moves } => {
                let Some(slot) = lock(&self.matches).remove(&id) else {
                    return Reply::ok("busy");
                };
                if let Phase::Ready(m) = &mut lock(&slot).phase {
                    m.search_stop.stop();
                    if let Some(moves) = moves {
                        // The final state is not needed; a bad joint move is ignored here.
                        let _ = advance(m, &moves);
                    }
                }
                Reply::ok("done")
            }
            Message::Abort { id } => match lock(&self.matches).remove(&id) {
                Some(slot) => {
                    if let Phase::Ready(m) = &lock(&slot).phase {
                        m.search_stop.stop();
                    }
                    Reply::ok("aborted")
                }
                None => Reply::ok("busy"),
            },
        }
    }

    async fn start(
        self: &Arc<Self>,
        id: String,
        role: String,
        rules: String,
        start_clock: f64,
        play_clock: f64,
        received: Instant,
    ) -> Reply {
        let max = self.config.clock_limit();
        for (name, c) in [("start clock", start_clock), ("play clock", play_clock)] {
            if !(c.is_finite() && c > 0.0 && c <= max) {
                return Reply::bad(format!(
                    "error: {name} {c} s is out of range: this player accepts clocks of \
                     more than 0 and at most {max} s"
                ));
            }
        }
        let slot = {
            let mut ms = lock(&self.matches);
            if ms.contains_key(&id) {
                // The same start again (a retry): the match is set up or being set up.
                return Reply::ok("ready");
            }
            let now = Instant::now();
            ms.retain(|_, s| !lock(s).stale(now));
            if ms.len() >= self.config.max_matches.max(1) {
                return Reply::ok("busy");
            }
            if self
                .compiling
                .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                    (n < MAX_COMPILES).then_some(n + 1)
                })
                .is_err()
            {
                return Reply::ok("busy");
            }
            let slot = Arc::new(Mutex::new(Slot {
                role: role.clone(),
                start_clock,
                play_clock,
                phase: Phase::Compiling {
                    moves: Vec::new(),
                    desc: None,
                    quick: None,
                },
                last_seen: now,
                finding_quick_move: false,
            }));
            ms.insert(id.clone(), slot.clone());
            slot
        };
        let seed = {
            let mut st = lock(&self.stats);
            st.matches += 1;
            yomi_core::rng::derive_seed(self.config.seed, st.matches - 1)
        };
        let search_time = search_time(self.usable(play_clock));
        let deadline = received + Duration::from_secs_f64(self.usable(start_clock));
        // The trial ends early enough for the agent to be built and `ready` to go out.
        let trial_until = deadline.checked_sub(TRIAL_RESERVE).unwrap_or(deadline);
        let config = self.config.clone();
        let player = self.clone();
        // The trial stops between games once the match is stopped or aborted.
        let (watcher, watched) = (self.clone(), slot.clone());
        let wanted = move || {
            lock(&watcher.matches)
                .values()
                .any(|s| Arc::ptr_eq(s, &watched))
        };
        let (tx, rx) = oneshot::channel::<Result<(), String>>();
        let compiling = self.compiling.clone();
        let job_slot = slot.clone();
        let spawned = std::thread::Builder::new()
            .name("ggp-compile".into())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                struct Done(Arc<AtomicUsize>);
                impl Drop for Done {
                    fn drop(&mut self) {
                        self.0.fetch_sub(1, Ordering::SeqCst);
                    }
                }
                let done = Done(compiling);
                let result = compile(
                    &job_slot,
                    &id,
                    &role,
                    &rules,
                    &config,
                    search_time,
                    trial_until,
                    &wanted,
                    seed,
                );
                match &result {
                    Err(e) => lock(&job_slot).phase = Phase::Failed(e.clone()),
                    Ok(Some(outcome)) => player.count_trial(&id, outcome),
                    Ok(None) => {}
                }
                let result = result.map(|_| ());
                // Counted off before the reply goes out, so the next start finds the place.
                drop(done);
                let _ = tx.send(result);
            });
        if spawned.is_err() {
            self.compiling.fetch_sub(1, Ordering::SeqCst);
            return Reply::bad("error: cannot start compiling the rules");
        }
        match tokio::time::timeout_at(deadline.into(), rx).await {
            Ok(Ok(Ok(()))) => Reply::ok("ready"),
            Ok(Ok(Err(e))) => {
                self.forget(&slot);
                Reply::bad(e)
            }
            Ok(Err(_)) => {
                self.forget(&slot);
                Reply::bad("error: compiling the rules failed")
            }
            // Still compiling: answer in time and keep compiling; moves meanwhile come
            // from the lazy evaluator or the prover.
            Err(_) => Reply::ok("ready"),
        }
    }

    /// Removes the match held in `slot`.
    fn forget(&self, slot: &Arc<Mutex<Slot>>) {
        lock(&self.matches).retain(|_, s| !Arc::ptr_eq(s, slot));
    }

    async fn play(
        self: &Arc<Self>,
        id: &str,
        moves: Option<Vec<String>>,
        received: Instant,
    ) -> Reply {
        let Some(slot) = self.slot(id) else {
            return Reply::ok("busy");
        };
        let (job, deadline, stop_at) = {
            let mut sl = lock(&slot);
            sl.last_seen = Instant::now();
            let think = self.usable(sl.play_clock);
            let deadline = received + Duration::from_secs_f64(think);
            // A search that has not returned a quarter of the way from the end of its own
            // budget to the deadline is stopped, leaving the other three quarters for its
            // thread to notice and hand over its best move so far.
            let slack = (think - search_time(think)).max(0.0);
            let stop_at = deadline - Duration::from_secs_f64(slack * 0.75);
            let job = match &mut sl.phase {
                Phase::Failed(e) => return Reply::bad(e.clone()),
                Phase::Compiling { moves: log, .. } => {
                    if let Some(m) = moves {
                        log.push(m);
                    }
                    Job::Prove
                }
                Phase::Ready(m) => {
                    if let Some(moves) = moves {
                        if let Err(e) = advance(m, &moves) {
                            return Reply::bad(format!("error: {e}"));
                        }
                    }
                    let r = m.game.reasoner();
                    let mut legal = Vec::new();
                    r.legal_into(&m.state, m.role, &mut legal);
                    if legal.is_empty() {
                        return Reply::bad(
                            "error: the game is over or this role has no legal move",
                        );
                    }
                    if legal.len() == 1 {
                        self.count(|s| s.forced += 1);
                        let reply = Reply::ok(r.action_text(legal[0]).to_string());
                        if self.config.ponder {
                            match take_agent(m) {
                                // The answer is not awaited: the next message stops the
                                // search and takes the agent, with its tree, back.
                                Some(agent) => {
                                    drop(spawn_search(&slot, m, agent));
                                    self.count(|s| s.pondered += 1);
                                }
                                // An earlier search (pondering an older position) still has
                                // it: of no use any more.
                                None => m.search_stop.stop(),
                            }
                        }
                        return reply;
                    }
                    let fallback = legal[m.rng.below(legal.len())];
                    let search = match take_agent(m) {
                        Some(agent) => Some(spawn_search(&slot, m, agent)),
                        None => {
                            // An earlier search still has the agent: it was stopped when
                            // its move went out, so it hands the agent back within an
                            // iteration once its thread runs. Raised again in case.
                            m.search_stop.stop();
                            None
                        }
                    };
                    Job::Search {
                        search,
                        game: m.game.clone(),
                        state: m.state.clone(),
                        role: m.role,
                        fallback,
                    }
                }
            };
            (job, deadline, stop_at)
        };
        match job {
            Job::Search {
                search,
                game,
                state,
                role,
                fallback,
            } => {
                let search = match search {
                    Some(search) => Some(search),
                    None => wait_for_agent(&slot, &state, stop_at).await,
                };
                let Some((mut rx, stop)) = search else {
                    // The earlier search did not hand the agent back in time.
                    self.count(|s| s.fallbacks += 1);
                    return Reply::ok(game.reasoner().action_text(fallback).to_string());
                };
                let answer = match tokio::time::timeout_at(stop_at.into(), &mut rx).await {
                    Ok(answer) => answer.ok().flatten(),
                    Err(_) => {
                        stop.stop();
                        tokio::time::timeout_at(deadline.into(), rx)
                            .await
                            .ok()
                            .and_then(Result::ok)
                            .flatten()
                    }
                };
                // Whatever happened, a search still running is of no use any more: stopped,
                // it hands the agent back for the next move at once.
                stop.stop();
                let chosen = match answer {
                    Some(sel) if game.reasoner().is_legal(&state, role, sel.mv.0) => {
                        if sel.stopped_early {
                            self.count(|s| s.stopped_early += 1);
                        } else {
                            self.count(|s| s.searched += 1);
                        }
                        sel.mv.0
                    }
                    // The search thread did not answer: take what it published last.
                    _ => match published_move(&game, &state, role, &stop) {
                        Some(mv) => {
                            self.count(|s| s.published += 1);
                            mv
                        }
                        None => {
                            self.count(|s| s.fallbacks += 1);
                            fallback
                        }
                    },
                };
                Reply::ok(game.reasoner().action_text(chosen).to_string())
            }
            Job::Prove => {
                self.count(|s| s.compiling += 1);
                // The rules are read and checked within moments of `start`; wait for that
                // (never past the deadline), then look for a move in a thread of its own.
                let job = loop {
                    {
                        let mut sl = lock(&slot);
                        if sl.finding_quick_move {
                            break None; // an earlier one is still at it
                        }
                        let sl = &mut *sl;
                        match &sl.phase {
                            Phase::Compiling {
                                moves,
                                desc: Some(d),
                                quick,
                            } => {
                                let job =
                                    (d.clone(), moves.clone(), quick.clone(), sl.role.clone());
                                sl.finding_quick_move = true;
                                break Some(job);
                            }
                            Phase::Compiling { desc: None, .. } => {}
                            _ => break None,
                        }
                    }
                    if Instant::now() + Duration::from_millis(20) >= deadline {
                        break None;
                    }
                    tokio::time::sleep(Duration::from_millis(10)).await;
                };
                let Some((desc, moves, from, role)) = job else {
                    return not_yet();
                };
                let (tx, rx) = oneshot::channel();
                let job_slot = slot.clone();
                let seed = self.config.seed ^ moves.len() as u64;
                let spawned = std::thread::Builder::new()
                    .name("ggp-quick-move".into())
                    .stack_size(WORKER_STACK)
                    .spawn(move || {
                        let mv = quick_move(&job_slot, &desc, &role, &moves, from, seed);
                        lock(&job_slot).finding_quick_move = false;
                        let _ = tx.send(mv);
                    });
                if spawned.is_err() {
                    lock(&slot).finding_quick_move = false;
                } else {
                    if let Ok(Ok(Some(mv))) = tokio::time::timeout_at(deadline.into(), rx).await {
                        return Reply::ok(mv);
                    }
                }
                not_yet()
            }
        }
    }
}

/// The reply when no move could be found before the deadline (rules still compiling):
/// an error status, so that the host substitutes a move at once.
fn not_yet() -> Reply {
    Reply {
        status: 503,
        body: "error: the rules are still compiling; no move in time".into(),
    }
}

/// What a `play` waits for once the match's lock is released.
enum Job {
    Search {
        /// The search's answer (`None`: no move, e.g. stopped before any visit) and the
        /// signal that stops it; `None` while an earlier search still has the agent.
        search: Option<(SearchAnswer, StopSignal)>,
        game: GdlGame,
        state: GdlState,
        role: usize,
        fallback: u32,
    },
    /// Rules still compiling: a move from the lazy evaluator or the prover, if one is
    /// found in time.
    Prove,
}

/// Compiles the rules of the match in `slot` (on the compile thread) and installs them,
/// replaying the joint moves received meanwhile. With time left before `trial_until`,
/// trial games choose the playout policy first ([`PlayerConfig::trial`]) while `wanted()`
/// says the match is still held; the outcome of the trial, if one ran, is returned.
#[allow(clippy::too_many_arguments)]
fn compile(
    slot: &Arc<Mutex<Slot>>,
    id: &str,
    role: &str,
    rules: &str,
    config: &PlayerConfig,
    search_time: f64,
    trial_until: Instant,
    wanted: &(dyn Fn() -> bool + Sync),
    seed: u64,
) -> Result<Option<TrialOutcome>, String> {
    let desc = Description::from_kif(rules).map_err(|e| format!("error: rules: {e}"))?;
    let role_known = desc
        .roles
        .iter()
        .any(|r| desc.term_text(r).eq_ignore_ascii_case(role.trim()));
    if !role_known {
        return Err(format!("error: {role} is no role of the game"));
    }
    let desc = Arc::new(desc);
    if let Phase::Compiling { desc: d, .. } = &mut lock(slot).phase {
        *d = Some(desc.clone());
    }
    if !config.compile_delay.is_zero() {
        std::thread::sleep(config.compile_delay);
    }
    let game =
        GdlGame::new(&format!("match-{id}"), &desc).map_err(|e| format!("error: rules: {e}"))?;
    let role_index = game
        .role_index(role)
        .ok_or_else(|| format!("error: {role} is no role of the game"))?;
    let trial = trial(&game, config, trial_until, wanted, seed);
    let spec = trial
        .as_ref()
        .and_then(|t| crate::trial::with_playout(&config.agent, &t.chosen))
        .unwrap_or_else(|| config.agent.clone());
    let agent =
        build_agent(&game, &spec, search_time, seed).map_err(|e| format!("error: agent: {e}"))?;
    let mut compiled = Compiled {
        state: game.initial_state(),
        game,
        role: role_index,
        agent: Some(agent),
        unseen: Vec::new(),
        search_stop: StopSignal::new(),
        rng: Rng::seed_from_u64(seed ^ 0x5eed),
    };
    let mut sl = lock(slot);
    if let Phase::Compiling { moves, .. } = &sl.phase {
        for joint in moves {
            advance(&mut compiled, joint).map_err(|e| format!("error: {e}"))?;
        }
    }
    sl.phase = Phase::Ready(Box::new(compiled));
    Ok(trial)
}

/// Runs the playout trial of a freshly compiled match when the start clock leaves time
/// for it (see [`PlayerConfig::trial`]).
fn trial(
    game: &GdlGame,
    config: &PlayerConfig,
    trial_until: Instant,
    wanted: &(dyn Fn() -> bool + Sync),
    seed: u64,
) -> Option<TrialOutcome> {
    let now = Instant::now();
    let left = trial_until.saturating_duration_since(now).as_secs_f64();
    if left < MIN_TRIAL_SECONDS || config.trial.candidates.len() < 2 {
        return None;
    }
    let until = now + Duration::from_secs_f64(left.min(MAX_TRIAL_SECONDS));
    run_trials(
        game,
        &config.agent,
        &config.trial,
        until,
        seed ^ 0x7121,
        |spec, seconds, s| build_agent(game, spec, seconds, s).ok(),
        wanted,
    )
}

/// A random legal move of `role` after `moves` while the rules compile (on a thread of its
/// own): from the lazy evaluator, or from the reference prover when the lazy evaluator
/// refuses the game; `None` when neither finds one (a bad joint move, no legal move, an
/// evaluation over the limits). Starts from `from`, the source and state an earlier call
/// left in the slot, and leaves the state it reached there.
fn quick_move(
    slot: &Arc<Mutex<Slot>>,
    desc: &Description,
    role: &str,
    moves: &[Vec<String>],
    from: Option<Quick>,
    seed: u64,
) -> Option<String> {
    let from = match from {
        Some(q) if q.done() <= moves.len() => q,
        // Built here rather than on the compile thread: the lazy evaluator computes the
        // static relations, which must not delay compiling.
        _ => match GdlGame::new_fallback("compiling", desc) {
            Ok(game) => {
                let state = game.initial_state();
                Quick::Lazy {
                    game,
                    done: 0,
                    state,
                }
            }
            Err(_) => Quick::Prover {
                done: 0,
                state: Prover::new(desc).initial_state().ok()?,
            },
        },
    };
    let mut rng = Rng::seed_from_u64(seed);
    let (reached, mv) = match from {
        Quick::Lazy {
            game,
            mut done,
            mut state,
        } => {
            let r = game.reasoner();
            let role_index = game.role_index(role)?;
            let mut joint = Vec::new();
            for texts in &moves[done..] {
                if texts.len() != r.roles().len() || r.is_terminal(&state) {
                    return None;
                }
                joint.clear();
                for (k, text) in texts.iter().enumerate() {
                    joint.push(game.parse_action(&state, k, text).ok()?);
                }
                r.step(&mut state, &joint);
                done += 1;
            }
            let mut legal = Vec::new();
            if !r.is_terminal(&state) {
                r.legal_into(&state, role_index, &mut legal);
            }
            let mv = (!legal.is_empty()).then(|| r.action_text(legal[rng.below(legal.len())]));
            (Quick::Lazy { game, done, state }, mv)
        }
        Quick::Prover {
            mut done,
            mut state,
        } => {
            let prover = Prover::new(desc);
            let role_term = desc
                .roles
                .iter()
                .find(|r| desc.term_text(r).eq_ignore_ascii_case(role.trim()))?
                .clone();
            for joint in &moves[done..] {
                let mut terms = Vec::with_capacity(joint.len());
                for text in joint {
                    let exprs = read_sexprs(text).ok()?;
                    let [e] = exprs.as_slice() else { return None };
                    terms.push(parse_ground_term(&desc.sheet.symbols, e)?);
                }
                state = prover.next_state(&state, &terms).ok()?;
                done += 1;
            }
            let legal = prover.legal_moves(&state, &role_term).ok()?;
            let mv = (!legal.is_empty()).then(|| desc.term_text(&legal[rng.below(legal.len())]));
            (Quick::Prover { done, state }, mv)
        }
    };
    if let Phase::Compiling { quick, .. } = &mut lock(slot).phase {
        if quick.as_ref().is_none_or(|q| q.done() < reached.done()) {
            *quick = Some(reached);
        }
    }
    mv
}

/// Where the move of a search thread comes back.
type SearchAnswer = oneshot::Receiver<Option<Selected<GdlMove>>>;

/// Starts the agent's search on its own thread, until it ends or the returned signal stops
/// it; the move comes back on the channel, and the agent goes back into the match when the
/// search ends (however late).
fn spawn_search(
    slot: &Arc<Mutex<Slot>>,
    m: &mut Compiled,
    mut agent: BoxAgent,
) -> (SearchAnswer, StopSignal) {
    let (tx, rx) = oneshot::channel();
    let stop = StopSignal::new();
    m.search_stop = stop.clone();
    let search_stop = stop.clone();
    let game = m.game.clone();
    let state = m.state.clone();
    let player = Player(m.role as u8);
    let slot = slot.clone();
    // If the thread cannot start, the sender is dropped with it and the fallback goes out.
    let _ = std::thread::Builder::new()
        .name("ggp-search".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let mv = agent
                .select_move_until(&game, &state, player, &search_stop)
                .ok();
            // The agent goes back before the move goes out: the next PLAY may follow the
            // reply at once, and a thread preempted between the two (all cores busy) would
            // otherwise leave it without an agent.
            if let Phase::Ready(m) = &mut lock(&slot).phase {
                if m.agent.is_none() {
                    m.agent = Some(agent);
                }
            }
            // The receiver may be gone (late): nothing to do then.
            let _ = tx.send(mv);
        });
    (rx, stop)
}

/// Waits (polling every few milliseconds, until `until`) for an earlier search of the
/// match in `slot` to hand the agent back, then starts the search of `state` with it;
/// `None` when the agent is not back in time or the match has moved on meanwhile.
async fn wait_for_agent(
    slot: &Arc<Mutex<Slot>>,
    state: &GdlState,
    until: Instant,
) -> Option<(SearchAnswer, StopSignal)> {
    loop {
        {
            let mut sl = lock(slot);
            let Phase::Ready(m) = &mut sl.phase else {
                return None;
            };
            if m.state != *state {
                return None;
            }
            if let Some(agent) = take_agent(m) {
                return Some(spawn_search(slot, m, agent));
            }
        }
        let now = Instant::now();
        if now >= until {
            return None;
        }
        tokio::time::sleep_until((now + AGENT_POLL).min(until).into()).await;
    }
}

/// The move a search published as its best so far on `stop`, when it is a legal move of
/// `role` in `state`.
fn published_move(game: &GdlGame, state: &GdlState, role: usize, stop: &StopSignal) -> Option<u32> {
    let text = stop.best_so_far()?;
    let mv = game.parse_move(state, &text).ok()?;
    game.reasoner().is_legal(state, role, mv.0).then_some(mv.0)
}

/// How often a PLAY looks whether an earlier search has handed the agent back.
const AGENT_POLL: Duration = Duration::from_millis(2);

/// The search's own time budget when `think` seconds may be used: it stops a little
/// before the hard deadline so that its move, not the fallback, wins the race: 10 % of the
/// thinking time plus 10 ms earlier, at most 0.25 s (the player's margin already covers the
/// network), so a 5 s play clock searches 4.25 s, not 4.04 s (Sancho searches about 4.5 s
/// of it). The tenth is what a search whose iterations are slow (a playout of tens of
/// milliseconds, read against the clock every 64 of them) needs to hand over its move
/// when the player stops it.
fn search_time(think: f64) -> f64 {
    let slack = (think * 0.1 + 0.01).min(0.25);
    (think - slack).max(0.005)
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
        for (key, default) in [("iters", "1000000000000"), ("solver", "true")] {
            if !parsed.params.iter().any(|(k, _)| k == key) {
                parsed.params.push((key.into(), default.into()));
            }
        }
    }
    crate::registry().build(game, &parsed.to_string(), seed)
}

/// Applies the host's joint move (one per role, role order) to the match state and tells
/// the agent (when it is not out searching).
fn advance(m: &mut Compiled, moves: &[String]) -> Result<(), String> {
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
    let before = m.state.clone();
    m.game.reasoner().step(&mut m.state, &joint);
    m.unseen
        .push((before, joint.iter().map(|&a| GdlMove(a)).collect()));
    tell_agent(m);
    Ok(())
}

/// Tells the agent, when the match holds it, the joint moves played since it last heard
/// ([`Compiled::unseen`]), oldest first.
fn tell_agent(m: &mut Compiled) {
    let Some(agent) = &mut m.agent else {
        return;
    };
    for (before, joint) in m.unseen.drain(..) {
        match m.game.turn(&before) {
            Turn::Player(p) => {
                agent.observe(&m.game, &before, Played::Single(p, joint[p.index()]));
            }
            _ => agent.observe(&m.game, &before, Played::Joint(&joint)),
        }
    }
}

/// Takes the agent out of the match for a search, once it has heard every move played.
fn take_agent(m: &mut Compiled) -> Option<BoxAgent> {
    tell_agent(m);
    m.agent.take()
}

#[cfg(test)]
mod ponder_tests {
    use super::*;
    use yomi_core::search::Budget;

    /// A compiled connect four match in which this player is the second role.
    fn second_role_match() -> Compiled {
        let game = crate::games::shipped("connect4").unwrap();
        let agent = build_agent(&game, "mcts:iters=3000", 10.0, 1).unwrap();
        Compiled {
            state: game.initial_state(),
            game,
            role: 1,
            agent: Some(agent),
            unseen: Vec::new(),
            search_stop: StopSignal::new(),
            rng: Rng::seed_from_u64(1),
        }
    }

    /// The host's joint move: the first legal move of the role to play, `noop` (its only
    /// move) for the other.
    fn joint_move(m: &Compiled) -> Vec<String> {
        let r = m.game.reasoner();
        (0..2)
            .map(|role| {
                let mut legal = Vec::new();
                r.legal_into(&m.state, role, &mut legal);
                r.action_text(legal[0]).to_string()
            })
            .collect()
    }

    /// Root visits of the agent's tree at the match state, after one more iteration.
    fn root_visits(m: &mut Compiled) -> u64 {
        let mut agent = take_agent(m).unwrap();
        let a = agent
            .analyse_within(&m.game, &m.state, Player(1), Budget::iterations(1))
            .unwrap();
        m.agent = Some(agent);
        a.moves.iter().map(|mv| mv.visits).sum()
    }

    /// Pondering pays only if the moves played while the agent was out searching reach it
    /// when it is back: then the subtree grown meanwhile is the next search's start.
    #[test]
    fn moves_played_while_the_agent_pondered_reach_it_and_its_tree_is_kept() {
        for told in [true, false] {
            let mut m = second_role_match();
            // The first player's turn: this role's move is forced, the agent ponders.
            let mut agent = take_agent(&mut m).unwrap();
            let stop = StopSignal::new();
            let _ = agent.select_move_until(&m.game, &m.state, Player(1), &stop);
            // Meanwhile the first player's move arrives.
            let joint = joint_move(&m);
            advance(&mut m, &joint).unwrap();
            assert_eq!(
                m.unseen.len(),
                1,
                "the agent was out: the move waits for it"
            );
            if !told {
                m.unseen.clear(); // what the player did before pondering
            }
            m.agent = Some(agent);
            let visits = root_visits(&mut m);
            assert!(m.unseen.is_empty());
            if told {
                // Most of the 3,000 iterations went under the first player's likeliest
                // replies; the first move's share is far above one iteration.
                assert!(visits > 50, "{visits} root visits: the tree was not kept");
            } else {
                assert!(visits <= 1, "{visits}: an untold agent starts afresh");
            }
        }
    }
}

#[cfg(test)]
mod clock_tests {
    use super::search_time;

    /// Short clocks keep a tenth for the hand-over, long ones at most 0.25 s.
    #[test]
    fn the_search_uses_the_clock_but_stops_before_the_deadline() {
        // 0.5 s of thinking (a 1 s clock): 10 % plus 10 ms earlier, as before.
        assert!((search_time(0.5) - 0.44).abs() < 1e-9);
        // A 5 s play clock less the 0.5 s margin: 4.25 s of search, 0.25 s to hand over.
        assert!((search_time(4.5) - 4.25).abs() < 1e-9);
        let mut last = 0.0;
        for i in 1..=600 {
            let think = i as f64 * 0.1;
            let t = search_time(think);
            assert!(t < think - 0.01 && t >= last, "{think} s: {t} s");
            last = t;
        }
        assert!(search_time(0.001) > 0.0);
    }
}

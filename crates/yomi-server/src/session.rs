//! One page's game: the position after every ply, the seats, and the agents.
//!
//! A session lives in its connection's task and is changed only there. Agents think on
//! tokio's blocking pool: the agent is moved into the blocking closure with a copy of the
//! position and comes back with its move in an [`Event`], so a thinking agent never holds
//! up this connection (pings, analysis, stopping) or any other.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;
use yomi_core::arena::{seat_results, setup_fingerprint, GameRecord, Termination};
use yomi_core::Information;
use yomi_games::{Actor, DynAgent, DynError, DynGame, DynState, GameChoice};

use crate::protocol::{LegalMove, MoveStats, ServerMsg, StateMsg, MAX_MOVES, MAX_SEATS};
use crate::view::{split_terms, view};

/// A seat's value for a person.
pub const HUMAN: &str = "human";

/// An agent's answer: its seat, the agent handed back, its action and its seconds.
pub type AgentReply = (usize, Box<dyn DynAgent>, Result<usize, DynError>, f64);

/// Something that happened off the connection's task.
pub enum Event {
    /// Agents finished thinking.
    Agents {
        /// The session generation they thought for.
        generation: u64,
        /// Per seat: the agent (handed back) and its action.
        results: Vec<AgentReply>,
    },
    /// A message to send as it is.
    Send(ServerMsg),
}

/// Whether the session plays on or shows a finished record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A game in progress (or ended) on this server.
    Play,
    /// A game record.
    Replay,
}

/// What a game needs to be rebuilt: its description and every move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Saved {
    /// Game name.
    pub game: String,
    /// Seats.
    pub seats: Vec<String>,
    /// Agents' seed.
    pub seed: u64,
    /// Delay before agent moves.
    pub delay_ms: u64,
    /// Every move, in full.
    pub moves: Vec<String>,
}

/// One game on one connection.
pub struct Session {
    /// The game's id.
    pub id: String,
    /// Play or replay.
    pub mode: Mode,
    choice: GameChoice,
    game: Arc<dyn DynGame>,
    seats: Vec<String>,
    agents: Vec<Option<Box<dyn DynAgent>>>,
    /// `states[k]`: the position after `k` plies.
    states: Vec<Box<dyn DynState>>,
    /// The players who moved at each ply.
    movers: Vec<Vec<usize>>,
    texts: Vec<String>,
    /// The ply shown.
    pub shown: usize,
    seed: u64,
    delay_ms: u64,
    /// Agent moves are held.
    pub paused: bool,
    thinking: Option<usize>,
    /// Bumped whenever the session is replaced or rewound, so stale agent replies are
    /// dropped.
    pub generation: u64,
    /// Actions chosen so far at a simultaneous turn.
    pending: Vec<Option<usize>>,
    hidden: bool,
    seat_seconds: Vec<f64>,
    seat_moves: Vec<usize>,
    started: Instant,
    /// The stop flag of the analysis running, if any.
    pub analysis: Option<Arc<AtomicBool>>,
    /// Set when an agent failed.
    failure: Option<String>,
    /// Whether this game's record has been written.
    pub recorded: bool,
}

fn bad(m: impl Into<String>) -> String {
    m.into()
}

impl Session {
    /// Starts `game` with `seats`, replaying `moves`.
    ///
    /// # Errors
    /// A message saying what was wrong (unknown game, bad spec, illegal move).
    pub fn new(
        id: String,
        saved: &Saved,
        mode: Mode,
        agent_seed_base: u64,
    ) -> Result<Session, String> {
        let choice = GameChoice::from_name(&saved.game)?;
        let game = choice.clone().into_dyn();
        let players = game.facts().players;
        if saved.seats.len() != players || players > MAX_SEATS {
            return Err(bad(format!(
                "{} has {players} players ({}); {} seats given",
                game.name(),
                game.facts().player_names.join(", "),
                saved.seats.len()
            )));
        }
        if saved.moves.len() > MAX_MOVES {
            return Err(bad(format!("at most {MAX_MOVES} moves")));
        }
        let mut agents = Vec::new();
        for (i, spec) in saved.seats.iter().enumerate() {
            if spec.trim() == HUMAN || mode == Mode::Replay {
                agents.push(None);
            } else {
                let a = game
                    .new_agent(spec.trim(), agent_seed_base.wrapping_add(i as u64 * 7919))
                    .map_err(|e| format!("seat {i} ({}): {e}", game.facts().player_names[i]))?;
                agents.push(Some(a));
            }
        }
        let hidden = game.facts().information == Information::Imperfect;
        let mut s = Session {
            id,
            mode,
            choice,
            seats: saved.seats.iter().map(|s| s.trim().to_string()).collect(),
            agents,
            states: vec![game.new_initial_state()],
            game,
            movers: Vec::new(),
            texts: Vec::new(),
            shown: 0,
            seed: saved.seed,
            delay_ms: saved.delay_ms.min(60_000),
            paused: false,
            thinking: None,
            generation: 0,
            pending: vec![None; players],
            hidden,
            seat_seconds: vec![0.0; players],
            seat_moves: vec![0; players],
            started: Instant::now(),
            analysis: None,
            failure: None,
            recorded: false,
        };
        for (k, text) in saved.moves.iter().enumerate() {
            s.replay_move(text)
                .map_err(|e| format!("move {} ({text:?}): {e}", k + 1))?;
        }
        s.shown = s.texts.len();
        // A rebuilt game that had ended is not recorded again.
        s.recorded = s.current().is_terminal() && !saved.moves.is_empty();
        Ok(s)
    }

    /// The game's description, with every move.
    pub fn saved(&self) -> Saved {
        Saved {
            game: self.game.name(),
            seats: self.seats.clone(),
            seed: self.seed,
            delay_ms: self.delay_ms,
            moves: self.texts.clone(),
        }
    }

    /// The latest position.
    pub fn current(&self) -> &dyn DynState {
        self.states
            .last()
            .expect("a session holds its start")
            .as_ref()
    }

    fn is_human(&self, p: usize) -> bool {
        self.mode == Mode::Play && self.seats.get(p).is_some_and(|s| s == HUMAN)
    }

    /// Plays a recorded move (joint moves as `[m0 m1]` or space-separated GDL terms).
    fn replay_move(&mut self, text: &str) -> Result<(), String> {
        let state = self.current();
        match state.actor() {
            Actor::Terminal => Err("the game is already over".into()),
            Actor::Player(p) => {
                let a = state.string_to_action(p, text).map_err(|e| e.to_string())?;
                self.apply(vec![a], vec![p])
            }
            Actor::Simultaneous => {
                let inner = text
                    .trim()
                    .strip_prefix('[')
                    .and_then(|t| t.strip_suffix(']'))
                    .unwrap_or(text);
                let parts = split_terms(inner);
                if parts.len() != state.num_players() {
                    return Err(format!(
                        "a joint move of {} players expected",
                        state.num_players()
                    ));
                }
                let mut actions = Vec::new();
                for (p, t) in parts.iter().enumerate() {
                    actions.push(state.string_to_action(p, t).map_err(|e| e.to_string())?);
                }
                let players = (0..actions.len()).collect();
                self.apply(actions, players)
            }
        }
    }

    /// Applies one step (one action, or a joint action) to the latest position.
    fn apply(&mut self, actions: Vec<usize>, movers: Vec<usize>) -> Result<(), String> {
        if self.texts.len() >= MAX_MOVES {
            return Err(format!("the game is longer than {MAX_MOVES} moves"));
        }
        let before = self.current().clone_box();
        let mut next = before.clone_box();
        next.apply_actions(&full_joint(&*before, &actions))
            .map_err(|e| e.to_string())?;
        let text = next.history_texts().last().cloned().unwrap_or_default();
        for (p, agent) in self.agents.iter_mut().enumerate() {
            if let Some(a) = agent {
                a.observe(&*before, p, &full_joint(&*before, &actions));
            }
        }
        self.states.push(next);
        self.texts.push(text);
        self.movers.push(movers);
        self.pending.iter_mut().for_each(|p| *p = None);
        Ok(())
    }

    /// Plays a person's move at the latest position.
    ///
    /// # Errors
    /// Why the move is refused (the game's own reason for an illegal move).
    pub fn human_move(&mut self, text: &str, player: Option<usize>) -> Result<(), String> {
        if self.mode == Mode::Replay {
            return Err("this is a replay; start a game from here to play on".into());
        }
        if self.shown != self.texts.len() {
            return Err(
                "you are looking at an earlier position; go to the last one to move".into(),
            );
        }
        let state = self.current();
        match state.actor() {
            Actor::Terminal => Err("the game is over".into()),
            Actor::Player(p) => {
                if let Some(q) = player.filter(|&q| q != p) {
                    return Err(format!("player {q} is not to move"));
                }
                if !self.is_human(p) {
                    return Err(format!(
                        "it is {}'s turn ({})",
                        self.player_name(p),
                        self.seats[p]
                    ));
                }
                let a = state.string_to_action(p, text).map_err(|e| e.to_string())?;
                self.seat_moves[p] += 1;
                self.apply(vec![a], vec![p])
            }
            Actor::Simultaneous => {
                let humans: Vec<usize> = (0..self.seats.len())
                    .filter(|&p| self.is_human(p))
                    .collect();
                let p = match (player, humans.as_slice()) {
                    (Some(p), _) if humans.contains(&p) => p,
                    (Some(p), _) => return Err(format!("player {p} is not played by a person")),
                    (None, [p]) => *p,
                    (None, _) => return Err("say which player moves (\"player\")".into()),
                };
                let a = state.string_to_action(p, text).map_err(|e| e.to_string())?;
                self.pending[p] = Some(a);
                self.seat_moves[p] += 1;
                self.try_joint()
            }
        }
    }

    /// Applies the joint action once every player has chosen.
    fn try_joint(&mut self) -> Result<(), String> {
        if self.pending.iter().all(Option::is_some) {
            let actions: Vec<usize> = self.pending.iter().map(|a| a.unwrap_or(0)).collect();
            let players = (0..actions.len()).collect();
            self.apply(actions, players)?;
        }
        Ok(())
    }

    fn player_name(&self, p: usize) -> String {
        self.game
            .facts()
            .player_names
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("player {p}"))
    }

    /// Shows the position after `ply` plies.
    ///
    /// # Errors
    /// When the game is shorter.
    pub fn seek(&mut self, ply: usize) -> Result<(), String> {
        if ply > self.texts.len() {
            return Err(format!("the game has {} moves", self.texts.len()));
        }
        self.shown = ply;
        Ok(())
    }

    /// The players to act at the latest position who are agents, if agents should move
    /// now.
    fn agents_due(&self) -> Vec<usize> {
        if self.mode != Mode::Play
            || self.paused
            || self.thinking.is_some()
            || self.failure.is_some()
        {
            return Vec::new();
        }
        match self.current().actor() {
            Actor::Terminal => Vec::new(),
            Actor::Player(p) => {
                if self.agents[p].is_some() {
                    vec![p]
                } else {
                    Vec::new()
                }
            }
            Actor::Simultaneous => (0..self.seats.len())
                .filter(|&p| self.pending[p].is_none() && self.agents[p].is_some())
                .collect(),
        }
    }

    /// Starts the agents due to move, if any; their moves come back as [`Event::Agents`].
    pub fn kick(&mut self, tx: &UnboundedSender<Event>) {
        let due = self.agents_due();
        if due.is_empty() {
            return;
        }
        self.thinking = Some(due[0]);
        let mut agents = Vec::new();
        for &p in &due {
            if let Some(a) = self.agents[p].take() {
                agents.push((p, a));
            }
        }
        let state = self.current().clone_box();
        let generation = self.generation;
        let delay = Duration::from_millis(self.delay_ms);
        let tx = tx.clone();
        tokio::spawn(async move {
            if !delay.is_zero() {
                tokio::time::sleep(delay).await;
            }
            let results = tokio::task::spawn_blocking(move || {
                agents
                    .into_iter()
                    .map(|(p, mut a)| {
                        let t = Instant::now();
                        let r = a.step(&*state, p);
                        (p, a, r, t.elapsed().as_secs_f64())
                    })
                    .collect::<Vec<_>>()
            })
            .await;
            if let Ok(results) = results {
                let _ = tx.send(Event::Agents {
                    generation,
                    results,
                });
            }
        });
    }

    /// Takes agents' moves back. Returns whether the position changed.
    pub fn agents_done(
        &mut self,
        generation: u64,
        results: Vec<AgentReply>,
    ) -> Result<bool, String> {
        if generation != self.generation {
            return Ok(false);
        }
        self.thinking = None;
        let mut sequential = None;
        let mut failure = None;
        for (p, agent, result, secs) in results {
            self.agents[p] = Some(agent);
            self.seat_seconds[p] += secs;
            match result {
                Ok(a) => {
                    self.seat_moves[p] += 1;
                    match self.current().actor() {
                        Actor::Player(q) if q == p => sequential = Some((a, p)),
                        _ => self.pending[p] = Some(a),
                    }
                }
                Err(e) => {
                    failure = Some(format!(
                        "{} ({}) failed: {e}",
                        self.player_name(p),
                        self.seats[p]
                    ))
                }
            }
        }
        if let Some(f) = failure {
            self.failure = Some(f.clone());
            return Err(f);
        }
        let len = self.texts.len();
        match sequential {
            Some((a, p)) => self.apply(vec![a], vec![p])?,
            None => self.try_joint()?,
        }
        let moved = self.texts.len() != len;
        if moved && self.shown + 1 == self.texts.len() {
            self.shown = self.texts.len();
        }
        Ok(moved)
    }

    /// Makes the shown position the latest after a person's move.
    pub fn follow_latest(&mut self) {
        self.shown = self.texts.len();
    }

    /// The player whose view a page gets: the one person at a hidden-information game
    /// (or, with several, the one to act); nobody (the whole state) otherwise.
    fn viewer(&self) -> Option<usize> {
        if !self.hidden || self.mode == Mode::Replay {
            return None;
        }
        let humans: Vec<usize> = (0..self.seats.len())
            .filter(|&p| self.is_human(p))
            .collect();
        match humans.as_slice() {
            [] => None,
            [p] => Some(*p),
            _ => match self.current().actor() {
                Actor::Player(p) => Some(p),
                _ => Some(humans[0]),
            },
        }
    }

    /// The moves as `viewer` may see them: a hidden opponent's set-up is masked.
    fn visible_moves(&self, viewer: Option<usize>) -> Vec<String> {
        self.texts
            .iter()
            .zip(&self.movers)
            .map(|(t, m)| match viewer {
                Some(v) if self.hidden && !m.contains(&v) && t.starts_with("SET:") => {
                    "SET:????".to_string()
                }
                _ => t.clone(),
            })
            .collect()
    }

    /// The state message for the page.
    pub fn state_msg(&self) -> StateMsg {
        let state = self.states[self.shown].as_ref();
        let viewer = self.viewer();
        let latest = self.shown == self.texts.len();
        let to_act: Vec<usize> = match state.actor() {
            Actor::Terminal => Vec::new(),
            Actor::Player(p) => vec![p],
            Actor::Simultaneous => (0..self.seats.len())
                .filter(|&p| !latest || self.pending[p].is_none())
                .collect(),
        };
        let mut legal = Vec::new();
        if latest && self.mode == Mode::Play {
            for &p in &to_act {
                if self.is_human(p) && viewer.is_none_or(|v| v == p) {
                    legal.extend(
                        state
                            .legal_move_texts(p)
                            .into_iter()
                            .map(|text| LegalMove { text, player: p }),
                    );
                }
            }
        }
        let terminal = state.is_terminal();
        let returns = terminal.then(|| state.returns());
        let result = match (&self.failure, &returns) {
            (Some(f), _) if latest => Some(f.clone()),
            (_, Some(r)) => Some(self.result_words(r)),
            _ => None,
        };
        let facts = self.game.facts();
        StateMsg {
            id: self.id.clone(),
            mode: match self.mode {
                Mode::Play => "play".into(),
                Mode::Replay => "replay".into(),
            },
            game: self.game.name(),
            players: facts.player_names.clone(),
            seats: self.seats.clone(),
            seed: self.seed,
            moves: self.visible_moves(viewer),
            ply: self.shown,
            to_act,
            legal,
            viewer,
            view: view(&self.choice, state, viewer),
            terminal,
            returns,
            result,
            thinking: self.thinking,
            paused: self.paused,
            rebuildable: !self.hidden,
        }
    }

    fn result_words(&self, returns: &[f64]) -> String {
        let names = &self.game.facts().player_names;
        let best = returns.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let winners: Vec<usize> = (0..returns.len()).filter(|&p| returns[p] == best).collect();
        let scores = names
            .iter()
            .zip(returns)
            .map(|(n, r)| format!("{n} {r}"))
            .collect::<Vec<_>>()
            .join(", ");
        if winners.len() == returns.len() {
            format!("draw ({scores})")
        } else if winners.len() == 1 {
            format!("{} wins ({scores})", names[winners[0]])
        } else {
            format!("shared win ({scores})")
        }
    }

    /// The record of a finished game, once.
    pub fn record(&mut self, index: usize) -> Option<GameRecord> {
        if self.recorded || self.mode != Mode::Play || !self.current().is_terminal() {
            return None;
        }
        self.recorded = true;
        let state = self.current();
        let returns = state.returns();
        Some(GameRecord {
            version: yomi_core::arena::RECORD_VERSION,
            game: self.game.name(),
            setup: setup_fingerprint(&self.states[0].serialize()),
            pairing: 0,
            index,
            seed: self.seed,
            seats: self.seats.clone(),
            specs: Vec::new(),
            turn_limit: self.game.facts().max_turns.unwrap_or(0),
            moves: self.texts.clone(),
            results: seat_results(&returns),
            returns,
            turns: self.texts.len(),
            termination: Termination::Terminal,
            final_state: state.serialize(),
            seconds: self.started.elapsed().as_secs_f64(),
            seat_seconds: self.seat_seconds.clone(),
            seat_moves: self.seat_moves.clone(),
        })
    }

    /// Starts analysing the shown position with `agent` for `player`; the rounds report
    /// through `tx` until `stop` is set.
    ///
    /// # Errors
    /// When the position is over or the agent does not build.
    pub fn analyse(
        &mut self,
        agent: Option<String>,
        player: Option<usize>,
        tx: &UnboundedSender<Event>,
    ) -> Result<(), String> {
        self.stop_analysis();
        let state = self.states[self.shown].clone_box();
        let viewer = self.viewer();
        let p = match (viewer, player, state.actor()) {
            (Some(v), _, _) => v,
            (None, Some(p), _) if p < self.seats.len() => p,
            (None, _, Actor::Player(p)) => p,
            (None, _, Actor::Simultaneous) => 0,
            (None, _, Actor::Terminal) => return Err("the game is over: nothing to analyse".into()),
        };
        if state.is_terminal() {
            return Err("the game is over: nothing to analyse".into());
        }
        let agent = agent.unwrap_or_else(|| "mcts".into()).trim().to_string();
        let rounds: Vec<String> = if agent.contains(':') {
            vec![agent.clone()]
        } else {
            (0..8)
                .map(|k| format!("{agent}:iters={}", 250u64 << k))
                .collect()
        };
        // Resolve every round's spec before going to the background (a bad spec is
        // answered at once; each is parsed and checked once).
        let recipes = rounds
            .iter()
            .map(|spec| self.game.recipe(spec))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        self.analysis = Some(stop.clone());
        let (id, ply, seed) = (self.id.clone(), self.shown, self.seed);
        let tx = tx.clone();
        tokio::task::spawn_blocking(move || {
            let n = recipes.len();
            for (k, recipe) in recipes.iter().enumerate() {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let t = Instant::now();
                let result = recipe
                    .build(seed.wrapping_add(k as u64))
                    .analyse(&*state, p);
                let last = k + 1 == n || t.elapsed() > Duration::from_secs(3);
                let msg = match result {
                    Ok(Some(a)) => ServerMsg::Analysis {
                        id: id.clone(),
                        ply,
                        player: p,
                        moves: a
                            .actions
                            .iter()
                            .map(|m| MoveStats {
                                text: m.text.clone(),
                                visits: m.visits,
                                value: m.value,
                            })
                            .collect(),
                        pv: a.pv,
                        value: a.value,
                        iterations: a.iterations,
                        done: last || stop.load(Ordering::Relaxed),
                    },
                    Ok(None) => ServerMsg::Error {
                        reason: format!(
                            "{} keeps no search statistics; analyse with mcts",
                            recipe.spec()
                        ),
                    },
                    Err(e) => ServerMsg::Error {
                        reason: e.to_string(),
                    },
                };
                let stop_now = !matches!(msg, ServerMsg::Analysis { .. });
                if tx.send(Event::Send(msg)).is_err() || stop_now || last {
                    break;
                }
            }
        });
        Ok(())
    }

    /// Stops the running analysis, if any.
    pub fn stop_analysis(&mut self) -> bool {
        match self.analysis.take() {
            Some(stop) => {
                stop.store(true, Ordering::Relaxed);
                true
            }
            None => false,
        }
    }
}

/// A step's actions as `apply_actions` wants them: one per player at simultaneous turns,
/// else the mover's action at the mover's index.
fn full_joint(state: &dyn DynState, actions: &[usize]) -> Vec<usize> {
    match state.actor() {
        Actor::Player(p) if actions.len() == 1 => {
            let mut v = vec![0; p + 1];
            v[p] = actions[0];
            v
        }
        _ => actions.to_vec(),
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_analysis();
    }
}

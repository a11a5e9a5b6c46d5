//! A match host (game server): runs matches between GGP players over HTTP and writes one
//! record per match.
//!
//! As ggp-base's server does, the host sends `start` to every role's player and waits the
//! start clock (plus [`HostConfig::grace`]); then each step sends every role a `play` with
//! the previous joint move and waits the play clock (plus the grace); a reply that is late,
//! unreachable, malformed or not a legal move of that role is replaced by a uniformly
//! random legal move and the error is recorded. At the end every player gets `stop` with
//! the last joint move. Requests to the players of one step go out in parallel.
//!
//! A player that does not answer `start` with `ready` in time (silent, unreachable, an
//! error) fails the match: every player gets `abort`, the record says why
//! ([`MatchRecord::failed`]) and [`run_matches`] stops with [`HostError::MatchFailed`]:
//! a match with a role played by random substitutes is no result. The `stop` reply may
//! take as long as the start clock or the play clock, whichever is longer (real players
//! save or learn then; ggp-base's server ignores the reply): a late or failed one is a
//! warning in the record, not an error.
//!
//! [`run_matches`] keeps its records in a [`yomi_core::journal`]: a settings header
//! ([`SeriesSettings`]: game, players, clocks, seed, step limit), then one record a line
//! keyed by match id, each appended and flushed as its match ends. A rerun with the same
//! settings plays only the matches missing from the file (each match's substitute moves
//! come from its own seed, so a resumed series plays as an uninterrupted one would); other
//! settings, and a second host on the same file, are refused; a torn last line is cut.
//! A failed match's record stays in the file but does not count as played: a rerun plays
//! that match again. Files of older versions (records without a header) are refused:
//! give such a series another `--out` file.

use std::path::Path;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use yomi_core::journal::{no_check, Journal, JournalEntry, JournalError};
use yomi_core::progress::{Display, Progress};
use yomi_core::rng::derive_seed;
use yomi_core::{Game, Player, Rng};

use crate::game::GdlGame;
use crate::http;
use crate::protocol::Message;

/// The largest clock a host uses, in seconds (about 11.6 days; `yomi ggp host` takes no
/// more): waits are computed from the clocks, and far larger ones overflow them.
pub const MAX_HOST_CLOCK: f64 = 1e6;

/// How long to wait for a reply on a clock of `secs` seconds (clamped to
/// [`MAX_HOST_CLOCK`]; NaN counts as 0), plus `grace`.
fn wait(secs: f64, grace: Duration) -> Duration {
    let secs = if secs.is_nan() {
        0.0
    } else {
        secs.clamp(0.0, MAX_HOST_CLOCK)
    };
    Duration::from_secs_f64(secs) + grace
}

/// Clocks and limits of the matches a host runs.
#[derive(Clone, Debug)]
pub struct HostConfig {
    /// Seconds players get between `start` and the first `play`.
    pub start_clock: f64,
    /// Seconds per move.
    pub play_clock: f64,
    /// Extra time allowed for the network on every request (ggp-base allows about 1 s).
    pub grace: Duration,
    /// Seed of the substitute random moves.
    pub seed: u64,
    /// A match longer than this many steps is aborted (and recorded as such).
    pub max_steps: usize,
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            start_clock: 10.0,
            play_clock: 5.0,
            grace: Duration::from_secs(1),
            seed: yomi_core::rng::DEFAULT_SEED,
            max_steps: 10_000,
        }
    }
}

/// Something a player did wrong, and what the host did about it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchError {
    /// 0 for `start`, k ≥ 1 for the k-th `play`, the step count + 1 for `stop`.
    pub step: usize,
    /// The role.
    pub role: String,
    /// The player's address.
    pub player: String,
    /// `timeout`, `unreachable`, `status`, `bad-reply`, `illegal` or `not-ready`.
    pub kind: String,
    /// Details (the reply, the reason).
    pub detail: String,
}

/// One match, as written to the records file (one JSON object a line).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord {
    /// The match id sent to the players.
    pub match_id: String,
    /// The game's name.
    pub game: String,
    /// The roles, in rule-sheet order.
    pub roles: Vec<String>,
    /// The player (address) of each role.
    pub players: Vec<String>,
    /// Start clock, seconds.
    pub start_clock: f64,
    /// Play clock, seconds.
    pub play_clock: f64,
    /// The joint move of each step (one move per role, as the rule sheet spells it).
    pub moves: Vec<Vec<String>>,
    /// Seconds each role's player took to answer, per step.
    pub reply_seconds: Vec<Vec<f64>>,
    /// Every error and substitution.
    pub errors: Vec<MatchError>,
    /// The goal value of each role at the end.
    pub goals: Vec<f64>,
    /// Whether the game reached a terminal state (false when `max_steps` cut it off or
    /// the match failed).
    pub finished: bool,
    /// Why the match failed (a player did not answer `start`); `None` for a match that
    /// was played.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
    /// Replies that do not affect the match: a `stop` or `abort` answered late, or not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<MatchError>,
    /// Wall-clock start, seconds since the Unix epoch.
    pub started_unix: f64,
    /// Seconds the whole match took.
    pub seconds: f64,
}

impl JournalEntry for MatchRecord {
    /// The match id, and whether the match failed (a failed attempt does not stand for
    /// the match: a later attempt that is played is recorded beside it).
    type Key = (String, bool);

    fn key(&self) -> Self::Key {
        (self.match_id.clone(), self.failed.is_some())
    }
}

impl MatchRecord {
    /// This match in the arena's record format ([`yomi_core::arena::GameRecord`]), which
    /// `yomi report` and `yomi export` read for every command that records games; `None`
    /// for a failed match (a player never answered `start`: nothing was played). Seat `i`
    /// is role `i`, labelled by the address of the player that held it; the returns are
    /// the goal values and the results follow them. `index` is the match's number in its
    /// series (its pairing is 0) and the seed the one its substitute moves came from
    /// ([`derive_seed`] of the series seed and the index). The setup fingerprint is the
    /// game's name's (a host journal names its game, not a start position); each joint
    /// move is written `[m0 m1 ...]` as the arena writes joint moves. A match cut off at
    /// the step limit ends as the arena's turn limit; substituted moves (late or illegal
    /// replies) do not forfeit in GGP, so they change nothing here. No final state is
    /// stored (empty).
    pub fn to_arena(
        &self,
        index: usize,
        settings: &SeriesSettings,
    ) -> Option<yomi_core::arena::GameRecord> {
        use yomi_core::arena::{self, seat_results, Termination};
        if self.failed.is_some() {
            return None;
        }
        let roles = self.roles.len();
        let moves = self
            .moves
            .iter()
            .map(|joint| match joint.as_slice() {
                [one] => one.clone(),
                all => format!("[{}]", all.join(" ")),
            })
            .collect();
        let mut seat_seconds = vec![0.0; roles];
        for step in &self.reply_seconds {
            for (total, s) in seat_seconds.iter_mut().zip(step) {
                *total += s;
            }
        }
        let played = arena::PlayedGame {
            moves,
            returns: self.goals.clone(),
            results: seat_results(&self.goals),
            turns: self.moves.len(),
            termination: if self.finished {
                Termination::Terminal
            } else {
                Termination::TurnLimit
            },
            final_state: String::new(),
            seconds: self.seconds,
            seat_seconds,
            seat_moves: vec![self.moves.len(); roles],
        };
        Some(arena::GameRecord::new(
            &self.game,
            &arena::setup_fingerprint(&self.game),
            0,
            index,
            derive_seed(settings.seed, index as u64),
            self.players.clone(),
            settings.max_steps,
            played,
        ))
    }

    /// The match's number in its series, read from the id the host gave it
    /// (`yomi.<game>.<seed>.<k>`); `None` for an id of another form.
    pub fn series_index(&self) -> Option<usize> {
        self.match_id.rsplit('.').next()?.parse().ok()
    }
}

/// What decides a series of matches: the records journal's settings header.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeriesSettings {
    /// The version of the records format.
    pub ggp_host: u32,
    /// The game's name.
    pub game: String,
    /// The players, in the order given (match k rotates them by k).
    pub players: Vec<String>,
    /// Start clock, seconds.
    pub start_clock: f64,
    /// Play clock, seconds.
    pub play_clock: f64,
    /// The network grace, seconds.
    pub grace_seconds: f64,
    /// Seed of the substitute random moves.
    pub seed: u64,
    /// The step limit.
    pub max_steps: usize,
}

/// The outcome of one request: the reply, or the error kind and detail.
type Answer = Result<String, (String, String)>;

fn ask_all(
    players: &[String],
    roles: &[String],
    messages: &[String],
    timeout: Duration,
) -> Vec<(Answer, f64)> {
    std::thread::scope(|s| {
        let handles: Vec<_> = players
            .iter()
            .zip(roles)
            .zip(messages)
            .map(|((addr, role), msg)| {
                s.spawn(move || {
                    let t = Instant::now();
                    let r = http::post(addr, role, msg, timeout).map_err(|e| {
                        let kind = match &e {
                            http::HttpError::Timeout(_) => "timeout",
                            http::HttpError::Resolve(_) | http::HttpError::Connection { .. } => {
                                "unreachable"
                            }
                            http::HttpError::Status { .. } => "status",
                            http::HttpError::BadReply { .. } => "bad-reply",
                        };
                        (kind.to_string(), e.to_string())
                    });
                    (r, t.elapsed().as_secs_f64())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    (Err(("error".into(), "request thread failed".into())), 0.0)
                })
            })
            .collect()
    })
}

/// Runs one match of `game` with `players[r]` (an address `host:port`) playing role `r`.
/// Never fails: whatever the players do ends up in the record.
pub fn run_match(
    game: &GdlGame,
    match_id: &str,
    players: &[String],
    config: &HostConfig,
    rng: &mut Rng,
) -> MatchRecord {
    let start = Instant::now();
    let started_unix = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64());
    let r = game.reasoner();
    let roles: Vec<String> = r.role_names().to_vec();
    let n = roles.len();
    let rules = r.description().sheet.to_kif();
    let mut errors = Vec::new();
    let entry = |step: usize, role: usize, kind: &str, detail: String| MatchError {
        step,
        role: roles[role].clone(),
        player: players.get(role).cloned().unwrap_or_default(),
        kind: kind.into(),
        detail,
    };
    let mut err = |step: usize, role: usize, kind: &str, detail: String| {
        errors.push(entry(step, role, kind, detail))
    };
    let grace = config.grace;
    // start
    let msgs: Vec<String> = roles
        .iter()
        .map(|role| {
            Message::Start {
                id: match_id.into(),
                role: role.clone(),
                rules: rules.clone(),
                start_clock: config.start_clock,
                play_clock: config.play_clock,
            }
            .to_string()
        })
        .collect();
    let start_wait = wait(config.start_clock, grace);
    let mut failed = Vec::new();
    for (role, (answer, _)) in ask_all(players, &roles, &msgs, start_wait)
        .into_iter()
        .enumerate()
    {
        let problem = match answer {
            Ok(reply) if reply.eq_ignore_ascii_case("ready") => continue,
            Ok(reply) => ("not-ready".to_string(), format!("answered {reply:?}")),
            Err(e) => e,
        };
        failed.push(format!(
            "the player of {} ({}) did not answer start with ready: {} ({})",
            roles[role],
            players.get(role).map_or("", String::as_str),
            problem.0,
            problem.1
        ));
        err(0, role, &problem.0, problem.1);
    }
    let stop_wait = wait(config.start_clock.max(config.play_clock), grace);
    let mut warnings = Vec::new();
    if !failed.is_empty() {
        // No match without every player: abort it for all of them.
        let msgs = vec![
            Message::Abort {
                id: match_id.into(),
            }
            .to_string();
            n
        ];
        let play_wait = wait(config.play_clock, grace);
        for (role, (answer, _)) in ask_all(players, &roles, &msgs, play_wait)
            .into_iter()
            .enumerate()
        {
            if let Err((kind, detail)) = answer {
                warnings.push(entry(1, role, &kind, detail));
            }
        }
        return MatchRecord {
            match_id: match_id.into(),
            game: game.facts().name.clone(),
            goals: Vec::new(),
            roles: roles.clone(),
            players: players.to_vec(),
            start_clock: config.start_clock,
            play_clock: config.play_clock,
            moves: Vec::new(),
            reply_seconds: Vec::new(),
            errors,
            finished: false,
            failed: Some(failed.join("; ")),
            warnings,
            started_unix,
            seconds: start.elapsed().as_secs_f64(),
        };
    }
    // play
    let play_wait = wait(config.play_clock, grace);
    let mut state = game.initial_state();
    let mut moves: Vec<Vec<String>> = Vec::new();
    let mut reply_seconds = Vec::new();
    let mut last: Option<Vec<String>> = None;
    let mut legal = Vec::new();
    let mut finished = true;
    while !r.is_terminal(&state) {
        if moves.len() >= config.max_steps {
            finished = false;
            break;
        }
        let step = moves.len() + 1;
        let msg = Message::Play {
            id: match_id.into(),
            moves: last.clone(),
        }
        .to_string();
        let msgs = vec![msg; n];
        let answers = ask_all(players, &roles, &msgs, play_wait);
        let mut joint = Vec::with_capacity(n);
        let mut times = Vec::with_capacity(n);
        for (role, (answer, secs)) in answers.into_iter().enumerate() {
            times.push(secs);
            let chosen = match answer {
                Ok(reply) => match game.parse_action(&state, role, &reply) {
                    Ok(a) => Some(a),
                    Err(e) => {
                        err(step, role, "illegal", format!("{reply:?}: {e}"));
                        None
                    }
                },
                Err((kind, detail)) => {
                    err(step, role, &kind, detail);
                    None
                }
            };
            let a = match chosen {
                Some(a) => a,
                None => {
                    r.legal_into(&state, role, &mut legal);
                    match rng.choose(&legal) {
                        Some(&a) => a,
                        // A role without moves: the reasoner calls such a state terminal.
                        None => break,
                    }
                }
            };
            joint.push(a);
        }
        if joint.len() < n {
            break;
        }
        let texts: Vec<String> = joint
            .iter()
            .map(|&a| r.action_text(a).to_string())
            .collect();
        r.step(&mut state, &joint);
        moves.push(texts.clone());
        reply_seconds.push(times);
        last = Some(texts);
    }
    // stop (or abort when cut off)
    let msg = if finished {
        Message::Stop {
            id: match_id.into(),
            moves: last,
        }
    } else {
        Message::Abort {
            id: match_id.into(),
        }
    }
    .to_string();
    let msgs = vec![msg; n];
    let step = moves.len() + 1;
    for (role, (answer, _)) in ask_all(players, &roles, &msgs, stop_wait)
        .into_iter()
        .enumerate()
    {
        if let Err((kind, detail)) = answer {
            warnings.push(entry(step, role, &kind, detail));
        }
    }
    let returns = game.returns(&state);
    MatchRecord {
        match_id: match_id.into(),
        game: game.facts().name.clone(),
        goals: (0..n).map(|p| returns.get(Player(p as u8))).collect(),
        roles,
        players: players.to_vec(),
        start_clock: config.start_clock,
        play_clock: config.play_clock,
        moves,
        reply_seconds,
        errors,
        finished,
        failed: None,
        warnings,
        started_unix,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Why a series of matches could not run.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    /// A clock that is not a number of seconds from 0 to [`MAX_HOST_CLOCK`].
    #[error("{name} {value}: expected a number of seconds from 0 to {MAX_HOST_CLOCK}")]
    Clock {
        /// `start clock` or `play clock`.
        name: &'static str,
        /// The value given.
        value: f64,
    },
    /// The number of players does not match the game.
    #[error("the game has {roles} role(s) but {players} player(s) were given")]
    Players {
        /// Roles of the game.
        roles: usize,
        /// Players given.
        players: usize,
    },
    /// A match failed: a player did not answer `start` (its record is written).
    #[error("match {match_id} failed: {reason}")]
    MatchFailed {
        /// The match.
        match_id: String,
        /// Why.
        reason: String,
    },
    /// The records journal could not be opened or written, is held by another host, or
    /// holds a series of other settings.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The records file could not be written.
    #[error("writing {path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
}

/// Runs matches `0..matches` not yet played in the journal at `out` (see the [module
/// documentation](self)), rotating the players over the roles (match k gives role r to
/// `players[(r + k) % n]`, its substitute moves come from `derive_seed(seed, k)`), and
/// appends each record as soon as the match ends. Progress goes to stderr when `progress`
/// (a bar on a terminal, see [`yomi_core::progress`]). A failed match
/// ([`MatchRecord::failed`]) is written and ends the series. Returns the played records of
/// matches `0..matches`, this run's and earlier ones, in match order.
///
/// # Errors
/// [`HostError`] for a wrong number of players, a clock out of range, a journal that is
/// locked, unwritable or of other settings ([`HostError::Journal`]), or a failed match.
pub fn run_matches(
    game: &GdlGame,
    players: &[String],
    matches: usize,
    config: &HostConfig,
    out: &Path,
    progress: bool,
) -> Result<Vec<MatchRecord>, HostError> {
    for (name, value) in [
        ("start clock", config.start_clock),
        ("play clock", config.play_clock),
    ] {
        if !(value.is_finite() && (0.0..=MAX_HOST_CLOCK).contains(&value)) {
            return Err(HostError::Clock { name, value });
        }
    }
    let roles = game.reasoner().roles().len();
    if players.len() != roles {
        return Err(HostError::Players {
            roles,
            players: players.len(),
        });
    }
    let name = &game.facts().name;
    let settings = SeriesSettings {
        ggp_host: 1,
        game: name.clone(),
        players: players.to_vec(),
        start_clock: config.start_clock,
        play_clock: config.play_clock,
        grace_seconds: config.grace.as_secs_f64(),
        seed: config.seed,
        max_steps: config.max_steps,
    };
    let settings = serde_json::to_value(&settings).map_err(|e| HostError::Io {
        path: out.display().to_string(),
        reason: e.to_string(),
    })?;
    let mut journal = Journal::<MatchRecord>::open::<JournalError>(out, Some(&settings), no_check)?;
    let id_of = |k: usize| {
        format!(
            "yomi.{}.{}.{k}",
            name.trim_start_matches("ggp:"),
            config.seed
        )
    };
    let played = |j: &Journal<MatchRecord>, k: usize| j.get(&(id_of(k), false)).cloned();
    let done_before = (0..matches)
        .filter(|&k| played(&journal, k).is_some())
        .count();
    let bar = Progress::new(
        "hosting",
        "matches",
        matches as u64,
        done_before as u64,
        Display::for_stderr(!progress),
    );
    for k in 0..matches {
        if played(&journal, k).is_some() {
            continue;
        }
        let order: Vec<String> = (0..roles)
            .map(|r| players[(r + k) % roles].clone())
            .collect();
        let id = id_of(k);
        let mut rng = Rng::seed_from_u64(derive_seed(config.seed, k as u64));
        let rec = run_match(game, &id, &order, config, &mut rng);
        journal.add(rec.clone())?;
        let goals: Vec<String> = rec
            .roles
            .iter()
            .zip(&rec.players)
            .zip(&rec.goals)
            .map(|((r, p), g)| format!("{r}={p}:{g}"))
            .collect();
        bar.println(&format!(
            "match {}/{matches} ({}): {} steps, {} error(s), {:.1} s, goals {}",
            k + 1,
            rec.match_id,
            rec.moves.len(),
            rec.errors.len(),
            rec.seconds,
            goals.join(" ")
        ));
        bar.inc(1);
        if let Some(reason) = &rec.failed {
            return Err(HostError::MatchFailed {
                match_id: rec.match_id.clone(),
                reason: reason.clone(),
            });
        }
    }
    bar.finish();
    Ok((0..matches).filter_map(|k| played(&journal, k)).collect())
}

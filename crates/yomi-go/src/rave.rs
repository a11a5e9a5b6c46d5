//! The strong non-neural Go player: core MCTS with MC-RAVE selection
//! ([`yomi_core::search::mcts::Rave`]), Go priors at expansion ([`crate::prior`]) and heavy
//! playouts ([`crate::heavy`]), as in MoGo, michi and Pachi; plus resignation and a simple
//! time manager. Registered as `rave:iters=..,time=..,threads=..,equiv=..,k=..,prior=..,
//! c=..,capture=..,pattern=..,resign=..,diff=..,switch=..`.
//!
//! - **Difference game** (`diff`): `true` searches with difference-game playouts
//!   ([`DiffPlayout`] with heavy moves) instead of win rates; `decided` searches with win
//!   rates and hands positions whose best value is below `switch` or above `1 - switch` to
//!   a difference-game search ([`DecidedDiffAgent`]).
//! - **Resignation**: after a search of at least [`MIN_RESIGN_VISITS`] iterations whose
//!   chosen move's mean value is below `resign` (0.1 by default; 0 never resigns), the
//!   agent reports [`Agent::resigns`], and the GTP engine answers `resign`.
//! - **Time manager**: when told the clock ([`Agent::clock`], from GTP `time_left`), each
//!   search gets the time left divided by the moves it still expects to play (half the
//!   empty points, at least [`MIN_MOVES_LEFT`]) — or, in byo-yomi, the period divided by
//!   its stones — less a safety margin, plus the guaranteed per-move byo-yomi time once
//!   main time is short; the spec's `time` and `iters` still cap it.
//!
//! Thread safety: each agent owns its search; `threads` workers run root-parallel.

use std::sync::Arc;
use std::time::Duration;

use yomi_core::registry::{builder, AgentRegistry};
use yomi_core::search::mcts::agent::analysis_of;
use yomi_core::search::mcts::{LeafEvaluator, Mcts, MctsParams, Rave, RaveSchedule};
use yomi_core::search::Budget;
use yomi_core::spec::{ParamDoc, SpecError};
use yomi_core::{Agent, AgentError, Analysis, Game, Player};

use crate::diff::{DiffPlayout, DiffPolicy};
use crate::game::{GoGame, GoState};
use crate::heavy::{HeavyConfig, HeavyPlayout};
use crate::prior::GoPriors;
use crate::vertex::Vertex;

/// Searches shorter than this never resign (their values are noise).
pub const MIN_RESIGN_VISITS: u64 = 1000;
/// The fewest own moves the time manager expects to remain.
pub const MIN_MOVES_LEFT: f64 = 12.0;

/// The clock as last told, for the time manager.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Seconds left (main time, or the current byo-yomi period).
    pub seconds: f64,
    /// Stones to play in the period (0 in main time).
    pub stones: u32,
    /// Seconds a move is guaranteed after main time (0: sudden death).
    pub per_move_after: f64,
}

impl Clock {
    /// The time to spend on a move with `empty` empty points on the board.
    pub fn move_time(&self, empty: usize) -> Duration {
        let safety = 0.9;
        let t = if self.stones > 0 {
            self.seconds / self.stones as f64
        } else {
            let moves_left = (empty as f64 / 2.0).max(MIN_MOVES_LEFT);
            let share = self.seconds / moves_left;
            // Main time running out with byo-yomi behind it: the byo-yomi time is safe.
            share.max(self.per_move_after.min(self.seconds))
        };
        // Clamped: the clock comes from the controller, and a huge value must not reach
        // `from_secs_f64`, which panics on it. `clamp` passes NaN through, so NaN is
        // mapped to the floor first.
        let secs = t * safety - 0.05;
        let secs = if secs.is_nan() { 0.01 } else { secs };
        Duration::from_secs_f64(secs.clamp(0.01, yomi_core::limits::MAX_SECONDS))
    }
}

/// The MC-RAVE agent (see the module docs), generic over its playouts: heavy playouts
/// scored with komi by default, or difference-game playouts ([`DiffPlayout`] with
/// [`DiffPolicy::Heavy`]).
pub struct RaveAgent<E = HeavyPlayout> {
    mcts: Mcts<GoGame, Rave, E, GoPriors>,
    name: String,
    iters: u64,
    time: Option<Duration>,
    clock: Option<Clock>,
    resign: f64,
    resigned: bool,
    last_value: Option<f64>,
}

impl<E: LeafEvaluator<GoGame> + Clone> RaveAgent<E> {
    /// An agent searching `iters` iterations (and at most `time`) a move with playouts
    /// `leaf`.
    pub fn new(
        params: MctsParams,
        rave: Rave,
        leaf: E,
        resign: f64,
        seed: u64,
        name: String,
    ) -> Self {
        let iters = params.budget.iterations.unwrap_or(u64::MAX);
        let time = params.budget.time;
        RaveAgent {
            mcts: Mcts::new(params, rave, leaf, GoPriors, seed),
            name,
            iters,
            time,
            clock: None,
            resign,
            resigned: false,
            last_value: None,
        }
    }

    /// The mean value (in `[0, 1]`, the mover's view) of the move the last
    /// [`Agent::select_move`] chose, if it was visited.
    pub fn last_value(&self) -> Option<f64> {
        self.last_value
    }

    /// The budget of the next search: the spec's, capped by the time manager.
    fn budget(&self, state: &GoState) -> Budget {
        let managed = self.clock.map(|c| c.move_time(state.board().empty_count()));
        let time = match (self.time, managed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Budget {
            iterations: Some(self.iters),
            time,
        }
    }
}

impl<E: LeafEvaluator<GoGame> + Clone> Agent<GoGame> for RaveAgent<E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &GoGame,
        state: &GoState,
        player: Player,
    ) -> Result<Vertex, AgentError> {
        let mut root = state.clone();
        root.begin_line();
        self.mcts.params.budget = self.budget(state);
        let r = self.mcts.search_for(game, &root, player);
        let mv = self
            .mcts
            .choose(&r)
            .ok_or_else(|| AgentError::NoMove(format!("{player} has no legal move")))?;
        let value = r
            .children
            .iter()
            .find(|c| c.mv == mv)
            .and_then(|c| c.mean());
        self.resigned = self.resign > 0.0
            && r.iterations >= MIN_RESIGN_VISITS.min(self.iters)
            && value.is_some_and(|v| v < self.resign);
        self.last_value = value;
        Ok(mv)
    }

    fn analyse(
        &mut self,
        game: &GoGame,
        state: &GoState,
        player: Player,
    ) -> Option<Analysis<Vertex>> {
        let budget = self.budget(state);
        self.analyse_within(game, state, player, budget)
    }

    fn analyse_within(
        &mut self,
        game: &GoGame,
        state: &GoState,
        player: Player,
        budget: Budget,
    ) -> Option<Analysis<Vertex>> {
        let mut root = state.clone();
        root.begin_line();
        self.mcts.params.budget = budget;
        let r = self.mcts.search_for(game, &root, player);
        Some(analysis_of(&self.mcts, &r))
    }

    fn clock(&mut self, seconds: f64, stones: u32, per_move_after: f64) {
        self.clock = (seconds.is_finite() && seconds >= 0.0).then_some(Clock {
            seconds,
            stones,
            per_move_after: per_move_after.max(0.0),
        });
    }

    fn resigns(&self) -> bool {
        self.resigned
    }
}

/// MC-RAVE that plays for the win while the game is open and for points once it is
/// decided (`rave:diff=decided`): each move is searched with win-rate playouts first;
/// when the chosen move's value is below `switch` or above `1 - switch` (every move wins,
/// or every move loses: where win rates stop telling moves apart), the move is searched
/// again with difference-game playouts, whose move is played. A decided position so costs
/// two searches. The difference game was built for exactly those positions; played
/// everywhere, it gives up won games in close real endgames (`experiments/go-endgames`).
/// It resigns as `rave` does (`resign=0` plays lost games out for points).
pub struct DecidedDiffAgent {
    win: RaveAgent<HeavyPlayout>,
    diff: RaveAgent<DiffPlayout>,
    switch: f64,
    name: String,
    /// Moves the difference game chose, and all moves chosen.
    pub diff_moves: (u64, u64),
}

impl Agent<GoGame> for DecidedDiffAgent {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn select_move(
        &mut self,
        game: &GoGame,
        state: &GoState,
        player: Player,
    ) -> Result<Vertex, AgentError> {
        let mv = self.win.select_move(game, state, player)?;
        self.diff_moves.1 += 1;
        let decided = self
            .win
            .last_value()
            .is_some_and(|v| v < self.switch || v > 1.0 - self.switch);
        if !decided {
            return Ok(mv);
        }
        self.diff_moves.0 += 1;
        self.diff.select_move(game, state, player)
    }

    fn analyse(
        &mut self,
        game: &GoGame,
        state: &GoState,
        player: Player,
    ) -> Option<Analysis<Vertex>> {
        self.win.analyse(game, state, player)
    }

    fn analyse_within(
        &mut self,
        game: &GoGame,
        state: &GoState,
        player: Player,
        budget: Budget,
    ) -> Option<Analysis<Vertex>> {
        self.win.analyse_within(game, state, player, budget)
    }

    fn clock(&mut self, seconds: f64, stones: u32, per_move_after: f64) {
        self.win.clock(seconds, stones, per_move_after);
        self.diff.clock(seconds, stones, per_move_after);
    }

    fn resigns(&self) -> bool {
        self.win.resigns()
    }
}

/// Registers `rave` in `r`.
pub fn register(r: &mut AgentRegistry<GoGame>) {
    r.register(
        "rave",
        "MC-RAVE with Go priors and heavy (MoGo pattern) playouts, resignation and a time manager",
        RAVE_PARAMS.to_vec(),
        Arc::new(|_, _, p| {
            let name = p.spec().to_string();
            let iters: u64 = p.get("iters", 10_000, "a positive integer")?;
            let time: Option<f64> = p.get_opt("time", "seconds")?;
            let threads: usize = p.get("threads", 1, "a positive integer")?;
            let equiv: f64 = p.get("equiv", 3000.0, "a positive number")?;
            let k: Option<f64> = p.get_opt("k", "a positive number")?;
            let prior: f64 = p.get("prior", 20.0, "a number >= 0")?;
            let c: f64 = p.get("c", 0.0, "a number >= 0")?;
            let capture: f64 = p.get("capture", 0.9, "a probability")?;
            let pattern: f64 = p.get("pattern", 0.95, "a probability")?;
            let resign: f64 = p.get("resign", 0.1, "a value in [0, 1)")?;
            let diff: String = p.get("diff", "false".to_string(), "true, false or decided")?;
            let switch: f64 = p.get("switch", 0.1, "a value in [0, 0.5)")?;
            let prob = |x: f64| (0.0..=1.0).contains(&x);
            let ok = iters > 0
                && threads > 0
                && time.is_none_or(|t| t.is_finite() && t > 0.0)
                && equiv.is_finite()
                && equiv > 0.0
                && k.is_none_or(|k| k.is_finite() && k > 0.0)
                && prior.is_finite()
                && prior >= 0.0
                && c.is_finite()
                && c >= 0.0
                && prob(capture)
                && prob(pattern)
                && (0.0..1.0).contains(&resign)
                && (0.0..0.5).contains(&switch)
                && matches!(diff.as_str(), "false" | "true" | "decided");
            if !ok {
                return Err(SpecError::BadValue {
                    agent: "rave".into(),
                    key: "iters/time/threads/equiv/k/prior/c/capture/pattern/resign/switch/diff"
                        .into(),
                    value: format!(
                        "{iters}/{time:?}/{threads}/{equiv}/{k:?}/{prior}/{c}/{capture}/{pattern}/{resign}/{switch}/{diff}"
                    ),
                    expected: "positive iters, threads, time, equiv and k; prior, c >= 0; \
                               probabilities in [0, 1]; resign in [0, 1); switch in [0, 0.5); \
                               diff true, false or decided"
                        .into(),
                });
            }
            let schedule = match k {
                Some(k) => RaveSchedule::Hand { k },
                None => RaveSchedule::MinMse { equivalence: equiv },
            };
            let params = MctsParams {
                budget: Budget {
                    iterations: Some(iters),
                    time: time.map(Duration::from_secs_f64),
                },
                threads,
                reuse_tree: false,
                ..MctsParams::default()
            };
            let rave = Rave {
                schedule,
                c,
                prior_visits: prior,
                ..Rave::default()
            };
            let heavy = HeavyConfig {
                capture,
                pattern,
                ..HeavyConfig::default()
            };
            let diff_params = MctsParams {
                // The difference game values a move by its tempo, so moves the game never
                // searches (own eye fills) can be the right answer there.
                all_legal_moves: true,
                ..params.clone()
            };
            Ok(builder(move |game, seed| -> Box<dyn Agent<GoGame>> {
                let diff_agent = || {
                    // Values are difference-game results, not win rates: never resign.
                    let leaf =
                        DiffPlayout::with_policy(&game.initial_state(), DiffPolicy::Heavy(heavy));
                    RaveAgent::new(diff_params.clone(), rave, leaf, 0.0, seed, name.clone())
                };
                let win_agent = || {
                    RaveAgent::new(
                        params.clone(),
                        rave,
                        HeavyPlayout::new(heavy),
                        resign,
                        seed,
                        name.clone(),
                    )
                };
                match diff.as_str() {
                    "true" => Box::new(diff_agent()),
                    "decided" => Box::new(DecidedDiffAgent {
                        win: win_agent(),
                        diff: diff_agent(),
                        switch,
                        name: name.clone(),
                        diff_moves: (0, 0),
                    }),
                    _ => Box::new(win_agent()),
                }
            }))
        }),
    );
}

const RAVE_PARAMS: &[ParamDoc] = &[
    ParamDoc {
        key: "iters",
        default: "10000",
        help: "iterations (heavy playouts) per move",
    },
    ParamDoc {
        key: "time",
        default: "-",
        help: "seconds per move (with iters and the GTP clock: whichever ends first)",
    },
    ParamDoc {
        key: "threads",
        default: "1",
        help: "worker threads (root parallelism)",
    },
    ParamDoc {
        key: "equiv",
        default: "3000",
        help: "RAVE equivalent experience of Silver's minimum-MSE schedule",
    },
    ParamDoc {
        key: "k",
        default: "-",
        help: "use Gelly & Silver's beta = sqrt(k/(3n+k)) instead",
    },
    ParamDoc {
        key: "prior",
        default: "20",
        help: "virtual visits at the Go prior's value (0: no priors)",
    },
    ParamDoc {
        key: "c",
        default: "0",
        help: "UCB exploration added to the RAVE value",
    },
    ParamDoc {
        key: "capture",
        default: "0.9",
        help: "playout chance of the capture / atari-escape rule",
    },
    ParamDoc {
        key: "pattern",
        default: "0.95",
        help: "playout chance of the 3x3 pattern rule",
    },
    ParamDoc {
        key: "resign",
        default: "0.1",
        help: "resign below this win rate (0: never)",
    },
    ParamDoc {
        key: "diff",
        default: "false",
        help: "true: difference-game playouts (heavy moves on the position plus its colour reversal, judged by the summed score; never resigns); decided: win-rate search, then the difference game when the chosen move's value is below switch or above 1 - switch",
    },
    ParamDoc {
        key: "switch",
        default: "0.1",
        help: "with diff=decided: the win rate beyond which the game counts as decided",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// `diff=decided` keeps the win-rate move in an open position and hands a decided one
    /// to the difference game.
    #[test]
    fn decided_positions_go_to_the_difference_game() {
        let game = GoGame::new(5).unwrap();
        let heavy = HeavyConfig::default();
        let params = MctsParams {
            budget: Budget::iterations(1500),
            ..MctsParams::default()
        };
        let make = || DecidedDiffAgent {
            win: RaveAgent::new(
                params.clone(),
                Rave::default(),
                HeavyPlayout::new(heavy),
                0.0,
                3,
                "w".into(),
            ),
            diff: RaveAgent::new(
                MctsParams {
                    all_legal_moves: true,
                    ..params.clone()
                },
                Rave::default(),
                DiffPlayout::with_policy(&game.initial_state(), DiffPolicy::Heavy(heavy)),
                0.0,
                3,
                "d".into(),
            ),
            switch: 0.1,
            name: "x".into(),
            diff_moves: (0, 0),
        };
        let open = game.initial_state();
        let mut a = make();
        let mv = a.select_move(&game, &open, Player(0)).unwrap();
        assert!(game.is_legal(&open, mv));
        assert_eq!(a.diff_moves, (0, 1), "the empty board is open");
        // White has walled off three rows with two eyes (plus komi): Black has lost
        // whatever it plays.
        let decided = game
            .parse_state("...../...../OOOOO/.O.O./OOOOO b - 7.5")
            .unwrap();
        let mut a = make();
        let mv = a.select_move(&game, &decided, Player(0)).unwrap();
        assert!(game.is_legal(&decided, mv));
        assert_eq!(a.diff_moves, (1, 1), "every Black move loses here");
    }

    #[test]
    fn time_manager_splits_the_clock() {
        let c = Clock {
            seconds: 60.0,
            stones: 0,
            per_move_after: 0.0,
        };
        // 81 empty points: 40.5 moves expected.
        let t = c.move_time(81).as_secs_f64();
        assert!((t - (60.0 / 40.5 * 0.9 - 0.05)).abs() < 1e-9, "{t}");
        // Late: at least MIN_MOVES_LEFT.
        assert!(c.move_time(4).as_secs_f64() < 60.0 / MIN_MOVES_LEFT);
        let byo = Clock {
            seconds: 30.0,
            stones: 5,
            per_move_after: 6.0,
        };
        assert!((byo.move_time(50).as_secs_f64() - (6.0 * 0.9 - 0.05)).abs() < 1e-9);
    }

    /// Issue 15: a controller's `time_left b 1e300 1` reached `Duration::from_secs_f64`
    /// and panicked; the move time is clamped to `yomi_core::limits::MAX_SECONDS`.
    #[test]
    fn time_manager_clamps_a_huge_or_nan_clock() {
        for (seconds, stones) in [(1e300, 1), (1e300, 0), (f64::MAX, 1), (f64::NAN, 1)] {
            let c = Clock {
                seconds,
                stones,
                per_move_after: 0.0,
            };
            let t = c.move_time(81).as_secs_f64();
            assert!((0.01..=1e6).contains(&t), "{seconds} {stones}: {t}");
        }
    }

    #[test]
    fn bad_specs_are_errors() {
        let game = GoGame::new(9).unwrap();
        let reg = crate::registry();
        for bad in [
            "rave:iters=0",
            "rave:capture=2",
            "rave:resign=1",
            "rave:prior=-1",
            "rave:k=0",
            "rave:equiv=nan",
        ] {
            assert!(reg.build(&game, bad, 1).is_err(), "{bad}");
        }
        assert!(reg.build(&game, "rave:iters=100,k=500", 1).is_ok());
    }

    #[test]
    fn resigns_a_hopeless_position_but_not_an_even_one() {
        let game = GoGame::new(5).unwrap();
        let mut agent = crate::registry()
            .build(&game, "rave:iters=1500,resign=0.1", 3)
            .unwrap();
        let start = game.initial_state();
        agent.select_move(&game, &start, Player(0)).unwrap();
        assert!(!agent.resigns());
        // White owns the whole board but for one black stone in a corner, komi aside.
        let lost = game
            .parse_state("OOOOO/OOOOO/OO.OO/OOOOO/OOO.X b - 0.5 0 20 0 0")
            .unwrap();
        agent.select_move(&game, &lost, Player(0)).unwrap();
        assert!(agent.resigns());
    }
}

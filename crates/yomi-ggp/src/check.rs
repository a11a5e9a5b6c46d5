//! Rule-sheet bugs that change results, found by playing: a rule sheet can be valid GDL and
//! still give a role no goal value, or several, at a terminal state, or leave a role
//! without a legal move before the end. Players then disagree on the result (yomi scores
//! the highest of several goal values, other players the first or the lowest), so these
//! are worth a warning before any match. [`check_random_games`] plays seeded random
//! games with the compiled reasoner and reports each kind of problem once, with the first
//! state it was seen in, how often it was seen, and the source rules involved.

use std::collections::BTreeMap;
use std::fmt;

use yomi_core::{Game, Rng};

use crate::ast::{kw, Term};
use crate::game::GdlGame;
use crate::reasoner::GdlState;

/// What is wrong at a state.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Problem {
    /// A terminal state where the role has no goal value (yomi scores it 0).
    NoGoal,
    /// A terminal state where the role has several goal values (yomi scores the highest;
    /// GDL requires exactly one).
    SeveralGoals(Vec<u32>),
    /// A state that is not terminal where the role has no legal move (yomi ends the game
    /// there; GDL requires a legal move for every role until the end).
    NoLegalMove,
}

/// One problem, seen at one or more states along the random games.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The role it concerns.
    pub role: String,
    /// What is wrong.
    pub problem: Problem,
    /// The first state it was seen in, as its true base propositions.
    pub state: String,
    /// The random game and ply of that state.
    pub game: usize,
    /// The ply of that state.
    pub ply: usize,
    /// How many states showed it.
    pub count: usize,
    /// The source rules involved (`line:column: rule`): the role's goal rules for goal
    /// problems, its legal rules for a missing legal move.
    pub rules: Vec<String>,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match &self.problem {
            Problem::NoGoal => "has no goal value at a terminal state (scored 0)".to_string(),
            Problem::SeveralGoals(v) => format!(
                "has several goal values {v:?} at one terminal state (yomi scores the highest, \
                 other players may take another)"
            ),
            Problem::NoLegalMove => {
                "has no legal move at a state that is not terminal (the game stops there)"
                    .to_string()
            }
        };
        writeln!(
            f,
            "role {} {what}: {} state(s), first in random game {} at ply {}",
            self.role, self.count, self.game, self.ply
        )?;
        writeln!(f, "  state: {}", self.state)?;
        for r in &self.rules {
            writeln!(f, "  rule {r}")?;
        }
        Ok(())
    }
}

/// What [`check_random_games`] saw.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    /// Random games played.
    pub games: usize,
    /// Those that reached a terminal state within the move limit.
    pub ended: usize,
    /// Total plies played.
    pub plies: usize,
    /// Sum of each role's reward over the games that ended.
    pub goal_sums: Vec<f64>,
    /// The problems, each once (by role and kind), in the order first seen.
    pub findings: Vec<Finding>,
}

/// Plays `games` random games of at most `max_moves` plies each (seeded by `seed`) and
/// checks every state on the way: at terminal states each role must have exactly one
/// goal value; before the end each role must have a legal move.
pub fn check_random_games(
    game: &GdlGame,
    games: usize,
    max_moves: usize,
    seed: u64,
) -> CheckReport {
    let r = game.reasoner();
    let roles = r.roles().len();
    let mut rng = Rng::seed_from_u64(seed);
    let mut report = CheckReport {
        games,
        goal_sums: vec![0.0; roles],
        ..Default::default()
    };
    let mut seen: BTreeMap<(usize, Problem), usize> = BTreeMap::new();
    let mut legal = Vec::new();
    let mut joint = Vec::with_capacity(roles);
    for g in 0..games {
        let mut s = r.initial_state();
        for ply in 0..=max_moves {
            let terminal = r.terminal_holds(&s);
            if terminal {
                for (role, vals) in r.goal_values(&s).into_iter().enumerate() {
                    let problem = match vals.len() {
                        0 => Problem::NoGoal,
                        1 => continue,
                        _ => Problem::SeveralGoals(vals),
                    };
                    note(game, &mut report, &mut seen, &s, role, problem, g, ply);
                }
            } else {
                for role in 0..roles {
                    if r.legal_count(&s, role) == 0 {
                        note(
                            game,
                            &mut report,
                            &mut seen,
                            &s,
                            role,
                            Problem::NoLegalMove,
                            g,
                            ply,
                        );
                    }
                }
            }
            if r.is_terminal(&s) {
                report.ended += 1;
                let rewards = game.returns(&s);
                for (i, sum) in report.goal_sums.iter_mut().enumerate() {
                    *sum += rewards.get(yomi_core::Player(i as u8));
                }
                break;
            }
            if ply == max_moves {
                break;
            }
            joint.clear();
            for role in 0..roles {
                r.legal_into(&s, role, &mut legal);
                joint.push(legal[rng.below(legal.len())]);
            }
            r.step(&mut s, &joint);
            report.plies += 1;
        }
    }
    report
}

/// Records `problem` of `role` at `s`: a new finding the first time, a count after.
#[allow(clippy::too_many_arguments)]
fn note(
    game: &GdlGame,
    report: &mut CheckReport,
    seen: &mut BTreeMap<(usize, Problem), usize>,
    s: &GdlState,
    role: usize,
    problem: Problem,
    g: usize,
    ply: usize,
) {
    let key = (role, problem);
    if let Some(&i) = seen.get(&key) {
        report.findings[i].count += 1;
        return;
    }
    let r = game.reasoner();
    let role_term = &r.roles()[role];
    let rel = if key.1 == Problem::NoLegalMove {
        kw::LEGAL
    } else {
        kw::GOAL
    };
    let sheet = &r.description().sheet;
    let values: &[u32] = match &key.1 {
        Problem::SeveralGoals(v) => v,
        _ => &[],
    };
    let rules = sheet
        .rules
        .iter()
        .filter(|rule| {
            rule.head.rel == rel
                && rule.head.args.first().is_some_and(|a| may_be(a, role_term))
                && (values.is_empty()
                    || rule.head.args.get(1).is_some_and(|a| match a {
                        Term::Var(_) => true,
                        Term::Sym(s) => sheet
                            .symbols
                            .name(*s)
                            .parse::<u32>()
                            .is_ok_and(|v| values.contains(&v)),
                        Term::Fn(..) => false,
                    }))
        })
        .map(|rule| format!("{}: {}", rule.pos, sheet.rule_text(rule)))
        .collect();
    seen.insert(key.clone(), report.findings.len());
    report.findings.push(Finding {
        role: r.role_names()[role].clone(),
        problem: key.1,
        state: game.format_state(s),
        game: g,
        ply,
        count: 1,
        rules,
    });
}

/// Whether a head argument may stand for the ground term `t` (a variable, or `t` itself).
fn may_be(arg: &Term, t: &Term) -> bool {
    matches!(arg, Term::Var(_)) || arg == t
}

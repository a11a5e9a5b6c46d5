//! Public sheets that ground since the grounder joins over term ids and evaluates its
//! relaxed fixpoint semi-naively (before, they hit the join-step cap and played on the
//! lazy fallback): the grounded reasoner against the reference prover, or against the
//! lazy fallback where the prover needs seconds per state, along seeded random games:
//! same states, legal moves per role, terminal test and goals at every step.
//!
//! `YOMI_GGP_NEWLY_GROUNDED_SECONDS` raises the comparison time per sheet (default: a
//! fraction of a second, for CI) and `YOMI_GGP_NEWLY_GROUNDED_GAMES` the number of games.

mod common;

use std::collections::BTreeSet;
use std::time::Instant;

use yomi_core::Rng;
use yomi_ggp::{Description, GdlGame, Prover, Reasoner, Term};

/// The reference a grounded game is checked against.
enum Reference {
    Prover(Box<Prover>),
    Fallback(GdlGame),
}

/// A reference state.
enum RefState {
    Prover(BTreeSet<Term>),
    Fallback(yomi_ggp::GdlState),
}

fn sorted_moves(r: &Reasoner, s: &yomi_ggp::GdlState, role: usize) -> Vec<Term> {
    let mut legal = Vec::new();
    r.legal_into(s, role, &mut legal);
    let mut v: Vec<Term> = legal.iter().map(|&a| r.action(a).unwrap()).collect();
    v.sort();
    v
}

impl Reference {
    fn initial(&self) -> RefState {
        match self {
            Reference::Prover(p) => RefState::Prover(p.initial_state().unwrap()),
            Reference::Fallback(g) => RefState::Fallback(g.reasoner().initial_state()),
        }
    }

    fn state(&self, s: &RefState) -> BTreeSet<Term> {
        match (self, s) {
            (Reference::Prover(_), RefState::Prover(ps)) => ps.clone(),
            (Reference::Fallback(g), RefState::Fallback(fs)) => {
                let r = g.reasoner();
                r.true_bases(fs)
                    .into_iter()
                    .map(|b| r.base_term(b).unwrap())
                    .collect()
            }
            _ => unreachable!(),
        }
    }

    fn legal(&self, s: &RefState, role: usize) -> Vec<Term> {
        match (self, s) {
            (Reference::Prover(p), RefState::Prover(ps)) => {
                p.legal_moves(ps, &p.roles()[role]).unwrap()
            }
            (Reference::Fallback(g), RefState::Fallback(fs)) => {
                sorted_moves(g.reasoner(), fs, role)
            }
            _ => unreachable!(),
        }
    }

    fn terminal(&self, s: &RefState) -> bool {
        match (self, s) {
            (Reference::Prover(p), RefState::Prover(ps)) => p.is_terminal(ps).unwrap(),
            (Reference::Fallback(g), RefState::Fallback(fs)) => g.reasoner().terminal_holds(fs),
            _ => unreachable!(),
        }
    }

    fn goals(&self, s: &RefState) -> Vec<Vec<u32>> {
        match (self, s) {
            (Reference::Prover(p), RefState::Prover(ps)) => p.goals(ps).unwrap(),
            (Reference::Fallback(g), RefState::Fallback(fs)) => g.reasoner().goal_values(fs),
            _ => unreachable!(),
        }
    }

    fn step(&self, s: &mut RefState, joint: &[Term]) {
        match (self, s) {
            (Reference::Prover(p), RefState::Prover(ps)) => *ps = p.next_state(ps, joint).unwrap(),
            (Reference::Fallback(g), RefState::Fallback(fs)) => {
                let r = g.reasoner();
                let mut legal = Vec::new();
                let ids: Vec<u32> = joint
                    .iter()
                    .enumerate()
                    .map(|(i, t)| {
                        r.legal_into(fs, i, &mut legal);
                        *legal
                            .iter()
                            .find(|&&a| r.action(a).as_ref() == Some(t))
                            .expect("the move is legal in the reference")
                    })
                    .collect();
                r.step(fs, &ids);
            }
            _ => unreachable!(),
        }
    }
}

/// Compares `game` with `reference` along `games` random games of at most `max_steps`
/// plies, for at most `budget` seconds (at least one step); the number of steps compared.
fn compare(
    name: &str,
    game: &GdlGame,
    reference: &Reference,
    games: usize,
    max_steps: usize,
    seed: u64,
    budget: f64,
) -> usize {
    let start = Instant::now();
    let r = game.reasoner();
    let roles = r.roles().len();
    let mut rng = Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut compared = 0;
    'games: for g in 0..games {
        let mut s = r.initial_state();
        let mut rs = reference.initial();
        for step in 0..max_steps {
            let ctx = format!("{name} game {g} step {step}");
            let ours: BTreeSet<Term> = r
                .true_bases(&s)
                .into_iter()
                .map(|b| r.base_term(b).unwrap())
                .collect();
            assert_eq!(ours, reference.state(&rs), "{ctx}: states differ");
            for i in 0..roles {
                assert_eq!(
                    sorted_moves(r, &s, i),
                    reference.legal(&rs, i),
                    "{ctx}: legal moves of role {i} differ"
                );
            }
            assert_eq!(
                r.terminal_holds(&s),
                reference.terminal(&rs),
                "{ctx}: terminal differs"
            );
            assert_eq!(
                r.goal_values(&s),
                reference.goals(&rs),
                "{ctx}: goals differ"
            );
            compared += 1;
            if r.is_terminal(&s) {
                break;
            }
            if start.elapsed().as_secs_f64() > budget {
                break 'games;
            }
            let joint: Vec<u32> = (0..roles)
                .map(|i| {
                    r.legal_into(&s, i, &mut legal);
                    legal[rng.below(legal.len())]
                })
                .collect();
            let terms: Vec<Term> = joint.iter().map(|&a| r.action(a).unwrap()).collect();
            r.step(&mut s, &joint);
            reference.step(&mut rs, &terms);
        }
    }
    compared
}

/// The sheets: whether the prover is fast enough to be the reference (else the lazy
/// fallback is: the prover needs minutes per state on kalaha), and whether the sheet is
/// compared in the default run (knightazons and skirmish take 6 to 10 s to compile).
const SHEETS: [(&str, bool, bool); 5] = [
    ("knightfight.kif", true, true),
    ("ttcc4_2player.kif", true, true),
    ("knightazons.kif", true, false),
    ("skirmish.kif", true, false),
    ("kalaha_2009.kif", false, true),
];

#[test]
fn newly_grounded_sheets_agree_with_the_reference() {
    let Some(dir) = common::gdl_dir() else { return };
    let env = |k: &str| std::env::var(k).ok().and_then(|s| s.parse::<f64>().ok());
    let long = env("YOMI_GGP_NEWLY_GROUNDED_SECONDS");
    let budget = long.unwrap_or(0.3);
    let games = env("YOMI_GGP_NEWLY_GROUNDED_GAMES").map_or(2, |g| g as usize);
    let fallback_only = std::env::var_os("YOMI_GGP_NEWLY_GROUNDED_FALLBACK").is_some();
    for (file, prover_ok, default) in SHEETS {
        if !default && long.is_none() {
            eprintln!(
                "notice: {file} skipped (slow to compile or to check; set \
                 YOMI_GGP_NEWLY_GROUNDED_SECONDS to include it)"
            );
            continue;
        }
        let path = dir.join("repository").join(file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("notice: {} missing; skipped", path.display());
            continue;
        };
        let t = Instant::now();
        let desc = Description::from_kif(&text).unwrap();
        let game = GdlGame::new(file, &desc).unwrap();
        let stats = &game.reasoner().stats;
        assert!(stats.fallback.is_none(), "{file}: {:?}", stats.fallback);
        let built = t.elapsed().as_secs_f64();
        let reference = if prover_ok && !fallback_only {
            Reference::Prover(Box::new(Prover::new(&desc)))
        } else {
            Reference::Fallback(GdlGame::new_fallback(file, &desc).unwrap())
        };
        let kind = match reference {
            Reference::Prover(_) => "prover",
            Reference::Fallback(_) => "fallback",
        };
        let t = Instant::now();
        let steps = compare(file, &game, &reference, games, 400, 7, budget);
        eprintln!(
            "{file}: built in {built:.2} s, {steps} steps compared with the {kind} in {:.2} s",
            t.elapsed().as_secs_f64()
        );
    }
}

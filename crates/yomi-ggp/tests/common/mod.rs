//! Helpers shared by the integration tests: locating the external GDL rule sheets, and
//! comparing a reasoner with a reference (the prover or the lazy fallback) along random
//! games.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use yomi_ggp::{Description, GdlGame, Prover, Reasoner, Term};

/// `shared/data/gdl`, found through `YOMI_SHARED_DATA` or by walking up from the crate;
/// `None` (after printing a notice) when absent.
pub fn gdl_dir() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("YOMI_SHARED_DATA") {
        let p = Path::new(&d).join("gdl");
        if p.is_dir() {
            return Some(p);
        }
    }
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    loop {
        let p = dir.join("shared/data/gdl");
        if p.is_dir() {
            return Some(p);
        }
        if !dir.pop() {
            eprintln!("notice: shared/data/gdl not found (set YOMI_SHARED_DATA); skipping");
            return None;
        }
    }
}

/// Every `.kif` file under `dir` (and its `tests/` folder), sorted, with its text.
pub fn kif_files(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for sub in [dir.to_path_buf(), dir.join("tests")] {
        let Ok(rd) = std::fs::read_dir(&sub) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "kif") {
                let name = p
                    .strip_prefix(dir)
                    .unwrap_or(&p)
                    .to_string_lossy()
                    .into_owned();
                if let Ok(text) = std::fs::read_to_string(&p) {
                    out.push((name, text));
                }
            }
        }
    }
    out.sort();
    out
}

/// True for ggp-base's deliberately invalid test cases.
pub fn is_invalid_case(name: &str) -> bool {
    name.contains("test_invalid_")
}

/// The reference a grounded game is checked against.
pub enum Reference {
    /// The prover over the rules as written.
    Prover(Box<Prover>),
    /// The lazy fallback evaluator.
    Fallback(GdlGame),
}

/// A reference state.
pub enum RefState {
    /// The prover's state.
    Prover(BTreeSet<Term>),
    /// The fallback's state.
    Fallback(yomi_ggp::GdlState),
}

/// The legal moves of `role` in `s`, sorted.
pub fn sorted_moves(r: &Reasoner, s: &yomi_ggp::GdlState, role: usize) -> Vec<Term> {
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

/// Plays `games` random games (seeded by `seed`, at most `max_steps` steps each, at most
/// `budget` seconds in all but at least one step) with the reasoner `r` beside
/// `reference`, asserting at every step the same state, the same legal moves per role,
/// the same terminal test and the same goals, and that `r`'s derived values are
/// consistent with its base propositions. Returns the goals met at the terminal states
/// reached and the number of steps compared.
pub fn agree_with_reference(
    name: &str,
    r: &Reasoner,
    reference: &Reference,
    games: usize,
    max_steps: usize,
    seed: u64,
    budget: f64,
) -> (BTreeSet<Vec<Vec<u32>>>, usize) {
    let start = std::time::Instant::now();
    let roles = r.roles().len();
    let mut rng = yomi_core::Rng::seed_from_u64(seed);
    let mut legal = Vec::new();
    let mut outcomes = BTreeSet::new();
    let mut compared = 0;
    for g in 0..games {
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
            let mut any_empty = false;
            for i in 0..roles {
                let theirs = reference.legal(&rs, i);
                assert_eq!(
                    sorted_moves(r, &s, i),
                    theirs,
                    "{ctx}: legal moves of role {i} differ"
                );
                any_empty |= theirs.is_empty();
            }
            let term = reference.terminal(&rs);
            assert_eq!(r.terminal_holds(&s), term, "{ctx}: terminal differs");
            assert_eq!(r.is_terminal(&s), term || any_empty, "{ctx}");
            let goals = reference.goals(&rs);
            assert_eq!(r.goal_values(&s), goals, "{ctx}: goals differ");
            assert!(r.derived_values_consistent(&s), "{ctx}");
            compared += 1;
            if r.is_terminal(&s) {
                outcomes.insert(goals);
                break;
            }
            if start.elapsed().as_secs_f64() > budget {
                return (outcomes, compared);
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
    (outcomes, compared)
}

/// [`agree_with_reference`] with the reference prover over `desc`; the goals met at the
/// terminal states reached.
pub fn agree_with_prover(
    name: &str,
    r: &Reasoner,
    desc: &Description,
    games: usize,
    max_steps: usize,
    seed: u64,
    budget: f64,
) -> BTreeSet<Vec<Vec<u32>>> {
    let reference = Reference::Prover(Box::new(Prover::new(desc)));
    agree_with_reference(name, r, &reference, games, max_steps, seed, budget).0
}

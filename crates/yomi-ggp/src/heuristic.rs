//! A material heuristic found by simulation, for any rule sheet: the `material` evaluator.
//!
//! Sancho's log on Breakthrough shows what it plays with there: "Role 0 will use piece set
//! ((true (cell 5 3 white)) ...)", "Will use PieceHeuristic", found by random simulations
//! at the start clock. This is the same idea, simplified: a base proposition of two or more
//! arguments exactly one of which is a role (`(cell 5 3 white)`, not `(control white)`)
//! counts as one piece of that role; random games from the start tell whether role 0's
//! lead in pieces at a random ply of the game's second half goes with its final goal (the
//! Pearson correlation over the games, one ply per game), and only where the correlation
//! is at least [`MIN_CORRELATION`] in size is the heuristic used, with its sign (in
//! cubicup fewer pieces are better: −0.44). A state's evaluation is then, for each role,
//! `0.5 + 0.5·tanh((own pieces − mean of the others') / spread)` on the reward range, the
//! spread being the standard deviation of the lead in the sampled plies, signed like the
//! correlation; terminal states get their true goals. Where no piece set is found, or it
//! does not correlate, every state evaluates to the middle of the range (the neutral
//! evaluation). `yomi ggp check FILE` prints the analysis.
//!
//! The analysis runs once per game ([`GdlGame::material`], shared by the game's clones),
//! on first use, within [`ANALYSIS_SECONDS`].
//!
//! Thread safety: a [`Material`] is immutable once built; evaluation reads it and the
//! state only.

use std::time::{Duration, Instant};

use yomi_core::{Game, Player, Rewards, Rng, Turn};

use crate::ast::Term;
use crate::reasoner::{GdlState, Reasoner};

/// Most seconds the analysis of a game spends on random games.
pub const ANALYSIS_SECONDS: f64 = 1.0;

/// Most random games the analysis plays.
pub const ANALYSIS_GAMES: usize = 4000;

/// Size of the correlation between the piece lead and the final goal below which the
/// heuristic is not used (over 4000 games its standard error is about 0.016).
pub const MIN_CORRELATION: f64 = 0.1;

/// Random games below which no correlation is trusted.
const MIN_GAMES: usize = 50;

/// Plies a random analysis game may last before it is given up.
const MAX_PLIES: usize = 2000;

/// No role owns the base proposition.
const NOBODY: u8 = u8::MAX;

/// The piece sets of a game's roles and whether they predict the goals.
#[derive(Clone, Debug)]
pub struct Material {
    /// The role whose piece each base proposition is ([`NOBODY`] for none).
    owner: Vec<u8>,
    /// Pieces per role among the base propositions.
    pub pieces: Vec<usize>,
    /// Pearson correlation of role 0's piece lead at a random ply with its final goal,
    /// over the random games (0 when not measured).
    pub correlation: f64,
    /// Random games played.
    pub games: usize,
    /// Standard deviation of the lead in the sampled states (at least 1), negative where
    /// the correlation is (fewer pieces are better: a lead counts against).
    spread: f64,
    /// Whether evaluation uses the pieces (a piece set for every role that correlates).
    pub used: bool,
}

impl Material {
    /// Finds the piece sets of `game` and measures them in random games for at most
    /// `seconds` (and [`ANALYSIS_GAMES`] games).
    pub fn analyse<G: Game<State = GdlState>>(
        game: &G,
        r: &Reasoner,
        seconds: f64,
        seed: u64,
    ) -> Material {
        let roles: Vec<Term> = r.roles().to_vec();
        let base = r.base_count();
        let mut owner = vec![NOBODY; base];
        let mut pieces = vec![0usize; roles.len()];
        if roles.len() < 2 || roles.len() > usize::from(NOBODY) {
            return Material::unused(owner, pieces, 0, 0.0);
        }
        for (b, o) in owner.iter_mut().enumerate() {
            // A piece has a place and an owner: `(cell 5 3 white)`, not `(control white)`.
            let Some(Term::Fn(_, args)) = r.base_term(b as u32) else {
                continue;
            };
            if args.len() < 2 {
                continue;
            }
            // Exactly one role among the arguments: a piece of that role.
            let mut named = roles
                .iter()
                .enumerate()
                .filter(|(_, role)| args.iter().any(|a| a == *role));
            if let (Some((i, _)), None) = (named.next(), named.next()) {
                *o = i as u8;
                pieces[i] += 1;
            }
        }
        if pieces.contains(&0) {
            return Material::unused(owner, pieces, 0, 0.0);
        }
        let mut m = Material::unused(owner, pieces, 0, 0.0);
        let (lo, hi) = game.facts().reward_bounds;
        let span = if hi > lo { hi - lo } else { 1.0 };
        let deadline = Instant::now() + Duration::from_secs_f64(seconds.max(0.0));
        let mut rng = Rng::seed_from_u64(seed);
        let mut buf = Vec::new();
        let mut joint = Vec::new();
        let mut leads: Vec<f64> = Vec::new();
        let mut counts = vec![0i32; roles.len()];
        let (mut sx, mut sy, mut sxx, mut syy, mut sxy) = (0.0, 0.0, 0.0, 0.0, 0.0);
        let mut n = 0usize;
        let root = game.initial_state();
        let mut s = root.clone();
        while m.games < ANALYSIS_GAMES && Instant::now() < deadline {
            s.clone_from(&root);
            leads.clear();
            let mut finished = false;
            for _ in 0..MAX_PLIES {
                m.counts(r, &s, &mut counts);
                let others = f64::from(counts[1..].iter().sum::<i32>());
                leads.push(f64::from(counts[0]) - others / (roles.len() - 1) as f64);
                match game.turn(&s) {
                    Turn::Terminal => {
                        finished = true;
                        break;
                    }
                    Turn::Player(_) => match game.random_move(&s, &mut rng, &mut buf) {
                        Some(mv) => game.apply(&mut s, mv),
                        None => break,
                    },
                    Turn::Simultaneous => {
                        joint.clear();
                        for p in 0..roles.len() {
                            game.legal_moves_of(&s, Player(p as u8), &mut buf);
                            if buf.is_empty() {
                                break;
                            }
                            joint.push(buf[rng.below(buf.len())]);
                        }
                        if joint.len() < roles.len() {
                            break;
                        }
                        game.apply_joint(&mut s, &joint);
                    }
                }
            }
            m.games += 1;
            if !finished || leads.len() < 2 {
                continue;
            }
            // One sample per game, at a random ply of its second half before the end (the
            // end itself is judged by the goals; early on every game is even).
            let half = (leads.len() - 1) / 2;
            let x = leads[half + rng.below(leads.len() - 1 - half)];
            let y = (game.returns(&s).get(Player(0)) - lo) / span;
            sx += x;
            sy += y;
            sxx += x * x;
            syy += y * y;
            sxy += x * y;
            n += 1;
        }
        if n < MIN_GAMES {
            return m;
        }
        let nf = n as f64;
        let vx = sxx / nf - (sx / nf).powi(2);
        let vy = syy / nf - (sy / nf).powi(2);
        if vx <= 1e-12 || vy <= 1e-12 {
            return m;
        }
        m.correlation = (sxy / nf - sx / nf * sy / nf) / (vx * vy).sqrt();
        m.spread = vx.sqrt().max(1.0).copysign(m.correlation);
        m.used = m.correlation.abs() >= MIN_CORRELATION;
        m
    }

    fn unused(owner: Vec<u8>, pieces: Vec<usize>, games: usize, correlation: f64) -> Material {
        Material {
            owner,
            pieces,
            correlation,
            games,
            spread: 1.0,
            used: false,
        }
    }

    /// The pieces each role has in `state` (`out` holds one count per role).
    pub fn counts(&self, reasoner: &Reasoner, state: &GdlState, out: &mut [i32]) {
        out.fill(0);
        reasoner.for_each_true_base(state, |b| {
            if let Some(&o) = self.owner.get(b as usize) {
                if o != NOBODY {
                    out[usize::from(o)] += 1;
                }
            }
        });
    }

    /// The heuristic rewards of a non-terminal `state` (see the module docs).
    pub fn rewards<G: Game<State = GdlState>>(
        &self,
        game: &G,
        reasoner: &Reasoner,
        state: &GdlState,
    ) -> Rewards {
        let f = game.facts();
        let (lo, hi) = f.reward_bounds;
        let n = f.players;
        let mut r = Rewards::zeros(n);
        if !self.used {
            for p in f.all_players() {
                r.set(p, 0.5 * (lo + hi));
            }
            return r;
        }
        let mut counts = [0i32; yomi_core::player::MAX_PLAYERS];
        self.counts(reasoner, state, &mut counts[..n]);
        let total: i32 = counts[..n].iter().sum();
        for p in f.all_players() {
            let own = f64::from(counts[p.index()]);
            let others = f64::from(total) - own;
            let lead = own - others / (n - 1) as f64;
            let v = 0.5 + 0.5 * (lead / self.spread).tanh();
            r.set(p, lo + (hi - lo) * v);
        }
        r
    }
}

/// The `material` evaluator of [`crate::registry`]: [`Material::rewards`] of the game's
/// analysis ([`crate::GdlGame::material`]), the true goals at terminal states (its
/// [`yomi_core::search::Evaluator`] impl is beside the game's).
#[derive(Clone, Copy, Debug, Default)]
pub struct MaterialEvaluator;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GdlGame;
    use yomi_core::search::Evaluator;

    #[test]
    fn breakthrough_pieces_are_found_and_a_capture_leads() {
        let game = crate::games::shipped("breakthrough5x5").unwrap();
        let m = game.material();
        assert_eq!(m.pieces, vec![25, 25], "one piece per cell and colour");
        assert!(m.used && m.correlation >= MIN_CORRELATION, "{m:?}");
        let s0 = game.initial_state();
        let even = MaterialEvaluator.evaluate(&game, &s0);
        assert!((even.get(Player(0)) - 50.0).abs() < 1e-9, "{even:?}");
        // Play random games until a capture leaves the roles uneven: the side ahead in
        // pieces is evaluated above the middle, the other below.
        let mut rng = Rng::seed_from_u64(5);
        let mut buf = Vec::new();
        let mut counts = [0i32; 2];
        for _ in 0..200 {
            let mut s = s0.clone();
            while !game.is_terminal(&s) {
                m.counts(game.reasoner(), &s, &mut counts);
                if counts[0] != counts[1] {
                    let e = MaterialEvaluator.evaluate(&game, &s);
                    let ahead = usize::from(counts[1] > counts[0]);
                    assert!(e.get(Player(ahead as u8)) > 50.0, "{counts:?} {e:?}");
                    assert!(e.get(Player(1 - ahead as u8)) < 50.0, "{counts:?} {e:?}");
                    return;
                }
                let mv = game.random_move(&s, &mut rng, &mut buf).unwrap();
                game.apply(&mut s, mv);
            }
        }
        panic!("no capture in 200 random games");
    }

    #[test]
    fn without_a_piece_set_every_state_is_even() {
        // One role: nothing to compare, the evaluation is neutral.
        let kif = "(role p) (init (cell 0)) (legal p go)
            (<= (next (cell ?y)) (true (cell ?x)) (succ ?x ?y))
            (<= terminal (true (cell 2))) (goal p 100) (succ 0 1) (succ 1 2)";
        let game = GdlGame::from_kif("one", kif).unwrap();
        assert!(!game.material().used);
        let e = MaterialEvaluator.evaluate(&game, &game.initial_state());
        assert!((e.get(Player(0)) - 50.0).abs() < 1e-9);
        // Terminal states get their goals.
        let mut s = game.initial_state();
        while !game.is_terminal(&s) {
            let mut buf = Vec::new();
            let mv = game
                .random_move(&s, &mut Rng::seed_from_u64(1), &mut buf)
                .unwrap();
            game.apply(&mut s, mv);
        }
        assert_eq!(MaterialEvaluator.evaluate(&game, &s).get(Player(0)), 100.0);
    }
}

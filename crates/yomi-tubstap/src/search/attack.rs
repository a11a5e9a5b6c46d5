//! The attack-action search (Murayama et al.): enumerate every sequence of at most `l`
//! attack actions, let the remaining units act by a fixed routine, evaluate the end of the
//! turn with g and keep the best sequence.
//!
//! Attacks are grouped by (attacker, target): of the squares from which a unit can attack
//! the same target only the one with the most defence stars for the attacker is tried
//! (the first found on ties), which keeps the enumeration to orderings of distinct attacks.
//!
//! The fixed routine, unit by unit in id order: make the attack that raises g most, if any
//! raises it; otherwise move toward the nearest enemy it can damage (direct units: as close
//! as possible; the cannon: to distance 3), preferring squares with more defence stars.

use std::time::Instant;

use yomi_core::Game;

use crate::eval::g;
use crate::game::Tubstap;
use crate::state::{TbsMove, TbsState, UnitAction};

/// The best sequence found: the whole turn, its final g and how many sequences were scored.
#[derive(Clone, Debug, PartialEq)]
pub struct AttackPlan {
    /// Unit actions for the rest of the turn.
    pub moves: Vec<TbsMove>,
    /// g at the end of the turn, for the side that moved.
    pub value: f64,
    /// Sequences evaluated.
    pub sequences: u64,
}

/// The distinct attacks available (one square per attacker and target).
pub fn distinct_attacks(game: &Tubstap, state: &TbsState, out: &mut Vec<TbsMove>) {
    out.clear();
    game.all_attacks(state, out);
    let mut kept = 0;
    for i in 0..out.len() {
        let a = *out[i].action().expect("attacks are unit actions");
        let stars = game.stars(a.x, a.y);
        match out[..kept].iter().position(|m| {
            let b = m.action().expect("unit action");
            b.unit == a.unit && b.target == a.target
        }) {
            Some(j) => {
                let b = *out[j].action().expect("unit action");
                if stars > game.stars(b.x, b.y) && !game.kind(a.unit as usize).is_air() {
                    out[j] = out[i];
                }
            }
            None => {
                out[kept] = out[i];
                kept += 1;
            }
        }
    }
    out.truncate(kept);
}

/// The fixed routine's action for unit `id` (see the module docs).
pub fn routine_action(
    game: &Tubstap,
    state: &TbsState,
    id: usize,
    buf: &mut Vec<TbsMove>,
) -> TbsMove {
    let me = game.team(id);
    buf.clear();
    game.unit_actions(state, id, buf);
    let now = g(game, state, me);
    let mut best_attack: Option<(f64, TbsMove)> = None;
    for &mv in buf.iter().filter(|m| m.is_attack()) {
        let mut s = state.clone();
        game.apply(&mut s, mv);
        let v = g(game, &s, me);
        if v > now && best_attack.is_none_or(|(b, _)| v > b) {
            best_attack = Some((v, mv));
        }
    }
    if let Some((_, mv)) = best_attack {
        return mv;
    }
    let kind = game.kind(id);
    let damageable = |t: usize| kind.power(game.kind(t)) > 0;
    let enemies = || (0..game.units()).filter(move |&t| state.unit(t).hp > 0 && game.team(t) != me);
    let prefer_damageable = enemies().any(damageable);
    let mut best: Option<((u32, i32), TbsMove)> = None;
    for &mv in buf.iter().filter(|m| !m.is_attack()) {
        let a: &UnitAction = mv.action().expect("unit action");
        let d = enemies()
            .filter(|&t| !prefer_damageable || damageable(t))
            .map(|t| {
                let e = state.unit(t);
                e.x.abs_diff(a.x) as u32 + e.y.abs_diff(a.y) as u32
            })
            .min()
            .unwrap_or(0);
        let dist_key = if kind.is_direct() { d } else { d.abs_diff(3) };
        let key = (dist_key, -(game.stars(a.x, a.y) as i32));
        if best.is_none_or(|(k, _)| key < k) {
            best = Some((key, mv));
        }
    }
    best.map(|b| b.1).unwrap_or(TbsMove::EndTurn)
}

/// Completes the current turn with the fixed routine, appending the actions to `out`.
pub fn complete_turn(
    game: &Tubstap,
    state: &mut TbsState,
    out: &mut Vec<TbsMove>,
    buf: &mut Vec<TbsMove>,
) {
    let (turn, mover) = (state.turn(), state.mover());
    while !game.over(state) && state.turn() == turn && state.mover() == mover {
        let Some(id) = game.ready_units(state).next() else {
            break;
        };
        let mv = routine_action(game, state, id, buf);
        game.apply(state, mv);
        out.push(mv);
    }
}

struct Searcher<'a> {
    game: &'a Tubstap,
    me: u8,
    turn: u32,
    max_len: usize,
    deadline: Option<Instant>,
    prefix: Vec<TbsMove>,
    tail: Vec<TbsMove>,
    buf: Vec<TbsMove>,
    best: AttackPlan,
}

impl Searcher<'_> {
    fn out_of_time(&self) -> bool {
        self.best.sequences % 16 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    fn score(&mut self, state: &TbsState) {
        let mut s = state.clone();
        self.tail.clear();
        complete_turn(self.game, &mut s, &mut self.tail, &mut self.buf);
        let v = g(self.game, &s, self.me);
        self.best.sequences += 1;
        if v > self.best.value {
            self.best.value = v;
            self.best.moves.clear();
            self.best.moves.extend_from_slice(&self.prefix);
            self.best.moves.extend_from_slice(&self.tail);
        }
    }

    fn dfs(&mut self, state: &TbsState, depth: usize) {
        self.score(state);
        if depth >= self.max_len || self.out_of_time() {
            return;
        }
        let mut attacks = Vec::new();
        distinct_attacks(self.game, state, &mut attacks);
        for mv in attacks {
            let mut child = state.clone();
            self.game.apply(&mut child, mv);
            self.prefix.push(mv);
            if self.game.over(&child) || child.turn() != self.turn {
                self.score(&child);
            } else {
                self.dfs(&child, depth + 1);
            }
            self.prefix.pop();
            if self.out_of_time() {
                return;
            }
        }
    }
}

/// The attack-action search from `state` (the mover's turn, possibly part-played) with
/// sequences of at most `max_len` attacks, stopping early at `deadline`.
///
/// ```
/// use yomi_core::Game;
/// use yomi_tubstap::{maps, search::attack::attack_search};
/// let game = maps::standard();
/// let plan = attack_search(&game, &game.initial_state(), 4, None);
/// assert_eq!(plan.moves.len(), 6); // no attack yet: every unit moves by the routine
/// ```
pub fn attack_search(
    game: &Tubstap,
    state: &TbsState,
    max_len: usize,
    deadline: Option<Instant>,
) -> AttackPlan {
    let mut s = Searcher {
        game,
        me: state.mover(),
        turn: state.turn(),
        max_len,
        deadline,
        prefix: Vec::new(),
        tail: Vec::new(),
        buf: Vec::new(),
        best: AttackPlan {
            moves: Vec::new(),
            value: f64::NEG_INFINITY,
            sequences: 0,
        },
    };
    if !game.over(state) {
        s.dfs(state, 0);
    }
    s.best
}

//! [`Tubstap`]: the rules on one map, implementing [`yomi_core::Game`].
//!
//! Reachability is the platform's bucket search over remaining move points (a Dijkstra for
//! integer costs): cells are settled in order of decreasing remaining points, friends are
//! passed through but not stopped on, enemies block. Per map the move cost of every cell for
//! every unit kind and its defence stars are precomputed; per call the search uses
//! thread-local buffers, so move generation and playouts do not allocate.
//!
//! # Actions and tensors
//! Both address the map's inner cells (the border ring left out): `W' = width − 2` columns
//! and `H' = height − 2` rows, cell `(x, y)` at `(y − 1)·W' + (x − 1)` (row 0 is the map
//! file's first inner row).
//!
//! [`ActionSpace`]: a fixed numbering per map. Unit `u` (every unit of the map, by id) has
//! a block of `W'·H'·(1 + E(u))` actions, `E(u)` the number of units of the other team on
//! the map; blocks follow each other in id order. Inside the block, the action of "move to
//! cell `c`, then attack option `k`" is `c·(1 + E(u)) + k`, where `k = 0` is no attack
//! and `k = 1 + j` attacks the `j`-th unit (by id) of the other team. The last action,
//! `W'·H'·(n + 2·R·B)` for `R` red and `B` blue units, `n = R + B`, ends the turn; there
//! are `W'·H'·(n + 2·R·B) + 1` actions ([`Tubstap::action_of`], [`Tubstap::move_of`]).
//! On the 8×8 standard map (6 against 6): `36·84 + 1 = 3025`.
//!
//! [`TensorGame`]: 23 planes of `H' × W'`, from `perspective`'s side:
//! 0–6. the terrain, one-hot by code (no entry, plain, sea, forest, mountain, road,
//!    fortress);
//! 7. `perspective`'s units' HP / 10;
//! 8. the other team's units' HP / 10;
//! 9–14. `perspective`'s units by kind, one-hot (fighter, attacker, panzer, cannon,
//!    anti-air, infantry);
//! 15–20. the other team's units by kind;
//! 21. `perspective`'s units that may still act this turn (zeros when the other team is to
//!    move or the game is over);
//! 22. side-turns played / the map's turn limit (the same in every cell).

use std::cell::RefCell;
use std::sync::Arc;

use yomi_core::{ActionSpace, GameFacts, Player, TensorGame, TensorShape};

use crate::map::{MapError, TbsMap, MAX_UNITS};
use crate::rules::{Terrain, UnitKind, IMPASSABLE, MOVE_COST};
use crate::state::{TbsMove, TbsState, UnitAction, UnitState};

/// Cells addressed by a bitset: `MAX_SIDE²` = 1024 bits.
const WORDS: usize = 16;
/// Most cells one unit can reach (a diamond of radius 9).
const MAX_REACH: usize = 192;

#[derive(Clone, Copy)]
struct Bits([u64; WORDS]);

impl Bits {
    #[inline]
    fn get(&self, i: usize) -> bool {
        self.0[i >> 6] >> (i & 63) & 1 != 0
    }
    #[inline]
    fn set(&mut self, i: usize) {
        self.0[i >> 6] |= 1 << (i & 63);
    }
}

/// Occupied cells per team.
#[derive(Clone, Copy)]
pub(crate) struct Occupancy {
    team: [Bits; 2],
}

/// Buffers of one reachability search.
struct Scratch {
    seen: Bits,
    buckets: [[u16; MAX_REACH]; 10],
    lens: [u8; 10],
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const { RefCell::new(Scratch {
        seen: Bits([0; WORDS]),
        buckets: [[0; MAX_REACH]; 10],
        lens: [0; 10],
    }) };
}

/// The rules of TUBSTAP on one map. Cheap to clone (the map data is shared).
#[derive(Clone, Debug)]
pub struct Tubstap {
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// Computed from the map when the game is built.
    facts: GameFacts,
    map: TbsMap,
    width: usize,
    /// Move cost per kind per cell (`IMPASSABLE` for no entry).
    cost: [Vec<u8>; 6],
    /// Defence stars per cell for ground units.
    stars: Vec<u8>,
    n: usize,
    kinds: [UnitKind; MAX_UNITS],
    teams: [u8; MAX_UNITS],
    initial: TbsState,
}

impl Tubstap {
    /// The game on `map`, named `tubstap:<name>`.
    ///
    /// # Errors
    /// [`MapError`] when the map is not playable (see [`TbsMap::validate`]).
    pub fn new(name: &str, map: TbsMap) -> Result<Tubstap, MapError> {
        map.validate()?;
        let cells = map.width * map.height;
        let cost = std::array::from_fn(|k| {
            (0..cells)
                .map(|c| MOVE_COST[k][map.terrain[c] as usize])
                .collect()
        });
        let stars = map.terrain.iter().map(|t| t.stars() as u8).collect();
        let n = map.units.len();
        let mut kinds = [UnitKind::Infantry; MAX_UNITS];
        let mut teams = [0u8; MAX_UNITS];
        let mut units = [UnitState::default(); MAX_UNITS];
        let mut alive = [0u8; 2];
        for (i, u) in map.units.iter().enumerate() {
            kinds[i] = u.kind;
            teams[i] = u.team;
            units[i] = UnitState {
                x: u.x,
                y: u.y,
                hp: u.hp,
                finished: u.finished,
            };
            alive[u.team as usize] += 1;
        }
        let most = map.team_units(0).count().max(map.team_units(1).count());
        let mut initial = TbsState {
            units,
            turn: 0,
            mover: 0,
            alive,
        };
        let max_turns = map.turn_limit as usize * (most + 1);
        let inner = Inner {
            facts: GameFacts::two_player_zero_sum(
                &format!("tubstap:{name}"),
                ["red", "blue"],
                max_turns,
            ),
            width: map.width,
            map,
            cost,
            stars,
            n,
            kinds,
            teams,
            initial: initial.clone(),
        };
        let mut game = Tubstap {
            inner: Arc::new(inner),
        };
        // Red may start with every unit finished: then its turn passes at once.
        game.settle(&mut initial);
        Arc::get_mut(&mut game.inner)
            .expect("the game is not shared yet")
            .initial = initial;
        Ok(game)
    }

    /// Reads `.tbsmap` text and builds the game.
    ///
    /// # Errors
    /// [`MapError`] naming the line and field at fault.
    pub fn from_map_text(name: &str, text: &str) -> Result<Tubstap, MapError> {
        Tubstap::new(name, TbsMap::parse(text)?)
    }

    /// The map.
    pub fn map(&self) -> &TbsMap {
        &self.inner.map
    }

    /// The game's name (`tubstap:<map>`).
    pub fn name(&self) -> &str {
        &self.inner.facts.name
    }

    /// Number of units (ids are `0..units()`).
    #[inline]
    pub fn units(&self) -> usize {
        self.inner.n
    }

    /// The kind of unit `id`.
    #[inline]
    pub fn kind(&self, id: usize) -> UnitKind {
        self.inner.kinds[id]
    }

    /// The team of unit `id` (0 red, 1 blue).
    #[inline]
    pub fn team(&self, id: usize) -> u8 {
        self.inner.teams[id]
    }

    /// The terrain at (x, y).
    #[inline]
    pub fn terrain(&self, x: u8, y: u8) -> Terrain {
        self.inner.map.terrain_at(x as usize, y as usize)
    }

    /// The map's side-turn limit.
    pub fn turn_limit(&self) -> u32 {
        self.inner.map.turn_limit
    }

    /// The initial state (the map's placement).
    pub(crate) fn initial(&self) -> &TbsState {
        &self.inner.initial
    }

    /// The facts [`yomi_core::Game::facts`] returns, computed once in [`Tubstap::new`].
    pub(crate) fn stored_facts(&self) -> &GameFacts {
        &self.inner.facts
    }

    #[inline]
    fn cell(&self, x: u8, y: u8) -> usize {
        y as usize * self.inner.width + x as usize
    }

    /// The unit (alive) standing at (x, y).
    pub fn unit_at(&self, state: &TbsState, x: u8, y: u8) -> Option<usize> {
        (0..self.inner.n).find(|&i| {
            let u = &state.units[i];
            u.hp > 0 && u.x == x && u.y == y
        })
    }

    /// Total HP of `team`.
    pub fn total_hp(&self, state: &TbsState, team: u8) -> u32 {
        (0..self.inner.n)
            .filter(|&i| self.inner.teams[i] == team)
            .map(|i| state.units[i].hp as u32)
            .sum()
    }

    /// True when the game is over (annihilation or the turn limit).
    #[inline]
    pub fn over(&self, state: &TbsState) -> bool {
        state.alive[0] == 0 || state.alive[1] == 0 || state.turn as u32 >= self.inner.map.turn_limit
    }

    /// The winner at a terminal state (`None`: a draw or not over).
    pub fn winner(&self, state: &TbsState) -> Option<u8> {
        if state.alive[0] == 0 {
            return (state.alive[1] > 0).then_some(1);
        }
        if state.alive[1] == 0 {
            return Some(0);
        }
        if (state.turn as u32) < self.inner.map.turn_limit {
            return None;
        }
        let red = self.total_hp(state, 0) as i64;
        let blue = self.total_hp(state, 1) as i64;
        let t = self.inner.map.hp_threshold as i64;
        if red > blue + t {
            Some(0)
        } else if blue > red + t {
            Some(1)
        } else {
            None
        }
    }

    /// Ids of the mover's units that have not acted yet, in id order.
    pub fn ready_units(&self, state: &TbsState) -> impl Iterator<Item = usize> + '_ {
        let mover = state.mover;
        let units = state.units;
        (0..self.inner.n)
            .filter(move |&i| self.inner.teams[i] == mover && units[i].hp > 0 && !units[i].finished)
    }

    /// Number of the mover's units that have not acted yet.
    pub fn ready_count(&self, state: &TbsState) -> usize {
        self.ready_units(state).count()
    }

    pub(crate) fn occupancy(&self, state: &TbsState) -> Occupancy {
        let mut occ = Occupancy {
            team: [Bits([0; WORDS]); 2],
        };
        for i in 0..self.inner.n {
            let u = &state.units[i];
            if u.hp > 0 {
                occ.team[self.inner.teams[i] as usize].set(self.cell(u.x, u.y));
            }
        }
        occ
    }

    /// Calls `visit(x, y)` for every cell unit `id` may end its move on (its own cell first),
    /// and returns nothing; `attack(x, y, target)` for every attack it can make.
    #[inline]
    pub(crate) fn for_each_action(
        &self,
        state: &TbsState,
        occ: &Occupancy,
        id: usize,
        want_moves: bool,
        mut visit: impl FnMut(UnitAction),
    ) {
        let inner = &*self.inner;
        let kind = inner.kinds[id];
        let team = inner.teams[id] as usize;
        let u = state.units[id];
        let enemy = 1 - team;
        let w = inner.width;
        if !kind.is_direct() {
            // The cannon: move only, or fire from where it stands at distance 2..=3.
            for t in 0..inner.n {
                let e = &state.units[t];
                if e.hp == 0 || inner.teams[t] as usize != enemy {
                    continue;
                }
                let d = e.x.abs_diff(u.x) as u32 + e.y.abs_diff(u.y) as u32;
                if (kind.min_range() as u32..=kind.max_range() as u32).contains(&d) {
                    visit(UnitAction {
                        unit: id as u8,
                        x: u.x,
                        y: u.y,
                        target: Some(t as u8),
                    });
                }
            }
            if !want_moves {
                return;
            }
        }
        // Enemy positions, for attacks only: a cell whose nearest enemy is farther than its
        // remaining points + 1 leads to no attack square and is not expanded.
        let mut foes = [(0u8, 0u8); MAX_UNITS];
        let mut nfoes = 0;
        if !want_moves {
            for t in 0..inner.n {
                let e = &state.units[t];
                if e.hp > 0 && inner.teams[t] as usize == enemy {
                    foes[nfoes] = (e.x, e.y);
                    nfoes += 1;
                }
            }
        }
        let foes = &foes[..nfoes];
        let too_far = |c: usize, rest: usize| -> bool {
            let (x, y) = ((c % w) as i32, (c / w) as i32);
            foes.iter()
                .all(|&(ex, ey)| (ex as i32 - x).abs() + (ey as i32 - y).abs() > rest as i32 + 1)
        };
        if !want_moves && too_far(self.cell(u.x, u.y), kind.move_points() as usize) {
            return;
        }
        let cost = &inner.cost[kind.index()];
        let start = self.cell(u.x, u.y);
        let mp = kind.move_points() as usize;
        SCRATCH.with(|s| {
            let mut s = s.borrow_mut();
            let s = &mut *s;
            s.seen = Bits([0; WORDS]);
            s.lens = [0; 10];
            s.seen.set(start);
            s.buckets[mp][0] = start as u16;
            s.lens[mp] = 1;
            let enemy_occ = occ.team[enemy];
            for rest in (1..=mp).rev() {
                let mut k = 0;
                while k < s.lens[rest] as usize {
                    let c = s.buckets[rest][k] as usize;
                    k += 1;
                    for nb in [c + 1, c - 1, c + w, c - w] {
                        let step = cost[nb] as usize;
                        if step > rest || enemy_occ.get(nb) || s.seen.get(nb) {
                            continue;
                        }
                        s.seen.set(nb);
                        let r = rest - step;
                        let l = s.lens[r] as usize;
                        s.buckets[r][l] = nb as u16;
                        s.lens[r] += 1;
                    }
                }
            }
            let friends = occ.team[team];
            let stop = |c: usize| c == start || (s.seen.get(c) && !friends.get(c));
            if want_moves {
                // Stop cells in order of decreasing remaining points (the start first).
                for rest in (0..=mp).rev() {
                    for k in 0..s.lens[rest] as usize {
                        let c = s.buckets[rest][k] as usize;
                        if stop(c) {
                            visit(UnitAction {
                                unit: id as u8,
                                x: (c % w) as u8,
                                y: (c / w) as u8,
                                target: None,
                            });
                        }
                    }
                }
            }
            if kind.is_direct() {
                for t in 0..inner.n {
                    let e = &state.units[t];
                    if e.hp == 0 || inner.teams[t] as usize != enemy {
                        continue;
                    }
                    let ec = self.cell(e.x, e.y);
                    for from in [ec + 1, ec - 1, ec + w, ec - w] {
                        if stop(from) {
                            visit(UnitAction {
                                unit: id as u8,
                                x: (from % w) as u8,
                                y: (from / w) as u8,
                                target: Some(t as u8),
                            });
                        }
                    }
                }
            }
        });
    }

    /// Appends every action of unit `id` (moves, then attacks) to `out`.
    pub fn unit_actions(&self, state: &TbsState, id: usize, out: &mut Vec<TbsMove>) {
        let occ = self.occupancy(state);
        self.for_each_action(state, &occ, id, true, |a| out.push(TbsMove::Act(a)));
    }

    /// Appends the attacks of unit `id` to `out`.
    pub fn unit_attacks(&self, state: &TbsState, id: usize, out: &mut Vec<TbsMove>) {
        let occ = self.occupancy(state);
        self.for_each_action(state, &occ, id, false, |a| out.push(TbsMove::Act(a)));
    }

    /// Appends the attacks of every unit still to act to `out`.
    pub fn all_attacks(&self, state: &TbsState, out: &mut Vec<TbsMove>) {
        let occ = self.occupancy(state);
        for id in 0..self.inner.n {
            let u = &state.units[id];
            if u.hp > 0 && !u.finished && self.inner.teams[id] == state.mover {
                self.for_each_action(state, &occ, id, false, |a| out.push(TbsMove::Act(a)));
            }
        }
    }

    /// The damage `action` would deal and the counter-damage it would take, in `state`.
    /// `(0, 0)` for a move without attack.
    pub fn preview(&self, state: &TbsState, action: &UnitAction) -> (u8, u8) {
        let Some(t) = action.target else {
            return (0, 0);
        };
        let (a, d) = (action.unit as usize, t as usize);
        let au = &state.units[a];
        let du = &state.units[d];
        crate::rules::combat(
            self.inner.kinds[a],
            au.hp,
            self.terrain(action.x, action.y),
            self.inner.kinds[d],
            du.hp,
            self.terrain(du.x, du.y),
        )
    }

    /// Applies a unit action without checking it.
    pub(crate) fn act(&self, state: &mut TbsState, a: &UnitAction) {
        let id = a.unit as usize;
        if let Some(t) = a.target {
            let (dealt, back) = self.preview(state, a);
            let t = t as usize;
            let target = &mut state.units[t];
            target.hp -= dealt;
            if target.hp == 0 {
                // Destroyed units are blanked, so equal positions are equal states.
                *target = UnitState::default();
                state.alive[self.inner.teams[t] as usize] -= 1;
            }
            let me = &mut state.units[id];
            me.hp -= back;
            if me.hp == 0 {
                *me = UnitState::default();
                state.alive[self.inner.teams[id] as usize] -= 1;
                return;
            }
        }
        let me = &mut state.units[id];
        me.x = a.x;
        me.y = a.y;
        me.finished = true;
    }

    /// Ends the turn when the mover has no unit left to act; repeats for a side that starts
    /// its turn with nothing to act.
    pub(crate) fn settle(&self, state: &mut TbsState) {
        loop {
            if self.over(state) || self.ready_units(state).next().is_some() {
                return;
            }
            self.finish_turn(state);
        }
    }

    pub(crate) fn finish_turn(&self, state: &mut TbsState) {
        let mover = state.mover;
        for i in 0..self.inner.n {
            if self.inner.teams[i] == mover && state.units[i].hp > 0 {
                state.units[i].finished = false;
            }
        }
        state.turn += 1;
        state.mover = 1 - mover;
    }

    /// The first reason `mv` is illegal in `state`, or `None` when it is legal.
    pub fn illegal_reason(&self, state: &TbsState, mv: &TbsMove) -> Option<String> {
        if self.over(state) {
            return Some("the game is over".into());
        }
        let a = match mv {
            TbsMove::EndTurn => return None,
            TbsMove::Act(a) => a,
        };
        let id = a.unit as usize;
        if id >= self.inner.n {
            return Some(format!(
                "there is no unit {id} (units are numbered 0..{})",
                self.inner.n - 1
            ));
        }
        let u = &state.units[id];
        let kind = self.kind(id);
        let side = team_name(state.mover);
        if u.hp == 0 {
            return Some(format!("unit {id} ({kind}) has been destroyed"));
        }
        if self.team(id) != state.mover {
            return Some(format!(
                "unit {id} ({kind}) belongs to {}, and {side} is to move",
                team_name(self.team(id))
            ));
        }
        if u.finished {
            return Some(format!("unit {id} ({kind}) has already acted this turn"));
        }
        if let Some(t) = a.target {
            let t = t as usize;
            if t >= self.inner.n || state.units[t].hp == 0 {
                return Some(format!("there is no unit {t} on the board to attack"));
            }
            if self.team(t) == state.mover {
                return Some(format!("unit {t} is on your own side"));
            }
            if !kind.is_direct() && (a.x, a.y) != (u.x, u.y) {
                return Some(format!(
                    "the cannon (unit {id}) cannot move and fire in the same action; attack from {},{}",
                    u.x, u.y
                ));
            }
        }
        let mut legal = false;
        let mut can_reach = false;
        let occ = self.occupancy(state);
        self.for_each_action(state, &occ, id, true, |b| {
            if b == *a {
                legal = true;
            }
            if (b.x, b.y) == (a.x, a.y) {
                can_reach = true;
            }
        });
        if legal {
            return None;
        }
        if !can_reach {
            return Some(format!(
                "unit {id} ({kind}, {} move points) cannot end its move on {},{}",
                kind.move_points(),
                a.x,
                a.y
            ));
        }
        let t = a.target.expect("a reachable move without target is legal") as usize;
        let e = &state.units[t];
        let d = e.x.abs_diff(a.x) as u32 + e.y.abs_diff(a.y) as u32;
        Some(format!(
            "unit {t} at {},{} is at distance {d} from {},{}; a {kind} attacks at distance {}",
            e.x,
            e.y,
            a.x,
            a.y,
            if kind.is_direct() { "1" } else { "2 to 3" }
        ))
    }
}

/// "red" or "blue".
pub fn team_name(team: u8) -> &'static str {
    if team == 0 {
        "red"
    } else {
        "blue"
    }
}

impl Tubstap {
    /// Builds a state from parts, checking it (used by the state notation).
    pub(crate) fn assemble(
        &self,
        units: [UnitState; MAX_UNITS],
        turn: u16,
        mover: u8,
    ) -> Result<TbsState, String> {
        let mut alive = [0u8; 2];
        for i in 0..self.inner.n {
            let u = &units[i];
            if u.hp == 0 {
                continue;
            }
            if u.hp > 10 {
                return Err(format!("unit {i} has {} HP (most is 10)", u.hp));
            }
            let t = self.terrain(u.x, u.y);
            let start = &self.inner.map.units[i];
            if self.kind(i).cost(t).is_none() && (start.x, start.y) != (u.x, u.y) {
                return Err(format!(
                    "unit {i} ({}) cannot stand on {} at {},{}",
                    self.kind(i),
                    t.name(),
                    u.x,
                    u.y
                ));
            }
            if let Some(j) =
                (0..i).find(|&j| units[j].hp > 0 && (units[j].x, units[j].y) == (u.x, u.y))
            {
                return Err(format!("units {j} and {i} share cell {},{}", u.x, u.y));
            }
            alive[self.inner.teams[i] as usize] += 1;
        }
        for u in &units[self.inner.n..] {
            if *u != UnitState::default() {
                return Err("data for units the map does not have".into());
            }
        }
        if mover > 1 {
            return Err("the mover must be red or blue".into());
        }
        if turn as u32 > self.inner.map.turn_limit {
            return Err(format!(
                "turn {turn} is past the map's limit of {}",
                self.inner.map.turn_limit
            ));
        }
        let s = TbsState {
            units,
            turn,
            mover,
            alive,
        };
        if !self.over(&s) && self.ready_units(&s).next().is_none() {
            return Err(format!(
                "{} is to move but has no unit left to act (the turn would have ended)",
                team_name(mover)
            ));
        }
        Ok(s)
    }

    /// The move cost table of the map for `kind` (row-major, `IMPASSABLE` = no entry).
    pub fn costs(&self, kind: UnitKind) -> &[u8] {
        &self.inner.cost[kind.index()]
    }

    /// Defence stars of the cell (x, y) for ground units.
    pub fn stars(&self, x: u8, y: u8) -> u8 {
        self.inner.stars[self.cell(x, y)]
    }
}

impl Tubstap {
    /// Inner cells (the border ring left out): `(W', H')`.
    #[inline]
    fn inner_size(&self) -> (usize, usize) {
        (self.inner.map.width - 2, self.inner.map.height - 2)
    }

    /// Units of the map on `team`.
    #[inline]
    fn team_size(&self, team: u8) -> usize {
        self.inner.teams[..self.inner.n]
            .iter()
            .filter(|&&t| t == team)
            .count()
    }

    /// Attack options of unit `u`'s actions per cell: none, then each enemy unit.
    #[inline]
    fn options(&self, u: usize) -> usize {
        1 + self.team_size(1 - self.inner.teams[u])
    }

    /// The first action of unit `u`'s block.
    fn block_start(&self, u: usize) -> usize {
        let (w, h) = self.inner_size();
        (0..u).map(|v| self.options(v)).sum::<usize>() * w * h
    }

    /// The [`ActionSpace`] action of `mv` (see the [module documentation](self)); the
    /// move need not be legal, but a unit action's cell must be an inner cell and its
    /// target a unit of the other team.
    pub fn action_of(&self, mv: &TbsMove) -> usize {
        let a = match mv {
            TbsMove::EndTurn => return self.num_actions() - 1,
            TbsMove::Act(a) => a,
        };
        let (w, _) = self.inner_size();
        let u = a.unit as usize;
        let cell = (a.y as usize - 1) * w + (a.x as usize - 1);
        let option = a.target.map_or(0, |t| {
            let team = self.inner.teams[t as usize];
            1 + self.inner.teams[..t as usize]
                .iter()
                .filter(|&&x| x == team)
                .count()
        });
        self.block_start(u) + cell * self.options(u) + option
    }

    /// The move of action `action`, legal or not; `None` at or above
    /// [`ActionSpace::num_actions`]. The inverse of [`Tubstap::action_of`].
    pub fn move_of(&self, action: usize) -> Option<TbsMove> {
        let total = self.num_actions();
        if action + 1 >= total {
            return (action + 1 == total).then_some(TbsMove::EndTurn);
        }
        let (w, h) = self.inner_size();
        let mut rest = action;
        for u in 0..self.inner.n {
            let options = self.options(u);
            let block = w * h * options;
            if rest >= block {
                rest -= block;
                continue;
            }
            let (cell, option) = (rest / options, rest % options);
            let target = (option > 0).then(|| {
                let enemy = 1 - self.inner.teams[u];
                (0..self.inner.n)
                    .filter(|&t| self.inner.teams[t] == enemy)
                    .nth(option - 1)
                    .expect("options count the enemy units") as u8
            });
            return Some(TbsMove::Act(UnitAction {
                unit: u as u8,
                x: (cell % w + 1) as u8,
                y: (cell / w + 1) as u8,
                target,
            }));
        }
        None
    }
}

impl ActionSpace for Tubstap {
    /// `W'·H'·(n + 2·R·B) + 1`: every unit's cells times its attack options, and ending the
    /// turn.
    fn num_actions(&self) -> usize {
        let (w, h) = self.inner_size();
        let (red, blue) = (self.team_size(0), self.team_size(1));
        w * h * (self.inner.n + 2 * red * blue) + 1
    }

    fn action_index(&self, _: &TbsState, mv: TbsMove) -> usize {
        self.action_of(&mv)
    }

    fn action_move(&self, state: &TbsState, player: Player, action: usize) -> Option<TbsMove> {
        if self.over(state) || player.0 != state.mover {
            return None;
        }
        let mv = self.move_of(action)?;
        self.illegal_reason(state, &mv).is_none().then_some(mv)
    }
}

impl TensorGame for Tubstap {
    /// 23 planes over the inner cells; see the [module documentation](self).
    fn tensor_shape(&self) -> TensorShape {
        let (w, h) = self.inner_size();
        TensorShape {
            channels: 23,
            height: h,
            width: w,
        }
    }

    fn encode(&self, state: &TbsState, perspective: Player, out: &mut [f32]) {
        let shape = self.tensor_shape();
        let (w, h) = (shape.width, shape.height);
        out.fill(0.0);
        let progress = state.turn as f32 / self.inner.map.turn_limit.max(1) as f32;
        for y in 0..h {
            for x in 0..w {
                let t = self.inner.map.terrain_at(x + 1, y + 1);
                out[shape.offset(t.code() as usize, y, x)] = 1.0;
                out[shape.offset(22, y, x)] = progress;
            }
        }
        let to_act = !self.over(state) && state.mover == perspective.0;
        for id in 0..self.inner.n {
            let u = &state.units[id];
            if u.hp == 0 {
                continue;
            }
            let (x, y) = (u.x as usize - 1, u.y as usize - 1);
            let mine = self.inner.teams[id] == perspective.0;
            let kind = self.inner.kinds[id].index();
            let (hp, kinds) = if mine { (7, 9) } else { (8, 15) };
            out[shape.offset(hp, y, x)] = u.hp as f32 / 10.0;
            out[shape.offset(kinds + kind, y, x)] = 1.0;
            if mine && to_act && !u.finished {
                out[shape.offset(21, y, x)] = 1.0;
            }
        }
    }
}

const _: () = assert!(
    IMPASSABLE > 9,
    "impassable must exceed every move point total"
);

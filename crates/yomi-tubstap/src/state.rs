//! Positions and moves: [`TbsState`] (plain `Copy`-sized data, 140 bytes) and [`TbsMove`].

use crate::map::MAX_UNITS;

/// One unit's changing data; its kind and team are fixed by the map (see
/// [`crate::Tubstap::kind`], [`crate::Tubstap::team`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct UnitState {
    /// Column.
    pub x: u8,
    /// Row.
    pub y: u8,
    /// Hit points; 0 = destroyed (removed from the board).
    pub hp: u8,
    /// Already acted this turn (or flagged "finished" by the map for its side's first turn).
    pub finished: bool,
}

/// A position: every unit, the side to move and the side-turn counter.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct TbsState {
    pub(crate) units: [UnitState; MAX_UNITS],
    /// Side-turns completed (the platform's turn counter; the game ends at the map's limit).
    pub(crate) turn: u16,
    /// The team to move: 0 red, 1 blue.
    pub(crate) mover: u8,
    /// Units alive per team.
    pub(crate) alive: [u8; 2],
}

impl TbsState {
    /// The unit with id `id` (ids are the map's order of appearance).
    #[inline]
    pub fn unit(&self, id: usize) -> &UnitState {
        &self.units[id]
    }

    /// Side-turns completed so far.
    #[inline]
    pub fn turn(&self) -> u32 {
        self.turn as u32
    }

    /// The team to move (0 red, 1 blue); meaningless at terminal states.
    #[inline]
    pub fn mover(&self) -> u8 {
        self.mover
    }

    /// Units alive of `team`.
    #[inline]
    pub fn alive(&self, team: u8) -> u8 {
        self.alive[team as usize]
    }
}

/// One unit's action: move to (x, y) (its own cell to stay), then optionally attack `target`.
/// The cannon attacks only without moving.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct UnitAction {
    /// The acting unit's id.
    pub unit: u8,
    /// Destination column.
    pub x: u8,
    /// Destination row.
    pub y: u8,
    /// The attacked unit's id, if any.
    pub target: Option<u8>,
}

impl UnitAction {
    /// True for an action that attacks.
    #[inline]
    pub fn is_attack(&self) -> bool {
        self.target.is_some()
    }
}

/// A move of the player to move: one unit's action, or ending the turn early.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TbsMove {
    /// One unit acts.
    Act(UnitAction),
    /// The side ends its turn; units that have not acted stay where they are.
    EndTurn,
}

impl TbsMove {
    /// The unit action, if this is one.
    #[inline]
    pub fn action(&self) -> Option<&UnitAction> {
        match self {
            TbsMove::Act(a) => Some(a),
            TbsMove::EndTurn => None,
        }
    }

    /// True for an attacking unit action.
    #[inline]
    pub fn is_attack(&self) -> bool {
        matches!(self, TbsMove::Act(a) if a.target.is_some())
    }
}

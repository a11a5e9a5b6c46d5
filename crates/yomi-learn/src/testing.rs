//! Features for core's test game [`Nim`], so the learning rules can be tested and shown on
//! a game small enough to check by hand: atoms are "`k` stones left" (0..=heap) and "player
//! `p` to move" (heap+1+p); move ids are the number of stones taken minus one.

use yomi_core::testing::{Nim, NimState};
use yomi_core::{Game, Player};

use crate::features::FeatureGame;

impl FeatureGame for Nim {
    fn atom_count(&self) -> usize {
        self.facts().max_turns.unwrap_or(0) + 3
    }

    fn move_id_count(&self) -> usize {
        3
    }

    fn for_each_atom(&self, state: &NimState, mut f: impl FnMut(u32)) {
        let heap = self.facts().max_turns.unwrap_or(0) as u32;
        f(state.stones);
        f(heap + 1 + u32::from(state.to_move.0));
    }

    fn move_id(&self, _state: &NimState, _player: Player, mv: u32) -> u32 {
        mv - 1
    }

    fn atom_name(&self, atom: u32) -> String {
        let heap = self.facts().max_turns.unwrap_or(0) as u32;
        if atom <= heap {
            format!("{atom} stones")
        } else {
            format!("player {} to move", atom - heap - 1)
        }
    }

    fn move_id_name(&self, id: u32) -> String {
        format!("take {}", id + 1)
    }
}

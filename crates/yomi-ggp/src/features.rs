//! The GGP paper's policy features for any rule sheet: [`yomi_learn::FeatureGame`] for
//! [`GdlGame`], with the true base propositions as atoms and the actions as move ids, so
//! the feature (atom, move) reads "(cell 1 1 x) holds and the move is (mark 1 2)".

use yomi_core::Player;
use yomi_learn::FeatureGame;

use crate::game::{GdlGame, GdlMove};
use crate::reasoner::GdlState;

impl FeatureGame for GdlGame {
    fn atom_count(&self) -> usize {
        self.reasoner().base_count()
    }

    fn move_id_count(&self) -> usize {
        self.reasoner().action_count()
    }

    #[inline]
    fn for_each_atom(&self, state: &GdlState, f: impl FnMut(u32)) {
        self.reasoner().for_each_true_base(state, f);
    }

    #[inline]
    fn move_id(&self, _state: &GdlState, _player: Player, mv: GdlMove) -> u32 {
        mv.0
    }

    fn atom_name(&self, atom: u32) -> String {
        let r = self.reasoner();
        r.base_term(atom)
            .map_or_else(|| format!("atom{atom}"), |t| r.term_text(&t))
    }

    fn move_id_name(&self, id: u32) -> String {
        self.reasoner().action_text(id)
    }
}

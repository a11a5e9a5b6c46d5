//! The [`Game`] implementation for [`Tubstap`]: the glue between the rules
//! ([`crate::game`]) and the text forms ([`crate::notation`]).
//!
//! It lives apart from both so that the dependencies go one way: `notation` uses `game`,
//! this module uses both, and `game` uses neither this module nor `notation`.

use yomi_core::{Game, GameFacts, NotationError, Player, Rewards, Turn};

use crate::game::Tubstap;
use crate::state::{TbsMove, TbsState};

impl Game for Tubstap {
    type State = TbsState;
    type Move = TbsMove;

    fn facts(&self) -> &GameFacts {
        self.stored_facts()
    }

    fn initial_state(&self) -> TbsState {
        self.initial().clone()
    }

    #[inline]
    fn turn(&self, state: &TbsState) -> Turn {
        if self.over(state) {
            Turn::Terminal
        } else {
            Turn::Player(Player(state.mover))
        }
    }

    fn legal_moves(&self, state: &TbsState, out: &mut Vec<TbsMove>) {
        out.clear();
        if self.over(state) {
            return;
        }
        let occ = self.occupancy(state);
        for id in 0..self.units() {
            let u = &state.units[id];
            if u.hp > 0 && !u.finished && self.team(id) == state.mover {
                self.for_each_action(state, &occ, id, true, |a| out.push(TbsMove::Act(a)));
            }
        }
        out.push(TbsMove::EndTurn);
    }

    #[inline]
    fn apply(&self, state: &mut TbsState, mv: TbsMove) {
        match mv {
            TbsMove::Act(a) => self.act(state, &a),
            TbsMove::EndTurn => {
                if !self.over(state) {
                    self.finish_turn(state);
                }
            }
        }
        self.settle(state);
    }

    fn returns(&self, state: &TbsState) -> Rewards {
        if !self.over(state) {
            return Rewards::zero_sum(0.0);
        }
        match self.winner(state) {
            Some(0) => Rewards::zero_sum(1.0),
            Some(_) => Rewards::zero_sum(-1.0),
            None => Rewards::zero_sum(0.0),
        }
    }

    fn format_move(&self, _state: &TbsState, mv: TbsMove) -> String {
        crate::notation::format_move(&mv)
    }

    fn parse_move(&self, state: &TbsState, text: &str) -> Result<TbsMove, NotationError> {
        crate::notation::parse_move(self, state, text)
    }

    fn format_state(&self, state: &TbsState) -> String {
        crate::notation::format_state(self, state)
    }

    fn parse_state(&self, text: &str) -> Result<TbsState, NotationError> {
        crate::notation::parse_state(self, text)
    }

    fn render(&self, state: &TbsState) -> String {
        crate::notation::render(self, state)
    }
}

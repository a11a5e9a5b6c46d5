//! The [`Game`] implementation for [`Geister`]: the glue between the rules
//! ([`crate::rules`]) and the text forms ([`crate::notation`]).
//!
//! It lives apart from both so that the dependencies go one way: `notation` uses `rules`,
//! this module uses both, and `rules` uses neither.

use yomi_core::game::{Game, GameFacts, Turn};
use yomi_core::{NotationError, Player, Rewards, Rng};

use crate::rules::{bits, Dir, Geister, GeisterMove, GeisterState, Setup, OFF};

impl Game for Geister {
    type State = GeisterState;
    type Move = GeisterMove;

    fn facts(&self) -> &GameFacts {
        self.stored_facts()
    }

    fn initial_state(&self) -> GeisterState {
        let mut s = GeisterState {
            blue: [0; 2],
            red: [0; 2],
            plies: 0,
            to_move: 0,
            set_up: 0,
            result: 0,
        };
        if !self.has_setup_phase() {
            for p in 0..2 {
                s.red[p] = self.fixed_red[p];
                s.blue[p] = self.start_mask(p) & !self.fixed_red[p];
            }
            s.set_up = 3;
        }
        s
    }

    #[inline]
    fn turn(&self, s: &GeisterState) -> Turn {
        if s.result != 0 {
            Turn::Terminal
        } else {
            Turn::Player(Player(s.to_move))
        }
    }

    fn legal_moves(&self, s: &GeisterState, out: &mut Vec<GeisterMove>) {
        out.clear();
        if s.result != 0 {
            return;
        }
        let p = s.to_move as usize;
        if s.set_up >> p & 1 == 0 {
            out.extend(Setup::all().iter().map(|&m| GeisterMove::Setup(m)));
            return;
        }
        let own = s.blue[p] | s.red[p];
        for sq in bits(own) {
            let nb = &self.nb[sq as usize];
            for d in 0..4u8 {
                let t = nb[d as usize];
                if t != OFF && own >> t & 1 == 0 {
                    out.push(GeisterMove::Step {
                        from: sq,
                        dir: Dir::from_index(d),
                    });
                }
            }
        }
        let fwd = Self::forward(Player(p as u8));
        for &e in &self.exits[p] {
            if s.blue[p] >> e & 1 == 1 {
                out.push(GeisterMove::Step { from: e, dir: fwd });
            }
        }
    }

    fn apply(&self, s: &mut GeisterState, mv: GeisterMove) {
        let p = s.to_move as usize;
        let q = 1 - p;
        match mv {
            GeisterMove::Setup(setup) => {
                let mut red = 0u64;
                for i in 0..8 {
                    if setup.0 >> i & 1 == 1 {
                        red |= 1 << self.start[p][i];
                    }
                }
                s.red[p] = red;
                s.blue[p] = self.start_mask(p) & !red;
                s.set_up |= 1 << p;
                s.to_move = q as u8;
            }
            GeisterMove::Step { from, dir } => {
                let from_bit = 1u64 << from;
                let t = self.nb[from as usize][dir as usize];
                if t == OFF {
                    // An escape (only blues from the exits are legal).
                    s.blue[p] &= !from_bit;
                    s.result = p as u8 + 1;
                } else {
                    let to_bit = 1u64 << t;
                    if s.blue[p] & from_bit != 0 {
                        s.blue[p] ^= from_bit | to_bit;
                    } else {
                        s.red[p] ^= from_bit | to_bit;
                    }
                    if s.blue[q] & to_bit != 0 {
                        s.blue[q] ^= to_bit;
                        if s.blue[q] == 0 {
                            s.result = p as u8 + 1;
                        }
                    } else if s.red[q] & to_bit != 0 {
                        s.red[q] ^= to_bit;
                        if s.red[q] == 0 {
                            s.result = q as u8 + 1;
                        }
                    }
                }
                s.plies += 1;
                if s.result == 0 && s.plies >= self.max_plies() {
                    s.result = 3;
                }
                s.to_move = q as u8;
            }
        }
    }

    fn returns(&self, s: &GeisterState) -> Rewards {
        match s.result {
            1 => Rewards::zero_sum(1.0),
            2 => Rewards::zero_sum(-1.0),
            _ => Rewards::zero_sum(0.0),
        }
    }

    fn format_move(&self, s: &GeisterState, mv: GeisterMove) -> String {
        crate::notation::format_move(self, s, mv)
    }

    fn parse_move(&self, s: &GeisterState, text: &str) -> Result<GeisterMove, NotationError> {
        crate::notation::parse_move(self, s, text)
    }

    fn format_state(&self, s: &GeisterState) -> String {
        crate::notation::format_state(self, s)
    }

    fn parse_state(&self, text: &str) -> Result<GeisterState, NotationError> {
        crate::notation::parse_state(self, text)
    }

    fn render(&self, s: &GeisterState) -> String {
        crate::notation::render(self, s)
    }

    fn observation(&self, s: &GeisterState, observer: Player) -> String {
        crate::notation::observation(self, s, observer)
    }

    /// Another player's set-up is seen as the first legal set-up: which ghosts are red is
    /// exactly what it hides. Steps are public.
    fn move_seen_by(
        &self,
        s: &GeisterState,
        mover: Player,
        mv: GeisterMove,
        observer: Player,
    ) -> GeisterMove {
        match mv {
            GeisterMove::Setup(_) if self.hidden() && mover != observer => {
                let mut moves = Vec::new();
                self.legal_moves(s, &mut moves);
                moves.first().copied().unwrap_or(mv)
            }
            _ => mv,
        }
    }

    fn determinize(&self, s: &GeisterState, observer: Player, rng: &mut Rng) -> GeisterState {
        if !self.hidden() || s.result != 0 {
            return *s;
        }
        let q = observer.opponent().index();
        if s.set_up >> q & 1 == 0 {
            return *s;
        }
        let on = s.blue[q] | s.red[q];
        let mut squares = [0u8; 8];
        let mut n = 0;
        for sq in bits(on) {
            squares[n] = sq;
            n += 1;
        }
        let reds = s.red[q].count_ones() as usize;
        // Partial Fisher-Yates: the first `reds` squares become red.
        let mut red = 0u64;
        for i in 0..reds {
            let j = i + rng.below(n - i);
            squares.swap(i, j);
            red |= 1 << squares[i];
        }
        let mut d = *s;
        d.red[q] = red;
        d.blue[q] = on & !red;
        d
    }
}

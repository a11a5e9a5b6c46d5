//! [`TensorGame`] for every variant, always from `perspective`'s point of view: the board is
//! turned by 180° for player 1, so "my ghosts" start at the bottom and move up, and the
//! policy indices of a move are the same for both players.
//!
//! | variant | planes (channels × rows × columns) | policy |
//! |---|---|---|
//! | perfect 6×6 | 4 × 6 × 6: own blue, own red, opponent blue, opponent red | 122 |
//! | hidden 6×6 | 9 × 6 × 6: own blue, own red, opponent ghosts (colour unknown), own ghosts before the set-up; constant planes: opponent blues captured / 4, opponent reds captured / 4, own blues lost / 4, own reds lost / 4, plies / limit | 122 |
//! | 5×4 | 3 × 5 × 5 (the paper's §2): own blue, own red, opponent ghosts; the fifth row holds captures — plane 0: own blues lost (from the left), plane 1: own reds lost, plane 2: opponent blues captured (from the left) and reds captured (from the right) | 64 |
//!
//! Policy indices: the in-board steps `(square, direction)` in the mover's view, numbered
//! square by square (row-major from the top-left) and N, E, S, W within a square
//! (36·4 − 24 = 120 on 6×6, 62 on 5×4), then the escape from the left exit and the escape
//! from the right exit (120, 121 / 62, 63). A set-up state has only the 70 set-up moves,
//! which take indices 0..70 in [`Setup::all`](crate::Setup::all) order (distinct within the
//! state, as the trait asks); the encoding of a set-up state shows the mover's ghosts
//! without colours (hidden 6×6: plane 3) or no own ghosts at all (perfect 6×6).

use yomi_core::{ActionSpace, Player, TensorGame, TensorShape};

use crate::rules::{bits, Geister, GeisterMove, GeisterState, Variant};

impl Geister {
    /// `sq` as `perspective` sees it (turned by 180° for player 1).
    #[inline]
    fn view(&self, sq: u8, perspective: Player) -> u8 {
        if perspective.0 == 0 {
            sq
        } else {
            self.w * self.h - 1 - sq
        }
    }

    fn plane(&self, out: &mut [f32], shape: TensorShape, channel: usize, b: u64, p: Player) {
        for sq in bits(b) {
            let v = self.view(sq, p) as usize;
            out[shape.offset(channel, v / self.width(), v % self.width())] = 1.0;
        }
    }
}

impl ActionSpace for Geister {
    fn num_actions(&self) -> usize {
        self.inboard_moves as usize + 2
    }

    fn action_index(&self, s: &GeisterState, mv: GeisterMove) -> usize {
        match mv {
            GeisterMove::Setup(setup) => setup.index().unwrap_or(0),
            GeisterMove::Step { from, dir } => {
                let me = s.to_move();
                let v = self.view(from, me);
                let d = if me.0 == 0 { dir } else { dir.flip() };
                let k = self.policy[v as usize][d as usize];
                if k != crate::rules::OFF {
                    k as usize
                } else {
                    // An escape: left or right exit in the mover's view.
                    let (x, _) = self.coords(v);
                    self.inboard_moves as usize + usize::from(x != 0)
                }
            }
        }
    }
}

impl TensorGame for Geister {
    fn tensor_shape(&self) -> TensorShape {
        match self.variant() {
            Variant::Perfect => TensorShape {
                channels: 4,
                height: 6,
                width: 6,
            },
            Variant::Standard => TensorShape {
                channels: 9,
                height: 6,
                width: 6,
            },
            Variant::Mini => TensorShape {
                channels: 3,
                height: 5,
                width: 5,
            },
        }
    }

    fn encode(&self, s: &GeisterState, perspective: Player, out: &mut [f32]) {
        let shape = self.tensor_shape();
        out.fill(0.0);
        let me = perspective;
        let op = me.opponent();
        let n = self.colour_count() as f32;
        let lost = |p: Player, b: u64| {
            if s.has_set_up(p) {
                self.colour_count() - b.count_ones()
            } else {
                0
            }
        };
        self.plane(out, shape, 0, s.blue(me), me);
        self.plane(out, shape, 1, s.red(me), me);
        match self.variant() {
            Variant::Perfect => {
                self.plane(out, shape, 2, s.blue(op), me);
                self.plane(out, shape, 3, s.red(op), me);
            }
            Variant::Standard => {
                self.plane(out, shape, 2, self.ghosts_of(s, op), me);
                if !s.has_set_up(me) {
                    self.plane(out, shape, 3, self.ghosts_of(s, me), me);
                }
                let constants = [
                    lost(op, s.blue(op)) as f32 / n,
                    lost(op, s.red(op)) as f32 / n,
                    lost(me, s.blue(me)) as f32 / n,
                    lost(me, s.red(me)) as f32 / n,
                    s.plies() as f32 / self.max_plies() as f32,
                ];
                let area = shape.height * shape.width;
                for (i, v) in constants.iter().enumerate() {
                    let c = 4 + i;
                    out[c * area..(c + 1) * area].fill(*v);
                }
            }
            Variant::Mini => {
                self.plane(out, shape, 2, self.ghosts_of(s, op), me);
                let row = self.height();
                for i in 0..lost(me, s.blue(me)) as usize {
                    out[shape.offset(0, row, i)] = 1.0;
                }
                for i in 0..lost(me, s.red(me)) as usize {
                    out[shape.offset(1, row, i)] = 1.0;
                }
                for i in 0..lost(op, s.blue(op)) as usize {
                    out[shape.offset(2, row, i)] = 1.0;
                }
                for i in 0..lost(op, s.red(op)) as usize {
                    out[shape.offset(2, row, shape.width - 1 - i)] = 1.0;
                }
            }
        }
    }
}

impl Geister {
    /// The move of the player to move in `s` with policy index `index`, if that index names
    /// a legal move (the inverse of [`ActionSpace::action_index`] on legal moves).
    pub fn move_from_index(&self, s: &GeisterState, index: usize) -> Option<GeisterMove> {
        let mut moves = Vec::with_capacity(80);
        yomi_core::Game::legal_moves(self, s, &mut moves);
        moves
            .into_iter()
            .find(|&m| self.action_index(s, m) == index)
    }
}

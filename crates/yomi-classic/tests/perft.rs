//! Move-generator checks: leaf counts of the move tree (`perft`), compared with known values
//! and with deliberately naive, array-based implementations of the rules written here.

use yomi_classic::{Breakthrough, ConnectFour, TicTacToe};
use yomi_core::testing::perft;
use yomi_core::{Game, Rng};

#[test]
fn tictactoe_perft() {
    let game = TicTacToe;
    let s = game.initial_state();
    let expected = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872];
    for (depth, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&game, &s, depth as u32 + 1), n, "depth {}", depth + 1);
    }
    assert_eq!(
        perft(&game, &s, 10),
        0,
        "every game is over after nine moves"
    );
}

/// Connect four with a column-major array and a scan for four from the last disc.
#[derive(Clone)]
struct NaiveC4 {
    cells: [[u8; 6]; 7], // 0 empty, 1 x, 2 o
    heights: [usize; 7],
    to_move: u8,
    over: bool,
    moves: usize,
}

impl NaiveC4 {
    fn new() -> Self {
        NaiveC4 {
            cells: [[0; 6]; 7],
            heights: [0; 7],
            to_move: 1,
            over: false,
            moves: 0,
        }
    }

    fn count(&self, c: i32, r: i32, dc: i32, dr: i32, who: u8) -> usize {
        let mut n = 0;
        let (mut c, mut r) = (c + dc, r + dr);
        while (0..7).contains(&c)
            && (0..6).contains(&r)
            && self.cells[c as usize][r as usize] == who
        {
            n += 1;
            c += dc;
            r += dr;
        }
        n
    }

    fn play(&mut self, col: usize) {
        let row = self.heights[col];
        let who = self.to_move;
        self.cells[col][row] = who;
        self.heights[col] += 1;
        self.moves += 1;
        for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let n = 1
                + self.count(col as i32, row as i32, dc, dr, who)
                + self.count(col as i32, row as i32, -dc, -dr, who);
            if n >= 4 {
                self.over = true;
            }
        }
        if self.moves == 42 {
            self.over = true;
        }
        self.to_move = 3 - who;
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over {
            return 0;
        }
        (0..7)
            .filter(|&c| self.heights[c] < 6)
            .map(|c| {
                let mut next = self.clone();
                next.play(c);
                next.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn connect_four_perft() {
    let game = ConnectFour;
    let s = game.initial_state();
    // 7^d until ply 6; at ply 7 the seven sequences that filled one column have 6 moves;
    // from ply 8 on, wins at ply 7 (x's fourth disc) end some games.
    let expected: [u64; 8] = [7, 49, 343, 2401, 16807, 117649, 823536, 5673234];
    let naive = NaiveC4::new();
    for (depth, &n) in expected.iter().enumerate() {
        let d = depth as u32 + 1;
        assert_eq!(perft(&game, &s, d), n, "bitboards, depth {d}");
        if d <= 7 {
            assert_eq!(naive.perft(d), n, "naive, depth {d}");
        }
    }
    assert_eq!(naive.perft(8), expected[7], "naive, depth 8");
}

#[test]
fn connect_four_perft_from_positions() {
    // Mid-game positions, compared with the naive rules.
    let game = ConnectFour;
    let mut rng = Rng::seed_from_u64(11);
    let mut buf = Vec::new();
    for _ in 0..20 {
        let mut s = game.initial_state();
        let mut naive = NaiveC4::new();
        let plies = 8 + rng.below(20);
        for _ in 0..plies {
            let Some(mv) = game.random_move(&s, &mut rng, &mut buf) else {
                break;
            };
            game.apply(&mut s, mv);
            naive.play(mv.index() as usize);
        }
        assert_eq!(game.is_terminal(&s), naive.over);
        for d in 1..=4 {
            assert_eq!(
                perft(&game, &s, d),
                naive.perft(d),
                "{} depth {d}",
                game.format_state(&s)
            );
        }
    }
}

/// Breakthrough on a row-major array: 0 empty, 1 white (moving up), 2 black (moving down).
#[derive(Clone)]
struct NaiveBt {
    w: i32,
    h: i32,
    cells: Vec<u8>,
    to_move: u8,
}

impl NaiveBt {
    fn new(w: usize, h: usize) -> Self {
        let home = if h <= 4 { 1 } else { 2 };
        let mut cells = vec![0; w * h];
        for r in 0..h {
            for c in 0..w {
                cells[r * w + c] = if r < home {
                    1
                } else if r >= h - home {
                    2
                } else {
                    0
                };
            }
        }
        NaiveBt {
            w: w as i32,
            h: h as i32,
            cells,
            to_move: 1,
        }
    }

    fn at(&self, c: i32, r: i32) -> u8 {
        self.cells[(r * self.w + c) as usize]
    }

    fn over(&self) -> bool {
        let top = (0..self.w).any(|c| self.at(c, self.h - 1) == 1);
        let bottom = (0..self.w).any(|c| self.at(c, 0) == 2);
        let whites = self.cells.iter().filter(|&&x| x == 1).count();
        let blacks = self.cells.iter().filter(|&&x| x == 2).count();
        top || bottom || whites == 0 || blacks == 0
    }

    fn moves(&self) -> Vec<(i32, i32, i32, i32)> {
        let me = self.to_move;
        let dir = if me == 1 { 1 } else { -1 };
        let mut out = Vec::new();
        for r in 0..self.h {
            for c in 0..self.w {
                if self.at(c, r) != me {
                    continue;
                }
                let nr = r + dir;
                if !(0..self.h).contains(&nr) {
                    continue;
                }
                for dc in [-1, 0, 1] {
                    let nc = c + dc;
                    if !(0..self.w).contains(&nc) {
                        continue;
                    }
                    let target = self.at(nc, nr);
                    let ok = if dc == 0 { target == 0 } else { target != me };
                    if ok {
                        out.push((c, r, nc, nr));
                    }
                }
            }
        }
        out
    }

    fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.over() {
            return 0;
        }
        let moves = self.moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|(c, r, nc, nr)| {
                let mut next = self.clone();
                next.cells[(nr * self.w + nc) as usize] = self.to_move;
                next.cells[(r * self.w + c) as usize] = 0;
                next.to_move = 3 - self.to_move;
                next.perft(depth - 1)
            })
            .sum()
    }
}

#[test]
fn breakthrough_perft_matches_naive_rules() {
    for (w, h, depth) in [
        (5, 5, 4),
        (8, 8, 3),
        (6, 6, 3),
        (3, 4, 6),
        (4, 7, 4),
        (11, 11, 2),
    ] {
        let game = Breakthrough::new(w, h).unwrap();
        let s = game.initial_state();
        let naive = NaiveBt::new(w, h);
        for d in 1..=depth {
            assert_eq!(perft(&game, &s, d), naive.perft(d), "{w}x{h} depth {d}");
        }
    }
    // Known values of the standard board: 22 first moves, 22^2 replies.
    let game = Breakthrough::new_8x8();
    assert_eq!(perft(&game, &game.initial_state(), 1), 22);
    assert_eq!(perft(&game, &game.initial_state(), 2), 484);
}

#[test]
fn breakthrough_perft_from_random_positions() {
    // Random mid-game positions (with captures and near-wins), compared with the naive rules.
    let game = Breakthrough::new_5x5();
    let mut rng = Rng::seed_from_u64(5);
    let mut buf = Vec::new();
    for _ in 0..30 {
        let mut s = game.initial_state();
        let mut naive = NaiveBt::new(5, 5);
        for _ in 0..rng.below(16) {
            let Some(mv) = game.random_move(&s, &mut rng, &mut buf) else {
                break;
            };
            game.apply(&mut s, mv);
            let (f, t) = (mv.from() as usize, mv.to() as usize);
            naive.cells[t] = naive.to_move;
            naive.cells[f] = 0;
            naive.to_move = 3 - naive.to_move;
        }
        assert_eq!(game.is_terminal(&s), naive.over());
        for d in 1..=3 {
            assert_eq!(
                perft(&game, &s, d),
                naive.perft(d),
                "{} depth {d}",
                game.format_state(&s)
            );
        }
    }
}

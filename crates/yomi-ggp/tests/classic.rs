//! The shipped rule sheets against yomi-classic's native games: the same turns, the same
//! legal moves (mapped between the notations) and the same results along thousands of
//! random games.

use yomi_classic::{Breakthrough, ConnectFour, TicTacToe};
use yomi_core::{Game, Rng, Turn};
use yomi_ggp::{games, GdlGame};

/// Plays `n` random games on both, mapping each native move to GDL with `to_gdl`.
fn differential<N: Game>(native: &N, gdl: &GdlGame, n: usize, to_gdl: impl Fn(&str) -> String) {
    let mut rng = Rng::seed_from_u64(77);
    let mut nm = Vec::new();
    let mut gm = Vec::new();
    for g in 0..n {
        let mut ns = native.initial_state();
        let mut gs = gdl.initial_state();
        loop {
            let nt = native.turn(&ns);
            assert_eq!(nt, gdl.turn(&gs), "game {g}: turns differ");
            if nt == Turn::Terminal {
                let nr = native.returns(&ns);
                let gr = gdl.returns(&gs);
                for p in 0..2 {
                    let expect = 50.0 + 50.0 * nr.as_slice()[p];
                    assert_eq!(gr.as_slice()[p], expect, "game {g}: results differ");
                }
                break;
            }
            native.legal_moves(&ns, &mut nm);
            gdl.legal_moves(&gs, &mut gm);
            let mut a: Vec<String> = nm
                .iter()
                .map(|&m| to_gdl(&native.format_move(&ns, m)))
                .collect();
            let mut b: Vec<String> = gm.iter().map(|&m| gdl.format_move(&gs, m)).collect();
            a.sort();
            b.sort();
            assert_eq!(a, b, "game {g}: legal moves differ");
            let m = nm[rng.below(nm.len())];
            let text = to_gdl(&native.format_move(&ns, m));
            native.apply(&mut ns, m);
            let gmv = gdl.parse_move(&gs, &text).unwrap();
            gdl.apply(&mut gs, gmv);
        }
    }
}

fn column_number(c: char) -> u32 {
    c as u32 - 'a' as u32 + 1
}

#[test]
fn tictactoe_matches_yomi_classic() {
    let gdl = games::shipped("tictactoe").unwrap();
    differential(&TicTacToe, &gdl, 3000, |m| {
        let mut cs = m.chars();
        let c = column_number(cs.next().unwrap());
        format!("(mark {c} {})", cs.as_str())
    });
}

#[test]
fn connect_four_matches_yomi_classic() {
    let gdl = games::shipped("connect4").unwrap();
    differential(&ConnectFour, &gdl, 1000, |m| {
        format!("(drop {})", column_number(m.chars().next().unwrap()))
    });
}

#[test]
fn breakthrough_5x5_matches_yomi_classic() {
    let gdl = games::shipped("breakthrough5x5").unwrap();
    // `b2-c3` and `b4xc5` are (move 2 2 3 3) and (move 2 4 3 5).
    differential(&Breakthrough::new_5x5(), &gdl, 1000, |m| {
        let (from, to) = m.split_once(['-', 'x']).unwrap();
        let square = |s: &str| {
            let mut cs = s.chars();
            let c = column_number(cs.next().unwrap());
            format!("{c} {}", cs.as_str())
        };
        format!("(move {} {})", square(from), square(to))
    });
}

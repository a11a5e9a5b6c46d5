//! GGF, the Generic Game Format of the Generic Game Server and of most Othello game
//! databases and viewers: one game is `(;GM[Othello]PC[..]PB[..]PW[..]TY[8]RE[..]BO[8 ..]`
//! followed by the moves `B[d3]W[c5]..` (`PA` for a pass) and `;)`.
//!
//! `BO` is the start position, 64 squares row by row from a1 (`*` black, `O` white, `-`
//! empty) and the side to move; `RE` is Black's disc margin with three decimals, the
//! empty squares counted for the winner when the game is over, or `±64.000:r` for a game
//! lost by forfeit (as the server writes a resignation). [`parse_ggf`] reads a game back
//! (the NBoard protocol sends positions this way).

use std::fmt::Write;

use yomi_core::{Game, Player};

use crate::game::{Move, Othello, OthelloState};

/// A move that cannot be played where a record has it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("move {ply} ({mv}) is illegal in the record's position {position}")]
pub struct GgfError {
    /// The move's number, from 1.
    pub ply: usize,
    /// The move as written.
    pub mv: String,
    /// The position it was played in (board string).
    pub position: String,
}

/// How a recorded game ended, for `RE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GgfEnd {
    /// Scored from the final position (the disc margin so far if the game is not over).
    Position,
    /// Black lost by forfeit (`RE[-64.000:r]`).
    BlackForfeited,
    /// White lost by forfeit (`RE[+64.000:r]`).
    WhiteForfeited,
}

/// The game of `moves` played from `start` as one GGF game, `black` and `white` naming the
/// players (`]` and `\` are escaped). The moves are checked by replaying them.
///
/// # Errors
/// [`GgfError`] names the first move that is illegal where the record plays it.
pub fn to_ggf(
    black: &str,
    white: &str,
    start: &OthelloState,
    moves: &[Move],
    end: GgfEnd,
) -> Result<String, GgfError> {
    let game = Othello;
    let mut state = *start;
    let mut line = String::new();
    for (i, &mv) in moves.iter().enumerate() {
        let side = if state.to_move().0 == 0 { 'B' } else { 'W' };
        let before = state;
        game.play(&mut state, mv).map_err(|_| GgfError {
            ply: i + 1,
            mv: mv.to_string(),
            position: before.to_board_string(),
        })?;
        let text = if mv == Move::PASS {
            "PA".to_string()
        } else {
            mv.to_string()
        };
        let _ = write!(line, "{side}[{text}]");
    }
    let result = match end {
        GgfEnd::Position => {
            let (b, w) = (
                state.black().count_ones() as i32,
                state.white().count_ones() as i32,
            );
            let mut margin = b - w;
            if game.is_terminal(&state) {
                let empty = 64 - b - w;
                margin += margin.signum() * empty;
            }
            format!("{margin:+}.000").replace("+0.000", "0.000")
        }
        GgfEnd::BlackForfeited => "-64.000:r".to_string(),
        GgfEnd::WhiteForfeited => "+64.000:r".to_string(),
    };
    // The board string's `X` (black) is GGF's `*`; `O`, `-` and the side to move agree.
    let board = start.to_board_string().replace('X', "*");
    Ok(format!(
        "(;GM[Othello]PC[yomi]PB[{}]PW[{}]TY[8]RE[{result}]BO[8 {board}]{line};)",
        escape(black),
        escape(white)
    ))
}

/// Reads a GGF game record (`(;GM[Othello]…BO[8 <64 squares> <side>]B[f5]W[d6]…;)`): the
/// start position and the moves, applied in order.
///
/// # Errors
/// A message naming the missing or malformed part or the illegal move.
pub fn parse_ggf(text: &str) -> Result<(OthelloState, Vec<Move>), String> {
    let bo = text
        .find("BO[")
        .ok_or("GGF record without a BO[...] board")?;
    let rest = &text[bo + 3..];
    let end = rest.find(']').ok_or("unterminated BO[")?;
    let board = rest[..end].trim();
    let board = board
        .strip_prefix('8')
        .ok_or("only 8x8 boards (BO[8 ...]) are supported")?;
    let start: OthelloState = board.parse().map_err(|e| format!("GGF board: {e}"))?;
    let mut state = start;
    let mut moves = Vec::new();
    let mut at = bo + 3 + end;
    while let Some(i) = text[at..].find(['B', 'W']) {
        let j = at + i;
        at = j + 1;
        let bytes = text.as_bytes();
        // A move tag is B[ or W[ not preceded by a letter (BO[, TB[, … are other tags).
        if bytes.get(j + 1) != Some(&b'[') || (j > 0 && bytes[j - 1].is_ascii_alphabetic()) {
            continue;
        }
        let close = text[j..].find(']').ok_or("unterminated move tag")? + j;
        let body = &text[j + 2..close];
        let mv_text = body.split('/').next().unwrap_or("").trim();
        let mv = if mv_text.eq_ignore_ascii_case("pa") {
            Move::PASS
        } else {
            mv_text
                .parse::<Move>()
                .map_err(|e| format!("GGF move: {e}"))?
        };
        let who = if bytes[j] == b'B' {
            Player(0)
        } else {
            Player(1)
        };
        if state.to_move() != who {
            if state.legal() == 0 && !state.is_over() {
                state.play_unchecked(Move::PASS);
                moves.push(Move::PASS);
            } else {
                return Err(format!("GGF move {mv_text} by the side not to move"));
            }
        }
        Othello
            .play(&mut state, mv)
            .map_err(|_| format!("GGF move {mv_text} is illegal"))?;
        moves.push(mv);
        at = close + 1;
    }
    Ok((start, moves))
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|m| m.parse().unwrap())
            .collect()
    }

    #[test]
    fn the_shortest_game_is_a_black_win_by_64() {
        // The shortest Othello game: black wipes out white in nine moves.
        let ggf = to_ggf(
            "a",
            "b",
            &OthelloState::start(),
            &moves("f5 d6 c5 f4 e3 f6 g5 e6 e7"),
            GgfEnd::Position,
        )
        .unwrap();
        assert!(ggf.contains("RE[+64.000]"), "{ggf}");
        assert!(ggf.ends_with("B[f5]W[d6]B[c5]W[f4]B[e3]W[f6]B[g5]W[e6]B[e7];)"));
        assert!(ggf
            .contains("BO[8 ---------------------------O*------*O--------------------------- *]"));
    }

    #[test]
    fn a_written_game_reads_back() {
        let start = OthelloState::start();
        let played = moves("f5 d6 c3 d3 c4 f4 f6 f3 e6 e7");
        let ggf = to_ggf("a", "b", &start, &played, GgfEnd::Position).unwrap();
        assert_eq!(parse_ggf(&ggf).unwrap(), (start, played));
    }

    #[test]
    fn an_illegal_move_is_named_with_its_number() {
        let err = to_ggf(
            "a",
            "b",
            &OthelloState::start(),
            &moves("e6 a1"),
            GgfEnd::Position,
        )
        .unwrap_err();
        assert_eq!((err.ply, err.mv.as_str()), (2, "a1"));
    }

    #[test]
    fn names_are_escaped_and_forfeits_scored_64() {
        let ggf = to_ggf(
            "x]y",
            "w",
            &OthelloState::start(),
            &moves("e6"),
            GgfEnd::BlackForfeited,
        )
        .unwrap();
        assert!(
            ggf.contains("PB[x\\]y]") && ggf.contains("RE[-64.000:r]"),
            "{ggf}"
        );
    }
}

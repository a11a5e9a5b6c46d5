//! Text notation for moves and positions, and the board picture.
//!
//! # Moves
//! - `end`: end the turn (units that have not acted stay);
//! - `3@4,5`: unit 3 moves to column 4, row 5 (its own cell to stay);
//! - `3@4,5x7`: unit 3 moves to (4, 5) and attacks unit 7.
//!
//! Reading is forgiving: `u3 4 5`, `3>4,5 attack 7`, `3 x 7` (attack from where it
//! stands, how the cannon fires), `3 stay`, `pass`. Moves that are well formed but
//! illegal get an error saying why (the unit already acted, the cell is out of reach, the
//! target is out of range, the cannon cannot move and fire in one action, ...).
//!
//! # Positions
//! `<turn> <r|b> | <unit 0> <unit 1> ...` where a unit is `x,y:hp`, with `*` when it has
//! acted this turn, or `-` when destroyed; kinds and teams come from the map. Example:
//! `0 r | 1,1:10 2,2:4* -`.

use std::fmt::Write;

use yomi_core::NotationError;

use crate::game::{team_name, Tubstap};
use crate::map::MAX_UNITS;
use crate::state::{TbsMove, TbsState, UnitAction, UnitState};

const MOVE_FORMS: &str = "`end`, `<unit>@<x>,<y>` (move), `<unit>@<x>,<y>x<target>` (move, then attack), `<unit> x <target>` (attack from where it stands) or `<unit> stay`";

/// The canonical text of `mv`.
pub fn format_move(mv: &TbsMove) -> String {
    match mv {
        TbsMove::EndTurn => "end".into(),
        TbsMove::Act(a) => match a.target {
            None => format!("{}@{},{}", a.unit, a.x, a.y),
            Some(t) => format!("{}@{},{}x{}", a.unit, a.x, a.y, t),
        },
    }
}

fn number(tok: &str, what: &str, text: &str) -> Result<u8, NotationError> {
    let t = tok.trim_start_matches(['u', '#']);
    t.parse::<u8>().map_err(|_| {
        NotationError::syntax(
            "move",
            text,
            format!("{what} as a number (found {tok:?}); forms: {MOVE_FORMS}"),
        )
    })
}

/// Reads a move in `state`, explaining why an illegal one is illegal.
///
/// # Errors
/// [`NotationError::Empty`] / [`NotationError::Syntax`] for text that is not a move;
/// [`NotationError::IllegalMove`] with the reason for a move the rules forbid here.
pub fn parse_move(game: &Tubstap, state: &TbsState, text: &str) -> Result<TbsMove, NotationError> {
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() {
        return Err(NotationError::Empty { what: "move" });
    }
    let mv = match t.as_str() {
        "end" | "e" | "pass" | "done" | "end turn" | "endturn" => TbsMove::EndTurn,
        _ => {
            let norm = t
                .replace("attacks", " x ")
                .replace("attack", " x ")
                .replace("atk", " x ")
                .replace(['*', 'x'], " x ");
            let toks: Vec<&str> = norm
                .split(|c: char| {
                    c.is_whitespace() || matches!(c, ',' | '@' | '>' | '-' | ':' | '(' | ')')
                })
                .filter(|s| !s.is_empty())
                .collect();
            if toks.is_empty() {
                return Err(NotationError::syntax("move", text, MOVE_FORMS));
            }
            let unit = number(toks[0], "the unit id", text)?;
            let here = || {
                let u = state.units.get(unit as usize).copied().unwrap_or_default();
                (u.x, u.y)
            };
            match toks[1..] {
                ["stay"] | ["wait"] => {
                    let (x, y) = here();
                    TbsMove::Act(UnitAction {
                        unit,
                        x,
                        y,
                        target: None,
                    })
                }
                ["x", tgt] => {
                    let (x, y) = here();
                    TbsMove::Act(UnitAction {
                        unit,
                        x,
                        y,
                        target: Some(number(tgt, "the target unit id", text)?),
                    })
                }
                [x, y] => TbsMove::Act(UnitAction {
                    unit,
                    x: number(x, "the destination column", text)?,
                    y: number(y, "the destination row", text)?,
                    target: None,
                }),
                [x, y, "x", tgt] => TbsMove::Act(UnitAction {
                    unit,
                    x: number(x, "the destination column", text)?,
                    y: number(y, "the destination row", text)?,
                    target: Some(number(tgt, "the target unit id", text)?),
                }),
                _ => return Err(NotationError::syntax("move", text, MOVE_FORMS)),
            }
        }
    };
    match game.illegal_reason(state, &mv) {
        None => Ok(mv),
        Some(reason) => Err(NotationError::illegal(text.trim(), reason)),
    }
}

/// The canonical text of `state`.
pub fn format_state(game: &Tubstap, state: &TbsState) -> String {
    let mut s = format!(
        "{} {} |",
        state.turn,
        if state.mover == 0 { 'r' } else { 'b' }
    );
    for u in &state.units[..game.units()] {
        if u.hp == 0 {
            s.push_str(" -");
        } else {
            let _ = write!(
                s,
                " {},{}:{}{}",
                u.x,
                u.y,
                u.hp,
                if u.finished { "*" } else { "" }
            );
        }
    }
    s
}

/// Reads a state written by [`format_state`], checking it against the map.
///
/// # Errors
/// [`NotationError::Syntax`] for malformed text, [`NotationError::Invalid`] for a position
/// the rules do not allow.
pub fn parse_state(game: &Tubstap, text: &str) -> Result<TbsState, NotationError> {
    const FORM: &str =
        "`<turn> <r|b> | x,y:hp[*] ...` with one entry per unit (`-` when destroyed)";
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty { what: "state" });
    }
    let syntax = |why: String| NotationError::syntax("state", text, format!("{FORM}; {why}"));
    let (head, body) = t
        .split_once('|')
        .ok_or_else(|| syntax("no '|' after the turn and side".into()))?;
    let head: Vec<&str> = head.split_whitespace().collect();
    let [turn, side] = head[..] else {
        return Err(syntax(
            "the part before '|' must be a turn number and r or b".into(),
        ));
    };
    let turn: u16 = turn
        .parse()
        .map_err(|_| syntax(format!("turn {turn:?} is not a number")))?;
    let mover = match side {
        "r" | "red" => 0,
        "b" | "blue" => 1,
        other => return Err(syntax(format!("side {other:?} is not r or b"))),
    };
    let toks: Vec<&str> = body.split_whitespace().collect();
    if toks.len() != game.units() {
        return Err(syntax(format!(
            "{} unit entries for a map with {} units",
            toks.len(),
            game.units()
        )));
    }
    let mut units = [UnitState::default(); MAX_UNITS];
    let (w, h) = (game.map().width as u8, game.map().height as u8);
    for (i, tok) in toks.iter().enumerate() {
        if *tok == "-" {
            continue;
        }
        let (body, finished) = match tok.strip_suffix('*') {
            Some(b) => (b, true),
            None => (*tok, false),
        };
        let bad = || syntax(format!("unit {i}: {tok:?} is not x,y:hp"));
        let (pos, hp) = body.split_once(':').ok_or_else(bad)?;
        let (x, y) = pos.split_once(',').ok_or_else(bad)?;
        let x: u8 = x.parse().map_err(|_| bad())?;
        let y: u8 = y.parse().map_err(|_| bad())?;
        let hp: u8 = hp.parse().map_err(|_| bad())?;
        if hp == 0 {
            return Err(NotationError::invalid(
                "state",
                text,
                format!("unit {i} has 0 HP; write `-` for a destroyed unit"),
            ));
        }
        if x == 0 || y == 0 || x + 1 >= w || y + 1 >= h {
            return Err(NotationError::invalid(
                "state",
                text,
                format!("unit {i} at {x},{y} is outside the playable area"),
            ));
        }
        units[i] = UnitState { x, y, hp, finished };
    }
    game.assemble(units, turn, mover)
        .map_err(|why| NotationError::invalid("state", text, why))
}

/// A board picture: terrain symbols, units as their letter (upper case red, lower case blue)
/// and HP, then the unit list.
pub fn render(game: &Tubstap, state: &TbsState) -> String {
    let map = game.map();
    let mut s = String::new();
    let status = if game.over(state) {
        match game.winner(state) {
            Some(t) => format!("game over: {} wins", team_name(t)),
            None => "game over: draw".into(),
        }
    } else {
        format!("{} to move", team_name(state.mover))
    };
    let _ = writeln!(
        s,
        "{}: side-turn {} of {}, {status}; HP red {} blue {} (threshold {})",
        game.name(),
        state.turn + 1,
        map.turn_limit,
        game.total_hp(state, 0),
        game.total_hp(state, 1),
        map.hp_threshold
    );
    s.push_str("   ");
    for x in 1..map.width - 1 {
        let _ = write!(s, "{x:>4}");
    }
    s.push('\n');
    for y in 1..map.height - 1 {
        let _ = write!(s, "{y:>3}");
        for x in 1..map.width - 1 {
            let t = map.terrain_at(x, y);
            match game.unit_at(state, x as u8, y as u8) {
                Some(i) => {
                    let l = game.kind(i).letter();
                    let l = if game.team(i) == 0 {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    };
                    let _ = write!(s, " {}{l}{:<2}", t.symbol(), state.units[i].hp);
                }
                None => {
                    let _ = write!(s, " {}   ", t.symbol());
                }
            }
        }
        s.push('\n');
    }
    s.push_str(
        "terrain: . plain  ~ sea  f forest  ^ mountain  = road  # fortress (blank: no entry)\n",
    );
    for i in 0..game.units() {
        let u = &state.units[i];
        let _ = write!(
            s,
            "  {i:>2} {:<4} {:<8}",
            team_name(game.team(i)),
            game.kind(i).to_string()
        );
        if u.hp == 0 {
            s.push_str(" destroyed\n");
        } else {
            let _ = writeln!(
                s,
                " at {},{} HP {:>2}{}",
                u.x,
                u.y,
                u.hp,
                if u.finished { " (acted)" } else { "" }
            );
        }
    }
    if !game.over(state) {
        s.push_str(&format!("moves: {MOVE_FORMS}\n"));
    }
    s
}

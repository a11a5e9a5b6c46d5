//! Text notations.
//!
//! - **Moves**: a step is the square's two digits `x y` and a direction letter in the
//!   absolute coordinates of [`crate::rules`]: `14N` moves the ghost on (1,4) north. An
//!   escape is the step off the board from an exit corner, written with the vertical
//!   direction (`00N`, `50N` for player 0; `05S`, `55S` for player 1); the horizontal one
//!   (`00W`) is read as the same escape. A set-up is `SET:` and the 4 red letters, as in the
//!   tournament protocol (`SET:ABCD`; the bare letters are accepted too).
//! - **States**: the rows from `y = 0` (top) to the bottom separated by `/`, one character
//!   per square: `B`/`R` player 0's blue/red ghost, `b`/`r` player 1's, `U`/`u` a ghost
//!   whose owner has not chosen colours yet, `.` empty; then the player to move (`0`/`1`),
//!   the ply counter and the result (`-` on, `0`/`1` the winner, `=` drawn), e.g. the 5×4
//!   start `.b.b./.r.r./.R.R./.B.B. 0 0 -`.
//! - **Observations** (hidden-colour variants): the state notation with the opponent's
//!   ghosts written `X`/`x` (colour unknown), followed by `hidden:<blues>b<reds>r` — how
//!   many of the opponent's ghosts on the board are blue and red (known from the
//!   captures).

use std::fmt::Write;

use yomi_core::{Game, NotationError, Player};

use crate::error::PositionError;
use crate::rules::{bits, Dir, Geister, GeisterMove, GeisterState, Setup};

const PLAYER_NAMES: [&str; 2] = ["first", "second"];

pub(crate) fn format_move(g: &Geister, _s: &GeisterState, mv: GeisterMove) -> String {
    match mv {
        GeisterMove::Setup(setup) => format!("SET:{}", setup.letters()),
        GeisterMove::Step { from, dir } => {
            let (x, y) = g.coords(from);
            format!("{x}{y}{}", dir.letter())
        }
    }
}

pub(crate) fn parse_move(
    g: &Geister,
    s: &GeisterState,
    text: &str,
) -> Result<GeisterMove, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty { what: "move" });
    }
    let expected = "a step like 14N (x, y, direction N/E/S/W) or a set-up like SET:ABCD";
    let p = s.to_move();
    let setup_text = match t.get(..4) {
        Some(prefix) if prefix.eq_ignore_ascii_case("SET:") => Some(&t[4..]),
        _ if t.len() == 4 && t.bytes().all(|b| b.is_ascii_alphabetic()) => Some(t),
        _ => None,
    };
    if let Some(letters) = setup_text {
        let setup = Setup::parse(letters)
            .ok_or_else(|| NotationError::syntax("move", text, "4 distinct letters of A-H"))?;
        if g.is_terminal(s) || !g.has_setup_phase() || s.has_set_up(p) {
            return Err(NotationError::illegal(text, "no set-up is due now"));
        }
        return Ok(GeisterMove::Setup(setup));
    }
    let bytes = t.as_bytes();
    if bytes.len() < 3 || !bytes[0].is_ascii_digit() || !bytes[1].is_ascii_digit() {
        return Err(NotationError::syntax("move", text, expected));
    }
    let dir = Dir::parse(&t[2..]).ok_or_else(|| NotationError::syntax("move", text, expected))?;
    let (x, y) = ((bytes[0] - b'0') as usize, (bytes[1] - b'0') as usize);
    if x >= g.width() || y >= g.height() {
        return Err(NotationError::illegal(text, "the square is off the board"));
    }
    if g.is_terminal(s) {
        return Err(NotationError::illegal(text, "the game is over"));
    }
    if !s.has_set_up(p) {
        return Err(NotationError::illegal(text, "the set-up comes first"));
    }
    let from = g.square(x, y);
    let bit = 1u64 << from;
    let own = s.blue(p) | s.red(p);
    if own & bit == 0 {
        return Err(NotationError::illegal(text, "no ghost of the mover there"));
    }
    match g.neighbour(from, dir) {
        Some(to) if own >> to & 1 == 1 => Err(NotationError::illegal(
            text,
            "the target holds the mover's own ghost",
        )),
        Some(_) => Ok(GeisterMove::Step { from, dir }),
        None => {
            if !g.exits(p).contains(&from) {
                Err(NotationError::illegal(
                    text,
                    "moves off the board away from an exit",
                ))
            } else if s.blue(p) & bit == 0 {
                Err(NotationError::illegal(text, "only blue ghosts escape"))
            } else {
                Ok(GeisterMove::Step {
                    from,
                    dir: Geister::forward(p),
                })
            }
        }
    }
}

/// The board characters (`hide` = the player whose colours are shown as X/x).
fn grid(g: &Geister, s: &GeisterState, hide: Option<usize>) -> Vec<u8> {
    let mut cells = vec![b'.'; g.width() * g.height()];
    for p in 0..2 {
        let (b, r, u, x) = if p == 0 {
            (b'B', b'R', b'U', b'X')
        } else {
            (b'b', b'r', b'u', b'x')
        };
        let pl = Player(p as u8);
        if !s.has_set_up(pl) {
            for sq in bits(g.ghosts_of(s, pl)) {
                cells[sq as usize] = u;
            }
            continue;
        }
        for sq in bits(s.blue(pl)) {
            cells[sq as usize] = if hide == Some(p) { x } else { b };
        }
        for sq in bits(s.red(pl)) {
            cells[sq as usize] = if hide == Some(p) { x } else { r };
        }
    }
    cells
}

fn rows_text(g: &Geister, cells: &[u8]) -> String {
    cells
        .chunks(g.width())
        .map(|row| String::from_utf8_lossy(row).into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

fn result_char(s: &GeisterState) -> char {
    match s.result {
        0 => '-',
        1 => '0',
        2 => '1',
        _ => '=',
    }
}

pub(crate) fn format_state(g: &Geister, s: &GeisterState) -> String {
    format!(
        "{} {} {} {}",
        rows_text(g, &grid(g, s, None)),
        s.to_move,
        s.plies,
        result_char(s)
    )
}

pub(crate) fn observation(g: &Geister, s: &GeisterState, observer: Player) -> String {
    if !g.hidden() || s.result != 0 {
        return format_state(g, s);
    }
    let q = observer.opponent();
    let hidden = if s.has_set_up(q) {
        format!(
            " hidden:{}b{}r",
            s.blue(q).count_ones(),
            s.red(q).count_ones()
        )
    } else {
        String::new()
    };
    format!(
        "{} {} {} -{hidden}",
        rows_text(g, &grid(g, s, Some(q.index()))),
        s.to_move,
        s.plies
    )
}

pub(crate) fn parse_state(g: &Geister, text: &str) -> Result<GeisterState, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty { what: "state" });
    }
    let expected = format!(
        "{} rows of {} characters from B R U b r u . separated by '/', then the player to \
         move (0/1), the ply counter and the result (- 0 1 =)",
        g.height(),
        g.width()
    );
    let syntax = || NotationError::syntax("state", text, expected.clone());
    let fields: Vec<&str> = t.split_whitespace().collect();
    let [board, mover, plies, result] = fields[..] else {
        return Err(syntax());
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != g.height() || rows.iter().any(|r| r.len() != g.width()) {
        return Err(syntax());
    }
    let mut blue = [0u64; 2];
    let mut red = [0u64; 2];
    let mut unassigned = [0u64; 2];
    for (y, row) in rows.iter().enumerate() {
        for (x, c) in row.bytes().enumerate() {
            let bit = 1u64 << (y * g.width() + x);
            match c {
                b'B' => blue[0] |= bit,
                b'R' => red[0] |= bit,
                b'U' => unassigned[0] |= bit,
                b'b' => blue[1] |= bit,
                b'r' => red[1] |= bit,
                b'u' => unassigned[1] |= bit,
                b'.' => {}
                _ => return Err(syntax()),
            }
        }
    }
    let to_move: u8 = match mover {
        "0" => 0,
        "1" => 1,
        _ => return Err(syntax()),
    };
    let plies: u16 = plies.parse().map_err(|_| syntax())?;
    let result: u8 = match result {
        "-" => 0,
        "0" => 1,
        "1" => 2,
        "=" => 3,
        _ => return Err(syntax()),
    };
    let invalid = |e: PositionError| NotationError::invalid("state", text, e.to_string());
    let max = g.colour_count();
    let mut set_up = 0u8;
    for p in 0..2 {
        for (colour, bb) in [("blue", blue[p]), ("red", red[p])] {
            if bb.count_ones() > max {
                return Err(invalid(PositionError::TooMany {
                    player: PLAYER_NAMES[p],
                    colour,
                    count: bb.count_ones(),
                    max,
                }));
            }
        }
        if unassigned[p] != 0 {
            if unassigned[p] != g.start_mask(p) || blue[p] | red[p] != 0 {
                return Err(invalid(PositionError::BadUnassigned {
                    player: PLAYER_NAMES[p],
                }));
            }
        } else {
            set_up |= 1 << p;
        }
    }
    if set_up != 3 {
        if !g.has_setup_phase() {
            return Err(invalid(PositionError::SetupOrder(
                "this board has a fixed placement",
            )));
        }
        if set_up == 2 {
            return Err(invalid(PositionError::SetupOrder(
                "the second player set up before the first",
            )));
        }
        if plies != 0 || result != 0 {
            return Err(invalid(PositionError::SetupOrder(
                "board moves or a result before both set-ups",
            )));
        }
        let expected = set_up; // 0: player 0 is due, 1: player 1 is due
        if to_move != expected {
            return Err(invalid(PositionError::SideToMove {
                expected,
                found: to_move,
            }));
        }
    } else {
        let expected = (plies % 2) as u8;
        if to_move != expected {
            return Err(invalid(PositionError::SideToMove {
                expected,
                found: to_move,
            }));
        }
        let limit = g.max_plies();
        let plies_fit = match result {
            0 => plies < limit,
            3 => plies == limit,
            _ => plies <= limit,
        };
        if !plies_fit {
            return Err(invalid(PositionError::Plies { plies, limit }));
        }
        match result {
            0 if (0..2).any(|p| blue[p] == 0 || red[p] == 0) => {
                return Err(invalid(PositionError::Result(
                    "a player without blue or red ghosts, but the game is on",
                )));
            }
            1 | 2 => {
                let w = (result - 1) as usize;
                if plies == 0 {
                    return Err(invalid(PositionError::Result("a winner before any move")));
                }
                // The winner's own move ended the game, except when the loser captured
                // the winner's last red.
                let by_reds = red[w] == 0;
                let last_mover = 1 - to_move as usize;
                if by_reds != (last_mover != w) {
                    return Err(invalid(PositionError::Result(
                        "the last move does not explain the winner",
                    )));
                }
            }
            _ => {}
        }
    }
    Ok(GeisterState {
        blue,
        red,
        plies,
        to_move,
        set_up,
        result,
    })
}

pub(crate) fn render(g: &Geister, s: &GeisterState) -> String {
    render_cells(g, s, &grid(g, s, None))
}

fn render_cells(g: &Geister, s: &GeisterState, cells: &[u8]) -> String {
    let mut out = String::new();
    out.push_str("   ");
    for x in 0..g.width() {
        let _ = write!(out, " {x}");
    }
    out.push('\n');
    for y in 0..g.height() {
        let _ = write!(out, " {y} ");
        for x in 0..g.width() {
            let c = cells[y * g.width() + x] as char;
            let exit = (y == 0 || y == g.height() - 1) && (x == 0 || x == g.width() - 1);
            let c = if c == '.' && exit { '+' } else { c };
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    let caps = |p: Player| {
        if s.has_set_up(p) {
            let n = g.colour_count();
            format!(
                "lost {} blue, {} red",
                n - s.blue(p).count_ones(),
                n - s.red(p).count_ones()
            )
        } else {
            "no colours yet".to_string()
        }
    };
    let _ = writeln!(
        out,
        "first (B/R, moves north): {}; second (b/r, moves south): {}",
        caps(Player(0)),
        caps(Player(1))
    );
    let _ = write!(out, "ply {}/{}; ", s.plies, g.max_plies());
    match s.outcome() {
        crate::rules::Outcome::Ongoing => {
            let _ = write!(out, "{} to move", PLAYER_NAMES[s.to_move as usize]);
        }
        crate::rules::Outcome::Draw => out.push_str("drawn"),
        crate::rules::Outcome::Win { winner, reason } => {
            let _ = write!(out, "{} won ({reason:?})", PLAYER_NAMES[winner.index()]);
        }
    }
    out
}

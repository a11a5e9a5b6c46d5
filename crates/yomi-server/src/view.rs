//! What the page draws: a structured view of one position, derived from the game's state
//! notation ([`DynState::serialize`]) or, for a person at a hidden-information game, from
//! that person's observation ([`DynState::observation_string`]).
//!
//! The formats read here, each written by its game crate:
//!
//! | game | notation (from `format_state` / `observation`) |
//! |---|---|
//! | tic-tac-toe | 9 cells `x`/`o`/`.` from the top row (`a3 b3 c3`), a space, the side to move |
//! | connect four | 6 rows of 7 cells `x`/`o`/`.` from the top separated by `/`, a space, the side to move |
//! | Breakthrough | H rows of W cells `w`/`b`/`.` from the top separated by `/`, a space, `w` or `b` |
//! | Othello | 64 cells `X`/`O`/`-` from a1 (top left) row by row, a space, `X` or `O` |
//! | Go | N rows of `X`/`O`/`.` from the top separated by `/`, then side (`b`/`w`), ko point, komi, passes, moves, Black's and White's prisoners (read by yomi-go itself, which also scores the end) |
//! | Geister | rows from `y = 0` (top) separated by `/`: `B`/`R`/`U` player 0's blue/red/unset ghost, `b`/`r`/`u` player 1's, `X`/`x` a ghost of unknown colour; the mover, the ply, the result (`-`, `0`, `1`, `=`) and, in observations, `hidden:<blues>b<reds>r` |
//! | TUBSTAP | read by yomi-tubstap (`<turn> <r|b> \| x,y:hp[*] ...`); terrain and unit kinds come from the map |
//! | GDL | `((cell 1 1 b) (control xplayer) ...)`: the true base propositions |
//!
//! Any other game gets the text view: [`DynState::render`] (or the observation).

use serde::Serialize;
use yomi_core::Game;
use yomi_games::{DynState, GameChoice};

/// One unit on a TUBSTAP map.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct UnitView {
    /// Unit id (as in moves: `3@4,5x7`).
    pub id: usize,
    /// Column (1-based, as in moves).
    pub x: usize,
    /// Row (1-based, from the top).
    pub y: usize,
    /// Kind letter (`F`, `A`, `P`, `U`, `R`, `I`).
    pub kind: char,
    /// Kind name.
    pub kind_name: String,
    /// Team: 0 red, 1 blue.
    pub team: u8,
    /// Hit points (0: destroyed).
    pub hp: u8,
    /// Whether it has acted this turn.
    pub done: bool,
}

/// A Geister set-up: which start square each letter names, for the player who sets up.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct SetupView {
    /// `(letter, cell index)` for the 8 ghosts.
    pub letters: Vec<(char, usize)>,
}

/// A structured picture of one position, for the page's renderers.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct View {
    /// Which renderer draws it: `tictactoe`, `connect4`, `breakthrough`, `othello`, `go`,
    /// `geister`, `tubstap`, `gdl-grid`, `gdl-facts` or `text`.
    pub style: String,
    /// Columns.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Cell contents row by row from the top (`""` empty; a style's piece codes).
    pub cells: Vec<String>,
    /// The name each cell has in the game's move notation (`a3`, `E5`, `14`, `4,5`).
    pub names: Vec<String>,
    /// Column labels, left to right.
    pub col_labels: Vec<String>,
    /// Row labels, top to bottom.
    pub row_labels: Vec<String>,
    /// TUBSTAP terrain per cell (`plain`, `sea`, …).
    pub terrain: Vec<String>,
    /// TUBSTAP units.
    pub units: Vec<UnitView>,
    /// Marked cells: Go's dead stones at the end.
    pub marks: Vec<usize>,
    /// Facts worth a line each: disc counts, captures, the score.
    pub info: Vec<(String, String)>,
    /// GDL: the true propositions.
    pub facts: Vec<String>,
    /// The game's own picture of the state (or of the observation).
    pub text: String,
    /// Geister's set-up, when the viewer must set up now.
    pub setup: Option<SetupView>,
}

/// Builds the view of `state` of the game `choice` for `viewer` (`None`: the whole state,
/// for spectators and replays; `Some(p)`: what player `p` may see).
pub fn view(choice: &GameChoice, state: &dyn DynState, viewer: Option<usize>) -> View {
    let notation = state.serialize();
    let built = match choice {
        GameChoice::TicTacToe => tictactoe(&notation),
        GameChoice::ConnectFour => connect4(&notation),
        GameChoice::Breakthrough(_) => breakthrough(&notation),
        GameChoice::Othello => othello(&notation, state),
        GameChoice::Go(n) => go(*n as usize, &notation, state.is_terminal()),
        GameChoice::Geister(g) => geister(g, state, viewer),
        GameChoice::Tubstap(g) => tubstap(g, &notation),
        GameChoice::Ggp(_) => Some(gdl(&notation)),
    };
    let mut v = built.unwrap_or_else(|| View {
        style: "text".into(),
        ..View::default()
    });
    v.text = match (viewer, matches!(choice, GameChoice::Geister(_))) {
        (Some(p), true) => mask_geister_text(&state.observation_string(p), p),
        _ => state.render(),
    };
    v
}

fn letters(n: usize) -> Vec<String> {
    (0..n)
        .map(|i| ((b'a' + i as u8) as char).to_string())
        .collect()
}

/// Rows of a board notation: the part before the first space, split at `/` (or, without
/// `/`, cut into rows of `width`).
fn rows(board: &str, width: Option<usize>) -> Vec<Vec<char>> {
    if board.contains('/') || width.is_none() {
        board.split('/').map(|r| r.chars().collect()).collect()
    } else {
        let chars: Vec<char> = board.chars().collect();
        chars
            .chunks(width.unwrap_or(1))
            .map(|c| c.to_vec())
            .collect()
    }
}

/// A board whose cells are the notation's characters mapped by `piece`, named by
/// `name(col, row_from_top)`.
fn grid(
    style: &str,
    board: &[Vec<char>],
    piece: impl Fn(char) -> &'static str,
    name: impl Fn(usize, usize) -> String,
) -> Option<View> {
    let height = board.len();
    let width = board.first()?.len();
    if height == 0 || board.iter().any(|r| r.len() != width) {
        return None;
    }
    let mut cells = Vec::with_capacity(width * height);
    let mut names = Vec::with_capacity(width * height);
    for (r, row) in board.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            cells.push(piece(ch).to_string());
            names.push(name(c, r));
        }
    }
    Some(View {
        style: style.into(),
        width,
        height,
        cells,
        names,
        col_labels: letters(width),
        row_labels: (0..height).map(|r| (height - r).to_string()).collect(),
        ..View::default()
    })
}

fn xo(c: char) -> &'static str {
    match c {
        'x' | 'X' => "x",
        'o' | 'O' => "o",
        _ => "",
    }
}

fn tictactoe(n: &str) -> Option<View> {
    let (board, side) = n.split_once(' ')?;
    let mut v = grid("tictactoe", &rows(board, Some(3)), xo, |c, r| {
        format!("{}{}", (b'a' + c as u8) as char, 3 - r)
    })?;
    v.info.push(("to move".into(), side.trim().into()));
    Some(v)
}

fn connect4(n: &str) -> Option<View> {
    let (board, side) = n.split_once(' ')?;
    let mut v = grid("connect4", &rows(board, None), xo, |c, _| {
        ((b'a' + c as u8) as char).to_string()
    })?;
    v.info.push(("to move".into(), side.trim().into()));
    Some(v)
}

fn breakthrough(n: &str) -> Option<View> {
    let (board, side) = n.split_once(' ')?;
    let b = rows(board, None);
    let h = b.len();
    let mut v = grid(
        "breakthrough",
        &b,
        |c| match c {
            'w' => "w",
            'b' => "b",
            _ => "",
        },
        |c, r| format!("{}{}", (b'a' + c as u8) as char, h - r),
    )?;
    let count = |p: &str| v.cells.iter().filter(|c| *c == p).count().to_string();
    let (w, bl) = (count("w"), count("b"));
    v.info.push((
        "to move".into(),
        if side.trim() == "w" { "white" } else { "black" }.into(),
    ));
    v.info.push(("white pieces".into(), w));
    v.info.push(("black pieces".into(), bl));
    Some(v)
}

fn othello(n: &str, state: &dyn DynState) -> Option<View> {
    let (board, side) = n.split_once(' ')?;
    let mut v = grid(
        "othello",
        &rows(board, Some(8)),
        |c| match c {
            'X' => "b",
            'O' => "w",
            _ => "",
        },
        |c, r| format!("{}{}", (b'a' + c as u8) as char, r + 1),
    )?;
    v.row_labels = (1..=8).map(|r| r.to_string()).collect();
    let count = |p: &str| v.cells.iter().filter(|c| *c == p).count();
    let (b, w) = (count("b"), count("w"));
    v.info.push(("black discs".into(), b.to_string()));
    v.info.push(("white discs".into(), w.to_string()));
    v.info.push((
        "to move".into(),
        if side.trim() == "X" { "black" } else { "white" }.into(),
    ));
    let passes = state
        .history_texts()
        .iter()
        .filter(|m| m.eq_ignore_ascii_case("pass"))
        .count();
    v.info.push(("passes".into(), passes.to_string()));
    Some(v)
}

fn go(size: usize, n: &str, terminal: bool) -> Option<View> {
    let fields: Vec<&str> = n.split_whitespace().collect();
    let [board, side, ko, komi, passes, _moves, b_pris, w_pris] = fields[..] else {
        return None;
    };
    let cols = yomi_go::vertex::COLUMNS;
    let mut v = grid(
        "go",
        &rows(board, None),
        |c| match c {
            'X' => "b",
            'O' => "w",
            _ => "",
        },
        |c, r| format!("{}{}", cols[c] as char, size - r),
    )?;
    v.col_labels = (0..size).map(|c| (cols[c] as char).to_string()).collect();
    v.info.push((
        "to move".into(),
        if side == "b" { "black" } else { "white" }.into(),
    ));
    v.info.push(("captured by black".into(), b_pris.into()));
    v.info.push(("captured by white".into(), w_pris.into()));
    v.info.push(("komi".into(), komi.into()));
    v.info.push(("passes in a row".into(), passes.into()));
    if ko != "-" {
        v.info.push(("ko".into(), ko.into()));
    }
    if terminal {
        if let Some((dead, score, plain)) = go_score(size, n) {
            v.marks = dead
                .iter()
                .filter_map(|d| v.names.iter().position(|x| x == d))
                .collect();
            v.info.push(("score (dead stones removed)".into(), score));
            v.info.push(("result (area, as played)".into(), plain));
        }
    }
    Some(v)
}

/// The end of a Go game as yomi's GTP engine counts it (`final_score`): dead stones by
/// Monte Carlo ownership, then area scoring; and the game's own result (the returns'
/// Tromp-Taylor count of the board as it stands).
fn go_score(size: usize, n: &str) -> Option<(Vec<String>, String, String)> {
    use yomi_go::score::{dead_stones, format_score, Count, Scoring};
    let game = yomi_go::GoGame::new(size).ok()?;
    let state = game.parse_state(n).ok()?;
    let dead = dead_stones(&game, &state, 400, 1);
    let score = Count::new(&state, &dead).score(Scoring::Area);
    let plain = state.area_score();
    let names = dead.iter().map(|v| v.to_gtp(size)).collect();
    Some((names, format_score(score), format_score(plain)))
}

/// The cell char of a Geister notation → the view's code: `B`/`R`/`U` player 0's
/// blue/red/unset, `b`/`r`/`u` player 1's, `X`/`x` unknown colour of player 0/1.
fn geister_code(c: char) -> &'static str {
    match c {
        'B' => "B",
        'R' => "R",
        'U' => "U",
        'X' => "X",
        'b' => "b",
        'r' => "r",
        'u' => "u",
        'x' => "x",
        _ => "",
    }
}

/// Hides the colours of the opponent of `viewer` in a Geister notation (the board field
/// only; the observation already hides them during play, and this keeps them hidden at
/// the end as well).
fn mask_geister_board(board: &str, viewer: usize) -> String {
    board
        .chars()
        .map(|c| match (viewer, c) {
            (0, 'b' | 'r' | 'u') => 'x',
            (1, 'B' | 'R' | 'U') => 'X',
            _ => c,
        })
        .collect()
}

fn mask_geister_text(obs: &str, viewer: usize) -> String {
    match obs.split_once(' ') {
        Some((board, rest)) => format!("{} {rest}", mask_geister_board(board, viewer)),
        None => mask_geister_board(obs, viewer),
    }
}

fn geister(g: &yomi_geister::Geister, state: &dyn DynState, viewer: Option<usize>) -> Option<View> {
    let text = match viewer {
        Some(p) => mask_geister_text(&state.observation_string(p), p),
        None => state.serialize(),
    };
    let fields: Vec<&str> = text.split_whitespace().collect();
    let board = *fields.first()?;
    let mut v = grid("geister", &rows(board, None), geister_code, |c, r| {
        format!("{c}{r}")
    })?;
    v.col_labels = (0..v.width).map(|c| c.to_string()).collect();
    v.row_labels = (0..v.height).map(|r| r.to_string()).collect();
    let count = |p: &str| v.cells.iter().filter(|c| *c == p).count();
    v.info
        .push(("to move".into(), fields.get(1).unwrap_or(&"?").to_string()));
    v.info
        .push(("ply".into(), fields.get(2).unwrap_or(&"?").to_string()));
    let own = |p: usize| -> String {
        let (b, r) = if p == 0 { ("B", "R") } else { ("b", "r") };
        format!("{} blue, {} red", count(b), count(r))
    };
    match viewer {
        Some(p) => {
            v.info.push(("your ghosts".into(), own(p)));
            if let Some(h) = fields.iter().find_map(|f| f.strip_prefix("hidden:")) {
                let h = h.replace('b', " blue, ").replace('r', " red");
                v.info.push(("opponent's ghosts".into(), h));
            }
            // The set-up screen: the viewer's unset ghosts and their letters.
            let unset = if p == 0 { "U" } else { "u" };
            if g.has_setup_phase() && v.cells.iter().any(|c| c == unset) {
                let letters = (0..g.ghosts() as usize)
                    .map(|i| {
                        let (x, y) = g.coords(g.start_square(yomi_core::Player(p as u8), i));
                        ((b'A' + i as u8) as char, y * v.width + x)
                    })
                    .collect();
                v.setup = Some(SetupView { letters });
            }
        }
        None => {
            v.info.push(("first player".into(), own(0)));
            v.info.push(("second player".into(), own(1)));
        }
    }
    Some(v)
}

fn tubstap(g: &yomi_tubstap::Tubstap, n: &str) -> Option<View> {
    let state = g.parse_state(n).ok()?;
    let map = g.map();
    let (w, h) = (map.width - 2, map.height - 2);
    let mut v = View {
        style: "tubstap".into(),
        width: w,
        height: h,
        col_labels: (1..=w).map(|x| x.to_string()).collect(),
        row_labels: (1..=h).map(|y| y.to_string()).collect(),
        ..View::default()
    };
    for y in 1..=h {
        for x in 1..=w {
            v.terrain.push(map.terrain_at(x, y).name().to_string());
            v.names.push(format!("{x},{y}"));
            v.cells.push(String::new());
        }
    }
    for id in 0..g.units() {
        let u = state.unit(id);
        let kind = g.kind(id);
        v.units.push(UnitView {
            id,
            x: u.x as usize,
            y: u.y as usize,
            kind: kind.letter(),
            kind_name: kind.to_string(),
            team: g.team(id),
            hp: u.hp,
            done: u.finished,
        });
    }
    let turn = state.turn();
    v.info.push((
        "side-turn".into(),
        format!("{} of {}", turn + 1, map.turn_limit),
    ));
    v.info.push((
        "to move".into(),
        yomi_tubstap::team_name(state.mover()).into(),
    ));
    v.info
        .push(("red HP".into(), g.total_hp(&state, 0).to_string()));
    v.info
        .push(("blue HP".into(), g.total_hp(&state, 1).to_string()));
    Some(v)
}

/// A GDL term as text and its parts (atoms and sub-terms as text).
fn gdl_terms(text: &str) -> Vec<String> {
    // Split the top-level list `( t1 t2 ... )` into its terms.
    let inner = text
        .trim()
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .unwrap_or(text);
    split_terms(inner)
}

/// Splits `a (b c) d` into `a`, `(b c)`, `d` (parentheses respected).
pub fn split_terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut cur = String::new();
    for ch in text.chars() {
        match ch {
            '(' => {
                depth += 1;
                cur.push(ch);
            }
            ')' => {
                depth = depth.saturating_sub(1);
                cur.push(ch);
                if depth == 0 {
                    out.push(std::mem::take(&mut cur).trim().to_string());
                }
            }
            c if c.is_whitespace() && depth == 0 => {
                if !cur.trim().is_empty() {
                    out.push(std::mem::take(&mut cur).trim().to_string());
                }
                cur.clear();
            }
            c => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

fn gdl(n: &str) -> View {
    let facts = gdl_terms(n);
    // Cell-like relations: (rel a b content...) with a, b atoms; pick the relation with
    // the most facts, its first two arguments as column and row.
    let mut best: Option<(String, usize)> = None;
    let mut counts: Vec<(String, usize)> = Vec::new();
    for f in &facts {
        let parts = split_terms(f.trim_start_matches('(').trim_end_matches(')'));
        if parts.len() >= 3 && !parts[1].starts_with('(') && !parts[2].starts_with('(') {
            match counts.iter_mut().find(|(r, _)| *r == parts[0]) {
                Some(e) => e.1 += 1,
                None => counts.push((parts[0].clone(), 1)),
            }
        }
    }
    for (r, c) in counts {
        if c >= 2 && best.as_ref().is_none_or(|(_, b)| c > *b) {
            best = Some((r, c));
        }
    }
    let mut v = View {
        style: "gdl-facts".into(),
        facts: facts.clone(),
        ..View::default()
    };
    let Some((rel, _)) = best else {
        return v;
    };
    let mut entries = Vec::new();
    let (mut xs, mut ys) = (Vec::new(), Vec::new());
    for f in &facts {
        let parts = split_terms(f.trim_start_matches('(').trim_end_matches(')'));
        if parts.len() >= 3 && parts[0] == rel {
            let content = parts[3..].join(" ");
            xs.push(parts[1].clone());
            ys.push(parts[2].clone());
            entries.push((parts[1].clone(), parts[2].clone(), content));
        }
    }
    let order = |v: &mut Vec<String>| {
        v.sort_by(|a, b| match (a.parse::<i64>(), b.parse::<i64>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => a.cmp(b),
        });
        v.dedup();
    };
    order(&mut xs);
    order(&mut ys);
    fill_range(&mut xs);
    fill_range(&mut ys);
    if xs.len() > 32 || ys.len() > 32 {
        return v;
    }
    // Rows are the second coordinate, from the smallest at the top.
    let (w, h) = (xs.len(), ys.len());
    let mut cells = vec![String::new(); w * h];
    for (x, y, content) in entries {
        let (Some(c), Some(r)) = (
            xs.iter().position(|a| *a == x),
            ys.iter().position(|a| *a == y),
        ) else {
            continue;
        };
        let slot = &mut cells[r * w + c];
        if !slot.is_empty() {
            slot.push(' ');
        }
        slot.push_str(&content);
    }
    v.style = "gdl-grid".into();
    v.width = w;
    v.height = h;
    v.names = (0..h)
        .flat_map(|r| {
            let xs = &xs;
            let ys = &ys;
            (0..w).map(move |c| format!("{} {}", xs[c], ys[r]))
        })
        .collect();
    v.cells = cells;
    v.col_labels = xs;
    v.row_labels = ys;
    v.info.push(("relation".into(), rel));
    v
}

/// Completes sorted coordinates to their whole range when they are all integers or all
/// single letters (a row without pieces is not among the facts).
fn fill_range(v: &mut Vec<String>) {
    if let (Some(a), Some(b)) = (v.first(), v.last()) {
        if let (Ok(a), Ok(b)) = (a.parse::<i64>(), b.parse::<i64>()) {
            if v.iter().all(|x| x.parse::<i64>().is_ok()) && b - a < 32 {
                *v = (a..=b).map(|i| i.to_string()).collect();
            }
        } else if a.len() == 1 && b.len() == 1 && v.iter().all(|x| x.len() == 1) {
            let (a, b) = (a.as_bytes()[0], b.as_bytes()[0]);
            if a.is_ascii_lowercase() && b.is_ascii_lowercase() && a <= b {
                *v = (a..=b).map(|c| (c as char).to_string()).collect();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_terms_respects_parentheses() {
        assert_eq!(
            split_terms("(cell 1 1 b) (control x) noop"),
            vec!["(cell 1 1 b)", "(control x)", "noop"]
        );
        assert_eq!(split_terms("a (b (c d)) e"), vec!["a", "(b (c d))", "e"]);
    }

    #[test]
    fn gdl_cells_make_a_grid() {
        let v = gdl("((cell 1 1 x) (cell 1 2 b) (cell 2 1 b) (cell 2 2 o) (control p))");
        assert_eq!(v.style, "gdl-grid");
        assert_eq!((v.width, v.height), (2, 2));
        assert_eq!(v.cells, vec!["x", "b", "b", "o"]);
        let v = gdl("((step 1) (control p))");
        assert_eq!(v.style, "gdl-facts");
        assert_eq!(v.facts.len(), 2);
    }

    #[test]
    fn geister_masks_the_opponent() {
        assert_eq!(mask_geister_board(".b.r./.R.B.", 0), ".x.x./.R.B.");
        assert_eq!(mask_geister_board(".b.r./.R.B.", 1), ".b.r./.X.X.");
    }
}

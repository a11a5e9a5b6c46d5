//! SGF (`FF[4]`) reading and writing for Go: board size `SZ`, komi `KM`, setup stones
//! `AB`/`AW`/`AE`, the player to move `PL`, moves `B`/`W`, result `RE`. Reading follows the
//! main line (the first variation at every branch) and never panics: malformed files give an
//! [`SgfError`] with the byte position or property at fault.
//!
//! ```
//! use yomi_go::sgf::SgfGame;
//! let rec = SgfGame::parse("(;FF[4]GM[1]SZ[9]KM[6.5];B[ee];W[cc];B[])").unwrap();
//! assert_eq!(rec.moves.len(), 3);
//! let (game, state) = rec.replay().unwrap();
//! assert_eq!(game.size(), 9);
//! assert_eq!(state.move_number(), 3);
//! assert_eq!(SgfGame::parse(&rec.to_sgf()).unwrap(), rec);
//! ```

use yomi_core::Game;

use crate::board::Board;
use crate::error::{PositionError, SgfError};
use crate::game::{GoGame, GoState, Rules};
use crate::vertex::{Color, Vertex};

/// The main line of an SGF Go record.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// Board size (default 19).
    pub size: usize,
    /// Komi (default 0).
    pub komi: f64,
    /// Black setup stones.
    pub black_setup: Vec<Vertex>,
    /// White setup stones.
    pub white_setup: Vec<Vertex>,
    /// The player to move after the setup (`PL`), if given.
    pub to_play: Option<Color>,
    /// The moves, in order.
    pub moves: Vec<(Color, Vertex)>,
    /// The result (`RE`), if given.
    pub result: Option<String>,
}

/// One property: identifier and raw values.
type Prop = (String, Vec<String>);

fn syntax(pos: usize, reason: &str) -> SgfError {
    SgfError::Syntax {
        pos,
        reason: reason.to_string(),
    }
}

/// Splits SGF text into the main line's nodes.
fn main_line(text: &str) -> Result<Vec<Vec<Prop>>, SgfError> {
    let b = text.as_bytes();
    let mut i = 0;
    // Per open tree: (on the main line, children opened so far).
    let mut stack: Vec<(bool, usize)> = Vec::new();
    let mut nodes: Vec<Vec<Prop>> = Vec::new();
    let mut in_node = false;
    let mut started = false;
    while i < b.len() {
        let c = b[i];
        match c {
            b'(' => {
                let on_main = match stack.last_mut() {
                    None => !started,
                    Some((main, children)) => {
                        *children += 1;
                        *main && *children == 1
                    }
                };
                started = true;
                stack.push((on_main, 0));
                in_node = false;
                i += 1;
            }
            b')' => {
                if stack.pop().is_none() {
                    return Err(syntax(i, "')' without '('"));
                }
                in_node = false;
                i += 1;
            }
            b';' => {
                let Some(&(main, children)) = stack.last() else {
                    return Err(syntax(i, "node outside a game tree"));
                };
                if children > 0 {
                    return Err(syntax(i, "node after a variation"));
                }
                if main {
                    nodes.push(Vec::new());
                }
                in_node = true;
                i += 1;
            }
            b'A'..=b'Z' | b'a'..=b'z' => {
                if !in_node {
                    return Err(syntax(i, "property outside a node"));
                }
                let start = i;
                while i < b.len() && b[i].is_ascii_alphabetic() {
                    i += 1;
                }
                // FF[1]-style lower-case letters in identifiers are ignored.
                let ident: String = text[start..i]
                    .chars()
                    .filter(|c| c.is_ascii_uppercase())
                    .collect();
                let mut values = Vec::new();
                loop {
                    while i < b.len() && b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    if i >= b.len() || b[i] != b'[' {
                        break;
                    }
                    i += 1;
                    let mut v = Vec::new();
                    loop {
                        match b.get(i) {
                            None => return Err(syntax(i, "unterminated property value")),
                            Some(b'\\') => {
                                if let Some(&n) = b.get(i + 1) {
                                    v.push(n);
                                }
                                i += 2;
                            }
                            Some(b']') => {
                                i += 1;
                                break;
                            }
                            Some(&x) => {
                                v.push(x);
                                i += 1;
                            }
                        }
                    }
                    values.push(String::from_utf8_lossy(&v).into_owned());
                }
                if values.is_empty() {
                    return Err(syntax(i, "property without a value"));
                }
                if ident.is_empty() {
                    return Err(syntax(start, "property identifier without capitals"));
                }
                let main = stack.last().is_some_and(|s| s.0);
                if main {
                    if let Some(node) = nodes.last_mut() {
                        node.push((ident, values));
                    }
                }
            }
            _ if c.is_ascii_whitespace() => i += 1,
            _ => return Err(syntax(i, &format!("unexpected character {:?}", c as char))),
        }
        if stack.is_empty() && started {
            break;
        }
    }
    if !started {
        return Err(syntax(0, "no game tree: SGF starts with '(;'"));
    }
    if !stack.is_empty() {
        return Err(syntax(b.len(), "unclosed '('"));
    }
    if nodes.is_empty() {
        return Err(syntax(0, "empty game tree"));
    }
    Ok(nodes)
}

fn point(prop: &str, value: &str, size: usize) -> Result<Vertex, SgfError> {
    Vertex::parse_sgf(value, size).map_err(|e| SgfError::Point {
        prop: prop.to_string(),
        value: value.to_string(),
        reason: e.to_string(),
    })
}

/// Reads a list of points, expanding `aa:cc` rectangles.
fn points(prop: &str, values: &[String], size: usize) -> Result<Vec<Vertex>, SgfError> {
    let mut out = Vec::new();
    for v in values {
        if let Some((a, b)) = v.split_once(':') {
            let (pa, pb) = (point(prop, a, size)?, point(prop, b, size)?);
            let (Some((x1, y1)), Some((x2, y2))) = (pa.coords(size), pb.coords(size)) else {
                return Err(SgfError::Point {
                    prop: prop.into(),
                    value: v.clone(),
                    reason: "a rectangle needs two points".into(),
                });
            };
            for x in x1.min(x2)..=x1.max(x2) {
                for y in y1.min(y2)..=y1.max(y2) {
                    out.push(Vertex::at(x, y, size));
                }
            }
        } else {
            let p = point(prop, v, size)?;
            if p.is_pass() {
                return Err(SgfError::Point {
                    prop: prop.into(),
                    value: v.clone(),
                    reason: "setup needs a point".into(),
                });
            }
            out.push(p);
        }
    }
    Ok(out)
}

/// The properties of the root node of `text` (identifier and raw values, escapes removed),
/// for properties this reader does not interpret (such as the yose problems' `YK`, `YC`).
///
/// # Errors
/// [`SgfError::Syntax`] when the text is not SGF.
pub fn root_properties(text: &str) -> Result<Vec<(String, Vec<String>)>, SgfError> {
    let mut nodes = main_line(text)?;
    Ok(nodes.swap_remove(0))
}

impl SgfGame {
    /// Reads the main line of an SGF Go record.
    ///
    /// # Errors
    /// [`SgfError`] for syntax errors, other games, unsupported sizes, bad komi or points.
    pub fn parse(text: &str) -> Result<SgfGame, SgfError> {
        let nodes = main_line(text)?;
        let mut rec = SgfGame {
            size: 19,
            komi: 0.0,
            black_setup: Vec::new(),
            white_setup: Vec::new(),
            to_play: None,
            moves: Vec::new(),
            result: None,
        };
        // Root properties first: the size governs every point.
        for (id, vals) in &nodes[0] {
            match id.as_str() {
                "GM" if vals[0].trim() != "1" => return Err(SgfError::NotGo(vals[0].clone())),
                "SZ" => {
                    let v = vals[0].trim();
                    let n: usize = match v.split_once(':') {
                        Some((a, b)) if a.trim() == b.trim() => a.trim().parse(),
                        Some(_) => return Err(SgfError::Size(v.into())),
                        None => v.parse(),
                    }
                    .map_err(|_| SgfError::Size(v.into()))?;
                    if !(crate::MIN_SIZE..=crate::MAX_SIZE).contains(&n) {
                        return Err(SgfError::Size(v.into()));
                    }
                    rec.size = n;
                }
                "KM" => {
                    let v = vals[0].trim();
                    rec.komi = v.parse().map_err(|_| SgfError::Komi(v.into()))?;
                    if crate::game::komi_half_points(rec.komi).is_err() {
                        return Err(SgfError::Komi(v.into()));
                    }
                }
                "RE" => rec.result = Some(vals[0].clone()),
                _ => {}
            }
        }
        let size = rec.size;
        for (n, node) in nodes.iter().enumerate() {
            for (id, vals) in node {
                match id.as_str() {
                    "AB" | "AW" | "AE" if !rec.moves.is_empty() => {
                        return Err(SgfError::Point {
                            prop: id.clone(),
                            value: vals[0].clone(),
                            reason: format!("setup in node {n} after moves is not supported"),
                        })
                    }
                    "AB" => rec.black_setup.extend(points(id, vals, size)?),
                    "AW" => rec.white_setup.extend(points(id, vals, size)?),
                    "AE" => {
                        let clear = points(id, vals, size)?;
                        rec.black_setup.retain(|v| !clear.contains(v));
                        rec.white_setup.retain(|v| !clear.contains(v));
                    }
                    "PL" => {
                        rec.to_play =
                            Some(Color::parse(vals[0].trim()).ok_or_else(|| SgfError::Point {
                                prop: "PL".into(),
                                value: vals[0].clone(),
                                reason: "expected B or W".into(),
                            })?)
                    }
                    "B" => rec.moves.push((Color::Black, point(id, &vals[0], size)?)),
                    "W" => rec.moves.push((Color::White, point(id, &vals[0], size)?)),
                    _ => {}
                }
            }
        }
        Ok(rec)
    }

    /// The game (default rules with this record's komi) and the position after the setup.
    ///
    /// # Errors
    /// [`SgfError::Position`] when the setup leaves a chain without liberties.
    pub fn setup(&self) -> Result<(GoGame, GoState), SgfError> {
        let game = GoGame::with_rules(
            self.size,
            Rules {
                komi: self.komi,
                max_moves: Some((3 * self.size * self.size).max(self.moves.len() + 2)),
                ..Rules::default()
            },
        )
        .map_err(|_| SgfError::Size(self.size.to_string()))?;
        let mut board = Board::new(self.size);
        for v in &self.black_setup {
            board.put_raw(v.index(), Some(Color::Black));
        }
        for v in &self.white_setup {
            board.put_raw(v.index(), Some(Color::White));
        }
        board.rebuild();
        if let Some(&p) = board.dead_chains().first() {
            return Err(SgfError::Position(PositionError::NoLiberties(
                Vertex::from_index(p).to_gtp(self.size),
            )));
        }
        let first = self
            .to_play
            .or_else(|| self.moves.first().map(|m| m.0))
            .unwrap_or(
                if self.black_setup.is_empty() || !self.white_setup.is_empty() {
                    Color::Black
                } else {
                    Color::White
                },
            );
        board.set_to_move(first);
        let state = game
            .state_from_board(board, self.komi)
            .map_err(|_| SgfError::Komi(self.komi.to_string()))?;
        Ok((game, state))
    }

    /// Replays the record: the setup, then every move with the rules' checks. A move by the
    /// side not to move is preceded by a pass (as SGF allows).
    ///
    /// # Errors
    /// [`SgfError::IllegalMove`] for the first move the rules refuse, or the errors of
    /// [`SgfGame::setup`].
    pub fn replay(&self) -> Result<(GoGame, GoState), SgfError> {
        let (game, mut state) = self.setup()?;
        for (i, &(c, v)) in self.moves.iter().enumerate() {
            let illegal = || SgfError::IllegalMove {
                number: i + 1,
                mv: format!("{}[{}]", c.letter(), v.to_sgf(self.size)),
            };
            if state.to_move() != c {
                game.play(&mut state, Vertex::PASS).map_err(|_| illegal())?;
            }
            game.play(&mut state, v).map_err(|_| illegal())?;
        }
        Ok((game, state))
    }

    /// The record as SGF text (`FF[4]`, one node per move).
    pub fn to_sgf(&self) -> String {
        self.to_sgf_with(&[])
    }

    /// The record as SGF text with more root properties (`("PB", "GNU Go")`: identifier and
    /// one text value, escaped here), written after the board size, komi and result.
    pub fn to_sgf_with(&self, root: &[(&str, &str)]) -> String {
        let n = self.size;
        let mut s = format!("(;FF[4]GM[1]CA[UTF-8]AP[yomi]SZ[{n}]KM[{}]", self.komi);
        if let Some(r) = &self.result {
            s.push_str(&format!("RE[{}]", escape_text(r)));
        }
        for (id, value) in root {
            s.push_str(&format!("{id}[{}]", escape_text(value)));
        }
        for (prop, list) in [("AB", &self.black_setup), ("AW", &self.white_setup)] {
            if !list.is_empty() {
                s.push_str(prop);
                for v in list {
                    s.push_str(&format!("[{}]", v.to_sgf(n)));
                }
            }
        }
        if let Some(c) = self.to_play {
            s.push_str(&format!("PL[{}]", c.letter()));
        }
        for &(c, v) in &self.moves {
            s.push_str(&format!("\n;{}[{}]", c.letter(), v.to_sgf(n)));
        }
        s.push_str(")\n");
        s
    }

    /// A record of `moves` played from the empty board of `game`'s size with `komi`.
    pub fn from_moves(size: usize, komi: f64, moves: &[(Color, Vertex)]) -> SgfGame {
        SgfGame {
            size,
            komi,
            black_setup: Vec::new(),
            white_setup: Vec::new(),
            to_play: None,
            moves: moves.to_vec(),
            result: None,
        }
    }
}

/// An SGF text value, with backslashes and closing brackets escaped.
fn escape_text(value: &str) -> String {
    value.replace('\\', "\\\\").replace(']', "\\]")
}

//! `.tbsmap` map files: reading (with errors that name the line and field), validation and
//! writing.
//!
//! # Format (inferred from the platform's maps and its loader)
//! A sequence of `NAME[value];` entries, in any order and spread over lines as the author
//! likes (the platform joins the lines and splits at `;`):
//! `SIZEX[w];SIZEY[h];TURNLIMIT[n];HPTHRESHOLD[n];UNITNUMRED[n];UNITNUMBLUE[n];` (required),
//! `AUTHOR[..];MAPCOM[..];` (optional, free text), one `UNIT[x,y,type,team,hp,finished];` per
//! unit (unit id = order of appearance; type one of `fighter attacker panzer cannon antiair
//! infantry`; team 0 red / 1 blue; HP 1..10; finished 0/1) and one `MAP[c0,...,c(w-1)];` per
//! row y = 0..h-1 with terrain codes 0..6. The border ring must be 0 (no entry).
//!
//! `UNITNUMRED`/`UNITNUMBLUE` are the platform's unit capacities; a map may place fewer
//! units (see [`TbsMap::warnings`]) but never more. As on the platform, a unit may start on
//! terrain it cannot enter (it may leave, never return); [`TbsMap::warnings`] lists those.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::rules::{Terrain, UnitKind};

/// Largest accepted map side (cells, border included).
pub const MAX_SIDE: usize = 32;
/// Most units a map may hold (both teams together).
pub const MAX_UNITS: usize = 32;

/// Why a map could not be read or is not playable.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MapError {
    /// The text is not a sequence of `NAME[value];` entries.
    #[error("line {line}: {reason} (entries look like NAME[value];)")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// An entry whose name is not a map field.
    #[error("line {line}: unknown field {field:?}; known fields: SIZEX, SIZEY, TURNLIMIT, HPTHRESHOLD, UNITNUMRED, UNITNUMBLUE, AUTHOR, MAPCOM, UNIT, MAP")]
    UnknownField {
        /// 1-based line.
        line: usize,
        /// The name found.
        field: String,
    },
    /// A field's value is malformed or out of range.
    #[error("line {line}, field {field}: bad value {value:?}: {reason}")]
    BadValue {
        /// 1-based line (in the file read, or in the map as written by `Display`).
        line: usize,
        /// The field, with the part inside it where useful (`UNIT #3 hp`).
        field: String,
        /// The offending text.
        value: String,
        /// What is expected.
        reason: String,
    },
    /// A required field is absent.
    #[error("missing field {field}: every map needs SIZEX, SIZEY, TURNLIMIT, HPTHRESHOLD, UNITNUMRED, UNITNUMBLUE, MAP rows and UNIT entries")]
    Missing {
        /// The missing field.
        field: &'static str,
    },
    /// A field given twice.
    #[error("line {line}: field {field} given twice (first on line {first})")]
    Duplicate {
        /// Line of the second occurrence.
        line: usize,
        /// The field.
        field: &'static str,
        /// Line of the first.
        first: usize,
    },
    /// The map as a whole is not playable.
    #[error("line {line}, field {field}: {reason}")]
    Invalid {
        /// 1-based line of the entry at fault.
        line: usize,
        /// The field at fault.
        field: String,
        /// Why.
        reason: String,
    },
}

/// One unit as placed by the map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UnitPlacement {
    /// Column (1..w-2).
    pub x: u8,
    /// Row (1..h-2).
    pub y: u8,
    /// The kind.
    pub kind: UnitKind,
    /// 0 = red (moves first), 1 = blue.
    pub team: u8,
    /// Hit points 1..=10.
    pub hp: u8,
    /// Cannot act in its side's first turn.
    pub finished: bool,
}

/// A TUBSTAP map: terrain, units and the end-of-game rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbsMap {
    /// Width in cells, border included.
    pub width: usize,
    /// Height in cells, border included.
    pub height: usize,
    /// The game ends when this many side-turns have been played.
    pub turn_limit: u32,
    /// At the turn limit a side wins only if its HP total exceeds the other's by more than this.
    pub hp_threshold: i32,
    /// `UNITNUMRED` as written (the platform's capacity for red units).
    pub declared_red: u32,
    /// `UNITNUMBLUE` as written.
    pub declared_blue: u32,
    /// `AUTHOR`, if given.
    pub author: Option<String>,
    /// `MAPCOM` (comment), if given.
    pub comment: Option<String>,
    /// Terrain, row-major: cell (x, y) is `terrain[y * width + x]`.
    pub terrain: Vec<Terrain>,
    /// Units in id order.
    pub units: Vec<UnitPlacement>,
}

/// Line numbers of each entry, for error messages.
#[derive(Clone, Debug, Default)]
struct Lines {
    size: usize,
    turn: usize,
    counts: usize,
    rows: Vec<usize>,
    units: Vec<usize>,
}

impl TbsMap {
    /// Reads a map from `.tbsmap` text.
    ///
    /// # Errors
    /// [`MapError`] naming the line and field at fault.
    pub fn parse(text: &str) -> Result<TbsMap, MapError> {
        parse(text)
    }

    /// The terrain at (x, y) (no entry outside the map).
    pub fn terrain_at(&self, x: usize, y: usize) -> Terrain {
        if x < self.width && y < self.height {
            self.terrain[y * self.width + x]
        } else {
            Terrain::NoEntry
        }
    }

    /// Units of `team` (0 red, 1 blue).
    pub fn team_units(&self, team: u8) -> impl Iterator<Item = &UnitPlacement> {
        self.units.iter().filter(move |u| u.team == team)
    }

    /// Checks that the map is playable.
    ///
    /// # Errors
    /// [`MapError`] naming the field at fault; line numbers refer to the map as written by
    /// `Display`.
    pub fn validate(&self) -> Result<(), MapError> {
        self.validate_with(&self.canonical_lines())
    }

    /// Things the platform accepts but that look unintended: units starting on terrain they
    /// cannot enter, declared unit counts that differ from the units placed.
    pub fn warnings(&self) -> Vec<String> {
        let mut w = Vec::new();
        for (i, u) in self.units.iter().enumerate() {
            let t = self.terrain_at(u.x as usize, u.y as usize);
            if u.kind.cost(t).is_none() {
                w.push(format!(
                    "unit #{i} ({}) starts on {} at {},{}, which it cannot enter",
                    u.kind,
                    t.name(),
                    u.x,
                    u.y
                ));
            }
        }
        for (team, declared, name) in [
            (0u8, self.declared_red, "UNITNUMRED"),
            (1u8, self.declared_blue, "UNITNUMBLUE"),
        ] {
            let actual = self.team_units(team).count();
            if actual as u32 != declared {
                w.push(format!(
                    "{name} declares {declared} units but the map places {actual}"
                ));
            }
        }
        w
    }

    /// A copy with the teams exchanged (the platform's `reverse`): red units become blue and
    /// blue red, so the side that moved second now moves first.
    pub fn swapped_teams(&self) -> TbsMap {
        let mut m = self.clone();
        for u in &mut m.units {
            u.team = 1 - u.team;
        }
        std::mem::swap(&mut m.declared_red, &mut m.declared_blue);
        m
    }

    fn canonical_lines(&self) -> Lines {
        // Layout written by Display: sizes, turn, counts, [author], [comment], units, rows.
        let mut line = 4 + self.author.is_some() as usize + self.comment.is_some() as usize;
        let units = (0..self.units.len())
            .map(|_| {
                line += 1;
                line
            })
            .collect();
        let rows = (0..self.height)
            .map(|_| {
                line += 1;
                line
            })
            .collect();
        Lines {
            size: 1,
            turn: 2,
            counts: 3,
            rows,
            units,
        }
    }

    fn validate_with(&self, lines: &Lines) -> Result<(), MapError> {
        let bad = |line: usize, field: &str, value: String, reason: &str| MapError::BadValue {
            line,
            field: field.to_string(),
            value,
            reason: reason.to_string(),
        };
        for (v, f) in [(self.width, "SIZEX"), (self.height, "SIZEY")] {
            if !(3..=MAX_SIDE).contains(&v) {
                return Err(bad(
                    lines.size,
                    f,
                    v.to_string(),
                    &format!("a size from 3 to {MAX_SIDE} (border included)"),
                ));
            }
        }
        if self.turn_limit < 1 {
            return Err(bad(
                lines.turn,
                "TURNLIMIT",
                self.turn_limit.to_string(),
                "at least 1 side-turn",
            ));
        }
        if self.terrain.len() != self.width * self.height {
            return Err(MapError::Invalid {
                line: lines.rows.first().copied().unwrap_or(lines.size),
                field: "MAP".into(),
                reason: format!(
                    "{} terrain cells for a {}x{} map",
                    self.terrain.len(),
                    self.width,
                    self.height
                ),
            });
        }
        for y in 0..self.height {
            for x in 0..self.width {
                let border = x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height;
                let t = self.terrain[y * self.width + x];
                if border && t != Terrain::NoEntry {
                    return Err(bad(
                        lines.rows.get(y).copied().unwrap_or(0),
                        &format!("MAP row {y} column {x}"),
                        t.code().to_string(),
                        "0: the border ring is no-entry",
                    ));
                }
            }
        }
        if self.units.len() > MAX_UNITS {
            return Err(MapError::Invalid {
                line: lines.units.get(MAX_UNITS).copied().unwrap_or(0),
                field: "UNIT".into(),
                reason: format!(
                    "{} units; at most {MAX_UNITS} are supported",
                    self.units.len()
                ),
            });
        }
        for (i, u) in self.units.iter().enumerate() {
            let line = lines.units.get(i).copied().unwrap_or(0);
            let field = format!("UNIT #{i}");
            let (x, y) = (u.x as usize, u.y as usize);
            if x == 0 || y == 0 || x + 1 >= self.width || y + 1 >= self.height {
                return Err(bad(
                    line,
                    &format!("{field} position"),
                    format!("{x},{y}"),
                    &format!(
                        "x in 1..={} and y in 1..={} (inside the border)",
                        self.width - 2,
                        self.height - 2
                    ),
                ));
            }
            if u.team > 1 {
                return Err(bad(
                    line,
                    &format!("{field} team"),
                    u.team.to_string(),
                    "0 (red) or 1 (blue)",
                ));
            }
            if !(1..=10).contains(&u.hp) {
                return Err(bad(
                    line,
                    &format!("{field} hp"),
                    u.hp.to_string(),
                    "HP from 1 to 10",
                ));
            }
            if let Some(j) = self.units[..i]
                .iter()
                .position(|v| v.x == u.x && v.y == u.y)
            {
                return Err(MapError::Invalid {
                    line,
                    field,
                    reason: format!("cell {x},{y} already holds unit #{j}"),
                });
            }
        }
        for (team, declared, name) in [
            (0u8, self.declared_red, "UNITNUMRED"),
            (1u8, self.declared_blue, "UNITNUMBLUE"),
        ] {
            let actual = self.team_units(team).count();
            if actual == 0 {
                return Err(MapError::Invalid {
                    line: lines.counts,
                    field: name.into(),
                    reason: format!(
                        "the {} team has no units",
                        if team == 0 { "red" } else { "blue" }
                    ),
                });
            }
            if actual as u32 > declared {
                return Err(MapError::Invalid {
                    line: lines.counts,
                    field: name.into(),
                    reason: format!(
                        "declares {declared} units but the map places {actual} (the platform cannot load more units than declared)"
                    ),
                });
            }
        }
        Ok(())
    }
}

impl FromStr for TbsMap {
    type Err = MapError;
    fn from_str(s: &str) -> Result<Self, MapError> {
        parse(s)
    }
}

impl fmt::Display for TbsMap {
    /// Writes the map in the platform's usual layout; [`TbsMap::parse`] reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "SIZEX[{}];SIZEY[{}];", self.width, self.height)?;
        writeln!(
            f,
            "TURNLIMIT[{}];HPTHRESHOLD[{}];",
            self.turn_limit, self.hp_threshold
        )?;
        writeln!(
            f,
            "UNITNUMRED[{}];UNITNUMBLUE[{}];",
            self.declared_red, self.declared_blue
        )?;
        if let Some(a) = &self.author {
            writeln!(f, "AUTHOR[{}];", clean_text(a))?;
        }
        if let Some(c) = &self.comment {
            writeln!(f, "MAPCOM[{}];", clean_text(c))?;
        }
        for u in &self.units {
            writeln!(
                f,
                "UNIT[{},{},{},{},{},{}];",
                u.x,
                u.y,
                u.kind.file_name(),
                u.team,
                u.hp,
                u.finished as u8
            )?;
        }
        for y in 0..self.height {
            f.write_str("MAP[")?;
            for x in 0..self.width {
                if x > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}", self.terrain[y * self.width + x].code())?;
            }
            writeln!(f, "];")?;
        }
        Ok(())
    }
}

/// Free text cannot hold the entry delimiters.
fn clean_text(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            ']' | ';' | '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}

/// One `NAME[value]` entry with the line it starts on.
struct Entry<'a> {
    line: usize,
    name: &'a str,
    value: String,
}

fn entries(text: &str) -> Result<Vec<Entry<'_>>, MapError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line = 1;
    let skip_ws = |i: &mut usize, line: &mut usize| {
        while *i < bytes.len() && (bytes[*i] as char).is_ascii_whitespace() {
            if bytes[*i] == b'\n' {
                *line += 1;
            }
            *i += 1;
        }
    };
    loop {
        skip_ws(&mut i, &mut line);
        if i >= bytes.len() {
            break;
        }
        if bytes[i] == b';' {
            // Empty entry (";;"): the platform ignores it.
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
            i += 1;
        }
        let name = &text[start..i];
        if name.is_empty() {
            let ch = text[i..].chars().next().unwrap_or(' ');
            return Err(MapError::Syntax {
                line,
                reason: format!("unexpected {ch:?} where a field name should start"),
            });
        }
        let name_line = line;
        skip_ws(&mut i, &mut line);
        if i >= bytes.len() || bytes[i] != b'[' {
            return Err(MapError::Syntax {
                line,
                reason: format!("field {name} has no '[' after its name"),
            });
        }
        i += 1;
        let vstart = i;
        while i < bytes.len() && bytes[i] != b']' {
            if bytes[i] == b';' {
                return Err(MapError::Syntax {
                    line,
                    reason: format!("field {name}: ';' before the closing ']'"),
                });
            }
            if bytes[i] == b'\n' {
                line += 1;
            }
            i += 1;
        }
        if i >= bytes.len() {
            return Err(MapError::Syntax {
                line: name_line,
                reason: format!("field {name}: no closing ']'"),
            });
        }
        // The platform joins lines before splitting: line breaks inside a value vanish.
        let value: String = text[vstart..i]
            .chars()
            .filter(|&c| c != '\n' && c != '\r')
            .collect();
        i += 1;
        skip_ws(&mut i, &mut line);
        if i < bytes.len() {
            if bytes[i] != b';' {
                return Err(MapError::Syntax {
                    line,
                    reason: format!("field {name}: expected ';' after ']'"),
                });
            }
            i += 1;
        }
        out.push(Entry {
            line: name_line,
            name,
            value,
        });
    }
    Ok(out)
}

fn int<T: FromStr>(e: &Entry<'_>, field: &str, text: &str, reason: &str) -> Result<T, MapError> {
    text.trim().parse().map_err(|_| MapError::BadValue {
        line: e.line,
        field: field.to_string(),
        value: text.trim().to_string(),
        reason: reason.to_string(),
    })
}

fn parse(text: &str) -> Result<TbsMap, MapError> {
    let entries = entries(text)?;
    let mut scalars: [Option<(usize, i64)>; 6] = [None; 6];
    const SCALARS: [&str; 6] = [
        "SIZEX",
        "SIZEY",
        "TURNLIMIT",
        "HPTHRESHOLD",
        "UNITNUMRED",
        "UNITNUMBLUE",
    ];
    let mut author: Option<(usize, String)> = None;
    let mut comment: Option<(usize, String)> = None;
    let mut rows: Vec<(usize, Vec<Terrain>)> = Vec::new();
    let mut units: Vec<(usize, UnitPlacement)> = Vec::new();
    for e in &entries {
        if let Some(k) = SCALARS.iter().position(|&s| s == e.name) {
            let field = SCALARS[k];
            if let Some((first, _)) = scalars[k] {
                return Err(MapError::Duplicate {
                    line: e.line,
                    field,
                    first,
                });
            }
            let v: i64 = int(e, field, &e.value, "an integer")?;
            let ok = match k {
                3 => (-1000..=1000).contains(&v),
                2 => (1..=100_000).contains(&v),
                _ => (0..=1000).contains(&v),
            };
            if !ok {
                return Err(MapError::BadValue {
                    line: e.line,
                    field: field.into(),
                    value: e.value.trim().into(),
                    reason: match k {
                        2 => "a turn limit from 1 to 100000",
                        3 => "a threshold from -1000 to 1000",
                        _ => "a non-negative integer up to 1000",
                    }
                    .into(),
                });
            }
            scalars[k] = Some((e.line, v));
            continue;
        }
        match e.name {
            "AUTHOR" | "MAPCOM" => {
                let slot = if e.name == "AUTHOR" {
                    &mut author
                } else {
                    &mut comment
                };
                if let Some((first, _)) = slot {
                    return Err(MapError::Duplicate {
                        line: e.line,
                        field: if e.name == "AUTHOR" {
                            "AUTHOR"
                        } else {
                            "MAPCOM"
                        },
                        first: *first,
                    });
                }
                *slot = Some((e.line, e.value.clone()));
            }
            "MAP" => {
                let y = rows.len();
                let mut row = Vec::new();
                for (x, c) in e.value.split(',').enumerate() {
                    let field = format!("MAP row {y} column {x}");
                    let code: u32 = int(e, &field, c, "a terrain code 0..6")?;
                    let t = Terrain::from_code(code).ok_or_else(|| MapError::BadValue {
                        line: e.line,
                        field,
                        value: c.trim().into(),
                        reason: "a terrain code 0..6 (0 no entry, 1 plain, 2 sea, 3 forest, 4 mountain, 5 road, 6 fortress)".into(),
                    })?;
                    row.push(t);
                }
                rows.push((e.line, row));
            }
            "UNIT" => {
                let id = units.len();
                let parts: Vec<&str> = e.value.split(',').collect();
                if parts.len() != 6 {
                    return Err(MapError::BadValue {
                        line: e.line,
                        field: format!("UNIT #{id}"),
                        value: e.value.clone(),
                        reason: format!(
                            "6 comma-separated values x,y,type,team,hp,finished (found {})",
                            parts.len()
                        ),
                    });
                }
                let f = |what: &str| format!("UNIT #{id} {what}");
                let x: u8 = int(e, &f("x"), parts[0], "a column number")?;
                let y: u8 = int(e, &f("y"), parts[1], "a row number")?;
                let kind = UnitKind::from_file_name(parts[2].trim()).ok_or_else(|| {
                    MapError::BadValue {
                        line: e.line,
                        field: f("type"),
                        value: parts[2].trim().into(),
                        reason: "one of fighter, attacker, panzer, cannon, antiair, infantry"
                            .into(),
                    }
                })?;
                let team: u8 = int(e, &f("team"), parts[3], "0 (red) or 1 (blue)")?;
                let hp: u8 = int(e, &f("hp"), parts[4], "HP from 1 to 10")?;
                let fin: u8 = int(e, &f("finished"), parts[5], "0 or 1")?;
                if fin > 1 {
                    return Err(MapError::BadValue {
                        line: e.line,
                        field: f("finished"),
                        value: parts[5].trim().into(),
                        reason: "0 (may act) or 1 (finished: sits out its side's first turn)"
                            .into(),
                    });
                }
                units.push((
                    e.line,
                    UnitPlacement {
                        x,
                        y,
                        kind,
                        team,
                        hp,
                        finished: fin == 1,
                    },
                ));
            }
            other => {
                return Err(MapError::UnknownField {
                    line: e.line,
                    field: other.to_string(),
                })
            }
        }
    }
    let get = |k: usize| scalars[k].ok_or(MapError::Missing { field: SCALARS[k] });
    let (size_line, w) = get(0)?;
    let (_, h) = get(1)?;
    let (turn_line, turn_limit) = get(2)?;
    let (_, threshold) = get(3)?;
    let (counts_line, red) = get(4)?;
    let (_, blue) = get(5)?;
    let (w, h) = (w as usize, h as usize);
    for (v, field) in [(w, "SIZEX"), (h, "SIZEY")] {
        if !(3..=MAX_SIDE).contains(&v) {
            return Err(MapError::BadValue {
                line: size_line,
                field: field.into(),
                value: v.to_string(),
                reason: format!("a size from 3 to {MAX_SIDE} (border included)"),
            });
        }
    }
    if rows.is_empty() {
        return Err(MapError::Missing { field: "MAP" });
    }
    if units.is_empty() {
        return Err(MapError::Missing { field: "UNIT" });
    }
    if rows.len() != h {
        let line = rows.get(h).map_or(rows[rows.len() - 1].0, |r| r.0);
        return Err(MapError::Invalid {
            line,
            field: "MAP".into(),
            reason: format!("{} MAP rows for SIZEY[{h}]", rows.len()),
        });
    }
    let mut terrain = Vec::with_capacity(w * h);
    for (y, (line, row)) in rows.iter().enumerate() {
        if row.len() != w {
            return Err(MapError::Invalid {
                line: *line,
                field: format!("MAP row {y}"),
                reason: format!("{} cells for SIZEX[{w}]", row.len()),
            });
        }
        terrain.extend_from_slice(row);
    }
    let map = TbsMap {
        width: w,
        height: h,
        turn_limit: turn_limit as u32,
        hp_threshold: threshold as i32,
        declared_red: red as u32,
        declared_blue: blue as u32,
        author: author.map(|a| a.1),
        comment: comment.map(|c| c.1),
        terrain,
        units: units.iter().map(|u| u.1).collect(),
    };
    let lines = Lines {
        size: size_line,
        turn: turn_line,
        counts: counts_line,
        rows: rows.iter().map(|r| r.0).collect(),
        units: units.iter().map(|u| u.0).collect(),
    };
    map.validate_with(&lines)?;
    Ok(map)
}

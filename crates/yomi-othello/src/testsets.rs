//! The paper's test sets: positions after S moves (S = 20, 30, 40, 50) where at least one
//! legal move wins and at least one loses, every legal move labelled with its final disc
//! difference.
//!
//! **Generation** ([`generate`]): games from the start, the first `random_plies` moves
//! uniformly random, then each side plays the move the pattern evaluation prefers (one
//! ply), or with probability `epsilon` a random move, until S moves are on the board
//! (games that end or reach a position without two legal moves are dropped, as are
//! repeated positions). **Labels**: with at most `exact_empties` empty squares every move is
//! solved exactly ([`Solver::move_scores`]); with at most `wld_empties` each move's win,
//! draw or loss is solved exactly (written +1 / 0 / -1); otherwise each move's value is the
//! minimax value of the move `search_depth` plies deep with the pattern evaluation at the
//! horizon and finished games scored exactly ([`Midgame::move_values`]; in discs, rounded),
//! which tells win or loss only as well as that search does. (Sets made before
//! 2026-11-29 were labelled by core's generic alpha-beta, to the same depth with the same
//! evaluation, but scoring a finished game ±64 by its winner, a move that ends the game
//! +64 whoever wins, and letting deeper table entries stand in for shallower ones: their
//! values can differ from today's by that.) Each line says which kind it has. Candidate i uses seed `derive_seed(seed, i)`, so the result does
//! not depend on the number of threads.
//!
//! **Relabelling** ([`relabel`]): the same positions labelled again under other settings
//! (deeper searches, exact solving from more empties), and
//! [`agreement`] says how two labellings of one set agree (`yomi othello relabel`).
//!
//! **Format** (one position a line, `#` comments): the board string and the side to move,
//! the label kind (`exact`, `wld` or `search<depth>`), then each legal move in the paper's
//! notation with its value **for the side to move** (the first player's value when black
//! is to move, as in the paper's positions):
//!
//! ```text
//! ---------------------------OX------XO--------------------------- X; exact; (c,4),-2, (d,3),4
//! ```

use std::collections::HashSet;
use std::fmt::Write;
use std::sync::atomic::{AtomicUsize, Ordering};

use thiserror::Error;
use yomi_core::rng::derive_seed;
use yomi_core::Rng;

use crate::eval::PatternEval;
use crate::midgame::Midgame;
use crate::solver::Solver;
use crate::{Move, OthelloState};

/// The midgame search's table per labelling thread: 2^20 entries, 32 MiB.
const MIDGAME_TABLE_BITS: u32 = 20;

/// How a position's move values were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabelKind {
    /// Exact final disc differences from the endgame solver.
    Exact,
    /// Exact win / draw / loss from the endgame solver (null-window solves), written as
    /// +1 / 0 / -1: the sign is exact, the size is not a disc count.
    Wld,
    /// Alpha-beta with the pattern evaluation to this many plies after each move.
    Search(u32),
}

impl std::fmt::Display for LabelKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LabelKind::Exact => write!(f, "exact"),
            LabelKind::Wld => write!(f, "wld"),
            LabelKind::Search(d) => write!(f, "search{d}"),
        }
    }
}

/// A test position with every legal move's value.
#[derive(Clone, Debug, PartialEq)]
pub struct LabelledPosition {
    /// The position.
    pub state: OthelloState,
    /// Where the values come from.
    pub kind: LabelKind,
    /// Every legal move with its final disc difference for the side to move, best first.
    pub moves: Vec<(Move, i32)>,
}

impl LabelledPosition {
    /// The value of `mv`, if it is listed.
    pub fn value(&self, mv: Move) -> Option<i32> {
        self.moves.iter().find(|m| m.0 == mv).map(|m| m.1)
    }

    /// Whether some move wins and some move loses.
    pub fn is_critical(&self) -> bool {
        self.moves.iter().any(|m| m.1 > 0) && self.moves.iter().any(|m| m.1 < 0)
    }

    /// The line format of the [module docs](self).
    pub fn to_line(&self) -> String {
        let mut s = format!("{}; {}; ", self.state.to_board_string(), self.kind);
        for (i, (mv, v)) in self.moves.iter().enumerate() {
            let name = mv.to_string();
            let b = name.as_bytes();
            if i > 0 {
                s.push_str(", ");
            }
            let _ = write!(s, "({},{}),{v}", b[0] as char, b[1] as char);
        }
        s
    }
}

/// Why a test-set file could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("test set line {line}: {message}")]
pub struct TestSetError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads one line (without comments) of the format in the [module docs](self).
///
/// # Errors
/// A message for a malformed board, label kind, move or value, or a move that is not legal.
pub fn parse_line(line: &str) -> Result<LabelledPosition, String> {
    let mut parts = line.splitn(3, ';');
    let board = parts.next().unwrap_or("").trim();
    let state: OthelloState = board.parse().map_err(|e| format!("{e}"))?;
    let kind = match parts.next().map(str::trim) {
        Some("exact") => LabelKind::Exact,
        Some("wld") => LabelKind::Wld,
        Some(k) if k.starts_with("search") => LabelKind::Search(
            k["search".len()..]
                .parse()
                .map_err(|_| format!("label kind {k:?}: expected exact, wld or search<depth>"))?,
        ),
        Some(k) => {
            return Err(format!(
                "label kind {k:?}: expected exact, wld or search<depth>"
            ))
        }
        None => return Err("missing label kind after the board".into()),
    };
    let rest = parts
        .next()
        .ok_or("missing move values after the label kind")?
        .trim();
    let mut moves = Vec::new();
    let legal = state.legal();
    let mut text = rest;
    while !text.is_empty() {
        let t = text
            .strip_prefix('(')
            .ok_or_else(|| format!("expected '(' at {text:?}"))?;
        let close = t.find(')').ok_or("unclosed '('")?;
        let (col, row) = t[..close]
            .split_once(',')
            .ok_or_else(|| format!("move {:?}: expected (column,row)", &t[..close]))?;
        let mv: Move = format!("{}{}", col.trim(), row.trim())
            .parse()
            .map_err(|e| format!("{e}"))?;
        match mv.index() {
            Some(sq) if legal >> sq & 1 == 1 => {}
            _ => return Err(format!("{mv} is not a legal move here")),
        }
        let after = t[close + 1..]
            .strip_prefix(',')
            .ok_or("expected ',' and a value after the move")?;
        let (num, next) = match after.find('(') {
            Some(i) => (&after[..i], &after[i..]),
            None => (after, ""),
        };
        let num = num.trim().trim_end_matches(',').trim();
        let v: i32 = num
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= 64)
            .ok_or_else(|| format!("value {num:?}: expected an integer in -64..=64"))?;
        moves.push((mv, v));
        text = next.trim();
    }
    if moves.is_empty() {
        return Err("no moves listed".into());
    }
    Ok(LabelledPosition { state, kind, moves })
}

/// Reads a test-set file.
///
/// # Errors
/// [`TestSetError`] naming the first bad line.
pub fn parse(text: &str) -> Result<Vec<LabelledPosition>, TestSetError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        out.push(parse_line(line).map_err(|message| TestSetError {
            line: i + 1,
            message,
        })?);
    }
    Ok(out)
}

/// Writes a test-set file: `header` as comments, then one line per position.
pub fn to_text(header: &str, positions: &[LabelledPosition]) -> String {
    let mut out = String::new();
    for l in header.lines() {
        let _ = writeln!(out, "# {l}");
    }
    for p in positions {
        out.push_str(&p.to_line());
        out.push('\n');
    }
    out
}

/// Settings of [`generate`].
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Moves played before the position (S).
    pub stage: u32,
    /// Positions wanted.
    pub count: usize,
    /// Uniformly random moves at the start of each game.
    pub random_plies: u32,
    /// Probability of a random move after those.
    pub epsilon: f64,
    /// Solve exactly at most this many empties.
    pub exact_empties: u32,
    /// Solve win / draw / loss exactly at most this many empties (above `exact_empties`).
    pub wld_empties: u32,
    /// Alpha-beta plies after each move otherwise.
    pub search_depth: u32,
    /// Worker threads.
    pub threads: usize,
    /// Seed.
    pub seed: u64,
}

impl GenConfig {
    /// Defaults for stage `stage`: 300 positions, 4 random plies, ε = 0.1, exact values at
    /// ≤ 14 empties, exact win/draw/loss at ≤ 20, 6-ply searches otherwise, one thread.
    pub fn new(stage: u32) -> Self {
        GenConfig {
            stage,
            count: 300,
            random_plies: 4,
            epsilon: 0.1,
            exact_empties: 14,
            wld_empties: 20,
            search_depth: 6,
            threads: 1,
            seed: 1,
        }
    }
}

/// Plays one noisy self-play game to `cfg.stage` moves; `None` if it ends first.
fn play_to_stage(eval: &PatternEval, cfg: &GenConfig, rng: &mut Rng) -> Option<OthelloState> {
    let mut s = OthelloState::start();
    let mut plies = 0u32;
    while crate::dz::move_number(&s) < cfg.stage {
        if s.is_over() {
            return None;
        }
        let legal = s.legal();
        if legal == 0 {
            s.play_unchecked(Move::PASS);
            continue;
        }
        let random = plies < cfg.random_plies || rng.chance(cfg.epsilon);
        let sq = crate::train::self_play_square(&s, legal, eval, random, rng);
        s.play_unchecked(Move::square(sq as u8).expect("square"));
        plies += 1;
    }
    (s.legal().count_ones() >= 2).then_some(s)
}

/// Labels every legal move of `state` (see the [module docs](self)).
pub fn label(
    state: &OthelloState,
    cfg: &GenConfig,
    solver: &mut Solver,
    search: &mut Midgame,
) -> LabelledPosition {
    let search_depth = cfg.search_depth;
    if state.empty_count() <= cfg.exact_empties {
        return LabelledPosition {
            state: *state,
            kind: LabelKind::Exact,
            moves: solver.move_scores(state),
        };
    }
    let mut list = Vec::new();
    if state.empty_count() <= cfg.wld_empties {
        let mut legal = state.legal();
        while legal != 0 {
            let mv = Move::square(legal.trailing_zeros() as u8).expect("square");
            legal &= legal - 1;
            let mut t = *state;
            t.play_unchecked(mv);
            list.push((mv, -solver.solve_wld(&t).score.signum()));
        }
        list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        return LabelledPosition {
            state: *state,
            kind: LabelKind::Wld,
            moves: list,
        };
    }
    // Each move's value `search_depth` plies deep in all: the move, then `search_depth - 1`.
    let mut list: Vec<(Move, i32)> = search
        .move_values(state, search_depth.max(2))
        .into_iter()
        .map(|(mv, v)| (mv, v.clamp(-64, 64)))
        .collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    LabelledPosition {
        state: *state,
        kind: LabelKind::Search(search_depth),
        moves: list,
    }
}

/// Generates a test set (see the [module docs](self)); `progress` gets a line now and then.
pub fn generate(cfg: &GenConfig, mut progress: impl FnMut(&str)) -> Vec<LabelledPosition> {
    let eval = PatternEval::shipped();
    let threads = cfg.threads.max(1);
    let mut out: Vec<LabelledPosition> = Vec::new();
    let mut seen = HashSet::new();
    let mut next = 0u64;
    let batch = 8 * threads as u64;
    let mut tried = 0usize;
    while out.len() < cfg.count {
        // Candidates next..next+batch, in order.
        let starts: Vec<(u64, OthelloState)> = (next..next + batch)
            .filter_map(|i| {
                let mut rng = Rng::seed_from_u64(derive_seed(cfg.seed, i));
                play_to_stage(&eval, cfg, &mut rng).map(|s| (i, s))
            })
            .filter(|(_, s)| seen.insert((s.black(), s.white(), s.to_move())))
            .collect();
        next += batch;
        tried += starts.len();
        let chunk = starts.len().div_ceil(threads).max(1);
        let labelled: Vec<LabelledPosition> = std::thread::scope(|scope| {
            let handles: Vec<_> = starts
                .chunks(chunk)
                .map(|part| {
                    scope.spawn(move || {
                        let mut solver = Solver::new(20);
                        let mut search = Midgame::new(MIDGAME_TABLE_BITS);
                        part.iter()
                            .map(|(_, s)| label(s, cfg, &mut solver, &mut search))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().expect("labelling thread"))
                .collect()
        });
        for p in labelled {
            if p.is_critical() && out.len() < cfg.count {
                out.push(p);
            }
        }
        progress(&format!(
            "S={}: {} of {} positions kept ({} labelled)",
            cfg.stage,
            out.len(),
            cfg.count,
            tried
        ));
    }
    out
}

/// Labels `positions` again under `cfg` (its `exact_empties`, `wld_empties`,
/// `search_depth` and `threads`; the rest is unused), leaving out the indices in
/// `done`. Each labelled position goes to `finished(index, labelled)` as soon as it is
/// ready, on the calling thread and in the order the positions finish, so that the caller
/// can write it down before the next one comes (an interrupted run then keeps every
/// position it finished). Positions are handed to `cfg.threads` workers one at a time.
/// The searches' values do not depend on what their tables hold ([`Midgame`]), so the
/// labels do not depend on the threads, the order or what was done before.
pub fn relabel(
    positions: &[OthelloState],
    cfg: &GenConfig,
    done: &HashSet<usize>,
    mut finished: impl FnMut(usize, LabelledPosition),
) {
    let todo: Vec<usize> = (0..positions.len()).filter(|i| !done.contains(i)).collect();
    if todo.is_empty() {
        return;
    }
    let next = AtomicUsize::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.clamp(1, todo.len()) {
            let (tx, todo, next) = (tx.clone(), &todo, &next);
            scope.spawn(move || {
                let mut solver = Solver::new(20);
                let mut search = Midgame::new(MIDGAME_TABLE_BITS);
                while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let p = label(&positions[i], cfg, &mut solver, &mut search);
                    if tx.send((i, p)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for (i, p) in rx {
            finished(i, p);
        }
    });
}

/// How two labellings of the same positions agree ([`agreement`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Agreement {
    /// Positions compared.
    pub positions: usize,
    /// Positions where a best move of one labelling is a best move of the other.
    pub best_move: usize,
    /// Moves compared (every legal move of every position).
    pub moves: usize,
    /// Moves whose outcome (win, draw or loss: the sign of the value) is the same in both.
    pub outcome: usize,
    /// Positions with a winning and a losing move (the test sets keep only those) in the
    /// first labelling and in the second.
    pub critical: (usize, usize),
}

impl Agreement {
    /// A markdown table row: positions, best moves agreeing, outcomes agreeing, critical
    /// positions under each labelling (counts with percentages).
    pub fn markdown_row(&self, name: &str) -> String {
        let pct = |n: usize, d: usize| 100.0 * n as f64 / d.max(1) as f64;
        format!(
            "| {name} | {} | {} ({:.1} %) | {} of {} ({:.1} %) | {} | {} |",
            self.positions,
            self.best_move,
            pct(self.best_move, self.positions),
            self.outcome,
            self.moves,
            pct(self.outcome, self.moves),
            self.critical.0,
            self.critical.1,
        )
    }
}

/// How the labels of `a` and `b`, two labellings of the same positions in the same order
/// (say a test set and its [`relabel`]ling), agree: the best moves, the outcome of every
/// move, and which positions stay critical.
///
/// # Errors
/// A message when the two lists differ in length, position or legal moves.
pub fn agreement(a: &[LabelledPosition], b: &[LabelledPosition]) -> Result<Agreement, String> {
    if a.len() != b.len() {
        return Err(format!(
            "the labellings have {} and {} positions",
            a.len(),
            b.len()
        ));
    }
    let mut out = Agreement::default();
    for (i, (p, q)) in a.iter().zip(b).enumerate() {
        if p.state != q.state || p.moves.len() != q.moves.len() {
            return Err(format!(
                "position {} differs between the labellings (board or legal moves)",
                i + 1
            ));
        }
        out.positions += 1;
        let best = |l: &LabelledPosition| l.moves.iter().map(|m| m.1).max().unwrap_or(0);
        let (bp, bq) = (best(p), best(q));
        if p.moves
            .iter()
            .any(|&(mv, v)| v == bp && q.value(mv) == Some(bq))
        {
            out.best_move += 1;
        }
        for &(mv, v) in &p.moves {
            let w = q
                .value(mv)
                .ok_or_else(|| format!("position {}: {mv} is in one labelling only", i + 1))?;
            out.moves += 1;
            if v.signum() == w.signum() {
                out.outcome += 1;
            }
        }
        out.critical.0 += usize::from(p.is_critical());
        out.critical.1 += usize::from(q.is_critical());
    }
    Ok(out)
}

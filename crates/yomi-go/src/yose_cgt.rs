//! Exact combinatorial-game values of yose regions ([`yomi_cgt`]) and a cross-check of a
//! proven suite ([`crate::yose`]) against them.
//!
//! # The region game
//! A position is the board with the region's points as they stand; every stone outside the
//! region stays fixed (in a suite problem it is unconditionally alive). Left is Black and
//! Right is White, and, as combinatorial game theory wants, either colour may move whatever
//! the side to move: Black's options are the points of the region where a black stone is
//! legal (by the board's rules: no suicide unless the rules allow it), White's likewise.
//!
//! # Scoring: territory counting, so that games end in numbers
//! Values are counted the Japanese way (Berlekamp–Wolfe): Black's territory in the region
//! (empty region points reaching only black stones) plus the white stones Black captured
//! in the region, minus the same for White. Stones on the board count nothing. With this
//! count a move inside one's own settled territory costs exactly one point (the point
//! stops being territory), so such moves are options that never help, a settled position
//! is worth its count (`{n − 1 | } = n`), a neutral point (dame) is `*`, and every game
//! ends in a number. Area counting (the suite's) would make filling one's own territory
//! free, and a free move is a tempo worth a point in a sum of games: a one-point black
//! territory would be `{1 | } = 2` instead of 1. A position where neither colour has a
//! legal move is the integer count. Eyes in seki count as territory here (Japanese rules
//! would not count them).
//!
//! Area and territory counts differ only by the stones each side has placed: over the
//! region (empty at the start) Black's area minus White's equals the territory count plus
//! (black stones played − white stones played). Heating by one (`∫¹ G`, each move earns
//! its player one point while the game is hot) is the combinatorial form of that tax, so
//! the cross-check also reports the heated value's stops beside the plain ones.
//!
//! # Ko
//! Combinatorial games must not loop, and Go's ko rule is not local. Here a single-stone
//! capture that could be recaptured at once (Go's simple ko) bans the recapture as the
//! *next move in the region*: the colour just captured may not play the ko point until
//! some other move is made in the region (by either colour). Longer loops (double ko,
//! sending two returning one) are not banned; the position key counts each side's
//! captures, so a loop shows as a line that never ends, and a line longer than
//! `4·|R| + 8` moves stops the computation with [`RegionCgtError::LineTooLong`]: the
//! region is reported as holding a ko (or another capture loop) and has no value here.
//!
//! # Bounds
//! At most [`MAX_REGION_POINTS`] points (the key packs two bits a point), at most
//! `max_positions` distinct positions, and the canonical forms built under
//! [`yomi_cgt::with_work_limit`]: a big region gives an error, never a hang.

use std::collections::HashMap;
use std::fmt::Write as _;

use yomi_cgt::build::Local;
use yomi_cgt::{with_work_limit, Cgt, Dyadic, WorkLimitExceeded};

use crate::board::{Board, MAX_AREA};
use crate::error::YoseError;
use crate::vertex::{Color, Vertex};
use crate::yose::Problem;

/// The most points a region may have (two bits a point in a `u64` key).
pub const MAX_REGION_POINTS: usize = 32;

/// Limits of one region's computation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CgtLimits {
    /// Distinct positions (region colourings with ko bans and capture counts) expanded.
    pub max_positions: usize,
    /// Steps of combinatorial work ([`yomi_cgt::with_work_limit`]).
    pub work: u64,
}

impl Default for CgtLimits {
    /// 500 000 positions and 50 million steps of work. The shipped regions (3–10 points)
    /// that have a value need at most 107 892 positions.
    fn default() -> Self {
        CgtLimits {
            max_positions: 500_000,
            work: 50_000_000,
        }
    }
}

/// Why a region has no value here.
#[derive(Debug, thiserror::Error)]
pub enum RegionCgtError {
    /// The region has more points than [`MAX_REGION_POINTS`].
    #[error("the region has {points} points; at most {MAX_REGION_POINTS} are supported")]
    TooLarge {
        /// The region's points.
        points: usize,
    },
    /// A region point is off the board, repeated, or not empty at the start.
    #[error("region point {point}: {reason}")]
    BadPoint {
        /// The point (GTP).
        point: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A move in the region captured stones outside it: the outside is not settled.
    #[error("a move at {point} captures stones outside the region: the outside is not settled")]
    OutsideCaptured {
        /// The move (GTP).
        point: String,
    },
    /// A line of play grew past the ply limit: a ko or capture loop the local ko rule
    /// does not end.
    #[error("a line of play in the region ran past {plies} moves, so the region is not a short game: {line}")]
    LineTooLong {
        /// The ply limit.
        plies: usize,
        /// The loop found on the line (`B C3 W D4 ...`; moves of one colour may follow
        /// each other), or the line's first moves when no position repeats on it.
        line: String,
    },
    /// More positions than the limit.
    #[error("the region has more than {limit} positions")]
    TooManyPositions {
        /// The limit.
        limit: usize,
    },
    /// The canonical forms needed more work than the limit.
    #[error("{0}")]
    Work(#[from] WorkLimitExceeded),
    /// The problem's stones do not form a legal position.
    #[error("{0}")]
    Position(#[from] YoseError),
}

/// A region's value and the value after each move of each colour.
#[derive(Clone, Debug, PartialEq)]
pub struct RegionValue {
    /// The region's canonical value (Black's territory count, Left = Black).
    pub value: Cgt,
    /// Each legal black move (region points, board order) and the value after it.
    pub black: Vec<(Vertex, Cgt)>,
    /// Each legal white move and the value after it.
    pub white: Vec<(Vertex, Cgt)>,
    /// Distinct positions expanded.
    pub positions: usize,
}

/// A position of the region game. The colours of the region's points (two bits each: 0
/// empty, 1 black, 2 white), the simple-ko ban (`ko_point` is 1 + the region index of the
/// point that `ko_colour` may not play next, 0 for none) and the stones each colour has
/// captured in the region. The capture counts make the key grow along every line (each
/// move adds a stone or a capture), so the game graph has no cycles and a line's length is
/// its key's `stones + captures`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    colours: u64,
    ko_point: u8,
    ko_colour: u8,
    captured_by_black: u16,
    captured_by_white: u16,
}

/// What a search over the region needs: the board with the region empty, the region's
/// board indices, the rules.
struct Region<'a> {
    base: &'a Board,
    points: Vec<usize>,
    suicide: bool,
    /// Stones outside the region (both colours), which no move may capture.
    outside_stones: usize,
}

fn colour_code(c: Option<Color>) -> u64 {
    match c {
        None => 0,
        Some(Color::Black) => 1,
        Some(Color::White) => 2,
    }
}

fn code_colour(k: u64) -> Option<Color> {
    match k {
        1 => Some(Color::Black),
        2 => Some(Color::White),
        _ => None,
    }
}

impl Region<'_> {
    /// The board of `key`.
    fn board(&self, key: &Key) -> Board {
        let mut b = self.base.clone();
        for (i, &p) in self.points.iter().enumerate() {
            b.set_raw(p, (key.colours >> (2 * i) & 3) as u8);
        }
        b.rebuild();
        b.set_to_move(Color::Black);
        b
    }

    fn colours_of(&self, b: &Board) -> u64 {
        self.points
            .iter()
            .enumerate()
            .fold(0, |k, (i, &p)| k | colour_code(b.stone(p)) << (2 * i))
    }

    fn count(&self, colours: u64, c: Color) -> u16 {
        let code = colour_code(Some(c));
        (0..self.points.len())
            .filter(|i| colours >> (2 * i) & 3 == code)
            .count() as u16
    }

    /// The position after `c` plays the region point `i` of `board` (the board of `key`),
    /// or `None` when the move is illegal or banned by ko.
    fn after(
        &self,
        key: &Key,
        board: &Board,
        i: usize,
        c: Color,
    ) -> Option<Result<Key, RegionCgtError>> {
        let p = self.points[i];
        if key.ko_point as usize == i + 1 && code_colour(key.ko_colour.into()) == Some(c) {
            return None;
        }
        if !board.is_legal(p, c, self.suicide) {
            return None;
        }
        let mut b = board.clone();
        b.set_to_move(c);
        b.play(p);
        let colours = self.colours_of(&b);
        let region_stones =
            self.count(colours, Color::Black) as usize + self.count(colours, Color::White) as usize;
        if b.stones(Color::Black) + b.stones(Color::White) != self.outside_stones + region_stones {
            return Some(Err(RegionCgtError::OutsideCaptured {
                point: Vertex::from_index(p).to_gtp(board.size()),
            }));
        }
        let o = c.opponent();
        // Stones of each colour lost in the region by this move (the opponent's captured,
        // or, under suicide rules, the mover's own chain).
        let lost = |col: Color, before: u64| {
            let added = u16::from(col == c);
            (self.count(before, col) + added).saturating_sub(self.count(colours, col))
        };
        let lost_black = lost(Color::Black, key.colours);
        let lost_white = lost(Color::White, key.colours);
        let (ko_point, ko_colour) = match b.ko() {
            Some(k) => match self.points.iter().position(|&q| q == k) {
                Some(j) => ((j + 1) as u8, colour_code(Some(o)) as u8),
                None => (0, 0),
            },
            None => (0, 0),
        };
        Some(Ok(Key {
            colours,
            ko_point,
            ko_colour,
            captured_by_black: key.captured_by_black + lost_white,
            captured_by_white: key.captured_by_white + lost_black,
        }))
    }

    /// Black's territory count of the region in `board` plus the capture balance of `key`.
    fn count_of(&self, key: &Key, board: &Board) -> i64 {
        let mut own = [0u8; MAX_AREA];
        board.owners(&mut own);
        let territory: i64 = self
            .points
            .iter()
            .filter(|&&p| board.stone(p).is_none())
            .map(|&p| match own[p] {
                1 => 1,
                2 => -1,
                _ => 0,
            })
            .sum();
        territory + i64::from(key.captured_by_black) - i64::from(key.captured_by_white)
    }
}

/// The value of the region `region` of `board` (whose points must all be empty), Left =
/// Black, territory counting (see the module docs), and the value after each legal move.
///
/// # Errors
/// [`RegionCgtError`]: a region too large or not empty, a move that captures outside
/// stones, a ko or capture loop ([`RegionCgtError::LineTooLong`]), a limit reached.
pub fn region_value(
    board: &Board,
    region: &[Vertex],
    suicide: bool,
    limits: CgtLimits,
) -> Result<RegionValue, RegionCgtError> {
    if region.len() > MAX_REGION_POINTS {
        return Err(RegionCgtError::TooLarge {
            points: region.len(),
        });
    }
    let n = board.size();
    let mut points = Vec::with_capacity(region.len());
    for v in region {
        let bad = |reason| RegionCgtError::BadPoint {
            point: v.to_gtp(n),
            reason,
        };
        if v.is_pass() || !board.on_board(v.index()) {
            return Err(bad("not a point of the board"));
        }
        if board.stone(v.index()).is_some() {
            return Err(bad("holds a stone"));
        }
        if points.contains(&v.index()) {
            return Err(bad("listed twice"));
        }
        points.push(v.index());
    }
    let plies = 4 * points.len() + 8;
    let r = Region {
        base: board,
        outside_stones: board.stones(Color::Black) + board.stones(Color::White),
        points,
        suicide,
    };
    let root = Key {
        colours: 0,
        ko_point: 0,
        ko_colour: 0,
        captured_by_black: 0,
        captured_by_white: 0,
    };
    // The first error met while expanding; after it every position is a 0 so that the
    // search unwinds at once.
    let mut failure: Option<RegionCgtError> = None;
    let mut expanded = 0usize;
    // The first parent found of each position, to name a line that runs too long.
    let mut parents: HashMap<Key, (Key, Vertex, Color)> = HashMap::new();
    // The root's black and white moves with the positions they lead to.
    let mut root_moves: [Vec<(Vertex, Key)>; 2] = [Vec::new(), Vec::new()];
    let values = with_work_limit(limits.work, || {
        Cgt::position_values(&root, |key: &Key| {
            if failure.is_some() {
                return Local::Number(Dyadic::ZERO);
            }
            expanded += 1;
            if expanded > limits.max_positions {
                failure = Some(RegionCgtError::TooManyPositions {
                    limit: limits.max_positions,
                });
                return Local::Number(Dyadic::ZERO);
            }
            let stones = r.count(key.colours, Color::Black) + r.count(key.colours, Color::White);
            let line = usize::from(stones + key.captured_by_black + key.captured_by_white);
            if line > plies {
                failure = Some(RegionCgtError::LineTooLong {
                    plies,
                    line: describe_loop(&parents, key, n),
                });
                return Local::Number(Dyadic::ZERO);
            }
            let b = r.board(key);
            let mut moves = [Vec::new(), Vec::new()];
            for (side, c) in [Color::Black, Color::White].into_iter().enumerate() {
                for i in 0..r.points.len() {
                    match r.after(key, &b, i, c) {
                        Some(Ok(k)) => {
                            parents
                                .entry(k)
                                .or_insert((*key, Vertex::from_index(r.points[i]), c));
                            moves[side].push((i, k));
                        }
                        Some(Err(e)) => {
                            failure = Some(e);
                            return Local::Number(Dyadic::ZERO);
                        }
                        None => {}
                    }
                }
            }
            if *key == root {
                let named = |m: &Vec<(usize, Key)>| {
                    m.iter()
                        .map(|&(i, k)| (Vertex::from_index(r.points[i]), k))
                        .collect()
                };
                root_moves = [named(&moves[0]), named(&moves[1])];
            }
            if moves[0].is_empty() && moves[1].is_empty() {
                return Local::Number(Dyadic::integer(r.count_of(key, &b)));
            }
            let [left, right] = moves.map(|m| m.into_iter().map(|(_, k)| k).collect());
            Local::Moves { left, right }
        })
    })?;
    if let Some(e) = failure {
        return Err(e);
    }
    // Keys grow along every line, so a cycle cannot happen; an error here would be a bug
    // in the key, reported as a loop rather than a panic.
    let values = values.map_err(|_| RegionCgtError::LineTooLong {
        plies,
        line: "(a cycle)".into(),
    })?;
    let value_of = |moves: &[(Vertex, Key)]| moves.iter().map(|(v, k)| (*v, values[k])).collect();
    Ok(RegionValue {
        value: values[&root],
        black: value_of(&root_moves[0]),
        white: value_of(&root_moves[1]),
        positions: expanded,
    })
}

/// Names the loop on the line to `key` (the first parents recorded): the moves up to the
/// first region colouring that comes back, and the moves that bring it back.
fn describe_loop(parents: &HashMap<Key, (Key, Vertex, Color)>, key: &Key, size: usize) -> String {
    let mut keys = vec![*key];
    let mut moves = Vec::new();
    let mut k = *key;
    while let Some(&(parent, mv, c)) = parents.get(&k) {
        moves.push(format!("{} {}", c.letter(), mv.to_gtp(size)));
        keys.push(parent);
        k = parent;
    }
    keys.reverse();
    moves.reverse();
    // keys[i] is the position after moves[..i].
    for j in 1..keys.len() {
        if let Some(i) = (0..j).find(|&i| keys[i].colours == keys[j].colours) {
            let (a, b) = (keys[i], keys[j]);
            return format!(
                "after `{}` the moves `{}` bring the region's stones back, Black having captured {} and White {} stones more (a ko or a 'sending two, returning one' loop)",
                moves[..i].join(" "),
                moves[i..j].join(" "),
                b.captured_by_black - a.captured_by_black,
                b.captured_by_white - a.captured_by_white,
            );
        }
    }
    let shown = moves.len().min(24);
    format!("the line begins `{}`", moves[..shown].join(" "))
}

/// Black's settled area outside the region: stones plus the empty points that reach only
/// one colour (Tromp-Taylor), minus White's, the region's points left out.
pub fn outside_area(board: &Board, region: &[Vertex]) -> i32 {
    let mut own = [0u8; MAX_AREA];
    board.owners(&mut own);
    let n = board.size();
    let mut s = 0;
    for y in 0..n {
        for x in 0..n {
            let p = board.index(x, y);
            if region.iter().any(|v| v.index() == p) {
                continue;
            }
            s += match own[p] {
                1 => 1,
                2 => -1,
                _ => 0,
            };
        }
    }
    s
}

/// One candidate of a problem: the suite's value and what the region's value says.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateCheck {
    /// The move (a region point or the pass).
    pub mv: Vertex,
    /// The suite's exact value (mover's area minus the opponent's, before komi).
    pub suite: i32,
    /// The opponent's stop of the position after the move (for the pass: of the region
    /// itself), plus the settled area outside, from the mover's side: territory counting.
    pub stop: Dyadic,
    /// The same with the region's values heated by one (`∫¹`): area counting's tax on
    /// every stone played while the game is hot.
    pub heated_stop: Dyadic,
}

/// A problem checked against its region's combinatorial value.
#[derive(Clone, Debug, PartialEq)]
pub struct ProblemCheck {
    /// The region's value (Black = Left, territory counting).
    pub value: Cgt,
    /// Its mean.
    pub mean: Dyadic,
    /// Its temperature.
    pub temperature: Dyadic,
    /// Black's settled area outside the region.
    pub outside: i32,
    /// The mover's stop of the region (Left stop for Black, Right stop for White, from
    /// the mover's side) plus the outside area from the mover's side.
    pub stop: Dyadic,
    /// The same for the region's value heated by one.
    pub heated_stop: Dyadic,
    /// The mover's area margin if the game ended now (two passes): the outside plus the
    /// open region counted as it stands (Tromp-Taylor: a part of it reaching only one
    /// colour's stones is that colour's, the rest nobody's).
    pub ended_at_once: i32,
    /// Every candidate of the suite, in the suite's order.
    pub candidates: Vec<CandidateCheck>,
    /// The candidates of the best (plain) stop.
    pub best_by_stop: Vec<Vertex>,
    /// Positions of the region game expanded.
    pub positions: usize,
}

/// The mover's view of Black's value `x`.
fn for_mover(mover: Color, x: Dyadic) -> Dyadic {
    if mover == Color::Black {
        x
    } else {
        -x
    }
}

/// Checks `problem` against its region's value: the mover's stop against the best value,
/// each candidate's value against the stop after it, the correct moves against the moves
/// of the best stop.
///
/// # Errors
/// [`RegionCgtError`] when the region has no value here (see [`region_value`]).
pub fn check_problem(problem: &Problem, limits: CgtLimits) -> Result<ProblemCheck, RegionCgtError> {
    let (go, state) = problem.position()?;
    let board = state.board();
    let rv = region_value(board, &problem.region, go.rules().suicide, limits)?;
    let outside_points = outside_area(board, &problem.region);
    let outside = Dyadic::integer(i64::from(outside_points));
    let mover = problem.to_move;
    let one = Dyadic::ONE;
    // The mover's stop of `g` when the mover moves first (`first`) or the opponent does.
    let stop = |g: Cgt, mover_first: bool| {
        let black = match (mover, mover_first) {
            (Color::Black, true) | (Color::White, false) => g.left_stop(),
            _ => g.right_stop(),
        };
        for_mover(mover, black + outside)
    };
    let options = if mover == Color::Black {
        &rv.black
    } else {
        &rv.white
    };
    let mut candidates = Vec::with_capacity(problem.values.len());
    for &(mv, suite) in &problem.values {
        let after = if mv.is_pass() {
            rv.value
        } else {
            match options.iter().find(|o| o.0 == mv) {
                Some(o) => o.1,
                None => {
                    return Err(RegionCgtError::BadPoint {
                        point: mv.to_gtp(problem.size),
                        reason: "a candidate of the suite but not a legal move of the region game",
                    })
                }
            }
        };
        // Heating pays the move itself a point (its stone, under area counting).
        let stone = if mv.is_pass() { Dyadic::ZERO } else { one };
        candidates.push(CandidateCheck {
            mv,
            suite,
            stop: stop(after, false),
            heated_stop: stop(after.heat(one), false) + stone,
        });
    }
    let best = candidates
        .iter()
        .map(|c| c.stop)
        .max()
        .unwrap_or(Dyadic::ZERO);
    let best_by_stop = candidates
        .iter()
        .filter(|c| c.stop == best)
        .map(|c| c.mv)
        .collect();
    Ok(ProblemCheck {
        value: rv.value,
        mean: rv.value.mean(),
        temperature: rv.value.temperature(),
        outside: outside_points,
        stop: stop(rv.value, true),
        heated_stop: stop(rv.value.heat(one), true),
        ended_at_once: if mover == Color::Black {
            board.area_score()
        } else {
            -board.area_score()
        },
        candidates,
        best_by_stop,
        positions: rv.positions,
    })
}

/// How a problem compares with its region's value.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// The suite's best value equals the mover's stop.
    pub best_agrees: bool,
    /// The suite's best value equals the mover's heated stop.
    pub best_agrees_heated: bool,
    /// The correct moves `YC` are exactly the candidates of the best stop.
    pub moves_agree: bool,
    /// Candidates whose value equals their stop.
    pub values_agreeing: usize,
    /// Candidates whose value equals their heated stop.
    pub values_agreeing_heated: usize,
    /// Candidates.
    pub candidates: usize,
    /// Everything agrees with the plain (territory) stops.
    pub agrees: bool,
    /// Everything agrees with the heated stops.
    pub agrees_heated: bool,
    /// What differs, in words (empty when everything agrees).
    pub reason: String,
}

/// Compares `problem`'s stated values with `check`.
pub fn verdict(problem: &Problem, check: &ProblemCheck) -> Verdict {
    let n = problem.size;
    let best = Dyadic::integer(i64::from(
        problem.values.iter().map(|v| v.1).max().unwrap_or(0),
    ));
    let sorted = |vs: &[Vertex]| {
        let mut vs = vs.to_vec();
        vs.sort_by_key(|v| (v.is_pass(), v.index()));
        vs
    };
    let names = |vs: &[Vertex]| vs.iter().map(|v| v.to_gtp(n)).collect::<Vec<_>>().join(" ");
    let (correct, by_stop) = (sorted(&problem.correct), sorted(&check.best_by_stop));
    let suite = |c: &CandidateCheck| Dyadic::integer(i64::from(c.suite));
    let off = |heated: bool| -> Vec<String> {
        check
            .candidates
            .iter()
            .filter(|c| suite(c) != if heated { c.heated_stop } else { c.stop })
            .map(|c| {
                let s = if heated { c.heated_stop } else { c.stop };
                let mut t = format!("{} {} vs {s}", c.mv.to_gtp(n), c.suite);
                if c.mv.is_pass() && c.suite == check.ended_at_once && s != suite(c) {
                    t.push_str(" (= the count if the game ends at once: the opponent passes too)");
                }
                t
            })
            .collect()
    };
    let (plain_off, heated_off) = (off(false), off(true));
    let mut reasons = Vec::new();
    if best != check.stop {
        reasons.push(format!("best {best} vs stop {}", check.stop));
    }
    if !plain_off.is_empty() {
        reasons.push(format!("values vs stops: {}", plain_off.join(", ")));
    }
    if correct != by_stop {
        reasons.push(format!(
            "correct {} but best stop at {}",
            names(&correct),
            names(&by_stop)
        ));
    }
    if !heated_off.is_empty() {
        reasons.push(format!("values vs ∫¹ stops: {}", heated_off.join(", ")));
    }
    let candidates = check.candidates.len();
    let v = Verdict {
        best_agrees: best == check.stop,
        best_agrees_heated: best == check.heated_stop,
        moves_agree: correct == by_stop,
        values_agreeing: candidates - plain_off.len(),
        values_agreeing_heated: candidates - heated_off.len(),
        candidates,
        agrees: false,
        agrees_heated: false,
        reason: reasons.join("; "),
    };
    Verdict {
        agrees: v.best_agrees && v.moves_agree && v.values_agreeing == candidates,
        agrees_heated: v.best_agrees_heated
            && v.moves_agree
            && v.values_agreeing_heated == candidates,
        ..v
    }
}

/// Cuts a long canonical form for a table cell.
fn cell_form(g: Cgt, width: usize) -> String {
    let s = format!("{g:#}");
    if s.chars().count() <= width {
        s
    } else {
        let mut t: String = s.chars().take(width.saturating_sub(3)).collect();
        t.push_str("...");
        t
    }
}

/// The counts of a suite's cross-check.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SuiteSummary {
    /// Problems.
    pub problems: usize,
    /// Problems whose region has a value here.
    pub valued: usize,
    /// Problems that agree in everything with the plain stops.
    pub agree: usize,
    /// Problems whose best value is the plain stop.
    pub best_agree: usize,
    /// Problems whose correct moves are exactly the moves of the best stop.
    pub moves_agree: usize,
    /// Problems that agree in everything with the heated stops.
    pub agree_heated: usize,
    /// Problems whose best value is the heated stop.
    pub best_agree_heated: usize,
    /// Candidates checked (of valued problems).
    pub candidates: usize,
    /// Candidates whose value is their plain stop.
    pub values_agree: usize,
    /// Candidates whose value is their heated stop.
    pub values_agree_heated: usize,
}

/// One problem's check and verdict, or why its region has no value here.
pub type ProblemResult = Result<(ProblemCheck, Verdict), RegionCgtError>;

/// Checks every problem of `suite` ([`check_problem`], [`verdict`]) and counts.
pub fn check_suite(suite: &[Problem], limits: CgtLimits) -> (Vec<ProblemResult>, SuiteSummary) {
    let mut sum = SuiteSummary {
        problems: suite.len(),
        ..SuiteSummary::default()
    };
    let rows = suite
        .iter()
        .map(|p| {
            let c = check_problem(p, limits)?;
            let v = verdict(p, &c);
            sum.valued += 1;
            sum.agree += usize::from(v.agrees);
            sum.best_agree += usize::from(v.best_agrees);
            sum.moves_agree += usize::from(v.moves_agree);
            sum.agree_heated += usize::from(v.agrees_heated);
            sum.best_agree_heated += usize::from(v.best_agrees_heated);
            sum.candidates += v.candidates;
            sum.values_agree += v.values_agreeing;
            sum.values_agree_heated += v.values_agreeing_heated;
            Ok((c, v))
        })
        .collect();
    (rows, sum)
}

/// The cross-check of a whole suite as a table (plain text, or Markdown with
/// `markdown`), one row a problem, and the counts of [`SuiteSummary`] in words.
pub fn suite_table(suite: &[Problem], limits: CgtLimits, markdown: bool) -> String {
    let header = [
        "problem",
        "R",
        "PL",
        "value (canonical)",
        "mean",
        "temp",
        "best",
        "stop",
        "∫¹ stop",
        "YC = best stop",
        "values = stops",
        "values = ∫¹ stops",
        "agrees",
        "∫¹ agrees",
        "reason",
    ];
    let (checks, sum) = check_suite(suite, limits);
    let yes_no = |b: bool| if b { "yes" } else { "no" }.to_string();
    let rows: Vec<[String; 15]> = suite
        .iter()
        .zip(checks)
        .map(|(p, r)| {
            let best = p.values.iter().map(|v| v.1).max().unwrap_or(0);
            let head = [
                p.name.clone(),
                p.region.len().to_string(),
                p.to_move.letter().to_string(),
            ];
            let rest = match r {
                Ok((c, v)) => [
                    cell_form(c.value, 40),
                    c.mean.to_string(),
                    c.temperature.to_string(),
                    best.to_string(),
                    c.stop.to_string(),
                    c.heated_stop.to_string(),
                    yes_no(v.moves_agree),
                    format!("{}/{}", v.values_agreeing, v.candidates),
                    format!("{}/{}", v.values_agreeing_heated, v.candidates),
                    yes_no(v.agrees),
                    yes_no(v.agrees_heated),
                    v.reason,
                ],
                Err(e) => {
                    let dash = || "-".to_string();
                    [
                        dash(),
                        dash(),
                        dash(),
                        best.to_string(),
                        dash(),
                        dash(),
                        dash(),
                        dash(),
                        dash(),
                        "no".into(),
                        "no".into(),
                        format!("no value: {e}"),
                    ]
                }
            };
            let mut row: [String; 15] = Default::default();
            for (cell, text) in row.iter_mut().zip(head.into_iter().chain(rest)) {
                *cell = text;
            }
            row
        })
        .collect();
    let mut out = String::new();
    if markdown {
        let line = |cells: &[String]| format!("| {} |\n", cells.join(" | "));
        out.push_str(&line(&header.map(String::from)));
        out.push_str(&line(&header.map(|_| "---".to_string())));
        for r in &rows {
            out.push_str(&line(&r.clone().map(|c| c.replace('|', "\\|"))));
        }
    } else {
        let mut widths = header.map(|h| h.chars().count());
        for r in &rows {
            for (w, c) in widths.iter_mut().zip(r) {
                *w = (*w).max(c.chars().count());
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                if i + 1 == cells.len() {
                    s.push_str(c);
                } else {
                    let pad = widths[i].saturating_sub(c.chars().count());
                    let _ = write!(s, "{c}{}  ", " ".repeat(pad));
                }
            }
            s.trim_end().to_string() + "\n"
        };
        out.push_str(&line(&header.map(String::from)));
        for r in &rows {
            out.push_str(&line(r));
        }
    }
    let _ = writeln!(
        out,
        "\n{} problems, {} with a value (the others have none here); of these: {} agree in \
         everything with the territory-counting stops, {} have the best value equal to the stop, \
         {} have their correct moves exactly at the best stop; {} of {} candidate values equal \
         their stops. Heated by one (∫¹, area counting): {} agree in everything, {} best values \
         and {} of {} candidate values agree.",
        sum.problems,
        sum.valued,
        sum.agree,
        sum.best_agree,
        sum.moves_agree,
        sum.values_agree,
        sum.candidates,
        sum.agree_heated,
        sum.best_agree_heated,
        sum.values_agree_heated,
        sum.candidates
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::GoGame;
    use yomi_core::Game;

    /// The board of `rows` (top row first, `X` black, `O` white, `.` empty).
    fn board(rows: &[&str]) -> Board {
        let go = GoGame::new(rows.len()).unwrap();
        let text = format!("{} b - 0", rows.join("/"));
        go.parse_state(&text).unwrap().board().clone()
    }

    fn points(b: &Board, names: &[&str]) -> Vec<Vertex> {
        names
            .iter()
            .map(|t| Vertex::parse_gtp(t, b.size()).unwrap())
            .collect()
    }

    fn value(rows: &[&str], region: &[&str]) -> RegionValue {
        let b = board(rows);
        region_value(&b, &points(&b, region), false, CgtLimits::default()).unwrap()
    }

    #[test]
    fn a_dame_is_star() {
        // C3 touches Black (C4) and White (C2): whoever fills it, it counts for nobody.
        let v = value(&["X.X.X", "XXXXX", "XX.XX", "OOOOO", "O.O.O"], &["C3"]);
        assert_eq!(v.value, Cgt::star());
        assert_eq!(
            (v.value.left_stop(), v.value.right_stop()),
            (Dyadic::ZERO, Dyadic::ZERO)
        );
        assert_eq!(v.black.len(), 1);
        assert_eq!(v.white.len(), 1);
    }

    #[test]
    fn own_territory_is_its_count_and_filling_it_costs_a_point() {
        // C4 is surrounded by Black: White may not play there (suicide), Black's fill
        // leaves 0, so the value is {0 | } = 1, one point of territory.
        let v = value(&["X.X.X", "XX.XX", "XXXXX", "OOOOO", "O.O.O"], &["C4"]);
        assert_eq!(v.value, Cgt::integer(1));
        assert_eq!(v.black, vec![(v.black[0].0, Cgt::zero())]);
        assert!(v.white.is_empty());
        // The same for White, mirrored: -1.
        let v = value(&["X.X.X", "XXXXX", "OOOOO", "OO.OO", "O.O.O"], &["C2"]);
        assert_eq!(v.value, Cgt::integer(-1));
    }

    #[test]
    fn a_two_point_gote_by_hand() {
        // Region C3 (between Black's B3/C4 and White's D3) and C2 (inside White's wall).
        // Black C3: C2 becomes a dame, *. White C3: C2 is White's point, { | 0} = -1.
        // Black C2: {0 | -2} (Black connects at C3, or White captures C2 for a point of
        // territory and a prisoner); it reverses through -2 and drops out. White C2: C3 is
        // a dame, *, dominated by -1. So G = {* | -1}: stops 0 and -1, mean -1/2,
        // temperature 1/2.
        let v = value(
            &["X.X.X", "XXXXX", "XX.OO", "OO.OO", "O.O.O"],
            &["C3", "C2"],
        );
        assert_eq!(v.value, "{*|-1}".parse::<Cgt>().unwrap());
        assert_eq!(v.value.left_stop(), Dyadic::ZERO);
        assert_eq!(v.value.right_stop(), Dyadic::MINUS_ONE);
        assert_eq!(v.value.mean(), -Dyadic::HALF);
        assert_eq!(v.value.temperature(), Dyadic::HALF);
        let b = board(&["X.X.X", "XXXXX", "XX.OO", "OO.OO", "O.O.O"]);
        let [c3, c2] = [points(&b, &["C3"])[0], points(&b, &["C2"])[0]];
        let after = |moves: &[(Vertex, Cgt)], mv| moves.iter().find(|m| m.0 == mv).unwrap().1;
        assert_eq!(after(&v.black, c3), Cgt::star());
        assert_eq!(after(&v.black, c2), "{0|-2}".parse::<Cgt>().unwrap());
        assert_eq!(after(&v.white, c3), Cgt::integer(-1));
        assert_eq!(after(&v.white, c2), Cgt::star());
    }

    #[test]
    fn bad_regions_are_refused() {
        let b = board(&["X.X.X", "XXXXX", "XX.XX", "OOOOO", "O.O.O"]);
        let limits = CgtLimits::default();
        let stone = points(&b, &["A1"]);
        assert!(matches!(
            region_value(&b, &stone, false, limits),
            Err(RegionCgtError::BadPoint {
                reason: "holds a stone",
                ..
            })
        ));
        let twice = points(&b, &["C3", "C3"]);
        assert!(matches!(
            region_value(&b, &twice, false, limits),
            Err(RegionCgtError::BadPoint {
                reason: "listed twice",
                ..
            })
        ));
        let many = vec![Vertex::PASS; MAX_REGION_POINTS + 1];
        assert!(matches!(
            region_value(&b, &many, false, limits),
            Err(RegionCgtError::TooLarge { points: 33 })
        ));
    }

    #[test]
    fn limits_stop_a_big_region() {
        // The whole empty 9x9 board is far beyond any limit: an error, quickly.
        let b = Board::new(9);
        let all: Vec<Vertex> = (0..9)
            .flat_map(|y| (0..9).map(move |x| (x, y)))
            .map(|(x, y)| b.vertex(x, y))
            .take(MAX_REGION_POINTS)
            .collect();
        let limits = CgtLimits {
            max_positions: 2_000,
            work: 1_000_000,
        };
        let e = region_value(&b, &all, false, limits).unwrap_err();
        assert!(
            matches!(
                e,
                RegionCgtError::TooManyPositions { limit: 2_000 } | RegionCgtError::Work(_)
            ),
            "{e}"
        );
    }

    #[test]
    fn a_ko_retake_is_banned_as_the_next_move() {
        // B3 is inside Black's wall, C3 inside White's: a ko. Black C3 is in atari;
        // White B3 captures it (one prisoner) and is in atari itself, but Black may not
        // retake at once, so White's next move connects at C3: { | -1} = -2. Black's other
        // answer connects at B3: 0. So Black C3 = {0 | -2}, White B3 = {2 | 0}, and both
        // reverse out of the root, which is {* | *} = 0. Without the ban the retakes would
        // loop and the region would have no value.
        let v = value(
            &[".X.O.", "XXOOO", "X..O.", "XXOOO", ".X.O."],
            &["B3", "C3"],
        );
        assert_eq!(v.value, Cgt::zero());
        let b = board(&[".X.O.", "XXOOO", "X..O.", "XXOOO", ".X.O."]);
        let [b3, c3] = [points(&b, &["B3"])[0], points(&b, &["C3"])[0]];
        let after = |moves: &[(Vertex, Cgt)], mv| moves.iter().find(|m| m.0 == mv).unwrap().1;
        assert_eq!(after(&v.black, c3), "{0|-2}".parse::<Cgt>().unwrap());
        assert_eq!(after(&v.white, b3), "{2|0}".parse::<Cgt>().unwrap());
        assert_eq!(after(&v.black, b3), Cgt::star());
    }
}

//! Proven yose (endgame) next-move problems: generation, exact proof, SGF storage and
//! verification.
//!
//! # What a problem is
//! A position where every stone belongs to a chain that is *unconditionally alive*
//! (Benson's algorithm, [`unconditionally_alive`]) and the empty points are either such
//! chains' eyes or the *unsettled region* R. The side to move looks for the best move in R.
//! Under area scoring (Chinese rules) a move outside R can only fill one's own eye (a point
//! of the opponent's eye is suicide), which changes no count and is never better than a
//! pass, so the game is the game on R with passes.
//!
//! # The proof
//! Each candidate (every legal point of R and the pass) is played, and the rest of the
//! game is searched exactly by core's alpha-beta ([`yomi_core::search::alphabeta`], with its
//! transposition table) over [`RegionGame`]: Go restricted to R and pass, two passes end
//! the game, Tromp-Taylor area count. Lines are cut after a fixed number of moves; the
//! search is run twice, once scoring cut lines as a huge Black win and once as a huge White
//! win. The minimax value is monotone in leaf values, so when both runs agree the cut
//! changed nothing and the value is exact (otherwise the problem is refused as unproven).
//!
//! # Kinds (given the komi)
//! - **A**: only the best move(s) win the game.
//! - **B**: every candidate gives the same winner (all win or all lose); only the best
//!   move(s) keep the maximum margin.
//!
//! # Storage
//! SGF with `SZ`, `KM`, `RU[Chinese]`, `PL`, `AB`/`AW` and the proof: `YK[A]` or `YK[B]`,
//! `YC[..]` the correct moves (GTP vertices), `YV[C3 5]...` every candidate's exact value
//! (the mover's area minus the opponent's, before komi), `YR[..]` the region (SGF points),
//! and a comment saying the same in words.

use std::fmt::Write as _;
use std::time::Duration;
use yomi_core::rng::derive_seed;

use yomi_core::search::alphabeta::AlphaBeta;
use yomi_core::search::{Budget, Evaluator};
use yomi_core::{
    ActionSpace, Game, GameFacts, NotationError, Player, Rewards, Rng, TensorGame, TensorShape,
    Turn,
};

use crate::board::{Board, MAX_AREA};
use crate::error::YoseError;
use crate::game::{GoGame, GoState};
use crate::sgf::{root_properties, SgfGame};
use crate::vertex::{Color, Vertex};

/// Go restricted to a region: the legal moves are the legal points of the region and the
/// pass; lines are cut at an absolute move number and scored `cut_score` there. Rewards
/// are Black's area minus White's (Tromp-Taylor, no komi) and its negation.
pub struct RegionGame {
    go: GoGame,
    /// Go's facts under this game's name and reward bounds, computed in [`RegionGame::new`].
    facts: GameFacts,
    region: Box<[bool; MAX_AREA]>,
    cut: usize,
    cut_score: f64,
}

impl RegionGame {
    /// Go of `go`'s rules on the points `region`, lines cut at move number `cut` and scored
    /// `cut_score` (Black's view) there.
    pub fn new(go: GoGame, region: &[Vertex], cut: usize, cut_score: f64) -> Self {
        let mut mask = Box::new([false; MAX_AREA]);
        for v in region {
            if !v.is_pass() {
                mask[v.index() % MAX_AREA] = true;
            }
        }
        // The largest absolute score: board points plus one.
        let bound = (go.size() * go.size()) as f64 + 1.0;
        let facts = GameFacts {
            name: format!("{}-region", go.facts().name),
            reward_bounds: (-bound, bound),
            ..go.facts().clone()
        };
        RegionGame {
            go,
            facts,
            region: mask,
            cut,
            cut_score,
        }
    }

    /// The largest absolute score (the upper reward bound set in [`RegionGame::new`]).
    fn bound(&self) -> f64 {
        self.facts.reward_bounds.1
    }
}

impl Game for RegionGame {
    type State = GoState;
    type Move = Vertex;

    fn facts(&self) -> &GameFacts {
        &self.facts
    }

    fn initial_state(&self) -> GoState {
        self.go.initial_state()
    }

    #[inline]
    fn turn(&self, state: &GoState) -> Turn {
        if state.move_number() >= self.cut {
            Turn::Terminal
        } else {
            self.go.turn(state)
        }
    }

    fn legal_moves(&self, state: &GoState, out: &mut Vec<Vertex>) {
        if self.turn(state) == Turn::Terminal {
            out.clear();
            return;
        }
        self.go.legal_moves(state, out);
        out.retain(|m| m.is_pass() || self.region[m.index() % MAX_AREA]);
    }

    #[inline]
    fn apply(&self, state: &mut GoState, mv: Vertex) {
        state.apply_unchecked(mv);
    }

    fn returns(&self, state: &GoState) -> Rewards {
        if self.go.turn(state) != Turn::Terminal && state.move_number() >= self.cut {
            Rewards::zero_sum(self.cut_score)
        } else {
            Rewards::zero_sum(state.board().area_score() as f64)
        }
    }

    fn format_move(&self, state: &GoState, mv: Vertex) -> String {
        self.go.format_move(state, mv)
    }

    fn parse_move(&self, state: &GoState, text: &str) -> Result<Vertex, NotationError> {
        let v = self.go.parse_move(state, text)?;
        if v.is_pass() || self.region[v.index() % MAX_AREA] {
            Ok(v)
        } else {
            Err(NotationError::illegal(
                text,
                "outside the region".to_string(),
            ))
        }
    }

    fn format_state(&self, state: &GoState) -> String {
        self.go.format_state(state)
    }

    fn parse_state(&self, text: &str) -> Result<GoState, NotationError> {
        self.go.parse_state(text)
    }

    #[inline]
    fn hash(&self, state: &GoState) -> u64 {
        self.go.hash(state)
    }
}

/// Go's actions ([`GoGame`]'s [`ActionSpace`]): the point in row `r` from the top and
/// column `c` is `r·N + c`, the pass `N²`; `N² + 1` actions, of which the legal ones are
/// the region's legal points and the pass.
impl ActionSpace for RegionGame {
    fn num_actions(&self) -> usize {
        self.go.num_actions()
    }

    #[inline]
    fn action_index(&self, _: &GoState, mv: Vertex) -> usize {
        self.go.action_of(mv)
    }

    fn action_move(&self, state: &GoState, player: Player, action: usize) -> Option<Vertex> {
        let v = self.go.vertex_of_action(action)?;
        let inside = v.is_pass() || self.region[v.index() % MAX_AREA];
        (inside && self.turn(state) == Turn::Player(player) && self.go.is_legal(state, v))
            .then_some(v)
    }
}

/// Go's six planes ([`GoGame`]'s [`TensorGame`]); the region is not encoded.
impl TensorGame for RegionGame {
    fn tensor_shape(&self) -> TensorShape {
        self.go.tensor_shape()
    }

    fn encode(&self, state: &GoState, perspective: Player, out: &mut [f32]) {
        self.go.encode(state, perspective, out);
    }
}

/// The area count as a guess at the depth limit of the shallow iterations (the last
/// iteration of a proof never reaches it: every line ends or is cut first).
struct AreaGuess;

impl Evaluator<RegionGame> for AreaGuess {
    fn evaluate(&self, _: &RegionGame, state: &GoState) -> Rewards {
        Rewards::zero_sum(state.board().area_score() as f64)
    }
}

/// Every candidate's exact value.
#[derive(Clone, Debug, PartialEq)]
pub struct Proof {
    /// The side to move.
    pub mover: Color,
    /// Each candidate (legal points of the region, then pass) with its exact value: the
    /// mover's area minus the opponent's at the end of best play, before komi.
    pub values: Vec<(Vertex, i32)>,
    /// Alpha-beta nodes visited.
    pub nodes: u64,
}

impl Proof {
    /// The best value.
    pub fn best(&self) -> i32 {
        self.values.iter().map(|v| v.1).max().unwrap_or(0)
    }

    /// The lowest value.
    pub fn worst(&self) -> i32 {
        self.values.iter().map(|v| v.1).min().unwrap_or(0)
    }

    /// The moves of the best value.
    pub fn best_moves(&self) -> Vec<Vertex> {
        let b = self.best();
        self.values
            .iter()
            .filter(|v| v.1 == b)
            .map(|v| v.0)
            .collect()
    }

    /// The value of `mv`, if it is a candidate.
    pub fn value_of(&self, mv: Vertex) -> Option<i32> {
        self.values.iter().find(|v| v.0 == mv).map(|v| v.1)
    }
}

/// Proves every candidate's value in `state` (no passes just played) with the region
/// `region`, each search limited to `limit` of wall-clock time.
///
/// # Errors
/// [`YoseError::Unproven`] when a search ran out of time or the line cut-off mattered even
/// at the longer of two cut-offs.
pub fn prove(
    go: &GoGame,
    state: &GoState,
    region: &[Vertex],
    limit: Duration,
) -> Result<Proof, YoseError> {
    let mover = state.to_move();
    let mut root = state.clone();
    root.reopen();
    let mut last_err = None;
    for plies in [2 * region.len() + 4, 4 * region.len() + 8] {
        match prove_with_cut(go, &root, region, plies, limit) {
            Ok((values, nodes)) => {
                let values = values
                    .into_iter()
                    .map(|(v, x)| (v, if mover == Color::Black { x } else { -x }))
                    .collect();
                return Ok(Proof {
                    mover,
                    values,
                    nodes,
                });
            }
            Err(e @ YoseError::Unproven(_)) => last_err = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last_err.unwrap_or_else(|| YoseError::Unproven("no cut-off tried".into())))
}

/// Black's exact value of each candidate with lines cut `plies` moves below the root, and
/// the nodes searched.
fn prove_with_cut(
    go: &GoGame,
    root: &GoState,
    region: &[Vertex],
    plies: usize,
    limit: Duration,
) -> Result<(Vec<(Vertex, i32)>, u64), YoseError> {
    let cut = root.move_number() + plies;
    let probe = RegionGame::new(go.clone(), region, cut, 0.0);
    let big = probe.bound();
    let mut moves = Vec::new();
    probe.legal_moves(root, &mut moves);
    // Points first, in board order, then the pass.
    moves.sort_by_key(|m| (m.is_pass(), m.index()));
    let mut out = Vec::with_capacity(moves.len() + 1);
    let mut nodes = 0u64;
    let mut per_sign = Vec::new();
    for sign in [1.0, -1.0] {
        let rg = RegionGame::new(go.clone(), region, cut, sign * big);
        let mut ab = AlphaBeta::new(AreaGuess, 18, 0x70_5e);
        let mut vals = Vec::with_capacity(moves.len());
        for &mv in &moves {
            let mut child = root.clone();
            rg.apply(&mut child, mv);
            let black = match rg.turn(&child) {
                Turn::Player(p) => {
                    let depth = (cut - child.move_number()) as u32 + 1;
                    let r = ab.search(
                        &rg,
                        &child,
                        depth,
                        Budget {
                            iterations: None,
                            time: Some(limit),
                        },
                    );
                    nodes += r.nodes;
                    if r.depth < depth {
                        return Err(YoseError::Unproven(format!(
                            "the search after {} ran out of time at depth {} of {depth}",
                            mv.to_gtp(go.size()),
                            r.depth
                        )));
                    }
                    if p.index() == 0 {
                        r.value
                    } else {
                        -r.value
                    }
                }
                _ => rg.returns(&child).get(yomi_core::Player(0)),
            };
            vals.push(black);
        }
        per_sign.push(vals);
    }
    for (i, &mv) in moves.iter().enumerate() {
        let (hi, lo) = (per_sign[0][i], per_sign[1][i]);
        if hi != lo || hi.abs() >= big {
            return Err(YoseError::Unproven(format!(
                "the cut-off after {plies} moves changes the value of {} ({lo} to {hi})",
                mv.to_gtp(go.size())
            )));
        }
        out.push((mv, hi as i32));
    }
    Ok((out, nodes))
}

/// For each point (board index), whether it holds a stone of a chain of colour `c` that is
/// unconditionally alive (Benson's algorithm): alive whatever the opponent plays, even if
/// `c` always passes.
pub fn unconditionally_alive(board: &Board, c: Color) -> Vec<bool> {
    let n = board.size();
    let mut chain = vec![usize::MAX; MAX_AREA];
    let mut region = vec![usize::MAX; MAX_AREA];
    let mut chains = 0;
    let mut regions = 0;
    let mut stack = Vec::new();
    let points: Vec<usize> = (0..n)
        .flat_map(|y| (0..n).map(move |x| (x, y)))
        .map(|(x, y)| board.index(x, y))
        .collect();
    // Chains of c, and the regions of everything else (maximal connected non-c sets).
    for &p in &points {
        let is_c = board.stone(p) == Some(c);
        let (ids, count) = if is_c {
            (&mut chain, &mut chains)
        } else {
            (&mut region, &mut regions)
        };
        if ids[p] != usize::MAX {
            continue;
        }
        ids[p] = *count;
        stack.push(p);
        while let Some(q) = stack.pop() {
            for r in board.nbrs(q) {
                if board.on_board(r) && (board.stone(r) == Some(c)) == is_c && ids[r] == usize::MAX
                {
                    ids[r] = *count;
                    stack.push(r);
                }
            }
        }
        *count += 1;
    }
    // Region r is vital to chain k when every empty point of r is a liberty of k;
    // border[r] lists the chains around r.
    let mut border: Vec<Vec<usize>> = vec![Vec::new(); regions];
    for &p in &points {
        if region[p] == usize::MAX {
            continue;
        }
        for q in board.nbrs(p) {
            if board.on_board(q) && chain[q] != usize::MAX && !border[region[p]].contains(&chain[q])
            {
                border[region[p]].push(chain[q]);
            }
        }
    }
    let mut vital: Vec<Vec<usize>> = vec![Vec::new(); chains];
    for (r, ks) in border.iter().enumerate() {
        for &k in ks {
            let all = points.iter().all(|&p| {
                region[p] != r
                    || board.stone(p).is_some()
                    || board
                        .nbrs(p)
                        .iter()
                        .any(|&q| board.on_board(q) && chain[q] == k)
            });
            if all {
                vital[k].push(r);
            }
        }
    }
    let mut chain_alive = vec![true; chains];
    let mut region_ok = vec![true; regions];
    loop {
        let mut changed = false;
        for k in 0..chains {
            if chain_alive[k] && vital[k].iter().filter(|&&r| region_ok[r]).count() < 2 {
                chain_alive[k] = false;
                changed = true;
            }
        }
        for r in 0..regions {
            if region_ok[r] && border[r].iter().any(|&k| !chain_alive[k]) {
                region_ok[r] = false;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = vec![false; MAX_AREA];
    for &p in &points {
        if chain[p] != usize::MAX && chain_alive[chain[p]] {
            out[p] = true;
        }
    }
    out
}

/// The kind of a problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Only the correct move wins.
    A,
    /// Every move gives the same winner; only the correct move keeps the maximum margin.
    B,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::A => "A",
            Kind::B => "B",
        })
    }
}

/// One proven next-move problem.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// A short name (the file stem).
    pub name: String,
    /// Board size.
    pub size: usize,
    /// Komi.
    pub komi: f64,
    /// The side to move.
    pub to_move: Color,
    /// Black stones.
    pub black: Vec<Vertex>,
    /// White stones.
    pub white: Vec<Vertex>,
    /// The unsettled region.
    pub region: Vec<Vertex>,
    /// A or B.
    pub kind: Kind,
    /// The correct moves.
    pub correct: Vec<Vertex>,
    /// Every candidate's exact value (mover's area minus opponent's, before komi).
    pub values: Vec<(Vertex, i32)>,
}

impl Problem {
    /// The game and position of the problem.
    ///
    /// # Errors
    /// [`YoseError::Sgf`] when the stones do not form a legal position.
    pub fn position(&self) -> Result<(GoGame, GoState), YoseError> {
        let rec = SgfGame {
            size: self.size,
            komi: self.komi,
            black_setup: self.black.clone(),
            white_setup: self.white.clone(),
            to_play: Some(self.to_move),
            moves: Vec::new(),
            result: None,
        };
        Ok(rec.setup()?)
    }

    /// Whether a mover's margin `v` (before komi) wins for the mover.
    pub fn wins(&self, v: i32) -> bool {
        match self.to_move {
            Color::Black => v as f64 - self.komi > 0.0,
            Color::White => v as f64 + self.komi > 0.0,
        }
    }

    /// Whether `mv` is a correct answer.
    pub fn is_correct(&self, mv: Vertex) -> bool {
        self.correct.contains(&mv)
    }

    /// The problem as SGF text.
    pub fn to_sgf(&self) -> String {
        let n = self.size;
        let gtp = |v: Vertex| v.to_gtp(n);
        let mut s = format!(
            "(;FF[4]GM[1]CA[UTF-8]AP[yomi]SZ[{n}]KM[{}]RU[Chinese]GN[{}]PL[{}]",
            self.komi,
            self.name,
            self.to_move.letter()
        );
        for (prop, list) in [
            ("AB", &self.black),
            ("AW", &self.white),
            ("YR", &self.region),
        ] {
            if !list.is_empty() {
                s.push_str(prop);
                for v in list {
                    let _ = write!(s, "[{}]", v.to_sgf(n));
                }
            }
        }
        let _ = write!(s, "\nYK[{}]YC", self.kind);
        for &v in &self.correct {
            let _ = write!(s, "[{}]", gtp(v));
        }
        s.push_str("\nYV");
        for &(v, x) in &self.values {
            let _ = write!(s, "[{} {x}]", gtp(v));
        }
        let mover = if self.to_move == Color::Black {
            "Black"
        } else {
            "White"
        };
        let best = self.values.iter().map(|v| v.1).max().unwrap_or(0);
        let winners = self.values.iter().filter(|v| self.wins(v.1)).count();
        let _ = write!(
            s,
            "\nC[Kind {} yose problem, {mover} to play, komi {}, area scoring (Chinese rules). \
             Every stone is unconditionally alive (Benson); the unsettled region YR is searched \
             exactly (alpha-beta with a transposition table, passes, superko). Values are \
             {mover}'s area minus the opponent's after best play, before komi: {}. \
             Correct: {} (value {best}). {} of {} candidate moves win for {mover}.]",
            self.kind,
            self.komi,
            self.values
                .iter()
                .map(|&(v, x)| format!("{} {x:+}", gtp(v)))
                .collect::<Vec<_>>()
                .join(", "),
            self.correct
                .iter()
                .map(|&v| gtp(v))
                .collect::<Vec<_>>()
                .join(" "),
            winners,
            self.values.len()
        );
        s.push_str(")\n");
        s
    }

    /// Reads a problem written by [`Problem::to_sgf`]; `name` is used when `GN` is absent.
    ///
    /// # Errors
    /// [`YoseError::Sgf`] for SGF errors, [`YoseError::Property`] for missing or malformed
    /// yose properties.
    pub fn parse(text: &str, name: &str) -> Result<Problem, YoseError> {
        let rec = SgfGame::parse(text)?;
        let props = root_properties(text)?;
        let n = rec.size;
        let prop = |id: &str| props.iter().find(|p| p.0 == id).map(|p| &p.1);
        let bad = |id: &str, reason: String| YoseError::Property {
            prop: id.into(),
            reason,
        };
        let kind = match prop("YK").and_then(|v| v.first()).map(|s| s.trim()) {
            Some("A") => Kind::A,
            Some("B") => Kind::B,
            other => return Err(bad("YK", format!("expected A or B, found {other:?}"))),
        };
        let gtp = |id: &str, t: &str| {
            Vertex::parse_gtp(t.trim(), n).map_err(|e| bad(id, format!("{t:?}: {e}")))
        };
        let correct = prop("YC")
            .ok_or_else(|| bad("YC", "missing".into()))?
            .iter()
            .map(|t| gtp("YC", t))
            .collect::<Result<Vec<_>, _>>()?;
        let mut values = Vec::new();
        for t in prop("YV").ok_or_else(|| bad("YV", "missing".into()))? {
            let (v, x) = t
                .trim()
                .split_once(' ')
                .ok_or_else(|| bad("YV", format!("{t:?}: expected a vertex and a value")))?;
            let x: i32 = x
                .trim()
                .parse()
                .map_err(|_| bad("YV", format!("{t:?}: the value is not an integer")))?;
            values.push((gtp("YV", v)?, x));
        }
        let region = prop("YR")
            .ok_or_else(|| bad("YR", "missing".into()))?
            .iter()
            .map(|t| Vertex::parse_sgf(t, n).map_err(|e| bad("YR", format!("{t:?}: {e}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let to_move = rec.to_play.ok_or_else(|| bad("PL", "missing".into()))?;
        if correct.is_empty() || values.is_empty() || region.is_empty() {
            return Err(bad("YC/YV/YR", "empty list".into()));
        }
        let name = prop("GN")
            .and_then(|v| v.first())
            .map_or(name.to_string(), |s| s.trim().to_string());
        Ok(Problem {
            name,
            size: n,
            komi: rec.komi,
            to_move,
            black: rec.black_setup,
            white: rec.white_setup,
            region,
            kind,
            correct,
            values,
        })
    }

    /// Re-proves the problem: every stone unconditionally alive, R is exactly the empty
    /// points that are not eyes, the exact values equal the stored ones, the correct moves
    /// are exactly the best ones, and the kind holds under the komi.
    ///
    /// # Errors
    /// [`YoseError::Mismatch`] naming the first disagreement; proof and position errors.
    pub fn verify(&self, limit: Duration) -> Result<Proof, YoseError> {
        let (go, state) = self.position()?;
        check_settled(state.board(), &self.region)?;
        let proof = prove(&go, &state, &self.region, limit)?;
        let mut stored = self.values.clone();
        let mut found = proof.values.clone();
        stored.sort_by_key(|v| (v.0.is_pass(), v.0.index()));
        found.sort_by_key(|v| (v.0.is_pass(), v.0.index()));
        if stored != found {
            return Err(YoseError::Mismatch(format!(
                "{}: stored values {stored:?}, proven {found:?}",
                self.name
            )));
        }
        let mut best = proof.best_moves();
        let mut correct = self.correct.clone();
        best.sort_by_key(|v| v.index());
        correct.sort_by_key(|v| v.index());
        if best != correct || best.iter().any(|v| v.is_pass()) {
            return Err(YoseError::Mismatch(format!(
                "{}: correct moves {correct:?} but the best are {best:?}",
                self.name
            )));
        }
        let kind = classify(&proof, self.komi);
        if kind != Some(self.kind) {
            return Err(YoseError::Mismatch(format!(
                "{}: stored kind {} but under komi {} it is {kind:?}",
                self.name, self.kind, self.komi
            )));
        }
        Ok(proof)
    }
}

/// Checks that every stone is unconditionally alive and that `region` is exactly the empty
/// points that are not single-point eyes.
///
/// # Errors
/// [`YoseError::Mismatch`] naming the point at fault.
pub fn check_settled(board: &Board, region: &[Vertex]) -> Result<(), YoseError> {
    let n = board.size();
    let alive = [
        unconditionally_alive(board, Color::Black),
        unconditionally_alive(board, Color::White),
    ];
    for y in 0..n {
        for x in 0..n {
            let p = board.index(x, y);
            let v = Vertex::from_index(p);
            let in_region = region.contains(&v);
            match board.stone(p) {
                Some(c) => {
                    if !alive[usize::from(c == Color::White)][p] {
                        return Err(YoseError::Mismatch(format!(
                            "the stone at {} is not unconditionally alive",
                            v.to_gtp(n)
                        )));
                    }
                    if in_region {
                        return Err(YoseError::Mismatch(format!(
                            "region point {} holds a stone",
                            v.to_gtp(n)
                        )));
                    }
                }
                None => {
                    let eye = eye_owner(board, p).is_some();
                    if eye == in_region {
                        return Err(YoseError::Mismatch(format!(
                            "empty point {} is {}",
                            v.to_gtp(n),
                            if eye {
                                "an eye but listed in the region"
                            } else {
                                "not an eye and not in the region"
                            }
                        )));
                    }
                }
            }
        }
    }
    Ok(())
}

/// The colour whose stones surround the empty point `p` on every side, if any.
fn eye_owner(board: &Board, p: usize) -> Option<Color> {
    let mut owner = None;
    for q in board.nbrs(p) {
        if !board.on_board(q) {
            continue;
        }
        match (board.stone(q), owner) {
            (None, _) => return None,
            (Some(c), None) => owner = Some(c),
            (Some(c), Some(o)) if c != o => return None,
            _ => {}
        }
    }
    owner
}

/// The kind of a proven position under `komi`: A when exactly the best moves win, B when
/// every candidate has the same result, `None` otherwise (or when pass is among the best,
/// or all candidates are equal).
pub fn classify(proof: &Proof, komi: f64) -> Option<Kind> {
    let best = proof.best();
    if proof.best_moves().iter().any(|v| v.is_pass()) || proof.worst() == best {
        return None;
    }
    let wins = |v: i32| match proof.mover {
        Color::Black => v as f64 - komi > 0.0,
        Color::White => v as f64 + komi > 0.0,
    };
    let winners: Vec<bool> = proof.values.iter().map(|v| wins(v.1)).collect();
    if winners.iter().all(|&w| w) || winners.iter().all(|&w| !w) {
        return Some(Kind::B);
    }
    if proof.values.iter().all(|&(_, v)| wins(v) == (v == best)) {
        return Some(Kind::A);
    }
    None
}

/// Settings of [`generate`].
#[derive(Clone, Debug)]
pub struct GenConfig {
    /// Board size (5..=9 make sense).
    pub size: usize,
    /// The kind wanted.
    pub kind: Kind,
    /// Fewest and most points in the unsettled region.
    pub region: (usize, usize),
    /// Time limit of each exact search.
    pub limit: Duration,
    /// Construction attempts before giving up.
    pub attempts: usize,
    /// Largest absolute komi accepted (keeps the problems near even games).
    pub max_komi: f64,
}

/// Constructs a random problem of the configured size and kind, proven: a staircase
/// boundary between Black's and White's areas, holes carved from the boundary into both
/// areas (the unsettled region), eyes until every chain is unconditionally alive; kept when
/// the best move is unique, better than passing, and some candidates are worse, and the
/// komi it needs is at most `max_komi` in size. The komi
/// makes it kind A (only the best move wins) or kind B (all candidates win, or all lose,
/// chosen at random). `None` when no attempt succeeded.
pub fn generate(cfg: &GenConfig, seed: u64, name: &str) -> Option<Problem> {
    let mut rng = Rng::seed_from_u64(seed);
    for _ in 0..cfg.attempts {
        let Some((board, region)) = construct(cfg, &mut rng) else {
            continue;
        };
        let to_move = if rng.chance(0.5) {
            Color::Black
        } else {
            Color::White
        };
        let mut black = Vec::new();
        let mut white = Vec::new();
        let n = cfg.size;
        for y in 0..n {
            for x in 0..n {
                let p = board.index(x, y);
                match board.stone(p) {
                    Some(Color::Black) => black.push(Vertex::from_index(p)),
                    Some(Color::White) => white.push(Vertex::from_index(p)),
                    None => {}
                }
            }
        }
        let mut problem = Problem {
            name: name.to_string(),
            size: n,
            komi: 0.0,
            to_move,
            black,
            white,
            region,
            kind: cfg.kind,
            correct: Vec::new(),
            values: Vec::new(),
        };
        let Ok((go, state)) = problem.position() else {
            continue;
        };
        let Ok(proof) = prove(&go, &state, &problem.region, cfg.limit) else {
            continue;
        };
        let best_moves = proof.best_moves();
        if best_moves.len() != 1 || best_moves[0].is_pass() || proof.worst() == proof.best() {
            continue;
        }
        // The mover's margin m wins when m > -komi' where komi' = komi for White and
        // -komi for Black; pick that threshold t and convert.
        let best = proof.best();
        let worst = proof.worst();
        let jitter = rng.below(3) as f64;
        let t = match cfg.kind {
            Kind::A => best as f64 - 0.5,
            Kind::B if rng.chance(0.5) => worst as f64 - 0.5 - jitter,
            Kind::B => best as f64 + 0.5 + jitter,
        };
        let komi = if to_move == Color::Black { t } else { -t };
        if komi.abs() > cfg.max_komi {
            continue;
        }
        if classify(&proof, komi) != Some(cfg.kind) {
            continue;
        }
        problem.komi = komi;
        problem.correct = best_moves;
        problem.values = proof.values;
        return Some(problem);
    }
    None
}

/// One random settled position with its region, or `None` when this attempt failed.
fn construct(cfg: &GenConfig, rng: &mut Rng) -> Option<(Board, Vec<Vertex>)> {
    let n = cfg.size;
    if !(5..=crate::MAX_SIZE).contains(&n) {
        return None;
    }
    // Column x: White below row h[x], Black from h[x] up; h stays near the middle so
    // that the two areas are about equal (odd sizes: the two middle rows; even: three).
    let (lo, hi) = if n % 2 == 1 {
        ((n - 1) / 2, n.div_ceil(2))
    } else {
        (n / 2 - 1, n / 2 + 1)
    };
    let (lo, hi) = (lo.max(2), hi.min(n - 2));
    let mut h = vec![0usize; n];
    h[0] = lo + rng.below(hi - lo + 1);
    for x in 1..n {
        let step = rng.below(3) as i64 - 1;
        h[x] = (h[x - 1] as i64 + step).clamp(lo as i64, hi as i64) as usize;
    }
    // 0 empty, 1 black, 2 white.
    let mut cell = vec![vec![0u8; n]; n];
    for x in 0..n {
        for (y, c) in cell[x].iter_mut().enumerate() {
            *c = if y >= h[x] { 1 } else { 2 };
        }
    }
    let nb = |x: usize, y: usize| {
        let mut v = Vec::with_capacity(4);
        if x > 0 {
            v.push((x - 1, y));
        }
        if x + 1 < n {
            v.push((x + 1, y));
        }
        if y > 0 {
            v.push((x, y - 1));
        }
        if y + 1 < n {
            v.push((x, y + 1));
        }
        v
    };
    // Holes: random walks from boundary cells.
    let holes = 2 + rng.below(if n >= 9 { 3 } else { 2 });
    let mut carved = 0;
    for _ in 0..holes {
        let boundary: Vec<(usize, usize)> = (0..n)
            .flat_map(|x| (0..n).map(move |y| (x, y)))
            .filter(|&(x, y)| {
                cell[x][y] != 0
                    && nb(x, y)
                        .iter()
                        .any(|&(a, b)| cell[a][b] != 0 && cell[a][b] != cell[x][y])
            })
            .collect();
        let &(mut x, mut y) = rng.choose(&boundary)?;
        let len = 1 + rng.below(4);
        for _ in 0..len {
            if carved >= cfg.region.1 {
                break;
            }
            if cell[x][y] != 0 {
                cell[x][y] = 0;
                carved += 1;
            }
            let next: Vec<(usize, usize)> = nb(x, y)
                .into_iter()
                .filter(|&(a, b)| cell[a][b] != 0)
                .collect();
            match rng.choose(&next) {
                Some(&(a, b)) => (x, y) = (a, b),
                None => break,
            }
        }
    }
    if carved < cfg.region.0 {
        return None;
    }
    // Eyes: cells whose neighbours are all stones of the same colour, at most a few per
    // colour, never next to another eye.
    let mut order: Vec<(usize, usize)> = (0..n).flat_map(|x| (0..n).map(move |y| (x, y))).collect();
    rng.shuffle(&mut order);
    let mut is_eye = vec![vec![false; n]; n];
    for &(x, y) in &order {
        let c = cell[x][y];
        if c == 0 {
            continue;
        }
        let ok = nb(x, y)
            .iter()
            .all(|&(a, b)| cell[a][b] == c && !is_eye[a][b]);
        // Keep the stones around the eye connected through the diagonal points too.
        if ok && rng.chance(0.6) {
            is_eye[x][y] = true;
        }
    }
    let mut board = Board::new(n);
    let mut region = Vec::new();
    for x in 0..n {
        for y in 0..n {
            let p = board.index(x, y);
            if is_eye[x][y] {
                continue;
            }
            match cell[x][y] {
                1 => board.put_raw(p, Some(Color::Black)),
                2 => board.put_raw(p, Some(Color::White)),
                _ => region.push(Vertex::from_index(p)),
            }
        }
    }
    board.rebuild();
    if !board.dead_chains().is_empty() {
        return None;
    }
    if check_settled(&board, &region).is_err() {
        return None;
    }
    region.sort_by_key(|v| v.index());
    Some((board, region))
}

/// Reads every `*.sgf` problem of `dir`, sorted by file name.
///
/// # Errors
/// [`YoseError::File`] when the directory or a file cannot be read (or holds no problem);
/// the parse errors of [`Problem::parse`], prefixed with the file name.
pub fn load_suite(dir: &std::path::Path) -> Result<Vec<Problem>, YoseError> {
    let file_err = |path: &std::path::Path, e: &dyn std::fmt::Display| YoseError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    let mut paths: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| file_err(dir, &e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(file_err(dir, &"no .sgf problems in this directory"));
    }
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(|e| file_err(p, &e))?;
            let stem = p.file_stem().map_or("", |s| s.to_str().unwrap_or(""));
            Problem::parse(&text, stem).map_err(|e| file_err(p, &e))
        })
        .collect()
}

/// The suite plan of `yomi go yose make`: `(size, kind)` for each problem, in order.
pub fn suite_plan(per_kind: &[(usize, usize)]) -> Vec<(usize, Kind)> {
    let mut plan = Vec::new();
    for &(size, count) in per_kind {
        for i in 0..count {
            plan.push((size, if i % 2 == 0 { Kind::A } else { Kind::B }));
        }
    }
    plan
}

/// What [`make_suite`] reports after each problem of its plan.
#[derive(Debug)]
pub enum SuiteStep<'a> {
    /// The problem's file existed (an earlier run made it) and was kept.
    Kept {
        /// The problem's number in the plan, from 0.
        index: usize,
        /// Its name (the file stem).
        name: &'a str,
    },
    /// The problem was generated, proven and written.
    Made {
        /// The problem's number in the plan, from 0.
        index: usize,
        /// The problem.
        problem: &'a Problem,
        /// Seconds it took.
        seconds: f64,
    },
}

/// Makes the suite of `plan` ([`suite_plan`]) in `dir`: problem `i` is
/// `y{i+1:02}-{size}x{size}-{kind}.sgf`, generated by [`generate`] with the seed
/// `derive_seed(seed, i)`, the unsettled region's size in `region` and `limit` on each
/// exact search. A problem's file is written whole (a temporary file renamed), so a run
/// that is stopped loses only the problem it was making; a file that exists is kept, so a
/// rerun makes only the missing problems. `step` hears of each problem in plan order.
/// Returns how many problems were made (not kept).
///
/// # Errors
/// [`YoseError::File`] when `dir` or a problem file cannot be written;
/// [`YoseError::Unproven`] when no proven problem came out of a plan entry's attempts.
pub fn make_suite(
    dir: &std::path::Path,
    plan: &[(usize, Kind)],
    region: (usize, usize),
    limit: Duration,
    seed: u64,
    mut step: impl FnMut(SuiteStep<'_>),
) -> Result<usize, YoseError> {
    let file_err = |path: &std::path::Path, e: std::io::Error| YoseError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    };
    std::fs::create_dir_all(dir).map_err(|e| file_err(dir, e))?;
    let mut made = 0;
    for (index, &(size, kind)) in plan.iter().enumerate() {
        let name = format!("y{:02}-{size}x{size}-{kind}", index + 1);
        let path = dir.join(format!("{name}.sgf"));
        if path.exists() {
            step(SuiteStep::Kept { index, name: &name });
            continue;
        }
        let cfg = GenConfig {
            size,
            kind,
            region,
            limit,
            attempts: 2000,
            max_komi: 12.0,
        };
        let start = std::time::Instant::now();
        let problem = generate(&cfg, derive_seed(seed, index as u64), &name).ok_or_else(|| {
            YoseError::Unproven(format!(
                "{name}: no proven problem in {} attempts",
                cfg.attempts
            ))
        })?;
        let tmp = path.with_extension("sgf.tmp");
        std::fs::write(&tmp, problem.to_sgf()).map_err(|e| file_err(&tmp, e))?;
        std::fs::rename(&tmp, &path).map_err(|e| file_err(&path, e))?;
        made += 1;
        step(SuiteStep::Made {
            index,
            problem: &problem,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
    Ok(made)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        let go = GoGame::new(rows.len()).unwrap();
        let text = format!("{} b - 0", rows.join("/"));
        go.parse_state(&text).unwrap().board().clone()
    }

    #[test]
    fn benson_two_eyes_alive_one_eye_not() {
        // Black wall with two eyes on the top edge; White below with one big area.
        let b = board(&["X.X.X", "XXXXX", "OOOOO", "O.O.O", "OOOOO"]);
        let alive_b = unconditionally_alive(&b, Color::Black);
        let alive_w = unconditionally_alive(&b, Color::White);
        assert!(alive_b[b.index(0, 4)] && alive_b[b.index(2, 3)]);
        assert!(alive_w[b.index(0, 0)]);
        let b = board(&["X.XXX", "XXXXX", "OOOOO", "O.O.O", "OOOOO"]);
        let alive_b = unconditionally_alive(&b, Color::Black);
        assert!(!alive_b[b.index(0, 4)], "one eye is not alive");
    }

    #[test]
    fn a_single_dame_is_worth_one_point_each_way() {
        // One empty point between the two walls at C3; each side gets it by playing it.
        let b = board(&["X.X.X", "XXXXX", "OO.OO", "O.O.O", "OOOOO"]);
        let region = [Vertex::from_index(b.index(2, 2))];
        check_settled(&b, &region).unwrap();
        let go = GoGame::new(5).unwrap();
        let state = go.state_from_board(b, 0.0).unwrap();
        let proof = prove(&go, &state, &region, Duration::from_secs(5)).unwrap();
        // Black 10 points (8 stones + 2 eyes) against White 14 (12 + 2): C3 gives
        // 11 - 14 = -3; a pass lets White take it: 10 - 15 = -5.
        assert_eq!(proof.value_of(region[0]), Some(-3));
        assert_eq!(proof.value_of(Vertex::PASS), Some(-5));
        assert_eq!(proof.best_moves(), vec![region[0]]);
        assert_eq!(classify(&proof, -3.5), Some(Kind::A));
        assert_eq!(classify(&proof, -5.5), Some(Kind::B));
        assert_eq!(classify(&proof, -2.5), Some(Kind::B));
        assert_eq!(classify(&proof, -4.5), Some(Kind::A));
    }
}

//! The generic conformance suite every game runs with one call, a generic `perft`, and
//! three tiny games used by core's own tests (and useful as examples of the API):
//! [`Nim`] (sequential), [`MatrixGame`] (simultaneous) and [`SecretGuess`] (hidden
//! information).
//!
//! ```
//! use yomi_core::testing::{check_game, Conformance, Nim};
//! check_game(&Nim::new(12), &Conformance::default());
//! ```

use std::collections::HashSet;
use std::sync::LazyLock;

use crate::game::{Dynamics, Game, GameFacts, Information, Turn, Utility};
use crate::notation::NotationError;
use crate::player::{Player, Rewards};
use crate::rng::Rng;

/// Settings of [`check_game`].
#[derive(Clone, Debug)]
pub struct Conformance {
    /// Random games to play.
    pub games: usize,
    /// Seed of the random games.
    pub seed: u64,
    /// Turns after which a game counts as endless when the game declares no bound.
    pub max_turns_default: usize,
    /// Check state notation round trips at every step (turn off for games whose states are
    /// expensive to print).
    pub check_state_notation: bool,
}

impl Default for Conformance {
    fn default() -> Self {
        Conformance {
            games: 50,
            seed: 0x5EED,
            max_turns_default: 100_000,
            check_state_notation: true,
        }
    }
}

/// Runs the conformance suite on `game`, panicking with a description of the first violation.
///
/// Along seeded random games it checks that: games end within the declared bound; a
/// non-terminal state offers moves to whoever must move and none to the others; move lists
/// hold no duplicates; every move's notation is unique and parses back; the state's notation
/// parses back to an equal state with an equal hash; clones are independent (playing on a
/// copy leaves the original and its hash unchanged) and equal states evolve equally;
/// `random_move` returns legal moves; `play` accepts legal moves; determinizations agree with
/// every player's observation; returns have one entry per player, lie within the bounds
/// and sum as the utility says; damaged notation gives errors, never panics; `players()`
/// agrees with the facts; `facts()` returns the same stored value on every call (it is
/// computed once, not rebuilt per call).
pub fn check_game<G: Game>(game: &G, cfg: &Conformance) {
    let facts = game.facts();
    assert!(
        std::ptr::eq(facts, game.facts()),
        "facts() must return the facts stored in the game (or a static), not build them per call"
    );
    assert!(
        facts.players >= 1 && facts.players <= crate::MAX_PLAYERS,
        "player count"
    );
    assert_eq!(
        game.players(),
        facts.players,
        "players() agrees with facts()"
    );
    assert!(
        facts.player_names.is_empty() || facts.player_names.len() == facts.players,
        "one name per player"
    );
    assert!(
        facts.reward_bounds.0 < facts.reward_bounds.1,
        "reward bounds must be ordered"
    );
    let limit = facts.max_turns.unwrap_or(cfg.max_turns_default);
    let mut rng = Rng::seed_from_u64(cfg.seed);
    let mut moves = Vec::new();
    let mut other = Vec::new();
    let mut joint = Vec::new();
    for g in 0..cfg.games {
        let mut state = game.initial_state();
        let mut turns = 0usize;
        loop {
            check_state(game, facts, &state, cfg, &mut rng);
            match game.turn(&state) {
                Turn::Terminal => break,
                Turn::Player(p) => {
                    assert!(p.index() < facts.players, "mover {p} out of range");
                    game.legal_moves(&state, &mut moves);
                    assert!(
                        !moves.is_empty(),
                        "game {g} turn {turns}: non-terminal state without moves:\n{}",
                        game.render(&state)
                    );
                    check_moves(game, &state, &moves);
                    for q in facts.all_players().filter(|&q| q != p) {
                        game.legal_moves_of(&state, q, &mut other);
                        assert!(other.is_empty(), "{q} has moves while {p} is to move");
                    }
                    let mut buf = Vec::new();
                    let rm = game
                        .random_move(&state, &mut rng, &mut buf)
                        .expect("random_move at a non-terminal state");
                    assert!(
                        moves.contains(&rm),
                        "random_move returned an illegal move {rm:?}"
                    );
                    let mv = moves[rng.below(moves.len())];
                    // Clone independence and determinism.
                    let saved = state.clone();
                    let saved_hash = game.hash(&state);
                    let mut a = state.clone();
                    let mut b = state.clone();
                    game.apply(&mut a, mv);
                    game.apply(&mut b, mv);
                    assert_eq!(state, saved, "applying to a clone changed the original");
                    assert_eq!(game.hash(&state), saved_hash, "hash changed without a move");
                    assert_eq!(
                        a, b,
                        "the same move from equal states gave different states"
                    );
                    assert_eq!(
                        game.hash(&a),
                        game.hash(&b),
                        "equal states, different hashes"
                    );
                    game.play(&mut state, mv)
                        .expect("play refused a legal move");
                    assert_eq!(state, a, "play and apply disagree");
                }
                Turn::Simultaneous => {
                    assert_eq!(
                        facts.dynamics,
                        Dynamics::Simultaneous,
                        "simultaneous turn in a sequential game"
                    );
                    joint.clear();
                    for q in facts.all_players() {
                        game.legal_moves_of(&state, q, &mut moves);
                        assert!(!moves.is_empty(), "{q} has no move at a simultaneous turn");
                        check_moves(game, &state, &moves);
                        joint.push(moves[rng.below(moves.len())]);
                    }
                    let mut a = state.clone();
                    game.apply_joint(&mut a, &joint);
                    game.play_joint(&mut state, &joint)
                        .expect("play_joint refused legal moves");
                    assert_eq!(state, a, "play_joint and apply_joint disagree");
                }
            }
            turns += 1;
            assert!(turns <= limit, "game {g} did not end within {limit} turns");
        }
        let r = game.returns(&state);
        check_returns(facts, &r);
    }
}

fn check_moves<G: Game>(game: &G, state: &G::State, moves: &[G::Move]) {
    let set: HashSet<&G::Move> = moves.iter().collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves in {moves:?}");
    let mut names = HashSet::new();
    for &m in moves {
        let text = game.format_move(state, m);
        assert!(names.insert(text.clone()), "two moves print as {text:?}");
        match game.parse_move(state, &text) {
            Ok(back) => assert_eq!(back, m, "move {text:?} parsed back as {back:?}"),
            Err(e) => panic!("move {text:?} does not parse back: {e}"),
        }
        for damaged in damage(&text) {
            // Must not panic; may succeed (a damaged string can name another move).
            let _ = game.parse_move(state, &damaged);
        }
    }
    assert!(
        game.parse_move(state, "").is_err(),
        "the empty string parsed as a move"
    );
}

fn check_state<G: Game>(
    game: &G,
    facts: &GameFacts,
    state: &G::State,
    cfg: &Conformance,
    rng: &mut Rng,
) {
    if cfg.check_state_notation {
        let text = game.format_state(state);
        match game.parse_state(&text) {
            Ok(back) => {
                assert_eq!(&back, state, "state {text:?} parsed back differently");
                assert_eq!(
                    game.hash(&back),
                    game.hash(state),
                    "parsed state hashes differently"
                );
            }
            Err(e) => panic!("state {text:?} does not parse back: {e}"),
        }
        for damaged in damage(&text) {
            let _ = game.parse_state(&damaged);
        }
        let _ = game.render(state);
    }
    for p in facts.all_players() {
        let seen = game.observation(state, p);
        let det = game.determinize(state, p, rng);
        assert_eq!(
            game.observation(&det, p),
            seen,
            "a determinization for {p} disagrees with {p}'s observation"
        );
        assert_eq!(
            game.turn(&det),
            game.turn(state),
            "a determinization changed whose turn it is"
        );
        if facts.information == Information::Perfect {
            assert_eq!(
                &det, state,
                "determinizing a perfect-information state changed it"
            );
        }
    }
}

fn check_returns(facts: &GameFacts, r: &Rewards) {
    assert_eq!(r.len(), facts.players, "returns need one entry per player");
    let (lo, hi) = facts.reward_bounds;
    for &v in r.as_slice() {
        assert!(
            v.is_finite() && v >= lo - 1e-9 && v <= hi + 1e-9,
            "reward {v} outside [{lo}, {hi}]"
        );
    }
    match facts.utility {
        Utility::ZeroSum => assert!(r.sum().abs() < 1e-9, "zero-sum game returned {r:?}"),
        Utility::ConstantSum(c) => assert!(
            (r.sum() - c).abs() < 1e-9,
            "constant-sum game returned {r:?}"
        ),
        Utility::GeneralSum => {}
    }
}

/// Damaged copies of a notation string: truncations, a replaced character, doubled text,
/// stray bytes. Parsers must answer all of them without panicking.
pub fn damage(text: &str) -> Vec<String> {
    let mut out = vec![
        String::new(),
        " ".into(),
        format!("{text}{text}"),
        format!("{text}\u{00e9}"),
        format!("\u{0}{text}"),
        text.to_uppercase(),
        "9999999999999999999999".into(),
        "-1".into(),
    ];
    let chars: Vec<char> = text.chars().collect();
    for cut in [1, chars.len() / 2, chars.len().saturating_sub(1)] {
        if cut < chars.len() {
            out.push(chars[..cut].iter().collect());
            let mut c = chars.clone();
            c[cut] = if c[cut] == 'z' { '#' } else { 'z' };
            out.push(c.iter().collect());
        }
    }
    out
}

/// Counts the leaves of the move tree to `depth` turns (simultaneous turns count every
/// joint move). The standard move-generator check.
pub fn perft<G: Game>(game: &G, state: &G::State, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    match game.turn(state) {
        Turn::Terminal => 0,
        Turn::Player(_) => {
            let mut moves = Vec::new();
            game.legal_moves(state, &mut moves);
            if depth == 1 {
                return moves.len() as u64;
            }
            moves
                .iter()
                .map(|&m| {
                    let mut s = state.clone();
                    game.apply(&mut s, m);
                    perft(game, &s, depth - 1)
                })
                .sum()
        }
        Turn::Simultaneous => {
            let players = game.facts().players;
            let lists: Vec<Vec<G::Move>> = (0..players)
                .map(|p| {
                    let mut m = Vec::new();
                    game.legal_moves_of(state, Player(p as u8), &mut m);
                    m
                })
                .collect();
            let mut total = 0;
            let mut idx = vec![0usize; players];
            loop {
                let joint: Vec<G::Move> = (0..players).map(|p| lists[p][idx[p]]).collect();
                let mut s = state.clone();
                game.apply_joint(&mut s, &joint);
                total += perft(game, &s, depth - 1);
                let mut p = 0;
                loop {
                    if p == players {
                        return total;
                    }
                    idx[p] += 1;
                    if idx[p] < lists[p].len() {
                        break;
                    }
                    idx[p] = 0;
                    p += 1;
                }
            }
        }
    }
}

fn parse_u32(what: &'static str, text: &str, expected: &str) -> Result<u32, NotationError> {
    let t = text.trim();
    if t.is_empty() {
        return Err(NotationError::Empty { what });
    }
    t.parse()
        .map_err(|_| NotationError::syntax(what, text, expected))
}

/// Nim with one heap: players alternately take 1, 2 or 3 stones; whoever takes the last
/// stone wins. Heaps that are multiples of 4 are lost for the player to move.
#[derive(Clone, Debug)]
pub struct Nim {
    heap: u32,
    facts: GameFacts,
}

/// A Nim position: stones left and the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimState {
    /// Stones left.
    pub stones: u32,
    /// Player to move.
    pub to_move: Player,
}

impl Nim {
    /// Nim starting from `heap` stones.
    pub fn new(heap: u32) -> Self {
        Nim {
            heap,
            facts: GameFacts::two_player_zero_sum("nim", ["first", "second"], heap as usize),
        }
    }
}

impl Game for Nim {
    type State = NimState;
    type Move = u32;

    fn facts(&self) -> &GameFacts {
        &self.facts
    }
    fn initial_state(&self) -> NimState {
        NimState {
            stones: self.heap,
            to_move: Player(0),
        }
    }
    fn turn(&self, s: &NimState) -> Turn {
        if s.stones == 0 {
            Turn::Terminal
        } else {
            Turn::Player(s.to_move)
        }
    }
    fn legal_moves(&self, s: &NimState, out: &mut Vec<u32>) {
        out.clear();
        out.extend((1..=3).filter(|&k| k <= s.stones));
    }
    fn apply(&self, s: &mut NimState, mv: u32) {
        s.stones -= mv;
        s.to_move = s.to_move.opponent();
    }
    fn returns(&self, s: &NimState) -> Rewards {
        if s.stones > 0 {
            return Rewards::zero_sum(0.0);
        }
        // The player to move faces an empty heap: the other player took the last stone.
        Rewards::zero_sum(if s.to_move == Player(1) { 1.0 } else { -1.0 })
    }
    fn format_move(&self, _: &NimState, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, s: &NimState, text: &str) -> Result<u32, NotationError> {
        let k = parse_u32("move", text, "a number of stones, 1 to 3")?;
        if !(1..=3).contains(&k) || k > s.stones {
            return Err(NotationError::illegal(
                text,
                format!("take 1 to {} stones", s.stones.min(3)),
            ));
        }
        Ok(k)
    }
    fn format_state(&self, s: &NimState) -> String {
        format!("{} {}", s.stones, s.to_move.0)
    }
    fn parse_state(&self, text: &str) -> Result<NimState, NotationError> {
        let mut it = text.split_whitespace();
        let (Some(a), Some(b), None) = (it.next(), it.next(), it.next()) else {
            return Err(NotationError::syntax(
                "state",
                text,
                "\"<stones> <player 0|1>\"",
            ));
        };
        let stones = parse_u32("state", a, "a number of stones")?;
        if stones > self.heap {
            return Err(NotationError::invalid(
                "state",
                text,
                "more stones than the heap",
            ));
        }
        let p = match b {
            "0" => Player(0),
            "1" => Player(1),
            _ => return Err(NotationError::syntax("state", text, "player 0 or 1")),
        };
        Ok(NimState { stones, to_move: p })
    }
}

/// A one-shot two-player simultaneous game given by payoff matrices (rows: player 0's
/// moves, columns: player 1's moves), e.g. the prisoner's dilemma.
#[derive(Clone, Debug)]
pub struct MatrixGame {
    /// Payoffs `(player 0, player 1)` for each pair of moves.
    payoffs: Vec<Vec<(f64, f64)>>,
    /// Computed from the payoffs in [`MatrixGame::new`] (the reward bounds depend on them).
    facts: GameFacts,
}

/// A [`MatrixGame`] state: the moves played, once played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatrixState {
    /// `(row, column)` after the joint move.
    pub played: Option<(u8, u8)>,
}

impl MatrixGame {
    /// The prisoner's dilemma with payoffs in [0, 5]: move 1 (defect) dominates.
    pub fn prisoners_dilemma() -> Self {
        MatrixGame::new(vec![
            vec![(3.0, 3.0), (0.0, 5.0)],
            vec![(5.0, 0.0), (1.0, 1.0)],
        ])
    }

    /// The game with payoffs `(player 0, player 1)` for each pair of moves (rows: player
    /// 0's moves, columns: player 1's moves).
    pub fn new(payoffs: Vec<Vec<(f64, f64)>>) -> Self {
        let all = payoffs.iter().flatten().flat_map(|&(a, b)| [a, b]);
        let lo = all.clone().fold(f64::INFINITY, f64::min);
        let hi = all.fold(f64::NEG_INFINITY, f64::max);
        let facts = GameFacts {
            name: "matrix".into(),
            players: 2,
            player_names: vec!["row".into(), "column".into()],
            dynamics: Dynamics::Simultaneous,
            information: Information::Perfect,
            utility: Utility::GeneralSum,
            reward_bounds: (lo, if hi > lo { hi } else { lo + 1.0 }),
            max_turns: Some(1),
        };
        MatrixGame { payoffs, facts }
    }

    /// Payoffs `(player 0, player 1)` for each pair of moves.
    pub fn payoffs(&self) -> &[Vec<(f64, f64)>] {
        &self.payoffs
    }
}

impl Game for MatrixGame {
    type State = MatrixState;
    type Move = u8;
    fn facts(&self) -> &GameFacts {
        &self.facts
    }
    fn initial_state(&self) -> MatrixState {
        MatrixState { played: None }
    }
    fn turn(&self, s: &MatrixState) -> Turn {
        if s.played.is_some() {
            Turn::Terminal
        } else {
            Turn::Simultaneous
        }
    }
    fn legal_moves(&self, _: &MatrixState, out: &mut Vec<u8>) {
        out.clear();
    }
    fn legal_moves_of(&self, s: &MatrixState, p: Player, out: &mut Vec<u8>) {
        out.clear();
        if s.played.is_none() {
            let n = if p.0 == 0 {
                self.payoffs.len()
            } else {
                self.payoffs[0].len()
            };
            out.extend(0..n as u8);
        }
    }
    fn apply(&self, _: &mut MatrixState, _: u8) {
        panic!("MatrixGame has only simultaneous turns: use apply_joint");
    }
    fn apply_joint(&self, s: &mut MatrixState, moves: &[u8]) {
        s.played = Some((moves[0], moves[1]));
    }
    fn returns(&self, s: &MatrixState) -> Rewards {
        match s.played {
            Some((r, c)) => {
                let (a, b) = self.payoffs[r as usize][c as usize];
                Rewards::from_slice(&[a, b])
            }
            None => Rewards::zeros(2),
        }
    }
    fn format_move(&self, _: &MatrixState, mv: u8) -> String {
        mv.to_string()
    }
    fn parse_move(&self, _: &MatrixState, text: &str) -> Result<u8, NotationError> {
        let k = parse_u32("move", text, "a move number")?;
        let n = self.payoffs.len().max(self.payoffs[0].len()) as u32;
        if k >= n {
            return Err(NotationError::illegal(text, format!("moves are 0..{n}")));
        }
        Ok(k as u8)
    }
    fn format_state(&self, s: &MatrixState) -> String {
        match s.played {
            None => "-".into(),
            Some((r, c)) => format!("{r},{c}"),
        }
    }
    fn parse_state(&self, text: &str) -> Result<MatrixState, NotationError> {
        let t = text.trim();
        if t == "-" {
            return Ok(MatrixState { played: None });
        }
        let (a, b) = t
            .split_once(',')
            .ok_or_else(|| NotationError::syntax("state", text, "\"-\" or \"<row>,<column>\""))?;
        let r = parse_u32("state", a, "a row")?;
        let c = parse_u32("state", b, "a column")?;
        if r as usize >= self.payoffs.len() || c as usize >= self.payoffs[0].len() {
            return Err(NotationError::invalid("state", text, "no such cell"));
        }
        Ok(MatrixState {
            played: Some((r as u8, c as u8)),
        })
    }
}

/// A hidden-information game: player 0 secretly picks a number in `0..n`, then player 1
/// guesses it, winning on a correct guess. Player 1's observation hides the number, so a
/// determinization for player 1 samples it.
#[derive(Clone, Copy, Debug)]
pub struct SecretGuess {
    /// How many numbers to choose from.
    pub n: u8,
}

/// A [`SecretGuess`] state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SecretState {
    /// Player 0's number, once chosen.
    pub secret: Option<u8>,
    /// Player 1's guess, once made.
    pub guess: Option<u8>,
}

impl Game for SecretGuess {
    type State = SecretState;
    type Move = u8;
    fn facts(&self) -> &GameFacts {
        // The same for every `n`, so built once per program.
        static FACTS: LazyLock<GameFacts> = LazyLock::new(|| GameFacts {
            information: Information::Imperfect,
            ..GameFacts::two_player_zero_sum("secret-guess", ["hider", "guesser"], 2)
        });
        &FACTS
    }
    fn initial_state(&self) -> SecretState {
        SecretState {
            secret: None,
            guess: None,
        }
    }
    fn turn(&self, s: &SecretState) -> Turn {
        match (s.secret, s.guess) {
            (None, _) => Turn::Player(Player(0)),
            (Some(_), None) => Turn::Player(Player(1)),
            _ => Turn::Terminal,
        }
    }
    fn legal_moves(&self, s: &SecretState, out: &mut Vec<u8>) {
        out.clear();
        if s.guess.is_none() {
            out.extend(0..self.n);
        }
    }
    fn apply(&self, s: &mut SecretState, mv: u8) {
        if s.secret.is_none() {
            s.secret = Some(mv);
        } else {
            s.guess = Some(mv);
        }
    }
    fn returns(&self, s: &SecretState) -> Rewards {
        match (s.secret, s.guess) {
            (Some(a), Some(b)) => Rewards::zero_sum(if a == b { -1.0 } else { 1.0 }),
            _ => Rewards::zero_sum(0.0),
        }
    }
    fn format_move(&self, _: &SecretState, mv: u8) -> String {
        mv.to_string()
    }
    fn parse_move(&self, _: &SecretState, text: &str) -> Result<u8, NotationError> {
        let k = parse_u32("move", text, "a number")?;
        if k >= self.n as u32 {
            return Err(NotationError::illegal(
                text,
                format!("numbers are 0..{}", self.n),
            ));
        }
        Ok(k as u8)
    }
    fn format_state(&self, s: &SecretState) -> String {
        let f = |x: Option<u8>| x.map_or("-".to_string(), |v| v.to_string());
        format!("{} {}", f(s.secret), f(s.guess))
    }
    fn parse_state(&self, text: &str) -> Result<SecretState, NotationError> {
        let mut it = text.split_whitespace();
        let (Some(a), Some(b), None) = (it.next(), it.next(), it.next()) else {
            return Err(NotationError::syntax(
                "state",
                text,
                "\"<secret|-> <guess|->\"",
            ));
        };
        let f = |x: &str| -> Result<Option<u8>, NotationError> {
            if x == "-" {
                return Ok(None);
            }
            let v = parse_u32("state", x, "a number or -")?;
            if v >= self.n as u32 {
                return Err(NotationError::invalid("state", text, "number out of range"));
            }
            Ok(Some(v as u8))
        };
        let (secret, guess) = (f(a)?, f(b)?);
        if secret.is_none() && guess.is_some() {
            return Err(NotationError::invalid(
                "state",
                text,
                "a guess before the secret",
            ));
        }
        Ok(SecretState { secret, guess })
    }
    fn observation(&self, s: &SecretState, observer: Player) -> String {
        let secret = match (observer, s.secret, s.guess) {
            (Player(0), Some(v), _) | (_, Some(v), Some(_)) => v.to_string(),
            (_, Some(_), None) => "?".into(),
            (_, None, _) => "-".into(),
        };
        let guess = s.guess.map_or("-".to_string(), |v| v.to_string());
        format!("{secret} {guess}")
    }
    fn determinize(&self, s: &SecretState, observer: Player, rng: &mut Rng) -> SecretState {
        match (observer, s.secret, s.guess) {
            (Player(1), Some(_), None) => SecretState {
                secret: Some(rng.below(self.n as usize) as u8),
                guess: None,
            },
            _ => *s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_games_conform() {
        check_game(&Nim::new(9), &Conformance::default());
        check_game(&MatrixGame::prisoners_dilemma(), &Conformance::default());
        check_game(&SecretGuess { n: 3 }, &Conformance::default());
    }

    #[test]
    fn perft_counts() {
        let nim = Nim::new(4);
        let s = nim.initial_state();
        assert_eq!(perft(&nim, &s, 1), 3);
        // From 4: take 1 → 3 (3 moves), take 2 → 2 (2), take 3 → 1 (1).
        assert_eq!(perft(&nim, &s, 2), 6);
        let m = MatrixGame::prisoners_dilemma();
        assert_eq!(perft(&m, &m.initial_state(), 1), 4);
    }
}

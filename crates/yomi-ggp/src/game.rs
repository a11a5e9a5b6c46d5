//! Any valid GDL rule sheet as a [`yomi_core::Game`].
//!
//! - **Players** are the roles, in declaration order; their names are the role terms.
//! - **Turns.** GDL moves are simultaneous, but most games are turn-taking with `noop`. A
//!   state where exactly one role has more than one legal move is [`Turn::Player`] of that
//!   role (so sequential searches and alpha-beta-style backups see the real decision); the
//!   others' single moves (`noop`) are filled in by [`Game::apply`]. Where several roles have
//!   a choice the turn is [`Turn::Simultaneous`]; where nobody has a choice it is
//!   [`Turn::Player`] of the first role whose only move is not `noop` (the first role if
//!   all are `noop`). The dynamics are declared
//!   [`Dynamics::Simultaneous`] for games with several roles.
//! - **Terminal**: `terminal` holds, or some role has no legal move (a malformed game
//!   cannot go on).
//! - **Rewards** are the goal values 0..100 (the highest if a rule sheet gives several, 0
//!   if none), with [`Utility::GeneralSum`] and reward bounds (0, 100).
//! - **Move notation** is the action's GDL term as the rule sheet spells it (`(mark 1 1)`,
//!   `noop`); parsing is case-insensitive. **State notation** is the list of true base
//!   propositions, `((cell 1 1 b) (control xplayer))`.
//! - **Actions** ([`ActionSpace`]): a move's action is its index in the reasoner's sorted
//!   list of action terms ([`Reasoner::actions`]), the same for every role (the `noop` of
//!   one role is the `noop` of another); there are as many actions as action terms. No
//!   [`yomi_core::TensorGame`]: a rule sheet has no board shape to read.

use std::sync::{Arc, OnceLock};

use yomi_core::{
    ActionSpace, Dynamics, Game, GameFacts, Information, NotationError, Player, Rewards, Rng, Turn,
    Utility, MAX_PLAYERS,
};

use crate::error::GdlError;
use crate::heuristic::{Material, MaterialEvaluator};
use crate::parse::{parse_ground_term, read_sexprs, SExpr};
use crate::reasoner::{GdlState, Reasoner, TURN_SIMULTANEOUS, TURN_TERMINAL};
use crate::validate::Description;

/// A move: an index into [`Reasoner::actions`] (the same action term is the same move for
/// every role).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct GdlMove(pub u32);

/// Seed of the material analysis' random games (fixed: a game analyses the same way in
/// every run that is not cut short by the analysis' time limit).
const MATERIAL_SEED: u64 = 0x6d61_7465_7269_616c;

/// A GDL game: the compiled rules, shared between clones.
#[derive(Clone, Debug)]
pub struct GdlGame {
    /// Computed from the reasoner's roles when the game is built.
    facts: GameFacts,
    reasoner: Arc<Reasoner>,
    /// The material analysis, made on first use and shared by the game's clones.
    material: Arc<OnceLock<Material>>,
}

impl GdlGame {
    /// Compiles a checked description; `name` becomes the game's short name (`ggp:<name>`).
    ///
    /// # Errors
    /// [`GdlError::Game`] when the game cannot be grounded (too large, too many roles).
    pub fn new(name: &str, desc: &Description) -> Result<Self, GdlError> {
        Ok(Self::with_reasoner(name, Reasoner::new(desc)?))
    }

    /// The game on the fallback evaluator ([`Reasoner::new_fallback`]), which games too
    /// large to ground run on, whether or not this one grounds.
    ///
    /// # Errors
    /// As [`Reasoner::new_fallback`].
    pub fn new_fallback(name: &str, desc: &Description) -> Result<Self, GdlError> {
        Ok(Self::with_reasoner(name, Reasoner::new_fallback(desc)?))
    }

    /// The game on compiled rules; its facts come from the roles.
    fn with_reasoner(name: &str, reasoner: Reasoner) -> Self {
        let roles = reasoner.roles().len();
        let facts = GameFacts {
            name: format!("ggp:{name}"),
            players: roles,
            player_names: reasoner.role_names().to_vec(),
            dynamics: if roles > 1 {
                Dynamics::Simultaneous
            } else {
                Dynamics::Sequential
            },
            information: Information::Perfect,
            utility: Utility::GeneralSum,
            reward_bounds: (0.0, 100.0),
            max_turns: None,
        };
        GdlGame {
            facts,
            reasoner: Arc::new(reasoner),
            material: Arc::new(OnceLock::new()),
        }
    }

    /// The material heuristic of the game ([`crate::heuristic`]), analysed on the first
    /// call (random games, at most [`crate::heuristic::ANALYSIS_SECONDS`]).
    pub fn material(&self) -> &Material {
        self.material.get_or_init(|| {
            Material::analyse(
                self,
                &self.reasoner,
                crate::heuristic::ANALYSIS_SECONDS,
                MATERIAL_SEED,
            )
        })
    }

    /// Reads, checks and compiles a KIF rule sheet.
    ///
    /// # Errors
    /// Any [`GdlError`] of reading, checking or grounding.
    pub fn from_kif(name: &str, text: &str) -> Result<Self, GdlError> {
        Self::new(name, &Description::from_kif(text)?)
    }

    /// The compiled rules.
    pub fn reasoner(&self) -> &Reasoner {
        &self.reasoner
    }

    /// The role called `name` (case-insensitive), by index.
    pub fn role_index(&self, name: &str) -> Option<usize> {
        let name = name.trim();
        self.reasoner
            .role_names()
            .iter()
            .position(|r| r.eq_ignore_ascii_case(name))
    }

    /// The id of the action written as `text` (one ground GDL term), whoever may play it.
    fn action_id(&self, text: &str) -> Result<u32, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(NotationError::Empty { what: "move" });
        }
        let exprs =
            read_sexprs(t).map_err(|e| NotationError::syntax("move", text, e.to_string()))?;
        let [e] = exprs.as_slice() else {
            return Err(NotationError::syntax(
                "move",
                text,
                "one GDL term such as (mark 1 1)",
            ));
        };
        let r = &*self.reasoner;
        parse_ground_term(&r.description().sheet.symbols, e)
            .and_then(|term| r.action_of(&term))
            .ok_or_else(|| NotationError::illegal(text, "no role ever has this action"))
    }

    /// Reads `text` as an action of `role` and checks that `role` may play it in `state`
    /// (unlike [`Game::parse_move`], also for roles whose only move is `noop` at a
    /// turn-taking state). Never panics.
    ///
    /// # Errors
    /// [`NotationError`] for text that is no action of the game, or not legal for `role`.
    pub fn parse_action(
        &self,
        state: &GdlState,
        role: usize,
        text: &str,
    ) -> Result<u32, NotationError> {
        let r = &*self.reasoner;
        let a = self.action_id(text)?;
        if r.is_legal(state, role, a) {
            Ok(a)
        } else {
            Err(NotationError::illegal(text, "not legal for this role here"))
        }
    }

    /// The joint move for `state` given the mover's move: the others play their only
    /// legal action.
    fn fill_joint(&self, state: &GdlState, joint: &mut [u32; MAX_PLAYERS]) {
        let r = &*self.reasoner;
        for (role, slot) in joint.iter_mut().enumerate().take(r.roles().len()) {
            if *slot == u32::MAX {
                *slot = r.nth_legal(state, role, 0).unwrap_or(u32::MAX);
            }
        }
    }
}

impl Game for GdlGame {
    type State = GdlState;
    type Move = GdlMove;

    fn facts(&self) -> &GameFacts {
        &self.facts
    }

    fn initial_state(&self) -> GdlState {
        self.reasoner.initial_state()
    }

    #[inline]
    fn turn(&self, state: &GdlState) -> Turn {
        match state.turn {
            TURN_TERMINAL => Turn::Terminal,
            TURN_SIMULTANEOUS => Turn::Simultaneous,
            p => Turn::Player(Player(p)),
        }
    }

    fn legal_moves(&self, state: &GdlState, out: &mut Vec<GdlMove>) {
        out.clear();
        if let Some(p) = self.reasoner.mover(state) {
            self.legal_moves_of(state, Player(p as u8), out);
        }
    }

    fn legal_moves_of(&self, state: &GdlState, player: Player, out: &mut Vec<GdlMove>) {
        out.clear();
        let ok = match state.turn {
            TURN_TERMINAL => false,
            TURN_SIMULTANEOUS => player.index() < self.reasoner.roles().len(),
            p => p as usize == player.index(),
        };
        if ok {
            let r = &*self.reasoner;
            for k in 0.. {
                match r.nth_legal(state, player.index(), k) {
                    Some(a) => out.push(GdlMove(a)),
                    None => break,
                }
            }
        }
    }

    #[inline]
    fn apply(&self, state: &mut GdlState, mv: GdlMove) {
        let mut joint = [u32::MAX; MAX_PLAYERS];
        let mover = self.reasoner.mover(state).unwrap_or(0);
        joint[mover] = mv.0;
        self.fill_joint(state, &mut joint);
        self.reasoner
            .step(state, &joint[..self.reasoner.roles().len()]);
    }

    fn apply_joint(&self, state: &mut GdlState, moves: &[GdlMove]) {
        let mut joint = [u32::MAX; MAX_PLAYERS];
        match self.reasoner.mover(state) {
            Some(p) => {
                if let Some(m) = moves.get(p) {
                    joint[p] = m.0;
                }
            }
            None => {
                for (slot, m) in joint.iter_mut().zip(moves) {
                    *slot = m.0;
                }
            }
        }
        self.fill_joint(state, &mut joint);
        self.reasoner
            .step(state, &joint[..self.reasoner.roles().len()]);
    }

    fn returns(&self, state: &GdlState) -> Rewards {
        let n = self.reasoner.roles().len();
        let mut v = [0.0; MAX_PLAYERS];
        self.reasoner.rewards(state, &mut v[..n]);
        Rewards::from_slice(&v[..n])
    }

    #[inline]
    fn random_move(
        &self,
        state: &GdlState,
        rng: &mut Rng,
        _buf: &mut Vec<GdlMove>,
    ) -> Option<GdlMove> {
        let r = &*self.reasoner;
        let p = r.mover(state)?;
        let n = r.legal_count(state, p);
        if n == 0 {
            return None;
        }
        r.nth_legal(state, p, rng.below(n)).map(GdlMove)
    }

    fn format_move(&self, _state: &GdlState, mv: GdlMove) -> String {
        self.reasoner.action_text(mv.0).to_string()
    }

    fn parse_move(&self, state: &GdlState, text: &str) -> Result<GdlMove, NotationError> {
        let r = &*self.reasoner;
        let a = self.action_id(text)?;
        let legal = match state.turn {
            TURN_TERMINAL => false,
            TURN_SIMULTANEOUS => (0..r.roles().len()).any(|p| r.is_legal(state, p, a)),
            p => r.is_legal(state, p as usize, a),
        };
        if legal {
            Ok(GdlMove(a))
        } else {
            Err(NotationError::illegal(text, "not legal in this state"))
        }
    }

    fn format_state(&self, state: &GdlState) -> String {
        let r = &*self.reasoner;
        let props: Vec<String> = r
            .true_bases(state)
            .into_iter()
            .filter_map(|b| r.base_term(b).map(|t| r.term_text(&t)))
            .collect();
        format!("({})", props.join(" "))
    }

    fn parse_state(&self, text: &str) -> Result<GdlState, NotationError> {
        let t = text.trim();
        if t.is_empty() {
            return Err(NotationError::Empty { what: "state" });
        }
        let exprs =
            read_sexprs(t).map_err(|e| NotationError::syntax("state", text, e.to_string()))?;
        let expected = "a list of base propositions such as ((cell 1 1 b) (control xplayer))";
        let [SExpr::List(items, _)] = exprs.as_slice() else {
            return Err(NotationError::syntax("state", text, expected));
        };
        let r = &*self.reasoner;
        let mut bases = Vec::with_capacity(items.len());
        for e in items {
            let b = parse_ground_term(&r.description().sheet.symbols, e)
                .and_then(|term| r.base_of(&term))
                .ok_or_else(|| {
                    NotationError::invalid(
                        "state",
                        text,
                        "a proposition that is no base proposition of this game",
                    )
                })?;
            bases.push(b);
        }
        Ok(r.state_from_bases(&bases))
    }

    #[inline]
    fn hash(&self, state: &GdlState) -> u64 {
        state.fast_hash()
    }
}

impl ActionSpace for GdlGame {
    /// Every action term any role can take ([`Reasoner::actions`]).
    fn num_actions(&self) -> usize {
        self.reasoner.action_count()
    }

    /// The index of the move's action term.
    #[inline]
    fn action_index(&self, _: &GdlState, mv: GdlMove) -> usize {
        mv.0 as usize
    }

    /// The action, when `player` has a choice to make here (the mover at a turn-taking
    /// state, any role at a simultaneous one, as [`Game::legal_moves_of`]) and may play it.
    fn action_move(&self, state: &GdlState, player: Player, action: usize) -> Option<GdlMove> {
        let r = &*self.reasoner;
        let moves = match state.turn {
            TURN_TERMINAL => false,
            TURN_SIMULTANEOUS => player.index() < r.roles().len(),
            p => p as usize == player.index(),
        };
        let a = u32::try_from(action).ok()?;
        (moves && action < r.action_count() && r.is_legal(state, player.index(), a))
            .then_some(GdlMove(a))
    }
}

impl yomi_core::search::Evaluator<GdlGame> for MaterialEvaluator {
    fn evaluate(&self, game: &GdlGame, state: &GdlState) -> Rewards {
        if game.is_terminal(state) {
            return game.returns(state);
        }
        game.material().rewards(game, &game.reasoner, state)
    }
}

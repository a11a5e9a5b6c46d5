//! # yomi-ggp
//!
//! General Game Playing for yomi: a reader for GDL rule sheets in KIF syntax
//! ([`parse`]), the checks of the GDL restrictions ([`Description`]), a reference prover
//! kept as the test oracle ([`Prover`]), and a grounded, compiled reasoner
//! ([`Reasoner`]) that makes any valid rule sheet a [`yomi_core::Game`] ([`GdlGame`]), so
//! every core agent plays it. The GGP match protocol: a player served over HTTP
//! ([`player`]), the messages ([`protocol`]) and a match host ([`host`]).
//!
//! ```
//! use yomi_core::{Game, Turn, Player};
//! use yomi_ggp::GdlGame;
//!
//! let game = GdlGame::from_kif("nim", "
//!     (role a) (role b) (init (heap 3)) (init (control a))
//!     (succ 0 1) (succ 1 2) (succ 2 3)
//!     (<= (legal ?p (take ?n)) (true (control ?p)) (true (heap ?h)) (minus ?h ?n ?r))
//!     (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
//!     (<= (minus ?h 1 ?r) (succ ?r ?h))
//!     (<= (minus ?h 2 ?r) (succ ?r ?x) (succ ?x ?h))
//!     (<= (next (heap ?r)) (does ?p (take ?n)) (true (heap ?h)) (minus ?h ?n ?r))
//!     (<= (next (control b)) (true (control a)))
//!     (<= (next (control a)) (true (control b)))
//!     (<= terminal (true (heap 0)))
//!     (<= (goal ?p 100) (true (control ?p)) (true (heap 0)))
//!     (<= (goal ?p 0) (role ?p) (not (true (control ?p))) (true (heap 0)))").unwrap();
//! let mut s = game.initial_state();
//! assert_eq!(game.turn(&s), Turn::Player(Player(0)));
//! let mv = game.parse_move(&s, "(take 1)").unwrap();
//! game.apply(&mut s, mv);
//! assert_eq!(game.format_state(&s), "((control b) (heap 2))");
//! ```
#![warn(missing_docs)]
#![cfg_attr(doctest, doc = include_str!("../README.md"))]

pub mod ast;
pub mod bench;
pub mod check;
pub mod error;
pub mod features;
pub mod fxhash;
pub mod game;
pub mod games;
mod graph;
pub mod ground;
pub mod heuristic;
pub mod host;
pub mod http;
mod lazy;
pub mod parse;
pub mod player;
pub mod protocol;
pub mod prover;
pub mod reasoner;
pub mod server;
mod split;
pub mod trial;
pub mod validate;

pub use ast::{Atom, Literal, Pos, Rule, RuleSheet, Sym, Symbols, Term};
pub use error::{GdlError, RuleError};
pub use game::{GdlGame, GdlMove};
pub use parse::parse;
pub use prover::{Prover, ProverState};
pub use reasoner::{GdlState, Hoisting, Reasoner, ReasonerStats};
pub use validate::Description;

/// The agents for GDL games: the core agents (MCTS, flat Monte Carlo, alpha-beta, random,
/// ...), which play any rule sheet through [`GdlGame`], and core's evaluators with
/// `material` ([`heuristic`]) for `eval=`.
pub fn registry() -> yomi_core::registry::AgentRegistry<GdlGame> {
    let mut r = yomi_core::registry::AgentRegistry::with_core_agents();
    r.add_evaluator(
        "material",
        "pieces per role (base propositions naming the role), used where random games show \
         that a lead in pieces goes with a better goal, else neutral",
        std::sync::Arc::new(heuristic::MaterialEvaluator),
    );
    r
}

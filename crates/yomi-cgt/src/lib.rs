//! # yomi-cgt
//!
//! Short combinatorial games (Conway, *On Numbers and Games*; Berlekamp, Conway and Guy,
//! *Winning Ways*; Siegel, *Combinatorial Game Theory*): the values behind endgame
//! analyses such as the Go "difference game" paper (seed 004), where a board is a sum
//! `G = H₁ + H₂ + …` of independent regions.
//!
//! * [`Cgt`]: a short game `{L | R}` — numbers (dyadic rationals, [`Dyadic`]), `*n`,
//!   `↑`/`↓`, switches `{a | b}`, any form built from options.
//! * Canonical form (dominated options deleted, reversible options bypassed), equality and
//!   the partial order (`<`, `=`, `>`, `‖`) by the recursive definition, disjunctive sums
//!   and negation, recognition of numbers (simplest number between) and nimbers.
//! * Stops, thermographs ([`Thermograph`], scaffolds and masts, `t ≥ −1`), mean and
//!   temperature, Conway's cooling [`Cgt::cool`] and heating [`Cgt::heat`].
//! * [`Cgt::from_positions`]: the value of any game tree (a Go endgame region searched by
//!   a game crate), with transpositions memoised and cycles (ko) refused.
//! * The standard notation both ways ([`parse`]): `"{2|-1}".parse::<Cgt>()`, and
//!   `Display` prints the canonical form.
//!
//! ```
//! use yomi_cgt::{Cgt, Dyadic, Relation};
//!
//! let g: Cgt = "{2|-1}".parse().unwrap();
//! assert_eq!(g.mean(), Dyadic::HALF);
//! assert_eq!(g.temperature(), Dyadic::new(3, 1)); // 3/2
//!
//! let h: Cgt = "{1|0}".parse().unwrap();
//! assert_eq!(h.cool(Dyadic::ONE), Cgt::number(Dyadic::HALF)); // Cool({1|0}, 1) = 1/2
//!
//! let up: Cgt = "{0|*}".parse().unwrap();
//! assert_eq!(up.to_string(), "↑");
//! assert_eq!(up.relation(Cgt::star()), Relation::Confused); // ↑ ‖ *
//! assert_eq!(Cgt::star() + Cgt::star(), Cgt::zero());
//! let f: Cgt = "{1,*|0}".parse().unwrap();
//! assert_eq!(f.to_string(), "{1|0}"); // * < 1: a dominated left option
//! assert_eq!("{0,*|0}".parse::<Cgt>().unwrap().to_string(), "↑*");
//! ```
//!
//! ## Representation: one hash-consed store, `Copy` handles
//!
//! Every game form lives once in a process-wide arena; a [`Cgt`] is its 4-byte index.
//! Forms are hash-consed (options kept as sorted sets of indices), so a game tree is a
//! DAG whose shared subpositions are stored once, and every derived fact is memoised by
//! index: canonical form, `≤` for pairs, sums, negations, stops, thermographs, cooled and
//! heated values. Canonical forms are unique, so once two games are canonicalised their
//! equality is an index comparison and sums of canonical forms are cached across
//! computations — this is what makes `G + H` cheap when `G` and `H` share subgames, as
//! sums of board regions do.
//!
//! Why not `Rc` trees or an explicit arena argument? `Rc` trees give no sharing between
//! independently built equal subgames and no place for pair memos (`≤`, `+`); an explicit
//! arena makes every `+`, `-` and comparison take a context and rules out operators. The
//! global store keeps values `Copy + Send + Sync` with ordinary operators, at two costs,
//! both acceptable for short games: one mutex serialises threads (each public call takes
//! it once), and game forms are kept until [`clear_store`] drops them all
//! ([`Cgt::store_size`] reports the node count). The memo tables are bounded
//! ([`set_memo_limit`]); a long-lived process (a server, a fuzzing harness) calls
//! [`clear_store`] between independent analyses, after which a handle made before is
//! refused with a panic, never read as another game.
//!
//! ## Conventions
//!
//! Left is Black in Go, positive values favour Left. Temperatures follow Siegel: the
//! thermograph is drawn for `t ≥ −1`, integers have temperature −1, `m/2^k` −1/2^k,
//! infinitesimals 0. Cooling is Conway's: `Cool(G, t)` is `{G^L_t − t | G^R_t + t}` up to
//! and including `t = t(G)`, and the mean above it, so `Cool({1|0}, 1/2) = 1/2*` and
//! `Cool({1|0}, 1) = 1/2`.
#![warn(missing_docs)]

/// The README's example runs as a doctest.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

pub mod budget;
pub mod build;
pub mod dyadic;
pub mod game;
pub mod parse;
mod store;
pub mod thermograph;

pub use budget::{with_work_limit, WorkLimitExceeded};
pub use build::{CycleError, Local};
pub use dyadic::Dyadic;
pub use game::{
    clear_store, set_memo_limit, Cgt, FormDisplay, Outcome, Relation, DEFAULT_MEMO_LIMIT,
};
pub use parse::{ParseError, ParseErrorKind};
pub use thermograph::{Piece, Thermograph, Trajectory};

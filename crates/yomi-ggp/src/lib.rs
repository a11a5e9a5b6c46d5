//! # yomi-ggp
//!
//! General Game Playing for yomi: a reader for GDL rule sheets in KIF syntax, the checks of
//! the GDL restrictions, a reference prover kept as the test oracle, and a grounded fast
//! reasoner that turns any valid rule sheet into a [`yomi_core::Game`].
#![warn(missing_docs)]

pub mod ast;
pub mod error;
pub mod parse;
pub mod prover;
pub mod validate;

pub use ast::{Atom, Literal, Pos, Rule, RuleSheet, Sym, Symbols, Term};
pub use error::{GdlError, RuleError};
pub use parse::parse;
pub use prover::{Prover, ProverState};
pub use validate::Description;

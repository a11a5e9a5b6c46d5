//! Errors of reading, checking and compiling a rule sheet. Each names where it happened (line
//! and column) and, for rule errors, the rule as text.

use thiserror::Error;

use crate::ast::Pos;

/// Why a rule sheet was rejected.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GdlError {
    /// The text is not well-formed KIF (parentheses, tokens, sentence shapes).
    #[error("{pos}: syntax error: {message}")]
    Syntax {
        /// Where.
        pos: Pos,
        /// What is wrong.
        message: String,
    },
    /// A rule breaks one of the GDL restrictions (safety, stratification, recursion,
    /// arity, keyword use).
    #[error("{pos}: rule {rule}: {kind}")]
    Rule {
        /// Where the rule starts.
        pos: Pos,
        /// The rule, printed as KIF.
        rule: String,
        /// Which restriction it breaks.
        kind: RuleError,
    },
    /// The game as a whole is unusable (no roles, no initial state, too large to ground).
    #[error("game: {0}")]
    Game(String),
}

/// The GDL restriction a rule breaks.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RuleError {
    /// A variable of the head, of a negated literal or of a `distinct` does not occur in a
    /// positive body literal.
    #[error("unsafe variable ?{var}: it occurs {place} but in no positive body literal")]
    Unsafe {
        /// The variable (without `?`).
        var: String,
        /// Where it occurs ("in the head", "in a negated literal", "in distinct").
        place: &'static str,
    },
    /// Negation inside a recursive cycle.
    #[error("negation is not stratified: {relation} depends negatively on itself through {cycle}")]
    Unstratified {
        /// The negated relation.
        relation: String,
        /// The relations of the cycle.
        cycle: String,
    },
    /// A recursive body literal has an argument that is not ground, not a head argument and
    /// not bound by a non-recursive positive literal.
    #[error("breaks the recursion restriction: argument {arg} of recursive literal {literal} is not ground, not a head argument and not bound by a non-recursive positive literal")]
    Recursion {
        /// The literal, as text.
        literal: String,
        /// The argument, as text.
        arg: String,
    },
    /// A relation or function constant used with two different arities.
    #[error("{what} {name} has {found} argument(s) here but {expected} elsewhere ({first})")]
    Arity {
        /// "relation" or "function".
        what: &'static str,
        /// The symbol.
        name: String,
        /// The arity seen first.
        expected: usize,
        /// The arity seen here.
        found: usize,
        /// Where it was first seen.
        first: Pos,
    },
    /// A keyword used where GDL forbids it (`true`/`does` in a head, `init` depending on
    /// the state, `legal` depending on `does`, a `role` rule with a body, wrong keyword arity).
    #[error("{0}")]
    Keyword(String),
}

impl GdlError {
    /// The position the error names, if any.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            GdlError::Syntax { pos, .. } | GdlError::Rule { pos, .. } => Some(*pos),
            GdlError::Game(_) => None,
        }
    }
}

//! The rule sheet as data: interned symbols, terms, literals and rules, and their printing
//! back to KIF.
//!
//! Symbols are matched case-insensitively (the interner keys on the lower-case spelling);
//! each symbol keeps the spelling it was first seen with for printing, so moves go back to a
//! game server spelled as the rule sheet spells them.

use std::collections::HashMap;
use std::fmt::{self, Write};

/// An interned symbol (a relation, function or object constant). Compare symbols, not strings.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Sym(pub u32);

/// The GDL keywords, interned first so their ids are fixed.
pub mod kw {
    use super::Sym;
    /// `role`
    pub const ROLE: Sym = Sym(0);
    /// `init`
    pub const INIT: Sym = Sym(1);
    /// `true`
    pub const TRUE: Sym = Sym(2);
    /// `next`
    pub const NEXT: Sym = Sym(3);
    /// `legal`
    pub const LEGAL: Sym = Sym(4);
    /// `does`
    pub const DOES: Sym = Sym(5);
    /// `goal`
    pub const GOAL: Sym = Sym(6);
    /// `terminal`
    pub const TERMINAL: Sym = Sym(7);
    /// `distinct`
    pub const DISTINCT: Sym = Sym(8);
    /// `not`
    pub const NOT: Sym = Sym(9);
    /// `or`
    pub const OR: Sym = Sym(10);
    /// `base`
    pub const BASE: Sym = Sym(11);
    /// `input`
    pub const INPUT: Sym = Sym(12);
    /// `<=`
    pub const IMPLIES: Sym = Sym(13);
    /// The keywords in id order.
    pub const NAMES: [&str; 14] = [
        "role", "init", "true", "next", "legal", "does", "goal", "terminal", "distinct", "not",
        "or", "base", "input", "<=",
    ];
}

/// The symbol interner: case-insensitive lookup, first spelling kept for printing.
#[derive(Clone, Debug)]
pub struct Symbols {
    names: Vec<String>,
    index: HashMap<String, Sym>,
}

impl Default for Symbols {
    fn default() -> Self {
        Self::new()
    }
}

impl Symbols {
    /// An interner holding the GDL keywords.
    pub fn new() -> Self {
        let mut s = Symbols {
            names: Vec::new(),
            index: HashMap::new(),
        };
        for k in kw::NAMES {
            s.intern(k);
        }
        s
    }

    /// The symbol spelled `name` (any case), interned on first use.
    pub fn intern(&mut self, name: &str) -> Sym {
        let key = name.to_lowercase();
        if let Some(&s) = self.index.get(&key) {
            return s;
        }
        let s = Sym(self.names.len() as u32);
        self.names.push(name.to_string());
        self.index.insert(key, s);
        s
    }

    /// The symbol spelled `name` (any case), if it was interned.
    pub fn get(&self, name: &str) -> Option<Sym> {
        self.index.get(&name.to_lowercase()).copied()
    }

    /// The printed name of `s` (its first spelling).
    pub fn name(&self, s: Sym) -> &str {
        self.names
            .get(s.0 as usize)
            .map_or("?unknown", |n| n.as_str())
    }

    /// How many symbols are interned.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// True when nothing but the keywords is interned.
    pub fn is_empty(&self) -> bool {
        self.names.len() <= kw::NAMES.len()
    }
}

/// A term: an object constant, a variable (numbered within its rule) or a function term.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Term {
    /// An object constant.
    Sym(Sym),
    /// A variable, by its index in [`Rule::var_names`].
    Var(u32),
    /// A function term `(f t1 ... tn)`, n ≥ 1.
    Fn(Sym, Vec<Term>),
}

impl Term {
    /// True when the term holds no variable.
    pub fn is_ground(&self) -> bool {
        match self {
            Term::Sym(_) => true,
            Term::Var(_) => false,
            Term::Fn(_, args) => args.iter().all(Term::is_ground),
        }
    }

    /// Calls `f` on every variable of the term.
    pub fn for_each_var(&self, f: &mut impl FnMut(u32)) {
        match self {
            Term::Sym(_) => {}
            Term::Var(v) => f(*v),
            Term::Fn(_, args) => args.iter().for_each(|a| a.for_each_var(f)),
        }
    }

    /// Nesting depth (a constant or variable has depth 1).
    pub fn depth(&self) -> usize {
        match self {
            Term::Fn(_, args) => 1 + args.iter().map(Term::depth).max().unwrap_or(0),
            _ => 1,
        }
    }
}

/// An atomic sentence `(r t1 ... tn)` or a proposition `r` (n = 0).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Atom {
    /// The relation constant.
    pub rel: Sym,
    /// The arguments.
    pub args: Vec<Term>,
}

impl Atom {
    /// Calls `f` on every variable of the atom.
    pub fn for_each_var(&self, f: &mut impl FnMut(u32)) {
        self.args.iter().for_each(|a| a.for_each_var(f));
    }
}

/// A body literal as written.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Literal {
    /// A positive atom.
    Atom(Atom),
    /// `(not L)`.
    Not(Box<Literal>),
    /// `(distinct t1 t2)`.
    Distinct(Term, Term),
    /// `(or L1 ... Ln)`.
    Or(Vec<Literal>),
}

/// A rule `(<= head body...)`, or a fact when the body is empty.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The head.
    pub head: Atom,
    /// The body literals, in order.
    pub body: Vec<Literal>,
    /// Variable names (without `?`), indexed by [`Term::Var`].
    pub var_names: Vec<String>,
    /// Where the rule starts in the source.
    pub pos: Pos,
    /// True when written as `(<= head)` with no body, rather than a bare fact.
    pub explicit_rule: bool,
}

impl PartialEq for Rule {
    /// Rules are equal when they say the same thing; source positions and the spelling
    /// (`(<= h)` versus `h`) are ignored.
    fn eq(&self, other: &Self) -> bool {
        self.head == other.head && self.body == other.body && self.var_names == other.var_names
    }
}

/// A line and column in the source, both from 1.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
pub struct Pos {
    /// Line, from 1.
    pub line: u32,
    /// Column (in characters), from 1.
    pub col: u32,
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.col)
    }
}

/// A parsed rule sheet: its symbols and rules in source order.
#[derive(Clone, Debug)]
pub struct RuleSheet {
    /// The symbols.
    pub symbols: Symbols,
    /// The rules and facts.
    pub rules: Vec<Rule>,
}

impl RuleSheet {
    /// The rule sheet as KIF text, one rule per line; [`crate::parse`] reads it back to equal
    /// rules.
    pub fn to_kif(&self) -> String {
        let mut out = String::new();
        for r in &self.rules {
            self.write_rule(&mut out, r);
            out.push('\n');
        }
        out
    }

    /// One rule as KIF text.
    pub fn rule_text(&self, r: &Rule) -> String {
        let mut out = String::new();
        self.write_rule(&mut out, r);
        out
    }

    fn write_rule(&self, out: &mut String, r: &Rule) {
        if r.body.is_empty() && !r.explicit_rule {
            self.write_atom(out, r, &r.head);
            return;
        }
        out.push_str("(<= ");
        self.write_atom(out, r, &r.head);
        for l in &r.body {
            out.push(' ');
            self.write_literal(out, r, l);
        }
        out.push(')');
    }

    fn write_literal(&self, out: &mut String, r: &Rule, l: &Literal) {
        match l {
            Literal::Atom(a) => self.write_atom(out, r, a),
            Literal::Not(inner) => {
                out.push_str("(not ");
                self.write_literal(out, r, inner);
                out.push(')');
            }
            Literal::Distinct(a, b) => {
                out.push_str("(distinct ");
                self.write_term(out, r, a);
                out.push(' ');
                self.write_term(out, r, b);
                out.push(')');
            }
            Literal::Or(ls) => {
                out.push_str("(or");
                for l in ls {
                    out.push(' ');
                    self.write_literal(out, r, l);
                }
                out.push(')');
            }
        }
    }

    fn write_atom(&self, out: &mut String, r: &Rule, a: &Atom) {
        if a.args.is_empty() {
            out.push_str(self.symbols.name(a.rel));
            return;
        }
        out.push('(');
        out.push_str(self.symbols.name(a.rel));
        for t in &a.args {
            out.push(' ');
            self.write_term(out, r, t);
        }
        out.push(')');
    }

    fn write_term(&self, out: &mut String, r: &Rule, t: &Term) {
        match t {
            Term::Sym(s) => out.push_str(self.symbols.name(*s)),
            Term::Var(v) => {
                let _ = write!(
                    out,
                    "?{}",
                    r.var_names.get(*v as usize).map_or("", |s| s.as_str())
                );
            }
            Term::Fn(f, args) => {
                out.push('(');
                out.push_str(self.symbols.name(*f));
                for a in args {
                    out.push(' ');
                    self.write_term(out, r, a);
                }
                out.push(')');
            }
        }
    }
}

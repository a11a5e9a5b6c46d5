//! The KIF reader: text to [`RuleSheet`]. Never panics; nesting is bounded so hostile input
//! cannot overflow the stack.

use std::collections::HashMap;

use crate::ast::{kw, Atom, Literal, Pos, Rule, RuleSheet, Sym, Symbols, Term};
use crate::error::GdlError;

/// The deepest nesting of parentheses accepted.
pub const MAX_DEPTH: usize = 100;

/// The most literals one rule body may have (every stage after reading is linear in the
/// body length, but each ground instance of a rule copies its body: see
/// [`crate::ground::MAX_GROUND_LITERALS`] for the bound on their total).
pub const MAX_BODY_LITERALS: usize = 100_000;

/// An S-expression with positions.
#[derive(Clone, Debug, PartialEq)]
pub enum SExpr {
    /// A token that is not a parenthesis.
    Token(String, Pos),
    /// A parenthesised list.
    List(Vec<SExpr>, Pos),
}

impl SExpr {
    /// Where the expression starts.
    pub fn pos(&self) -> Pos {
        match self {
            SExpr::Token(_, p) | SExpr::List(_, p) => *p,
        }
    }
}

/// Reads KIF text as a list of S-expressions (`;` starts a comment to the end of the line).
///
/// # Errors
/// [`GdlError::Syntax`] for unbalanced parentheses or nesting deeper than [`MAX_DEPTH`].
pub fn read_sexprs(text: &str) -> Result<Vec<SExpr>, GdlError> {
    let mut stack: Vec<(Vec<SExpr>, Pos)> = Vec::new();
    let mut top: Vec<SExpr> = Vec::new();
    let mut line = 1u32;
    let mut col = 0u32;
    let mut chars = text.chars().peekable();
    let mut token = String::new();
    let mut token_pos = Pos::default();
    fn flush(token: &mut String, pos: Pos, stack: &mut [(Vec<SExpr>, Pos)], top: &mut Vec<SExpr>) {
        if !token.is_empty() {
            let t = SExpr::Token(std::mem::take(token), pos);
            match stack.last_mut() {
                Some((items, _)) => items.push(t),
                None => top.push(t),
            }
        }
    }
    while let Some(c) = chars.next() {
        col += 1;
        let here = Pos { line, col };
        match c {
            '\n' => {
                flush(&mut token, token_pos, &mut stack, &mut top);
                line += 1;
                col = 0;
            }
            ';' => {
                flush(&mut token, token_pos, &mut stack, &mut top);
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        col = 0;
                        break;
                    }
                }
            }
            '(' => {
                flush(&mut token, token_pos, &mut stack, &mut top);
                if stack.len() >= MAX_DEPTH {
                    return Err(GdlError::Syntax {
                        pos: here,
                        message: format!("parentheses nested deeper than {MAX_DEPTH}"),
                    });
                }
                stack.push((Vec::new(), here));
            }
            ')' => {
                flush(&mut token, token_pos, &mut stack, &mut top);
                let Some((items, pos)) = stack.pop() else {
                    return Err(GdlError::Syntax {
                        pos: here,
                        message: "unmatched ')'".into(),
                    });
                };
                let l = SExpr::List(items, pos);
                match stack.last_mut() {
                    Some((items, _)) => items.push(l),
                    None => top.push(l),
                }
            }
            c if c.is_whitespace() => flush(&mut token, token_pos, &mut stack, &mut top),
            c if c.is_control() => {
                return Err(GdlError::Syntax {
                    pos: here,
                    message: format!("unexpected control character {c:?}"),
                })
            }
            c => {
                if token.is_empty() {
                    token_pos = here;
                }
                token.push(c);
            }
        }
    }
    flush(&mut token, token_pos, &mut stack, &mut top);
    if let Some((_, pos)) = stack.last() {
        return Err(GdlError::Syntax {
            pos: *pos,
            message: "'(' is never closed".into(),
        });
    }
    Ok(top)
}

/// Parses a KIF rule sheet. Symbols are case-insensitive; `base` and `input` are accepted
/// as ordinary relations (the reasoner computes its own). The result is syntactically
/// well-formed but not yet checked against the GDL restrictions: see [`crate::validate`]
/// (or use [`crate::Description::from_kif`], which does both).
///
/// # Errors
/// [`GdlError::Syntax`] with the line and column of the first problem.
pub fn parse(text: &str) -> Result<RuleSheet, GdlError> {
    let exprs = read_sexprs(text)?;
    let mut symbols = Symbols::new();
    let mut rules = Vec::with_capacity(exprs.len());
    for e in &exprs {
        rules.push(rule_from_sexpr(&mut symbols, e)?);
    }
    Ok(RuleSheet { symbols, rules })
}

struct Ctx<'a> {
    symbols: &'a mut Symbols,
    vars: HashMap<String, u32>,
    var_names: Vec<String>,
}

fn syntax(pos: Pos, message: impl Into<String>) -> GdlError {
    GdlError::Syntax {
        pos,
        message: message.into(),
    }
}

fn rule_from_sexpr(symbols: &mut Symbols, e: &SExpr) -> Result<Rule, GdlError> {
    let mut ctx = Ctx {
        symbols,
        vars: HashMap::new(),
        var_names: Vec::new(),
    };
    let pos = e.pos();
    if let SExpr::List(items, _) = e {
        if let Some(SExpr::Token(t, _)) = items.first() {
            if t == "<=" {
                let Some(head) = items.get(1) else {
                    return Err(syntax(pos, "a rule (<= ...) needs a head"));
                };
                let head = ctx.sentence(head)?;
                if items.len() - 2 > MAX_BODY_LITERALS {
                    return Err(syntax(
                        pos,
                        format!(
                            "a rule body of {} literals (at most {MAX_BODY_LITERALS} are accepted)",
                            items.len() - 2
                        ),
                    ));
                }
                let body = items[2..]
                    .iter()
                    .map(|l| ctx.literal(l))
                    .collect::<Result<Vec<_>, _>>()?;
                return Ok(Rule {
                    head,
                    body,
                    var_names: ctx.var_names,
                    pos,
                    explicit_rule: true,
                });
            }
        }
    }
    let head = ctx.sentence(e)?;
    Ok(Rule {
        head,
        body: Vec::new(),
        var_names: ctx.var_names,
        pos,
        explicit_rule: false,
    })
}

fn is_var(t: &str) -> bool {
    t.starts_with('?')
}

impl Ctx<'_> {
    fn constant(&mut self, t: &str, pos: Pos, what: &str) -> Result<Sym, GdlError> {
        if is_var(t) {
            return Err(syntax(pos, format!("{what} expected, found variable {t}")));
        }
        if t == "<=" {
            return Err(syntax(pos, format!("{what} expected, found '<='")));
        }
        Ok(self.symbols.intern(t))
    }

    fn relation(&mut self, t: &str, pos: Pos) -> Result<Sym, GdlError> {
        let s = self.constant(t, pos, "a relation constant")?;
        if s == kw::NOT || s == kw::OR || s == kw::DISTINCT {
            return Err(syntax(
                pos,
                format!("'{t}' cannot be used as a sentence here"),
            ));
        }
        Ok(s)
    }

    fn sentence(&mut self, e: &SExpr) -> Result<Atom, GdlError> {
        match e {
            SExpr::Token(t, pos) => Ok(Atom {
                rel: self.relation(t, *pos)?,
                args: Vec::new(),
            }),
            SExpr::List(items, pos) => {
                let Some(first) = items.first() else {
                    return Err(syntax(*pos, "empty list '()' is not a sentence"));
                };
                let SExpr::Token(name, npos) = first else {
                    return Err(syntax(
                        first.pos(),
                        "a sentence starts with a relation constant, not a list",
                    ));
                };
                let rel = self.relation(name, *npos)?;
                let args = items[1..]
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Atom { rel, args })
            }
        }
    }

    fn term(&mut self, e: &SExpr) -> Result<Term, GdlError> {
        match e {
            SExpr::Token(t, pos) => {
                if let Some(name) = t.strip_prefix('?') {
                    if name.is_empty() {
                        return Err(syntax(*pos, "a variable needs a name after '?'"));
                    }
                    let key = name.to_lowercase();
                    if let Some(&v) = self.vars.get(&key) {
                        return Ok(Term::Var(v));
                    }
                    let v = self.var_names.len() as u32;
                    self.vars.insert(key, v);
                    self.var_names.push(name.to_string());
                    Ok(Term::Var(v))
                } else {
                    Ok(Term::Sym(self.constant(t, *pos, "a term")?))
                }
            }
            SExpr::List(items, pos) => {
                let Some(first) = items.first() else {
                    return Err(syntax(*pos, "empty list '()' is not a term"));
                };
                let SExpr::Token(name, npos) = first else {
                    return Err(syntax(
                        first.pos(),
                        "a function term starts with a function constant, not a list",
                    ));
                };
                let f = self.constant(name, *npos, "a function constant")?;
                if items.len() == 1 {
                    // `(f)` is read as the constant `f`, as ggp-base does.
                    return Ok(Term::Sym(f));
                }
                let args = items[1..]
                    .iter()
                    .map(|a| self.term(a))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Term::Fn(f, args))
            }
        }
    }

    fn literal(&mut self, e: &SExpr) -> Result<Literal, GdlError> {
        if let SExpr::List(items, pos) = e {
            if let Some(SExpr::Token(name, _)) = items.first() {
                let key = name.to_lowercase();
                match key.as_str() {
                    "not" => {
                        if items.len() != 2 {
                            return Err(syntax(*pos, "(not L) takes exactly one literal"));
                        }
                        return Ok(Literal::Not(Box::new(self.literal(&items[1])?)));
                    }
                    "distinct" => {
                        if items.len() != 3 {
                            return Err(syntax(*pos, "(distinct t1 t2) takes exactly two terms"));
                        }
                        return Ok(Literal::Distinct(
                            self.term(&items[1])?,
                            self.term(&items[2])?,
                        ));
                    }
                    "or" => {
                        if items.len() < 2 {
                            return Err(syntax(*pos, "(or L1 ... Ln) needs at least one literal"));
                        }
                        return Ok(Literal::Or(
                            items[1..]
                                .iter()
                                .map(|l| self.literal(l))
                                .collect::<Result<Vec<_>, _>>()?,
                        ));
                    }
                    _ => {}
                }
            }
        }
        Ok(Literal::Atom(self.sentence(e)?))
    }
}

/// Parses one ground term (a move such as `(mark 1 1)` or a proposition) against an
/// existing symbol table without adding symbols; `None` when the text is not a ground term
/// over known symbols.
pub fn parse_ground_term(symbols: &Symbols, e: &SExpr) -> Option<Term> {
    match e {
        SExpr::Token(t, _) => {
            if is_var(t) {
                return None;
            }
            symbols.get(t).map(Term::Sym)
        }
        SExpr::List(items, _) => {
            let SExpr::Token(name, _) = items.first()? else {
                return None;
            };
            if is_var(name) {
                return None;
            }
            let f = symbols.get(name)?;
            if items.len() == 1 {
                return Some(Term::Sym(f));
            }
            let args = items[1..]
                .iter()
                .map(|a| parse_ground_term(symbols, a))
                .collect::<Option<Vec<_>>>()?;
            Some(Term::Fn(f, args))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_rules_facts_and_comments() {
        let s =
            parse("; c\n(role X) (<= (Legal ?P (mark ?x)) (TRUE (cell ?x b)) (role ?p))\nterminal")
                .unwrap();
        assert_eq!(s.rules.len(), 3);
        assert_eq!(s.rules[0].head.rel, kw::ROLE);
        assert_eq!(s.rules[1].head.rel, kw::LEGAL);
        assert_eq!(s.rules[1].var_names, vec!["P".to_string(), "x".to_string()]);
        assert_eq!(s.rules[1].pos, Pos { line: 2, col: 10 });
        assert_eq!(
            s.to_kif(),
            "(role X)\n(<= (legal ?P (mark ?x)) (true (cell ?x b)) (role ?P))\nterminal\n"
        );
    }

    #[test]
    fn errors_have_positions() {
        let e = parse("(role a)\n  (init (p)").unwrap_err();
        assert_eq!(e.pos(), Some(Pos { line: 2, col: 3 }));
        let e = parse("(role a))").unwrap_err();
        assert_eq!(e.pos(), Some(Pos { line: 1, col: 9 }));
        assert!(parse("(<= )").is_err());
        assert!(parse("(?x a)").is_err());
        assert!(parse("(<= p (not))").is_err());
        assert!(parse(&"(".repeat(100_000)).is_err());
    }
}

//! Checking a rule sheet against the GDL restrictions, and the checked form every reasoner
//! works from ([`Description`]): rules with `or` expanded and `not` pushed onto atoms, the
//! roles, and the relations in dependency order.
//!
//! The checks (Love et al., *General Game Playing: Game Description Language
//! Specification*, 2008): keyword arities and placement (`true`/`does` never in a head,
//! `role` only as ground facts, `init` independent of the state, `legal`/`goal`/`terminal`
//! independent of `does`); one arity per relation and per function constant; safety (every
//! variable of the head, of a negated literal and of a `distinct` occurs in a positive body
//! literal); stratified negation; the recursion restriction. Each error names the rule.
//!
//! Two conventions of ggp-base are kept so its test cases load: a rule whose relation nothing
//! the game needs depends on is dropped with a warning (ggp-base's `test_case_3b` has an
//! unsafe one), and an unbound role variable in the head of `legal`, `goal` or `input`
//! ranges over the roles (`test_case_3e`: `(<= (legal ?p ?p) (cell 1 1))`).

use std::collections::{HashMap, HashSet};

use crate::ast::{kw, Atom, Literal, Pos, RuleSheet, Sym, Term};
use crate::error::{GdlError, RuleError};
use crate::parse::parse;

/// The most rules one source rule may expand into when its `or`s are multiplied out.
pub const MAX_EXPANSION: usize = 4096;

/// A body literal after normalisation.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum NLit {
    /// A positive atom.
    Pos(Atom),
    /// A negated atom.
    Neg(Atom),
    /// `(distinct a b)`: the terms differ.
    Distinct(Term, Term),
    /// `(not (distinct a b))`: the terms are equal.
    Same(Term, Term),
}

/// A rule after normalisation: a conjunctive body without `or`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct NRule {
    /// The head.
    pub head: Atom,
    /// The body.
    pub body: Vec<NLit>,
    /// How many variables the rule has (variables are numbered `0..vars`).
    pub vars: u32,
    /// The index of the source rule in [`RuleSheet::rules`].
    pub source: usize,
}

/// A checked game description: the input of the reasoners.
#[derive(Clone, Debug)]
pub struct Description {
    /// The rule sheet as parsed (for printing and error messages).
    pub sheet: RuleSheet,
    /// The normalised rules.
    pub rules: Vec<NRule>,
    /// The roles, in the order the rule sheet declares them.
    pub roles: Vec<Term>,
    /// Strongly connected components of the relation dependency graph, each relation after
    /// everything it depends on (`true` and `does` are inputs and are not listed).
    pub sccs: Vec<Vec<Sym>>,
    /// The component of each relation in `sccs`.
    pub scc_of: HashMap<Sym, usize>,
    /// Notes about accepted oddities (rules dropped because nothing the game needs uses
    /// them).
    pub warnings: Vec<String>,
    /// Relations of components with negation inside (not stratified by relation): they
    /// are grounded like dynamic relations and the ground rules must be stratified.
    pub unstratified: HashSet<Sym>,
}

impl Description {
    /// Parses and checks a KIF rule sheet.
    ///
    /// # Errors
    /// [`GdlError`] naming the line, column and rule of the first problem.
    pub fn from_kif(text: &str) -> Result<Self, GdlError> {
        Self::from_sheet(parse(text)?)
    }

    /// Checks a parsed rule sheet.
    ///
    /// # Errors
    /// [`GdlError::Rule`] for the first rule that breaks a GDL restriction;
    /// [`GdlError::Game`] when there are no roles.
    pub fn from_sheet(sheet: RuleSheet) -> Result<Self, GdlError> {
        let err = |i: usize, kind: RuleError| GdlError::Rule {
            pos: sheet.rules[i].pos,
            rule: sheet.rule_text(&sheet.rules[i]),
            kind,
        };
        check_arities(&sheet, &err)?;
        let relevant = relevant_relations(&sheet);
        let mut rules = Vec::new();
        let mut roles = Vec::new();
        let mut warnings = Vec::new();
        for (i, r) in sheet.rules.iter().enumerate() {
            let h = r.head.rel;
            if !relevant.contains(&h) && h != kw::TRUE && h != kw::DOES {
                if !r.body.is_empty() {
                    warnings.push(format!(
                        "{}: rule {} is unused (its relation '{}' does not influence the game): dropped",
                        r.pos,
                        sheet.rule_text(r),
                        sheet.symbols.name(h)
                    ));
                }
                continue;
            }
            if h == kw::TRUE || h == kw::DOES {
                return Err(err(
                    i,
                    RuleError::Keyword(format!(
                        "'{}' cannot be the head of a rule",
                        sheet.symbols.name(h)
                    )),
                ));
            }
            if h == kw::ROLE {
                if !r.body.is_empty() || !r.head.args.iter().all(Term::is_ground) {
                    return Err(err(
                        i,
                        RuleError::Keyword("roles must be ground facts".into()),
                    ));
                }
                if !roles.contains(&r.head.args[0]) {
                    roles.push(r.head.args[0].clone());
                }
            }
            let mut bodies: Vec<Vec<NLit>> = vec![Vec::new()];
            for l in &r.body {
                let mut alts = dnf(l, false);
                if alts.len() == 1 {
                    // No `or`: extend every body in place (copying the bodies built so far
                    // for each literal made long bodies quadratic).
                    let alt = alts.pop().unwrap_or_default();
                    for b in &mut bodies {
                        b.extend(alt.iter().cloned());
                    }
                    continue;
                }
                let mut next = Vec::with_capacity(bodies.len() * alts.len());
                for b in &bodies {
                    for a in &alts {
                        let mut nb = b.clone();
                        nb.extend(a.iter().cloned());
                        next.push(nb);
                    }
                }
                if next.len() > MAX_EXPANSION {
                    return Err(err(
                        i,
                        RuleError::Keyword(format!(
                            "expanding its 'or's gives more than {MAX_EXPANSION} rules"
                        )),
                    ));
                }
                bodies = next;
            }
            for mut body in bodies {
                // ggp-base's convention: a role variable of a `legal`/`goal`/`input` head
                // that the body does not bind ranges over the roles.
                if matches!(h, kw::LEGAL | kw::GOAL | kw::INPUT) {
                    if let Some(Term::Var(v)) = r.head.args.first() {
                        let mut bound = false;
                        for l in &body {
                            if let NLit::Pos(a) = l {
                                a.for_each_var(&mut |w| bound |= w == *v);
                            }
                        }
                        if !bound {
                            body.push(NLit::Pos(Atom {
                                rel: kw::ROLE,
                                args: vec![Term::Var(*v)],
                            }));
                        }
                    }
                }
                let nr = NRule {
                    head: r.head.clone(),
                    body,
                    vars: r.var_names.len() as u32,
                    source: i,
                };
                if let Some((var, place)) = unsafe_var(&nr) {
                    return Err(err(
                        i,
                        RuleError::Unsafe {
                            var: r.var_names[var as usize].clone(),
                            place,
                        },
                    ));
                }
                rules.push(nr);
            }
        }
        if roles.is_empty() {
            return Err(GdlError::Game("the rule sheet declares no role".into()));
        }
        let (sccs, scc_of) = components(&rules);
        // Stratification: no negative edge inside a component of relations. A component
        // with one is not refused yet: negation may still be stratified between its ground
        // atoms (`(<= (goal ?r 0) (role ?r) (not (goal ?r 100)))` reads another atom of
        // `goal`), which the grounded reasoner checks. Its relations are grounded like
        // dynamic ones (`crate::ground::dynamic_relations`); `init` and `role` must be
        // plain facts, so a component holding them is refused here.
        let mut unstratified: HashSet<Sym> = HashSet::new();
        for nr in &rules {
            let hc = scc_of[&nr.head.rel];
            for l in &nr.body {
                if let NLit::Neg(a) = l {
                    if scc_of.get(&a.rel) == Some(&hc) {
                        let cycle = sccs[hc]
                            .iter()
                            .map(|s| sheet.symbols.name(*s))
                            .collect::<Vec<_>>()
                            .join(", ");
                        if sccs[hc].iter().any(|&s| s == kw::INIT || s == kw::ROLE) {
                            return Err(err(
                                nr.source,
                                RuleError::Unstratified {
                                    relation: sheet.symbols.name(a.rel).to_string(),
                                    cycle,
                                },
                            ));
                        }
                        if unstratified.insert(a.rel) {
                            warnings.push(format!(
                                "{}: '{}' depends negatively on itself through {cycle}: \
                                 accepted only if negation is stratified between its ground \
                                 atoms (checked when grounding)",
                                sheet.rules[nr.source].pos,
                                sheet.symbols.name(a.rel)
                            ));
                        }
                        unstratified.extend(sccs[hc].iter().copied());
                    }
                }
            }
        }
        for nr in &rules {
            check_recursion(&sheet, nr, &scc_of, &err)?;
        }
        check_dependencies(&sheet, &rules, &err)?;
        Ok(Description {
            sheet,
            rules,
            roles,
            sccs,
            scc_of,
            warnings,
            unstratified,
        })
    }

    /// The name of a symbol.
    pub fn name(&self, s: Sym) -> &str {
        self.sheet.symbols.name(s)
    }

    /// A ground term as KIF text.
    pub fn term_text(&self, t: &Term) -> String {
        let mut out = String::new();
        write_ground(&self.sheet.symbols, t, &mut out);
        out
    }
}

/// Writes a ground term (variables print as `?v<n>`).
pub fn write_ground(symbols: &crate::ast::Symbols, t: &Term, out: &mut String) {
    match t {
        Term::Sym(s) => out.push_str(symbols.name(*s)),
        Term::Var(v) => {
            out.push_str("?v");
            out.push_str(&v.to_string());
        }
        Term::Fn(f, args) => {
            out.push('(');
            out.push_str(symbols.name(*f));
            for a in args {
                out.push(' ');
                write_ground(symbols, a, out);
            }
            out.push(')');
        }
    }
}

/// Relations that the game's keywords depend on (through any rule).
fn relevant_relations(sheet: &RuleSheet) -> HashSet<Sym> {
    let mut rel: HashSet<Sym> = [
        kw::ROLE,
        kw::INIT,
        kw::LEGAL,
        kw::NEXT,
        kw::GOAL,
        kw::TERMINAL,
        kw::BASE,
        kw::INPUT,
    ]
    .into_iter()
    .collect();
    loop {
        let before = rel.len();
        for r in &sheet.rules {
            if !rel.contains(&r.head.rel) {
                continue;
            }
            let mut stack: Vec<&Literal> = r.body.iter().collect();
            while let Some(l) = stack.pop() {
                match l {
                    Literal::Atom(a) => {
                        rel.insert(a.rel);
                    }
                    Literal::Not(x) => stack.push(x),
                    Literal::Or(xs) => stack.extend(xs.iter()),
                    Literal::Distinct(..) => {}
                }
            }
        }
        if rel.len() == before {
            return rel;
        }
    }
}

fn dnf(l: &Literal, negated: bool) -> Vec<Vec<NLit>> {
    match l {
        Literal::Atom(a) => vec![vec![if negated {
            NLit::Neg(a.clone())
        } else {
            NLit::Pos(a.clone())
        }]],
        Literal::Distinct(a, b) => vec![vec![if negated {
            NLit::Same(a.clone(), b.clone())
        } else {
            NLit::Distinct(a.clone(), b.clone())
        }]],
        Literal::Not(inner) => dnf(inner, !negated),
        Literal::Or(ls) => {
            if !negated {
                ls.iter().flat_map(|l| dnf(l, false)).collect()
            } else {
                // not (a or b) = (not a) and (not b)
                let mut acc: Vec<Vec<NLit>> = vec![Vec::new()];
                for l in ls {
                    let alts = dnf(l, true);
                    let mut next = Vec::new();
                    for b in &acc {
                        for a in &alts {
                            let mut nb = b.clone();
                            nb.extend(a.iter().cloned());
                            next.push(nb);
                        }
                        if next.len() > MAX_EXPANSION {
                            break;
                        }
                    }
                    acc = next;
                }
                acc
            }
        }
    }
}

fn unsafe_var(r: &NRule) -> Option<(u32, &'static str)> {
    let mut bound = HashSet::new();
    for l in &r.body {
        if let NLit::Pos(a) = l {
            a.for_each_var(&mut |v| {
                bound.insert(v);
            });
        }
    }
    let mut found = None;
    let mut check = |v: u32, place| {
        if found.is_none() && !bound.contains(&v) {
            found = Some((v, place));
        }
    };
    r.head.for_each_var(&mut |v| check(v, "in the head"));
    for l in &r.body {
        match l {
            NLit::Pos(_) => {}
            NLit::Neg(a) => a.for_each_var(&mut |v| check(v, "in a negated literal")),
            NLit::Distinct(a, b) | NLit::Same(a, b) => {
                a.for_each_var(&mut |v| check(v, "in distinct"));
                b.for_each_var(&mut |v| check(v, "in distinct"));
            }
        }
    }
    found
}

fn keyword_arity(s: Sym) -> Option<usize> {
    match s {
        kw::ROLE | kw::INIT | kw::TRUE | kw::NEXT | kw::BASE => Some(1),
        kw::LEGAL | kw::DOES | kw::GOAL | kw::INPUT => Some(2),
        kw::TERMINAL => Some(0),
        _ => None,
    }
}

fn check_arities(
    sheet: &RuleSheet,
    err: &impl Fn(usize, RuleError) -> GdlError,
) -> Result<(), GdlError> {
    let mut rels: HashMap<Sym, (usize, Pos)> = HashMap::new();
    let mut fns: HashMap<Sym, (usize, Pos)> = HashMap::new();
    fn visit_term(
        t: &Term,
        fns: &mut HashMap<Sym, (usize, Pos)>,
        pos: Pos,
    ) -> Result<(), (Sym, usize, usize, Pos)> {
        if let Term::Fn(f, args) = t {
            let e = fns.entry(*f).or_insert((args.len(), pos));
            if e.0 != args.len() {
                return Err((*f, e.0, args.len(), e.1));
            }
            for a in args {
                visit_term(a, fns, pos)?;
            }
        }
        Ok(())
    }
    for (i, r) in sheet.rules.iter().enumerate() {
        let mut atoms: Vec<&Atom> = vec![&r.head];
        let mut terms: Vec<&Term> = Vec::new();
        let mut stack: Vec<&Literal> = r.body.iter().collect();
        while let Some(l) = stack.pop() {
            match l {
                Literal::Atom(a) => atoms.push(a),
                Literal::Not(x) => stack.push(x),
                Literal::Or(xs) => stack.extend(xs.iter()),
                Literal::Distinct(a, b) => {
                    terms.push(a);
                    terms.push(b);
                }
            }
        }
        for a in atoms {
            if let Some(k) = keyword_arity(a.rel) {
                if a.args.len() != k {
                    return Err(err(
                        i,
                        RuleError::Keyword(format!(
                            "'{}' takes {k} argument(s), not {}",
                            sheet.symbols.name(a.rel),
                            a.args.len()
                        )),
                    ));
                }
            }
            let e = rels.entry(a.rel).or_insert((a.args.len(), r.pos));
            if e.0 != a.args.len() {
                return Err(err(
                    i,
                    RuleError::Arity {
                        what: "relation",
                        name: sheet.symbols.name(a.rel).into(),
                        expected: e.0,
                        found: a.args.len(),
                        first: e.1,
                    },
                ));
            }
            terms.extend(a.args.iter());
        }
        for t in terms {
            if let Err((f, expected, found, first)) = visit_term(t, &mut fns, r.pos) {
                return Err(err(
                    i,
                    RuleError::Arity {
                        what: "function",
                        name: sheet.symbols.name(f).into(),
                        expected,
                        found,
                        first,
                    },
                ));
            }
        }
    }
    Ok(())
}

/// Tarjan's strongly connected components over relations (edges body → head), in
/// dependency order.
pub(crate) fn components(rules: &[NRule]) -> (Vec<Vec<Sym>>, HashMap<Sym, usize>) {
    let mut nodes: Vec<Sym> = Vec::new();
    let mut id: HashMap<Sym, usize> = HashMap::new();
    let mut add = |s: Sym, nodes: &mut Vec<Sym>| -> usize {
        *id.entry(s).or_insert_with(|| {
            nodes.push(s);
            nodes.len() - 1
        })
    };
    let mut deps: Vec<Vec<usize>> = Vec::new();
    for r in rules {
        let h = add(r.head.rel, &mut nodes);
        for l in &r.body {
            if let NLit::Pos(a) | NLit::Neg(a) = l {
                if a.rel != kw::TRUE && a.rel != kw::DOES {
                    let b = add(a.rel, &mut nodes);
                    deps.resize(nodes.len(), Vec::new());
                    deps[h].push(b);
                }
            }
        }
        deps.resize(nodes.len(), Vec::new());
    }
    deps.resize(nodes.len(), Vec::new());
    // A node's component comes after the components it depends on.
    let out: Vec<Vec<Sym>> = crate::graph::tarjan(&deps)
        .into_iter()
        .map(|comp| comp.into_iter().map(|w| nodes[w]).collect())
        .collect();
    let mut scc_of = HashMap::new();
    for (i, c) in out.iter().enumerate() {
        for s in c {
            scc_of.insert(*s, i);
        }
    }
    (out, scc_of)
}

fn check_recursion(
    sheet: &RuleSheet,
    r: &NRule,
    scc_of: &HashMap<Sym, usize>,
    err: &impl Fn(usize, RuleError) -> GdlError,
) -> Result<(), GdlError> {
    let hc = scc_of[&r.head.rel];
    let recursive = |a: &Atom| scc_of.get(&a.rel) == Some(&hc);
    if !r
        .body
        .iter()
        .any(|l| matches!(l, NLit::Pos(a) if recursive(a)))
    {
        return Ok(());
    }
    let mut bound = HashSet::new();
    for l in &r.body {
        if let NLit::Pos(a) = l {
            if !recursive(a) {
                a.for_each_var(&mut |v| {
                    bound.insert(v);
                });
            }
        }
    }
    for l in &r.body {
        let NLit::Pos(a) = l else { continue };
        if !recursive(a) {
            continue;
        }
        for arg in &a.args {
            if arg.is_ground() || r.head.args.contains(arg) {
                continue;
            }
            let mut ok = true;
            arg.for_each_var(&mut |v| ok &= bound.contains(&v));
            if !ok {
                let src = &sheet.rules[r.source];
                let mut lit = String::new();
                let mut argt = String::new();
                let show = |t: &Term, out: &mut String| {
                    let mut s = String::new();
                    write_ground(&sheet.symbols, t, &mut s);
                    // Name variables as written.
                    let mut named = s.clone();
                    for (i, n) in src.var_names.iter().enumerate().rev() {
                        named = named.replace(&format!("?v{i}"), &format!("?{n}"));
                    }
                    out.push_str(&named);
                };
                show(&Term::Fn(a.rel, a.args.clone()), &mut lit);
                show(arg, &mut argt);
                return Err(err(
                    r.source,
                    RuleError::Recursion {
                        literal: lit,
                        arg: argt,
                    },
                ));
            }
        }
    }
    Ok(())
}

/// `init` and `role` must not depend on the state or moves; `legal`, `goal` and `terminal`
/// must not depend on `does`.
fn check_dependencies(
    sheet: &RuleSheet,
    rules: &[NRule],
    err: &impl Fn(usize, RuleError) -> GdlError,
) -> Result<(), GdlError> {
    // Relations that depend on `does` and on `true`, to a fixpoint.
    let mut on_does: HashSet<Sym> = HashSet::from([kw::DOES]);
    let mut on_true: HashSet<Sym> = HashSet::from([kw::TRUE]);
    loop {
        let mut changed = false;
        for r in rules {
            for l in &r.body {
                if let NLit::Pos(a) | NLit::Neg(a) = l {
                    if on_does.contains(&a.rel) && on_does.insert(r.head.rel) {
                        changed = true;
                    }
                    if on_true.contains(&a.rel) && on_true.insert(r.head.rel) {
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    for r in rules {
        let h = r.head.rel;
        let name = sheet.symbols.name(h);
        if (h == kw::LEGAL || h == kw::GOAL || h == kw::TERMINAL || h == kw::INIT)
            && on_does.contains(&h)
        {
            // Name the offending rule: the first with a body literal depending on does.
            if r.body
                .iter()
                .any(|l| matches!(l, NLit::Pos(a) | NLit::Neg(a) if on_does.contains(&a.rel)))
            {
                return Err(err(
                    r.source,
                    RuleError::Keyword(format!("'{name}' must not depend on 'does'")),
                ));
            }
        }
        if h == kw::INIT
            && r.body
                .iter()
                .any(|l| matches!(l, NLit::Pos(a) | NLit::Neg(a) if on_true.contains(&a.rel)))
        {
            return Err(err(
                r.source,
                RuleError::Keyword("'init' must not depend on 'true'".into()),
            ));
        }
        for l in &r.body {
            if let NLit::Pos(a) | NLit::Neg(a) = l {
                if a.rel == kw::INIT || a.rel == kw::NEXT {
                    return Err(err(
                        r.source,
                        RuleError::Keyword(format!(
                            "'{}' cannot be used in a rule body",
                            sheet.symbols.name(a.rel)
                        )),
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(text: &str) -> RuleError {
        match Description::from_kif(text) {
            Err(GdlError::Rule { kind, .. }) => kind,
            other => panic!("expected a rule error, got {other:?}"),
        }
    }

    #[test]
    fn accepts_a_small_game() {
        let d = Description::from_kif(
            "(role a) (init p) (<= (legal a (go ?x)) (true p) (q ?x)) (q 1) (q 2)
             (<= (next p) (does a (go ?x)) (not (r ?x))) (<= (r ?x) (q ?x) (distinct ?x 1))
             (<= terminal (not (true p))) (goal a 100)",
        )
        .unwrap();
        assert_eq!(d.roles.len(), 1);
        // q before r before next.
        let q = d.sheet.symbols.get("q").unwrap();
        let r = d.sheet.symbols.get("r").unwrap();
        assert!(d.scc_of[&q] < d.scc_of[&r]);
        assert!(d.scc_of[&r] < d.scc_of[&kw::NEXT]);
    }

    #[test]
    fn rejects_unsafe_rules() {
        assert!(matches!(
            kind("(role a) (<= (p ?x) (q 1)) (<= terminal (p 1))"),
            RuleError::Unsafe {
                place: "in the head",
                ..
            }
        ));
        assert!(matches!(
            kind("(role a) (<= p (q 1) (not (r ?y))) (<= terminal p)"),
            RuleError::Unsafe {
                place: "in a negated literal",
                ..
            }
        ));
        assert!(matches!(
            kind("(role a) (<= p (q ?x) (distinct ?x ?z)) (<= terminal p)"),
            RuleError::Unsafe {
                place: "in distinct",
                ..
            }
        ));
        // Bound in only one branch of an or.
        assert!(matches!(
            kind("(role a) (<= (p ?x) (or (q ?x) (r 1))) (<= terminal (p 1))"),
            RuleError::Unsafe { .. }
        ));
    }

    #[test]
    fn rejects_unstratified_negation_and_bad_recursion() {
        // Not stratified between relations nor between ground atoms: accepted here with a
        // warning, refused by the grounded reasoner and the prover.
        let text = "(role a) (q 1) (<= (p ?x) (q ?x) (not (s ?x))) (<= (s ?x) (p ?x)) \
                    (<= terminal (p 1)) (<= (legal a x) (q 1)) (<= (goal a 0) (q 1))";
        let d = Description::from_kif(text).unwrap();
        assert!(d.warnings.iter().any(|w| w.contains("depends negatively")));
        let e = crate::GdlGame::new("u", &d).unwrap_err().to_string();
        assert!(e.contains("not stratified"), "{e}");
        assert!(crate::Prover::new(&d)
            .is_terminal(&Default::default())
            .is_err());
        // `init` and `role` must be facts: negation through them is refused at once.
        assert!(matches!(
            kind("(role a) (<= (init (p ?x)) (role ?x) (not (init (p a))))"),
            RuleError::Unstratified { .. }
        ));
        assert!(matches!(
            kind("(role a) (q 1) (<= (p ?x) (q ?x) (p ?y)) (<= terminal (p 1))"),
            RuleError::Recursion { .. }
        ));
        assert!(matches!(
            kind("(role a) (q 1) (<= (p ?x) (q ?x) (p (f ?y)) (r ?y)) (<= (r ?y) (p ?y)) (<= terminal (p 1))"),
            RuleError::Recursion { .. }
        ));
    }

    #[test]
    fn drops_unused_unsafe_rules_with_a_warning() {
        let d = Description::from_kif("(role a) (<= (p ?x) (q 1)) (goal a 100)").unwrap();
        assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
        assert!(d.warnings[0].contains("(<= (p ?x) (q 1))"));
    }

    #[test]
    fn rejects_keyword_misuse_and_arity_clashes() {
        assert!(matches!(kind("(role a) (true p)"), RuleError::Keyword(_)));
        assert!(matches!(
            kind("(role a) (<= (legal a x) (does a x))"),
            RuleError::Keyword(_)
        ));
        assert!(matches!(
            kind("(role a) (<= (init p) (true q))"),
            RuleError::Keyword(_)
        ));
        assert!(matches!(kind("(role a) (legal a)"), RuleError::Keyword(_)));
        assert!(matches!(
            kind("(role a) (foo 1) (foo 1 2)"),
            RuleError::Arity {
                what: "relation",
                ..
            }
        ));
        assert!(matches!(
            kind("(role a) (foo (f 1)) (foo (f 1 2))"),
            RuleError::Arity {
                what: "function",
                ..
            }
        ));
        let e = Description::from_kif("(role a)\n(foo 1)\n  (foo 1 2)").unwrap_err();
        assert_eq!(e.pos(), Some(Pos { line: 3, col: 3 }));
        assert!(e.to_string().contains("(foo 1 2)"), "{e}");
        assert!(matches!(
            Description::from_kif("(p 1)"),
            Err(GdlError::Game(_))
        ));
    }
}

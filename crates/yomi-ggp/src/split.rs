//! Splitting rules whose body joins independent parts, before grounding.
//!
//! In `(<= (goal red 100) (true (position red ?x1 ?y1)) (not (true (cell ?x1 ?y1 v)))
//! (true (position blue ?x2 ?y2)) (true (cell ?x2 ?y2 v)))` nothing links `?x1 ?y1` to
//! `?x2 ?y2`: grounded as written the rule becomes one conjunction per pair of squares
//! (20,736 on a 12×12 board, for one goal value), and every evaluation tests them. Each
//! group of body literals joined by variables that the head does not hold is an
//! existential question of its own, so the rule is rewritten as one auxiliary view per
//! group, over the head variables the group uses, and the rule over those views:
//!
//! ```text
//! (<= (aux1) (true (position red ?x1 ?y1)) (not (true (cell ?x1 ?y1 v))))
//! (<= (aux2) (true (position blue ?x2 ?y2)) (true (cell ?x2 ?y2 v)))
//! (<= (goal red 100) (aux1) (aux2))
//! ```
//!
//! which grounds into 144 + 144 + 1 conjunctions with the same meaning: the product of the
//! groups' instances becomes their sum. Literals whose variables are all head variables
//! stay in the rule. A rule is left alone when it has fewer than two such groups (nothing
//! to gain) or when a group reads a head variable that none of its positive literals binds
//! (the auxiliary rule would be unsafe). Sancho and ggp-base reach the same effect on
//! their propnets through condensation of rule bodies; here it is a rewrite of the
//! normalised rules, so the grounder, the compiled reasoner and the fallback all see it.

use crate::ast::{Atom, Sym, Term};
use crate::fxhash::FxHashSet as HashSet;
use crate::validate::{components, Description, NLit, NRule};

/// Prefix of the auxiliary relations' names (a number follows; the name is checked
/// against the rule sheet's symbols, so it cannot capture one of the game's relations).
const AUX_PREFIX: &str = "yomi-split-";

/// The description with every splittable rule split (see the module documentation), or
/// `None` when no rule splits.
pub(crate) fn split_disconnected(desc: &Description) -> Option<Description> {
    let mut out: Option<Description> = None;
    let mut rules = Vec::with_capacity(desc.rules.len());
    let mut next_aux = 0usize;
    for (i, r) in desc.rules.iter().enumerate() {
        let Some(groups) = groups(r) else {
            if out.is_some() {
                rules.push(r.clone());
            }
            continue;
        };
        if out.is_none() {
            rules.extend(desc.rules[..i].iter().cloned());
        }
        let d = out.get_or_insert_with(|| desc.clone());
        let head_vars = vars_of_atom(&r.head);
        let mut main: Vec<NLit> = Vec::new();
        let mut in_group = vec![false; r.body.len()];
        for g in &groups {
            // The auxiliary head: the head variables the group uses, in order.
            let mut args: Vec<u32> = Vec::new();
            for &l in g {
                in_group[l] = true;
                for_each_var(&r.body[l], &mut |v| {
                    if head_vars.contains(&v) && !args.contains(&v) {
                        args.push(v);
                    }
                });
            }
            args.sort_unstable();
            let rel = fresh_symbol(d, &mut next_aux);
            let head = Atom {
                rel,
                args: args.iter().map(|&v| Term::Var(v)).collect(),
            };
            rules.push(NRule {
                head: head.clone(),
                body: g.iter().map(|&l| r.body[l].clone()).collect(),
                vars: r.vars,
                source: r.source,
            });
            main.push(NLit::Pos(head));
        }
        // The literals over head variables only, in their order, then the views.
        let mut body: Vec<NLit> = r
            .body
            .iter()
            .enumerate()
            .filter(|&(l, _)| !in_group[l])
            .map(|(_, lit)| lit.clone())
            .collect();
        body.extend(main);
        rules.push(NRule {
            head: r.head.clone(),
            body,
            vars: r.vars,
            source: r.source,
        });
    }
    let mut d = out?;
    let (sccs, scc_of) = components(&rules);
    // Negation inside a component stays what it was: an auxiliary view joins its rule's
    // component only through recursion, and then carries that component's marks.
    let mut unstratified = d.unstratified.clone();
    for nr in &rules {
        let hc = scc_of[&nr.head.rel];
        let marked = sccs[hc].iter().any(|s| d.unstratified.contains(s));
        let negative_inside = nr
            .body
            .iter()
            .any(|l| matches!(l, NLit::Neg(a) if scc_of.get(&a.rel) == Some(&hc)));
        if marked || negative_inside {
            unstratified.extend(sccs[hc].iter().copied());
        }
    }
    d.rules = rules;
    d.sccs = sccs;
    d.scc_of = scc_of;
    d.unstratified = unstratified;
    Some(d)
}

/// The groups of body literals (indices) joined by non-head variables, when there are at
/// least two and each binds the head variables it reads; `None` otherwise.
fn groups(r: &NRule) -> Option<Vec<Vec<usize>>> {
    if r.body.len() < 2 {
        return None;
    }
    let head_vars = vars_of_atom(&r.head);
    let n = r.body.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn find(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    // The first literal that holds each non-head variable.
    let mut owner: Vec<Option<usize>> = vec![None; r.vars as usize];
    let mut local = vec![false; n];
    for (l, lit) in r.body.iter().enumerate() {
        for_each_var(lit, &mut |v| {
            if head_vars.contains(&v) {
                return;
            }
            local[l] = true;
            match owner.get(v as usize).copied().flatten() {
                Some(o) => {
                    let (a, b) = (find(&mut parent, o), find(&mut parent, l));
                    parent[a] = b;
                }
                None => {
                    if let Some(slot) = owner.get_mut(v as usize) {
                        *slot = Some(l);
                    }
                }
            }
        });
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut root_group: Vec<Option<usize>> = vec![None; n];
    for (l, _) in local.iter().enumerate().filter(|&(_, &is_local)| is_local) {
        let root = find(&mut parent, l);
        match root_group[root] {
            Some(g) => groups[g].push(l),
            None => {
                root_group[root] = Some(groups.len());
                groups.push(vec![l]);
            }
        }
    }
    if groups.len() < 2 {
        return None;
    }
    // Safety of each auxiliary rule: every variable it reads is bound by one of its
    // positive literals.
    for g in &groups {
        let mut bound = HashSet::default();
        for &l in g {
            if let NLit::Pos(a) = &r.body[l] {
                a.for_each_var(&mut |v| {
                    bound.insert(v);
                });
            }
        }
        let mut safe = true;
        for &l in g {
            for_each_var(&r.body[l], &mut |v| safe &= bound.contains(&v));
        }
        if !safe {
            return None;
        }
    }
    Some(groups)
}

fn vars_of_atom(a: &Atom) -> HashSet<u32> {
    let mut s = HashSet::default();
    a.for_each_var(&mut |v| {
        s.insert(v);
    });
    s
}

fn for_each_var(l: &NLit, f: &mut impl FnMut(u32)) {
    match l {
        NLit::Pos(a) | NLit::Neg(a) => a.for_each_var(f),
        NLit::Distinct(x, y) | NLit::Same(x, y) => {
            x.for_each_var(f);
            y.for_each_var(f);
        }
    }
}

/// A relation name the rule sheet does not use.
fn fresh_symbol(d: &mut Description, next: &mut usize) -> Sym {
    loop {
        let name = format!("{AUX_PREFIX}{next}");
        *next += 1;
        if d.sheet.symbols.get(&name).is_none() {
            return d.sheet.symbols.intern(&name);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;
    use crate::ground::Grounding;
    use crate::{Prover, Reasoner};
    use yomi_core::Rng;

    /// Two walkers on a 4×4 board that leave visited squares behind (tron in small): two
    /// goal rules join the two walkers' squares, which nothing links (they split); a third
    /// links them through `distinct` (one group: not split); the mover's `legal` rule has
    /// two groups, but the second reads head variables it does not bind (not split).
    const WALKERS: &str = "
        (role red) (role blue)
        (index 1) (index 2) (index 3) (index 4)
        (succ 1 2) (succ 2 3) (succ 3 4)
        (init (at red 1 1)) (init (at blue 4 4)) (init (control red))
        (<= (adjacent ?x ?y ?x ?y2) (index ?x) (succ ?y ?y2))
        (<= (adjacent ?x ?y ?x ?y2) (index ?x) (succ ?y2 ?y))
        (<= (adjacent ?x ?y ?x2 ?y) (index ?y) (succ ?x ?x2))
        (<= (adjacent ?x ?y ?x2 ?y) (index ?y) (succ ?x2 ?x))
        (<= (legal ?p (go ?x2 ?y2)) (true (control ?p)) (true (at ?p ?x ?y))
            (adjacent ?x ?y ?x2 ?y2) (not (true (seen ?x2 ?y2))) (true (at ?q ?a ?b))
            (distinct ?p ?q) (distinct ?a ?x2))
        (<= (legal ?p noop) (role ?p) (not (true (control ?p))))
        (<= (legal ?p stay) (true (control ?p)))
        (<= (next (at ?p ?x ?y)) (does ?p (go ?x ?y)))
        (<= (next (at ?p ?x ?y)) (true (at ?p ?x ?y)) (not moved))
        (<= (next (at ?p ?x ?y)) (true (at ?p ?x ?y)) (does ?p stay))
        (<= (next (at ?p ?x ?y)) (true (at ?p ?x ?y)) (does ?p noop))
        (<= moved (does ?p (go ?x ?y)))
        (<= (next (seen ?x ?y)) (true (seen ?x ?y)))
        (<= (next (seen ?x ?y)) (true (at ?p ?x ?y)))
        (<= (next (control red)) (true (control blue)))
        (<= (next (control blue)) (true (control red)))
        (<= (next (step ?n)) (true (step ?m)) (succ ?m ?n))
        (init (step 1))
        (<= terminal (true (step 4)))
        (<= (goal red 100) (true (at red ?x1 ?y1)) (not (true (seen ?x1 ?y1)))
            (true (at blue ?x2 ?y2)) (true (seen ?x2 ?y2)))
        (<= (goal red 0) (not (goal red 100)))
        (<= (goal blue 50) (true (at red ?x1 ?y1)) (true (seen ?x1 ?y1))
            (true (at blue ?x2 ?y2)) (not (true (seen ?x2 ?y2))))
        (<= (goal blue 50) (role blue) (true (at red ?x1 ?y1)) (true (at blue ?x2 ?y2))
            (distinct ?x1 ?x2))
        (<= (goal blue 0) (not (goal blue 50)))
    ";

    #[test]
    fn independent_parts_of_a_body_become_views_and_ground_to_the_sum() {
        let d = Description::from_kif(WALKERS).unwrap();
        let s = split_disconnected(&d).expect("the goal rules split");
        // Two goal rules gain two views each.
        assert_eq!(s.rules.len(), d.rules.len() + 4, "{}", rules_text(&s));
        let (plain, split) = (Grounding::new(&d).unwrap(), Grounding::new(&s).unwrap());
        assert!(
            split.rules.len() < plain.rules.len(),
            "{} ground rules split, {} not",
            split.rules.len(),
            plain.rules.len()
        );
        // Unchanged: the original description, and a description without such rules.
        assert_eq!(
            d.rules.len(),
            Description::from_kif(WALKERS).unwrap().rules.len()
        );
        let connected = Description::from_kif(
            "(role a) (init (p 1)) (<= (legal a (m ?x)) (true (p ?x)) (true (q ?x ?y)) (true (p ?y)))
             (<= (next (p ?x)) (does a (m ?x))) (<= terminal (true (p 2))) (goal a 100)",
        )
        .unwrap();
        assert!(split_disconnected(&connected).is_none());
    }

    #[test]
    fn a_group_that_does_not_bind_the_head_variables_it_reads_is_not_split() {
        // `?y` (a head variable) is read by the second group only under `not`: its view
        // would be unsafe.
        let d = Description::from_kif(
            "(role a) (init (p 1)) (init (q 1 1))
             (<= (legal a (m ?y)) (true (p ?y)) (true (q ?u ?u)) (true (p ?w)) (not (true (q ?w ?y))))
             (<= (next (p ?x)) (does a (m ?x))) (<= terminal (true (p 2))) (goal a 100)",
        )
        .unwrap();
        assert!(split_disconnected(&d).is_none());
    }

    #[test]
    fn the_compiled_reasoner_on_split_rules_agrees_with_the_prover() {
        let d = Description::from_kif(WALKERS).unwrap();
        let r = Reasoner::new(&d).unwrap();
        let prover = Prover::new(&d);
        let roles = prover.roles().to_vec();
        let mut rng = Rng::seed_from_u64(5);
        let mut legal = Vec::new();
        let mut goals_seen = BTreeSet::new();
        for game in 0..60 {
            let mut s = r.initial_state();
            let mut ps = prover.initial_state().unwrap();
            loop {
                let ours: BTreeSet<_> = r
                    .true_bases(&s)
                    .into_iter()
                    .map(|b| r.base_terms()[b as usize].clone())
                    .collect();
                assert_eq!(ours, ps, "game {game}");
                for (i, role) in roles.iter().enumerate() {
                    r.legal_into(&s, i, &mut legal);
                    let mut mine: Vec<_> = legal
                        .iter()
                        .map(|&a| r.actions()[a as usize].clone())
                        .collect();
                    mine.sort();
                    assert_eq!(mine, prover.legal_moves(&ps, role).unwrap(), "game {game}");
                }
                let goals = prover.goals(&ps).unwrap();
                assert_eq!(r.goal_values(&s), goals, "game {game}");
                assert_eq!(r.terminal_holds(&s), prover.is_terminal(&ps).unwrap());
                if r.is_terminal(&s) {
                    goals_seen.insert(goals);
                    break;
                }
                let joint: Vec<u32> = (0..roles.len())
                    .map(|i| {
                        r.legal_into(&s, i, &mut legal);
                        legal[rng.below(legal.len())]
                    })
                    .collect();
                let pj: Vec<_> = joint
                    .iter()
                    .map(|&a| r.actions()[a as usize].clone())
                    .collect();
                r.step(&mut s, &joint);
                ps = prover.next_state(&ps, &pj).unwrap();
            }
        }
        // The split goal rules decided games both ways.
        assert!(goals_seen.len() >= 2, "{goals_seen:?}");
    }

    fn rules_text(d: &Description) -> String {
        d.rules
            .iter()
            .map(|r| format!("{} <= {} literals", d.name(r.head.rel), r.body.len()))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

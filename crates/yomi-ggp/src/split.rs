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
//! stay in the rule. Where the product was small anyway (a group with one or two instances
//! per head), the views cost more than they save, so [`ground`] judges every split on the
//! grounding it gives and grounds again with the unprofitable ones undone.
//!
//! One group beside literals over other head variables splits too: hex's union of groups,
//! `(<= (next (connected ?k ?m ?n)) (transfer ?e) (true (connected ?e ?m ?n)) (true (step
//! ?k)))`, is one conjunction per (k, e, m, n) unsplit and, split, a view per (m, n) over
//! `e` and a rule per (k, m, n). A rule is left alone when it has no such group, or only
//! one that is the whole body, a single literal or reads `does` (nothing to gain, or a move
//! literal the reasoner indexes would hide behind a view), or when a group reads a head
//! variable that none of its positive literals binds (the auxiliary rule would be unsafe).
//! Sancho and ggp-base reach the same effect on their propnets through condensation of
//! rule bodies; here it is a rewrite of the normalised rules, so the grounder, the compiled
//! reasoner and the fallback all see it.

use crate::ast::{kw, Atom, Sym, Term};
use crate::error::GdlError;
use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::ground::Grounding;
use crate::validate::{components, Description, NLit, NRule};

/// Prefix of the auxiliary relations' names (a number follows; the name is checked
/// against the rule sheet's symbols, so it cannot capture one of the game's relations).
const AUX_PREFIX: &str = "yomi-split-";

/// A split pays when the instances the rule would have had unsplit (the product of its
/// views' instances, summed over the rule's instances) are at least this many times the
/// instances of the views and the rule together. Below it the views cost more than they
/// save: plain evaluation computes every view instance, where the unsplit rule's
/// conjunctions mostly stop at their first literal (hitori: 0.1-0.5 here, 0.8-0.9x the
/// speed split; tron's goal rules: 72-143, 20x faster split).
const MIN_GAIN: u64 = 2;

/// The splits that do not pay are undone (the game grounded again without them) only when
/// the ground rules they add exceed this fraction (1/n) of the grounding: kalaha's two
/// unprofitable splits add 24 rules to 600,000, and grounding it again would double its
/// load time for nothing; hitori's add 25,000 to 64,000.
const REGROUND_SHARE: u64 = 20;

/// Grounds `desc` with its splittable rules split (see the module documentation), keeping
/// the split only for rules where it pays ([`MIN_GAIN`], judged on the grounding itself:
/// the rest are put back and the game grounded again, when they weigh enough to be worth
/// it: [`REGROUND_SHARE`]). Returns the description grounded (`None`: the one given) and
/// the grounding.
pub(crate) fn ground(desc: &Description) -> (Option<Description>, Result<Grounding, GdlError>) {
    let Some(first) = split_disconnected(desc, &HashSet::default()) else {
        return (None, Grounding::new(desc));
    };
    let g = match Grounding::new(&first.desc) {
        Ok(g) => g,
        Err(e) => return (Some(first.desc), Err(e)),
    };
    let (unpaid, excess) = unprofitable(&first, &g);
    // Grounding again costs as much as the first time (seconds on kalaha): only worth it
    // when the unprofitable views weigh on the grounding; a rule split into one view that
    // did not pay is put back even when it weighs little (its view only adds a layer:
    // dobutsu shogi's and nim's `legal` rules ran 10-15 % slower split, best of three).
    let heavy = excess.saturating_mul(REGROUND_SHARE) >= g.rules.len() as u64;
    let undo: HashSet<usize> = if heavy {
        unpaid
    } else {
        unpaid.intersection(&first.single).copied().collect()
    };
    if undo.is_empty() {
        return (Some(first.desc), Ok(g));
    }
    match split_disconnected(desc, &undo) {
        None => (None, Grounding::new(desc)),
        Some(second) => {
            let g = Grounding::new(&second.desc);
            (Some(second.desc), g)
        }
    }
}

/// A description with rules split, and per auxiliary view the index of the rule it came
/// from.
struct Split {
    desc: Description,
    origin: HashMap<Sym, usize>,
    /// The rules split into one view (beside literals over other head variables).
    single: HashSet<usize>,
}

/// The rules (indices into the original description) whose split did not pay in the
/// grounding `g` of `split` (see [`MIN_GAIN`]), and the ground rules their split added
/// (over the instances the rules would have had unsplit).
fn unprofitable(split: &Split, g: &Grounding) -> (HashSet<usize>, u64) {
    let aux_rule = |atom: u32| split.origin.get(&g.atoms[atom as usize].0).copied();
    // Instances of each view atom.
    let mut instances: HashMap<u32, u64> = HashMap::default();
    for r in &g.rules {
        if aux_rule(r.head).is_some() {
            *instances.entry(r.head).or_default() += 1;
        }
    }
    // Per split rule: (instances unsplit, instances split).
    let mut cost: HashMap<usize, (u64, u64)> = HashMap::default();
    for r in &g.rules {
        if let Some(rule) = aux_rule(r.head) {
            cost.entry(rule).or_default().1 += 1;
            continue;
        }
        let mut product = 1u64;
        let mut rule = None;
        for &(atom, _) in &r.body {
            if let Some(k) = aux_rule(atom) {
                rule = Some(k);
                product = product.saturating_mul(instances.get(&atom).copied().unwrap_or(1));
            }
        }
        if let Some(k) = rule {
            let c = cost.entry(k).or_default();
            c.0 = c.0.saturating_add(product);
            c.1 += 1;
        }
    }
    let mut excess = 0u64;
    let unpaid = cost
        .into_iter()
        .filter(|&(_, (unsplit, split))| unsplit < MIN_GAIN.saturating_mul(split))
        .map(|(rule, (unsplit, split))| {
            excess = excess.saturating_add(split.saturating_sub(unsplit));
            rule
        })
        .collect();
    (unpaid, excess)
}

/// The description with every splittable rule split except the rules in `keep` (indices
/// into `desc.rules`), or `None` when no rule splits.
fn split_disconnected(desc: &Description, keep: &HashSet<usize>) -> Option<Split> {
    let mut out: Option<Description> = None;
    let mut origin: HashMap<Sym, usize> = HashMap::default();
    let mut single = HashSet::default();
    let mut rules = Vec::with_capacity(desc.rules.len());
    let mut next_aux = 0usize;
    for (i, r) in desc.rules.iter().enumerate() {
        let Some(groups) = groups(r).filter(|_| !keep.contains(&i)) else {
            if out.is_some() {
                rules.push(r.clone());
            }
            continue;
        };
        if out.is_none() {
            rules.extend(desc.rules[..i].iter().cloned());
        }
        let d = out.get_or_insert_with(|| desc.clone());
        if groups.len() == 1 {
            single.insert(i);
        }
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
            origin.insert(rel, i);
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
    Some(Split {
        desc: d,
        origin,
        single,
    })
}

/// The groups of body literals (indices) joined by non-head variables, when there are at
/// least two (or one, beside literals over other head variables) and each binds the head
/// variables it reads; `None` otherwise.
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
    // One group pays as well when the rest of the body ranges over head variables the
    // group does not hold: hex's `(<= (next (connected ?k ?m ?n)) (transfer ?e) (true
    // (connected ?e ?m ?n)) (true (step ?k)))` grounds to one conjunction per (k, e, m, n),
    // 531,441 of them, and split to a view per (m, n) over e plus a rule per (k, m, n):
    // 13,122. A group that reads `does` stays (a `next` rule keeps its move literal, which
    // the reasoner indexes), and so does a lone literal (a view of one literal gains
    // nothing over the literal).
    let single_pays = groups.len() == 1
        && groups[0].len() >= 2
        && other_head_variables(r, &groups[0], &local)
        && !groups[0]
            .iter()
            .any(|&l| matches!(&r.body[l], NLit::Pos(a) | NLit::Neg(a) if a.rel == kw::DOES));
    if groups.len() < 2 && !single_pays {
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

/// Whether a literal outside every group (`local` false) reads a head variable that the
/// literals of `group` do not: then a view of the group has fewer instances than the rule.
fn other_head_variables(r: &NRule, group: &[usize], local: &[bool]) -> bool {
    let mut in_group = HashSet::default();
    for &l in group {
        for_each_var(&r.body[l], &mut |v| {
            in_group.insert(v);
        });
    }
    let mut other = false;
    for (lit, _) in r.body.iter().zip(local).filter(|&(_, &is_local)| !is_local) {
        for_each_var(lit, &mut |v| other |= !in_group.contains(&v));
    }
    other
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
    use super::*;

    /// Two walkers on a 4×4 board that leave visited squares behind (tron in small): two
    /// goal rules join the two walkers' squares, which nothing links (they split); a third
    /// links them through `distinct` (one group: not split); the mover's `legal` rule has
    /// two groups, but the second reads head variables it does not bind (not split).
    const WALKERS: &str = include_str!("../tests/data/walkers.kif");

    /// Splits `d`, checks that it gained `views` auxiliary rules and grounds to fewer
    /// rules than unsplit.
    fn assert_splits_smaller(d: &Description, views: usize) {
        let s = split_disconnected(d, &HashSet::default())
            .expect("a rule splits")
            .desc;
        assert_eq!(s.rules.len(), d.rules.len() + views, "{}", rules_text(&s));
        let (plain, split) = (Grounding::new(d).unwrap(), Grounding::new(&s).unwrap());
        assert!(
            split.rules.len() < plain.rules.len(),
            "{} ground rules split, {} not",
            split.rules.len(),
            plain.rules.len()
        );
    }

    #[test]
    fn independent_parts_of_a_body_become_views_and_ground_to_the_sum() {
        let d = Description::from_kif(WALKERS).unwrap();
        // Two goal rules gain two views each.
        assert_splits_smaller(&d, 4);
        // Unchanged: the original description, and a description without such rules.
        assert_eq!(
            d.rules.len(),
            Description::from_kif(WALKERS).unwrap().rules.len()
        );
        let connected = Description::from_kif(
            "(role a) (init (p 1)) (<= (legal a (m ?x)) (true (q ?x ?y)) (true (p ?y)))
             (<= (next (p ?x)) (does a (m ?x))) (<= terminal (true (p 2))) (goal a 100)",
        )
        .unwrap();
        assert!(split_disconnected(&connected, &HashSet::default()).is_none());
    }

    #[test]
    fn one_group_beside_other_head_variables_splits_unless_it_reads_does() {
        // Hex's group union in small: `?k` (the step) meets the group `?e` only in the
        // head of the `next` rule of `conn`; no other rule splits.
        const UNION: &str = include_str!("../tests/data/union.kif");
        let d = Description::from_kif(UNION).unwrap();
        assert_splits_smaller(&d, 1);
        // The same rule with the move literal in its group is left alone (and a group
        // that is the whole body, `transfer`, always is).
        let with_does = UNION.replace(
            "(transfer ?e) (true (conn ?e ?c)) (true (step ?k))",
            "(does a (put ?e)) (true (conn ?e ?c)) (true (step ?k))",
        );
        assert_ne!(with_does, UNION);
        let d = Description::from_kif(&with_does).unwrap();
        assert!(
            split_disconnected(&d, &HashSet::default()).is_none(),
            "{}",
            rules_text(&d)
        );
    }

    #[test]
    fn one_view_that_does_not_pay_is_undone_however_light() {
        // Dobutsu shogi's drop rule in small: one count per piece in hand, so the view
        // over `?n` has as many instances as the rule it came from. The view adds one
        // ground rule to about 50, too few to ground again for by weight alone.
        let d = Description::from_kif(
            "(role a) (pc x) (pc y) (init (hand x 1)) (init (hand y 0))
             (init (empty 1)) (init (empty 2)) (init (empty 3)) (init (empty 4)) (init (empty 5))
             (init (empty 6)) (init (empty 7)) (init (empty 8)) (init (empty 9)) (init (empty 10))
             (<= (legal a (put ?c ?p)) (true (empty ?c)) (true (hand ?p ?n)) (distinct ?n 0))
             (<= (next (empty ?c)) (true (empty ?c)) (not (filled ?c)))
             (<= (filled ?c) (does a (put ?c ?p)))
             (<= (next (hand ?p ?n)) (true (hand ?p ?n)))
             (<= terminal (not (true (empty 1))))
             (goal a 100)",
        )
        .unwrap();
        let first = split_disconnected(&d, &HashSet::default()).expect("the drop rule splits");
        assert_eq!(first.single.len(), 1);
        let (split, g) = ground(&d);
        assert!(split.is_none(), "the one-view split was kept");
        assert_eq!(
            g.unwrap().rules.len(),
            Grounding::new(&d).unwrap().rules.len()
        );
    }

    #[test]
    fn a_split_that_does_not_pay_is_undone() {
        // Each square has one mark and one colour: unsplit, `shown` has one instance per
        // square; split, three (two views and the rule).
        let d = Description::from_kif(
            "(role a) (sq 1) (sq 2) (sq 3)
             (init (mark 1 x)) (init (mark 2 o)) (init (mark 3 x))
             (init (colour 1 red)) (init (colour 2 red)) (init (colour 3 blue))
             (<= (shown ?s) (sq ?s) (true (mark ?s ?m)) (true (colour ?s ?c)))
             (<= (legal a (m ?s)) (shown ?s))
             (<= (next (mark ?s ?m)) (true (mark ?s ?m)))
             (<= (next (colour ?s ?c)) (true (colour ?s ?c)))
             (init (step 1)) (<= (next (step 2)) (true (step 1)))
             (<= terminal (true (step 2)))
             (goal a 100)",
        )
        .unwrap();
        assert!(split_disconnected(&d, &HashSet::default()).is_some());
        let (split, g) = ground(&d);
        assert!(split.is_none(), "the split was kept");
        assert_eq!(
            g.unwrap().rules.len(),
            Grounding::new(&d).unwrap().rules.len()
        );
        // Where it pays, it stays.
        let walkers = Description::from_kif(WALKERS).unwrap();
        assert!(ground(&walkers).0.is_some());
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
        assert!(split_disconnected(&d, &HashSet::default()).is_none());
    }

    fn rules_text(d: &Description) -> String {
        d.rules
            .iter()
            .map(|r| format!("{} <= {} literals", d.name(r.head.rel), r.body.len()))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

//! Property tests on random small game forms: the algebra of sums and negation, the
//! canonical form against the recursive definition of `≤`, comparison against sums,
//! printing, thermographs and cooling.

use proptest::prelude::*;
use yomi_cgt::{Cgt, Dyadic, Relation};

/// A small game form: a leaf value or `{left | right}` of smaller forms.
#[derive(Clone, Debug)]
enum Tree {
    Leaf(u8),
    Node(Vec<Tree>, Vec<Tree>),
}

fn leaf(k: u8) -> Cgt {
    match k % 8 {
        0 => Cgt::zero(),
        1 => Cgt::integer(1),
        2 => Cgt::integer(-1),
        3 => Cgt::number(Dyadic::HALF),
        4 => Cgt::star(),
        5 => Cgt::up(),
        6 => Cgt::integer(2),
        _ => Cgt::nimber(2),
    }
}

fn build(t: &Tree) -> Cgt {
    match t {
        Tree::Leaf(k) => leaf(*k),
        Tree::Node(l, r) => {
            let l: Vec<Cgt> = l.iter().map(build).collect();
            let r: Vec<Cgt> = r.iter().map(build).collect();
            Cgt::from_options(&l, &r)
        }
    }
}

fn tree() -> impl Strategy<Value = Tree> {
    let leaf = (0u8..8).prop_map(Tree::Leaf);
    leaf.prop_recursive(3, 14, 3, |inner| {
        (
            prop::collection::vec(inner.clone(), 0..3),
            prop::collection::vec(inner, 0..3),
        )
            .prop_map(|(l, r)| Tree::Node(l, r))
    })
}

fn game() -> impl Strategy<Value = Cgt> {
    tree().prop_map(|t| build(&t))
}

/// `a ≤ b` (`!le` reads better than `!(a <= b)` on a partial order).
fn le(a: Cgt, b: Cgt) -> bool {
    matches!(a.relation(b), Relation::Less | Relation::Equal)
}

fn temperature() -> impl Strategy<Value = Dyadic> {
    (0i128..=8).prop_map(|n| Dyadic::new(n, 2)) // 0, 1/4, …, 2
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn g_minus_g_is_zero(g in game()) {
        prop_assert_eq!(g + (-g), Cgt::zero());
        prop_assert!((g - g).identical(Cgt::zero()));
        // By the definition alone, without canonical forms.
        prop_assert_eq!(g.formal_sum(-g), Cgt::zero());
        prop_assert_eq!(-(-g), g);
    }

    #[test]
    fn sums_commute_and_associate(g in game(), h in game(), k in game()) {
        prop_assert!((g + h).identical(h + g));
        prop_assert!(((g + h) + k).identical(g + (h + k)));
        prop_assert_eq!(g + h, h + g);
        // The canonical sum is the formal disjunctive sum.
        prop_assert_eq!(g + h, g.formal_sum(h));
    }

    #[test]
    fn canonical_form_is_idempotent_and_equal(g in game()) {
        let c = g.canonical();
        prop_assert!(c.canonical().identical(c));
        prop_assert!(c.is_canonical());
        prop_assert_eq!(c, g);
        // Forms are at most 3 levels of braces over leaves born by day 2.
        prop_assert!(c.birthday() <= 5);
    }

    #[test]
    fn canonical_form_has_no_dominated_or_reversible_options(g in game()) {
        let c = g.canonical();
        if c.as_number().is_none() {
            let (l, r) = (c.left_options(), c.right_options());
            for (i, &a) in l.iter().enumerate() {
                for (j, &b) in l.iter().enumerate() {
                    prop_assert!(i == j || !le(a, b), "dominated left option {a} <= {b} in {c}");
                }
                for ar in a.right_options() {
                    prop_assert!(!le(ar, c), "reversible left option {a} in {c}");
                }
            }
            for (i, &a) in r.iter().enumerate() {
                for (j, &b) in r.iter().enumerate() {
                    prop_assert!(i == j || !le(b, a), "dominated right option {a} in {c}");
                }
                for al in a.left_options() {
                    prop_assert!(!le(c, al), "reversible right option {a} in {c}");
                }
            }
        }
    }

    #[test]
    fn comparison_is_consistent_with_sums(g in game(), h in game()) {
        prop_assert_eq!(g >= h, g - h >= Cgt::zero());
        prop_assert_eq!(g <= h, g - h <= Cgt::zero());
        prop_assert_eq!(g.relation(h), (g - h).relation(Cgt::zero()));
        // Also by the definition on the formal difference.
        prop_assert_eq!(g.relation(h), g.formal_sum(-h).relation(Cgt::zero()));
        let rev = match g.relation(h) {
            Relation::Less => Relation::Greater,
            Relation::Greater => Relation::Less,
            r => r,
        };
        prop_assert_eq!(h.relation(g), rev);
    }

    #[test]
    fn printing_round_trips(g in game()) {
        let text = g.to_string();
        let back: Cgt = text.parse().map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert!(back.canonical().identical(g.canonical()), "{} -> {}", text, back);
        let ascii = format!("{g:#}");
        let back: Cgt = ascii.parse().map_err(|e| TestCaseError::fail(format!("{ascii}: {e}")))?;
        prop_assert_eq!(back, g);
        let form = g.display_form().to_string();
        let back: Cgt = form.parse().map_err(|e| TestCaseError::fail(format!("{form}: {e}")))?;
        prop_assert!(back.identical(g), "{} -> {}", form, back.display_form());
    }

    #[test]
    fn stops_means_and_thermographs(g in game(), h in game()) {
        prop_assert!(g.left_stop() >= g.right_stop());
        prop_assert!(g.left_stop() >= g.mean() && g.mean() >= g.right_stop());
        let th = g.thermograph();
        prop_assert_eq!(th.walls_at(Dyadic::ZERO), (g.left_stop(), g.right_stop()));
        // The mean is additive.
        prop_assert_eq!((g + h).mean(), g.mean() + h.mean());
        // Numbers are their own means, with negative temperatures.
        if let Some(x) = g.as_number() {
            prop_assert_eq!(g.mean(), x);
            prop_assert!(g.temperature() < Dyadic::ZERO);
        } else {
            prop_assert!(g.temperature() >= Dyadic::ZERO);
        }
    }

    #[test]
    fn cooling_is_additive_and_tracks_the_walls(g in game(), h in game(), t in temperature()) {
        prop_assert_eq!((g + h).cool(t), g.cool(t) + h.cool(t));
        let c = g.cool(t);
        prop_assert_eq!(g.thermograph().walls_at(t), (c.left_stop(), c.right_stop()));
        prop_assert_eq!(c.mean(), g.mean());
        if t > g.temperature() {
            prop_assert_eq!(c, Cgt::number(g.mean()));
        }
    }
}

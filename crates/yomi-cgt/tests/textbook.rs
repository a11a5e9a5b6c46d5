//! Textbook values (Winning Ways; Siegel, Combinatorial Game Theory; Berlekamp & Wolfe,
//! Mathematical Go) and the examples.

use yomi_cgt::{Cgt, Dyadic, Outcome, Relation};

fn g(s: &str) -> Cgt {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn d(num: i128, exp: u32) -> Dyadic {
    Dyadic::new(num, exp)
}

fn int(n: i64) -> Dyadic {
    Dyadic::integer(n)
}

#[test]
fn small_forms_are_the_expected_values() {
    assert_eq!(g("{|}"), Cgt::zero());
    assert_eq!(g("{0|}"), Cgt::integer(1));
    assert_eq!(g("{|0}"), Cgt::integer(-1));
    assert_eq!(g("{1|}"), Cgt::integer(2));
    assert_eq!(g("{0|0}"), Cgt::star());
    assert_eq!(g("{0|1}"), Cgt::number(d(1, 1)));
    assert_eq!(g("{0|1/2}"), Cgt::number(d(1, 2)));
    assert_eq!(g("{1/2|1}"), Cgt::number(d(3, 2)));
    // Simplicity: the simplest number between the options, not the midpoint.
    assert_eq!(g("{0|2}"), Cgt::integer(1));
    assert_eq!(g("{-6|0}"), Cgt::integer(-1));
    assert_eq!(g("{-1|1}"), Cgt::zero());
    assert_eq!(g("{1/4|5}"), Cgt::integer(1));
    assert_eq!(g("{-5/2|-9/4}"), Cgt::number(d(-19, 3)));
    // Reversible options: {*|*} = 0, {0,*|0,*} = *2.
    assert_eq!(g("{*|*}"), Cgt::zero());
    assert_eq!(g("{0,*|0,*}"), Cgt::nimber(2));
    assert_eq!(g("{0,*|0,*}").as_nimber(), Some(2));
    assert_eq!(g("{0|*}"), Cgt::up());
    assert_eq!(g("{*|0}"), Cgt::down());
    assert_eq!(g("{0,*|0}"), Cgt::up() + Cgt::star());
    assert_eq!(g("{0|↑*}"), Cgt::ups(2));
    assert_eq!(g("{0|↑}"), Cgt::ups(2) + Cgt::star());
    assert!(g("{1|0}").as_number().is_none());
}

#[test]
fn canonical_forms_print_in_standard_notation() {
    let cases = [
        ("{|}", "0"),
        ("{0|}", "1"),
        ("{0|1}", "1/2"),
        ("{-1|0}", "-1/2"),
        ("{0|0}", "*"),
        ("{0,*|0,*}", "*2"),
        ("{0|*}", "↑"),
        ("{*|0}", "↓"),
        ("{0,*|0}", "↑*"),
        ("↑+↑", "⇑"),
        ("↑+↑+↑", "↑↑↑"),
        ("{0|↑}", "⇑*"),
        ("{1|1}", "1*"),
        ("{1/2|1/2}", "1/2*"),
        ("1+↑", "1↑"),
        ("-1+↑", "-1↑"),
        ("{1|0}", "{1|0}"),
        ("{1,*|0}", "{1|0}"),
        ("{2|-1}", "{2|-1}"),
        ("{1|-1}", "±1"),
        ("{1/2|-1/2}", "±1/2"),
        ("{{2|0}|-1}", "{{2|0}|-1}"),
        ("{{2|0},1|-1}", "{1,{2|0}|-1}"), // 1 ‖ {2|0}: both stay
        ("{{3|2},1|-1}", "{{3|2}|-1}"),   // 1 < {3|2}: dominated
        ("{0|{0|-2}}", "{0|{0|-2}}"),
        ("*3+*5", "*6"),
        ("-{2|-1}", "{1|-2}"),
    ];
    for (input, want) in cases {
        let v = g(input);
        assert_eq!(v.to_string(), want, "{input}");
        // The printed form reads back as the same game.
        assert_eq!(g(want), v, "{want}");
        assert!(g(want).canonical().identical(v.canonical()), "{want}");
    }
    assert_eq!(format!("{:#}", g("↑+↑+*")), "^^*");
    assert_eq!(format!("{:#}", g("{1|-1}")), "+-1");
    assert_eq!(format!("{:#}", g("-1+↓")), "-1v");
    assert_eq!(g("{1,*|0}").display_form().to_string(), "{1,{0|0}|0}");
}

#[test]
fn nimbers_add_by_xor() {
    let s = Cgt::star();
    assert_eq!(s + s, Cgt::zero());
    assert_eq!(Cgt::nimber(2) + Cgt::nimber(3), Cgt::star());
    assert_eq!(Cgt::nimber(1) + Cgt::nimber(2), Cgt::nimber(3));
    assert_eq!(Cgt::nimber(5) + Cgt::nimber(6), Cgt::nimber(3));
    // Check one nimber sum against the definition, without the XOR shortcut.
    let formal = Cgt::nimber(2).formal_sum(Cgt::nimber(3));
    assert_eq!(formal, Cgt::star());
    assert_eq!(formal.canonical().as_nimber(), Some(1));
    for n in 1..6 {
        assert_eq!(Cgt::nimber(n).outcome(), Outcome::Next);
        assert_eq!(-Cgt::nimber(n), Cgt::nimber(n));
    }
}

#[test]
fn ups_downs_and_stars_compare_as_in_the_books() {
    let up = Cgt::up();
    let star = Cgt::star();
    assert!(up > Cgt::zero());
    assert_eq!(up.relation(star), Relation::Confused); // ↑ ‖ *
    assert!(up.is_confused_with(star));
    assert_eq!(up + star, g("{0,*|0}")); // ↑*
    assert_eq!((up + star).outcome(), Outcome::Next); // ↑* ‖ 0
    let double_up_star = up + up + star;
    assert!(double_up_star > Cgt::zero()); // ⇑* > 0
    assert_eq!(double_up_star, g("{0|↑}"));
    assert_eq!(double_up_star.to_string(), "⇑*");
    assert!(up + up > up);
    assert_eq!(up + Cgt::down(), Cgt::zero());
    assert!(up < Cgt::number(d(1, 10))); // infinitesimal
    assert!(up.is_infinitesimal());
    // tiny-2 = {0 || 0 | -2}: positive, yet smaller than ↑.
    let tiny = g("{0|{0|-2}}");
    assert!(tiny > Cgt::zero());
    assert!(tiny < up);
    assert_eq!(tiny.outcome(), Outcome::Left);
    assert_eq!(Cgt::down().outcome(), Outcome::Right);
    assert_eq!(Cgt::zero().outcome(), Outcome::Previous);
    assert_eq!(Cgt::ups(3).as_number_up_star(), Some((int(0), 3, 0)));
}

#[test]
fn numbers_add_like_numbers() {
    let nums = [d(1, 1), d(3, 2), int(-3), d(-5, 3), int(7), d(11, 4)];
    for &x in &nums {
        for &y in &nums {
            let sum = Cgt::number(x) + Cgt::number(y);
            assert_eq!(sum.as_number(), Some(x + y));
            // ... and the definition agrees (formal sum of the canonical number forms).
            assert_eq!(
                Cgt::number(x).formal_sum(Cgt::number(y)),
                Cgt::number(x + y)
            );
            assert_eq!(Cgt::number(x) < Cgt::number(y), x < y);
        }
    }
    assert_eq!(g("1/2 + 1/4"), Cgt::number(d(3, 2)));
    assert_eq!(g("{0|1} + {0|1}"), Cgt::integer(1));
}

#[test]
fn switches_stops_mean_temperature() {
    let sw = g("{1|0}");
    assert_eq!((sw.left_stop(), sw.right_stop()), (int(1), int(0)));
    assert_eq!(sw.mean(), d(1, 1));
    assert_eq!(sw.temperature(), d(1, 1));
    assert_eq!(sw.outcome(), Outcome::Next);
    assert_eq!(sw + sw, Cgt::integer(1)); // 1/2 ± 1/2 twice: the switches cancel

    // The issue: {2|-1} has mean 1/2 and temperature 3/2.
    let h = g("{2|-1}");
    assert_eq!(h.mean(), d(1, 1));
    assert_eq!(h.temperature(), d(3, 1));
    assert_eq!((h.left_stop(), h.right_stop()), (int(2), int(-1)));

    // ±1/2: mean 0, temperature 1/2.
    let pm = g("{1/2|-1/2}");
    assert_eq!(pm, Cgt::pm(d(1, 1)));
    assert_eq!(pm.mean(), int(0));
    assert_eq!(pm.temperature(), d(1, 1));

    // {{2|0}|-1}: the left option {2|0} has temperature 1 and mean 1; the walls meet at
    // t = 1 (left scaffold R_t({2|0}) - t = 0, right scaffold -1 + t).
    let k = g("{{2|0}|-1}");
    assert_eq!(k.temperature(), int(1));
    assert_eq!(k.mean(), int(0));
    assert_eq!((k.left_stop(), k.right_stop()), (int(0), int(-1)));

    // Subzero temperatures (Siegel): integers -1, m/2^k -1/2^k, infinitesimals 0.
    assert_eq!(Cgt::integer(5).temperature(), int(-1));
    assert_eq!(Cgt::number(d(3, 2)).temperature(), d(-1, 2));
    assert_eq!(Cgt::star().temperature(), int(0));
    assert_eq!(Cgt::up().temperature(), int(0));
    assert_eq!(Cgt::up().mean(), int(0));

    // Means add (sums of switches).
    assert_eq!((sw + h).mean(), int(1));
    assert_eq!((sw + h + Cgt::up()).mean(), int(1));
}

#[test]
fn thermograph_walls() {
    let th = g("{2|-1}").thermograph();
    assert_eq!(th.walls_at(int(0)), (int(2), int(-1)));
    assert_eq!(th.walls_at(int(1)), (int(1), int(0)));
    assert_eq!(th.walls_at(d(3, 1)), (d(1, 1), d(1, 1)));
    assert_eq!(th.walls_at(int(10)), (d(1, 1), d(1, 1)));
    // ±1/2 below its temperature: the options' own subzero walls show at t < -1/2.
    let pm = g("±1/2").thermograph();
    assert_eq!(pm.walls_at(int(0)), (d(1, 1), d(-1, 1)));
    assert_eq!(pm.walls_at(d(-3, 2)), (int(1), int(-1)));
    // The walls are the stops of the cooled game.
    for s in [
        "{2|-1}",
        "{{2|0}|-1}",
        "{3|{1|-2}}",
        "{{4|1},{3|2}|{-1|-3}}",
        "±1+{1|0}",
    ] {
        let x = g(s);
        for t in [int(0), d(1, 2), d(1, 1), d(3, 2), int(1), int(2)] {
            let c = x.cool(t);
            assert_eq!(
                x.thermograph().walls_at(t),
                (c.left_stop(), c.right_stop()),
                "{s} at {t}"
            );
        }
    }
}

#[test]
fn cooling() {
    let sw = g("{1|0}");
    // The issue: Cool({1|0}, 1) = 1/2.
    assert_eq!(sw.cool(int(1)), Cgt::number(d(1, 1)));
    // At exactly its temperature the game is not frozen yet: {1/2 | 1/2} = 1/2*.
    assert_eq!(sw.cool(d(1, 1)), g("1/2*"));
    assert_eq!(sw.cool(d(1, 2)), g("{3/4|1/4}"));
    assert_eq!(sw.cool(int(0)), sw);
    // ±1 cooled by 1 is *; any hotter cooling freezes it at 0.
    assert_eq!(g("±1").cool(int(1)), Cgt::star());
    assert_eq!(g("±1").cool(int(2)), Cgt::zero());
    assert_eq!(g("±3").cool(int(1)), g("±2"));
    // {2|-1} cooled by 1 is {1|0}; by its temperature 3/2 it is 1/2*, above it 1/2.
    assert_eq!(g("{2|-1}").cool(int(1)), sw);
    assert_eq!(g("{2|-1}").cool(d(3, 1)), g("1/2*"));
    assert_eq!(g("{2|-1}").cool(int(2)), Cgt::number(d(1, 1)));
    // Numbers never change; infinitesimals freeze at 0 for t > 0.
    assert_eq!(Cgt::number(d(3, 2)).cool(int(3)), Cgt::number(d(3, 2)));
    assert_eq!(Cgt::up().cool(d(1, 4)), Cgt::zero());
    // Cooling is additive (for a common temperature): Cool(G+H) = Cool(G) + Cool(H).
    let (a, b) = (g("{3|{1|-2}}"), g("{{4|1}|-1}"));
    for t in [d(1, 1), int(1), d(3, 2)] {
        assert_eq!((a + b).cool(t), a.cool(t) + b.cool(t), "t = {t}");
    }
}

#[test]
fn heating_inverts_cooling_for_hot_switches() {
    assert_eq!(Cgt::star().heat(int(1)), g("±1"));
    assert_eq!(g("±3").cool(int(1)).heat(int(1)), g("±3"));
    assert_eq!(g("{5|1}").cool(int(1)).heat(int(1)), g("{5|1}"));
    assert_eq!(Cgt::number(d(1, 1)).heat(int(4)), Cgt::number(d(1, 1)));
}

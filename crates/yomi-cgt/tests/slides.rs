//! The CGT analyses of the seed slides (Nakamura & Ishida, GPW 2015, seed 004),
//! reconstructed as far as the slides' text allows.
//!
//! The slides' board diagrams are not in the text, so the regions below are *models*:
//! the smallest games with exactly the values the slides state. P1-A: the left region G
//! has temperature 1 and `Cool(G, 1) = {G_a, G_b | G_B} − 4` with `G_a > G_b` (so `G_b`
//! is pruned); the right region is `H = {1 | 0}` with `Cool(H, 1) = 1/2` and temperature
//! 1/2; the correct move (black a) wins by 1 point (black 7, white 6) and the mistake gives
//! jigo. P1-B: the same local values with every move winning, the correct one by 15
//! (black 21, white 6) and both mistakes by 14 (black 20 / white 7). The model takes
//! `G = {−3, −4 | −5}`: black a gives −3, black b −4, white's move −5.
//!
//! The failure analysis ("失敗原因"): for `G = H₁ + H₂ + …`, the difference game only
//! weighs `H₁^L + H₂` against `H₁ + H₂^L` (the rest cancels against its reversal), i.e. it
//! compares the incentives `H₁^L − H₁` and `H₂^L − H₂`. When they are incomparable the
//! best move depends on the rest of the board, which the difference game cannot see.

use yomi_cgt::{Cgt, Dyadic, Outcome, Relation};

fn g(s: &str) -> Cgt {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn int(n: i64) -> Dyadic {
    Dyadic::integer(n)
}

/// The score Black (Left) reaches by playing to `after` and then both sides playing
/// well down to a number: the right stop, since White moves next.
fn result_after(after: Cgt) -> Dyadic {
    after.right_stop()
}

struct P1 {
    g: Cgt,
    g_a: Cgt,
    g_b: Cgt,
    h: Cgt,
}

fn p1() -> P1 {
    P1 {
        g: g("{-3,-4|-5}"),
        g_a: Cgt::integer(-3),
        g_b: Cgt::integer(-4),
        h: g("{1|0}"),
    }
}

#[test]
fn p1a_right_region_h_is_one_zero() {
    let P1 { h, .. } = p1();
    // Slides: Cool(H, 1) = {1 − 1 | 0 + 1} = {0 | 1} = 1/2.
    let naive = Cgt::from_options(&[Cgt::integer(1 - 1)], &[Cgt::integer(1)]);
    assert_eq!(naive, Cgt::number(Dyadic::HALF));
    assert_eq!(h.cool(int(1)), naive);
    assert_eq!(h.temperature(), Dyadic::HALF);
}

#[test]
fn p1a_left_region_cools_to_minus_four_and_prunes_g_b() {
    let P1 { g, g_a, g_b, .. } = p1();
    assert_eq!(g.temperature(), int(1));
    assert_eq!(g.mean(), int(-4));
    assert!(g_a > g_b);
    // G_b is dominated: the canonical form keeps only G_a.
    assert_eq!(g.canonical().left_options(), vec![g_a]);
    // Cool(G, 1) = {Cool(G_a,1) − 1, Cool(G_b,1) − 1 | Cool(G_B,1) + 1} = {−4, −5 | −4}
    // = {G_a | G_B} − 4 with both cooled options at 0: −4*.
    let one = int(1);
    let cooled = g.cool(one);
    let by_hand = Cgt::from_options(
        &[
            g_a.cool(one) - Cgt::integer(1),
            g_b.cool(one) - Cgt::integer(1),
        ],
        &[Cgt::integer(-5).cool(one) + Cgt::integer(1)],
    );
    assert_eq!(cooled, by_hand);
    assert_eq!(cooled, Cgt::star() - Cgt::integer(4));
    assert_eq!(cooled.to_string(), "-4*");
}

#[test]
fn p1a_black_a_in_the_hotter_region_wins_by_one() {
    let P1 { g, g_a, g_b, h } = p1();
    // "G の温度 = 1, H の温度 = 1/2 → 黒 a が最善".
    assert!(g.temperature() > h.temperature());
    let komi = Cgt::integer(4);
    let h_l = h.left_options()[0];
    let a = result_after(g_a + h + komi);
    let b = result_after(g_b + h + komi);
    let in_h = result_after(g + h_l + komi);
    assert_eq!(a, int(1)); // 黒7目, 白6目: black wins by 1
    assert_eq!(b, int(0)); // jigo
    assert_eq!(in_h, int(0)); // jigo
                              // The best result over all of Black's moves is the left stop of the whole board.
    assert_eq!((g + h + komi).left_stop(), a);
}

#[test]
fn p1b_every_move_wins_and_the_difference_game_still_finds_a() {
    let P1 { g, g_a, g_b, h } = p1();
    let komi = Cgt::integer(18);
    let h_l = h.left_options()[0];
    let a = result_after(g_a + h + komi);
    let b = result_after(g_b + h + komi);
    let in_h = result_after(g + h_l + komi);
    assert_eq!(a, int(15)); // 黒21目, 白6目
    assert_eq!(b, int(14)); // 黒20目, 白6目
    assert_eq!(in_h, int(14)); // 黒21目, 白7目
                               // Win rate cannot separate them (all > 0); the difference game can: Black's position
                               // after a minus the position after the other moves is a win for Black whoever starts.
    let after_a = g_a + h;
    assert_eq!((after_a - (g_b + h)).outcome(), Outcome::Left);
    assert_eq!((after_a - (g + h_l)).outcome(), Outcome::Left);
    assert_eq!(after_a.relation(g + h_l), Relation::Greater);
}

#[test]
fn incomparable_incentives_make_the_best_move_depend_on_the_rest() {
    // Two regions of the same temperature: ±1 (gote) and {1 | {0 | −2}}.
    let h1 = g("±1");
    let h2 = g("{1|{0|-2}}");
    assert_eq!(h1.temperature(), int(1));
    assert_eq!(h2.temperature(), int(1));
    let (h1_l, h2_l) = (h1.left_options()[0], h2.left_options()[0]);
    // Incentives {2|0} and {{3|1}|0}: confused, so the difference game
    // (H₁^L + H₂) − (H₁ + H₂^L) is a first-player win and ranks neither move.
    let (d1, d2) = (h1_l - h1, h2_l - h2);
    assert_eq!(d1, g("{2|0}"));
    assert_eq!(d2, g("{{3|1}|0}"));
    assert_eq!(d1.relation(d2), Relation::Confused);
    assert_eq!(((h1_l + h2) - (h1 + h2_l)).outcome(), Outcome::Next);
    // With nothing else on the board, playing in H₁ is better (1 against 0)…
    let rest = Cgt::zero();
    assert_eq!(result_after(h1_l + h2 + rest), int(1));
    assert_eq!(result_after(h1 + h2_l + rest), int(0));
    // …with another ±1 elsewhere, playing in H₂ is (0 against 1).
    let rest = g("±1");
    assert_eq!(result_after(h1_l + h2 + rest), int(0));
    assert_eq!(result_after(h1 + h2_l + rest), int(1));
}

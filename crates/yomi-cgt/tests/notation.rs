//! The notation: accepted spellings, typed errors with positions, and no panics on any
//! input (damaged strings, random bytes, huge or deep input).

use proptest::prelude::*;
use yomi_cgt::{Cgt, Dyadic, ParseErrorKind};

fn g(s: &str) -> Cgt {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

#[test]
fn spellings() {
    assert_eq!(g("^"), g("↑"));
    assert_eq!(g("^^"), g("⇑"));
    assert_eq!(g("v"), g("↓"));
    assert_eq!(g("vv"), g("⇓"));
    assert_eq!(g("⇓"), -g("⇑"));
    assert_eq!(g("+-1"), g("±1"));
    assert_eq!(g("*1"), Cgt::star());
    assert_eq!(g("*0"), Cgt::zero());
    assert_eq!(g(" { 1 , * | 0 } "), g("{1,*|0}"));
    assert_eq!(g("-3"), Cgt::integer(-3));
    assert_eq!(g("- 3"), Cgt::integer(-3));
    assert_eq!(g("--3"), Cgt::integer(3));
    assert_eq!(g("-{2|-1}"), g("{1|-2}"));
    assert_eq!(g("-↑"), g("↓"));
    assert_eq!(g("-1↑"), Cgt::integer(-1) + Cgt::up()); // the sign belongs to the number
    assert_eq!(g("1-1"), Cgt::zero());
    assert_eq!(g("(1+*)-(1+*)"), Cgt::zero());
    assert_eq!(
        g("{2|0||-1}"
            .replace("||", "}|")
            .replacen('{', "{{", 1)
            .as_str()),
        g("{{2|0}|-1}")
    );
    assert_eq!(g("6/8"), Cgt::number(Dyadic::new(3, 2)));
    assert_eq!(g("{ | }"), Cgt::zero());
    assert_eq!("-5/4".parse::<Dyadic>(), Ok(Dyadic::new(-5, 2)));
}

#[test]
fn typed_errors_with_positions() {
    let err = |s: &str| s.parse::<Cgt>().unwrap_err();
    assert_eq!(err("").kind, ParseErrorKind::Empty);
    assert_eq!(err("   ").kind, ParseErrorKind::Empty);
    let e = err("{1|0");
    assert_eq!(
        (e.kind, e.pos),
        (ParseErrorKind::UnexpectedEnd("',', '|' or '}'"), 4)
    );
    let e = err("{1 0}");
    assert_eq!(
        (e.kind, e.pos),
        (
            ParseErrorKind::Unexpected {
                found: '0',
                expected: "',' or '|'"
            },
            3
        )
    );
    let e = err("1/3");
    assert_eq!((e.kind, e.pos), (ParseErrorKind::NotDyadic, 2));
    let e = err("1/0");
    assert_eq!((e.kind, e.pos), (ParseErrorKind::ZeroDenominator, 2));
    let e = err("{1|2|3}");
    assert_eq!((e.kind, e.pos), (ParseErrorKind::AmbiguousBars, 4));
    let e = err("{1}");
    assert_eq!(
        e.kind,
        ParseErrorKind::Unexpected {
            found: '}',
            expected: "',' or '|'"
        }
    );
    let e = err("{1|0}}");
    assert_eq!(e.pos, 5);
    let e = err("99999999999999999999999");
    assert_eq!((e.kind, e.pos), (ParseErrorKind::NumberTooLarge, 0));
    assert_eq!(err("*9999").kind, ParseErrorKind::NimberTooLarge);
    assert_eq!(err(&"^".repeat(65)).kind, ParseErrorKind::TooManyArrows);
    assert_eq!(err(&"{".repeat(101)).kind, ParseErrorKind::TooDeep);
    assert_eq!(err(&"-".repeat(1000)).kind, ParseErrorKind::TooDeep);
    assert_eq!(err(&"(".repeat(5000)).kind, ParseErrorKind::TooDeep);
    assert_eq!(
        err(&vec!["1"; 14].join("+")).kind,
        ParseErrorKind::TooManyOperators
    );
    assert_eq!(err(&" ".repeat(20_000)).kind, ParseErrorKind::TooLong);
    let e = err("{1|0} x");
    assert_eq!(
        (e.kind, e.pos),
        (
            ParseErrorKind::Unexpected {
                found: 'x',
                expected: "'+', '-' or the end"
            },
            6
        )
    );
    // Positions are byte offsets, also after multi-byte characters.
    let e = err("↑ ↑");
    assert_eq!(e.pos, 4);
    assert!(err("±").to_string().contains("at byte 2"));
    assert!(err("{1|0").to_string().contains("expected ',', '|' or '}'"));
}

#[test]
fn deep_but_legal_nesting_is_fine() {
    let mut s = String::from("0");
    for _ in 0..100 {
        s = format!("{{{s}|}}");
    }
    assert_eq!(g(&s), Cgt::integer(100));
    let mut s = String::from("0");
    for _ in 0..60 {
        s = format!("{{0|{s}}}");
    }
    // {0|{0|…{0|0}…}}: *, ↑, ⇑*, ↑↑↑, … alternately with and without a star.
    assert_eq!(g(&s).as_number_up_star(), Some((Dyadic::ZERO, 59, 0)));
    assert_eq!(g(&s), Cgt::ups(59));
}

const VALID: &[&str] = &[
    "{1|0}",
    "{2|-1}",
    "{{2|0}|-1}",
    "{1,*|0}",
    "1/2↑*",
    "±1/2 + {0|*}",
    "{0|{0|-2}}",
    "{0||0|-2}",
    "-(*2 + ^^)",
];

fn check(s: &str) {
    // Never panics; a success prints something that parses back to the same game.
    if let Ok(v) = s.parse::<Cgt>() {
        let text = v.to_string();
        let back: Cgt = text
            .parse()
            .unwrap_or_else(|e| panic!("{s:?} printed {text:?}: {e}"));
        assert_eq!(back, v, "{s:?}");
    }
}

#[test]
fn damaged_strings_never_panic() {
    for v in VALID {
        let chars: Vec<char> = v.chars().collect();
        for i in 0..chars.len() {
            // Drop one character.
            let s: String = chars
                .iter()
                .enumerate()
                .filter(|p| p.0 != i)
                .map(|p| p.1)
                .collect();
            check(&s);
            // Truncate.
            check(&chars[..i].iter().collect::<String>());
            // Replace or insert a troublesome character.
            for c in [
                '{', '}', '|', ',', '/', '-', '+', '*', '^', '0', 'v', '±', 'é', '\0',
            ] {
                let mut r = chars.clone();
                r[i] = c;
                check(&r.iter().collect::<String>());
                let mut ins = chars.clone();
                ins.insert(i, c);
                check(&ins.iter().collect::<String>());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_notation_never_panics(s in "[-{}|,*/^v↑↓⇑⇓±+() 0-9]{0,24}") {
        check(&s);
    }

    #[test]
    fn random_unicode_never_panics(s in "\\PC{0,16}") {
        check(&s);
    }
}

/// Found by fuzzing (`fuzz/run.sh cgt`): a sum of down-arrow literals reached 72·↑, which
/// was printed as 72 arrows and then refused by the parser (more than 64 in a row). Large
/// multiples now print with a count (`↑×72`) that reads back, up to `MAX_ARROW_COUNT`.
#[test]
fn large_multiples_of_up_print_with_a_count_and_read_back() {
    let err = |s: &str| s.parse::<Cgt>().unwrap_err();
    let text = "6vvvvvvvvvvvvvvvv-vvv---------vvvvvvvvvvvvvvvvvvv---------vvvvvvvvv-vvv---------vvvvvvvvvvvvvv---vvv-vvvvvvvvvvvvvvvvvvv---------vvvvvvvvvvvvvv";
    let g: Cgt = text.parse().unwrap();
    let printed = g.canonical().to_string();
    assert!(printed.contains('×'), "{printed}");
    let again: Cgt = printed.parse().unwrap();
    assert_eq!(again.canonical(), g.canonical());
    assert_eq!("↑×72".parse::<Cgt>().unwrap(), Cgt::ups(72));
    assert_eq!(
        "v×3*".parse::<Cgt>().unwrap(),
        "↓↓↓*".parse::<Cgt>().unwrap()
    );
    assert_eq!("⇑×3".parse::<Cgt>().unwrap(), Cgt::ups(6));
    assert_eq!(Cgt::ups(5).to_string(), "↑×5");
    assert_eq!(Cgt::ups(-4).to_string(), "↓↓↓↓");
    // The deepest nesting gives 99·↑, printed with a count and read back.
    let mut s = String::from("0");
    for _ in 0..100 {
        s = format!("{{0|{s}}}");
    }
    let deep: Cgt = s.parse().unwrap();
    assert_eq!(deep.to_string().parse::<Cgt>().unwrap(), deep);
    assert_eq!(
        err(&format!("↑×{}", yomi_cgt::parse::MAX_ARROW_COUNT + 1)).kind,
        ParseErrorKind::TooManyArrows
    );
    assert!(matches!(err("↑×").kind, ParseErrorKind::UnexpectedEnd(_)));
    // The largest count builds without deep recursion, on a small stack.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let g: Cgt = format!("↑×{}", yomi_cgt::parse::MAX_ARROW_COUNT)
                .parse()
                .unwrap();
            assert_eq!(g, Cgt::ups(yomi_cgt::parse::MAX_ARROW_COUNT));
        })
        .unwrap()
        .join()
        .unwrap();
}

/// Found by fuzzing (`fuzz/run.sh cgt`): `*256+*` is `*257`, which printed and then was
/// refused (nimbers were capped at `*256`). The cap is now `2^11 − 1`, closed under nim
/// addition, so every sum of accepted nimbers reads back.
#[test]
fn nim_sums_of_accepted_nimbers_read_back() {
    for text in ["*256+*", "*256+*86", "*2047+*1024", "*1500 + *1000 + *7"] {
        let g: Cgt = text.parse().unwrap();
        let printed = g.canonical().to_string();
        let again: Cgt = printed.parse().unwrap_or_else(|e| panic!("{printed}: {e}"));
        assert_eq!(again.canonical(), g.canonical(), "{text}");
    }
    assert_eq!("*256+*".parse::<Cgt>().unwrap().to_string(), "*257");
    assert_eq!(
        "*2048".parse::<Cgt>().unwrap_err().kind,
        ParseErrorKind::NimberTooLarge
    );
}

/// Found by fuzzing (`fuzz/run.sh cgt`): `4222222222+222222224` read (each literal under
/// the `2^32` cap) and printed `4444444446`, which the parser refused. Sums and brace
/// forms leave the literal range, so the value is checked: an input whose canonical form
/// holds a number out of range is refused, and every accepted value reads back.
#[test]
fn a_sum_of_two_in_range_literals_beyond_the_range_is_refused_not_printed_unreadably() {
    let e = "4222222222+222222224".parse::<Cgt>().unwrap_err();
    assert_eq!(
        e.kind,
        ParseErrorKind::ValueOutOfRange(Dyadic::integer(4_444_444_446))
    );
    assert!(e.to_string().contains("4444444446"), "{e}");
    // `{n|}` is n + 1.
    assert_eq!(
        "{4294967296|}".parse::<Cgt>().unwrap_err().kind,
        ParseErrorKind::ValueOutOfRange(Dyadic::integer(4_294_967_297))
    );
    // Inside a hot game too: the canonical sum's options hold 4294967297.
    assert!(matches!(
        "{4294967296|0} + {4294967295|1}"
            .parse::<Cgt>()
            .unwrap_err()
            .kind,
        ParseErrorKind::ValueOutOfRange(_)
    ));
    // In range, a numerator above 2^32 prints, and reads back, over its denominator.
    for text in [
        "5 + 1/4294967296",
        "4294967295 + 1",
        "{2147483648|0} + {2147483647|1}",
    ] {
        let g: Cgt = text.parse().unwrap();
        let printed = g.canonical().to_string();
        let again: Cgt = printed.parse().unwrap_or_else(|e| panic!("{printed}: {e}"));
        assert_eq!(again.canonical(), g.canonical(), "{text}");
    }
    assert_eq!(
        "5 + 1/4294967296".parse::<Cgt>().unwrap().to_string(),
        "21474836481/4294967296"
    );
    assert_eq!(
        "4294967297/1".parse::<Cgt>().unwrap_err().kind,
        ParseErrorKind::NumberTooLarge
    );
}

/// A brace form nested 99 deep around `1/2^32` reads (each level is legal) but its value,
/// `1/2^131`, is finer than the `2^120` denominators `Dyadic` holds: the canonical form
/// came out as `1/2^120`, and printing it panicked in the thermograph ("wall slopes differ
/// by 1 or 2"). Refused now, since `{0|1/2^32}` already needs a denominator of `2^33`.
#[test]
fn nested_halvings_past_the_denominator_range_are_refused_not_a_panic() {
    let deep = format!("{}1/4294967296{}", "{0|".repeat(99), "}".repeat(99));
    let e = deep.parse::<Cgt>().unwrap_err();
    assert!(
        matches!(e.kind, ParseErrorKind::ValueOutOfRange(x) if x.exponent() > 32),
        "{e}"
    );
    assert!(matches!(
        "{0|1/4294967296}".parse::<Cgt>().unwrap_err().kind,
        ParseErrorKind::ValueOutOfRange(x) if x == Dyadic::new(1, 33)
    ));
    // Shallow halvings inside the range still read, and print.
    let g: Cgt = format!("{}1/1024{}", "{0|".repeat(20), "}".repeat(20))
        .parse()
        .unwrap();
    assert_eq!(g.canonical().to_string(), "1/1073741824");
}

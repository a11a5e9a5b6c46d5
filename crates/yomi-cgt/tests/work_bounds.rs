//! Work on big numbers inside games is bounded: temperature and cooling answer quickly
//! (or refuse with an error) whatever the parser lets through.

use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use yomi_cgt::{with_work_limit, Cgt, Dyadic};

fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit).expect("answered in bounded time")
}

#[test]
fn cooling_128_0_minus_1_answers_quickly_and_correctly() {
    let t0 = Instant::now();
    let (temp, mean, half, one) = within(Duration::from_secs(20), || {
        let g: Cgt = "{{128|0}|-1}".parse().unwrap();
        let half = g.cool(Dyadic::HALF);
        let one = g.cool(Dyadic::ONE);
        // Display looks for the shape x + n·↑ + *k: that search must stay cheap too.
        (g.temperature(), g.mean(), half.to_string(), one.to_string())
    });
    // Left's move to {128|0} is answered by Right's move to 0: the scaffolds 0 and
    // t − 1 meet at t = 1, mean 0. Cooling by t: {{128 − 2t | 0} | t − 1}.
    assert_eq!(temp, Dyadic::ONE);
    assert_eq!(mean, Dyadic::ZERO);
    assert_eq!(half, "{{127|0}|-1/2}");
    assert_eq!(one, "{{126|0}|0}");
    assert!(t0.elapsed() < Duration::from_secs(5), "{:?}", t0.elapsed());
}

#[test]
fn games_with_numbers_up_to_the_parser_limit_answer_quickly() {
    for text in [
        "{{4294967296|0}|-1}",
        "{{{4294967296|0}|0}|0}",
        "{0|{0|-4294967296}}",
        "{{{{{4294967296|0}|-1}|-2}|-3}|-4}",
        "{2147483648|0} + {2147483647|1}",
    ] {
        let t0 = Instant::now();
        let owned = text.to_string();
        let shown = within(Duration::from_secs(20), move || {
            let g: Cgt = owned.parse().unwrap();
            format!(
                "{} {} {} {:?} {} {} {}",
                g,
                g.mean(),
                g.temperature(),
                g.as_number_up_star(),
                g.cool(Dyadic::HALF),
                g.cool(Dyadic::ONE),
                g.heat(Dyadic::ONE)
            )
        });
        assert!(
            t0.elapsed() < Duration::from_secs(5),
            "{text}: {:?} for {shown}",
            t0.elapsed()
        );
    }
}

#[test]
fn ups_and_stars_are_still_recognised() {
    for (text, want) in [
        ("^ + ^ + *", (Dyadic::ZERO, 2, 1)),
        ("3 + ^ + ^ + ^ + *2", (Dyadic::integer(3), 3, 2)),
        ("v + *3 + 1/2", (Dyadic::HALF, -1, 3)),
    ] {
        let g: Cgt = text.parse().unwrap();
        assert_eq!(g.as_number_up_star(), Some(want), "{text}");
    }
}

#[test]
fn a_sum_too_large_to_analyse_stops_at_the_work_limit_with_an_error() {
    let t0 = Instant::now();
    let r = within(Duration::from_secs(60), || {
        yomi_cgt::with_work_limit(2_000_000, || {
            let g: Cgt = "*256 + {4294967296|0}".parse().unwrap();
            g.to_string()
        })
    });
    let e = r.unwrap_err();
    assert!(e.to_string().contains("too large"), "{e}");
    assert!(t0.elapsed() < Duration::from_secs(20), "{:?}", t0.elapsed());
    // The store is still sound and usable, on this thread and others.
    let g: Cgt = "{2|-1}".parse().unwrap();
    assert_eq!(g.temperature(), Dyadic::new(3, 1));
    let ok = yomi_cgt::with_work_limit(1_000_000, || g.cool(Dyadic::ONE).to_string());
    assert_eq!(ok.unwrap(), "{1|0}");
}

/// Found by fuzzing (`fuzz/run.sh cgt`, each input on an empty store): `*1905` ran past
/// the harness's 10 s under a 20,000-step limit, since building a nimber's options
/// (about n²/2 of them for `*n`) was not counted as work.
#[test]
fn a_large_nimber_costs_work_in_proportion_to_its_options() {
    let small = with_work_limit(20_000, || "*1905".parse::<Cgt>());
    assert!(small.is_err(), "*1905 built within 20,000 steps");
    let g = with_work_limit(20_000_000, || "*1905".parse::<Cgt>())
        .expect("*1905 fits the command line's default limit")
        .unwrap();
    assert_eq!(g.to_string(), "*1905");
}

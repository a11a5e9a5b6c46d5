//! The shipped yose suite: every problem re-proven, SGF round trips, typed errors, and the
//! GTP scoring loop against GNU Go when it is installed.

use std::path::{Path, PathBuf};
use std::time::Duration;

use yomi_go::yose::{load_suite, Kind, Problem};
use yomi_go::yose_score::{ask, judge};
use yomi_go::{Vertex, YoseError};

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("data/yose")
}

#[test]
fn every_shipped_problem_is_proven_again() {
    let suite = load_suite(&suite_dir()).unwrap();
    assert!(suite.len() >= 30, "{} problems", suite.len());
    let a = suite.iter().filter(|p| p.kind == Kind::A).count();
    let b = suite.iter().filter(|p| p.kind == Kind::B).count();
    assert!(a >= 10 && b >= 10, "A {a}, B {b}");
    for p in &suite {
        let proof = p
            .verify(Duration::from_secs(60))
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        // A: only the best wins; B: everything has the same winner.
        let winners = proof.values.iter().filter(|v| p.wins(v.1)).count();
        match p.kind {
            Kind::A => assert_eq!(winners, p.correct.len(), "{}", p.name),
            Kind::B => assert!(winners == 0 || winners == proof.values.len(), "{}", p.name),
        }
    }
}

#[test]
fn problems_round_trip_through_sgf() {
    for p in load_suite(&suite_dir()).unwrap() {
        let again = Problem::parse(&p.to_sgf(), "x").unwrap();
        assert_eq!(again, p);
    }
}

#[test]
fn a_tampered_problem_fails_verification() {
    let suite = load_suite(&suite_dir()).unwrap();
    let p = &suite[0];
    // A wrong stored value.
    let mut bad = p.clone();
    bad.values[0].1 += 1;
    assert!(matches!(
        bad.verify(Duration::from_secs(60)),
        Err(YoseError::Mismatch(_))
    ));
    // A wrong answer set: a candidate that is not best.
    let mut bad = p.clone();
    let worse = p
        .values
        .iter()
        .find(|v| !p.correct.contains(&v.0))
        .unwrap()
        .0;
    bad.correct = vec![worse];
    assert!(matches!(
        bad.verify(Duration::from_secs(60)),
        Err(YoseError::Mismatch(_))
    ));
    // The other kind under the same komi.
    let mut bad = p.clone();
    bad.kind = if p.kind == Kind::A { Kind::B } else { Kind::A };
    assert!(matches!(
        bad.verify(Duration::from_secs(60)),
        Err(YoseError::Mismatch(_))
    ));
}

#[test]
fn malformed_problem_files_give_typed_errors() {
    let p = &load_suite(&suite_dir()).unwrap()[0];
    let text = p.to_sgf();
    assert!(matches!(
        Problem::parse("(;SZ[7]", "x"),
        Err(YoseError::Sgf(_))
    ));
    assert!(matches!(
        Problem::parse(&text.replace("YK[", "YX["), "x"),
        Err(YoseError::Property { .. })
    ));
    let bad_value = text.replacen("YV[", "YV[A1 lots][", 1);
    assert!(matches!(
        Problem::parse(&bad_value, "x"),
        Err(YoseError::Property { .. })
    ));
    assert!(matches!(
        load_suite(Path::new("/nonexistent/yose")),
        Err(YoseError::File { .. })
    ));
}

#[test]
fn answers_are_judged_against_the_proven_moves() {
    let p = &load_suite(&suite_dir()).unwrap()[0];
    let right = p.correct[0].to_gtp(p.size);
    assert!(judge(p, &right));
    assert!(judge(p, &right.to_lowercase()));
    assert!(!judge(p, "pass"));
    assert!(!judge(p, "resign"));
    assert!(!judge(p, "Z99"));
    let wrong = p
        .values
        .iter()
        .map(|v| v.0)
        .find(|v| !v.is_pass() && !p.correct.contains(v))
        .map_or(Vertex::PASS, |v| v);
    assert!(!judge(p, &wrong.to_gtp(p.size)));
}

#[test]
fn gnu_go_answers_suite_problems_through_gtp() {
    let gnugo = "/usr/games/gnugo";
    if !Path::new(gnugo).exists() {
        eprintln!("skipped: GNU Go is not installed at {gnugo}");
        return;
    }
    let suite = load_suite(&suite_dir()).unwrap();
    let mut client =
        yomi_go::gtp_client::GtpClient::spawn(&format!("{gnugo} --mode gtp --level 1")).unwrap();
    for p in suite.iter().take(2) {
        let (answer, _) = ask(&mut client, p, Duration::from_secs(60)).unwrap();
        // Whatever it plays, it is a vertex, a pass or a resignation of this board.
        let ok =
            answer.eq_ignore_ascii_case("resign") || Vertex::parse_gtp(&answer, p.size).is_ok();
        assert!(ok, "{}: answer {answer:?}", p.name);
        let _ = judge(p, &answer);
    }
    // A refused command is a typed failure, not a hang.
    assert!(client.send("play b Z99", Duration::from_secs(10)).is_err());
}

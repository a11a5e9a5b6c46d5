//! The GTP engine driven in-process: a scripted session, malformed commands, and (when
//! GNU Go is installed) a refereed 9×9 game against GNU Go with both programs agreeing on
//! the final score.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use yomi_go::gtp::{GtpConfig, GtpEngine};

fn engine() -> GtpEngine {
    GtpEngine::new(GtpConfig {
        agent: "mcts:iters=300".into(),
        ownership_playouts: 100,
        ..GtpConfig::default()
    })
    .unwrap()
}

fn ask(e: &mut GtpEngine, line: &str) -> String {
    e.handle_line(line).unwrap_or_default()
}

#[test]
fn scripted_session() {
    let script = "protocol_version\n1 name\n# a comment line\n\n2 version\n\
                  known_command genmove\nknown_command fly\nboardsize 5\nclear_board\n\
                  komi 0.5\nplay b c3\n10 play w B2\nplay black C2\nshowboard\nundo\n\
                  genmove w\nfinal_score\nquit\nname\n";
    let mut out = Vec::new();
    let mut e = engine();
    e.run(std::io::Cursor::new(script), &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = text.split("\n\n").filter(|s| !s.is_empty()).collect();
    assert_eq!(answers[0], "= 2");
    assert_eq!(answers[1], "=1 yomi");
    assert!(answers[2].starts_with("=2 "));
    assert_eq!(answers[3], "= true");
    assert_eq!(answers[4], "= false");
    assert_eq!(&answers[5..10], &["=", "=", "=", "=", "=10"]);
    assert_eq!(answers[10], "=");
    assert!(
        answers[11].contains(" 5  . . . . . 5") || answers[11].contains("A B C D E"),
        "{}",
        answers[11]
    );
    assert_eq!(answers[12], "=");
    assert!(answers[13].starts_with("= "), "{}", answers[13]);
    assert!(
        answers[14].starts_with("= B+") || answers[14].starts_with("= W+") || answers[14] == "= 0",
        "{}",
        answers[14]
    );
    assert_eq!(answers[15], "=");
    assert_eq!(answers.len(), 16, "nothing is answered after quit: {text}");
    assert!(e.has_quit());
}

#[test]
fn malformed_commands_get_errors_and_the_engine_lives() {
    let mut e = engine();
    for (line, expect) in [
        ("fly", "? unknown command"),
        ("5 fly", "?5 unknown command"),
        ("boardsize", "? boardsize needs a size"),
        ("boardsize 25", "? unacceptable size"),
        ("boardsize x", "? boardsize needs an integer"),
        ("komi abc", "? komi needs a number"),
        ("play", "? play needs a colour and a vertex"),
        ("play red A1", "? invalid color"),
        ("play b Z99", "? invalid vertex"),
        ("play b I3", "? invalid vertex"),
        ("undo", "? cannot undo"),
        ("genmove", "? genmove needs a colour"),
        ("final_status_list", "? final_status_list"),
        ("final_status_list bogus", "? final_status_list"),
        ("time_settings 1 2", "? time_settings"),
        ("time_left b x 0", "? syntax error"),
        ("loadsgf /nonexistent/file.sgf", "? cannot load file"),
        ("known_command", "? known_command needs"),
        ("\u{1}\u{7f}\t", ""),
        ("12", "?12 missing command"),
    ] {
        let r = ask(&mut e, line);
        if expect.is_empty() {
            assert!(r.is_empty(), "{line:?}: {r:?}");
        } else {
            assert!(r.starts_with(expect), "{line:?}: {r:?}");
            assert!(r.ends_with("\n\n"), "{line:?}: {r:?}");
        }
    }
    // Illegal moves: occupied point, suicide; the engine still plays afterwards.
    assert_eq!(ask(&mut e, "play b E5"), "=\n\n");
    assert_eq!(ask(&mut e, "play w E5"), "? illegal move\n\n");
    assert_eq!(
        ask(&mut e, "list_commands").lines().count(),
        yomi_core::gtp::ADMIN_COMMANDS.len() + yomi_go::gtp::COMMANDS.len() + 1
    );
    assert!(ask(&mut e, "genmove b").starts_with("= "));
    // Random bytes never panic.
    let mut rng = yomi_core::Rng::seed_from_u64(9);
    for _ in 0..300 {
        let len = rng.below(30);
        let line: String = (0..len)
            .map(|_| char::from_u32(rng.below(128) as u32).unwrap_or(' '))
            .collect();
        let _ = e.handle_line(&line);
    }
    assert!(ask(&mut e, "protocol_version").starts_with("= 2"));
}

#[test]
fn loadsgf_and_final_status() {
    let dir = std::env::temp_dir().join(format!("yomi-go-gtp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("g.sgf");
    std::fs::write(&path, "(;GM[1]SZ[7]KM[0.5];B[dd];W[cc];B[ee])").unwrap();
    let mut e = engine();
    let r = ask(&mut e, &format!("loadsgf {} 3", path.display()));
    assert_eq!(r, "= black\n\n", "two moves, Black to play");
    assert_eq!(e.state().move_number(), 2);
    let r = ask(&mut e, &format!("loadsgf {}", path.display()));
    assert_eq!(r, "= white\n\n");
    std::fs::write(&path, "(;GM[1]SZ[7];B[dd];W[dd])").unwrap();
    assert!(ask(&mut e, &format!("loadsgf {}", path.display())).starts_with("? cannot load file"));
    let alive = ask(&mut e, "final_status_list alive");
    assert!(alive.starts_with("= "), "{alive}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A GTP peer over pipes.
struct Peer {
    child: std::process::Child,
    out: BufReader<std::process::ChildStdout>,
}

impl Peer {
    fn ask(&mut self, cmd: &str) -> String {
        let stdin = self.child.stdin.as_mut().unwrap();
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
        let mut resp = String::new();
        loop {
            let mut line = String::new();
            if self.out.read_line(&mut line).unwrap() == 0 {
                panic!("peer closed during {cmd}");
            }
            if line.trim().is_empty() && !resp.is_empty() {
                break;
            }
            resp.push_str(&line);
        }
        assert!(resp.starts_with('='), "{cmd}: {resp}");
        resp[1..].trim().to_string()
    }
}

fn parse_score(s: &str) -> f64 {
    let s = s.trim();
    if s == "0" {
        return 0.0;
    }
    let v: f64 = s[2..].parse().unwrap_or_else(|_| panic!("score {s}"));
    if s.starts_with('B') {
        v
    } else {
        -v
    }
}

#[test]
fn refereed_game_against_gnu_go() {
    let gnugo = "/usr/games/gnugo";
    if !std::path::Path::new(gnugo).exists() {
        eprintln!(
            "NOTICE: {gnugo} not found, skipping the game against GNU Go (apt-get install gnugo)"
        );
        return;
    }
    let mut child = Command::new(gnugo)
        .args([
            "--mode",
            "gtp",
            "--level",
            "1",
            "--chinese-rules",
            "--seed",
            "7",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut gg = Peer { child, out };
    let mut yomi = GtpEngine::new(GtpConfig {
        agent: "mcts:iters=1500".into(),
        ownership_playouts: 400,
        ..GtpConfig::default()
    })
    .unwrap();
    for cmd in ["boardsize 9", "clear_board", "komi 7.5"] {
        gg.ask(cmd);
        assert_eq!(ask(&mut yomi, cmd), "=\n\n");
    }
    let mut passes = 0;
    let mut moves = 0;
    let mut color = "b";
    while passes < 2 && moves < 220 {
        let mv = if color == "b" {
            let r = ask(&mut yomi, "genmove b");
            let mv = r.trim_start_matches('=').trim().to_string();
            gg.ask(&format!("play b {mv}"));
            mv
        } else {
            let mv = gg.ask("genmove w");
            let r = ask(&mut yomi, &format!("play w {mv}"));
            assert_eq!(r, "=\n\n", "yomi refused GNU Go's {mv}");
            mv
        };
        passes = if mv.eq_ignore_ascii_case("pass") {
            passes + 1
        } else {
            0
        };
        color = if color == "b" { "w" } else { "b" };
        moves += 1;
    }
    assert_eq!(
        passes, 2,
        "the game did not end by two passes in {moves} moves"
    );
    let theirs = parse_score(&gg.ask("final_score"));
    let ours_text = ask(&mut yomi, "final_score");
    let ours = parse_score(ours_text.trim_start_matches('=').trim());
    let board = ask(&mut yomi, "showboard");
    let dead = ask(&mut yomi, "final_status_list dead");
    let their_dead = gg.ask("final_status_list dead");
    let _ = gg.ask("quit");
    assert_eq!(
        ours, theirs,
        "yomi and GNU Go disagree on the score after {moves} moves:{board}\nyomi dead: {dead}\nGNU Go dead: {their_dead}"
    );
}

#[test]
fn rave_engine_resigns_a_lost_game_and_plays_an_even_one() {
    let mut e = GtpEngine::new(GtpConfig {
        agent: "rave:iters=1500,resign=0.1".into(),
        size: 5,
        komi: 0.5,
        ownership_playouts: 100,
        ..GtpConfig::default()
    })
    .unwrap();
    // An even position: a move, not a resignation; with a clock the move still comes.
    assert_eq!(ask(&mut e, "time_settings 60 0 0"), "=\n\n");
    assert_eq!(ask(&mut e, "time_left b 30 0"), "=\n\n");
    let first = ask(&mut e, "genmove b");
    assert!(
        first.starts_with("= ") && !first.contains("resign"),
        "{first}"
    );
    // White walls off everything: Black's lone stones cannot live.
    assert_eq!(ask(&mut e, "clear_board"), "=\n\n");
    for v in [
        "A4", "B4", "C4", "D4", "E4", "A2", "B2", "C2", "D2", "E2", "C3", "C1", "C5",
    ] {
        assert_eq!(ask(&mut e, &format!("play w {v}")), "=\n\n", "{v}");
    }
    let answer = ask(&mut e, "genmove b");
    assert_eq!(answer, "= resign\n\n");
    // Resigning leaves the board as it was: Black is still to move there.
    assert!(ask(&mut e, "genmove b").starts_with('='));
}

/// Issue 15: `time_left b 1e300 1` was accepted and the next `genmove` panicked in the
/// rave time manager (`Duration::from_secs_f64` on 9e299 seconds). Clock values above
/// `yomi_core::limits::MAX_SECONDS`, negative or NaN are refused; the engine goes on.
#[test]
fn gtp_time_left_1e300_then_genmove_answers_instead_of_panicking() {
    let mut e = GtpEngine::new(GtpConfig {
        agent: "rave:iters=50".into(),
        size: 5,
        ownership_playouts: 10,
        ..GtpConfig::default()
    })
    .unwrap();
    for bad in [
        "time_left b 1e300 1",
        "time_left b inf 0",
        "time_left b NaN 0",
        "time_left b -5 0",
        "time_settings NaN 0 0",
        "time_settings 0 1e300 1",
    ] {
        let answer = ask(&mut e, bad);
        assert!(
            answer.starts_with("? ") && answer.contains("1000000"),
            "{bad}: {answer}"
        );
    }
    assert!(ask(&mut e, "genmove b").starts_with("= "));
    // The largest accepted clock still gives a move (the iteration budget ends it).
    assert_eq!(ask(&mut e, "time_left w 1000000 1"), "=\n\n");
    assert!(ask(&mut e, "genmove w").starts_with("= "));
}

/// Issue 15: the engine buffered a line without limit, so a controller sending megabytes
/// without a newline grew its memory; a line over `MAX_LINE` bytes is now dropped with an
/// error answer and the next command is answered as usual.
#[test]
fn gtp_line_over_the_limit_is_answered_with_an_error_and_the_engine_goes_on() {
    let mut input = vec![b'x'; yomi_go::gtp::MAX_LINE + 1];
    input.extend_from_slice(b"\n1 name\nplay b \xff\xfe\n2 version\n");
    let mut out = Vec::new();
    engine().run(std::io::Cursor::new(input), &mut out).unwrap();
    let out = String::from_utf8(out).unwrap();
    let answers: Vec<&str> = out.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 4, "{out}");
    assert_eq!(
        answers[0],
        format!(
            "? line longer than {} bytes ignored",
            yomi_go::gtp::MAX_LINE
        )
    );
    assert_eq!(answers[1], "=1 yomi");
    assert!(answers[2].starts_with("? invalid vertex"), "{out}");
    assert!(answers[3].starts_with("=2 "), "{out}");
}

/// Issue 15: `loadsgf /dev/zero` read for ever (and without a memory bound); `loadsgf`
/// now reads only regular files of at most `MAX_SGF_BYTES`.
#[test]
fn gtp_loadsgf_of_dev_zero_or_an_oversized_file_is_refused() {
    let mut e = engine();
    if std::path::Path::new("/dev/zero").exists() {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut e = engine();
            let _ = tx.send(ask(&mut e, "loadsgf /dev/zero"));
        });
        let answer = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("loadsgf /dev/zero answers");
        assert_eq!(
            answer,
            "? cannot load file: /dev/zero is not a regular file\n\n"
        );
    }
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.sgf");
    let mut text = String::from("(;GM[1]SZ[9]C[");
    text.push_str(&"x".repeat(yomi_go::gtp::MAX_SGF_BYTES as usize));
    text.push_str("])");
    std::fs::write(&big, text).unwrap();
    let answer = ask(&mut e, &format!("loadsgf {}", big.display()));
    assert!(answer.contains("is larger than"), "{answer}");
    assert!(ask(&mut e, "genmove b").starts_with("= "));
}

/// Issue 15: `yomi-analyze 10000000` was clamped silently to ten million iterations and
/// did not answer within minutes on 19x19 (and grew a tree of millions of nodes); counts
/// outside `1..=MAX_ANALYZE_ITERATIONS` are refused and every analysis is time-bounded.
#[test]
fn gtp_yomi_analyze_10000000_is_refused_instead_of_running_for_minutes() {
    let mut e = engine();
    assert_eq!(ask(&mut e, "boardsize 19"), "=\n\n");
    for n in ["10000000", "0", "18446744073709551615"] {
        let answer = ask(&mut e, &format!("yomi-analyze {n}"));
        assert_eq!(
            answer,
            format!(
                "? yomi-analyze {n}: iterations must be 1 to {}\n\n",
                yomi_go::gtp::MAX_ANALYZE_ITERATIONS
            )
        );
    }
    assert!(ask(&mut e, "yomi-analyze 20").starts_with("= "));
}

/// GUI analysis in one call (no stream): a Leela Zero report for the side to move, a
/// KataGo report with ownership for the side given, GoGui's menu and its gfx command.
#[test]
fn analysis_commands_answer_in_the_formats_guis_read() {
    let mut e = engine();
    assert_eq!(ask(&mut e, "play b E5"), "=\n\n");
    let lz = ask(&mut e, "7 lz-analyze 5");
    assert!(lz.starts_with("=7 info move "), "{lz}");
    assert!(lz.ends_with("\n\n"), "{lz:?}");
    let first = lz.lines().next().unwrap().strip_prefix("=7 ").unwrap();
    let fields: Vec<&str> = first.split(' ').collect();
    assert_eq!(&fields[..2], &["info", "move"]);
    for key in ["visits", "winrate", "prior", "lcb", "order", "pv"] {
        assert!(fields.contains(&key), "{key} missing: {first}");
    }
    // Win rates in 1/10000, moves for White (E5 is taken).
    let winrate: i64 = fields[fields.iter().position(|f| *f == "winrate").unwrap() + 1]
        .parse()
        .unwrap();
    assert!((0..=10_000).contains(&winrate));
    assert!(!first.contains("move E5 "), "{first}");

    // Ownership from the analysed side's view, row by row from the top left: Black's stone
    // on E5 (row 5 from the top, column 5) is mostly Black's at the end of random playouts.
    for (side, sign) in [("b", 1.0), ("w", -1.0)] {
        let kata = ask(&mut e, &format!("kata-analyze {side} 5 ownership true"));
        let line = kata.lines().next().unwrap();
        assert!(
            line.contains(" winrate 0.") || line.contains(" winrate 1."),
            "{line}"
        );
        let own: Vec<f32> = line
            .split(" ownership ")
            .nth(1)
            .unwrap()
            .split(' ')
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(own.len(), 81);
        let e5 = own[4 * 9 + 4];
        assert!(sign * e5 > 0.3, "{side}: {e5} in {own:?}");
        assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)));
    }

    let menu = ask(&mut e, "gogui-analyze_commands");
    assert!(menu.contains("gfx/yomi win rates/yomi-gfx"), "{menu}");
    let g = ask(&mut e, "yomi-gfx 200");
    assert!(g.starts_with("= LABEL "), "{g}");
    assert!(g.contains("\nVAR w "), "{g}");

    for bad in [
        "lz-analyze 10 avoid b D4 1",
        "kata-analyze -3",
        "lz-analyze 1e12",
    ] {
        assert!(ask(&mut e, bad).starts_with("? syntax error"), "{bad}");
    }
}

/// A streaming `lz-analyze` reports again and again until the next command, which is then
/// answered as usual; run through the `yomi-go-gtp` binary on real pipes.
#[test]
fn lz_analyze_streams_until_the_next_command() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yomi-go-gtp"))
        .args(["--agent", "mcts", "--size", "9"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "play b D4\n3 lz-analyze w 5").unwrap();
    stdin.flush().unwrap();
    let mut line = String::new();
    let mut read = |line: &mut String| {
        line.clear();
        stdout.read_line(line).unwrap();
        line.trim_end().to_string()
    };
    assert_eq!(read(&mut line), "=");
    assert_eq!(read(&mut line), "");
    assert_eq!(read(&mut line), "=3");
    let mut visits = Vec::new();
    while visits.len() < 3 {
        let l = read(&mut line);
        assert!(l.starts_with("info move "), "{l:?}");
        let v: u64 = l.split(' ').nth(4).unwrap().parse().unwrap();
        visits.push(v);
    }
    // The search grows between reports (one tree, kept between slices).
    assert!(visits[2] > visits[0], "{visits:?}");
    writeln!(stdin, "4 name").unwrap();
    stdin.flush().unwrap();
    // Reports already under way may come first; then the stream's end and the answer.
    loop {
        let l = read(&mut line);
        if l.is_empty() {
            break;
        }
        assert!(l.starts_with("info move "), "{l:?}");
    }
    assert_eq!(read(&mut line), "=4 yomi");
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

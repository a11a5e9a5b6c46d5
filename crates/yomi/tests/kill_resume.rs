//! Kill and resume (issue 15, item 6): every long job is killed with SIGKILL at seeded random
//! moments, at least 20 times, restarted with the same command each time, then allowed to
//! finish. The files it leaves must parse, hold every finished game, item or training cycle
//! exactly once, reach the configured totals, and equal an uninterrupted run's (timings
//! aside) where the job is deterministic under its seed.
//!
//! A SIGKILL cannot split one `write` of a line, so between some kills the harness also
//! tears the journal itself: it cuts the last line short, as a crash inside that write (or
//! a full disk) leaves it. The next run must cut the torn line off and redo that work.
//!
//! Each job is sized to run a few seconds in the test profile; the kill delays spread over
//! its measured run time. `KILL_RESUME_KILLS=N cargo test -p yomi --test kill_resume`
//! kills each job N times instead of 20.
// Without the `nn` feature the training jobs' helpers go unused.
#![cfg_attr(not(feature = "nn"), allow(dead_code))]

mod common;

use std::collections::BTreeMap;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{path_str, scratch};
use serde_json::Value;

/// The signal number of SIGKILL.
const SIGKILL: i32 = 9;

/// SIGKILLs per job (at least 20 unless `KILL_RESUME_KILLS` says otherwise).
fn kills() -> usize {
    std::env::var("KILL_RESUME_KILLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20)
}

/// A small seeded generator (splitmix64) for the kill delays and the tears.
struct Dice(u64);

impl Dice {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Runs `args` to the end; fails the test unless it succeeds. Returns its wall time and
/// its standard output.
fn run_to_end(args: &[String]) -> (Duration, String) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the yomi binary runs");
    let took = start.elapsed();
    assert!(
        out.status.success(),
        "yomi {} failed ({:?})\nstdout:\n{}\nstderr:\n{}",
        args.join(" "),
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (took, String::from_utf8_lossy(&out.stdout).into_owned())
}

/// How a job's files are torn between kills.
struct Tear<'a> {
    /// The append-only journal whose last line may be torn.
    journal: &'a Path,
    /// Tear after about one kill in this many.
    every: usize,
}

/// What [`kill_and_resume`] did.
#[derive(Debug, Default)]
struct Killed {
    /// Kills that hit a running process.
    kills: usize,
    /// Runs that finished before their kill came.
    finished_early: usize,
    /// Torn lines written into the journal.
    tears: usize,
    /// The most finished items (games, labels, cycles) found after a kill.
    most_finished: usize,
}

/// How long a job takes, as measured on an uninterrupted run.
#[derive(Clone, Copy, Debug)]
struct Timing {
    /// The whole run.
    run: Duration,
    /// A rerun with nothing left to do (start, resume, report).
    startup: Duration,
    /// The share of the work one killed run should get done on average: 1 / kills for jobs
    /// that save every item, about a cycle for jobs that checkpoint whole cycles.
    per_run: f64,
}

/// The share of a job of `items` saved one by one that a killed run should get done: one
/// kill's share, but at least about one item, so that coarse jobs make progress.
fn per_item_run(items: usize) -> f64 {
    (1.0 / kills() as f64).max(1.2 / items as f64)
}

/// Starts `args`, SIGKILLs it after a seeded random delay, and again, until `want` kills hit
/// a running process. The delays are uniform in [0, startup + 3 work per_run), so most runs
/// get some work done and the kills land anywhere in it. After each kill `check` is called
/// (the files must be consistent at every moment; it returns how many items are finished),
/// then the journal may be torn.
fn kill_and_resume(
    args: &[String],
    want: usize,
    seed: u64,
    timing: Timing,
    tear: Option<Tear<'_>>,
    check: &dyn Fn() -> usize,
) -> Killed {
    let mut dice = Dice(seed);
    let mut done = Killed::default();
    let Timing {
        run,
        startup,
        per_run,
    } = timing;
    let work = run.saturating_sub(startup).as_secs_f64();
    let span = startup.as_secs_f64() + 3.0 * work * per_run;
    let mut attempts = 0;
    while done.kills < want {
        attempts += 1;
        assert!(
            attempts <= 10 * want + 10,
            "only {} of {want} kills hit a running `yomi {}`",
            done.kills,
            args.join(" ")
        );
        // Standard error goes to a file: a pipe nobody reads could stall the run.
        let log = std::env::temp_dir().join(format!(
            "yomi-kill-resume-{}-{seed:x}.stderr",
            std::process::id()
        ));
        let mut child = Command::new(env!("CARGO_BIN_EXE_yomi"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).expect("a log file"))
            .spawn()
            .expect("the yomi binary starts");
        // Once a run has finished, the next ones only resume and report: kill those within
        // the time a run with nothing left to do takes.
        let within = if done.finished_early > 0 {
            0.5 * startup.as_secs_f64()
        } else {
            span
        };
        std::thread::sleep(Duration::from_secs_f64(dice.unit() * within));
        match child.try_wait().expect("the child's status") {
            Some(status) => {
                assert!(
                    status.success(),
                    "a resumed `yomi {}` failed ({status:?}):\n{}",
                    args.join(" "),
                    std::fs::read_to_string(&log).unwrap_or_default()
                );
                done.finished_early += 1;
            }
            None => {
                // `Child::kill` is SIGKILL on Unix: no handler, no flush, no clean-up. The
                // run may have ended just before it came.
                child.kill().expect("SIGKILL");
                let status = child.wait().expect("the killed child is reaped");
                if status.signal() == Some(SIGKILL) {
                    done.kills += 1;
                } else {
                    assert!(
                        status.success(),
                        "a resumed `yomi {}` failed ({status:?}):\n{}",
                        args.join(" "),
                        std::fs::read_to_string(&log).unwrap_or_default()
                    );
                    done.finished_early += 1;
                }
            }
        }
        let _ = std::fs::remove_file(&log);
        done.most_finished = done.most_finished.max(check());
        if let Some(t) = &tear {
            if dice.below(t.every) == 0 && tear_last_line(t.journal, &mut dice) {
                done.tears += 1;
            }
        }
    }
    done
}

/// Cuts the journal's last line short (keeping from one byte of it up to all of it but its
/// newline), as a write cut short leaves it. Returns whether it did.
fn tear_last_line(journal: &Path, dice: &mut Dice) -> bool {
    let Ok(text) = std::fs::read_to_string(journal) else {
        return false;
    };
    let Some(body) = text.strip_suffix('\n') else {
        return false;
    };
    let start = body.rfind('\n').map_or(0, |i| i + 1);
    let last = &body[start..];
    if last.is_empty() || !last.is_ascii() {
        return false;
    }
    // One tear in three keeps the whole line but its newline: it parses, yet is torn.
    let keep = if dice.below(3) == 0 {
        last.len()
    } else {
        1 + dice.below(last.len())
    };
    std::fs::write(journal, &text[..start + keep]).expect("the journal is torn");
    true
}

/// The journal's complete lines as JSON. A last line without its newline (torn) is allowed
/// only when `torn_allowed` (between runs); every complete line must parse.
fn journal_lines(path: &Path, torn_allowed: bool) -> Vec<Value> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
        Err(e) => panic!("{}: {e}", path.display()),
    };
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    assert!(
        torn_allowed || complete.len() == text.len(),
        "{}: a torn last line after the final run: {:?}",
        path.display(),
        &text[complete.len()..]
    );
    complete
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            serde_json::from_str(l).unwrap_or_else(|e| {
                panic!("{} line {}: not JSON ({e}): {l:?}", path.display(), i + 1)
            })
        })
        .collect()
}

/// A JSON object without the named keys (timings differ between runs).
fn without(mut v: Value, keys: &[&str]) -> Value {
    if let Some(o) = v.as_object_mut() {
        for k in keys {
            o.remove(*k);
        }
    }
    v
}

/// The game records of a records file, keyed by (pairing, index), timings removed; fails on
/// a game recorded twice. Lines that are not game records (no `moves`) are skipped.
fn games_of(path: &Path, torn_allowed: bool) -> BTreeMap<(u64, u64), Value> {
    let mut games = BTreeMap::new();
    for v in journal_lines(path, torn_allowed) {
        if v.get("moves").is_none() {
            continue;
        }
        let key = (
            v["pairing"].as_u64().expect("a pairing"),
            v["index"].as_u64().expect("an index"),
        );
        let v = without(v, &["seconds", "seat_seconds"]);
        assert!(
            games.insert(key, v).is_none(),
            "{}: game {key:?} is recorded twice",
            path.display()
        );
    }
    games
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// A job whose output is one records file of games: the uninterrupted run in `base/`, the
/// killed one in `killed/`; `args_for(dir)` builds the command for a directory.
fn games_job(name: &str, seed: u64, total: usize, args_for: &dyn Fn(&Path) -> Vec<String>) {
    let dir = scratch(&format!("kill-{name}"));
    let (base, killed) = (dir.join("base"), dir.join("killed"));
    std::fs::create_dir_all(&base).unwrap();
    std::fs::create_dir_all(&killed).unwrap();
    let records = |d: &Path| d.join("records.jsonl");

    let (run, _) = run_to_end(&args_for(&base));
    let expected = games_of(&records(&base), false);
    assert_eq!(expected.len(), total, "the uninterrupted run's game count");
    let (startup, _) = run_to_end(&args_for(&base));
    assert_eq!(games_of(&records(&base), false), expected, "a no-op rerun");

    let args = args_for(&killed);
    let file = records(&killed);
    let done = kill_and_resume(
        &args,
        kills(),
        seed,
        Timing {
            run,
            startup,
            per_run: per_item_run(total),
        },
        Some(Tear {
            journal: &file,
            every: 4,
        }),
        &|| games_of(&file, true).len(),
    );
    let before = games_of(&file, true).len();
    run_to_end(&args);
    let got = games_of(&file, false);
    eprintln!(
        "{name}: {done:?}; {before} of {total} games before the last run; \
         uninterrupted {:.2} s, nothing to do {:.2} s",
        run.as_secs_f64(),
        startup.as_secs_f64()
    );
    assert!(
        done.most_finished > 0,
        "{name}: no game finished between the kills"
    );
    assert_eq!(got.len(), total);
    assert_eq!(got, expected, "{name}: the killed run's games differ");
}

#[test]
fn match_survives_kills() {
    games_job("match", 0x6d61, 40, &|d| {
        strings(&[
            "match",
            "connect4",
            "mcts:iters=400",
            "alphabeta:depth=2",
            "--games",
            "40",
            "--seed",
            "5",
            "--threads",
            "1",
            "--quiet",
            "--out",
            path_str(&d.join("records.jsonl")),
        ])
    });
}

#[test]
fn tournament_survives_kills() {
    games_job("tournament", 0x746f, 60, &|d| {
        let file = d.join("rr.toml");
        std::fs::write(
            &file,
            format!(
                "game = \"tictactoe\"\n\
                 agents = [\"random\", \"mcts:iters=300\", \"alphabeta:depth=3\"]\n\
                 games = 20\nseed = 4\nthreads = 1\nquiet = true\nout = \"{}\"\n",
                path_str(&d.join("records.jsonl"))
            ),
        )
        .unwrap();
        strings(&["tournament", path_str(&file)])
    });
}

#[test]
fn tubstap_experiment_survives_kills() {
    games_job("tubstap", 0x7462, 8, &|d| {
        let file = d.join("duel.toml");
        std::fs::write(
            &file,
            "game = \"tubstap:standard\"\n\
             agents = [\"uct-pw:iters=2000\", \"dlmc:m=20,n=10\"]\n\
             games = 8\nseed = 1\nthreads = 1\n",
        )
        .unwrap();
        strings(&[
            "tubstap",
            "experiment",
            path_str(&file),
            "--quiet",
            "--out",
            path_str(&d.join("records.jsonl")),
        ])
    });
}

/// The repository's root (tests run in the crate's folder).
fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn othello_accuracy_survives_kills() {
    let set = repo_root().join("crates/yomi-othello/data/testsets/s20.txt");
    let dir = scratch("kill-othello-accuracy");
    let config = |d: &Path| -> Vec<String> {
        std::fs::create_dir_all(d).unwrap();
        let file = d.join("accuracy.toml");
        std::fs::write(
            &file,
            format!(
                "seed = 3\nplayouts = [1000, 2000]\npositions = 8\nthreads = 1\n\
                 out = \"{}\"\nreport = \"{}\"\n\
                 [[set]]\nstage = 20\nfile = \"{}\"\n\
                 [[variant]]\nname = \"UCT\"\nagent = \"uct\"\n\
                 [[variant]]\nname = \"UCT+dZ\"\nagent = \"uct+dz\"\n",
                path_str(&d.join("records.jsonl")),
                path_str(&d.join("report.md")),
                path_str(&set)
            ),
        )
        .unwrap();
        strings(&["othello", "accuracy", path_str(&file)])
    };
    // 2 budgets x 8 positions x 2 variants.
    let total = 32;
    let items = |path: &Path, torn_allowed: bool| {
        let mut items = BTreeMap::new();
        for v in journal_lines(path, torn_allowed) {
            let key = (
                v["agent"].as_str().expect("an agent").to_string(),
                v["stage"].as_u64().expect("a stage"),
                v["index"].as_u64().expect("an index"),
            );
            assert!(
                items
                    .insert(key.clone(), without(v, &["seconds"]))
                    .is_none(),
                "{}: item {key:?} is recorded twice",
                path.display()
            );
        }
        items
    };
    let (base, killed) = (dir.join("base"), dir.join("killed"));
    let (run, _) = run_to_end(&config(&base));
    let expected = items(&base.join("records.jsonl"), false);
    assert_eq!(expected.len(), total);
    let (startup, _) = run_to_end(&config(&base));
    assert_eq!(items(&base.join("records.jsonl"), false), expected);

    let args = config(&killed);
    let file = killed.join("records.jsonl");
    let done = kill_and_resume(
        &args,
        kills(),
        0x6f74,
        Timing {
            run,
            startup,
            per_run: per_item_run(total),
        },
        Some(Tear {
            journal: &file,
            every: 4,
        }),
        &|| items(&file, true).len(),
    );
    let before = items(&file, true).len();
    let (_, out) = run_to_end(&args);
    eprintln!("othello accuracy: {done:?}; {before} of {total} items before the last run");
    assert!(out.contains(&format!("{total} items")), "{out}");
    assert!(done.most_finished > 0, "no item finished between the kills");
    assert_eq!(items(&file, false), expected);
}

/// A CSV file as rows of named fields, without the columns whose name contains one of
/// `timing` (throughputs and seconds differ between runs).
fn csv_rows(path: &Path, timing: &[&str]) -> Vec<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(text.ends_with('\n'), "{}: a torn last row", path.display());
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    lines
        .map(|line| {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields.len(), header.len(), "{}: {line:?}", path.display());
            header
                .iter()
                .zip(fields)
                .filter(|(h, _)| !timing.iter().any(|t| h.contains(t)))
                .map(|(h, f)| (h.to_string(), f.to_string()))
                .collect()
        })
        .collect()
}

/// The numbers in column `key` of `rows`, which must be 0 or 1, 2, ... in order, each once.
fn assert_consecutive(rows: &[BTreeMap<String, String>], key: &str, first: u64, what: &str) {
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(
            r[key].parse::<u64>().ok(),
            Some(first + i as u64),
            "{what}: row {i} of {rows:?}"
        );
    }
}

#[test]
fn learn_experiment_survives_kills() {
    let dir = scratch("kill-learn");
    const METHODS: [&str; 3] = ["al", "sb", "alsb"];
    const PLAYS: [&str; 3] = ["direct", "simple-mc", "uct"];
    const ITERATIONS: u64 = 3;
    let config = |d: &Path| -> Vec<String> {
        std::fs::create_dir_all(d).unwrap();
        let file = d.join("ttt.toml");
        let p = path_str(d);
        std::fs::write(
            &file,
            format!(
                "game = \"ggp:tictactoe\"\n\
                 [data]\nfile = \"{p}/data.jsonl\"\nstates = 24\niterations = 300\nseed = 2\n\
                 [train]\nout = \"{p}/out\"\ntrain = 16\ntest = 6\niterations = {ITERATIONS}\n\
                 eval_simulations = 10\n[train.params]\nm = 4\nn = 4\n\
                 [matches]\ngames = 4\nsims = 3\nthreads = 1\n\
                 [matches.paper]\ndirect = [1, 2, 3, 4]\nsimple-mc = [5, 6, 7, 8]\n\
                 uct = [9, 10, 11, 12]\n"
            ),
        )
        .unwrap();
        strings(&[
            "learn",
            "experiment",
            path_str(&file),
            "--threads",
            "1",
            "--quiet",
        ])
    };
    // The data file: one header, then each state's label once.
    let data = |d: &Path, torn_allowed: bool| -> BTreeMap<u64, Value> {
        let lines = journal_lines(&d.join("data.jsonl"), torn_allowed);
        let mut labels = BTreeMap::new();
        for (i, v) in lines.into_iter().enumerate() {
            if i == 0 {
                assert!(
                    v.pointer("/yomi_journal/settings/yomi_learn_data")
                        .is_some(),
                    "no header: {v}"
                );
                continue;
            }
            let index = v["index"].as_u64().expect("an index");
            assert!(labels.insert(index, v).is_none(), "state {index} twice");
        }
        labels
    };
    // Everything the experiment leaves, timings aside; checked for duplicates on the way.
    let outcome = |d: &Path| {
        let out = d.join("out");
        let curves: Vec<_> = METHODS
            .iter()
            .map(|m| {
                let rows = csv_rows(&out.join(format!("train-{m}.csv")), &["seconds"]);
                assert_consecutive(&rows, "iteration", 0, m);
                assert_eq!(rows.len() as u64, ITERATIONS + 1, "{m}");
                rows
            })
            .collect();
        let weights: Vec<_> = METHODS
            .iter()
            .map(|m| {
                let path = out.join(format!("{m}-iter{ITERATIONS}.weights.json"));
                std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            })
            .collect();
        let games: Vec<_> = PLAYS
            .iter()
            .map(|p| {
                let g = games_of(&out.join(format!("matches-{p}.jsonl")), false);
                // Four players: six pairings of four games.
                assert_eq!(g.len(), 24, "{p}");
                g
            })
            .collect();
        (data(d, false), curves, weights, games)
    };
    let (base, killed) = (dir.join("base"), dir.join("killed"));
    let (run, _) = run_to_end(&config(&base));
    let expected = outcome(&base);
    assert_eq!(expected.0.len(), 24);
    let (startup, _) = run_to_end(&config(&base));
    assert!(
        outcome(&base) == expected,
        "a no-op rerun changed the files"
    );

    let args = config(&killed);
    let journal = killed.join("data.jsonl");
    // As a kill while the header was written leaves the file.
    std::fs::write(&journal, "{\"yomi_learn_data\":1,\"ga").unwrap();
    let done = kill_and_resume(
        &args,
        kills(),
        0x6c65,
        Timing {
            run,
            startup,
            per_run: per_item_run(24),
        },
        Some(Tear {
            journal: &journal,
            every: 4,
        }),
        &|| {
            for p in PLAYS {
                games_of(&killed.join(format!("out/matches-{p}.jsonl")), true);
            }
            data(&killed, true).len()
        },
    );
    let before = data(&killed, true).len();
    run_to_end(&args);
    eprintln!("learn: {done:?}; {before} of 24 states labelled before the last run");
    assert!(
        done.most_finished > 0,
        "no state was labelled between the kills"
    );
    let got = outcome(&killed);
    assert_eq!(got.0, expected.0, "the labels differ");
    assert_eq!(got.1, expected.1, "the training curves differ");
    // Resumed training starts from weights read back from JSON: with serde_json's
    // `float_roundtrip` (the workspace turns it on) they read back bit for bit, so the
    // weights equal the uninterrupted run's exactly.
    for (m, (got, want)) in METHODS.iter().zip(got.2.iter().zip(&expected.2)) {
        let (got, want) = (weights_of(got), weights_of(want));
        assert_eq!(got, want, "{m}: weights");
    }
    assert_eq!(got.3, expected.3, "the match records differ");
}

/// The (index, weight) pairs of a weights file written by `yomi learn`.
fn weights_of(bytes: &[u8]) -> Vec<(u64, f64)> {
    let v: Value = serde_json::from_slice(bytes).expect("a weights file is JSON");
    v["weights"]
        .as_array()
        .expect("a weights list")
        .iter()
        .map(|p| (p[0].as_u64().unwrap(), p[1].as_f64().unwrap()))
        .collect()
}

/// A neural-network training job (`yomi geister train` or `dqn`): run `cycles` cycles under
/// kills and compare the log and the network with an uninterrupted run's. `net` is the
/// network in the checkpoint, `published` its copy in the run directory that users load.
fn training_job(
    name: &str,
    command: &str,
    config: &str,
    cycles: u64,
    seed: u64,
    [net, published]: [&str; 2],
) {
    let dir = scratch(&format!("kill-{name}"));
    let file = dir.join("config.toml");
    std::fs::write(&file, config).unwrap();
    let args = |run: &Path| strings(&["geister", command, path_str(&file), "--dir", path_str(run)]);
    let timing = ["per_s", "seconds"];
    let log = |run: &Path| {
        let rows = csv_rows(&run.join("log.csv"), &timing);
        assert_consecutive(&rows, "cycle", 1, name);
        rows
    };
    // After any kill: the log is whole (written atomically) and there is a complete
    // checkpoint (in `checkpoint/`, or in `checkpoint.old/` when the kill fell between the
    // swap's two renames), or none yet.
    let consistent = |run: &Path| {
        let cycles = if run.join("log.csv").exists() {
            log(run).len()
        } else {
            0
        };
        let complete = ["checkpoint", "checkpoint.old"]
            .iter()
            .any(|c| run.join(c).join("state.json").is_file());
        assert!(
            complete || !run.join("log.csv").exists(),
            "{name}: a log without a complete checkpoint in {}",
            run.display()
        );
        cycles
    };
    let finished = |run: &Path| {
        let rows = log(run);
        assert_eq!(rows.len() as u64, cycles, "{name}: cycles in the log");
        let state: Value = serde_json::from_str(
            &std::fs::read_to_string(run.join("checkpoint/state.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(state["cycle"].as_u64(), Some(cycles), "{name}: {state}");
        for stale in ["checkpoint.new", "checkpoint.old"] {
            assert!(!run.join(stale).exists(), "{name}: {stale} left behind");
        }
        // The networks themselves are not compared byte for byte: two saves of one network
        // differ (burn writes parameter ids). The log's losses and evaluations, to five
        // decimals, follow every weight.
        for file in [run.join("checkpoint").join(net), run.join(published)] {
            let len = std::fs::metadata(&file).map_or(0, |m| m.len());
            assert!(len > 0, "{name}: {} is missing or empty", file.display());
        }
        rows
    };
    let (base, killed) = (dir.join("base"), dir.join("killed"));
    let (run, _) = run_to_end(&args(&base));
    let expected = finished(&base);
    // As a kill between the last checkpoint and the files outside it leaves the run (here
    // they are missing; after earlier cycles they would be a cycle behind): the rerun has
    // no cycle left to run and must still bring them up to date.
    std::fs::remove_file(base.join("log.csv")).unwrap();
    std::fs::remove_file(base.join(published)).unwrap();
    run_to_end(&args(&base));
    assert!(
        finished(&base) == expected,
        "{name}: a no-op rerun changed the run"
    );
    let (startup, _) = run_to_end(&args(&base));

    let cmd = args(&killed);
    let timing = Timing {
        run,
        startup,
        per_run: 1.5 / cycles as f64,
    };
    let done = kill_and_resume(&cmd, kills(), seed, timing, None, &|| consistent(&killed));
    let before = if killed.join("log.csv").exists() {
        log(&killed).len()
    } else {
        0
    };
    run_to_end(&cmd);
    eprintln!(
        "{name}: {done:?}; {before} of {cycles} cycles before the last run; uninterrupted {:.2} s",
        run.as_secs_f64()
    );
    assert!(
        done.most_finished > 0,
        "{name}: no cycle finished between the kills"
    );
    let got = finished(&killed);
    assert_eq!(got, expected, "{name}: the logs differ");
}

// The training commands need the CLI's `nn` feature (`scripts/test.sh` turns it on).
#[cfg(feature = "nn")]
#[test]
fn alphazero_training_survives_kills() {
    const CYCLES: u64 = 8;
    let config = format!(
        "seed = 3\ncycles = {CYCLES}\n\
         [net]\nfilters = 4\nblocks = 1\nvalue_hidden = 4\n\
         [selfplay]\ngames = 2\nthreads = 1\nmax_batch = 2\nmax_plies = 24\n\
         [search]\nsimulations = 6\ntemperature_moves = 4\n\
         [train]\nbuffer = 400\nbatch = 16\nsteps = 3\n\
         [gate]\ngames = 0\n\
         [eval]\nopponents = [\"random\"]\ngames = 2\nevery = 2\nsimulations = 4\nthreads = 1\n"
    );
    training_job(
        "alphazero",
        "train",
        &config,
        CYCLES,
        0x617a,
        ["best.ynn", "best.ynn"],
    );
}

#[cfg(feature = "nn")]
#[test]
fn dqn_training_survives_kills() {
    const CYCLES: u64 = 8;
    let config = format!(
        "seed = 5\ncycles = {CYCLES}\nmasked = true\n\
         [net]\nfilters = [4, 4, 8]\n\
         [selfplay]\ngames = 12\nenvs = 4\n\
         [explore]\nepsilon_start = 1.0\nepsilon_end = 0.2\ndecay_games = 20\n\
         [train]\nbuffer = 300\nbatch = 16\ntrain_every = 4\nwarmup = 32\ntarget_update = 7\n\
         [eval]\ngames = 6\nevery = 2\nfinal_games = 6\n"
    );
    training_job(
        "dqn",
        "dqn",
        &config,
        CYCLES,
        0x6471,
        ["net.ynn", "qnet.ynn"],
    );
}

#[test]
fn othello_relabel_survives_kills() {
    let set = repo_root().join("crates/yomi-othello/data/testsets/s20.txt");
    let dir = scratch("kill-othello-relabel");
    let total = 24;
    let config = |d: &Path| -> Vec<String> {
        std::fs::create_dir_all(d).unwrap();
        let input = d.join("in.txt");
        let text = std::fs::read_to_string(&set).unwrap();
        let lines: Vec<&str> = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .take(total)
            .collect();
        std::fs::write(&input, lines.join("\n") + "\n").unwrap();
        strings(&[
            "othello",
            "relabel",
            path_str(&input),
            "--depth",
            "6",
            "--threads",
            "1",
            "--out",
            path_str(&d.join("out.txt")),
        ])
    };
    // The written test set's positions (the header's timing aside).
    let positions = |d: &Path| -> Vec<String> {
        std::fs::read_to_string(d.join("out.txt"))
            .unwrap()
            .lines()
            .filter(|l| !l.starts_with('#'))
            .map(String::from)
            .collect()
    };
    // Finished positions so far: all of them once the test set is written, else the
    // partial file's complete lines, each of which must read (index, tab, position).
    let finished = |d: &Path| -> usize {
        let partial = d.join("out.txt.partial");
        let Ok(text) = std::fs::read_to_string(&partial) else {
            return if d.join("out.txt").exists() { total } else { 0 };
        };
        let complete = match text.rfind('\n') {
            Some(i) => &text[..=i],
            None => "",
        };
        let mut seen = std::collections::BTreeSet::new();
        for line in complete.lines() {
            let (i, rest) = line.split_once('\t').expect("index<TAB>position");
            let i: usize = i.parse().expect("an index");
            assert!(i < total && rest.contains("; search6; "), "{line}");
            seen.insert(i);
        }
        seen.len()
    };
    let (base, killed) = (dir.join("base"), dir.join("killed"));
    let (run, _) = run_to_end(&config(&base));
    let expected = positions(&base);
    assert_eq!(expected.len(), total);
    // 6-ply labels are the shipped set's own: relabelling gives it back line for line.
    let shipped: Vec<String> = std::fs::read_to_string(base.join("in.txt"))
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(expected, shipped);
    let (startup, _) = run_to_end(&config(&base));
    assert_eq!(positions(&base), expected);

    let args = config(&killed);
    let partial = killed.join("out.txt.partial");
    let done = kill_and_resume(
        &args,
        kills(),
        0x7265,
        Timing {
            run,
            startup,
            per_run: per_item_run(total),
        },
        Some(Tear {
            journal: &partial,
            every: 4,
        }),
        &|| finished(&killed),
    );
    let (_, out) = run_to_end(&args);
    eprintln!("othello relabel: {done:?}");
    assert!(out.contains(&format!("| {total} |")), "{out}");
    assert!(
        done.most_finished > 0,
        "no position finished between the kills"
    );
    assert_eq!(positions(&killed), expected);
    assert!(!partial.exists());
}

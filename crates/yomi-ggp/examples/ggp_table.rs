//! The speed table over a set of rule sheets: for each sheet, the time to load it (read,
//! check, ground, compile), the grounding time, and random playouts per CPU second on one
//! thread, as a markdown table on stdout.
//!
//! `cargo run --release -p yomi-ggp --example ggp_table -- [--secs S] [--timeout T]
//! PATH...`: every `.kif` file under the PATHs (directories are walked, sorted), each in a
//! child process of its own that is killed after T seconds (default 30: "plays within
//! 30 s of loading"), so one sheet that hangs or exhausts memory costs only its row.
//! Playouts run for S CPU seconds (default 2) after loading. CPU time (the thread's own,
//! `clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, what the JVM's `getCurrentThreadCpuTime`
//! reads for Sancho's column) rather than wall time, because the machines this runs on are
//! shared: other processes stretch wall time but not the CPU time the playouts used. The
//! clock is read every 16 playouts once playouts are fast, as Sancho's harness does (it
//! was a `/proc` file read every 16 playouts and a wall-clock read after every playout,
//! which cost the one-ply test sheets a third of their rate).
//!
//! `--one FILE S` is the child's entry point: it prints one tab-separated line.
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use yomi_core::bench::random_game;
use yomi_core::{Game, Rng};
use yomi_ggp::{Description, GdlGame};

/// CPU seconds of the calling thread, or `None` where the clock is missing (then the wall
/// clock is used).
#[cfg(unix)]
fn thread_cpu() -> Option<f64> {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid, exclusive pointer.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as f64 + ts.tv_nsec as f64 / 1e9)
}

#[cfg(not(unix))]
fn thread_cpu() -> Option<f64> {
    None
}

struct Clock {
    cpu: Option<f64>,
    wall: Instant,
}

impl Clock {
    fn start() -> Self {
        Clock {
            cpu: thread_cpu(),
            wall: Instant::now(),
        }
    }
    fn secs(&self) -> f64 {
        match (self.cpu, thread_cpu()) {
            (Some(a), Some(b)) => b - a,
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

/// Random playouts from the initial state for `secs` CPU seconds: (playouts, plies, seconds).
fn playouts(game: &GdlGame, secs: f64, seed: u64) -> (u64, u64, f64) {
    let mut rng = Rng::seed_from_u64(seed);
    let mut buf = Vec::new();
    let mut joint = Vec::new();
    let root = game.initial_state();
    let mut s = root.clone();
    let clock = Clock::start();
    let (mut games, mut plies) = (0u64, 0u64);
    // Games between clock reads: doubled up to 16 while they take under a millisecond,
    // halved down to 1 when they take longer (the fallback evaluator's games take a
    // second or more).
    let (mut every, mut next, mut last) = (1u64, 1u64, 0.0f64);
    loop {
        s.clone_from(&root);
        plies += random_game(game, &mut s, &mut rng, &mut buf, &mut joint);
        std::hint::black_box(game.returns(&s));
        games += 1;
        if games >= next {
            let now = clock.secs();
            if now >= secs {
                return (games, plies, now);
            }
            every = if now - last < 1e-3 {
                (every * 2).min(16)
            } else {
                (every / 2).max(1)
            };
            next = games + every;
            last = now;
        }
    }
}

fn one(file: &Path, secs: f64) -> String {
    let name = file
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    let text = match std::fs::read_to_string(file) {
        Ok(t) => t,
        Err(e) => return format!("ERR\tcannot read: {e}"),
    };
    let clock = Clock::start();
    let wall_start = Instant::now();
    let desc = match Description::from_kif(&text) {
        Ok(d) => d,
        Err(e) => return format!("ERR\trefused: {}", one_line(&e.to_string())),
    };
    let game = match GdlGame::new(&name, &desc) {
        Ok(g) => g,
        Err(e) => return format!("ERR\tnot compiled: {}", one_line(&e.to_string())),
    };
    let load = clock.secs();
    let wall = wall_start.elapsed().as_secs_f64();
    // Printed at once, so that a parent that kills a slow child still knows it loaded.
    println!(
        "LOADED\t{load:.2}\t{wall:.2}\t{}",
        game.reasoner().stats.engine()
    );
    let _ = std::io::Write::flush(&mut std::io::stdout());
    let st = game.reasoner().stats.clone();
    let (n, plies, t) = playouts(&game, secs, 1);
    format!(
        "OK\t{load:.2}\t{:.2}\t{:.0}\t{:.1}\t{}\t{}\t{}\t{:.1}\t{wall:.2}",
        st.ground_time.as_secs_f64(),
        n as f64 / t,
        plies as f64 / n.max(1) as f64,
        st.engine(),
        st.ground_rules,
        st.base,
        st.ground_work as f64 / 1e6,
    )
}

fn one_line(s: &str) -> String {
    let s = s.replace(['\n', '\t', '|'], " ");
    if s.len() > 120 {
        let mut end = 120;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}…", &s[..end])
    } else {
        s
    }
}

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            collect(&e, out);
        }
    } else if p.extension().is_some_and(|e| e == "kif") {
        out.push(p.to_path_buf());
    }
}

/// Runs the child for `file`, killing it after `timeout`: its line, or why there is none.
fn run_child(file: &Path, secs: f64, timeout: f64) -> (String, f64) {
    let exe = std::env::current_exe().expect("the example knows its own path");
    let start = Instant::now();
    let mut child = match Command::new(exe)
        .arg("--one")
        .arg(file)
        .arg(secs.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => return (format!("ERR\tcannot start: {e}"), 0.0),
    };
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let mut s = String::new();
                if let Some(mut o) = child.stdout.take() {
                    let _ = o.read_to_string(&mut s);
                }
                let wall = start.elapsed().as_secs_f64();
                let last = s.lines().last().unwrap_or("").trim().to_string();
                if last.is_empty() || last.starts_with("LOADED") {
                    return (format!("ERR\tcrashed ({status})"), wall);
                }
                return (last, wall);
            }
            Ok(None) if start.elapsed().as_secs_f64() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                let mut s = String::new();
                if let Some(mut o) = child.stdout.take() {
                    let _ = o.read_to_string(&mut s);
                }
                let why = match s.lines().next().map(|l| l.split('\t').collect::<Vec<_>>()) {
                    Some(c) if c.len() >= 4 && c[0] == "LOADED" => format!(
                        "loaded in {} CPU s ({} s wall, {}), but no playout ended within \
                         {timeout:.0} s",
                        c[1], c[2], c[3]
                    ),
                    _ => format!("not loaded within {timeout:.0} s"),
                };
                return (format!("ERR\t{why}"), timeout);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return (format!("ERR\t{e}"), 0.0),
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--one") {
        let file = PathBuf::from(args.get(1).cloned().unwrap_or_default());
        let secs = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(2.0);
        println!("{}", one(&file, secs));
        return;
    }
    let mut secs = 2.0;
    let mut timeout = 30.0;
    let mut paths = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--secs" => secs = it.next().and_then(|s| s.parse().ok()).unwrap_or(secs),
            "--timeout" => timeout = it.next().and_then(|s| s.parse().ok()).unwrap_or(timeout),
            _ => paths.push(PathBuf::from(a)),
        }
    }
    let mut files = Vec::new();
    for p in &paths {
        collect(p, &mut files);
    }
    let common = paths
        .first()
        .filter(|_| paths.len() == 1)
        .cloned()
        .unwrap_or_default();
    println!(
        "| sheet | loaded in (CPU s) | loaded in (wall s) | grounded in (wall s) | playouts/s (CPU) | plies/playout | evaluator | ground rules | base props | join steps (M) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    let (mut ok, mut failed) = (0, 0);
    let mut log_sum = 0.0;
    for f in &files {
        let shown = f.strip_prefix(&common).unwrap_or(f).display().to_string();
        let (line, wall) = run_child(f, secs, timeout + secs);
        let cols: Vec<&str> = line.split('\t').collect();
        if cols[0] == "OK" && cols.len() >= 10 {
            ok += 1;
            if let Ok(v) = cols[3].parse::<f64>() {
                log_sum += v.max(1e-9).ln();
            }
            println!(
                "| {shown} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cols[1], cols[9], cols[2], cols[3], cols[4], cols[5], cols[6], cols[7], cols[8]
            );
        } else {
            failed += 1;
            let why = cols.get(1).copied().unwrap_or("no output");
            println!(
                "| {shown} | – | – | – | – | – | {} | – | – | – |",
                one_line(why)
            );
        }
        eprintln!("{shown}: {line} ({wall:.1} s wall)");
    }
    println!();
    println!(
        "{ok} sheets play, {failed} do not; geometric mean of playouts/s over those that play: {:.0}",
        if ok > 0 {
            (log_sum / ok as f64).exp()
        } else {
            0.0
        }
    );
}

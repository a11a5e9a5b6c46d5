//! Grounding alone, timed: for each rule sheet given (directories are walked), the CPU
//! seconds of `Grounding::new` (the process's user + system time, from `/proc/self/stat`
//! deltas, so a loaded machine does not stretch it), the ground rules, atoms and join
//! steps, and a digest of the ground atoms and rules (equal digests: the same grounding),
//! as one tab-separated line per sheet.
//!
//! `cargo run --release -p yomi-ggp --example ggp_ground -- PATH...`; a sheet that fails
//! (a grounding limit) prints the error instead of the counts.
use std::path::{Path, PathBuf};

use yomi_ggp::ground::Grounding;
use yomi_ggp::Description;

/// CPU seconds of this thread (schedstat), or `None` where the file is missing.
fn thread_cpu() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

fn walk(p: &Path, out: &mut Vec<PathBuf>) {
    if p.is_dir() {
        let mut v: Vec<PathBuf> = std::fs::read_dir(p)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        v.sort();
        for q in v {
            walk(&q, out);
        }
    } else if p.extension().is_some_and(|e| e == "kif") {
        out.push(p.to_path_buf());
    }
}

/// A digest of the grounding's atoms, rules and initial state, in order: two groundings
/// with the same digest are (but for a collision) the same.
fn digest(g: &Grounding) -> u64 {
    use std::hash::{Hash, Hasher};
    #[allow(deprecated)]
    let mut h = std::hash::SipHasher::new();
    g.atoms.hash(&mut h);
    g.rules.hash(&mut h);
    g.init.hash(&mut h);
    h.finish()
}

fn main() {
    let mut files = Vec::new();
    for a in std::env::args().skip(1) {
        walk(Path::new(&a), &mut files);
    }
    for f in files {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let desc = match Description::from_kif(&text) {
            Ok(d) => d,
            Err(e) => {
                println!(
                    "{}\trefused: {}",
                    f.display(),
                    e.to_string().lines().next().unwrap_or("")
                );
                continue;
            }
        };
        let t0 = thread_cpu().unwrap_or(0.0);
        let w0 = std::time::Instant::now();
        let g = Grounding::new(&desc);
        let cpu = thread_cpu().unwrap_or(0.0) - t0;
        let wall = w0.elapsed().as_secs_f64();
        match g {
            Ok(g) => println!(
                "{}\t{cpu:.3}\t{wall:.3}\t{} rules\t{} atoms\t{:.1} M steps\t{:016x}",
                f.display(),
                g.rules.len(),
                g.atoms.len(),
                g.work as f64 / 1e6,
                digest(&g)
            ),
            Err(e) => println!("{}\t{cpu:.3}\t{wall:.3}\tfailed: {e}", f.display()),
        }
    }
}

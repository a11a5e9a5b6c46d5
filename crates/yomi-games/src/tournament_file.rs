//! The tournament file: TOML with `game` plus the arena's [`RoundRobin`] keys, read here
//! once for every entry point (`yomi tournament FILE`, `yomi tubstap experiment`, the
//! Python package and its Ray runner).
//!
//! `examples/tournament.toml` at the repository root documents every key and holds the
//! built-in default ([`TournamentFile::builtin`]); a test keeps the two equal.
//!
//! Unknown keys are rejected by name (serde's `deny_unknown_fields` does not work together
//! with `#[serde(flatten)]`, so the keys are checked here before deserializing).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};
use yomi_core::arena::RoundRobin;
use yomi_core::paths::resolve_in_file;

/// A tournament: the game and the round robin's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentFile {
    /// The game's name, as `yomi games` lists it.
    pub game: String,
    /// Agents, games per pairing, seed, threads, turn limit, records file, quiet.
    #[serde(flatten)]
    pub round_robin: RoundRobin,
}

/// Every key a tournament file may hold, in the order the example documents them.
pub const KEYS: &[&str] = &[
    "game",
    "agents",
    "games",
    "seed",
    "threads",
    "turn_limit",
    "out",
    "quiet",
];

/// The built-in default tournament's agents.
pub const BUILTIN_AGENTS: &[&str] = &[
    "random",
    "flatmc:n=50",
    "mcts:iters=2000",
    "alphabeta:depth=4",
];

impl TournamentFile {
    /// The built-in default: connect four between [`BUILTIN_AGENTS`], 100 games per
    /// pairing (600 games), seed 1, every core: about 3 s on two cores in a release build.
    pub fn builtin() -> Self {
        TournamentFile {
            game: "connect4".into(),
            round_robin: RoundRobin::new(BUILTIN_AGENTS.iter().copied()).seed(1),
        }
    }

    /// Parses a tournament file's text; `origin` names it in errors.
    ///
    /// # Errors
    /// TOML syntax errors, unknown keys (named, with the accepted ones), values of the
    /// wrong type, and agents that do not read as entrants (`spec` or `label=spec`, no
    /// label given twice; see [`yomi_core::entrant`]).
    pub fn parse(text: &str, origin: &str) -> anyhow::Result<Self> {
        let table: toml::Table =
            toml::from_str(text).with_context(|| format!("{origin} is not valid TOML"))?;
        for key in table.keys() {
            if !KEYS.contains(&key.as_str()) {
                let hint = closest(key)
                    .map(|k| format!(" (did you mean {k:?}?)"))
                    .unwrap_or_default();
                bail!(
                    "{origin}: unknown key {key:?}{hint}; accepted keys: {}",
                    KEYS.join(", ")
                );
            }
        }
        for required in ["game", "agents"] {
            if !table.contains_key(required) {
                bail!("{origin}: the key {required:?} is missing");
            }
        }
        let file =
            TournamentFile::deserialize(table).with_context(|| format!("{origin}: bad value"))?;
        // The agents are read here, where they enter, so that a bad label or spec is an
        // error of the file; the arena labels them the same way when it runs.
        file.round_robin
            .entrants()
            .with_context(|| format!("{origin}: agents"))?;
        Ok(file)
    }

    /// Reads and parses the file at `path`; the paths in it are relative to its directory
    /// ([`TournamentFile::resolve_paths`]).
    ///
    /// # Errors
    /// As [`TournamentFile::parse`], and when the file cannot be read.
    pub fn read(path: &Path) -> anyhow::Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        let mut file = Self::parse(&text, &path.display().to_string())?;
        file.resolve_paths(path);
        Ok(file)
    }

    /// Makes the paths written in the file at `path` relative to the current directory
    /// ([`yomi_core::paths::resolve_in_file`]): `out`, and a game named by a file
    /// (`ggp:<sheet.kif>`, `tubstap:<map.tbsmap>`). A game name that is a bare word
    /// (`ggp:tictactoe`, `tubstap:duel`) names a shipped game unless a file of that name
    /// is next to the tournament file.
    pub fn resolve_paths(&mut self, path: &Path) {
        if let Some(out) = &mut self.round_robin.out {
            resolve_in_file(path, out);
        }
        if let Some((head, what)) = self.game.split_once(':') {
            let is_file_game =
                head.eq_ignore_ascii_case("ggp") || head.eq_ignore_ascii_case("tubstap");
            let mut file = PathBuf::from(what);
            resolve_in_file(path, &mut file);
            let bare_word = !what.contains(['/', '\\', '.']);
            if is_file_game && file.as_path() != Path::new(what) && (!bare_word || file.exists()) {
                self.game = format!("{head}:{}", file.display());
            }
        }
    }
}

/// The accepted key nearest to `key`, if it is a likely typo.
fn closest(key: &str) -> Option<&'static str> {
    KEYS.iter()
        .map(|k| (edit_distance(key, k), *k))
        .filter(|&(d, k)| d <= 2.max(k.len() / 3))
        .min()
        .map(|(_, k)| k)
}

/// Levenshtein distance, with a transposition of neighbours counting as one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    d[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_file_is_the_builtin_default() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/tournament.toml"
        );
        let file = TournamentFile::read(Path::new(path)).unwrap();
        assert_eq!(file, TournamentFile::builtin());
    }

    #[test]
    fn minimal_file_uses_the_arena_defaults() {
        let f =
            TournamentFile::parse("game = \"tictactoe\"\nagents = [\"random\"]\n", "t").unwrap();
        assert_eq!(f.round_robin, RoundRobin::new(["random"]));
    }

    #[test]
    fn agents_may_repeat_and_carry_labels() {
        let f = TournamentFile::parse(
            "game = \"connect4\"\nagents = [\"mcts\", \"mcts\", \"deep=mcts:iters=50\"]\n",
            "t",
        )
        .unwrap();
        let labels: Vec<String> = f
            .round_robin
            .entrants()
            .unwrap()
            .into_iter()
            .map(|e| e.label)
            .collect();
        assert_eq!(labels, ["mcts", "mcts#2", "deep"]);
        let e = format!(
            "{:#}",
            TournamentFile::parse(
                "game = \"connect4\"\nagents = [\"a=mcts\", \"a=random\"]\n",
                "t.toml"
            )
            .unwrap_err()
        );
        assert!(
            e.contains("t.toml: agents") && e.contains("given to two agents"),
            "{e}"
        );
    }

    #[test]
    fn unknown_and_missing_keys_are_named() {
        let e = TournamentFile::parse("game = \"x\"\nagents = []\ngmaes = 3\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("unknown key \"gmaes\"") && e.contains("did you mean \"games\""),
            "{e}"
        );
        let e = TournamentFile::parse("agents = []\n", "t.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains("\"game\" is missing"), "{e}");
        let e = format!(
            "{:#}",
            TournamentFile::parse("game = \"x\"\nagents = []\ngames = \"many\"\n", "t.toml")
                .unwrap_err()
        );
        assert!(e.contains("bad value"), "{e}");
    }

    #[test]
    fn paths_in_a_file_are_relative_to_its_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("sub");
        std::fs::create_dir(&dir).unwrap();
        std::fs::write(dir.join("rules.kif"), "").unwrap();
        let path = dir.join("t.toml");
        std::fs::write(
            &path,
            "game = \"ggp:rules.kif\"\nagents = [\"random\"]\nout = \"records.jsonl\"\n",
        )
        .unwrap();
        let file = TournamentFile::read(&path).unwrap();
        assert_eq!(file.round_robin.out, Some(dir.join("records.jsonl")));
        assert_eq!(
            file.game,
            format!("ggp:{}", dir.join("rules.kif").display())
        );

        // Absolute paths, shipped games and built-in maps stay as written.
        let out = tmp.path().join("elsewhere.jsonl");
        let text = format!(
            "game = \"ggp:tictactoe\"\nagents = [\"random\"]\nout = {:?}\n",
            out.display().to_string()
        );
        std::fs::write(&path, text).unwrap();
        let file = TournamentFile::read(&path).unwrap();
        assert_eq!(file.round_robin.out, Some(out));
        assert_eq!(file.game, "ggp:tictactoe");

        // Text without a file keeps its paths relative to the current directory.
        let f = TournamentFile::parse(
            "game = \"tubstap:m.tbsmap\"\nagents = [\"random\"]\nout = \"r.jsonl\"\n",
            "t",
        )
        .unwrap();
        assert_eq!(f.round_robin.out, Some(PathBuf::from("r.jsonl")));
        assert_eq!(f.game, "tubstap:m.tbsmap");
    }

    #[test]
    fn shipped_experiment_files_name_their_shipped_records() {
        let experiments = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../experiments");
        // (experiment file, its `out`, the records shipped: the same file or gzipped)
        let mut files: Vec<[String; 3]> = [
            [
                "tubstap-table1.toml",
                "tubstap-table1.jsonl",
                "tubstap-table1.jsonl",
            ],
            [
                "tubstap.toml",
                "tubstap-table3.jsonl",
                "tubstap-table3.jsonl.gz",
            ],
            [
                "tubstap-time.toml",
                "tubstap-time.jsonl",
                "tubstap-time.jsonl",
            ],
        ]
        .map(|row| row.map(String::from))
        .to_vec();
        for a in ["uct-pw", "dlmc", "dlmc-m1", "dlmc-m2", "dlmc-m12"] {
            let stem = format!("tubstap-table3-diagonal/{a}");
            let jsonl = format!("{stem}.jsonl");
            files.push([format!("{stem}.toml"), jsonl.clone(), jsonl]);
        }
        for [file, records, shipped] in &files {
            let f = TournamentFile::read(&experiments.join(file)).unwrap();
            assert_eq!(f.round_robin.out, Some(experiments.join(records)), "{file}");
            assert!(experiments.join(shipped).is_file(), "{file}: {shipped}");
            assert_eq!(f.game, "tubstap:standard", "{file}");
            // Every agent resolves on the map (a typo in a spec fails here, not hours in).
            f.round_robin
                .resolve(&yomi_tubstap::maps::standard(), &yomi_tubstap::registry())
                .unwrap_or_else(|e| panic!("{file}: {e}"));
        }
    }
}

//! The checkpoint directory of a training run, shared by the AlphaZero ([`crate::train`])
//! and DQN ([`crate::dqn::train`]) trainers.
//!
//! Training runs for hours and may be killed at any moment; this protocol makes sure a kill
//! never costs more than the cycle in progress, and never leaves a checkpoint that cannot
//! be resumed:
//!
//! - `checkpoint/` is the last complete checkpoint: the trainer's files and `state.json`.
//! - A new checkpoint is written to `checkpoint.new/`, `state.json` last, so a directory
//!   with a `state.json` is complete.
//! - It is swapped in by renames: `checkpoint/` becomes `checkpoint.old/`, `checkpoint.new/`
//!   becomes `checkpoint/`, and `checkpoint.old/` is removed. A kill between the two renames
//!   leaves no `checkpoint/`; [`CheckpointDir::recover`] then puts `checkpoint.old/` back.
//!
//! The names and the JSON state are the on-disk format of existing run directories: changing
//! them breaks resuming runs that users already have.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::net::write_atomic;
use crate::NnError;

/// The file whose presence marks a checkpoint directory as complete (written last).
const STATE_FILE: &str = "state.json";

/// The steps of swapping `checkpoint.new/` in, in order. A kill may stop the swap after any
/// of them; [`CheckpointDir::recover`] brings every such directory back to a complete
/// checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SwapStep {
    /// Remove a `checkpoint.old/` left by an earlier interrupted swap.
    RemoveStaleOld,
    /// `checkpoint/` → `checkpoint.old/`, when there is a current checkpoint.
    CurrentToOld,
    /// `checkpoint.new/` → `checkpoint/`.
    NewToCurrent,
    /// Remove `checkpoint.old/`: the previous checkpoint is no longer needed.
    RemoveOld,
}

const SWAP: [SwapStep; 4] = [
    SwapStep::RemoveStaleOld,
    SwapStep::CurrentToOld,
    SwapStep::NewToCurrent,
    SwapStep::RemoveOld,
];

/// The checkpoint directories (`checkpoint/`, `checkpoint.new/`, `checkpoint.old/`) inside a
/// run directory. See the [module documentation](self).
#[derive(Clone, Debug)]
pub(crate) struct CheckpointDir {
    current: PathBuf,
    new: PathBuf,
    old: PathBuf,
}

impl CheckpointDir {
    /// The checkpoint directories inside `run_dir` (nothing is created).
    pub(crate) fn new(run_dir: &Path) -> Self {
        CheckpointDir {
            current: run_dir.join("checkpoint"),
            new: run_dir.join("checkpoint.new"),
            old: run_dir.join("checkpoint.old"),
        }
    }

    /// `checkpoint/`, where the trainer's files of the last complete checkpoint are.
    pub(crate) fn current(&self) -> &Path {
        &self.current
    }

    /// The complete checkpoint directory after finishing an interrupted swap, or `None`
    /// when there is no checkpoint yet.
    ///
    /// # Errors
    /// [`NnError::Io`] when the interrupted swap cannot be finished.
    pub(crate) fn recover(&self) -> Result<Option<&Path>, NnError> {
        if !is_complete(&self.current) && is_complete(&self.old) {
            // Killed between the two renames: the previous checkpoint is the last complete
            // one (an incomplete `checkpoint/` is only possible if someone edited it).
            if self.current.exists() {
                remove_dir(&self.current)?;
            }
            rename(&self.old, &self.current)?;
        }
        Ok(is_complete(&self.current).then_some(self.current.as_path()))
    }

    /// The JSON state of the last complete checkpoint (after [`CheckpointDir::recover`]),
    /// or `None` without a checkpoint. `version_of` reads the state's format version, which
    /// must be `expected_version`.
    ///
    /// # Errors
    /// [`NnError::Io`] when the swap cannot be finished or the file not read,
    /// [`NnError::Format`] (naming the file) when it is not the expected JSON, and
    /// [`NnError::Version`] for another format version.
    pub(crate) fn read_state<S: DeserializeOwned>(
        &self,
        expected_version: u32,
        version_of: impl FnOnce(&S) -> u32,
    ) -> Result<Option<S>, NnError> {
        let Some(dir) = self.recover()? else {
            return Ok(None);
        };
        let state: S = read_json(&dir.join(STATE_FILE))?;
        let found = version_of(&state);
        if found != expected_version {
            return Err(NnError::Version {
                found,
                expected: expected_version,
            });
        }
        Ok(Some(state))
    }

    /// Writes a new checkpoint and swaps it in: `write_files` writes the trainer's files
    /// into the directory it is given, then `state` is written as `state.json`.
    ///
    /// # Errors
    /// Whatever `write_files` returns; [`NnError::Format`] when `state` does not serialise;
    /// [`NnError::Io`] for file errors. On an error the last complete checkpoint is kept.
    pub(crate) fn write<S: Serialize>(
        &self,
        state: &S,
        write_files: impl FnOnce(&Path) -> Result<(), NnError>,
    ) -> Result<(), NnError> {
        // A `checkpoint.new/` left by a kill is incomplete or older; start it afresh.
        if self.new.exists() {
            remove_dir(&self.new)?;
        }
        std::fs::create_dir_all(&self.new).map_err(|e| io(&self.new, e))?;
        write_files(&self.new)?;
        let json = serde_json::to_vec_pretty(state).map_err(|e| NnError::Format(e.to_string()))?;
        write_atomic(&self.new.join(STATE_FILE), &json)?;
        for step in SWAP {
            self.swap_step(step)?;
        }
        Ok(())
    }

    fn swap_step(&self, step: SwapStep) -> Result<(), NnError> {
        match step {
            SwapStep::RemoveStaleOld | SwapStep::RemoveOld => {
                if self.old.exists() {
                    remove_dir(&self.old)?;
                }
            }
            SwapStep::CurrentToOld => {
                if self.current.exists() {
                    rename(&self.current, &self.old)?;
                }
            }
            SwapStep::NewToCurrent => rename(&self.new, &self.current)?,
        }
        Ok(())
    }
}

/// Whether `dir` holds a complete checkpoint (its `state.json` is written last).
fn is_complete(dir: &Path) -> bool {
    dir.join(STATE_FILE).exists()
}

/// Reads and parses a JSON file.
///
/// # Errors
/// [`NnError::Io`] naming the file when it cannot be read, [`NnError::Format`] naming it
/// when it is not the expected JSON.
fn read_json<S: DeserializeOwned>(path: &Path) -> Result<S, NnError> {
    let text = std::fs::read_to_string(path).map_err(|e| io(path, e))?;
    serde_json::from_str(&text).map_err(|e| NnError::Format(format!("{}: {e}", path.display())))
}

fn io(path: &Path, source: std::io::Error) -> NnError {
    NnError::Io {
        path: path.to_path_buf(),
        source,
    }
}

fn remove_dir(dir: &Path) -> Result<(), NnError> {
    std::fs::remove_dir_all(dir).map_err(|e| io(dir, e))
}

fn rename(from: &Path, to: &Path) -> Result<(), NnError> {
    std::fs::rename(from, to).map_err(|e| io(from, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct State {
        version: u32,
        cycle: usize,
    }

    const VERSION: u32 = 3;

    fn state(cycle: usize) -> State {
        State {
            version: VERSION,
            cycle,
        }
    }

    /// An empty run directory under the system's temporary directory, removed on drop.
    struct RunDir(PathBuf);

    impl RunDir {
        fn new(name: &str) -> Self {
            let dir = std::env::temp_dir().join(format!(
                "yomi-nn-checkpoint-{name}-{}-{:?}",
                std::process::id(),
                std::thread::current().id()
            ));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(&dir).unwrap();
            RunDir(dir)
        }
    }

    impl Drop for RunDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn read(ck: &CheckpointDir) -> Result<Option<State>, NnError> {
        ck.read_state(VERSION, |s: &State| s.version)
    }

    /// Writes cycle `cycle`'s checkpoint with one trainer file that names the cycle.
    fn write(ck: &CheckpointDir, cycle: usize) -> Result<(), NnError> {
        ck.write(&state(cycle), |dir| {
            std::fs::write(dir.join("net.ynn"), format!("net {cycle}")).unwrap();
            Ok(())
        })
    }

    /// The cycle of the recovered checkpoint, checking that its files belong together.
    fn recovered_cycle(ck: &CheckpointDir) -> Option<usize> {
        let cycle = read(ck).unwrap()?.cycle;
        let net = std::fs::read_to_string(ck.current().join("net.ynn")).unwrap();
        assert_eq!(net, format!("net {cycle}"));
        Some(cycle)
    }

    #[test]
    fn written_checkpoints_read_back_and_replace_each_other() {
        let run = RunDir::new("write");
        let ck = CheckpointDir::new(&run.0);
        assert_eq!(read(&ck).unwrap(), None);
        write(&ck, 1).unwrap();
        assert_eq!(recovered_cycle(&ck), Some(1));
        write(&ck, 2).unwrap();
        assert_eq!(recovered_cycle(&ck), Some(2));
        assert!(!run.0.join("checkpoint.new").exists());
        assert!(!run.0.join("checkpoint.old").exists());
        // The on-disk names existing run directories use.
        assert!(run.0.join("checkpoint/state.json").exists());
    }

    /// A kill after every prefix of the swap, with and without an earlier checkpoint, and
    /// with a `checkpoint.old/` left by an earlier kill: recovery finds the previous
    /// checkpoint until the new one is renamed in, then the new one, and the next write
    /// succeeds.
    #[test]
    fn a_swap_interrupted_at_each_step_recovers() {
        for stale_old in [false, true] {
            for previous in [None, Some(1)] {
                for done in 0..=SWAP.len() {
                    let run = RunDir::new(&format!("swap-{stale_old}-{previous:?}-{done}"));
                    let ck = CheckpointDir::new(&run.0);
                    if let Some(cycle) = previous {
                        write(&ck, cycle).unwrap();
                    }
                    if stale_old {
                        std::fs::create_dir_all(run.0.join("checkpoint.old")).unwrap();
                        std::fs::write(run.0.join("checkpoint.old/net.ynn"), "stale").unwrap();
                    }
                    // Cycle 2 written to `checkpoint.new/`, then the kill after `done` steps.
                    let new = run.0.join("checkpoint.new");
                    std::fs::create_dir_all(&new).unwrap();
                    std::fs::write(new.join("net.ynn"), "net 2").unwrap();
                    let json = serde_json::to_vec(&state(2)).unwrap();
                    std::fs::write(new.join(STATE_FILE), json).unwrap();
                    for &step in &SWAP[..done] {
                        ck.swap_step(step).unwrap();
                    }
                    let renamed_in = SWAP[..done].contains(&SwapStep::NewToCurrent);
                    let expected = if renamed_in { Some(2) } else { previous };
                    let case =
                        format!("stale old {stale_old}, previous {previous:?}, {done} steps");
                    assert_eq!(recovered_cycle(&ck), expected, "{case}");
                    // Recovery is idempotent, and the run goes on.
                    assert_eq!(recovered_cycle(&ck), expected, "{case}");
                    write(&ck, 3).unwrap();
                    assert_eq!(recovered_cycle(&ck), Some(3), "{case}");
                }
            }
        }
    }

    #[test]
    fn a_failed_write_keeps_the_last_checkpoint() {
        let run = RunDir::new("failed-write");
        let ck = CheckpointDir::new(&run.0);
        write(&ck, 1).unwrap();
        let err = ck
            .write(&state(2), |_| Err(NnError::Record("disk full".into())))
            .unwrap_err();
        assert!(matches!(err, NnError::Record(_)), "{err}");
        assert_eq!(recovered_cycle(&ck), Some(1));
        write(&ck, 2).unwrap();
        assert_eq!(recovered_cycle(&ck), Some(2));
    }

    #[test]
    fn a_missing_state_file_means_no_checkpoint_and_cannot_be_read() {
        let run = RunDir::new("missing");
        let ck = CheckpointDir::new(&run.0);
        // A `checkpoint/` without `state.json` (and no `checkpoint.old/`) is no checkpoint.
        std::fs::create_dir_all(run.0.join("checkpoint")).unwrap();
        assert_eq!(read(&ck).unwrap(), None);
        // Reading the file itself names it.
        let path = run.0.join("checkpoint").join(STATE_FILE);
        let err = read_json::<State>(&path).unwrap_err();
        assert!(
            matches!(&err, NnError::Io { path: p, .. } if *p == path),
            "{err}"
        );
        assert!(err.to_string().contains("state.json"), "{err}");
    }

    #[test]
    fn a_malformed_state_file_is_a_format_error_naming_it() {
        let run = RunDir::new("malformed");
        let ck = CheckpointDir::new(&run.0);
        write(&ck, 1).unwrap();
        let path = run.0.join("checkpoint/state.json");
        for text in ["{\"version\": 3, \"cyc", "{\"version\": 3}", "[]", ""] {
            std::fs::write(&path, text).unwrap();
            let err = read(&ck).unwrap_err();
            assert!(matches!(err, NnError::Format(_)), "{text:?}: {err}");
            let message = err.to_string();
            assert!(message.contains(&path.display().to_string()), "{message}");
        }
    }

    #[test]
    fn another_format_version_is_a_version_error() {
        let run = RunDir::new("version");
        let ck = CheckpointDir::new(&run.0);
        let other = State {
            version: VERSION + 1,
            cycle: 1,
        };
        ck.write(&other, |_| Ok(())).unwrap();
        let err = read(&ck).unwrap_err();
        assert!(
            matches!(
                err,
                NnError::Version {
                    found: 4,
                    expected: VERSION
                }
            ),
            "{err}"
        );
    }
}

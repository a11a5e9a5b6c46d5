//! Append-only, resumable JSONL journals: the one way yomi keeps finished work on disk.
//!
//! A journal file holds one JSON object per line, each a finished piece of work (a game, a
//! scored problem, a labelled position) with a key. A run opens the journal, learns which
//! keys are done, does the rest and appends each result as soon as it is finished:
//! - **One writer.** The file is locked (an advisory exclusive lock: `flock` on Unix,
//!   `LockFileEx` on Windows, through `fs4`) from before it is read until the journal is
//!   dropped; a second run on it is refused with [`JournalError::Locked`] (after a short
//!   grace, [`LOCK_GRACE`], for a lock held only by a process being spawned).
//! - **Torn last line cut.** A process killed while writing leaves a last line without its
//!   newline; it is ignored when read and cut off before anything is appended.
//! - **Settings checked.** A journal opened with settings (any JSON value: the parameters
//!   that decide what the work produces) starts with one header line holding them; opening
//!   the file with other settings is refused with [`JournalError::Settings`] naming the
//!   first difference, so two configurations never mix in one file. Journals whose entries
//!   carry their own settings (game records) open without a header and check each entry.
//!   Files written before their job had a header are read through [`Legacy`]
//!   ([`Journal::open_with`]): refused (the default), accepted without one, or read with
//!   an older header line that the caller translates into settings.
//! - **Finished keys skipped.** Each entry has a key ([`JournalEntry::key`]). An entry
//!   whose key is already recorded is not written again ([`Journal::add`] returns
//!   `false`); two different entries under one key in a file are refused
//!   ([`JournalError::Conflict`]).
//! - **Flushed per entry.** Each [`Journal::add`] writes one line and flushes it, so a
//!   killed run loses only the work in progress.
//!
//! ```
//! use serde::{Deserialize, Serialize};
//! use yomi_core::journal::{no_check, Journal, JournalEntry};
//!
//! #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
//! struct Scored { problem: String, correct: bool }
//! impl JournalEntry for Scored {
//!     type Key = String;
//!     fn key(&self) -> String { self.problem.clone() }
//! }
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("scores.jsonl");
//! let settings = serde_json::json!({"engine": "mcts", "iters": 100});
//! let mut journal = Journal::<Scored>::open(&path, Some(&settings), no_check).unwrap();
//! assert!(journal.add(Scored { problem: "p1".into(), correct: true }).unwrap());
//! drop(journal);
//! // Resumed: p1 is done. Other settings are refused.
//! let journal = Journal::<Scored>::open(&path, Some(&settings), no_check).unwrap();
//! assert!(journal.contains(&"p1".to_string()));
//! drop(journal);
//! let other = serde_json::json!({"engine": "mcts", "iters": 200});
//! assert!(Journal::<Scored>::open(&path, Some(&other), no_check).is_err());
//! ```

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use thiserror::Error;

/// The key of a journal's header line (`{"yomi_journal": {"settings": …}}`).
pub const HEADER_KEY: &str = "yomi_journal";

/// The complete, non-blank lines of a journal file, each with its number (from 1).
pub type NumberedLines = Vec<(usize, String)>;

/// The message of the error that refuses a second writer.
pub const LOCKED_MESSAGE: &str = "another run is writing this file (it is locked); wait for \
     that run to finish or give another output file";

/// How long [`JournalFile::lock`] keeps trying a busy lock before it refuses the file.
pub const LOCK_GRACE: Duration = Duration::from_secs(1);

/// Why a journal could not be opened, read or written.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Opening, reading, truncating or writing the file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// Another run holds the file's lock.
    #[error("{}: {LOCKED_MESSAGE}", path.display())]
    Locked {
        /// The file.
        path: PathBuf,
    },
    /// A complete line is not an entry (nor the header).
    #[error("{}, line {line}: {reason}", path.display())]
    BadLine {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The file was written with other settings, or without the header they need.
    #[error(
        "{} was written with other settings: {detail}; use another file, or the settings \
         that wrote this one",
        path.display()
    )]
    Settings {
        /// The file.
        path: PathBuf,
        /// The first difference.
        detail: String,
    },
    /// An entry does not belong to this run (reported by the caller's check), or two
    /// different entries share a key.
    #[error("{}, line {line}: {detail}", path.display())]
    Conflict {
        /// The file.
        path: PathBuf,
        /// The line number (from 1; 0 for an entry added by the run, not read).
        line: usize,
        /// What differs.
        detail: String,
    },
}

impl JournalError {
    fn io(path: &Path, source: std::io::Error) -> Self {
        JournalError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// One finished piece of work in a journal.
pub trait JournalEntry: Serialize + DeserializeOwned {
    /// What identifies the work (a game's pairing and index, a problem's name).
    type Key: Ord + Clone + Debug;

    /// This entry's key.
    fn key(&self) -> Self::Key;

    /// Parses one line. The default reads the JSON with serde; formats with a version
    /// field check it here.
    ///
    /// # Errors
    /// What is wrong with the line, in words.
    fn parse_line(line: &str) -> Result<Self, String> {
        serde_json::from_str(line).map_err(|e| format!("not an entry of this journal: {e}"))
    }

    /// Whether `other`, found under the same key, records the same work (then it is a
    /// harmless second copy and is dropped). The default compares the JSON.
    fn same_work(&self, other: &Self) -> bool {
        serde_json::to_value(self).ok() == serde_json::to_value(other).ok()
    }
}

/// A locked JSONL file open for appending, shared by the threads of a run: the untyped
/// layer under [`Journal`]. Lines never interleave (each append writes one line and
/// flushes it under a mutex).
#[derive(Debug)]
pub struct JournalFile {
    path: PathBuf,
    file: Mutex<File>,
}

impl JournalFile {
    /// Opens (or creates) the file at `path` and locks it, without changing it.
    ///
    /// # Errors
    /// [`JournalError::Io`] when it cannot be opened; [`JournalError::Locked`] when another
    /// run holds its lock (still held after [`LOCK_GRACE`]).
    pub fn lock(path: &Path) -> Result<Self, JournalError> {
        let io = |e| JournalError::io(path, e);
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(io)?;
        }
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(io)?;
        // A lock that is busy may be held for a moment only: a process started by another
        // thread of this program (a spawned engine) holds a copy of every descriptor open
        // at its fork until its `exec` closes them, so a journal just dropped by one thread
        // can look locked to the next. A run that really holds the file holds it for longer
        // than this grace period.
        let deadline = Instant::now() + LOCK_GRACE;
        loop {
            match fs4::fs_std::FileExt::try_lock_exclusive(&file) {
                Ok(true) => break,
                Ok(false) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                Ok(false) => {
                    return Err(JournalError::Locked {
                        path: path.to_path_buf(),
                    })
                }
                Err(e) => return Err(io(e)),
            }
        }
        Ok(JournalFile {
            path: path.to_path_buf(),
            file: Mutex::new(file),
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The complete lines, each with its number (from 1), blank lines left out; a torn
    /// last line (no newline) is left out too.
    ///
    /// # Errors
    /// [`JournalError::Io`] when reading fails; [`JournalError::BadLine`] for a line that
    /// is not UTF-8.
    pub fn read_lines(&self) -> Result<NumberedLines, JournalError> {
        Ok(self.read_bytes()?.0)
    }

    fn read_bytes(&self) -> Result<(NumberedLines, usize, usize), JournalError> {
        let io = |e| JournalError::io(&self.path, e);
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).map_err(io)?;
        let lines = complete_lines(&self.path, &bytes)?;
        let complete = complete_len(&bytes);
        Ok((lines, complete, bytes.len()))
    }

    /// Readies the file for appending: cuts off a torn last line and positions writes at
    /// the end. Returns the complete lines as [`JournalFile::read_lines`] does.
    ///
    /// # Errors
    /// As [`JournalFile::read_lines`], and [`JournalError::Io`] when truncating fails.
    pub fn prepare(&self) -> Result<NumberedLines, JournalError> {
        let io = |e| JournalError::io(&self.path, e);
        let (lines, complete, len) = self.read_bytes()?;
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        if complete < len {
            file.set_len(complete as u64).map_err(io)?;
            file.sync_data().map_err(io)?;
        }
        file.seek(SeekFrom::Start(complete as u64)).map_err(io)?;
        Ok(lines)
    }

    /// Appends `line` (without its newline) and flushes it.
    ///
    /// # Errors
    /// [`JournalError::Io`] when writing fails.
    pub fn append_line(&self, line: &str) -> Result<(), JournalError> {
        let mut text = String::with_capacity(line.len() + 1);
        text.push_str(line);
        text.push('\n');
        // A poisoned lock only means another thread panicked between writes; the file is
        // still consistent line by line.
        let mut file = self.file.lock().unwrap_or_else(|p| p.into_inner());
        file.write_all(text.as_bytes())
            .and_then(|()| file.flush())
            .map_err(|e| JournalError::io(&self.path, e))
    }

    /// Appends `value` as one line of JSON and flushes it.
    ///
    /// # Errors
    /// [`JournalError::Io`] when writing fails; [`JournalError::BadLine`] (line 0) when
    /// the value cannot be written as JSON.
    pub fn append<T: Serialize>(&self, value: &T) -> Result<(), JournalError> {
        let line = serde_json::to_string(value).map_err(|e| JournalError::BadLine {
            path: self.path.clone(),
            line: 0,
            reason: format!("cannot write the entry: {e}"),
        })?;
        self.append_line(&line)
    }
}

/// The length of the complete part of `bytes` (up to and with the last newline).
fn complete_len(bytes: &[u8]) -> usize {
    bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1)
}

/// The complete, non-blank lines of `bytes` with their numbers (from 1).
///
/// # Errors
/// [`JournalError::BadLine`] for a line that is not UTF-8.
pub fn complete_lines(path: &Path, bytes: &[u8]) -> Result<NumberedLines, JournalError> {
    let complete = complete_len(bytes);
    let mut out = Vec::new();
    if complete == 0 {
        return Ok(out);
    }
    for (i, line) in bytes[..complete - 1].split(|&b| b == b'\n').enumerate() {
        let text = std::str::from_utf8(line).map_err(|_| JournalError::BadLine {
            path: path.to_path_buf(),
            line: i + 1,
            reason: "not UTF-8".into(),
        })?;
        if !text.trim().is_empty() {
            out.push((i + 1, text.to_string()));
        }
    }
    Ok(out)
}

/// The complete lines of the file at `path`, read without locking it (for reports).
///
/// # Errors
/// As [`JournalFile::read_lines`], and [`JournalError::Io`] when the file cannot be opened.
pub fn read_lines(path: &Path) -> Result<NumberedLines, JournalError> {
    let mut bytes = Vec::new();
    File::open(path)
        .and_then(|mut f| f.read_to_end(&mut bytes))
        .map_err(|e| JournalError::io(path, e))?;
    complete_lines(path, &bytes)
}

/// The settings of a header line, or `None` when `line` is not a header (readers that
/// tell one kind of journal from another by its settings use it).
pub fn header_settings(line: &str) -> Option<Value> {
    let value: Value = serde_json::from_str(line).ok()?;
    let header = value.as_object()?.get(HEADER_KEY)?;
    Some(header.get("settings").cloned().unwrap_or(Value::Null))
}

/// Where two JSON values first differ, in words (`iters: 100 here, 200 in the file`).
fn first_difference(here: &Value, file: &Value, at: &str) -> String {
    match (here, file) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                match b.get(k) {
                    Some(vb) if vb == va => {}
                    Some(vb) => return first_difference(va, vb, &path),
                    None => return format!("{path}: {va} here, absent in the file"),
                }
            }
            if let Some(k) = b.keys().find(|k| !a.contains_key(*k)) {
                let path = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                return format!("{path}: absent here, {} in the file", b[k]);
            }
            format!("{}: equal", if at.is_empty() { "settings" } else { at })
        }
        _ => format!(
            "{}: {here} here, {file} in the file",
            if at.is_empty() { "settings" } else { at }
        ),
    }
}

/// The check for [`Journal::open`] that accepts every entry (journals whose settings
/// header says all there is to check).
///
/// # Errors
/// Never.
pub fn no_check<E>(_line: usize, _entry: &E) -> Result<(), JournalError> {
    Ok(())
}

/// What [`Journal::open_with`] does with a non-empty file whose first line is not a settings
/// header although the run has settings: a file its job wrote before it kept its settings
/// in a journal header.
#[derive(Clone, Copy)]
pub enum Legacy<'a> {
    /// Refuse it with [`JournalError::Settings`] (what [`Journal::open`] does).
    Refuse,
    /// Accept a file of entries without any header: its settings were never recorded, so
    /// they cannot be checked (the caller's `check` still sees every entry). Nothing is
    /// prepended; the file stays header-less.
    Headerless,
    /// The file may start with a header line of an older format: the function returns the
    /// settings that line records (compared with the run's as a journal header's are), or
    /// `None` when the line is no such header (then the file is refused). The old line
    /// stays the file's first.
    Header(&'a dyn Fn(&str) -> Option<Value>),
}

impl Debug for Legacy<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Legacy::Refuse => "Refuse",
            Legacy::Headerless => "Headerless",
            Legacy::Header(_) => "Header(..)",
        })
    }
}

/// A typed journal: the entries recorded so far, by key, and the file they go to (see the
/// [module documentation](self)). Holds the file's lock until dropped.
#[derive(Debug)]
pub struct Journal<E: JournalEntry> {
    file: Option<JournalFile>,
    done: BTreeMap<E::Key, E>,
    resumed: usize,
    duplicates: usize,
    legacy: bool,
}

impl<E: JournalEntry> Journal<E> {
    /// A journal kept in memory only (nothing is written).
    pub fn in_memory() -> Self {
        Journal {
            file: None,
            done: BTreeMap::new(),
            resumed: 0,
            duplicates: 0,
            legacy: false,
        }
    }

    /// Opens (or creates) the journal at `path` and resumes it: locks the file, checks the
    /// header against `settings` (a new or empty file gets one written when `settings` is
    /// given), parses every complete line, passes each entry with its line number to
    /// `check` (which refuses work of another configuration), keeps the first of two equal
    /// entries under one key, and cuts off a torn last line. Nothing is written before
    /// every check passed.
    ///
    /// # Errors
    /// [`JournalError::Io`] / [`JournalError::Locked`] for file trouble;
    /// [`JournalError::Settings`] when the header holds other settings, is missing although
    /// settings are given, or is present although none are; [`JournalError::BadLine`] for
    /// a line that does not parse; [`JournalError::Conflict`] for two different entries
    /// under one key (each converted into the caller's error type `X`), or whatever
    /// `check` returns.
    pub fn open<X: From<JournalError>>(
        path: &Path,
        settings: Option<&Value>,
        check: impl FnMut(usize, &E) -> Result<(), X>,
    ) -> Result<Self, X> {
        Self::open_with(path, settings, Legacy::Refuse, check)
    }

    /// [`Journal::open`], reading a file written before its job had a settings header as
    /// `legacy` says ([`Journal::legacy`] tells whether it was one).
    ///
    /// # Errors
    /// As [`Journal::open`]; a legacy file is refused with [`JournalError::Settings`] when
    /// `legacy` is [`Legacy::Refuse`], or its old header is not one or records other
    /// settings.
    pub fn open_with<X: From<JournalError>>(
        path: &Path,
        settings: Option<&Value>,
        legacy: Legacy<'_>,
        mut check: impl FnMut(usize, &E) -> Result<(), X>,
    ) -> Result<Self, X> {
        let file = JournalFile::lock(path)?;
        let lines = file.read_lines()?;
        let mut body = lines.as_slice();
        let header = body.first().and_then(|(_, l)| header_settings(l));
        let settings_error = |detail: String| JournalError::Settings {
            path: path.to_path_buf(),
            detail,
        };
        let mut was_legacy = false;
        match (settings, header) {
            (Some(here), Some(found)) => {
                if *here != found {
                    return Err(settings_error(first_difference(here, &found, "")).into());
                }
                body = &body[1..];
            }
            (Some(here), None) if !body.is_empty() => {
                let old_header = match legacy {
                    Legacy::Header(settings_of) => settings_of(&body[0].1),
                    Legacy::Refuse | Legacy::Headerless => None,
                };
                match (legacy, old_header) {
                    (_, Some(found)) => {
                        if *here != found {
                            return Err(settings_error(first_difference(here, &found, "")).into());
                        }
                        body = &body[1..];
                    }
                    (Legacy::Headerless, None) => {}
                    _ => {
                        return Err(settings_error(
                            "its first line is not a settings header (written by another \
                             program or an older version)"
                                .into(),
                        )
                        .into())
                    }
                }
                was_legacy = true;
            }
            (Some(_), None) => {}
            (None, Some(_)) => {
                return Err(settings_error(
                    "it starts with a settings header, and this run has none".into(),
                )
                .into())
            }
            (None, None) => {}
        }
        let mut done: BTreeMap<E::Key, E> = BTreeMap::new();
        let mut duplicates = 0;
        for (line, text) in body {
            let entry = E::parse_line(text).map_err(|reason| JournalError::BadLine {
                path: path.to_path_buf(),
                line: *line,
                reason,
            })?;
            check(*line, &entry)?;
            let key = entry.key();
            if let Some(first) = done.get(&key) {
                if first.same_work(&entry) {
                    duplicates += 1;
                    continue;
                }
                return Err(JournalError::Conflict {
                    path: path.to_path_buf(),
                    line: *line,
                    detail: format!("it records {key:?} again, differently"),
                }
                .into());
            }
            done.insert(key, entry);
        }
        file.prepare()?;
        if let (Some(settings), true) = (settings, lines.is_empty()) {
            file.append(&serde_json::json!({ HEADER_KEY: { "settings": settings } }))?;
        }
        Ok(Journal {
            file: Some(file),
            resumed: done.len(),
            done,
            duplicates,
            legacy: was_legacy,
        })
    }

    /// Whether the file was opened as a legacy file (see [`Legacy`]): one without a header,
    /// or with an older one.
    pub fn legacy(&self) -> bool {
        self.legacy
    }

    /// The file, when the journal has one.
    pub fn file(&self) -> Option<&JournalFile> {
        self.file.as_ref()
    }

    /// Whether the work of `key` is recorded.
    pub fn contains(&self, key: &E::Key) -> bool {
        self.done.contains_key(key)
    }

    /// The entry recorded under `key`.
    pub fn get(&self, key: &E::Key) -> Option<&E> {
        self.done.get(key)
    }

    /// Entries recorded (read back or added).
    pub fn len(&self) -> usize {
        self.done.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// Entries read back from the file when it was opened.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// Second copies of recorded work: found in the file, or given to [`Journal::add`].
    pub fn duplicates(&self) -> usize {
        self.duplicates
    }

    /// The entries, in key order.
    pub fn entries(&self) -> impl Iterator<Item = &E> {
        self.done.values()
    }

    /// Records `entry` unless its key is already recorded: appends it to the file (one
    /// flushed line) and returns `true`, or skips it and returns `false` (the first copy
    /// stays).
    ///
    /// # Errors
    /// [`JournalError::Io`] when writing fails (the entry is then not recorded).
    pub fn add(&mut self, entry: E) -> Result<bool, JournalError> {
        let key = entry.key();
        if self.done.contains_key(&key) {
            self.duplicates += 1;
            return Ok(false);
        }
        if let Some(file) = &self.file {
            file.append(&entry)?;
        }
        self.done.insert(key, entry);
        Ok(true)
    }

    /// Every entry, in key order, releasing the file.
    pub fn into_entries(self) -> Vec<E> {
        self.done.into_values().collect()
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use serde::{Deserialize, Serialize};
    use serde_json::json;

    use super::*;

    #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
    struct Work {
        id: u32,
        value: String,
    }

    impl JournalEntry for Work {
        type Key = u32;
        fn key(&self) -> u32 {
            self.id
        }
    }

    fn work(id: u32) -> Work {
        Work {
            id,
            value: format!("v{id}"),
        }
    }

    fn open(path: &Path, settings: &Value) -> Result<Journal<Work>, JournalError> {
        Journal::open(path, Some(settings), no_check)
    }

    #[test]
    fn resume_skips_finished_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let s = json!({"n": 1});
        let mut j = open(&path, &s).unwrap();
        for id in [3, 1, 2] {
            assert!(j.add(work(id)).unwrap());
        }
        assert!(!j.add(work(1)).unwrap(), "a finished key is skipped");
        assert_eq!(j.duplicates(), 1);
        drop(j);
        let mut j = open(&path, &s).unwrap();
        assert_eq!((j.len(), j.resumed()), (3, 3));
        assert!(j.contains(&2) && !j.contains(&4));
        assert!(j.add(work(4)).unwrap());
        assert_eq!(j.entries().map(|w| w.id).collect::<Vec<_>>(), [1, 2, 3, 4]);
        drop(j);
        // Header plus four entries, each written once.
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 5);
    }

    #[test]
    fn a_torn_last_line_is_cut_and_the_run_goes_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let s = json!({"n": 1});
        let mut j = open(&path, &s).unwrap();
        j.add(work(1)).unwrap();
        j.add(work(2)).unwrap();
        drop(j);
        // A process killed in the middle of writing entry 3.
        let full = fs::read_to_string(&path).unwrap();
        fs::write(&path, format!("{full}{{\"id\":3,\"val")).unwrap();
        let mut j = open(&path, &s).unwrap();
        assert_eq!(j.len(), 2);
        assert!(!j.contains(&3));
        assert!(j.add(work(3)).unwrap());
        drop(j);
        let text = fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            format!("{full}{}\n", serde_json::to_string(&work(3)).unwrap())
        );
        // Every line of the file parses again.
        let j = open(&path, &s).unwrap();
        assert_eq!(j.len(), 3);
    }

    #[test]
    fn other_settings_are_refused_without_touching_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let mut j = open(&path, &json!({"engine": "mcts", "iters": 100})).unwrap();
        j.add(work(1)).unwrap();
        drop(j);
        let before = fs::read(&path).unwrap();
        let err = open(&path, &json!({"engine": "mcts", "iters": 200})).unwrap_err();
        assert!(matches!(err, JournalError::Settings { .. }), "{err}");
        assert!(
            err.to_string().contains("iters: 200 here, 100 in the file"),
            "{err}"
        );
        let err = open(&path, &json!({"engine": "mcts"})).unwrap_err();
        assert!(err.to_string().contains("iters: absent here"), "{err}");
        let err = Journal::<Work>::open(&path, None, no_check).unwrap_err();
        assert!(matches!(err, JournalError::Settings { .. }), "{err}");
        assert_eq!(fs::read(&path).unwrap(), before);
        // A file of entries without a header is not taken for one with settings.
        let bare = dir.path().join("bare.jsonl");
        let mut j = Journal::<Work>::open(&bare, None, no_check).unwrap();
        j.add(work(1)).unwrap();
        drop(j);
        assert!(matches!(
            open(&bare, &json!({})).unwrap_err(),
            JournalError::Settings { .. }
        ));
    }

    #[test]
    fn legacy_files_are_refused_accepted_or_read_with_their_old_header() {
        let dir = tempfile::tempdir().unwrap();
        let line = |w: &Work| serde_json::to_string(w).unwrap();
        let s = json!({"n": 1});
        // Entries without any header: refused by default, accepted as header-less.
        let bare = dir.path().join("bare.jsonl");
        fs::write(&bare, format!("{}\n", line(&work(1)))).unwrap();
        assert!(matches!(
            open(&bare, &s).unwrap_err(),
            JournalError::Settings { .. }
        ));
        let mut j = Journal::<Work>::open_with::<JournalError>(
            &bare,
            Some(&s),
            Legacy::Headerless,
            no_check,
        )
        .unwrap();
        assert!(j.legacy() && j.contains(&1));
        j.add(work(2)).unwrap();
        drop(j);
        assert_eq!(
            fs::read_to_string(&bare).unwrap(),
            format!("{}\n{}\n", line(&work(1)), line(&work(2)))
        );
        // An older header line, translated into settings and checked.
        let old = dir.path().join("old.jsonl");
        fs::write(&old, format!("{{\"old_header\":1}}\n{}\n", line(&work(1)))).unwrap();
        let settings_of = |l: &str| {
            let v: Value = serde_json::from_str(l).ok()?;
            Some(json!({"n": v.get("old_header")?.clone()}))
        };
        let j = Journal::<Work>::open_with::<JournalError>(
            &old,
            Some(&s),
            Legacy::Header(&settings_of),
            no_check,
        )
        .unwrap();
        assert!(j.legacy() && j.contains(&1) && j.len() == 1);
        drop(j);
        let err = Journal::<Work>::open_with::<JournalError>(
            &old,
            Some(&json!({"n": 2})),
            Legacy::Header(&settings_of),
            no_check,
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("n: 2 here, 1 in the file"),
            "{err}"
        );
        // A first line that is no old header either is refused.
        let err = Journal::<Work>::open_with::<JournalError>(
            &bare,
            Some(&s),
            Legacy::Header(&settings_of),
            no_check,
        )
        .unwrap_err();
        assert!(matches!(err, JournalError::Settings { .. }), "{err}");
        // A journal with its own header is not legacy.
        let new = dir.path().join("new.jsonl");
        drop(open(&new, &s).unwrap());
        let j = Journal::<Work>::open_with::<JournalError>(
            &new,
            Some(&s),
            Legacy::Headerless,
            no_check,
        )
        .unwrap();
        assert!(!j.legacy());
    }

    #[test]
    fn a_lock_held_for_a_moment_is_waited_for_and_a_held_one_refused_after_the_grace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        // As a process being spawned holds a copy of the descriptor until its exec.
        let brief = JournalFile::lock(&path).unwrap();
        let releaser = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(150));
            drop(brief);
        });
        let start = Instant::now();
        let second = JournalFile::lock(&path).unwrap();
        assert!(start.elapsed() >= Duration::from_millis(100));
        releaser.join().unwrap();
        let start = Instant::now();
        assert!(matches!(
            JournalFile::lock(&path).unwrap_err(),
            JournalError::Locked { .. }
        ));
        assert!(start.elapsed() >= LOCK_GRACE);
        drop(second);
    }

    #[test]
    fn conflicts_locks_and_bad_lines_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("j.jsonl");
        let s = json!(null);
        let held = open(&path, &s).unwrap();
        assert!(matches!(
            open(&path, &s).unwrap_err(),
            JournalError::Locked { .. }
        ));
        drop(held);
        let header = fs::read_to_string(&path).unwrap();
        let line = |w: &Work| serde_json::to_string(w).unwrap();
        let other = Work {
            id: 1,
            value: "else".into(),
        };
        // The same entry twice is a harmless copy; two different ones under a key are not.
        fs::write(
            &path,
            format!("{header}{}\n{}\n", line(&work(1)), line(&work(1))),
        )
        .unwrap();
        assert_eq!(open(&path, &s).unwrap().duplicates(), 1);
        fs::write(
            &path,
            format!("{header}{}\n{}\n", line(&work(1)), line(&other)),
        )
        .unwrap();
        assert!(matches!(
            open(&path, &s).unwrap_err(),
            JournalError::Conflict { line: 3, .. }
        ));
        fs::write(&path, format!("{header}not json\n")).unwrap();
        assert!(matches!(
            open(&path, &s).unwrap_err(),
            JournalError::BadLine { line: 2, .. }
        ));
        // The caller's check refuses an entry with the line it came from.
        fs::write(&path, format!("{header}{}\n", line(&work(7)))).unwrap();
        let err = Journal::<Work>::open::<JournalError>(&path, Some(&s), |line, w| {
            Err(JournalError::Conflict {
                path: PathBuf::new(),
                line,
                detail: format!("{} is not scheduled", w.id),
            })
        })
        .unwrap_err();
        assert!(
            err.to_string().contains("line 2: 7 is not scheduled"),
            "{err}"
        );
    }
}

//! Helpers shared by the end-to-end tests: run the real `yomi` binary and check what it
//! printed and how it exited. Each test file uses only some of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The result of one run of the binary.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn ok(&self) -> &Self {
        assert_eq!(
            self.code,
            Some(0),
            "expected success\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        self
    }

    /// Asserts a failure with exit code `code` whose message contains every `needle`.
    pub fn fails(&self, code: i32, needles: &[&str]) {
        assert_eq!(
            self.code,
            Some(code),
            "expected exit code {code}\nstdout:\n{}\nstderr:\n{}",
            self.stdout,
            self.stderr
        );
        assert!(!self.stderr.contains("panicked"), "{}", self.stderr);
        for needle in needles {
            assert!(
                self.stderr.contains(needle),
                "stderr lacks {needle:?}:\n{}",
                self.stderr
            );
        }
    }

    /// Asserts that standard output contains every `needle`.
    pub fn says(&self, needles: &[&str]) -> &Self {
        for needle in needles {
            assert!(
                self.stdout.contains(needle),
                "stdout lacks {needle:?}:\n{}\nstderr:\n{}",
                self.stdout,
                self.stderr
            );
        }
        self
    }
}

fn finish(out: Output) -> Run {
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the binary with `args` and no input.
pub fn yomi(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the yomi binary runs");
    finish(out)
}

/// Runs the binary with `args`, writing `input` to its standard input.
pub fn yomi_with_input(args: &[&str], input: &str) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_yomi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the yomi binary runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input.as_bytes())
        .expect("input is written");
    finish(child.wait_with_output().expect("the binary ends"))
}

/// A fresh, empty folder for one test (`name` must be unique across test files).
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// A path as text (test paths are UTF-8).
pub fn path_str(p: &std::path::Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

//! The controller side of GTP: run any GTP program as a child process and send it commands,
//! with a time limit on every answer (a program that hangs or dies gives an error, never a
//! hang).
//!
//! ```no_run
//! use std::time::Duration;
//! use yomi_go::gtp_client::GtpClient;
//! let mut gnugo = GtpClient::spawn("/usr/games/gnugo --mode gtp --level 10").unwrap();
//! assert_eq!(gnugo.send("boardsize 9", Duration::from_secs(5)).unwrap(), "");
//! let mv = gnugo.send("genmove b", Duration::from_secs(60)).unwrap();
//! println!("GNU Go plays {mv}");
//! ```

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

use thiserror::Error;

/// Why a GTP exchange failed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GtpClientError {
    /// The command line is empty or has an unclosed quote.
    #[error("engine command line {0:?}: {1}")]
    CommandLine(String, String),
    /// The program could not be started.
    #[error("cannot start {0:?}: {1}")]
    Spawn(String, String),
    /// Writing to the program failed (it has exited).
    #[error("{0}: cannot send {1:?}: {2}")]
    Send(String, String, String),
    /// The program closed its output.
    #[error("{0}: the engine closed its output after {1:?}")]
    Closed(String, String),
    /// No complete answer within the time limit.
    #[error("{0}: no answer to {1:?} within {2:?}")]
    Timeout(String, String, Duration),
    /// The engine answered `? message`.
    #[error("{0}: {1:?} failed: {2}")]
    Failure(String, String, String),
    /// An answer that is neither `=` nor `?`.
    #[error("{0}: malformed answer to {1:?}: {2:?}")]
    Protocol(String, String, String),
}

/// Splits a command line into words: whitespace separates, single and double quotes group,
/// a backslash escapes the next character outside single quotes.
///
/// # Errors
/// [`GtpClientError::CommandLine`] for an empty line or an unclosed quote.
pub fn split_command_line(line: &str) -> Result<Vec<String>, GtpClientError> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars();
    while let Some(ch) = chars.next() {
        match (quote, ch) {
            (Some('\''), '\'') | (Some('"'), '"') => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                if let Some(c) = chars.next() {
                    cur.push(c);
                    in_word = true;
                }
            }
            (Some(_), c) => cur.push(c),
            (None, '\'' | '"') => {
                quote = Some(ch);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(GtpClientError::CommandLine(
            line.into(),
            "unclosed quote".into(),
        ));
    }
    if in_word {
        words.push(cur);
    }
    if words.is_empty() {
        return Err(GtpClientError::CommandLine(line.into(), "empty".into()));
    }
    Ok(words)
}

/// A running GTP program. Dropping it sends `quit` and then kills the process if it is still
/// running.
pub struct GtpClient {
    name: String,
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl GtpClient {
    /// Starts `command_line` (program and arguments, see [`split_command_line`]); its
    /// standard error is discarded.
    ///
    /// # Errors
    /// [`GtpClientError::CommandLine`] or [`GtpClientError::Spawn`].
    pub fn spawn(command_line: &str) -> Result<GtpClient, GtpClientError> {
        let words = split_command_line(command_line)?;
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| GtpClientError::Spawn(command_line.into(), e.to_string()))?;
        let stdout = child.stdout.take().ok_or_else(|| {
            GtpClientError::Spawn(command_line.into(), "no standard output".into())
        })?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(l) = line else { break };
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Ok(GtpClient {
            name: words[0].clone(),
            stdin: child.stdin.take(),
            child,
            lines: rx,
        })
    }

    /// Sends one command and returns the answer's text (after `=`, trimmed; lines of a
    /// multi-line answer joined by `\n`).
    ///
    /// # Errors
    /// [`GtpClientError::Failure`] for `? message`; send, closed, timeout and protocol
    /// errors.
    pub fn send(&mut self, command: &str, limit: Duration) -> Result<String, GtpClientError> {
        let err_send = |e: std::io::Error| {
            GtpClientError::Send(self.name.clone(), command.into(), e.to_string())
        };
        let stdin = self.stdin.as_mut().ok_or_else(|| {
            GtpClientError::Send(self.name.clone(), command.into(), "closed".into())
        })?;
        writeln!(stdin, "{command}").map_err(err_send)?;
        stdin.flush().map_err(err_send)?;
        let deadline = std::time::Instant::now() + limit;
        let mut answer: Vec<String> = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(GtpClientError::Timeout(
                        self.name.clone(),
                        command.into(),
                        limit,
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(GtpClientError::Closed(self.name.clone(), command.into()))
                }
            };
            let line = line.trim_end_matches('\r').to_string();
            if answer.is_empty() {
                if line.trim().is_empty() {
                    continue; // stray blank line before an answer
                }
                if !line.starts_with('=') && !line.starts_with('?') {
                    return Err(GtpClientError::Protocol(
                        self.name.clone(),
                        command.into(),
                        line,
                    ));
                }
                answer.push(line);
            } else if line.is_empty() {
                break;
            } else {
                answer.push(line);
            }
        }
        let first = &answer[0];
        // Drop the status character and an optional numeric id.
        let body = first[1..].trim_start_matches(|c: char| c.is_ascii_digit());
        let mut text = body.trim().to_string();
        for l in &answer[1..] {
            text.push('\n');
            text.push_str(l);
        }
        if first.starts_with('?') {
            Err(GtpClientError::Failure(
                self.name.clone(),
                command.into(),
                text,
            ))
        } else {
            Ok(text)
        }
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        if let Some(mut stdin) = self.stdin.take() {
            let _ = writeln!(stdin, "quit");
            let _ = stdin.flush();
        }
        for _ in 0..20 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_lines_split_like_a_shell() {
        assert_eq!(
            split_command_line("gnugo --mode gtp  --level 10").unwrap(),
            ["gnugo", "--mode", "gtp", "--level", "10"]
        );
        assert_eq!(
            split_command_line(r#"yomi go gtp --agent 'mcts:iters=100' "a b" c\ d"#).unwrap(),
            [
                "yomi",
                "go",
                "gtp",
                "--agent",
                "mcts:iters=100",
                "a b",
                "c d"
            ]
        );
        assert!(split_command_line("  ").is_err());
        assert!(split_command_line("a 'b").is_err());
    }

    #[test]
    fn a_missing_program_is_an_error() {
        assert!(matches!(
            GtpClient::spawn("/nonexistent/yomi-test-engine"),
            Err(GtpClientError::Spawn(..))
        ));
    }
}

//! The GTP (Go Text Protocol, version 2) loop every engine shares: lines read with a cap,
//! GTP's preprocessing, ids, the response format, the administrative commands, and input
//! read on a thread of its own so that a streaming command (GUI analysis such as
//! `lz-analyze`) sees the next command as soon as it arrives. An engine implements
//! [`GtpHandler`] (its own commands, optionally streaming ones); Go's and Othello's GTP
//! engines both run on [`run`].
//!
//! # The loop
//! Each line is read as bytes (non-UTF-8 replaced) up to [`MAX_LINE`]; a longer line is
//! read to its end, dropped and answered `? line longer than ...`, so a controller that
//! never sends a newline cannot grow the engine's memory. Control characters other than
//! tab and newline are dropped, tabs become spaces, `#` starts a comment, and empty lines
//! are ignored. A leading number is the id, echoed in the answer (`=id result` or
//! `?id message`, then an empty line). `protocol_version`, `name`, `version`,
//! `known_command`, `list_commands` and `quit` are answered here; everything else goes to
//! the handler. Input ends the loop only at `quit` or its end.
//!
//! # Threads
//! [`run`] starts one reading thread, which holds at most [`INPUT_QUEUE`] lines ahead (a
//! controller that floods the engine waits instead of growing its memory) and is left
//! blocked on the input after `quit`; the handler runs on the caller's thread.

use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use crate::limits::{read_input_line, InputLine};

/// Longest command line read, in bytes.
pub const MAX_LINE: usize = 64 * 1024;

/// Lines the reading thread holds ahead of the engine.
pub const INPUT_QUEUE: usize = 16;

/// The commands the loop answers itself, in `list_commands` order.
pub const ADMIN_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
];

/// One command after GTP's preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GtpCommand {
    /// The id (empty when the line had none).
    pub id: String,
    /// The command's name (empty for a line holding only an id).
    pub name: String,
    /// The arguments.
    pub args: Vec<String>,
}

impl GtpCommand {
    /// The command on `raw`, or `None` for an empty or comment line.
    pub fn parse(raw: &str) -> Option<GtpCommand> {
        let mut line: String = raw
            .chars()
            .filter(|&c| c == '\t' || c == '\n' || !c.is_control())
            .map(|c| if c == '\t' { ' ' } else { c })
            .collect();
        if let Some(i) = line.find('#') {
            line.truncate(i);
        }
        let mut words = line.split_whitespace();
        let first = words.next()?;
        let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
            (
                first.to_string(),
                words.next().unwrap_or_default().to_string(),
            )
        } else {
            (String::new(), first.to_string())
        };
        Some(GtpCommand {
            id,
            name,
            args: words.map(str::to_string).collect(),
        })
    }

    /// The arguments as string slices.
    pub fn arg_strs(&self) -> Vec<&str> {
        self.args.iter().map(String::as_str).collect()
    }
}

/// The full answer to a command with id `id`: `=id result` (`=id` alone for an empty
/// result) or `?id message`, ended by an empty line.
pub fn response(id: &str, result: &Result<String, String>) -> String {
    match result {
        Ok(s) if s.is_empty() => format!("={id}\n\n"),
        Ok(s) => format!("={id} {s}\n\n"),
        Err(e) => format!("?{id} {e}\n\n"),
    }
}

/// An engine's side of GTP.
pub trait GtpHandler {
    /// What `name` answers.
    fn name(&self) -> String {
        "yomi".into()
    }

    /// What `version` answers.
    fn version(&self) -> String;

    /// The engine's own commands (those of [`ADMIN_COMMANDS`] are added by the loop).
    fn commands(&self) -> Vec<&'static str>;

    /// Answers the command `name` with `args` (`Ok(result)` or `Err(message)`). Unknown
    /// commands are the handler's to refuse.
    fn execute(&mut self, name: &str, args: &[&str]) -> Result<String, String>;

    /// Told that `quit` arrived, before it is answered. The default does nothing.
    fn quit(&mut self) {}

    /// Streams the answer to `cmd` when it is a streaming command this handler accepts in
    /// the current state, and returns `true`; returns `false` (writing nothing) otherwise,
    /// and the loop answers `cmd` through [`GtpHandler::execute`]. A stream writes `=id`
    /// and its lines to `out`, stops once [`GtpInput::arrived`] says the next line (or the
    /// end of input) has come, and ends its answer with an empty line.
    ///
    /// # Errors
    /// I/O errors of `out` or of the input.
    fn stream(
        &mut self,
        cmd: &GtpCommand,
        input: &mut GtpInput,
        out: &mut dyn Write,
    ) -> io::Result<bool> {
        let _ = (cmd, input, out);
        Ok(false)
    }
}

/// The answer to `cmd` (administrative commands answered here, the rest by `handler`), and
/// whether it was `quit`. `None` is never returned for a parsed command; streams are not
/// run (see [`run`]).
pub fn answer<H: GtpHandler + ?Sized>(handler: &mut H, cmd: &GtpCommand) -> (String, bool) {
    let args = cmd.arg_strs();
    let known = |h: &H, name: &str| ADMIN_COMMANDS.contains(&name) || h.commands().contains(&name);
    let result = match cmd.name.as_str() {
        "" => Err("missing command".to_string()),
        "protocol_version" => Ok("2".to_string()),
        "name" => Ok(handler.name()),
        "version" => Ok(handler.version()),
        "known_command" => match args.first() {
            Some(name) => Ok(known(handler, name).to_string()),
            None => Err("known_command needs a command name".to_string()),
        },
        "list_commands" => {
            let mut all: Vec<&str> = ADMIN_COMMANDS.to_vec();
            all.extend(handler.commands());
            Ok(all.join("\n"))
        }
        "quit" => {
            handler.quit();
            return (response(&cmd.id, &Ok(String::new())), true);
        }
        name => handler.execute(name, &args),
    };
    (response(&cmd.id, &result), false)
}

/// The lines still to come, read by a thread of its own (see the module docs).
pub struct GtpInput {
    rx: Receiver<io::Result<InputLine>>,
    /// A line that arrived while a stream polled, kept for the loop.
    pending: Option<InputLine>,
    ended: bool,
}

impl GtpInput {
    /// Starts reading `input` on a thread of its own.
    ///
    /// # Errors
    /// When the thread cannot be started.
    pub fn spawn<R: BufRead + Send + 'static>(mut input: R) -> io::Result<GtpInput> {
        let (tx, rx) = mpsc::sync_channel(INPUT_QUEUE);
        std::thread::Builder::new()
            .name("gtp-input".into())
            .spawn(move || loop {
                match read_input_line(&mut input, MAX_LINE) {
                    Ok(Some(line)) => {
                        if tx.send(Ok(line)).is_err() {
                            break;
                        }
                    }
                    Ok(None) => break,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        break;
                    }
                }
            })?;
        Ok(GtpInput {
            rx,
            pending: None,
            ended: false,
        })
    }

    /// True once the next line or the end of input has arrived, waiting at most `wait`
    /// for it (`Duration::ZERO`: not at all). The line stays for the loop.
    ///
    /// # Errors
    /// A read error of the input.
    pub fn arrived(&mut self, wait: Duration) -> io::Result<bool> {
        if self.pending.is_some() || self.ended {
            return Ok(true);
        }
        let got = if wait.is_zero() {
            self.rx.try_recv().map_err(|e| match e {
                mpsc::TryRecvError::Empty => RecvTimeoutError::Timeout,
                mpsc::TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
            })
        } else {
            self.rx.recv_timeout(wait)
        };
        match got {
            Ok(line) => {
                self.pending = Some(line?);
                Ok(true)
            }
            Err(RecvTimeoutError::Timeout) => Ok(false),
            Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                Ok(true)
            }
        }
    }

    /// The next line, waiting for it; `None` at the end of input.
    ///
    /// # Errors
    /// A read error of the input.
    pub fn next_line(&mut self) -> io::Result<Option<InputLine>> {
        if let Some(line) = self.pending.take() {
            return Ok(Some(line));
        }
        if self.ended {
            return Ok(None);
        }
        match self.rx.recv() {
            Ok(line) => line.map(Some),
            Err(_) => {
                self.ended = true;
                Ok(None)
            }
        }
    }
}

/// Answers commands from `input` with `handler` until `quit` or the end of input.
///
/// # Errors
/// I/O errors of `input` or `output`, and failing to start the reading thread.
pub fn run<H, R, W>(handler: &mut H, input: R, mut output: W) -> io::Result<()>
where
    H: GtpHandler + ?Sized,
    R: BufRead + Send + 'static,
    W: Write,
{
    let mut input = GtpInput::spawn(input)?;
    while let Some(line) = input.next_line()? {
        let text = match line {
            InputLine::Text(text) => text,
            // The line's id is lost with it, so the error goes without one.
            InputLine::TooLong => {
                write!(output, "? line longer than {MAX_LINE} bytes ignored\n\n")?;
                output.flush()?;
                continue;
            }
        };
        let Some(cmd) = GtpCommand::parse(&text) else {
            continue;
        };
        if handler.stream(&cmd, &mut input, &mut output)? {
            output.flush()?;
            continue;
        }
        let (reply, quit) = answer(handler, &cmd);
        output.write_all(reply.as_bytes())?;
        output.flush()?;
        if quit {
            break;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Echo {
        quit: bool,
    }

    impl GtpHandler for Echo {
        fn version(&self) -> String {
            "1".into()
        }
        fn commands(&self) -> Vec<&'static str> {
            vec!["echo"]
        }
        fn execute(&mut self, name: &str, args: &[&str]) -> Result<String, String> {
            match name {
                "echo" => Ok(args.join(" ")),
                _ => Err("unknown command".into()),
            }
        }
        fn quit(&mut self) {
            self.quit = true;
        }
    }

    fn session(script: &[u8]) -> (String, bool) {
        let mut e = Echo { quit: false };
        let mut out = Vec::new();
        run(&mut e, io::Cursor::new(script.to_vec()), &mut out).unwrap();
        (String::from_utf8(out).unwrap(), e.quit)
    }

    #[test]
    fn ids_comments_admin_commands_and_quit() {
        let (out, quit) = session(
            b"1 echo a\tb # comment\n\n# only a comment\nknown_command echo\n\
              known_command fly\n2 list_commands\n7\nfly\n3 quit\necho after\n",
        );
        assert_eq!(
            out,
            "=1 a b\n\n= true\n\n= false\n\n=2 protocol_version\nname\nversion\n\
             known_command\nlist_commands\nquit\necho\n\n?7 missing command\n\n\
             ? unknown command\n\n=3\n\n"
        );
        assert!(quit);
    }

    #[test]
    fn an_over_long_line_and_bad_bytes_are_answered_and_the_loop_goes_on() {
        let mut script = vec![b'x'; MAX_LINE + 1];
        script.extend_from_slice(b"\necho \xff\x01z\n");
        let (out, quit) = session(&script);
        assert_eq!(
            out,
            format!("? line longer than {MAX_LINE} bytes ignored\n\n= \u{fffd}z\n\n")
        );
        assert!(!quit, "the end of input is no quit");
    }
}

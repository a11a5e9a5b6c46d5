//! The one error kind the binary adds to `anyhow`: a usage error (exit code 2).

use std::fmt;

/// Something wrong with what was typed on the command line (an unknown game, an agent
/// spec that does not build, a position that does not parse). `main` exits with code 2
/// for it, as clap does for its own usage errors; every other error exits with 1.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// A usage error with `message`, as an [`anyhow::Error`].
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    UsageError(message.into()).into()
}

/// True when `e` comes from writing to a closed pipe (`yomi games | head -1`).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// The duration option `option` (`--main-time`) given as `value` seconds, or a usage error
/// naming the option and the accepted range (finite, at most
/// [`yomi_core::limits::MAX_SECONDS`]; above zero unless `zero` allows it). Every command
/// reads its duration options through this one check.
pub fn seconds_option(
    option: &str,
    value: f64,
    zero: yomi_core::limits::Zero,
) -> anyhow::Result<std::time::Duration> {
    yomi_core::limits::seconds(option, value, zero).map_err(|e| usage(e.to_string()))
}

/// The thread-count option `option` when it is at most
/// [`yomi_core::limits::MAX_THREADS`] (`None` passes), or a usage error naming it.
pub fn threads_option(option: &str, value: Option<usize>) -> anyhow::Result<Option<usize>> {
    value
        .map(|n| yomi_core::limits::threads(option, n as u64).map_err(|e| usage(e.to_string())))
        .transpose()
}

/// [`threads_option`], with every core of the machine when the option is not given.
pub fn threads_or_every_core(option: &str, value: Option<usize>) -> anyhow::Result<usize> {
    Ok(threads_option(option, value)?.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    }))
}

/// `e` and its causes joined by ": ", as anyhow's `{:#}` writes them, but without a cause
/// whose text the message before it already ends with: error types that write their
/// source into their own message (`"{path}: {source}"` with `#[source]`) would otherwise
/// have it printed twice.
pub fn chain_text(e: &anyhow::Error) -> String {
    let mut out = String::new();
    for cause in e.chain() {
        let text = cause.to_string();
        if !out.is_empty() && out.ends_with(&text) {
            continue;
        }
        if !out.is_empty() {
            out.push_str(": ");
        }
        out.push_str(&text);
    }
    out
}

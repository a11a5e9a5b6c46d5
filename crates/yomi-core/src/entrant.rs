//! Entrants: the agents taking part in a match or round robin, each with the label that
//! names it in records and standings and the parsed spec that builds it.
//!
//! An entrant is written `spec` or `label=spec` (`mcts:iters=1000`,
//! `strong=mcts:iters=100000`). A `=` before the first `:` marks a label: agent names never
//! hold `=`, so the two forms cannot be confused. [`Entrant::list`] labels a whole list:
//! - an explicit label is kept as given; two equal explicit labels are refused;
//! - without one, the label is the spec in canonical form ([`AgentSpec`]'s `Display`:
//!   trimmed, no spaces), which is how records named agents before labels existed, so
//!   older records files still resume and report;
//! - when that label is already taken (the same spec listed again), the entrant gets the
//!   first free one of `label#2`, `label#3`, …
//!
//! So `mcts mcts` is a self-play match between `mcts` and `mcts#2`, with no alias to
//! register.
//!
//! ```
//! use yomi_core::entrant::Entrant;
//! let list = Entrant::list(&["mcts", "mcts", "deep=mcts:iters=50"]).unwrap();
//! let labels: Vec<&str> = list.iter().map(|e| e.label.as_str()).collect();
//! assert_eq!(labels, ["mcts", "mcts#2", "deep"]);
//! assert_eq!(list[1].spec.to_string(), "mcts");
//! assert_eq!(list[2].to_string(), "deep=mcts:iters=50");
//! ```

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

use crate::spec::{AgentSpec, SpecError};

/// The longest label accepted, in bytes.
pub const MAX_LABEL_LEN: usize = 100;

/// Why a list of entrants could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum EntrantError {
    /// The spec part does not parse.
    #[error("agent {text:?}: {source}")]
    Spec {
        /// The entrant as given.
        text: String,
        /// What is wrong with its spec.
        #[source]
        source: SpecError,
    },
    /// The label part is empty, too long or holds characters a label may not.
    #[error(
        "agent {text:?}: bad label {label:?}: {reason} (form: spec or label=spec; labels use \
         letters, digits, '_', '-', '+', '.', '#', at most {MAX_LABEL_LEN} bytes)"
    )]
    BadLabel {
        /// The entrant as given.
        text: String,
        /// The label given.
        label: String,
        /// What is wrong.
        reason: String,
    },
    /// Two entrants were given the same explicit label.
    #[error("the label {label:?} is given to two agents ({first:?} and {second:?}); records and standings are kept per label, so give each its own")]
    DuplicateLabel {
        /// The label.
        label: String,
        /// The first entrant with it, as given.
        first: String,
        /// The second, as given.
        second: String,
    },
    /// No entrants at all.
    #[error("no agents given")]
    Empty,
}

/// One agent of a match or round robin: its label and its spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entrant {
    /// The name in records and standings (unique within a list).
    pub label: String,
    /// What builds the agent.
    pub spec: AgentSpec,
}

/// An entrant as written, before the list gives it its label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EntrantText {
    /// The explicit label, if one was written.
    pub label: Option<String>,
    /// The spec.
    pub spec: AgentSpec,
}

impl FromStr for EntrantText {
    type Err = EntrantError;

    fn from_str(text: &str) -> Result<Self, EntrantError> {
        let trimmed = text.trim();
        let label_end = trimmed
            .find('=')
            .filter(|&eq| trimmed.find(':').is_none_or(|colon| eq < colon));
        let (label, spec_text) = match label_end {
            Some(eq) => (Some(trimmed[..eq].trim()), &trimmed[eq + 1..]),
            None => (None, trimmed),
        };
        if let Some(label) = label {
            check_label(text, label)?;
        }
        let spec = spec_text.parse().map_err(|source| EntrantError::Spec {
            text: text.to_string(),
            source,
        })?;
        Ok(EntrantText {
            label: label.map(str::to_string),
            spec,
        })
    }
}

fn check_label(text: &str, label: &str) -> Result<(), EntrantError> {
    let bad = |reason: &str| EntrantError::BadLabel {
        text: text.to_string(),
        label: label.to_string(),
        reason: reason.to_string(),
    };
    if label.is_empty() {
        return Err(bad("it is empty"));
    }
    if label.len() > MAX_LABEL_LEN {
        return Err(bad("it is too long"));
    }
    if !label
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "_-+.#".contains(c))
    {
        return Err(bad("it holds a character labels do not use"));
    }
    Ok(())
}

impl Entrant {
    /// Parses and labels a list of entrants by the rules of the [module
    /// documentation](self).
    ///
    /// # Errors
    /// [`EntrantError::Empty`] for an empty list; [`EntrantError::Spec`] or
    /// [`EntrantError::BadLabel`] for an entrant that does not parse (the first one);
    /// [`EntrantError::DuplicateLabel`] when two explicit labels are equal.
    pub fn list<S: AsRef<str>>(texts: &[S]) -> Result<Vec<Entrant>, EntrantError> {
        if texts.is_empty() {
            return Err(EntrantError::Empty);
        }
        let parsed: Vec<EntrantText> = texts
            .iter()
            .map(|t| t.as_ref().parse())
            .collect::<Result<_, _>>()?;
        // Explicit labels first, so that an automatic label never takes one of them.
        let mut taken: Vec<(String, usize)> = Vec::new();
        for (i, p) in parsed.iter().enumerate() {
            if let Some(label) = &p.label {
                if let Some((_, first)) = taken.iter().find(|(l, _)| l == label) {
                    return Err(EntrantError::DuplicateLabel {
                        label: label.clone(),
                        first: texts[*first].as_ref().trim().to_string(),
                        second: texts[i].as_ref().trim().to_string(),
                    });
                }
                taken.push((label.clone(), i));
            }
        }
        let mut out = Vec::with_capacity(parsed.len());
        for (i, p) in parsed.into_iter().enumerate() {
            let label = match p.label {
                Some(label) => label,
                None => {
                    let base = p.spec.to_string();
                    let free = |l: &str| !taken.iter().any(|(t, _)| t == l);
                    let label = if free(&base) {
                        base
                    } else {
                        (2..)
                            .map(|n| format!("{base}#{n}"))
                            .find(|l| free(l))
                            .unwrap_or_default()
                    };
                    taken.push((label.clone(), i));
                    label
                }
            };
            out.push(Entrant {
                label,
                spec: p.spec,
            });
        }
        Ok(out)
    }

    /// The spec in canonical form (what the registry builds).
    pub fn spec_text(&self) -> String {
        self.spec.to_string()
    }

    /// Whether the label is the canonical spec (no explicit or numbered label).
    pub fn label_is_spec(&self) -> bool {
        self.label == self.spec.to_string()
    }
}

/// `spec` when the label is the spec, else `label=spec`; [`Entrant::list`] reads it back to
/// the same entrant when it is listed alone.
impl fmt::Display for Entrant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.label_is_spec() {
            write!(f, "{}", self.spec)
        } else {
            write!(f, "{}={}", self.label, self.spec)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(texts: &[&str]) -> Vec<String> {
        Entrant::list(texts)
            .unwrap()
            .into_iter()
            .map(|e| e.label)
            .collect()
    }

    #[test]
    fn repeated_specs_get_numbered_labels() {
        assert_eq!(labels(&["mcts", "mcts"]), ["mcts", "mcts#2"]);
        assert_eq!(
            labels(&["random", " mcts:iters = 5", "mcts:iters=5", "mcts:iters=5"]),
            ["random", "mcts:iters=5", "mcts:iters=5#2", "mcts:iters=5#3"]
        );
    }

    #[test]
    fn explicit_labels_are_kept_and_never_taken_by_numbering() {
        assert_eq!(
            labels(&["mcts", "mcts#2=random", "mcts"]),
            ["mcts", "mcts#2", "mcts#3"]
        );
        assert_eq!(labels(&["a=mcts:c=0.5", "b = mcts:c=0.5"]), ["a", "b"]);
        let list = Entrant::list(&["a=mcts:c=0.5"]).unwrap();
        assert_eq!(list[0].spec.to_string(), "mcts:c=0.5");
    }

    #[test]
    fn bad_entrants_are_refused_with_the_reason() {
        assert_eq!(Entrant::list::<&str>(&[]).unwrap_err(), EntrantError::Empty);
        assert!(matches!(
            Entrant::list(&["a=mcts", "a=random"]).unwrap_err(),
            EntrantError::DuplicateLabel { label, .. } if label == "a"
        ));
        assert!(matches!(
            Entrant::list(&["=mcts"]).unwrap_err(),
            EntrantError::BadLabel { .. }
        ));
        assert!(matches!(
            Entrant::list(&["a b=mcts"]).unwrap_err(),
            EntrantError::BadLabel { .. }
        ));
        assert!(matches!(
            Entrant::list(&["x=mcts:iters"]).unwrap_err(),
            EntrantError::Spec { .. }
        ));
        let long = format!("{}=mcts", "l".repeat(MAX_LABEL_LEN + 1));
        assert!(Entrant::list(&[long]).is_err());
    }

    #[test]
    fn display_reads_back() {
        for text in ["mcts:iters=5", "deep=mcts:iters=5"] {
            let e = &Entrant::list(&[text]).unwrap()[0];
            assert_eq!(e.to_string(), text);
            assert_eq!(&Entrant::list(&[e.to_string()]).unwrap()[0], e);
        }
    }
}

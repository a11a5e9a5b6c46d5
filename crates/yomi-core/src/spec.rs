//! Agent spec strings: `name` or `name:key=value,key=value`, as in `mcts:iters=10000,c=0.7`.
//!
//! [`AgentSpec`] parses the text; [`SpecParams`] hands out typed parameters and remembers
//! which keys were read, so that [`SpecParams::finish`] can reject typos with the list of
//! accepted keys.
//!
//! Parameters that every agent reads the same way have explicit ranges ([`PARAM_RANGES`]),
//! checked by [`SpecParams::get`] and [`SpecParams::get_opt`] before the value is used:
//! `threads` at most [`MAX_THREADS`], `time` (seconds) finite and at most
//! [`MAX_SECONDS`]. A value outside its range is a [`SpecError::BadValue`] that names the
//! range, never a panic or an allocation failure further on.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// Why an agent spec could not be turned into an agent.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SpecError {
    /// The text is not of the form `name` or `name:key=value,...`.
    #[error("malformed agent spec {input:?}: {reason} (form: name or name:key=value,key=value)")]
    Malformed {
        /// The offending text.
        input: String,
        /// What is wrong.
        reason: String,
    },
    /// No agent of that name is registered for this game.
    #[error("unknown agent {name:?}; accepted: {accepted}")]
    UnknownAgent {
        /// The name given.
        name: String,
        /// The registered names, comma-separated.
        accepted: String,
    },
    /// A key the agent does not take.
    #[error("agent {agent:?} has no parameter {key:?}; accepted: {accepted}")]
    UnknownParam {
        /// The agent.
        agent: String,
        /// The unknown key.
        key: String,
        /// The keys it takes, comma-separated.
        accepted: String,
    },
    /// A value that does not parse or is out of range.
    #[error("agent {agent:?}: bad value {value:?} for {key:?}: expected {expected}")]
    BadValue {
        /// The agent.
        agent: String,
        /// The key.
        key: String,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
}

/// The most threads an agent may ask for (`threads=`).
pub const MAX_THREADS: u64 = 1024;

/// The most seconds a time parameter (`time=`) may give (about 11.6 days).
pub const MAX_SECONDS: f64 = 1e6;

/// A numeric range a parameter must lie in whatever agent reads it.
#[derive(Clone, Copy, Debug)]
pub struct ParamRange {
    /// The key.
    pub key: &'static str,
    /// Smallest value accepted.
    pub min: f64,
    /// Largest value accepted.
    pub max: f64,
    /// What is accepted, for the error message.
    pub expected: &'static str,
}

/// The explicit ranges of the parameters shared by agents (checked before parsing).
pub const PARAM_RANGES: &[ParamRange] = &[
    ParamRange {
        key: "threads",
        min: 0.0,
        max: MAX_THREADS as f64,
        expected: "a positive integer of at most 1024",
    },
    ParamRange {
        key: "time",
        min: 0.0,
        max: MAX_SECONDS,
        expected: "a positive number of seconds of at most 1000000",
    },
];

/// A parsed spec string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentSpec {
    /// The agent's name (`mcts`).
    pub name: String,
    /// Parameters in the order given.
    pub params: Vec<(String, String)>,
}

impl FromStr for AgentSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<Self, SpecError> {
        let malformed = |reason: &str| SpecError::Malformed {
            input: text.to_string(),
            reason: reason.to_string(),
        };
        let text_trim = text.trim();
        let (name, rest) = match text_trim.split_once(':') {
            Some((n, r)) => (n.trim(), Some(r)),
            None => (text_trim, None),
        };
        if name.is_empty() {
            return Err(malformed("empty agent name"));
        }
        if !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '+' || c == '.')
        {
            return Err(malformed(
                "agent names use letters, digits, '_', '-', '+', '.'",
            ));
        }
        let mut params: Vec<(String, String)> = Vec::new();
        if let Some(rest) = rest {
            for part in rest.split(',') {
                let part = part.trim();
                if part.is_empty() {
                    return Err(malformed("empty parameter"));
                }
                let (k, v) = part
                    .split_once('=')
                    .ok_or_else(|| malformed(&format!("parameter {part:?} has no '='")))?;
                let (k, v) = (k.trim(), v.trim());
                if k.is_empty() || v.is_empty() {
                    return Err(malformed(&format!("parameter {part:?} needs key=value")));
                }
                if params.iter().any(|(pk, _)| pk == k) {
                    return Err(malformed(&format!("parameter {k:?} given twice")));
                }
                params.push((k.to_string(), v.to_string()));
            }
        }
        Ok(AgentSpec {
            name: name.to_string(),
            params,
        })
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.params.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// Documentation of one parameter, shown by `yomi agents` and in error messages.
#[derive(Clone, Debug)]
pub struct ParamDoc {
    /// The key.
    pub key: &'static str,
    /// The default, as text.
    pub default: &'static str,
    /// What it does.
    pub help: &'static str,
}

/// Typed access to a spec's parameters. Every key must be read before [`SpecParams::finish`].
pub struct SpecParams<'a> {
    spec: &'a AgentSpec,
    docs: &'a [ParamDoc],
    used: Vec<bool>,
}

impl<'a> SpecParams<'a> {
    /// Starts reading `spec`, whose accepted keys are described by `docs`.
    pub fn new(spec: &'a AgentSpec, docs: &'a [ParamDoc]) -> Self {
        SpecParams {
            spec,
            docs,
            used: vec![false; spec.params.len()],
        }
    }

    /// The whole spec being read.
    pub fn spec(&self) -> &AgentSpec {
        self.spec
    }

    /// The agent's name.
    pub fn agent(&self) -> &str {
        &self.spec.name
    }

    /// The raw text of `key`, if given.
    pub fn raw(&mut self, key: &str) -> Option<&'a str> {
        let spec: &'a AgentSpec = self.spec;
        let i = spec.params.iter().position(|(k, _)| k == key)?;
        self.used[i] = true;
        Some(spec.params[i].1.as_str())
    }

    /// `key` parsed as `T`, or `default` when absent.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when the text does not parse.
    pub fn get<T: FromStr>(
        &mut self,
        key: &str,
        default: T,
        expected: &str,
    ) -> Result<T, SpecError> {
        match self.raw(key) {
            None => Ok(default),
            Some(v) => {
                self.check_range(key, v)?;
                v.parse().map_err(|_| self.bad(key, v, expected))
            }
        }
    }

    /// Like [`SpecParams::get`] for an optional parameter without default.
    ///
    /// # Errors
    /// [`SpecError::BadValue`] when the text does not parse.
    pub fn get_opt<T: FromStr>(
        &mut self,
        key: &str,
        expected: &str,
    ) -> Result<Option<T>, SpecError> {
        match self.raw(key) {
            None => Ok(None),
            Some(v) => {
                self.check_range(key, v)?;
                v.parse().map(Some).map_err(|_| self.bad(key, v, expected))
            }
        }
    }

    /// Checks `value` against the range of `key` in [`PARAM_RANGES`], if it has one.
    fn check_range(&self, key: &str, value: &str) -> Result<(), SpecError> {
        let Some(range) = PARAM_RANGES.iter().find(|r| r.key == key) else {
            return Ok(());
        };
        match value.trim().parse::<f64>() {
            Ok(x) if x.is_finite() && (range.min..=range.max).contains(&x) => Ok(()),
            // Not a number at all: the caller's parse reports it with its own words.
            Err(_) => Ok(()),
            Ok(_) => Err(self.bad(key, value, range.expected)),
        }
    }

    /// A [`SpecError::BadValue`] for `key`.
    pub fn bad(&self, key: &str, value: &str, expected: &str) -> SpecError {
        SpecError::BadValue {
            agent: self.spec.name.clone(),
            key: key.to_string(),
            value: value.to_string(),
            expected: expected.to_string(),
        }
    }

    /// Checks that every given key was read.
    ///
    /// # Errors
    /// [`SpecError::UnknownParam`] for the first key nobody read.
    pub fn finish(self) -> Result<(), SpecError> {
        for (i, used) in self.used.iter().enumerate() {
            if !used {
                return Err(SpecError::UnknownParam {
                    agent: self.spec.name.clone(),
                    key: self.spec.params[i].0.clone(),
                    accepted: if self.docs.is_empty() {
                        "(none)".to_string()
                    } else {
                        self.docs
                            .iter()
                            .map(|d| d.key)
                            .collect::<Vec<_>>()
                            .join(", ")
                    },
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_name_and_params() {
        let s: AgentSpec = "mcts:iters=10000,c=0.7".parse().unwrap();
        assert_eq!(s.name, "mcts");
        assert_eq!(
            s.params,
            vec![("iters".into(), "10000".into()), ("c".into(), "0.7".into())]
        );
        assert_eq!(s.to_string(), "mcts:iters=10000,c=0.7");
        let r: AgentSpec = "random".parse().unwrap();
        assert!(r.params.is_empty());
    }

    #[test]
    fn rejects_malformed() {
        for bad in [
            "",
            ":x=1",
            "mcts:iters",
            "mcts:=3",
            "mcts:a=1,,b=2",
            "mcts:a=1,a=2",
            "m cts",
        ] {
            assert!(
                matches!(bad.parse::<AgentSpec>(), Err(SpecError::Malformed { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn threads_and_time_have_explicit_ranges() {
        let docs = [
            ParamDoc {
                key: "threads",
                default: "1",
                help: "threads",
            },
            ParamDoc {
                key: "time",
                default: "",
                help: "seconds",
            },
        ];
        for bad in ["threads=65536", "threads=4294967296", "threads=1e30"] {
            let s: AgentSpec = format!("mcts:{bad}").parse().unwrap();
            let mut p = SpecParams::new(&s, &docs);
            let e = p
                .get::<usize>("threads", 1, "a positive integer")
                .unwrap_err();
            assert!(e.to_string().contains("at most 1024"), "{bad}: {e}");
        }
        for bad in [
            "time=1e300",
            "time=inf",
            "time=NaN",
            "time=-1",
            "time=1000001",
        ] {
            let s: AgentSpec = format!("mcts:{bad}").parse().unwrap();
            let mut p = SpecParams::new(&s, &docs);
            let e = p.get_opt::<f64>("time", "seconds").unwrap_err();
            assert!(e.to_string().contains("at most 1000000"), "{bad}: {e}");
        }
        let s: AgentSpec = "mcts:threads=1024,time=0.5".parse().unwrap();
        let mut p = SpecParams::new(&s, &docs);
        assert_eq!(p.get::<usize>("threads", 1, "int").unwrap(), 1024);
        assert_eq!(p.get_opt::<f64>("time", "s").unwrap(), Some(0.5));
    }

    #[test]
    fn typed_params_and_unknown_keys() {
        let docs = [ParamDoc {
            key: "n",
            default: "10",
            help: "count",
        }];
        let s: AgentSpec = "flatmc:n=abc".parse().unwrap();
        let mut p = SpecParams::new(&s, &docs);
        let e = p.get::<u32>("n", 10, "a positive integer").unwrap_err();
        assert!(e.to_string().contains("a positive integer"), "{e}");
        let s: AgentSpec = "flatmc:m=3".parse().unwrap();
        let mut p = SpecParams::new(&s, &docs);
        assert_eq!(p.get::<u32>("n", 10, "int").unwrap(), 10);
        let e = p.finish().unwrap_err();
        assert!(e.to_string().contains("accepted: n"), "{e}");
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn parsing_never_panics(text in "\\PC{0,40}") {
            let _ = text.parse::<AgentSpec>();
        }

        #[test]
        fn printed_specs_parse_back(
            name in "[a-z][a-z0-9_+.-]{0,8}",
            params in proptest::collection::btree_map("[a-z][a-z0-9_]{0,5}", "[a-zA-Z0-9.]{1,6}", 0..4),
        ) {
            let spec = AgentSpec { name, params: params.into_iter().collect() };
            let back: AgentSpec = spec.to_string().parse().unwrap();
            prop_assert_eq!(back, spec);
        }
    }
}

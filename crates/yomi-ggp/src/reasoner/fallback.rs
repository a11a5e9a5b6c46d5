//! Running states on the lazy fallback ([`crate::lazy`]), for games too large to ground:
//! the reasoner's play-time methods call these when [`Reasoner::lazy`] is set.
//!
//! **State layout** (`GdlState::bits`): the true base propositions as bits
//! (`base_words` words, trimmed of trailing zero words so that equal states have equal
//! arrays); per role two words of goal values (bit `v` for value `v`, 0..=100); one word
//! of flags (bit 0: `terminal` holds); then per role the number of legal actions and
//! their ids, one word each.
//!
//! Like `run`, every method takes `&self` and writes only the state it is given; the
//! fallback's term tables are behind a `Mutex`.

use super::{GdlState, Reasoner, TURN_SIMULTANEOUS, TURN_TERMINAL};
use crate::ast::{kw, Term};
use crate::lazy::Lazy;

/// Offsets in a lazy state's array.
struct Layout {
    goals: usize,
    flags: usize,
    legal: usize,
}

fn layout(s: &GdlState, roles: usize) -> Layout {
    let goals = s.base_words as usize;
    let flags = goals + 2 * roles;
    Layout {
        goals,
        flags,
        legal: flags + 1,
    }
}

impl Reasoner {
    /// The lazy engine, when this reasoner runs in lazy mode.
    #[inline]
    pub(crate) fn lazy(&self) -> Option<&Lazy> {
        self.lazy.as_deref()
    }

    /// The legal action ids of `role` in a lazy state.
    pub(crate) fn lazy_legal<'a>(&self, s: &'a GdlState, role: usize) -> &'a [u64] {
        let mut i = layout(s, self.roles().len()).legal;
        for _ in 0..role {
            i += 1 + s.bits.get(i).copied().unwrap_or(0) as usize;
        }
        let n = s.bits.get(i).copied().unwrap_or(0) as usize;
        s.bits.get(i + 1..i + 1 + n).unwrap_or(&[])
    }

    /// Whether `terminal` holds in a lazy state.
    pub(crate) fn lazy_terminal(&self, s: &GdlState) -> bool {
        let l = layout(s, self.roles().len());
        s.bits.get(l.flags).is_some_and(|&w| w & 1 == 1)
    }

    /// The goal values of `role` in a lazy state, ascending.
    pub(crate) fn lazy_goals(&self, s: &GdlState, role: usize) -> impl Iterator<Item = u32> + '_ {
        let l = layout(s, self.roles().len());
        let w = [
            s.bits.get(l.goals + 2 * role).copied().unwrap_or(0),
            s.bits.get(l.goals + 2 * role + 1).copied().unwrap_or(0),
        ];
        (0..128u32).filter(move |&v| w[(v / 64) as usize] >> (v % 64) & 1 == 1)
    }

    /// The true base propositions of a lazy state, as terms.
    fn lazy_true_terms(&self, lz: &Lazy, s: &GdlState) -> Vec<Term> {
        lz.true_terms(&s.bits[..s.base_words as usize])
    }

    /// A lazy state with exactly the base propositions `bases`, evaluated.
    pub(crate) fn lazy_state(&self, lz: &Lazy, bases: &[u32]) -> GdlState {
        let words = bases
            .iter()
            .map(|&b| b as usize / 64 + 1)
            .max()
            .unwrap_or(1);
        let mut bits = vec![0u64; words];
        for &b in bases {
            bits[b as usize / 64] |= 1 << (b % 64);
        }
        let mut s = GdlState {
            bits: bits.into_boxed_slice(),
            base_words: words as u32,
            turn: TURN_TERMINAL,
        };
        self.lazy_settle(lz, &mut s);
        s
    }

    /// Evaluates legal moves, `terminal` and goals of the lazy state `s` (its base words
    /// are set; the rest is rewritten) and decides whose turn it is.
    fn lazy_settle(&self, lz: &Lazy, s: &mut GdlState) {
        let roles = self.roles().len();
        let bw = s.base_words as usize;
        let state = self.lazy_true_terms(lz, s);
        let desc = self.description();
        let mut words: Vec<u64> = s.bits[..bw].to_vec();
        words.resize(bw + 2 * roles + 1, 0);
        let mut legal: Vec<Vec<u64>> = vec![Vec::new(); roles];
        match lz.eval.eval(desc, &state, None) {
            Ok(d) => {
                for f in d.facts(kw::LEGAL) {
                    if let Some(r) = self.roles().iter().position(|t| t == &f[0]) {
                        legal[r].push(u64::from(lz.action_id(desc, &f[1])));
                    }
                }
                for f in d.facts(kw::GOAL) {
                    let (Some(r), Term::Sym(v)) =
                        (self.roles().iter().position(|t| t == &f[0]), &f[1])
                    else {
                        continue;
                    };
                    if let Ok(v) = desc.name(*v).parse::<u32>() {
                        if v <= 100 {
                            words[bw + 2 * r + (v / 64) as usize] |= 1 << (v % 64);
                        }
                    }
                }
                if !d.facts(kw::TERMINAL).is_empty() {
                    words[bw + 2 * roles] |= 1;
                }
            }
            Err(e) => lz.fail(e),
        }
        for l in &mut legal {
            l.sort_unstable();
            l.dedup();
        }
        for l in &legal {
            words.push(l.len() as u64);
            words.extend_from_slice(l);
        }
        s.bits = words.into_boxed_slice();
        s.turn = if self.lazy_terminal(s) || legal.iter().any(Vec::is_empty) {
            TURN_TERMINAL
        } else {
            let mut choosers = legal.iter().enumerate().filter(|(_, l)| l.len() > 1);
            match (choosers.next(), choosers.next()) {
                (Some((r, _)), None) => r as u8,
                (Some(_), Some(_)) => TURN_SIMULTANEOUS,
                (None, _) => {
                    // Nobody has a choice: the first role whose only move is not `noop`.
                    let texts: Vec<String> =
                        legal.iter().map(|l| lz.action_text(l[0] as u32)).collect();
                    texts
                        .iter()
                        .position(|t| !t.eq_ignore_ascii_case("noop"))
                        .unwrap_or(0) as u8
                }
            }
        };
    }

    /// Plays `joint` (one action id per role) from the lazy state `s`.
    pub(crate) fn lazy_step(&self, lz: &Lazy, s: &mut GdlState, joint: &[u32]) {
        let state = self.lazy_true_terms(lz, s);
        let does: Vec<(Term, Term)> = self
            .roles()
            .iter()
            .zip(joint)
            .filter_map(|(r, &a)| lz.action(a).map(|t| (r.clone(), t)))
            .collect();
        let next: Vec<u32> = match lz.eval.eval(self.description(), &state, Some(&does)) {
            Ok(d) => d
                .facts(kw::NEXT)
                .iter()
                .map(|f| lz.base_id(&f[0]))
                .collect(),
            Err(e) => {
                lz.fail(e);
                Vec::new()
            }
        };
        *s = self.lazy_state(lz, &next);
    }
}

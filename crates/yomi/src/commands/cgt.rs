//! `yomi cgt '<game expression>'`: a short combinatorial game's canonical form, outcome,
//! stops, mean, temperature, thermograph and cooled values (the `yomi-cgt` crate).

use std::fmt::Write as _;
use std::io::Write;

use clap::Args;
use yomi_cgt::parse::MAX_INPUT;
use yomi_cgt::{with_work_limit, Cgt, Dyadic, Outcome};

use crate::error::usage;

/// Arguments of `yomi cgt`.
#[derive(Args, Debug)]
pub struct CgtArgs {
    /// The game, in the standard notation: numbers (`3`, `-1/2`), `*`, `*2`, `↑`/`^`,
    /// `↓`/`v`, `±1`/`+-1`, forms `{L1,L2|R1}`, sums and differences, parentheses.
    #[arg(value_name = "GAME", allow_hyphen_values = true)]
    pub game: String,
    /// Also cool the game by these temperatures (`--cool 1 --cool 3/2`); 1/2 and 1 are
    /// always shown.
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub cool: Vec<String>,
    /// Heat the game by these temperatures (Conway's heating, ∫^t G).
    #[arg(long, value_name = "T", allow_hyphen_values = true)]
    pub heat: Vec<String>,
    /// Compare the game with another one (prints <, =, > or ‖).
    #[arg(long, value_name = "GAME", allow_hyphen_values = true)]
    pub compare: Option<String>,
    /// Print in ASCII (`^`, `v`, `+-`) instead of Unicode.
    #[arg(long)]
    pub ascii: bool,
    /// Most steps of work (comparisons, sums, simplifications; a few million a second)
    /// before giving up with an error on a game too large to analyse.
    #[arg(long, value_name = "STEPS", default_value_t = DEFAULT_WORK_LIMIT)]
    pub work_limit: u64,
}

/// The default `--work-limit`: a few seconds of work.
pub const DEFAULT_WORK_LIMIT: u64 = 20_000_000;

fn parse_game(text: &str) -> anyhow::Result<Cgt> {
    text.parse::<Cgt>()
        .map_err(|e| usage(format!("game {text:?}: {e}")))
}

fn parse_temperature(text: &str) -> anyhow::Result<Dyadic> {
    let t: Dyadic = text
        .parse()
        .map_err(|e| usage(format!("temperature {text:?}: {e}")))?;
    if t < Dyadic::ZERO {
        return Err(usage(format!("temperature {text:?}: must be at least 0")));
    }
    Ok(t)
}

/// Runs `yomi cgt`.
///
/// # Errors
/// A usage error for a game or temperature that does not parse; I/O errors.
pub fn run(args: CgtArgs) -> anyhow::Result<()> {
    // Parsing computes sums too: all of it runs under the work limit.
    let too_large = |e: yomi_cgt::WorkLimitExceeded| {
        anyhow::anyhow!(
            "game {:?}: {e} (numbers, nimbers or sums too big); --work-limit raises the limit",
            args.game
        )
    };
    let g = with_work_limit(args.work_limit, || parse_game(&args.game)).map_err(too_large)??;
    let other = with_work_limit(args.work_limit, || {
        args.compare.as_deref().map(parse_game).transpose()
    })
    .map_err(too_large)??;
    let mut cools = vec![Dyadic::HALF, Dyadic::ONE];
    for t in &args.cool {
        let t = parse_temperature(t)?;
        if !cools.contains(&t) {
            cools.push(t);
        }
    }
    cools.sort();
    let heats = args
        .heat
        .iter()
        .map(|t| parse_temperature(t))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let show = |x: Cgt| {
        if args.ascii {
            format!("{x:#}")
        } else {
            x.to_string()
        }
    };
    let text = with_work_limit(args.work_limit, || report(g, other, &cools, &heats, &show))
        .map_err(too_large)?;
    std::io::stdout().lock().write_all(text.as_bytes())?;
    // A canonical form can be exponentially longer than the expression that made it, so
    // no cap on input covers every form printed; say so when this one is past it.
    let printed = show(g).len();
    if printed > MAX_INPUT {
        eprintln!(
            "note: the canonical form above is {printed} bytes long, more than the \
             {MAX_INPUT} bytes `yomi cgt` reads as a game, so it cannot be given back as input"
        );
    }
    Ok(())
}

/// The report's text.
fn report(
    g: Cgt,
    other: Option<Cgt>,
    cools: &[Dyadic],
    heats: &[Dyadic],
    show: &dyn Fn(Cgt) -> String,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "canonical:   {}", show(g));
    let outcome = match g.outcome() {
        Outcome::Left => "L (Left wins, G > 0)",
        Outcome::Right => "R (Right wins, G < 0)",
        Outcome::Previous => "P (second player wins, G = 0)",
        Outcome::Next => "N (first player wins, G ‖ 0)",
    };
    let _ = writeln!(out, "outcome:     {outcome}");
    if let Some(x) = g.as_number() {
        let _ = writeln!(out, "number:      {x}");
    }
    if let Some(n) = g.as_nimber() {
        let _ = writeln!(out, "nimber:      *{n}");
    }
    let _ = writeln!(out, "birthday:    {}", g.birthday());
    let _ = writeln!(
        out,
        "stops:       left {}, right {}",
        g.left_stop(),
        g.right_stop()
    );
    let _ = writeln!(out, "mean:        {}", g.mean());
    let _ = writeln!(out, "temperature: {}", g.temperature());
    let th = g.thermograph();
    // Each piece as a function of t on its interval: "[-1, 3/2]: 2 - t; [3/2, ∞): 1/2".
    let wall = |w: &yomi_cgt::Trajectory| {
        let pieces = w.pieces();
        pieces
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let end = pieces
                    .get(i + 1)
                    .map_or("∞)".to_string(), |q| format!("{}]", q.start));
                let at_zero = p.value - p.start.mul_int(p.slope as i64);
                let f = match (p.slope, at_zero == Dyadic::ZERO) {
                    (0, _) => p.value.to_string(),
                    (1, true) => "t".to_string(),
                    (-1, true) => "-t".to_string(),
                    (1, false) => format!("{at_zero} + t"),
                    (-1, false) => format!("{at_zero} - t"),
                    (s, _) => format!("{at_zero} + {s}t"),
                };
                format!("[{}, {end}: {f}", p.start)
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let _ = writeln!(out, "left wall:   {}", wall(th.left_wall()));
    let _ = writeln!(out, "right wall:  {}", wall(th.right_wall()));
    for &t in cools {
        let _ = writeln!(
            out,
            "cool {t}:{}{}",
            " ".repeat(7usize.saturating_sub(t.to_string().len())),
            show(g.cool(t))
        );
    }
    for &t in heats {
        let _ = writeln!(
            out,
            "heat {t}:{}{}",
            " ".repeat(7usize.saturating_sub(t.to_string().len())),
            show(g.heat(t))
        );
    }
    if let Some(h) = other {
        let _ = writeln!(
            out,
            "compare:     {} {} {}",
            show(g),
            g.relation(h),
            show(h)
        );
    }
    out
}

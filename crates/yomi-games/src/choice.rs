//! Game names → game values and their agent registries, for every entry point (the
//! command line, the web board, the Python package).
//!
//! Dispatch is generic, not dynamic: a command implements [`GameCommand`] once, with a
//! method generic over [`Game`], and [`GameChoice::dispatch`] calls it with the concrete
//! game type of the chosen variant. Every search therefore runs monomorphised code; no
//! trait object sits between a search and its game.
//!
//! Adding a game: a variant of [`GameChoice`], a line in [`BUILT_IN`], and arms in
//! [`GameChoice::from_name`] and [`GameChoice::dispatch`].

use std::fmt;
use std::str::FromStr;

use yomi_classic::breakthrough::{self, MAX_HEIGHT, MAX_WIDTH, MIN_HEIGHT, MIN_WIDTH};
use yomi_classic::{connect_four, tictactoe, Breakthrough, ConnectFour, TicTacToe};
use yomi_core::registry::AgentRegistry;
use yomi_core::Game;

/// A command that runs on any game.
pub trait GameCommand {
    /// What the command returns.
    type Output;

    /// Runs the command on `game`, whose agents `registry` builds.
    fn run<G: Game>(self, game: G, registry: AgentRegistry<G>) -> anyhow::Result<Self::Output>;
}

/// A game named on the command line.
#[derive(Clone, Debug)]
pub enum GameChoice {
    /// Tic-tac-toe.
    TicTacToe,
    /// Connect four, 7×6.
    ConnectFour,
    /// Breakthrough on the given board.
    Breakthrough(Breakthrough),
    /// Go on an N×N board (default rules: komi 7.5, positional superko).
    Go(u8),
    /// Othello on 8×8.
    Othello,
    /// TUBSTAP on a map (built in or read from a `.tbsmap` file).
    Tubstap(yomi_tubstap::Tubstap),
    /// A GDL rule sheet (`ggp:<file.kif>`, or a shipped one: `ggp:tictactoe`).
    Ggp(yomi_ggp::GdlGame),
    /// Geister: `geister` (hidden colours), `geister-perfect`, `geister-mini`.
    Geister(Box<yomi_geister::Geister>),
}

/// One line of `yomi games`.
pub struct GameInfo {
    /// The name to type.
    pub name: &'static str,
    /// What it is.
    pub summary: &'static str,
}

/// The games `yomi games` lists, in that order. Every name here parses with
/// [`GameChoice::from_name`].
pub const BUILT_IN: &[GameInfo] = &[
    GameInfo {
        name: "tictactoe",
        summary: "tic-tac-toe on 3x3; x moves first; moves are cells a1..c3",
    },
    GameInfo {
        name: "connect4",
        summary: "connect four on 7 columns x 6 rows; x moves first; moves are columns a..g",
    },
    GameInfo {
        name: "breakthrough",
        summary: "Breakthrough on 8x8 (same as breakthrough-8x8); white moves first; moves like a2-a3, b4xc5",
    },
    GameInfo {
        name: "breakthrough-5x5",
        summary: "Breakthrough on 5x5, a small board for quick experiments",
    },
    GameInfo {
        name: "breakthrough-6x6",
        summary: "Breakthrough on 6x6",
    },
    GameInfo {
        name: "go",
        summary: "Go on 9x9, komi 7.5, area scoring, positional superko; moves are GTP vertices like E5, pass",
    },
    GameInfo {
        name: "go:13",
        summary: "Go on 13x13; any go:N for N in 2..19 works (also go-NxN)",
    },
    GameInfo {
        name: "go:19",
        summary: "Go on 19x19; `yomi go gtp` runs a GTP engine for GUIs and other programs",
    },
    GameInfo {
        name: "othello",
        summary: "Othello on 8x8; black (X) moves first; moves a1..h8 and pass; `yomi othello` has perft, solve, nboard, gtp",
    },
    GameInfo {
        name: "tubstap",
        summary: "TUBSTAP turn-based strategy on the standard 8x8 6-vs-6 map (tubstap:standard); one unit action per move, like 3@4,5x7 or end; `yomi tubstap` has check, bench, client, experiment",
    },
    GameInfo {
        name: "tubstap:duel",
        summary: "TUBSTAP on a built-in map (standard, duel, skies, fortress) or a map file: tubstap:PATH.tbsmap",
    },
    GameInfo {
        name: "ggp:tictactoe",
        summary: "any GDL rule sheet: ggp:PATH.kif (shipped: ggp:tictactoe, ggp:connect4, ggp:breakthrough5x5, ggp:dobutsushogi, ggp:dobutsushogi_o, ggp:crisscross); moves are GDL terms like (mark 1 1); `yomi ggp check` validates a sheet",
    },
    GameInfo {
        name: "geister",
        summary: "Geister 6x6 as the GAT tournament plays it: hidden colours, set-ups SET:ABCD as first moves, moves like 14N (x y direction), draw at 300 plies; `yomi geister` has server and client",
    },
    GameInfo {
        name: "geister-perfect",
        summary: "perfect-information Geister 6x6 (colours public; the paper's AlphaZero setting); geister-perfect-200 for the paper's 200-ply limit",
    },
    GameInfo {
        name: "geister-mini",
        summary: "the paper's 5x4 Geister: fixed placement (2 reds in front, 2 blues behind), hidden colours, draw at 100 plies",
    },
    GameInfo {
        name: "breakthrough:WxH",
        summary: "Breakthrough on any board from 3x4 to 11x11, e.g. breakthrough:7x5 (also breakthrough-7x5)",
    },
];

/// The accepted names, for error messages.
pub fn accepted_names() -> String {
    BUILT_IN
        .iter()
        .map(|g| g.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl GameChoice {
    /// The game called `name`: `tictactoe`, `connect4`, `breakthrough` (8×8),
    /// `breakthrough-WxH` or `breakthrough:WxH`.
    ///
    /// # Errors
    /// A message listing the accepted names, or the supported sizes for a Breakthrough
    /// board that is too small or too large.
    pub fn from_name(name: &str) -> Result<Self, String> {
        let name = name.trim();
        match name.to_ascii_lowercase().as_str() {
            "tictactoe" => return Ok(GameChoice::TicTacToe),
            "connect4" => return Ok(GameChoice::ConnectFour),
            "breakthrough" => return Ok(GameChoice::Breakthrough(Breakthrough::new_8x8())),
            "othello" => return Ok(GameChoice::Othello),
            _ => {}
        }
        if let Some(g) = yomi_geister::Geister::from_name(&name.to_ascii_lowercase()) {
            return Ok(GameChoice::Geister(Box::new(g)));
        }
        if let Some(g) = ggp_from_name(name)? {
            return Ok(GameChoice::Ggp(g));
        }
        if let Some(g) = tubstap_from_name(name)? {
            return Ok(GameChoice::Tubstap(g));
        }
        if let Some(g) = yomi_go::GoGame::from_name(name) {
            return Ok(GameChoice::Go(g.size() as u8));
        }
        let lower = name.to_ascii_lowercase();
        if let Some(size) = lower
            .strip_prefix("breakthrough:")
            .or_else(|| lower.strip_prefix("breakthrough-"))
        {
            let parsed = size
                .split_once('x')
                .and_then(|(w, h)| Some((w.parse::<usize>().ok()?, h.parse::<usize>().ok()?)));
            let Some((w, h)) = parsed else {
                return Err(format!(
                    "bad Breakthrough size {size:?} in {name:?}: write WxH, e.g. breakthrough:6x5 \
                     (width {MIN_WIDTH}..={MAX_WIDTH}, height {MIN_HEIGHT}..={MAX_HEIGHT})"
                ));
            };
            return Breakthrough::new(w, h)
                .map(GameChoice::Breakthrough)
                .map_err(|e| format!("{name:?}: {e}"));
        }
        Err(format!(
            "unknown game {name:?}; accepted: {} (`yomi games` describes them)",
            accepted_names()
        ))
    }

    /// Runs `command` on this game with the game crate's agent registry.
    ///
    /// # Errors
    /// Whatever the command returns.
    pub fn dispatch<C: GameCommand>(self, command: C) -> anyhow::Result<C::Output> {
        match self {
            GameChoice::TicTacToe => command.run(TicTacToe, tictactoe::registry()),
            GameChoice::ConnectFour => command.run(ConnectFour, connect_four::registry()),
            GameChoice::Breakthrough(game) => command.run(game, breakthrough::registry()),
            GameChoice::Go(n) => command.run(
                yomi_go::GoGame::new(n as usize).map_err(|e| anyhow::anyhow!(e))?,
                yomi_go::registry(),
            ),
            GameChoice::Othello => command.run(yomi_othello::Othello, yomi_othello::registry()),
            GameChoice::Tubstap(game) => command.run(game, yomi_tubstap::registry()),
            GameChoice::Ggp(game) => command.run(game, yomi_ggp::registry()),
            GameChoice::Geister(game) => command.run(*game, geister_registry()),
        }
    }
}

impl FromStr for GameChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        GameChoice::from_name(s)
    }
}

impl fmt::Display for GameChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameChoice::TicTacToe => f.write_str("tictactoe"),
            GameChoice::ConnectFour => f.write_str("connect4"),
            GameChoice::Breakthrough(g) => write!(f, "{g}"),
            GameChoice::Go(n) => write!(f, "go-{n}x{n}"),
            GameChoice::Othello => f.write_str("othello"),
            GameChoice::Tubstap(g) => f.write_str(g.name()),
            GameChoice::Ggp(g) => f.write_str(&g.facts().name),
            GameChoice::Geister(g) => f.write_str(g.name()),
        }
    }
}

/// Geister's agents: the crate's, plus `az` with the shipped network (feature `nn`).
pub fn geister_registry() -> AgentRegistry<yomi_geister::Geister> {
    #[allow(unused_mut)]
    let mut registry = yomi_geister::registry();
    #[cfg(feature = "nn")]
    yomi_nn::register_az_with_builtin(
        &mut registry,
        yomi_geister::AZ_PERFECT_NET,
        "the shipped network (yomi-geister/nets/az-perfect.ynn)",
    );
    registry
}

/// The game for a `ggp:<what>` name: a shipped rule sheet (`ggp:tictactoe`,
/// `ggp:connect4`) unless a file of that name exists, else the rule sheet file; `Ok(None)`
/// for names without the `ggp:` prefix.
///
/// # Errors
/// An unreadable file (naming the shipped sheets) or a bad rule sheet (with line and column).
pub fn ggp_from_name(name: &str) -> Result<Option<yomi_ggp::GdlGame>, String> {
    use std::path::Path;
    use yomi_ggp::games;
    let Some((head, what)) = name.split_once(':') else {
        return Ok(None);
    };
    if !head.eq_ignore_ascii_case("ggp") {
        return Ok(None);
    }
    let path = Path::new(what);
    if !path.exists() {
        if let Some((shipped, _)) = games::ALL
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(what))
        {
            return games::shipped(shipped)
                .map(Some)
                .map_err(|e| format!("{name:?}: {e}"));
        }
    }
    let text = std::fs::read_to_string(path).map_err(|e| {
        let shipped: Vec<&str> = games::ALL.iter().map(|(n, _)| *n).collect();
        format!(
            "cannot read {}: {e} (write ggp:<file.kif>, or one of the shipped ggp:{})",
            path.display(),
            shipped.join(", ggp:")
        )
    })?;
    let stem = path
        .file_stem()
        .map_or_else(|| "game".into(), |s| s.to_string_lossy().into_owned());
    yomi_ggp::GdlGame::from_kif(&stem, &text)
        .map(Some)
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// `tubstap` (the standard map) or `tubstap:<map>` (a built-in map name or a `.tbsmap`
/// path); `Ok(None)` for other names.
pub fn tubstap_from_name(name: &str) -> Result<Option<yomi_tubstap::Tubstap>, String> {
    let map = match name.split_once(':') {
        None if name.eq_ignore_ascii_case("tubstap") => "standard",
        Some((head, map)) if head.eq_ignore_ascii_case("tubstap") => map,
        _ => return Ok(None),
    };
    yomi_tubstap::maps::load(map).map(Some).map_err(|e| {
        format!(
            "{name:?}: {e}; built-in maps: {}",
            yomi_tubstap::maps::names().collect::<Vec<_>>().join(", ")
        )
    })
}

/// Reads a game name for clap (an unknown name is a usage error, exit code 2).
pub fn parse_game(s: &str) -> Result<GameChoice, String> {
    GameChoice::from_name(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_name_parses() {
        for g in BUILT_IN {
            let name = g.name.replace("WxH", "7x5");
            assert!(GameChoice::from_name(&name).is_ok(), "{name}");
        }
        assert_eq!(
            GameChoice::from_name("breakthrough:6x5")
                .unwrap()
                .to_string(),
            "breakthrough-6x5"
        );
        assert_eq!(
            GameChoice::from_name("breakthrough").unwrap().to_string(),
            "breakthrough-8x8"
        );
    }

    #[test]
    fn bad_names_explain_themselves() {
        let e = GameChoice::from_name("chess").unwrap_err();
        assert!(e.contains("accepted: tictactoe, connect4"), "{e}");
        let e = GameChoice::from_name("breakthrough:2x2").unwrap_err();
        assert!(e.contains("width must be 3..=11"), "{e}");
        let e = GameChoice::from_name("breakthrough:big").unwrap_err();
        assert!(e.contains("WxH"), "{e}");
        let e = GameChoice::from_name("tubstap:nowhere.tbsmap").unwrap_err();
        assert!(
            e.contains("cannot read nowhere.tbsmap") && e.contains("standard, duel"),
            "{e}"
        );
    }

    #[test]
    fn tubstap_names_load_their_maps() {
        for (name, shown) in [
            ("tubstap", "tubstap:standard"),
            ("TUBSTAP:skies", "tubstap:skies"),
            ("tubstap:fortress", "tubstap:fortress"),
        ] {
            assert_eq!(GameChoice::from_name(name).unwrap().to_string(), shown);
        }
    }
}

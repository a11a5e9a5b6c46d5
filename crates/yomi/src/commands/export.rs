//! `yomi export FILE`: the games of a records file in the formats each community reads —
//! SGF for Go, GGF for Othello, a numbered move list for every other game.
//!
//! It reads every command's records ([`super::records`]): the arena's (`yomi match`,
//! `tournament`, `play --out`, the web board), `yomi go twogtp`'s match journals (SGF) and
//! `yomi ggp host`'s series journals (move lists, each step's moves by role). Every game is replayed through the rules before
//! it is written, so an exported file holds only legal games; a record whose game or
//! variant cannot be rebuilt (a GDL sheet or TUBSTAP map not at hand, another start
//! position) is written as a move list without replay, with a warning.

use std::fmt::Write as _;
use std::path::Path;

use super::records::RecordsFile;
use crate::games::{GameChoice, GameCommand};
use anyhow::{bail, Context};
use yomi_core::arena::{setup_fingerprint, GameRecord, SeatResult, Termination};
use yomi_core::registry::AgentRegistry;
use yomi_core::{Game, Turn};
use yomi_go::sgf::SgfGame;
use yomi_go::{Color, GoGame, Vertex};
use yomi_othello::ggf::{to_ggf, GgfEnd};
use yomi_othello::OthelloState;

use crate::cli::{ExportArgs, ExportFormat};

/// Reads the records, converts every game and writes them to `--out` or standard output.
pub fn run(args: ExportArgs) -> anyhow::Result<()> {
    let text = export_file(&args.file, args.format)?;
    match &args.out {
        Some(out) => {
            std::fs::write(out, &text).with_context(|| format!("cannot write {}", out.display()))?
        }
        None => super::emit(&text)?,
    }
    Ok(())
}

/// The games of the records file at `path` in `format`, concatenated (an SGF collection, a
/// GGF file of one game per line, move lists separated by blank lines).
///
/// # Errors
/// An unreadable file, a record that does not replay, or a format that does not fit the
/// game (`--format sgf` on Othello).
pub fn export_file(path: &Path, format: ExportFormat) -> anyhow::Result<String> {
    let records = match RecordsFile::read(path)? {
        RecordsFile::Arena(records) => records,
        RecordsFile::Twogtp { config, games } => {
            return export_twogtp(path, &config, &games, format)
        }
        RecordsFile::GgpHost { settings, matches } => {
            return export_ggp_host(path, &settings, &matches, format)
        }
    };
    if records.is_empty() {
        bail!("{} holds no finished games", path.display());
    }
    let mut out = String::new();
    for (i, record) in records.iter().enumerate() {
        let text = export_record(record, format).with_context(|| {
            format!(
                "game {} of {} (pairing {}, index {})",
                i + 1,
                path.display(),
                record.pairing,
                record.index
            )
        })?;
        out.push_str(&text);
        out.push('\n');
    }
    Ok(out)
}

fn export_twogtp(
    path: &Path,
    config: &yomi_go::twogtp::MatchConfig,
    games: &[yomi_go::twogtp::GameRecord],
    format: ExportFormat,
) -> anyhow::Result<String> {
    if !matches!(format, ExportFormat::Auto | ExportFormat::Sgf) {
        bail!(
            "{} is a Go match journal: it exports as SGF only",
            path.display()
        );
    }
    let game = GoGame::new(config.size)
        .and_then(|g| g.with_komi(config.komi))
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
    let mut out = String::new();
    for record in games {
        let (black, white) = if record.first_black {
            (&config.first, &config.second)
        } else {
            (&config.second, &config.first)
        };
        let name = format!("game {}", record.game);
        let sgf = go_sgf(&game, &record.moves, &record.result, black, white, &name)
            .with_context(|| format!("{} game {}", path.display(), record.game))?;
        out.push_str(&sgf);
    }
    Ok(out)
}

/// The matches of a `yomi ggp host` journal as move lists: the match's head (as every move
/// list's), then each step's moves by role. Failed matches (nothing played) are skipped.
fn export_ggp_host(
    path: &Path,
    settings: &yomi_ggp::host::SeriesSettings,
    matches: &[yomi_ggp::host::MatchRecord],
    format: ExportFormat,
) -> anyhow::Result<String> {
    if !matches!(format, ExportFormat::Auto | ExportFormat::Moves) {
        bail!(
            "{} is a GGP host journal: it exports as move lists only",
            path.display()
        );
    }
    let mut out = String::new();
    for (line, m) in matches.iter().enumerate() {
        let Some(record) = m.to_arena(m.series_index().unwrap_or(line), settings) else {
            continue;
        };
        out.push_str(&move_list_head(&record));
        let _ = writeln!(out, "match id: {}", m.match_id);
        for (step, joint) in m.moves.iter().enumerate() {
            let moves: Vec<String> = m
                .roles
                .iter()
                .zip(joint)
                .map(|(role, mv)| format!("{role} {mv}"))
                .collect();
            let _ = writeln!(out, "{}. {}", step + 1, moves.join(", "));
        }
        out.push('\n');
    }
    if out.is_empty() {
        bail!("{} holds no played matches", path.display());
    }
    Ok(out)
}

/// One arena record in `format`.
fn export_record(record: &GameRecord, format: ExportFormat) -> anyhow::Result<String> {
    let choice = GameChoice::from_name(&record.game).ok();
    match (&choice, format) {
        (Some(GameChoice::Go(size)), ExportFormat::Auto | ExportFormat::Sgf) => {
            go_record(record, *size as usize)
        }
        (Some(GameChoice::Othello), ExportFormat::Auto | ExportFormat::Ggf) => {
            othello_record(record)
        }
        (_, ExportFormat::Sgf) => bail!("{} is not Go: SGF is for Go games", record.game),
        (_, ExportFormat::Ggf) => bail!("{} is not Othello: GGF is for Othello", record.game),
        (Some(_), _) => {
            let choice = choice.expect("matched Some");
            match choice.dispatch(MoveList { record }) {
                Ok(Some(text)) => Ok(text),
                Ok(None) => Ok(unreplayed_move_list(record)),
                Err(e) => Err(e),
            }
        }
        (None, _) => Ok(unreplayed_move_list(record)),
    }
}

/// The seat that lost the game by forfeit, if one did.
fn forfeit(record: &GameRecord) -> Option<usize> {
    record.termination.forfeiting_seat()
}

fn go_record(record: &GameRecord, size: usize) -> anyhow::Result<String> {
    let game = GoGame::new(size).map_err(|e| anyhow::anyhow!("{e}"))?;
    // The komi is in the final state's notation; the start position with it must have the
    // record's setup fingerprint.
    let last = game
        .parse_state(&record.final_state)
        .map_err(|e| anyhow::anyhow!("the final state does not read as {}: {e}", record.game))?;
    let game = game
        .with_komi(last.komi())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    let start = game.initial_state();
    if setup_fingerprint(&game.format_state(&start)) != record.setup {
        bail!(
            "the record's start position (fingerprint {}) is not the empty {size}x{size} board \
             with komi {}: it cannot be written as SGF from the moves alone",
            record.setup,
            last.komi()
        );
    }
    let result = match (forfeit(record), &record.termination) {
        (Some(0), _) => "W+F".to_string(),
        (Some(_), _) => "B+F".to_string(),
        _ => {
            // Black's area minus White's, komi included (the game's own scoring).
            let margin = last.area_score();
            if margin > 0.0 {
                format!("B+{margin}")
            } else if margin < 0.0 {
                format!("W+{}", -margin)
            } else {
                "0".to_string()
            }
        }
    };
    let name = format!(
        "pairing {} game {} seed {}",
        record.pairing, record.index, record.seed
    );
    let seat = |i: usize| record.seats.get(i).map_or("?", String::as_str);
    go_sgf(&game, &record.moves, &result, seat(0), seat(1), &name)
}

/// The SGF of Go moves in GTP notation, checked by replaying them on `game`.
fn go_sgf(
    game: &GoGame,
    moves: &[String],
    result: &str,
    black: &str,
    white: &str,
    name: &str,
) -> anyhow::Result<String> {
    let mut state = game.initial_state();
    let mut played: Vec<(Color, Vertex)> = Vec::with_capacity(moves.len());
    for (i, text) in moves.iter().enumerate() {
        let colour = state.to_move();
        let mv = game
            .parse_move(&state, text)
            .map_err(|e| anyhow::anyhow!("move {} ({text:?}): {e}", i + 1))?;
        game.play(&mut state, mv)
            .map_err(|e| anyhow::anyhow!("move {} ({text}): {e}", i + 1))?;
        played.push((colour, mv));
    }
    let mut sgf = SgfGame::from_moves(game.size(), state.komi(), &played);
    sgf.result = Some(result.to_string());
    Ok(sgf.to_sgf_with(&[("PB", black), ("PW", white), ("GN", name)]))
}

fn othello_record(record: &GameRecord) -> anyhow::Result<String> {
    let start = OthelloState::start();
    if setup_fingerprint(&start.to_board_string()) != record.setup {
        bail!(
            "the record's start position (fingerprint {}) is not Othello's: GGF needs the \
             start position",
            record.setup
        );
    }
    let moves = record
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.parse::<yomi_othello::Move>()
                .map_err(|e| anyhow::anyhow!("move {} ({m:?}): {e}", i + 1))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let end = match forfeit(record) {
        Some(0) => GgfEnd::BlackForfeited,
        Some(_) => GgfEnd::WhiteForfeited,
        None => GgfEnd::Position,
    };
    let seat = |i: usize| record.seats.get(i).map_or("?", String::as_str);
    Ok(to_ggf(seat(0), seat(1), &start, &moves, end)?)
}

/// The head of a move list: the game, the seats and the result.
fn move_list_head(record: &GameRecord) -> String {
    let mut s = format!(
        "[{} pairing {} game {} seed {}]\n",
        record.game, record.pairing, record.index, record.seed
    );
    for (i, label) in record.seats.iter().enumerate() {
        let result = match record.results.get(i) {
            Some(SeatResult::Win) => " win",
            Some(SeatResult::Draw) => " draw",
            Some(SeatResult::Loss) => " loss",
            None => "",
        };
        let reward = record.returns.get(i).copied().unwrap_or(0.0);
        let _ = writeln!(s, "seat {i}: {label} ({reward:+}){result}");
    }
    let end = match &record.termination {
        Termination::Terminal => "game over".to_string(),
        other => other.to_string(),
    };
    let _ = writeln!(s, "end: {end} after {} turns", record.turns);
    s
}

/// A move list of a game that could not be replayed: moves numbered, movers unknown.
fn unreplayed_move_list(record: &GameRecord) -> String {
    eprintln!(
        "warning: {} (pairing {}, index {}) cannot be rebuilt here; its moves are written as \
         recorded, without replay",
        record.game, record.pairing, record.index
    );
    let mut s = move_list_head(record);
    for (i, mv) in record.moves.iter().enumerate() {
        let _ = writeln!(s, "{}. {mv}", i + 1);
    }
    s
}

/// A move list replayed through the game: every move with the player who made it.
struct MoveList<'a> {
    record: &'a GameRecord,
}

impl GameCommand for MoveList<'_> {
    /// `None` when the game's start position is not the record's.
    type Output = Option<String>;

    fn run<G: Game>(self, game: G, _: AgentRegistry<G>) -> anyhow::Result<Option<String>> {
        let record = self.record;
        let mut state = game.initial_state();
        if setup_fingerprint(&game.format_state(&state)) != record.setup {
            return Ok(None);
        }
        let facts = game.facts();
        let mut s = move_list_head(record);
        for (i, text) in record.moves.iter().enumerate() {
            let mover = match game.turn(&state) {
                Turn::Player(p) => facts.player_name(p),
                Turn::Simultaneous => "all".to_string(),
                Turn::Terminal => bail!("move {} ({text:?}) after the end of the game", i + 1),
            };
            let joint = text
                .strip_prefix('[')
                .and_then(|t| t.strip_suffix(']'))
                .map(|t| t.split_whitespace().collect::<Vec<_>>());
            match joint {
                Some(parts) if matches!(game.turn(&state), Turn::Simultaneous) => {
                    let moves = parts
                        .iter()
                        .map(|m| game.parse_move(&state, m))
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|e| anyhow::anyhow!("move {} ({text:?}): {e}", i + 1))?;
                    game.play_joint(&mut state, &moves)
                        .map_err(|e| anyhow::anyhow!("move {} ({text}): {e}", i + 1))?;
                }
                _ => {
                    let mv = game
                        .parse_move(&state, text)
                        .map_err(|e| anyhow::anyhow!("move {} ({text:?}): {e}", i + 1))?;
                    game.play(&mut state, mv)
                        .map_err(|e| anyhow::anyhow!("move {} ({text}): {e}", i + 1))?;
                }
            }
            let _ = writeln!(s, "{}. {mover} {text}", i + 1);
        }
        Ok(Some(s))
    }
}

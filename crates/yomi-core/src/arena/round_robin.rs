//! Matches and round robins: the configuration, the schedule of games, what every game of
//! a configuration shares (`Prepared`), playing one scheduled game and checking a record
//! against the schedule, and the result. Playing the whole schedule is in `run` (through
//! the journal of [`chunks`](super::chunks)); this module uses neither.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::play::play_game;
use super::records::{setup_fingerprint, GameRecord};
use super::stats::{CrossTable, Standings};
use super::table::TableFormat;
use super::ArenaError;
use crate::entrant::Entrant;
use crate::game::Game;
use crate::registry::{AgentRegistry, Recipe};
use crate::rng::derive_seed;

/// Games per pairing when none is given.
pub const DEFAULT_GAMES: usize = 100;

/// The turn limit for games that declare no [`crate::GameFacts::max_turns`] and when none
/// is given.
pub const DEFAULT_TURN_LIMIT: usize = 10_000;

/// The most games per pairing a configuration may ask for. Seeds keep games apart only
/// below 2³², and every record of a run is kept in memory, so this is far above any run
/// that can finish and far below what breaks.
pub const MAX_GAMES: usize = 100_000_000;

/// The most worker threads a configuration may ask for.
pub const MAX_THREADS: usize = 1024;

fn default_games() -> usize {
    DEFAULT_GAMES
}

fn games_in_range<'de, D: serde::Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    let games = usize::deserialize(d)?;
    if games > MAX_GAMES {
        return Err(serde::de::Error::custom(format!(
            "games = {games}: at most {MAX_GAMES} games per pairing"
        )));
    }
    Ok(games)
}

fn threads_in_range<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let threads = Option::<usize>::deserialize(d)?;
    if let Some(t) = threads.filter(|&t| t > MAX_THREADS) {
        return Err(serde::de::Error::custom(format!(
            "threads = {t}: at most {MAX_THREADS} threads"
        )));
    }
    Ok(threads)
}

/// A match or round robin between agents given by spec strings.
///
/// A match is a round robin of two agents. The schedule, for a game of `P` players and `K`
/// listed agents:
/// - **Pairings.** With `K ≥ P`, every set of `P` agents meets (for two players: every
///   pair), numbered in colexicographic order — for two players `(0,1), (0,2), (1,2),
///   (0,3), …` — so appending an agent to the list keeps the numbers (and seeds, and
///   records) of the existing pairings. With `K < P` (say two agents in a four-player
///   game) there is one pairing in which the agents fill the seats cyclically.
/// - **Seats.** Game `i` of a pairing `[a₀, a₁, …]` of `m` agents gives seat `s` to agent
///   `a[(s + i) mod m]`: in a match of A and B, A is player 0 in even games and B in odd
///   ones. Over a multiple of `m` games every agent holds every seat equally often.
/// - **Seeds.** Game `i` of pairing `p` gets the seed `derive_seed(seed, p·2³² + i)`, and
///   the agent in seat `s` the seed `derive_seed(game seed, s)`. Results do not depend on
///   thread count or scheduling (as long as agents are deterministic given their seed:
///   time budgets are not).
///
/// Agents are built with [`AgentRegistry::build`]. Games run in parallel on a rayon pool
/// ([`RoundRobin::threads`]); with one thread, or when an agent is `human`, they run one
/// after another on the calling thread.
///
/// The struct derives serde so that the CLI can read it from an experiment file (with
/// `#[serde(flatten)]` beside its own keys); only `agents` is required.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundRobin {
    /// The entrants as written: spec strings (`mcts:iters=1000`) or `label=spec`, at least
    /// one. A spec listed twice plays under two labels (`mcts`, `mcts#2`); see
    /// [`RoundRobin::entrants`].
    pub agents: Vec<String>,
    /// Games per pairing (default [`DEFAULT_GAMES`], at most [`MAX_GAMES`]).
    #[serde(default = "default_games", deserialize_with = "games_in_range")]
    pub games: usize,
    /// The seed every game's seed derives from (default 0).
    #[serde(default)]
    pub seed: u64,
    /// Worker threads; `None` or 0 uses every core (at most [`MAX_THREADS`]). Use 1 for
    /// `human` agents (forced when an agent is `human`).
    #[serde(default, deserialize_with = "threads_in_range")]
    pub threads: Option<usize>,
    /// Turns after which a game is stopped and scored by [`Game::returns`] of the state
    /// reached. Default: the game's [`crate::GameFacts::max_turns`], else
    /// [`DEFAULT_TURN_LIMIT`].
    #[serde(default)]
    pub turn_limit: Option<usize>,
    /// The JSONL records file: appended to as games finish; an existing file is resumed.
    /// `None` keeps records in memory only.
    #[serde(default)]
    pub out: Option<PathBuf>,
    /// Hides the progress bar (it is hidden anyway when stderr is not a terminal).
    #[serde(default)]
    pub quiet: bool,
}

/// One game of a schedule.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduledGame {
    /// The pairing's number.
    pub pairing: usize,
    /// The game's index within its pairing.
    pub index: usize,
    /// The game's seed.
    pub seed: u64,
    /// For each seat, the index of its agent in [`RoundRobin::agents`].
    pub seats: Vec<usize>,
}

impl RoundRobin {
    /// A round robin of `agents` with the defaults: [`DEFAULT_GAMES`] games per pairing,
    /// seed 0, all cores, no records file, progress shown.
    pub fn new<S: Into<String>>(agents: impl IntoIterator<Item = S>) -> Self {
        RoundRobin {
            agents: agents.into_iter().map(Into::into).collect(),
            games: DEFAULT_GAMES,
            seed: crate::rng::DEFAULT_SEED,
            threads: None,
            turn_limit: None,
            out: None,
            quiet: false,
        }
    }

    /// A match between two agents (a round robin of two): `a` is player 0 in even games.
    pub fn head_to_head(a: impl Into<String>, b: impl Into<String>) -> Self {
        Self::new([a.into(), b.into()])
    }

    /// Sets the games per pairing.
    pub fn games(mut self, games: usize) -> Self {
        self.games = games;
        self
    }

    /// Sets the seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Sets the number of worker threads (0: every core).
    pub fn threads(mut self, threads: usize) -> Self {
        self.threads = Some(threads);
        self
    }

    /// Sets the turn limit.
    pub fn turn_limit(mut self, turns: usize) -> Self {
        self.turn_limit = Some(turns);
        self
    }

    /// Sets the records file (JSONL, resumed when it exists).
    pub fn out(mut self, path: impl Into<PathBuf>) -> Self {
        self.out = Some(path.into());
        self
    }

    /// Hides the progress bar when `quiet`.
    pub fn quiet(mut self, quiet: bool) -> Self {
        self.quiet = quiet;
        self
    }

    /// The entrants, parsed and labelled by the rules of [`crate::entrant`]: an agent
    /// listed twice plays under the labels `spec` and `spec#2`, and `label=spec` gives a
    /// label explicitly. Records and standings name agents by these labels.
    ///
    /// # Errors
    /// [`ArenaError::Entrant`] when the list is empty, an entrant does not parse or two
    /// explicit labels are equal.
    pub fn entrants(&self) -> Result<Vec<Entrant>, ArenaError> {
        Ok(Entrant::list(&self.agents)?)
    }

    /// Checks the numbers of the configuration: games per pairing at most [`MAX_GAMES`],
    /// threads at most [`MAX_THREADS`].
    ///
    /// # Errors
    /// [`ArenaError::Config`] naming the number and its range.
    pub fn check_numbers(&self) -> Result<(), ArenaError> {
        if self.games > MAX_GAMES {
            return Err(ArenaError::Config(format!(
                "{} games per pairing: at most {MAX_GAMES} are allowed",
                self.games
            )));
        }
        if let Some(t) = self.threads.filter(|&t| t > MAX_THREADS) {
            return Err(ArenaError::Config(format!(
                "{t} threads: at most {MAX_THREADS} are allowed (0 uses every core)"
            )));
        }
        Ok(())
    }

    /// The pairings (groups of agent indices) for a game of `players` players.
    pub(super) fn groups(&self, players: usize) -> Vec<Vec<usize>> {
        let k = self.agents.len();
        if players == 0 || k == 0 {
            Vec::new()
        } else if k >= players {
            combinations_colex(k, players)
        } else {
            vec![(0..k).collect()]
        }
    }

    /// Game `index` of pairing `pairing`, whose agents are `group`.
    pub(super) fn scheduled(
        &self,
        pairing: usize,
        index: usize,
        group: &[usize],
        players: usize,
    ) -> ScheduledGame {
        let m = group.len();
        let stable = ((pairing as u64) << 32) | index as u64;
        ScheduledGame {
            pairing,
            index,
            seed: derive_seed(self.seed, stable),
            seats: (0..players).map(|s| group[(s + index) % m]).collect(),
        }
    }

    /// The games this configuration plays for a game of `players` players, in pairing
    /// order (see the [type documentation](RoundRobin) for the rules). Empty when the
    /// numbers are out of range ([`RoundRobin::check_numbers`]). [`RoundRobin::run`]
    /// does not build this list: it makes each game when it is due.
    pub fn schedule(&self, players: usize) -> Vec<ScheduledGame> {
        if self.check_numbers().is_err() {
            return Vec::new();
        }
        let groups = self.groups(players);
        let mut out = Vec::new();
        for (pairing, group) in groups.iter().enumerate() {
            for index in 0..self.games {
                out.push(self.scheduled(pairing, index, group, players));
            }
        }
        out
    }
}

/// What every game of a configuration shares: the checked entrants and the game's
/// identity.
#[derive(Clone, Debug)]
pub(super) struct Prepared {
    /// Each entrant's label.
    pub(super) labels: Vec<String>,
    /// Each entrant's spec in canonical form.
    pub(super) specs: Vec<String>,
    /// The game's short name.
    pub(super) game: String,
    /// The fingerprint of the game's variant.
    pub(super) setup: String,
    pub(super) turn_limit: usize,
    pub(super) players: usize,
    /// The pairings' entrant indices.
    pub(super) groups: Vec<Vec<usize>>,
    /// Games in the schedule.
    pub(super) total: usize,
}

/// The entrants of a round robin resolved for a game ([`RoundRobin::resolve`]): each
/// entrant's spec parsed and checked once, with the recipe every game builds its agent
/// from. Cheap to clone.
pub struct Resolved<G: Game> {
    /// The entrants, in the configuration's order.
    pub entrants: Vec<Entrant>,
    /// Each entrant's recipe, in the same order.
    pub recipes: Vec<Recipe<G>>,
}

// By hand: a derive would ask `G: Clone` / `G: Debug` of the game.
impl<G: Game> Clone for Resolved<G> {
    fn clone(&self) -> Self {
        Resolved {
            entrants: self.entrants.clone(),
            recipes: self.recipes.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Resolved<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Resolved")
            .field("entrants", &self.entrants)
            .field("recipes", &self.recipes)
            .finish()
    }
}

impl RoundRobin {
    /// Resolves every entrant's spec for `game` with `registry`, once; play the result
    /// with [`RoundRobin::run_resolved`] (what [`RoundRobin::run`] does). A front end that
    /// wants its own words for a bad spec resolves first and plays after.
    ///
    /// # Errors
    /// [`ArenaError::Entrant`] for an empty list, an entrant that does not parse or a
    /// label given twice; [`ArenaError::Spec`] for a spec that does not resolve.
    pub fn resolve<G: Game>(
        &self,
        game: &G,
        registry: &AgentRegistry<G>,
    ) -> Result<Resolved<G>, ArenaError> {
        let entrants = self.entrants()?;
        let recipes = entrants
            .iter()
            .map(|e| {
                registry
                    .resolve(game, &e.spec)
                    .map_err(|source| ArenaError::Spec {
                        spec: e.spec_text(),
                        source,
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Resolved { entrants, recipes })
    }

    /// Checks the configuration against `game` (its numbers; `resolved` must be this
    /// configuration's entrants) and works out what every game of it shares, so that
    /// every game builds its agents from the recipes without reading a spec again.
    pub(super) fn prepare<G: Game>(
        &self,
        game: &G,
        resolved: &Resolved<G>,
    ) -> Result<Prepared, ArenaError> {
        self.check_numbers()?;
        let entrants = &resolved.entrants;
        if entrants.len() != self.agents.len() || resolved.recipes.len() != entrants.len() {
            return Err(ArenaError::Config(format!(
                "{} entrants resolved for a configuration of {} agents",
                resolved.recipes.len(),
                self.agents.len()
            )));
        }
        let specs: Vec<String> = entrants.iter().map(Entrant::spec_text).collect();
        let facts = game.facts();
        let turn_limit = self
            .turn_limit
            .or(facts.max_turns)
            .unwrap_or(DEFAULT_TURN_LIMIT);
        let groups = self.groups(facts.players);
        let total = groups.len().checked_mul(self.games).ok_or_else(|| {
            ArenaError::Config(format!(
                "{} pairings x {} games is too many games",
                groups.len(),
                self.games
            ))
        })?;
        Ok(Prepared {
            labels: entrants.iter().map(|e| e.label.clone()).collect(),
            specs,
            game: facts.name.clone(),
            setup: setup_fingerprint(&game.format_state(&game.initial_state())),
            turn_limit,
            players: facts.players,
            groups,
            total,
        })
    }
}

impl Prepared {
    /// The game at schedule position `k`.
    pub(super) fn game_at(&self, config: &RoundRobin, k: usize) -> ScheduledGame {
        let (pairing, index) = (k / config.games, k % config.games);
        config.scheduled(pairing, index, &self.groups[pairing], self.players)
    }
}

/// Plays the scheduled game `g` of the prepared configuration `p` (each seat's agent
/// built from its entrant's recipe with the seed `derive_seed(g.seed, seat)`) and returns
/// its record. Every run of a
/// schedule, on this machine ([`RoundRobin::run`]) or in chunks elsewhere
/// ([`super::chunks`]), plays its games through here, so the same seed gives the same
/// record wherever it ran.
pub(super) fn play_scheduled<G: Game>(
    game: &G,
    recipes: &[Recipe<G>],
    p: &Prepared,
    g: &ScheduledGame,
) -> Result<GameRecord, ArenaError> {
    let mut seats: Vec<_> = g
        .seats
        .iter()
        .enumerate()
        .map(|(seat, &i)| recipes[i].build(game, derive_seed(g.seed, seat as u64)))
        .collect();
    let played = play_game(game, &mut seats, p.turn_limit)?;
    let labels = g.seats.iter().map(|&i| p.labels[i].clone()).collect();
    let specs = g.seats.iter().map(|&i| p.specs[i].clone()).collect();
    Ok(GameRecord::new(
        &p.game,
        &p.setup,
        g.pairing,
        g.index,
        g.seed,
        labels,
        p.turn_limit,
        played,
    )
    .with_specs(specs))
}

/// All `k`-subsets of `0..n`, each sorted, in colexicographic order (by largest element,
/// then the next largest, …), so that the subsets of `0..n` come first among those of
/// `0..n+1`.
fn combinations_colex(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k == 0 || k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        // Colex successor: raise the first element that can move up by one.
        let mut i = 0;
        while i < k {
            let limit = if i + 1 < k { c[i + 1] } else { n };
            if c[i] + 1 < limit {
                break;
            }
            i += 1;
        }
        if i == k {
            return out;
        }
        c[i] += 1;
        for (j, item) in c.iter_mut().enumerate().take(i) {
            *item = j;
        }
    }
}

/// Checks that the record on line `n` of `path` (the `n`th record of a chunk, for records
/// sent back by workers) belongs to the configuration `cfg` prepared as `p`:
/// same game and variant, scheduled, the same entrants (labels and specs) in its seats, the
/// same seed and turn limit.
pub(super) fn check_record(
    path: &Path,
    n: usize,
    r: &GameRecord,
    p: &Prepared,
    cfg: &RoundRobin,
) -> Result<(), ArenaError> {
    let mismatch = |detail: String| ArenaError::Mismatch {
        path: path.to_path_buf(),
        detail: format!(
            "line {n} (game {} of pairing {}): {detail}",
            r.index, r.pairing
        ),
    };
    let game = &p.game;
    if &r.game != game {
        return Err(mismatch(format!(
            "it is a game of {:?}, not {game:?}",
            r.game
        )));
    }
    if r.setup != p.setup {
        return Err(mismatch(format!(
            "it starts from another variant of {game} (setup {} here, {} in the file)",
            p.setup, r.setup
        )));
    }
    if r.pairing >= p.groups.len() || r.index >= cfg.games {
        return Err(mismatch(format!(
            "this configuration ({} agents, {} games per pairing) does not schedule it",
            cfg.agents.len(),
            cfg.games
        )));
    }
    let g = cfg.scheduled(r.pairing, r.index, &p.groups[r.pairing], p.players);
    let labels: Vec<&String> = g.seats.iter().map(|&i| &p.labels[i]).collect();
    if r.seats.iter().collect::<Vec<_>>() != labels {
        return Err(mismatch(format!(
            "its seats are {:?}, this configuration puts {:?} there",
            r.seats, labels
        )));
    }
    let specs: Vec<&String> = g.seats.iter().map(|&i| &p.specs[i]).collect();
    if r.seat_specs().iter().collect::<Vec<_>>() != specs {
        return Err(mismatch(format!(
            "its seats play {:?}, this configuration plays {:?} there",
            r.seat_specs(),
            specs
        )));
    }
    if r.seed != g.seed {
        return Err(mismatch(format!(
            "its seed {} differs from this configuration's {} (another --seed?)",
            r.seed, g.seed
        )));
    }
    if r.turn_limit != p.turn_limit {
        return Err(mismatch(format!(
            "it was played with turn limit {}, this configuration has {}",
            r.turn_limit, p.turn_limit
        )));
    }
    Ok(())
}

/// The records and statistics of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentResult {
    /// The game's short name.
    pub game: String,
    /// The entrants' labels, in the order given (a label is the canonical spec unless one
    /// was given or the spec is listed twice).
    pub agents: Vec<String>,
    /// Every finished game (read back or played now), ordered by pairing and index.
    pub records: Vec<GameRecord>,
    /// Games played by this run.
    pub played: usize,
    /// Games read back from the records file (not replayed).
    pub resumed: usize,
    /// Every agent's results, best first.
    pub standings: Standings,
    /// Pairwise results.
    pub cross_table: CrossTable,
}

impl TournamentResult {
    /// The statistics of `records` (for example read back with
    /// [`super::read_records`]); `played` and `resumed` are left at 0.
    pub fn from_records(game: &str, agents: Vec<String>, records: Vec<GameRecord>) -> Self {
        let standings = Standings::from_records(&agents, &records);
        let cross_table = CrossTable::from_records(&agents, &records);
        TournamentResult {
            game: game.to_string(),
            agents,
            records,
            played: 0,
            resumed: 0,
            standings,
            cross_table,
        }
    }

    /// How many games ended each way: game over, turn limit, forfeits.
    pub fn terminations(&self) -> (usize, usize, usize) {
        use super::play::Termination as T;
        let mut counts = (0, 0, 0);
        for r in &self.records {
            match r.termination {
                T::Terminal => counts.0 += 1,
                T::TurnLimit => counts.1 += 1,
                T::IllegalMove { .. } | T::AgentError { .. } => counts.2 += 1,
            }
        }
        counts
    }

    /// A report for people: the standings, the cross table and how games ended.
    pub fn report(&self, format: TableFormat) -> String {
        let (terminal, limit, forfeit) = self.terminations();
        let mut out = format!(
            "{}: {} games ({} played now, {} from the records file)\n\n",
            self.game,
            self.records.len(),
            self.played,
            self.resumed
        );
        out.push_str("Standings (score: (W + D/2) / games, 95% Wilson interval; Elo against the average opponent):\n\n");
        out.push_str(&self.standings.render(format));
        if self.agents.len() > 2 {
            out.push_str("\nCross table (row's points / games against column):\n\n");
            out.push_str(&self.cross_table.render(format));
        }
        out.push_str(&format!(
            "\nEnded: {terminal} by the rules, {limit} at the turn limit (scored as reached), {forfeit} by forfeit.\n"
        ));
        out
    }
}

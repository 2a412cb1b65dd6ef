//! What `simulate` is asked to play, checked before any game is: the game (an id, or a game
//! directory whose game.toml gives options and players), `--set` and `--sweep` applied to its
//! options, the players, the mix of bots. Every setting is set up once through the engine, so a
//! bad option gets the same error as in game.toml, with the flag that caused it.

use super::{Simulated, Strategy};
use crate::config::PlayerConfig;
use crate::error::{Error, Result};
use crate::games::{GameId, Setup};
use crate::player_id::PlayerId;
use std::path::PathBuf;

/// More games than this would run for hours; a sample of a million already gives win rates to
/// ±0.1%.
pub const MAX_GAMES: u64 = 10_000_000;
/// Settings of one sweep.
pub const MAX_SWEEP: usize = 50;
/// Garnets each generated player starts with (a game id, not a game directory): enough for the
/// items that cost garnets (Room Swap's Peeks and Block, Planar Control's extra votes, God Race's
/// candles) to be in play, as they are in a season.
pub const DEFAULT_GARNETS: i64 = 10;

/// The command line of `simulate`, as parsed.
#[derive(Debug, Clone)]
pub struct Request {
    /// A game id, or a game directory.
    pub target: String,
    pub games: u64,
    pub players: Option<usize>,
    pub garnets: Option<i64>,
    /// `options.KEY=VALUE`, each.
    pub set: Vec<String>,
    /// `options.KEY=A..B`.
    pub sweep: Option<String>,
    pub bots: Option<String>,
    pub seed: u64,
    pub jobs: Option<usize>,
    pub out: Option<PathBuf>,
    pub quiet: bool,
}

/// What is simulated before the flags apply: a game's defaults, or a game directory's game.toml.
pub struct Base {
    pub game: GameId,
    /// "god-race (the rules' defaults)" or the game.toml path.
    pub source: String,
    pub options: toml::Table,
    pub players: Option<Vec<PlayerConfig>>,
}

impl Base {
    /// A game id, or a directory holding game.toml.
    pub fn find(target: &str) -> Result<Base> {
        if let Some(game) = GameId::parse(target) {
            return Ok(Base {
                game,
                source: format!("{target} (the rules' defaults)"),
                options: toml::Table::new(),
                players: None,
            });
        }
        let path = PathBuf::from(target).join("game.toml");
        if !path.is_file() {
            return Err(Error::Usage(format!(
                "`{target}` is neither a game id ({}) nor a game directory with a game.toml",
                GameId::ALL
                    .iter()
                    .filter(|g| !g.is_season_round())
                    .map(|g| g.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let text = std::fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
        let config = crate::config::GameConfig::parse(&path, &text)?;
        Ok(Base {
            game: config.game,
            source: path.display().to_string(),
            options: config.options,
            players: Some(config.players),
        })
    }
}

/// One setting: the options and players every game of it is set up with.
#[derive(Debug, Clone)]
pub struct Setting {
    /// "spaces = 12", or "as given" for a run without a sweep.
    pub label: String,
    /// The swept value, if this setting is one of a sweep.
    pub value: Option<i64>,
    pub options: toml::Table,
    pub players: Vec<PlayerConfig>,
    /// One per player; shuffled into seats every game.
    pub bots: Vec<Strategy>,
    pub seed: u64,
}

/// A checked request.
pub struct Simulation {
    pub game: GameId,
    pub source: String,
    pub games: u64,
    pub seed: u64,
    pub jobs: usize,
    /// The swept option's key (`selfish_hand`), if any.
    pub sweep: Option<String>,
    /// `--set` as given, for the heading.
    pub set: Vec<String>,
    pub settings: Vec<Setting>,
}

impl Simulation {
    pub fn new<G: Simulated>(request: &Request, base: Base) -> Result<Simulation> {
        let usage = |m: String| Error::Usage(m);
        if request.games == 0 || request.games > MAX_GAMES {
            return Err(usage(format!(
                "--games {}: give 1 to {MAX_GAMES} games",
                request.games
            )));
        }
        let mut options = base.options;
        for set in &request.set {
            let (key, value) = option_assignment(set, "--set")?;
            options.insert(key, value);
        }
        let sweep = request
            .sweep
            .as_deref()
            .map(|s| parse_sweep(s, &options))
            .transpose()?;
        let garnets = request.garnets.unwrap_or(DEFAULT_GARNETS);
        if !(0..=crate::games::MAX_GARNETS).contains(&garnets) {
            return Err(usage(format!(
                "--garnets {garnets}: a balance is from 0 to {}",
                crate::games::MAX_GARNETS
            )));
        }
        let players = match (request.players, base.players) {
            (None, Some(given)) if request.garnets.is_none() => given,
            (None, Some(given)) => given
                .into_iter()
                .map(|p| PlayerConfig { garnets, ..p })
                .collect(),
            (Some(k), _) => generated(k, garnets)?,
            (None, None) => generated(G::DEFAULT_PLAYERS, garnets)?,
        };
        let bots = mix::<G>(request.bots.as_deref(), players.len())?;
        let settings: Vec<Setting> = match &sweep {
            None => vec![Setting {
                label: "as given".into(),
                value: None,
                options,
                players,
                bots,
                seed: request.seed,
            }],
            Some((key, values)) => values
                .iter()
                .map(|v| {
                    let mut options = options.clone();
                    options.insert(key.clone(), toml::Value::Integer(*v));
                    Setting {
                        label: format!("{key} = {v}"),
                        value: Some(*v),
                        options,
                        players: players.clone(),
                        bots: bots.clone(),
                        seed: request.seed,
                    }
                })
                .collect(),
        };
        for setting in &settings {
            check_setting::<G>(
                setting,
                request.seed,
                sweep.as_ref().map(|(k, _)| k.as_str()),
            )?;
        }
        let jobs = request.jobs.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
        });
        if !(1..=256).contains(&jobs) {
            return Err(usage(format!("--jobs {jobs}: give 1 to 256")));
        }
        Ok(Simulation {
            game: G::ID,
            source: base.source,
            games: request.games,
            seed: request.seed,
            jobs,
            sweep: sweep.map(|(k, _)| k),
            set: request.set.clone(),
            settings,
        })
    }
}

/// A setting sets up, or the error names the flag to change (`sweep`: the swept key).
fn check_setting<G: Simulated>(setting: &Setting, seed: u64, sweep: Option<&str>) -> Result<()> {
    G::setup(&Setup {
        players: crate::config::seats(&setting.players),
        options: &setting.options,
        seed,
    })
    .map(|_| ())
    .map_err(|e| {
        let flag = if e.key == "players" || e.key.starts_with("players[") {
            "--players"
        } else if sweep.is_some_and(|k| e.key.ends_with(k)) {
            "--sweep"
        } else {
            "--set (or game.toml)"
        };
        Error::Usage(format!("{}: {} (from {flag})", e.key, e.message))
    })
}

/// The one setting of `G`'s defaults played by `bots` from `seed`, for the bots' tests.
#[cfg(test)]
pub(crate) fn test_setting<G: Simulated>(bots: &str, seed: u64) -> Setting {
    test_setting_with::<G>(bots, seed, &[])
}

/// `test_setting` with `--set` assignments (`options.max_rounds=3`).
#[cfg(test)]
pub(crate) fn test_setting_with<G: Simulated>(bots: &str, seed: u64, set: &[&str]) -> Setting {
    let request = Request {
        target: G::ID.name().into(),
        games: 1,
        players: None,
        garnets: None,
        set: set.iter().map(|s| (*s).to_owned()).collect(),
        sweep: None,
        bots: Some(bots.into()),
        seed,
        jobs: Some(1),
        out: None,
        quiet: true,
    };
    let base = Base::find(G::ID.name()).expect("a game id");
    Simulation::new::<G>(&request, base)
        .expect("the defaults are a valid setting")
        .settings
        .remove(0)
}

/// `options.KEY=VALUE`: VALUE is read as TOML (`7`, `true`, `"execution"`), or as a string if it
/// is not TOML (`execution`).
fn option_assignment(text: &str, flag: &str) -> Result<(String, toml::Value)> {
    let bad = || {
        Error::Usage(format!(
            "{flag} {text}: write options.KEY=VALUE, e.g. {flag} options.selfish_hand=8"
        ))
    };
    let (key, value) = text.split_once('=').ok_or_else(bad)?;
    let key = key.trim().strip_prefix("options.").ok_or_else(bad)?;
    if key.is_empty() {
        return Err(bad());
    }
    let value = value.trim();
    let parsed = toml::from_str::<toml::Table>(&format!("v = {value}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(value.to_owned()));
    Ok((key.to_owned(), parsed))
}

/// `options.KEY=A..B` (inclusive): the key and its values.
fn parse_sweep(text: &str, options: &toml::Table) -> Result<(String, Vec<i64>)> {
    let bad = |why: &str| {
        Error::Usage(format!(
            "--sweep {text}: {why}; write options.KEY=A..B with whole numbers, e.g. --sweep options.selfish_hand=5..9"
        ))
    };
    let (key, range) = text.split_once('=').ok_or_else(|| bad("no `=`"))?;
    let key = key
        .trim()
        .strip_prefix("options.")
        .ok_or_else(|| bad("the key must start with `options.`"))?;
    if let Some(current) = options.get(key)
        && !current.is_integer()
    {
        return Err(bad(&format!(
            "options.{key} is {}, not a number",
            current.type_str()
        )));
    }
    let (a, b) = range
        .split_once("..")
        .ok_or_else(|| bad("no `..` between the ends"))?;
    let (a, b) = (
        a.trim()
            .parse::<i64>()
            .map_err(|_| bad("the ends are not whole numbers"))?,
        b.trim()
            .trim_start_matches('=')
            .parse::<i64>()
            .map_err(|_| bad("the ends are not whole numbers"))?,
    );
    if a > b {
        return Err(bad("the first end is above the second"));
    }
    if (b - a) as u128 + 1 > MAX_SWEEP as u128 {
        return Err(bad(&format!("at most {MAX_SWEEP} values")));
    }
    Ok((key.to_owned(), (a..=b).collect()))
}

/// `k` players `p01`…, each with `garnets`.
fn generated(k: usize, garnets: i64) -> Result<Vec<PlayerConfig>> {
    if k == 0 || k > 100_000 {
        return Err(Error::Usage(format!("--players {k}: give 1 to 100000")));
    }
    let width = k.to_string().len().max(2);
    Ok((1..=k)
        .map(|i| PlayerConfig {
            id: PlayerId::parse(&format!("p{i:0width$}")).expect("p and digits is an id"),
            name: format!("Player {i}"),
            email: None,
            chat: None,
            garnets,
            tokens_of_life: 0,
            extra: Default::default(),
            tz: None,
        })
        .collect())
}

/// `--bots`: `NAME` (every player), or `NAME=COUNT,…`; names without a count share the players
/// left over. Default: every player plays the game's strategy.
fn mix<G: Simulated>(text: Option<&str>, players: usize) -> Result<Vec<Strategy>> {
    let text = text.unwrap_or(G::STRATEGY);
    let names = format!("random, {}", G::STRATEGY);
    let bad = |why: String| Error::Usage(format!("--bots {text}: {why}"));
    let mut counted = Vec::new();
    let mut rest = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (name, count) = match part.split_once(['=', ':']) {
            Some((n, c)) => (
                n.trim(),
                Some(
                    c.trim()
                        .parse::<usize>()
                        .map_err(|_| bad(format!("`{c}` is not a number of players")))?,
                ),
            ),
            None => (part, None),
        };
        let strategy = Strategy::ALL
            .into_iter()
            .find(|s| s.name::<G>() == name)
            .ok_or_else(|| {
                bad(format!(
                    "`{name}` is not a {} bot; the bots are {names}",
                    G::ID.name()
                ))
            })?;
        match count {
            Some(c) => counted.push((strategy, c)),
            None => rest.push(strategy),
        }
    }
    let fixed: usize = counted.iter().map(|(_, c)| c).sum();
    if fixed > players
        || (rest.is_empty() && fixed != players)
        || (counted.is_empty() && rest.is_empty())
    {
        return Err(bad(format!(
            "the counts add up to {fixed}, and the game has {players} players"
        )));
    }
    let mut bots: Vec<Strategy> = counted
        .iter()
        .flat_map(|(s, c)| std::iter::repeat_n(*s, *c))
        .collect();
    let left = players - fixed;
    for (i, s) in rest.iter().enumerate() {
        let share = left / rest.len() + usize::from(i < left % rest.len());
        bots.extend(std::iter::repeat_n(*s, share));
    }
    Ok(bots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_values_read_as_toml_or_as_words() {
        assert_eq!(
            option_assignment("options.selfish_hand=8", "--set").unwrap(),
            ("selfish_hand".into(), toml::Value::Integer(8))
        );
        assert_eq!(
            option_assignment("options.traitor=execution", "--set").unwrap(),
            ("traitor".into(), toml::Value::String("execution".into()))
        );
        assert!(option_assignment("selfish_hand=8", "--set").is_err());
    }

    #[test]
    fn sweeps_are_whole_number_ranges_on_numeric_options() {
        let none = toml::Table::new();
        assert_eq!(
            parse_sweep("options.spaces=10..12", &none).unwrap(),
            ("spaces".into(), vec![10, 11, 12])
        );
        assert!(parse_sweep("options.spaces=12..10", &none).is_err());
        assert!(parse_sweep("options.spaces=1..100", &none).is_err());
        assert!(parse_sweep("options.spaces=a..b", &none).is_err());
        let mut words = toml::Table::new();
        words.insert("traitor".into(), toml::Value::String("execution".into()));
        let err = parse_sweep("options.traitor=1..2", &words).unwrap_err();
        assert!(err.to_string().contains("not a number"), "{err}");
    }
}

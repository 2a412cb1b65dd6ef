//! season.toml: the season's title and seed, the mail settings every match gets, and the cast
//! (id, name, email, chat, starting garnets), checked as strictly as game.toml.

use crate::config::{MailConfig, PlayerConfig, RawMail, RawPlayer, parse_mail, parse_players};
use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::Path;

#[derive(Debug, Clone)]
pub struct SeasonConfig {
    pub title: String,
    pub seed: u64,
    pub mail: MailConfig,
    /// `[mail]` as written, copied into every match's game.toml.
    pub mail_table: Option<toml::Table>,
    pub cast: Vec<PlayerConfig>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSeason {
    title: String,
    seed: u64,
    mail: Option<RawMail>,
    #[serde(default)]
    players: Vec<RawPlayer>,
}

impl SeasonConfig {
    pub fn parse(path: &Path, text: &str) -> Result<SeasonConfig> {
        let raw: RawSeason = crate::host_file::parse(path, text)?;
        let mail_table = toml::from_str::<toml::Table>(text)
            .ok()
            .and_then(|t| t.get("mail").and_then(|m| m.as_table()).cloned());
        let mut errors = Vec::new();
        let bad = |key: &str, msg: String| Error::invalid(path, key, msg);
        if raw.title.trim().is_empty() {
            errors.push(bad("title", "must not be empty".into()));
        }
        let mail = parse_mail(path, raw.mail).map_err(|e| errors.push(e)).ok();
        if raw.players.is_empty() {
            errors.push(bad(
                "players",
                "the cast needs at least one [[players]] entry".into(),
            ));
        }
        let cast = parse_players(path, raw.players, &mut errors);
        for (i, p) in cast.iter().enumerate() {
            if let Some(key) = p.extra.keys().next() {
                errors.push(bad(
                    &format!("players[{i}].{key}"),
                    "is not a key of the cast (id, name, email, chat, garnets); a game's own \
                     keys go in its match's game.toml"
                        .into(),
                ));
            }
            if p.tokens_of_life > 0 {
                errors.push(bad(
                    &format!("players[{i}].tokens_of_life"),
                    "Tokens of Life are won in matches; grant one with `adjudicate season event \
                     SEASON tokens ID --change 1 --reason …`"
                        .into(),
                ));
            }
        }
        let (Some(mail), true) = (mail, errors.is_empty()) else {
            return Err(Error::several(
                errors
                    .into_iter()
                    .map(|e| crate::host_file::placed(e, text))
                    .collect(),
            ));
        };
        Ok(SeasonConfig {
            title: raw.title,
            seed: raw.seed,
            mail,
            mail_table,
            cast,
        })
    }

    pub fn load(path: &Path) -> Result<SeasonConfig> {
        SeasonConfig::parse(path, &crate::game_dir::read_string(path)?)
    }

    pub fn player(&self, id: &crate::player_id::PlayerId) -> Option<&PlayerConfig> {
        self.cast.iter().find(|p| &p.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "title = \"Season 1\"\nseed = 7\n[mail]\ntransport = \"file\"\nfrom = \"Host <host@example.org>\"\n\n[[players]]\nid = \"alice\"\nname = \"Alice\"\ngarnets = 5\n";

    #[test]
    fn a_season_reads_its_cast_and_keeps_mail_as_written() {
        let season = SeasonConfig::parse(Path::new("season.toml"), GOOD).unwrap();
        assert_eq!(season.cast.len(), 1);
        assert_eq!(season.cast[0].garnets, 5);
        assert_eq!(
            season.mail_table.unwrap()["transport"].as_str(),
            Some("file")
        );
    }

    #[test]
    fn game_keys_and_tokens_in_the_cast_are_refused_with_their_key() {
        for (add, says) in [
            (
                "meadow = \"red\"\n",
                "season.toml:10:1: players[0].meadow: is not a key of the cast",
            ),
            (
                "tokens_of_life = 1\n",
                "players[0].tokens_of_life: Tokens of Life are won in matches",
            ),
            ("garnets = -1\n", "players[0].garnets"),
        ] {
            let text = GOOD.replace("garnets = 5\n", "") + add;
            let err = SeasonConfig::parse(Path::new("season.toml"), &text)
                .unwrap_err()
                .to_string();
            assert!(err.contains(says), "{add}: {err}");
        }
        let err = SeasonConfig::parse(Path::new("season.toml"), &GOOD.replace("seed", "sed"))
            .unwrap_err()
            .to_string();
        assert!(err.contains("sed"), "{err}");
    }
}

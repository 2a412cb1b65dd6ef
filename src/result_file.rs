//! `result.toml` and the reports rendered from it. Tick, `render` and `replay` all go through here,
//! so a report is always a function of `result.toml`, game.toml and the templates.

mod private_toml;

use crate::clock;
use crate::context::{GameContext, Known};
use crate::error::{Error, Result};
use crate::games::{Game, PrivatePart, Public, RoundResult, Seats};
use crate::plan::EarlyFolder;
use crate::player_id::PlayerId;
use crate::render::GameInfo;
use crate::render::{Kind, PrivateContext, PublicContext, Renderer};
use crate::result_meta::Meta;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The whole of `rounds/NNN/result.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultFile {
    pub meta: Meta,
    pub public: Public,
    #[serde(default)]
    pub private: Seats<PrivatePart>,
    #[serde(default)]
    pub garnets: Seats<i64>,
}

/// Players from which a round's reports are rendered on every core (below, a thread costs more
/// than it saves).
pub const PARALLEL_FROM: usize = 256;

pub struct Reports {
    pub public: String,
    pub private: BTreeMap<PlayerId, String>,
}

impl ResultFile {
    /// When the round stopped taking versions (`meta.closed`), if the file says.
    pub fn closed(&self) -> Option<jiff::Timestamp> {
        self.meta
            .closed
            .as_deref()
            .and_then(|c| clock::parse_instant(c).ok())
    }

    pub fn new(
        ctx: &GameContext,
        round: u32,
        index: u32,
        next_round: Option<u32>,
        closed: Option<jiff::Timestamp>,
        result: RoundResult,
    ) -> ResultFile {
        ResultFile {
            meta: Meta {
                game: ctx.config.game.name().to_owned(),
                round,
                index,
                next_round,
                next_deadline: next_round
                    .and_then(|_| ctx.deadline_known(index + 1, Known::Through(index)))
                    .map(clock::rfc3339),
                opening: false,
                closed: closed.map(clock::rfc3339),
            },
            public: result.public,
            private: result.private,
            garnets: result.garnets,
        }
    }

    /// The announcement made at set-up (`Game::opening`), kept as round 0 of the archive; its
    /// "next" deadline is the first round's.
    pub fn opening(ctx: &GameContext, first_round: u32, result: RoundResult) -> ResultFile {
        ResultFile {
            meta: Meta {
                game: ctx.config.game.name().to_owned(),
                round: 0,
                index: 0,
                next_round: Some(first_round),
                next_deadline: ctx.deadline_known(0, Known::Nothing).map(clock::rfc3339),
                opening: first_round == 0,
                closed: None,
            },
            public: result.public,
            private: result.private,
            garnets: result.garnets,
        }
    }

    /// Every resolved round of a game, in order: the opening kept apart (God Race), then round by
    /// round.
    pub fn all(ctx: &GameContext) -> Result<Vec<ResultFile>> {
        let numbers = ctx.dir.round_numbers()?;
        let mut found = Vec::new();
        let opening = ctx.dir.round(0).join("opening").join("result.toml");
        if let Some(text) = crate::game_dir::read_optional(&opening)? {
            found.push(ResultFile::parse(&opening, &text)?);
        }
        for n in numbers {
            if ctx.dir.result(n).is_file() {
                found.push(ResultFile::load(ctx, n)?);
            }
        }
        Ok(found)
    }

    /// The folder this result and its reports are written to.
    pub fn folder(&self, dir: &crate::game_dir::GameDir) -> std::path::PathBuf {
        if self.meta.opening {
            dir.round(0).join("opening")
        } else {
            dir.round(self.meta.round)
        }
    }

    pub fn parse(path: &Path, text: &str) -> Result<ResultFile> {
        crate::host_file::parse(path, text)
    }

    /// Round `round`'s result.toml, checked against game.toml: the game, the round, and every
    /// player it names.
    pub fn load(ctx: &GameContext, round: u32) -> Result<ResultFile> {
        let path = ctx.dir.result(round);
        let result = ResultFile::parse(&path, &crate::game_dir::read_string(&path)?)?;
        let bad = |key: &str, message: String| Err(Error::invalid(&path, key, message));
        if result.meta.game != ctx.config.game.name() {
            return bad(
                "meta.game",
                format!(
                    "is `{}` but game.toml plays `{}`",
                    result.meta.game,
                    ctx.config.game.name()
                ),
            );
        }
        if result.meta.round != round {
            return bad(
                "meta.round",
                format!(
                    "is {} but the file is in round {round}'s folder",
                    result.meta.round
                ),
            );
        }
        if let Some(closed) = &result.meta.closed
            && let Err(why) = clock::parse_instant(closed)
        {
            return bad("meta.closed", why);
        }
        let named = result.private.keys().map(|id| ("private", id));
        let named = named.chain(result.garnets.keys().map(|id| ("garnets", id)));
        for (table, id) in named {
            if ctx.config.player(id).is_none() {
                return bad(
                    &format!("{table}.{id}"),
                    "is not a player of game.toml".into(),
                );
            }
        }
        for (id, change) in &result.garnets {
            if change.unsigned_abs() > crate::games::MAX_GARNETS.unsigned_abs() {
                return bad(
                    &format!("garnets.{id}"),
                    format!(
                        "is {change}; a round changes a balance by at most {}",
                        crate::games::MAX_GARNETS
                    ),
                );
            }
        }
        Ok(result)
    }

    /// The file's text. Serialized a player at a time: the same text as one `toml::to_string`
    /// of the whole, but linear in players (the whole document at once grew faster than that).
    pub fn to_toml(&self) -> String {
        crate::host_file::join_parts(self.toml_parts(Vec::new()))
    }

    /// `to_toml` in parts (`host_file::parts_of`), with the `[private.<id>]` sections already
    /// written (`private_section`) where `written[i]` holds the section of the player at index
    /// `i` of `private`.
    fn toml_parts(&self, mut written: Vec<Option<String>>) -> Vec<String> {
        #[derive(Serialize)]
        struct Head<'a> {
            meta: &'a Meta,
            public: &'a Public,
        }
        #[derive(Serialize)]
        struct Tail<'a> {
            garnets: &'a Seats<i64>,
        }
        let head = toml::to_string(&Head {
            meta: &self.meta,
            public: &self.public,
        })
        .expect("results serialize");
        written.resize(self.private.len(), None);
        for ((id, part), section) in self.private.iter().zip(&mut written) {
            section.get_or_insert_with(|| private_section(id, &part.value()));
        }
        let tail = (!self.garnets.is_empty()).then(|| {
            toml::to_string(&Tail {
                garnets: &self.garnets,
            })
            .expect("results serialize")
        });
        crate::host_file::parts_of(
            std::iter::once(head)
                .chain(written.into_iter().flatten())
                .chain(tail)
                .collect(),
        )
    }

    /// What the templates see of the round itself (`game`).
    fn game_info(&self, ctx: &GameContext) -> crate::render::GameInfo {
        // An opening (written at set-up, never closed) knew no host action; a resolved round,
        // those taken up to its resolution (so `replay` renders it as it was).
        let known = if self.meta.opening || self.meta.closed.is_none() {
            Known::Nothing
        } else {
            Known::Through(self.meta.index)
        };
        let mut game = ctx.game_info_known(
            self.meta.round,
            self.meta.index,
            self.meta.next_round,
            known,
        );
        if let Some(next) = &self.meta.next_deadline {
            game.next_deadline_at = clock::parse_instant(next).ok();
            game.next_deadline = game
                .next_deadline_at
                .map(|t| clock::human_in(t, ctx.config.zone()));
        }
        game
    }

    /// The public announcement alone, from `[public]` (the site's pages show it).
    pub fn render_public(&self, ctx: &GameContext, renderer: &Renderer) -> Result<String> {
        self.render_public_in(ctx, renderer, None)
    }

    /// The public announcement as readers in `zone` read its times (`None`: the game's zone).
    pub fn render_public_in(
        &self,
        ctx: &GameContext,
        renderer: &Renderer,
        zone: Option<&jiff::tz::TimeZone>,
    ) -> Result<String> {
        let game = self.game_info(ctx);
        let game = match zone {
            Some(zone) => game.in_zone(Some(zone)),
            None => game,
        };
        let text = renderer.render(
            Kind::Public,
            &PublicContext {
                game: &game,
                public: &self.public,
            },
        )?;
        Ok(self.marked(ctx, text))
    }

    /// Whether this is a round resolved again after the host withdrew its first results
    /// (`adjudicate undo`): its reports say "(corrected)" on their first line.
    pub fn corrected(&self, ctx: &GameContext) -> bool {
        !self.meta.opening && self.meta.closed.is_some() && ctx.undos(self.meta.index) > 0
    }

    /// A report's text, "(corrected)" after its first line's words when the round is resolved
    /// again, so nobody takes the new reports for a copy of the withdrawn ones.
    fn marked(&self, ctx: &GameContext, text: String) -> String {
        if !self.corrected(ctx) {
            return text;
        }
        let end = text.find('\n').unwrap_or(text.len());
        let mut out = String::with_capacity(text.len() + 12);
        out.push_str(&text[..end]);
        out.push_str(" (corrected)");
        out.push_str(&text[end..]);
        out
    }

    /// Whose seats the reports were written to: at set-up for an opening, else when the round
    /// resolved (`GameContext::name_at`).
    pub fn held(&self) -> Option<u32> {
        (!self.meta.opening).then_some(self.meta.index)
    }

    pub fn render<G: Game>(&self, ctx: &GameContext, renderer: &Renderer) -> Result<Reports> {
        let (public, each) = self.render_each::<G, _>(ctx, renderer, |_, text, _| Ok(text))?;
        Ok(Reports {
            public,
            private: each.into_iter().collect(),
        })
    }

    /// The reports and the file's text (`to_toml`) in parts (`toml_parts`: a large round's
    /// text is written from its sections, never joined in memory), as a tick writes them: each
    /// player's part is built once, by the thread that renders their report, which writes the
    /// report as `<id>.txt` into `folder` if there is one (a tick's new `private/`,
    /// `Plan::early_folder`) and the player's `[private.<id>]` section; only the reports `keep`
    /// asks for are kept (those to be mailed or written later), so a large round holds neither
    /// every player's tree nor every report at once.
    pub fn render_with_text<G: Game>(
        &self,
        ctx: &GameContext,
        renderer: &Renderer,
        folder: Option<&EarlyFolder>,
        keep: impl Fn(&PlayerId) -> bool + Sync,
    ) -> Result<(Reports, Vec<String>)> {
        let (public, each) = self.render_each::<G, _>(ctx, renderer, |id, text, part| {
            if let Some(folder) = folder {
                folder.write(&format!("{id}.txt"), text.as_bytes())?;
            }
            let section = self
                .private
                .index_of(id)
                .map(|i| (i, private_section(id, part)));
            Ok((keep(id).then_some(text), section))
        })?;
        let mut written = vec![None; self.private.len()];
        let mut private = BTreeMap::new();
        for (id, (text, section)) in each {
            if let Some((i, section)) = section {
                written[i] = Some(section);
            }
            if let Some(text) = text {
                private.insert(id, text);
            }
        }
        Ok((Reports { public, private }, self.toml_parts(written)))
    }

    /// The public announcement, and `each` of every player's private report (with the player's
    /// part as the report read it), in roster order.
    fn render_each<G: Game, T: Send>(
        &self,
        ctx: &GameContext,
        renderer: &Renderer,
        each: impl Fn(&PlayerId, String, &serde_json::Value) -> Result<T> + Sync,
    ) -> Result<(String, Vec<(PlayerId, T)>)> {
        renderer.prepare(&[Kind::Public, Kind::Private])?;
        let game = self.game_info(ctx);
        let public = renderer.render(
            Kind::Public,
            &PublicContext {
                game: &game,
                public: &self.public,
            },
        )?;
        let public = self.marked(ctx, public);
        let empty = PrivatePart::default();
        // (the table alone: a part per seat is the announcement's, not a report's)
        let view = G::private_view(self.public.table());
        let shared = PrivateContext::shared(&game, &view);
        // players with their own time zone read the game's times in it: one shared part per zone
        let zoned: Vec<(&jiff::tz::TimeZone, GameInfo)> = ctx
            .config
            .players
            .iter()
            .filter_map(|p| p.tz.as_ref())
            .fold(Vec::new(), |mut zones, tz| {
                if !zones.iter().any(|(z, _)| *z == tz) {
                    zones.push((tz, game.in_zone(Some(tz))));
                }
                zones
            });
        let zoned_shared: Vec<_> = zoned
            .iter()
            .map(|(tz, info)| (*tz, PrivateContext::shared(info, &view)))
            .collect();
        let render_one = |p: &crate::config::PlayerConfig| -> Result<(PlayerId, T)> {
            let shared = match &p.tz {
                Some(tz) => {
                    &zoned_shared
                        .iter()
                        .find(|(z, _)| *z == tz)
                        .expect("every zone")
                        .1
                }
                None => &shared,
            };
            let part = self.private.get(&p.id).unwrap_or(&empty).value();
            let context = PrivateContext::for_player(
                shared,
                &ctx.player_info_at(&p.id, self.held()),
                &part,
                self.garnets.get(&p.id).copied().unwrap_or(0),
            );
            let text = self.marked(ctx, renderer.render_layered(Kind::Private, &context)?);
            Ok((p.id.clone(), each(&p.id, text, &part)?))
        };
        // Private reports are independent: large games render them on every core (rayon hands
        // out the players as threads become free, so a thread slowed by another process does
        // not hold up the round). The results come in roster order, whichever thread finished
        // first.
        let players = &ctx.config.players;
        let private = if players.len() < PARALLEL_FROM {
            players.iter().map(render_one).collect::<Result<Vec<_>>>()?
        } else {
            use rayon::prelude::*;
            players
                .par_iter()
                .with_min_len(16)
                .map(render_one)
                .collect::<Result<Vec<_>>>()?
        };
        Ok((public, private))
    }
}

/// One player's `[private.<id>]` section of result.toml, with `part`: written directly for the
/// usual shapes (`private_toml`), else by the toml crate.
fn private_section(id: &PlayerId, part: &serde_json::Value) -> String {
    #[derive(Serialize)]
    struct One<'a> {
        private: BTreeMap<&'a PlayerId, &'a serde_json::Value>,
    }
    let by_crate = || {
        toml::to_string(&One {
            private: [(id, part)].into(),
        })
        .expect("results serialize")
    };
    match part
        .as_object()
        .and_then(|map| private_toml::private_part(id.as_str(), map))
    {
        Some(text) => {
            debug_assert_eq!(text, by_crate(), "result.toml's [private.{id}]");
            text
        }
        None => by_crate(),
    }
}

/// A report's (or any message's) text without its signature: every one ends with the same
/// `-- ` line and what follows.
pub fn without_signature(text: &str) -> &str {
    text.split("\n-- \n").next().unwrap_or(text).trim_end()
}

/// The skeleton that ends `player`'s latest report (the one that asked for `round`: the previous
/// round's, or the opening's), copied into a reminder so that it too can be answered by editing.
pub fn latest_skeleton(ctx: &GameContext, round: u32, player: &PlayerId) -> Option<String> {
    let file = format!("{player}.txt");
    let reports = [
        round.checked_sub(1).map(|r| ctx.dir.private(r, player)),
        Some(ctx.dir.round(0).join("opening").join("private").join(&file)),
    ];
    let text = reports
        .into_iter()
        .flatten()
        .find_map(|p| std::fs::read_to_string(p).ok())?;
    let start = text.find("# Reply with this")?;
    let end = text[start..]
        .find("\n-- \n")
        .map_or(text.len(), |e| start + e + 1);
    Some(text[start..end].to_owned())
}

/// The players of `players` the rules defaulted (`[public] defaults`) in each of the last `limit`
/// resolved rounds before `round`, with `[schedule] missed_limit`'s count: the ones to flag.
pub fn missed_in_a_row(
    ctx: &GameContext,
    round: u32,
    players: &[PlayerId],
    limit: u32,
) -> Result<Vec<PlayerId>> {
    let mut still: Vec<PlayerId> = players.to_vec();
    for back in 1..=limit {
        let Some(r) = round.checked_sub(back) else {
            return Ok(Vec::new());
        };
        let path = ctx.dir.result(r);
        let Some(text) = crate::game_dir::read_optional(&path)? else {
            return Ok(Vec::new());
        };
        let table: toml::Table = toml::from_str(&text)
            .map_err(|e| crate::error::Error::invalid(&path, "", e.message().to_owned()))?;
        let defaults: Vec<&str> = table
            .get("public")
            .and_then(|p| p.get("defaults"))
            .and_then(|d| d.as_array())
            .map(|d| d.iter().filter_map(|v| v.as_str()).collect())
            .unwrap_or_default();
        still.retain(|p| defaults.contains(&p.as_str()));
        if still.is_empty() {
            break;
        }
    }
    Ok(still)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_is_that_of_the_whole_document_and_reads_back() {
        let mut private = BTreeMap::new();
        for id in ["alice", "bob"] {
            let table: PrivatePart =
                toml::from_str("room = \"attic\"\nnotes = []\n[next]\nround = 2\n").unwrap();
            private.insert(PlayerId::parse(id).unwrap(), table);
        }
        let result = ResultFile {
            meta: Meta {
                game: "room-swap".into(),
                round: 1,
                index: 0,
                next_round: Some(2),
                next_deadline: None,
                opening: false,
                closed: Some("2026-12-02T10:00:00Z".into()),
            },
            public: toml::from_str("round = 1\n[next]\nround = 2\n").unwrap(),
            private: private.into(),
            garnets: [(PlayerId::parse("alice").unwrap(), -2)]
                .into_iter()
                .collect(),
        };
        let text = result.to_toml();
        assert_eq!(text, toml::to_string(&result).unwrap());
        assert_eq!(
            ResultFile::parse(Path::new("result.toml"), &text).unwrap(),
            result
        );
    }
}

//! `result.toml` and the reports rendered from it. Tick, `render` and `replay` all go through here,
//! so a report is always a function of `result.toml`, game.toml and the templates.

use crate::clock;
use crate::config::parse_host_file;
use crate::context::GameContext;
use crate::error::Result;
use crate::games::RoundResult;
use crate::player_id::PlayerId;
use crate::render::{Kind, PrivateContext, PublicContext, Renderer};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The whole of `rounds/NNN/result.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultFile {
    pub meta: Meta,
    pub public: toml::Table,
    #[serde(default)]
    pub private: BTreeMap<PlayerId, toml::Table>,
    #[serde(default)]
    pub garnets: BTreeMap<PlayerId, i64>,
}

/// Facts about the round itself, not about play: which round, where it sits in the schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Meta {
    pub game: String,
    pub round: u32,
    /// How many rounds were resolved before this one (the schedule index).
    pub index: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_round: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_deadline: Option<String>,
}

pub struct Reports {
    pub public: String,
    pub private: BTreeMap<PlayerId, String>,
}

impl ResultFile {
    pub fn new(
        ctx: &GameContext,
        round: u32,
        index: u32,
        next_round: Option<u32>,
        result: RoundResult,
    ) -> ResultFile {
        ResultFile {
            meta: Meta {
                game: ctx.config.game.name().to_owned(),
                round,
                index,
                next_round,
                next_deadline: next_round
                    .and_then(|_| ctx.deadline(index + 1))
                    .map(clock::rfc3339),
            },
            public: result.public,
            private: result.private,
            garnets: result.garnets,
        }
    }

    pub fn parse(path: &Path, text: &str) -> Result<ResultFile> {
        parse_host_file(path, text)
    }

    pub fn to_toml(&self) -> String {
        toml::to_string(self).expect("results serialize")
    }

    pub fn render(&self, ctx: &GameContext, renderer: &Renderer) -> Result<Reports> {
        let mut game = ctx.game_info(self.meta.round, self.meta.index, self.meta.next_round);
        if let Some(next) = &self.meta.next_deadline {
            game.next_deadline = clock::parse_instant(next).ok().map(clock::human);
        }
        let public = renderer.render(
            Kind::Public,
            &PublicContext {
                game: &game,
                public: &self.public,
            },
        )?;
        let empty = toml::Table::new();
        let private = ctx
            .config
            .players
            .iter()
            .map(|p| {
                let context = PrivateContext {
                    game: &game,
                    player: ctx.player_info(&p.id),
                    public: &self.public,
                    private: self.private.get(&p.id).unwrap_or(&empty),
                    garnets: self.garnets.get(&p.id).copied().unwrap_or(0),
                };
                Ok((p.id.clone(), renderer.render(Kind::Private, &context)?))
            })
            .collect::<Result<_>>()?;
        Ok(Reports { public, private })
    }
}

//! `enter`: a version the host enters for a player who sent it another way (spec README, "Host
//! actions"): recorded, then written into the round's `submissions/` with its origin, so the
//! next tick receives and acknowledges it like any version.

use crate::clock;
use crate::context::GameContext;
use crate::error::{Error, Result};
use crate::games::Game;
use crate::host_record::{self, Action, Kind};
use jiff::Timestamp;

/// `enter`: a version the host enters for `player`, who sent it another way (a chat DM, a call).
/// Recorded, then written into the round's `submissions/` with its origin (`source = "host"`,
/// reached when the player sent it, the reason as a note), so the next tick receives it like any
/// version and acknowledges it to the player.
pub fn enter<G: Game>(
    ctx: &GameContext,
    player: &str,
    bytes: &[u8],
    sent: Option<Timestamp>,
    reason: &str,
    now: Timestamp,
) -> Result<(u32, crate::player_id::PlayerId)> {
    let usage = |m: String| Error::Usage(m);
    let file = super::host::set_up::<G>(ctx)?;
    let state = &file.game;
    let (round, index) = (G::round(state), G::rounds_played(state));
    if G::is_over(state) {
        return Err(usage(
            "the game is over: there is no round to enter a version for".into(),
        ));
    }
    let id = super::host::in_the_game(ctx, player, "nothing is entered for them")?;
    if !G::plays(state, &id) {
        return Err(usage(format!("{id} has nothing to send in round {round}")));
    }
    if reason.trim().is_empty() {
        return Err(usage(
            "say why with --reason: it goes into the record and the acknowledgement".into(),
        ));
    }
    let sent = sent.unwrap_or(now);
    if sent > now {
        return Err(usage(format!(
            "--at {} is after now ({}): a version is entered once it was sent",
            clock::human(sent),
            clock::human(now)
        )));
    }
    let opened = file.opened.and_then(|s| Timestamp::from_second(s).ok());
    if let Some(opened) = opened.filter(|o| sent < *o) {
        return Err(usage(format!(
            "--at {} is before round {round} began taking versions ({})",
            clock::human(sent),
            clock::human(opened)
        )));
    }
    let mut origins = crate::ingest::read_origins(ctx, round)?;
    let unfinished = unfinished(ctx, (round, index), &id, reason, &origins)?;
    let action = match unfinished {
        Some(action) => action,
        None => {
            let action = Action {
                player: Some(id.clone()),
                sent: Some(clock::rfc3339(sent)),
                ..Action::next(&ctx.actions, Kind::Enter, index, now, reason)
            };
            host_record::append(&ctx.dir, round, &action)?;
            action
        }
    };
    let sent = action
        .sent
        .as_deref()
        .and_then(|s| clock::parse_instant(s).ok())
        .unwrap_or(sent);
    crate::tick_cache::clear_idle(ctx.dir.root())?;
    let submissions = ctx.dir.submissions(round);
    crate::game_dir::create_dir(&submissions)?;
    origins.origin.insert(
        id.clone(),
        crate::ingest::Origin {
            source: "host".into(),
            reason: Some(action.reason.clone()),
            reached: sent.as_second(),
            sent: sent.as_second(),
            message_id: None,
            sha256: crate::submission::sha256_hex(bytes),
            ignored: Vec::new(),
            notes: vec![format!(
                "Entered for you by the host: {}.",
                action.reason.trim_end_matches('.')
            )],
            lines: Vec::new(),
        },
    );
    // the origin first: a run killed between the two leaves an origin that matches no file
    crate::game_dir::write_atomic(
        &crate::ingest::origins_path(ctx, round),
        origins.to_toml().as_bytes(),
    )?;
    crate::game_dir::write_atomic(&submissions.join(format!("{id}.toml")), bytes)?;
    Ok((round, id))
}

/// The entry a run killed between its record and the version's arrival in submissions/ left
/// unfinished, if the host's `enter` again is for it (same player, same reason, the round's last
/// action, nothing received since): finished instead of recording a second one.
fn unfinished(
    ctx: &GameContext,
    (round, index): (u32, u32),
    id: &crate::player_id::PlayerId,
    reason: &str,
    origins: &crate::ingest::Origins,
) -> Result<Option<Action>> {
    let Some(last) = ctx
        .actions
        .iter()
        .rfind(|a| a.index == index)
        .filter(|a| a.kind == Kind::Enter && a.player.as_ref() == Some(id))
        .filter(|a| a.reason == reason && !entered(ctx, round, a, origins))
    else {
        return Ok(None);
    };
    // (nothing received since: else the version the record stands for is long gone)
    let receipts = crate::receipts::Receipts::load(&ctx.dir, &ctx.config, round)?;
    Ok((!receipts.received_after(last.at())).then(|| last.clone()))
}

/// Whether the version an `enter` recorded reached the round's submissions/: its origin (the
/// host's, dated when the player sent it) and a file of the bytes that origin names.
fn entered(
    ctx: &GameContext,
    round: u32,
    action: &Action,
    origins: &crate::ingest::Origins,
) -> bool {
    let Some(player) = &action.player else {
        return true;
    };
    let sent = action
        .sent
        .as_deref()
        .and_then(|s| clock::parse_instant(s).ok());
    let Some(origin) = origins.origin.get(player) else {
        return false;
    };
    let path = ctx.dir.submissions(round).join(format!("{player}.toml"));
    origin.source == "host"
        && Some(origin.reached) == sent.map(|t| t.as_second())
        && std::fs::read(&path).is_ok_and(|b| crate::submission::sha256_hex(&b) == origin.sha256)
}

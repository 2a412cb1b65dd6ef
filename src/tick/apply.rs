//! How a version is applied, the same for the tick, crash recovery, `replay` and `check`
//! (`finish`, `reapply`), and the checks of a round's archive against state.toml
//! (`check_applied`) and of files put into a closed round (`closed_round_files`).

use crate::context::GameContext;
use crate::doc::Doc;
use crate::error::{Error, Result};
use crate::games::{Game, Outcome};
use crate::player_id::PlayerId;
use crate::problem::Problem;
use crate::receipts::Receipt;

/// A line for each file put into the previous round's `submissions/` after it was resolved:
/// nobody will read it, and the host should hear of it (the tick's summary, `status`).
pub fn closed_round_files(ctx: &GameContext, round: u32) -> Vec<String> {
    let Some(closed) = round.checked_sub(1) else {
        return Vec::new();
    };
    ctx.dir
        .late_files(closed)
        .into_iter()
        .map(|path| {
            format!(
                "{}: round {closed} is closed and this file came after it was resolved; it is not read (round {round}'s files go into {})",
                path.display(),
                ctx.dir.submissions(round).display()
            )
        })
        .collect()
}

/// state.toml agrees with the receipts it says it applied: a player whose latest applied version
/// was valid has a valid choice on file. A hand edit that deleted it (a live table, a meadow)
/// would otherwise drop the player's submission without a word.
pub fn check_applied<G: Game>(
    ctx: &GameContext,
    state: &G::State,
    applied: &[Receipt],
) -> Result<()> {
    if !G::VALID_STAYS {
        return Ok(());
    }
    let mut latest: std::collections::BTreeMap<&PlayerId, &Receipt> =
        std::collections::BTreeMap::new();
    for r in applied.iter().filter(|r| !r.refused) {
        latest.insert(&r.player, r);
    }
    for (player, r) in latest {
        if r.valid && G::plays(state, player) && !G::has_valid(state, player) {
            return Err(Error::invalid(
                ctx.dir.state_toml(),
                format!("players.{player}"),
                format!(
                    "holds no valid choice for {player}, but their version {} of this round was valid and is applied (receipts.toml); restore state.toml from git (or remove it and run `adjudicate replay` to see what it should be)",
                    r.n
                ),
            ));
        }
    }
    Ok(())
}

/// What every path that reads a version (tick, crash recovery, `replay`, `check`) does to the
/// rules' outcome, so all say the same: an invalid version of a player who plays this round says
/// what the deadline will do; no token is quoted back; the problems are in line order and
/// bounded (`Outcome::bound`).
pub fn finish<G: Game>(
    ctx: &GameContext,
    state: &G::State,
    player: &PlayerId,
    outcome: &mut Outcome,
) {
    outcome.plays = G::plays(state, player);
    if !outcome.valid && outcome.if_not_fixed.is_none() && outcome.plays {
        outcome.if_not_fixed = Some(G::if_not_fixed(state, player));
    }
    outcome.redact(&ctx.secrets.redactor);
    outcome.bound();
}

/// Applies an archived version again (crash recovery and `replay`): a refused version changes
/// nothing; any other is read from its `received/` copy and given to the rules.
pub fn reapply<G: Game>(
    ctx: &GameContext,
    state: &mut G::State,
    round: u32,
    receipt: &Receipt,
) -> Result<Outcome> {
    let mut outcome = if receipt.refused {
        Outcome::refused(Problem::general(receipt.problems.join("; ")))
    } else {
        let path = ctx.dir.received(round, &receipt.player, receipt.n);
        let text = crate::game_dir::read_string(&path)?;
        let doc = Doc::parse(&text)
            .map_err(|p| Error::invalid(&path, format!("{}", p.line.unwrap_or(0)), p.message))?;
        G::receive(state, &receipt.player, &doc)
    };
    finish::<G>(ctx, state, &receipt.player, &mut outcome);
    Ok(outcome)
}

/// The state just before the round at schedule index `index` was resolved, rebuilt from the seed
/// and the archive as `replay` does: every round before it resolved again, and its own receipts
/// applied. Also how many receipts that is, and when that round opened (the previous round's
/// `[meta] closed`).
pub fn rebuild_before<G: Game>(
    ctx: &GameContext,
    index: u32,
) -> Result<(G::State, usize, Option<i64>)> {
    let mut state = super::setup::<G>(ctx)?;
    let mut opened = None;
    loop {
        let round = G::round(&state);
        let receipts = crate::receipts::Receipts::load(&ctx.dir, &ctx.config, round)?;
        for receipt in &receipts.list {
            reapply::<G>(ctx, &mut state, round, receipt)?;
        }
        if G::rounds_played(&state) >= index || G::is_over(&state) {
            return Ok((state, receipts.list.len(), opened));
        }
        opened = crate::result_meta::Meta::read(&ctx.dir.result(round))?
            .and_then(|m| m.closed)
            .and_then(|c| crate::clock::parse_instant(&c).ok())
            .map(|t| t.as_second());
        resolve_with_host::<G>(ctx, &mut state)?;
    }
}

/// Resolves the round being played in place (`state` becomes the next round's), with the
/// withdrawals the host took during it applied first (the game's ruling for a seat that
/// leaves): the tick, `replay` and every rebuild resolve through here, so each withdrawal is
/// applied exactly where it happened. On an error `state` is half-way and must be dropped (every
/// caller returns the error).
pub fn resolve_with_host<G: Game>(
    ctx: &GameContext,
    state: &mut G::State,
) -> Result<crate::games::RoundResult> {
    let index = G::rounds_played(state);
    for (player, action) in ctx.withdrawals(index) {
        G::withdraw(state, player).map_err(|message| {
            Error::invalid(
                ctx.dir.host_toml(G::round(state)),
                format!("action[{}].player", action.n - 1),
                format!("{player} cannot leave the game here: {message}"),
            )
        })?;
    }
    Ok(G::resolve_in_place(state, ctx.config.seed))
}

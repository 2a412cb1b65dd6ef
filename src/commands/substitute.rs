//! `adjudicate substitute GAME_DIR SEAT --name NAME --email EMAIL [--chat HANDLE] --reason TEXT`.

use crate::context::GameContext;
use crate::error::{Result, exit};
use crate::games::{Game, WithGame};
use crate::host_record::Person;
use crate::tick::substitute::Substituted;
use std::path::PathBuf;

#[derive(clap::Args)]
#[command(
    after_help = "game.toml's player gets the newcomer's name, email and chat handle (the rest of the \
file as you wrote it), and the seat a new token in secrets.toml if it had one. The newcomer gets a \
welcome holding every private text the seat received so far, in order, their token, and the submission \
the seat owes now; every player gets a public notice; the person who left gets nothing more, and their \
mail is no longer the seat's. Each person's time in the seat is kept in rounds/NNN/host.toml (status \
shows it; a season credits each with their own rounds).\n\
Example: adjudicate substitute ~/games/match7 bob --name \"Dana\" --email dana@example.org --reason \"Bob had to leave; Dana is the first alternate\""
)]
pub struct Args {
    /// The game directory: the folder that holds game.toml, state.toml and rounds/.
    game_dir: PathBuf,
    /// The seat (the player id in game.toml): it keeps this id.
    seat: String,
    /// The newcomer's name, as players will read it.
    #[arg(long)]
    name: String,
    /// The newcomer's mail address.
    #[arg(long)]
    email: String,
    /// The newcomer's chat handle, if they play by chat.
    #[arg(long, value_name = "HANDLE")]
    chat: Option<String>,
    /// Why, for the players' notice and the record.
    #[arg(long)]
    reason: String,
    /// The clock (RFC 3339).
    #[arg(long, value_name = "TIME", value_parser = super::parse_now)]
    now: Option<jiff::Timestamp>,
}

pub fn run(args: Args) -> Result<u8> {
    let (_lock, ctx) = super::lever_game(args.game_dir)?;
    let now = args.now.unwrap_or_else(jiff::Timestamp::now);
    let person = Person {
        name: args.name.trim().to_owned(),
        email: Some(args.email.trim().to_owned()),
        chat: args.chat.map(|c| c.trim().to_owned()),
    };
    let done = crate::games::dispatch(
        ctx.config.game,
        Substitute {
            ctx: &ctx,
            seat: &args.seat,
            person,
            reason: &args.reason,
            now,
        },
    )?;
    let a = &done.action;
    let (new, old) = (a.person.as_ref(), a.left.as_ref());
    println!(
        "{}: round {}: seat {} goes from {} to {} (recorded as action {} in {})",
        ctx.config.title,
        done.round,
        a.player.as_ref().map_or("?", |p| p.as_str()),
        old.map_or("?", |p| p.name.as_str()),
        new.map_or("?", |p| p.name.as_str()),
        a.n,
        ctx.dir.host_toml(done.round).display()
    );
    println!("game.toml: the seat's name, email and chat handle are the newcomer's");
    if done.token {
        println!("secrets.toml: a new token for the seat, told to the newcomer only");
    }
    let sent = done.done.mail.as_ref().map_or(0, |m| m.sent);
    println!(
        "mail: {} queued (the notice, and the newcomer's welcome), {sent} sent",
        done.done.queued
    );
    Ok(done
        .done
        .mail
        .as_ref()
        .map_or(exit::OK, super::mail_problems))
}

struct Substitute<'a> {
    ctx: &'a GameContext,
    seat: &'a str,
    person: Person,
    reason: &'a str,
    now: jiff::Timestamp,
}

impl WithGame for Substitute<'_> {
    type Output = Result<Substituted>;
    fn run<G: Game>(self) -> Self::Output {
        crate::tick::substitute::substitute::<G>(
            self.ctx,
            self.seat,
            self.person,
            self.reason,
            self.now,
            true,
        )
    }
}

//! Messages for players who play by chat: a player with a `chat` handle whom the game does not
//! mail (no `email`, or `[mail] transport = "none"`) gets each acknowledgement, reply and report
//! as a text file the host pastes into a direct message: `outbox/chat/<player>/<name>.txt`, the
//! same name as the mail would have had. Public announcements go to `outbox/chat/_public/` once,
//! for the channel. The host moves a pasted file to `sent/chat/…` (or deletes it); one that is
//! in either place is never written again.

use crate::config::GameConfig;
use crate::game_dir::GameDir;
use crate::player_id::PlayerId;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Where announcements for the channel go (not a player id: ids start with a letter or digit).
pub const PUBLIC: &str = "_public";

/// Whether messages to `player` go out as chat files rather than mail.
pub fn by_chat(config: &GameConfig, player: &PlayerId) -> bool {
    config
        .player(player)
        .is_some_and(|p| p.chat.is_some() && (p.email.is_none() || !config.mail.transport.queues()))
}

/// Whether any player plays by chat (then announcements are written for the channel too).
pub fn any(config: &GameConfig) -> bool {
    config.players.iter().any(|p| by_chat(config, &p.id))
}

/// `outbox/chat/<to>/<name>.txt` for a mail file name `name` (`r001-ack-alice-1.eml`).
pub fn path(dir: &GameDir, to: &str, mail_name: &str) -> PathBuf {
    dir.chat_outbox().join(to).join(txt(mail_name))
}

/// Whether the message is already written (waiting or pasted).
pub fn known(dir: &GameDir, to: &str, mail_name: &str) -> bool {
    path(dir, to, mail_name).exists() || dir.chat_sent().join(to).join(txt(mail_name)).exists()
}

fn txt(mail_name: &str) -> String {
    format!("{}.txt", mail_name.trim_end_matches(".eml"))
}

/// The text to paste: the subject as a first line, then the body.
pub fn text(subject: &str, body: &str) -> String {
    format!("**{subject}**\n\n{body}")
}

/// Messages waiting to be pasted, per recipient folder (`_public` for the channel).
pub fn waiting(dir: &GameDir) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let Ok(folders) = std::fs::read_dir(dir.chat_outbox()) else {
        return out;
    };
    for folder in folders.filter_map(|e| e.ok()) {
        let count = std::fs::read_dir(folder.path()).map_or(0, |files| {
            files
                .filter_map(|f| f.ok())
                .filter(|f| f.file_name().to_string_lossy().ends_with(".txt"))
                .count()
        });
        if count > 0 {
            out.insert(folder.file_name().to_string_lossy().into_owned(), count);
        }
    }
    out
}

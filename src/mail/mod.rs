//! Outgoing mail. A message is rendered once into `outbox/<name>.eml` as a complete RFC 5322 file,
//! then handed to the transport (SMTP, sendmail, or just the move) and moved to `sent/` once
//! accepted.
//!
//! Invariants: a message's file name and Message-ID are derived from what it is (round, kind,
//! recipient, version), never from the clock, so queueing it twice writes it once; a message found
//! in `sent/` or `failed/` is never queued again. A player who plays by chat gets the same
//! messages as text files to paste (`chat`).

pub mod chat;
pub mod outbox;
pub mod transport;

pub use outbox::{
    Mail, MailKind, Recipient, SendReport, format_message, from_mailbox, is_our_message_id,
    outbox_names, send_outbox,
};
pub use transport::Sender;

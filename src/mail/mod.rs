//! Outgoing mail. A message is rendered once into `outbox/<name>.eml` as a complete RFC 5322 file
//! (the format an SMTP transport will send as is), then moved to `sent/` by the send step.
//!
//! Invariants: a message's file name and Message-ID are derived from what it is (round, kind,
//! player, version), never from the clock, so queueing it twice writes it once; a message found in
//! `sent/` is never queued again.

pub mod outbox;

pub use outbox::{Mail, MailKind, format_message, send_outbox};

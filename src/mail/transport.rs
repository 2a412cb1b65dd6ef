//! Delivery of one finished message: SMTP (lettre, rustls), a sendmail command, or nothing more
//! than the move to `sent/` (`file`). A delivery either is accepted, is refused for this message
//! alone (a 5xx for its recipient: retrying cannot help), or finds the service unavailable (down,
//! timed out, 4xx, rejected credentials): then nothing else is tried until the next tick.

use crate::config::{MailConfig, Secrets, Security, SmtpConfig, Transport};
use crate::error::{Error, Result};
use lettre::Transport as _;
use lettre::address::Envelope;
use lettre::transport::sendmail::SendmailTransport;
use lettre::transport::smtp::SmtpTransport;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};

pub const PASSWORD_ENV: &str = "ADJUDICATE_SMTP_PASSWORD";

pub enum Sender {
    /// `file`: being in `sent/` is the delivery.
    Files,
    Smtp(Box<SmtpTransport>),
    Sendmail(SendmailTransport),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Delivery {
    Accepted,
    /// Refused for good for this message (its recipient): move it aside and tell the host.
    Refused(String),
    /// The service cannot take mail now: keep everything queued, exit 75.
    Unavailable(String),
}

impl Sender {
    /// The configured sender, or `None` when mail is off.
    pub fn new(config: &MailConfig, secrets: &Secrets) -> Result<Option<Sender>> {
        Ok(match &config.transport {
            Transport::None => None,
            Transport::File => Some(Sender::Files),
            Transport::Sendmail { command } => Some(Sender::Sendmail(
                SendmailTransport::new_with_command(command),
            )),
            Transport::Smtp(smtp) => Some(Sender::Smtp(Box::new(smtp_transport(smtp, secrets)?))),
        })
    }

    pub fn deliver(&self, envelope: &Envelope, message: &[u8]) -> Delivery {
        match self {
            Sender::Files => Delivery::Accepted,
            Sender::Sendmail(t) => match t.send_raw(envelope, message) {
                Ok(()) => Delivery::Accepted,
                Err(e) => Delivery::Unavailable(format!("sendmail: {e}")),
            },
            Sender::Smtp(t) => match t.send_raw(envelope, message) {
                Ok(_) => Delivery::Accepted,
                Err(e) => classify(&e),
            },
        }
    }
}

/// 550–553 answer for one mailbox (unknown, not allowed, bad name); every other failure is about
/// the server or our account and affects all messages alike.
fn classify(e: &lettre::transport::smtp::Error) -> Delivery {
    let code = e.status().map(|c| c.to_string());
    match code.as_deref() {
        Some("550" | "551" | "552" | "553") if e.is_permanent() => Delivery::Refused(e.to_string()),
        Some(c) if c.starts_with('5') => Delivery::Unavailable(format!(
            "the server refused: {e} (check [mail.smtp] and the password)"
        )),
        _ => Delivery::Unavailable(e.to_string()),
    }
}

fn smtp_transport(smtp: &SmtpConfig, secrets: &Secrets) -> Result<SmtpTransport> {
    let bad = |key: &str, msg: String| Error::invalid("game.toml", format!("mail.smtp.{key}"), msg);
    let tls = match smtp.security {
        Security::None => Tls::None,
        Security::Starttls | Security::Tls => {
            let mut params = TlsParameters::builder(smtp.host.clone());
            if let Some(ca) = &smtp.ca_file {
                let pem = std::fs::read(ca).map_err(|e| Error::io(ca, e))?;
                let cert = Certificate::from_pem(&pem)
                    .map_err(|e| bad("ca_file", format!("not a PEM certificate: {e}")))?;
                params = params.add_root_certificate(cert);
            }
            let params = params
                .build_rustls()
                .map_err(|e| bad("host", e.to_string()))?;
            match smtp.security {
                Security::Tls => Tls::Wrapper(params),
                _ => Tls::Required(params),
            }
        }
    };
    let mut builder = SmtpTransport::builder_dangerous(smtp.host.as_str())
        .port(smtp.port)
        .tls(tls)
        .timeout(Some(smtp.timeout));
    if let Some(user) = &smtp.username {
        let password = std::env::var(PASSWORD_ENV)
            .ok()
            .or_else(|| secrets.smtp_password.clone())
            .ok_or_else(|| {
                Error::invalid(
                    "secrets.toml",
                    "smtp_password",
                    format!(
                        "mail.smtp.username is set: put the password here or in {PASSWORD_ENV}"
                    ),
                )
            })?;
        builder = builder.credentials(Credentials::new(user.clone(), password));
    }
    Ok(builder.build())
}

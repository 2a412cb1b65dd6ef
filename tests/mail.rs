//! Mail through a real SMTP server on 127.0.0.1 (aiosmtpd writing to a Maildir, see
//! `tests/smtp_server.py`) and through a sendmail command: every player gets exactly the messages
//! meant for them, once each; outages, refusals and a kill between "accepted" and "moved" lose or
//! double nothing.

use crate::support::{
    SmtpServer, adjudicate, closed_port, example_game, header, play_script, snapshot, submit, tick,
};
use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

/// Points the example's game.toml at an SMTP server.
fn use_smtp(dir: &Path, port: u16, security: &str, extra: &str) {
    let text = fs::read_to_string(dir.join("game.toml")).unwrap();
    let smtp = format!(
        "transport = \"smtp\"\n{extra}\n[mail.smtp]\nhost = \"127.0.0.1\"\nport = {port}\nsecurity = \"{security}\"\ntimeout = \"5s\"\n"
    );
    // the example's [mail] table ends with `transport = "file"`, right before [options]
    let text = text.replacen("transport = \"file\"\n", "", 1).replacen(
        "[options]",
        &format!("{smtp}\n[options]"),
        1,
    );
    fs::write(dir.join("game.toml"), text).unwrap();
}

/// The first tick, with the example's `file` transport: the opening messages go to sent/ before
/// the test points the game at its mail server.
fn set_up(dir: &Path) {
    tick(dir, "2026-12-01T00:00:00Z", &["-q"]);
}

fn body(message: &str) -> String {
    let text = message.replace("\r\n", "\n");
    let body = text.split_once("\n\n").unwrap().1;
    body.replace("=\n", "").replace("=3D", "=")
}

#[test]
fn the_sample_game_reaches_every_player_exactly_once_with_only_their_own_reports() {
    let server = SmtpServer::start(&[]);
    let game = example_game();
    let dir = game.path();
    use_smtp(dir, server.port, "none", "");
    play_script(dir);
    assert!(!dir.join("outbox").exists() || fs::read_dir(dir.join("outbox")).unwrap().count() == 0);

    let messages = server.received();
    let sent = snapshot(&dir.join("sent"));
    assert_eq!(
        messages.len(),
        sent.len(),
        "every queued message arrives, once"
    );
    let mut ids = BTreeMap::new();
    let mut announcements = BTreeMap::new();
    for (rcpts, message) in &messages {
        let id = header(message, "Message-ID").expect("a Message-ID");
        assert!(
            ids.insert(id.clone(), rcpts.clone()).is_none(),
            "{id} arrived twice"
        );
        assert!(
            header(message, "Bcc").is_none(),
            "the Bcc header is never sent: {message}"
        );
        let to = header(message, "To").unwrap();
        if id.contains(".public@") {
            // the announcement: one message, To: the host, every player by Bcc
            assert_eq!(to, "\"ORG Host\" <host@example.org>");
            let round = header(message, "Subject").unwrap();
            assert!(announcements.insert(round, rcpts.clone()).is_none());
        } else {
            assert!(
                to.contains(&format!("<{rcpts}>")),
                "envelope {rcpts} but To: {to}"
            );
        }
        assert_eq!(
            header(message, "From").unwrap(),
            "\"ORG Host\" <host@example.org>"
        );
        assert!(
            header(message, "Subject")
                .unwrap()
                .starts_with("Attic Basement Cellar: ")
        );
        assert!(header(message, "Date").is_some());
    }
    let everyone = "alice@example.org, bob@example.org, carol@example.org, dave@example.org, erin@example.org, frank@example.org";
    assert_eq!(
        announcements.len(),
        6,
        "the opening and 5 rounds: {announcements:?}"
    );
    for (subject, rcpts) in &announcements {
        assert_eq!(rcpts, everyone, "{subject}");
    }
    // one (recipient, message) per delivery
    let received: Vec<(String, &String)> = messages
        .iter()
        .flat_map(|(rcpts, m)| rcpts.split(", ").map(move |r| (r.to_owned(), m)))
        .collect();
    // Each private report went to its own player, and to nobody else.
    for player in ["alice", "bob", "carol", "dave", "erin", "frank"] {
        for round in 1..=5 {
            let report =
                fs::read_to_string(dir.join(format!("rounds/{round:03}/private/{player}.txt")))
                    .unwrap();
            let holders: Vec<&String> = received
                .iter()
                .filter(|(_, m)| body(m).trim_end() == report.trim_end())
                .map(|(r, _)| r)
                .collect();
            assert_eq!(
                holders,
                [&format!("{player}@example.org")],
                "round {round} report of {player}"
            );
        }
    }
    let per_player = |p: &str| {
        received
            .iter()
            .filter(|(r, _)| r == &format!("{p}@example.org"))
            .count()
    };
    // Frank: the opening's public and private mail, acks of 2 versions in round 1 and 1 each in
    // rounds 3 and 4, and a public and a private mail for each of the 5 rounds
    assert_eq!(per_player("frank"), 2 + 4 + 10);
}

#[test]
fn starttls_with_a_private_ca_and_auth() {
    let tmp = tempfile::tempdir().unwrap();
    let certs = tmp.path();
    let openssl = |args: &[&str]| {
        let status = std::process::Command::new("openssl")
            .args(args)
            .current_dir(certs)
            .output()
            .unwrap();
        assert!(
            status.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&status.stderr)
        );
    };
    openssl(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=adjudicate test CA",
    ]);
    openssl(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    fs::write(
        certs.join("ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "leaf.pem",
        "-days",
        "2",
        "-extfile",
        "ext",
    ]);
    let cert = certs.join("leaf.pem");
    let key = certs.join("leaf.key");
    let server = SmtpServer::start(&[
        "--tls",
        cert.to_str().unwrap(),
        key.to_str().unwrap(),
        "--auth",
        "host",
        "opal",
    ]);

    let game = example_game();
    let dir = game.path();
    fs::copy(certs.join("ca.pem"), dir.join("ca.pem")).unwrap();
    set_up(dir);
    use_smtp(dir, server.port, "starttls", "");
    let text = fs::read_to_string(dir.join("game.toml")).unwrap().replace(
        "timeout = \"5s\"",
        "timeout = \"5s\"\nusername = \"host\"\nca_file = \"ca.pem\"",
    );
    fs::write(dir.join("game.toml"), text).unwrap();

    // Without the password: a host error naming where it goes, nothing queued is lost.
    submit(dir, 1, "alice", "room = \"attic\"\n");
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T09:00:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 65, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr
            .contains("secrets.toml: smtp_password: mail.smtp.username is set"),
        "{}",
        run.stderr
    );

    // A wrong password: the server says 535; mail waits, exit 75.
    fs::write(dir.join("secrets.toml"), "smtp_password = \"wrong\"\n").unwrap();
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T09:00:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 75, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains("1 message(s) wait in outbox/"),
        "{}",
        run.stderr
    );
    assert!(server.received().is_empty());

    fs::write(dir.join("secrets.toml"), "smtp_password = \"opal\"\n").unwrap();
    let run = adjudicate(["send".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.stdout, "sent 1 message(s)\n");
    let received = server.received();
    assert_eq!(received.len(), 1);
    assert_eq!(received[0].0, "alice@example.org");
}

#[test]
fn a_server_that_is_down_delays_mail_but_not_the_round() {
    let game = example_game();
    let dir = game.path();
    set_up(dir);
    use_smtp(dir, closed_port(), "none", "");
    for p in ["alice", "bob", "carol", "dave", "erin", "frank"] {
        submit(dir, 1, p, "room = \"attic\"\n");
    }
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T15:00:00Z".as_ref(),
    ]);
    assert_eq!(run.code, 75, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("resolved round 1"), "{}", run.stdout);
    assert!(
        run.stdout.contains("mail: 13 queued, 0 sent, 13 waiting"),
        "{}",
        run.stdout
    );
    assert!(dir.join("rounds/001/public.txt").exists() && dir.join("state.toml").exists());
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        status
            .stdout
            .contains("Outbox: 13 message(s) waiting to be sent"),
        "{}",
        status.stdout
    );
    assert!(
        status.stdout.contains("  last attempt: Connection error"),
        "{}",
        status.stdout
    );

    let server = SmtpServer::start(&[]);
    let text = fs::read_to_string(dir.join("game.toml")).unwrap();
    let text = text.replace(
        &format!("port = {}", closed_port_in(&text)),
        &format!("port = {}", server.port),
    );
    fs::write(dir.join("game.toml"), text).unwrap();
    let run = tick(dir, "2026-12-02T15:10:00Z", &[]);
    assert!(
        run.stdout.contains("mail: 0 queued, 13 sent"),
        "{}",
        run.stdout
    );
    assert_eq!(server.received().len(), 13);
    tick(dir, "2026-12-02T15:20:00Z", &["-q"]);
    assert_eq!(server.received().len(), 13, "nothing is sent twice");
}

/// The first `port = N` of game.toml.
fn closed_port_in(text: &str) -> u16 {
    text.lines()
        .find_map(|l| l.strip_prefix("port = "))
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn a_refused_recipient_is_reported_and_not_retried() {
    let server = SmtpServer::start(&["--reject", "bob@example.org"]);
    let game = example_game();
    let dir = game.path();
    set_up(dir);
    use_smtp(dir, server.port, "none", "");
    submit(dir, 1, "alice", "room = \"attic\"\n");
    submit(dir, 1, "bob", "room = \"attic\"\n");
    submit(dir, 1, "carol", "room = \"attic\"\n");
    let run = adjudicate([
        "round".as_ref(),
        dir.as_os_str(),
        "--now".as_ref(),
        "2026-12-02T09:00:00Z".as_ref(),
    ]);
    assert_eq!(
        run.code, 0,
        "a refused address is not a temporary failure: {}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("mail r001-ack-bob-1.eml refused for good, moved to failed/"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("550"), "{}", run.stderr);
    assert!(dir.join("failed/r001-ack-bob-1.eml").is_file());
    let to: Vec<String> = server.received().into_iter().map(|(r, _)| r).collect();
    assert_eq!(to, ["alice@example.org", "carol@example.org"]);
    let run = tick(dir, "2026-12-02T09:10:00Z", &[]);
    assert!(
        !run.stdout.contains("mail:"),
        "nothing re-queued: {}",
        run.stdout
    );
    let status = adjudicate(["status".as_ref(), dir.as_os_str()]);
    assert!(
        status
            .stdout
            .contains("Failed: 1 message(s) refused by the mail server"),
        "{}",
        status.stdout
    );
}

#[test]
fn a_tick_killed_after_the_server_accepted_resends_only_that_message_with_the_same_id() {
    let server = SmtpServer::start(&[]);
    let game = example_game();
    let dir = game.path();
    set_up(dir);
    use_smtp(dir, server.port, "none", "");
    for p in ["alice", "bob", "carol"] {
        submit(dir, 1, p, "room = \"attic\"\n");
    }
    tick(dir, "2026-12-02T09:00:00Z", &["-q"]);
    assert_eq!(server.received().len(), 3);
    // The state a kill leaves between "accepted" and "moved": bob's ack is back in the outbox.
    fs::create_dir_all(dir.join("outbox")).unwrap();
    fs::rename(
        dir.join("sent/r001-ack-bob-1.eml"),
        dir.join("outbox/r001-ack-bob-1.eml"),
    )
    .unwrap();
    submit(dir, 1, "dave", "room = \"cellar\"\n");
    tick(dir, "2026-12-02T09:10:00Z", &["-q"]);
    let received = server.received();
    let to: Vec<&str> = received.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(
        to,
        [
            "alice@example.org",
            "bob@example.org",
            "bob@example.org",
            "carol@example.org",
            "dave@example.org"
        ]
    );
    let bob: Vec<String> = received
        .iter()
        .filter(|(r, _)| r == "bob@example.org")
        .map(|(_, m)| header(m, "Message-ID").unwrap())
        .collect();
    assert_eq!(bob[0], bob[1], "the re-sent message keeps its Message-ID");
}

#[test]
fn the_public_announcement_goes_once_to_a_list_address_when_set() {
    let server = SmtpServer::start(&[]);
    let game = example_game();
    let dir = game.path();
    set_up(dir);
    use_smtp(
        dir,
        server.port,
        "none",
        "public_to = \"Players <players@lists.example.org>\"\nreply_to = \"Submissions <submit@example.org>\"",
    );
    for p in ["alice", "bob", "carol", "dave", "erin", "frank"] {
        submit(dir, 1, p, "room = \"attic\"\n");
    }
    tick(dir, "2026-12-02T15:00:00Z", &["-q"]);
    let received = server.received();
    let public: Vec<_> = received
        .iter()
        .filter(|(_, m)| header(m, "Subject").unwrap().ends_with("round 1 results"))
        .collect();
    assert_eq!(public.len(), 1);
    assert_eq!(public[0].0, "players@lists.example.org");
    assert_eq!(
        header(public[0].1.as_str(), "Reply-To").unwrap(),
        "Submissions <submit@example.org>"
    );
    assert_eq!(
        received.len(),
        1 + 6 + 6,
        "one announcement, six acks, six private reports"
    );
}

#[test]
fn reminders_go_once_to_players_without_a_valid_submission() {
    let server = SmtpServer::start(&[]);
    let game = example_game();
    let dir = game.path();
    use_smtp(dir, server.port, "none", "");
    let text = fs::read_to_string(dir.join("game.toml"))
        .unwrap()
        .replace("every = \"24h\"", "every = \"24h\"\nremind_before = \"3h\"");
    fs::write(dir.join("game.toml"), text).unwrap();
    for p in ["alice", "bob", "carol", "dave", "erin"] {
        submit(dir, 1, p, "room = \"attic\"\n");
    }
    tick(dir, "2026-12-02T11:00:00Z", &["-q"]); // 4 h before: too early
    submit(dir, 1, "erin", "room = \"garden\"\n");
    tick(dir, "2026-12-02T12:30:00Z", &["-q"]);
    tick(dir, "2026-12-02T13:00:00Z", &["-q"]);
    let reminders: Vec<(String, String)> = server
        .received()
        .into_iter()
        .filter(|(_, m)| header(m, "Subject").unwrap().contains("closes in"))
        .collect();
    let to: Vec<&str> = reminders.iter().map(|(r, _)| r.as_str()).collect();
    assert_eq!(
        to,
        ["frank@example.org"],
        "erin's first version was valid and counts"
    );
    let text = body(&reminders[0].1)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("round 1 closes at Wed 2 Dec 15:00 UTC (in 3 h 0 min)"),
        "{text}"
    );
    assert!(
        text.contains("Nothing has been received from you this round."),
        "{text}"
    );
    assert!(
        text.contains("a random room among attic, basement, cellar will be used for you"),
        "{text}"
    );
    // the welcome's skeleton, to send back edited
    assert!(
        text.contains("# Reply with this, edited. Round 1, deadline Wed 2 Dec 15:00 UTC. # room: one of attic, basement, cellar room = \"attic\""),
        "{text}"
    );
}

#[test]
fn the_sendmail_transport_pipes_each_message_to_the_command() {
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("log");
    fs::create_dir(&log).unwrap();
    let script = tmp.path().join("sendmail");
    fs::write(
        &script,
        format!(
            "#!/bin/sh\nn=$(ls {0} | wc -l)\necho \"$@\" > {0}/$n.args\ncat > {0}/$n.eml\n",
            log.display()
        ),
    )
    .unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(
        &mut fs::metadata(&script).unwrap().permissions(),
        0o755,
    );
    fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let game = example_game();
    let dir = game.path();
    set_up(dir);
    let text = fs::read_to_string(dir.join("game.toml")).unwrap().replacen(
        "transport = \"file\"\n",
        &format!(
            "transport = \"sendmail\"\n\n[mail.sendmail]\ncommand = \"{}\"\n",
            script.display()
        ),
        1,
    );
    fs::write(dir.join("game.toml"), text).unwrap();
    submit(dir, 1, "alice", "room = \"attic\"\n");
    tick(dir, "2026-12-02T09:00:00Z", &["-q"]);
    let args = fs::read_to_string(log.join("0.args")).unwrap();
    assert!(
        args.contains("alice@example.org") && args.contains("host@example.org"),
        "{args}"
    );
    let message = fs::read_to_string(log.join("0.eml")).unwrap();
    assert!(
        message
            .contains("Subject: Attic Basement Cellar: round 1, submission received (version 1)"),
        "{message}"
    );
    assert!(dir.join("sent/r001-ack-alice-1.eml").is_file());
}

#[test]
fn a_wrong_mail_setting_is_a_check_error_naming_the_key() {
    let game = example_game();
    let dir = game.path();
    let text = fs::read_to_string(dir.join("game.toml")).unwrap();
    let broken = text.replacen(
        "transport = \"file\"\n",
        "transport = \"smtp\"\n\n[mail.smtp]\nhost = \"mail.example.org\"\nsecurity = \"ssl\"\n",
        1,
    );
    fs::write(dir.join("game.toml"), broken).unwrap();
    let run = adjudicate(["check".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 65);
    assert!(
        run.stderr.contains("game.toml:")
            && run
                .stderr
                .contains("unknown variant `ssl`, expected one of `starttls`, `tls`, `none`"),
        "{}",
        run.stderr
    );
    let broken = text.replacen("transport = \"file\"\n", "transport = \"smtp\"\n", 1);
    fs::write(dir.join("game.toml"), broken).unwrap();
    let run = adjudicate(["check".as_ref(), dir.as_os_str()]);
    assert!(
        run.stderr
            .contains("game.toml: mail.smtp: is required with transport = \"smtp\""),
        "{}",
        run.stderr
    );
}

#[test]
fn the_announcement_is_one_message_per_bcc_batch_and_one_closed_mailbox_does_not_stop_it() {
    let server = SmtpServer::start(&["--reject", "bob@example.org"]);
    let game = example_game();
    let dir = game.path();
    set_up(dir);
    use_smtp(dir, server.port, "none", "bcc_batch = 4");
    for p in ["alice", "bob", "carol", "dave", "erin", "frank"] {
        submit(dir, 1, p, "room = \"attic\"\n");
    }
    let run = tick(dir, "2026-12-02T15:00:00Z", &[]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    // 6 acknowledgements, the announcement in 2 batches (4 + 2), 6 private reports
    assert!(run.stdout.contains("mail: 14 queued"), "{}", run.stdout);
    let mut public: Vec<String> = ["sent", "failed"]
        .iter()
        .flat_map(|d| fs::read_dir(dir.join(d)).into_iter().flatten())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("r001-public-"))
        .collect();
    public.sort();
    assert_eq!(
        public,
        ["r001-public-bcc0001-0.eml", "r001-public-bcc0002-0.eml"]
    );
    // The file keeps its Bcc (the envelope); what is sent does not.
    let kept = fs::read_to_string(dir.join("sent/r001-public-bcc0001-0.eml")).unwrap();
    let bcc = header(&kept, "Bcc").expect("the queued file names its recipients");
    for p in ["alice", "bob", "carol", "dave"] {
        assert!(bcc.contains(&format!("<{p}@example.org>")), "{bcc}");
    }
    let mut reached: Vec<String> = server
        .received()
        .iter()
        .filter(|(_, m)| header(m, "Message-ID").unwrap().contains(".public@"))
        .inspect(|(_, m)| assert!(header(m, "Bcc").is_none(), "{m}"))
        .flat_map(|(rcpts, _)| rcpts.split(", ").map(String::from).collect::<Vec<_>>())
        .collect();
    reached.sort();
    assert_eq!(
        reached,
        [
            "alice@example.org",
            "carol@example.org",
            "dave@example.org",
            "erin@example.org",
            "frank@example.org"
        ],
        "bob's closed mailbox cost only bob the announcement"
    );
    assert!(
        run.stderr
            .contains("mail r001-public-bcc0001-0.eml (to bob@example.org) refused for good"),
        "{}",
        run.stderr
    );
}

/// A queued file that is not a whole message of ours (cut short, not UTF-8, a NUL byte, no
/// Message-ID) is never sent as it is: it goes to failed/ with the reason, and the rest go out.
#[test]
fn a_broken_file_in_the_outbox_is_moved_to_failed_with_the_reason_not_sent() {
    let server = SmtpServer::start(&[]);
    let game = example_game();
    let dir = game.path();
    tick(dir, "2026-12-01T00:00:00Z", &["-q", "--no-send"]);
    let outbox = dir.join("outbox");
    let good = fs::read(outbox.join("r000-private-alice-0.eml")).unwrap();
    let cut = &good[..good.len() / 2];
    let mut latin1 = good.clone();
    latin1.extend_from_slice(b"caf\xe9\r\n");
    let mut nul = good.clone();
    nul.insert(good.len() - 4, 0);
    let no_id: Vec<u8> = String::from_utf8(good.clone())
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("Message-ID:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace('\n', "\r\n")
        .into_bytes();
    let broken = [
        ("r009-ack-alice-1.eml", cut.to_vec(), "cut short"),
        ("r009-ack-alice-2.eml", latin1, "not UTF-8"),
        ("r009-ack-alice-3.eml", nul, "NUL byte"),
        ("r009-ack-alice-4.eml", no_id, "no Message-ID"),
    ];
    for (name, bytes, _) in &broken {
        fs::write(outbox.join(name), bytes).unwrap();
    }
    use_smtp(dir, server.port, "none", "");
    let run = adjudicate(["send".as_ref(), dir.as_os_str()]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    for (name, _, why) in &broken {
        assert!(dir.join("failed").join(name).is_file(), "{name}");
        assert!(
            run.stderr
                .lines()
                .any(|l| l.contains(name) && l.contains(why)),
            "{name}: {why} not in\n{}",
            run.stderr
        );
    }
    assert_eq!(
        server.received().len(),
        7,
        "the sound messages all went out"
    );
}

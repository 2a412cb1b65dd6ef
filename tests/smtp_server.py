"""A real SMTP server for the tests: aiosmtpd writing every message it accepts into a Maildir.

Usage: smtp_server.py MAILDIR [--tls CERT KEY] [--auth USER PASSWORD] [--reject ADDRESS ...]
Prints the port it listens on (127.0.0.1), then serves until its standard input closes.
--tls requires STARTTLS before MAIL; --auth requires AUTH (over TLS when --tls is given);
--reject answers RCPT TO for these addresses with 550.
"""
import argparse
import socket
import ssl
import sys

from aiosmtpd.controller import Controller
from aiosmtpd.handlers import Mailbox
from aiosmtpd.smtp import AuthResult, LoginPassword


class Handler(Mailbox):
    def __init__(self, maildir, rejected):
        super().__init__(maildir)
        self.rejected = set(rejected)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.rejected:
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("maildir")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth", nargs=2, metavar=("USER", "PASSWORD"))
    parser.add_argument("--reject", nargs="*", default=[])
    args = parser.parse_args()

    options = {}
    if args.tls:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(*args.tls)
        options.update(tls_context=context, require_starttls=True)
    if args.auth:
        user, password = (s.encode() for s in args.auth)

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = isinstance(auth_data, LoginPassword) and auth_data.login == user and auth_data.password == password
            # handled=False: aiosmtpd answers 535 itself; True would leave the client waiting
            return AuthResult(success=ok, handled=False)

        options.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(args.tls))
    port = free_port()
    controller = Controller(Handler(args.maildir, args.reject), hostname="127.0.0.1", port=port, **options)
    controller.start()
    print(port, flush=True)
    sys.stdin.read()
    controller.stop()


if __name__ == "__main__":
    main()

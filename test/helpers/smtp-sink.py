"""A real SMTP server for tests (Debian's python3-aiosmtpd): prints each message it takes as one JSON line.

usage: smtp-sink.py PORT PASSWORD [CERTFILE KEYFILE]
With a certificate it offers STARTTLS and takes no message before it. Logins as `alerts` with
PASSWORD (PLAIN) are accepted, also on a plain connection; a client may send without one.
"""

import json
import signal
import ssl
import sys
import threading

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

port, password = int(sys.argv[1]), sys.argv[2].encode()
tls_context = None
if len(sys.argv) > 4:
    tls_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    tls_context.load_cert_chain(sys.argv[3], sys.argv[4])


class Sink:
    async def handle_EHLO(self, server, session, envelope, hostname, responses):
        session.host_name = hostname
        return responses

    async def handle_DATA(self, server, session, envelope):
        print(json.dumps({
            "hello": session.host_name,
            "login": getattr(session, "login_name", None) if session.authenticated else None,
            "tls": session.ssl is not None,
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "data": envelope.content.decode("utf8", "replace"),
        }), flush=True)
        return "250 OK"


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"alerts" and auth_data.password == password
    if ok:
        session.login_name = auth_data.login.decode()
    return AuthResult(success=ok, handled=False)


controller = Controller(
    Sink(),
    hostname="127.0.0.1",
    port=port,
    authenticator=authenticator,
    auth_require_tls=False,
    # Alertmanager's LOGIN expects the "Username:" challenge aiosmtpd does not send; PLAIN both speak.
    auth_exclude_mechanism=["LOGIN"],
    tls_context=tls_context,
    require_starttls=tls_context is not None,
)
controller.start()
print(json.dumps({"ready": port}), flush=True)
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())
stop.wait()
controller.stop()

"""The deployment guide's nginx configuration, run for real (docs/DEPLOY.md, issue 33 item 6).

Debian's nginx (scripts/install-nginx.sh) on loopback ports, with its own prefix, pid, temp and
log paths in a temporary folder and a throwaway self-signed certificate, runs
docs/deploy/nginx.conf with only its ports, name, certificate and upstream changed, in front of
``ludothek serve --proxy 127.0.0.1``. A game is played through it over HTTPS and WSS; the
session cookie comes back ``Secure``; an X-Forwarded-For sent by a client does not change the
address the server counts; a plain-HTTP request is sent to HTTPS.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import signal
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

httpx = pytest.importorskip("httpx")
websockets = pytest.importorskip("websockets")

from ludothek.web.admission import WS_CAP_CODE

from .servers import Server, free_port, wait_for_port

SITE = Path(__file__).resolve().parent.parent / "docs" / "deploy" / "nginx.conf"
STATIC = Path(__file__).resolve().parent.parent / "ludothek" / "web" / "static"
NGINX = shutil.which("nginx") or next((p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None)
OPENSSL = shutil.which("openssl")
CAP = 2  # websockets per address on the server behind nginx
BOUND = 60.0  # the longest any wait here may take on a busy machine
NAME = "localhost"

if NGINX is None or OPENSSL is None:
    _reason = "nginx or openssl is not installed (bash scripts/install-nginx.sh installs both)"
    if os.environ.get("CI") == "true":
        pytest.fail(_reason, pytrace=False)
    pytest.skip(_reason, allow_module_level=True)


def site_config(https: int, http: int, upstream: int, cert: Path, key: Path) -> str:
    """docs/deploy/nginx.conf for this test: loopback ports, our name and certificate, our
    server. Every replaced text must be in the file, so a change to it fails here, not silently."""
    text = SITE.read_text()
    changes = [
        ("/etc/letsencrypt/live/play.example.org/fullchain.pem", str(cert)),
        ("/etc/letsencrypt/live/play.example.org/privkey.pem", str(key)),
        ("play.example.org", NAME),
        ("server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream};"),
        ("listen [::]:443 ssl;", ""),  # the test host may have no IPv6
        ("listen [::]:80;", ""),
        ("listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;"),
        ("listen 80;", f"listen 127.0.0.1:{http};"),
    ]
    for old, new in changes:
        assert old in text, f"docs/deploy/nginx.conf no longer has {old!r}: update this test with it"
        text = text.replace(old, new)
    return text


def main_config(folder: Path) -> str:
    """nginx's own configuration: everything it writes stays in ``folder``."""
    temps = "\n".join(f"    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                           "uwsgi", "scgi"))
    return f"""daemon off;
worker_processes 1;
pid {folder / 'nginx.pid'};
error_log {folder / 'error.log'} notice;
events {{ worker_connections 256; }}
http {{
    access_log {folder / 'access.log'};
{temps}
    include {folder / 'site.conf'};
}}
"""


class Deployment:
    def __init__(self, folder: Path):
        self.cert, self.key = folder / "cert.pem", folder / "key.pem"
        subprocess.run([OPENSSL, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-days", "2", "-subj", f"/CN={NAME}", "-addext",
                        f"subjectAltName=DNS:{NAME},IP:127.0.0.1", "-keyout", str(self.key), "-out", str(self.cert)],
                       check=True, capture_output=True, timeout=BOUND)
        self.server = Server(str(folder / "ludothek.sqlite3"), "--bots", "thread", "--proxy", "127.0.0.1",
                             "--allowed-hosts", NAME, "--max-websockets", str(CAP),
                             "--rate-limits", "move=100/second")
        self.nginx = None
        try:
            wait_for_port(self.server.port, self.server.process, "ludothek serve")
            self.https, self.http = free_port(), free_port()
            (folder / "site.conf").write_text(site_config(self.https, self.http, self.server.port, self.cert,
                                                          self.key))
            conf = folder / "nginx.conf"
            conf.write_text(main_config(folder))
            command = [NGINX, "-p", str(folder), "-c", str(conf)]
            checked = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=BOUND, check=False)
            assert checked.returncode == 0, f"nginx -t refused the configuration:\n{checked.stderr}"
            self.nginx = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            wait_for_port(self.https, self.nginx, "nginx", BOUND)
        except BaseException:
            self.stop()
            raise
        self.tls = ssl.create_default_context(cafile=str(self.cert))
        self.base = f"https://{NAME}:{self.https}"

    def client(self) -> httpx.Client:
        return httpx.Client(base_url=self.base, verify=self.tls, timeout=BOUND)

    def websocket(self, path: str, forwarded_for: str | None = None):
        headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
        return websockets.connect(f"wss://{NAME}:{self.https}{path}", ssl=self.tls, additional_headers=headers,
                                  open_timeout=BOUND)

    def stop(self) -> None:
        if self.nginx is not None and self.nginx.poll() is None:
            self.nginx.send_signal(signal.SIGQUIT)  # nginx's graceful stop
            try:
                self.nginx.wait(BOUND)
            except subprocess.TimeoutExpired:
                self.nginx.kill()
                self.nginx.wait(BOUND)
        self.server.stop()


@pytest.fixture(scope="module")
def deployment():
    # not under pytest's own temporary folder (mode 700): nginx's workers run as another user
    # when the test runs as root, and write their temporary files here
    folder = Path(tempfile.mkdtemp(prefix="ludothek-nginx-"))
    folder.chmod(0o755)
    try:
        running = Deployment(folder)
        yield running
        running.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_game_over_https_and_wss_with_a_secure_session_cookie(deployment):
    with deployment.client() as client:
        page = client.get("/")
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert page.headers["strict-transport-security"] == "max-age=31536000"
        script = client.get("/static/js/game.js")
        assert script.status_code == 200
        assert script.content == (STATIC / "js" / "game.js").read_bytes()
        signed = client.post("/api/signup", json={"name": "alice_tls", "password": "a long and quiet evening"})
        assert signed.status_code == 201, signed.text
        cookie = next(value for value in signed.headers.get_list("set-cookie")
                      if value.startswith("ludothek_session="))
        attributes = {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}
        assert {"secure", "httponly"} <= attributes, cookie  # the server knows the page came over HTTPS
        client.headers["X-CSRF-Token"] = signed.json()["csrf"]
        assert client.get("/api/me").json()["user"] == {"name": "alice_tls"}  # the Secure cookie comes back
        created = client.post("/api/games", json={"game": "trike", "options": {"size": 7}, "opponent": "bot",
                                                  "bot": "random", "seat": 0})
        assert created.status_code == 201 or created.status_code == 200, created.text
        game_id, token = created.json()["id"], created.json()["token"]

        async def play() -> dict:
            rng = random.Random(7)
            async with deployment.websocket(f"/ws/games/{game_id}") as ws:
                await ws.send(json.dumps({"type": "auth", "token": token}))
                view, ref, answered = None, 0, -1
                until = time.monotonic() + BOUND * 3
                while view is None or view["status"] != "over":
                    assert time.monotonic() < until, "the game did not end"
                    message = json.loads(await asyncio.wait_for(ws.recv(), BOUND))
                    assert message["type"] != "error", message
                    if message["type"] != "state" or (view and message["game"]["version"] < view["version"]):
                        continue
                    view = message["game"]
                    # a position is answered once, as a client should: a change made without a move
                    # (a seat claimed) sends the same version again, and a second answer is stale
                    if (view["status"] == "ongoing" and view["to_seat"] == 0 and message.get("you") == [0]
                            and view["plies"] > answered):
                        ref, answered = ref + 1, view["plies"]
                        move = rng.choice(view["moves"])["move"]
                        await ws.send(json.dumps({"type": "move", "move": move, "ply": view["plies"], "ref": ref}))
                return view

        final = asyncio.run(play())
        stored = client.get(f"/api/games/{game_id}").json()["game"]
        assert stored["status"] == "over" and len(stored["history"]) == len(final["history"]) > 0


def test_plain_http_is_sent_to_https(deployment):
    answer = httpx.get(f"http://{NAME}:{deployment.http}/play/x", timeout=BOUND)
    assert answer.status_code == 301
    assert answer.headers["location"] == f"https://{NAME}/play/x"


def test_a_forged_x_forwarded_for_does_not_change_the_address_the_server_counts(deployment):
    """Every websocket says it comes from another address; nginx replaces the header with the
    address it saw (127.0.0.1), so the server counts them all as one client and refuses the
    one over its cap. With ``$proxy_add_x_forwarded_for`` the forged addresses would count."""

    async def scenario() -> list[int]:
        held, refusals = [], []
        try:
            for k in range(CAP + 1):
                ws = await deployment.websocket("/ws/lobby", forwarded_for=f"203.0.113.{k + 1}")
                held.append(ws)
                try:  # a refused socket may be closed before the ping goes out
                    await ws.send(json.dumps({"type": "ping", "ref": k}))
                    while (message := json.loads(await asyncio.wait_for(ws.recv(), BOUND)))["type"] != "pong":
                        if message["type"] == "error":
                            assert message["key"] == "web.too_many_websockets"
                except websockets.ConnectionClosed as closed:
                    assert closed.rcvd.code == WS_CAP_CODE
                    refusals.append(k)
        finally:
            for ws in held:
                await ws.close()
        return refusals

    assert asyncio.run(scenario()), f"{CAP + 1} websockets with forged addresses were all accepted"


def test_the_host_check_works_behind_nginx(deployment):
    with deployment.client() as client:
        answer = client.get("/api/catalog", headers={"Host": "evil.example"})
    assert answer.status_code == 400
    assert answer.json()["key"] == "web.bad_host"

"""python -m bench.slow_clients: whether slow clients stall the web tier (issue 38). Procfile's gunicorn (its
sync workers, WEB_CONCURRENCY of them) on a fresh database, alone and then behind Debian's nginx running the
example config operators install (deploy/nginx/vendorhub.conf, rendered for a temporary prefix and free
ports, never copied); 3 and then 20 connections that trickle their request a byte at a time (half of them
the headers of a GET, half the body of a form's POST over TLS); meanwhile
/healthz is asked with a 1 s timeout. Prints each probe's time, or that it got no answer.
tests/golive/test_slow_clients.py runs the same against nginx in CI."""

import contextlib
import os
import shutil
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path

from bench.harness import ROOT, answers, free_port, procfile, stop, wait_for

NGINX = Path(os.environ.get("NGINX_PATH", "/usr/sbin/nginx"))
#: The example config the deployment guide tells operators to install.
EXAMPLE_CONFIG = ROOT / "deploy" / "nginx" / "vendorhub.conf"
#: A probe of /healthz waits this long for its answer.
PROBE_TIMEOUT = 1.0
#: gunicorn's workers as Procfile starts them (WEB_CONCURRENCY's default).
WORKERS = 3
#: A slow client sends a byte this often (seconds).
TRICKLE_SECONDS = 0.2


def _replaced(text, old, new):
    """text with old replaced by new; ValueError when the example config no longer holds old (the rendering
    must follow the file, never run a config of its own)."""
    if old not in text:
        raise ValueError(f"deploy/nginx/vendorhub.conf no longer holds {old!r}: update bench/slow_clients.py")
    return text.replace(old, new)


def render_example_config(*, upstream_port, http_port, https_port, certificate, key):
    """The example config for this machine: gunicorn's port, local ports for its two servers (IPv4 only),
    a certificate of our own; everything else as operators install it."""
    text = EXAMPLE_CONFIG.read_text()
    text = _replaced(text, "server 127.0.0.1:8000;", f"server 127.0.0.1:{upstream_port};")
    text = _replaced(text, "listen 80;", f"listen 127.0.0.1:{http_port};")
    text = _replaced(text, "listen 443 ssl", f"listen 127.0.0.1:{https_port} ssl")
    text = _replaced(text, "/etc/letsencrypt/live/vendorhub.example.com/fullchain.pem", str(certificate))
    text = _replaced(text, "/etc/letsencrypt/live/vendorhub.example.com/privkey.pem", str(key))
    return "\n".join(line for line in text.splitlines() if "listen [::]" not in line) + "\n"


def _main_config(prefix, site):
    """nginx.conf for a prefix of our own: pid, logs and temporary files under it, the site included."""
    # Run as root (as CI does), nginx would start its workers as nobody, who cannot enter the prefix.
    user = "user root;\n" if os.geteuid() == 0 else ""
    temp = "".join(
        f"  {kind}_temp_path {prefix / kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\nevents {{ worker_connections 512; }}\n"
        f"http {{\n  access_log off;\n{temp}  include {site};\n}}\n"
    )


def _certificate(prefix):
    """A self-signed certificate and its key for 127.0.0.1, made by openssl."""
    certificate, key = prefix / "cert.pem", prefix / "key.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
    subprocess.run(  # noqa: S603
        [shutil.which("openssl") or "openssl", *request, "-keyout", str(key), "-out", str(certificate)],
        check=True,
        capture_output=True,
    )
    return certificate, key


@contextlib.contextmanager
def example_nginx(prefix, upstream_port):
    """Debian's nginx running the example config in front of upstream_port, under prefix; yields its
    (http, https) ports."""
    prefix.mkdir(parents=True, exist_ok=True)
    certificate, key = _certificate(prefix)
    http_port, https_port = free_port(), free_port()
    site = prefix / "vendorhub.conf"
    site.write_text(
        render_example_config(
            upstream_port=upstream_port, http_port=http_port, https_port=https_port, certificate=certificate, key=key
        )
    )
    (prefix / "nginx.conf").write_text(_main_config(prefix, site))
    with (prefix / "nginx.out").open("w") as output:
        nginx = subprocess.Popen(  # noqa: S603
            [str(NGINX), "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(prefix / "error.log")],
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        wait_for(lambda: (answers(http_port) and answers(https_port)) or nginx.poll() is not None, "nginx", 30)
        if nginx.poll() is not None:
            raise RuntimeError(f"nginx exited: {(prefix / 'nginx.out').read_text()}")
        warm_up(http_port)
        yield http_port, https_port
    finally:
        stop(nginx)


@contextlib.contextmanager
def procfile_web(environment, port, log):
    """Procfile's web process (gunicorn with its production settings and workers) on port."""
    with log.open("w") as output:
        web = subprocess.Popen(  # noqa: S603
            ["/bin/sh", "-c", f"exec {procfile('web')}"],
            cwd=ROOT,
            env={**environment, "PORT": str(port), "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"},
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        # Ready once a worker has loaded the application and answers (the master listens long before).
        wait_for(lambda: probe(port, timeout=10)[0] == 200 or web.poll() is not None, "gunicorn", 120)
        if web.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {log.read_text()}")
        warm_up(port)
        yield port
    finally:
        stop(web)


def probe(port, path="/healthz", timeout=PROBE_TIMEOUT):
    """(status, seconds) of a GET of path on 127.0.0.1:port, or (None, seconds) when no answer came
    within timeout."""
    started = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as connection:
            connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            head = connection.recv(64)
    except OSError:
        return None, time.monotonic() - started
    status = int(head.split()[1]) if head.startswith(b"HTTP/") else None
    return status, time.monotonic() - started


def warm_up(port, rounds=3):
    """Concurrent probes with a long timeout, rounds times: every worker has answered a first request (its
    first takes longer) before anything is measured."""
    for _ in range(rounds):
        probes = [threading.Thread(target=probe, args=(port, "/healthz", 30)) for _ in range(WORKERS)]
        for thread in probes:
            thread.start()
        for thread in probes:
            thread.join()


class SlowClients:
    """Connections that each send their request a byte every TRICKLE_SECONDS, all from one thread: half
    the headers of a GET /healthz (to http_port), half the 20 KB body of a login form's POST with a CSRF
    cookie, which Django reads whole for its CSRF check, its headers sent at once (to https_port over TLS
    when given, else to http_port)."""

    def __init__(self, http_port, https_port=None):
        self.http_port, self.https_port = http_port, https_port
        self._connections = []  # [socket, bytes left to send]
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._trickle, name="slow-clients", daemon=True)
        self._thread.start()

    def open(self, count):
        """count more slow connections."""
        for _ in range(count):
            with self._lock:
                index = len(self._connections)
            if index % 2 == 0:
                connection = socket.create_connection(("127.0.0.1", self.http_port))
                left = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 1000 + b"\r\n\r\n"
            else:
                connection = self._tls_connection()
                # A CSRF cookie and a same-origin Referer (checked over https), so that Django reads the form
                # for its token: without them it refuses unread.
                head = b"POST /admin/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\nReferer: https://127.0.0.1/admin/login/\r\n"
                head += b"Cookie: csrftoken=" + b"c" * 32 + b"\r\n"
                connection.sendall(
                    head + b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 20000\r\n\r\n"
                )
                left = b"a" * 20000
            with self._lock:
                self._connections.append([connection, left])

    def _tls_connection(self):
        plain = socket.create_connection(("127.0.0.1", self.https_port or self.http_port))
        if self.https_port is None:
            return plain
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context.wrap_socket(plain)

    def _trickle(self):
        while not self._stopped.wait(TRICKLE_SECONDS):
            with self._lock:
                for entry in self._connections:
                    connection, left = entry
                    if left:
                        with contextlib.suppress(OSError):
                            connection.send(left[:1])
                        entry[1] = left[1:]

    def close(self):
        self._stopped.set()
        self._thread.join()
        for connection, _left in self._connections:
            with contextlib.suppress(OSError):
                connection.close()


def probes_while_slow(http_port, https_port, target_port, counts=(3, 20), probes=3):
    """{slow connections: [(status, seconds) of each probe of /healthz on target_port]} while that many slow
    connections are open (3, then 20)."""
    slow, opened, results = SlowClients(http_port, https_port), 0, {}
    try:
        for count in counts:
            slow.open(count - opened)
            opened = count
            time.sleep(1)  # the connections accepted and their first bytes read
            results[count] = [probe(target_port) for _ in range(probes)]
    finally:
        slow.close()
    return results


def _line(label, results):
    cells = [
        f"{status} in {seconds * 1000:.0f} ms" if status else f"no answer in {PROBE_TIMEOUT:.0f} s"
        for status, seconds in results
    ]
    return f"  {label:44}{', '.join(cells)}"


def main():
    from bench.harness import fresh_database, production_environment, setup_django

    setup_django()
    prefix = ROOT / "var" / "bench" / "slow-clients"
    shutil.rmtree(prefix, ignore_errors=True)
    prefix.mkdir(parents=True)
    with fresh_database() as connection:
        environment = production_environment(connection)
        lines = [
            f"Slow clients: {connection.vendor}, Procfile's gunicorn, /healthz probed ({PROBE_TIMEOUT:.0f} s timeout)"
        ]
        with procfile_web(environment, free_port(), prefix / "web-alone.log") as web:
            for count, results in probes_while_slow(web, None, web).items():
                lines.append(_line(f"gunicorn alone, {count} slow connections", results))
        behind = procfile_web(environment, free_port(), prefix / "web-behind-nginx.log")
        with behind as web, example_nginx(prefix / "nginx", web) as (http_port, https_port):
            for count, results in probes_while_slow(http_port, https_port, http_port).items():
                lines.append(_line(f"behind nginx, {count} slow connections", results))
    print("\n".join(lines))


if __name__ == "__main__":
    main()

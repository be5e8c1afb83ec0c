"""Start a real, throw-away PostgreSQL server for the tests (Debian's binaries, trust auth, loopback only).

    with postgres_server(tmp_folder) as pg:
        pg.url      # "postgresql://postgres@127.0.0.1:PORT/postgres"
        pg.stop()   # for the "server went away" tests
        pg.start()  # same folder, same port

PostgreSQL refuses to run as root; when the tests run as root the server runs as an unprivileged user (``nobody``
by default, or a ``canasta-pg`` user created with ``useradd`` when ``nobody`` is missing) through ``runuser``.
Ports 9300-9319 only (the machine's rule for servers started by tests).
"""
from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import time
from pathlib import Path

PORTS = range(9300, 9320)
SUPERUSER = "postgres"


class PostgresUnavailable(RuntimeError):
    """No PostgreSQL binaries on this machine, or the server would not start."""


def find_bin(name: str) -> str:
    """Path of a PostgreSQL program: Debian keeps them in /usr/lib/postgresql/VERSION/bin (newest wins), else PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                   key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
    if found:
        return found[-1]
    on_path = shutil.which(name)
    if on_path:
        return on_path
    raise PostgresUnavailable(f"PostgreSQL's {name} was not found (install Debian's postgresql: apt-get install "
                              f"postgresql; scripts/test.sh does it)")


def _run_as_user() -> str | None:
    """The unprivileged user to run the server as when we are root (None when we are not root)."""
    if os.geteuid() != 0:
        return None
    for name in ("nobody", "canasta-pg"):
        with contextlib.suppress(KeyError):
            pwd.getpwnam(name)
            return name
    subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "canasta-pg"],
                   check=True, capture_output=True)
    return "canasta-pg"


def _free_port() -> int:
    # each pytest-xdist worker starts its own server: worker gwN looks from the N-th block of five ports on, so two
    # workers starting at the same moment never pick the same free port
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    start = 5 * int(worker[2:]) % len(PORTS) if worker[2:].isdigit() else 0
    for port in [*PORTS[start:], *PORTS[:start]]:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise PostgresUnavailable("no free port in 9300-9319 for the test PostgreSQL server")


class PostgresServer:
    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.data = self.folder / "data"
        self.sockets = self.folder / "sock"
        self.log = self.folder / "server.log"
        self.user = _run_as_user()
        self.port: int | None = None
        self.running = False

    # -- helpers ----------------------------------------------------------------------------------------------
    def _cmd(self, *argv: str) -> list[str]:
        return (["runuser", "-u", self.user, "--"] if self.user else []) + list(argv)

    def _run(self, *argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
        proc = subprocess.run(self._cmd(*argv), capture_output=True, text=True, timeout=timeout)
        if proc.returncode != 0:
            log = self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""
            raise PostgresUnavailable(f"{' '.join(argv[:2])} failed ({proc.returncode}): {proc.stderr.strip()}\n{log}")
        return proc

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def url_for(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    # -- life cycle -------------------------------------------------------------------------------------------
    def init(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.sockets.mkdir(exist_ok=True)
        if self.user:
            uid, gid = pwd.getpwnam(self.user).pw_uid, pwd.getpwnam(self.user).pw_gid
            for p in (self.folder, self.sockets):
                os.chown(p, uid, gid)
            # the user must be able to reach the folder: make every parent traversable is not ours to do, so the
            # caller gives a folder under a world-traversable place (tempfile's /tmp is).
        self._run(find_bin("initdb"), "-D", str(self.data), "-U", SUPERUSER, "--auth=trust", "-E", "UTF8",
                  "--no-locale", "--no-sync")

    def start(self) -> None:
        if self.running:
            return
        if self.port is None:
            self.port = _free_port()
        opts = (f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.sockets} -c fsync=off "
                f"-c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
        self._run(find_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-o", opts, "-w", "-t", "60",
                  "start")
        self.running = True
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # pg_ctl -w waits already; make sure TCP answers too
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.1)
        raise PostgresUnavailable(f"PostgreSQL did not answer on 127.0.0.1:{self.port}")

    def stop(self) -> None:
        if not self.running:
            return
        self._run(find_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "-t", "60", "stop")
        self.running = False

    def psql(self, sql: str, database: str = "postgres") -> str:
        return self._run(find_bin("psql"), "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, "-d", database,
                         "-v", "ON_ERROR_STOP=1", "-qAt", "-c", sql).stdout

    def create_database(self, name: str) -> str:
        """CREATE DATABASE name; returns its URL."""
        self.psql(f'CREATE DATABASE "{name}"')
        return self.url_for(name)


@contextlib.contextmanager
def postgres_server(folder):
    """A running PostgreSQL server in ``folder`` (created; owned by the server's user when we are root)."""
    server = PostgresServer(Path(folder))
    server.init()
    server.start()
    try:
        yield server
    finally:
        with contextlib.suppress(Exception):
            server.stop()

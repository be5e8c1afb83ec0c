import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parent.parent

# Run inside a JupyterHub (or Binder) the tests still see nobody signed in, as on a laptop.
for _hub_var in ("JUPYTERHUB_USER", "CANASTA_TUTOR_ROLE", "BINDER_LAUNCH_HOST", "BINDER_REQUEST"):
    os.environ.pop(_hub_var, None)
# Tests, lessons run by nbval and servers started by tests keep their progress away from the user's own: a fresh
# database per pytest process (each xdist worker its own, not the one its parent made), removed at the end.
if "CANASTA_TUTOR_DB" not in os.environ or os.environ.get("_CANASTA_TESTS_DB") == os.environ["CANASTA_TUTOR_DB"]:
    _tests_db_dir = tempfile.mkdtemp(prefix="canasta-tests-")
    os.environ["CANASTA_TUTOR_DB"] = os.environ["_CANASTA_TESTS_DB"] = os.path.join(_tests_db_dir, "progress.sqlite3")
    atexit.register(shutil.rmtree, _tests_db_dir, ignore_errors=True)

# The README's test command runs two pytest workers (pytest-xdist, scripts/test.sh). Each file stays on one worker
# (its module fixtures are made once), and the files that start a web server, a browser or JupyterHub form one unit
# of work that runs on one worker, one file after another, as without workers: their ports and their time limits
# never meet a second server. The other worker runs the rest meanwhile. (A scheduler of our own: xdist's
# ``--dist loadgroup`` marks tests by renaming them, which pytest 9 no longer allows.)
SERVER_FILES = frozenset({
    "test_browser.py", "test_browser_app.py", "test_browser_classroom.py", "test_browser_coach.py",
    "test_browser_keep.py", "test_browser_language.py", "test_browser_lesson_language.py", "test_browser_live.py",
    "test_browser_mistakes.py", "test_browser_table.py", "test_browser_term.py", "test_hub.py",
    "test_kernel_faults.py", "test_lesson_text.py", "test_lessons.py", "test_live.py", "test_no_cdn.py",
    "test_scripts.py", "test_sign_in_limit.py", "test_web_handlers.py", "test_web_limits.py",
})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    from xdist.scheduler import LoadScopeScheduling

    class ServersTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "servers" if path.rsplit("/", 1)[-1] in SERVER_FILES else path

    return ServersTogether(config, log)

settings.register_profile("ci", max_examples=150, deadline=None)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def root() -> Path:
    return ROOT


def run_cli(*args, cwd=None):
    import subprocess

    return subprocess.run([sys.executable, "-m", "canasta_tutor.cli", *args], capture_output=True, text=True,
                          cwd=cwd or ROOT, encoding="utf-8")


@pytest.fixture
def cli():
    """Run ``canasta-tutor ARGS`` in a subprocess; returns the CompletedProcess."""
    return run_cli


@pytest.fixture(scope="session")
def pg_server():
    """One real PostgreSQL server for the whole session (tests/pgserver.py); stopped at the end."""
    import shutil

    from pgserver import postgres_server

    # not tmp_path_factory: its folders are private to root, and the server runs as an unprivileged user when we are
    # root
    folder = tempfile.mkdtemp(prefix="canasta-pg-")
    with postgres_server(folder) as server:
        yield server
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_url(pg_server) -> str:
    """URL of the session's PostgreSQL server ("postgresql://postgres@127.0.0.1:PORT/postgres")."""
    return pg_server.url


_pg_databases = iter(range(1, 10**6))


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path, monkeypatch):
    """The progress database of one test, on each backend: an SQLite file in tmp_path, or a fresh database
    (CREATE DATABASE) on the session's PostgreSQL server. Files that go with it (assignments) stay in tmp_path."""
    monkeypatch.setenv("CANASTA_TUTOR_FILES", str(tmp_path / "files"))
    if request.param == "sqlite":
        yield str(tmp_path / "p.sqlite3")
        return
    server = request.getfixturevalue("pg_server")
    name = f"t{os.getpid()}_{next(_pg_databases)}"
    url = server.create_database(name)
    yield url
    from canasta_tutor.classroom import db

    db.forget(db.target(url))
    server.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

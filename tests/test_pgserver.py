"""The test helper that starts a real PostgreSQL server (tests/pgserver.py)."""
import socket

from pgserver import PORTS


def test_server_answers_and_survives_a_restart(pg_server):
    assert pg_server.url.startswith("postgresql://postgres@127.0.0.1:") and pg_server.port in PORTS
    name = "pgserver_restart_check"
    pg_server.psql(f'DROP DATABASE IF EXISTS "{name}"')
    url = pg_server.create_database(name)
    assert url.endswith(f"/{name}")
    pg_server.psql("CREATE TABLE t (x int); INSERT INTO t VALUES (41)", name)
    pg_server.stop()
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", pg_server.port)) != 0, "the server still answers after stop()"
    pg_server.start()
    assert pg_server.psql("SELECT x + 1 FROM t", name).strip() == "42"
    pg_server.psql(f'DROP DATABASE "{name}"')

"""The README's first command, run as a newcomer runs it: from a clean copy of the project, with arguments.

`bash scripts/start.sh --no-browser --port N` must make its own virtual environment, install the lessons and
serve the landing page on that port. The copy has no `.venv`, so this test pays for a real install (pip's cache
makes the second install on a machine take about a minute).
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request

from test_browser import free_port


def _clean_copy(root, dest):
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                           capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = root / name
        if not src.is_file():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target)
    assert not (dest / ".venv").exists()


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return response.status, response.read().decode("utf-8", "replace")


def test_start_script_with_arguments_serves_the_landing_page(root, tmp_path):
    args = ["--no-browser", "--port", "{port}"]
    project = tmp_path / "canasta-tutor"
    _clean_copy(root, project)
    port = free_port()
    args = [a.format(port=port) for a in args]
    argv = ["bash", "scripts/start.sh", *args]
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
    env["CANASTA_TUTOR_DB"] = str(tmp_path / "progress.sqlite3")
    log = open(tmp_path / "start.log", "w+")
    proc = subprocess.Popen(argv, cwd=project, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 900
        page = None
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                break
            if "Voilà is running at" not in (tmp_path / "start.log").read_text("utf-8", "replace"):
                # not listening yet: whatever answers on the port now is not this copy's server (the port was free
                # when picked, minutes ago; another test run on this machine may have taken it since)
                time.sleep(1)
                continue
            try:
                status, page = _get(f"http://127.0.0.1:{port}/")
                if status == 200:
                    break
            except (urllib.error.URLError, OSError, http.client.HTTPException, ValueError):
                # not up yet, or a reply cut off while it starts (http.client raises ValueError on a broken chunk
                # size, seen once under heavy load): ask again
                time.sleep(1)
        log.seek(0)
        output = log.read()
        assert proc.poll() is None, f"scripts/start.sh {' '.join(args)} stopped:\n{output[-3000:]}"
        assert page is not None, f"no page within the time limit:\n{output[-3000:]}"
        assert "Canasta" in page, page[:2000]
        assert (project / ".venv" / "bin" / "canasta-tutor").exists()
        assert "[--" not in output, output[-3000:]
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=30)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
        log.close()

"""The lessons under a real JupyterHub: memory per learner and the time from login to a working landing page.

    .venv/bin/python benchmarks/hub.py [--learners 4] [--rounds 3]

Starts the hub as tests/test_hub.py does (the deploy's jupyterhub_config.py, configurable-http-proxy from
tests/.chp/, a local process spawner, a SQLite progress database in a temporary folder; 127.0.0.4, ports
9320-9349). Each round, N learners log in one after the other through the hub's login page in Chromium; for each,
the time from pressing "Sign in" to the landing page showing the learner's name (the server spawned, Voilà ran the
page in a new kernel, the widgets drawn). Then, with every learner's landing page open, the memory of each
learner's single-user server and its kernels (psutil: RSS, and PSS, which shares common pages fairly), and again
after each has moved on to lesson 4 (Voilà shuts the landing page's kernel as the page closes). Medians are
printed; each round stops the servers.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import test_hub as hubtest  # noqa: E402  (the test's hub set-up, reused)

MB = 1024 * 1024


def servers() -> dict[str, psutil.Process]:
    """Each running single-user server, by its hub user."""
    found = {}
    for proc in psutil.process_iter(["cmdline"]):
        cmd = proc.info["cmdline"] or []
        if "jupyterhub.singleuser" in cmd:
            try:
                user = proc.environ().get("JUPYTERHUB_USER")
            except psutil.Error:
                continue
            if user:
                found[user] = proc
    return found


def memory(proc: psutil.Process) -> tuple[float, float, int]:
    """(RSS MB, PSS MB, kernels) of a server and everything it started."""
    rss = pss = 0
    kernels = 0
    for p in [proc, *proc.children(recursive=True)]:
        try:
            info = p.memory_full_info()
        except psutil.Error:
            continue
        rss += info.rss
        pss += getattr(info, "pss", info.rss)
        kernels += "ipykernel_launcher" in " ".join(p.cmdline())
    return rss / MB, pss / MB, kernels


def one_round(browser, learners: list[str]) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="canasta-hub-bench-"))
    config = hubtest.hub_config(tmp, hubtest.free_ports(3 + len(hubtest.LEARNERS) + 1), users=learners)
    env = dict(os.environ, CANASTA_TUTOR_DB=str(tmp / "progress.sqlite3"), CANASTA_TEACHERS="")
    env.pop("JUPYTERHUB_USER", None)
    log = open(tmp / "hub.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(config)], cwd=tmp, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = config.read_text().split('bind_url = "')[1].split('"')[0]
    out = {"login": [], "landing": [], "lesson": []}
    try:
        hubtest.wait_for(base + "/hub/login", 90, proc)
        pages = {}
        for name in learners:
            page = browser.new_context().new_page()
            page.set_default_timeout(180_000)
            page.goto(base + "/hub/login")
            page.fill("#username_input", name)
            page.fill("#password_input", hubtest.PASSWORD)
            start = time.monotonic()
            page.click("#login_submit")
            page.locator(".ct-learner-name").wait_for()
            out["login"].append(time.monotonic() - start)
            pages[name] = page
        time.sleep(2)
        running = servers()
        out["landing"] = [memory(running[name]) for name in learners]
        for name in learners:
            page = pages[name]
            page.goto(f"{base}/user/{name}/voila/render/04-taking-the-pile.ipynb")
            page.locator(".ct-trainer").last.get_by_role("button", name="Yes", exact=True).wait_for()
        time.sleep(2)
        out["lesson"] = [memory(running[name]) for name in learners]
        for page in pages.values():
            page.context.close()
    finally:
        hubtest.stop_hub(proc, tmp)
        log.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=4, help="learners per round (at most 4)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    learners = [f"learner{i}" for i in range(1, min(args.learners, 4) + 1)]
    from playwright.sync_api import sync_playwright

    totals = {"login": [], "landing": [], "lesson": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=hubtest.CHROMIUM, args=hubtest.CHROMIUM_ARGS, headless=True)
        for r in range(args.rounds):
            got = one_round(browser, learners)
            for key in totals:
                totals[key] += got[key]
            print(f"round {r + 1}: login -> landing page {', '.join(f'{t:.1f}' for t in got['login'])} s",
                  flush=True)
        browser.close()
    print(f"machine: {psutil.cpu_count()} cores, {psutil.virtual_memory().total / 2**30:.0f} GB, "
          f"load {os.getloadavg()[0]:.1f}")
    print(f"login -> working landing page: median {statistics.median(totals['login']):.1f} s, "
          f"worst {max(totals['login']):.1f} s ({len(totals['login'])} logins)")
    for key, what in (("landing", "landing page open"), ("lesson", "after moving on to lesson 4")):
        rss = statistics.median(m[0] for m in totals[key])
        pss = statistics.median(m[1] for m in totals[key])
        kernels = statistics.median(m[2] for m in totals[key])
        print(f"memory per learner, {what}: median RSS {rss:.0f} MB, PSS {pss:.0f} MB "
              f"(server + {kernels:.0f} kernel(s))")


if __name__ == "__main__":
    main()

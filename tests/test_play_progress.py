"""``canasta-tutor play`` shows its progress through :func:`canasta_tutor.cli.progress` (the one helper
``generate`` uses too): a bar counting the hands on a terminal, nothing at all in a pipe; the hands printed are the
same either way. In-process, with standard error swapped for a terminal-like or a pipe-like stream."""

from __future__ import annotations

import io
import sys

import canasta_tutor.cli as cli
from canasta_tutor.cli import main


class Screen(io.StringIO):
    def isatty(self) -> bool:
        return True


def run(monkeypatch, capsys, stderr, hands=3):
    monkeypatch.setattr(sys, "stderr", stderr)
    status = main(["play", "--rules", "classic", "--seed", "4", "--hands", str(hands), "--json",
                   "--bots", "random,random,random,random"])
    return status, capsys.readouterr().out


def test_a_bar_counting_the_hands_on_a_terminal(monkeypatch, capsys):
    screen = Screen()
    status, out = run(monkeypatch, capsys, screen)
    assert status == 0 and len(out.splitlines()) == 3
    seen = screen.getvalue()
    # tqdm: "play:   0%|...| 0/3 [00:00<?, ? hand/s]"
    assert "play:" in seen and "/3 [" in seen and "hand/s" in seen, seen


def test_nothing_in_a_pipe_and_the_same_hands(monkeypatch, capsys):
    pipe = io.StringIO()
    status, out = run(monkeypatch, capsys, pipe)
    assert status == 0 and pipe.getvalue() == ""
    _status, on_screen = run(monkeypatch, capsys, Screen())
    assert out == on_screen and len(out.splitlines()) == 3


def test_play_counts_through_the_progress_helper(monkeypatch, capsys):
    calls = []
    real = cli.progress

    def spy(total, unit, **kwargs):
        bar = real(total, unit, **kwargs)
        calls.append((total, unit, bar))
        return bar

    monkeypatch.setattr(cli, "progress", spy)
    status, _out = run(monkeypatch, capsys, Screen(), hands=2)
    assert status == 0 and [(t, u) for t, u, _b in calls] == [(2, "hand")] and calls[0][2].n == 2

"""House rules side by side: one situation judged under every preset.

>>> frame = judge_everywhere("meld", cards="9H 9S 9D 2C 2D JK")
>>> frame.loc["danish", "answer"], frame.loc["hoyle", "answer"]
('not a meld', 'a meld')
"""

from __future__ import annotations

from .errors import CanastaError
from .puzzle import Puzzle, parse_situation
from .rules import PRESETS, citation, get_rules

#: The options that decide each kind of question, for naming the source of each answer.
DECIDING_OPTIONS = {
    "meld": ("wild_limit", "max_wild", "sequences", "black_threes_with_wild"),
    "opening": ("opening_table", "wild_limit"),
    "freeze": ("pile_always_frozen",),
    "take-pile": ("take_with_natural_and_wild", "take_onto_canasta", "opening_table", "canastas_to_go_out"),
    "go-out": ("canastas_to_go_out", "wild_limit", "black_threes_with_wild"),
    "score-hand": ("red_three_penalty", "all_red_threes_penalty", "all_red_threes_bonus", "concealed_going_out_bonus",
                   "samba_bonus"),
    "card-points": (),
}

#: Situations worth comparing, for the variants lesson.
EXAMPLES = {
    "Is 9-9-9-2-2-Joker a meld?": ("meld", {"cards": "9H 9S 9D 2C 2D JK"}),
    "Is 5-5-2-2 a meld?": ("meld", {"cards": "5H 5S 2C 2D"}),
    "Is 5-6-7-8 of hearts a meld?": ("meld", {"cards": "5H 6H 7H 8H"}),
    "Can you go out with one canasta on the table?": (
        "go-out", {"hand": "KH KS KD 9C", "melds": ["7H 7S 7D 7C 7H 7S 7D"], "score": 0}),
    "Take the pile with one 7 and a joker?": (
        "take-pile", {"hand": "7H JK 4C 9D", "melds": ["KH KS KD"], "score": 0, "pile": "5D 8S 7C"}),
    "What do two red threes cost a team that never melded?": (
        "score-hand", {"melds": [], "red_threes": "3H 3D", "hands": [], "went_out": False}),
    "Opening with 80 points at a score of 1500?": (
        "opening", {"score": 1500, "melds": ["AH AS AD 2C"]}),
}


def _describe(kind: str, answer: dict) -> str:
    if kind == "meld":
        if not answer["valid"]:
            return "not a meld"
        return "a meld" if answer["canasta"] == "none" else f"a {answer['canasta']} canasta" \
            if answer["canasta"] != "samba" else "a samba"
    if kind in ("card-points", "score-hand"):
        return str(next(iter(answer.values())))
    if kind == "opening":
        return f"{'enough' if answer['enough'] else 'not enough'} (minimum {answer['minimum']})"
    return "yes" if next(iter(answer.values())) else "no"


def judge_everywhere(kind: str, presets=None, **situation):
    """One row per preset: the answer, the engine's first reason, and the source of the deciding rules."""
    import pandas as pd

    from .solver import solve

    rows = {}
    for name in presets or PRESETS:
        rules = get_rules(name)
        parsed = parse_situation(situation)
        try:
            solution = solve(Puzzle(id="compare", kind=kind, rules=rules, situation=parsed))
            answer = _describe(kind, solution.answer)
            why = solution.explanation[0] if solution.explanation else ""
        except CanastaError as e:  # an impossible situation under this preset's decks
            answer, why = "cannot happen", str(e)
        sources = []
        for option in DECIDING_OPTIONS.get(kind, ()):
            cite = citation(rules, option)
            if cite and cite not in sources:
                sources.append(cite)
        rows[name] = {"answer": answer, "why": why, "source": " / ".join(sources)}
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "preset"
    return frame


def highlight_differences(frame, column: str = "answer", baseline: str = "classic"):
    """A pandas Styler that marks the rows whose ``column`` differs from the ``baseline`` row."""
    base = frame.loc[baseline, column] if baseline in frame.index else None

    def colour(row):
        differs = base is not None and row[column] != base
        return ["background-color: #fff3c4; font-weight: bold" if differs else "" for _ in row]

    return frame.style.apply(colour, axis=1)


def presets_styled():
    """All presets side by side, the options on which they differ highlighted."""
    from .rules import differing_options, presets_table

    frame = presets_table()
    differing = set(differing_options())

    def colour(row):
        return ["background-color: #fff3c4" if row.name in differing else "" for _ in row]

    return frame.style.apply(colour, axis=1)


def sources_table():
    """For each preset and each option it changes from classic: the source that says so."""
    import pandas as pd

    from .rules import CLASSIC, OPTION_NAMES

    rows = []
    for name, rules in PRESETS.items():
        for option in OPTION_NAMES:
            if name == "classic" or getattr(rules, option) != getattr(CLASSIC, option):
                cite = citation(rules, option)
                if cite:
                    rows.append({"preset": name, "option": option, "value": getattr(rules, option), "source": cite})
    return pd.DataFrame(rows)

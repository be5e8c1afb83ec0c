"""Cards drawn as cards, in HTML: stateless functions with keyword-only options.

Pure Python (no Jupyter import): the widgets and the lessons call these, and so
can anything that shows HTML. Styles are inline, so nothing is fetched from
the network.

>>> 'K♥' in cards_html("KH")
True
"""

from __future__ import annotations

import html

from .cards import Card, parse_cards
from .melds import as_cards, check_meld

RED = "#c62828"
BLACK = "#1b1b1b"
JOKER_COLOUR = "#6a1b9a"

# What a verdict means for the learner, and how it looks: defined once, used by every widget and lesson helper.
# A colour never stands alone: each tone has its own symbol too.
GOOD, BAD, FROZEN, NEUTRAL = "good", "bad", "frozen", "neutral"
TONES = {  # tone -> (colour, symbol); the colours keep a 4.5:1 contrast on white
    GOOD: ("#2e7d32", "✔"),
    BAD: ("#c62828", "✘"),
    FROZEN: ("#1565c0", "❄"),
    NEUTRAL: ("#444444", ""),
}
# The tone of a yes and of a no, per question. Yes is good news for most questions ("you may take the pile",
# "a meld"); for "is the pile frozen?" a yes is a state to reckon with (blue, like the frozen marker), a no is good.
VERDICT_TONES = {"freeze": (FROZEN, GOOD)}
_DEFAULT_TONES = (GOOD, BAD)


def tone_colour(tone: str) -> str:
    return TONES[tone][0]


def verdict_tone(ok: bool, kind: str | None = None) -> str:
    """The tone of a verdict: ``ok`` is the engine's yes or no, ``kind`` the question (a puzzle kind)."""
    yes, no = VERDICT_TONES.get(kind, _DEFAULT_TONES)
    return yes if ok else no


def verdict_html(verdict, *, yes: str = "Yes", no: str = "No", kind: str | None = None, inline: bool = False) -> str:
    """A verdict's headline in its tone (colour and symbol), then its reasons (a list, or one line if ``inline``)."""
    tone = verdict_tone(bool(verdict), kind)
    colour, symbol = TONES[tone]
    head = f"{symbol} {yes if verdict else no}".strip()
    if inline:
        reasons = " ".join(html.escape(r.text) for r in verdict.reasons)
        return (f"<div class='ct-verdict ct-tone-{tone}' style='color:{colour}'><b>{html.escape(head)}</b> "
                f"{reasons}</div>")
    items = "".join(f"<li>{html.escape(r.text)}</li>" for r in verdict.reasons)
    return (f"<div class='ct-verdict ct-tone-{tone}'><div style='color:{colour};font-size:1.15em'>"
            f"<b>{html.escape(head)}</b></div><ul>{items}</ul></div>")

_CARD = ("display:inline-block;box-sizing:border-box;width:{w}px;height:{h}px;margin:2px;padding:3px 4px;"
         "border:1px solid #888;border-radius:6px;background:{bg};color:{fg};font:bold {fs}px/1.1 "
         "'DejaVu Sans',Arial,sans-serif;text-align:left;vertical-align:top;box-shadow:1px 1px 2px #bbb")


def card_html(card: Card | str, *, size: str = "normal", highlight: bool = False, title: str = "") -> str:
    """One card: rank and suit symbol, red or black; a joker is purple and says JOKER."""
    card = Card(card)
    w, h, fs = {"small": (30, 42, 12), "normal": (42, 60, 16), "large": (56, 80, 21)}[size]
    bg = "#fff8d6" if highlight else "#ffffff"
    if card.rank == "JK":
        fg, face = JOKER_COLOUR, "★<br><span style='font-size:0.55em'>JOKER</span>"
    else:
        fg = RED if card.is_red else BLACK
        face = f"{html.escape(card.rank)}<br>{card.text[-1]}"
    tip = html.escape(title or ("joker" if card.rank == "JK" else card.text))
    return (f"<span class='ct-card' data-card='{card.code}' title='{tip}' "
            f"style=\"{_CARD.format(w=w, h=h, bg=bg, fg=fg, fs=fs)}\">{face}</span>")


def cards_html(cards, *, size: str = "normal", empty: str = "no cards") -> str:
    cards = as_cards(cards) if not isinstance(cards, str) else parse_cards(cards)
    if not cards:
        return f"<span style='color:#595959;font-style:italic'>{html.escape(empty)}</span>"
    return "<span style='white-space:normal'>" + "".join(card_html(c, size=size) for c in cards) + "</span>"


def badge(text: str, colour: str) -> str:
    return (f"<span style='display:inline-block;margin-left:6px;padding:1px 7px;border-radius:10px;"
            f"background:{colour};color:white;font:bold 12px sans-serif;vertical-align:middle'>{html.escape(text)}"
            f"</span>")


def pile_html(pile, *, frozen: bool | None = None, size: str = "normal") -> str:
    """The discard pile, bottom to top; the top card is raised; a frozen pile carries a marker."""
    pile = as_cards(pile) if not isinstance(pile, str) else parse_cards(pile)
    if not pile:
        body = "<span style='color:#595959;font-style:italic'>the pile is empty</span>"
    else:
        under = "".join(card_html(c, size="small") for c in pile[:-1])
        top = card_html(pile[-1], size=size, highlight=True, title=f"top card: {pile[-1].text}")
        body = (f"<span style='opacity:0.85'>{under}</span>" if under else "") + \
               f"<span style='margin-left:6px'>{top}</span>"
    marker = ""
    if frozen is not None:
        tone = verdict_tone(frozen, "freeze")
        marker = badge(f"{TONES[tone][1]} frozen for your team" if frozen else f"{TONES[tone][1]} not frozen",
                       tone_colour(tone))
    return f"<div class='ct-pile'><b>Discard pile</b> <small>(bottom → top)</small>{marker}<br>{body}</div>"


def melds_html(melds, rules, *, title: str = "Your team's melds") -> str:
    """The team's melds, one row each, canastas marked."""
    rows = []
    for meld in melds:
        meld = as_cards(meld)
        v = check_meld(meld, rules, going_out=True)
        mark = ""
        if v.canasta == "natural":
            mark = badge("natural canasta", RED)
        elif v.canasta == "mixed":
            mark = badge("mixed canasta", BLACK)
        elif v.canasta == "samba":
            mark = badge("samba", "#a84300")
        rows.append(f"<div class='ct-meld'>{cards_html(meld, size='small')}{mark}</div>")
    if not rows:
        rows.append("<div style='color:#595959;font-style:italic'>none yet: your team has not melded</div>")
    return f"<div class='ct-melds'><b>{html.escape(title)}</b>{''.join(rows)}</div>"


def situation_html(puzzle, *, show_frozen: bool = True, show_minimum: bool = True) -> str:
    """A puzzle's situation as a card player sees it (never its answer)."""
    from .pile import check_frozen

    s = puzzle.situation
    rules = puzzle.rules
    parts = [f"<div style='color:#555;font-size:12px'>Rules: {html.escape(rules.title)}</div>"]
    kind = puzzle.kind
    if kind in ("card-points", "meld"):
        parts.append(f"<div><b>Cards</b><br>{cards_html(s.get('cards', ()), size='large')}</div>")
        if kind == "meld" and s.get("going_out"):
            parts.append("<div>You are going out this turn.</div>")
    if kind in ("opening",):
        parts.append(melds_html(s.get("melds", []), rules, title="The melds you put down"))
    if kind in ("freeze", "take-pile", "go-out"):
        parts.append(melds_html(s.get("melds", []), rules))
    if kind in ("freeze", "take-pile"):
        frozen = None
        if show_frozen:
            frozen = check_frozen(s.get("pile", ()), s.get("melds", []), rules).ok
        parts.append(pile_html(s.get("pile", ()), frozen=frozen))
        if s.get("stock_empty"):
            parts.append("<div>The stock is empty.</div>")
    if kind in ("take-pile", "go-out"):
        parts.append(f"<div><b>Your hand</b><br>{cards_html(s.get('hand', ()))}</div>")
    if kind == "score-hand":
        parts.append(melds_html(s.get("melds", []), rules, title="Your team's melds at the end of the hand"))
        parts.append(f"<div><b>Red threes</b><br>{cards_html(s.get('red_threes', ()), size='small', empty='none')}</div>")
        hands = s.get("hands", [])
        for i, hand in enumerate(hands, 1):
            label = "Cards left in your hand" if i == 1 else "Cards left in your partner's hand"
            parts.append(f"<div><b>{label}</b><br>{cards_html(hand, size='small', empty='none')}</div>")
        went = s.get("went_out", False)
        from .scoring import parse_went_out

        went = parse_went_out(went)
        parts.append("<div>" + ("Your team went out concealed." if went == "concealed" else
                                "Your team went out." if went else "Your team did not go out.") + "</div>")
    if kind in ("opening", "take-pile", "go-out"):
        score = s.get("score", 0)
        line = f"<b>Your team's score</b>: {score}"
        # the opening minimum matters only to a team that has not melded yet
        if show_minimum and not any(as_cards(m) for m in s.get("melds", [])):
            line += f" &nbsp; <b>opening minimum</b>: {rules.opening_minimum(score)}"
        parts.append(f"<div>{line}</div>")
    return "<div class='ct-situation' style='line-height:1.5'>" + "".join(
        f"<div style='margin:6px 0'>{p}</div>" for p in parts) + "</div>"

"""Cards drawn as cards, in HTML: stateless functions with keyword-only options.

Pure Python (no Jupyter import): the widgets and the lessons call these, and so
can anything that shows HTML. Styles are inline, so nothing is fetched from
the network.

>>> 'K♥' in cards_html("KH")
True
"""

from __future__ import annotations

import html

from ..engine.cards import Card, parse_cards
from ..engine.i18n import N_, pgettext
from ..engine.i18n import gettext as _
from ..engine.melds import MIXED, NATURAL, SAMBA, as_cards, check_meld
from ..puzzles.kinds import KINDS, get_kind

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
# The tone of a yes and of a no to a question other than a puzzle kind's (a kind's record has its own ``tones``):
# yes is good news for most questions ("you may take the pile", "a meld").
_DEFAULT_TONES = (GOOD, BAD)


def tone_colour(tone: str) -> str:
    return TONES[tone][0]


def verdict_tone(ok: bool, kind: str | None = None) -> str:
    """The tone of a verdict: ``ok`` is the engine's yes or no, ``kind`` the question (a puzzle kind, whose record
    says the tones of its yes and no)."""
    record = KINDS.get(kind) if isinstance(kind, str) else None
    if record is not None:
        return record.tone(ok)
    yes, no = _DEFAULT_TONES
    return yes if ok else no


def verdict_html(verdict, *, yes: str | None = None, no: str | None = None, kind: str | None = None,
                 inline: bool = False) -> str:
    """A verdict's headline in its tone (colour and symbol), then its reasons (a list, or one line if ``inline``)."""
    tone = verdict_tone(bool(verdict), kind)
    colour, symbol = TONES[tone]
    yes = _("Yes") if yes is None else yes
    no = _("No") if no is None else no
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


def cards_html(cards, *, size: str = "normal", empty: str | None = None) -> str:
    cards = as_cards(cards) if not isinstance(cards, str) else parse_cards(cards)
    if not cards:
        empty = _("no cards") if empty is None else empty
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
        empty = html.escape(_("the pile is empty"))
        body = f"<span style='color:#595959;font-style:italic'>{empty}</span>"
    else:
        under = "".join(card_html(c, size="small") for c in pile[:-1])
        top = card_html(pile[-1], size=size, highlight=True, title=_("top card: {card}").format(card=pile[-1].text))
        body = (f"<span style='opacity:0.85'>{under}</span>" if under else "") + \
               f"<span style='margin-left:6px'>{top}</span>"
    marker = ""
    if frozen is not None:
        tone = verdict_tone(frozen, "freeze")
        marker = badge(_("{symbol} frozen for your team").format(symbol=TONES[tone][1]) if frozen else
                       _("{symbol} not frozen").format(symbol=TONES[tone][1]), tone_colour(tone))
    heading = _("<b>Discard pile</b> <small>(bottom → top)</small>")
    return f"<div class='ct-pile'>{heading}{marker}<br>{body}</div>"


def melds_html(melds, rules, *, title: str | None = None) -> str:
    """The team's melds, one row each, canastas marked."""
    title = _("Your team's melds") if title is None else title
    rows = []
    for meld in melds:
        meld = as_cards(meld)
        v = check_meld(meld, rules, going_out=True)
        mark = ""
        if v.canasta == NATURAL:
            mark = badge(pgettext("term", "natural canasta"), RED)
        elif v.canasta == MIXED:
            mark = badge(pgettext("term", "mixed canasta"), BLACK)
        elif v.canasta == SAMBA:
            mark = badge(pgettext("canasta", "samba"), "#a84300")
        rows.append(f"<div class='ct-meld'>{cards_html(meld, size='small')}{mark}</div>")
    if not rows:
        none_yet = html.escape(_("none yet: your team has not melded"))
        rows.append(f"<div style='color:#595959;font-style:italic'>{none_yet}</div>")
    return f"<div class='ct-melds'><b>{html.escape(title)}</b>{''.join(rows)}</div>"


_CARD_TITLES = {"cards": N_("Cards"), "hand": N_("Your hand"), "red_threes": N_("Red threes")}


def _section_cards(s, rules, field, label, show):
    size = "large" if field == "cards" else "small" if field == "red_threes" else "normal"
    title = _(label) if label else _(_CARD_TITLES[field]) if field in _CARD_TITLES else field
    empty = _("none") if field == "red_threes" else _("no cards")
    return f"<div><b>{html.escape(title)}</b><br>{cards_html(s.get(field, ()), size=size, empty=empty)}</div>"


def _section_melds(s, rules, field, label, show):
    title = _(label) if label else (_("The other team's melds") if field == "opponents_melds"
                                    else _("Your team's melds"))
    return melds_html(s.get(field, []), rules, title=title)


def _section_pile(s, rules, field, label, show):
    from ..engine.pile import check_frozen

    frozen = check_frozen(s.get("pile", ()), s.get("melds", []), rules).ok if "frozen" in show else None
    return pile_html(s.get("pile", ()), frozen=frozen)


def _section_hands(s, rules, field, label, show):
    """The cards left in each of the team's hands: the learner's first, then the partner's (puzzle-format.md); a
    sheet that lists no hand still says that no card is left."""
    hands = s.get("hands", [])
    if not any(hands) and len(hands) < 2:
        title = _("Cards left in your team's hands")
        none = _("none")
        return f"<div><b>{html.escape(title, quote=False)}</b><br>{cards_html((), size='small', empty=none)}</div>"
    out = []
    for i, hand in enumerate(hands, 1):
        title = _("Cards left in your hand") if i == 1 else _("Cards left in your partner's hand")
        cards = cards_html(hand, size="small", empty=_("none"))
        out.append(f"<div><b>{html.escape(title, quote=False)}</b><br>{cards}</div>")
    return "".join(out)


def _section_went_out(s, rules, field, label, show):
    from ..engine.scoring import parse_went_out

    went = parse_went_out(s.get("went_out", False))
    return (_("Your team went out concealed.") if went == "concealed" else
            _("Your team went out.") if went else _("Your team did not go out."))


def _section_score(s, rules, field, label, show):
    score = s.get("score", 0)
    title = html.escape(_(label)) if label else html.escape(_("Your team's score"), quote=False)
    line = f"<b>{title}</b>: {score}"
    # the opening minimum matters only to a team that has not melded yet
    if "minimum" in show and not any(as_cards(m) for m in s.get("melds", [])):
        line += f" &nbsp; <b>{html.escape(pgettext('term', 'opening minimum'))}</b>: {rules.opening_minimum(score)}"
    return line


def _section_flag(text):
    def draw(s, rules, field, label, show):
        return html.escape(_(label or text)) if s.get(field) else ""
    return draw


def _section_count(text):
    def draw(s, rules, field, label, show):
        value = s.get(field)
        return "" if value is None else f"<b>{html.escape(_(label or text))}</b>: {html.escape(str(value))}"
    return draw


#: How each situation field is drawn: ``draw(situation, rules, field, label, show) -> html`` ("" draws nothing).
SECTIONS = {
    "cards": _section_cards, "hand": _section_cards, "red_threes": _section_cards,
    "melds": _section_melds, "opponents_melds": _section_melds,
    "pile": _section_pile, "hands": _section_hands, "went_out": _section_went_out, "score": _section_score,
    "going_out": _section_flag(N_("You are going out this turn.")),
    "stock_empty": _section_flag(N_("The stock is empty.")),
    "concealed_canastas": _section_count(N_("Canastas melded concealed")),
}


def situation_html(puzzle, *, show_frozen: bool = True, show_minimum: bool = True, answering: bool = False) -> str:
    """A puzzle's situation as a card player sees it, laid out as its kind's record says (``layout``,
    ``labels``); never its answer. ``answering``: the learner is about to answer, so what the kind ``hides``
    (the frozen marker, the opening minimum) is left out; ``show_frozen``/``show_minimum`` leave them out too."""
    kind = get_kind(puzzle.kind)
    s = puzzle.situation
    rules = puzzle.rules
    show = {name for name, on in (("frozen", show_frozen), ("minimum", show_minimum)) if on}
    if answering:
        show -= set(kind.hides)
    said = _("Rules: {title}").format(title=html.escape(rules.display_title))
    parts = [f"<div style='color:#555;font-size:12px'>{said}</div>"]
    for field in kind.layout:
        draw = SECTIONS.get(field, _section_count(field))
        part = draw(s, rules, field, kind.labels.get(field, ""), show)
        if part:
            parts.append(f"<div>{part}</div>" if not part.startswith("<div") else part)
    return "<div class='ct-situation' style='line-height:1.5'>" + "".join(
        f"<div style='margin:6px 0'>{p}</div>" for p in parts) + "</div>"

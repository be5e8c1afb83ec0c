"""Puzzle files: load and validate a puzzle set (the contract of ``puzzle-format.md``).

A puzzle set is one YAML file. The loader checks it against the JSON Schema
shipped in ``canasta_tutor/puzzles/schema/puzzle-set.schema.json``, then reads every
card, resolves the rules and checks that the cards could all come from the
rule set's decks. A broken file raises :class:`PuzzleError`; a broken puzzle
does not stop the others: it is kept in ``PuzzleSet.errors``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..engine.cards import how_to_write_a_card, parse_cards
from ..engine.errors import QUOTE_LIMIT, CanastaError, NotationError, PuzzleError, RulesError, clip, clip_repr
from ..engine.i18n import get_language
from ..engine.i18n import gettext as _
from ..engine.numbers import digits_written, grouped, join_words
from ..engine.rules import CLASSIC, OPTION_NAMES, PRESETS, RuleSet, get_rules, with_options
from ..engine.situation import CARD_FIELDS, GROUPS_FIELDS, Situation, copies_problem
from .kinds import KINDS as registry
from .kinds import registry_version

GROUP_FIELDS = CARD_FIELDS
LIST_FIELDS = GROUPS_FIELDS
#: The keys every puzzle may have, whatever its kind (its situation fields come from its kind's record).
COMMON_KEYS = ("id", "kind", "difficulty", "topic", "prompt", "rules", "expect", "i18n")


class _Kinds:
    """``puzzle.KINDS``: the registered kinds' names (the registry itself is
    :data:`canasta_tutor.puzzles.kinds.KINDS`)."""

    def _names(self):
        return tuple(registry)

    def __iter__(self):
        return iter(self._names())

    def __contains__(self, name) -> bool:
        return name in self._names()

    def __len__(self) -> int:
        return len(self._names())

    def __getitem__(self, i):
        return self._names()[i]

    def __repr__(self) -> str:
        return repr(self._names())


KINDS = _Kinds()


def _translated(i18n: dict, key: str, english: str, lang: str | None) -> str:
    """A puzzle's or a set's text ``key`` in ``lang`` (default: the current language) from its optional ``i18n:``
    map (``{nl: {prompt: ...}}``), else the English one."""
    return (i18n.get(lang or get_language()) or {}).get(key) or english


@dataclass(frozen=True)
class Puzzle:
    """One validated puzzle: its :class:`Situation` (cards parsed, rules included), and the author's ``expect``.

    A mapping given as ``situation`` is read into a :class:`Situation` under ``rules``.
    """

    id: str
    kind: str
    rules: RuleSet
    situation: Situation
    expect: dict[str, Any] | None = None
    difficulty: int = 1
    topic: str = ""
    prompt: str = ""
    file: str = ""
    set_title: str = ""
    #: the optional ``i18n:`` maps of the puzzle (``{"nl": {"prompt": ...}}``) and its set (``{"nl": {"title": ...}}``)
    i18n: dict = field(default_factory=dict, compare=False)
    set_i18n: dict = field(default_factory=dict, compare=False)

    def prompt_text(self, lang: str | None = None) -> str:
        """The prompt as a reader of ``lang`` (default: the current language) reads it: its ``i18n:`` translation,
        else the English ``prompt``."""
        return _translated(self.i18n, "prompt", self.prompt, lang)

    def set_title_text(self, lang: str | None = None) -> str:
        """The set's title in ``lang`` (see :meth:`prompt_text`); :attr:`set_title` stays the English one (the
        name a learner's answers are kept under)."""
        return _translated(self.set_i18n, "title", self.set_title, lang)

    def __post_init__(self):
        if not isinstance(self.situation, Situation):
            object.__setattr__(self, "situation", Situation(rules=self.rules, **dict(self.situation)))
        elif self.situation.rules != self.rules:
            object.__setattr__(self, "situation", self.situation.replace(rules=self.rules))

    def field(self, name: str, default=None):
        """A situation field by name (as ``puzzle.situation.get``)."""
        return self.situation.get(name, default)


@dataclass
class PuzzleSet:
    file: str
    title: str
    rules: RuleSet
    puzzles: list[Puzzle] = field(default_factory=list)
    errors: list[PuzzleError] = field(default_factory=list)

    i18n: dict = field(default_factory=dict)

    def __iter__(self):
        return iter(self.puzzles)

    def __len__(self) -> int:
        return len(self.puzzles)

    def title_text(self, lang: str | None = None) -> str:
        """The title in ``lang`` (default: the current language): its ``i18n:`` translation, else the English one."""
        return _translated(self.i18n, "title", self.title, lang)


@lru_cache(maxsize=1)
def shipped_schema() -> dict:
    """The JSON Schema of a puzzle set as shipped in ``schema/puzzle-set.schema.json``."""
    text = resources.files("canasta_tutor.puzzles").joinpath("schema/puzzle-set.schema.json").read_text("utf-8")
    return json.loads(text)


def kind_rules(kinds=None) -> tuple[list[str], list[dict]]:
    """The per-kind part of the schema, made from the registry: the ``kind`` enum and one ``if``/``then`` per kind
    (its required fields, and the keys it allows)."""
    chosen = registry.values() if kinds is None else kinds
    names = [k.name for k in chosen]
    rules = [{"if": {"properties": {"kind": {"const": k.name}}, "required": ["kind"]},
              "then": {"required": list(k.required), "propertyNames": {"enum": list(COMMON_KEYS) + list(k.fields)},
                       "properties": {"expect": {"additionalProperties": False,
                                                 "properties": {key: _answer_schema(t)
                                                                for key, t in k.answers.items()}}}}}
             for k in chosen]
    return names, rules


def _answer_schema(t) -> dict:
    """The JSON Schema of one answer key: a type (``int``, ``bool``, ``str``) or a tuple of allowed values."""
    if isinstance(t, tuple):
        return {"enum": list(t)}
    return {"type": {int: "integer", bool: "boolean", str: "string"}[t]}


def schema() -> dict:
    """The JSON Schema of a puzzle set the loader uses: the shipped one, with its per-kind part made from the
    registry of kinds (so that a kind registered at run time is loaded too) and the preset names from
    :data:`PRESETS`. It is made again when the registry has changed (:func:`registry_version`)."""
    return _schema(registry_version())


@lru_cache(maxsize=1)
def _schema(version: int) -> dict:
    import copy

    full = copy.deepcopy(shipped_schema())
    names, per_kind = kind_rules()
    puzzle = full["$defs"]["puzzle"]
    puzzle["properties"]["kind"] = {"enum": names}
    puzzle["allOf"] = per_kind
    rules = full["$defs"]["rules"]["oneOf"]
    rules[0]["enum"] = list(PRESETS)
    rules[1]["properties"]["preset"]["enum"] = list(PRESETS)
    return full


def _import_jsonschema():
    """Import jsonschema without ``rfc3987_syntax``: where that optional package is installed
    (JupyterLab brings it), jsonschema's format checkers build its grammar at import, which
    costs seconds; the puzzle schema uses no ``format``, so the IRI checker is not needed."""
    import sys

    if "jsonschema" in sys.modules or "rfc3987_syntax" in sys.modules:
        import jsonschema
        return jsonschema
    sys.modules["rfc3987_syntax"] = None  # makes its import fail fast inside jsonschema._format
    try:
        import jsonschema
    finally:
        del sys.modules["rfc3987_syntax"]
    return jsonschema


def _validators():
    """The validators of a puzzle set and of one puzzle, for the registry as it is now."""
    return _validators_for(registry_version())


@lru_cache(maxsize=1)
def _validators_for(version: int):
    Draft202012Validator = _import_jsonschema().Draft202012Validator

    full = _schema(version)
    top = Draft202012Validator(full)
    puzzle = Draft202012Validator({"$ref": "#/$defs/puzzle", "$defs": full["$defs"]})
    return top, puzzle


#: The deepest nesting a puzzle file needs is 4 (set > puzzles > puzzle > expect/melds); allow some slack.
MAX_DEPTH = 12
#: Whole numbers longer than this are refused before Python reads them (Python refuses over 4,300 digits).
MAX_DIGITS = 18
#: A file larger than this is not a hand-written puzzle set (the project's largest is about 30 kB).
MAX_BYTES = 5_000_000


def _yaml_load(text: str):
    """Parse YAML safely, refusing what a puzzle file never needs and an attacker would use.

    The document is composed into nodes first (PyYAML's C parser where present), and the nodes are
    checked before any Python object is built: anchors and aliases (``&a`` / ``*a``) are refused
    outright, since a 400-byte file of nested aliases expands to billions of values; so are a key
    written twice in one mapping (YAML would keep only the last), nesting deeper than
    :data:`MAX_DEPTH` and whole numbers of more than :data:`MAX_DIGITS` digits. Each problem raises
    :class:`PuzzleError` naming the line.
    """
    import yaml

    loader_class = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_nodes(node)
        try:
            return loader.construct_document(node)
        except (ValueError, TypeError, AttributeError, OverflowError, KeyError, IndexError) as e:
            # e.g. '!!timestamp 2x' or '!!binary'
            raise _Refused(_("a value could not be read ({error})").format(error=clip(str(e), 60))) from None
    finally:
        loader.dispose()


def _line(node) -> str:
    mark = getattr(node, "start_mark", None)
    return _("line {line}").format(line=mark.line + 1) if mark is not None else _("somewhere")


def _check_nodes(root) -> None:
    """Walk the composed nodes (without recursion) and refuse aliases, duplicate keys, deep nesting, long numbers."""
    import yaml

    int_tag = "tag:yaml.org,2002:int"
    seen: set[int] = set()
    stack = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        if id(node) in seen:
            raise _Refused(_("{where}: YAML anchors and aliases (&name, *name) are not allowed in a puzzle file; "
                             "write the value out in full").format(where=_line(node)))
        seen.add(id(node))
        if depth > MAX_DEPTH:
            raise _Refused(_("{where}: nested more than {depth} levels deep; a puzzle set needs at most 4").format(
                where=_line(node), depth=MAX_DEPTH))
        if node.tag not in _PLAIN_TAGS:
            raise _Refused(_("{where}: the YAML type {tag} is not used in a puzzle file (puzzle files hold text, "
                             "numbers, true/false, lists and mappings); put the value in quotes").format(
                where=_line(node), tag=clip(node.tag.replace('tag:yaml.org,2002:', '!!'), 40)))
        if isinstance(node, yaml.ScalarNode):
            if node.tag == int_tag and digits_written(node.value) > MAX_DIGITS:
                raise _Refused(_("{where}: the number {number} has more than {digits} digits").format(
                    where=_line(node), number=clip(node.value, 40), digits=MAX_DIGITS))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            keys: dict[str, object] = {}
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode):
                    if key.value == "<<" and key.tag == "tag:yaml.org,2002:merge":
                        raise _Refused(_("{where}: YAML merge keys (<<) are not allowed in a puzzle file; write "
                                         "the keys out in full").format(where=_line(key)))
                    if key.value in keys:
                        raise _Refused(_("{where}: the key '{key}' is written twice in one mapping (first at "
                                         "{first}); YAML would silently keep only the last one").format(
                            where=_line(key), key=clip(key.value, 60), first=_line(keys[key.value])))
                    keys[key.value] = key
                stack.append((key, depth + 1))
                stack.append((value, depth + 1))


_PLAIN_TAGS = frozenset("tag:yaml.org,2002:" + t for t in ("str", "int", "float", "bool", "null", "seq", "map",
                                                               "merge"))


class _Refused(Exception):
    """A YAML construct the puzzle format refuses (turned into a PuzzleError with the file name)."""


def _schema_message(error, kind: str | None) -> tuple[str | None, str]:
    """Turn a jsonschema error into (field, plain message)."""
    path = [str(p) for p in error.absolute_path]
    v = error.validator
    if v == "additionalProperties":
        extra = sorted(str(k) for k in set(error.instance) - set(error.schema.get("properties", {})))
        unknown = clip(extra[0]) if extra else "?"
        known = ", ".join(error.schema.get("properties", {}))
        text = (_("unknown key '{key}' (known keys here: {known})") if known else _("unknown key '{key}'"))
        return ".".join(path + extra[:1]), text.format(key=unknown, known=known)
    if v == "propertyNames" or "propertyNames" in error.schema_path:
        name = error.instance
        allowed = error.validator_value if isinstance(error.validator_value, list) else error.validator_value["enum"]
        return clip(name), _("'{name}' is not a field of a '{kind}' puzzle (its fields are {fields})").format(
            name=clip(name), kind=kind, fields=", ".join(allowed))
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "?"
        return missing, _("'{field}' is missing").format(field=missing)
    return (".".join(path) if path else None), _value_problem(error, path)


def _value_problem(error, path: list[str]) -> str:
    """What is wrong with the value a jsonschema error is about, in plain words."""
    v = error.validator
    if v == "type" or v == "oneOf" and path and path[-1] in GROUP_FIELDS + LIST_FIELDS:
        want = _type_words(error.validator_value) if v == "type" else _("a group of cards (a string or a list)")
        return _("must be {kind}, not {value}").format(kind=want, value=clip_repr(error.instance))
    if v in ("enum", "const"):
        allowed = error.validator_value if v == "enum" else [error.validator_value]
        return _("{value} is not allowed; use one of {allowed}").format(value=clip_repr(error.instance),
                                                                          allowed=", ".join(map(str, allowed)))
    if v == "pattern":
        return _("{value} must be lower-case letters, digits and '-'").format(value=clip_repr(error.instance))
    if v in ("minimum", "maximum"):
        text = _("{value} is out of range (minimum {limit})") if v == "minimum" else \
            _("{value} is out of range (maximum {limit})")
        return text.format(value=clip_repr(error.instance), limit=error.validator_value)
    if v == "oneOf" and path and path[-1] == "rules":
        return _("must be a preset name ({presets}) or a mapping {{preset: NAME, OPTION: VALUE}}").format(
            presets=", ".join(PRESETS))
    if v in ("minItems", "minProperties", "minLength"):
        return _("must not be empty")
    return clip(error.message)


def _type_words(t) -> str:
    words = {"integer": _("a whole number"), "string": _("text"), "boolean": _("true or false"),
             "array": _("a list"), "object": _("a mapping")}
    if isinstance(t, list):
        return join_words([words.get(x, x) for x in t], "or")
    return words.get(t, str(t))


def _resolve_rules(value, base: RuleSet | None = None) -> RuleSet:
    if value is None:
        return base or CLASSIC
    if isinstance(value, str):
        return get_rules(value)
    options = dict(value)
    preset = options.pop("preset")
    for key in list(options):
        if key.replace("-", "_") not in OPTION_NAMES:
            raise RulesError(_("unknown rule option '{option}'").format(option=clip(key)))
    return with_options(preset, **options)


def parse_rules(text: str) -> RuleSet:
    """Rules given as text (the ``--rules`` of ``canasta-tutor generate``): a preset name, or a house
    rule written as a puzzle file's ``rules:`` mapping, e.g. ``{preset: classic, pile_always_frozen: true}``.

    >>> parse_rules("{preset: hoyle, canastas_to_go_out: 2}").canastas_to_go_out
    2
    """
    import yaml

    if not isinstance(text, str):
        raise RulesError(_("rules must be given as text, not {value}").format(value=clip_repr(text)))
    text = text.strip()
    if not text.startswith("{"):
        return get_rules(text)
    try:
        value = _yaml_load(text)
    except _Refused as e:
        raise RulesError(_("rules {rules}: {problem}").format(rules=repr(clip(text, 60)), problem=e)) from None
    except (yaml.YAMLError, RecursionError):
        raise RulesError(_("rules {rules} is not a YAML mapping like '{{preset: classic, pile_always_frozen: "
                           "true}}'").format(rules=repr(clip(text, 60)))) from None
    errors = sorted(_rules_validator().iter_errors(value), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        error = errors[0]
        if error.validator == "oneOf" and not error.absolute_path and isinstance(value, dict):
            # the mapping branch is the one meant: report its first problem
            inner = [e for e in error.context if e.relative_schema_path[0] == 1]
            error = min(inner, key=lambda e: list(map(str, e.absolute_path))) if inner else error
        field_name, message = _schema_message(error, None)
        if field_name and error.validator != "required":
            raise RulesError(_("rules option {option}: {problem}").format(option=repr(field_name), problem=message))
        raise RulesError(_("rules: {problem}").format(problem=message))
    return _resolve_rules(value)


def _rules_validator():
    return _rules_validator_for(registry_version())


@lru_cache(maxsize=1)
def _rules_validator_for(version: int):
    full = _schema(version)
    return _import_jsonschema().Draft202012Validator({"$ref": "#/$defs/rules", "$defs": full["$defs"]})


def load_puzzle_set(path: str | Path) -> PuzzleSet:
    """Read and validate one puzzle file. Raises :class:`PuzzleError` if the file as a whole is broken."""
    if not isinstance(path, (str, os.PathLike)):
        raise PuzzleError(_("a puzzle file is named by a path, not {value}").format(value=clip_repr(path)))
    path = Path(path)
    name = str(path)
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise PuzzleError(_("cannot read the file: {problem}").format(
            problem=e.strerror if isinstance(e, OSError) else e), file=name) from None
    return parse_puzzle_set(text, name)


def parse_puzzle_set(text: str, name: str = "<puzzles>") -> PuzzleSet:
    """Validate a puzzle set given as YAML text."""
    import yaml

    if not isinstance(text, str):
        raise PuzzleError(_("a puzzle set is read from YAML text, not {value}").format(value=clip_repr(text)),
                          file=name)
    if len(text) > MAX_BYTES:
        raise PuzzleError(_("the file is {length} characters long; a puzzle set may have at most {limit}").format(
            length=grouped(len(text)), limit=grouped(MAX_BYTES)), file=name)
    try:
        data = _yaml_load(text)
    except _Refused as e:
        raise PuzzleError(_("not accepted: {problem}").format(problem=e), file=name) from None
    except RecursionError:
        raise PuzzleError(_("not accepted: nested too deeply"), file=name) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]  # PyYAML's own words, in English
        text = (_("not valid YAML at line {line}, column {column}: {problem}") if mark else
                _("not valid YAML: {problem}"))
        raise PuzzleError(text.format(line=mark.line + 1 if mark else 0, column=mark.column + 1 if mark else 0,
                                      problem=problem), file=name) from None
    if not isinstance(data, dict):
        raise PuzzleError(_("not a puzzle set: the file must be a mapping with a 'puzzles' list"), file=name)
    top, puzzle_validator = _validators()
    errors = sorted(top.iter_errors(data), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        field_name, message = _schema_message(errors[0], None)
        raise PuzzleError(_("not a puzzle set: {problem}").format(problem=message), file=name, field=field_name)
    try:
        set_rules = _resolve_rules(data.get("rules"))
    except CanastaError as e:
        raise PuzzleError(str(e), file=name, field="rules") from None
    pset = PuzzleSet(file=name, title=data.get("title", ""), rules=set_rules, i18n=data.get("i18n") or {})
    seen_ids: set[str] = set()
    for index, raw in enumerate(data["puzzles"], 1):
        pid = raw.get("id") if isinstance(raw.get("id"), str) else f"#{index}"
        try:
            puzzle = _parse_puzzle(raw, name, pid, set_rules, puzzle_validator, pset.title, pset.i18n)
            if puzzle.id in seen_ids:
                raise PuzzleError(_("this id is used twice in the file"), file=name, puzzle_id=pid, field="id")
            seen_ids.add(puzzle.id)
            pset.puzzles.append(puzzle)
        except PuzzleError as e:
            pset.errors.append(e)
    return pset


def parse_situation(raw: dict) -> dict[str, Any]:
    """The situation fields of a puzzle mapping with their cards read; other keys are left out.

    Raises :class:`NotationError` with ``field`` set to the key of the bad card.
    """
    situation: dict[str, Any] = {}
    for key, value in raw.items():
        try:
            if key in GROUP_FIELDS:
                situation[key] = parse_cards(value)
            elif key in LIST_FIELDS:
                situation[key] = [parse_cards(g) for g in value]
            elif key in _SCALAR_FIELDS:
                situation[key] = value
        except NotationError as e:
            if e.position is not None and len(str(value)) > QUOTE_LIMIT:
                e = _short_notation_error(e, value)
            e.field = key
            raise e from None
    return situation


_SCALAR_FIELDS = frozenset(("score", "going_out", "stock_empty", "went_out", "concealed_canastas"))


def _short_notation_error(e: NotationError, group) -> NotationError:
    """The same error about a long group, with the bad token clipped."""
    text = _("card {position}, {token}, is not a card: {how}").format(
        position=e.position, token=clip(str(e.token).strip(), 40), how=how_to_write_a_card())
    return NotationError(text, token=e.token, position=e.position)


def puzzle_from_mapping(raw: dict, *, rules: RuleSet | str = CLASSIC, file: str = "<generated>",
                        set_title: str = "", set_i18n: dict | None = None) -> Puzzle:
    """Validate one puzzle given as a mapping (as in a file), e.g. from the generator."""
    _top, validator = _validators()
    pid = raw.get("id") if isinstance(raw, dict) and isinstance(raw.get("id"), str) else "?"
    if not isinstance(raw, dict):
        raise PuzzleError(_("a puzzle must be a mapping"), file=file)
    if not isinstance(rules, (str, RuleSet)):
        raise PuzzleError(_("rules must be a preset name or a RuleSet, not {value}").format(value=clip_repr(rules)),
                          file=file)
    return _parse_puzzle(raw, file, pid, get_rules(rules), validator, set_title, set_i18n or {})


def _parse_puzzle(raw: dict, file: str, pid: str, set_rules: RuleSet, validator, title: str,
                  set_i18n: dict | None = None) -> Puzzle:
    kind = raw.get("kind") if raw.get("kind") in KINDS else None
    errors = sorted(validator.iter_errors(raw),
                    key=lambda e: (e.validator not in ("additionalProperties", "propertyNames"),
                                   list(map(str, e.absolute_path))))
    if errors:
        field_name, message = _schema_message(errors[0], kind)
        raise PuzzleError(message, file=file, puzzle_id=pid, field=field_name)
    try:
        rules = _resolve_rules(raw.get("rules"), set_rules)
    except CanastaError as e:
        raise PuzzleError(str(e), file=file, puzzle_id=pid, field="rules") from None
    try:
        situation = parse_situation(raw)
    except NotationError as e:
        raise PuzzleError(str(e), file=file, puzzle_id=pid, field=e.field) from None
    _check_counts(situation, rules, file, pid)
    try:
        situation = Situation(rules=rules, **situation)
    except CanastaError as e:
        raise PuzzleError(str(e), file=file, puzzle_id=pid) from None
    return Puzzle(id=raw["id"], kind=raw["kind"], rules=rules, situation=situation, expect=raw.get("expect"),
                  difficulty=raw.get("difficulty", 1), topic=raw.get("topic", ""), prompt=raw.get("prompt", ""),
                  file=file, set_title=title, i18n=raw.get("i18n") or {}, set_i18n=set_i18n or {})


def _check_counts(situation: dict, rules: RuleSet, file: str, pid: str) -> None:
    """No card may appear more often than the rule set's decks hold."""
    groups = {k: v for k, v in situation.items() if k in GROUP_FIELDS + LIST_FIELDS}
    problem = copies_problem(rules, groups)
    if problem:
        fields, message = problem
        raise PuzzleError(message, file=file, puzzle_id=pid, field=fields)


def puzzle_files(paths) -> list[Path]:
    """Expand files and folders (recursively: *.yaml, *.yml) in a stable order."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            out.extend(sorted(q for q in p.rglob("*") if q.suffix in (".yaml", ".yml") and q.is_file()))
        else:
            out.append(p)
    return out

"""Branches on a variant's name stay few: code asks the :mod:`variants` data instead (issue 13).

A *branch on a variant's name* is a comparison (``==``, ``!=``, ``in``, ``not in``) where a string
constant equal to a variant key, or a tuple/list/set of them, is one side, or a ``match`` case on
such a constant. Every project Python file counts except ``variants/`` (where the definitions
live) and ``tests/``.

``gameplay/hand.py`` and the modules being split out of it (``gameplay/declaring/``,
``gameplay/events.py``, ``gameplay/notation.py``, ``gameplay/outcome.py``) are still being changed
by another engineer: they are counted apart, must not grow beyond :data:`KNOWN_IN_HAND_SPLIT`
(their count when this test was written), and the next restructuring step drives them into the
≤ :data:`LIMIT` total of the rest of the code base.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import variants

ROOT = Path(__file__).resolve().parent.parent
KEYS = frozenset(variants.VARIANT_KEYS)
LIMIT = 10
"""The most branches on variant names allowed in the whole code base (outside the hand split)."""
KNOWN_IN_HAND_SPLIT = 39
"""Branches in gameplay/hand.py (and what is split from it) today; the next step brings them under LIMIT."""
HAND_SPLIT = ("gameplay/hand.py", "gameplay/declaring/", "gameplay/events.py", "gameplay/notation.py",
              "gameplay/outcome.py")
SKIPPED_DIRS = {"variants", "tests", ".venv", "node_modules", "static", ".git"}


def _is_key(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in KEYS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_is_key(e) for e in node.elts)
    return False


def branches_in(source: str, name: str = "<source>") -> list[str]:
    """``name:line: code`` for every branch on a variant's name in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for i, op in enumerate(node.ops):
                if isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) and (
                        _is_key(operands[i]) or _is_key(operands[i + 1])):
                    found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
                    break
        elif isinstance(node, ast.match_case):
            if any(isinstance(p, ast.MatchValue) and _is_key(p.value) for p in ast.walk(node.pattern)):
                found.append(f"{name}:{node.pattern.lineno}: case {ast.unparse(node.pattern)}")
    return found


def project_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*.py")
                  if not SKIPPED_DIRS.intersection(p.relative_to(ROOT).parts[:-1]))


def _in_hand_split(rel: str) -> bool:
    return any(rel == part or (part.endswith("/") and rel.startswith(part)) for part in HAND_SPLIT)


@cache
def all_branches() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(branches outside the hand split, branches inside it)."""
    outside: list[str] = []
    inside: list[str] = []
    for path in project_files():
        rel = path.relative_to(ROOT).as_posix()
        (inside if _in_hand_split(rel) else outside).extend(branches_in(path.read_text(encoding="utf-8"), rel))
    return tuple(outside), tuple(inside)


def test_the_detector_finds_every_kind_of_branch_and_nothing_else() -> None:
    source = '''
if rules.variant == "red-five": pass
if "chaodi" != v: pass
if v in ("tractor", "chaodi"): pass
if v not in {"yongzhou-300"}: pass
match v:
    case "tractor": pass
    case "other" | "chaodi": pass
    case _: pass
if v == "bridge" or kind in ("single", "pair"): pass
if v is variants.CHAODI: pass
if v in ("tractor", "pair"): pass
'''
    found = branches_in(source, "x.py")
    assert [f.split(":")[1] for f in found] == ["2", "3", "4", "5", "7", "8"], found


def test_branches_on_variant_names_are_at_most_the_limit() -> None:
    outside, _inside = all_branches()
    assert len(outside) <= LIMIT, (
        f"{len(outside)} branches on variant names (at most {LIMIT}); ask variants.get(key) instead:\n"
        + "\n".join(outside))


def test_the_hand_split_does_not_add_branches() -> None:
    _outside, inside = all_branches()
    assert len(inside) <= KNOWN_IN_HAND_SPLIT, (
        f"{len(inside)} branches on variant names in gameplay/hand.py and its split (known: "
        f"{KNOWN_IN_HAND_SPLIT}):\n" + "\n".join(inside))


def test_the_walk_sees_the_project_but_not_variants_or_tests() -> None:
    rels = {p.relative_to(ROOT).as_posix() for p in project_files()}
    assert {"gameplay/order.py", "scoring/rules.py", "tournaments/models.py", "gameplay/hand.py"} <= rels
    assert not any(r.startswith(("variants/", "tests/")) for r in rels)

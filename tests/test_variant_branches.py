"""Branches on a variant's name stay few: code asks the :mod:`variants` data instead (issue 13).

A *branch on a variant's name* is a comparison (``==``, ``!=``, ``in``, ``not in``) where a string
constant equal to a variant key, or a tuple/list/set of them, is one side, or a ``match`` case on
such a constant. Every project Python file counts except ``variants/`` (where the definitions
live) and ``tests/``.

The whole code base, ``gameplay/hand.py`` and the modules split from it included, stays at or
below :data:`LIMIT`.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import variants

ROOT = Path(__file__).resolve().parent.parent
KEYS = frozenset(variants.VARIANT_KEYS)
LIMIT = 10
"""The most branches on variant names allowed in the whole code base."""
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


@cache
def all_branches() -> tuple[str, ...]:
    """Every branch on a variant's name in the project, as ``file:line: source``."""
    found: list[str] = []
    for path in project_files():
        found.extend(branches_in(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()))
    return tuple(found)


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
    found = all_branches()
    assert len(found) <= LIMIT, (
        f"{len(found)} branches on variant names (at most {LIMIT}); ask variants.get(key) instead:\n"
        + "\n".join(found))


def test_the_walk_sees_the_project_but_not_variants_or_tests() -> None:
    rels = {p.relative_to(ROOT).as_posix() for p in project_files()}
    assert {"gameplay/order.py", "scoring/rules.py", "tournaments/models.py", "gameplay/hand.py"} <= rels
    assert not any(r.startswith(("variants/", "tests/")) for r in rels)

"""Branches on a variant's name, or on which behaviour it has, stay few: code asks the :mod:`variants`
data and behaviour objects instead (issues 13, 29).

A *branch on a variant's name* is a comparison (``==``, ``!=``, ``in``, ``not in``) where a string
constant equal to a variant key, or a tuple/list/set of them, is one side, or a ``match`` case on
such a constant. Every project Python file counts except ``variants/`` (where the definitions
live) and ``tests/``.

The whole code base, ``gameplay/hand.py`` and the modules split from it included, stays at or
below :data:`LIMIT`.

A *branch on a behaviour* (issue 29) asks which trump order, declaring or settlement a variant has
instead of asking that object: a comparison with a member of the old ``TrumpOrder`` / ``Declaring`` /
``Settlement`` enums (``spec.settlement is Settlement.RED_FIVE``) or of the tournaments' ``Variant``
choices (``variant == Variant.YONGZHOU``), an ``isinstance`` test or a comparison with one of the
behaviour classes of :mod:`variants.behaviour` (``isinstance(spec.declaring, BiddingDeclaring)``), or a
comparison of a ``.key`` with a behaviour's key (``settlement.key == "yongzhou"``). The code base
outside ``variants/`` and ``tests/`` stays at or below :data:`BEHAVIOUR_LIMIT`.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import variants
from variants.behaviour import BEHAVIOURS

ROOT = Path(__file__).resolve().parent.parent
KEYS = frozenset(variants.VARIANT_KEYS)
LIMIT = 10
"""The most branches on variant names allowed in the whole code base."""
SKIPPED_DIRS = {"variants", "tests", ".venv", "node_modules", "static", ".git"}
BEHAVIOUR_LIMIT = 0
"""The most branches on a variant's behaviour allowed outside ``variants/`` (43 before issue 29)."""
BEHAVIOUR_CLASSES = frozenset(cls.__name__ for cls in BEHAVIOURS)
BEHAVIOUR_KEYS = frozenset(cls.key for cls in BEHAVIOURS)
ENUM_NAMES = frozenset({"TrumpOrder", "Declaring", "Settlement"})
"""The enums the behaviour objects replaced (a member of one, ``Settlement.RED_FIVE``, is a branch)."""
VARIANT_MEMBERS = frozenset({"TRACTOR", "CHAODI", "RED_FIVE", "YONGZHOU"})
"""Members of ``tournaments.models.Variant`` (and of the presets in ``variants``) named in a comparison."""


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


def _names_behaviour(node: ast.AST) -> bool:
    """Whether ``node`` names one behaviour kind: ``Settlement.RED_FIVE``, ``Variant.YONGZHOU``,
    ``BiddingDeclaring`` (or ``BiddingDeclaring()``, ``BiddingDeclaring.key``), ``"yongzhou"``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute) and node.attr == "key":
        node = node.value
    if isinstance(node, ast.Name):
        return node.id in BEHAVIOUR_CLASSES
    if isinstance(node, ast.Attribute):
        owner = node.value.id if isinstance(node.value, ast.Name) else (
            node.value.attr if isinstance(node.value, ast.Attribute) else "")
        return (owner in ENUM_NAMES or node.attr in BEHAVIOUR_CLASSES
                or (owner in ("Variant", "variants") and node.attr in VARIANT_MEMBERS))
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_names_behaviour(e) for e in node.elts)
    return False


def _is_key_attribute(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "key"


def _is_behaviour_key(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in BEHAVIOUR_KEYS


def behaviour_branches_in(source: str, name: str = "<source>") -> list[str]:
    """``name:line: code`` for every branch on a variant's behaviour in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for i, op in enumerate(node.ops):
                left, right = operands[i], operands[i + 1]
                if isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn, ast.Is, ast.IsNot)) and (
                        _names_behaviour(left) or _names_behaviour(right)
                        or (_is_key_attribute(left) and _is_behaviour_key(right))
                        or (_is_behaviour_key(left) and _is_key_attribute(right))):
                    found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
                    break
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
              and len(node.args) == 2 and _names_behaviour(node.args[1])):
            found.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.match_case):
            if any(isinstance(p, (ast.MatchValue, ast.MatchClass)) and _names_behaviour(
                    p.value if isinstance(p, ast.MatchValue) else p.cls) for p in ast.walk(node.pattern)):
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


@cache
def all_behaviour_branches() -> tuple[str, ...]:
    """Every branch on a variant's behaviour in the project, as ``file:line: source``."""
    found: list[str] = []
    for path in project_files():
        found.extend(behaviour_branches_in(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix()))
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


def test_the_behaviour_detector_finds_every_kind_of_branch_and_nothing_else() -> None:
    source = '''
if spec.settlement is Settlement.RED_FIVE: pass
if spec.declaring is not variants.Declaring.BIDDING: pass
if order in (TrumpOrder.TRACTOR, TrumpOrder.CHAODI): pass
if variant == Variant.YONGZHOU: pass
if isinstance(spec.declaring, BiddingDeclaring): pass
if isinstance(spec.trump_order, (ChaodiOrder, variants.YongzhouOrder)): pass
if spec.settlement == RedFiveSettlement(): pass
if spec.settlement.key == "yongzhou": pass
if spec.declaring.key != TensDeclaring.key: pass
match spec.settlement:
    case YongzhouSettlement(): pass
    case _: pass
if spec.settlement.contract: pass
if spec.declaring.bids and rules.spec.partnership: pass
x = RULE_BUILDERS[spec.settlement]
y = {LevelsSettlement.key: 1}
if isinstance(rules, PartnershipRules): pass
if kind == "levels" or name == "tens": pass
'''
    found = behaviour_branches_in(source, "x.py")
    assert [f.split(":")[1] for f in found] == [str(n) for n in range(2, 11)] + ["12"], found


def test_branches_on_a_variants_behaviour_are_at_most_the_limit() -> None:
    found = all_behaviour_branches()
    assert len(found) <= BEHAVIOUR_LIMIT, (
        f"{len(found)} branches on a variant's behaviour (at most {BEHAVIOUR_LIMIT}); ask its trump order, "
        "declaring or settlement object (variants/behaviour.py) instead:\n" + "\n".join(found))

"""The pure cores import no web code (STYLE.md: dependencies point one way; docs/architecture.md).

Every module of every package in ``PURE_PACKAGES`` — found by walking the package with ``pkgutil``, not
listed by hand — is imported in a fresh interpreter where importing Django, DRF, Celery, ``config``,
``rules_web`` or ``tournaments`` (outside the pure package itself) raises. ``lint-imports`` checks the
same rules statically (``pyproject.toml``); this test also catches imports made at run time.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PURE_PACKAGES = ("variants", "scoring", "gameplay", "tournaments.formats")
"""The pure packages, bottom-up: each may import those before it, never those after it."""

WEB = ("django", "rest_framework", "drf_spectacular", "celery", "kombu", "django_htmx", "axes", "environ",
       "config", "rules_web", "tournaments")
"""Top-level names no pure package may import (``tournaments`` except the pure package inside it)."""

CHILD = r'''
import importlib, importlib.abc, json, pkgutil, sys

package, above, web = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])


class Forbidden(Exception):
    """Not an ImportError, so that no ``try: import django / except ImportError`` can hide it."""


def inside(name, pkg):
    return name == pkg or name.startswith(pkg + ".")


class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(inside(name, p) for p in above):
            raise Forbidden(f"{package} imports {name}, a package above it")
        if inside(name, package) or package.startswith(name + "."):
            return None
        if name.split(".")[0] in web:
            raise Forbidden(f"{package} imports {name}, which is web code")
        return None


sys.meta_path.insert(0, Blocker())
walked = []


def walk(name):
    walked.append(name)
    pkg = importlib.import_module(name)
    for info in pkgutil.iter_modules(pkg.__path__, name + "."):
        if info.name.endswith(".__main__"):
            continue
        if info.ispkg:
            walk(info.name)
        else:
            importlib.import_module(info.name)
            walked.append(info.name)


walk(package)
print(json.dumps({"walked": walked, "loaded": sorted(sys.modules)}))
'''


def walk_in_child(package: str, above: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-c", CHILD, package, json.dumps(list(above)), json.dumps(WEB)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def modules_on_disk(package: str) -> set[str]:
    """Every importable module file under the package (directories with an ``__init__.py``)."""
    base = ROOT.joinpath(*package.split("."))
    found = set()
    for path in base.rglob("*.py"):
        rel = path.relative_to(base)
        if path.name == "__main__.py" or not all((base / p / "__init__.py").exists() for p in rel.parents):
            continue
        parts = [package, *rel.with_suffix("").parts]
        found.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return found


def exists(package: str) -> bool:
    return ROOT.joinpath(*package.split("."), "__init__.py").exists()


@pytest.mark.parametrize(
    "index", [pytest.param(i, id=p, marks=pytest.mark.skipif(not exists(p), reason=f"{p} does not exist yet"))
              for i, p in enumerate(PURE_PACKAGES)])
def test_every_module_of_a_pure_package_imports_without_web_code(index: int) -> None:
    package = PURE_PACKAGES[index]
    out = walk_in_child(package, above=PURE_PACKAGES[index + 1:])
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert set(report["walked"]) == modules_on_disk(package)
    leaked = [m for m in report["loaded"] if m.split(".")[0] in WEB and not package.startswith(m + ".")
              and not (m == package or m.startswith(package + "."))]
    assert not leaked, leaked


def test_the_walk_fails_on_a_package_that_imports_django() -> None:
    """The guard is not vacuous: the web edge of the cores does import Django, and the walk says so."""
    out = walk_in_child("rules_web")
    assert out.returncode != 0
    assert "Forbidden: rules_web imports django" in out.stderr


def test_the_walk_fails_when_a_lower_layer_imports_a_higher_one() -> None:
    """Placing ``gameplay`` above ``scoring`` is checked too (gameplay needs scoring to finish a hand)."""
    out = walk_in_child("gameplay", above=("scoring",))
    assert out.returncode != 0
    assert "Forbidden: gameplay imports scoring" in out.stderr


def test_bench_runs_on_a_few_deals(tmp_path: Path) -> None:
    """Smoke test of ``python -m gameplay.bench`` on three deals (figures are not asserted)."""
    root = ROOT
    deals = json.loads((root / "bench" / "deals.json").read_text("utf-8"))
    path = tmp_path / "deals.json"
    path.write_text(json.dumps({"deals": deals["deals"][:3]}), "utf-8")
    out = subprocess.run([sys.executable, "-m", "gameplay.bench", "--deals", str(path), "--count", "3"],
                         cwd=root, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "tractor" in out.stdout and "yongzhou-300 3 players" in out.stdout

"""The project's module graph: no import cycles (function-local imports count), no module over 700
lines, no function over 100 lines, no dispatch through ``globals()[``, no ``_private`` name imported
from another module.

No cycle is allowed, not even between a Celery task module and the service it runs: the task module
imports the service, the service queues the task by its name (``tournaments.enqueue``). The
``ALLOWED_*`` tables are empty: an exception needs a written reason there."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The project's packages as the import contracts name them, so a new package is checked the day it is added.
PACKAGES = tuple(sorted(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                        ["tool"]["importlinter"]["root_packages"]))
MAX_LINES = 700
MAX_FUNCTION_LINES = 100  # a def's body (its docstring included), not its signature

# Exceptions, each with its reason (none are left: add one only with a reason and a plan to remove it).
ALLOWED_LONG: dict[str, str] = {}
ALLOWED_LONG_FUNCTIONS: dict[str, str] = {}  # "module:Class.function" -> reason
ALLOWED_PRIVATE: dict[tuple[str, str, str], str] = {}
ALLOWED_CYCLES: dict[frozenset[str], str] = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def project_files() -> dict[str, Path]:
    files = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            files[module_name(path)] = path
    return files


FILES = project_files()


def resolve(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from … import`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = importer.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(name: str) -> list[tuple[str, str | None]]:
    """(module, imported name or None) for every import in the file, at any depth."""
    path = FILES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found: list[tuple[str, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, None) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = resolve(name, path.name == "__init__.py", node)
            found.extend((module, alias.name) for alias in node.names)
    return found


def edges() -> dict[str, set[str]]:
    """Module → project modules it imports: ``from pkg import mod`` depends on ``pkg.mod`` when that is
    a module, else on ``pkg`` (its ``__init__``); ``import a.b`` depends on ``a.b``."""
    graph: dict[str, set[str]] = {name: set() for name in FILES}
    for name in FILES:
        for module, imported in imports_of(name):
            target = f"{module}.{imported}" if imported and f"{module}.{imported}" in FILES else module
            while target and target not in FILES:
                target = target.rpartition(".")[0]
            if target and target != name:
                graph[name].add(target)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_every_package_of_the_project_is_in_the_graph() -> None:
    # tests and bench are scripts and checks over the project, not layers of it (bench is a package only so
    # that the type check names bench/online.py bench.online, apart from the online app)
    found = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "bench"}
    assert found <= set(PACKAGES), f"packages missing from [tool.importlinter] root_packages: {found - set(PACKAGES)}"


def test_the_graph_sees_function_local_and_relative_imports() -> None:
    graph = edges()
    assert "safety.cleanup" in graph["safety.tasks"]  # a function-local import
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert "tournaments.services.printing" in graph["tournaments.views.printing"]  # ``from pkg import mod``
    assert "tournaments.selectors" in graph["tournaments.views.public"]  # ``from pkg import name``: pkg/__init__
    node = ast.parse("from ..x import y").body[0]
    assert isinstance(node, ast.ImportFrom)
    assert resolve("tournaments.views.public", False, node) == "tournaments.x"  # in a module
    assert resolve("tournaments.views", True, node) == "tournaments.x"  # in a package's __init__


def test_no_import_cycles_between_modules() -> None:
    found = [c for c in cycles(edges()) if frozenset(c) not in ALLOWED_CYCLES]
    assert not found, "import cycles:\n" + "\n".join(" ↔ ".join(c) for c in found)


def test_tasks_import_services_and_services_queue_tasks_by_name() -> None:
    """One direction: a Celery task module calls its service; no service imports a task module (it
    queues the task by its registered name instead), so the pair can never close a circle."""
    graph = edges()
    assert {"tournaments.services.printing", "tournaments.services.pdf_cache"} <= graph["tournaments.tasks"]
    offenders = {name: sorted(t for t in targets if t.endswith(".tasks"))
                 for name, targets in graph.items() if ".services" in name or name.endswith(".enqueue")}
    assert not {name: tasks for name, tasks in offenders.items() if tasks}, offenders


def test_no_module_over_700_lines() -> None:
    long = {name: n for name, path in FILES.items()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES and name not in ALLOWED_LONG}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def function_lengths(tree: ast.AST, prefix: str = "") -> dict[str, int]:
    """Every function and method at any depth (``Class.method``, ``outer.inner``) → the lines of its
    body, from its first statement (the docstring) to its last line (``end_lineno``)."""
    found: dict[str, int] = {}
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            name = prefix + node.name
            end = node.end_lineno or node.body[-1].lineno
            found[name] = end - node.body[0].lineno + 1
            found.update(function_lengths(node, name + "."))
        elif isinstance(node, ast.ClassDef):
            found.update(function_lengths(node, prefix + node.name + "."))
        else:
            found.update(function_lengths(node, prefix))
    return found


def test_function_lengths_count_the_body() -> None:
    source = ('class A:\n    def f(self,\n          x):\n        """Doc."""\n        def g():\n'
              '            return 1\n        return g\n\nasync def h():\n    if True:\n        pass\n')
    assert function_lengths(ast.parse(source)) == {"A.f": 4, "A.f.g": 1, "h": 2}


def test_no_function_over_100_lines() -> None:
    long = {f"{name}:{function}": n for name, path in FILES.items()
            for function, n in function_lengths(ast.parse(path.read_text(encoding="utf-8"))).items()
            if n > MAX_FUNCTION_LINES and f"{name}:{function}" not in ALLOWED_LONG_FUNCTIONS}
    assert not long, f"functions over {MAX_FUNCTION_LINES} body lines (module:function: lines): {long}"


def globals_reads(name: str) -> list[int]:
    """Lines that look a name up with ``globals()[…]`` (a read: storing a lazily built value is fine)."""
    tree = ast.parse(FILES[name].read_text(encoding="utf-8"))
    return [node.lineno for node in ast.walk(tree)
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load)
            and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name)
            and node.value.func.id == "globals"]


def test_no_dispatch_through_globals() -> None:
    offenders = {name: lines for name in FILES if (lines := globals_reads(name))}
    assert not offenders, f"dispatch through globals()[…] (module: lines): {offenders}"


def test_no_private_name_imported_from_another_module() -> None:
    offenders = []
    for name in FILES:
        for module, imported in imports_of(name):
            if (imported and imported.startswith("_") and not imported.startswith("__")
                    and module.split(".")[0] in PACKAGES and (name, module, imported) not in ALLOWED_PRIVATE):
                offenders.append(f"{name}: from {module} import {imported}")
    assert not offenders, "private names imported across modules:\n" + "\n".join(offenders)

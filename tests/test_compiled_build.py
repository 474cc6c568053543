"""``scripts/build_compiled.py``: which modules a compiled build covers, and a stale build refused
(``make run``, ``make test`` and any pytest session stop with the modules named)."""

from __future__ import annotations

import importlib.util
import os
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "build_compiled.py"
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The script, pointed at a folder of two modules: ``gameplay/a.py`` and ``gameplay/b.py``."""
    spec = importlib.util.spec_from_file_location("build_compiled_under_test", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "gameplay").mkdir()
    for name in ("a", "b"):
        (tmp_path / "gameplay" / f"{name}.py").write_text("X = 1\n")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    monkeypatch.setattr(module, "MODULES", ["gameplay/a.py", "gameplay/b.py"])
    return module


def _built(root: Path, module: str, age: float) -> None:
    """An extension module beside ``module``, ``age`` seconds older (negative: newer) than its source."""
    ext = root / module.replace(".py", SUFFIX)
    ext.write_bytes(b"")
    source = (root / module).stat().st_mtime
    os.utime(ext, (source - age, source - age))


def test_pure_python_is_neither_compiled_nor_stale(build: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    assert build.compiled_modules() == []
    assert build.stale_modules() == []
    assert build.check() == 0
    assert capsys.readouterr().err == ""


def test_a_current_build_is_listed_and_passes_the_check(build: ModuleType) -> None:
    _built(build.ROOT, "gameplay/a.py", -10)
    assert build.compiled_modules() == ["gameplay/a.py"]
    assert build.stale_modules() == []
    assert build.check() == 0


def test_a_module_edited_after_the_build_is_refused_by_name(build: ModuleType,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    _built(build.ROOT, "gameplay/a.py", -10)
    _built(build.ROOT, "gameplay/b.py", 10)  # b.py saved after its build
    assert build.compiled_modules() == ["gameplay/a.py", "gameplay/b.py"]
    assert build.stale_modules() == ["gameplay/b.py"]
    assert build.check() == 1
    err = capsys.readouterr().err
    assert "gameplay/b.py" in err and "gameplay/a.py" not in err
    assert "make compiled" in err and "make clean-compiled" in err


def test_the_project_modules_exist() -> None:
    spec = importlib.util.spec_from_file_location("build_compiled_modules", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.MODULES and all((module.ROOT / m).is_file() for m in module.MODULES)

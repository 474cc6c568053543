"""Build (or remove) the compiled build of the engine's pure core: ``make compiled`` / ``make clean-compiled``.

    python scripts/build_compiled.py          # compile MODULES with mypyc, in place
    python scripts/build_compiled.py --clean  # remove every built file
    python scripts/build_compiled.py --check  # exit 1, naming them, if a module changed since its build

The modules of :data:`MODULES` are compiled with mypyc into extension modules beside their ``.py``
files (``gameplay/hand.cpython-311-*.so``; the modules share one library, ``*__mypyc*.so`` at the
root of the checkout). An extension module takes precedence over the ``.py`` file of the same name on
import, so the compiled build is used as soon as it is built and pure Python again once it is removed.
The C sources and object files go to a temporary folder, removed afterwards.

When no C compiler, no Python headers or no mypyc is present the build is skipped: a message, exit
status 0, no file left — the engine runs as pure Python. docs/engine.md ("Compiled build") says what
is compiled, what is left out and why.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"  # an extension module's ending here

# The hot modules of the engine (docs/engine.md). Left out: gameplay.bench, bot_search, simulate, record,
# record_facts, referee, referee_request, notation, outcome, rulesets, config, errors (not hot, or patched by tests).
MODULES = [
    "gameplay/order.py",
    "gameplay/cards.py",
    "gameplay/multisets.py",
    "gameplay/play_words.py",
    "gameplay/leads.py",
    "gameplay/follow_lists.py",
    "gameplay/following.py",
    "gameplay/point_rules.py",
    "gameplay/legality.py",
    "gameplay/throws.py",
    "gameplay/legal_plays.py",
    "gameplay/tricks.py",
    "gameplay/hand.py",
    "gameplay/observation.py",
    "gameplay/bots.py",
    "gameplay/bot_cards.py",
    "gameplay/bot_play.py",
    "gameplay/bot_follow.py",
    "gameplay/declaring/base.py",
    "gameplay/declaring/bidding.py",
    "gameplay/declaring/level_card.py",
    "gameplay/declaring/level_card_and_joker.py",
    "gameplay/declaring/tens.py",
]

# mypyc type-checks what it compiles; the project's [tool.mypy] loads the Django plugins, which the
# pure core needs not (and which would need Django settings), so the build uses this configuration.
MYPY_CONFIG = """\
[mypy]
python_version = 3.11
ignore_missing_imports = True
"""


def built_files() -> list[Path]:
    """Every file a build leaves: the modules' extension modules and the shared library."""
    found = [p for p in (ROOT / "gameplay").rglob("*.so")]
    found += [p for p in ROOT.glob("*__mypyc*") if p.is_file()]
    found += [ROOT / m.replace(".py", SUFFIX) for m in MODULES]
    return sorted({p for p in found if p.exists()})


def clean() -> int:
    files = built_files()
    for p in files:
        p.unlink()
    print(f"compiled build: removed {len(files)} built file(s); the engine runs as pure Python.")
    return 0


def missing_toolchain() -> str | None:
    """Why the build cannot run here, or None."""
    try:
        import mypyc.build  # noqa: F401
        import setuptools  # noqa: F401
    except ImportError as e:
        return f"mypyc or setuptools is not installed ({e.name})"
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    compiler = shlex.split(cc)[0] if cc.strip() else "cc"
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler!r} not found)"
    include = sysconfig.get_paths().get("include") or ""
    if not (Path(include) / "Python.h").exists():
        return f"no Python headers (Python.h not in {include!r})"
    return None


def build() -> int:
    why = missing_toolchain()
    if why is not None:
        print(f"compiled build skipped: {why}; the engine runs as pure Python.")
        return 0
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="gameplay-mypyc-") as tmp:
        config = Path(tmp) / "mypy.ini"
        config.write_text(MYPY_CONFIG)
        cwd = os.getcwd()
        os.chdir(ROOT)
        try:
            ext = mypycify([f"--config-file={config}", *MODULES], opt_level="3",
                           target_dir=str(Path(tmp) / "c"), group_name="gameplay")
            setup(name="gameplay-compiled", ext_modules=ext,
                  script_args=["--quiet", "build_ext", "--inplace", "--build-temp", str(Path(tmp) / "obj"),
                               "--build-lib", str(Path(tmp) / "lib")])
        except BaseException:
            os.chdir(cwd)
            for p in built_files():
                p.unlink()
            raise
        os.chdir(cwd)
    files = built_files()
    print(f"compiled build: {len(MODULES)} modules in {time.perf_counter() - start:.0f} s, "
          f"{len(files)} extension file(s); `make clean-compiled` goes back to pure Python.")
    return 0


def compiled_modules() -> list[str]:
    """The modules of :data:`MODULES` whose extension module is built (paths like ``gameplay/hand.py``).

    The test session (the root ``conftest.py``) leaves them out of ``--doctest-modules``: pytest would
    import the ``.py`` file beside the extension module it imported (an import file mismatch), and
    doctest finds no example in compiled functions."""
    return [m for m in MODULES if (ROOT / m.replace(".py", SUFFIX)).exists()]


def stale_modules() -> list[str]:
    """The compiled modules whose ``.py`` file changed after the build: the extension module, which
    Python imports first, would run the old code."""
    return [m for m in compiled_modules()
            if (ROOT / m).stat().st_mtime > (ROOT / m.replace(".py", SUFFIX)).stat().st_mtime]


def stale_message(stale: list[str]) -> str:
    return (f"the compiled build is older than {', '.join(stale)}: Python would run the old code. "
            "Run `make compiled` to build it again, or `make clean-compiled` for pure Python.")


def check() -> int:
    stale = stale_modules()
    if stale:
        print(stale_message(stale), file=sys.stderr)
        return 1
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the built files")
    parser.add_argument("--check", action="store_true", help="fail if a module changed since the build")
    args = parser.parse_args()
    if args.check:
        return check()
    return clean() if args.clean else build()


if __name__ == "__main__":
    sys.exit(main())

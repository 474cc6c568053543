"""The Simplified Chinese catalogue: complete, compiled, and actually used by the pages.

The .po file is read with a small pure-Python parser and the .mo with :mod:`gettext`, so these
tests need no gettext binaries.
"""

from __future__ import annotations

import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

MESSAGES = Path(settings.LOCALE_PATHS[0]) / "zh_Hans" / "LC_MESSAGES"
PO = MESSAGES / "django.po"
MO = MESSAGES / "django.mo"

_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_KEYWORD = re.compile(r'^(msgctxt|msgid_plural|msgid|msgstr(?:\[\d+\])?)\s+(".*")$')
# Python-format and brace placeholders, HTML tags and entities: a translation keeps every one.
_PLACEHOLDER = re.compile(r"%\(\w+\)[sdif]|%[sdif]|\{\w*\}|</?[a-zA-Z][^>]*>|&#?\w+;")


@dataclass
class Entry:
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    fields: dict[str, str] = field(default_factory=dict)

    @property
    def msgid(self) -> str:
        return self.fields.get("msgid", "")

    @property
    def msgstrs(self) -> list[str]:
        return [v for k, v in sorted(self.fields.items()) if k.startswith("msgstr")]


def _unquote(literal: str) -> str:
    body = literal[1:-1]
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body)


def parse_po(path: Path) -> list[Entry]:
    """The entries of a PO file (enough of the format for makemessages' output)."""
    entries: list[Entry] = []
    current = Entry()
    key: str | None = None

    def flush() -> None:
        nonlocal current
        if current.fields:
            entries.append(current)
        current = Entry()

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            flush()
            key = None
            continue
        if line.startswith("#~"):
            current.obsolete = True
            continue
        if line.startswith("#,"):
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        match = _KEYWORD.match(line)
        if match:
            if match.group(1) in ("msgctxt", "msgid") and "msgid" in current.fields:
                flush()  # a new entry without a blank line in between
            key = match.group(1)
            current.fields[key] = _unquote(match.group(2))
        elif line.startswith('"') and key is not None:
            current.fields[key] += _unquote(line)
        else:
            raise AssertionError(f"{path}: cannot parse line {raw!r}")
    flush()
    return entries


def catalogue_key(entry: Entry) -> str | tuple[str, int]:
    """The key the entry has in a compiled catalogue (:attr:`gettext.GNUTranslations._catalog`)."""
    msgid = entry.msgid
    if "msgctxt" in entry.fields:
        msgid = f"{entry.fields['msgctxt']}\x04{msgid}"
    return (msgid, 0) if "msgid_plural" in entry.fields else msgid


@pytest.fixture(scope="module")
def entries() -> list[Entry]:
    assert PO.exists(), "run `make messages` to create the catalogue"
    return [e for e in parse_po(PO) if not e.obsolete and e.msgid != ""]


def test_the_header_declares_chinese_with_one_plural_form() -> None:
    header = next(e for e in parse_po(PO) if e.msgid == "")
    assert "fuzzy" not in header.flags
    assert "Plural-Forms: nplurals=1; plural=0;" in header.fields["msgstr"]
    assert "charset=UTF-8" in header.fields["msgstr"]


def test_every_message_is_translated_and_none_is_fuzzy(entries: list[Entry]) -> None:
    assert len(entries) > 100
    untranslated = [e.msgid for e in entries if not e.msgstrs or not all(s.strip() for s in e.msgstrs)]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert untranslated == [], f"untranslated: {untranslated}"
    assert fuzzy == [], f"fuzzy: {fuzzy}"


def test_plural_entries_have_exactly_one_form(entries: list[Entry]) -> None:
    for entry in entries:
        if "msgid_plural" in entry.fields:
            assert [k for k in entry.fields if k.startswith("msgstr")] == ["msgstr[0]"], entry.msgid


def test_translations_keep_every_placeholder(entries: list[Entry]) -> None:
    for entry in entries:
        expected = sorted(_PLACEHOLDER.findall(entry.msgid))
        for msgstr in entry.msgstrs:
            assert sorted(_PLACEHOLDER.findall(msgstr)) == expected, (entry.msgid, msgstr)


def test_translations_are_chinese(entries: list[Entry]) -> None:
    """Apart from a few names that stay as they are (API, …) and the form labels' colon (Django's own
    Chinese keeps ":"; ours is the full-width "："), every translation has Chinese in it."""
    han = re.compile(r"[\u4e00-\u9fff]")
    latin_only = [e.msgid for e in entries if not any(han.search(s) for s in e.msgstrs)]
    assert sorted(latin_only) == [":", "API"], latin_only
    colon = next(e for e in entries if e.msgid == ":")
    assert colon.msgstrs == ["："]


def test_the_compiled_catalogue_matches_the_po(entries: list[Entry]) -> None:
    """The committed .mo is what compilemessages makes of the .po now (same messages, same text)."""
    assert MO.exists(), "run `make messages` to compile the catalogue"
    with MO.open("rb") as fp:
        compiled = dict(gettext.GNUTranslations(fp)._catalog)  # type: ignore[attr-defined]
    compiled.pop("", None)  # the header
    expected = {catalogue_key(e): e.msgstrs[0] for e in entries}
    stale = sorted(str(k) for k in expected.keys() ^ compiled.keys())
    assert stale == [], f"the .mo is out of date; run compilemessages: {stale[:10]}"
    changed = sorted(str(k) for k, v in expected.items() if compiled[k] != v)
    assert changed == [], f"the .mo is out of date; run compilemessages: {changed[:10]}"


def _nav(html: str) -> str:
    start = html.index('<nav class="nav"')
    return html[start:html.index("</nav>", start)]


@pytest.mark.django_db
def test_home_page_in_chinese_has_a_chinese_nav_and_headings(client: Client) -> None:
    client.cookies["django_language"] = "zh-hans"
    html = client.get(reverse("home")).content.decode()
    assert '<html lang="zh-hans">' in html
    nav = _nav(html)
    for word in ("首页", "赛事", "选手", "裁判", "计分器", "登录"):
        assert word in nav, word
    for word in ("Home", "Tournaments", "Players", "Referee", "Calculator", "Log in"):
        assert f">{word}<" not in nav and f"{word}</" not in nav, word
    for heading in ("<h2>裁判</h2>", "<h2>计分器</h2>", "<h2>选手</h2>", "升级赛事"):
        assert heading in html, heading
    assert "Settle a dispute" not in html


@pytest.mark.django_db
@pytest.mark.parametrize(("name", "phrases"), [
    ("tournament-list", ["<h1>赛事</h1>", "还没有赛事。"]),
    ("calculator", ["单局计分器", "玩法", "底牌分", "计算"]),
    ("referee", ["裁定这一轮", "首家"]),
    ("player-list", ["还没有选手。"]),
    ("replay", ["选择牌局", "示例牌局", "牌局日志"]),
])
def test_key_pages_in_chinese(client: Client, name: str, phrases: list[str]) -> None:
    client.cookies["django_language"] = "zh-hans"
    html = client.get(reverse(name)).content.decode()
    for phrase in phrases:
        assert phrase in html, (name, phrase)
    assert "Tournaments</" not in _nav(html)


@pytest.mark.django_db
def test_english_is_still_the_default(client: Client) -> None:
    html = client.get(reverse("home")).content.decode()
    assert "Tournaments" in _nav(html) and "赛事" not in _nav(html)

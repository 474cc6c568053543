"""Pages of the rules engine: the referee, for settling disputes at a physical table."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from config.i18n import core_lang
from gameplay.referee import RequestInvalid, rule_trick
from rules_web.referee_forms import RefereeForm
from variants import LEVEL_NAMES, SUIT_SYMBOLS, SUITS

RANKS = list(reversed(LEVEL_NAMES))
# The card palette: one row per suit (red suits marked), then the jokers.
PICKER = [
    [{"code": f"{suit}{rank}", "label": f"{symbol}{rank}", "red": suit in "HD"} for rank in RANKS]
    for suit, symbol in ((s, SUIT_SYMBOLS[s]) for s in reversed(SUITS))  # ♠ ♥ ♣ ♦
] + [[{"code": "LJ", "label": "小王", "red": False}, {"code": "BJ", "label": "大王", "red": True}]]


def referee_page(request: HttpRequest) -> HttpResponse:
    ruling = None
    field_errors: dict[str, list[str]] = {}
    if request.method == "POST":
        form = RefereeForm(request.POST)
        if form.is_valid():
            try:
                ruling = rule_trick(form.payload(), lang=core_lang())
            except RequestInvalid as exc:
                field_errors = exc.field_errors
    else:
        form = RefereeForm()
    context = {"form": form, "picker": PICKER, "ruling": ruling, "api": ruling.as_api() if ruling else None, "field_errors": field_errors}
    template = "gameplay/referee_result.html" if getattr(request, "htmx", False) else "gameplay/referee.html"
    return render(request, template, context)

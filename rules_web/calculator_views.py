"""The calculator page: pick the variant (a GET form, so no JavaScript is needed), fill in the
hand's figures, see the result in sentences and a small table, and why."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from config.i18n import core_lang
from rules_web.calculator_answer import answer
from rules_web.calculator_forms import CalculatorForm, VariantChoiceForm, chosen_players, chosen_variant
from rules_web.referee_forms import VARIANT_CHOICES
from scoring.errors import ScoringInputError


def calculator_page(request: HttpRequest) -> HttpResponse:
    source = request.POST if request.method == "POST" else request.GET
    spec = chosen_variant(source)
    players = chosen_players(source, spec)
    result = None
    problems: list[tuple[str, str]] = []
    if request.method == "POST":
        form = CalculatorForm(request.POST, spec=spec, players=players)
        if form.is_valid():
            try:
                result = answer(form.scored(lang=core_lang()), players)
            except ScoringInputError as exc:
                for key, messages in exc.field_errors.items():
                    name = form.error_field(key)
                    label = str(form.fields[name].label) if name else ""
                    for message in messages:
                        problems.append((label, message))
                        if name:
                            form.add_error(name, message)
    else:
        form = CalculatorForm(spec=spec, players=players)
    context = {"form": form, "chooser": VariantChoiceForm(spec, players), "spec": spec,
               "variant_name": dict(VARIANT_CHOICES)[spec.key], "result": result,
               "problems": problems}
    template = "scoring/calculator_result.html" if getattr(request, "htmx", False) else "scoring/calculator.html"
    return render(request, template, context)

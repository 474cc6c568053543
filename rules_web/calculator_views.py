"""The calculator page: fill in a hand's figures, see the result and why."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from config.i18n import core_lang
from rules_web.calculator_forms import CalculatorForm
from scoring.errors import ScoringInputError


def calculator_page(request: HttpRequest) -> HttpResponse:
    result = None
    field_errors: dict[str, list[str]] = {}
    if request.method == "POST":
        form = CalculatorForm(request.POST)
        if form.is_valid():
            try:
                scored = form.scored(lang=core_lang())
                result = {**scored.response, "explanation": scored.explanation()}
            except ScoringInputError as exc:
                field_errors = exc.field_errors
    else:
        form = CalculatorForm()
    context = {"form": form, "result": result, "field_errors": field_errors}
    template = "scoring/calculator_result.html" if getattr(request, "htmx", False) else "scoring/calculator.html"
    return render(request, template, context)

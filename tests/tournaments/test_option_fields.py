"""Rule options as labelled fields (issue 28, "a newcomer's path"): the new-tournament form shows each
variant's options with its standard rules filled in, stores only what differs from them, for the chosen
variant only; the details form edits a tournament's own options and keeps those set through the API."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.factories import UserFactory
from tournaments.models import Tournament
from tournaments.option_fields import field_name, options_of
from tournaments.services.setup import tournament_create
from variants import VARIANTS

pytestmark = pytest.mark.django_db


def test_every_variant_has_its_options_as_fields_with_its_defaults(client: Client) -> None:
    client.force_login(UserFactory(username="newcomer"))
    html = client.get(reverse("tournament-create"), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    for variant in VARIANTS:
        assert f'data-variant="{variant}"' in html
        for spec in options_of(variant):
            assert f'name="{field_name(variant, spec.name)}"' in html
    start = html.index('id="tournament-form"')
    form = html[start:html.index("</form>", start)]
    assert "是否允许甩牌" in form and "JSON" not in form and "null" not in form
    # chaodi's target is A, tractor's J: each group starts from its own variant's standard rules
    assert 'name="opt__chaodi__target_level" value="A"' in html and 'name="opt__tractor__target_level" value="J"' in html
    # decks and players belong to the variants that have them
    decks = html.index('name="decks"')
    assert html.rindex('data-variant="red-five"', 0, decks) > html.rindex('data-variant="chaodi"', 0, decks)


def test_an_untouched_form_gives_the_standard_rules_for_each_variant(client: Client) -> None:
    client.force_login(UserFactory(username="newcomer"))
    page = client.get(reverse("tournament-create"))
    form = page.context["form"]
    for variant in VARIANTS:
        data = {"name": f"杯 {variant}", "variant": variant, "decks": 2, "players_per_table": 4, "options_shown": "1"}
        for name, field in form.fields.items():
            if name.startswith("opt__"):
                initial = field.initial
                if initial is True:
                    data[name] = "on"
                elif initial not in (None, False):
                    data[name] = str(initial)
        assert client.post(reverse("tournament-create"), data).status_code == 302
        assert Tournament.objects.get(name=f"杯 {variant}").options == {}


def test_the_details_form_edits_the_options_and_keeps_what_the_api_set(client: Client) -> None:
    owner = UserFactory(username="owner-o")
    table = [[0, "dealer", 3], [5, "dealer", 2], [40, "dealer", 1], [80, "attackers", 0], [120, "attackers", 1]]
    tournament = tournament_create(owner=owner, name="规则 Cup", variant="tractor",
                                   options={"level_table": {"bands": table, "step": 40}, "throw_penalties": True})
    client.force_login(owner)
    settings_page = reverse("tournament-manage-settings", args=[tournament.pk])
    manage = client.get(settings_page).content.decode()
    assert 'name="opt__tractor__throw_penalties"' in manage and 'name="opt__chaodi__throw_allowed"' not in manage
    form = client.get(settings_page).context["details_form"]
    data = {"action": "details", "name": tournament.name, "seat_names": "numbers", "options_shown": "1",
            "is_public": "on"}
    for name, field in form.fields.items():
        if name.startswith("opt__") and field.initial not in (None, False):
            data[name] = "on" if field.initial is True else str(field.initial)
    data.pop("opt__tractor__throw_penalties")  # unticked
    data["opt__tractor__hand_limit"] = "12"
    assert client.post(reverse("tournament-manage", args=[tournament.pk]), data).status_code == 302
    tournament.refresh_from_db()
    assert tournament.options["hand_limit"] == 12 and "throw_penalties" not in tournament.options
    assert "level_table" in tournament.options

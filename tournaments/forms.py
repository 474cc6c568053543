"""Forms of the tournament pages. They only parse input; the services decide and validate."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Stage, Tournament, Variant

SEAT_CHOICES = [(0, "0"), (1, "1"), (2, "2"), (3, "3")]
TRUMP_CHOICES = [("S", "♠"), ("H", "♥"), ("C", "♣"), ("D", "♦"), ("", _("No trump"))]
LARGEST_CHOICES = [(1, _("single")), (2, _("pair")), (4, _("2-pair tractor")), (6, _("3-pair tractor")),
                   (8, _("4-pair tractor"))]
YES_NO = [("yes", _("yes")), ("no", _("no"))]


class BigRadio(forms.RadioSelect):
    """Radio buttons drawn as big toggles (see ``.toggles`` in site.css)."""

    def __init__(self, attrs: dict[str, Any] | None = None, choices: Any = ()) -> None:
        super().__init__({"class": "toggles", **(attrs or {})}, choices)


def add_service_errors(form: forms.Form, field_errors: Mapping[str, list[str]],
                       aliases: Mapping[str, str] | None = None) -> None:
    """Show a ServiceError's messages next to the form's fields (JSON paths mapped by ``aliases``,
    then by the path's first part); the rest above the form."""
    aliases = aliases or {}
    for path, messages in field_errors.items():
        name = aliases.get(path)
        if name is None:
            name = path.split(".", 1)[0]
        if name not in form.fields:
            name = None  # type: ignore[assignment]
        for message in messages:
            if name is None:
                form.add_error(None, f"{path}: {message}" if "." in path else message)
            else:
                form.add_error(name, message)


class OptionsField(forms.CharField):
    """Rule options as a JSON object in a textarea."""

    widget = forms.Textarea(attrs={"rows": 3, "spellcheck": "false", "class": "mono"})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, dict):
            return json.dumps(value, ensure_ascii=False) if value else ""
        return value

    def to_python(self, value: Any) -> dict[str, Any]:
        text = (value or "").strip()
        if not text:
            return {}
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(_("This is not valid JSON: %(error)s") % {"error": exc}) from exc
        if not isinstance(data, dict):
            raise forms.ValidationError(_("Write the options as a JSON object: {\"name\": value, …}."))
        return data


class DateInput(forms.DateInput):
    input_type = "date"


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices, initial=Variant.TRACTOR)
    starts_on = forms.DateField(label=_("Starts on"), required=False, widget=DateInput)
    ends_on = forms.DateField(label=_("Ends on"), required=False, widget=DateInput)
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    is_public = forms.BooleanField(label=_("Public (anyone can follow it)"), required=False, initial=True)
    decks = forms.TypedChoiceField(label=_("Decks (red five)"), choices=[(2, "2"), (3, "3")], coerce=int, initial=2)
    players_per_table = forms.TypedChoiceField(label=_("Players per table (Yongzhou)"), choices=[(4, "4"), (3, "3")],
                                               coerce=int, initial=4)
    options = OptionsField(label=_("Rule options (JSON)"), required=False,
                           help_text=_("Overrides of the variant's rules, e.g. {\"throw_penalties\": true}. "
                                       "Leave empty for the standard rules."))


class TournamentEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    starts_on = forms.DateField(label=_("Starts on"), required=False, widget=DateInput)
    ends_on = forms.DateField(label=_("Ends on"), required=False, widget=DateInput)
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    is_public = forms.BooleanField(label=_("Public (anyone can follow it)"), required=False)
    options = OptionsField(label=_("Rule options (JSON)"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"name": tournament.name, "starts_on": tournament.starts_on,
                                      "ends_on": tournament.ends_on, "venue": tournament.venue,
                                      "is_public": tournament.is_public, "options": tournament.options})
        super().__init__(*args, **kwargs)
        if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            del self.fields["options"]

    def changes(self) -> dict[str, Any]:
        return dict(self.cleaned_data)


class QuickTeamForm(forms.Form):
    """Two players, their team and the team's entry in one go."""

    player1 = forms.CharField(label=_("Player 1"), max_length=100)
    player2 = forms.CharField(label=_("Player 2"), max_length=100)
    name = forms.CharField(label=_("Team name"), max_length=100, required=False,
                           help_text=_("Empty: the two names joined by “/”."))
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    rating = forms.IntegerField(label=_("Rating"), required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class QuickPlayerForm(forms.Form):
    """A player and the player's entry (individual variants)."""

    name = forms.CharField(label=_("Player"), max_length=100)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    rating = forms.IntegerField(label=_("Rating"), required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class StaffForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=[("scorer", _("scorer")), ("organizer", _("co-organizer"))],
                             initial="scorer", widget=BigRadio)


class StartForm(forms.Form):
    seeding = forms.ChoiceField(label=_("Seeding"), choices=Stage.Seeding.choices, initial=Stage.Seeding.MANUAL,
                                widget=BigRadio)
    third_place = forms.BooleanField(label=_("Play a third-place match"), required=False)


class AwardForm(forms.Form):
    match = forms.TypedChoiceField(label=_("Match"), coerce=int)
    winner_side = forms.TypedChoiceField(label=_("Awarded to"), coerce=int, choices=[(0, _("side 0")), (1, _("side 1"))],
                                         widget=BigRadio)
    kind = forms.ChoiceField(label=_("Kind"), choices=[("awarded", _("awarded result")), ("forfeit", _("forfeit"))],
                             initial="awarded", widget=BigRadio)
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, matches: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["match"].choices = [
            (m.pk, f"{m.table or '—'} · {m.key}: {m.entry0} v {m.entry1}") for m in matches
        ]


class HandForm(forms.Form):
    """The figures of one hand of tractor or chaodi (RULES.md §7), as a scorer enters them at the table."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    dealer = forms.TypedChoiceField(label=_("Dealer of the first hand (seat)"), choices=SEAT_CHOICES, coerce=int,
                                    required=False, empty_value=None, widget=BigRadio)
    trump = forms.ChoiceField(label=_("Trump"), choices=TRUMP_CHOICES, required=False, widget=BigRadio)
    attackers_points = forms.IntegerField(
        label=_("Attackers' trick points (without the kitty)"), initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 5, "min": 0, "class": "big-number"}))
    kitty_points = forms.IntegerField(
        label=_("Kitty points"), initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 5, "min": 0, "class": "big-number"}))
    last_trick_winner = forms.ChoiceField(label=_("Last trick won by"), initial="dealer", widget=BigRadio,
                                          choices=[("dealer", _("dealer side")), ("attackers", _("attackers"))])
    last_trick_largest = forms.TypedChoiceField(label=_("Largest component of the last trick's winning play"),
                                                choices=LARGEST_CHOICES, coerce=int, initial=1, widget=BigRadio)
    a_first_trick = forms.ChoiceField(label=_("Dealer side played an A in the first trick"), choices=YES_NO,
                                      required=False, widget=BigRadio)
    a_last_trick = forms.ChoiceField(label=_("Dealer side played an A in the last trick"), choices=YES_NO,
                                     required=False, widget=BigRadio)
    throw_penalties = forms.IntegerField(
        label=_("Throw penalties (points to the attackers)"), required=False, initial=0,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 5, "class": "big-number"}))

    ALIASES = {
        "outcome.attackers_points": "attackers_points", "outcome.kitty_points": "kitty_points",
        "outcome.last_trick": "last_trick_winner", "outcome.last_trick.winner": "last_trick_winner",
        "outcome.last_trick.largest": "last_trick_largest", "outcome.a_first_trick": "a_first_trick",
        "outcome.a_last_trick": "a_last_trick", "outcome.throw_penalties": "throw_penalties",
    }
    OUTCOME_FIELDS = ("attackers_points", "kitty_points", "last_trick_winner", "last_trick_largest",
                      "a_first_trick", "a_last_trick", "throw_penalties")

    def __init__(self, *args: Any, first_hand: bool, ask_a_tricks: bool, throw_penalties: bool,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if first_hand:
            self.fields["dealer"].required = True
        else:
            del self.fields["dealer"]
        if not ask_a_tricks:
            del self.fields["a_first_trick"]
            del self.fields["a_last_trick"]
        if not throw_penalties:
            del self.fields["throw_penalties"]

    @classmethod
    def initial_from(cls, outcome: Mapping[str, Any], trump: str = "") -> dict[str, Any]:
        """A stored hand's figures as the form's initial values (for a correction)."""
        last = outcome.get("last_trick") or {}
        initial: dict[str, Any] = {
            "trump": trump, "attackers_points": outcome.get("attackers_points", 0),
            "kitty_points": outcome.get("kitty_points", 0), "last_trick_winner": last.get("winner", "dealer"),
            "last_trick_largest": last.get("largest") or 1, "throw_penalties": outcome.get("throw_penalties", 0),
        }
        for key in ("a_first_trick", "a_last_trick"):
            if key in outcome:
                initial[key] = "yes" if outcome[key] else "no"
        return initial

    def outcome(self) -> dict[str, Any]:
        """The ``outcome`` object of the scoring API."""
        d = self.cleaned_data
        outcome: dict[str, Any] = {
            "attackers_points": d["attackers_points"], "kitty_points": d["kitty_points"],
            "last_trick": {"winner": d["last_trick_winner"], "largest": d.get("last_trick_largest") or 1},
        }
        for key in ("a_first_trick", "a_last_trick"):
            if d.get(key):
                outcome[key] = d[key] == "yes"
        if d.get("throw_penalties"):
            outcome["throw_penalties"] = d["throw_penalties"]
        return outcome


class CorrectionForm(HandForm):
    number = forms.IntegerField(widget=forms.HiddenInput)
    force = forms.BooleanField(label=_("Force the correction (organizers): later matches are reset"),
                               required=False)

    def __init__(self, *args: Any, allow_force: bool, **kwargs: Any) -> None:
        kwargs["first_hand"] = False
        super().__init__(*args, **kwargs)
        if not allow_force:
            del self.fields["force"]

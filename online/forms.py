"""The forms of online play's pages: create a room ("Play") and take a seat in one.

The room form shows every variant's rule options as labelled fields (``opt__<variant>__<option>``, built
from :mod:`variants.option_form` like the tournament forms' fields) and reads only the chosen variant's;
only values that differ from the variant's default are passed on, so an untouched form plays the
standard rules. Decks, players and the hands of a match are offered only where the variant allows them.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from online.models import Room, Seat
from safety.validators import validate_display_name
from variants import VARIANTS, Variant
from variants.option_form import as_text, changed_options, label_text, null_note_text, options_of
from variants.options import Kind, OptionSpec

PREFIX = "opt__"
SHOWN = "options_shown"
CLOCKS = (15, 30, 60)
"""Seconds per action a room may have (or none)."""
CHOICE_WORDS = {
    "lowest_card": _("the lowest card"), "fewest_cards": _("the fewest cards"),
    "strongest_in_side_suit": _("the strongest in the side suit"), "any": _("any"),
    "no_trump": _("no trump"), "kitty_card": _("a card from the kitty"), "redeal": _("deal again"),
    "schedule": _("by the schedule"), "random": _("drawn at random"),
    "power_of_two": _("2 to the size of the play (2, 4, 16, 64)"), "by_cards": _("by the cards (1, 2, 4, 6 …)"),
    "flat": _("×1 whatever the play"), "double": _("×2 whatever the play"),
    "dealer_side": _("the dealer's side wins"), "draw": _("a draw"), "deciding_hand": _("one deciding hand"),
    "S": "♠", "H": "♥", "C": "♣", "D": "♦",
}
"""The words of the choices (the same as the tournament form's: one translation each)."""


def _zh() -> bool:
    return (get_language() or "").startswith("zh")


def variant_name(variant: Variant) -> str:
    return variant.name_zh if _zh() else variant.name_en


def field_name(variant: str, option: str) -> str:
    return f"{PREFIX}{variant}__{option}"


def default_seating(variant: Variant) -> str:
    """Random seats where the winner deals next (yongzhou-300: no fixed partner to sit across from)."""
    return Room.Seating.RANDOM if variant.settlement.winner_deals_next else Room.Seating.CHOICE


def _option_field(spec: OptionSpec, current: Any) -> forms.Field:
    label = label_text(spec, zh=_zh())
    help_text = _("Option %(name)s.") % {"name": spec.name}
    if spec.kind is Kind.BOOL:
        return forms.BooleanField(label=label, required=False, initial=bool(current), help_text=help_text)
    if spec.kind is Kind.CHOICE:
        choices = [(str(c), CHOICE_WORDS.get(str(c), str(c))) for c in spec.choices]
        return forms.ChoiceField(label=label, choices=choices, initial=str(current), help_text=help_text,
                                 required=False)
    if spec.kind is Kind.POINTS:
        return forms.IntegerField(label=label, min_value=0, max_value=100, step_size=5, initial=current,
                                  required=False, help_text=help_text,
                                  widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    if current is None:
        note = null_note_text(spec, zh=_zh()) or str(_("the standard rule."))
        help_text = _("Empty: %(rule)s Option %(name)s.") % {"rule": note, "name": spec.name}
    return forms.CharField(label=label, required=False, initial=as_text(current), help_text=help_text,
                           widget=forms.TextInput(attrs={"spellcheck": "false", "autocomplete": "off"}))


def _set_choices(form: forms.Form, name: str, choices: list[tuple[str, Any]]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


def _seat_choices(players: int) -> list[tuple[str, str]]:
    return [("", str(_("Any free seat")))] + [(str(s), str(_("Seat %(n)s") % {"n": s + 1})) for s in range(players)]


class RoomForm(forms.Form):
    """Play online: a variant, its options, decks/players where it allows them, the clock, the seating and
    the creator's seat and name."""

    variant = forms.ChoiceField(label=_("Game"), widget=forms.RadioSelect)
    decks = forms.TypedChoiceField(label=_("Decks"), coerce=int, required=False, empty_value=None)
    players = forms.TypedChoiceField(label=_("Number of players"), coerce=int, required=False, empty_value=None)
    hands = forms.IntegerField(label=_("Hands in a match"), min_value=1, max_value=100, required=False,
                               widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    clock = forms.TypedChoiceField(label=_("Clock"), coerce=int, required=False, empty_value=None,
                                   widget=forms.RadioSelect)
    seating = forms.ChoiceField(label=_("Seats"), widget=forms.RadioSelect, required=False,
                                choices=[(Room.Seating.CHOICE, _("Players choose their seats")),
                                         (Room.Seating.RANDOM, _("Random seats"))])
    seat = forms.TypedChoiceField(label=_("Your seat"), coerce=int, required=False, empty_value=None)
    name = forms.CharField(label=_("Your name at the table"), max_length=40, required=False,
                           validators=[validate_display_name],
                           widget=forms.TextInput(attrs={"autocomplete": "nickname"}))

    def __init__(self, *args: Any, user: Any = None, variant: str | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        chosen = VARIANTS.get(variant or "") or next(iter(VARIANTS.values()))
        _set_choices(self, "variant", [(v.key, variant_name(v)) for v in VARIANTS.values()])
        self.fields["variant"].initial = chosen.key
        decks = sorted({d for v in VARIANTS.values() for d in v.decks})
        players = sorted({p for v in VARIANTS.values() for p in v.players}, reverse=True)
        _set_choices(self, "decks", [(str(d), str(_("%(n)s decks") % {"n": d})) for d in decks])
        self.fields["decks"].initial = chosen.default_decks
        _set_choices(self, "players", [(str(p), str(_("%(n)s players") % {"n": p})) for p in players])
        self.fields["players"].initial = chosen.default_players
        self.fields["hands"].initial = 8
        _set_choices(self, "clock", [("", _("No clock"))] + [(str(s), _("%(s)s s per action") % {"s": s})
                                                         for s in CLOCKS])
        self.fields["clock"].initial = ""
        self.fields["seating"].initial = default_seating(chosen)
        _set_choices(self, "seat", _seat_choices(max(players)))
        if getattr(user, "is_authenticated", False):
            self.fields["name"].initial = user.get_username()
        self.fields[SHOWN] = forms.CharField(widget=forms.HiddenInput, initial="1", required=False)
        for v in VARIANTS.values():
            for spec in options_of(v.key):
                self.fields[field_name(v.key, spec.name)] = _option_field(spec, spec.default(v))

    def option_groups(self) -> list[dict[str, Any]]:
        """Per variant: its option fields and what the page shows only for it (decks, players, hands)."""
        return [{"variant": v.key, "name": variant_name(v), "variable_decks": v.variable_decks,
                 "variable_players": v.variable_players, "individual": not v.partnership,
                 "seating": default_seating(v),
                 "fields": [self[field_name(v.key, spec.name)] for spec in options_of(v.key)]}
                for v in VARIANTS.values()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        key = data.get("variant")
        if not key or key not in VARIANTS:
            return data
        v = VARIANTS[key]
        decks = data.get("decks") or v.default_decks
        players = data.get("players") or v.default_players
        if decks not in v.decks:
            self.add_error("decks", _("%(game)s is played with %(allowed)s decks.") % {
                "game": variant_name(v), "allowed": " / ".join(str(d) for d in v.decks)})
        if players not in v.players:
            self.add_error("players", _("%(game)s is played by %(allowed)s players.") % {
                "game": variant_name(v), "allowed": " / ".join(str(p) for p in v.players)})
        data["decks"], data["players"] = decks, players
        data["hands"] = data.get("hands") if not v.partnership else None
        data["seating"] = data.get("seating") or default_seating(v)
        seat = data.get("seat")
        if seat is not None and not 0 <= seat < players:
            self.add_error("seat", _("There are %(n)s seats.") % {"n": players})
        if data["seating"] == Room.Seating.RANDOM:
            data["seat"] = None
        name = (data.get("name") or "").strip()
        if getattr(self.user, "is_authenticated", False):
            name = self.user.get_username()
        if not name:
            self.add_error("name", _("Write the name the others will see."))
        data["name"] = name
        data["options"] = self.chosen_options(key) if self.data.get(SHOWN) else {}
        return data

    def chosen_options(self, key: str) -> dict[str, Any]:
        cleaned = self.cleaned_data
        return changed_options(key, {spec.name: cleaned[field_name(key, spec.name)] for spec in options_of(key)
                                     if field_name(key, spec.name) in cleaned})

    def option_field(self, key: str, option: str) -> str | None:
        """The field of an option of ``key`` (a service's refusal names the option), if the form has it."""
        name = field_name(key, option)
        return name if name in self.fields else None


class JoinForm(forms.Form):
    """Take a seat: a display name (a logged-in user is named by the account) and, where the room lets
    players choose, a free seat."""

    name = forms.CharField(label=_("Your name at the table"), max_length=40, required=False,
                           validators=[validate_display_name],
                           widget=forms.TextInput(attrs={"autocomplete": "nickname"}))
    seat = forms.TypedChoiceField(label=_("Your seat"), coerce=int, required=False, empty_value=None,
                                  widget=forms.RadioSelect)

    def __init__(self, *args: Any, room: Room, seats: list[Seat], user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.room = room
        free = [s.seat for s in seats if not s.taken]
        if room.seating == Room.Seating.CHOICE and len(free) > 1:
            _set_choices(self, "seat", [("", _("Any free seat"))] + [
                (str(s), _("Seat %(n)s") % {"n": s + 1}) for s in free])
            self.fields["seat"].initial = ""
        else:
            del self.fields["seat"]
        if getattr(user, "is_authenticated", False):
            del self.fields["name"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if getattr(self.user, "is_authenticated", False):
            data["name"] = self.user.get_username()
        elif not (data.get("name") or "").strip() and "name" not in self.errors:
            self.add_error("name", _("Write the name the others will see."))
        data["name"] = (data.get("name") or "").strip()
        data.setdefault("seat", None)
        return data

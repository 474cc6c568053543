"""Forms of the tournament pages. They only parse input; the services decide and validate."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from django import forms
from django.utils.translation import gettext_lazy as _

from safety.validators import validate_display_name
from tournaments.formats import tiebreaks
from tournaments.labels import seat_label, seat_short
from tournaments.models import Club, Played, Stage, Tournament, Variant
from tournaments.option_fields import PREFIX as OPTION_PREFIX
from tournaments.option_fields import (
    add_option_fields,
    chosen_options,
    field_name,
    move_option_errors,
    strip_option_fields,
)
from tournaments.option_fields import groups as option_groups
from variants import SUIT_SYMBOLS, SUITS

if TYPE_CHECKING:
    from django.core.files.uploadedfile import UploadedFile
    from django.utils.datastructures import MultiValueDict

SEAT_CHOICES = [(0, "0"), (1, "1"), (2, "2"), (3, "3")]
SUIT_CHOICES = [(suit, SUIT_SYMBOLS[suit]) for suit in reversed(SUITS)]  # ♠ ♥ ♣ ♦
LARGEST_CHOICES = [(1, _("single")), (2, _("pair")), (4, _("2-pair tractor")), (6, _("3-pair tractor")),
                   (8, _("4-pair tractor"))]
YES_NO = [("yes", _("yes")), ("no", _("no"))]

FieldT = TypeVar("FieldT", bound=forms.Field)


def form_field(form: forms.BaseForm, name: str, kind: type[FieldT]) -> FieldT:
    """The form's field ``name`` as the kind of field it is (``form.fields`` holds plain ``Field`` objects for the
    type checker), to set its choices or queryset."""
    field = form.fields[name]
    if not isinstance(field, kind):
        raise TypeError(f"{name} is a {type(field).__name__}, not a {kind.__name__}")
    return field


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


class DateInput(forms.DateInput):
    """A browser date picker. Its value is always ISO (``2025-05-01``), whatever the page's language: a
    localized value (``2025年5月1日``) is not a valid ``<input type=date>`` value, so the browser would show
    the field empty and the next save would erase the date."""

    input_type = "date"

    def __init__(self, attrs: dict[str, Any] | None = None, format: str | None = None) -> None:
        super().__init__(attrs=attrs, format=format or "%Y-%m-%d")


ISO_DATE_FORMATS = ["%Y-%m-%d"]


def date_field(label: Any) -> forms.DateField:
    """An optional date, entered and shown as ISO in every language (the date picker's own format)."""
    return forms.DateField(label=label, required=False, widget=DateInput, input_formats=ISO_DATE_FORMATS)


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200, validators=[validate_display_name])
    variant = forms.ChoiceField(label=_("Variant"), choices=Variant.choices, initial=Variant.TRACTOR)
    starts_on = date_field(_("Starts on"))
    ends_on = date_field(_("Ends on"))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    seat_names = forms.ChoiceField(label=_("Seats are called"), choices=Tournament.SeatNames.choices,
                                   initial=Tournament.SeatNames.NUMBERS, widget=BigRadio, required=False,
                                   help_text=_("On pages, printed sheets and messages (the API counts seats from 0)."))
    is_public = forms.BooleanField(label=_("Public (anyone can follow it)"), required=False, initial=True)
    require_confirmation = forms.BooleanField(
        label=_("Results need confirmation"), required=False,
        help_text=_("A result becomes final when the losing side confirms it on its phone (or an organizer does)."))
    decks = forms.TypedChoiceField(label=_("Decks"), choices=[(2, "2"), (3, "3")], coerce=int, initial=2)
    players_per_table = forms.TypedChoiceField(label=_("Players per table"), choices=[(4, "4"), (3, "3")],
                                               coerce=int, initial=4)
    # Fields that belong to one variant: shown in that variant's group (docs/rules.md's option tables).
    VARIANT_FIELDS = {Variant.RED_FIVE.value: ("decks",), Variant.YONGZHOU.value: ("players_per_table",)}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        add_option_fields(self, [v.value for v in Variant])

    def variant_groups(self) -> list[dict[str, Any]]:
        """One group of fields per variant: its own settings, then its rule options."""
        labels = dict(Variant.choices)
        out = []
        for group in option_groups(self, [v.value for v in Variant]):
            own = [self[name] for name in self.VARIANT_FIELDS.get(group["variant"], ())]
            out.append({**group, "label": labels[group["variant"]], "fields": own + group["fields"]})
        return out

    def common_fields(self) -> list[Any]:
        grouped = {name for names in self.VARIANT_FIELDS.values() for name in names}
        return [self[name] for name in self.fields if name not in grouped and not name.startswith(OPTION_PREFIX)]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        variant = data.get("variant") or Variant.TRACTOR.value
        data["options"] = chosen_options(self, variant)
        strip_option_fields(data)
        return data

    def add_option_errors(self, field_errors: Mapping[str, list[str]]) -> dict[str, list[str]]:
        """Put the services' ``options.<name>`` errors on the option's field; return the rest."""
        return move_option_errors(self, self.cleaned_data.get("variant") or Variant.TRACTOR.value, field_errors)

    def clean_seat_names(self) -> str:
        return self.cleaned_data.get("seat_names") or Tournament.SeatNames.NUMBERS


class TournamentEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200, validators=[validate_display_name])
    starts_on = date_field(_("Starts on"))
    ends_on = date_field(_("Ends on"))
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    seat_names = forms.ChoiceField(label=_("Seats are called"), choices=Tournament.SeatNames.choices,
                                   initial=Tournament.SeatNames.NUMBERS, widget=BigRadio, required=False,
                                   help_text=_("On pages, printed sheets and messages (the API counts seats from 0)."))
    is_public = forms.BooleanField(label=_("Public (anyone can follow it)"), required=False)
    require_confirmation = forms.BooleanField(
        label=_("Results need confirmation"), required=False,
        help_text=_("A result becomes final when the losing side confirms it on its phone (or an organizer does)."))
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all(), required=False,
                                  help_text=_("Its results count for the club's ladder too."))
    rate_awarded = forms.BooleanField(
        label=_("Rate awarded results"), required=False,
        help_text=_("Count results awarded by the organizer for the ratings (forfeits and byes never count)."))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        kwargs.setdefault("initial", {"name": tournament.name, "starts_on": tournament.starts_on,
                                      "ends_on": tournament.ends_on, "venue": tournament.venue,
                                      "seat_names": tournament.seat_names,
                                      "is_public": tournament.is_public, "options": tournament.options,
                                      "require_confirmation": tournament.require_confirmation,
                                      "club": tournament.club_id, "rate_awarded": tournament.rate_awarded})
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
            add_option_fields(self, [tournament.variant], stored=tournament.options)  # fixed once play starts

    def clean_seat_names(self) -> str:
        return self.cleaned_data.get("seat_names") or self.tournament.seat_names

    def changes(self) -> dict[str, Any]:
        data = dict(self.cleaned_data)
        if any(name.startswith(OPTION_PREFIX) for name in self.fields):
            kept = {k: v for k, v in (self.tournament.options or {}).items()
                    if field_name(self.tournament.variant, k) not in self.fields}  # e.g. a level table set by the API
            data["options"] = {**kept, **chosen_options(self, self.tournament.variant)}
        strip_option_fields(data)
        return data

    def add_option_errors(self, field_errors: Mapping[str, list[str]]) -> dict[str, list[str]]:
        """Put the services' ``options.<name>`` errors on the option's field; return the rest."""
        return move_option_errors(self, self.tournament.variant, field_errors)


class QuickTeamForm(forms.Form):
    """Two players, their team and the team's entry in one go."""

    player1 = forms.CharField(label=_("Player 1"), max_length=100, validators=[validate_display_name])
    player2 = forms.CharField(label=_("Player 2"), max_length=100, validators=[validate_display_name])
    name = forms.CharField(label=_("Team name"), max_length=100, required=False, validators=[validate_display_name],
                           help_text=_("Empty: the two names joined by “/”."))
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    rating = forms.IntegerField(label=_("Rating"), required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class QuickPlayerForm(forms.Form):
    """A player and the player's entry (individual variants)."""

    name = forms.CharField(label=_("Player"), max_length=100, validators=[validate_display_name])
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    rating = forms.IntegerField(label=_("Rating"), required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, required=False,
                              widget=forms.NumberInput(attrs={"inputmode": "numeric"}))


class StaffForm(forms.Form):
    username = forms.CharField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=[("scorer", _("scorer")), ("organizer", _("co-organizer"))],
                             initial="scorer", widget=BigRadio)


GRAND_FINAL_CHOICES = [("single", _("a single match")), ("reset", _("with a reset")), ("none", _("none"))]
ELIMINATION_CHOICES = [(Stage.Format.SINGLE_ELIMINATION, _("single elimination")),
                       (Stage.Format.DOUBLE_ELIMINATION, _("double elimination"))]


PLAYED_HELP = _("Online: each match is played in an online room reached by the players' private links; every hand "
                "goes straight into the standings and the bracket.")


class StartForm(forms.Form):
    format = forms.ChoiceField(label=_("Format"), choices=ELIMINATION_CHOICES, initial=Stage.Format.SINGLE_ELIMINATION,
                               widget=BigRadio, help_text=_(
                                   "Each match is “first past J” (谁先打过J): the side that gets past J as the "
                                   "dealer side wins it (chaodi: first past A; the rule options can change the "
                                   "target or limit the hands)."))
    seeding = forms.ChoiceField(label=_("Seeding"), choices=Stage.Seeding.choices, initial=Stage.Seeding.MANUAL,
                                widget=BigRadio)
    third_place = forms.BooleanField(label=_("Play a third-place match"), required=False)
    grand_final = forms.ChoiceField(label=_("Grand final (double elimination)"), choices=GRAND_FINAL_CHOICES,
                                    initial="single", widget=BigRadio)
    played = forms.ChoiceField(label=_("Where it is played"), choices=Played.choices, initial=Played.PHYSICAL, widget=BigRadio,
                               help_text=PLAYED_HELP)
    absent = forms.ChoiceField(label=_("Entries that did not check in"), initial="withdraw", widget=BigRadio,
                               choices=[("withdraw", _("are withdrawn")), ("forfeit", _("lose their first match by forfeit"))],
                               help_text=_("Applies once at least one entry has checked in."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Forms posted before these fields existed (and simple clients) keep the old defaults.
        for name in ("format", "grand_final", "absent", "played"):
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        super().clean()
        d = self.cleaned_data
        d["format"] = d.get("format") or Stage.Format.SINGLE_ELIMINATION
        d["grand_final"] = d.get("grand_final") or "single"
        d["absent"] = d.get("absent") or "withdraw"
        d["played"] = d.get("played") or Played.PHYSICAL
        return d


def tiebreak_help(individual: bool) -> str:
    allowed = tiebreaks.INDIVIDUAL_TIEBREAKS if individual else tiebreaks.PARTNERSHIP_TIEBREAKS
    return ", ".join(allowed)


class StageForm(forms.Form):
    """A new stage: its format (by variant), rounds, tiebreaks in order, qualifiers and where they come from."""

    format = forms.ChoiceField(label=_("Format"), widget=BigRadio)
    name = forms.CharField(label=_("Name"), max_length=100, required=False,
                           help_text=_("Empty: the format's name."))
    rounds = forms.IntegerField(label=_("Rounds (Swiss, table rounds)"), min_value=1, max_value=50, required=False,
                                widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    hands_per_table = forms.IntegerField(label=_("Hands per table"), min_value=1, max_value=100, required=False,
                                         widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    tiebreaks = forms.CharField(label=_("Tiebreaks, in order"), required=False, max_length=300,
                                widget=forms.TextInput(attrs={"class": "mono", "spellcheck": "false"}))
    qualifiers = forms.IntegerField(label=_("Entries qualifying for the next stage"), min_value=2, required=False,
                                    widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    source_stage = forms.ModelChoiceField(label=_("Qualifies from (knockout after an earlier stage)"),
                                          queryset=Stage.objects.none(), required=False,
                                          empty_label=_("— all active entries —"))
    seeding = forms.ChoiceField(label=_("Seeding (knockout)"), choices=Stage.Seeding.choices,
                                initial=Stage.Seeding.RATING, required=False, widget=BigRadio)
    third_place = forms.BooleanField(label=_("Play a third-place match"), required=False)
    grand_final = forms.ChoiceField(label=_("Grand final (double elimination)"), choices=GRAND_FINAL_CHOICES,
                                    initial="single", required=False, widget=BigRadio)
    played = forms.ChoiceField(label=_("Where it is played"), choices=Played.choices, initial=Played.PHYSICAL, required=False,
                               widget=BigRadio, help_text=PLAYED_HELP)

    PARTNERSHIP = [(Stage.Format.SINGLE_ELIMINATION, _("single elimination")),
                   (Stage.Format.DOUBLE_ELIMINATION, _("double elimination")),
                   (Stage.Format.SWISS, _("Swiss")), (Stage.Format.ROUND_ROBIN, _("round robin"))]
    INDIVIDUAL = [(Stage.Format.TABLE_ROUNDS, _("individual table rounds"))]

    def __init__(self, data: Mapping[str, Any] | None = None,
                 files: MultiValueDict[str, UploadedFile[Any]] | None = None, *,
                 tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(data, files, prefix="stage", **kwargs)
        partnership = tournament.is_partnership
        form_field(self, "format", forms.ChoiceField).choices = self.PARTNERSHIP if partnership else self.INDIVIDUAL
        self.fields["format"].initial = Stage.Format.SWISS if partnership else Stage.Format.TABLE_ROUNDS
        self.fields["tiebreaks"].help_text = _("Separated by commas, e.g. “%(example)s”. Empty: the standard order. "
                                               "Choose from: %(allowed)s.") % {
            "example": "match_wins, level_difference, buchholz" if partnership else "game_points, average, hands_won",
            "allowed": tiebreak_help(not partnership)}
        if partnership:
            del self.fields["hands_per_table"]
            form_field(self, "source_stage", forms.ModelChoiceField).queryset = tournament.stages.order_by("number")
        else:
            for name in ("qualifiers", "source_stage", "seeding", "third_place", "grand_final"):
                del self.fields[name]

    def clean_tiebreaks(self) -> list[str]:
        text = self.cleaned_data.get("tiebreaks") or ""
        return [part.strip().lower().replace(" ", "_").replace("-", "_")
                for part in text.replace("，", ",").replace(";", ",").split(",") if part.strip()]

    def service_kwargs(self) -> dict[str, Any]:
        d = self.cleaned_data
        kwargs: dict[str, Any] = {"format": d["format"], "name": d.get("name") or "", "rounds": d.get("rounds"),
                                  "tiebreaks_order": d.get("tiebreaks") or None,
                                  "played": d.get("played") or Played.PHYSICAL}
        if "hands_per_table" in d:
            kwargs["hands_per_table"] = d.get("hands_per_table")
        if "qualifiers" in d:
            kwargs.update(qualifiers=d.get("qualifiers"), source_stage=d.get("source_stage"),
                          seeding=d.get("seeding") or Stage.Seeding.RATING, third_place=bool(d.get("third_place")),
                          grand_final=d.get("grand_final") or "single")
        return kwargs


class PairForm(forms.Form):
    override = forms.BooleanField(label=_("Pair anyway (organizer override): outstanding results count as not played"),
                                  required=False)


class CsvForm(forms.Form):
    """Entries from CSV: a file or pasted text (UTF-8)."""

    file = forms.FileField(label=_("CSV file (UTF-8)"), required=False)
    text = forms.CharField(label=_("… or paste the CSV here"), required=False,
                           widget=forms.Textarea(attrs={"rows": 5, "spellcheck": "false", "class": "mono"}))

    def clean(self) -> dict[str, Any]:
        super().clean()
        d = self.cleaned_data
        upload = d.get("file")
        if upload:
            d["data"] = upload.read()
        elif (d.get("text") or "").strip():
            d["data"] = d["text"]
        else:
            raise forms.ValidationError(_("Choose a file or paste the CSV."))
        return d


class JsonImportForm(forms.Form):
    file = forms.FileField(label=_("Tournament export (JSON)"))

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > 20_000_000:
            raise forms.ValidationError(_("The file is too large (at most 20 MB)."))
        try:
            return json.loads(upload.read().decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            raise forms.ValidationError(_("This is not a JSON file: %(error)s") % {"error": exc}) from exc


class AwardForm(forms.Form):
    match = forms.TypedChoiceField(label=_("Match"), coerce=int)
    winner_side = forms.TypedChoiceField(label=_("Awarded to"), coerce=int, choices=[(0, _("side 1")), (1, _("side 2"))],
                                         widget=BigRadio)
    kind = forms.ChoiceField(label=_("Kind"), choices=[("awarded", _("awarded result")), ("forfeit", _("forfeit"))],
                             initial="awarded", widget=BigRadio)
    reason = forms.CharField(label=_("Reason"), widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, matches: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "match", forms.ChoiceField).choices = [
            (m.pk, f"{m.table or '—'} · {m.key}: {m.entry0} v {m.entry1}") for m in matches
        ]


NO_TRUMP = "NT"  # the form's value for "no trump": an empty trump means "not chosen yet"
TRUMP_CHOICES = [*SUIT_CHOICES, (NO_TRUMP, _("No trump"))]


def _must_choose(message: Any) -> dict[str, Any]:
    return {"required": message}


class HandForm(forms.Form):
    """The figures of one hand of tractor or chaodi (RULES.md §7), as a scorer enters them at the table.

    Nothing that changes the result is filled in beforehand: the trump, the points, the kitty and who won
    the last trick are chosen every hand (an empty one is refused), so a hurried tap cannot save a
    plausible wrong hand."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    dealer = forms.TypedChoiceField(label=_("Dealer of the first hand (seat)"), choices=SEAT_CHOICES, coerce=int,
                                    required=False, empty_value=None, widget=BigRadio)
    trump = forms.ChoiceField(label=_("Trump"), choices=TRUMP_CHOICES, widget=BigRadio,
                              error_messages=_must_choose(_("Choose the trump suit, or “No trump”.")))
    attackers_points = forms.IntegerField(
        label=_("Attackers' trick points (without the kitty)"),
        error_messages=_must_choose(_("Enter the attackers' trick points (0 if they took none).")),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 5, "min": 0, "class": "big-number"}))
    kitty_points = forms.IntegerField(
        label=_("Kitty points"), error_messages=_must_choose(_("Enter the points in the kitty (0 if none).")),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "step": 5, "min": 0, "class": "big-number"}))
    last_trick_winner = forms.ChoiceField(label=_("Last trick won by"), widget=BigRadio,
                                          choices=[("dealer", _("dealer side")), ("attackers", _("attackers"))],
                                          error_messages=_must_choose(_("Say which side won the last trick.")))
    last_trick_largest = forms.TypedChoiceField(label=_("Largest component of the last trick's winning play"),
                                                choices=LARGEST_CHOICES, coerce=int, required=False,
                                                empty_value=None, widget=BigRadio,
                                                help_text=_("Only when the attackers won the last trick: the kitty "
                                                            "counts by it."))
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
    stepped = ("attackers_points", "kitty_points", "throw_penalties")

    def __init__(self, *args: Any, first_hand: bool, ask_a_tricks: bool, throw_penalties: bool,
                 tournament: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if first_hand:
            self.fields["dealer"].required = True
            form_field(self, "dealer", forms.ChoiceField).choices = [(seat, seat_short(tournament, seat)) for seat, _label in SEAT_CHOICES]
        else:
            del self.fields["dealer"]
        if not ask_a_tricks:
            del self.fields["a_first_trick"]
            del self.fields["a_last_trick"]
        else:  # asked only at the top level, where they decide whether the dealer side passes it
            for name in ("a_first_trick", "a_last_trick"):
                self.fields[name].required = True
                self.fields[name].error_messages["required"] = _("Answer yes or no: it decides the level.")
        if not throw_penalties:
            del self.fields["throw_penalties"]

    @classmethod
    def initial_from(cls, outcome: Mapping[str, Any], trump: str = "") -> dict[str, Any]:
        """A stored hand's figures as the form's initial values (for a correction)."""
        last = outcome.get("last_trick") or {}
        initial: dict[str, Any] = {
            "trump": trump or NO_TRUMP, "attackers_points": outcome.get("attackers_points", 0),
            "kitty_points": outcome.get("kitty_points", 0), "last_trick_winner": last.get("winner", "dealer"),
            "last_trick_largest": last.get("largest") or 1, "throw_penalties": outcome.get("throw_penalties", 0),
        }
        for key in ("a_first_trick", "a_last_trick"):
            if key in outcome:
                initial[key] = "yes" if outcome[key] else "no"
        return initial

    def required_fields(self) -> list[dict[str, Any]]:
        """The fields the save button waits for (the page's script; the server refuses them empty anyway):
        their posted names and labels, and when one is needed only after another's answer."""
        fields = [{"name": self.add_prefix(name), "label": field.label} for name, field in self.fields.items()
                  if field.required and not isinstance(field.widget, forms.HiddenInput)]
        if "last_trick_largest" in self.fields:
            fields.append({"name": self.add_prefix("last_trick_largest"),
                           "label": self.fields["last_trick_largest"].label,
                           "when": self.add_prefix("last_trick_winner"), "when_value": "attackers"})
        return fields

    def clean(self) -> dict[str, Any]:
        super().clean()
        d = self.cleaned_data
        if d.get("last_trick_winner") == "attackers" and d.get("last_trick_largest") is None:
            self.add_error("last_trick_largest", _("The attackers won the last trick: say how large its winning "
                                                   "play was (the kitty counts by it)."))
        return d

    def trump_code(self) -> str:
        """The trump as the services take it ("" for no trump)."""
        trump = self.cleaned_data.get("trump") or ""
        return "" if trump == NO_TRUMP else trump

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


# --------------------------------------------------------------------------- individual tables (issue 6)



def _big_number(**attrs: Any) -> forms.NumberInput:
    return forms.NumberInput(attrs={"inputmode": "numeric", "step": 5, "min": 0, "class": "big-number", **attrs})


class TableHandForm(forms.Form):
    """Common ground of the individual-table hand forms: the version, the seats, errors by JSON path."""

    version = forms.IntegerField(widget=forms.HiddenInput)
    stepped: tuple[str, ...] = ()

    def __init__(self, *args: Any, seats: list[tuple[int, str]], tournament: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        self.tournament = tournament
        self.seat_choices = [(seat, f"{seat_short(tournament, seat)} · {name}") for seat, name in seats]

    def field_for(self, path: str) -> str | None:
        """The form field of a scoring error path (``outcome.red_fives.0.won_by`` → ``red_five_0_won_by``)."""
        parts = path.removeprefix("outcome.").split(".")
        if parts[0] == "red_fives" and len(parts) >= 2 and parts[1].isdigit():
            name = f"red_five_{parts[1]}_{parts[2] if len(parts) > 2 else 'played_by'}"
        elif parts[0] == "points" and len(parts) == 2 and parts[1].isdigit():
            name = f"points_{parts[1]}"
        else:
            name = parts[0]
        return name if name in self.fields else None

    def add_service_errors(self, field_errors: Mapping[str, list[str]]) -> None:
        for path, messages in field_errors.items():
            name = self.field_for(path)
            for message in messages:
                self.add_error(name, message)

    def required_fields(self) -> list[dict[str, Any]]:
        """The fields the save button waits for (see HandForm.required_fields)."""
        return [{"name": self.add_prefix(name), "label": field.label} for name, field in self.fields.items()
                if field.required and not isinstance(field.widget, forms.HiddenInput)]

    def outcome(self) -> dict[str, Any]:
        raise NotImplementedError


class RedFiveHandForm(TableHandForm):
    """One red-five hand (RULES.md §7): the dealer (who won the bid), bid, trump, the dealer's trick
    points, the kitty, who won the last trick, and every captured ♥5."""

    dealer = forms.TypedChoiceField(label=_("Dealer (won the bid)"), coerce=int, widget=BigRadio)
    bid = forms.IntegerField(label=_("Bid"), widget=_big_number())
    trump = forms.ChoiceField(label=_("Trump"), choices=SUIT_CHOICES, widget=BigRadio)
    dealer_points = forms.IntegerField(
        label=_("Dealer's trick points (without the kitty)"), widget=_big_number(),
        error_messages=_must_choose(_("Enter the dealer's trick points (0 if none).")))
    kitty_points = forms.IntegerField(label=_("Kitty points"), widget=_big_number(),
                                      error_messages=_must_choose(_("Enter the points in the kitty (0 if none).")))
    dealer_won_last_trick = forms.ChoiceField(
        label=_("Dealer won the last trick"), choices=YES_NO, widget=BigRadio,
        error_messages=_must_choose(_("Say whether the dealer won the last trick.")))
    stepped = ("bid", "dealer_points", "kitty_points")

    def __init__(self, *args: Any, decks: int = 2, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "dealer", forms.ChoiceField).choices = self.seat_choices
        self.decks = decks
        choices = [("", "—"), *self.seat_choices]
        for i in range(decks):
            self.fields[f"red_five_{i}_played_by"] = forms.TypedChoiceField(
                label=_("Captured ♥5 no. %(n)s: played by") % {"n": i + 1}, choices=choices, coerce=int,
                empty_value=None, required=False)
            self.fields[f"red_five_{i}_won_by"] = forms.TypedChoiceField(
                label=_("… won by"), choices=choices, coerce=int, empty_value=None, required=False)

    def clean(self) -> dict[str, Any]:
        super().clean()
        d = self.cleaned_data
        for i in range(self.decks):
            played, won = d.get(f"red_five_{i}_played_by"), d.get(f"red_five_{i}_won_by")
            if (played is None) != (won is None):
                self.add_error(f"red_five_{i}_won_by" if won is None else f"red_five_{i}_played_by",
                               _("Give both seats of a captured ♥5, or neither."))
        return d

    def red_five_rows(self) -> list[tuple[Any, Any]]:
        return [(self[f"red_five_{i}_played_by"], self[f"red_five_{i}_won_by"]) for i in range(self.decks)]

    @classmethod
    def initial_from(cls, outcome: Mapping[str, Any]) -> dict[str, Any]:
        """A stored hand's figures as the form's initial values (for a correction)."""
        initial: dict[str, Any] = {key: outcome.get(key) for key in ("dealer", "bid", "trump", "dealer_points",
                                                                     "kitty_points")}
        initial["dealer_won_last_trick"] = "yes" if outcome.get("dealer_won_last_trick") else "no"
        for i, capture in enumerate(outcome.get("red_fives") or []):
            initial[f"red_five_{i}_played_by"] = capture.get("played_by")
            initial[f"red_five_{i}_won_by"] = capture.get("won_by")
        return initial

    def outcome(self) -> dict[str, Any]:
        d = self.cleaned_data
        red_fives = [{"played_by": d[f"red_five_{i}_played_by"], "won_by": d[f"red_five_{i}_won_by"]}
                     for i in range(self.decks)
                     if d.get(f"red_five_{i}_played_by") is not None and d.get(f"red_five_{i}_won_by") is not None]
        return {"dealer": d["dealer"], "bid": d["bid"], "trump": d["trump"], "dealer_points": d["dealer_points"],
                "kitty_points": d["kitty_points"], "dealer_won_last_trick": d["dealer_won_last_trick"] == "yes",
                "red_fives": red_fives}


class YongzhouHandForm(TableHandForm):
    """One Yongzhou hand: every player's points (they sum to 300) and who declared."""

    declarer = forms.TypedChoiceField(label=_("Declarer"), coerce=int, widget=BigRadio)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "declarer", forms.ChoiceField).choices = self.seat_choices
        for seat, name in self.seats:
            self.fields[f"points_{seat}"] = forms.IntegerField(
                label=_("Points of %(seat)s (%(name)s)") % {"seat": seat_label(self.tournament, seat), "name": name},
                widget=_big_number(max=300),
                error_messages=_must_choose(_("Enter this player's points (0 if none).")))
        self.stepped = tuple(f"points_{seat}" for seat, _name in self.seats)
        self.fields["tie_break"] = forms.TypedChoiceField(
            label=_("Only if several players tie for the most points: who is dealt to first next hand"),
            choices=[("", "—"), *self.seat_choices], coerce=int, empty_value=None, required=False)
        # The declarer after the points: the points come first at the table.
        self.order_fields(["version", *self.stepped, "declarer", "tie_break"])

    @classmethod
    def initial_from(cls, outcome: Mapping[str, Any]) -> dict[str, Any]:
        """A stored hand's figures as the form's initial values (for a correction)."""
        initial: dict[str, Any] = {f"points_{seat}": points for seat, points in enumerate(outcome.get("points") or [])}
        initial["declarer"] = outcome.get("declarer")
        initial["tie_break"] = outcome.get("tie_break")
        return initial

    def outcome(self) -> dict[str, Any]:
        d = self.cleaned_data
        outcome = {"points": [d[f"points_{seat}"] for seat, _name in self.seats], "declarer": d["declarer"]}
        if d.get("tie_break") is not None:
            outcome["tie_break"] = d["tie_break"]
        return outcome

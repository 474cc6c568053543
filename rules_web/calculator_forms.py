"""The calculator page's forms: the figures a scorer writes down for one hand (RULES.md §7).

:class:`VariantChoiceForm` (a GET form) picks the variant, and the number of players where that
varies; :class:`CalculatorForm` then holds only that variant's fields, asked of the variant
(:func:`variants.get`: its levels, partnership, settlement, options) rather than of its name.
"""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import variants
from rules_web.referee_forms import VARIANT_CHOICES
from scoring.api import ScoredHand, score_outcome
from scoring.errors import Problem, ScoringInputError
from scoring.partnership import LastTrick, MatchState, PartnershipOutcome
from scoring.redfive import RedFiveCapture, RedFiveOutcome
from scoring.rules import scoring_rules
from scoring.yongzhou import YongzhouOutcome
from variants import SUIT_SYMBOLS, Variant
from variants.options import OPTIONS
from variants.seats import seat_number, side_number

SEAT_CHOICES = [(i, str(seat_number(i))) for i in range(4)]
"""Seats 0–3 as the form sends them, labelled 1–4 as people count them."""
YES_NO = [("", "—"), ("yes", _("yes")), ("no", _("no"))]
MAX_RED_FIVES = 3
DEFAULT_VARIANT = variants.VARIANT_KEYS[0]


def _points(label: Any, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(label=label, widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}),
                              **kwargs)


def chosen_variant(data: Any) -> Variant:
    """The variant named in ``data`` (a query or form), the first variant if none or unknown."""
    key = (data or {}).get("variant") or DEFAULT_VARIANT
    return variants.get(key if key in variants.VARIANTS else DEFAULT_VARIANT)


def chosen_players(data: Any, spec: Variant) -> int:
    """The table size in ``data`` if the variant allows it, else the variant's default."""
    try:
        players = int((data or {}).get("players") or spec.default_players)
    except (TypeError, ValueError):
        return spec.default_players
    return players if players in spec.players else spec.default_players


class VariantChoiceForm(forms.Form):
    """Which variant (and table size) the calculator shows: sent with GET, so it works without JavaScript."""

    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES)

    def __init__(self, spec: Variant, players: int) -> None:
        super().__init__(initial={"variant": spec.key, "players": players})
        if spec.variable_players:
            self.fields["players"] = forms.TypedChoiceField(
                label=_("Players"), coerce=int, choices=[(n, str(n)) for n in sorted(spec.players)])


class CalculatorForm(forms.Form):
    """The figures of one hand: only the fields of the variant (and table size) named in ``data``,
    or of ``spec`` and ``players`` when given."""

    def __init__(self, data: Any = None, *args: Any, spec: Variant | None = None, players: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(data, *args, **kwargs)
        spec = spec or chosen_variant(data)
        players = players or chosen_players(data, spec)
        self.spec = spec
        self.players = players
        self.fields["variant"] = forms.CharField(widget=forms.HiddenInput, initial=spec.key, required=False)
        self.fields["players"] = forms.IntegerField(widget=forms.HiddenInput, initial=players, required=False)
        if spec.partnership:
            self._partnership_fields(spec)
        elif spec.settlement.contract:
            self._red_five_fields(spec)
        else:
            for seat in range(players):
                self.fields[f"points_{seat}"] = _points(_("Points of seat %(seat)s") % {"seat": seat_number(seat)},
                                                        required=False, initial=0)

    def _partnership_fields(self, spec: Variant) -> None:
        levels = [(name, name) for name in spec.level_names]
        first = spec.first_level_name
        for side in (0, 1):
            self.fields[f"level_{side}"] = forms.ChoiceField(
                label=_("Level of side %(side)s (seats %(a)s, %(b)s)")
                % {"side": side_number(side), "a": seat_number(side), "b": seat_number(side + 2)},
                choices=levels, initial=first)
        self.fields["dealer"] = forms.TypedChoiceField(label=_("Dealer (seat)"), choices=SEAT_CHOICES, coerce=int, initial=0)
        if OPTIONS["a_failure_limit"].default(spec) is not None:  # failed A attempts count
            for side in (0, 1):
                self.fields[f"a_failures_{side}"] = forms.IntegerField(
                    label=_("Failed A attempts in a row, side %(side)s") % {"side": side_number(side)},
                    min_value=0, initial=0, required=False)
        self.fields["attackers_points"] = _points(_("Attackers' trick points (no kitty)"), initial=0, required=False)
        self.fields["kitty_points"] = _points(_("Kitty points"), initial=0, required=False)
        self.fields["last_trick_winner"] = forms.ChoiceField(
            label=_("Last trick won by"), choices=[("dealer", _("dealer side")), ("attackers", _("attackers"))])
        self.fields["last_trick_largest"] = forms.IntegerField(
            label=_("Cards in the largest component of the last trick's winning play"), min_value=1, initial=1,
            required=False)
        if OPTIONS["a_failure_limit"].default(spec) is not None:  # passing A needs an A in the first and last trick
            self.fields["a_first_trick"] = forms.ChoiceField(
                label=_("Dealer side played an A in the first trick (dealer side at A)"), choices=YES_NO, required=False)
            self.fields["a_last_trick"] = forms.ChoiceField(
                label=_("Dealer side played an A in the last trick (dealer side at A)"), choices=YES_NO, required=False)
        if OPTIONS["throw_penalties"].default(spec):
            self.fields["throw_penalties"] = forms.IntegerField(label=_("Throw penalties"), required=False)

    def _red_five_fields(self, spec: Variant) -> None:
        if spec.variable_decks:
            self.fields["decks"] = forms.TypedChoiceField(
                label=_("Decks"), choices=[(n, str(n)) for n in spec.decks], coerce=int, initial=spec.default_decks)
        self.fields["dealer"] = forms.TypedChoiceField(label=_("Dealer (seat)"), choices=SEAT_CHOICES, coerce=int, initial=0)
        self.fields["bid"] = _points(_("Bid"), required=False)
        self.fields["trump"] = forms.ChoiceField(label=_("Trump"),
                                                 choices=[(s, SUIT_SYMBOLS[s]) for s in reversed(variants.SUITS)])
        self.fields["dealer_points"] = _points(_("Dealer's trick points"), initial=0, required=False)
        self.fields["kitty_points"] = _points(_("Kitty points"), initial=0, required=False)
        for i in range(MAX_RED_FIVES):
            self.fields[f"red_five_{i}_played_by"] = forms.TypedChoiceField(
                label=_("Captured ♥5 #%(n)s played by") % {"n": i + 1}, choices=[("", "—"), *SEAT_CHOICES],
                coerce=int, empty_value=None, required=False)
            self.fields[f"red_five_{i}_won_by"] = forms.TypedChoiceField(
                label=_("… won by"), choices=[("", "—"), *SEAT_CHOICES], coerce=int, empty_value=None, required=False)
        self.fields["dealer_won_last_trick"] = forms.BooleanField(label=_("Dealer won the last trick"), required=False)

    def error_field(self, key: str) -> str | None:
        """The form field a scoring error key (``outcome.last_trick.largest``) belongs to, if any."""
        parts = key.split(".")
        if parts[0] in ("outcome", "state"):
            parts = parts[1:]
        candidates = ["_".join(parts), "_".join(parts[:1])]
        if parts[:1] == ["red_fives"] and len(parts) >= 3:
            candidates.insert(0, f"red_five_{parts[1]}_{parts[2]}")
        per_side = {"levels": "level", "a_failures": "a_failures", "points": "points"}
        if parts[0] in per_side:
            candidates.insert(0, f"{per_side[parts[0]]}_{parts[1] if len(parts) > 1 else 0}")
        return next((name for name in candidates if name in self.fields), None)

    def scored(self, lang: str = "en") -> ScoredHand:
        """Score the hand with scoring's typed functions (raises ``ScoringInputError``)."""
        d = self.cleaned_data
        spec = self.spec
        if spec.partnership:
            rules = scoring_rules(spec, lang=lang)
            a_pass = {key: (d[key] == "yes" if d.get(key) else None) for key in ("a_first_trick", "a_last_trick")}
            outcome: PartnershipOutcome | RedFiveOutcome | YongzhouOutcome = PartnershipOutcome(
                attackers_points=d.get("attackers_points") or 0,
                kitty_points=d.get("kitty_points") or 0,
                last_trick=LastTrick(d.get("last_trick_winner") or "dealer", d.get("last_trick_largest") or 1),
                a_first_trick=a_pass["a_first_trick"], a_last_trick=a_pass["a_last_trick"],
                throw_penalties=d.get("throw_penalties") or 0,
            )
            state = MatchState(levels=(d["level_0"], d["level_1"]), dealer=d.get("dealer") or 0,
                               a_failures=(d.get("a_failures_0") or 0, d.get("a_failures_1") or 0))
            return score_outcome(rules, outcome, state, lang)
        if spec.settlement.contract:
            rules = scoring_rules(spec, decks=d.get("decks") or spec.default_decks, lang=lang)
            if d.get("bid") is None:
                raise ScoringInputError([Problem("outcome.bid", "required")], lang)
            outcome = RedFiveOutcome(
                dealer=d.get("dealer") or 0, bid=d["bid"], trump=d["trump"],
                dealer_points=d.get("dealer_points") or 0, kitty_points=d.get("kitty_points") or 0,
                dealer_won_last_trick=bool(d.get("dealer_won_last_trick")),
                red_fives=tuple(
                    RedFiveCapture(d[f"red_five_{i}_played_by"], d[f"red_five_{i}_won_by"])
                    for i in range(MAX_RED_FIVES)
                    if d.get(f"red_five_{i}_played_by") is not None and d.get(f"red_five_{i}_won_by") is not None
                ),
            )
            return score_outcome(rules, outcome, None, lang)
        rules = scoring_rules(spec, players=self.players, lang=lang)
        outcome = YongzhouOutcome(points=tuple(d.get(f"points_{s}") or 0 for s in range(self.players)))
        return score_outcome(rules, outcome, None, lang)

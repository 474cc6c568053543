"""The calculator page's form: the figures a scorer writes down for one hand (RULES.md §7)."""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import variants
from rules_web.referee_forms import LEVEL_CHOICES, VARIANT_CHOICES
from scoring.api import ScoredHand, score_outcome
from scoring.errors import Problem, ScoringInputError
from scoring.partnership import LastTrick, MatchState, PartnershipOutcome
from scoring.redfive import RedFiveCapture, RedFiveOutcome
from scoring.rules import scoring_rules
from scoring.yongzhou import YongzhouOutcome
from variants import SUIT_SYMBOLS, Settlement
from variants.options import OPTIONS

SEAT_CHOICES = [(i, str(i)) for i in range(4)]
YES_NO = [("", "—"), ("yes", _("yes")), ("no", _("no"))]
MAX_RED_FIVES = 3


class CalculatorForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="tractor")
    # tractor / chaodi
    level_0 = forms.ChoiceField(label=_("Level of side 0 (seats 0, 2)"), choices=LEVEL_CHOICES, initial="3", required=False)
    level_1 = forms.ChoiceField(label=_("Level of side 1 (seats 1, 3)"), choices=LEVEL_CHOICES, initial="3", required=False)
    dealer = forms.TypedChoiceField(label=_("Dealer (seat)"), choices=SEAT_CHOICES, coerce=int, initial=0, required=False)
    a_failures_0 = forms.IntegerField(label=_("Failed A attempts in a row, side 0 (chaodi)"), min_value=0, initial=0, required=False)
    a_failures_1 = forms.IntegerField(label=_("Failed A attempts in a row, side 1 (chaodi)"), min_value=0, initial=0, required=False)
    attackers_points = forms.IntegerField(label=_("Attackers' trick points (no kitty)"), initial=0, required=False,
                                          widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}))
    kitty_points = forms.IntegerField(label=_("Kitty points"), initial=0, required=False,
                                      widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}))
    last_trick_winner = forms.ChoiceField(label=_("Last trick won by"), required=False,
                                          choices=[("dealer", _("dealer side")), ("attackers", _("attackers"))])
    last_trick_largest = forms.IntegerField(label=_("Cards in the largest component of the last trick's winning play"),
                                            min_value=1, initial=1, required=False)
    a_first_trick = forms.ChoiceField(label=_("Dealer side played an A in the first trick (chaodi at A)"), choices=YES_NO, required=False)
    a_last_trick = forms.ChoiceField(label=_("Dealer side played an A in the last trick (chaodi at A)"), choices=YES_NO, required=False)
    throw_penalties = forms.IntegerField(label=_("Throw penalties (if enabled)"), required=False)
    # red five
    decks = forms.TypedChoiceField(label=_("Decks"), choices=[(2, "2"), (3, "3")], coerce=int, initial=2, required=False)
    bid = forms.IntegerField(label=_("Bid"), required=False, widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}))
    trump = forms.ChoiceField(label=_("Trump"), required=False,
                              choices=[(s, SUIT_SYMBOLS[s]) for s in reversed(variants.SUITS)])
    dealer_points = forms.IntegerField(label=_("Dealer's trick points"), required=False,
                                       widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}))
    dealer_won_last_trick = forms.BooleanField(label=_("Dealer won the last trick"), required=False)
    # yongzhou
    players = forms.TypedChoiceField(label=_("Players"), choices=[(3, "3"), (4, "4")], coerce=int, initial=3, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(MAX_RED_FIVES):
            self.fields[f"red_five_{i}_played_by"] = forms.TypedChoiceField(
                label=_("Captured ♥5 #%(n)s played by") % {"n": i + 1}, choices=[("", "—"), *SEAT_CHOICES],
                coerce=int, empty_value=None, required=False)
            self.fields[f"red_five_{i}_won_by"] = forms.TypedChoiceField(
                label=_("… won by"), choices=[("", "—"), *SEAT_CHOICES], coerce=int, empty_value=None, required=False)
        for seat in range(4):
            self.fields[f"points_{seat}"] = forms.IntegerField(
                label=_("Points of seat %(seat)s") % {"seat": seat}, required=False,
                widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}))

    def scored(self, lang: str = "en") -> ScoredHand:
        """Score the hand with scoring's typed functions (raises ``ScoringInputError``)."""
        d = self.cleaned_data
        spec = variants.get(d["variant"])
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
            failures = (0, 0)
            if OPTIONS["a_failure_limit"].default(spec) is not None:  # chaodi counts failed A attempts
                failures = (d.get("a_failures_0") or 0, d.get("a_failures_1") or 0)
            state = MatchState(levels=(d.get("level_0") or "2", d.get("level_1") or "2"),
                               dealer=d.get("dealer") or 0, a_failures=failures)
            return score_outcome(rules, outcome, state, lang)
        if spec.settlement is Settlement.RED_FIVE:
            rules = scoring_rules(spec, decks=d.get("decks") or 2, lang=lang)
            if d.get("bid") is None:
                raise ScoringInputError([Problem("outcome.bid", "required")], lang)
            outcome = RedFiveOutcome(
                dealer=d.get("dealer") or 0, bid=d["bid"], trump=d.get("trump") or "S",
                dealer_points=d.get("dealer_points") or 0, kitty_points=d.get("kitty_points") or 0,
                dealer_won_last_trick=bool(d.get("dealer_won_last_trick")),
                red_fives=tuple(
                    RedFiveCapture(d[f"red_five_{i}_played_by"], d[f"red_five_{i}_won_by"])
                    for i in range(MAX_RED_FIVES)
                    if d.get(f"red_five_{i}_played_by") is not None and d.get(f"red_five_{i}_won_by") is not None
                ),
            )
            return score_outcome(rules, outcome, None, lang)
        players = d.get("players") or 3
        rules = scoring_rules(spec, players=players, lang=lang)
        outcome = YongzhouOutcome(points=tuple(d.get(f"points_{s}") or 0 for s in range(players)))
        return score_outcome(rules, outcome, None, lang)

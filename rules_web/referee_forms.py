"""The referee page's form: one trick as a tournament director would write it down.

Holdings are the cards that matter (say, the led suit's); a seat left empty shows none.
"""

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

import variants
from variants.seats import seat_number

VARIANT_CHOICES = [
    ("tractor", _("Tractor (拖拉机)")),
    ("chaodi", _("Chaodi (炒地皮)")),
    ("red-five", _("Red five (红五)")),
    ("yongzhou-300", _("Yongzhou 300 (永州三百分)")),
]
LEVEL_CHOICES = [(r, r) for r in variants.LEVEL_NAMES]
TRUMP_CHOICES = [
    ("S", _("♠ Spades")), ("H", _("♥ Hearts")), ("C", _("♣ Clubs")), ("D", _("♦ Diamonds")),
    ("", _("No trump")),
]
SEATS = 4


class RefereeForm(forms.Form):
    variant = forms.ChoiceField(label=_("Variant"), choices=VARIANT_CHOICES, initial="tractor")
    decks = forms.TypedChoiceField(label=_("Decks (red five)"), choices=[(2, "2"), (3, "3")], coerce=int, initial=2)
    players = forms.TypedChoiceField(label=_("Players (Yongzhou)"), choices=[(4, "4"), (3, "3")], coerce=int, initial=4)
    level = forms.ChoiceField(label=_("Level (tractor, chaodi)"), choices=LEVEL_CHOICES, initial="2")
    trump = forms.ChoiceField(label=_("Trump"), choices=TRUMP_CHOICES, required=False, initial="S")
    leader = forms.TypedChoiceField(label=_("Leader (seat)"), choices=[(i, str(seat_number(i))) for i in range(SEATS)], coerce=int, initial=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for seat in range(SEATS):
            self.fields[f"hand_{seat}"] = forms.CharField(
                label=_("Seat %(seat)s: cards held (only those that matter)") % {"seat": seat_number(seat)},
                required=False,
                widget=forms.Textarea(attrs={"rows": 2, "placeholder": "S9 S8 S8 S4 S4", "autocapitalize": "characters",
                                             "data-cards": "", "data-label": _("Seat %(seat)s") % {"seat": seat_number(seat)}}),
            )
        for order in range(SEATS):
            self.fields[f"play_{order}"] = forms.CharField(
                label=_("Play %(n)s (in order from the leader)") % {"n": order + 1},
                required=False,
                widget=forms.TextInput(attrs={"autocapitalize": "characters", "data-cards": "",
                                              "data-label": _("Play %(n)s") % {"n": order + 1}}),
            )

    def payload(self) -> dict[str, Any]:
        """The referee API's JSON body built from the cleaned form."""
        data = self.cleaned_data
        variant = data["variant"]
        spec = variants.get(variant)
        players = data["players"] if spec.variable_players else spec.default_players
        payload: dict[str, Any] = {
            "variant": variant,
            "trump": data["trump"] or None,
            "leader": data["leader"],
            "hands": {str(seat): data.get(f"hand_{seat}", "") for seat in range(players)},
            "plays": [p for p in (data.get(f"play_{i}", "").strip() for i in range(players)) if p],
        }
        if spec.has_levels:
            payload["level"] = data["level"]
        if spec.variable_decks:
            payload["decks"] = data["decks"]
        if spec.variable_players:
            payload["players"] = players
        return payload

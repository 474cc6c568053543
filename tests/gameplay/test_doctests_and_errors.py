"""The engine's doctests run here too (so ``pytest tests/gameplay`` covers them), and the errors."""

from __future__ import annotations

import doctest
import importlib

import pytest

from gameplay.errors import GameplayError, IllegalPlay, InvalidCards, OutOfTurn, RequestInvalid, WrongPhase

MODULES = ["gameplay.cards", "gameplay.errors", "gameplay.rulesets", "gameplay.order", "gameplay.combos",
           "gameplay.legality", "gameplay.tricks", "gameplay.referee"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    if not module.__file__ or not module.__file__.endswith(".py"):  # make compiled: no examples in native code
        pytest.skip(f"{name} is compiled (make compiled); its doctests run on pure Python")
    result = doctest.testmod(module)
    assert result.failed == 0
    assert result.attempted > 0


@pytest.mark.parametrize(("cls", "code"), [(InvalidCards, "invalid_cards"), (IllegalPlay, "illegal_play"),
                                           (OutOfTurn, "out_of_turn"), (WrongPhase, "wrong_phase")])
def test_error_classes_codes_and_languages(cls: type[GameplayError], code: str) -> None:
    err = cls("Seat 1 played out of turn.", "1号座位没有轮到出牌。")
    assert isinstance(err, GameplayError) and isinstance(err, ValueError)
    assert err.code == code
    assert str(err) == err.message("en") == err.message() == "Seat 1 played out of turn."
    assert err.message("zh-hans") == err.message("zh-Hans") == "1号座位没有轮到出牌。"
    assert cls("only English").message("zh-hans") == "only English"


def test_request_invalid_carries_field_errors() -> None:
    err = RequestInvalid({"hands.1": ["bad"], "variant": ["unknown"]})
    assert err.field_errors["hands.1"] == ["bad"] and "hands.1" in str(err) and err.code == "request_invalid"

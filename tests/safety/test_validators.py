"""Display names: no bidirectional overrides, no control characters, something visible."""

import pytest
from django.core.exceptions import ValidationError
from django.utils import translation

from safety.validators import validate_display_name


@pytest.mark.parametrize("name", ["Alice", "张三", "Zoë O'Neil", "👩\u200d👩\u200d👧 team", "عربي", "a b"])
def test_ordinary_names_pass(name: str) -> None:
    validate_display_name(name)


@pytest.mark.parametrize("name,code,fragment", [
    ("Alice\u202etxt.exe", "bidi_control", "U+202E"),
    ("\u2066evil\u2069", "bidi_control", "U+2066"),
    ("\u200b\u200b", "invisible", "visible characters"),
    ("  \u200d\ufeff ", "invisible", "visible characters"),
    ("", "invisible", "visible characters"),
    ("Bob\x00", "control_character", "U+0000"),
    ("Bob\nSmith", "control_character", "U+000A"),
    ("\x1b[31mred", "control_character", "U+001B"),
])
def test_bad_names_are_refused_with_a_clear_message(name: str, code: str, fragment: str) -> None:
    with pytest.raises(ValidationError) as info:
        validate_display_name(name)
    assert info.value.code == code
    assert fragment in info.value.messages[0]


def test_messages_are_translated_to_chinese() -> None:
    with translation.override("zh-hans"):
        with pytest.raises(ValidationError) as info:
            validate_display_name("A\u202eB")
        assert "U+202E" in info.value.messages[0] and "双向控制字符" in info.value.messages[0]
        with pytest.raises(ValidationError) as info:
            validate_display_name("\u200b")
        assert "可见字符" in info.value.messages[0]
        with pytest.raises(ValidationError) as info:
            validate_display_name("a\tb")
        assert "U+0009" in info.value.messages[0] and "控制字符" in info.value.messages[0]

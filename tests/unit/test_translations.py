"""The English catalogue is complete and every translation keeps its placeholders, so switching
language never shows a blank or breaks a formatted message."""

import re
from pathlib import Path

from babel.messages.pofile import read_po

PO = Path(__file__).resolve().parents[2] / "portal/translations/en/LC_MESSAGES/messages.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]")


def test_every_string_has_an_english_translation_with_the_same_placeholders() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.fuzzy or not all(strings):
            problems.append(f"untranslated: {ids[0]!r}")
            continue
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for text in strings:
            if set(PLACEHOLDER.findall(text)) - wanted - set(PLACEHOLDER.findall(ids[0])):
                problems.append(f"unknown placeholder in {ids[0]!r}")
    assert problems == []

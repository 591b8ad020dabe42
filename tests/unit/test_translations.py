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


def test_every_marked_string_in_the_code_is_in_the_english_catalogue(tmp_path) -> None:
    """A string marked with ``_()``/``_l()`` in a module or template but missing from the
    catalogue would show in Portuguese to an English reader: extract as
    ``make translations-update`` does and compare."""
    from babel.messages.frontend import CommandLineInterface

    root = PO.parents[3]
    pot = tmp_path / "messages.pot"
    CommandLineInterface().run(
        ["pybabel", "-q", "extract", "-F", str(root.parent / "babel.cfg"), "-k", "_l"]
        + ["-o", str(pot), str(root)]
    )
    with pot.open("rb") as handle:
        extracted = read_po(handle)
    with PO.open("rb") as handle:
        catalog = read_po(handle)
    missing = [message.id for message in extracted if message.id and message.id not in catalog]
    assert missing == []

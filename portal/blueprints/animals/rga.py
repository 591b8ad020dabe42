"""RGA numbers: format, check digit, parsing of what people type.

Format ``C-2026-000123-7``:

* ``C`` (cão) or ``G`` (gato): the number distinguishes the species (GRU 14 §4; BJP 4);
* the year of registration, then a sequence of at least six digits per species and year
  (``RgaCounter`` issues it and never goes back, so a number is never reused: GRU 14 §4, 21);
* a check digit (Damm algorithm) over the species code, year and sequence. Damm catches every
  single wrong digit and every swap of two neighbouring digits, the two commonest typing errors;
  the species letter takes part (C = 1, G = 2), so typing G for C is caught too.

Input is forgiving: case, spaces, dots and dashes are ignored (``c 2026 000123 7`` is accepted).
Pure functions, no Flask or database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SPECIES_LETTER = {"dog": "C", "cat": "G"}
LETTER_SPECIES = {letter: species for species, letter in SPECIES_LETTER.items()}
_LETTER_DIGIT = {"C": "1", "G": "2"}
SEQUENCE_DIGITS = 6

# The Damm quasigroup table (H. Michael Damm, 2004): a weakly totally anti-symmetric quasigroup
# of order 10.
_DAMM = (
    (0, 3, 1, 7, 5, 9, 8, 6, 4, 2),
    (7, 0, 9, 2, 1, 5, 4, 8, 6, 3),
    (4, 2, 0, 6, 8, 7, 1, 3, 5, 9),
    (1, 7, 5, 0, 9, 8, 3, 4, 2, 6),
    (6, 1, 2, 3, 0, 4, 5, 9, 7, 8),
    (3, 6, 7, 4, 2, 0, 9, 5, 8, 1),
    (5, 8, 6, 9, 7, 2, 0, 1, 3, 4),
    (8, 9, 4, 5, 3, 6, 2, 0, 1, 7),
    (9, 4, 3, 8, 6, 1, 7, 2, 0, 5),
    (2, 5, 8, 1, 4, 3, 6, 7, 9, 0),
)

_COMPACT = re.compile(rf"^([A-Z])(\d{{4}})(\d{{{SEQUENCE_DIGITS},9}})(\d)$")


class InvalidRgaNumber(ValueError):
    """What was typed is not an RGA number. ``reason`` is "format" or "check_digit"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class RgaNumber:
    species: str  # "dog" | "cat"
    year: int
    sequence: int

    def __str__(self) -> str:
        return format_rga(self.species, self.year, self.sequence)


def damm_digit(digits: str) -> str:
    """The Damm check digit of a string of digits."""
    interim = 0
    for ch in digits:
        interim = _DAMM[interim][int(ch)]
    return str(interim)


def _payload(letter: str, year: int, sequence: int) -> str:
    return f"{_LETTER_DIGIT[letter]}{year:04d}{sequence:0{SEQUENCE_DIGITS}d}"


def format_rga(species: str, year: int, sequence: int) -> str:
    """The canonical number, e.g. ``format_rga("dog", 2026, 123) == "C-2026-000123-7"``."""
    letter = SPECIES_LETTER[species]
    check = damm_digit(_payload(letter, year, sequence))
    return f"{letter}-{year:04d}-{sequence:0{SEQUENCE_DIGITS}d}-{check}"


def compact(text: str) -> str:
    """What was typed without case, spaces or punctuation.

    ``" c-2026.000123 7"`` becomes ``"C20260001237"``.
    """
    return re.sub(r"[^0-9A-Z]", "", (text or "").upper())


def parse_rga(text: str) -> RgaNumber:
    """Parse a typed number. Raises InvalidRgaNumber("format" | "check_digit")."""
    match = _COMPACT.match(compact(text))
    if not match or match[1] not in LETTER_SPECIES:
        raise InvalidRgaNumber("format")
    letter, year, sequence, check = match[1], int(match[2]), int(match[3]), match[4]
    if damm_digit(_payload(letter, year, sequence)) != check:
        raise InvalidRgaNumber("check_digit")
    return RgaNumber(LETTER_SPECIES[letter], year, sequence)


def normalise_rga(text: str) -> str:
    """The canonical form of a typed number. Raises InvalidRgaNumber."""
    return str(parse_rga(text))

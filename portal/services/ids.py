"""Integers typed by people (form fields, query strings) that end up next to a database
integer column. Python's ``int`` is unbounded; SQLite raises ``OverflowError`` beyond 64 bits and
PostgreSQL's ``integer`` beyond 32 bits, so a value like ``99999999999999999999`` became a 500
(issue 26 Low #8). ``parse_id`` reads ids; ``db_int`` bounds an ``IntegerField``."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import Field
from wtforms.validators import ValidationError

DB_INT_MAX = 2**31 - 1  # PostgreSQL integer, the type of every id and count column


def parse_id(value: Any) -> int | None:
    """A positive database id from text ("12"), or None for anything else: not ASCII digits
    ("²" is a digit to ``str.isdigit``), zero, or beyond a database integer."""
    text = str(value if value is not None else "").strip()
    if not text or len(text) > 10 or not (text.isascii() and text.isdigit()):
        return None
    number = int(text)
    return number if 1 <= number <= DB_INT_MAX else None


def query_id(value: str) -> int:
    """``request.args.get(name, type=query_id)``: an invalid id reads as absent (None)."""
    number = parse_id(value)
    if number is None:
        raise ValueError(value)  # werkzeug's MultiDict.get returns the default
    return number


def db_int(form: Any, field: Field) -> None:
    """WTForms validator: a number a database integer column can hold."""
    if field.data is not None and not -DB_INT_MAX <= field.data <= DB_INT_MAX:
        raise ValidationError(_l("Número grande demais."))

"""Forms shared by every domain."""

from collections.abc import Iterable
from typing import Any

from flask_wtf import FlaskForm
from wtforms.fields.choices import SelectChoice


class EmptyForm(FlaskForm):
    """A POST-only button: carries the CSRF token and nothing else."""


def choices(pairs: Iterable[tuple[str, Any]]) -> list[SelectChoice]:
    """(value, label) pairs as WTForms 3.3 SelectChoice objects (tuples are deprecated there)."""
    return [SelectChoice(value, label) for value, label in pairs]

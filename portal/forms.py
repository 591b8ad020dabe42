"""Forms shared by every domain."""

from collections.abc import Iterable
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, SelectMultipleField
from wtforms.fields.choices import SelectChoice
from wtforms.validators import ValidationError
from wtforms.widgets import CheckboxInput, ListWidget

from portal.models.base import UF_CODES
from portal.services.clock import local_today


class CheckboxesField(SelectMultipleField):
    """Several choices, each a checkbox."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class EmptyForm(FlaskForm):
    """A POST-only button: carries the CSRF token and nothing else."""


def choices(pairs: Iterable[tuple[str, Any]]) -> list[SelectChoice]:
    """(value, label) pairs as WTForms 3.3 SelectChoice objects (tuples are deprecated there)."""
    return [SelectChoice(value, label) for value, label in pairs]


def not_future(form: FlaskForm, field: Field) -> None:
    """A date that has happened: not after today in the municipality (not the server's today)."""
    if field.data and field.data > local_today():
        raise ValidationError(_l("A data não pode estar no futuro."))


UF_CHOICES = choices((uf, uf) for uf in UF_CODES)

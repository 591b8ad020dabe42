"""The staff search form."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import StringField
from wtforms.validators import DataRequired, Length


class StaffSearchForm(FlaskForm):
    q = StringField(
        _l("CPF, nome, e-mail, RGA, microchip, CNPJ ou número de protocolo"),
        validators=[
            DataRequired(_l("Digite o que procurar.")),
            Length(min=2, max=120, message=_l("Digite de 2 a 120 caracteres.")),
        ],
    )

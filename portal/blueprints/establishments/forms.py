"""Establishment forms: they parse input; the rules are in ``services``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    EmailField,
    StringField,
    TelField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Email, Length, Optional

from portal.forms import CheckboxesField

REQUIRED = _l("Campo obrigatório.")


class CadastroForm(FlaskForm):
    cnpj = StringField(
        _l("CNPJ"),
        validators=[DataRequired(REQUIRED), Length(max=20)],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )
    legal_name = StringField(
        _l("Razão social"), validators=[DataRequired(REQUIRED), Length(max=200)]
    )
    trade_name = StringField(_l("Nome fantasia"), validators=[Optional(), Length(max=200)])
    kinds = CheckboxesField(
        _l("Atividades"),
        choices=[],
        validators=[DataRequired(_l("Escolha ao menos uma atividade."))],
    )
    facilities = TextAreaField(
        _l("Instalações e equipamentos para os animais"),
        validators=[DataRequired(REQUIRED), Length(max=4000)],
    )
    cep = StringField(
        _l("CEP"),
        validators=[DataRequired(REQUIRED), Length(max=9)],
        render_kw={"inputmode": "numeric", "autocomplete": "postal-code"},
    )
    street = StringField(_l("Rua"), validators=[DataRequired(REQUIRED), Length(max=200)])
    number = StringField(_l("Número"), validators=[DataRequired(REQUIRED), Length(max=20)])
    complement = StringField(_l("Complemento"), validators=[Optional(), Length(max=100)])
    district = StringField(_l("Bairro"), validators=[DataRequired(REQUIRED), Length(max=100)])
    phone = TelField(_l("Telefone"), validators=[Optional(), Length(max=30)])
    email = EmailField(
        _l("E-mail"), validators=[Optional(), Email(_l("E-mail inválido.")), Length(max=254)]
    )
    opening_hours = StringField(
        _l("Horário de atendimento"), validators=[Optional(), Length(max=200)]
    )
    vet_name = StringField(
        _l("Médico veterinário responsável técnico"), validators=[Optional(), Length(max=200)]
    )
    vet_crmv = StringField(
        _l("CRMV do responsável técnico"), validators=[Optional(), Length(max=40)]
    )
    vet_term_valid_until = DateField(
        _l("Termo de responsabilidade técnica válido até"), validators=[Optional()]
    )
    sketch = FileField(
        _l("Croqui dos alojamentos dos animais (PDF ou foto)"),
        render_kw={
            "accept": "application/pdf,image/jpeg,image/png,image/webp,"
            "image/heic,image/heif,.heic,.heif"
        },
    )


class InspectionForm(FlaskForm):
    inspected_on = DateField(_l("Data da vistoria"), validators=[DataRequired(REQUIRED)])
    findings = TextAreaField(
        _l("O que foi verificado"), validators=[DataRequired(REQUIRED), Length(max=4000)]
    )
    satisfactory = BooleanField(_l("Instalações satisfatórias"))


class ReasonForm(FlaskForm):
    reason = TextAreaField(_l("Motivo"), validators=[DataRequired(REQUIRED), Length(max=2000)])

"""Billing forms: exemption requests and decisions, counter settlement, refunds, prices, filters."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, DateField, RadioField, SelectField, StringField, TextAreaField
from wtforms.validators import DataRequired, InputRequired, Length, Optional, ValidationError

from portal.forms import choices
from portal.services.money import parse_brl

STATUS_CHOICES = [
    ("", _l("Todas")),
    ("pending", _l("Pendente")),
    ("processing", _l("Em processamento")),
    ("paid", _l("Pago")),
    ("failed", _l("Não concluído")),
    ("exempt", _l("Isento")),
    ("refunded", _l("Estornado")),
    ("cancelled", _l("Cancelado")),
]
KIND_CHOICES = [
    ("", _l("Todos")),
    ("registration", _l("Registro do animal (RGA)")),
    ("card_copy", _l("Segunda via da carteira")),
    ("tag_copy", _l("Segunda via da plaqueta")),
    ("licence", _l("Licença especial")),
    ("adoption", _l("Adoção")),
    ("reclaim", _l("Resgate de animal apreendido")),
    ("fine", _l("Multa")),
]


class ExemptionRequestForm(FlaskForm):
    code = RadioField(_l("Isenção pedida"), validators=[InputRequired(_l("Escolha a isenção."))])
    statement = TextAreaField(
        _l("Explique sua situação (opcional)"), validators=[Optional(), Length(max=2000)]
    )
    proof = FileField(
        _l("Comprovante (PDF ou foto, até 5 MB)"),
        validators=[FileRequired(_l("Envie o comprovante."))],
        render_kw={
            "accept": "application/pdf,image/jpeg,image/png,image/webp,image/heic,.heic,.pdf"
        },
    )
    truthful = BooleanField(
        _l("Declaro que as informações são verdadeiras."),
        validators=[DataRequired(_l("Confirme a declaração."))],
    )


class ExemptionDecisionForm(FlaskForm):
    decision = RadioField(
        _l("Decisão"),
        choices=choices([("accept", _l("Conceder a isenção")), ("refuse", _l("Recusar"))]),
        validators=[InputRequired(_l("Escolha a decisão."))],
    )
    # No Optional(): it would stop the chain before validate_reason sees an empty refusal.
    reason = TextAreaField(
        _l("Motivo (obrigatório para recusar; enviado ao requerente)"),
        validators=[Length(max=2000)],
    )

    def validate_reason(self, field: TextAreaField) -> None:
        if self.decision.data == "refuse" and not (field.data or "").strip():
            raise ValidationError(_l("Informe o motivo da recusa."))


class CounterSearchForm(FlaskForm):
    class Meta:
        csrf = False  # a GET search

    reference = StringField(
        _l("Referência da guia (12 dígitos)"),
        validators=[DataRequired(_l("Informe a referência."))],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )


class MarkPaidForm(FlaskForm):
    receipt_number = StringField(
        _l("Número do recibo ou da autenticação bancária"),
        validators=[DataRequired(_l("Informe o número do recibo.")), Length(max=100)],
    )
    paid_on = DateField(
        _l("Data do pagamento"), validators=[DataRequired(_l("Informe a data do pagamento."))]
    )


class RefundForm(FlaskForm):
    reason = TextAreaField(
        _l("Motivo do estorno"),
        validators=[
            DataRequired(_l("Informe o motivo.")),
            Length(min=5, max=500, message=_l("Entre 5 e 500 caracteres.")),
        ],
    )
    confirm = BooleanField(
        _l("Confirmo a devolução do valor integral ao pagador."),
        validators=[DataRequired(_l("Confirme o estorno."))],
    )


class ResolveFlagForm(FlaskForm):
    note = TextAreaField(
        _l("O que foi feito"),
        validators=[DataRequired(_l("Descreva o que foi feito.")), Length(max=500)],
    )


class PriceForm(FlaskForm):
    key = SelectField(_l("Item da tabela"))
    amount = StringField(
        _l("Valor (R$)"),
        validators=[DataRequired(_l("Informe o valor."))],
        render_kw={"inputmode": "decimal", "placeholder": "0,00"},
    )
    effective_from = DateField(
        _l("Vigente a partir de"), validators=[DataRequired(_l("Informe a data de início."))]
    )
    note = StringField(
        _l("Ato que fixou o preço (decreto, portaria)"), validators=[Optional(), Length(max=200)]
    )

    def validate_amount(self, field: StringField) -> None:
        try:
            parse_brl(field.data or "")
        except (ValueError, ArithmeticError) as err:
            raise ValidationError(_l("Valor inválido. Use o formato 1.234,56.")) from err


class StaffFilterForm(FlaskForm):
    class Meta:
        csrf = False  # a GET filter

    status = SelectField(_l("Situação"), choices=choices(STATUS_CHOICES), validators=[Optional()])
    kind = SelectField(_l("Tipo"), choices=choices(KIND_CHOICES), validators=[Optional()])
    date_from = DateField(_l("Emitidos de"), validators=[Optional()])
    date_to = DateField(_l("até"), validators=[Optional()])
    q = StringField(
        _l("Nome, CPF, descrição ou referência"), validators=[Optional(), Length(max=100)]
    )

    def validate_date_to(self, field: DateField) -> None:
        if field.data and self.date_from.data and field.data < self.date_from.data:
            raise ValidationError(_l("A data final é anterior à inicial."))


class PeriodForm(FlaskForm):
    class Meta:
        csrf = False

    date_from = DateField(_l("De"), validators=[Optional()])
    date_to = DateField(_l("Até"), validators=[Optional()])

    def validate_date_to(self, field: DateField) -> None:
        if field.data and self.date_from.data and field.data < self.date_from.data:
            raise ValidationError(_l("A data final é anterior à inicial."))

"""Sterilisation programme forms: they parse input; the rules are in ``services``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    DateField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TelField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from portal.forms import choices
from portal.models.animal import SEX_LABELS, SPECIES_LABELS
from portal.services.ids import db_int

REQUIRED = _l("Campo obrigatório.")
# The animal chosen: an RGA animal's id, or "other" for one described here.
OTHER_ANIMAL = "other"
# The day chosen: a slot's id, "wait" (waitlist, any site) or "wait-<site id>".
WAITLIST = "wait"


class BookingForm(FlaskForm):
    # The services check the choices (a day may fill between showing the form and sending it, and
    # the person must hear why, not "not a valid choice").
    animal = RadioField(
        _l("Qual animal?"),
        choices=[],
        validators=[InputRequired(REQUIRED)],
        validate_choice=False,
    )
    animal_name = StringField(_l("Nome ou apelido do animal"), validators=[Length(max=100)])
    species = SelectField(
        _l("Espécie"),
        choices=choices([("", _l("Escolha")), *SPECIES_LABELS.items()]),
        validators=[Optional()],
    )
    sex = SelectField(
        _l("Sexo"),
        choices=choices([("", _l("Escolha")), *SEX_LABELS.items()]),
        validators=[Optional()],
    )
    community = BooleanField(_l("É um animal comunitário de que eu cuido (vive na rua)"))
    community_place = StringField(
        _l("Onde ele vive (rua, praça, bairro)"), validators=[Length(max=200)]
    )
    slot = RadioField(
        _l("Quando e onde?"),
        choices=[],
        validators=[InputRequired(REQUIRED)],
        validate_choice=False,
    )

    def validate_on_submit(self, extra_validators=None) -> bool:
        """An animal described here needs its species and sex (the RGA animal brings its own)."""
        ok = super().validate_on_submit(extra_validators)
        if self.animal.data == OTHER_ANIMAL:
            for field in (self.animal_name, self.species, self.sex):
                if not (field.data or "").strip():
                    field.errors = [*field.errors, REQUIRED]
                    ok = False
        return ok


class SiteForm(FlaskForm):
    name = StringField(_l("Nome do local"), validators=[DataRequired(REQUIRED), Length(max=200)])
    partner_kind = SelectField(_l("Quem opera"), choices=[], validators=[DataRequired(REQUIRED)])
    address = StringField(
        _l("Endereço (rua e número)"), validators=[DataRequired(REQUIRED), Length(max=300)]
    )
    district = StringField(_l("Bairro"), validators=[DataRequired(REQUIRED), Length(max=100)])
    phone = TelField(_l("Telefone"), validators=[Optional(), Length(max=30)])
    instructions = TextAreaField(
        _l("Orientações ao tutor (jejum, caixa de transporte, horário de chegada)"),
        validators=[Optional(), Length(max=2000)],
    )


class SlotForm(FlaskForm):
    site = SelectField(_l("Local"), choices=[], validators=[DataRequired(REQUIRED)])
    day = DateField(_l("Dia das cirurgias"), validators=[DataRequired(REQUIRED)])
    capacity = IntegerField(
        _l("Vagas"),
        validators=[
            InputRequired(REQUIRED),
            NumberRange(min=1, message=_l("Informe ao menos 1 vaga.")),
            db_int,
        ],
    )


class CapacityForm(FlaskForm):
    capacity = IntegerField(
        _l("Vagas"),
        validators=[
            InputRequired(REQUIRED),
            NumberRange(min=1, message=_l("Informe ao menos 1 vaga.")),
            db_int,
        ],
    )


class OutcomeForm(FlaskForm):
    outcome = RadioField(
        _l("Resultado"),
        choices=choices(
            [
                ("done", _l("Castrado")),
                ("unfit", _l("Não apto à cirurgia no exame clínico")),
                ("no_show", _l("Não compareceu")),
            ]
        ),
        validators=[InputRequired(_l("Escolha o resultado."))],
    )
    vet_name = StringField(_l("Médico veterinário que operou"), validators=[Length(max=200)])
    vet_crmv = StringField(_l("CRMV"), validators=[Length(max=40)])
    note = TextAreaField(
        _l("Observações (obrigatório se não apto: o que o exame encontrou)"),
        validators=[Length(max=2000)],
    )


class CancelForm(FlaskForm):
    reason = StringField(_l("Motivo (opcional)"), validators=[Optional(), Length(max=300)])


class EstimateForm(FlaskForm):
    """VV 10 §1: the estimated dogs and cats of a year, the base of its target."""

    year = IntegerField(_l("Ano"), validators=[InputRequired(REQUIRED), db_int])
    dogs_and_cats = IntegerField(
        _l("Cães e gatos estimados no município"),
        validators=[InputRequired(REQUIRED), db_int],
        render_kw={"inputmode": "numeric"},
    )
    source = StringField(
        _l("Fonte da estimativa"), validators=[DataRequired(REQUIRED), Length(max=300)]
    )

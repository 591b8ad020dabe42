"""Report forms: they only parse input; the rules live in ``services`` (shared with Open311)."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import MultipleFileField
from wtforms import (
    BooleanField,
    DateField,
    EmailField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TelField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Length, NumberRange, Optional, ValidationError

from portal.blueprints.reports.common import MAX_DESCRIPTION, MAX_INFO, ReportData
from portal.blueprints.reports.common import TEXT_LIMITS as LIMITS
from portal.blueprints.reports.labels import (
    IDENTITY_LABELS,
    OUTCOME_LABELS,
    SPECIES_LABELS,
    STAFF_STATE_LABELS,
)
from portal.forms import choices
from portal.services.ids import parse_id

REQUIRED = _l("Campo obrigatório.")
IMAGE_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"


def _float(value: str | None) -> float | None:
    try:
        return float(value.strip().replace(",", ".")) if value and value.strip() else None
    except ValueError:
        return None


def _coordinate(_form: Any, field: Any) -> None:
    """A typed latitude or longitude: a number (a comma is read as the decimal point)."""
    if field.data and field.data.strip() and _float(field.data) is None:
        raise ValidationError(_l("Use só números, por exemplo -23.454300."))


class ReportForm(FlaskForm):
    category = RadioField(
        _l("O que está acontecendo?"),
        choices=[],
        validators=[DataRequired(_l("Escolha o que está acontecendo."))],
    )
    description = TextAreaField(
        _l("Conte o que você viu"),
        validators=[DataRequired(REQUIRED), Length(max=MAX_DESCRIPTION)],
        render_kw={"rows": 5, "maxlength": MAX_DESCRIPTION},
    )
    seen_on = DateField(_l("Quando você viu"), validators=[Optional()])
    species = RadioField(
        _l("Qual animal"), choices=choices(SPECIES_LABELS.items()), validators=[Optional()]
    )
    animal_count = IntegerField(
        _l("Quantos animais"),
        validators=[Optional(), NumberRange(1, 500, _l("Informe um número entre 1 e 500."))],
        render_kw={"inputmode": "numeric"},
    )
    cep = StringField(
        _l("CEP"),
        validators=[Optional(), Length(max=9)],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )
    street = StringField(_l("Rua, avenida"), validators=[Optional(), Length(max=LIMITS["street"])])
    number = StringField(_l("Número"), validators=[Optional(), Length(max=LIMITS["number"])])
    complement = StringField(
        _l("Complemento"), validators=[Optional(), Length(max=LIMITS["complement"])]
    )
    district = StringField(_l("Bairro"), validators=[Optional(), Length(max=LIMITS["district"])])
    reference = StringField(
        _l("Ponto de referência"), validators=[Optional(), Length(max=LIMITS["reference"])]
    )
    # Filled by a tap on the map or "Usar minha localização", or typed (issue 25: without map
    # tiles, or without JavaScript, the place can still be given as a point)
    lat = StringField(
        _l("Latitude"),
        validators=[Optional(), Length(max=20), _coordinate],
        render_kw={"inputmode": "decimal", "autocomplete": "off"},
    )
    lng = StringField(
        _l("Longitude"),
        validators=[Optional(), Length(max=20), _coordinate],
        render_kw={"inputmode": "decimal", "autocomplete": "off"},
    )
    photos = MultipleFileField(_l("Fotos (até 6)"), render_kw={"accept": IMAGE_ACCEPT})
    use_photo_gps = BooleanField(_l("Usar a localização gravada na foto para marcar o local"))
    identity = RadioField(
        _l("Como você quer se identificar?"),
        choices=choices(IDENTITY_LABELS.items()),
        default="anonymous",
        validators=[DataRequired(REQUIRED)],
    )
    name = StringField(
        _l("Seu nome"),
        validators=[Optional(), Length(max=LIMITS["name"])],
        render_kw={"autocomplete": "name"},
    )
    email = EmailField(
        _l("Seu e-mail"),
        validators=[Optional(), Length(max=LIMITS["email"])],
        render_kw={"autocomplete": "email"},
    )
    phone = TelField(
        _l("Seu telefone"),
        validators=[Optional(), Length(max=LIMITS["phone"])],
        render_kw={"autocomplete": "tel"},
    )
    # Honeypot: hidden from people by CSS and from screen readers; bots fill every field.
    website = StringField(
        _l("Deixe este campo em branco"),
        validators=[Optional()],
        render_kw={"autocomplete": "off", "tabindex": "-1"},
    )

    def prefill_contact(self, user: Any) -> None:
        """Pre-filled for a confidential report; still anonymous unless the person chooses."""
        self.name.data = self.name.data or user.full_name
        self.email.data = self.email.data or user.email
        self.phone.data = self.phone.data or user.phone

    def report_data(self, photos: list) -> ReportData:
        return ReportData(
            category=self.category.data or "",
            description=self.description.data or "",
            seen_on=self.seen_on.data,
            species=self.species.data or None,
            animal_count=self.animal_count.data,
            cep=self.cep.data,
            street=self.street.data,
            number=self.number.data,
            complement=self.complement.data,
            district=self.district.data,
            reference=self.reference.data,
            lat=_float(self.lat.data),
            lng=_float(self.lng.data),
            identity=self.identity.data or "anonymous",
            name=self.name.data,
            email=self.email.data,
            phone=self.phone.data,
            photos=photos,
        )


class TrackForm(FlaskForm):
    protocol = StringField(
        _l("Protocolo"),
        validators=[DataRequired(REQUIRED), Length(max=20)],
        render_kw={"autocomplete": "off", "placeholder": "DEN-2026-000123"},
    )
    code = StringField(
        _l("Código de acompanhamento"),
        validators=[DataRequired(REQUIRED), Length(max=30)],
        render_kw={"autocomplete": "off"},
    )


class InfoForm(FlaskForm):
    text = TextAreaField(
        _l("Nova informação"), validators=[Optional(), Length(max=MAX_INFO)], render_kw={"rows": 4}
    )
    photos = MultipleFileField(_l("Mais fotos"), render_kw={"accept": IMAGE_ACCEPT})


class FilterForm(FlaskForm):
    class Meta:
        csrf = False  # a GET search form

    category = SelectField(_l("Categoria"), choices=[], validate_choice=False)
    district = StringField(_l("Bairro"), validators=[Optional(), Length(max=100)])
    state = SelectField(
        _l("Situação"),
        validate_choice=False,
        choices=choices([("", _l("Todas")), *STAFF_STATE_LABELS.items()]),
    )
    since = DateField(_l("De"), validators=[Optional()])
    until = DateField(_l("Até"), validators=[Optional()])


class AssignForm(FlaskForm):
    # parse_id, not int: an id beyond a database integer reads as no agent, not a 500
    agent_id = SelectField(_l("Agente"), choices=[], coerce=parse_id, validate_choice=False)
    inspection_on = DateField(_l("Data da vistoria"), validators=[DataRequired(REQUIRED)])


class OutOfScopeForm(FlaskForm):
    reason = TextAreaField(
        _l("Motivo (o denunciante lerá este texto)"),
        validators=[DataRequired(REQUIRED), Length(max=2000)],
        render_kw={"rows": 3},
    )


class MergeForm(FlaskForm):
    target = StringField(
        _l("Protocolo da denúncia principal"), validators=[DataRequired(REQUIRED), Length(max=20)]
    )


class ForwardForm(FlaskForm):
    note = TextAreaField(
        _l("Observação interna (opcional)"),
        validators=[Optional(), Length(max=2000)],
        render_kw={"rows": 2},
    )


class ReplyForm(FlaskForm):
    text = TextAreaField(
        _l("Mensagem"), validators=[DataRequired(REQUIRED), Length(max=2000)], render_kw={"rows": 3}
    )
    public = BooleanField(_l("Resposta pública (o denunciante lê: não cite nomes de pessoas)"))


class CloseForm(FlaskForm):
    text = TextAreaField(
        _l("Resposta ao denunciante"),
        validators=[DataRequired(REQUIRED), Length(max=2000)],
        render_kw={"rows": 3},
    )


class InspectionForm(FlaskForm):
    visited_on = DateField(_l("Data da vistoria"), validators=[DataRequired(REQUIRED)])
    notes = TextAreaField(
        _l("O que foi constatado"), validators=[Optional(), Length(max=4000)], render_kw={"rows": 4}
    )
    people_present = TextAreaField(
        _l("Pessoas presentes"), validators=[Optional(), Length(max=1000)], render_kw={"rows": 2}
    )
    outcome = RadioField(
        _l("Resultado"),
        choices=choices(OUTCOME_LABELS.items()),
        validators=[DataRequired(_l("Escolha o resultado da vistoria."))],
    )
    photos = MultipleFileField(_l("Fotos da vistoria (até 6)"), render_kw={"accept": IMAGE_ACCEPT})

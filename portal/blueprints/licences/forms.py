"""Licence forms: they parse input; the rules are in ``services``.

The request's animals are dynamic (one block per animal at the residence, named by its id): the
view reads those few fields itself; the new animals registered inside the request are a
``FieldList`` of :class:`NewAnimalForm` blocks, a block left without a name being ignored.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, MultipleFileField
from wtforms import (
    BooleanField,
    DateField,
    Form,
    FormField,
    IntegerField,
    RadioField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Length, NumberRange, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from portal.forms import choices

REQUIRED = _l("Campo obrigatório.")
NEW_ANIMAL_SLOTS = 5  # blocks offered for animals above the limit (GRU 37 §1; BJP 17 §3: +5)


class CheckboxesField(SelectMultipleField):
    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class NewAnimalForm(Form):
    """An animal above the limit, not registered yet: its RGA is issued inside the request."""

    name = StringField(_l("Nome do animal"), validators=[Optional(), Length(max=100)])
    species = RadioField(
        _l("Espécie"),
        choices=choices([("dog", _l("Cão")), ("cat", _l("Gato"))]),
        validators=[Optional()],
    )
    sex = RadioField(
        _l("Sexo"),
        choices=choices([("male", _l("Macho")), ("female", _l("Fêmea"))]),
        validators=[Optional()],
    )
    breed = StringField(_l("Raça"), validators=[Optional(), Length(max=100)])
    color = StringField(_l("Cor / pelagem"), validators=[Optional(), Length(max=100)])
    size = RadioField(
        _l("Porte"),
        choices=choices(
            [("small", _l("Pequeno")), ("medium", _l("Médio")), ("large", _l("Grande"))]
        ),
        validators=[Optional()],
    )
    birth_date = DateField(_l("Data de nascimento (real ou aproximada)"), validators=[Optional()])
    sterilized = BooleanField(_l("É castrado(a)"))
    vaccinated_on = DateField(_l("Data da vacinação antirrábica"), validators=[Optional()])
    vaccine_name = StringField(_l("Nome da vacina"), validators=[Optional(), Length(max=120)])
    batch = StringField(_l("Partida (lote)"), validators=[Optional(), Length(max=60)])
    vet_name = StringField(
        _l("Nome do(a) veterinário(a)"), validators=[Optional(), Length(max=200)]
    )
    vet_crmv = StringField(_l("CRMV do(a) veterinário(a)"), validators=[Optional(), Length(max=40)])
    sterilisation_proof = FileField(_l("Comprovante de esterilização"))


class RequestForm(FlaskForm):
    animals_requested = IntegerField(
        _l("Quantos cães e gatos a residência quer manter, no total"),
        validators=[DataRequired(REQUIRED), NumberRange(min=1, max=99)],
        render_kw={"inputmode": "numeric"},
    )
    housing_description = TextAreaField(
        _l("Descrição do alojamento e dos cuidados com os animais"),
        validators=[Optional(), Length(max=4000)],
    )
    photos = MultipleFileField(_l("Fotos do alojamento"))
    new_1 = FormField(NewAnimalForm, label=_l("Novo animal 1"))
    new_2 = FormField(NewAnimalForm, label=_l("Novo animal 2"))
    new_3 = FormField(NewAnimalForm, label=_l("Novo animal 3"))
    new_4 = FormField(NewAnimalForm, label=_l("Novo animal 4"))
    new_5 = FormField(NewAnimalForm, label=_l("Novo animal 5"))

    def new_blocks(self) -> list[FormField]:
        return [self[f"new_{i}"] for i in range(1, NEW_ANIMAL_SLOTS + 1)]


class AnswerForm(FlaskForm):
    answer = TextAreaField(
        _l("Sua resposta"), validators=[DataRequired(REQUIRED), Length(max=4000)]
    )
    files = MultipleFileField(_l("Documentos ou fotos (opcional)"))


class AssignForm(FlaskForm):
    agent_id = SelectField(_l("Agente"), choices=[], validators=[DataRequired(REQUIRED)])


class ScheduleForm(FlaskForm):
    agent_id = SelectField(_l("Agente"), choices=[], validators=[DataRequired(REQUIRED)])
    scheduled_for = DateField(_l("Data da vistoria"), validators=[DataRequired(REQUIRED)])


class InspectionForm(FlaskForm):
    inspected_on = DateField(_l("Data da vistoria"), validators=[DataRequired(REQUIRED)])
    checklist = CheckboxesField(_l("Itens conferidos e adequados"), choices=[])
    findings = TextAreaField(
        _l("O que foi verificado (laudo técnico)"),
        validators=[DataRequired(REQUIRED), Length(max=4000)],
    )
    satisfactory = BooleanField(_l("Condições satisfatórias"))
    photos = MultipleFileField(_l("Fotos da vistoria"))


class ApproveForm(FlaskForm):
    max_animals = IntegerField(
        _l("Número de cães e gatos aprovado"),
        validators=[DataRequired(REQUIRED), NumberRange(min=1, max=99)],
    )
    covered = CheckboxesField(_l("Animais cobertos pela licença"), choices=[])
    reason = TextAreaField(
        _l("Motivo da redução (quando aprovar menos que o pedido)"),
        validators=[Optional(), Length(max=4000)],
    )


class ReasonForm(FlaskForm):
    reason = TextAreaField(_l("Motivo"), validators=[DataRequired(REQUIRED), Length(max=4000)])


class QuestionForm(FlaskForm):
    question = TextAreaField(
        _l("O que o cidadão deve informar"), validators=[DataRequired(REQUIRED), Length(max=4000)]
    )

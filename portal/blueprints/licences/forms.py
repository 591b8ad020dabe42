"""Licence forms: they parse input into the services' values; the rules are in ``services``.

The request is made in steps (``wizard``), each saved in a server-side draft: :class:`AnimalsStep`
(the animals at the residence are confirmed by checkboxes named by their id; the new animals
registered inside the request are :class:`NewAnimalForm` blocks, a block left without a name being
ignored), :class:`HousingStep`, then the documents (file inputs named by animal, held by the draft)
and the review.
"""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, MultipleFileField
from wtforms import (
    BooleanField,
    DateField,
    Form,
    FormField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from portal.blueprints.licences.requests import NewAnimal, Proof
from portal.forms import CheckboxesField, choices
from portal.models.animal import SEX_LABELS, SIZE_LABELS, SPECIES_LABELS

REQUIRED = _l("Campo obrigatório.")
NEW_ANIMAL_SLOTS = 5  # blocks offered for animals above the limit (GRU 37 §1; BJP 17 §3: +5)


class NewAnimalForm(Form):
    """An animal above the limit, not registered yet: its RGA is issued inside the request."""

    name = StringField(_l("Nome do animal"), validators=[Optional(), Length(max=100)])
    species = RadioField(
        _l("Espécie"),
        choices=choices(SPECIES_LABELS.items()),
        validators=[Optional()],
    )
    sex = RadioField(
        _l("Sexo"),
        choices=choices(SEX_LABELS.items()),
        validators=[Optional()],
    )
    breed = StringField(_l("Raça"), validators=[Optional(), Length(max=100)])
    color = StringField(_l("Cor / pelagem"), validators=[Optional(), Length(max=100)])
    size = RadioField(
        _l("Porte"),
        choices=choices(SIZE_LABELS.items()),
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

    # Required once the block is used (the animals domain refuses a registration without them);
    # the radio groups (species, sex, size) carry their mark in the template's legend.
    MARKED_REQUIRED = ("name", "breed", "color", "birth_date")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        for name in self.MARKED_REQUIRED:
            self[name].flags.required = True

    def is_used(self) -> bool:
        """A block counts once the animal has a name; an empty block is ignored."""
        return bool((self.name.data or "").strip())

    def new_animal(self, sterilisation_proof: Proof | None = None) -> NewAnimal | None:
        """The animal to register, or None for an empty block."""
        from portal.blueprints.animals import services as animals

        if not (self.name.data or "").strip():
            return None  # an empty block: nothing to register
        data = animals.AnimalData(
            name=self.name.data.strip(),
            species=self.species.data or "",
            sex=self.sex.data or "",
            birth_date=self.birth_date.data,
            breed=(self.breed.data or "").strip() or None,
            color=(self.color.data or "").strip() or None,
            size=self.size.data or None,
            sterilized=bool(self.sterilized.data),
        )
        vaccination = None
        if self.vaccinated_on.data is not None:
            vaccination = animals.VaccinationData(
                applied_on=self.vaccinated_on.data,
                vaccine_name=self.vaccine_name.data or "",
                batch=self.batch.data or "",
                vet_name=self.vet_name.data or "",
                vet_crmv=animals.normalise_crmv(self.vet_crmv.data),
            )
        return NewAnimal(
            data=data,
            vaccination=vaccination,
            vaccinate_at_ccz=vaccination is None,
            sterilisation_proof=sterilisation_proof,
        )


class AnimalsStep(FlaskForm):
    """Step 1 of the request: the animals not registered yet, up to NEW_ANIMAL_SLOTS blocks (the
    animals already registered at the residence are confirmed by checkboxes named by their id)."""

    new_1 = FormField(NewAnimalForm, label=_l("Animal novo 1"))
    new_2 = FormField(NewAnimalForm, label=_l("Animal novo 2"))
    new_3 = FormField(NewAnimalForm, label=_l("Animal novo 3"))
    new_4 = FormField(NewAnimalForm, label=_l("Animal novo 4"))
    new_5 = FormField(NewAnimalForm, label=_l("Animal novo 5"))

    def new_blocks(self) -> list[FormField]:
        return [self[f"new_{i}"] for i in range(1, NEW_ANIMAL_SLOTS + 1)]


class HousingStep(FlaskForm):
    """Step 2: the housing and care (GRU 37 §1 I; BJP 17 §4), its photos, the number asked for."""

    housing_description = TextAreaField(
        _l("Descrição do alojamento e dos cuidados com os animais"),
        validators=[Optional(), Length(max=4000)],
    )
    photos = MultipleFileField(_l("Fotos do alojamento (opcional)"))
    animals_requested = IntegerField(
        _l("Quantos cães e gatos a residência quer manter, no total"),
        validators=[DataRequired(REQUIRED), NumberRange(min=1, max=99)],
        render_kw={"inputmode": "numeric"},
    )


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


class ReductionForm(FlaskForm):
    """BJP 17 §1: the residence's lower number, with the technical report."""

    max_animals = IntegerField(
        _l("Novo limite de cães e gatos"),
        validators=[InputRequired(REQUIRED)],
        render_kw={"inputmode": "numeric", "min": 0},
    )
    report = FileField(
        _l("Laudo técnico (PDF ou foto)"),
        validators=[FileRequired(_l("Anexe o laudo técnico."))],
        render_kw={"accept": "application/pdf,image/jpeg,image/png,image/webp,image/heic"},
    )
    report_on = DateField(_l("Data do laudo"), validators=[DataRequired(REQUIRED)])
    reason = TextAreaField(
        _l("O que o agente verificou"),
        validators=[DataRequired(REQUIRED), Length(max=2000)],
        render_kw={"rows": 3},
    )


class LiftReductionForm(FlaskForm):
    lift_reason = TextAreaField(
        _l("Por que a redução termina"),
        validators=[DataRequired(REQUIRED), Length(max=2000)],
        render_kw={"rows": 2},
    )

"""Adoption forms. They only parse input; the rules are in the services, which both the forms'
views and the API call (e.g. :func:`portal.blueprints.adoption.services.listing_data`)."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired, MultipleFileField
from wtforms import (
    BooleanField,
    DateField,
    EmailField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TelField,
    TextAreaField,
)
from wtforms.validators import DataRequired, Email, Length, NumberRange, Optional

from portal.blueprints.adoption.applications import (
    HOME_TYPES,
    OTHER_ANIMALS,
    Answers,
    HealthRecord,
)
from portal.blueprints.adoption.bars import BAR_LABELS
from portal.blueprints.adoption.documents import DOCUMENT_LABELS
from portal.blueprints.adoption.listings import SEXES, SIZES, SPECIES
from portal.forms import UF_CHOICES, not_future
from portal.services.ids import db_int

REQUIRED = _l("Campo obrigatório.")
IMAGE_ACCEPT = "image/jpeg,image/png,image/webp,image/heic,image/heif,.heic,.heif"


class ListingForm(FlaskForm):
    owner = SelectField(_l("Quem oferece o animal"), choices=[], validate_choice=True)
    name = StringField(_l("Nome do animal"), validators=[DataRequired(REQUIRED), Length(max=80)])
    species = RadioField(
        _l("Espécie"),
        choices=list(SPECIES.items()),
        validators=[DataRequired(_l("Escolha a espécie."))],
    )
    sex = RadioField(
        _l("Sexo"), choices=list(SEXES.items()), validators=[DataRequired(_l("Escolha o sexo."))]
    )
    birth_date = DateField(_l("Data de nascimento"), validators=[Optional(), not_future])
    birth_date_estimated = BooleanField(_l("A data de nascimento é aproximada"))
    age_years = IntegerField(
        _l("Idade estimada: anos"),
        validators=[Optional(), NumberRange(0, 30, _l("De 0 a 30 anos."))],
        render_kw={"inputmode": "numeric"},
    )
    age_months = IntegerField(
        _l("Idade estimada: meses"),
        validators=[Optional(), NumberRange(0, 11, _l("De 0 a 11 meses."))],
        render_kw={"inputmode": "numeric"},
    )
    size = RadioField(
        _l("Porte"), choices=list(SIZES.items()), validators=[DataRequired(_l("Escolha o porte."))]
    )
    breed = StringField(_l("Raça"), default="SRD", validators=[Optional(), Length(max=100)])
    color = StringField(_l("Cor / pelagem"), validators=[DataRequired(REQUIRED), Length(max=80)])
    good_with_children = BooleanField(_l("Convive bem com crianças"))
    good_with_dogs = BooleanField(_l("Convive bem com cães"))
    good_with_cats = BooleanField(_l("Convive bem com gatos"))
    vaccinated = BooleanField(_l("Vacinado"))
    vaccinated_on = DateField(_l("Data da vacinação"), validators=[Optional(), not_future])
    dewormed = BooleanField(_l("Vermifugado"))
    dewormed_on = DateField(_l("Data da vermifugação"), validators=[Optional(), not_future])
    sterilized = BooleanField(_l("Esterilizado (castrado)"))
    sterilized_on = DateField(_l("Data da esterilização"), validators=[Optional(), not_future])
    story = TextAreaField(
        _l("História e jeito do animal"), validators=[Length(max=4000)], render_kw={"rows": 5}
    )
    district = StringField(
        _l("Bairro onde está"), validators=[DataRequired(REQUIRED), Length(max=100)]
    )
    held_since = DateField(_l("Data de entrada no CCZ"), validators=[Optional(), not_future])
    photos = MultipleFileField(_l("Fotos (1 a 8)"), render_kw={"accept": IMAGE_ACCEPT})

    def listing_input(self) -> dict[str, object]:
        """The form's values in the shape of :func:`services.listing_data` (the API's names)."""
        data: dict[str, object] = {
            name: getattr(self, name).data
            for name in (
                "name",
                "species",
                "sex",
                "size",
                "breed",
                "color",
                "district",
                "story",
                "good_with_children",
                "good_with_dogs",
                "good_with_cats",
                "vaccinated",
                "vaccinated_on",
                "dewormed",
                "dewormed_on",
                "sterilized",
                "sterilized_on",
                "held_since",
            )
        }
        data["birth_date"] = self.birth_date.data
        data["birth_date_estimated"] = bool(self.birth_date_estimated.data)
        if self.age_years.data is not None or self.age_months.data is not None:
            data["age_months"] = (self.age_years.data or 0) * 12 + (self.age_months.data or 0)
        return data


class PhotoForm(FlaskForm):
    photos = MultipleFileField(
        _l("Adicionar fotos"),
        validators=[FileRequired(_l("Escolha ao menos uma foto."))],
        render_kw={"accept": IMAGE_ACCEPT},
    )


class StateForm(FlaskForm):
    state = HiddenField()


class MovePhotoForm(FlaskForm):
    direction = HiddenField()


class OrganizationForm(FlaskForm):
    legal_name = StringField(
        _l("Razão social"), validators=[DataRequired(REQUIRED), Length(max=200)]
    )
    trade_name = StringField(
        _l("Nome fantasia (como aparece no portal)"), validators=[Optional(), Length(max=200)]
    )
    cnpj = StringField(
        _l("CNPJ"),
        validators=[DataRequired(REQUIRED)],
        render_kw={"inputmode": "numeric", "placeholder": "00.000.000/0000-00"},
    )
    responsible_name = StringField(
        _l("Pessoa responsável"), validators=[DataRequired(REQUIRED), Length(max=200)]
    )
    email = EmailField(
        _l("E-mail da entidade"), validators=[DataRequired(REQUIRED), Email(_l("E-mail inválido."))]
    )
    phone = TelField(_l("Telefone"), validators=[Optional(), Length(max=30)])
    cep = StringField(
        _l("CEP"),
        validators=[DataRequired(REQUIRED)],
        render_kw={"inputmode": "numeric", "autocomplete": "postal-code"},
    )
    street = StringField(_l("Logradouro"), validators=[DataRequired(REQUIRED), Length(max=200)])
    number = StringField(_l("Número"), validators=[DataRequired(REQUIRED), Length(max=20)])
    complement = StringField(_l("Complemento"), validators=[Optional(), Length(max=100)])
    district = StringField(_l("Bairro"), validators=[DataRequired(REQUIRED), Length(max=100)])
    city = StringField(_l("Cidade"), validators=[DataRequired(REQUIRED), Length(max=100)])
    state = SelectField(_l("UF"), choices=UF_CHOICES, default="SP")


class ReasonForm(FlaskForm):
    reason = TextAreaField(
        _l("Motivo"),
        validators=[DataRequired(_l("Informe o motivo.")), Length(max=2000)],
        render_kw={"rows": 3},
    )


class InfoRequestForm(FlaskForm):
    message = TextAreaField(
        _l("O que a pessoa precisa enviar ou esclarecer"),
        validators=[DataRequired(_l("Escreva a pergunta.")), Length(max=2000)],
        render_kw={"rows": 3},
    )


class DocumentForm(FlaskForm):
    kind = SelectField(_l("Documento"), choices=list(DOCUMENT_LABELS.items()))
    file = FileField(
        _l("Arquivo (PDF ou foto)"),
        validators=[FileRequired(_l("Escolha o arquivo."))],
        render_kw={"accept": "application/pdf," + IMAGE_ACCEPT},
    )
    issued_on = DateField(
        _l("Data de emissão (comprovante de endereço)"), validators=[Optional(), not_future]
    )


class QuestionnaireMixin:
    home_type = RadioField(
        _l("Tipo de moradia"),
        choices=list(HOME_TYPES.items()),
        validators=[DataRequired(_l("Escolha o tipo de moradia."))],
    )
    other_animals = RadioField(
        _l("Há outros animais em casa?"),
        choices=list(OTHER_ANIMALS.items()),
        validators=[DataRequired(_l("Responda esta pergunta."))],
    )
    other_animals_detail = TextAreaField(
        _l("Se há, quantos são? São vacinados e castrados?"),
        validators=[Length(max=1000)],
        render_kw={"rows": 2},
    )
    caretaker = TextAreaField(
        _l("Quem vai cuidar do animal no dia a dia?"),
        validators=[DataRequired(REQUIRED), Length(max=1000)],
        render_kw={"rows": 2},
    )
    holidays = TextAreaField(
        _l("Com quem o animal fica em viagens e feriados?"),
        validators=[DataRequired(REQUIRED), Length(max=1000)],
        render_kw={"rows": 2},
    )

    def answers(self) -> Answers:
        """The questionnaire for the service, which checks it (``Answers.validate``)."""
        return Answers(
            home_type=self.home_type.data,
            other_animals=self.other_animals.data,
            other_animals_detail=self.other_animals_detail.data or "",
            caretaker=self.caretaker.data,
            holidays=self.holidays.data,
        )


class ApplicationForm(QuestionnaireMixin, FlaskForm):
    accept_term = BooleanField(_l("Li e aceito o Termo de Compromisso de Adoção"))


class AnswerInfoForm(QuestionnaireMixin, FlaskForm):
    note = TextAreaField(_l("Sua resposta"), validators=[Length(max=2000)], render_kw={"rows": 3})


class AttachDocumentForm(FlaskForm):
    document = SelectField(
        _l("Documento já enviado"),
        coerce=int,
        choices=[],
        validators=[DataRequired(_l("Escolha o documento."))],
    )


class DocumentReviewForm(FlaskForm):
    decision = HiddenField()
    reason = StringField(_l("Motivo da recusa"), validators=[Optional(), Length(max=500)])


class HandoverForm(FlaskForm):
    vaccinated = BooleanField(_l("Vacinado"))
    vaccinated_on = DateField(_l("Data da vacinação"), validators=[Optional(), not_future])
    dewormed = BooleanField(_l("Vermifugado"))
    dewormed_on = DateField(_l("Data da vermifugação"), validators=[Optional(), not_future])
    sterilized = BooleanField(_l("Esterilizado (castrado)"))
    sterilized_on = DateField(_l("Data da esterilização"), validators=[Optional(), not_future])
    rabies_vaccine = StringField(
        _l("Vacina antirrábica aplicada (nome)"), validators=[Optional(), Length(max=120)]
    )
    rabies_batch = StringField(_l("Partida (lote)"), validators=[Optional(), Length(max=60)])
    rabies_vet_name = StringField(
        _l("Médico(a) veterinário(a)"), validators=[Optional(), Length(max=200)]
    )
    rabies_vet_crmv = StringField(
        _l("CRMV"),
        validators=[Optional(), Length(max=40)],
        render_kw={"placeholder": "CRMV-SP 12345"},
    )
    confirm = BooleanField(
        _l("Confirmo que o animal foi entregue à pessoa adotante"),
        validators=[DataRequired(_l("Confirme a entrega."))],
    )

    def health_record(self) -> HealthRecord:
        return HealthRecord(
            vaccinated=bool(self.vaccinated.data),
            vaccinated_on=self.vaccinated_on.data,
            dewormed=bool(self.dewormed.data),
            dewormed_on=self.dewormed_on.data,
            sterilized=bool(self.sterilized.data),
            sterilized_on=self.sterilized_on.data,
            rabies_vaccine=self.rabies_vaccine.data or "",
            rabies_batch=self.rabies_batch.data or "",
            rabies_vet_name=self.rabies_vet_name.data or "",
            rabies_vet_crmv=self.rabies_vet_crmv.data or "",
        )


class MemberForm(FlaskForm):
    email = EmailField(
        _l("E-mail da conta da pessoa"),
        validators=[DataRequired(REQUIRED), Email(_l("E-mail inválido."))],
    )


class BarLookupForm(FlaskForm):
    cpf = StringField(
        _l("CPF da pessoa"),
        validators=[DataRequired(REQUIRED)],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )


class BarForm(FlaskForm):
    cpf = StringField(
        _l("CPF da pessoa"),
        validators=[DataRequired(REQUIRED)],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )
    person_name = StringField(_l("Nome da pessoa"), validators=[Optional(), Length(max=200)])
    kind = RadioField(
        _l("Impedimento"),
        choices=list(BAR_LABELS.items()),
        validators=[DataRequired(_l("Escolha o tipo de impedimento."))],
    )
    listing_id = IntegerField(
        _l("Número do anúncio do animal (apreensão definitiva)"),
        validators=[Optional(), db_int],
        render_kw={"inputmode": "numeric"},
    )
    rga = StringField(
        _l("ou o RGA do animal (apreensão definitiva)"), validators=[Optional(), Length(max=30)]
    )
    reason = TextAreaField(
        _l("Motivo e documento de origem (auto, termo, processo)"),
        validators=[DataRequired(REQUIRED), Length(max=2000)],
        render_kw={"rows": 3},
    )

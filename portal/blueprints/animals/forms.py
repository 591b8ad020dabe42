"""Forms of the RGA domain: the registration wizard's steps, owner actions, finder form, staff.

Forms check shape (types, lengths, required-when); the law's rules are in services.py.
"""

from __future__ import annotations

import re

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    BooleanField,
    DateField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

from portal.blueprints.account.forms import AddressMixin
from portal.models.animal import SEX_LABELS, SPECIES_LABELS

REQUIRED = _l("Campo obrigatório.")
SPECIES_CHOICES = list(SPECIES_LABELS.items())
SEX_CHOICES = list(SEX_LABELS.items())
SIZE_CHOICES = [
    ("small", _l("Pequeno (até 10 kg)")),
    ("medium", _l("Médio (10 a 25 kg)")),
    ("large", _l("Grande (mais de 25 kg)")),
]
YES_NO = [("no", _l("Não")), ("yes", _l("Sim"))]


def parse_weight_grams(text: str | None) -> int | None:
    """ "12,5" / "12.5" / "12 kg" -> 12500 grams; None when empty. Raises ValueError."""
    cleaned = re.sub(r"\s|kg", "", (text or "").lower()).replace(",", ".")
    if not cleaned:
        return None
    if not re.fullmatch(r"\d{1,3}(\.\d{1,3})?", cleaned):
        raise ValueError(cleaned)
    whole, _sep, frac = cleaned.partition(".")
    return int(whole) * 1000 + int((frac + "000")[:3])


class AnimalStepForm(FlaskForm):
    """Step 1: the animal (BJP 3 a; GRU 15 I c; VV 12 §2)."""

    name = StringField(_l("Nome do animal"), validators=[DataRequired(REQUIRED), Length(max=100)])
    species = RadioField(
        _l("Espécie"),
        choices=SPECIES_CHOICES,
        validators=[InputRequired(_l("Escolha cão ou gato."))],
    )
    sex = RadioField(
        _l("Sexo"), choices=SEX_CHOICES, validators=[InputRequired(_l("Escolha macho ou fêmea."))]
    )
    breed = StringField(
        _l("Raça"),
        validators=[
            DataRequired(_l("Informe a raça (ou SRD, sem raça definida).")),
            Length(max=100),
        ],
        render_kw={"list": "racas"},
    )
    color = StringField(_l("Cor / pelagem"), validators=[DataRequired(REQUIRED), Length(max=100)])
    birth_known = RadioField(
        _l("Você sabe a data de nascimento?"),
        choices=[
            ("exact", _l("Sim, sei a data")),
            ("estimated", _l("Não, vou informar a idade aproximada")),
        ],
        default="exact",
        validators=[InputRequired(REQUIRED)],
    )
    birth_date = DateField(_l("Data de nascimento"), validators=[Optional()])
    age_years = IntegerField(
        _l("Idade aproximada: anos"),
        validators=[Optional(), NumberRange(min=0, max=30, message=_l("Entre 0 e 30 anos."))],
        render_kw={"inputmode": "numeric"},
    )
    age_months = IntegerField(
        _l("Idade aproximada: meses"),
        validators=[Optional(), NumberRange(min=0, max=11, message=_l("Entre 0 e 11 meses."))],
        render_kw={"inputmode": "numeric"},
    )
    size = RadioField(
        _l("Porte"), choices=SIZE_CHOICES, validators=[InputRequired(_l("Escolha o porte."))]
    )
    weight_kg = StringField(
        _l("Peso em kg (opcional)"),
        validators=[Optional(), Length(max=10)],
        render_kw={"inputmode": "decimal", "placeholder": "12,5"},
    )
    sterilized = RadioField(
        _l("É castrado(a)?"), choices=YES_NO, default="no", validators=[InputRequired(REQUIRED)]
    )
    microchip = StringField(
        _l("Número do microchip (opcional)"),
        validators=[Optional(), Length(max=30)],
        render_kw={"inputmode": "numeric", "autocomplete": "off"},
    )

    def validate(self, extra_validators=None) -> bool:
        ok = super().validate(extra_validators)
        if self.birth_known.data == "estimated":
            if (
                self.age_years.data is None
                and self.age_months.data is None
                and not (self.age_years.errors or self.age_months.errors)
            ):
                self.age_years.errors.append(_l("Informe a idade aproximada em anos e/ou meses."))
                ok = False
        elif not self.birth_date.data and not self.birth_date.errors:
            self.birth_date.errors = [_l("Informe a data de nascimento.")]
            ok = False
        if self.weight_kg.data:
            try:
                parse_weight_grams(self.weight_kg.data)
            except ValueError:
                self.weight_kg.errors.append(_l("Peso inválido: use quilos, por exemplo 12,5."))
                ok = False
        return ok


class AddressStepForm(AddressMixin, FlaskForm):
    """Step 2: where the animal lives (the owner's address, saved on the profile)."""


class VaccinationFieldsMixin:
    """Rabies vaccination fields of BJP 13 §1 (vaccine, batch, manufacturer, dates, vet, CRMV)."""

    applied_on = DateField(_l("Data da vacinação antirrábica"), validators=[Optional()])
    vaccine_name = StringField(_l("Nome da vacina"), validators=[Optional(), Length(max=120)])
    batch = StringField(_l("Partida (lote)"), validators=[Optional(), Length(max=60)])
    manufacturer = StringField(
        _l("Fabricante (opcional)"), validators=[Optional(), Length(max=120)]
    )
    manufactured_on = DateField(_l("Data de fabricação (opcional)"), validators=[Optional()])
    expires_on = DateField(_l("Validade da vacina (opcional)"), validators=[Optional()])
    next_due_on = DateField(_l("Próxima dose (opcional)"), validators=[Optional()])
    establishment = StringField(
        _l("Clínica ou local da vacinação (opcional)"), validators=[Optional(), Length(max=200)]
    )
    vet_name = StringField(
        _l("Nome do(a) veterinário(a)"), validators=[Optional(), Length(max=200)]
    )
    vet_crmv = StringField(
        _l("CRMV do(a) veterinário(a)"),
        validators=[Optional(), Length(max=40)],
        render_kw={"placeholder": "CRMV-SP 12345"},
    )

    REQUIRED_FIELDS = ("applied_on", "vaccine_name", "batch", "vet_name", "vet_crmv")

    def require_record(self) -> bool:
        ok = True
        for name in self.REQUIRED_FIELDS:
            field = getattr(self, name)
            if not field.data and not field.errors:
                field.errors = [REQUIRED]
                ok = False
        return ok


class VaccinationStepForm(VaccinationFieldsMixin, FlaskForm):
    """Step 3: rabies proof, or vaccinate at the CCZ (BJP 6 §ú)."""

    choice = RadioField(
        _l("Vacina antirrábica"),
        choices=[
            (
                "record",
                _l("O animal está vacinado: vou informar os dados da carteira de vacinação"),
            ),
            ("ccz", _l("Vou vacinar no CCZ (o registro fica pendente até a vacinação)")),
            ("none", _l("Não informar agora")),
        ],
        default="record",
        validators=[InputRequired(REQUIRED)],
    )
    # GRU 15 V; BJP 6: the card or proof is presented; held in the wizard's draft (issue 25)
    rabies_proof = FileField(
        _l("Foto ou PDF da carteira de vacinação"),
        render_kw={"accept": "application/pdf,image/jpeg,image/png,image/webp,image/heic"},
    )

    def __init__(self, *args, allow_none: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if not allow_none:
            self.choice.choices = [c for c in self.choice.choices if c[0] != "none"]

    def validate(self, extra_validators=None) -> bool:
        ok = super().validate(extra_validators)
        if self.choice.data == "record":
            ok = self.require_record() and ok
        return ok


class PhotoStepForm(FlaskForm):
    """Step 4: an optional photo (shown on the public page)."""

    photo = FileField(
        _l("Foto do animal (opcional)"),
        render_kw={"accept": "image/jpeg,image/png,image/webp,image/heic"},
    )
    remove_photo = BooleanField(_l("Remover a foto enviada"))


class TransferForm(FlaskForm):
    cpf = StringField(
        _l("CPF do novo proprietário"),
        validators=[DataRequired(REQUIRED)],
        render_kw={"inputmode": "numeric", "autocomplete": "off", "placeholder": "000.000.000-00"},
    )
    confirm = BooleanField(
        _l("Confirmo que quero transferir este animal"),
        validators=[DataRequired(_l("Marque a confirmação para continuar."))],
    )


class CopyForm(FlaskForm):
    kind = RadioField(
        _l("Documento"),
        choices=[("card", _l("Carteira do RGA")), ("tag", _l("Plaqueta de identificação"))],
        validators=[InputRequired(_l("Escolha carteira ou plaqueta."))],
    )
    reason = StringField(
        _l("Motivo (opcional)"),
        validators=[Optional(), Length(max=300)],
        render_kw={"placeholder": _l("Perda, extravio, dano…")},
    )


class DeathForm(FlaskForm):
    died_on = DateField(
        _l("Data do óbito"), validators=[DataRequired(_l("Informe a data do óbito."))]
    )
    note = TextAreaField(_l("Observações (opcional)"), validators=[Optional(), Length(max=500)])
    confirm = BooleanField(
        _l(
            "Confirmo a comunicação do óbito. Entendo que o RGA será encerrado "
            "e não poderá ser reativado."
        ),
        validators=[DataRequired(_l("Marque a confirmação para continuar."))],
    )


class FinderForm(FlaskForm):
    finder_name = StringField(
        _l("Seu nome (opcional)"),
        validators=[Optional(), Length(max=120)],
        render_kw={"autocomplete": "name"},
    )
    contact = StringField(
        _l("Seu telefone ou e-mail"),
        validators=[
            DataRequired(_l("Informe um telefone ou e-mail para o proprietário falar com você.")),
            Length(max=200),
        ],
    )
    message = TextAreaField(
        _l("Mensagem para o proprietário"),
        validators=[
            DataRequired(_l("Escreva onde e quando encontrou o animal.")),
            Length(max=2000),
        ],
        render_kw={"rows": 4},
    )


class StaffVaccinationForm(VaccinationFieldsMixin, FlaskForm):
    def validate(self, extra_validators=None) -> bool:
        ok = super().validate(extra_validators)
        return self.require_record() and ok


class ProofRefusalForm(FlaskForm):
    """Staff refuse an owner's vaccination record (provisional.py): the reason goes to the owner."""

    reason = StringField(
        _l("Motivo da recusa"),
        validators=[
            DataRequired(_l("Informe o motivo da recusa: ele é enviado ao proprietário.")),
            Length(max=500),
        ],
        render_kw={"placeholder": _l("Ex.: CRMV não encontrado; vacina vencida")},
    )


class StaffSearchForm(FlaskForm):
    kind = SelectField(
        _l("Buscar por"),
        choices=[
            ("rga", _l("Número do RGA")),
            ("microchip", _l("Microchip")),
            ("cpf", _l("CPF do proprietário")),
            ("name", _l("Nome do animal ou do proprietário")),
        ],
    )
    q = StringField(
        _l("Termo de busca"),
        validators=[DataRequired(_l("Digite o que procurar.")), Length(max=200)],
        render_kw={"autocomplete": "off"},
    )

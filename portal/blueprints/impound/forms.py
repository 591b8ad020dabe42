"""Impound forms: they parse input; the rules are in ``services``."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, MultipleFileField
from wtforms import (
    BooleanField,
    DateField,
    DecimalField,
    HiddenField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
    TimeField,
)
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from portal.forms import CheckboxesField, choices
from portal.models.animal import (
    OTHER_SPECIES_LABEL,
    SEX_LABELS,
    SIZE_LABELS,
    SPECIES_LABELS,
    UNKNOWN_SEX_LABEL,
)

REQUIRED = _l("Campo obrigatório.")

SPECIES = choices([*SPECIES_LABELS.items(), ("other", OTHER_SPECIES_LABEL)])
SIZES = choices(SIZE_LABELS.items())


class CaptureForm(FlaskForm):
    """The field agent's form, on a phone: few required fields, everything else optional."""

    species = RadioField(_l("Espécie"), choices=SPECIES, validators=[DataRequired(REQUIRED)])
    size = RadioField(_l("Porte"), choices=SIZES, validators=[DataRequired(REQUIRED)])
    sex = RadioField(
        _l("Sexo"),
        choices=choices([*SEX_LABELS.items(), ("unknown", UNKNOWN_SEX_LABEL)]),
        default="unknown",
        validators=[DataRequired(REQUIRED)],
    )
    color = StringField(_l("Cor / pelagem"), validators=[DataRequired(REQUIRED), Length(max=80)])
    tag_read = StringField(_l("RGA lido na plaqueta"), validators=[Optional(), Length(max=20)])
    microchip = StringField(_l("Microchip lido"), validators=[Optional(), Length(max=20)])
    photos = MultipleFileField(_l("Fotos do animal"))
    place = StringField(
        _l("Endereço ou ponto de referência da captura"),
        validators=[DataRequired(REQUIRED), Length(max=300)],
    )
    district = StringField(_l("Bairro"), validators=[DataRequired(REQUIRED), Length(max=100)])
    latitude = DecimalField(
        _l("Latitude (opcional)"), places=6, validators=[Optional(), NumberRange(-90, 90)]
    )
    longitude = DecimalField(
        _l("Longitude (opcional)"), places=6, validators=[Optional(), NumberRange(-180, 180)]
    )
    captured_on = DateField(_l("Data da captura"), validators=[DataRequired(REQUIRED)])
    captured_time = TimeField(_l("Hora da captura"), validators=[DataRequired(REQUIRED)])
    reason = SelectField(_l("Motivo da captura"), validators=[DataRequired(REQUIRED)])
    condition = RadioField(
        _l("Estado do animal"),
        choices=choices(
            [
                ("good", _l("Bom estado")),
                ("ill", _l("Doente")),
                ("injured", _l("Ferido")),
                ("serious", _l("Estado grave")),
            ]
        ),
        default="good",
        validators=[DataRequired(REQUIRED)],
    )
    condition_note = TextAreaField(
        _l("Observações sobre o estado"), validators=[Optional(), Length(max=2000)]
    )
    custody_type = RadioField(
        _l("Tipo de guarda"),
        choices=choices(
            [
                ("ordinary", _l("Guarda comum")),
                ("observation", _l("Observação antirrábica")),
                ("aggressive", _l("Animal agressivo")),
            ]
        ),
        default="ordinary",
        validators=[DataRequired(REQUIRED)],
    )
    # The maus-tratos report the capture comes from (``?denuncia=`` on the form's address).
    report_protocol = HiddenField(validators=[Optional(), Length(max=20)])


def _reais(form: FlaskForm, field: StringField) -> None:
    """An amount in reais as people type it ("12,50", "R$ 12,50", "1.234,56"), above zero."""
    from wtforms.validators import ValidationError

    from portal.services.money import parse_brl

    try:
        cents = parse_brl(field.data or "")
    except ValueError:
        raise ValidationError(_l("Informe o valor em reais, por exemplo 12,50.")) from None
    if cents <= 0:
        raise ValidationError(_l("Informe um valor maior que zero."))
    if cents > MAX_EXPENSE_CENTS:  # an amount no expense reaches, and past what a column holds
        raise ValidationError(_l("Confira o valor: o máximo aceito é R$ 1.000.000,00."))


MAX_EXPENSE_CENTS = 100_000_000


class CounterReclaimForm(FlaskForm):
    """At the counter: who reclaims, exemption with proof checked, the CCZ's expenses."""

    claimant_cpf = StringField(_l("CPF de quem resgata"), validators=[DataRequired(REQUIRED)])
    claimant_name = StringField(_l("Nome completo"), validators=[Optional(), Length(max=200)])
    claimant_email = StringField(_l("E-mail"), validators=[Optional(), Length(max=254)])
    exemption = SelectField(_l("Isenção com comprovante conferido"), validators=[Optional()])
    # CABO 41; GRU 72 §1: the expenses typed in reais ("12,50"), kept as integer cents.
    transport_reais = StringField(
        _l("Despesa de transporte (R$)"), validators=[Optional(), Length(max=20), _reais]
    )
    food_reais = StringField(
        _l("Despesa de alimentação (R$)"), validators=[Optional(), Length(max=20), _reais]
    )
    veterinary_reais = StringField(
        _l("Despesa de assistência veterinária (R$)"),
        validators=[Optional(), Length(max=20), _reais],
    )
    capture_reais = StringField(
        _l("Despesa de captura e remoção (R$)"), validators=[Optional(), Length(max=20), _reais]
    )
    storage_reais = StringField(
        _l("Despesa de depósito (R$)"), validators=[Optional(), Length(max=20), _reais]
    )


class RegisterOnReclaimForm(FlaskForm):
    name = StringField(_l("Nome do animal"), validators=[DataRequired(REQUIRED), Length(max=100)])
    birth_date = DateField(_l("Data de nascimento aproximada"), validators=[DataRequired(REQUIRED)])


class RabiesForm(FlaskForm):
    rabies = RadioField(
        _l("Vacina antirrábica"),
        choices=choices(
            [
                ("proof", _l("Vacina em dia comprovada")),
                ("vaccinated", _l("Vacinado agora no CCZ")),
                ("waived", _l("Dispensada pela autoridade sanitária")),
            ]
        ),
        validators=[DataRequired(REQUIRED)],
    )
    # "Vacinado agora no CCZ": the shot goes on the animal's RGA (BJP 13 §1 fields).
    vaccine_name = StringField(_l("Vacina aplicada"), validators=[Optional(), Length(max=120)])
    batch = StringField(_l("Partida (lote)"), validators=[Optional(), Length(max=60)])
    manufacturer = StringField(_l("Fabricante"), validators=[Optional(), Length(max=120)])
    expires_on = DateField(_l("Validade da vacina"), validators=[Optional()])
    vet_name = StringField(_l("Médico(a) veterinário(a)"), validators=[Optional(), Length(max=200)])
    vet_crmv = StringField(_l("CRMV"), validators=[Optional(), Length(max=40)])


class ReleaseForm(FlaskForm):
    signed_by_name = StringField(
        _l("Nome de quem assina o termo de devolução"),
        validators=[DataRequired(REQUIRED), Length(max=200)],
    )
    term_read = BooleanField(
        _l("O termo foi lido e assinado"),
        validators=[DataRequired(_l("Confirme a assinatura do termo."))],
    )


class DestinationForm(FlaskForm):
    destination = RadioField(_l("Destinação"), validators=[DataRequired(REQUIRED)])
    reason = TextAreaField(
        _l("Motivo da decisão"), validators=[DataRequired(REQUIRED), Length(max=2000)]
    )
    listing_name = StringField(
        _l("Nome para o anúncio de adoção"), validators=[Optional(), Length(max=80)]
    )
    organization_id = SelectField(_l("ONG de proteção animal"), validators=[Optional()])
    carer_name = StringField(
        _l("Cuidador responsável na comunidade"), validators=[Optional(), Length(max=200)]
    )
    # BJP 25 §3 II; VV 19 §1: the choices are the profile's conditions.
    community_conditions = CheckboxesField(
        _l("Para a devolução à comunidade, o animal está"), choices=[], validators=[Optional()]
    )
    vet_report = TextAreaField(
        _l("Laudo técnico do médico veterinário"), validators=[Optional(), Length(max=5000)]
    )
    vet_crmv = StringField(_l("CRMV do veterinário"), validators=[Optional(), Length(max=20)])
    lab_exam = StringField(
        _l("Exame laboratorial (quando couber)"), validators=[Optional(), Length(max=300)]
    )
    incurable = BooleanField(
        _l(
            "O laudo atesta doença grave incurável ou infectocontagiosa com "
            "risco à saúde humana ou animal"
        )
    )
    # GRU 88 III: where the animal of another species goes.
    slaughterhouse = StringField(
        _l("Abatedouro licenciado (nome e registro no serviço de inspeção)"),
        validators=[Optional(), Length(max=200)],
    )
    # GRU 88 II; CAB 20: the signed laudo of another species' euthanasia.
    laudo_file = FileField(_l("Arquivo do laudo assinado (PDF ou foto, opcional)"))


class AuctionOutcomeForm(FlaskForm):
    """CAB 20: what came of the public auction."""

    outcome = RadioField(
        _l("Resultado do leilão"),
        choices=choices(
            [
                ("sold", _l("Arrematado")),
                ("failed", _l("Frustrado: ninguém arrematou")),
            ]
        ),
        validators=[DataRequired(_l("Escolha o resultado do leilão."))],
    )


class OnSiteEuthanasiaForm(FlaskForm):
    """The euthanasia where the animal is (GRU 90; CAB 9 §ú; CABO 11); the page shows only the
    fields the city's law asks."""

    species = RadioField(_l("Espécie"), choices=SPECIES, validators=[DataRequired(REQUIRED)])
    size = RadioField(_l("Porte"), choices=SIZES, validators=[DataRequired(REQUIRED)])
    description = StringField(
        _l("Animal (espécie, pelagem, sinais)"),
        validators=[DataRequired(REQUIRED), Length(max=200)],
    )
    place = StringField(_l("Local"), validators=[DataRequired(REQUIRED), Length(max=300)])
    district = StringField(_l("Bairro"), validators=[DataRequired(REQUIRED), Length(max=100)])
    performed_on = DateField(_l("Data"), validators=[DataRequired(REQUIRED)])
    transport_impossible = TextAreaField(
        _l("Por que o transporte do animal é inviável"),
        validators=[DataRequired(REQUIRED), Length(max=2000)],
    )
    # GRU 90 always; CAB 9 and CABO 11 for dogs and cats (Lei 14.228/2021 art. 2º): the service
    # says when they are required, beside the field
    vet_report = TextAreaField(
        _l("Laudo técnico do médico veterinário"), validators=[Optional(), Length(max=5000)]
    )
    vet_crmv = StringField(_l("CRMV do veterinário"), validators=[Optional(), Length(max=20)])
    laudo_file = FileField(_l("Arquivo do laudo assinado (PDF ou foto)"))
    federal_ground = RadioField(
        _l("Para cão ou gato, o laudo atesta (Lei federal 14.228/2021, art. 2º)"),
        choices=choices(
            [
                ("incurable_disease", _l("Mal ou doença grave incurável")),
                (
                    "infectious_risk",
                    _l(
                        "Enfermidade infectocontagiosa incurável com risco à saúde humana ou de "
                        "outros animais"
                    ),
                ),
            ]
        ),
        validators=[Optional()],
    )
    assessment = TextAreaField(  # CAB 9: the assessment by the agent or the vet
        _l("Avaliação do animal no local"), validators=[Optional(), Length(max=5000)]
    )
    owner_absent = BooleanField(  # CAB 9 §ú
        _l("O proprietário não havia comparecido quando a equipe chegou ao local.")
    )
    suffering = BooleanField(_l("O animal apresenta ferimentos graves ou sofrimento excessivo."))
    staff_safe = BooleanField(
        _l("O procedimento não traz dano aos servidores nem ao órgão público.")
    )
    # CABO 11: the auto de constatação "testemunhado por no mínimo 2 (duas) pessoas"
    witness_1_name = StringField(_l("Testemunha 1: nome"), validators=[Optional(), Length(max=200)])
    witness_1_document = StringField(
        _l("Testemunha 1: CPF ou RG"), validators=[Optional(), Length(max=30)]
    )
    witness_2_name = StringField(_l("Testemunha 2: nome"), validators=[Optional(), Length(max=200)])
    witness_2_document = StringField(
        _l("Testemunha 2: CPF ou RG"), validators=[Optional(), Length(max=30)]
    )
    witness_3_name = StringField(
        _l("Testemunha 3 (opcional): nome"), validators=[Optional(), Length(max=200)]
    )
    witness_3_document = StringField(
        _l("Testemunha 3 (opcional): CPF ou RG"), validators=[Optional(), Length(max=30)]
    )
    owner_name = StringField(
        _l("Proprietário, se conhecido"), validators=[Optional(), Length(max=200)]
    )
    # the animal's RGA or microchip, when it has one: its owner reads the record's document
    tag_read = StringField(
        _l("RGA ou microchip do animal, se tiver"), validators=[Optional(), Length(max=30)]
    )
    # CAB 9 caput: what came of the assessment; shown only where the profile lists outcomes
    outcome = RadioField(
        _l("Resultado da avaliação"),
        choices=choices(
            [
                ("euthanasia", _l("Eutanásia no local")),
                ("taken_to_ccz", _l("Animal recolhido ao CCZ")),
                ("left_with_owner", _l("Animal deixado com o proprietário, presente no local")),
            ]
        ),
        default="euthanasia",
        validators=[Optional()],
    )


class PublicFilterForm(FlaskForm):
    class Meta:
        csrf = False

    especie = SelectField(
        _l("Espécie"), choices=[("", _l("Todas")), *SPECIES], validators=[Optional()]
    )
    porte = SelectField(_l("Porte"), choices=[("", _l("Todos")), *SIZES], validators=[Optional()])
    bairro = StringField(_l("Bairro"), validators=[Optional(), Length(max=100)])


class LostAnimalForm(FlaskForm):
    animal_id = SelectField(_l("Um dos meus animais (opcional)"), validators=[Optional()])
    species = RadioField(_l("Espécie"), choices=SPECIES, validators=[Optional()])
    color = StringField(_l("Cor / pelagem"), validators=[Optional(), Length(max=80)])
    district = StringField(_l("Bairro onde se perdeu"), validators=[Optional(), Length(max=100)])
    microchip = StringField(_l("Microchip"), validators=[Optional(), Length(max=20)])
    rga = StringField(_l("RGA"), validators=[Optional(), Length(max=20)])
    lost_on = DateField(_l("Data em que se perdeu"), validators=[DataRequired(REQUIRED)])
    description = TextAreaField(_l("Descrição"), validators=[Optional(), Length(max=2000)])


class CertificateRequestForm(FlaskForm):
    rga = StringField(_l("RGA do animal"), validators=[DataRequired(REQUIRED), Length(max=20)])
    exam_on = DateField(_l("Dia para levar o animal ao CCZ"), validators=[DataRequired(REQUIRED)])


class CertificateExamForm(FlaskForm):
    confirmed = RadioField(
        _l("Resultado do exame"),
        choices=choices(
            [
                ("yes", _l("O animal confere com o RGA (plaqueta, microchip, descrição)")),
                ("no", _l("O animal não confere")),
            ]
        ),
        validators=[DataRequired(REQUIRED)],
    )
    note = TextAreaField(_l("Observações do exame"), validators=[Optional(), Length(max=2000)])


class DefinitiveOpenForm(FlaskForm):
    """Another case of definitive apprehension (GRU 87 I-XI; CABO 39 §4)."""

    definitive_article = StringField(
        _l("Artigo da lei (por exemplo, GRU 87 I)"),
        validators=[DataRequired(REQUIRED), Length(max=60)],
    )
    definitive_reason = TextAreaField(
        _l("Motivo"), validators=[DataRequired(REQUIRED), Length(max=2000)]
    )


class LaudoForm(FlaskForm):
    """The vet's laudo proposing euthanasia (Lei 14.228/2021, art. 2º §1º)."""

    vet_report = TextAreaField(
        _l("Laudo técnico (doença, exames, prognóstico)"),
        validators=[DataRequired(REQUIRED), Length(max=5000)],
    )
    vet_crmv = StringField(
        _l("CRMV do veterinário responsável"), validators=[DataRequired(REQUIRED), Length(max=20)]
    )
    lab_exam = StringField(
        _l("Exame laboratorial (quando couber)"), validators=[Optional(), Length(max=300)]
    )
    infectious = BooleanField(
        _l(
            "Doença infectocontagiosa incurável com risco à saúde pública (as entidades não "
            "podem resgatar o animal)"
        )
    )
    laudo_file = FileField(_l("Arquivo do laudo assinado (PDF ou foto, opcional)"))


WITHDRAW_PREFIX = "retirada"  # the capture page also has a destination "reason" field


class LaudoWithdrawForm(FlaskForm):
    """A vet withdraws a laudo; the reason is audited and the NGOs told get a notice."""

    reason = TextAreaField(
        _l("Por que o laudo é retirado"), validators=[DataRequired(REQUIRED), Length(max=2000)]
    )


class NgoClaimForm(FlaskForm):
    """An NGO claims the animal a laudo proposed to euthanise (Lei 14.228/2021, art. 2º §2º)."""

    organization_id = SelectField(_l("Entidade"), validators=[DataRequired(REQUIRED)])
    confirm = BooleanField(
        _l("Nossa entidade assume a guarda e os cuidados do animal"),
        validators=[DataRequired(_l("Confirme que a entidade assume o animal."))],
    )


class _CheckForm(FlaskForm):
    """The "conferir código" forms: GET, no CSRF (nothing changes), one code field each."""

    class Meta:
        csrf = False


class CertificateCheckForm(_CheckForm):
    certidao = StringField(
        _l("Código da certidão (por exemplo CNC-ABCD234567)"),
        validators=[Optional(), Length(max=20)],
    )


class LicenceCheckForm(_CheckForm):
    licenca = StringField(
        _l("Código da licença (impresso no documento)"), validators=[Optional(), Length(max=20)]
    )


class OnSiteCheckForm(_CheckForm):
    no_local = StringField(
        _l("Código do registro feito no local (impresso no documento)"),
        validators=[Optional(), Length(max=20)],
    )


class DocumentCheckForm(_CheckForm):
    number = StringField(
        _l("Número do documento de fiscalização (notificação, auto ou multa)"),
        validators=[Optional(), Length(max=20)],
    )

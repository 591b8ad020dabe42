"""Forms of the procedure: issuing, service, petitions, decisions, verification."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, MultipleFileField
from wtforms import (
    BooleanField,
    DateField,
    DateTimeLocalField,
    DecimalField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import DataRequired, InputRequired, Length, NumberRange, Optional

REQUIRED = _l("Preencha este campo.")
OTHER_PROVISION = "outra"  # the only free text: a provision the profile does not list


class IssueForm(FlaskForm):
    kind = SelectField(_l("Documento"), validators=[DataRequired(REQUIRED)])
    name = StringField(
        _l("Nome do autuado (pessoa ou razão social)"),
        validators=[DataRequired(REQUIRED), Length(max=200)],
    )
    cpf = StringField(_l("CPF"), validators=[Optional(), Length(max=20)])
    cnpj = StringField(_l("CNPJ"), validators=[Optional(), Length(max=20)])
    activity = StringField(
        _l("Ramo de atividade (estabelecimento)"), validators=[Optional(), Length(max=200)]
    )
    address = StringField(_l("Endereço do autuado"), validators=[Optional(), Length(max=300)])
    fact = TextAreaField(_l("Fato constitutivo da infração"), validators=[DataRequired(REQUIRED)])
    place = StringField(_l("Local do fato"), validators=[DataRequired(REQUIRED), Length(max=300)])
    occurred_at = DateTimeLocalField(
        _l("Data e hora do fato"),
        format="%Y-%m-%dT%H:%M",
        validators=[DataRequired(_l("Informe a data e a hora."))],
    )
    legal_provision = SelectField(
        _l("Dispositivo legal transgredido"),
        validators=[DataRequired(_l("Escolha o dispositivo transgredido."))],
    )
    provision_other = StringField(_l("Outra disposição"), validators=[Optional(), Length(max=200)])
    penalty_provision = StringField(
        _l("Dispositivo que comina a penalidade"), validators=[Optional(), Length(max=200)]
    )
    required_action = TextAreaField(_l("Providência exigida"), validators=[Optional()])
    comply_term = SelectField(_l("Prazo para sanar"), validators=[Optional()])
    severity = SelectField(_l("Gravidade da infração (multa)"), validators=[Optional()])
    specific = SelectField(_l("Infração com multa própria na lei"), validators=[Optional()])
    units = DecimalField(
        _l("Multa em unidades fiscais"), places=2, validators=[Optional(), NumberRange(min=0)]
    )
    units_reason = TextAreaField(_l("Motivo do valor escolhido"), validators=[Optional()])
    animals = IntegerField(
        _l("Número de animais"), default=1, validators=[Optional(), NumberRange(min=1, max=999)]
    )
    animal_died = RadioField(
        _l("O animal morreu?"), default="no", choices=[("no", _l("Não")), ("yes", _l("Sim"))]
    )
    notified_on = DateField(_l("Data em que a pessoa foi intimada"), validators=[Optional()])
    joint_name = StringField(
        _l("Nome da outra pessoa multada pelo mesmo fato"), validators=[Optional(), Length(max=200)]
    )
    joint_cpf = StringField(_l("CPF da outra pessoa"), validators=[Optional(), Length(max=20)])
    expense_transport = StringField(_l("Despesa com transporte (R$)"), validators=[Optional()])
    expense_food = StringField(_l("Despesa com alimentação (R$)"), validators=[Optional()])
    expense_veterinary = StringField(
        _l("Despesa com assistência veterinária (R$)"), validators=[Optional()]
    )
    expense_other = StringField(_l("Outras despesas (R$)"), validators=[Optional()])
    consequence = SelectField(_l("Consequência da reincidência"), validators=[Optional()])
    measures = TextAreaField(_l("Medidas sanitárias aplicadas"), validators=[Optional()])
    definitive = BooleanField(_l("Apreensão definitiva / perda da posse (registrada na pessoa)"))
    agent_title = StringField(_l("Seu cargo"), validators=[DataRequired(REQUIRED), Length(max=100)])
    # GRU 87 V-VI: the motive of the autuação, counted for the definitive apprehension
    repeat_motive = SelectField(_l("Motivo da autuação (reincidência)"), validators=[Optional()])
    # GRU 89: interdição of a criação for human consumption
    interdiction = BooleanField(
        _l("Interdição: criação destinada ao consumo humano, animais para abatedouro licenciado")
    )
    # VV 23 II: the laudo period of a maus-tratos notice
    laudo_every_days = IntegerField(
        _l("Laudo veterinário a cada (dias)"),
        validators=[Optional(), NumberRange(min=1, max=999, message=_l("Informe de 1 a 999."))],
    )


class LaudoForm(FlaskForm):
    """VV 23 II: the owner sends the periodic veterinary laudo."""

    laudo = FileField(_l("Laudo veterinário (PDF ou foto)"))
    note = TextAreaField(_l("Observação (opcional)"), validators=[Optional(), Length(max=1000)])


class LaudoReceivedForm(FlaskForm):
    """VV 23 II: staff record a laudo presented on paper at the CCZ."""

    received_on = DateField(
        _l("Data em que o laudo foi apresentado"),
        validators=[InputRequired(_l("Informe a data."))],
    )
    note = TextAreaField(_l("Observação (opcional)"), validators=[Optional(), Length(max=1000)])


class AnimalAddressForm(FlaskForm):
    """VV 23 II: the owner reports a change of the animal's address."""

    address = StringField(
        _l("Novo endereço do animal"),
        validators=[
            DataRequired(REQUIRED),
            Length(
                min=8,
                max=300,
                message=_l("Informe o novo endereço do animal: rua, número, bairro e cidade."),
            ),
        ],
    )


class ServiceForm(FlaskForm):
    method = RadioField(
        _l("Como o autuado tomou ciência"), validators=[InputRequired(_l("Escolha uma opção."))]
    )
    service_on = DateField(
        _l("Data (assinatura, AR ou publicação)"), validators=[InputRequired(_l("Informe a data."))]
    )
    note = TextAreaField(_l("Observação (obrigatória em caso de recusa)"), validators=[Optional()])


class PetitionForm(FlaskForm):
    text = TextAreaField(
        _l("Suas razões"), validators=[DataRequired(_l("Escreva as suas razões."))]
    )
    attachments = MultipleFileField(_l("Documentos (PDF ou foto; opcional)"))
    power_of_attorney = FileField(_l("Procuração (obrigatória para representante)"))


class DecisionForm(FlaskForm):
    outcome = RadioField(
        _l("Decisão"),
        choices=[("deny", _l("Indeferir")), ("grant", _l("Deferir"))],
        validators=[InputRequired(_l("Escolha a decisão."))],
    )
    reason = TextAreaField(_l("Fundamentação"), validators=[DataRequired(REQUIRED)])
    method = RadioField(
        _l("Ciência da decisão"), validators=[InputRequired(_l("Escolha uma opção."))]
    )
    service_on = DateField(
        _l("Data da ciência (ou da publicação)"), validators=[InputRequired(_l("Informe a data."))]
    )
    ar_on = DateField(
        _l("Data do AR, se também notificado por carta (GRU 109 §2)"), validators=[Optional()]
    )
    # "1" once the judge read the decision's consequences on the confirmation page (issue 25)
    confirmed = HiddenField()


class VerifyForm(FlaskForm):
    number = StringField(
        _l("Número do documento"), validators=[DataRequired(REQUIRED), Length(max=20)]
    )
    code = StringField(
        _l("Código de acesso (impresso no documento)"), validators=[Optional(), Length(max=20)]
    )


class InterdictionExpensesForm(FlaskForm):
    """GRU 89 §ú: what the trip of an interdição to the slaughterhouse cost (amounts in reais; the
    page shows only the kinds the profile lists)."""

    trip_on = DateField(
        _l("Data em que os animais foram levados ao abatedouro"),
        validators=[InputRequired(_l("Informe a data."))],
    )
    slaughterhouse = StringField(
        _l("Abatedouro licenciado (nome e registro)"),
        validators=[DataRequired(REQUIRED), Length(max=200)],
    )
    transport = StringField(
        _l("Transporte dos animais (R$)"), validators=[Optional(), Length(max=20)]
    )
    authority_escort = StringField(
        _l("Acompanhamento da autoridade sanitária (R$)"), validators=[Optional(), Length(max=20)]
    )
    staff_escort = StringField(
        _l("Acompanhamento de outros servidores (R$)"), validators=[Optional(), Length(max=20)]
    )
    detail = TextAreaField(
        _l("Como os valores foram calculados (opcional)"), validators=[Optional(), Length(max=500)]
    )

"""Admin forms."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, SelectField, StringField
from wtforms.validators import DataRequired, Length, Optional, ValidationError

from portal.forms import choices
from portal.models import Role
from portal.services.money import parse_brl


class UnitValueForm(FlaskForm):
    unit = SelectField(
        _l("Unidade"),
        choices=choices(
            [("UFM", "UFM"), ("UFG", "UFG"), ("UFIR", "UFIR"), ("MW", _l("Salário mínimo"))]
        ),
    )
    value = StringField(
        _l("Valor (R$)"),
        validators=[DataRequired(_l("Informe o valor."))],
        render_kw={"inputmode": "decimal", "placeholder": "0,00"},
    )
    effective_from = DateField(
        _l("Vigente a partir de"),
        validators=[DataRequired(_l("Informe a data de início da vigência."))],
    )
    note = StringField(_l("Fonte (decreto, portaria)"), validators=[Optional(), Length(max=200)])

    def validate_value(self, field: StringField) -> None:
        try:
            if parse_brl(field.data) <= 0:
                raise ValueError
        except (ValueError, ArithmeticError) as err:
            raise ValidationError(_l("Valor inválido. Use o formato 1.234,56.")) from err


class HolidayForm(FlaskForm):
    day = DateField(_l("Data"), validators=[DataRequired(_l("Informe a data."))])
    name = StringField(
        _l("Nome do feriado"), validators=[DataRequired(_l("Informe o nome.")), Length(max=120)]
    )
    repeats_yearly = BooleanField(_l("Repete todo ano nesta data"))


class UserSearchForm(FlaskForm):
    """Search by name, e-mail or CPF. A POST form: a CPF never travels in a URL."""

    q = StringField(
        _l("Nome, e-mail ou CPF"),
        validators=[DataRequired(_l("Digite algo para buscar.")), Length(min=3, max=200)],
    )


class RolesForm(FlaskForm):
    """One checkbox per role (``role_<value>``) and whether the account may sign in."""

    active = BooleanField(_l("Conta ativa (pode entrar)"))

    def wanted_roles(self) -> set[str]:
        return {role.value for role in Role if self[f"role_{role.value}"].data}


for _role in Role:
    setattr(RolesForm, f"role_{_role.value}", BooleanField(_role.value))


class AuditFilterForm(FlaskForm):
    """The audit log's filters, read from the URL (GET, so a filtered view can be shared)."""

    class Meta:
        csrf = False

    quem = StringField(_l("Quem (nome ou e-mail)"), validators=[Optional(), Length(max=200)])
    acao = SelectField(_l("Ação"), validators=[Optional()])
    tipo = SelectField(_l("Tipo de objeto"), validators=[Optional()])
    objeto = StringField(
        _l("Objeto (RGA, protocolo ou número da guia)"), validators=[Optional(), Length(max=40)]
    )
    de = DateField(_l("De"), validators=[Optional()])
    ate = DateField(_l("Até"), validators=[Optional()])

    def __init__(self, *args: object, **kwargs: object) -> None:
        from portal.services.audit import SUBJECT_TYPE_LABELS, action_labels

        super().__init__(*args, **kwargs)
        self.acao.choices = choices(
            [
                ("", _l("Todas")),
                *sorted(
                    ((code, str(label)) for code, label in action_labels().items()),
                    key=lambda p: p[1],
                ),
            ]
        )
        self.tipo.choices = choices(
            [
                ("", _l("Todos")),
                *sorted(
                    ((code, str(label)) for code, label in SUBJECT_TYPE_LABELS.items()),
                    key=lambda p: p[1],
                ),
            ]
        )

    def validate_quem(self, field: StringField) -> None:
        digits = "".join(ch for ch in field.data or "" if ch.isdigit())
        if len(digits) >= 11:  # a CPF must not travel in a URL or an access log
            raise ValidationError(_l("Busque pelo nome ou pelo e-mail, não pelo CPF."))

    def validate_ate(self, field: DateField) -> None:
        if field.data and self.de.data and field.data < self.de.data:
            raise ValidationError(_l("A data final deve ser igual ou posterior à inicial."))

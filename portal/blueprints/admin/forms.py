"""Admin forms."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import DateField, SelectField, StringField
from wtforms.validators import DataRequired, Length, Optional, ValidationError

from portal.forms import choices
from portal.services.money import parse_brl


class UnitValueForm(FlaskForm):
    unit = SelectField(_l("Unidade"), choices=choices([
        ("UFM", "UFM"), ("UFG", "UFG"), ("UFIR", "UFIR"), ("MW", _l("Salário mínimo"))]))
    value = StringField(_l("Valor (R$)"), validators=[DataRequired(_l("Informe o valor."))],
                        render_kw={"inputmode": "decimal", "placeholder": "0,00"})
    effective_from = DateField(_l("Vigente a partir de"), validators=[
        DataRequired(_l("Informe a data de início da vigência."))])
    note = StringField(_l("Fonte (decreto, portaria)"), validators=[Optional(), Length(max=200)])

    def validate_value(self, field: StringField) -> None:
        try:
            if parse_brl(field.data) <= 0:
                raise ValueError
        except (ValueError, ArithmeticError) as err:
            raise ValidationError(_l("Valor inválido. Use o formato 1.234,56.")) from err


class HolidayForm(FlaskForm):
    day = DateField(_l("Data"), validators=[DataRequired(_l("Informe a data."))])
    name = StringField(_l("Nome do feriado"), validators=[DataRequired(_l("Informe o nome.")),
                                                          Length(max=120)])


class UserSearchForm(FlaskForm):
    """Search by name, e-mail or CPF. A POST form: a CPF never travels in a URL."""

    q = StringField(_l("Nome, e-mail ou CPF"), validators=[DataRequired(_l("Digite algo para buscar.")),
                                                          Length(min=3, max=200)])


class RolesForm(FlaskForm):
    pass  # role checkboxes are added per request (see routes.user_detail)

"""Profile form: contact data and address; the password change and contact-suggestion forms."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import EmailField, PasswordField, RadioField, SelectField, StringField, TelField
from wtforms.validators import DataRequired, Email, Length, Optional, Regexp

from portal.blueprints.auth.forms import ChangePasswordForm, validate_no_bidi_controls
from portal.forms import UF_CHOICES, choices

__all__ = ["AddressMixin", "ChangePasswordForm", "ProfileForm", "SuggestionForm"]


class AddressMixin:
    cep = StringField(
        _l("CEP"),
        validators=[
            DataRequired(_l("Informe o CEP.")),
            Regexp(r"^\d{5}-?\d{3}$", message=_l("CEP deve ter 8 dígitos, por exemplo 07000-000.")),
        ],
        render_kw={"inputmode": "numeric", "autocomplete": "postal-code"},
    )
    street = StringField(
        _l("Logradouro"),
        validators=[DataRequired(_l("Informe a rua.")), Length(max=200), validate_no_bidi_controls],
        render_kw={"autocomplete": "address-line1"},
    )
    number = StringField(
        _l("Número"), validators=[DataRequired(_l("Informe o número (ou S/N).")), Length(max=20)]
    )
    complement = StringField(
        _l("Complemento"),
        validators=[Optional(), Length(max=100), validate_no_bidi_controls],
        render_kw={"autocomplete": "address-line2"},
    )
    district = StringField(
        _l("Bairro"),
        validators=[
            DataRequired(_l("Informe o bairro.")),
            Length(max=100),
            validate_no_bidi_controls,
        ],
    )
    city = StringField(
        _l("Cidade"),
        validators=[
            DataRequired(_l("Informe a cidade.")),
            Length(max=100),
            validate_no_bidi_controls,
        ],
        render_kw={"autocomplete": "address-level2"},
    )
    state = SelectField(_l("UF"), choices=UF_CHOICES, default="SP")
    housing_type = RadioField(
        _l("Tipo de moradia"),
        choices=choices(
            [("house", _l("Casa")), ("apartment_condo", _l("Apartamento em condomínio"))]
        ),
        default="house",
    )


class ProfileForm(AddressMixin, FlaskForm):
    email = EmailField(
        _l("E-mail"),
        validators=[DataRequired(_l("Campo obrigatório.")), Email(_l("E-mail inválido."))],
    )
    phone = TelField(_l("Telefone"), validators=[Optional(), Length(max=30)])
    # Asked only when the e-mail changes: a borrowed session must not redirect the account.
    current_password = PasswordField(
        _l("Senha atual (para trocar o e-mail)"),
        validators=[Optional()],
        render_kw={"autocomplete": "current-password"},
    )


class SuggestionForm(FlaskForm):
    """Accept a contact suggestion: the password is asked as for any e-mail change."""

    current_password = PasswordField(
        _l("Senha atual"), validators=[Optional()], render_kw={"autocomplete": "current-password"}
    )

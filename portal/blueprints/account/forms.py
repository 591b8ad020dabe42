"""Profile form: contact data and address."""

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import EmailField, RadioField, SelectField, StringField, TelField
from portal.forms import choices
from wtforms.validators import DataRequired, Email, Length, Optional, Regexp

UF_CHOICES = choices((uf, uf) for uf in (
    "AC AL AP AM BA CE DF ES GO MA MT MS MG PA PB PR PE PI RJ RN RS RO RR SC SP SE TO").split())


class AddressMixin:
    cep = StringField(_l("CEP"), validators=[DataRequired(_l("Informe o CEP.")),
                                             Regexp(r"^\d{5}-?\d{3}$", message=_l(
                                                 "CEP deve ter 8 dígitos, por exemplo 07000-000."))],
                      render_kw={"inputmode": "numeric", "autocomplete": "postal-code"})
    street = StringField(_l("Logradouro"), validators=[DataRequired(_l("Informe a rua.")),
                                                       Length(max=200)],
                         render_kw={"autocomplete": "address-line1"})
    number = StringField(_l("Número"), validators=[DataRequired(_l("Informe o número (ou S/N).")),
                                                   Length(max=20)])
    complement = StringField(_l("Complemento"), validators=[Optional(), Length(max=100)],
                             render_kw={"autocomplete": "address-line2"})
    district = StringField(_l("Bairro"), validators=[DataRequired(_l("Informe o bairro.")),
                                                     Length(max=100)])
    city = StringField(_l("Cidade"), validators=[DataRequired(_l("Informe a cidade.")),
                                                 Length(max=100)],
                       render_kw={"autocomplete": "address-level2"})
    state = SelectField(_l("UF"), choices=UF_CHOICES, default="SP")
    housing_type = RadioField(_l("Tipo de moradia"), choices=choices([
        ("house", _l("Casa")), ("apartment_condo", _l("Apartamento em condomínio"))]),
        default="house")


class ProfileForm(AddressMixin, FlaskForm):
    email = EmailField(_l("E-mail"), validators=[DataRequired(_l("Campo obrigatório.")),
                                                 Email(_l("E-mail inválido."))])
    phone = TelField(_l("Telefone"), validators=[Optional(), Length(max=30)])

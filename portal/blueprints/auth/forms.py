"""Forms of the auth domain. Labels are lazily translated; messages are in Portuguese."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, DateField, EmailField, PasswordField, StringField, TelField
from wtforms.validators import DataRequired, Email, EqualTo, Length, ValidationError

from portal.forms import not_future
from portal.services.identity import clean_cpf

REQUIRED = _l("Campo obrigatório.")


def validate_cpf_field(form: FlaskForm, field: StringField) -> None:
    if field.data and not clean_cpf(field.data):
        raise ValidationError(_l("CPF inválido: confira os 11 dígitos."))


def validate_password_strength(form: FlaskForm, field: PasswordField) -> None:
    """The one password rule (auth.passwords), against the person's own name, e-mail and CPF:
    typed in the same form (sign-up) or those of ``form.person`` (set by the view)."""
    from portal.blueprints.auth.passwords import password_problem

    person = getattr(form, "person", None)

    def typed_or_known(name: str) -> str | None:
        typed = getattr(form, name, None)
        if typed is not None and typed.data:
            return str(typed.data)
        return getattr(person, name, None)

    problem = password_problem(
        field.data or "",
        full_name=typed_or_known("full_name"),
        email=typed_or_known("email"),
        cpf=typed_or_known("cpf"),
    )
    if problem:
        raise ValidationError(problem)


# Invisible characters that reorder text (LRE, RLE, PDF, LRO, RLO, LRI, RLI, FSI, PDI, LRM, RLM):
# a name with them shows reversed or disguised on staff screens, cards and e-mails.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f")


def validate_no_bidi_controls(form: FlaskForm, field: StringField) -> None:
    if field.data and any(ch in BIDI_CONTROLS for ch in field.data):
        raise ValidationError(
            _l(
                "O texto contém caracteres invisíveis de controle de direção. "
                "Digite-o novamente, sem copiar e colar."
            )
        )


def new_password(label: Any) -> PasswordField:
    """A new password, checked for strength (length, common passwords)."""
    return PasswordField(
        label,
        validators=[DataRequired(REQUIRED), validate_password_strength],
        render_kw={"autocomplete": "new-password"},
    )


def repeat_password(label: Any) -> PasswordField:
    """The new password typed again; must match the field named ``password``."""
    return PasswordField(
        label,
        validators=[DataRequired(REQUIRED), EqualTo("password", _l("As senhas não conferem."))],
        render_kw={"autocomplete": "new-password"},
    )


class SignupForm(FlaskForm):
    full_name = StringField(
        _l("Nome completo"),
        validators=[DataRequired(REQUIRED), Length(max=200), validate_no_bidi_controls],
        render_kw={"autocomplete": "name"},
    )
    cpf = StringField(
        _l("CPF"),
        validators=[DataRequired(REQUIRED), validate_cpf_field],
        render_kw={"inputmode": "numeric", "autocomplete": "off", "placeholder": "000.000.000-00"},
    )
    birth_date = DateField(
        _l("Data de nascimento"),
        validators=[DataRequired(_l("Informe a data de nascimento.")), not_future],
        render_kw={"autocomplete": "bday"},
    )
    email = EmailField(
        _l("E-mail"),
        validators=[DataRequired(REQUIRED), Email(_l("E-mail inválido.")), Length(max=254)],
        render_kw={"autocomplete": "email"},
    )
    phone = TelField(_l("Telefone"), validators=[Length(max=30)], render_kw={"autocomplete": "tel"})
    password = new_password(_l("Senha"))
    password_confirm = repeat_password(_l("Repita a senha"))
    accept_privacy = BooleanField(
        _l("Li e aceito o aviso de privacidade (LGPD)"),
        validators=[
            DataRequired(_l("É preciso aceitar o aviso de privacidade para criar a conta."))
        ],
    )


class LoginForm(FlaskForm):
    email = EmailField(
        _l("E-mail"), validators=[DataRequired(REQUIRED)], render_kw={"autocomplete": "username"}
    )
    password = PasswordField(
        _l("Senha"),
        validators=[DataRequired(REQUIRED)],
        render_kw={"autocomplete": "current-password"},
    )
    remember = BooleanField(_l("Manter-me conectado"))


class ResetRequestForm(FlaskForm):
    email = EmailField(
        _l("E-mail"), validators=[DataRequired(REQUIRED), Email(_l("E-mail inválido."))]
    )


class ResetPasswordForm(FlaskForm):
    person: Any = None  # whose password it is: the view sets it (see validate_password_strength)
    password = new_password(_l("Nova senha"))
    password_confirm = repeat_password(_l("Repita a nova senha"))


class ClaimForm(FlaskForm):
    """The reader of the e-mail on file activates a record a clinic created."""

    person: Any = None  # the record being claimed: the view sets it
    password = new_password(_l("Crie uma senha"))
    password_confirm = repeat_password(_l("Repita a senha"))
    accept_privacy = BooleanField(
        _l("Li e aceito o aviso de privacidade (LGPD)"),
        validators=[
            DataRequired(_l("É preciso aceitar o aviso de privacidade para criar a conta."))
        ],
    )


class ChangePasswordForm(FlaskForm):
    person: Any = None  # the signed-in person: the view sets it
    current_password = PasswordField(
        _l("Senha atual"),
        validators=[DataRequired(REQUIRED)],
        render_kw={"autocomplete": "current-password"},
    )
    password = new_password(_l("Nova senha"))
    password_confirm = repeat_password(_l("Repita a nova senha"))


class CodeForm(FlaskForm):
    code = StringField(
        _l("Código do aplicativo autenticador"),
        validators=[DataRequired(_l("Digite o código.")), Length(max=20)],
        render_kw={"inputmode": "numeric", "autocomplete": "one-time-code"},
    )


class ConfirmPasswordForm(FlaskForm):
    password = PasswordField(
        _l("Sua senha"),
        validators=[DataRequired(_l("Digite sua senha."))],
        render_kw={"autocomplete": "current-password"},
    )

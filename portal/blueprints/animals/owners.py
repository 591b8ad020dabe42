"""Owners: the person an establishment registers an animal for (found by CPF or created without a
password, to be claimed later), and the address confirmed in the registration wizard."""

from __future__ import annotations

from typing import Any

from email_validator import EmailNotValidError, validate_email
from flask_babel import gettext as _
from sqlalchemy import func, select

from portal.blueprints.animals.common import (
    UF_CODES,
    AnimalError,
    AnimalErrors,
    OwnerData,
    clean_text,
)
from portal.blueprints.animals.household import move_animals_with_owner
from portal.extensions import db
from portal.models import (
    ApiClient,
    ContactSuggestion,
    Role,
    User,
)
from portal.models.user import CONTACT_FIELDS
from portal.services.identity import clean_cep, clean_cpf


def find_or_create_owner(data: OwnerData, api_client: ApiClient | None = None) -> User:
    """The person with this CPF, or a new citizen record without password (created by
    ``api_client``) that they claim at sign-up through a link sent to its e-mail.

    Only the establishment that created a record may still correct it, until it is claimed.
    Anyone else's record keeps its contact data (e-mail, phone, address): a changed e-mail would
    hand the account to whoever reads it. Different values wait as a ContactSuggestion the person
    accepts or dismisses; other empty fields (and a wholly empty address) are filled.

    Raises AnimalErrors with fields under "owner."."""
    problems: list[AnimalError] = []
    cpf = clean_cpf(data.cpf or "")
    if not (data.cpf or "").strip():
        problems.append(AnimalError("owner.cpf", "required", _("Informe o CPF do proprietário.")))
    elif cpf is None:
        problems.append(
            AnimalError("owner.cpf", "invalid_cpf", _("CPF inválido: confira os 11 dígitos."))
        )
    name = clean_text(data.name)
    if not name:
        problems.append(AnimalError("owner.name", "required", _("Informe o nome do proprietário.")))
    email: str | None = None
    if not (data.email or "").strip():
        problems.append(
            AnimalError(
                "owner.email",
                "required",
                _(
                    "Informe o e-mail do proprietário: com ele a pessoa acessa o cadastro no "
                    "portal."
                ),
            )
        )
    else:
        try:
            checked = validate_email(data.email.strip(), check_deliverability=False)
            email = checked.normalized.lower()
        except EmailNotValidError:
            problems.append(AnimalError("owner.email", "invalid", _("E-mail inválido.")))
    address = {k: clean_text(v) for k, v in (data.address or {}).items()}
    cep = clean_cep(address.get("cep") or "")
    for key, message in (
        ("street", _("Informe o logradouro.")),
        ("number", _("Informe o número.")),
        ("district", _("Informe o bairro.")),
        ("city", _("Informe a cidade.")),
    ):
        if not address.get(key):
            problems.append(AnimalError(f"owner.address.{key}", "required", message))
    if not address.get("cep"):
        problems.append(AnimalError("owner.address.cep", "required", _("Informe o CEP.")))
    elif cep is None:
        problems.append(
            AnimalError(
                "owner.address.cep", "invalid", _("CEP deve ter 8 dígitos, por exemplo 07000-000.")
            )
        )
    state = (address.get("state") or "").upper() or None
    if state is not None and state not in UF_CODES:
        problems.append(AnimalError("owner.address.state", "invalid", _("UF inválida.")))
    if problems:
        raise AnimalErrors(problems)

    person = db.session.scalar(select(User).where(User.cpf == cpf))
    holder = db.session.scalar(select(User).where(func.lower(User.email) == email))
    if holder is not None and holder is not person:
        raise AnimalError(
            "owner.email",
            "invalid",
            _(
                "Este e-mail já pertence a outra pessoa cadastrada. Confira o e-mail com o "
                "proprietário."
            ),
        )
    fields = {
        "full_name": name,
        "rg": clean_text(data.rg),
        "birth_date": data.birth_date,
        "email": email,
        "phone": clean_text(data.phone),
        "cep": cep,
        "street": address.get("street"),
        "number": address.get("number"),
        "complement": address.get("complement"),
        "district": address.get("district"),
        "city": address.get("city"),
        "state": state,
    }
    client_id = api_client.id if api_client is not None else None
    moved = False  # an existing person whose address was just written: their animals follow
    if person is None:
        person = User(cpf=cpf, housing_type="house", created_by_api_client_id=client_id, **fields)
        person.add_role(Role.CITIZEN)
        db.session.add(person)
    elif (
        not person.has_account
        and client_id is not None
        and person.created_by_api_client_id == client_id
    ):
        for attr, value in fields.items():
            if value is not None:
                setattr(person, attr, value)
        moved = True
    else:
        # The address is one block: filling only the empty pieces (say the complement) of an
        # account holder's address from another address made up a dwelling that does not exist
        # and moved their animals to it. It is taken whole, and only when they have none.
        address_fields = ("cep", "street", "number", "complement", "district", "city", "state")
        has_address = any(getattr(person, attr) for attr in ("cep", "street", "number"))
        for attr, value in fields.items():
            if attr in ("email", "phone") or (attr in address_fields and has_address):
                continue
            if value is not None and getattr(person, attr) in (None, ""):
                setattr(person, attr, value)
                moved = moved or attr in address_fields
        if api_client is not None:
            _suggest_contact(person, api_client, fields)
    db.session.flush()
    if moved:
        move_animals_with_owner(person)
    return person


def _suggest_contact(person: User, api_client: ApiClient, fields: dict[str, Any]) -> None:
    """Keep the contact data an establishment sent for someone else's record, for the person to
    accept or dismiss on their profile (an API client never changes it)."""
    changes = {
        name: value
        for name in CONTACT_FIELDS
        if (value := fields.get(name)) and value != getattr(person, name)
    }
    if not changes:
        return
    pending = db.session.scalars(
        select(ContactSuggestion).where(
            ContactSuggestion.user_id == person.id,
            ContactSuggestion.api_client_id == api_client.id,
            ContactSuggestion.resolved_at.is_(None),
        )
    )
    if any(old.changes() == changes for old in pending):
        return  # the same suggestion again (a retried request)
    db.session.add(
        ContactSuggestion(
            user_id=person.id,
            api_client_id=api_client.id,
            source_name=api_client.name,
            **{name: fields.get(name) for name in CONTACT_FIELDS},
        )
    )


def update_owner_address(
    person: User,
    *,
    cep: str,
    street: str,
    number: str,
    complement: str | None,
    district: str,
    city: str,
    state: str,
    housing_type: str | None,
) -> None:
    """Save the address confirmed in the registration wizard on the person's profile.

    Their active and pending animals move with them (:func:`move_animals_with_owner`)."""
    person.cep = clean_cep(cep)
    person.street = clean_text(street)
    person.number = clean_text(number)
    person.complement = clean_text(complement)
    person.district = clean_text(district)
    person.city = clean_text(city)
    person.state = (state or "").upper() or None
    if housing_type:
        person.housing_type = housing_type
    db.session.flush()
    move_animals_with_owner(person)

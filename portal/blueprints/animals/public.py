"""What anyone may see of a registration (the public page behind the QR code) and the finder's
message relayed to the owner, who stays anonymous."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from portal.blueprints.animals.common import AnimalError, AnimalErrors, clean_text
from portal.extensions import db
from portal.models import (
    Animal,
    FinderMessage,
)
from portal.services.links import strip_links
from portal.services.mail import send_email
from portal.urls import absolute_url

# ---------------------------------------------------------------------------------------------
# Public page and finder messages
# ---------------------------------------------------------------------------------------------


def public_data(animal: Animal) -> dict[str, Any]:
    """What anyone may see of a registration: never the owner's name, CPF, address or phone."""
    photo = None
    if animal.photo is not None and animal.photo.public:
        photo = absolute_url("files.serve", token=animal.photo.token, variant="medium")
    return {
        "rga": animal.rga,
        "name": animal.name,
        "species": animal.species,
        "status": animal.status,
        # Number issued, registration not yet paid and checked (status stays as it was)
        "provisional": animal.provisional,
        "photo_url": photo,
        "public_url": absolute_url("animals.public_rga", number=animal.rga),
    }


def relay_finder_message(
    animal: Animal, *, finder_name: str | None, finder_contact: str, message: str
) -> FinderMessage:
    """Send a finder's message to the owner by e-mail. The finder learns nothing about the owner;
    the owner gets the finder's contact and decides whether to answer. Raises AnimalError.

    Links are taken out of everything relayed: the e-mail comes from the city's address, and a
    stranger must not use it to send the owner to a phishing page ("pague o resgate aqui").
    """
    contact = clean_text(finder_contact)
    text = strip_links((message or "").strip())
    finder_name = strip_links(clean_text(finder_name)) or None
    problems = []
    if not contact:
        problems.append(
            AnimalError(
                "contact",
                "required",
                _("Informe um telefone ou e-mail para o proprietário falar com você."),
            )
        )
    elif strip_links(contact) != contact:
        problems.append(
            AnimalError(
                "contact",
                "link",
                _("Informe um telefone ou e-mail; links não são enviados ao proprietário."),
            )
        )
    if not text:
        problems.append(
            AnimalError("message", "required", _("Escreva onde e quando encontrou o animal."))
        )
    if problems:
        raise AnimalErrors(problems)
    if animal.is_closed:
        raise AnimalError(None, "invalid", _("Este RGA está encerrado."))
    record = FinderMessage(
        animal=animal,
        finder_name=clean_text(finder_name),
        finder_contact=contact or "",
        message=text[:2000],
    )
    db.session.add(record)
    owner = animal.owner
    if owner.email:
        send_email(
            owner.email,
            _("Alguém encontrou %(animal)s", animal=animal.name),
            _(
                "Olá, %(owner)s.\n\nUma pessoa abriu a página pública do RGA %(rga)s "
                "(%(animal)s) e deixou esta mensagem:\n\n%(message)s\n\nNome: %(name)s\n"
                "Contato: %(contact)s\n\n"
                "O portal não mostrou a ela seu nome, CPF, endereço ou telefone. Responda "
                "somente se quiser.",
                owner=owner.full_name,
                rga=animal.rga,
                animal=animal.name,
                message=text[:2000],
                name=record.finder_name or _("(não informado)"),
                contact=contact,
            ),
        )
        record.delivered = True
    db.session.flush()
    return record

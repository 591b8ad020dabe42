"""The contact-suggestion queue of the staff workspace: what establishments sent for people whose
records they did not create, waiting for the person or for staff."""

from __future__ import annotations

from flask import url_for
from flask_babel import lazy_gettext as _l

from portal.blueprints.account import SUGGESTION_ROLES
from portal.blueprints.account.services import pending_queue
from portal.models import ContactSuggestion
from portal.workspace import Column, Queue, QueueRegistry

FIELD_LABELS = {"email": _l("e-mail"), "phone": _l("telefone")}


def changed_fields(suggestion: ContactSuggestion) -> str:
    """What the suggestion would change, in words: "e-mail, telefone, endereço"."""
    changes = suggestion.changes()
    names = [str(label) for key, label in FIELD_LABELS.items() if key in changes]
    if changes.keys() - FIELD_LABELS.keys():
        names.append(str(_l("endereço")))
    return ", ".join(names) or str(_l("nada (já igual ao cadastro)"))


def _link(suggestion: ContactSuggestion) -> str:
    return url_for("contact_suggestions.review", suggestion_id=suggestion.id)


def declare_queues(registry: QueueRegistry) -> None:
    registry.declare(
        Queue(
            key="sugestoes-de-contato",
            title=_l("Sugestões de contato enviadas por estabelecimentos"),
            description=_l(
                "Um estabelecimento informou e-mail, telefone ou endereço diferentes do cadastro "
                "de uma pessoa que ele não cadastrou. Nada muda até a pessoa ou o CCZ decidir."
            ),
            roles=SUGGESTION_ROLES,
            entity=ContactSuggestion,
            rows=pending_queue,
            since=ContactSuggestion.created_at,
            order=ContactSuggestion.created_at,
            link=_link,
            columns=(
                Column(_l("Pessoa"), lambda s: s.user.full_name),
                Column(_l("Enviado por"), lambda s: s.source_name),
                Column(_l("Muda"), changed_fields),
            ),
        )
    )

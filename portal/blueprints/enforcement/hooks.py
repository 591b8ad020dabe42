"""The citizen's to-do list: deadlines of documents addressed to them (portal.services.todo),
wired by ``portal.blueprints.enforcement.init_app``."""

from __future__ import annotations

from collections.abc import Iterator

from flask import url_for
from flask_babel import gettext as _

from portal.models import User
from portal.services.clock import current_profile
from portal.services.todo import TodoItem


def todo(user: User) -> Iterator[TodoItem]:
    from portal.blueprints.enforcement.services import current_deadline, documents_for

    profile = current_profile()
    for doc in documents_for(user):
        due, what = current_deadline(doc, profile)
        if due is None:
            continue
        yield TodoItem(
            "enforcement",
            _(
                "Documento %(n)s: prazo para %(what)s até %(d)s",
                n=doc.number,
                what=what,
                d=due.strftime("%d/%m/%Y"),
            ),
            url_for("enforcement.detail", doc_id=doc.id),
            _("Ver o documento"),
            5,
        )

"""Enforcement (GRU 70-114; BJP 30; VV 23; CABO 38-40): notices, infractions, penalties,
defence and appeals online.

Modules: ``services`` (the procedure's rules, re-exported from ``common``, ``issuing``,
``consequences``, ``serving``, ``fines``, ``petitions``, ``decisions``, ``review``, ``reading``;
``codes`` derives the printed access codes), ``issue_form`` (the agent's form), ``routes`` (the
addressee's "Minhas notificações" and the public verification page; ``routes.duties``, the VV 23 II
laudo and address), ``staff`` (agents issue, superiors decide, the dívida ativa export;
``staff.duties``, a laudo on paper; ``staff.interdiction``, GRU 89 §ú expenses;
``staff.representation``, GRU 107 §2 III), ``documents`` (PDFs with a QR code), ``queues``,
``reminders`` and ``hooks`` (to-do).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import click
from flask import Blueprint, Flask
from flask.cli import with_appcontext

bp = Blueprint("enforcement", __name__)


def init_app(app: Flask) -> None:
    """What enforcement adds: menu entry, staff tile, the daily command, the LGPD section, the
    citizen's to-do, queues and reminders, and its answers to the lower domains' questions (the
    auto de apreensão of a capture, the consequences on a person, an establishment's notices)."""
    from flask_babel import lazy_gettext as _l

    from portal.access import STAFF, is_signed_in
    from portal.blueprints.enforcement import attachments, consequences, hooks, queues, reminders
    from portal.blueprints.enforcement.labels import AUDIT_LABELS
    from portal.wiring import wiring

    wired = wiring(app)
    wired.audit_labels(AUDIT_LABELS)
    wired.nav(_l("Minhas notificações"), "enforcement.mine", order=60, visible=is_signed_in)
    wired.admin_link(_l("Fiscalização: notificações e autos"), "enforcement.staff_list", STAFF)
    wired.command(_daily)
    wired.exporter("notificacoes", _export)
    wired.todo("enforcement", hooks.todo)
    wired.payment_hold(hooks.fine_on_hold)
    wired.registration_refusal(consequences.registration_refusal)  # VV 23 V; GRU 88 §4…
    wired.sanctions_for_cpf(hooks.cpf_sanctions)  # adoption's eligibility
    # GRU 87: a capture's definitive apprehension is decided by an auto de apreensão
    wired.apprehension_notice(consequences.issue_capture_apprehension)
    wired.apprehension_of_capture(hooks.capture_apprehension)  # the capture's staff page
    wired.consequences_for_person(hooks.person_consequences)  # the staff's animal page
    wired.notices_for_cnpj(hooks.cnpj_notices)  # the establishment's file (GRU 12 III-VII)
    wired.file_rule(attachments.PURPOSE, attachments.addressee_may_see)
    # VV 23 II: the overdue-laudo queue and the laudo reminder only where the law has them
    remedy = app.extensions["portal_profile"].notices.remedy_duties
    wired.queues(partial(queues.declare_queues, remedy=remedy))
    wired.reminders(partial(reminders.declare_reminders, remedy=remedy))


@click.command("enforcement-daily")
@with_appcontext
def _daily() -> None:
    """Close documents whose petition term lapsed and mark overdue fines for collection (GRU
    100); run once a day, safe to repeat."""
    from portal.blueprints.enforcement.decisions import close_lapsed
    from portal.blueprints.enforcement.fines import mark_for_collection
    from portal.extensions import db
    from portal.services.clock import current_profile, local_today

    today = local_today()
    closed = close_lapsed(current_profile(), today)
    marked = mark_for_collection(today)
    db.session.commit()
    click.echo(f"{closed} documentos definitivos; {len(marked)} multas para cobrança.")


def _export(user: Any) -> list[dict[str, Any]]:
    """LGPD download: the documents addressed to the person (no access codes)."""
    from portal.blueprints.enforcement.reading import documents_for

    return [
        {
            "numero": d.number,
            "tipo": d.kind,
            "situacao": d.status,
            "fato": d.fact,
            "local": d.place,
            "data": d.occurred_at,
            "dispositivo": d.legal_provision,
            "ciencia": d.knowledge_on,
            "multa_centavos": d.fine_cents,
        }
        for d in documents_for(user)
    ]


from portal.blueprints.enforcement import routes, staff  # noqa: E402,F401,I001

"""Enforcement (GRU 70-114; BJP 30; VV 23; CABO 38-40): notices, infractions, penalties,
defence and appeals online.

Modules: ``services`` (the procedure's rules, re-exported from ``common``, ``issuing``,
``consequences``, ``serving``, ``fines``, ``petitions``, ``decisions``, ``review``, ``reading``;
``codes`` derives the printed access codes), ``issue_form`` (the agent's form), ``routes`` (the
addressee's "Minhas notificações" and the public verification page), ``staff`` (agents issue,
superiors decide, the dívida ativa export), ``documents`` (PDFs with a QR code), ``queues``,
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
    """What enforcement adds: menu entry, staff tile, label filter, the daily command, the LGPD
    section, the citizen's to-do, queues and reminders."""
    from portal.blueprints.enforcement.labels import AUDIT_LABELS
    from portal.wiring import wiring as _wiring

    _wiring(app).audit_labels(AUDIT_LABELS)
    from flask_babel import lazy_gettext as _l

    from portal.access import STAFF, is_signed_in
    from portal.blueprints.enforcement import attachments, consequences, hooks, queues, reminders
    from portal.wiring import wiring

    wired = wiring(app)
    wired.nav(_l("Minhas notificações"), "enforcement.mine", order=60, visible=is_signed_in)
    wired.admin_link(_l("Fiscalização: notificações e autos"), "enforcement.staff_list", STAFF)
    app.jinja_env.globals["enforcement_label"] = _label
    # the capture page links its auto de apreensão (GRU 87 §ú), the document page its capture
    from portal.blueprints.impound.apprehension import apprehension_document

    app.jinja_env.globals["apprehension_document"] = apprehension_document
    app.jinja_env.globals["person_consequences"] = _person_consequences
    # GRU 87 V-VI (computed from the record) and VV 23 II (what was presented) on document pages
    app.jinja_env.globals["enforcement_repeat"] = _repeat_finding
    app.jinja_env.globals["remedy_filings"] = _remedy_filings
    from portal.services.clock import local_today

    app.jinja_env.globals["remedy_today"] = local_today
    wired.command(_daily)
    wired.exporter("notificacoes", _export)
    wired.todo("enforcement", hooks.todo)
    wired.payment_hold(hooks.fine_on_hold)
    wired.registration_refusal(consequences.registration_refusal)  # VV 23 V; GRU 88 §4…
    wired.sanctions_for_cpf(consequences.consequences_for_cpf)  # adoption's eligibility
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
    from portal.blueprints.enforcement.services import close_lapsed, mark_for_collection
    from portal.extensions import db
    from portal.services.clock import current_profile, local_today

    today = local_today()
    closed = close_lapsed(current_profile(), today)
    marked = mark_for_collection(today)
    db.session.commit()
    click.echo(f"{closed} documentos definitivos; {len(marked)} multas para cobrança.")


def _export(user: Any) -> list[dict[str, Any]]:
    """LGPD download: the documents addressed to the person (no access codes)."""
    from portal.blueprints.enforcement.services import documents_for

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


def _label(table: str, key: str | None) -> str:
    from portal.blueprints.enforcement import labels

    tables = {
        "kind": labels.KIND_LABELS,
        "status": labels.STATUS_LABELS,
        "service": labels.SERVICE_LABELS,
        "petition": labels.PETITION_LABELS,
        "petition_status": labels.PETITION_STATUS_LABELS,
        "fine": labels.FINE_STATUS_LABELS,
        "consequence": labels.CONSEQUENCE_LABELS,
    }
    return labels.label(tables[table], key)


def _person_consequences(cpf: str | None) -> list[Any]:
    from portal.blueprints.enforcement.services import consequences_for_cpf

    return consequences_for_cpf(cpf)


def _repeat_finding(doc: Any) -> Any:
    from portal.blueprints.enforcement.duties import repeat_finding
    from portal.services.clock import current_profile

    return repeat_finding(current_profile(), doc)


def _remedy_filings(doc: Any) -> list[Any]:
    from portal.blueprints.enforcement.duties import laudos_of

    return laudos_of(doc) if doc.laudo_every_days else []


from portal.blueprints.enforcement import duties_routes, representation, routes, staff  # noqa: E402,F401,I001

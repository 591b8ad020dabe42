"""The citizen's to-do list (portal.services.todo) and the billing hold of a fine suspended by an
appeal, wired by ``portal.blueprints.enforcement.init_app``.

Each document addressed to the person says one thing (issue 25): the petition being judged (by
whom, until when, and that the fine waits for it), else the next deadline, else a decision of
the last 30 days, so every decision reaches the home page as well as the e-mail."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

from flask import url_for
from flask_babel import gettext as _
from markupsafe import Markup, escape

from portal.models import EnforcementDocument, PaymentItem, User
from portal.services.clock import current_profile, local_today
from portal.services.money import format_brl
from portal.services.todo import TodoItem

RECENT_DECISION_DAYS = 30  # a decision stays on the home page this long after it was known


def todo(user: User) -> Iterator[TodoItem]:
    from portal.blueprints.enforcement.services import documents_for

    profile = current_profile()
    for doc in documents_for(user):
        item = _todo_of(profile, doc)
        if item is not None:
            yield item


def _todo_of(profile, doc: EnforcementDocument) -> TodoItem | None:  # type: ignore[no-untyped-def]
    from portal.blueprints.enforcement.authority import authority_ref
    from portal.blueprints.enforcement.labels import PETITION_LABELS, PETITION_STATUS_LABELS
    from portal.blueprints.enforcement.services import (
        current_deadline,
        last_decided,
        open_petition,
        penalty_of,
    )

    url = url_for("enforcement.detail", doc_id=doc.id)
    pending = open_petition(doc)
    if pending is not None:
        # Markup: the authority's article is a small link to /regras (issue 25); the other
        # values are escaped by Markup's % (nothing typed by a person reaches the page raw)
        said = _("%(what)s sobre o documento %(n)s em julgamento. Quem decide: %(who)s%(until)s.")
        text = Markup(escape(said)) % {
            "what": PETITION_LABELS.get(pending.kind, pending.kind),
            "n": doc.number,
            "who": authority_ref(profile, doc, pending.instance),
            "until": _(", decisão prevista até %(d)s", d=pending.decide_by.strftime("%d/%m/%Y"))
            if pending.decide_by
            else "",
        }
        if doc.fine_suspended and doc.payment_item is not None:
            # GRU 110: the appeal suspends the fine; nothing to pay while it is judged
            text += " " + _(
                "A multa de %(v)s fica suspensa até a decisão.",
                v=format_brl(doc.payment_item.amount_cents),
            )
        return TodoItem("enforcement", text, url, _("Acompanhar"), 20)
    due, what = current_deadline(doc, profile)
    if due is not None:
        text = _(
            "Documento %(n)s: prazo para %(what)s até %(d)s",
            n=doc.number,
            what=what,
            d=due.strftime("%d/%m/%Y"),
        )
        parent = doc.parent
        refused = last_decided(parent) if parent is not None and not doc.petitions else None
        if parent is not None and refused is not None and refused.status == "denied":
            # GRU 97, 103: the defence was refused and this penalty notice carries the appeal
            text = _("Defesa indeferida (documento %(p)s).", p=parent.number) + " " + text
        return TodoItem("enforcement", text, url, _("Ver o documento"), 5)
    decided = last_decided(doc)
    known = decided.decision_known_on if decided is not None else None
    if decided is None or known is None or penalty_of(doc) is not None:
        return None  # a refused defence lives on in the penalty notice's own entry
    if local_today() - known > timedelta(days=RECENT_DECISION_DAYS):
        return None
    return TodoItem(
        "enforcement",
        _(
            "Decisão sobre %(what)s do documento %(n)s: %(status)s.",
            what=str(PETITION_LABELS.get(decided.kind, decided.kind)).lower(),
            n=doc.number,
            status=str(PETITION_STATUS_LABELS.get(decided.status, decided.status)).lower(),
        ),
        url,
        _("Ver a decisão"),
        30,
    )


def fine_on_hold(item: PaymentItem) -> bool:
    """GRU 110: a fine whose appeal is being judged is not charged (billing's to-do skips it)."""
    if item.kind != "fine" or item.subject_type != "enforcement" or item.subject_id is None:
        return False
    from portal.extensions import db

    doc = db.session.get(EnforcementDocument, item.subject_id)
    return bool(doc is not None and doc.fine_suspended)

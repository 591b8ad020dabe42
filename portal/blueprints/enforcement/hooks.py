"""The citizen's to-do list (portal.services.todo), the billing hold of a fine suspended by an
appeal, and the documents and consequences shown on the staff pages of lower domains (a capture,
an animal's owner, an establishment), wired by ``portal.blueprints.enforcement.init_app``.

Each document addressed to the person says one thing (issue 25): the petition being judged (by
whom, until when, and that the fine waits for it), else the next deadline, else a decision of
the last 30 days, so every decision reaches the home page as well as the e-mail."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

from flask import url_for
from flask_babel import gettext as _
from markupsafe import Markup, escape
from sqlalchemy import and_, or_, select

from portal.blueprints.enforcement.authority import authority_ref
from portal.blueprints.enforcement.consequences import consequences_for_cpf
from portal.blueprints.enforcement.duties import duty_text, repeat_finding
from portal.blueprints.enforcement.labels import (
    KIND_LABELS,
    PETITION_LABELS,
    PETITION_STATUS_LABELS,
    STATUS_LABELS,
    enforcement_label,
    label,
)
from portal.blueprints.enforcement.petitions import last_decided, open_petition, penalty_of
from portal.blueprints.enforcement.reading import current_deadline, documents_for
from portal.blueprints.impound.apprehension import apprehension_document
from portal.extensions import db
from portal.models import (
    Capture,
    EnforcementDocument,
    PaymentItem,
    Petition,
    RepresentationStatus,
    User,
)
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, local_today
from portal.services.money import format_brl
from portal.services.todo import TodoItem
from portal.wiring import ConsequenceLink, DocumentLink, Sanction

RECENT_DECISION_DAYS = 30  # a decision stays on the home page this long after it was known


def todo(user: User) -> Iterator[TodoItem]:
    profile = current_profile()
    today = local_today()
    for doc in documents_for(user):
        item = _todo_of(profile, doc)
        if item is not None:
            yield item
        yield from _duties_of(profile, doc, today)
    yield from _representations(user)


def _duties_of(profile: Profile, doc: EnforcementDocument, today: date) -> Iterator[TodoItem]:
    """VV 23 II: the laudo due (or overdue) during the remedy term; GRU 87 V-VI: a repeat
    autuação that makes the apprehension definitive, while it can still be contested."""
    text = duty_text(profile, doc, today)
    if text is not None:
        url = url_for("enforcement.duties_page", doc_id=doc.id)
        yield TodoItem("enforcement", text, url, _("Enviar o laudo"), 10)
    if doc.status in ("final", "cancelled"):
        return
    finding = (
        repeat_finding(profile, doc) if doc.parent_id is None or doc.kind != "penalty" else None
    )
    if finding is not None and finding.applies:
        url = url_for("enforcement.detail", doc_id=doc.id)
        said = _("Documento %(n)s:", n=doc.number) + " " + finding.reason()
        yield TodoItem("enforcement", said, url, _("Ver o documento"), 15)


def _representations(user: User) -> Iterator[TodoItem]:
    """A representative's power of attorney awaiting staff, or refused in the last 30 days
    (issue 25: that decision reaches the to-do as well as the e-mail). Until staff accept it the
    document is not on their list, so this entry is the only place it stands."""
    since = datetime.now(UTC) - timedelta(days=RECENT_DECISION_DAYS)
    filed = db.session.scalars(
        select(Petition)
        .where(
            Petition.filed_by_id == user.id,
            Petition.as_representative.is_(True),
            or_(
                Petition.representation_status == RepresentationStatus.PENDING,
                and_(
                    Petition.representation_status == RepresentationStatus.REFUSED,
                    Petition.representation_decided_at >= since,
                ),
            ),
        )
        .order_by(Petition.id)
    )
    for petition in filed:
        n = petition.document.number
        text = (
            _("Sua representação no documento %(n)s está em análise pelo CCZ.", n=n)
            if petition.representation_status == RepresentationStatus.PENDING
            else _(
                "Sua representação no documento %(n)s foi recusada pelo CCZ: apresente uma "
                "procuração válida.",
                n=n,
            )
        )
        # not an addressee (yet): the code printed on the document opens it
        url = url_for("enforcement.verify", number=n)
        yield TodoItem("enforcement", text, url, _("Abrir com o código"), 35)


def _todo_of(profile: Profile, doc: EnforcementDocument) -> TodoItem | None:
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
    if decided is None or known is None:
        return None
    if local_today() - known > timedelta(days=RECENT_DECISION_DAYS):
        return None  # the date first: penalty_of is a query
    if penalty_of(doc) is not None:
        return None  # a refused defence lives on in the penalty notice's own entry
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
    doc = db.session.get(EnforcementDocument, item.subject_id)
    return bool(doc is not None and doc.fine_suspended)


def _link(doc: EnforcementDocument) -> DocumentLink:
    return DocumentLink(
        number=doc.number,
        url=url_for("enforcement.staff_detail", doc_id=doc.id),
        kind_label=label(KIND_LABELS, doc.kind),
        status_label=label(STATUS_LABELS, doc.status),
        issued_at=doc.issued_at,
        awaits_edital=not doc.addressee_cpf and not doc.addressee_cnpj and not doc.knowledge_on,
    )


def capture_apprehension(capture: Capture) -> DocumentLink | None:
    """The capture's latest auto de apreensão (GRU 87 §ú), for its staff page."""
    doc = apprehension_document(capture)
    return _link(doc) if doc is not None else None


def cnpj_notices(cnpj: str) -> list[DocumentLink]:
    """The documents addressed to a CNPJ (GRU 12 III-VII), newest first, for the establishment's
    file."""
    docs = db.session.scalars(
        select(EnforcementDocument)
        .where(EnforcementDocument.addressee_cnpj == cnpj)
        .order_by(EnforcementDocument.issued_at.desc())
    )
    return [_link(doc) for doc in docs]


def cpf_sanctions(cpf: str | None) -> list[Sanction]:
    """The consequences in force on a CPF, as plain records for adoption's bars (VV 23 III b, V;
    BJP 30 §ú II; GRU 88 §4)."""
    return [
        Sanction(
            kind=c.kind,
            article=c.article,
            document_number=c.document.number,
            animal_id=c.animal_id,
        )
        for c in consequences_for_cpf(cpf)
    ]


def person_consequences(cpf: str | None) -> list[ConsequenceLink]:
    """The consequences in force on a CPF (VV 23 III b, V; BJP 30 §ú II; CABO 39 §4; GRU 88 §4),
    for staff reviewing the person's animal."""
    return [
        ConsequenceLink(
            article=c.article,
            label=enforcement_label("consequence", c.kind),
            document_number=c.document.number,
            document_url=url_for("enforcement.staff_detail", doc_id=c.document_id),
        )
        for c in consequences_for_cpf(cpf)
    ]

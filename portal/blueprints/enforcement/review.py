"""GRU 104: a petition granted at the first or second instance goes to the issuing agent, who, if
they disagree, orders its re-examination within 5 days. The grant takes effect (the document and
its fine cancelled, GRU 105 §1; a definitive apprehension not upheld) only when that term lapses
or the agent agrees; a re-examined grant is final.

The term is the profile's ``notices.grant_review_days`` (cited ``GRU 104``); None where the law
has no such step.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.billing import services as billing
from portal.blueprints.enforcement.common import EnforcementError, term_end
from portal.blueprints.enforcement.consequences import on_final
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    EnforcementStatus,
    PersonConsequence,
    Petition,
    PetitionStatus,
    User,
)
from portal.models.billing import PAYABLE_STATUSES, PaymentStatus, ReviewCode
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_today


def review_term(profile: Profile) -> tuple[int, str] | None:
    """The issuing agent's review term of a grant and its article, or None (GRU 104: "no prazo
    de 5 (cinco) dias" the issuing authority may order a re-examination)."""
    days = profile.notices.grant_review_days
    return None if days is None else (days, profile.notices.cite("grant_review_days"))


def grant(profile: Profile, petition: Petition, judge: User, today: date) -> None:
    """Record the effect of a grant: at once, or after the agent's GRU 104 term."""
    term = review_term(profile)
    if term is not None and petition.reexam_requested_at is None:
        petition.review_due_on = term_end(profile, today, term[0])  # GRU 104
        db.session.flush()
        return
    apply_grant(petition.document, judge)


def apply_grant(doc: EnforcementDocument, actor: User | None) -> None:
    """GRU 105 §1: the document and its fine are cancelled; nothing stays on the person."""
    doc.status = EnforcementStatus.CANCELLED
    item = doc.payment_item
    if item is not None and item.status in PAYABLE_STATUSES:
        billing.cancel_payment_item(item, _("Recurso deferido (GRU 105 §1)."), actor=actor)
    elif item is not None and item.status == PaymentStatus.PAID:
        # A fine paid before the appeal was granted is money the city may no longer keep: the
        # billing staff see it in their reconciliation queue and give it back (a refund is a
        # person's decision, with the payment's own means).
        billing.flag_for_review(
            item,
            ReviewCode.REFUND_DUE,
            _(
                "Multa já paga, cancelada porque o recurso foi deferido (auto nº %(n)s): estorne "
                "o valor ao autuado.",
                n=doc.number,
            ),
            detail={"document": doc.number},
        )
    doc.fine_suspended = False
    for row in db.session.scalars(
        select(PersonConsequence).where(
            PersonConsequence.document_id == doc.id, PersonConsequence.revoked_at.is_(None)
        )
    ):
        row.revoked_at = datetime.now(UTC)
    db.session.flush()
    on_final(doc, upheld=False, actor=actor)


def awaiting_review(doc: EnforcementDocument) -> Petition | None:
    """The granted petition whose GRU 104 term still runs, if any."""
    return next(
        (
            p
            for p in doc.petitions
            if p.status == PetitionStatus.GRANTED
            and p.review_due_on is not None
            and doc.status == EnforcementStatus.UNDER_REVIEW
        ),
        None,
    )


def answer_grant(
    profile: Profile,
    petition: Petition,
    agent: User,
    *,
    reexamine: bool,
    note: str,
    today: date | None = None,
) -> None:
    """The issuing agent's view of a grant (GRU 104): agree (the grant takes effect now) or order
    its re-examination, with reasons, within the term (the petition is decided again)."""
    today = today or local_today()
    doc = petition.document
    if awaiting_review(doc) is not petition:
        raise EnforcementError(None, "not_pending", _("Não há deferimento aguardando vista."))
    if doc.agent_id != agent.id:
        raise EnforcementError(
            None, "not_allowed", _("A vista do deferimento é da autoridade autuante (GRU 104).")
        )
    if reexamine:
        if petition.review_due_on is not None and today > petition.review_due_on:
            raise EnforcementError(
                None,
                "late",
                _(
                    "O prazo de 5 dias para pedir o reexame terminou em %(d)s (GRU 104).",
                    d=petition.review_due_on.strftime("%d/%m/%Y"),
                ),
            )
        if not note.strip():
            raise EnforcementError(
                "note", "required", _("Fundamente o pedido de reexame (GRU 104).")
            )
        petition.status = PetitionStatus.PENDING
        petition.reexam_requested_at = datetime.now(UTC)
        petition.reexam_note = note.strip()
        petition.review_due_on = None
        if profile.notices.decision_days:
            petition.decide_by = term_end(profile, today, profile.notices.decision_days)
    else:
        petition.review_due_on = None
        apply_grant(doc, agent)
    db.session.flush()
    audit.record(
        "enforcement.grant_reviewed",
        doc,
        detail={"number": doc.number, "petition": petition.id, "reexamine": reexamine},
        actor_id=agent.id,
    )


def close_lapsed_reviews(today: date) -> int:
    """Grants whose GRU 104 term lapsed without a re-examination take effect."""
    count = 0
    for petition in db.session.scalars(
        select(Petition).where(
            Petition.status == PetitionStatus.GRANTED,
            Petition.review_due_on.is_not(None),
            Petition.review_due_on < today,
        )
    ):
        if awaiting_review(petition.document) is petition:
            petition.review_due_on = None
            apply_grant(petition.document, None)
            count += 1
    db.session.flush()
    return count

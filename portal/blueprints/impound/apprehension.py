"""Definitive apprehension of a captured animal (GRU 87; CABO 39 §4): the entry points between
impound and enforcement.

Opening it keeps the animal in custody and bars its reclaim until the final decision of the
procedure (GRU 87 §ú), and issues the *auto de apreensão* to the owner through the enforcement
procedure (defence and appeal as for any document), which enforcement answers through
``wiring.issue_apprehension``. The final decision of that procedure calls
:func:`decide_definitive_apprehension`: upheld, the animal is the municipality's (a destination
follows, GRU 88); not upheld, it goes back to ordinary custody.
"""

from __future__ import annotations

from flask_babel import gettext as _
from sqlalchemy import select

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Capture,
    CaptureStatus,
    EnforcementDocument,
    EnforcementStatus,
    User,
)
from portal.models.base import utcnow
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.mail import send_email
from portal.wiring import wiring

# Statuses in which the procedure has not reached its final decision.
_NOT_FINAL = (
    EnforcementStatus.ISSUED,
    EnforcementStatus.OPEN,
    EnforcementStatus.UNDER_REVIEW,
    EnforcementStatus.UPHELD,
)


def apprehension_document(capture: Capture) -> EnforcementDocument | None:
    """The latest auto de apreensão issued for this capture (staff see the link both ways)."""
    return db.session.scalar(
        select(EnforcementDocument)
        .where(EnforcementDocument.capture_id == capture.id)
        .order_by(EnforcementDocument.id.desc())
        .limit(1)
    )


def open_definitive_apprehension(
    capture: Capture,
    *,
    article: str,
    reason: str,
    actor: User | None,
    notify: bool = True,
    profile: Profile | None = None,
) -> Capture:
    """Open a definitive apprehension (GRU 87 I-XI; CABO 39 §4): the animal stays in custody and
    cannot be reclaimed until the final decision (GRU 87 §ú), and the auto de apreensão is issued
    to the owner identified by CPF or, without one, to the unidentified owner served by edital
    (GRU 95 §ú, 96 §1, 109 III)."""
    if capture.status not in (CaptureStatus.IN_CUSTODY, CaptureStatus.DEFINITIVE_PENDING):
        raise DomainError(None, "not_in_custody", _("Este animal não está sob a guarda do CCZ."))
    capture.status = CaptureStatus.DEFINITIVE_PENDING
    capture.definitive_article = article
    capture.definitive_reason = reason
    capture.definitive_opened_at = utcnow()
    db.session.flush()
    audit.record(
        "impound.definitive_opened",
        capture,
        detail={"article": article},
        actor_id=actor.id if actor else None,
    )
    # GRU 87: the auto de apreensão is an enforcement document; enforcement issues it
    doc = wiring().issue_apprehension(profile, capture, article=article, reason=reason, actor=actor)
    if notify and capture.owner is not None and capture.owner.email:
        send_email(
            capture.owner.email,
            _("Apreensão definitiva em andamento (%(protocol)s)", protocol=capture.protocol),
            _(
                "O animal do protocolo %(protocol)s fica sob a guarda do CCZ e não pode ser "
                "resgatado até a decisão final do procedimento de apreensão definitiva "
                "(%(article)s; GRU 87 §ú). Motivo: %(reason)s",
                protocol=capture.protocol,
                article=article,
                reason=reason,
            )
            + (
                " "
                + _(
                    "Auto de apreensão nº %(n)s: veja-o e recorra em Minhas notificações, no "
                    "prazo que conta da sua ciência.",
                    n=doc.number,
                )
                if doc is not None
                else ""
            ),
        )
    return capture


def decide_definitive_apprehension(
    capture: Capture,
    *,
    upheld: bool,
    actor: User | None,
    note: str = "",
    document: EnforcementDocument | None = None,
) -> Capture:
    """The final decision of the enforcement procedure (GRU 87 §ú).

    Upheld: the animal is the municipality's; it waits for a destination (GRU 88) and, once
    destined, its capture count ends (GRU 84 §4). Not upheld: back to ordinary custody,
    reclaimable again. While an auto de apreensão for this capture is still open, only its
    procedure decides (``document``): staff cannot decide by hand around it.
    """
    if capture.status != CaptureStatus.DEFINITIVE_PENDING:
        raise DomainError(
            None, "not_pending", _("Não há apreensão definitiva em andamento para este animal.")
        )
    linked = apprehension_document(capture)
    if document is None and linked is None:
        # GRU 87 §ú: the decision comes from the procedure; there is no manual shortcut
        raise DomainError(
            None,
            "procedure_required",
            _(
                "A apreensão definitiva só é decidida pelo procedimento do auto de apreensão "
                "(defesa e recurso, GRU 87 §ú)."
            ),
        )
    if document is None and linked is not None and linked.status in _NOT_FINAL:
        # GRU 87 §ú: effective only after the final decision of the procedure
        raise DomainError(
            None,
            "procedure_open",
            _(
                "A decisão final vem do procedimento do auto de apreensão nº %(n)s (defesa e "
                "recurso, GRU 87 §ú).",
                n=linked.number,
            ),
        )
    capture.status = CaptureStatus.IN_CUSTODY
    if upheld:
        capture.count_reset = True  # GRU 84 §4: takes effect with the destination below
    else:
        capture.definitive_article = None
    db.session.flush()
    audit.record(
        "impound.definitive_decided",
        capture,
        detail={"upheld": upheld, "note": note, "document": document.number if document else None},
        actor_id=actor.id if actor else None,
    )
    return capture


def definitive_upheld(capture: Capture) -> bool:
    return capture.count_reset and capture.definitive_article is not None

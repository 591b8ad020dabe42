"""Definitive apprehension of a captured animal (GRU 87; CABO 39 §4): the entry points the
enforcement domain calls. Opening it keeps the animal in custody and bars its reclaim until the
final decision of the procedure (GRU 87 §ú); the decision either hands the animal to the
municipality (a destination follows, GRU 88) or puts it back in ordinary custody."""

from __future__ import annotations

from flask_babel import gettext as _

from portal.domain import DomainError
from portal.extensions import db
from portal.models import Capture, CaptureStatus, User
from portal.models.base import utcnow
from portal.services import audit
from portal.services.mail import send_email


def open_definitive_apprehension(
    capture: Capture, *, article: str, reason: str, actor: User | None, notify: bool = True
) -> Capture:
    """Open a definitive apprehension: the animal stays in custody and cannot be reclaimed until
    the final decision (GRU 87 §ú). The enforcement domain (issue 13) issues the auto de
    apreensão and calls :func:`decide_definitive_apprehension` with the final decision."""
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
    if notify and capture.owner is not None and capture.owner.email:
        send_email(
            capture.owner.email,
            _("Apreensão definitiva em andamento (%(protocol)s)", protocol=capture.protocol),
            _(
                "O animal do protocolo %(protocol)s fica sob a guarda do CCZ e não pode ser "
                "resgatado até a decisão final do procedimento de apreensão definitiva "
                "(%(article)s). Motivo: %(reason)s",
                protocol=capture.protocol,
                article=article,
                reason=reason,
            ),
        )
    return capture


def decide_definitive_apprehension(
    capture: Capture, *, upheld: bool, actor: User | None, note: str = ""
) -> Capture:
    """The final decision of the enforcement procedure (GRU 87 §ú).

    Upheld: the animal is the municipality's; it waits for a destination (GRU 88) and, once
    destined, its capture count ends (GRU 84 §4). Not upheld: back to ordinary custody,
    reclaimable again.
    """
    if capture.status != CaptureStatus.DEFINITIVE_PENDING:
        raise DomainError(
            None, "not_pending", _("Não há apreensão definitiva em andamento para este animal.")
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
        detail={"upheld": upheld, "note": note},
        actor_id=actor.id if actor else None,
    )
    return capture


def definitive_upheld(capture: Capture) -> bool:
    return capture.count_reset and capture.definitive_article is not None

"""Decisions on petitions (GRU 101-106) and the documents that become final when a term lapses."""

from __future__ import annotations

from datetime import UTC, date, datetime

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.enforcement import review
from portal.blueprints.enforcement.authority import authority_line
from portal.blueprints.enforcement.common import EnforcementError, knowledge_date, term_end
from portal.blueprints.enforcement.consequences import on_final
from portal.blueprints.enforcement.fines import _resume_fine
from portal.blueprints.enforcement.notify import tell_decision
from portal.blueprints.enforcement.petitions import issue_penalty, petition_option
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    Petition,
    PetitionStatus,
    ServiceMethod,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_today
from portal.services.money import format_brl


def may_decide(petition: Petition, user: User) -> bool:
    """GRU 102: the first instance is the agent's superior; GRU 103 §1: the second a higher one.
    Portal reading: coordinators (or admins) judge; never the agent who issued the document, and
    the second instance never by whoever decided the first."""
    if not user.has_role("coordinator", "admin"):
        return False
    if petition.document.agent_id == user.id:
        return False
    if petition.instance == 2 and petition.against and petition.against.decided_by_id == user.id:
        return False
    return True


def decide_petition(
    profile: Profile,
    petition: Petition,
    judge: User,
    *,
    grant: bool,
    reason: str,
    method: str,
    service_on: date,
    ar_on: date | None = None,
    today: date | None = None,
) -> None:
    """One reasoned decision per petition (GRU 101 §2, 106 §ú).

    Granted: the document (and its fine) is cancelled (GRU 105 §1). Denied at the first instance:
    a second-instance appeal may follow within 10 days of knowing it (GRU 103). Denied at the
    second instance, or no appeal: final (GRU 103 §3); the fine runs again (GRU 100).
    """
    today = today or local_today()
    doc = petition.document
    if petition.status != PetitionStatus.PENDING:
        raise EnforcementError(None, "decided", _("Esta petição já foi decidida (GRU 101 §2)."))
    if not may_decide(petition, judge):
        raise EnforcementError(
            None,
            "not_allowed",
            _(
                "Esta decisão cabe ao superior de quem autuou (GRU 102) e, em segunda instância, a "
                "outra autoridade (GRU 103 §1)."
            ),
        )
    if not reason.strip():
        raise EnforcementError("reason", "required", _("Toda decisão é fundamentada (GRU 106 §ú)."))
    if method not in {m.value for m in ServiceMethod}:
        raise EnforcementError("method", "invalid", _("Escolha como o autuado tomou ciência."))
    if service_on > today or service_on < petition.filed_on:
        raise EnforcementError(
            "service_on", "invalid", _("Informe a data da ciência da decisão (GRU 109).")
        )
    known_on = knowledge_date(profile, method, service_on)  # GRU 109 I-III
    if ar_on is not None:
        if ar_on > today or ar_on < petition.filed_on:
            raise EnforcementError("ar_on", "invalid", _("Informe a data do AR."))
        # GRU 109 §2: notified both ways, the term that most benefits the petitioner counts
        known_on = max(known_on, knowledge_date(profile, ServiceMethod.POST, ar_on))
    petition.status = PetitionStatus.GRANTED if grant else PetitionStatus.DENIED
    petition.decision_reason = reason.strip()
    petition.decision_article = (
        profile.notices.cite("decision_days")
        if petition.instance == 1
        else profile.notices.cite("second_appeal_days")
    )
    petition.decided_by_id = judge.id
    petition.decided_at = datetime.now(UTC)
    petition.decision_known_on = known_on
    if grant:
        review.grant(profile, petition, judge, today)  # GRU 104, 105 §1
    else:
        second = profile.notices.second_appeal_days
        if petition.instance == 1 and second:
            petition.next_due_on = term_end(profile, known_on, second)  # GRU 103
            doc.status = EnforcementStatus.UPHELD
        else:
            doc.status = EnforcementStatus.FINAL  # GRU 103 §3
        if doc.fine_suspended:
            _resume_fine(profile, doc, known_on)
    db.session.flush()
    penalty = None
    if doc.status == EnforcementStatus.FINAL:
        on_final(doc, upheld=True, actor=judge)
    if (
        not grant
        and doc.kind == EnforcementKind.INFRACTION
        and petition.instance == 1
        and doc.fine_inputs
    ):
        # GRU 97: the penalty notice is written right after the refusal of the defence and is
        # known with the decision; its appeal goes to the second instance (GRU 103). Known both
        # ways, it is served the way that gives the later knowledge (GRU 109 §2).
        penalty_method, penalty_on = method, service_on
        if ar_on is not None and known_on > knowledge_date(profile, method, service_on):
            penalty_method, penalty_on = ServiceMethod.POST, ar_on
        penalty = issue_penalty(
            profile, doc, doc.agent, today=today, method=penalty_method, service_on=penalty_on
        )
    tell_decision(profile, doc, petition, penalty)  # issue 25: every decision reaches them
    audit.record(
        "enforcement.petition_decided",
        doc,
        detail={
            "number": doc.number,
            "petition": petition.id,
            "status": petition.status,
            "instance": petition.instance,
        },
    )


def close_lapsed(profile: Profile, today: date) -> int:
    """Documents whose petition term lapsed with nothing pending become final; grants whose
    GRU 104 term lapsed take effect."""
    count = review.close_lapsed_reviews(today)
    for doc in db.session.scalars(
        select(EnforcementDocument).where(
            EnforcementDocument.status.in_((EnforcementStatus.OPEN, EnforcementStatus.UPHELD)),
            EnforcementDocument.kind != EnforcementKind.PRELIMINARY,
        )
    ):
        option = petition_option(profile, doc)
        if option is None and doc.petition_due_on is None:
            continue
        if option is None or today > option.due_on:
            doc.status = EnforcementStatus.FINAL
            db.session.flush()
            # GRU 87 §ú: no appeal in time, the decision is final and takes effect now
            on_final(doc, upheld=True, actor=None)
            count += 1
    db.session.flush()
    return count


def decision_preview(profile: Profile, petition: Petition, *, grant: bool) -> list[str]:
    """What deciding ``petition`` this way will do, in plain words, for the confirmation step
    (issue 25: an irreversible decision states its consequences before it is recorded)."""
    doc, rule = petition.document, profile.notices
    item = doc.payment_item
    lines: list[str] = []
    fined = doc.kind == EnforcementKind.INFRACTION and bool(doc.fine_inputs)  # GRU 97: penalty next
    if grant:
        lines.append(
            _("O documento nº %(n)s e a multa que ele traz são cancelados.", n=doc.number)
            if doc.fine_cents or item
            else _("O documento nº %(n)s é cancelado.", n=doc.number)  # GRU 105 §1
        )
        if rule.grant_review_days:
            lines.append(
                _(
                    "O deferimento só produz efeito depois da vista de quem lavrou o documento, "
                    "que pode pedir o reexame em %(d)d dias (%(a)s).",
                    d=rule.grant_review_days,
                    a=rule.cite("grant_review_days"),
                )
            )
    elif petition.instance == 1 and (fined or rule.second_appeal_days):
        lines.append(
            _(
                "É lavrado o auto de imposição de penalidade, com a multa de %(v)s, e o autuado "
                "toma ciência dele junto com esta decisão.",  # GRU 97
                v=format_brl(doc.fine_cents or 0),
            )
            if fined
            else _("O documento fica mantido.")
        )
        if rule.second_appeal_days:  # GRU 103
            lines.append(
                _(
                    "O autuado pode recorrer em 2ª instância em %(d)d dias (%(a)s); quem decide: "
                    "%(who)s.",
                    d=rule.second_appeal_days,
                    a=rule.cite("second_appeal_days"),
                    who=authority_line(profile, doc, 2),
                )
            )
    else:
        lines.append(_("A decisão é definitiva: não cabe outro recurso."))  # GRU 103 §3
        if doc.fine_suspended and item is not None:
            lines.append(
                _(
                    "A multa de %(v)s deixa de estar suspensa e volta a correr: o autuado terá "
                    "%(d)d dias para pagar (%(a)s).",
                    v=format_brl(item.amount_cents),
                    d=rule.payment_days or 0,
                    a=rule.cite("payment_days"),
                )
            )
    lines.append(
        _(
            "O autuado recebe a decisão e a fundamentação por e-mail e na sua página inicial. "
            "Depois de registrada, a decisão não pode ser desfeita."
        )
    )
    return lines

"""Petitions (GRU 96 V, 101-110): what the addressee may file and until when, filing, and the
penalty notice that follows an infraction (GRU 97-98)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, time

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.enforcement.addressees import is_addressee
from portal.blueprints.enforcement.common import PETITION_FOR, EnforcementError, term_end
from portal.blueprints.enforcement.fines import _suspend_fine
from portal.blueprints.enforcement.issuing import Addressee, issue_document, joint_partner
from portal.blueprints.enforcement.serving import record_service
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    Petition,
    PetitionKind,
    PetitionStatus,
    RepresentationStatus,
    StoredFile,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_date, local_today, tz


def open_petition(doc: EnforcementDocument) -> Petition | None:
    return next((p for p in doc.petitions if p.status == PetitionStatus.PENDING), None)


def last_decided(doc: EnforcementDocument) -> Petition | None:
    decided = [p for p in doc.petitions if p.status != PetitionStatus.PENDING]
    return decided[-1] if decided else None


@dataclass(frozen=True)
class PetitionOption:
    kind: str
    instance: int
    due_on: date
    article: str
    against: Petition | None = None


def petition_option(profile: Profile, doc: EnforcementDocument) -> PetitionOption | None:
    """What the addressee may file now, and until when (None: nothing)."""
    rule = profile.notices
    if doc.knowledge_on is None or doc.status in (
        EnforcementStatus.FINAL,
        EnforcementStatus.CANCELLED,
    ):
        return None
    if open_petition(doc) is not None:
        return None
    decided = last_decided(doc)
    if doc.kind == EnforcementKind.INFRACTION and penalty_of(doc) is not None:
        return None  # the procedure goes on in the penalty notice
    parent_denied = (
        last_decided(doc.parent)
        if doc.parent is not None and doc.kind == EnforcementKind.PENALTY
        else None
    )
    if (
        decided is None
        and parent_denied is not None
        and parent_denied.status == PetitionStatus.DENIED
        and parent_denied.instance == 1
        and doc.petition_due_on is not None
    ):
        # GRU 103: the defence was refused; the appeal goes to the second instance
        return PetitionOption(
            PetitionKind.APPEAL,
            2,
            doc.petition_due_on,
            rule.cite("second_appeal_days"),
            parent_denied,
        )
    if decided is None:
        kind = PETITION_FOR.get(EnforcementKind(doc.kind))
        if kind is None or doc.petition_due_on is None:
            return None
        article = (
            rule.cite("defence_days") if kind == PetitionKind.DEFENCE else rule.cite("appeal_days")
        )
        return PetitionOption(kind, 1, doc.petition_due_on, article)
    if (
        decided.instance == 1
        and decided.status == PetitionStatus.DENIED
        and decided.next_due_on is not None
    ):
        # GRU 103: from the refusal, a second-instance appeal within 10 days of knowing it
        return PetitionOption(
            PetitionKind.APPEAL, 2, decided.next_due_on, rule.cite("second_appeal_days"), decided
        )
    return None


def file_petition(
    profile: Profile,
    doc: EnforcementDocument,
    filer: User,
    *,
    text: str,
    attachments: Iterable[StoredFile] = (),
    power_of_attorney: StoredFile | None = None,
    has_access_code: bool = False,
    today: date | None = None,
) -> Petition:
    """File a defence or appeal. A late or repeated one is recorded and refused without judging
    the merit, citing the article (GRU 107 §2 I, IV); a third party is not admitted (GRU 107 §2
    III: only the addressee, their legal representative or an attorney with a power of attorney).
    """
    today = today or local_today()
    if not text.strip():
        raise EnforcementError("text", "required", _("Escreva as suas razões."))
    own = is_addressee(doc, filer)
    if not own:
        if not has_access_code:
            raise EnforcementError(
                None,
                "third_party",
                _(
                    "Só o autuado, o seu representante legal ou procurador podem apresentar defesa "
                    "ou recurso (GRU 107 §2 III)."
                ),
            )
        if power_of_attorney is None:
            raise EnforcementError(
                "power_of_attorney",
                "required",
                _(
                    "Anexe a procuração que lhe dá poderes para representar o autuado "
                    "(GRU 107 §2 III)."
                ),
            )
    if doc.knowledge_on is None:
        raise EnforcementError(
            None, "not_served", _("Este documento ainda não tem ciência registrada; aguarde.")
        )
    option = petition_option(profile, doc)
    previous = open_petition(doc) or last_decided(doc)
    if option is not None:
        kind, instance = option.kind, option.instance
    else:
        kind = (
            previous.kind
            if previous
            else PETITION_FOR.get(EnforcementKind(doc.kind), PetitionKind.APPEAL)
        )
        instance = previous.instance if previous else 1
    petition = Petition(
        document=doc,
        filed_by_id=filer.id,
        as_representative=not own,
        # staff accept or refuse the power of attorney; only then is the filer an addressee
        representation_status=None if own else RepresentationStatus.PENDING,
        power_of_attorney_id=power_of_attorney.id if power_of_attorney else None,
        attachment_ids=[f.id for f in attachments],
        text=text.strip(),
        filed_on=today,
        kind=kind,
        instance=instance,
        status=PetitionStatus.PENDING,
        suspends_fine=False,
    )
    db.session.add(petition)
    if option is None and previous is None and doc.petition_due_on is not None:
        # the term lapsed and the document became final: late (GRU 107 §2 I)
        term = "defence_days" if kind == PetitionKind.DEFENCE else "appeal_days"
        option = PetitionOption(kind, instance, doc.petition_due_on, profile.notices.cite(term))
    if option is None:
        # GRU 107 §2 IV (already decided / pending) — recorded and refused without merit
        _refuse(
            petition,
            _(
                "Indeferido sem análise do mérito: já há petição sobre esta decisão "
                "ou não cabe nova petição."
            ),
            profile.notices.cite("repeated_petition"),
        )
    else:
        petition.against_id = option.against.id if option.against else None
        petition.due_on = option.due_on
        if today > option.due_on:
            # GRU 107 §2 I: out of the term of art. 101: refused without judging the merit
            _refuse(
                petition,
                _(
                    "Indeferido sem análise do mérito: apresentado depois do prazo, "
                    "que terminou em %(d)s.",
                    d=option.due_on.strftime("%d/%m/%Y"),
                ),
                f"{option.article}; {profile.notices.cite('late_petition')}",
            )
        else:
            if profile.notices.decision_days:
                petition.decide_by = term_end(profile, today, profile.notices.decision_days)
            doc.status = EnforcementStatus.UNDER_REVIEW
            if petition.kind == PetitionKind.APPEAL:
                _suspend_fine(doc, petition)  # GRU 110
    db.session.flush()
    audit.record(
        "enforcement.petition_filed",
        doc,
        detail={
            "number": doc.number,
            "petition": petition.id,
            "kind": petition.kind,
            "status": petition.status,
        },
    )
    if petition.status == PetitionStatus.REFUSED:
        from portal.blueprints.enforcement.notify import tell_decision

        tell_decision(profile, doc, petition)  # refused without merit: a decision too
    return petition


def _refuse(petition: Petition, reason: str, article: str) -> None:
    petition.status = PetitionStatus.REFUSED
    petition.decision_reason = reason
    petition.decision_article = article
    petition.decided_at = datetime.now(UTC)
    petition.decision_known_on = petition.filed_on


def penalty_of(doc: EnforcementDocument) -> EnforcementDocument | None:
    return db.session.scalar(
        select(EnforcementDocument)
        .where(
            EnforcementDocument.parent_id == doc.id,
            EnforcementDocument.kind == EnforcementKind.PENALTY,
        )
        .limit(1)
    )


def may_issue_penalty(profile: Profile, doc: EnforcementDocument, today: date) -> bool:
    """GRU 97: after the defence term (no defence pending) or right after the refusal."""
    if doc.kind != EnforcementKind.INFRACTION or doc.knowledge_on is None:
        return False
    if penalty_of(doc) is not None or open_petition(doc) is not None:
        return False
    if doc.status == EnforcementStatus.CANCELLED:
        return False
    decided = last_decided(doc)
    if decided is not None:
        return decided.status in (PetitionStatus.DENIED, PetitionStatus.REFUSED)
    if doc.petition_due_on is None:
        # BJP 30 II, VV 23 III, CABO 40: the law gives no defence term, so the penalty follows the
        # infraction once it is known (before, no fine could ever be charged under these laws)
        return not profile.notices.defence_days and bool(doc.fine_inputs)
    return today > doc.petition_due_on


def issue_penalty(
    profile: Profile,
    infraction: EnforcementDocument,
    agent: User,
    *,
    today: date | None = None,
    method: str | None = None,
    service_on: date | None = None,
) -> EnforcementDocument:
    """The *auto de imposição de penalidade* (GRU 97-98) for an infraction: same facts, the fine
    proposed in it priced again by the fee service; served now when ``method`` is given."""
    today = today or local_today()
    if not may_issue_penalty(profile, infraction, today):
        raise EnforcementError(
            None,
            "not_yet",
            _(
                "O auto de imposição de penalidade é lavrado depois do prazo de defesa ou do "
                "indeferimento da defesa (GRU 97)."
            ),
        )
    # BJP 19 §1 I and II: a pair's fines were priced together, in one computation, on the autos
    # de infração; each penalty imposes its own share as it stands rather than pricing it alone.
    pair = joint_partner(infraction) is not None
    inputs = {
        k: v
        for k, v in (infraction.fine_inputs or {}).items()
        if k not in ("previous_offences", "infraction_on")
    }
    if inputs:
        # GRU 113 §1-2: the auto de infração interrupted the prescription and it does not run
        # while the procedure is pending, so the wait for this penalty never prescribes it.
        inputs["prescription_interrupted_on"] = today.isoformat()
    penalty = issue_document(
        profile,
        kind=EnforcementKind.PENALTY,
        agent=agent,
        addressee=Addressee(
            infraction.addressee_name,
            infraction.addressee_cpf,
            infraction.addressee_cnpj,
            infraction.addressee_activity,
            infraction.addressee_address,
        ),
        fact=infraction.fact,
        place=infraction.place,
        occurred_at=infraction.occurred_at,
        legal_provision=infraction.legal_provision,
        penalty_provision=infraction.penalty_provision,
        agent_title=infraction.agent_title,
        fine_inputs=None if pair else inputs or None,
        measures=infraction.measures,
        parent=infraction,
        animal_id=infraction.animal_id,
        today=today,
    )
    # the consequence the agent proposed on the infraction follows the procedure to its end
    penalty.consequence_kind = infraction.consequence_kind
    penalty.consequence_article = infraction.consequence_article
    penalty.notified_on = infraction.notified_on
    if pair:
        penalty.fine_inputs = infraction.fine_inputs
        penalty.fine_breakdown = infraction.fine_breakdown
        penalty.fine_cents = infraction.fine_cents
    if infraction.status != EnforcementStatus.UPHELD:
        infraction.status = EnforcementStatus.FINAL
    if method and service_on:
        if service_on < local_date(penalty.issued_at):
            # GRU 97, 109: written with the refusal it follows and known with it; recorded after
            # the addressee knew that decision, it was issued on the day they knew it
            penalty.issued_at = datetime.combine(service_on, time(12), tzinfo=tz()).astimezone(UTC)
        record_service(
            profile,
            penalty,
            method=method,
            service_on=service_on,
            note=None,
            actor=agent,
            today=today,
        )
    return penalty

"""Consequences on a person (VV 23 III b, V; BJP 30 §ú; CABO 39 §4; GRU 88 §4) and the
*auto de apreensão*; what adoption and registration read."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.enforcement.common import EnforcementError
from portal.blueprints.enforcement.issuing import Addressee, issue_document
from portal.extensions import db
from portal.models import (
    Capture,
    ConsequenceKind,
    EnforcementDocument,
    EnforcementKind,
    MaltreatmentReport,
    PersonConsequence,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile
from portal.services.mail import send_email


def issue_apprehension_notice(
    profile: Profile,
    *,
    agent: User,
    addressee: Addressee,
    fact: str,
    place: str,
    occurred_at: datetime,
    legal_provision: str,
    agent_title: str,
    definitive: bool,
    animal_id: int | None = None,
    capture_id: int | None = None,
    fine_inputs: dict[str, Any] | None = None,
    report: MaltreatmentReport | None = None,
    **more: Any,
) -> EnforcementDocument:
    """The *auto de apreensão* (GRU 72); with ``definitive=True`` the definitive apprehension
    (GRU 87; CABO 39 §4) of the capture ``capture_id``.

    The consequence on the person (GRU 88 §4; VV 23 III b; BJP 30 §ú II) is only *proposed* here:
    it is recorded at the final decision (GRU 87 §ú: "efetivada após a decisão condenatória
    definitiva", :func:`on_final`). The document still needs its service recorded for the appeal
    term to run. An ``unidentified`` addressee (owner unknown or without CPF) is served by edital
    (GRU 95 §ú, 96 §1, 109 III): the terms run from the publication and the procedure, not a
    manual decision, decides the capture; nothing is recorded on a person.
    """
    if not definitive and addressee.unidentified:
        raise EnforcementError(
            "cpf", "required", _("Informe o CPF da pessoa ou o CNPJ do estabelecimento autuado.")
        )
    if definitive and not addressee.cpf and not addressee.unidentified:
        raise EnforcementError(
            "cpf",
            "required",
            _("A apreensão definitiva é registrada na pessoa que lhe deu causa: informe o CPF."),
        )
    more.pop("kind", None)
    more.pop("consequence", None)
    doc = issue_document(
        profile,
        kind=EnforcementKind.APPREHENSION,
        agent=agent,
        addressee=addressee,
        fact=fact,
        place=place,
        occurred_at=occurred_at,
        legal_provision=legal_provision,
        agent_title=agent_title,
        fine_inputs=fine_inputs,
        animal_id=animal_id,
        report=report,
        **more,
    )
    doc.capture_id = capture_id
    found = definitive_consequence(profile) if definitive else None
    if found is not None:
        # Only the consequence the city's law gives is recorded on the person; where it gives none
        # (CAB 39 II is the apprehension alone, and CAB 8 §ú lets the owner reclaim once its cause
        # is gone) the auto still decides the capture, and nothing bars the person.
        doc.consequence_kind, doc.consequence_article = found
    db.session.flush()
    return doc


def issue_capture_apprehension(
    profile: Profile | None, capture: Capture, article: str, reason: str, actor: User | None
) -> EnforcementDocument | None:
    """The auto de apreensão of a capture whose definitive apprehension impound just opened
    (GRU 87; CABO 39 §4; answers ``wiring.issue_apprehension``), to the owner identified by CPF
    or, without one, to the unidentified owner served by edital (GRU 95 §ú, 96 §1, 109 III).
    None when nobody can sign it (no agent recorded the capture and nobody acted)."""
    owner = capture.owner
    agent = actor or capture.agent
    if agent is None:
        return None
    if owner is not None and owner.cpf:
        address = ", ".join(
            p for p in (owner.street, owner.number, owner.district, owner.city) if p
        )
        addressee = Addressee(owner.full_name, owner.cpf, address=address or None)
    else:
        # GRU 95 §ú, 96 §1, 109 III: an owner who cannot be identified is served by edital; the
        # procedure still runs and its final decision, not staff by hand, decides the capture.
        addressee = Addressee(
            owner.full_name if owner is not None else _("Proprietário não identificado"),
            unidentified=True,
        )
    return issue_apprehension_notice(
        profile or current_profile(),
        agent=agent,
        addressee=addressee,
        fact=_(
            "Apreensão definitiva do animal do protocolo %(p)s: %(r)s", p=capture.protocol, r=reason
        ),
        place=capture.place,
        occurred_at=min(capture.captured_at, datetime.now(UTC)),
        legal_provision=article,
        agent_title=_("Autoridade sanitária"),
        definitive=True,
        animal_id=capture.animal_id,
        capture_id=capture.id,
        measures=_("O animal permanece sob a guarda do CCZ até a decisão final (GRU 87 §ú)."),
    )


def definitive_consequence(profile: Profile) -> tuple[ConsequenceKind, str] | None:
    """What a definitive apprehension records on the person under the profile's law
    (``fines.definitive_consequence``): GRU 88 §4 bars that animal; VV 23 III b and BJP 30 §ú II
    are a loss of possession for repeated maus-tratos; CABO 39 §4 authorises the definitive
    apprehension on repeat. None where the law has no such consequence."""
    rule = profile.fines.definitive_consequence
    return None if rule is None else (ConsequenceKind(rule.kind), rule.article)


def consequence_choices(profile: Profile) -> list[tuple[str, str]]:
    """What a repeat offence authorises under this profile's law, offered to the agent on the
    issue form (CABO 39 §4; VV 23 III b; BJP 30 §ú II; GRU 87 V, VI, VIII)."""
    found = definitive_consequence(profile)
    if found is None:
        return []
    kind, article = found
    if kind == ConsequenceKind.LOST_POSSESSION_MALTREATMENT:
        text = _("Reincidência: perda da posse do animal (%(a)s)", a=article)
    else:
        text = _("Reincidência: apreensão definitiva do animal (%(a)s)", a=article)
    return [(str(kind), text)]


def set_proposed_consequence(profile: Profile, doc: EnforcementDocument, code: str | None) -> None:
    """Record on the document the consequence the agent chose; it takes effect when final."""
    if not code:
        return
    allowed = {k for k, _label in consequence_choices(profile)}
    if code not in allowed:
        raise EnforcementError(
            "consequence", "invalid", _("A lei deste município não prevê esta consequência.")
        )
    if not doc.addressee_cpf:
        raise EnforcementError(
            "cpf", "required", _("A consequência é registrada na pessoa: informe o CPF.")
        )
    found = definitive_consequence(profile)
    assert found is not None  # the code was among consequence_choices, so the law has one
    doc.consequence_kind, doc.consequence_article = found


def on_final(doc: EnforcementDocument, *, upheld: bool, actor: User | None) -> None:
    """The procedure reached its final decision (no appeal in time, or the last instance).

    GRU 87 §ú: only now does the definitive apprehension take effect: the consequence the
    document proposed is recorded on the person (GRU 88 §4), the capture leaves the pending state
    (upheld: the municipality's; not upheld: ordinary custody again) and the owner is told why.
    A decision that does not uphold records nothing.
    """
    if doc.kind == EnforcementKind.INFRACTION and doc.fine_inputs:
        return  # GRU 97-98: the penalty notice that follows carries the procedure on
    if upheld and doc.consequence_kind and doc.addressee_cpf:
        already = db.session.scalar(
            select(PersonConsequence.id).where(PersonConsequence.document_id == doc.id).limit(1)
        )
        if already is None:
            record_consequence(doc, doc.consequence_kind, doc.consequence_article or "")
    if doc.capture_id is None:
        return
    from portal.blueprints.impound.apprehension import decide_definitive_apprehension
    from portal.models import Capture, CaptureStatus

    capture = db.session.get(Capture, doc.capture_id)
    if capture is None or capture.status != CaptureStatus.DEFINITIVE_PENDING:
        return
    decide_definitive_apprehension(
        capture,
        upheld=upheld,
        actor=actor,
        note=_("Decisão final do auto de apreensão nº %(n)s.", n=doc.number),
        document=doc,
    )
    _tell_owner(doc, capture, upheld)


def _tell_owner(doc: EnforcementDocument, capture: Any, upheld: bool) -> None:
    person = doc.person or capture.owner
    if person is None or not person.email:
        return
    if upheld and doc.consequence_article:
        body = _(
            "A decisão sobre o auto de apreensão nº %(n)s é definitiva: a apreensão do animal do "
            "protocolo %(p)s foi mantida (%(a)s) e ele não volta à sua posse (%(c)s).",
            n=doc.number,
            p=capture.protocol,
            a=capture.definitive_article or doc.legal_provision,
            c=doc.consequence_article,
        )
    elif upheld:  # the city's law records nothing on the person (no profile consequence)
        body = _(
            "A decisão sobre o auto de apreensão nº %(n)s é definitiva: a apreensão do animal do "
            "protocolo %(p)s foi mantida (%(a)s).",
            n=doc.number,
            p=capture.protocol,
            a=capture.definitive_article or doc.legal_provision,
        )
    else:
        body = _(
            "A decisão sobre o auto de apreensão nº %(n)s é definitiva: a apreensão definitiva do "
            "animal do protocolo %(p)s não foi mantida. O animal volta à guarda comum do CCZ e "
            "pode ser resgatado no prazo da lei.",
            n=doc.number,
            p=capture.protocol,
        )
    send_email(
        person.email,
        _("Decisão final: auto de apreensão nº %(n)s", n=doc.number),
        body,
    )


def record_consequence(
    doc: EnforcementDocument, kind: str, article: str, *, animal_id: int | None = None
) -> PersonConsequence:
    """Record on the addressee (by CPF) a consequence decided by ``doc`` (loss of possession,
    VV 23 V commitment, definitive apprehension). Raises EnforcementError without a CPF."""
    if not doc.addressee_cpf:
        raise EnforcementError(
            "cpf", "required", _("A consequência é registrada na pessoa: informe o CPF.")
        )
    row = PersonConsequence(
        kind=kind,
        cpf=doc.addressee_cpf,
        person_name=doc.addressee_name,
        document_id=doc.id,
        article=article,
        animal_id=animal_id or doc.animal_id,
    )
    db.session.add(row)
    db.session.flush()
    audit.record("enforcement.consequence", doc, detail={"number": doc.number, "kind": kind})
    return row


def consequences_for_cpf(cpf: str | None) -> list[PersonConsequence]:
    """Every consequence in force for a CPF (adoption eligibility and registration read this)."""
    if not cpf:
        return []
    return list(
        db.session.scalars(
            select(PersonConsequence)
            .where(PersonConsequence.cpf == cpf, PersonConsequence.revoked_at.is_(None))
            .order_by(PersonConsequence.id)
        )
    )


def registration_refusal(cpf: str | None, microchip: str | None = None) -> tuple[str, str] | None:
    """What the law bars a person from registering, as (article, message), or None.

    VV 23 V: whoever signed the term never again to keep animals may register none. GRU 88 §4,
    VV 23 III b, BJP 30 §ú II, CABO 39 §4: the possession of *that* animal never returns to whoever
    caused its definitive apprehension or lost it, so it is not registered to them again. Other
    animals are not barred by any of these laws: staff see the consequence on the RGA review.
    """
    rows = consequences_for_cpf(cpf)
    for row in rows:
        if row.kind == ConsequenceKind.COMMITMENT_NEVER_KEEP:
            return row.article, _(
                "Consta um termo de compromisso de não mais ter animais sob sua guarda "
                "(documento %(n)s, %(a)s): o registro não pode ser feito em seu nome.",
                n=row.document.number,
                a=row.article,
            )
    chip = "".join(ch for ch in (microchip or "") if ch.isalnum()).upper()
    if not chip:
        return None
    from portal.models import Animal

    for row in rows:
        animal = db.session.get(Animal, row.animal_id) if row.animal_id else None
        if animal is not None and (animal.microchip or "").upper() == chip:
            return row.article, _(
                "A posse deste animal não pode voltar a quem deu causa à sua apreensão "
                "definitiva ou a perdeu (documento %(n)s, %(a)s).",
                n=row.document.number,
                a=row.article,
            )
    return None

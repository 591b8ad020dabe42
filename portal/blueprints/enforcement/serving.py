"""Service (ciência) of a document, return visits and the GRU 70 §3 extension: the day of
knowledge starts every term."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from flask_babel import gettext as _

from portal.blueprints.enforcement.common import (
    FINE_KINDS,
    EnforcementError,
    _end_of_day,
    _set_comply_due,
    knowledge_date,
    term_end,
)
from portal.blueprints.enforcement.consequences import on_final, record_consequence
from portal.blueprints.enforcement.duties import on_served
from portal.blueprints.enforcement.fines import _charge_fine
from portal.extensions import db
from portal.models import (
    ConsequenceKind,
    EnforcementDocument,
    EnforcementKind,
    EnforcementStatus,
    ServiceMethod,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import local_date, local_today, tz


def record_service(
    profile: Profile,
    doc: EnforcementDocument,
    *,
    method: str,
    service_on: date,
    note: str | None,
    actor: User,
    today: date | None = None,
) -> None:
    """How and when the addressee knew the document; starts its terms.

    In person: signed, or refused with the agent's note (GRU 95 VIII, 96 VII, 98 VIII); by post:
    the AR's date; by edital: the publication day (knowledge 5 days later, GRU 95 §ú).
    """
    today = today or local_today()
    if doc.knowledge_on is not None:
        raise EnforcementError("method", "done", _("A ciência deste documento já foi registrada."))
    if method not in {m.value for m in ServiceMethod}:
        raise EnforcementError("method", "invalid", _("Escolha como o autuado tomou ciência."))
    if unidentified(doc) and method != ServiceMethod.EDITAL:
        # GRU 95 §ú, 96 §1: an offender who cannot be found or identified is served by edital
        raise EnforcementError(
            "method",
            "edital_only",
            _(
                "O autuado não foi identificado: a ciência é dada por edital publicado na "
                "imprensa oficial (%(a)s).",
                a=edital_article(profile),
            ),
        )
    if service_on > today:
        raise EnforcementError("service_on", "future", _("A data não pode estar no futuro."))
    if service_on < local_date(doc.issued_at):
        raise EnforcementError("service_on", "before", _("A data não pode ser anterior à emissão."))
    if method == ServiceMethod.REFUSED and not (note or "").strip():
        # GRU 95 VIII: "em caso de recusa, a consignação do fato pela autoridade sanitária"
        raise EnforcementError(
            "note", "required", _("Descreva a recusa de assinar (GRU 95 VIII, 96 VII).")
        )
    doc.service_method = method
    doc.service_on = service_on
    doc.service_note = (note or "").strip() or None
    doc.knowledge_on = knowledge_date(profile, method, service_on)
    doc.status = EnforcementStatus.OPEN
    rule = profile.notices
    served_at = (
        datetime.now(UTC)
        if method in (ServiceMethod.SIGNED, ServiceMethod.REFUSED) and service_on == today
        else _end_of_day(doc.knowledge_on)
        if method == ServiceMethod.EDITAL
        else datetime.combine(doc.knowledge_on, time(0), tzinfo=tz()).astimezone(UTC)
    )
    if doc.kind == EnforcementKind.PRELIMINARY:
        _set_comply_due(profile, doc, served_at)
    elif doc.kind == EnforcementKind.INFRACTION and rule.defence_days:
        doc.petition_due_on = term_end(profile, doc.knowledge_on, rule.defence_days)  # GRU 96 V
    elif doc.kind in (EnforcementKind.PENALTY, EnforcementKind.APPREHENSION) and rule.appeal_days:
        doc.petition_due_on = term_end(profile, doc.knowledge_on, rule.appeal_days)  # GRU 98 VI
    if doc.kind in FINE_KINDS and doc.fine_cents:
        _charge_fine(profile, doc)
    never_keep = profile.adoption.bars.article("commitment")
    if doc.kind == EnforcementKind.COMMITMENT and method == ServiceMethod.SIGNED and never_keep:
        # VV 23 V: the signed term never again to keep animals is recorded on the person; a
        # city whose law has no such term records nothing for a termo de compromisso
        record_consequence(doc, ConsequenceKind.COMMITMENT_NEVER_KEEP, never_keep)
    if (
        (doc.consequence_kind or doc.capture_id)
        and doc.petition_due_on is None
        and doc.kind in (EnforcementKind.PENALTY, EnforcementKind.APPREHENSION)
    ):
        # VV 23 III b, BJP 30 §ú II, CABO 39 §4: the law gives no appeal term against the
        # penalty the agent applies, so it is final once known (GRU 87 §ú reading)
        doc.status = EnforcementStatus.FINAL
        db.session.flush()
        on_final(doc, upheld=True, actor=actor)
    # GRU 87 V-VI: a repeat autuação is told; VV 23 II: the laudo schedule starts from now
    on_served(profile, doc)
    audit.record(
        "enforcement.served",
        doc,
        detail={"number": doc.number, "method": method},
        actor_id=actor.id,
    )
    db.session.flush()


def unidentified(doc: EnforcementDocument) -> bool:
    """A document issued to an unidentified addressee (no CPF, no CNPJ): served only by edital."""
    return not doc.addressee_cpf and not doc.addressee_cnpj


def edital_article(profile: Profile) -> str:
    """The article of the edital rule, or a plain statement that the law has none: without it the
    publication itself is the day of knowledge (:func:`knowledge_date`)."""
    if profile.notices.edital_days:
        return profile.notices.cite("edital_days")
    return _("a lei municipal não prevê prazo após a publicação: a ciência é a data da publicação")


def extend_comply_term(profile: Profile, doc: EnforcementDocument, actor: User) -> None:
    """GRU 70 §3: the term may be extended once by 30 days at the addressee's request."""
    days = profile.notices.extension_days
    has_term = doc.comply_hours is not None or doc.comply_days not in (None, 0)
    if not days or doc.kind != EnforcementKind.PRELIMINARY or not has_term:
        raise EnforcementError(
            None, "not_allowed", _("A lei deste município não prevê prorrogação deste prazo.")
        )
    if doc.comply_extended_days:
        raise EnforcementError(None, "done", _("O prazo já foi prorrogado uma vez."))
    doc.comply_extended_days = days
    if doc.comply_hours is not None:
        # GRU 70 §3-4: a term in hours (from one hour up) is extended too; it kept running
        # minute by minute from the service, so the 30 days are added to its end
        if doc.comply_due_at is not None:
            doc.comply_due_at += timedelta(days=days)
    elif doc.knowledge_on:
        _set_comply_due(profile, doc, datetime.now(UTC))
    audit.record(
        "enforcement.extended", doc, detail={"number": doc.number, "days": days}, actor_id=actor.id
    )
    db.session.flush()


def record_return_visit(
    doc: EnforcementDocument, *, complied: bool, actor: User, now: datetime | None = None
) -> None:
    """The return visit of a preliminary notice (GRU 70 §2): fixed, or an auto de infração next.

    "Não sanada" only once the term to fix it is over (:func:`check_not_complied`)."""
    if doc.kind != EnforcementKind.PRELIMINARY or doc.status != EnforcementStatus.OPEN:
        raise EnforcementError(None, "not_allowed", _("Este documento não espera retorno."))
    if not complied:
        check_not_complied(doc, now)
    doc.status = EnforcementStatus.COMPLIED if complied else EnforcementStatus.NOT_COMPLIED
    audit.record(
        "enforcement.return_visit",
        doc,
        detail={"number": doc.number, "complied": complied},
        actor_id=actor.id,
    )
    db.session.flush()


def check_not_complied(doc: EnforcementDocument, now: datetime | None = None) -> None:
    """GRU 70 §2: "não sanada a irregularidade **no prazo fixado**": the notice may be found not
    complied with (and the auto de infração follow) only after its term, extension included,
    has ended. Raises EnforcementError ``not_yet`` before it, naming the last moment."""
    if doc.kind != EnforcementKind.PRELIMINARY or doc.status != EnforcementStatus.OPEN:
        raise EnforcementError(None, "not_allowed", _("Este documento não espera retorno."))
    due = doc.comply_due_at
    if due is None:
        return
    due = due if due.tzinfo else due.replace(tzinfo=UTC)  # SQLite gives instants back naive
    if (now or datetime.now(UTC)) <= due:
        raise EnforcementError(
            None,
            "not_yet",
            _(
                "O prazo para sanar a irregularidade vai até %(d)s: só depois dele a "
                "notificação pode ser dada como não cumprida.",
                d=due.astimezone(tz()).strftime("%d/%m/%Y %H:%M"),
            ),
        )

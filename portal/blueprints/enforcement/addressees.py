"""Who is the addressee of a document: the link between a signed-in person and the CPF or CNPJ
a notice names. Only a verified, active link counts (issue 26 High #2): the person's own CPF,
the requester of an *approved* (active) establishment cadastro with that CNPJ, or someone whose
representation (power of attorney) staff accepted on a petition about a document addressed to
that CPF/CNPJ. Merely requesting a cadastro with a CNPJ, or a refused or pending representation,
gives nothing; the access code printed on the document lets its bearer read that one document
and file a petition with a representation document (``routes._unlocked``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import ColumnElement, and_, false, or_, select

from portal.blueprints.enforcement.common import EnforcementError
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    Establishment,
    EstablishmentStatus,
    Petition,
    RepresentationStatus,
    User,
)
from portal.services import audit
from portal.services.mail import send_email
from portal.urls import absolute_url


def active_cnpjs(user: User) -> set[str]:
    """CNPJs of the approved, active cadastros this person is responsible for."""
    return set(
        db.session.scalars(
            select(Establishment.cnpj).where(
                Establishment.requested_by_id == user.id,
                Establishment.status == EstablishmentStatus.ACTIVE,
            )
        )
    )


def represented(user: User) -> tuple[set[str], set[str]]:
    """(CPFs, CNPJs) this person represents by a power of attorney staff accepted."""
    rows = db.session.execute(
        select(EnforcementDocument.addressee_cpf, EnforcementDocument.addressee_cnpj)
        .join(Petition, Petition.document_id == EnforcementDocument.id)
        .where(
            Petition.filed_by_id == user.id,
            Petition.as_representative.is_(True),
            Petition.representation_status == RepresentationStatus.ACCEPTED,
        )
    )
    cpfs: set[str] = set()
    cnpjs: set[str] = set()
    for cpf, cnpj in rows:
        if cnpj:
            cnpjs.add(cnpj)
        elif cpf:
            cpfs.add(cpf)
    return cpfs, cnpjs


def addressee_filter(user: User) -> ColumnElement[bool]:
    """SQL condition: documents addressed to this person (own CPF, active cadastro, accepted
    representation)."""
    rep_cpfs, rep_cnpjs = represented(user)
    cnpjs = rep_cnpjs | active_cnpjs(user)
    conditions: list[ColumnElement[bool]] = []
    if user.cpf:
        conditions.append(EnforcementDocument.addressee_cpf == user.cpf)
    if rep_cpfs:
        conditions.append(
            and_(
                EnforcementDocument.addressee_cnpj.is_(None),
                EnforcementDocument.addressee_cpf.in_(rep_cpfs),
            )
        )
    if cnpjs:
        conditions.append(EnforcementDocument.addressee_cnpj.in_(cnpjs))
    return or_(*conditions) if conditions else false()


def is_addressee(doc: EnforcementDocument, user: Any) -> bool:
    """The person named by CPF, the responsible of the CNPJ's active cadastro, or an accepted
    representative of either."""
    if user is None or not getattr(user, "is_authenticated", False):
        return False
    if doc.addressee_cpf and user.cpf == doc.addressee_cpf:
        return True
    rep_cpfs, rep_cnpjs = represented(user)
    if doc.addressee_cnpj:
        return doc.addressee_cnpj in rep_cnpjs or doc.addressee_cnpj in active_cnpjs(user)
    return bool(doc.addressee_cpf) and doc.addressee_cpf in rep_cpfs


def recipient(doc: EnforcementDocument) -> User | None:
    """Whom the CCZ writes to about ``doc`` (reminders, decisions): the person it names, the
    responsible of the CNPJ's active cadastro, or the account with the addressee's CPF."""
    if doc.person is not None:
        return doc.person
    if doc.addressee_cnpj:
        # only the responsible of the active cadastro, never a mere requester (issue 26 #2)
        return responsible_for_cnpj(doc.addressee_cnpj)
    if doc.addressee_cpf:
        return db.session.scalar(select(User).where(User.cpf == doc.addressee_cpf))
    return None


def responsible_for_cnpj(cnpj: str) -> User | None:
    """Whom the CCZ writes to about a CNPJ: the responsible of its active cadastro."""
    est = db.session.scalar(
        select(Establishment)
        .where(Establishment.cnpj == cnpj, Establishment.status == EstablishmentStatus.ACTIVE)
        .order_by(Establishment.id.desc())
        .limit(1)
    )
    return est.requested_by if est else None


def decide_representation(petition: Petition, judge: User, *, accept: bool) -> None:
    """Staff accept or refuse the power of attorney filed with a petition (GRU 107 §2 III).
    Accepted, the representative becomes an addressee of the represented CPF/CNPJ's notices."""
    if not petition.as_representative:
        raise EnforcementError(
            None, "not_representative", _("Esta petição não foi apresentada por representante.")
        )
    if petition.representation_status != RepresentationStatus.PENDING:
        raise EnforcementError(None, "already_decided", _("A representação já foi analisada."))
    petition.representation_status = (
        RepresentationStatus.ACCEPTED if accept else RepresentationStatus.REFUSED
    )
    petition.representation_decided_by_id = judge.id
    petition.representation_decided_at = datetime.now(UTC)
    db.session.flush()
    _tell_representative(petition, accept=accept)
    audit.record(
        "enforcement.representation_decided",
        petition.document,
        detail={
            "number": petition.document.number,
            "petition": petition.id,
            "status": petition.representation_status,
        },
    )


def _tell_representative(petition: Petition, *, accept: bool) -> None:
    """The representative learns staff's answer (issue 25: every decision reaches its person)."""
    doc = petition.document
    if not petition.filed_by.email:
        return
    if accept:
        said = _(
            "Sua representação no documento %(n)s foi aceita pelo CCZ. Os documentos endereçados "
            "a quem você representa passam a aparecer em Minhas notificações, e a petição segue "
            "para julgamento.",
            n=doc.number,
        )
    else:
        said = _(
            "Sua representação no documento %(n)s foi recusada pelo CCZ: o documento de "
            "representação não foi aceito. Você continua podendo ler o documento com o código "
            "impresso nele; para peticionar em nome de outra pessoa ou empresa, apresente uma "
            "procuração válida.",
            n=doc.number,
        )
    body = _(
        "Olá, %(name)s.\n\n%(said)s\n\nPortal do CCZ: %(link)s",
        name=petition.filed_by.full_name,
        said=said,
        link=absolute_url("enforcement.mine"),
    )
    send_email(petition.filed_by.email, _("Representação – documento %(n)s", n=doc.number), body)

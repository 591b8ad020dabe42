"""The proofs an adopter shows (VV 28 §2): identity, a recent proof of address, income."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.adoption.rule_results import (
    FAIL,
    NEEDS_DOCUMENT,
    PASS,
    RuleResult,
    proof_of_address_max_age_days,
    rule_result,
)
from portal.extensions import db
from portal.models import (
    ApplicantDocument,
    DocumentKind,
    DocumentStatus,
    User,
)
from portal.profiles.schema import Profile
from portal.services.identity import clean_cpf


def best_document(
    person: User, kind: str, pool: Sequence[ApplicantDocument] | None = None
) -> ApplicantDocument | None:
    """The document that counts: an accepted one first, then one awaiting review; the newest.

    ``pool`` is where to look: the proofs attached to an application (what its reviewer sees);
    None means every proof of the person (the applicant before applying)."""
    if pool is None:
        docs: Sequence[ApplicantDocument] = db.session.scalars(
            select(ApplicantDocument)
            .where(ApplicantDocument.person_id == person.id, ApplicantDocument.kind == kind)
            .order_by(ApplicantDocument.id.desc())
        ).all()
    else:
        docs = sorted((d for d in pool if d.kind == kind), key=lambda d: d.id, reverse=True)
    usable = [d for d in docs if d.status != DocumentStatus.REFUSED]
    if kind == DocumentKind.PROOF_OF_ADDRESS and usable:
        # The most recently issued proof counts, accepted or not: an old accepted one must not hide
        # a fresh one waiting for review.
        return max(
            usable,
            key=lambda d: (d.issued_on or date.min, d.status == DocumentStatus.ACCEPTED, d.id),
        )
    for wanted in (DocumentStatus.ACCEPTED, DocumentStatus.PENDING, DocumentStatus.REFUSED):
        for doc in docs:
            if doc.status == wanted:
                return doc
    return None


def _document_result(
    profile: Profile,
    rule: str,
    doc: ApplicantDocument | None,
    missing: str,
    what: str,
    reviewer: bool = False,
) -> RuleResult:
    if doc is None:
        return rule_result(profile, rule, NEEDS_DOCUMENT, missing, action="documents")
    if doc.status == DocumentStatus.REFUSED:
        return rule_result(
            profile,
            rule,
            NEEDS_DOCUMENT,
            _(
                "%(what)s foi recusado: %(reason)s A pessoa precisa enviar outro.",
                what=what,
                reason=doc.refusal_reason or "",
            )
            if reviewer
            else _(
                "%(what)s foi recusado: %(reason)s Envie outro documento.",
                what=what,
                reason=doc.refusal_reason or "",
            ),
            action="documents",
        )
    if doc.status == DocumentStatus.PENDING:
        return rule_result(
            profile,
            rule,
            NEEDS_DOCUMENT,
            _("%(what)s enviado; confira-o nos documentos do pedido.", what=what)
            if reviewer
            else _("%(what)s enviado; aguarda a conferência de quem analisa o pedido.", what=what),
            awaiting_review=True,
        )
    return rule_result(profile, rule, PASS, _("%(what)s aceito.", what=what))


def check_identity(
    profile: Profile, person: User, reviewer: bool, pool: Sequence[ApplicantDocument] | None
) -> RuleResult:
    # VV 28 §2: "apresentação de CPF e identidade". The CPF's check digits are verified here; the
    # identity document is a photo or PDF that the reviewer compares with the account.
    if not person.cpf or clean_cpf(person.cpf) is None:
        return rule_result(
            profile,
            "identity",
            FAIL,
            _("O cadastro da pessoa não tem um CPF válido.")
            if reviewer
            else _("Seu cadastro não tem um CPF válido. Procure o CCZ para corrigir."),
            action="account",
        )
    doc = best_document(person, DocumentKind.IDENTITY, pool)
    return _document_result(
        profile,
        "identity",
        doc,
        _("CPF válido. A pessoa ainda não enviou um documento de identidade com foto.")
        if reviewer
        else _("CPF válido. Falta enviar um documento de identidade com foto (RG ou CNH)."),
        _("Documento de identidade"),
        reviewer,
    )


def check_proof_of_address(
    profile: Profile,
    person: User,
    on: date,
    reviewer: bool,
    pool: Sequence[ApplicantDocument] | None,
) -> RuleResult:
    doc = best_document(person, DocumentKind.PROOF_OF_ADDRESS, pool)
    if doc is not None and doc.status != DocumentStatus.REFUSED:
        issued = doc.issued_on
        max_days = proof_of_address_max_age_days(profile)
        if issued is None or on - issued > timedelta(days=max_days):
            # VV 28 §2 "comprovante de endereço atualizado": issued within the last 90 days.
            day = issued.strftime("%d/%m/%Y") if issued else "?"
            return rule_result(
                profile,
                "proof_of_address",
                FAIL,
                _(
                    "O comprovante de endereço foi emitido em %(day)s, há mais de "
                    "%(max)d dias; a pessoa precisa enviar um mais recente.",
                    day=day,
                    max=proof_of_address_max_age_days(profile),
                )
                if reviewer
                else _(
                    "O comprovante de endereço foi emitido em %(day)s, há mais de "
                    "%(max)d dias. Envie um comprovante emitido nos últimos %(max)d dias.",
                    day=day,
                    max=proof_of_address_max_age_days(profile),
                ),
                action="documents",
            )
        if issued > on:
            return rule_result(
                profile,
                "proof_of_address",
                FAIL,
                _("A data de emissão do comprovante de endereço está no futuro.")
                if reviewer
                else _(
                    "A data de emissão do comprovante de endereço está no futuro. "
                    "Envie o documento de novo com a data correta."
                ),
                action="documents",
            )
    return _document_result(
        profile,
        "proof_of_address",
        doc,
        _(
            "A pessoa ainda não enviou um comprovante de endereço emitido nos últimos %(max)d "
            "dias.",
            max=proof_of_address_max_age_days(profile),
        )
        if reviewer
        else _(
            "Falta enviar um comprovante de endereço emitido nos últimos %(max)d dias (conta de "
            "luz, água, telefone…).",
            max=proof_of_address_max_age_days(profile),
        ),
        _("Comprovante de endereço"),
        reviewer,
    )


def check_proof_of_income(
    profile: Profile, person: User, reviewer: bool, pool: Sequence[ApplicantDocument] | None
) -> RuleResult:
    doc = best_document(person, DocumentKind.PROOF_OF_INCOME, pool)
    return _document_result(
        profile,
        "proof_of_income",
        doc,
        _("A pessoa ainda não enviou um comprovante de renda.")
        if reviewer
        else _(
            "Falta enviar um comprovante de renda (holerite, extrato de benefício, declaração…)."
        ),
        _("Comprovante de renda"),
        reviewer,
    )

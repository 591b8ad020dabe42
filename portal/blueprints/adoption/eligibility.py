"""Who may adopt: one service, one result per rule, each with its article (DOMAIN §5).

:func:`check_eligibility` is the only place these rules live. The apply page shows its results
before the person submits, the reviewer sees them again (live) next to the documents, and the
approval and the hand-over refuse to go on unless every rule passes.

Which law asks for what
-----------------------
Only Vila Velha writes adopter requirements into its law (VV 28 §2: 18+, CPF and identity, proof of
minimum income, current proof of address, the Termo de Compromisso de Adoção); the VV profile lists
them in ``adoption.adopter_requirements``. DOMAIN §5 makes these checks the portal's baseline in
every municipality, so they run everywhere; when the local law does not require one, the result
cites the provision it comes from and says it is a rule of the adoption programme, not of the
local law (``RuleResult.in_local_law`` is False).

The bars come from three laws: the commitment never to keep animals (VV 23 V), the loss of
possession for maus-tratos (VV 23 III b; BJP 30 §ú) and the person who caused the definitive
apprehension of *this* animal (GRU 88 §4, which bars that animal only). The household limit comes
from the profile (GRU 37, BJP 17, CAB 31, CABO 33 §ú; none in VV) through the RGA team's
``check_household_limit``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import date, timedelta
from typing import Any, Literal

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from sqlalchemy import select

from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    BarKind,
    DocumentKind,
    DocumentStatus,
    Listing,
    PersonBar,
    User,
)
from portal.models.adoption import OPEN_APPLICATION_STATUSES
from portal.profiles.schema import Profile
from portal.services.identity import clean_cpf

Status = Literal["pass", "fail", "needs_document"]
PASS: Status = "pass"
FAIL: Status = "fail"
NEEDS_DOCUMENT: Status = "needs_document"

# VV 28 §2: "comprovante de endereço atualizado"; the portal reads "atualizado" as issued in the
# last 90 days, everywhere.
PROOF_OF_ADDRESS_MAX_AGE_DAYS = 90
PORTAL_MIN_ADOPTER_AGE = 18  # VV 28 §2; the baseline where the local law sets no age

# Where each baseline rule comes from, cited when the local law has nothing to say.
SOURCE_ARTICLES = {
    "adult": "VV 28 §2",
    "identity": "VV 28 §2",
    "proof_of_address": "VV 28 §2",
    "proof_of_income": "VV 28 §2",
    "bar_commitment": "VV 23 V",
    "bar_maltreatment": "VV 23 III b; BJP 30 §ú",
    "bar_apprehension": "GRU 88 §4",
    "adoption_term": "VV 28 §2",
}
# The profile's own words for the VV 28 §2 requirements (AdoptionRule.adopter_requirements).
_PROFILE_REQUIREMENT = {
    "adult": "adult",
    "identity": "cpf_and_id",
    "proof_of_address": "address_proof",
    "proof_of_income": "income_proof",
    "adoption_term": "commitment_term",
}
# Bars are written in the enforcement chapters, which the profiles do not model: by law key.
_BAR_ARTICLES = {
    "bar_commitment": {"VV": "VV 23 V"},
    "bar_maltreatment": {"VV": "VV 23 III b", "BJP": "BJP 30 §ú"},
    "bar_apprehension": {"GRU": "GRU 88 §4"},
}


@dataclass(frozen=True)
class RuleResult:
    """The outcome of one eligibility rule.

    ``needs_document`` means the person still has something to do or to wait for: upload a proof,
    complete the account, accept the term, or (``awaiting_review``) wait for the reviewer to accept
    an uploaded proof. ``fail`` means the person cannot adopt (this animal) as things stand.
    """

    rule: str
    status: Status
    message: str
    article: str
    in_local_law: bool
    awaiting_review: bool = False
    action: str | None = None  # what the UI links to: "documents", "account", "licence"
    link: str | None = None  # e.g. the licence request page of the household limit

    @property
    def passed(self) -> bool:
        return self.status == PASS

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


RULE_TITLES = {
    "adult": _l("Maior de idade"),
    "identity": _l("CPF e documento de identidade"),
    "proof_of_address": _l("Comprovante de endereço recente"),
    "proof_of_income": _l("Comprovante de renda"),
    "bar_commitment": _l("Sem termo de não mais ter animais"),
    "bar_maltreatment": _l("Sem perda de posse por maus-tratos"),
    "bar_apprehension": _l("Não causou a apreensão deste animal"),
    "household_limit": _l("Limite de animais na residência"),
    "adoption_term": _l("Termo de Compromisso de Adoção"),
}


def rule_title(rule: str) -> str:
    """The short name of a rule in the visitor's language."""
    return str(RULE_TITLES.get(rule, rule))


def _law_article(profile: Profile, rule: str) -> str | None:
    """The local law's citation for a rule, or None when the local law does not require it."""
    if rule in _PROFILE_REQUIREMENT:
        if _PROFILE_REQUIREMENT[rule] in profile.adoption.adopter_requirements:
            return profile.adoption.cite("adopter_requirements")
        return None
    return _BAR_ARTICLES.get(rule, {}).get(profile.law_key)


def _result(profile: Profile, rule: str, status: Status, message: str, **extra: Any) -> RuleResult:
    local = _law_article(profile, rule)
    return RuleResult(
        rule=rule,
        status=status,
        message=message,
        article=local or SOURCE_ARTICLES[rule],
        in_local_law=local is not None,
        **extra,
    )


def _age_on(birth: date, on: date) -> int:
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def _best_document(person: User, kind: str) -> ApplicantDocument | None:
    """The document that counts: an accepted one first, then one awaiting review; the newest."""
    docs = db.session.scalars(
        select(ApplicantDocument)
        .where(ApplicantDocument.person_id == person.id, ApplicantDocument.kind == kind)
        .order_by(ApplicantDocument.id.desc())
    ).all()
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
        return _result(profile, rule, NEEDS_DOCUMENT, missing, action="documents")
    if doc.status == DocumentStatus.REFUSED:
        return _result(
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
        return _result(
            profile,
            rule,
            NEEDS_DOCUMENT,
            _("%(what)s enviado; confira-o nos documentos do pedido.", what=what)
            if reviewer
            else _("%(what)s enviado; aguarda a conferência de quem analisa o pedido.", what=what),
            awaiting_review=True,
        )
    return _result(profile, rule, PASS, _("%(what)s aceito.", what=what))


def _check_adult(profile: Profile, person: User, on: date, reviewer: bool) -> RuleResult:
    min_age = profile.adoption.min_adopter_age or PORTAL_MIN_ADOPTER_AGE  # VV 28 §2
    if person.birth_date is None:
        return _result(
            profile,
            "adult",
            NEEDS_DOCUMENT,
            _("O cadastro da pessoa não tem data de nascimento.")
            if reviewer
            else _("Informe sua data de nascimento no seu cadastro."),
            action="account",
        )
    age = _age_on(person.birth_date, on)
    if age < min_age:
        return _result(
            profile,
            "adult",
            FAIL,
            _(
                "Só maiores de %(min)d anos podem adotar; pelo cadastro, a pessoa tem "
                "%(age)d anos.",
                min=min_age,
                age=age,
            )
            if reviewer
            else _(
                "Só maiores de %(min)d anos podem adotar; pelo cadastro, você tem %(age)d anos.",
                min=min_age,
                age=age,
            ),
        )
    return _result(
        profile,
        "adult",
        PASS,
        _("A pessoa tem %(min)d anos ou mais.", min=min_age)
        if reviewer
        else _("Você tem %(min)d anos ou mais.", min=min_age),
    )


def _check_identity(profile: Profile, person: User, reviewer: bool) -> RuleResult:
    # VV 28 §2: "apresentação de CPF e identidade". The CPF's check digits are verified here; the
    # identity document is a photo or PDF that the reviewer compares with the account.
    if not person.cpf or clean_cpf(person.cpf) is None:
        return _result(
            profile,
            "identity",
            FAIL,
            _("O cadastro da pessoa não tem um CPF válido.")
            if reviewer
            else _("Seu cadastro não tem um CPF válido. Procure o CCZ para corrigir."),
            action="account",
        )
    doc = _best_document(person, DocumentKind.IDENTITY)
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


def _check_proof_of_address(profile: Profile, person: User, on: date, reviewer: bool) -> RuleResult:
    doc = _best_document(person, DocumentKind.PROOF_OF_ADDRESS)
    if doc is not None and doc.status != DocumentStatus.REFUSED:
        issued = doc.issued_on
        if issued is None or on - issued > timedelta(days=PROOF_OF_ADDRESS_MAX_AGE_DAYS):
            # VV 28 §2 "comprovante de endereço atualizado": issued within the last 90 days.
            day = issued.strftime("%d/%m/%Y") if issued else "?"
            return _result(
                profile,
                "proof_of_address",
                FAIL,
                _(
                    "O comprovante de endereço foi emitido em %(day)s, há mais de "
                    "%(max)d dias; a pessoa precisa enviar um mais recente.",
                    day=day,
                    max=PROOF_OF_ADDRESS_MAX_AGE_DAYS,
                )
                if reviewer
                else _(
                    "O comprovante de endereço foi emitido em %(day)s, há mais de "
                    "%(max)d dias. Envie um comprovante emitido nos últimos %(max)d dias.",
                    day=day,
                    max=PROOF_OF_ADDRESS_MAX_AGE_DAYS,
                ),
                action="documents",
            )
        if issued > on:
            return _result(
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
            max=PROOF_OF_ADDRESS_MAX_AGE_DAYS,
        )
        if reviewer
        else _(
            "Falta enviar um comprovante de endereço emitido nos últimos %(max)d dias (conta de "
            "luz, água, telefone…).",
            max=PROOF_OF_ADDRESS_MAX_AGE_DAYS,
        ),
        _("Comprovante de endereço"),
        reviewer,
    )


def _check_proof_of_income(profile: Profile, person: User, reviewer: bool) -> RuleResult:
    doc = _best_document(person, DocumentKind.PROOF_OF_INCOME)
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


def active_bars(cpf: str | None) -> list[Any]:
    """Every bar in force for a CPF (revoked bars no longer count): those staff typed
    (``PersonBar``) and those the enforcement procedure recorded with their deciding document
    (:func:`enforcement_bars`)."""
    if not cpf:
        return []
    typed: list[Any] = list(
        db.session.scalars(
            select(PersonBar)
            .where(PersonBar.cpf == cpf, PersonBar.revoked_at.is_(None))
            .order_by(PersonBar.id)
        )
    )
    return typed + enforcement_bars(cpf)


@dataclass(frozen=True)
class EnforcementBar:
    """A consequence recorded by a notice (VV 23 V, VV 23 III b, BJP 30 §ú, GRU 88 §4), read
    like a ``PersonBar``: same ``kind`` codes; GRU 88 §4 bars the one animal."""

    kind: str
    reason: str
    document_number: str
    listing_id: int | None = None
    animal_id: int | None = None


def enforcement_bars(cpf: str | None) -> list[EnforcementBar]:
    """The consequences the enforcement domain recorded on this CPF."""
    from portal.blueprints.enforcement.services import consequences_for_cpf

    return [
        EnforcementBar(c.kind, c.article, c.document.number, None, c.animal_id)
        for c in consequences_for_cpf(cpf)
    ]


def _check_bars(
    profile: Profile, person: User, listing: Listing, reviewer: bool
) -> list[RuleResult]:
    bars = active_bars(person.cpf)
    contact = "" if reviewer else _("Se acredita que há um engano, procure o CCZ.")
    results = []

    # VV 23 V: the person signed a term never again to keep animals under their care.
    if any(b.kind == BarKind.COMMITMENT_NEVER_KEEP for b in bars):
        results.append(
            _result(
                profile,
                "bar_commitment",
                FAIL,
                (
                    _(
                        "Consta um termo de compromisso assinado pela pessoa de não "
                        "mais ter animais sob sua guarda."
                    )
                    if reviewer
                    else _(
                        "Consta um termo de compromisso assinado por você de não mais "
                        "ter animais sob sua guarda. "
                    )
                    + contact
                ),
            )
        )
    else:
        results.append(
            _result(
                profile,
                "bar_commitment",
                PASS,
                _("Não há termo de compromisso de não ter animais."),
            )
        )

    # VV 23 III b; BJP 30 §ú: loss of possession after repeated maus-tratos.
    if any(b.kind == BarKind.LOST_POSSESSION_MALTREATMENT for b in bars):
        results.append(
            _result(
                profile,
                "bar_maltreatment",
                FAIL,
                (_("Consta perda da posse de animal por maus-tratos. ") + contact).strip(),
            )
        )
    else:
        results.append(
            _result(
                profile,
                "bar_maltreatment",
                PASS,
                _("Não há perda de posse de animal por maus-tratos."),
            )
        )

    # GRU 88 §4: the possession never returns to whoever caused the definitive apprehension; only
    # this animal is barred, matched by listing or by its RGA record.
    this_animal = any(
        b.kind == BarKind.CAUSED_DEFINITIVE_APPREHENSION
        and (
            (b.listing_id is not None and b.listing_id == listing.id)
            or (b.animal_id is not None and b.animal_id == listing.animal_id)
        )
        for b in bars
    )
    if this_animal:
        results.append(
            _result(
                profile,
                "bar_apprehension",
                FAIL,
                _(
                    "A pessoa deu causa à apreensão definitiva deste animal; a posse "
                    "dele não pode voltar a ela."
                )
                if reviewer
                else _(
                    "Você deu causa à apreensão definitiva deste animal; a posse dele "
                    "não pode voltar a você. Você pode adotar outro animal."
                ),
            )
        )
    else:
        results.append(
            _result(
                profile,
                "bar_apprehension",
                PASS,
                _("A pessoa não deu causa à apreensão deste animal.")
                if reviewer
                else _("Você não deu causa à apreensão deste animal."),
            )
        )
    return results


def _check_household(
    profile: Profile, person: User, listing: Listing, on: date, reviewer: bool
) -> RuleResult:
    """DOMAIN §4: the residence must stay within the limit with the adopted animal counted.

    The law counts only animals older than its threshold (GRU 37 "idade superior a 120 dias";
    BJP 17: 90 days), so a young animal does not count today: adopting it is allowed, and the
    person is told the day it starts to count when the residence would then be over the limit.
    """
    article = profile.household.article
    try:
        from portal.blueprints.animals.services import (
            AnimalError,
            HouseholdLimitExceeded,
            check_household_limit,
            counts_for_household,
        )
    except ImportError:  # the RGA module is not installed: the reviewer must check by hand
        return RuleResult(
            rule="household_limit",
            status=NEEDS_DOCUMENT,
            in_local_law=True,
            article=article,
            awaiting_review=True,
            message=_(
                "A contagem de animais da residência será conferida pela "
                "equipe na análise do pedido."
            ),
        )
    if profile.household.limit is None:  # VV: the law sets no limit
        return RuleResult(
            rule="household_limit",
            status=PASS,
            article=article,
            in_local_law=True,
            message=_("A lei municipal não limita o número de cães e gatos por residência."),
        )
    # GRU 37; BJP 17: only animals older than the threshold count.
    counts_now = counts_for_household(listing.birth_date, on, profile)
    try:
        check_household_limit(profile, person, extra=1, on=on)
    except HouseholdLimitExceeded as exc:
        if not counts_now:
            counts_on = listing.birth_date + timedelta(days=profile.household.min_age_days + 1)
            return RuleResult(
                rule="household_limit",
                status=PASS,
                article=article,
                in_local_law=True,
                action="licence" if exc.licence_url else None,
                link=exc.licence_url,
                message=_(
                    "Este animal tem menos de %(days)d dias e ainda não conta no limite "
                    "da residência. A partir de %(day)s ele passa a contar: %(limit)s",
                    days=profile.household.min_age_days,
                    day=counts_on.strftime("%d/%m/%Y"),
                    limit=exc.message,
                ),
            )
        return RuleResult(
            rule="household_limit",
            status=FAIL,
            message=exc.message,
            article=exc.article or article,
            in_local_law=True,
            action="licence" if exc.licence_url else None,
            link=exc.licence_url,
        )
    except AnimalError:  # no usable address: the residence cannot be counted yet
        return RuleResult(
            rule="household_limit",
            status=NEEDS_DOCUMENT,
            article=article,
            in_local_law=True,
            action="account",
            message=_(
                "O cadastro da pessoa não tem endereço completo; os animais "
                "da residência não podem ser contados."
            )
            if reviewer
            else _(
                "Complete seu endereço (CEP, logradouro e número) no seu "
                "cadastro: é onde o animal vai morar e onde contamos os "
                "animais da residência."
            ),
        )
    return RuleResult(
        rule="household_limit",
        status=PASS,
        article=article,
        in_local_law=True,
        message=_(
            "Com este animal, a residência da pessoa continua dentro do "
            "limite de %(limit)d cães e gatos.",
            limit=profile.household.limit,
        )
        if reviewer
        else _(
            "Com este animal, sua residência continua dentro do limite de %(limit)d cães e gatos.",
            limit=profile.household.limit,
        ),
    )


def _check_term(profile: Profile, person: User, listing: Listing, reviewer: bool) -> RuleResult:
    accepted = db.session.scalar(
        select(AdoptionApplication.id)
        .where(
            AdoptionApplication.applicant_id == person.id,
            AdoptionApplication.listing_id == listing.id,
            AdoptionApplication.term_accepted_at.is_not(None),
            AdoptionApplication.status.in_(OPEN_APPLICATION_STATUSES),
        )
        .limit(1)
    )
    if accepted is not None:
        return _result(
            profile,
            "adoption_term",
            PASS,
            _("A pessoa aceitou o Termo de Compromisso de Adoção.")
            if reviewer
            else _("Você aceitou o Termo de Compromisso de Adoção."),
        )
    return _result(
        profile,
        "adoption_term",
        NEEDS_DOCUMENT,
        _("A pessoa ainda não aceitou o Termo de Compromisso de Adoção.")
        if reviewer
        else _("Leia e aceite o Termo de Compromisso de Adoção ao enviar o pedido."),
    )


def check_eligibility(
    profile: Profile, person: User, listing: Listing, on: date, *, reviewer: bool = False
) -> list[RuleResult]:
    """Every adoption rule for ``person`` adopting ``listing`` on ``on``, one result per rule.

    Order: age, CPF/identity, proof of address, proof of income, the three bars, household limit,
    term. Never raises for a rule outcome; reads only (no flush). ``reviewer`` words the messages
    for the NGO or CCZ staff reviewing the application ("A pessoa tem…") instead of for the
    applicant ("Você tem…").
    """
    return [
        _check_adult(profile, person, on, reviewer),
        _check_identity(profile, person, reviewer),
        _check_proof_of_address(profile, person, on, reviewer),
        _check_proof_of_income(profile, person, reviewer),
        *_check_bars(profile, person, listing, reviewer),
        _check_household(profile, person, listing, on, reviewer),
        _check_term(profile, person, listing, reviewer),
    ]


def submission_blockers(results: list[RuleResult]) -> list[RuleResult]:
    """What stops the person from submitting now: a failed rule, or a document not yet uploaded.

    A proof waiting for the reviewer does not block (the reviewer accepts it during the review),
    nor does the term (it is accepted in the same form that submits).
    """
    return [
        r
        for r in results
        if r.status == FAIL
        or (r.status == NEEDS_DOCUMENT and not r.awaiting_review and r.rule != "adoption_term")
    ]


def approval_blockers(results: list[RuleResult]) -> list[RuleResult]:
    """Approval and hand-over need every rule to pass."""
    return [r for r in results if r.status != PASS]

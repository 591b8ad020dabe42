"""Who may adopt: one service, one result per rule, each with its article (VV 28 §2; VV 23;
BJP 30 §ú; GRU 88 §4).

:func:`check_eligibility` is the only place these rules live. The apply page shows its results
before the person submits, the reviewer sees them again (live) next to the documents, and the
approval and the hand-over refuse to go on unless every rule passes.

Which law asks for what
-----------------------
Only Vila Velha writes adopter requirements into its law (VV 28 §2: 18+, CPF and identity, proof of
minimum income, current proof of address, the Termo de Compromisso de Adoção); the VV profile lists
them in ``adoption.adopter_requirements``. The adoption programme makes these checks the portal's
baseline in every municipality, so they run everywhere; when the local law does not require
one, the result cites the provision it comes from and says it is a rule of the adoption
programme, not of the local law (``RuleResult.in_local_law`` is False).

The bars come from three laws: the commitment never to keep animals (VV 23 V), the loss of
possession for maus-tratos (VV 23 III b; BJP 30 §ú) and the person who caused the definitive
apprehension of *this* animal (GRU 88 §4, which bars that animal only). The household limit comes
from the profile (GRU 37, BJP 17, CAB 31, CABO 33 §ú; none in VV) through the RGA team's
``check_household_limit``.
"""

from __future__ import annotations

from datetime import date, timedelta

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.adoption.bar_rules import EnforcementBar as EnforcementBar
from portal.blueprints.adoption.bar_rules import active_bars as active_bars
from portal.blueprints.adoption.bar_rules import check_bars
from portal.blueprints.adoption.bar_rules import enforcement_bars as enforcement_bars
from portal.blueprints.adoption.proof_rules import (
    check_identity,
    check_proof_of_address,
    check_proof_of_income,
)
from portal.blueprints.adoption.rule_results import (
    FAIL,
    NEEDS_DOCUMENT,
    PASS,
    RuleResult,
    rule_result,
)
from portal.blueprints.adoption.rule_results import RULE_TITLES as RULE_TITLES
from portal.blueprints.adoption.rule_results import (
    proof_of_address_max_age_days as proof_of_address_max_age_days,
)
from portal.blueprints.adoption.rule_results import rule_title as rule_title
from portal.blueprints.animals.services import (
    AnimalError,
    HouseholdLimitExceeded,
    check_household_limit,
    counts_for_household,
)
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    Listing,
    User,
)
from portal.models.adoption import OPEN_APPLICATION_STATUSES
from portal.profiles.schema import Profile


def _age_on(birth: date, on: date) -> int:
    return on.year - birth.year - ((on.month, on.day) < (birth.month, birth.day))


def _check_adult(profile: Profile, person: User, on: date, reviewer: bool) -> RuleResult:
    # VV 28 §2; where the law sets no age, the programme's (civil majority by default).
    min_age = profile.adoption.min_adopter_age
    if min_age is None:
        min_age = profile.programme.min_adopter_age
    if person.birth_date is None:
        return rule_result(
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
        return rule_result(
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
    return rule_result(
        profile,
        "adult",
        PASS,
        _("A pessoa tem %(min)d anos ou mais.", min=min_age)
        if reviewer
        else _("Você tem %(min)d anos ou mais.", min=min_age),
    )


def _check_household(
    profile: Profile, person: User, listing: Listing, on: date, reviewer: bool
) -> RuleResult:
    """GRU 37; BJP 17: the residence must stay within the limit with the adopted animal counted.

    The law counts only animals older than its threshold (GRU 37 "idade superior a 120 dias";
    BJP 17: 90 days), so a young animal does not count today: adopting it is allowed, and the
    person is told the day it starts to count when the residence would then be over the limit.
    """
    article = profile.household.article
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
        return rule_result(
            profile,
            "adoption_term",
            PASS,
            _("A pessoa aceitou o Termo de Compromisso de Adoção.")
            if reviewer
            else _("Você aceitou o Termo de Compromisso de Adoção."),
        )
    return rule_result(
        profile,
        "adoption_term",
        NEEDS_DOCUMENT,
        _("A pessoa ainda não aceitou o Termo de Compromisso de Adoção.")
        if reviewer
        else _("Leia e aceite o Termo de Compromisso de Adoção ao enviar o pedido."),
    )


def check_eligibility(
    profile: Profile,
    person: User,
    listing: Listing,
    on: date,
    *,
    reviewer: bool = False,
    application: AdoptionApplication | None = None,
) -> list[RuleResult]:
    """Every adoption rule for ``person`` adopting ``listing`` on ``on``, one result per rule.

    Order: age, CPF/identity, proof of address, proof of income, the three bars, household limit,
    term. Never raises for a rule outcome; reads only (no flush). ``reviewer`` words the messages
    for the NGO or CCZ staff reviewing the application ("A pessoa tem…") instead of for the
    applicant ("Você tem…"). With ``application``, the proofs counted are those attached to it
    (what its reviewer sees); without, every proof of the person (before applying).
    """
    from portal.blueprints.adoption.documents import attached_documents

    pool = attached_documents(application) if application is not None else None
    return [
        _check_adult(profile, person, on, reviewer),
        check_identity(profile, person, reviewer, pool),
        check_proof_of_address(profile, person, on, reviewer, pool),
        check_proof_of_income(profile, person, reviewer, pool),
        *check_bars(profile, person, listing, reviewer),
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

"""Adopter eligibility at its legal edges (issue 16): ages on the birthday, the day before and
across a year, the first and last day a proof of address counts and the day after, the household
limit with the adopted animal counted, two profiles side by side, omitted inputs.

Expected values are worked from the articles by hand in the comments, never read from the code:
- VV 28 §2: "somente poderá ser adotado por maiores de 18 (dezoito) anos, mediante comprovação de
  renda mínima, apresentação de CPF e identidade, comprovante de endereço atualizado e assinatura
  do Termo de Compromisso de Adoção" ("atualizado": issued within the last 90 days, the
  programme's number where the law gives none).
- VV 23 V, VV 23 III b, BJP 30 §ú, GRU 88 §4: the bars.
- GRU 37: at most 5 dogs and cats older than 120 days per residence.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.adoption import services as svc
from portal.blueprints.adoption.eligibility import (
    FAIL,
    NEEDS_DOCUMENT,
    PASS,
    approval_blockers,
    check_eligibility,
    submission_blockers,
)
from portal.blueprints.adoption.rule_results import RuleResult, Status
from portal.extensions import db
from portal.models import BarKind, DocumentKind, DocumentStatus
from tests import factories
from tests.factories import add_document, eligible_person, fill_household, make_listing

ON = date.today()


def _rule(results, name):  # type: ignore[no-untyped-def]
    matches = [r for r in results if r.rule == name]
    assert len(matches) == 1
    return matches[0]


@pytest.fixture
def vv(make_app):  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        yield app.extensions["portal_profile"]


@pytest.fixture
def gru(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _adult(profile, birth: date, on: date, reviewer: bool = False):  # type: ignore[no-untyped-def]
    person = factories.user(birth_date=birth)
    return _rule(
        check_eligibility(profile, person, make_listing(on=ON), on, reviewer=reviewer), "adult"
    )


# -- VV 28 §2: "maiores de 18 (dezoito) anos" -------------------------------------------------


def test_vv_28_par2_eighteen_on_the_birthday_seventeen_the_day_before(vv) -> None:
    # Born 2008-06-15: on 2026-06-14 the person is 17 (the birthday has not come); on 2026-06-15
    # 18 (may adopt).
    born = date(2008, 6, 15)
    before = _adult(vv, born, date(2026, 6, 14))
    assert before.status == FAIL and "você tem 17 anos" in before.message
    assert "maiores de 18 anos" in before.message
    assert _adult(vv, born, date(2026, 6, 15)).status == PASS


def test_vv_28_par2_age_across_the_new_year(vv) -> None:
    # Born 2008-12-31: on 2026-12-30 still 17 (the year turned but not the birthday, and a count
    # of years alone would say 18); on 2026-12-31, 18. Born 2008-01-01: on 2025-12-31, 17;
    # on 2026-01-01, 18.
    assert _adult(vv, date(2008, 12, 31), date(2026, 12, 30)).status == FAIL
    assert _adult(vv, date(2008, 12, 31), date(2026, 12, 31)).status == PASS
    assert _adult(vv, date(2008, 1, 1), date(2025, 12, 31)).status == FAIL
    assert _adult(vv, date(2008, 1, 1), date(2026, 1, 1)).status == PASS


def test_vv_28_par2_same_month_earlier_or_later_day(vv) -> None:
    # Born 2008-03-20: on 2026-03-19, 17; on 2026-03-21, 18. Born 2008-03-10 on 2026-03-09: 17.
    assert _adult(vv, date(2008, 3, 20), date(2026, 3, 19)).status == FAIL
    assert _adult(vv, date(2008, 3, 20), date(2026, 3, 21)).status == PASS
    assert _adult(vv, date(2008, 3, 10), date(2026, 3, 9)).status == FAIL
    # Born 2008-04-01, on 2026-03-31: month earlier, 17.
    assert _adult(vv, date(2008, 4, 1), date(2026, 3, 31)).status == FAIL


def test_vv_28_par2_born_on_29_february(vv) -> None:
    # Born 2008-02-29: in 2026 (no 29 February) the person is still 17 on 28 February and 18
    # on 1 March.
    assert _adult(vv, date(2008, 2, 29), date(2026, 2, 28)).status == FAIL
    assert _adult(vv, date(2008, 2, 29), date(2026, 3, 1)).status == PASS


def test_vv_28_par2_reviewer_reads_the_age_of_the_person(vv) -> None:
    # A 16-year-old (born 2010-01-10, on 2026-06-01): the reviewer reads "a pessoa tem 16 anos".
    result = _adult(vv, date(2010, 1, 10), date(2026, 6, 1), reviewer=True)
    assert result.status == FAIL and "a pessoa tem 16 anos" in result.message
    assert result.article == "VV 28 §2" and result.in_local_law
    passed = _adult(vv, date(1990, 1, 1), date(2026, 6, 1), reviewer=True)
    assert passed.message == "A pessoa tem 18 anos ou mais."


def test_vv_28_par2_eighteen_is_the_programme_age_in_guarulhos(gru) -> None:
    # Guarulhos's law sets no age: the programme's 18 applies, called programme policy (no other
    # city's article cited).
    born = date(2008, 6, 15)
    before = _adult(gru, born, date(2026, 6, 14))
    assert before.status == FAIL and not before.in_local_law
    assert before.article == "regra do programa de adoção"
    assert _adult(gru, born, date(2026, 6, 15)).status == PASS


def test_programme_age_is_the_citys_choice_in_its_profile(gru) -> None:
    # A city whose law sets no age may pick another one in its file's [programme] table; the
    # portal reads it from there (21 here), not from a constant in the code.
    city = gru.model_copy(
        update={"programme": gru.programme.model_copy(update={"min_adopter_age": 21})}
    )
    born = date(2005, 6, 15)
    assert _adult(gru, born, date(2026, 6, 15)).status == PASS  # 21 today, 18 is enough
    before = _adult(city, born, date(2026, 6, 14))  # 20 years old the day before
    assert before.status == FAIL and "maiores de 21 anos" in before.message
    assert _adult(city, born, date(2026, 6, 15)).status == PASS


def test_vv_28_par2_the_laws_age_wins_over_the_programmes(vv) -> None:
    # Vila Velha's law says 18: a programme age of 21 in its file does not raise it.
    city = vv.model_copy(
        update={"programme": vv.programme.model_copy(update={"min_adopter_age": 21})}
    )
    assert _adult(city, date(2008, 6, 15), date(2026, 6, 15)).status == PASS  # 18 today


def test_vv_28_par2_omitted_birth_date(gru) -> None:
    result = _adult(gru, None, ON)  # type: ignore[arg-type]
    assert result.status == NEEDS_DOCUMENT and result.action == "account"
    assert result.article == "regra do programa de adoção"


# -- blockers -------------------------------------------------------------------------------------


def _result(rule: str, status: Status, awaiting_review: bool = False) -> RuleResult:
    return RuleResult(
        rule=rule,
        status=status,
        message="m",
        article="a",
        in_local_law=True,
        awaiting_review=awaiting_review,
    )


def test_vv_28_par2_what_blocks_submission_and_approval() -> None:
    # A failed rule blocks both; a missing proof blocks the submission; a proof awaiting review
    # and the term (accepted in the same form) block only the approval.
    failed = _result("adult", FAIL)
    missing = _result("identity", NEEDS_DOCUMENT)
    waiting = _result("proof_of_income", NEEDS_DOCUMENT, awaiting_review=True)
    term = _result("adoption_term", NEEDS_DOCUMENT)
    passed = _result("bar_commitment", PASS)
    results = [failed, missing, waiting, term, passed]
    assert submission_blockers(results) == [failed, missing]
    assert approval_blockers(results) == [failed, missing, waiting, term]


# -- VV 28 §2 "comprovante de endereço atualizado": 90 days -------------------------------------


def _address(profile, issued_on: date | None, status: str = DocumentStatus.ACCEPTED):  # type: ignore[no-untyped-def]
    person = factories.user()
    doc = add_document(person, DocumentKind.PROOF_OF_ADDRESS, status=status, on=ON)
    doc.issued_on = issued_on
    return _rule(check_eligibility(profile, person, make_listing(on=ON), ON), "proof_of_address")


def test_vv_28_par2_proof_issued_today_counts_tomorrow_is_in_the_future(vv) -> None:
    assert _address(vv, ON).status == PASS
    future = _address(vv, ON + timedelta(days=1))
    assert future.status == FAIL and "futuro" in future.message
    assert future.action == "documents"


def test_vv_28_par2_proof_of_90_days_counts_91_does_not(vv) -> None:
    assert _address(vv, ON - timedelta(days=90)).status == PASS
    old = _address(vv, ON - timedelta(days=91))
    assert old.status == FAIL and "há mais de 90 dias" in old.message
    assert old.action == "documents"


def test_vv_28_par2_proof_without_issue_date_is_not_current(vv) -> None:
    result = _address(vv, None)
    assert result.status == FAIL and "emitido em ?" in result.message


# -- household limit with the adopted animal counted (GRU 37) -------------------------------------


def test_gru_37_four_plus_the_adopted_is_five_five_plus_one_is_six(gru) -> None:
    person = eligible_person()
    fill_household(person, 4, on=ON)
    ok = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "household_limit")
    assert ok.status == PASS and "limite de 5 cães e gatos" in ok.message
    fill_household(person, 1, on=ON)
    full = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "household_limit")
    assert full.status == FAIL and full.article == "GRU 37"
    assert full.action == "licence" and full.link == "/licencas/pedido"


def test_gru_37_a_puppy_of_120_days_may_join_a_full_house_and_counts_from_day_121(gru) -> None:
    # Born 120 days before ON: not "superior a 120 dias" yet, so adopting it is allowed; it counts
    # from the day it has lived 121 days.
    person = eligible_person()
    fill_household(person, 5, on=ON)
    born = ON - timedelta(days=120)
    listing = make_listing(on=ON, birth_date=born.isoformat(), age_months=None)
    result = _rule(check_eligibility(gru, person, listing, ON), "household_limit")
    assert result.status == PASS
    day = (born + timedelta(days=121)).strftime("%d/%m/%Y")
    assert f"A partir de {day} ele passa a contar" in result.message
    assert "menos de 120 dias" in result.message
    assert result.action == "licence" and result.link == "/licencas/pedido"


def test_gru_37_a_puppy_of_121_days_counts_today(gru) -> None:
    person = eligible_person()
    fill_household(person, 5, on=ON)
    born = ON - timedelta(days=121)
    listing = make_listing(on=ON, birth_date=born.isoformat(), age_months=None)
    assert _rule(check_eligibility(gru, person, listing, ON), "household_limit").status == FAIL


def test_gru_37_reviewer_reads_the_residence_of_the_person(gru) -> None:
    person = eligible_person()
    result = _rule(
        check_eligibility(gru, person, make_listing(on=ON), ON, reviewer=True), "household_limit"
    )
    assert result.status == PASS and "a residência da pessoa continua" in result.message


# -- bars, two profiles side by side --------------------------------------------------------------


def test_vv_23_v_commitment_bar_is_a_programme_rule_in_guarulhos(gru) -> None:
    # Guarulhos has no VV 23 V of its own: the bar still applies, as programme policy.
    person = eligible_person()
    staff = factories.user(roles=("agent",))
    svc.record_bar(person.cpf or "", BarKind.COMMITMENT_NEVER_KEEP, "Termo.", staff)
    results = check_eligibility(gru, person, make_listing(on=ON), ON)
    result = _rule(results, "bar_commitment")
    assert result.status == FAIL and not result.in_local_law
    assert result.article == "regra do programa de adoção"
    assert "procure o CCZ" in result.message
    assert _rule(results, "bar_maltreatment").status == PASS
    assert _rule(results, "bar_apprehension").status == PASS


def test_vv_23_iii_b_maltreatment_bar_does_not_touch_the_commitment_bar(vv) -> None:
    person = eligible_person()
    staff = factories.user(roles=("agent",))
    svc.record_bar(person.cpf or "", BarKind.LOST_POSSESSION_MALTREATMENT, "Reincidência.", staff)
    results = check_eligibility(vv, person, make_listing(on=ON), ON, reviewer=True)
    assert _rule(results, "bar_maltreatment").status == FAIL
    assert _rule(results, "bar_maltreatment").message == (
        "Consta perda da posse de animal por maus-tratos."
    )
    assert _rule(results, "bar_commitment").status == PASS


# -- VV 28 §2: which proof counts -----------------------------------------------------------------


def test_vv_28_par2_an_accepted_identity_counts_before_a_newer_pending_one(vv) -> None:
    person = factories.user()
    add_document(person, DocumentKind.IDENTITY, on=ON)
    add_document(person, DocumentKind.IDENTITY, status=DocumentStatus.PENDING, on=ON)
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "identity")
    assert result.status == PASS and result.message == "Documento de identidade aceito."


def test_vv_28_par2_a_pending_identity_counts_before_a_refused_one(vv) -> None:
    person = factories.user()
    add_document(person, DocumentKind.IDENTITY, status=DocumentStatus.PENDING, on=ON)
    add_document(person, DocumentKind.IDENTITY, status=DocumentStatus.REFUSED, on=ON)
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "identity")
    assert result.status == NEEDS_DOCUMENT and result.awaiting_review


def test_vv_28_par2_only_a_refused_identity_asks_for_another(vv) -> None:
    person = factories.user()
    add_document(person, DocumentKind.IDENTITY, status=DocumentStatus.REFUSED, on=ON)
    results = check_eligibility(vv, person, make_listing(on=ON), ON)
    assert _rule(results, "identity").message == (
        "Documento de identidade foi recusado: Ilegível. Envie outro documento."
    )
    reviewer = check_eligibility(vv, person, make_listing(on=ON), ON, reviewer=True)
    result = _rule(reviewer, "identity")
    assert result.status == NEEDS_DOCUMENT and not result.awaiting_review
    assert result.action == "documents"
    assert result.message == (
        "Documento de identidade foi recusado: Ilegível. A pessoa precisa enviar outro."
    )


def test_vv_28_par2_a_refused_recent_proof_does_not_hide_an_accepted_one(vv) -> None:
    # The accepted proof of 30 days ago still counts (≤ 90) when a newer one was refused.
    person = factories.user()
    add_document(person, DocumentKind.PROOF_OF_ADDRESS, issued_on=ON - timedelta(days=30), on=ON)
    add_document(
        person,
        DocumentKind.PROOF_OF_ADDRESS,
        status=DocumentStatus.REFUSED,
        issued_on=ON - timedelta(days=2),
        on=ON,
    )
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "proof_of_address")
    assert result.status == PASS


def test_vv_28_par2_only_a_refused_proof_of_address_asks_for_another(vv) -> None:
    person = factories.user()
    add_document(person, DocumentKind.PROOF_OF_ADDRESS, status=DocumentStatus.REFUSED, on=ON)
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "proof_of_address")
    assert result.status == NEEDS_DOCUMENT and "foi recusado" in result.message


def test_vv_28_par2_missing_proofs_worded_for_each_reader(vv) -> None:
    person = factories.user()
    mine = check_eligibility(vv, person, make_listing(on=ON), ON)
    theirs = check_eligibility(vv, person, make_listing(on=ON), ON, reviewer=True)
    assert "últimos 90 dias (conta de luz" in _rule(mine, "proof_of_address").message
    assert _rule(theirs, "proof_of_address").message == (
        "A pessoa ainda não enviou um comprovante de endereço emitido nos últimos 90 dias."
    )
    assert _rule(theirs, "proof_of_income").message == (
        "A pessoa ainda não enviou um comprovante de renda."
    )
    assert all(
        _rule(r, rule).action == "documents"
        for r in (mine, theirs)
        for rule in ("identity", "proof_of_address", "proof_of_income")
    )


# -- VV 28 §2: the Termo de Compromisso de Adoção ----------------------------------------------


def _application(person, listing, *, accepted: bool = True, status: str = "submitted"):  # type: ignore[no-untyped-def]
    from portal.models import AdoptionApplication
    from portal.models.base import utcnow

    application = AdoptionApplication(
        listing_id=listing.id,
        applicant_id=person.id,
        answers={},
        eligibility=[],
        status=status,
        term_accepted_at=utcnow() if accepted else None,
    )
    db.session.add(application)
    db.session.flush()
    return application


def _term(profile, person, listing, reviewer: bool = False) -> RuleResult:  # type: ignore[no-untyped-def]
    return _rule(
        check_eligibility(profile, person, listing, ON, reviewer=reviewer), "adoption_term"
    )


def test_vv_28_par2_term_accepted_in_this_persons_open_application_for_this_animal(vv) -> None:
    person, listing = factories.user(), make_listing(on=ON)
    before = _term(vv, person, listing)
    assert before.status == NEEDS_DOCUMENT
    assert before.message == "Leia e aceite o Termo de Compromisso de Adoção ao enviar o pedido."
    assert _term(vv, person, listing, reviewer=True).message == (
        "A pessoa ainda não aceitou o Termo de Compromisso de Adoção."
    )
    _application(person, listing)
    after = _term(vv, person, listing)
    assert after.status == PASS and after.article == "VV 28 §2"
    assert after.message == "Você aceitou o Termo de Compromisso de Adoção."
    assert _term(vv, person, listing, reviewer=True).message == (
        "A pessoa aceitou o Termo de Compromisso de Adoção."
    )


@pytest.mark.parametrize("case", ["other_person", "other_animal", "not_accepted", "cancelled"])
def test_vv_28_par2_a_term_that_is_not_this_one_does_not_count(vv, case: str) -> None:
    person, listing = factories.user(), make_listing(on=ON)
    if case == "other_person":
        _application(factories.user(), listing)
    elif case == "other_animal":
        _application(person, make_listing(on=ON))
    elif case == "not_accepted":
        _application(person, listing, accepted=False)
    else:  # the person withdrew: the term of a closed application no longer binds them
        _application(person, listing, status="cancelled")
    assert _term(vv, person, listing).status == NEEDS_DOCUMENT


# -- the applicant's and the reviewer's words ------------------------------------------------------


def test_vv_28_par2_age_is_worded_for_the_applicant_and_for_the_reviewer(vv) -> None:
    adult = factories.user(birth_date=date(1990, 1, 1))
    listing = make_listing(on=ON)
    mine = _rule(check_eligibility(vv, adult, listing, ON), "adult")
    assert mine.message == "Você tem 18 anos ou mais."
    nobody = factories.user(birth_date=None)
    missing = _rule(check_eligibility(vv, nobody, listing, ON), "adult")
    assert missing.message == "Informe sua data de nascimento no seu cadastro."
    missing = _rule(check_eligibility(vv, nobody, listing, ON, reviewer=True), "adult")
    assert missing.message == "O cadastro da pessoa não tem data de nascimento."


def test_vv_28_par2_with_an_application_only_the_proofs_attached_to_it_count(vv) -> None:
    # The person has every proof accepted, but the application carries none of them: its
    # reviewer sees nothing attached, so identity, address and income are not proven there.
    from portal.models import ApplicantDocument, ApplicationDocument

    person, listing = eligible_person(), make_listing(on=ON)
    application = _application(person, listing)
    results = check_eligibility(vv, person, listing, ON, reviewer=True, application=application)
    for name in ("identity", "proof_of_address", "proof_of_income"):
        assert _rule(results, name).status == NEEDS_DOCUMENT, name
    proofs = db.session.scalars(
        select(ApplicantDocument).where(ApplicantDocument.person_id == person.id)
    )
    for document in proofs:  # attached: now they count
        db.session.add(ApplicationDocument(application_id=application.id, document_id=document.id))
    db.session.flush()
    results = check_eligibility(vv, person, listing, ON, reviewer=True, application=application)
    for name in ("identity", "proof_of_address", "proof_of_income"):
        assert _rule(results, name).status == PASS, name


# -- VV 28 §2 proofs: each state, worded for the applicant and for the reviewer -------------------

_PROOF_WORDS = {
    # (rule, state): (status, action, applicant's words, reviewer's words)
    ("identity", "missing"): (
        NEEDS_DOCUMENT,
        "documents",
        "CPF válido. Falta enviar um documento de identidade com foto (RG ou CNH).",
        "CPF válido. A pessoa ainda não enviou um documento de identidade com foto.",
    ),
    ("identity", "refused"): (
        NEEDS_DOCUMENT,
        "documents",
        "Documento de identidade foi recusado: Ilegível. Envie outro documento.",
        "Documento de identidade foi recusado: Ilegível. A pessoa precisa enviar outro.",
    ),
    ("identity", "pending"): (
        None,
        None,
        "Documento de identidade enviado; aguarda a conferência de quem analisa o pedido.",
        "Documento de identidade enviado; confira-o nos documentos do pedido.",
    ),
    ("identity", "accepted"): (
        PASS,
        None,
        "Documento de identidade aceito.",
        "Documento de identidade aceito.",
    ),
    ("proof_of_income", "missing"): (
        NEEDS_DOCUMENT,
        "documents",
        "Falta enviar um comprovante de renda (holerite, extrato de benefício, declaração…).",
        "A pessoa ainda não enviou um comprovante de renda.",
    ),
    ("proof_of_address", "missing"): (
        NEEDS_DOCUMENT,
        "documents",
        "Falta enviar um comprovante de endereço emitido nos últimos 90 dias (conta de luz, "
        "água, telefone…).",
        "A pessoa ainda não enviou um comprovante de endereço emitido nos últimos 90 dias.",
    ),
}


@pytest.mark.parametrize(("rule", "state"), sorted(_PROOF_WORDS))
def test_vv_28_par2_each_proof_state_in_the_applicants_and_the_reviewers_words(
    vv, rule: str, state: str
) -> None:
    status, action, mine, theirs = _PROOF_WORDS[(rule, state)]
    person, listing = factories.user(), make_listing(on=ON)
    if state != "missing":
        add_document(person, rule, status=state, on=ON)
    applicant = _rule(check_eligibility(vv, person, listing, ON), rule)
    reviewer = _rule(check_eligibility(vv, person, listing, ON, reviewer=True), rule)
    assert (applicant.message, reviewer.message) == (mine, theirs)
    if status is not None:
        assert applicant.status == reviewer.status == status
        assert applicant.action == action
    else:  # a proof waiting for review is a document the reviewer still has to confirm
        assert applicant.status == NEEDS_DOCUMENT and applicant.awaiting_review


def test_vv_28_par2_an_invalid_cpf_fails_identity_and_sends_to_the_account(vv) -> None:
    person, listing = factories.user(), make_listing(on=ON)
    person.cpf = "11111111111"  # check digits right, but a repeated-digit CPF is not valid
    applicant = _rule(check_eligibility(vv, person, listing, ON), "identity")
    reviewer = _rule(check_eligibility(vv, person, listing, ON, reviewer=True), "identity")
    assert applicant.status == FAIL and applicant.action == "account"
    assert applicant.message == "Seu cadastro não tem um CPF válido. Procure o CCZ para corrigir."
    assert reviewer.message == "O cadastro da pessoa não tem um CPF válido."


def test_vv_28_par2_old_and_future_proofs_of_address_are_worded_for_each_reader(vv) -> None:
    person, listing = factories.user(), make_listing(on=ON)
    old = ON - timedelta(days=91)  # fresh when it was sent, 91 days old today
    add_document(person, "proof_of_address", issued_on=old, on=old + timedelta(days=1))
    applicant = _rule(check_eligibility(vv, person, listing, ON), "proof_of_address")
    reviewer = _rule(check_eligibility(vv, person, listing, ON, reviewer=True), "proof_of_address")
    day = old.strftime("%d/%m/%Y")
    assert applicant.status == FAIL and applicant.action == "documents"
    assert applicant.message == (
        f"O comprovante de endereço foi emitido em {day}, há mais de 90 dias. Envie um "
        "comprovante emitido nos últimos 90 dias."
    )
    assert reviewer.message == (
        f"O comprovante de endereço foi emitido em {day}, há mais de 90 dias; a pessoa precisa "
        "enviar um mais recente."
    )


def test_vv_28_par2_same_issue_date_the_accepted_proof_of_address_wins(vv) -> None:
    # Two proofs issued the same day, one accepted and a newer one waiting: the accepted one
    # already proves the address.
    person, listing = factories.user(), make_listing(on=ON)
    issued = ON - timedelta(days=5)
    add_document(person, "proof_of_address", issued_on=issued, on=ON)
    add_document(person, "proof_of_address", issued_on=issued, on=ON, status="pending")
    assert _rule(check_eligibility(vv, person, listing, ON), "proof_of_address").status == PASS


# -- VV 23 III b, BJP 30 §ú II, GRU 88 §4: bars that name one animal ------------------------------

_BAR_RULE = {
    BarKind.LOST_POSSESSION_MALTREATMENT: "bar_maltreatment",
    BarKind.CAUSED_DEFINITIVE_APPREHENSION: "bar_apprehension",
}


@pytest.mark.parametrize("kind", sorted(_BAR_RULE))
@pytest.mark.parametrize("named_by", ["listing", "animal"])
def test_a_bar_naming_an_animal_bars_only_that_animal(vv, kind: str, named_by: str) -> None:
    # The law takes *that* animal back for good; the person may still adopt another.
    person, staff = eligible_person(), factories.user(roles=("agent",))
    pet = factories.animal(factories.user())
    barred, other = make_listing(on=ON), make_listing(on=ON)
    barred.animal_id = pet.id  # the CCZ listing of an RGA-registered animal
    db.session.flush()
    named = {"listing": barred} if named_by == "listing" else {"animal_id": pet.id}
    svc.record_bar(person.cpf or "", kind, "Decisão definitiva.", staff, **named)
    rule = _BAR_RULE[kind]
    mine = _rule(check_eligibility(vv, person, barred, ON), rule)
    theirs = _rule(check_eligibility(vv, person, barred, ON, reviewer=True), rule)
    assert mine.status == theirs.status == FAIL
    assert "deste animal" in mine.message and mine.message.startswith("Você ")
    assert mine.message.endswith("Você pode adotar outro animal.")
    assert theirs.message.startswith("A pessoa ") and "outro animal" not in theirs.message
    assert _rule(check_eligibility(vv, person, other, ON), rule).status == PASS
    assert _rule(check_eligibility(vv, factories.user(), barred, ON), rule).status == PASS


def test_a_revoked_bar_no_longer_counts(vv) -> None:
    person, staff = eligible_person(), factories.user(roles=("agent",))
    bar = svc.record_bar(person.cpf or "", BarKind.COMMITMENT_NEVER_KEEP, "Termo.", staff)
    listing = make_listing(on=ON)
    assert _rule(check_eligibility(vv, person, listing, ON), "bar_commitment").status == FAIL
    svc.revoke_bar(bar, staff, "Assinado por engano.")
    passed = _rule(check_eligibility(vv, person, listing, ON), "bar_commitment")
    assert passed.status == PASS
    assert passed.message == "Não há termo de compromisso de não ter animais."


def test_vv_23_v_commitment_words_for_the_applicant_and_the_reviewer(vv) -> None:
    person, staff = eligible_person(), factories.user(roles=("agent",))
    svc.record_bar(person.cpf or "", BarKind.COMMITMENT_NEVER_KEEP, "Termo.", staff)
    listing = make_listing(on=ON)
    mine = _rule(check_eligibility(vv, person, listing, ON), "bar_commitment")
    theirs = _rule(check_eligibility(vv, person, listing, ON, reviewer=True), "bar_commitment")
    assert mine.message == (
        "Consta um termo de compromisso assinado por você de não mais ter animais sob sua "
        "guarda. Se acredita que há um engano, procure o CCZ."
    )
    assert theirs.message == (
        "Consta um termo de compromisso assinado pela pessoa de não mais ter animais sob sua "
        "guarda."
    )
    assert mine.article == "VV 23 V" and mine.in_local_law


# -- GRU 37, BJP 17, CABO 33 §ú, VV 2: the household rule as each reader sees it -------------------


def _household(profile, person, listing, on=ON, reviewer=False) -> RuleResult:  # type: ignore[no-untyped-def]
    return _rule(
        check_eligibility(profile, person, listing, on, reviewer=reviewer), "household_limit"
    )


def test_vv_2_no_household_limit_is_said_plainly(vv) -> None:
    result = _household(vv, eligible_person(), make_listing(on=ON))
    assert (result.status, result.article, result.in_local_law) == (PASS, "VV 2", True)
    assert result.message == "A lei municipal não limita o número de cães e gatos por residência."


def test_gru_37_within_the_limit_in_each_readers_words(gru) -> None:
    person, listing = eligible_person(), make_listing(on=ON)
    mine, theirs = _household(gru, person, listing), _household(gru, person, listing, reviewer=True)
    assert (mine.status, mine.article, mine.in_local_law, mine.action) == (
        PASS,
        "GRU 37",
        True,
        None,
    )
    assert mine.message == (
        "Com este animal, sua residência continua dentro do limite de 5 cães e gatos."
    )
    assert theirs.message == (
        "Com este animal, a residência da pessoa continua dentro do limite de 5 cães e gatos."
    )


def test_gru_37_full_house_fails_and_points_to_the_licence(gru) -> None:
    person = eligible_person()
    fill_household(person, 5, on=ON)
    result = _household(gru, person, make_listing(on=ON))
    assert (result.status, result.article, result.in_local_law) == (FAIL, "GRU 37", True)
    assert (result.action, result.link) == ("licence", "/licencas/pedido")
    assert result.message.startswith("Este endereço já tem 5 cães e gatos")


def test_cabo_33_full_house_fails_without_a_licence_to_ask_for(make_app) -> None:
    app = make_app(PORTAL_PROFILE="cabo")
    with app.app_context(), app.test_request_context():
        cabo = app.extensions["portal_profile"]
        person = eligible_person()
        fill_household(person, 10, on=ON)
        result = _household(cabo, person, make_listing(on=ON))
        assert (result.status, result.article) == (FAIL, "CABO 33 §ú")
        assert (result.action, result.link) == (None, None)


def test_gru_37_without_an_address_the_residence_cannot_be_counted(gru) -> None:
    person, listing = factories.user(cep=None, street=None, number=None), make_listing(on=ON)
    mine, theirs = _household(gru, person, listing), _household(gru, person, listing, reviewer=True)
    assert (mine.status, mine.action, mine.article, mine.in_local_law) == (
        NEEDS_DOCUMENT,
        "account",
        "GRU 37",
        True,
    )
    assert mine.message.startswith("Complete seu endereço (CEP, logradouro e número)")
    assert theirs.message == (
        "O cadastro da pessoa não tem endereço completo; os animais da residência não podem "
        "ser contados."
    )


def test_gru_37_a_young_animal_into_a_full_house_is_allowed_and_told_when_it_counts(gru) -> None:
    # 5 adults at home; a puppy born 30 days ago does not count until its 121st day.
    person = eligible_person()
    fill_household(person, 5, on=ON)
    born = ON - timedelta(days=30)
    result = _household(gru, person, make_listing(on=ON, birth_date=born, age_months=None))
    assert (result.status, result.article, result.in_local_law) == (PASS, "GRU 37", True)
    assert (result.action, result.link) == ("licence", "/licencas/pedido")
    counts_on = (born + timedelta(days=121)).strftime("%d/%m/%Y")
    assert f"A partir de {counts_on} ele passa a contar" in result.message


def test_gru_37_the_house_is_counted_on_the_day_asked_not_today(gru) -> None:
    # 4 adults and a dog born 100 days ago: today it does not count (4 + the adopted = 5, allowed);
    # 30 days later it is 130 days old and counts (5 + the adopted = 6, refused).
    person = eligible_person()
    fill_household(person, 4, on=ON)
    factories.animal(person, birth_date=ON - timedelta(days=100), name="Filhote")
    listing = make_listing(on=ON)
    assert _household(gru, person, listing).status == PASS
    assert _household(gru, person, listing, on=ON + timedelta(days=30)).status == FAIL


def test_every_rule_shown_to_the_adopter_has_a_readable_title(vv) -> None:
    from portal.blueprints.adoption.rule_results import rule_title

    results = check_eligibility(vv, eligible_person(), make_listing(on=ON), ON)
    titles = [rule_title(r.rule) for r in results]
    assert all(title and title != r.rule for title, r in zip(titles, results, strict=True))
    assert rule_title("adoption_term") == "Termo de Compromisso de Adoção"
    assert rule_title("household_limit") == "Limite de animais na residência"
    assert rule_title("nova_regra") == "nova_regra"  # a rule without a title shows its key

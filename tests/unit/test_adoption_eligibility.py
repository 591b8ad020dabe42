"""Adopter eligibility (DOMAIN §5) and the hand-over rules, one test per article.

``check_eligibility`` returns one result per rule; these tests read the result of the rule they
are about. Vila Velha's profile is used where the rule is VV's own; Guarulhos (the default) shows
how a rule the local law does not have is still applied as a programme rule.
"""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import services as svc
from portal.blueprints.adoption.eligibility import (
    FAIL,
    NEEDS_DOCUMENT,
    PASS,
    approval_blockers,
    check_eligibility,
    submission_blockers,
)
from portal.extensions import db
from portal.models import BarKind, DocumentKind, DocumentStatus, PaymentItem, UnitValue
from portal.services.dates import add_months
from tests import factories
from tests.factories import add_document, eligible_person, fill_household, make_listing, ngo_user

ON = date.today()
EIGHTEEN_YEARS_AGO = add_months(ON, -18 * 12)


def _rule(results, name):  # type: ignore[no-untyped-def]
    matches = [r for r in results if r.rule == name]
    assert len(matches) == 1, f"exactly one result for {name}"
    return matches[0]


@pytest.fixture
def vv(make_app):  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        yield app.extensions["portal_profile"]


@pytest.fixture
def gru(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _profile_for(make_app, key: str):  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE=key)
    ctx = app.app_context()
    ctx.push()
    return app.extensions["portal_profile"], ctx


# -- shape ---------------------------------------------------------------------------------------


def test_one_result_per_rule_in_a_fixed_order(gru) -> None:
    person = eligible_person()
    listing = make_listing(on=ON)
    results = check_eligibility(gru, person, listing, ON)
    assert [r.rule for r in results] == [
        "adult",
        "identity",
        "proof_of_address",
        "proof_of_income",
        "bar_commitment",
        "bar_maltreatment",
        "bar_apprehension",
        "household_limit",
        "adoption_term",
    ]
    assert all(
        r.status in (PASS, FAIL, NEEDS_DOCUMENT) and r.message and r.article for r in results
    )


def test_eligible_person_only_lacks_the_term_until_submitting(gru) -> None:
    person = eligible_person()
    listing = make_listing(on=ON)
    results = check_eligibility(gru, person, listing, ON)
    assert [r.rule for r in results if r.status != PASS] == ["adoption_term"]
    assert submission_blockers(results) == []


# -- VV 28 §2: age, CPF and identity, proofs, term -----------------------------------------------


def test_vv_28_par2_adopter_must_be_18(vv) -> None:
    person = eligible_person(birth_date=EIGHTEEN_YEARS_AGO + timedelta(days=1))  # 18 tomorrow
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "adult")
    assert result.status == FAIL
    assert result.article == "VV 28 §2" and result.in_local_law
    assert "17 anos" in result.message
    assert submission_blockers([result]) == [result]


def test_vv_28_par2_adopter_turning_18_today_may_adopt(vv) -> None:
    person = eligible_person(birth_date=EIGHTEEN_YEARS_AGO)
    assert _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "adult").status == PASS


def test_vv_28_par2_age_rule_applies_as_programme_rule_in_guarulhos(gru) -> None:
    person = eligible_person(birth_date=add_months(ON, -15 * 12))
    result = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "adult")
    assert result.status == FAIL
    assert result.article == "regra do programa de adoção" and not result.in_local_law


def test_vv_28_par2_missing_birth_date_asks_for_the_account(gru) -> None:
    person = eligible_person(birth_date=None)
    result = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "adult")
    assert result.status == NEEDS_DOCUMENT and result.action == "account"


def test_vv_28_par2_cpf_with_wrong_check_digits_fails(vv) -> None:
    person = eligible_person(cpf="12345678900")
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "identity")
    assert result.status == FAIL and "CPF" in result.message


def test_vv_28_par2_identity_document_must_be_uploaded(vv) -> None:
    person = factories.user()
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "identity")
    assert result.status == NEEDS_DOCUMENT and not result.awaiting_review
    assert result.action == "documents"
    assert submission_blockers([result]) == [result]


def test_vv_28_par2_proof_of_address_older_than_90_days_fails(vv) -> None:
    person = eligible_person()
    for doc in db.session.scalars(
        select(svc.ApplicantDocument).where(
            svc.ApplicantDocument.kind == DocumentKind.PROOF_OF_ADDRESS
        )
    ):
        doc.issued_on = ON - timedelta(days=91)
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "proof_of_address")
    assert result.status == FAIL
    assert "90 dias" in result.message and result.article == "VV 28 §2"


def test_vv_28_par2_proof_of_address_of_exactly_90_days_passes(vv) -> None:
    person = eligible_person()
    for doc in db.session.scalars(
        select(svc.ApplicantDocument).where(
            svc.ApplicantDocument.kind == DocumentKind.PROOF_OF_ADDRESS
        )
    ):
        doc.issued_on = ON - timedelta(days=90)
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "proof_of_address")
    assert result.status == PASS


def test_vv_28_par2_a_fresh_proof_of_address_beats_an_old_accepted_one(vv) -> None:
    person = factories.user()
    old = add_document(
        person, DocumentKind.PROOF_OF_ADDRESS, issued_on=ON - timedelta(days=80), on=ON
    )
    old.issued_on = ON - timedelta(days=120)  # it was accepted months ago
    add_document(
        person,
        DocumentKind.PROOF_OF_ADDRESS,
        status=DocumentStatus.PENDING,
        issued_on=ON - timedelta(days=3),
        on=ON,
    )
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "proof_of_address")
    assert result.status == NEEDS_DOCUMENT and result.awaiting_review


def test_vv_28_par2_proof_of_address_older_than_90_days_is_refused_at_upload(vv) -> None:
    person = factories.user()
    with pytest.raises(svc.AdoptionError) as err:
        add_document(
            person, DocumentKind.PROOF_OF_ADDRESS, issued_on=ON - timedelta(days=91), on=ON
        )
    assert err.value.field == "issued_on" and "90 dias" in err.value.message


def test_vv_28_par2_proof_waiting_for_review_does_not_block_submission(vv) -> None:
    person = factories.user()
    for kind in (
        DocumentKind.IDENTITY,
        DocumentKind.PROOF_OF_ADDRESS,
        DocumentKind.PROOF_OF_INCOME,
    ):
        add_document(person, kind, status=DocumentStatus.PENDING, on=ON)
    results = check_eligibility(vv, person, make_listing(on=ON), ON)
    income = _rule(results, "proof_of_income")
    assert income.status == NEEDS_DOCUMENT and income.awaiting_review
    assert submission_blockers(results) == []
    assert {r.rule for r in approval_blockers(results)} >= {
        "identity",
        "proof_of_address",
        "proof_of_income",
    }


def test_vv_28_par2_proof_of_income_must_be_uploaded(vv) -> None:
    person = factories.user()
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "proof_of_income")
    assert result.status == NEEDS_DOCUMENT and not result.awaiting_review
    assert result.article == "VV 28 §2" and result.in_local_law


def test_vv_28_par2_income_proof_is_a_programme_rule_outside_vila_velha(gru) -> None:
    person = factories.user()
    result = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "proof_of_income")
    assert result.status == NEEDS_DOCUMENT
    assert result.article == "regra do programa de adoção" and not result.in_local_law


def test_vv_28_par2_refused_proof_of_income_asks_for_another(vv) -> None:
    person = factories.user()
    add_document(person, DocumentKind.PROOF_OF_INCOME, status=DocumentStatus.REFUSED, on=ON)
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "proof_of_income")
    assert result.status == NEEDS_DOCUMENT and "Ilegível" in result.message
    assert not result.awaiting_review


def test_vv_28_par2_term_is_accepted_with_the_application(vv) -> None:
    person = eligible_person()
    listing = make_listing(on=ON)
    assert (
        _rule(check_eligibility(vv, person, listing, ON), "adoption_term").status == NEEDS_DOCUMENT
    )
    application = apps.submit_application(vv, person, listing, _answers(), True, ON)
    assert application.term_version and application.term_accepted_at
    assert application.term_accepted_by_id == person.id
    assert _rule(check_eligibility(vv, person, listing, ON), "adoption_term").status == PASS


def test_vv_28_par2_application_without_the_term_is_refused(vv) -> None:
    person = eligible_person()
    with pytest.raises(svc.AdoptionError) as err:
        apps.submit_application(vv, person, make_listing(on=ON), _answers(), False, ON)
    assert err.value.field == "accept_term"


# -- bars ----------------------------------------------------------------------------------------


def _staff():  # type: ignore[no-untyped-def]
    return factories.user(roles=("agent",))


def test_vv_23_v_commitment_bar_blocks_adoption(vv) -> None:
    person = eligible_person()
    svc.record_bar(
        person.cpf or "", BarKind.COMMITMENT_NEVER_KEEP, "Termo assinado no auto 12/2026.", _staff()
    )
    results = check_eligibility(vv, person, make_listing(on=ON), ON)
    result = _rule(results, "bar_commitment")
    assert result.status == FAIL and result.article == "VV 23 V" and result.in_local_law
    assert result in submission_blockers(results)
    with pytest.raises(apps.NotEligible):
        apps.submit_application(vv, person, make_listing(on=ON), _answers(), True, ON)


def test_vv_23_iii_b_lost_possession_for_maltreatment_blocks_adoption(vv) -> None:
    person = eligible_person()
    svc.record_bar(
        person.cpf or "", BarKind.LOST_POSSESSION_MALTREATMENT, "Reincidência.", _staff()
    )
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "bar_maltreatment")
    assert result.status == FAIL and result.article == "VV 23 III b"


def test_bjp_30_par_unico_lost_possession_cites_bjp(make_app) -> None:
    profile, ctx = _profile_for(make_app, "bjp")
    try:
        person = eligible_person()
        svc.record_bar(
            person.cpf or "", BarKind.LOST_POSSESSION_MALTREATMENT, "Reincidência.", _staff()
        )
        result = _rule(
            check_eligibility(profile, person, make_listing(on=ON), ON), "bar_maltreatment"
        )
        assert result.status == FAIL and result.article == "BJP 30 §ú" and result.in_local_law
    finally:
        ctx.pop()


def test_gru_88_par4_person_who_caused_apprehension_cannot_adopt_that_animal(gru) -> None:
    person = eligible_person()
    seized = make_listing(on=ON, name="Rex")
    other = make_listing(on=ON, name="Luna")
    svc.record_bar(
        person.cpf or "",
        BarKind.CAUSED_DEFINITIVE_APPREHENSION,
        "Apreensão definitiva, processo 55/2026.",
        _staff(),
        listing=seized,
    )
    on_seized = _rule(check_eligibility(gru, person, seized, ON), "bar_apprehension")
    assert on_seized.status == FAIL and on_seized.article == "GRU 88 §4" and on_seized.in_local_law
    # GRU 88 §4 bars the possession of that animal only: another one may be adopted.
    assert _rule(check_eligibility(gru, person, other, ON), "bar_apprehension").status == PASS


def test_gru_88_par4_bar_needs_the_animal(gru) -> None:
    with pytest.raises(svc.InvalidData) as err:
        svc.record_bar(
            factories.make_cpf(777), BarKind.CAUSED_DEFINITIVE_APPREHENSION, "x", _staff()
        )
    assert err.value.errors[0][0] == "listing_id"


def test_revoked_bar_no_longer_counts(gru) -> None:
    person = eligible_person()
    staff = _staff()
    bar = svc.record_bar(person.cpf or "", BarKind.COMMITMENT_NEVER_KEEP, "Engano.", staff)
    svc.revoke_bar(bar, staff, "Registrado no CPF errado.")
    result = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "bar_commitment")
    assert result.status == PASS


def test_bars_are_found_by_cpf_even_for_people_without_account(gru) -> None:
    cpf = factories.make_cpf(4242)
    svc.record_bar(cpf, BarKind.COMMITMENT_NEVER_KEEP, "Termo.", _staff())
    later = eligible_person(cpf=cpf)  # signs up afterwards with that CPF
    assert (
        _rule(check_eligibility(gru, later, make_listing(on=ON), ON), "bar_commitment").status
        == FAIL
    )


# -- household limit (DOMAIN §4) -----------------------------------------------------------------


def test_gru_37_household_limit_still_holds_after_adopting(gru) -> None:
    person = eligible_person()
    fill_household(person, 4, on=ON)
    assert (
        _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "household_limit").status
        == PASS
    )
    fill_household(person, 1, on=ON)
    result = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "household_limit")
    assert result.status == FAIL and result.article.startswith("GRU 37")
    assert "5" in result.message


def test_gru_37_par2_condo_flat_is_outside_the_household_limit(gru) -> None:
    person = eligible_person(housing_type="apartment_condo")
    fill_household(person, 6, on=ON)
    assert (
        _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "household_limit").status
        == PASS
    )


def test_vv_has_no_household_limit(vv) -> None:
    person = eligible_person()
    fill_household(person, 12, on=ON)
    result = _rule(check_eligibility(vv, person, make_listing(on=ON), ON), "household_limit")
    assert result.status == PASS


def test_household_limit_needs_an_address(gru) -> None:
    person = eligible_person(cep=None, street=None, number=None)
    result = _rule(check_eligibility(gru, person, make_listing(on=ON), ON), "household_limit")
    assert result.status == NEEDS_DOCUMENT and result.action == "account"


# -- hand-over: VV 28 §1; CABO 14; GRU 85, 88 §2 -------------------------------------------------


def _answers() -> apps.Answers:
    return apps.Answers(
        home_type="house_yard", other_animals="none", caretaker="Eu", holidays="Minha irmã"
    )


def _health(**changes: object) -> apps.HealthRecord:
    values: dict[str, object] = {
        "vaccinated": True,
        "vaccinated_on": ON - timedelta(days=5),
        "dewormed": True,
        "dewormed_on": ON - timedelta(days=5),
        "sterilized": True,
        "sterilized_on": ON - timedelta(days=30),
    }
    values.update(changes)
    return apps.HealthRecord(**values)  # type: ignore[arg-type]


def _approved(profile, **listing_fields):  # type: ignore[no-untyped-def]
    user, org = ngo_user()
    person = eligible_person()
    listing = make_listing(org, on=ON, **listing_fields)
    application = apps.submit_application(profile, person, listing, _answers(), True, ON)
    apps.approve_application(profile, application, user, ON)
    return application, user


def test_vv_28_par1_completion_refused_unless_sterilised(vv) -> None:
    application, reviewer = _approved(vv, sterilized=False)
    with pytest.raises(apps.DeliveryRefused) as err:
        apps.complete_adoption(
            vv, application, reviewer, _health(sterilized=False, sterilized_on=None), ON
        )
    assert [(f, a) for f, _m, a in err.value.problems] == [("sterilized", "VV 28 §1")]
    assert "esterilizado" in err.value.problems[0][1]
    assert application.status == "approved" and application.listing.state == "reserved"


def test_vv_28_par1_completion_refused_unless_vaccinated_and_dewormed(vv) -> None:
    application, reviewer = _approved(vv)
    with pytest.raises(apps.DeliveryRefused) as err:
        apps.complete_adoption(
            vv,
            application,
            reviewer,
            _health(vaccinated=False, vaccinated_on=None, dewormed=False, dewormed_on=None),
            ON,
        )
    assert [f for f, _m, _a in err.value.problems] == ["vaccinated", "dewormed"]


def test_vv_28_par1_sterilised_at_the_hand_over_completes(vv) -> None:
    application, reviewer = _approved(vv, sterilized=False)
    apps.complete_adoption(vv, application, reviewer, _health(), ON)
    assert application.status == "completed"
    assert application.listing.state == "adopted" and application.listing.sterilized
    assert application.rga_number


def test_gru_85_vaccination_is_guarulhos_law_sterilisation_a_programme_rule(gru) -> None:
    application, reviewer = _approved(gru, vaccinated=False, sterilized=False)
    with pytest.raises(apps.DeliveryRefused) as err:
        apps.complete_adoption(
            gru,
            application,
            reviewer,
            _health(vaccinated=False, vaccinated_on=None, sterilized=False, sterilized_on=None),
            ON,
        )
    articles = {f: a for f, _m, a in err.value.problems}
    # Sterilization is the programme's rule in Guarulhos: no other city's article is cited.
    assert articles == {"vaccinated": "GRU 85, 88 §2", "sterilized": ""}
    assert "regra do programa" in dict((f, m) for f, m, _a in err.value.problems)["sterilized"]


def test_cabo_14_adopted_animal_must_be_vaccinated(make_app) -> None:
    profile, ctx = _profile_for(make_app, "cabo")
    try:
        application, reviewer = _approved(profile, vaccinated=False)
        with pytest.raises(apps.DeliveryRefused) as err:
            apps.complete_adoption(
                profile, application, reviewer, _health(vaccinated=False, vaccinated_on=None), ON
            )
        assert [(f, a) for f, _m, a in err.value.problems] == [("vaccinated", "CABO 14")]
    finally:
        ctx.pop()


def test_gru_88_par2_completion_registers_the_animal_to_the_adopter(gru) -> None:
    application, reviewer = _approved(gru)
    apps.complete_adoption(gru, application, reviewer, _health(), ON)
    animal = application.listing.animal
    assert animal is not None and animal.owner_id == application.applicant_id
    assert animal.rga == application.rga_number


def test_completion_rechecks_the_household_limit(gru) -> None:
    application, reviewer = _approved(gru)
    fill_household(application.applicant, 5, on=ON)  # the house filled up after the approval
    with pytest.raises(apps.NotEligible) as err:
        apps.complete_adoption(gru, application, reviewer, _health(), ON)
    assert [r.rule for r in err.value.results] == ["household_limit"]


# -- adoption fee --------------------------------------------------------------------------------


def test_bjp_28_adoption_fee_of_a_ccz_animal_becomes_a_payment_item(make_app) -> None:
    profile, ctx = _profile_for(make_app, "bjp")
    try:
        staff = _staff()
        person = eligible_person()
        listing = make_listing(None, on=ON)
        application = apps.submit_application(profile, person, listing, _answers(), True, ON)
        apps.approve_application(profile, application, staff, ON)
        apps.complete_adoption(profile, application, staff, _health(), ON)
        item = db.session.get(PaymentItem, application.payment_item_id)
        assert item is not None and item.breakdown is not None
        assert item.kind == "adoption" and item.payer_id == person.id
        assert item.amount_cents == profile.prices["adoption"].amount_cents
        assert item.breakdown[0]["article"] == "BJP 28"
    finally:
        ctx.pop()


def test_cab_17_adoption_fee_is_half_ufm_per_day_held(make_app) -> None:
    profile, ctx = _profile_for(make_app, "cabeceira")
    try:
        db.session.add(UnitValue(unit="UFM", value_cents=10_000, effective_from=date(2026, 1, 1)))
        listing = make_listing(None, on=ON, held_since=(ON - timedelta(days=7)).isoformat())
        fee = apps.adoption_fee(profile, listing, ON)
        assert fee is not None
        total, breakdown = fee
        assert total == 7 * 5_000  # CAB 17: 50 % of the UFM per head and per day
        assert breakdown[0]["article"] == "CAB 17"
    finally:
        ctx.pop()


def test_cab_17_fee_needs_the_unit_value_in_force(make_app) -> None:
    profile, ctx = _profile_for(make_app, "cabeceira")
    try:
        listing = make_listing(None, on=ON)
        with pytest.raises(svc.AdoptionError) as err:
            apps.adoption_fee(profile, listing, date(2020, 1, 1))
        assert "UFM" in err.value.message
    finally:
        ctx.pop()


def test_ngo_animals_pay_no_municipal_adoption_fee(make_app) -> None:
    profile, ctx = _profile_for(make_app, "bjp")
    try:
        _user, org = ngo_user()
        assert apps.adoption_fee(profile, make_listing(org, on=ON), ON) is None
    finally:
        ctx.pop()


def test_guarulhos_charges_no_adoption_fee(gru) -> None:
    assert apps.adoption_fee(gru, make_listing(None, on=ON), ON) is None


def test_gru_88_par4_bar_on_the_rga_record_follows_the_animal_into_a_new_listing(gru) -> None:
    from portal.models import Animal
    from portal.models.base import utcnow

    person = eligible_person()
    owner = factories.user()
    animal = Animal(
        rga="C-2026-000099-1",
        species="dog",
        name="Rex",
        sex="male",
        birth_date=ON - timedelta(days=700),
        size="large",
        registered_on=ON,
        owner=owner,
        residence_key="x",
        activated_at=utcnow(),
    )
    db.session.add(animal)
    db.session.flush()
    svc.record_bar(
        person.cpf or "",
        BarKind.CAUSED_DEFINITIVE_APPREHENSION,
        "Auto.",
        _staff(),
        animal_id=animal.id,
    )
    listing = make_listing(on=ON, name="Rex")
    listing.animal = animal
    result = _rule(check_eligibility(gru, person, listing, ON), "bar_apprehension")
    assert result.status == FAIL and result.article == "GRU 88 §4"

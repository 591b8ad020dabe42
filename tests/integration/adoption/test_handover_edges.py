"""The adoption hand-over, edge by edge (portal/blueprints/adoption/handover.py): the animal's
health confirmed (VV 28 §1; CABO 14; CAB 18; GRU 85), the RGA issued or transferred with the
listing's vaccination and photo (VV 28 §1; GRU 88 §2; GRU 18 §1), the adoption fee charged where
the law has one (BJP 28 per animal; CAB 17 per head and per day held; free in GRU, VV and CABO),
the other applications closed, the audit record and the adopter's e-mail."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import handover
from portal.blueprints.adoption.documents import attached_documents
from portal.blueprints.adoption.errors import AdoptionError, InvalidData
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    Animal,
    DocumentKind,
    DocumentStatus,
    Listing,
    OutboxMessage,
    PaymentItem,
    StoredFile,
    UnitValue,
)
from portal.profiles import load_profile
from portal.services.dates import add_months
from portal.services.identity import residence_key
from tests import factories
from tests.factories import audit_events, eligible_person, fill_household, make_listing, ngo_user
from tests.integration.adoption.test_adoption_handover import ANSWERS, TODAY, _approved
from tests.unit.test_adoption_eligibility import _health

RABIES = {
    "rabies_vaccine": "Rabisin",
    "rabies_batch": "L123",
    "rabies_vet_name": "Dra. Ana",
    "rabies_vet_crmv": "CRMV-SP 1234",
}
PROGRAMME = " (regra do programa de adoção)"
NOT_VACCINATED = "O animal precisa estar vacinado para ser entregue."
NOT_DEWORMED = "O animal precisa estar vermifugado para ser entregue."
NOT_STERILIZED = "O animal precisa estar esterilizado para ser entregue."
CLOSED_REASON = "este animal foi adotado por outra família."


@contextmanager
def _city(make_app, key: str) -> Iterator:  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE=key)
    with app.app_context():
        yield app


def _mails(address: str) -> list[OutboxMessage]:
    return list(
        db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == address).order_by(OutboxMessage.id)
        )
    )


def _profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _staff():  # type: ignore[no-untyped-def]
    return factories.user(roles=("vet",))


def _existing_animal(owner, **fields):  # type: ignore[no-untyped-def]
    """An RGA already on record, owned by someone else (the NGO's founder, a former owner)."""
    values = {
        "rga": f"C-2025-{700000 + owner.id:06d}-1",
        "species": "dog",
        "name": "Rex",
        "sex": "male",
        "birth_date": TODAY - timedelta(days=900),
        "size": "large",
        "registered_on": TODAY - timedelta(days=300),
        "owner": owner,
        "residence_key": residence_key(owner.cep, owner.street, owner.number, None),
        "activated_at": datetime.now(UTC),
    }
    values.update(fields)
    animal = Animal(**values)
    db.session.add(animal)
    db.session.flush()
    return animal


# -- what the law asks of the animal: delivery_article, delivery_citations, delivery_problems ----


def test_vv_28_par1_cabo_14_cab_18_gru_85_citations_per_city(app) -> None:
    # VV 28 §1: vaccinated, dewormed, sterilised (all three local law). CABO 14 and CAB 18 and
    # GRU 85 (+ 88 §2 for the registration) ask only for the vaccination; BJP says nothing: the
    # rest is the adoption programme's own rule, with no article.
    everything = ["vacinação", "vermifugação", "castração"]
    expected = {
        "guarulhos": [("GRU 85, 88 §2", True, ["vacinação"]), ("", False, everything[1:])],
        "vilavelha": [("VV 28 §1", True, everything)],
        "bjp": [("", False, everything)],
        "cabo": [("CABO 14", True, ["vacinação"]), ("", False, everything[1:])],
        "cabeceira": [("CAB 18", True, ["vacinação"]), ("", False, everything[1:])],
    }
    for key, citations in expected.items():
        profile = load_profile(key)
        assert handover.delivery_citations(profile) == citations, key
    gru = load_profile("guarulhos")
    assert handover.delivery_article(gru, "vaccinated") == ("GRU 85, 88 §2", True)
    assert handover.delivery_article(gru, "sterilized") == ("", False)
    assert handover.delivery_article(load_profile("vilavelha"), "dewormed") == ("VV 28 §1", True)


def test_vv_28_par1_problems_cite_the_local_law_or_call_it_programme_policy(app) -> None:
    bare = Listing(vaccinated=False, dewormed=False, sterilized=False)
    # VV 28 §1: all three are the law's, no "programme" suffix.
    assert handover.delivery_problems(load_profile("vilavelha"), bare) == [
        ("vaccinated", NOT_VACCINATED, "VV 28 §1"),
        ("dewormed", NOT_DEWORMED, "VV 28 §1"),
        ("sterilized", NOT_STERILIZED, "VV 28 §1"),
    ]
    # CAB 18: only the rabies shot is the law's.
    assert handover.delivery_problems(load_profile("cabeceira"), bare) == [
        ("vaccinated", NOT_VACCINATED, "CAB 18"),
        ("dewormed", NOT_DEWORMED + PROGRAMME, ""),
        ("sterilized", NOT_STERILIZED + PROGRAMME, ""),
    ]
    # BJP: nothing in the law, all three the programme's.
    assert [p[0] for p in handover.delivery_problems(load_profile("bjp"), bare)] == [
        "vaccinated",
        "dewormed",
        "sterilized",
    ]
    assert handover.delivery_problems(load_profile("bjp"), bare)[0] == (
        "vaccinated",
        NOT_VACCINATED + PROGRAMME,
        "",
    )
    only_dewormed_missing = Listing(vaccinated=True, dewormed=False, sterilized=True)
    assert handover.delivery_problems(load_profile("guarulhos"), only_dewormed_missing) == [
        ("dewormed", NOT_DEWORMED + PROGRAMME, "")
    ]
    healthy = Listing(vaccinated=True, dewormed=True, sterilized=True)
    assert handover.delivery_problems(load_profile("vilavelha"), healthy) == []


def test_bjp_13_par1_rabies_record_counts_only_when_something_is_typed() -> None:
    # BJP 13 §1 fields: a record exists as soon as one of them is typed; blanks are not a record.
    base = {
        "vaccinated": True,
        "vaccinated_on": TODAY,
        "dewormed": True,
        "dewormed_on": TODAY,
        "sterilized": True,
        "sterilized_on": TODAY,
    }
    assert not handover.HealthRecord(**base).has_rabies_record  # the defaults are empty
    blanks = dict.fromkeys(RABIES, "   ")
    assert not handover.HealthRecord(**base, **blanks).has_rabies_record
    for name in RABIES:
        assert handover.HealthRecord(**base, **{**blanks, name: " x "}).has_rabies_record, name


# -- the adoption fee: adoption_fee --------------------------------------------------------------


def test_bjp_28_fee_per_animal_only_for_ccz_animals_and_none_where_adoption_is_free(app) -> None:
    _user, org = ngo_user()
    ccz = make_listing(None)
    ngo = make_listing(org)
    # GRU 88, VV 28 and CABO 14 charge nothing for an adoption.
    for key in ("guarulhos", "vilavelha", "cabo"):
        assert handover.adoption_fee(load_profile(key), ccz, TODAY) is None, key
    bjp = load_profile("bjp")
    # BJP 28 "serão cobradas ... as taxas respectivas": the price list's adoption entry
    # (example amount R$ 30,00), one animal.
    total, breakdown = handover.adoption_fee(bjp, ccz, TODAY)  # type: ignore[misc]
    assert total == 3000
    assert [(line["amount_cents"], line["article"]) for line in breakdown] == [(3000, "BJP 28")]
    # An NGO's own animal is not the city's: no municipal fee, in BJP as in Cabeceira.
    assert handover.adoption_fee(bjp, ngo, TODAY) is None
    assert handover.adoption_fee(load_profile("cabeceira"), ngo, TODAY) is None


def test_cab_17_fee_per_day_held_counts_from_the_intake_day(make_app) -> None:
    # CAB 17: "50% da Unidade Fiscal do Município por cabeça e por dia de apreensão". With the UFM
    # at R$ 100,00 a day held costs R$ 50,00; the hand-over day itself counts as one day at least.
    with _city(make_app, "cabeceira") as app:
        profile = _profile(app)
        db.session.add(UnitValue(unit="UFM", value_cents=10_000, effective_from=date(2025, 1, 1)))
        on = date(2026, 3, 10)
        listing = make_listing(None, on=on)

        def fee(held_since: date | None, published_at: datetime | None) -> int:
            listing.held_since = held_since
            listing.published_at = published_at
            result = handover.adoption_fee(profile, listing, on)
            assert result is not None
            total, breakdown = result
            assert breakdown[0]["article"] == "CAB 17"
            assert breakdown[0]["amount_cents"] == total
            return total

        assert fee(on, None) == 5_000  # taken in today: 0 days, charged as 1
        assert fee(on - timedelta(days=1), None) == 5_000  # 1 day
        assert fee(on - timedelta(days=2), None) == 10_000  # 2 days
        assert fee(on - timedelta(days=7), None) == 35_000  # 7 days
        assert fee(on + timedelta(days=3), None) == 5_000  # a wrong future intake: still 1 day
        # No intake day: counted from the first publication's local day. 22:00 on 06/03 in the
        # municipality is 01:00 UTC on 07/03: 4 days to 10/03, not 3.
        late_evening = datetime(2026, 3, 7, 1, 0, tzinfo=UTC)
        assert fee(None, late_evening) == 20_000
        # The intake day wins over the publication.
        assert fee(on - timedelta(days=2), late_evening) == 10_000
        # Neither: the hand-over day, one day.
        assert fee(None, None) == 5_000


def test_cab_17_fee_without_the_unit_value_of_the_day_is_refused_with_the_reason(make_app) -> None:
    with _city(make_app, "cabeceira") as app:
        profile = _profile(app)
        db.session.add(UnitValue(unit="UFM", value_cents=10_000, effective_from=date(2025, 1, 1)))
        listing = make_listing(None, on=date(2024, 12, 1), held_since="2024-12-01")
        with pytest.raises(AdoptionError) as err:
            handover.adoption_fee(profile, listing, date(2024, 12, 31))
        assert type(err.value) is AdoptionError
        assert (err.value.field, err.value.code) == ("fee", "unit_value_missing")
        assert "Nenhum valor de UFM vigente em 31/12/2024." in err.value.message
        # From the day the value is in force: 1 day (intake 01/12/2024 -> 01/01/2025: 31 days).
        assert handover.adoption_fee(profile, listing, date(2025, 1, 1))[0] == 31 * 5_000  # type: ignore[index]


# -- complete_adoption: the steps that refuse ---------------------------------------------------


def test_handover_only_from_an_approved_application(app) -> None:
    reviewer, _person, application = _approved(app)
    for status in ("submitted", "needs_info", "refused", "completed", "cancelled"):
        application.status = status
        with pytest.raises(AdoptionError) as err:
            apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY)
        assert (err.value.field, err.value.code) == ("status", "invalid_transition"), status
        assert str(apps.STATUS_LABELS[status]) in err.value.message
        assert application.listing.animal is None
    application.status = "approved"
    assert apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY) is (
        application
    )
    assert application.status == "completed"


def test_handover_dates_may_be_today_never_tomorrow(app) -> None:
    reviewer, _person, application = _approved(app)
    profile = _profile(app)
    tomorrow = TODAY + timedelta(days=1)
    for name in ("vaccinated", "dewormed", "sterilized"):
        with pytest.raises(AdoptionError) as err:
            apps.complete_adoption(
                profile, application, reviewer, _health(**{f"{name}_on": tomorrow}), TODAY
            )
        assert (err.value.field, err.value.code) == (f"{name}_on", "future")
        assert application.status == "approved"
    health = _health(vaccinated_on=TODAY, dewormed_on=TODAY, sterilized_on=TODAY)
    apps.complete_adoption(profile, application, reviewer, health, TODAY)
    listing = application.listing
    assert application.status == "completed"
    assert (listing.vaccinated_on, listing.dewormed_on, listing.sterilized_on) == (TODAY,) * 3


def test_vv_28_par1_a_date_confirms_the_condition_and_a_tick_without_date_keeps_none(app) -> None:
    reviewer, _person, application = _approved(app, dewormed=False, sterilized=False)
    listing = application.listing
    listing.dewormed_on = TODAY - timedelta(days=90)  # an older record the form does not repeat
    shot = TODAY - timedelta(days=3)
    castrated = TODAY - timedelta(days=20)
    health = handover.HealthRecord(
        vaccinated=False,  # the box left unticked, but the date typed: it was given
        vaccinated_on=shot,
        dewormed=True,  # ticked without a date
        dewormed_on=None,
        sterilized=False,
        sterilized_on=castrated,
    )
    apps.complete_adoption(_profile(app), application, reviewer, health, TODAY)
    assert application.status == "completed"
    assert (listing.vaccinated, listing.vaccinated_on) == (True, shot)
    assert (listing.dewormed, listing.dewormed_on) == (True, None)
    assert (listing.sterilized, listing.sterilized_on) == (True, castrated)
    assert listing.animal.vaccinations[0].applied_on == shot  # the date typed goes to the RGA


def test_gru_85_handover_refused_names_every_missing_condition(app) -> None:
    reviewer, _person, application = _approved(app)
    listing = application.listing
    health = handover.HealthRecord(
        vaccinated=False,
        vaccinated_on=None,
        dewormed=False,
        dewormed_on=None,
        sterilized=False,
        sterilized_on=None,
    )
    with pytest.raises(apps.DeliveryRefused) as err:
        apps.complete_adoption(_profile(app), application, reviewer, health, TODAY)
    # GRU 85 asks for the rabies shot; deworming and sterilisation are the programme's rule.
    assert err.value.problems == [
        ("vaccinated", NOT_VACCINATED, "GRU 85, 88 §2"),
        ("dewormed", NOT_DEWORMED + PROGRAMME, ""),
        ("sterilized", NOT_STERILIZED + PROGRAMME, ""),
    ]
    assert (err.value.field, err.value.code, err.value.message) == (
        "vaccinated",
        "not_ready",
        NOT_VACCINATED,
    )
    # What the form said is kept on the listing; nothing else happened.
    assert (listing.vaccinated, listing.dewormed, listing.sterilized) == (False, False, False)
    assert application.status == "approved" and listing.state == "reserved"
    assert listing.animal is None and application.rga_number is None
    assert not audit_events("adoption.completed")


def test_vv_28_par1_handover_refused_without_deworming_cites_vv(make_app) -> None:
    with _city(make_app, "vilavelha") as app:
        reviewer, _person, application = _approved(app, dewormed=False)
        with pytest.raises(apps.DeliveryRefused) as err:
            apps.complete_adoption(
                _profile(app),
                application,
                reviewer,
                _health(dewormed=False, dewormed_on=None),
                TODAY,
            )
        assert err.value.problems == [("dewormed", NOT_DEWORMED, "VV 28 §1")]
        assert (err.value.field, err.value.code, err.value.message) == (
            "dewormed",
            "not_ready",
            NOT_DEWORMED,
        )


def test_vv_28_par2_eligibility_is_checked_again_by_the_reviewer_on_the_attached_proofs(
    app,
) -> None:
    reviewer, person, application = _approved(app)
    # After the approval: the attached proof of income was refused, and a new one the person sent
    # is not attached to this application (the reviewer never saw it); and the birth date on
    # record was corrected to 17 years ago.
    income = next(
        d for d in attached_documents(application) if d.kind == DocumentKind.PROOF_OF_INCOME
    )
    income.status = DocumentStatus.REFUSED
    factories.add_document(person, DocumentKind.PROOF_OF_INCOME)
    person.birth_date = add_months(TODAY, -17 * 12)
    with pytest.raises(apps.NotEligible) as err:
        apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY)
    assert [r.rule for r in err.value.results] == ["adult", "proof_of_income"]
    assert (err.value.field, err.value.code) == ("eligibility", "not_eligible")
    assert err.value.message == err.value.results[0].message
    assert "a pessoa tem 17 anos" in err.value.message  # worded for the reviewer
    assert application.status == "approved" and application.listing.animal is None
    assert application.payment_item_id is None and not audit_events("adoption.completed")


# -- complete_adoption: the RGA issued from the listing (VV 28 §1; GRU 88 §2) --------------------


def test_gru_88_par2_handover_issues_the_rga_from_the_listing(app) -> None:
    reviewer, org = ngo_user("ONG Patas Unidas")
    _r, person, application = _approved(
        app,
        org=org,
        reviewer=reviewer,
        name="Biscoito",
        species="cat",
        sex="male",
        birth_date=(TODAY - timedelta(days=400)).isoformat(),
        age_months=None,
        size="small",
        color="Rajado",
        breed="Siamês",
    )
    other = eligible_person()
    waiting = AdoptionApplication(
        listing_id=application.listing_id,
        applicant=other,
        answers=ANSWERS.validate(),
        status="needs_info",
    )
    db.session.add(waiting)
    db.session.flush()
    listing = application.listing
    shot = TODAY - timedelta(days=15)
    health = _health(vaccinated_on=shot, **RABIES)
    returned = apps.complete_adoption(_profile(app), application, reviewer, health, TODAY)
    assert returned is application

    animal = listing.animal
    assert listing.animal_id == animal.id and application.rga_number == animal.rga
    assert (animal.owner_id, animal.registered_by_id) == (person.id, reviewer.id)
    assert (animal.name, animal.species, animal.sex, animal.size, animal.color, animal.breed) == (
        "Biscoito",
        "cat",
        "male",
        "small",
        "Rajado",
        "Siamês",
    )
    assert animal.birth_date == TODAY - timedelta(days=400) and not animal.birth_date_estimated
    assert animal.sterilized
    assert animal.status == "active" and not animal.provisional and animal.definitive_at
    assert animal.proof_status == "checked" and not animal.late_registration
    assert animal.fee_item_id is None  # GRU 88: no adoption fee
    # The rabies record typed at the hand-over (BJP 13 §1 fields), dated by the listing.
    (vaccination,) = animal.vaccinations
    assert (
        vaccination.vaccine_name,
        vaccination.batch,
        vaccination.vet_name,
        vaccination.vet_crmv,
        vaccination.applied_on,
    ) == ("Rabisin", "L123", "Dra. Ana", "CRMV-SP 1234", shot)
    # The listing's cover goes to the RGA as the adopter's own public copy, once.
    assert animal.photo is not None and animal.photo.owner_id == person.id
    assert animal.photo.purpose == "animal_photo" and animal.photo.public
    assert animal.photo.id != listing.cover.id
    copies = db.session.scalar(
        select(func.count(StoredFile.id)).where(
            StoredFile.purpose == "animal_photo", StoredFile.owner_id == person.id
        )
    )
    assert copies == 1

    # The application, its step, the listing.
    assert application.status == "completed" and application.payment_item_id is None
    assert application.completed_by_id == reviewer.id and application.completed_at is not None
    step = application.events[-1]
    assert (step.from_status, step.to_status, step.actor_id) == (
        "approved",
        "completed",
        reviewer.id,
    )
    assert listing.state == "adopted" and listing.adopted_at == application.completed_at
    # The other family's application is closed, by the reviewer, with the reason.
    assert waiting.status == "refused" and waiting.refusal_reason == CLOSED_REASON
    assert (waiting.events[-1].note, waiting.events[-1].actor_id) == (CLOSED_REASON, reviewer.id)
    assert CLOSED_REASON in _mails(other.email)[-1].body
    # Audit.
    (event,) = audit_events("adoption.completed")
    assert (event.actor_id, event.subject_type, event.subject_id) == (
        reviewer.id,
        "AdoptionApplication",
        str(application.id),
    )
    assert event.detail == {"listing_id": listing.id, "rga": animal.rga}
    # The adopter's e-mail: the RGA, the leaflet's address, no fee; no second "definitivo" one.
    mails = _mails(person.email)
    mail = mails[-1]
    assert mail.subject == "Adoção concluída – bem-vindo(a) à família!"
    assert f"A adoção de Biscoito está concluída. RGA: {animal.rga}." in mail.body
    assert f"http://localhost/adocao/minhas/{application.id}/folheto" in mail.body
    assert "Taxa de adoção" not in mail.body
    assert not [m for m in mails if "definitivo" in m.subject]


def test_gru_88_par2_rga_vouched_by_the_ngo_without_a_rabies_record(app) -> None:
    reviewer, org = ngo_user("ONG Focinhos")
    _r, person, application = _approved(app, org=org, reviewer=reviewer)
    listing = application.listing
    listing.photos.clear()  # the NGO removed its photos after the approval
    listing.breed = ""  # an old listing without a breed: the RGA says "SRD"
    shot = TODAY - timedelta(days=30)
    apps.complete_adoption(_profile(app), application, reviewer, _health(vaccinated_on=shot), TODAY)
    animal = listing.animal
    assert animal.breed == "SRD" and animal.birth_date_estimated  # listed by estimated age
    assert animal.photo is None  # no photo on the listing, none on the RGA
    (vaccination,) = animal.vaccinations
    # The NGO vouches for the shot it confirms (VV 28 §1; GRU 85): the listing's date, its name.
    assert vaccination.applied_on == shot
    assert vaccination.vouched_by == "ONG Focinhos" and vaccination.establishment == "ONG Focinhos"
    assert not vaccination.at_ccz and vaccination.recorded_by_id == reviewer.id
    assert animal.proof_status == "checked" and animal.proof_checked_by_id == reviewer.id
    assert animal.status == "active" and not animal.provisional


# -- complete_adoption: an RGA already on record is transferred (GRU 18 §1) ----------------------


def test_gru_18_par1_existing_rga_is_transferred_with_the_rabies_record_and_photo(app) -> None:
    reviewer, org = ngo_user()
    former = factories.user()
    animal = _existing_animal(former, sterilized=False)
    _r, person, application = _approved(app, org=org, reviewer=reviewer, name="Rex")
    listing = application.listing
    listing.animal = animal
    shot = TODAY - timedelta(days=2)
    apps.complete_adoption(
        _profile(app), application, reviewer, _health(vaccinated_on=shot, **RABIES), TODAY
    )
    assert application.rga_number == animal.rga and listing.animal_id == animal.id
    assert animal.owner_id == person.id
    assert animal.residence_key == residence_key(person.cep, person.street, person.number, None)
    transfer = animal.transfers[-1]
    assert (transfer.status, transfer.reason, transfer.from_owner_id, transfer.to_owner_id) == (
        "accepted",
        "adoption",
        former.id,
        person.id,
    )
    # Sterilised at the hand-over (the listing says so): the RGA says so too.
    assert animal.sterilized
    # The rabies record typed at the hand-over, recorded by the reviewer, not a CCZ shot.
    (vaccination,) = animal.vaccinations
    assert (vaccination.vaccine_name, vaccination.batch, vaccination.applied_on) == (
        "Rabisin",
        "L123",
        shot,
    )
    assert not vaccination.at_ccz and vaccination.recorded_by_id == reviewer.id
    (vaccinated,) = audit_events("animal.vaccinated")
    assert vaccinated.actor_id == reviewer.id and vaccinated.detail == {"rga": animal.rga}
    # The RGA had no photo: the listing's cover, copied for the adopter.
    assert animal.photo is not None and animal.photo.owner_id == person.id
    assert animal.photo.id != listing.cover.id and animal.photo.purpose == "animal_photo"
    assert audit_events("adoption.completed")[0].detail == {
        "listing_id": listing.id,
        "rga": animal.rga,
    }


def test_gru_18_par1_transferred_rga_keeps_its_own_photo_and_sterilisation(app) -> None:
    reviewer, org = ngo_user()
    former = factories.user()
    own = make_listing(org, photos=1).cover  # any stored image: the RGA's own photo
    animal = _existing_animal(former, sterilized=True, photo=own)
    _r, person, application = _approved(app, org=org, reviewer=reviewer, name="Rex")
    application.listing.animal = animal
    apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY)
    assert animal.photo_id == own.id and animal.sterilized and animal.owner_id == person.id
    (vaccination,) = animal.vaccinations  # no record typed: the NGO's vouched shot
    assert vaccination.vaccine_name == "Antirrábica" and vaccination.recorded_by_id == reviewer.id
    assert not audit_events("animal.vaccinated")


def test_gru_18_par1_closed_rga_cannot_be_handed_over(app) -> None:
    reviewer, org = ngo_user()
    animal = _existing_animal(factories.user(), status="closed")
    _r, _person, application = _approved(app, org=org, reviewer=reviewer, name="Rex")
    application.listing.animal = animal
    with pytest.raises(InvalidData) as err:
        apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY)
    # The RGA domain names no field: the error goes to the RGA as a whole.
    assert [(f, c) for f, c, _m in err.value.errors] == [("rga", "invalid")]
    assert (err.value.field, err.value.code) == ("rga", "invalid")
    assert "encerrado" in err.value.errors[0][2]
    assert application.status == "approved"


def test_gru_18_par1_adopter_who_already_owns_the_rga(app) -> None:
    reviewer, org = ngo_user()
    _r, person, application = _approved(app, org=org, reviewer=reviewer, name="Rex")
    application.listing.animal = _existing_animal(person)
    with pytest.raises(InvalidData) as err:
        apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY)
    # The RGA domain's "cpf" field has no hand-over field: reported on the RGA.
    assert [(f, c) for f, c, _m in err.value.errors] == [("rga", "invalid")]


# -- complete_adoption: the RGA domain's errors on the hand-over's fields -----------------------


def test_bjp_13_par1_rabies_record_errors_land_on_the_handover_fields(app) -> None:
    reviewer, _person, application = _approved(app)
    profile = _profile(app)
    only_crmv = _health(
        vaccinated_on=None,
        rabies_vaccine="",
        rabies_batch="",
        rabies_vet_name="",
        rabies_vet_crmv="CRMV-SP 1",
    )
    with pytest.raises(InvalidData) as err:
        apps.complete_adoption(profile, application, reviewer, only_crmv, TODAY)
    assert [(f, c) for f, c, _m in err.value.errors] == [
        ("vaccinated_on", "required"),
        ("rabies_vaccine", "required"),
        ("rabies_batch", "required"),
        ("rabies_vet_name", "required"),
    ]
    assert err.value.errors[2][2] == "Informe a partida (lote) da vacina."
    bad_crmv = _health(**{**RABIES, "rabies_vet_crmv": "sem número"})
    with pytest.raises(InvalidData) as err:
        apps.complete_adoption(profile, application, reviewer, bad_crmv, TODAY)
    assert [(f, c) for f, c, _m in err.value.errors] == [("rabies_vet_crmv", "invalid")]
    assert application.status == "approved" and application.listing.animal is None


def test_gru_15_v_vaccination_out_of_date_refused_on_the_date_field(app) -> None:
    reviewer, _person, application = _approved(app)
    stale = TODAY - timedelta(days=400)  # more than the programme's 12 months ago
    with pytest.raises(InvalidData) as err:
        apps.complete_adoption(
            _profile(app), application, reviewer, _health(vaccinated_on=stale), TODAY
        )
    assert [(f, c) for f, c, _m in err.value.errors] == [("vaccinated_on", "missing_vaccination")]
    assert "GRU 15 V" in err.value.errors[0][2] and "vencida" in err.value.errors[0][2]


def test_vv_28_par1_adopter_without_a_full_address_gets_no_rga(make_app) -> None:
    # Vila Velha sets no household limit, so eligibility does not count the residence; the RGA
    # still needs the address the animal will live at.
    with _city(make_app, "vilavelha") as app:
        reviewer, person, application = _approved(app)
        person.number = None
        with pytest.raises(InvalidData) as err:
            apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY)
        assert [(f, c) for f, c, _m in err.value.errors] == [("address", "required")]
        assert application.status == "approved"


def test_vv_no_household_limit_at_the_new_home_under_the_profile_given(app) -> None:
    """The hand-over of an RGA already on record checks the household limit at the adopter's home
    under the law it is given: Vila Velha's sets none, so a sixth adult dog moves in, where
    Guarulhos' (GRU 37, the portal's own profile here) would refuse it."""
    reviewer, org = ngo_user()
    person = eligible_person()
    fill_household(person, 5)  # GRU 37: the limit of five reached
    animal = _existing_animal(factories.user())  # adult (900 days)
    listing = make_listing(org, name="Rex")
    listing.animal = animal
    vv = load_profile("vilavelha")  # VV sets no household limit
    application = apps.submit_application(vv, person, listing, ANSWERS, True, TODAY)
    apps.approve_application(vv, application, reviewer, TODAY)
    apps.complete_adoption(vv, application, reviewer, _health(), TODAY)
    assert animal.owner_id == person.id and application.status == "completed"


# -- complete_adoption: the fee where the law charges one ---------------------------------------


def test_bjp_28_ccz_handover_charges_the_fee_and_the_rga_waits_for_it(make_app) -> None:
    with _city(make_app, "bjp") as app:
        staff = _staff()
        _s, person, application = _approved(app, org=None, reviewer=staff, name="Pipoca")
        apps.complete_adoption(_profile(app), application, staff, _health(), TODAY)
        item = db.session.get(PaymentItem, application.payment_item_id)
        assert item is not None
        # BJP 28: the adoption fee of the price list, R$ 30,00 for one animal.
        assert (item.kind, item.amount_cents, item.status) == ("adoption", 3000, "pending")
        assert item.description == "Adoção de Pipoca" and item.payer_id == person.id
        assert (item.subject_type, item.subject_id) == ("adoption_application", application.id)
        assert [(line["amount_cents"], line["article"]) for line in item.breakdown] == [
            (3000, "BJP 28")
        ]
        animal = application.listing.animal
        assert animal.fee_item_id == item.id and animal.provisional and animal.status == "active"
        (vaccination,) = animal.vaccinations
        assert vaccination.vouched_by == "CCZ" and vaccination.at_ccz  # the CCZ's own animal
        mail = _mails(person.email)[-1]
        assert 'Taxa de adoção: R$ 30,00, a pagar em "Pagar taxas".' in mail.body
        assert f"RGA: {animal.rga}." in mail.body
        assert not [m for m in _mails(person.email) if "definitivo" in m.subject]


def test_bjp_28_ngo_animal_handover_charges_nothing(make_app) -> None:
    with _city(make_app, "bjp") as app:
        reviewer, person, application = _approved(app)
        apps.complete_adoption(_profile(app), application, reviewer, _health(), TODAY)
        assert application.payment_item_id is None
        assert application.listing.animal.fee_item_id is None
        assert not application.listing.animal.provisional
        assert "Taxa de adoção" not in _mails(person.email)[-1].body


def test_cab_17_ccz_handover_charges_per_day_held(make_app) -> None:
    with _city(make_app, "cabeceira") as app:
        db.session.add(UnitValue(unit="UFM", value_cents=10_000, effective_from=date(2025, 1, 1)))
        staff = _staff()
        held = (TODAY - timedelta(days=3)).isoformat()
        _s, person, application = _approved(
            app, org=None, reviewer=staff, name="Paçoca", held_since=held
        )
        apps.complete_adoption(_profile(app), application, staff, _health(), TODAY)
        item = db.session.get(PaymentItem, application.payment_item_id)
        # CAB 17: 50 % of R$ 100,00 (UFM) x 3 days held = R$ 150,00.
        assert item is not None and item.amount_cents == 15_000
        assert item.breakdown[0]["article"] == "CAB 17" and item.payer_id == person.id
        assert application.listing.animal.fee_item_id == item.id
        mail = _mails(person.email)[-1]
        assert 'Taxa de adoção: R$ 150,00, a pagar em "Pagar taxas".' in mail.body


def test_cab_17_ccz_handover_without_the_ufm_is_refused_before_anything_is_charged(
    make_app,
) -> None:
    with _city(make_app, "cabeceira") as app:
        staff = _staff()
        _s, _person, application = _approved(app, org=None, reviewer=staff)
        with pytest.raises(AdoptionError) as err:
            apps.complete_adoption(_profile(app), application, staff, _health(), TODAY)
        assert (err.value.field, err.value.code) == ("fee", "unit_value_missing")
        assert f"Nenhum valor de UFM vigente em {TODAY:%d/%m/%Y}." in err.value.message
        assert application.payment_item_id is None and application.status == "approved"


def test_gru_37_young_animal_moves_in_counted_on_the_handover_day(app) -> None:
    # GRU 37 counts dogs and cats "com idade superior a 120 (cento e vinte) dias". A hand-over
    # recorded for 60 days ago of a dog then 100 days old (160 today) into a home with five adult
    # dogs: on that day the dog did not count, so the transfer is within the limit.
    on = TODAY - timedelta(days=60)
    born = on - timedelta(days=100)
    reviewer, org = ngo_user()
    person = factories.user()
    for kind in (
        DocumentKind.IDENTITY,
        DocumentKind.PROOF_OF_ADDRESS,
        DocumentKind.PROOF_OF_INCOME,
    ):
        factories.add_document(person, kind, on=on)  # proofs as they stood on that day
    fill_household(person, 5, on=on)
    listing = make_listing(org, name="Rex", birth_date=born.isoformat(), age_months=None, on=on)
    animal = _existing_animal(factories.user(), birth_date=born, registered_on=on)
    listing.animal = animal
    profile = _profile(app)
    application = apps.submit_application(profile, person, listing, ANSWERS, True, on)
    apps.approve_application(profile, application, reviewer, on)
    health = _health(
        vaccinated_on=on - timedelta(days=5),
        dewormed_on=on - timedelta(days=5),
        sterilized_on=on - timedelta(days=5),
    )
    apps.complete_adoption(profile, application, reviewer, health, on)
    assert animal.owner_id == person.id and application.status == "completed"

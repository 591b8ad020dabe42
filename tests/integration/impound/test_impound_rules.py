"""Impound rules per profile, with real 2026 dates and holidays (issue 14): hold deadlines, the
capture count and definitive apprehension, reclaim fees, destinations and Lei 14.228/2021."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.impound import services
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Capture,
    CaptureStatus,
    Listing,
    ListingState,
    MunicipalHoliday,
    OutboxMessage,
    ReclaimStatus,
    Vaccination,
)
from portal.profiles import load_profile
from tests import factories

GRU, BJP, VV, CAB, CABO = (
    load_profile(k) for k in ("guarulhos", "bjp", "vilavelha", "cabeceira", "cabo")
)


def _data(day: date, **fields) -> services.CaptureData:  # type: ignore[no-untyped-def]
    values = dict(
        species="dog",
        size="small",
        sex="male",
        color="Caramelo",
        place="Rua X, 10",
        district="Centro",
        captured_at=datetime(day.year, day.month, day.day, 13, tzinfo=UTC),
        captured_on=day,
        reason="loose",
        condition="good",
    )
    values.update(fields)
    return services.CaptureData(**values)  # type: ignore[arg-type]


def _home_again(data: services.CaptureData) -> services.CaptureData:
    """The animal of an earlier capture went home before this one (a capture of an animal still
    "Sob guarda" is refused): its captures left in custody by the test are closed as released."""
    animal = services.lookup_animal(data.tag_read, data.microchip)
    if animal is not None:
        for earlier in db.session.scalars(select(Capture).where(Capture.animal_id == animal.id)):
            if earlier.status in (CaptureStatus.IN_CUSTODY, CaptureStatus.DEFINITIVE_PENDING):
                earlier.status = CaptureStatus.RELEASED
        db.session.flush()
    return data


def _capture(profile, day: date, *, agent=None, **fields) -> Capture:  # type: ignore[no-untyped-def]
    agent = agent or factories.user(roles=("agent",))
    data = _home_again(_data(day, **fields))
    return services.record_capture(profile, data, agent=agent, today=day)


def _deadline(profile, day, *, size="small", tagged=True, custody="ordinary"):  # type: ignore[no-untyped-def]
    return services.hold_deadline(
        profile, size=size, captured_on=day, tagged=tagged, custody_type=custody
    )


def _shot(day: date):  # type: ignore[no-untyped-def]
    """The vaccine data typed at the CCZ when the animal is vaccinated on release (GRU 85)."""
    from portal.blueprints.animals.services import VaccinationData

    return VaccinationData(
        applied_on=day,
        vaccine_name="Rai-Vet",
        batch="L-2026-01",
        vet_name="Dra. Ana Souza",
        vet_crmv="CRMV-SP 12345",
    )


def _pay(reclaim, staff) -> None:  # type: ignore[no-untyped-def]
    from portal.blueprints.billing.services import mark_paid_at_counter

    mark_paid_at_counter(
        reclaim.payment_item, receipt_number=f"REC-{reclaim.id}", paid_on=date.today(), actor=staff
    )


# -- Hold deadlines ---------------------------------------------------------------------------


def test_gru_82_4_three_business_days_skip_good_friday(app):
    # Thursday 2 April 2026; Good Friday 3 April is a national holiday → 6, 7, 8 April.
    assert _deadline(GRU, date(2026, 4, 2)) == date(2026, 4, 8)
    # medium and large animals: five business days
    assert _deadline(GRU, date(2026, 4, 2), size="large") == date(2026, 4, 10)


def test_gru_82_4_municipal_holiday_entered_moves_the_deadline(app):
    db.session.add(MunicipalHoliday(day=date(2026, 4, 7), name="Feriado municipal de teste"))
    db.session.flush()
    assert _deadline(GRU, date(2026, 4, 2)) == date(2026, 4, 9)


def test_gru_114_repeating_municipal_holiday_counts_every_year(app):
    # Entered once in 2020, repeating: 8 December (Imaculada Conceição, Guarulhos' holiday).
    assert _deadline(GRU, date(2026, 12, 4)) == date(2026, 12, 9)
    db.session.add(
        MunicipalHoliday(day=date(2020, 12, 8), name="Imaculada Conceição", repeats_yearly=True)
    )
    db.session.flush()
    assert _deadline(GRU, date(2026, 12, 4)) == date(2026, 12, 10)


def test_gru_114_non_repeating_holiday_of_another_year_does_not_count(app):
    db.session.add(MunicipalHoliday(day=date(2020, 12, 8), name="Só em 2020"))
    db.session.flush()
    assert _deadline(GRU, date(2026, 12, 4)) == date(2026, 12, 9)


def test_bjp_25_capture_day_counts_tagged_five_untagged_three(app):
    assert services.capture_day_counts(BJP)
    assert _deadline(BJP, date(2026, 3, 2)) == date(2026, 3, 6)
    assert _deadline(BJP, date(2026, 3, 2), tagged=False) == date(2026, 3, 4)


def test_vv_22_3_five_calendar_days_capture_day_excluded(app):
    assert not services.capture_day_counts(VV)
    assert _deadline(VV, date(2026, 3, 2)) == date(2026, 3, 7)


def test_cab_14_observation_ten_days_then_48_hours(app):
    assert _deadline(CAB, date(2026, 3, 2), custody="observation") == date(2026, 3, 14)
    assert _deadline(CAB, date(2026, 3, 2)) == date(2026, 3, 7)  # CAB 12: ordinary hold


# -- Capture count (GRU 83 §ú, 84, 87 III, 113) ------------------------------------------------


def test_gru_84_1_third_capture_within_five_years_of_the_first():
    days = [date(2021, 3, 15), date(2023, 2, 1), date(2026, 3, 10)]
    assert services.count_in_period(days, date(2026, 3, 10), 5) == 3


def test_gru_113_first_capture_prescribed_count_is_two():
    days = [date(2020, 12, 1), date(2023, 5, 5), date(2026, 1, 20)]
    assert services.count_in_period(days, date(2026, 1, 20), 5) == 2


def test_gru_87_iii_third_capture_opens_definitive_apprehension_not_reclaimable(app):
    owner = factories.user()
    pet = factories.animal(owner)
    for day in (date(2021, 3, 15), date(2023, 2, 1)):
        _capture(GRU, day, tag_read=pet.rga)
    third = _capture(GRU, date(2026, 3, 10), tag_read=pet.rga)
    assert third.capture_number == 3
    assert third.status == CaptureStatus.DEFINITIVE_PENDING
    assert third.definitive_article == "GRU 87 III"
    with pytest.raises(DomainError) as err:
        services.start_reclaim(
            GRU, third, claimant=owner, channel="online", started_by=owner, today=date(2026, 3, 11)
        )
    assert err.value.code == "definitive_pending"
    mail = db.session.query(OutboxMessage).filter(OutboxMessage.to == owner.email).all()
    assert any("GRU 87 III" in m.body for m in mail)


def test_gru_113_prescribed_first_capture_no_definitive_apprehension(app):
    owner = factories.user()
    pet = factories.animal(owner)
    for day in (date(2020, 12, 1), date(2023, 5, 5)):
        _capture(GRU, day, tag_read=pet.rga)
    third = _capture(GRU, date(2026, 1, 20), tag_read=pet.rga)
    assert third.capture_number == 2
    assert third.status == CaptureStatus.IN_CUSTODY


def test_gru_83_count_follows_the_animal_to_a_new_owner(app):
    seller, buyer = factories.user(), factories.user()
    pet = factories.animal(seller)
    _capture(GRU, date(2025, 6, 2), tag_read=pet.rga)
    _capture(GRU, date(2025, 9, 1), tag_read=pet.rga)
    pet.owner = buyer  # sold (GRU 84 §2: "ainda que aliene o animal")
    db.session.flush()
    third = _capture(GRU, date(2026, 2, 2), tag_read=pet.rga)
    assert third.owner_id == buyer.id and third.capture_number == 3
    assert third.status == CaptureStatus.DEFINITIVE_PENDING


def test_gru_84_4_count_ends_with_destination_after_definitive_apprehension(app):
    owner = factories.user()
    pet = factories.animal(owner)
    for day in (date(2024, 1, 8), date(2025, 1, 6)):
        _capture(GRU, day, tag_read=pet.rga)
    third = _capture(GRU, date(2026, 1, 5), tag_read=pet.rga)
    coordinator = factories.user(roles=("coordinator",))
    from portal.blueprints.impound.apprehension import apprehension_document

    # the final decision of the auto de apreensão's procedure (GRU 87 §ú) decides the capture
    services.decide_definitive_apprehension(
        third, upheld=True, actor=coordinator, document=apprehension_document(third)
    )
    services.decide_destination(
        GRU,
        third,
        services.DestinationData(destination="adoption", reason="Apreensão definitiva mantida"),
        actor=coordinator,
        today=date(2026, 2, 2),
    )
    adopter = factories.user()
    pet.owner = adopter
    db.session.flush()
    again = _capture(GRU, date(2026, 6, 1), tag_read=pet.rga)
    assert again.capture_number == 1  # 84 §4: restarts only from the new owner's infraction


def test_gru_87_decision_not_upheld_makes_the_animal_reclaimable_again(app):
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(GRU, date(2026, 3, 2), tag_read=pet.rga)
    services.open_definitive_apprehension(
        capture, article="GRU 87 I", reason="Mordedor vicioso", actor=None
    )
    from portal.blueprints.impound.apprehension import apprehension_document

    # the final decision of the auto de apreensão's procedure (GRU 87 §ú) decides the capture
    services.decide_definitive_apprehension(
        capture, upheld=False, actor=None, document=apprehension_document(capture)
    )
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="online", started_by=owner, today=date(2026, 3, 3)
    )
    assert reclaim.status == ReclaimStatus.STARTED


# -- Reclaim fees --------------------------------------------------------------------------------


def test_gru_82_3_unemployed_owner_exempt_expenses_still_due(app):
    capture = _capture(GRU, date(2026, 3, 2))
    fee = services.reclaim_fee(
        GRU,
        capture,
        date(2026, 3, 3),
        exemption="unemployed_3_months",
        expenses=[{"kind": "transport", "amount_cents": 4500}],
    )
    assert any(line.kind == "exemption" and line.article == "GRU 82 §3" for line in fee.lines)
    assert fee.total_cents == 4500  # GRU 72 §1: expenses are never waived


def test_gru_82_5_days_beyond_the_hold_are_charged(app):
    capture = _capture(GRU, date(2026, 4, 2))
    on_time = services.reclaim_fee(GRU, capture, date(2026, 4, 8))
    late = services.reclaim_fee(GRU, capture, date(2026, 4, 10))
    assert late.total_cents > on_time.total_cents
    assert any(line.article == "GRU 82 §5" for line in late.lines)


def test_vv_22_5_free_within_five_business_days(app):
    from portal.models import UnitValue

    db.session.add(UnitValue(unit="MW", value_cents=151800, effective_from=date(2026, 1, 1)))
    db.session.flush()
    capture = _capture(VV, date(2026, 3, 2))
    assert services.reclaim_fee(VV, capture, date(2026, 3, 6)).total_cents == 0
    assert services.reclaim_fee(VV, capture, date(2026, 3, 12)).total_cents > 0


def test_cabo_41_expenses_itemised_on_the_reclaim(app):
    capture = _capture(CABO, date(2026, 3, 2))
    rule = CABO.expense_rule("reclaim")
    assert rule is not None  # CABO 41: the profile itemises the expenses of a reclaim
    kind = rule.kinds[0]
    fee = services.reclaim_fee(
        CABO, capture, date(2026, 3, 3), expenses=[{"kind": kind, "amount_cents": 3000}]
    )
    assert any(line.kind == "expense" and line.amount_cents == 3000 for line in fee.lines)


# -- Destinations and the federal law -----------------------------------------------------------


@pytest.mark.parametrize("profile", [GRU, BJP, VV, CAB, CABO], ids=lambda p: p.key)
def test_lei_14228_healthy_dog_or_cat_never_offered_euthanasia(app, profile):
    for species in ("dog", "cat"):
        capture = _capture(profile, date(2026, 3, 2), species=species)
        assert "euthanasia" not in services.destinations_offered(profile, capture)
        vet = factories.user(roles=("vet",))
        with pytest.raises(DomainError) as err:
            services.decide_destination(
                profile,
                capture,
                services.DestinationData(destination="euthanasia", reason="Não resgatado"),
                actor=vet,
                today=date(2026, 4, 30),
            )
        assert err.value.code == "euthanasia_refused"


def test_lei_14228_euthanasia_only_with_vet_laudo_of_incurable_disease(app):
    from portal.blueprints.impound import euthanasia

    capture = _capture(GRU, date(2026, 3, 2), condition="serious")
    vet = factories.user(roles=("vet",))
    # Art. 2º §1º-2º: the laudo goes to the NGOs first; an incurable infectious disease has no
    # NGO claim window, so the decision may follow at once.
    euthanasia.propose_euthanasia(
        GRU,
        capture,
        euthanasia.ProposalData(
            vet_report="Cinomose em fase neurológica, incurável",
            vet_crmv="CRMV-SP 123",
            lab_exam="RT-PCR positivo",
            infectious=True,
        ),
        vet=vet,
        today=date(2026, 3, 3),
    )
    decision = services.decide_destination(
        GRU,
        capture,
        services.DestinationData(
            destination="euthanasia",
            reason="Cinomose em fase neurológica",
            vet_report="Laudo: doença incurável com sofrimento",
            vet_crmv="CRMV-SP 123",
            lab_exam="RT-PCR positivo",
            incurable=True,
        ),
        actor=vet,
        today=date(2026, 3, 3),
    )
    assert decision.before_deadline and decision.vet_report


def test_cab_15_destinations_in_profile_order_auction_only_medium_large(app):
    small = _capture(CAB, date(2026, 3, 2))
    large = _capture(CAB, date(2026, 3, 2), species="other", size="large")
    assert services.destinations_offered(CAB, small) == ["adoption", "ngo_donation"]
    assert services.destinations_offered(CAB, large) == ["auction"]  # CAB 20: auction first


def test_bjp_25_4_destination_refused_before_deadline_unless_vet_report(app):
    capture = _capture(BJP, date(2026, 3, 2), condition="injured")
    agent = factories.user(roles=("agent",))
    with pytest.raises(DomainError) as err:
        services.decide_destination(
            BJP,
            capture,
            services.DestinationData(destination="adoption", reason="Sem dono"),
            actor=agent,
            today=date(2026, 3, 4),
        )
    assert err.value.code == "before_deadline"
    vet = factories.user(roles=("vet",))
    decision = services.decide_destination(
        BJP,
        capture,
        services.DestinationData(
            destination="adoption",
            reason="Fratura: tratamento prolongado em lar temporário",
            vet_report="Laudo técnico: fratura de fêmur",
        ),
        actor=vet,
        today=date(2026, 3, 4),
    )
    assert decision.before_deadline


def test_bjp_25_3_ii_community_return_needs_a_named_carer(app):
    capture = _capture(BJP, date(2026, 3, 2))
    agent = factories.user(roles=("agent",))
    with pytest.raises(DomainError) as err:
        services.decide_destination(
            BJP,
            capture,
            services.DestinationData(destination="community_return", reason="Animal comunitário"),
            actor=agent,
            today=date(2026, 3, 10),
        )
    assert err.value.field == "carer_name"


def test_gru_88_after_deadline_adoption_draft_listing_with_photos(app):
    capture = _capture(GRU, date(2026, 3, 2), photos=[(factories.png_bytes(), "cao.png")])
    agent = factories.user(roles=("agent",))
    decision = services.decide_destination(
        GRU,
        capture,
        services.DestinationData(
            destination="adoption", reason="Prazo vencido sem resgate", listing_name="Caramelo"
        ),
        actor=agent,
        today=date(2026, 3, 10),
    )
    listing = db.session.get(Listing, decision.listing_id)
    assert listing.state == ListingState.DRAFT and listing.organization_id is None
    assert len(listing.photos) == 1 and listing.held_since == date(2026, 3, 2)
    assert capture.status == CaptureStatus.DESTINED


# -- Reclaim and release -------------------------------------------------------------------------


def test_gru_82_1_release_needs_the_agent_to_confirm_the_cause_ended(app):
    owner = factories.user()
    pet = factories.rabies_vaccinated(factories.animal(owner), date(2026, 1, 10), date(2027, 1, 10))
    capture = _capture(GRU, date(2026, 3, 2), tag_read=pet.rga)
    staff = factories.user(roles=("agent",))
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="counter", started_by=staff, today=date(2026, 3, 3)
    )
    _pay(reclaim, staff)
    assert reclaim.status == ReclaimStatus.PAID
    services.record_rabies(GRU, reclaim, "proof", staff=staff, today=date(2026, 3, 3))
    with pytest.raises(DomainError) as err:
        services.release(
            GRU, capture, signed_by_name=owner.full_name, staff=staff, today=date(2026, 3, 3)
        )
    assert err.value.code == "cause_not_ended"
    services.confirm_cause_ended(capture, agent=staff)
    record = services.release(
        GRU, capture, signed_by_name=owner.full_name, staff=staff, today=date(2026, 3, 3)
    )
    assert "1 vez" in record.term_text and "GRU 87 III" in record.term_text
    assert capture.status == CaptureStatus.RELEASED


def test_gru_84_unregistered_owner_leaves_with_an_rga_and_gru_85_vaccine(app):
    capture = _capture(GRU, date.today() - timedelta(days=1))
    owner = factories.user()
    staff = factories.user(roles=("agent",))
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="counter", started_by=staff, today=date.today()
    )
    _pay(reclaim, staff)
    services.confirm_cause_ended(capture, agent=staff)
    with pytest.raises(DomainError) as err:
        services.release(GRU, capture, signed_by_name="X", staff=staff, today=date.today())
    assert err.value.code == "not_registered"
    animal = services.register_on_reclaim(
        GRU, reclaim, name="Caramelo", birth_date=date(2024, 1, 1), staff=staff, today=date.today()
    )
    assert animal.rga and capture.animal_id == animal.id
    with pytest.raises(DomainError) as err:
        services.release(GRU, capture, signed_by_name="X", staff=staff, today=date.today())
    assert err.value.code == "rabies_missing"
    services.record_rabies(
        GRU, reclaim, "vaccinated", staff=staff, today=date.today(), vaccination=_shot(date.today())
    )
    services.release(GRU, capture, signed_by_name=owner.full_name, staff=staff, today=date.today())
    assert capture.status == CaptureStatus.RELEASED
    # GRU 85: the shot given at the CCZ is on the new RGA, which it activates (BJP 6 §ú)
    shot = db.session.get(Vaccination, reclaim.vaccination_id)
    assert shot is not None and shot.animal_id == animal.id and shot.at_ccz
    assert animal.status == "active"


def test_gru_85_vaccinated_at_the_ccz_writes_the_vaccination_on_the_rga(app):
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(GRU, date.today() - timedelta(days=1), tag_read=pet.rga)
    staff = factories.user(roles=("vet",))
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="counter", started_by=staff, today=date.today()
    )
    with pytest.raises(DomainError) as err:  # no vaccine data: nothing to put on the RGA
        services.record_rabies(GRU, reclaim, "vaccinated", staff=staff, today=date.today())
    assert err.value.field == "vaccine_name"
    incomplete = _shot(date.today())
    incomplete.batch = ""
    with pytest.raises(DomainError) as err:
        services.record_rabies(
            GRU, reclaim, "vaccinated", staff=staff, today=date.today(), vaccination=incomplete
        )
    assert err.value.field == "batch"
    services.record_rabies(
        GRU, reclaim, "vaccinated", staff=staff, today=date.today(), vaccination=_shot(date.today())
    )
    rows = db.session.scalars(db.select(Vaccination).where(Vaccination.animal_id == pet.id)).all()
    assert [(v.vaccine_name, v.batch, v.at_ccz, v.recorded_by_id) for v in rows] == [
        ("Rai-Vet", "L-2026-01", True, staff.id)
    ]
    assert reclaim.vaccination_id == rows[0].id and reclaim.rabies == "vaccinated"


def test_online_reclaim_only_by_the_rga_owner(app):
    owner, stranger = factories.user(), factories.user()
    pet = factories.animal(owner)
    capture = _capture(GRU, date(2026, 3, 2), tag_read=pet.rga)
    with pytest.raises(DomainError) as err:
        services.start_reclaim(
            GRU,
            capture,
            claimant=stranger,
            channel="online",
            started_by=stranger,
            today=date(2026, 3, 3),
        )
    assert err.value.code == "not_owner"


# -- Certidão (GRU 84 §3, §5) --------------------------------------------------------------------


def test_gru_84_3_certificate_counts_captures_in_the_period(app):
    owner, buyer = factories.user(), factories.user()
    pet = factories.animal(owner)
    _capture(GRU, date(2020, 12, 1), tag_read=pet.rga)
    _capture(GRU, date(2023, 5, 5), tag_read=pet.rga)
    from portal.services.dates import business_days_calendar

    monday = business_days_calendar("SP").next_business_day(date.today())
    cert = services.request_certificate(
        GRU, pet.rga, requester=buyer, exam_on=monday, today=date.today()
    )
    staff = factories.user(roles=("agent",))
    services.issue_certificate(
        GRU, cert, confirmed=True, note="", staff=staff, today=date(2026, 1, 20)
    )
    assert cert.captures_in_period == 1  # 2020-12-01 prescribed on 2025-12-01
    data = services.certificate_json(cert)
    assert set(data) == {
        "code",
        "rga",
        "captures_in_period",
        "period_from",
        "period_to",
        "issued_on",
    }


def test_certificate_not_offered_where_the_law_has_no_gru_84(app):
    assert not services.certificates_offered(BJP)
    assert services.certificates_offered(GRU)


def test_lost_animal_alert_e_mailed_when_a_capture_matches(app):
    owner = factories.user()
    services.create_alert(
        owner,
        services.AlertData(
            species="dog", lost_on=date(2026, 3, 1), color="caramelo", district="centro"
        ),
        date(2026, 3, 1),
    )
    _capture(GRU, date(2026, 3, 2))
    assert db.session.query(OutboxMessage).filter(OutboxMessage.to == owner.email).count() == 1


def test_cab_14_no_reclaim_during_the_rabies_observation(app):
    from portal.models import UnitValue

    db.session.add(UnitValue(unit="UFM", value_cents=10000, effective_from=date(2026, 1, 1)))
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(
        CAB, date(2026, 3, 2), tag_read=pet.rga, custody_type="observation", reason="observation"
    )
    assert capture.reason_article == "CAB 14, 30"
    with pytest.raises(DomainError) as err:
        services.start_reclaim(
            CAB,
            capture,
            claimant=owner,
            channel="online",
            started_by=owner,
            today=date(2026, 3, 12),
        )
    assert err.value.code == "under_observation"
    reclaim = services.start_reclaim(
        CAB, capture, claimant=owner, channel="online", started_by=owner, today=date(2026, 3, 13)
    )
    assert reclaim.payment_item is not None


def test_rules_page_says_whether_the_capture_day_counts(app):
    from portal.profiles.summary import rule_sections

    texts = {item.text for s in rule_sections(BJP) for item in s.items}
    assert "O dia da captura conta como o primeiro dia do prazo." in texts
    gru = {item.text for s in rule_sections(GRU) for item in s.items}
    assert "O dia da captura não conta: o prazo começa no dia seguinte." in gru
    assert any("Lei federal 14.228/2021" == i.article for s in rule_sections(GRU) for i in s.items)


def test_gru_82_4_owner_reminded_on_the_last_day_to_reclaim(app):
    from portal.reminders import run_reminders

    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(GRU, date(2026, 4, 2), tag_read=pet.rga)
    before = db.session.query(OutboxMessage).filter(OutboxMessage.to == owner.email).count()
    run_reminders(capture.deadline_on, only=["recolhimento-ultimo-dia"])
    after = db.session.query(OutboxMessage).filter(OutboxMessage.to == owner.email).count()
    assert after == before + 1


def test_vv_22_6_repeat_capture_released_only_sterilised(app):
    from portal.models import UnitValue

    db.session.add(UnitValue(unit="MW", value_cents=151800, effective_from=date(2026, 1, 1)))
    owner = factories.user()
    pet = factories.animal(owner, sterilized=False)
    _capture(VV, date(2026, 1, 5), tag_read=pet.rga)
    again = _capture(VV, date(2026, 3, 2), tag_read=pet.rga)
    staff = factories.user(roles=("agent",))
    reclaim = services.start_reclaim(
        VV,
        again,
        claimant=owner,
        channel="counter",
        started_by=staff,
        today=date(2026, 3, 3),
        away_from_home=True,
    )
    assert any(line["article"] == "VV 22 §6" for line in reclaim.payment_item.breakdown)
    _pay(reclaim, staff)
    services.record_rabies(
        VV,
        reclaim,
        "vaccinated",
        staff=staff,
        today=date(2026, 3, 3),
        vaccination=_shot(date(2026, 3, 3)),
    )
    with pytest.raises(DomainError) as err:
        services.release(VV, again, signed_by_name="Dono", staff=staff, today=date(2026, 3, 3))
    assert err.value.code == "sterilisation_required"
    pet.sterilized = True
    services.release(VV, again, signed_by_name="Dono", staff=staff, today=date(2026, 3, 3))


def test_gru_84_release_term_states_the_count_the_third_capture_and_that_it_follows_the_animal(app):
    owner = factories.user()
    pet = factories.animal(owner)
    _capture(GRU, date(2025, 6, 2), tag_read=pet.rga)
    second = _capture(GRU, date(2026, 2, 2), tag_read=pet.rga)
    term = services.release_term(GRU, second)
    assert "capturado 2 vez(es)" in term  # GRU 84 §1 I
    assert "5 anos contado da primeira captura (GRU 113)" in term  # GRU 84 §1 II
    assert "a 3ª captura nesse prazo determina a apreensão definitiva (GRU 87 III)" in term
    assert "ainda que eu aliene o animal, esse ônus o acompanha (GRU 84 §2)" in term


def test_gru_84_term_is_guarulhos_law_a_city_without_a_capture_count_signs_only_the_receipt(app):
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(BJP, date(2026, 2, 2), tag_read=pet.rga)
    assert BJP.impound.capture_count is None
    term = services.release_term(BJP, capture)
    assert term == f"Declaro ter recebido o animal do protocolo {capture.protocol}."

"""The sterilisation programme's rules (VV 7-10; GRU 8; BJP 32): places on a surgery day up to its
capacity, the waitlist served oldest first, cancellation, the outcome on the RGA, the profiles
with and without a programme."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.sterilisation import services
from portal.extensions import db
from portal.models import BookingStatus, OutboxMessage, SterilisationSite, SterilisationSlot
from tests import factories

TODAY = date(2026, 12, 3)  # a Thursday


@pytest.fixture
def profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


@pytest.fixture
def staff():  # type: ignore[no-untyped-def]
    return factories.user(roles=("coordinator",))


def _site(profile, staff, name: str = "CCZ Centro", kind: str = "ccz") -> SterilisationSite:  # type: ignore[no-untyped-def]
    return services.save_site(
        None,
        services.SiteData(name=name, partner_kind=kind, address="Rua A, 1", district="Centro"),
        staff,
        profile=profile,
    )


def _slot(site, staff, days: int = 7, capacity: int = 2) -> SterilisationSlot:  # type: ignore[no-untyped-def]
    return services.add_slot(site, TODAY + timedelta(days=days), capacity, staff, today=TODAY)


def _book(person, profile, slot=None, animal=None, **fields):  # type: ignore[no-untyped-def]
    if animal is None and "animal_name" not in fields:
        animal = factories.animal(person)
    request = services.BookingRequest(animal=animal, slot=slot, **fields)
    return services.request_booking(person, request, profile=profile, today=TODAY)


def _error(call, *args, **kwargs) -> services.SterilisationError:  # type: ignore[no-untyped-def]
    with pytest.raises(services.SterilisationError) as err:
        call(*args, **kwargs)
    return err.value


def _mails_to(address: str) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == address)))


# -- places and capacity ------------------------------------------------------------------------


def test_booking_takes_a_place_and_mails_the_day_and_address(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff)
    person = factories.user()
    booking = _book(person, profile, slot)
    assert booking.status == BookingStatus.BOOKED and booking.slot is slot
    assert slot.taken == 1 and slot.free == 1
    (mail,) = _mails_to(person.email)
    assert (TODAY + timedelta(days=7)).strftime("%d/%m/%Y") in mail.body
    assert "Rua A, 1" in mail.body


@pytest.mark.parametrize("capacity", [1, 2, 4])
def test_a_day_takes_exactly_its_capacity(profile, staff, capacity: int) -> None:
    slot = _slot(_site(profile, staff), staff, capacity=capacity)
    for _n in range(capacity):
        _book(factories.user(), profile, slot)
    err = _error(_book, factories.user(), profile, slot)
    assert err.code == "slot_full" and err.field == "slot"
    assert "fila de espera" in err.message
    assert slot.taken == capacity


def test_a_cancelled_place_counts_no_more(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, capacity=1)
    person = factories.user()
    first = _book(person, profile, slot)
    services.cancel_booking(first, person, today=TODAY)
    assert _book(factories.user(), profile, slot).status == BookingStatus.BOOKED


def test_days_open_from_tomorrow_and_today_is_not_bookable(profile, staff) -> None:
    site = _site(profile, staff)
    assert _error(_slot, site, staff, days=0).code == "day_past"
    assert _error(_slot, site, staff, days=-1).code == "day_past"
    tomorrow = _slot(site, staff, days=1)
    assert services.open_slots(TODAY) == [tomorrow]
    assert services.open_slots(TODAY + timedelta(days=1)) == []  # on the day it is closed
    assert _error(_slot, site, staff, days=1).code == "slot_exists"


def test_a_full_day_and_an_inactive_site_are_not_offered(profile, staff) -> None:
    site, other = _site(profile, staff), _site(profile, staff, "Unidade móvel", "ngo")
    full = _slot(site, staff, capacity=1)
    _book(factories.user(), profile, full)
    later = _slot(other, staff, days=8)
    assert services.open_slots(TODAY) == [later]
    services.set_site_active(other, False, today=TODAY)
    assert services.open_slots(TODAY) == []


@pytest.mark.parametrize("capacity", [0, services.MAX_CAPACITY + 1])
def test_capacity_bounds(profile, staff, capacity: int) -> None:
    assert _error(_slot, _site(profile, staff), staff, capacity=capacity).code == "capacity"


def test_capacity_never_below_the_places_taken(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, capacity=3)
    _book(factories.user(), profile, slot)
    _book(factories.user(), profile, slot)
    assert _error(services.change_capacity, slot, 1, today=TODAY).code == "capacity"
    services.change_capacity(slot, 2, today=TODAY)  # exactly the places taken
    assert slot.capacity == 2 and slot.free == 0


def test_a_site_with_bookings_ahead_cannot_close(profile, staff) -> None:
    site = _site(profile, staff)
    booking = _book(factories.user(), profile, _slot(site, staff))
    assert _error(services.set_site_active, site, False, today=TODAY).code == "has_bookings"
    services.cancel_booking(booking, staff, today=TODAY)
    services.set_site_active(site, False, today=TODAY)
    assert site.active is False


# -- the waitlist -------------------------------------------------------------------------------


def test_waitlist_is_served_oldest_first_for_the_site_or_any_site(profile, staff) -> None:
    site, other = _site(profile, staff), _site(profile, staff, "Unidade móvel", "ngo")
    people = [factories.user() for _n in range(4)]
    only_other = _book(people[0], profile, preferred_site=other)
    oldest_any = _book(people[1], profile)
    for_site = _book(people[2], profile, preferred_site=site)
    newest_any = _book(people[3], profile)
    assert {b.status for b in (only_other, oldest_any, for_site, newest_any)} == {
        BookingStatus.WAITLISTED
    }
    slot = _slot(site, staff, capacity=2)
    assert oldest_any.slot is slot and for_site.slot is slot
    assert only_other.status == newest_any.status == BookingStatus.WAITLISTED
    assert any("Abriu uma vaga" in m.body for m in _mails_to(people[1].email))
    # one more place: the next in line for this site (the one waiting for any site)
    services.change_capacity(slot, 3, today=TODAY)
    assert newest_any.slot is slot and only_other.status == BookingStatus.WAITLISTED


def test_a_cancelled_place_goes_to_the_next_in_line(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, capacity=1)
    first_person, waiting_person = factories.user(), factories.user()
    first = _book(first_person, profile, slot)
    waiting = _book(waiting_person, profile)
    services.cancel_booking(first, first_person, today=TODAY, reason="Viagem")
    assert first.status == BookingStatus.CANCELLED and first.note == "Viagem"
    assert waiting.status == BookingStatus.BOOKED and waiting.slot is slot


def test_a_place_freed_on_the_day_is_not_given_to_the_waitlist(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=1, capacity=1)
    person = factories.user()
    booking = _book(person, profile, slot)
    waiting = _book(factories.user(), profile)
    on_the_day = TODAY + timedelta(days=1)
    services.cancel_booking(booking, person, today=on_the_day)  # the day itself: still allowed
    assert waiting.status == BookingStatus.WAITLISTED  # nobody could be told in time


def test_cancel_after_the_day_or_twice_is_refused(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=1)
    person = factories.user()
    booking = _book(person, profile, slot)
    after = TODAY + timedelta(days=2)
    assert _error(services.cancel_booking, booking, person, today=after).code == "day_passed"
    services.cancel_booking(booking, person, today=TODAY)
    assert _error(services.cancel_booking, booking, person, today=TODAY).code == "closed"


# -- which animal -------------------------------------------------------------------------------


def test_only_the_persons_own_unsterilised_animal_once(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, capacity=4)
    person, neighbour = factories.user(), factories.user()
    theirs = factories.animal(neighbour)
    assert _error(_book, person, profile, slot, animal=theirs).code == "not_yours"
    closed = factories.animal(person, status="closed")
    assert _error(_book, person, profile, slot, animal=closed).code == "not_yours"
    done = factories.animal(person, sterilized=True)
    assert _error(_book, person, profile, slot, animal=done).code == "already_sterilised"
    pet = factories.animal(person)
    _book(person, profile, animal=pet)  # in the waitlist
    assert _error(_book, person, profile, slot, animal=pet).code == "already_booked"
    assert services.bookable_animals(person) == []


def test_an_animal_without_rga_is_described(profile, staff) -> None:
    person = factories.user()
    err = _error(_book, person, profile, animal_name="Mingau", species="bird", sex="male")
    assert err.code == "species" and err.field == "species"
    err = _error(_book, person, profile, animal_name="  ", species="cat", sex="male")
    assert err.code == "name_required"
    booking = _book(person, profile, animal_name=" Mingau ", species="cat", sex="female")
    assert (booking.animal, booking.animal_name, booking.species) == (None, "Mingau", "cat")


def test_vv_10_4_community_animal_with_a_named_carer_says_where_it_lives(make_app) -> None:
    with factories.profile_app(make_app, "vilavelha") as profile:
        carer = factories.user()
        fields = dict(animal_name="Pretinha", species="dog", sex="female", community=True)
        err = _error(_book, carer, profile, **fields)
        assert (err.field, err.code) == ("community_place", "place_required")
        booking = _book(carer, profile, community_place="Praça do Ó", **fields)
        assert booking.community and booking.community_place == "Praça do Ó"
        assert booking.requester is carer  # the carer answers for it in the programme


# -- the outcome --------------------------------------------------------------------------------


def test_vv_10_4_sterilised_needs_the_vet_and_crmv_and_marks_the_rga(make_app) -> None:
    with factories.profile_app(make_app, "vilavelha") as profile:
        staff = factories.user(roles=("vet",))
        slot = _slot(_site(profile, staff), staff, days=1)
        person = factories.user()
        booking = _book(person, profile, slot)
        day = TODAY + timedelta(days=1)

        def outcome(**fields):  # type: ignore[no-untyped-def]
            return services.record_outcome(
                booking, "done", staff, profile=profile, today=day, **fields
            )

        err = _error(outcome, vet_crmv="CRMV-ES 1234")
        assert err.field == "vet_name" and "VV 10 §4" in err.message
        assert _error(outcome, vet_name="Dra. Ana", vet_crmv="CRMV ES").field == "vet_crmv"
        assert booking.animal.sterilized is False
        outcome(vet_name="Dra. Ana", vet_crmv="crmv es 1234")
        assert booking.status == BookingStatus.DONE and booking.outcome_on == day
        assert booking.vet_crmv == "CRMV-ES 1234"
        assert booking.animal.sterilized is True
        assert any("consta como castrado" in m.body for m in _mails_to(person.email))


def test_vv_9_not_fit_after_the_clinical_exam_needs_the_finding_and_may_book_again(
    make_app,
) -> None:
    with factories.profile_app(make_app, "vilavelha") as profile:
        staff = factories.user(roles=("vet",))
        slot = _slot(_site(profile, staff), staff, days=1)
        person = factories.user()
        booking = _book(person, profile, slot)
        day = TODAY + timedelta(days=1)
        err = _error(services.record_outcome, booking, "unfit", staff, profile=profile, today=day)
        assert err.field == "note" and "VV 9" in err.message
        services.record_outcome(booking, "unfit", staff, profile=profile, today=day, note="Anemia")
        assert booking.status == BookingStatus.UNFIT and booking.animal.sterilized is False
        again = _book(person, profile, animal=booking.animal)
        assert again.status == BookingStatus.WAITLISTED


def test_the_outcome_is_recorded_on_the_day_or_after_and_once(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=2)
    booking = _book(factories.user(), profile, slot)
    day_before = TODAY + timedelta(days=1)
    err = _error(
        services.record_outcome, booking, "no_show", staff, profile=profile, today=day_before
    )
    assert err.code == "not_yet"
    assert (
        _error(
            services.record_outcome, booking, "cancelled", staff, profile=profile, today=slot.day
        ).code
        == "outcome"
    )
    services.record_outcome(booking, "no_show", staff, profile=profile, today=slot.day)
    assert booking.status == BookingStatus.NO_SHOW
    err = _error(services.record_outcome, booking, "done", staff, profile=profile, today=slot.day)
    assert err.code == "not_booked"


def test_year_count_is_a_calendar_year(profile, staff) -> None:
    """VV 10 §1 sets a share "a cada ano": 1 January and 31 December count, the day before not."""
    site = _site(profile, staff)
    for day in (date(2026, 12, 31), date(2027, 1, 1), date(2027, 12, 31), date(2028, 1, 1)):
        slot = services.add_slot(site, day, 1, staff, today=day - timedelta(days=1))
        booking = _book(factories.user(), profile, None)
        services.fill_from_waitlist(slot, today=day - timedelta(days=1))
        assert booking.slot is slot
        services.record_outcome(
            booking, "done", staff, profile=profile, today=day, vet_name="Dr. B", vet_crmv="1234"
        )
    assert [services.year_count(y) for y in (2026, 2027, 2028)] == [1, 2, 1]


# -- the law of each city ---------------------------------------------------------------------


def test_partners_are_the_kinds_the_law_names(make_app) -> None:
    with factories.profile_app(make_app, "bjp") as profile:  # BJP 32: no professional bodies
        staff = factories.user(roles=("coordinator",))
        err = _error(_site, profile, staff, "Conselho", "professional_body")
        assert err.field == "partner_kind" and "BJP 32" in err.message
        assert _site(profile, staff, "Faculdade", "university").partner_kind == "university"


@pytest.mark.parametrize(
    ("key", "article", "free"),
    [("vilavelha", "VV 9", True), ("guarulhos", "GRU 8", False), ("bjp", "BJP 32", False)],
)
def test_the_programme_of_each_law(make_app, key: str, article: str, free: bool) -> None:
    app = make_app(PORTAL_PROFILE=key)
    rule = app.extensions["portal_profile"].sterilisation
    assert (rule.article, rule.free) == (article, free)
    page = app.test_client().get("/castracao").get_data(as_text=True)
    assert article in page
    assert ("A castração é gratuita" in page) is free


@pytest.mark.parametrize("key", ["cabo", "cabeceira"])
def test_no_programme_where_the_law_has_none(make_app, key: str) -> None:
    app = make_app(PORTAL_PROFILE=key)
    client = app.test_client()
    assert client.get("/castracao").status_code == 404
    assert client.get("/ccz/castracao").status_code == 404
    assert "/castracao" not in client.get("/").get_data(as_text=True)


def test_vv_12_3_an_animal_sterilised_without_rga_is_sent_to_register(make_app) -> None:
    """VV 12 §3: the RGA is made "por ocasião da esterilização": the outcome e-mail of an animal
    booked without RGA leads the person to the registration."""
    with factories.profile_app(make_app, "vilavelha") as profile:
        staff = factories.user(roles=("vet",))
        slot = _slot(_site(profile, staff), staff, days=1)
        person = factories.user()
        booking = _book(person, profile, slot, animal_name="Mingau", species="cat", sex="male")
        services.record_outcome(
            booking,
            "done",
            staff,
            profile=profile,
            today=slot.day,
            vet_name="Dr. B",
            vet_crmv="CRMV-ES 9",
        )
        last = _mails_to(person.email)[-1]
        assert "/animais/cadastrar" in last.body and "Mingau" in last.body


def test_the_day_before_the_person_is_reminded_with_the_sites_instructions(profile, staff) -> None:
    from portal.reminders import run_reminders

    site = services.save_site(
        None,
        services.SiteData(
            name="CCZ",
            partner_kind="ccz",
            address="Rua A, 1",
            district="Centro",
            instructions="Jejum de 8 horas.",
        ),
        staff,
        profile=profile,
    )
    slot = _slot(site, staff, days=3)
    person = factories.user()
    booking = _book(person, profile, slot)
    cancelled_person = factories.user()
    cancelled = _book(cancelled_person, profile, slot)
    services.cancel_booking(cancelled, cancelled_person, today=TODAY)
    before = len(_mails_to(person.email))
    run_reminders(TODAY + timedelta(days=1))  # two days before: nothing yet
    assert len(_mails_to(person.email)) == before
    eve = slot.day - timedelta(days=1)
    run_reminders(eve)
    run_reminders(eve)  # run twice the same day: sent once
    mails = _mails_to(person.email)[before:]
    assert len(mails) == 1 and "Jejum de 8 horas." in mails[0].body
    assert booking.animal_name in mails[0].subject
    assert all("Amanhã" not in m.subject for m in _mails_to(cancelled_person.email))


def test_days_are_offered_soonest_first_then_by_site_name(profile, staff) -> None:
    zebra, alpha = _site(profile, staff, "Zebra", "ngo"), _site(profile, staff, "Alfa", "ccz")
    late_alpha = _slot(alpha, staff, days=9)
    soon_zebra = _slot(zebra, staff, days=5)
    late_zebra = _slot(zebra, staff, days=9)
    assert services.open_slots(TODAY) == [soon_zebra, late_alpha, late_zebra]


def test_sites_are_listed_by_district_then_name(profile, staff) -> None:
    def site(name: str, district: str) -> SterilisationSite:
        return services.save_site(
            None,
            services.SiteData(name=name, partner_kind="ccz", address="Rua", district=district),
            staff,
            profile=profile,
        )

    b_centro, a_vila, a_centro = site("B", "Centro"), site("A", "Vila"), site("A", "Centro")
    assert services.active_sites() == [a_centro, b_centro, a_vila]
    services.set_site_active(a_centro, False, today=TODAY)
    assert services.active_sites() == [b_centro, a_vila]


def test_bookable_animals_by_name(profile, staff) -> None:
    person = factories.user()
    rex, bia = factories.animal(person, name="Rex"), factories.animal(person, name="Bia")
    assert services.bookable_animals(person) == [bia, rex]


def test_labels_in_portuguese() -> None:
    assert services.partner_label("university") == "Universidade"
    assert services.partner_label("unknown") == "unknown"
    assert services.status_label("unfit") == "Não apto à cirurgia no exame clínico"
    assert services.status_label("other") == "other"


def test_cancel_records_who_cancelled_and_keeps_the_reason(profile, staff) -> None:
    from portal.models import AuditEvent

    slot = _slot(_site(profile, staff), staff)
    person = factories.user()
    mine, theirs = _book(person, profile, slot), _book(factories.user(), profile, slot)
    services.cancel_booking(mine, person, today=TODAY, reason="Viagem")
    services.cancel_booking(theirs, staff, today=TODAY)
    events = db.session.scalars(
        select(AuditEvent)
        .where(AuditEvent.action == "sterilisation.cancelled")
        .order_by(AuditEvent.id)
    ).all()
    assert [e.detail for e in events] == [{"by_requester": True}, {"by_requester": False}]
    assert (mine.note, theirs.note) == ("Viagem", None)
    assert mine.closed_at is not None and theirs.status == BookingStatus.CANCELLED

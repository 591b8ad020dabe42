"""The sterilisation programme at its edges (issue 16): which field and code each refusal names
(the page puts the message next to that field; the API and the tests read the code), the first
and last day that count, the audit trail of every step, and what each step stores."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.sterilisation import services
from portal.extensions import db
from portal.models import AuditEvent, BookingStatus, SterilisationSite, SterilisationSlot
from tests import factories

TODAY = date(2026, 12, 3)


@pytest.fixture
def profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


@pytest.fixture
def staff():  # type: ignore[no-untyped-def]
    return factories.user(roles=("coordinator",))


def _site(profile, staff, name: str = "CCZ", **fields) -> SterilisationSite:  # type: ignore[no-untyped-def]
    data = dict(name=name, partner_kind="ccz", address="Rua A, 1", district="Centro")
    data.update(fields)
    return services.save_site(None, services.SiteData(**data), staff, profile=profile)


def _slot(site, staff, days: int = 7, capacity: int = 2) -> SterilisationSlot:  # type: ignore[no-untyped-def]
    return services.add_slot(site, TODAY + timedelta(days=days), capacity, staff, today=TODAY)


def _book(person, profile, slot=None, animal=None, today=TODAY, **fields):  # type: ignore[no-untyped-def]
    if animal is None and "animal_name" not in fields:
        animal = factories.animal(person)
    request = services.BookingRequest(animal=animal, slot=slot, **fields)
    return services.request_booking(person, request, profile=profile, today=today)


def _refused(call, *args, **kwargs) -> tuple[str | None, str, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(services.SterilisationError) as err:
        call(*args, **kwargs)
    return err.value.field, err.value.code, err.value.message


def _trail(action: str) -> list[tuple[str | None, str | None, dict | None, int | None]]:
    events = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == action).order_by(AuditEvent.id)
    )
    return [(e.subject_type, e.subject_id, e.detail, e.actor_id) for e in events]


# -- refusals: field and code ---------------------------------------------------------------------


def test_no_programme_is_refused_without_a_field(make_app) -> None:
    with factories.profile_app(make_app, "cabo") as cabo:
        assert _refused(services.rule_of, cabo)[:2] == (None, "not_in_profile")


def test_animal_refusals_name_the_animal_field(profile, staff) -> None:
    person = factories.user()
    slot = _slot(_site(profile, staff), staff, capacity=4)
    other = factories.animal(factories.user())
    assert _refused(_book, person, profile, slot, animal=other)[:2] == ("animal", "not_yours")
    done = factories.animal(person, sterilized=True)
    assert _refused(_book, person, profile, slot, animal=done)[:2] == (
        "animal",
        "already_sterilised",
    )
    pet = factories.animal(person)
    _book(person, profile, slot, animal=pet)
    assert _refused(_book, person, profile, animal=pet)[:2] == ("animal", "already_booked")
    fields = dict(animal_name=" ", species="dog", sex="male")
    assert _refused(_book, person, profile, **fields)[:2] == ("animal_name", "name_required")


def test_a_law_without_community_animals_refuses_them(profile) -> None:
    rule = profile.sterilisation.model_copy(update={"community_animals": False})
    owners_only = profile.model_copy(update={"sterilisation": rule})
    fields = dict(animal_name="Pretinha", species="dog", sex="female", community=True)
    field, code, message = _refused(
        _book, factories.user(), owners_only, community_place="Praça", **fields
    )
    assert (field, code) == ("community", "community_not_in_law")
    assert message == "O programa deste município atende animais com tutor."


def test_a_day_is_bookable_until_the_day_before(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=2)
    day_before = slot.day - timedelta(days=1)
    assert _book(factories.user(), profile, slot, today=day_before).slot is slot
    refused = _refused(_book, factories.user(), profile, slot, today=slot.day)
    assert refused[:2] == ("slot", "slot_closed")


def test_a_day_at_a_closed_site_is_not_bookable(profile, staff) -> None:
    site = _site(profile, staff)
    slot = _slot(site, staff, days=5)
    services.set_site_active(site, False, today=TODAY)
    assert _refused(_book, factories.user(), profile, slot)[:2] == ("slot", "slot_closed")


def test_site_and_day_refusals_name_their_fields(profile, staff) -> None:
    site = _site(profile, staff)
    other = _site(profile, staff, "Unidade móvel")
    slot = _slot(site, staff, days=5)
    assert _slot(other, staff, days=5).day == slot.day  # the same day at another site is fine
    assert _refused(_slot, site, staff, days=5)[:2] == ("day", "slot_exists")
    assert _refused(_slot, site, staff, days=0)[:2] == ("day", "day_past")
    services.set_site_active(other, False, today=TODAY)
    assert _refused(_slot, other, staff, days=6)[:2] == ("site", "site_inactive")


def test_capacity_bounds_and_message(profile, staff) -> None:
    site = _site(profile, staff)
    field, code, message = _refused(_slot, site, staff, capacity=0)
    assert (field, code) == ("capacity", "capacity")
    assert message == "Informe de 1 a 200 vagas (0 já ocupadas)."
    assert _slot(site, staff, capacity=services.MAX_CAPACITY).capacity == 200
    slot = _slot(site, staff, days=8, capacity=3)
    _book(factories.user(), profile, slot)
    _book(factories.user(), profile, slot)
    field, code, message = _refused(services.change_capacity, slot, 1, today=TODAY)
    assert message == "Informe de 2 a 200 vagas (2 já ocupadas)."


def test_capacity_changes_on_the_day_but_not_after_it(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=1)
    services.change_capacity(slot, 5, today=slot.day)
    assert slot.capacity == 5
    after = slot.day + timedelta(days=1)
    refused = _refused(services.change_capacity, slot, 6, today=after)
    assert refused[:2] == ("capacity", "day_passed")


def test_outcome_refusals_name_their_fields(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=1)
    booking = _book(factories.user(), profile, slot)

    def outcome(kind: str, **fields):  # type: ignore[no-untyped-def]
        return services.record_outcome(
            booking, kind, staff, profile=profile, today=slot.day, **fields
        )

    assert _refused(outcome, "cancelled")[:2] == ("outcome", "outcome")
    field, code, message = _refused(outcome, "done", vet_crmv="CRMV-SP 1")
    assert (field, code) == ("vet_name", "vet_required")
    assert message == "Informe o médico veterinário que operou."  # GRU names no surgeon
    assert _refused(outcome, "done", vet_name="Dr. A")[:2] == ("vet_crmv", "crmv")
    field, code, message = _refused(outcome, "unfit", note="  ")
    assert (field, code) == ("note", "finding_required")
    assert message == "Descreva o que o exame clínico encontrou."  # GRU: the CCZ's practice


def test_vv_9_the_finding_cites_the_clinical_exam_article(make_app) -> None:
    with factories.profile_app(make_app, "vilavelha") as vv:
        staff = factories.user(roles=("vet",))
        slot = _slot(_site(vv, staff), staff, days=1)
        booking = _book(factories.user(), vv, slot)
        message = _refused(
            services.record_outcome, booking, "unfit", staff, profile=vv, today=slot.day
        )[2]
        assert message == "Descreva o que o exame clínico encontrou (VV 9)."


def test_vv_9_par_u_partner_refusal_cites_the_partners_paragraph(make_app) -> None:
    with factories.profile_app(make_app, "vilavelha") as vv:
        staff = factories.user(roles=("coordinator",))
        field, code, message = _refused(
            _site, vv, staff, "Clínica", partner_kind="vet_establishment"
        )
        assert (field, code) == ("partner_kind", "partner_kind")
        assert message.endswith("(VV 9 §ú).")


# -- what each step stores and audits ---------------------------------------------------------


def test_site_data_is_cleaned_and_audited(profile, staff) -> None:
    bare = _site(profile, staff, " CCZ Sede ", phone="  ", instructions="")
    assert (bare.name, bare.phone, bare.instructions) == ("CCZ Sede", None, None)
    full = _site(profile, staff, "Móvel", phone=" 27 3333-0000 ", instructions=" Jejum. ")
    assert (full.phone, full.instructions) == ("27 3333-0000", "Jejum.")
    assert _trail("sterilisation.site_saved") == [
        ("SterilisationSite", str(bare.id), {"name": "CCZ Sede"}, None),
        ("SterilisationSite", str(full.id), {"name": "Móvel"}, None),
    ]
    services.set_site_active(full, False, today=TODAY)
    assert _trail("sterilisation.site_active") == [
        ("SterilisationSite", str(full.id), {"active": False}, None)
    ]


def test_a_booking_today_blocks_closing_the_site_one_of_a_past_day_does_not(profile, staff) -> None:
    site = _site(profile, staff)
    slot = _slot(site, staff, days=1)
    _book(factories.user(), profile, slot)
    refused = _refused(services.set_site_active, site, False, today=slot.day)
    assert refused[:2] == (None, "has_bookings")
    services.set_site_active(site, False, today=slot.day + timedelta(days=1))  # outcome pending
    assert site.active is False


def test_opening_a_day_is_audited_with_who_and_what(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=4, capacity=3)
    assert slot.created_by_id == staff.id
    assert _trail("sterilisation.slot_opened") == [
        ("SterilisationSlot", str(slot.id), {"day": "2026-12-07", "capacity": 3}, None)
    ]
    services.change_capacity(slot, 5, today=TODAY)
    assert _trail("sterilisation.slot_capacity") == [
        ("SterilisationSlot", str(slot.id), {"from": 3, "to": 5}, None)
    ]


def test_a_booking_keeps_its_animal_and_is_audited(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff)
    person = factories.user()
    cat = factories.animal(person, species="cat", sex="female", name="Luna")
    request = dict(animal_name="X", species="dog", sex="male", community=True)
    booked = _book(person, profile, slot, animal=cat, community_place="Praça", **request)
    assert (booked.animal_name, booked.species, booked.sex) == ("Luna", "cat", "female")
    assert (booked.community, booked.community_place) == (False, None)
    assert booked.booked_at is not None
    waiting = _book(person, profile, animal_name="Fumaça", species="cat", sex="male")
    assert (waiting.community, waiting.community_place, waiting.booked_at) == (False, None, None)
    assert _trail("sterilisation.requested") == [
        ("SterilisationBooking", str(booked.id), {"status": "booked", "slot": slot.id}, person.id),
        (
            "SterilisationBooking",
            str(waiting.id),
            {"status": "waitlisted", "slot": None},
            person.id,
        ),
    ]


def test_the_waitlist_goes_by_the_time_of_the_request_and_is_audited(profile, staff) -> None:
    later, earlier = _book(factories.user(), profile), _book(factories.user(), profile)
    earlier.created_at = datetime(2026, 12, 1, 9, tzinfo=UTC)  # asked first, stored second
    later.created_at = datetime(2026, 12, 2, 9, tzinfo=UTC)
    db.session.flush()
    slot = _slot(_site(profile, staff), staff, capacity=1)
    assert earlier.slot is slot and later.status == BookingStatus.WAITLISTED
    assert earlier.booked_at is not None
    assert _trail("sterilisation.from_waitlist") == [
        ("SterilisationBooking", str(earlier.id), {"slot": slot.id}, None)
    ]


def test_the_outcome_stores_who_when_and_what_and_is_audited(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=1, capacity=3)
    done = _book(factories.user(), profile, slot)
    services.record_outcome(
        done,
        "done",
        staff,
        profile=profile,
        today=slot.day,
        vet_name=" Dra. Ana ",
        vet_crmv="sp 12",
        note=" ",
    )
    assert (done.vet_name, done.vet_crmv, done.note) == ("Dra. Ana", "CRMV-SP 12", None)
    assert (done.outcome_by, done.outcome_on) == (staff, slot.day)
    assert done.closed_at is not None
    absent = _book(factories.user(), profile, slot)
    services.record_outcome(
        absent, "no_show", staff, profile=profile, today=slot.day, note=" Ligou e não veio "
    )
    assert absent.note == "Ligou e não veio" and absent.vet_name is None
    assert _trail("sterilisation.outcome") == [
        ("SterilisationBooking", str(done.id), {"outcome": "done"}, None),
        ("SterilisationBooking", str(absent.id), {"outcome": "no_show"}, None),
    ]
    assert _trail("animal.sterilised") == [
        ("Animal", str(done.animal_id), {"booking": done.id}, None)
    ]


def test_a_cancellation_closes_the_booking(profile, staff) -> None:
    person = factories.user()
    booking = _book(person, profile)
    services.cancel_booking(booking, person, today=TODAY)
    assert booking.closed_at is not None
    assert _trail("sterilisation.cancelled") == [
        ("SterilisationBooking", str(booking.id), {"by_requester": True}, None)
    ]


# -- what is offered and counted -------------------------------------------------------------------


def test_each_day_counts_only_its_own_places_not_cancelled(profile, staff) -> None:
    site = _site(profile, staff)
    full, other = _slot(site, staff, days=5, capacity=1), _slot(site, staff, days=6, capacity=1)
    person = factories.user()
    booking = _book(person, profile, full)
    assert services.open_slots(TODAY) == [other]
    services.cancel_booking(booking, person, today=TODAY)
    assert services.open_slots(TODAY) == [full, other]


def test_an_animal_is_bookable_again_after_a_closed_booking(profile, staff) -> None:
    person = factories.user()
    pet = factories.animal(person, name="Rex")
    _book(person, profile, animal_name="Mingau", species="cat", sex="male")  # no RGA
    assert services.bookable_animals(person) == [pet]
    booking = _book(person, profile, animal=pet)
    assert services.bookable_animals(person) == []
    services.cancel_booking(booking, person, today=TODAY)
    assert services.bookable_animals(person) == [pet]


def test_year_count_counts_only_castrations_done(profile, staff) -> None:
    slot = _slot(_site(profile, staff), staff, days=1, capacity=3)
    done, absent = _book(factories.user(), profile, slot), _book(factories.user(), profile, slot)
    _book(factories.user(), profile, slot)  # still booked
    services.record_outcome(
        done, "done", staff, profile=profile, today=slot.day, vet_name="Dr. B", vet_crmv="1"
    )
    services.record_outcome(absent, "no_show", staff, profile=profile, today=slot.day)
    assert services.year_count(slot.day.year) == 1
    assert services.year_count(slot.day.year + 3) == 0

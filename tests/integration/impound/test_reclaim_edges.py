"""Reclaim and release refused where the law or the procedure says no (issue 16): a second
reclaim of the same animal, a release before payment or out of custody, an RGA for an animal
that cannot have one or already has one, a rabies answer without proof (GRU 82, 84, 85)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from portal.blueprints.impound import services
from portal.domain import DomainError
from portal.extensions import db
from portal.models import CaptureStatus, ReclaimStatus, UnitValue
from portal.profiles import load_profile
from tests import factories
from tests.integration.impound.test_impound_rules import _capture as _capture_on
from tests.integration.impound.test_impound_rules import _pay, _shot

GRU, VV = load_profile("guarulhos"), load_profile("vilavelha")
DAY = date(2026, 3, 2)  # Monday


def _capture(profile, day=DAY, **fields):  # type: ignore[no-untyped-def]
    return _capture_on(profile, day, **fields)


@pytest.fixture
def vv_minimum_wage(app):  # type: ignore[no-untyped-def]
    """VV 22 §5-6 are priced in minimum wages: R$ 1.518,00 from 1 Jan 2026."""
    db.session.add(UnitValue(unit="MW", value_cents=151800, effective_from=date(2026, 1, 1)))
    db.session.flush()


def _start(profile, capture, owner, staff, **extra):  # type: ignore[no-untyped-def]
    return services.start_reclaim(
        profile,
        capture,
        claimant=owner,
        channel="counter",
        started_by=staff,
        today=date(2026, 3, 3),
        **extra,
    )


def _refused(call, *args, **kwargs) -> DomainError:  # type: ignore[no-untyped-def]
    with pytest.raises(DomainError) as err:
        call(*args, **kwargs)
    return err.value


def _paid(profile, capture, owner, staff):  # type: ignore[no-untyped-def]
    reclaim = _start(profile, capture, owner, staff)
    if reclaim.status != ReclaimStatus.PAID:  # a free reclaim (VV 22 §5) is settled already
        _pay(reclaim, staff)
    return reclaim


def _register(reclaim, staff, *, name="Caramelo", birth_date=date(2024, 1, 1)):  # type: ignore[no-untyped-def]
    return services.register_on_reclaim(
        GRU, reclaim, name=name, birth_date=birth_date, staff=staff, today=DAY
    )


def _release(profile, capture, staff, name="Rui Dono"):  # type: ignore[no-untyped-def]
    return services.release(
        profile, capture, signed_by_name=name, staff=staff, today=date(2026, 3, 3)
    )


def test_gru_82_2_one_reclaim_at_a_time(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner)
    capture = _capture(GRU, tag_read=pet.rga)
    _start(GRU, capture, owner, staff)
    err = _refused(_start, GRU, capture, owner, staff)
    assert (err.field, err.code) == (None, "already_started")
    assert err.message == "Já há um resgate em andamento."


def test_gru_82_no_release_before_the_reclaim_is_paid(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner)
    capture = _capture(GRU, tag_read=pet.rga)
    err = _refused(
        services.release, GRU, capture, signed_by_name="Dono", staff=staff, today=date(2026, 3, 3)
    )
    assert (err.field, err.code) == (None, "not_paid")  # nothing started
    _start(GRU, capture, owner, staff)
    err = _refused(
        services.release, GRU, capture, signed_by_name="Dono", staff=staff, today=date(2026, 3, 3)
    )
    assert (err.code, err.message) == ("not_paid", "O resgate ainda não foi pago.")


def test_gru_82_no_release_of_an_animal_no_longer_in_custody(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner)
    capture = _capture(GRU, tag_read=pet.rga)
    _paid(GRU, capture, owner, staff)
    capture.status = CaptureStatus.DESTINED  # e.g. adopted out meanwhile
    err = _refused(
        services.release, GRU, capture, signed_by_name="Dono", staff=staff, today=date(2026, 3, 3)
    )
    assert (err.field, err.code) == (None, "not_in_custody")


def test_gru_84_only_dogs_and_cats_get_an_rga_on_reclaim(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    capture = _capture(GRU, species="other", size="large")  # a horse, a goat
    reclaim = _start(GRU, capture, owner, staff)
    err = _refused(_register, reclaim, staff, name="Alazão", birth_date=date(2020, 1, 1))
    assert (err.field, err.code) == (None, "not_registrable")


def test_gru_84_an_animal_with_an_rga_is_not_registered_again(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner)
    capture = _capture(GRU, tag_read=pet.rga)
    reclaim = _start(GRU, capture, owner, staff)
    err = _refused(_register, reclaim, staff, name="Outro")
    assert (err.field, err.code) == (None, "already_registered")


def test_gru_85_proof_of_vaccination_must_be_on_the_rga(app):
    owner, staff = factories.user(), factories.user(roles=("vet",))
    pet = factories.animal(owner)  # no rabies shot recorded
    capture = _capture(GRU, tag_read=pet.rga)
    reclaim = _start(GRU, capture, owner, staff)
    err = _refused(services.record_rabies, GRU, reclaim, "proof", staff=staff, today=DAY)
    assert (err.field, err.code) == ("rabies", "no_proof")
    assert reclaim.rabies is None
    err = _refused(services.record_rabies, GRU, reclaim, "talvez", staff=staff, today=DAY)
    assert (err.field, err.code) == ("rabies", "invalid")


def test_gru_85_an_unregistered_animal_is_registered_before_its_shot(app):
    owner, staff = factories.user(), factories.user(roles=("vet",))
    capture = _capture(GRU)
    reclaim = _start(GRU, capture, owner, staff)
    err = _refused(services.record_rabies, GRU, reclaim, "proof", staff=staff, today=DAY)
    assert err.code == "no_proof"
    err = _refused(
        services.record_rabies,
        GRU,
        reclaim,
        "vaccinated",
        staff=staff,
        today=DAY,
        vaccination=_shot(DAY),
    )
    assert (err.field, err.code) == ("rabies", "not_registered")


def test_vv_22_6_caught_again_away_from_home_unless_it_invaded(vv_minimum_wage):
    owner = factories.user()
    pet = factories.animal(owner)
    _capture(VV, date(2026, 1, 5), tag_read=pet.rga)
    again = _capture(VV, tag_read=pet.rga)
    # A repeat capture on the street is "longe do domicílio": 5 % MW (75,90) once.
    fee = services.reclaim_fee(VV, again, date(2026, 3, 3))
    assert [(ln.article, ln.amount_cents) for ln in fee.lines] == [("VV 22 §6", 7590)]
    # Recorded as an invader (reason "invader"), the capture is not read as away from home.
    again.reason = "invader"
    assert services.reclaim_fee(VV, again, date(2026, 3, 3)).lines == ()
    # Staff may say otherwise at the counter.
    assert services.reclaim_fee(VV, again, date(2026, 3, 3), away_from_home=True).total_cents


# -- the release: what is refused names its article; what is done is on record -----------------


def test_gru_82_84_85_each_refused_release_names_its_article(app):
    owner, staff = factories.user(), factories.user(roles=("vet",))
    capture = _capture(GRU, species="cat")  # a cat, not registered
    reclaim = _paid(GRU, capture, owner, staff)
    err = _refused(_release, GRU, capture, staff)
    assert err.code == "cause_not_ended"
    assert err.message == (
        "Um agente precisa confirmar que não persistem as causas da captura (GRU 82 §1)."
    )
    services.confirm_cause_ended(capture, agent=staff)
    assert capture.cause_ended_by_id == staff.id and capture.cause_ended_at is not None
    (event,) = factories.audit_events("impound.cause_ended")
    assert (event.subject_id, event.detail) == (str(capture.id), {"protocol": capture.protocol})
    # GRU 84: a cat leaves with an RGA too.
    err = _refused(_release, GRU, capture, staff)
    assert err.code == "not_registered"
    assert err.message == "Registre o animal (RGA) antes de liberá-lo (GRU 84)."
    animal = _register(reclaim, staff, name="Mimi", birth_date=date(2024, 1, 1))
    # GRU 85: and vaccinated against rabies.
    err = _refused(_release, GRU, capture, staff)
    assert (err.field, err.code) == ("rabies", "rabies_missing")
    assert err.message == "Confira ou aplique a vacina antirrábica antes de liberar (GRU 85)."
    incomplete = _shot(DAY)
    incomplete.batch = ""
    err = _refused(
        services.record_rabies,
        GRU,
        reclaim,
        "vaccinated",
        staff=staff,
        today=DAY,
        vaccination=incomplete,
    )
    assert (err.field, err.code) == ("batch", "required") and err.message
    err = _refused(services.record_rabies, GRU, reclaim, "vaccinated", staff=staff, today=DAY)
    assert (err.field, err.code) == ("vaccine_name", "required")
    services.record_rabies(
        GRU, reclaim, "vaccinated", staff=staff, today=DAY, vaccination=_shot(DAY)
    )
    # GRU 85: the cat's shot is written on its new RGA, and the check is on record.
    assert reclaim.vaccination_id is not None and reclaim.rabies == "vaccinated"
    (event,) = factories.audit_events("impound.rabies_checked")
    assert (event.subject_type, event.actor_id, event.detail) == (
        "Capture",
        staff.id,
        {"rabies": "vaccinated", "vaccination_id": reclaim.vaccination_id},
    )
    err = _refused(_release, GRU, capture, staff, name="   ")
    assert (err.field, err.code) == ("signed_by_name", "required")
    assert err.message == "Informe o nome de quem assina o termo."
    record = _release(GRU, capture, staff, name="  Rui Dono ")
    assert (record.signed_by_name, record.released_by_id, record.capture_count_stated) == (
        "Rui Dono",
        staff.id,
        1,
    )
    assert record.term_text.startswith(
        f"Declaro ter recebido o animal do protocolo {capture.protocol}."
    )
    (event,) = factories.audit_events("impound.released")
    assert (event.subject_type, event.subject_id) == ("Capture", str(capture.id))
    assert event.detail == {"protocol": capture.protocol, "capture_count": 1}
    assert animal.species == "cat"


def test_gru_84_registration_on_reclaim_is_the_claimants_and_on_record(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    capture = _capture(GRU)
    reclaim = _start(GRU, capture, owner, staff)
    animal = _register(reclaim, staff, name="Caramelo", birth_date=date(2024, 1, 1))
    assert animal.owner_id == owner.id and capture.owner_id == owner.id
    assert reclaim.registered_on_reclaim is True and reclaim.animal_id == animal.id
    (event,) = factories.audit_events("impound.registered_on_reclaim")
    assert (event.subject_type, event.subject_id, event.detail) == (
        "Capture",
        str(capture.id),
        {"rga": animal.rga},
    )


def test_gru_84_registration_refused_by_the_rga_rules_says_why(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    capture = _capture(GRU)
    reclaim = _start(GRU, capture, owner, staff)
    err = _refused(_register, reclaim, staff, birth_date=date(2026, 3, 10))  # after today
    assert (err.field, err.code) == ("animal.birth_date", "age")
    assert err.message == "A data de nascimento não pode estar no futuro."
    assert reclaim.animal_id is None and reclaim.registered_on_reclaim is not True


def test_vv_22_6_first_capture_goes_home_without_sterilisation(vv_minimum_wage):
    owner, staff = factories.user(), factories.user(roles=("vet",))
    pet = factories.animal(owner, sterilized=False)
    first = _capture(VV, tag_read=pet.rga)
    reclaim = _paid(VV, first, owner, staff)
    services.record_rabies(
        VV, reclaim, "vaccinated", staff=staff, today=DAY, vaccination=_shot(DAY)
    )
    assert _release(VV, first, staff).capture_count_stated == 1
    # Caught again: now only sterilised, and the refusal names the paragraph.
    again = _capture(VV, tag_read=pet.rga)
    reclaim = services.start_reclaim(
        VV,
        again,
        claimant=owner,
        channel="counter",
        started_by=staff,
        today=date(2026, 3, 3),
        away_from_home=False,
    )
    reclaim.status = "paid"
    reclaim.rabies = "proof"
    err = _refused(_release, VV, again, staff)
    assert err.code == "sterilisation_required"
    assert "(VV 22 §6)" in err.message


def test_a_payment_settles_only_its_own_reclaim(app):
    from portal.blueprints.billing.services import mark_paid_at_counter

    owner, staff = factories.user(), factories.user(roles=("agent",))
    first = _start(GRU, _capture(GRU), owner, staff)
    second = _start(GRU, _capture(GRU), owner, staff)
    mark_paid_at_counter(second.payment_item, receipt_number="REC-2", paid_on=DAY, actor=staff)
    assert (first.status, second.status) == (ReclaimStatus.STARTED, ReclaimStatus.PAID)


# -- starting a reclaim: who pays what, and the record it leaves ----------------------------------


def test_gru_82_2_reclaim_opens_the_claimants_guia_for_the_fee(app):
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(GRU, tag_read=pet.rga)
    expenses = [{"kind": "transport", "amount_cents": 4500}]
    reclaim = services.start_reclaim(
        GRU,
        capture,
        claimant=owner,
        channel="online",
        started_by=owner,
        today=date(2026, 3, 3),
        expenses=expenses,
    )
    # GRU 82: R$ 50,00 at the reclaim, plus the CCZ's transport (GRU 72 §1).
    fee = services.reclaim_fee(GRU, capture, date(2026, 3, 3), expenses=expenses)
    assert fee.total_cents == 5000 + 4500
    item = reclaim.payment_item
    assert (item.amount_cents, item.payer_id, item.subject_id) == (9500, owner.id, capture.id)
    assert capture.protocol in item.description
    assert (reclaim.claimant_id, reclaim.channel, reclaim.animal_id) == (owner.id, "online", pet.id)
    assert (reclaim.started_by_id, reclaim.expenses, reclaim.exemption) == (
        owner.id,
        expenses,
        None,
    )
    assert reclaim.status == ReclaimStatus.STARTED
    (event,) = factories.audit_events("impound.reclaim_started")
    assert (event.subject_type, event.subject_id) == ("Capture", str(capture.id))
    assert event.detail == {
        "protocol": capture.protocol,
        "channel": "online",
        "amount_cents": 9500,
        "exemption": None,
    }


def test_vv_22_5_a_free_reclaim_is_settled_at_once(vv_minimum_wage):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner)
    capture = _capture(VV, tag_read=pet.rga)
    # Reclaimed the next day, inside the 5 business days: nothing to pay, nothing to wait for.
    reclaim = _start(VV, capture, owner, staff)
    assert reclaim.payment_item.amount_cents == 0
    assert reclaim.status == ReclaimStatus.PAID


def test_vv_22_6_start_reclaim_passes_on_the_away_from_home_answer(vv_minimum_wage):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner)
    _capture(VV, date(2026, 1, 5), tag_read=pet.rga)
    again = _capture(VV, tag_read=pet.rga)
    near = _start(VV, again, owner, staff, away_from_home=False)
    assert near.payment_item.amount_cents == 0


def test_gru_82_a_fee_that_cannot_be_priced_says_which_input(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    capture = _capture(GRU)
    # GRU 72 §1 lists capture, transport and storage; food is not the CCZ's to recover there.
    err = _refused(
        _start, GRU, capture, owner, staff, expenses=[{"kind": "food", "amount_cents": 100}]
    )
    assert (err.field, err.code) == ("expenses", "not_recoverable")
    assert "GRU 72 §1" in err.message


def test_cab_14_reclaim_waits_for_the_observation_and_says_until_when(app):
    cab = load_profile("cabeceira")
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner)
    capture = _capture(cab, tag_read=pet.rga, custody_type="observation")
    err = _refused(_start, cab, capture, owner, staff)
    # CAB 14: 10 days of observation from Mon 2 Mar 2026: to Thu 12 Mar.
    assert err.code == "under_observation"
    assert "até 12/03/2026" in err.message and "(CAB 14, 30)" in err.message


def test_gru_87_a_definitive_apprehension_names_its_article_and_a_released_animal_is_gone(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    capture = _capture(GRU)
    capture.status = CaptureStatus.DEFINITIVE_PENDING
    capture.definitive_article = "GRU 87 III"
    err = _refused(_start, GRU, capture, owner, staff)
    assert err.code == "definitive_pending" and "(GRU 87 III)" in err.message
    capture.status = CaptureStatus.RELEASED
    capture.definitive_article = None
    err = _refused(_start, GRU, capture, owner, staff)
    assert (err.field, err.code) == (None, "not_reclaimable")


def test_gru_84_the_rga_made_on_reclaim_describes_the_animal_caught(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    capture = _capture(
        GRU, sex="unknown", color="Preto", size="medium", microchip="985112345678901"
    )
    reclaim = _start(GRU, capture, owner, staff)
    animal = _register(reclaim, staff, name="Tição", birth_date=date(2023, 5, 1))
    assert (animal.name, animal.species, animal.color, animal.size, animal.breed) == (
        "Tição",
        "dog",
        "Preto",
        "medium",
        "SRD",
    )
    # The sex was not seen at the capture: the RGA needs one, staff correct it on the RGA.
    assert animal.sex == "male"
    assert (animal.birth_date, animal.birth_date_estimated) == (date(2023, 5, 1), True)
    assert animal.microchip == "985112345678901"


def test_gru_85_a_shot_the_rga_refuses_is_reported_on_the_rabies_answer(app):
    owner, staff = factories.user(), factories.user(roles=("vet",))
    pet = factories.animal(owner)
    capture = _capture(GRU, tag_read=pet.rga)
    reclaim = _start(GRU, capture, owner, staff)
    # The impound form has no "next dose" field: its error goes to the rabies answer.
    wrong = _shot(DAY)
    wrong.next_due_on = DAY - timedelta(days=1)
    err = _refused(
        services.record_rabies,
        GRU,
        reclaim,
        "vaccinated",
        staff=staff,
        today=DAY,
        vaccination=wrong,
    )
    assert (err.field, err.code) == ("rabies", "invalid")
    assert err.message == "A revacinação deve ser depois da aplicação."
    # An RGA closed (death reported) cannot take a shot.
    pet.status = "closed"
    err = _refused(
        services.record_rabies,
        GRU,
        reclaim,
        "vaccinated",
        staff=staff,
        today=DAY,
        vaccination=_shot(DAY),
    )
    assert (err.field, err.code) == ("rabies", "invalid")
    assert err.message == "Este RGA está encerrado (baixa)."


def test_gru_82_3_exemption_asked_at_the_counter_is_priced_and_on_record(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    pet = factories.animal(owner, sex="female")
    capture = _capture(GRU, tag_read=pet.rga)
    reclaim = _start(GRU, capture, owner, staff, exemption="unemployed_3_months")
    fee = services.reclaim_fee(GRU, capture, date(2026, 3, 3), exemption="unemployed_3_months")
    assert reclaim.exemption == "unemployed_3_months"
    assert reclaim.payment_item.amount_cents == fee.total_cents
    assert fee.total_cents < services.reclaim_fee(GRU, capture, date(2026, 3, 3)).total_cents
    (event,) = factories.audit_events("impound.reclaim_started")
    assert event.detail["exemption"] == "unemployed_3_months"
    # Nothing asked: no exemption on record.
    other = _start(GRU, _capture(GRU), owner, staff, exemption="")
    assert other.exemption is None


def test_gru_84_registration_keeps_the_sex_seen_and_who_registered(app):
    owner, staff = factories.user(), factories.user(roles=("agent",))
    capture = _capture(GRU, sex="female", species="cat")
    reclaim = _start(GRU, capture, owner, staff)
    animal = _register(reclaim, staff, name="Mimi", birth_date=date(2024, 1, 1))
    assert (animal.sex, animal.species, animal.registered_by_id) == ("female", "cat", staff.id)

"""Edges of transferring an animal with an RGA (BJP 7; GRU 18 §1 and §2; VV 13) and of the
household limit at the new owner's residence (GRU 37; BJP 17; VV 2 has none).

The offers have no expiry in the portal (the laws set no term), so there is no last-day test.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.animals import services
from portal.extensions import db
from portal.models import OutboxMessage, OwnershipTransfer
from portal.urls import absolute_url
from tests import factories
from tests.factories import RGA_TODAY as TODAY
from tests.factories import profile_app
from tests.unit import test_rga_transfers

gru = test_rga_transfers.gru  # the Guarulhos profile, in a request context


def _offer(gru, **owner_fields):
    """An owner, an adult animal of theirs, another citizen and the owner's pending offer."""
    old = factories.user(**owner_fields)
    new = factories.user(street="Rua Nova", number="8")
    animal = factories.animal(old, birth_date=TODAY - timedelta(days=400))
    offer = services.request_transfer(animal, old, new.cpf, profile=gru, today=TODAY)
    return old, new, animal, offer


def _mails_to(person) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == person.email)))


def _refused(call, *args, **kwargs) -> services.AnimalError:
    with pytest.raises(services.AnimalError) as err:
        call(*args, **kwargs)
    assert err.value.message  # every refusal explains itself to the citizen
    return err.value


# -- who may offer, to whom (GRU 18; BJP 7) -------------------------------------------------------


def test_gru_18_par_2_an_offer_is_stored_pending_with_both_owners(gru) -> None:
    old, new, animal, offer = _offer(gru)
    offer_id, rga = offer.id, animal.rga
    db.session.expire_all()
    stored = db.session.get(OwnershipTransfer, offer_id)
    # §2: until the new owner accepts, the previous owner stays responsible
    assert (stored.status, stored.reason) == ("pending", "citizen")
    assert (stored.from_owner_id, stored.to_owner_id) == (old.id, new.id)
    assert stored.animal.rga == rga and stored.animal.owner_id == old.id
    assert stored.accepted_at is None and stored.decided_at is None
    assert services.pending_transfers_to(new) == [stored]


def test_gru_18_the_offer_is_mailed_to_the_new_owner_with_who_what_and_where(gru) -> None:
    old, new, animal, _ = _offer(gru)
    [mail] = _mails_to(new)
    assert mail.subject
    for part in (new.full_name, old.full_name, animal.name, animal.rga):
        assert part in mail.body
    assert absolute_url("animals.my_animals") in mail.body  # where to accept: "Meus animais"
    assert _mails_to(old) == []  # nothing to the owner yet


def test_only_the_owner_may_offer_the_animal(gru) -> None:
    owner, stranger, other = factories.user(), factories.user(), factories.user()
    animal = factories.animal(owner)
    err = _refused(services.request_transfer, animal, stranger, other.cpf, profile=gru, today=TODAY)
    assert (err.field, err.code) == (None, "not_allowed")
    assert animal.transfers == []


@pytest.mark.parametrize("typed", ["123.456.789-00", "", None, "111.111.111-11"])
def test_an_offer_to_an_invalid_cpf_is_refused_on_the_cpf_field(gru, typed) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    err = _refused(services.request_transfer, animal, owner, typed, profile=gru, today=TODAY)
    assert (err.field, err.code) == ("cpf", "invalid_cpf")
    assert animal.transfers == []


def test_an_offer_to_an_unknown_or_inactive_cpf_is_not_found(gru) -> None:
    owner = factories.user()
    inactive = factories.user(active=False)
    animal = factories.animal(owner)
    for cpf in (factories.make_cpf(987654), inactive.cpf):
        err = _refused(services.request_transfer, animal, owner, cpf, profile=gru, today=TODAY)
        assert (err.field, err.code) == ("cpf", "not_found")
    assert animal.transfers == [] and _mails_to(inactive) == []


def test_an_offer_to_oneself_is_refused_on_the_cpf_field(gru) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    # the CPF typed with its mask is still the owner's own
    masked = f"{owner.cpf[:3]}.{owner.cpf[3:6]}.{owner.cpf[6:9]}-{owner.cpf[9:]}"
    err = _refused(services.request_transfer, animal, owner, masked, profile=gru, today=TODAY)
    assert (err.field, err.code) == ("cpf", "invalid")
    assert animal.transfers == []


def test_gru_21_a_closed_rga_cannot_be_transferred(gru) -> None:
    owner, new = factories.user(), factories.user()
    animal = factories.animal(owner, status="closed")
    err = _refused(services.request_transfer, animal, owner, new.cpf, profile=gru, today=TODAY)
    assert (err.field, err.code) == (None, "invalid")
    err = _refused(services.transfer_animal, animal, new, immediate=True, profile=gru)
    assert (err.field, err.code) == (None, "invalid")
    assert animal.owner_id == owner.id and animal.transfers == []


def test_a_new_offer_cancels_the_pending_one_and_leaves_decided_ones(gru) -> None:
    old, first_to, animal, first = _offer(gru)
    refused_by = factories.user()
    declined = services.request_transfer(animal, old, refused_by.cpf, profile=gru, today=TODAY)
    # the second offer cancelled the first
    assert first.status == "cancelled" and first.decided_at is not None
    services.decline_transfer(declined, refused_by)
    decided_at = declined.decided_at
    third_to = factories.user()
    third = services.request_transfer(animal, old, third_to.cpf, profile=gru, today=TODAY)
    assert (declined.status, declined.decided_at) == ("declined", decided_at)
    assert third.status == "pending" and third.decided_at is None
    assert services.pending_transfers_to(first_to) == []
    assert services.pending_transfers_to(third_to) == [third]


# -- acceptance (BJP 7; GRU 18 §2) ----------------------------------------------------------------


def test_gru_18_par_2_on_acceptance_owner_and_residence_change_and_the_rga_is_kept(gru) -> None:
    old, new, animal, offer = _offer(gru)
    rga, offer_id, animal_id = animal.rga, offer.id, animal.id
    services.accept_transfer(offer, new, profile=gru, today=TODAY)
    db.session.expire_all()
    stored = db.session.get(OwnershipTransfer, offer_id)
    moved = stored.animal
    assert (moved.id, moved.rga) == (animal_id, rga)  # the same RGA number (GRU 16: one per animal)
    assert moved.owner_id == new.id
    # "Rua Nova, 8" is a different house from the old owner's
    assert moved.residence_key == services.owner_residence_key(new)
    assert moved.residence_key != services.owner_residence_key(old)
    assert stored.status == "accepted"
    assert stored.accepted_at is not None and stored.decided_at == stored.accepted_at
    assert services.pending_transfers_to(new) == []


def test_gru_18_the_previous_owner_is_mailed_when_the_transfer_is_accepted(gru) -> None:
    old, new, animal, offer = _offer(gru)
    services.accept_transfer(offer, new, profile=gru, today=TODAY)
    [mail] = _mails_to(old)
    assert mail.subject
    for part in (old.full_name, new.full_name, animal.name, animal.rga):
        assert part in mail.body


def test_only_the_citizen_offered_may_accept(gru) -> None:
    old, new, animal, offer = _offer(gru)
    for who in (old, factories.user()):
        err = _refused(services.accept_transfer, offer, who, profile=gru, today=TODAY)
        assert (err.field, err.code) == (None, "not_allowed")
    assert offer.status == "pending" and animal.owner_id == old.id


def test_an_offer_no_longer_pending_cannot_be_accepted(gru) -> None:
    old, new, animal, offer = _offer(gru)
    services.decline_transfer(offer, new)
    err = _refused(services.accept_transfer, offer, new, profile=gru, today=TODAY)
    assert (err.field, err.code) == (None, "invalid")
    assert offer.status == "declined" and animal.owner_id == old.id


def test_gru_21_a_pending_offer_of_an_animal_closed_since_cannot_be_accepted(gru) -> None:
    old, new, animal, offer = _offer(gru)
    animal.status = "closed"  # death reported after the offer
    err = _refused(services.accept_transfer, offer, new, profile=gru, today=TODAY)
    assert (err.field, err.code) == (None, "invalid")
    assert animal.owner_id == old.id and offer.status == "pending"


def test_the_new_owner_needs_a_complete_address_to_accept(gru) -> None:
    old = factories.user()
    new = factories.user(number="")  # no house number: not a usable address
    animal = factories.animal(old, birth_date=TODAY - timedelta(days=400))
    offer = services.request_transfer(animal, old, new.cpf, profile=gru, today=TODAY)
    err = _refused(services.accept_transfer, offer, new, profile=gru, today=TODAY)
    assert (err.field, err.code) == ("owner.address", "required")
    assert animal.owner_id == old.id and offer.status == "pending"


# -- refusing and withdrawing ---------------------------------------------------------------------


def test_the_new_owner_declines_and_the_owner_withdraws(gru) -> None:
    old, new, animal, offer = _offer(gru)
    services.decline_transfer(offer, new)
    assert offer.status == "declined" and offer.decided_at is not None
    withdrawn = services.request_transfer(animal, old, new.cpf, profile=gru, today=TODAY)
    services.decline_transfer(withdrawn, old)
    assert withdrawn.status == "cancelled" and withdrawn.decided_at is not None
    assert animal.owner_id == old.id and services.pending_transfers_to(new) == []


def test_a_stranger_cannot_decline_and_a_decided_offer_cannot_be_declined(gru) -> None:
    old, new, animal, offer = _offer(gru)
    err = _refused(services.decline_transfer, offer, factories.user())
    assert (err.field, err.code) == (None, "not_allowed")
    assert offer.status == "pending"
    services.decline_transfer(offer, old)
    for who in (old, new):
        err = _refused(services.decline_transfer, offer, who)
        assert (err.field, err.code) == (None, "invalid")
    assert offer.status == "cancelled"


def test_pending_transfers_to_lists_only_the_persons_pending_offers_in_order(gru) -> None:
    old, new, animal, first = _offer(gru)
    second_animal = factories.animal(old)
    second = services.request_transfer(second_animal, old, new.cpf, profile=gru, today=TODAY)
    other = factories.user()
    third_animal = factories.animal(old)
    services.request_transfer(third_animal, old, other.cpf, profile=gru, today=TODAY)
    declined_animal = factories.animal(old)
    declined = services.request_transfer(declined_animal, old, new.cpf, profile=gru, today=TODAY)
    services.decline_transfer(declined, new)
    first.reason = "citizen "  # an update moves the row on PostgreSQL: the order is by id
    db.session.flush()
    assert services.pending_transfers_to(new) == [first, second]
    assert services.pending_transfers_to(old) == []


# -- immediate transfer: adoption, documented sale (GRU 18 §1) ------------------------------------


def test_gru_18_par_1_an_adoption_moves_the_animal_now_with_the_deployed_profile(gru) -> None:
    old, new = factories.user(), factories.user(street="Rua B", number="2")
    animal = factories.animal(old)
    rga = animal.rga
    # no profile, no day given: the deployment's profile and today
    transfer = services.transfer_animal(animal, new, immediate=True)
    assert (transfer.status, transfer.reason) == ("accepted", "adoption")
    assert (transfer.from_owner_id, transfer.to_owner_id) == (old.id, new.id)
    assert transfer.animal is animal and animal.transfers == [transfer]
    assert (animal.owner_id, animal.rga) == (new.id, rga)
    assert animal.residence_key == services.owner_residence_key(new)
    assert transfer.accepted_at is not None and transfer.decided_at is not None
    assert _mails_to(old) == [] and _mails_to(new) == []  # adoption: the parties are present


def test_gru_18_par_1_an_adoption_to_the_current_owner_is_refused(gru) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    err = _refused(services.transfer_animal, animal, owner, immediate=True)
    assert (err.field, err.code) == ("cpf", "invalid")


def test_gru_18_par_1_a_documented_sale_cancels_a_pending_offer(gru) -> None:
    old, offered, animal, offer = _offer(gru)
    buyer = factories.user(street="Rua C", number="3")
    sale = services.transfer_animal(
        animal, buyer, immediate=True, profile=gru, today=TODAY, reason="sale"
    )
    assert (sale.status, sale.reason, animal.owner_id) == ("accepted", "sale", buyer.id)
    assert offer.status == "cancelled" and offer.decided_at is not None
    assert services.pending_transfers_to(offered) == []


# -- the household limit at the new residence (GRU 37; BJP 17; VV 2) ------------------------------


@pytest.mark.parametrize(
    ("key", "limit", "article"),
    # GRU 37: "no máximo 5 ... com idade superior a 120 dias"; BJP 17: 10 above 90 days
    [("guarulhos", 5, "GRU 37"), ("bjp", 10, "BJP 17")],
)
def test_gru_37_bjp_17_acceptance_at_the_limit_passes_and_one_over_is_refused(
    make_app, key, limit, article
) -> None:
    with profile_app(make_app, key) as profile:
        # a day far from the real one: the limit is counted on the day of the acceptance
        day = services.local_today(profile) - timedelta(days=400)
        old = factories.user()
        at_limit, over = factories.user(), factories.user()
        factories.fill_household(at_limit, limit - 1, on=day)  # limit - 1 + 1 = limit: allowed
        factories.fill_household(over, limit, on=day)  # limit + 1: refused
        first = factories.animal(old, birth_date=day - timedelta(days=400))
        second = factories.animal(old, birth_date=day - timedelta(days=400))
        offer = services.request_transfer(first, old, at_limit.cpf, profile=profile, today=day)
        services.accept_transfer(offer, at_limit, profile=profile, today=day)
        assert first.owner_id == at_limit.id
        offer = services.request_transfer(second, old, over.cpf, profile=profile, today=day)
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.accept_transfer(offer, over, profile=profile, today=day)
        assert (err.value.field, err.value.code, err.value.article) == (
            "owner.address",
            "household_limit",
            article,
        )
        assert second.owner_id == old.id and offer.status == "pending"
        assert len(_mails_to(old)) == 1  # only the first acceptance was mailed


def test_gru_37_the_limit_is_counted_on_the_day_of_the_transfer(gru) -> None:
    day = services.local_today(gru) - timedelta(days=400)
    old, new = factories.user(), factories.user()
    # five dogs 100 days old on the day (not counted: 100 <= 120); adults by the real today
    for _ in range(5):
        factories.animal(new, birth_date=day - timedelta(days=100))
    animal = factories.animal(old, birth_date=day - timedelta(days=400))
    transfer = services.transfer_animal(animal, new, immediate=True, profile=gru, today=day)
    assert transfer.status == "accepted" and animal.owner_id == new.id


@pytest.mark.parametrize(("age_days", "refused"), [(120, False), (121, True)])
def test_gru_37_a_puppy_of_120_days_does_not_count_one_of_121_does(
    gru,
    age_days,
    refused,
) -> None:
    old, new = factories.user(), factories.user()
    factories.fill_household(new, 5, on=TODAY)  # the new house is at the limit of 5
    animal = factories.animal(old, birth_date=TODAY - timedelta(days=age_days))
    offer = services.request_transfer(animal, old, new.cpf, profile=gru, today=TODAY)
    if refused:  # 5 + 1 = 6 > 5
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.accept_transfer(offer, new, profile=gru, today=TODAY)
        assert err.value.article == "GRU 37" and animal.owner_id == old.id
    else:  # "idade superior a 120 dias": 120 days does not count, 5 + 0 = 5
        services.accept_transfer(offer, new, profile=gru, today=TODAY)
        assert animal.owner_id == new.id


def test_gru_37_a_transfer_within_the_same_house_adds_no_animal(gru) -> None:
    old = factories.user()
    factories.fill_household(old, 4, on=TODAY)
    animal = factories.animal(old, birth_date=TODAY - timedelta(days=400))  # the 5th: at the limit
    # a relative living at the same address takes the animal over: still 5 there
    relative = factories.user(cep=old.cep, street=old.street, number=old.number)
    offer = services.request_transfer(animal, old, relative.cpf, profile=gru, today=TODAY)
    services.accept_transfer(offer, relative, profile=gru, today=TODAY)
    assert animal.owner_id == relative.id and offer.status == "accepted"


def test_vv_2_vila_velha_has_no_household_limit_on_transfers(make_app) -> None:
    with profile_app(make_app, "vilavelha") as profile:
        old, new = factories.user(), factories.user()
        factories.fill_household(new, 12)
        animal = factories.animal(old)
        transfer = services.transfer_animal(animal, new, immediate=True, profile=profile)
        assert transfer.status == "accepted" and animal.owner_id == new.id

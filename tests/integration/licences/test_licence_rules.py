"""Excess-animal licences (issue 11): the rules, named after the articles (GRU 37 §1; BJP 17;
CAB 31 §2), through the services and the one household check every domain uses."""

from __future__ import annotations

import io
from contextlib import contextmanager
from datetime import date, timedelta

import pytest

from portal.blueprints.animals import services as animals
from portal.blueprints.licences import services
from portal.extensions import db
from portal.models import LicenceStatus, Vaccination
from tests import factories

TODAY = date(2026, 6, 10)


@contextmanager
def profile_of(make_app, key: str, **licence_changes):
    app = make_app(PORTAL_PROFILE=key)
    prof = app.extensions["portal_profile"]
    if licence_changes:
        prof = prof.model_copy(update={"licence": prof.licence.model_copy(update=licence_changes)})
        app.extensions["portal_profile"] = prof
    with app.app_context(), app.test_request_context():
        yield prof


def pdf() -> services.Upload:
    return services.Upload(io.BytesIO(b"%PDF-1.4 comprovante"), "comprovante.pdf")


def adult(owner, *, on: date = TODAY, vaccinated: bool = True, **fields):
    pet = factories.animal(owner, birth_date=on - timedelta(days=500), registered_on=on, **fields)
    if vaccinated:
        pet.vaccinations.append(
            Vaccination(
                vaccine_name="Rabisin",
                batch="L1",
                vet_name="Dra. Ana",
                vet_crmv="CRMV-SP 1",
                applied_on=on - timedelta(days=30),
                next_due_on=on + timedelta(days=330),
            )
        )
    db.session.flush()
    return pet


def new_animal(name: str, on: date = TODAY) -> services.NewAnimal:
    return services.NewAnimal(
        data=animals.AnimalData(
            name=name,
            species="dog",
            sex="female",
            birth_date=on - timedelta(days=400),
            breed="SRD",
            color="Preta",
            size="medium",
            sterilized=True,
        ),
        vaccination=animals.VaccinationData(
            applied_on=on - timedelta(days=10),
            vaccine_name="Rabisin",
            batch="L2",
            vet_name="Dr. Vet",
            vet_crmv="CRMV-SP 2",
        ),
        sterilisation_proof=pdf(),
    )


def request_data(prof, pets, *, asked: int, new=()) -> services.RequestData:
    needs_sterilisation = "sterilisation_proofs" in prof.licence.requires
    return services.RequestData(
        animals_requested=asked,
        housing_description="Quintal coberto de 200 m², canis limpos diariamente, ração e água.",
        listed=[
            services.ListedAnimal(
                p.id, True, sterilisation_proof=pdf() if needs_sterilisation else None
            )
            for p in pets
        ],
        new=list(new),
    )


def licensed_household(
    prof,
    *,
    base: int,
    new: int = 0,
    asked: int | None = None,
    approve: int | None = None,
    on: date = TODAY,
):
    owner = factories.user()
    pets = [adult(owner, on=on) for _ in range(base)]
    staff = factories.user(roles=("agent",))
    licence = services.request_licence(
        owner,
        request_data(
            prof,
            pets,
            asked=asked or base + new,
            new=[new_animal(f"Nova {i}", on) for i in range(new)],
        ),
        profile=prof,
        today=on,
    )
    services.record_inspection(
        licence,
        staff,
        inspected_on=on,
        checklist={"space": True},
        findings="Espaço adequado.",
        satisfactory=True,
        profile=prof,
        today=on,
    )
    count = approve or licence.animals_requested
    services.approve(
        licence,
        staff,
        max_animals=count,
        covered_ids=None if approve is None else [link.id for link in licence.animals][:count],
        reason="Laudo técnico: espaço para menos animais." if approve else None,
        profile=prof,
        today=on,
    )
    return owner, licence, staff


# --------------------------------------------------------------------------------------------
# The cap
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_cap_is_10_and_bjp_17_par3_cap_is_15(gru, make_app) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(6)]
    with pytest.raises(services.LicenceError) as err:
        services.request_licence(owner, request_data(gru, pets, asked=11), profile=gru, today=TODAY)
    assert any(e.code == "above_cap" and "10" in e.message for e in err.value.errors)
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner = factories.user()
        pets = [adult(owner) for _ in range(11)]
        with pytest.raises(services.LicenceError) as err:
            services.request_licence(
                owner, request_data(bjp, pets, asked=16), profile=bjp, today=TODAY
            )
        assert any(e.code == "above_cap" and "15" in e.message for e in err.value.errors)
        licence = services.request_licence(
            owner, request_data(bjp, pets, asked=15), profile=bjp, today=TODAY
        )
        assert licence.status == LicenceStatus.REQUESTED and len(licence.animals) == 11


def test_gru_37_par1_i_every_animal_confirmed_with_sterilisation_proof(gru) -> None:
    owner = factories.user()
    neighbour = factories.user(cep=owner.cep, street=owner.street, number=owner.number)
    pets = [adult(owner) for _ in range(4)] + [adult(neighbour, vaccinated=False)]
    data = request_data(gru, pets, asked=7)
    data.listed[0].confirmed = False
    data.listed[1].sterilisation_proof = None
    with pytest.raises(services.LicenceError) as err:
        services.request_licence(owner, data, profile=gru, today=TODAY)
    codes = {(e.field, e.code) for e in err.value.errors}
    assert (f"animal-{pets[0].id}", "not_confirmed") in codes
    assert (f"animal-{pets[1].id}", "sterilisation_proof") in codes
    # the neighbour's animal lives at the address too: its rabies proof must come from somewhere
    assert (f"animal-{pets[4].id}", "rabies_proof") in codes


def test_gru_37_approved_licence_raises_the_allowance_to_the_cap(gru) -> None:
    owner, licence, _staff = licensed_household(gru, base=5, new=3)
    assert licence.max_animals == 8 and len(licence.covered) == 8
    assert services.household_allowance(gru, licence.residence_key, TODAY).limit == 8
    assert licence.valid_until == date(2027, 6, 10)


# --------------------------------------------------------------------------------------------
# Never replaced (GRU 37 §1 II; BJP 17 §5)
# --------------------------------------------------------------------------------------------


def test_bjp_17_par5_licensed_animal_above_10_never_replaced_after_a_death(make_app) -> None:
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner, licence, _staff = licensed_household(bjp, base=10, new=3)
        key = licence.residence_key
        assert services.household_allowance(bjp, key, TODAY).limit == 13
        with pytest.raises(animals.HouseholdLimitExceeded) as err:
            animals.check_household_limit(bjp, owner, on=TODAY)
        assert err.value.code == "household_limit"
        animals.report_death(
            licence.animals[-1].animal, reported_by=owner, died_on=TODAY, today=TODAY
        )
        # the allowance drops with the animal: 12 left, 12 allowed, no room for a replacement
        assert services.household_allowance(bjp, key, TODAY).limit == 12
        with pytest.raises(animals.HouseholdLimitExceeded) as err:
            animals.check_household_limit(bjp, owner, on=TODAY)
        assert err.value.code == "household_limit" and "BJP 17 §5" in err.value.message


def test_gru_37_par1_ii_never_replaced_after_a_death(gru) -> None:
    owner, licence, _staff = licensed_household(gru, base=5, new=2)
    key = licence.residence_key
    animals.report_death(licence.animals[0].animal, reported_by=owner, died_on=TODAY, today=TODAY)
    assert services.household_allowance(gru, key, TODAY).limit == 6


# --------------------------------------------------------------------------------------------
# New acquisition (GRU 37 §1 III)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_iii_any_new_dog_or_cat_is_refused_while_the_licence_is_valid(gru) -> None:
    owner, licence, _staff = licensed_household(gru, base=5, new=2)
    with pytest.raises(animals.LicenceNewAcquisition) as err:
        animals.check_household_limit(gru, owner, on=TODAY)
    assert err.value.code == "licence_new_acquisition"
    assert "GRU 37 §1 III" in err.value.message and "cancelaria a licença" in err.value.message
    assert isinstance(err.value, animals.HouseholdLimitExceeded)  # every refusal path shows it
    # a neighbour at the same address is the same household
    neighbour = factories.user(cep=owner.cep, street=owner.street, number=owner.number)
    with pytest.raises(animals.LicenceNewAcquisition):
        animals.check_household_limit(gru, neighbour, on=TODAY)


# --------------------------------------------------------------------------------------------
# Expiry, cancellation, renewal (GRU 37 §1 IV-V)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_iv_expiry_returns_to_base_limit(gru) -> None:
    owner, licence, staff = licensed_household(gru, base=5, new=2)
    key = licence.residence_key
    assert services.household_allowance(gru, key, licence.valid_until).limit == 7
    after = licence.valid_until + timedelta(days=1)
    allowance = services.household_allowance(gru, key, after)
    assert allowance.limit == 5 and allowance.licence is None
    with pytest.raises(animals.HouseholdLimitExceeded) as err:
        animals.check_household_limit(gru, owner, on=after)
    assert err.value.code == "household_limit"
    assert services.public_status(licence, after) == "expired"
    queue = db.session.scalars(services.households_above_limit(gru, after)).all()
    assert [a.residence_key for a in queue] == [key]
    assert db.session.scalars(services.households_above_limit(gru, TODAY)).all() == []


def test_gru_37_par1_iii_cancelled_licence_returns_to_base_limit(gru) -> None:
    owner, licence, staff = licensed_household(gru, base=5, new=1)
    services.cancel(licence, staff, "Novo cão adquirido (GRU 37 §1 III).", today=TODAY)
    assert services.household_allowance(gru, licence.residence_key, TODAY).limit == 5
    assert services.public_status(licence, TODAY) == "cancelled"


def test_gru_37_par1_iv_one_year_is_the_same_date_next_year_from_a_leap_day(gru) -> None:
    day = date(2028, 2, 29)
    _owner, licence, _staff = licensed_household(gru, base=6, on=day)
    # Código Civil art. 132 §3 (issue 27 #8): no 29 Feb in 2029, so the year ends on 1 March
    assert (licence.valid_from, licence.valid_until) == (day, date(2029, 3, 1))


def test_gru_37_par1_v_renewal_window_with_real_dates(gru) -> None:
    leap = date(2028, 2, 29)
    owner, licence, staff = licensed_household(gru, base=6, on=leap)
    pets = [link.animal for link in licence.covered]
    for pet in pets:  # the shots were renewed during the year
        pet.vaccinations.append(
            Vaccination(
                vaccine_name="Rabisin",
                batch="L3",
                vet_name="Dra. Ana",
                vet_crmv="CRMV-SP 1",
                applied_on=date(2029, 1, 2),
                next_due_on=date(2030, 1, 2),
            )
        )
    window = services.renewal_window(licence, gru)
    assert (window.opens, window.closes) == (date(2029, 1, 30), date(2029, 3, 1))
    with pytest.raises(services.LicenceError) as err:
        services.request_licence(
            owner,
            request_data(gru, pets, asked=6),
            profile=gru,
            today=date(2029, 1, 29),
            renews=licence,
        )
    assert err.value.code == "outside_renewal_window"
    renewal = services.request_licence(
        owner,
        request_data(gru, pets, asked=6),
        profile=gru,
        today=date(2029, 1, 30),
        renews=licence,
    )
    # decided before the old one ends: starts the day after it
    services.approve(
        renewal,
        staff,
        max_animals=6,
        covered_ids=None,
        reason=None,
        profile=gru,
        today=date(2029, 2, 20),
    )
    # to the second anniversary of the first issue (issue 27 #7-8): 29 Feb 2030 is missing
    assert (renewal.valid_from, renewal.valid_until) == (date(2029, 3, 2), date(2030, 3, 1))


def test_gru_37_par1_v_renewal_decided_after_expiry_starts_on_the_decision_day(gru) -> None:
    owner, licence, staff = licensed_household(gru, base=6, on=date(2027, 3, 10))
    pets = [link.animal for link in licence.covered]
    for pet in pets:
        pet.vaccinations.append(
            Vaccination(
                vaccine_name="Rabisin",
                batch="L3",
                vet_name="Dra. Ana",
                vet_crmv="CRMV-SP 1",
                applied_on=date(2028, 2, 1),
                next_due_on=date(2029, 2, 1),
            )
        )
    renewal = services.request_licence(
        owner, request_data(gru, pets, asked=6), profile=gru, today=date(2028, 3, 1), renews=licence
    )
    services.approve(
        renewal,
        staff,
        max_animals=6,
        covered_ids=None,
        reason=None,
        profile=gru,
        today=date(2028, 3, 20),
    )
    # to the next anniversary of the first issue, 10/03/2029 (issue 27 #7: terms counted from
    # the first issue, never drifting with the decision day)
    assert (renewal.valid_from, renewal.valid_until) == (date(2028, 3, 20), date(2029, 3, 10))


# --------------------------------------------------------------------------------------------
# BJP 17 §1 and §6; CAB 31 §2
# --------------------------------------------------------------------------------------------


def test_bjp_17_par1_agent_approves_a_reduced_number_after_the_report(make_app) -> None:
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner = factories.user()
        pets = [adult(owner) for _ in range(13)]
        staff = factories.user(roles=("agent",))
        licence = services.request_licence(
            owner, request_data(bjp, pets, asked=13), profile=bjp, today=TODAY
        )
        with pytest.raises(services.LicenceError) as err:
            services.approve(
                licence,
                staff,
                max_animals=12,
                covered_ids=None,
                reason="x",
                profile=bjp,
                today=TODAY,
            )
        assert err.value.code == "report_required"
        services.record_inspection(
            licence,
            staff,
            inspected_on=TODAY,
            checklist={},
            findings="Espaço para 12.",
            satisfactory=True,
            profile=bjp,
            today=TODAY,
        )
        with pytest.raises(services.LicenceError) as err:
            services.approve(
                licence,
                staff,
                max_animals=12,
                covered_ids=None,
                reason="",
                profile=bjp,
                today=TODAY,
            )
        assert err.value.code in ("required", "too_many")
        ids = [link.id for link in licence.animals][:12]
        services.approve(
            licence,
            staff,
            max_animals=12,
            covered_ids=ids,
            reason="Laudo: porte grande, espaço para 12.",
            profile=bjp,
            today=TODAY,
        )
        assert licence.max_animals == 12 and len(licence.covered) == 12
        assert licence.reduction_reason.startswith("Laudo")


def test_bjp_17_par6_requests_closed_twelve_months_after_publication(make_app) -> None:
    with profile_of(make_app, "bjp") as bjp:
        assert bjp.licence.requests_accepted_until == date(2010, 12, 17)
        owner = factories.user()
        pets = [adult(owner) for _ in range(11)]
        with pytest.raises(services.LicenceError) as err:
            services.request_licence(
                owner, request_data(bjp, pets, asked=11), profile=bjp, today=TODAY
            )
        assert err.value.code == "requests_closed" and "BJP 17 §6" in err.value.message


def test_cab_31_par2_kennel_laudo_needs_the_inspection_and_is_yearly(make_app) -> None:
    with profile_of(make_app, "cabeceira") as cab:
        owner = factories.user()
        pets = [adult(owner) for _ in range(12)]
        staff = factories.user(roles=("agent",))
        licence = services.request_licence(
            owner, request_data(cab, pets, asked=12), profile=cab, today=TODAY
        )
        assert licence.kind == "kennel"
        with pytest.raises(services.LicenceError) as err:
            services.approve(
                licence,
                staff,
                max_animals=12,
                covered_ids=None,
                reason=None,
                profile=cab,
                today=TODAY,
            )
        assert err.value.code == "inspection_required" and "CAB 31 §2" in err.value.message
        services.record_inspection(
            licence,
            staff,
            inspected_on=TODAY,
            checklist={},
            findings="Canil adequado.",
            satisfactory=True,
            profile=cab,
            today=TODAY,
        )
        services.approve(
            licence, staff, max_animals=12, covered_ids=None, reason=None, profile=cab, today=TODAY
        )
        assert licence.valid_until == date(2027, 6, 10)
        assert services.household_allowance(cab, licence.residence_key, TODAY).limit == 12


def test_cabo_and_vv_have_no_licence_at_all(make_app) -> None:
    for key in ("cabo", "vilavelha"):
        app = make_app(PORTAL_PROFILE=key)
        assert "licences.request" not in app.view_functions
        assert "licencas-pedidos" not in app.extensions["workspace_queues"].queues


# --------------------------------------------------------------------------------------------
# Animals registered inside the request
# --------------------------------------------------------------------------------------------


def test_gru_37_rgas_registered_inside_stay_provisional_until_approved(gru) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(5)]
    staff = factories.user(roles=("agent",))
    licence = services.request_licence(
        owner,
        request_data(gru, pets, asked=7, new=[new_animal("Mel"), new_animal("Bia")]),
        profile=gru,
        today=TODAY,
    )
    inside = [link.animal for link in licence.animals if link.registered_inside]
    assert len(inside) == 2 and all(a.provisional and a.rga for a in inside)
    from portal.blueprints.animals import provisional

    assert "licence" in {m.code for m in provisional.missing(inside[0])}
    for pet in inside:  # staff check the typed vaccination: still held by the licence
        provisional.accept_proof(pet, staff)
        pet.fee_item_id = None
    assert all(a.provisional for a in inside)
    services.approve(
        licence, staff, max_animals=7, covered_ids=None, reason=None, profile=gru, today=TODAY
    )
    assert not any(a.provisional for a in inside)


def test_gru_37_refused_request_leaves_inside_rgas_refused_and_household_queued(gru) -> None:
    owner = factories.user()
    pets = [adult(owner) for _ in range(5)]
    staff = factories.user(roles=("agent",))
    licence = services.request_licence(
        owner, request_data(gru, pets, asked=6, new=[new_animal("Mel")]), profile=gru, today=TODAY
    )
    services.refuse(licence, staff, "Alojamento inadequado.", today=TODAY)
    inside = next(link.animal for link in licence.animals if link.registered_inside)
    from portal.blueprints.animals import provisional

    assert inside.provisional and "licence_refused" in {m.code for m in provisional.missing(inside)}
    queue = db.session.scalars(services.households_above_limit(gru, TODAY)).all()
    assert [a.residence_key for a in queue] == [licence.residence_key]


# --------------------------------------------------------------------------------------------
# Reminders and the rules page
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_v_reminders_when_the_window_opens_and_7_days_before(gru) -> None:
    from portal.blueprints.licences import reminders

    owner, licence, _staff = licensed_household(gru, base=6)
    until = licence.valid_until
    opening = list(reminders.renewal_window_opens(until - timedelta(days=30)))
    assert [m.to for m in opening] == [owner.email] and "30 dias" in opening[0].body
    assert list(reminders.renewal_window_opens(until - timedelta(days=31))) == []
    week = list(reminders.expiry_in_a_week(until - timedelta(days=7)))
    assert [m.to for m in week] == [owner.email]
    assert week[0].occurrence_key != opening[0].occurrence_key


def test_rules_page_explains_the_licence_rules(client, make_app) -> None:
    html = client.get("/regras").get_data(as_text=True)
    assert "1º de março" in html and "30 dias anteriores" in html
    app = make_app(PORTAL_PROFILE="bjp")
    html = app.test_client().get("/regras").get_data(as_text=True)
    assert "17/12/2010" in html and "BJP 17 §6" in html and "prática do CCZ" in html


def test_licence_fee_becomes_a_payment_item_where_the_price_list_has_one(app) -> None:
    from portal.models import PaymentItem
    from portal.profiles.schema import Price

    prof = app.extensions["portal_profile"]
    priced = prof.model_copy(
        update={"prices": {**prof.prices, "licence": Price(amount_cents=4000, article="GRU 22 I")}}
    )
    with app.test_request_context():
        owner = factories.user()
        pets = [adult(owner) for _ in range(6)]
        licence = services.request_licence(
            owner, request_data(priced, pets, asked=6), profile=priced, today=TODAY
        )
        item = db.session.get(PaymentItem, licence.fee_item_id)
        assert item.kind == "licence" and item.amount_cents == 4000
        assert item.payer_id == owner.id and item.subject_id == licence.id
        # the shipped profiles have no licence price: no item
        other = factories.user()
        more = [adult(other) for _ in range(6)]
        assert (
            services.request_licence(
                other, request_data(prof, more, asked=6), profile=prof, today=TODAY
            ).fee_item_id
            is None
        )


def test_ccz_asks_for_more_and_the_citizen_answers(gru) -> None:
    from portal.models import OutboxMessage

    owner = factories.user()
    pets = [adult(owner) for _ in range(6)]
    staff = factories.user(roles=("agent",))
    licence = services.request_licence(
        owner, request_data(gru, pets, asked=6), profile=gru, today=TODAY
    )
    services.ask_info(licence, staff, "Envie fotos do canil dos fundos.")
    assert licence.status == LicenceStatus.INFO_REQUESTED
    with pytest.raises(services.LicenceError) as err:  # only the holder answers
        services.answer_info(licence, factories.user(), "Não é meu.")
    assert err.value.code == "not_allowed"
    services.answer_info(
        licence, owner, "Fotos enviadas.", [services.Upload(factories.png_bytes(), "canil.png")]
    )
    assert licence.status == LicenceStatus.REQUESTED and licence.info_answer == "Fotos enviadas."
    assert [f.kind for f in licence.files] == ["answer"]
    subjects = set(
        db.session.scalars(db.select(OutboxMessage.subject).where(OutboxMessage.to == owner.email))
    )
    assert "O CCZ precisa de mais informações" in subjects


def _renewable(gru, on: date):  # type: ignore[no-untyped-def]
    """A licence of 6 approved on ``on``, its animals' shots renewed during the year."""
    owner, licence, staff = licensed_household(gru, base=6, on=on)
    pets = [link.animal for link in licence.covered]
    for pet in pets:
        pet.vaccinations.append(
            Vaccination(
                vaccine_name="Rabisin",
                batch="L4",
                vet_name="Dra. Ana",
                vet_crmv="CRMV-SP 1",
                applied_on=on + timedelta(days=300),
                next_due_on=on + timedelta(days=665),
            )
        )
    return owner, licence, staff, pets


def test_gru_37_par1_v_one_renewal_at_a_time_and_again_after_a_refusal(gru) -> None:
    # Approved 10 Mar 2026, valid to 10 Mar 2027; the window opens on 8 Feb 2027.
    owner, licence, staff, pets = _renewable(gru, date(2026, 3, 10))
    ask = dict(profile=gru, today=date(2027, 2, 10), renews=licence)
    first = services.request_licence(owner, request_data(gru, pets, asked=6), **ask)
    with pytest.raises(services.LicenceError) as err:
        services.request_licence(owner, request_data(gru, pets, asked=6), **ask)
    assert err.value.code == "already_requested"
    services.refuse(first, staff, "Faltou o laudo.", today=date(2027, 2, 11))
    again = services.request_licence(owner, request_data(gru, pets, asked=6), **ask)
    assert again.renews_id == licence.id and services.renewal_of(licence) == again


def test_gru_37_par1_v_another_licences_renewal_does_not_block_this_one(gru) -> None:
    _o1, other, _s1, other_pets = _renewable(gru, date(2026, 3, 10))
    owner, licence, _s2, pets = _renewable(gru, date(2026, 3, 10))
    services.request_licence(
        _o1, request_data(gru, other_pets, asked=6), profile=gru, today=date(2027, 2, 10),
        renews=other,
    )  # fmt: skip
    assert services.renewal_of(licence) is None
    mine = services.request_licence(
        owner, request_data(gru, pets, asked=6), profile=gru, today=date(2027, 2, 10),
        renews=licence,
    )  # fmt: skip
    assert services.renewal_of(licence) == mine and services.renewal_of(other) != mine

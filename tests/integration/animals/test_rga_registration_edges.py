"""Edges of registering a dog or cat and issuing its RGA (registration.py): every value the
registration stores (number, animal, vaccination, fee item, provisional state, audit), the rabies
demand per city (BJP 6; GRU 15 V; none in VV, CABO, CAB), the household limit at its exact numbers
and ages (GRU 37; BJP 17; CABO 33 §ú; CAB 31; VV 2 has none), a repeated submission (the wizard's
double tap), the consequences recorded on the owner (VV 23 V), the staff steps that activate a
pending registration (BJP 6 §ú) and the fee list of an animal.

TODAY is 16/03/2026 (tests/factories.py); the registration's clock (``utcnow``) is frozen at NOW,
noon in São Paulo that day, so stored instants can be pinned.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import func, select

from portal.blueprints.animals import provisional, registration, services
from portal.blueprints.animals.household import household_count
from portal.blueprints.animals.rga import format_rga
from portal.blueprints.enforcement import services as enforcement
from portal.extensions import db
from portal.models import Animal, PaymentItem, RgaCounter
from portal.services.api_auth import issue_client
from portal.services.uploads import store_image
from tests import factories
from tests.factories import RGA_TODAY as TODAY
from tests.factories import audit_events, fill_household, png_bytes
from tests.factories import profile_app as profile
from tests.factories import rga_data as data
from tests.factories import rga_vaccine as vaccine
from tests.integration.animals.test_rga_transfer_edges import _mails_to
from tests.integration.animals.test_rga_validation_copy_edges import _codes, _refusal, gru
from tests.integration.enforcement.test_apprehension_link import _served

__all__ = ["gru"]  # the Guarulhos profile fixture, in a request context

NOW = datetime(2026, 3, 16, 15, 0, tzinfo=UTC)  # 12:00 in São Paulo on TODAY


@pytest.fixture(autouse=True)
def frozen(monkeypatch):
    """The registration module's clock stops at NOW (activated_at, the resubmission window)."""
    monkeypatch.setattr(registration, "utcnow", lambda: NOW)
    return NOW


def _register(owner, prof, **kwargs) -> Animal:  # type: ignore[no-untyped-def]
    """register_animal with the factory's request; ``kwargs`` override its fields."""
    return factories.registered_animal(owner, prof, **kwargs)


def _animals_of(owner) -> list[Animal]:  # type: ignore[no-untyped-def]
    return list(
        db.session.scalars(select(Animal).where(Animal.owner_id == owner.id).order_by(Animal.id))
    )


def _audit(action: str) -> list[tuple]:
    return [(e.subject_type, e.subject_id, e.actor_id, e.detail) for e in audit_events(action)]


def _definitive_mails(person) -> list:  # type: ignore[no-untyped-def]
    return [m for m in _mails_to(person) if "definitivo" in m.subject]


# --------------------------------------------------------------------------------------------
# What a registration stores (GRU 14 §4; GRU 15 I; BJP 3 a; BJP 13 §1; GRU 22 I)
# --------------------------------------------------------------------------------------------


def test_gru_15_i_registration_stores_every_field_typed(gru) -> None:
    owner = factories.user()
    photo = store_image(png_bytes(), purpose="animal_photo", owner_id=owner.id, public=True)
    animal = _register(
        owner,
        gru,
        data=data(
            name="Bolinha",
            species="cat",
            sex="female",
            breed="Siamês",
            color="Creme",
            birth_date=date(2025, 11, 6),  # 130 days old: inside 16/02/2026-06/05/2026
            birth_date_estimated=True,
            size="small",
            weight_grams=4200,
            sterilized=True,
            microchip="985 112 000 000 777",
            photo=photo,
        ),
    )
    animal_id = animal.id
    db.session.expire_all()
    stored = db.session.get(Animal, animal_id)
    # GRU 14 §4: the number distinguishes the species; the first cat of 2026
    assert stored.rga == format_rga("cat", 2026, 1) and stored.rga.startswith("G-2026-000001-")
    assert (stored.species, stored.name, stored.sex) == ("cat", "Bolinha", "female")
    assert (stored.breed, stored.color, stored.size) == ("Siamês", "Creme", "small")
    assert (stored.birth_date, stored.birth_date_estimated) == (date(2025, 11, 6), True)
    assert (stored.weight_grams, stored.sterilized) == (4200, True)
    assert stored.microchip == "985112000000777" and stored.photo_id == photo.id
    assert (stored.status, stored.registered_on, stored.late_registration) == (
        "active",
        TODAY,
        False,
    )
    assert stored.activated_at == NOW
    assert stored.owner_id == owner.id and stored.registered_by_id == owner.id
    assert stored.residence_key == services.owner_residence_key(owner)
    assert stored.api_client_id is None


def test_bjp_13_par1_vaccination_row_keeps_every_field_of_the_proof(gru) -> None:
    owner = factories.user()
    animal = _register(
        owner,
        gru,
        vaccination=vaccine(
            manufacturer=" Virbac ",
            manufactured_on=date(2025, 6, 1),
            expires_on=date(2027, 6, 1),
            establishment=" Clínica  Vida ",
        ),
    )
    [shot] = animal.vaccinations
    db.session.expire_all()
    shot = db.session.get(type(shot), shot.id)
    assert shot.vaccine == "rabies"
    assert (shot.vaccine_name, shot.batch, shot.manufacturer) == ("Rabisin", "L1", "Virbac")
    assert (shot.manufactured_on, shot.expires_on) == (date(2025, 6, 1), date(2027, 6, 1))
    # applied 06/03/2026, next dose a year later (GRU 60: the programme's 12 months)
    assert (shot.applied_on, shot.next_due_on) == (date(2026, 3, 6), date(2027, 3, 6))
    assert shot.establishment == "Clínica Vida"
    assert (shot.vet_name, shot.vet_crmv) == ("Dra. Ana", "CRMV-SP 1234")
    assert shot.at_ccz is False  # typed by the owner, not given at the CCZ
    assert (shot.recorded_by_id, shot.api_client_id) == (owner.id, None)


def test_gru_22_i_owner_typed_registration_is_provisional_with_its_fee_item(gru) -> None:
    owner = factories.user()
    animal = _register(owner, gru, data=data(name="Thor"))
    [item] = services.fees_of(animal)
    assert animal.fee_item_id == item.id
    assert (item.kind, item.amount_cents, item.status) == ("registration", 2500, "pending")
    assert (item.payer_id, item.api_client_id) == (owner.id, None)
    assert (item.subject_type, item.subject_id) == ("animal", animal.id)
    assert "Thor" in item.description and animal.rga in item.description
    assert item.breakdown == [
        {"label": "Registro Geral do Animal (RGA)", "amount_cents": 2500, "article": "GRU 22 I"}
    ]
    # the owner typed the vaccine: the CCZ still has to check it, and the fee is owed
    assert animal.provisional is True and animal.definitive_at is None
    assert (animal.proof_status, animal.proof_checked_by_id) == ("awaiting", None)
    assert audit_events("animal.registered_by_api") == []
    assert _mails_to(owner) == []


def test_gru_14_par4_numbers_count_1_2_4_per_species_and_year(gru) -> None:
    owner = factories.user()
    dogs = [_register(owner, gru, data=data(name=f"Cão {i}")) for i in range(4)]
    cat = _register(owner, gru, data=data(name="Mimi", species="cat"))
    next_year = _register(
        factories.user(),
        gru,
        data=data(name="Ano novo", birth_date=date(2026, 9, 4)),  # 4 months on 04/01/2027
        vaccination=vaccine(applied_on=date(2026, 12, 20)),
        today=date(2027, 1, 4),
    )
    assert [d.rga for d in dogs] == [format_rga("dog", 2026, n) for n in (1, 2, 3, 4)]
    assert cat.rga == format_rga("cat", 2026, 1)
    assert next_year.rga == format_rga("dog", 2027, 1)
    assert next_year.registered_on == date(2027, 1, 4)


def test_bjp_3_a_staff_typing_for_an_owner_vouch_for_the_proof(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner, vet = factories.user(), factories.user(roles=("vet",))
        animal = _register(owner, bjp, registered_by=vet)
        assert animal.registered_by_id == vet.id
        assert animal.vaccinations[0].recorded_by_id == vet.id
        # typed at the counter by CCZ staff for someone else: the proof is theirs
        assert (animal.proof_status, animal.proof_checked_by_id) == ("checked", vet.id)
        assert animal.provisional is True  # the fee (BJP 11 a) is still owed
        assert services.fees_of(animal)[0].payer_id == owner.id


def test_gru_20_establishment_registration_through_the_api(gru) -> None:
    clinic_user = factories.user()
    client, _token = issue_client("establishment", "Clínica Vida", user_id=clinic_user.id)
    owner = factories.user()
    animal = _register(owner, gru, registered_by=None, api_client=client)
    assert (animal.api_client_id, animal.registered_by_id) == (client.id, None)
    [shot] = animal.vaccinations
    assert (shot.api_client_id, shot.recorded_by_id, shot.at_ccz) == (client.id, None, False)
    # BJP 9; GRU 20: the accredited establishment answers for the vaccination it sends
    assert animal.proof_status == "checked" and animal.proof_checked_by_id is None
    # GRU 22 §2: the establishment pays for the registrations it makes
    [item] = services.fees_of(animal)
    assert (item.payer_id, item.api_client_id) == (clinic_user.id, client.id)
    assert animal.fee_item_id == item.id and animal.provisional is True
    assert _audit("animal.registered_by_api") == [
        ("Animal", str(animal.id), None, {"rga": animal.rga, "api_client_id": client.id})
    ]


def test_bjp_9_an_ngo_client_does_not_vouch_for_the_vaccination(gru) -> None:
    client, _token = issue_client("ngo", "ONG Patas")
    animal = _register(factories.user(), gru, registered_by=None, api_client=client)
    assert animal.proof_status == "awaiting" and animal.vaccinations[0].api_client_id == client.id
    assert _audit("animal.registered_by_api") == [
        ("Animal", str(animal.id), None, {"rga": animal.rga, "api_client_id": client.id})
    ]


def test_owner_without_a_complete_address_is_refused_on_the_address(gru) -> None:
    owner = factories.user(number="")
    err = _refusal(_register, owner, gru)
    assert (err.field, err.code) == ("owner.address", "required")
    assert _animals_of(owner) == []


# --------------------------------------------------------------------------------------------
# Rabies proof per city (BJP 6, 6 §ú; GRU 15 V; VV 12, CABO 19 and CAB ask for none)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "article"), [("guarulhos", "GRU 15 V"), ("bjp", "BJP 6")])
def test_bjp_6_no_proof_and_no_ccz_choice_is_refused_citing_the_article(
    make_app, key, article
) -> None:
    with profile(make_app, key) as prof:
        owner = factories.user()
        err = _refusal(_register, owner, prof, vaccination=None)
        assert (err.field, err.code) == ("rabies_vaccination", "missing_vaccination")
        assert f"({article})" in err.message
        assert _animals_of(owner) == []


@pytest.mark.parametrize(
    ("key", "fee"), [("vilavelha", True), ("cabo", False), ("cabeceira", False)]
)
def test_vv_12_cabo_19_cab_no_rabies_demand_registers_active_without_vaccine(
    make_app, key, fee
) -> None:
    with profile(make_app, key) as prof:
        owner = factories.user()
        animal = _register(owner, prof, vaccination=None)
        assert (animal.status, animal.activated_at, animal.vaccinations) == ("active", NOW, [])
        assert animal.proof_status is None
        items = services.fees_of(animal)
        if fee:  # VV 12 §4: a fee outside the programme; the RGA waits for it
            assert [(i.kind, i.amount_cents) for i in items] == [("registration", 2500)]
            assert items[0].breakdown[0]["article"] == "VV 12 §4"
            assert animal.provisional is True and animal.definitive_at is None
        else:  # CABO 19, CAB: nothing to pay, nothing to check: definitive at once
            assert items == [] and animal.fee_item_id is None
            assert animal.provisional is False and animal.definitive_at is not None
        assert _definitive_mails(owner) == []  # start() never mails; only a later change does


def test_bjp_6_par_u_vaccinate_at_the_ccz_leaves_the_registration_pending(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        animal = _register(owner, bjp, vaccination=None, vaccinate_at_ccz=True)
        assert animal.rga == format_rga("dog", 2026, 1)  # the number is issued at once
        assert (animal.status, animal.activated_at, animal.vaccinations) == ("pending", None, [])
        assert animal.proof_status is None and animal.provisional is True
        assert [i.amount_cents for i in services.fees_of(animal)] == [2500]


def test_gru_15_v_input_problems_of_animal_and_vaccine_are_reported_together(gru) -> None:
    owner = factories.user()
    with pytest.raises(services.AnimalErrors) as err:
        _register(owner, gru, data=data(name="  "), vaccination=vaccine(batch=" "))
    assert _codes(err.value.errors) == [
        ("animal.name", "required"),
        ("rabies_vaccination.batch", "required"),
    ]
    assert _animals_of(owner) == []


def test_bjp_13_vaccination_on_the_birth_day_is_accepted_the_day_before_refused(gru) -> None:
    owner = factories.user()
    born = date(2025, 11, 16)  # 120 days old today
    with pytest.raises(services.AnimalErrors) as err:
        _register(
            owner,
            gru,
            data=data(birth_date=born),
            vaccination=vaccine(applied_on=born - timedelta(days=1)),
        )
    assert _codes(err.value.errors) == [("rabies_vaccination.date", "invalid")]
    animal = _register(owner, gru, data=data(birth_date=born), vaccination=vaccine(applied_on=born))
    assert animal.vaccinations[0].applied_on == born


# --------------------------------------------------------------------------------------------
# A repeated submission (the wizard's double tap)
# --------------------------------------------------------------------------------------------


def _guarded(owner, prof, **kwargs) -> Animal:  # type: ignore[no-untyped-def]
    return _register(owner, prof, guard_resubmission=True, **kwargs)


def test_resubmission_of_the_same_animal_is_refused_with_the_first_rga(gru) -> None:
    owner = factories.user()
    first = _guarded(owner, gru)
    with pytest.raises(services.AlreadyRegistered) as err:
        _guarded(owner, gru, data=data(name=" REX "))  # the same name, as typed again
    assert (err.value.field, err.value.code) == (None, "already_registered")
    assert err.value.animal is first and first.rga in err.value.message
    assert _animals_of(owner) == [first]
    # no number was spent on the refused submission
    assert services.issue_rga("dog", TODAY) == format_rga("dog", 2026, 2)


def test_without_the_guard_the_same_animal_may_be_registered_twice(gru) -> None:
    owner = factories.user()
    first = _register(owner, gru)
    second = _register(owner, gru)
    assert [a.rga for a in _animals_of(owner)] == [first.rga, second.rga]
    assert second.rga == format_rga("dog", 2026, 2)


@pytest.mark.parametrize(
    "change",
    ["owner", "species", "name", "birth_date", "closed"],
)
def test_resubmission_guard_only_catches_the_same_animal_of_the_same_owner(gru, change) -> None:
    owner = factories.user()
    first = _guarded(owner, gru)
    who, again = owner, data()
    if change == "owner":
        who = factories.user(number="900")
    elif change == "species":
        again = data(species="cat")
    elif change == "name":
        again = data(name="Rex II")
    elif change == "birth_date":
        again = data(birth_date=first.birth_date - timedelta(days=1))
    else:
        first.status = "closed"
        db.session.flush()
    second = _guarded(who, gru, data=again, registered_by=who)
    assert second.id != first.id and second.rga != first.rga


@pytest.mark.parametrize(("seconds_ago", "refused"), [(599, True), (600, True), (601, False)])
def test_resubmission_window_is_ten_minutes_inclusive(gru, seconds_ago, refused) -> None:
    owner = factories.user()
    first = _guarded(owner, gru)
    first.registered_at = NOW - timedelta(seconds=seconds_ago)
    db.session.flush()
    if refused:
        with pytest.raises(services.AlreadyRegistered) as err:
            _guarded(owner, gru)
        assert err.value.animal is first
    else:
        assert _guarded(owner, gru).id != first.id


def test_resubmission_names_the_first_of_two_earlier_registrations(gru) -> None:
    owner = factories.user()
    first = _register(owner, gru)
    second = _register(owner, gru)
    first.color = "Preto"  # an update (on PostgreSQL the row moves to the end of the table)
    db.session.flush()
    with pytest.raises(services.AlreadyRegistered) as err:
        _guarded(owner, gru)
    assert err.value.animal is first and err.value.animal is not second
    assert first.rga in err.value.message


# --------------------------------------------------------------------------------------------
# Consequences recorded on the owner (VV 23 V)
# --------------------------------------------------------------------------------------------


def test_vv_23_v_a_signed_commitment_bars_the_registration_on_the_cpf(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        owner = factories.user()
        agent = factories.user(roles=("agent",))
        doc = enforcement.issue_document(
            vv,
            kind="commitment",
            agent=agent,
            addressee=enforcement.Addressee(owner.full_name, owner.cpf),
            fact="Não quer mais ficar com o animal",
            place="Rua A, 10",
            occurred_at=datetime(2026, 3, 2, 13, 0, tzinfo=UTC),
            legal_provision="VV 23 V",
            agent_title="Agente sanitário",
        )
        _served(vv, doc, agent)
        err = _refusal(_register, owner, vv, vaccination=None)
        assert (err.field, err.code) == ("owner.cpf", "consequence")
        assert doc.number in err.message and "VV 23 V" in err.message
        assert _animals_of(owner) == []
        # another person at the same address is not barred
        other = factories.user(number=owner.number)
        assert _register(other, vv, vaccination=None).status == "active"


# --------------------------------------------------------------------------------------------
# Household limit (GRU 37; BJP 17; CABO 33 §ú; CAB 31; VV 2)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("existing", [1, 2, 4])
def test_gru_37_below_the_limit_the_animal_is_registered_and_counted(gru, existing) -> None:
    # GRU 37: at most 5 dogs and cats older than 120 days; n + 1 <= 5 for n = 1, 2, 4
    owner = factories.user()
    fill_household(owner, existing, on=TODAY)
    key = services.owner_residence_key(owner)
    _register(owner, gru, data=data(birth_date=TODAY - timedelta(days=121)))
    assert household_count(key, TODAY, gru) == existing + 1


def test_gru_37_the_sixth_animal_older_than_120_days_is_refused(gru) -> None:
    owner = factories.user()
    fill_household(owner, 5, on=TODAY)
    # 121 days old ("idade superior a 120 dias"): it counts, 5 + 1 > 5
    with pytest.raises(services.HouseholdLimitExceeded) as err:
        _register(owner, gru, data=data(birth_date=TODAY - timedelta(days=121)))
    assert (err.value.field, err.value.code, err.value.article) == (
        "owner.address",
        "household_limit",
        "GRU 37",
    )
    assert "já tem 5 cães" in err.value.message and "120 dias" in err.value.message
    assert "limite por residência é 5" in err.value.message
    assert _animals_of(owner) == []


def test_gru_37_an_animal_of_exactly_120_days_does_not_count_yet(gru) -> None:
    owner = factories.user()
    fill_household(owner, 5, on=TODAY)
    # born 16/11/2025: 120 days old today, not "superior a 120": the household stays at 5
    animal = _register(owner, gru, data=data(birth_date=date(2025, 11, 16)))
    assert animal.status == "active"
    assert household_count(services.owner_residence_key(owner), TODAY, gru) == 5


def test_gru_37_par2_a_condominium_flat_is_not_counted(gru) -> None:
    owner = factories.user(housing_type="apartment_condo")
    fill_household(owner, 5, on=TODAY)
    assert _register(owner, gru).status == "active"


@pytest.mark.parametrize(("born_days_ago", "refused"), [(90, False), (91, True)])
def test_bjp_17_ten_animals_older_than_90_days(make_app, born_days_ago, refused) -> None:
    # BJP 17: "mais de 10 (dez) cães ou gatos ... com idade superior a 90 (noventa) dias";
    # born 16/12/2025 is 90 days old today (and 3 months: BJP 2 §2 window opens today)
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        fill_household(owner, 10, on=TODAY)
        birth = TODAY - timedelta(days=born_days_ago)
        if not refused:
            assert _register(owner, bjp, data=data(birth_date=birth)).status == "active"
            return
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            _register(owner, bjp, data=data(birth_date=birth))
        assert (err.value.code, err.value.article) == ("household_limit", "BJP 17")
        assert "já tem 10 cães" in err.value.message and "90 dias" in err.value.message
        assert "limite por residência é 10" in err.value.message
        # BJP 17 §6: the requests for the special licence closed in 2010: no link, the article
        assert err.value.licence_url is None and "(BJP 17 §6)" in err.value.message


def test_bjp_17_the_tenth_animal_is_still_allowed(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        owner = factories.user()
        fill_household(owner, 9, on=TODAY)
        _register(owner, bjp, data=data(birth_date=TODAY - timedelta(days=91)))
        assert household_count(services.owner_residence_key(owner), TODAY, bjp) == 10


@pytest.mark.parametrize(
    ("key", "article", "licence"), [("cabo", "CABO 33 §ú", False), ("cabeceira", "CAB 31", True)]
)
def test_cabo_33_par_u_and_cab_31_ten_animals_older_than_90_days(
    make_app, key, article, licence
) -> None:
    with profile(make_app, key) as prof:
        owner = factories.user()
        fill_household(owner, 9, on=TODAY)
        assert _register(owner, prof, vaccination=None).status == "active"  # the 10th
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            _register(owner, prof, vaccination=None, data=data(name="Onze"))
        assert (err.value.field, err.value.code, err.value.article) == (
            "owner.address",
            "household_limit",
            article,
        )
        assert "já tem 10 cães" in err.value.message and "limite por residência é 10" in (
            err.value.message
        )
        # CABO 33 §ú forbids more; CAB 31 §1 makes the house a private kennel (its request)
        assert (err.value.licence_url is not None) is licence


def test_vv_2_keeping_animals_is_free_no_household_limit(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        owner = factories.user()
        fill_household(owner, 12, on=TODAY)
        assert _register(owner, vv, vaccination=None).status == "active"


def test_gru_37_the_household_is_counted_on_the_registration_day(gru) -> None:
    # registered on a day 400 days ago: five animals at the residence were born the day after,
    # so on that day none of them counts (they are older than 120 days only now)
    real_today = services.local_today(gru)
    day = real_today - timedelta(days=400)
    owner = factories.user()
    key = services.owner_residence_key(owner)
    neighbour = factories.user(number=owner.number)
    for i in range(5):
        factories.animal(neighbour, birth_date=day + timedelta(days=1), name=f"Filhote {i}")
    assert household_count(key, real_today, gru) == 5 and household_count(key, day, gru) == 0
    animal = _register(
        owner,
        gru,
        data=data(birth_date=day - timedelta(days=130)),
        vaccination=vaccine(applied_on=day - timedelta(days=10)),
        today=day,
    )
    assert animal.registered_on == day and animal.rga == format_rga("dog", day.year, 1)


# --------------------------------------------------------------------------------------------
# Registration at an adoption (VV 28 §1; GRU 88 §2; VV 12 §3)
# --------------------------------------------------------------------------------------------


def test_gru_88_par2_adoption_with_vaccination_is_active_free_and_kept_by_who_registered(
    gru,
) -> None:
    adopter, ngo_person = factories.user(), factories.user()
    client, _token = issue_client("ngo", "ONG Patas")
    animal = services.register_animal_for_adoption(
        adopter=adopter,
        data=data(name="Paçoca"),
        vaccination=vaccine(),
        registered_by=ngo_person,
        profile=gru,
        today=TODAY,
        api_client=client,
    )
    assert (animal.owner_id, animal.registered_by_id, animal.api_client_id) == (
        adopter.id,
        ngo_person.id,
        client.id,
    )
    assert (animal.status, animal.activated_at) == ("active", NOW)
    [shot] = animal.vaccinations
    assert (shot.applied_on, shot.recorded_by_id, shot.api_client_id) == (
        date(2026, 3, 6),
        ngo_person.id,
        client.id,
    )
    # VV 12 §3: the adoption covers the registration, no fee
    assert services.fees_of(animal) == [] and animal.fee_item_id is None
    assert animal.proof_status == "awaiting"


def test_gru_88_par2_adoption_without_vaccination_is_pending(gru) -> None:
    adopter = factories.user()
    animal = services.register_animal_for_adoption(
        adopter=adopter, data=data(), vaccination=None, registered_by=None, profile=gru, today=TODAY
    )
    assert (animal.status, animal.activated_at, animal.registered_by_id) == ("pending", None, None)
    assert services.fees_of(animal) == [] and animal.provisional is True


def test_gru_37_adoption_is_refused_above_the_household_limit(gru) -> None:
    adopter = factories.user()
    fill_household(adopter, 5, on=TODAY)
    with pytest.raises(services.HouseholdLimitExceeded) as err:
        services.register_animal_for_adoption(
            adopter=adopter,
            data=data(birth_date=TODAY - timedelta(days=121)),  # counts: older than 120 days
            vaccination=vaccine(),
            registered_by=None,
            profile=gru,
            today=TODAY,
        )
    assert (err.value.code, err.value.article) == ("household_limit", "GRU 37")


# --------------------------------------------------------------------------------------------
# Staff approval of a pending registration (BJP 6 §ú; GRU 15 V)
# --------------------------------------------------------------------------------------------


def _pending(prof, **kwargs) -> Animal:  # type: ignore[no-untyped-def]
    owner = factories.user()
    return _register(owner, prof, vaccination=None, vaccinate_at_ccz=True, **kwargs)


@pytest.mark.parametrize("status", ["active", "closed"])
def test_bjp_6_par_u_only_a_pending_registration_is_approved(gru, status) -> None:
    staff = factories.user(roles=("vet",))
    animal = factories.animal(factories.user(), status=status)
    err = _refusal(
        services.approve_registration, animal, approved_by=staff, profile=gru, today=TODAY
    )
    assert (err.field, err.code) == (None, "invalid")
    assert animal.status == status and audit_events("animal.approved") == []


@pytest.mark.parametrize(("key", "article"), [("guarulhos", "GRU 15 V"), ("bjp", "BJP 6")])
def test_bjp_6_approval_needs_a_current_vaccination_on_record(make_app, key, article) -> None:
    with profile(make_app, key) as prof:
        staff = factories.user(roles=("vet",))
        animal = _pending(prof, data=data(birth_date=TODAY - timedelta(days=900)))
        # a shot of 11/02/2025, due again 11/02/2026: not current on 16/03/2026
        services.record_vaccination(
            animal,
            vaccine(applied_on=TODAY - timedelta(days=400)),
            recorded_by=staff,
            at_ccz=True,
            today=TODAY,
        )
        assert animal.status == "pending"
        err = _refusal(
            services.approve_registration, animal, approved_by=staff, profile=prof, today=TODAY
        )
        assert (err.field, err.code) == ("rabies_vaccination", "missing_vaccination")
        assert f"({article})" in err.message
        assert (animal.status, animal.activated_at) == ("pending", None)
        assert audit_events("animal.approved") == []


def test_bjp_6_a_refused_proof_then_approved_activates_the_registration(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        staff = factories.user(roles=("vet",))
        owner = factories.user()
        animal = _register(owner, bjp)  # owner-typed, current vaccine of 06/03/2026
        provisional.refuse_proof(animal, staff, "Carteira ilegível")
        assert animal.status == "pending"
        services.approve_registration(animal, approved_by=staff, profile=bjp, today=TODAY)
        assert (animal.status, animal.activated_at) == ("active", NOW)
        assert (animal.proof_status, animal.proof_checked_by_id) == ("checked", staff.id)
        assert _audit("animal.approved") == [("Animal", str(animal.id), None, {"rga": animal.rga})]


def test_cabo_19_approval_without_rabies_demand_makes_the_rga_definitive(make_app) -> None:
    with profile(make_app, "cabo") as cabo:
        staff = factories.user(roles=("vet",))
        animal = _pending(cabo, data=data(name="Pipoca"))
        assert animal.provisional is True
        services.approve_registration(animal, approved_by=staff, profile=cabo, today=TODAY)
        assert (animal.status, animal.activated_at) == ("active", NOW)
        assert (animal.proof_status, animal.proof_checked_by_id) == ("checked", staff.id)
        # nothing to pay in CABO: definitive now, and the owner is told
        assert animal.provisional is False and animal.definitive_at is not None
        assert _audit("animal.approved") == [("Animal", str(animal.id), None, {"rga": animal.rga})]
        [mail] = _definitive_mails(animal.owner)
        assert animal.rga in mail.subject and "Pipoca" in mail.body and animal.rga in mail.body


def test_vv_12_approval_without_rabies_demand_keeps_the_fee_pending(make_app) -> None:
    with profile(make_app, "vilavelha") as vv:
        staff = factories.user(roles=("agent",))
        animal = _pending(vv)
        services.approve_registration(animal, approved_by=staff, profile=vv, today=TODAY)
        assert (animal.status, animal.activated_at) == ("active", NOW)
        assert animal.proof_checked_by_id == staff.id
        assert animal.provisional is True and _definitive_mails(animal.owner) == []


# --------------------------------------------------------------------------------------------
# Recording a vaccination (BJP 13 §1; BJP 6 §ú)
# --------------------------------------------------------------------------------------------


def test_gru_21_no_vaccination_on_a_closed_rga(gru) -> None:
    animal = factories.animal(factories.user(), status="closed")
    err = _refusal(
        services.record_vaccination,
        animal,
        vaccine(),
        recorded_by=None,
        at_ccz=True,
        today=TODAY,
    )
    assert (err.field, err.code) == (None, "invalid")
    assert animal.vaccinations == [] and audit_events("animal.vaccinated") == []


def test_bjp_13_a_recorded_shot_cannot_precede_the_birth(gru) -> None:
    animal = _pending(gru, data=data(birth_date=date(2025, 11, 16)))
    with pytest.raises(services.AnimalErrors) as err:
        services.record_vaccination(
            animal,
            vaccine(applied_on=date(2025, 11, 15)),
            recorded_by=None,
            at_ccz=True,
            today=TODAY,
        )
    assert _codes(err.value.errors) == [("rabies_vaccination.date", "invalid")]
    assert animal.vaccinations == [] and animal.status == "pending"


def test_bjp_6_par_u_shot_at_the_ccz_activates_and_is_checked_by_the_vet(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        vet = factories.user(roles=("vet",))
        animal = _pending(bjp)
        shot = services.record_vaccination(
            animal, vaccine(applied_on=TODAY), recorded_by=vet, at_ccz=True, today=TODAY
        )
        assert (animal.status, animal.activated_at) == ("active", NOW)
        assert (shot.vaccine, shot.at_ccz, shot.recorded_by_id, shot.api_client_id) == (
            "rabies",
            True,
            vet.id,
            None,
        )
        assert shot.next_due_on == date(2027, 3, 16)  # BJP 13: yearly
        assert (animal.proof_status, animal.proof_checked_by_id) == ("checked", vet.id)
        assert _audit("animal.vaccinated") == [
            ("Animal", str(animal.id), vet.id, {"rga": animal.rga})
        ]


def test_bjp_6_par_u_shot_recorded_by_nobody_is_audited_without_an_actor(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        animal = _pending(bjp)
        shot = services.record_vaccination(
            animal, vaccine(), recorded_by=None, at_ccz=True, today=TODAY
        )
        assert shot.recorded_by_id is None and animal.status == "active"
        assert (animal.proof_status, animal.proof_checked_by_id) == ("checked", None)
        assert _audit("animal.vaccinated") == [
            ("Animal", str(animal.id), None, {"rga": animal.rga})
        ]


def test_bjp_13_a_shot_typed_outside_the_ccz_activates_but_is_not_checked(make_app) -> None:
    with profile(make_app, "bjp") as bjp:
        animal = _pending(bjp)
        owner = animal.owner
        services.record_vaccination(animal, vaccine(), recorded_by=owner, at_ccz=False, today=TODAY)
        assert (animal.status, animal.activated_at) == ("active", NOW)
        assert (animal.proof_status, animal.proof_checked_by_id) == (None, None)
        assert _audit("animal.vaccinated") == [
            ("Animal", str(animal.id), owner.id, {"rga": animal.rga})
        ]


@pytest.mark.parametrize(("due_days", "current"), [(-1, False), (0, True), (1, True)])
def test_bjp_13_the_next_due_date_given_decides_whether_the_shot_is_current(
    make_app, due_days, current
) -> None:
    # applied 200 days ago (28/08/2025); the vet wrote the next dose for yesterday, today or
    # tomorrow: current up to and including that day
    with profile(make_app, "bjp") as bjp:
        vet = factories.user(roles=("vet",))
        animal = _pending(bjp, data=data(birth_date=TODAY - timedelta(days=900)))
        services.record_vaccination(
            animal,
            vaccine(
                applied_on=TODAY - timedelta(days=200),
                next_due_on=TODAY + timedelta(days=due_days),
            ),
            recorded_by=vet,
            at_ccz=True,
            today=TODAY,
        )
        if current:
            assert (animal.status, animal.activated_at) == ("active", NOW)
            assert (animal.proof_status, animal.proof_checked_by_id) == ("checked", vet.id)
        else:
            assert (animal.status, animal.activated_at) == ("pending", None)
            assert (animal.proof_status, animal.proof_checked_by_id) == (None, None)
        assert len(audit_events("animal.vaccinated")) == 1


def test_bjp_13_a_shot_past_due_on_an_active_animal_changes_nothing_else(gru) -> None:
    owner = factories.user()
    animal = factories.animal(owner, birth_date=TODAY - timedelta(days=900))
    before = animal.activated_at
    services.record_vaccination(
        animal,
        vaccine(applied_on=TODAY - timedelta(days=400)),  # due 11/02/2026: past
        recorded_by=owner,
        at_ccz=True,
        today=TODAY,
    )
    assert (animal.status, animal.activated_at) == ("active", before)
    assert animal.proof_status is None


def test_gru_20_establishment_records_a_shot_through_the_api(gru) -> None:
    client, _token = issue_client("establishment", "Clínica Vida")
    animal = _pending(gru)
    shot = services.record_vaccination(
        animal, vaccine(), recorded_by=None, at_ccz=False, today=TODAY, api_client=client
    )
    assert (shot.api_client_id, shot.at_ccz) == (client.id, False)
    assert animal.status == "active" and animal.proof_status == "checked"
    assert _audit("animal.vaccinated") == [
        ("Animal", str(animal.id), None, {"rga": animal.rga, "api_client_id": client.id})
    ]


def test_bjp_9_an_ngo_client_records_a_shot_that_still_needs_the_check(gru) -> None:
    client, _token = issue_client("ngo", "ONG Patas")
    animal = _pending(gru)
    shot = services.record_vaccination(
        animal, vaccine(), recorded_by=None, at_ccz=False, today=TODAY, api_client=client
    )
    assert shot.api_client_id == client.id and animal.status == "active"
    assert animal.proof_status is None
    assert _audit("animal.vaccinated") == [
        ("Animal", str(animal.id), None, {"rga": animal.rga, "api_client_id": client.id})
    ]


# --------------------------------------------------------------------------------------------
# The fees of an animal
# --------------------------------------------------------------------------------------------


def test_gru_22_fees_of_lists_only_this_animals_items_oldest_first(gru) -> None:
    owner = factories.user()
    animal = _register(owner, gru)
    other = _register(owner, gru, data=data(name="Outro"))
    [first] = services.fees_of(animal)
    copy = factories.make_item(owner, kind="card_copy", subject_type="animal", subject_id=animal.id)
    factories.make_item(owner, kind="adoption", subject_type="listing", subject_id=animal.id)
    first.description = first.description + " (revisto)"  # moves the row on PostgreSQL
    db.session.flush()
    assert [i.id for i in services.fees_of(animal)] == [first.id, copy.id]
    assert [i.subject_id for i in services.fees_of(other)] == [other.id]
    assert db.session.scalar(select(func.count(PaymentItem.id))) == 4


# --------------------------------------------------------------------------------------------
# The number (GRU 14 §4; BJP 4): one per animal, in sequence per species and year
# --------------------------------------------------------------------------------------------


def test_gru_14_par_4_numbers_follow_each_other_per_species_and_year(gru) -> None:
    # The first, second and fourth dog of 2026 and the first cat: no number is skipped or
    # repeated, and the cats count on their own (the number distinguishes the species).
    owner = factories.user()
    dogs = [_register(owner, gru, data=data(name=f"Cão {i}", microchip=None)).rga for i in range(4)]
    cat = _register(owner, gru, data=data(name="Mimi", species="cat")).rga
    assert dogs == [format_rga("dog", 2026, n) for n in (1, 2, 3, 4)]
    assert cat == format_rga("cat", 2026, 1)
    counter = db.session.get(RgaCounter, ("dog", 2026))
    assert counter is not None and counter.last_value == 4

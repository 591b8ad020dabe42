"""The household limit at its legal edges (issue 16): the limit itself and limit + 1, counts of
1, 2 and 4 added at once, the last day an animal does not count and the first day it does, two
profiles side by side, omitted inputs and the error codes.

Expected values are worked from the articles by hand in the comments, never read from the code:
- GRU 37: "no máximo 5 (cinco) espécimes caninos e felinos, no total, com idade superior a 120
  (cento e vinte) dias em cada residência"; §2 leaves flats in condominium buildings to other
  legislation; §1 gives the special licence above 5.
- BJP 17: "mais de 10 (dez) cães ou gatos, no total, com idade superior a 90 (noventa) dias";
  §3 the special licence up to 15.
- CABO 33 §ú: not more than 10, older than 90 days; no licence.
- CAB 31: 10; above it the house is a private kennel (§1).
- VV 2: keeping dogs and cats is free, no limit.
"""

from __future__ import annotations

import io
from datetime import date, timedelta
from typing import Any

import pytest

from portal.blueprints.animals import household as hh
from portal.blueprints.animals import services
from portal.extensions import db
from tests import factories
from tests.factories import RGA_TODAY as TODAY
from tests.factories import profile_app as profile

ADULT = TODAY - timedelta(days=400)


@pytest.fixture
def gru(app):  # type: ignore[no-untyped-def]
    with app.test_request_context():
        yield app.extensions["portal_profile"]


def _house(count: int, *, birth: date = ADULT, **fields: Any):  # type: ignore[no-untyped-def]
    owner = factories.user(**fields)
    for i in range(count):
        factories.animal(owner, birth_date=birth, name=f"H{i}")
    return owner


def _key(owner) -> str:  # type: ignore[no-untyped-def]
    key = services.owner_residence_key(owner)
    assert key is not None
    return key


# -- GRU 37: the limit itself and limit + 1 -----------------------------------------------------


def test_gru_37_four_animals_may_take_a_fifth(gru) -> None:
    # 4 counted + 1 = 5 = "no máximo 5": allowed.
    services.check_household_limit(gru, _house(4), on=TODAY)


def test_gru_37_five_animals_may_not_take_a_sixth(gru) -> None:
    # 5 counted + 1 = 6 > 5: refused, code household_limit on the owner's address.
    with pytest.raises(services.HouseholdLimitExceeded) as err:
        services.check_household_limit(gru, _house(5), on=TODAY)
    assert (err.value.field, err.value.code, err.value.article) == (
        "owner.address",
        "household_limit",
        "GRU 37",
    )
    assert "já tem 5 cães e gatos com mais de 120 dias" in err.value.message
    assert "limite por residência é 5 (GRU 37)" in err.value.message
    assert "licença especial" in err.value.message and err.value.licence_url == "/licencas/pedido"


def test_gru_37_two_at_once_fit_from_three_not_from_four(gru) -> None:
    # 3 + 2 = 5: allowed; 4 + 2 = 6: refused.
    services.check_household_limit(gru, _house(3), extra=2, on=TODAY)
    with pytest.raises(services.HouseholdLimitExceeded):
        services.check_household_limit(gru, _house(4), extra=2, on=TODAY)


def test_gru_37_four_at_once_fit_an_empty_house_or_one_with_one(gru) -> None:
    # 0 + 4 = 4 and 1 + 4 = 5: allowed; 2 + 4 = 6: refused.
    services.check_household_limit(gru, _house(0), extra=4, on=TODAY)
    services.check_household_limit(gru, _house(1), extra=4, on=TODAY)
    with pytest.raises(services.HouseholdLimitExceeded):
        services.check_household_limit(gru, _house(2), extra=4, on=TODAY)


def test_gru_37_adding_nothing_that_counts_is_never_refused(gru) -> None:
    # A house already above the limit (6 > 5, e.g. from before the law) adding only animals that
    # do not count yet (extra=0) is not refused by this rule.
    services.check_household_limit(gru, _house(6), extra=0, on=TODAY)


def test_gru_37_one_animal_counts_once(gru) -> None:
    owner = _house(1)
    key = _key(owner)
    assert services.household_count(key, TODAY, gru) == 1
    assert services.household_count("nobody-lives-here", TODAY, gru) == 0


# -- GRU 37: "idade superior a 120 dias": the last day it does not count, the first it does ------


def test_gru_37_the_120th_day_does_not_count_the_121st_does(gru) -> None:
    # Born 2025-11-16: on 2026-03-16 it has lived 120 days (14 + 31 + 28 + 16 + 31 = 120):
    # not "superior a 120"; on 2026-03-17 it has 121: it counts.
    born = date(2025, 11, 16)
    assert (TODAY - born).days == 120
    assert services.counts_for_household(born, TODAY, gru) is False
    assert services.counts_for_household(born, TODAY + timedelta(days=1), gru) is True
    owner = _house(1, birth=born)
    key = _key(owner)
    assert services.household_count(key, TODAY, gru) == 0
    assert services.household_count(key, TODAY + timedelta(days=1), gru) == 1


def test_gru_37_an_animal_born_today_or_later_does_not_count(gru) -> None:
    assert services.counts_for_household(TODAY, TODAY, gru) is False
    assert services.counts_for_household(TODAY + timedelta(days=1), TODAY, gru) is False


def test_gru_37_the_young_fifth_animal_turns_the_house_full_on_its_121st_day(gru) -> None:
    # 4 adults + one born 2025-11-16: on 2026-03-16 the house counts 4 (a 5th may come);
    # on 2026-03-17 it counts 5 (no 6th).
    owner = _house(4)
    factories.animal(owner, birth_date=date(2025, 11, 16))
    services.check_household_limit(gru, owner, on=TODAY)
    with pytest.raises(services.HouseholdLimitExceeded):
        services.check_household_limit(gru, owner, on=TODAY + timedelta(days=1))


# -- what counts: dogs and cats, active or pending, at the residence ------------------------------


def test_gru_37_cats_and_pending_count_closed_do_not(gru) -> None:
    # "espécimes caninos e felinos, no total": 2 dogs + 2 cats (one pending) = 4; the closed
    # RGA (died, moved away) is no longer kept there.
    owner = _house(2)
    factories.animal(owner, species="cat", birth_date=ADULT)
    factories.animal(owner, species="cat", birth_date=ADULT, status="pending")
    factories.animal(owner, birth_date=ADULT, status="closed")
    assert services.household_count(_key(owner), TODAY, gru) == 4


def test_gru_37_only_dogs_and_cats_count(gru) -> None:
    # "espécimes caninos e felinos": a registered animal of another species (a record typed
    # before the RGA was limited to dogs and cats) is not counted: 1 dog = 1.
    owner = _house(1)
    other = factories.animal(owner, birth_date=ADULT)
    other.species = "horse"
    db.session.flush()
    assert services.household_count(_key(owner), TODAY, gru) == 1


# -- GRU 37 §2: flats in condominium buildings; omitted housing type -----------------------------


def test_gru_37_par2_rural_and_condo_are_outside_an_omitted_type_is_a_house(gru) -> None:
    # The limit is for residences "situada[s] na área urbana" (caput) and §2 sends condominium
    # flats to other legislation; a person who never said where they live is checked as a house.
    owner = _house(5, housing_type=None)
    with pytest.raises(services.HouseholdLimitExceeded):
        services.check_household_limit(gru, owner, on=TODAY)
    services.check_household_limit(gru, owner, housing_type="rural", on=TODAY)
    services.check_household_limit(gru, owner, housing_type="apartment_condo", on=TODAY)


def test_gru_37_incomplete_address_is_required_not_a_limit(gru) -> None:
    owner = factories.user(street=None)
    with pytest.raises(services.AnimalError) as err:
        services.check_household_limit(gru, owner, on=TODAY)
    assert not isinstance(err.value, services.HouseholdLimitExceeded)
    assert (err.value.field, err.value.code) == ("owner.address", "required")
    assert "endereço completo" in err.value.message


def test_gru_37_omitted_day_is_today(gru) -> None:
    # Without ``on`` the count is taken today: 5 adults born a year before today fill the house.
    owner = factories.user()
    for _ in range(5):
        factories.animal(owner, birth_date=date.today() - timedelta(days=365))
    with pytest.raises(services.HouseholdLimitExceeded):
        services.check_household_limit(gru, owner)
    services.check_household_limit(gru, _house(0))


def test_gru_37_par1_licence_link_without_a_request(app) -> None:
    # A job or the CLI has no request: the link is still the licence request page.
    prof = app.extensions["portal_profile"]
    with pytest.raises(services.HouseholdLimitExceeded) as err:
        services.check_household_limit(prof, _house(5), on=TODAY)
    assert err.value.licence_url == "/licencas/pedido"


# -- two profiles side by side -------------------------------------------------------------------


def test_bjp_17_ten_animals_older_than_90_days(make_app) -> None:
    # BJP 17: 9 + 1 = 10 allowed, 10 + 1 refused; 5 (full in Guarulhos) is far from full here.
    with profile(make_app, "bjp") as bjp:
        services.check_household_limit(bjp, _house(5), on=TODAY)
        services.check_household_limit(bjp, _house(9), on=TODAY)
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(bjp, _house(10), on=TODAY)
        assert err.value.code == "household_limit" and err.value.article == "BJP 17"
        assert "com mais de 90 dias e o limite por residência é 10" in err.value.message


def test_bjp_17_the_90th_day_does_not_count_the_91st_does(make_app) -> None:
    # Born 2025-12-16: on 2026-03-16 it has lived 15 + 31 + 28 + 16 = 90 days: not "superior a
    # 90"; the next day 91. The same animal does not count in Guarulhos until its 121st day.
    born = date(2025, 12, 16)
    assert (TODAY - born).days == 90
    with profile(make_app, "bjp") as bjp:
        assert services.counts_for_household(born, TODAY, bjp) is False
        assert services.counts_for_household(born, TODAY + timedelta(days=1), bjp) is True
        key = _key(_house(1, birth=born))
        assert services.household_count(key, TODAY, bjp) == 0
        assert services.household_count(key, TODAY + timedelta(days=1), bjp) == 1


def test_cab_31_above_ten_the_house_is_a_private_kennel(make_app) -> None:
    # CAB 31: 10 adults, an 11th makes the house a kennel (§1): refused, with the kennel words.
    with profile(make_app, "cabeceira") as cab:
        services.check_household_limit(cab, _house(9), on=TODAY)
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(cab, _house(10), on=TODAY)
        assert err.value.article == "CAB 31"
        assert "canil particular" in err.value.message
        assert err.value.licence_url == "/licencas/pedido"  # CAB 31 §2: the kennel's laudo
        assert cab.licence is not None and f"({cab.licence.article})" in err.value.message
        # the count and the limit come first, the kennel sentence is added to them
        assert err.value.message.startswith(
            "Este endereço já tem 10 cães e gatos com mais de 90 dias e o limite por residência "
            "é 10 (CAB 31)."
        )
        # a kennel city whose file has no licence rule cites its household article instead
        bare = cab.model_copy(update={"licence": None})
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(bare, _house(10), on=TODAY)
        assert "laudo anual do órgão sanitário (CAB 31)." in err.value.message


def test_cabo_33_paragrafo_unico_eleventh_refused_no_licence(make_app) -> None:
    # CABO 33 §ú: "não poderá exceder a 10": 9 + 1 allowed, 10 + 1 refused, no licence exists.
    with profile(make_app, "cabo") as cabo:
        services.check_household_limit(cabo, _house(9), on=TODAY)
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(cabo, _house(10), on=TODAY)
        assert err.value.article == "CABO 33 §ú" and err.value.licence_url is None
        assert err.value.message == (
            "Este endereço já tem 10 cães e gatos com mais de 90 dias e o limite por residência "
            "é 10 (CABO 33 §ú). A lei não permite manter mais animais na mesma residência."
        )


def test_vv_2_no_limit_even_without_an_address(make_app) -> None:
    # VV 2: no limit, so nothing is counted and no address is needed.
    with profile(make_app, "vilavelha") as vv:
        services.check_household_limit(vv, factories.user(street=None), extra=4, on=TODAY)


# -- animals move with their owner ---------------------------------------------------------------


def test_gru_37_par2_pending_animals_move_an_incomplete_address_moves_nothing(gru) -> None:
    owner = factories.user()
    pending = factories.animal(owner, status="pending")
    old = pending.residence_key
    owner.number = None  # incomplete: the animals stay where they were counted
    hh.move_animals_with_owner(owner)
    assert pending.residence_key == old
    owner.number = "777"
    hh.move_animals_with_owner(owner)
    db.session.expire(pending)
    assert pending.residence_key == services.owner_residence_key(owner) != old


def test_gru_37_par2_only_the_owner_s_animals_move(gru) -> None:
    # The neighbour's dog stays counted at the neighbour's residence when someone else moves.
    owner, neighbour = factories.user(), factories.user()
    theirs = factories.animal(neighbour)
    before = theirs.residence_key
    factories.animal(owner)
    owner.street, owner.number = "Avenida Brasil", "1000"
    hh.move_animals_with_owner(owner)
    db.session.expire(theirs)
    assert theirs.residence_key == before


# -- GRU 37 §1; BJP 17 §3, §5: a residence with a valid licence ----------------------------------


def _licensed(prof, *, base: int, new: int, on: date = TODAY):  # type: ignore[no-untyped-def]
    """A residence with ``base`` adults and a licence approved for ``base + new`` animals."""
    from portal.blueprints.licences import services as lic
    from portal.models import Vaccination

    def pdf() -> lic.Upload:
        return lic.Upload(io.BytesIO(b"%PDF-1.4 comprovante"), "comprovante.pdf")

    owner = factories.user()
    pets = []
    for _ in range(base):
        pet = factories.animal(owner, birth_date=on - timedelta(days=500), registered_on=on)
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
        pets.append(pet)
    db.session.flush()
    proofs = "sterilisation_proofs" in prof.licence.requires
    newcomers = [
        lic.NewAnimal(
            data=services.AnimalData(
                name=f"Nova {i}",
                species="dog",
                sex="female",
                birth_date=on - timedelta(days=400),
                breed="SRD",
                color="Preta",
                size="medium",
                sterilized=True,
            ),
            vaccination=services.VaccinationData(
                applied_on=on - timedelta(days=10),
                vaccine_name="Rabisin",
                batch="L2",
                vet_name="Dr. Vet",
                vet_crmv="CRMV-SP 2",
            ),
            sterilisation_proof=pdf(),
        )
        for i in range(new)
    ]
    data = lic.RequestData(
        animals_requested=base + new,
        housing_description="Quintal coberto de 200 m², canis limpos diariamente, ração e água.",
        listed=[
            lic.ListedAnimal(p.id, True, sterilisation_proof=pdf() if proofs else None)
            for p in pets
        ],
        new=newcomers,
    )
    staff = factories.user(roles=("agent",))
    licence = lic.request_licence(owner, data, profile=prof, today=on)
    lic.record_inspection(
        licence,
        staff,
        inspected_on=on,
        checklist={"space": True},
        findings="Espaço adequado.",
        satisfactory=True,
        profile=prof,
        today=on,
    )
    lic.approve(
        licence,
        staff,
        max_animals=base + new,
        covered_ids=None,
        reason=None,
        profile=prof,
        today=on,
    )
    return owner, licence


def test_gru_37_par1_licensed_limit_is_the_animals_the_licence_names(gru) -> None:
    # GRU 37 §1: a licence for 5 + 2 = 7 named animals: the residence may keep 7 (≤ 10);
    # another residence keeps the plain limit (no licence: None).
    owner, licence = _licensed(gru, base=5, new=2)
    assert services.licensed_limit(gru, licence.residence_key, TODAY) == 7
    assert services.licensed_limit(gru, _key(factories.user()), TODAY) is None


def test_gru_37_par1_iii_no_new_animal_while_the_licence_is_valid(gru) -> None:
    # GRU 37 §1 III: "Sob pena de cancelamento da licença, não poderão ser adquiridos novos cães
    # ou gatos": refused with its own code, citing §1 III and the last valid day.
    owner, licence = _licensed(gru, base=5, new=2)
    with pytest.raises(services.LicenceNewAcquisition) as err:
        services.check_household_limit(gru, owner, on=TODAY)
    assert err.value.code == "licence_new_acquisition" and err.value.article == "GRU 37 §1 III"
    day = licence.valid_until.strftime("%d/%m/%Y")
    assert f"licença especial válida até {day}. Enquanto" in err.value.message
    assert err.value.message.endswith("cancelaria a licença (GRU 37 §1 III).")


def test_bjp_17_par5_licensed_house_full_says_the_animals_are_never_replaced(make_app) -> None:
    # BJP 17 §3: licence for 10 + 3 = 13 (≤ 15); §5: the 3 above 10 are never replaced. The
    # 14th is refused citing §5 (BJP has no "no new acquisition" rule, so the code stays
    # household_limit). §6 closed requests in 2010: the test profile reopens them.
    app = make_app(PORTAL_PROFILE="bjp")
    prof = app.extensions["portal_profile"]
    prof = prof.model_copy(
        update={"licence": prof.licence.model_copy(update={"requests_accepted_until": None})}
    )
    app.extensions["portal_profile"] = prof
    with app.app_context(), app.test_request_context():
        owner, licence = _licensed(prof, base=10, new=3)
        assert services.licensed_limit(prof, licence.residence_key, TODAY) == 13
        with pytest.raises(services.HouseholdLimitExceeded) as err:
            services.check_household_limit(prof, owner, on=TODAY)
        assert err.value.code == "household_limit" and err.value.article == "BJP 17 §5"
        assert err.value.licence_url is None
        assert (
            "já tem 13 cães e gatos com mais de 90 dias; a licença da residência permite 13 "
            "agora (BJP 17 §5)." in err.value.message
        )
        assert "Os animais da licença acima de 10 não podem ser substituídos" in err.value.message

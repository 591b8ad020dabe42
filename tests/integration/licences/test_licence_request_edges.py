"""The citizen's request for an excess-animal licence and its renewal (issue 16): every refusal
with its (field, code) and the values its message interpolates, and everything a request stores
(its animals and proofs, the photos, the fee, the timeline, the audit and the e-mail), at the
edges of the law (GRU 37 §1 I-V, §2; BJP 17 §3-4, §6; CAB 31 §2; the fee where the price list has
one, GRU 22). Then the citizen's answer to the CCZ's questions."""

from __future__ import annotations

import io
import re
from dataclasses import replace
from datetime import date, timedelta

import pytest

from portal.blueprints.animals import services as animals
from portal.blueprints.licences import services
from portal.blueprints.licences.requests import open_request
from portal.extensions import db
from portal.models import AnimalStatus, ExcessLicence, LicenceStatus, PaymentItem, Vaccination
from tests import factories
from tests.integration.licences.test_licence_decision_edges import (
    _agent,
    _approve,
    _asked,
    _audited,
    _error,
    _event,
    _mail,
)
from tests.integration.licences.test_licence_rules import (
    TODAY,
    _renewable,
    adult,
    licensed_household,
    new_animal,
    pdf,
    profile_of,
    request_data,
)

EMPTY = "O arquivo está vazio."  # the upload service's refusal of an empty file
CODE = re.compile(r"^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$")


def _names(text: str, day: str) -> bool:
    """``day`` (dd/mm/yyyy) stands in ``text`` as a date of its own, not inside other characters."""
    return re.search(rf"(?<![\w/]){re.escape(day)}(?![\w/])", text) is not None


def _problems(call, *args, **kwargs) -> list[services.LicenceError]:  # type: ignore[no-untyped-def]
    """Every problem of a refused request (a single LicenceError is a list of one)."""
    error = _error(call, *args, **kwargs)
    return list(getattr(error, "errors", [error]))


def _pairs(call, *args, **kwargs) -> list[tuple[str | None, str]]:  # type: ignore[no-untyped-def]
    return [(e.field, e.code) for e in _problems(call, *args, **kwargs)]


def _household(prof, n: int, **fields):  # type: ignore[no-untyped-def]
    owner = factories.user(**fields)
    return owner, [adult(owner) for _ in range(n)]


def _empty() -> services.Upload:
    return services.Upload(io.BytesIO(b""), "vazio.pdf")


def _photo(name: str = "quintal.png") -> services.Upload:
    return services.Upload(factories.png_bytes(), name)


def _shots(pets, applied_on: date) -> None:  # type: ignore[no-untyped-def]
    """A rabies shot renewed during the licence's year (the renewal sees it on record)."""
    for pet in pets:
        pet.vaccinations.append(
            Vaccination(
                vaccine_name="Rabisin",
                batch="L9",
                vet_name="Dra. Ana",
                vet_crmv="CRMV-SP 1",
                applied_on=applied_on,
                next_due_on=applied_on + timedelta(days=365),
            )
        )
    db.session.flush()


def _ask(owner, prof, data, today=TODAY, renews=None):  # type: ignore[no-untyped-def]
    return services.request_licence(owner, data, profile=prof, today=today, renews=renews)


def _assert_proof(stored, owner, name: str = "comprovante.pdf") -> None:  # type: ignore[no-untyped-def]
    assert stored is not None
    assert (stored.purpose, stored.owner_id, stored.original_name, stored.public) == (
        "licence_proof",
        owner.id,
        name,
        False,
    )


# --------------------------------------------------------------------------------------------
# What a request stores (GRU 37 §1 I)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_i_request_stores_animals_proofs_photos_event_audit_and_mail(gru) -> None:
    # GRU 37 §1 I: the RGA of all the animals, rabies and sterilisation proofs, the housing.
    # 5 animals at home (Luna without a shot on record sends her rabies proof) + Mel and Bia
    # registered inside (Bia to be vaccinated at the CCZ): 7 animals, 8 asked (cap 10).
    owner, pets = _household(gru, 4)
    luna = adult(owner, vaccinated=False, name="Luna")
    pets.append(luna)
    data = request_data(gru, pets, asked=8)
    data.listed[4].rabies_proof = pdf()
    data.housing_description = "  Quintal coberto  de 200 m²,\n canis limpos   diariamente.  "
    bia = replace(new_animal("Bia"), vaccination=None, vaccinate_at_ccz=True)
    data.new = [new_animal("Mel"), bia]
    data.photos = [_photo("quintal.png"), _photo("canil.png")]
    licence = _ask(owner, gru, data)

    assert licence.status == LicenceStatus.REQUESTED and CODE.match(licence.code)
    assert (licence.kind, licence.holder_id, licence.animals_requested) == ("licence", owner.id, 8)
    assert licence.residence_key == animals.owner_residence_key(owner)
    assert licence.address_line == owner.address_line
    assert licence.housing_description == "Quintal coberto de 200 m², canis limpos diariamente."
    assert (licence.requested_on, licence.renews_id, licence.fee_item_id) == (TODAY, None, None)
    assert open_request(licence.residence_key) == licence

    listed, inside = licence.animals[:5], licence.animals[5:]
    assert [link.animal_id for link in listed] == [p.id for p in pets]
    assert [link.registered_inside for link in listed] == [False] * 5
    assert [link.rabies_on_record for link in listed] == [True, True, True, True, False]
    assert [link.rabies_proof for link in listed[:4]] == [None] * 4
    _assert_proof(listed[4].rabies_proof, owner)
    for link in listed:
        _assert_proof(link.sterilisation_proof, owner)
    assert len({link.sterilisation_proof_id for link in listed}) == 5

    # the animals registered inside: RGAs held by the request (provisional, never definitive)
    assert [link.registered_inside for link in inside] == [True, True]
    assert [link.animal.name for link in inside] == ["Mel", "Bia"]
    assert [link.rabies_on_record for link in inside] == [True, False]
    assert [link.rabies_proof for link in inside] == [None, None]
    for link in inside:
        _assert_proof(link.sterilisation_proof, owner)
        pet = link.animal
        assert (pet.owner_id, pet.registered_by_id) == (owner.id, owner.id)
        assert pet.provisional is True and pet.definitive_at is None and pet.rga
    assert [link.animal.status for link in inside] == [AnimalStatus.ACTIVE, AnimalStatus.PENDING]

    files = licence.files
    assert [f.kind for f in files] == ["housing", "housing"]
    assert [f.stored_file.original_name for f in files] == ["quintal.png", "canil.png"]
    for f in files:  # personal data: never public
        assert (f.stored_file_id, f.stored_file.purpose) == (f.stored_file.id, "licence_photo")
        assert (f.stored_file.owner_id, f.stored_file.public) == (owner.id, False)
        assert f.inspection_id is None

    event = _event(licence, "requested")
    assert (event.actor_id, event.note, event.detail) == (
        owner.id,
        None,
        {"animals": 7, "asked": 8},
    )
    assert [e.action for e in licence.events] == ["requested"]
    assert _audited("licence.requested", licence).detail == {"asked": 8}
    assert factories.audit_events("licence.renewal_requested") == []
    (mail,) = _mail(owner)
    assert services.document_name(gru) in mail.subject
    assert f"nº {licence.id} " in mail.body and "manter 8 " in mail.body
    assert owner.address_line in mail.body


def test_cab_31_par2_kennel_request_holds_an_rga_that_was_ready_to_be_definitive(make_app) -> None:
    # CAB 31 §2: above 10 the house is a private kennel (laudo). Cabeceira charges no RGA fee and
    # asks no rabies proof: the animal registered inside would be definitive at once, yet the
    # request holds it provisional until the laudo names it.
    with profile_of(make_app, "cabeceira") as cab:
        owner = factories.user()
        pets = [adult(owner, vaccinated=False) for _ in range(10)]
        calm = replace(new_animal("Calma"), vaccination=None, sterilisation_proof=None)
        licence = _ask(owner, cab, request_data(cab, pets, asked=11, new=[calm]))
        assert licence.kind == "kennel" and licence.animals_requested == 11
        assert [link.rabies_on_record for link in licence.animals] == [False] * 11
        assert [link.sterilisation_proof for link in licence.animals] == [None] * 11
        assert [link.rabies_proof for link in licence.animals] == [None] * 11
        inside = licence.animals[-1]
        assert inside.registered_inside is True and inside.animal.name == "Calma"
        assert inside.animal.status == AnimalStatus.ACTIVE
        assert inside.animal.provisional is True and inside.animal.definitive_at is None
        event = _event(licence, "requested")
        assert event.detail == {"animals": 11, "asked": 11}
        (mail,) = _mail(owner)
        assert services.document_name(cab) in mail.subject  # the laudo, not a licence
        assert f"nº {licence.id} " in mail.body and "manter 11 " in mail.body


# --------------------------------------------------------------------------------------------
# Every animal confirmed, with its proofs (GRU 37 §1 I; BJP 17 §4)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_i_every_animal_confirmed_and_proved_each_problem_named(gru) -> None:
    # GRU 37 §1 I: Rex is not listed, Tobi not confirmed, Luna has no shot on record and no
    # proofs; an animal of another address is listed first; the 2nd new animal has no
    # sterilisation proof. 4 at home + 2 new = 6 asked: nothing wrong with the numbers.
    owner = factories.user()
    rex, tobi = adult(owner, name="Rex"), adult(owner, name="Tobi")
    luna, nina = adult(owner, name="Luna", vaccinated=False), adult(owner, name="Nina")
    elsewhere = adult(factories.user(), name="Fora")
    data = request_data(gru, [elsewhere, tobi, luna, nina], asked=6)
    data.listed[1].confirmed = False
    data.listed[2].sterilisation_proof = None
    second = replace(new_animal("Bia"), sterilisation_proof=None)
    data.new = [new_animal("Mel"), second]
    problems = _problems(_ask, owner, gru, data)
    assert [(e.field, e.code) for e in problems] == [
        (f"animal-{rex.id}", "not_confirmed"),
        (f"animal-{tobi.id}", "not_confirmed"),
        (None, "not_at_residence"),
        (f"animal-{luna.id}", "rabies_proof"),
        (f"animal-{luna.id}", "sterilisation_proof"),
        ("new-1", "sterilisation_proof"),
    ]
    unlisted, unconfirmed, foreign, rabies, sterilisation, new = problems
    for problem, pet in ((unlisted, rex), (unconfirmed, tobi)):
        assert f"{pet.name} (RGA {pet.rga})" in problem.message
        assert problem.message.endswith("licença.")
    assert foreign.message and "Fora" not in foreign.message
    assert "Luna" in rabies.message and rabies.message.endswith("(GRU 37 §1 I).")
    assert "Luna" in sterilisation.message and sterilisation.message.endswith("(GRU 37 §1 I).")
    assert new.message.endswith(" 2 (GRU 37 §1 I).")
    # nothing stored, no animal registered inside
    assert open_request(animals.owner_residence_key(owner)) is None
    assert {p.name for p in services.residence_animals(animals.owner_residence_key(owner))} == {
        "Rex",
        "Tobi",
        "Luna",
        "Nina",
    }


def test_gru_37_par1_i_a_rabies_proof_stands_in_for_the_shot_not_on_record(gru) -> None:
    # GRU 37 §1 I "comprovantes de vacinação contra raiva": the proof sent is enough
    owner, pets = _household(gru, 5)
    luna = adult(owner, vaccinated=False)
    data = request_data(gru, [*pets, luna], asked=6)
    assert _pairs(_ask, owner, gru, data) == [(f"animal-{luna.id}", "rabies_proof")]
    data = request_data(gru, [*pets, luna], asked=6)
    data.listed[5].rabies_proof = pdf()
    licence = _ask(owner, gru, data)
    assert licence.animals[5].rabies_on_record is False
    _assert_proof(licence.animals[5].rabies_proof, owner)


def test_bjp_17_par4_rabies_proof_cites_bjp_and_no_sterilisation_proof_is_asked(make_app) -> None:
    # BJP 17 §4 asks for the RGAs, the rabies proofs and the housing: no sterilisation proof
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner, pets = _household(bjp, 10)
        luna = adult(owner, vaccinated=False, name="Luna")
        data = request_data(bjp, [*pets, luna], asked=11)
        assert all(item.sterilisation_proof is None for item in data.listed)
        (problem,) = _problems(_ask, owner, bjp, data)
        assert (problem.field, problem.code) == (f"animal-{luna.id}", "rabies_proof")
        assert "Luna" in problem.message and problem.message.endswith("(BJP 17 §4).")
        data.listed[10].rabies_proof = pdf()
        licence = _ask(owner, bjp, data)
        assert [link.sterilisation_proof for link in licence.animals] == [None] * 11
        assert [link.rabies_on_record for link in licence.animals] == [True] * 10 + [False]


# --------------------------------------------------------------------------------------------
# The housing and the number asked (GRU 37 §1, §1 I; BJP 17 §3; CAB 31 §2)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_i_housing_description_at_least_20_characters_once_collapsed(gru) -> None:
    # GRU 37 §1 I "descrição das condições de alojamento": 19 characters (after the inner runs
    # of spaces are collapsed) are refused, 20 accepted
    owner, pets = _household(gru, 6)
    nineteen = "  abcdefghi \n\t  jklmnopqr  "  # "abcdefghi jklmnopqr" = 19
    for text in (nineteen, "   ", "", None):
        data = request_data(gru, pets, asked=6)
        data.housing_description = text
        assert _pairs(_ask, owner, gru, data) == [("housing_description", "required")]
    data = request_data(gru, pets, asked=6)
    data.housing_description = "  abcdefghij \n\t  jklmnopqr  "  # 20
    assert _ask(owner, gru, data).housing_description == "abcdefghij jklmnopqr"


def test_cab_31_par2_the_inspection_also_needs_the_housing_described(make_app) -> None:
    # CAB 31 §2: the agent's inspection examines the housing; a profile asking neither the
    # description nor the inspection takes a short one
    with profile_of(make_app, "cabeceira") as cab:
        owner, pets = _household(cab, 11)
        data = request_data(cab, pets, asked=11)
        data.housing_description = "Canil."
        assert _pairs(_ask, owner, cab, data) == [("housing_description", "required")]
    with profile_of(make_app, "guarulhos", requires=["rga_all"]) as bare:
        owner, pets = _household(bare, 6)
        data = request_data(bare, pets, asked=6)
        data.housing_description = "Canil."
        assert _ask(owner, bare, data).housing_description == "Canil."


def test_gru_37_par1_asking_the_limit_of_5_is_refused_6_accepted(gru) -> None:
    # GRU 37 caput: up to 5 need no licence; §1: the licence is for more than 5
    owner, pets = _household(gru, 5)
    (problem,) = _problems(_ask, owner, gru, request_data(gru, pets, asked=5))
    assert (problem.field, problem.code) == ("animals_requested", "not_above_limit")
    assert " 5 " in problem.message and "(GRU 37)" in problem.message
    assert _ask(owner, gru, request_data(gru, pets, asked=6)).animals_requested == 6


def test_bjp_17_par3_asking_the_limit_of_10_is_refused_11_accepted(make_app) -> None:
    # BJP 17 caput: up to 10; §3: the licence is for more than 10
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner, pets = _household(bjp, 10)
        (problem,) = _problems(_ask, owner, bjp, request_data(bjp, pets, asked=10))
        assert (problem.field, problem.code) == ("animals_requested", "not_above_limit")
        assert " 10 " in problem.message and "(BJP 17)" in problem.message
        assert _ask(owner, bjp, request_data(bjp, pets, asked=11)).animals_requested == 11


def test_gru_37_par1_cap_10_accepted_11_refused(gru) -> None:
    # GRU 37 §1 "não ultrapassando o limite de 10"
    owner, pets = _household(gru, 6)
    (problem,) = _problems(_ask, owner, gru, request_data(gru, pets, asked=11))
    assert (problem.field, problem.code) == ("animals_requested", "above_cap")
    assert " 10 " in problem.message and "(GRU 37 §1)" in problem.message
    assert _ask(owner, gru, request_data(gru, pets, asked=10)).animals_requested == 10


def test_gru_37_par1_the_cap_cites_its_own_article_where_the_profile_names_one(gru) -> None:
    # the shipped profiles cite the rule's article for the cap; a profile naming one shows it
    rule = gru.licence.model_copy(
        update={"cites": {**gru.licence.cites, "max_animals": "GRU 37 §1 (teto)"}}
    )
    prof = gru.model_copy(update={"licence": rule})
    owner, pets = _household(prof, 6)
    (problem,) = _problems(_ask, owner, prof, request_data(prof, pets, asked=11))
    assert (problem.field, problem.code) == ("animals_requested", "above_cap")
    assert "(GRU 37 §1 (teto))" in problem.message


def test_bjp_17_par3_cap_15_accepted_16_refused(make_app) -> None:
    # BJP 17 §3 "não ultrapassando o limite de 15"
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner, pets = _household(bjp, 11)
        (problem,) = _problems(_ask, owner, bjp, request_data(bjp, pets, asked=16))
        assert (problem.field, problem.code) == ("animals_requested", "above_cap")
        assert " 15 " in problem.message and "(BJP 17 §3)" in problem.message
        assert _ask(owner, bjp, request_data(bjp, pets, asked=15)).animals_requested == 15


def test_cab_31_par2_the_law_sets_no_cap(make_app) -> None:
    # CAB 31 §1-2: the kennel's number is the laudo's; the law names no maximum
    with profile_of(make_app, "cabeceira") as cab:
        owner, pets = _household(cab, 11)
        assert _ask(owner, cab, request_data(cab, pets, asked=40)).animals_requested == 40


def test_gru_37_par1_asking_fewer_than_the_animals_listed_is_refused(gru) -> None:
    # GRU 37 §1 I: all the animals of the residence are in the request. 7 at home, 6 asked:
    # refused; 7 asked: accepted. 5 at home + 2 registered inside count as 7 too.
    owner, pets = _household(gru, 7)
    (problem,) = _problems(_ask, owner, gru, request_data(gru, pets, asked=6))
    assert (problem.field, problem.code) == ("animals_requested", "fewer_than_listed")
    assert " 7 " in problem.message
    assert _ask(owner, gru, request_data(gru, pets, asked=7)).animals_requested == 7
    other, five = _household(gru, 5)
    two = [new_animal("Mel"), new_animal("Bia")]
    (problem,) = _problems(_ask, other, gru, request_data(gru, five, asked=6, new=two))
    assert (problem.field, problem.code) == ("animals_requested", "fewer_than_listed")
    assert " 7 " in problem.message


def test_gru_37_par1_every_problem_of_the_request_reported_at_once(gru) -> None:
    # asked 11 with 12 at home: above the cap of 10 and fewer than listed; short description
    owner, pets = _household(gru, 12)
    data = request_data(gru, pets, asked=11)
    data.housing_description = "Casa."
    assert _pairs(_ask, owner, gru, data) == [
        ("housing_description", "required"),
        ("animals_requested", "above_cap"),
        ("animals_requested", "fewer_than_listed"),
    ]


# --------------------------------------------------------------------------------------------
# Who may ask, and when (GRU 37 §2; BJP 17 §6)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("housing", ["apartment_condo", "rural"])
def test_gru_37_par2_flats_in_condominiums_and_rural_homes_need_no_licence(gru, housing) -> None:
    # GRU 37 caput: houses "na área urbana"; §2: condominium flats are left to other law
    owner, pets = _household(gru, 6, housing_type=housing)
    problem = _error(_ask, owner, gru, request_data(gru, pets, asked=6))
    assert (problem.field, problem.code) == (None, "not_applicable")
    assert "(GRU 37 §2)" in problem.message


def test_gru_37_a_house_or_an_unstated_housing_may_ask_and_bjp_excludes_no_housing(
    gru, make_app
) -> None:
    for housing in ("house", None):
        owner, pets = _household(gru, 6, housing_type=housing)
        assert _ask(owner, gru, request_data(gru, pets, asked=6)).status == LicenceStatus.REQUESTED
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner, pets = _household(bjp, 11, housing_type="apartment_condo")
        assert _ask(owner, bjp, request_data(bjp, pets, asked=11)).animals_requested == 11


def test_the_licence_is_of_the_residence_so_the_address_must_be_complete(gru) -> None:
    owner = factories.user(number="")
    problem = _error(_ask, owner, gru, request_data(gru, [], asked=6))
    assert (problem.field, problem.code) == ("address", "required")


def test_cabo_has_no_licence_to_ask(make_app) -> None:
    with profile_of(make_app, "cabo") as cabo:
        owner = factories.user()
        data = services.RequestData(animals_requested=6, housing_description="Quintal amplo.")
        problem = _error(_ask, owner, cabo, data)
        assert (problem.field, problem.code) == (None, "not_in_profile")


def test_bjp_17_par6_requests_accepted_to_17_12_2010_and_renewed_after_it(make_app) -> None:
    # BJP 17 §6: 12 months from the publication (17/12/2009) to ask: 17/12/2010 is the last
    # day, 18/12/2010 is refused; a licence obtained in time is still renewed afterwards.
    with profile_of(make_app, "bjp") as bjp:
        last = date(2010, 12, 17)
        owner, licence, _staff = licensed_household(bjp, base=11, on=last)
        assert licence.requested_on == last and licence.valid_until == date(2011, 12, 17)
        late, pets = _household(bjp, 11)
        problem = _error(_ask, late, bjp, request_data(bjp, pets, asked=11), last + timedelta(1))
        assert (problem.field, problem.code) == (None, "requests_closed")
        assert _names(problem.message, "17/12/2010") and "(BJP 17 §6)" in problem.message
        assert " 10 " in problem.message  # the limit everyone must fit after it
        covered = [link.animal for link in licence.covered]
        _shots(covered, date(2011, 11, 1))
        # window 17/11/2011 to 17/12/2011
        renewal = _ask(owner, bjp, request_data(bjp, covered, asked=11), date(2011, 12, 1), licence)
        assert renewal.renews_id == licence.id and renewal.requested_on == date(2011, 12, 1)


@pytest.mark.parametrize("status", [LicenceStatus.REQUESTED, LicenceStatus.INFO_REQUESTED])
def test_one_open_request_per_residence(gru, status) -> None:
    owner, licence = _asked(gru, pets=6)
    licence.status = status
    pets = [link.animal for link in licence.animals]
    neighbour = factories.user(cep=owner.cep, street=owner.street, number=owner.number)
    for person in (owner, neighbour):  # the same residence, whoever asks
        problem = _error(_ask, person, gru, request_data(gru, pets, asked=6))
        assert (problem.field, problem.code) == (None, "already_requested")
        assert problem.message.startswith("Já existe")


@pytest.mark.parametrize("status", [LicenceStatus.REFUSED, LicenceStatus.WITHDRAWN])
def test_a_closed_request_does_not_block_a_new_one(gru, status) -> None:
    owner, licence = _asked(gru, pets=6)
    licence.status = status
    pets = [link.animal for link in licence.animals]
    again = _ask(owner, gru, request_data(gru, pets, asked=6))
    assert again.id != licence.id and open_request(licence.residence_key) == again


def test_another_residences_open_request_does_not_block(gru) -> None:
    _owner, first = _asked(gru, pets=6)
    _other, second = _asked(gru, pets=6)
    assert first.residence_key != second.residence_key
    assert open_request(first.residence_key) == first
    assert open_request(second.residence_key) == second


def test_gru_37_par1_iv_a_valid_licence_is_renewed_not_asked_again(gru) -> None:
    # GRU 37 §1 IV: valid one year, 10/06/2026 to 10/06/2027; a new request (not a renewal) is
    # refused up to its last day and accepted once it has expired
    owner, licence, _staff, pets = _renewable(gru, TODAY)
    for day in (TODAY, date(2027, 6, 10)):
        problem = _error(_ask, owner, gru, request_data(gru, pets, asked=6), day)
        assert (problem.field, problem.code) == (None, "already_licensed")
        assert _names(problem.message, "10/06/2027")
    fresh = _ask(owner, gru, request_data(gru, pets, asked=6), date(2027, 6, 11))
    assert fresh.renews_id is None and fresh.requested_on == date(2027, 6, 11)
    assert _event(fresh, "requested").detail == {"animals": 6, "asked": 6}


# --------------------------------------------------------------------------------------------
# The renewal (GRU 37 §1 V)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_v_renewal_inside_the_30_days_before_expiry(gru) -> None:
    # GRU 37 §1 V: valid to 10/06/2027, the renewal window runs 11/05/2027 to 10/06/2027
    owner, licence, staff, pets = _renewable(gru, TODAY)
    for day in (date(2027, 5, 10), date(2027, 6, 11)):
        problem = _error(_ask, owner, gru, request_data(gru, pets, asked=6), day, licence)
        assert (problem.field, problem.code) == (None, "outside_renewal_window")
        assert _names(problem.message, "11/05/2027") and _names(problem.message, "10/06/2027")
        assert "(GRU 37 §1 V)" in problem.message
    first = _ask(owner, gru, request_data(gru, pets, asked=6), date(2027, 5, 11), licence)
    services.refuse(first, staff, "Faltou o laudo.", today=date(2027, 5, 12))
    renewal = _ask(owner, gru, request_data(gru, pets, asked=6), date(2027, 6, 10), licence)
    assert (renewal.renews_id, renewal.requested_on) == (licence.id, date(2027, 6, 10))
    assert (renewal.holder_id, renewal.residence_key) == (owner.id, licence.residence_key)
    assert [link.animal_id for link in renewal.animals] == [p.id for p in pets]
    assert [link.rabies_on_record for link in renewal.animals] == [True] * 6
    event = _event(renewal, "renewal_requested")
    assert (event.actor_id, event.detail) == (owner.id, {"animals": 6, "asked": 6})
    assert [e.action for e in renewal.events] == ["renewal_requested"]
    assert _audited("licence.renewal_requested", renewal).detail == {"renews": licence.id}
    assert [e.subject_id for e in factories.audit_events("licence.requested")] == [str(licence.id)]
    assert f"nº {renewal.id} " in _mail(owner)[-1].body


def test_gru_37_par1_v_only_the_holder_renews_an_approved_licence(gru) -> None:
    owner, licence, _staff, pets = _renewable(gru, TODAY)
    neighbour = factories.user(cep=owner.cep, street=owner.street, number=owner.number)
    inside = date(2027, 6, 1)
    problem = _error(_ask, neighbour, gru, request_data(gru, pets, asked=6), inside, licence)
    assert (problem.field, problem.code) == (None, "not_renewable")
    # a refused request was never a licence: nothing to renew
    other, refused = _asked(gru, pets=6)
    services.refuse(refused, _agent(), "Alojamento inadequado.", today=TODAY)
    again = [link.animal for link in refused.animals]
    problem = _error(_ask, other, gru, request_data(gru, again, asked=6), TODAY, refused)
    assert (problem.field, problem.code) == (None, "not_renewable")


def test_gru_37_par1_v_a_holder_who_moved_renews_nothing_at_the_new_address(gru) -> None:
    # GRU 37 §1: the licence is the residence's (inspected there, for the animals there); a
    # holder who moved asks for a new one where they live now.
    owner, licence, _staff, pets = _renewable(gru, TODAY)
    old_address = licence.address_line
    owner.street, owner.number = "Rua Nova", "999"
    problem = _error(_ask, owner, gru, request_data(gru, pets, asked=6), date(2027, 6, 1), licence)
    assert (problem.field, problem.code) == (None, "other_residence")
    assert old_address in problem.message


def test_gru_37_par1_v_renewed_once_a_granted_renewal_is_not_asked_again(gru) -> None:
    owner, licence, staff, pets = _renewable(gru, TODAY)
    renewal = _ask(owner, gru, request_data(gru, pets, asked=6), date(2027, 5, 20), licence)
    _approve(renewal, staff, gru, 6, today=date(2027, 5, 21))
    assert open_request(licence.residence_key) is None
    problem = _error(_ask, owner, gru, request_data(gru, pets, asked=6), date(2027, 5, 25), licence)
    assert (problem.field, problem.code) == (None, "already_requested")
    assert problem.message == "A renovação já foi pedida."


def test_gru_37_par1_iii_v_no_new_animal_in_a_renewal(gru) -> None:
    # GRU 37 §1 III: no new dog or cat while licensed; the renewal covers the same animals
    owner, licence, _staff, pets = _renewable(gru, TODAY)
    data = request_data(gru, pets, asked=7, new=[new_animal("Mel")])
    problem = _error(_ask, owner, gru, data, date(2027, 6, 1), licence)
    assert (problem.field, problem.code) == (None, "no_new_on_renewal")
    assert problem.message.endswith("incluídos.")
    assert services.renewal_of(licence) is None


# --------------------------------------------------------------------------------------------
# Animals registered inside; uploads; the fee (GRU 22)
# --------------------------------------------------------------------------------------------


def _bad_animal() -> animals.AnimalData:
    data = new_animal("x").data
    return replace(data, name="", species="bird")


def test_gru_37_an_animal_registered_inside_reports_its_own_problems_by_position(gru) -> None:
    # the 2nd new animal (index 1) has no name and a species the law does not count
    owner, pets = _household(gru, 5)
    expected = [(e.code, e.message) for e in animals.validate_animal_data(_bad_animal())]
    assert [code for code, _m in expected] == ["required", "invalid"]
    bad = replace(new_animal("y"), data=_bad_animal())
    data = request_data(gru, pets, asked=7, new=[new_animal("Mel"), bad])
    problems = _problems(_ask, owner, gru, data)
    assert [(e.field, e.code) for e in problems] == [("new-1", "required"), ("new-1", "invalid")]
    assert [e.message for e in problems] == [f"Novo animal 2: {m}" for _c, m in expected]


def test_gru_37_an_animal_registered_inside_without_rabies_shot_nor_ccz_is_refused(gru) -> None:
    # GRU 15 V: the registration needs the rabies proof (or the shot at the CCZ)
    owner, pets = _household(gru, 5)
    bare = replace(new_animal("Mel"), vaccination=None)
    (problem,) = _problems(_ask, owner, gru, request_data(gru, pets, asked=6, new=[bare]))
    assert (problem.field, problem.code) == ("new-0", "missing_vaccination")
    assert problem.message.startswith("Novo animal 1: ")


def _empty_rabies(data):  # type: ignore[no-untyped-def]
    data.listed[0].rabies_proof = _empty()


def _empty_sterilisation(data):  # type: ignore[no-untyped-def]
    data.listed[0].sterilisation_proof = _empty()


def _empty_photo(data):  # type: ignore[no-untyped-def]
    data.photos = [_photo(), services.Upload(io.BytesIO(b""), "quintal.png")]


def _empty_new_proof(data):  # type: ignore[no-untyped-def]
    data.new = [replace(new_animal("Mel"), sterilisation_proof=_empty())]


@pytest.mark.parametrize(
    ("spoil", "field"),
    [
        (_empty_rabies, None),
        (_empty_sterilisation, None),
        (_empty_photo, "photos"),
        (_empty_new_proof, None),
    ],
    ids=["rabies", "sterilisation", "photo", "new_sterilisation"],
)
def test_an_unreadable_proof_or_photo_is_refused_with_the_upload_message(gru, spoil, field) -> None:
    # 5 at home and one more: a 6th at home, or (its proof spoilt) one registered inside
    owner, pets = _household(gru, 5 if spoil is _empty_new_proof else 6)
    data = request_data(gru, pets, asked=6)
    spoil(data)
    problem = _error(_ask, owner, gru, data)
    assert (problem.field, problem.code, problem.message) == (field, "invalid_upload", EMPTY)


def test_gru_22_licence_fee_item_names_the_request(app) -> None:
    # GRU 22 lets the CCZ set public prices; a price list with a "licence" price charges it
    from portal.profiles.schema import Price

    prof = app.extensions["portal_profile"]
    priced = prof.model_copy(
        update={"prices": {**prof.prices, "licence": Price(amount_cents=4000, article="GRU 22 I")}}
    )
    with app.test_request_context():
        owner, pets = _household(priced, 6)
        licence = _ask(owner, priced, request_data(priced, pets, asked=6))
        item = db.session.get(PaymentItem, licence.fee_item_id)
        assert (item.kind, item.amount_cents, item.payer_id) == ("licence", 4000, owner.id)
        assert (item.subject_type, item.subject_id) == ("excess_licence", licence.id)
        assert item.description.endswith(f"(pedido nº {licence.id})")
        assert [line["article"] for line in item.breakdown] == ["GRU 22 I"]


# --------------------------------------------------------------------------------------------
# The citizen's answer to the CCZ
# --------------------------------------------------------------------------------------------


def _waiting(gru):  # type: ignore[no-untyped-def]
    owner, licence = _asked(gru, pets=6)
    services.ask_info(licence, _agent(), "Envie fotos do canil.")
    assert licence.status == LicenceStatus.INFO_REQUESTED
    return owner, licence


def test_only_the_holder_answers_and_only_while_the_ccz_waits(gru) -> None:
    owner, licence = _asked(gru, pets=6)
    for status in (LicenceStatus.REQUESTED, LicenceStatus.APPROVED, LicenceStatus.REFUSED):
        licence.status = status
        problem = _error(services.answer_info, licence, owner, "Resposta.")
        assert (problem.field, problem.code) == (None, "not_waiting")
    licence.status = LicenceStatus.INFO_REQUESTED
    neighbour = factories.user(cep=owner.cep, street=owner.street, number=owner.number)
    problem = _error(services.answer_info, licence, neighbour, "Resposta.")
    assert (problem.field, problem.code) == (None, "not_allowed")
    assert licence.info_answer is None and licence.status == LicenceStatus.INFO_REQUESTED
    assert [e.action for e in licence.events] == ["requested"]


def test_a_blank_answer_is_refused(gru) -> None:
    owner, licence = _waiting(gru)
    for blank in ("", "  \n ", None):
        problem = _error(services.answer_info, licence, owner, blank)
        assert (problem.field, problem.code) == ("answer", "required")
    assert licence.info_answer is None and licence.status == LicenceStatus.INFO_REQUESTED
    assert factories.audit_events("licence.info_answered") == []


def test_the_answer_is_trimmed_stored_up_to_4000_characters_and_on_record(gru) -> None:
    owner, licence = _waiting(gru)
    services.answer_info(licence, owner, "  Fotos enviadas.  ")
    assert licence.info_answer == "Fotos enviadas." and licence.status == LicenceStatus.REQUESTED
    event = _event(licence, "info_answered")
    assert (event.actor_id, event.note, event.detail) == (owner.id, "Fotos enviadas.", None)
    assert _audited("licence.info_answered", licence).action == "licence.info_answered"
    assert licence.files == []
    services.ask_info(licence, _agent(), "Envie também a planta.")
    services.answer_info(licence, owner, "a" * 4100)
    assert licence.info_answer == "a" * 4000 and licence.status == LicenceStatus.REQUESTED
    assert licence.events[-1].action == "info_answered"
    assert licence.events[-1].note == "a" * 4000


def test_the_answers_files_are_kept_as_proofs_an_unreadable_one_refused(gru) -> None:
    owner, licence = _waiting(gru)
    bad = services.Upload(io.BytesIO(b""), "planta.pdf")
    problem = _error(services.answer_info, licence, owner, "Segue.", [bad])
    assert (problem.field, problem.code, problem.message) == ("files", "invalid_upload", EMPTY)
    assert licence.status == LicenceStatus.INFO_REQUESTED and licence.info_answer is None
    services.answer_info(licence, owner, "Segue.", [_photo("canil.png"), pdf()])
    assert [f.kind for f in licence.files] == ["answer", "answer"]
    for f, name in zip(licence.files, ("canil.png", "comprovante.pdf"), strict=True):
        assert f.stored_file_id == f.stored_file.id
        _assert_proof(f.stored_file, owner, name)
    assert licence.status == LicenceStatus.REQUESTED


def test_no_open_request_once_decided(gru) -> None:
    # the open statuses are REQUESTED and INFO_REQUESTED only
    _owner, licence = _asked(gru, pets=6)
    key = licence.residence_key
    for status in LicenceStatus:
        licence.status = status
        db.session.flush()
        expected = (
            licence if status in (LicenceStatus.REQUESTED, LicenceStatus.INFO_REQUESTED) else None
        )
        assert open_request(key) is expected
    assert db.session.get(ExcessLicence, licence.id) is licence

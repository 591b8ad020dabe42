"""Issuing a document (``enforcement.issuing``) at its edges: GRU 95, 96, 98 (what a notice, an
infraction and a penalty name: the person or the entity, the facts, the provision, the agent), GRU
70 §3 / BJP 30 I / VV 23 I (the term a preliminary notice gives, per profile), the yearly number,
the fine the fee service prices from the facts (GRU 79, 80, 113; BJP 17 §2, 19 §1; CABO 39, 41;
CAB 40; VV 50 I) and the maus-tratos report the document closes.

Expected values are worked by hand from the law texts: GRU 69 II grades a fine from 42 to 42 000
UFG (100 UFG at R$ 4,80 = R$ 480,00); GRU 80 doubles it on a repeat "dentro do período de três
anos" (GRU 79, the period counted like every term of the law, GRU 114: start day excluded, last
day included); GRU 113 prescribes it in five years. BJP 19 §1 fines 1 UFM (R$ 50,00 here) the
owner (I) and 1 UFM the unregistered trainer (II), each "dobrada na reincidência". The documents
are dated in São Paulo: 13:00 UTC is 10:00 there.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import issuing
from portal.blueprints.enforcement.issuing import joint_partner
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.extensions import db
from portal.models import (
    EnforcementCounter,
    EnforcementDocument,
    Establishment,
    OutboxMessage,
    ReportEvent,
    ReportState,
    UnitValue,
)
from portal.profiles import load_profile
from portal.services.fees import FeeError
from tests import factories
from tests.integration.enforcement import test_enforcement
from tests.integration.enforcement.test_enforcement_issue import _issue
from tests.integration.enforcement.test_enforcement_links import _report
from tests.integration.enforcement.test_serving_review_fine_edges import (
    _aware,
    _events,
    server_in_sao_paulo,  # noqa: F401  (fixture)
)

profile, people = test_enforcement.profile, test_enforcement.people  # its fixtures
GRU_FINE = test_enforcement.GRU_FINE  # medio, 100 UFG: 100 x R$ 4,80 = R$ 480,00
TODAY = date(2026, 11, 30)
ON = datetime(2026, 11, 2, 13, 0, tzinfo=UTC)  # Mon 2 Nov 2026, 10:00 in São Paulo
CNPJ = "11222333000181"
OTHER_CNPJ = "11444777000161"
ISSUED = "enforcement.issued"


# -- helpers -------------------------------------------------------------------------------------


def _doc(profile, agent, who, **extra) -> EnforcementDocument:  # type: ignore[no-untyped-def]
    """An auto de infração (GRU 10 V a) to ``who``, occurred on ``ON``, written on ``TODAY``."""
    extra.setdefault("today", TODAY)
    extra.setdefault("occurred_at", ON)
    return _issue(profile, agent, who, **extra)


def _refused(profile, agent, who, **extra) -> EnforcementError:  # type: ignore[no-untyped-def]
    with pytest.raises(EnforcementError) as err:
        _doc(profile, agent, who, **extra)
    return err.value


def _notice(profile, agent, who, term, action="Dar abrigo ao cão", **extra):  # type: ignore[no-untyped-def]
    return _doc(
        profile, agent, who, kind="preliminary", comply_term=term, required_action=action, **extra
    )


def _standing(profile, agent, who, provision: str, on: date, cpf=None) -> EnforcementDocument:  # type: ignore[no-untyped-def]
    """A penalty for ``provision`` committed on ``on`` that stands (final): a previous offence."""
    doc = _doc(
        profile,
        agent,
        who,
        kind="penalty",
        legal_provision=provision,
        occurred_at=datetime(on.year, on.month, on.day, 13, tzinfo=UTC),
        today=on,
        addressee=Addressee(who.full_name, cpf or who.cpf),
    )
    doc.status = "final"
    db.session.flush()
    return doc


def _units(*values: tuple[str, int]) -> None:
    for unit, cents in values:
        db.session.add(UnitValue(unit=unit, value_cents=cents, effective_from=date(2020, 1, 1)))
    db.session.flush()


def _bjp():  # type: ignore[no-untyped-def]
    """Bom Jesus dos Perdões with 1 UFM = R$ 50,00."""
    _units(("UFM", 5000))
    return load_profile("bjp")


def _establishment(agent, cnpj: str = CNPJ, name: str = "Pet Shop Centro") -> Establishment:  # type: ignore[no-untyped-def]
    place = Establishment(
        cnpj=cnpj,
        legal_name=name,
        cep="07000000",
        street="Rua C",
        number="1",
        district="Centro",
        requested_by_id=agent.id,
    )
    db.session.add(place)
    db.session.flush()
    return place


def _line(row: dict) -> tuple:  # type: ignore[type-arg]
    return row["amount_cents"], row["article"], row["kind"], row.get("payer")


# -- GRU 95, 96: what every document names --------------------------------------------------------


def test_gru_96_every_fact_of_the_infraction_is_stored_trimmed(profile, people):
    # GRU 96 I-VI: the person, the fact, place, hour and date, the provision transgressed, the
    # provision that sets the penalty, the agent's name and cargo.
    agent, _boss, _dir, citizen = people
    pet = factories.animal(citizen)
    doc = _doc(
        profile,
        agent,
        citizen,
        addressee=Addressee("  Rui Autuado  ", citizen.cpf, None, "  Criador  ", "  Rua A, 10  "),
        fact="  Cão acorrentado sem abrigo  ",
        place="  Rua A, 10  ",
        legal_provision="  GRU 10 V a  ",
        penalty_provision="  GRU 69 II  ",
        measures="  Remover a corrente  ",
        agent_title="  Agente sanitário  ",
        required_action="  Dar abrigo  ",
        comply_term="d10",  # not a preliminary notice: no term to comply is kept
        animal_id=pet.id,
        notified_on=date(2026, 10, 1),
    )
    assert (doc.number, doc.year, doc.sequence) == ("2026-000001", 2026, 1)
    assert (doc.kind, doc.status) == ("infraction", "issued")
    assert (doc.addressee_name, doc.addressee_cpf, doc.addressee_cnpj) == (
        "Rui Autuado",
        citizen.cpf,
        None,
    )
    assert (doc.addressee_activity, doc.addressee_address) == ("Criador", "Rua A, 10")
    assert (doc.person_id, doc.establishment_id) == (citizen.id, None)
    assert (doc.fact, doc.place) == ("Cão acorrentado sem abrigo", "Rua A, 10")
    assert _aware(doc.occurred_at) == ON
    assert (doc.legal_provision, doc.penalty_provision) == ("GRU 10 V a", "GRU 69 II")
    assert (doc.required_action, doc.measures) == ("Dar abrigo", "Remover a corrente")
    assert (doc.comply_days, doc.comply_hours) == (None, None)
    assert (doc.agent_id, doc.agent_title) == (agent.id, "Agente sanitário")
    assert (doc.parent_id, doc.report_id, doc.animal_id, doc.joint_of_id) == (
        None,
        None,
        pet.id,
        None,
    )
    assert doc.notified_on == date(2026, 10, 1)
    assert (doc.fine_inputs, doc.fine_breakdown, doc.fine_cents) == (None, None, None)
    assert _events(ISSUED, doc) == [(None, {"number": "2026-000001", "kind": "infraction"})]


def test_gru_96_optional_texts_left_blank_or_omitted_are_stored_as_nothing(profile, people):
    agent, _boss, _dir, citizen = people
    blank = _doc(
        profile,
        agent,
        citizen,
        addressee=Addressee(citizen.full_name, citizen.cpf, None, "   ", "   "),
        penalty_provision="   ",
        required_action="   ",
        measures="   ",
    )
    omitted = _doc(profile, agent, citizen)
    for doc in (blank, omitted):
        assert (doc.addressee_activity, doc.addressee_address) == (None, None)
        assert (doc.penalty_provision, doc.required_action, doc.measures) == (None, None, None)
        assert doc.notified_on is None


def test_gru_96_98_vv_23_v_each_kind_is_issued_without_a_term_to_comply(profile, people):
    # GRU 96 (auto de infração), 98 (imposição de penalidade), 72 (apreensão), VV 23 V (termo)
    agent, _boss, _dir, citizen = people
    for kind in ("infraction", "penalty", "apprehension", "commitment"):
        doc = _doc(profile, agent, citizen, kind=kind)
        assert (doc.kind, doc.status, doc.comply_days, doc.comply_hours) == (
            kind,
            "issued",
            None,
            None,
        )
        assert _events(ISSUED, doc) == [(None, {"number": doc.number, "kind": kind})]


def test_a_kind_the_procedure_does_not_know_is_refused(profile, people):
    agent, _boss, _dir, citizen = people
    err = _refused(profile, agent, citizen, kind="warning")
    assert (err.field, err.code) == ("kind", "invalid")
    assert db.session.scalar(select(EnforcementCounter)) is None  # no number spent


def test_gru_96_ii_iii_vi_fact_place_provision_and_cargo_are_required(profile, people):
    # GRU 96 II (fact, place), III (provision transgressed), VI (the agent's cargo)
    agent, _boss, _dir, citizen = people
    for name in ("fact", "place", "legal_provision", "agent_title"):
        for value in ("   ", "", None):
            err = _refused(profile, agent, citizen, **{name: value})
            assert (err.field, err.code) == (name, "required"), (name, value)


def test_gru_96_the_first_missing_fact_is_the_one_named(profile, people):
    agent, _boss, _dir, citizen = people
    err = _refused(profile, agent, citizen, fact=" ", place=" ", agent_title=" ")
    assert (err.field, err.code) == ("fact", "required")
    err = _refused(profile, agent, citizen, legal_provision=" ", agent_title=" ")
    assert (err.field, err.code) == ("legal_provision", "required")


def test_gru_96_ii_the_facts_must_have_happened(profile, people):
    # GRU 96 II: "a hora e a data" of the fact; a day ahead is allowed for the time zone only.
    agent, _boss, _dir, citizen = people
    monday = date(2026, 3, 2)
    ahead = _doc(
        profile, agent, citizen, today=monday, occurred_at=datetime(2026, 3, 3, 13, tzinfo=UTC)
    )
    assert ahead.number == "2026-000001"
    err = _refused(
        profile, agent, citizen, today=monday, occurred_at=datetime(2026, 3, 4, 13, tzinfo=UTC)
    )
    assert (err.field, err.code) == ("occurred_at", "future")
    later = datetime.now(UTC) + timedelta(minutes=5)
    err = _refused(profile, agent, citizen, today=None, occurred_at=later)
    assert (err.field, err.code) == ("occurred_at", "future")
    just_now = _doc(profile, agent, citizen, today=None, occurred_at=datetime.now(UTC))
    assert just_now.status == "issued"


# -- GRU 95 I, 96 I: the person (CPF) or the entity (CNPJ) ----------------------------------------


def test_gru_96_i_a_formatted_cpf_is_stored_as_digits_and_finds_the_person(profile, people):
    agent, _boss, _dir, _citizen = people
    person = factories.user(cpf="52998224725", full_name="Maria Autuada")
    doc = _doc(profile, agent, person, addressee=Addressee("Maria Autuada", "529.982.247-25"))
    assert (doc.addressee_cpf, doc.person_id, doc.establishment_id) == (
        "52998224725",
        person.id,
        None,
    )
    stranger = _doc(profile, agent, person, addressee=Addressee("Sem Conta", "111.444.777-35"))
    assert (stranger.addressee_cpf, stranger.person_id) == ("11144477735", None)


def test_gru_96_i_an_invalid_cpf_or_cnpj_is_refused(profile, people):
    agent, _boss, _dir, citizen = people
    for cpf, cnpj, field in (
        ("123.456.789-00", None, "cpf"),  # check digits fail
        ("111.111.111-11", None, "cpf"),  # never issued
        (None, "11.222.333/0001-82", "cnpj"),
        ("529.982.247-25", "11.222.333/0001-82", "cnpj"),
        ("123.456.789-00", "11.222.333/0001-82", "cpf"),  # the CPF is checked first
    ):
        err = _refused(profile, agent, citizen, addressee=Addressee("Rui", cpf, cnpj))
        assert (err.field, err.code) == (field, "invalid"), (cpf, cnpj)


def test_gru_96_i_the_person_or_entity_must_be_identified(profile, people):
    # GRU 96 I: "o nome da pessoa física ou denominação da entidade autuada"
    agent, _boss, _dir, citizen = people
    for cpf, cnpj in ((None, None), ("", ""), ("", None)):
        err = _refused(profile, agent, citizen, addressee=Addressee("Rui Autuado", cpf, cnpj))
        assert (err.field, err.code) == ("cpf", "required"), (cpf, cnpj)


def test_gru_96_i_the_name_is_required(profile, people):
    agent, _boss, _dir, citizen = people
    err = _refused(profile, agent, citizen, addressee=Addressee("   ", citizen.cpf))
    assert (err.field, err.code) == ("name", "required")
    err = _refused(profile, agent, citizen, addressee=Addressee("   ", None, CNPJ))
    assert (err.field, err.code) == ("name", "required")
    err = _refused(profile, agent, citizen, addressee=Addressee("  ", "123.456.789-00"))
    assert (err.field, err.code) == ("cpf", "invalid")  # the number is checked before the name


def test_gru_96_i_an_entity_by_cnpj_finds_its_latest_registration(profile, people):
    agent, _boss, _dir, citizen = people
    _establishment(agent, name="Registro antigo")
    newest = _establishment(agent, name="Registro atual")
    _establishment(agent, cnpj=OTHER_CNPJ, name="Outro CNPJ")
    doc = _doc(
        profile,
        agent,
        citizen,
        addressee=Addressee("Pet Shop", None, "11.222.333/0001-81", "Pet shop", "Rua C, 1"),
    )
    assert (doc.addressee_cpf, doc.addressee_cnpj) == (None, CNPJ)
    assert (doc.person_id, doc.establishment_id) == (None, newest.id)
    assert (doc.addressee_activity, doc.addressee_address) == ("Pet shop", "Rua C, 1")
    # GRU 95 I, 96 I: not typed, the line of business and the address come from the cadastro
    newest.kinds = ["pet_shop", "groomer"]
    both = _doc(profile, agent, citizen, addressee=Addressee("Dono", citizen.cpf, CNPJ))
    assert (both.addressee_cpf, both.addressee_cnpj) == (citizen.cpf, CNPJ)
    assert (both.person_id, both.establishment_id) == (citizen.id, newest.id)
    assert (both.addressee_activity, both.addressee_address) == (
        "Pet shop, Banho e tosa",
        "Rua C, 1 – Centro",
    )
    unknown = _doc(
        profile,
        agent,
        citizen,
        addressee=Addressee("Sem cadastro", None, "11444777000242", "Criador", "Rua D, 2"),
    )
    assert (unknown.addressee_cnpj, unknown.establishment_id) == ("11444777000242", None)


def test_gru_96_i_an_entity_is_named_with_its_activity_and_address(profile, people):
    # GRU 96 I: "Quando se tratar de pessoa jurídica, especificar o seu ramo de atividade e
    # endereço" (the same in 95 I for the notificação preliminar).
    agent, _boss, _dir, citizen = people
    err = _refused(profile, agent, citizen, addressee=Addressee("Pet Shop", None, CNPJ))
    assert (err.field, err.code) == ("activity", "required")
    assert "GRU 95 I, 96 I" in err.message
    no_address = Addressee("Pet Shop", None, CNPJ, "Pet shop", "  ")
    err = _refused(profile, agent, citizen, addressee=no_address)
    assert (err.field, err.code) == ("address", "required")
    _establishment(agent)  # on the cadastro with no kind: the activity is still to be typed
    err = _refused(profile, agent, citizen, addressee=Addressee("Pet Shop", None, CNPJ))
    assert (err.field, err.code) == ("activity", "required")
    # a person (CPF) has neither to state; another city's law does not ask for them
    assert _doc(profile, agent, citizen).addressee_activity is None
    bjp = load_profile("bjp")
    doc = _doc(bjp, agent, citizen, addressee=Addressee("Loja", None, OTHER_CNPJ))
    assert (doc.addressee_activity, doc.addressee_address) == (None, None)


def test_gru_96_1_offender_not_identified_gets_a_document_without_a_record(profile, people):
    # GRU 95 §ú, 96 §1: an offender who cannot be found is served by edital
    agent, _boss, _dir, citizen = people
    doc = _doc(
        profile,
        agent,
        citizen,
        kind="apprehension",
        addressee=Addressee("  ", None, None, unidentified=True),
    )
    assert (doc.addressee_name, doc.addressee_cpf, doc.addressee_cnpj) == ("", None, None)
    assert (doc.person_id, doc.establishment_id) == (None, None)
    known = _doc(
        profile, agent, citizen, addressee=Addressee("Rui", citizen.cpf, unidentified=True)
    )
    assert (known.addressee_cpf, known.person_id) == (citizen.cpf, citizen.id)
    by_cnpj = _doc(
        profile,
        agent,
        citizen,
        addressee=Addressee("Loja", None, CNPJ, "Pet shop", "Rua C, 1", unidentified=True),
    )
    assert (by_cnpj.addressee_cpf, by_cnpj.addressee_cnpj) == (None, CNPJ)
    err = _refused(
        profile, agent, citizen, addressee=Addressee("Rui", "123.456.789-00", unidentified=True)
    )
    assert (err.field, err.code) == ("cpf", "invalid")


# -- the number: one counter per year, shared by every kind ---------------------------------------


def test_number_counts_per_year_across_kinds_and_restarts_each_year(profile, people):
    agent, _boss, _dir, citizen = people
    march = date(2026, 3, 2)
    first = _notice(
        profile, agent, citizen, "d10", today=march, occurred_at=ON - timedelta(days=250)
    )
    second = _doc(profile, agent, citizen, today=march, occurred_at=ON - timedelta(days=250))
    assert [(d.number, d.year, d.sequence, d.kind) for d in (first, second)] == [
        ("2026-000001", 2026, 1, "preliminary"),
        ("2026-000002", 2026, 2, "infraction"),
    ]
    january = _doc(profile, agent, citizen, today=date(2027, 1, 4), kind="penalty")
    assert (january.number, january.year, january.sequence) == ("2027-000001", 2027, 1)
    third = _doc(profile, agent, citizen, today=date(2026, 12, 31))
    assert (third.number, third.year, third.sequence) == ("2026-000003", 2026, 3)
    counters = {c.year: c.last_value for c in db.session.scalars(select(EnforcementCounter))}
    assert counters == {2026: 3, 2027: 1}
    assert [d["number"] for _a, d in _events(ISSUED, third)] == ["2026-000003"]


def test_number_continues_the_stored_counter_past_six_digits(profile, people):
    agent, _boss, _dir, citizen = people
    db.session.add(EnforcementCounter(year=2025, last_value=999998))
    db.session.flush()
    day = date(2025, 6, 2)
    moment = datetime(2025, 6, 2, 13, tzinfo=UTC)
    a = _doc(profile, agent, citizen, today=day, occurred_at=moment)
    b = _doc(profile, agent, citizen, today=day, occurred_at=moment)
    assert [(d.number, d.year, d.sequence) for d in (a, b)] == [
        ("2025-999999", 2025, 999999),
        ("2025-1000000", 2025, 1000000),
    ]


def test_number_year_is_the_municipal_today_when_none_is_given(profile, people):
    from portal.services.clock import local_today

    agent, _boss, _dir, citizen = people
    doc = _doc(profile, agent, citizen, today=None)
    year = local_today().year
    assert (doc.number, doc.year, doc.sequence) == (f"{year}-000001", year, 1)


# -- GRU 70 §3, BJP 30 I, VV 23 I: the term of a preliminary notice, per profile -------------------


def _term_refusal(profile, agent, who, term, action="Dar abrigo") -> EnforcementError:  # type: ignore[no-untyped-def]
    with pytest.raises(EnforcementError) as err:
        _notice(profile, agent, who, term, action=action)
    return err.value


def test_gru_70_3_term_from_one_hour_to_sixty_days_is_kept(profile, people):
    # GRU 70 §3: "no mínimo de uma hora e no máximo de 60 (sessenta) dias"
    agent, _boss, _dir, citizen = people
    for term, days, hours in (
        ("h1", None, 1),
        ("h48", None, 48),
        ("d5", 5, None),
        ("d60", 60, None),
    ):
        doc = _notice(profile, agent, citizen, term, action="  Dar abrigo  ")
        assert (doc.kind, doc.comply_days, doc.comply_hours) == ("preliminary", days, hours), term
        assert doc.required_action == "Dar abrigo"
        assert doc.comply_due_at is None  # the term runs from the service, not from the writing


def test_gru_70_3_a_term_outside_the_law_is_refused_citing_it(profile, people):
    agent, _boss, _dir, citizen = people
    for term in ("d61", "d90", "h0", "d7", "", None):
        err = _term_refusal(profile, agent, citizen, term)
        assert (err.field, err.code) == ("comply_term", "invalid"), term
        assert "GRU 70 §3" in err.message


def test_gru_95_iv_the_notice_says_what_must_be_done(profile, people):
    # GRU 95 IV: "a providência exigida"
    agent, _boss, _dir, citizen = people
    for action in ("   ", None, ""):
        err = _term_refusal(profile, agent, citizen, "d10", action=action)
        assert (err.field, err.code) == ("required_action", "required"), action
        err = _term_refusal(profile, agent, citizen, "d90", action=action)
        assert err.field == "comply_term"  # the term is checked first


def test_bjp_30_i_and_vv_23_i_terms_are_the_law_s_own(profile, people):
    # BJP 30 I: imediatamente, 7, 15 or 30 days; VV 23 I: up to 7 days (34 §2 I: 30)
    agent, _boss, _dir, citizen = people
    for key, term, days in (
        ("bjp", "d0", 0),
        ("bjp", "d7", 7),
        ("bjp", "d30", 30),
        ("vilavelha", "d7", 7),
    ):
        doc = _notice(load_profile(key), agent, citizen, term)
        assert (doc.comply_days, doc.comply_hours) == (days, None), (key, term)


def test_bjp_30_i_vv_23_i_cabo_cab_terms_outside_the_law_are_refused(profile, people):
    agent, _boss, _dir, citizen = people
    for key, term, article in (
        ("bjp", "h1", "BJP 30 I"),  # no hours in BJP 30 I
        ("bjp", "d10", "BJP 30 I"),
        ("vilavelha", "d15", "VV 23 I"),
        ("cabo", "d7", "CABO 40"),  # the law has no preliminary notice term
        ("cabeceira", "d7", "CAB —"),
    ):
        err = _term_refusal(load_profile(key), agent, citizen, term)
        assert (err.field, err.code) == ("comply_term", "invalid"), (key, term)
        assert article in err.message


# -- the fine: the fee service prices the facts (GRU 69 II, 79, 80, 113) ---------------------------


def test_gru_69_ii_the_graded_fine_is_priced_from_the_infraction_day(profile, people):
    # 100 UFG x R$ 4,80 = R$ 480,00 (GRU 69 II); the day of the infraction is São Paulo's.
    agent, _boss, _dir, citizen = people
    inputs = dict(GRU_FINE)
    late_evening = datetime(2026, 11, 3, 1, 30, tzinfo=UTC)  # 2 Nov 22:30 in São Paulo
    doc = _doc(profile, agent, citizen, fine_inputs=inputs, occurred_at=late_evening)
    assert doc.fine_inputs == {**GRU_FINE, "infraction_on": "2026-11-02"}
    assert [_line(r) for r in doc.fine_breakdown] == [(48000, "GRU 69 II", "fine", "offender")]
    assert doc.fine_breakdown[0]["note"] == "risco à saúde"
    assert doc.fine_cents == 48000
    assert inputs == GRU_FINE  # the caller's inputs are not changed
    assert _events(ISSUED, doc) == [(None, {"number": doc.number, "kind": "infraction"})]


def test_gru_96_a_document_without_fine_inputs_has_no_fine(profile, people):
    agent, _boss, _dir, citizen = people
    for inputs in (None, {}):
        doc = _doc(profile, agent, citizen, fine_inputs=inputs)
        assert (doc.fine_inputs, doc.fine_breakdown, doc.fine_cents) == (None, None, None)


def test_gru_69_ii_both_ends_of_the_range_are_fines(profile, people):
    # GRU 69 II: 42 to 42 000 UFG; 42 x 480 = 20 160; 42 000 x 480 = 20 160 000 centavos
    agent, _boss, _dir, citizen = people
    for units, cents in (("42", 20160), ("42000", 20160000)):
        doc = _doc(profile, agent, citizen, fine_inputs={**GRU_FINE, "units": units})
        assert doc.fine_cents == cents


def test_gru_69_ii_76_what_the_fee_service_refuses_is_named_by_its_field(profile, people):
    agent, _boss, _dir, citizen = people
    for inputs, field, code, cited in (
        ({"severity": "medio"}, "units", "required", "UFG"),
        ({**GRU_FINE, "units": "41"}, "units", "out_of_range", "GRU 69 II"),
        ({**GRU_FINE, "units": "42001"}, "units", "out_of_range", "GRU 69 II"),
        ({**GRU_FINE, "units_reason": " "}, "units_reason", "required", "gravidade"),
        ({"severity": "absurdo"}, "severity", "unknown", "lei"),
        ({"animals": 2}, "severity", "required", "gravidade"),
    ):
        err = _refused(profile, agent, citizen, fine_inputs=inputs)
        assert (err.field, err.code) == (field, code), inputs
        assert cited in err.message  # the fee service's own message, passed on


def test_gru_113_the_fifth_year_s_last_day_is_the_last_to_fine(profile, people):
    # GRU 113: five years from 2 Nov 2021 (start day excluded) end on 2 Nov 2026.
    agent, _boss, _dir, citizen = people
    old = datetime(2021, 11, 2, 13, tzinfo=UTC)
    doc = _doc(
        profile, agent, citizen, fine_inputs=GRU_FINE, occurred_at=old, today=date(2026, 11, 2)
    )
    assert (doc.fine_cents, doc.fine_inputs["infraction_on"]) == (48000, "2021-11-02")
    err = _refused(
        profile, agent, citizen, fine_inputs=GRU_FINE, occurred_at=old, today=date(2026, 11, 3)
    )
    assert (err.field, err.code) == ("infraction_on", "prescribed")
    assert "5" in err.message and "GRU 113" in err.message


def test_gru_113_1_an_interruption_dated_as_a_date_is_kept_as_iso_text(profile, people):
    # GRU 113 §1: an act of the authority interrupts the prescription: from 1 Mar 2022 the five
    # years end on 1 Mar 2027, so an infraction of 2 Nov 2021 is still fined on 30 Nov 2026.
    agent, _boss, _dir, citizen = people
    inputs = {**GRU_FINE, "prescription_interrupted_on": date(2022, 3, 1), "animals": 2}
    doc = _doc(
        profile,
        agent,
        citizen,
        fine_inputs=inputs,
        occurred_at=datetime(2021, 11, 2, 13, tzinfo=UTC),
        today=date(2026, 11, 30),
    )
    assert doc.fine_inputs == {
        **GRU_FINE,
        "prescription_interrupted_on": "2022-03-01",
        "animals": 2,
        "infraction_on": "2021-11-02",
    }
    assert doc.fine_cents == 48000


def test_gru_79_first_offence_carries_no_previous_offences(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _doc(profile, agent, citizen, fine_inputs=GRU_FINE)
    assert "previous_offences" not in doc.fine_inputs
    assert len(doc.fine_breakdown) == 1


def test_gru_79_80_a_standing_penalty_within_three_years_doubles_the_fine(profile, people):
    # GRU 79: "dentro do período de três anos" counted from the earlier infraction (GRU 114);
    # GRU 80: "o dobro do valor definido para a respectiva infração": 2 x 48 000.
    agent = people[0]
    for previous, doubled in (
        (date(2023, 11, 2), True),  # exactly three years before: the last day of the period
        (date(2023, 11, 1), False),  # three years and a day: outside it
    ):
        citizen = factories.user()
        _standing(profile, agent, citizen, "GRU 10 V a", previous)
        doc = _doc(profile, agent, citizen, fine_inputs=GRU_FINE)
        # every standing penalty is passed on; the fee service says which still counts
        assert doc.fine_inputs["previous_offences"] == [previous.isoformat()]
        assert doc.fine_cents == (96000 if doubled else 48000), previous
        base = [(48000, "GRU 69 II", "fine", "offender")]
        repeat = [(48000, "GRU 80", "fine", "offender")] if doubled else []
        assert [_line(r) for r in doc.fine_breakdown] == base + repeat


def test_gru_80_two_previous_offences_still_double_once(profile, people):
    # GRU 80: "dobro do valor definido para a respectiva infração", whatever the count
    agent, _boss, _dir, citizen = people
    _standing(profile, agent, citizen, "GRU 10 V a", date(2025, 5, 1))
    _standing(profile, agent, citizen, "gru 10,  v a", date(2024, 5, 1))  # same provision
    _standing(profile, agent, citizen, "GRU 37", date(2025, 6, 1))  # another provision
    doc = _doc(profile, agent, citizen, fine_inputs=GRU_FINE)
    assert doc.fine_inputs["previous_offences"] == ["2024-05-01", "2025-05-01"]
    assert doc.fine_cents == 96000


def test_gru_79_dates_the_agent_gives_are_kept_as_iso_text(profile, people):
    # No record in the portal: the agent's dates (a tuple) count as given.
    agent, _boss, _dir, citizen = people
    inputs = {**GRU_FINE, "previous_offences": (date(2025, 5, 1), "2024-02-01")}
    doc = _doc(profile, agent, citizen, fine_inputs=inputs)
    assert doc.fine_inputs["previous_offences"] == ["2025-05-01", "2024-02-01"]
    assert doc.fine_cents == 96000
    _standing(profile, agent, citizen, "GRU 10 V a", date(2025, 8, 1))
    # The record joins them, each day once (GRU 79): the agent's two and the one on record.
    recorded = _doc(
        profile,
        agent,
        citizen,
        fine_inputs={**inputs, "previous_offences": ["2025-08-01", date(2025, 5, 1)]},
    )
    assert recorded.fine_inputs["previous_offences"] == ["2025-08-01", "2025-05-01"]
    merged = _doc(profile, agent, citizen, fine_inputs=inputs)
    assert merged.fine_inputs["previous_offences"] == ["2025-05-01", "2024-02-01", "2025-08-01"]
    assert merged.fine_cents == 96000  # GRU 80: doubled once


def test_cabo_39_2_a_repeat_the_agent_declares_doubles_without_a_record(profile, people):
    # CABO 39 §2 doubles "na reincidência" without a period: an earlier penalty on paper is
    # declared by the agent (``repeat``).
    # CABO 39: leve from 0,1 UFIR; 2 UFIR x R$ 1,06 = R$ 2,12, doubled R$ 4,24.
    agent, _boss, _dir, citizen = people
    _units(("UFIR", 106))
    cabo = load_profile("cabo")
    leve = {"severity": "leve", "units": "2", "units_reason": "Pequeno porte"}
    first = _doc(cabo, agent, citizen, fine_inputs=leve, legal_provision="CABO 39")
    assert first.fine_inputs == {**leve, "infraction_on": "2026-11-02"}
    assert first.fine_cents == 212
    again = _doc(
        cabo, agent, citizen, fine_inputs={**leve, "repeat": True}, legal_provision="CABO 39"
    )
    assert again.fine_inputs == {**leve, "repeat": True, "infraction_on": "2026-11-02"}
    assert [_line(r) for r in again.fine_breakdown] == [
        (212, "CABO 39", "fine", "offender"),
        (212, "CABO 39 §2", "fine", "offender"),
    ]


def test_cabo_39_2_a_repeat_on_record_doubles_though_the_law_sets_no_window(profile, people):
    # CABO 39 §2: "Em caso de reincidência, a multa será aplicada em dobro" — no period, so an
    # earlier standing penalty of the same provision, even six years old, is a repeat.
    # 2 UFIR x R$ 1,06 = R$ 2,12; doubled: + R$ 2,12.
    agent, _boss, _dir, citizen = people
    _units(("UFIR", 106))
    cabo = load_profile("cabo")
    _standing(cabo, agent, citizen, "CABO 39", date(2020, 10, 1))
    _standing(cabo, agent, citizen, "CABO 12", date(2025, 10, 1))  # another provision
    leve = {"severity": "leve", "units": "2", "units_reason": "Pequeno porte"}
    again = _doc(cabo, agent, citizen, fine_inputs=leve, legal_provision="CABO 39")
    assert again.fine_inputs["previous_offences"] == ["2020-10-01"]
    assert [_line(r) for r in again.fine_breakdown] == [
        (212, "CABO 39", "fine", "offender"),
        (212, "CABO 39 §2", "fine", "offender"),
    ]


def test_cabo_41_expenses_are_kept_with_the_fine(profile, people):
    # CABO 41: transport, food, veterinary care "e outras" on top of the penalty
    agent, _boss, _dir, citizen = people
    _units(("UFIR", 106))
    cabo = load_profile("cabo")
    spent = ({"kind": "transport", "amount_cents": 4500},)
    inputs = {"severity": "leve", "units": "2", "units_reason": "x", "expenses": spent}
    doc = _doc(cabo, agent, citizen, fine_inputs=inputs, legal_provision="CABO 39")
    assert doc.fine_inputs["expenses"] == [{"kind": "transport", "amount_cents": 4500}]
    assert [_line(r) for r in doc.fine_breakdown] == [
        (212, "CABO 39", "fine", "offender"),
        (4500, "CABO 41", "expense", "offender"),
    ]
    assert doc.fine_cents == 4712
    err = _refused(
        profile, agent, citizen, fine_inputs={**GRU_FINE, "expenses": [spent[0]]}
    )  # GRU 72 §1 recovers expenses before a return, not with a fine
    assert (err.field, err.code) == ("expenses", "not_recoverable")


def test_cab_40_and_vv_50_i_fines_the_law_fixes(profile, people):
    # CAB 40 I: leve 5 UF x R$ 50,00 = R$ 250,00; VV 50 I: 25 % of R$ 1.621,00 = R$ 405,25.
    agent, _boss, _dir, citizen = people
    _units(("UFM", 5000), ("MW", 162100))
    cab = load_profile("cabeceira")
    doc = _doc(cab, agent, citizen, fine_inputs={"severity": "leve"}, legal_provision="CAB 40 I")
    assert [_line(r) for r in doc.fine_breakdown] == [(25000, "CAB 40", "fine", "offender")]
    err = _refused(cab, agent, citizen, fine_inputs={"severity": "leve", "units": "7"})
    assert (err.field, err.code) == ("units", "fixed_by_law")
    assert "CAB 40" in err.message
    vv = load_profile("vilavelha")
    doc = _doc(vv, agent, citizen, fine_inputs={"animals": 1}, legal_provision="VV 50 I")
    assert [_line(r) for r in doc.fine_breakdown] == [(40525, "VV 50 I", "fine", "offender")]
    assert doc.fine_cents == 40525


def test_a_unit_value_missing_on_the_infraction_day_is_named(profile, people):
    # No UFM entered: the error cites the day the fine is read on (the infraction's, in São Paulo)
    agent, _boss, _dir, citizen = people
    bjp = load_profile("bjp")
    err = _refused(
        bjp,
        agent,
        citizen,
        fine_inputs={"specific": "abandonment"},
        legal_provision="BJP 21",
        occurred_at=datetime(2026, 11, 3, 2, 0, tzinfo=UTC),  # 2 Nov 23:00 in São Paulo
    )
    assert (err.field, err.code) == (None, "unit_value_missing")
    assert "UFM" in err.message and "02/11/2026" in err.message


def test_bjp_17_2_the_fine_follows_only_after_the_thirty_days(profile, people):
    # BJP 17 §2 I: intimated on 1 Sep 2026, 30 days (start excluded) end on 1 Oct; then 1 UFM.
    agent, _boss, _dir, citizen = people
    bjp = _bjp()
    inputs = {"specific": "above_household_limit", "notified_on": date(2026, 9, 1)}
    extra = dict(legal_provision="BJP 17 §2 II", fine_inputs=inputs, notified_on=date(2026, 9, 1))
    for still_running in (
        datetime(2026, 10, 1, 13, tzinfo=UTC),  # the 30th day: the term still runs
        datetime(2026, 10, 2, 1, 30, tzinfo=UTC),  # 1 Oct 22:30 in São Paulo
    ):
        err = _refused(bjp, agent, citizen, occurred_at=still_running, **extra)
        assert (err.field, err.code) == ("infraction_on", "term_running"), still_running
        assert "01/10/2026" in err.message and "BJP 17 §2 I" in err.message
    doc = _doc(bjp, agent, citizen, occurred_at=datetime(2026, 10, 2, 13, tzinfo=UTC), **extra)
    assert doc.fine_inputs == {
        "specific": "above_household_limit",
        "notified_on": "2026-09-01",
        "infraction_on": "2026-10-02",
    }
    assert (doc.fine_cents, doc.notified_on) == (5000, date(2026, 9, 1))


# -- BJP 19 §1 I and II: two fines, two people, one fact ------------------------------------------


def _pair(bjp, people, trainer, **extra):  # type: ignore[no-untyped-def]
    agent, _boss, _dir, owner = people
    extra.setdefault("fine_inputs", {"specific": "street_training"})
    return _doc(
        bjp,
        agent,
        owner,
        legal_provision="BJP 19 §1 I",
        joint_addressee=trainer,
        measures="  Recolher o animal  ",
        agent_title="Agente sanitário",
        **extra,
    )


def _second(doc: EnforcementDocument) -> EnforcementDocument:
    return db.session.scalar(
        select(EnforcementDocument).where(EnforcementDocument.joint_of_id == doc.id)
    )


def test_bjp_19_1_the_trainer_gets_a_document_and_fine_of_their_own(profile, people):
    # BJP 19 §1 I: 1 UFM on the owner; II: 1 UFM on the unregistered trainer (R$ 50,00 each)
    agent, _boss, _dir, owner = people
    bjp = _bjp()
    trainer = factories.user(full_name="Tião Adestrador")
    parent = _notice(bjp, agent, owner, "d7")
    pet = factories.animal(owner)
    doc = _pair(
        bjp,
        people,
        Addressee("  Tião Adestrador  ", trainer.cpf),
        fine_inputs={"specific": "street_training", "animals": 3, "animal_died": False},
        parent=parent,
        animal_id=pet.id,
    )
    second = _second(doc)
    assert doc.addressee_cpf == owner.cpf and doc.joint_of_id is None
    assert (doc.parent_id, doc.animal_id) == (parent.id, pet.id)
    assert (second.number, second.sequence) == ("2026-000003", 3)
    assert doc.number == "2026-000002"
    assert (second.kind, second.status, second.joint_of_id) == ("infraction", "issued", doc.id)
    assert (second.addressee_name, second.addressee_cpf, second.person_id) == (
        "Tião Adestrador",
        trainer.cpf,
        trainer.id,
    )
    assert (second.legal_provision, second.penalty_provision) == ("BJP 19 §1 II", "BJP 19 §1 II")
    assert (second.fact, second.place, _aware(second.occurred_at)) == ("Fato", "Rua A, 10", ON)
    assert (second.agent_id, second.agent_title, second.measures) == (
        agent.id,
        "Agente sanitário",
        "Recolher o animal",
    )
    assert (second.parent_id, second.animal_id, second.report_id) == (parent.id, pet.id, None)
    assert doc.fine_inputs == {
        "specific": "street_training",
        "animals": 3,
        "animal_died": False,
        "infraction_on": "2026-11-02",
    }
    assert second.fine_inputs == {
        "animals": 3,
        "animal_died": False,
        "infraction_on": "2026-11-02",
        "specific": "unregistered_trainer",
    }
    assert [_line(r) for r in doc.fine_breakdown] == [(5000, "BJP 19 §1 I", "fine", "owner")]
    assert [_line(r) for r in second.fine_breakdown] == [(5000, "BJP 19 §1 II", "fine", "trainer")]
    assert (doc.fine_cents, second.fine_cents) == (5000, 5000)
    assert [d for _a, d in _events(ISSUED, doc) + _events(ISSUED, second)] == [
        {"number": "2026-000002", "kind": "infraction"},
        {"number": "2026-000003", "kind": "infraction"},
    ]
    # the pair, read from either side; a document alone has no partner
    assert joint_partner(doc) is second and joint_partner(second) is doc
    assert joint_partner(parent) is None


def test_bjp_19_1_i_the_owner_s_declared_repeat_is_not_the_trainer_s(profile, people):
    # BJP 19 §1 I "dobrada na reincidência": the owner's 1 UFM doubled to 2; the trainer's own
    # record is clean: 1 UFM. Written on 1 Dec 2025: both numbers are of 2025.
    bjp = _bjp()
    trainer = factories.user()
    doc = _pair(
        bjp,
        people,
        Addressee(trainer.full_name, trainer.cpf),
        fine_inputs={"specific": "street_training", "repeat": True},
        today=date(2025, 12, 1),
        occurred_at=datetime(2025, 11, 3, 13, tzinfo=UTC),
    )
    second = _second(doc)
    assert [(d.number, d.year) for d in (doc, second)] == [
        ("2025-000001", 2025),
        ("2025-000002", 2025),
    ]
    assert doc.fine_inputs == {
        "specific": "street_training",
        "repeat": True,
        "infraction_on": "2025-11-03",
    }
    assert second.fine_inputs == {"specific": "unregistered_trainer", "infraction_on": "2025-11-03"}
    assert [_line(r) for r in doc.fine_breakdown] == [
        (5000, "BJP 19 §1 I", "fine", "owner"),
        (5000, "BJP 19 §1 I", "fine", "owner"),
    ]
    assert (doc.fine_cents, second.fine_cents) == (10000, 5000)
    assert "repeat" not in second.fine_inputs


def test_bjp_19_1_i_the_owner_s_dated_repeat_counts_with_or_without_the_trainer(profile, people):
    # BJP 19 §1 I "dobrada na reincidência": an earlier offence on 2 Nov 2025 -> 2 x 1 UFM.
    agent, _boss, _dir, owner = people
    bjp = _bjp()
    dated = {"specific": "street_training", "previous_offences": ["2025-11-02"]}
    alone = _doc(bjp, agent, owner, legal_provision="BJP 19 §1 I", fine_inputs=dated)
    assert alone.fine_cents == 10000
    trainer = factories.user()
    doc = _pair(bjp, people, Addressee(trainer.full_name, trainer.cpf), fine_inputs=dated)
    assert doc.fine_cents == 10000


def test_bjp_19_1_each_person_s_repeat_record_is_their_own(profile, people):
    # The search of previous offences with a repeat window (as GRU 79 has; a BJP profile with a
    # three-year window, to exercise it): "dobrada" doubles the previous fine at each repeat
    # (DOMAIN 10): owner 1 repeat -> 1 x 2 = 2 UFM; trainer 2 repeats -> 1 x 2 x 2 = 4 UFM.
    agent, _boss, _dir, owner = people
    real = _bjp()
    bjp = real.model_copy(
        update={"fines": real.fines.model_copy(update={"repeat_window_years": 3})}
    )
    trainer = factories.user()
    _standing(bjp, agent, owner, "BJP 19 §1 I", date(2025, 11, 2))
    _standing(bjp, agent, trainer, "BJP 19 §1 II", date(2025, 6, 1))
    _standing(bjp, agent, trainer, "BJP 19 §1 II", date(2025, 11, 2))
    _standing(bjp, agent, trainer, "BJP 19 §1 I", date(2025, 1, 5))  # not the trainer's provision
    doc = _pair(bjp, people, Addressee(trainer.full_name, trainer.cpf))
    second = _second(doc)
    assert doc.fine_inputs == {
        "specific": "street_training",
        "infraction_on": "2026-11-02",
        "previous_offences": ["2025-11-02"],
    }
    assert second.fine_inputs == {
        "infraction_on": "2026-11-02",
        "specific": "unregistered_trainer",
        "previous_offences": ["2025-06-01", "2025-11-02"],
    }
    assert [_line(r) for r in doc.fine_breakdown] == [
        (5000, "BJP 19 §1 I", "fine", "owner"),
        (5000, "BJP 19 §1 I", "fine", "owner"),
    ]
    assert [_line(r) for r in second.fine_breakdown] == [
        (5000, "BJP 19 §1 II", "fine", "trainer"),
        (15000, "BJP 19 §1 II", "fine", "trainer"),
    ]
    assert (doc.fine_cents, second.fine_cents) == (10000, 20000)
    clean = factories.user()
    fresh = _pair(bjp, people, Addressee(clean.full_name, clean.cpf))  # owner repeats again
    assert "previous_offences" not in _second(fresh).fine_inputs
    assert _second(fresh).fine_cents == 5000


def test_bjp_19_1_ii_the_trainer_s_repeat_doubles_their_fine(profile, people):
    # BJP 19 §1 II: "Multa de 1 UFM para o adestrador não cadastrado, dobrada na reincidência"
    agent, _boss, _dir, _owner = people
    bjp = _bjp()
    trainer = factories.user()
    _standing(bjp, agent, trainer, "BJP 19 §1 II", date(2025, 11, 2))
    doc = _pair(bjp, people, Addressee(trainer.full_name, trainer.cpf))
    assert _second(doc).fine_cents == 10000


def test_bjp_19_1_the_other_fine_is_for_another_person(profile, people):
    # "São duas multas a duas pessoas diferentes" (BJP 19 §1 II), even with the CPF formatted
    _agent, _boss, _dir, owner = people
    bjp = _bjp()
    formatted = f"{owner.cpf[:3]}.{owner.cpf[3:6]}.{owner.cpf[6:9]}-{owner.cpf[9:]}"
    with pytest.raises(EnforcementError) as err:
        _pair(bjp, people, Addressee("Dono de novo", formatted))
    assert (err.value.field, err.value.code) == ("joint_cpf", "same_person")
    assert "BJP 19 §1 II" in err.value.message


def test_bjp_19_1_only_the_joint_fine_fines_another_person(profile, people):
    agent, _boss, _dir, owner = people
    bjp = _bjp()
    other = Addressee("Outro", factories.make_cpf(991))
    for prof, fine_inputs, provision in (
        (bjp, None, "BJP 19 §1 I"),  # no fine at all
        (bjp, {"specific": "abandonment"}, "BJP 21"),  # a fine on one person only
        (profile, GRU_FINE, "GRU 10 V a"),  # GRU's graded fines fine one person
    ):
        err = _refused(
            prof,
            agent,
            owner,
            legal_provision=provision,
            fine_inputs=fine_inputs,
            joint_addressee=other,
        )
        assert (err.field, err.code) == ("joint_cpf", "not_joint"), provision


def test_bjp_19_1_ii_the_trainer_is_identified_like_any_addressee(profile, people):
    # GRU 96 I / BJP 19 §1 II: the second person is named and identified; errors point at the
    # form's fields for the other person (the CNPJ has no field of its own there)
    bjp = _bjp()
    for trainer, field, code in (
        (Addressee("Tião", "123.456.789-00"), "joint_cpf", "invalid"),
        (Addressee("   ", "111.444.777-35"), "joint_name", "required"),
        (Addressee("Tião"), "joint_cpf", "required"),
        (Addressee("Tião", None, "11.222.333/0001-82"), "cnpj", "invalid"),
    ):
        with pytest.raises(EnforcementError) as err:
            _pair(bjp, people, trainer)
        assert (err.value.field, err.value.code) == (field, code), trainer
        assert err.value.message  # the addressee's own message, passed on


def test_bjp_19_1_an_owner_known_by_cnpj_and_a_trainer_without_cpf(profile, people):
    agent, _boss, _dir, owner = people
    bjp = _bjp()
    with pytest.raises(EnforcementError) as err:
        _doc(
            bjp,
            agent,
            owner,
            addressee=Addressee("Canil", None, CNPJ),
            legal_provision="BJP 19 §1 I",
            fine_inputs={"specific": "street_training"},
            joint_addressee=Addressee("Tião"),
        )
    assert (err.value.field, err.value.code) == ("joint_cpf", "required")


def test_bjp_19_1_an_error_of_the_joint_pricing_keeps_its_field(profile, people, monkeypatch):
    real = issuing.compute_fee

    def refuse_joint(profile, kind, inputs, on):  # type: ignore[no-untyped-def]
        if "joint" in inputs:
            raise FeeError("joint", "not_joint", "Sem multa conjunta.")
        return real(profile, kind, inputs, on)

    monkeypatch.setattr(issuing, "compute_fee", refuse_joint)
    bjp = _bjp()
    trainer = factories.user()
    with pytest.raises(EnforcementError) as err:
        _pair(bjp, people, Addressee(trainer.full_name, trainer.cpf))
    assert (err.value.field, err.value.code, err.value.message) == (
        "joint",
        "not_joint",
        "Sem multa conjunta.",
    )


# -- the maus-tratos report the document answers ---------------------------------------------------


def test_gru_95_a_notice_closes_the_report_waiting_for_it(
    profile,
    people,
    server_in_sao_paulo,  # noqa: F811
):
    agent, _boss, _dir, citizen = people
    report = _report()  # inspected: "aguardando notificação/captura"
    before = datetime.now(UTC)
    doc = _notice(profile, agent, citizen, "d15", report=report)
    db.session.flush()
    assert doc.report_id == report.id
    assert report.state == ReportState.CLOSED
    assert before - timedelta(seconds=1) <= _aware(report.updated_at) <= datetime.now(UTC)
    events = list(
        db.session.scalars(
            select(ReportEvent).where(ReportEvent.report_id == report.id).order_by(ReportEvent.id)
        )
    )
    assert [(e.kind, e.from_state, e.to_state, e.public, e.actor_id) for e in events] == [
        ("state", "inspected", "closed", True, agent.id),
        ("note", None, None, False, agent.id),
    ]
    assert doc.number in events[1].text and doc.number not in events[0].text
    audits = [
        (e.subject_type, e.subject_id, e.detail) for e in factories.audit_events("report.state")
    ]
    assert audits == [
        (
            "MaltreatmentReport",
            str(report.id),
            {"protocol": "DEN-2026-000007", "from": "inspected", "to": "closed"},
        )
    ]
    assert db.session.scalar(select(OutboxMessage)) is None  # issuing mails nobody


def test_a_report_not_waiting_for_a_notice_is_left_as_it_is(profile, people):
    agent, _boss, _dir, citizen = people
    report = _report()
    for state in (ReportState.ASSIGNED, ReportState.CLOSED, ReportState.TRIAGE):
        report.state = state
        db.session.flush()
        doc = _doc(profile, agent, citizen, report=report)
        assert (doc.report_id, report.state) == (report.id, state)
        assert report.events == []
    assert factories.audit_events("report.state") == []


def test_bjp_19_1_the_pair_closes_the_report_once_with_the_first_number(profile, people):
    bjp = _bjp()
    trainer = factories.user()
    report = _report()
    doc = _pair(bjp, people, Addressee(trainer.full_name, trainer.cpf), report=report)
    second = _second(doc)
    assert (doc.report_id, second.report_id) == (report.id, None)
    assert report.state == ReportState.CLOSED
    assert [e.kind for e in report.events] == ["state", "note"]
    assert doc.number in report.events[1].text and second.number not in report.events[1].text
    assert len(factories.audit_events("report.state")) == 1

"""Issue 27, the last law items of the impound: the euthanasia where the animal is, per city.

CAB 9 and §ú (Cabeceira Grande): an animal run over or in a state that makes its removal impossible
is assessed there by the agent or the vet, and euthanised "in loco" when the owner has not come
and it suffers; CABO 11 (Cabo de Santo Agostinho): an animal whose apprehension is impracticable,
at the agent's judgement, after an auto de constatação witnessed by at least two people. Both
read under Lei 14.228/2021 art. 2º: a dog or a cat only on the vet's laudo of a serious incurable
disease. GRU 90 keeps its own tests (test_law_audit_destinations.py).
"""

from __future__ import annotations

import io
from datetime import date

import pytest
from sqlalchemy import select

from portal.blueprints.impound import on_site
from portal.domain import DomainError
from portal.extensions import db
from portal.models import OnSiteEuthanasia
from portal.profiles.summary import rule_sections
from tests import factories
from tests.integration.impound.test_impound_rules import BJP, CAB, CABO, GRU, VV

DAY = date(2026, 3, 2)
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
LAUDO = "Laudo: politraumatismo com fratura de coluna, sem possibilidade de cura"
CONFIRMED = ("owner_absent", "suffering", "staff_safe")
WITNESSES = [("Maria da Silva", "12.345.678-9"), ("José Souza", "MG-1.234.567")]


def _agent():  # type: ignore[no-untyped-def]
    return factories.user(roles=("agent",))


def _vet():  # type: ignore[no-untyped-def]
    return factories.user(roles=("vet",))


def _data(**changed):  # type: ignore[no-untyped-def]
    values = dict(
        species="other",
        size="large",
        description="Cavalo tordilho",
        place="Rodovia MG-188, km 12",
        district="Zona rural",
        performed_on=DAY,
        transport_impossible="Atropelado, com fratura de coluna; não se levanta",
        vet_report="",
        vet_crmv="",
        laudo_file=None,
        assessment="Fratura exposta de duas patas, sangramento, sofrimento intenso",
        confirmations=CONFIRMED,
        witnesses=list(WITNESSES),
    )
    values.update(changed)
    return on_site.OnSiteData(**values)  # type: ignore[arg-type]


def _dog_laudo(**changed):  # type: ignore[no-untyped-def]
    values = dict(
        species="dog",
        size="medium",
        description="Cão caramelo",
        vet_report=LAUDO,
        vet_crmv="CRMV-MG 77",
        laudo_file=(io.BytesIO(PDF), "laudo.pdf"),
        federal_ground="incurable_disease",
    )
    values.update(changed)
    return _data(**values)


def _refused(profile, data, actor=None):  # type: ignore[no-untyped-def]
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(profile, data, actor=actor or _agent(), today=DAY)
    assert db.session.scalar(select(OnSiteEuthanasia)) is None
    return caught.value


def _rules_text(profile) -> str:  # type: ignore[no-untyped-def]
    return " ".join(
        f"{item.text} ({item.article})"
        for section in rule_sections(profile)
        for item in section.items
    )


# -- CAB 9 and §ú ---------------------------------------------------------------------------------


@pytest.mark.parametrize("judge", ["agent", "vet"])
def test_cab_9_the_agent_or_the_vet_assesses_and_records_a_horse_without_laudo(app, judge):  # type: ignore[no-untyped-def]
    actor = factories.user(roles=(judge,))
    record = on_site.record_on_site_euthanasia(CAB, _data(), actor=actor, today=DAY)
    assert record.article == "CAB 9 §ú" and record.judged_by_role == judge
    assert record.assessment.startswith("Fratura exposta") and record.size == "large"
    assert record.confirmations == list(CONFIRMED) and record.laudo_file_id is None
    assert record.witnesses is None and record.federal_ground is None  # no witnesses in CAB


def test_cab_9_an_assessment_is_required_without_a_laudo(app):  # type: ignore[no-untyped-def]
    err = _refused(CAB, _data(assessment="  "))
    assert (err.field, err.code) == ("assessment", "required")


def test_cab_9_the_form_asks_why_removal_is_impossible(app):  # type: ignore[no-untyped-def]
    err = _refused(CAB, _data(transport_impossible=""))
    assert (err.field, err.code) == ("transport_impossible", "required")
    assert "remoção é impossível" in err.message and "(CAB 9)" in err.message


@pytest.mark.parametrize("missing", CONFIRMED)
def test_cab_9_su_each_condition_must_be_confirmed(app, missing):  # type: ignore[no-untyped-def]
    given = tuple(c for c in CONFIRMED if c != missing)
    err = _refused(CAB, _data(confirmations=given))
    assert (err.field, err.code) == (missing, "not_confirmed") and "(CAB 9 §ú)" in err.message


def test_cab_9_su_with_the_owner_present_the_act_does_not_apply(app):  # type: ignore[no-untyped-def]
    err = _refused(CAB, _data(confirmations=("suffering", "staff_safe")))
    assert "proprietário presente" in err.message


def test_cab_9_a_coordinator_alone_may_not_decide(app):  # type: ignore[no-untyped-def]
    err = _refused(CAB, _data(), actor=factories.user(roles=("coordinator",)))
    assert err.code == "agent_or_vet"


def test_cab_9_su_a_dog_needs_the_federal_laudo(app):  # type: ignore[no-untyped-def]
    # Lei 14.228/2021 art. 2º: the municipal conditions alone never allow a dog's death
    err = _refused(CAB, _data(species="dog", size="small"))
    assert (err.field, err.code) == ("federal_ground", "federal_laudo")
    assert "Lei federal 14.228/2021, art. 2º" in err.message
    err = _refused(CAB, _dog_laudo(laudo_file=None))
    assert (err.field, err.code) == ("laudo_file", "required")
    err = _refused(CAB, _dog_laudo(vet_crmv=" "))
    assert (err.field, err.code) == ("vet_crmv", "required")
    err = _refused(CAB, _dog_laudo(federal_ground="old_age"))
    assert err.code == "federal_laudo"


@pytest.mark.parametrize("ground", ["incurable_disease", "infectious_risk"])
def test_cab_9_su_a_cat_with_the_vets_laudo_is_recorded_citing_the_federal_law(app, ground):  # type: ignore[no-untyped-def]
    data = _dog_laudo(federal_ground=ground)
    data.species = "cat"
    record = on_site.record_on_site_euthanasia(CAB, data, actor=_vet(), today=DAY)
    assert record.article == "Lei federal 14.228/2021, art. 2º; CAB 9 §ú"
    assert record.federal_ground == ground and record.species == "cat"
    assert record.laudo_file is not None and record.laudo_file.purpose == "impound_laudo"
    assert record.size == "small"  # CAB 12, 19: a cat is apart from the medium/large animals


def test_cab_9_future_date_refused(app):  # type: ignore[no-untyped-def]
    err = _refused(CAB, _data(performed_on=date(2026, 3, 3)))
    assert (err.field, err.code) == ("performed_on", "future")


# -- CABO 11 ------------------------------------------------------------------------------------


def test_cabo_11_an_auto_de_constatacao_with_two_witnesses(app):  # type: ignore[no-untyped-def]
    agent = _agent()
    record = on_site.record_on_site_euthanasia(
        CABO, _data(confirmations=()), actor=agent, today=DAY
    )
    assert record.article == "CABO 11" and record.judged_by_role == "agent"
    assert record.witnesses == [
        {"name": "Maria da Silva", "document": "12.345.678-9"},
        {"name": "José Souza", "document": "MG-1.234.567"},
    ]
    assert record.confirmations is None  # CAB 9 §ú's conditions are not CABO's


def test_cabo_11_a_witness_cpf_is_kept_as_digits_and_shown_masked(app):  # type: ignore[no-untyped-def]
    cpf = factories.make_cpf(4242)
    typed = f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}"
    data = _data(witnesses=[("Ana", typed), ("Rui", "RG 998877")])
    record = on_site.record_on_site_euthanasia(CABO, data, actor=_agent(), today=DAY)
    assert record.witnesses[0]["document"] == cpf
    from portal.blueprints.impound.on_site_rules import shown_document

    assert shown_document(cpf) == f"***.{cpf[3:6]}.{cpf[6:9]}-**"


@pytest.mark.parametrize(
    ("witnesses", "field", "code"),
    [
        ([], "witness_1_name", "witnesses"),
        ([WITNESSES[0]], "witness_2_name", "witnesses"),  # one is not "no mínimo 2"
        ([WITNESSES[0], ("", "")], "witness_2_name", "witnesses"),  # a blank row does not count
        ([WITNESSES[0], ("Pedro", "")], "witness_2_document", "required"),
        ([WITNESSES[0], ("", "RG 1234")], "witness_2_name", "required"),
        ([WITNESSES[0], ("Outra Maria", "12.345.678-9")], "witness_2_document", "duplicate"),
        ([WITNESSES[0], ("Pedro", "123")], "witness_2_document", "invalid"),
        ([WITNESSES[0], ("Pedro", "111.111.111-11")], "witness_2_document", "invalid"),
    ],
    ids=["none", "one", "blank", "no_document", "no_name", "same_person", "short", "bad_cpf"],
)
def test_cabo_11_at_least_two_distinct_witnesses_with_name_and_document(  # type: ignore[no-untyped-def]
    app, witnesses, field, code
):
    err = _refused(CABO, _data(witnesses=witnesses))
    assert (err.field, err.code) == (field, code)
    if code == "witnesses":
        assert "no mínimo 2 testemunhas" in err.message and "(CABO 11)" in err.message


def test_cabo_11_three_witnesses_are_kept(app):  # type: ignore[no-untyped-def]
    data = _data(witnesses=[*WITNESSES, ("Carla", "RG 555666")])
    record = on_site.record_on_site_euthanasia(CABO, data, actor=_agent(), today=DAY)
    assert len(record.witnesses) == 3


def test_cabo_11_the_agent_may_not_witness_his_own_auto(app):  # type: ignore[no-untyped-def]
    agent = _agent()
    data = _data(witnesses=[WITNESSES[0], ("Eu mesmo", agent.cpf)])
    err = _refused(CABO, data, actor=agent)
    assert (err.field, err.code) == ("witness_2_document", "agent_as_witness")


def test_cabo_11_only_the_agents_judgement(app):  # type: ignore[no-untyped-def]
    err = _refused(CABO, _data(), actor=_vet())
    assert err.code == "agent_only" and "(CABO 11)" in err.message
    both = factories.user(roles=("vet", "agent"))
    assert on_site.record_on_site_euthanasia(CABO, _data(), actor=both, today=DAY).id


def test_cabo_11_a_dog_whose_capture_is_impracticable_needs_the_federal_laudo(app):  # type: ignore[no-untyped-def]
    err = _refused(CABO, _data(species="dog", size="medium"))
    assert err.code == "federal_laudo"
    record = on_site.record_on_site_euthanasia(
        CABO, _dog_laudo(federal_ground="infectious_risk"), actor=_agent(), today=DAY
    )
    assert record.article == "Lei federal 14.228/2021, art. 2º; CABO 11"
    assert record.vet_crmv == "CRMV-MG 77" and len(record.witnesses) == 2


def test_cabo_11_other_species_need_no_laudo_but_an_assessment(app):  # type: ignore[no-untyped-def]
    record = on_site.record_on_site_euthanasia(
        CABO, _data(size="small", description="Bode bravio"), actor=_agent(), today=DAY
    )
    assert record.size == "small" and record.vet_report is None


# -- GRU 90 stays as it was; other cities have nothing -----------------------------------------


def test_gru_90_still_refuses_dogs_outright_and_needs_the_laudo_for_a_horse(app):  # type: ignore[no-untyped-def]
    err = _refused(GRU, _dog_laudo(size="large"))
    assert (err.field, err.code) == ("species", "federal_species")
    err = _refused(GRU, _data())
    assert (err.field, err.code) == ("vet_report", "required")


@pytest.mark.parametrize("profile", [BJP, VV], ids=lambda p: p.key)
def test_cab_9_cabo_11_no_act_where_the_law_has_none(app, profile):  # type: ignore[no-untyped-def]
    assert not on_site.offered(profile)
    assert _refused(profile, _data()).code == "not_provided"


# -- The rules page and the staff pages ---------------------------------------------------------


def test_cab_9_cabo_11_rules_page_states_the_conditions_and_the_federal_reading(app):  # type: ignore[no-untyped-def]
    cab = _rules_text(CAB)
    assert "atropelado" in cab and "(CAB 9 §ú)" in cab and "má impressão aos cidadãos" in cab
    cabo = _rules_text(CABO)
    assert "auto de constatação" in cabo and "no mínimo 2 pessoas" in cabo and "(CABO 11)" in cabo
    for text in (cab, cabo):
        assert "(Lei federal 14.228/2021, art. 2º)" in text and "sem esse laudo" in text
    assert "Nunca cães e gatos. (GRU 90)" in _rules_text(GRU)


def _staff(make_app, key, roles):  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE=key)
    ctx = app.app_context()
    ctx.push()
    client = app.test_client()
    person = factories.user(roles=roles)
    db.session.commit()
    client.post("/conta/entrar", data={"email": person.email, "password": factories.PASSWORD})
    return app, ctx, client


def test_cabo_11_staff_page_keeps_what_was_typed_and_records_the_auto(make_app):  # type: ignore[no-untyped-def]
    _, ctx, client = _staff(make_app, "cabo", ("agent",))
    try:
        page = client.get("/ccz/eutanasia-no-local")
        assert page.status_code == 200 and 'id="testemunhas"' in page.text
        assert "Por que a apreensão do animal é impraticável" in page.text
        assert 'id="lei-federal"' in page.text and "owner_absent" not in page.text
        form = {
            "species": "other",
            "size": "large",
            "description": "Boi bravio",
            "place": "Engenho Massangana",
            "district": "Zona rural",
            "performed_on": "2026-03-02",
            "transport_impossible": "Animal arisco, investe contra a equipe",
            "assessment": "Ferida infectada na pata",
            "witness_1_name": "Maria da Silva",
            "witness_1_document": "12.345.678-9",
        }
        refused = client.post("/ccz/eutanasia-no-local", data=form)
        assert refused.status_code == 422 and "no mínimo 2 testemunhas" in refused.text
        assert "Maria da Silva" in refused.text and "Boi bravio" in refused.text
        form.update(witness_2_name="José Souza", witness_2_document="RG 7654321")
        sent = client.post("/ccz/eutanasia-no-local", data=form)
        assert sent.status_code == 302
        listed = client.get("/ccz/eutanasia-no-local").text
        assert "Auto de constatação nº EUT-2026-00001" in listed and "José Souza" in listed
    finally:
        ctx.pop()


def test_cab_9_su_staff_page_asks_the_conditions(make_app):  # type: ignore[no-untyped-def]
    _, ctx, client = _staff(make_app, "cabeceira", ("vet",))
    try:
        page = client.get("/ccz/eutanasia-no-local")
        assert page.status_code == 200 and 'id="regra-cab-9"' in page.text
        assert 'name="owner_absent"' in page.text and 'id="testemunhas"' not in page.text
        answer = client.post(
            "/ccz/eutanasia-no-local",
            data={
                "species": "dog",
                "size": "small",
                "description": "Cão preto atropelado",
                "place": "Av. Central, 100",
                "district": "Centro",
                "performed_on": "2026-03-02",
                "transport_impossible": "Atropelado, sem poder ser movido",
                "assessment": "Sofrimento intenso",
                "owner_absent": "y",
                "suffering": "y",
                "staff_safe": "y",
            },
        )
        assert answer.status_code == 422 and "Lei federal 14.228/2021, art. 2º" in answer.text
        assert "Cão preto atropelado" in answer.text
        assert db.session.scalar(select(OnSiteEuthanasia)) is None
    finally:
        ctx.pop()

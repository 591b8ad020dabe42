"""Issue 27, "Missing, by city": where an impounded animal may go.

GRU 88 II-III (species outside Lei 14.228/2021: euthanasia on a laudo of incurable disease, the
licensed slaughterhouse), GRU 90 (euthanasia where a large animal is, its transport impossible),
CAB 20 (medium and large animals: auction first, then what follows a failed auction), CABO 13 IV
(donation). Dates are 2026: captures on Monday 2 March; every hold has ended by Friday 20 March.
"""

from __future__ import annotations

import io
from datetime import date

import pytest
from sqlalchemy import select

from portal.blueprints.impound import on_site, services
from portal.domain import DomainError
from portal.extensions import db
from portal.models import AuditEvent, CaptureStatus, OnSiteEuthanasia, StoredFile
from portal.profiles.summary import rule_sections
from tests import factories
from tests.integration.impound.test_destination_edges import (
    FEDERAL,
    LAUDO,
    _agent,
    _destine,
    _horse,
    _refusal,
    _vet,
)
from tests.integration.impound.test_impound_rules import BJP, CAB, CABO, GRU, VV, _capture

MONDAY = date(2026, 3, 2)
AFTER = date(2026, 3, 20)  # every hold is over
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"
FULL_LAUDO = {"vet_report": LAUDO, "vet_crmv": "CRMV-SP 9", "incurable": True}


def _rules_text(profile) -> str:  # type: ignore[no-untyped-def]
    return " ".join(
        f"{item.text} ({item.article})"
        for section in rule_sections(profile)
        for item in section.items
    )


# -- GRU 88 III: the licensed slaughterhouse, never for dogs and cats ----------------------------


def test_gru_88_iii_a_horse_goes_to_the_licensed_slaughterhouse(app):  # type: ignore[no-untyped-def]
    capture = _horse(GRU)
    assert "slaughterhouse" in services.destinations_offered(GRU, capture, today=AFTER)
    err = _refusal(GRU, capture, AFTER, "slaughterhouse", slaughterhouse="  ")
    assert (err.field, err.code) == ("slaughterhouse", "required")
    assert "GRU 86, 88" in err.message
    decision = _destine(
        GRU, capture, AFTER, "slaughterhouse", slaughterhouse=" Frigorífico Bom Boi, SIF 123 "
    )
    assert decision.slaughterhouse == "Frigorífico Bom Boi, SIF 123"
    assert capture.status == CaptureStatus.DESTINED


@pytest.mark.parametrize("species", ["dog", "cat"])
@pytest.mark.parametrize("size", ["small", "large"])
def test_gru_88_iii_a_dog_or_cat_is_never_offered_the_slaughterhouse(app, species, size):  # type: ignore[no-untyped-def]
    capture = _capture(GRU, MONDAY, species=species, size=size)
    assert "slaughterhouse" not in services.destinations_offered(
        GRU, capture, incurable_laudo=True, today=AFTER
    )
    err = _refusal(GRU, capture, AFTER, "slaughterhouse", slaughterhouse="Frigorífico")
    assert (err.field, err.code) == ("destination", "not_allowed")


@pytest.mark.parametrize("profile", [BJP, VV, CAB, CABO], ids=lambda p: p.key)
def test_gru_88_iii_no_slaughterhouse_where_the_law_has_none(app, profile):  # type: ignore[no-untyped-def]
    capture = _horse(profile)
    assert "slaughterhouse" not in services.destinations_offered(profile, capture, today=AFTER)


def test_gru_88_iii_a_slaughterhouse_name_given_for_another_destination_is_not_kept(app):  # type: ignore[no-untyped-def]
    capture = _horse(GRU)
    decision = _destine(GRU, capture, AFTER, "adoption", slaughterhouse="Frigorífico")
    assert decision.slaughterhouse is None


# -- GRU 88 II: another species' euthanasia on the vet's laudo of incurable disease -------------


def test_gru_88_ii_a_horses_euthanasia_refused_citing_the_municipal_law(app):  # type: ignore[no-untyped-def]
    capture = _horse(GRU, condition="serious")
    for actor, changed in (
        (_agent(), {}),  # not a vet
        (_vet(), {"vet_report": "  "}),  # no laudo
        (_vet(), {"incurable": False}),  # the laudo states no incurable disease
    ):
        err = _refusal(GRU, capture, AFTER, "euthanasia", actor=actor, **{**FULL_LAUDO, **changed})
        assert (err.field, err.code) == ("destination", "euthanasia_refused")
        assert "(GRU 88 II)" in err.message and "doença incurável" in err.message
        assert FEDERAL not in err.message  # Lei 14.228/2021 is about dogs and cats


def test_gru_88_ii_a_horses_euthanasia_with_the_laudo_and_its_signed_file(app):  # type: ignore[no-untyped-def]
    capture = _horse(GRU, condition="serious")
    decision = _destine(
        GRU,
        capture,
        AFTER,
        "euthanasia",
        actor=_vet(),
        laudo_file=(io.BytesIO(PDF), "laudo.pdf"),
        **FULL_LAUDO,
    )
    stored = db.session.get(StoredFile, decision.laudo_file_id)
    assert stored.purpose == "impound_laudo" and not stored.public
    assert stored.content_type == "application/pdf"


def test_gru_88_ii_a_bad_laudo_file_is_refused_beside_its_field(app):  # type: ignore[no-untyped-def]
    capture = _horse(GRU, condition="serious")
    err = _refusal(
        GRU,
        capture,
        AFTER,
        "euthanasia",
        actor=_vet(),
        laudo_file=(io.BytesIO(b"not a document"), "laudo.txt"),
        **FULL_LAUDO,
    )
    assert err.field == "laudo_file"


def test_gru_88_ii_dogs_keep_the_federal_procedure_and_citation(app):  # type: ignore[no-untyped-def]
    capture = _capture(GRU, MONDAY, condition="serious")
    err = _refusal(GRU, capture, AFTER, "euthanasia", actor=_vet(), incurable=False)
    assert err.code == "euthanasia_refused" and "Lei federal 14.228/2021" in err.message
    assert "GRU 88" not in err.message


# -- GRU 90: euthanasia where a large animal is, its transport impossible -----------------------


def _on_site(**changed):  # type: ignore[no-untyped-def]
    values = dict(
        species="other",
        size="large",
        description="Cavalo baio, sem marcas",
        place="Estrada do Sacramento, km 3",
        district="Bonsucesso",
        performed_on=date(2026, 3, 2),
        transport_impossible="Fratura exposta, sem condições de embarque",
        vet_report=LAUDO,
        vet_crmv="CRMV-SP 9",
        laudo_file=(io.BytesIO(PDF), "laudo.pdf"),
        owner_name=None,
    )
    values.update(changed)
    return on_site.OnSiteData(**values)  # type: ignore[arg-type]


def test_gru_90_a_large_animal_euthanised_on_the_spot_with_the_vets_laudo(app):  # type: ignore[no-untyped-def]
    agent = _agent()
    record = on_site.record_on_site_euthanasia(
        GRU, _on_site(owner_name=" Seu Zé "), actor=agent, today=date(2026, 3, 2)
    )
    assert record.number == "EUT-2026-00001" and record.article == "GRU 90"
    assert (record.size, record.owner_name, record.recorded_by_id) == ("large", "Seu Zé", agent.id)
    assert record.laudo_file.purpose == "impound_laudo"
    event = db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "impound.on_site_euthanasia")
    )
    assert event is not None and event.detail["number"] == "EUT-2026-00001"
    second = on_site.record_on_site_euthanasia(GRU, _on_site(), actor=_vet(), today=MONDAY)
    assert second.number == "EUT-2026-00002"


@pytest.mark.parametrize(
    ("changed", "field", "code"),
    [
        ({"species": "dog"}, "species", "federal_species"),  # Lei 14.228/2021
        ({"species": "cat", "size": "small"}, "species", "federal_species"),
        ({"size": "medium"}, "size", "not_large"),  # GRU 90: "animal de grande porte"
        ({"laudo_file": None}, "laudo_file", "required"),
        ({"transport_impossible": "  "}, "transport_impossible", "required"),
        ({"vet_crmv": ""}, "vet_crmv", "required"),
        ({"performed_on": date(2026, 3, 3)}, "performed_on", "future"),
    ],
    ids=["dog", "cat", "medium", "no_file", "no_reason", "no_crmv", "future"],
)
def test_gru_90_refusals_beside_the_field(app, changed, field, code):  # type: ignore[no-untyped-def]
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(GRU, _on_site(**changed), actor=_agent(), today=MONDAY)
    assert (caught.value.field, caught.value.code) == (field, code)
    assert db.session.scalar(select(OnSiteEuthanasia)) is None


def test_gru_90_refusal_messages_cite_the_laws(app):  # type: ignore[no-untyped-def]
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(GRU, _on_site(size="small"), actor=_agent(), today=MONDAY)
    assert "grande porte" in caught.value.message and "(GRU 90)" in caught.value.message
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(GRU, _on_site(species="dog"), actor=_vet(), today=MONDAY)
    assert "14.228/2021" in caught.value.message


def test_gru_90_only_an_agent_or_a_vet_records_it(app):  # type: ignore[no-untyped-def]
    coordinator = factories.user(roles=("coordinator",))
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(GRU, _on_site(), actor=coordinator, today=MONDAY)
    assert caught.value.code == "agent_or_vet"


# CAB 9 §ú and CABO 11 have their own on-site act (test_law_on_site_euthanasia.py).
@pytest.mark.parametrize("profile", [BJP, VV], ids=lambda p: p.key)
def test_gru_90_no_on_site_euthanasia_where_the_law_has_none(app, profile):  # type: ignore[no-untyped-def]
    assert not on_site.offered(profile)
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(profile, _on_site(), actor=_vet(), today=MONDAY)
    assert caught.value.code == "not_provided"


def test_gru_90_staff_page_records_the_act_with_its_laudo(client, auth):  # type: ignore[no-untyped-def]
    auth.login(roles=("agent",))
    page = client.get("/ccz/eutanasia-no-local")
    assert page.status_code == 200 and "GRU 90" in page.text
    form = {
        "species": "other",
        "size": "large",
        "description": "Boi malhado",
        "place": "Rua das Flores, 1",
        "district": "Centro",
        "performed_on": "2026-03-02",
        "transport_impossible": "Atolado e com fratura",
        "vet_report": LAUDO,
        "vet_crmv": "CRMV-SP 9",
    }
    missing = client.post("/ccz/eutanasia-no-local", data=form)
    assert missing.status_code == 422
    assert "Anexe o laudo assinado" in missing.text and "Boi malhado" in missing.text
    sent = client.post(
        "/ccz/eutanasia-no-local",
        data={**form, "laudo_file": (io.BytesIO(PDF), "laudo.pdf")},
        content_type="multipart/form-data",
    )
    assert sent.status_code == 302
    listed = client.get("/ccz/eutanasia-no-local")
    assert "Boi malhado" in listed.text and "Baixar o laudo assinado" in listed.text


def test_gru_90_a_dog_on_the_staff_page_is_refused_in_portuguese(client, auth):  # type: ignore[no-untyped-def]
    auth.login(roles=("vet",))
    answer = client.post(
        "/ccz/eutanasia-no-local",
        data={
            "species": "dog",
            "size": "large",
            "description": "Cão grande",
            "place": "Rua A",
            "district": "Centro",
            "performed_on": "2026-03-02",
            "transport_impossible": "x",
            "vet_report": LAUDO,
            "vet_crmv": "CRMV-SP 9",
            "laudo_file": (io.BytesIO(PDF), "laudo.pdf"),
        },
        content_type="multipart/form-data",
    )
    assert answer.status_code == 422 and "Cães e gatos não podem ter eutanásia no local" in (
        answer.text
    )
    assert db.session.scalar(select(OnSiteEuthanasia)) is None


def test_gru_90_page_absent_where_the_law_has_none(make_app):  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE="bjp")  # CAB 9 §ú has its own act now
    with app.app_context():
        client = app.test_client()
        vet = factories.user(roles=("vet",))
        db.session.commit()
        client.post("/conta/entrar", data={"email": vet.email, "password": factories.PASSWORD})
        assert client.get("/ccz/eutanasia-no-local").status_code == 404


# -- CAB 20: medium and large animals go to auction first ------------------------------------


def test_cab_20_a_large_animal_goes_to_auction_before_anything_else(app):  # type: ignore[no-untyped-def]
    capture = _horse(CAB)
    assert services.destinations_offered(CAB, capture, today=AFTER) == ["auction"]
    err = _refusal(CAB, capture, AFTER, "adoption")
    assert (err.field, err.code) == ("destination", "not_yet")
    assert "leilão frustrado" in err.message and "(CAB 20)" in err.message
    dog = _capture(CAB, MONDAY, species="dog", size="large")  # CAB 12: dogs apart
    assert services.destinations_offered(CAB, dog, today=AFTER) == ["adoption", "ngo_donation"]


def test_cab_20_the_vet_may_recommend_euthanasia_before_the_auction(app):  # type: ignore[no-untyped-def]
    capture = _horse(CAB, condition="serious")
    err = _refusal(CAB, capture, AFTER, "euthanasia", actor=_agent(), **FULL_LAUDO)
    assert err.code == "euthanasia_refused" and "(CAB 20)" in err.message
    assert "leilão" in err.message and FEDERAL not in err.message
    # CAB 20 "recomendada pelo médico veterinário": no incurable disease needed
    decision = _destine(
        CAB, capture, AFTER, "euthanasia", actor=_vet(), **{**FULL_LAUDO, "incurable": False}
    )
    assert decision.destination == "euthanasia"


def test_cab_20_after_a_failed_auction(app):  # type: ignore[no-untyped-def]
    capture = _horse(CAB)
    _destine(CAB, capture, AFTER, "auction")
    assert services.pending_auction(capture) is not None
    assert "leilão" in services.next_step(capture, AFTER)
    outcome = services.record_auction_outcome(
        capture, sold=False, actor=_agent(), today=date(2026, 4, 6)
    )
    assert (outcome.auction_outcome, outcome.auction_outcome_on) == ("failed", date(2026, 4, 6))
    assert capture.status == CaptureStatus.IN_CUSTODY and services.auction_failed(capture)
    day = date(2026, 4, 6)
    assert services.destinations_offered(CAB, capture, today=day) == ["adoption", "ngo_donation"]
    assert services.destinations_offered(CAB, capture, vet=True, today=day) == [
        "adoption",
        "ngo_donation",
        "euthanasia",
    ]
    # CAB 20 "ou se mostre frustrada a tentativa de leilão": no laudo needed, still the vet
    attempt = db.session.begin_nested()
    with pytest.raises(DomainError) as caught:
        _destine(CAB, capture, day, "euthanasia", actor=_agent(), vet_crmv="CRMV-MG 1")
    attempt.rollback()
    assert caught.value.code == "euthanasia_refused"
    decision = _destine(CAB, capture, day, "euthanasia", actor=_vet(), vet_crmv="CRMV-MG 1")
    assert decision.destination == "euthanasia" and capture.status == CaptureStatus.DESTINED


def test_cab_20_a_sold_auction_closes_the_case(app):  # type: ignore[no-untyped-def]
    capture = _horse(CAB)
    _destine(CAB, capture, AFTER, "auction")
    services.record_auction_outcome(capture, sold=True, actor=_agent(), today=AFTER)
    assert capture.status == CaptureStatus.DESTINED and services.pending_auction(capture) is None
    with pytest.raises(DomainError) as caught:
        services.record_auction_outcome(capture, sold=False, actor=_agent(), today=AFTER)
    assert caught.value.code == "no_auction"


def test_cab_20_no_auction_outcome_without_an_auction(app):  # type: ignore[no-untyped-def]
    capture = _horse(CAB)
    with pytest.raises(DomainError) as caught:
        services.record_auction_outcome(capture, sold=False, actor=_agent(), today=AFTER)
    assert caught.value.code == "no_auction"


def test_cab_20_cabo_13_a_failed_auction_elsewhere_returns_to_the_list(app):  # type: ignore[no-untyped-def]
    # CABO 13 has no order: a dog whose auction failed gets the list less the auction, never
    # euthanasia without the federal laudo.
    capture = _capture(CABO, MONDAY)
    _destine(CABO, capture, AFTER, "auction")
    services.record_auction_outcome(capture, sold=False, actor=_agent(), today=AFTER)
    assert services.destinations_offered(CABO, capture, vet=True, today=AFTER) == [
        "adoption",
        "ngo_donation",
    ]


# -- CABO 13 IV: donation ------------------------------------------------------------------------


def test_cabo_13_iv_donation_to_an_approved_entity(app):  # type: ignore[no-untyped-def]
    capture = _capture(CABO, MONDAY)
    assert "ngo_donation" in services.destinations_offered(CABO, capture, today=AFTER)
    pending = factories.make_org(approved=False)
    err = _refusal(CABO, capture, AFTER, "ngo_donation", organization_id=pending.id)
    assert (err.field, err.code) == ("organization_id", "not_approved")
    org = factories.make_org()
    decision = _destine(CABO, capture, AFTER, "ngo_donation", organization_id=org.id)
    assert decision.organization_id == org.id


# -- The rules page --------------------------------------------------------------------------


def test_gru_88_90_cab_20_cabo_13_iv_rules_page_states_destinations_and_readings(app):  # type: ignore[no-untyped-def]
    gru = _rules_text(GRU)
    assert "abatedouro licenciado (nunca cães e gatos)" in gru and "(GRU 86, 88)" in gru
    assert "Leitura do portal" in gru and "(GRU 88 II)" in gru
    assert "eutanásia no local" in gru and "(GRU 90)" in gru
    cab = _rules_text(CAB)
    assert "vai primeiro a leilão" in cab and "não a impõe" in cab and "(CAB 11 III-IV, 20)" in cab
    assert "com laudo que a recomende ou depois de um leilão frustrado. (CAB 20)" in cab
    cabo = _rules_text(CABO)
    assert "doação a entidade protetora" in cabo and "pula o inciso III" in cabo
    for profile in (BJP, VV, CAB, CABO):
        assert "abatedouro" not in _rules_text(profile)
    for profile in (BJP, VV):  # CAB 9 §ú and CABO 11 have theirs (test_law_on_site_euthanasia)
        assert "eutanásia no local" not in _rules_text(profile)


# -- The staff capture page ---------------------------------------------------------------------


def test_gru_88_iii_staff_page_offers_the_slaughterhouse_for_a_horse_only(client, auth):  # type: ignore[no-untyped-def]
    horse = _horse(GRU)
    dog = _capture(GRU, MONDAY, size="large")
    db.session.commit()
    auth.login(roles=("agent",))
    page = client.get(f"/ccz/recolhimentos/{horse.protocol}").text
    assert 'value="slaughterhouse"' in page and "Abatedouro licenciado (nome" in page
    page = client.get(f"/ccz/recolhimentos/{dog.protocol}").text
    assert 'value="slaughterhouse"' not in page and "Abatedouro licenciado (nome" not in page
    refused = client.post(
        f"/ccz/recolhimentos/{horse.protocol}/destinacao",
        data={"destination": "slaughterhouse", "reason": "Prazo vencido"},
    )
    assert refused.status_code == 422 and "Informe o abatedouro licenciado" in refused.text
    assert "Prazo vencido" in refused.text  # what was typed stays


def test_cab_20_staff_page_auction_then_its_outcome(make_app):  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE="cabeceira")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        horse = _horse(profile)
        agent = _agent()
        db.session.commit()
        client = app.test_client()
        client.post("/conta/entrar", data={"email": agent.email, "password": factories.PASSWORD})
        url = f"/ccz/recolhimentos/{horse.protocol}"
        page = client.get(url).text
        assert 'value="auction"' in page and 'value="adoption"' not in page
        assert "vai primeiro a leilão" in page
        client.post(f"{url}/destinacao", data={"destination": "auction", "reason": "CAB 20"})
        page = client.get(url).text
        assert "Registrar o resultado do leilão" in page
        client.post(f"{url}/leilao", data={"outcome": "failed"})
        page = client.get(url).text
        assert 'value="adoption"' in page and 'value="auction"' not in page
        assert "Leilão frustrado: o animal voltou à guarda do CCZ" in page


def test_gru_88_ii_staff_page_takes_the_horses_laudo_file(client, auth):  # type: ignore[no-untyped-def]
    horse = _horse(GRU, condition="serious")
    dog = _capture(GRU, MONDAY, condition="serious")
    db.session.commit()
    auth.login(roles=("vet",))
    horse_page = client.get(f"/ccz/recolhimentos/{horse.protocol}").text
    assert 'name="laudo_file"' in horse_page
    assert "só por decisão do médico veterinário, com laudo que ateste doença incurável" in (
        horse_page
    )
    # a dog's laudo goes through the federal proposal form, not the decision
    dog_page = client.get(f"/ccz/recolhimentos/{dog.protocol}").text
    assert dog_page.count('name="laudo_file"') == 1  # the proposal's, only
    form = {
        "destination": "euthanasia",
        "reason": "Doença incurável",
        "vet_report": LAUDO,
        "vet_crmv": "CRMV-SP 9",
    }
    refused = client.post(f"/ccz/recolhimentos/{horse.protocol}/destinacao", data=form)
    assert refused.status_code == 422 and "(GRU 88 II)" in refused.text
    assert "Doença incurável" in refused.text  # what was typed stays
    sent = client.post(
        f"/ccz/recolhimentos/{horse.protocol}/destinacao",
        data={**form, "incurable": "y", "laudo_file": (io.BytesIO(PDF), "laudo.pdf")},
        content_type="multipart/form-data",
    )
    assert sent.status_code == 302
    page = client.get(f"/ccz/recolhimentos/{horse.protocol}").text
    assert "Baixar o laudo assinado" in page

"""Impound linked to the other domains (issue 14, what was left): a report's "capture needed"
outcome leads to a capture that keeps the report; the capture map; "Vacinado no CCZ" on the RGA;
the owner's captures on their animal's page; Lei 14.228/2021's NGO notice, access and claim; the
demo seeder."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.impound import euthanasia, services
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Capture,
    CaptureStatus,
    EuthanasiaProposal,
    InspectionOutcome,
    MaltreatmentReport,
    OutboxMessage,
    ProposalStatus,
    ReportState,
    Vaccination,
)
from portal.profiles import load_profile
from portal.services.clock import local_today
from tests import factories

GRU = load_profile("guarulhos")


def _report(outcome: str = InspectionOutcome.CAPTURE_NEEDED) -> MaltreatmentReport:
    report = MaltreatmentReport(
        protocol="DEN-2026-000042",
        tracking_hash="y" * 64,
        category="no_shelter",
        description="Cão acorrentado sem água",
        state=ReportState.INSPECTED,
        outcome=outcome,
        street="Rua das Palmeiras",
        number="77",
        reference="Portão azul",
        district="Vila Rio",
        species="dog",
        lat=-23.4543,
        lng=-46.5333,
    )
    db.session.add(report)
    db.session.commit()
    return report


def _form(**fields) -> dict:  # type: ignore[no-untyped-def]
    form = {
        "species": "dog",
        "size": "medium",
        "sex": "male",
        "color": "Preto",
        "place": "Rua das Palmeiras, 77",
        "district": "Vila Rio",
        "captured_on": local_today().isoformat(),
        "captured_time": "08:15",
        "reason": "loose",
        "condition": "good",
        "custody_type": "ordinary",
    }
    form.update(fields)
    return form


def _capture(day: date, *, species: str = "dog", condition: str = "good", **fields) -> Capture:  # type: ignore[no-untyped-def]
    data = services.CaptureData(
        species=species,
        size="small",
        sex="male",
        color="Caramelo",
        place="Rua X, 10",
        district="Centro",
        captured_at=datetime(day.year, day.month, day.day, 13, tzinfo=UTC),
        captured_on=day,
        reason="loose",
        condition=condition,
        **fields,
    )
    return services.record_capture(GRU, data, agent=factories.user(roles=("agent",)), today=day)


# -- A report's "capture needed" leads to a capture ---------------------------------------------


def test_report_capture_needed_opens_the_capture_form_prefilled_and_the_capture_keeps_it(
    client, auth
):
    report = _report()
    auth.login(roles=("agent",))
    detail = client.get(f"/ccz/denuncias/{report.protocol}").get_data(as_text=True)
    assert f"/ccz/recolhimentos/novo?denuncia={report.protocol}" in detail
    assert "Nenhuma captura registrada para esta denúncia." in detail
    page = client.get(f"/ccz/recolhimentos/novo?denuncia={report.protocol}").get_data(as_text=True)
    assert "Rua das Palmeiras, 77 – Portão azul" in page and 'value="Vila Rio"' in page
    assert '<input checked id="species-0" name="species" required type="radio" value="dog">' in page
    assert "-23.454300" in page and report.protocol in page
    response = client.post("/ccz/recolhimentos/novo", data=_form(report_protocol=report.protocol))
    assert response.status_code == 302
    capture = db.session.scalar(select(Capture).where(Capture.report_id == report.id))
    assert capture is not None
    detail = client.get(f"/ccz/denuncias/{report.protocol}").get_data(as_text=True)
    assert capture.protocol in detail and "Sob guarda do CCZ" in detail


def test_report_without_capture_needed_is_not_linked(app):
    report = _report(outcome=InspectionOutcome.NOTICE_NEEDED)
    with pytest.raises(DomainError) as err:
        _capture(local_today(), report_protocol=report.protocol)
    assert err.value.code == "capture_not_needed"


def test_report_prefill_page_warns_on_a_report_that_did_not_ask_for_a_capture(client, auth):
    report = _report(outcome=InspectionOutcome.NOTHING_FOUND)
    auth.login(roles=("agent",))
    page = client.get(f"/ccz/recolhimentos/novo?denuncia={report.protocol}").get_data(as_text=True)
    assert "não concluiu que a apreensão é necessária" in page
    assert "Rua das Palmeiras" not in page


# -- The capture map ---------------------------------------------------------------------------


def test_capture_form_works_without_a_map_lat_lon_are_optional_fields(client, auth):
    auth.login(roles=("agent",))
    page = client.get("/ccz/recolhimentos/novo").get_data(as_text=True)
    # no tiles: no Leaflet, but the script stays for "Usar minha localização" (issue 25)
    assert "leaflet.js" not in page and "capture-map.js" in page and 'name="latitude"' in page
    response = client.post(
        "/ccz/recolhimentos/novo", data=_form(latitude="-23.454321", longitude="-46.533321")
    )
    assert response.status_code == 302
    capture = db.session.scalar(select(Capture).order_by(Capture.id.desc()))
    assert capture is not None and capture.latitude == pytest.approx(-23.454321)


def test_capture_form_map_uses_the_portal_leaflet_and_its_tile_host(app, client, auth, monkeypatch):
    monkeypatch.setitem(app.config, "MAP_TILE_URL", "https://{s}.tile.example.org/{z}/{x}/{y}.png")
    auth.login(roles=("agent",))
    response = client.get("/ccz/recolhimentos/novo")
    page = response.get_data(as_text=True)
    assert "/static/vendor/leaflet/leaflet.js" in page and "/static/impound/capture-map.js" in page
    assert "unpkg" not in page and "cdn" not in page.lower()
    assert "https://*.tile.example.org" in response.headers["Content-Security-Policy"]


# -- "Vacinado no CCZ" goes on the RGA ---------------------------------------------------------


def test_gru_85_vaccinated_at_the_counter_shows_on_the_owner_rga_page(client, auth):
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(local_today() - timedelta(days=1), tag_read=pet.rga)
    staff = auth.login(roles=("vet",))
    reclaim = services.start_reclaim(
        GRU, capture, claimant=owner, channel="counter", started_by=staff, today=local_today()
    )
    db.session.commit()
    base = f"/ccz/recolhimentos/{capture.protocol}"
    client.post(f"{base}/vacina", data={"rabies": "vaccinated", "vaccine_name": "Rai-Vet"})
    assert reclaim.rabies is None  # batch, vet and CRMV missing: nothing recorded
    client.post(
        f"{base}/vacina",
        data={
            "rabies": "vaccinated",
            "vaccine_name": "Rai-Vet",
            "batch": "P-777",
            "vet_name": "Dra. Lia",
            "vet_crmv": "CRMV-SP 4321",
        },
    )
    db.session.refresh(reclaim)
    shot = db.session.get(Vaccination, reclaim.vaccination_id)
    assert shot is not None and shot.animal_id == pet.id and shot.batch == "P-777"
    auth.logout()
    auth.login(owner)
    page = client.get(f"/animais/{pet.rga}/").get_data(as_text=True)
    assert "Rai-Vet / P-777" in page


# -- The owner's animal page lists its captures ------------------------------------------------


def test_owner_sees_the_captures_of_their_animal_with_a_reclaim_link(client, auth):
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(local_today() - timedelta(days=1), tag_read=pet.rga)
    db.session.commit()
    auth.login(owner)
    page = client.get(f"/animais/{pet.rga}/").get_data(as_text=True)
    assert "Recolhimentos pelo CCZ" in page and capture.protocol in page
    assert f"/meus-recolhimentos/{capture.protocol}" in page
    assert capture.deadline_on.strftime("%d/%m/%Y") in page


def test_gru_84_2_a_new_owner_does_not_see_the_previous_owner_captures(client, auth):
    first, second = factories.user(), factories.user()
    pet = factories.animal(first)
    capture = _capture(local_today() - timedelta(days=3), tag_read=pet.rga)
    pet.owner = second
    db.session.commit()
    assert services.captures_of_animal(pet) == []
    assert capture.animal_id == pet.id


# -- Lei 14.228/2021: laudo, NGOs' access, claim -----------------------------------------------


def _laudo(capture: Capture, *, infectious: bool = False, day: date | None = None, file=None):  # type: ignore[no-untyped-def]
    vet = factories.user(roles=("vet",))
    return euthanasia.propose_euthanasia(
        GRU,
        capture,
        euthanasia.ProposalData(
            vet_report="Insuficiência renal crônica terminal, sofrimento intenso.",
            vet_crmv="CRMV-SP 999",
            lab_exam="Creatinina 9,8 mg/dL",
            infectious=infectious,
            laudo_file=file,
        ),
        vet=vet,
        today=day or local_today(),
    ), vet


def _late_capture() -> Capture:
    """A dog whose hold ended weeks ago (a destination may be decided)."""
    return _capture(date(2026, 3, 2), condition="serious")


def test_lei_14228_art_2_par_2_claim_window_is_three_business_days(app):
    # Thursday 2 April 2026; Good Friday 3 April; weekend → 6, 7, 8 April.
    assert euthanasia.claim_window_end(GRU, date(2026, 4, 2)) == date(2026, 4, 8)


def test_lei_14228_art_2_par_2_euthanasia_waits_for_the_ngo_claim_window(app):
    capture = _late_capture()
    proposal, vet = _laudo(capture, day=date(2026, 4, 2))
    assert proposal.number == f"LAUDO-{capture.protocol}-1"  # VV 21 §4 I: laudo numerado
    decide = services.DestinationData(destination="euthanasia", reason="Sofrimento sem cura")
    with pytest.raises(DomainError) as err:
        services.decide_destination(GRU, capture, decide, actor=vet, today=date(2026, 4, 8))
    assert err.value.code == "ngo_claim_window_open"
    decision = services.decide_destination(GRU, capture, decide, actor=vet, today=date(2026, 4, 9))
    assert decision.destination == "euthanasia" and decision.vet_report == proposal.vet_report
    assert proposal.status == ProposalStatus.DECIDED


def test_lei_14228_art_2_euthanasia_of_a_dog_needs_the_laudo_sent_to_ngos_first(app):
    capture = _late_capture()
    vet = factories.user(roles=("vet",))
    with pytest.raises(DomainError) as err:
        services.decide_destination(
            GRU,
            capture,
            services.DestinationData(
                destination="euthanasia",
                reason="Doença terminal",
                vet_report="Laudo",
                vet_crmv="CRMV-SP 1",
                incurable=True,
            ),
            actor=vet,
            today=date(2026, 4, 30),
        )
    assert err.value.code == "euthanasia_refused"


def test_lei_14228_art_2_par_2_an_ngo_claims_the_animal_and_it_is_destined_to_it(app):
    member, org = factories.ngo_user("Patas Unidas")
    capture = _late_capture()
    proposal, vet = _laudo(capture, day=date(2026, 4, 2))
    decision = euthanasia.claim_for_ngo(proposal, org, user=member, today=date(2026, 4, 8))
    assert decision.destination == "ngo_donation" and decision.organization_id == org.id
    assert capture.status == CaptureStatus.DESTINED and proposal.status == ProposalStatus.CLAIMED
    with pytest.raises(DomainError):
        services.decide_destination(
            GRU,
            capture,
            services.DestinationData(destination="euthanasia", reason="x"),
            actor=vet,
            today=date(2026, 4, 30),
        )


def test_lei_14228_art_2_par_2_no_claim_after_the_window_or_by_a_non_member(app):
    member, org = factories.ngo_user()
    outsider = factories.user()
    capture = _late_capture()
    proposal, _vet = _laudo(capture, day=date(2026, 4, 2))
    with pytest.raises(DomainError) as err:
        euthanasia.claim_for_ngo(proposal, org, user=outsider, today=date(2026, 4, 3))
    assert err.value.code == "not_member"
    with pytest.raises(DomainError) as err:
        euthanasia.claim_for_ngo(proposal, org, user=member, today=date(2026, 4, 9))
    assert err.value.code == "claim_closed"


def test_lei_14228_art_2_par_2_no_ngo_claim_for_incurable_infectious_disease(app):
    member, org = factories.ngo_user()
    capture = _late_capture()
    proposal, vet = _laudo(capture, infectious=True, day=date(2026, 4, 2))
    assert proposal.claim_until is None
    with pytest.raises(DomainError) as err:
        euthanasia.claim_for_ngo(proposal, org, user=member, today=date(2026, 4, 2))
    assert err.value.code == "infectious"
    decision = services.decide_destination(
        GRU,
        capture,
        services.DestinationData(destination="euthanasia", reason="Raiva confirmada"),
        actor=vet,
        today=date(2026, 4, 2),
    )
    assert decision.destination == "euthanasia"


def test_lei_14228_art_3_approved_ngos_are_emailed_and_read_the_laudo_and_its_file(client, auth):
    member, org = factories.ngo_user()
    org.email = "contato@patas.org"
    factories.make_org(factories.user(email="pendente@ong.org"), approved=False, email="p@x.org")
    capture = _late_capture()
    pdf = (io.BytesIO(b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"), "laudo.pdf")
    proposal, _vet = _laudo(capture, file=pdf)
    db.session.commit()
    sent = {m.to for m in db.session.scalars(select(OutboxMessage))}
    assert {"contato@patas.org", member.email} <= sent
    assert "p@x.org" not in sent and "pendente@ong.org" not in sent
    auth.login(member)
    assert proposal.number in client.get("/ong/laudos").get_data(as_text=True)
    page = client.get(f"/ong/laudos/{proposal.number}").get_data(as_text=True)
    assert "Insuficiência renal" in page and "Resgatar o animal" in page
    assert capture.place not in page  # the exact place is for staff only
    token = proposal.laudo_file.token  # type: ignore[union-attr]
    response = client.get(f"/arquivos/{token}/original")
    assert response.status_code == 200
    response.close()
    auth.logout()
    auth.login(factories.user())
    assert client.get(f"/arquivos/{token}/original").status_code == 404
    assert client.get(f"/ong/laudos/{proposal.number}").status_code == 403


def test_lei_14228_art_2_par_2_ngo_claims_over_http(client, auth):
    member, org = factories.ngo_user()
    capture = _late_capture()
    proposal, _vet = _laudo(capture)
    db.session.commit()
    auth.login(member)
    response = client.post(
        f"/ong/laudos/{proposal.number}/resgatar",
        data={"organization_id": str(org.id), "confirm": "y"},
    )
    assert response.status_code == 302
    db.session.refresh(proposal)
    assert (
        proposal.status == ProposalStatus.CLAIMED and proposal.claimed_by_organization_id == org.id
    )


def test_lei_14228_vet_records_the_laudo_from_the_capture_page(client, auth):
    factories.ngo_user()
    capture = _late_capture()
    db.session.commit()
    auth.login(roles=("vet",))
    page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "Registrar laudo e avisar as entidades" in page
    client.post(
        f"/ccz/recolhimentos/{capture.protocol}/laudo",
        data={"vet_report": "Neoplasia metastática", "vet_crmv": "CRMV-SP 55"},
    )
    proposal = db.session.scalar(
        select(EuthanasiaProposal).where(EuthanasiaProposal.capture_id == capture.id)
    )
    assert proposal is not None and proposal.claim_until is not None
    page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "As entidades podem resgatar o animal até" in page


def test_lei_14228_agents_cannot_record_a_laudo(client, auth):
    capture = _late_capture()
    db.session.commit()
    auth.login(roles=("agent",))
    response = client.post(
        f"/ccz/recolhimentos/{capture.protocol}/laudo",
        data={"vet_report": "x", "vet_crmv": "CRMV-SP 1"},
    )
    assert response.status_code == 403


# -- Demo data ----------------------------------------------------------------------------------


def test_impound_demo_seeder_is_idempotent_and_fills_the_pages(app):
    from portal.blueprints.impound.demo import seed_impound_demo

    factories.user(roles=("agent",), email="agente@demo.ccz")
    citizen = factories.user(email="cidada@demo.ccz")
    factories.animal(citizen, name="Thor")
    seed_impound_demo()
    seed_impound_demo()
    captures = list(db.session.scalars(select(Capture).order_by(Capture.id)))
    assert len(captures) == 3
    today = local_today()
    tagged, overdue, cat = captures
    assert tagged.owner_id == citizen.id and tagged.reclaimable and tagged.deadline_on >= today
    assert overdue.deadline_on < today and overdue.status == CaptureStatus.IN_CUSTODY
    assert cat in services.recent_captures(today) and cat.photos


def test_lei_14228_another_destination_withdraws_the_laudo_and_closes_the_claim(app):
    member, org = factories.ngo_user()
    capture = _late_capture()
    proposal, vet = _laudo(capture, day=date(2026, 4, 2))
    services.decide_destination(
        GRU,
        capture,
        services.DestinationData(
            destination="adoption", reason="Recuperou-se", vet_report="Melhora clínica"
        ),
        actor=vet,
        today=date(2026, 4, 3),
    )
    assert proposal.status == ProposalStatus.WITHDRAWN
    assert not euthanasia.claim_open(proposal, date(2026, 4, 3))
    with pytest.raises(DomainError) as err:
        euthanasia.claim_for_ngo(proposal, org, user=member, today=date(2026, 4, 3))
    assert err.value.code == "claim_closed"

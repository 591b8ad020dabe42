"""Enforcement (issue 13): deadlines per article, petitions, the fine's suspension and collection,
the pages of the addressee, the agent and the superior, and the public verification page."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest

from portal.blueprints.enforcement import services
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    PersonConsequence,
    PetitionStatus,
    UnitValue,
)
from tests import factories

TODAY = date(2026, 11, 30)
SAO_PAULO = ZoneInfo("America/Sao_Paulo")
GRU_FINE = {"severity": "medio", "units": "100", "units_reason": "risco à saúde"}  # 480,00


@pytest.fixture
def profile(app):
    db.session.add(UnitValue(unit="UFG", value_cents=480, effective_from=date(2020, 1, 1)))
    db.session.commit()
    return app.extensions["portal_profile"]


@pytest.fixture
def people(app):
    agent = factories.user(roles=("agent",), full_name="Ana Agente")
    boss = factories.user(roles=("coordinator",), full_name="Carla Coordenadora")
    director = factories.user(roles=("admin",), full_name="Davi Diretor")
    citizen = factories.user(full_name="Rui Autuado")
    db.session.commit()
    return agent, boss, director, citizen


def _infraction(
    profile, agent, citizen, *, fine=True, kind="infraction", occurred_on=None, **extra
):
    """An auto for ``citizen``; ``extra`` adds or overrides issue_document's arguments."""
    arguments = {
        "kind": kind,
        "agent": agent,
        "addressee": Addressee(citizen.full_name, citizen.cpf),
        "fact": "Cão acorrentado sem abrigo",
        "place": "Rua A, 10",
        "occurred_at": datetime.combine(occurred_on or date(2026, 11, 2), time(13), tzinfo=UTC),
        "legal_provision": "GRU 37",
        "agent_title": "Agente sanitário",
        "fine_inputs": GRU_FINE if fine else None,
        "today": TODAY,
    }
    return services.issue_document(profile, **{**arguments, **extra})


# -- deadlines (GRU 114, 95 §ú, 70 §4) ------------------------------------------------------------


def test_gru_114_defence_deadline_known_on_friday_before_holiday(profile):
    # Known on Friday 4 Sep 2026 (Monday 7 Sep is Independence Day): the count is continuous,
    # the start day excluded -> 14 Sep (a Monday, business day).
    assert services.term_end(profile, date(2026, 9, 4), 10) == date(2026, 9, 14)
    # Known on Friday 28 Aug: the tenth day is the 7 Sep holiday -> the next business day.
    assert services.term_end(profile, date(2026, 8, 28), 10) == date(2026, 9, 8)


def test_gru_114_tenth_day_on_christmas_moves_to_next_business_day(profile):
    # Known 15 Dec 2026: the tenth day is Friday 25 Dec -> Monday 28 Dec.
    assert services.term_end(profile, date(2026, 12, 15), 10) == date(2026, 12, 28)


def test_gru_95_edital_takes_effect_five_days_after_publication(profile):
    assert services.knowledge_date(profile, "edital", date(2026, 3, 2)) == date(2026, 3, 7)
    assert services.knowledge_date(profile, "post", date(2026, 3, 2)) == date(2026, 3, 2)


def test_gru_96_v_defence_term_runs_from_the_edital_effect(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _infraction(profile, agent, citizen)
    issued = doc.issued_at.date()
    services.record_service(
        profile, doc, method="edital", service_on=issued, note=None, actor=agent, today=issued
    )
    assert doc.knowledge_on == services.knowledge_date(profile, "edital", issued)
    assert doc.petition_due_on == services.term_end(profile, doc.knowledge_on, 10)


def test_gru_70_4_hours_run_minute_by_minute(profile, people):
    agent, _boss, _dir, citizen = people
    doc = services.issue_document(
        profile,
        kind="preliminary",
        agent=agent,
        addressee=Addressee(citizen.full_name, citizen.cpf),
        fact="Sem água",
        place="Rua A, 10",
        occurred_at=datetime(2026, 11, 2, 13, 0, tzinfo=UTC),
        legal_provision="GRU 37",
        agent_title="Agente",
        required_action="Dar água",
        comply_term="h1",
    )
    before = datetime.now(UTC)
    services.record_service(
        profile,
        doc,
        method="signed",
        service_on=doc.issued_at.date(),
        note=None,
        actor=agent,
        today=doc.issued_at.date(),
    )
    due = doc.comply_due_at
    due = due if due.tzinfo else due.replace(tzinfo=UTC)
    assert 3590 <= (due - before).total_seconds() <= 3700


def test_gru_70_3_term_outside_the_profile_choices_refused(profile, people):
    agent, _boss, _dir, citizen = people
    with pytest.raises(EnforcementError) as err:
        services.issue_document(
            profile,
            kind="preliminary",
            agent=agent,
            addressee=Addressee(citizen.full_name, citizen.cpf),
            fact="x",
            place="y",
            occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
            legal_provision="GRU 37",
            agent_title="Agente",
            required_action="z",
            comply_term="d90",
        )
    assert err.value.field == "comply_term"


def test_gru_95_viii_refusal_needs_the_agents_note(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _infraction(profile, agent, citizen)
    with pytest.raises(EnforcementError) as err:
        services.record_service(
            profile,
            doc,
            method="refused",
            service_on=doc.issued_at.date(),
            note="",
            actor=agent,
            today=doc.issued_at.date(),
        )
    assert err.value.field == "note"


# -- petitions (GRU 101-110) -------------------------------------------------------------------


def _served(profile, agent, citizen, known: date | None = None):
    doc = _infraction(profile, agent, citizen)
    day = doc.issued_at.date()
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    return doc, day


def test_gru_107_late_defence_refused_without_merit(profile, people):
    agent, _boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    late = date.fromordinal(doc.petition_due_on.toordinal() + 1)
    petition = services.file_petition(profile, doc, citizen, text="Não fui eu", today=late)
    assert petition.status == PetitionStatus.REFUSED
    assert "GRU 107 §2 I" in petition.decision_article
    assert "sem análise do mérito" in petition.decision_reason
    assert doc.status == "open"  # nothing judged


def test_gru_101_2_duplicate_petition_refused_without_merit(profile, people):
    agent, _boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    first = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    second = services.file_petition(profile, doc, citizen, text="De novo", today=day)
    assert first.status == PetitionStatus.PENDING
    assert second.status == PetitionStatus.REFUSED
    assert "107 §2 IV" in second.decision_article


def test_gru_107_2_iii_third_party_refused_and_representative_needs_power_of_attorney(
    profile, people
):
    agent, _boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    stranger = factories.user()
    db.session.flush()
    with pytest.raises(EnforcementError) as err:
        services.file_petition(profile, doc, stranger, text="Razões", today=day)
    assert err.value.code == "third_party"
    with pytest.raises(EnforcementError) as err:
        services.file_petition(
            profile, doc, stranger, text="Razões", today=day, has_access_code=True
        )
    assert err.value.field == "power_of_attorney"


def test_gru_102_issuing_agent_cannot_judge_and_decision_is_reasoned(profile, people):
    agent, boss, _dir, citizen = people
    agent.add_role("coordinator")
    doc, day = _served(profile, agent, citizen)
    petition = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    assert petition.decide_by == services.term_end(profile, day, 15)
    with pytest.raises(EnforcementError):
        services.decide_petition(
            profile,
            petition,
            agent,
            grant=False,
            reason="x",
            method="signed",
            service_on=day,
            today=day,
        )
    with pytest.raises(EnforcementError) as err:
        services.decide_petition(
            profile,
            petition,
            boss,
            grant=False,
            reason=" ",
            method="signed",
            service_on=day,
            today=day,
        )
    assert err.value.field == "reason"


def test_gru_110_appeal_suspends_the_fine_and_final_decision_resumes_it(profile, people):
    agent, boss, director, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    services.decide_petition(
        profile,
        defence,
        boss,
        grant=False,
        reason="Fato comprovado",
        method="signed",
        service_on=day,
        today=day,
    )
    penalty = services.penalty_of(doc)
    assert penalty is not None and penalty.fine_cents == 48000  # 100 UFG at R$ 4,80
    item = penalty.payment_item
    assert item.kind == "fine" and item.due_on == services.term_end(profile, day, 30)  # GRU 100
    option = services.petition_option(profile, penalty)
    assert option.instance == 2  # GRU 103: against the refusal of the defence
    appeal = services.file_petition(profile, penalty, citizen, text="Recorro", today=day)
    assert appeal.suspends_fine and penalty.fine_suspended and item.due_on is None
    assert services.mark_for_collection(date(2027, 6, 1)) == []  # suspended: not collected
    services.decide_petition(
        profile,
        appeal,
        director,
        grant=False,
        reason="Mantido",
        method="signed",
        service_on=day,
        today=day,
    )
    assert penalty.status == "final"  # GRU 103 §3
    assert not penalty.fine_suspended and item.due_on == services.term_end(profile, day, 30)
    assert services.petition_option(profile, penalty) is None


def test_gru_105_granted_appeal_cancels_the_fine(profile, people):
    agent, boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    services.decide_petition(
        profile,
        defence,
        boss,
        grant=True,
        reason="Não comprovado",
        method="signed",
        service_on=day,
        today=day,
    )
    assert doc.status == "under_review"  # GRU 104: the issuing agent's view comes first
    services.close_lapsed(profile, defence.review_due_on + timedelta(days=1))
    assert doc.status == "cancelled" and services.penalty_of(doc) is None


def test_gru_104_issuing_agent_orders_reexamination_within_five_days(profile, people):
    agent, boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    services.decide_petition(
        profile, defence, boss, grant=True, reason="Sem prova", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    assert defence.review_due_on == services.term_end(profile, day, 5)
    with pytest.raises(EnforcementError):  # only the issuing authority has this view
        services.answer_grant(profile, defence, boss, reexamine=True, note="x", today=day)
    with pytest.raises(EnforcementError) as err:
        services.answer_grant(profile, defence, agent, reexamine=True, note=" ", today=day)
    assert err.value.field == "note"
    services.answer_grant(profile, defence, agent, reexamine=True, note="Há fotos", today=day)
    assert defence.status == "pending" and doc.status == "under_review"
    services.decide_petition(
        profile, defence, boss, grant=True, reason="Mantido o deferimento", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    assert doc.status == "cancelled"  # a re-examined grant is final


def test_gru_104_reexamination_refused_after_the_five_days(profile, people):
    agent, boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    services.decide_petition(
        profile, defence, boss, grant=True, reason="Sem prova", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    late = defence.review_due_on + timedelta(days=1)
    with pytest.raises(EnforcementError) as err:
        services.answer_grant(profile, defence, agent, reexamine=True, note="Fotos", today=late)
    assert err.value.code == "late"
    services.answer_grant(profile, defence, agent, reexamine=False, note="", today=late)
    assert doc.status == "cancelled"


def test_gru_104_agent_answers_the_grant_on_the_document_page(client, auth, profile, people):
    agent, boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    services.decide_petition(
        profile, defence, boss, grant=True, reason="Sem prova", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    db.session.commit()
    auth.login(agent)
    page = client.get(f"/ccz/fiscalizacao/{doc.id}").get_data(as_text=True)
    assert "Pedir o reexame" in page
    client.post(
        f"/ccz/fiscalizacao/peticoes/{defence.id}/vista",
        data={"answer": "reexame", "note": "Há fotos da vistoria"},
    )
    db.session.refresh(defence)
    assert defence.status == "pending" and defence.reexam_note == "Há fotos da vistoria"


def test_gru_100_unpaid_fine_goes_to_the_collection_csv(profile, people):
    agent, boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    services.decide_petition(
        profile,
        defence,
        boss,
        grant=False,
        reason="Mantido",
        method="signed",
        service_on=day,
        today=day,
    )
    penalty = services.penalty_of(doc)
    later = date(2027, 3, 1)
    assert services.mark_for_collection(later) == [penalty]
    rows = services.collection_rows(later)
    assert rows[0][:4] == ["cpf_cnpj", "nome", "documento", "auto_de_infracao"]
    assert rows[1][0] == citizen.cpf and rows[1][2] == penalty.number
    assert rows[1][3] == doc.number and rows[1][7] == "48000"


def test_gru_79_repeat_offence_supplied_from_earlier_penalties(profile, people):
    agent, boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    services.decide_petition(
        profile,
        defence,
        boss,
        grant=False,
        reason="Mantido",
        method="signed",
        service_on=day,
        today=day,
    )
    again = services.issue_document(
        profile,
        kind="infraction",
        agent=agent,
        addressee=Addressee(citizen.full_name, citizen.cpf),
        fact="De novo",
        place="Rua A, 10",
        occurred_at=datetime(2026, 11, 20, 13, 0, tzinfo=UTC),
        legal_provision="GRU 37",
        agent_title="Agente",
        fine_inputs=GRU_FINE,
        today=TODAY,
    )
    assert again.fine_inputs["previous_offences"] == ["2026-11-02"]
    assert again.fine_cents == 2 * 48000  # GRU 80: doubled


def test_gru_88_4_definitive_apprehension_recorded_and_read_by_adoption(profile, people):
    from portal.blueprints.adoption.eligibility import active_bars

    agent, _boss, _dir, citizen = people
    doc = services.issue_apprehension_notice(
        profile,
        agent=agent,
        addressee=Addressee(citizen.full_name, citizen.cpf),
        fact="Maus-tratos reiterados",
        place="Rua A, 10",
        occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
        legal_provision="GRU 87 II",
        agent_title="Agente",
        definitive=True,
    )
    # GRU 87 §ú: nothing is recorded on the person before the final decision
    assert db.session.query(PersonConsequence).count() == 0
    day = doc.issued_at.date()
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    assert services.close_lapsed(profile, doc.petition_due_on) == 0
    assert services.close_lapsed(profile, day + timedelta(days=60)) == 1  # no appeal: final
    row = db.session.query(PersonConsequence).one()
    assert row.document_id == doc.id and row.cpf == citizen.cpf and row.article == "GRU 88 §4"
    bars = active_bars(citizen.cpf)
    assert [b.kind for b in bars] == ["caused_definitive_apprehension"]


# -- pages -------------------------------------------------------------------------------------


def test_agent_issues_on_the_form_and_citizen_sees_it_with_deadline(client, auth, profile, people):
    agent, _boss, _dir, citizen = people
    auth.login(agent)
    page = client.get("/ccz/fiscalizacao/novo")
    assert page.status_code == 200
    response = client.post(
        "/ccz/fiscalizacao/novo",
        data={
            "kind": "infraction",
            "name": citizen.full_name,
            "cpf": citizen.cpf,
            "fact": "Cão sem abrigo",
            "place": "Rua A, 10",
            "occurred_at": "2026-11-02T10:00",
            "legal_provision": "GRU 10 V a",
            "severity": "medio",
            "units": "100",
            "units_reason": "risco",
            "animals": "1",
            "animal_died": "no",
            "agent_title": "Agente sanitário",
            "comply_term": "",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    doc = db.session.query(EnforcementDocument).one()
    assert doc.fine_cents == 48000
    day = doc.issued_at.date().isoformat()
    response = client.post(
        f"/ccz/fiscalizacao/{doc.id}/ciencia", data={"method": "signed", "service_on": day}
    )
    assert response.status_code == 302
    auth.logout()
    auth.login(citizen)
    page = client.get("/minhas-notificacoes").get_data(as_text=True)
    assert doc.number in page and "apresentar defesa" in page
    detail = client.get(f"/minhas-notificacoes/{doc.id}").get_data(as_text=True)
    assert "Apresentar defesa" in detail
    pdf = client.get(f"/minhas-notificacoes/{doc.id}/documento.pdf")
    assert pdf.status_code == 200 and pdf.data.startswith(b"%PDF")
    response = client.post(
        f"/minhas-notificacoes/{doc.id}/peticao",
        data={
            "text": "Não houve infração",
            "attachments": (io.BytesIO(b"%PDF-1.4 prova"), "prova.pdf"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    db.session.refresh(doc)
    assert doc.petitions[0].status == "pending" and len(doc.petitions[0].attachment_ids) == 1


def test_other_citizen_cannot_open_the_document(client, auth, profile, people):
    agent, _boss, _dir, citizen = people
    doc, _day = _served(profile, agent, citizen)
    db.session.commit()
    auth.login(roles=("citizen",))
    assert client.get(f"/minhas-notificacoes/{doc.id}").status_code == 404


def test_verification_page_shows_personal_data_only_with_the_access_code(client, profile, people):
    agent, _boss, _dir, citizen = people
    doc, _day = _served(profile, agent, citizen)
    db.session.commit()
    page = client.get(f"/verificar-documento?number={doc.number}").get_data(as_text=True)
    assert doc.number in page and "Auto de infração" in page
    assert citizen.full_name not in page and "acorrentado" not in page
    page = client.post(
        "/verificar-documento",
        data={"number": doc.number, "code": services.printed_code(doc).lower()},
    )
    text = page.get_data(as_text=True)
    assert citizen.full_name in text and "acorrentado" in text


def test_dividaativa_csv_for_coordinators_only(client, auth, profile, people):
    auth.login(roles=("agent",))
    assert client.get("/ccz/fiscalizacao/divida-ativa.csv").status_code in (302, 403, 404)
    auth.logout()
    auth.login(roles=("coordinator",))
    response = client.get("/ccz/fiscalizacao/divida-ativa.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert response.get_data(as_text=True).startswith("cpf_cnpj;")


# -- GRU 70 §3-4, BJP 30 I, VV 23 I: the preliminary notice's term to comply ---------------------


def _preliminary(profile, agent, citizen, term: str) -> EnforcementDocument:  # type: ignore[no-untyped-def]
    doc = services.issue_document(
        profile,
        kind="preliminary",
        agent=agent,
        addressee=Addressee(citizen.full_name, citizen.cpf),
        fact="Sem abrigo",
        place="Rua A, 10",
        occurred_at=datetime(2026, 11, 2, 13, 0, tzinfo=UTC),
        legal_provision="GRU 37",
        agent_title="Agente",
        required_action="Dar abrigo",
        comply_term=term,
    )
    known = doc.issued_at.astimezone(SAO_PAULO).date()  # served in person the day it is issued
    services.record_service(
        profile, doc, method="signed", service_on=known, note=None, actor=agent, today=known
    )
    return doc


def _utc(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def test_gru_70_3_ten_days_end_at_the_end_of_the_tenth_day_then_30_more_once(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _preliminary(profile, agent, citizen, "d10")
    # The term runs from the day of knowledge (GRU 114, tested on fixed dates above) and ends at
    # the last second of its last day in São Paulo.
    due = _utc(doc.comply_due_at).astimezone(SAO_PAULO)
    assert due.date() == services.term_end(profile, doc.knowledge_on, 10)
    assert (due.hour, due.minute, due.second) == (23, 59, 59)
    # GRU 70 §3: extended once by 30 days: the same term counted as 40 days from the knowledge.
    services.extend_comply_term(profile, doc, agent)
    due = _utc(doc.comply_due_at).astimezone(SAO_PAULO)
    assert due.date() == services.term_end(profile, doc.knowledge_on, 40)
    assert (due.hour, due.minute, due.second) == (23, 59, 59)
    with pytest.raises(EnforcementError) as err:
        services.extend_comply_term(profile, doc, agent)
    assert err.value.code == "done"


def test_gru_70_3_the_terms_an_agent_may_give_come_from_the_profile(profile, make_app):
    assert [code for code, _label in services.comply_choices(profile)] == [
        "h1", "h24", "h48", "d5", "d10", "d15", "d30", "d60"
    ]  # fmt: skip
    labels = dict(services.comply_choices(profile))
    assert (labels["h1"], labels["h48"], labels["d60"]) == ("1 hora(s)", "48 hora(s)", "60 dias")
    bjp = make_app(PORTAL_PROFILE="bjp").extensions["portal_profile"]
    assert services.comply_choices(bjp) == [
        ("d0", "Imediatamente"), ("d7", "7 dias"), ("d15", "15 dias"), ("d30", "30 dias")
    ]  # fmt: skip
    vv = make_app(PORTAL_PROFILE="vilavelha").extensions["portal_profile"]
    assert [code for code, _label in services.comply_choices(vv)] == ["d7", "d30"]


def test_gru_70_3_a_term_the_profile_does_not_offer_is_refused_with_its_article(profile, people):
    agent, _boss, _dir, citizen = people
    for term in ("d7", "h2", "", "x10"):
        with pytest.raises(EnforcementError) as err:
            _preliminary(profile, agent, citizen, term)
        assert (err.value.field, err.value.code) == ("comply_term", "invalid")
        assert err.value.message == "Escolha um prazo previsto em GRU 70 §3."


def test_bjp_30_i_immediately_is_due_when_served_and_cannot_be_extended(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        bjp = app.extensions["portal_profile"]
        agent = factories.user(roles=("agent",))
        citizen = factories.user()
        before = datetime.now(UTC)
        doc = _preliminary(bjp, agent, citizen, "d0")
        assert before <= _utc(doc.comply_due_at) <= datetime.now(UTC)
        with pytest.raises(EnforcementError) as err:
            services.extend_comply_term(bjp, doc, agent)
        assert err.value.code == "not_allowed"


def test_gru_114_tenth_day_on_the_sao_paulo_state_holiday_moves_to_the_next_day(profile):
    # Known Mon 29 Jun 2026: the tenth day is Thu 9 Jul (Revolução Constitucionalista, SP).
    assert services.term_end(profile, date(2026, 6, 29), 10) == date(2026, 7, 10)


def test_gru_114_tenth_day_on_a_municipal_holiday_moves_to_the_next_day(profile):
    from portal.models import MunicipalHoliday

    # Known Mon 2 Mar 2026: the tenth day is Thu 12 Mar, a municipal holiday -> Fri 13.
    assert services.term_end(profile, date(2026, 3, 2), 10) == date(2026, 3, 12)
    db.session.add(MunicipalHoliday(day=date(2026, 3, 12), name="Feriado municipal"))
    db.session.flush()
    assert services.term_end(profile, date(2026, 3, 2), 10) == date(2026, 3, 13)

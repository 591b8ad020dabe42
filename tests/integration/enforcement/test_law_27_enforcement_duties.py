"""Issue 27, "Missing, by city", enforcement: GRU 87 V-VI (definitive apprehension computed from
repeated autuações), GRU 89 (interdição of a criação for human consumption), VV 23 II (the duties
during the remedy term: address changes and periodic veterinary laudos) and VV 42 §ú (the
garbled fines, read as far as they can be read). A city whose law lacks a rule sees nothing."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime, time, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import duties, services
from portal.blueprints.enforcement.reminders import laudo_due
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.extensions import db
from portal.models import AuditEvent, EnforcementDocument, OutboxMessage, UnitValue
from portal.services.clock import local_today
from portal.services.fees import compute_fee
from portal.services.todo import citizen_todo
from portal.services.uploads import store_document
from tests import factories
from tests.conftest import AuthActions

HYGIENE, OVER = "hygiene_welfare_housing", "over_limit"


def _at(day: date) -> datetime:
    return datetime.combine(day, time(13), tzinfo=UTC)


def _auto(profile, agent, who, day, motive=HYGIENE, kind="infraction", **extra):  # type: ignore[no-untyped-def]
    doc = services.issue_document(
        profile,
        kind=kind,
        agent=agent,
        addressee=Addressee(who.full_name, who.cpf),
        fact="Criação sem higiene",
        place="Rua A, 10",
        occurred_at=_at(day),
        legal_provision="GRU 68 III",
        agent_title="Agente sanitário",
        **extra,
    )
    duties.apply_on_issue(profile, doc, repeat_motive=motive)
    return doc


def _mail(to: str) -> list[OutboxMessage]:
    found = select(OutboxMessage).where(OutboxMessage.to == to).order_by(OutboxMessage.id)
    return list(db.session.scalars(found))


@pytest.fixture
def gru(app):
    agent = factories.user(roles=("agent",), full_name="Ana Agente")
    who = factories.user(full_name="Rui Autuado")
    db.session.commit()
    return app.extensions["portal_profile"], agent, who


# -- GRU 87 V-VI -------------------------------------------------------------------------------


def test_gru_87_v_third_autuacao_for_the_same_motive_makes_it_definitive(gru):
    profile, agent, who = gru
    _auto(profile, agent, who, date(2025, 1, 10))
    second = _auto(profile, agent, who, date(2025, 6, 10))
    found = duties.repeat_finding(profile, second)
    assert found is not None and not found.applies and len(found.earlier) == 1  # one before: no
    third = _auto(profile, agent, who, date(2026, 3, 10))
    found = duties.repeat_finding(profile, third)
    assert found is not None and found.applies and len(found.earlier) == 2  # exactly two: yes
    assert "GRU 87 V" in found.reason() and "GRU 87 §ú" in found.reason()
    assert "GRU 79" in found.reason()


def test_gru_87_v_window_first_and_last_day_of_the_three_years(gru):
    profile, agent, who = gru
    _auto(profile, agent, who, date(2023, 11, 2))
    _auto(profile, agent, who, date(2024, 5, 1))
    # GRU 79, 114: the three years from 02/11/2023 end on 02/11/2026, that day included
    last_day = _auto(profile, agent, who, date(2026, 11, 2))
    assert duties.repeat_finding(profile, last_day).applies
    last_day.status = "cancelled"  # out of the way for the next check
    day_after = _auto(profile, agent, who, date(2026, 11, 3))
    found = duties.repeat_finding(profile, day_after)
    assert not found.applies and [d.occurred_at.date() for d in found.earlier] == [date(2024, 5, 1)]


def test_gru_87_vi_other_motive_other_person_and_cancelled_autos_do_not_count(gru):
    profile, agent, who = gru
    other = factories.user()
    _auto(profile, agent, who, date(2026, 1, 5))
    _auto(profile, agent, other, date(2026, 2, 5))  # another person
    cancelled = _auto(profile, agent, who, date(2026, 3, 5))
    cancelled.status = "cancelled"  # a granted defence: not an autuação that stands
    third = _auto(profile, agent, who, date(2026, 4, 5))
    assert not duties.repeat_finding(profile, third).applies
    over = _auto(profile, agent, who, date(2026, 5, 5), motive=OVER)
    found = duties.repeat_finding(profile, over)
    assert found.motive.article == "GRU 87 VI" and found.earlier == []


def test_gru_87_v_a_penalty_notice_after_its_auto_is_one_autuacao(gru):
    profile, agent, who = gru
    first = _auto(profile, agent, who, date(2026, 1, 5))
    _auto(profile, agent, who, date(2026, 1, 5), kind="penalty", parent=first)
    third = _auto(profile, agent, who, date(2026, 4, 5))
    assert len(duties.repeat_finding(profile, third).earlier) == 1


def test_gru_87_v_staff_page_shows_why_and_offers_the_auto_de_apreensao(gru, client, auth):
    profile, agent, who = gru
    _auto(profile, agent, who, date(2025, 1, 10))
    _auto(profile, agent, who, date(2025, 6, 10))
    third = _auto(profile, agent, who, date(2026, 3, 10))
    db.session.commit()
    auth.login(agent)
    page = client.get(f"/ccz/fiscalizacao/{third.id}").get_data(as_text=True)
    assert 'id="apreensao-reincidencia"' in page and "GRU 87 V" in page
    assert "tipo=apreensao" in page
    form = client.get(f"/ccz/fiscalizacao/novo?apos={third.id}&tipo=apreensao")
    text = form.get_data(as_text=True)
    assert form.status_code == 200
    assert '<option selected value="apprehension">' in text and 'value="GRU 87 V"' in text


def test_gru_87_v_the_person_is_told_by_email_and_on_the_home_page(gru, app):
    profile, agent, who = gru
    _auto(profile, agent, who, date(2025, 1, 10))
    _auto(profile, agent, who, date(2025, 6, 10))
    third = _auto(profile, agent, who, date(2026, 3, 10))
    today = local_today()
    services.record_service(
        profile, third, method="signed", service_on=today, note=None, actor=agent
    )
    assert any("GRU 87 V" in m.body for m in _mail(who.email))
    texts = _todo(app, who)
    assert any(third.number in t and "GRU 87 V" in t for t in texts)


def test_gru_87_v_a_city_without_the_rule_sees_nothing(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        assert profile.fines.apprehension_after == [] and duties.motive_choices(profile) == []
        agent, who = factories.user(roles=("agent",)), factories.user()
        with pytest.raises(EnforcementError) as err:
            _auto(profile, agent, who, date(2026, 3, 10))
        assert err.value.field == "repeat_motive"


def test_gru_87_v_motive_only_on_an_autuacao(gru):
    profile, agent, who = gru
    with pytest.raises(EnforcementError) as err:
        _auto(
            profile,
            agent,
            who,
            date(2026, 3, 10),
            kind="preliminary",
            required_action="x",
            comply_term="d10",
        )
    assert err.value.code == "not_autuacao"


# -- GRU 89 --------------------------------------------------------------------------------------


def _preliminary(profile, agent, who, provision, **extra):  # type: ignore[no-untyped-def]
    arguments = {
        "kind": "preliminary",
        "agent": agent,
        "addressee": Addressee(who.full_name, who.cpf),
        "fact": "Fato",
        "place": "Rua A, 10",
        "occurred_at": _at(date(2026, 11, 2)),
        "legal_provision": provision,
        "agent_title": "Agente sanitário",
        "required_action": "Corrigir",
        "comply_term": "d7",
    }
    return services.issue_document(profile, **{**arguments, **extra})


def _todo(app, who):  # type: ignore[no-untyped-def]
    with app.test_request_context():
        return [str(i.text) for i in citizen_todo(who)]


def test_gru_89_interdiction_intimates_the_slaughterhouse_and_the_expenses(gru, app, client, auth):
    profile, agent, who = gru
    doc = _preliminary(profile, agent, who, "GRU 68 III", comply_term="d10")
    duties.apply_on_issue(profile, doc, interdiction=True)
    assert doc.interdiction and "abatedouro licenciado" in doc.required_action
    assert "GRU 89 §ú" in doc.required_action and doc.required_action.startswith("Corrigir")
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    mail = [m for m in _mail(who.email) if "Interdição" in m.subject]
    assert mail and "abatedouro licenciado" in mail[0].body
    assert any(doc.number in t for t in _todo(app, who))
    db.session.commit()
    auth.login(who)
    page = client.get(f"/minhas-notificacoes/{doc.id}").get_data(as_text=True)
    assert 'id="interdicao"' in page and "GRU 89" in page


def test_gru_89_interdiction_is_a_preliminary_notice_and_only_where_the_law_has_it(gru, make_app):
    profile, agent, who = gru
    auto = _auto(profile, agent, who, date(2026, 3, 10), motive=None)
    with pytest.raises(EnforcementError) as err:
        duties.apply_on_issue(profile, auto, interdiction=True)
    assert err.value.code == "preliminary_only"
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.app_context():
        vprofile = vv.extensions["portal_profile"]
        assert vprofile.notices.interdiction is None
        doc = _preliminary(vprofile, factories.user(roles=("agent",)), factories.user(), "VV 34")
        with pytest.raises(EnforcementError) as err:
            duties.apply_on_issue(vprofile, doc, interdiction=True)
        assert err.value.code == "invalid"


def test_gru_89_the_issue_form_offers_it_in_guarulhos_only(gru, client, auth, make_app):
    _profile, agent, _who = gru
    auth.login(agent)
    assert 'name="interdiction"' in client.get("/ccz/fiscalizacao/novo").get_data(as_text=True)
    assert 'name="repeat_motive"' in client.get("/ccz/fiscalizacao/novo").get_data(as_text=True)
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.app_context():
        vclient = vv.test_client()
        vagent = factories.user(roles=("agent",))
        db.session.commit()
        AuthActions(vclient).login(vagent)
        page = vclient.get("/ccz/fiscalizacao/novo").get_data(as_text=True)
        assert 'name="interdiction"' not in page and 'name="repeat_motive"' not in page
        assert 'name="laudo_every_days"' in page


# -- VV 23 II ------------------------------------------------------------------------------------


@pytest.fixture
def vv(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        who = factories.user(full_name="Rui Autuado")
        db.session.commit()
        yield app, app.extensions["portal_profile"], agent, who


def _maltreatment(profile, agent, who, every=5):  # type: ignore[no-untyped-def]
    doc = _preliminary(profile, agent, who, "VV 3 IX d")  # sem abrigo: maus-tratos
    duties.apply_on_issue(profile, doc, laudo_every_days=every)
    return doc


def test_vv_23_ii_a_maltreatment_notice_needs_the_laudo_period_within_its_bounds(vv):
    _app, profile, agent, who = vv
    for bad in (None, 0, 91):
        doc = _preliminary(profile, agent, who, "VV 23 I")
        with pytest.raises(EnforcementError) as err:
            duties.apply_on_issue(profile, doc, laudo_every_days=bad)
        assert err.value.field == "laudo_every_days"
    for good in (1, 90):
        assert _maltreatment(profile, agent, who, good).laudo_every_days == good
    keeping = _preliminary(profile, agent, who, "VV 34 §2 II")  # not maus-tratos
    duties.apply_on_issue(profile, keeping)
    assert keeping.laudo_every_days is None
    with pytest.raises(EnforcementError) as err:
        duties.apply_on_issue(profile, keeping, laudo_every_days=5)
    assert err.value.code == "not_maltreatment"


def test_vv_23_ii_schedule_from_knowledge_laudos_move_it_and_the_person_is_told(vv):
    _app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who, every=5)
    today = local_today()
    services.record_service(profile, doc, method="signed", service_on=today, note=None, actor=agent)
    assert doc.laudo_next_due_on == today + timedelta(days=5)
    assert any("VV 23 II" in m.body and "5 dias" in m.body for m in _mail(who.email))
    staff = factories.user(roles=("agent",))
    duties.file_laudo(profile, doc, staff, received_on=today)
    assert doc.laudo_next_due_on == today + timedelta(days=10)  # laudo 2 at two periods
    assert any("Laudo veterinário recebido" in m.subject for m in _mail(who.email))
    actions = db.session.scalars(
        select(AuditEvent.action).where(AuditEvent.subject_id == str(doc.id))
    )
    assert "enforcement.laudo_filed" in list(actions)
    with pytest.raises(EnforcementError):
        duties.file_laudo(profile, doc, who)  # the person must attach the laudo


def test_vv_23_ii_overdue_laudo_queue_todo_and_reminders(vv):
    app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who, every=3)
    today = local_today()
    start = today - timedelta(days=4)
    doc.issued_at = _at(start)
    services.record_service(profile, doc, method="signed", service_on=start, note=None, actor=agent)
    assert doc.laudo_next_due_on == today - timedelta(days=1)  # overdue since yesterday
    queue = app.extensions["workspace_queues"].queues["fiscalizacao-laudos"]
    assert doc.id in [d.id for d in db.session.scalars(queue.rows())]
    texts = _todo(app, who)
    assert any("venceu em" in t and "VV 23 II" in t for t in texts)
    late = list(laudo_due(today))
    assert [m.occurrence_key for m in late] == [f"laudo:{doc.id}:{doc.laudo_next_due_on}:atraso"]
    # two days before the next one: a notice; three days before: nothing yet
    duties.file_laudo(profile, doc, agent, received_on=today)
    due = doc.laudo_next_due_on
    assert due == start + timedelta(days=6)
    assert [m.occurrence_key for m in laudo_due(due - timedelta(days=2))][0].endswith("aviso")
    assert list(laudo_due(due - timedelta(days=3))) == []


def test_vv_23_ii_a_closed_notice_asks_for_nothing(vv):
    app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who, every=1)
    start = local_today() - timedelta(days=3)
    doc.issued_at = _at(start)
    services.record_service(profile, doc, method="signed", service_on=start, note=None, actor=agent)
    services.record_return_visit(doc, complied=True, actor=agent)
    queue = app.extensions["workspace_queues"].queues["fiscalizacao-laudos"]
    assert doc.id not in [d.id for d in db.session.scalars(queue.rows())]
    assert not any("laudo" in t for t in _todo(app, who))
    assert list(laudo_due(local_today())) == []
    with pytest.raises(EnforcementError) as err:
        duties.file_laudo(profile, doc, agent)
    assert err.value.code == "closed"


def test_vv_23_ii_the_person_sends_a_laudo_and_a_new_address(vv):
    app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    db.session.commit()
    client = app.test_client()
    AuthActions(client).login(who)
    page = client.get(f"/minhas-notificacoes/{doc.id}").get_data(as_text=True)
    assert "VV 23 II" in page and f"/minhas-notificacoes/{doc.id}/deveres" in page
    short = client.post(f"/minhas-notificacoes/{doc.id}/endereco-do-animal", data={"address": "x"})
    short_page = short.get_data(as_text=True)
    assert short.status_code == 200 and 'value="x"' in short_page  # kept
    assert "Informe o novo endereço do animal" in short_page  # in Portuguese, by the field
    moved = client.post(
        f"/minhas-notificacoes/{doc.id}/endereco-do-animal",
        data={"address": "Rua Nova, 20, Centro, Vila Velha"},
    )
    assert moved.status_code == 302
    assert any("Rua Nova, 20" in m.body for m in _mail(agent.email))  # the agent is told
    missing = client.post(f"/minhas-notificacoes/{doc.id}/laudo", data={"note": "ok"})
    assert "Anexe o laudo" in missing.get_data(as_text=True)
    pdf = (io.BytesIO(b"%PDF-1.4\n%laudo\n"), "laudo.pdf")
    sent = client.post(
        f"/minhas-notificacoes/{doc.id}/laudo",
        data={"laudo": pdf, "note": "Animal saudável"},
        content_type="multipart/form-data",
    )
    assert sent.status_code == 302
    db.session.refresh(doc)
    assert doc.laudo_next_due_on == doc.knowledge_on + timedelta(days=10)
    page = client.get(f"/minhas-notificacoes/{doc.id}/deveres").get_data(as_text=True)
    assert "Rua Nova, 20" in page and "Animal saudável" in page


def test_vv_23_ii_gru_has_no_duties_no_queue_no_reminder(gru, app, client, auth):
    profile, agent, who = gru
    doc = _preliminary(profile, agent, who, "GRU 68 III", comply_term="d10")
    with pytest.raises(EnforcementError) as err:
        duties.apply_on_issue(profile, doc, laudo_every_days=5)
    assert err.value.code == "not_maltreatment"
    assert "fiscalizacao-laudos" not in app.extensions["workspace_queues"].queues
    db.session.commit()
    auth.login(who)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    db.session.commit()
    assert client.get(f"/minhas-notificacoes/{doc.id}/deveres").status_code == 404


# -- VV 42 §ú --------------------------------------------------------------------------------------


def test_vv_42_pu_two_minimum_wages_doubled_when_the_animal_dies(vv):
    _app, profile, _agent, _who = vv
    db.session.add(UnitValue(unit="MW", value_cents=162100, effective_from=date(2026, 1, 1)))
    db.session.flush()
    on = date(2026, 11, 2)
    fine = compute_fee(profile, "fine", {"specific": "wounding_acts", "infraction_on": on}, on)
    assert fine.total_cents == 2 * 162100
    died = {"specific": "wounding_acts", "infraction_on": on, "animal_died": True}
    assert compute_fee(profile, "fine", died, on).total_cents == 4 * 162100


def test_vv_42_pu_rules_page_says_what_cannot_be_read_and_the_reading_chosen(vv, make_app):
    app, _profile, _agent, _who = vv
    page = app.test_client().get("/regras").get_data(as_text=True)
    assert "VV 42 §ú I" in page and "ilegível" in page and "art. 50 I" in page
    assert "VV 23 II" in page
    gru = make_app()
    with gru.app_context():
        text = gru.test_client().get("/regras").get_data(as_text=True)
    assert "VV 42" not in text and "ilegível" not in text and "VV 23 II" not in text
    assert "GRU 87 V" in text and "GRU 87 VI" in text and "abatedouro licenciado" in text
    assert "GRU 89 §ú" in text
    assert "abatedouro licenciado" not in page


def _form(who, **extra):  # type: ignore[no-untyped-def]
    return {
        "name": who.full_name,
        "cpf": who.cpf,
        "fact": "Fato constatado",
        "place": "Rua A, 10",
        "occurred_at": (datetime.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "agent_title": "Agente sanitário",
        **extra,
    }


def test_gru_87_v_the_issue_form_records_the_motive(gru, client, auth):
    _profile, agent, who = gru
    auth.login(agent)
    data = _form(who, kind="infraction", legal_provision="GRU 69 II", repeat_motive=OVER)
    assert client.post("/ccz/fiscalizacao/novo", data=data).status_code == 302
    doc = db.session.scalar(
        select(EnforcementDocument).where(EnforcementDocument.addressee_cpf == who.cpf)
    )
    assert doc.repeat_motive == OVER


def test_vv_23_ii_the_issue_form_asks_the_laudo_period_next_to_the_field(vv):
    app, _profile, agent, who = vv
    client = app.test_client()
    AuthActions(client).login(agent)
    data = _form(who, kind="preliminary", legal_provision="VV 3 IX d", comply_term="d7")
    data["required_action"] = "Dar abrigo"
    refused = client.post("/ccz/fiscalizacao/novo", data=data)
    text = refused.get_data(as_text=True)
    assert refused.status_code == 200 and "Informe de quantos em quantos dias" in text
    assert 'value="Dar abrigo"' in text or "Dar abrigo</textarea>" in text  # nothing lost
    done = client.post("/ccz/fiscalizacao/novo", data={**data, "laudo_every_days": "7"})
    assert done.status_code == 302


def test_gru_89_the_issue_form_writes_the_required_action_itself(gru, client, auth):
    _profile, agent, who = gru
    auth.login(agent)
    data = _form(
        who, kind="preliminary", legal_provision="GRU 69 II", comply_term="d10", interdiction="y"
    )
    assert client.post("/ccz/fiscalizacao/novo", data=data).status_code == 302
    doc = db.session.scalar(
        select(EnforcementDocument).where(EnforcementDocument.addressee_cpf == who.cpf)
    )
    assert doc.interdiction and doc.required_action.count("abatedouro licenciado") == 1


def test_gru_87_v_the_penalty_notice_after_the_third_auto_does_not_tell_it_twice(gru):
    profile, agent, who = gru
    _auto(profile, agent, who, date(2025, 1, 10))
    _auto(profile, agent, who, date(2025, 6, 10))
    third = _auto(profile, agent, who, date(2026, 3, 10))
    penalty = _auto(profile, agent, who, date(2026, 3, 10), kind="penalty", parent=third)
    assert duties.repeat_finding(profile, penalty).applies  # the same autuação, read the same
    for doc in (third, penalty):
        services.record_service(
            profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
        )
    assert len([m for m in _mail(who.email) if "Autuação repetida" in m.subject]) == 1


def test_vv_23_ii_staff_record_a_paper_laudo_on_the_document_page(vv):
    app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who, every=5)
    today = local_today()
    services.record_service(profile, doc, method="signed", service_on=today, note=None, actor=agent)
    db.session.commit()
    client = app.test_client()
    AuthActions(client).login(agent)
    page = client.get(f"/ccz/fiscalizacao/{doc.id}").get_data(as_text=True)
    assert "Registrar laudo entregue no CCZ" in page and "VV 23 II" in page
    future = (today + timedelta(days=1)).isoformat()
    client.post(f"/ccz/fiscalizacao/{doc.id}/laudo", data={"received_on": future})
    db.session.refresh(doc)
    assert doc.laudo_next_due_on == today + timedelta(days=5)  # refused: nothing moved
    done = client.post(f"/ccz/fiscalizacao/{doc.id}/laudo", data={"received_on": today.isoformat()})
    assert done.status_code == 302
    db.session.refresh(doc)
    assert doc.laudo_next_due_on == today + timedelta(days=10)
    citizen = app.test_client()
    AuthActions(citizen).login(factories.user())
    assert citizen.post(f"/ccz/fiscalizacao/{doc.id}/laudo", data={}).status_code in (302, 403)


# -- the exact words each rule writes (mutation run of issue 27) --------------------------------


def test_gru_87_v_the_reason_lists_each_earlier_autuacao_by_number_and_date(gru):
    profile, agent, who = gru
    first = _auto(profile, agent, who, date(2025, 1, 10))
    assert duties.repeat_finding(profile, first).reason() == (
        "Autuações anteriores pelo mesmo motivo em 3 anos (GRU 79): 0 de 2 (nenhuma). "
        "A apreensão definitiva (GRU 87 V) ainda não se aplica."
    )
    second = _auto(profile, agent, who, date(2025, 6, 10))
    assert duties.repeat_finding(profile, second).reason() == (
        f"Autuações anteriores pelo mesmo motivo em 3 anos (GRU 79): 1 de 2 (nº {first.number} "
        "de 10/01/2025). A apreensão definitiva (GRU 87 V) ainda não se aplica."
    )
    third = _auto(profile, agent, who, date(2026, 3, 10))
    assert duties.repeat_finding(profile, third).reason() == (
        "Apreensão definitiva dos animais (GRU 87 V): a pessoa já foi autuada 2 vezes por "
        "criação fora de padrões aceitáveis de higiene, bem-estar e alojamento nos 3 anos "
        f"anteriores (nº {first.number} de 10/01/2025, nº {second.number} de 10/06/2025; "
        "reincidência, GRU 79) e recebeu nova autuação pelo mesmo motivo. A pena só é efetivada "
        "após a decisão condenatória definitiva (GRU 87 §ú)."
    )


def test_gru_89_the_interdiction_cites_its_article_and_the_expenses_paragraph(gru):
    profile, agent, who = gru
    action = duties.interdiction_action(profile)
    assert action.startswith("Interdição da criação destinada ao consumo humano (GRU 89): ")
    assert action.endswith("correm por conta do infrator (GRU 89 §ú).")


def test_vv_23_ii_the_new_address_is_checked_kept_audited_and_told(vv):
    _app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    for bad in ("", "  Rua 1  ", "R" * 301):
        with pytest.raises(EnforcementError) as err:
            duties.report_address(profile, doc, who, bad)
        assert (err.value.field, err.value.code) == ("address", "invalid")
        assert err.value.message == (
            "Informe o novo endereço do animal: rua, número, bairro e cidade."
        )
    assert duties.report_address(profile, doc, who, "R" * 300).text == "R" * 300
    filing = duties.report_address(profile, doc, who, "  Rua A, 1 ")  # 8 characters
    assert (filing.text, filing.document_id, filing.filed_by_id) == ("Rua A, 1", doc.id, who.id)
    [_, event] = factories.audit_events("enforcement.address_changed")
    assert (event.subject_type, event.subject_id) == ("EnforcementDocument", str(doc.id))
    assert (event.detail, event.actor_id) == ({"number": doc.number}, who.id)
    told = [m for m in _mail(who.email) if m.subject.startswith("Mudança de endereço")][-1]
    assert told.subject == f"Mudança de endereço registrada – documento {doc.number}"
    assert told.body.startswith(
        f"O CCZ registrou o novo endereço do animal no documento {doc.number} (VV 23 II): Rua A, 1."
    )
    assert told.body.endswith(f"/minhas-notificacoes/{doc.id}")  # the document's page
    [*_, agent_mail] = _mail(agent.email)
    assert agent_mail.subject == f"Animal mudou de endereço – documento {doc.number}"
    assert agent_mail.body.startswith(
        "O responsável informou um novo endereço do animal (VV 23 II): Rua A, 1.\n"
    )
    assert agent_mail.body.endswith(f"/ccz/fiscalizacao/{doc.id}")  # the staff page


def test_vv_23_ii_no_address_change_once_the_notice_is_closed(vv):
    _app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    services.record_return_visit(doc, complied=True, actor=agent)
    with pytest.raises(EnforcementError) as err:
        duties.report_address(profile, doc, who, "Rua Nova, 20, Centro")
    assert (err.value.field, err.value.code) == ("address", "closed")
    assert factories.audit_events("enforcement.address_changed") == []


def test_vv_23_ii_the_laudo_line_is_due_on_its_day_and_overdue_the_day_after(vv):
    _app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    due = doc.laudo_next_due_on
    asked = (
        f"Documento {doc.number}: apresente o laudo veterinário do animal até {due:%d/%m/%Y} "
        "(VV 23 II) e avise o CCZ se o animal mudar de endereço."
    )
    assert duties.duty_text(profile, doc, due - timedelta(days=1)) == asked
    assert duties.duty_text(profile, doc, due) == asked
    assert duties.duty_text(profile, doc, due + timedelta(days=1)) == (
        f"Documento {doc.number}: o laudo veterinário do animal venceu em {due:%d/%m/%Y} e não "
        "foi apresentado (VV 23 II). Envie-o agora; avise também se o animal mudou de endereço."
    )


def test_vv_23_ii_no_schedule_before_the_notice_is_known_and_laudos_in_date_order(vv):
    _app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who, every=5)
    assert doc.knowledge_on is None and duties.next_laudo_due(doc, 0) is None
    start = local_today() - timedelta(days=3)
    doc.issued_at = _at(start)
    services.record_service(profile, doc, method="signed", service_on=start, note=None, actor=agent)
    later = duties.file_laudo(profile, doc, agent, received_on=local_today())
    earlier = duties.file_laudo(profile, doc, agent, received_on=start)
    assert duties.laudos_of(doc) == [earlier, later]  # by the day received, not by filing


def test_vv_23_ii_a_laudo_on_paper_for_someone_without_an_account(vv):
    _app, profile, agent, _who = vv
    nobody = Addressee("Sem Conta", factories.make_cpf(777))
    doc = _preliminary(profile, agent, _who, "VV 3 IX d", addressee=nobody)
    duties.apply_on_issue(profile, doc, laudo_every_days=5)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    before = db.session.query(OutboxMessage).count()
    assert duties.file_laudo(profile, doc, agent).document_id == doc.id
    assert db.session.query(OutboxMessage).count() == before  # nobody to write to


def test_vv_23_ii_a_laudo_refused_beside_its_field(vv):
    _app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    with pytest.raises(EnforcementError) as err:
        duties.file_laudo(profile, doc, who)  # the person must attach the file
    assert (err.value.field, err.value.code) == ("laudo", "required")
    services.record_return_visit(doc, complied=True, actor=agent)
    with pytest.raises(EnforcementError) as err:
        duties.file_laudo(profile, doc, agent)
    assert (err.value.field, err.value.code) == ("laudo", "closed")


def test_vv_23_ii_a_laudo_is_kept_with_its_file_note_day_and_audit_entry(vv):
    _app, profile, agent, who = vv
    doc = _maltreatment(profile, agent, who, every=5)
    today = local_today()
    start = today - timedelta(days=2)
    doc.issued_at = _at(start)
    services.record_service(profile, doc, method="signed", service_on=start, note=None, actor=agent)
    for day, code in ((today + timedelta(days=1), "future"), (start - timedelta(days=1), "before")):
        with pytest.raises(EnforcementError) as err:
            duties.file_laudo(profile, doc, agent, received_on=day)
        assert (err.value.field, err.value.code) == ("received_on", code)
    pdf = store_document(
        io.BytesIO(b"%PDF-1.4\n%laudo\n"), purpose="enforcement_laudo", owner_id=who.id
    )
    sent = duties.file_laudo(profile, doc, who, file=pdf, note="  Animal saudável ")
    assert (sent.file_id, sent.text, sent.received_on, sent.filed_by_id) == (
        pdf.id,
        "Animal saudável",
        today,
        who.id,
    )
    assert duties.file_laudo(profile, doc, agent, received_on=start).text is None  # on paper
    event = factories.audit_events("enforcement.laudo_filed")[0]
    assert (event.subject_id, event.actor_id) == (str(doc.id), who.id)
    assert event.detail == {"number": doc.number, "received_on": today.isoformat()}
    told = [m for m in _mail(who.email) if m.subject.startswith("Laudo veterinário")][0]
    assert told.subject == f"Laudo veterinário recebido – documento {doc.number}"
    assert told.body.startswith(
        f"O CCZ registrou o laudo veterinário de {today:%d/%m/%Y} no documento {doc.number} "
        f"(VV 23 II). O próximo vence em {start + timedelta(days=10):%d/%m/%Y}, enquanto o prazo "
        "para sanar estiver correndo."
    )

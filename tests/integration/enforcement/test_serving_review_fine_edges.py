"""Service (ciência), the GRU 104 review of a grant and the fine as a charge, at their edges
(GRU 70 §3-4, 95 VIII and §ú, 96 V, VII and §1, 98 VI, 99-100, 104, 105 §1, 109 III, 110, 114;
VV 23 V, III b; issue 16): which services are refused and with what code, the day of knowledge
each way of serving gives, the terms it starts for each kind of document, when a grant takes
effect and what it cancels, and when a fine is charged, suspended, runs again and is collected.

Fixed days are worked by hand from the articles: GRU 114 counts continuous days, the start day
excluded and the last included; its §ú has a term start and end only on a business day (national,
São Paulo state and municipal holidays). A document is set back to have been written on the day it
is served (``_serve``), since its issue time otherwise comes from the clock.
"""

from __future__ import annotations

import time as clock
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select

from portal.blueprints.billing.services import mark_paid_at_counter
from portal.blueprints.enforcement import review, services, serving
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.blueprints.impound import services as impound
from portal.blueprints.impound.apprehension import apprehension_document, definitive_upheld
from portal.extensions import db
from portal.models import (
    CaptureStatus,
    MunicipalHoliday,
    PaymentItem,
    PersonConsequence,
    UnitValue,
)
from portal.profiles import load_profile
from portal.services.clock import local_today
from tests import factories
from tests.integration.enforcement import test_enforcement
from tests.integration.enforcement.test_consequence_edges import _auto
from tests.integration.enforcement.test_decision_edges import (
    _capture_appeal,
    _decide,
    _decided_actors,
    _defence,
    _known,
    _serve,
)
from tests.integration.enforcement.test_enforcement import _infraction
from tests.integration.enforcement.test_enforcement_profile_rules import (
    _capture,
    _unknown_owner_apprehension,
)
from tests.integration.enforcement.test_petition_edges import _bjp_infraction, _serve_today

profile, people = test_enforcement.profile, test_enforcement.people  # its fixtures
SAO_PAULO = ZoneInfo("America/Sao_Paulo")
MON_1_MAR = date(2027, 3, 1)
WED_3_MAR = date(2027, 3, 3)
THU_5_NOV = date(2026, 11, 5)  # ten days later is Sun 15 Nov, the Proclamação da República
MON_16_NOV = date(2026, 11, 16)
GRU_EDITAL = "GRU 95 §ú, 96 §1, 109 III"
SERVED = "enforcement.served"


# -- helpers -------------------------------------------------------------------------------------


@pytest.fixture
def server_in_sao_paulo(monkeypatch):  # type: ignore[no-untyped-def]
    """The server's own clock set to São Paulo: a stamp must be an instant, not its wall time."""
    monkeypatch.setenv("TZ", "America/Sao_Paulo")
    clock.tzset()
    yield
    monkeypatch.undo()
    clock.tzset()


def _aware(moment: datetime) -> datetime:
    """A stored instant (SQLite gives it back without its zone, which is UTC)."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _record(profile, doc, agent, day: date, *, today: date | None = None, **kw):  # type: ignore[no-untyped-def]
    """Record the service of ``doc`` on ``day`` as typed in on ``today`` (default: that day)."""
    kw.setdefault("method", "signed")
    kw.setdefault("note", None)
    services.record_service(
        profile, doc, service_on=day, actor=agent, today=today or day, **kw
    )  # fmt: skip
    return doc


def _refusal(profile, doc, agent, day: date, **kw) -> tuple[str | None, str]:  # type: ignore[no-untyped-def]
    with pytest.raises(EnforcementError) as err:
        _record(profile, doc, agent, day, **kw)
    return err.value.field, err.value.code


def _written_on(doc, day: date):  # type: ignore[no-untyped-def]
    """``doc`` set back to have been written at 09:00 in São Paulo on ``day``."""
    doc.issued_at = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    return doc


def _fresh(profile, people, day: date, **kw):  # type: ignore[no-untyped-def]
    """An auto de infração (or another ``kind``) written on ``day``, not yet served."""
    agent, _boss, _director, citizen = people
    return _written_on(_infraction(profile, agent, citizen, **kw), day)


def _notice(profile, people, day: date, term: str):  # type: ignore[no-untyped-def]
    """A notificação preliminar with ``term`` to comply, written on ``day``, not yet served."""
    return _fresh(
        profile, people, day, fine=False, kind="preliminary", required_action="Dar abrigo",
        comply_term=term,
    )  # fmt: skip


def _sp(moment: datetime) -> datetime:
    """A stored moment read in São Paulo."""
    return _aware(moment).astimezone(SAO_PAULO)


def _at(day: date, hour: int, minute: int = 0, second: int = 0) -> datetime:
    return datetime.combine(day, time(hour, minute, second), tzinfo=SAO_PAULO)


def _events(action: str, doc) -> list[tuple[int | None, dict]]:  # type: ignore[no-untyped-def]
    """The audit entries ``action`` of ``doc``: (actor, detail) each."""
    return [
        (e.actor_id, e.detail)
        for e in factories.audit_events(action)
        if (e.subject_type, e.subject_id) == ("EnforcementDocument", str(doc.id))
    ]


def _penalty(profile, people, day: date, **kw):  # type: ignore[no-untyped-def]
    """An auto de imposição de penalidade imposed at once (GRU 97 §1) with its 100 UFG fine,
    known in person on ``day``."""
    return _known(profile, people, day, fine=True, kind="penalty", **kw)


def _granted(profile, people, filed: date, decided: date, **kw):  # type: ignore[no-untyped-def]
    """An auto de infração known and defended on ``filed``, the defence granted on ``decided``."""
    doc, defence = _defence(profile, people, filed, **kw)
    _decide(profile, defence, people[1], grant=True, on=decided, reason="Sem prova do fato")
    return doc, defence


def _answer(profile, petition, agent, day: date, *, reexamine: bool = True, note: str = "Há fotos"):  # type: ignore[no-untyped-def]
    services.answer_grant(profile, petition, agent, reexamine=reexamine, note=note, today=day)


def _answer_refused(profile, petition, agent, day: date, **kw) -> EnforcementError:  # type: ignore[no-untyped-def]
    with pytest.raises(EnforcementError) as err:
        _answer(profile, petition, agent, day, **kw)
    return err.value


def _appealed(profile, people, day: date):  # type: ignore[no-untyped-def]
    """A penalty with its fine known on ``day`` and appealed the same day (GRU 98 VI, 110)."""
    penalty = _penalty(profile, people, day)
    appeal = services.file_petition(profile, penalty, people[3], text="Recorro", today=day)
    return penalty, appeal


def _upheld(capture) -> list[bool | None]:  # type: ignore[no-untyped-def]
    """What each final decision on ``capture``'s definitive apprehension said, as recorded."""
    return [
        e.detail["upheld"]
        for e in factories.audit_events("impound.definitive_decided")
        if e.subject_id == str(capture.id)
    ]


def _pay(item) -> None:  # type: ignore[no-untyped-def]
    mark_paid_at_counter(
        item, receipt_number="AUT-1", paid_on=local_today(), actor=factories.user(roles=("admin",))
    )


# -- what a service may be: refusals and their codes (GRU 95 VIII, 96 VII, §1) -------------------


def test_gru_96_vii_a_document_is_served_once(profile, people):
    agent = people[0]
    doc = _known(profile, people, MON_1_MAR)
    # a second service, even a later AR, would move every term: refused
    assert _refusal(profile, doc, agent, WED_3_MAR, method="post") == ("method", "done")
    assert (doc.service_method, doc.service_on, doc.knowledge_on) == (
        "signed",
        MON_1_MAR,
        MON_1_MAR,
    )
    assert doc.petition_due_on == date(2027, 3, 11)  # Mon 1 Mar + 10
    assert doc.service_note is None  # signed, nothing to note
    assert len(_events(SERVED, doc)) == 1


def test_gru_95_viii_a_service_is_one_of_the_ways_the_law_names(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, MON_1_MAR)
    for method in ("email", "", "SIGNED", "whatsapp"):
        assert _refusal(profile, doc, agent, MON_1_MAR, method=method) == ("method", "invalid")
    assert (doc.status, doc.knowledge_on, doc.service_method) == ("issued", None, None)
    assert doc.petition_due_on is None and _events(SERVED, doc) == []


def test_gru_96_vii_the_service_date_is_neither_in_the_future_nor_before_the_issue(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, MON_1_MAR)  # written Mon 1 Mar, typed in on Wed 3 Mar
    assert _refusal(profile, doc, agent, date(2027, 3, 4), today=WED_3_MAR) == (
        "service_on",
        "future",
    )
    assert _refusal(profile, doc, agent, date(2027, 2, 28), today=WED_3_MAR) == (
        "service_on",
        "before",
    )
    assert doc.knowledge_on is None and doc.status == "issued"
    # the day it was written is accepted, typed in two days later
    _record(profile, doc, agent, MON_1_MAR, today=WED_3_MAR)
    assert (doc.service_on, doc.knowledge_on, doc.status) == (MON_1_MAR, MON_1_MAR, "open")
    assert doc.petition_due_on == date(2027, 3, 11)  # from the service, not the typing


def test_gru_96_vii_the_service_may_be_typed_in_on_the_day_itself(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, MON_1_MAR)
    _record(profile, doc, agent, WED_3_MAR)  # today is the last day accepted
    assert doc.knowledge_on == WED_3_MAR
    assert doc.petition_due_on == date(2027, 3, 15)  # Wed 3 + 10 = Sat 13 -> Mon 15 Mar


def test_gru_96_vii_the_issue_day_is_the_day_in_sao_paulo(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, MON_1_MAR)
    # written at 22:30 on Sun 28 Feb in São Paulo, which is already 1 Mar in UTC
    doc.issued_at = datetime(2027, 3, 1, 1, 30, tzinfo=UTC)
    assert _refusal(profile, doc, agent, date(2027, 2, 27)) == ("service_on", "before")
    _record(profile, doc, agent, date(2027, 2, 28))
    assert doc.knowledge_on == date(2027, 2, 28)


def test_gru_96_vii_without_a_day_typed_in_today_is_the_clock(profile, people):
    agent, _boss, _director, citizen = people
    doc = _infraction(profile, agent, citizen)  # written now
    tomorrow = local_today() + timedelta(days=1)
    with pytest.raises(EnforcementError) as err:
        services.record_service(
            profile, doc, method="signed", service_on=tomorrow, note=None, actor=agent
        )
    assert (err.value.field, err.value.code) == ("service_on", "future")
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    assert doc.knowledge_on == local_today()


def test_gru_95_viii_96_vii_a_refusal_to_sign_needs_the_agents_note(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, MON_1_MAR)
    for note in (None, "", "  \n"):
        assert _refusal(profile, doc, agent, MON_1_MAR, method="refused", note=note) == (
            "note",
            "required",
        )
    assert doc.status == "issued" and doc.service_note is None
    _record(profile, doc, agent, MON_1_MAR, method="refused", note="  Recusou-se a assinar  ")
    assert (doc.service_method, doc.service_note) == ("refused", "Recusou-se a assinar")
    # GRU 95 VIII: refused in person, it is known that day like a signature
    assert (doc.knowledge_on, doc.petition_due_on) == (MON_1_MAR, date(2027, 3, 11))


def test_gru_96_vii_a_signed_service_keeps_a_note_only_when_there_is_one(profile, people):
    agent = people[0]
    blank = _record(profile, _fresh(profile, people, MON_1_MAR), agent, MON_1_MAR, note="   ")
    signed = _record(
        profile, _fresh(profile, people, MON_1_MAR), agent, MON_1_MAR, note=" Assinou o preposto "
    )
    assert blank.service_note is None
    assert signed.service_note == "Assinou o preposto"  # GRU 96 VII: the representative signs


@pytest.mark.parametrize("method", ["signed", "refused", "post"])
def test_gru_95_su_96_1_an_unidentified_addressee_is_served_by_edital_only(profile, method):
    agent, _animal, doc = _unknown_owner_apprehension(profile)
    _written_on(doc, MON_1_MAR)
    with pytest.raises(EnforcementError) as err:
        _record(profile, doc, agent, MON_1_MAR, method=method, note="Recusou")
    assert (err.value.field, err.value.code) == ("method", "edital_only")
    assert GRU_EDITAL in err.value.message  # the article of the edital
    assert doc.knowledge_on is None and doc.status == "issued"


def test_gru_95_su_96_1_an_edital_for_the_unidentified_is_known_five_days_later(profile):
    agent, _animal, doc = _unknown_owner_apprehension(profile)
    assert serving.unidentified(doc) is True
    _record(profile, _written_on(doc, MON_1_MAR), agent, MON_1_MAR, method="edital")
    # published Mon 1 Mar 2027: known "após 5 dias", Sat 6 Mar; GRU 114 §ú: the term starts on
    # Mon 8 Mar, the next business day, and its tenth day is Thu 18 Mar (GRU 101)
    assert (doc.service_method, doc.service_on, doc.knowledge_on) == (
        "edital",
        MON_1_MAR,
        date(2027, 3, 6),
    )
    assert doc.petition_due_on == date(2027, 3, 18) and doc.status == "open"


def test_gru_96_i_an_establishment_named_by_its_cnpj_is_identified(profile, people):
    agent = people[0]
    # GRU 96 I: an entity is named with its line of business and address
    shop = Addressee("Pet Shop Rex", cnpj=factories.make_cnpj(), activity="Pet shop",
                     address="Rua B, 2")  # fmt: skip
    doc = _auto(profile, shop, "GRU 87 II", definitive=False)
    assert doc.addressee_cpf is None and serving.unidentified(doc) is False
    _record(profile, _written_on(doc, MON_1_MAR), agent, MON_1_MAR)  # served in person
    assert (doc.service_method, doc.knowledge_on) == ("signed", MON_1_MAR)


def test_gru_96_i_a_person_named_by_the_cpf_is_identified(profile, people):
    doc = _fresh(profile, people, MON_1_MAR)
    assert doc.addressee_cnpj is None and serving.unidentified(doc) is False


# -- the day of knowledge per method, and what is stored and audited -----------------------------

# method -> (day of knowledge, last day of the defence) of an auto de infração served Mon 1 Mar
# 2027: in person or refused, that day (GRU 96 VII); by post, the AR's date (GRU 95 §ú); by
# edital, 5 days after the publication, Sat 6 Mar (GRU 96 §1), whose term starts on Mon 8 Mar
# (GRU 114 §ú) and ends on Thu 18 Mar; the others: Mon 1 + 10 = Thu 11 Mar (GRU 96 V)
KNOWLEDGE = {
    "signed": (MON_1_MAR, date(2027, 3, 11)),
    "refused": (MON_1_MAR, date(2027, 3, 11)),
    "post": (MON_1_MAR, date(2027, 3, 11)),
    "edital": (date(2027, 3, 6), date(2027, 3, 18)),
}


@pytest.mark.parametrize("method", KNOWLEDGE.keys())
def test_gru_95_su_96_v_the_day_of_knowledge_per_method_starts_the_defence(profile, people, method):
    agent = people[0]
    doc = _fresh(profile, people, MON_1_MAR)
    _record(profile, doc, agent, MON_1_MAR, method=method, note="Recusou-se")
    known, due = KNOWLEDGE[method]
    assert (doc.service_method, doc.service_on, doc.knowledge_on) == (method, MON_1_MAR, known)
    assert (doc.petition_due_on, doc.status) == (due, "open")
    assert services.petition_option(profile, doc).due_on == due
    assert _events(SERVED, doc) == [(agent.id, {"number": doc.number, "method": method})]


def test_gru_95_su_the_fifth_day_after_an_edital_is_not_moved_by_a_holiday(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, date(2026, 11, 10))
    _record(profile, doc, agent, date(2026, 11, 10), method="edital")
    # published Tue 10 Nov 2026: known Sun 15 Nov (a holiday too) — knowledge is no act at the
    # office; the defence starts on Mon 16 Nov (GRU 114 §ú) and its tenth day is Thu 26 Nov
    assert doc.knowledge_on == date(2026, 11, 15)
    assert doc.petition_due_on == date(2026, 11, 26)


def test_cabo_39_without_an_edital_term_the_publication_day_is_the_knowledge(make_app):
    with factories.profile_app(make_app, "cabo") as cabo:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        doc = _fresh(cabo, (agent, None, None, citizen), MON_1_MAR, fine=False)
        _record(cabo, doc, agent, MON_1_MAR, method="edital")
        assert doc.knowledge_on == MON_1_MAR and doc.petition_due_on is None
        assert doc.status == "open"  # an auto de infração without a consequence waits


def test_cabo_39_4_the_apprehension_known_by_edital_is_decided_by_the_agent_who_served_it(
    make_app,
):
    with factories.profile_app(make_app, "cabo") as cabo:
        agent = factories.user(roles=("agent",))
        capture = _capture(cabo, MON_1_MAR, agent)
        impound.open_definitive_apprehension(
            capture, article="CABO 39 §4", reason="Reincidência", actor=agent, profile=cabo
        )
        doc = _written_on(apprehension_document(capture), MON_1_MAR)
        _record(cabo, doc, agent, MON_1_MAR, method="edital")
        # CABO 39: no appeal term, so the publication day makes it final, by the agent's act
        assert doc.status == "final" and definitive_upheld(capture)
        assert _decided_actors(capture) == [agent.id] and _upheld(capture) == [True]


# -- the terms each kind of document gets (GRU 96 V, 98 VI, 101) ---------------------------------


@pytest.mark.parametrize("kind", ["infraction", "penalty"])
def test_gru_96_v_98_vi_ten_days_from_the_knowledge_ending_on_a_holiday(profile, people, kind):
    doc = _known(profile, people, THU_5_NOV, kind=kind)
    # Thu 5 Nov 2026 + 10 = Sun 15 Nov (Proclamação da República) -> Mon 16 Nov (GRU 114 §ú)
    assert doc.petition_due_on == MON_16_NOV and doc.status == "open"


def test_gru_101_an_auto_de_apreensao_is_appealed_within_ten_days(profile, people):
    agent, _boss, _director, citizen = people
    doc = _serve(profile, _auto(profile, citizen, "GRU 87 II"), agent, THU_5_NOV)
    assert doc.kind == "apprehension" and doc.consequence_kind is not None
    # the law gives an appeal term: the consequence waits for it (GRU 87 §ú)
    assert (doc.petition_due_on, doc.status) == (MON_16_NOV, "open")
    assert db.session.scalar(select(PersonConsequence)) is None


def test_gru_70_1_a_preliminary_notice_has_a_term_to_comply_not_to_petition(profile, people):
    doc = _serve(profile, _notice(profile, people, THU_5_NOV, "d10"), people[0], THU_5_NOV)
    assert doc.petition_due_on is None and doc.status == "open"
    assert services.petition_option(profile, doc) is None


def test_gru_101_a_termo_de_compromisso_is_no_decision_to_petition_against(profile, people):
    # GRU 101 gives 10 days against an auto, a penalty or a decision; a signed undertaking is none
    term = _known(profile, people, THU_5_NOV, fine=False, kind="commitment", method="post")
    assert (term.knowledge_on, term.petition_due_on, term.status) == (THU_5_NOV, None, "open")


def test_bjp_30_ii_an_infraction_without_a_defence_term_gets_none(make_app):
    with factories.profile_app(make_app, "bjp") as bjp:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        doc = _known(bjp, (agent, None, None, citizen), MON_1_MAR)
        assert (doc.knowledge_on, doc.petition_due_on, doc.status) == (MON_1_MAR, None, "open")


# -- the preliminary notice's term to comply (GRU 70 §3-4) ---------------------------------------


def test_gru_70_3_ten_days_end_on_the_last_second_of_the_moved_tenth_day(profile, people):
    doc = _serve(profile, _notice(profile, people, THU_5_NOV, "d10"), people[0], THU_5_NOV)
    # Thu 5 Nov 2026 + 10 = Sun 15 Nov (a holiday) -> Mon 16 Nov, to its end in São Paulo
    assert _sp(doc.comply_due_at) == _at(MON_16_NOV, 23, 59, 59)


def test_gru_70_3_a_term_in_days_by_post_runs_from_the_ar(profile, people):
    doc = _notice(profile, people, MON_1_MAR, "d5")
    _record(profile, doc, people[0], WED_3_MAR, method="post", today=date(2027, 3, 4))
    # AR signed Wed 3 Mar 2027 + 5 = Mon 8 Mar
    assert _sp(doc.comply_due_at) == _at(date(2027, 3, 8), 23, 59, 59)


def test_gru_70_4_hours_of_a_service_recorded_later_run_from_the_start_of_that_day(profile, people):
    doc = _notice(profile, people, MON_1_MAR, "h24")
    _record(profile, doc, people[0], MON_1_MAR, today=WED_3_MAR)
    # signed Mon 1 Mar 2027 and typed in on Wed 3 Mar: the hour is unknown, so the 24 hours
    # (minute by minute, GRU 70 §4) run from 00:00 of that day and end at 00:00 on Tue 2 Mar
    assert _sp(doc.comply_due_at) == _at(date(2027, 3, 2), 0)


def test_gru_70_4_hours_by_post_run_from_the_start_of_the_ar_day(profile, people):
    doc = _notice(profile, people, MON_1_MAR, "h48")
    _record(profile, doc, people[0], MON_1_MAR, method="post")  # the AR typed in that same day
    # the AR gives a day, not an hour: 48 hours from 00:00 on Mon 1 Mar end at 00:00 on Wed 3
    assert _sp(doc.comply_due_at) == _at(WED_3_MAR, 0)


def test_gru_70_4_hours_by_edital_run_from_the_end_of_the_day_it_takes_effect(profile, people):
    doc = _notice(profile, people, MON_1_MAR, "h48")
    _record(profile, doc, people[0], MON_1_MAR, method="edital")
    # published Mon 1 Mar 2027, known after 5 days: Sat 6 Mar, to its end; 48 hours later is
    # 23:59:59 on Mon 8 Mar (hours are not moved to a business day, GRU 70 §4)
    assert doc.knowledge_on == date(2027, 3, 6)
    assert _sp(doc.comply_due_at) == _at(date(2027, 3, 8), 23, 59, 59)


@pytest.mark.parametrize("method", ["signed", "refused"])
def test_gru_70_4_hours_served_in_person_today_run_from_that_minute(
    profile, people, method, server_in_sao_paulo
):
    agent, _boss, _director, citizen = people
    doc = _infraction(
        profile, agent, citizen, fine=False, kind="preliminary", required_action="Dar água",
        comply_term="h1",
    )  # fmt: skip
    today = local_today()
    before = datetime.now(UTC)
    _record(profile, doc, agent, today, method=method, note="Recusou-se")
    after = datetime.now(UTC)
    due = _sp(doc.comply_due_at)
    assert before + timedelta(hours=1) <= due <= after + timedelta(hours=1)


def test_bjp_30_i_immediately_by_post_is_due_at_the_start_of_the_ar_day(make_app):
    with factories.profile_app(make_app, "bjp") as bjp:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        doc = _notice(bjp, (agent, None, None, citizen), MON_1_MAR, "d0")
        _record(bjp, doc, agent, MON_1_MAR, method="post", today=WED_3_MAR)
        # BJP 30 I "imediatamente": due the moment the AR says it was known
        assert _sp(doc.comply_due_at) == _at(MON_1_MAR, 0)


# -- GRU 70 §3: one extension by 30 days, at the addressee's request -----------------------------


def test_gru_70_3_the_extension_adds_30_days_once_and_is_on_record(profile, people):
    agent = people[0]
    doc = _serve(profile, _notice(profile, people, THU_5_NOV, "d10"), agent, THU_5_NOV)
    services.extend_comply_term(profile, doc, agent)
    # 10 + 30 = 40 days from Thu 5 Nov 2026: Tue 15 Dec, a business day
    assert doc.comply_extended_days == 30
    assert _sp(doc.comply_due_at) == _at(date(2026, 12, 15), 23, 59, 59)
    assert _events("enforcement.extended", doc) == [(agent.id, {"number": doc.number, "days": 30})]
    with pytest.raises(EnforcementError) as err:
        services.extend_comply_term(profile, doc, agent)
    assert (err.value.field, err.value.code) == (None, "done")  # "por mais 30 dias": once
    assert doc.comply_extended_days == 30
    assert _sp(doc.comply_due_at) == _at(date(2026, 12, 15), 23, 59, 59)
    assert len(_events("enforcement.extended", doc)) == 1


def test_gru_70_3_extended_before_the_service_the_term_counts_it_when_known(profile, people):
    agent = people[0]
    doc = _notice(profile, people, THU_5_NOV, "d10")
    services.extend_comply_term(profile, doc, agent)
    assert doc.comply_extended_days == 30 and doc.comply_due_at is None  # not yet known
    _serve(profile, doc, agent, THU_5_NOV)
    assert _sp(doc.comply_due_at) == _at(date(2026, 12, 15), 23, 59, 59)  # 40 days, as above


def test_gru_70_3_the_longest_term_extended_ends_on_a_christmas_weekend(profile, people):
    agent = people[0]
    doc = _serve(profile, _notice(profile, people, date(2026, 9, 26), "d60"), agent,
                 date(2026, 9, 26))  # fmt: skip
    # known Sat 26 Sep 2026: GRU 114 §ú starts the term on Mon 28 Sep; 60 + 30 = 90 days end on
    # Sun 27 Dec -> Mon 28 Dec 2026
    services.extend_comply_term(profile, doc, agent)
    assert _sp(doc.comply_due_at) == _at(date(2026, 12, 28), 23, 59, 59)


def test_gru_70_3_a_term_in_hours_is_extended_by_30_days_too(profile, people):
    agent = people[0]
    doc = _notice(profile, people, MON_1_MAR, "h24")
    _record(profile, doc, agent, MON_1_MAR, today=WED_3_MAR)
    # GRU 70 §3: the term to remedy, "no mínimo de uma hora", "podendo ser prorrogado por mais
    # 30 dias": 24 hours from 00:00 on Mon 1 Mar 2027 end at 00:00 on Tue 2 Mar (§4); 30 days
    # more end at 00:00 on Thu 1 Apr.
    services.extend_comply_term(profile, doc, agent)
    assert doc.comply_extended_days == 30
    assert _sp(doc.comply_due_at) == _at(date(2027, 4, 1), 0)
    with pytest.raises(EnforcementError) as err:
        services.extend_comply_term(profile, doc, agent)
    assert (err.value.field, err.value.code) == (None, "done")
    assert _sp(doc.comply_due_at) == _at(date(2027, 4, 1), 0)


def test_gru_70_3_only_a_preliminary_notice_in_days_is_extended(profile, people):
    agent = people[0]
    doc = _known(profile, people, MON_1_MAR)  # an auto de infração: its term is the law's
    with pytest.raises(EnforcementError) as err:
        services.extend_comply_term(profile, doc, agent)
    assert (err.value.field, err.value.code) == (None, "not_allowed")
    assert doc.comply_extended_days is None and _events("enforcement.extended", doc) == []


@pytest.mark.parametrize(("key", "term"), [("bjp", "d7"), ("bjp", "d0"), ("vilavelha", "d7")])
def test_bjp_30_i_vv_23_i_no_extension_where_the_law_gives_none(make_app, key, term):
    with factories.profile_app(make_app, key) as other:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        doc = _serve(other, _notice(other, (agent, None, None, citizen), MON_1_MAR, term), agent,
                     MON_1_MAR)  # fmt: skip
        due = doc.comply_due_at
        with pytest.raises(EnforcementError) as err:
            services.extend_comply_term(other, doc, agent)
        assert (err.value.field, err.value.code) == (None, "not_allowed")
        assert doc.comply_extended_days is None and doc.comply_due_at == due


# -- GRU 70 §2: the return visit ------------------------------------------------------------------


@pytest.mark.parametrize(("complied", "status"), [(True, "complied"), (False, "not_complied")])
def test_gru_70_2_the_return_visit_closes_the_notice(profile, people, complied, status):
    agent = people[0]
    doc = _serve(profile, _notice(profile, people, THU_5_NOV, "d10"), agent, THU_5_NOV)
    services.record_return_visit(doc, complied=complied, actor=agent)
    assert doc.status == status
    assert _events("enforcement.return_visit", doc) == [
        (agent.id, {"number": doc.number, "complied": complied})
    ]
    with pytest.raises(EnforcementError) as err:  # one return visit
        services.record_return_visit(doc, complied=not complied, actor=agent)
    assert (err.value.field, err.value.code, doc.status) == (None, "not_allowed", status)


def test_gru_70_2_no_return_visit_before_the_notice_is_known_or_for_another_kind(profile, people):
    agent = people[0]
    unserved = _notice(profile, people, THU_5_NOV, "d10")
    infraction = _known(profile, people, THU_5_NOV)
    for doc, status in ((unserved, "issued"), (infraction, "open")):
        with pytest.raises(EnforcementError) as err:
            services.record_return_visit(doc, complied=True, actor=agent)
        assert (err.value.field, err.value.code, doc.status) == (None, "not_allowed", status)
    assert factories.audit_events("enforcement.return_visit") == []


# -- VV 23 V and the penalties the law gives no appeal against ------------------------------------


def test_vv_23_v_a_signed_commitment_term_is_recorded_on_the_person(make_app):
    with factories.profile_app(make_app, "vilavelha") as vv:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        who = (agent, None, None, citizen)
        signed = _known(vv, who, MON_1_MAR, fine=False, kind="commitment")
        for method in ("refused", "post"):  # only the signature binds the person
            unsigned = _fresh(vv, who, MON_1_MAR, fine=False, kind="commitment")
            _record(vv, unsigned, agent, MON_1_MAR, method=method, note="Recusou-se a assinar")
        (row,) = db.session.scalars(select(PersonConsequence))
        assert (row.kind, row.article, row.cpf, row.document_id) == (
            "commitment_never_keep",
            "VV 23 V",
            citizen.cpf,
            signed.id,
        )


@pytest.mark.parametrize("key", ["guarulhos", "bjp", "cabeceira", "cabo"])
def test_vv_23_v_a_signed_termo_de_compromisso_bars_nobody_where_the_law_has_no_such_term(
    make_app, key
):
    # VV 23 V's term never again to keep animals is Vila Velha's; elsewhere a signed termo de
    # compromisso is an undertaking and records nothing that would bar a registration.
    with factories.profile_app(make_app, key) as profile:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        _known(profile, (agent, None, None, citizen), MON_1_MAR, fine=False, kind="commitment")
        assert list(db.session.scalars(select(PersonConsequence))) == []
        assert services.registration_refusal(citizen.cpf, None) is None


@pytest.mark.parametrize(
    ("key", "article"), [("vilavelha", "VV 23 III b"), ("bjp", "BJP 30 §ú II")]
)
def test_vv_23_iii_b_bjp_30_su_ii_a_penalty_without_appeal_is_final_once_known(
    make_app, key, article
):
    with factories.profile_app(make_app, key) as other:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        doc = _fresh(other, (agent, None, None, citizen), MON_1_MAR, fine=False, kind="penalty")
        services.set_proposed_consequence(other, doc, "lost_possession_maltreatment")
        _serve(other, doc, agent, MON_1_MAR)
        assert (doc.status, doc.petition_due_on) == ("final", None)
        (row,) = db.session.scalars(select(PersonConsequence))
        assert (row.kind, row.article, row.document_id) == (
            "lost_possession_maltreatment",
            article,
            doc.id,
        )


def test_vv_23_iii_b_without_a_consequence_the_penalty_stays_open(make_app):
    with factories.profile_app(make_app, "vilavelha") as vv:
        agent, citizen = factories.user(roles=("agent",)), factories.user()
        who = (agent, None, None, citizen)
        plain = _known(vv, who, MON_1_MAR, fine=False, kind="penalty")
        # an auto de infração is not the penalty: its proposed consequence waits for it
        infraction = _fresh(vv, who, MON_1_MAR, fine=False)
        services.set_proposed_consequence(vv, infraction, "lost_possession_maltreatment")
        _serve(vv, infraction, agent, MON_1_MAR)
        assert plain.status == infraction.status == "open"
        assert db.session.scalar(select(PersonConsequence)) is None


# -- GRU 104: the issuing agent's five days ------------------------------------------------------


def test_gru_104_only_guarulhos_gives_the_agent_a_view_of_the_grant():
    # GRU 104: "no prazo de 5 (cinco) dias"; the other four laws have no such step
    keys = ("guarulhos", "bjp", "vilavelha", "cabo", "cabeceira")
    assert [review.review_term(load_profile(k)) for k in keys] == [(5, "GRU 104")] + [None] * 4


# (defence filed, granted, municipal holiday) -> the last day of the agent's five days
REVIEW_ENDS = {
    # granted Wed 10 Mar 2027 + 5 = Mon 15 Mar
    "weekday": (date(2027, 3, 1), date(2027, 3, 10), None, date(2027, 3, 15)),
    # granted Tue 10 Nov 2026 + 5 = Sun 15 Nov (Proclamação da República) -> Mon 16 Nov
    "national": (date(2026, 11, 9), date(2026, 11, 10), None, MON_16_NOV),
    # granted Wed 4 Jul 2029 + 5 = Mon 9 Jul (Revolução Constitucionalista, SP) -> Tue 10 Jul
    "sp_state": (date(2029, 7, 2), date(2029, 7, 4), None, date(2029, 7, 10)),
    # granted Wed 3 Mar 2027 + 5 = Mon 8 Mar, a municipal holiday -> Tue 9 Mar
    "municipal": (MON_1_MAR, WED_3_MAR, date(2027, 3, 8), date(2027, 3, 9)),
}


@pytest.mark.parametrize("case", REVIEW_ENDS.values(), ids=REVIEW_ENDS.keys())
def test_gru_104_grant_takes_effect_the_day_after_the_agents_five_days(profile, people, case):
    filed, decided, holiday, last = case
    if holiday:
        db.session.add(MunicipalHoliday(day=holiday, name="Feriado municipal"))
        db.session.flush()
    doc, defence = _granted(profile, people, filed, decided)
    assert (defence.status, defence.review_due_on, doc.status) == ("granted", last, "under_review")
    assert services.awaiting_review(doc) is defence
    assert review.close_lapsed_reviews(last) == 0  # the last day is still the agent's
    assert (doc.status, defence.review_due_on) == ("under_review", last)
    assert review.close_lapsed_reviews(last + timedelta(days=1)) == 1
    assert (doc.status, defence.status, defence.review_due_on) == ("cancelled", "granted", None)
    assert services.awaiting_review(doc) is None
    assert review.close_lapsed_reviews(last + timedelta(days=2)) == 0  # took effect once


def test_gru_104_the_agent_orders_the_reexamination_on_the_last_day(
    profile, people, server_in_sao_paulo
):
    agent, boss, _director, _citizen = people
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))  # until Mon 15 Mar
    before = datetime.now(UTC)
    _answer(profile, defence, agent, date(2027, 3, 15), note="  Há fotos da vistoria  ")
    after = datetime.now(UTC)
    assert (defence.status, defence.reexam_note, defence.review_due_on) == (
        "pending",
        "Há fotos da vistoria",
        None,
    )
    assert before <= _aware(defence.reexam_requested_at) <= after
    # GRU 102: decided again within 15 days of Mon 15 Mar: Tue 30 Mar 2027
    assert defence.decide_by == date(2027, 3, 30)
    assert doc.status == "under_review" and services.awaiting_review(doc) is None
    assert review.close_lapsed_reviews(date(2027, 4, 30)) == 0  # nothing lapses now
    assert doc.status == "under_review"
    assert _events("enforcement.grant_reviewed", doc) == [
        (agent.id, {"number": doc.number, "petition": defence.id, "reexamine": True})
    ]
    # the re-examined grant is final at once: no second view
    _decide(profile, defence, boss, grant=True, on=date(2027, 3, 16), reason="Mantido")
    assert (doc.status, defence.review_due_on) == ("cancelled", None)


def test_gru_104_the_reexamination_the_day_after_the_five_days_is_refused(profile, people):
    agent = people[0]
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))  # until Mon 15 Mar
    for note in ("Há fotos", ""):  # late comes first: a reason cannot save it
        err = _answer_refused(profile, defence, agent, date(2027, 3, 16), note=note)
        assert (err.field, err.code) == (None, "late")
        assert "15/03/2027" in err.message and "GRU 104" in err.message  # the day it ended
    assert (defence.status, defence.review_due_on, defence.reexam_note) == (
        "granted",
        date(2027, 3, 15),
        None,
    )
    assert doc.status == "under_review" and _events("enforcement.grant_reviewed", doc) == []


def test_gru_104_the_reexamination_is_reasoned(profile, people):
    agent = people[0]
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))
    for blank in ("", "   \n"):
        err = _answer_refused(profile, defence, agent, date(2027, 3, 11), note=blank)
        assert (err.field, err.code) == ("note", "required")
    assert (defence.status, defence.reexam_requested_at) == ("granted", None)
    assert doc.status == "under_review"


def test_gru_104_only_the_issuing_agent_has_the_view(profile, people):
    agent, boss, director, citizen = people
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))
    for nobody in (boss, director, citizen, factories.user(roles=("agent",))):
        for reexamine in (True, False):
            err = _answer_refused(profile, defence, nobody, date(2027, 3, 11), reexamine=reexamine)
            assert (err.field, err.code) == (None, "not_allowed")
            assert "GRU 104" in err.message
    assert (doc.status, defence.status) == ("under_review", "granted")


def test_gru_104_the_agent_agrees_and_the_grant_takes_effect_at_once(profile, people):
    agent = people[0]
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))
    _answer(profile, defence, agent, date(2027, 3, 11), reexamine=False, note="")
    assert (doc.status, defence.status, defence.review_due_on) == ("cancelled", "granted", None)
    assert _events("enforcement.grant_reviewed", doc) == [
        (agent.id, {"number": doc.number, "petition": defence.id, "reexamine": False})
    ]
    err = _answer_refused(profile, defence, agent, date(2027, 3, 12))  # nothing waits any more
    assert (err.field, err.code) == (None, "not_pending")


def test_gru_104_the_agent_may_agree_after_the_five_days(profile, people):
    agent = people[0]
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))
    _answer(profile, defence, agent, date(2027, 3, 16), reexamine=False)  # lapsed, not yet closed
    assert doc.status == "cancelled"
    assert review.close_lapsed_reviews(date(2027, 3, 16)) == 0  # it already took effect


def test_gru_104_there_is_no_view_of_a_denial_nor_of_a_pending_petition(profile, people):
    agent, boss, _director, _citizen = people
    doc, defence = _defence(profile, people, MON_1_MAR)
    err = _answer_refused(profile, defence, agent, MON_1_MAR)
    assert (err.field, err.code) == (None, "not_pending")
    _decide(profile, defence, boss, on=date(2027, 3, 8))  # denied
    assert services.awaiting_review(doc) is None
    for reexamine in (True, False):
        err = _answer_refused(profile, defence, agent, date(2027, 3, 9), reexamine=reexamine)
        assert (err.field, err.code) == (None, "not_pending")
    assert (doc.status, defence.status) == ("upheld", "denied")


def test_gru_104_a_grant_lapsed_once_its_document_left_the_review_is_not_applied(profile, people):
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))
    doc.status = "cancelled"  # withdrawn meanwhile (GRU 105 §1 by other means)
    assert services.awaiting_review(doc) is None
    assert review.close_lapsed_reviews(date(2027, 3, 16)) == 0
    assert defence.review_due_on == date(2027, 3, 15)


def test_gru_104_only_lapsed_grants_count_among_several(profile, people):
    first, one = _granted(profile, people, MON_1_MAR, MON_1_MAR)  # until Sat 6 -> Mon 8 Mar
    second, two = _granted(profile, people, MON_1_MAR, WED_3_MAR)  # until Mon 8 Mar
    third, three = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))  # until Mon 15 Mar
    assert (one.review_due_on, two.review_due_on) == (date(2027, 3, 8), date(2027, 3, 8))
    assert review.close_lapsed_reviews(date(2027, 3, 9)) == 2
    assert (first.status, second.status, third.status) == ("cancelled", "cancelled", "under_review")
    assert three.review_due_on == date(2027, 3, 15)


# -- GRU 105 §1: what a grant that takes effect cancels ------------------------------------------


def test_gru_105_1_a_granted_appeal_cancels_the_suspended_fine(profile, people):
    _agent, boss, _director, _citizen = people
    penalty, appeal = _appealed(profile, people, MON_1_MAR)
    item = penalty.payment_item
    _decide(profile, appeal, boss, grant=True, on=MON_1_MAR)  # until Sat 6 -> Mon 8 Mar
    assert penalty.fine_suspended and item.status == "pending"  # not before the agent's days
    assert services.fine_status(penalty) == "suspended"
    assert review.close_lapsed_reviews(date(2027, 3, 9)) == 1
    assert (penalty.status, item.status, penalty.fine_suspended) == (
        "cancelled",
        "cancelled",
        False,
    )
    assert services.fine_status(penalty) == "cancelled"
    assert item.events[-1].to_status == "cancelled" and item.events[-1].actor_id is None
    assert services.mark_for_collection(date(2028, 1, 1)) == []


def test_gru_105_1_the_agent_who_agrees_cancels_the_fine_on_record(profile, people):
    agent, boss, _director, _citizen = people
    penalty, appeal = _appealed(profile, people, MON_1_MAR)
    _decide(profile, appeal, boss, grant=True, on=MON_1_MAR)
    _answer(profile, appeal, agent, WED_3_MAR, reexamine=False)
    item = penalty.payment_item
    assert (penalty.status, item.status) == ("cancelled", "cancelled")
    assert (item.events[-1].from_status, item.events[-1].actor_id) == ("pending", agent.id)


def test_gru_105_1_a_fine_already_paid_is_not_cancelled_by_the_grant(profile, people):
    agent, boss, _director, citizen = people
    penalty = _penalty(profile, people, MON_1_MAR)
    _pay(penalty.payment_item)
    appeal = services.file_petition(profile, penalty, citizen, text="Recorro", today=MON_1_MAR)
    # GRU 110: a paid fine has nothing left to suspend
    assert (appeal.suspends_fine, penalty.fine_suspended) == (False, False)
    _decide(profile, appeal, boss, grant=True, on=MON_1_MAR)
    _answer(profile, appeal, agent, WED_3_MAR, reexamine=False)
    assert (penalty.status, penalty.payment_item.status) == ("cancelled", "paid")
    assert services.fine_status(penalty) == "paid"
    # GRU 105 §1, 108: the fine is cancelled, so the money paid goes back: the billing staff get
    # the item in their reconciliation queue, once, naming the document.
    flags = penalty.payment_item.review_flags
    assert [(f.code, f.detail, f.resolved_at) for f in flags] == [
        ("refund_due", {"document": penalty.number}, None)
    ]
    assert penalty.number in flags[0].message


def test_gru_105_1_an_unpaid_cancelled_fine_asks_for_no_refund(profile, people):
    _agent, boss, _director, _citizen = people
    penalty, appeal = _appealed(profile, people, MON_1_MAR)
    _decide(profile, appeal, boss, grant=True, on=MON_1_MAR)
    review.close_lapsed_reviews(date(2027, 3, 9))
    assert penalty.payment_item.status == "cancelled" and penalty.payment_item.review_flags == []


def test_gru_105_1_nothing_stays_on_the_person_once_the_grant_takes_effect(
    profile, people, server_in_sao_paulo
):
    agent = people[0]
    doc, defence = _granted(profile, people, MON_1_MAR, date(2027, 3, 10))
    other = _known(profile, people, MON_1_MAR)  # another procedure of the same person
    caused = "caused_definitive_apprehension"
    standing = services.record_consequence(doc, caused, "GRU 88 §4")
    earlier = datetime(2027, 3, 2, 12, tzinfo=UTC)
    services.record_consequence(doc, caused, "GRU 88 §4").revoked_at = earlier
    elsewhere = services.record_consequence(other, caused, "GRU 88 §4")
    before = datetime.now(UTC)
    _answer(profile, defence, agent, date(2027, 3, 11), reexamine=False)
    after = datetime.now(UTC)
    assert standing.revoked_at is not None and before <= _aware(standing.revoked_at) <= after
    assert elsewhere.revoked_at is None  # the grant cancels this document only
    rows = db.session.scalars(select(PersonConsequence))
    revoked = [_aware(r.revoked_at) for r in rows if r.revoked_at is not None]
    assert earlier in revoked  # revoked before, its day is kept


def test_gru_104_the_agent_agrees_and_the_animal_goes_back_to_custody(profile):
    capture, doc, appeal, _owner = _capture_appeal(profile, MON_1_MAR)
    _decide(profile, appeal, factories.user(roles=("coordinator",)), grant=True, on=MON_1_MAR)
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING  # the agent's five days run
    _answer(profile, appeal, doc.agent, WED_3_MAR, reexamine=False)
    assert doc.status == "cancelled" and capture.status == CaptureStatus.IN_CUSTODY
    assert not definitive_upheld(capture) and _decided_actors(capture) == [doc.agent_id]
    assert _upheld(capture) == [False]


def test_gru_104_a_reexamined_grant_gives_the_animal_back_by_the_judges_act(profile):
    capture, doc, appeal, _owner = _capture_appeal(profile, MON_1_MAR)
    boss = factories.user(roles=("coordinator",))
    _decide(profile, appeal, boss, grant=True, on=MON_1_MAR)
    _answer(profile, appeal, doc.agent, WED_3_MAR)  # re-examination ordered
    _decide(profile, appeal, boss, grant=True, on=date(2027, 3, 4), reason="Mantido")
    assert doc.status == "cancelled" and capture.status == CaptureStatus.IN_CUSTODY
    assert _decided_actors(capture) == [boss.id] and _upheld(capture) == [False]


def test_gru_104_a_lapsed_review_gives_the_animal_back_by_nobodys_act(profile):
    capture, doc, appeal, _owner = _capture_appeal(profile, MON_1_MAR)
    _decide(profile, appeal, factories.user(roles=("coordinator",)), grant=True, on=MON_1_MAR)
    assert review.close_lapsed_reviews(date(2027, 3, 9)) == 1  # Mon 8 Mar was the last day
    assert capture.status == CaptureStatus.IN_CUSTODY and _decided_actors(capture) == [None]
    assert _upheld(capture) == [False]


# -- the fine as a charge (GRU 98 V, 99-100, 110) ------------------------------------------------


def test_gru_99_100_the_penalty_charges_its_fine_once_when_served(profile, people):
    citizen = people[3]
    penalty = _penalty(profile, people, THU_5_NOV)
    items = list(db.session.scalars(select(PaymentItem)))
    assert items == [penalty.payment_item]
    (item,) = items
    assert (item.kind, item.amount_cents, item.status, item.payer_id) == (
        "fine",
        48000,  # 100 UFG at R$ 4,80
        "pending",
        citizen.id,
    )
    assert (item.subject_type, item.subject_id) == ("enforcement", penalty.id)
    assert item.breakdown == penalty.fine_breakdown and item.breakdown
    assert penalty.number in item.description
    # GRU 100: thirty days from Thu 5 Nov 2026 end on Sat 5 Dec -> Mon 7 Dec (GRU 114 §ú)
    assert item.due_on == date(2026, 12, 7)
    assert services.fine_status(penalty) == "due"


def test_gru_99_a_fine_is_charged_by_the_guia_of_the_penalty_not_of_the_infraction(profile, people):
    infraction = _known(profile, people, THU_5_NOV, fine=True)
    plain = _known(profile, people, THU_5_NOV, fine=False, kind="penalty")
    assert infraction.fine_cents == 48000 and infraction.payment_item is None  # GRU 98 V
    assert plain.payment_item is None and db.session.scalar(select(PaymentItem)) is None
    assert services.fine_status(infraction) == services.fine_status(plain) == "none"


def test_gru_99_the_guia_of_an_establishment_has_no_person_to_pay(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, THU_5_NOV, kind="penalty")
    doc.addressee_cpf, doc.person_id = None, None
    doc.addressee_cnpj = factories.make_cnpj()
    _serve(profile, doc, agent, THU_5_NOV)
    assert doc.payment_item.payer_id is None and doc.payment_item.amount_cents == 48000


def test_bjp_30_without_a_payment_term_the_guia_sets_its_own_due_date(make_app):
    with factories.profile_app(make_app, "bjp") as bjp:
        db.session.add(UnitValue(unit="UFM", value_cents=5000, effective_from=date(2026, 1, 1)))
        agent, owner = factories.user(roles=("agent",)), factories.user()
        doc = _bjp_infraction(bjp, agent, owner, fine_inputs={"specific": "street_training"})
        day = _serve_today(bjp, doc, agent)
        penalty = services.issue_penalty(
            bjp, doc, agent, today=day, method="signed", service_on=day
        )
        # the BJP law names no term to pay (GRU 100's thirty days are Guarulhos' own)
        item = penalty.payment_item
        assert (item.amount_cents, item.due_on) == (penalty.fine_cents, None) and item.amount_cents
        assert services.fine_status(penalty) == "due"
        assert services.mark_for_collection(day + timedelta(days=400)) == []


def test_gru_110_an_appeal_suspends_the_fine_and_a_paid_one_is_left_alone(profile, people):
    penalty, appeal = _appealed(profile, people, THU_5_NOV)
    item = penalty.payment_item
    assert (appeal.suspends_fine, penalty.fine_suspended, item.due_on) == (True, True, None)
    # the suspension is written on the guia's history after its creation, status unchanged
    assert [(e.from_status, e.to_status) for e in item.events[1:]] == [("pending", "pending")]
    assert services.fine_status(penalty) == "suspended"
    assert services.mark_for_collection(date(2028, 1, 1)) == []  # suspended: never collected


def test_gru_110_a_defence_does_not_suspend_the_fine_of_another_document(profile, people):
    _doc, defence = _defence(profile, people, THU_5_NOV, fine=True)
    assert defence.suspends_fine is False  # the infraction has no charge yet


def test_gru_100_110_the_fine_runs_again_from_the_knowledge_of_the_final_denial(profile, people):
    _agent, boss, director, citizen = people
    doc, defence = _defence(profile, people, MON_1_MAR, fine=True)
    _decide(profile, defence, boss, on=date(2027, 3, 8))  # refused; the penalty known with it
    penalty = services.penalty_of(doc)
    item = penalty.payment_item
    assert item.due_on == date(2027, 4, 7)  # Mon 8 Mar 2027 + 30 (GRU 100)
    appeal = services.file_petition(
        profile, penalty, citizen, text="Recorro", today=date(2027, 3, 18)
    )
    assert (appeal.instance, penalty.fine_suspended, item.due_on) == (2, True, None)
    _decide(profile, appeal, director, on=date(2027, 3, 22))  # final (GRU 103 §3)
    # known Mon 22 Mar 2027: thirty days end on Wed 21 Apr (Tiradentes) -> Thu 22 Apr
    assert (penalty.status, penalty.fine_suspended, item.due_on) == (
        "final",
        False,
        date(2027, 4, 22),
    )
    # created, suspended, then running again: each on the guia's history
    assert [(e.from_status, e.to_status) for e in item.events[1:]] == [("pending", "pending")] * 2
    assert services.fine_status(penalty) == "due"
    assert services.mark_for_collection(date(2027, 4, 22)) == []  # the last day to pay
    assert services.mark_for_collection(date(2027, 4, 23)) == [penalty]


def test_gru_100_a_fine_paid_while_suspended_does_not_run_again(profile, people):
    _agent, boss, _director, _citizen = people
    penalty, appeal = _appealed(profile, people, MON_1_MAR)
    item = penalty.payment_item
    _pay(item)
    _decide(profile, appeal, boss, on=date(2027, 3, 8))
    assert (penalty.fine_suspended, item.status, item.due_on) == (False, "paid", None)
    assert services.fine_status(penalty) == "paid"


# -- GRU 100: the dívida ativa -------------------------------------------------------------------

HEADER = [
    "cpf_cnpj",
    "nome",
    "documento",
    "auto_de_infracao",
    "data_infracao",
    "data_ciencia",
    "vencimento",
    "valor_centavos",
    "referencia_guia",
    "marcado_em",
]


def test_gru_100_unpaid_after_thirty_days_the_fine_is_marked_once(profile, people):
    penalty = _penalty(profile, people, THU_5_NOV)  # to pay until Mon 7 Dec 2026 (see above)
    boss = people[1]
    assert services.mark_for_collection(date(2026, 12, 7), boss) == []  # the last day
    assert services.collection_rows(date(2026, 12, 8)) == [HEADER]  # not marked yet
    assert services.mark_for_collection(date(2026, 12, 8), boss) == [penalty]
    assert penalty.collection_marked_on == date(2026, 12, 8)
    assert services.fine_status(penalty) == "collection"
    assert _events("enforcement.collection", penalty) == [(boss.id, {"number": penalty.number})]
    assert services.mark_for_collection(date(2026, 12, 9)) == []  # marked once
    assert penalty.collection_marked_on == date(2026, 12, 8)
    assert len(_events("enforcement.collection", penalty)) == 1


def test_gru_100_the_nightly_marking_is_on_record_without_an_actor(profile, people):
    penalty = _penalty(profile, people, THU_5_NOV)
    assert services.mark_for_collection(date(2026, 12, 8)) == [penalty]
    assert _events("enforcement.collection", penalty) == [(None, {"number": penalty.number})]


def test_gru_100_the_export_lists_each_overdue_debt_with_its_dates(profile, people):
    _agent, boss, _director, citizen = people
    doc, defence = _defence(profile, people, MON_1_MAR, fine=True)
    _decide(profile, defence, boss, on=date(2027, 3, 8))
    from_infraction = services.penalty_of(doc)  # due Wed 7 Apr 2027 (GRU 100)
    other = factories.user(full_name="Lia Multada")  # not a repeat offence of Rui's (GRU 80)
    at_once = _penalty(profile, (people[0], boss, None, other), MON_1_MAR)  # due Wed 31 Mar 2027
    # the fact happened at 22:00 on 1 Nov 2026 in São Paulo (already 2 Nov in UTC)
    at_once.occurred_at = datetime(2026, 11, 2, 1, 0, tzinfo=UTC)
    marked = services.mark_for_collection(date(2027, 4, 8))
    assert sorted(d.id for d in marked) == sorted((from_infraction.id, at_once.id))
    rows = services.collection_rows(date(2027, 4, 9))
    assert rows[0] == HEADER
    # in the order of the numbers: 2026-000002 (written in 2026) before 2027-000001
    assert (at_once.number, from_infraction.number) == ("2026-000002", "2027-000001")
    assert rows[1:] == [
        [
            other.cpf, "Lia Multada", at_once.number, "", "2026-11-01", "2027-03-01",
            "2027-03-31", "48000", at_once.payment_item.reference, "2027-04-08",
        ],
        [
            citizen.cpf, "Rui Autuado", from_infraction.number, doc.number, "2026-11-02",
            "2027-03-08", "2027-04-07", "48000", from_infraction.payment_item.reference,
            "2027-04-08",
        ],
    ]  # fmt: skip


def test_gru_100_a_debt_paid_after_it_was_marked_leaves_the_export(profile, people):
    penalty = _penalty(profile, people, THU_5_NOV)
    other = _penalty(profile, people, THU_5_NOV)
    services.mark_for_collection(date(2026, 12, 8))
    _pay(penalty.payment_item)
    assert [row[2] for row in services.collection_rows(date(2026, 12, 9))[1:]] == [other.number]
    assert services.fine_status(penalty) == "paid"


def test_gru_100_an_establishments_debt_is_exported_under_its_cnpj(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, THU_5_NOV, kind="penalty")
    cnpj = factories.make_cnpj()
    doc.addressee_cpf, doc.person_id, doc.addressee_cnpj = None, None, cnpj
    _serve(profile, doc, agent, THU_5_NOV)
    services.mark_for_collection(date(2026, 12, 8))
    assert services.collection_rows(date(2026, 12, 8))[1][0] == cnpj


def test_gru_95_su_an_unidentified_debtor_is_exported_without_a_cpf_or_cnpj(profile, people):
    agent = people[0]
    doc = _fresh(profile, people, MON_1_MAR, kind="penalty")
    doc.addressee_cpf, doc.person_id = None, None  # not found: served by edital (GRU 98 §ú)
    _record(profile, doc, agent, MON_1_MAR, method="edital")
    # known Sat 6 Mar 2027; thirty days from Mon 8 Mar (GRU 114 §ú) end on Wed 7 Apr
    assert doc.payment_item.due_on == date(2027, 4, 7)
    services.mark_for_collection(date(2027, 4, 8))
    assert services.collection_rows(date(2027, 4, 8))[1][:2] == ["", "Rui Autuado"]


def test_gru_100_a_failed_payment_still_owes_the_fine(profile, people):
    from portal.blueprints.billing.items import transition

    penalty = _penalty(profile, people, THU_5_NOV)
    transition(penalty.payment_item, "failed", "Boleto recusado")
    assert services.mark_for_collection(date(2026, 12, 8)) == [penalty]


def test_gru_70_2_not_complied_only_after_the_term_to_comply_has_ended(profile, people):
    doc = _serve(profile, _notice(profile, people, THU_5_NOV, "d10"), people[0], THU_5_NOV)
    with pytest.raises(EnforcementError) as err:  # the last second of Mon 16 Nov is in the term
        serving.check_not_complied(doc, now=_at(MON_16_NOV, 23, 59, 59))
    assert (err.value.field, err.value.code) == (None, "not_yet")
    assert err.value.message == (
        "O prazo para sanar a irregularidade vai até 16/11/2026 23:59: só depois dele a "
        "notificação pode ser dada como não cumprida."
    )
    assert serving.check_not_complied(doc, now=_at(date(2026, 11, 17), 0)) is None
    doc.comply_due_at = None  # no term fixed: the return visit may find it at once
    assert serving.check_not_complied(doc, now=_at(THU_5_NOV, 12)) is None
    auto = _known(profile, people, THU_5_NOV, fine=False)  # an open auto de infração
    with pytest.raises(EnforcementError) as err:
        serving.check_not_complied(auto, now=_at(date(2026, 11, 17), 0))
    assert (err.value.field, err.value.code) == (None, "not_allowed")

"""Decisions on defences and appeals (GRU 101-106, 100, 103 §3, 105 §1; issue 16): who may judge at
each instance, what a grant and a denial do at the first and at the second instance, the appeal
term that follows a denial (GRU 103, counted from the knowledge of the decision, GRU 109), the
documents that become final the day after their term lapses, what is stored and audited, and the
codes of the refusals.

Dates are fixed (the documents are set back to have been written on the day they are served), so
that every term can be worked out by hand from the articles: GRU 114 counts continuous days, the
start day excluded and the last day included, and GRU 114 §ú moves an end on a weekend or holiday
(national, São Paulo state or municipal) to the next business day.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import services
from portal.blueprints.enforcement.services import EnforcementError
from portal.blueprints.impound.apprehension import apprehension_document, definitive_upheld
from portal.extensions import db
from portal.models import (
    CaptureStatus,
    EnforcementStatus,
    MunicipalHoliday,
    PersonConsequence,
    PetitionStatus,
)
from portal.services.clock import local_date, local_today
from tests import factories
from tests.integration.enforcement import test_enforcement
from tests.integration.enforcement.test_apprehension_link import _third_capture
from tests.integration.enforcement.test_enforcement import _infraction

# test_enforcement.py's fixtures: the app's profile with the UFG in force, and the people (an agent,
# a coordinator, an admin, the addressee)
profile = test_enforcement.profile
people = test_enforcement.people
DECIDED = "enforcement.petition_decided"


# -- helpers -------------------------------------------------------------------------------------


def _serve(profile, doc, agent, day: date, method: str = "signed"):  # type: ignore[no-untyped-def]
    """Record that ``doc`` was known on ``day``; it is set back to have been written that day."""
    doc.issued_at = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)  # 09:00 in São Paulo
    services.record_service(
        profile, doc, method=method, service_on=day, note=None, actor=agent, today=day
    )
    return doc


def _known(profile, people, day: date, *, fine: bool = False, **kw):  # type: ignore[no-untyped-def]
    """An auto de infração (or another ``kind``) known on ``day``."""
    agent, _boss, _director, citizen = people
    method = kw.pop("method", "signed")
    doc = _infraction(profile, agent, citizen, fine=fine, **kw)
    return _serve(profile, doc, agent, day, method)


def _defence(profile, people, day: date, *, fine: bool = False):  # type: ignore[no-untyped-def]
    """An auto de infração known in person on ``day`` and the defence filed the same day."""
    doc = _known(profile, people, day, fine=fine)
    return doc, services.file_petition(profile, doc, people[3], text="Não fui eu", today=day)


def _decide(profile, petition, judge, *, grant: bool = False, on: date | None = None, **kw):  # type: ignore[no-untyped-def]
    """Decide ``petition`` on ``on`` (default: the day it was filed), known in person that day
    unless ``method``/``service_on``/``ar_on`` say otherwise."""
    on = on or petition.filed_on
    kw.setdefault("method", "signed")
    kw.setdefault("service_on", on)
    kw.setdefault("reason", "Fato comprovado pelas fotos da vistoria")
    services.decide_petition(profile, petition, judge, grant=grant, today=on, **kw)


def _refused(profile, petition, judge, **kw) -> EnforcementError:  # type: ignore[no-untyped-def]
    with pytest.raises(EnforcementError) as err:
        _decide(profile, petition, judge, **kw)
    return err.value


def _refusal(profile, petition, judge, **kw) -> tuple[str | None, str]:  # type: ignore[no-untyped-def]
    err = _refused(profile, petition, judge, **kw)
    return err.field, err.code


def _capture_appeal(profile, day: date):  # type: ignore[no-untyped-def]
    """The third capture's auto de apreensão (GRU 87 III), known on ``day``; the owner's appeal."""
    agent, owner, capture = _third_capture(profile)
    doc = _serve(profile, apprehension_document(capture), agent, day)
    petition = services.file_petition(profile, doc, owner, text="Não é meu cão", today=day)
    return capture, doc, petition, owner


def _on_record() -> list[tuple]:
    """The audit trail of decisions: (subject, id, detail) each."""
    return [(e.subject_type, e.subject_id, e.detail) for e in factories.audit_events(DECIDED)]


def _entry(doc, petition, status: str, instance: int) -> tuple:  # type: ignore[no-untyped-def]
    detail = {"number": doc.number, "petition": petition.id, "status": status, "instance": instance}
    return ("EnforcementDocument", str(doc.id), detail)


def _decided_actors(capture) -> list[int | None]:  # type: ignore[no-untyped-def]
    return [
        e.actor_id
        for e in factories.audit_events("impound.definitive_decided")
        if e.subject_id == str(capture.id)
    ]


# -- who judges: GRU 102 (first instance), GRU 103 §1 (second instance) --------------------------


def test_gru_102_a_coordinator_or_an_admin_judges_the_first_instance(profile, people):
    agent, boss, director, citizen = people
    _doc, defence = _defence(profile, people, date(2027, 3, 1))
    other_agent = factories.user(roles=("agent",))
    vet = factories.user(roles=("vet",))
    assert services.may_decide(defence, boss) is True  # coordinator
    assert services.may_decide(defence, director) is True  # admin
    for nobody in (other_agent, vet, citizen):
        assert services.may_decide(defence, nobody) is False
    assert _refusal(profile, defence, other_agent) == (None, "not_allowed")
    assert defence.status == PetitionStatus.PENDING and defence.decided_by_id is None


def test_gru_102_the_issuing_agent_never_judges_even_as_coordinator(profile, people):
    agent, boss, _director, _citizen = people
    agent.add_role("coordinator")
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    assert services.may_decide(defence, agent) is False
    err = _refused(profile, defence, agent)
    assert (err.field, err.code) == (None, "not_allowed")
    assert "GRU 102" in err.message and "GRU 103 §1" in err.message  # the articles it rests on
    assert defence.status == PetitionStatus.PENDING and defence.decision_reason is None
    assert factories.audit_events(DECIDED) == []
    assert services.may_decide(defence, boss) is True


def test_gru_103_1_the_second_instance_is_never_the_first_judge(profile, people):
    agent, boss, director, citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(profile, defence, boss, on=date(2027, 3, 8))
    appeal = services.file_petition(profile, doc, citizen, text="Recorro", today=date(2027, 3, 9))
    assert (appeal.instance, appeal.against_id) == (2, defence.id)
    assert services.may_decide(appeal, boss) is False  # decided the first instance
    assert services.may_decide(appeal, agent) is False  # issued the document
    assert services.may_decide(appeal, director) is True
    assert services.may_decide(appeal, factories.user(roles=("coordinator",))) is True
    assert _refusal(profile, appeal, boss, on=date(2027, 3, 9)) == (None, "not_allowed")
    assert appeal.status == PetitionStatus.PENDING


# -- refusals and their codes --------------------------------------------------------------------


def test_gru_101_2_a_petition_is_decided_once(profile, people):
    _agent, boss, director, _citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(profile, defence, boss, on=date(2027, 3, 8))
    assert _refusal(profile, defence, director, grant=True, on=date(2027, 3, 9)) == (
        None,
        "decided",
    )
    assert (defence.status, defence.decided_by_id) == (PetitionStatus.DENIED, boss.id)
    assert doc.status == EnforcementStatus.UPHELD
    assert _on_record() == [_entry(doc, defence, "denied", 1)]


def test_gru_107_2_i_a_late_petition_refused_without_merit_cannot_be_judged(profile, people):
    agent, boss, _director, citizen = people
    doc = _known(profile, people, date(2027, 3, 1))
    # known Mon 1 Mar 2027: the tenth day is Thu 11 Mar; filed on the 12th it is late
    late = services.file_petition(profile, doc, citizen, text="Atrasada", today=date(2027, 3, 12))
    assert late.status == PetitionStatus.REFUSED
    assert _refusal(profile, late, boss, grant=True) == (None, "decided")
    assert doc.status == EnforcementStatus.OPEN


def test_gru_106_su_every_decision_is_reasoned(profile, people):
    _agent, boss, _director, _citizen = people
    _doc, defence = _defence(profile, people, date(2027, 3, 1))
    for blank in ("", "   \n"):
        assert _refusal(profile, defence, boss, reason=blank) == ("reason", "required")
    assert defence.status == PetitionStatus.PENDING and defence.decided_by_id is None


def test_gru_109_the_decision_is_known_in_a_way_the_law_names(profile, people):
    _agent, boss, _director, _citizen = people
    _doc, defence = _defence(profile, people, date(2027, 3, 1))
    for method in ("email", "telefone", ""):
        assert _refusal(profile, defence, boss, method=method) == ("method", "invalid")
    assert defence.status == PetitionStatus.PENDING


def test_gru_109_the_decision_is_known_between_the_filing_and_today(profile, people):
    _agent, boss, _director, _citizen = people
    _doc, defence = _defence(profile, people, date(2027, 3, 1))
    today = date(2027, 3, 8)
    for wrong in (date(2027, 3, 9), date(2027, 2, 28)):  # tomorrow; the day before the filing
        assert _refusal(profile, defence, boss, on=today, service_on=wrong) == (
            "service_on",
            "invalid",
        )
    assert defence.status == PetitionStatus.PENDING
    # on the day of the filing (not today) is accepted
    _decide(profile, defence, boss, on=today, service_on=date(2027, 3, 1))
    assert defence.decision_known_on == date(2027, 3, 1)


def test_gru_109_2_the_ar_date_lies_between_the_filing_and_today(profile, people):
    _agent, boss, _director, _citizen = people
    _doc, defence = _defence(profile, people, date(2027, 3, 1))
    today = date(2027, 3, 10)
    for wrong in (date(2027, 3, 11), date(2027, 2, 28)):
        assert _refusal(
            profile, defence, boss, on=today, method="edital", service_on=today, ar_on=wrong
        ) == ("ar_on", "invalid")
    assert defence.status == PetitionStatus.PENDING


def test_gru_106_su_the_decision_records_judge_reason_article_and_dates(profile, people):
    _agent, boss, _director, _citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    before = datetime.now(UTC)
    _decide(profile, defence, boss, on=date(2027, 3, 8), reason="  Fotos e laudo comprovam  ")
    after = datetime.now(UTC)
    assert defence.status == PetitionStatus.DENIED
    assert defence.decision_reason == "Fotos e laudo comprovam"
    assert defence.decision_article == "GRU 102"  # the first instance
    assert defence.decided_by_id == boss.id
    assert before <= defence.decided_at <= after
    assert defence.decision_known_on == date(2027, 3, 8)
    assert _on_record() == [_entry(doc, defence, "denied", 1)]


def test_gru_103_the_second_instance_decision_cites_gru_103_and_is_audited(profile, people):
    _agent, boss, director, citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(profile, defence, boss, on=date(2027, 3, 8))
    appeal = services.file_petition(profile, doc, citizen, text="Recorro", today=date(2027, 3, 9))
    _decide(profile, appeal, director, grant=True, on=date(2027, 3, 10), reason="Sem prova")
    assert (appeal.status, appeal.decision_article) == (PetitionStatus.GRANTED, "GRU 103")
    assert (appeal.decided_by_id, appeal.decision_reason) == (director.id, "Sem prova")
    assert appeal.decision_known_on == date(2027, 3, 10)
    assert _on_record() == [_entry(doc, defence, "denied", 1), _entry(doc, appeal, "granted", 2)]


# -- GRU 103: the appeal term after a first-instance denial, from the knowledge (GRU 109) ---------


def test_gru_103_appeal_term_ends_ten_days_after_knowledge(profile, people):
    _agent, boss, _director, _citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(profile, defence, boss, on=date(2027, 3, 8))
    # known in person Mon 8 Mar 2027; ten days, the 8th excluded: Thu 18 Mar (a business day)
    assert defence.next_due_on == date(2027, 3, 18)
    assert doc.status == EnforcementStatus.UPHELD
    option = services.petition_option(profile, doc)
    assert (option.instance, option.due_on, option.article) == (2, date(2027, 3, 18), "GRU 103")
    assert option.against is defence
    assert services.penalty_of(doc) is None  # no fine proposed: no penalty notice (GRU 97)


# (how the decision was known, its date, the AR's, the day recorded) -> knowledge, appeal term
KNOWLEDGE = {
    # GRU 109 III: edital published Wed 3 Mar 2027, known 5 days later, Mon 8 Mar; the appeal
    # until Thu 18 Mar
    "edital": (("edital", date(2027, 3, 3), None, date(2027, 3, 3)), date(2027, 3, 8), 18),
    # GRU 109 §2: edital known Mon 8 Mar, AR signed Wed 10 Mar: the later most benefits him;
    # ten days from the 10th: Sat 20 Mar -> Mon 22 Mar (GRU 114 §ú)
    "edital_then_ar": (("edital", date(2027, 3, 3), date(2027, 3, 10), date(2027, 3, 10)),
                       date(2027, 3, 10), 22),
    # an AR of Fri 5 Mar does not shorten the edital's term: known Mon 8 Mar
    "ar_before_edital": (("edital", date(2027, 3, 3), date(2027, 3, 5), date(2027, 3, 8)),
                         date(2027, 3, 8), 18),
    # the AR signed on the day of the filing (Mon 1 Mar) is a valid date: the edital still counts
    "ar_on_filing_day": (("edital", date(2027, 3, 3), date(2027, 3, 1), date(2027, 3, 8)),
                         date(2027, 3, 8), 18),
    # in person on Mon 1 Mar, the AR returned the day the decision is recorded, Wed 10 Mar
    "ar_today": (("signed", date(2027, 3, 1), date(2027, 3, 10), date(2027, 3, 10)),
                 date(2027, 3, 10), 22),
    # by post: known on the AR's date, Mon 8 Mar (GRU 109 II)
    "post": (("post", date(2027, 3, 8), None, date(2027, 3, 9)), date(2027, 3, 8), 18),
}  # fmt: skip


@pytest.mark.parametrize("case", KNOWLEDGE.values(), ids=KNOWLEDGE.keys())
def test_gru_109_the_knowledge_of_the_decision_starts_the_gru_103_term(profile, people, case):
    (method, service_on, ar_on, recorded), known, due_day = case
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(
        profile, defence, people[1], on=recorded, method=method, service_on=service_on,
        ar_on=ar_on,
    )  # fmt: skip
    assert defence.decision_known_on == known
    assert defence.next_due_on == date(2027, 3, due_day)
    assert services.petition_option(profile, doc).due_on == date(2027, 3, due_day)


# (defence known and filed, decision known in person, municipal holiday) -> last day of the appeal
CLOSED_DAYS = {
    # known Wed 10 Mar 2027: the tenth day is Sat 20 Mar -> Mon 22 Mar
    "saturday": (date(2027, 3, 1), date(2027, 3, 10), None, date(2027, 3, 22)),
    # known Tue 22 Dec 2026: the tenth day is Fri 1 Jan 2027 (national), then a weekend
    "new_year": (date(2026, 12, 21), date(2026, 12, 22), None, date(2027, 1, 4)),
    # known Tue 29 Jun 2027: the tenth day is Fri 9 Jul (São Paulo state holiday) -> Mon 12 Jul
    "sp_state": (date(2027, 6, 28), date(2027, 6, 29), None, date(2027, 7, 12)),
    # known Mon 8 Mar 2027: the tenth day, Thu 18 Mar, a municipal holiday -> Fri 19 Mar
    "municipal": (date(2027, 3, 1), date(2027, 3, 8), date(2027, 3, 18), date(2027, 3, 19)),
}


@pytest.mark.parametrize("case", CLOSED_DAYS.values(), ids=CLOSED_DAYS.keys())
def test_gru_114_su_appeal_term_ending_on_a_closed_day_moves_to_the_next_business_day(
    profile, people, case
):
    filed, decided, holiday, due = case
    if holiday:
        db.session.add(MunicipalHoliday(day=holiday, name="Feriado municipal"))
        db.session.flush()
    doc, defence = _defence(profile, people, filed)
    _decide(profile, defence, people[1], on=decided)
    assert defence.next_due_on == due
    assert services.close_lapsed(profile, due) == 0  # the moved last day still counts
    assert doc.status == EnforcementStatus.UPHELD
    assert services.close_lapsed(profile, due + timedelta(days=1)) == 1
    assert doc.status == EnforcementStatus.FINAL


# -- close_lapsed: final the day after the last day, never on it ---------------------------------


def test_gru_103_appeal_term_lapsed_the_document_is_final_the_day_after(profile, people):
    _agent, boss, _director, _citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(profile, defence, boss, on=date(2027, 3, 8))  # appeal until Thu 18 Mar
    assert services.close_lapsed(profile, date(2027, 3, 18)) == 0  # the last day still counts
    assert doc.status == EnforcementStatus.UPHELD
    assert services.close_lapsed(profile, date(2027, 3, 19)) == 1
    assert doc.status == EnforcementStatus.FINAL
    assert services.petition_option(profile, doc) is None
    assert services.close_lapsed(profile, date(2027, 3, 20)) == 0  # already final


def test_gru_96_v_defence_term_ending_on_a_holiday_lapses_after_the_next_business_day(
    profile, people
):
    agent, _boss, _director, citizen = people
    doc = _known(profile, people, date(2027, 11, 5))
    # known Fri 5 Nov 2027: the tenth day is Mon 15 Nov (Proclamação da República) -> Tue 16 Nov
    assert doc.petition_due_on == date(2027, 11, 16)
    assert services.close_lapsed(profile, date(2027, 11, 15)) == 0
    assert services.close_lapsed(profile, date(2027, 11, 16)) == 0
    assert doc.status == EnforcementStatus.OPEN
    assert services.close_lapsed(profile, date(2027, 11, 17)) == 1
    assert doc.status == EnforcementStatus.FINAL


def test_gru_107_2_i_after_a_late_petition_the_lapsed_document_becomes_final(profile, people):
    agent, _boss, _director, citizen = people
    doc = _known(profile, people, date(2027, 3, 1))
    late = services.file_petition(profile, doc, citizen, text="Atrasada", today=date(2027, 3, 12))
    assert late.status == PetitionStatus.REFUSED and services.petition_option(profile, doc) is None
    # the term (Thu 11 Mar) lapsed and the late petition changes nothing
    assert services.close_lapsed(profile, date(2027, 3, 12)) == 1
    assert doc.status == EnforcementStatus.FINAL


def test_gru_87_su_apprehension_appeal_lapsed_after_denial_records_gru_88_4(profile):
    capture, doc, appeal, owner = _capture_appeal(profile, date(2027, 3, 1))
    _decide(profile, appeal, factories.user(roles=("coordinator",)), on=date(2027, 3, 8))
    assert doc.status == EnforcementStatus.UPHELD and appeal.next_due_on == date(2027, 3, 18)
    assert db.session.scalar(select(PersonConsequence)) is None  # not final yet (GRU 87 §ú)
    assert services.close_lapsed(profile, date(2027, 3, 18)) == 0
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING
    assert services.close_lapsed(profile, date(2027, 3, 19)) == 1
    assert doc.status == EnforcementStatus.FINAL and definitive_upheld(capture)
    assert _decided_actors(capture) == [None]  # the term lapsed: nobody decided
    row = db.session.scalar(select(PersonConsequence))
    assert (row.cpf, row.article, row.document_id) == (owner.cpf, "GRU 88 §4", doc.id)


def test_close_lapsed_counts_every_document_and_grant_that_took_effect(profile, people):
    agent, boss, _director, citizen = people
    day = date(2027, 3, 1)
    one = _known(profile, people, day)
    two = _known(profile, people, day)
    granted_doc, defence = _defence(profile, people, day)
    _decide(profile, defence, boss, grant=True, on=day)
    # defences until Thu 11 Mar; the GRU 104 review of the grant until Sat 6 -> Mon 8 Mar
    assert defence.review_due_on == date(2027, 3, 8)
    assert services.close_lapsed(profile, date(2027, 3, 12)) == 3
    assert one.status == two.status == EnforcementStatus.FINAL
    assert granted_doc.status == EnforcementStatus.CANCELLED


def test_close_lapsed_passes_over_a_document_without_a_term(profile, people):
    agent, _boss, _director, citizen = people
    day = date(2027, 3, 1)
    # a termo de compromisso has no petition and no term: it never lapses, and the documents
    # after it still do
    term = _known(profile, people, day, kind="commitment", method="post")
    lapsed = _known(profile, people, day)
    assert term.petition_due_on is None and term.status == EnforcementStatus.OPEN
    assert services.close_lapsed(profile, date(2027, 3, 12)) == 1
    assert lapsed.status == EnforcementStatus.FINAL
    assert term.status == EnforcementStatus.OPEN


def test_bjp_30_ii_an_infraction_without_a_defence_term_never_lapses(make_app):
    with factories.profile_app(make_app, "bjp") as bjp:
        agent = factories.user(roles=("agent",))
        citizen = factories.user()
        doc = _known(bjp, (agent, None, None, citizen), date(2027, 3, 1))
        assert doc.petition_due_on is None
        assert services.close_lapsed(bjp, date(2028, 3, 1)) == 0
        assert doc.status == EnforcementStatus.OPEN


# -- grants: GRU 104 (the agent's view), 105 §1 (cancelled) --------------------------------------


def test_gru_104_a_first_instance_grant_takes_effect_after_the_agents_five_days(profile, people):
    _agent, boss, _director, _citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(profile, defence, boss, grant=True, on=date(2027, 3, 10))
    assert defence.status == PetitionStatus.GRANTED and defence.decided_by_id == boss.id
    assert (defence.decision_article, defence.next_due_on) == ("GRU 102", None)
    # decided Wed 10 Mar 2027: five days, the 10th excluded: Mon 15 Mar
    assert defence.review_due_on == date(2027, 3, 15)
    assert doc.status == EnforcementStatus.UNDER_REVIEW
    assert services.close_lapsed(profile, date(2027, 3, 15)) == 0
    assert doc.status == EnforcementStatus.UNDER_REVIEW
    assert services.close_lapsed(profile, date(2027, 3, 16)) == 1
    assert doc.status == EnforcementStatus.CANCELLED  # GRU 105 §1
    assert services.penalty_of(doc) is None


def test_gru_104_a_reexamined_grant_is_final_and_gives_the_animal_back(profile):
    capture, doc, petition, _owner = _capture_appeal(profile, date(2027, 3, 1))
    boss = factories.user(roles=("coordinator",))
    _decide(profile, petition, boss, grant=True, reason="Prova de posse")
    services.answer_grant(
        profile, petition, doc.agent, reexamine=True, note="Há fotos", today=date(2027, 3, 2)
    )
    _decide(profile, petition, boss, grant=True, on=date(2027, 3, 3), reason="Mantido")
    assert doc.status == EnforcementStatus.CANCELLED and petition.review_due_on is None
    assert capture.status == CaptureStatus.IN_CUSTODY and not definitive_upheld(capture)
    assert _decided_actors(capture) == [boss.id]  # decided by the judge of the grant


# -- second instance: final (GRU 103 §3) ---------------------------------------------------------


def test_gru_103_3_second_instance_denial_is_final_and_records_the_judge(profile):
    capture, doc, first, owner = _capture_appeal(profile, date(2027, 3, 1))
    boss = factories.user(roles=("coordinator",))
    director = factories.user(roles=("admin",))
    _decide(profile, first, boss, on=date(2027, 3, 8))
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING and _decided_actors(capture) == []
    second = services.file_petition(profile, doc, owner, text="De novo", today=date(2027, 3, 9))
    _decide(profile, second, director, on=date(2027, 3, 12))
    assert (second.status, second.decision_article) == (PetitionStatus.DENIED, "GRU 103")
    assert doc.status == EnforcementStatus.FINAL and second.next_due_on is None
    assert services.petition_option(profile, doc) is None
    assert definitive_upheld(capture) and _decided_actors(capture) == [director.id]
    assert db.session.scalar(select(PersonConsequence)).article == "GRU 88 §4"


def test_gru_103_3_second_instance_denial_of_an_infraction_is_final(profile, people):
    _agent, boss, director, citizen = people
    doc, defence = _defence(profile, people, date(2027, 3, 1))
    _decide(profile, defence, boss, on=date(2027, 3, 8))
    appeal = services.file_petition(profile, doc, citizen, text="Recorro", today=date(2027, 3, 18))
    assert appeal.status == PetitionStatus.PENDING  # filed on the last day (GRU 103)
    _decide(profile, appeal, director, on=date(2027, 3, 22))
    assert doc.status == EnforcementStatus.FINAL and appeal.next_due_on is None
    assert services.close_lapsed(profile, date(2027, 4, 30)) == 0


# -- GRU 97, 100, 110: the penalty notice after the refusal, and the fine ------------------------
# The penalty notice is written on the day the decision is recorded, so these dates are relative
# to the clock; the terms are checked with the date engine, whose GRU 114 counting is pinned on
# fixed dates above and in test_enforcement.py.


def test_gru_97_the_penalty_notice_follows_the_refusal_and_is_known_with_it(profile, people):
    agent, boss, _director, citizen = people
    day = local_today()
    doc, defence = _defence(profile, people, day, fine=True)
    tomorrow = day + timedelta(days=1)
    _decide(profile, defence, boss, on=tomorrow)  # recorded and known in person tomorrow
    penalty = services.penalty_of(doc)
    assert penalty is not None and penalty.agent_id == agent.id  # the agent's, not the judge's
    assert (penalty.service_method, penalty.service_on, penalty.knowledge_on) == (
        "signed",
        tomorrow,
        tomorrow,
    )
    # GRU 101: ten days from the knowledge of the penalty, to the second instance (GRU 103)
    assert penalty.petition_due_on == services.term_end(profile, tomorrow, 10)
    option = services.petition_option(profile, penalty)
    assert (option.instance, option.against) == (2, defence)
    assert doc.status == EnforcementStatus.UPHELD and penalty.fine_cents == 48000


def test_gru_105_1_a_granted_defence_writes_no_penalty_notice(profile, people):
    _agent, boss, _director, _citizen = people
    day = local_today()
    doc, defence = _defence(profile, people, day, fine=True)
    _decide(profile, defence, boss, grant=True, on=day)
    assert services.penalty_of(doc) is None and doc.status == EnforcementStatus.UNDER_REVIEW


def test_gru_100_the_fine_runs_again_from_the_knowledge_of_the_final_denial(profile, people):
    _agent, boss, director, citizen = people
    day = local_today()
    doc, defence = _defence(profile, people, day, fine=True)
    _decide(profile, defence, boss, on=day)
    penalty = services.penalty_of(doc)
    appeal = services.file_petition(profile, penalty, citizen, text="Recorro", today=day)
    assert appeal.instance == 2 and penalty.fine_suspended  # GRU 110
    assert services.may_decide(appeal, boss) is False  # GRU 103 §1
    _decide(profile, appeal, director, on=day, method="edital")
    # published today, known five days later (GRU 109 III); then 30 days to pay (GRU 100)
    known = day + timedelta(days=5)
    assert appeal.decision_known_on == known
    assert penalty.status == EnforcementStatus.FINAL and not penalty.fine_suspended
    assert penalty.payment_item.due_on == services.term_end(profile, known, 30)


def test_gru_109_a_refusal_typed_in_after_it_was_known_serves_its_penalty_on_that_day(
    profile, people
):
    agent, boss, _director, _citizen = people
    # The defence filed three days ago; its refusal known in person two days ago and typed in
    # today. The penalty notice written with it (GRU 97) was known that day too, so its ten
    # days (GRU 101) run from then. The clock stamps a new document, so these days are relative.
    today = local_today()
    known = today - timedelta(days=2)
    doc, defence = _defence(profile, people, today - timedelta(days=3), fine=True)
    _decide(profile, defence, boss, on=today, service_on=known)
    penalty = services.penalty_of(doc)
    assert penalty is not None and penalty.agent_id == agent.id
    assert (penalty.service_method, penalty.knowledge_on) == ("signed", known)
    assert local_date(penalty.issued_at) == known
    assert penalty.petition_due_on == services.term_end(profile, known, 10)


def test_gru_109_2_the_penalty_is_known_with_the_later_of_edital_and_ar(profile, people):
    _agent, boss, _director, _citizen = people
    # Defence filed Mon 1 Mar 2027. The refusal: edital published Tue 2 Mar (known Sun 7 Mar,
    # GRU 109 III: 5 days after) and AR signed Wed 10 Mar: the later, 10 Mar, counts (§2). The
    # penalty notice goes with it: ten days (GRU 101) end Sat 20 Mar -> Mon 22 Mar (GRU 114 §ú),
    # not Wed 17 Mar as from the edital alone.
    doc, defence = _defence(profile, people, date(2027, 3, 1), fine=True)
    _decide(
        profile, defence, boss, on=date(2027, 3, 10), method="edital",
        service_on=date(2027, 3, 2), ar_on=date(2027, 3, 10),
    )  # fmt: skip
    assert defence.decision_known_on == date(2027, 3, 10)
    penalty = services.penalty_of(doc)
    assert (penalty.service_method, penalty.service_on) == ("post", date(2027, 3, 10))
    assert penalty.petition_due_on == date(2027, 3, 22)


@pytest.mark.parametrize(
    "ar_on",
    [date(2027, 3, 5), date(2027, 3, 7)],
    ids=["ar_before_the_edital_counts", "ar_on_the_day_the_edital_counts"],
)
def test_gru_109_2_an_ar_no_later_than_the_edital_leaves_the_penalty_served_by_edital(
    profile, people, ar_on
):
    _agent, boss, _director, _citizen = people
    # Defence filed Mon 1 Mar 2027; the refusal's edital published Tue 2 Mar is known Sun 7 Mar
    # (GRU 109 III). An AR of Fri 5 Mar, or of Sun 7 Mar itself, gives no later knowledge (§2:
    # the term most favourable to the petitioner), so the penalty notice keeps the edital. Its ten
    # days (GRU 101) count from Sunday 7 Mar, which starts no term: from Mon 8 Mar (GRU 114 §ú),
    # so Tue 9 is day 1 and Thu 18 Mar day 10 (from an AR of 5 Mar they would end on Mon 15).
    doc, defence = _defence(profile, people, date(2027, 3, 1), fine=True)
    _decide(
        profile, defence, boss, on=date(2027, 3, 10), method="edital",
        service_on=date(2027, 3, 2), ar_on=ar_on,
    )  # fmt: skip
    assert defence.decision_known_on == date(2027, 3, 7)
    penalty = services.penalty_of(doc)
    assert (penalty.service_method, penalty.service_on) == ("edital", date(2027, 3, 2))
    assert penalty.knowledge_on == date(2027, 3, 7)
    assert penalty.petition_due_on == date(2027, 3, 18)


# -- the confirmation step: what the decision will do (GRU 97, 100, 103, 103 §3, 104, 105 §1) ---

LAST = (
    "O autuado recebe a decisão e a fundamentação por e-mail e na sua página inicial. "
    "Depois de registrada, a decisão não pode ser desfeita."
)


def test_gru_97_103_104_105_1_the_confirmation_of_a_first_instance_decision(profile, people):
    day = local_today()
    doc, defence = _defence(profile, people, day, fine=True)
    assert doc.fine_cents == 48000
    assert services.decision_preview(profile, defence, grant=True) == [
        f"O documento nº {doc.number} e a multa que ele traz são cancelados.",
        "O deferimento só produz efeito depois da vista de quem lavrou o documento, que pode "
        "pedir o reexame em 5 dias (GRU 104).",
        LAST,
    ]
    assert services.decision_preview(profile, defence, grant=False) == [
        "É lavrado o auto de imposição de penalidade, com a multa de R$ 480,00, e o autuado "
        "toma ciência dele junto com esta decisão.",
        "O autuado pode recorrer em 2ª instância em 10 dias (GRU 103); quem decide: o Diretor "
        "de Departamento hierarquicamente superior (GRU 103 §1 I).",
        LAST,
    ]


def test_gru_103_105_1_the_confirmation_for_a_document_without_a_fine(profile, people):
    day = local_today()
    doc, defence = _defence(profile, people, day, fine=False)
    assert services.decision_preview(profile, defence, grant=True)[0] == (
        f"O documento nº {doc.number} é cancelado."
    )
    assert services.decision_preview(profile, defence, grant=False)[:2] == [
        "O documento fica mantido.",
        "O autuado pode recorrer em 2ª instância em 10 dias (GRU 103); quem decide: o "
        "Secretário Municipal de Saúde (GRU 103 §1 II).",
    ]


def test_gru_100_103_3_the_confirmation_of_a_second_instance_denial(profile, people):
    _agent, boss, _director, citizen = people
    day = local_today()
    doc, defence = _defence(profile, people, day, fine=True)
    _decide(profile, defence, boss, on=day)
    penalty = services.penalty_of(doc)
    appeal = services.file_petition(profile, penalty, citizen, text="Recorro", today=day)
    assert appeal.instance == 2 and penalty.fine_suspended
    assert services.decision_preview(profile, appeal, grant=False) == [
        "A decisão é definitiva: não cabe outro recurso.",
        "A multa de R$ 480,00 deixa de estar suspensa e volta a correr: o autuado terá 30 "
        "dias para pagar (GRU 100).",
        LAST,
    ]

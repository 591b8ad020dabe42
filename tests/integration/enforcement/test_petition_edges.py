"""Defences, appeals and the penalty notice at their edges (GRU 96 V, 97-98, 101-110; BJP 19 §1,
30; issue 16): what may be filed and until when, by whom, what is stored and on record, and what
the auto de imposição de penalidade takes from the infraction.

Fixed days are worked by hand from GRU 114 (the start day excluded, the last included) and its
§ú (a term that ends on a weekend or holiday moves to the next business day). In November 2026:
Sun 15 is the Proclamação da República, Fri 20 the Dia da Consciência Negra (national holidays).
To count from a fixed day, a document's issue is moved to that day before it is served."""

from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime, time, timedelta
from types import SimpleNamespace

import pytest
from flask_login import AnonymousUserMixin

from portal.blueprints.enforcement import issuing, services
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.extensions import db
from portal.models import PetitionStatus, UnitValue
from portal.services.clock import local_today
from portal.services.fees import compute_fee
from portal.services.uploads import store_document
from tests import factories
from tests.integration.enforcement import test_enforcement
from tests.integration.enforcement.test_enforcement import (
    GRU_FINE,
    TODAY,
    _infraction,
    _preliminary,
    _served,
)
from tests.integration.establishments.test_establishment_cadastro import _data, _request

profile, people = test_enforcement.profile, test_enforcement.people  # its fixtures
THU_5_NOV = date(2026, 11, 5)
MON_16_NOV = date(2026, 11, 16)  # Thu 5 + 10 = Sun 15 (holiday too) -> Mon 16
MON_23_NOV = date(2026, 11, 23)


def _serve_on(profile, doc, agent, on: date):  # type: ignore[no-untyped-def]
    """Serve ``doc`` in person on the fixed day ``on`` (its issue moved to that day)."""
    doc.issued_at = datetime.combine(on, time(12), tzinfo=UTC)
    services.record_service(
        profile, doc, method="signed", service_on=on, note=None, actor=agent, today=on
    )
    return doc


def _known(profile, agent, citizen, on: date = THU_5_NOV, **extra):  # type: ignore[no-untyped-def]
    return _serve_on(profile, _infraction(profile, agent, citizen, **extra), agent, on)


def _decide(profile, petition, judge, on: date, *, grant=False) -> None:  # type: ignore[no-untyped-def]
    """The judgement, signed by the addressee on ``on``."""
    services.decide_petition(
        profile, petition, judge, grant=grant, reason="Fundamentação", method="signed",
        service_on=on, today=on,
    )  # fmt: skip


def _says_day(reason: str, day: str) -> bool:
    """The refusal names the day the term ended, written as a whole date."""
    return re.search(rf"(?<![\w/]){re.escape(day)}(?![\w/])", reason) is not None


def _raises(call, *args, **kwargs) -> EnforcementError:  # type: ignore[no-untyped-def]
    with pytest.raises(EnforcementError) as err:
        call(*args, **kwargs)
    assert err.value.message  # every refusal says why
    return err.value


# -- what may be filed, and until when (GRU 96 V, 98 VI, 101, 103, 114) --------------------------


def test_gru_96_v_defence_filed_on_the_last_day_of_the_term_is_received(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    # GRU 96 V: 10 days from Thu 5 Nov -> Sun 15 Nov, a holiday too -> Mon 16 Nov (GRU 114 §ú)
    option = services.petition_option(profile, doc)
    assert option == services.PetitionOption("defence", 1, MON_16_NOV, "GRU 96 V", None)
    defence = services.file_petition(profile, doc, citizen, text="  Não fui eu  ", today=MON_16_NOV)
    assert (defence.status, defence.kind, defence.instance) == ("pending", "defence", 1)
    assert (defence.due_on, defence.filed_on, defence.text) == (
        MON_16_NOV,
        MON_16_NOV,
        "Não fui eu",
    )
    assert (defence.filed_by_id, defence.as_representative) == (citizen.id, False)
    assert defence.power_of_attorney_id is None and defence.against_id is None
    assert defence.attachment_ids == [] and defence.suspends_fine is False  # GRU 110: a defence
    assert defence.decided_at is None and defence.decision_known_on is None
    # GRU 102: judged within 15 days: Mon 16 Nov + 15 = Tue 1 Dec, a business day
    assert defence.decide_by == date(2026, 12, 1)
    assert doc.status == "under_review"
    (event,) = factories.audit_events("enforcement.petition_filed")
    assert (event.subject_type, event.subject_id) == ("EnforcementDocument", str(doc.id))
    assert event.detail == {
        "number": doc.number,
        "petition": defence.id,
        "kind": "defence",
        "status": "pending",
    }
    # GRU 97: nothing is imposed while the defence waits for its judgement
    assert services.may_issue_penalty(profile, doc, MON_16_NOV + timedelta(days=1)) is False


def test_gru_107_2_i_defence_filed_the_day_after_the_term_is_refused_citing_it(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    before = datetime.now(UTC)
    # the term ended Mon 16 Nov (see above): Tue 17 Nov is late
    late = services.file_petition(profile, doc, citizen, text="Razões", today=date(2026, 11, 17))
    assert (late.status, late.kind, late.instance, late.due_on) == (
        "refused",
        "defence",
        1,
        MON_16_NOV,
    )
    assert late.decision_article == "GRU 96 V; GRU 107 §2 I"
    assert _says_day(late.decision_reason, "16/11/2026")  # the day the term ended
    assert before <= late.decided_at <= datetime.now(UTC)
    assert late.decision_known_on == date(2026, 11, 17)  # refused on filing, known at once
    assert doc.status == "open"  # nothing was judged
    assert factories.audit_events("enforcement.petition_filed")[0].detail["status"] == "refused"
    # a refused defence opens no second instance (GRU 103 follows a judged refusal only) ...
    assert services.petition_option(profile, doc) is None
    # ... and GRU 96 §3: the penalty follows a petition refused without merit
    assert services.may_issue_penalty(profile, doc, date(2026, 11, 17)) is True


def test_gru_114_defence_term_ending_on_a_holiday_before_a_weekend(profile, people):
    agent, _boss, _dir, citizen = people
    # known Tue 10 Nov: day 10 is Fri 20 Nov (Consciência Negra), then Sat and Sun -> Mon 23 Nov
    doc = _known(profile, agent, citizen, on=date(2026, 11, 10))
    assert services.petition_option(profile, doc).due_on == MON_23_NOV
    on_time = services.file_petition(profile, doc, citizen, text="Razões", today=MON_23_NOV)
    assert (on_time.status, on_time.due_on) == ("pending", MON_23_NOV)


def test_gru_101_2_a_second_petition_on_the_same_decision_is_refused_with_its_reason(
    profile, people
):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    services.file_petition(profile, doc, citizen, text="Razões", today=THU_5_NOV)
    again = services.file_petition(profile, doc, citizen, text="De novo", today=THU_5_NOV)
    assert (again.status, again.kind, again.instance) == ("refused", "defence", 1)
    assert again.decision_article == "GRU 101 §2, 107 §2 IV"
    assert again.decision_reason  # GRU 106 §ú: every decision is reasoned
    assert again.decision_known_on == THU_5_NOV


def test_gru_107_2_i_defence_after_the_infraction_became_final_cites_the_101_term(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    assert services.close_lapsed(profile, date(2026, 11, 17)) == 1  # the term ended Mon 16 Nov
    assert doc.status == "final" and services.petition_option(profile, doc) is None
    late = services.file_petition(profile, doc, citizen, text="Razões", today=date(2026, 11, 18))
    assert (late.status, late.kind, late.instance, late.due_on) == (
        "refused",
        "defence",
        1,
        MON_16_NOV,
    )
    assert late.decision_article == "GRU 96 V; GRU 107 §2 I"  # the defence term it missed
    assert _says_day(late.decision_reason, "16/11/2026")


def test_gru_101_the_term_runs_from_the_service_so_nothing_is_filed_before(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _infraction(profile, agent, citizen)
    assert services.petition_option(profile, doc) is None
    err = _raises(services.file_petition, profile, doc, citizen, text="Razões", today=TODAY)
    assert (err.field, err.code) == (None, "not_served")
    assert services.may_issue_penalty(profile, doc, TODAY) is False
    assert doc.petitions == []


def test_gru_101_1_a_petition_without_reasons_is_not_filed(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    err = _raises(services.file_petition, profile, doc, citizen, text=" \n ", today=THU_5_NOV)
    assert (err.field, err.code) == ("text", "required")
    assert doc.petitions == []


def test_gru_94_a_preliminary_notice_takes_no_petition(profile, people):
    agent, _boss, _dir, citizen = people
    notice = _preliminary(profile, agent, citizen, "d10")
    assert services.petition_option(profile, notice) is None
    day = notice.knowledge_on
    filed = services.file_petition(profile, notice, citizen, text="Discordo", today=day)
    # recorded as a recurso "da ação das autoridades sanitárias" (GRU 101) with no term to meet
    assert (filed.status, filed.kind, filed.instance, filed.due_on) == (
        "refused",
        "appeal",
        1,
        None,
    )
    assert filed.decision_article == "GRU 101 §2, 107 §2 IV"


# -- the second instance (GRU 103) ---------------------------------------------------------------


def _refused_defence(profile, people):  # type: ignore[no-untyped-def]
    """An infraction without a fine (no penalty notice follows) whose defence, filed Mon 9 Nov,
    was refused in a decision the addressee signed on Wed 11 Nov."""
    agent, boss, _dir, citizen = people
    doc = _known(profile, agent, citizen, fine=False)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=date(2026, 11, 9))
    _decide(profile, defence, boss, date(2026, 11, 11))
    return doc, defence


def test_gru_103_appeal_on_the_last_day_of_the_second_instance_term(profile, people):
    citizen = people[3]
    doc, defence = _refused_defence(profile, people)
    # GRU 103: 10 days from knowing the refusal (Wed 11 Nov) -> Sat 21 Nov -> Mon 23 Nov
    assert defence.next_due_on == MON_23_NOV and doc.status == "upheld"
    option = services.petition_option(profile, doc)
    assert option == services.PetitionOption("appeal", 2, MON_23_NOV, "GRU 103", defence)
    appeal = services.file_petition(profile, doc, citizen, text="Recorro", today=MON_23_NOV)
    assert (appeal.status, appeal.kind, appeal.instance) == ("pending", "appeal", 2)
    assert (appeal.against_id, appeal.due_on) == (defence.id, MON_23_NOV)
    assert appeal.suspends_fine is False  # GRU 110: there is no fine to suspend
    assert doc.status == "under_review"
    # GRU 101 §2: one petition per decision: the repeat is the same second-instance appeal
    again = services.file_petition(profile, doc, citizen, text="De novo", today=MON_23_NOV)
    assert (again.status, again.kind, again.instance) == ("refused", "appeal", 2)
    assert again.decision_article == "GRU 101 §2, 107 §2 IV"


def test_gru_103_appeal_the_day_after_the_second_instance_term_is_refused(profile, people):
    citizen = people[3]
    doc, defence = _refused_defence(profile, people)
    late = services.file_petition(profile, doc, citizen, text="Recorro", today=date(2026, 11, 24))
    assert (late.status, late.instance, late.against_id) == ("refused", 2, defence.id)
    assert late.decision_article == "GRU 103; GRU 107 §2 I"
    assert _says_day(late.decision_reason, "23/11/2026")


def test_gru_103_the_penalty_after_a_refused_defence_is_appealed_to_the_second_instance(
    profile, people
):
    agent, boss, _dir, citizen = people
    doc, day = _served(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=day)
    _decide(profile, defence, boss, day)
    penalty = services.penalty_of(doc)
    # GRU 97: the refusal upholds the infraction, whose procedure goes on in the penalty notice
    assert doc.status == "upheld" and services.petition_option(profile, doc) is None
    assert services.may_issue_penalty(profile, doc, day + timedelta(days=30)) is False
    option = services.petition_option(profile, penalty)
    assert (option.kind, option.instance, option.article, option.against) == (
        "appeal",
        2,
        "GRU 103",
        defence,
    )
    assert option.due_on == penalty.petition_due_on == services.term_end(profile, day, 10)
    late_day = option.due_on + timedelta(days=1)
    late = services.file_petition(profile, penalty, citizen, text="Recorro", today=late_day)
    assert (late.status, late.instance, late.against_id) == ("refused", 2, defence.id)
    assert late.decision_article == "GRU 103; GRU 107 §2 I"
    assert _says_day(late.decision_reason, option.due_on.strftime("%d/%m/%Y"))


def test_gru_98_vi_penalty_imposed_at_once_is_appealed_at_the_first_instance(profile, people):
    agent, _boss, _dir, citizen = people
    # GRU 97 §1: a penalty imposed at once, with no infraction before it
    penalty = _known(profile, agent, citizen, kind="penalty")
    # GRU 98 VI: 10 days from Thu 5 Nov -> Mon 16 Nov (see the first test)
    option = services.petition_option(profile, penalty)
    assert option == services.PetitionOption("appeal", 1, MON_16_NOV, "GRU 98 VI, 101", None)
    assert services.may_issue_penalty(profile, penalty, date(2026, 11, 17)) is False
    appeal = services.file_petition(profile, penalty, citizen, text="Recorro", today=MON_16_NOV)
    assert (appeal.status, appeal.kind, appeal.instance) == ("pending", "appeal", 1)
    # GRU 110: the appeal suspends the fine, and only while it waits
    assert appeal.suspends_fine is True and penalty.fine_suspended
    assert penalty.payment_item.due_on is None


# -- who may file (GRU 107 §2 III) -------------------------------------------------------------


def test_gru_107_2_iii_refusals_cite_the_article_and_an_attorney_files_with_the_power(
    profile, people
):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    attorney = factories.user(full_name="Dra. Procuradora")
    err = _raises(services.file_petition, profile, doc, attorney, text="Razões", today=THU_5_NOV)
    assert (err.field, err.code) == (None, "third_party") and "GRU 107 §2 III" in err.message
    err = _raises(
        services.file_petition, profile, doc, attorney, text="Razões", today=THU_5_NOV,
        has_access_code=True,
    )  # fmt: skip
    assert (err.field, err.code) == ("power_of_attorney", "required")
    assert "GRU 107 §2 III" in err.message
    power, proof = (
        store_document(io.BytesIO(b"%PDF-1.4 " + name), purpose="petition", owner_id=attorney.id)
        for name in (b"procuracao", b"prova")
    )
    filed = services.file_petition(
        profile, doc, attorney, text="Razões", today=THU_5_NOV, has_access_code=True,
        power_of_attorney=power, attachments=[proof],
    )  # fmt: skip
    assert (filed.status, filed.filed_by_id, filed.as_representative) == (
        "pending",
        attorney.id,
        True,
    )
    assert (filed.power_of_attorney_id, filed.attachment_ids) == (power.id, [proof.id])


def test_gru_107_2_iii_only_a_signed_in_account_can_be_the_addressee(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    assert services.is_addressee(doc, citizen) is True
    assert services.is_addressee(doc, None) is False
    assert services.is_addressee(doc, AnonymousUserMixin()) is False
    # the addressee's CPF and id without a session behind them are nobody's login
    assert services.is_addressee(doc, SimpleNamespace(cpf=citizen.cpf, id=citizen.id)) is False


def test_gru_107_2_iii_an_establishment_is_answered_for_by_who_keeps_its_cadastro(profile, people):
    agent, boss, _dir, _citizen = people
    keeper, other_keeper, stranger = factories.user(), factories.user(), factories.user()
    on = date(2026, 11, 2)
    place = _request(keeper, profile, on, _data(1))
    _request(other_keeper, profile, on, _data(2))
    doc = services.issue_document(
        profile, kind="infraction", agent=agent,
        addressee=Addressee(place.legal_name, None, place.cnpj, "Clínica veterinária", "Rua B, 7"),
        fact="Canil sem limpeza", place="Rua B, 7", occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
        legal_provision="GRU 10 IV c", agent_title="Agente sanitário", fine_inputs=GRU_FINE,
        today=TODAY,
    )  # fmt: skip
    _serve_on(profile, doc, agent, THU_5_NOV)
    # issue 26 #2: a cadastro only requested is no verified link to the CNPJ; the approved one is
    assert services.is_addressee(doc, keeper) is False
    place.status = "active"
    assert services.is_addressee(doc, keeper) is True
    assert services.is_addressee(doc, other_keeper) is False  # keeps another CNPJ's cadastro
    assert services.is_addressee(doc, stranger) is False
    filed = services.file_petition(profile, doc, keeper, text="Razões", today=THU_5_NOV)
    assert (filed.status, filed.as_representative) == ("pending", False)
    # GRU 98 I: the penalty names the same entity, its activity and address
    _decide(profile, filed, boss, local_today())
    penalty = services.penalty_of(doc)
    assert (
        penalty.addressee_name,
        penalty.addressee_cpf,
        penalty.addressee_cnpj,
        penalty.addressee_activity,
        penalty.addressee_address,
    ) == (place.legal_name, None, place.cnpj, "Clínica veterinária", "Rua B, 7")


# -- the penalty notice (GRU 97-98) ------------------------------------------------------------


def test_gru_97_no_penalty_on_the_last_day_of_the_defence_term(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    # the defence term ends Mon 16 Nov: the penalty is written "depois de decorrido o prazo"
    assert services.may_issue_penalty(profile, doc, MON_16_NOV) is False
    err = _raises(services.issue_penalty, profile, doc, agent, today=MON_16_NOV)
    assert (err.field, err.code) == (None, "not_yet") and "GRU 97" in err.message
    assert services.penalty_of(doc) is None
    assert services.may_issue_penalty(profile, doc, date(2026, 11, 17)) is True


def test_gru_98_the_penalty_after_the_term_carries_the_infractions_facts(profile, people):
    agent, _boss, _dir, citizen = people
    pet = factories.animal(citizen)
    doc = _known(
        profile, agent, citizen, penalty_provision="GRU 80", measures="Abrigo em 48 horas",
        animal_id=pet.id, notified_on=date(2026, 11, 3),
    )  # fmt: skip
    services.set_proposed_consequence(profile, doc, "caused_definitive_apprehension")
    doc.addressee_address = "Rua A, 10, Centro"
    penalty = services.issue_penalty(
        profile, doc, agent, today=date(2026, 11, 17), service_on=date(2026, 11, 17)
    )
    assert penalty.fine_cents == 48000  # GRU 80: 100 UFG at R$ 4,80, as on the infraction
    assert (penalty.kind, penalty.parent_id, penalty.number[:5]) == ("penalty", doc.id, "2026-")
    assert "previous_offences" not in penalty.fine_inputs
    assert (penalty.fact, penalty.place, penalty.legal_provision, penalty.penalty_provision) == (
        doc.fact,
        doc.place,
        "GRU 37",
        "GRU 80",
    )
    assert (penalty.measures, penalty.animal_id, penalty.notified_on) == (
        "Abrigo em 48 horas",
        pet.id,
        date(2026, 11, 3),
    )
    assert (penalty.consequence_kind, penalty.consequence_article) == (
        "caused_definitive_apprehension",
        "GRU 88 §4",
    )
    assert (penalty.addressee_cpf, penalty.addressee_address) == (citizen.cpf, "Rua A, 10, Centro")
    assert penalty.addressee_activity is None
    assert penalty.knowledge_on is None and penalty.status == "issued"  # served only with a method
    assert doc.status == "final"  # nothing more is filed against the infraction
    assert services.penalty_of(doc) == penalty
    assert services.may_issue_penalty(profile, doc, date(2026, 11, 18)) is False  # only one


def test_gru_98_viii_a_penalty_is_not_served_on_a_day_after_it_is_imposed(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    real_today = local_today()
    err = _raises(
        services.issue_penalty, profile, doc, agent, today=real_today - timedelta(days=1),
        method="signed", service_on=real_today,
    )  # fmt: skip
    assert (err.field, err.code) == ("service_on", "future")


def test_gru_79_a_penalty_under_appeal_does_not_double_the_next_penalty(profile, people):
    agent, _boss, _dir, citizen = people
    earlier = _known(profile, agent, citizen, kind="penalty")  # standing: known, not appealed
    doc = _known(profile, agent, citizen)
    assert doc.fine_cents == 2 * 48000  # GRU 80: a repeat of a standing penalty is doubled
    services.file_petition(profile, earlier, citizen, text="Recorro", today=date(2026, 11, 6))
    assert earlier.status == "under_review"  # the appeal may still cancel it (GRU 105 §1)
    penalty = services.issue_penalty(profile, doc, agent, today=date(2026, 11, 17))
    assert penalty.fine_cents == 48000 and "previous_offences" not in penalty.fine_inputs


def test_gru_105_1_a_cancelled_infraction_gets_no_penalty_even_after_a_later_refusal(
    profile, people
):
    agent, boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    defence = services.file_petition(profile, doc, citizen, text="Razões", today=THU_5_NOV)
    _decide(profile, defence, boss, THU_5_NOV, grant=True)
    # GRU 104: the issuing agent agrees with the grant, which takes effect: all is cancelled
    services.answer_grant(profile, defence, agent, reexamine=False, note="", today=THU_5_NOV)
    assert doc.status == "cancelled" and services.petition_option(profile, doc) is None
    again = services.file_petition(profile, doc, citizen, text="De novo", today=THU_5_NOV)
    assert again.status == PetitionStatus.REFUSED
    assert services.may_issue_penalty(profile, doc, date(2026, 12, 30)) is False


def test_gru_97_an_apprehension_written_after_the_infraction_is_not_its_penalty(profile, people):
    agent, _boss, _dir, citizen = people
    doc = _known(profile, agent, citizen)
    _infraction(profile, agent, citizen, kind="apprehension", fine=False, parent=doc)
    assert services.penalty_of(doc) is None
    assert services.petition_option(profile, doc).kind == "defence"
    assert services.may_issue_penalty(profile, doc, date(2026, 11, 17)) is True


# -- BJP: no defence term; the pair of BJP 19 §1 I and II -------------------------------------


def _bjp_infraction(bjp, agent, owner, **extra):  # type: ignore[no-untyped-def]
    return services.issue_document(
        bjp, kind="infraction", agent=agent, addressee=Addressee(owner.full_name, owner.cpf),
        fact="Adestramento na praça", place="Praça Central", legal_provision="BJP 19 §1 I",
        occurred_at=datetime(2026, 11, 2, 13, tzinfo=UTC), agent_title="Agente", **extra,
    )  # fmt: skip


def _serve_today(bjp, doc, agent):  # type: ignore[no-untyped-def]
    day = local_today()
    services.record_service(
        bjp, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    return day


def test_bjp_30_ii_no_defence_term_and_the_pairs_penalties_are_not_priced_again(
    make_app, monkeypatch
):
    calls: list[dict] = []

    def spy(profile, kind, inputs, on):  # type: ignore[no-untyped-def]
        calls.append(dict(inputs))
        return compute_fee(profile, kind, inputs, on)

    monkeypatch.setattr(issuing, "compute_fee", spy)
    with factories.profile_app(make_app, "bjp") as bjp:
        db.session.add(UnitValue(unit="UFM", value_cents=5000, effective_from=date(2026, 1, 1)))
        agent, owner, trainer = factories.user(roles=("agent",)), factories.user(), factories.user()
        doc = _bjp_infraction(
            bjp, agent, owner, fine_inputs={"specific": "street_training"},
            joint_addressee=Addressee(trainer.full_name, trainer.cpf),
        )  # fmt: skip
        second = issuing.joint_partner(doc)
        # BJP 30 II: the law gives no defence term; the penalty follows once the infraction is
        # known, never before
        assert services.may_issue_penalty(bjp, doc, local_today()) is False
        day = _serve_today(bjp, doc, agent)
        _serve_today(bjp, second, agent)
        assert doc.petition_due_on is None and services.petition_option(bjp, doc) is None
        assert services.may_issue_penalty(bjp, doc, day) is True
        filed = services.file_petition(bjp, doc, owner, text="Não adestrava", today=day)
        assert (filed.status, filed.kind, filed.due_on) == ("refused", "defence", None)
        assert filed.decision_article == "BJP 30 I"  # the city's own notice article, never GRU's
        priced = len(calls)
        for infraction in (doc, second):
            penalty = services.issue_penalty(bjp, infraction, agent, today=day)
            # BJP 19 §1 I and II: each imposes its share of the one joint computation as it is
            assert penalty.fine_inputs == infraction.fine_inputs
            assert (penalty.fine_cents, penalty.fine_breakdown) == (
                infraction.fine_cents,
                infraction.fine_breakdown,
            )
        assert len(calls) == priced  # nothing priced again, the trainer's fine never alone


def test_bjp_30_ii_an_infraction_without_a_fine_has_no_penalty_to_follow(make_app):
    with factories.profile_app(make_app, "bjp") as bjp:
        agent, owner = factories.user(roles=("agent",)), factories.user()
        doc = _bjp_infraction(bjp, agent, owner)
        day = _serve_today(bjp, doc, agent)
        assert services.may_issue_penalty(bjp, doc, day + timedelta(days=30)) is False


def test_gru_113_par_2_the_penalty_after_a_timely_auto_is_not_prescribed_by_the_wait(
    profile, people
):
    agent, _boss, _dir, citizen = people
    # The fact of Sun 5 Dec 2021 prescribes after Sat 5 Dec 2026 (GRU 113: five years). The auto
    # of Mon 30 Nov 2026 came in time and interrupted it (§1); known that day, its defence term
    # ends Thu 10 Dec 2026 (GRU 96 V: 10 days). The penalty of Fri 11 Dec 2026 falls after the
    # five years, but they do not run while the procedure is pending (§2).
    doc = _infraction(profile, agent, citizen, occurred_on=date(2021, 12, 5))
    _serve_on(profile, doc, agent, date(2026, 11, 30))
    assert doc.petition_due_on == date(2026, 12, 10)
    penalty = services.issue_penalty(profile, doc, agent, today=date(2026, 12, 11))
    assert penalty.kind == "penalty" and penalty.fine_cents == doc.fine_cents

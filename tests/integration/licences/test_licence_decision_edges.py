"""The CCZ's decisions on excess-animal licences (issue 16): which statuses allow each step and
the error (field, code) of each refusal, what approval, refusal and cancellation store, audit and
e-mail (GRU 37 §1 I-V; BJP 17 §1; CAB 31 §2)."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.licences import services
from portal.extensions import db
from portal.models import LicenceStatus, OutboxMessage, ProofStatus
from tests import factories
from tests.integration.licences.test_licence_rules import (
    TODAY,
    _renewable,
    adult,
    licensed_household,
    new_animal,
    profile_of,
    request_data,
)

DECIDED = (
    LicenceStatus.APPROVED,
    LicenceStatus.REFUSED,
    LicenceStatus.CANCELLED,
    LicenceStatus.WITHDRAWN,
)


def _asked(prof, *, pets: int, asked: int | None = None, new=()):  # type: ignore[no-untyped-def]
    """A request by a fresh owner listing ``pets`` adult animals."""
    owner = factories.user()
    listed = [adult(owner) for _ in range(pets)]
    licence = services.request_licence(
        owner,
        request_data(prof, listed, asked=asked or pets + len(new), new=list(new)),
        profile=prof,
        today=TODAY,
    )
    return owner, licence


def _agent(role: str = "agent"):  # type: ignore[no-untyped-def]
    return factories.user(roles=(role,))


def _inspect(licence, agent, prof, *, satisfactory=True, **fields):  # type: ignore[no-untyped-def]
    values = dict(inspected_on=TODAY, checklist={}, findings="Espaço adequado.", today=TODAY)
    values.update(fields)
    return services.record_inspection(
        licence, agent, satisfactory=satisfactory, profile=prof, **values
    )


def _approve(licence, staff, prof, n, *, covered=None, reason=None, today=TODAY):  # type: ignore[no-untyped-def]
    services.approve(
        licence,
        staff,
        max_animals=n,
        covered_ids=covered,
        reason=reason,
        profile=prof,
        today=today,
    )


def _error(call, *args, **kwargs) -> services.LicenceError:  # type: ignore[no-untyped-def]
    with pytest.raises(services.LicenceError) as err:
        call(*args, **kwargs)
    assert isinstance(err.value.message, str) and err.value.message  # the form shows a message
    return err.value


def _fails(call, *args, **kwargs) -> tuple[str | None, str]:  # type: ignore[no-untyped-def]
    error = _error(call, *args, **kwargs)
    return error.field, error.code


def _mail(owner) -> list[OutboxMessage]:  # type: ignore[no-untyped-def]
    return list(
        db.session.scalars(
            select(OutboxMessage).where(OutboxMessage.to == owner.email).order_by(OutboxMessage.id)
        )
    )


def _event(licence, action):  # type: ignore[no-untyped-def]
    (event,) = [e for e in licence.events if e.action == action]
    return event


def _audited(action, licence):  # type: ignore[no-untyped-def]
    (event,) = [e for e in factories.audit_events(action) if e.subject_id == str(licence.id)]
    assert event.subject_type == "ExcessLicence"
    return event


# --------------------------------------------------------------------------------------------
# Open requests only; who is an agent
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", DECIDED)
def test_a_decided_request_takes_no_further_step(gru, status) -> None:
    _owner, licence = _asked(gru, pets=6)
    staff = _agent()
    licence.status = status
    assert _fails(services.assign, licence, staff, staff) == (None, "not_open")
    assert _fails(services.schedule_inspection, licence, staff, TODAY, staff, today=TODAY) == (
        None,
        "not_open",
    )
    assert _fails(_inspect, licence, staff, gru) == (None, "not_open")
    assert _fails(services.ask_info, licence, staff, "Envie fotos.") == (None, "not_open")
    assert _fails(_approve, licence, staff, gru, 6) == (None, "not_open")
    assert _fails(services.refuse, licence, staff, "Motivo.", today=TODAY) == (None, "not_open")
    assert licence.status == status and licence.inspections == []


@pytest.mark.parametrize("role", ["agent", "vet", "coordinator"])
def test_assign_to_an_agent_vet_or_coordinator_is_on_record(gru, role) -> None:
    _owner, licence = _asked(gru, pets=6)
    licence.status = LicenceStatus.INFO_REQUESTED  # still open
    staff, agent = _agent("coordinator"), _agent(role)
    services.assign(licence, agent, staff)
    assert licence.assigned_agent_id == agent.id
    event = _event(licence, "assigned")
    assert event.actor_id == staff.id and event.detail == {"agent": agent.full_name}
    assert _audited("licence.assigned", licence).detail == {"agent_id": agent.id}


@pytest.mark.parametrize("role", ["citizen", "admin", "ngo"])
def test_assign_and_schedule_refuse_someone_who_is_not_an_agent(gru, role) -> None:
    _owner, licence = _asked(gru, pets=6)
    staff, other = _agent("coordinator"), factories.user(roles=(role,))
    assert _fails(services.assign, licence, other, staff) == ("agent_id", "not_agent")
    assert _fails(services.schedule_inspection, licence, other, TODAY, staff, today=TODAY) == (
        "agent_id",
        "not_agent",
    )
    assert licence.assigned_agent_id is None and licence.inspections == []


def test_file_viewed_is_audited(gru) -> None:
    _owner, licence = _asked(gru, pets=6)
    services.file_viewed(licence)
    assert _audited("licence.viewed", licence).action == "licence.viewed"


# --------------------------------------------------------------------------------------------
# Scheduling and recording the inspection (BJP 17 §1; CAB 31 §2)
# --------------------------------------------------------------------------------------------


def test_inspection_is_scheduled_for_today_or_later_and_the_holder_is_told(gru) -> None:
    owner, licence = _asked(gru, pets=6)
    staff, agent = _agent("coordinator"), _agent("vet")
    yesterday = TODAY - timedelta(days=1)
    assert _fails(services.schedule_inspection, licence, agent, yesterday, staff, today=TODAY) == (
        "scheduled_for",
        "past_date",
    )
    # today (10/06/2026) is allowed
    visit = services.schedule_inspection(licence, agent, TODAY, staff, today=TODAY)
    assert licence.inspections == [visit]
    assert (visit.agent_id, visit.scheduled_for, visit.inspected_on) == (agent.id, TODAY, None)
    assert licence.assigned_agent_id == agent.id
    event = _event(licence, "inspection_scheduled")
    assert event.actor_id == staff.id
    assert event.detail == {"day": "2026-06-10", "agent": agent.full_name}
    assert _audited("licence.inspection_scheduled", licence).detail == {"day": "2026-06-10"}
    (mail,) = _mail(owner)[-1:]
    assert mail.subject and "10/06/2026" in mail.body and f"nº {licence.id} " in mail.body


def test_bjp_17_par1_inspection_fills_the_scheduled_visit_with_the_checklist(make_app) -> None:
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner, licence = _asked(bjp, pets=11)
        staff, agent = _agent("coordinator"), _agent()
        early = services.schedule_inspection(licence, staff, TODAY, staff, today=TODAY)
        later = services.schedule_inspection(licence, staff, TODAY, staff, today=TODAY)
        # the latest pending visit is the one done; known items kept as booleans, others dropped
        done = _inspect(
            licence,
            agent,
            bjp,
            satisfactory=False,
            inspected_on=TODAY - timedelta(days=1),
            checklist={"space": 1, "hygiene": 0, "unknown": True},
            findings="  Espaço pequeno para 11 cães.  ",
        )
        assert done is later and len(licence.inspections) == 2 and early.inspected_on is None
        assert (done.agent_id, done.inspected_on, done.satisfactory) == (
            agent.id,
            date(2026, 6, 9),
            False,
        )
        assert done.checklist == {
            "space": True,
            "hygiene": False,
            "shelter": False,
            "water": False,
            "food": False,
            "care": False,
        }
        assert done.findings == "Espaço pequeno para 11 cães." and done.recorded_at is not None
        event = _event(licence, "inspected")
        assert event.actor_id == agent.id
        assert event.detail == {"satisfactory": False, "inspected_on": "2026-06-09"}
        assert _audited("licence.inspected", licence).detail == {"satisfactory": False}
        (mail,) = _mail(owner)[-1:]
        assert "09/06/2026" in mail.body and f"nº {licence.id}." in mail.body


def test_inspection_without_a_scheduled_visit_is_created_on_the_day(gru) -> None:
    _owner, licence = _asked(gru, pets=6)
    agent = _agent()
    visit = _inspect(licence, agent, gru, findings="x" * 4100)
    assert licence.inspections == [visit]
    assert (visit.agent_id, visit.scheduled_for, visit.inspected_on) == (agent.id, TODAY, TODAY)
    assert visit.satisfactory is True and visit.findings == "x" * 4000


def test_inspection_date_and_findings_are_required(gru) -> None:
    _owner, licence = _asked(gru, pets=6)
    agent = _agent()
    tomorrow = TODAY + timedelta(days=1)
    assert _fails(_inspect, licence, agent, gru, inspected_on=tomorrow) == (
        "inspected_on",
        "future_date",
    )
    for blank in ("", "   ", None):
        assert _fails(_inspect, licence, agent, gru, findings=blank) == ("findings", "required")
    assert licence.inspections == []


def test_inspection_photos_are_kept_with_the_visit_a_bad_one_is_refused(gru) -> None:
    _owner, licence = _asked(gru, pets=6)
    agent = _agent()
    photo = services.Upload(factories.png_bytes(), "quintal.png")
    visit = _inspect(licence, agent, gru, photos=[photo])
    shots = [f for f in licence.files if f.kind == "inspection"]
    assert len(shots) == 1 and shots[0].inspection_id == visit.id
    stored = shots[0].stored_file  # personal data: never public
    assert (stored.purpose, stored.public, stored.original_name) == (
        "licence_photo",
        False,
        "quintal.png",
    )
    bad = services.Upload(io.BytesIO(b"not an image"), "x.png")
    assert _fails(_inspect, licence, agent, gru, photos=[bad]) == ("photos", "invalid_upload")


def test_a_city_without_licences_records_no_inspection(make_app) -> None:
    with profile_of(make_app, "cabo") as cabo:
        with profile_of(make_app, "guarulhos") as gru:
            _owner, licence = _asked(gru, pets=6)
        assert _fails(_inspect, licence, _agent(), cabo) == (None, "not_in_profile")


# --------------------------------------------------------------------------------------------
# Questions to the citizen
# --------------------------------------------------------------------------------------------


def test_ask_info_stores_the_question_and_mails_it(gru) -> None:
    owner, licence = _asked(gru, pets=6)
    staff = _agent()
    licence.info_answer = "Resposta antiga."
    for blank in ("", "  ", None):
        assert _fails(services.ask_info, licence, staff, blank) == ("question", "required")
    assert licence.status == LicenceStatus.REQUESTED
    services.ask_info(licence, staff, "  Envie a foto do canil.  ")
    assert licence.status == LicenceStatus.INFO_REQUESTED
    assert licence.info_request == "Envie a foto do canil." and licence.info_answer is None
    event = _event(licence, "info_requested")
    assert event.actor_id == staff.id and event.note == "Envie a foto do canil."
    _audited("licence.info_requested", licence)
    (mail,) = _mail(owner)[-1:]
    assert "Envie a foto do canil." in mail.body and f"nº {licence.id}," in mail.body
    services.ask_info(licence, staff, "y" * 4100)  # asked again while waiting: still open
    assert licence.info_request == "y" * 4000
    assert licence.events[-1].note == "y" * 4000


# --------------------------------------------------------------------------------------------
# Approval: the number (GRU 37 §1; BJP 17 §1, §3)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_approval_is_above_the_limit_of_5_and_at_most_the_cap_of_10(gru) -> None:
    # limit 5: approving 5 needs no licence; cap 10: 11 is over the law even if asked for
    _owner, licence = _asked(gru, pets=6, asked=10)
    staff = _agent()
    low = _error(_approve, licence, staff, gru, 5)
    assert (low.field, low.code) == ("max_animals", "not_above_limit") and "5" in low.message
    cap = _error(_approve, licence, staff, gru, 11)
    assert (cap.field, cap.code) == ("max_animals", "above_cap") and "GRU 37 §1" in cap.message
    _approve(licence, staff, gru, 10)
    assert licence.status == LicenceStatus.APPROVED and licence.max_animals == 10


def test_gru_37_par1_approval_never_above_the_number_asked(gru) -> None:
    owner, licence = _asked(gru, pets=6, asked=7)
    staff = _agent()
    above = _error(_approve, licence, staff, gru, 8)
    assert (above.field, above.code) == ("max_animals", "above_requested")
    assert "7" in above.message  # the number asked for
    _approve(licence, staff, gru, 7, reason="  sem redução  ")
    # the number asked for: no reduction to explain, the reason is only the event's note
    assert licence.max_animals == 7 and licence.reduction_reason is None
    assert _event(licence, "approved").note == "sem redução"
    assert "sem redução" not in _mail(owner)[-1].body


def test_gru_37_par1_approval_without_inspection_where_the_law_asks_none(gru) -> None:
    # GRU 37 §1 asks for documents, not for a visit: 6 approved on the papers
    _owner, licence = _asked(gru, pets=6)
    _approve(licence, _agent(), gru, 6)
    assert licence.status == LicenceStatus.APPROVED


def test_gru_37_par1_a_profile_requiring_the_inspection_needs_a_satisfactory_one(make_app) -> None:
    requires = ["rga_all", "rabies_proofs", "sterilisation_proofs", "inspection"]
    with profile_of(make_app, "guarulhos", requires=requires) as prof:
        _owner, licence = _asked(prof, pets=6)
        staff = _agent()
        assert _fails(_approve, licence, staff, prof, 6) == (None, "inspection_required")
        _inspect(licence, staff, prof, satisfactory=False)
        assert _fails(_approve, licence, staff, prof, 6) == (None, "inspection_required")
        _inspect(licence, staff, prof, satisfactory=True)
        _approve(licence, staff, prof, 6)
        assert licence.status == LicenceStatus.APPROVED


def test_cab_31_par2_kennel_laudo_needs_a_visit_done_not_only_scheduled(make_app) -> None:
    # the kennel laudo needs the inspection even where "inspection" is not listed
    with profile_of(make_app, "cabeceira", requires=["yearly_vet_report"]) as cab:
        owner, licence = _asked(cab, pets=11)
        staff = _agent()
        services.schedule_inspection(licence, staff, TODAY, staff, today=TODAY)
        error = _error(_approve, licence, staff, cab, 11)
        assert (error.field, error.code) == (None, "inspection_required")
        assert "CAB 31 §2" in error.message
        _inspect(licence, staff, cab)
        # CAB 31 sets no cap: asking 11, approving 12 is refused only for being above the asked
        assert _fails(_approve, licence, staff, cab, 12) == ("max_animals", "above_requested")
        _approve(licence, staff, cab, 11)
        # a laudo from 10/06/2026 is renewed yearly: valid to 10/06/2027
        assert (licence.valid_from, licence.valid_until) == (TODAY, date(2027, 6, 10))
        (mail,) = _mail(owner)[-1:]
        assert "10/06/2026" in mail.body and "10/06/2027" in mail.body
        # the citizen is told which document: the kennel laudo, not a licence
        assert mail.subject.startswith(services.document_name(cab).capitalize())


def test_bjp_17_par1_a_lower_number_needs_the_visit_done_and_a_reason(make_app) -> None:
    with profile_of(make_app, "bjp", requests_accepted_until=None) as bjp:
        owner, licence = _asked(bjp, pets=13)
        staff = _agent()
        ids = [link.id for link in licence.animals]
        services.schedule_inspection(licence, staff, TODAY, staff, today=TODAY)
        # a scheduled visit is no technical report yet
        assert _fails(_approve, licence, staff, bjp, 12, covered=ids[:12], reason="Laudo.") == (
            "max_animals",
            "report_required",
        )
        _inspect(licence, staff, bjp)
        for blank in (None, "", "   "):
            assert _fails(_approve, licence, staff, bjp, 12, covered=ids[:12], reason=blank) == (
                "reason",
                "required",
            )
        _approve(licence, staff, bjp, 12, covered=ids[:12], reason="  Laudo: espaço para 12. ")
        assert licence.max_animals == 12
        assert licence.reduction_reason == "Laudo: espaço para 12."
        assert [link.covered for link in licence.animals] == [True] * 12 + [False]
        assert _event(licence, "approved").note == "Laudo: espaço para 12."
        (mail,) = _mail(owner)[-1:]
        assert "Laudo: espaço para 12." in mail.body and "12" in mail.body


# --------------------------------------------------------------------------------------------
# Approval: the named animals (GRU 37 §1 II)
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_ii_named_animals_come_from_the_request_and_fit_the_number(gru) -> None:
    _owner, licence = _asked(gru, pets=7)
    _other, elsewhere = _asked(gru, pets=6)
    staff = _agent()
    ids = [link.id for link in licence.animals]
    foreign = elsewhere.animals[0].id
    assert _fails(_approve, licence, staff, gru, 7, covered=[*ids[:6], foreign]) == (
        "covered",
        "invalid",
    )
    _inspect(licence, staff, gru)
    many = _error(_approve, licence, staff, gru, 6, covered=ids, reason="Laudo.")
    assert (many.field, many.code) == ("covered", "too_many") and "6" in many.message
    # exactly 6 named for 6 approved is fine; the 7th is not named
    _approve(licence, staff, gru, 6, covered=ids[1:], reason="Laudo.")
    assert [link.covered for link in licence.animals] == [False] + [True] * 6


def test_gru_37_par1_ii_without_a_choice_every_listed_animal_is_named(gru) -> None:
    _owner, licence = _asked(gru, pets=6)
    _approve(licence, _agent(), gru, 6)
    assert [link.covered for link in licence.animals] == [True] * 6


def test_gru_37_par1_i_approval_checks_the_proofs_of_the_named_new_animals(gru) -> None:
    # three animals registered inside the request (5 + 3 = 8 asked), 7 approved: Mel and Bia
    # named, Lua not. Mel's rabies proof is checked by the approval; Bia's was checked before.
    owner = factories.user()
    pets = [adult(owner) for _ in range(5)]
    new = [new_animal("Mel"), new_animal("Bia"), new_animal("Lua")]
    licence = services.request_licence(
        owner, request_data(gru, pets, asked=8, new=new), profile=gru, today=TODAY
    )
    staff = _agent()
    mel, bia, lua = (link.animal for link in licence.animals if link.registered_inside)
    assert {a.proof_status for a in (mel, bia, lua)} == {ProofStatus.AWAITING}
    from portal.blueprints.animals import provisional

    provisional.accept_proof(bia, staff)
    bia.fee_item_id = None
    _inspect(licence, staff, gru)
    chosen = [link.id for link in licence.animals if link.animal is not lua]
    _approve(licence, staff, gru, 7, covered=chosen, reason="Laudo: espaço para 7.")
    assert (mel.proof_status, mel.proof_checked_by_id) == (ProofStatus.CHECKED, staff.id)
    assert not bia.provisional  # nothing missing any more: the RGA is definitive
    assert lua.proof_status == ProofStatus.AWAITING and lua.provisional


# --------------------------------------------------------------------------------------------
# Approval: the term (GRU 37 §1 IV-V) and what is stored
# --------------------------------------------------------------------------------------------


def test_gru_37_par1_iv_approved_licence_valid_to_the_same_day_next_year(gru) -> None:
    # decided 10/06/2026: valid from that day to 10/06/2027
    owner, licence = _asked(gru, pets=6)
    staff = _agent()
    _approve(licence, staff, gru, 6)
    assert (licence.valid_from, licence.valid_until) == (TODAY, date(2027, 6, 10))
    assert (licence.decided_on, licence.decided_by_id) == (TODAY, staff.id)
    assert licence.decided_at is not None
    event = _event(licence, "approved")
    assert event.actor_id == staff.id and event.note is None
    assert event.detail == {
        "max_animals": 6,
        "valid_from": "2026-06-10",
        "valid_until": "2027-06-10",
    }
    assert _audited("licence.approved", licence).detail == {"max_animals": 6}
    (mail,) = _mail(owner)[-1:]
    assert mail.subject.startswith(services.document_name(gru).capitalize())
    assert f"nº {licence.id} " in mail.body and "até 6 " in mail.body
    assert "de 10/06/2026 a 10/06/2027" in mail.body


def test_gru_37_par1_iv_a_term_from_29_february_ends_on_1_march(gru) -> None:
    # Código Civil art. 132 §3 (issue 27 #8; DOMAIN.md §10 said 28/02): 2029 has no 29 February,
    # so the year ends "no imediato": 01/03/2029
    leap = date(2028, 2, 29)
    owner, licence, _staff = licensed_household(gru, base=6, on=leap)
    assert (licence.valid_from, licence.valid_until) == (leap, date(2029, 3, 1))
    assert "de 29/02/2028 a 01/03/2029" in _mail(owner)[-1].body


def _renewal(gru, *, asked_on: date):  # type: ignore[no-untyped-def]
    """A licence of 6 from 10/06/2026 (to 10/06/2027) and its renewal asked on ``asked_on``."""
    owner, licence, staff, pets = _renewable(gru, TODAY)
    renewal = services.request_licence(
        owner, request_data(gru, pets, asked=6), profile=gru, today=asked_on, renews=licence
    )
    return renewal, staff


def test_gru_37_par1_v_renewal_decided_on_the_last_day_starts_the_day_after(gru) -> None:
    # old one valid to 10/06/2027; decided that very day: new term 11/06/2027 to 10/06/2028, the
    # second anniversary of the first issue (issue 27 #7: no drift of a day a year)
    renewal, staff = _renewal(gru, asked_on=date(2027, 6, 1))
    _approve(renewal, staff, gru, 6, today=date(2027, 6, 10))
    assert (renewal.valid_from, renewal.valid_until) == (date(2027, 6, 11), date(2028, 6, 10))
    assert renewal.decided_on == date(2027, 6, 10)


def test_gru_37_par1_v_renewal_decided_the_day_after_expiry_starts_that_day(gru) -> None:
    # old one valid to 10/06/2027; decided 11/06/2027: new term 11/06/2027 to 10/06/2028
    renewal, staff = _renewal(gru, asked_on=date(2027, 6, 1))
    _approve(renewal, staff, gru, 6, today=date(2027, 6, 11))
    assert (renewal.valid_from, renewal.valid_until) == (date(2027, 6, 11), date(2028, 6, 10))


# --------------------------------------------------------------------------------------------
# Refusal
# --------------------------------------------------------------------------------------------


def test_refusal_needs_a_reason_and_is_stored_audited_and_mailed(gru) -> None:
    owner, licence = _asked(gru, pets=6)
    licence.status = LicenceStatus.INFO_REQUESTED  # a request waiting for the citizen is open
    staff = _agent("vet")
    for blank in ("", "   ", None):
        assert _fails(services.refuse, licence, staff, blank, today=TODAY) == (
            "reason",
            "required",
        )
    services.refuse(licence, staff, "  Alojamento inadequado.  ", today=TODAY)
    assert licence.status == LicenceStatus.REFUSED
    assert licence.refusal_reason == "Alojamento inadequado."
    assert (licence.decided_on, licence.decided_by_id) == (TODAY, staff.id)
    assert licence.decided_at is not None and licence.valid_until is None
    event = _event(licence, "refused")
    assert event.actor_id == staff.id and event.note == "Alojamento inadequado."
    _audited("licence.refused", licence)
    (mail,) = _mail(owner)[-1:]
    assert f"nº {licence.id} " in mail.body and "Alojamento inadequado." in mail.body


def test_refusal_reason_is_kept_up_to_4000_characters(gru) -> None:
    _owner, licence = _asked(gru, pets=6)
    services.refuse(licence, _agent(), "r" * 4100, today=TODAY)
    assert licence.refusal_reason == "r" * 4000


# --------------------------------------------------------------------------------------------
# Cancellation (GRU 37 §1 III)
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "status",
    [
        LicenceStatus.REQUESTED,
        LicenceStatus.INFO_REQUESTED,
        LicenceStatus.REFUSED,
        LicenceStatus.CANCELLED,
        LicenceStatus.WITHDRAWN,
    ],
)
def test_gru_37_par1_iii_only_an_approved_licence_is_cancelled(gru, status) -> None:
    _owner, licence = _asked(gru, pets=6)
    licence.status = status
    assert _fails(services.cancel, licence, _agent(), "Novo cão.", today=TODAY) == (
        None,
        "not_approved",
    )
    assert licence.status == status and licence.cancelled_on is None


def test_gru_37_par1_iii_a_new_dog_cancels_the_licence_with_the_reason_on_record(gru) -> None:
    owner, licence, staff = licensed_household(gru, base=6)
    later = date(2026, 9, 1)
    for blank in ("", "   ", None):
        assert _fails(services.cancel, licence, staff, blank, today=later) == (
            "reason",
            "required",
        )
    assert licence.status == LicenceStatus.APPROVED
    services.cancel(licence, staff, "  Novo cão adquirido (GRU 37 §1 III).  ", today=later)
    assert licence.status == LicenceStatus.CANCELLED
    assert licence.cancelled_on == later and licence.cancelled_at is not None
    assert licence.cancellation_reason == "Novo cão adquirido (GRU 37 §1 III)."
    event = _event(licence, "cancelled")
    assert event.actor_id == staff.id and event.note == "Novo cão adquirido (GRU 37 §1 III)."
    _audited("licence.cancelled", licence)
    (mail,) = _mail(owner)[-1:]
    assert f"nº {licence.id} " in mail.body and "GRU 37 §1 III" in mail.body
    assert services.household_allowance(gru, licence.residence_key, later).limit == 5


def test_cancellation_reason_is_kept_up_to_4000_characters(gru) -> None:
    _owner, licence, staff = licensed_household(gru, base=6)
    services.cancel(licence, staff, "c" * 4100, today=TODAY)
    assert licence.cancellation_reason == "c" * 4000

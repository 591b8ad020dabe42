"""Edges of federal Lei 14.228/2021 for captured dogs and cats (issue 16): who records the laudo
and what it needs, the NGOs' claim window and its last day, the incurable infectious case, the
decision held while NGOs may claim, who is e-mailed and what they read, VV 21 §4's supervision
by the coordinating vet, and the laudo withdrawn when the animal leaves custody.

Dates are 2026 unless said otherwise: Monday 2 March, Friday 6 March; Good Friday 3 April;
Tiradentes, Tuesday 21 April (national); Nossa Senhora da Penha, Monday 13 April (ES only);
Revolução Constitucionalista, Thursday 9 July (SP only)."""

from __future__ import annotations

import io
import re
from datetime import date, timedelta

import pytest
from flask_login import AnonymousUserMixin

from portal.blueprints.impound import euthanasia, services
from portal.blueprints.impound.laudo_review import supervise_proposal, withdraw_proposal
from portal.extensions import db
from portal.models import (
    CaptureStatus,
    MunicipalHoliday,
    OrganizationMember,
    ProposalStatus,
    StoredFile,
)
from tests import factories
from tests.integration.impound.test_impound_laudos import GRU, LAUDO, VV, _laudo, _mail_to
from tests.integration.impound.test_impound_rules import _capture as _capture_on
from tests.integration.impound.test_reclaim_edges import _refused, _start

LAW = "Lei federal 14.228/2021, art. 2º §2º"  # the article the refusals and e-mails cite
DOCS = "Lei federal 14.228/2021, art. 2º §1º e art. 3º"
CAPTURED = date(2026, 3, 2)  # Monday; GRU small animal: held until Thursday 5 March (3 b.d.)
FRIDAY = date(2026, 3, 6)  # a GRU laudo this day: the window ends Wednesday 11 March
LAST_DAY = date(2026, 3, 11)
# An incurable infectious disease with a public-health risk, confirmed by the lab (art. 2º §1º).
INFECTIOUS = {"infectious": True, "lab_exam": "RT-PCR positivo para raiva, repetido"}
PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def _capture(profile=GRU, day=CAPTURED, **fields):  # type: ignore[no-untyped-def]
    """A seriously ill animal (GRU 86 II: a vet may act during the hold)."""
    return _capture_on(profile, day, **{"condition": "serious", **fields})


def _propose(capture, day, *, profile=GRU, vet=None, **fields):  # type: ignore[no-untyped-def]
    """A laudo with the fields a test varies (lab exam, file, blank texts)."""
    values = {"vet_report": LAUDO, "vet_crmv": "CRMV-SP 77", **fields}
    return euthanasia.propose_euthanasia(
        profile,
        capture,
        euthanasia.ProposalData(**values),  # type: ignore[arg-type]
        vet=vet or factories.user(roles=("vet",)),
        today=day,
    )


def _euthanasia(**fields) -> services.DestinationData:  # type: ignore[no-untyped-def]
    return services.DestinationData(destination="euthanasia", reason="Sofrimento", **fields)


def _decide(capture, day, data=None, profile=GRU):  # type: ignore[no-untyped-def]
    vet = factories.user(roles=("vet",))
    return services.decide_destination(
        profile, capture, data or _euthanasia(), actor=vet, today=day
    )


def _names_day(day: str, text: str) -> bool:
    """The date stands on its own in the text (dd/mm/yyyy, nothing glued to it)."""
    return re.search(rf"(?<![\w/]){re.escape(day)}(?![\w/])", text) is not None


def _coordinator():  # type: ignore[no-untyped-def]
    return factories.user(roles=("vet", "coordinator"))


# -- 1. Who records the laudo, and what it needs (art. 2º, §1º) ------------------------------------


@pytest.mark.parametrize("roles", [("agent",), ("coordinator",), ("citizen",)])
def test_lei_14228_art_2_only_the_responsible_vet_records_the_laudo(app, roles):
    capture = _capture()
    err = _refused(_propose, capture, FRIDAY, vet=factories.user(roles=roles))
    assert (err.field, err.code) == (None, "vet_only")
    assert euthanasia.current_proposal(capture) is None


def test_lei_14228_art_1_the_law_covers_dogs_and_cats_only(app):
    err = _refused(_propose, _capture(species="other"), FRIDAY)
    assert (err.field, err.code) == (None, "not_dog_or_cat")
    # A cat is covered like a dog: its laudo is recorded and opens the window.
    cat = _propose(_capture(species="cat"), FRIDAY)
    assert (cat.status, cat.claim_until) == (ProposalStatus.OPEN, LAST_DAY)


@pytest.mark.parametrize(
    ("fields", "field"),
    [({"vet_report": "  \n "}, "vet_report"), ({"vet_crmv": "   "}, "vet_crmv")],
)
def test_lei_14228_art_2_laudo_needs_its_text_and_the_vets_crmv(app, fields, field):
    capture = _capture()
    err = _refused(_propose, capture, FRIDAY, **fields)
    assert (err.field, err.code) == (field, "required")
    assert euthanasia.proposals_of(capture) == []


@pytest.mark.parametrize("exam", [None, "", "   "])
def test_lei_14228_art_2_par_1_an_infectious_laudo_is_preceded_by_its_lab_exam(app, exam):
    # Art. 2º §1º: the laudo is preceded by a laboratory exam "quando for o caso"; an infectious
    # disease is that case, and it also takes the NGOs' claim away (§2º), so none may be missing.
    capture = _capture()
    err = _refused(_propose, capture, FRIDAY, infectious=True, lab_exam=exam)
    assert (err.field, err.code) == ("lab_exam", "required")
    assert "art. 2º §1º" in err.message
    assert euthanasia.proposals_of(capture) == []


def test_lei_14228_art_2_par_1_laudo_keeps_the_lab_exam_crmv_and_its_author(app):
    vet = factories.user(roles=("vet",))
    with_exam = _propose(
        _capture(),
        FRIDAY,
        vet=vet,
        vet_report=f"  {LAUDO}  ",
        vet_crmv=" CRMV-SP 77 ",
        lab_exam="  RT-PCR positivo para cinomose ",
    )
    assert (with_exam.vet_report, with_exam.vet_crmv, with_exam.lab_exam) == (
        LAUDO,
        "CRMV-SP 77",
        "RT-PCR positivo para cinomose",
    )
    assert with_exam.proposed_by_id == vet.id and with_exam.infectious is False
    # §1º: the lab exam only "where it applies": none, or a blank one, is kept as none.
    assert _propose(_capture(), FRIDAY).lab_exam is None
    assert _propose(_capture(), FRIDAY, lab_exam="   ").lab_exam is None


def test_lei_14228_art_2_par_1_laudo_file_is_kept_and_a_bad_file_refused(app):
    proposal = _propose(_capture(), FRIDAY, laudo_file=(io.BytesIO(PDF), "laudo-rex.pdf"))
    stored = db.session.get(StoredFile, proposal.laudo_file_id)
    assert stored is not None
    assert (stored.purpose, stored.original_name, stored.public) == (
        "euthanasia_laudo",
        "laudo-rex.pdf",
        False,
    )
    assert stored.owner_id is None  # the CCZ's document, not the vet's own upload
    capture = _capture()
    err = _refused(_propose, capture, FRIDAY, laudo_file=(io.BytesIO(b"texto"), "laudo.txt"))
    assert (err.field, err.code) == ("laudo_file", "invalid_file")
    assert err.message  # the upload's own reason, shown next to the field
    assert euthanasia.proposals_of(capture) == []


@pytest.mark.parametrize(
    ("status", "code"),
    [
        (CaptureStatus.RELEASED, "not_in_custody"),
        (CaptureStatus.DEFINITIVE_PENDING, "definitive_pending"),
    ],
)
def test_lei_14228_art_2_no_laudo_for_an_animal_the_ccz_may_not_destine(app, status, code):
    capture = _capture()
    capture.status = status
    assert _refused(_propose, capture, FRIDAY).code == code


def test_lei_14228_art_2_no_laudo_while_the_owner_reclaims(app):
    capture = _capture()
    _start(GRU, capture, factories.user(), factories.user(roles=("agent",)))
    assert _refused(_propose, capture, FRIDAY).code == "reclaim_open"


def test_lei_14228_art_2_one_live_laudo_per_animal_numbered_in_order(app):
    other = _capture()
    _propose(other, FRIDAY)  # another animal's laudo does not count towards this one's number
    capture = _capture()
    first = _propose(capture, FRIDAY)
    assert first.number == f"LAUDO-{capture.protocol}-1"  # VV 21 §4 I: laudo numerado
    err = _refused(_propose, capture, FRIDAY)
    assert (err.field, err.code) == (None, "already_proposed")
    withdraw_proposal(first, vet=factories.user(roles=("vet",)), reason="Melhorou.")
    second = _propose(capture, FRIDAY)
    assert second.number == f"LAUDO-{capture.protocol}-2"
    assert euthanasia.current_proposal(capture) is second
    assert euthanasia.proposals_of(capture) == [first, second]  # oldest first
    # The NGOs' list: newest first.
    listed, older = euthanasia.proposals_for_ngos()
    assert listed[:2] == [second, first] and older is False
    # Typed by hand, in lower case with spaces, the number still finds the laudo.
    assert euthanasia.proposal_by_number(f"  {second.number.lower()} ") is second
    assert euthanasia.proposal_by_number("LAUDO-NONE-1") is None


def test_vv_21_par_4_a_laudo_awaiting_sign_off_also_blocks_a_second_one(app):
    capture = _capture(VV)
    pending = _propose(capture, date(2026, 3, 9), profile=VV)
    assert pending.status == ProposalStatus.PENDING
    assert euthanasia.current_proposal(capture) is pending
    assert _refused(_propose, capture, date(2026, 3, 9), profile=VV).code == "already_proposed"


def test_lei_14228_art_2_laudo_is_on_the_audit_trail(app):
    vet = factories.user(roles=("vet",))
    capture = _capture()
    proposal = _propose(capture, FRIDAY, vet=vet, **INFECTIOUS)
    (event,) = factories.audit_events("impound.euthanasia_proposed")
    assert (event.subject_type, event.subject_id, event.actor_id) == (
        "Capture",
        str(capture.id),
        vet.id,
    )
    assert event.detail == {
        "laudo": proposal.number,
        "infectious": True,
        "pending_supervision": False,
    }
    _propose(_capture(VV), date(2026, 3, 9), profile=VV)  # plain vet in Vila Velha: waits
    assert factories.audit_events("impound.euthanasia_proposed")[1].detail["pending_supervision"]


def test_gru_90_vet_records_a_laudo_before_the_hold_ends(app):
    # GRU 86 II: a seriously ill animal's laudo may come before the reclaim deadline (5 March).
    capture = _capture()
    proposal = _propose(capture, date(2026, 3, 3))
    assert proposal.status == ProposalStatus.OPEN and capture.deadline_on == date(2026, 3, 5)


def test_vv_22_3_no_laudo_before_the_hold_ends_where_no_vet_decides_early(app):
    # Vila Velha has no early destination: captured Monday 2 March, held 5 calendar days (until
    # Saturday 7 March); a laudo on Friday 6 March comes too early.
    err = _refused(_propose, _capture(VV), FRIDAY, profile=VV, vet=_coordinator())
    assert (err.field, err.code) == ("destination", "before_deadline")


# -- 2. The claim window (art. 2º §2º): programme.ngo_claim_business_days, 3 business days -----


@pytest.mark.parametrize(
    ("profile", "day", "last"),
    [
        # Friday 6 March: Mon 9, Tue 10, Wed 11.
        (GRU, date(2026, 3, 6), date(2026, 3, 11)),
        # Friday 17 April, Tiradentes on Tuesday 21: Mon 20, Wed 22, Thu 23.
        (GRU, date(2026, 4, 17), date(2026, 4, 23)),
        # Thursday 2 April, Good Friday 3: Mon 6, Tue 7, Wed 8.
        (GRU, date(2026, 4, 2), date(2026, 4, 8)),
        # On Tiradentes itself: taken as made on Wed 22 (GRU 114 §ú) → Thu 23, Fri 24, Mon 27.
        (GRU, date(2026, 4, 21), date(2026, 4, 27)),
        # Saturday 7 March: taken as made on Mon 9 → Tue 10, Wed 11, Thu 12.
        (GRU, date(2026, 3, 7), date(2026, 3, 12)),
        # Tuesday 7 July in São Paulo, 9 July a state holiday: Wed 8, Fri 10, Mon 13.
        (GRU, date(2026, 7, 7), date(2026, 7, 13)),
        # The same day in Espírito Santo, where 9 July is a working day: Wed 8, Thu 9, Fri 10.
        (VV, date(2026, 7, 7), date(2026, 7, 10)),
        # Friday 10 April in Espírito Santo, Penha on Monday 13: Tue 14, Wed 15, Thu 16.
        (VV, date(2026, 4, 10), date(2026, 4, 16)),
        # The same Friday in São Paulo: Mon 13, Tue 14, Wed 15.
        (GRU, date(2026, 4, 10), date(2026, 4, 15)),
    ],
    ids=[
        "friday",
        "tiradentes",
        "good-friday",
        "on-a-holiday",
        "saturday",
        "sp-9-july",
        "es-9-july",
        "es-penha",
        "sp-penha",
    ],
)
def test_lei_14228_art_2_par_2_window_is_three_business_days_from_the_laudo(
    app, profile, day, last
):
    capture = _capture(profile, day=day - timedelta(days=10))
    proposal = _laudo(capture, profile=profile, vet=_coordinator(), day=day)
    assert proposal.claim_until == last
    assert euthanasia.claim_window_end(profile, day) == last


def test_lei_14228_art_2_par_2_municipal_holiday_staff_entered_extends_the_window(app):
    # Monday 7 December, Guarulhos' holiday on Tuesday 8: Wed 9, Thu 10, Fri 11.
    db.session.add(MunicipalHoliday(day=date(2026, 12, 8), name="Imaculada Conceição"))
    db.session.flush()
    proposal = _laudo(_capture(day=date(2026, 11, 30)), day=date(2026, 12, 7))
    assert proposal.claim_until == date(2026, 12, 11)


def test_lei_14228_art_2_par_2_yearly_municipal_holiday_counts_in_a_distant_year(app):
    # Entered once for 2020 as yearly. Friday 5 December 2031, 8 December a Monday:
    # Tue 9, Wed 10, Thu 11 (without the holiday it would end on Wednesday 10).
    db.session.add(
        MunicipalHoliday(day=date(2020, 12, 8), name="Imaculada Conceição", repeats_yearly=True)
    )
    db.session.flush()
    proposal = _laudo(_capture(day=date(2031, 11, 24)), day=date(2031, 12, 5))
    assert proposal.claim_until == date(2031, 12, 11)


def test_lei_14228_art_2_par_2_claim_on_the_last_day_of_the_window(app):
    member, org = factories.ngo_user("Patas Unidas")
    capture = _capture()
    proposal = _propose(capture, FRIDAY, lab_exam="Sorologia positiva")
    assert euthanasia.claim_open(proposal, LAST_DAY)
    decision = euthanasia.claim_for_ngo(proposal, org, user=member, today=LAST_DAY)
    assert proposal.status == ProposalStatus.CLAIMED
    assert (proposal.claimed_by_organization_id, proposal.claimed_by_id) == (org.id, member.id)
    assert proposal.claimed_at is not None
    assert capture.status == CaptureStatus.DESTINED
    assert (decision.capture, decision.destination, decision.organization_id) == (
        capture,
        "ngo_donation",
        org.id,
    )
    assert decision.decided_by_id == member.id
    # The decision carries the laudo it rests on, and names the NGO, the laudo and the article.
    assert (decision.vet_report, decision.vet_crmv, decision.lab_exam) == (
        LAUDO,
        "CRMV-SP 77",
        "Sorologia positiva",
    )
    assert "Patas Unidas" in decision.reason and proposal.number in decision.reason
    assert decision.reason.endswith(f"({LAW}).")  # the reason closes citing the article
    # 11 March is after the hold (5 March): not a decision before the deadline.
    assert decision.before_deadline is False
    (event,) = factories.audit_events("impound.ngo_claimed")
    assert (event.subject_id, event.actor_id) == (str(capture.id), member.id)
    assert event.detail == {"laudo": proposal.number, "organization_id": org.id}


def test_lei_14228_art_2_par_2_claim_during_the_hold_is_marked_before_the_deadline(app):
    # Laudo Tuesday 3 March (GRU 86 II), window Wed 4, Thu 5, Fri 6; claimed on Thursday 5 March,
    # the hold's last day: still before the deadline.
    member, org = factories.ngo_user()
    proposal = _propose(_capture(), date(2026, 3, 3))
    decision = euthanasia.claim_for_ngo(proposal, org, user=member, today=date(2026, 3, 5))
    assert decision.before_deadline is True


def test_lei_14228_art_2_par_2_claim_the_day_after_the_window_is_refused(app):
    member, org = factories.ngo_user()
    capture = _capture()
    proposal = _propose(capture, FRIDAY)
    assert not euthanasia.claim_open(proposal, LAST_DAY + timedelta(days=1))
    err = _refused(
        euthanasia.claim_for_ngo, proposal, org, user=member, today=LAST_DAY + timedelta(days=1)
    )
    assert (err.field, err.code) == (None, "claim_closed")
    assert proposal.status == ProposalStatus.OPEN and capture.status == CaptureStatus.IN_CUSTODY
    assert factories.audit_events("impound.ngo_claimed") == []


def test_lei_14228_art_2_par_2_infectious_case_is_never_claimable(app):
    member, org = factories.ngo_user()
    capture = _capture()
    proposal = _propose(capture, FRIDAY, **INFECTIOUS)
    assert proposal.status == ProposalStatus.OPEN and proposal.claim_until is None
    assert not euthanasia.claim_open(proposal, FRIDAY)
    err = _refused(euthanasia.claim_for_ngo, proposal, org, user=member, today=FRIDAY)
    assert (err.field, err.code) == (None, "infectious")
    assert LAW in err.message
    # No window: the decision may follow the same day, and rests on the laudo.
    decision = _decide(capture, FRIDAY)
    assert decision.destination == "euthanasia" and proposal.status == ProposalStatus.DECIDED


def test_lei_14228_art_2_par_2_only_a_member_of_an_approved_ngo_claims(app):
    proposal = _propose(_capture(), FRIDAY)
    member, org = factories.ngo_user()
    stranger = factories.user()  # not acting for the NGO
    assert _refused(euthanasia.claim_for_ngo, proposal, org, user=stranger, today=FRIDAY).code == (
        "not_member"
    )
    applicant = factories.user()
    pending = factories.make_org(applicant, approved=False)  # not approved by the CCZ yet
    err = _refused(euthanasia.claim_for_ngo, proposal, pending, user=applicant, today=FRIDAY)
    assert (err.field, err.code) == (None, "not_member")
    assert proposal.status == ProposalStatus.OPEN
    euthanasia.claim_for_ngo(proposal, org, user=member, today=FRIDAY)
    assert proposal.status == ProposalStatus.CLAIMED


def test_lei_14228_art_2_par_2_no_claim_while_the_owner_reclaims(app):
    member, org = factories.ngo_user()
    capture = _capture()
    proposal = _propose(capture, FRIDAY)
    _start(GRU, capture, factories.user(), factories.user(roles=("agent",)))
    err = _refused(euthanasia.claim_for_ngo, proposal, org, user=member, today=FRIDAY)
    assert err.code == "reclaim_open" and proposal.status == ProposalStatus.OPEN


@pytest.mark.parametrize("leaves", ["withdrawn", "released", "claimed"])
def test_lei_14228_art_2_par_2_window_closes_when_the_laudo_or_animal_is_gone(app, leaves):
    capture = _capture()
    proposal = _propose(capture, FRIDAY)
    if leaves == "withdrawn":
        withdraw_proposal(proposal, vet=factories.user(roles=("vet",)), reason="Curado.")
    elif leaves == "released":
        capture.status = CaptureStatus.RELEASED
    else:
        member, org = factories.ngo_user()
        euthanasia.claim_for_ngo(proposal, org, user=member, today=FRIDAY)
    assert not euthanasia.claim_open(proposal, FRIDAY)  # inside the dates, but nothing to claim


# -- 3. The decision (art. 2º, §2º) ----------------------------------------------------------------


def test_lei_14228_art_2_par_2_decision_refused_while_the_window_is_open(app):
    capture = _capture()
    proposal = _propose(capture, FRIDAY, lab_exam="Sorologia positiva")
    err = _refused(_decide, capture, LAST_DAY)
    assert (err.field, err.code) == ("destination", "ngo_claim_window_open")
    assert _names_day("11/03/2026", err.message) and LAW in err.message
    assert proposal.status == ProposalStatus.OPEN
    # 12 March: the NGOs had their chance. The decision carries the laudo's texts.
    decision = _decide(capture, LAST_DAY + timedelta(days=1), _euthanasia(vet_report=""))
    assert (decision.vet_report, decision.vet_crmv, decision.lab_exam) == (
        LAUDO,
        "CRMV-SP 77",
        "Sorologia positiva",
    )
    assert proposal.status == ProposalStatus.DECIDED and capture.status == CaptureStatus.DESTINED


def test_lei_14228_art_2_decision_keeps_the_texts_the_vet_typed(app):
    capture = _capture()
    _propose(capture, FRIDAY, lab_exam="Sorologia positiva")
    typed = _euthanasia(vet_report="Piora do quadro", vet_crmv="CRMV-SP 99", lab_exam="Hemograma")
    decision = _decide(capture, LAST_DAY + timedelta(days=1), typed)
    assert (decision.vet_report, decision.vet_crmv, decision.lab_exam) == (
        "Piora do quadro",
        "CRMV-SP 99",
        "Hemograma",
    )


def test_lei_14228_art_2_no_laudo_in_effect_no_euthanasia(app):
    capture = _capture()
    err = _refused(_decide, capture, LAST_DAY)
    assert (err.field, err.code) == ("destination", "euthanasia_refused")
    assert LAW in err.message
    proposal = _propose(capture, FRIDAY)
    withdraw_proposal(proposal, vet=factories.user(roles=("vet",)), reason="Curado.")
    assert _refused(_decide, capture, LAST_DAY + timedelta(days=1)).code == "euthanasia_refused"


def test_vv_21_par_4_decision_refused_until_the_laudo_is_signed_off(app):
    capture = _capture(VV)
    proposal = _propose(capture, date(2026, 3, 9), profile=VV)
    err = _refused(_decide, capture, date(2026, 4, 30), profile=VV)
    assert (err.field, err.code) == ("destination", "laudo_unsupervised")
    assert proposal.number in err.message


# -- 4. Who is told and what they read (art. 2º §1º, art. 3º; VV 21 §4 I) --------------------------


def test_lei_14228_art_3_every_approved_ngo_and_its_people_are_emailed(app):
    vet_member, first = factories.ngo_user()
    first.email = "contato@patas.org"
    second = factories.make_org(factories.user(), email="contato@patas.org")  # same inbox, once
    shared = factories.user()
    first.members.append(OrganizationMember(user_id=shared.id))
    second.members.append(OrganizationMember(user_id=shared.id))  # acts for both: once
    quiet = factories.make_org(factories.user(), email="")  # no inbox of its own
    refused_member = factories.user()
    factories.make_org(refused_member, approved=False, email="pendente@ong.org")
    db.session.flush()
    capture = _capture(color="Tigrado")
    proposal = _propose(capture, FRIDAY)
    assert proposal.notified_organization_ids == [first.id, second.id, quiet.id]
    for address in ("contato@patas.org", vet_member.email, shared.email):
        (mail,) = [m for m in _mail_to(address) if proposal.number in m.subject]
        assert "None" not in mail.body  # every fact filled in
        # One line each: the numbered laudo and the animal, the claim, the link to the case.
        laudo, claim, link = mail.body.splitlines()
        assert proposal.number in laudo and capture.protocol in laudo
        assert laudo.endswith("(Cão, Tigrado).")  # species and colour, to recognise it
        assert _names_day("11/03/2026", claim)  # the window's last day
        assert claim.endswith(f"({LAW}).") and DOCS in link
        assert link.endswith(f": http://localhost/ong/laudos/{proposal.number}")
    assert [m for m in _mail_to(quiet.members[0].user.email) if proposal.number in m.subject]
    assert _mail_to("") == []
    assert _mail_to("pendente@ong.org") == [] and _mail_to(refused_member.email) == []


def test_lei_14228_art_2_par_2_infectious_laudo_email_says_no_claim(app):
    member, _org = factories.ngo_user()
    proposal = _propose(_capture(), FRIDAY, **INFECTIOUS)
    (mail,) = [m for m in _mail_to(member.email) if proposal.number in m.subject]
    # No window, so no last day in it; the article and the documents' link still are.
    assert LAW in mail.body and "/2026" not in mail.body
    assert f"http://localhost/ong/laudos/{proposal.number}" in mail.body


def test_lei_14228_art_3_laudo_files_readable_by_staff_and_approved_ngos(app):
    proposal = _propose(_capture(), FRIDAY, laudo_file=(io.BytesIO(PDF), "laudo.pdf"))
    laudo_file = proposal.laudo_file
    assert laudo_file is not None
    member, _org = factories.ngo_user()
    applicant = factories.user()
    factories.make_org(applicant, approved=False)
    readers = [factories.user(roles=(r,)) for r in ("agent", "vet", "coordinator")] + [member]
    for reader in readers:
        assert euthanasia.may_read_laudos(reader)
        assert euthanasia.laudo_file_rule(reader, laudo_file)
    for outsider in (factories.user(), applicant, AnonymousUserMixin()):
        assert not euthanasia.may_read_laudos(outsider)
        assert not euthanasia.laudo_file_rule(outsider, laudo_file)
    # The rule opens laudo files only, not another private file of the portal.
    other = StoredFile(token="t" * 32, purpose="applicant_document", content_type="application/pdf")
    assert not euthanasia.laudo_file_rule(member, other)


# -- 5. VV 21 §4: the coordinating vet's supervision -----------------------------------------------


@pytest.mark.parametrize(
    ("roles", "coordinating"),
    [(("vet",), False), (("coordinator",), False), (("vet", "coordinator"), True)],
)
def test_vv_21_par_4_the_coordinating_vet_is_a_vet_who_coordinates(app, roles, coordinating):
    author = factories.user(roles=roles)
    assert euthanasia.is_coordinating_vet(author) is coordinating
    assert euthanasia.needs_supervision(VV, author) is not coordinating
    assert euthanasia.needs_supervision(GRU, author) is False  # Guarulhos has no such rule


def test_vv_21_par_4_laudo_takes_effect_after_sign_off(app):
    member, org = factories.ngo_user()
    capture = _capture(VV)
    proposal = _propose(capture, date(2026, 3, 9), profile=VV)
    assert (proposal.status, proposal.claim_until) == (ProposalStatus.PENDING, None)
    assert proposal.notified_organization_ids is None and _mail_to(member.email) == []
    assert not euthanasia.claim_open(proposal, date(2026, 3, 9))
    supervisor = factories.user(roles=("coordinator",))  # coordinates, but is no vet
    err = _refused(supervise_proposal, VV, proposal, supervisor=supervisor, today=FRIDAY)
    assert err.code == "not_coordinating_vet" and "VV 21 §4" in err.message
    # Signed off on Friday 10 April: Mon 13 is Penha (ES) → Tue 14, Wed 15, Thu 16.
    supervise_proposal(VV, proposal, supervisor=_coordinator(), today=date(2026, 4, 10))
    assert (proposal.status, proposal.claim_until) == (ProposalStatus.OPEN, date(2026, 4, 16))
    assert proposal.notified_organization_ids == [org.id]
    (mail,) = _mail_to(member.email)
    assert _names_day("16/04/2026", mail.body)
    assert euthanasia.claim_for_ngo(proposal, org, user=member, today=date(2026, 4, 16))


def test_vv_21_par_4_the_coordinating_vets_own_laudo_needs_no_sign_off(app):
    member, _org = factories.ngo_user()
    proposal = _propose(_capture(VV), date(2026, 3, 9), profile=VV, vet=_coordinator())
    # Monday 9 March: Tue 10, Wed 11, Thu 12.
    assert (proposal.status, proposal.claim_until) == (ProposalStatus.OPEN, date(2026, 3, 12))
    assert [m for m in _mail_to(member.email) if proposal.number in m.subject]


# -- 6. The animal leaves custody another way: its open laudo no longer proposes anything ----------


def test_lei_14228_art_2_open_laudo_withdrawn_when_the_animal_is_destined_otherwise(app):
    _member, org = factories.ngo_user()
    capture = _capture()
    old = _propose(capture, FRIDAY)
    withdraw_proposal(old, vet=factories.user(roles=("vet",)), reason="Melhorou.")
    live = _propose(capture, FRIDAY)
    data = services.DestinationData(
        destination="ngo_donation", reason="Doado", organization_id=org.id
    )
    _decide(capture, LAST_DAY + timedelta(days=1), data)
    assert (old.status, live.status) == (ProposalStatus.WITHDRAWN, ProposalStatus.WITHDRAWN)


@pytest.mark.parametrize(
    ("status", "after"),
    [
        (ProposalStatus.OPEN, ProposalStatus.WITHDRAWN),
        (ProposalStatus.PENDING, ProposalStatus.WITHDRAWN),  # VV 21 §4: awaiting sign-off
        (ProposalStatus.CLAIMED, ProposalStatus.CLAIMED),  # an NGO's claim stays on record
        (ProposalStatus.DECIDED, ProposalStatus.DECIDED),
    ],
)
def test_lei_14228_art_2_only_a_live_laudo_is_withdrawn_when_the_animal_leaves(app, status, after):
    capture = _capture()
    proposal = _propose(capture, FRIDAY)
    proposal.status = status
    euthanasia.withdraw_open_proposals(capture)
    assert proposal.status == after


def test_lei_14228_art_3_the_ngos_page_through_every_laudo(client, auth, monkeypatch):
    # Art. 3º: unrestricted access to the documentation, so the list never stops at its newest
    # laudos: with two a page, three laudos make two pages, the oldest on the second.
    monkeypatch.setattr(euthanasia, "NGO_PAGE_SIZE", 2)
    first, second, third = (_propose(_capture(), FRIDAY) for _ in range(3))
    member, _org = factories.ngo_user()
    db.session.commit()
    auth.login(member)
    newest = client.get("/ong/laudos").get_data(as_text=True)
    assert third.number in newest and second.number in newest and first.number not in newest
    assert "/ong/laudos?page=2" in newest
    oldest = client.get("/ong/laudos?page=2").get_data(as_text=True)
    assert first.number in oldest and third.number not in oldest
    assert "/ong/laudos?page=1" in oldest and "page=3" not in oldest
    for odd in ("0", "-4", "abc", "9" * 30):  # never a server error
        assert client.get(f"/ong/laudos?page={odd}").status_code == 200

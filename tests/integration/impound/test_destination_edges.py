"""Edges of the destination of an impounded animal after the hold (issue 16): the last day of the
hold refused and the day after accepted, per profile; the vet's early decision (BJP 25 §4;
GRU 86 II; CAB 11 V); each profile's destinations (CABO 13; CAB 11 II, 15-16, 20; VV 19-21;
BJP 25 §3; GRU 86, 88); the federal ban on killing dogs and cats (Lei 14.228/2021) while other
species follow the municipal law; the community return with a named carer; what a decision stores.

Dates are 2026: Monday 2 March; Good Friday 3 April (national); Tuesday 21 April (Tiradentes)."""

from __future__ import annotations

import io
from datetime import date
from typing import get_args

import pytest

from portal.blueprints.impound import services
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    CaptureStatus,
    DestinationDecision,
    Listing,
    ListingState,
    ProposalStatus,
    ReclaimStatus,
)
from portal.profiles.animal_rules import CommunityCondition
from tests import factories
from tests.integration.impound.test_impound_laudos import _laudo
from tests.integration.impound.test_impound_rules import BJP, CAB, CABO, GRU, VV, _capture
from tests.integration.impound.test_reclaim_edges import _refused, _start

MONDAY = date(2026, 3, 2)
LAUDO = "Laudo técnico: fratura exposta de fêmur"
FEDERAL = "Lei federal 14.228/2021, art. 1º e 2º"  # the article the euthanasia refusal cites


def _vet():  # type: ignore[no-untyped-def]
    return factories.user(roles=("vet",))


def _agent():  # type: ignore[no-untyped-def]
    return factories.user(roles=("agent",))


def _destine(profile, capture, day, destination="adoption", *, actor=None, **fields):  # type: ignore[no-untyped-def]
    """Decide a destination; the reason is given unless the test varies it."""
    fields.setdefault("reason", "Prazo vencido sem resgate")
    return services.decide_destination(
        profile,
        capture,
        services.DestinationData(destination=destination, **fields),
        actor=actor or _agent(),
        today=day,
    )


def _refusal(profile, capture, day, destination="adoption", **kwargs):  # type: ignore[no-untyped-def]
    """The refusal, rolled back as the staff form does (staff._act); the capture is as it was."""
    status = capture.status
    attempt = db.session.begin_nested()
    err = _refused(_destine, profile, capture, day, destination, **kwargs)
    attempt.rollback()
    assert capture.status == status and capture.destinations == []
    return err


def _why(profile, capture, day, destination="adoption", **kwargs):  # type: ignore[no-untyped-def]
    err = _refusal(profile, capture, day, destination, **kwargs)
    return err.field, err.code


def _horse(profile, day=MONDAY, **fields):  # type: ignore[no-untyped-def]
    return _capture(profile, day, species="other", size="large", **fields)


# -- The hold: refused on its last day, accepted the day after ----------------------------------

HOLDS = [
    # GRU 82 §4, 114: 3 business days, start day excluded. Thu 2 Apr; Fri 3 Apr Good Friday,
    # Sat, Sun skipped → Mon 6, Tue 7, Wed 8 Apr.
    pytest.param(GRU, date(2026, 4, 2), {}, date(2026, 4, 8), id="gru_82_4_over_good_friday"),
    # GRU 82 §4: medium/large 5 business days: Mon 6 … Fri 10 Apr.
    pytest.param(
        GRU,
        date(2026, 4, 2),
        {"species": "other", "size": "large"},
        date(2026, 4, 10),
        id="gru_82_4_large_five_business_days",
    ),
    # GRU 114: Fri 6 Mar; the weekend does not count → Mon 9, Tue 10, Wed 11 Mar.
    pytest.param(GRU, date(2026, 3, 6), {}, date(2026, 3, 11), id="gru_114_weekend_skipped"),
    # GRU 114: Fri 17 Apr → Mon 20, (Tue 21 Tiradentes), Wed 22, Thu 23 Apr.
    pytest.param(GRU, date(2026, 4, 17), {}, date(2026, 4, 23), id="gru_114_tiradentes"),
    # BJP 25 §1: tagged, 5 days counting the capture day: 2, 3, 4, 5, 6 Mar.
    pytest.param(BJP, MONDAY, {"tagged": True}, date(2026, 3, 6), id="bjp_25_1_tagged"),
    # BJP 25 §2: untagged, 3 days counting the capture day: 2, 3, 4 Mar.
    pytest.param(BJP, MONDAY, {}, date(2026, 3, 4), id="bjp_25_2_untagged"),
    # BJP 25 §1: Wed 4 Mar tagged → 4 … 8 Mar, a Sunday: BJP does not move it to Monday.
    pytest.param(
        BJP, date(2026, 3, 4), {"tagged": True}, date(2026, 3, 8), id="bjp_25_1_ends_on_sunday"
    ),
    # VV 22 §3: 5 calendar days after Mon 2 Mar → Sat 7 Mar (a Saturday is a day too).
    pytest.param(VV, MONDAY, {}, date(2026, 3, 7), id="vv_22_3_calendar_days"),
    # CAB 12: 5 days from the apprehension, the start day excluded → Sat 7 Mar.
    pytest.param(CAB, MONDAY, {}, date(2026, 3, 7), id="cab_12_five_days"),
    # CABO 10 §ú a: 3 days → Thu 5 Mar.
    pytest.param(CABO, MONDAY, {}, date(2026, 3, 5), id="cabo_10_a_three_days"),
]


@pytest.mark.parametrize(("profile", "captured", "fields", "last_day"), HOLDS)
def test_gru_82_4_bjp_25_vv_22_3_cab_12_cabo_10_destination_refused_on_the_last_day_of_the_hold(
    app, profile, captured, fields, last_day
):
    fields = dict(fields)
    if fields.pop("tagged", False):  # carries the RGA tag of a registered animal
        fields["tag_read"] = factories.animal(factories.user()).rga
    capture = _capture(profile, captured, **fields)
    assert capture.deadline_on == last_day
    destination = "ngo_donation" if fields.get("species") else "adoption"
    err = _refusal(profile, capture, last_day, destination)
    assert (err.field, err.code) == ("destination", "before_deadline")
    assert err.message == (  # the refusal says until when, and who may act before
        f"O prazo de resgate vai até {last_day:%d/%m/%Y}. Antes dele, só o médico veterinário "
        "decide a destinação de um animal gravemente doente ou ferido, com laudo técnico."
    )
    assert capture.status == CaptureStatus.IN_CUSTODY
    org = factories.make_org()
    agent = _agent()
    decision = _destine(
        profile,
        capture,
        date.fromordinal(last_day.toordinal() + 1),
        destination,
        actor=agent,
        organization_id=org.id,
    )
    assert decision.before_deadline is False and decision.decided_by_id == agent.id
    assert (decision.vet_report, decision.vet_crmv, decision.lab_exam) == (None, None, None)
    assert capture.status == CaptureStatus.DESTINED


# -- BJP 25 §4: the vet's decision during the hold ----------------------------------------------


@pytest.mark.parametrize("condition", ["ill", "injured", "serious"])
def test_bjp_25_par_4_vet_with_a_laudo_destines_an_ill_or_injured_animal_during_the_hold(
    app, condition
):
    # "doenças e/ou ferimentos considerados graves, e/ou clinicamente comprometidos": untagged,
    # captured Mon 2 Mar, held to Wed 4 Mar; the vet decides on Tue 3 Mar.
    profile = BJP
    capture = _capture(profile, MONDAY, condition=condition)
    vet = _vet()
    decision = _destine(
        profile,
        capture,
        date(2026, 3, 3),
        actor=vet,
        reason="  Tratamento prolongado em lar temporário ",
        vet_report=f"  {LAUDO}  ",
    )
    assert decision.before_deadline is True
    assert (decision.reason, decision.vet_report, decision.decided_by_id) == (
        "Tratamento prolongado em lar temporário",
        LAUDO,
        vet.id,
    )
    (event,) = factories.audit_events("impound.destined")
    assert (event.subject_type, event.subject_id) == ("Capture", str(capture.id))
    assert event.detail == {"destination": "adoption", "before_deadline": True, "vet_report": True}


def test_bjp_25_par_4_lifts_only_the_untagged_hold_a_tagged_animals_owner_keeps_the_5_days(app):
    # BJP 25 §4 "mesmo sem esperar o prazo estipulado no §2º": the vet's power lifts the 3-day
    # hold of an unidentified dog. A dog with its RGA tag is held 5 days, the day of capture
    # included (§1: Mon 2 to Fri 6 Mar) while its owner is called: the vet waits for them too.
    owner = factories.user()
    capture = _capture(BJP, MONDAY, condition="serious", tag_read=factories.animal(owner).rga)
    assert capture.tagged and capture.deadline_on == date(2026, 3, 6)
    for day in (MONDAY, date(2026, 3, 3), date(2026, 3, 6)):
        err = _refusal(BJP, capture, day, actor=_vet(), vet_report=LAUDO)
        assert (err.field, err.code) == ("destination", "before_deadline")
        assert err.message == (
            "Este animal tem RGA: o proprietário tem até 06/03/2026 para resgatá-lo. A decisão "
            "antecipada do veterinário vale só para animais sem identificação (BJP 25 §1, §4)."
        )
    decision = _destine(BJP, capture, date(2026, 3, 7), actor=_vet(), vet_report=LAUDO)
    assert decision.before_deadline is False


@pytest.mark.parametrize("profile", [GRU, CAB], ids=lambda p: p.key)
def test_gru_86_ii_cab_11_v_the_vet_may_act_early_for_a_tagged_animal_too(app, profile):
    # GRU 86 II; CAB 11 V put the destination "a critério" of the authority, with no BJP-like
    # reference to the untagged hold: a tagged, seriously ill animal may be destined on a laudo.
    capture = _capture(
        profile, MONDAY, condition="serious", tag_read=factories.animal(factories.user()).rga
    )
    assert capture.tagged and capture.deadline_on > date(2026, 3, 3)
    decision = _destine(profile, capture, date(2026, 3, 3), actor=_vet(), vet_report=LAUDO)
    assert decision.before_deadline is True


def test_bjp_25_par_4_a_healthy_animal_waits_for_the_hold_even_on_a_vets_laudo(app):
    capture = _capture(BJP, MONDAY, condition="good")
    assert _why(BJP, capture, date(2026, 3, 3), actor=_vet(), vet_report=LAUDO) == (
        "destination",
        "before_deadline",
    )


def test_bjp_25_par_4_only_the_vet_decides_during_the_hold(app):
    capture = _capture(BJP, MONDAY, condition="serious")
    coordinator = factories.user(roles=("agent", "coordinator"))
    assert _why(BJP, capture, date(2026, 3, 3), actor=coordinator, vet_report=LAUDO) == (
        "destination",
        "before_deadline",
    )


def test_bjp_25_par_4_the_vet_decides_only_after_a_technical_report(app):
    capture = _capture(BJP, MONDAY, condition="serious")
    for blank in (None, "   "):  # "após avaliação e emissão de parecer técnico"
        assert _why(BJP, capture, date(2026, 3, 3), actor=_vet(), vet_report=blank) == (
            "destination",
            "before_deadline",
        )


@pytest.mark.parametrize("profile", [VV, CABO], ids=lambda p: p.key)
def test_vv_22_par_3_and_cabo_10_no_early_destination_where_the_law_gives_no_such_power(
    app, profile
):
    # VV 22 §3 and CABO 10 §ú a hold every animal; neither gives the vet BJP 25 §4's power.
    capture = _capture(profile, MONDAY, condition="serious")
    assert _why(profile, capture, date(2026, 3, 3), actor=_vet(), vet_report=LAUDO) == (
        "destination",
        "before_deadline",
    )


def test_gru_88_definitive_apprehension_upheld_destines_without_waiting_for_the_hold(app):
    from portal.blueprints.impound.apprehension import apprehension_document

    # Captured Mon 2 Mar: hold to Thu 5 Mar. The apprehension upheld (GRU 87 §ú, 88) ends the
    # owner's right to reclaim: an agent destines the animal on Tue 3 Mar, not "early".
    capture = _capture(GRU, MONDAY)
    services.open_definitive_apprehension(
        capture, article="GRU 87 I", reason="Mordedor vicioso", actor=None
    )
    services.decide_definitive_apprehension(
        capture, upheld=True, actor=None, document=apprehension_document(capture)
    )
    decision = _destine(GRU, capture, date(2026, 3, 3))
    assert decision.before_deadline is False
    assert factories.audit_events("impound.destined")[0].detail["before_deadline"] is False


# -- Custody: who may be destined at all --------------------------------------------------------


def test_gru_87_pending_definitive_apprehension_waits_for_its_final_decision(app):
    capture = _capture(GRU, MONDAY)
    services.open_definitive_apprehension(
        capture, article="GRU 87 I", reason="Mordedor vicioso", actor=None
    )
    err = _refusal(GRU, capture, date(2026, 3, 10))
    assert (err.field, err.code) == (None, "definitive_pending")
    assert "(GRU 87 I)" in err.message  # the article the pending apprehension rests on


@pytest.mark.parametrize("status", [CaptureStatus.RELEASED, CaptureStatus.DESTINED])
def test_gru_82_an_animal_no_longer_in_custody_has_no_destination(app, status):
    capture = _capture(GRU, MONDAY)
    capture.status = status
    assert _why(GRU, capture, date(2026, 3, 10)) == (None, "not_in_custody")


@pytest.mark.parametrize("reclaim_status", [ReclaimStatus.STARTED, ReclaimStatus.PAID])
def test_gru_82_2_no_destination_while_the_owner_reclaims(app, reclaim_status):
    capture = _capture(GRU, MONDAY)
    reclaim = _start(GRU, capture, factories.user(), _agent())
    reclaim.status = reclaim_status
    assert _why(GRU, capture, date(2026, 3, 10)) == (None, "reclaim_open")
    reclaim.status = ReclaimStatus.CANCELLED  # the owner gave up: the CCZ destines it
    assert _destine(GRU, capture, date(2026, 3, 10)).destination == "adoption"


# -- Each profile's destinations, in the law's order ----------------------------------------------

OFFERED = [
    # GRU 86, 88 I: doação (adoption or an NGO); III abatedouro never for dogs and cats (Lei
    # 14.228/2021, art. 1º), offered for other species.
    ("gru_88", GRU, "dog", "small", ["adoption", "ngo_donation"]),
    ("gru_88_iii_horse", GRU, "other", "large", ["adoption", "ngo_donation", "slaughterhouse"]),
    # BJP 25 §3 I-II, 28: adoption or an NGO first, then the community for dogs and cats.
    ("bjp_25_3_dog", BJP, "dog", "small", ["adoption", "ngo_donation", "community_return"]),
    ("bjp_25_3_cat", BJP, "cat", "small", ["adoption", "ngo_donation", "community_return"]),
    ("bjp_25_3_other", BJP, "other", "medium", ["adoption", "ngo_donation"]),
    # VV 19 §1, 22 §1: adoption or back to the community; VV 21 NGOs.
    ("vv_19_cat", VV, "cat", "small", ["adoption", "community_return", "ngo_donation"]),
    ("vv_19_other", VV, "other", "small", ["adoption", "ngo_donation"]),
    # CAB 15-16: adoption, then NGOs; CAB 11 II, 20: medium and large go to auction first.
    ("cab_15_16_small", CAB, "dog", "small", ["adoption", "ngo_donation"]),
    ("cab_20_medium", CAB, "other", "medium", ["auction"]),
    ("cab_20_large", CAB, "other", "large", ["auction"]),
    # CABO 13 II-IV: auction and donation, any size.
    ("cabo_13_iv_small", CABO, "dog", "small", ["adoption", "auction", "ngo_donation"]),
    ("cabo_13_iv_large", CABO, "other", "large", ["adoption", "auction", "ngo_donation"]),
]


@pytest.mark.parametrize(
    ("profile", "species", "size", "expected"),
    [row[1:] for row in OFFERED],
    ids=[row[0] for row in OFFERED],
)
def test_cabo_13_cab_15_20_vv_19_bjp_25_3_gru_88_destinations_offered_in_the_laws_order(
    app, profile, species, size, expected
):
    capture = _capture(profile, MONDAY, species=species, size=size)
    assert services.destinations_offered(profile, capture) == expected
    # A vet's laudo of incurable disease adds euthanasia last, never before the law's list.
    assert services.destinations_offered(profile, capture, incurable_laudo=True) == [
        *expected,
        "euthanasia",
    ]


@pytest.mark.parametrize(
    ("profile", "species", "size", "destination"),
    [
        (GRU, "dog", "small", "community_return"),  # GRU 88: no return to the community
        (GRU, "dog", "small", "auction"),
        (CAB, "dog", "small", "auction"),  # CAB 20: only medium and large go to auction
        (CAB, "dog", "small", "community_return"),
        (VV, "other", "small", "community_return"),  # VV 19: dogs and cats
        (BJP, "other", "small", "community_return"),  # BJP 25 §3 II: dogs and cats
        (GRU, "dog", "small", "slaughterhouse"),  # GRU 88 III; Lei 14.228/2021, art. 1º
        (GRU, "cat", "small", "slaughterhouse"),
        (BJP, "other", "large", "slaughterhouse"),  # not in BJP 25 §3's list
        (BJP, "dog", "small", "leilão"),  # not a code at all (the id is spelt without the tilde)
    ],
    ids=lambda v: getattr(v, "key", v).replace("ã", "a"),
)
def test_cabo_13_cab_20_vv_19_bjp_25_3_gru_88_a_destination_the_law_does_not_give_is_refused(
    app, profile, species, size, destination
):
    capture = _capture(profile, MONDAY, species=species, size=size)
    # after every hold (the longest, CAB/VV, ends Sat 7 Mar)
    assert _why(profile, capture, date(2026, 3, 20), destination, carer_name="Dona Maria") == (
        "destination",
        "not_allowed",
    )


def test_cab_20_a_large_animal_goes_to_public_auction(app):
    capture = _horse(CAB)
    decision = _destine(CAB, capture, date(2026, 3, 8), "auction", reason="Leilão em hasta")
    assert (decision.destination, decision.listing_id, decision.organization_id) == (
        "auction",
        None,
        None,
    )
    assert capture.status == CaptureStatus.DESTINED


def test_cabo_13_a_dog_goes_to_auction_as_the_law_lists_it(app):
    capture = _capture(CABO, MONDAY)
    decision = _destine(CABO, capture, date(2026, 3, 6), "auction", reason="Hasta pública")
    assert decision.destination == "auction" and decision.carer_name is None


def test_decision_needs_its_reason(app):
    capture = _capture(GRU, MONDAY)
    assert _why(GRU, capture, date(2026, 3, 6), reason="   ") == ("reason", "required")


# -- BJP 25 §3 I; GRU 88 I; CAB 16: an approved NGO -----------------------------------------------


def test_bjp_25_par_3_i_an_unknown_ngo_is_refused_before_any_decision_exists(app):
    capture = _capture(BJP, MONDAY)  # untagged: hold to Wed 4 Mar
    db.session.expire_all()  # nothing loaded: the NGO is looked up in the database
    err = _refused(_destine, BJP, capture, date(2026, 3, 5), "ngo_donation", organization_id=987654)
    assert (err.field, err.code) == ("organization_id", "not_approved")
    assert capture.destinations == [] and capture.status == CaptureStatus.IN_CUSTODY


def test_bjp_25_par_3_i_donation_only_to_an_approved_ngo_and_it_is_stored(app):
    capture = _capture(BJP, MONDAY)  # untagged: hold to Wed 4 Mar
    pending = factories.make_org(approved=False)
    for org_id in (None, pending.id):
        assert _why(BJP, capture, date(2026, 3, 5), "ngo_donation", organization_id=org_id) == (
            "organization_id",
            "not_approved",
        )
    approved = factories.make_org()
    decision = _destine(BJP, capture, date(2026, 3, 5), "ngo_donation", organization_id=approved.id)
    assert decision.organization_id == approved.id and decision.listing_id is None
    assert factories.audit_events("impound.destined")[0].detail == {
        "destination": "ngo_donation",
        "before_deadline": False,
        "vet_report": False,
    }


def test_an_organization_given_for_another_destination_is_not_stored(app):
    capture = _capture(GRU, MONDAY)
    org = factories.make_org()
    decision = _destine(GRU, capture, date(2026, 3, 6), organization_id=org.id)
    assert decision.organization_id is None


# -- VV 19 §1; BJP 25 §3 II: back to the community with a named carer ----------------------------


@pytest.mark.parametrize(
    ("profile", "day", "article"),
    [(VV, date(2026, 3, 8), "VV 19 §1"), (BJP, date(2026, 3, 5), "BJP 25 §3 I-II")],
)
def test_vv_19_par_1_community_animal_returned_only_with_its_named_carer(
    app, profile, day, article
):
    # VV: hold to Sat 7 Mar, so Sun 8 Mar; BJP untagged: hold to Wed 4 Mar, so Thu 5 Mar.
    capture = _capture(profile, MONDAY, species="cat")
    for blank in (None, "  "):
        err = _refusal(profile, capture, day, "community_return", carer_name=blank)
        assert (err.field, err.code) == ("carer_name", "required")
        # The refusal cites the article of the city's own law, not the other city's.
        assert err.message.endswith(f"({article}).")
    decision = _destine(
        profile,
        capture,
        day,
        "community_return",
        carer_name="  Dona Maria  ",
        community_conditions=tuple(ALL_CONDITIONS),
    )
    assert decision.carer_name == "Dona Maria" and decision.destination == "community_return"
    assert capture.status == CaptureStatus.DESTINED


ALL_CONDITIONS = list(get_args(CommunityCondition))  # every condition the profiles know
# BJP 25 §3 II: "registrado, esterilizados cirurgicamente, vacinados e iniciado o programa de
# desverminação (com a primeira dose...)"; VV 19 §1: "esterilização, registro, vacinação,
# vermifugação e controle de ectoparasitos ... após identificação e assinatura de termo de
# compromisso de seu cuidador principal".
# BJP 25 §3 also ranks the return second: priority I (adoption, NGO) was not possible (issue 27 #6).
ANIMAL_CONDITIONS = ["registered", "sterilised", "vaccinated", "dewormed"]
BJP_CONDITIONS = [*ANIMAL_CONDITIONS, "earlier_priorities_failed"]
VV_CONDITIONS = ANIMAL_CONDITIONS + ["ectoparasites", "carer_term"]


@pytest.mark.parametrize(
    ("profile", "day", "conditions", "article"),
    [
        pytest.param(BJP, date(2026, 3, 5), BJP_CONDITIONS, "BJP 25 §3 I-II", id="bjp_25_3_ii"),
        pytest.param(VV, date(2026, 3, 8), VV_CONDITIONS, "VV 19 §1", id="vv_19_1"),
    ],
)
def test_bjp_25_3_ii_vv_19_1_community_return_only_with_every_condition_confirmed(
    app, profile, day, conditions, article
):
    capture = _capture(profile, MONDAY, species="dog")
    # Each condition missing alone is refused, and the message names it and the article.
    for missing in conditions:
        given = tuple(c for c in conditions if c != missing)
        err = _refusal(
            profile,
            capture,
            day,
            "community_return",
            carer_name="Dona Maria",
            community_conditions=given,
        )
        assert (err.field, err.code) == ("community_conditions", "conditions_missing")
        assert services.community_condition_label(missing) in err.message
        assert article in err.message
        for other in given:
            assert services.community_condition_label(other) not in err.message
    # Nothing confirmed: every condition is listed.
    err = _refusal(profile, capture, day, "community_return", carer_name="Dona Maria")
    assert err.code == "conditions_missing"
    assert all(services.community_condition_label(c) in err.message for c in conditions)
    decision = _destine(
        profile,
        capture,
        day,
        "community_return",
        carer_name="Dona Maria",
        community_conditions=tuple(reversed(conditions)),
    )
    # What the decision stores is the law's list, in the profile's order.
    assert decision.community_conditions == conditions


def test_bjp_25_3_ii_does_not_ask_for_the_vv_carer_term(app):
    # BJP 25 §3 II names a "responsável identificado" (the carer's name), no signed term.
    capture = _capture(BJP, MONDAY, species="cat")
    decision = _destine(
        BJP,
        capture,
        date(2026, 3, 5),
        "community_return",
        carer_name="Dona Maria",
        community_conditions=tuple(BJP_CONDITIONS),
    )
    assert decision.community_conditions == BJP_CONDITIONS


def test_a_carer_given_for_another_destination_is_not_stored(app):
    capture = _capture(VV, MONDAY)
    decision = _destine(
        VV, capture, date(2026, 3, 8), carer_name="Dona Maria", community_conditions=("vaccinated",)
    )
    assert decision.carer_name is None and decision.community_conditions is None


# -- GRU 88 §2; VV 28: the adoption listing draft -------------------------------------------------


def test_gru_88_adoption_draft_describes_the_animal_caught(app):
    photos = [(factories.png_bytes(), "a.png"), (factories.png_bytes(), "b.png")]
    seen = {"species": "cat", "sex": "female", "color": "Tricolor", "district": "Vila Rio"}
    capture = _capture(GRU, MONDAY, condition="ill", photos=photos, **seen)
    agent = _agent()
    # Hold to Thu 5 Mar; adopted out on Fri 6 Mar. Age unknown: taken as 2 years → 6 Mar 2024.
    decision = _destine(GRU, capture, date(2026, 3, 6), actor=agent, listing_name="  Mimi ")
    listing = db.session.get(Listing, decision.listing_id)
    assert (listing.name, listing.species, listing.sex, listing.size) == (
        "Mimi",
        "cat",
        "female",
        "small",
    )
    assert (listing.color, listing.district, listing.held_since) == ("Tricolor", "Vila Rio", MONDAY)
    assert (listing.birth_date, listing.birth_date_estimated) == (date(2024, 3, 6), True)
    assert (listing.state, listing.organization_id, listing.created_by_id) == (
        ListingState.DRAFT,
        None,
        agent.id,
    )
    # the day and protocol of the capture and the condition seen then
    assert listing.story == (
        f"Recolhido pelo CCZ em 02/03/2026 (protocolo {capture.protocol}). Estado: Doente."
    )
    assert [(p.stored_file_id, p.position) for p in listing.photos] == [
        (p.stored_file_id, p.position) for p in capture.photos
    ]
    assert [p.position for p in listing.photos] == [0, 1]


@pytest.mark.parametrize("name", [None, "  "])
def test_gru_88_adoption_draft_of_an_unnamed_animal_of_unknown_sex(app, name):
    capture = _capture(GRU, MONDAY, sex="unknown")
    decision = _destine(GRU, capture, date(2026, 3, 6), listing_name=name)
    listing = db.session.get(Listing, decision.listing_id)
    # Named after its protocol; a listing needs a sex, staff correct "male" on the draft.
    assert capture.protocol in listing.name and listing.sex == "male"
    assert listing.photos == []


def test_cab_11_iii_a_horse_is_adopted_without_a_portal_listing(app):
    # CAB 11 III lists adoption for every impounded animal (13: bovines and equines too); the
    # portal's adoption listings are for dogs and cats, so the decision stands alone.
    # CAB 20: after the auction, which failed.
    capture = _horse(CAB)
    _destine(CAB, capture, date(2026, 3, 8), "auction")
    services.record_auction_outcome(capture, sold=False, actor=_agent(), today=date(2026, 3, 20))
    decision = _destine(CAB, capture, date(2026, 3, 20), "adoption", listing_name="Pé de Pano")
    assert (decision.destination, decision.listing_id) == ("adoption", None)
    assert capture.status == CaptureStatus.DESTINED
    assert db.session.query(Listing).count() == 0


# -- Lei 14.228/2021: dogs and cats; other species follow the municipal law ----------------------


@pytest.mark.parametrize("species", ["dog", "cat"])
def test_lei_14228_art_2_a_laudo_typed_at_the_decision_is_not_the_federal_procedure(app, species):
    # Art. 2º §1º-2º: the laudo goes to the NGOs first; one typed only at the decision is not it.
    capture = _capture(GRU, MONDAY, species=species, condition="serious")
    kwargs = {"vet_report": LAUDO, "vet_crmv": "CRMV-SP 1", "incurable": True, "actor": _vet()}
    assert _why(GRU, capture, date(2026, 3, 10), "euthanasia", **kwargs) == (
        "destination",
        "euthanasia_refused",
    )


def test_lei_14228_art_2_only_the_vet_decides_a_dogs_euthanasia_on_the_laudo(app):
    # GRU: captured Mon 2 Mar, hold to Thu 5 Mar; laudo of an incurable infectious disease
    # (no NGO claim window) on Tue 3 Mar; decided Mon 9 Mar.
    capture = _capture(GRU, MONDAY, condition="serious")
    proposal = _laudo(capture, day=date(2026, 3, 3), infectious=True)
    assert _why(GRU, capture, date(2026, 3, 9), "euthanasia") == (
        "destination",
        "euthanasia_refused",
    )
    decision = _destine(GRU, capture, date(2026, 3, 9), "euthanasia", actor=_vet())
    # The decision carries the laudo on record, and the laudo is decided.
    assert (decision.vet_report, decision.vet_crmv) == (proposal.vet_report, "CRMV-SP 77")
    assert decision.before_deadline is False and proposal.status == ProposalStatus.DECIDED
    assert factories.audit_events("impound.destined")[0].detail == {
        "destination": "euthanasia",
        "before_deadline": False,
        "vet_report": True,
    }


def test_lei_14228_art_2_par_2_euthanasia_decided_only_the_day_after_the_ngo_window(app):
    # Laudo on Tue 3 Mar (GRU): the NGOs have 3 business days, Wed 4, Thu 5, Fri 6 Mar.
    capture = _capture(GRU, MONDAY, condition="serious")
    proposal = _laudo(capture, day=date(2026, 3, 3))
    assert proposal.claim_until == date(2026, 3, 6)
    assert _why(GRU, capture, date(2026, 3, 6), "euthanasia", actor=_vet()) == (
        "destination",
        "ngo_claim_window_open",
    )
    decision = _destine(GRU, capture, date(2026, 3, 7), "euthanasia", actor=_vet())
    assert decision.destination == "euthanasia" and proposal.status == ProposalStatus.DECIDED


def test_lei_14228_another_destination_withdraws_the_open_laudo(app):
    capture = _capture(GRU, MONDAY, condition="serious")
    proposal = _laudo(capture, day=date(2026, 3, 3))
    org = factories.make_org()
    _destine(GRU, capture, date(2026, 3, 9), "ngo_donation", organization_id=org.id)
    assert proposal.status == ProposalStatus.WITHDRAWN


@pytest.mark.parametrize(("profile", "day"), [(CABO, date(2026, 3, 6)), (CAB, date(2026, 3, 8))])
def test_cabo_13_v_a_horse_euthanised_on_the_vets_laudo_of_incurable_disease(app, profile, day):
    # CABO 13 V, CAB 11 V / 20: the municipal law allows it for other species; the portal asks
    # the vet's laudo and CRMV. CABO hold to Thu 5 Mar, CAB to Sat 7 Mar.
    capture = _horse(profile, condition="serious")
    vet = _vet()
    decision = _destine(
        profile,
        capture,
        day,
        "euthanasia",
        actor=vet,
        vet_report=f" {LAUDO} ",
        vet_crmv=" CRMV-PE 9 ",
        lab_exam=" Raio-X ",
        incurable=True,
    )
    assert (decision.vet_report, decision.vet_crmv, decision.lab_exam) == (
        LAUDO,
        "CRMV-PE 9",
        "Raio-X",
    )
    assert (decision.destination, decision.decided_by_id) == ("euthanasia", vet.id)


def test_cabo_13_v_a_horses_euthanasia_needs_the_vet_the_laudo_and_its_incurable_finding(app):
    capture = _horse(CABO, condition="serious")
    day = date(2026, 3, 6)  # after the hold (Thu 5 Mar)
    full = {"vet_report": LAUDO, "vet_crmv": "CRMV-PE 9", "incurable": True}
    for actor, changed in (
        (_agent(), {}),  # not a vet
        (_vet(), {"vet_report": "  "}),  # no laudo
        (_vet(), {"incurable": False}),  # the laudo states no incurable disease
    ):
        err = _refusal(CABO, capture, day, "euthanasia", actor=actor, **{**full, **changed})
        assert (err.field, err.code) == ("destination", "euthanasia_refused")
        assert FEDERAL in err.message
    for crmv in (None, "  "):
        assert _why(
            CABO, capture, day, "euthanasia", actor=_vet(), **{**full, "vet_crmv": crmv}
        ) == (
            "vet_crmv",
            "required",
        )
    assert db.session.query(DestinationDecision).count() == 0


def test_lei_14228_a_destination_with_no_laudo_stores_none(app):
    capture = _capture(GRU, MONDAY)
    decision = _destine(
        GRU, capture, date(2026, 3, 6), vet_report="  ", vet_crmv=" ", lab_exam="  "
    )
    assert (decision.vet_report, decision.vet_crmv, decision.lab_exam) == (None, None, None)
    assert decision.capture_id == capture.id and capture.destinations == [decision]
    assert factories.audit_events("impound.destined")[0].detail["vet_report"] is False


# -- GRU 88 II: the signed laudo of another species' euthanasia -----------------------------------

PDF = b"%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n"


def test_gru_88_ii_the_laudo_file_keeps_its_name_and_a_bad_one_says_why(app):
    full = {"vet_report": LAUDO, "vet_crmv": "CRMV-SP 9", "incurable": True}
    capture = _horse(GRU, condition="serious")
    day = date(2026, 3, 20)
    err = _refusal(
        GRU,
        capture,
        day,
        "euthanasia",
        actor=_vet(),
        laudo_file=(io.BytesIO(b"not a document"), "laudo.txt"),
        **full,
    )
    assert (err.field, err.code) == ("laudo_file", "invalid_file")
    assert err.message == "Envie um PDF ou uma foto (JPEG, PNG, WebP ou HEIC) do documento."
    decision = _destine(
        GRU,
        capture,
        day,
        "euthanasia",
        actor=_vet(),
        laudo_file=(io.BytesIO(PDF), "laudo-cavalo.pdf"),
        **full,
    )
    assert decision.laudo_file.original_name == "laudo-cavalo.pdf"


# -- CAB 20: the public auction's outcome ---------------------------------------------------------


@pytest.mark.parametrize(("sold", "outcome"), [(True, "sold"), (False, "failed")])
def test_cab_20_the_auction_outcome_is_kept_and_audited(app, sold, outcome):
    capture = _horse(CAB)
    day = date(2026, 3, 20)
    auction = _destine(CAB, capture, day, "auction")
    agent = _agent()
    assert services.record_auction_outcome(capture, sold=sold, actor=agent, today=day) is auction
    assert auction.auction_outcome == outcome
    [event] = factories.audit_events("impound.auction_outcome")
    assert (event.subject_type, event.subject_id) == ("Capture", str(capture.id))
    assert (event.detail, event.actor_id) == ({"outcome": outcome}, agent.id)


def test_cab_20_no_auction_outcome_is_refused_beside_the_outcome_field(app):
    capture = _horse(CAB)
    with pytest.raises(DomainError) as caught:
        services.record_auction_outcome(capture, sold=True, actor=_agent(), today=MONDAY)
    assert (caught.value.field, caught.value.code) == ("outcome", "no_auction")


def test_cab_20_after_a_failed_auction_the_latest_decision_is_the_one_read(app):
    capture = _horse(CAB)
    day = date(2026, 3, 20)
    _destine(CAB, capture, day, "auction")
    services.record_auction_outcome(capture, sold=False, actor=_agent(), today=day)
    adoption = _destine(CAB, capture, day, "adoption")
    assert capture.destinations[-1] is adoption and capture.status == CaptureStatus.DESTINED
    assert services.pending_auction(capture) is None


def test_gru_88_ii_a_laudo_kept_by_the_forms_draft_becomes_the_decisions_private_file(app):
    from portal.services.uploads import store_document

    kept = store_document(io.BytesIO(PDF), purpose="draft", owner_id=None, filename="laudo.pdf")
    kept.public = True  # whatever the draft held, the laudo is for staff only
    decision = _destine(
        GRU,
        _horse(GRU, condition="serious"),
        date(2026, 3, 20),
        "euthanasia",
        actor=_vet(),
        laudo_file=kept,
        vet_report=LAUDO,
        vet_crmv="CRMV-SP 9",
        incurable=True,
    )
    assert decision.laudo_file is kept
    assert (kept.purpose, kept.owner_id, kept.public) == ("impound_laudo", None, False)

"""Edges of recording a capture and of the certidão negativa de captura (issue 16): what a capture
stores (the protocol per year, the animal found by tag or microchip, the owner of the day, the hold
deadline per profile through the date engine, the capture number counted from the first capture,
the photos, the report it came from), each refusal's field and code, the audit trail, the owner's
e-mail and the definitive apprehension at the third capture (GRU 82 §4, 83 §ú, 84, 87 III, 113,
114; BJP 25 §1-2; VV 22 §3; CAB 12, 14, 30; CABO 10 §ú a); the custody list and its next steps;
and the certidão (GRU 84 §3, §5): who may ask, on which exam day, what it states and who sees it.

Dates are 2026 unless said otherwise: Monday 2 March; Saturday 7 March; Good Friday 3 April
(national); Tiradentes, Tuesday 21 April (national); Revolução Constitucionalista, Thursday
9 July (SP only)."""

from __future__ import annotations

import io
import re
from datetime import UTC, date, datetime

import pytest

from portal.blueprints.animals.rga import format_rga
from portal.blueprints.impound import services
from portal.blueprints.impound.apprehension import apprehension_document
from portal.extensions import db
from portal.models import (
    CaptureCertificate,
    CaptureStatus,
    CertificateStatus,
    InspectionOutcome,
    MaltreatmentReport,
    MunicipalHoliday,
    ReclaimRecord,
    ReclaimStatus,
    ReportState,
    StoredFile,
)
from tests import factories
from tests.integration.impound.test_impound_laudos import _mail_to
from tests.integration.impound.test_impound_rules import (
    BJP,
    CAB,
    CABO,
    GRU,
    VV,
    _data,
    _home_again,
    _pay,
)
from tests.integration.impound.test_reclaim_edges import _refused, _start

MONDAY = date(2026, 3, 2)
GRU_87_III = "GRU 87 III"  # the article of the definitive apprehension at the third capture
UNKNOWN_RGA = format_rga("dog", 2026, 987654)  # a well-formed number nobody holds


def _agent():  # type: ignore[no-untyped-def]
    return factories.user(roles=("agent",))


def _record(profile, day=MONDAY, *, agent=None, today=None, **fields):  # type: ignore[no-untyped-def]
    return services.record_capture(
        profile, _home_again(_data(day, **fields)), agent=agent or _agent(), today=today or day
    )


def _owned(**fields):  # type: ignore[no-untyped-def]
    owner = factories.user(**fields)
    return owner, factories.animal(owner)


def _events(action: str, capture=None):  # type: ignore[no-untyped-def]
    events = factories.audit_events(action)
    if capture is None:
        return events
    return [e for e in events if e.subject_id == str(capture.id)]


# -- The capture record: what is stored -----------------------------------------------------------


def test_gru_82_capture_stores_what_was_typed_cleaned_and_the_animal_of_the_tag(app):
    # GRU 82 §4: small animal captured Mon 2 Mar; 3 business days, start day excluded (GRU 114):
    # Tue 3, Wed 4, Thu 5 Mar.
    owner, pet = _owned()
    agent = _agent()
    capture = _record(
        GRU,
        agent=agent,
        tag_read=f"  {pet.rga.lower()}  ",
        microchip="985 112-003.000 77",
        color="  Caramelo  ",
        place="  Rua X, 10  ",
        district="  Centro  ",
        condition="injured",
        condition_note="  pata traseira ferida  ",
        latitude=-23.45,
        longitude=-46.53,
        sex="female",
        size="small",
        species="cat",
        reason="invader",
    )
    assert capture.protocol == "CAP-2026-000001"
    assert (capture.species, capture.size, capture.sex) == ("cat", "small", "female")
    assert (capture.color, capture.place, capture.district) == ("Caramelo", "Rua X, 10", "Centro")
    assert capture.tag_read == pet.rga.lower()  # as read on the tag, without the blanks
    assert capture.microchip == "98511200300077"
    assert capture.tagged is True
    assert (capture.animal_id, capture.owner_id) == (pet.id, owner.id)
    assert (capture.latitude, capture.longitude) == (-23.45, -46.53)
    assert capture.captured_on == MONDAY
    assert capture.captured_at == datetime(2026, 3, 2, 13, tzinfo=UTC)
    assert (capture.reason, capture.reason_article) == ("invader", "GRU 82 §4")
    assert (capture.condition, capture.condition_note) == ("injured", "pata traseira ferida")
    assert capture.custody_type == "ordinary"
    assert (capture.agent_id, capture.report_id) == (agent.id, None)
    assert capture.status == CaptureStatus.IN_CUSTODY
    assert capture.deadline_on == date(2026, 3, 5)
    assert capture.capture_number == 1
    assert capture.definitive_article is None and capture.photos == []


def test_gru_82_unidentified_animal_has_no_animal_no_owner_and_is_the_first_capture(app):
    # GRU 84 §1 I: without an RGA nothing links it to earlier captures: always the 1st.
    first = _record(GRU)
    second = _record(GRU, condition_note="   ")
    for capture in (first, second):
        assert (capture.animal_id, capture.owner_id, capture.owner) == (None, None, None)
        assert (capture.tag_read, capture.microchip, capture.tagged) == (None, None, False)
        assert capture.condition_note is None
        assert capture.capture_number == 1
        assert capture.status == CaptureStatus.IN_CUSTODY
    assert [e.detail for e in _events("impound.owner_notified")] == []


def test_capture_protocol_numbered_per_year_of_the_capture_day(app):
    # One counter per year of the capture day (CAP-<year>-<6 digits>), whatever day it is typed.
    first = _record(GRU, date(2026, 3, 2))
    second = _record(GRU, date(2026, 3, 3))
    late_entry = _record(GRU, date(2025, 12, 31), today=date(2026, 1, 2))
    next_of_2025 = _record(GRU, date(2025, 12, 30), today=date(2026, 1, 2))
    third = _record(GRU, date(2026, 3, 4))
    assert [c.protocol for c in (first, second, late_entry, next_of_2025, third)] == [
        "CAP-2026-000001",
        "CAP-2026-000002",
        "CAP-2025-000001",
        "CAP-2025-000002",
        "CAP-2026-000003",
    ]


def test_gru_82_capture_audited_with_protocol_animal_number_and_deadline(app):
    owner, pet = _owned()
    capture = _record(GRU, tag_read=pet.rga)
    [event] = _events("impound.captured", capture)
    assert (event.subject_type, event.subject_id) == ("Capture", str(capture.id))
    assert event.detail == {
        "protocol": "CAP-2026-000001",
        "animal_id": pet.id,
        "capture_number": 1,
        "deadline": "2026-03-05",  # GRU 82 §4: Tue 3, Wed 4, Thu 5 Mar
        "report": None,
    }
    unidentified = _record(GRU, date(2026, 3, 6))
    [event] = _events("impound.captured", unidentified)
    # GRU 114: Fri 6 Mar → Mon 9, Tue 10, Wed 11 Mar
    assert event.detail == {
        "protocol": "CAP-2026-000002",
        "animal_id": None,
        "capture_number": 1,
        "deadline": "2026-03-11",
        "report": None,
    }


# -- Identification: the tag, then the microchip --------------------------------------------------


def test_rga_tag_unknown_number_falls_back_to_the_microchip(app):
    owner = factories.user()
    pet = factories.animal(owner, microchip="985112003000077")
    assert services.lookup_animal(pet.rga, None) is pet
    assert services.lookup_animal(UNKNOWN_RGA, "985.112.003.000-077") is pet
    assert services.lookup_animal(UNKNOWN_RGA, None) is None
    assert services.lookup_animal(None, "985 112 003 000 077") is pet
    assert services.lookup_animal("   ", "985112003000077") is pet  # a blank read is no read
    assert services.lookup_animal(None, "111222333444555") is None
    assert services.lookup_animal(None, " -.- ") is None  # nothing left of the chip
    assert services.lookup_animal(None, None) is None
    factories.animal(factories.user(), microchip="111222333444555")
    assert services.lookup_animal(pet.rga, "111222333444555") is pet  # the tag wins


def test_rga_check_digit_wrong_on_the_tag_is_refused_before_anything_is_stored(app):
    owner, pet = _owned()
    wrong = pet.rga[:-1] + str((int(pet.rga[-1]) + 1) % 10)
    err = _refused(services.lookup_animal, wrong, None)
    assert (err.field, err.code) == ("tag_read", "invalid_rga")
    err = _refused(_record, GRU, tag_read=wrong)
    assert (err.field, err.code) == ("tag_read", "invalid_rga")
    assert _events("impound.captured") == []


def test_capture_by_microchip_links_the_animal_but_is_not_tagged_bjp_25_2(app):
    # BJP 25 §2: no tag, 3 days counting the capture day: Mon 2, Tue 3, Wed 4 Mar, even when a
    # microchip identifies the animal. A blank tag read is no tag either.
    owner = factories.user()
    pet = factories.animal(owner, microchip="985112003000077")
    capture = _record(BJP, microchip="985-112-003-000-077", tag_read="   ")
    assert (capture.animal_id, capture.owner_id) == (pet.id, owner.id)
    assert (capture.tag_read, capture.tagged) == (None, False)
    assert capture.microchip == "985112003000077"
    assert capture.deadline_on == date(2026, 3, 4)


def test_bjp_25_1_tag_of_an_unregistered_number_still_counts_as_tagged(app):
    # BJP 25 §1: it carries a tag: 5 days counting the capture day, Mon 2 … Fri 6 Mar; the number
    # is not on file, so no animal or owner is linked.
    capture = _record(BJP, tag_read=UNKNOWN_RGA)
    assert (capture.animal_id, capture.owner_id) == (None, None)
    assert (capture.tagged, capture.tag_read) == (True, UNKNOWN_RGA)
    assert capture.deadline_on == date(2026, 3, 6)
    assert capture.capture_number == 1


# -- Refusals: field and code ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("species", "bird"),
        ("size", "giant"),
        ("sex", "x"),
        ("reason", "barking"),
        ("condition", "dead"),
        ("custody_type", "quarantine"),
    ],
)
def test_gru_10_capture_choices_outside_the_options_are_refused(app, field, value):
    err = _refused(_record, GRU, **{field: value})
    assert (err.field, err.code) == (field, "invalid")
    assert _events("impound.captured") == []


def test_capture_first_invalid_choice_is_the_one_reported(app):
    err = _refused(_record, GRU, size="giant", condition="dead", color="")
    assert (err.field, err.code) == ("size", "invalid")
    err = _refused(_record, GRU, custody_type="quarantine", color=" ")
    assert (err.field, err.code) == ("custody_type", "invalid")


@pytest.mark.parametrize("field", ["color", "place", "district"])
def test_capture_color_place_and_district_required(app, field):
    err = _refused(_record, GRU, **{field: "  \t "})
    assert (err.field, err.code) == (field, "required")


def test_capture_day_in_the_future_refused_today_accepted(app):
    err = _refused(_record, GRU, date(2026, 3, 3), today=MONDAY)
    assert (err.field, err.code) == ("captured_at", "future")
    assert _record(GRU, MONDAY, today=MONDAY).captured_on == MONDAY


@pytest.mark.parametrize(
    "fields",
    [
        {"species": "other", "size": "large", "sex": "unknown"},
        {"species": "cat", "size": "medium", "condition": "ill", "reason": "aggressive"},
        {"custody_type": "aggressive", "reason": "aggressive", "condition": "serious"},
    ],
    ids=["other_large_unknown_sex", "cat_medium_ill", "aggressive_custody"],
)
def test_capture_every_offered_choice_is_accepted(app, fields):
    capture = _record(GRU, **fields)
    for name, value in fields.items():
        assert getattr(capture, name) == value


# -- The hold deadline, per profile ---------------------------------------------------------------

DEADLINES = [
    # GRU 82 §4: 3 business days, start excluded (GRU 114): Tue 3, Wed 4, Thu 5 Mar.
    pytest.param(GRU, MONDAY, {}, date(2026, 3, 5), id="gru_82_4_small"),
    # GRU 82 §4: medium and large 5 business days: Tue 3, Wed 4, Thu 5, Fri 6, Mon 9 Mar. A
    # medium animal is a pig, goat or sheep (GRU 10 XVI), never a dog (10 XV; issue 27 #1).
    pytest.param(
        GRU,
        MONDAY,
        {"species": "other", "size": "medium"},
        date(2026, 3, 9),
        id="gru_82_4_medium",
    ),
    # GRU 114 §ú: Sat 7 Mar; the start moves to Mon 9 (excluded): Tue 10, Wed 11, Thu 12 Mar.
    pytest.param(GRU, date(2026, 3, 7), {}, date(2026, 3, 12), id="gru_114_start_saturday"),
    # GRU 114: Thu 2 Apr; Good Friday and the weekend skipped: Mon 6, Tue 7, Wed 8 Apr.
    pytest.param(GRU, date(2026, 4, 2), {}, date(2026, 4, 8), id="gru_114_good_friday"),
    # GRU 114 §ú: captured on Good Friday itself: start Mon 6 (excluded): Tue 7, Wed 8, Thu 9.
    pytest.param(GRU, date(2026, 4, 3), {}, date(2026, 4, 9), id="gru_114_start_holiday"),
    # GRU 114: Wed 31 Dec 2025; 1 Jan and the weekend skipped: Fri 2, Mon 5, Tue 6 Jan 2026.
    pytest.param(GRU, date(2025, 12, 31), {}, date(2026, 1, 6), id="gru_114_new_year"),
    # GRU 114: Fri 17 Apr → Mon 20, (Tue 21 Tiradentes), Wed 22, Thu 23 Apr.
    pytest.param(GRU, date(2026, 4, 17), {}, date(2026, 4, 23), id="gru_114_tiradentes"),
    # GRU 61 + 82 §4: rabies observation of 10 calendar days (Thu 12 Mar), then the ordinary
    # hold: Fri 13, Mon 16, Tue 17 Mar.
    pytest.param(
        GRU,
        MONDAY,
        {"custody_type": "observation", "reason": "observation"},
        date(2026, 3, 17),
        id="gru_61_observation_then_hold",
    ),
    # BJP 25 §1: tagged, 5 days counting the capture day: Wed 4 … Sun 8 Mar (no move).
    pytest.param(BJP, date(2026, 3, 4), {"tag": True}, date(2026, 3, 8), id="bjp_25_1_tagged"),
    # BJP 25 §2: untagged, 3 days counting the capture day: Wed 4, Thu 5, Fri 6 Mar.
    pytest.param(BJP, date(2026, 3, 4), {}, date(2026, 3, 6), id="bjp_25_2_untagged"),
    # VV 22 §3: 5 calendar days from the apprehension: Sat 7 Mar (a Saturday counts).
    pytest.param(VV, MONDAY, {}, date(2026, 3, 7), id="vv_22_3_calendar"),
    # CAB 12, 19: 5 days from the apprehension day (excluded): Sat 7 Mar, large too.
    pytest.param(CAB, MONDAY, {"size": "large"}, date(2026, 3, 7), id="cab_12_19_five_days"),
    # CAB 30: 10 days of observation (Thu 12 Mar), CAB 14: then 48 hours: Sat 14 Mar.
    pytest.param(
        CAB,
        MONDAY,
        {"custody_type": "observation", "reason": "observation"},
        date(2026, 3, 14),
        id="cab_14_30_observation",
    ),
    # CABO 10 §ú a: 3 days: Thu 5 Mar.
    pytest.param(CABO, MONDAY, {}, date(2026, 3, 5), id="cabo_10_a_three_days"),
]


@pytest.mark.parametrize(("profile", "day", "fields", "last_day"), DEADLINES)
def test_gru_82_4_bjp_25_vv_22_3_cab_12_14_cabo_10_deadline_stored_on_the_capture(
    app, profile, day, fields, last_day
):
    fields = dict(fields)
    if fields.pop("tag", False):
        fields["tag_read"] = factories.animal(factories.user()).rga
    capture = _record(profile, day, **fields)
    assert capture.deadline_on == last_day
    [event] = _events("impound.captured", capture)
    assert event.detail["deadline"] == last_day.isoformat()


def test_gru_114_municipal_holiday_entered_moves_the_capture_deadline(app):
    # GRU 114: Mon 2 Mar; Wed 4 Mar entered as a municipal holiday → Tue 3, Thu 5, Fri 6 Mar.
    db.session.add(MunicipalHoliday(day=date(2026, 3, 4), name="Feriado municipal de teste"))
    db.session.flush()
    assert _record(GRU).deadline_on == date(2026, 3, 6)


@pytest.mark.parametrize(
    ("profile", "article"),
    [
        pytest.param(GRU, "GRU 61", id="gru_61"),
        pytest.param(CAB, "CAB 14, 30", id="cab_14_30"),
        pytest.param(BJP, "BJP 25 §1-2", id="bjp_no_observation_article"),
        pytest.param(VV, "VV 22 §3", id="vv_no_observation_article"),
    ],
)
def test_cab_30_gru_61_observation_reason_cites_the_observation_article(app, profile, article):
    assert _record(profile, reason="observation").reason_article == article
    # other reasons rest on the hold article of the profile
    assert _record(profile, reason="loose").reason_article == profile.impound.article


# -- The capture number (GRU 83 §ú, 84 §1, 87 III, 113) --------------------------------------------


def test_gru_84_1_second_capture_is_number_two_and_stays_reclaimable(app):
    owner, pet = _owned()
    _record(GRU, date(2025, 6, 2), tag_read=pet.rga)
    before = len(_mail_to(owner.email))
    second = _record(GRU, date(2026, 2, 2), tag_read=pet.rga)
    assert second.capture_number == 2
    assert second.status == CaptureStatus.IN_CUSTODY
    assert (second.definitive_article, second.definitive_reason) == (None, None)
    assert _events("impound.definitive_opened") == []
    assert apprehension_document(second) is None
    [mail] = _mail_to(owner.email)[before:]
    assert f"http://localhost/meus-recolhimentos/{second.protocol}" in mail.body


def test_gru_87_iii_third_capture_opens_the_definitive_apprehension_without_a_second_mail(app):
    # GRU 84 §1 II, 87 III: 3rd capture within 5 years of the first (2022-05-02 → 2027-05-02).
    owner, pet = _owned()
    agent = _agent()
    _record(GRU, date(2022, 5, 2), tag_read=pet.rga)
    _record(GRU, date(2024, 8, 5), tag_read=pet.rga)
    before = len(_mail_to(owner.email))
    third = _record(GRU, date(2026, 3, 2), tag_read=pet.rga, agent=agent)
    assert third.capture_number == 3
    assert third.status == CaptureStatus.DEFINITIVE_PENDING
    assert third.definitive_article == GRU_87_III
    assert third.definitive_reason == (
        "3ª captura do animal dentro do prazo de 5 anos contado da primeira captura."
    )
    [opened] = _events("impound.definitive_opened", third)
    assert opened.detail == {"article": GRU_87_III} and opened.actor_id == agent.id
    doc = apprehension_document(third)
    assert doc is not None and doc.capture_id == third.id
    # notify=False: only the capture e-mail, which tells of the procedure instead of the reclaim
    [mail] = _mail_to(owner.email)[before:]
    assert mail.subject == f"Seu animal foi recolhido pelo CCZ ({third.protocol})"
    assert f"procedimento de apreensão definitiva ({GRU_87_III})" in mail.body
    assert "meus-recolhimentos" not in mail.body
    [event] = _events("impound.captured", third)
    assert event.detail["capture_number"] == 3


def test_gru_87_iii_fourth_capture_after_an_apprehension_not_upheld_opens_it_again(app):
    # GRU 84 §1 II: 4 captures within 5 years of the first; the 3rd's procedure was not upheld
    # (GRU 87 §ú), so the count goes on: the 4th is again at or above the 3rd.
    owner, pet = _owned()
    for day in (date(2023, 1, 9), date(2024, 1, 8), date(2025, 1, 6)):
        _record(GRU, day, tag_read=pet.rga)
    third = services.find_by_protocol("CAP-2025-000001")
    assert third is not None and third.capture_number == 3
    services.decide_definitive_apprehension(
        third, upheld=False, actor=None, document=apprehension_document(third)
    )
    fourth = _record(GRU, date(2026, 1, 5), tag_read=pet.rga)
    assert fourth.capture_number == 4
    assert fourth.status == CaptureStatus.DEFINITIVE_PENDING
    assert fourth.definitive_reason == (
        "4ª captura do animal dentro do prazo de 5 anos contado da primeira captura."
    )


@pytest.mark.parametrize(
    ("first", "number", "status"),
    [
        # GRU 113 + Código Civil 132 §3: 2021-03-10 weighs until 2026-03-10 inclusive → 3rd.
        pytest.param(date(2021, 3, 10), 3, CaptureStatus.DEFINITIVE_PENDING, id="last_day"),
        # 2021-03-09 prescribed on 2026-03-09: on 2026-03-10 only two count.
        pytest.param(date(2021, 3, 9), 2, CaptureStatus.IN_CUSTODY, id="day_after"),
    ],
)
def test_gru_113_first_capture_counts_until_its_fifth_anniversary(app, first, number, status):
    owner, pet = _owned()
    _record(GRU, first, tag_read=pet.rga)
    _record(GRU, date(2023, 7, 3), tag_read=pet.rga)
    third = _record(GRU, date(2026, 3, 10), tag_read=pet.rga)
    assert (third.capture_number, third.status) == (number, status)


def test_bjp_has_no_capture_count_article_every_capture_numbers_and_none_is_definitive(app):
    # BJP sets no period nor a definitive apprehension for repeat captures: 2015, 2020, 2026 are
    # the 1st, 2nd and 3rd captures of the animal and it stays reclaimable.
    owner, pet = _owned()
    numbers = [
        _record(BJP, day, tag_read=pet.rga)
        for day in (date(2015, 3, 2), date(2020, 3, 2), date(2026, 3, 2))
    ]
    assert [c.capture_number for c in numbers] == [1, 2, 3]
    # the earlier two went home before the next capture; none opened a definitive apprehension
    assert [c.status for c in numbers] == [CaptureStatus.RELEASED] * 2 + [CaptureStatus.IN_CUSTODY]
    assert _events("impound.definitive_opened") == []


def test_gru_83_count_follows_the_animal_and_the_capture_keeps_the_owner_of_its_day(app):
    seller, buyer = factories.user(), factories.user()
    pet = factories.animal(seller)
    first = _record(GRU, date(2025, 6, 2), tag_read=pet.rga)
    pet.owner = buyer  # GRU 84 §2: "ainda que aliene o animal"
    db.session.flush()
    second = _record(GRU, date(2026, 2, 2), tag_read=pet.rga)
    assert (first.owner_id, second.owner_id) == (seller.id, buyer.id)
    assert second.capture_number == 2
    assert [m.subject for m in _mail_to(buyer.email)] == [
        f"Seu animal foi recolhido pelo CCZ ({second.protocol})"
    ]
    assert len(_mail_to(seller.email)) == 1


# -- The owner's e-mail --------------------------------------------------------------------------


def test_gru_82_4_owner_e_mailed_with_rga_city_day_district_reason_article_and_deadline(app):
    owner, pet = _owned(full_name="Rui Dono da Silva")
    capture = _record(GRU, tag_read=pet.rga, district=" Vila Galvão ")
    [mail] = _mail_to(owner.email)
    assert mail.subject == "Seu animal foi recolhido pelo CCZ (CAP-2026-000001)"
    assert mail.body == "\n".join(
        [
            "Olá, Rui Dono da Silva.",
            "",
            f"O animal de RGA {pet.rga} foi recolhido pelo Centro de Controle de Zoonoses de "
            "Guarulhos em 02/03/2026, no bairro Vila Galvão (protocolo CAP-2026-000001).",
            "Motivo: Solto ou desacompanhado em via pública (GRU 82 §4).",
            # GRU 82 §4: Tue 3, Wed 4, Thu 5 Mar
            "Ele está sob a guarda do CCZ. Prazo para o resgate: até 05/03/2026.",
            "",
            "Para resgatar, inicie o resgate pelo portal e pague a taxa, ou vá ao CCZ com "
            "documento com foto e o comprovante de vacinação antirrábica: "
            "http://localhost/meus-recolhimentos/CAP-2026-000001",
        ]
    )
    [event] = _events("impound.owner_notified", capture)
    assert event.detail == {"protocol": "CAP-2026-000001"}


def test_bjp_25_1_owner_e_mail_names_the_city_and_the_article_of_its_profile(app):
    # BJP 25 §1: tagged, Wed 4 Mar … Sun 8 Mar, the capture day included.
    owner, pet = _owned()
    _record(BJP, date(2026, 3, 4), tag_read=pet.rga, reason="aggressive")
    [mail] = _mail_to(owner.email)
    assert (
        "recolhido pelo Centro de Controle de Zoonoses de Bom Jesus dos Perdões em 04/03/2026"
        in mail.body
    )
    assert "Motivo: Animal agressivo ou mordedor (BJP 25 §1-2)." in mail.body
    assert "Prazo para o resgate: até 08/03/2026." in mail.body


def test_cab_14_observation_e_mail_gives_the_end_of_the_48_hours(app):
    # CAB 30: 10 days (Thu 12 Mar); CAB 14: 48 hours → Sat 14 Mar.
    owner, pet = _owned()
    _record(CAB, tag_read=pet.rga, custody_type="observation", reason="observation")
    [mail] = _mail_to(owner.email)
    assert "de Cabeceira Grande em 02/03/2026" in mail.body
    assert "Motivo: Observação de raiva após agressão (CAB 14, 30)." in mail.body
    assert "Prazo para o resgate: até 14/03/2026." in mail.body


def test_owner_without_e_mail_is_not_mailed_nor_audited_as_notified(app):
    owner = factories.user(email=None)
    pet = factories.animal(owner)
    capture = _record(GRU, tag_read=pet.rga)
    assert capture.owner_id == owner.id
    assert _events("impound.owner_notified") == []
    assert [e.detail["animal_id"] for e in _events("impound.captured")] == [pet.id]


def test_lost_animal_alert_matched_by_the_new_capture(app):
    person = factories.user()
    alert = services.create_alert(
        person,
        services.AlertData(
            species="dog", lost_on=date(2026, 3, 1), color="caramelo", district="centro"
        ),
        date(2026, 3, 1),
    )
    capture = _record(GRU)
    assert alert.last_match_capture_id == capture.id
    [mail] = _mail_to(person.email)
    assert "Prazo para o resgate: até 05/03/2026." in mail.body


# -- Photos and the report the capture comes from -------------------------------------------------


def test_capture_photos_stored_public_in_order_with_their_names(app):
    capture = _record(
        GRU,
        photos=[(factories.png_bytes(), "frente.png"), (factories.png_bytes(), "lado.png")],
    )
    assert [p.position for p in capture.photos] == [0, 1]
    files = [db.session.get(StoredFile, p.stored_file_id) for p in capture.photos]
    assert [(f.purpose, f.public, f.owner_id, f.original_name) for f in files] == [
        ("capture", True, None, "frente.png"),
        ("capture", True, None, "lado.png"),
    ]


def test_capture_photo_that_is_not_an_image_refused_with_the_upload_message(app):
    err = _refused(_record, GRU, photos=[(io.BytesIO(b"isto nao e uma imagem"), "x.png")])
    assert (err.field, err.code) == ("photos", "invalid_photo")
    assert err.message == "O arquivo não é uma imagem válida (use JPEG, PNG, WebP ou HEIC)."


def _report(outcome=InspectionOutcome.CAPTURE_NEEDED) -> MaltreatmentReport:  # type: ignore[no-untyped-def]
    report = MaltreatmentReport(
        protocol="DEN-2026-000077",
        tracking_hash="z" * 64,
        category="no_shelter",
        description="Cão acorrentado",
        state=ReportState.INSPECTED,
        outcome=outcome,
        street="Rua das Palmeiras",
        number="77",
        district="Vila Rio",
        species="dog",
    )
    db.session.add(report)
    db.session.flush()
    return report


def test_capture_from_a_report_keeps_it_audits_it_and_tells_the_reporter_the_day(app):
    from portal.blueprints.reports.services import public_history

    report = _report()
    capture = _record(GRU, date(2026, 11, 30), report_protocol=" den-2026-000077 ")
    assert capture.report_id == report.id
    [event] = _events("impound.captured", capture)
    assert event.detail["report"] == "DEN-2026-000077"
    texts = [e.text for e in public_history(report) if e.text and "recolheu" in e.text]
    assert texts == ["O CCZ recolheu o animal em 30/11/2026."]


def test_capture_from_a_report_that_needs_none_or_does_not_exist_refused(app):
    _report(outcome=InspectionOutcome.NOTHING_FOUND)
    err = _refused(_record, GRU, report_protocol="DEN-2026-000077")
    assert (err.field, err.code) == (None, "capture_not_needed")
    err = _refused(_record, GRU, report_protocol="DEN-2026-999999")
    assert (err.field, err.code) == (None, "unknown")


# -- The custody list ----------------------------------------------------------------------------


def test_custody_rows_in_deadline_order_with_days_left_only_animals_still_held(app):
    late = _record(GRU, date(2026, 3, 4))  # Thu 5, Fri 6, Mon 9 Mar
    first = _record(GRU, MONDAY)  # Thu 5 Mar
    twin = _record(GRU, MONDAY)  # Thu 5 Mar, recorded after
    pending = _record(GRU, date(2026, 3, 3))  # Wed 4, Thu 5, Fri 6 Mar
    pending.status = CaptureStatus.DEFINITIVE_PENDING
    pending.definitive_article = "GRU 87 I"
    released = _record(GRU, MONDAY)
    released.status = CaptureStatus.RELEASED
    destined = _record(GRU, MONDAY)
    destined.status = CaptureStatus.DESTINED
    db.session.flush()
    rows = services.custody_rows(date(2026, 3, 6))
    assert [(r.capture, r.days_left) for r in rows] == [
        (first, -1),
        (twin, -1),
        (pending, 0),
        (late, 3),
    ]
    assert [r.next_step for r in rows] == [
        "Prazo vencido: decidir a destinação",
        "Prazo vencido: decidir a destinação",
        "Aguardar a decisão da apreensão definitiva (GRU 87 I)",
        "Aguardar o proprietário até o fim do prazo",
    ]


def test_next_step_on_the_last_day_and_the_day_after_the_hold(app):
    capture = _record(GRU)  # GRU 82 §4: last day Thu 5 Mar
    assert services.next_step(capture, date(2026, 3, 5)) == (
        "Aguardar o proprietário até o fim do prazo"
    )
    assert services.next_step(capture, date(2026, 3, 6)) == "Prazo vencido: decidir a destinação"


def test_cab_14_next_step_observation_until_its_last_day_then_deadline_passed(app):
    # CAB 30 + 14: observation and its 48 hours end Sat 14 Mar.
    capture = _record(CAB, custody_type="observation", reason="observation")
    assert services.next_step(capture, MONDAY) == "Observação antirrábica em curso"
    assert services.next_step(capture, date(2026, 3, 14)) == "Observação antirrábica em curso"
    assert services.next_step(capture, date(2026, 3, 15)) == "Prazo vencido: decidir a destinação"


def test_next_step_follows_the_reclaim_and_the_definitive_decision(app):
    owner, pet = _owned()
    staff = _agent()
    capture = _record(GRU, tag_read=pet.rga)
    assert services.active_reclaim(capture) is None
    reclaim = _start(GRU, capture, owner, staff)
    assert services.active_reclaim(capture) is reclaim
    assert services.next_step(capture, MONDAY) == "Aguardar o pagamento do resgate"
    _pay(reclaim, staff)
    assert reclaim.status == ReclaimStatus.PAID
    assert services.active_reclaim(capture) is reclaim
    # paid: release it, even after the deadline
    assert services.next_step(capture, date(2026, 3, 20)) == (
        "Liberar: conferir e registrar a devolução"
    )
    for closed in (ReclaimStatus.CANCELLED, ReclaimStatus.RELEASED):
        reclaim.status = closed
        assert services.active_reclaim(capture) is None
        assert services.next_step(capture, MONDAY) == "Aguardar o proprietário até o fim do prazo"
    # GRU 87 §ú, 88: upheld, the animal is the municipality's: a destination, not a reclaim
    capture.count_reset, capture.definitive_article = True, GRU_87_III
    assert services.next_step(capture, MONDAY) == (
        "Decidir a destinação (apreensão definitiva mantida)"
    )


def test_gru_61_observation_over_a_started_reclaim_waits_for_payment_not_observation(app):
    # GRU 61 + 82 §4: observed until Thu 12 Mar, reclaimable until Tue 17 Mar.
    owner, pet = _owned()
    capture = _record(GRU, tag_read=pet.rga, custody_type="observation", reason="observation")
    assert services.next_step(capture, date(2026, 3, 13)) == "Observação antirrábica em curso"
    reclaim = services.start_reclaim(
        GRU,
        capture,
        claimant=owner,
        channel="counter",
        started_by=_agent(),
        today=date(2026, 3, 13),
    )
    assert services.next_step(capture, date(2026, 3, 13)) == "Aguardar o pagamento do resgate"
    reclaim.status = ReclaimStatus.PAID
    assert services.next_step(capture, date(2026, 3, 13)) == (
        "Liberar: conferir e registrar a devolução"
    )


def test_gru_84_2_owner_page_lists_only_the_present_owners_captures_newest_first(app):
    seller, buyer = factories.user(), factories.user()
    pet = factories.animal(seller)
    _record(GRU, date(2025, 6, 2), tag_read=pet.rga)
    pet.owner = buyer
    db.session.flush()
    morning = _record(GRU, date(2026, 2, 2), tag_read=pet.rga)
    evening = _record(GRU, date(2026, 2, 2), tag_read=pet.rga)
    later = _record(GRU, date(2026, 2, 9), tag_read=pet.rga)
    _record(GRU, date(2026, 2, 10), tag_read=factories.animal(buyer).rga)  # another animal
    assert services.captures_of_animal(pet) == [later, evening, morning]


def test_find_by_protocol_as_typed(app):
    capture = _record(GRU)
    assert services.find_by_protocol("  cap-2026-000001 ") is capture
    assert services.find_by_protocol("CAP-2026-000002") is None


# -- Certidão negativa de captura (GRU 84 §3, §5) ------------------------------------------------


def _gru_without(**impound):  # type: ignore[no-untyped-def]
    """A municipality like Guarulhos without one of the two GRU 84 rules."""
    return GRU.model_copy(update={"impound": GRU.impound.model_copy(update=impound)})


def _request(profile=GRU, rga=None, *, exam_on=date(2026, 3, 3), today=MONDAY, requester=None):  # type: ignore[no-untyped-def]
    if rga is None:
        rga = factories.animal(factories.user()).rga
    return services.request_certificate(
        profile, rga, requester=requester or factories.user(), exam_on=exam_on, today=today
    )


def _issue(cert, today, *, confirmed=True, note="", staff=None, profile=GRU):  # type: ignore[no-untyped-def]
    return services.issue_certificate(
        profile, cert, confirmed=confirmed, note=note, staff=staff or _agent(), today=today
    )


def test_gru_84_3_certidao_offered_only_with_the_capture_count_and_the_certidao(app):
    assert services.certificates_offered(GRU)
    for profile in (BJP, VV, CAB, CABO):
        assert not services.certificates_offered(profile)
    assert not services.certificates_offered(_gru_without(capture_count=None))
    assert not services.certificates_offered(_gru_without(capture_certificate=False))


@pytest.mark.parametrize(
    "profile",
    [
        pytest.param(BJP, id="bjp"),
        pytest.param(_gru_without(capture_count=None), id="no_capture_count"),
        pytest.param(_gru_without(capture_certificate=False), id="no_certidao"),
    ],
)
def test_gru_84_3_certidao_request_refused_where_the_law_has_none(app, profile):
    err = _refused(_request, profile)
    assert (err.field, err.code) == (None, "not_offered")


def test_gru_84_3_certidao_request_stored_and_audited(app):
    # GRU 84 §5: the animal is brought on a business day after the request: Tue 3 Mar.
    owner, pet = _owned()
    buyer = factories.user()
    cert = _request(rga=f" {pet.rga.lower()} ", requester=buyer)
    assert re.fullmatch(r"CNC-[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{10}", cert.code)
    assert (cert.animal_id, cert.requester_id, cert.exam_on) == (pet.id, buyer.id, date(2026, 3, 3))
    assert cert.status == CertificateStatus.REQUESTED
    assert (cert.issued_on, cert.period_from, cert.period_to, cert.captures_in_period) == (
        None,
        None,
        None,
        None,
    )
    [event] = factories.audit_events("impound.certificate_requested")
    assert (event.subject_type, event.subject_id) == ("CaptureCertificate", str(cert.id))
    assert event.detail == {"rga": pet.rga}
    assert _request(rga=pet.rga).code != cert.code


@pytest.mark.parametrize(
    "rga", [UNKNOWN_RGA, "C-2026-12", "não sei"], ids=["unknown", "bad", "text"]
)
def test_gru_84_3_certidao_for_an_rga_not_on_file_refused(app, rga):
    err = _refused(_request, GRU, rga)
    assert (err.field, err.code) == ("rga", "unknown")


@pytest.mark.parametrize(
    ("exam_on", "today"),
    [
        # GRU 84 §5: from tomorrow on: the request day itself is not an exam day
        pytest.param(MONDAY, MONDAY, id="same_day"),
        pytest.param(date(2026, 2, 27), MONDAY, id="past_day"),
        pytest.param(date(2026, 3, 7), MONDAY, id="saturday"),
        pytest.param(date(2026, 3, 8), MONDAY, id="sunday"),
        pytest.param(date(2026, 4, 3), date(2026, 4, 1), id="good_friday"),
        pytest.param(date(2026, 7, 9), date(2026, 7, 6), id="sp_9_july"),
    ],
)
def test_gru_84_5_certidao_exam_only_on_a_business_day_after_today(app, exam_on, today):
    err = _refused(_request, GRU, exam_on=exam_on, today=today)
    assert (err.field, err.code) == ("exam_on", "not_business_day")


@pytest.mark.parametrize(
    ("exam_on", "today"),
    [
        pytest.param(date(2026, 3, 3), MONDAY, id="next_day"),
        pytest.param(date(2026, 3, 9), date(2026, 3, 6), id="monday_after_a_friday"),
        pytest.param(date(2026, 7, 10), date(2026, 7, 9), id="day_after_9_july"),
    ],
)
def test_gru_84_5_certidao_exam_on_a_business_day_accepted(app, exam_on, today):
    assert _request(exam_on=exam_on, today=today).exam_on == exam_on


def test_gru_84_5_certidao_exam_not_on_a_municipal_holiday_even_years_ahead(app):
    # Entered once in 2020 as repeating every year: 8 December; Mon 8 Dec 2031 is no exam day.
    db.session.add(
        MunicipalHoliday(day=date(2020, 12, 8), name="Imaculada Conceição", repeats_yearly=True)
    )
    db.session.flush()
    err = _refused(_request, GRU, exam_on=date(2031, 12, 8), today=date(2031, 12, 1))
    assert (err.field, err.code) == ("exam_on", "not_business_day")
    assert _request(exam_on=date(2031, 12, 9), today=date(2031, 12, 1)).exam_on == date(2031, 12, 9)


def test_gru_84_3_certidao_issued_counts_captures_within_five_years(app):
    # GRU 113: on 20 Jan 2026 the capture of 20 Jan 2021 still weighs (its last day), the one of
    # 19 Jan 2021 prescribed; 2023 counts: 2.
    owner, pet = _owned()
    for day in (date(2021, 1, 19), date(2021, 1, 20), date(2023, 5, 5)):
        _record(GRU, day, tag_read=pet.rga)
    cert = _request(rga=pet.rga, exam_on=date(2026, 1, 20), today=date(2026, 1, 19))
    staff = _agent()
    assert (
        _issue(cert, date(2026, 1, 20), note="  Plaqueta e microchip conferem ", staff=staff)
        is cert
    )
    assert cert.status == CertificateStatus.ISSUED
    assert (cert.examined_by_id, cert.exam_note) == (staff.id, "Plaqueta e microchip conferem")
    assert (cert.issued_on, cert.period_from, cert.period_to) == (
        date(2026, 1, 20),
        date(2021, 1, 20),
        date(2026, 1, 20),
    )
    assert cert.captures_in_period == 2
    [event] = factories.audit_events("impound.certificate_decided")
    assert (event.subject_type, event.subject_id) == ("CaptureCertificate", str(cert.id))
    assert event.detail == {"status": "issued"}
    assert services.certificate_json(cert) == {
        "code": cert.code,
        "rga": pet.rga,
        "captures_in_period": 2,
        "period_from": "2021-01-20",
        "period_to": "2026-01-20",
        "issued_on": "2026-01-20",
    }


def test_gru_84_3_certidao_negativa_of_an_animal_never_captured(app):
    owner, pet = _owned()
    other = factories.animal(owner)
    _record(GRU, date(2025, 5, 5), tag_read=other.rga)  # another animal of the same owner
    cert = _request(rga=pet.rga)
    _issue(cert, date(2026, 3, 3))
    assert (cert.captures_in_period, cert.exam_note) == (0, None)


@pytest.mark.parametrize(
    ("today", "period_from"),
    [
        # GRU 113: five years back, the same day and month
        pytest.param(date(2026, 2, 10), date(2021, 2, 10), id="a_day_of_february"),
        pytest.param(date(2026, 3, 29), date(2021, 3, 29), id="a_29th_not_in_february"),
        pytest.param(date(2028, 2, 28), date(2023, 2, 28), id="28_february_of_a_leap_year"),
    ],
)
def test_gru_113_certidao_period_is_five_years_back_from_the_issue_day(app, today, period_from):
    cert = _request(exam_on=date(2020, 1, 2), today=date(2020, 1, 1))
    _issue(cert, today)
    assert (cert.period_from, cert.period_to, cert.issued_on) == (period_from, today, today)


def test_gru_113_certidao_issued_on_29_february(app):
    # 29 Feb 2028: five years back has no 29 February (2023); 28 Feb 2023 prescribed on 28 Feb 2028
    # (CC 132 §3), so the period counted starts on 1 Mar 2023.
    owner, pet = _owned()
    _record(GRU, date(2023, 3, 1), tag_read=pet.rga)  # weighs until 1 Mar 2028 (CC 132 §3)
    cert = _request(rga=pet.rga, exam_on=date(2028, 2, 29), today=date(2028, 2, 28))
    _issue(cert, date(2028, 2, 29))
    assert cert.status == CertificateStatus.ISSUED
    assert cert.period_to == date(2028, 2, 29) and cert.issued_on == date(2028, 2, 29)
    assert cert.period_from == date(2023, 3, 1)
    assert cert.captures_in_period == 1


def test_gru_113_certidao_of_29_february_states_the_period_it_counted(app):
    owner, pet = _owned()
    _record(GRU, date(2023, 2, 28), tag_read=pet.rga)  # prescribed on 28 Feb 2028
    cert = _request(rga=pet.rga, exam_on=date(2028, 2, 29), today=date(2028, 2, 28))
    _issue(cert, date(2028, 2, 29))
    assert cert.captures_in_period == 0
    assert cert.period_from == date(2023, 3, 1)  # the first capture day still counted


def test_gru_113_certidao_of_1_march_includes_a_29_february_it_counted(app):
    owner, pet = _owned()
    _record(GRU, date(2024, 2, 29), tag_read=pet.rga)
    cert = _request(rga=pet.rga, exam_on=date(2029, 3, 1), today=date(2029, 2, 28))
    _issue(cert, date(2029, 3, 1))
    assert cert.captures_in_period == 1
    assert cert.period_from == date(2024, 2, 29)


def test_gru_84_5_certidao_refused_when_the_animal_brought_is_not_the_rgas(app):
    owner, pet = _owned()
    _record(GRU, date(2025, 5, 5), tag_read=pet.rga)
    cert = _request(rga=pet.rga)
    staff = _agent()
    err = _refused(_issue, cert, date(2026, 3, 3), confirmed=False, note="   ", staff=staff)
    assert (err.field, err.code) == ("note", "required")
    assert cert.status == CertificateStatus.REQUESTED
    _issue(cert, date(2026, 3, 3), confirmed=False, note=" Microchip de outro animal ", staff=staff)
    assert cert.status == CertificateStatus.REFUSED
    assert (cert.examined_by_id, cert.exam_note) == (staff.id, "Microchip de outro animal")
    assert (cert.issued_on, cert.period_from, cert.period_to, cert.captures_in_period) == (
        None,
        None,
        None,
        None,
    )
    [event] = factories.audit_events("impound.certificate_decided")
    assert event.detail == {"status": "refused"}
    assert services.certificate_json(cert) == {
        "code": cert.code,
        "rga": pet.rga,
        "captures_in_period": None,
        "period_from": None,
        "period_to": None,
        "issued_on": None,
    }


@pytest.mark.parametrize("confirmed", [True, False], ids=["issued", "refused"])
def test_gru_84_3_certidao_decided_once(app, confirmed):
    cert = _request()
    _issue(cert, date(2026, 3, 3), confirmed=confirmed, note="Animal conferido")
    status = cert.status
    err = _refused(_issue, cert, date(2026, 3, 4), confirmed=not confirmed, note="De novo")
    assert (err.field, err.code) == (None, "already_decided")
    assert cert.status == status and cert.exam_note == "Animal conferido"
    assert len(factories.audit_events("impound.certificate_decided")) == 1


def test_gru_84_3_public_check_only_of_an_issued_certidao_and_only_where_the_law_has_it(app):
    issued = _request()
    _issue(issued, date(2026, 3, 3))
    requested = _request()
    refused = _request()
    _issue(refused, date(2026, 3, 3), confirmed=False, note="Outro animal")
    assert services.certificate_by_code(f"  {issued.code.lower()} ") is issued
    assert services.public_certificate(f" {issued.code.lower()}", GRU) is issued
    for cert in (requested, refused):
        assert services.certificate_by_code(cert.code) is None
        assert services.public_certificate(cert.code, GRU) is None
    assert services.certificate_by_code("CNC-NAOEXISTE") is None
    assert services.public_certificate(issued.code, BJP) is None
    assert services.public_certificate(issued.code, _gru_without(capture_count=None)) is None
    assert db.session.query(CaptureCertificate).count() == 3


# -- GRU 82 §2: what the citizen follows ----------------------------------------------------------


def test_gru_82_2_the_citizen_follows_their_own_and_reclaimed_captures_newest_first(app):
    owner, someone = factories.user(), factories.user()
    same_day = _record(GRU, date(2026, 3, 9))  # no owner recorded: reclaimed by them
    db.session.add(ReclaimRecord(capture_id=same_day.id, claimant_id=owner.id, channel="counter"))
    newest_first_day = _record(GRU, date(2026, 3, 9))
    newest_first_day.owner_id = owner.id
    older = _record(GRU, MONDAY)  # recorded last: the order is by day, then newest first
    older.owner_id = owner.id
    theirs = _record(GRU, date(2026, 3, 16))
    theirs.owner_id = someone.id
    db.session.add(ReclaimRecord(capture_id=theirs.id, claimant_id=someone.id, channel="counter"))
    db.session.flush()
    assert services.captures_of_user(owner) == [newest_first_day, same_day, older]
    assert services.captures_of_user(someone) == [theirs]

"""The consequences of a final penalty on a person (issue 16): what each law offers the agent
(GRU 88 §4, VV 23 III b, BJP 30 §ú II, CABO 39 §4; none in CAB), what the auto de apreensão keeps,
what the final decision records and audits (GRU 87 §ú), what the owner is told, and which
registrations the consequences bar (VV 23 V: every animal; the others: that animal only)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select, update

from portal.blueprints.enforcement import services
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.blueprints.impound import services as impound
from portal.blueprints.impound.apprehension import apprehension_document, definitive_upheld
from portal.extensions import db
from portal.models import (
    CaptureStatus,
    EnforcementDocument,
    OutboxMessage,
    PersonConsequence,
    UnitValue,
)
from portal.profiles import load_profile
from tests import factories
from tests.integration.enforcement.test_apprehension_link import _capture, _served, _third_capture
from tests.integration.enforcement.test_enforcement import GRU_FINE
from tests.integration.enforcement.test_enforcement_links import _report

CAUSED = "caused_definitive_apprehension"
LOST = "lost_possession_maltreatment"
NEVER_KEEP = "commitment_never_keep"


@pytest.fixture
def gru(app):
    return app.extensions["portal_profile"]


def _auto(profile, who, article: str, *, definitive: bool = True, **extra) -> EnforcementDocument:  # type: ignore[no-untyped-def]
    """An auto de apreensão a new agent issues to ``who`` (a User, or an Addressee as it is)."""
    addressee = who if isinstance(who, Addressee) else Addressee(who.full_name, who.cpf)
    return services.issue_apprehension_notice(
        profile,
        agent=factories.user(roles=("agent",)),
        addressee=addressee,
        fact="Maus-tratos reiterados",
        place="Rua A, 10",
        occurred_at=datetime(2026, 11, 2, 13, 0, tzinfo=UTC),
        legal_provision=article,
        agent_title="Agente sanitário",
        definitive=definitive,
        **extra,
    )


def _final(profile, doc: EnforcementDocument) -> None:  # type: ignore[no-untyped-def]
    """Served in person today; where the law gives an appeal term, it lapses unused."""
    _served(profile, doc, doc.agent)
    if doc.petition_due_on is not None:
        services.close_lapsed(profile, doc.petition_due_on + timedelta(days=1))
    assert doc.status == "final"


def _rows() -> list[PersonConsequence]:
    return list(db.session.scalars(select(PersonConsequence).order_by(PersonConsequence.id)))


def _names(text: str, number: str) -> bool:
    """``number`` stands on its own in ``text``, not inside a capture protocol (CAP-2026-000001
    holds the document number 2026-000001)."""
    return re.search(rf"(?<![\w-]){re.escape(number)}(?![\w-])", text) is not None


def _final_mails(person, doc: EnforcementDocument) -> list[OutboxMessage]:  # type: ignore[no-untyped-def]
    """The final-decision e-mails to ``person`` naming ``doc`` in their subject (not the
    petition decision's own e-mail, issue 25)."""
    return [
        m
        for m in db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == person.email))
        if _names(m.subject, doc.number) and m.subject.startswith("Decisão final")
    ]


# -- 1. What each law offers the agent, and what the choice stores ---------------------------


@pytest.mark.parametrize(
    ("key", "code", "article", "words"),
    [
        # GRU 88 §4: "a posse dos animais não poderá retornar ... a quem deu causa à apreensão"
        ("guarulhos", CAUSED, "GRU 88 §4", "apreensão definitiva"),
        # CABO 39 §4: the repeat "autorizará ... a definitiva apreensão de animais"
        ("cabo", CAUSED, "CABO 39 §4", "apreensão definitiva"),
        # VV 23 III b: "b) perda da posse do animal"; BJP 30 §ú II: "Perda da posse do animal"
        ("vilavelha", LOST, "VV 23 III b", "perda da posse"),
        ("bjp", LOST, "BJP 30 §ú II", "perda da posse"),
    ],
)
def test_gru_88_4_cabo_39_4_vv_23_iii_b_bjp_30_su_ii_each_law_offers_its_one_consequence(
    app, key, code, article, words
):
    choices = services.consequence_choices(load_profile(key))
    assert len(choices) == 1
    ((offered, label),) = choices
    assert offered == code and article in label and words in label


def test_cab_39_no_consequence_on_the_person_is_offered(app):
    # CAB 39 lists fine, apprehension, interdiction and cassation: nothing stays on the person
    assert services.consequence_choices(load_profile("cabeceira")) == []


def _infraction(profile, who) -> EnforcementDocument:  # type: ignore[no-untyped-def]
    return services.issue_document(
        profile,
        kind="infraction",
        agent=factories.user(roles=("agent",)),
        addressee=who if isinstance(who, Addressee) else Addressee(who.full_name, who.cpf),
        fact="Reincidência em maus-tratos",
        place="Rua A, 10",
        occurred_at=datetime(2026, 11, 2, 13, 0, tzinfo=UTC),
        legal_provision="Art. da lei municipal",
        agent_title="Agente sanitário",
    )


@pytest.mark.parametrize(
    ("key", "code", "article"),
    [
        ("guarulhos", CAUSED, "GRU 88 §4"),
        ("cabo", CAUSED, "CABO 39 §4"),
        ("vilavelha", LOST, "VV 23 III b"),
        ("bjp", LOST, "BJP 30 §ú II"),
    ],
)
def test_gru_87_su_the_chosen_consequence_is_stored_with_the_laws_article_and_waits(
    make_app, key, code, article
):
    with factories.profile_app(make_app, key) as profile:
        doc = _infraction(profile, factories.user())
        services.set_proposed_consequence(profile, doc, code)
        assert (doc.consequence_kind, doc.consequence_article) == (code, article)
        assert _rows() == []  # GRU 87 §ú: proposed now, recorded only at the final decision


@pytest.mark.parametrize(
    ("key", "code"),
    [
        ("cabeceira", CAUSED),  # CAB 39: no consequence on the person at all
        ("cabeceira", LOST),
        ("guarulhos", LOST),  # GRU 88 §4 bars the animal; loss of possession is VV's and BJP's
        ("guarulhos", NEVER_KEEP),  # the VV 23 V term comes from a signed commitment, not a pick
        ("vilavelha", CAUSED),
        ("guarulhos", "anything"),
    ],
)
def test_gru_88_4_cab_39_a_consequence_the_law_does_not_give_is_refused(make_app, key, code):
    with factories.profile_app(make_app, key) as profile:
        doc = _infraction(profile, factories.user())
        with pytest.raises(EnforcementError) as err:
            services.set_proposed_consequence(profile, doc, code)
        assert (err.value.field, err.value.code) == ("consequence", "invalid")
        assert (doc.consequence_kind, doc.consequence_article) == (None, None)


def test_cab_39_choosing_none_proposes_nothing_even_where_the_law_has_none(make_app):
    with factories.profile_app(make_app, "cabeceira") as profile:
        doc = _infraction(profile, factories.user())
        for empty in ("", None):
            services.set_proposed_consequence(profile, doc, empty)
        assert (doc.consequence_kind, doc.consequence_article) == (None, None)


def test_gru_88_4_a_consequence_falls_on_a_person_so_an_establishment_alone_is_refused(gru):
    shop = Addressee(
        "Pet Shop Central", cnpj=factories.make_cnpj(), activity="Pet shop", address="Rua A, 10"
    )
    doc = _infraction(gru, shop)
    assert doc.addressee_cpf is None
    with pytest.raises(EnforcementError) as err:
        services.set_proposed_consequence(gru, doc, CAUSED)
    assert (err.value.field, err.value.code) == ("cpf", "required")
    with pytest.raises(EnforcementError) as err:
        services.record_consequence(doc, CAUSED, "GRU 88 §4")
    assert (err.value.field, err.value.code) == ("cpf", "required")
    assert doc.consequence_kind is None and _rows() == []


# -- 2. The auto de apreensão ------------------------------------------------------------------


def test_gru_95_su_only_the_definitive_apprehension_is_issued_to_an_unidentified_owner(gru):
    nobody = Addressee("Proprietário não identificado", unidentified=True)
    with pytest.raises(EnforcementError) as err:
        _auto(gru, nobody, "GRU 72", definitive=False)
    assert (err.value.field, err.value.code) == ("cpf", "required")
    assert db.session.scalar(select(EnforcementDocument)) is None
    # GRU 87 §ú, 95 §ú: the definitive one runs by edital; nobody to record GRU 88 §4 on yet
    doc = _auto(gru, nobody, "GRU 87 I")
    assert doc.addressee_cpf is None and doc.kind == "apprehension"


def test_gru_88_4_definitive_apprehension_of_an_establishment_without_cpf_is_refused(gru):
    # GRU 88 §4 bars "quem deu causa à apreensão": a person, identified by CPF
    shop = Addressee("Canil Irregular", cnpj=factories.make_cnpj(), activity="Canil")
    with pytest.raises(EnforcementError) as err:
        _auto(gru, shop, "GRU 87 II")
    assert (err.value.field, err.value.code) == ("cpf", "required")
    assert db.session.scalar(select(EnforcementDocument)) is None


def test_gru_72_the_auto_keeps_the_forms_animal_report_and_fine_and_is_an_apprehension(gru):
    db.session.add(UnitValue(unit="UFG", value_cents=480, effective_from=date(2020, 1, 1)))
    owner = factories.user()
    pet = factories.animal(owner)
    report = _report()
    doc = _auto(
        gru,
        owner,
        "GRU 72",
        definitive=False,
        animal_id=pet.id,
        report=report,
        fine_inputs=GRU_FINE,
        kind="infraction",  # the issue form's own fields, passed on with the rest
        consequence=LOST,
    )
    assert doc.kind == "apprehension"
    assert (doc.animal_id, doc.report_id) == (pet.id, report.id)
    # GRU 77 médio, 100 UFG at the R$ 4,80 set above: 100 x 4,80 = R$ 480,00
    assert doc.fine_cents == 48000
    assert (doc.consequence_kind, doc.consequence_article) == (None, None)  # not definitive


def test_gru_87_su_definitive_auto_with_a_fine_records_gru_88_4_on_that_animal_when_final(gru):
    db.session.add(UnitValue(unit="UFG", value_cents=480, effective_from=date(2020, 1, 1)))
    owner = factories.user(full_name="Rui Dono")
    pet = factories.animal(owner)
    doc = _auto(gru, owner, "GRU 87 II", animal_id=pet.id, fine_inputs=GRU_FINE)
    assert doc.fine_cents == 48000  # 100 UFG x R$ 4,80
    assert (doc.consequence_kind, doc.consequence_article) == (CAUSED, "GRU 88 §4")
    _final(gru, doc)
    ((row,),) = [_rows()]
    assert (row.kind, row.article, row.cpf, row.person_name, row.document_id, row.animal_id) == (
        CAUSED,
        "GRU 88 §4",
        owner.cpf,
        "Rui Dono",
        doc.id,
        pet.id,
    )


# -- 3. The final decision ---------------------------------------------------------------------


def test_gru_87_su_a_final_decision_taken_twice_records_gru_88_4_once_and_audits_it(gru):
    owner = factories.user()
    doc = _auto(gru, owner, "GRU 87 II")
    _final(gru, doc)
    services.on_final(doc, upheld=True, actor=None)  # e.g. the daily job seeing it again
    assert [(r.document_id, r.article) for r in _rows()] == [(doc.id, "GRU 88 §4")]
    (event,) = factories.audit_events("enforcement.consequence")
    assert (event.subject_type, event.subject_id, event.detail) == (
        "EnforcementDocument",
        str(doc.id),
        {"number": doc.number, "kind": CAUSED},  # never the CPF (audit.record)
    )


def test_gru_88_4_two_people_two_final_autos_two_consequences(gru):
    first, second = factories.user(), factories.user()
    one, two = _auto(gru, first, "GRU 87 II"), _auto(gru, second, "GRU 87 V")
    _final(gru, one)
    assert [r.cpf for r in _rows()] == [first.cpf]
    _final(gru, two)  # the first person's row does not count as this document's
    assert [(r.cpf, r.document_id) for r in _rows()] == [(first.cpf, one.id), (second.cpf, two.id)]
    assert len(factories.audit_events("enforcement.consequence")) == 2


def test_gru_87_su_not_upheld_records_nothing_on_the_person(gru):
    doc = _auto(gru, factories.user(), "GRU 87 II")
    services.on_final(doc, upheld=False, actor=None)
    assert _rows() == [] and factories.audit_events("enforcement.consequence") == []


def test_gru_103_3_the_second_instance_decides_the_capture_on_record_with_judge_and_auto(gru):
    agent, owner, capture = _third_capture(gru)
    doc = apprehension_document(capture)
    day = _served(gru, doc, agent)
    boss, director = factories.user(roles=("coordinator",)), factories.user(roles=("admin",))
    first = services.file_petition(gru, doc, owner, text="Recurso", today=day)
    services.decide_petition(
        gru, first, boss, grant=False, reason="Três capturas", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    assert factories.audit_events("impound.definitive_decided") == []  # GRU 103: still open
    second = services.file_petition(gru, doc, owner, text="Segunda instância", today=day)
    services.decide_petition(
        gru, second, director, grant=False, reason="Mantido", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    # GRU 103 §3: the second instance is final; the director's decision is the one on record
    (event,) = factories.audit_events("impound.definitive_decided")
    assert event.actor_id == director.id and event.subject_id == str(capture.id)
    assert event.detail["upheld"] is True and event.detail["document"] == doc.number
    assert f"nº {doc.number}" in event.detail["note"]
    assert definitive_upheld(capture)


def test_gru_72_an_ordinary_auto_for_an_animal_in_custody_leaves_the_capture_as_it_is(gru):
    agent = factories.user(roles=("agent",))
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(gru, date(2026, 11, 2), agent, pet.rga)
    assert capture.status == CaptureStatus.IN_CUSTODY
    doc = _auto(gru, owner, "GRU 72", definitive=False, animal_id=pet.id, capture_id=capture.id)
    _final(gru, doc)
    # only a pending definitive apprehension is decided by the procedure (GRU 87 §ú)
    assert capture.status == CaptureStatus.IN_CUSTODY and not definitive_upheld(capture)
    assert factories.audit_events("impound.definitive_decided") == []
    assert _final_mails(owner, doc) == [] and _rows() == []


# -- 4. What the owner is told -----------------------------------------------------------------


def test_gru_87_su_upheld_the_owner_is_told_the_auto_the_protocol_and_both_articles(gru):
    agent, owner, capture = _third_capture(gru)
    doc = apprehension_document(capture)
    _final(gru, doc)
    (mail,) = _final_mails(owner, doc)
    # kept under GRU 87 III (third capture in five years), never back to the owner (GRU 88 §4)
    assert _names(mail.body, doc.number)
    for cited in (capture.protocol, "GRU 87 III", "GRU 88 §4"):
        assert cited in mail.body
    assert "None" not in mail.body


def test_gru_87_su_a_legacy_pending_capture_is_told_the_article_of_its_auto(gru):
    agent = factories.user(roles=("agent",))
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(gru, date(2026, 3, 2), agent, pet.rga)
    capture.status = CaptureStatus.DEFINITIVE_PENDING  # opened before the article was stored
    assert capture.definitive_article is None
    doc = _auto(gru, owner, "GRU 87 II", animal_id=pet.id, capture_id=capture.id)
    _final(gru, doc)
    (mail,) = _final_mails(owner, doc)
    # no article on the capture: the auto's own provision (GRU 87 II, maus-tratos) is cited
    assert "GRU 87 II" in mail.body and "GRU 88 §4" in mail.body and "None" not in mail.body


def test_cabo_39_4_the_owner_is_told_cabos_article_not_guarulhos(make_app):
    with factories.profile_app(make_app, "cabo") as cabo:
        agent = factories.user(roles=("agent",))
        owner = factories.user()
        pet = factories.animal(owner)
        capture = _capture(cabo, date(2026, 11, 2), agent, pet.rga)
        impound.open_definitive_apprehension(
            capture, article="CABO 39 §4", reason="Reincidência", actor=agent, profile=cabo
        )
        doc = apprehension_document(capture)
        _final(cabo, doc)  # CABO 40 gives no appeal term: final once served
        (mail,) = _final_mails(owner, doc)
        assert "CABO 39 §4" in mail.body and "GRU" not in mail.body
        assert [(r.kind, r.article) for r in _rows()] == [(CAUSED, "CABO 39 §4")]


def test_gru_105_1_not_upheld_the_owner_is_told_the_auto_and_the_protocol(gru):
    agent, owner, capture = _third_capture(gru)
    doc = apprehension_document(capture)
    day = _served(gru, doc, agent)
    petition = services.file_petition(gru, doc, owner, text="Não é meu cão", today=day)
    services.decide_petition(
        gru, petition, factories.user(roles=("coordinator",)), grant=True, reason="Posse provada",
        method="signed", service_on=day, today=day,
    )  # fmt: skip
    assert _final_mails(owner, doc) == []  # GRU 104: the agent's 5 days come first
    services.close_lapsed(gru, petition.review_due_on + timedelta(days=1))
    (mail,) = _final_mails(owner, doc)
    assert _names(mail.body, doc.number) and capture.protocol in mail.body
    assert "GRU 88 §4" not in mail.body and _rows() == []


def test_gru_95_su_an_owner_without_cpf_served_by_edital_is_still_told_by_email(gru):
    agent = factories.user(roles=("agent",))
    owner = factories.user(cpf=None)
    pet = factories.animal(owner)
    capture = _capture(gru, date(2026, 11, 2), agent, pet.rga)
    impound.open_definitive_apprehension(
        capture, article="GRU 87 I", reason="Mordedor vicioso", actor=agent, profile=gru
    )
    doc = apprehension_document(capture)
    published = doc.issued_at.date()
    services.record_service(
        gru, doc, method="edital", service_on=published, note=None, actor=agent, today=published
    )
    services.close_lapsed(gru, doc.petition_due_on + timedelta(days=1))
    assert doc.person is None and definitive_upheld(capture)
    (mail,) = _final_mails(owner, doc)  # the capture's owner, known without a CPF
    assert _names(mail.body, doc.number) and "GRU 87 I" in mail.body
    assert _rows() == []  # GRU 88 §4 needs a CPF to be recorded on


# -- 5. What registration and the lists read ---------------------------------------------------


def test_vv_23_v_signed_commitment_bars_every_animal_and_cites_the_term(make_app):
    with factories.profile_app(make_app, "vilavelha") as vv:
        who = factories.user()
        doc = services.issue_document(
            vv,
            kind="commitment",
            agent=factories.user(roles=("agent",)),
            addressee=Addressee(who.full_name, who.cpf),
            fact="Não quer mais ficar com o animal",
            place="Rua A, 10",
            occurred_at=datetime(2026, 11, 2, 13, 0, tzinfo=UTC),
            legal_provision="VV 23 V",
            agent_title="Agente sanitário",
        )
        _served(vv, doc, doc.agent)
        # VV 23 V: "a não mais ter animais sob sua guarda": with or without a chip, any animal
        for chip in (None, "", "985112000000001"):
            article, message = services.registration_refusal(who.cpf, chip)
            assert article == "VV 23 V" and doc.number in message and "VV 23 V" in message
        assert services.registration_refusal(factories.user().cpf, None) is None


def test_vv_23_iii_b_refusal_bars_only_the_named_animal(make_app):
    with factories.profile_app(make_app, "vilavelha") as vv:
        owner = factories.user()
        pet = factories.animal(owner, microchip="ABC123456")
        doc = _auto(vv, owner, "VV 23 III b", animal_id=pet.id)
        _final(vv, doc)  # VV 23 gives no appeal term: final once served
        # "perda da posse do animal. O animal em questão será apreendido": that animal, typed as
        # the owner may type it (lower case, spaces, dashes)
        article, message = services.registration_refusal(owner.cpf, "abc-123 456")
        assert article == "VV 23 III b" and doc.number in message and "VV 23 III b" in message
        assert services.registration_refusal(owner.cpf, "ABC123457") is None  # another animal
        for no_chip in (None, "", " - "):
            assert services.registration_refusal(owner.cpf, no_chip) is None
        assert services.registration_refusal(factories.user().cpf, "ABC123456") is None


def test_bjp_30_su_ii_two_losses_bar_two_animals_each_citing_its_own_auto(make_app):
    with factories.profile_app(make_app, "bjp") as bjp:
        owner = factories.user()
        rex = factories.animal(owner, microchip="985112000000011")
        luna = factories.animal(owner, microchip="985112000000022")
        first = _auto(bjp, owner, "BJP 30 §ú II", animal_id=rex.id)
        second = _auto(bjp, owner, "BJP 30 §ú II", animal_id=luna.id)
        for doc in (first, second):
            _final(bjp, doc)
        assert [r.animal_id for r in services.consequences_for_cpf(owner.cpf)] == [rex.id, luna.id]
        for chip, doc in (("985112000000011", first), ("985112000000022", second)):
            article, message = services.registration_refusal(owner.cpf, chip)
            assert article == "BJP 30 §ú II" and doc.number in message
        assert services.registration_refusal(owner.cpf, "985112000000033") is None


def test_gru_88_4_a_consequence_naming_no_animal_bars_no_registration(gru):
    owner = factories.user()
    doc = _auto(gru, owner, "GRU 87 II")  # no animal named on the auto
    _final(gru, doc)
    assert [(r.kind, r.animal_id) for r in _rows()] == [(CAUSED, None)]
    # GRU 88 §4 takes "os animais" apprehended: with none named, no registration is barred
    assert services.registration_refusal(owner.cpf, "982000000000123") is None
    assert services.registration_refusal(owner.cpf, None) is None


def test_gru_105_1_only_consequences_in_force_and_of_that_cpf_are_read(gru):
    owner, other = factories.user(), factories.user()
    pet = factories.animal(owner, microchip="982000000000777")
    cancelled = _auto(gru, owner, "GRU 87 II", animal_id=pet.id)
    kept = _auto(gru, owner, "GRU 87 V")
    theirs = _auto(gru, other, "GRU 87 II")
    for doc in (cancelled, kept, theirs):
        _final(gru, doc)
    assert services.registration_refusal(owner.cpf, "982000000000777")[0] == "GRU 88 §4"
    # GRU 105 §1: a granted appeal cancels the decision; the row stays, revoked
    (row,) = [r for r in _rows() if r.document_id == cancelled.id]
    row.revoked_at = datetime.now(UTC)
    db.session.flush()
    assert [r.document_id for r in services.consequences_for_cpf(owner.cpf)] == [kept.id]
    assert [r.document_id for r in services.consequences_for_cpf(other.cpf)] == [theirs.id]
    assert services.registration_refusal(owner.cpf, "982000000000777") is None
    assert services.consequences_for_cpf(None) == [] and services.consequences_for_cpf("") == []


def test_a_persons_consequences_are_listed_in_the_order_they_were_recorded(gru):
    owner = factories.user()
    pet = factories.animal(owner)
    older, newer = _auto(gru, owner, "GRU 87 II"), _auto(gru, owner, "GRU 87 V")
    for doc in (older, newer):
        _final(gru, doc)
    # rewriting an indexed column moves the older row after the newer one in PostgreSQL's
    # storage and indexes: the list must not depend on where the rows happen to lie
    first = _rows()[0]
    for animal_id in (pet.id, None):
        db.session.execute(
            update(PersonConsequence)
            .where(PersonConsequence.id == first.id)
            .values(animal_id=animal_id)
        )
    listed = services.consequences_for_cpf(owner.cpf)
    assert [r.document_id for r in listed] == [older.id, newer.id]


def test_cab_39_ii_an_upheld_apprehension_records_nothing_on_the_person(make_app):
    # CAB 39 II gives the apprehension as a penalty and nothing on the person beyond it; CAB 8 §ú
    # lets the owner reclaim once its cause is gone. So no bar may follow, nor a GRU article.
    with factories.profile_app(make_app, "cabeceira") as profile:
        owner = factories.user()
        doc = _auto(profile, owner, "CAB 39 II")
        assert (doc.consequence_kind, doc.consequence_article) == (None, None)
        services.on_final(doc, upheld=True, actor=None)  # CAB gives no appeal term to wait for
        assert _rows() == []
        assert services.registration_refusal(owner.cpf, None) is None

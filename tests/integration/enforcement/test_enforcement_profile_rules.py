"""The last items of issue 13 and of issue 14's apprehension: municipal rules read from the profile
(GRU 104; GRU 88 §4, VV 23 III b, BJP 30 §ú II, CABO 39 §4), the definitive apprehension of an
animal whose owner is unknown or has no CPF served by edital (GRU 95 §ú, 96 §1, 109 III), and the
two fines of BJP 19 §1 I and II priced in one computation of the fee service."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import services
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.blueprints.impound import services as impound
from portal.blueprints.impound.apprehension import (
    apprehension_document,
    decide_definitive_apprehension,
    definitive_upheld,
)
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    CaptureStatus,
    EnforcementDocument,
    PersonConsequence,
    UnitValue,
)
from portal.profiles import load_profile
from portal.services.fees import compute_fee
from tests import factories


def _capture(profile, day: date, agent, **extra):  # type: ignore[no-untyped-def]
    data = impound.CaptureData(
        species="dog",
        size="small",
        sex="male",
        color="Caramelo",
        place="Rua X, 10",
        district="Centro",
        captured_at=datetime(day.year, day.month, day.day, 13, tzinfo=UTC),
        captured_on=day,
        reason="loose",
        condition="good",
        **extra,
    )
    return impound.record_capture(profile, data, agent=agent, today=day)


# -- 1. Municipal rules live in the profiles --------------------------------------------------


def test_gru_104_grant_review_term_is_read_from_the_profile():
    assert services.review_term(load_profile("guarulhos")) == (5, "GRU 104")
    for key in ("bjp", "vilavelha", "cabo", "cabeceira"):
        # the other laws have no review of a grant by the issuing agent: it takes effect at once
        assert load_profile(key).notices.grant_review_days is None
        assert services.review_term(load_profile(key)) is None


def test_gru_88_4_vv_23_iii_b_bjp_30_su_ii_cabo_39_4_definitive_consequence_per_profile():
    found = {
        key: services.definitive_consequence(load_profile(key))
        for key in ("guarulhos", "vilavelha", "bjp", "cabo", "cabeceira")
    }
    assert found == {
        "guarulhos": ("caused_definitive_apprehension", "GRU 88 §4"),
        "vilavelha": ("lost_possession_maltreatment", "VV 23 III b"),
        "bjp": ("lost_possession_maltreatment", "BJP 30 §ú II"),
        "cabo": ("caused_definitive_apprehension", "CABO 39 §4"),
        "cabeceira": None,
    }


def test_gru_104_no_municipal_rule_keyed_by_law_in_enforcement_code():
    from pathlib import Path

    import portal.blueprints.enforcement as pkg

    for path in Path(pkg.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "law_key" not in text, path.name
        for key in ('{"GRU"', '{"VV"', '{"BJP"', '{"CAB"', '{"CABO"'):
            assert key not in text, path.name


# -- 2. Unknown owner: the auto de apreensão served by edital ---------------------------------


@pytest.fixture
def gru(app):
    return app.extensions["portal_profile"]


def _unknown_owner_apprehension(profile):  # type: ignore[no-untyped-def]
    agent = factories.user(roles=("agent",))
    capture = _capture(profile, date(2026, 3, 2), agent)
    assert capture.owner is None
    impound.open_definitive_apprehension(
        capture, article="GRU 87 I", reason="Mordedor vicioso", actor=agent, profile=profile
    )
    return agent, capture, apprehension_document(capture)


def test_gru_95_su_definitive_apprehension_of_an_unknown_owner_issues_the_auto_by_edital(gru):
    agent, capture, doc = _unknown_owner_apprehension(gru)
    assert doc is not None and doc.capture_id == capture.id
    assert doc.addressee_cpf is None and doc.addressee_name == "Proprietário não identificado"
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING
    with pytest.raises(EnforcementError) as err:
        services.record_service(
            gru, doc, method="signed", service_on=date(2026, 3, 2), note=None, actor=agent,
            today=date(2026, 3, 2),
        )  # fmt: skip
    assert err.value.code == "edital_only" and "GRU 95 §ú" in err.value.message


def test_gru_96_1_edital_effective_five_days_after_publication_then_the_terms_run(gru):
    agent, capture, doc = _unknown_owner_apprehension(gru)
    published = doc.issued_at.date()
    services.record_service(
        gru, doc, method="edital", service_on=published, note=None, actor=agent, today=published
    )
    assert doc.knowledge_on == published + timedelta(days=5)  # GRU 96 §1, 109 III
    assert doc.petition_due_on is not None and doc.petition_due_on >= doc.knowledge_on + timedelta(
        days=10
    )  # GRU 101: 10 days from the publication's effect
    # GRU 87 §ú: no manual shortcut while the procedure runs
    with pytest.raises(DomainError) as err:
        decide_definitive_apprehension(capture, upheld=True, actor=None)
    assert err.value.code == "procedure_open"
    services.close_lapsed(gru, doc.petition_due_on + timedelta(days=1))
    assert doc.status == "final" and definitive_upheld(capture)
    assert db.session.scalar(select(PersonConsequence)) is None  # nobody to record it on


def test_gru_87_su_owner_without_cpf_is_served_by_edital_too(gru):
    agent = factories.user(roles=("agent",))
    owner = factories.user(full_name="Dono Sem CPF", cpf=None)
    pet = factories.animal(owner)
    capture = _capture(gru, date(2026, 3, 2), agent, tag_read=pet.rga)
    assert capture.owner_id == owner.id
    impound.open_definitive_apprehension(
        capture, article="GRU 87 I", reason="Mordedor vicioso", actor=agent, profile=gru
    )
    doc = apprehension_document(capture)
    assert doc.addressee_name == "Dono Sem CPF" and doc.addressee_cpf is None


def test_gru_87_su_no_decision_by_hand_even_without_an_auto(gru):
    capture = _capture(gru, date(2026, 3, 2), factories.user(roles=("agent",)))
    capture.status = CaptureStatus.DEFINITIVE_PENDING  # legacy row opened before the auto existed
    with pytest.raises(DomainError) as err:
        decide_definitive_apprehension(capture, upheld=True, actor=None)
    assert err.value.code == "procedure_required"


def test_cabo_39_4_unknown_owner_without_an_edital_rule_knows_on_the_publication_day(make_app):
    app = make_app(PORTAL_PROFILE="cabo")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        assert profile.notices.edital_days is None
        agent = factories.user(roles=("agent",))
        capture = _capture(profile, date(2026, 3, 2), agent)
        impound.open_definitive_apprehension(
            capture, article="CABO 39 §4", reason="Reincidência", actor=agent, profile=profile
        )
        doc = apprehension_document(capture)
        published = doc.issued_at.date()
        services.record_service(
            profile, doc, method="edital", service_on=published, note=None, actor=agent,
            today=published,
        )  # fmt: skip
        # the law gives no term after publication nor an appeal term: final once published
        assert doc.knowledge_on == published and doc.status == "final"
        assert definitive_upheld(capture)


# -- 3. BJP 19 §1 I and II: one computation, two documents ------------------------------------


def test_bjp_19_1_i_and_ii_both_fines_from_one_joint_computation(make_app, monkeypatch):
    from portal.blueprints.enforcement import issuing

    calls: list[dict] = []

    def spy(profile, kind, inputs, on):  # type: ignore[no-untyped-def]
        calls.append(dict(inputs))
        return compute_fee(profile, kind, inputs, on)

    monkeypatch.setattr(issuing, "compute_fee", spy)
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        db.session.add(UnitValue(unit="UFM", value_cents=10000, effective_from=date(2020, 1, 1)))
        profile = app.extensions["portal_profile"]
        agent, owner = factories.user(roles=("agent",)), factories.user(full_name="Dono")
        trainer = factories.user(full_name="Adestrador")
        doc = services.issue_document(
            profile,
            kind="infraction",
            agent=agent,
            addressee=Addressee(owner.full_name, owner.cpf),
            fact="Adestramento na praça",
            place="Praça Central",
            occurred_at=datetime(2026, 11, 2, 13, 0, tzinfo=UTC),
            legal_provision="BJP 19 §1 I",
            agent_title="Agente sanitário",
            fine_inputs={"specific": "street_training"},
            joint_addressee=Addressee(trainer.full_name, trainer.cpf),
        )
        second = db.session.scalar(
            select(EnforcementDocument).where(EnforcementDocument.joint_of_id == doc.id)
        )
        # the trainer's fine is never priced alone: one computation with the joint input
        assert not any(c.get("specific") == "unregistered_trainer" for c in calls)
        assert [c["joint"] for c in calls if "joint" in c] == [[{"code": "unregistered_trainer"}]]
        joint = compute_fee(
            profile,
            "fine",
            {
                "specific": "street_training",
                "infraction_on": date(2026, 11, 2),
                "joint": ["unregistered_trainer"],
            },
            doc.issued_at.date(),
        )
        assert doc.fine_cents + second.fine_cents == joint.total_cents
        assert {r["payer"] for r in doc.fine_breakdown} == {"owner"}
        assert {r["payer"] for r in second.fine_breakdown} == {"trainer"}
        assert [r["article"] for r in second.fine_breakdown] == ["BJP 19 §1 II"]
        items = []
        for infraction in (doc, second):
            day = infraction.issued_at.date()
            services.record_service(
                profile, infraction, method="signed", service_on=day, note=None, actor=agent,
                today=day,
            )  # fmt: skip
            penalty = services.issue_penalty(
                profile, infraction, agent, today=day, method="signed", service_on=day
            )
            assert penalty.fine_breakdown == infraction.fine_breakdown
            items.append(penalty.payment_item)
        assert [i.amount_cents for i in items] == [doc.fine_cents, second.fine_cents]
        assert items[0].id != items[1].id


# -- 5. Loss of possession bars that animal only (VV 23 III b; BJP 30 §ú II) -------------------


@pytest.mark.parametrize(
    ("key", "article"), [("vilavelha", "VV 23 III b"), ("bjp", "BJP 30 §ú II")]
)
def test_vv_23_iii_b_and_bjp_30_su_ii_loss_of_possession_bars_only_that_animal(
    make_app, key, article
):
    from portal.blueprints.adoption.eligibility import check_eligibility
    from portal.blueprints.enforcement.consequences import record_consequence
    from tests.factories import eligible_person, make_listing

    app = make_app(PORTAL_PROFILE=key)
    with app.app_context():
        profile = app.extensions["portal_profile"]
        on = date.today()
        person, agent = eligible_person(), factories.user(roles=("agent",))
        pet = factories.animal(person)
        doc = services.issue_document(
            profile,
            kind="penalty",
            agent=agent,
            addressee=Addressee(person.full_name, person.cpf),
            fact="Maus-tratos reincidentes",
            place="Rua A, 1",
            occurred_at=datetime.now(UTC) - timedelta(days=1),
            legal_provision=article,
            agent_title="Agente sanitário",
            animal_id=pet.id,
        )
        record_consequence(doc, "lost_possession_maltreatment", article)
        lost, other = make_listing(on=on, name="Rex"), make_listing(on=on, name="Luna")
        lost.animal_id = pet.id
        db.session.flush()

        def bar(listing):  # type: ignore[no-untyped-def]
            results = check_eligibility(profile, person, listing, on)
            return next(r for r in results if r.rule == "bar_maltreatment")

        assert bar(lost).status == "fail" and "deste animal" in bar(lost).message
        assert bar(other).status == "pass"  # the law takes that animal; adopting another is open


# -- 4. After the final decision the pages offer no reclaim (GRU 87 §ú, 88 §4) ---------------


def test_gru_88_4_upheld_apprehension_pages_offer_no_reclaim(client, auth, gru):
    agent = factories.user(roles=("agent",))
    owner = factories.user(full_name="Rui Dono")
    pet = factories.animal(owner)
    for day in (date(2021, 3, 15), date(2023, 2, 1)):
        _capture(gru, day, agent, tag_read=pet.rga).status = CaptureStatus.RELEASED
    capture = _capture(gru, date(2026, 3, 10), agent, tag_read=pet.rga)
    doc = apprehension_document(capture)
    day = doc.issued_at.date()
    services.record_service(
        gru, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    services.close_lapsed(gru, doc.petition_due_on + timedelta(days=1))
    assert definitive_upheld(capture)
    protocol = capture.protocol
    db.session.commit()
    auth.login(owner)
    page = client.get(f"/meus-recolhimentos/{protocol}").get_data(as_text=True)
    assert "Apreensão definitiva mantida por decisão final" in page
    assert ">Resgatar</button>" not in page
    auth.logout()
    auth.login(roles=("agent",))
    page = client.get(f"/ccz/recolhimentos/{protocol}").get_data(as_text=True)
    assert "Resgate no balcão" not in page and "não pode ser resgatado" in page

"""The issue form and what it records (issue 13): the legal provision chosen from the profile's
own rules, two fines on two people (BJP 19 §1 I and II), expenses recovered with the fine
(CABO 41), the intimation date of a ladder (BJP 17 §2), the consequence of a repeat offence
recorded only at the final decision (CABO 39 §4; GRU 87 §ú, 88 §4), GRU 109 §2, access codes
nothing stored reveals, and what registration reads (VV 23 V; GRU 88 §4)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from decimal import Decimal

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import codes, issue_form, services
from portal.blueprints.enforcement.documents import render_pdf
from portal.blueprints.enforcement.forms import IssueForm
from portal.blueprints.enforcement.services import Addressee, EnforcementError
from portal.extensions import db
from portal.models import EnforcementDocument, PersonConsequence, UnitValue
from tests import factories

GRU_FINE = {"severity": "medio", "units": "100", "units_reason": "risco à saúde"}


@pytest.fixture
def profile(app):
    db.session.add(UnitValue(unit="UFG", value_cents=480, effective_from=date(2020, 1, 1)))
    db.session.commit()
    return app.extensions["portal_profile"]


def _issue(profile, agent, who, **extra):  # type: ignore[no-untyped-def]
    values = dict(
        kind="infraction",
        agent=agent,
        addressee=Addressee(who.full_name, who.cpf),
        fact="Fato",
        place="Rua A, 10",
        occurred_at=datetime(2026, 11, 2, 13, 0, tzinfo=UTC),
        legal_provision="GRU 10 V a",
        agent_title="Agente sanitário",
    )
    values.update(extra)
    return services.issue_document(profile, **values)


def _serve(profile, doc, agent):  # type: ignore[no-untyped-def]
    day = doc.issued_at.date()
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    return day


# -- GRU 95 III, 96 III: the provision is one of the profile's articles ---------------------------


def test_gru_96_iii_legal_provision_is_a_choice_from_the_profile(client, auth, profile):
    citizen = factories.user()
    auth.login(roles=("agent",))
    page = client.get("/ccz/fiscalizacao/novo").get_data(as_text=True)
    assert "GRU 10 V a" in page and "Outra disposição" in page
    form = {
        "kind": "infraction",
        "name": citizen.full_name,
        "cpf": citizen.cpf,
        "fact": "Cão sem abrigo",
        "place": "Rua A, 10",
        "occurred_at": "2026-11-02T10:00",
        "animal_died": "no",
        "agent_title": "Agente",
    }
    typed = client.post("/ccz/fiscalizacao/novo", data={**form, "legal_provision": "GRU 999"})
    assert typed.status_code == 200 and db.session.scalar(select(EnforcementDocument)) is None
    empty = client.post("/ccz/fiscalizacao/novo", data={**form, "legal_provision": "outra"})
    assert "Escreva a disposição transgredida." in empty.get_data(as_text=True)
    assert "Cão sem abrigo" in empty.get_data(as_text=True)  # nothing typed is lost
    done = client.post(
        "/ccz/fiscalizacao/novo",
        data={**form, "legal_provision": "outra", "provision_other": "Lei 9.605/98, art. 32"},
    )
    assert done.status_code == 302
    assert db.session.scalar(select(EnforcementDocument)).legal_provision == "Lei 9.605/98, art. 32"


def test_bjp_19_1_i_and_ii_two_fines_on_two_people_each_its_own_payment_item(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        db.session.add(UnitValue(unit="UFM", value_cents=10000, effective_from=date(2020, 1, 1)))
        profile = app.extensions["portal_profile"]
        agent, owner = factories.user(roles=("agent",)), factories.user(full_name="Dono")
        trainer = factories.user(full_name="Adestrador")
        doc = _issue(
            profile,
            agent,
            owner,
            legal_provision="BJP 19 §1 I",
            fine_inputs={"specific": "street_training"},
            joint_addressee=Addressee(trainer.full_name, trainer.cpf),
        )
        second = db.session.scalar(
            select(EnforcementDocument).where(EnforcementDocument.joint_of_id == doc.id)
        )
        assert second.addressee_cpf == trainer.cpf and second.legal_provision == "BJP 19 §1 II"
        assert doc.fine_cents and second.fine_cents
        items = []
        for infraction, person in ((doc, owner), (second, trainer)):
            day = _serve(profile, infraction, agent)
            penalty = services.issue_penalty(
                profile, infraction, agent, today=day, method="signed", service_on=day
            )
            assert penalty.payment_item.payer_id == person.id
            items.append(penalty.payment_item.id)
        assert len(set(items)) == 2


def test_bjp_19_1_the_second_fine_is_for_a_different_person(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        db.session.add(UnitValue(unit="UFM", value_cents=10000, effective_from=date(2020, 1, 1)))
        profile = app.extensions["portal_profile"]
        agent, owner = factories.user(roles=("agent",)), factories.user()
        with pytest.raises(EnforcementError) as err:
            _issue(
                profile,
                agent,
                owner,
                legal_provision="BJP 19 §1 I",
                fine_inputs={"specific": "street_training"},
                joint_addressee=Addressee(owner.full_name, owner.cpf),
            )
        assert (err.value.field, err.value.code) == ("joint_cpf", "same_person")
        with pytest.raises(EnforcementError) as err:
            _issue(
                profile,
                agent,
                owner,
                legal_provision="BJP 21",
                fine_inputs={"specific": "abandonment"},
                joint_addressee=Addressee("Outro", factories.make_cpf(990)),
            )
        assert err.value.code == "not_joint"


def test_cabo_41_expenses_itemised_on_the_form_and_recovered_with_the_fine(make_app):
    app = make_app(PORTAL_PROFILE="cabo")
    with app.test_request_context(method="POST", data={"expense_transport": "45,00"}):
        profile = app.extensions["portal_profile"]
        assert issue_form.expense_kinds(profile) == ["transport", "food", "veterinary", "other"]
        form = IssueForm(meta={"csrf": False})
        issue_form.fill_choices(form, profile)
        form.severity.data = "leve"
        form.units.data, form.units_reason.data = Decimal("2"), "Pequeno porte"
        inputs = issue_form.fine_inputs(form, profile)
        assert inputs["expenses"] == [{"kind": "transport", "amount_cents": 4500}]
        db.session.add(UnitValue(unit="UFIR", value_cents=106, effective_from=date(2000, 1, 1)))
        agent, who = factories.user(roles=("agent",)), factories.user()
        doc = _issue(profile, agent, who, legal_provision="CABO 39", fine_inputs=inputs)
        expense = [r for r in doc.fine_breakdown if r["kind"] == "expense"]
        assert (
            expense == [{**expense[0], "amount_cents": 4500, "article": "CABO 41"}]
            and doc.fine_cents > 4500
        )


def test_cabo_41_expense_that_is_not_money_is_refused_next_to_its_field(make_app):
    app = make_app(PORTAL_PROFILE="cabo")
    with app.test_request_context(method="POST", data={"expense_food": "muito"}):
        profile = app.extensions["portal_profile"]
        form = IssueForm(meta={"csrf": False})
        issue_form.fill_choices(form, profile)
        form.severity.data = "leve"
        form.units.data, form.units_reason.data = Decimal("2"), "Pequeno porte"
        with pytest.raises(EnforcementError) as err:
            issue_form.fine_inputs(form, profile)
        assert err.value.field == "expense_food"


def test_bjp_17_2_the_intimation_date_on_the_form_feeds_the_ladder(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        db.session.add(UnitValue(unit="UFM", value_cents=10000, effective_from=date(2020, 1, 1)))
        profile = app.extensions["portal_profile"]
        agent, who = factories.user(roles=("agent",)), factories.user()
        early = {"specific": "above_household_limit", "notified_on": date(2026, 10, 20)}
        with pytest.raises(EnforcementError) as err:
            _issue(profile, agent, who, legal_provision="BJP 17 §2 II", fine_inputs=early)
        assert err.value.field in ("notified_on", "infraction_on")  # the 30-day term still ran
        late = {"specific": "above_household_limit", "notified_on": date(2026, 9, 1)}
        doc = _issue(
            profile,
            agent,
            who,
            legal_provision="BJP 17 §2 II",
            fine_inputs=late,
            notified_on=date(2026, 9, 1),
        )
        assert doc.notified_on == date(2026, 9, 1) and doc.fine_cents == 10000


def test_bjp_30_ii_penalty_follows_at_once_where_the_law_gives_no_defence_term(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        db.session.add(UnitValue(unit="UFM", value_cents=10000, effective_from=date(2020, 1, 1)))
        profile = app.extensions["portal_profile"]
        agent, who = factories.user(roles=("agent",)), factories.user()
        doc = _issue(
            profile, agent, who, legal_provision="BJP 21", fine_inputs={"specific": "abandonment"}
        )
        day = _serve(profile, doc, agent)
        assert services.may_issue_penalty(profile, doc, day)


def test_cabo_39_4_repeat_offence_offered_and_recorded_only_when_final(make_app):
    app = make_app(PORTAL_PROFILE="cabo")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        assert [a for _k, a in services.consequence_choices(profile)] == [
            "Reincidência: apreensão definitiva do animal (CABO 39 §4)"
        ]
        agent, who = factories.user(roles=("agent",)), factories.user()
        doc = services.issue_apprehension_notice(
            profile,
            agent=agent,
            addressee=Addressee(who.full_name, who.cpf),
            fact="Reincidência",
            place="Rua A",
            occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
            legal_provision="CABO 39 §4",
            agent_title="Agente",
            definitive=True,
        )
        assert db.session.scalar(select(PersonConsequence)) is None
        _serve(profile, doc, agent)  # CABO 40 gives no appeal term: final once known
        row = db.session.scalar(select(PersonConsequence))
        assert (row.article, row.kind) == ("CABO 39 §4", "caused_definitive_apprehension")


def test_gru_87_v_consequence_follows_the_infraction_to_the_penalty_and_waits_for_final(profile):
    agent, who = factories.user(roles=("agent",)), factories.user()
    doc = _issue(profile, agent, who, fine_inputs=GRU_FINE)
    services.set_proposed_consequence(profile, doc, "caused_definitive_apprehension")
    day = _serve(profile, doc, agent)
    later = doc.petition_due_on + timedelta(days=1)
    services.close_lapsed(profile, later)  # the infraction is final, the penalty carries it on
    assert db.session.scalar(select(PersonConsequence)) is None
    penalty = services.issue_penalty(profile, doc, agent, today=later)
    assert penalty.consequence_article == "GRU 88 §4"
    services.record_service(
        profile, penalty, method="post", service_on=day, note=None, actor=agent, today=later
    )
    services.close_lapsed(profile, penalty.petition_due_on + timedelta(days=1))
    assert db.session.scalar(select(PersonConsequence)).document_id == penalty.id


def test_set_proposed_consequence_refuses_what_the_law_does_not_give(profile):
    agent, who = factories.user(roles=("agent",)), factories.user()
    doc = _issue(profile, agent, who)
    with pytest.raises(EnforcementError) as err:
        services.set_proposed_consequence(profile, doc, "commitment_never_keep")
    assert err.value.field == "consequence"


def test_gru_109_2_the_ar_date_that_most_benefits_the_petitioner_counts(profile):
    agent, who = factories.user(roles=("agent",)), factories.user()
    boss = factories.user(roles=("coordinator",))
    doc = _issue(profile, agent, who, fine_inputs=GRU_FINE)
    day = _serve(profile, doc, agent)
    petition = services.file_petition(profile, doc, who, text="Defesa", today=day)
    later = day + timedelta(days=3)
    services.decide_petition(
        profile, petition, boss, grant=False, reason="Sem prova", method="signed",
        service_on=day, ar_on=later, today=later,
    )  # fmt: skip
    assert petition.decision_known_on == later
    assert petition.next_due_on == services.term_end(profile, later, 10)


# -- access codes (nothing stored reveals them) ------------------------------------------------


def test_access_code_is_derived_not_stored_and_opens_the_document(client, profile):
    agent, who = factories.user(roles=("agent",)), factories.user(full_name="Rui Autuado")
    doc = _issue(profile, agent, who, fact="Cão acorrentado")
    _serve(profile, doc, agent)
    db.session.commit()
    assert doc.access_code is None and doc.access_code_hash is None
    code = services.printed_code(doc)
    assert code and len(code) == 8 and code == codes.derived_code(doc.id)
    assert not services.code_matches(doc, "AAAAAAAA")
    page = client.post("/verificar-documento", data={"number": doc.number, "code": code.lower()})
    assert "Rui Autuado" in page.get_data(as_text=True)
    assert services.code_matches(doc, " ".join(code))


def test_migrated_old_code_is_kept_only_as_an_hmac_and_still_matches(profile):
    agent, who = factories.user(roles=("agent",)), factories.user()
    doc = _issue(profile, agent, who)
    doc.access_code_hash = codes.legacy_hash(doc.id, "ABCD2345")  # what the migration writes
    assert services.code_matches(doc, "abcd 2345")
    assert not services.code_matches(doc, codes.derived_code(doc.id))
    assert services.printed_code(doc) is None
    assert render_pdf(doc, profile).startswith(b"%PDF")
    doc.access_code_hash, doc.access_code = None, "WXYZ6789"  # a row the migration missed
    assert services.code_matches(doc, "wxyz6789")


# -- registration reads the consequences ---------------------------------------------------------


def test_vv_23_v_signed_commitment_refuses_any_registration(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        agent, who = factories.user(roles=("agent",)), factories.user()
        doc = services.issue_document(
            profile,
            kind="commitment",
            agent=agent,
            addressee=Addressee(who.full_name, who.cpf),
            fact="Reincidência em maus-tratos",
            place="Rua A",
            occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
            legal_provision="VV 23 V",
            agent_title="Agente",
        )
        _serve(profile, doc, agent)
        refused = services.registration_refusal(who.cpf, None)
        assert refused is not None and refused[0] == "VV 23 V"
        assert services.registration_refusal(factories.user().cpf, None) is None


def test_gru_88_4_the_apprehended_animal_is_not_registered_again_to_who_caused_it(profile):
    from portal.blueprints.animals.common import AnimalError
    from portal.blueprints.animals.registration import _check_consequences
    from portal.blueprints.animals.services import AnimalData

    def _pet_data(chip: str) -> AnimalData:
        return AnimalData(
            name="Rex", species="dog", sex="male", birth_date=date(2024, 1, 1), microchip=chip
        )

    agent, who = factories.user(roles=("agent",)), factories.user()
    pet = factories.animal(who, microchip="982000000000123")
    doc = services.issue_apprehension_notice(
        profile,
        agent=agent,
        addressee=Addressee(who.full_name, who.cpf),
        fact="Maus-tratos",
        place="Rua A",
        occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
        legal_provision="GRU 87 II",
        agent_title="Agente",
        definitive=True,
        animal_id=pet.id,
    )
    _serve(profile, doc, agent)
    services.close_lapsed(profile, doc.petition_due_on + timedelta(days=1))
    with pytest.raises(AnimalError) as err:
        _check_consequences(who, _pet_data("982 000000000123"))
    assert err.value.code == "consequence" and "GRU 88 §4" in err.value.message
    _check_consequences(who, _pet_data("982000000000999"))  # not barred


@pytest.mark.parametrize(
    ("key", "shown", "hidden"),
    [
        ("cabo", "Despesa com transporte (R$)", "Outra pessoa multada pelo mesmo fato"),
        ("bjp", "Outra pessoa multada pelo mesmo fato", "Despesa com transporte (R$)"),
    ],
)
def test_cabo_41_and_bjp_19_1_issue_form_offers_only_what_the_law_gives(
    make_app, key, shown, hidden
):
    app = make_app(PORTAL_PROFILE=key)
    with app.app_context():
        agent = factories.user(roles=("agent",))
        db.session.commit()
        client = app.test_client()
        client.post("/conta/entrar", data={"email": agent.email, "password": factories.PASSWORD})
        page = client.get("/ccz/fiscalizacao/novo").get_data(as_text=True)
        assert shown in page and hidden not in page
        assert "Reincidência:" in page  # CABO 39 §4 / BJP 30 §ú II offered to the agent

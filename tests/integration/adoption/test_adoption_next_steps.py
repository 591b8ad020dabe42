"""Issue 25: each adoption decision reaches the person on the home to-do list and by e-mail with
its date, every applicant page says what happens next, who does it and by when, and every staff
or NGO record of an application names its next action or says it is closed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption.progress import applicant_step, owner_step, review_due
from portal.extensions import db
from portal.models import DocumentKind, DocumentStatus, OutboxMessage
from portal.profiles.schema import ProgrammePolicy
from portal.services.clock import local_today
from portal.services.todo import citizen_todo
from tests import factories
from tests.factories import eligible_person, make_listing, ngo_user

# The programme's targets (profile policy; the test profile keeps the defaults).
REVIEW_TARGET_DAYS = ProgrammePolicy().adoption_review_target_days
HANDOVER_TARGET_DAYS = ProgrammePolicy().adoption_handover_target_days


@pytest.fixture
def world(app):  # type: ignore[no-untyped-def]
    reviewer, org = ngo_user("Patinhas Unidas")
    listing = make_listing(org, name="Amora", author=reviewer)
    person = eligible_person(full_name="Helena Adotante")
    answers = apps.Answers("house_yard", "none", "Eu mesma", "Com minha mãe")
    profile = app.extensions["portal_profile"]
    application = apps.submit_application(profile, person, listing, answers, True, local_today())
    db.session.flush()
    return profile, reviewer, person, application


def _day(days: int) -> str:
    return (local_today() + timedelta(days=days)).strftime("%d/%m/%Y")


def _texts(app, user) -> list[str]:  # type: ignore[no-untyped-def]
    with app.test_request_context():
        return [f"{item.text} [{item.action}]" for item in citizen_todo(user)]


def _mail(address: str, subject: str) -> str:
    found = db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.to == address, OutboxMessage.subject == subject)
    ).all()
    assert found, subject
    return found[-1].body


def test_each_decision_reaches_the_applicant_on_the_home_todo_list(app, world) -> None:
    profile, reviewer, person, application = world
    assert any(
        f"Pedido para adotar Amora em análise por Patinhas Unidas: decisão prevista até "
        f"{_day(REVIEW_TARGET_DAYS)}" in t
        for t in _texts(app, person)
    )
    apps.request_info(application, reviewer, "Mande uma foto do quintal.")
    assert any(
        "Mande uma foto do quintal." in t and "[Responder]" in t for t in _texts(app, person)
    )
    apps.answer_info(application, person, apps.Answers("house_yard", "none", "Eu", "Mãe"), "")
    apps.approve_application(profile, application, reviewer, local_today())
    assert any(
        f"Pedido para adotar Amora aprovado! Patinhas Unidas combina a entrega com você até "
        f"{_day(HANDOVER_TARGET_DAYS)}" in t
        for t in _texts(app, person)
    )


def test_a_refusal_reaches_the_applicant_on_the_home_todo_list(app, world) -> None:
    _profile, reviewer, person, application = world
    apps.refuse_application(application, reviewer, "Quintal sem muro.")
    assert any(
        "Pedido para adotar Amora não aprovado" in t and "Quintal sem muro." in t
        for t in _texts(app, person)
    )


def test_the_ngo_member_finds_what_waits_for_the_ngo_on_the_home_todo_list(app, world) -> None:
    profile, reviewer, person, application = world
    texts = _texts(app, reviewer)
    assert any(
        f"Pedido nº {application.id}: Helena Adotante quer adotar Amora." in t
        and "[Analisar o pedido]" in t
        for t in texts
    )
    apps.request_info(application, reviewer, "Mande uma foto.")
    assert not any(f"Pedido nº {application.id}:" in t for t in _texts(app, reviewer))
    apps.answer_info(application, person, apps.Answers("house_yard", "none", "Eu", "Mãe"), "")
    apps.approve_application(profile, application, reviewer, local_today())
    assert any(
        f"Pedido nº {application.id}:" in t and "[Registrar a entrega]" in t
        for t in _texts(app, reviewer)
    )


def test_emails_say_by_when(world) -> None:
    profile, reviewer, person, application = world
    assert _day(REVIEW_TARGET_DAYS) in _mail(person.email, "Recebemos seu pedido de adoção")
    apps.approve_application(profile, application, reviewer, local_today())
    assert _day(HANDOVER_TARGET_DAYS) in _mail(person.email, "Pedido de adoção aprovado!")


def test_every_status_has_a_next_step_or_is_closed(app, world) -> None:
    profile, reviewer, _person, application = world
    with app.test_request_context():
        step = applicant_step(application)
        assert step.who == "Patinhas Unidas" and step.by is not None and not step.closed
        assert owner_step(application).by == local_today() + timedelta(days=REVIEW_TARGET_DAYS)
        apps.approve_application(profile, application, reviewer, local_today())
        assert owner_step(application).by == local_today() + timedelta(days=HANDOVER_TARGET_DAYS)
        apps.refuse_application(application, reviewer, "Desistiu na entrega.")
        assert owner_step(application).closed
        assert owner_step(application).what == "Pedido encerrado: não aprovado."
        assert applicant_step(application).closed


def test_the_review_page_names_the_next_action_then_says_closed(client, auth, world) -> None:
    _profile, reviewer, _person, application = world
    db.session.commit()
    factories.switch_user(auth, reviewer)
    html = client.get(f"/adocao/gestao/pedidos/{application.id}").get_data(as_text=True)
    assert "Próxima ação" in html and f"Até {_day(REVIEW_TARGET_DAYS)}." in html
    manage = client.get("/adocao/gestao").get_data(as_text=True)
    assert "Decidir: aprovar, pedir informações ou recusar." in manage
    apps.refuse_application(application, reviewer, "Quintal sem muro.")
    db.session.commit()
    html = client.get(f"/adocao/gestao/pedidos/{application.id}").get_data(as_text=True)
    assert "Pedido encerrado: não aprovado." in html


def test_the_review_counts_the_proofs_still_to_check(client, auth, app) -> None:
    reviewer, org = ngo_user("Patinhas Unidas")
    listing = make_listing(org, name="Amora", author=reviewer)
    person = factories.user()
    for kind in (DocumentKind.IDENTITY, DocumentKind.PROOF_OF_ADDRESS):
        factories.add_document(person, kind)
    factories.add_document(person, DocumentKind.PROOF_OF_INCOME, status=DocumentStatus.PENDING)
    answers = apps.Answers("house_yard", "none", "Eu", "Mãe")
    profile = app.extensions["portal_profile"]
    application = apps.submit_application(profile, person, listing, answers, True, local_today())
    with app.test_request_context():
        assert owner_step(application).what.startswith("Conferir 1 documento(s) pendente(s)")


def test_the_applicant_page_says_what_who_and_by_when(client, auth, world) -> None:
    _profile, _reviewer, person, application = world
    db.session.commit()
    factories.switch_user(auth, person)
    html = client.get(f"/adocao/minhas/{application.id}").get_data(as_text=True)
    assert "Próximo passo" in html and "Quem: Patinhas Unidas." in html
    assert f"Até {_day(REVIEW_TARGET_DAYS)}." in html
    listing_html = client.get("/adocao/minhas").get_data(as_text=True)
    assert f"Até {_day(REVIEW_TARGET_DAYS)}." in listing_html


def test_a_refused_proof_puts_the_turn_with_the_applicant(app, world) -> None:
    """Before: the refusal left "Em análise ... decisão prevista" on the applicant's list and
    "decidir" on the NGO's, while only the applicant could move the application on."""
    from portal.blueprints.adoption import services as svc

    _profile, reviewer, person, application = world
    proof = next(d for d in svc.attached_documents(application) if d.kind == "proof_of_income")
    svc.review_document(proof, reviewer, accept=False, reason="Ilegível.")
    with app.test_request_context():
        step = applicant_step(application)
        assert step.who == "Você" and "Comprovante de renda (motivo: Ilegível.)" in step.what
        assert owner_step(application).by is None
        items = [i for i in citizen_todo(person) if i.kind == "adoption"]
        assert items[0].action == "Enviar documento"
        assert f"pedido={application.id}" in items[0].url and "tipo=proof_of_income" in items[0].url
    assert not any(f"Pedido nº {application.id}:" in t for t in _texts(app, reviewer))
    mail = _mail(person.email, "Documento recusado no pedido de adoção")
    assert "/adocao/minhas" in mail
    fresh = factories.add_document(person, "proof_of_income", status=DocumentStatus.PENDING)
    svc.attach_document(application, fresh, person)
    with app.test_request_context():
        assert applicant_step(application).who == "Patinhas Unidas"
        assert owner_step(application).what.startswith("Conferir 1 documento(s) pendente(s)")


def test_the_staff_queue_of_ccz_applications_names_the_next_action(client, auth, app) -> None:
    listing = make_listing(None, name="Trovão")
    person = eligible_person()
    answers = apps.Answers("house_yard", "none", "Eu", "Mãe")
    profile = app.extensions["portal_profile"]
    apps.submit_application(profile, person, listing, answers, True, local_today())
    db.session.commit()
    factories.switch_user(auth, roles=("agent",))
    html = client.get("/ccz/filas/adocao-ccz").get_data(as_text=True)
    assert "Próxima ação" in html
    assert (
        f"Decidir: aprovar, pedir informações ou recusar. Até {_day(REVIEW_TARGET_DAYS)}." in html
    )


def test_a_replacement_proof_reaches_the_ngo_by_email(app, world) -> None:
    """Before: after a refusal the applicant's new proof arrived in silence; the review waited."""
    from portal.blueprints.adoption import services as svc

    _profile, reviewer, person, application = world
    org = application.listing.organization
    assert org.email
    proof = next(d for d in svc.attached_documents(application) if d.kind == "proof_of_income")
    svc.review_document(proof, reviewer, accept=False, reason="Ilegível.")
    subject = f"Novo documento no pedido de adoção nº {application.id}"
    assert not db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.subject == subject)
    ).all()
    fresh = factories.add_document(person, "proof_of_income", status=DocumentStatus.PENDING)
    svc.attach_document(application, fresh, person)
    body = _mail(org.email, subject)
    assert "Comprovante de renda" in body and "no lugar do que foi recusado" in body
    assert f"/adocao/gestao/pedidos/{application.id}" in body
    assert "Helena" not in body  # no applicant's name in the e-mail
    svc.attach_document(application, fresh, person)  # attaching again sends nothing more
    sent = db.session.scalars(select(OutboxMessage).where(OutboxMessage.subject == subject)).all()
    assert len(sent) == 1


def test_a_replacement_proof_on_a_ccz_listing_reaches_the_staff_who_refused(app) -> None:
    from portal.blueprints.adoption import services as svc

    listing = make_listing(None, name="Trovão")
    person = eligible_person()
    answers = apps.Answers("house_yard", "none", "Eu", "Mãe")
    profile = app.extensions["portal_profile"]
    application = apps.submit_application(profile, person, listing, answers, True, local_today())
    staff = factories.user(roles=("agent",))
    proof = next(d for d in svc.attached_documents(application) if d.kind == "identity")
    svc.review_document(proof, staff, accept=False, reason="Foto cortada.")
    fresh = factories.add_document(person, "identity", status=DocumentStatus.PENDING)
    svc.attach_document(application, fresh, person)
    body = _mail(staff.email or "", f"Novo documento no pedido de adoção nº {application.id}")
    assert "Documento de identidade" in body


def test_adoption_targets_are_the_programme_policy_of_the_profile(app, world, monkeypatch) -> None:
    """No law sets a deadline to decide an application (VV 28-29, BJP 24, CAB 16-17, GRU 88): the
    programme's target comes from the profile, so a city changes it in its file."""
    profile, _reviewer, _person, application = world
    assert review_due(application) == local_today() + timedelta(days=REVIEW_TARGET_DAYS)
    programme = profile.programme.model_copy(update={"adoption_review_target_days": 15})
    monkeypatch.setitem(
        app.extensions, "portal_profile", profile.model_copy(update={"programme": programme})
    )
    assert review_due(application) == local_today() + timedelta(days=15)
    assert applicant_step(application).by == local_today() + timedelta(days=15)

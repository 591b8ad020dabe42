"""Reviewing applications: one approval per animal even when two reviewers race, a withdrawn
listing closes its open applications, another NGO sees none of them, and the NGO's e-mails."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select, update

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import services as svc
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    ApplicationStatus,
    Listing,
    ListingState,
)
from tests.factories import eligible_person, make_listing, ngo_user

ANSWERS = apps.Answers(
    home_type="house_yard", other_animals="none", caretaker="Eu", holidays="Minha mãe"
)


def _profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _submitted(listing: Listing, person=None) -> AdoptionApplication:  # type: ignore[no-untyped-def]
    from flask import current_app

    return apps.submit_application(
        current_app.extensions["portal_profile"],
        person or eligible_person(),
        listing,
        ANSWERS,
        True,
        date.today(),
    )


def test_two_approvals_for_one_animal_are_impossible_even_when_concurrent(app) -> None:
    reviewer, org = ngo_user()
    listing = make_listing(org, author=reviewer)
    _first, second = _submitted(listing), _submitted(listing)
    db.session.commit()
    assert listing.state == ListingState.PUBLISHED  # loaded in this session
    # Another reviewer approved ``first`` in another request: the row says reserved, but this
    # session still holds the listing it loaded as published.
    db.session.execute(
        update(Listing)
        .where(Listing.id == listing.id)
        .values(state=ListingState.RESERVED)
        .execution_options(synchronize_session=False)
    )
    with pytest.raises(svc.AdoptionError) as err:
        apps.approve_application(_profile(app), second, reviewer, date.today())
    assert err.value.code == "not_available"
    assert second.status == ApplicationStatus.SUBMITTED


def test_withdrawing_a_listing_closes_its_open_applications(app) -> None:
    reviewer, org = ngo_user()
    listing = make_listing(org, author=reviewer)
    application = _submitted(listing)
    svc.change_state(listing, ListingState.WITHDRAWN, reviewer)
    db.session.commit()
    assert application.status == ApplicationStatus.REFUSED
    assert application.refusal_reason is not None
    assert "retirado" in application.refusal_reason


def test_another_ngos_application_and_documents_are_404(client, auth, app) -> None:
    reviewer, org = ngo_user()
    other, _other_org = ngo_user()
    listing = make_listing(org, author=reviewer)
    application = _submitted(listing)
    doc = db.session.scalar(
        select(ApplicantDocument).where(ApplicantDocument.person_id == application.applicant_id)
    )
    assert doc is not None
    db.session.commit()
    from portal.blueprints.files import file_url

    with app.test_request_context():
        doc_url = file_url(doc.stored_file, "original")
    auth.login(other)
    assert client.get(f"/adocao/gestao/pedidos/{application.id}").status_code == 404
    assert client.get(f"/adocao/gestao/pedidos/{application.id}/entrega").status_code == 404
    assert client.get(f"/adocao/pedidos/{application.id}").status_code == 404
    assert client.get(doc_url).status_code == 404


def test_ngo_emails_greet_the_team_and_name_the_application(app) -> None:
    from portal.models import OutboxMessage

    reviewer, org = ngo_user("ONG Bigodes")
    listing = make_listing(org, author=reviewer)
    application = _submitted(listing)
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == org.email))
    assert mail is not None
    assert mail.body.startswith("Olá, equipe de ONG Bigodes.")
    assert f"pedido nº {application.id}" in mail.body
    assert mail.body.rstrip().endswith("Centro de Controle de Zoonoses")

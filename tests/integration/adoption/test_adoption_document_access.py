"""Issue 8 (security 5, small slip 10): an NGO opens an applicant's proofs only while that
person's application to it is open, and each "Enviar documento" link opens the upload form on the
document it asks for."""

from __future__ import annotations

import io
import re

from sqlalchemy import select

from portal.blueprints.adoption import applications as apps
from portal.extensions import db
from portal.models import AdoptionApplication, ApplicantDocument, DocumentKind, User
from portal.services.uploads import store_document
from tests import factories
from tests.factories import add_document, eligible_person, make_listing, ngo_user


def _open_application(person: User, listing) -> AdoptionApplication:  # type: ignore[no-untyped-def]
    application = AdoptionApplication(
        listing_id=listing.id, applicant_id=person.id, answers={}, eligibility=[]
    )
    db.session.add(application)
    db.session.flush()
    return application


def _status(client, url: str) -> int:  # type: ignore[no-untyped-def]
    response = client.get(url)
    response.close()  # files are streamed from disk
    return response.status_code


def _file_url(doc: ApplicantDocument) -> str:
    return f"/arquivos/{doc.stored_file.token}/original"


def _setting():  # type: ignore[no-untyped-def]
    reviewer, org = ngo_user("ONG Patas Unidas")
    listing = make_listing(org, author=reviewer)
    person = eligible_person()
    application = _open_application(person, listing)
    db.session.commit()
    return reviewer, person, application


def test_ngo_opens_the_proofs_attached_to_an_open_application(client, auth, app) -> None:
    reviewer, person, application = _setting()
    doc = db.session.scalars(
        select(ApplicantDocument).where(ApplicantDocument.person_id == person.id)
    ).first()
    auth.login(reviewer)
    assert _status(client, _file_url(doc)) == 200
    response = client.get(f"/adocao/gestao/pedidos/{application.id}")
    assert response.status_code == 200
    assert doc.stored_file.token in response.get_data(as_text=True)


def test_cancelled_application_closes_the_proofs_to_the_ngo(client, auth, app) -> None:
    reviewer, person, application = _setting()
    docs = db.session.scalars(
        select(ApplicantDocument).where(ApplicantDocument.person_id == person.id)
    ).all()
    apps.cancel_application(application, person)
    db.session.commit()
    auth.login(reviewer)
    for doc in docs:
        assert _status(client, _file_url(doc)) in (403, 404)
    response = client.get(f"/adocao/gestao/pedidos/{application.id}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert not any(doc.stored_file.token in html for doc in docs)
    assert "só ficam disponíveis enquanto o pedido está em andamento" in html
    # Nor may the NGO still accept or refuse them.
    response = client.post(
        f"/adocao/gestao/pedidos/{application.id}/documentos/{docs[0].id}",
        data={"decision": "refuse", "reason": "Ilegível."},
    )
    assert response.status_code == 404
    db.session.expire_all()
    assert db.session.get(ApplicantDocument, docs[0].id).status == "accepted"


def test_proof_uploaded_later_for_another_ngo_is_refused_to_the_first(client, auth, app) -> None:
    reviewer, person, application = _setting()
    apps.cancel_application(application, person)
    other_reviewer, other_org = ngo_user("ONG Outra")
    other_listing = make_listing(other_org, author=other_reviewer, name="Tobias")
    _open_application(person, other_listing)
    later = add_document(person, DocumentKind.PROOF_OF_INCOME)  # for the new application
    db.session.commit()
    auth.login(reviewer)
    assert _status(client, _file_url(later)) in (403, 404)
    auth.logout()
    auth.login(other_reviewer)
    assert _status(client, _file_url(later)) == 200  # the NGO now deciding sees it


def test_refused_or_completed_application_also_closes_the_proofs(client, auth, app) -> None:
    reviewer, person, application = _setting()
    doc = db.session.scalars(
        select(ApplicantDocument).where(ApplicantDocument.person_id == person.id)
    ).first()
    auth.login(reviewer)
    for status in ("refused", "completed"):
        application.status = status
        db.session.commit()
        assert _status(client, _file_url(doc)) in (403, 404), status


def test_another_private_file_of_the_applicant_never_opens_for_the_ngo(client, auth, app) -> None:
    reviewer, person, _application = _setting()
    other = store_document(
        io.BytesIO(b"%PDF-1.4\n% outra finalidade\n"),
        purpose="exemption_proof",
        owner_id=person.id,
        filename="prova.pdf",
    )
    db.session.commit()
    auth.login(reviewer)
    assert _status(client, f"/arquivos/{other.token}/original") == 404


def test_each_enviar_documento_link_preselects_its_own_document(client, auth, app) -> None:
    _reviewer, org = ngo_user()
    listing = make_listing(org)
    db.session.commit()
    auth.login(factories.user())  # no proof uploaded yet: three links
    html = client.get(f"/adocao/animal/{listing.id}/quero-adotar").get_data(as_text=True)
    links = re.findall(r'href="([^"]*meus-documentos[^"]*)"[^>]*>Enviar documento', html)
    kinds = sorted(re.search(r"tipo=(\w+)", link).group(1) for link in links)
    assert kinds == ["identity", "proof_of_address", "proof_of_income"]
    page = client.get(links[-1].replace("&amp;", "&")).get_data(as_text=True)
    selected = re.search(
        r'<option[^>]*selected[^>]*value="(\w+)"|<option[^>]*value="(\w+)"'
        r"[^>]*selected",
        page,
    )
    assert selected is not None
    assert (selected.group(1) or selected.group(2)) == re.search(r"tipo=(\w+)", links[-1]).group(1)

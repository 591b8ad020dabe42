"""Issue 8 (security 5, small slip 10): an NGO opens an applicant's proofs only while that
person's application to it is open and only the proofs attached to that application; each
"Enviar documento" link opens the upload form on the document it asks for."""

from __future__ import annotations

import io
import re

import pytest
from sqlalchemy import select

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import services as svc
from portal.extensions import db
from portal.models import AdoptionApplication, ApplicantDocument, DocumentKind, User
from portal.services.uploads import store_document
from tests import factories
from tests.factories import add_document, eligible_person, make_listing, ngo_user


def _open_application(person: User, listing) -> AdoptionApplication:  # type: ignore[no-untyped-def]
    """An open application carrying the person's current proofs, as a submission attaches them."""
    application = AdoptionApplication(
        listing_id=listing.id, applicant_id=person.id, answers={}, eligibility=[]
    )
    db.session.add(application)
    db.session.flush()
    svc.attach_current_proofs(application, person)
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
    assert doc is not None
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
    kept = db.session.get(ApplicantDocument, docs[0].id)
    assert kept is not None and kept.status == "accepted"


def test_proof_uploaded_later_for_another_ngo_is_refused_to_the_first(client, auth, app) -> None:
    reviewer, person, application = _setting()
    apps.cancel_application(application, person)
    other_reviewer, other_org = ngo_user("ONG Outra")
    other_listing = make_listing(other_org, author=other_reviewer, name="Tobias")
    other = _open_application(person, other_listing)
    later = add_document(person, DocumentKind.PROOF_OF_INCOME)  # for the new application
    svc.attach_document(other, later, person)
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
    assert doc is not None
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
    kinds = sorted(re.findall(r"tipo=(\w+)", " ".join(links)))
    assert kinds == ["identity", "proof_of_address", "proof_of_income"]
    page = client.get(links[-1].replace("&amp;", "&")).get_data(as_text=True)
    selected = re.search(
        r'<option[^>]*selected[^>]*value="(\w+)"|<option[^>]*value="(\w+)"'
        r"[^>]*selected",
        page,
    )
    assert selected is not None
    assert (selected.group(1) or selected.group(2)) == re.findall(r"tipo=(\w+)", links[-1])[0]


ANSWERS = {
    "home_type": "house_yard",
    "other_animals": "none",
    "caretaker": "Eu",
    "holidays": "Minha mãe",
    "accept_term": "y",
}


def _docs_of(person: User) -> list[ApplicantDocument]:
    return list(
        db.session.scalars(
            select(ApplicantDocument)
            .where(ApplicantDocument.person_id == person.id)
            .order_by(ApplicantDocument.id)
        )
    )


def test_proof_sent_for_another_application_never_opens_for_the_first_ngo(
    client, auth, app
) -> None:
    # The first application is still open: the person-wide rule used to open every proof of the
    # person to its NGO, including one sent later for another NGO's animal.
    reviewer, person, application = _setting()
    other_reviewer, other_org = ngo_user("ONG Outra")
    other = _open_application(person, make_listing(other_org, author=other_reviewer, name="Tobias"))
    later = add_document(person, DocumentKind.PROOF_OF_ADDRESS)
    svc.attach_document(other, later, person)
    db.session.commit()
    auth.login(reviewer)
    assert _status(client, _file_url(later)) == 404
    html = client.get(f"/adocao/gestao/pedidos/{application.id}").get_data(as_text=True)
    assert later.stored_file.token not in html
    response = client.post(
        f"/adocao/gestao/pedidos/{application.id}/documentos/{later.id}",
        data={"decision": "accept"},
    )
    assert response.status_code == 404
    auth.logout()
    auth.login(other_reviewer)
    assert _status(client, _file_url(later)) == 200


def test_proof_uploaded_for_no_application_stays_closed_to_the_ngo(client, auth, app) -> None:
    reviewer, person, application = _setting()
    loose = add_document(person, DocumentKind.IDENTITY)  # "Meus documentos", for nothing yet
    db.session.commit()
    auth.login(reviewer)
    assert _status(client, _file_url(loose)) == 404
    assert loose not in svc.application_documents(application, reviewer)


@pytest.mark.parametrize("how", ["cancelled", "refused", "withdrawn"])
def test_ngo_loses_the_attached_proofs_when_the_application_closes(
    client, auth, app, how: str
) -> None:
    reviewer, person, application = _setting()
    attached = svc.attached_documents(application)
    assert len(attached) == 3
    if how == "cancelled":
        apps.cancel_application(application, person)
    elif how == "refused":
        apps.refuse_application(application, reviewer, "Não atende.")
    else:
        svc.change_state(application.listing, "withdrawn", reviewer)
    db.session.commit()
    auth.login(reviewer)
    for doc in attached:
        assert _status(client, _file_url(doc)) == 404, how
    assert svc.application_documents(application, reviewer) == []


def test_submission_attaches_the_proofs_already_sent_without_uploading_again(
    client, auth, app
) -> None:
    first_reviewer, first_org = ngo_user("ONG Um")
    second_reviewer, second_org = ngo_user("ONG Dois")
    first = make_listing(first_org, author=first_reviewer, name="Amora")
    second = make_listing(second_org, author=second_reviewer, name="Bidu")
    person = eligible_person()
    db.session.commit()
    proofs = _docs_of(person)
    auth.login(person)
    for listing in (first, second):
        page = client.get(f"/adocao/animal/{listing.id}/quero-adotar").get_data(as_text=True)
        assert "seguem com o pedido" in page
        response = client.post(f"/adocao/animal/{listing.id}/quero-adotar", data=ANSWERS)
        assert response.status_code == 302
    assert _docs_of(person) == proofs  # nothing uploaded again
    applications = db.session.scalars(
        select(AdoptionApplication).order_by(AdoptionApplication.id)
    ).all()
    for application in applications:
        assert {d.id for d in svc.attached_documents(application)} == {d.id for d in proofs}


def test_proof_sent_from_the_application_page_is_attached_to_that_application(
    client, auth, app
) -> None:
    reviewer, person, application = _setting()
    other_reviewer, other_org = ngo_user("ONG Outra")
    other = _open_application(person, make_listing(other_org, author=other_reviewer, name="Tobias"))
    db.session.commit()
    auth.login(person)
    html = client.get(f"/adocao/minhas/{other.id}").get_data(as_text=True)
    assert f"pedido={other.id}" in html
    response = client.post(
        f"/adocao/meus-documentos?pedido={other.id}",
        data={
            "kind": "proof_of_income",
            "file": (io.BytesIO(b"%PDF-1.4\n% holerite\n"), "holerite.pdf"),
        },
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/adocao/minhas/{other.id}")
    new = _docs_of(person)[-1]
    assert new in svc.attached_documents(other)
    assert new not in svc.attached_documents(application)
    auth.logout()
    auth.login(reviewer)
    assert _status(client, _file_url(new)) == 404


def test_applicant_attaches_an_existing_proof_to_an_open_application(client, auth, app) -> None:
    reviewer, person, application = _setting()
    extra = add_document(person, DocumentKind.PROOF_OF_INCOME)
    db.session.commit()
    auth.login(reviewer)
    assert _status(client, _file_url(extra)) == 404
    auth.logout()
    auth.login(person)
    html = client.get(f"/adocao/minhas/{application.id}").get_data(as_text=True)
    assert "Anexar ao pedido" in html
    response = client.post(
        f"/adocao/minhas/{application.id}/documentos", data={"document": str(extra.id)}
    )
    assert response.status_code == 302
    assert extra in svc.attached_documents(application)
    auth.logout()
    auth.login(reviewer)
    assert _status(client, _file_url(extra)) == 200


def test_someone_elses_proof_cannot_be_attached(client, auth, app) -> None:
    _reviewer, person, application = _setting()
    stranger = eligible_person()
    theirs = _docs_of(stranger)[0]
    db.session.commit()
    auth.login(person)
    response = client.post(
        f"/adocao/minhas/{application.id}/documentos", data={"document": str(theirs.id)}
    )
    assert response.status_code == 302
    assert theirs not in svc.attached_documents(application)


def test_reviewer_eligibility_counts_only_the_attached_proofs(client, auth, app) -> None:
    reviewer, person, application = _setting()
    from portal.models import ApplicationDocument

    for link in db.session.scalars(select(ApplicationDocument)):
        db.session.delete(link)
    db.session.commit()
    auth.login(reviewer)
    html = client.get(f"/adocao/gestao/pedidos/{application.id}").get_data(as_text=True)
    assert "ainda não enviou um comprovante de renda" in html


def test_ccz_staff_see_the_proofs_attached_to_a_ccz_application(client, auth, app) -> None:
    staff = factories.user(roles=("agent",))
    listing = make_listing(None, name="Nina")
    person = eligible_person()
    application = _open_application(person, listing)
    unrelated = add_document(person, DocumentKind.PROOF_OF_INCOME)
    db.session.commit()
    attached = svc.attached_documents(application)
    auth.login(staff)
    response = client.get(f"/adocao/gestao/pedidos/{application.id}")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert all(d.stored_file.token in html for d in attached)
    assert unrelated.stored_file.token not in html
    assert _status(client, _file_url(attached[0])) == 200
    apps.cancel_application(application, person)
    db.session.commit()
    html = client.get(f"/adocao/gestao/pedidos/{application.id}").get_data(as_text=True)
    assert all(d.stored_file.token in html for d in attached)  # the CCZ's own record

"""QA findings on adoption: each test failed before its fix, or pins an edge the QA pass checked."""

from __future__ import annotations

import io
from datetime import date, timedelta

import pytest
from sqlalchemy import select, update

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import services as svc
from portal.blueprints.adoption.eligibility import FAIL, PASS, check_eligibility
from portal.extensions import db
from portal.models import (
    AdoptionApplication,
    ApplicantDocument,
    ApplicationStatus,
    DocumentKind,
    Listing,
    ListingState,
)
from portal.services.api_auth import issue_client
from tests import factories
from tests.factories import (
    add_document,
    eligible_person,
    fill_household,
    jpeg_bytes,
    make_listing,
    ngo_user,
)

ANSWERS = apps.Answers(
    home_type="house_yard", other_animals="none", caretaker="Eu", holidays="Minha mãe"
)


def _profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _household(results):  # type: ignore[no-untyped-def]
    return next(r for r in results if r.rule == "household_limit")


def test_gru_37_young_animal_does_not_count_at_a_full_household(app) -> None:
    today = date.today()
    person = eligible_person()
    fill_household(person, 5)
    puppy = make_listing(None, birth_date=(today - timedelta(days=60)).isoformat(), age_months=None)
    result = _household(check_eligibility(_profile(app), person, puppy, today))
    assert result.status == PASS
    # ...but the person is told when it starts to count and that the licence will be needed.
    counts_on = today - timedelta(days=60) + timedelta(days=121)
    assert counts_on.strftime("%d/%m/%Y") in result.message
    assert "licença especial" in result.message


def test_gru_37_adult_animal_at_a_full_household_fails(app) -> None:
    today = date.today()
    person = eligible_person()
    fill_household(person, 5)
    adult = make_listing(None)
    result = _household(check_eligibility(_profile(app), person, adult, today))
    assert result.status == FAIL and result.article.startswith("GRU 37")


def test_gru_37_young_animal_below_the_limit_has_no_warning(app) -> None:
    today = date.today()
    person = eligible_person()
    fill_household(person, 3)
    puppy = make_listing(None, birth_date=(today - timedelta(days=60)).isoformat(), age_months=None)
    result = _household(check_eligibility(_profile(app), person, puppy, today))
    assert result.status == PASS and "licença" not in result.message


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
    assert "retirado" in application.refusal_reason


def test_another_ngos_application_and_documents_are_404(client, auth, app) -> None:
    reviewer, org = ngo_user()
    other, _other_org = ngo_user()
    listing = make_listing(org, author=reviewer)
    application = _submitted(listing)
    doc = db.session.scalar(
        select(ApplicantDocument).where(ApplicantDocument.person_id == application.applicant_id)
    )
    db.session.commit()
    from portal.blueprints.files import file_url

    with app.test_request_context():
        doc_url = file_url(doc.stored_file, "original")
    auth.login(other)
    assert client.get(f"/adocao/gestao/pedidos/{application.id}").status_code == 404
    assert client.get(f"/adocao/gestao/pedidos/{application.id}/entrega").status_code == 404
    assert client.get(f"/adocao/pedidos/{application.id}").status_code == 404
    assert client.get(doc_url).status_code == 404


@pytest.fixture
def ngo_api(app):  # type: ignore[no-untyped-def]
    user, org = ngo_user("ONG API")
    client_obj, token = issue_client("ngo", org.legal_name, user_id=user.id)
    org.api_client = client_obj
    db.session.commit()
    return org, {"Authorization": f"Bearer {token}"}


def test_malformed_multipart_is_422_json(client, ngo_api) -> None:
    org, headers = ngo_api
    listing = make_listing(org)
    db.session.commit()
    for body, ctype in (
        (b"garbage", "multipart/form-data"),
        (b"--x\r\nnot a part", "multipart/form-data; boundary=x"),
        (b"", "application/octet-stream"),
    ):
        response = client.post(
            f"/api/v1/listings/{listing.id}/photos", headers=headers, data=body, content_type=ctype
        )
        assert response.status_code in (400, 422), (ctype, response.status_code)
        assert response.get_json()["errors"][0]["message"]


def test_oversized_photo_is_413_json(client, app, ngo_api) -> None:
    org, headers = ngo_api
    listing = make_listing(org)
    db.session.commit()
    # The body is built by hand: the test client would spool a large dict body to a temporary
    # file that it never closes when the app refuses to read it.
    big = jpeg_bytes() + b"\0" * (app.config["MAX_CONTENT_LENGTH"] + 10)
    body = (
        b'--b\r\nContent-Disposition: form-data; name="photo"; filename="f.jpg"\r\n'
        b"Content-Type: image/jpeg\r\n\r\n" + big + b"\r\n--b--\r\n"
    )
    response = client.post(
        f"/api/v1/listings/{listing.id}/photos",
        headers=headers,
        data=body,
        content_type="multipart/form-data; boundary=b",
    )
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["message"]


def test_text_file_named_jpg_is_422(client, ngo_api) -> None:
    org, headers = ngo_api
    listing = make_listing(org)
    db.session.commit()
    response = client.post(
        f"/api/v1/listings/{listing.id}/photos",
        headers=headers,
        data={"photo": (io.BytesIO(b"hello world\n" * 50), "foto.jpg")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "photo"


def test_cursor_pages_have_no_duplicates_or_gaps_when_listings_are_published(client, app) -> None:
    reviewer, org = ngo_user()
    for i in range(7):
        make_listing(org, author=reviewer, name=f"A{i}")
    db.session.commit()
    seen: list[int] = []
    first = client.get("/api/v1/listings?limit=3").get_json()
    seen += [i["id"] for i in first["items"]]
    make_listing(org, author=reviewer, name="Novo")  # published between pages
    db.session.commit()
    cursor = first["next"]
    while cursor:
        page = client.get(f"/api/v1/listings?limit=3&cursor={cursor}").get_json()
        seen += [i["id"] for i in page["items"]]
        cursor = page["next"]
    assert len(seen) == len(set(seen)) == 7


@pytest.mark.parametrize("target", ["reserved", "adopted", "bogus", 5])
def test_patch_invalid_transitions_are_422(client, ngo_api, target) -> None:
    org, headers = ngo_api
    listing = make_listing(org)
    db.session.commit()
    response = client.patch(
        f"/api/v1/listings/{listing.id}", json={"state": target}, headers=headers
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "state"


def test_under_18_fails_with_the_article(app) -> None:
    person = eligible_person(birth_date=date.today() - timedelta(days=17 * 365))
    results = check_eligibility(_profile(app), person, make_listing(None), date.today())
    adult = next(r for r in results if r.rule == "adult")
    assert adult.status == FAIL and adult.article == "VV 28 §2"


def test_proof_of_address_91_days_old_is_refused(app) -> None:
    person = factories.user()
    with pytest.raises(svc.AdoptionError) as err:
        add_document(
            person, DocumentKind.PROOF_OF_ADDRESS, issued_on=date.today() - timedelta(days=91)
        )
    assert err.value.field == "issued_on"


def test_ngo_emails_greet_the_team_and_name_the_application(app) -> None:
    from portal.models import OutboxMessage

    reviewer, org = ngo_user("ONG Bigodes")
    listing = make_listing(org, author=reviewer)
    application = _submitted(listing)
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == org.email))
    assert mail.body.startswith("Olá, equipe de ONG Bigodes.")
    assert f"pedido nº {application.id}" in mail.body
    assert mail.body.rstrip().endswith("Centro de Controle de Zoonoses")


def test_vv_28_par3_leaflet_prints_the_local_day_of_a_late_evening_adoption(app) -> None:
    from datetime import UTC, datetime

    from portal.blueprints.adoption.leaflet import leaflet_intro

    reviewer, org = ngo_user()
    application = _submitted(make_listing(org, author=reviewer))
    # 22:30 in São Paulo on 29/11 is 01:30 UTC on 30/11.
    application.completed_at = datetime(2026, 11, 30, 1, 30, tzinfo=UTC)
    application.rga_number = "C-2026-000001-0"
    assert "29/11/2026" in leaflet_intro(application)


def test_cab_17_days_held_count_from_the_local_day_of_publication(make_app) -> None:
    from datetime import UTC, datetime

    from portal.models import UnitValue

    app = make_app(PORTAL_PROFILE="cabeceira")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        db.session.add(UnitValue(unit="UFM", value_cents=10_000, effective_from=date(2026, 1, 1)))
        listing = make_listing(None, on=date(2026, 11, 20))
        # Published at 22:00 on 20/11 in the municipality: 01:00 UTC on 21/11.
        listing.published_at = datetime(2026, 11, 21, 1, 0, tzinfo=UTC)
        total, _breakdown = apps.adoption_fee(profile, listing, date(2026, 11, 27))
        assert total == 7 * 5_000  # CAB 17: 50 % UFM per day, 7 days from 20/11


@pytest.mark.parametrize(
    ("birth", "on", "text"),
    [
        (date(2024, 5, 10), date(2026, 6, 10), "2 anos e 1 mês"),
        (date(2025, 5, 10), date(2026, 8, 10), "1 ano e 3 meses"),
        (date(2026, 11, 20), date(2026, 11, 29), "menos de 1 mês"),
    ],
)
def test_ages_are_spelled_without_parenthesised_plurals(app, birth, on, text) -> None:
    from portal.blueprints.adoption.routes import age_label

    with app.test_request_context():
        assert age_label(birth, False, on) == text


def test_vv_28_par3_leaflet_pdf_never_ends_a_page_with_a_heading(app, tmp_path) -> None:
    import shutil
    import subprocess

    from portal.blueprints.adoption.leaflet import leaflet_pdf, leaflet_sections

    if shutil.which("pdftotext") is None:
        pytest.skip("poppler-utils (pdftotext) is not installed")
    reviewer, org = ngo_user()
    application = _submitted(make_listing(org, author=reviewer, story="x" * 300))
    application.rga_number = "C-2026-000001-0"
    with app.test_request_context():
        pdf = tmp_path / "folheto.pdf"
        pdf.write_bytes(leaflet_pdf(application))
        titles = {s.title for s in leaflet_sections(application)}
    text = subprocess.run(
        ["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    for page in text.split("\f"):
        lines = [line.strip() for line in page.splitlines() if line.strip()]
        if lines:
            assert lines[-1] not in titles, lines[-1]

"""The NGO listings API under bad requests: malformed or oversized uploads, a text file named
.jpg, invalid state changes (all JSON errors, never a 500), and stable cursor pages while
listings are being published."""

from __future__ import annotations

import io

import pytest

from portal.extensions import db
from portal.services.api_auth import issue_client
from tests.factories import jpeg_bytes, make_listing, ngo_user


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

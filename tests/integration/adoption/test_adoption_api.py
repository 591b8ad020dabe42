"""The NGO listings API: every status code, never a 500, another NGO's listing is a 404."""

from __future__ import annotations

import io

import pytest

from portal.extensions import db
from portal.models import Listing, ListingState
from portal.services.api_auth import issue_client
from tests.factories import jpeg_bytes, make_listing, make_org, ngo_user

PAYLOAD = {
    "name": "Pipoca",
    "species": "dog",
    "sex": "female",
    "age_months": 14,
    "size": "small",
    "color": "Branca",
    "temperament": ["good_with_children", "dogs"],
    "vaccinated": True,
    "dewormed": True,
    "sterilized": False,
    "story": "Adora brincar.",
    "district": "Vila Galvão",
}


@pytest.fixture
def ngo(app):  # type: ignore[no-untyped-def]
    user, org = ngo_user("ONG Focinhos")
    client_obj, token = issue_client("ngo", org.legal_name, user_id=user.id)
    org.api_client = client_obj
    db.session.commit()
    return org, {"Authorization": f"Bearer {token}"}


def _photo(client, headers, listing_id, data=None):  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/v1/listings/{listing_id}/photos",
        headers=headers,
        data={"photo": (io.BytesIO(data or jpeg_bytes()), "f.jpg")},
        content_type="multipart/form-data",
    )


def _errors(response):  # type: ignore[no-untyped-def]
    body = response.get_json()
    assert set(body) == {"errors"}
    for err in body["errors"]:
        assert set(err) == {"field", "code", "message"} and err["message"]
    return body["errors"]


def test_create_listing_returns_201_draft(client, ngo) -> None:
    org, headers = ngo
    response = client.post("/api/v1/listings", json=PAYLOAD, headers=headers)
    assert response.status_code == 201
    body = response.get_json()
    assert body == {"id": body["id"], "state": "draft"}
    assert response.headers["Location"].endswith(f"/api/v1/listings/{body['id']}")
    listing = db.session.get(Listing, body["id"])
    assert listing.organization_id == org.id and listing.birth_date_estimated
    assert listing.good_with_children and listing.good_with_dogs and not listing.good_with_cats


def test_create_with_birth_date(client, ngo) -> None:
    _org, headers = ngo
    payload = {**PAYLOAD, "birth_date": "2024-03-01"}
    payload.pop("age_months")
    response = client.post("/api/v1/listings", json=payload, headers=headers)
    assert response.status_code == 201
    listing = db.session.get(Listing, response.get_json()["id"])
    assert str(listing.birth_date) == "2024-03-01" and not listing.birth_date_estimated


def test_create_without_token_is_401(client) -> None:
    response = client.post("/api/v1/listings", json=PAYLOAD)
    assert response.status_code == 401
    assert _errors(response)[0]["code"] == "unauthorized"


def test_establishment_token_is_401_for_ngo_endpoints(client, app) -> None:
    _client, token = issue_client("establishment", "Clínica")
    db.session.commit()
    response = client.post(
        "/api/v1/listings", json=PAYLOAD, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 401


def test_ngo_token_without_approved_organisation_is_403(client, app) -> None:
    _client, token = issue_client("ngo", "Sem ONG")
    db.session.commit()
    response = client.post(
        "/api/v1/listings", json=PAYLOAD, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 403
    assert _errors(response)[0]["code"] == "not_linked"


@pytest.mark.parametrize(
    "change,field,code",
    [
        ({"species": "bird"}, "species", "invalid_choice"),
        ({"species": ["dog"]}, "species", "invalid_choice"),
        ({"temperament": [{"a": 1}]}, "temperament", "invalid_choice"),
        ({"sex": None}, "sex", "required"),
        ({"name": ""}, "name", "required"),
        ({"name": 12}, "name", "invalid_type"),
        ({"age_months": -1}, "age_months", "invalid"),
        ({"age_months": "doze"}, "age_months", "invalid"),
        ({"birth_date": "2024-02-30"}, "birth_date", "invalid_date"),
        ({"birth_date": "2024-01-01"}, "birth_date", "ambiguous"),
        ({"age_months": None, "birth_date": "2099-01-01"}, "birth_date", "future"),
        ({"age_months": None}, "birth_date", "required"),
        ({"temperament": ["good_with_birds"]}, "temperament", "invalid_choice"),
        ({"temperament": "children"}, "temperament", "invalid_type"),
        ({"vaccinated": "sim"}, "vaccinated", "invalid_type"),
        ({"dewormed_on": "ontem"}, "dewormed_on", "invalid_date"),
        ({"size": "giant"}, "size", "invalid_choice"),
        ({"story": "x" * 4001}, "story", "too_long"),
    ],
)
def test_invalid_fields_are_422_with_field_and_code(client, ngo, change, field, code) -> None:
    _org, headers = ngo
    response = client.post("/api/v1/listings", json={**PAYLOAD, **change}, headers=headers)
    assert response.status_code == 422
    assert (field, code) in [(e["field"], e["code"]) for e in _errors(response)]


def test_several_errors_are_reported_together(client, ngo) -> None:
    _org, headers = ngo
    response = client.post("/api/v1/listings", json={"name": ""}, headers=headers)
    assert response.status_code == 422
    fields = {e["field"] for e in _errors(response)}
    assert {"name", "species", "sex", "size", "color", "district", "birth_date"} <= fields


@pytest.mark.parametrize(
    "body,content_type",
    [
        ("não é json", "application/json"),
        ("[1, 2]", "application/json"),
        ("name=Rex", "application/x-www-form-urlencoded"),
    ],
)
def test_body_that_is_not_a_json_object_is_422(client, ngo, body, content_type) -> None:
    _org, headers = ngo
    response = client.post(
        "/api/v1/listings", data=body, content_type=content_type, headers=headers
    )
    assert response.status_code == 422
    assert _errors(response)[0]["code"] == "invalid_json"


def test_photo_upload_returns_201_with_the_three_sizes(client, ngo) -> None:
    _org, headers = ngo
    listing_id = client.post("/api/v1/listings", json=PAYLOAD, headers=headers).get_json()["id"]
    response = _photo(client, headers, listing_id)
    assert response.status_code == 201
    photo = response.get_json()["photo"]
    for key in ("thumbnail_url", "medium_url", "large_url"):
        assert photo[key].startswith("http://localhost/arquivos/")


def test_photo_without_the_field_is_422(client, ngo) -> None:
    _org, headers = ngo
    listing_id = client.post("/api/v1/listings", json=PAYLOAD, headers=headers).get_json()["id"]
    response = client.post(
        f"/api/v1/listings/{listing_id}/photos",
        headers=headers,
        data={"foto": (io.BytesIO(jpeg_bytes()), "f.jpg")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 422
    assert _errors(response)[0] == {
        "field": "photo",
        "code": "required",
        "message": 'Envie a foto no campo multipart "photo".',
    }


def test_bad_photo_is_422_with_a_message(client, ngo) -> None:
    _org, headers = ngo
    listing_id = client.post("/api/v1/listings", json=PAYLOAD, headers=headers).get_json()["id"]
    response = _photo(client, headers, listing_id, b"GIF89a nada disso")
    assert response.status_code == 422
    error = _errors(response)[0]
    assert error["field"] == "photo" and error["code"] == "invalid_image"


def test_another_ngos_listing_is_404_for_every_write(client, ngo) -> None:
    _org, headers = ngo
    other = make_listing(make_org(name="Outra ONG"), state="draft")
    ccz = make_listing(None, state="draft")
    db.session.commit()
    for listing in (other, ccz):
        assert _photo(client, headers, listing.id).status_code == 404
        response = client.patch(
            f"/api/v1/listings/{listing.id}", json={"state": "published"}, headers=headers
        )
        assert response.status_code == 404
        assert _errors(response)[0]["code"] == "not_found"
    assert (
        client.patch(
            "/api/v1/listings/999999", json={"state": "published"}, headers=headers
        ).status_code
        == 404
    )


def test_patch_publishes_only_with_a_photo(client, ngo) -> None:
    _org, headers = ngo
    listing_id = client.post("/api/v1/listings", json=PAYLOAD, headers=headers).get_json()["id"]
    response = client.patch(
        f"/api/v1/listings/{listing_id}", json={"state": "published"}, headers=headers
    )
    assert response.status_code == 422
    assert _errors(response)[0]["code"] == "photo_required"
    _photo(client, headers, listing_id)
    response = client.patch(
        f"/api/v1/listings/{listing_id}", json={"state": "published"}, headers=headers
    )
    assert response.status_code == 200
    assert response.get_json()["state"] == "published"
    assert db.session.get(Listing, listing_id).published_at is not None


@pytest.mark.parametrize(
    "target,code",
    [
        ("reserved", "invalid_transition"),
        ("adopted", "invalid_transition"),
        ("sold", "invalid_choice"),
        (7, "invalid_choice"),
    ],
)
def test_patch_refuses_transitions_that_only_the_workflow_makes(client, ngo, target, code) -> None:
    org, headers = ngo
    listing = make_listing(org)
    db.session.commit()
    response = client.patch(
        f"/api/v1/listings/{listing.id}", json={"state": target}, headers=headers
    )
    assert response.status_code == 422
    assert _errors(response)[0]["code"] == code


def test_patch_withdraw_then_back_to_draft(client, ngo) -> None:
    org, headers = ngo
    listing = make_listing(org)
    db.session.commit()
    for state in ("withdrawn", "draft", "published"):
        response = client.patch(
            f"/api/v1/listings/{listing.id}", json={"state": state}, headers=headers
        )
        assert response.status_code == 200, response.get_json()
        assert response.get_json()["state"] == state


def test_adopted_listing_cannot_change(client, ngo) -> None:
    org, headers = ngo
    listing = make_listing(org, state=ListingState.ADOPTED)
    db.session.commit()
    response = client.patch(
        f"/api/v1/listings/{listing.id}", json={"state": "withdrawn"}, headers=headers
    )
    assert response.status_code == 422
    assert _errors(response)[0]["code"] == "invalid_transition"


def test_patch_fields_revalidates_the_whole_listing(client, ngo) -> None:
    org, headers = ngo
    listing = make_listing(org)
    db.session.commit()
    response = client.patch(
        f"/api/v1/listings/{listing.id}",
        json={"story": "Nova história.", "temperament": ["good_with_cats"]},
        headers=headers,
    )
    assert response.status_code == 200
    body = response.get_json()
    assert body["story"] == "Nova história." and body["temperament"] == ["good_with_cats"]
    response = client.patch(
        f"/api/v1/listings/{listing.id}", json={"size": "huge"}, headers=headers
    )
    assert response.status_code == 422


def test_public_search_shape_and_cursor(client, ngo) -> None:
    org, _headers = ngo
    for i in range(5):
        make_listing(org, name=f"Animal {i}", species="cat" if i % 2 else "dog")
    make_listing(org, name="Rascunho", state="draft")
    db.session.commit()
    response = client.get("/api/v1/listings?limit=2")
    assert response.status_code == 200
    body = response.get_json()
    assert set(body) == {"items", "next"} and len(body["items"]) == 2 and body["next"]
    item = body["items"][0]
    assert {"id", "name", "species", "sex", "size", "photos", "url"} <= set(item)
    assert item["photos"][0]["thumbnail_url"]
    assert item["url"].endswith(f"/adocao/animal/{item['id']}")
    names = [i["name"] for i in body["items"]]
    while body["next"]:
        body = client.get(f"/api/v1/listings?limit=2&cursor={body['next']}").get_json()
        names += [i["name"] for i in body["items"]]
    assert sorted(names) == [f"Animal {i}" for i in range(5)]
    cats = client.get("/api/v1/listings?species=cat").get_json()["items"]
    assert {i["name"] for i in cats} == {"Animal 1", "Animal 3"}


@pytest.mark.parametrize(
    "query,field",
    [
        ("species=bird", "species"),
        ("size=xl", "size"),
        ("sex=x", "sex"),
        ("cursor=%%%", "cursor"),
        ("cursor=bm90LWEtY3Vyc29y", "cursor"),
        ("limit=0", "limit"),
        ("limit=abc", "limit"),
        ("owner=acme", "owner"),
    ],
)
def test_public_search_bad_parameters_are_422(client, app, query, field) -> None:
    response = client.get(f"/api/v1/listings?{query}")
    assert response.status_code == 422
    assert _errors(response)[0]["field"] == field


def test_public_search_with_age_min_above_age_max_is_an_empty_page(client, ngo) -> None:
    # Each bound is valid on its own, so the query is schema-valid (issue 26 #12): it matches
    # nothing rather than being refused.
    org, _headers = ngo
    make_listing(org, name="Animal 0")
    db.session.commit()
    assert len(client.get("/api/v1/listings").get_json()["items"]) == 1
    response = client.get("/api/v1/listings?age_min=5&age_max=2")
    assert response.status_code == 200
    assert response.get_json()["items"] == []


def test_public_get_hides_drafts(client, ngo) -> None:
    org, _headers = ngo
    draft = make_listing(org, state="draft")
    published = make_listing(org)
    db.session.commit()
    assert client.get(f"/api/v1/listings/{draft.id}").status_code == 404
    response = client.get(f"/api/v1/listings/{published.id}")
    assert response.status_code == 200 and response.get_json()["state"] == "published"


def test_openapi_documents_the_listing_paths(client, app) -> None:
    paths = client.get("/api/v1/openapi.json").get_json()["paths"]
    assert {"get", "post"} <= set(paths["/listings"])
    assert "patch" in paths["/listings/{id}"] and "post" in paths["/listings/{id}/photos"]

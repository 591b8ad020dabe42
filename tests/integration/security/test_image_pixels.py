"""Issue 8 (security 8): image decoding is bounded by pixels as well as bytes. A 6000 × 6000 PNG
of a few kilobytes (36 megapixels) is refused as a photo before a single pixel is decoded, with a
Portuguese message; documents allow 40 megapixels; the photo API is rate-limited per token."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageFile
from werkzeug.datastructures import FileStorage, MultiDict
from werkzeug.test import encode_multipart

from portal.extensions import db
from portal.models import Listing
from portal.services.api_auth import issue_client
from portal.services.uploads import (
    MAX_PHOTO_PIXELS,
    MAX_PIXELS,
    ImageTooLarge,
    store_document,
    store_image,
)
from tests.factories import jpeg_bytes, make_listing, ngo_user


def _blank_png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("L", (width, height), 0).save(out, "PNG", optimize=True)
    return out.getvalue()


@pytest.fixture(scope="module")
def png_6000() -> bytes:
    return _blank_png(6000, 6000)


@pytest.fixture
def no_decoding(monkeypatch):  # type: ignore[no-untyped-def]
    """Fail the test if any image is decoded (its header may be read)."""

    def refuse(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise AssertionError("an image was decoded")

    monkeypatch.setattr(ImageFile.ImageFile, "load", refuse)


@pytest.fixture
def ngo(app):  # type: ignore[no-untyped-def]
    user, org = ngo_user()
    client_obj, token = issue_client("ngo", org.legal_name, user_id=user.id)
    org.api_client = client_obj
    listing = make_listing(org, state="draft", photos=0, author=user)
    db.session.commit()
    return listing, {"Authorization": f"Bearer {token}"}


def _post_photo(client, headers, listing_id: int, data: bytes, name: str = "foto.png"):  # type: ignore[no-untyped-def]
    boundary, body = encode_multipart(MultiDict({"photo": FileStorage(io.BytesIO(data), name)}))
    return client.post(
        f"/api/v1/listings/{listing_id}/photos",
        headers=headers,
        data=body,
        content_type=f"multipart/form-data; boundary={boundary}",
    )


def test_a_small_file_of_36_megapixels_is_refused_as_a_photo_before_decoding(
    client, ngo, png_6000, no_decoding
) -> None:
    listing, headers = ngo
    assert len(png_6000) < 100_000 and 6000 * 6000 > MAX_PHOTO_PIXELS
    response = _post_photo(client, headers, listing.id, png_6000)
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert error["field"] == "photo"
    assert "resolução grande demais" in error["message"] and "25 megapixels" in error["message"]
    assert db.session.get(Listing, listing.id).photos == []


def test_every_photo_upload_has_the_pixel_cap(app, png_6000, no_decoding) -> None:
    with pytest.raises(ImageTooLarge) as refused:
        store_image(io.BytesIO(png_6000), purpose="animal_photo", owner_id=None, public=True)
    assert "25 megapixels" in refused.value.message


def test_documents_allow_more_pixels_but_not_without_limit(app, no_decoding) -> None:
    assert MAX_PIXELS == 40_000_000
    with pytest.raises(ImageTooLarge) as refused:
        store_document(
            io.BytesIO(_blank_png(7000, 6000)),
            purpose="adoption_document",
            owner_id=None,
            filename="rg.png",
        )
    assert "40 megapixels" in refused.value.message  # not the generic "envie um PDF" message


def test_an_ordinary_phone_photo_is_still_accepted(client, ngo) -> None:
    listing, headers = ngo
    response = _post_photo(client, headers, listing.id, jpeg_bytes((4000, 3000)), "foto.jpg")
    assert response.status_code == 201, response.get_json()


def test_photo_api_is_rate_limited_per_token(client, ngo, app) -> None:
    listing, headers = ngo
    codes = [
        _post_photo(client, headers, listing.id, b"nao e imagem").status_code for _ in range(21)
    ]
    assert codes[:20] == [422] * 20
    assert codes[20] == 429
    limited = _post_photo(client, headers, listing.id, b"nao e imagem")
    assert limited.status_code == 429 and limited.get_json()["errors"][0]["message"]
    # Another NGO's token is counted on its own.
    user, org = ngo_user()
    other, token = issue_client("ngo", org.legal_name, user_id=user.id)
    org.api_client = other
    mine = make_listing(org, state="draft", photos=0, author=user)
    db.session.commit()
    assert (
        _post_photo(
            client, {"Authorization": f"Bearer {token}"}, mine.id, b"nao e imagem"
        ).status_code
        == 422
    )

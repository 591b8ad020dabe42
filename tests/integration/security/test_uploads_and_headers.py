"""Uploads (polyglots, SVG, PDF with JavaScript, path traversal, sniffing) and the production
configuration (security headers, Secure cookies, failing fast without secrets)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from flask import g
from PIL import Image

from portal import create_app
from portal.config import ProductionConfig
from portal.extensions import db
from portal.services.uploads import UploadError, file_path, store_document, store_image
from tests import factories

SCRIPT = b"<script>alert(document.cookie)</script><html><body onload=alert(1)>"


def _png(extra: bytes = b"") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), (10, 200, 30)).save(out, "PNG")
    return out.getvalue() + extra


def test_polyglot_image_is_re_encoded_and_loses_the_script(app):
    stored = store_image(
        io.BytesIO(_png(SCRIPT)), purpose="test", owner_id=None, public=True, filename="gato.png"
    )
    for variant in stored.variants:
        data = file_path(stored, variant).read_bytes()
        assert data.startswith(b"\xff\xd8") and b"<script" not in data and b"onload" not in data


def test_script_hidden_in_jpeg_metadata_is_dropped(app):
    out = io.BytesIO()
    Image.new("RGB", (40, 30)).save(out, "JPEG", comment=SCRIPT, exif=b"Exif\x00\x00" + SCRIPT)
    stored = store_image(io.BytesIO(out.getvalue()), purpose="test", owner_id=None, public=True)
    assert all(b"<script" not in file_path(stored, v).read_bytes() for v in stored.variants)


@pytest.mark.parametrize(
    "data",
    [
        b'<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
        b"<html><script>alert(1)</script></html>",
        b"GIF89a" + SCRIPT,
        b"MZ\x90\x00 executable",
    ],
)
def test_svg_html_gif_and_executables_are_refused(app, data):
    with pytest.raises(UploadError):
        store_image(io.BytesIO(data), purpose="test", owner_id=None, public=True)
    with pytest.raises(UploadError):
        store_document(io.BytesIO(data), purpose="test", owner_id=None, filename="x.pdf")


def test_path_traversal_in_the_filename_never_reaches_the_disk_path(app):
    upload_dir = Path(app.config["UPLOAD_DIR"]).resolve()
    for name in ("../../../../tmp/evil.pdf", "..\\..\\evil.pdf", "/etc/passwd", "a\x00b.pdf"):
        stored = store_document(
            io.BytesIO(b"%PDF-1.4\n"), purpose="test", owner_id=None, filename=name
        )
        path = file_path(stored, "original").resolve()
        assert path.is_relative_to(upload_dir) and ".." not in stored.variants["original"]
        assert name.split("/")[-1] not in path.name


def test_pdf_with_javascript_is_kept_but_only_served_as_attachment_to_owner_and_staff(
    app, client, auth
):
    owner = factories.user()
    stranger = factories.user()
    staff = factories.user(roles=("agent",))
    pdf = b"%PDF-1.4\n1 0 obj << /OpenAction << /S /JavaScript /JS (app.alert(1)) >> >>\n" + SCRIPT
    stored = store_document(
        io.BytesIO(pdf), purpose="adoption_document", owner_id=owner.id, filename="comprovante.pdf"
    )
    db.session.commit()
    url = f"/arquivos/{stored.token}/original"
    assert client.get(url).status_code == 404  # anonymous
    for person, expected in ((stranger, 404), (owner, 200), (staff, 200)):
        auth.logout()
        g.pop("_login_user", None)
        auth.login(person)
        response = client.get(url)
        assert response.status_code == expected
        if expected == 200:
            assert response.get_data() == pdf
            assert response.mimetype == "application/pdf"
            assert response.headers["Content-Disposition"].startswith("attachment")
            assert response.headers["X-Content-Type-Options"] == "nosniff"
            assert "sandbox" in response.headers["Content-Security-Policy"]
            assert "no-store" in response.headers["Cache-Control"]
        response.close()


@pytest.mark.parametrize("token", ["../../etc/passwd", "..%2F..%2Fetc", "%00", "a" * 500])
def test_file_urls_with_odd_tokens_are_404(client, token):
    # 400 for a NUL character (refused before any query), 404 otherwise
    assert client.get(f"/arquivos/{token}/original").status_code in (400, 404)


def test_public_image_has_nosniff_and_sandbox(app, client):
    stored = store_image(io.BytesIO(_png()), purpose="test", owner_id=None, public=True)
    db.session.commit()
    response = client.get(f"/arquivos/{stored.token}/thumbnail")
    assert response.status_code == 200 and response.mimetype == "image/jpeg"
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert "sandbox" in response.headers["Content-Security-Policy"]
    response.close()


def test_upload_over_the_request_limit_is_a_friendly_413(app, client, auth):
    app.config["MAX_CONTENT_LENGTH"] = 1024
    auth.login()
    response = client.post(
        "/adocao/meus-documentos",
        data={"file": (io.BytesIO(b"x" * 4096), "a.pdf")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413
    assert "Arquivo grande demais." in response.get_data(as_text=True)


# -- production configuration -----------------------------------------------------------------

STRONG = "k" * 48


@pytest.fixture
def production_env(monkeypatch, app):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("SECRET_KEY", STRONG)
    monkeypatch.setenv("DATABASE_URL", app.config["SQLALCHEMY_DATABASE_URI"])
    # issue 8: production needs its public address and a shared limiter store (or the opt-in)
    monkeypatch.setenv("PUBLIC_BASE_URL", "https://localhost")
    monkeypatch.setenv("RATELIMIT_ALLOW_MEMORY", "1")
    monkeypatch.setenv("UPLOAD_DIR", app.config["UPLOAD_DIR"])
    return monkeypatch


@pytest.mark.parametrize("missing", ["SECRET_KEY", "DATABASE_URL"])
def test_production_fails_fast_without_secret_key_or_database_url(production_env, missing):
    production_env.delenv(missing)
    with pytest.raises(RuntimeError, match=missing):
        ProductionConfig()


@pytest.mark.parametrize("weak", ["dev-only-not-secret", "changeme", "x" * 31])
def test_production_refuses_a_weak_secret_key(production_env, weak):
    production_env.setenv("SECRET_KEY", weak)
    with pytest.raises(RuntimeError, match="SECRET_KEY"):
        ProductionConfig()


def test_production_headers_and_secure_cookies(production_env):
    prod = create_app(ProductionConfig)
    prod.config["RATELIMIT_STORAGE_URI"] = "memory://"
    person = factories.user()
    db.session.commit()
    client = prod.test_client()
    page = client.get("/conta/entrar", base_url="https://localhost")
    headers = page.headers
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["X-Frame-Options"] == "DENY"
    assert headers["Referrer-Policy"] == "same-origin"
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"]
    assert "max-age=31536000" in headers["Strict-Transport-Security"]
    assert not prod.debug
    # A CSRF token is needed in production: fetch it from the page.
    import re

    token = re.search(
        r'name="csrf_token" type="hidden" value="([^"]+)"', page.get_data(as_text=True)
    ).group(1)
    g.pop("_login_user", None)
    response = client.post(
        "/conta/entrar",
        base_url="https://localhost",
        data={
            "email": person.email,
            "password": factories.PASSWORD,
            "remember": "y",
            "csrf_token": token,
        },
        headers={"Referer": "https://localhost/conta/entrar"},
    )
    assert response.status_code == 302
    cookies = response.headers.getlist("Set-Cookie")
    assert cookies
    for cookie in cookies:
        lowered = cookie.lower()
        assert "; secure" in lowered and "; httponly" in lowered and "samesite=lax" in lowered
    with prod.app_context():
        db.engine.dispose()

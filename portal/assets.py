"""Static files and responses for a cheap phone on mobile data.

- Static URLs carry a content hash (``/static/css/portal.css?v=1a2b3c4d5e6f``): a browser keeps a
  versioned file for a year without asking again (``immutable``), and a new deploy changes the
  hash, so nobody is left with an old stylesheet.
- HTML of a signed-in person is never stored by the browser or a proxy (``no-store``): it carries
  personal data and the next person on a shared phone must not get it from the cache or the back
  button. Anonymous HTML is revalidated every time (``no-cache``), since its forms carry a CSRF
  token tied to the visitor's session.
- HTML, CSS, JavaScript and JSON are compressed (brotli when the browser accepts it, gzip
  otherwise) with Flask-Compress. A reverse proxy that compresses already may take this over
  (``COMPRESS_ENABLED = False``, see docs/DEPLOY.md).
"""

from __future__ import annotations

import hashlib
import os
from typing import Any

from flask import Flask, Response, current_app, request
from flask_compress import Compress
from werkzeug.security import safe_join

STATIC_MAX_AGE = 365 * 24 * 3600
compress = Compress()

# path -> (mtime_ns, size, hash): a file is read again only when it changes on disk, so editing a
# stylesheet in development shows at the next page load, and production reads each file once.
_hashes: dict[str, tuple[int, int, str]] = {}


def static_version(filename: str | None) -> str | None:
    """The first 12 hex digits of the SHA-256 of a static file, or None when there is no file."""
    if not filename or current_app.static_folder is None:
        return None
    path = safe_join(current_app.static_folder, filename)  # never outside static/
    if path is None:
        return None
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return None
    cached = _hashes.get(path)
    if cached and cached[0] == stat.st_mtime_ns and cached[1] == stat.st_size:
        return cached[2]
    try:
        with open(path, "rb") as fh:
            digest = hashlib.sha256(fh.read()).hexdigest()[:12]
    except OSError:
        return None
    _hashes[path] = (stat.st_mtime_ns, stat.st_size, digest)
    return digest


def _version_static_urls(endpoint: str, values: dict[str, Any]) -> None:
    if endpoint == "static" and "v" not in values:
        version = static_version(values.get("filename"))
        if version:
            values["v"] = version


def _cache_headers(response: Response) -> Response:
    if request.endpoint == "static":
        if (
            response.status_code in (200, 304)
            and request.args.get("v")
            and (
                request.args["v"]
                == static_version(request.view_args.get("filename") if request.view_args else None)
            )
        ):
            response.headers["Cache-Control"] = f"public, max-age={STATIC_MAX_AGE}, immutable"
        else:  # an unversioned or outdated URL: the browser asks again each time
            response.headers["Cache-Control"] = "no-cache"
        return response
    if response.mimetype == "text/html":
        from flask_login import current_user

        if current_user.is_authenticated:
            response.headers["Cache-Control"] = "no-store, private"
        else:
            response.headers.setdefault("Cache-Control", "no-cache, private")
        response.vary.add("Cookie")
    return response


def _compress(response: Response) -> Response:
    # A byte range of a file (206) must stay the bytes the range names: never compressed.
    if response.status_code == 206 or not current_app.config.get("COMPRESS_ENABLED", True):
        return response
    original = response.response
    response = compress.after_request(response)
    # A file (static or upload) is compressed as it streams; Flask-Compress swaps the file
    # iterator for its own, so the file is closed here with the response, not left to the GC.
    close = getattr(original, "close", None)
    if response.response is not original and callable(close):
        response.call_on_close(close)
    return response


def init_assets(app: Flask) -> None:
    app.config.setdefault("COMPRESS_ALGORITHM", ["br", "gzip"])
    app.config.setdefault("COMPRESS_ALGORITHM_STREAMING", ["br", "gzip"])  # static files stream
    app.config.setdefault(
        "COMPRESS_MIMETYPES",
        [
            "text/html",
            "text/css",
            "text/plain",
            "text/javascript",
            "application/javascript",
            "application/json",
            "application/geo+json",
            "application/problem+json",
            "image/svg+xml",
        ],
    )
    app.config.setdefault("COMPRESS_ENABLED", True)
    app.config["COMPRESS_REGISTER"] = False  # registered below, after the cache headers
    compress.init_app(app)
    app.url_defaults(_version_static_urls)
    # after_request functions run last-registered first: cache headers, then compression.
    app.after_request(_compress)
    app.after_request(_cache_headers)

"""Serving stored uploads with per-file access rules."""

from __future__ import annotations

from flask import Blueprint, abort, send_file
from flask_login import current_user
from sqlalchemy import select

from portal.access import public
from portal.extensions import db
from portal.models import StoredFile
from portal.services.uploads import file_path
from portal.wiring import wiring

bp = Blueprint("files", __name__, url_prefix="/arquivos")


def may_see(stored: StoredFile) -> bool:
    if stored.public:
        return True
    if not current_user.is_authenticated:
        return False
    if stored.owner_id == current_user.id or current_user.is_staff:
        return True
    rule = wiring().file_rules.get(stored.purpose)
    return bool(rule and rule(current_user, stored))


@bp.get("/<token>/<variant>")
@public  # per-file rule below: public files to all, private ones to owner, staff and domain rules
def serve(token: str, variant: str):
    stored = db.session.scalar(select(StoredFile).where(StoredFile.token == token))
    if stored is None or not may_see(stored):
        abort(404)  # 404, not 403: do not confirm that a private file exists
    path = file_path(stored, variant)
    if path is None or not path.exists():
        abort(404)
    is_pdf = stored.content_type == "application/pdf"
    response = send_file(
        path,
        mimetype=stored.content_type,
        as_attachment=is_pdf,
        download_name=f"{token}-{variant}.{'pdf' if is_pdf else 'jpg'}",
        max_age=31536000 if stored.public else 0,
    )
    # Defence in depth: even if a browser renders a stored file, it runs no script and reaches
    # nothing (a PDF with JavaScript is kept as sent; it is only ever an attachment).
    response.headers["Content-Security-Policy"] = "default-src 'none'; sandbox"
    response.headers["X-Content-Type-Options"] = "nosniff"
    if stored.public:
        response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
    else:
        response.headers["Cache-Control"] = "private, no-store"
    return response


def file_url(stored: StoredFile, variant: str = "medium") -> str:
    from flask import url_for

    return url_for("files.serve", token=stored.token, variant=variant)

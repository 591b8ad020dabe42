"""Public report pages: the form (``/denuncias/nova``), the receipt, tracking by protocol and code,
and "Minhas denúncias". Views parse input, call one service, commit once.

The tracking code never goes into a URL (it would end up in logs and browser history): it is posted
once, and the session remembers which protocols this browser proved it may follow.
"""

from __future__ import annotations

from typing import Any

from flask import (
    abort,
    current_app,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user

from portal import csp
from portal.access import public, signed_in
from portal.blueprints.reports import bp
from portal.blueprints.reports.common import PhotoUpload, ReportData, photo_gps
from portal.blueprints.reports.forms import InfoForm, ReportForm, TrackForm
from portal.blueprints.reports.intake import (
    add_reporter_info,
    create_report,
    find_tracked,
    public_history,
    public_state,
    reports_of,
)
from portal.blueprints.reports.labels import (
    OUTCOME_LABELS,
    SPECIES_LABELS,
    STAFF_STATE_LABELS,
    STATE_LABELS,
    category_label,
)
from portal.blueprints.reports.progress import next_step
from portal.blueprints.reports.queries import by_protocol, category_choices
from portal.extensions import db, limiter
from portal.forms import choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import MaltreatmentReport
from portal.services import drafts
from portal.services.clock import current_profile, local_today
from portal.services.maps import map_config
from portal.views import run_service

_TRACKED = "tracked_reports"  # session key: protocols this browser proved it may follow


def report_rate_limit() -> str:
    return str(current_app.config.get("REPORT_RATE_LIMIT", "10/hour;30/day"))


def report_context() -> dict[str, Any]:
    return {
        "REPORT_STATE_LABELS": STATE_LABELS,
        "REPORT_STAFF_STATE_LABELS": STAFF_STATE_LABELS,
        "REPORT_OUTCOME_LABELS": OUTCOME_LABELS,
        "REPORT_SPECIES_LABELS": SPECIES_LABELS,
        "report_category_label": lambda code: category_label(current_profile(), code),
        "report_map": map_config,
    }


@bp.after_request
def _map_tiles_csp(response):
    """Pages with a map load tile images from MAP_TILE_URL's host (never scripts from elsewhere)."""
    tiles = current_app.config.get("MAP_TILE_URL")
    if tiles and response.mimetype == "text/html":
        response.headers["Content-Security-Policy"] = csp.policy(tiles=tiles, stripe=False)
    response.headers.setdefault("Cache-Control", "private, no-store")
    if request.endpoint == "reports.new":  # "Usar minha localização" (issue 25): this page only
        response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=(self)"
    return response


def _remember(protocol: str) -> None:
    tracked = [p for p in session.get(_TRACKED, []) if p != protocol][-9:]
    session[_TRACKED] = [*tracked, protocol]


# ---------------------------------------------------------------------------------------------
# The report form
# ---------------------------------------------------------------------------------------------


@bp.route("/denuncias/nova", methods=["GET", "POST"])
@public
@limiter.limit(report_rate_limit, methods=["POST"])
def new():
    """The form. Whether the place already has a report is never said here (issue 26): every
    report gets its own protocol and the staff merge duplicates."""
    profile = current_profile()
    form = ReportForm()
    form.category.choices = choices(category_choices(profile))
    if request.method == "GET" and current_user.is_authenticated:
        form.prefill_contact(current_user)
    # issue 25: photos are held in this person's (or, anonymous, this session's) draft as they
    # arrive; a refusal of any field keeps them
    kept = keep("report", "", _REPORT_SLOTS, values=_consented_point(form))
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid:
        if form.website.data:  # the honeypot: a bot, or an autofill gone wrong; nothing stored
            kept.discard()
            db.session.commit()
            form.website.errors = [_("Não foi possível enviar. Deixe em branco o último campo.")]
            return render_template("reports/new.html", form=form, kept=[]), 400
        data = form.report_data(_held_photos(kept, bool(form.use_photo_gps.data)))
        user = current_user if current_user.is_authenticated else None
        done = run_service(
            lambda: _create(profile, data, user, kept), form=form, fallback="description"
        )
        if done.value is not None:
            return _received(*done.value)
    page = render_template("reports/new.html", form=form, kept=kept.files("photos"))
    return page, 400 if form.errors else 200


_REPORT_SLOTS = [Slot("photos", accept="image", many=True)]
_POINT = "_gps"  # the draft's value: the point read from a photo the reporter let us read


def _consented_point(form: ReportForm) -> dict[str, drafts.Value] | None:
    """The GPS point of the first photo sent that has one, read before the photo is cleaned (its
    metadata dropped) and held, and only when the reporter ticked the box allowing it."""
    if request.method != "POST" or not form.use_photo_gps.data:
        return None
    for upload in request.files.getlist(form.photos.name):
        if upload and upload.filename:
            point = photo_gps(upload.stream.read())
            upload.stream.seek(0)
            if point is not None:
                return {_POINT: [str(point[0]), str(point[1])]}
    return None


def _held_photos(kept: Kept, use_gps: bool) -> list[PhotoUpload]:
    raw = (kept.draft.data or {}).get(_POINT) if kept.draft is not None else None
    point = (float(raw[0]), float(raw[1])) if isinstance(raw, list) and len(raw) == 2 else None
    return [PhotoUpload(held=f.stored, use_gps=use_gps, gps=point) for f in kept.files("photos")]


def _create(
    profile: Any, data: ReportData, user: Any, kept: Kept
) -> tuple[MaltreatmentReport, str]:
    made = create_report(profile, data, today=local_today(profile), user=user)
    kept.discard()  # the photos are the report's now; the draft goes in the same commit
    return made


def _received(report: MaltreatmentReport, code: str):
    _remember(report.protocol)
    # Shown once, on the next page only: the code is never kept in clear text.
    session["report_code_once"] = {"protocol": report.protocol, "code": code}
    return redirect(url_for("reports.receipt", protocol=report.protocol))


@bp.get("/denuncias/recebida/<protocol>")
@public  # shows the code only to the browser that just sent the report (one time, from session)
def receipt(protocol: str):
    once = session.pop("report_code_once", None)
    if not once or once.get("protocol") != protocol:
        return redirect(url_for("reports.track"))
    report = by_protocol(protocol)
    if report is None:
        abort(404)
    return render_template("reports/receipt.html", report=report, code=once["code"])


# ---------------------------------------------------------------------------------------------
# Tracking
# ---------------------------------------------------------------------------------------------


@bp.route("/denuncias/acompanhar", methods=["GET", "POST"])
@public
@limiter.limit("10/minute;60/hour", methods=["POST"])
def track():
    form = TrackForm()
    if form.validate_on_submit():
        report = find_tracked(form.protocol.data, form.code.data)
        if report is not None:
            _remember(report.protocol)
            return redirect(url_for("reports.tracked", protocol=report.protocol))
        # The same words whether the protocol exists or not.
        form.code.errors = [_("Protocolo ou código não conferem. Confira e tente de novo.")]
    return render_template("reports/track.html", form=form), 400 if form.errors else 200


def _tracked_report(protocol: str):
    report = by_protocol(protocol)
    if report is None:
        return None
    if protocol in session.get(_TRACKED, []):
        return report
    own = (
        current_user.is_authenticated
        and report.contact is not None
        and report.contact.user_id == current_user.id
    )
    return report if own else None


@bp.route("/denuncias/acompanhar/<protocol>", methods=["GET", "POST"])
@public  # only for a browser that proved protocol + code (kept in its session)
@limiter.limit(report_rate_limit, methods=["POST"])
def tracked(protocol: str):
    report = _tracked_report(protocol)
    if report is None:
        return redirect(url_for("reports.track"))
    form = InfoForm()
    # issue 25: the photos are held as they arrive (this person's, or this session's, draft);
    # a refusal of the text keeps them
    kept = keep("report_info", report.protocol, _REPORT_SLOTS)
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid:
        done = run_service(
            lambda: _add_info(report, form.text.data, kept),
            form=form,
            fallback="text",
            success=_("Informação enviada ao CCZ. Obrigado."),
        )
        if done.ok:
            return redirect(url_for("reports.tracked", protocol=report.protocol))
    return render_template(
        "reports/tracked.html",
        report=report,
        form=form,
        kept=kept.files("photos"),
        history=public_history(report),
        state=public_state(report),
        step=next_step(report, current_profile(), local_today()),
        can_add=report.is_open or report.merged_into is not None,
    ), 400 if form.errors else 200


def _add_info(report: MaltreatmentReport, text: str | None, kept: Kept) -> None:
    photos = [PhotoUpload(held=f.stored) for f in kept.files("photos")]
    add_reporter_info(report, text, photos)
    kept.discard()  # the photos are the report's now; the draft goes in the same commit


# ---------------------------------------------------------------------------------------------
# Minhas denúncias
# ---------------------------------------------------------------------------------------------


@bp.get("/denuncias/minhas")
@signed_in
def mine():
    reports = reports_of(current_user)
    return render_template("reports/mine.html", reports=reports)

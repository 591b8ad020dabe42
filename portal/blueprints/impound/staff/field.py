"""The field agent's capture form, made for a phone: the place as an address and,
optionally, a point on the map (Leaflet from the portal's own static files, tiles from
MAP_TILE_URL; without JavaScript the latitude and longitude are plain optional fields). Opened
from a maus-tratos report whose inspection found a capture needed (``?denuncia=<protocol>``), it
starts pre-filled with the report's place, district, map point and species."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal import csp
from portal.access import STAFF, roles_required
from portal.blueprints.impound import bp
from portal.blueprints.impound.capture import CaptureData, record_capture
from portal.blueprints.impound.forms import CaptureForm
from portal.blueprints.impound.from_report import (
    ReportPrefill,
    prefill_from_report,
    report_for_capture,
)
from portal.blueprints.impound.labels import REASONS, reason_article, reason_label
from portal.domain import DomainError
from portal.forms import choices
from portal.kept_uploads import Kept, Slot, keep
from portal.models import Capture
from portal.services.clock import current_profile, local_now, local_today, tz
from portal.services.maps import map_config
from portal.views import run_service

CAPTURE_DRAFT = "capture"  # the agent's draft that holds the photos across a refused post


def _allow_tiles(response):
    """The form's page loads tile images from MAP_TILE_URL's host (never scripts from elsewhere),
    as the reports' map pages do."""
    tiles = current_app.config.get("MAP_TILE_URL")
    if tiles:
        response.headers["Content-Security-Policy"] = csp.policy(tiles=tiles, stripe=False)
    # "Usar minha localização" (issue 25): this page alone may ask the browser for the position.
    response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=(self)"
    return response


def _new_form() -> tuple[CaptureForm, ReportPrefill | None]:
    """The form with its reason choices; on a first visit, now and the report's data filled in."""
    form = CaptureForm()
    profile = current_profile()
    form.reason.choices = choices(
        (r, f"{reason_label(r)} ({reason_article(profile, r)})") for r in REASONS
    )
    protocol = form.report_protocol.data or request.args.get("denuncia", "")
    prefill = None
    if protocol:
        try:
            prefill = prefill_from_report(report_for_capture(protocol))
        except DomainError as err:
            flash(err.message, "danger")
            form.report_protocol.data = ""
    if request.method == "GET":
        now = local_now()
        form.captured_on.data = now.date()
        form.captured_time.data = now.time().replace(second=0, microsecond=0)
        if prefill is not None:
            _apply_prefill(form, prefill)
    return form, prefill


def _apply_prefill(form: CaptureForm, prefill: ReportPrefill) -> None:
    form.report_protocol.data = prefill.protocol
    form.place.data = prefill.place
    form.district.data = prefill.district
    if prefill.species:
        form.species.data = prefill.species
    if prefill.latitude is not None and prefill.longitude is not None:
        form.latitude.data = round(prefill.latitude, 6)
        form.longitude.data = round(prefill.longitude, 6)


def _capture_data(form: CaptureForm, kept: Kept) -> CaptureData:
    local = datetime.combine(form.captured_on.data, form.captured_time.data, tzinfo=tz())
    return CaptureData(
        species=form.species.data,
        size=form.size.data,
        sex=form.sex.data,
        color=form.color.data,
        place=form.place.data,
        district=form.district.data,
        captured_at=local.astimezone(UTC),
        captured_on=form.captured_on.data,
        reason=form.reason.data,
        condition=form.condition.data,
        custody_type=form.custody_type.data,
        tag_read=form.tag_read.data,
        microchip=form.microchip.data,
        condition_note=form.condition_note.data,
        latitude=float(form.latitude.data) if form.latitude.data is not None else None,
        longitude=float(form.longitude.data) if form.longitude.data is not None else None,
        photos=[f.stored for f in kept.files("photos")],
        report_protocol=form.report_protocol.data or None,
    )


def _page(form: CaptureForm, prefill: ReportPrefill | None, kept: Kept):
    page = render_template(
        "impound/staff_new.html",
        form=form,
        prefill=prefill,
        capture_map=map_config(),
        kept=kept.files("photos"),
    )
    return _allow_tiles(current_app.make_response(page))


@bp.route("/ccz/recolhimentos/novo", methods=["GET", "POST"])
@roles_required(*STAFF)
def staff_new():
    """The field agent records a capture on a phone (from a report: ``?denuncia=<protocol>``)."""
    form, prefill = _new_form()
    # issue 25: the photos are held as they arrive; a refusal of any field keeps them
    kept = keep(CAPTURE_DRAFT, "", [Slot("photos", accept="image", many=True)])
    valid = form.validate_on_submit()
    if kept.show_refused(form) or not valid:
        return _page(form, prefill, kept)

    def record() -> Capture:
        capture = record_capture(
            current_profile(), _capture_data(form, kept), agent=current_user, today=local_today()
        )
        kept.discard()  # the photos are the capture's now; the draft goes in the same commit
        return capture

    done = run_service(
        record,
        form=form,
        success=lambda c: _("Captura registrada: protocolo %(protocol)s.", protocol=c.protocol),
    )
    if done.value is None:
        return _page(form, prefill, kept)
    return redirect(url_for("impound.staff_capture", protocol=done.value.protocol))

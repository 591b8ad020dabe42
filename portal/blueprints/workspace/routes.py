"""A queue's list (filters, sort by deadline, keyset pages), its CSV export and bulk actions.

Who may open a queue is the queue's own ``roles``; the routes themselves are staff-only. Listing
a queue that shows people's data is audited like any other view of personal data.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import UTC, date, datetime

from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required, staff_required
from portal.blueprints.workspace import bp
from portal.blueprints.workspace.forms import StaffSearchForm
from portal.extensions import db
from portal.forms import EmptyForm
from portal.services import audit
from portal.services.clock import local_today
from portal.workspace import (
    Chart,
    Period,
    Queue,
    all_rows,
    page,
    registry,
    search_everything,
    selected_rows,
    stats,
)


def _queue(key: str) -> Queue:
    queue = registry().get(key)
    if queue is None:
        abort(404)
    if not current_user.has_role(*queue.roles):
        abort(403)
    return queue


def _args() -> dict[str, str]:
    return {key: value for key, value in request.args.items() if isinstance(value, str)}


@bp.get("/filas/<key>")
@staff_required
def queue_list(key: str):
    queue = _queue(key)
    args = _args()
    rows, following = page(queue, args)
    if queue.personal_data:
        audit.record("workspace.queue_listed", detail={"queue": key, "rows": len(rows)})
        db.session.commit()
    return render_template(
        "workspace/queue.html",
        queue=queue,
        rows=rows,
        following=following,
        args=args,
        stats=stats(queue),
        form=EmptyForm(),
        first_args={k: v for k, v in args.items() if k != "apos"},
        is_overdue=_is_overdue,
    )


def _is_overdue(value: date | datetime | None) -> bool:
    if value is None:
        return False
    if isinstance(value, datetime):
        return value < datetime.now(UTC)
    return value < local_today()


def _csv_cell(value: object) -> str:
    text = "" if value is None else str(value)
    # A cell starting with = + - @ is a formula in spreadsheets (CSV injection): quote it.
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


@bp.get("/filas/<key>.csv")
@staff_required
def queue_csv(key: str):
    queue = _queue(key)
    args = _args()
    if queue.personal_data:
        audit.record("workspace.queue_exported", detail={"queue": key})
        db.session.commit()

    def lines() -> Iterator[str]:
        buffer = io.StringIO()
        writer = csv.writer(buffer, delimiter=";")
        buffer.write("\ufeff")  # Excel reads UTF-8 only with a BOM
        writer.writerow([str(c.label) for c in queue.columns] + [_("Prazo")])
        for row in all_rows(queue, args):
            due = queue.due(row) if queue.due else None
            writer.writerow(
                [_csv_cell(c.value(row)) for c in queue.columns] + [due.isoformat() if due else ""]
            )
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
        yield buffer.getvalue()

    # the rows are read while the response streams: keep the request's context (and session)
    return Response(
        stream_with_context(lines()),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="fila-{key}.csv"'},
    )


@bp.post("/filas/<key>/lote")
@staff_required
def queue_bulk(key: str):
    queue = _queue(key)
    if queue.bulk is None or (queue.bulk.roles and not current_user.has_role(*queue.bulk.roles)):
        abort(403)
    if not EmptyForm().validate_on_submit():
        abort(400)
    ids = [int(v) for v in request.form.getlist("ids") if v.isdigit() and len(v) < 10]
    rows = selected_rows(queue, ids)
    if not rows:
        flash(_("Selecione ao menos um item da fila."), "warning")
        return redirect(url_for("workspace.queue_list", key=key))
    done = queue.bulk.run(rows, current_user._get_current_object())
    audit.record(
        "workspace.bulk_action", detail={"queue": key, "selected": len(rows), "done": done}
    )
    db.session.commit()
    flash(
        _("%(done)s de %(selected)s itens processados.", done=done, selected=len(rows)), "success"
    )
    return redirect(url_for("workspace.queue_list", key=key))


@bp.route("/busca", methods=["GET", "POST"])
@staff_required
def search():
    """One box for staff: people, animals, organisations, protocol numbers. POST only, so a CPF
    or a name never reaches a URL or an access log; the audit row records kinds and counts."""
    form = StaffSearchForm()
    groups = None
    if form.validate_on_submit():
        groups = search_everything(current_user, form.q.data)
        audit.record(
            "workspace.searched",
            detail={"results": {provider.kind: len(hits) for provider, hits in groups}},
        )
        db.session.commit()
    return render_template("workspace/search.html", form=form, groups=groups)


def _period() -> Period:
    """The dashboard's period from the query string; by default the last 12 months."""
    today = local_today()
    default_start = date(today.year - 1, today.month, 1)
    try:
        start = (
            date.fromisoformat(request.args.get("de", ""))
            if request.args.get("de")
            else default_start
        )
        end = date.fromisoformat(request.args.get("ate", "")) if request.args.get("ate") else today
    except ValueError:
        start, end = default_start, today
    if end < start:
        start, end = end, start
    if (end.year - start.year) * 12 + end.month - start.month > 60:  # five years at most
        start = date(end.year - 5, end.month, 1)
    district = " ".join((request.args.get("bairro") or "").split())[:100] or None
    return Period(start, end, district)


def _chart(key: str) -> Chart:
    chart = registry().charts.get(key)
    if chart is None:
        abort(404)
    if not current_user.has_role(*chart.roles):
        abort(403)
    return chart


@bp.get("/indicadores")
@roles_required("coordinator", "admin")
def dashboards():
    period = _period()
    charts = [(chart, chart.compute(period)) for chart in registry().charts_for(current_user)]
    return render_template("workspace/dashboards.html", charts=charts, period=period)


@bp.get("/indicadores/<key>.csv")
@roles_required("coordinator", "admin")
def dashboard_csv(key: str):
    chart = _chart(key)
    data = chart.compute(_period())
    buffer = io.StringIO()
    buffer.write("\ufeff")
    writer = csv.writer(buffer, delimiter=";")
    writer.writerow([_("Período"), *[str(s) for s in data.series]])
    for label, values in data.rows:
        writer.writerow([label, *values])
    return Response(
        buffer.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{key}.csv"'},
    )

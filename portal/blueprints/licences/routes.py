"""The citizen's pages (request, renewal, "Minhas licenças", answer, PDF) and the public check
page of a licence, which shows nothing about its holder."""

from __future__ import annotations

from flask import Response, abort, flash, redirect, render_template, url_for
from flask import request as http
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import public, signed_in
from portal.blueprints.animals import services as animals
from portal.blueprints.licences import bp, services
from portal.blueprints.licences.forms import AnswerForm, RequestForm, uploads
from portal.extensions import db
from portal.models import ExcessLicence
from portal.services.clock import current_profile, local_today
from portal.urls import absolute_url
from portal.views import run_service


def _own(licence_id: int) -> ExcessLicence:
    licence = db.session.get(ExcessLicence, licence_id)
    if licence is None or licence.holder_id != current_user.id:
        abort(404)
    return licence


@bp.route("/licencas/pedido", methods=["GET", "POST"])
@signed_in
def request():  # noqa: A001  (the endpoint name other pages link to: licences.request)
    profile, today = current_profile(), local_today()
    services.rule_of(profile)
    user = current_user._get_current_object()
    renews = None
    if (renews_id := http.args.get("renova", type=int)) is not None:
        renews = _own(renews_id)
    key = animals.owner_residence_key(user)
    form = RequestForm()
    if http.method == "GET" and renews is not None:  # pre-filled from the current licence
        form.prefill(renews)
    errors: dict[str, list[str]] = {}
    if form.validate_on_submit():
        at_home = services.residence_animals(key) if key else []
        data = form.request_data(at_home, renewing=renews is not None)
        done = run_service(
            lambda: services.request_licence(
                user, data, profile=profile, today=today, renews=renews
            ),
            form=form,
            errors=errors,
            success=lambda licence: _(
                "Pedido enviado: nº %(id)d. O CCZ vai analisar e agendar a vistoria.",
                id=licence.id,
            ),
        )
        if done.value is not None:
            return redirect(url_for("licences.detail", licence_id=done.value.id))
    elif http.method == "POST":
        errors[""] = [_("Confira os campos indicados.")]
    return _request_page(form, key, renews, errors)


def _request_page(
    form: RequestForm, key: str | None, renews: ExcessLicence | None, errors: dict[str, list[str]]
) -> str:
    profile, today = current_profile(), local_today()
    rule = services.rule_of(profile)
    at_home = services.residence_animals(key) if key else []
    return render_template(
        "licences/request.html",
        form=form,
        rule=rule,
        household=profile.household,
        animals=at_home,
        renews=renews,
        errors=errors,
        today=today,
        on_record={a.id: animals.current_vaccination(a, today) is not None for a in at_home},
        counted={a.id: animals.counts_for_household(a.birth_date, today, profile) for a in at_home},
        confirmed={k.removeprefix("confirm-") for k in http.form if k.startswith("confirm-")},
        document=services.document_name(profile),
        address_ok=key is not None,
        closed=renews is None
        and rule.requests_accepted_until is not None
        and today > rule.requests_accepted_until,
    )


@bp.get("/licencas/minhas")
@signed_in
def mine():
    profile, today = current_profile(), local_today()
    found = db.session.scalars(
        select(ExcessLicence)
        .where(ExcessLicence.holder_id == current_user.id)
        .order_by(ExcessLicence.id.desc())
    ).all()
    rows = [
        (
            lic,
            services.status_label(lic, today),
            services.renewal_window(lic, profile),
            services.renewal_of(lic),
        )
        for lic in found
    ]
    return render_template(
        "licences/mine.html",
        rows=rows,
        today=today,
        rule=services.rule_of(profile),
        document=services.document_name(profile),
    )


@bp.get("/licencas/minhas/<int:licence_id>")
@signed_in
def detail(licence_id: int):
    licence = _own(licence_id)
    profile, today = current_profile(), local_today()
    return render_template(
        "licences/detail.html",
        licence=licence,
        today=today,
        form=AnswerForm(),
        status=services.status_label(licence, today),
        event_label=services.event_label,
        window=services.renewal_window(licence, profile),
        renewal=services.renewal_of(licence),
        public=services.public_status(licence, today),
        rule=services.rule_of(profile),
        document=services.document_name(profile),
    )


@bp.post("/licencas/minhas/<int:licence_id>/resposta")
@signed_in
def answer(licence_id: int):
    licence = _own(licence_id)
    form = AnswerForm()
    if form.validate_on_submit():
        run_service(
            lambda: services.answer_info(
                licence, current_user._get_current_object(), form.answer.data, uploads("files")
            ),
            success=_("Resposta enviada ao CCZ."),
        )
    else:
        flash(_("Escreva a sua resposta."), "danger")
    return redirect(url_for("licences.detail", licence_id=licence.id))


@bp.get("/licencas/minhas/<int:licence_id>/documento.pdf")
@signed_in
def pdf(licence_id: int):
    from portal.blueprints.licences.documents import licence_pdf

    licence = _own(licence_id)
    profile, today = current_profile(), local_today()
    if services.public_status(licence, today) is None:
        abort(404)
    data = licence_pdf(
        licence, profile, absolute_url("licences.public_check", code=licence.code), today
    )
    return Response(
        data,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'attachment; filename="licenca-{licence.id}.pdf"',
            "Cache-Control": "private, no-store",
        },
    )


@bp.get("/licencas/<code>")
@public
def public_check(code: str):
    """The page the PDF's QR code opens: status, term and cap; nothing about the holder."""
    profile, today = current_profile(), local_today()
    licence = db.session.scalar(
        select(ExcessLicence).where(ExcessLicence.code == services.normalise_code(code))
    )
    status = services.public_status(licence, today) if licence is not None else None
    if licence is None or status is None:
        return render_template("licences/public_unknown.html"), 404
    return render_template(
        "licences/public.html",
        licence=licence,
        status=status,
        profile=profile,
        document=services.document_name(profile),
    )

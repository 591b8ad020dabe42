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
from portal.blueprints.licences.forms import AnswerForm, NewAnimalForm, RequestForm
from portal.extensions import db
from portal.models import ExcessLicence
from portal.services.clock import current_profile, local_today
from portal.urls import absolute_url


def _uploads(name: str) -> list[services.Upload]:
    return [
        services.Upload(f.stream, f.filename) for f in http.files.getlist(name) if f and f.filename
    ]


def _upload(name: str) -> services.Upload | None:
    found = _uploads(name)
    return found[0] if found else None


def _new_animal(block: NewAnimalForm, prefix: str) -> services.NewAnimal | None:
    if not (block.name.data or "").strip():
        return None  # an empty block: nothing to register
    data = animals.AnimalData(
        name=block.name.data.strip(),
        species=block.species.data or "",
        sex=block.sex.data or "",
        birth_date=block.birth_date.data,
        breed=(block.breed.data or "").strip() or None,
        color=(block.color.data or "").strip() or None,
        size=block.size.data or None,
        sterilized=bool(block.sterilized.data),
    )
    vaccination = None
    if block.vaccinated_on.data is not None:
        vaccination = animals.VaccinationData(
            applied_on=block.vaccinated_on.data,
            vaccine_name=block.vaccine_name.data or "",
            batch=block.batch.data or "",
            vet_name=block.vet_name.data or "",
            vet_crmv=animals.normalise_crmv(block.vet_crmv.data),
        )
    return services.NewAnimal(
        data=data,
        vaccination=vaccination,
        vaccinate_at_ccz=vaccination is None,
        sterilisation_proof=_upload(f"{prefix}-sterilisation_proof"),
    )


def _own(licence_id: int) -> ExcessLicence:
    licence = db.session.get(ExcessLicence, licence_id)
    if licence is None or licence.holder_id != current_user.id:
        abort(404)
    return licence


@bp.route("/licencas/pedido", methods=["GET", "POST"])
@signed_in
def request():  # noqa: A001  (the endpoint name other pages link to: licences.request)
    profile, today = current_profile(), local_today()
    rule = services.rule_of(profile)
    user = current_user._get_current_object()
    renews = None
    if (renews_id := http.args.get("renova", type=int)) is not None:
        renews = _own(renews_id)
    key = animals.owner_residence_key(user)
    at_home = services.residence_animals(key) if key else []
    form = RequestForm()
    if http.method == "GET" and renews is not None:  # pre-filled from the current licence
        form.animals_requested.data = renews.max_animals
        form.housing_description.data = renews.housing_description
    errors: dict[str, list[str]] = {}
    if form.validate_on_submit():
        listed = [
            services.ListedAnimal(
                animal_id=a.id,
                confirmed=http.form.get(f"confirm-{a.id}") == "1",
                rabies_proof=_upload(f"rabies-{a.id}"),
                sterilisation_proof=_upload(f"sterilisation-{a.id}"),
            )
            for a in at_home
        ]
        new = (
            []
            if renews
            else [
                n
                for i, block in enumerate(form.new_blocks(), start=1)
                if (n := _new_animal(block.form, f"new_{i}")) is not None
            ]
        )
        data = services.RequestData(
            animals_requested=form.animals_requested.data,
            housing_description=form.housing_description.data or "",
            listed=listed,
            new=new,
            photos=_uploads("photos"),
        )
        try:
            licence = services.request_licence(
                user, data, profile=profile, today=today, renews=renews
            )
        except services.LicenceError as err:
            db.session.rollback()
            for problem in getattr(err, "errors", [err]):
                if not problem.show_on(form):
                    errors.setdefault(problem.field or "", []).append(problem.message)
        else:
            db.session.commit()
            flash(
                _(
                    "Pedido enviado: nº %(id)d. O CCZ vai analisar e agendar a vistoria.",
                    id=licence.id,
                ),
                "success",
            )
            return redirect(url_for("licences.detail", licence_id=licence.id))
    elif http.method == "POST":
        errors[""] = [_("Confira os campos indicados.")]
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
        try:
            services.answer_info(
                licence, current_user._get_current_object(), form.answer.data, _uploads("files")
            )
        except services.LicenceError as err:
            db.session.rollback()
            flash(err.message, "danger")
        else:
            db.session.commit()
            flash(_("Resposta enviada ao CCZ."), "success")
            return redirect(url_for("licences.detail", licence_id=licence.id))
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

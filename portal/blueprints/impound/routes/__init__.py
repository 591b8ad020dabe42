"""Public and citizen pages: "Animais recolhidos" (no exact address, only the district), "Perdi
meu animal", the owner's page of a capture with the online reclaim, the certidão negativa de
captura (GRU 84 §3, §5) and its public check ``/certidoes/<code>``."""

from __future__ import annotations

from flask import Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import select

from portal.access import public, signed_in
from portal.blueprints.files import file_url
from portal.blueprints.impound import bp, services
from portal.blueprints.impound.forms import (
    CertificateRequestForm,
    LostAnimalForm,
    PublicFilterForm,
)
from portal.blueprints.impound.on_site_document import records_of_owner
from portal.domain import DomainError
from portal.extensions import db
from portal.forms import EmptyForm, choices
from portal.models import Animal, CaptureCertificate
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, local_today
from portal.urls import absolute_url
from portal.views import run_service


@bp.get("/animais-recolhidos")
@public
def public_list():
    """Animals captured in the last 30 days, filterable, with what to bring to reclaim."""
    from portal.blueprints.billing.stripe_gateway import stripe_enabled

    form = PublicFilterForm(request.args)
    form.validate()
    found = services.recent_captures(
        local_today(),
        species=form.especie.data or None,
        size=form.porte.data or None,
        district=form.bairro.data or None,
    )
    return render_template(
        "impound/public_list.html",
        captures=found,
        form=form,
        s=services,
        photo_url=file_url,
        profile=current_profile(),
        day_counts=services.capture_day_counts(current_profile()),
        today=local_today(),
        online=stripe_enabled(),
    )


@bp.get("/animais-recolhidos/<protocol>")
@public
def public_capture(protocol: str):
    """The public page of a capture; signed in as the animal's owner, it offers the reclaim."""
    capture = services.find_by_protocol(protocol)
    if capture is None or capture not in services.recent_captures(local_today()):
        abort(404)
    owner = current_user.is_authenticated and capture.owner_id == current_user.id
    return render_template(
        "impound/public_capture.html",
        capture=capture,
        s=services,
        photo_url=file_url,
        profile=current_profile(),
        owner=owner,
        **(_reclaim_context(capture) if owner else {}),
    )


def _reclaim_context(capture) -> dict[str, object]:
    """What the owner's reclaim box shows: today's fee (None once started or not reclaimable),
    the reclaim under way, the POST form, whether the fee can be paid online."""
    from portal.blueprints.billing.stripe_gateway import stripe_enabled

    profile, today = current_profile(), local_today()
    fee, reclaim = None, services.active_reclaim(capture)
    if capture.reclaimable and reclaim is None:
        try:
            fee = services.reclaim_fee(profile, capture, today)
        except DomainError:
            fee = None
    return {
        "fee": fee,
        "reclaim": reclaim,
        "form": EmptyForm(),
        "online": stripe_enabled(),
        "today": today,
    }


@bp.get("/meus-recolhimentos")
@signed_in
def my_captures():
    """The owner's captured animals as cards (readable at 360 px), newest first."""
    return render_template(
        "impound/my_captures.html",
        captures=services.captures_of_user(current_user),
        on_site=records_of_owner(current_user),  # the documents of acts where the animal was
        s=services,
        today=local_today(),
    )


@bp.get("/meus-recolhimentos/<protocol>")
@signed_in
def my_capture(protocol: str):
    """The owner's page: deadline, fee, the reclaim, the release, where the CCZ is."""
    capture = services.find_by_protocol(protocol)
    if capture is None or capture not in services.captures_of_user(current_user):
        abort(404)
    return render_template(
        "impound/my_capture.html",
        capture=capture,
        s=services,
        photo_url=file_url,
        profile=current_profile(),
        **_reclaim_context(capture),
    )


@bp.post("/meus-recolhimentos/<protocol>/resgatar")
@signed_in
def my_reclaim(protocol: str):
    capture = services.find_by_protocol(protocol)
    if capture is None or capture.owner_id != current_user.id:
        abort(404)
    if not EmptyForm().validate_on_submit():
        return redirect(url_for("impound.my_capture", protocol=capture.protocol))
    done = run_service(
        lambda: services.start_reclaim(
            current_profile(),
            capture,
            claimant=current_user,
            channel="online",
            started_by=current_user,
            today=local_today(),
        ),
        success=lambda _reclaim: _reclaim_started(),
    )
    if done.value is None:
        return redirect(url_for("impound.my_capture", protocol=capture.protocol))
    return redirect(url_for("billing.item", item_id=done.value.payment_item_id))


def _reclaim_started() -> str:
    """What the owner does next: pay online or at the counter, then fetch the animal."""
    from portal.blueprints.billing.stripe_gateway import stripe_enabled

    if stripe_enabled():
        return _(
            "Resgate iniciado. Pague a taxa online ou com a guia no caixa do CCZ e depois vá "
            "buscar o animal com documento com foto."
        )
    return _(
        "Resgate iniciado. Imprima a guia e pague no caixa do CCZ; depois da baixa da guia, "
        "o animal é devolvido a quem apresentar documento com foto."
    )


def _lost_form() -> LostAnimalForm:
    """The "Perdi meu animal" form, offering the person's own animals to pick from."""
    form = LostAnimalForm()
    mine = db.session.scalars(
        select(Animal).where(Animal.owner_id == current_user.id).order_by(Animal.name)
    ).all()
    form.animal_id.choices = choices(
        [
            ("", _("Nenhum: vou descrever o animal")),
            *((str(a.id), f"{a.name} · {a.rga}") for a in mine),
        ]
    )
    if request.method == "GET" and form.lost_on.data is None:
        form.lost_on.data = local_today()
    return form


def _alert_data(form: LostAnimalForm) -> services.AlertData:
    return services.AlertData(
        species=form.species.data or "dog",
        lost_on=form.lost_on.data,
        color=form.color.data,
        district=form.district.data,
        microchip=form.microchip.data,
        rga=form.rga.data,
        description=form.description.data,
        animal_id=int(form.animal_id.data) if form.animal_id.data else None,
    )


@bp.route("/perdi-meu-animal", methods=["GET", "POST"])
@signed_in
def lost():
    """The owner describes a lost animal and is e-mailed when a capture matches."""
    form = _lost_form()
    if not form.validate_on_submit():
        return render_template("impound/lost.html", form=form)
    if not form.animal_id.data and not form.species.data:
        form.species.errors = [_("Escolha a espécie ou um dos seus animais.")]
        return render_template("impound/lost.html", form=form)
    done = run_service(
        lambda: services.create_alert(current_user, _alert_data(form), local_today()),
        form=form,
        success=_("Aviso registrado. Enviaremos um e-mail se um animal parecido for recolhido."),
    )
    if not done.ok:
        return render_template("impound/lost.html", form=form)
    return redirect(url_for("impound.public_list"))


@bp.route("/certidoes/pedir", methods=["GET", "POST"])
@signed_in
def certificate_request():
    """GRU 84 §3: ask for the certidão of an animal before acquiring it."""
    profile = current_profile()
    if not services.certificates_offered(profile):
        abort(404)
    form = CertificateRequestForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: services.request_certificate(
                profile,
                form.rga.data,
                requester=current_user,
                exam_on=form.exam_on.data,
                today=local_today(),
            ),
            form=form,
            success=lambda cert: _certificate_requested(profile, cert),
        )
        if done.ok:
            return redirect(url_for("impound.certificate_mine"))
    return render_template(
        "impound/certificate_request.html",
        form=form,
        article=profile.impound.cite("capture_certificate"),  # the profile's, e.g. GRU 84 §3, §5
    )


def _certificate_requested(profile: Profile, cert: CaptureCertificate) -> str:
    return _(
        "Pedido registrado. Leve o animal, contido, ao CCZ em %(day)s para o exame (%(article)s).",
        day=cert.exam_on.strftime("%d/%m/%Y"),
        article=profile.impound.cite("capture_certificate"),
    )


@bp.get("/certidoes/minhas")
@signed_in
def certificate_mine():
    if not services.certificates_offered(current_profile()):
        abort(404)
    found = db.session.scalars(
        select(CaptureCertificate)
        .where(CaptureCertificate.requester_id == current_user.id)
        .order_by(CaptureCertificate.id.desc())
    ).all()
    return render_template("impound/certificate_mine.html", certificates=found)


@bp.get("/certidoes/<code>")
@public
def certificate_check(code: str):
    """Public check: RGA, captures in the period, the period, the issue date; nothing personal."""
    cert = services.public_certificate(code, current_profile())
    if cert is None:
        abort(404)
    return render_template("impound/certificate_check.html", cert=cert, profile=current_profile())


@bp.get("/certidoes/<code>/certidao.pdf")
@public
def certificate_pdf(code: str):
    """The certidão as a PDF with its QR code; the same public data as the check page."""
    from portal.blueprints.impound.documents import certificate_pdf as render_pdf

    profile = current_profile()
    cert = services.public_certificate(code, profile)
    if cert is None:
        abort(404)
    data = render_pdf(cert, profile, absolute_url("impound.certificate_check", code=cert.code))
    return Response(
        data,
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="certidao-{cert.code}.pdf"'},
    )


# the views by subject register on ``bp`` when imported
from portal.blueprints.impound.routes import on_site_document, public_checks  # noqa: E402,F401

"""Public pages where people go in person or check a paper (issue 25): where the CCZ is and when
it opens (the profile's ``[ccz]`` table), the certidão negativa de captura explained (GRU 84 §3,
§5: what it is, its fee, where the exam is), and "Conferir um documento", one GET form per public
check (certidão, licença, registro feito no local, documento de fiscalização), each answering in
plain Portuguese."""

from __future__ import annotations

from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select
from werkzeug.wrappers import Response

from portal.access import public
from portal.blueprints.impound import bp, on_site
from portal.blueprints.impound.certificates import certificates_offered, public_certificate
from portal.blueprints.impound.forms import (
    CertificateCheckForm,
    DocumentCheckForm,
    LicenceCheckForm,
    OnSiteCheckForm,
)
from portal.extensions import db
from portal.models import OnSiteEuthanasia
from portal.profiles.schema import Profile
from portal.services import ccz
from portal.services.clock import current_profile, local_today


def ccz_context() -> dict[str, Any]:
    """``ccz_contact()``: the CCZ's confirmed address and hours (None: not confirmed yet);
    ``certificates_offered()``: whether the city's law has the certidão (GRU 84 §3), so that no
    page links to one where it does not exist."""
    return {
        "ccz_contact": ccz.contact,
        "certificates_offered": lambda: certificates_offered(current_profile()),
    }


@bp.get("/onde-fica-o-ccz")
@public
def ccz_place():
    """Address, opening hours and what to bring for each errand done at the CCZ in person."""
    profile = current_profile()
    return render_template(
        "impound/ccz_place.html",
        profile=profile,
        certificates=certificates_offered(profile),
    )


@bp.get("/certidoes")
@public
def certificates():
    """The certidão negativa de captura explained, with the request and the check by code."""
    profile = current_profile()
    if not certificates_offered(profile):
        return redirect(url_for("impound.checks"))
    return render_template(
        "impound/certificates.html",
        profile=profile,
        article=profile.impound.cite("capture_certificate"),  # GRU 84 §3, §5
        form=CertificateCheckForm(),
    )


def _licence_found(code: str) -> str | None:
    """The licence's normalised code when a public licence has it; None otherwise."""
    from portal.blueprints.licences.services import normalise_code, public_status
    from portal.models import ExcessLicence

    wanted = normalise_code(code)
    licence = db.session.scalar(select(ExcessLicence).where(ExcessLicence.code == wanted))
    if licence is None or public_status(licence, local_today()) is None:
        return None
    return wanted


def _certificate_checked(form: CertificateCheckForm, profile: Profile) -> Response | None:
    """The certidão's page when its code was typed and exists; else the error beside the field."""
    code = (form.certidao.data or "").strip()
    if code and form.validate():
        if public_certificate(code, profile) is not None:
            return redirect(url_for("impound.certificate_check", code=code.upper()))
        form.certidao.errors = [
            _("Não há certidão emitida com este código. Confira as letras e os números.")
        ]
    return None


def _licence_checked(form: LicenceCheckForm) -> Response | None:
    code = (form.licenca.data or "").strip()
    if code and form.validate():
        found = _licence_found(code)
        if found is not None:
            return redirect(url_for("licences.public_check", code=found))
        form.licenca.errors = [
            _("Não há licença com este código. Confira o código impresso no documento.")
        ]
    return None


def _on_site_checked(form: OnSiteCheckForm) -> Response | None:
    """The page of a record made where the animal was (GRU 90; CAB 9; CABO 11's auto de
    constatação), from the code printed on its document."""
    code = (form.no_local.data or "").strip().upper()
    if code and form.validate():
        taken = select(OnSiteEuthanasia.id).where(OnSiteEuthanasia.check_code == code)
        if db.session.scalar(taken) is not None:
            return redirect(url_for("impound.on_site_check", code=code))
        form.no_local.errors = [
            _("Não há registro com este código. Confira as letras e os números.")
        ]
    return None


@bp.get("/conferir")
@public
def checks():
    """One form per public check; a code found opens its page, one not found says so here."""
    profile = current_profile()
    cert_form, licence_form = CertificateCheckForm(request.args), LicenceCheckForm(request.args)
    on_site_form = OnSiteCheckForm(request.args)
    offered = certificates_offered(profile)
    has_licences = bool("licences.public_check" in current_app.view_functions and profile.licence)
    has_on_site = on_site.offered(profile)
    found = (
        (_certificate_checked(cert_form, profile) if offered else None)
        or (_licence_checked(licence_form) if has_licences else None)
        or (_on_site_checked(on_site_form) if has_on_site else None)
    )
    if found is not None:
        return found
    return render_template(
        "impound/checks.html",
        cert_form=cert_form if offered else None,
        licence_form=licence_form if has_licences else None,
        on_site_form=on_site_form if has_on_site else None,
        document_form=(
            DocumentCheckForm() if "enforcement.verify" in current_app.view_functions else None
        ),
    )

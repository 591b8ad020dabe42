"""Public pages where people go in person or check a paper (issue 25): where the CCZ is and when
it opens (the profile's ``[ccz]`` table), the certidão negativa de captura explained (GRU 84 §3,
§5: what it is, its fee, where the exam is), and "Conferir um documento", one GET form per public
check (certidão, licença, documento de fiscalização), each answering in plain Portuguese."""

from __future__ import annotations

from typing import Any

from flask import current_app, redirect, render_template, request, url_for
from flask_babel import gettext as _
from sqlalchemy import select

from portal.access import public
from portal.blueprints.impound import bp, services
from portal.blueprints.impound.forms import (
    CertificateCheckForm,
    DocumentCheckForm,
    LicenceCheckForm,
)
from portal.extensions import db
from portal.services.clock import current_profile, local_today


def ccz_context() -> dict[str, Any]:
    """``ccz_contact()``: the CCZ's address and hours (None where the profile has none);
    ``certificates_offered()``: whether the city's law has the certidão (GRU 84 §3), so that no
    page links to one where it does not exist."""
    return {
        "ccz_contact": lambda: current_profile().ccz,
        "certificates_offered": lambda: services.certificates_offered(current_profile()),
    }


@bp.get("/onde-fica-o-ccz")
@public
def ccz_place():
    """Address, opening hours and what to bring for each errand done at the CCZ in person."""
    profile = current_profile()
    return render_template(
        "impound/ccz_place.html",
        profile=profile,
        certificates=services.certificates_offered(profile),
    )


@bp.get("/certidoes")
@public
def certificates():
    """The certidão negativa de captura explained, with the request and the check by code."""
    profile = current_profile()
    if not services.certificates_offered(profile):
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


@bp.get("/conferir")
@public
def checks():
    """One form per public check; a code found opens its page, one not found says so here."""
    profile = current_profile()
    cert_form, licence_form = CertificateCheckForm(request.args), LicenceCheckForm(request.args)
    offered = services.certificates_offered(profile)
    code = (cert_form.certidao.data or "").strip()
    if offered and code and cert_form.validate():
        if services.public_certificate(code, profile) is not None:
            return redirect(url_for("impound.certificate_check", code=code.upper()))
        cert_form.certidao.errors = [
            _("Não há certidão emitida com este código. Confira as letras e os números.")
        ]
    has_licences = "licences.public_check" in current_app.view_functions and profile.licence
    lcode = (licence_form.licenca.data or "").strip()
    if has_licences and lcode and licence_form.validate():
        found = _licence_found(lcode)
        if found is not None:
            return redirect(url_for("licences.public_check", code=found))
        licence_form.licenca.errors = [
            _("Não há licença com este código. Confira o código impresso no documento.")
        ]
    return render_template(
        "impound/checks.html",
        cert_form=cert_form if offered else None,
        licence_form=licence_form if has_licences else None,
        document_form=(
            DocumentCheckForm() if "enforcement.verify" in current_app.view_functions else None
        ),
    )

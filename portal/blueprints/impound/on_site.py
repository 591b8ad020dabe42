"""GRU 90: the on-the-spot euthanasia of a large animal whose transport is impossible.

"Na apreensão ou captura cujo transporte do animal de grande porte seja inviável, poderá o mesmo, a
juízo da autoridade sanitária, ser submetido à eutanásia no local onde estiver." The animal never
reaches the CCZ, so there is no capture: an agent or a vet records the act with the vet's laudo
(text, CRMV and the signed file, kept through ``store_document``). The profile says which legal
size classes it applies to (``impound.on_site_euthanasia_sizes``; empty: the law has no such act,
and the page does not exist). Dogs and cats are never euthanised this way: their legal class is
small where the law classes by species (GRU 10 XV), and Lei 14.228/2021 allows only the
euthanasia of its art. 2º.

Service (:func:`record_on_site_euthanasia`) and the staff page ``/ccz/eutanasia-no-local``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import IO

from flask import abort, flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import func, select

from portal.access import roles_required
from portal.blueprints.files import file_url
from portal.blueprints.impound import bp
from portal.domain import DomainError
from portal.extensions import db
from portal.models import OnSiteEuthanasia, User
from portal.profiles.schema import Profile
from portal.services import audit
from portal.services.clock import current_profile, local_today

from .destinations import LAUDO_FILE_PURPOSE, _store_laudo
from .forms import OnSiteEuthanasiaForm
from .labels import FEDERAL_EUTHANASIA, FEDERAL_SPECIES, size_label

RECENT = 50  # records listed on the page


@dataclass
class OnSiteData:
    species: str
    size: str  # the agent's weight class; the legal class comes from the profile
    description: str
    place: str
    district: str
    performed_on: date
    transport_impossible: str
    vet_report: str
    vet_crmv: str
    laudo_file: tuple[IO[bytes], str | None] | None
    owner_name: str | None = None


def offered(profile: Profile) -> bool:
    """Whether the city's law has the act (GRU 90)."""
    return bool(profile.impound.on_site_euthanasia_sizes)


def _check(profile: Profile, data: OnSiteData, actor: User, today: date) -> None:
    rule = profile.impound
    article = rule.cite("on_site_euthanasia_sizes")
    if not (actor.has_role("agent") or actor.has_role("vet")):
        raise DomainError(
            None, "agent_or_vet", _("Só o agente sanitário ou o médico veterinário registra.")
        )
    if data.species in FEDERAL_SPECIES:
        # Lei 14.228/2021, art. 1º-2º: a dog's or a cat's life ends only by its euthanasia
        raise DomainError(
            "species",
            "federal_species",
            _(
                "Cães e gatos não podem ter eutanásia no local: só com laudo de doença grave "
                "incurável, pelo procedimento da %(law)s.",
                law=FEDERAL_EUTHANASIA,
            ),
        )
    if rule.legal_size(data.species, data.size) not in rule.on_site_euthanasia_sizes:
        raise DomainError(
            "size",
            "not_large",
            _(
                "A eutanásia no local só é prevista para animal de %(sizes)s cujo transporte "
                "seja inviável (%(article)s). Recolha o animal e registre a captura.",
                sizes=f" {_('ou')} ".join(size_label(s) for s in rule.on_site_euthanasia_sizes),
                article=article,
            ),
        )
    if data.performed_on > today:
        raise DomainError("performed_on", "future", _("A data não pode ser futura."))
    required = (
        ("description", _("Descreva o animal.")),
        ("place", _("Informe o local.")),
        ("district", _("Informe o bairro.")),
        ("transport_impossible", _("Explique por que o transporte é inviável (%(a)s).", a=article)),
        ("vet_report", _("Escreva o laudo do médico veterinário.")),
        ("vet_crmv", _("Informe o CRMV do veterinário.")),
    )
    for name, message in required:
        if not str(getattr(data, name) or "").strip():
            raise DomainError(name, "required", message)
    if data.laudo_file is None:
        raise DomainError(
            "laudo_file",
            "required",
            _("Anexe o laudo assinado pelo médico veterinário (PDF ou foto)."),
        )


def record_on_site_euthanasia(
    profile: Profile, data: OnSiteData, *, actor: User, today: date
) -> OnSiteEuthanasia:
    """Record the act with its laudo; refused with a message beside the field at fault."""
    if not offered(profile):
        raise DomainError(
            None, "not_provided", _("A lei deste município não prevê a eutanásia no local.")
        )
    _check(profile, data, actor, today)
    assert data.laudo_file is not None  # checked above
    laudo = _store_laudo(*data.laudo_file)
    year = data.performed_on.year
    count = db.session.scalar(
        select(func.count())
        .select_from(OnSiteEuthanasia)
        .where(OnSiteEuthanasia.number.like(f"EUT-{year}-%"))
    )
    record = OnSiteEuthanasia(
        number=f"EUT-{year}-{(count or 0) + 1:05d}",
        description=data.description.strip(),
        size=profile.impound.legal_size(data.species, data.size),
        place=data.place.strip(),
        district=data.district.strip(),
        performed_on=data.performed_on,
        transport_impossible=data.transport_impossible.strip(),
        vet_report=data.vet_report.strip(),
        vet_crmv=data.vet_crmv.strip(),
        laudo_file_id=laudo.id,
        article=profile.impound.cite("on_site_euthanasia_sizes"),
        owner_name=(data.owner_name or "").strip() or None,
        recorded_by_id=actor.id,
    )
    db.session.add(record)
    db.session.flush()
    audit.record(
        "impound.on_site_euthanasia",
        record,
        detail={"number": record.number, "article": record.article},
        actor_id=actor.id,
    )
    return record


def recent() -> list[OnSiteEuthanasia]:
    return list(
        db.session.scalars(
            select(OnSiteEuthanasia).order_by(OnSiteEuthanasia.id.desc()).limit(RECENT)
        )
    )


# -- The staff page -----------------------------------------------------------------------------


def _page(form: OnSiteEuthanasiaForm, status: int = 200):
    profile = current_profile()
    return render_template(
        "impound/on_site.html",
        form=form,
        records=recent(),
        article=profile.impound.cite("on_site_euthanasia_sizes"),
        sizes=[size_label(s) for s in profile.impound.on_site_euthanasia_sizes],
        file_url=file_url,
    ), status


@bp.get("/ccz/eutanasia-no-local")
@roles_required("agent", "vet", "coordinator")
def staff_on_site():
    """GRU 90: the form and the acts recorded."""
    if not offered(current_profile()):
        abort(404)
    form = OnSiteEuthanasiaForm(performed_on=local_today())
    return _page(form)


@bp.post("/ccz/eutanasia-no-local")
@roles_required("agent", "vet")
def staff_on_site_record():
    profile = current_profile()
    if not offered(profile):
        abort(404)
    form = OnSiteEuthanasiaForm()
    if not form.validate_on_submit():
        return _page(form, 422)
    upload = form.laudo_file.data
    data = OnSiteData(
        species=form.species.data,
        size=form.size.data,
        description=form.description.data or "",
        place=form.place.data or "",
        district=form.district.data or "",
        performed_on=form.performed_on.data,
        transport_impossible=form.transport_impossible.data or "",
        vet_report=form.vet_report.data or "",
        vet_crmv=form.vet_crmv.data or "",
        laudo_file=(upload.stream, upload.filename) if upload and upload.filename else None,
        owner_name=form.owner_name.data,
    )
    try:
        record = record_on_site_euthanasia(profile, data, actor=current_user, today=local_today())
    except DomainError as err:
        db.session.rollback()
        if not err.show_on(form):
            flash(err.message, "danger")
        return _page(form, 422)
    db.session.commit()
    flash(_("Eutanásia no local registrada: nº %(n)s.", n=record.number), "success")
    return redirect(url_for("impound.staff_on_site"))


__all__ = ["LAUDO_FILE_PURPOSE", "OnSiteData", "offered", "record_on_site_euthanasia"]

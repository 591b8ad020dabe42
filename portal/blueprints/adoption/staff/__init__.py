"""CCZ staff pages: NGO registrations and their members, and bars by CPF (the CPF travels only
in POST bodies, never in a URL). The pages NGOs and staff share are ``manage`` (listings) and
``review`` (an application's review and hand-over)."""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import staff_required
from portal.blueprints.adoption import bp
from portal.blueprints.adoption.bars import (
    BAR_LABELS,
    animal_id_for_rga,
    bars_for_cpf,
    recent_bars,
    record_bar,
    revoke_bar,
)
from portal.blueprints.adoption.errors import AdoptionError
from portal.blueprints.adoption.forms import (
    BarForm,
    BarLookupForm,
    MemberForm,
    ReasonForm,
    StateForm,
)
from portal.blueprints.adoption.organizations import (
    add_member,
    approve_organization,
    organizations_for_review,
    refuse_organization,
)
from portal.blueprints.auth.freshness import recent_password
from portal.blueprints.auth.services import find_by_email
from portal.extensions import db
from portal.models import (
    Listing,
    Organization,
    PersonBar,
    User,
)
from portal.services import audit
from portal.services.ids import parse_id
from portal.views import run_service


@bp.get("/gestao/ongs")
@staff_required
def organizations():
    orgs = organizations_for_review()
    return render_template(
        "adoption/organizations.html",
        organizations=orgs,
        approve_form=StateForm(),
        refuse_form=ReasonForm(),
        member_form=MemberForm(),
    )


@bp.post("/gestao/ongs/<int:organization_id>/membros")
@staff_required
def organization_member(organization_id: int):
    """Link another account (by its e-mail) to an NGO, e.g. for an NGO created with an API token."""
    org = db.session.get(Organization, organization_id) or abort(404)
    form = MemberForm()
    if form.validate_on_submit():
        run_service(
            lambda: _add_member(org, find_by_email(form.email.data)),
            success=lambda user: _(
                "%(name)s agora atua pela ONG %(org)s.", name=user.full_name, org=org.display_name
            ),
        )
    else:
        flash(_("Informe um e-mail válido."), "danger")
    return redirect(url_for("adoption.organizations"))


def _add_member(org: Organization, user: User | None) -> User:
    if user is None:
        raise AdoptionError(
            "email",
            "not_found",
            _("Nenhuma conta com este e-mail. Peça à pessoa que crie a conta no portal primeiro."),
        )
    add_member(org, user, current_user)
    return user


@bp.post("/gestao/ongs/<int:organization_id>/aprovar")
@staff_required
@recent_password
def organization_approve(organization_id: int):
    org = db.session.get(Organization, organization_id) or abort(404)
    if StateForm().validate_on_submit():
        run_service(
            lambda: approve_organization(org, current_user),
            success=lambda _v: _("ONG %(name)s aprovada.", name=org.display_name),
        )
    return redirect(url_for("adoption.organizations"))


@bp.post("/gestao/ongs/<int:organization_id>/recusar")
@staff_required
def organization_refuse(organization_id: int):
    org = db.session.get(Organization, organization_id) or abort(404)
    form = ReasonForm()
    if form.validate_on_submit():
        run_service(
            lambda: refuse_organization(org, current_user, form.reason.data),
            success=_("Cadastro recusado; o motivo foi enviado."),
            success_category="info",
        )
    else:
        flash(_("Informe o motivo da recusa."), "danger")
    return redirect(url_for("adoption.organizations"))


def _look_up_bars(lookup: BarLookupForm) -> list[PersonBar] | None:
    """The bars on the CPF typed (the look-up is audited), or None with the error on the field."""
    return run_service(lambda: _bars_audited(lookup.cpf.data), form=lookup).value


def _bars_audited(cpf: str) -> list[PersonBar]:
    found = bars_for_cpf(cpf)
    audit.record("adoption.bars_viewed", None, detail={"results": len(found)})
    return found


def _record_bar(form: BarForm) -> bool:
    """Record the bar and commit (True); else roll back and show the errors on the form."""
    # every problem names a field of the form; one naming none goes next to the CPF
    return run_service(lambda: _record(form), form=form, fallback="cpf").ok


def _record(form: BarForm) -> PersonBar:
    listing_id = parse_id(form.listing_id.data)  # an IntegerField is unbounded
    listing = db.session.get(Listing, listing_id) if listing_id else None
    if form.listing_id.data and listing is None:
        raise AdoptionError("listing_id", "invalid", _("Anúncio não encontrado."))
    animal_id = animal_id_for_rga(form.rga.data) if form.rga.data else None
    return record_bar(
        form.cpf.data,
        form.kind.data,
        form.reason.data,
        current_user,
        listing=listing,
        animal_id=animal_id,
        person_name=form.person_name.data,
    )


@bp.route("/gestao/impedimentos", methods=["GET", "POST"])
@staff_required
def bars():
    """Look up and record bars by CPF. The CPF travels only in POST bodies, never in a URL."""
    lookup = BarLookupForm(prefix="busca")
    form = BarForm(prefix="novo")
    found: list[PersonBar] | None = None
    if request.method == "POST" and "busca-cpf" in request.form and lookup.validate():
        found = _look_up_bars(lookup)
    elif request.method == "POST" and "novo-cpf" in request.form and form.validate():
        if _record_bar(form):
            flash(_("Impedimento registrado."), "success")
            return redirect(url_for("adoption.bars"))
    return render_template(
        "adoption/bars.html",
        lookup=lookup,
        form=form,
        found=found,
        recent=recent_bars(),
        revoke_form=ReasonForm(),
        labels=BAR_LABELS,
    ), (400 if form.errors or lookup.errors else 200)


@bp.post("/gestao/impedimentos/<int:bar_id>/cancelar")
@staff_required
def bar_revoke(bar_id: int):
    bar = db.session.get(PersonBar, bar_id) or abort(404)
    form = ReasonForm()
    if form.validate_on_submit():
        run_service(
            lambda: revoke_bar(bar, current_user, form.reason.data),
            success=_("Impedimento cancelado."),
            success_category="info",
        )
    else:
        flash(_("Informe o motivo do cancelamento."), "danger")
    return redirect(url_for("adoption.bars"))


# the pages of listings and of applications register on ``bp`` when imported
from portal.blueprints.adoption.staff import manage, review  # noqa: E402,F401

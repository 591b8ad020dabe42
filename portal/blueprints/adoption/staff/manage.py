"""NGO and CCZ pages for listings: the list of listings and open applications, a new listing,
editing it, its photos and its state. Who may act on a listing is decided by
``services.may_manage``; someone else's listing answers 404, not 403, so ids do not leak."""

from __future__ import annotations

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import roles_required
from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption import bp
from portal.blueprints.adoption.errors import AdoptionError
from portal.blueprints.adoption.forms import (
    ListingForm,
    MovePhotoForm,
    PhotoForm,
    StateForm,
)
from portal.blueprints.adoption.listings import (
    MANUAL_TRANSITIONS,
    STATE_LABELS,
    change_state,
    create_listing,
    listing_data,
    managed_listings,
    update_listing,
)
from portal.blueprints.adoption.organizations import organizations_of
from portal.blueprints.adoption.photos import (
    add_photo,
    delete_stored_files,
    move_photo,
    remove_photo,
)
from portal.blueprints.adoption.web import (
    MANAGERS,
    managed_listing,
    show_error,
    today,
)
from portal.extensions import db
from portal.kept_uploads import Kept, Slot, keep
from portal.models import (
    Listing,
    ListingState,
    Organization,
    StoredFile,
)
from portal.views import Outcome, run_service


def _owner_choices() -> list[tuple[str, str]]:
    choices = [(str(o.id), o.display_name) for o in organizations_of(current_user)]
    if current_user.is_staff:
        choices.insert(0, ("ccz", _("CCZ (Centro de Controle de Zoonoses)")))
    return choices


@bp.get("/gestao")
@roles_required(*MANAGERS)
def manage():
    """The NGO's (or the CCZ's) listings and the applications waiting for a decision."""
    state = request.args.get("estado")
    listings, pending = managed_listings(current_user, state)
    return render_template(
        "adoption/manage.html",
        listings=listings,
        pending=pending,
        state=state,
        has_org=bool(organizations_of(current_user)),
    )


def _save_photos(listing: Listing, files: list, saved: list[StoredFile]) -> None:
    """Add every chosen file to ``saved``; a bad one raises AdoptionError naming it.

    The caller deletes the files in ``saved`` when it rolls back (before the rollback, while the
    rows still name their files), so no orphan stays on disk.
    """
    for upload in files:
        if not upload or not upload.filename:
            continue
        try:
            photo = add_photo(listing, upload.stream, upload.filename, current_user.id)
        except AdoptionError as err:
            raise AdoptionError(
                "photos",
                err.code,
                _(
                    'A foto "%(file)s" não foi aceita: %(reason)s',
                    file=upload.filename[:80],
                    reason=err.message,
                ),
            ) from err
        saved.append(photo.stored_file)


def _create_listing(form: ListingForm, kept: Kept) -> Listing:
    """The listing with the photos its draft holds (published at once when asked); the draft goes
    in the same commit. Raises AdoptionError."""
    data = listing_data(form.listing_input(), today())
    org = None if form.owner.data == "ccz" else db.session.get(Organization, int(form.owner.data))
    listing = create_listing(org, current_user, data)
    for held in kept.files("photos"):
        add_photo(listing, held.stored, None, current_user.id)
    if request.form.get("publish"):
        change_state(listing, ListingState.PUBLISHED, current_user)
    kept.discard()
    return listing


@bp.route("/gestao/novo", methods=["GET", "POST"])
@roles_required(*MANAGERS)
def listing_new():
    """A new listing with its photos. A bad photo is named next to the photo field; every other
    field keeps what was typed, and the good photos are held in the person's draft (issue 25),
    shown back and used by the next post without a new upload."""
    form = ListingForm()
    form.owner.choices = _owner_choices()
    if not form.owner.choices:
        flash(_("Sua ONG ainda não foi aprovada pelo CCZ."), "warning")
        return redirect(url_for("adoption.manage"))
    problems: list[str] = []
    kept = keep("listing_new", "", [Slot("photos", accept="image", many=True)])
    valid = form.validate_on_submit()
    if not kept.show_refused(form) and valid:
        done = _create(form, kept)
        if done.value is not None:
            return redirect(url_for("adoption.listing_edit", listing_id=done.value.id))
        problems = show_error(form, done.error) if done.error is not None else []
    return render_template(
        "adoption/listing_form.html",
        form=form,
        listing=None,
        problems=problems,
        kept=kept.files("photos"),
    ), (400 if form.errors else 200)


def _create(form: ListingForm, kept: Kept) -> Outcome[Listing]:
    """The listing created and confirmed, or the refusal (rolled back) for the page to show."""
    return run_service(
        lambda: _create_listing(form, kept),
        show=False,  # the problems no field shows are listed above the form
        success=lambda listing: _(
            "Anúncio de %(name)s salvo (%(state)s).",
            name=listing.name,
            state=STATE_LABELS[listing.state],
        ),
    )


def _render_edit(
    listing: Listing,
    form: ListingForm | None = None,
    photo_form: PhotoForm | None = None,
    problems: list[str] | None = None,
    status: int = 200,
):
    if form is None:
        form = ListingForm(obj=listing)
    form.owner.choices = [("x", listing.owner_name)]
    applications = apps.applications_for(listing)
    return render_template(
        "adoption/listing_form.html",
        form=form,
        listing=listing,
        photo_form=photo_form or PhotoForm(),
        state_form=StateForm(),
        move_form=MovePhotoForm(),
        targets=sorted(MANUAL_TRANSITIONS[listing.state]),
        applications=applications,
        problems=problems or [],
    ), status


def _update_listing(listing: Listing, form: ListingForm, saved: list[StoredFile]) -> None:
    update_listing(listing, listing_data(form.listing_input(), today()))
    _save_photos(listing, form.photos.data or [], saved)


@bp.route("/gestao/<int:listing_id>", methods=["GET", "POST"])
@roles_required(*MANAGERS)
def listing_edit(listing_id: int):
    listing = managed_listing(listing_id)
    if request.method == "GET":
        return _render_edit(listing)
    form = ListingForm()
    form.owner.choices = [("x", listing.owner_name)]
    form.owner.data = "x"
    problems: list[str] = []
    saved: list[StoredFile] = []
    if form.validate_on_submit():
        done = run_service(
            lambda: _update_listing(listing, form, saved),
            show=False,  # the problems no field shows are listed above the form
            before_rollback=lambda: delete_stored_files(saved),
            success=_("Anúncio atualizado."),
        )
        if done.ok:
            return redirect(url_for("adoption.listing_edit", listing_id=listing.id))
        problems = show_error(form, done.error) if done.error is not None else []
    # a refused service was rolled back by run_service; a refused form wrote nothing
    return _render_edit(managed_listing(listing_id), form, problems=problems, status=400)


@bp.post("/gestao/<int:listing_id>/fotos")
@roles_required(*MANAGERS)
def photo_add(listing_id: int):
    listing = managed_listing(listing_id)
    photo_form = PhotoForm()
    saved: list[StoredFile] = []
    if photo_form.validate_on_submit():
        done = run_service(
            lambda: _save_photos(listing, photo_form.photos.data or [], saved),
            form=photo_form,
            fallback="photos",
            before_rollback=lambda: delete_stored_files(saved),
            success=_("Fotos adicionadas."),
        )
        if done.ok:
            return redirect(url_for("adoption.listing_edit", listing_id=listing.id) + "#fotos")
    listing = managed_listing(listing_id)
    return _render_edit(listing, photo_form=photo_form, status=400)


@bp.post("/gestao/<int:listing_id>/fotos/<int:photo_id>/remover")
@roles_required(*MANAGERS)
def photo_remove(listing_id: int, photo_id: int):
    listing = managed_listing(listing_id)
    if StateForm().validate_on_submit():
        run_service(
            lambda: remove_photo(listing, photo_id),
            success=_("Foto removida."),
            success_category="info",
        )
    return redirect(url_for("adoption.listing_edit", listing_id=listing.id) + "#fotos")


@bp.post("/gestao/<int:listing_id>/fotos/<int:photo_id>/mover")
@roles_required(*MANAGERS)
def photo_move(listing_id: int, photo_id: int):
    listing = managed_listing(listing_id)
    form = MovePhotoForm()
    if form.validate_on_submit():
        run_service(lambda: move_photo(listing, photo_id, -1 if form.direction.data == "up" else 1))
    return redirect(url_for("adoption.listing_edit", listing_id=listing.id) + "#fotos")


@bp.post("/gestao/<int:listing_id>/estado")
@roles_required(*MANAGERS)
def listing_state(listing_id: int):
    listing = managed_listing(listing_id)
    form = StateForm()
    if form.validate_on_submit():
        run_service(
            lambda: change_state(listing, form.state.data or "", current_user),
            success=lambda _v: _(
                "Anúncio agora está: %(state)s.", state=STATE_LABELS[listing.state]
            ),
        )
    return redirect(url_for("adoption.listing_edit", listing_id=listing.id))

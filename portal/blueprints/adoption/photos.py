"""A listing's photos: 1 to 8, checked and cleaned by ``store_image``; the first is the cover."""

from __future__ import annotations

from collections.abc import Iterable
from typing import IO

from flask_babel import gettext as _

from portal.blueprints.adoption.errors import AdoptionError
from portal.extensions import db
from portal.models import (
    Listing,
    ListingPhoto,
    ListingState,
    StoredFile,
)
from portal.services.uploads import UploadError, file_path, store_image

MAX_PHOTOS = 8


PHOTO_PURPOSE = "listing_photo"


def add_photo(
    listing: Listing, stream: IO[bytes] | StoredFile, filename: str | None, actor_id: int | None
) -> ListingPhoto:
    """Store one photo (checked and cleaned by ``store_image``) at the end of the gallery; a
    ``StoredFile`` is one a form's draft already held, checked and cleaned (issue 25).

    Raises AdoptionError (field ``photo``) for a bad file or a full gallery.
    """
    if len(listing.photos) >= MAX_PHOTOS:
        raise AdoptionError(
            "photo", "too_many", _("Cada anúncio pode ter no máximo %(max)d fotos.", max=MAX_PHOTOS)
        )
    if isinstance(stream, StoredFile):
        stored = stream
        stored.purpose, stored.public = PHOTO_PURPOSE, True
    else:
        stored = _store(stream, filename, actor_id)
    position = max((p.position for p in listing.photos), default=-1) + 1
    photo = ListingPhoto(stored_file=stored, position=position)
    listing.photos.append(photo)
    db.session.flush()
    return photo


def _store(stream: IO[bytes], filename: str | None, actor_id: int | None) -> StoredFile:
    try:
        return store_image(
            stream, purpose=PHOTO_PURPOSE, owner_id=actor_id, public=True, filename=filename
        )
    except UploadError as err:
        raise AdoptionError("photo", "invalid_image", err.message) from err


def delete_stored_files(files: Iterable[StoredFile]) -> None:
    """Remove the files of uploads from disk (after a rollback, or when a photo is removed)."""
    for stored in files:
        for variant in list(stored.variants):
            path = file_path(stored, variant)
            if path is not None:
                path.unlink(missing_ok=True)


def remove_photo(listing: Listing, photo_id: int) -> None:
    """Remove a photo; a published listing keeps at least one."""
    photo = next((p for p in listing.photos if p.id == photo_id), None)
    if photo is None:
        raise AdoptionError("photo", "not_found", _("Foto não encontrada."))
    visible = listing.state in (ListingState.PUBLISHED, ListingState.RESERVED)
    if visible and len(listing.photos) == 1:
        raise AdoptionError(
            "photo", "min_photos", _("Um anúncio publicado precisa de pelo menos uma foto.")
        )
    stored = photo.stored_file
    listing.photos.remove(photo)
    db.session.flush()
    db.session.delete(stored)
    db.session.flush()
    delete_stored_files([stored])


def move_photo(listing: Listing, photo_id: int, offset: int) -> None:
    """Move a photo one place up (-1) or down (+1); the first one is the cover."""
    photos = sorted(listing.photos, key=lambda p: p.position)
    index = next((i for i, p in enumerate(photos) if p.id == photo_id), None)
    if index is None:
        raise AdoptionError("photo", "not_found", _("Foto não encontrada."))
    target = index + offset
    if 0 <= target < len(photos):
        photos[index], photos[target] = photos[target], photos[index]
    for position, photo in enumerate(photos):
        photo.position = position
    db.session.flush()

"""Accepting uploads safely: type by content, size limits, decompression-bomb guard, images
re-encoded with EXIF/GPS dropped and orientation applied, a few sizes made once at upload.

PDF proofs are accepted by their magic bytes and stored as sent (they are served only to staff and
their owner, as attachments, never inline).
"""

from __future__ import annotations

import io
import secrets
import warnings
from pathlib import Path
from typing import IO

from flask import current_app
from flask_babel import gettext as _
from PIL import Image, ImageOps, UnidentifiedImageError

from portal.extensions import db
from portal.models.upload import StoredFile

try:  # HEIC photos from iPhones, when the wheel for this platform is installed
    from pillow_heif import register_heif_opener

    register_heif_opener()
    HEIC_SUPPORTED = True
except ImportError:  # pragma: no cover - depends on the platform
    HEIC_SUPPORTED = False

MAX_IMAGE_BYTES = 10 * 1024 * 1024
MAX_DOCUMENT_BYTES = 5 * 1024 * 1024
# Decoding costs by pixels, not bytes: a 35 KB PNG of 6000 × 6000 takes about a second and 75 MB
# to decode. Both caps are checked from the header, before any pixel is decoded.
MAX_PIXELS = 40_000_000  # proof documents: a page scanned or photographed in high resolution
MAX_PHOTO_PIXELS = 25_000_000  # animal and listing photos: a phone photo is 12 MP
ACCEPTED_IMAGE_FORMATS = {"JPEG", "PNG", "WEBP", "HEIF", "MPO"}
IMAGE_SIZES = {"thumbnail": 320, "medium": 800, "large": 1600}

Image.MAX_IMAGE_PIXELS = MAX_PIXELS


class UploadError(ValueError):
    """The file cannot be accepted; ``message`` is shown to the person next to the field."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ImageTooLarge(UploadError):
    """The image has more pixels than the portal decodes (whatever its size in bytes)."""


def _too_large(max_pixels: int) -> ImageTooLarge:
    return ImageTooLarge(
        _(
            "Imagem com resolução grande demais: o limite é de %(mp)d megapixels. "
            "Reduza a imagem (ou tire a foto com resolução menor) e envie de novo.",
            mp=max_pixels // 1_000_000,
        )
    )


def _read_limited(stream: IO[bytes], limit: int) -> bytes:
    data = stream.read(limit + 1)
    if not data:
        raise UploadError(_("O arquivo está vazio."))
    if len(data) > limit:
        raise UploadError(
            _("Arquivo grande demais: o limite é %(mb)d MB.", mb=limit // (1024 * 1024))
        )
    return data


def _safe_name(filename: str | None) -> str | None:
    """The name as sent, for display only: last path part, no control characters (PostgreSQL
    refuses NUL), at most 200 characters. Files on disk are always named by their token."""
    name = (filename or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable())[:200].strip()
    return name or None


def _upload_dir() -> Path:
    path = Path(current_app.config["UPLOAD_DIR"])
    path.mkdir(parents=True, exist_ok=True)
    return path


def _open_image(data: bytes, max_pixels: int) -> Image.Image:
    try:
        # Image.open reads the header only: format and size, no pixel decoded yet. Pillow's own
        # bomb warning (above MAX_IMAGE_PIXELS) is an answer here too, not a line in the log.
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                fmt = probe.format
                width, height = probe.size
    except (
        UnidentifiedImageError,
        Image.DecompressionBombError,
        Image.DecompressionBombWarning,
        OSError,
        ValueError,
    ) as err:
        if isinstance(err, (Image.DecompressionBombError, Image.DecompressionBombWarning)):
            raise _too_large(max_pixels) from err
        raise UploadError(
            _("O arquivo não é uma imagem válida (use JPEG, PNG, WebP ou HEIC).")
        ) from err
    if fmt not in ACCEPTED_IMAGE_FORMATS:
        raise UploadError(_("Formato de imagem não aceito (use JPEG, PNG, WebP ou HEIC)."))
    if width * height > max_pixels:
        raise _too_large(max_pixels)
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except (Image.DecompressionBombError, OSError, ValueError) as err:
        raise UploadError(_("A imagem está corrompida ou incompleta.")) from err
    return image


def _clean(image: Image.Image) -> Image.Image:
    """Apply EXIF orientation, then drop all metadata by copying pixels only."""
    image = ImageOps.exif_transpose(image)
    if image.mode not in ("RGB", "L"):
        background = Image.new("RGB", image.size, (255, 255, 255))
        rgba = image.convert("RGBA")
        background.paste(rgba, mask=rgba.split()[-1])
        image = background
    elif image.mode == "L":
        image = image.convert("RGB")
    clean = Image.new("RGB", image.size)
    clean.paste(image)
    return clean


def store_image(
    stream: IO[bytes],
    *,
    purpose: str,
    owner_id: int | None,
    public: bool,
    filename: str | None = None,
    sizes: dict[str, int] | None = None,
    max_pixels: int = MAX_PHOTO_PIXELS,
) -> StoredFile:
    """Validate, clean and store an image as JPEG in several sizes. Raises UploadError
    (ImageTooLarge above ``max_pixels``, checked before decoding)."""
    data = _read_limited(stream, MAX_IMAGE_BYTES)
    image = _clean(_open_image(data, max_pixels))
    token = secrets.token_hex(16)
    folder = _upload_dir() / token[:2]
    folder.mkdir(parents=True, exist_ok=True)
    variants: dict[str, str] = {}
    for name, longest in (sizes or IMAGE_SIZES).items():
        copy = image.copy()
        copy.thumbnail((longest, longest), Image.Resampling.LANCZOS)
        path = folder / f"{token}-{name}.jpg"
        copy.save(path, "JPEG", quality=85, optimize=True, progressive=True)
        variants[name] = str(path.relative_to(_upload_dir()))
    stored = StoredFile(
        token=token,
        owner_id=owner_id,
        purpose=purpose,
        content_type="image/jpeg",
        original_name=_safe_name(filename),
        size_bytes=len(data),
        variants=variants,
        public=public,
    )
    db.session.add(stored)
    db.session.flush()
    return stored


def store_document(
    stream: IO[bytes], *, purpose: str, owner_id: int | None, filename: str | None = None
) -> StoredFile:
    """A proof document: a PDF (kept as sent) or an image (re-encoded). Never public."""
    data = _read_limited(stream, MAX_DOCUMENT_BYTES)
    if data.startswith(b"%PDF-"):
        token = secrets.token_hex(16)
        folder = _upload_dir() / token[:2]
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{token}.pdf"
        path.write_bytes(data)
        stored = StoredFile(
            token=token,
            owner_id=owner_id,
            purpose=purpose,
            content_type="application/pdf",
            original_name=_safe_name(filename),
            size_bytes=len(data),
            variants={"original": str(path.relative_to(_upload_dir()))},
            public=False,
        )
        db.session.add(stored)
        db.session.flush()
        return stored
    try:
        return store_image(
            io.BytesIO(data),
            purpose=purpose,
            owner_id=owner_id,
            public=False,
            filename=filename,
            sizes={"large": 2000, "thumbnail": 320},
            max_pixels=MAX_PIXELS,
        )
    except ImageTooLarge:
        raise  # its own message says what to do; the generic one below would not
    except UploadError as err:
        raise UploadError(
            _("Envie um PDF ou uma foto (JPEG, PNG, WebP ou HEIC) do documento.")
        ) from err


def file_path(stored: StoredFile, variant: str) -> Path | None:
    relative = stored.variants.get(variant)
    return _upload_dir() / relative if relative else None

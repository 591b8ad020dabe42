"""Jurisdiction profiles: one TOML file per municipality, validated into a frozen :class:`Profile`.

A deployment picks its profile with ``PORTAL_PROFILE`` (the file name without ``.toml``). Adding a
municipality means adding a file here; the loader finds it by name, no code changes.

    profile = load_profile("guarulhos")
    profile.household.limit          # 5
    profile.household.cite("limit")  # "GRU 37"

Any problem in a file raises :class:`ProfileError` naming the file and the key path, e.g.
``guarulhos.toml: household.limit: Input should be a valid integer``.
"""

from __future__ import annotations

import functools
import tomllib
from pathlib import Path

from pydantic import ValidationError

from portal.profiles.schema import Profile

__all__ = [
    "PROFILE_DIR",
    "Profile",
    "ProfileError",
    "available_profiles",
    "clear_profile_cache",
    "load_profile",
]

PROFILE_DIR = Path(__file__).resolve().parent


class ProfileError(Exception):
    """A profile is unknown, unreadable or breaks the schema; the message says where."""


def available_profiles(directory: Path | str | None = None) -> list[str]:
    """Keys of the profiles in ``directory`` (default: the shipped ones), sorted."""
    folder = Path(directory) if directory is not None else PROFILE_DIR
    return sorted(path.stem for path in folder.glob("*.toml"))


def load_profile(key: str, directory: Path | str | None = None) -> Profile:
    """The validated profile ``key`` (cached: files are read once per process).

    ``directory`` overrides :data:`PROFILE_DIR` (tests, or a deployment's own folder).
    Raises ProfileError for an unknown key or an invalid file.
    """
    folder = Path(directory).resolve() if directory is not None else PROFILE_DIR
    return _load(key, folder)


def clear_profile_cache() -> None:
    """Forget loaded profiles, so edited files are read again (tests, admin reload)."""
    _load.cache_clear()


@functools.cache
def _load(key: str, folder: Path) -> Profile:
    path = folder / f"{key}.toml"
    # The key becomes a file name: refuse anything that could leave the folder.
    if not key.isidentifier() or not path.is_file():
        available = ", ".join(available_profiles(folder)) or "none"
        raise ProfileError(f"Unknown profile {key!r}; available: {available} (in {folder})")
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{path.name}: invalid TOML: {exc}") from exc

    if data.setdefault("key", key) != key:
        raise ProfileError(f"{path.name}: key: {data['key']!r} differs from the file name {key!r}")
    # Citations are checked against the profile's own law key, which the context carries.
    law_key = data.get("law_key") if isinstance(data.get("law_key"), str) else None
    try:
        return Profile.model_validate(data, context={"law_key": law_key})
    except ValidationError as exc:
        raise ProfileError(f"{path.name}: {_describe(exc)}") from exc


def _describe(exc: ValidationError) -> str:
    """Pydantic errors as ``a.b[0].c: message`` lines joined with "; "."""
    parts = []
    for error in exc.errors(include_url=False):
        path = ""
        for loc in error["loc"]:
            path += f"[{loc}]" if isinstance(loc, int) else (f".{loc}" if path else str(loc))
        message = error["msg"].removeprefix("Value error, ")
        parts.append(f"{path}: {message}" if path else message)
    return "; ".join(parts)

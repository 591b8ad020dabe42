"""Who may use a route, declared once per view.

Every view carries exactly one of these decorators; ``tests/integration/test_access_policy.py``
walks the URL map and fails on any route without one. Policies:

* ``public``: anyone, signed in or not.
* ``signed_in``: any account.
* ``roles_required("agent", "vet")``: an account holding at least one of the roles.
* ``api_client(kind)``: an API bearer token (see ``portal.blueprints.api``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar
from urllib.parse import urlsplit

from flask import abort, request
from flask_login import current_user

from portal.extensions import login_manager

F = TypeVar("F", bound=Callable[..., Any])


def _mark(view: F, policy: str) -> F:
    view.access_policy = policy  # type: ignore[attr-defined]
    return view


def public(view: F) -> F:
    """Open to everyone."""
    return _mark(view, "public")


def signed_in(view: F) -> F:
    """Any signed-in account; anonymous visitors go to the login page and come back."""

    @wraps(view)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if not current_user.is_authenticated:
            return login_manager.unauthorized()
        return view(*args, **kwargs)

    return _mark(wrapped, "signed_in")  # type: ignore[return-value]


def roles_required(*roles: str) -> Callable[[F], F]:
    """Accounts holding at least one of ``roles``; others get 403, anonymous visitors log in."""

    def decorator(view: F) -> F:
        @wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if not current_user.is_authenticated:
                return login_manager.unauthorized()
            if not current_user.has_role(*roles):
                abort(403)
            return view(*args, **kwargs)

        return _mark(wrapped, "roles:" + ",".join(sorted(roles)))  # type: ignore[return-value]

    return decorator


STAFF = ("agent", "vet", "coordinator", "admin")


def staff_required(view: F) -> F:
    """Any CCZ staff role."""
    return roles_required(*STAFF)(view)


def staff_only(view: Any) -> bool:
    """Whether ``view``'s policy admits staff roles alone (``roles_required`` with staff roles)."""
    policy = str(getattr(view, "access_policy", ""))
    roles = set(policy.removeprefix("roles:").split(","))
    return policy.startswith("roles:") and roles <= set(STAFF)


def is_signed_in() -> bool:
    """For a menu entry's ``visible=``: shown to anyone signed in."""
    return bool(current_user.is_authenticated)


def local_target(target: str | None) -> str | None:
    """``target`` when it is a path on this site, else None (no open redirects).

    Browsers read ``/\\evil.example`` as ``//evil.example`` and drop tabs and newlines, so a
    backslash, a control character or a leading ``//`` makes the target unsafe.
    """
    if not target or not target.startswith("/") or target.startswith("//"):
        return None
    if "\\" in target or any(ord(ch) < 32 or ord(ch) == 127 for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


def wants_json() -> bool:
    return request.path.startswith("/api/") or (request.accept_mimetypes.best == "application/json")

"""argon2 password hashes at the app's configured cost: the one hasher of the portal.

auth signs people in with it (``portal.blueprints.auth.services``) and the kernel's commands
create the demo and staff accounts with it (``portal.cli``), so it sits here, under both; the
password *rule* (what a new password must be) stays auth's (``auth.passwords``).
"""

from __future__ import annotations

from functools import cache

from argon2 import PasswordHasher
from flask import current_app, has_app_context


class ConfiguredHasher:
    """argon2 at the cost the app's ``PASSWORD_HASH_COST`` sets ((time cost, memory in KiB,
    parallelism)); None, as in development and production, is argon2-cffi's default (RFC 9106's
    low-memory profile). Only the test suite lowers it: it signs people in thousands of times.
    A hash made at another cost still verifies, and is redone at this one on the next sign-in."""

    def _current(self) -> PasswordHasher:
        cost = current_app.config.get("PASSWORD_HASH_COST") if has_app_context() else None
        return _hasher_for(tuple(cost) if cost else None)

    def hash(self, password: str) -> str:
        return self._current().hash(password)

    def verify(self, hashed: str, password: str) -> bool:
        return self._current().verify(hashed, password)

    def check_needs_rehash(self, hashed: str) -> bool:
        return self._current().check_needs_rehash(hashed)


@cache
def _hasher_for(cost: tuple[int, ...] | None) -> PasswordHasher:
    if cost is None:
        return PasswordHasher()
    time_cost, memory_cost, parallelism = cost
    return PasswordHasher(time_cost=time_cost, memory_cost=memory_cost, parallelism=parallelism)


hasher = ConfiguredHasher()


def hash_password(password: str) -> str:
    return hasher.hash(password)

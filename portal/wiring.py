"""What the domains add to the shared parts of the portal, kept per application.

Each domain package has an ``init_app(app)`` that says what it adds — menu entries, staff
dashboard tiles, demo data, CLI commands, API-client hooks, LGPD sections, to-do providers, file
access rules, payment-settlement listeners, staff queues, reminders and error answers — through
:func:`wiring`; ``create_app`` calls those functions one by one (``portal.wire_domains``), so
reading it tells what the application is made of. Nothing is added at import time, and two apps in
one process (tests build several) never share or duplicate an entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

import click
from flask import Flask, current_app
from werkzeug.exceptions import HTTPException

if TYPE_CHECKING:
    from portal.models import ApiClient, PaymentItem, StoredFile, User
    from portal.reminders import ReminderRegistry
    from portal.services.todo import TodoItem
    from portal.workspace import QueueRegistry

DemoSeeder = Callable[[], None]
ApiClientHook = Callable[["ApiClient"], None]
Exporter = Callable[["User"], Any]
TodoProvider = Callable[["User"], Iterable["TodoItem"]]
FileRule = Callable[["User", "StoredFile"], bool]
SettlementListener = Callable[["PaymentItem"], None]
PaymentHold = Callable[["PaymentItem"], bool]
QueueDeclarer = Callable[["QueueRegistry"], None]
ReminderDeclarer = Callable[["ReminderRegistry"], None]
ErrorAnswer = Callable[[HTTPException], Any]


class NavItem(NamedTuple):
    """A main-menu entry; ``visible`` decides per request (e.g. signed in only)."""

    label: Any
    endpoint: str
    order: int
    visible: Callable[[], bool] | None


class AdminLink(NamedTuple):
    """A tile of the staff dashboard, shown to holders of ``roles``."""

    label: Any
    endpoint: str
    roles: tuple[str, ...]


@dataclass
class Wiring:
    """One application's registries. The methods are what a domain's ``init_app`` calls."""

    app: Flask
    nav_items: list[NavItem] = field(default_factory=list)
    admin_links: list[AdminLink] = field(default_factory=list)
    demo_seeders: list[DemoSeeder] = field(default_factory=list)
    api_client_hooks: dict[str, ApiClientHook] = field(default_factory=dict)
    exporters: dict[str, Exporter] = field(default_factory=dict)
    todo_providers: dict[str, TodoProvider] = field(default_factory=dict)
    file_rules: dict[str, FileRule] = field(default_factory=dict)
    settlement_listeners: list[SettlementListener] = field(default_factory=list)
    payment_holds: list[PaymentHold] = field(default_factory=list)
    queue_declarers: list[QueueDeclarer] = field(default_factory=list)
    reminder_declarers: list[ReminderDeclarer] = field(default_factory=list)
    error_answers: dict[str, ErrorAnswer] = field(default_factory=dict)

    def nav(
        self, label: Any, endpoint: str, order: int = 50, visible: Callable[[], bool] | None = None
    ) -> None:
        """Add an entry to the main menu (shown only while ``endpoint`` exists)."""
        if all(item.endpoint != endpoint for item in self.nav_items):
            self.nav_items.append(NavItem(label, endpoint, order, visible))

    def admin_link(self, label: Any, endpoint: str, roles: tuple[str, ...]) -> None:
        """Add a tile to the staff dashboard, shown to holders of ``roles``."""
        if all(link.endpoint != endpoint for link in self.admin_links):
            self.admin_links.append(AdminLink(label, endpoint, tuple(roles)))

    def demo_seeder(self, seeder: DemoSeeder) -> None:
        """Demo data for ``flask seed-demo`` (must be idempotent); run in declaration order."""
        if seeder not in self.demo_seeders:
            self.demo_seeders.append(seeder)

    def command(self, command: click.Command) -> None:
        """A ``flask --app portal <name>`` command."""
        self.app.cli.add_command(command)

    def api_client_hook(self, kind: str, hook: ApiClientHook) -> None:
        """Run ``hook(client)`` after ``create-api-client --kind <kind>`` (e.g. link the NGO)."""
        self.api_client_hooks[kind] = hook

    def exporter(self, section: str, exporter: Exporter) -> None:
        """A section of the person's LGPD data download."""
        self.exporters[section] = exporter

    def todo(self, name: str, provider: TodoProvider) -> None:
        """What a signed-in citizen still has to do in this domain (providers only read)."""
        self.todo_providers[name] = provider

    def file_rule(self, purpose: str, rule: FileRule) -> None:
        """Grant access to a domain's stored files beyond owner and staff."""
        self.file_rules[purpose] = rule

    def on_settlement(self, listener: SettlementListener) -> None:
        """Call ``listener(item)`` when a payment item becomes paid or exempt (same transaction)."""
        if listener not in self.settlement_listeners:
            self.settlement_listeners.append(listener)

    def payment_hold(self, hold: PaymentHold) -> None:
        """``hold(item)`` is True while an unpaid item may not be charged (a fine suspended by an
        appeal, GRU 110): the billing to-do leaves it to the domain's own to-do entry."""
        if hold not in self.payment_holds:
            self.payment_holds.append(hold)

    def queues(self, declare: QueueDeclarer) -> None:
        """The domain's staff-workspace queues, search providers and charts."""
        self.queue_declarers.append(declare)

    def reminders(self, declare: ReminderDeclarer) -> None:
        """The domain's reminders for the daily job (``flask run-reminders``)."""
        self.reminder_declarers.append(declare)

    def error_answer(self, path_prefix: str, answer: ErrorAnswer) -> None:
        """HTTP errors under ``path_prefix`` answered in the domain's own format (Open311's
        ``[{"code", "description"}]``). A blueprint's error handler never sees a URL that matched
        no rule (404) or no method (405); ``portal.errors`` asks this registry for those."""
        self.error_answers[path_prefix] = answer


def init_wiring(app: Flask) -> Wiring:
    wired = Wiring(app)
    app.extensions["portal_wiring"] = wired
    return wired


def wiring(app: Flask | None = None) -> Wiring:
    """The registries of ``app`` (the current application when none is given)."""
    target: Any = app if app is not None else current_app
    return target.extensions["portal_wiring"]

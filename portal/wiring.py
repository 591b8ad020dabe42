"""What the domains add to the shared parts of the portal, kept per application.

Each domain package has an ``init_app(app)`` that says what it adds — menu entries, staff
dashboard tiles, demo data, CLI commands, API-client hooks, LGPD sections, to-do providers, file
access rules, payment-settlement listeners, staff queues, reminders, error answers, and the answers
to the questions a lower domain asks a higher one (the captures shown on report and animal pages,
the enforcement documents shown on capture, animal and establishment pages...) — through
:func:`wiring`; ``create_app`` calls those functions
one by one (``portal.wire_domains``), so reading it tells what the application is made of.
Nothing is added at import time, and two apps in one process (tests build several) never share or
duplicate an entry.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING, Any, NamedTuple

import click
from flask import Flask, current_app
from werkzeug.exceptions import HTTPException

if TYPE_CHECKING:
    from portal.models import (
        Animal,
        ApiClient,
        Capture,
        EnforcementDocument,
        ExcessLicence,
        PaymentItem,
        ReducedHouseholdLimit,
        StoredFile,
        User,
    )
    from portal.profiles.schema import Profile
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
CaptureLinks = Callable[[Any], list["CaptureLink"]]
HouseholdAllowance = Callable[["Profile", str, date], "Allowance | None"]
HouseholdReduction = Callable[["Profile", "str | None"], "ReducedHouseholdLimit | None"]
RegistrationHold = Callable[["Animal"], "tuple[str, str] | None"]
RegistrationRefusal = Callable[["str | None", "str | None"], "tuple[str, str] | None"]
SanctionsForCpf = Callable[["str | None"], list["Sanction"]]
ApprehensionIssuer = Callable[
    ["Profile | None", "Capture", str, str, "User | None"], "EnforcementDocument | None"
]
ApprehensionLinkOf = Callable[["Capture"], "DocumentLink | None"]
ConsequenceLinks = Callable[["str | None"], list["ConsequenceLink"]]
DocumentLinks = Callable[[str], list["DocumentLink"]]
AddressListener = Callable[["User"], None]
SubjectFinder = Callable[[str], "tuple[str, str] | None"]


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


class CaptureLink(NamedTuple):
    """A capture shown on another domain's page (a report's staff page, the owner's animal page),
    with the link its reader may follow."""

    protocol: str
    url: str
    status_label: str
    captured_on: Any
    deadline_on: Any | None  # the last day to reclaim, while it can still be reclaimed


class DocumentLink(NamedTuple):
    """An enforcement document shown on another domain's staff page (a capture's auto de
    apreensão, an establishment's notices), with the link to its staff page."""

    number: str
    url: str
    kind_label: str
    status_label: str
    issued_at: Any
    # no CPF or CNPJ and no service recorded yet: the edital is published (GRU 95 §ú, 96 §1)
    awaits_edital: bool


class ConsequenceLink(NamedTuple):
    """A consequence the enforcement procedure recorded on a person (VV 23 III b, V; BJP 30 §ú
    II; CABO 39 §4; GRU 88 §4), shown on the staff's animal page."""

    article: str
    label: str
    document_number: str
    document_url: str


class Sanction(NamedTuple):
    """A consequence in force on a CPF (VV 23 III b, V; BJP 30 §ú II; GRU 88 §4), as adoption's
    bars read it: ``kind`` has the codes of adoption's ``BarKind``; ``animal_id`` the one animal
    it bars, when it names one."""

    kind: str
    article: str
    document_number: str
    animal_id: int | None


@dataclass(frozen=True)
class Allowance:
    """How many counted dogs and cats a residence may keep on a day, and why (the household
    check in animals asks the licences domain through :meth:`Wiring.allowance`)."""

    limit: int
    licence: ExcessLicence | None = None
    inside_request: bool = False  # a licence request is registering its animals: it checks
    reduction: ReducedHouseholdLimit | None = None  # BJP 17 §1: the agent's lower number


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
    action_labels: dict[str, Any] = field(default_factory=dict)
    report_captures: CaptureLinks | None = None
    household_allowance_provider: HouseholdAllowance | None = None
    household_reduction_provider: HouseholdReduction | None = None
    registration_hold_provider: RegistrationHold | None = None
    registration_refusal_provider: RegistrationRefusal | None = None
    sanctions_provider: SanctionsForCpf | None = None
    animal_captures: CaptureLinks | None = None
    apprehension_issuer: ApprehensionIssuer | None = None
    capture_apprehension: ApprehensionLinkOf | None = None
    person_consequences: ConsequenceLinks | None = None
    cnpj_notices: DocumentLinks | None = None
    address_listeners: list[AddressListener] = field(default_factory=list)
    subject_finders: list[SubjectFinder] = field(default_factory=list)

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

    def audit_labels(self, labels: dict[str, Any]) -> None:
        """The domain's audited actions in words, for the staff's audit trail and its filter."""
        self.action_labels.update(labels)

    # -- calls up the layers (docs/ARCHITECTURE.md): a lower domain asks, a higher one answers --

    def household_allowance(self, provider: HouseholdAllowance) -> None:
        """What a residence may keep on a day: the licence and the agent's reduction (licences)."""
        self.household_allowance_provider = provider

    def allowance(self, profile: Profile, residence_key: str, on: date) -> Allowance | None:
        """The residence's allowance; the plain limit where no domain answers (no licence in the
        law), None where the law sets no limit (VV 2)."""
        if self.household_allowance_provider is not None:
            return self.household_allowance_provider(profile, residence_key, on)
        limit = profile.household.limit
        return Allowance(limit=limit) if limit is not None else None

    def household_reduction(self, provider: HouseholdReduction) -> None:
        """The limit an agent's technical report lowered for a residence (BJP 17 §1; licences)."""
        self.household_reduction_provider = provider

    def reduction(
        self, profile: Profile, residence_key: str | None
    ) -> ReducedHouseholdLimit | None:
        if self.household_reduction_provider is None:
            return None
        return self.household_reduction_provider(profile, residence_key)

    def registration_hold(self, provider: RegistrationHold) -> None:
        """Why an RGA cannot be definitive yet, as (code, message) (licences: a pending request)."""
        self.registration_hold_provider = provider

    def hold_on_registration(self, animal: Animal) -> tuple[str, str] | None:
        if self.registration_hold_provider is None:
            return None
        return self.registration_hold_provider(animal)

    def registration_refusal(self, provider: RegistrationRefusal) -> None:
        """What the law bars a person from registering, as (article, message) (enforcement)."""
        self.registration_refusal_provider = provider

    def refusal_to_register(self, cpf: str | None, microchip: str | None) -> tuple[str, str] | None:
        if self.registration_refusal_provider is None:
            return None
        return self.registration_refusal_provider(cpf, microchip)

    def sanctions_for_cpf(self, provider: SanctionsForCpf) -> None:
        """The consequences in force on a CPF (enforcement), read by adoption's eligibility."""
        self.sanctions_provider = provider

    def sanctions(self, cpf: str | None) -> list[Sanction]:
        return self.sanctions_provider(cpf) if self.sanctions_provider is not None else []

    def captures_for_report(self, provider: CaptureLinks) -> None:
        """The captures recorded from a maus-tratos report, for its staff page (impound)."""
        self.report_captures = provider

    def captures_of_animal(self, provider: CaptureLinks) -> None:
        """An animal's captures while its present owner had it, for the owner's page (impound)."""
        self.animal_captures = provider

    def captures_linked_to_report(self, report: Any) -> list[CaptureLink] | None:
        """None where no domain records captures (the page then offers none)."""
        return self.report_captures(report) if self.report_captures else None

    def captures_linked_to_animal(self, animal: Any) -> list[CaptureLink]:
        return self.animal_captures(animal) if self.animal_captures else []

    def apprehension_notice(self, issuer: ApprehensionIssuer) -> None:
        """Issue the auto de apreensão of a capture whose definitive apprehension was just opened
        (GRU 87; CABO 39 §4), to its owner or, unidentified, by edital (enforcement)."""
        self.apprehension_issuer = issuer

    def issue_apprehension(
        self,
        profile: Profile | None,
        capture: Capture,
        *,
        article: str,
        reason: str,
        actor: User | None,
    ) -> EnforcementDocument | None:
        """The auto de apreensão issued for ``capture``; None where no domain issues one."""
        if self.apprehension_issuer is None:
            return None
        return self.apprehension_issuer(profile, capture, article, reason, actor)

    def apprehension_of_capture(self, provider: ApprehensionLinkOf) -> None:
        """The latest auto de apreensão of a capture, for the capture's staff page (enforcement)."""
        self.capture_apprehension = provider

    def apprehension_linked_to_capture(self, capture: Capture) -> DocumentLink | None:
        return self.capture_apprehension(capture) if self.capture_apprehension else None

    def consequences_for_person(self, provider: ConsequenceLinks) -> None:
        """The consequences recorded on a CPF, for the staff's animal page (enforcement)."""
        self.person_consequences = provider

    def consequences_linked_to_person(self, cpf: str | None) -> list[ConsequenceLink]:
        return self.person_consequences(cpf) if self.person_consequences else []

    def notices_for_cnpj(self, provider: DocumentLinks) -> None:
        """The enforcement documents addressed to a CNPJ, for the establishment's file
        (enforcement)."""
        self.cnpj_notices = provider

    def notices_linked_to_cnpj(self, cnpj: str) -> list[DocumentLink]:
        return self.cnpj_notices(cnpj) if self.cnpj_notices else []

    def on_address_change(self, listener: AddressListener) -> None:
        """Call ``listener(person)`` when a person's address was just written (animals: their
        animals move with them, GRU 37 §2; BJP 17); same transaction, flushes."""
        if listener not in self.address_listeners:
            self.address_listeners.append(listener)

    def address_changed(self, person: User) -> None:
        for listener in list(self.address_listeners):
            listener(person)

    def audit_subject_finder(self, finder: SubjectFinder) -> None:
        """``finder(text)`` is the (subject type, id) of the object a staff member typed in the
        audit filter when the text is one of the domain's numbers (animals: an RGA)."""
        if finder not in self.subject_finders:
            self.subject_finders.append(finder)

    def audit_subject_named(self, text: str) -> tuple[str, str] | None:
        for finder in self.subject_finders:
            found = finder(text)
            if found is not None:
                return found
        return None


def init_wiring(app: Flask) -> Wiring:
    wired = Wiring(app)
    app.extensions["portal_wiring"] = wired
    return wired


def wiring(app: Flask | None = None) -> Wiring:
    """The registries of ``app`` (the current application when none is given)."""
    target: Any = app if app is not None else current_app
    return target.extensions["portal_wiring"]

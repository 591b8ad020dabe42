"""The agent's issue form: its choices from the profile's own rules, the prefill from a report or
an earlier notice, and turning what was typed into one call of the procedure.

The legal provision is a choice among the articles of the current profile (its fines, its notices
and the conducts it lists), with "outra disposição" as the only free text (GRU 95 III, 96 III: the
document names the provision transgressed).
"""

from __future__ import annotations

from datetime import UTC
from typing import Any

from flask_babel import gettext as _
from sqlalchemy import select

from portal.blueprints.enforcement import duties
from portal.blueprints.enforcement.common import EnforcementError, comply_choices
from portal.blueprints.enforcement.consequences import (
    consequence_choices,
    issue_apprehension_notice,
    set_proposed_consequence,
)
from portal.blueprints.enforcement.forms import OTHER_PROVISION, IssueForm
from portal.blueprints.enforcement.issuing import Addressee, issue_document
from portal.blueprints.enforcement.labels import KIND_LABELS
from portal.blueprints.enforcement.serving import record_return_visit
from portal.blueprints.reports.labels import SPECIES_LABELS, category_label, checklist
from portal.extensions import db
from portal.forms import choices
from portal.models import Animal, EnforcementDocument, MaltreatmentReport, User
from portal.profiles.schema import Profile
from portal.services.clock import current_profile, tz
from portal.services.identity import residence_key
from portal.services.money import parse_brl

EXPENSE_FIELDS = {"transport": "expense_transport", "food": "expense_food"}
EXPENSE_FIELDS["veterinary"] = "expense_veterinary"
EXPENSE_FIELDS["other"] = "expense_other"


def provision_choices(profile: Profile) -> list[tuple[str, str]]:
    """The profile's own articles: specific fines, the fine scale, notices, listed conducts."""
    found: dict[str, str] = {}
    for fine in profile.fines.specific:
        found.setdefault(fine.article, f"{fine.article} – {fine.label}")
    if profile.fines.severities:
        article = profile.fines.cite("severities")
        found.setdefault(article, _("%(a)s – multa pela gravidade da infração", a=article))
    found.setdefault(profile.fines.article, _("%(a)s – multas", a=profile.fines.article))
    if profile.reports is not None:
        for cat in profile.reports.categories:
            found.setdefault(cat.article, f"{cat.article} – {category_label(profile, cat.code)}")
    found.setdefault(profile.notices.article, _("%(a)s – notificação", a=profile.notices.article))
    return [*found.items(), (OTHER_PROVISION, _("Outra disposição (escreva abaixo)"))]


def plain_provision(profile: Profile, code: str | None) -> str | None:
    """The plain Portuguese of a provision the profile lists ("GRU 10 V a" → "Sem abrigo, ..."),
    for the addressee who reads the code (issue 25); None for a provision typed by the agent."""
    for value, label in provision_choices(profile):
        if value == code and " – " in label:
            return label.split(" – ", 1)[1]
    return None


def fill_choices(form: IssueForm, profile: Profile) -> None:
    form.kind.choices = choices([(k, str(v)) for k, v in KIND_LABELS.items() if k != "penalty"])
    form.comply_term.choices = choices([("", _("—"))] + comply_choices(profile))
    form.severity.choices = choices(
        [("", _("Sem multa / multa própria"))]
        + [(k, s.label) for k, s in profile.fines.severities.items()]
    )
    form.specific.choices = choices(
        [("", _("—"))] + [(f.code, f"{f.label} ({f.article})") for f in profile.fines.specific]
    )
    form.legal_provision.choices = choices([("", _("—")), *provision_choices(profile)])
    form.consequence.choices = choices([("", _("Nenhuma"))] + consequence_choices(profile))
    form.repeat_motive.choices = choices([("", _("—"))] + duties.motive_choices(profile))


def joint_fines(profile: Profile) -> bool:
    """BJP 19 §1 I and II: the profile has fines the same facts impose on another person."""
    return any(f.joint for f in profile.fines.specific)


def expense_kinds(profile: Profile) -> list[str]:
    """CABO 41, CABO 10 §ú f, GRU 72 §1: the expenses this law recovers with a fine."""
    rule = profile.expense_rule("fine")
    return [k for k in rule.kinds if k in EXPENSE_FIELDS] if rule else []


def prefill(
    form: IssueForm,
    report: MaltreatmentReport | None,
    parent: EnforcementDocument | None,
    *,
    apprehension: bool = False,
) -> None:
    if report is not None:
        _prefill_from_report(form, report)
    if parent is not None and apprehension:
        _prefill_apprehension(form, parent)
        return
    if parent is not None:
        form.kind.data = "infraction"
        for name in ("name", "activity", "address", "fact", "place"):
            value = getattr(parent, "addressee_" + name, None) or getattr(parent, name, None)
            getattr(form, name).data = value
        form.cpf.data, form.cnpj.data = parent.addressee_cpf, parent.addressee_cnpj
        # WTForms 3.3 choices are SelectChoice objects of four fields (value, label, render_kw,
        # optgroup): unpacking them in two was the HTTP 500 after "não sanada" (issue 25)
        allowed = {c.value for c in form.legal_provision.choices}
        if parent.legal_provision in allowed:
            form.legal_provision.data = parent.legal_provision
        else:
            form.legal_provision.data = OTHER_PROVISION
            form.provision_other.data = parent.legal_provision
        if parent.kind == "preliminary" and parent.knowledge_on:
            form.notified_on.data = parent.knowledge_on  # BJP 17 §2 I: the intimation's day


def _prefill_apprehension(form: IssueForm, parent: EnforcementDocument) -> None:
    """GRU 87 V-VI: the auto de apreensão the staff page offers once the record shows the
    repeated autuações; its article and reason come from the computation, not from typing."""
    finding = duties.repeat_finding(current_profile(), parent)
    if finding is None or not finding.applies:
        return
    form.kind.data = "apprehension"
    form.definitive.data = True
    for name in ("name", "activity", "address", "place"):
        value = getattr(parent, "addressee_" + name, None) or getattr(parent, name, None)
        getattr(form, name).data = value
    form.cpf.data, form.cnpj.data = parent.addressee_cpf, parent.addressee_cnpj
    form.fact.data = finding.reason()
    form.legal_provision.data = OTHER_PROVISION
    form.provision_other.data = finding.motive.article


def _prefill_from_report(form: IssueForm, report: MaltreatmentReport) -> None:
    """What the portal already knows when a notice follows an inspection (issue 25): the place,
    the conduct's article, the animals, the inspection's findings and time, and the addressee
    when exactly one person keeps registered animals at that address (the agent checks it)."""
    profile = current_profile()
    form.kind.data = "preliminary"
    form.place.data = form.address.data = report.address_line
    category = profile.reports.category(report.category) if profile.reports else None
    allowed = {c.value for c in form.legal_provision.choices}
    if category is not None and category.article in allowed:
        form.legal_provision.data = category.article
    if report.animal_count:
        form.animals.data = report.animal_count
    inspection = report.inspections[-1] if report.inspections else None
    problems = []
    if inspection is not None:
        labels = dict(checklist(profile))
        problems = [
            str(labels.get(code, code))
            for code, value in (inspection.findings or {}).items()
            if value == "problem"
        ]
        seen = inspection.created_at
        seen = seen if seen.tzinfo else seen.replace(tzinfo=UTC)  # SQLite returns it naive
        form.occurred_at.data = seen.astimezone(tz()).replace(tzinfo=None, second=0, microsecond=0)
    species = SPECIES_LABELS.get(report.species or "", "")
    fact = [category_label(profile, report.category)]
    if species:
        fact.append(_("Animal: %(s)s (%(n)s).", s=species, n=report.animal_count or 1))
    if problems:
        fact.append(_("Encontrado na vistoria: %(p)s.", p=", ".join(problems).lower()))
    if inspection is not None and inspection.notes:
        fact.append(inspection.notes)
    form.fact.data = " ".join(str(part) for part in fact)
    if problems:
        form.required_action.data = _("Corrigir: %(p)s.", p=", ".join(problems).lower())
    keeper = keeper_at(report)
    if keeper is not None:
        form.name.data, form.cpf.data = keeper.full_name, keeper.cpf


def keeper_at(report: MaltreatmentReport) -> User | None:
    """The one person with active registered animals at the report's address, if exactly one."""
    if not (report.street and report.number):
        return None
    key = residence_key(report.cep, report.street, report.number, report.complement)
    # a report often has no CEP (typed on a phone): the same street, number and complement then
    same_place = Animal.residence_key == key if report.cep else Animal.residence_key.endswith(key)
    owners = set(
        db.session.scalars(
            select(Animal.owner_id).where(same_place, Animal.status == "active").limit(3)
        )
    )
    return db.session.get(User, owners.pop()) if len(owners) == 1 else None


def legal_provision(form: IssueForm) -> str:
    if form.legal_provision.data == OTHER_PROVISION:
        text = (form.provision_other.data or "").strip()
        if not text:
            raise EnforcementError(
                "provision_other", "required", _("Escreva a disposição transgredida.")
            )
        return text
    return form.legal_provision.data or ""


def fine_inputs(form: IssueForm, profile: Profile) -> dict[str, Any] | None:
    inputs: dict[str, Any] = {}
    if form.severity.data:
        inputs["severity"] = form.severity.data
    if form.specific.data:
        inputs["specific"] = form.specific.data
    if not inputs:
        return None
    if form.units.data is not None:
        inputs["units"] = str(form.units.data)
        inputs["units_reason"] = form.units_reason.data or ""
    if form.animals.data and form.animals.data > 1:
        inputs["animals"] = form.animals.data
    if form.animal_died.data == "yes":
        inputs["animal_died"] = True
    if form.notified_on.data:
        inputs["notified_on"] = form.notified_on.data  # BJP 17 §2, 16 §4, 2 §3
    expenses = _expenses(form, profile)
    if expenses:
        inputs["expenses"] = expenses  # CABO 41, 10 §ú f
    return inputs


def _expenses(form: IssueForm, profile: Profile) -> list[dict[str, Any]]:
    rows = []
    for kind in expense_kinds(profile):
        field = getattr(form, EXPENSE_FIELDS[kind])
        text = (field.data or "").strip()
        if not text:
            continue
        try:
            cents = parse_brl(text)
        except ValueError:
            cents = None
        if cents is None or cents <= 0:
            raise EnforcementError(
                EXPENSE_FIELDS[kind], "invalid", _("Informe o valor em reais, por exemplo 45,00.")
            )
        rows.append({"kind": kind, "amount_cents": cents})
    return rows


def joint_addressee(form: IssueForm) -> Addressee | None:
    if not (form.joint_name.data or form.joint_cpf.data):
        return None
    return Addressee(form.joint_name.data or "", form.joint_cpf.data or None)


def _interdiction_text(form: IssueForm, profile: Profile) -> str | None:
    """GRU 89: the interdição says itself what is required; the agent need not type it."""
    if form.interdiction.data and profile.notices.interdiction is not None:
        return duties.interdiction_action(profile)
    return None


def submit(
    form: IssueForm,
    profile: Profile,
    agent: User,
    *,
    parent: EnforcementDocument | None,
    report: MaltreatmentReport | None,
) -> EnforcementDocument:
    """Everything the form says, as one call of the procedure (raises EnforcementError)."""
    common: dict[str, Any] = dict(
        agent=agent,
        addressee=Addressee(
            form.name.data,
            form.cpf.data or None,
            form.cnpj.data or None,
            form.activity.data,
            form.address.data,
        ),
        fact=form.fact.data,
        place=form.place.data,
        occurred_at=form.occurred_at.data.replace(tzinfo=tz()).astimezone(UTC),
        legal_provision=legal_provision(form),
        penalty_provision=form.penalty_provision.data,
        required_action=form.required_action.data or _interdiction_text(form, profile),
        comply_term=form.comply_term.data,
        fine_inputs=fine_inputs(form, profile),
        measures=form.measures.data,
        agent_title=form.agent_title.data,
        parent=parent,
        report=report,
        notified_on=form.notified_on.data,
        joint_addressee=joint_addressee(form),
    )
    if parent is not None and parent.kind == "preliminary" and parent.status == "open":
        # GRU 70 §2: the notice is found not complied with in the same transaction as the auto
        # that follows it: an error in the auto leaves the notice open, as it was (issue 25)
        record_return_visit(parent, complied=False, actor=agent)
    if form.kind.data == "apprehension":
        doc = issue_apprehension_notice(
            profile, definitive=bool(form.definitive.data or form.consequence.data), **common
        )
    else:
        doc = issue_document(profile, kind=form.kind.data, **common)
        set_proposed_consequence(profile, doc, form.consequence.data)
    duties.apply_on_issue(  # GRU 87 V-VI, GRU 89, VV 23 II
        profile,
        doc,
        repeat_motive=form.repeat_motive.data or None,
        interdiction=bool(form.interdiction.data),
        laudo_every_days=form.laudo_every_days.data,
    )
    return doc

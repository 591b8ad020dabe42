"""The staff page of an interdição's expenses (GRU 89 §ú): record what the trip to the licensed
slaughterhouse cost and charge it to the offender
(:mod:`portal.blueprints.enforcement.interdiction`)."""

from __future__ import annotations

from typing import Any

from flask import abort, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_login import current_user

from portal.access import STAFF, roles_required
from portal.blueprints.billing.labels import status_label
from portal.blueprints.enforcement import bp
from portal.blueprints.enforcement.forms import InterdictionExpensesForm
from portal.blueprints.enforcement.interdiction import (
    RECORDERS,
    InterdictionExpenses,
    charge_expenses,
    charges_of,
    expense_label,
    rule_for,
)
from portal.blueprints.enforcement.routes import document_or_404
from portal.models import EnforcementDocument
from portal.profiles.schema import InterdictionRule
from portal.services.clock import current_profile, local_today
from portal.services.money import parse_brl
from portal.views import run_service


def _interdiction(doc_id: int) -> tuple[EnforcementDocument, InterdictionRule]:
    doc = document_or_404(doc_id)
    rule = rule_for(current_profile(), doc)
    if rule is None:
        abort(404)
    return doc, rule


def _page(doc: EnforcementDocument, rule: InterdictionRule, form: Any, status: int = 200) -> Any:
    for kind in ("transport", "authority_escort", "staff_escort"):
        form[kind].label.text = _("%(what)s (R$)", what=expense_label(kind))
    return render_template(
        "enforcement/interdiction_expenses.html",
        doc=doc,
        rule=rule,
        form=form,
        charges=charges_of(doc),
        payment_status=status_label,
        may_record=any(current_user.has_role(r) for r in RECORDERS),
        days=current_profile().programme.interdiction_expenses_days,
    ), status


@bp.get("/ccz/fiscalizacao/<int:doc_id>/despesas-interdicao")
@roles_required(*STAFF)
def interdiction_expenses(doc_id: int):
    """GRU 89 §ú: the charges recorded on an interdição, and the form to add one."""
    doc, rule = _interdiction(doc_id)
    return _page(doc, rule, InterdictionExpensesForm(trip_on=local_today()))


def _amounts(form: InterdictionExpensesForm, rule: InterdictionRule) -> dict[str, int] | None:
    """Each amount typed in reais, in centavos; None (the field marked) when one is unreadable."""
    out: dict[str, int] = {}
    for kind in rule.expense_kinds:
        text = (form[kind].data or "").strip()
        if not text:
            continue
        try:
            out[kind] = parse_brl(text)
        except ValueError:
            form[kind].errors = [_("Informe o valor em reais, por exemplo 1.234,56.")]
            return None
    return out


@bp.post("/ccz/fiscalizacao/<int:doc_id>/despesas-interdicao")
@roles_required(*RECORDERS)
def charge_interdiction_expenses(doc_id: int):
    doc, rule = _interdiction(doc_id)
    form = InterdictionExpensesForm()
    amounts = _amounts(form, rule) if form.validate_on_submit() else None
    if amounts is None:
        return _page(doc, rule, form, 422)
    data = InterdictionExpenses(
        trip_on=form.trip_on.data,
        slaughterhouse=form.slaughterhouse.data or "",
        amounts=amounts,
        detail=form.detail.data or "",
    )
    done = run_service(
        lambda: charge_expenses(
            current_profile(), doc, data, actor=current_user, today=local_today()
        ),
        form=form,
        success=lambda item: _(
            "Despesas cobradas do infrator: guia %(ref)s.", ref=item.formatted_reference
        ),
    )
    if not done.ok:
        return _page(doc, rule, form, 422)
    return redirect(url_for("enforcement.interdiction_expenses", doc_id=doc.id))


__all__ = ["charge_interdiction_expenses", "interdiction_expenses"]

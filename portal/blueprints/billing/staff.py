"""CCZ staff billing views: payments list, item detail, counter settlement by reference, refunds,
reconciliation, review flags, exemption decisions and the price list.

Every look at a person's payment data and every change is written to the audit log.
"""

from __future__ import annotations

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user
from sqlalchemy import func, select

from portal.access import roles_required, staff_required
from portal.blueprints.auth.freshness import recent_password
from portal.blueprints.billing import bp, ledger, settlement
from portal.blueprints.billing.exemptions import decide_exemption
from portal.blueprints.billing.forms import (
    CounterSearchForm,
    ExemptionDecisionForm,
    MarkPaidForm,
    PeriodForm,
    PriceForm,
    RefundForm,
    ResolveFlagForm,
    StaffFilterForm,
)
from portal.blueprints.billing.items import BillingError, get_item
from portal.blueprints.billing.labels import price_label
from portal.blueprints.billing.ledger import (
    exemption_viewed,
    item_viewed,
    list_viewed,
    pending_exemption_requests,
    staff_items_query,
)
from portal.blueprints.billing.prices import set_price
from portal.blueprints.billing.settlement import (
    find_by_reference,
    mark_paid_at_counter,
    refund_payment,
)
from portal.extensions import db
from portal.forms import choices
from portal.models import ExemptionRequest, PaymentItem, PaymentReviewFlag, PriceOverride
from portal.services.clock import current_profile, local_today
from portal.services.fees import price_list
from portal.services.money import parse_brl
from portal.views import requested_page, run_service

PAGE_SIZE = 50
REFUND_ROLES = ("coordinator", "admin")


def _item_or_404(item_id: int) -> PaymentItem:
    item = get_item(item_id)
    if item is None:
        abort(404)
    return item


@bp.route("/ccz/", methods=["GET", "POST"])
@staff_required
def staff_payments():
    # The form posts (the search text may be a CPF, which must never be in a URL or access log).
    source = request.form if request.method == "POST" else request.args
    form = StaffFilterForm(source)
    filters: dict = {}
    if form.validate():
        filters = {
            "status": form.status.data or None,
            "kind": form.kind.data or None,
            "date_from": form.date_from.data,
            "date_to": form.date_to.data,
            "q": form.q.data or None,
        }
    page = requested_page(source)
    stmt = staff_items_query(**filters)
    total = db.session.scalar(select(func.count()).select_from(stmt.order_by(None).subquery()))
    items = db.session.scalars(stmt.limit(PAGE_SIZE).offset((page - 1) * PAGE_SIZE)).all()
    list_viewed(filters)
    db.session.commit()
    args = {k: v for k, v in source.items() if k not in ("page", "csrf_token")}
    return render_template(
        "billing/staff/list.html",
        form=form,
        items=items,
        page=page,
        total=total or 0,
        page_size=PAGE_SIZE,
        args=args,
    )


@bp.get("/ccz/<int:item_id>")
@staff_required
def staff_item(item_id: int):
    item = _item_or_404(item_id)
    item_viewed(item)
    db.session.commit()
    return _render_item(item)


def _render_item(
    item: PaymentItem,
    *,
    mark_form: MarkPaidForm | None = None,
    refund_form: RefundForm | None = None,
    status: int = 200,
):
    if mark_form is None:
        mark_form = MarkPaidForm(formdata=None, paid_on=local_today())
    return render_template(
        "billing/staff/item.html",
        item=item,
        mark_form=mark_form,
        refund_form=refund_form or RefundForm(formdata=None),
        may_refund=current_user.has_role(*REFUND_ROLES),
    ), status


@bp.get("/ccz/balcao")
@staff_required
def counter():
    """Find a guia by its reference, then settle it with the receipt number."""
    form = CounterSearchForm(request.args)
    found = None
    if "reference" in request.args and form.validate():
        try:
            found = find_by_reference(form.reference.data)
        except BillingError as err:
            form.reference.errors.append(err.message)
        else:
            if found is None:
                form.reference.errors.append(_("Nenhum pagamento com esta referência."))
            else:
                item_viewed(found, via="counter")
                db.session.commit()
    mark_form = MarkPaidForm(formdata=None, paid_on=local_today())
    return render_template("billing/staff/counter.html", form=form, item=found, mark_form=mark_form)


@bp.post("/ccz/<int:item_id>/baixa")
@staff_required
def mark_paid(item_id: int):
    item = _item_or_404(item_id)
    form = MarkPaidForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: mark_paid_at_counter(
                item,
                receipt_number=form.receipt_number.data,
                paid_on=form.paid_on.data,
                actor=current_user,
            ),
            form=form,
            fallback="receipt_number",
            success=lambda _payment: _(
                "Baixa registrada: referência %(ref)s paga.", ref=item.formatted_reference
            ),
        )
        if done.ok:
            return redirect(url_for("billing.staff_item", item_id=item.id))
    search = CounterSearchForm(formdata=None, reference=item.formatted_reference)
    return render_template(
        "billing/staff/counter.html", form=search, item=item, mark_form=form
    ), 422


@bp.post("/ccz/<int:item_id>/estorno")
@roles_required(*REFUND_ROLES)
@recent_password
def refund(item_id: int):
    item = _item_or_404(item_id)
    form = RefundForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: refund_payment(item, reason=form.reason.data, actor=current_user),
            form=form,
            fallback="reason",
            success=_("Estorno registrado."),
        )
        if done.ok:
            return redirect(url_for("billing.staff_item", item_id=item.id))
    item = _item_or_404(item_id)  # reloaded after a rollback
    return _render_item(item, refund_form=form, status=422)


@bp.post("/ccz/pendencias/<int:flag_id>/resolver")
@staff_required
def resolve_flag(flag_id: int):
    flag = db.session.get(PaymentReviewFlag, flag_id)
    if flag is None:
        abort(404)
    form = ResolveFlagForm()
    if form.validate_on_submit():
        run_service(
            lambda: settlement.resolve_flag(flag, form.note.data, actor=current_user),
            success=_("Pendência resolvida."),
        )
    else:
        flash(_("Descreva o que foi feito para resolver a pendência."), "danger")
    target = request.form.get("back")
    if target == "reconciliation":
        return redirect(url_for("billing.reconciliation"))
    return redirect(url_for("billing.staff_item", item_id=flag.item_id))


@bp.get("/ccz/conciliacao")
@staff_required
def reconciliation():
    form = PeriodForm(request.args)
    today = local_today()
    date_from, date_to = today.replace(day=1), today
    if form.validate():
        date_from = form.date_from.data or date_from
        date_to = form.date_to.data or date_to
    if form.date_from.data is None:
        form.date_from.data = date_from
    if form.date_to.data is None:
        form.date_to.data = date_to
    report = ledger.reconciliation(date_from, date_to)
    return render_template("billing/staff/reconciliation.html", form=form, report=report)


@bp.get("/ccz/isencoes")
@staff_required
def exemption_queue():
    return render_template(
        "billing/staff/exemptions.html", requests=list(pending_exemption_requests())
    )


@bp.route("/ccz/isencoes/<int:request_id>", methods=["GET", "POST"])
@staff_required
def exemption_detail(request_id: int):
    req = db.session.get(ExemptionRequest, request_id)
    if req is None:
        abort(404)
    form = ExemptionDecisionForm()
    if form.validate_on_submit():
        done = run_service(
            lambda: decide_exemption(
                req,
                accept=form.decision.data == "accept",
                reason=form.reason.data,
                actor=current_user,
            ),
            form=form,
            fallback="decision",
            success=_("Decisão registrada e enviada ao requerente."),
        )
        if done.ok:
            return redirect(url_for("billing.exemption_queue"))
    elif request.method == "GET":
        exemption_viewed(req)
        db.session.commit()
    return render_template("billing/staff/exemption.html", req=req, form=form)


@bp.route("/ccz/precos", methods=["GET", "POST"])
@roles_required("admin")
@recent_password
def admin_prices():
    profile = current_profile()
    today = local_today()
    entries = price_list(profile, today)
    form = PriceForm()
    form.key.choices = choices((e.key, price_label(e.key)) for e in entries)
    if request.method == "GET" and form.effective_from.data is None:
        form.effective_from.data = today
    if form.validate_on_submit():
        done = run_service(
            lambda: set_price(
                profile,
                form.key.data,
                amount_cents=parse_brl(form.amount.data),
                effective_from=form.effective_from.data,
                note=form.note.data,
                actor=current_user,
            ),
            form=form,
            fallback="key",
            success=_("Preço registrado."),
        )
        if done.ok:
            return redirect(url_for("billing.admin_prices"))
    history = db.session.scalars(
        select(PriceOverride)
        .where(PriceOverride.profile_key == profile.key)
        .order_by(PriceOverride.key, PriceOverride.effective_from.desc())
    ).all()
    return render_template("billing/staff/prices.html", entries=entries, form=form, history=history)

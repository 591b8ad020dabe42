"""Billing views (issue #4 fills these in)."""

from flask import render_template
from flask_login import current_user
from sqlalchemy import select

from portal.access import signed_in
from portal.blueprints.billing import bp
from portal.extensions import db
from portal.models import PaymentItem


@bp.get("/")
@signed_in
def my_payments():
    items = db.session.scalars(select(PaymentItem).where(PaymentItem.payer_id == current_user.id)
                               .order_by(PaymentItem.id.desc())).all()
    return render_template("billing/my_payments.html", items=items)

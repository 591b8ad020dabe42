"""Development helpers, registered only when DEV_MAILBOX is on (never in production)."""

from flask import Blueprint, render_template
from sqlalchemy import select

from portal.access import public
from portal.extensions import db
from portal.models import OutboxMessage

bp = Blueprint("dev", __name__, url_prefix="/dev")


@bp.get("/caixa-de-email")
@public
def mailbox():
    messages = db.session.scalars(
        select(OutboxMessage).order_by(OutboxMessage.id.desc()).limit(50)
    ).all()
    return render_template("dev/mailbox.html", messages=messages)

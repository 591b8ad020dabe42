"""The signed-in person's own data: contact, address, LGPD export; and the CCZ staff's side of the
contact suggestions establishments send (``staff``: a workspace queue and a review page)."""

from flask import Blueprint, Flask

bp = Blueprint("account", __name__, url_prefix="/minha-conta")
staff_bp = Blueprint("contact_suggestions", __name__, url_prefix="/ccz/sugestoes-de-contato")

# Who decides a suggestion instead of the person: the counter and its supervisors (vets do not).
SUGGESTION_ROLES = ("agent", "coordinator", "admin")


def init_app(app: Flask) -> None:
    """The staff queue of contact suggestions nobody has decided yet, and the daily purge of
    sign-ups nobody confirmed (``flask purge-unconfirmed``)."""
    from portal.blueprints.account.labels import AUDIT_LABELS
    from portal.blueprints.account.purge import purge_unconfirmed_command
    from portal.blueprints.account.queues import declare_queues
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words

    wiring(app).queues(declare_queues)
    wiring(app).command(purge_unconfirmed_command)


from portal.blueprints.account import routes, staff  # noqa: E402,F401

"""RGA (Registro Geral do Animal): registering dogs and cats, their documents, transfers, second
copies and death reports; the public page behind the QR code; the staff area for registrations.

Rules: one module per capability (``registration.py``, ``household.py``, ``transfers.py``,
``copies.py``, ``owners.py``, ``public.py``, ``reports.py``, with ``common.py`` and
``validation.py`` under them), all re-exported by ``services.py``. Numbers: ``rga.py``. PDFs:
``documents.py``. Views: ``routes.py`` (citizens and public), ``wizard.py`` (the registration
steps), ``staff.py`` (CCZ staff). The establishment API is ``portal/blueprints/api/
registrations.py``. :func:`init_app` says what the domain adds to the shared parts (menu, staff
dashboard, LGPD download, to-do list, settlement listener, queues, reminders, the animals that
follow an address change, demo data and the RGA of the audit filter in ``hooks.py``).
"""

from flask import Blueprint, Flask

bp = Blueprint("animals", __name__)

STAFF = ("agent", "vet", "coordinator", "admin")


def init_app(app: Flask) -> None:
    from flask_babel import lazy_gettext as _l
    from flask_login import current_user

    from portal.blueprints.animals import provisional, queues, reminders
    from portal.blueprints.animals.hooks import audit_subject, seed_demo_animals
    from portal.blueprints.animals.household import move_animals_with_owner
    from portal.blueprints.animals.labels import AUDIT_LABELS
    from portal.blueprints.animals.reports import export_animals
    from portal.blueprints.animals.routes import animal_labels
    from portal.blueprints.animals.todo import animal_todo
    from portal.wiring import wiring

    wiring(app).audit_labels(AUDIT_LABELS)  # its audited actions in words

    app.context_processor(animal_labels)  # species, sex, size and RGA state in words
    wired = wiring(app)
    wired.nav(
        _l("Meus animais"),
        "animals.my_animals",
        order=20,
        visible=lambda: bool(current_user.is_authenticated),
    )
    wired.admin_link(
        _l("RGA: comprovantes a conferir e vacinações pendentes"), "animals.staff_pending", STAFF
    )
    wired.admin_link(_l("RGA: buscar animal"), "animals.staff_search", STAFF)
    wired.admin_link(_l("RGA: segundas vias a emitir"), "animals.staff_copies", STAFF)
    wired.exporter("animais", export_animals)
    # a provisional RGA becomes definitive when its fee is settled
    wired.on_settlement(provisional.on_fee_settled)
    wired.todo("animals", animal_todo)
    wired.demo_seeder(seed_demo_animals)
    wired.queues(queues.declare_queues)
    wired.reminders(reminders.declare_reminders)
    wired.on_address_change(move_animals_with_owner)  # GRU 37 §2; BJP 17: the animals follow
    wired.audit_subject_finder(audit_subject)  # an RGA typed in the audit filter


from portal.blueprints.animals import hooks, routes, staff  # noqa: E402,F401

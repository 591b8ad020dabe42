"""Impound and reclaim (GRU 82-88, 114; Lei 14.228/2021).

Modules: ``services`` (re-exports the rules, which live in ``labels``, ``deadlines``, ``capture``,
``from_report``, ``reclaim``, ``destinations``, ``euthanasia``, ``alerts``, ``certificates``,
``personal_data`` and ``apprehension``), ``routes`` (public pages: "Animais recolhidos", "Perdi meu
animal", the owner's reclaim, the certidão and its public check; ``routes.public_checks``, where
the CCZ is and "Conferir um documento"; ``routes.on_site_document``, the owner's copy of an on-site
record and its public check), ``staff`` (the kennel custody list, reclaim at the counter, release,
destinations, certidão exams under ``/ccz/recolhimentos``; ``staff.field``, the capture form with
its map, also opened from a maus-tratos report; ``staff.laudos``, the vet's euthanasia laudo and
the NGOs' area, Lei 14.228/2021, whose supervision and withdrawal are in ``laudo_review``;
``staff.on_site_document``, the staff's copy of an on-site record), ``on_site`` (GRU 90, CAB 9 §ú,
CABO 11: the euthanasia where the animal is; CAB 9 caput: the assessment there; its staff page is
still in that law module), ``on_site_document`` (its PDF), ``queues``, ``reminders``, ``demo``.
"""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("impound", __name__)


def init_app(app: Flask) -> None:
    """Menu entries, staff tiles, the settlement listener, the LGPD section, queues, reminders."""
    from portal.blueprints.impound.labels import AUDIT_LABELS
    from portal.blueprints.impound.routes.public_checks import ccz_context
    from portal.wiring import wiring as _wiring

    _wiring(app).audit_labels(AUDIT_LABELS)
    from flask_babel import lazy_gettext as _l
    from flask_login import current_user

    from portal.access import STAFF
    from portal.blueprints.impound import demo, euthanasia, links, queues, reminders, todo
    from portal.blueprints.impound.certificates import certificates_offered
    from portal.blueprints.impound.personal_data import export_personal_data
    from portal.blueprints.impound.reclaim import on_item_settled
    from portal.wiring import wiring

    wired = wiring(app)
    wired.nav(_l("Animais recolhidos"), "impound.public_list", order=40)
    wired.nav(
        _l("Perdi meu animal"),
        "impound.lost",
        order=41,
        visible=lambda: bool(current_user.is_authenticated),
    )
    wired.admin_link(_l("Recolhimento: registrar captura"), "impound.staff_new", STAFF)
    wired.admin_link(_l("Recolhimento: animais sob guarda"), "impound.staff_custody", STAFF)
    wired.admin_link(_l("Certidões de captura: exames"), "impound.staff_certificates", STAFF)
    wired.nav(
        _l("Laudos de eutanásia"),
        "impound.ngo_cases",
        order=72,
        visible=lambda: bool(current_user.is_authenticated and current_user.has_role("ngo")),
    )
    wired.admin_link(_l("Laudos de eutanásia (Lei 14.228/2021)"), "impound.ngo_cases", STAFF)
    wired.file_rule(euthanasia.LAUDO_PURPOSE, euthanasia.laudo_file_rule)
    wired.demo_seeder(demo.seed_impound_demo)
    wired.on_settlement(on_item_settled)
    wired.exporter("recolhimentos", export_personal_data)
    wired.todo("impound", todo.impound_todo)
    wired.captures_for_report(links.report_capture_links)
    wired.captures_of_animal(links.animal_capture_links)
    app.context_processor(ccz_context)  # the CCZ's address; the certidão's links
    if certificates_offered(app.extensions["portal_profile"]):  # GRU 84 §3
        wired.nav(_l("Certidão negativa de captura"), "impound.certificates", order=86)
    wired.nav(_l("Conferir documento"), "impound.checks", order=87)
    wired.queues(queues.declare_queues)
    if app.extensions["portal_profile"].impound.on_site_euthanasia:  # GRU 90; CAB 9; CABO 11
        wired.admin_link(
            _l("Eutanásia no local"),
            "impound.staff_on_site",
            ("agent", "vet", "coordinator"),
        )
    if app.extensions["portal_profile"].impound.laudo_supervision:  # VV 21 §4
        wired.queues(queues.declare_supervision_queue)
    wired.reminders(reminders.declare_reminders)


from portal.blueprints.impound import on_site, routes, staff  # noqa: E402,F401

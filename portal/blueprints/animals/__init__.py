"""RGA (Registro Geral do Animal): registering dogs and cats, their documents, transfers, second
copies and death reports; the public page behind the QR code; the staff area for registrations.

Rules: one module per capability (``registration.py``, ``household.py``, ``transfers.py``,
``copies.py``, ``owners.py``, ``public.py``, ``reports.py``, with ``common.py`` and
``validation.py`` under them), all re-exported by ``services.py``. Numbers: ``rga.py``. PDFs:
``documents.py``. Views: ``routes.py`` (citizens and public), ``wizard.py`` (the registration
steps), ``staff.py`` (CCZ staff). The establishment API is ``portal/blueprints/api/
registrations.py``. ``hooks.py`` plugs the domain into the menu, the staff dashboard, the LGPD
download and the demo data.
"""

from flask import Blueprint

bp = Blueprint("animals", __name__)

from portal.blueprints.animals import hooks, routes, staff  # noqa: E402,F401

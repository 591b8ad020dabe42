"""One blueprint per domain. Adding a domain = one import and one entry here.

A domain that exists only where the law has it (licences, sterilisation) is not listed: its
``init_app`` registers its blueprint when the profile has the rule."""

from portal.blueprints.account import bp as account_bp
from portal.blueprints.account import staff_bp as account_staff_bp
from portal.blueprints.admin import bp as admin_bp
from portal.blueprints.adoption import bp as adoption_bp
from portal.blueprints.animals import bp as animals_bp
from portal.blueprints.api import with_routes as api_with_routes
from portal.blueprints.auth import bp as auth_bp
from portal.blueprints.billing import bp as billing_bp
from portal.blueprints.billing import webhook_bp as payments_webhook_bp
from portal.blueprints.enforcement import bp as enforcement_bp
from portal.blueprints.establishments import bp as establishments_bp
from portal.blueprints.files import bp as files_bp
from portal.blueprints.impound import bp as impound_bp
from portal.blueprints.main import bp as main_bp
from portal.blueprints.open311 import bp as open311_bp
from portal.blueprints.reminders import bp as reminders_bp
from portal.blueprints.reports import bp as reports_bp
from portal.blueprints.workspace import bp as workspace_bp

api_bp = api_with_routes()  # the API's route modules, one per domain

BLUEPRINTS = [
    main_bp,
    auth_bp,
    account_bp,
    account_staff_bp,
    admin_bp,
    animals_bp,
    billing_bp,
    payments_webhook_bp,
    files_bp,
    adoption_bp,
    api_bp,
    workspace_bp,
    reports_bp,
    open311_bp,
    reminders_bp,
    establishments_bp,
    enforcement_bp,
    impound_bp,
]

"""Production entry point: ``gunicorn -w 4 -b 0.0.0.0:8000 wsgi:app`` (PORTAL_ENV=production)."""

import os

from portal import create_app
from portal.config import CONFIGS

app = create_app(CONFIGS[os.environ.get("PORTAL_ENV", "production")])

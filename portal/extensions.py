"""Flask extensions, created unbound and initialised in :func:`portal.create_app`."""

from typing import TYPE_CHECKING

from flask_babel import Babel
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from flask_login import LoginManager
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf.csrf import CSRFProtect

from portal.orm import Base

db = SQLAlchemy(model_class=Base)
# The models' base class. At run time it is Flask-SQLAlchemy's ``db.Model`` (built on ``Base``:
# same registry, naming convention and UTC datetimes); for mypy it is the typed ``Base``.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model
migrate = Migrate()
login_manager = LoginManager()
csrf = CSRFProtect()
babel = Babel()
# Storage comes from RATELIMIT_STORAGE_URI (memory:// in dev and tests, Redis in production).
limiter = Limiter(key_func=get_remote_address, default_limits=[])

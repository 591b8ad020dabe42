"""All models, imported here so Alembic and the app see every table."""

from portal.models.api_client import ApiClient, ApiClientKind
from portal.models.audit import AuditEvent
from portal.models.base import Base
from portal.models.billing import PaymentEvent, PaymentItem, PaymentStatus
from portal.models.upload import StoredFile
from portal.models.settings import MunicipalHoliday, OutboxMessage, UnitValue
from portal.models.user import STAFF_ROLES, Role, User, UserRole

__all__ = [
    "ApiClient",
    "ApiClientKind",
    "PaymentEvent",
    "PaymentItem",
    "PaymentStatus",
    "AuditEvent",
    "Base",
    "MunicipalHoliday",
    "OutboxMessage",
    "Role",
    "STAFF_ROLES",
    "StoredFile",
    "UnitValue",
    "User",
    "UserRole",
]

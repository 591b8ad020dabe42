"""Lists, the staff search, the establishment's monthly report with its CSV (BJP 9; GRU 20) and the
LGPD export of a person's animals."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from flask_babel import gettext as _
from sqlalchemy import func, or_, select

from portal.blueprints.animals.common import AnimalError, normalise_microchip
from portal.blueprints.animals.rga import InvalidRgaNumber, normalise_rga
from portal.extensions import db
from portal.models import (
    Animal,
    AnimalStatus,
    ApiClient,
    CopyStatus,
    DocumentCopyRequest,
    OwnershipTransfer,
    TransferStatus,
    User,
)
from portal.profiles.schema import Profile
from portal.services.dates import add_months
from portal.services.identity import clean_cpf, mask_cpf

# ---------------------------------------------------------------------------------------------
# Lists, staff search, monthly report, LGPD
# ---------------------------------------------------------------------------------------------


def animals_of(user: User) -> list[Animal]:
    return list(
        db.session.scalars(
            select(Animal)
            .where(Animal.owner_id == user.id)
            .order_by(Animal.status == AnimalStatus.CLOSED, Animal.name)
        )
    )


def pending_registrations() -> list[Animal]:
    return list(
        db.session.scalars(
            select(Animal)
            .where(Animal.status == AnimalStatus.PENDING)
            .order_by(Animal.registered_at)
        )
    )


def open_copy_requests() -> list[DocumentCopyRequest]:
    return list(
        db.session.scalars(
            select(DocumentCopyRequest)
            .where(DocumentCopyRequest.status == CopyStatus.REQUESTED)
            .order_by(DocumentCopyRequest.valid_until, DocumentCopyRequest.id)
        )
    )


SEARCH_KINDS = ("rga", "microchip", "cpf", "name")


def search_animals(kind: str, term: str, *, limit: int = 50) -> list[Animal]:
    """Staff search by RGA, microchip, owner CPF or animal / owner name. Raises AnimalError("q")."""
    term = (term or "").strip()
    if not term:
        raise AnimalError("q", "required", _("Digite o que procurar."))
    query = select(Animal)
    if kind == "rga":
        try:
            query = query.where(Animal.rga == normalise_rga(term))
        except InvalidRgaNumber as err:
            raise AnimalError("q", "invalid", rga_error_message(err)) from None
    elif kind == "microchip":
        query = query.where(Animal.microchip == normalise_microchip(term))
    elif kind == "cpf":
        cpf = clean_cpf(term)
        if cpf is None:
            raise AnimalError("q", "invalid_cpf", _("CPF inválido: confira os 11 dígitos."))
        query = query.join(User, Animal.owner_id == User.id).where(User.cpf == cpf)
    elif kind == "name":
        if len(term) < 2:
            raise AnimalError("q", "invalid", _("Digite ao menos 2 letras."))
        pattern = f"%{term.lower()}%"
        query = query.join(User, Animal.owner_id == User.id).where(
            or_(func.lower(Animal.name).like(pattern), func.lower(User.full_name).like(pattern))
        )
    else:
        raise AnimalError("kind", "invalid", _("Escolha o tipo de busca."))
    return list(db.session.scalars(query.order_by(Animal.registered_at.desc()).limit(limit)))


def rga_error_message(err: InvalidRgaNumber) -> str:
    if err.reason == "check_digit":
        return _(
            "Número de RGA inválido: o dígito verificador não confere. Confira se não houve "
            "erro de digitação."
        )
    return _("Número de RGA inválido: use o formato C-2026-000123-4 (C para cão, G para gato).")


def month_bounds(year: int, month: int, profile: Profile) -> tuple[datetime, datetime]:
    """The UTC instants where a calendar month starts and ends in the municipality's time zone."""
    tz = ZoneInfo(profile.timezone)
    start = datetime.combine(date(year, month, 1), time.min, tzinfo=tz)
    end = datetime.combine(add_months(date(year, month, 1), 1), time.min, tzinfo=tz)
    return start.astimezone(UTC), end.astimezone(UTC)


def registrations_of_month(
    client: ApiClient, year: int, month: int, profile: Profile
) -> list[Animal]:
    """The establishment's own registrations in a month: its monthly report (BJP 9; GRU 20)."""
    start, end = month_bounds(year, month, profile)
    return list(
        db.session.scalars(
            select(Animal)
            .where(
                Animal.api_client_id == client.id,
                Animal.registered_at >= start,
                Animal.registered_at < end,
            )
            .order_by(Animal.registered_at, Animal.id)
        )
    )


def report_row(animal: Animal) -> dict[str, Any]:
    """One line of the monthly report; the owner's CPF masked (the establishment has the form)."""
    return {
        "rga": animal.rga,
        "registered_on": animal.registered_on.isoformat(),
        "status": animal.status,
        "late_registration": animal.late_registration,
        "species": animal.species,
        "name": animal.name,
        "sex": animal.sex,
        "breed": animal.breed,
        "color": animal.color,
        "birth_date": animal.birth_date.isoformat(),
        "birth_date_estimated": animal.birth_date_estimated,
        "size": animal.size,
        "microchip": animal.microchip,
        "owner_name": animal.owner.full_name,
        "owner_cpf": mask_cpf(animal.owner.cpf),
        "rabies_vaccination_date": (
            animal.last_vaccination.applied_on.isoformat() if animal.last_vaccination else None
        ),
    }


REPORT_COLUMNS = (
    "rga",
    "registered_on",
    "status",
    "late_registration",
    "species",
    "name",
    "sex",
    "breed",
    "color",
    "birth_date",
    "birth_date_estimated",
    "size",
    "microchip",
    "owner_name",
    "owner_cpf",
    "rabies_vaccination_date",
)


CSV_DELIMITER = ";"  # what Excel in pt-BR expects (the decimal separator there is the comma)


def _csv_cell(value: Any) -> Any:
    """Text an establishment typed ("=HYPERLINK(...)" as a name) must not run as a spreadsheet
    formula when the report is opened in Excel: such cells get a leading apostrophe."""
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def report_csv(rows: Iterable[dict[str, Any]]) -> str:
    """The monthly report as CSV for a spreadsheet: UTF-8 with a byte-order mark (without it Excel
    reads "Conceição" as "ConceiÃ§Ã£o") and ``;`` between columns (Excel pt-BR splits on it)."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.DictWriter(
        out,
        fieldnames=REPORT_COLUMNS,
        extrasaction="ignore",
        delimiter=CSV_DELIMITER,
        lineterminator="\r\n",
    )
    writer.writeheader()
    for row in rows:
        writer.writerow({key: _csv_cell(value) for key, value in row.items()})
    return out.getvalue()


def export_animals(user: User) -> list[dict[str, Any]]:
    """LGPD: the animals a person owns or owned, with their records."""
    owned = set(animals_of(user))
    past = db.session.scalars(
        select(Animal)
        .join(OwnershipTransfer)
        .where(
            OwnershipTransfer.from_owner_id == user.id,
            OwnershipTransfer.status == TransferStatus.ACCEPTED,
        )
    ).all()
    result = []
    for animal in sorted(owned | set(past), key=lambda a: a.id):
        result.append(
            {
                "rga": animal.rga,
                "nome": animal.name,
                "especie": animal.species,
                "sexo": animal.sex,
                "raca": animal.breed,
                "cor": animal.color,
                "nascimento": animal.birth_date,
                "nascimento_estimado": animal.birth_date_estimated,
                "porte": animal.size,
                "peso_gramas": animal.weight_grams,
                "castrado": animal.sterilized,
                "microchip": animal.microchip,
                "situacao": animal.status,
                "registrado_em": animal.registered_at,
                "registro_tardio": animal.late_registration,
                "provisorio": animal.provisional,
                "definitivo_em": animal.definitive_at,
                "comprovante_vacina": animal.proof_status,
                "comprovante_recusado_motivo": animal.proof_refused_reason,
                "proprietario_atual": animal.owner_id == user.id,
                "baixa_em": animal.closed_at,
                "obito_em": animal.died_on,
                "vacinas": [
                    {
                        "vacina": v.vaccine_name,
                        "partida": v.batch,
                        "fabricante": v.manufacturer,
                        "aplicada_em": v.applied_on,
                        "proxima_dose": v.next_due_on,
                        "veterinario": v.vet_name,
                        "crmv": v.vet_crmv,
                        "estabelecimento": v.establishment,
                    }
                    for v in animal.vaccinations
                ],
                "transferencias": [
                    {
                        "de_mim": t.from_owner_id == user.id,
                        "situacao": t.status,
                        "pedida_em": t.requested_at,
                        "aceita_em": t.accepted_at,
                    }
                    for t in animal.transfers
                    if user.id in (t.from_owner_id, t.to_owner_id)
                ],
                "segundas_vias": [
                    {
                        "tipo": c.kind,
                        "pedida_em": c.requested_on,
                        "valida_ate": c.valid_until,
                        "situacao": c.status,
                    }
                    for c in animal.copy_requests
                ],
            }
        )
    return result

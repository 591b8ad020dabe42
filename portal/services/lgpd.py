"""LGPD access right: everything the portal holds about a person, as JSON.

Each domain adds its section in its ``init_app`` (``wiring(app).exporter(section, fn)``), so the
download grows with the portal without this module knowing every table.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from portal.models import User
from portal.services.drafts import export_drafts
from portal.wiring import wiring


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def export_person(user: User) -> dict[str, Any]:
    data: dict[str, Any] = {
        "conta": {
            "nome": user.full_name,
            "cpf": user.cpf,
            "rg": user.rg,
            "nascimento": user.birth_date,
            "email": user.email,
            "telefone": user.phone,
            "email_confirmado_em": user.email_confirmed_at,
            "aviso_privacidade_aceito_em": user.privacy_accepted_at,
            "criada_em": user.created_at,
            "papeis": sorted(user.roles),
            "endereco": {
                "cep": user.cep,
                "logradouro": user.street,
                "numero": user.number,
                "complemento": user.complement,
                "bairro": user.district,
                "cidade": user.city,
                "uf": user.state,
                "moradia": user.housing_type,
            },
        }
    }
    data["rascunhos"] = export_drafts(user)  # unsent forms are the person's data too
    for section, exporter in wiring().exporters.items():
        data[section] = exporter(user)
    return _jsonable(data)

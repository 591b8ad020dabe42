"""The RGA wizard's steps (portal/blueprints/animals/wizard.py): their order, their names and the
step and field where each error of the registration service is shown."""

from __future__ import annotations

from flask_babel import gettext as _

STEPS = ("animal", "endereco", "vacina", "foto", "revisao")


def step_labels() -> dict[str, str]:
    return {
        "animal": _("Animal"),
        "endereco": _("Endereço"),
        "vacina": _("Vacina"),
        "foto": _("Foto"),
        "revisao": _("Revisão"),
    }


# Where each service error field is shown: (step, form field or None for the step's banner).
ERROR_PLACES: dict[str, tuple[str, str | None]] = {
    "animal.name": ("animal", "name"),
    "animal.species": ("animal", "species"),
    "animal.sex": ("animal", "sex"),
    "animal.breed": ("animal", "breed"),
    "animal.color": ("animal", "color"),
    "animal.birth_date": ("animal", "birth_date"),
    "animal.size": ("animal", "size"),
    "animal.weight_kg": ("animal", "weight_kg"),
    "animal.microchip": ("animal", "microchip"),
    "owner.address": ("endereco", None),
    "rabies_vaccination": ("vacina", "choice"),
    "rabies_vaccination.date": ("vacina", "applied_on"),
    "rabies_vaccination.vaccine": ("vacina", "vaccine_name"),
    "rabies_vaccination.batch": ("vacina", "batch"),
    "rabies_vaccination.vet_name": ("vacina", "vet_name"),
    "rabies_vaccination.vet_crmv": ("vacina", "vet_crmv"),
    "rabies_vaccination.expires_on": ("vacina", "expires_on"),
    "rabies_vaccination.next_due": ("vacina", "next_due_on"),
    "rabies_vaccination.proof": ("vacina", "rabies_proof"),
}

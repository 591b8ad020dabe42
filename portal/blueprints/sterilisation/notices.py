"""The e-mails of the sterilisation programme: a booking or a place in the waitlist, a place
given from the waitlist, and the outcome of the day."""

from __future__ import annotations

from flask_babel import gettext as _

from portal.models import BookingStatus, SterilisationBooking, SterilisationSlot
from portal.services.mail import send_email
from portal.urls import absolute_url


def where(slot: SterilisationSlot) -> str:
    site = slot.site
    text = _(
        "Dia: %(day)s\nLocal: %(site)s — %(address)s, %(district)s",
        day=slot.day.strftime("%d/%m/%Y"),
        site=site.name,
        address=site.address,
        district=site.district,
    )
    if site.instructions:
        text += "\n" + _("Orientações: %(text)s", text=site.instructions)
    return text


def _link() -> str:
    return absolute_url("sterilisation.mine")


def mail_requested(booking: SterilisationBooking) -> None:
    if booking.slot is not None:
        subject = _("Castração agendada: %(name)s", name=booking.animal_name)
        body = where(booking.slot)
    else:
        subject = _("Fila de espera da castração: %(name)s", name=booking.animal_name)
        body = _(
            "Quando abrir uma vaga, ela é reservada para você pela ordem da fila e avisamos por "
            "e-mail."
        )
    _send(booking, subject, f"{body}\n\n{_link()}")


def mail_booked_from_waitlist(booking: SterilisationBooking) -> None:
    assert booking.slot is not None
    _send(
        booking,
        _("Vaga de castração para %(name)s", name=booking.animal_name),
        _("Abriu uma vaga e ela foi reservada para você.")
        + f"\n{where(booking.slot)}\n\n"
        + _("Se não puder ir, cancele para a vaga passar ao próximo da fila:")
        + f" {_link()}",
    )


def mail_outcome(booking: SterilisationBooking) -> None:
    if booking.status == BookingStatus.DONE:
        body = _("A castração de %(name)s foi registrada.", name=booking.animal_name)
        if booking.animal is not None:
            body += " " + _("O RGA %(rga)s agora consta como castrado.", rga=booking.animal.rga)
        else:  # VV 12 §3: the programme is the occasion to register the animal
            body += " " + _(
                "Registre o RGA do animal no portal e marque que ele é castrado: %(link)s",
                link=absolute_url("animals.register"),
            )
    elif booking.status == BookingStatus.UNFIT:
        body = _(
            "No exame clínico, %(name)s não estava apto à cirurgia: %(note)s. Você pode agendar "
            "de novo quando o veterinário indicar.",
            name=booking.animal_name,
            note=booking.note or "",
        )
    else:
        body = _(
            "%(name)s não compareceu à castração. Você pode agendar de novo.",
            name=booking.animal_name,
        )
    _send(
        booking,
        _("Castração de %(name)s", name=booking.animal_name),
        f"{body}\n\n{_link()}",
    )


def _send(booking: SterilisationBooking, subject: str, body: str) -> None:
    """To the person who asked; an account made at the counter without e-mail gets none (the
    CCZ's staff told them in person)."""
    if booking.requester.email:
        send_email(booking.requester.email, subject, body)

"""E-mails that tell the citizen each impound decision (issue 25: every hand-over reaches the
person by e-mail as well as on the to-do list): the reclaim paid (go and collect), the animal
released (to whom, when), the certidão's exam result."""

from __future__ import annotations

from flask_babel import gettext as _

from portal.models import Capture, CaptureCertificate, ReclaimRecord, ReleaseRecord, User
from portal.services import ccz
from portal.services.clock import local_date
from portal.services.mail import send_email
from portal.urls import absolute_url


def _where_lines() -> list[str]:
    found = ccz.contact()
    if found is None:  # never a guess: the city has not confirmed where and when
        return [_("Confirme com a Prefeitura o endereço e o horário do CCZ antes de ir.")]
    lines = [found.name, f"{found.address} · {found.district}"]
    lines.append(_("Atendimento: %(h)s", h=found.hours))
    if found.phone:
        lines.append(_("Telefone: %(phone)s", phone=found.phone))
    return lines


def _tell(person: User | None, subject: str, lines: list[str]) -> None:
    """E-mail ``lines`` to ``person`` after a greeting; nothing when they have no e-mail."""
    if person is None or not person.email:
        return
    greeting = _("Olá, %(name)s.", name=person.full_name)
    send_email(person.email, subject, "\n".join([greeting, "", *lines]))


def reclaim_paid(reclaim: ReclaimRecord) -> None:
    """The fee is paid: the owner learns where and until when to collect the animal."""
    capture = reclaim.capture
    lines = [
        _(
            "A taxa do resgate do animal do protocolo %(protocol)s foi paga. Próximo passo: vá "
            "ao CCZ buscar o animal até %(day)s, com documento com foto; a equipe confere a "
            "vacina antirrábica e registra a devolução.",
            protocol=capture.protocol,
            day=capture.deadline_on.strftime("%d/%m/%Y"),
        ),
        "",
        *_where_lines(),
        "",
        absolute_url("impound.my_capture", protocol=capture.protocol),
    ]
    subject = _("Resgate pago: busque seu animal no CCZ (%(protocol)s)", protocol=capture.protocol)
    _tell(reclaim.claimant, subject, lines)


def released(capture: Capture, record: ReleaseRecord, reclaim: ReclaimRecord) -> None:
    """The animal went home: the person who reclaimed it gets the record and the term."""
    lines = [
        _(
            "O animal do protocolo %(protocol)s foi devolvido em %(day)s a %(who)s. O "
            "recolhimento está encerrado.",
            protocol=capture.protocol,
            day=local_date(record.released_at).strftime("%d/%m/%Y"),
            who=record.signed_by_name,
        ),
        "",
        _("Termo assinado:"),
        record.term_text,
        "",
        absolute_url("impound.my_capture", protocol=capture.protocol),
    ]
    _tell(reclaim.claimant, _("Animal devolvido (%(protocol)s)", protocol=capture.protocol), lines)


def certificate_decided(cert: CaptureCertificate) -> None:
    """The exam's result reaches whoever asked for the certidão."""
    if cert.status == "issued":
        subject = _("Certidão negativa de captura emitida (%(code)s)", code=cert.code)
        body = _(
            "A certidão do animal de RGA %(rga)s foi emitida. Código para conferir: %(code)s. "
            "Veja e baixe a certidão em %(url)s",
            rga=cert.animal.rga,
            code=cert.code,
            url=absolute_url("impound.certificate_check", code=cert.code),
        )
    else:
        subject = _("Certidão negativa de captura não emitida")
        body = _(
            "A certidão do animal de RGA %(rga)s não foi emitida: o animal levado ao exame não "
            "conferiu com o RGA. Motivo: %(note)s. Você pode fazer um novo pedido em %(url)s",
            rga=cert.animal.rga,
            note=cert.exam_note or "—",
            url=absolute_url("impound.certificates"),
        )
    _tell(cert.requester, subject, [body])

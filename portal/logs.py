"""No CPF in a log line, whoever writes it.

``hide_parameters`` keeps SQL parameters out of SQLAlchemy's messages, but PostgreSQL's own error
text quotes the offending value (``Key (cpf)=(52998224725) already exists``), and a library may
log a URL or a form. Every log record's final message goes through :func:`mask_cpfs`: anything
shaped like a CPF (11 digits, with or without its dots and dash) is masked. An 11-digit phone
number is masked too, which is no loss."""

from __future__ import annotations

import logging
import re

CPF_SHAPE = re.compile(r"(?<!\d)\d{3}\.?\d{3}\.?\d{3}-?\d{2}(?!\d)")
MASK = "***.***.***-**"


def mask_cpfs(text: str) -> str:
    return CPF_SHAPE.sub(MASK, text)


class _MaskingRecord(logging.LogRecord):
    def getMessage(self) -> str:  # noqa: N802 - logging's own name
        return mask_cpfs(super().getMessage())


def install_cpf_mask() -> None:
    """Make every log record of the process mask CPFs (idempotent)."""
    if logging.getLogRecordFactory() is not _MaskingRecord:
        logging.setLogRecordFactory(_MaskingRecord)

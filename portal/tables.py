"""Tables that read as cards on a phone (issue 25: no page scrolls sideways at 360 px).

A wide table cannot fit 360 px: either the page scrolls sideways or its last columns (the status,
the action) hide in a scroll box. Below 600 px ``.portal-table-stack`` (portal.css) shows each row
as a card and each cell under its column name, read from the cell's ``data-label``. Writing that
attribute by hand on every cell of every table drifts from the header; the ``stack_table`` filter
copies each header's text onto the cells of its column instead, so a template only wraps its
table::

    {% filter stack_table %}<table class="portal-table">…</table>{% endfilter %}
"""

from __future__ import annotations

import re
from html import unescape

from markupsafe import Markup, escape

_TAG = re.compile(r"<(/?)(table|thead|tbody|tfoot|tr|th|td)\b([^>]*)>", re.IGNORECASE)
_MARKUP = re.compile(r"<[^>]+>")
_SPAN = re.compile(r"""colspan\s*=\s*["']?(\d+)""", re.IGNORECASE)
_CLASS = re.compile(r"""class\s*=\s*(["'])(.*?)\1""", re.IGNORECASE | re.DOTALL)


def _text(html: str) -> str:
    return " ".join(unescape(_MARKUP.sub(" ", html)).split())


def _add_class(attrs: str) -> str:
    if match := _CLASS.search(attrs):
        classes = match.group(2)
        if "portal-table-stack" in classes.split():
            return attrs
        start, end = match.span(2)
        return attrs[:start] + classes + " portal-table-stack" + attrs[end:]
    return attrs + ' class="portal-table-stack"'


def stack_table(html: str) -> Markup:
    """``html`` with every ``<table>`` marked ``portal-table-stack`` and every body cell that has
    no ``data-label`` labelled with the text of its column's header (``colspan`` respected).

    A header cell whose text is empty (an action column) labels nothing: the card then shows the
    cell alone, which is what a person expects of a button.
    """
    html = str(html)
    out: list[str] = []
    labels: list[str] = []
    in_head = in_foot = False
    column = 0
    header_start: tuple[int, int] | None = None  # (index in out, colspan) of an open <th> in thead
    pos = 0
    for match in _TAG.finditer(html):
        out.append(html[pos : match.start()])
        pos = match.end()
        closing, tag, attrs = match.group(1), match.group(2).lower(), match.group(3)
        if tag == "table" and not closing:
            labels, column = [], 0
            out.append(f"<{match.group(2)}{_add_class(attrs)}>")
            continue
        if tag == "thead":
            in_head = not closing
        elif tag == "tfoot":  # a total row reads alone: "Total recebido R$ 35,00"
            in_foot = not closing
        elif tag == "tr" and not closing:
            column = 0
        elif tag in ("th", "td") and not closing:
            span = int(m.group(1)) if (m := _SPAN.search(attrs)) else 1
            if in_head:
                header_start = (len(out) + 1, span)
            elif (
                not in_foot
                and "data-label" not in attrs
                and column < len(labels)
                and labels[column]
            ):
                # first, so the cell's own attributes still end the tag as written
                attrs = f' data-label="{escape(labels[column])}"{attrs}'
            column += span
            out.append(f"<{match.group(2)}{attrs}>")
            continue
        elif tag == "th" and closing and in_head and header_start is not None:
            index, span = header_start
            label = _text("".join(out[index:]))
            labels.extend([label] + [""] * (span - 1))
            header_start = None
        out.append(match.group(0))
    out.append(html[pos:])
    return Markup("".join(out))

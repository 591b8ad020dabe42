"""Destinations after the hold (CABO 13; CAB 9, 11, 15-16, 20; VV 19-21; BJP 25 §3-4;
GRU 86, 88, 90), within federal Lei 14.228/2021 for dogs and cats."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import IO, Any

from flask_babel import gettext as _

from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    Capture,
    CaptureStatus,
    DestinationDecision,
    ProposalStatus,
    StoredFile,
    User,
)
from portal.profiles.schema import Profile
from portal.services import audit

from .apprehension import definitive_upheld
from .capture import active_reclaim
from .deadlines import legal_size
from .labels import (
    FEDERAL_EUTHANASIA,
    FEDERAL_SPECIES,
    community_condition_label,
    condition_label,
    destination_label,
)

# A file sent with this post, or one the form's draft already holds (issue 25: kept across a
# refused post, so already validated and stored)
Upload = tuple[IO[bytes], str | None] | StoredFile

# ---------------------------------------------------------------------------------------------
# Destinations (CABO 13; CAB 9, 11, 15-16, 20; VV 19-21; BJP 25 §3-4; GRU 86, 88, 90)
# ---------------------------------------------------------------------------------------------


def destinations_offered(
    profile: Profile,
    capture: Capture,
    *,
    incurable_laudo: bool = False,
    vet_laudo: bool = False,
    vet: bool = False,
    today: date | None = None,
) -> list[str]:
    """The destinations the law allows for this animal today, in the profile's order of priority
    (one the order does not allow yet is left out: :func:`destinations_withheld` says why).

    Euthanasia comes last, only when :func:`euthanasia_allowed` (``incurable_laudo``: a vet's
    laudo states an incurable disease; ``vet_laudo``: a vet's laudo without that finding; ``vet``:
    the person deciding is a vet). Lei 14.228/2021: never for a healthy dog or cat.
    """
    withheld = {d for d, _why in destinations_withheld(profile, capture, today=today)}
    offered = [
        d
        for d in _listed(profile, capture)
        if d not in withheld and _fits(profile, capture, d)  # CAB 15-16, 20: not yet
    ]
    laudo = vet_laudo or incurable_laudo
    if euthanasia_allowed(
        profile, capture, incurable=incurable_laudo, laudo=laudo, vet=vet or laudo
    ):
        offered.append("euthanasia")
    return offered


def _listed(profile: Profile, capture: Capture) -> list[str]:
    """The profile's destinations; after a failed auction, the ones the law gives then (CAB 20)."""
    rule = profile.impound
    if auction_failed(capture):
        after = rule.after_failed_auction or rule.destinations
        return [d for d in after if d != "auction"]
    return list(rule.destinations)


def _fits(profile: Profile, capture: Capture, destination: str) -> bool:
    """Whether a listed destination suits this animal's species and legal size class."""
    if destination == "auction":
        # CAB 11 II, 20: medium and large animals (CAB 19: by species, not weight)
        return legal_size(profile, capture) in profile.impound.auction_sizes
    if destination == "community_return":
        return capture.species in FEDERAL_SPECIES  # BJP 25 §3 II; VV 19: dogs and cats
    if destination == "slaughterhouse":
        # GRU 88 III; Lei 14.228/2021, art. 1º: a dog's or a cat's life never ends there
        return capture.species not in FEDERAL_SPECIES
    return True


def auction_failed(capture: Capture) -> bool:
    """CAB 20: the animal went to public auction and nobody bought it."""
    return any(d.auction_outcome == "failed" for d in capture.destinations)


def _auction_first(profile: Profile, capture: Capture) -> bool:
    """CAB 20: an unreclaimed medium or large animal goes to auction before anything else."""
    rule = profile.impound
    return (
        rule.auction_first
        and "auction" in rule.destinations
        and legal_size(profile, capture) in rule.auction_sizes
        and not auction_failed(capture)
    )


def euthanasia_allowed(
    profile: Profile, capture: Capture, *, incurable: bool, laudo: bool, vet: bool
) -> bool:
    """Whether a vet may decide this animal's euthanasia now.

    Dogs and cats: a laudo stating a serious incurable or infectious disease (Lei 14.228/2021,
    art. 2º; the laudo goes to the NGOs first, :mod:`euthanasia`). Other species: the grounds of
    the municipal law (GRU 88 II: a laudo of incurable disease; CAB 20: a laudo recommending it,
    or a failed auction); where the law adds nothing, the federal standard."""
    if not vet:
        return False
    grounds = profile.impound.other_species_euthanasia
    if capture.species in FEDERAL_SPECIES or grounds is None:
        return incurable and laudo
    return (
        ("incurable_laudo" in grounds and incurable and laudo)  # GRU 88 II
        or ("vet_recommendation" in grounds and laudo)  # CAB 20
        or ("failed_auction" in grounds and auction_failed(capture))  # CAB 20
    )


def euthanasia_refusal(profile: Profile, capture: Capture) -> str:
    """Why the euthanasia is refused, citing the law that governs this species."""
    grounds = profile.impound.other_species_euthanasia
    if capture.species in FEDERAL_SPECIES or grounds is None:
        # Lei 14.228/2021, art. 1º-2º: never for a healthy dog or cat; the laudo is required.
        return _(
            "Eutanásia só com laudo do médico veterinário responsável que ateste doença "
            "grave incurável ou doença infectocontagiosa com risco à saúde humana ou "
            "animal (%(law)s).",
            law=FEDERAL_EUTHANASIA,
        )
    ways = {
        "incurable_laudo": _("com laudo que ateste doença incurável"),
        "vet_recommendation": _("com laudo que a recomende"),
        "failed_auction": _("depois de um leilão em hasta pública frustrado"),
    }
    return _(
        "Eutanásia deste animal só por decisão do médico veterinário, %(ways)s (%(article)s).",
        ways=f" {_('ou')} ".join(ways[g] for g in grounds),
        article=profile.impound.cite("other_species_euthanasia"),
    )


def destinations_withheld(
    profile: Profile, capture: Capture, *, today: date | None = None
) -> list[tuple[str, str]]:
    """The destinations the law's order does not allow yet, each with why (pt-BR, cited).

    CAB 20: a medium or large animal goes to public auction first; the other destinations wait
    for a failed auction. CAB 15-16: the animal stays ten days available for adoption after the
    hold; only after that failed attempt may it be donated to an NGO (on the 11th day after the
    hold's last day)."""
    rule = profile.impound
    if _auction_first(profile, capture):
        why = _(
            "Animal de médio ou grande porte não resgatado vai primeiro a leilão em hasta "
            "pública; as outras destinações só depois de um leilão frustrado (%(article)s).",
            article=rule.cite("auction_first"),
        )
        return [
            (d, why) for d in rule.destinations if d != "auction" and _fits(profile, capture, d)
        ]
    if not rule.destination_after_days or auction_failed(capture):
        return []
    if today is None:
        from portal.services.clock import local_today

        today = local_today(profile)
    withheld: list[tuple[str, str]] = []
    for destination, days in rule.destination_after_days.items():
        if destination not in rule.destinations:
            continue
        opens = capture.deadline_on + timedelta(days=days + 1)
        if today < opens:
            withheld.append(
                (
                    destination,
                    _(
                        "%(what)s só a partir de %(day)s: antes, o animal fica %(days)d dias "
                        "disponível para adoção (%(article)s).",
                        what=destination_label(destination),
                        day=opens.strftime("%d/%m/%Y"),
                        days=days,
                        article=rule.cite("destination_after_days"),
                    ),
                )
            )
    return withheld


@dataclass
class DestinationData:
    destination: str
    reason: str
    vet_report: str | None = None
    vet_crmv: str | None = None
    lab_exam: str | None = None
    incurable: bool = False  # the laudo states a serious incurable/infectious condition
    organization_id: int | None = None
    carer_name: str | None = None
    listing_name: str | None = None
    # What the staff confirmed before a community return (BJP 25 §3 II; VV 19 §1).
    community_conditions: tuple[str, ...] = ()
    slaughterhouse: str | None = None  # GRU 88 III: name and inspection register
    laudo_file: Upload | None = None  # the signed laudo (GRU 88 II)


def check_may_destine(capture: Capture) -> None:
    """The animal is in custody, with no definitive apprehension pending and no reclaim open."""
    if capture.status == CaptureStatus.DEFINITIVE_PENDING:
        raise DomainError(
            None,
            "definitive_pending",
            _(
                "Aguarde a decisão final da apreensão definitiva (%(article)s).",
                article=capture.definitive_article,
            ),
        )
    if capture.status != CaptureStatus.IN_CUSTODY:
        raise DomainError(None, "not_in_custody", _("Este animal não está sob a guarda do CCZ."))
    if active_reclaim(capture) is not None:
        raise DomainError(None, "reclaim_open", _("Há um resgate em andamento para este animal."))


def check_timing(
    profile: Profile, capture: Capture, *, actor: User, laudo: bool, today: date
) -> bool:
    """Whether the decision comes before the reclaim deadline; raises when it may not.

    BJP 25 §4; GRU 86 II; CAB 11 V: before the deadline only a vet, with a technical report,
    decides for a seriously ill or injured animal, and only where the law gives that power."""
    before = today <= capture.deadline_on and not definitive_upheld(capture)
    if not before:
        return False
    rule = profile.impound
    vet_case = (
        rule.vet_early_destination
        and actor.has_role("vet")
        and laudo
        and capture.condition in ("ill", "injured", "serious")
    )
    if vet_case and rule.vet_early_untagged_only and capture.tagged:
        # BJP 25 §4 lifts only the §2 hold of untagged animals: the owner of a tagged one keeps
        # the §1 days to take it back.
        raise DomainError(
            "destination",
            "before_deadline",
            _(
                "Este animal tem RGA: o proprietário tem até %(day)s para resgatá-lo. A decisão "
                "antecipada do veterinário vale só para animais sem identificação (%(article)s).",
                day=capture.deadline_on.strftime("%d/%m/%Y"),
                article=rule.cite("vet_early_untagged_only"),
            ),
        )
    if not vet_case:
        raise DomainError(
            "destination",
            "before_deadline",
            _(
                "O prazo de resgate vai até %(day)s. Antes dele, só o médico veterinário "
                "decide a destinação de um animal gravemente doente ou ferido, com laudo "
                "técnico.",
                day=capture.deadline_on.strftime("%d/%m/%Y"),
            ),
        )
    return True


def decide_destination(
    profile: Profile, capture: Capture, data: DestinationData, *, actor: User, today: date
) -> DestinationDecision:
    """Record where the animal goes, who decided and why."""
    check_may_destine(capture)
    proposal = None
    if data.destination == "euthanasia" and capture.species in ("dog", "cat"):
        from .euthanasia import proposal_ready_for_decision

        # Lei 14.228/2021, art. 2º §2º, art. 3º: the laudo went to the NGOs first.
        proposal = proposal_ready_for_decision(capture, data, today=today)
    laudo = bool((data.vet_report or "").strip())
    is_vet = actor.has_role("vet")
    before = check_timing(profile, capture, actor=actor, laudo=laudo, today=today)
    if not data.reason.strip():
        raise DomainError("reason", "required", _("Explique o motivo da decisão."))
    withheld = dict(destinations_withheld(profile, capture, today=today))
    if data.destination in withheld:
        raise DomainError("destination", "not_yet", withheld[data.destination])  # CAB 15-16, 20
    offered = destinations_offered(
        profile,
        capture,
        incurable_laudo=data.incurable and laudo and is_vet,
        vet_laudo=laudo and is_vet,
        vet=is_vet,
        today=today,
    )
    if data.destination not in offered:
        if data.destination == "euthanasia":
            # Lei 14.228/2021, art. 1º-2º for dogs and cats; GRU 88 II, CAB 20 for the others
            refusal = euthanasia_refusal(profile, capture)
            raise DomainError("destination", "euthanasia_refused", refusal)
        raise DomainError(
            "destination", "not_allowed", _("Esta destinação não é prevista para este animal.")
        )
    if data.destination == "euthanasia" and not (data.vet_crmv or "").strip():
        raise DomainError("vet_crmv", "required", _("Informe o CRMV do veterinário."))
    slaughterhouse = (data.slaughterhouse or "").strip() or None
    if data.destination == "slaughterhouse" and slaughterhouse is None:
        raise DomainError(
            "slaughterhouse",
            "required",
            _(
                "Informe o abatedouro licenciado: nome e registro no serviço de inspeção "
                "(%(article)s).",
                article=profile.impound.cite("destinations"),
            ),
        )
    # Checked before the decision exists: it joins the capture (and the session) when built,
    # and the NGO look-up would flush a half-made decision.
    if data.destination == "ngo_donation":
        _check_ngo(data.organization_id)  # BJP 25 §3 I: an approved animal-protection NGO
    carer = (data.carer_name or "").strip() or None
    if data.destination == "community_return" and carer is None:
        raise DomainError(
            "carer_name",
            "required",
            _(
                "Informe o cuidador responsável na comunidade (%(article)s).",
                article=profile.impound.cite("community_return_conditions"),
            ),
        )
    conditions = _community_conditions(profile, data)
    laudo_file = None
    if data.laudo_file is not None and data.destination == "euthanasia":
        # GRU 88 II; CAB 20: the signed laudo of another species' euthanasia (dogs and cats
        # have theirs on the proposal, Lei 14.228/2021); stored before the decision is built
        laudo_file = _store_laudo(data.laudo_file)
    decision = DestinationDecision(
        capture=capture,
        destination=data.destination,
        reason=data.reason.strip(),
        before_deadline=before,
        vet_report=(data.vet_report or "").strip() or None,
        vet_crmv=(data.vet_crmv or "").strip() or None,
        lab_exam=(data.lab_exam or "").strip() or None,
        decided_by_id=actor.id,
        organization_id=data.organization_id if data.destination == "ngo_donation" else None,
        carer_name=carer if data.destination == "community_return" else None,
        community_conditions=conditions,
        slaughterhouse=slaughterhouse if data.destination == "slaughterhouse" else None,
        laudo_file=laudo_file,
    )
    db.session.add(decision)
    if data.destination == "adoption" and capture.species in ("dog", "cat"):
        # The portal's adoption listings are for dogs and cats; another species' adoption
        # (CAB 11 III, 13: bovines, equines) is arranged by the CCZ and recorded here.
        decision.listing_id = _adoption_draft(capture, data.listing_name, actor, today).id
    capture.status = CaptureStatus.DESTINED
    if proposal is not None:
        proposal.status = ProposalStatus.DECIDED
    else:
        from .euthanasia import withdraw_open_proposals

        withdraw_open_proposals(capture)
    db.session.flush()
    audit.record(
        "impound.destined",
        capture,
        detail={
            "destination": data.destination,
            "before_deadline": before,
            "vet_report": decision.vet_report is not None,
        },
    )
    return decision


def _community_conditions(profile: Profile, data: DestinationData) -> list[str] | None:
    """The conditions the law sets for a community return, all confirmed (BJP 25 §3 II: registered,
    sterilised, vaccinated, first deworming dose; VV 19 §1: also ectoparasites and the carer's
    term); None for another destination."""
    if data.destination != "community_return":
        return None
    rule = profile.impound
    missing = [c for c in rule.community_return_conditions if c not in data.community_conditions]
    if missing:
        raise DomainError(
            "community_conditions",
            "conditions_missing",
            _(
                "Antes de devolver o animal à comunidade, confirme: %(missing)s (%(article)s).",
                missing="; ".join(community_condition_label(c) for c in missing),
                article=rule.cite("community_return_conditions"),
            ),
        )
    return list(rule.community_return_conditions)


LAUDO_FILE_PURPOSE = "impound_laudo"  # the laudo of a decision or of GRU 90; staff read it


def _store_laudo(upload: Upload) -> Any:
    from portal.services.uploads import UploadError, store_document

    if isinstance(upload, StoredFile):
        upload.purpose, upload.owner_id, upload.public = LAUDO_FILE_PURPOSE, None, False
        return upload
    stream, filename = upload
    try:
        return store_document(stream, purpose=LAUDO_FILE_PURPOSE, owner_id=None, filename=filename)
    except UploadError as err:
        raise DomainError("laudo_file", "invalid_file", err.message) from None


def _check_ngo(organization_id: int | None) -> None:
    from portal.models import Organization

    org = db.session.get(Organization, organization_id) if organization_id else None
    if org is None or not org.is_approved:
        raise DomainError(
            "organization_id", "not_approved", _("Escolha uma ONG aprovada pelo CCZ.")
        )


def _adoption_draft(capture: Capture, name: str | None, actor: User, today: date) -> Any:
    """A CCZ adoption listing draft carrying the capture's photos and health record."""
    from portal.blueprints.adoption.services import ListingData, create_listing
    from portal.models import ListingPhoto
    from portal.services.dates import add_months

    data = ListingData(
        name=(name or "").strip() or _("Animal %(protocol)s", protocol=capture.protocol),
        species=capture.species,
        sex=capture.sex if capture.sex != "unknown" else "male",
        birth_date=add_months(today, -24),
        birth_date_estimated=True,
        size=capture.size,
        color=capture.color,
        district=capture.district,
        held_since=capture.captured_on,
        story=_(
            "Recolhido pelo CCZ em %(day)s (protocolo %(protocol)s). Estado: %(state)s.",
            day=capture.captured_on.strftime("%d/%m/%Y"),
            protocol=capture.protocol,
            state=condition_label(capture.condition),
        ),
    )
    listing = create_listing(None, actor, data)
    for photo in capture.photos:
        listing.photos.append(
            ListingPhoto(stored_file_id=photo.stored_file_id, position=photo.position)
        )
    db.session.flush()
    return listing


# ---------------------------------------------------------------------------------------------
# The public auction's outcome (CAB 20; CABO 13 II)
# ---------------------------------------------------------------------------------------------


def pending_auction(capture: Capture) -> DestinationDecision | None:
    """The auction this animal was sent to, while its outcome is not recorded."""
    if capture.status != CaptureStatus.DESTINED or not capture.destinations:
        return None
    latest = max(capture.destinations, key=lambda d: d.id or 0)
    if latest.destination == "auction" and latest.auction_outcome is None:
        return latest
    return None


def record_auction_outcome(
    capture: Capture, *, sold: bool, actor: User, today: date
) -> DestinationDecision:
    """Record what came of the auction. A failed one (CAB 20 "se mostre frustrada a tentativa de
    leilão") puts the animal back in the CCZ's custody, for the destinations the law gives then
    (``impound.after_failed_auction``; euthanasia where ``other_species_euthanasia`` allows)."""
    decision = pending_auction(capture)
    if decision is None:
        raise DomainError(
            "outcome", "no_auction", _("Não há leilão aguardando resultado para este animal.")
        )
    decision.auction_outcome = "sold" if sold else "failed"
    decision.auction_outcome_on = today
    if not sold:
        capture.status = CaptureStatus.IN_CUSTODY
    db.session.flush()
    audit.record(
        "impound.auction_outcome",
        capture,
        detail={"outcome": decision.auction_outcome},
        actor_id=actor.id,
    )
    return decision

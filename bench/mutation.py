"""`make mutation`: mutation testing of the law services, one module at a time (issue 16).

Runs mutmut one mutant at a time by default (``MUTATION_CHILDREN=4`` runs four at once: about
100 mutants a minute on 2 cores; a survivor is a survivor only if it survives again alone, so
finish with ``--rerun-survivors`` at 1) over each module listed in
``[tool.mutmut] only_mutate`` of pyproject.toml, against the tests listed there, and writes the
score per module to ``bench/results/mutation.md``.

    .venv/bin/python bench/mutation.py                  # every module (several hours)
    .venv/bin/python bench/mutation.py dates            # one module (name or path)
    .venv/bin/python bench/mutation.py --report-only    # rewrite the table from the last run
    .venv/bin/python bench/mutation.py --rerun-survivors  # only the survivors, after new tests
    .venv/bin/python bench/mutation.py household --resume  # survivors and mutants not yet run
    .venv/bin/python bench/mutation.py fee_fines --functions _fine,_joint_fines  # part of a module

Each run's result per mutant is kept in git, in ``bench/results/mutation/<module>.json`` with the
SHA-256 of the module it was measured on: a new checkout rewrites the table without running
anything, ``--rerun-survivors`` works from it, and a module changed since its run is marked so.

Scores: detected (killed, timeout, caught by the type checker) / mutants that count. Not counted:
equivalent mutants listed with their reason in ``bench/mutation_equivalent.toml`` (checked against
the mutant's current diff, so a stale entry counts again), and surviving mutants that only change
the text of a user message (a translated string ``_("...")``, or a string literal with a space
outside an exception's bare text; or such a string replaced by None): the table says how many.
Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tokenize
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "mutation.md"
# What each mutant did, per module, kept in git: mutmut's own records live in ``mutants/``, which
# a new checkout does not have, so the table could otherwise only come from running everything.
RECORDS = ROOT / "bench" / "results" / "mutation"
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.toml"
MUTMUT = ROOT / ".venv" / "bin" / "mutmut"
DETECTED = {"killed", "timeout", "caught by type check", "segfault"}
TARGET = 90.0
# Mutants run at once. Each mutant's tests get a SQLite file of their own (tests/conftest.py), in
# /dev/shm when there is one. With the test database on disk, 2 at once once reported survivors
# that the same tests kill alone; with 4 at once in /dev/shm, rerunning every survivor of eleven
# modules alone changed none (2026-12-01). One at a time stays the default.
CHILDREN = int(os.environ.get("MUTATION_CHILDREN", "1"))


def configured_modules() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["tool"]["mutmut"]
    return list(config["only_mutate"])


def dotted(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


def sync_unmutated() -> None:
    """Refresh mutmut's copy of the files it does not mutate (profiles, templates, tests).

    mutmut copies the tree once into ``mutants/`` and keeps it; in a tree others edit at the same
    time the copy goes stale (a profile file that no longer matches its schema fails every test).
    """
    mutants = ROOT / "mutants"
    if not mutants.is_dir():
        return  # the first run makes the copy
    mutated = {ROOT / m for m in configured_modules()}
    for module in mutated:
        copy = mutants / module.relative_to(ROOT)
        if copy.exists() and not copy.with_name(copy.name + ".meta").exists():
            # Added to only_mutate after mutmut copied it as a plain file: mutmut only mutates a
            # file whose source is newer than its copy, so the copy must go, and so must the
            # test coverage mutmut recorded without it (its functions would have "no tests").
            copy.unlink()
            (mutants / "mutmut-stats.json").unlink(missing_ok=True)
    for folder in ("portal", "tests"):
        for source in (ROOT / folder).rglob("*"):
            if not source.is_file() or source in mutated or "__pycache__" in source.parts:
                continue
            target = mutants / source.relative_to(ROOT)
            if not target.exists() or target.read_bytes() != source.read_bytes():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)


def run_module(path: str, functions: list[str]) -> None:
    """One mutmut run over one module's mutants (or some of its functions)."""
    if functions:
        patterns = [f"{dotted(path)}.x_{name}__mutmut_*" for name in functions]
    else:
        patterns = [f"{dotted(path)}.*"]
    print(f"== mutmut: {path} {' '.join(functions)}", flush=True)
    subprocess.run(
        [str(MUTMUT), "run", "--max-children", str(CHILDREN), *patterns],
        cwd=ROOT,
        check=False,
        env=_mutant_env(),
    )


def _mutant_env() -> dict[str, str]:
    """Each mutant's tests build a SQLite schema of their own (tests/conftest.py); on a disk that
    syncs every DDL statement that alone took about 5 s a mutant. In memory (/dev/shm, when the
    machine has it) it takes a tenth of a second: the test database goes there."""
    env = dict(os.environ)
    shm = Path("/dev/shm")
    if "TEST_DATABASE_URL" not in env and shm.is_dir() and os.access(shm, os.W_OK):
        folder = shm / "ccz-mutation"
        folder.mkdir(exist_ok=True)
        env["TEST_DATABASE_URL"] = f"sqlite:///{folder}/ccz_test.db"
    return env


@dataclass
class ModuleScore:
    path: str
    statuses: dict[str, int] = field(default_factory=dict)
    equivalent: list[tuple[str, str, str]] = field(default_factory=list)  # name, change, reason
    messages: list[str] = field(default_factory=list)
    survivors: list[tuple[str, str, str]] = field(default_factory=list)  # name, status, change
    stale: list[str] = field(default_factory=list)
    outdated: bool = False  # the module changed after its mutants were run

    @property
    def total(self) -> int:
        return sum(self.statuses.values())

    @property
    def detected(self) -> int:
        return sum(n for s, n in self.statuses.items() if s in DETECTED)

    @property
    def counted(self) -> int:
        not_checked = self.statuses.get("not checked", 0)
        return self.total - not_checked - len(self.equivalent) - len(self.messages)

    def pct(self, num: int, den: int) -> str:
        return f"{100 * num / den:.1f} %" if den else "—"


def _changed_lines(diff: str) -> tuple[list[str], list[str]]:
    removed = [
        line[1:]
        for line in diff.splitlines()
        if line.startswith("-") and not line.startswith("---")
    ]
    added = [
        line[1:]
        for line in diff.splitlines()
        if line.startswith("+") and not line.startswith("+++")
    ]
    return removed, added


# A translated string, ``_("text")``: shown to a user whatever raises or returns it.
MESSAGE = -1


def _tokens(code: str) -> list[tuple[int, str]] | None:
    """The tokens of a changed line; ``_("text")`` counts as one MESSAGE token."""
    skip = (
        tokenize.NL,
        tokenize.NEWLINE,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENDMARKER,
        tokenize.COMMENT,
    )
    tokens: list[tuple[int, str]] = []
    try:
        for t in tokenize.generate_tokens(io.StringIO(code).readline):
            if t.type not in skip:
                tokens.append((t.type, t.string))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # a line cut out of a longer call: keep what was read
    if not tokens:
        return None
    merged: list[tuple[int, str]] = []
    i = 0
    while i < len(tokens):
        call = _translated(tokens, i)
        if call is None:
            merged.append(tokens[i])
            i += 1
        else:
            token, i = call
            merged.append(token)
    return merged


def _translated(tokens: list[tuple[int, str]], i: int) -> tuple[tuple[int, str], int] | None:
    """``_("text")``, ``_("text " "more")`` (one MESSAGE) or ``_(None)`` at ``i``, and the index
    after it; None when no translation call starts there."""
    if tokens[i] != (tokenize.NAME, "_") or tokens[i + 1 : i + 2] != [(tokenize.OP, "(")]:
        return None
    end = i + 2
    while end < len(tokens) and tokens[end][0] == tokenize.STRING:
        end += 1
    if end >= len(tokens) or tokens[end][1] != ")":
        if tokens[i + 2 : i + 4] == [(tokenize.NAME, "None"), (tokenize.OP, ")")]:
            return tokens[i + 2], i + 4
        return None
    if end == i + 2:
        return None  # _() with something else inside
    return (MESSAGE, " ".join(text for _type, text in tokens[i + 2 : end])), end + 1


def is_message_only(diff: str) -> bool:
    """True when the mutant only changes the text of a user message.

    A user message is a translated string (``_("...")``, whatever raises or shows it) or a string
    literal with a space. An exception's untranslated text (``ValueError("...")``) is for
    developers: it counts.
    """
    removed, added = _changed_lines(diff)
    # An exception's bare text is for developers; its translated text (``_()``) is for users.
    developer = any("Error(" in line and "FeeError(" not in line for line in removed)
    before, after = _tokens("\n".join(removed).strip()), _tokens("\n".join(added).strip())
    if not before or after is None or len(before) != len(after):
        return False
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    if not changed:
        return False
    for (type_a, text_a), (type_b, text_b) in changed:
        if type_a == MESSAGE:
            if type_b not in (MESSAGE, tokenize.STRING) and text_b != "None":
                return False
            continue
        if developer or type_a != tokenize.STRING or " " not in text_a:
            return False
        if type_b not in (MESSAGE, tokenize.STRING) and text_b != "None":
            return False
    return True


def short_change(diff: str) -> str:
    removed, added = _changed_lines(diff)
    old = " ".join(line.strip() for line in removed)
    new = " ".join(line.strip() for line in added)
    return f"`{old[:110]}` → `{new[:110]}`"


def load_equivalent() -> dict[str, dict[str, str]]:
    if not EQUIVALENT.exists():
        return {}
    data = tomllib.loads(EQUIVALENT.read_text("utf-8"))
    return {entry["mutant"]: entry for entry in data.get("equivalent", [])}


def record_path(path: str) -> Path:
    return RECORDS / f"{dotted(path)}.json"


def source_digest(path: str) -> str:
    return hashlib.sha256((ROOT / path).read_bytes()).hexdigest()


def load_record(path: str) -> dict[str, Any]:
    file = record_path(path)
    if not file.exists():
        return {"module": path, "source_sha256": None, "mutants": {}}
    record: dict[str, Any] = json.loads(file.read_text("utf-8"))
    return record


def save_record(path: str) -> None:
    """Merge mutmut's results for one module (in ``mutants/``) into its record in git.

    A mutant mutmut has not run keeps its recorded result, as long as the module's source is the
    one that result was measured on; a changed module starts a new record.
    """
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    from mutmut.stats import status_by_exit_code

    if not (ROOT / "mutants" / f"{path}.meta").exists():
        return
    data = SourceFileMutationData(path=path)
    data.load()
    digest = source_digest(path)
    record = load_record(path)
    old = record["mutants"] if record.get("source_sha256") == digest else {}
    now = datetime.now(UTC).strftime("%Y-%m-%d")
    mutants: dict[str, dict[str, str]] = {}
    for name, exit_code in sorted(data.exit_code_by_key.items(), key=_natural):
        status = status_by_exit_code[exit_code]
        if status == "check was interrupted by user":
            status = "not checked"  # a run stopped half-way: that mutant was not measured
        if status == "not checked" and name in old:
            mutants[name] = old[name]
            continue
        entry = {"status": status, "run": now}
        if status not in DETECTED and status != "not checked":
            entry["diff"] = get_diff_for_mutant(name, path=path)
        mutants[name] = entry
    if (
        record.get("mutants")
        and record.get("source_sha256") != digest
        and all(entry["status"] == "not checked" for entry in mutants.values())
    ):
        return  # changed since its run and not run again here: keep the old record (marked so)
    RECORDS.mkdir(parents=True, exist_ok=True)
    record_path(path).write_text(
        json.dumps(
            {"module": path, "source_sha256": digest, "mutants": mutants},
            ensure_ascii=False,
            indent=1,
        )
        + "\n",
        "utf-8",
    )


def score(path: str) -> ModuleScore:
    """The score of one module, from its record (bench/results/mutation/)."""
    record = load_record(path)
    equivalent = load_equivalent()
    result = ModuleScore(path)
    result.outdated = record.get("source_sha256") not in (None, source_digest(path))
    for name, measured in sorted(record["mutants"].items(), key=_natural):
        status = measured["status"]
        result.statuses[status] = result.statuses.get(status, 0) + 1
        if status in DETECTED or status == "not checked":
            continue
        diff = measured.get("diff", "")
        change = short_change(diff)
        listed = equivalent.get(name)
        if listed is not None:
            if listed.get("added", "").strip() in diff:
                result.equivalent.append((name, change, listed["reason"]))
                continue
            result.stale.append(name)
        if status == "survived" and is_message_only(diff):
            result.messages.append(name)
            continue
        result.survivors.append((name, status, change))
    return result


def _natural(item: tuple[str, object]) -> tuple[str, int]:
    name = item[0]
    base, _, number = name.rpartition("_")
    return (base, int(number) if number.isdigit() else 0)


def write_report(scores: list[ModuleScore]) -> None:
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = [
        "# Mutation score of the law services",
        "",
        f"Written by `make mutation` (bench/mutation.py, mutmut) on {now}; how many mutants ran "
        "at once is in the History below.",
        "Score = detected / (mutants run − equivalent − surviving message-only mutants);",
        "raw score = detected / mutants run. Detected = killed + timeout + caught by type check.",
        "Message-only: a surviving mutant that only changes the text of a pt-BR user message (a",
        'translated string `_("...")`, or a string literal with a space; or that string replaced',
        "by None). An exception's untranslated text is for developers and is not excluded; a",
        "message's arguments (an article cited, a date) are not text and count.",
        "Target: ≥ 90 % per module (issue 16).",
        "",
        "| module | mutants | killed | timeout | survived | no tests | not checked | equivalent | "
        "message-only (excluded) | raw score | score |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for s in scores:
        st = s.statuses
        out.append(
            f"| `{s.path}` | {s.total} | {st.get('killed', 0)} | {st.get('timeout', 0)} | "
            f"{st.get('survived', 0)} | {st.get('no tests', 0)} | {st.get('not checked', 0)} | "
            f"{len(s.equivalent)} | "
            f"{len(s.messages)} | {s.pct(s.detected, s.total - st.get('not checked', 0))} | "
            f"**{s.pct(s.detected, s.counted)}** |"
        )
    for s in scores:
        out += ["", f"## `{s.path}`", ""]
        if s.outdated:
            out += ["**The module changed after its run: these figures are of its older source.**"]
            out.append("")
        if s.equivalent:
            out += [
                "Equivalent mutants (no input tells them from the original with the profiles "
                "shipped; the reason says why):",
                "",
            ]
            out += [f"- `{n}`: {c} — {r}" for n, c, r in s.equivalent]
            out.append("")
        if s.survivors:
            out += ["Surviving mutants still to kill or to judge:", ""]
            out += [f"- `{n}` ({st}): {c}" for n, st, c in s.survivors]
            out.append("")
        if s.stale:
            out += [
                "Stale entries of bench/mutation_equivalent.toml (the diff changed): "
                + ", ".join(f"`{n}`" for n in s.stale),
                "",
            ]
        out.append(f"Message-only survivors excluded: {len(s.messages)}.")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    history = ""
    if RESULTS.exists():
        text = RESULTS.read_text("utf-8")
        marker = "\n## History\n"
        if marker in text:
            history = text[text.index(marker) :]
    RESULTS.write_text("\n".join(out) + "\n" + history, "utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="module names or paths (default: all)")
    parser.add_argument("--report-only", action="store_true", help="do not run mutmut")
    parser.add_argument(
        "--rerun-survivors",
        action="store_true",
        help="run again only the mutants that survived (after adding tests)",
    )
    parser.add_argument(
        "--resume",
        action="store_true",
        help="like --rerun-survivors, plus the mutants an interrupted run left unchecked",
    )
    parser.add_argument(
        "--functions",
        default="",
        help="comma-separated function names to run first (a partial run)",
    )
    args = parser.parse_args(argv)
    configured = configured_modules()
    chosen = [
        m
        for m in configured
        if not args.modules or any(a in (m, Path(m).stem) for a in args.modules)
    ]
    if not chosen:
        parser.error(f"no such module; configured: {', '.join(configured)}")
    os.chdir(ROOT)
    if not args.report_only:
        sync_unmutated()
    if args.rerun_survivors or args.resume:
        names = []
        equivalent = load_equivalent()
        for path in chosen:
            record = load_record(path)
            if record.get("source_sha256") != source_digest(path):
                print(f"{path} changed since its record: run it whole", file=sys.stderr)
                continue
            for name, entry in record["mutants"].items():
                unchecked = entry["status"] == "not checked" and args.resume
                survived = entry["status"] in ("survived", "no tests", "suspicious")
                if (not survived and not unchecked) or name in equivalent:
                    continue
                if unchecked or not is_message_only(entry.get("diff", "")):
                    names.append(name)  # message-only survivors would survive again
        if names:
            print(f"== mutmut: {len(names)} survivors or unchecked mutants", flush=True)
            subprocess.run(
                [str(MUTMUT), "run", "--max-children", str(CHILDREN), *names],
                cwd=ROOT,
                check=False,
                env=_mutant_env(),
            )
            for path in chosen:
                save_record(path)
    elif not args.report_only:
        for path in chosen:
            functions = [f for f in args.functions.split(",") if f]
            run_module(path, functions)  # one module at a time: the machine is shared
            # At once: the next `mutmut run` forgets this module's results if the tests changed.
            save_record(path)
    for path in configured:
        save_record(path)  # whatever mutmut ran in this tree, kept in git
    scores = [score(path) for path in configured]
    for s in scores:
        print(
            f"{s.path}: {s.pct(s.detected, s.counted)} ({s.detected}/{s.counted}; "
            f"{len(s.equivalent)} equivalent, {len(s.messages)} message-only excluded)"
        )
    write_report(scores)
    return 0 if all(s.counted and 100 * s.detected / s.counted >= TARGET for s in scores) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

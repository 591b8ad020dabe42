"""`make mutation`: mutation testing of the law services, one module at a time (issue 16).

Runs mutmut one mutant at a time (``MUTATION_CHILDREN``, default 1: with two, mutants that the
tests do kill when run alone were reported as survivors) over each module listed in
``[tool.mutmut] only_mutate`` of pyproject.toml, against the tests listed there, and writes the
score per module to ``bench/results/mutation.md``.

    .venv/bin/python bench/mutation.py                  # every module (tens of minutes)
    .venv/bin/python bench/mutation.py dates            # one module (name or path)
    .venv/bin/python bench/mutation.py --report-only    # rewrite the table from the last run
    .venv/bin/python bench/mutation.py --rerun-survivors  # only the survivors, after new tests
    .venv/bin/python bench/mutation.py household --resume  # survivors and mutants not yet run
    .venv/bin/python bench/mutation.py fee_fines --functions _fine,_joint_fines  # part of a module

Scores: detected (killed, timeout, caught by the type checker) / mutants that count. Not counted:
equivalent mutants listed with their reason in ``bench/mutation_equivalent.toml`` (checked against
the mutant's current diff, so a stale entry counts again), and surviving mutants that only change
the text of a user message (a string literal with a space in it, or such a string replaced by
None): the table says how many. Not part of ``make test``.
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tokenize
import tomllib
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "mutation.md"
EQUIVALENT = ROOT / "bench" / "mutation_equivalent.toml"
MUTMUT = ROOT / ".venv" / "bin" / "mutmut"
DETECTED = {"killed", "timeout", "caught by type check", "segfault"}
TARGET = 90.0
# Mutants run at once. Each mutant's tests get a SQLite file of their own (tests/conftest.py), but
# with 2 mutmut 3.8 reported survivors that the same tests kill when the mutant runs alone.
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
        [str(MUTMUT), "run", "--max-children", str(CHILDREN), *patterns], cwd=ROOT, check=False
    )


@dataclass
class ModuleScore:
    path: str
    statuses: dict[str, int] = field(default_factory=dict)
    equivalent: list[tuple[str, str, str]] = field(default_factory=list)  # name, change, reason
    messages: list[str] = field(default_factory=list)
    survivors: list[tuple[str, str, str]] = field(default_factory=list)  # name, status, change
    stale: list[str] = field(default_factory=list)

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


def _tokens(code: str) -> list[tuple[int, str]] | None:
    """The tokens of a changed line; ``_("text")`` counts as one string token."""
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
        window = tokens[i : i + 4]
        if (
            len(window) == 4
            and window[0] == (tokenize.NAME, "_")
            and window[1][1] == "("
            and window[2][0] == tokenize.STRING
            and window[3][1] == ")"
        ):
            merged.append((tokenize.STRING, window[2][1]))
            i += 4
        elif (
            len(window) == 4
            and window[0] == (tokenize.NAME, "_")
            and window[1][1] == "("
            and window[2] == (tokenize.NAME, "None")
            and window[3][1] == ")"
        ):
            merged.append(window[2])
            i += 4
        else:
            merged.append(tokens[i])
            i += 1
    return merged


def is_message_only(diff: str) -> bool:
    """True when the mutant only changes the text of a user message (a string with a space).

    Exception texts for developers (``ValueError(...)``) are not user messages: they count.
    """
    removed, added = _changed_lines(diff)
    if any("Error(" in line and "FeeError(" not in line for line in removed):
        return False
    before, after = _tokens("\n".join(removed).strip()), _tokens("\n".join(added).strip())
    if not before or after is None or len(before) != len(after):
        return False
    changed = [(a, b) for a, b in zip(before, after, strict=True) if a != b]
    if not changed:
        return False
    for (type_a, text_a), (type_b, text_b) in changed:
        if type_a != tokenize.STRING or " " not in text_a:
            return False
        if type_b != tokenize.STRING and text_b != "None":
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


def score(path: str) -> ModuleScore:
    """Read mutmut's results for one module (run from the repository root)."""
    from mutmut.mutation.data import SourceFileMutationData
    from mutmut.mutation.diff_apply import get_diff_for_mutant
    from mutmut.stats import status_by_exit_code

    data = SourceFileMutationData(path=path)
    data.load()
    equivalent = load_equivalent()
    result = ModuleScore(path)
    for name, exit_code in sorted(data.exit_code_by_key.items(), key=_natural):
        status = status_by_exit_code[exit_code]
        result.statuses[status] = result.statuses.get(status, 0) + 1
        if status in DETECTED or status == "not checked":
            continue
        diff = get_diff_for_mutant(name, path=path)
        change = short_change(diff)
        entry = equivalent.get(name)
        if entry is not None:
            if entry.get("added", "").strip() in diff:
                result.equivalent.append((name, change, entry["reason"]))
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
        f"Written by `make mutation` (bench/mutation.py, mutmut, {CHILDREN} mutant at a time) on {now}.",
        "Score = detected / (mutants run − equivalent − surviving message-only mutants);",
        "raw score = detected / mutants run. Detected = killed + timeout + caught by type check.",
        "Message-only: a surviving mutant that only changes the text of a pt-BR user message (a",
        "string literal with a space, or that string replaced by None; exception texts for",
        "developers are not excluded). Target: ≥ 90 % per module (issue 16).",
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
        if s.equivalent:
            out += ["Equivalent mutants (cannot change behaviour):", ""]
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
    sync_unmutated()
    if args.rerun_survivors or args.resume:
        from mutmut.mutation.data import SourceFileMutationData
        from mutmut.mutation.diff_apply import get_diff_for_mutant

        names = []
        equivalent = load_equivalent()
        for path in chosen:
            data = SourceFileMutationData(path=path)
            data.load()
            for name, code in data.exit_code_by_key.items():
                unchecked = code is None and args.resume
                if (code not in (0, 5, 33) and not unchecked) or name in equivalent:
                    continue
                if unchecked or not is_message_only(get_diff_for_mutant(name, path=path)):
                    names.append(name)  # message-only survivors would survive again
        if names:
            print(f"== mutmut: {len(names)} survivors or unchecked mutants", flush=True)
            subprocess.run(
                [str(MUTMUT), "run", "--max-children", str(CHILDREN), *names], cwd=ROOT, check=False
            )
    elif not args.report_only:
        for path in chosen:
            functions = [f for f in args.functions.split(",") if f]
            run_module(path, functions)  # one module at a time: the machine is shared
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

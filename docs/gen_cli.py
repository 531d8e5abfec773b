"""Write the CLI reference page (cli.md) from the ``canasta`` command's argparse parser.

Run by mkdocs-gen-files at build time (see mkdocs.yml); the page is not committed. Run it
directly to print the page: ``python docs/gen_cli.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import canasta  # noqa: F401
except ImportError:  # a checkout without the package installed
    sys.path.insert(0, str(ROOT))

os.environ["COLUMNS"] = "92"  # argparse wraps usage lines to the terminal; keep the page stable

from canasta.cli import build_parser  # noqa: E402

_SUPPRESS = argparse.SUPPRESS


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    """(name, one-line help, parser) of each subcommand, in the parser's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def _names(action: argparse.Action) -> str:
    if not action.option_strings:
        return f"`{action.metavar or action.dest}`"
    metavar = ""
    if action.nargs != 0:
        if action.metavar is not None:
            metavar = f" {action.metavar}"
        elif action.choices is not None:
            metavar = " {" + ",".join(map(str, action.choices)) + "}"
        else:
            metavar = f" {action.dest.upper()}"
    return ", ".join(f"`{o}{metavar}`" for o in action.option_strings)


def _options_table(parser: argparse.ArgumentParser) -> list[str]:
    rows = []
    groups = {id(a): g for g in parser._mutually_exclusive_groups for a in g._group_actions}
    for action in parser._actions:
        if action.help == _SUPPRESS or isinstance(action, argparse._SubParsersAction):
            continue
        notes = []
        if action.choices is not None and action.option_strings and action.metavar is not None:
            notes.append("one of " + ", ".join(f"`{c}`" for c in action.choices))
        if action.required and action.option_strings:
            notes.append("required")
        group = groups.get(id(action))
        if group is not None:
            others = [o for a in group._group_actions if a is not action for o in a.option_strings[:1]]
            notes.append(("one of this and " if group.required else "not with ") + ", ".join(f"`{o}`" for o in others))
        help_text = (action.help or "") % {"default": action.default, "prog": parser.prog} if action.help else ""
        if notes:
            help_text += " (" + "; ".join(notes) + ")"
        rows.append(f"| {_names(action)} | {_cell(help_text)} |")
    if not rows:
        return []
    return ["| argument | meaning |", "|---|---|", *rows, ""]


def page() -> str:
    parser = build_parser()
    subs = _subcommands(parser)
    out = [
        "# Command line",
        "",
        "The `canasta` command is installed with the package (`python -m "
        "canasta` runs the same). This page is generated from the command's own parser when the "
        "documentation is built, so it always matches `canasta COMMAND --help`.",
        "",
        "```text",
        parser.format_usage().strip(),
        "```",
        "",
        _cell(parser.description or ""),
        "",
        "Exit status: 0 success; 1 bad input (a file, a variant, an action, a record; for "
        "`diff`: the variants differ); 2 a usage error (an unknown command or option, a bad "
        "option value). `canasta COMMAND --help` prints a command's help.",
        "",
        "| command | what it does |",
        "|---|---|",
        *[f"| [`{name}`](#{name}) | {_cell(help_)} |" for name, help_, _ in subs],
        "",
        *_options_table(parser),
    ]
    for name, _, sub in subs:
        out += [
            f"## `canasta {name}` {{#{name}}}",
            "",
            _cell(sub.description or ""),
            "",
            "```text",
            sub.format_usage().strip(),
            "```",
            "",
            *_options_table(sub),
        ]
    return "\n".join(out).rstrip() + "\n"


def write() -> None:
    """Write cli.md into the site being built (mkdocs-gen-files)."""
    import mkdocs_gen_files

    with mkdocs_gen_files.open("cli.md", "w") as f:
        f.write(page())
    mkdocs_gen_files.set_edit_path("cli.md", "gen_cli.py")


if __name__ == "__main__":
    sys.stdout.write(page())
elif __name__ == "<run_path>":  # run by mkdocs-gen-files during the build
    write()

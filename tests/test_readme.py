"""The README is the front door (issue 47): short, the two commands first, every link and picture there, and every
command it shows runs as written (issue 46: `companion site` without its required --base-url did not)."""
import re
import shlex
from pathlib import Path

import pytest

from companion.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def commands(text: str) -> list[str]:
    """Every `companion …` command the text shows: the lines of its sh blocks and its inline code, `$G` and the like
    replaced by what the block set them to, comments and pipes dropped."""
    found = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        names = dict(re.findall(r"^(\w+)=(\S+)$", block, re.M))
        for line in block.splitlines():
            line = re.sub(r"\s+#.*", "", line).strip()
            for name, value in names.items():
                line = line.replace(f"${name}", value)
            found += [m for m in re.findall(r"(?:\.venv/bin/)?companion [^|]*", line)]
    found += re.findall(r"`((?:\.venv/bin/)?companion [^`]*)`", text)
    return [c.strip().removeprefix(".venv/bin/") for c in found]


def test_the_finder_finds_blocks_inline_code_and_variables():
    text = ("Run `companion site` here.\n```sh\nG=a.yaml\n.venv/bin/companion validate $G   # x\n"
            "echo {} | companion score g -\n```\n")
    assert commands(text) == ["companion validate a.yaml", "companion score g -", "companion site"]


def test_the_readme_is_a_front_door_with_the_two_commands_first():
    lines = README.splitlines()
    assert len(lines) <= 250, f"{len(lines)} lines"
    first = README[: README.index("```", README.index("```sh") + 5)]
    assert re.search(r"^make run\b", first, re.M) and re.search(r"^make test\b", first, re.M)
    assert len(first.splitlines()) <= 6
    assert "Ctrl+C" in README  # how to stop the companion


@pytest.mark.parametrize("command", sorted(set(commands(README))))
def test_every_command_the_readme_shows_parses_as_written(command):
    args = shlex.split(command)[1:]
    try:
        build_parser().parse_args(args)
    except SystemExit as stop:
        pytest.fail(f"`{command}` does not run as written (exit {stop.code})")


def test_the_readme_shows_the_static_site_command_whole():
    assert any(c.startswith("companion site ") and "--base-url" in c for c in commands(README))


def test_every_link_and_picture_of_the_readme_and_the_docs_is_there():
    missing = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)|src=\"([^\"]+)\"", text):
            target = next(t for t in target if t).split("#")[0]
            if target and not re.match(r"[a-z]+:", target) and not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert not missing, missing

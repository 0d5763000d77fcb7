"""The install commands for extras in the README and docs/ work as written: shapeclip is
installed from a checkout, not from an index, so an extra is named on the checkout
(`pip install '.[openai]'`), and every extra named is one pyproject.toml defines."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_issue_27_documented_extras_are_installed_from_the_checkout() -> None:
    text = "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
    # Read without tomllib, which Python 3.10 lacks: the section's keys, one a line.
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    section = pyproject.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    extras = set(re.findall(r"^([\w-]+) = \[", section, re.MULTILINE))
    named = re.findall(r"'([^'\s]*)\[([\w-]+)\]'", text)
    assert {extra for _, extra in named} >= {"openai", "anthropic", "hermes", "langgraph"}
    assert [target for target, _ in named if target != "."] == []
    assert {extra for _, extra in named} <= extras

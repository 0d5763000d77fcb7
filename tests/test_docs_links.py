"""Every relative link in README.md and docs/ leads somewhere: to a file or folder of the
repository, and, with `#anchor`, to a heading of that page as GitHub names its anchors. The
README was split into docs/ (issue 28), and a page moved or a heading renamed must not leave
a dead link behind."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parent.parent
LINK = re.compile(r"\[[^\]]*\]\(([^()\s]+)\)")
CODE_SPAN = re.compile(r"`[^`\n]*`")


def pages(root: Path) -> list[Path]:
    """The README and every page under docs/."""
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def prose(text: str) -> list[str]:
    """The lines of `text` outside fenced code blocks, with inline code spans taken out."""
    lines, fenced = [], False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced:
            lines.append(CODE_SPAN.sub("", line))
    return lines


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of a page: lower case, punctuation other than
    `-` and `_` dropped, spaces made `-`, and `-1`, `-2` after a repeated one."""
    found: set[str] = set()
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
        heading = re.match(r"#{1,6} (.*)", line)
        if fenced or not heading:
            continue
        slug = re.sub(r"[^\w\- ]", "", heading.group(1).strip().lower()).replace(" ", "-")
        anchor, n = slug, 0
        while anchor in found:
            n += 1
            anchor = f"{slug}-{n}"
        found.add(anchor)
    return found


def broken_links(root: Path) -> list[str]:
    """`page: target` for each relative link of the pages under `root` that leads nowhere."""
    broken = []
    for page in pages(root):
        for line in prose(page.read_text(encoding="utf-8")):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: and the like
                    continue
                path, _, anchor = target.partition("#")
                linked = (page.parent / path).resolve() if path else page
                if not linked.exists() or not linked.is_relative_to(root.resolve()):
                    broken.append(f"{page.relative_to(root)}: {target}")
                elif anchor and (
                    linked.suffix != ".md" or anchor not in anchors(linked.read_text(encoding="utf-8"))
                ):
                    broken.append(f"{page.relative_to(root)}: {target} (no such heading)")
    return broken


def test_issue_28_every_link_in_the_readme_and_docs_resolves() -> None:
    assert broken_links(ROOT) == []


def test_issue_28_the_readme_links_every_docs_page() -> None:
    readme = "\n".join(prose((ROOT / "README.md").read_text(encoding="utf-8")))
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in LINK.findall(readme)}
    assert [page.relative_to(ROOT) for page in pages(ROOT)[1:] if page.resolve() not in linked] == []


def test_a_missing_page_or_heading_is_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "here.md").write_text("# Here\n\n## A `code` heading: too\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[ok](docs/here.md) [ok](docs/here.md#a-code-heading-too) [web](https://example.com)\n"
        "`[in code](nowhere.md)`\n```\n[in a fence](nowhere.md)\n```\n"
        "[gone](docs/gone.md) [no heading](docs/here.md#elsewhere) [outside](../x.md)\n",
        encoding="utf-8",
    )
    assert broken_links(tmp_path) == [
        "README.md: docs/gone.md",
        "README.md: docs/here.md#elsewhere (no such heading)",
        "README.md: ../x.md",
    ]

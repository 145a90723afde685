#!/usr/bin/env python3
"""Checks the links of README.md and the guide (docs/src/**/*.md); exits 1 listing each broken one.

- A relative markdown link `[text](path#anchor)` must name a file or folder that exists, and
  with an `#anchor`, a markdown file with a heading that slugifies to it (as GitHub and mdBook
  make heading ids: lowercase, whitespace to `-`, punctuation other than `-` and `_` dropped,
  `-1`, `-2`... after repeated headings). Absolute links (`https:`, `mailto:`) are not fetched.
- `{{#include path}}` (and `rustdoc_include`) must name an existing file; with `:anchor`, the
  file must hold `ANCHOR: anchor` and `ANCHOR_END: anchor` lines; without one, the file must
  hold no anchor lines at all (mdBook shows them when it includes a whole file).
- The pages of the guide's path (docs/src/*.md but SUMMARY.md and introduction.md) hold code
  only through includes: every fenced block of theirs is `{{#include ...}}` lines alone.

Run from anywhere: `python3 docs/check_links.py`. Stdlib only.
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "docs" / "src"

FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1")
INCLUDE = re.compile(r"(\\?)\{\{#(include|rustdoc_include)\s+([^}\s]+)\s*\}\}")
ANCHOR_START = re.compile(r"ANCHOR:\s*([\w-]+)")
ANCHOR_END = re.compile(r"ANCHOR_END:\s*([\w-]+)")
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
NOT_PATH_PAGES = {"SUMMARY.md", "introduction.md"}


def slugify(heading: str) -> str:
    """A heading's id, as GitHub and mdBook make it from the heading's text."""
    text = CODE_SPAN.sub(lambda m: m.group(2), heading)
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links keep their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    out = []
    for ch in text.strip():
        if ch.isalnum() or ch in "-_":
            out.append(ch.lower())
        elif ch.isspace():
            out.append("-")
    return "".join(out)


def prose_lines(text: str):
    """(line number, line) of the lines outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if match:
            if fence is None:
                fence = match.group(1)
                continue
            if line.strip().startswith(fence):
                fence = None
                continue
        if fence is None:
            yield number, line


_anchors_cache = {}


def heading_ids(path: Path) -> set:
    if path not in _anchors_cache:
        ids, seen = set(), {}
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            match = HEADING.match(line)
            if not match:
                continue
            slug = slugify(match.group(2))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            ids.add(slug if count == 0 else f"{slug}-{count}")
        _anchors_cache[path] = ids
    return _anchors_cache[path]


def check_links(path: Path, text: str, problems: list):
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub("", line)
        for match in LINK.finditer(line):
            target = match.group(1)
            if SCHEME.match(target):
                continue
            where = f"{path.relative_to(ROOT)}:{number}: link `{target}`"
            file_part, _, anchor = target.partition("#")
            linked = (path.parent / file_part).resolve() if file_part else path
            if not linked.exists():
                problems.append(f"{where}: no file {linked.relative_to(ROOT) if linked.is_relative_to(ROOT) else linked}")
                continue
            if anchor:
                if linked.is_dir() or linked.suffix != ".md":
                    problems.append(f"{where}: an anchor into something that is not a markdown file")
                elif anchor not in heading_ids(linked):
                    problems.append(f"{where}: no heading with id `{anchor}` in {linked.relative_to(ROOT)}")


def check_includes(path: Path, text: str, problems: list):
    for number, line in enumerate(text.split("\n"), 1):
        for match in INCLUDE.finditer(line):
            if match.group(1):  # escaped: shown, not included
                continue
            spec = match.group(3)
            file_part, _, selector = spec.partition(":")
            where = f"{path.relative_to(ROOT)}:{number}: include `{spec}`"
            included = (path.parent / file_part).resolve()
            if not included.is_file():
                problems.append(f"{where}: no file {included}")
                continue
            body = included.read_text(encoding="utf-8")
            starts = set(ANCHOR_START.findall(body))
            ends = set(ANCHOR_END.findall(body))
            if not selector:
                if starts or ends:
                    problems.append(f"{where}: the whole file is included, and mdBook would show its anchor lines")
            elif not re.fullmatch(r"\d*(:\d*)?", selector):
                if selector not in starts:
                    problems.append(f"{where}: no `ANCHOR: {selector}` line in {included.relative_to(ROOT)}")
                if selector not in ends:
                    problems.append(f"{where}: no `ANCHOR_END: {selector}` line in {included.relative_to(ROOT)}")


def check_code_is_included(path: Path, text: str, problems: list):
    fence, start, body = None, 0, []
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence is None:
            if match:
                fence, start, body = match.group(1), number, []
            continue
        if line.strip().startswith(fence):
            lines = [b for b in body if b.strip()]
            included = [INCLUDE.fullmatch(b.strip()) for b in lines]
            if not lines or not all(m and not m.group(1) for m in included):
                problems.append(
                    f"{path.relative_to(ROOT)}:{start}: a code block of a guide page that is not "
                    "only includes (include it from a file CI compiles and runs)"
                )
            fence = None
        else:
            body.append(line)


def main() -> int:
    pages = [ROOT / "README.md"] + sorted(SRC.rglob("*.md"))
    problems = []
    for page in pages:
        text = page.read_text(encoding="utf-8")
        check_links(page, text, problems)
        check_includes(page, text, problems)
        if page.parent == SRC and page.name not in NOT_PATH_PAGES:
            check_code_is_included(page, text, problems)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check_links: {len(problems)} broken", file=sys.stderr)
        return 1
    print(f"check_links: {len(pages)} pages, every link and include resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())

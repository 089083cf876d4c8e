"""A record's body as it goes onto its site page: its title dropped (the page has its own), raw HTML shown as text,
nested lists indented the way Python-Markdown reads them.

The record files stay as written: records from before the template indented nested reasons by four spaces
indent them by two, which Python-Markdown (MkDocs' renderer) reads as sibling items, not as a nested list.
"""

from __future__ import annotations

import re

TAG_START = re.compile(r"<(?=[A-Za-z/!?])")
INLINE_CODE = re.compile(r"(`+)(.+?)\1")
# Python-Markdown's fenced_code: an opening fence at the start of a line (three or more backticks or tildes, then
# an optional language or {attributes}), closed by the same fence on a later line. Anything else is text.
FENCE_OPEN = re.compile(r"^(`{3,}|~{3,})[ ]*(\{[^\n]*\}|\.?[\w#.+-]*[ ]*(hl_lines=(\"|').*?\4[ ]*)?)$")
LIST_ITEM = re.compile(r"^( *)([-*+]|\d{1,9}[.)])( |$)")
NESTED_INDENT = 4  # Python-Markdown's tab_length: a nested list sits one tab past its parent


def record_body_markdown(body: str) -> str:
    """The body of a record file, ready for its page."""
    return indent_nested_lists(neutralize_html(_strip_heading(body)))


def _strip_heading(body: str) -> str:
    lines = body.lstrip("\n").split("\n")
    return "\n".join(lines[1:]) if lines and lines[0].startswith("# ") else "\n".join(lines)


def fenced(lines: list[str]) -> list[bool]:
    """For each line, whether it belongs to a fenced code block (its fences included) as Python-Markdown reads it:
    an opening fence without its closing fence is text, and so is a line that only starts like a fence."""
    inside = [False] * len(lines)
    index = 0
    while index < len(lines):
        opening = FENCE_OPEN.match(lines[index])
        if opening:
            fence = opening.group(1)
            close = next((end for end in range(index + 1, len(lines)) if lines[end].rstrip(" ") == fence), None)
            if close is not None:
                inside[index : close + 1] = [True] * (close + 1 - index)
                index = close
        index += 1
    return inside


def neutralize_html(markdown: str) -> str:
    """Escape raw HTML tags outside code, so a record body cannot add elements or scripts to its page."""
    source = markdown.split("\n")
    lines = []
    for line, in_fence in zip(source, fenced(source), strict=True):
        if in_fence:
            lines.append(line)
            continue
        parts, last = [], 0
        for match in INLINE_CODE.finditer(line):
            parts.append(TAG_START.sub("&lt;", line[last : match.start()]))
            parts.append(match.group(0))
            last = match.end()
        parts.append(TAG_START.sub("&lt;", line[last:]))
        lines.append("".join(parts))
    return "\n".join(lines)


def indent_nested_lists(markdown: str) -> str:
    """Each list item (and each indented line inside a list) re-indented by four spaces per nesting level.

    A level is any deeper indentation than the item above it, whatever its width (two spaces, three, a tab's
    four), so Markdown already indented by four is unchanged. Code fences and text outside lists are left as they are.
    """
    lines: list[str] = []
    levels: list[int] = []  # the original indentation of each open list level, outermost first
    source = markdown.split("\n")
    for line, in_fence in zip(source, fenced(source), strict=True):
        item = None if in_fence else LIST_ITEM.match(line)
        text = line.lstrip(" ")
        indent = len(line) - len(text)
        if item and (levels or indent < NESTED_INDENT):  # an indented item outside a list is a code block
            while levels and levels[-1] > indent:
                levels.pop()
            if not levels or levels[-1] < indent:
                levels.append(indent)
            lines.append(" " * (NESTED_INDENT * (len(levels) - 1)) + text)
        elif in_fence or not text or not levels:
            lines.append(line)
        elif indent == 0:  # a paragraph, heading or table after the list ends it
            levels = []
            lines.append(line)
        else:  # an item's continuation line: under the deepest item it is indented past
            depth = sum(1 for level in levels if level < indent)
            lines.append(" " * (NESTED_INDENT * depth) + text)
    return "\n".join(lines)

"""YAML from users (profiles, record front matter) read defensively: no aliases, no duplicate keys, bounded depth,
real dates only.

A 352-byte alias bomb expands to gigabytes; a duplicate key silently drops a value; a deeply nested
document exhausts the stack. Each is refused with a one-line YamlInputError naming the line.

A scalar shaped like a date that is no date (`2026-02-30`, `2026-13-01`) stays the text it is, as YAML 1.2
reads it, instead of PyYAML's ValueError from deep in its constructor: a field that wants a date then says
which one is wrong, and a title that only looks like a date is a title.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import yaml

MAX_DEPTH = 32


class YamlInputError(ValueError):
    """The text is not YAML advisor accepts; the message says why and where (one line)."""


class _UniqueKeys:
    """Mixin for a SafeLoader: a mapping with a key twice is refused, naming the line."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)  # type: ignore[attr-defined]
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise YamlInputError(f"duplicate key {str(key)[:60]!r} at line {key_node.start_mark.line + 1}")
            seen.add(key)
        return super().construct_mapping(node, deep=deep)  # type: ignore[misc]


TIMESTAMP_TAG, INT_TAG = "tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:int"


def _timestamp_or_text(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    """A date or datetime when the scalar is a real one, else its text (`2026-02-30` is no day): a title that
    looks like a date stays a title, and a date field holding one is refused by its model, naming the key."""
    try:
        return yaml.SafeLoader.construct_yaml_timestamp(loader, node)
    except ValueError:  # datetime.date and datetime.timezone refuse the numbers YAML's pattern let through
        return loader.construct_scalar(node)


def scalar_text(value: object) -> object:
    """A scalar YAML read as a date or time, back as text (for a free-text field such as a title); others as given."""
    return str(value) if isinstance(value, dt.date) else value


def _sized_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Any:
    """YAML's integer; one past Python's 4,300 digits is a YAMLError naming its line, not a ValueError."""
    try:
        return yaml.SafeLoader.construct_yaml_int(loader, node)
    except ValueError as error:
        problem = f"an integer of {len(node.value)} characters does not read ({str(error).split(':')[0]})"
        raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark) from None


def _read_values_only(loader: type[yaml.SafeLoader]) -> None:
    """Impossible dates read as text; an integer too long to read is a YAMLError with its line."""
    loader.add_constructor(TIMESTAMP_TAG, _timestamp_or_text)
    loader.add_constructor(INT_TAG, _sized_int)


if TYPE_CHECKING:

    class _SafeBase(yaml.SafeLoader): ...

else:  # libyaml's loader where PyYAML was built with it: ten times faster
    _SafeBase = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class DataLoader(_SafeBase):
    """PyYAML's safe loader with impossible dates as text and bounded integers: for advisor's own data files and knowledge-base overrides,
    whose authors may use aliases (user input from anywhere else goes through `load_yaml`)."""


_read_values_only(DataLoader)


class _StrictLoader(_UniqueKeys, yaml.SafeLoader):
    """SafeLoader refusing aliases, duplicate keys and nesting deeper than MAX_DEPTH."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise YamlInputError(f"aliases (*{event.anchor}) are not accepted at line {event.start_mark.line + 1}")
        self._depth += 1
        if self._depth > MAX_DEPTH:
            mark = self.peek_event().start_mark
            raise YamlInputError(f"nested deeper than {MAX_DEPTH} levels at line {mark.line + 1}")
        try:
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_read_values_only(_StrictLoader)


_FAST = getattr(yaml, "__with_libyaml__", False)
if _FAST:

    class _FastUniqueKeyLoader(_UniqueKeys, yaml.CSafeLoader):
        """libyaml's parser with SafeLoader's constructors, refusing duplicate keys."""

    _read_values_only(_FastUniqueKeyLoader)


def _plainly_safe(text: str) -> bool:
    """No alias and collections nested well inside MAX_DEPTH, by libyaml's events (about 10x faster than
    composing in Python); False also when libyaml cannot parse it (the strict loader then says why)."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.CSafeLoader):
            if isinstance(event, yaml.AliasEvent):
                return False
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth >= MAX_DEPTH:
                    return False
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
    except yaml.YAMLError:
        return False
    return True


def load_yaml(text: str) -> Any:
    """The document in `text`; YamlInputError (aliases, duplicate keys, depth) or yaml.YAMLError (syntax).

    Text libyaml reads plainly (no alias, shallow) is loaded by it; anything else, and any error, by
    the pure-Python strict loader, so the messages are the same either way."""
    if _FAST and _plainly_safe(text):
        try:
            return yaml.load(text, Loader=_FastUniqueKeyLoader)  # noqa: S506 - a SafeLoader on libyaml
        except yaml.YAMLError:
            pass
    return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - _StrictLoader is a SafeLoader

"""Card data's YAML: plain data with the line of every field, refusing what card data never needs (anchors, aliases,
deep nesting, huge files of values) before PyYAML builds anything."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import yaml
from yaml.constructor import ConstructorError, SafeConstructor

from ..core.schema import Path, fmt_path

_constructor = SafeConstructor()


class YamlProblem(Exception):
    """Text that is no card data's YAML, at its 1-based `line`."""

    def __init__(self, line: int, message: str):
        self.line, self.message = line, message


# What card data never needs, refused before PyYAML builds anything (its composer recurses once per level, and an
# alias repeats a whole subtree: a 1 KB file of nested aliases stands for gigabytes). The largest shipped file has
# 1,700 values nested 6 levels deep; a 1 MB file of values takes PyYAML 300 MB and half a minute to compose.
MAX_DEPTH = 50
MAX_VALUES = 50_000
# libyaml's parser where PyYAML has it (ten times faster: half of a designer deck's build was reading its YAML);
# the same events, nodes and marks. The phone's Python (Pyodide) has only the pure one.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _refused(event, values: int, depth: int) -> None:
    """YamlProblem for an event card data never needs: an anchor or alias, the value past MAX_VALUES, a collection
    nested past MAX_DEPTH (`depth` counts the collection this event opens)."""
    line = event.start_mark.line + 1
    if isinstance(event, yaml.AliasEvent):
        raise YamlProblem(line, f"*{event.anchor}: aliases are not allowed in card data; write the value out")
    if event.anchor is not None:
        raise YamlProblem(line, f"&{event.anchor}: anchors are not allowed in card data; write the value out "
                                f"where it is used")
    if values > MAX_VALUES:
        raise YamlProblem(line, f"more than {MAX_VALUES} values; card data is far smaller")
    if depth > MAX_DEPTH:
        raise YamlProblem(line, f"nested more than {MAX_DEPTH} levels deep")


def _refuse_what_card_data_never_needs(text: str) -> None:
    """YamlProblem at the first anchor or alias, the first value nested more than MAX_DEPTH levels deep, or the value
    past MAX_VALUES: found in libyaml's stream of events, which never recurses, before its composer runs."""
    depth = values = 0
    for event in yaml.parse(text, Loader=_LOADER):
        if not isinstance(event, yaml.NodeEvent):
            if isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
            continue
        values += 1
        depth += isinstance(event, yaml.CollectionStartEvent)
        _refused(event, values, depth)


class _CheckingLoader(yaml.SafeLoader):
    """PyYAML's pure loader refusing, as it composes, what card data never needs: the same checks in one pass
    (the phone's Python has no libyaml, and reading every file twice there cost seconds). The depth is checked
    before the composer recurses into a collection."""

    def __init__(self, stream):
        super().__init__(stream)
        self.values = self.depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.NodeEvent):
            self.values += 1
            opens = isinstance(event, yaml.CollectionStartEvent)
            _refused(event, self.values, self.depth + opens)
            if opens:
                self.depth += 1
                try:
                    return super().compose_node(parent, index)
                finally:
                    self.depth -= 1
        return super().compose_node(parent, index)


def read_yaml(text: str) -> tuple[Any, dict[Path, int]]:
    """Plain data from YAML text, plus the 1-based line of every field path; YamlProblem on bad YAML (and on what
    card data never needs: anchors and aliases, nesting past MAX_DEPTH, more than MAX_VALUES values)."""
    root = _composed(text)
    if root is None:
        raise YamlProblem(1, "the file is empty")
    lines: dict[Path, int] = {}
    return _built(root, (), lines), lines


def _composed(text: str) -> yaml.Node | None:
    """The text's node tree, what card data never needs refused first; YamlProblem at the line of bad YAML."""
    try:
        if _LOADER is yaml.SafeLoader:
            return yaml.compose(text, Loader=_CheckingLoader)
        _refuse_what_card_data_never_needs(text)
        return yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        message = ", ".join(part for part in (e.context, e.problem) if part)
        if "maximum nesting depth" in message:  # libyaml's scanner meets its own limit before ours
            message = f"nested more than {MAX_DEPTH} levels deep"
        raise YamlProblem(mark.line + 1 if mark else 1, message) from None
    except yaml.YAMLError as e:
        raise YamlProblem(1, str(e)) from None


def _built(node: yaml.Node, path: Path, lines: dict[Path, int]) -> Any:
    """A node as plain data, the line of each field path under `path` written into `lines`."""
    lines.setdefault(path, node.start_mark.line + 1)
    if isinstance(node, yaml.MappingNode):
        return _built_mapping(node, path, lines)
    if isinstance(node, yaml.SequenceNode):
        return [_built(child, (*path, i), lines) for i, child in enumerate(node.value)]
    try:
        return _constructor.construct_object(node, deep=True)
    except ConstructorError as e:
        raise YamlProblem(node.start_mark.line + 1, str(e.problem)) from None
    except (ValueError, OverflowError, IndexError) as e:  # 2001-13-45, an int of 5000 digits, !!int abc, !!int ''
        raise YamlProblem(node.start_mark.line + 1, f"{node.value!r} cannot be read as {_tag_name(node)}: {e}"
                          ) from None


def _built_mapping(node: yaml.MappingNode, path: Path, lines: dict[Path, int]) -> dict:
    """A mapping node as a dict: its keys text (or whole numbers, as a table by player count has), each once."""
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = _built(key_node, (*path, "<key>"), lines)
        if not isinstance(key, (str, int)) or isinstance(key, bool):
            raise YamlProblem(key_node.start_mark.line + 1, f"{fmt_path(path) or 'top'}: keys must be text")
        if key in out:
            raise YamlProblem(key_node.start_mark.line + 1, f"{fmt_path((*path, key))}: key appears twice")
        lines[(*path, key)] = key_node.start_mark.line + 1
        out[key] = _built(value_node, (*path, key), lines)
    return out


def _tag_name(node: yaml.Node) -> str:
    """A scalar's YAML type in words: "a timestamp" for tag:yaml.org,2002:timestamp."""
    name = node.tag.rpartition(":")[2] or node.tag
    return f"{'an' if name[:1] in 'aeiou' else 'a'} {name}"


def line_of(lines: Mapping[Path, int], path: Path) -> int:
    """The line of a path, or of its nearest enclosing field that has one."""
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path, 1)


"""What a probe declares, read from its `probe.py` without importing it.

A probe module imports torch and runs only in its child process; the parent still needs a few facts of its
declaration before anything starts (does it run as part of "all", is it launched by torchrun, which options
does it take), and `advisor probe --help` needs its options as flags without importing torch or pydantic.
So the facts are written as literals in `PROBE = Probe(...)` and read here from the source. Standard
library only: the CLI's help imports this module.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from pathlib import Path

PROBES_DIR = Path(__file__).resolve().parent


class DeclarationError(Exception):
    """A probe.py whose facts cannot be read without running it (not literals, an options model not found)."""


@dataclass(frozen=True)
class OptionField:
    """One field of a probe's options model: its name, its annotation as written, and its flag's help."""

    name: str
    annotation: str
    description: str | None = None
    metavar: str | None = None

    @property
    def flag(self) -> str:
        """The command-line flag that sets it: `node_rank` -> `--node-rank`."""
        return "--" + self.name.replace("_", "-")


@dataclass(frozen=True)
class Declaration:
    """A probe's facts: part of the default suite or named only, launched by torchrun or not, its options."""

    name: str
    runs_by_default: bool = True
    distributed: bool = False
    options: tuple[OptionField, ...] = ()
    options_model: tuple[str, str] | None = None  # (module, class) of its ProbeOptions model, when not in probe.py

    def takes(self, option: str) -> bool:
        """Whether its options model has a field of that name (e.g. "model_type")."""
        return any(field.name == option for field in self.options)


def probe_folders_in(root: Path) -> dict[str, Path]:
    """Probe name -> folder for the subfolders of `root` that hold a probe.py, sorted by name."""
    if not root.is_dir():
        return {}
    return {
        folder.name: folder
        for folder in sorted(root.iterdir())
        if folder.name.isidentifier() and (folder / "probe.py").is_file()
    }


def read_declaration(name: str, folder: Path) -> Declaration:
    """The facts `folder/probe.py` declares. A file that does not parse, or holds no `PROBE = Probe(...)`, has
    the defaults: the child that imports it reports what is wrong, as it always has."""
    try:
        tree = ast.parse((folder / "probe.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return Declaration(name)
    call = _probe_call(tree)
    if call is None:
        return Declaration(name)
    keywords = {keyword.arg: keyword.value for keyword in call.keywords if keyword.arg is not None}
    facts = Declaration(
        name,
        runs_by_default=_fact(keywords, "runs_by_default", True, name),
        distributed=_fact(keywords, "distributed", False, name),
    )
    options = keywords.get("options")
    if options is None or (isinstance(options, ast.Constant) and options.value is None):
        return facts
    if not isinstance(options, ast.Name):
        raise DeclarationError(f"probe {name}: options= in probe.py must name its ProbeOptions class")
    module, source = _class_source(name, tree, options.id)
    fields = _option_fields(name, source, options.id)
    return replace(facts, options=fields, options_model=(module, options.id) if module else None)


def _fact(keywords: dict[str, ast.expr], fact: str, default: bool, name: str) -> bool:
    if fact not in keywords:
        return default
    value = _literal(keywords[fact])
    if not isinstance(value, bool):
        raise DeclarationError(f"probe {name}: write {fact}= in probe.py as True or False (it is read unimported)")
    return value


def _probe_call(tree: ast.Module) -> ast.Call | None:
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(target, ast.Name) and target.id == "PROBE" for target in targets):
                return node.value
    return None


def _literal(node: ast.expr) -> object:
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def _class_source(name: str, tree: ast.Module, class_name: str) -> tuple[str | None, ast.Module]:
    """The module that defines `class_name` (its dotted name, parsed): probe.py itself (no name: importing it
    imports torch), or the module of probes/ it is imported from."""
    if any(isinstance(node, ast.ClassDef) and node.name == class_name for node in tree.body):
        return None, tree
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and any(alias.name == class_name for alias in node.names):
            path = PROBES_DIR.parent.joinpath(*node.module.split(".")).with_suffix(".py")
            if node.module.split(".")[0] == PROBES_DIR.name and path.is_file():
                return node.module, ast.parse(path.read_text(encoding="utf-8"))
    raise DeclarationError(
        f"probe {name}: its options model {class_name} is neither defined in probe.py nor "
        "imported there from a module of probes/"
    )


def _option_fields(name: str, source: ast.Module, class_name: str) -> tuple[OptionField, ...]:
    """The annotated fields of the options class, with `Field(description=..., json_schema_extra={"metavar": ...})`."""
    cls = next(node for node in source.body if isinstance(node, ast.ClassDef) and node.name == class_name)
    fields = []
    for node in cls.body:
        if not isinstance(node, ast.AnnAssign) or not isinstance(node.target, ast.Name):
            continue
        if node.target.id.startswith("_"):
            continue
        described: dict[str, object] = {}
        if isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) and node.value.func.id == "Field":
            described = {keyword.arg: _literal(keyword.value) for keyword in node.value.keywords if keyword.arg}
        extra = described.get("json_schema_extra")
        where = f"probe {name}: {class_name}.{node.target.id}"
        description = _text(described.get("description"), where)
        metavar = _text(extra.get("metavar") if isinstance(extra, dict) else None, where)
        fields.append(OptionField(node.target.id, ast.unparse(node.annotation), description, metavar))
    return tuple(fields)


def _text(value: object, where: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise DeclarationError(f"{where}: write its description and metavar as plain strings")


@dataclass(frozen=True)
class OptionFlag:
    """One flag of `advisor probe`: an option field and the probes whose options models declare it."""

    field: OptionField  # as the first of them declares it
    probes: tuple[Declaration, ...]

    @property
    def takes_int(self) -> bool:
        """Whether the flag reads a whole number (the field is an int); any other value is read as text."""
        return self.field.annotation in ("int", "int | None", "Optional[int]")

    @property
    def probes_text(self) -> str:
        """'scaling probe', 'hotops and int8 probes'."""
        names = [probe.name for probe in self.probes]
        if len(names) == 1:
            return f"{names[0]} probe"
        return f"{', '.join(names[:-1])} and {names[-1]} probes"

    @property
    def help(self) -> str:
        """The flag's help: the probes it applies to, then the field's description."""
        return f"{self.probes_text}: {self.field.description or ''}".strip()

    def not_selected(self) -> str:
        """What is wrong when none of its probes is among those to run."""
        add = self.probes[0].name if len(self.probes) == 1 else "one of them"
        if any(probe.runs_by_default for probe in self.probes):
            return f"{self.field.flag} applies to the {self.probes_text}; add {add} to the probe names"
        runs = "runs" if len(self.probes) == 1 else "run"
        return (
            f"{self.field.flag} applies to the {self.probes_text}, which {runs} only when named: add {add} to the "
            "probe names"
        )


def option_flags(declarations: list[Declaration]) -> list[OptionFlag]:
    """One flag per option name the probes declare, in the order of the probes, then of their fields; a name
    several probes declare is one flag for all of them (its description given once, on any of them)."""
    fields: dict[str, OptionField] = {}
    takers: dict[str, list[Declaration]] = {}
    for declaration in declarations:
        for field in declaration.options:
            if fields.get(field.name) is None or fields[field.name].description is None:
                fields[field.name] = field
            takers.setdefault(field.name, []).append(declaration)
    return [OptionFlag(field, tuple(takers[name])) for name, field in fields.items()]


def builtin_declarations() -> list[Declaration]:
    """The declarations of the probes advisor ships (not ADVISOR_PROBE_DIRS'), by name: what `advisor probe`
    offers as flags."""
    return [read_declaration(name, folder) for name, folder in probe_folders_in(PROBES_DIR).items()]

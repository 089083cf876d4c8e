"""The probes' options given as `advisor probe` flags: which probes each reaches, checked before anything runs.

The flags themselves are the fields of the built-in probes' options models (`declarations.option_flags`).
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Mapping
from typing import Literal, Union, get_args, get_origin

from probes.declarations import Declaration, OptionFlag, builtin_declarations, option_flags
from probes.models import OptionValue
from probes.registry import ProbeOptions
from probes.runner import ProbeError


def options_from_flags(
    names: list[str] | None, flags: Mapping[str, OptionValue | None]
) -> dict[str, dict[str, OptionValue]]:
    """`run_probes`' probe_options from flag values by field name (None: not given): each value goes to the probes
    to run (`names`, or those that run by default) whose options take it. An error naming the flag when a flag
    reaches none of them or a value cannot work: a value out of a field's choices, or what the probe checks
    (`ProbeOptions.check_flags`)."""
    given = {name: value for name, value in flags.items() if value is not None}
    declarations = builtin_declarations()
    by_name = {flag.field.name: flag for flag in option_flags(declarations)}
    options: dict[str, dict[str, OptionValue]] = {}
    checked: set[str] = set()
    for declaration in declarations:
        values = {field.name: given[field.name] for field in declaration.options if field.name in given}
        if not values:
            continue
        model = _options_model(declaration)
        for name in [name for name in values if name not in checked]:
            _check_flag(by_name[name], values[name], names, model)
            checked.add(name)
        model.check_flags(values)
        if _runs(declaration, names):
            options[declaration.name] = values
    return options


def _runs(declaration: Declaration, names: list[str] | None) -> bool:
    return declaration.runs_by_default if names is None else declaration.name in names


def _check_flag(flag: OptionFlag, value: OptionValue, names: list[str] | None, model: type[ProbeOptions]) -> None:
    if not any(_runs(probe, names) for probe in flag.probes):
        raise ProbeError(flag.not_selected())
    choices = _choices(model, flag.field.name)
    if choices and value not in choices:
        raise ProbeError(f"{flag.field.flag} {value!r} is not one of {', '.join(str(choice) for choice in choices)}")


def _choices(model: type[ProbeOptions], field: str) -> tuple[object, ...]:
    """The values a Literal field takes (None allowed aside); () for any other field."""
    annotation = model.model_fields[field].annotation
    members = get_args(annotation) if get_origin(annotation) in (Union, types.UnionType) else (annotation,)
    return tuple(value for member in members if get_origin(member) is Literal for value in get_args(member))


def _options_model(declaration: Declaration) -> type[ProbeOptions]:
    """The probe's options class, imported from its own light module (never probe.py, which imports torch)."""
    if declaration.options_model is None:
        raise ProbeError(f"probe {declaration.name}: its options model must live in a module of its own, not probe.py")
    module, name = declaration.options_model
    model = getattr(importlib.import_module(module), name)
    assert isinstance(model, type) and issubclass(model, ProbeOptions)
    return model

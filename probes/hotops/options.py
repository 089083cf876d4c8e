"""The hotops probe's options: which reference model to profile, or the user's own model (`module:factory`).

Light on purpose (pydantic only): the CLI validates its flags with this model before any child starts.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from collections.abc import Mapping

from pydantic import Field, field_validator, model_validator

from probes.errors import AdvisorError
from probes.registry import ProbeOptions
from probes.vocabulary import ModelType

_SPEC = re.compile(r"^(?P<module>[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*):(?P<factory>[A-Za-z_][\w]*)$")
CUSTOM_MODEL = "custom"  # the case option `model` of a user's model


class ModelSpecError(AdvisorError, ValueError):
    """A `--model` value that is not `module:factory`, names a module that cannot be found, or comes with
    `--model-type`."""


def parse_model_spec(spec: str) -> tuple[str, str]:
    """'pkg.module:factory' -> ('pkg.module', 'factory'); ModelSpecError for anything else."""
    match = _SPEC.match(spec.strip())
    if match is None:
        raise ModelSpecError(f"--model {spec!r}: expected module:factory, e.g. mypackage.models:build_model")
    return match.group("module"), match.group("factory")


def check_model_spec(spec: str) -> None:
    """The spec parses and its module can be found from the current directory or sys.path (not imported;
    its parent packages are). The factory itself is looked up in the probe's child process."""
    module, _ = parse_model_spec(spec)
    added = os.getcwd() not in sys.path
    if added:
        sys.path.insert(0, os.getcwd())  # the probe child runs with `python -m`, which puts the cwd first
    try:
        found = importlib.util.find_spec(module)
    except (ImportError, ValueError) as error:
        raise ModelSpecError(f"--model {spec!r}: cannot look up module {module!r} ({error})") from None
    finally:
        if added:
            sys.path.remove(os.getcwd())
    if found is None:
        raise ModelSpecError(f"--model {spec!r}: no module named {module!r} on the path or in {os.getcwd()}")


class HotopsOptions(ProbeOptions):
    """`model_type`: profile that one reference model (default: every model type); `model`: profile the
    user's own model instead, given as 'module:factory' (its code is imported and run)."""

    # One --model-type flag for hotops and int8 (Int8Options): its help, said once, covers both.
    model_type: ModelType | None = Field(
        None,
        json_schema_extra={"metavar": "TYPE"},
        description=(
            "profile (hotops) and quantize whole (int8) only the reference model of this profile model type, e.g. moe "
            "(default: every model type for hotops; cnn, then dense-transformer for int8)."
        ),
    )
    model: str | None = Field(
        None,
        json_schema_extra={"metavar": "MODULE:FACTORY"},
        description=(
            "profile your own model instead of the reference models. MODULE is imported and FACTORY() run in the "
            "probe's process (this runs your code); it returns (torch.nn.Module, inputs)."
        ),
    )

    @field_validator("model")
    @classmethod
    def _spec_parses(cls, value: str | None) -> str | None:
        if value is not None:
            parse_model_spec(value)
        return value

    @model_validator(mode="after")
    def _one_source(self) -> HotopsOptions:
        if self.model_type is not None and self.model is not None:
            raise ValueError("give model_type (a reference model) or model (your own), not both")
        return self

    @classmethod
    def check_flags(cls, values: Mapping[str, object]) -> None:
        """One source of model, and a --model whose module can be found from here (not imported)."""
        if "model_type" in values and "model" in values:
            raise ModelSpecError("give --model-type (a reference model) or --model (your own model), not both")
        if "model" in values:
            check_model_spec(str(values["model"]))  # a ModelSpecError is an AdvisorError: one line, naming --model

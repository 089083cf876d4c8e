"""The targets `advisor ops` can judge a model against, and what each knows per operator.

An ONNX Runtime execution provider answers from its own kernel registry (the kernels compiled into
the installed build). A knowledge-base candidate answers only with what its claims say: they hold no
per-operator tables, so its verdicts are "unknown" and the report quotes its claims about unsupported
operators instead of inventing a support list.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from probes.errors import AdvisorError

if TYPE_CHECKING:
    from advisor.knowledge.models import Candidate

ORT_TARGET_PREFIX = "onnxruntime-"
DEFAULT_TARGET = "onnxruntime-cpu"
# Candidates of the knowledge base that take an ONNX model as input (a parser or converter reads it).
ONNX_CONSUMERS: tuple[str, ...] = ("tensorrt", "openvino", "migraphx", "atc-acl", "cann-builtin")
_UNSUPPORTED_TEXT = re.compile(r"unsupported|(does|do|is) not support", re.IGNORECASE)


class UnknownTargetError(AdvisorError):
    """The --target names nothing this installation can judge; the message lists the allowed names."""


@dataclass(frozen=True)
class KernelRegistry:
    """One execution provider's registered kernels: (domain, op_type) -> since_version ranges."""

    provider: str
    ort_version: str
    ranges: Mapping[tuple[str, str], tuple[tuple[int, int], ...]]

    @property
    def source(self) -> str:
        return f"onnxruntime {self.ort_version} {self.provider} kernel registry"

    def has_kernel(self, domain: str, op_type: str, version: int) -> bool:
        """Whether a kernel is registered for this operator at this (schema since_) version."""
        return any(low <= version <= high for low, high in self.ranges.get((domain, op_type), ()))


@dataclass(frozen=True)
class Target:
    """A resolved --target: an ONNX Runtime kernel registry or a knowledge-base candidate, never both."""

    name: str
    description: str
    registry: KernelRegistry | None = None
    candidate: Candidate | None = None


def ort_target_name(provider: str) -> str:
    """'CPUExecutionProvider' -> 'onnxruntime-cpu', 'CUDAExecutionProvider' -> 'onnxruntime-cuda'."""
    return ORT_TARGET_PREFIX + provider.removesuffix("ExecutionProvider").lower()


@lru_cache(maxsize=1)
def ort_registries() -> tuple[dict[str, KernelRegistry], str | None]:
    """Target name -> kernel registry for each available provider that registers kernels; and why none, if so.

    Providers that compile whole subgraphs (TensorRT, OpenVINO) register no per-operator kernels and
    are not offered here.
    """
    try:
        import onnxruntime
        from onnxruntime.capi import _pybind_state
    except ImportError:
        return {}, "onnxruntime is not installed"
    if not hasattr(_pybind_state, "get_all_opkernel_def"):
        return {}, f"this onnxruntime {onnxruntime.__version__} build does not export its kernel registry"
    try:
        kernel_defs = _pybind_state.get_all_opkernel_def()
    except Exception as error:  # a provider compiled in but unusable here (e.g. CUDA without a driver)
        return {}, f"onnxruntime {onnxruntime.__version__} could not list its kernels ({error})"
    available = set(onnxruntime.get_available_providers())
    by_provider: dict[str, dict[tuple[str, str], list[tuple[int, int]]]] = {}
    for kernel in kernel_defs:
        if kernel.provider in available:
            low, high = kernel.version_range
            key = (kernel.domain, kernel.op_name)
            by_provider.setdefault(kernel.provider, {}).setdefault(key, []).append((low, high))
    registries = {
        ort_target_name(provider): KernelRegistry(
            provider=provider,
            ort_version=onnxruntime.__version__,
            ranges={key: tuple(sorted(set(spans))) for key, spans in kernels.items()},
        )
        for provider, kernels in sorted(by_provider.items())
    }
    return registries, None


def known_targets() -> list[str]:
    """Every --target this installation can judge: ONNX Runtime providers first, then knowledge-base candidates."""
    from advisor.knowledge.loader import load_knowledge_base

    registries, _ = ort_registries()
    known = set(load_knowledge_base().ids())
    return [*registries, *(candidate for candidate in ONNX_CONSUMERS if candidate in known)]


def resolve_target(name: str) -> Target:
    """The target called `name`; UnknownTargetError listing the allowed names otherwise."""
    from advisor.knowledge.loader import load_knowledge_base

    registries, why_none = ort_registries()
    if name in registries:
        registry = registries[name]
        return Target(name=name, description=registry.source, registry=registry)
    allowed = known_targets()
    if name in allowed:
        candidate = load_knowledge_base().get(name)
        return Target(name=name, description=f"knowledge base: {candidate.id} ({candidate.name})", candidate=candidate)
    why = f" ({why_none})" if why_none and name.startswith(ORT_TARGET_PREFIX) else ""
    raise UnknownTargetError(f"unknown target {name!r}{why}; choose one of: {', '.join(allowed)}")


def unsupported_operator_claims(candidate: Candidate) -> list[tuple[str, str]]:
    """(field, text) for each claim value or note of the candidate about operators it does not support."""
    found = []
    for field, claim in candidate.claims().items():
        for text in (str(claim.value), claim.note or ""):
            if "operator" in text.lower() and _UNSUPPORTED_TEXT.search(text):
                found.append((field, text))
                break
    return found

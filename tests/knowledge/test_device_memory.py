"""Device memory on the accelerator families: the capacity check reads `memory_gb`, so each figure must be one that
the device's own spec line (or its note) states, next to the page that states it."""

from __future__ import annotations

import re

import pytest

from advisor.knowledge.loader import load_knowledge_base

ACCELERATORS = (
    "amd-gpu",
    "ascend-npu",
    "aws-neuron",
    "cambricon-mlu",
    "google-tpu",
    "hygon-dcu",
    "iluvatar-gpu",
    "intel-gaudi",
)
# Devices whose memory no reachable page states per device (see the report of the memgb brief and the files' comments).
WITHOUT_MEMORY = {
    ("cambricon-mlu", "mlu370"),
    ("cambricon-mlu", "mlu590"),
    ("iluvatar-gpu", "tiangai-100"),
    ("hygon-dcu", "z100"),
    ("hygon-dcu", "k100"),
    ("ascend-npu", "ascend-310p"),
}


@pytest.fixture(scope="module")
def knowledge():
    return load_knowledge_base()


def _states(text: str, gb: float) -> bool:
    return re.search(rf"(?<![\d.]){gb:g} ?Gi?B\b", text) is not None


@pytest.mark.parametrize("family", ACCELERATORS)
def test_memory_figures_are_stated_by_the_spec_line_or_its_note(knowledge, family):
    for device in knowledge.platform(family).devices:
        if device.memory_gb is None:
            continue
        text = " ".join(filter(None, (device.spec.value, device.spec.note)))
        assert _states(text, device.memory_gb), (family, device.id, device.memory_gb)


@pytest.mark.parametrize("family", ACCELERATORS)
def test_only_the_listed_devices_lack_memory(knowledge, family):
    lacking = {(family, device.id) for device in knowledge.platform(family).devices if device.memory_gb is None}
    assert lacking == {pair for pair in WITHOUT_MEMORY if pair[0] == family}

"""Fixtures of the recommendation tests: the knowledge base and the real CPU evidence of this project's machine."""

from __future__ import annotations

from pathlib import Path

import pytest

from advisor.knowledge.loader import load_knowledge_base
from advisor.knowledge.models import KnowledgeBase
from probes.models import Evidence

# The CPU suite evidence measured on the project's 2-core x86 machine (Xeon with AMX), timing samples
# trimmed to three per case (statistics kept as measured) so the file stays small.
CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"


@pytest.fixture(scope="session")
def knowledge() -> KnowledgeBase:
    return load_knowledge_base()


@pytest.fixture(scope="session")
def cpu_suite() -> Evidence:
    return Evidence.load(CPU_SUITE)

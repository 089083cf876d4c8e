"""The engine names no product and no hardware family in code: those live in advisor/data (platforms, stacks,
candidates and policy.yaml), so a new vendor or runtime is added as data."""

from __future__ import annotations

import ast
from pathlib import Path

from advisor.knowledge.loader import load_knowledge_base

ENGINE = Path(__file__).resolve().parents[2] / "advisor" / "recommendation"


def string_constants(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    }


def test_no_candidate_or_family_id_is_a_string_in_the_engine():
    knowledge = load_knowledge_base()
    named = set(knowledge.ids()) | set(knowledge.families()) | {stack.id for stack in knowledge.stacks}
    found = {(path.name, value) for path in ENGINE.rglob("*.py") for value in string_constants(path) if value in named}
    assert found == set()


def test_the_policy_names_only_known_candidates():
    knowledge = load_knowledge_base()
    assert knowledge.policy.candidate_ids() <= set(knowledge.ids())
    assert (
        knowledge.policy.measured_toolkit("int8_model_speedup_cnn")
        == knowledge.policy.measured_toolkits["int8_model_speedup"]
    )

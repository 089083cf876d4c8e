"""Time of `recommend` for random valid profiles (no evidence, and with the CPU suite as evidence), as ratios
against a reference measured in the same run.

    .venv/bin/python bench/bench_recommend.py [--profiles 1000] [--seed 7]

Reference: validating the same profiles (`Profile.model_validate`), the floor for anything that reads a
profile. The goal the engine keeps: well under 50 ms per profile. The last rows time the vendor reference
(advisor/data/reference/): reading one system's extract cold (once per process) and what looking it up adds to
`recommend` for NVIDIA profiles on a covered device (goal: under 20 ms in all).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import QUANTIZATION_METHODS, QUANTIZATIONS, WORKLOADS, Profile
from advisor.recommendation import reference as reference_module
from advisor.recommendation.engine import recommend
from advisor.reference.tables import load_reference, reference_for
from advisor.vocabulary import TEAM_SKILLS
from probes.models import Evidence
from probes.vocabulary import MODEL_TYPES

CPU_SUITE = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "cpu-suite.json"


def random_profile_data(rng: random.Random, families: tuple[str, ...]) -> dict[str, object]:
    """A valid profile document drawn uniformly from every field's values."""
    hardware = rng.choice(families)
    cross = rng.random() < 0.2
    others = rng.sample([f for f in families if f != hardware], rng.randint(1, 2)) if cross else []
    return {
        "model_type": rng.choice(MODEL_TYPES),
        "hardware": hardware,
        "workload": rng.choice(WORKLOADS),
        "team_skill": rng.choice(TEAM_SKILLS),
        "needs": {
            "dynamic_shapes": rng.random() < 0.5,
            "quantization": rng.choice(QUANTIZATIONS),
            "quantization_method": rng.choice(QUANTIZATION_METHODS),
            "long_context": rng.random() < 0.3,
            "devices": rng.choice((1, 1, 2, 8, 64, 256)),
            "cross_platform": cross,
            "other_hardware": others,
        },
    }


def per_item_ms(action, items) -> float:
    """Median over items of one action's wall time, in milliseconds."""
    times = []
    for item in items:
        started = time.perf_counter()
        action(item)
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--profiles", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    options = parser.parse_args()
    knowledge = load_knowledge_base()
    rng = random.Random(options.seed)
    documents = [random_profile_data(rng, knowledge.families()) for _ in range(options.profiles)]
    profiles = [Profile.model_validate(document) for document in documents]
    evidence = [Evidence.load(CPU_SUITE)]
    started = time.perf_counter()
    reference = per_item_ms(Profile.model_validate, documents)
    bare = per_item_ms(lambda profile: recommend(profile, [], knowledge), profiles)
    with_evidence = per_item_ms(lambda profile: recommend(profile, evidence, knowledge), profiles)
    nvidia = [
        p.model_copy(
            update={
                "hardware": "nvidia-gpu",
                "device": "h200-sxm",
                "needs": p.needs.model_copy(update={"cross_platform": False, "other_hardware": ()}),
            }
        )
        for p in profiles[:200]
    ]

    def cold_load(_: object) -> None:
        load_reference.cache_clear()
        load_reference("h200_sxm")

    cold = per_item_ms(cold_load, range(50))
    with_reference = per_item_ms(lambda profile: recommend(profile, [], knowledge), nvidia)
    reference_module.reference_for = lambda device: None  # the same profiles with no reference to look up
    without_reference = per_item_ms(lambda profile: recommend(profile, [], knowledge), nvidia)
    reference_module.reference_for = reference_for
    total = time.perf_counter() - started
    print(f"{options.profiles} random valid profiles (seed {options.seed}), {total:.1f} s in all")
    print(f"{'step':<40} {'median ms':>10} {'x validate':>11}")
    for name, value in (
        ("validate the profile (reference)", reference),
        ("recommend, no evidence", bare),
        ("recommend, CPU suite as evidence", with_evidence),
        ("read one vendor extract, cold", cold),
        ("recommend on h200-sxm, with the extract", with_reference),
        ("recommend on h200-sxm, no extract", without_reference),
        ("added by the lookup (cached)", max(0.0, with_reference - without_reference)),
    ):
        print(f"{name:<40} {value:10.3f} {value / reference:11.0f}")


if __name__ == "__main__":
    main()

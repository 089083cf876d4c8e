"""Hand-built evidence for the recommendation tests: environments, cases and whole evidence files.

Each builder states the figure a rule reads (a bf16 speedup, a memory-growth exponent, an INT8
speedup, recompilations per 100 requests) and builds the smallest cases that produce it.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import yaml

from advisor.profile import Needs, Profile
from advisor.recommendation.models import Choice, Recommendation, StackOption, SwitchCondition
from probes.environment.models import (
    AcceleratorRuntime,
    CPUInfo,
    Environment,
    GPUInfo,
    ISAFeatures,
    NPUInfo,
    OSInfo,
    PythonInfo,
)
from probes.models import CaseKey, Evidence, HarnessSettings, Measurement, Metric, ProbeCase, ProbeConfig

# The CPU suite measured on the project's 2-core x86 machine, shared with the other test folders.
CPU_SUITE = Path(__file__).resolve().parents[1] / "fixtures" / "cpu-suite.json"

WHEN = datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc)

# a vision model fine-tuned on eight Iluvatar BI-V150 cards, as a team files it (vision models are `cnn` here); the
# review tests add the model
VISION_FINE_TUNE = {
    "model_type": "cnn",
    "hardware": "iluvatar-gpu",
    "device": "tiangai-150",
    "workload": "training",
    "training": "fine-tuning",
    "team_skill": "framework",
    "needs": {"devices": 8},
}


def environment(family: str = "x86-cpu") -> Environment:
    """A machine of one family: x86-cpu, arm-cpu, nvidia-gpu (x86 host + H100) or ascend-npu (arm host + 910B)."""
    machine = "aarch64" if family in ("arm-cpu", "ascend-npu") else "x86_64"
    h100 = GPUInfo(index=0, name="NVIDIA H100", vendor="nvidia", compute_capability="9.0")
    gpus = [h100] if family == "nvidia-gpu" else []
    npu = NPUInfo(devices=["Ascend910B"]) if family == "ascend-npu" else None
    return Environment(
        captured_at=WHEN,
        advisor_version="0.1.0",
        hostname_hash="0123456789abcdef",
        os=OSInfo(system="Linux", kernel="6.0", machine=machine),
        python=PythonInfo(version="3.11.7", implementation="CPython"),
        cpu=CPUInfo(architecture=machine, isa=ISAFeatures(source="none")),
        accelerators=AcceleratorRuntime(gpus=gpus, gpu_source="nvidia-smi" if gpus else "none"),
        npu=npu,
    )


def timing(median: float, noisy: bool = False) -> Measurement:
    """Five samples around `median`: tight, or spread to IQR/median 0.4 (noisy)."""
    spread = (0.5, 0.8, 1.0, 1.2, 1.5) if noisy else (1.0, 1.0, 1.0, 1.0, 1.0)
    samples = [median * factor for factor in spread]
    return Measurement.from_samples(samples, stop_reason="converged", warmup_calls=1)


def case(
    probe: str,
    implementation: str,
    dtype: str,
    shape: dict[str, int],
    median: float | None = None,
    *,
    device: str = "cpu",
    baseline: bool = False,
    metrics: dict[str, float] | None = None,
    status: str | None = None,
    noisy: bool = False,
    **options: object,
) -> ProbeCase:
    """One case; timed when `median` is given, ok unless `status` says otherwise."""
    key = CaseKey(probe=probe, implementation=implementation, dtype=dtype, shape=shape, device=device, options=options)
    return ProbeCase(
        key=key,
        status=status or ("ok" if median is not None else "not-timed"),
        timing=timing(median, noisy) if median is not None else None,
        baseline=baseline,
        metrics={name: Metric(value=value, unit="") for name, value in (metrics or {}).items()},
    )


def evidence(cases: list[ProbeCase], family: str = "x86-cpu", busy: bool = False) -> Evidence:
    """An evidence file from a machine of `family` holding `cases`."""
    from probes.models import HostContention

    devices = sorted({c.key.device for c in cases}) or ["cpu"]
    config = ProbeConfig(
        budget_s=60.0,
        device_requested="auto",
        device=devices[0],
        probes=sorted({c.key.probe for c in cases}),
        settings=HarnessSettings(),
    )
    share = 0.5 if busy else 0.0
    contention = HostContention(other_cpu_share=share, load_average_before=0.1, logical_cores=2, busy=busy)
    return Evidence(
        environment=environment(family),
        config=config,
        started_at=WHEN,
        finished_at=WHEN,
        host_contention=contention,
        cases=cases,
    )


def gemm_cases(bf16_speedup: float, device: str = "cpu", triton_ratio: float | None = None) -> list[ProbeCase]:
    """torch.matmul fp32 and bf16 on two shapes, bf16 `bf16_speedup` times faster; Triton `triton_ratio` x vendor."""
    cases = []
    for m, kind in ((16, "decode"), (1024, "prefill")):
        shape = {"m": m, "n": 256, "k": 256}
        for dtype, median in (("fp32", 1e-3), ("bf16", 1e-3 / bf16_speedup)):
            cases.append(case("gemm", "torch.matmul", dtype, shape, median, device=device, baseline=True, kind=kind))
        if triton_ratio is not None:
            median = 1e-3 / triton_ratio
            cases.append(case("gemm", "triton.matmul-64x64x32-w4-s3", "fp32", shape, median, device=device, kind=kind))
    return cases


def attention_cases(growth: dict[str, float], device: str = "cpu") -> list[ProbeCase]:
    """Each implementation's scratch memory growing as seq**exponent over three sequence lengths."""
    cases = []
    for implementation, exponent in growth.items():
        for seq in (256, 512, 1024):
            shape = {"batch": 1, "heads": 2, "seq": seq, "head_dim": 64}
            metrics = {"attn_extra_bytes": 100.0 * seq**exponent}
            cases.append(
                case("attention", implementation, "fp32", shape, 1e-4, device=device, metrics=metrics, causal=False)
            )
    return cases


def int8_cases(
    layer_speedup: float, max_rel_error: float = 0.005, device: str = "cpu", qdq: bool = False
) -> list[ProbeCase]:
    """An MLP through torchao INT8 `layer_speedup` times faster than fp32 nn.Linear, with its error; qdq studies."""
    shape = {"tokens": 256, "d_model": 256, "d_hidden": 1024}
    cases = [
        case("int8", "torch.nn.Linear", "fp32", shape, 1e-3, device=device, baseline=True, op="mlp"),
        case(
            "int8",
            "torchao.int8_weight_only",
            "int8",
            shape,
            1e-3 / layer_speedup,
            device=device,
            metrics={"max_rel_error": max_rel_error},
            op="mlp",
            float_dtype="fp32",
        ),
    ]
    if qdq:
        studies = {
            "qdq.per-tensor": 0.36,
            "qdq.per-channel": 0.007,
            "qdq.layernorm-input": 0.23,
            "qdq.layernorm-output": 0.03,
        }
        for implementation, error in studies.items():
            cases.append(
                case(
                    "int8",
                    implementation,
                    "int8",
                    {"rows": 8, "cols": 8},
                    1e-4,
                    device=device,
                    metrics={"rel_rmse": error},
                    op="qdq",
                )
            )
    return cases


def dynamic_cases(
    static_per_100: float,
    dynamic_total: float = 2.0,
    bucketed_total: float = 1.0,
    padding: float = 20.0,
    limit_hit: bool = False,
    device: str = "cpu",
) -> list[ProbeCase]:
    """One request stream played by eager, static, dynamic and bucketed compilation."""
    shape = {"width": 32, "heads": 2, "max_batch": 2, "max_len": 64}
    rate = "recompiles_per_100_requests"
    figures = {
        "eager": {"total_s": 0.5, rate: 0.0},
        "compile.static": {"total_s": 3.0, rate: static_per_100, "recompile_limit_hit": float(limit_hit)},
        "compile.dynamic": {"total_s": dynamic_total, rate: 2.0},
        "compile.bucketed": {"total_s": bucketed_total, rate: 2.0, "padding_waste_pct": padding},
    }
    return [
        case("dynamic", name, "fp32", shape, 1e-4, device=device, metrics=metrics, requests=48)
        for name, metrics in figures.items()
    ]


def profile(**fields: object) -> Profile:
    """A profile: dense-transformer inference on nvidia-gpu by a framework team unless told otherwise."""
    needs = fields.pop("needs", {})
    base: dict[str, object] = {
        "model_type": "dense-transformer",
        "hardware": "nvidia-gpu",
        "workload": "inference",
        "team_skill": "framework",
    }
    base.update(fields)
    return Profile(**base, needs=Needs(**needs))  # type: ignore[arg-type]


def rule_context(chosen: Profile, *evidence_files: Evidence):
    """The RuleContext the rules see for a profile and evidence files, with the built-in knowledge base and
    the stack plan (runtime, training framework) the engine makes first."""
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.recommendation.context import RuleContext
    from advisor.recommendation.facts import evidence_facts
    from advisor.recommendation.stack import plan_stack

    facts = evidence_facts(list(evidence_files), chosen.hardware)
    return plan_stack(RuleContext(profile=chosen, knowledge=load_knowledge_base(), facts=facts))


def steady(evidence: Evidence, probe: str) -> Evidence:
    """The evidence with each timed case of `probe` read as 20 samples at its median: a run whose samples settle
    every ratio, so that the decision follows the medians (the committed run's 5 samples a case settle none)."""
    cases = []
    for item in evidence.cases:
        if item.key.probe == probe and item.timing is not None:
            samples = [item.timing.stats.median] * 20
            item = item.model_copy(update={"timing": item.timing.model_copy(update={"samples": samples})})
        cases.append(item)
    return evidence.model_copy(update={"cases": cases})


def answer_for(**fields: object) -> Recommendation:
    """The engine's answer for a profile given as its YAML fields (a framework team unless told otherwise), from the
    built-in knowledge base, with no evidence."""
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend

    return recommend(parse_profile(yaml.safe_dump({"team_skill": "framework", **fields})), [], load_knowledge_base())


def answer_without(stacks: set[str], **fields: object) -> Recommendation:
    """answer_for with a knowledge base that lacks the named stacks: the engine's behaviour where no such route is
    documented (a superseded stack where no current engine serves the model)."""
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend

    full = load_knowledge_base()
    knowledge = full.model_copy(update={"stacks": tuple(s for s in full.stacks if s.id not in stacks)})
    return recommend(parse_profile(yaml.safe_dump({"team_skill": "framework", **fields})), [], knowledge)


def choice(recommendation: Recommendation, concern: str, tier: int = 1) -> Choice:
    """The tier's choice for the concern (the first, as the record lists them)."""
    return next(c for c in recommendation.tier(tier).choices if c.concern == concern)


def chosen_stack(result: Recommendation, workload: str = "inference") -> str:
    """The id of the stack chosen for the workload."""
    return next(row.stack for row in result.stacks_considered if row.chosen and row.workload == workload)


def considered(result: Recommendation, stack: str) -> StackOption:
    """The considered-stacks row of one stack."""
    return next(row for row in result.stacks_considered if row.stack == stack)


def list_switch_holds(condition: SwitchCondition, asked: Profile, added: str) -> tuple[bool | None, bool | None]:
    """Whether a knowledge switch on a listed value (a release list, a recipe's models) holds as the record was written,
    and once `added` joins the list: (today, after)."""
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.recommendation.facts import EvidenceFacts
    from advisor.recommendation.switches import condition_holds, observed_values

    observed = observed_values(asked, EvidenceFacts(target=asked.hardware), load_knowledge_base())
    grown = {**observed, condition.metric: f"{condition.threshold}, {added}"}
    return condition_holds(condition, observed), condition_holds(condition, grown)

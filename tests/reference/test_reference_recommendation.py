"""Reference evidence in a recommendation and its record: labelled, capped, never deciding on its own."""

from __future__ import annotations

import datetime as dt

import yaml

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import parse_profile
from advisor.recommendation.engine import recommend
from advisor.recommendation.models import Recommendation
from advisor.recommendation.policy import REFERENCE_CAP
from advisor.recommendation.summary import summary_lines
from advisor.records.decision import build_front_matter
from advisor.records.render import render_record
from advisor.reference.facts import as_fast

H200_FP8 = {
    "model_type": "dense-transformer",
    "hardware": "nvidia-gpu",
    "device": "h200-sxm",
    "workload": "inference",
    "team_skill": "framework",
    "needs": {"quantization": "fp8", "devices": 8, "long_context": True},
}
LABEL = "measured by NVIDIA on NVIDIA H200, aiconfigurator-core 0.12.0, "


def answer(fields: dict[str, object]) -> Recommendation:
    return recommend(parse_profile(yaml.safe_dump(fields)), [], load_knowledge_base())


def test_an_h200_fp8_record_quotes_nvidias_figures_with_their_label():
    result = answer(H200_FP8)
    names = {figure.name for figure in result.reference}
    assert {"fp8_over_bf16_gemm", "context_attention_growth", "fp8_kv_decode_speedup", "allreduce_busbw_gbps"} <= names
    assert all(figure.label.startswith(LABEL) for figure in result.reference)
    text = "\n".join(summary_lines(result))
    assert "Reference: NVIDIA's own measurements on h200-sxm" in text and f"({LABEL}TensorRT-LLM " in text
    front = build_front_matter(1, "70B FP8 on 8x H200", result, [], None, ["Ann"], dt.date(2026, 12, 4))
    record = render_record(front, result, [])
    gemm = next(figure for figure in result.reference if figure.name == "fp8_over_bf16_gemm")
    assert gemm.figure in record and LABEL in record


def test_reference_raises_the_confidence_only_up_to_its_cap_and_moves_no_choice(monkeypatch):
    with_reference = answer(H200_FP8)
    assert with_reference.confidence <= REFERENCE_CAP
    assert any("NVIDIA's own measurements on this device" in note for note in with_reference.confidence_notes)
    monkeypatch.setattr("advisor.recommendation.reference.reference_for", lambda device: None)
    without = answer(H200_FP8)
    assert without.reference == () and without.confidence < with_reference.confidence

    def decided(result):  # what each tier chooses, apart from the reasons quoted for it
        return [
            [(c.concern, c.option, c.settings) for c in tier.choices] + [g.concern for g in tier.gaps]
            for tier in result.tiers
        ]

    assert decided(without) == decided(with_reference) and without.rejected == with_reference.rejected
    quoted = [r for c in with_reference.tier(1).choices for r in c.rationale if r.cites[0].kind == "reference"]
    assert quoted and all(r.text.startswith("NVIDIA measured on this device: ") for r in quoted)
    assert without.switch_conditions == with_reference.switch_conditions


def test_only_the_figures_the_profile_weighs_are_quoted():
    bf16_single = answer({**H200_FP8, "needs": {"devices": 1}})
    assert not bf16_single.reference


def test_a_non_nvidia_record_says_no_vendor_reference_exists_and_nothing_else_changes():
    result = answer({**H200_FP8, "hardware": "amd-gpu", "device": "mi300x"})
    assert result.reference == () and result.reference_note is not None
    assert result.reference_note.startswith("no vendor reference exists for mi300x")
    assert not any("own measurements on this device" in note for note in result.confidence_notes)
    front = build_front_matter(1, "70B FP8 on 8x MI300X", result, [], None, ["Ann"], dt.date(2026, 12, 4))
    assert "Reference: no vendor reference exists for mi300x" in render_record(front, result, [])


def test_a_profile_no_reference_figure_bears_on_prints_no_empty_reference():
    diffusion = answer({**H200_FP8, "model_type": "diffusion", "device": "l40s", "needs": {"quantization": "int8"}})
    assert diffusion.reference == () and diffusion.reference_note is None
    assert not any(line.startswith("Reference:") for line in summary_lines(diffusion))


def test_each_speed_ratio_says_which_way_it_points():
    # Review 27: "fp8 GEMM runs 0.75x bf16 in decode" and "runs 1.83x the bf16 one" left the reader guessing whether
    # the fp8 path was faster or slower; a ratio below one is now spelled out as the extra time it costs.
    assert as_fast(1.83, "bf16") == "1.83x as fast as bf16"
    assert as_fast(0.75, "bf16") == "0.75x as fast as bf16 (slower: 1.33x the time)"
    assert as_fast(0.998, "bf16") == "1.00x as fast as bf16"
    b200 = answer({**H200_FP8, "device": "b200"})
    figures = {figure.name: figure.figure for figure in b200.reference}
    assert " as fast as bf16 in prefill" in figures["fp8_over_bf16_gemm"]
    assert "slower:" in figures["fp8_over_bf16_gemm"]  # NVIDIA's B200 decode GEMMs: fp8 measured behind bf16
    assert (
        "an fp8 KV cache is " in figures["fp8_kv_decode_speedup"]
        and " as fast as with a bf16 one" in figures["fp8_kv_decode_speedup"]
    )

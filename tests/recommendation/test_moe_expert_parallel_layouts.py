"""An MoE serving stack that writes data-parallel attention in words (AMD's vLLM guide: --data-parallel-size with
--enable-expert-parallel) gets the same measured layout switch as SGLang's --enable-dp-attention, and a stack that sets
its engine's own expert all-to-all backend keeps it instead of a library it never names."""

from __future__ import annotations

from recommendation_builders import answer_for as answer

from advisor.recommendation.models import Recommendation


def qwen3_on_mi300x(**needs: object) -> Recommendation:
    return answer(
        model_type="moe",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        model="Qwen/Qwen3-235B-A22B",
        needs={"quantization": "fp8", "devices": 8, **needs},
    )


def test_a_dp_attention_layout_written_in_words_is_a_measured_switch():
    # https://rocm.docs.amd.com/projects/ai-ecosystem/en/latest/optimization/vllm-v1-optimization.html: TP8 + EP up to
    # about 128 concurrent requests, DP8 + EP (DP attention) from about 512
    result = qwen3_on_mi300x()
    assert result.stacks[0].stack == "amd-vllm-moe-ep-mi300x"
    condition = next(c for c in result.switch_conditions if c.id == "dp-attention-layout")
    assert "--data-parallel-size 8 --enable-expert-parallel" in condition.description
    assert condition.metric == "evidence.inference_throughput.dp_attention_over_tensor_parallel"


def test_a_dense_model_on_the_same_gpus_gets_no_dp_attention_switch():
    # AMD's guide keeps dense models on TP (or independent replicas): the MoE stack does not answer them
    result = answer(
        model_type="dense-transformer",
        hardware="amd-gpu",
        device="mi300x",
        workload="inference",
        needs={"quantization": "fp8", "devices": 8},
    )
    assert "dp-attention-layout" not in {c.id for c in result.switch_conditions}


def test_the_stacks_own_all_to_all_backend_is_kept_over_an_unnamed_library():
    # the same page: VLLM_ALL2ALL_BACKEND=allgather_reducescatter with data parallelism on ROCm; MoRI is not named there
    collectives = next(c for c in qwen3_on_mi300x().tiers[0].choices if c.concern == "collectives")
    assert "expert-all-to-all" not in collectives.settings
    assert any("is not the expert all-to-all" in r.text for r in collectives.rationale)

"""The serving task: an embedding model is served by stacks that serve embeddings, with no KV cache, decode-step
switches or chat endpoints; the task is stated in the profile or assumed from a well-known embedding model's name."""

from __future__ import annotations

import pytest
import yaml
from recommendation_builders import answer_for

from advisor.knowledge.loader import load_knowledge_base
from advisor.profile import ProfileError, parse_profile
from advisor.serving_task import embedding_model, serving_task

XEON = {"model_type": "dense-transformer", "hardware": "x86-cpu", "device": "xeon-6-granite-rapids"}
BGE_INT8 = {**XEON, "workload": "inference", "model": "BAAI/bge-large-en-v1.5", "parameters_b": 0.335}


def _profile(**fields: object):
    return parse_profile(yaml.safe_dump({"team_skill": "framework", "workload": "inference", **fields}))


@pytest.mark.parametrize(
    "model",
    [
        "BAAI/bge-large-en-v1.5",
        "intfloat/multilingual-e5-large",
        "thenlper/gte-small",
        "Alibaba-NLP/gte-large-en-v1.5",
        "sentence-transformers/all-mpnet-base-v2",
        "nomic-ai/nomic-embed-text-v1.5",
        "mixedbread-ai/mxbai-embed-large-v1",
        "jinaai/jina-embeddings-v3",
        "Qwen/Qwen3-Embedding-0.6B",
    ],
)
def test_well_known_embedding_models_are_recognised(model):
    assert embedding_model(model)
    assert serving_task(None, model) == ("embedding", True)


@pytest.mark.parametrize("model", ["Qwen/Qwen3-32B", "meta-llama/Meta-Llama-3.1-70B", "embedded-org/Llama-3-8B"])
def test_generating_models_are_not(model):
    assert not embedding_model(model)
    assert serving_task(None, model) == ("generation", False)


@pytest.mark.parametrize(
    "model",
    [
        "BAAI/bge-reranker-large",
        "BAAI/bge-reranker-v2-m3",
        "Qwen/Qwen3-Reranker-0.6B",
        "cross-encoder/ms-marco-MiniLM-L6-v2",
    ],
)
def test_rerankers_are_no_embedding_model_but_take_the_embedding_task(model):
    # Reviews 93 p14 and 94 p07: bge-reranker-v2-m3 was planned as a chat LLM (OVMS text_generation, vLLM TP 4)
    assert not embedding_model(model)
    assert serving_task(None, model) == ("embedding", True)


def test_a_stated_task_overrides_the_name():
    profile = _profile(**XEON, model="BAAI/bge-large-en-v1.5", task="generation")
    assert profile.serving_task == "generation" and not profile.task_assumed and profile.llm


def test_task_is_validated_with_its_allowed_values():
    with pytest.raises(
        ProfileError, match=r"^profile: task: 'rerank' is not one of generation, embedding, transcription$"
    ):
        _profile(**XEON, task="rerank")


def test_embedding_is_read_only_for_a_served_dense_transformer():
    with pytest.raises(
        ProfileError, match=r"^profile: task: 'embedding' is read only with model_type dense-transformer"
    ):
        _profile(model_type="moe", hardware="x86-cpu", task="embedding")
    with pytest.raises(ProfileError, match="workload inference"):
        _profile(**XEON, task="embedding", workload="training")


def test_an_embedding_model_gets_only_embedding_stacks_and_the_assumption_is_stated():
    answer = answer_for(**BGE_INT8, needs={"quantization": "int8"})
    knowledge = load_knowledge_base()
    considered = [knowledge.stack(option.stack) for option in answer.stacks_considered]
    assert considered and all(stack.serves_task("embedding") for stack in considered)
    assert answer.stacks[0].stack == "x86-openvino-ovms-embeddings"
    assert "assumed from the model name BAAI/bge-large-en-v1.5" in (answer.verdict or "")
    assert "task: generation" in (answer.verdict or "")


def test_a_generating_model_never_gets_an_embedding_only_stack():
    knowledge = load_knowledge_base()
    for hardware, model in (("x86-cpu", "Qwen/Qwen3-8B"), ("nvidia-gpu", "Qwen/Qwen3-32B"), ("arm-cpu", None)):
        fields = {"model_type": "dense-transformer", "hardware": hardware, "workload": "inference"}
        answer = answer_for(**fields, **({"model": model} if model else {}))
        stacks = [knowledge.stack(option.stack) for option in answer.stacks_considered]
        assert not [s.id for s in stacks if not s.serves_task("generation")], hardware


H100 = {"model_type": "dense-transformer", "hardware": "nvidia-gpu", "device": "h100-sxm", "workload": "inference"}


def test_embedding_capacity_keeps_no_kv_cache():
    answer = answer_for(**H100, model="Qwen/Qwen3-Embedding-0.6B", parameters_b=0.6)
    capacity = " ".join(line.text for line in answer.capacity)
    assert "keeps no KV cache" in capacity and "for the KV cache" not in capacity
    assert not [f for f in answer.reference if "kv" in f.name or "decode" in f.name]
    assert answer.stacks[0].stack == "nvidia-tei-cuda"


def test_embedding_parts_name_no_kv_cache():
    answer = answer_for(**BGE_INT8, needs={"quantization": "int8"})
    settings = " ".join(value for choice in answer.tier(1).choices for value in choice.settings.values())
    assert "kv" not in settings.lower()


def test_a_generation_profile_still_sizes_its_kv_cache():
    answer = answer_for(**H100, model="Qwen/Qwen3-8B", parameters_b=8)
    assert "for the KV cache" in " ".join(line.text for line in answer.capacity)


def test_decode_risks_of_a_stack_serving_both_tasks_are_not_an_embedding_models():
    from advisor.recommendation.stack_choice import risk_concerns

    risk = "The paged KV cache needs sizing for the longest decode."
    assert risk_concerns(risk, "dense-transformer") and not risk_concerns(risk, "dense-transformer", embeds=True)


CROSS_CPU = {"cross_platform": True, "other_hardware": ["arm-cpu"], "other_devices": ["graviton4"]}


ORT_EMBEDDINGS = (
    "x86-onnxruntime-sentence-transformers-int8-embeddings",
    "arm-onnxruntime-sentence-transformers-int8-embeddings",
)


def test_cross_platform_int8_embedding_tier3_is_onnx_runtime_documented_for_int8_embeddings_on_each_family():
    # Review p14: Sentence Transformers documents dynamic INT8 ONNX models for x86 (avx512_vnni) and Arm (arm64), so
    # tier 3 keeps INT8 on both families through ONNX Runtime instead of serving TEI's float model.
    answer = answer_for(**BGE_INT8, needs={"quantization": "int8", "quantization_method": "ptq", **CROSS_CPU})
    tier3 = answer.tier(3)
    assert tier3.options().get("deployment") == tier3.options().get("quantization") == "onnxruntime"
    deployment = next(c for c in tier3.choices if c.concern == "deployment")
    documented = next(r for r in deployment.rationale if r.text.startswith("documented for embedding models"))
    assert {c.ref for c in documented.cites} == {f"{stack}.summary" for stack in ORT_EMBEDDINGS}
    quantization = next(c for c in tier3.choices if c.concern == "quantization")
    text = quantization.rationale[0].text
    assert 'x86-cpu: export_dynamic_quantized_onnx_model(model, quantization_config="avx512_vnni"' in text
    assert 'arm-cpu: export_dynamic_quantized_onnx_model(model, quantization_config="arm64"' in text
    assert "one int8 model per family" in text
    assert not any(g.concern == "quantization" for g in tier3.gaps)
    assert any("dynamic INT8 (arm64)" in note.text for note in tier3.notes)


def test_cross_platform_embedding_tier3_is_the_runtime_documented_for_embeddings_on_each_family():
    # Without a documented INT8 embedding route on both families, TEI (documented for embeddings on each) serves the
    # float model and INT8 stays per family.
    knowledge = load_knowledge_base()
    knowledge = knowledge.model_copy(
        update={"stacks": tuple(s for s in knowledge.stacks if s.id not in ORT_EMBEDDINGS)}
    )
    from advisor.recommendation.engine import recommend

    profile = _profile(**BGE_INT8, needs={"quantization": "int8", "quantization_method": "ptq", **CROSS_CPU})
    answer = recommend(profile, [], knowledge)
    tier3 = answer.tier(3)
    assert tier3.options().get("deployment") == "text-embeddings-inference"
    assert "vllm" not in tier3.options().values()
    deployment = next(c for c in tier3.choices if c.concern == "deployment")
    documented = next(r for r in deployment.rationale if r.text.startswith("documented for embedding models"))
    assert {c.ref for c in documented.cites} == {"x86-tei-cpu.summary", "arm-tei-cpu-graviton.summary"}
    # TEI serves float16/float32 only: tier 3 serves the float model, and INT8 stays per family
    gap = next(g for g in tier3.gaps if g.concern == "quantization")
    assert "serves the model unquantized on every family" in gap.rationale[0].text
    assert "arm-cpu: no int8 stack documented" in gap.rationale[0].text
    assert any("Arm64 CPUs (Graviton) (in fp32: no int8 path is documented there)" in note.text for note in tier3.notes)


def test_a_generating_model_never_gets_the_embeddings_server():
    knowledge = load_knowledge_base()
    assert not knowledge.get("text-embeddings-inference").serves_task("generation")
    answer = answer_for(**XEON, workload="inference", needs={"quantization": "int8", **CROSS_CPU})
    for tier in answer.tiers:
        assert "text-embeddings-inference" not in tier.options().values(), tier.tier
    assert answer.tier(3).options().get("deployment") == "vllm"


def test_tei_stacks_name_their_runner_in_the_knowledge_base():
    from advisor.recommendation.stack_choice import choose_stacks

    knowledge = load_knowledge_base()
    for stack in ("x86-tei-cpu", "arm-tei-cpu-graviton", "nvidia-tei-cuda", "gaudi-tei-hpu"):
        runner = knowledge.stack(stack).runner
        assert runner is not None and runner.candidate == "text-embeddings-inference", stack
    profile = _profile(
        model_type="dense-transformer", hardware="arm-cpu", device="graviton4", model="BAAI/bge-large-en-v1.5"
    )
    chosen = choose_stacks(profile, knowledge).chosen
    assert chosen[0].stack.id == "arm-tei-cpu-graviton" and not chosen[0].misfits


def test_an_embedding_model_without_a_documented_runtime_is_served_by_the_family_engine_to_probe_first():
    # review 24 p08, reviews 49/50/55: bge-m3 on a Hygon K100_AI, where no embedding stack or runtime is documented.
    # Leaving deployment open gave the team nothing to run: tier 1 names the family's serving engine whose own docs
    # cover embedding models, says that no page runs one with it there and what to fall back on, the engine's
    # attention, fusion and dynamic-shape handling follow it, and the confidence says why it is lower
    answer = answer_for(
        model_type="dense-transformer",
        hardware="hygon-dcu",
        device="k100-ai",
        workload="inference",
        model="BAAI/bge-m3",
    )
    options = answer.tier(1).options()
    assert options["deployment"] == "vllm" and options["attention"] == "vllm"
    assert not answer.tier(1).gaps
    deployment = next(c for c in answer.tier(1).choices if c.concern == "deployment")
    watch = next(r for r in deployment.rationale if r.text.startswith("watch: vLLM is documented on"))
    assert "no page found runs an embedding model with it on hygon-dcu" in watch.text
    assert "Sentence Transformers" in watch.text
    assert {c.ref for c in watch.cites} == {"hygon-dcu.serving_engines", "vllm.tasks"}
    assert any("untested" in note and "by a fifth" in note for note in answer.confidence_notes)
    assert "tier 1 assembles vllm (deployment, attention" in (answer.verdict or "")
    # the same engine, documented for embeddings on the family (OVMS on a Xeon), carries no such caveat
    xeon = answer_for(**XEON, workload="inference", model="BAAI/bge-m3")
    assert not any("untested" in note for note in xeon.confidence_notes)


def test_a_generating_model_gets_no_embedding_probe_line():
    from advisor.knowledge.loader import load_knowledge_base as load

    assert load().get("vllm").serves_task("embedding") and load().get("vllm").serves_task("generation")
    answer = answer_for(**XEON, workload="inference", model="Qwen/Qwen3-8B")
    for gap in answer.tier(1).gaps:
        assert not any("embedding" in r.text for r in gap.rationale)


def test_tier3_names_per_family_quantizer_settings_only_where_each_family_documents_a_different_one():
    from advisor.recommendation.context import RuleContext
    from advisor.recommendation.facts import evidence_facts
    from advisor.recommendation.tier3 import documented_quantizer_settings

    knowledge = load_knowledge_base()
    profile = _profile(**BGE_INT8, needs={"quantization": "int8", "quantization_method": "ptq", **CROSS_CPU})
    runtime, facts = knowledge.get("onnxruntime"), evidence_facts([], profile.hardware)
    both = documented_quantizer_settings(runtime, RuleContext(profile=profile, knowledge=knowledge, facts=facts))
    assert [stack.id for stack, _ in both] == list(ORT_EMBEDDINGS)
    x86_only = knowledge.model_copy(update={"stacks": tuple(s for s in knowledge.stacks if s.id != ORT_EMBEDDINGS[1])})
    assert documented_quantizer_settings(runtime, RuleContext(profile=profile, knowledge=x86_only, facts=facts)) == []

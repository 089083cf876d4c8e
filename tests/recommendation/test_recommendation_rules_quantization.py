"""Quantization rules: dtype and method support, INT8 measured slower rejects INT8, accuracy, granularity, LayerNorm."""

from __future__ import annotations

from recommendation_builders import case, evidence, int8_cases, profile, rule_context

from advisor.recommendation.facts import evidence_facts
from advisor.recommendation.rules.quantization import (
    accuracy_line,
    decide_quantization,
    granularity_line,
    int8_measured_slower,
    int8_pays_switch,
    int8_speed_line,
    layernorm_line,
    linear_only_note,
)

INT8_PTQ = {"quantization": "int8", "quantization_method": "ptq"}


def _facts(*cases, target="nvidia-gpu", family="nvidia-gpu"):
    return evidence_facts([evidence(list(cases), family)], target)


DENSE = profile()
CNN = profile(model_type="cnn")


def test_int8_measured_slower_only_counts_the_target():
    assert int8_measured_slower(_facts(*int8_cases(0.6, device="cuda")), DENSE).value == 0.6
    assert int8_measured_slower(_facts(*int8_cases(1.2, device="cuda")), DENSE) is None
    assert int8_measured_slower(_facts(*int8_cases(0.6), family="x86-cpu"), DENSE) is None  # proxy speed never decides


def test_a_cnn_is_not_judged_by_int8_linear_layers():
    facts = _facts(*int8_cases(0.6, device="cuda"))
    assert int8_measured_slower(facts, CNN) is None
    note = linear_only_note(facts, CNN)
    assert note is not None and "set aside for a cnn" in note.text
    assert linear_only_note(facts, DENSE) is None


def test_int8_speed_line():
    assert "pays" in int8_speed_line(_facts(*int8_cases(2.0, device="cuda")), DENSE).text
    assert "modest gain" in int8_speed_line(_facts(*int8_cases(1.2, device="cuda")), DENSE).text
    assert int8_speed_line(_facts(*int8_cases(0.6, device="cuda")), DENSE) is None


def test_accuracy_line():
    assert "validate accuracy" in accuracy_line(_facts(*int8_cases(2.0, 0.03, device="cuda"))).text
    assert accuracy_line(_facts(*int8_cases(2.0, 0.004, device="cuda"))).text.endswith("<= 1%")
    assert accuracy_line(_facts()) is None
    shape = {"batch": 1, "image": 64}
    model = [
        case("int8", "onnxruntime", "fp32", shape, 2.0, baseline=True, op="model", model="cnn", size="small"),
        case(
            "int8",
            "onnxruntime.static-qdq",
            "int8",
            shape,
            1.0,
            metrics={"max_rel_error": 0.2},
            op="model",
            model="cnn",
            size="small",
            float_dtype="fp32",
        ),
    ]
    whole = evidence_facts([evidence(model, "x86-cpu")], "x86-cpu")
    assert whole.usable("int8_model_speedup_cnn").value == 2.0
    line = accuracy_line(whole, CNN)  # the whole CNN's error, not a layer's, judges a CNN
    assert "ORT int8 cnn model max relative error 20.00%" in line.text and "validate accuracy" in line.text
    assert accuracy_line(whole, DENSE) is None


def test_layernorm_stays_float_from_evidence_or_the_knowledge_base(knowledge):
    modelopt = knowledge.get("modelopt")
    measured = layernorm_line(_facts(*int8_cases(1.0, qdq=True), family="x86-cpu"), modelopt, DENSE)
    assert measured.text.startswith("proxy evidence (x86-cpu): quantizing LayerNorm's input measured")
    fallback = layernorm_line(_facts(), modelopt, DENSE)
    assert fallback.text.startswith("keep LayerNorm in float") and fallback.cites[0].ref.startswith("modelopt.risks")
    own = layernorm_line(_facts(), knowledge.get("msmodelslim"), DENSE)
    assert own.cites[0].ref.startswith("msmodelslim.risks")  # each toolkit's own warning, never another platform's
    assert layernorm_line(_facts(), modelopt, CNN) is None  # a CNN's norms fold into its convolutions


def test_granularity_line():
    line = granularity_line(_facts(*int8_cases(1.0, qdq=True, device="cuda")))
    assert line.text.endswith("quantize weights per channel") and len(line.cites) == 2
    assert granularity_line(_facts()) is None


def test_int8_pays_switch_is_a_compound_predicate():
    condition = int8_pays_switch("reconsider")
    assert (condition.metric, condition.op, condition.threshold) == ("evidence.int8_speedup", ">=", 1.5)
    assert [(p.metric, p.op, p.threshold) for p in condition.also] == [("evidence.int8_max_rel_error", "<=", 0.01)]


def test_decide_quantization_skips_without_a_need():
    serving = decide_quantization(rule_context(profile(model_type="cnn")))
    assert serving.skipped is not None and [s.id for s in serving.switch_conditions] == ["int8-pays-on-target"]
    llm = decide_quantization(rule_context(profile()))  # an LLM's quantized serving is no INT8 GEMM probe's call
    assert llm.skipped is not None and llm.switch_conditions == ()
    training = decide_quantization(rule_context(profile(workload="training")))
    assert training.switch_conditions == ()


def test_decide_quantization_by_method_and_hardware():
    ptq = decide_quantization(rule_context(profile(needs=INT8_PTQ)))  # served by vLLM (full W8A8 INT8)
    assert ptq.tier1.option == "modelopt" and ptq.tier1.settings["layernorm"] == "float"
    assert ptq.tier1.alternatives[0] == "torchao"
    # TensorRT quantizes for itself, not for vLLM: out of the race, and no rejected option a team weighs
    assert "tensorrt" not in {r.option for r in ptq.rejections} and ptq.tier1.option != "tensorrt"
    assert ptq.switch_conditions == ()  # the probe times torchao's path, not ModelOpt's
    int8_qat = {"quantization": "int8", "quantization_method": "qat"}
    qat = decide_quantization(rule_context(profile(workload="training", needs=int8_qat)))
    assert qat.tier1.option == "modelopt" and "tensorrt" in {
        r.option for r in qat.rejections
    }  # no runtime: it does not train
    cpu = decide_quantization(rule_context(profile(hardware="x86-cpu", needs=INT8_PTQ)))
    assert cpu.tier1.option == "openvino" and "torchao" in {r.option for r in cpu.rejections}
    assert "onnxruntime" not in {r.option for r in cpu.rejections}  # another runtime: weighed as a whole stack instead
    ascend = decide_quantization(rule_context(profile(hardware="ascend-npu", needs=INT8_PTQ)))
    assert ascend.tier1.option == "msmodelslim"
    assert "onednn" not in {r.option for r in cpu.rejections}  # a kernel library, no calibration toolkit
    fp8 = decide_quantization(rule_context(profile(needs={"quantization": "fp8"})))
    assert fp8.tier1.settings["dtype"] == "fp8" and fp8.switch_conditions == ()
    fp8_training = {"quantization": "fp8", "quantization_method": "qat"}
    trains = decide_quantization(rule_context(profile(model_type="moe", workload="training", needs=fp8_training)))
    assert trains.tier1.option == "transformer-engine" and trains.tier1.settings["method"] == "fp8-training"
    assert "not quantization-aware training" in trains.tier1.rationale[0].text


def test_decide_quantization_rejects_int8_measured_slower_on_the_target():
    slower = evidence(int8_cases(0.6, device="cuda"), "nvidia-gpu")
    decision = decide_quantization(rule_context(profile(workload="training", needs=INT8_PTQ), slower))
    assert decision.tier1.option == "modelopt" and decision.tier1.rationale[0].text.startswith("torchao's INT8 path")
    assert "torchao" in {r.option for r in decision.rejections}

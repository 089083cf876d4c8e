"""Rendering: the golden record, escaping of hostile text, slugs, front matter round trip."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from advisor.markdown import md_escape
from advisor.recommendation.models import Citation, Rationale
from advisor.records.decision import build_front_matter, clean_text
from advisor.records.models import EvidenceRef, RecordFrontMatter
from advisor.records.render import render_record, shown_reasons, split_front_matter
from advisor.records.slug import slugify

GOLDEN = Path(__file__).parent / "golden"
DATE = dt.date(2026, 1, 2)


def _front(recommendation, suite, title="CPU serving stack") -> RecordFrontMatter:
    ref = EvidenceRef(file="0001-cpu-serving-stack.evidence.json", sha256="0" * 64)
    return build_front_matter(1, title, recommendation, [ref], suite.environment, ["Ann", "Bo"], DATE)


def test_golden_record(recommendation, suite):
    text = render_record(_front(recommendation, suite), recommendation, [suite])
    golden = GOLDEN / "test_records_render" / "0001-cpu-serving-stack.md"
    if os.environ.get("UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(text, encoding="utf-8")
    assert text == golden.read_text(encoding="utf-8")


def test_front_matter_round_trips_with_madr_keys(recommendation, suite):
    text = render_record(_front(recommendation, suite), recommendation, [suite])
    data, body = split_front_matter(text, "record")
    assert list(data)[:9] == ["id", "title", "status", "date", "version", "review_by", "decision-makers",
                              "supersedes", "superseded_by"]
    front = RecordFrontMatter.model_validate(data)
    assert front.review_by == dt.date(2027, 1, 2) and front.status == "proposed" and front.version == 1
    assert front.tier1 == ["openvino"]  # OpenVINO Model Server's stack: its CPU plugin's kernels and its quantizer
    assert front.environment.torch and front.environment.hardware == "x86-cpu"
    for section in ("Context and Problem Statement", "Decision Drivers", "Considered Options", "Decision Outcome",
                    "Evidence", "Rejected Options", "Switch Conditions", "Consequences", "Review Plan"):
        assert f"\n## {section}\n" in body


HOSTILE = {
    "<script>alert(1)</script>": "script-alert-1-script",
    "../../etc/passwd": "etc-passwd",
    "/absolute/path": "absolute-path",
    "Décision über Größe 🚀": "decision-uber-groe",
    "🚀🚀🚀": "decision",
    "..": "decision",
}


@pytest.mark.parametrize("title, slug", HOSTILE.items())
def test_hostile_titles_give_safe_slugs(title, slug):
    assert slugify(title) == slug


def test_long_title_slug_is_capped():
    slug = slugify("a b " * 250)
    assert len(slug) <= 60 and not slug.endswith("-") and set(slug) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")


@pytest.mark.parametrize("title", ["<script>alert(1)</script>", "[x](javascript:alert(1)) | *b* _i_ `c`", "# heading\n---\nid: 9"])
def test_hostile_titles_are_escaped_in_markdown_and_safe_in_yaml(recommendation, suite, title):
    front = _front(recommendation, suite, clean_text(title))
    text = render_record(front, recommendation, [suite])
    data, body = split_front_matter(text, "record")
    assert data["title"] == clean_text(title) and data["id"] == 1
    heading = next(line for line in body.splitlines() if line.startswith("# "))
    assert "<" not in heading and "](" not in heading.replace("\\](", "")
    assert "<script>" not in body


def test_md_escape():
    assert md_escape("<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert md_escape("a|b*c_d`e[f]") == "a\\|b\\*c\\_d\\`e\\[f\\]"
    assert md_escape("# x\ny") == "\\# x y"


def test_a_run_that_timed_nothing_says_so(recommendation, suite):
    failed = suite.model_copy(update={"cases": [case.model_copy(update={"status": "failed", "timing": None})
                                                for case in suite.cases]})
    text = render_record(_front(recommendation, suite), recommendation, [failed])
    assert "No case was timed" in text and "Matches the target hardware" not in text


def test_a_long_context_reason_is_kept_in_the_record_within_its_reason_count():
    # Review 18: the record dropped the long-context line that `recommend` prints (--dcp-size, chunked prefill).
    cite = Citation(kind="profile", ref="needs.long_context", figure="true")
    texts = ("chosen because", "second", "third", "long context: chunked prefill", "watch: a risk")
    made = [Rationale(text=text, cites=(cite,)) for text in texts]
    shown = [reason.text for reason in shown_reasons(made)]
    assert shown == ["chosen because", "long context: chunked prefill", "watch: a risk"]
    assert [reason.text for reason in shown_reasons(made[:3])] == ["chosen because", "second"]
    # review 210 p01: the model card's context-window extension (YaRN for Qwen3) is kept beside it
    window = Rationale(text="context window: 32,768 natively, 131,072 with YaRN", cites=(cite,))
    shown = [reason.text for reason in shown_reasons([*made[:4], window, made[4]])]
    assert shown == [
        "chosen because",
        "long context: chunked prefill",
        "context window: 32,768 natively, 131,072 with YaRN",
        "watch: a risk",
    ]


def test_tier1_keeps_its_launch_settings_when_tier3_leads(suite):
    # Review 89: with tier 3 primary (cross-platform), the record's tier-1 lines dropped the settings `recommend` prints
    # (VLLM_ROCM_USE_AITER=1, which AMD's vLLM guide says is off by default, and the FP8 KV cache).
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend

    profile = parse_profile(
        "model_type: dense-transformer\nhardware: amd-gpu\ndevice: mi300x\nworkload: inference\nteam_skill: framework\n"
        "model: meta-llama/Llama-3.3-70B-Instruct\n"
        "needs: {quantization: fp8, devices: 2, cross_platform: true, other_hardware: [nvidia-gpu]}\n"
    )
    recommendation = recommend(profile, [], load_knowledge_base())
    assert recommendation.tier(3).primary
    text = render_record(_front(recommendation, suite, "Llama on MI300X"), recommendation, [])
    tier1 = text.split("### Tier 1")[1].split("### Tier 2")[0]
    assert "VLLM\\_ROCM\\_USE\\_AITER=1" in tier1
    assert len(text.splitlines()) <= 150


def test_a_record_whose_stack_is_a_preview_is_reviewed_after_six_months(recommendation, suite):
    # Reviews 85 to 90 asked for a review sooner than a year for fast-moving stacks; a stack its own page calls a preview
    # changes (or leaves preview) before a year is out.
    stack = recommendation.stacks[0].model_copy(update={"preview": "its page calls it experimental"})
    previewed = recommendation.model_copy(update={"stacks": (stack, *recommendation.stacks[1:])})
    front = _front(previewed, suite)
    assert front.review_by == dt.date(2026, 7, 2)
    text = render_record(front, previewed, [suite])
    assert f"Review by 2026-07-02 (six months after 2026-01-02, not a year: {stack.name} is a preview" in text
    assert _front(recommendation, suite).review_by == dt.date(2027, 1, 2)


@pytest.mark.parametrize(
    ("decided", "due"),
    [(dt.date(2026, 8, 31), dt.date(2027, 2, 28)), (dt.date(2026, 12, 5), dt.date(2027, 6, 5)),
     (dt.date(2026, 6, 30), dt.date(2026, 12, 30))],
)
def test_six_months_after_a_date_keeps_the_day_or_takes_the_28th(decided, due):
    from advisor.records.models import early_review_date

    assert early_review_date(decided) == due


def test_a_record_of_a_long_serving_profile_stays_within_150_lines(suite):
    # Issue 28: "It stays at most 150 lines"; reviewers' long-context MoE records on 8 GPUs ran to 158-167 lines before
    # the record trimmed its per-choice reasons and risks to fit
    from advisor.knowledge.loader import load_knowledge_base
    from advisor.profile import parse_profile
    from advisor.recommendation.engine import recommend
    from advisor.records.render import BUDGETS, MAX_RECORD_LINES

    profile = parse_profile(
        "model_type: moe\nhardware: nvidia-gpu\ndevice: h200-sxm\nworkload: inference\nteam_skill: framework\n"
        "model: Qwen/Qwen3-235B-A22B\nparameters_b: 235\n"
        "needs: {dynamic_shapes: true, quantization: fp8, long_context: true, devices: 8}\n"
        "serving: {isl: 8000, osl: 1000, ttft_ms: 2000, tpot_ms: 40}\n"
    )
    recommendation = recommend(profile, [], load_knowledge_base())
    text = render_record(_front(recommendation, suite, "Qwen3-235B-A22B on 8 x H200, FP8, 128k"), recommendation, [])
    assert len(text.splitlines()) <= MAX_RECORD_LINES
    # the fullest budget is tried first: a short record keeps every reason the budget allows
    assert BUDGETS[0].reasons == 2 and BUDGETS[0].watch


def test_a_record_over_its_line_budget_drops_per_choice_reasons_first(suite, recommendation, monkeypatch):
    import advisor.records.render as render

    full = render_record(_front(recommendation, suite), recommendation, [suite])
    monkeypatch.setattr(render, "MAX_RECORD_LINES", len(full.splitlines()) - 3)
    trimmed = render.render_record(_front(recommendation, suite), recommendation, [suite])
    assert len(trimmed.splitlines()) <= len(full.splitlines()) - 3
    assert trimmed.split("## Decision Outcome")[0] == full.split("## Decision Outcome")[0]  # the summary stays whole

"""The serving task of a language model: `generation` (a chat or completion model that decodes tokens, the default),
`embedding` (an encoder that returns one vector per input: no decode steps, no KV cache, no chat endpoint) or
`transcription` (a speech encoder-decoder such as Whisper: audio in, text out, served on a transcription endpoint).

A profile states it as `task`; where it does not and its `model` names a well-known embedding or speech-recognition model
family, the task is taken from it and the record says it was assumed from the model name. The embedding families,
matched on the Hugging Face id (case-insensitive):

- any id whose model name contains "embed" (Qwen/Qwen3-Embedding-8B, nomic-ai/nomic-embed-text-v1.5,
  Snowflake/snowflake-arctic-embed-l-v2.0, mixedbread-ai/mxbai-embed-large-v1, jinaai/jina-embeddings-v3)
- BAAI/bge-... (but not BAAI/bge-reranker-..., a cross-encoder that scores pairs)
- intfloat/e5-... and intfloat/multilingual-e5-...
- thenlper/gte-... and Alibaba-NLP/gte-... (but not the gte rerankers)
- sentence-transformers/...

A reranker (a cross-encoder that scores query-document pairs: any id whose model name contains "rerank", and the
cross-encoder/ organisation) decodes nothing either; a profile has no rerank task, so it takes the embedding task, whose
stacks include the rerank endpoints (OpenVINO Model Server's /v3/rerank), and the record says so.

The speech-recognition family: any id whose model name contains "whisper" (openai/whisper-large-v3,
distil-whisper/distil-large-v3 under its organisation's name).

State `task: generation` in the profile to override the assumption.
"""

from __future__ import annotations

import re
from typing import get_args

from advisor.vocabulary import ServingTask

DEFAULT_TASK: ServingTask = "generation"
EMBEDDING_MODEL_PATTERNS = (
    re.compile(r"embed[^/]*$", re.IGNORECASE),  # the model's own name (after the organisation) says so
    re.compile(r"^BAAI/bge-(?!reranker)", re.IGNORECASE),
    re.compile(r"^intfloat/(multilingual-)?e5-", re.IGNORECASE),
    re.compile(r"^(thenlper|Alibaba-NLP)/gte-(?!.*rerank)", re.IGNORECASE),
    re.compile(r"^sentence-transformers/", re.IGNORECASE),
)
RERANKER_MODEL_PATTERNS = (
    re.compile(r"rerank[^/]*$", re.IGNORECASE),  # bge-reranker-v2-m3, Qwen3-Reranker-0.6B, jina-reranker-v2
    re.compile(r"^cross-encoder/", re.IGNORECASE),
)
TRANSCRIPTION_MODEL_PATTERNS = (re.compile(r"whisper", re.IGNORECASE),)
OVERRIDE_HINT = "state `task: generation` in the profile if it generates text"
WHAT_IT_IS: dict[ServingTask, str] = {
    "embedding": "a well-known embedding model family",
    "transcription": "a well-known speech-recognition model family",
}


def embedding_model(model: str | None) -> bool:
    """The Hugging Face id names a well-known embedding model family (see the module's list)."""
    if not model:
        return False
    name = model.strip()
    return any(pattern.search(name) for pattern in EMBEDDING_MODEL_PATTERNS)


def reranker_model(model: str | None) -> bool:
    """The Hugging Face id names a well-known reranker (cross-encoder) family (see the module's list)."""
    return bool(model) and any(pattern.search(str(model).strip()) for pattern in RERANKER_MODEL_PATTERNS)


def transcription_model(model: str | None) -> bool:
    """The Hugging Face id names a well-known speech-recognition model family (Whisper)."""
    if not model:
        return False
    return any(pattern.search(model.strip()) for pattern in TRANSCRIPTION_MODEL_PATTERNS)


def serving_task(stated: str | None, model: str | None) -> tuple[ServingTask, bool]:
    """The task and whether it was assumed from the model's name: the stated one, else `embedding` for a well-known
    embedding model or `transcription` for a speech-recognition one, else generation (not an assumption worth stating:
    every LLM profile before `task` meant it)."""
    for task in get_args(ServingTask):
        if stated == task:
            return task, False
    if embedding_model(model) or reranker_model(model):
        return "embedding", True
    if transcription_model(model):
        return "transcription", True
    return DEFAULT_TASK, False


def assumed_text(task: ServingTask, model: str) -> str:
    """The record's line for a task taken from the model's name."""
    what = (
        "a well-known reranker family, a cross-encoder that scores query-document pairs: the embedding task's "
        "stacks, rerank endpoints among them, serve it"
        if reranker_model(model)
        else WHAT_IT_IS.get(task, task)
    )
    return f"{task}, assumed from the model name {model} ({what}); {OVERRIDE_HINT}"

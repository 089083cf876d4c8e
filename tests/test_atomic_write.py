"""Atomic writes: whole files or nothing, with the permissions of an ordinary new file."""

from __future__ import annotations

import os

import pytest

from probes.files.atomic_write import write_text_atomically


def test_new_file_gets_the_umask_mode_and_no_temporary_is_left(tmp_path):
    previous = os.umask(0o022)
    try:
        target = tmp_path / "record.md"
        write_text_atomically(target, "hello\n")
    finally:
        os.umask(previous)
    assert target.read_text() == "hello\n"
    assert target.stat().st_mode & 0o777 == 0o644
    assert [path.name for path in tmp_path.iterdir()] == ["record.md"]


def test_replace_keeps_the_old_content_when_the_rename_fails(tmp_path, monkeypatch):
    target = tmp_path / "evidence.json"
    target.write_text("old")

    def refuse(*_args, **_kwargs):
        raise OSError("disk said no")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError, match="disk said no"):
        write_text_atomically(target, "new")
    assert target.read_text() == "old"
    assert [path.name for path in tmp_path.iterdir()] == ["evidence.json"]

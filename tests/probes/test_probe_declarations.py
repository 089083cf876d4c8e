"""A probe's facts read from its probe.py without importing it, and `advisor probe`'s flags derived from its options."""

from __future__ import annotations

from pathlib import Path

import pytest

from probes.declarations import DeclarationError, builtin_declarations, option_flags, read_declaration
from probes.flags import options_from_flags
from probes.registry import EXTRA_PROBE_DIRS_ENV, known_probes, load_probe, probe_declarations
from probes.runner import ProbeError, select_probes


@pytest.mark.parametrize("name", known_probes())
def test_what_is_read_unimported_is_what_the_probe_declares(name: str) -> None:
    declared, probe = probe_declarations()[name], load_probe(name).probe
    assert (declared.runs_by_default, declared.distributed) == (probe.runs_by_default, probe.distributed)
    fields = probe.options.model_fields if probe.options is not None else {}
    assert [field.name for field in declared.options] == list(fields)
    for field in declared.options:
        described = fields[field.name]
        extra = described.json_schema_extra if isinstance(described.json_schema_extra, dict) else {}
        assert (field.description, field.metavar) == (described.description, extra.get("metavar"))
    if probe.options is not None:  # in a module of its own: `advisor probe` imports it, never probe.py (torch)
        assert declared.options_model == (probe.options.__module__, probe.options.__name__)
        assert not probe.options.__module__.endswith(".probe")


def test_the_facts_of_the_probes_advisor_ships() -> None:
    declared = probe_declarations()
    assert [name for name in declared if not declared[name].runs_by_default] == ["scaling", "selftest"]
    assert [name for name in declared if declared[name].distributed] == ["scaling"]
    assert [name for name in declared if declared[name].takes("model_type")] == ["hotops", "int8"]


def test_each_flag_is_described_once_and_reads_its_field_type() -> None:
    flags = {flag.field.flag: flag for flag in option_flags(builtin_declarations())}
    assert list(flags) == [
        "--model-type",
        "--model",
        "--nproc",
        "--nnodes",
        "--node-rank",
        "--rdzv-endpoint",
        "--rdzv-id",
    ]
    assert [probe.name for probe in flags["--model-type"].probes] == ["hotops", "int8"]
    assert flags["--model-type"].help.startswith("hotops and int8 probes: profile (hotops) and quantize whole (int8)")
    assert flags["--nproc"].takes_int and not flags["--rdzv-id"].takes_int and not flags["--model-type"].takes_int
    assert all(flag.field.description and flag.field.metavar for flag in flags.values())


def write_probe(root: Path, source: str) -> Path:
    (root / "mine").mkdir()
    (root / "mine" / "probe.py").write_text(source)
    return root / "mine"


def test_a_probe_that_does_not_parse_keeps_the_defaults_and_fails_in_its_child(tmp_path: Path) -> None:
    declared = read_declaration("mine", write_probe(tmp_path, "PROBE = Probe(\n"))
    assert (declared.runs_by_default, declared.distributed, declared.options) == (True, False, ())


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("PROBE = Probe(name='mine', description='', cases=f, runs_by_default=ALWAYS)\n", "as True or False"),
        ("PROBE = Probe(name='mine', description='', cases=f, options=make_options())\n", "must name its"),
        (
            "from elsewhere import Mine\nPROBE = Probe(name='mine', description='', cases=f, options=Mine)\n",
            "neither defined in probe.py nor imported",
        ),
    ],
)
def test_facts_that_cannot_be_read_unimported_are_refused(tmp_path: Path, source: str, message: str) -> None:
    with pytest.raises(DeclarationError, match=message):
        read_declaration("mine", write_probe(tmp_path, source))


def test_a_private_probe_declares_its_options_in_its_probe_py(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    write_probe(
        tmp_path,
        (
            "from pydantic import Field\nfrom probes.registry import Probe, ProbeOptions\n\n"
            "class MineOptions(ProbeOptions):\n"
            "    model_type: str | None = Field(None, description='which', json_schema_extra={'metavar': 'TYPE'})\n\n"
            "PROBE = Probe(name='mine', description='', cases=f, options=MineOptions, runs_by_default=False)\n"
        ),
    )
    monkeypatch.setenv(EXTRA_PROBE_DIRS_ENV, str(tmp_path))
    declared = probe_declarations()["mine"]
    assert not declared.runs_by_default and declared.takes("model_type") and declared.options[0].metavar == "TYPE"
    assert declared.options_model is None  # defined in probe.py: nothing to import unless the probe runs
    assert "mine" not in select_probes(None)
    assert [declaration.name for declaration in builtin_declarations()] == [  # the flags stay the built-in probes'
        name for name in known_probes() if name != "mine"
    ]


@pytest.mark.parametrize(
    ("names", "flags", "options"),
    [
        (None, {"model_type": "moe"}, {"hotops": {"model_type": "moe"}, "int8": {"model_type": "moe"}}),
        (["int8", "gemm"], {"model_type": "cnn"}, {"int8": {"model_type": "cnn"}}),
        (None, {"model": "os.path:join"}, {"hotops": {"model": "os.path:join"}}),
        (["scaling"], {"nproc": 2, "nnodes": None, "rdzv_id": "job"}, {"scaling": {"nproc": 2, "rdzv_id": "job"}}),
        (["gemm"], {"model_type": None, "nproc": None}, {}),
    ],
)
def test_flags_reach_the_probes_to_run_that_take_them(names, flags, options) -> None:
    assert options_from_flags(names, flags) == options


@pytest.mark.parametrize(
    ("names", "flags", "message"),
    [
        (["gemm"], {"model": "a:b"}, "--model applies to the hotops probe; add hotops to the probe names"),
        (None, {"rdzv_id": "job"}, "--rdzv-id applies to the scaling probe, which runs only when named: add scaling"),
        (None, {"model_type": "rnn"}, "--model-type 'rnn' is not one of dense-transformer, moe, multimodal, diffusion"),
    ],
)
def test_flags_that_cannot_apply_name_themselves(names, flags, message) -> None:
    with pytest.raises(ProbeError) as raised:
        options_from_flags(names, flags)
    assert str(raised.value).startswith(message)

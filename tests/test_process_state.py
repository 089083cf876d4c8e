"""Product code changes no process-wide state outside a scope that restores it (issue 27, category 9).

Statically: every call in advisor/ and probes/ that sets process state (environment variables, working
directory, gc, signal handlers, recursion limit, torch's threads, seeds and settings, warning filters, logging,
sys.path...) is either inside a `with` that restores it (`warnings.catch_warnings`, `torch.random.fork_rng`,
triton's knob scopes) or listed in ALLOWED with the reason: a scope of its own that restores, or code that runs
only in a probe child (its own process, never the parent's or a test's). A new occurrence fails until it is
made to restore or is listed with its reason; a listed one that is gone fails too, so the list stays true.

Behaviourally: the probes' case builders and interpreted checks, run here as the tests of the probes run them,
leave the environment, gc, signal handlers, cwd, sys.path, the warning filters, torch's seed and inductor's
settings as they were.
"""

from __future__ import annotations

import ast
import gc
import logging
import os
import signal
import sys
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]

# Calls that set process-wide state.
STATE_CALLS = frozenset(
    {
        "os.putenv",
        "os.unsetenv",
        "os.chdir",
        "os.fchdir",
        "os.umask",
        "os.environ.update",
        "os.environ.pop",
        "os.environ.setdefault",
        "os.environ.clear",
        "os.environ.popitem",
        "os.environ.__setitem__",
        "os.environ.__delitem__",
        "gc.freeze",
        "gc.unfreeze",
        "gc.disable",
        "gc.enable",
        "gc.set_threshold",
        "signal.signal",
        "signal.set_wakeup_fd",
        "signal.pthread_sigmask",
        "signal.setitimer",
        "signal.alarm",
        "signal.siginterrupt",
        "sys.setrecursionlimit",
        "sys.setswitchinterval",
        "sys.settrace",
        "sys.setprofile",
        "sys.path.insert",
        "sys.path.append",
        "sys.path.extend",
        "sys.path.remove",
        "sys.path.pop",
        "torch.set_num_threads",
        "torch.set_num_interop_threads",
        "torch.set_default_dtype",
        "torch.set_default_device",
        "torch.manual_seed",
        "torch.seed",
        "torch.set_float32_matmul_precision",
        "torch.use_deterministic_algorithms",
        "torch.set_grad_enabled",
        "torch.set_flush_denormal",
        "torch.random.set_rng_state",
        "torch.set_rng_state",
        "numpy.random.seed",
        "np.random.seed",
        "random.seed",
        "warnings.filterwarnings",
        "warnings.simplefilter",
        "warnings.resetwarnings",
        "logging.basicConfig",
        "logging.disable",
        "logging.captureWarnings",
        "resource.setrlimit",
        "faulthandler.enable",
        "atexit.register",
        "socket.setdefaulttimeout",
        "locale.setlocale",
    }
)
# Assignments to these are process state too: `os.environ[...] = `, `tempfile.tempdir = `, torch's settings.
STATE_ATTRIBUTE_PREFIXES = ("os.", "sys.", "tempfile.", "torch.", "inductor_config.", "dynamo_config.", "triton.knobs.")
# A `with` of one of these restores what its prefixes set inside it.
RESTORING_SCOPES: dict[str, tuple[str, ...]] = {
    "warnings.catch_warnings": ("warnings.",),
    "torch.random.fork_rng": ("torch.manual_seed", "torch.seed", "torch.random.set_rng_state", "torch.set_rng_state"),
    "triton.knobs.cache.scope": ("triton.knobs.cache.",),
    "triton.knobs.nvidia.scope": ("triton.knobs.nvidia.",),
}

# "path: what" -> why it is allowed. Child-only means: the code runs only in a process advisor started for it
# (a probe child, the fork server, a torchrun worker), which owns its process state.
ALLOWED: dict[str, str] = {
    "probes/terminal_text.py: sys.stdout =": "escaped_streams(): a context manager that puts both streams back",
    "probes/terminal_text.py: sys.stderr =": "escaped_streams(): the same",
    "probes/files/atomic_write.py: os.umask": "reads the umask: set to 0 and put back on the next line",
    "advisor/interrupts.py: signal.signal": "stop_on_signals: installs the handlers for the command's length, "
    "restores the previous ones in `finally`",
    "advisor/site/build.py: os.environ.update": "_quiet_banners: a context manager that puts every name back",
    "advisor/site/build.py: os.environ.pop": "_quiet_banners: restoring a name that was unset",
    "advisor/site/build.py: os.environ[...] =": "_quiet_banners: restoring a name's previous value",
    "probes/harness/collector.py: gc.disable": "collector_paused: re-enabled in `finally` when it was on",
    "probes/harness/collector.py: gc.enable": "collector_paused: the restore",
    "probes/harness/collector.py: gc.freeze": "spared_by_collector: unfrozen in `finally`, skipped when the process "
    "froze objects of its own; freeze_heap: child-only (worker.run_job, a probe's `freezes_heap`)",
    "probes/harness/collector.py: gc.unfreeze": "spared_by_collector: the restore",
    "probes/harness/worker.py: faulthandler.enable": "worker.main: child-only",
    "probes/scaling/worker.py: faulthandler.enable": "the torchrun worker's main: child-only",
    "probes/harness/forkserver.py: signal.signal": "serve() and _child(): the fork server's own process and the "
    "children it forks, child-only",
    "probes/harness/forkserver.py: signal.set_wakeup_fd": "serve() and _child(): child-only",
    "probes/harness/forkserver.py: os.environ.clear": "_child(): the forked child becomes the probe child",
    "probes/harness/forkserver.py: os.environ.update": "_child(): child-only",
    "probes/harness/forkserver.py: os.chdir": "_child(): child-only",
    "probes/harness/forkserver.py: tempfile.tempdir =": "_child(): child-only (the server's cached TMPDIR)",
    "probes/harness/forkserver.py: atexit.register": "shared_server(): stops the fork server this process "
    "started when it exits; undoes advisor's own resource",
    "probes/harness/isolation.py: atexit.register": "_remove_own_folders(): removes at exit the folders this process "
    "made and had not yet removed",
    "probes/hotops/options.py: sys.path.insert": "check_model_spec: removed again in `finally`",
    "probes/hotops/options.py: sys.path.remove": "check_model_spec: the restore",
    "probes/kernels/__init__.py: os.environ[...] =": "interpreted(): a context manager that restores the value",
    "probes/kernels/__init__.py: os.environ.pop": "interpreted(): restoring an unset name",
    "probes/selftest/faults.py: resource.setrlimit": "the oom fault: child-only, and restored in `finally`",
    "probes/int8/onnx_model.py: root.setLevel": "_quiet(): a context manager that puts the root logger's level back",
}


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _name(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _restoring(what: str, node: ast.AST, parents: dict[ast.AST, ast.AST]) -> bool:
    """`what` (set by `node`) is inside a `with` of a scope that restores it."""
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                call = item.context_expr
                restored = RESTORING_SCOPES.get(_name(call.func) or "", ()) if isinstance(call, ast.Call) else ()
                if what.startswith(restored) and restored:
                    return True
    return False


def _state_change(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        name = _name(node.func)
        if name in STATE_CALLS:
            return name
        if name and name.endswith(".setLevel") and name.split(".")[0] in ("root", "logging"):
            return name  # the root logger's level
        return None
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        targets = [node.target]
    elif isinstance(node, ast.Delete):
        targets = node.targets
    for target in targets:
        if isinstance(target, ast.Subscript) and _name(target.value) == "os.environ":
            return "del os.environ[...]" if isinstance(node, ast.Delete) else "os.environ[...] ="
        name = _name(target)
        if isinstance(target, ast.Attribute) and name and name.startswith(STATE_ATTRIBUTE_PREFIXES):
            return f"{name} ="
    return None


def process_state_changes() -> Iterator[tuple[str, int]]:
    """Each ("path: what", line) in advisor/ and probes/ that sets process state outside a restoring `with`."""
    for package in ("advisor", "probes"):
        for path in sorted((ROOT / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
            parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
            for node in ast.walk(tree):
                what = _state_change(node)
                if what is not None and not _restoring(what, node, parents):
                    yield f"{path.relative_to(ROOT).as_posix()}: {what}", getattr(node, "lineno", 0)


def test_every_process_state_change_restores_or_runs_only_in_a_child():
    found = list(process_state_changes())
    unexplained = sorted(f"{key} (line {line})" for key, line in found if key not in ALLOWED)
    assert unexplained == [], (
        "set process state outside a restoring scope (restore it, or list it with why):\n" + "\n".join(unexplained)
    )
    gone = sorted(set(ALLOWED) - {key for key, _ in found})
    assert gone == [], f"listed but no longer there (drop them from ALLOWED): {gone}"


def test_the_scan_sees_what_it_guards():
    source = (
        "import os, gc, warnings\nos.environ['X'] = '1'\ngc.freeze()\nwarnings.simplefilter('ignore')\n"
        "with warnings.catch_warnings():\n    warnings.simplefilter('ignore')\n"
    )
    tree = ast.parse(source)
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    seen = [
        (what, node.lineno)
        for node in ast.walk(tree)
        if (what := _state_change(node)) is not None and not _restoring(what, node, parents)
    ]
    assert sorted(seen, key=lambda item: item[1]) == [
        ("os.environ[...] =", 2),
        ("gc.freeze", 3),
        ("warnings.simplefilter", 4),
    ]


def _process_state() -> dict[str, object]:
    import torch._inductor.config as inductor_config

    return {
        "environ": {name: value for name, value in os.environ.items() if name != "PYTEST_CURRENT_TEST"},
        "cwd": os.getcwd(),
        "gc": (gc.isenabled(), gc.get_freeze_count(), gc.get_threshold()),
        "signals": {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)},
        "sys.path": list(sys.path),
        "recursion": sys.getrecursionlimit(),
        "warnings": list(warnings.filters),
        "logging": logging.getLogger().level,
        "tempdir": tempfile.tempdir,
        "torch": (torch.get_num_threads(), torch.get_default_dtype(), torch.random.get_rng_state().tolist()),
        "inductor": (inductor_config.compile_threads, inductor_config.fx_graph_cache),
    }


@pytest.fixture
def untouched() -> Iterator[None]:
    before = _process_state()
    yield
    after = _process_state()
    changed = {name: (before[name], after[name]) for name in before if before[name] != after[name]}
    if "environ" in changed:
        old, new = changed["environ"]
        assert isinstance(old, dict) and isinstance(new, dict)
        changed["environ"] = {
            key: (old.get(key), new.get(key)) for key in old.keys() | new.keys() if old.get(key) != new.get(key)
        }
    assert changed == {}


@pytest.fixture
def compiler_started() -> None:
    """torch.compile's first compile in a process changes process state itself (inductor raises the recursion
    limit to 2000 and sets TORCHINDUCTOR_CACHE_DIR): that is torch's, done once; a later one from a warm cache
    skips it. Compiled here first, uncached, so that what is checked is what advisor's code does."""
    import torch._inductor.config as inductor_config

    with inductor_config.patch({"fx_graph_cache": False}):
        torch.compile(lambda tensor: tensor * 2 + 1)(torch.ones(4))


def test_the_gemm_probe_builders_and_its_interpreted_check_leave_the_process_as_it_was(compiler_started, untouched):
    from probes.gemm.probe import gemm_cases, triton_default_tile
    from probes.harness.device import Device
    from probes.registry import CaseSpec

    device = Device()
    assert gemm_cases(device, 20.0)  # warms torch.compile up on a CPU
    square = CaseSpec(dtype="fp32", shape={"m": 64, "n": 64, "k": 64}, options={"kind": "square"})
    bench = triton_default_tile(square, device)
    assert bench.reference is not None
    assert float((torch.as_tensor(bench.run()).double() - bench.reference()).abs().max()) < 1e-3


def test_the_attention_probes_interpreted_check_leaves_the_process_as_it_was(untouched):
    from probes.attention.probe import attention_cases, triton_fused
    from probes.harness.device import Device

    device = Device()
    cases = attention_cases(device, share_s=1e6)
    case = min(
        (case for case in cases if case.dtype == "fp32" and case.options["causal"]), key=lambda c: c.shape["seq"]
    )
    bench = triton_fused(case, device)
    assert bench.reference is not None and bench.run() is not None


def _import_libraries_first(*names: str) -> None:
    # Their imports change process state themselves (onnxruntime puts its transformers folder on sys.path, torchao
    # adds warning filters): that is theirs, done once; what is checked here is what advisor's code does.
    import importlib
    import importlib.util

    for name in names:
        if importlib.util.find_spec(name.split(".")[0]) is not None:
            importlib.import_module(name)


@pytest.fixture
def int8_libraries() -> None:
    _import_libraries_first("torchao", "onnx", "onnxruntime", "onnxruntime.quantization", "torch.onnx")


def test_the_int8_probe_builder_leaves_the_process_as_it_was(int8_libraries, untouched):
    from probes.harness.device import Device
    from probes.int8.sizing import int8_cases

    assert int8_cases(Device(), 4.0)  # on a CPU it prepares the ONNX models too

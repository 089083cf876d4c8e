"""What each probe kernel configuration asks of a block on each target, read from its compiled binary.

Generated: probes.kernels.aot.write_footprints() compiles every configuration for every target in
targets.TARGETS (no GPU needed) and rewrites the table; tests/kernels fails when a fresh compile
disagrees with it. Importing this module imports neither torch nor triton.
"""

from __future__ import annotations

from probes.kernels.targets import Footprint

__all__ = ["FOOTPRINTS", "TRITON_VERSION", "FootprintKey"]

# (kernel, config name, dtype, target name); names from probes.kernels.tiles. fp32 means fp32 dots in
# "ieee" precision, torch's default (allow_tf32=False); a tf32 launch is not in the table.
FootprintKey = tuple[str, str, str, str]

TRITON_VERSION = "3.9.0"  # the triton that compiled the table below

FOOTPRINTS: dict[FootprintKey, Footprint] = {
    ("attention", "64x64-d128-w4-s2", "bf16", "gfx942"): Footprint(shared_bytes=40960, registers=238, threads=256),
    ("attention", "64x64-d128-w4-s2", "bf16", "sm_100"): Footprint(
        shared_bytes=81952, registers=168, threads=128, tensor_memory_columns=256
    ),
    ("attention", "64x64-d128-w4-s2", "bf16", "sm_80"): Footprint(shared_bytes=57344, registers=254, threads=128),
    ("attention", "64x64-d128-w4-s2", "bf16", "sm_90"): Footprint(shared_bytes=81920, registers=168, threads=128),
    ("attention", "64x64-d128-w4-s2", "fp16", "gfx942"): Footprint(shared_bytes=40960, registers=238, threads=256),
    ("attention", "64x64-d128-w4-s2", "fp16", "sm_100"): Footprint(
        shared_bytes=81952, registers=168, threads=128, tensor_memory_columns=256
    ),
    ("attention", "64x64-d128-w4-s2", "fp16", "sm_80"): Footprint(shared_bytes=57344, registers=254, threads=128),
    ("attention", "64x64-d128-w4-s2", "fp16", "sm_90"): Footprint(shared_bytes=81920, registers=168, threads=128),
    ("attention", "64x64-d128-w4-s2-causal", "bf16", "gfx942"): Footprint(
        shared_bytes=40960, registers=242, threads=256
    ),
    ("attention", "64x64-d128-w4-s2-causal", "bf16", "sm_100"): Footprint(
        shared_bytes=81952, registers=231, threads=128, tensor_memory_columns=256
    ),
    ("attention", "64x64-d128-w4-s2-causal", "bf16", "sm_80"): Footprint(
        shared_bytes=57344, registers=255, threads=128
    ),
    ("attention", "64x64-d128-w4-s2-causal", "bf16", "sm_90"): Footprint(
        shared_bytes=81920, registers=168, threads=128
    ),
    ("attention", "64x64-d128-w4-s2-causal", "fp16", "gfx942"): Footprint(
        shared_bytes=40960, registers=256, threads=256, accumulation_registers=22
    ),
    ("attention", "64x64-d128-w4-s2-causal", "fp16", "sm_100"): Footprint(
        shared_bytes=81952, registers=231, threads=128, tensor_memory_columns=256
    ),
    ("attention", "64x64-d128-w4-s2-causal", "fp16", "sm_80"): Footprint(
        shared_bytes=57344, registers=255, threads=128
    ),
    ("attention", "64x64-d128-w4-s2-causal", "fp16", "sm_90"): Footprint(
        shared_bytes=81920, registers=168, threads=128
    ),
    ("matmul", "128x128x32-w4-s4", "bf16", "gfx942"): Footprint(shared_bytes=49152, registers=142, threads=256),
    ("matmul", "128x128x32-w4-s4", "bf16", "sm_100"): Footprint(
        shared_bytes=65552, registers=165, threads=128, tensor_memory_columns=128
    ),
    ("matmul", "128x128x32-w4-s4", "bf16", "sm_80"): Footprint(shared_bytes=49152, registers=252, threads=128),
    ("matmul", "128x128x32-w4-s4", "bf16", "sm_90"): Footprint(shared_bytes=65536, registers=190, threads=128),
    ("matmul", "128x128x32-w4-s4", "fp16", "gfx942"): Footprint(shared_bytes=49152, registers=142, threads=256),
    ("matmul", "128x128x32-w4-s4", "fp16", "sm_100"): Footprint(
        shared_bytes=65552, registers=165, threads=128, tensor_memory_columns=128
    ),
    ("matmul", "128x128x32-w4-s4", "fp16", "sm_80"): Footprint(shared_bytes=49152, registers=252, threads=128),
    ("matmul", "128x128x32-w4-s4", "fp16", "sm_90"): Footprint(shared_bytes=65536, registers=190, threads=128),
    ("matmul", "128x128x32-w4-s4", "fp32", "gfx942"): Footprint(shared_bytes=98304, registers=209, threads=256),
    ("matmul", "128x128x32-w4-s4", "fp32", "sm_100"): Footprint(shared_bytes=98304, registers=255, threads=128),
    ("matmul", "128x128x32-w4-s4", "fp32", "sm_80"): Footprint(shared_bytes=98304, registers=255, threads=128),
    ("matmul", "128x128x32-w4-s4", "fp32", "sm_90"): Footprint(shared_bytes=98304, registers=255, threads=128),
    ("matmul", "128x256x64-w8-s3", "bf16", "gfx942"): Footprint(shared_bytes=98304, registers=180, threads=512),
    ("matmul", "128x256x64-w8-s3", "bf16", "sm_100"): Footprint(
        shared_bytes=147472, registers=178, threads=256, tensor_memory_columns=256
    ),
    ("matmul", "128x256x64-w8-s3", "bf16", "sm_80"): Footprint(shared_bytes=98304, registers=240, threads=256),
    ("matmul", "128x256x64-w8-s3", "bf16", "sm_90"): Footprint(shared_bytes=147456, registers=210, threads=256),
    ("matmul", "128x256x64-w8-s3", "fp16", "gfx942"): Footprint(shared_bytes=98304, registers=180, threads=512),
    ("matmul", "128x256x64-w8-s3", "fp16", "sm_100"): Footprint(
        shared_bytes=147472, registers=178, threads=256, tensor_memory_columns=256
    ),
    ("matmul", "128x256x64-w8-s3", "fp16", "sm_80"): Footprint(shared_bytes=98304, registers=240, threads=256),
    ("matmul", "128x256x64-w8-s3", "fp16", "sm_90"): Footprint(shared_bytes=147456, registers=210, threads=256),
    ("matmul", "128x256x64-w8-s3", "fp32", "gfx942"): Footprint(shared_bytes=196608, registers=256, threads=512),
    ("matmul", "128x256x64-w8-s3", "fp32", "sm_100"): Footprint(shared_bytes=196608, registers=255, threads=256),
    ("matmul", "128x256x64-w8-s3", "fp32", "sm_80"): Footprint(shared_bytes=196608, registers=255, threads=256),
    ("matmul", "128x256x64-w8-s3", "fp32", "sm_90"): Footprint(shared_bytes=196608, registers=255, threads=256),
    ("matmul", "32x64x32-w2-s5", "bf16", "gfx942"): Footprint(shared_bytes=24576, registers=82, threads=128),
    ("matmul", "32x64x32-w2-s5", "bf16", "sm_100"): Footprint(shared_bytes=24576, registers=96, threads=64),
    ("matmul", "32x64x32-w2-s5", "bf16", "sm_80"): Footprint(shared_bytes=24576, registers=119, threads=64),
    ("matmul", "32x64x32-w2-s5", "bf16", "sm_90"): Footprint(shared_bytes=24576, registers=95, threads=64),
    ("matmul", "32x64x32-w2-s5", "fp16", "gfx942"): Footprint(shared_bytes=24576, registers=82, threads=128),
    ("matmul", "32x64x32-w2-s5", "fp16", "sm_100"): Footprint(shared_bytes=24576, registers=96, threads=64),
    ("matmul", "32x64x32-w2-s5", "fp16", "sm_80"): Footprint(shared_bytes=24576, registers=119, threads=64),
    ("matmul", "32x64x32-w2-s5", "fp16", "sm_90"): Footprint(shared_bytes=24576, registers=95, threads=64),
    ("matmul", "32x64x32-w2-s5", "fp32", "gfx942"): Footprint(shared_bytes=49152, registers=110, threads=128),
    ("matmul", "32x64x32-w2-s5", "fp32", "sm_100"): Footprint(shared_bytes=49152, registers=124, threads=64),
    ("matmul", "32x64x32-w2-s5", "fp32", "sm_80"): Footprint(shared_bytes=49152, registers=198, threads=64),
    ("matmul", "32x64x32-w2-s5", "fp32", "sm_90"): Footprint(shared_bytes=49152, registers=128, threads=64),
    ("matmul", "64x64x32-w4-s3", "bf16", "gfx942"): Footprint(shared_bytes=16384, registers=60, threads=256),
    ("matmul", "64x64x32-w4-s3", "bf16", "sm_100"): Footprint(
        shared_bytes=24592, registers=48, threads=128, tensor_memory_columns=64
    ),
    ("matmul", "64x64x32-w4-s3", "bf16", "sm_80"): Footprint(shared_bytes=16384, registers=96, threads=128),
    ("matmul", "64x64x32-w4-s3", "bf16", "sm_90"): Footprint(shared_bytes=24576, registers=64, threads=128),
    ("matmul", "64x64x32-w4-s3", "fp16", "gfx942"): Footprint(shared_bytes=16384, registers=60, threads=256),
    ("matmul", "64x64x32-w4-s3", "fp16", "sm_100"): Footprint(
        shared_bytes=24592, registers=48, threads=128, tensor_memory_columns=64
    ),
    ("matmul", "64x64x32-w4-s3", "fp16", "sm_80"): Footprint(shared_bytes=16384, registers=96, threads=128),
    ("matmul", "64x64x32-w4-s3", "fp16", "sm_90"): Footprint(shared_bytes=24576, registers=64, threads=128),
    ("matmul", "64x64x32-w4-s3", "fp32", "gfx942"): Footprint(shared_bytes=32768, registers=104, threads=256),
    ("matmul", "64x64x32-w4-s3", "fp32", "sm_100"): Footprint(shared_bytes=32768, registers=108, threads=128),
    ("matmul", "64x64x32-w4-s3", "fp32", "sm_80"): Footprint(shared_bytes=32768, registers=210, threads=128),
    ("matmul", "64x64x32-w4-s3", "fp32", "sm_90"): Footprint(shared_bytes=32768, registers=110, threads=128),
}  # end of generated table

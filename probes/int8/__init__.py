"""INT8 probe: int8 GEMM and torchao int8 MLP blocks against float, and the error int8 quantization costs."""

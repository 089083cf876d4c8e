"""Memory layout: convolutions in NCHW vs channels-last (NHWC), and what a layout mismatch costs."""

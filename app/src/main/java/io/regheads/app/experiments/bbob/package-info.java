/**
 * Ten noiseless BBOB test functions ({@link io.regheads.app.experiments.bbob.BbobFunction}) and their seeded
 * instances ({@link io.regheads.app.experiments.bbob.BbobInstance}), re-implemented from N. Hansen, S. Finck, R. Ros
 * and A. Auger, "Real-Parameter Black-Box Optimization Benchmarking 2009: Noiseless Functions Definitions" (INRIA
 * research report RR-6829), for the curve-fitting experiment of "Decoding-based Regression" (Song and Bahri,
 * arXiv:2501.19383). Shapes: x {@code [D]}, D >= 2; rotations {@code [D][D]}.
 */
package io.regheads.app.experiments.bbob;

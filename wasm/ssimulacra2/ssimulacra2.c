// SSIMULACRA2's error maps, for WebAssembly with 128-bit SIMD: a port of the reference (jpegli's
// tools/ssimulacra2.cc and tools/gauss_blur.cc, BSD-3, the JPEG XL Project Authors) to plain C, written for this app.
// It computes, for each scale and XYB channel, the 1- and 4-norms of the SSIM', ringing and blurring maps; the
// weighted sum and the final curve are the caller's (workers/pipeline/ssimulacra2.ts), as are the sRGB table and any
// background for transparent images. Built by build.sh; see docs/decisions/perceptual-score.md.
//
// The loops over pixels are written so that clang vectorises them (-O3 -msimd128): the blur runs down columns, four
// columns a vector, and a row blur is a column blur of the transposed plane.

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <wasm_simd128.h>

#define SCALES 6
#define NORMS_PER_SCALE 18 /* 3 channels × (SSIM', ringing, blurring) × (1-norm, 4-norm) */

// The recursive Gaussian of sigma 1.5 (tools/gauss_blur.cc CreateRecursiveGaussian), its weights as the reference
// rounds them to floats. Filled by the caller once (ssimulacra2_set_gaussian): JavaScript computes them in doubles.
static int radius = 5;
static float n2[3], d1[3];

__attribute__((export_name("ssimulacra2_set_gaussian"))) void ssimulacra2_set_gaussian(int r, float n1, float n3, float n5, float e1, float e3, float e5) {
  radius = r;
  n2[0] = n1, n2[1] = n3, n2[2] = n5;
  d1[0] = e1, d1[1] = e3, d1[2] = e5;
}

__attribute__((export_name("ssimulacra2_alloc"))) void *ssimulacra2_alloc(size_t bytes) { return malloc(bytes); }
__attribute__((export_name("ssimulacra2_free"))) void ssimulacra2_free(void *pointer) { free(pointer); }

// Blurs the columns of `in` (width × height) into `out`; outside the plane counts as zero. `state` holds 7 × width
// floats: each column's last two outputs per filter, and a row of zeros. In floats, as the reference: in doubles the
// scores moved as far from the reference's the other way (half a point on nearly identical images) at twice the time.
static void blur_columns(const float *restrict in, float *restrict out, int width, int height, float *restrict state) {
  const int N = radius;
  float *restrict a1 = state, *restrict a3 = state + width, *restrict a5 = state + 2 * width;
  float *restrict b1 = state + 3 * width, *restrict b3 = state + 4 * width, *restrict b5 = state + 5 * width;
  const float *zeros = state + 6 * width;
  memset(state, 0, sizeof(float) * 7 * (size_t)width);
  const float w1 = n2[0], w3 = n2[1], w5 = n2[2], e1 = d1[0], e3 = d1[1], e5 = d1[2];
  for (int n = -N + 1; n < height; n++) {
    const int top = n - N - 1, bottom = n + N - 1;
    const float *restrict t = top >= 0 ? in + (size_t)top * width : zeros;
    const float *restrict b = bottom < height ? in + (size_t)bottom * width : zeros;
    // Before the first row, the filters only warm up: their outputs are kept, not written.
    float *restrict o = n >= 0 ? out + (size_t)n * width : state + 6 * width;
    for (int x = 0; x < width; x++) {
      const float sum = t[x] + b[x];
      const float o1 = w1 * sum - e1 * a1[x] - b1[x];
      const float o3 = w3 * sum - e3 * a3[x] - b3[x];
      const float o5 = w5 * sum - e5 * a5[x] - b5[x];
      b1[x] = a1[x], b3[x] = a3[x], b5[x] = a5[x];
      a1[x] = o1, a3[x] = o3, a5[x] = o5;
      if (n >= 0) o[x] = o1 + o3 + o5;
    }
  }
}

// `in` (width × height) transposed into `out` (height × width): 4 × 4 blocks through SIMD shuffles, the edges
// that do not fill a block one by one.
static void transpose(const float *restrict in, float *restrict out, int width, int height) {
  const int width4 = width & ~3, height4 = height & ~3;
  for (int y0 = 0; y0 < height4; y0 += 16) {
    const int y1 = y0 + 16 < height4 ? y0 + 16 : height4;
    for (int x0 = 0; x0 < width4; x0 += 16) {
      const int x1 = x0 + 16 < width4 ? x0 + 16 : width4;
      for (int y = y0; y < y1; y += 4) {
        const float *r0 = in + (size_t)y * width, *r1 = r0 + width, *r2 = r1 + width, *r3 = r2 + width;
        for (int x = x0; x < x1; x += 4) {
          const v128_t a = wasm_v128_load(r0 + x), b = wasm_v128_load(r1 + x), c = wasm_v128_load(r2 + x), d = wasm_v128_load(r3 + x);
          const v128_t ab_lo = wasm_i32x4_shuffle(a, b, 0, 4, 1, 5), ab_hi = wasm_i32x4_shuffle(a, b, 2, 6, 3, 7);
          const v128_t cd_lo = wasm_i32x4_shuffle(c, d, 0, 4, 1, 5), cd_hi = wasm_i32x4_shuffle(c, d, 2, 6, 3, 7);
          float *o = out + (size_t)x * height + y;
          wasm_v128_store(o, wasm_i32x4_shuffle(ab_lo, cd_lo, 0, 1, 4, 5));
          wasm_v128_store(o + height, wasm_i32x4_shuffle(ab_lo, cd_lo, 2, 3, 6, 7));
          wasm_v128_store(o + 2 * (size_t)height, wasm_i32x4_shuffle(ab_hi, cd_hi, 0, 1, 4, 5));
          wasm_v128_store(o + 3 * (size_t)height, wasm_i32x4_shuffle(ab_hi, cd_hi, 2, 3, 6, 7));
        }
      }
    }
  }
  // The edges that do not fill a block of four, one by one.
  for (int y = 0; y < height; y++)
    for (int x = y < height4 ? width4 : 0; x < width; x++) out[(size_t)x * height + y] = in[(size_t)y * width + x];
}

// The Gaussian blur of `in` into `out`: rows (as the transposed plane's columns), then columns. `t1` and `t2` are
// scratch planes the size of `in`; `state` 7 × max(width, height) floats.
static void blur(const float *in, float *out, float *t1, float *t2, float *state, int width, int height) {
  transpose(in, t1, width, height);
  blur_columns(t1, t2, height, width, state);
  transpose(t2, t1, height, width);
  blur_columns(t1, out, width, height, state);
}

// Opsin absorbance (lib/cms/opsin_params.h) at the SDR intensity target.
#define M00 0.30f
#define M02 0.078f
#define M01 (1.0f - M02 - M00)
#define M10 0.23f
#define M12 0.078f
#define M11 (1.0f - M12 - M10)
#define M20 0.24342268924547819f
#define M21 0.20476744424496821f
#define M22 (1.0f - M20 - M21)
#define BIAS 0.0037930732552754493f

// The cube root by Newton's steps from a guess made of the float's bits, as the reference's is too (jpegli's
// lib/base/fast_math-inl.h CubeRootAndAdd): they vectorise, where libm's cbrtf is a call per value (a third of the
// metric's time). Three steps from a guess within 5% leave it as close as a float holds. For x > 0.
static inline float fast_cbrtf(float x) {
  union { float f; int32_t i; } u = { x };
  u.i = (int32_t)((float)u.i * (1.0f / 3.0f)) + 709921077;
  float y = u.f;
  y = (2.0f * y + x / (y * y)) * (1.0f / 3.0f);
  y = (2.0f * y + x / (y * y)) * (1.0f / 3.0f);
  y = (2.0f * y + x / (y * y)) * (1.0f / 3.0f);
  return y;
}

// Linear RGB planes to XYB, rescaled as MakePositiveXYB (X×14+0.42, Y+0.01, B−Y+0.55), into `xyb`.
static void to_positive_xyb(float *const rgb[3], float *const xyb[3], size_t pixels, float neg_bias_cbrt) {
  const float *restrict r = rgb[0], *restrict g = rgb[1], *restrict b = rgb[2];
  float *restrict x = xyb[0], *restrict y = xyb[1], *restrict z = xyb[2];
  for (size_t p = 0; p < pixels; p++) {
    float m0 = M00 * r[p] + M01 * g[p] + M02 * b[p] + BIAS;
    float m1 = M10 * r[p] + M11 * g[p] + M12 * b[p] + BIAS;
    float m2 = M20 * r[p] + M21 * g[p] + M22 * b[p] + BIAS;
    m0 = fast_cbrtf(m0 > 1e-30f ? m0 : 1e-30f) + neg_bias_cbrt;
    m1 = fast_cbrtf(m1 > 1e-30f ? m1 : 1e-30f) + neg_bias_cbrt;
    m2 = fast_cbrtf(m2 > 1e-30f ? m2 : 1e-30f) + neg_bias_cbrt;
    const float luma = 0.5f * (m0 + m1);
    x[p] = 0.5f * (m0 - m1) * 14.0f + 0.42f;
    y[p] = luma + 0.01f;
    z[p] = m2 - luma + 0.55f;
  }
}

// A 2×2 box average of each plane in place, the last row and column repeated where the size is odd.
static void downsample(float *const planes[3], int width, int height) {
  const int out_width = (width + 1) / 2, out_height = (height + 1) / 2;
  for (int c = 0; c < 3; c++) {
    float *plane = planes[c];
    for (int oy = 0; oy < out_height; oy++) {
      const float *row0 = plane + (size_t)(2 * oy) * width;
      const float *row1 = plane + (size_t)(2 * oy + 1 < height ? 2 * oy + 1 : height - 1) * width;
      float *out = plane + (size_t)oy * out_width;  // never ahead of what is still to be read
      for (int ox = 0; ox < out_width; ox++) {
        const int x0 = 2 * ox, x1 = 2 * ox + 1 < width ? 2 * ox + 1 : width - 1;
        out[ox] = (row0[x0] + row0[x1] + row1[x0] + row1[x1]) * 0.25f;
      }
    }
  }
}

static inline double quartic(double x) {
  x *= x;
  return x * x;
}

// One scale's 18 norms, per channel: SSIM' 1- and 4-norm, ringing 1- and 4-norm, blurring 1- and 4-norm.
static void scale_norms(float *const xyb1[3], float *const xyb2[3], int width, int height, float *scratch[7], float *state, double *norms) {
  const size_t pixels = (size_t)width * height;
  float *product = scratch[0], *t1 = scratch[1], *t2 = scratch[2];
  float *mu1 = scratch[3], *mu2 = scratch[4], *s11 = scratch[5], *s22 = scratch[6];
  const double per_pixel = 1.0 / (double)pixels;
  for (int c = 0; c < 3; c++) {
    const float *restrict i1 = xyb1[c], *restrict i2 = xyb2[c];
    for (size_t p = 0; p < pixels; p++) product[p] = i1[p] * i1[p];
    blur(product, s11, t1, t2, state, width, height);
    for (size_t p = 0; p < pixels; p++) product[p] = i2[p] * i2[p];
    blur(product, s22, t1, t2, state, width, height);
    blur(i1, mu1, t1, t2, state, width, height);
    blur(i2, mu2, t1, t2, state, width, height);
    for (size_t p = 0; p < pixels; p++) product[p] = i1[p] * i2[p];
    // sigma12 into `product`'s own scratch: blur reads `product` whole (into t1) before it writes the output.
    blur(product, product, t1, t2, state, width, height);
    const float *restrict s12 = product;
    double ssim = 0, ssim4 = 0, ring = 0, ring4 = 0, smooth = 0, smooth4 = 0;
    for (size_t p = 0; p < pixels; p++) {
      // In doubles: the variances are small differences of large blurred values, and floats lose them.
      const double m1 = mu1[p], m2 = mu2[p];
      const double num_m = 1.0 - (m1 - m2) * (m1 - m2);
      const double num_s = 2 * (s12[p] - m1 * m2) + 0.0009;
      const double denom_s = (s11[p] - m1 * m1) + (s22[p] - m2 * m2) + 0.0009;
      double d = 1.0 - num_m * num_s / denom_s;
      d = d > 0 ? d : 0;
      ssim += d;
      ssim4 += quartic(d);
      const double edge = (1.0 + fabs(i2[p] - m2)) / (1.0 + fabs(i1[p] - m1)) - 1.0;
      const double artifact = edge > 0 ? edge : 0, lost = edge < 0 ? -edge : 0;
      ring += artifact;
      ring4 += quartic(artifact);
      smooth += lost;
      smooth4 += quartic(lost);
    }
    double *out = norms + c * 6;
    out[0] = per_pixel * ssim;
    out[1] = sqrt(sqrt(per_pixel * ssim4));
    out[2] = per_pixel * ring;
    out[3] = sqrt(sqrt(per_pixel * ring4));
    out[4] = per_pixel * smooth;
    out[5] = sqrt(sqrt(per_pixel * smooth4));
  }
}

// RGBA8 pixels to linear RGB planes through `to_linear` (256 entries); over a grey `background` (linear) when it is
// 0 or more, alpha ignored when it is negative.
static void linear_planes(const uint8_t *rgba, size_t pixels, const float *to_linear, float background, float *const out[3]) {
  for (size_t p = 0; p < pixels; p++) {
    const float alpha = background < 0 ? 1.0f : rgba[p * 4 + 3] * (1.0f / 255);
    for (int c = 0; c < 3; c++) {
      const float value = to_linear[rgba[p * 4 + c]];
      out[c][p] = background < 0 ? value : value * alpha + background * (1 - alpha);
    }
  }
}

// The norms of `original` against `distorted` (RGBA8, width × height, at least 8 × 8), 18 per scale into `norms`;
// returns how many scales there were (the reference stops when the last scale was under 8 pixels a side), or −1 when
// memory ran out.
__attribute__((export_name("ssimulacra2_norms"))) int ssimulacra2_norms(const uint8_t *original, const uint8_t *distorted, int width, int height, const float *to_linear, float background, double *norms) {
  const size_t pixels = (size_t)width * height;
  const int longest = width > height ? width : height;
  float *block = malloc(sizeof(float) * (pixels * 19 + 7 * (size_t)longest));
  if (!block) return -1;
  float *lin1[3], *lin2[3], *xyb1[3], *xyb2[3], *scratch[7];
  for (int c = 0; c < 3; c++) {
    lin1[c] = block + pixels * c;
    lin2[c] = block + pixels * (3 + c);
    xyb1[c] = block + pixels * (6 + c);
    xyb2[c] = block + pixels * (9 + c);
  }
  for (int i = 0; i < 7; i++) scratch[i] = block + pixels * (12 + i);
  float *state = block + pixels * 19;
  linear_planes(original, pixels, to_linear, background, lin1);
  linear_planes(distorted, pixels, to_linear, background, lin2);
  const float neg_bias_cbrt = -cbrtf(BIAS);
  int scales = 0;
  for (int scale = 0; scale < SCALES; scale++) {
    if (width < 8 || height < 8) break;
    if (scale > 0) {
      downsample(lin1, width, height);
      downsample(lin2, width, height);
      width = (width + 1) / 2;
      height = (height + 1) / 2;
    }
    const size_t count = (size_t)width * height;
    to_positive_xyb(lin1, xyb1, count, neg_bias_cbrt);
    to_positive_xyb(lin2, xyb2, count, neg_bias_cbrt);
    scale_norms(xyb1, xyb2, width, height, scratch, state, norms + scale * NORMS_PER_SCALE);
    scales++;
  }
  free(block);
  return scales;
}

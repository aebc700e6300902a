/* isaac DL example: runs the functions build.sh compiled from model.mlir
 * (a 3-layer MLP at batch 1, 16, 512 and with a dynamic batch, a transformer
 * block's projections, an f16 classifier head, convolution blocks in f32
 * and f16) on device memory, checks
 * every output element against an fp64 CPU reference, and times each
 * function (CUDA events, median of --reps calls after warm-up).
 *
 * The compiled functions take MLIR memref descriptors through their
 * `llvm.emit_c_interface` wrappers, inputs first, then one out-parameter per
 * tensor result (--isaac-pipeline turns results into out-parameters). All
 * data pointers are device pointers from cudaMalloc.
 *
 * Usage: isaac-dl [--reps N] [--only NAME]
 * Exit status: 0 when every output passes, 1 when one is wrong, 2 when a
 * CUDA or isaac runtime call fails. */

#include "isaac/Runtime/Runtime.h"

#include <cuda_runtime_api.h>

#include "example-util.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===--- Memref descriptors (MLIR's C interface) --------------------------===*/

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[1], strides[1];
} MemRef1;

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2;

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[4], strides[4];
} MemRef4;

#define M1 MemRef1 *
#define M2 MemRef2 *
#define M4 MemRef4 *
void _mlir_ciface_mlp_b1(M2 x, M2 w1, M1 b1, M2 w2, M1 b2, M2 w3, M1 b3, M2 y);
void _mlir_ciface_mlp_b16(M2 x, M2 w1, M1 b1, M2 w2, M1 b2, M2 w3, M1 b3,
                          M2 y);
void _mlir_ciface_mlp_b512(M2 x, M2 w1, M1 b1, M2 w2, M1 b2, M2 w3, M1 b3,
                           M2 y);
void _mlir_ciface_mlp_dynamic(M2 x, M2 w1, M1 b1, M2 w2, M1 b2, M2 w3, M1 b3,
                              M2 y);
void _mlir_ciface_transformer_block(M2 x, M2 wq, M1 bq, M2 wk, M1 bk, M2 wv,
                                    M1 bv, M2 wo, M1 bo, M2 w1, M1 b1, M2 w2,
                                    M1 b2, M2 q, M2 k, M2 y);
void _mlir_ciface_classifier_f16(M2 x, M2 w, M1 b, M2 y);
void _mlir_ciface_conv_block(M4 x, M4 w1, M1 b1, M4 w2, M1 b2, M4 y);
void _mlir_ciface_conv_block_nchw(M4 x, M4 w1, M1 b1, M4 w2, M1 b2, M4 y);
void _mlir_ciface_conv_nchw_odd(M4 x, M4 w, M1 b, M4 y);
void _mlir_ciface_conv_deep(M4 x, M4 w, M1 b, M4 y);
void _mlir_ciface_conv_f16(M4 x, M4 w, M1 b, M4 y);
void _mlir_ciface_conv_f16_wide(M4 x, M4 w, M1 b, M4 y);
void _mlir_ciface_conv_pointwise(M4 x, M4 w, M1 b, M4 y);
typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[3], strides[3];
} MemRef3;
void _mlir_ciface_conv_1d(MemRef3 *x, MemRef3 *w, M1 b, MemRef3 *y);

/* The sizes of gen_model.py. */
enum { D_IN = 512, D_H = 1024, D_OUT = 256, T = 128, D = 512, F = 2048 };
enum { CB_N = 8, CB_H = 28, CB_C = 64 };

/*===--- Random data ------------------------------------------------------===*/

static double randomUniform(void) { /* in [-1, 1) */
  return (double)(splitmix64() >> 11) * 0x1.0p-52 - 1.0;
}

/*===--- Tensors: host fp32 values, an fp64 copy, a device copy -----------===*/

typedef struct {
  int64_t rows, cols; /* cols = 0: a vector of `rows` */
  float *host;
  double *ref;        /* fp64 reference (outputs) or the values (inputs) */
  double *mag;        /* |.| propagated through the computation */
  void *dev;
  int f16;            /* device elements are f16 */
} Tensor;

static size_t count(const Tensor *t) {
  return (size_t)t->rows * (size_t)(t->cols ? t->cols : 1);
}

/* An input with values uniform in [-scale, scale). */
static Tensor input(int64_t rows, int64_t cols, double scale) {
  Tensor t = {rows, cols, NULL, NULL, NULL, NULL, 0};
  size_t n = count(&t);
  t.host = xmalloc(n * sizeof(float));
  t.ref = xmalloc(n * sizeof(double));
  t.mag = xmalloc(n * sizeof(double));
  for (size_t i = 0; i < n; ++i) {
    t.host[i] = (float)(scale * randomUniform());
    t.ref[i] = t.host[i];
    t.mag[i] = fabs(t.ref[i]);
  }
  CUDA_CHECK(cudaMalloc(&t.dev, n * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(t.dev, t.host, n * sizeof(float),
                        cudaMemcpyHostToDevice));
  return t;
}

/* The f16 nearest to `f` (round to nearest even; finite, normal or
   subnormal inputs of the magnitudes used here). */
static uint16_t floatToHalf(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  float a = fabsf(f);
  if (a < 0x1.0p-24f)
    return (uint16_t)sign;
  int e;
  float m = frexpf(a, &e); /* a = m * 2^e, m in [0.5, 1) */
  /* Units of the last place: 2^(e-11) for normals, 2^-24 below 2^-14. */
  int ulpExp = e - 11 < -24 ? -24 : e - 11;
  float q = nearbyintf(ldexpf(a, -ulpExp)); /* rounds half to even */
  (void)m;
  uint32_t units = (uint32_t)q;
  uint32_t bits;
  if (ulpExp == -24) {
    bits = units; /* subnormal (or the smallest normal, 0x400) */
  } else {
    if (units == 0x800) { /* rounded up to the next binade */
      units = 0x400;
      ++ulpExp;
    }
    bits = ((uint32_t)(ulpExp + 25) << 10) | (units & 0x3ff);
  }
  return (uint16_t)(sign | bits);
}

static float halfToFloat(uint16_t h);

/* An f16 input: values uniform in [-scale, scale) rounded to f16, which
   the reference then reads exactly. */
static Tensor inputF16(int64_t rows, int64_t cols, double scale) {
  Tensor t = {rows, cols, NULL, NULL, NULL, NULL, 1};
  size_t n = count(&t);
  t.host = xmalloc(n * sizeof(float));
  t.ref = xmalloc(n * sizeof(double));
  t.mag = xmalloc(n * sizeof(double));
  uint16_t *h = xmalloc(n * 2);
  for (size_t i = 0; i < n; ++i) {
    h[i] = floatToHalf((float)(scale * randomUniform()));
    t.host[i] = halfToFloat(h[i]);
    t.ref[i] = t.host[i];
    t.mag[i] = fabs(t.ref[i]);
  }
  CUDA_CHECK(cudaMalloc(&t.dev, n * 2));
  CUDA_CHECK(cudaMemcpy(t.dev, h, n * 2, cudaMemcpyHostToDevice));
  free(h);
  return t;
}

static Tensor output(int64_t rows, int64_t cols, int f16) {
  Tensor t = {rows, cols, NULL, NULL, NULL, NULL, f16};
  size_t n = count(&t);
  t.host = xmalloc(n * sizeof(float));
  t.ref = xmalloc(n * sizeof(double));
  t.mag = xmalloc(n * sizeof(double));
  CUDA_CHECK(cudaMalloc(&t.dev, n * (f16 ? 2 : sizeof(float))));
  /* NaN everywhere: an element the program forgets to write fails. */
  CUDA_CHECK(cudaMemset(t.dev, 0xff, n * (f16 ? 2 : sizeof(float))));
  return t;
}

static void release(Tensor *t) {
  free(t->host);
  free(t->ref);
  free(t->mag);
  CUDA_CHECK(cudaFree(t->dev));
}

static MemRef1 desc1(const Tensor *t) {
  MemRef1 d = {t->dev, t->dev, 0, {t->rows}, {1}};
  return d;
}
static MemRef2 desc2(const Tensor *t) {
  MemRef2 d = {t->dev, t->dev, 0, {t->rows, t->cols}, {t->cols, 1}};
  return d;
}
/* A packed 4-D view (NHWC, or a filter layout) of `t`, whose rows x cols
   elements hold the d0 x d1 x d2 x d3 ones. */
static MemRef4 desc4(const Tensor *t, int64_t d0, int64_t d1, int64_t d2,
                     int64_t d3) {
  MemRef4 d = {t->dev, t->dev, 0, {d0, d1, d2, d3},
               {d1 * d2 * d3, d2 * d3, d3, 1}};
  return d;
}

/*===--- The fp64 reference ------------------------------------------------===*/

typedef enum { NONE, RELU, GELU_TANH, GELU_ERF } Act;

static double activate(Act act, double v) {
  switch (act) {
  case RELU:
    return v > 0 ? v : 0;
  case GELU_TANH:
    return 0.5 * v *
           (1 + tanh(0.7978845608028654 * (v + 0.044715 * v * v * v)));
  case GELU_ERF:
    return 0.5 * v * (1 + erf(v * 0.7071067811865476));
  default:
    return v;
  }
}

/* out = act(in @ w + b) [+ res] in fp64. `mag` gets the same computation
   on magnitudes (|in| @ |w| + |b|, scaled by the activation's Lipschitz
   bound, + |res|): the scale of the rounding error any correct float
   evaluation can make, against which errors are measured. */
static void dense(const Tensor *in, const Tensor *w, const Tensor *b, Act act,
                  const Tensor *res, Tensor *out) {
  int64_t rows = in->rows, k = in->cols, n = w->cols;
  double lip = act == NONE || act == RELU ? 1.0 : 1.13;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0, mag = 0;
      for (int64_t i = 0; i < k; ++i) {
        acc += in->ref[r * k + i] * w->ref[i * n + j];
        mag += in->mag[r * k + i] * fabs(w->ref[i * n + j]);
      }
      double v = activate(act, acc + b->ref[j]);
      mag = lip * (mag + fabs(b->ref[j]));
      if (res) {
        v += res->ref[r * n + j];
        mag += res->mag[r * n + j];
      }
      out->ref[r * n + j] = v;
      out->mag[r * n + j] = mag;
    }
}

static float halfToFloat(uint16_t h) {
  uint32_t sign = (uint32_t)(h >> 15) << 31, exp = (h >> 10) & 0x1f,
           frac = h & 0x3ff;
  float v;
  if (exp == 0)
    v = ldexpf((float)frac, -24);
  else if (exp == 31)
    v = frac ? NAN : INFINITY;
  else
    v = ldexpf((float)(frac | 0x400), (int)exp - 25);
  return sign ? -v : v;
}

/* Copies the device output back and compares every element: error =
   |got - ref| / (mag + tiny), tolerance per output type. Returns 1 on
   pass and prints one line. */
static int check(const char *fn, const char *what, Tensor *t, double tol,
                 double *worstOut) {
  size_t n = count(t);
  if (t->f16) {
    uint16_t *h = xmalloc(n * 2);
    CUDA_CHECK(cudaMemcpy(h, t->dev, n * 2, cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n; ++i)
      t->host[i] = halfToFloat(h[i]);
    free(h);
  } else {
    CUDA_CHECK(cudaMemcpy(t->host, t->dev, n * sizeof(float),
                          cudaMemcpyDeviceToHost));
  }
  double worst = -1;
  size_t worstAt = 0, bad = 0;
  for (size_t i = 0; i < n; ++i) {
    double e = fabs((double)t->host[i] - t->ref[i]) / (t->mag[i] + DBL_MIN);
    if (!(e <= DBL_MAX))
      e = INFINITY; /* NaN: an element not written, or garbage */
    if (!(e <= tol))
      ++bad;
    if (e > worst) {
      worst = e;
      worstAt = i;
    }
  }
  printf("  %-18s %-3s %6" PRId64 "x%-5" PRId64 " max error %.3g (tolerance "
         "%.0e) at %zu: got %.7g, expected %.7g: %s\n",
         fn, what, t->rows, t->cols, worst, tol, worstAt,
         (double)t->host[worstAt], t->ref[worstAt], bad ? "WRONG" : "ok");
  if (worst > *worstOut)
    *worstOut = worst;
  return bad == 0;
}

/*===--- Timing -------------------------------------------------------------===*/

static int reps = 20;

static int cmpFloat(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return x < y ? -1 : x > y;
}

/* Median time of one call of `run` (milliseconds; CUDA events around the
   call, so host-side launch costs count where the GPU waits for them),
   after 3 warm-ups. *backToBack gets the mean time per call of `reps`
   calls issued back to back (throughput). */
static double timeCalls(void (*run)(void *), void *ctx, double *backToBack) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  for (int i = 0; i < 3; ++i)
    run(ctx);
  float *ms = xmalloc(sizeof(float) * (size_t)reps);
  for (int i = 0; i < reps; ++i) {
    CUDA_CHECK(cudaEventRecord(start, 0));
    run(ctx);
    CUDA_CHECK(cudaEventRecord(stop, 0));
    CUDA_CHECK(cudaEventSynchronize(stop));
    CUDA_CHECK(cudaEventElapsedTime(&ms[i], start, stop));
  }
  qsort(ms, (size_t)reps, sizeof(float), cmpFloat);
  double median = ms[reps / 2];
  CUDA_CHECK(cudaEventRecord(start, 0));
  for (int i = 0; i < reps; ++i)
    run(ctx);
  CUDA_CHECK(cudaEventRecord(stop, 0));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float total = 0;
  CUDA_CHECK(cudaEventElapsedTime(&total, start, stop));
  *backToBack = total / reps;
  free(ms);
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return median;
}

/* One call of `run` for the checks: isaac's error state cleared before,
   the GPU synchronized and the error state checked after. */
static void runOnce(const char *name, void (*run)(void *), void *ctx) {
  isaacClearLastError();
  run(ctx);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkIsaac(name);
}

/* Times `run` (timeCalls) and prints its TIME line: the problem's size as
   `key`=`size`, `flops` a call. */
static void timeAndReport(const char *name, void (*run)(void *), void *ctx,
                          const char *key, int64_t size, double flops) {
  double b2b;
  double ms = timeCalls(run, ctx, &b2b);
  checkIsaac(name);
  printf("TIME %s %s=%" PRId64 " %.4f ms %.2f TFLOPS back-to-back %.4f ms\n",
         name, key, size, ms, flops / ms * 1e-9, b2b);
}

/*===--- The MLP ------------------------------------------------------------===*/

typedef void (*MlpFn)(M2, M2, M1, M2, M1, M2, M1, M2);

typedef struct {
  MlpFn fn;
  Tensor *x, *w1, *b1, *w2, *b2, *w3, *b3, *y;
} MlpCall;

static void runMlp(void *p) {
  MlpCall *c = p;
  MemRef2 x = desc2(c->x), w1 = desc2(c->w1), w2 = desc2(c->w2),
          w3 = desc2(c->w3), y = desc2(c->y);
  MemRef1 b1 = desc1(c->b1), b2 = desc1(c->b2), b3 = desc1(c->b3);
  c->fn(&x, &w1, &b1, &w2, &b2, &w3, &b3, &y);
}

static int mlp(const char *name, MlpFn fn, int64_t batch, double *worst) {
  Tensor x = input(batch, D_IN, 1.0);
  Tensor w1 = input(D_IN, D_H, 1.0 / sqrt(D_IN)), b1 = input(D_H, 0, 0.1);
  Tensor w2 = input(D_H, D_H, 1.0 / sqrt(D_H)), b2 = input(D_H, 0, 0.1);
  Tensor w3 = input(D_H, D_OUT, 1.0 / sqrt(D_H)), b3 = input(D_OUT, 0, 0.1);
  Tensor y = output(batch, D_OUT, 0);
  Tensor h1 = output(batch, D_H, 0), h2 = output(batch, D_H, 0);
  dense(&x, &w1, &b1, RELU, NULL, &h1);
  dense(&h1, &w2, &b2, GELU_TANH, NULL, &h2);
  dense(&h2, &w3, &b3, NONE, NULL, &y);

  MlpCall call = {fn, &x, &w1, &b1, &w2, &b2, &w3, &b3, &y};
  runOnce(name, runMlp, &call);
  int ok = check(name, "y", &y, 1e-5, worst);
  timeAndReport(name, runMlp, &call, "batch", batch,
                2.0 * batch * (D_IN * D_H + D_H * D_H + D_H * D_OUT));
  Tensor *all[] = {&x, &w1, &b1, &w2, &b2, &w3, &b3, &y, &h1, &h2};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    release(all[i]);
  return ok;
}

/*===--- The transformer block ----------------------------------------------===*/

typedef struct {
  Tensor *x, *wq, *bq, *wk, *bk, *wv, *bv, *wo, *bo, *w1, *b1, *w2, *b2;
  Tensor *q, *k, *y;
} BlockCall;

static void runBlock(void *p) {
  BlockCall *c = p;
  MemRef2 x = desc2(c->x), wq = desc2(c->wq), wk = desc2(c->wk),
          wv = desc2(c->wv), wo = desc2(c->wo), w1 = desc2(c->w1),
          w2 = desc2(c->w2), q = desc2(c->q), k = desc2(c->k),
          y = desc2(c->y);
  MemRef1 bq = desc1(c->bq), bk = desc1(c->bk), bv = desc1(c->bv),
          bo = desc1(c->bo), b1 = desc1(c->b1), b2 = desc1(c->b2);
  _mlir_ciface_transformer_block(&x, &wq, &bq, &wk, &bk, &wv, &bv, &wo, &bo,
                                 &w1, &b1, &w2, &b2, &q, &k, &y);
}

static int block(double *worst) {
  const char *name = "transformer_block";
  Tensor x = input(T, D, 1.0);
  double sd = 1.0 / sqrt(D), sf = 1.0 / sqrt(F);
  Tensor wq = input(D, D, sd), bq = input(D, 0, 0.1);
  Tensor wk = input(D, D, sd), bk = input(D, 0, 0.1);
  Tensor wv = input(D, D, sd), bv = input(D, 0, 0.1);
  Tensor wo = input(D, D, sd), bo = input(D, 0, 0.1);
  Tensor w1 = input(D, F, sd), b1 = input(F, 0, 0.1);
  Tensor w2 = input(F, D, sf), b2 = input(D, 0, 0.1);
  Tensor q = output(T, D, 0), k = output(T, D, 0), y = output(T, D, 0);
  Tensor v = output(T, D, 0), o = output(T, D, 0), h = output(T, F, 0);
  dense(&x, &wq, &bq, NONE, NULL, &q);
  dense(&x, &wk, &bk, NONE, NULL, &k);
  dense(&x, &wv, &bv, NONE, NULL, &v);
  dense(&v, &wo, &bo, NONE, &x, &o);
  dense(&o, &w1, &b1, GELU_ERF, NULL, &h);
  dense(&h, &w2, &b2, NONE, &o, &y);

  BlockCall call = {&x, &wq, &bq, &wk, &bk, &wv, &bv, &wo,
                    &bo, &w1, &b1, &w2, &b2, &q,  &k,  &y};
  runOnce(name, runBlock, &call);
  int ok = check(name, "q", &q, 1e-5, worst) &
           check(name, "k", &k, 1e-5, worst) &
           check(name, "y", &y, 1e-5, worst);
  timeAndReport(name, runBlock, &call, "tokens", T,
                2.0 * T * (4.0 * D * D + 2.0 * D * F));
  Tensor *all[] = {&x, &wq, &bq, &wk, &bk, &wv, &bv, &wo, &bo,
                   &w1, &b1, &w2, &b2, &q,  &k,  &y,  &v,  &o, &h};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    release(all[i]);
  return ok;
}

/*===--- The f16 classifier head ------------------------------------------===*/

static int classifier(double *worst) {
  const char *name = "classifier_f16";
  Tensor x = input(64, D_H, 1.0);
  Tensor w = input(D_H, D_OUT, 1.0 / sqrt(D_H)), b = input(D_OUT, 0, 0.1);
  Tensor y = output(64, D_OUT, /*f16=*/1);
  dense(&x, &w, &b, RELU, NULL, &y);
  MemRef2 dx = desc2(&x), dw = desc2(&w), dy = desc2(&y);
  MemRef1 db = desc1(&b);
  isaacClearLastError();
  _mlir_ciface_classifier_f16(&dx, &dw, &db, &dy);
  CUDA_CHECK(cudaDeviceSynchronize());
  checkIsaac(name);
  /* f16 keeps 11 significant bits: 2^-11 of the value, plus the GEMM's. */
  int ok = check(name, "y", &y, 1e-3, worst);
  Tensor *all[] = {&x, &w, &b, &y};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    release(all[i]);
  return ok;
}

/*===--- Convolutions --------------------------------------------------------===*/

/* One NHWC convolution with `pad` zero rows and columns on each side: in
   is n x h x w x c (rows n*h*w, cols c), the filters r x s x c x k (hwcf)
   or k x r x s x c (fhwc), out n x p x q x k: out = act(conv + b [+ res]),
   in fp64, with the magnitudes as dense() computes them. */
typedef struct {
  int64_t n, h, w, c, k, r, s, stride, pad;
  int fhwc;
} ConvDims;

static int64_t convP(const ConvDims *d) {
  return (d->h + 2 * d->pad - d->r) / d->stride + 1;
}
static int64_t convQ(const ConvDims *d) {
  return (d->w + 2 * d->pad - d->s) / d->stride + 1;
}

static void convRef(const ConvDims *d, const Tensor *in, const Tensor *f,
                    const Tensor *b, const Tensor *res, Act act, Tensor *out) {
  int64_t P = convP(d), Q = convQ(d);
  for (int64_t n = 0; n < d->n; ++n)
    for (int64_t p = 0; p < P; ++p)
      for (int64_t q = 0; q < Q; ++q)
        for (int64_t k = 0; k < d->k; ++k) {
          double acc = 0, mag = 0;
          for (int64_t r = 0; r < d->r; ++r)
            for (int64_t s = 0; s < d->s; ++s)
              for (int64_t c = 0; c < d->c; ++c) {
                int64_t iy = p * d->stride + r - d->pad,
                        ix = q * d->stride + s - d->pad;
                if (iy < 0 || iy >= d->h || ix < 0 || ix >= d->w)
                  continue; /* the padding reads zero */
                size_t ii = (size_t)(((n * d->h + iy) * d->w + ix) * d->c + c);
                size_t fi = d->fhwc
                                ? (size_t)(((k * d->r + r) * d->s + s) * d->c + c)
                                : (size_t)(((r * d->s + s) * d->c + c) * d->k + k);
                acc += in->ref[ii] * f->ref[fi];
                mag += in->mag[ii] * fabs(f->ref[fi]);
              }
          size_t oi = (size_t)(((n * P + p) * Q + q) * d->k + k);
          double v = acc + b->ref[k];
          mag += fabs(b->ref[k]);
          if (res) {
            v += res->ref[oi];
            mag += res->mag[oi];
          }
          out->ref[oi] = activate(act, v);
          out->mag[oi] = mag;
        }
}

typedef struct {
  Tensor *x, *w1, *b1, *w2, *b2, *y;
  ConvDims d1, d2;
} ConvBlockCall;

static void runConvBlock(void *p) {
  ConvBlockCall *c = p;
  const ConvDims *a = &c->d1, *b = &c->d2;
  MemRef4 x = desc4(c->x, a->n, a->h, a->w, a->c);
  MemRef4 w1 = desc4(c->w1, a->r, a->s, a->c, a->k);
  MemRef4 w2 = desc4(c->w2, b->k, b->r, b->s, b->c);
  MemRef4 y = desc4(c->y, b->n, convP(b), convQ(b), b->k);
  MemRef1 b1 = desc1(c->b1), b2 = desc1(c->b2);
  _mlir_ciface_conv_block(&x, &w1, &b1, &w2, &b2, &y);
}

/* A ResNet basic block, "same" padding: h = relu(conv(x, w1) + b1), then
   y = relu(conv(h, w2) + b2 + x). */
static int convBlock(double *worst) {
  const char *name = "conv_block";
  ConvDims d1 = {CB_N, CB_H, CB_H, CB_C, CB_C, 3, 3, 1, 1, 0};
  ConvDims d2 = {CB_N, CB_H, CB_H, CB_C, CB_C, 3, 3, 1, 1, 1};
  int64_t npq = CB_N * CB_H * CB_H;
  Tensor x = input(npq, CB_C, 1.0);
  Tensor w1 = input(9 * CB_C, CB_C, 1.0 / sqrt(9.0 * CB_C));
  Tensor b1 = input(CB_C, 0, 0.1);
  Tensor w2 = input(CB_C * 9, CB_C, 1.0 / sqrt(9.0 * CB_C));
  Tensor b2 = input(CB_C, 0, 0.1);
  Tensor h = output(npq, CB_C, 0), y = output(npq, CB_C, 0);
  convRef(&d1, &x, &w1, &b1, NULL, RELU, &h);
  convRef(&d2, &h, &w2, &b2, &x, RELU, &y);
  ConvBlockCall call = {&x, &w1, &b1, &w2, &b2, &y, d1, d2};
  runOnce(name, runConvBlock, &call);
  int ok = check(name, "y", &y, 1e-5, worst);
  timeAndReport(name, runConvBlock, &call, "n", CB_N,
                2.0 * 2 * 9 * CB_C * CB_C * npq);
  Tensor *all[] = {&x, &w1, &b1, &w2, &b2, &h, &y};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    release(all[i]);
  return ok;
}

/* The offset of element (i, h, w, c) of an N x H x W x C tensor in its
   NCHW order. */
static size_t nchwIndex(int64_t i, int64_t h, int64_t w, int64_t c,
                        int64_t H, int64_t W, int64_t C) {
  return (size_t)(((i * C + c) * H + h) * W + w);
}

/* Replaces `t`'s device copy (NHWC, or FHWC filters: n x h x w x c) by the
   same values in NCHW (FCHW) order; the host values and the fp64 copy stay
   NHWC, for the reference. */
static void deviceToNchw(Tensor *t, int64_t n, int64_t h, int64_t w,
                         int64_t c) {
  size_t count = (size_t)(n * h * w * c);
  float *v = xmalloc(count * sizeof(float));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t k = 0; k < c; ++k)
          v[nchwIndex(i, y, x, k, h, w, c)] =
              t->host[(size_t)(((i * h + y) * w + x) * c + k)];
  CUDA_CHECK(cudaMemcpy(t->dev, v, count * sizeof(float),
                        cudaMemcpyHostToDevice));
  free(v);
}

/* Puts `t`'s reference (NHWC) into NCHW order, the order of the result the
   device writes. */
static void referenceToNchw(Tensor *t, int64_t n, int64_t h, int64_t w,
                            int64_t c) {
  size_t count = (size_t)(n * h * w * c);
  double *ref = xmalloc(count * sizeof(double));
  double *mag = xmalloc(count * sizeof(double));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t y = 0; y < h; ++y)
      for (int64_t x = 0; x < w; ++x)
        for (int64_t k = 0; k < c; ++k) {
          size_t from = (size_t)(((i * h + y) * w + x) * c + k);
          ref[nchwIndex(i, y, x, k, h, w, c)] = t->ref[from];
          mag[nchwIndex(i, y, x, k, h, w, c)] = t->mag[from];
        }
  free(t->ref);
  free(t->mag);
  t->ref = ref;
  t->mag = mag;
}

static void runConvBlockNchw(void *p) {
  ConvBlockCall *c = p;
  const ConvDims *a = &c->d1;
  MemRef4 x = desc4(c->x, a->n, a->c, a->h, a->w);
  MemRef4 w1 = desc4(c->w1, a->k, a->c, a->r, a->s);
  MemRef4 w2 = desc4(c->w2, a->k, a->c, a->r, a->s);
  MemRef4 y = desc4(c->y, a->n, a->k, a->h, a->w);
  MemRef1 b1 = desc1(c->b1), b2 = desc1(c->b2);
  _mlir_ciface_conv_block_nchw(&x, &w1, &b1, &w2, &b2, &y);
}

/* conv_block in PyTorch's layout (NCHW data, FCHW filters): the same
   reference, computed in NHWC, with the device data and the result's
   reference permuted. */
static int convBlockNchw(double *worst) {
  const char *name = "conv_block_nchw";
  ConvDims d = {CB_N, CB_H, CB_H, CB_C, CB_C, 3, 3, 1, 1, 1};
  int64_t npq = CB_N * CB_H * CB_H;
  Tensor x = input(npq, CB_C, 1.0);
  Tensor w1 = input(CB_C * 9, CB_C, 1.0 / sqrt(9.0 * CB_C));
  Tensor b1 = input(CB_C, 0, 0.1);
  Tensor w2 = input(CB_C * 9, CB_C, 1.0 / sqrt(9.0 * CB_C));
  Tensor b2 = input(CB_C, 0, 0.1);
  Tensor h = output(npq, CB_C, 0), y = output(npq, CB_C, 0);
  convRef(&d, &x, &w1, &b1, NULL, RELU, &h);
  convRef(&d, &h, &w2, &b2, &x, RELU, &y);
  deviceToNchw(&x, CB_N, CB_H, CB_H, CB_C);
  deviceToNchw(&w1, CB_C, 3, 3, CB_C);
  deviceToNchw(&w2, CB_C, 3, 3, CB_C);
  referenceToNchw(&y, CB_N, CB_H, CB_H, CB_C);
  ConvBlockCall call = {&x, &w1, &b1, &w2, &b2, &y, d, d};
  runOnce(name, runConvBlockNchw, &call);
  int ok = check(name, "y", &y, 1e-5, worst);
  timeAndReport(name, runConvBlockNchw, &call, "n", CB_N,
                2.0 * 2 * 9 * CB_C * CB_C * npq);
  Tensor *all[] = {&x, &w1, &b1, &w2, &b2, &h, &y};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    release(all[i]);
  return ok;
}

typedef struct {
  void (*fn)(M4, M4, M1, M4);
  Tensor *x, *w, *b, *y;
  ConvDims d;
} ConvCall;

static void runConv(void *p) {
  ConvCall *c = p;
  const ConvDims *d = &c->d;
  MemRef4 x = desc4(c->x, d->n, d->h, d->w, d->c);
  MemRef4 w = d->fhwc ? desc4(c->w, d->k, d->r, d->s, d->c)
                      : desc4(c->w, d->r, d->s, d->c, d->k);
  MemRef4 y = desc4(c->y, d->n, convP(d), convQ(d), d->k);
  MemRef1 b = desc1(c->b);
  c->fn(&x, &w, &b, &y);
}

/* act(conv(x, w) + b) of `d`, f16 or f32 throughout. */
static int convSingle(const char *name, void (*fn)(M4, M4, M1, M4),
                      ConvDims d, Act act, int f16, double *worst) {
  int64_t npq = d.n * convP(&d) * convQ(&d), crs = d.c * d.r * d.s;
  Tensor x = f16 ? inputF16(d.n * d.h * d.w, d.c, 1.0)
                 : input(d.n * d.h * d.w, d.c, 1.0);
  double ws = 1.0 / sqrt((double)crs);
  Tensor w = f16 ? inputF16(crs, d.k, ws) : input(crs, d.k, ws);
  Tensor b = f16 ? inputF16(d.k, 0, 0.1) : input(d.k, 0, 0.1);
  Tensor y = output(npq, d.k, f16);
  convRef(&d, &x, &w, &b, NULL, act, &y);
  ConvCall call = {fn, &x, &w, &b, &y, d};
  runOnce(name, runConv, &call);
  /* f16 keeps 11 significant bits, and an f16 epilogue rounds twice (the
     sum to f16, then the bias add): 2 * 2^-11 of the value. */
  int ok = check(name, "y", &y, f16 ? 2e-3 : 1e-5, worst);
  timeAndReport(name, runConv, &call, "n", d.n,
                2.0 * npq * d.k * crs);
  Tensor *all[] = {&x, &w, &b, &y};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    release(all[i]);
  return ok;
}

static void runConvNchw(void *p) {
  ConvCall *c = p;
  const ConvDims *d = &c->d;
  MemRef4 x = desc4(c->x, d->n, d->c, d->h, d->w);
  MemRef4 w = desc4(c->w, d->k, d->c, d->r, d->s);
  MemRef4 y = desc4(c->y, d->n, d->k, convP(d), convQ(d));
  MemRef1 b = desc1(c->b);
  c->fn(&x, &w, &b, &y);
}

/* act(conv(x, w) + b) of `d` (FCHW filters, d.fhwc = 1) in NCHW: the
   reference in NHWC, the device data and the result's reference
   permuted, as for conv_block_nchw. */
static int convNchw(const char *name, void (*fn)(M4, M4, M1, M4), ConvDims d,
                    Act act, double *worst) {
  int64_t P = convP(&d), Q = convQ(&d), crs = d.c * d.r * d.s;
  Tensor x = input(d.n * d.h * d.w, d.c, 1.0);
  Tensor w = input(crs, d.k, 1.0 / sqrt((double)crs));
  Tensor b = input(d.k, 0, 0.1);
  Tensor y = output(d.n * P * Q, d.k, 0);
  convRef(&d, &x, &w, &b, NULL, act, &y);
  deviceToNchw(&x, d.n, d.h, d.w, d.c);
  deviceToNchw(&w, d.k, d.r, d.s, d.c);
  referenceToNchw(&y, d.n, P, Q, d.k);
  ConvCall call = {fn, &x, &w, &b, &y, d};
  runOnce(name, runConvNchw, &call);
  int ok = check(name, "y", &y, 1e-5, worst);
  Tensor *all[] = {&x, &w, &b, &y};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; ++i)
    release(all[i]);
  return ok;
}

/* conv_1d's 3-D operands, as MemRef4 of a unit dimension the function
   does not see. */
static MemRef3 drop1(MemRef4 d, int unit) {
  MemRef3 r = {d.allocated, d.aligned, d.offset, {0, 0, 0}, {0, 0, 0}};
  for (int i = 0, j = 0; i < 4; ++i)
    if (i != unit) {
      r.sizes[j] = d.sizes[i];
      r.strides[j++] = d.strides[i];
    }
  return r;
}

static void conv1dCall(M4 x, M4 w, M1 b, M4 y) {
  MemRef3 x3 = drop1(*x, 1), w3 = drop1(*w, 0), y3 = drop1(*y, 1);
  _mlir_ciface_conv_1d(&x3, &w3, b, &y3);
}

int main(int argc, char **argv) {
  const char *only = NULL;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--reps N] [--only NAME]\n", argv[0]);
      return 2;
    }
  }
  if (reps < 1)
    reps = 1;
  setvbuf(stdout, NULL, _IOLBF, 0);
  CUDA_CHECK(cudaSetDevice(0));
  CUDA_CHECK(cudaFree(0)); /* make the primary context current */
  struct cudaDeviceProp prop;
  CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
  printf("device: %s (sm_%d%d)\n", prop.name, prop.major, prop.minor);

  int passed = 1, n = 0;
  double worst = 0;
#define RUN(NAME, CALL)                                                        \
  if (!only || strcmp(only, NAME) == 0) {                                      \
    passed &= (CALL);                                                          \
    ++n;                                                                       \
  }
  RUN("mlp_b1", mlp("mlp_b1", _mlir_ciface_mlp_b1, 1, &worst));
  RUN("mlp_b16", mlp("mlp_b16", _mlir_ciface_mlp_b16, 16, &worst));
  RUN("mlp_b512", mlp("mlp_b512", _mlir_ciface_mlp_b512, 512, &worst));
  RUN("mlp_dynamic", mlp("mlp_dynamic", _mlir_ciface_mlp_dynamic, 16, &worst));
  RUN("mlp_dynamic_b512",
      mlp("mlp_dynamic", _mlir_ciface_mlp_dynamic, 512, &worst));
  RUN("transformer_block", block(&worst));
  RUN("classifier_f16", classifier(&worst));
  RUN("conv_block", convBlock(&worst));
  RUN("conv_block_nchw", convBlockNchw(&worst));
  ConvDims odd = {3, 17, 13, 3, 5, 3, 3, 2, 1, 1};
  RUN("conv_nchw_odd", convNchw("conv_nchw_odd", _mlir_ciface_conv_nchw_odd,
                                odd, RELU, &worst));
  ConvDims deep = {1, 9, 9, 512, 512, 3, 3, 1, 0, 0};
  RUN("conv_deep",
      convSingle("conv_deep", _mlir_ciface_conv_deep, deep, NONE, 0, &worst));
  ConvDims half = {2, 33, 33, 32, 64, 3, 3, 2, 0, 1};
  RUN("conv_f16",
      convSingle("conv_f16", _mlir_ciface_conv_f16, half, RELU, 1, &worst));
  ConvDims wide = {8, 28, 28, 64, 128, 3, 3, 1, 1, 0};
  RUN("conv_f16_wide", convSingle("conv_f16_wide", _mlir_ciface_conv_f16_wide,
                                  wide, RELU, 1, &worst));
  ConvDims pointwise = {8, 14, 14, 64, 256, 1, 1, 1, 0, 0};
  RUN("conv_pointwise", convSingle("conv_pointwise",
                                   _mlir_ciface_conv_pointwise, pointwise,
                                   RELU, 0, &worst));
  /* 1-D: height 1 (the reference and the descriptors are 2-D ones). */
  ConvDims oneD = {4, 1, 100, 32, 64, 1, 5, 1, 0, 0};
  RUN("conv_1d", convSingle("conv_1d", conv1dCall, oneD, NONE, 0, &worst));
#undef RUN
  printf("%s: %d functions of model.mlir checked against fp64, max error "
         "%.3g, on %s\n",
         passed ? "PASS" : "FAIL", n, worst, prop.name);
  return passed ? 0 : 1;
}

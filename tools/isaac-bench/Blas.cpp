//===- Blas.cpp - cuBLAS and cuBLASLt on row-major problems ---------------===//

#include "Blas.h"
#include "CudaCheck.h"

namespace bench {

constexpr size_t kLtWorkspaceBytes = 64u << 20;

namespace {

cudaDataType cudaType(int dtype) {
  switch (dtype) {
  case 0:
    return CUDA_R_32F;
  case 1:
    return CUDA_R_64F;
  case 2:
    return CUDA_R_16F;
  default:
    return CUDA_R_16BF;
  }
}

/// f32 accumulation for every type but f64; TF32 multiplies only when the
/// problem asks for them.
cublasComputeType_t computeType(const Problem &p) {
  if (p.computeDtype() == 1)
    return CUBLAS_COMPUTE_64F;
  return p.types.tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
}

/// Whether `p` is a plain f32 or f64 GEMM, which cuBLAS runs through
/// cublasSgemm / cublasDgemm; the other types go through cublasGemmEx.
bool isClassic(const Problem &p) {
  return !p.types.tf32 && p.dtype == p.outDtype &&
         (p.dtype == 0 || p.dtype == 1);
}

} // namespace

LtPlan::~LtPlan() {
  if (first)
    CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(first));
  if (second)
    CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(second));
  if (out)
    CUBLAS_CHECK(cublasLtMatrixLayoutDestroy(out));
  if (desc)
    CUBLAS_CHECK(cublasLtMatmulDescDestroy(desc));
}

Blas::Blas(cudaStream_t stream) : stream(stream) {
  CUBLAS_CHECK(cublasCreate(&handle));
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  // Pure fp32: no TF32 tensor cores (opt-in only, but made explicit).
  CUBLAS_CHECK(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  CUBLAS_CHECK(cublasLtCreate(&ltHandle));
  ltWorkspace.reserve(kLtWorkspaceBytes);
}

Blas::~Blas() {
  if (ltHandle)
    CUBLAS_CHECK(cublasLtDestroy(ltHandle));
  if (handle)
    CUBLAS_CHECK(cublasDestroy(handle));
}

void Blas::gemm(const Problem &p, const void *A, const void *B, void *C,
                double alpha, double beta) {
  // Column-major view: C^T (N x M) = op(B)^T (N x K) * op(A)^T (K x M).
  cublasOperation_t opFirst = p.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opSecond = p.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  int m = static_cast<int>(p.N), n = static_cast<int>(p.M),
      k = static_cast<int>(p.K);
  int ldFirst = static_cast<int>(p.ldb), ldSecond = static_cast<int>(p.lda),
      ldc = static_cast<int>(p.ldc);
  int batch = static_cast<int>(p.batch);
  if (!isClassic(p)) {
    // Mixed and 16-bit types: f32 alpha and beta, the default tensor-op
    // algorithm.
    float alphaF = static_cast<float>(alpha), betaF = static_cast<float>(beta);
    cudaDataType ab = cudaType(p.dtype), c = cudaType(p.outDtype);
    if (batch == 1)
      CUBLAS_CHECK(cublasGemmEx(handle, opFirst, opSecond, m, n, k, &alphaF, B,
                                ab, ldFirst, A, ab, ldSecond, &betaF, C, c, ldc,
                                computeType(p), CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    else
      CUBLAS_CHECK(cublasGemmStridedBatchedEx(
          handle, opFirst, opSecond, m, n, k, &alphaF, B, ab, ldFirst, p.sB, A,
          ab, ldSecond, p.sA, &betaF, C, c, ldc, p.sC, batch, computeType(p),
          CUBLAS_GEMM_DEFAULT_TENSOR_OP));
  } else if (p.dtype) {
    const double *first = static_cast<const double *>(B);
    const double *second = static_cast<const double *>(A);
    double *c = static_cast<double *>(C);
    if (batch == 1)
      CUBLAS_CHECK(cublasDgemm(handle, opFirst, opSecond, m, n, k, &alpha,
                               first, ldFirst, second, ldSecond, &beta, c,
                               ldc));
    else
      CUBLAS_CHECK(cublasDgemmStridedBatched(
          handle, opFirst, opSecond, m, n, k, &alpha, first, ldFirst, p.sB,
          second, ldSecond, p.sA, &beta, c, ldc, p.sC, batch));
  } else {
    float alphaF = static_cast<float>(alpha), betaF = static_cast<float>(beta);
    const float *first = static_cast<const float *>(B);
    const float *second = static_cast<const float *>(A);
    float *c = static_cast<float *>(C);
    if (batch == 1)
      CUBLAS_CHECK(cublasSgemm(handle, opFirst, opSecond, m, n, k, &alphaF,
                               first, ldFirst, second, ldSecond, &betaF, c,
                               ldc));
    else
      CUBLAS_CHECK(cublasSgemmStridedBatched(
          handle, opFirst, opSecond, m, n, k, &alphaF, first, ldFirst, p.sB,
          second, ldSecond, p.sA, &betaF, c, ldc, p.sC, batch));
  }
}

namespace {

cublasLtMatrixLayout_t makeLayout(cudaDataType type, int64_t rows, int64_t cols,
                                  int64_t ld, int64_t batch, int64_t stride) {
  cublasLtMatrixLayout_t layout = nullptr;
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&layout, type, rows, cols, ld));
  if (batch > 1) {
    int32_t count = static_cast<int32_t>(batch);
    CUBLAS_CHECK(cublasLtMatrixLayoutSetAttribute(
        layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof(count)));
    CUBLAS_CHECK(cublasLtMatrixLayoutSetAttribute(
        layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
        sizeof(stride)));
  }
  return layout;
}

} // namespace

std::unique_ptr<LtPlan> Blas::planLt(const Problem &p, unsigned alignment,
                                     int count) {
  auto plan = std::make_unique<LtPlan>();
  plan->isF64 = p.computeDtype() == 1;
  // The scale type (alpha, beta) is the accumulation's.
  cudaDataType type = cudaType(p.dtype), out = cudaType(p.outDtype);
  CUBLAS_CHECK(cublasLtMatmulDescCreate(&plan->desc, computeType(p),
                                        cudaType(p.computeDtype())));
  cublasOperation_t opFirst = p.transB ? CUBLAS_OP_T : CUBLAS_OP_N;
  cublasOperation_t opSecond = p.transA ? CUBLAS_OP_T : CUBLAS_OP_N;
  CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(
      plan->desc, CUBLASLT_MATMUL_DESC_TRANSA, &opFirst, sizeof(opFirst)));
  CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(
      plan->desc, CUBLASLT_MATMUL_DESC_TRANSB, &opSecond, sizeof(opSecond)));
  // Layouts describe the operands as stored, column-major.
  plan->first = opFirst == CUBLAS_OP_N
                    ? makeLayout(type, p.N, p.K, p.ldb, p.batch, p.sB)
                    : makeLayout(type, p.K, p.N, p.ldb, p.batch, p.sB);
  plan->second = opSecond == CUBLAS_OP_N
                     ? makeLayout(type, p.K, p.M, p.lda, p.batch, p.sA)
                     : makeLayout(type, p.M, p.K, p.lda, p.batch, p.sA);
  plan->out = makeLayout(out, p.N, p.M, p.ldc, p.batch, p.sC);

  cublasLtMatmulPreference_t preference = nullptr;
  CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&preference));
  uint64_t workspace = kLtWorkspaceBytes;
  CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(
      preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
      sizeof(workspace)));
  // The heuristic assumes 256-byte aligned pointers unless told otherwise;
  // --misalign pointers would then be refused or mishandled.
  uint32_t align = alignment;
  for (cublasLtMatmulPreferenceAttributes_t attribute :
       {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES,
        CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES})
    CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(preference, attribute,
                                                      &align, sizeof(align)));
  plan->candidates.resize(count);
  int returned = 0;
  cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
      ltHandle, plan->desc, plan->first, plan->second, plan->out, plan->out,
      preference, count, plan->candidates.data(), &returned);
  CUBLAS_CHECK(cublasLtMatmulPreferenceDestroy(preference));
  // NOT_SUPPORTED means no algorithm fits; that is a result, not an error.
  if (status != CUBLAS_STATUS_NOT_SUPPORTED)
    CUBLAS_CHECK(status);
  plan->candidates.resize(status == CUBLAS_STATUS_SUCCESS ? returned : 0);
  return plan;
}

cublasStatus_t Blas::runLt(const LtPlan &plan, size_t index, const void *A,
                           const void *B, void *C, double alpha, double beta) {
  const cublasLtMatmulHeuristicResult_t &candidate = plan.candidates[index];
  float alphaF = static_cast<float>(alpha), betaF = static_cast<float>(beta);
  const void *alphaPtr = plan.isF64 ? static_cast<const void *>(&alpha)
                                    : static_cast<const void *>(&alphaF);
  const void *betaPtr = plan.isF64 ? static_cast<const void *>(&beta)
                                   : static_cast<const void *>(&betaF);
  return cublasLtMatmul(ltHandle, plan.desc, alphaPtr, B, plan.first, A,
                        plan.second, betaPtr, C, plan.out, C, plan.out,
                        &candidate.algo, ltWorkspace.data(),
                        candidate.workspaceSize, stream);
}

} // namespace bench

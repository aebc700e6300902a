//===- IsaacOps.cpp - isaac operations ------------------------------------===//

#include "isaac/Dialect/IsaacDialect.h"

#include "isaac/Model/ConvLegality.h"
#include "isaac/Model/Epilogue.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::isaac;

#define GET_OP_CLASSES
#include "isaac/Dialect/IsaacOps.cpp.inc"

//===----------------------------------------------------------------------===//
// GemmOp
//===----------------------------------------------------------------------===//

YieldOp GemmOp::getYield() {
  return cast<YieldOp>(getEpilogue().front().getTerminator());
}

/// Checks that `maps` are projected permutations of the `rank`-D output
/// iteration space, one per input, agreeing with the input shapes and the
/// output shape `out` on static sizes. Shared by isaac.gemm and
/// isaac.launch_gemm.
static LogicalResult verifyInputMaps(function_ref<InFlightDiagnostic()> err,
                                     ArrayAttr maps, ValueRange inputs,
                                     ShapedType out) {
  if (maps.size() != inputs.size())
    return err() << "has " << inputs.size() << " inputs but " << maps.size()
                 << " input_maps";
  if (inputs.size() > static_cast<size_t>(::isaac::kMaxEpilogueInputs))
    return err() << "has " << inputs.size() << " epilogue inputs; at most "
                 << ::isaac::kMaxEpilogueInputs << " are supported";
  int64_t rank = out.getRank();
  for (auto [i, attr, input] : llvm::enumerate(maps, inputs)) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    auto type = cast<ShapedType>(input.getType());
    if (map.getNumDims() != rank || map.getNumSymbols() != 0 ||
        !map.isProjectedPermutation(/*allowZeroInResults=*/false))
      return err() << "input_maps[" << i << "] must be a projected "
                   << "permutation of the " << rank << "-D output space";
    if (map.getNumResults() != type.getRank())
      return err() << "input_maps[" << i << "] has " << map.getNumResults()
                   << " results for a rank-" << type.getRank() << " input";
    for (unsigned j = 0; j < map.getNumResults(); ++j) {
      unsigned d = map.getDimPosition(j);
      if (!type.isDynamicDim(j) && !out.isDynamicDim(d) &&
          type.getDimSize(j) != out.getDimSize(d))
        return err() << "input " << i << " has size " << type.getDimSize(j)
                     << " along dimension " << j << ", which its map ties to "
                     << "output dimension " << d << " of size "
                     << out.getDimSize(d);
    }
  }
  return success();
}

/// Checks that A, B and C (rank 2, or 3 with a batch) form a GEMM.
static LogicalResult verifyGemmShapes(function_ref<InFlightDiagnostic()> err,
                                      ShapedType aT, ShapedType bT,
                                      ShapedType cT, bool transA, bool transB) {
  int64_t rank = cT.getRank();
  if (rank != 2 && rank != 3)
    return err() << "expects rank-2 or rank-3 (batched) operands";
  if (aT.getRank() != rank || bT.getRank() != rank)
    return err() << "expects operands of equal rank";
  int64_t off = rank - 2;
  auto same = [](int64_t x, int64_t y) {
    return ShapedType::isDynamic(x) || ShapedType::isDynamic(y) || x == y;
  };
  int64_t m = cT.getDimSize(off), n = cT.getDimSize(off + 1);
  int64_t am = aT.getDimSize(off + (transA ? 1 : 0));
  int64_t ak = aT.getDimSize(off + (transA ? 0 : 1));
  int64_t bk = bT.getDimSize(off + (transB ? 1 : 0));
  int64_t bn = bT.getDimSize(off + (transB ? 0 : 1));
  if (!same(am, m) || !same(bn, n) || !same(ak, bk))
    return err() << "operand shapes do not form a GEMM: C is " << m << "x" << n
                 << ", op(A) is " << am << "x" << ak << ", op(B) is " << bk
                 << "x" << bn;
  if (rank == 3 && (!same(aT.getDimSize(0), cT.getDimSize(0)) ||
                    !same(bT.getDimSize(0), cT.getDimSize(0))))
    return err() << "batch sizes differ";
  return success();
}

/// Checks an epilogue region: the accumulated value (of `accTy`) and one
/// element of each input as arguments, an isaac.yield of `outTy`. Shared
/// by isaac.gemm and isaac.conv.
static LogicalResult
verifyEpilogueRegion(function_ref<InFlightDiagnostic()> err, Block &body,
                     Type accTy, ValueRange inputs, Type outTy) {
  if (body.getNumArguments() != 1 + inputs.size())
    return err() << "epilogue takes the accumulated value and one element "
                    "of each input: expected "
                 << 1 + inputs.size() << " block arguments, got "
                 << body.getNumArguments();
  if (body.getArgument(0).getType() != accTy)
    return err() << "epilogue's first argument must have the accumulation "
                    "type "
                 << accTy;
  for (auto [i, input] : llvm::enumerate(inputs))
    if (body.getArgument(i + 1).getType() !=
        cast<ShapedType>(input.getType()).getElementType())
      return err() << "epilogue argument " << i + 1
                   << " must have the element type of input " << i;
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield)
    return err() << "epilogue must end with isaac.yield";
  if (yield.getValue().getType() != outTy)
    return err() << "epilogue yields " << yield.getValue().getType()
                 << " but the output elements are " << outTy;
  return success();
}

/// The memory effects of a destination-style isaac op on memrefs: `init`
/// written, every other memref operand read.
static void addDestinationEffects(
    Operation *op, OpOperand *init,
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType()))
      continue;
    if (&operand == init)
      effects.emplace_back(MemoryEffects::Write::get(), &operand,
                           SideEffects::DefaultResource::get());
    else
      effects.emplace_back(MemoryEffects::Read::get(), &operand,
                           SideEffects::DefaultResource::get());
  }
}

/// The convolution of rank-4 operand types `inT`, `fT`, `outT` (static
/// shapes) with the given layout, strides, dilations and top/left padding;
/// its types are those of a kernel whose operands are of `inT`'s element
/// type and whose output is of `outElem`. Shared by isaac.conv and
/// isaac.launch_conv.
static FailureOr<::isaac::ConvShape>
convShapeOf(ShapedType inT, ShapedType fT, ShapedType outT, Type outElem,
            StringRef layoutName, ArrayRef<int64_t> strides,
            ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding,
            std::string &why) {
  if (inT.getRank() != 4 || fT.getRank() != 4 || outT.getRank() != 4) {
    why = "expects input, filter and output of rank 4";
    return failure();
  }
  if (!inT.hasStaticShape() || !fT.hasStaticShape() || !outT.hasStaticShape()) {
    why = "expects static shapes";
    return failure();
  }
  std::optional<::isaac::ConvLayout> layout =
      ::isaac::parseConvLayout(layoutName.str());
  if (!layout || *layout == ::isaac::ConvLayout::NchwFchw) {
    why = "layout '" + layoutName.str() + "' is not nhwc_hwcf or nhwc_fhwc";
    return failure();
  }
  if (strides.size() != 2 || dilations.size() != 2 || padding.size() != 2) {
    why = "expects two strides, two dilations and two paddings";
    return failure();
  }
  Type elem = inT.getElementType();
  std::optional<::isaac::DType> dtype = getGemmDType(elem);
  std::optional<::isaac::DType> outDtype = getGemmDType(outElem);
  ::isaac::ConvShape s;
  if (dtype && outDtype) {
    s.types.ab = *dtype;
    s.types.c = *outDtype;
  }
  if (!dtype || !outDtype || fT.getElementType() != elem ||
      !s.types.isValid()) {
    why = "expects input and filters of one element type (f16, bf16, f32, "
          "f64) and an output of that type (or f32 for f16 and bf16)";
    return failure();
  }
  s.layout = *layout;
  ArrayRef<int64_t> in = inT.getShape(), f = fT.getShape(),
                    out = outT.getShape();
  s.n = in[0];
  s.h = in[1];
  s.w = in[2];
  s.c = in[3];
  s.p = out[1];
  s.q = out[2];
  s.k = out[3];
  bool hwcf = *layout == ::isaac::ConvLayout::NhwcHwcf;
  s.r = hwcf ? f[0] : f[1];
  s.s = hwcf ? f[1] : f[2];
  int64_t fc = hwcf ? f[2] : f[3], fk = hwcf ? f[3] : f[0];
  if (out[0] != s.n || fc != s.c || fk != s.k) {
    why = "operand shapes disagree: the output must be N x P x Q x K and "
          "the filters hold C input and K output channels (" +
          std::string(hwcf ? "R x S x C x K" : "K x R x S x C") + ")";
    return failure();
  }
  s.strideH = strides[0];
  s.strideW = strides[1];
  s.dilationH = dilations[0];
  s.dilationW = dilations[1];
  s.padTop = padding[0];
  s.padLeft = padding[1];
  why = s.validate();
  if (!why.empty())
    return failure();
  return s;
}

/// isaac.gemm and isaac.conv take either ranked tensors only, and then
/// return one result of their init's type (destination-passing style), or
/// memrefs only, and then have no results.
static LogicalResult verifyTensorsOrBuffers(Operation *op, Value init) {
  bool tensors = isa<RankedTensorType>(init.getType());
  for (Value v : op->getOperands()) {
    bool isTensor = isa<RankedTensorType>(v.getType());
    if (isTensor != tensors || (!isTensor && !isa<MemRefType>(v.getType())))
      return op->emitOpError("expects all operands to be ranked tensors or "
                             "all to be memrefs");
  }
  ResultRange results = op->getResults();
  if (tensors ? results.size() != 1 || results[0].getType() != init.getType()
              : !results.empty())
    return op->emitOpError(tensors ? "on tensors returns one result of the "
                                     "type of its init"
                                   : "on memrefs has no results");
  return success();
}

LogicalResult GemmOp::verify() {
  auto err = [&] { return emitOpError(); };
  auto aT = cast<ShapedType>(getA().getType());
  auto bT = cast<ShapedType>(getB().getType());
  auto cT = cast<ShapedType>(getInit().getType());
  if (failed(verifyTensorsOrBuffers(*this, getInit())))
    return failure();
  if (failed(
          verifyGemmShapes(err, aT, bT, cT, getTransposeA(), getTransposeB())))
    return failure();
  if (aT.getElementType() != bT.getElementType())
    return emitOpError("expects A and B of one element type");
  if (failed(verifyInputMaps(err, getInputMaps(), getInputs(), cT)))
    return failure();

  return verifyEpilogueRegion(err, getEpilogue().front(), getAccumulatorType(),
                              getInputs(), cT.getElementType());
}

void GemmOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (hasPureBufferSemantics())
    addDestinationEffects(getOperation(), &getInitMutable(), effects);
}

//===----------------------------------------------------------------------===//
// ConvOp
//===----------------------------------------------------------------------===//

YieldOp ConvOp::getYield() {
  return cast<YieldOp>(getEpilogue().front().getTerminator());
}

bool ConvOp::isEpilogueInputMap(AffineMap map) {
  if (map.getNumDims() != 4 || map.getNumSymbols() != 0)
    return false;
  if (map.getNumResults() == 0 || map.isIdentity())
    return true;
  return map.getNumResults() == 1 && map.getResult(0).isFunctionOfDim(3) &&
         isa<AffineDimExpr>(map.getResult(0));
}

FailureOr<::isaac::ConvShape> ConvOp::getConvShape(std::string &why) {
  auto inT = cast<ShapedType>(getInput().getType());
  return convShapeOf(inT, cast<ShapedType>(getFilter().getType()),
                     cast<ShapedType>(getInit().getType()),
                     inT.getElementType(), getLayout(), getStrides(),
                     getDilations(), getPaddingOrZero(), why);
}

LogicalResult ConvOp::verify() {
  auto err = [&] { return emitOpError(); };
  auto outT = cast<ShapedType>(getInit().getType());
  if (failed(verifyTensorsOrBuffers(*this, getInit())))
    return failure();
  std::string why;
  if (failed(getConvShape(why)))
    return emitOpError() << why;
  if (failed(verifyInputMaps(err, getInputMaps(), getInputs(), outT)))
    return failure();
  for (auto [i, attr] : llvm::enumerate(getInputMaps()))
    if (!isEpilogueInputMap(cast<AffineMapAttr>(attr).getValue()))
      return emitOpError("input_maps[")
             << i << "] must be the identity, (n, p, q, k) -> (k) or "
             << "(n, p, q, k) -> (): the kernel addresses epilogue inputs by "
                "output pixel and channel";
  return verifyEpilogueRegion(err, getEpilogue().front(), getAccumulatorType(),
                              getInputs(), outT.getElementType());
}

void ConvOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  if (hasPureBufferSemantics())
    addDestinationEffects(getOperation(), &getInitMutable(), effects);
}

//===----------------------------------------------------------------------===//
// LaunchGemmOp
//===----------------------------------------------------------------------===//

LogicalResult LaunchGemmOp::verify() {
  auto aT = cast<MemRefType>(getA().getType());
  auto bT = cast<MemRefType>(getB().getType());
  auto cT = cast<MemRefType>(getC().getType());
  auto err = [&] { return emitOpError(); };
  if (failed(verifyGemmShapes(err, aT, bT, cT, getTransA(), getTransB())))
    return failure();
  if (!aT.hasStaticShape() || !bT.hasStaticShape() || !cT.hasStaticShape())
    return emitOpError("expects static shapes");
  if (aT.getElementType() != bT.getElementType())
    return emitOpError("expects A and B of one element type");
  std::optional<::isaac::DType> dtype = getGemmDType(aT.getElementType());
  if (!dtype)
    return emitOpError("expects f32, f64, f16 or bf16 elements");
  if (getEpilogue()) {
    std::string perr;
    std::optional<::isaac::EpilogueProgram> program =
        ::isaac::EpilogueProgram::parse(getEpilogue()->str(), perr);
    if (!program)
      return emitOpError("has a malformed epilogue: ") << perr;
    if (program->numInputs() != static_cast<int>(getInputs().size()))
      return emitOpError("epilogue reads ")
             << program->numInputs() << " inputs but the launch passes "
             << getInputs().size();
    if (!getInputMaps())
      return emitOpError("with an epilogue needs input_maps");
    if (failed(verifyInputMaps(err, *getInputMaps(), getInputs(), cT)))
      return failure();
  } else {
    std::optional<::isaac::DType> cType = getGemmDType(cT.getElementType());
    ::isaac::GemmTypes types;
    types.ab = *dtype;
    types.c = cType.value_or(*dtype);
    if (!getInputs().empty() || !cType || !types.isValid())
      return emitOpError("without an epilogue takes no inputs and writes C "
                         "of the element type of A and B, or f32 for 16-bit "
                         "A and B");
  }
  return verifyGemmConfig([&] { return emitOpError(); },
                          getConfig().getConfig(), *dtype,
                          getTargetChip(*this));
}

/// The kernel a launch op names exists: before gpu-module-to-binary a
/// gpu.func inside a gpu.module, afterwards a gpu.binary of the module's
/// name.
static LogicalResult verifyKernelRef(Operation *launch, SymbolRefAttr kernel,
                                     SymbolTableCollection &symbolTable) {
  auto root = kernel.getRootReference();
  Operation *module = symbolTable.lookupNearestSymbolFrom(launch, root);
  if (!module)
    return launch->emitOpError("kernel module ") << root << " not found";
  if (isa<gpu::GPUModuleOp>(module) &&
      !symbolTable.lookupNearestSymbolFrom(launch, kernel))
    return launch->emitOpError("kernel ") << kernel << " not found";
  return success();
}

LogicalResult
LaunchGemmOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyKernelRef(*this, getKernel(), symbolTable);
}

//===----------------------------------------------------------------------===//
// LaunchConvOp
//===----------------------------------------------------------------------===//

FailureOr<::isaac::ConvShape> LaunchConvOp::getConvShape(std::string &why) {
  // A fused kernel's types are its operands' (its output is the
  // epilogue's, of any type the epilogue converts to).
  auto inT = cast<MemRefType>(getInput().getType());
  auto outT = cast<MemRefType>(getOutput().getType());
  Type outElem = getEpilogue() ? inT.getElementType() : outT.getElementType();
  return convShapeOf(inT, cast<MemRefType>(getFilter().getType()), outT,
                     outElem, getLayout(), getStrides(), getDilations(),
                     getPadding(), why);
}

LogicalResult LaunchConvOp::verify() {
  std::string why;
  FailureOr<::isaac::ConvShape> shape = getConvShape(why);
  if (failed(shape))
    return emitOpError() << why;
  std::string chip = getTargetChip(*this);
  if (failed(verifyGemmConfig([&] { return emitOpError(); },
                              getConfig().getConfig(), shape->types.ab, chip)))
    return failure();
  std::optional<::isaac::ChipLimits> limits = ::isaac::getChipLimits(chip);
  std::vector<::isaac::Violation> v =
      ::isaac::checkConvLegality(getConfig().getConfig(), *shape, *limits);
  if (!v.empty())
    return emitOpError() << "illegal isaac.config for this convolution on "
                         << chip << " (rule " << v.front().rule
                         << "): " << v.front().message;
  if (!getEpilogue()) {
    if (!getInputs().empty())
      return emitOpError("without an epilogue takes no inputs");
    return success();
  }
  std::string perr;
  std::optional<::isaac::EpilogueProgram> program =
      ::isaac::EpilogueProgram::parse(getEpilogue()->str(), perr);
  if (!program)
    return emitOpError("has a malformed epilogue: ") << perr;
  if (program->numInputs() != static_cast<int>(getInputs().size()))
    return emitOpError("epilogue reads ")
           << program->numInputs() << " inputs but the launch passes "
           << getInputs().size();
  if (getGemmDType(cast<MemRefType>(getOutput().getType()).getElementType()) !=
      program->outType)
    return emitOpError("epilogue writes ")
           << ::isaac::dtypeName(program->outType)
           << " but the output has another element type";
  if (!getInputMaps())
    return emitOpError("with an epilogue needs input_maps");
  // The inputs are addressed in the implicit GEMM's (m, n) = (N*P*Q, K)
  // space.
  auto gemmOut =
      MemRefType::get({shape->n * shape->p * shape->q, shape->k},
                      cast<MemRefType>(getOutput().getType()).getElementType());
  return verifyInputMaps([&] { return emitOpError(); }, *getInputMaps(),
                         getInputs(), gemmOut);
}

LogicalResult
LaunchConvOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyKernelRef(*this, getKernel(), symbolTable);
}

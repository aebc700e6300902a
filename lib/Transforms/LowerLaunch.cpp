//===- LowerLaunch.cpp - isaac.launch_gemm to runtime calls ---------------===//
//
// After gpu-module-to-binary each kernel's gpu.module is a gpu.binary whose
// object holds the PTX. This pass embeds that PTX (behind a comment header
// describing the kernel, docs/abi.md) as a global string, replaces every
// isaac.launch_gemm by a call to the runtime's isaacGemmLaunch (and every
// isaac.launch_conv by one to isaacConvLaunch) and, with ptx-dir, writes
// each kernel's PTX to a file.
//
//===----------------------------------------------------------------------===//

#include "isaac/Transforms/Passes.h"

#include "LaunchNames.h"

#include "isaac/Model/Epilogue.h"
#include "isaac/Model/Legality.h"
#include "isaac/Runtime/KernelABI.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::isaac {
#define GEN_PASS_DEF_ISAACLOWERLAUNCH
#include "isaac/Transforms/Passes.h.inc"
} // namespace mlir::isaac

using namespace mlir;
using namespace mlir::isaac;

/// The `// isaac.config` and `// isaac.kernel` lines of a kernel's header:
/// `op` (written for convolutions only: GEMM headers predate it), the types
/// token and layout of its name, the parameters the name writes
/// (GemmParams.def) and the numbers of its launch.
static void writeKernelLines(llvm::raw_ostream &os,
                             const ::isaac::GemmConfig &c, StringRef name,
                             StringRef op, const ::isaac::GemmTypes &types,
                             StringRef layout, StringRef chip) {
  os << "// isaac.config = #isaac.gemm<" << c.str() << ">\n";
  os << "// isaac.kernel name=" << name;
  if (!op.empty())
    os << " op=" << op;
  os << " dtype=" << types.token() << " layout=" << layout;
  for (const ::isaac::GemmParamInfo &p : ::isaac::kGemmParams)
    if (c.isWritten(p.param))
      os << " " << p.name << "=" << c.get(p.param);
  os << " threads=" << c.threads()
     << " smem=" << ::isaac::gemmSharedMemoryBytes(c, types.ab)
     << " dynsmem=" << (::isaac::usesDynamicSharedMemory(c) ? 1 : 0)
     << " chip=" << chip;
}

/// The end of the `// isaac.kernel` line of a kernel with a fused
/// epilogue (the `epilogue=` key), and the `// isaac.epilogue` line.
static void writeEpilogueLines(llvm::raw_ostream &os,
                               const ::isaac::EpilogueProgram &epilogue) {
  os << " epilogue=" << epilogue.id() << "\n";
  os << "// isaac.epilogue id=" << epilogue.id()
     << " out=" << ::isaac::dtypeName(epilogue.outType)
     << " inputs=" << epilogue.numInputs();
  for (int i = 0; i < epilogue.numInputs(); ++i)
    os << " in" << i << "=" << ::isaac::dtypeName(epilogue.inputTypes[i])
       << ::isaac::epilogueDimsSuffix(epilogue.dimsOf(i));
  os << " program=" << epilogue.str() << "\n";
}

/// The epilogue program of a launch's `epilogue` attribute (verified).
static std::optional<::isaac::EpilogueProgram>
parseEpilogue(std::optional<StringRef> text) {
  if (!text)
    return std::nullopt;
  std::string err;
  return ::isaac::EpilogueProgram::parse(text->str(), err);
}

/// The comment header of a convolution kernel's PTX (docs/abi.md).
static std::string kernelHeader(LaunchConvOp launch, StringRef chip) {
  std::string why;
  FailureOr<::isaac::ConvShape> shape = launch.getConvShape(why);
  std::string s;
  llvm::raw_string_ostream os(s);
  writeKernelLines(os, launch.getConfig().getConfig(),
                   launch.getKernel().getLeafReference().getValue(), "conv",
                   shape->types, launch.getLayout(), chip);
  if (std::optional<::isaac::EpilogueProgram> epilogue =
          parseEpilogue(launch.getEpilogue()))
    writeEpilogueLines(os, *epilogue);
  else
    os << "\n";
  return s;
}

/// The comment header of a kernel's PTX: the configuration as written in
/// MLIR, a key=value line the runtime and isaac-bench parse, and for a fused
/// kernel its epilogue (docs/abi.md).
static std::string kernelHeader(LaunchGemmOp launch, StringRef chip) {
  ::isaac::GemmConfig c = launch.getConfig().getConfig();
  auto elemTy = cast<MemRefType>(launch.getA().getType()).getElementType();
  ::isaac::DType dtype = *getGemmDType(elemTy);
  ::isaac::GemmLayout layout{launch.getTransA(), launch.getTransB()};
  std::optional<::isaac::EpilogueProgram> epilogue =
      parseEpilogue(launch.getEpilogue());
  // The types of the kernel's name: a plain kernel's C may be f32 for
  // 16-bit operands (f16f32, bf16f32); a fused kernel's is its epilogue's.
  ::isaac::GemmTypes types;
  types.ab = dtype;
  types.c =
      epilogue
          ? dtype
          : *getGemmDType(
                cast<MemRefType>(launch.getC().getType()).getElementType());
  types.tf32 =
      c.family == ::isaac::GemmFamily::Mma && dtype == ::isaac::DType::F32;
  std::string s;
  llvm::raw_string_ostream os(s);
  writeKernelLines(os, c, launch.getKernel().getLeafReference().getValue(),
                   /*op=*/"", types, layout.str(), chip);
  if (epilogue)
    writeEpilogueLines(os, *epilogue);
  else
    os << "\n";
  return s;
}

/// A private constant global holding `text` plus a terminating NUL.
static LLVM::GlobalOp makeStringGlobal(OpBuilder &b, Location loc,
                                       StringRef name, StringRef text) {
  std::string withNul = text.str();
  withNul.push_back('\0');
  auto type = LLVM::LLVMArrayType::get(b.getI8Type(), withNul.size());
  return LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                LLVM::Linkage::Internal, name,
                                b.getStringAttr(withNul));
}

namespace {
struct LowerLaunchPass
    : public mlir::isaac::impl::IsaacLowerLaunchBase<LowerLaunchPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *ctx = module.getContext();
    OpBuilder b(ctx);
    Type ptrTy = LLVM::LLVMPointerType::get(ctx);
    Type i32 = b.getI32Type(), i64 = b.getI64Type(), f64 = b.getF64Type();

    // Kernels calling libdevice functions that were not linked (no CUDA
    // toolkit was found) would fail to load at run time: refuse them now.
    bool unresolved = false;
    module.walk([&](gpu::BinaryOp binary) {
      for (Attribute a : binary.getObjects()) {
        auto object = dyn_cast<gpu::ObjectAttr>(a);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly)
          continue;
        StringRef ptx = object.getObject().getValue();
        size_t at = ptx.find("__nv_");
        if (at == StringRef::npos || !ptx.contains(".extern .func"))
          continue;
        StringRef fn = ptx.substr(at).take_while(
            [](char c) { return llvm::isAlnum(c) || c == '_'; });
        binary.emitError()
            << "isaac: kernel module @" << binary.getSymName()
            << " calls the libdevice function " << fn
            << ", which was not linked: math functions other than isaac's "
               "f32 approximations (isaac-legalize-math), e.g. f64 tanh or "
               "erf, need CUDA's nvvm/libdevice/libdevice.10.bc (set the "
               "pipeline's cuda-path)";
        unresolved = true;
      }
    });
    if (unresolved)
      return signalPassFailure();

    SmallVector<Operation *> launches;
    module.walk([&](Operation *op) {
      if (isa<LaunchGemmOp, LaunchConvOp>(op))
        launches.push_back(op);
    });
    if (launches.empty())
      return;

    // The runtime entry points (docs/abi.md, Host ABI), declared on first
    // use.
    auto typeOf = [&](::isaac::abi::HostType t) -> Type {
      switch (t) {
      case ::isaac::abi::HostType::Ptr:
        return ptrTy;
      case ::isaac::abi::HostType::I32:
        return i32;
      case ::isaac::abi::HostType::I64:
        return i64;
      case ::isaac::abi::HostType::F64:
        return f64;
      }
      return Type();
    };
    SmallVector<Type> params;
    for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostArgs)
      params.push_back(typeOf(a.type));
    auto plainType = b.getFunctionType(params, {i32});
    for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostEpilogueArgs)
      params.push_back(typeOf(a.type));
    auto epilogueType = b.getFunctionType(params, {i32});
    params.clear();
    for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostConvArgs)
      params.push_back(typeOf(a.type));
    auto convType = b.getFunctionType(params, {i32});
    for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostEpilogueArgs)
      params.push_back(typeOf(a.type));
    auto convEpilogueType = b.getFunctionType(params, {i32});
    bool declFailed = false;
    auto declare = [&](StringRef name, FunctionType type) {
      auto fn = module.lookupSymbol<func::FuncOp>(name);
      if (!fn) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(module.getBody());
        fn = func::FuncOp::create(b, module.getLoc(), name, type);
        fn.setPrivate();
      } else if (fn.getFunctionType() != type) {
        fn.emitError() << "'" << name
                       << "' is declared with a type other than the isaac "
                          "runtime's";
        declFailed = true;
      }
      return fn;
    };

    if (!ptxDir.empty()) {
      if (std::error_code ec = llvm::sys::fs::create_directories(ptxDir)) {
        module.emitError() << "cannot create ptx-dir '" << ptxDir
                           << "': " << ec.message();
        return signalPassFailure();
      }
    }

    llvm::StringMap<LLVM::GlobalOp> ptxGlobals, nameGlobals;
    SmallVector<gpu::BinaryOp> binaries;
    for (Operation *launch : launches) {
      auto gemm = dyn_cast<LaunchGemmOp>(launch);
      auto conv = dyn_cast<LaunchConvOp>(launch);
      SymbolRefAttr kernelRef = gemm ? gemm.getKernel() : conv.getKernel();
      StringRef kernel = kernelRef.getLeafReference().getValue();
      StringRef modName = kernelRef.getRootReference().getValue();
      if (!ptxGlobals.count(modName)) {
        auto binary = module.lookupSymbol<gpu::BinaryOp>(modName);
        if (!binary) {
          launch->emitError() << "kernel module @" << modName
                              << " is not a gpu.binary yet; run "
                                 "gpu-module-to-binary{format=isa} first";
          return signalPassFailure();
        }
        auto object = dyn_cast<gpu::ObjectAttr>(binary.getObjects()[0]);
        if (!object || object.getFormat() != gpu::CompilationTarget::Assembly) {
          launch->emitError() << "gpu.binary @" << modName
                              << " does not hold PTX; use "
                                 "gpu-module-to-binary{format=isa}";
          return signalPassFailure();
        }
        StringRef chip = "unknown";
        if (auto t = dyn_cast<NVVM::NVVMTargetAttr>(object.getTarget()))
          chip = t.getChip();
        std::string header =
            gemm ? kernelHeader(gemm, chip) : kernelHeader(conv, chip);
        std::string ptx = header + object.getObject().getValue().str();
        if (!ptxDir.empty() && ::mlir::failed(writePtx(launch, kernel, ptx)))
          return signalPassFailure();
        b.setInsertionPointToStart(module.getBody());
        ptxGlobals[modName] = makeStringGlobal(
            b, module.getLoc(), ("__isaac_ptx_" + modName).str(), ptx);
        nameGlobals[modName] = makeStringGlobal(
            b, module.getLoc(), ("__isaac_name_" + modName).str(), kernel);
        binaries.push_back(binary);
      }
      func::FuncOp fn =
          conv                 ? (conv.getEpilogue()
                                      ? declare(kLaunchConvEpilogueFn, convEpilogueType)
                                      : declare(kLaunchConvFn, convType))
          : gemm.getEpilogue() ? declare(kLaunchEpilogueFn, epilogueType)
                               : declare(kLaunchFn, plainType);
      if (declFailed)
        return signalPassFailure();
      if (gemm)
        lowerLaunch(b, gemm, fn, ptxGlobals[modName], nameGlobals[modName]);
      else
        lowerLaunch(b, conv, fn, ptxGlobals[modName], nameGlobals[modName]);
    }
    for (gpu::BinaryOp binary : binaries)
      binary.erase();
  }

  LogicalResult writePtx(Operation *op, StringRef kernel, StringRef ptx) {
    SmallString<256> path(ptxDir);
    llvm::sys::path::append(path, kernel + ".ptx");
    std::error_code ec;
    llvm::raw_fd_ostream os(path, ec);
    if (ec)
      return op->emitError()
             << "cannot write '" << path << "': " << ec.message();
    os << ptx;
    return success();
  }

  /// Device pointer of the first element, leading dimension and batch
  /// stride (elements) of a memref operand.
  struct Operand {
    Value ptr, ld, batchStride;
  };
  Operand describe(OpBuilder &b, Location loc, Value memref) {
    auto type = cast<MemRefType>(memref.getType());
    int64_t rank = type.getRank();
    int64_t esz = type.getElementTypeBitWidth() / 8;
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
    Value base = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
    Value byteOff = arith::MulIOp::create(
        b, loc, meta.getOffset(), arith::ConstantIndexOp::create(b, loc, esz));
    Value addr = arith::IndexCastUIOp::create(
        b, loc, b.getI64Type(), arith::AddIOp::create(b, loc, base, byteOff));
    Operand o;
    o.ptr = LLVM::IntToPtrOp::create(
        b, loc, LLVM::LLVMPointerType::get(b.getContext()), addr);
    o.ld = arith::IndexCastOp::create(b, loc, b.getI32Type(),
                                      meta.getStrides()[rank - 2]);
    o.batchStride =
        rank == 3 ? Value(arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                                     meta.getStrides()[0]))
                  : Value(arith::ConstantIntOp::create(b, loc, 0, 64));
    return o;
  }

  /// A stack array of isaacEpilogueInput {ptr, sBatch, sRow, sCol} for the
  /// launch's epilogue inputs: each input's strides along the output's
  /// (batch, m, n), summed over the input dimensions its map ties to each
  /// (0 where it broadcasts).
  Value describeInputs(OpBuilder &b, Operation *launch, ValueRange inputs,
                       ArrayAttr inputMaps, int64_t rank) {
    Location loc = launch->getLoc();
    MLIRContext *ctx = b.getContext();
    Type ptrTy = LLVM::LLVMPointerType::get(ctx);
    Type i64 = b.getI64Type();
    auto entryTy =
        LLVM::LLVMStructType::getLiteral(ctx, {ptrTy, i64, i64, i64});
    unsigned n = inputs.size();
    auto arrayTy = LLVM::LLVMArrayType::get(entryTy, n);
    Value array;
    {
      // In the entry block: one slot per launch, not per loop iteration.
      OpBuilder::InsertionGuard guard(b);
      Block &entry = launch->getParentOfType<FunctionOpInterface>()
                         .getFunctionBody()
                         .front();
      b.setInsertionPointToStart(&entry);
      Value one = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(1));
      array = LLVM::AllocaOp::create(b, loc, ptrTy, arrayTy, one, 8);
    }
    for (auto [i, input, mapAttr] : llvm::enumerate(inputs, inputMaps)) {
      AffineMap map = cast<AffineMapAttr>(mapAttr).getValue();
      auto type = cast<MemRefType>(input.getType());
      int64_t esz = type.getElementTypeBitWidth() / 8;
      auto meta = memref::ExtractStridedMetadataOp::create(b, loc, input);
      Value base =
          memref::ExtractAlignedPointerAsIndexOp::create(b, loc, input);
      Value byteOff =
          arith::MulIOp::create(b, loc, meta.getOffset(),
                                arith::ConstantIndexOp::create(b, loc, esz));
      Value addr = arith::IndexCastUIOp::create(
          b, loc, i64, arith::AddIOp::create(b, loc, base, byteOff));
      Value ptr = LLVM::IntToPtrOp::create(b, loc, ptrTy, addr);
      // Strides along (batch, m, n) of the output's iteration space.
      SmallVector<Value> strides(3, arith::ConstantIndexOp::create(b, loc, 0));
      for (unsigned j = 0; j < map.getNumResults(); ++j) {
        unsigned d = map.getDimPosition(j) + (3 - rank);
        strides[d] =
            arith::AddIOp::create(b, loc, strides[d], meta.getStrides()[j]);
      }
      SmallVector<Value> fields = {ptr};
      for (Value st : strides)
        fields.push_back(arith::IndexCastOp::create(b, loc, i64, st));
      for (auto [f, v] : llvm::enumerate(fields)) {
        Value slot = LLVM::GEPOp::create(
            b, loc, ptrTy, arrayTy, array,
            ArrayRef<LLVM::GEPArg>{0, static_cast<int32_t>(i),
                                   static_cast<int32_t>(f)});
        LLVM::StoreOp::create(b, loc, v, slot);
      }
    }
    return array;
  }

  void lowerLaunch(OpBuilder &b, LaunchGemmOp launch, func::FuncOp fn,
                   LLVM::GlobalOp ptx, LLVM::GlobalOp name) {
    Location loc = launch.getLoc();
    b.setInsertionPoint(launch);
    auto i32c = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    auto f64c = [&](double v) -> Value {
      return arith::ConstantFloatOp::create(b, loc, b.getF64Type(), APFloat(v));
    };
    Type ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    ::isaac::GemmConfig c = launch.getConfig().getConfig();
    auto cT = cast<MemRefType>(launch.getC().getType());
    auto aT = cast<MemRefType>(launch.getA().getType());
    int64_t rank = cT.getRank(), bo = rank - 2;
    int64_t m = cT.getDimSize(bo), n = cT.getDimSize(bo + 1);
    int64_t k = aT.getDimSize(bo + (launch.getTransA() ? 0 : 1));
    int64_t batch = rank == 3 ? cT.getDimSize(0) : 1;
    Operand A = describe(b, loc, launch.getA());
    Operand B = describe(b, loc, launch.getB());
    Operand C = describe(b, loc, launch.getC());
    int dtype = static_cast<int>(*getGemmDType(aT.getElementType()));
    // The value of each argument of the host ABI (KernelABI.def).
    auto argument = [&](::isaac::abi::host::Arg arg) -> Value {
      namespace h = ::isaac::abi::host;
      switch (arg) {
      case h::ptx:
        return LLVM::AddressOfOp::create(b, loc, ptrTy, ptx.getSymName());
      case h::kernelName:
        return LLVM::AddressOfOp::create(b, loc, ptrTy, name.getSymName());
      case h::dtype:
        return i32c(dtype);
      case h::ml:
        return i32c(c.ml);
      case h::nl:
        return i32c(c.nl);
      case h::threads:
        return i32c(c.threads());
      case h::kg:
        return i32c(c.kg);
      case h::C:
        return C.ptr;
      case h::A:
        return A.ptr;
      case h::B:
        return B.ptr;
      case h::M:
        return i32c(m);
      case h::N:
        return i32c(n);
      case h::K:
        return i32c(k);
      case h::lda:
        return A.ld;
      case h::ldb:
        return B.ld;
      case h::ldc:
        return C.ld;
      case h::sA:
        return A.batchStride;
      case h::sB:
        return B.batchStride;
      case h::sC:
        return C.batchStride;
      case h::batch:
        return i32c(batch);
      case h::alpha:
        return f64c(launch.getAlpha().convertToDouble());
      case h::beta:
        return f64c(launch.getBeta().convertToDouble());
      case h::stream:
        return LLVM::ZeroOp::create(b, loc, ptrTy);
      case h::flags:
        return i32c(0);
      case h::numInputs:
        return i32c(launch.getInputs().size());
      case h::inputs:
        return describeInputs(
            b, launch, launch.getInputs(), *launch.getInputMaps(),
            cast<MemRefType>(launch.getC().getType()).getRank());
      }
      return Value();
    };
    SmallVector<Value> args;
    for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostArgs)
      args.push_back(argument(static_cast<::isaac::abi::host::Arg>(a.index)));
    if (launch.getEpilogue())
      for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostEpilogueArgs)
        args.push_back(argument(static_cast<::isaac::abi::host::Arg>(a.index)));
    // The status is also kept by the runtime (isaacGetLastStatus), which is
    // how the caller of the generated host code learns of failures.
    func::CallOp::create(b, loc, fn, args);
    launch.erase();
  }

  /// isaac.launch_conv -> isaacConvLaunch (KernelABI.def's HOST_CONV_ARG
  /// rows), or isaacConvLaunchEpilogue (then the HOST_EPILOGUE_ARG rows). The
  /// operands are packed (the op's verifier and ConvMatch), so only their base
  /// addresses are passed; the sizes are static.
  void lowerLaunch(OpBuilder &b, LaunchConvOp launch, func::FuncOp fn,
                   LLVM::GlobalOp ptx, LLVM::GlobalOp name) {
    Location loc = launch.getLoc();
    b.setInsertionPoint(launch);
    auto i32c = [&](int64_t v) -> Value {
      return arith::ConstantIntOp::create(b, loc, v, 32);
    };
    auto f64c = [&](double v) -> Value {
      return arith::ConstantFloatOp::create(b, loc, b.getF64Type(), APFloat(v));
    };
    Type ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    ::isaac::GemmConfig c = launch.getConfig().getConfig();
    std::string why;
    ::isaac::ConvShape s = *launch.getConvShape(why); // verified
    auto argument = [&](::isaac::abi::hostconv::Arg arg) -> Value {
      namespace h = ::isaac::abi::hostconv;
      switch (arg) {
      case h::ptx:
        return LLVM::AddressOfOp::create(b, loc, ptrTy, ptx.getSymName());
      case h::kernelName:
        return LLVM::AddressOfOp::create(b, loc, ptrTy, name.getSymName());
      case h::dtype:
        return i32c(static_cast<int>(s.types.ab));
      case h::ml:
        return i32c(c.ml);
      case h::nl:
        return i32c(c.nl);
      case h::threads:
        return i32c(c.threads());
      case h::kg:
        return i32c(c.kg);
      case h::O:
        return describe(b, loc, launch.getOutput()).ptr;
      case h::I:
        return describe(b, loc, launch.getInput()).ptr;
      case h::F:
        return describe(b, loc, launch.getFilter()).ptr;
      case h::N:
        return i32c(s.n);
      case h::H:
        return i32c(s.h);
      case h::W:
        return i32c(s.w);
      case h::C:
        return i32c(s.c);
      case h::K:
        return i32c(s.k);
      case h::R:
        return i32c(s.r);
      case h::S:
        return i32c(s.s);
      case h::P:
        return i32c(s.p);
      case h::Q:
        return i32c(s.q);
      case h::strideH:
        return i32c(s.strideH);
      case h::strideW:
        return i32c(s.strideW);
      case h::dilationH:
        return i32c(s.dilationH);
      case h::dilationW:
        return i32c(s.dilationW);
      case h::padTop:
        return i32c(s.padTop);
      case h::padLeft:
        return i32c(s.padLeft);
      case h::alpha:
        return f64c(launch.getAlpha().convertToDouble());
      case h::beta:
        return f64c(launch.getBeta().convertToDouble());
      case h::stream:
        return LLVM::ZeroOp::create(b, loc, ptrTy);
      case h::flags:
        return i32c(0);
      }
      return Value();
    };
    SmallVector<Value> args;
    for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostConvArgs)
      args.push_back(
          argument(static_cast<::isaac::abi::hostconv::Arg>(a.index)));
    // A fused kernel's inputs, addressed in the implicit GEMM's (m, n)
    // space (isaac-lower-to-gpu collapsed them), as a GEMM launch's.
    if (launch.getEpilogue())
      for (const ::isaac::abi::HostArgInfo &a : ::isaac::abi::kHostEpilogueArgs)
        args.push_back(a.index == ::isaac::abi::host::numInputs
                           ? i32c(launch.getInputs().size())
                           : describeInputs(b, launch, launch.getInputs(),
                                            *launch.getInputMaps(),
                                            /*rank=*/2));
    func::CallOp::create(b, loc, fn, args);
    launch.erase();
  }
};
} // namespace

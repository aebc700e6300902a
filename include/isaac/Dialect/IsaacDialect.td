//===- IsaacDialect.td - isaac dialect ---------------------*- tablegen -*-===//

#ifndef ISAAC_DIALECT
#define ISAAC_DIALECT

include "mlir/IR/OpBase.td"

def Isaac_Dialect : Dialect {
  let name = "isaac";
  let summary = "Input-aware GEMM kernel configurations (ISAAC)";
  let description = [{
    The isaac dialect carries ISAAC's kernel tuning vector as the
    `#isaac.gemm<...>` attribute. `isaac-select-config` chooses one per
    operation and attaches it as the discardable attribute `isaac.config`;
    every later pass reads it and nothing else (one choice, made once).
    The dialect verifies `isaac.config` wherever it appears against the
    operation's element type and the target chip (`isaac.target` on an
    enclosing operation, `sm_90` when none says otherwise).
  }];
  let cppNamespace = "::mlir::isaac";
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    /// Name of the discardable attribute holding the chosen configuration.
    static constexpr llvm::StringLiteral getConfigAttrName() {
      return llvm::StringLiteral("isaac.config");
    }
    /// Name of the discardable string attribute naming the target chip.
    static constexpr llvm::StringLiteral getTargetAttrName() {
      return llvm::StringLiteral("isaac.target");
    }
    /// Name of the attribute recording the model's top-k configurations.
    static constexpr llvm::StringLiteral getCandidatesAttrName() {
      return llvm::StringLiteral("isaac.candidates");
    }
    /// Name of the unit attribute by which a GEMM on f32 opts in to TF32
    /// tensor cores (the mma family); without it f32 is exact IEEE f32.
    static constexpr llvm::StringLiteral getTF32AttrName() {
      return llvm::StringLiteral("isaac.tf32");
    }
    void registerAttributes();
  }];
}

class Isaac_Op<string mnemonic, list<Trait> traits = []>
    : Op<Isaac_Dialect, mnemonic, traits>;

#endif // ISAAC_DIALECT

//===- GeAttrs.td - ge dialect attributes -------------------*- tablegen -*-===//
//
// The engine a compute op runs on, as the discardable attribute `ge.engine`.
// Its C++ enum (mlir::ge::Engine) is the one form above the runtime; the
// passes map it onto rt::Engine and the OM's engine by value
// (passes/emit/KernelPlanning.h checks that the numbering agrees).
//
//===----------------------------------------------------------------------===//

#ifndef GEFLOW_IR_GEATTRS_TD
#define GEFLOW_IR_GEATTRS_TD

include "ir/GeDialect.td"
include "mlir/IR/EnumAttr.td"

def Ge_EngineAIC : I32EnumAttrCase<"AIC", 0>;
def Ge_EngineAIV : I32EnumAttrCase<"AIV", 1>;
def Ge_EngineMIX : I32EnumAttrCase<"MIX", 2>;
def Ge_EngineAICPU : I32EnumAttrCase<"AICPU", 3>;
def Ge_EngineDVPP : I32EnumAttrCase<"DVPP", 4>;
// The host CPU; the simulation runs such tasks where AICPU ones run.
def Ge_EngineHOST : I32EnumAttrCase<"HOST", 5>;

def Ge_Engine : I32EnumAttr<"Engine", "the execution unit a task targets",
    [Ge_EngineAIC, Ge_EngineAIV, Ge_EngineMIX, Ge_EngineAICPU, Ge_EngineDVPP,
     Ge_EngineHOST]> {
  let cppNamespace = "::mlir::ge";
  let genSpecializedAttr = 0;
}

// `ge.engine = #ge.engine<AIC>`: cube work on AIC, vector work on AIV (GE's
// engine names, as dumps and profiles show them).
def Ge_EngineAttr : EnumAttr<Ge_Dialect, Ge_Engine, "engine"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // GEFLOW_IR_GEATTRS_TD

//===- Presets.h - SoC spec INI files embedded at build time --------------===//
//
// The INI files under runtime/soc/presets/ are compiled into the library (see
// runtime/CMakeLists.txt) so a binary finds them from any directory.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_RUNTIME_SOC_PRESETS_H
#define GEFLOW_RUNTIME_SOC_PRESETS_H

#include <vector>

namespace geflow::rt {

struct EmbeddedPreset {
  const char *name; // file name without ".ini"
  const char *text; // the file's bytes
};

/// Defined in the generated SocPresetsData.cpp.
const std::vector<EmbeddedPreset> &embeddedSocPresets();

} // namespace geflow::rt

#endif // GEFLOW_RUNTIME_SOC_PRESETS_H

//===- JsonLineMap.h - the source line of every value in a JSON text -*- C++
//-*-===//
//
// nlohmann::json keeps no source positions, yet a stream plan's errors must
// name the line. One SAX pass over the text records, for every value, the line
// it sits on, keyed by its path in the plan's own notation
// (`scopes[1].priority`). The same pass reports syntax errors and duplicate
// keys with their line.
//
//===----------------------------------------------------------------------===//
#ifndef GEFLOW_FRONTENDS_STREAMPLAN_JSONLINEMAP_H
#define GEFLOW_FRONTENDS_STREAMPLAN_JSONLINEMAP_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace geflow::streamplan {

/// Path of a member: `parent.key`, or `key` at the top level.
std::string memberPath(llvm::StringRef parent, llvm::StringRef key);
/// Path of an array element: `parent[index]`.
std::string elementPath(llvm::StringRef parent, size_t index);

class JsonLineMap {
public:
  /// Scans `text`. Errors read `SOURCE:LINE: message`.
  static llvm::Expected<JsonLineMap> scan(llvm::StringRef text,
                                          llvm::StringRef sourceName);

  /// The line of the value at `path` ("" is the whole document); for a path the
  /// text does not have (a missing key), the line of its nearest ancestor.
  unsigned lineOf(llvm::StringRef path) const;

private:
  friend class LineRecorder;
  llvm::StringMap<unsigned> lines;
};

} // namespace geflow::streamplan

#endif // GEFLOW_FRONTENDS_STREAMPLAN_JSONLINEMAP_H

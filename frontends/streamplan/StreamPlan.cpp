//===- StreamPlan.cpp - what a plan says about a node ---------------------===//

#include "frontends/streamplan/StreamPlan.h"

using namespace geflow::streamplan;

/// GlobPattern expands `{a,b}` alternatives; this caps how many one glob makes.
static constexpr size_t kMaxGlobAlternatives = 256;

llvm::Expected<NodeGlob> NodeGlob::create(llvm::StringRef text, PlanSite site) {
  auto source = std::make_shared<const std::string>(text.str());
  auto pattern = llvm::GlobPattern::create(*source, kMaxGlobAlternatives);
  if (!pattern)
    return pattern.takeError();
  return NodeGlob(std::move(source), std::move(*pattern), std::move(site));
}

NodeSettings StreamPlan::settingsFor(llvm::StringRef nodeName) const {
  NodeSettings settings;
  for (const Scope &scope : scopes) {
    bool selected = llvm::any_of(scope.nodes, [&](const NodeGlob &glob) {
      return glob.matches(nodeName);
    });
    if (!selected)
      continue;
    if (scope.streamTag)
      settings.streamTag = scope.streamTag;
    if (scope.priority)
      settings.priority = scope.priority;
    if (scope.innerParallel)
      settings.innerParallel = scope.innerParallel;
    if (scope.coreLimit)
      settings.coreLimit = scope.coreLimit;
  }
  return settings;
}

llvm::Error StreamPlan::checkEveryGlobMatches(
    llvm::ArrayRef<llvm::StringRef> nodeNames) const {
  for (const Scope &scope : scopes)
    for (const NodeGlob &glob : scope.nodes)
      if (llvm::none_of(nodeNames, [&](llvm::StringRef name) {
            return glob.matches(name);
          }))
        return error(glob.site(),
                     "'" + glob.text() + "' matches no node of the model");
  return llvm::Error::success();
}

llvm::Error StreamPlan::error(const PlanSite &site,
                              const llvm::Twine &message) const {
  std::string prefix = sourceName + ":" + std::to_string(site.line) + ": ";
  if (!site.path.empty())
    prefix += site.path + ": ";
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 prefix + message.str());
}

//===- StreamPlanReader.cpp - JSON text -> validated StreamPlan ----------===//
//
// Two passes over the text: JsonLineMap (syntax, duplicate keys, the line of
// every value), then nlohmann's DOM, walked with the same key paths so that
// each check can name its line.
//
//===----------------------------------------------------------------------===//

#include "frontends/streamplan/JsonLineMap.h"
#include "frontends/streamplan/StreamPlan.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/MemoryBuffer.h"

#include <nlohmann/json.hpp>

using namespace geflow::streamplan;
using json = nlohmann::json;

namespace {

constexpr llvm::StringLiteral kPlanKeys[] = {"scopes", "wait_tensor"};
constexpr llvm::StringLiteral kScopeKeys[] = {"nodes", "stream_tag", "priority",
                                              "enable_inner_parallel",
                                              "limit_core_num"};
constexpr llvm::StringLiteral kWaitKeys[] = {"tensor", "after"};

/// A value as the message shows it: its JSON text, shortened.
std::string shown(const json &value) {
  std::string text = value.dump();
  constexpr size_t kMaxShown = 40;
  if (text.size() > kMaxShown)
    text = text.substr(0, kMaxShown - 3) + "...";
  return text;
}

class PlanReader {
public:
  PlanReader(const JsonLineMap &lines, StreamPlan &plan)
      : lines(lines), plan(plan) {}

  llvm::Error read(const json &root);

private:
  PlanSite site(const std::string &path) const {
    return PlanSite{lines.lineOf(path), path};
  }
  llvm::Error fail(const std::string &path, const llvm::Twine &message) const {
    return plan.error(site(path), message);
  }
  llvm::Error expectObject(const json &value, const std::string &path,
                           llvm::ArrayRef<llvm::StringLiteral> keys) const;
  llvm::Error expectArray(const json &value, const std::string &path) const;
  llvm::Expected<std::string> readName(const json &value,
                                       const std::string &path) const;
  llvm::Expected<int64_t> readInt(const json &value, const std::string &path,
                                  int64_t minimum) const;
  llvm::Expected<bool> readBool(const json &value,
                                const std::string &path) const;
  using ElementReader = llvm::Error (PlanReader::*)(const json &,
                                                    const std::string &);
  /// Reads `root[key]`, when present, as an array of what `readElement` reads.
  llvm::Error readEach(const json &root, const std::string &key,
                       ElementReader readElement);
  llvm::Error readScope(const json &value, const std::string &path);
  llvm::Error readNodes(const json &value, const std::string &path,
                        Scope &scope);
  llvm::Error readCoreLimit(const json &value, const std::string &path,
                            Scope &scope);
  llvm::Error checkPriorityOfTag(const Scope &scope, const std::string &path);
  llvm::Error readWait(const json &value, const std::string &path);

  const JsonLineMap &lines;
  StreamPlan &plan;
  /// Stream tag -> the scope that first gave its priority (one stream, one
  /// priority).
  llvm::StringMap<std::pair<int64_t, std::string>> tagPriority;
};

} // namespace

llvm::Error
PlanReader::expectObject(const json &value, const std::string &path,
                         llvm::ArrayRef<llvm::StringLiteral> keys) const {
  if (!value.is_object())
    return fail(path, "must be an object, got " + shown(value));
  for (const auto &[key, member] : value.items())
    if (!llvm::is_contained(keys, key))
      return fail(memberPath(path, key),
                  "unknown key (expected " +
                      llvm::join(keys.begin(), keys.end(), ", ") + ")");
  return llvm::Error::success();
}

llvm::Error PlanReader::expectArray(const json &value,
                                    const std::string &path) const {
  if (!value.is_array())
    return fail(path, "must be an array, got " + shown(value));
  return llvm::Error::success();
}

llvm::Expected<std::string>
PlanReader::readName(const json &value, const std::string &path) const {
  if (!value.is_string() || value.get_ref<const std::string &>().empty())
    return fail(path, "must be a non-empty string, got " + shown(value));
  return value.get<std::string>();
}

llvm::Expected<int64_t> PlanReader::readInt(const json &value,
                                            const std::string &path,
                                            int64_t minimum) const {
  bool fits = value.is_number_integer() &&
              !(value.is_number_unsigned() &&
                value.get<uint64_t>() > uint64_t(INT64_MAX));
  if (!fits || value.get<int64_t>() < minimum)
    return fail(path, "must be an integer >= " + llvm::Twine(minimum) +
                          ", got " + shown(value));
  return value.get<int64_t>();
}

llvm::Expected<bool> PlanReader::readBool(const json &value,
                                          const std::string &path) const {
  if (!value.is_boolean())
    return fail(path, "must be true or false, got " + shown(value));
  return value.get<bool>();
}

llvm::Error PlanReader::read(const json &root) {
  if (auto err = expectObject(root, "", kPlanKeys))
    return err;
  if (auto err = readEach(root, "scopes", &PlanReader::readScope))
    return err;
  return readEach(root, "wait_tensor", &PlanReader::readWait);
}

llvm::Error PlanReader::readEach(const json &root, const std::string &key,
                                 ElementReader readElement) {
  if (!root.contains(key))
    return llvm::Error::success();
  const json &array = root[key];
  if (auto err = expectArray(array, key))
    return err;
  for (size_t i = 0; i < array.size(); ++i)
    if (auto err = (this->*readElement)(array[i], elementPath(key, i)))
      return err;
  return llvm::Error::success();
}

llvm::Error PlanReader::readScope(const json &value, const std::string &path) {
  if (auto err = expectObject(value, path, kScopeKeys))
    return err;
  Scope scope;
  scope.site = site(path);
  if (!value.contains("nodes"))
    return fail(path, "missing key 'nodes'");
  if (auto err = readNodes(value["nodes"], memberPath(path, "nodes"), scope))
    return err;

  if (value.contains("stream_tag")) {
    auto tag = readName(value["stream_tag"], memberPath(path, "stream_tag"));
    if (!tag)
      return tag.takeError();
    scope.streamTag = *tag;
    // A tag brings its stream's defaults; the keys below may replace them.
    scope.priority = 0;
    scope.innerParallel = true;
  }
  if (value.contains("priority")) {
    auto priority = readInt(value["priority"], memberPath(path, "priority"), 0);
    if (!priority)
      return priority.takeError();
    scope.priority = *priority;
  }
  if (value.contains("enable_inner_parallel")) {
    std::string key = memberPath(path, "enable_inner_parallel");
    auto enabled = readBool(value["enable_inner_parallel"], key);
    if (!enabled)
      return enabled.takeError();
    scope.innerParallel = *enabled;
  }
  if (value.contains("limit_core_num"))
    if (auto err = readCoreLimit(value["limit_core_num"],
                                 memberPath(path, "limit_core_num"), scope))
      return err;
  if (!scope.streamTag && !scope.priority && !scope.innerParallel &&
      !scope.coreLimit)
    return fail(path, "sets nothing: give stream_tag, priority, "
                      "enable_inner_parallel or limit_core_num");
  if (auto err = checkPriorityOfTag(scope, path))
    return err;
  plan.scopes.push_back(std::move(scope));
  return llvm::Error::success();
}

llvm::Error PlanReader::readNodes(const json &value, const std::string &path,
                                  Scope &scope) {
  if (auto err = expectArray(value, path))
    return err;
  if (value.empty())
    return fail(path, "must name at least one node glob");
  for (size_t i = 0; i < value.size(); ++i) {
    std::string globPath = elementPath(path, i);
    auto text = readName(value[i], globPath);
    if (!text)
      return text.takeError();
    auto glob = NodeGlob::create(*text, site(globPath));
    if (!glob)
      return fail(globPath, "invalid glob '" + *text +
                                "': " + llvm::toString(glob.takeError()));
    scope.nodes.push_back(std::move(*glob));
  }
  return llvm::Error::success();
}

llvm::Error PlanReader::readCoreLimit(const json &value,
                                      const std::string &path, Scope &scope) {
  if (!value.is_array() || value.size() != 2)
    return fail(path, "must be [aic, aiv], got " + shown(value));
  auto aic = readInt(value[0], elementPath(path, 0), 1);
  if (!aic)
    return aic.takeError();
  auto aiv = readInt(value[1], elementPath(path, 1), 0);
  if (!aiv)
    return aiv.takeError();
  scope.coreLimit = CoreLimit{*aic, *aiv};
  return llvm::Error::success();
}

llvm::Error PlanReader::checkPriorityOfTag(const Scope &scope,
                                           const std::string &path) {
  if (!scope.streamTag)
    return llvm::Error::success();
  auto [it, inserted] =
      tagPriority.try_emplace(*scope.streamTag, *scope.priority, path);
  if (inserted || it->second.first == *scope.priority)
    return llvm::Error::success();
  return fail(memberPath(path, "priority"),
              "stream '" + *scope.streamTag + "' has priority " +
                  llvm::Twine(it->second.first) + " in " + it->second.second +
                  "; one stream has one priority");
}

llvm::Error PlanReader::readWait(const json &value, const std::string &path) {
  if (auto err = expectObject(value, path, kWaitKeys))
    return err;
  WaitTensor wait;
  for (auto [key, name, where] :
       {std::make_tuple("tensor", &wait.tensor, &wait.tensorSite),
        std::make_tuple("after", &wait.after, &wait.afterSite)}) {
    if (!value.contains(key))
      return fail(path, "missing key '" + llvm::Twine(key) + "'");
    std::string keyPath = memberPath(path, key);
    auto text = readName(value[key], keyPath);
    if (!text)
      return text.takeError();
    *name = *text;
    *where = site(keyPath);
  }
  if (wait.tensor == wait.after)
    return fail(memberPath(path, "after"),
                "'" + wait.tensor + "' cannot wait for itself");
  plan.waits.push_back(std::move(wait));
  return llvm::Error::success();
}

llvm::Expected<StreamPlan>
geflow::streamplan::parseStreamPlan(llvm::StringRef text,
                                    llvm::StringRef sourceName) {
  auto lines = JsonLineMap::scan(text, sourceName);
  if (!lines)
    return lines.takeError();
  // The scan accepted the syntax, so this parse succeeds.
  json root = json::parse(text.begin(), text.end(), /*cb=*/nullptr,
                          /*allow_exceptions=*/false);
  StreamPlan plan;
  plan.sourceName = sourceName.str();
  if (auto err = PlanReader(*lines, plan).read(root))
    return std::move(err);
  return plan;
}

llvm::Expected<StreamPlan>
geflow::streamplan::readStreamPlanFile(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer)
    return llvm::createStringError(buffer.getError(),
                                   "cannot read stream plan '" + path +
                                       "': " + buffer.getError().message());
  return parseStreamPlan((*buffer)->getBuffer(), path);
}

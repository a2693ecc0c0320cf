//===- JsonLineMap.cpp - the source line of every value in a JSON text ----===//
//
// nlohmann's lexer reads its input one character at a time through an iterator
// and looks at most one character ahead (after a number). Counting lines in the
// iterator, and remembering the line of the last non-blank character read,
// gives the line of the token each SAX callback is about: a token never spans
// lines, and the look-ahead after a number is a blank or a punctuator of the
// same line.
//
//===----------------------------------------------------------------------===//

#include "frontends/streamplan/JsonLineMap.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

#include <nlohmann/json.hpp>

#include <iterator>
#include <vector>

using namespace geflow::streamplan;

std::string geflow::streamplan::memberPath(llvm::StringRef parent,
                                           llvm::StringRef key) {
  return parent.empty() ? key.str() : (parent + "." + key).str();
}

std::string geflow::streamplan::elementPath(llvm::StringRef parent,
                                            size_t index) {
  return (parent + "[" + llvm::Twine(index) + "]").str();
}

namespace {

/// Where the lexer is: the line of the next character, and the line of the last
/// non-blank character it consumed.
struct LexerPosition {
  unsigned line = 1;
  unsigned tokenLine = 1;

  void consume(char c) {
    if (c == '\n')
      ++line;
    else if (!llvm::isSpace(c))
      tokenLine = line;
  }
};

/// A character iterator that reports each character it moves past.
class PositionTrackingIterator {
public:
  using iterator_category = std::input_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char *;
  using reference = const char &;

  PositionTrackingIterator(const char *current, LexerPosition *position)
      : current(current), position(position) {}

  reference operator*() const { return *current; }
  PositionTrackingIterator &operator++() {
    position->consume(*current);
    ++current;
    return *this;
  }
  PositionTrackingIterator operator++(int) {
    PositionTrackingIterator before = *this;
    ++*this;
    return before;
  }
  bool operator==(const PositionTrackingIterator &other) const {
    return current == other.current;
  }
  bool operator!=(const PositionTrackingIterator &other) const {
    return current != other.current;
  }

private:
  const char *current;
  LexerPosition *position;
};

} // namespace

namespace geflow::streamplan {

/// The SAX handler: keeps the path of the container being read and records the
/// line of every value as it starts.
class LineRecorder {
public:
  using json = nlohmann::json;

  LineRecorder(JsonLineMap &map, const LexerPosition &position,
               llvm::StringRef sourceName)
      : map(map), position(position), sourceName(sourceName) {}

  bool null() { return value(); }
  bool boolean(bool) { return value(); }
  bool number_integer(json::number_integer_t) { return value(); }
  bool number_unsigned(json::number_unsigned_t) { return value(); }
  bool number_float(json::number_float_t, const json::string_t &) {
    return value();
  }
  bool string(json::string_t &) { return value(); }
  bool binary(json::binary_t &) { return value(); }

  bool start_object(std::size_t) { return open(/*isArray=*/false); }
  bool end_object() { return close(); }
  bool start_array(std::size_t) { return open(/*isArray=*/true); }
  bool end_array() { return close(); }

  bool key(json::string_t &key) {
    Container &object = containers.back();
    if (!object.keys.insert(key).second) {
      error = (sourceName + ":" + llvm::Twine(position.tokenLine) + ": " +
               memberPath(object.path, key) + ": duplicate key")
                  .str();
      return false;
    }
    object.key = key;
    return true;
  }

  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &e) {
    // Keep nlohmann's explanation, drop its id and its own position prefix.
    llvm::StringRef what = e.what();
    size_t syntax = what.find("syntax error");
    if (syntax != llvm::StringRef::npos)
      what = what.drop_front(syntax);
    error = (sourceName + ":" + llvm::Twine(position.tokenLine) + ": " + what)
                .str();
    return false;
  }

  std::string error;

private:
  struct Container {
    std::string path;
    bool isArray;
    size_t nextIndex = 0;
    std::string key;
    llvm::StringSet<> keys;
  };

  /// Records the line of the value that starts now and returns its path.
  std::string startValue() {
    std::string path;
    if (!containers.empty()) {
      Container &parent = containers.back();
      path = parent.isArray ? elementPath(parent.path, parent.nextIndex++)
                            : memberPath(parent.path, parent.key);
    }
    map.lines[path] = position.tokenLine;
    return path;
  }
  bool value() {
    startValue();
    return true;
  }
  bool open(bool isArray) {
    std::string path = startValue();
    containers.push_back(Container{std::move(path), isArray});
    return true;
  }
  bool close() {
    containers.pop_back();
    return true;
  }

  JsonLineMap &map;
  const LexerPosition &position;
  llvm::StringRef sourceName;
  std::vector<Container> containers;
};

} // namespace geflow::streamplan

llvm::Expected<JsonLineMap> JsonLineMap::scan(llvm::StringRef text,
                                              llvm::StringRef sourceName) {
  JsonLineMap map;
  LexerPosition position;
  LineRecorder recorder(map, position, sourceName);
  PositionTrackingIterator begin(text.begin(), &position);
  PositionTrackingIterator end(text.end(), &position);
  if (!nlohmann::json::sax_parse(begin, end, &recorder))
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   recorder.error);
  return map;
}

unsigned JsonLineMap::lineOf(llvm::StringRef path) const {
  while (true) {
    auto it = lines.find(path);
    if (it != lines.end())
      return it->second;
    if (path.empty())
      return 1;
    size_t cut = path.find_last_of(".[");
    path =
        cut == llvm::StringRef::npos ? llvm::StringRef() : path.take_front(cut);
  }
}

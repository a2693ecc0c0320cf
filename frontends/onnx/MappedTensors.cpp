//===- MappedTensors.cpp - cut large raw_data out of a serialized model ---===//
//
// Walks the protobuf wire format along ModelProto.graph (7) ->
// GraphProto.initializer (5) -> TensorProto.raw_data (9) and re-encodes the
// three levels without the large raw_data fields; every other field is copied
// byte for byte.
//
//===----------------------------------------------------------------------===//

#include "frontends/onnx/MappedTensors.h"

#include <cstdint>

using namespace geflow::onnxfe;

namespace {

constexpr uint32_t kModelGraphField = 7;
constexpr uint32_t kGraphInitializerField = 5;
constexpr uint32_t kTensorNameField = 8;
constexpr uint32_t kTensorRawDataField = 9;
constexpr uint32_t kTensorExternalDataField = 13;

enum WireType : uint32_t { kVarint = 0, kFixed64 = 1, kLen = 2, kFixed32 = 5 };

bool readVarint(llvm::StringRef &in, uint64_t &value) {
  value = 0;
  for (unsigned shift = 0; shift < 64 && !in.empty(); shift += 7) {
    auto byte = static_cast<uint8_t>(in.front());
    in = in.drop_front();
    value |= uint64_t(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

void appendVarint(std::string &out, uint64_t value) {
  do {
    uint8_t byte = value & 0x7f;
    value >>= 7;
    out.push_back(static_cast<char>(value ? byte | 0x80 : byte));
  } while (value);
}

/// One field of a message: its key's bytes, and its payload (LEN: the
/// content, otherwise the value's bytes).
struct Field {
  uint32_t number = 0;
  uint32_t wireType = 0;
  llvm::StringRef key;
  llvm::StringRef payload;
  /// Key and payload, as the message holds them.
  llvm::StringRef whole;
};

/// Reads the next field of `in`; false on anything malformed or a group.
bool nextField(llvm::StringRef &in, Field &field) {
  const char *start = in.data();
  uint64_t key = 0;
  if (!readVarint(in, key) || (key >> 3) == 0 || (key >> 3) > UINT32_MAX)
    return false;
  field.number = static_cast<uint32_t>(key >> 3);
  field.wireType = static_cast<uint32_t>(key & 7);
  field.key = llvm::StringRef(start, in.data() - start);
  uint64_t size = 0;
  switch (field.wireType) {
  case kVarint: {
    const char *value = in.data();
    if (!readVarint(in, size))
      return false;
    field.payload = llvm::StringRef(value, in.data() - value);
    break;
  }
  case kFixed64:
  case kFixed32:
    size = field.wireType == kFixed64 ? 8 : 4;
    if (in.size() < size)
      return false;
    field.payload = in.take_front(size);
    in = in.drop_front(size);
    break;
  case kLen:
    if (!readVarint(in, size) || in.size() < size)
      return false;
    field.payload = in.take_front(size);
    in = in.drop_front(size);
    break;
  default:
    return false;
  }
  field.whole = llvm::StringRef(start, in.data() - start);
  return true;
}

void appendLenField(std::string &out, const Field &field,
                    llvm::StringRef content) {
  out.append(field.key.data(), field.key.size());
  appendVarint(out, content.size());
  out.append(content.data(), content.size());
}

class Cutter {
public:
  explicit Cutter(MappedTensors &mapped) : mapped(mapped) {}

  /// The message `in` re-encoded into `out` with `rewrite` applied to each
  /// LEN field numbered `number`; false when malformed. Without `out` the
  /// message is only read: what would be cut is recorded, nothing is copied.
  template <typename Rewrite>
  bool rewriteFields(llvm::StringRef in, uint32_t number, std::string *out,
                     Rewrite rewrite) {
    Field field;
    while (!in.empty()) {
      if (!nextField(in, field))
        return false;
      if (field.number != number || field.wireType != kLen) {
        if (out)
          out->append(field.whole.data(), field.whole.size());
        continue;
      }
      if (!out) {
        if (!rewrite(field.payload, nullptr))
          return false;
        continue;
      }
      // At most the field's own size: one allocation, never regrown (a
      // graph's copy is megabytes of small initializers).
      std::string inner;
      inner.reserve(field.payload.size());
      if (!rewrite(field.payload, &inner))
        return false;
      appendLenField(*out, field, inner);
    }
    return true;
  }

  bool model(llvm::StringRef in, std::string *out) {
    return rewriteFields(
        in, kModelGraphField, out,
        [&](llvm::StringRef g, std::string *o) { return graph(g, o); });
  }

private:
  bool graph(llvm::StringRef in, std::string *out) {
    return rewriteFields(
        in, kGraphInitializerField, out,
        [&](llvm::StringRef t, std::string *o) { return tensor(t, o); });
  }

  bool tensor(llvm::StringRef in, std::string *out) {
    llvm::StringRef name, raw;
    int rawCount = 0;
    bool external = false;
    Field field;
    for (llvm::StringRef rest = in; !rest.empty();) {
      if (!nextField(rest, field))
        return false;
      if (field.wireType != kLen)
        continue;
      if (field.number == kTensorNameField)
        name = field.payload; // the last one wins, as when parsing
      else if (field.number == kTensorExternalDataField)
        external = true;
      else if (field.number == kTensorRawDataField) {
        raw = field.payload;
        ++rawCount;
      }
    }
    // External data replaces raw_data when it is read (ModelLoader), so such
    // a tensor is left to that path.
    if (rawCount != 1 || external || raw.size() < MappedTensors::kMinBytes) {
      if (out)
        out->append(in.data(), in.size());
      return rawCount <= 1;
    }
    if (!mapped.rawData.try_emplace(name, raw.data(), raw.size()).second)
      return false; // two initializers of one name: let the parser decide
    if (!out)
      return true;
    for (llvm::StringRef rest = in; !rest.empty();) {
      nextField(rest, field);
      if (field.number != kTensorRawDataField)
        out->append(field.whole.data(), field.whole.size());
    }
    return true;
  }

  MappedTensors &mapped;
};

} // namespace

std::optional<std::string>
geflow::onnxfe::cutLargeRawData(llvm::StringRef model, MappedTensors &mapped) {
  // A reading pass first: a model of small weights only is not copied.
  bool readable = Cutter(mapped).model(model, nullptr);
  bool anyCut = !mapped.rawData.empty();
  mapped.rawData.clear();
  if (!readable || !anyCut)
    return std::nullopt;
  std::string slim;
  slim.reserve(model.size());
  if (!Cutter(mapped).model(model, &slim)) {
    mapped.rawData.clear();
    return std::nullopt;
  }
  return slim;
}

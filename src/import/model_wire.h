// model_wire.h — a whole Model as bytes and back (internal to throng_import).
//
// The contained importer (contain.h) runs assimp in a child process, which hands its Model to the
// parent through a pipe in this form. Host byte order (little-endian, as serial.h requires); not a
// file format: both ends are the same build, so there is no versioning beyond a magic number.
//
// A field added to model.h must be added here (encode and decode) and to the field-by-field
// comparison in tests/contain_test.cpp; the sizeof tripwires in model_wire.cpp fail the build
// (libstdc++) until it is.
#pragma once

#include <throng/model.h>

#include <cstdint>
#include <span>
#include <vector>

namespace throng::detail {

// Every field of `model`, floats bit for bit (NaN payloads and -0 included), so that
// decodeModel(encodeModel(m)) equals m exactly. Throws std::bad_alloc when memory runs out.
std::vector<uint8_t> encodeModel(const Model& model);

// The Model that encodeModel wrote. The bytes are treated as hostile even though they come from
// our own child: every count is checked against the bytes that remain before anything is
// allocated, enumerations must hold a known value, and bytes left over are an error. Errors are
// one line, "the importer's result is damaged: ...". Does not validate() the Model: the caller
// does (importContained).
Result<Model> decodeModel(std::span<const uint8_t> bytes);

} // namespace throng::detail

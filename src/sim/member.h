// The member step of src/shaders/sim_member.h compiled as C++ (the CPU reference runs exactly the
// integer arithmetic the compute shader runs), in namespace throng::sim::shader.
#pragma once

#include "../shaders/shared.h"
#include "../shaders/sim_shared.h"

#include <glm/gtc/packing.hpp>

namespace throng::sim::shader {

// The GLSL names sim_member.h uses, mapped to glm.
using glm::abs;
using glm::clamp;
using glm::cos;
using glm::length;
using glm::max;
using glm::min;
using glm::normalize;
using glm::packHalf2x16;
using glm::sin;
using glm::sqrt;
using glm::uintBitsToFloat;
using vec2 = glm::vec2;
using vec3 = glm::vec3;
using uvec2 = glm::uvec2;
using ivec2 = glm::ivec2;
using gpu::shader::InstanceRecord;
using gpu::shader::throngClips;

#define SIM_FN inline
#define SIM_INOUT(T) T&
#define SIM_IN(T) const T&
#define SIM_PRECISE
#define SIM_ROOT_PARAM , const ivec4* sim_root
#define SIM_ROOT_ARG , sim_root
#define SIM_ROOT(i) sim_root[i]
#include "../shaders/sim_member.h"
#undef SIM_ROOT
#undef SIM_ROOT_ARG
#undef SIM_ROOT_PARAM
#undef SIM_FN
#undef SIM_INOUT
#undef SIM_IN
#undef SIM_PRECISE

} // namespace throng::sim::shader

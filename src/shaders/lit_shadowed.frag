#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#define THRONG_SHADOWS 1
#include "lit_body.glsl"

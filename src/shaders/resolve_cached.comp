#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#define THRONG_RESOLVE_CACHED
#include "resolve_body.glsl"

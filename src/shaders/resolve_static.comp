#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#include "resolve_body.glsl"

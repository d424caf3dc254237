#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#define THRONG_RASTER_BAKED
#define THRONG_SKIN_COARSE
#include "resolve_body.glsl"

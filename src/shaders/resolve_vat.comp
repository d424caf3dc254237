#version 450
#extension GL_GOOGLE_include_directive : require
#include "shared.h"
#define THRONG_RASTER_VAT
#include "resolve_body.glsl"

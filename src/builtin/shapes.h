// shapes.h — flat-shaded boxes, cylinders and ellipsoids with vertex colours, for the built-in
// props (props.cpp) and the built-in kit's parts (kit.cpp). Deterministic: the same calls give
// the same mesh, bit for bit. Each appends positions, normals, uvs (0), colours and indices.
#pragma once

#include <throng/model.h>

#include <array>

namespace throng::shapes {

void addVertex(Mesh& mesh, const glm::vec3& p, const glm::vec3& n, const glm::vec4& color);
// Two triangles over the quad a b c d (counter-clockwise seen from where `n` points).
void addQuad(Mesh& mesh, const std::array<glm::vec3, 4>& q, const glm::vec3& n, const glm::vec4& color);
// The axis-aligned box lo .. hi.
void addBox(Mesh& mesh, const glm::vec3& lo, const glm::vec3& hi, const glm::vec4& color);
// A cylinder about +y from y0 to y1 with both caps: its side smooth (shared vertices, radial
// normals), its caps flat; 4 * segments + 2 vertices, 4 * segments triangles.
void addCylinder(Mesh& mesh, float radius, float y0, float y1, const glm::vec4& color, int segments = 16);
// An ellipsoid of radii `radii` about `centre`, smooth-shaded, `rings` x 2 `rings` quads; only
// its part above y = centre.y + cut * radii.y when cut > -1 (a cap: hair, a helmet), closed by
// no floor.
void addEllipsoid(Mesh& mesh, const glm::vec3& centre, const glm::vec3& radii, const glm::vec4& color, int rings = 8,
                  float cut = -1.0f);

} // namespace throng::shapes

// throng's exported animation played per instance (docs/EXPORT.md's shaders), either
// animation.exr (each vertex's four joints tweened between two baked frames, cross-faded between
// two clips, blended by weight, the normal through the cofactor) or, with use_vat, vat.exr (each
// vertex's skinned position and normal read directly); lit as throng lights its members
// (src/shaders/lit_body.glsl: ambient plus diffuse, two-sided).
shader_type spatial;
render_mode unshaded, cull_disabled;

uniform sampler2D animation; // animation.exr: 3 texels a joint, a row a frame
uniform sampler2D clips;     // a texel a clip: duration, frame_count, first_row, loop
uniform sampler2D skin;      // 2 texels a vertex: joints, weights (vertex v at 2v, rows of skin_width)
uniform int skin_width;
uniform bool use_vat = false;
uniform sampler2D vat;       // vat.exr: position and normal texels of each vertex, rows_per_frame rows a frame
uniform int vat_width;
uniform int rows_per_frame;
uniform float crowd_time;    // seconds
uniform vec3 light_direction = vec3(-0.4, -1.0, -0.5); // the way light travels, unit length
uniform float ambient = 0.35;
uniform vec4 base_color = vec4(1.0); // linear (glTF's baseColorFactor), not hint_color
uniform bool textured = false;
uniform sampler2D base_texture : hint_albedo;

varying vec3 world_normal;

// docs/EXPORT.md's sampling: a clip's time to its two image rows and the weight between them.
void clipRows(int clip, float t, out int y0, out int y1, out float w) {
	vec4 c = texelFetch(clips, ivec2(clip, 0), 0); // duration, frame_count, first_row, loop
	float duration = c.x;
	float last = c.y - 1.0;
	float local = c.w > 0.5 ? t - duration * floor(t / duration) : clamp(t, 0.0, duration);
	float u = duration > 0.0 ? clamp(local / duration * last, 0.0, last) : 0.0;
	y0 = int(c.z + floor(u));
	y1 = int(c.z + min(floor(u) + 1.0, last));
	w = u - floor(u);
}

vec4 jointRow(float joint, int r, int y) { return texelFetch(animation, ivec2(3 * int(joint + 0.5) + r, y), 0); }

// Adds k times joint's tweened rows.
void addJoint(float joint, float k, int y0, int y1, float w, inout vec4 r0, inout vec4 r1, inout vec4 r2) {
	if (k == 0.0) return;
	r0 += k * mix(jointRow(joint, 0, y0), jointRow(joint, 0, y1), w);
	r1 += k * mix(jointRow(joint, 1, y0), jointRow(joint, 1, y1), w);
	r2 += k * mix(jointRow(joint, 2, y0), jointRow(joint, 2, y1), w);
}

void addClip(int clip, float t, vec4 joints, vec4 weights, float k, inout vec4 r0, inout vec4 r1, inout vec4 r2) {
	int y0;
	int y1;
	float w;
	clipRows(clip, t, y0, y1, w);
	addJoint(joints.x, k * weights.x, y0, y1, w, r0, r1, r2);
	addJoint(joints.y, k * weights.y, y0, y1, w, r0, r1, r2);
	addJoint(joints.z, k * weights.z, y0, y1, w, r0, r1, r2);
	addJoint(joints.w, k * weights.w, y0, y1, w, r0, r1, r2);
}

vec4 vatTexel(int i, int frame_row) {
	return texelFetch(vat, ivec2(i % vat_width, frame_row * rows_per_frame + i / vat_width), 0);
}

// Adds k times the vertex's tweened position and normal from vat.exr.
void addVat(int clip, float t, int i, float k, inout vec3 position, inout vec3 normal) {
	int y0;
	int y1;
	float w;
	clipRows(clip, t, y0, y1, w);
	position += k * mix(vatTexel(i, y0), vatTexel(i, y1), w).xyz;
	normal += k * mix(vatTexel(i + 1, y0), vatTexel(i + 1, y1), w).xyz;
}

void vertex() {
	// INSTANCE_CUSTOM: clip A + 4096 * clip B, time offset, speed, blend (crowd.gd).
	int clip_a = int(mod(INSTANCE_CUSTOM.x, 4096.0));
	int clip_b = int(floor(INSTANCE_CUSTOM.x / 4096.0));
	float t = crowd_time * INSTANCE_CUSTOM.z + INSTANCE_CUSTOM.y;
	float blend = INSTANCE_CUSTOM.w;
	int i = 2 * int(UV2.x + 0.5); // UV2.x: the vertex's index (_VAT_INDEX)
	if (use_vat) {
		vec3 position = vec3(0.0);
		vec3 normal = vec3(0.0);
		addVat(clip_a, t, i, 1.0 - blend, position, normal);
		if (blend > 0.0) addVat(clip_b, t, i, blend, position, normal);
		VERTEX = position;
		NORMAL = normalize(normal);
	} else {
		vec4 joints = texelFetch(skin, ivec2(i % skin_width, i / skin_width), 0);
		vec4 weights = texelFetch(skin, ivec2((i + 1) % skin_width, (i + 1) / skin_width), 0);
		vec4 r0 = vec4(0.0);
		vec4 r1 = vec4(0.0);
		vec4 r2 = vec4(0.0);
		addClip(clip_a, t, joints, weights, 1.0 - blend, r0, r1, r2);
		if (blend > 0.0) addClip(clip_b, t, joints, weights, blend, r0, r1, r2);
		vec4 p = vec4(VERTEX, 1.0);
		VERTEX = vec3(dot(r0, p), dot(r1, p), dot(r2, p));
		// The normal through the cofactor of the 3x3 part, flipped for a mirroring matrix.
		vec3 c0 = vec3(r0.x, r1.x, r2.x);
		vec3 c1 = vec3(r0.y, r1.y, r2.y);
		vec3 c2 = vec3(r0.z, r1.z, r2.z);
		vec3 k0 = cross(c1, c2);
		vec3 n = k0 * NORMAL.x + cross(c2, c0) * NORMAL.y + cross(c0, c1) * NORMAL.z;
		if (dot(c0, k0) < 0.0) n = -n;
		NORMAL = normalize(n);
	}
	world_normal = (WORLD_MATRIX * vec4(NORMAL, 0.0)).xyz;
}

void fragment() {
	vec3 n = normalize(world_normal);
	if (!FRONT_FACING) n = -n;
	float light = ambient + (1.0 - ambient) * max(dot(n, -light_direction), 0.0);
	vec4 albedo = COLOR * base_color; // the vertex colour times the member's tint (the instance colour)
	if (textured) albedo *= texture(base_texture, UV);
	ALBEDO = albedo.rgb * light;
}
